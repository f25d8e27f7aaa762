/*
 * docint.h - what encode.c, doc.c, writer.c and save.c share and nobody
 * else sees: the document's entries and undo records, the growable byte
 * buffer, value encoding, and the save plan the writer follows.
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
	int			 journal;
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

/* ------------------------------------------------------------------- plan */

struct wplan {
	int		 ver;		/* of the source */
	uint32_t	 align;
	uint64_t	 n_kv;		/* written */
	uint64_t	 n_tensors;
	uint64_t	 hdr_end;	/* end of the tensor infos */
	uint64_t	 data_off;	/* end of the header region */
	uint64_t	 data_len;	/* data section, padding included */
	uint64_t	 file_size;
	int		 relayout;	/* tensor data moves tensor by tensor */
	uint64_t	*off;		/* per tensor entry: its new offset */
	int64_t		 res_kv;	/* entry holding the reserve, -1 none */
	int		 res_new;	/* the reserve entry is appended */
	int		 res_drop;	/* the reserve entry is dropped */
	uint64_t	 res_n;		/* its length in bytes */
	uint64_t	 src_region;	/* end of the source's header region */
	int		 src_canon;	/* the source is laid out as ggml lays out */
	int		 inplace_ok;	/* same header region, data unmoved */
};

/* Computes the plan; notices go to info. -1 with err set if unsavable. */
int	gguf_plan(struct gguf_doc *d, int64_t reserve, struct wplan *p,
	    struct gguf_save_info *info, struct gguf_err *err);
