/*
 * gguf.h - the GGUF format core: type tables, the bounds-checked reader and
 * value access.
 *
 * Nothing here knows about terminals, curses or standard output. Functions
 * that can fail on file data return -1 (or NULL) and fill a struct gguf_err
 * with a one-line message and, where it applies, the file offset of the
 * problem. Nothing asserts on file data.
 *
 * Strings in GGUF are length-prefixed byte runs, not NUL-terminated C
 * strings, and they may hold any byte: they are handed out as struct
 * gguf_str views into the mapping (or into an owned buffer), never copied
 * unless asked.
 */
#ifndef GGUF_H
#define GGUF_H

#include <sys/types.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "err.h"

#define GGUF_MAGIC		"GGUF"
#define GGUF_MAX_DIMS		4
#define GGUF_MAX_NAME		63	/* longest tensor name ggml loads */
#define GGUF_DEFAULT_ALIGNMENT	32
#define GGUF_MAX_ALIGNMENT	(1u << 20)	/* larger is refused */
#define GGUF_MAX_DEPTH		8	/* nesting of arrays in arrays */
#define GGUF_MAX_KEY		65535	/* spec limit; longer keys are warned */

/* ------------------------------------------------------------ type tables */

/* Metadata value types, as stored in the file. */
enum gguf_vtype {
	GGUF_VT_U8 = 0, GGUF_VT_I8, GGUF_VT_U16, GGUF_VT_I16, GGUF_VT_U32,
	GGUF_VT_I32, GGUF_VT_F32, GGUF_VT_BOOL, GGUF_VT_STR, GGUF_VT_ARR,
	GGUF_VT_U64, GGUF_VT_I64, GGUF_VT_F64,
	GGUF_VT_COUNT
};

/* "u8" ... "f64", "str", "arr"; NULL for an unknown id. */
const char	*gguf_vtype_name(uint32_t vt);
/* Size of a fixed-size value, 0 for str, arr and unknown ids. */
unsigned	 gguf_vtype_size(uint32_t vt);
/* Parses "u8" ... "f64", "bool", "str" (also "string"); -1 if unknown. */
int		 gguf_vtype_parse(const char *s, size_t n);
/*
 * The full type of a value as ggufed writes it and reads it back: "u32",
 * "arr[str]" ("?" for an unknown id). Writes into buf and returns it.
 */
const char	*gguf_vtype_text(uint32_t type, uint32_t atype, char *buf,
		    size_t len);
/*
 * Parses a full type ("u32", "arr[str]"; no arrays of arrays): 0, or -1
 * if s (n bytes) is not one. atype is 0 for a scalar type.
 */
int		 gguf_vtype_parse_full(const char *s, size_t n, uint32_t *type,
		    uint32_t *atype);
/* Every full type, "u8" ... "str", "arr[u8]" ... "arr[str]"; NULL-ended. */
const char *const *gguf_vtype_all(void);

/* ggml tensor types. */
enum gguf_ttype {
	GGUF_T_F32 = 0, GGUF_T_F16 = 1, GGUF_T_Q4_0 = 2, GGUF_T_Q4_1 = 3,
	GGUF_T_Q5_0 = 6, GGUF_T_Q5_1 = 7, GGUF_T_Q8_0 = 8, GGUF_T_Q8_1 = 9,
	GGUF_T_Q2_K = 10, GGUF_T_Q3_K = 11, GGUF_T_Q4_K = 12, GGUF_T_Q5_K = 13,
	GGUF_T_Q6_K = 14, GGUF_T_Q8_K = 15, GGUF_T_IQ2_XXS = 16,
	GGUF_T_IQ2_XS = 17, GGUF_T_IQ3_XXS = 18, GGUF_T_IQ1_S = 19,
	GGUF_T_IQ4_NL = 20, GGUF_T_IQ3_S = 21, GGUF_T_IQ2_S = 22,
	GGUF_T_IQ4_XS = 23, GGUF_T_I8 = 24, GGUF_T_I16 = 25, GGUF_T_I32 = 26,
	GGUF_T_I64 = 27, GGUF_T_F64 = 28, GGUF_T_IQ1_M = 29, GGUF_T_BF16 = 30,
	GGUF_T_TQ1_0 = 34, GGUF_T_TQ2_0 = 35, GGUF_T_MXFP4 = 39,
	GGUF_T_NVFP4 = 40, GGUF_T_Q1_0 = 41, GGUF_T_Q2_0 = 42,
	GGUF_T_COUNT = 43
};

