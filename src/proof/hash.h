/*
 * hash.h - hashes of tensor data and of byte ranges of a file: XXH64 and
 * XXH3 (libxxhash), SHA-1 and SHA-256 (nettle), and the
 * UUIDv5 llama.cpp's gguf-hash derives from a model's tensor data.
 *
 * A job hashes a list of byte ranges (spans, spanread.h: they may lie in
 * different files) each on its own, all of them in list order as one
 * stream, or both, on the span reader: both cores, the hash of the
 * stream in its own thread while the other hashes each span from the
 * same buffers; without it, two threads hash halves of the span list.
 * Nothing here prints.
 */
#ifndef GGUF_HASH_H
#define GGUF_HASH_H

#include <stddef.h>
#include <stdint.h>

#include "gguf.h"
#include "spanread.h"

enum gguf_hash_kind {
	GGUF_H_XXH64,
	GGUF_H_XXH3,		/* XXH3_64bits, seed 0 */
	GGUF_H_SHA1,
	GGUF_H_SHA256,
	GGUF_H_UUID,		/* UUIDv5: SHA-1 of llama.cpp's namespace + data */
	GGUF_H_COUNT
};

#define GGUF_HM(kind)		(1u << (kind))	/* a kind in a mask */
#define GGUF_HM_ALL		((1u << GGUF_H_COUNT) - 1)
#define GGUF_HASH_MAXLEN	32	/* bytes of the longest digest */
#define GGUF_HASH_TEXTLEN	65	/* buffer for any digest as text */

/*
 * A digest as bytes in the order its text is written: XXH64 and XXH3 in
 * their canonical (big-endian) form, the UUID as its 16 bytes.
 */
struct gguf_digest {
	uint8_t		 len;		/* 0: not computed */
	uint8_t		 b[GGUF_HASH_MAXLEN];
};

/* One digest per kind; those not asked for have len 0. */
struct gguf_hashes {
	struct gguf_digest	 d[GGUF_H_COUNT];
};

/* "xxh64", "xxh3", "sha1", "sha256", "uuid"; NULL for another value. */
const char	*gguf_hash_name(int kind);
/* The kind named s (n bytes), as gguf_hash_name spells it; -1 if none. */
int		 gguf_hash_parse(const char *s, size_t n);
/*
 * A digest as llama-gguf-hash writes it: lowercase hex, the UUID as
 * 8-4-4-4-12 groups. buf holds at least GGUF_HASH_TEXTLEN bytes; returns
 * it.
 */
const char	*gguf_hash_text(int kind, const struct gguf_digest *d,
		    char *buf);
/* True if both digests were computed and are equal. */
int		 gguf_digest_eq(const struct gguf_digest *a,
		    const struct gguf_digest *b);

/* One kind over a memory buffer. */
void		 gguf_hash_mem(int kind, const void *p, size_t n,
		    struct gguf_digest *out);

struct gguf_hash_job {
	const struct gguf_span	*spans;		/* each names its file */
	size_t			 n_spans;
	unsigned		 each;		/* kinds of each span (mask) */
	unsigned		 all;		/* kinds of all spans in order */
	struct gguf_hashes	*each_out;	/* n_spans entries if each */
	struct gguf_hashes	*all_out;	/* if all */
	/*
	 * Called from the calling thread with the bytes hashed and the
	 * bytes to hash (the spans' sum), as spanread.h's progress: done
	 * reaches total only when every byte is hashed. Non-zero cancels
	 * the job, which then fails with "cancelled". May be NULL.
	 */
	int			(*progress)(void *arg, uint64_t done,
				    uint64_t total);
	void			*arg;
	/*
	 * 0: one a core. On more than two, each span's hash runs on all
	 * but one of them (on all without all), the list cut into runs of
	 * about equal bytes, and all's on the last, which reads the bytes
	 * a second time; on two, the threads share one read of the bytes
	 * (all alone: the calling thread reads, the other hashes).
	 */
	unsigned		 threads;
	unsigned		 threads_used;	/* out: the threads it ran on */
	size_t			 err_span;	/* out: as spanread.h's */
	/*
	 * Out, with each and all (GGUF_SR_SHARE): the times a span's own
	 * hash begun by thread 0 was handed on to thread 1 to end (on one
	 * thread, the same thread makes both calls); a run that stopped
	 * may count one thread 1 never took.
	 */
	size_t			 handed;
};

/*
 * Runs the job: 0, or -1 with err set (a read error, a file that ends
 * before a span does, a cancel; err names the offset).
 */
int	gguf_hash_run(struct gguf_hash_job *j, struct gguf_err *err);

/*
 * Tensor data hashes of f, tensors in file (info) order, each exactly its
 * data (no padding): each_out[i] for tensor i (n_tensors entries, when
 * each is not 0) and all_out over the data of every tensor in that order
 * (when all is not 0), as llama.cpp's gguf-hash computes them. A split
 * set (gguf_n_shards) is one model: its tensors in set order, each read
 * from its shard. -1 with err set when a tensor's size is unknown, its
 * data lies past the end of its file or its shard could not be read, or
 * on a read error; then *err_tensor (may be NULL) is that tensor, or
 * UINT64_MAX for a cancel.
 */
