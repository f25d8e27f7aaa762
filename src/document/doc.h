/*
 * doc.h - the copy-on-write edit model of a GGUF file, the v3 writer and
 * the safe save.
 *
 * A document is the read-only index of an opened file plus an overlay of
 * edits. Every KV entry and every tensor info of the file is an entry of
 * the document; an entry that was never edited is still only the byte
 * range of the source, and an edited one owns its new key, name or value.
 * Nothing is decoded or copied until it is edited, and saving copies the
 * unchanged entries as raw bytes.
 *
 * The merged view lists entries in document order: the file's KV pairs
 * (removed ones stay as tombstones flagged GGUF_ED_REMOVED, so a UI can
 * show them struck out), then the keys added since, in the order they
 * were added. Tensors are the file's, in file order; they can be renamed,
 * removed and converted to float32, not added.
 *
 * Every edit is one undo step (a regex rename of 1,000 tensors too);
 * undo and redo are unbounded. An edit that is refused changes nothing
 * and fills a gguf_err with a one-line reason (no offset).
 *
 * Views handed out (keys, names, value pointers) stay valid until the
 * next edit, undo, redo or save of the document.
 *
 * Nothing here prints or touches a terminal.
 */
#ifndef GGUF_DOC_H
#define GGUF_DOC_H

#include <stddef.h>
#include <stdint.h>

#include "gguf.h"

/* ------------------------------------------------------------ owned values */

/*
 * An owned, immutable, encoded value: what an edit puts into a document.
 * It is encoded like a value of the file (v3 widths), so every accessor of
 * gguf.h works on it through gguf_value_val. Reference counted; the
 * document takes its own reference.
 */
struct gguf_value;

struct gguf_value	*gguf_value_ref(struct gguf_value *v);
void			 gguf_value_unref(struct gguf_value *v);	/* NULL ok */
/* The value view; valid as long as the value is referenced. */
struct gguf_val		*gguf_value_val(struct gguf_value *v);

/*
 * Building a value: init with the type (and element type for arrays),
 * append its one scalar or string (or, for an array, its elements in
 * order), then finish. Appends never fail; a finish of a scalar or string
 * builder that did not get exactly one item returns NULL. Built values
 * are little-endian; the document converts them to its byte order.
 */
struct gguf_vbuild {
	uint8_t		*p;
	uint64_t	 n;
	uint64_t	 cap;
	uint32_t	 type;
	uint32_t	 atype;
	uint64_t	 count;		/* items appended */
};

void	gguf_vb_init(struct gguf_vbuild *b, uint32_t type, uint32_t atype);
/* A fixed-size item: the low bits of bits, as wide as the item type. */
void	gguf_vb_bits(struct gguf_vbuild *b, uint64_t bits);
void	gguf_vb_str(struct gguf_vbuild *b, const void *p, uint64_t n);
/* Any value of the item type (file-backed or owned), re-encoded. */
int	gguf_vb_val(struct gguf_vbuild *b, struct gguf_val *v,
	    struct gguf_err *err);
struct gguf_value	*gguf_vb_finish(struct gguf_vbuild *b);
void	gguf_vb_free(struct gguf_vbuild *b);	/* abandon a builder */

/*
 * A copy of any value in v3 widths and the given byte order (v1 values
 * get 64-bit lengths and counts). Fails only on malformed nested data.
 */
struct gguf_value	*gguf_value_encode(struct gguf_val *v, int be,
			    struct gguf_err *err);

/* -------------------------------------------------------------- document */

struct gguf_doc;

/*
 * Opens path read-only and makes a document of it; remembers the file's
 * identity (device, inode, size, mtime) so a save can tell whether the
 * file changed on disk since. A symlink is followed: the document edits
 * the file it points to. NULL with err set if the file cannot be read as
 * GGUF.
 */
struct gguf_doc		*gguf_doc_open(const char *path, struct gguf_err *err);
/*
 * The same, but a shard of a split model opens the whole set as one
 * document (set.h: flags GGUF_OPEN_*; GGUF_OPEN_ALONE is gguf_doc_open).
 * Saved to another path, a set becomes one file; saved as itself, each
 * edit goes to the shard it belongs to and the changed shards are
 * replaced as one transaction (setsave.c).
 */
