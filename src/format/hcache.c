/*
 * hcache.c - the header cache of models read over the network (see
 * hcache.h and remote.h).
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xxhash.h>

#include "hcache.h"
#include "remote.h"
#include "trust.h"
#include "xmalloc.h"

#define CACHE_MAGIC	"ggufed header cache 1"

static int	cache_on = 1;

void
gguf_remote_cache(int on)
{
	cache_on = on;
}

static void	(*warn_fn)(const char *);

void
gguf_remote_cache_warn(void (*fn)(const char *msg))
{
	warn_fn = fn;
}

/*
 * Says once, through warn_fn, why the cache is not used: in a directory
 * others can write into, a header planted there would be believed (the
 * server's 304 confirms the identity it names), a FIFO would hang the
 * reader, and a link would be written through.
 */
static void
cache_warn(const char *what, const char *why)
{
	static int	said;
	char		msg[1024];

	if (said++ || warn_fn == NULL)
		return;
	snprintf(msg, sizeof msg, "warning: header cache %s: %s: not used "
	    "(the header is read from the server)", what, why);
	warn_fn(msg);
}

/*
 * The cache's directory (.../ggufed/headers) into dir, of len bytes: 0,
 * or -1 when there is none (neither XDG_CACHE_HOME nor HOME) or it cannot
 * be trusted (gguf_unsafe_dir: said once). With make, the directories
 * are made first (mode 0700).
 */
static int
cache_dir(char *dir, size_t len, int make)
{
	const char	*x = getenv("XDG_CACHE_HOME"), *home, *bad;
	char		 why[128], *p;
	size_t		 n;

	if (x != NULL && *x == '/')
		n = (size_t)snprintf(dir, len, "%s/ggufed", x);
	else if ((home = getenv("HOME")) != NULL && *home == '/')
		n = (size_t)snprintf(dir, len, "%s/.cache/ggufed", home);
	else
		return -1;
	if (n + 40 >= len)
		return -1;
	if (make) {
		/* each level: XDG_CACHE_HOME itself may not exist yet */
		for (p = dir + 1; *p != '\0'; p++)
			if (*p == '/') {
				*p = '\0';
				(void)mkdir(dir, 0700);
				*p = '/';
			}
		(void)mkdir(dir, 0700);
	}
	/* ggufed's own directory, then headers in it: neither planted */
	if ((bad = gguf_unsafe_dir(dir, why, sizeof why)) != NULL) {
		cache_warn(dir, bad);
		return -1;
	}
	snprintf(dir + n, len - n, "/headers");
	if (make && mkdir(dir, 0700) != 0 && errno != EEXIST)
		return -1;
	if ((bad = gguf_unsafe_dir(dir, why, sizeof why)) != NULL) {
		cache_warn(dir, bad);
		return -1;
	}
	return 0;
}

char *
gguf_hcache_path(const char *name, int make)
{
	char	dir[4096];
	size_t	n;

	if (cache_dir(dir, sizeof dir, make) != 0)
		return NULL;
	n = strlen(dir);
	snprintf(dir + n, sizeof dir - n, "/%016llx.gguf-header",
	    (unsigned long long)XXH64(name, strlen(name), 0));
	return xstrdup(dir);
}

/*
 * The line at *at of the n bytes at p, without its newline, into buf (a
 * line holds no NUL): 0 and *at past it, or -1.
 */
static int
cache_line(const uint8_t *p, size_t n, size_t *at, char *buf, size_t len)
{
	const uint8_t	*nl;
	size_t		 k;

	if (*at >= n || (nl = memchr(p + *at, '\n', n - *at)) == NULL)
		return -1;
	k = (size_t)(nl - (p + *at));
	if (k >= len || memchr(p + *at, '\0', k) != NULL)
		return -1;
	memcpy(buf, p + *at, k);
	buf[k] = '\0';
	*at += k + 1;
	return 0;
}

/* "WORD N" with N all digits (no sign, no blank, no overflow): 0, or -1. */
static int
cache_number(const char *line, const char *word, uint64_t *v)
{
	size_t		 k = strlen(word);
	const char	*s;

	if (strncmp(line, word, k) != 0 || line[k] != ' ' ||
	    line[k + 1] == '\0' || strlen(line + k + 1) > 19)
		return -1;
	*v = 0;
	for (s = line + k + 1; *s != '\0'; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		*v = *v * 10 + (uint64_t)(*s - '0');
	}
	return 0;
}

