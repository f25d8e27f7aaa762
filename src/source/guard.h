/*
 * guard.h - reads of a mapping that survive the mapped file shrinking
 * (guard.c). The local file source guards its reads with it, and its
 * copy (gguf_guard_copy_cb) serves the reader's guarded reads as well;
 * the few callers that read a mapping they were handed (the statistics'
 * workers) use it directly.
 */
#ifndef GGUF_GUARD_H
#define GGUF_GUARD_H

#include <stddef.h>
#include <stdint.h>

#define GGUF_GUARD_FAULT	(-2)	/* gguf_guard_run: a read faulted */

/*
 * Runs fn(arg) and returns what it returns, unless a read of the n bytes
 * at p faults (SIGBUS: the mapped file shrank under it): then fn is
 * abandoned where it was and GGUF_GUARD_FAULT is returned. fn must hold
 * no lock and own no memory when it reads the range (see guard.c). Safe
 * on any thread, and nests.
 */
int	gguf_guard_run(const void *p, uint64_t n, int (*fn)(void *),
	    void *arg);
/*
 * A copy out of a mapping, the read most guards protect: run
 * gguf_guard_copy_cb(&job) under a guard (gguf_guard_run, or a source's
 * or a file's guard) and n bytes at src land at dst, or the guard
 * reports the fault. It holds no lock and owns no memory, so it can be
 * abandoned anywhere.
 */
struct gguf_guard_copy {
	const void	*src;
	void		*dst;
	size_t		 n;
};
int	gguf_guard_copy_cb(void *job);	/* memcpy(dst, src, n); 0 */

/*
 * A region read unguarded where the file is mapped (a header region a
 * process reads for moments, not copied): a read of a page the file no
 * longer has does not kill the process; the handler maps zeros over the
 * rest of the region, the read goes on, and the cut is counted. The n
 * bytes at p (p page-aligned) until gguf_guard_soft_drop(slot), which
 * must come before they are unmapped. -1: no slot left (copy instead).
 */
int		gguf_guard_soft(const void *p, uint64_t n);
void		gguf_guard_soft_drop(int slot);
/* How many soft regions were cut, in the whole process. */
unsigned	gguf_guard_soft_cuts(void);

/*
 * Installs the SIGBUS handler now (gguf_guard_run does it on first use);
 * call it before any thread starts, as opening a file does.
 */
void	gguf_guard_init(void);

#endif /* GGUF_GUARD_H */