struct gguf_doc		*gguf_doc_open_set(const char *path, unsigned flags,
			    struct gguf_err *err);
void			 gguf_doc_free(struct gguf_doc *d);

struct gguf_file	*gguf_doc_file(struct gguf_doc *d);	/* the source */
const char		*gguf_doc_path(const struct gguf_doc *d); /* as opened */
int			 gguf_doc_be(const struct gguf_doc *d);

/* Entry flags of the merged view and of diff records. */
#define GGUF_ED_ADDED	0x01	/* not in the source */
#define GGUF_ED_VALUE	0x02	/* value (or type; a tensor's data) differs */
#define GGUF_ED_RENAMED	0x04	/* key or tensor name differs */
#define GGUF_ED_REMOVED	0x08	/* dropped on save */

struct gguf_doc_kv {
	struct gguf_str	 key;		/* current key */
	struct gguf_val	*val;		/* current value */
	unsigned	 flags;		/* GGUF_ED_* */
	int64_t		 src;		/* index in the source, -1 if added */
	struct gguf_str	 src_key;	/* the source's key (if src >= 0) */
	struct gguf_val	*src_val;	/* the source's value, or NULL */
};

struct gguf_doc_tensor {
	struct gguf_str			 name;		/* current name */
	const struct gguf_tensor	*t;		/* the source's info */
	unsigned			 flags;		/* GGUF_ED_* */
	uint32_t			 type;		/* current type */
	uint64_t			 nbytes;	/* current data size */
};

/* Entries of the merged view, tombstones included. */
uint64_t	gguf_doc_n_kv(const struct gguf_doc *d);
uint64_t	gguf_doc_n_tensors(const struct gguf_doc *d);
/* Entry i; -1 if i is out of range. */
int		gguf_doc_kv(struct gguf_doc *d, uint64_t i,
		    struct gguf_doc_kv *out);
int		gguf_doc_tensor(struct gguf_doc *d, uint64_t i,
		    struct gguf_doc_tensor *out);
/* Index of the live (not removed) entry with this key or name, or -1. */
int64_t		gguf_doc_kv_find(struct gguf_doc *d, const char *key,
		    size_t len);
int64_t		gguf_doc_tensor_find(struct gguf_doc *d, const char *name,
		    size_t len);
/* Offers the live keys (or tensor names) to a "did you mean" search. */
struct gguf_suggest;
void		gguf_doc_suggest(struct gguf_doc *d, int tensors,
		    struct gguf_suggest *sg);
/* The current value of a live key, or NULL. */
struct gguf_val	*gguf_doc_get(struct gguf_doc *d, const char *key, size_t len);
/* Live counts: what a save writes. */
uint64_t	gguf_doc_live_kv(struct gguf_doc *d);
uint64_t	gguf_doc_live_tensors(struct gguf_doc *d);

/* ------------------------------------------------------------------ edits */

/*
 * Each edit returns 0, or -1 with err set and nothing changed. The checks
 * made here, whatever front end calls: keys non-empty, at most 65535
 * bytes and unique among live keys; tensor names non-empty, at most 63
 * bytes (ggml refuses 64) and unique; general.alignment a u32 power of
 * two no larger than GGUF_MAX_ALIGNMENT; bool values 0 or 1; nested
 * arrays (which ggml refuses) are never created. A key that breaks the
 * naming rules is accepted; *warn (if not NULL) is then set to 1 and the
 * caller may say so. A key holding a NUL byte is refused: ggml compares
 * keys as C strings, so it would alias the key that ends at the NUL.
 */

#define GGUF_SET_RETYPE	0x01	/* the value may change the key's type */
#define GGUF_SET_ADD	0x02	/* a missing key is added at the end */
#define GGUF_SET_FORCE	0x04	/* skip gguf_doc_check_loadable */

/* What gguf_doc_set returns when only gguf_doc_check_loadable objects. */
#define GGUF_REFUSED	(-2)

