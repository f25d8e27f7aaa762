/*
 * hcache.h - the header cache of models read over the network (see
 * remote.h): one file a URL, under $XDG_CACHE_HOME/ggufed/headers, named
 * by the URL's xxh64, holding five lines of text then the header's bytes:
 *
 *	ggufed header cache 1
 *	url URL
 *	identity ETAG-OR-DATE		(as gguf_http_identity gives it)
 *	size FILE-SIZE
 *	length HEADER-LENGTH
 *	...HEADER-LENGTH bytes, and nothing after them
 *
 * A file that does not hold together is no error: it is ignored, and the
 * header is read from the server anew. Nor is one that cannot be trusted
 * (trust.h: the directories and the file the user's own, not a link,
 * that neither group nor others can write, the file a regular one): it
 * is ignored, never written through, with one warning handed to the
 * program (gguf_remote_cache_warn, remote.h).
 */
#ifndef GGUF_HCACHE_H
#define GGUF_HCACHE_H

#include <stddef.h>
#include <stdint.h>

/* The longest line of text the cache file may have, its newline in. */
#define GGUF_HCACHE_LINE	4096

/*
 * Reads the text of a cache file for name from its first n bytes at p,
 * of a file of total bytes: 0 with the identity (into identity, of ilen
 * bytes), the model's size, and where the header's bytes start (*hoff)
 * and how many there are (*hlen, the rest of the file); -1 if the file
 * is not one for name, or does not hold together.
 */
int	gguf_hcache_parse(const uint8_t *p, size_t n, uint64_t total,
	    const char *name, char *identity, size_t ilen, uint64_t *size,
	    size_t *hoff, size_t *hlen);

/*
 * The text of a cache file (all but the header's bytes) into buf, of len
 * bytes: its length, or -1 if it does not fit or cannot be read back (a
 * newline in name or identity, an empty identity).
 */
int	gguf_hcache_text(char *buf, size_t len, const char *name,
	    const char *identity, uint64_t size, size_t hlen);

/*
 * The cached header of name: its bytes (allocated) and *n, and the
 * identity and size of the file it was read from; NULL if there is none
 * (or the cache is off).
 */
uint8_t	*gguf_hcache_load(const char *name, char *identity, size_t ilen,
	    uint64_t *size, size_t *n);
/*
 * The cache's file for name, allocated; NULL when there is no cache
 * directory (neither XDG_CACHE_HOME nor HOME), it cannot be made (make:
 * the directories are made, mode 0700) or it cannot be trusted.
 */
char	*gguf_hcache_path(const char *name, int make);
/* Keeps the header of name for the next open; a failure keeps nothing. */
void	 gguf_hcache_store(const char *name, const char *identity,
	    uint64_t size, const uint8_t *hdr, size_t n);

#endif /* GGUF_HCACHE_H */