#define GGUF_TF_REMOVED	0x01	/* id once used, removed from ggml */
#define GGUF_TF_QUANT	0x02	/* block-quantized */
#define GGUF_TF_FLOAT	0x04	/* plain float: F32 F16 BF16 F64 */
#define GGUF_TF_INT	0x08	/* plain integer: I8 I16 I32 I64 */

struct gguf_type_info {
	const char	*name;		/* "Q4_K"; NULL for ids never used */
	const char	*lname;		/* ggml's own spelling, "q4_K" */
	uint32_t	 blck;		/* elements per block, 0 if removed */
	uint32_t	 bytes;		/* bytes per block, 0 if removed */
	unsigned	 flags;		/* GGUF_TF_* */
};

/* Table entry for id, or NULL for ids at or beyond GGUF_T_COUNT. */
const struct gguf_type_info	*gguf_ttype(uint32_t id);
/* True if tensors of this type can be sized (known and not removed). */
int		 gguf_ttype_known(uint32_t id);
/* The type's name, or "type N" written into buf (at least 24 bytes). */
const char	*gguf_ttype_name(uint32_t id, char *buf);
/* Parses "Q4_K" or "q4_k" (any case); -1 if unknown. */
int		 gguf_ttype_parse(const char *s);
/*
 * Byte size of a tensor of type id with ne[0..3]: ne[0] must be a whole
 * number of blocks; every product is overflow-checked. Returns -1 with a
 * message (no offset) when the size cannot be computed.
 */
int		 gguf_ttype_nbytes(uint32_t id, const uint64_t ne[GGUF_MAX_DIMS],
		     uint64_t *nbytes, struct gguf_err *err);
/*
 * Byte size of nelem elements of block type id stored as one run of
 * blocks, the last one partly used: how early ggml sized a tensor whose
 * rows are not whole blocks (its blocks cross rows; element i is element
 * i % blck of block i / blck). Overflow-checked; -1 with a message.
 */
int		 gguf_ttype_nbytes_flat(uint32_t id, uint64_t nelem,
		     uint64_t *nbytes, struct gguf_err *err);
/*
 * Whether data of type id in a file of byte order be (1: big-endian) can
 * be decoded to numbers: every type in use can, little-endian; big-endian
 * only the plain types (a quantized block has no defined byte order). 0,
 * or -1 with err saying why not. The decoders (dequant.h) hold to it.
 */
int		 gguf_ttype_decodable(uint32_t id, int be,
		     struct gguf_err *err);

/* general.file_type names ("MOSTLY_Q4_K_M"), NULL if unknown. */
const char	*gguf_file_type_name(uint32_t ft);
/* tokenizer.ggml.token_type names ("normal", "control", ...), NULL if unknown. */
const char	*gguf_token_type_name(int64_t tt);

/* ------------------------------------------------------------------ values */

struct gguf_str {
	const char	*p;
	uint64_t	 n;
};

struct gguf_arrix;	/* lazily built element index of an array */

/*
 * A value is a view of its encoded payload (the bytes after the type tag)
 * plus how to read it. File-backed values point into the mapping; edited
 * values point into buffers owned by whoever made them. Arrays carry their
 * element type and count; their elements are found through gguf_arr_get.
 */
struct gguf_val {
	uint32_t	 type;		/* enum gguf_vtype */
	uint8_t		 be;		/* payload is big-endian */
	uint8_t		 lw;		/* width of string lengths and counts: 4 (v1) or 8 */
	const uint8_t	*p;		/* payload */
	uint64_t	 n;		/* payload size in bytes */
	uint64_t	 off;		/* file offset of payload (messages) */
	uint32_t	 atype;		/* arrays: element type */
	uint64_t	 count;		/* arrays: element count */
	struct gguf_arrix *ix;		/* arrays of str/arr: index, or NULL */
};