/*
 * Whether llama.cpp would load v stored under key in this document: 0,
 * or -1 with err saying why not (a well-known key of a type llama.cpp's
 * type-checking readers refuse). The browser and the command language
 * both go through it, by way of gguf_doc_set.
 */
int	gguf_doc_check_loadable(struct gguf_doc *d, const char *key,
	    size_t klen, struct gguf_val *v, struct gguf_err *err);
/*
 * 1 with msg saying so when v under key is a special token id outside
 * the document's vocabulary (llama.cpp loads the model, ignores the id
 * and keeps its default: a warning, not a refusal); else 0.
 */
int	gguf_doc_token_outside(struct gguf_doc *d, const char *key,
	    size_t klen, const struct gguf_val *v, char *msg, size_t len);

/*
 * Sets key to value v (the document takes a reference). Without
 * GGUF_SET_RETYPE, v must have the key's current type (and element
 * type); without GGUF_SET_ADD, the key must exist. Without
 * GGUF_SET_FORCE, a value gguf_doc_check_loadable refuses is not set and
 * GGUF_REFUSED is returned (err says why).
 */
int	gguf_doc_set(struct gguf_doc *d, const char *key, size_t klen,
	    struct gguf_value *v, unsigned flags, int *warn,
	    struct gguf_err *err);
int	gguf_doc_remove(struct gguf_doc *d, const char *key, size_t klen,
	    struct gguf_err *err);
/*
 * Renames key to newkey, its value unchanged. As for gguf_doc_set, a
 * value llama.cpp would refuse under newkey (a well-known key of another
 * type, a token id outside the vocabulary) is GGUF_REFUSED unless flags
 * has GGUF_SET_FORCE.
 */
int	gguf_doc_rename(struct gguf_doc *d, const char *key, size_t klen,
	    const char *newkey, size_t nlen, unsigned flags, int *warn,
	    struct gguf_err *err);
/*
 * Replaces elements [at, at + ndel) of the array key with the elements
 * of ins (an array of the same element type, or NULL for none). Setting
 * element i is (i, 1, [x]); inserting before i is (i, 0, [x...]);
 * appending is (count, 0, ...); deleting is (i, n, NULL). Only the bytes
 * of the array are spliced: no element outside the edit is decoded.
 */
int	gguf_doc_splice(struct gguf_doc *d, const char *key, size_t klen,
	    uint64_t at, uint64_t ndel, struct gguf_value *ins,
	    struct gguf_err *err);
int	gguf_doc_tensor_rename(struct gguf_doc *d, const char *name,
	    size_t nlen, const char *newname, size_t nnlen,
	    struct gguf_err *err);
/*
 * Renames every live tensor whose name matches the PCRE2 pattern, the
 * name becoming the substitution of repl ($1, ${1}, $$ as in PCRE2's
 * substitute; every match if global, else the first). All or nothing:
 * the result is checked for empty, too long and duplicate names before
 * anything changes. *n gets the number renamed (0 is not an error).
 */
int	gguf_doc_tensor_rename_re(struct gguf_doc *d, const char *pattern,
	    const char *repl, int global, uint64_t *n, struct gguf_err *err);

/*
 * A regex rename worked out without doing it: every live tensor whose
 * name the substitution changes, with its new name and, if the name
 * cannot be used, why (a bitmask of GGUF_RN_*; the entries are in tensor
 * order). The browser shows it; gguf_doc_tensor_rename_re applies it
 * when nothing is wrong.
 */
#define GGUF_RN_EMPTY	0x01	/* the new name is empty */
#define GGUF_RN_LONG	0x02	/* longer than GGUF_MAX_NAME bytes */
#define GGUF_RN_SHARED	0x04	/* two tensors would get it */
#define GGUF_RN_TAKEN	0x08	/* a tensor that keeps its name has it */

struct gguf_rename {
	uint64_t	 idx;		/* the tensor */
	char		*name;		/* its new name (NUL added) */
	size_t		 n;
	unsigned	 flaws;		/* GGUF_RN_* */
};

