/*
 * nameix.h - the one index from names to entries.
 *
 * Whoever owns a set of named entries (the reader's keys and tensor names,
 * the document's, the browser's groups of keys and tensors) numbers them
 * 0..n-1 and keeps their names; the index stores the numbers only, each
 * with 32 bits of its name's hash, eight bytes a slot, and asks the owner
 * for a name when it compares: only where those bits match. So a name is
 * never copied, an entry renamed by its owner is found by its new name
 * once the index is built again, and a probe past other entries rarely
 * reads their names.
 *
 * Open addressing with linear probing, at most three quarters full: it
 * grows as entries are added. Names are byte strings of any content; two
 * names are the same if their bytes are. At most UINT32_MAX - 1 entries.
 */
#ifndef GGUF_NAMEIX_H
#define GGUF_NAMEIX_H

#include <stddef.h>
#include <stdint.h>

#include "gguf.h"

/* The name of entry i of the owner ctx. */
typedef struct gguf_str (*gguf_name_fn)(void *ctx, uint64_t i);

struct gguf_nameix {
	uint64_t	*slot;		/* hash >> 32 << 32 | entry + 1; 0: empty */
	uint64_t	 mask;		/* slots - 1 */
	uint64_t	 n;		/* entries in the index */
	gguf_name_fn	 name;
	void		*ctx;
};

/* The entry in slot k (0..mask), or -1 for an empty slot. */
static inline int64_t
gguf_nameix_slot(const struct gguf_nameix *ix, uint64_t k)
{
	return (int64_t)(uint32_t)ix->slot[k] - 1;
}

/*
 * An empty index of the entries of ctx, named by name, with room for hint
 * entries before it grows.
 */
void	gguf_nameix_init(struct gguf_nameix *ix, gguf_name_fn name, void *ctx,
	    uint64_t hint);
/*
 * Adds entry i under its name, unless an entry of the same name is there:
 * then returns that entry and leaves the index as it was. Returns -1 when i
 * was added.
 */
int64_t	gguf_nameix_add(struct gguf_nameix *ix, uint64_t i);
/*
 * The same with the name's hash already made (gguf_nameix_hash): an owner
 * that indexes the same names twice (a split set's shards, then the set)
 * hashes each once.
 */
int64_t	gguf_nameix_add_hashed(struct gguf_nameix *ix, uint64_t i,
	    uint64_t hash);
/* The hash the index keys a name by. */
uint64_t gguf_nameix_hash(const char *p, size_t n);
/* The entry named p[0..n), or -1. */
int64_t	gguf_nameix_find(const struct gguf_nameix *ix, const char *p,
	    size_t n);
/* Forgets every entry, keeping the owner and the slots. */
void	gguf_nameix_clear(struct gguf_nameix *ix);
void	gguf_nameix_free(struct gguf_nameix *ix);

#endif /* GGUF_NAMEIX_H */
