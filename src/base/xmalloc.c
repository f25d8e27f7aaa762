/*
 * xmalloc.c - allocation that never fails (see xmalloc.h).
 *
 * Under GGUFED_FAULT an allocation can be made to fail like any system
 * call of a save ("alloc:N+:ENOMEM", see io.c), which is how the tests
 * run out of memory on purpose.
 */
#include "config.h"

#include <sys/mman.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io.h"
#include "xmalloc.h"

static xmalloc_oom_fn	oom_hook;

xmalloc_oom_fn
xmalloc_set_oom(xmalloc_oom_fn fn)
{
	xmalloc_oom_fn	old = oom_hook;

	oom_hook = fn;
	return old;
}

static void oom(size_t) __attribute__((noreturn));

static void
oom(size_t n)
{
	if (oom_hook != NULL)
		oom_hook(n);
	abort();
}

void
xmalloc_fail(size_t n)
{
	oom(n);
}

void *
xmalloc(size_t n)
{
	void	*p = NULL;

	if (gguf_io_alloc_fails() || (p = malloc(n != 0 ? n : 1)) == NULL)
		oom(n);
	return p;
}

void *
xcalloc(size_t n, size_t size)
{
	void	*p = NULL;

	if (size != 0 && n > SIZE_MAX / size)
		oom(SIZE_MAX);
	if (gguf_io_alloc_fails() ||
	    (p = calloc(n != 0 ? n : 1, size != 0 ? size : 1)) == NULL)
		oom(n * size);
	return p;
}

void *
xreallocarray(void *p, size_t n, size_t size)
{
	void	*q = NULL;

	if (size != 0 && n > SIZE_MAX / size)
		oom(SIZE_MAX);
	if (gguf_io_alloc_fails() ||
	    (q = realloc(p, n * size != 0 ? n * size : 1)) == NULL)
		oom(n * size);
	return q;
}

char *
xstrndup(const char *s, size_t n)
{
	char	*p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

#define POPULATE_MIN	((size_t)16 << 10)

void
xpopulate(void *p, size_t n)
{
#ifdef MADV_POPULATE_WRITE
	long		 sz = sysconf(_SC_PAGESIZE);
	uintptr_t	 pg = sz > 0 ? (uintptr_t)sz : 4096, a, z;

	if (p == NULL || n < POPULATE_MIN)
		return;
	a = ((uintptr_t)p + pg - 1) & ~(pg - 1);
	z = ((uintptr_t)p + n) & ~(pg - 1);
	if (z > a)
		(void)madvise((void *)a, (size_t)(z - a),
		    MADV_POPULATE_WRITE);
#else
	(void)p;
	(void)n;
#endif
}

void *
xcalloc_big(size_t n, size_t size)
{
	void	*p;

	if (size != 0 && n > SIZE_MAX / size)
		oom(SIZE_MAX);
	p = xmalloc(n * size);
	xpopulate(p, n * size);
	memset(p, 0, n * size != 0 ? n * size : 1);
	return p;
}
