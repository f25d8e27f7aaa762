/*
 * diff.h - what differs between two GGUF documents, typed.
 *
 * The header (version, byte order, alignment), the metadata (keys added,
 * removed, changed: old and new value, a type change as such, strings of
 * several lines as a unified diff of their lines, arrays as the elements
 * that differ with counts) and the tensors (added, removed, renamed: the
 * same data, type and shape under another name; type or shape changed;
 * data changed, by its xxh64).
 *
 * Both documents are compared as they stand: pending edits count (a
 * tensor converted to float32 is compared by the float32 data a save
 * writes). The result is a list of items, the records a JSON writer
 * needs, and the same differences as lines of text, which the command
 * line prints and the browser lists. Text from the files is escaped in
 * those lines (C escapes, \xHH, \u{XXXX} for characters that would
 * reorder or control a terminal), so they are safe to show as they are.
 *
 * Arrays are compared by their bytes first and element by element only
 * where the bytes differ; element positions are matched one to one when
 * the counts are equal, else the common head and tail are taken off and
 * the middle reported as removed and added elements.
 *
 * Either document may be a split set (set.h), compared as one model;
 * then the keys of its cutting into files (split.no, split.count,
 * split.tensors.count) are left out on both sides, so a set and its
 * merge are equal.
 *
 * --data's comparison of values (gguf_diff_values) decodes both tensors
 * a few rows at a time on several threads.
 *
 * Nothing here prints.
 */
#ifndef GGUF_DIFF_H
#define GGUF_DIFF_H

#include <stddef.h>
#include <stdint.h>

#include "gguf.h"
#include "doc.h"

#define GGUF_DIFF_HEADER	3	/* what: besides GGUF_CH_KV, GGUF_CH_TENSOR */

/* Item flags: how an entry differs. */
#define GGUF_DF_ADDED	0x01	/* only in B */
#define GGUF_DF_REMOVED	0x02	/* only in A */
#define GGUF_DF_VALUE	0x04	/* KV: the value differs */
#define GGUF_DF_TYPE	0x08	/* KV: value type; tensor: ggml type */
#define GGUF_DF_SHAPE	0x10	/* tensor: dimensions */
#define GGUF_DF_DATA	0x20	/* tensor: the data (by hash) */
#define GGUF_DF_RENAMED	0x40	/* tensor: same data under another name */
/* tensor: data past the end of the file on one side or both (see unread):
   not compared */
#define GGUF_DF_UNREAD	0x80

/* One element of an array diff. */
struct gguf_diff_elem {
	char		 op;		/* '~' changed, '-' only in A, '+' only in B */
	uint64_t	 ia;		/* index in A ('~', '-') */
	uint64_t	 ib;		/* index in B ('~', '+') */
};

/* One line of a unified diff of a string's lines. */
struct gguf_diff_sline {
	char		 op;		/* ' ', '-', '+', or '@' for a hunk head */
	const char	*p;		/* the line (no newline), into the value */
	size_t		 n;
	/* '@': the hunk's first line (1-based) and length in A and in B */
	uint64_t	 a0, an, b0, bn;
};

struct gguf_diff_item {
	int		 what;		/* GGUF_CH_KV, GGUF_CH_TENSOR, GGUF_DIFF_HEADER */
	unsigned	 flags;		/* GGUF_DF_* */
	int64_t		 a;		/* entry index in A, -1 if none */
	int64_t		 b;		/* entry index in B, -1 if none */
	struct gguf_str	 name_a;	/* key or tensor name in A; header: field */
	struct gguf_str	 name_b;
	/* KV */
	struct gguf_val	*va;		/* NULL if added */
	struct gguf_val	*vb;		/* NULL if removed */
	/* arrays of the same element type: how many elements differ */
	uint64_t	 n_changed;	/* positions whose element differs */
	uint64_t	 n_removed;	/* elements only in A */
	uint64_t	 n_added;	/* elements only in B */
	struct gguf_diff_elem	*elems;	/* the first of them, in order */
	size_t		 n_elems;
	/* strings of several lines: the unified diff */
	struct gguf_diff_sline	*slines;
	size_t		 n_slines;
	/* tensors */
	uint32_t	 type_a, type_b;
	uint32_t	 dims_a, dims_b;
	uint64_t	 ne_a[GGUF_MAX_DIMS], ne_b[GGUF_MAX_DIMS];
	uint64_t	 bytes_a, bytes_b;
	int		 has_hash;	/* hash_a and hash_b are set */
	unsigned	 unread;	/* DF_UNREAD: 1 A's, 2 B's, 3 both */
	uint64_t	 hash_a, hash_b;	/* xxh64 (seed 0) of the data */
	/* header */
	uint64_t	 old, now;
};

