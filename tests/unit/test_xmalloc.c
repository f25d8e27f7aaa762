/*
 * test_xmalloc.c - the allocation helpers' promises: xcalloc_big clears
 * what it gives even where the allocator hands back used memory, and
 * xpopulate maps the pages in, so that writing them then costs no fault
 * each.
 */
#include "config.h"

#include <sys/mman.h>
#include <sys/resource.h>

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "memprobe.h"
#include "tap.h"
#include "xmalloc.h"

#define BIG	((size_t)1 << 20)

static long
minor_faults(void)
{
	struct rusage	ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_minflt;
}

static void
cleared(void)
{
	uint8_t		*p;
	size_t		 i, n = 20000, bad = 0;

	/* a block comes back used: dirty one, free it, ask again (under
	   AddressSanitizer it stays in quarantine and a fresh one comes) */
	p = xmalloc(n * 4);
	memset(p, 0xa5, n * 4);
	free(p);
	p = xcalloc_big(n, 4);
	for (i = 0; i < n * 4; i++)
		bad += p[i] != 0;
	ok(bad == 0, "xcalloc_big of %zu bytes is all zeros (%zu not)",
	    n * 4, bad);
	free(p);
	p = xcalloc_big(0, 8);
	ok(p != NULL, "xcalloc_big of nothing still gives a block");
	free(p);
}

/* Minor faults to write one byte a page of [p, p + n). */
static long
faults_to_write(uint8_t *p, size_t n)
{
	long	before = minor_faults();
	size_t	i;

	for (i = 0; i < n; i += 4096)
		p[i] = 1;
	return minor_faults() - before;
}

static void
populated(void)
{
	uint8_t		*p;
	long		 plain, small, pop;

	if (!can_populate()) {
		skip("the system does not map pages in on request");
		return;
	}
	/* the cost of fresh pages here, and under the least it maps in */
	p = mmap(NULL, BIG, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		ok(0, "mmap: %s", strerror(errno));
		return;
	}
	xpopulate(p, 8192);
	small = faults_to_write(p, 8192);
	plain = faults_to_write(p + 8192, BIG - 8192);
	munmap(p, BIG);
	if (plain < 64) {	/* the system maps anonymous pages in bulk */
		skip("writing 1 MiB of fresh memory costs %ld faults here",
		    plain);
		return;
	}
	ok(small >= 1, "xpopulate of 8 KiB maps nothing in (%ld faults to "
	    "write it)", small);
	p = xmalloc(BIG);
	xpopulate(p, BIG);
	pop = faults_to_write(p, BIG);
	/* (a sanitizer's shadow memory adds its own faults) */
	ok(pop < plain / 4, "writing 1 MiB after xpopulate: %ld faults "
	    "(%ld without)", pop, plain);
	free(p);
}

int
main(void)
{
	cleared();
	populated();
	return tap_done();
}
