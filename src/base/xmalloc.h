/*
 * xmalloc.h - allocation that never fails, for every layer of ggufed.
 *
 * Running out of memory calls the out-of-memory hook, which must not
 * return: the program registers one that gives the terminal back (the
 * browser) and says so in one line. Without a hook the process aborts.
 * The core knows nothing of terminals: it only calls the hook.
 *
 * Core functions that report errors (gguf_open and the like) still
 * return them; these are for memory the program cannot go on without.
 */
#ifndef GGUF_XMALLOC_H
#define GGUF_XMALLOC_H

#include <stddef.h>

/* Never return NULL. Zero sizes allocate one byte. */
void	*xmalloc(size_t n);
void	*xcalloc(size_t n, size_t size);
/* realloc of n * size bytes; n * size overflowing is out of memory. */
void	*xreallocarray(void *p, size_t n, size_t size);
char	*xstrdup(const char *s);
char	*xstrndup(const char *s, size_t n);
/*
 * Maps in, with one call, the whole pages of [p, p + n): memory just
 * allocated that is about to be written in full (an index of every
 * tensor). A fresh page costs a fault when first written; mapped in
 * together, about half of that each (a 2-core virtual machine: 13 us a
 * page faulted, 6 us populated). Nothing under 16 KiB, or where the
 * system cannot: the pages are then faulted in as before.
 */
void	 xpopulate(void *p, size_t n);
/*
 * xcalloc for an array that is about to be written all over (a hash
 * table of every name): its pages mapped in with one call (xpopulate),
 * then cleared, where calloc's own clearing, or the first writes to a
 * block it did not need to clear, would fault them in one at a time.
 */
void	*xcalloc_big(size_t n, size_t size);

/*
 * The hook called with the size that could not be allocated; it must end
 * the process. Returns the previous hook (NULL: none).
 */
typedef void	(*xmalloc_oom_fn)(size_t n);
/*
 * Out of memory in a library's own allocation (one that returned NULL):
 * calls the hook as xmalloc does, never returns.
 */
void		 xmalloc_fail(size_t n) __attribute__((noreturn));
xmalloc_oom_fn	 xmalloc_set_oom(xmalloc_oom_fn fn);

#endif /* GGUF_XMALLOC_H */
