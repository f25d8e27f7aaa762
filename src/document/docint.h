/*
 * docint.h - what encode.c and doc.c share with the storage above them
 * and nobody else sees: the document's entries and undo records, the
 * growable byte buffer and value encoding.
 */
#ifndef GGUF_DOCINT_H
#define GGUF_DOCINT_H

#include <sys/stat.h>
#include <sys/types.h>

#include <stdint.h>
#include <time.h>

#include "doc.h"
#include "internal.h"
#include "nameix.h"

/* ------------------------------------------------------------ byte buffer */

struct gbuf {
	uint8_t		*p;
	uint64_t	 n;
	uint64_t	 cap;
};

void	gbuf_put(struct gbuf *b, const void *p, uint64_t n);
void	gbuf_zeros(struct gbuf *b, uint64_t n);
void	gbuf_u32(struct gbuf *b, uint32_t v, int be);
void	gbuf_u64(struct gbuf *b, uint64_t v, int be);
/* A fixed-size scalar of size bytes (1, 2, 4 or 8) from host bits. */
void	gbuf_bits(struct gbuf *b, uint64_t bits, unsigned size, int be);
void	gbuf_free(struct gbuf *b);

/* ----------------------------------------------------------------- values */

struct gguf_value {
	unsigned	 refs;
	struct gguf_val	 val;		/* views p[0..n) */
	uint8_t		*p;
	uint64_t	 n;
};

/* Appends v's payload in v3 widths and byte order be. */
int	gguf_enc_payload(struct gbuf *b, struct gguf_val *v, int be,
	    struct gguf_err *err);
/* Size of v's payload in v3 widths, without encoding it. */
int	gguf_enc_size(struct gguf_val *v, uint64_t *size, struct gguf_err *err);
/* Wraps an encoded payload (taking the buffer) into a value. */
struct gguf_value *gguf_value_wrap(struct gbuf *b, uint32_t type, int be,
	    struct gguf_err *err);

/* ---------------------------------------------------------------- entries */

/* A refcounted owned key or tensor name. */
struct gguf_name {
	unsigned	 refs;
	uint64_t	 n;
	char		 p[];
};

/* The state of one entry; NULL members mean "the source's". */
struct dstate {
	struct gguf_name	*name;
	struct gguf_value	*val;		/* KV entries only */
	int			 removed;
	int			 f32;		/* tensors: data to float32 */
};

/* One entry's change inside an undo record. */
struct uchange {
	int		 what;		/* GGUF_CH_KV or GGUF_CH_TENSOR */
	uint64_t	 idx;
	struct dstate	 before;
	struct dstate	 after;
};

struct urec {
	char		*label;
	struct uchange	*ch;
	size_t		 n;
	uint64_t	 nkv_before;	/* entries of the KV list */
	uint64_t	 nkv_after;
};

/* The live entries by name, built again at the first lookup after a change. */
struct nindex {
	struct gguf_nameix	 ix;
	int			 dirty;
};

struct gguf_doc {
	struct gguf_file	*f;
	char			*path;		/* as opened */
	char			*real;		/* resolved, what is saved over */
	int			 fd;		/* the source, read-only */
	dev_t			 dev;		/* identity at open */
	ino_t			 ino;
	uint64_t		 size;
	struct timespec		 mtime;
	int			 be;
	int			 set;		/* a shard opens its split set */
	unsigned		 set_flags;	/* GGUF_OPEN_* */

	struct dstate		*kv;
	uint64_t		 n_kv;		/* entries, tombstones included */
	uint64_t		 cap_kv;
	uint64_t		 n_src_kv;
	struct nindex		 kvix;

	struct dstate		*ten;
	uint64_t		 n_ten;
	struct nindex		 tix;

	struct urec		*rec;
	size_t			 n_rec;		/* records kept */
	size_t			 pos;		/* records applied */
	size_t			 cap_rec;
};

/* The current key or name of an entry. */
struct gguf_str	gguf_doc_kv_key(struct gguf_doc *d, uint64_t i);
struct gguf_str	gguf_doc_tensor_name(struct gguf_doc *d, uint64_t i);
struct gguf_val	*gguf_doc_kv_val(struct gguf_doc *d, uint64_t i);
/* The type and data size a tensor entry is saved with. */
uint32_t	gguf_doc_tensor_type(struct gguf_doc *d, uint64_t i);
uint64_t	gguf_doc_tensor_nbytes(struct gguf_doc *d, uint64_t i);
/* A printable rendering of a key or name (escaped, cut) in buf. */
const char	*gguf_pname_str(struct gguf_str s, char *buf, size_t len);
/* The alignment the document declares (general.alignment or 32). */
uint32_t	gguf_doc_alignment(struct gguf_doc *d);

/*
 * doc.c: makes dk (shard k of set, opened alone) carry the edits of the
 * set's document that belong to it: every metadata edit for shard 0, the
 * edits of its own tensors. -1 with err if dk is not that shard.
 */
int	gguf_doc_adopt_shard(struct gguf_doc *dk, struct gguf_doc *set,
	    unsigned k, struct gguf_err *err);

#endif /* GGUF_DOCINT_H */
