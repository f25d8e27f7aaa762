/*
 * internal.h - helpers shared by the files of the format core and nobody
 * else: checked arithmetic, byte-order loads and stores, the bounded cursor
 * every read of file data goes through; allocation is xmalloc.h's.
 */
#ifndef GGUF_INTERNAL_H
#define GGUF_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "gguf.h"
#include "guard.h"
#include "xmalloc.h"

/* ------------------------------------------------------ checked arithmetic */

/* Each returns 0 and stores the result, or -1 on overflow (out untouched). */
static inline int
gguf_add_ok(uint64_t a, uint64_t b, uint64_t *out)
{
	if (UINT64_MAX - a < b)
		return -1;
	*out = a + b;
	return 0;
}

static inline int
gguf_mul_ok(uint64_t a, uint64_t b, uint64_t *out)
{
	if (a != 0 && b > UINT64_MAX / a)
		return -1;
	*out = a * b;
	return 0;
}

/* Rounds x up to a multiple of align (a power of two). */
static inline int
gguf_align_ok(uint64_t x, uint64_t align, uint64_t *out)
{
	uint64_t	r = x % align;

	if (r == 0) {
		*out = x;
		return 0;
	}
	return gguf_add_ok(x, align - r, out);
}

/* ------------------------------------------------------------- byte order */

static inline uint16_t
gguf_ld16(const uint8_t *p, int be)
{
	return be ? (uint16_t)(p[0] << 8 | p[1]) : (uint16_t)(p[1] << 8 | p[0]);
}

static inline uint32_t
gguf_ld32(const uint8_t *p, int be)
{
	if (be)
		return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
		    (uint32_t)p[2] << 8 | p[3];
	return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[1] << 8 | p[0];
}

static inline uint64_t
gguf_ld64(const uint8_t *p, int be)
{
	if (be)
		return (uint64_t)gguf_ld32(p, 1) << 32 | gguf_ld32(p + 4, 1);
	return (uint64_t)gguf_ld32(p + 4, 0) << 32 | gguf_ld32(p, 0);
}

static inline void
gguf_st32(uint8_t *p, uint32_t v, int be)
{
	int	i;

	for (i = 0; i < 4; i++)
		p[be ? 3 - i : i] = (uint8_t)(v >> (8 * i));
}

static inline void
gguf_st64(uint8_t *p, uint64_t v, int be)
{
	int	i;

	for (i = 0; i < 8; i++)
		p[be ? 7 - i : i] = (uint8_t)(v >> (8 * i));
}

/* --------------------------------------------------------------- cursor */

/*
 * A bounded cursor over a byte range. Every read checks the bytes left
 * first and fails with the offset of the read and a description of what
 * was being read.
 */
struct gguf_cur {
	const uint8_t	*base;
	uint64_t	 size;		/* bytes in base */
	uint64_t	 pos;
	int		 be;
	unsigned	 lw;		/* 4 for v1 lengths and counts, else 8 */
	/*
	 * A first part of a file read into base (a source that cannot be
	 * mapped): full is the file's size (0: base holds all of it), and a
	 * read that runs past size but not past full fails with want set to
	 * the end it needs, so the caller can read more and start again.
	 */
	uint64_t	 full;
	uint64_t	 want;
	/*
	 * A descriptor that reads the bytes at base, or NULL: a long array
	 * of strings (a vocabulary) is then walked by reading its lengths
	 * from it (gguf_cur_rd) rather than where base maps it, each page of
	 * which would be faulted in for one look.
	 */
	struct gguf_cur_rd *rd;
};

/*
 * What reads base's bytes for a cursor's walk of a long array of strings:
 * src (gguf_source_read) at the offset of the byte in base (base maps the
 * source from its first byte), into buf (made at the first need,
 * GGUF_CUR_RD_BUF bytes; whoever made the struct frees it, after a walk
 * that a fault may have cut short). buf holds the bytes [at, at + n).
 */
#define GGUF_CUR_RD_BUF	((size_t)64 << 10)

struct gguf_source;
struct gguf_cur_rd {
	struct gguf_source *src;
	uint8_t		*buf;
	uint64_t	 at;
	uint64_t	 n;
};

/*
 * How many chains walk a long array of strings at once (bytes.c): 4, or
 * 1 for one walk (tests compare the two); any other number is 1.
 */
void	gguf_cur_chains(int);
/*
 * Whether a tensor info whose bytes are all in memory is read straight
 * from them (reader.c; 1, the default) or field by field through the
 * cursor (0): tests compare the two.
 */
void	gguf_read_fast(int);

/* Bytes left in the file (not only in base), for checks of counts. */
static inline uint64_t
gguf_cur_left(const struct gguf_cur *c)
{
	return (c->full != 0 ? c->full : c->size) - c->pos;
}

int	gguf_cur_need(struct gguf_cur *c, uint64_t n, const char *what,
	    struct gguf_err *err);
int	gguf_cur_u32(struct gguf_cur *c, uint32_t *v, const char *what,
	    struct gguf_err *err);
int	gguf_cur_u64(struct gguf_cur *c, uint64_t *v, const char *what,
	    struct gguf_err *err);
/* A length or count: u32 in v1 files, u64 after. */
int	gguf_cur_len(struct gguf_cur *c, uint64_t *v, const char *what,
	    struct gguf_err *err);
/* A string: length then bytes, bounded by the bytes left. */
int	gguf_cur_str(struct gguf_cur *c, struct gguf_str *s, const char *what,
	    struct gguf_err *err);
/*
 * Skips one value of type vt (depth counts array nesting) and stores its
 * description in v. Arrays of fixed-size elements are skipped in O(1);
 * arrays of strings or arrays are walked.
 */
int	gguf_cur_value(struct gguf_cur *c, uint32_t vt, unsigned depth,
	    struct gguf_val *v, struct gguf_err *err);

/* ------------------------------------------------- files read remotely */

/*
 * gguf_open_source for a source that cannot map, whose first n bytes the
 * caller has read already (remote.c: the header, or the header cache's
 * copy of it): head is taken (freed by the file, or at once on failure)
 * and only what the header still needs is read from src.
 */
struct gguf_file	*gguf_open_source_head(struct gguf_source *src,
			    uint8_t *head, size_t n, struct gguf_err *err);

/* reader.c: a finding added to an open file (set.c's checks). */
void	gguf_file_warn(struct gguf_file *f, int level, uint64_t off,
	    const char *msg);
/* The same about an offset in file, a shard's path that f keeps. */
void	gguf_file_warn_in(struct gguf_file *f, int level, const char *file,
	    uint64_t off, const char *msg);
/*
 * file.c: gguf_open for a shard of a set that gguf_join will join: its
 * tensor names are indexed by the set, once, not by the shard too (which
 * indexes them at its first gguf_tensor_find).
 */
struct gguf_file *gguf_open_shard(const char *path, struct gguf_err *err);
/*
 * reader.c: joins the shards of a split set as one file, taking shards
 * and paths (both arrays of n, allocated) and what they hold; shards[0]
 * must be open, the others may be NULL (missing). Shards opened with
 * gguf_open_shard are checked for a tensor name given twice here: NULL,
 * with nothing taken and *redo the first such shard, which the caller
 * opens again with gguf_open (for its finding in its place) and joins
 * again.
 */
struct gguf_file *gguf_join(const char *path, struct gguf_file **shards,
	    char **paths, size_t n, size_t *redo);

/* 64-bit FNV-1a over n bytes. */
uint64_t gguf_hash(const void *p, size_t n);

#endif /* GGUF_INTERNAL_H */
