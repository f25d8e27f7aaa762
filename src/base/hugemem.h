/*
 * hugemem.h - zeroed blocks for tables and buffers that are written
 * through at once (counts of every value, a thread's read and decode
 * buffers), in huge pages where the system gives them.
 *
 * A table of a few hundred KB in ordinary pages is a fault per 4 KB page
 * the first time it is written; on a virtual machine each fault is an
 * exit to the host, and the faults of a run's tables cost more than
 * counting a 16 MiB tensor (a 16 MiB BF16 tensor: 14 ms, 5 of them
 * faults). A block here is a private anonymous mapping aligned to a huge
 * page and advised for huge pages (MADV_HUGEPAGE, which the system may
 * ignore): one fault per 2 MiB. Use it for memory that is written whole
 * and kept from run to run, not for sparse tables (those want ordinary
 * pages, of which only the ones written are given memory).
 */
#ifndef GGUF_HUGEMEM_H
#define GGUF_HUGEMEM_H

#include <stddef.h>

/*
 * A zeroed block of at least n bytes (n > 0), aligned to a huge page
 * where blocks are mapped; never NULL (out of memory ends the process,
 * as xmalloc does). Free it with gguf_huge_free and the same n.
 */
void	*gguf_huge_alloc(size_t n);
void	 gguf_huge_free(void *p, size_t n);

#endif /* GGUF_HUGEMEM_H */