/* Scalars: each returns -1 if the value is not of a fitting type. */
int	gguf_val_u64(const struct gguf_val *v, uint64_t *out);	/* any unsigned, or signed >= 0, or bool */
int	gguf_val_i64(const struct gguf_val *v, int64_t *out);	/* any integer that fits, or bool */
int	gguf_val_f64(const struct gguf_val *v, double *out);	/* any number */
int	gguf_val_str(const struct gguf_val *v, struct gguf_str *out);	/* str only */
/* Raw bits of a fixed-size scalar (byte-swapped to host order). */
uint64_t gguf_val_bits(const struct gguf_val *v);

/*
 * Element i of an array as a value (a fixed-size scalar, a string or a
 * nested array). Elements of fixed-size types are found in O(1); strings
 * and nested arrays through an index of checkpoints built on the first
 * access, so element 149,999 of a 150,000-string array costs a short walk.
 * The index is owned by the value's owner (the file, or the document).
 */
int	gguf_arr_get(struct gguf_val *arr, uint64_t i, struct gguf_val *elem,
	    struct gguf_err *err);
void	gguf_arrix_free(struct gguf_arrix *ix);

/*
 * The strings of an array of strings, front to back, each handed to fn
 * as its bytes (not NUL-terminated) with its index, no value made of it:
 * a vocabulary's 150,000 tokens in a few instructions each. Stops at the
 * first nonzero fn returns, and returns that; 0 when all were handed;
 * -1 with err for an array that is not of strings or whose payload ends
 * inside one.
 */
int	gguf_arr_strings(const struct gguf_val *arr,
	    int (*fn)(void *arg, uint64_t i, const char *p, uint64_t n),
	    void *arg, struct gguf_err *err);

/* ----------------------------------------------------------------- reader */

/* How bad a defect is, from the point of view of the readers in use. */
enum gguf_wlevel {
	GGUF_W_NOTE,		/* against the spec's advice; every reader loads it */
	GGUF_W_WARN,		/* some readers misread or refuse it */
	GGUF_W_ERROR		/* ggml or llama.cpp refuses or misreads it */
};

#define GGUF_NO_OFFSET	UINT64_MAX	/* a warning about no byte of a file */

struct gguf_warning {
	uint64_t	 off;		/* file offset it concerns, or GGUF_NO_OFFSET */
	int		 level;		/* enum gguf_wlevel */
	char		*msg;		/* one line */
	const char	*file;		/* a set: the shard off is in; NULL: this file */
};

/* "note", "warning", "error". */
const char	*gguf_wlevel_name(int level);
/* "2 errors, 1 warning" from counts by level, or none if all are 0. */
const char	*gguf_wlevel_counts(const unsigned count[3], const char *none,
		    char *buf, size_t len);

/* One KV pair as found in the file. */
struct gguf_kv {
	struct gguf_str	 key;
	struct gguf_val	 val;
	uint64_t	 off;		/* [off, end): raw bytes of the whole entry */
	uint64_t	 end;
};

#define GGUF_TENSOR_UNSIZED	0x01	/* unknown type or partial block: size unknown */
#define GGUF_TENSOR_UNREADABLE	0x02	/* data lies (partly) beyond the end of the file */
#define GGUF_TENSOR_XROW	0x04	/* rows are not whole blocks: blocks cross rows */

/* The 32-bit fields last, packed: a model holds tens of thousands. */
struct gguf_tensor {
	struct gguf_str	 name;
	uint64_t	 ne[GGUF_MAX_DIMS];	/* unused dims are 1 */
	uint64_t	 offset;	/* relative to the data section */
	uint64_t	 nelem;
	uint64_t	 nbytes;	/* 0 if GGUF_TENSOR_UNSIZED */
	uint64_t	 off;		/* [off, end): raw bytes of the tensor info */
	uint64_t	 end;
	uint32_t	 n_dims;	/* as stored (0..4) */
	uint32_t	 type;		/* ggml type id, possibly unknown */
	unsigned	 flags;		/* GGUF_TENSOR_* */
	uint32_t	 shard;		/* split sets: the shard that holds it */
};

