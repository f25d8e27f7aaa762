/*
 * source.h - where the bytes of a model come from.
 *
 * The lowest floor of the code: the reader, the span reader, the decoders'
 * row reads, the hashes, the checks and the saves' copy of tensor data
 * read a model through a struct gguf_source and never ask where its bytes
 * are. A source is a fixed run of bytes [0, size) with an identity taken
 * when it was opened; it can always read a range into a caller's buffer,
 * and some sources can also hand out a mapping of their bytes:
 *
 *	kind	   map	change message		 made by
 *	"file"	   yes	"changed on disk"	 gguf_source_file (local.c)
 *	"memory"   opt.	"changed in memory"	 gguf_source_mem (mem.c)
 *	"http"	   no	"changed on the server"	 (a remote source)
 *
 * A caller that can use a mapping asks for one (gguf_source_map) and,
 * when the source answers GGUF_SRCE_NOMAP, reads into its own buffers
 * instead (gguf_source_read): every caller has both paths, and the memory
 * source can be told to refuse mapping so that the read path is tested
 * without a server.
 *
 * A new source is a struct gguf_source_ops and an opener that fills a
 * struct gguf_source (see mem.c, the shortest): read and close are
 * required, every other operation may be NULL and has the default its
 * wrapper below states.
 *
 * Nothing here prints, exits, or includes a header of a higher floor.
 * Errors are a kind and a one-line message (struct gguf_srcerr).
 */
#ifndef GGUF_SOURCE_H
#define GGUF_SOURCE_H

#include <stddef.h>
#include <stdint.h>

struct stat;

/* ------------------------------------------------------------------ errors */

enum gguf_srce {
	GGUF_SRCE_NONE = 0,
	GGUF_SRCE_IO,		/* the system or the server failed a read */
	GGUF_SRCE_SHORT,	/* fewer bytes came than were asked for */
	GGUF_SRCE_RANGE,	/* the range asked for is not in [0, size) */
	GGUF_SRCE_CHANGED,	/* the bytes are no longer those opened */
	GGUF_SRCE_NOMAP,	/* this source cannot be mapped: read instead */
	GGUF_SRCE_CANCEL,	/* a progress callback cancelled a copy */
	GGUF_SRCE_OPEN		/* the source could not be opened */
};

struct gguf_srcerr {
	int		 kind;		/* enum gguf_srce */
	int		 has_off;	/* off is meaningful */
	uint64_t	 off;		/* where in the source it is */
	char		 msg[400];	/* one line, no offset, no name */
};

/*
 * Sets e (may be NULL) to kind, the offset (off < 0: none) and the
 * message, and returns -1.
 */
