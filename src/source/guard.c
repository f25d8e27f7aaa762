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
 * Signal safety: the handler reads only the faulting thread's own guard
 * stack, which is linked in full before the guarded function starts, and
 * calls nothing but siglongjmp (or the previous handler). A guarded
 * function may be abandoned at any read of the range: it must hold no
 * lock and own no memory that only its own end would free. The handler is
 * installed with SA_NODEFER, so SIGBUS is not left blocked after the jump,
 * and sigsetjmp does not save the signal mask: a guard costs no system
 * call.
 */
#include "config.h"

#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>

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

static void
on_sigbus(int sig, siginfo_t *si, void *uc)
{
	struct guard	*g;
	uintptr_t	 a = (uintptr_t)si->si_addr;

	for (g = top; g != NULL; g = g->prev) {
		if (a >= g->lo && a < g->hi)
			siglongjmp(g->env, 1);
	}
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
gguf_guard_copy_cb(void *job)
{
	struct gguf_guard_copy	*j = job;

	memcpy(j->dst, j->src, j->n);
	return 0;
}