struct gguf_file;

/*
 * Opens path read-only (open + mmap MAP_PRIVATE) and indexes it: header,
 * every KV entry and every tensor info, with O(1) lookup by name. Decodes
 * no array element and no tensor data. A URL (http://, https://, hf://)
 * is read over the network (remote.h): its header at once, its tensor
 * data as it is asked for. Returns NULL with err set when the
 * file cannot be read as GGUF; tolerated defects become warnings.
 */
struct gguf_file	*gguf_open(const char *path, struct gguf_err *err);
/*
 * How the files opened from now on keep their header region.
 * GGUF_HEADERS_COPY (the default): the process's own memory, read into it
 * (a small one) or copied out of the file's mapping, which reads as the
 * file was whatever then happens to it, as a program that keeps its files
 * open wants. GGUF_HEADERS_VIEW: left where the file is mapped, nothing
 * read or copied, which opens a large header in a fraction of the time;
 * a part the file then loses (cut by another program) reads as zeros,
 * never faults, and gguf_headers_cut says whether that happened, for a
 * program that reads its files for moments to say that what it read may
 * be wrong. GGUF_HEADERS_LATER: a small header read, a large one left
 * where it is mapped until gguf_file_keep copies it (once the program has
 * shown the file and goes on holding it).
 */
#define GGUF_HEADERS_VIEW	0
#define GGUF_HEADERS_COPY	1
#define GGUF_HEADERS_LATER	2
void			 gguf_keep_headers(int how);
int			 gguf_headers_cut(void);
/*
 * Copies f's header region (each shard's) into the process's own memory
 * now, where it was left where the file is mapped: for a program that,
 * having shown it, goes on holding the file. 0, or -1 with err set (the
 * file changed meanwhile).
 */
int			 gguf_file_keep(struct gguf_file *f,
			    struct gguf_err *err);
/*
 * Whether the mappings of the files closed from now on are left for the
 * process's exit to take down (1; the most recent 64), instead of undone
 * at each close (0, the default): for a program that reads a few files
 * and ends, which saves a flush of its address space a file.
 */
void			 gguf_unmap_late(int on);
/*
 * Opens path with flags (O_RDONLY, O_WRONLY or O_RDWR; O_CLOEXEC is
 * added) without ever waiting: a FIFO or a device named like a model is
 * refused at once, never waited on. The descriptor of a regular file, or
 * -1 with err set (the system's reason, or "not a regular file") and
 * errno (EINVAL for a file that is not regular). err may be NULL.
 */
int			 gguf_open_regular(const char *path, int flags,
			    struct gguf_err *err);
/*
 * Opens a file of text the user named (a manifest, a script, a value) for
 * reading: a regular file, or a pipe (standard input, a shell's process
 * substitution, a FIFO some process writes to), read to its end. A FIFO
 * that no process has opened to write is refused at once ("a FIFO no
 * process writes to") rather than waited on, and so is anything else (a
 * directory, a device). NULL with err set. err may be NULL.
 */
FILE			*gguf_open_text(const char *path,
			    struct gguf_err *err);
/*
 * The next line of a text file, its newline kept, NUL-terminated in
 * *line (grown as needed, *cap its size): its length, or -1 at the end of
 * the file (or a read error: ferror says), -2 at a NUL byte (not text),
 * -3 when it runs past max bytes. Bounded, unlike getline: a stream
 * without newlines cannot fill the memory.
 */
ssize_t			 gguf_text_line(FILE *fp, char **line, size_t *cap,
			    size_t max);
/*
 * The same over an open descriptor, which stays the caller's (it may be
 * closed at once: the mapping does not need it). path is kept for
 * messages and may be NULL.
 */