/* Kinds of lines, for colouring. */
enum gguf_diff_lk {
	GGUF_DL_FILE,		/* --- A, +++ B */
	GGUF_DL_HEADER,		/* a header field */
	GGUF_DL_ADD,		/* + an entry only in B */
	GGUF_DL_DEL,		/* - an entry only in A */
	GGUF_DL_CHANGE,		/* ~ an entry that differs */
	GGUF_DL_RENAME,		/* > a tensor renamed */
	GGUF_DL_DETAIL,		/* an element, a note */
	GGUF_DL_HUNK,		/* @@ -a,n +b,m @@ */
	GGUF_DL_CTX,		/* a line both strings have */
	GGUF_DL_LDEL,		/* a line only in A's string */
	GGUF_DL_LADD,		/* a line only in B's string */
	GGUF_DL_SUMMARY		/* the counts */
};

struct gguf_diff_line {
	char		*text;		/* safe, printable text, no newline */
	int		 kind;		/* enum gguf_diff_lk */
	int64_t		 item;		/* the item it belongs to, -1 if none */
};

struct gguf_diff {
	struct gguf_diff_item	*items;
	size_t			 n_items;
	struct gguf_diff_line	*lines;		/* empty when equal */
	size_t			 n_lines;
	/* counts */
	uint64_t	 kv_added, kv_removed, kv_changed;
	uint64_t	 t_added, t_removed, t_renamed, t_changed;
	uint64_t	 t_unread;	/* DF_UNREAD alone: not compared */
	uint64_t	 header;	/* header fields that differ */
	uint64_t	 hashed;	/* tensors whose data was hashed */
};

struct gguf_diff_opts {
	unsigned	 threads;	/* for hashing; 0: every CPU */
	/*
	 * Or NULL: bytes of tensor data hashed so far and in all, from one
	 * thread at a time; non-zero cancels (the diff then fails with
	 * "cancelled").
	 */
	gguf_progress_fn progress;
	void		*arg;
	unsigned	 max_elems;	/* array elements kept per key; 0: 10 */
	unsigned	 context;	/* lines of context in a string diff */
	const char	*name_a;	/* shown in the --- +++ lines */
	const char	*name_b;
};

/*
 * Compares a with b. 0 with out filled (out->n_items 0 when they are
 * equal), or -1 with err set when the data of a tensor cannot be read
 * (the message names the file and the tensor). The items and lines hold
 * views into both documents: valid until either is edited or freed.
 */
int	gguf_diff_docs(struct gguf_doc *a, struct gguf_doc *b,
	    const struct gguf_diff_opts *o, struct gguf_diff *out,
	    struct gguf_err *err);
void	gguf_diff_free(struct gguf_diff *d);

/*
 * The numbers of --data: tensor A against tensor B, element by element
 * (the same number of elements, decoded to doubles, A's float32 data for
 * both when one was converted). Elements where either value is NaN or
 * infinite are counted apart and left out of the sums.
 */
struct gguf_diff_values {
	uint64_t	 count;		/* elements compared */
	uint64_t	 nonfinite;	/* left out */
	uint64_t	 ndiff;		/* elements that differ */
	double		 max_abs;	/* max |a - b| */
	double		 rmse;		/* sqrt(mean((a - b)^2)) */
	double		 rel_rmse;	/* rmse / sqrt(mean(a^2)); NaN if A is all 0 */
	double		 cosine;	/* a.b / (|a| |b|); NaN if either is 0 */
};

/*
 * Decodes tensor ta of fa and tb of fb (equal element counts; any
 * decodable types) a chunk of rows at a time on threads (0: every CPU),
 * each thread holding one chunk of each: memory stays a few rows' worth
 * whatever the size. The sums are merged in chunk order, so the numbers
 * do not depend on the number of threads. progress (or NULL) gets the
 * elements compared so far and in all, from one thread at a time. -1 with
 * err if either cannot be decoded or the files changed on disk.
 */
int	gguf_diff_values(const struct gguf_file *fa,
	    const struct gguf_tensor *ta, const struct gguf_file *fb,
	    const struct gguf_tensor *tb, unsigned threads,
	    gguf_progress_fn progress, void *arg,
	    struct gguf_diff_values *out, struct gguf_err *err);

#endif /* GGUF_DIFF_H */