struct gguf_rename_plan {
	struct gguf_rename	*map;
	uint64_t		 n;
	uint64_t		 bad;		/* entries with flaws */
};

/*
 * Plans the rename of gguf_doc_tensor_rename_re: 0, or -1 with err (a
 * bad pattern or replacement). The plan is the caller's to free.
 */
int	gguf_doc_rename_plan(struct gguf_doc *d, const char *pattern,
	    const char *repl, int global, struct gguf_rename_plan *plan,
	    struct gguf_err *err);
void	gguf_rename_plan_free(struct gguf_rename_plan *plan);
/* Why an entry's name cannot be used, in a few words ("empty"), or NULL. */
const char *gguf_rename_why(const struct gguf_rename *r);
/* Removes a tensor: its info and data are dropped on save. */
int	gguf_doc_tensor_remove(struct gguf_doc *d, const char *name,
	    size_t nlen, struct gguf_err *err);
/*
 * Removes the live tensor entries idx[0..n) (distinct) as one edit, by
 * index: no name is looked up, so 10,000 removals cost 10,000 steps.
 */
int	gguf_doc_tensors_remove(struct gguf_doc *d, const uint64_t *idx,
	    size_t n, struct gguf_err *err);
/*
 * Converts a tensor's data to type (only GGUF_T_F32 is known): the
 * tensor's type becomes F32 and, when the document is saved, its data the
 * float32 values the dequantizer reads from the source, decoded a stretch
 * at a time as they are written (the tensor is never held whole). That
 * is lossless for the types whose values are float32 numbers: the
 * block-quantized ones (whatever their layout, blocks that cross rows
 * included), F16 and BF16. Refused: F32 itself, F64 and the integer types
 * (float32 would round some of their values), and data that cannot be
 * read or decoded. The entry's flags get GGUF_ED_VALUE.
 */
int	gguf_doc_tensor_convert(struct gguf_doc *d, const char *name,
	    size_t nlen, uint32_t type, struct gguf_err *err);

/*
 * Undo and redo: 0, or -1 if there is nothing to undo or redo. *label
 * (if not NULL) gets a short description of the step ("set general.name"),
 * valid until the next edit.
 */
int	gguf_doc_undo(struct gguf_doc *d, const char **label);
int	gguf_doc_redo(struct gguf_doc *d, const char **label);
int	gguf_doc_can_undo(const struct gguf_doc *d);
int	gguf_doc_can_redo(const struct gguf_doc *d);

/* ------------------------------------------------------------------- diff */

#define GGUF_CH_KV	1
#define GGUF_CH_TENSOR	2

/*
 * One pending change: an entry whose key, name or value differs from the
 * source, or that was added or removed. A value set back to exactly its
 * source bytes is no change.
 */
struct gguf_change {
	int		 what;		/* GGUF_CH_* */
	unsigned	 flags;		/* GGUF_ED_* */
	uint64_t	 index;		/* entry index in the merged view */
	struct gguf_str	 old_name;	/* source key or name (if not added) */
	struct gguf_str	 new_name;	/* current key or name */
	struct gguf_val	*old_val;	/* KV: source value, or NULL */
	struct gguf_val	*new_val;	/* KV: current value, or NULL */
	uint32_t	 old_type;	/* tensor: the source's type */
	uint32_t	 new_type;	/* tensor: the type it is saved with */
};

/*
 * The pending changes, KVs then tensors, in document order. *out is
 * allocated (caller frees it; NULL when there are none); returns the
 * count. The views inside are valid until the next edit.
 */
size_t	gguf_doc_diff(struct gguf_doc *d, struct gguf_change **out);

/* -------------------------------------------------------------- saving */

#define GGUF_RESERVED_KEY	"ggufed.reserved"	/* u8 array of zeros */

/*
 * Progress of a save: bytes written so far and in all. Return non-zero
 * to cancel: the save then fails, the target is untouched.
 */
typedef int	(*gguf_progress_fn)(void *arg, uint64_t done, uint64_t total);

#endif /* GGUF_DOC_H */