struct gguf_file	*gguf_open_fd(int fd, const char *path,
			    struct gguf_err *err);
/* The same over a caller-owned buffer that must outlive the file. */
struct gguf_file	*gguf_open_buffer(const void *buf, size_t len,
			    struct gguf_err *err);
/*
 * The same over a source (source/source.h), which the file takes: it is
 * closed with the file, or at once when the open fails. A source that
 * maps is walked in place; one that does not gives its first 2 MiB, then
 * what the header still needs, and its tensor data is then read into
 * buffers (gguf_file_read), never mapped (gguf_tensor_data refuses it).
 */
struct gguf_source;
struct gguf_file	*gguf_open_source(struct gguf_source *src,
			    struct gguf_err *err);
/*
 * f's source (a URL's too: its "http" source), NULL for a buffer or a
 * set (ask its shards).
 */
struct gguf_source	*gguf_file_source(const struct gguf_file *f);
/*
 * The bytes of f's header region, [0, data_off), as they were when it
 * was opened: the process's own memory (the source's pinned copy, the
 * bytes read from it, or the buffer), which never faults and never
 * changes whatever happens to the file. For the copies of header bytes
 * a save keeps as they are; tensor data is read through the source.
 */
const uint8_t		*gguf_file_header(const struct gguf_file *f);
/*
 * All of f's bytes where they lie in memory: a buffer's, or the mapping
 * of a source that maps (gguf_source_map; its reads go through
 * gguf_file_guard). NULL for a source that is read, not mapped, and for
 * a set (ask its shards): read those through gguf_file_source.
 */
const uint8_t		*gguf_file_mem(const struct gguf_file *f);
/*
 * Whether all of f's bytes are in memory or mapped (a buffer, a mapped
 * source, a set whose first shard is): gguf_tensor_data then points at
 * them. 0 for a source that cannot map.
 */
int			 gguf_file_whole(const struct gguf_file *f);
/*
 * Reads [off, off + len) of the plain file f (not a set: read its shard)
 * into buf: from the mapping under the guard, or from the source, after
 * checking that it did not change. 0, or -1 with err set (a range outside
 * the file, "changed on disk: ...", a short read).
 */
int			 gguf_file_read(const struct gguf_file *f,
			    uint64_t off, void *buf, size_t len,
			    struct gguf_err *err);
void			 gguf_close(struct gguf_file *f);

struct gguf_layout {
	uint32_t	 version;	/* 1, 2 or 3 */
	int		 be;		/* big-endian */
	uint32_t	 alignment;
	uint64_t	 file_size;
	uint64_t	 n_kv;
	uint64_t	 n_tensors;
	uint64_t	 kv_off;	/* start of the KV section (end of header) */
	uint64_t	 ti_off;	/* start of the tensor infos */
	uint64_t	 ti_end;	/* end of the tensor infos */
	uint64_t	 data_off;	/* start of the data section */
	uint64_t	 data_end;	/* end of the last tensor's data (<= file_size if readable) */
};

const struct gguf_layout *gguf_layout(const struct gguf_file *f);
const char		*gguf_path(const struct gguf_file *f);	/* NULL for buffers */
/*
 * The reader's view of f's bytes: a mapped source's mapping, a buffer,
 * or the header region read from a source that cannot map. For the
 * reader and its tests; elsewhere the header's bytes are
 * gguf_file_header's, and the data is read through gguf_file_mem,
 * gguf_file_read or the source.
 */
const uint8_t		*gguf_base(const struct gguf_file *f);
/*
 * The file's own read-only descriptor (kept open with the mapping; for
 * pread), -1 for buffers. It stays the file's: do not close it.
 */
int			 gguf_file_fd(const struct gguf_file *f);

struct gguf_kv		*gguf_kv_at(struct gguf_file *f, uint64_t i);
/* Index of the first KV with this key, or -1. */
int64_t			 gguf_kv_find(const struct gguf_file *f, const char *key,
			    size_t len);
/* The value of key, or NULL if absent. */
struct gguf_val		*gguf_kv_get(struct gguf_file *f, const char *key);

