/*
 * storeint.h - what writer.c, save.c and setsave.c share and nobody else
 * sees: the save plan the writer follows, the sink it writes to, locks,
 * journals and temporary files.
 */
#ifndef GGUF_STOREINT_H
#define GGUF_STOREINT_H

#include <sys/stat.h>
#include <sys/types.h>

#include <stdint.h>

#include "docint.h"
#include "io.h"
#include "save.h"
#include "trust.h"

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

/* Whether a journal or a lock file can be trusted: gguf_not_ours, trust.h. */
/*
 * The lock of the file real (resolved) for a save or a recovery. A lock
 * file not ours is refused (gguf_not_ours), and left as it is.
 */
int	gguf_lock_take(const char *real, struct savelock *lk,
	    struct gguf_err *err);
void	gguf_lock_release(struct savelock *lk);
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
 * Writes the journal jpath of an in-place save of the model whose
 * identity is st and whose header region [0, region) is old, which is to
 * become nw in [lo, hi): the old bytes of that range (saved, a copy of
 * them kept apart from the mapping) and the new ones, and what tells the
 * model apart from any other file. 0, or -1 with err set (an existing
 * journal is not replaced).
 */
int	gguf_journal_write(const char *jpath, const struct stat *st,
	    const uint8_t *old, const uint8_t *saved, const uint8_t *nw,
	    uint64_t lo, uint64_t hi, uint64_t region, struct gguf_err *err);
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

#endif /* GGUF_STOREINT_H */
