/*
 * fuzz_hcache.c - fuzz target: a file of the header cache (hcache.h).
 *
 * Input: byte 0 bit 0 says which URL the file is read for: a fixed one,
 * or the one its own second line names (so that the rest of the file is
 * reached); the rest is the file.
 *
 * Beyond "no crash, no sanitizer report":
 *	- the file is read alike whole and from its first lines only, as
 *	  the cache reads it (its text fits in them);
 *	- what a file that holds together gives is sound: an identity
 *	  without a newline, a header of 1 byte to the file's size, all of
 *	  the file after the text;
 *	- it comes back the same when written out again (the text, then
 *	  the header), read from memory and through a cache on disk;
 *	- the file put where the cache keeps name's header (a file of the
 *	  user's own, mode 0600) is read from there as from memory.
 */
#include "config.h"

#include <sys/stat.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "hcache.h"
#include "remote.h"

#define FIXED_URL	"http://127.0.0.1:8080/m.gguf"

/* The URL the file's own "url " line names, into buf; "" if none. */
static void
own_url(const uint8_t *p, size_t n, char *buf, size_t len)
{
	const uint8_t	*a, *b;
	size_t		 k;

	buf[0] = '\0';
	if ((a = memchr(p, '\n', n)) == NULL)
		return;
	a++;
	if ((size_t)(p + n - a) < 4 || memcmp(a, "url ", 4) != 0)
		return;
	a += 4;
	if ((b = memchr(a, '\n', (size_t)(p + n - a))) == NULL)
		return;
	k = (size_t)(b - a);
	if (k >= len || memchr(a, '\0', k) != NULL)
		return;
	memcpy(buf, a, k);
	buf[k] = '\0';
}

static void
again(const char *name, const char *ident, uint64_t size,
    const uint8_t *hdr, size_t hlen)
{
	char		 text[5 * GGUF_HCACHE_LINE], id2[512];
	uint8_t		*buf, *back;
	uint64_t	 size2;
	size_t		 hoff2, hlen2, n2;
	int		 k;

	if ((k = gguf_hcache_text(text, sizeof text, name, ident, size,
	    hlen)) < 0)
		fuzz_fail("a cache file read cannot be written again");
	buf = malloc((size_t)k + hlen);
	if (buf == NULL)
		return;
	memcpy(buf, text, (size_t)k);
	memcpy(buf + k, hdr, hlen);
	if (gguf_hcache_parse(buf, (size_t)k + hlen, (uint64_t)k + hlen,
	    name, id2, sizeof id2, &size2, &hoff2, &hlen2) != 0 ||
	    strcmp(id2, ident) != 0 || size2 != size || hoff2 != (size_t)k ||
	    hlen2 != hlen)
		fuzz_fail("a cache file written again reads otherwise");
	free(buf);
	gguf_hcache_store(name, ident, size, hdr, hlen);
	back = gguf_hcache_load(name, id2, sizeof id2, &size2, &n2);
	if (back == NULL || n2 != hlen || size2 != size ||
	    strcmp(id2, ident) != 0 || memcmp(back, hdr, hlen) != 0)
		fuzz_fail("a cache file on disk reads otherwise");
	free(back);
}

/*
 * The n bytes at p as the cache's file for name: read from there as from
 * memory (rc, and what it gave) when the file is the user's own.
 */
static void
on_disk(const char *name, const uint8_t *p, size_t n, int rc,
    const char *ident, uint64_t msize, size_t hlen)
{
	char		*path, id2[512];
	uint8_t		*back;
	uint64_t	 size2;
	size_t		 n2;

	if (name[0] == '\0' || (path = gguf_hcache_path(name, 1)) == NULL)
		return;
	fuzz_write_file(path, p, n);
	if (chmod(path, 0600) != 0)
		fuzz_fail("cannot chmod %s", path);
	free(path);
	back = gguf_hcache_load(name, id2, sizeof id2, &size2, &n2);
	if ((back != NULL) != (rc == 0 && n > 0) || (back != NULL &&
	    (strcmp(id2, ident) != 0 || size2 != msize || n2 != hlen)))
		fuzz_fail("the cache file on disk reads otherwise than in "
		    "memory");
	free(back);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int	 once;
	char		 name[GGUF_HCACHE_LINE], ident[512], id2[512];
	const uint8_t	*p;
	uint64_t	 msize, msize2;
	size_t		 n, cut, hoff, hlen, hoff2, hlen2;
	int		 rc, rc2;

	if (!once) {
		/* the cache of the run's own, never the user's */
		setenv("XDG_CACHE_HOME", fuzz_scratch(), 1);
		once = 1;
	}
	if (size < 1)
		return 0;
	p = data + 1;
	n = size - 1;
	if (data[0] & 1)
		own_url(p, n, name, sizeof name);
	else
		snprintf(name, sizeof name, "%s", FIXED_URL);
	rc = gguf_hcache_parse(p, n, n, name, ident, sizeof ident, &msize,
	    &hoff, &hlen);
	cut = n < 5 * GGUF_HCACHE_LINE ? n : 5 * GGUF_HCACHE_LINE;
	rc2 = gguf_hcache_parse(p, cut, n, name, id2, sizeof id2, &msize2,
	    &hoff2, &hlen2);
	if (rc != rc2 || (rc == 0 && (strcmp(ident, id2) != 0 ||
	    msize != msize2 || hoff != hoff2 || hlen != hlen2)))
		fuzz_fail("read whole and from its first lines: not alike");
	on_disk(name, p, n, rc, ident, msize, hlen);
	if (rc != 0)
		return 0;
	if (ident[0] == '\0' || strchr(ident, '\n') != NULL)
		fuzz_fail("identity \"%s\"", ident);
	if (hlen == 0 || hlen > msize || hlen > GGUF_REMOTE_MAX_HEADER ||
	    hoff + hlen != n)
		fuzz_fail("header of %zu bytes at %zu, file %zu, model %llu",
		    hlen, hoff, n, (unsigned long long)msize);
	again(name, ident, msize, p + hoff, hlen);
	return 0;
}