int
gguf_hcache_parse(const uint8_t *p, size_t n, uint64_t total,
    const char *name, char *identity, size_t ilen, uint64_t *size,
    size_t *hoff, size_t *hlen)
{
	char		line[GGUF_HCACHE_LINE];
	size_t		at = 0;
	uint64_t	sz, len;

	if (n > total ||
	    cache_line(p, n, &at, line, sizeof line) != 0 ||
	    strcmp(line, CACHE_MAGIC) != 0 ||
	    cache_line(p, n, &at, line, sizeof line) != 0 ||
	    strncmp(line, "url ", 4) != 0 || strcmp(line + 4, name) != 0 ||
	    cache_line(p, n, &at, line, sizeof line) != 0 ||
	    strncmp(line, "identity ", 9) != 0 || line[9] == '\0' ||
	    strlen(line + 9) >= ilen)
		return -1;
	memcpy(identity, line + 9, strlen(line + 9) + 1);
	if (cache_line(p, n, &at, line, sizeof line) != 0 ||
	    cache_number(line, "size", &sz) != 0 ||
	    cache_line(p, n, &at, line, sizeof line) != 0 ||
	    cache_number(line, "length", &len) != 0 || len == 0 ||
	    len > sz || len > GGUF_REMOTE_MAX_HEADER ||
	    total - at != len)
		return -1;
	*size = sz;
	*hoff = at;
	*hlen = (size_t)len;
	return 0;
}

int
gguf_hcache_text(char *buf, size_t len, const char *name,
    const char *identity, uint64_t size, size_t hlen)
{
	int	n;

	if (identity[0] == '\0' || strchr(identity, '\n') != NULL ||
	    strchr(name, '\n') != NULL)
		return -1;
	n = snprintf(buf, len, "%s\nurl %s\nidentity %s\nsize %" PRIu64 "\n"
	    "length %zu\n", CACHE_MAGIC, name, identity, size, hlen);
	if (n < 0 || (size_t)n >= len ||
	    strlen(name) + 5 > GGUF_HCACHE_LINE ||
	    strlen(identity) + 10 > GGUF_HCACHE_LINE)
		return -1;
	return n;
}

uint8_t *
gguf_hcache_load(const char *name, char *identity, size_t ilen,
    uint64_t *size, size_t *n)
{
	uint8_t		 text[5 * GGUF_HCACHE_LINE], *buf = NULL;
	struct stat	 st;
	size_t		 got, hoff, hlen;
	char		*path, why[164];
	FILE		*fp;
	int		 fd;

	if (!cache_on || (path = gguf_hcache_path(name, 0)) == NULL)
		return NULL;
	/* never through a link, never a FIFO, only a file of the user's */
	if ((fd = gguf_open_ours(path, O_RDONLY, why, sizeof why - 3)) < 0) {
		if (errno == ELOOP || errno == EINVAL || errno == EPERM) {
			memmove(why + 3, why, strlen(why) + 1);
			memcpy(why, "is ", 3);
		}
		if (errno != ENOENT)
			cache_warn(path, why);
		free(path);
		return NULL;
	}
	free(path);
	if ((fp = fdopen(fd, "rb")) == NULL) {
		close(fd);
		return NULL;
	}
	if (fstat(fileno(fp), &st) != 0 || st.st_size <= 0)
		goto out;
	got = fread(text, 1, sizeof text, fp);
	if (gguf_hcache_parse(text, got, (uint64_t)st.st_size, name,
	    identity, ilen, size, &hoff, &hlen) != 0 ||
	    fseeko(fp, (off_t)hoff, SEEK_SET) != 0)
		goto out;
	buf = xmalloc(hlen);
	if (fread(buf, 1, hlen, fp) != hlen || fgetc(fp) != EOF) {
		free(buf);
		buf = NULL;
		goto out;
	}
	*n = hlen;
out:
	fclose(fp);
	return buf;
}

void
gguf_hcache_store(const char *name, const char *identity, uint64_t size,
    const uint8_t *hdr, size_t n)
{
	char	*path, *tmp, text[5 * GGUF_HCACHE_LINE];
	size_t	 len;
	FILE	*fp;
	int	 fd, ok, k;

	if (!cache_on || (k = gguf_hcache_text(text, sizeof text, name,
	    identity, size, n)) < 0 || (path = gguf_hcache_path(name, 1)) == NULL)
		return;
	len = strlen(path) + 8;
	tmp = xmalloc(len);
	snprintf(tmp, len, "%s.XXXXXX", path);
	if ((fd = mkstemp(tmp)) < 0 || (fp = fdopen(fd, "wb")) == NULL) {
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		free(tmp);
		free(path);
		return;
	}
	ok = fwrite(text, 1, (size_t)k, fp) == (size_t)k &&
	    fwrite(hdr, 1, n, fp) == n;
	if (fclose(fp) != 0 || !ok || rename(tmp, path) != 0)
		unlink(tmp);
	free(tmp);
	free(path);
}