const struct gguf_tensor	*gguf_tensor_at(const struct gguf_file *f,
				    uint64_t i);
int64_t			 gguf_tensor_find(const struct gguf_file *f,
			    const char *name, size_t len);
/*
 * Pointer to the tensor's data, or NULL with err set if it is unreadable
 * or its file is not mapped (gguf_file_whole: read it with
 * gguf_file_read then). Reads of it must go through gguf_file_guard (or
 * the dequant and stats functions that take the file, which do).
 */
const uint8_t		*gguf_tensor_data(const struct gguf_file *f,
			    const struct gguf_tensor *t, struct gguf_err *err);

/*
 * Whether the file changed on disk since it was opened: the open file's
 * size and modification time; with GGUF_CHANGE_PATH also whether the path
 * it was opened by now names another file or none; with
 * GGUF_CHANGE_CONTENT also its header region, byte for byte against the
 * copy read at open (catches a rewrite that kept the size and the time).
 * 0 if unchanged (always for buffers); 1 if changed, with err saying how
 * ("changed on disk: cut to 4,096 bytes (1,052,672 when opened)").
 */
#define GGUF_CHANGE_PATH	0x01
#define GGUF_CHANGE_CONTENT	0x02
int			 gguf_file_changed(const struct gguf_file *f,
			    unsigned how, struct gguf_err *err);
/*
 * Runs fn(arg), which reads f's tensor data through the mapping, so that
 * the file changing on disk cannot crash it: -1 with err ("changed on
 * disk: ...") if the file changed before it starts, or if a read faults
 * because the file shrank meanwhile (fn is then abandoned where it was:
 * it must hold no lock and own no memory while it reads); otherwise what
 * fn returned. The process's SIGBUS handler is the core's from the first
 * call on (gguf_open installs it); a handler installed earlier still gets
 * the faults that are not reads of a guarded file.
 */
int			 gguf_file_guard(const struct gguf_file *f,
			    int (*fn)(void *), void *arg, struct gguf_err *err);
/*
 * Gives back the memory of the pages of f's mapping that [p, p + len)
 * touches, once a scan has read them (a later read faults them in again
 * from the page cache). The header region, the process's own copy of
 * the file's header, is never given back.
 */
void			 gguf_file_release(const struct gguf_file *f,
			    const uint8_t *p, uint64_t len);
/*
 * Tells the kernel that [p, p + len) of f's mapping is about to be read
 * in order, so that it reads ahead of the reads (cold pages come in large
 * runs). Nothing for a file read from memory.
 */
void			 gguf_file_sequential(const struct gguf_file *f,
			    const uint8_t *p, uint64_t len);
/*
 * Maps in the pages of f's mapping that [p, p + len) touches, about to
 * be read (gguf_source_populate): one call, not a fault every few pages.
 * Only a hint; nothing for a file read from memory.
 */
void			 gguf_file_populate(const struct gguf_file *f,
			    const uint8_t *p, uint64_t len);

/*
 * Split sets (set.h opens them): a file that joins the shards of a split
 * model. Its metadata, layout and raw KV bytes are the first shard's; its
 * tensors are every shard's in shard order, each with its shard index,
 * offsets and info bytes relative to that shard; gguf_tensor_data, the
 * guard and the change checks go to the right shard. Its warnings are the
 * shards' (each with its shard in file) and the set's own.
 * gguf_n_shards is 0 for a plain file; a shard that could not be opened
 * is NULL (its path is still known).
 */
size_t			 gguf_n_shards(const struct gguf_file *f);
/*
 * The errors that make a set's shards no one set (its findings too):
 * split keys that disagree with each other or with the file names, a
 * shard missing or unreadable, a tensor in two shards. How many; the
 * first ("SHARD: why") in *first (NULL if none; first may be NULL).
 */
unsigned		 gguf_set_errors(const struct gguf_file *f,
			    const char **first);
