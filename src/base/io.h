/*
 * io.h - the system calls of a save and of a read of tensor data, each of
 * which the environment variable GGUFED_FAULT can make fail (io.c), the
 * named steps at which a test can stop a save, and paths resolved.
 */
#ifndef GGUF_IO_H
#define GGUF_IO_H

#include <sys/types.h>

#include <stddef.h>

#include "err.h"

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
/* The errno GGUFED_FAULT makes this mapping of a file fail with, or 0. */
int	gguf_io_mmap_fails(void);
/* Reads GGUFED_FAULT now; called once, before threads read it. */
void	gguf_io_init(void);
/*
 * 1 if GGUFED_FAULT counts calls or bytes (the Nth read, the Nth
 * allocation, N bytes written...): work that could run on several threads
 * then runs on one, in order, for the count to land on the same call
 * every time.
 */
int	gguf_io_counting(void);
/* The fault rules' hook before one read of tensor data by a scan. */
void	gguf_io_map_read(void);

/*
 * Fault injection for tests: when the environment variable GGUFED_FAULT
 * names a step of the save ("tmp-written", "journal-written", "torn",
 * "header-written"; for a set "set-journal-written",
 * "set-shard-renamed"), the process stops dead at that step (_exit with
 * GGUF_FAULT_EXIT), as a crash or power cut would stop it. When the hook
 * below is set, it is asked instead, and a non-zero answer makes the step
 * fail as an I/O error would. GGUFED_FAULT can also make the Nth write,
 * fsync, rename, ... fail with a chosen errno, or kill the process after
 * N bytes written: see io.c.
 */
#define GGUF_FAULT_EXIT	75
extern int	(*gguf_fault_hook)(const char *step);
/*
 * The fault injection point of the named step: with the hook set, -1 with
 * err set if the hook says fail; with GGUFED_FAULT=step, the process ends
 * (_exit with GGUF_FAULT_EXIT); else 0.
 */
int	gguf_fault(const char *step, struct gguf_err *err);

/* ------------------------------------------------------------------ paths */

/* The path with its symlinks resolved, allocated: NULL with errno if not. */
char	*gguf_realpath(const char *path);
/* The path with its symlinks resolved (or as it is), allocated. */
char	*gguf_resolve(const char *path);
/*
 * Until gguf_resolve_drop, gguf_resolve of this path (in this thread)
 * resolves it once and gives that answer again: for a few checks of one
 * file made in a row.
 */
void	 gguf_resolve_hold(const char *path);
void	 gguf_resolve_drop(void);

#endif /* GGUF_IO_H */
