/*
 * remote.c - a GGUF file opened where it lives, over HTTP (see remote.h).
 *
 * The region is anonymous memory of the file's size, reserved without
 * pages and unreadable (PROT_NONE). The header is copied in and made
 * readable at open. Later ranges are fetched in whole pieces of
 * GGUF_REMOTE_CHUNK bytes (a run of missing pieces in one request) and
 * made readable once they hold the file's bytes; a piece given back is
 * unreadable again. The header's bytes are never written twice: the
 * reader's index points into them.
 */
#include "config.h"

#include <sys/mman.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "extent.h"
#include "hcache.h"
#include "http.h"
#include "internal.h"
#include "remote.h"
#include "source.h"

struct gguf_remote {
	struct gguf_source	*src;		/* "http" */
	struct gguf_http	*h;		/* under it */
	uint8_t			*base;
	uint64_t		 size;
	uint64_t		 map_len;	/* whole pages */
	uint64_t		 hdr_len;	/* bytes read at the open */
	uint8_t			*held;		/* a byte a piece: it is here */
	uint64_t		 n_chunks;
	pthread_mutex_t		 lock;
};

static uint64_t
page_up(uint64_t n)
{
	return (n + 4095) & ~(uint64_t)4095;
}

void
gguf_remote_free(struct gguf_remote *r)
{
	if (r == NULL)
		return;
	if (r->base != NULL && r->map_len > 0)
		munmap(r->base, (size_t)r->map_len);
	gguf_source_close(r->src);
	free(r->held);
	pthread_mutex_destroy(&r->lock);
	free(r);
}

/* A source's error as the reader's (the same line). */
static int
to_err(struct gguf_err *err, const struct gguf_srcerr *e)
{
	return gguf_errf(err, e->has_off ? (int64_t)e->off : -1, "%s",
	    e->msg);
}

struct gguf_source *
gguf_remote_source(const struct gguf_remote *r)
{
	return r->src;
}

/* Reads [off, off + len) of the source into buf: 0, or -1 with err. */
static int
src_read(struct gguf_source *src, uint64_t off, void *buf, size_t len,
    struct gguf_err *err)
{
	struct gguf_srcerr	e;

	memset(&e, 0, sizeof e);
	if (gguf_source_read(src, off, buf, len, &e) != 0)
		return to_err(err, &e);
	return 0;
}

void
gguf_remote_counts(const struct gguf_remote *r, uint64_t *requests,
    uint64_t *bytes)
{
	gguf_http_counts(r->h, requests, bytes);
}

/*
 * Reads the header: the bytes the open fetched, then what the walk says
 * it still needs. When the walk can only say how long the header is at
 * least, GGUF_REMOTE_FIRST more than that is asked for, so that what is
 * read never passes the header's end by more than that. Returns the
 * buffer (allocated) and its length in *n.
 */
static uint8_t *
read_header(struct gguf_source *src, struct gguf_http *h, size_t *n,
    struct gguf_err *err)
{
	const uint8_t	*head;
	uint8_t		*buf;
	uint64_t	 size = gguf_http_size(h), want;
	size_t		 have;
	int		 rc;

	head = gguf_http_head(h, &have);
	buf = xmalloc(have > 0 ? have : 1);
	memcpy(buf, head, have);
	for (;;) {
		rc = gguf_header_extent(buf, have, &want);
		if (rc < 0 || have >= size)
			break;
		if (rc == 1 && gguf_add_ok(want, GGUF_REMOTE_FIRST, &want) != 0)
			want = UINT64_MAX;
		if (want > size)
			want = size;
		if (want <= have)
			break;
		if (want > GGUF_REMOTE_MAX_HEADER) {
			char	a[32];

			free(buf);
			gguf_errf(err, -1, "the header is larger than %s: not "
			    "read over the network",
			    gguf_fmt_size(GGUF_REMOTE_MAX_HEADER, a, sizeof a));
			return NULL;
		}
		buf = xreallocarray(buf, (size_t)want, 1);
		if (src_read(src, have, buf + have, (size_t)want - have,
		    err) != 0) {
			free(buf);
			return NULL;
		}
		have = (size_t)want;
		if (rc == 0)
			break;
	}
	*n = have;
	return buf;
}