int	gguf_hash_tensors(const struct gguf_file *f, unsigned each,
	    unsigned all, struct gguf_hashes *each_out,
	    struct gguf_hashes *all_out,
	    int (*progress)(void *, uint64_t, uint64_t), void *arg,
	    uint64_t *err_tensor, struct gguf_err *err);
/* One kind of tensor i's data: 0, or -1 with err set. */
int	gguf_hash_tensor(const struct gguf_file *f, uint64_t i, int kind,
	    struct gguf_digest *out, struct gguf_err *err);
/*
 * Tensor i's data as a span of the file that holds it (a split set's
 * shard; absolute offsets, unit 0): a local file's read through its
 * descriptor into the span reader's buffers, checked before each piece
 * to be as it was opened (on a virtual machine whose page cache reads at
 * 15 GB/s, xxh64 of 2.2 GB so took 0.25 s against 0.70 s through the
 * mapping, and xxhsum 0.31 s); a file in memory where it lies; a
 * remote one from its source. 0, or -1 with err set when its size is
 * unknown, its data lies past the end of the file, or its shard could
 * not be read.
 */
int	gguf_tensor_span(const struct gguf_file *f, uint64_t i,
	    struct gguf_span *out, struct gguf_err *err);
/*
 * The same span read in place from the mapping of the file that holds
 * it (spanread.h's gguf_span.file), for a pass made while f stays open:
 * no copy, and a file changed on disk fails the pass cleanly. (What the
 * span reader's tests compare the reads through a descriptor with.)
 */
int	gguf_tensor_span_mapped(const struct gguf_file *f, uint64_t i,
	    struct gguf_span *out, struct gguf_err *err);

/* ------------------------------------------------ proof after a save */

struct gguf_doc;

struct gguf_proof_tensor {
	char		*name;		/* as saved (after renames) */
	struct gguf_span src;		/* its data in the source */
	int		 edited;	/* the save writes new data (convert) */
	uint32_t	 type;		/* as saved */
};

/*
 * What a save of a document is about to copy: every live tensor, its
 * data's place in the source, and whether the edit rewrites it. Holds a
 * descriptor of the source, so the proof can be made after a save that
 * replaced it.
 */
struct gguf_proof {
	int			 fd;		/* the source, for pread */
	const uint8_t		*mem;		/* or its memory (fd < 0) */
	struct gguf_proof_tensor *t;
	size_t			 n;
	/*
	 * A split set: the result is opened as a set, and the source's
	 * shards are read through descriptors of their own (kept[i], a
	 * copy of the set's from[i]), as a save may close the set's.
	 */
	int			 set;
	int			*from, *kept;
	size_t			 n_kept;
};

struct gguf_proof_result {
	int		 inplace;	/* saved in place: data not rewritten */
	uint64_t	 checked;	/* tensors compared */
	/*
	 * Of them, those not hashed: their data lies where it lay in the
	 * file they were read from, which the save did not rewrite (saved in
	 * place, or a shard of a set it left alone).
	 */
	uint64_t	 kept;
	char		**changed;	/* copied, but the bytes differ */
	size_t		 n_changed;
	char		**missing;	/* not in the result */
	size_t		 n_missing;
	char		**edited;	/* rewritten by the edit, not compared */
	size_t		 n_edited;
};

/* Before gguf_doc_save: 0, or -1 with err set. */
int	gguf_proof_begin(struct gguf_doc *d, struct gguf_proof *p,
	    struct gguf_err *err);
/*
 * After the save: opens the result (path) and compares the xxh64 of each
 * copied tensor's data in the source and in the result, both read at
 * once on two threads. inplace (the save took the in-place path, so the
 * data was not written) compares where each tensor's data lies instead,
 * and so does a tensor whose data is in the same file as before (a shard
 * of a set the save did not rewrite, or saved in place).
 * 0 with r filled (r->n_changed + r->n_missing is 0 when the data is
 * intact), or -1 with err set if the result or the source cannot be read.
 */
int	gguf_proof_check(struct gguf_proof *p, const char *path, int inplace,
	    int (*progress)(void *, uint64_t, uint64_t), void *arg,
	    struct gguf_proof_result *r, struct gguf_err *err);
/*
 * The result as one line: "tensor data unchanged (38 tensors, xxh64)",
 * then "; rewritten by the edit: NAME (F32)" for converted tensors, or
 * "tensor data CHANGED: NAME, ...; missing: NAME" when the data is not
 * intact. Names are escaped as gguf_pname does. Allocated.
 */
char	*gguf_proof_text(const struct gguf_proof_result *r);
void	 gguf_proof_free(struct gguf_proof *p);
void	 gguf_proof_result_free(struct gguf_proof_result *r);

#endif /* GGUF_HASH_H */
