/*
 * memprobe.h - what the unit tests that count memory need to know of the
 * system they run on: whether it maps pages in on request, and whether
 * AddressSanitizer (whose allocator copies on realloc and keeps freed
 * blocks in quarantine) stands between the test and malloc.
 */
#ifndef MEMPROBE_H
#define MEMPROBE_H

#include <sys/mman.h>

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN	1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN	1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN	0
#endif

/* Whether the system maps pages in on request (Linux 5.14 and later). */
static inline int
can_populate(void)
{
#ifdef MADV_POPULATE_WRITE
	void	*p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int	 yes = p != MAP_FAILED &&
		    madvise(p, 4096, MADV_POPULATE_WRITE) == 0;

	if (p != MAP_FAILED)
		munmap(p, 4096);
	return yes;
#else
	return 0;
#endif
}

#endif /* MEMPROBE_H */