int	gguf_srcerr_set(struct gguf_srcerr *e, int kind, int64_t off,
	    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* ------------------------------------------------------------------ source */

struct gguf_source;

/*
 * Progress of a copy: done of total bytes. Non-zero cancels the copy,
 * which then fails with GGUF_SRCE_CANCEL ("cancelled").
 */
typedef int	(*gguf_source_progress)(void *arg, uint64_t done,
		    uint64_t total);

/* GGUF_SRC_CHANGE_*: what gguf_source_changed looks at beyond the size. */
#define GGUF_SRC_CHANGE_NAME	0x01	/* the name now names another file */

struct gguf_source_ops {
	const char	*kind;		/* "file", "memory", "http" */
	const char	*word;		/* a change: "changed on disk" */
	/* [off, off + len) into buf, all of it, or -1. Required. */
	int		(*read)(struct gguf_source *, uint64_t off, void *buf,
			    size_t len, struct gguf_srcerr *);
	/* The whole source mapped, or NULL with NOMAP or another error. */
	const uint8_t	*(*map)(struct gguf_source *, struct gguf_srcerr *);
	/* 0 unchanged, 1 changed (the message without the prefix). */
	int		(*changed)(struct gguf_source *, unsigned how,
			    struct gguf_srcerr *);
	/* Identity text into buf. */
	void		(*identity)(struct gguf_source *, char *buf,
			    size_t len);
	/* Leaves [0, len) of the mapping a view whose cut reads zeros. */
	int		(*soften)(struct gguf_source *, uint64_t len);
	/* Makes [0, len) of the mapping private memory. */
	int		(*pin)(struct gguf_source *, uint64_t len,
			    struct gguf_srcerr *);
	/* fn(arg) with faults of reads of the mapping caught. */
	int		(*guard)(struct gguf_source *, int (*fn)(void *),
			    void *arg);
	/* Hints: [off, off + len) is read next, in order / was read. */
	void		(*sequential)(struct gguf_source *, uint64_t off,
			    uint64_t len);
	void		(*release)(struct gguf_source *, uint64_t off,
			    uint64_t len);
	/* Hint: [off, off + len) of the mapping is read now: map it in. */
	void		(*populate)(struct gguf_source *, uint64_t off,
			    uint64_t len);
	/* [off, off + len) to fd at fdoff. */
	int		(*copy)(struct gguf_source *, uint64_t off,
			    uint64_t len, int fd, uint64_t fdoff,
			    gguf_source_progress, void *parg,
			    struct gguf_srcerr *);
	/* A descriptor the bytes can be read from with pread, or -1. */
	int		(*fd)(struct gguf_source *);
	/* Frees what the source holds (not the struct). Required. */
	void		(*close)(struct gguf_source *);
};

/*
 * An open source. The fields are the opener's to fill and everyone's to
 * read; no one else writes them.
 */
struct gguf_source {
	const struct gguf_source_ops *ops;
	uint64_t	 size;		/* bytes, fixed at open */
	char		*name;		/* a path or URL, or NULL */
	int		 mappable;	/* gguf_source_map can succeed */
	uint64_t	 pinned;	/* bytes from 0 made private */
	void		*impl;		/* the implementation's own state */
};

/*
 * Opens the regular file at path read-only without ever waiting (a FIFO
 * or a device is refused at once: "not a regular file"), and takes its
 * identity (device, inode, size, modification time). NULL with e set
 * (GGUF_SRCE_OPEN and the system's reason; errno is kept for callers that
 * tell ENOENT from ELOOP).
 */
struct gguf_source	*gguf_source_file(const char *path,
			    struct gguf_srcerr *e);
/*
 * gguf_source_file_own: the same over an open descriptor that the source
 * takes (closed at once if it fails), with its fstat() if the caller has
 * it (st may be NULL). gguf_source_file_fd: over a descriptor that stays
 * the caller's (the source keeps a duplicate of its own). name may be
 * NULL; without it, the GGUF_SRC_CHANGE_NAME check has nothing to look
 * at.
 */
struct gguf_source	*gguf_source_file_own(int fd, const struct stat *st,
			    const char *name, struct gguf_srcerr *e);
struct gguf_source	*gguf_source_file_fd(int fd, const char *name,
			    struct gguf_srcerr *e);

#define GGUF_SRC_MEM_NOMAP	0x01	/* refuse to map: callers must read */
#define GGUF_SRC_MEM_COPY	0x02	/* keep a copy of buf, not buf itself */

/*
 * A source over len bytes of memory at buf, which must outlive it unless
 * GGUF_SRC_MEM_COPY; name (may be NULL) is for messages. The test double
 * of every other source: it maps unless GGUF_SRC_MEM_NOMAP, and it can be
 * told to fail (gguf_source_mem_fail) as a file or a server would.
 * Reads of it never fault.
 */
struct gguf_source	*gguf_source_mem(const void *buf, size_t len,
			    const char *name, unsigned flags);

#define GGUF_SRC_FAIL_CHANGED	0x01	/* report "changed" from now on */
#define GGUF_SRC_FAIL_SHORT	0x02	/* reads past short_at come short */
/*
 * Makes the memory source s fail from now on as flags say: changed (as
 * if written to since opened), and/or short reads of any range that goes
 * past short_at (as if the file were cut there, or a server's body
 * stopped). 0 clears. Nothing for other sources.
 */
void			 gguf_source_mem_fail(struct gguf_source *s,
			    unsigned flags, uint64_t short_at);

/*
 * How many reads the memory source s was asked for, and of how many
 * bytes in all (what a server would be asked for). 0 for other sources.
 */
void			 gguf_source_mem_count(const struct gguf_source *s,
			    uint64_t *reads, uint64_t *bytes);

/* Closes s and frees it. NULL is nothing. */
void			 gguf_source_close(struct gguf_source *s);

/* s's size in bytes, as it was opened. */
uint64_t		 gguf_source_size(const struct gguf_source *s);
/* s's name for messages ("<memory>" when it has none). */
const char		*gguf_source_name(const struct gguf_source *s);
/* "file", "memory", "http". */
const char		*gguf_source_kind(const struct gguf_source *s);
/*
 * How a change is named in messages: "changed on disk", "changed on the
 * server", "changed in memory".
 */
const char		*gguf_source_changed_word(const struct gguf_source *s);
/*
 * What s was when opened, as text into buf (for a cache key or to tell
 * two sources apart): a file's "dev:inode size mtime", a server's
 * "etag size". Two sources with the same identity hold the same bytes.
 * Without an identity operation, "kind size name".
 */
void			 gguf_source_identity(struct gguf_source *s,
			    char *buf, size_t len);
/*
 * Whether s changed since it was opened: 0 if not (always, for a source
 * without the check); 1 if it did, with e (GGUF_SRCE_CHANGED) saying
 * how in full: "changed on disk: cut to 4,096 bytes (1,052,672 when
 * opened)", "changed on disk: written to since it was opened", "changed
 * on the server: its ETag is not the one it was opened with". With
 * GGUF_SRC_CHANGE_NAME, a file is also changed when its name now names
 * another file or none.
 */
int			 gguf_source_changed(struct gguf_source *s,
			    unsigned how, struct gguf_srcerr *e);
/*
 * Reads [off, off + len) into buf, all of it: 0, or -1 with e set. A
 * range not inside [0, size) is GGUF_SRCE_RANGE; a read that comes back
 * with fewer bytes is never passed on as data: GGUF_SRCE_SHORT, "read
 * 4,096 bytes of 65,536: the file ends early (changed on disk?)", with
 * the offset where the bytes stopped. len 0 reads nothing and succeeds.
 */
int			 gguf_source_read(struct gguf_source *s, uint64_t off,
			    void *buf, size_t len, struct gguf_srcerr *e);
/*
 * A pointer to the bytes [off, off + len) of s, valid until s is closed,
 * or NULL with e set: GGUF_SRCE_NOMAP if s cannot be mapped (the caller
 * then reads into buffers), GGUF_SRCE_RANGE, or the system's failure.
 * The whole source is mapped once, on the first call. Reads of a
 * file's mapping may fault if the file shrinks: make them inside
 * gguf_source_guard.
 */
const uint8_t		*gguf_source_map(struct gguf_source *s, uint64_t off,
			    uint64_t len, struct gguf_srcerr *e);
/*
 * Whether s can be mapped (without mapping it). A source the system
 * refused to map (GGUF_SRCE_NOMAP from gguf_source_map) is not any more.
 */
int			 gguf_source_mappable(const struct gguf_source *s);
/*
 * Makes the first len bytes of s's mapping the process's own memory,
 * copied now, so that reads of them never fault and never change however
 * the source changes (the header region, which the index points into).
 * 0, or -1 with e set (GGUF_SRCE_CHANGED if the source faulted while
 * being copied). Nothing, 0, for a source without a mapping or whose
 * mapping is memory already.
 */
int			 gguf_source_pin(struct gguf_source *s, uint64_t len,
			    struct gguf_srcerr *e);
/* How many bytes from 0 are pinned (0 if none). */
uint64_t		 gguf_source_pinned(const struct gguf_source *s);
/*
 * Instead of pinning them: leaves the first len bytes of s's mapping the
 * file's own pages, read unguarded, so that a part the file loses reads
 * as zeros instead of faulting (a soft region, source/guard.h; counted by
 * gguf_guard_soft_cuts). For a process that holds its files for moments:
 * nothing is copied. 0; -1 if s cannot (pin it then). 0 for a source
 * without a mapping or whose mapping is memory already.
 */
int			 gguf_source_soften(struct gguf_source *s,
			    uint64_t len);
/*
 * Whether a closed file's mapping is left for the process's exit to take
 * down (1), the most recent 64 of them, instead of unmapped at its close:
 * for a program that reads a few files and ends.
 */
void			 gguf_source_unmap_late(int on);
/*
 * Runs fn(arg), which reads s's mapping, so that the source changing
 * cannot crash it: what fn returned, or GGUF_SRC_FAULT if a read of the
 * mapping faulted (the file shrank meanwhile): fn is then abandoned where
 * it was, so it must hold no lock and own no memory while it reads.
 * Nests, and is safe on any thread. For a source whose reads cannot
 * fault, fn(arg).
 */
#define GGUF_SRC_FAULT	(-2)
int			 gguf_source_guard(struct gguf_source *s,
			    int (*fn)(void *), void *arg);
/*
 * Tells s that [off, off + len) is about to be read in order (read-ahead:
 * madvise and posix_fadvise for a file, larger requests for a server).
 * Only a hint; nothing for a source without it.
 */
void			 gguf_source_sequential(struct gguf_source *s,
			    uint64_t off, uint64_t len);
/*
 * Tells s that the mapped bytes [off, off + len) were read and their
 * memory may be given back (the page cache keeps a file's). The pinned
 * bytes are never given back. Only a hint.
 */
void			 gguf_source_release(struct gguf_source *s,
			    uint64_t off, uint64_t len);
/*
 * Tells s that the mapped bytes [off, off + len) are read now: a file
 * maps their pages in with one call (madvise MADV_POPULATE_READ, where the
 * kernel has it) instead of a page fault every few pages. Only a hint: a
 * page it could not map faults when read, as without it.
 */
void			 gguf_source_populate(struct gguf_source *s,
			    uint64_t off, uint64_t len);
/*
 * Streams [off, off + len) of s into fd at fdoff (pwrite: fd's offset is
 * not moved): a file with copy_file_range where the system can (no copy
 * through memory), any other source by reads and writes of 8 MiB. fn
 * (may be NULL) is called with the bytes done after every block; its
 * non-zero return cancels. 0, or -1 with e set: the read's error, a
 * write's ("write: " and the system's reason), or GGUF_SRCE_CANCEL.
 */
int			 gguf_source_copy(struct gguf_source *s, uint64_t off,
			    uint64_t len, int fd, uint64_t fdoff,
			    gguf_source_progress fn, void *parg,
			    struct gguf_srcerr *e);
/*
 * A read-only descriptor s's bytes can be read from with pread (offset
 * for offset), which stays s's: do not close it; -1 for a source without
 * one. For the callers that pass it on to the system (copy_file_range,
 * SEEK_HOLE); everything else reads through gguf_source_read.
 */
int			 gguf_source_fd(const struct gguf_source *s);

/* ---------------------------------------------------- for implementations */

/*
 * The error of a read of want bytes at off that got only got: kind
 * GGUF_SRCE_SHORT, at off + got. Returns -1.
 */
int			 gguf_source_short(struct gguf_source *s, uint64_t off,
			    size_t got, size_t want, struct gguf_srcerr *e);

#endif /* GGUF_SOURCE_H */