void	gguf_plan_free(struct wplan *p);
/* Adds a line to info's notices (dropped beyond GGUF_MAX_NOTICES). */
void	gguf_notice(struct gguf_save_info *info, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

/*
 * Output of the writer: a buffered sequential writer to a descriptor
 * (from offset 0), or a memory buffer when fd is -1.
 */
struct wsink {
	int			 fd;
	struct gbuf		 mem;
	uint8_t			*buf;
	size_t			 nbuf;
	uint64_t		 pos;		/* bytes emitted */
	uint64_t		 total;		/* for progress */
	gguf_progress_fn	 progress;
	void			*arg;
};

void	gguf_sink_init(struct wsink *s, int fd, uint64_t total,
	    gguf_progress_fn fn, void *arg);
int	gguf_sink_put(struct wsink *s, const void *p, uint64_t n,
	    struct gguf_err *err);
int	gguf_sink_flush(struct wsink *s, struct gguf_err *err);
void	gguf_sink_free(struct wsink *s);

/* Writes the header region [0, data_off): header, KVs, infos, padding. */
int	gguf_write_header(struct gguf_doc *d, const struct wplan *p,
	    struct wsink *s, struct gguf_err *err);
/*
 * The header region d would be saved with (plan p) into s (a memory
 * sink, initialised here; the caller frees it), and the range [lo, hi)
 * where it differs from the file's (lo == hi: nowhere). The plan must
 * keep the header region's length.
 */
int	gguf_header_diff(struct gguf_doc *d, const struct wplan *p,
	    struct wsink *s, uint64_t *lo, uint64_t *hi, struct gguf_err *err);
/* Writes the data section to fd at data_off, from the source's fd. */
int	gguf_write_data(struct gguf_doc *d, const struct wplan *p, int fd,
	    struct wsink *s, struct gguf_err *err);

/* Fault injection point (see doc.h). */
int	gguf_fault(const char *step, struct gguf_err *err);
/*
 * With GGUFED_FAULT=step: writes the first half of p[0..n) at off of fd,
 * syncs it and ends the process, as a crash in the middle of that write
 * would (a torn header). Otherwise nothing.
 */
void	gguf_fault_torn(const char *step, int fd, const uint8_t *p,
	    uint64_t n, uint64_t off);

/*
 * save.c's pieces that the save of a split set (setsave.c) shares.
 */
struct savelock {
	int	 fd;
	char	*path;
	long	 stale;		/* the process a lock left behind named, or 0 */
};

/*
 * Why a journal or a lock file (identity st) is not to be trusted, in
 * buf ("owned by nobody, not by root"), or NULL if it is: a regular file
 * of the user running ggufed (root's own, for root) that neither its
 * group nor others can write.
 */
const char *gguf_not_ours(const struct stat *st, char *buf, size_t len);
/*
 * The lock of the file real (resolved) for a save or a recovery. A lock
 * file not ours is refused (gguf_not_ours), and left as it is.
 */
int	gguf_lock_take(const char *real, struct savelock *lk,
	    struct gguf_err *err);
void	gguf_lock_release(struct savelock *lk);
/* The path with its symlinks resolved, allocated: NULL with errno if not. */
char	*gguf_realpath(const char *path);
/* The path with its symlinks resolved (or as it is), allocated. */
char	*gguf_resolve(const char *path);
void	gguf_split_path(const char *path, char **dir, char **base);
/* fsyncs the directory that holds path. */
int	gguf_sync_dir(const char *path, struct gguf_err *err);
int	gguf_pwrite_all(int fd, const uint8_t *p, uint64_t n, uint64_t off,
	    struct gguf_err *err);
int	gguf_read_only(const struct stat *st, const char *path);
/*
 * Makes err (why the journal jpath could not be written, which is then
 * removed) say so: the journal's name, why, and that nothing was changed.
 */
void	gguf_journal_failed(const char *jpath, struct gguf_err *err);
/*
 * Why the header region r (bytes [0, region) of a model an in-place save
 * wrote [off, off + len) of) is not what that save left, or NULL if it
 * is: outside the range, the bytes that hashed to h_pre and h_post;
 * inside, only bytes of old or nw (a torn write leaves some of each).
 */
const char *gguf_region_check(const uint8_t *r, uint64_t off, uint64_t len,
	    uint64_t region, uint64_t h_pre, uint64_t h_post,
	    const uint8_t *old, const uint8_t *nw);
/* Reads [0, n) of fd into a new buffer; NULL with err set on failure. */
uint8_t	*gguf_read_region(int fd, uint64_t n, struct gguf_err *err);
int	gguf_create_temp(const char *dir, const char *base, char **tmp,
	    struct gguf_err *err);
int	gguf_write_temp(struct gguf_doc *d, const struct wplan *p,
	    const char *target, const struct gguf_save_opts *o,
	    struct gguf_save_info *info, char **tmp, struct gguf_err *err);

/*
 * doc.c: makes dk (shard k of set, opened alone) carry the edits of the
 * set's document that belong to it: every metadata edit for shard 0, the
 * edits of its own tensors. -1 with err if dk is not that shard.
 */
int	gguf_doc_adopt_shard(struct gguf_doc *dk, struct gguf_doc *set,
	    unsigned k, struct gguf_err *err);

/*
 * setsave.c: the save of a split set over its shards, as one
 * transaction, its plan, and the recovery of one that was interrupted.
 */
int	gguf_set_save(struct gguf_doc *d, const struct gguf_save_opts *o,
	    struct gguf_save_info *info, struct gguf_err *err);
int	gguf_set_plan(struct gguf_doc *d, const struct gguf_save_opts *o,
	    struct gguf_save_info *info, struct gguf_err *err);
/* Whether the file at jpath is the journal of a set's save. */
int	gguf_set_journal_is(const char *jpath);
/*
 * Rolls back the set's save that left the journal jpath (beside its
 * first shard; path names a shard of the set): 1 rolled back, 2 an
 * incomplete journal removed, -1 err. A journal not ours (gguf_not_ours)
 * or naming any path but the set's shards (as path names them, or the
 * files their links lead to) and their own temporary and backup names
 * is refused, and nothing is touched.
 */
int	gguf_set_recover(const char *path, const char *jpath,
	    struct gguf_err *err);

/*
 * io.c: the system calls of a save, each of which GGUFED_FAULT can make
 * fail (see io.c). Same contracts as the calls they wrap.
 */
ssize_t	gguf_io_write(int fd, const void *p, size_t n);
ssize_t	gguf_io_pwrite(int fd, const void *p, size_t n, off_t off);
ssize_t	gguf_io_copy_file_range(int in, off_t *ioff, int out, off_t *ooff,
	    size_t n);
ssize_t	gguf_io_pread(int fd, void *p, size_t n, off_t off);
int	gguf_io_fsync(int fd);
int	gguf_io_close(int fd);
int	gguf_io_rename(const char *from, const char *to);
int	gguf_io_unlink(const char *path);
int	gguf_io_link(const char *from, const char *to);
int	gguf_io_open(const char *path, int flags, mode_t mode);
int	gguf_io_fallocate(int fd, off_t len);	/* mode 0, from offset 0 */
/* 1 if GGUFED_FAULT makes this allocation fail (xmalloc.c). */
int	gguf_io_alloc_fails(void);

#endif /* GGUF_DOCINT_H */
