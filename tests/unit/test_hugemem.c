/*
 * test_hugemem.c - blocks for tables written whole (src/base/hugemem.c).
 *
 * A block must be zeroed, writable to its last byte, aligned to a huge
 * page, and given back whole: blocks of sizes around the huge page are
 * taken and freed many times, and the process's mappings must not grow
 * (what the ends cut off, and the block itself, are unmapped).
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hugemem.h"
#include "tap.h"

#define HUGE	((size_t)2 << 20)

/* The number of the process's mappings (lines of /proc/self/maps). */
static long
mappings(void)
{
	FILE	*f = fopen("/proc/self/maps", "r");
	long	 n = 0;
	int	 c;

	if (f == NULL)
		return -1;
	while ((c = getc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}

static int
zeroed(const uint8_t *p, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (p[i] != 0)
			return 0;
	return 1;
}

int
main(void)
{
	static const size_t	 sizes[] = { 1, 4096, HUGE - 1, HUGE,
				    HUGE + 1, 3 * HUGE + 12345 };
	uint8_t			*p;
	size_t			 i, k;
	long			 before, after;

	for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		p = gguf_huge_alloc(sizes[i]);
		ok(p != NULL && zeroed(p, sizes[i]), "%zu bytes: zeroed",
		    sizes[i]);
		ok((uintptr_t)p % HUGE == 0, "%zu bytes: at a huge page's "
		    "start", sizes[i]);
		memset(p, 0xa5, sizes[i]);
		ok(p[sizes[i] - 1] == 0xa5, "%zu bytes: written to the last",
		    sizes[i]);
		gguf_huge_free(p, sizes[i]);
	}
	gguf_huge_free(NULL, 1);
	ok(1, "NULL is freed as nothing");

	/* a block freed and taken again is zeroed again */
	p = gguf_huge_alloc(HUGE);
	memset(p, 1, HUGE);
	gguf_huge_free(p, HUGE);
	p = gguf_huge_alloc(HUGE);
	ok(zeroed(p, HUGE), "a block taken after one freed is zeroed");
	gguf_huge_free(p, HUGE);

	before = mappings();
	for (k = 0; k < 200; k++) {
		i = k % (sizeof sizes / sizeof sizes[0]);
		p = gguf_huge_alloc(sizes[i]);
		p[0] = 1;
		gguf_huge_free(p, sizes[i]);
	}
	after = mappings();
	ok(before > 0 && after <= before, "200 blocks taken and "
	    "freed: the mappings do not grow (%ld, then %ld)", before, after);
	return tap_done();
}