struct gguf_file *
gguf_open_url(const char *name, struct gguf_err *err)
{
	struct gguf_remote	*r;
	struct gguf_source	*src;
	struct gguf_srcerr	 e;
	struct gguf_http	*h;
	uint8_t			*hdr, *cached;
	char			 ident[512];
	size_t			 n, cn = 0;
	uint64_t		 i, csize = 0;
	int			 unchanged = 0;

	memset(&e, 0, sizeof e);
	cached = gguf_hcache_load(name, ident, sizeof ident, &csize, &cn);
	if ((src = gguf_source_http(name, GGUF_REMOTE_FIRST,
	    cached != NULL ? ident : NULL, csize, &unchanged, &e)) == NULL) {
		free(cached);
		to_err(err, &e);
		return NULL;
	}
	h = gguf_source_http_handle(src);
	if (unchanged) {
		hdr = cached;		/* the server said: still that file */
		n = cn;
	} else {
		free(cached);
		if ((hdr = read_header(src, h, &n, err)) == NULL) {
			gguf_source_close(src);
			return NULL;
		}
		gguf_hcache_store(name, gguf_http_identity(h),
		    gguf_http_size(h), hdr, n);
	}
	r = xcalloc(1, sizeof *r);
	pthread_mutex_init(&r->lock, NULL);
	r->src = src;
	r->h = h;
	r->size = gguf_http_size(h);
	r->map_len = page_up(r->size > 0 ? r->size : 1);
	r->base = mmap(NULL, (size_t)r->map_len, PROT_NONE,
	    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (r->base == MAP_FAILED) {
		r->base = NULL;
		gguf_errf(err, -1, "cannot reserve memory for the file: %s",
		    strerror(errno));
		free(hdr);
		gguf_remote_free(r);
		return NULL;
	}
	r->n_chunks = (r->size + GGUF_REMOTE_CHUNK - 1) / GGUF_REMOTE_CHUNK;
	r->held = xcalloc(r->n_chunks > 0 ? r->n_chunks : 1, 1);
	r->hdr_len = n;
	if (n > 0) {
		if (mprotect(r->base, (size_t)page_up(n), PROT_READ |
		    PROT_WRITE) != 0) {
			gguf_errf(err, -1, "cannot map the header: %s",
			    strerror(errno));
			free(hdr);
			gguf_remote_free(r);
			return NULL;
		}
		memcpy(r->base, hdr, n);
		mprotect(r->base, (size_t)page_up(n), PROT_READ);
	}
	free(hdr);
	for (i = 0; i < r->n_chunks && (i + 1) * GGUF_REMOTE_CHUNK <= n; i++)
		r->held[i] = 1;
	if (n == r->size && r->n_chunks > 0)
		r->held[r->n_chunks - 1] = 1;
	return gguf_open_region(r->base, n, r->size, name, r, err);
}

/*
 * Fetches pieces [a, z) into the region; the lock is held. The bytes of
 * the header are not fetched again (the page it ends in is made
 * writable a moment for the bytes after it: its content stays).
 */
static int
fetch_chunks(struct gguf_remote *r, uint64_t a, uint64_t z,
    struct gguf_err *err)
{
	uint64_t	start = a * GGUF_REMOTE_CHUNK, end, lo, hi, keep;

	end = z * GGUF_REMOTE_CHUNK;
	if (end > r->size)
		end = r->size;
	if (start < r->hdr_len)
		start = r->hdr_len;
	if (start < end) {
		lo = start & ~(uint64_t)4095;
		hi = page_up(end);
		if (mprotect(r->base + lo, (size_t)(hi - lo), PROT_READ |
		    PROT_WRITE) != 0)
			return gguf_errf(err, -1, "cannot map the file's "
			    "data: %s", strerror(errno));
		if (src_read(r->src, start, r->base + start,
		    (size_t)(end - start), err) != 0) {
			keep = page_up(r->hdr_len) > lo ?
			    page_up(r->hdr_len) : lo;
			if (keep > hi)
				keep = hi;
			if (keep > lo)
				mprotect(r->base + lo, (size_t)(keep - lo),
				    PROT_READ);
			(void)madvise(r->base + keep, (size_t)(hi - keep),
			    MADV_DONTNEED);
			mprotect(r->base + keep, (size_t)(hi - keep),
			    PROT_NONE);
			return -1;
		}
		mprotect(r->base + lo, (size_t)(hi - lo), PROT_READ);
	}
	memset(r->held + a, 1, (size_t)(z - a));
	return 0;
}

int
gguf_remote_ensure(struct gguf_remote *r, uint64_t off, uint64_t len,
    struct gguf_err *err)
{
	uint64_t	a, z, i, j;
	int		rc = 0;

	if (len == 0 || off >= r->size)
		return 0;
	if (len > r->size - off)
		len = r->size - off;
	if (off + len <= r->hdr_len)
		return 0;
	a = off / GGUF_REMOTE_CHUNK;
	z = (off + len + GGUF_REMOTE_CHUNK - 1) / GGUF_REMOTE_CHUNK;
	pthread_mutex_lock(&r->lock);
	for (i = a; i < z && rc == 0; i = j) {
		if (r->held[i]) {
			j = i + 1;
			continue;
		}
		for (j = i + 1; j < z && !r->held[j]; j++)
			;
		rc = fetch_chunks(r, i, j, err);
	}
	pthread_mutex_unlock(&r->lock);
	return rc;
}

void
gguf_remote_release(struct gguf_remote *r, uint64_t off, uint64_t len)
{
	uint64_t	a, z, lo, hi;

	if (len == 0 || off >= r->size)
		return;
	if (len > r->size - off)
		len = r->size - off;
	a = (off + GGUF_REMOTE_CHUNK - 1) / GGUF_REMOTE_CHUNK;
	z = (off + len) / GGUF_REMOTE_CHUNK;
	if (off + len == r->size)
		z = r->n_chunks;
	pthread_mutex_lock(&r->lock);
	for (; a < z; a++) {
		lo = a * GGUF_REMOTE_CHUNK;
		hi = lo + GGUF_REMOTE_CHUNK;
		if (!r->held[a] || lo < page_up(r->hdr_len))
			continue;
		if (hi > r->map_len)
			hi = r->map_len;
		(void)madvise(r->base + lo, (size_t)(hi - lo), MADV_DONTNEED);
		mprotect(r->base + lo, (size_t)(hi - lo), PROT_NONE);
		r->held[a] = 0;
	}
	pthread_mutex_unlock(&r->lock);
}
