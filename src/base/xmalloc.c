/*
 * xmalloc.c - allocation that never fails (see xmalloc.h).
 *
 * Under GGUFED_FAULT an allocation can be made to fail like any system
 * call of a save ("alloc:N+:ENOMEM", see io.c), which is how the tests
 * run out of memory on purpose.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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