const struct gguf_file	*gguf_shard(const struct gguf_file *f, size_t i);
const char		*gguf_shard_path(const struct gguf_file *f, size_t i);
/* The file that holds t's data: its shard, or f itself. */
const struct gguf_file	*gguf_tensor_file(const struct gguf_file *f,
			    const struct gguf_tensor *t);
/*
 * The path of the file that holds t's info and data, for messages that
 * give an offset of t: its shard's path in a set, else NULL (f itself).
 * It lives as long as f.
 */
const char		*gguf_tensor_path(const struct gguf_file *f,
			    const struct gguf_tensor *t);

/*
 * The findings of f: at most 256 are kept, errors first (an error takes
 * the place of a lesser finding at the cap); when some were left out, a
 * last one says how many of each level, at the level of the worst.
 */
size_t			 gguf_n_warnings(const struct gguf_file *f);
const struct gguf_warning	*gguf_warning_at(const struct gguf_file *f,
				    size_t i);

/* ------------------------------------------------------------------ text */

/*
 * Length of the valid UTF-8 sequence at p (at most n bytes) with its code
 * point in *cp, or 0 if the bytes there are not valid UTF-8 (overlongs,
 * surrogates and values above U+10FFFF are invalid).
 */
size_t		 gguf_utf8_seq(const unsigned char *p, size_t n, unsigned *cp);
/*
 * True for code points that must be shown escaped even when valid: C0 and
 * C1 controls, DEL, bidirectional overrides and isolates, directional
 * marks, line and paragraph separators.
 */
int		 gguf_cp_unsafe(unsigned cp);
/*
 * A short printable-ASCII rendering of n bytes for messages, to go
 * between double quotes: \ and " as \\ and \", everything else outside
 * printable ASCII as \xHH, cut after 80 input bytes with "...". Writes
 * into buf and returns it. A message holding it is shown as it is, never
 * escaped again.
 */
const char	*gguf_pname(const char *p, size_t n, char *buf, size_t len);
/*
 * A scalar value as text, as ggufed prints it and reads it back: integers
 * in decimal, f32 as %.9g and f64 as %.17g (both exact), bools true and
 * false ("2 (invalid bool)" for a byte that is neither), "?" for what
 * cannot be read. Strings and arrays are not scalars here. Returns buf.
 */
const char	*gguf_val_scalar_text(const struct gguf_val *v, char *buf,
		    size_t len);
/*
 * n bytes as a string in the value syntax (cmd/value.h), allocated: bare
 * when that reads back the same (valid UTF-8, no control character, no
 * blank at either end, not starting with " or @), else "quoted" with C
 * escapes (\xHH for every byte of text that is not valid UTF-8).
 */
char		*gguf_str_quote(const char *p, size_t n);
/* The same, always "quoted". */
char		*gguf_str_cquote(const char *p, size_t n);
/*
 * n bytes as a JSON string on fp: UTF-8 as it is (but U+2028, U+2029 and
 * the other code points gguf_cp_unsafe names as \uXXXX), controls as
 * \uXXXX, and each byte of text that is not valid UTF-8 as the lone
 * surrogate \udcXX, so that the bytes can be recovered (value syntax,
 * Python's "surrogateescape").
 */
void		 gguf_json_str(FILE *fp, const char *p, size_t n);
/* A scalar or string value in the value syntax, allocated. */
char		*gguf_val_text(const struct gguf_val *v);
/* The value of one hexadecimal digit (either case), or -1. */
int		gguf_hexval(int c);
/* 1234567 -> "1,234,567" in buf; returns buf. */
const char	*gguf_fmt_group(uint64_t v, char *buf, size_t len);
/* 1536 -> "1.5 KiB" (binary units; bytes below 1 KiB as "N B"). */
const char	*gguf_fmt_size(uint64_t v, char *buf, size_t len);
/* 1536 -> "1,536 (1.5 KiB)": the exact count and its size. */
const char	*gguf_fmt_bytes(uint64_t v, char *buf, size_t len);

/* ------------------------------------------------------------- key rules */

/* True if key is lower_snake_case segments separated by dots. */
int	gguf_key_is_canonical(const char *key, size_t len);

#endif /* GGUF_H */
