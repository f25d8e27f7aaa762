/*
 * hugemem.c - zeroed blocks in huge pages (see hugemem.h).
 *
 * A block is n rounded up to HUGE bytes, mapped with HUGE bytes more so
 * that an aligned run of that size lies inside; the ends outside it are
 * unmapped at once. Where there is no anonymous mapping, a block is
 * calloc's.
 */
#include "config.h"

#include <sys/mman.h>

#include <stdint.h>
#include <stdlib.h>

#include "hugemem.h"
#include "io.h"
#include "xmalloc.h"

#define HUGE	((size_t)2 << 20)	/* x86-64's and arm64's huge page */

static size_t
block_len(size_t n)
{
	if (n > SIZE_MAX - 2 * HUGE)
		xmalloc_fail(n);
	return (n + HUGE - 1) & ~(HUGE - 1);
}

void *
gguf_huge_alloc(size_t n)
{
#if defined(MAP_ANONYMOUS)
	size_t		 len = block_len(n), head;
	uint8_t		*m, *p;

	if (gguf_io_alloc_fails())
		xmalloc_fail(n);
	m = mmap(NULL, len + HUGE, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		xmalloc_fail(n);
	head = (HUGE - (uintptr_t)m % HUGE) % HUGE;
	p = m + head;
	if (head > 0)
		munmap(m, head);
	munmap(p + len, HUGE - head);
#if defined(MADV_HUGEPAGE)
	(void)madvise(p, len, MADV_HUGEPAGE);	/* a hint: may be refused */
#endif
	return p;
#else
	return xcalloc(1, n);
#endif
}

void
gguf_huge_free(void *p, size_t n)
{
	if (p == NULL)
		return;
#if defined(MAP_ANONYMOUS)
	munmap(p, block_len(n));
#else
	(void)n;
	free(p);
#endif
}
