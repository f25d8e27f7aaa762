/*
 * guard.c - reads of a mapped file that survive the file shrinking.
 *
 * An opened file is read through a mapping of its pages. If another
 * program truncates the file, a read of a page past its new end raises
 * SIGBUS, which would kill the process. gguf_guard_run runs a function so
 * that such a fault only ends that function: a SIGBUS handler, installed
 * once for the whole process, looks for a guard of the faulting thread
 * whose address range holds the faulting address and jumps back to it
 * (siglongjmp); gguf_guard_run then returns GGUF_GUARD_FAULT. A fault that
 * no guard claims goes to the handler that was installed before (or, if
 * there was none, kills the process as it always would have).
 *
 * Threads: each thread has its own stack of guards (thread-local), and a
 * SIGBUS raised by a memory access is delivered to the thread that made
 * it, so every worker of a pool guards its own reads and a fault in one
 * worker ends only that worker's item.
 *
 * A soft region (gguf_guard_soft) is the other answer, for a header read
 * where the file is mapped by a process that holds it for moments: a
 * fault there that no guard claims has zero pages mapped over the rest of
 * the region (a truncation takes every page past the new end), and the
 * read is retried and reads zeros. Every length the reader keeps was
 * checked at open, so zeros are read as short of nothing; the cut is
 * counted for the program to say so.
 *
 * Signal safety: the handler reads only the faulting thread's own guard
 * stack, which is linked in full before the guarded function starts, and
 * the soft regions' bounds (atomic loads; a region is unlinked before it
 * is unmapped), and calls nothing but siglongjmp, mmap (a system call)
 * or the previous handler. A guarded
 * function may be abandoned at any read of the range: it must hold no
 * lock and own no memory that only its own end would free. The handler is
 * installed with SA_NODEFER, so SIGBUS is not left blocked after the jump,
 * and sigsetjmp does not save the signal mask: a guard costs no system
 * call.
 */
#include "config.h"

#include <sys/mman.h>

#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "guard.h"
#include "io.h"

struct guard {
	sigjmp_buf		 env;
	uintptr_t		 lo;		/* [lo, hi): guarded */
	uintptr_t		 hi;
	struct guard		*prev;
};

static _Thread_local struct guard *volatile	top;
static pthread_once_t				once = PTHREAD_ONCE_INIT;
static struct sigaction				previous;

#define SOFT_MAX	256

/* The soft regions: [lo, hi), page-aligned; both 0 in a free slot. */
static struct {
	uintptr_t	lo;
	uintptr_t	hi;
} soft[SOFT_MAX];
static pthread_mutex_t	soft_mu = PTHREAD_MUTEX_INITIALIZER;
static uintptr_t	soft_page;	/* set before any region */
static unsigned		soft_cuts;

/* Zeros over the rest of the soft region holding a: 1 if it was one. */
static int
soft_cut(uintptr_t a)
{
	uintptr_t	lo, hi, pg;
	int		i;

	for (i = 0; i < SOFT_MAX; i++) {
		hi = __atomic_load_n(&soft[i].hi, __ATOMIC_ACQUIRE);
		lo = __atomic_load_n(&soft[i].lo, __ATOMIC_ACQUIRE);
		if (a < lo || a >= hi)
			continue;
		pg = a & ~(soft_page - 1);
		if (mmap((void *)pg, (size_t)(hi - pg), PROT_READ, MAP_PRIVATE |
		    MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
			return 0;
		__atomic_fetch_add(&soft_cuts, 1, __ATOMIC_RELAXED);
		return 1;
	}
	return 0;
}

static void
on_sigbus(int sig, siginfo_t *si, void *uc)
{
	struct guard	*g;
	uintptr_t	 a = (uintptr_t)si->si_addr;

	for (g = top; g != NULL; g = g->prev) {
		if (a >= g->lo && a < g->hi)
			siglongjmp(g->env, 1);
	}
	if (soft_cut(a))
		return;			/* the read is retried: zeros */
	if (previous.sa_flags & SA_SIGINFO) {
		previous.sa_sigaction(sig, si, uc);
		return;
	}
	if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
		previous.sa_handler(sig);
		return;
	}
	/* Not ours: the default action, as the faulting read is retried. */
	signal(SIGBUS, SIG_DFL);
}

static void
install(void)
{
	struct sigaction	sa;

	gguf_io_init();
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_sigbus;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, &previous);
}

void
gguf_guard_init(void)
{
	pthread_once(&once, install);
}

int
gguf_guard_run(const void *p, uint64_t n, int (*fn)(void *), void *arg)
{
	struct guard	g;
	int		rc;

	gguf_guard_init();
	memset(&g, 0, sizeof g);
	g.lo = (uintptr_t)p;
	g.hi = n > UINTPTR_MAX - g.lo ? UINTPTR_MAX : g.lo + (uintptr_t)n;
	g.prev = top;
	if (sigsetjmp(g.env, 0) != 0) {
		top = g.prev;
		return GGUF_GUARD_FAULT;
	}
	top = &g;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	rc = fn(arg);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	top = g.prev;
	return rc;
}

int
gguf_guard_soft(const void *p, uint64_t n)
{
	uintptr_t	lo = (uintptr_t)p, hi;
	long		pg;
	int		i, slot = -1;

	gguf_guard_init();
	pthread_mutex_lock(&soft_mu);
	if (soft_page == 0)
		soft_page = (pg = sysconf(_SC_PAGESIZE)) > 0 ? (uintptr_t)pg :
		    4096;
	hi = lo + (uintptr_t)((n + soft_page - 1) / soft_page * soft_page);
	if ((lo & (soft_page - 1)) == 0 && hi > lo) {
		for (i = 0; i < SOFT_MAX && slot < 0; i++)
			if (soft[i].hi == 0)
				slot = i;
	}
	if (slot >= 0) {
		__atomic_store_n(&soft[slot].lo, lo, __ATOMIC_RELEASE);
		__atomic_store_n(&soft[slot].hi, hi, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&soft_mu);
	return slot;
}

void
gguf_guard_soft_drop(int slot)
{
	if (slot < 0 || slot >= SOFT_MAX)
		return;
	pthread_mutex_lock(&soft_mu);
	__atomic_store_n(&soft[slot].hi, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&soft[slot].lo, 0, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&soft_mu);
}

unsigned
gguf_guard_soft_cuts(void)
{
	return __atomic_load_n(&soft_cuts, __ATOMIC_RELAXED);
}

int
gguf_guard_copy_cb(void *job)
{
	struct gguf_guard_copy	*j = job;

	memcpy(j->dst, j->src, j->n);
	return 0;
}
