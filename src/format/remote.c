/*
 * remote.c - a GGUF file opened where it lives, over HTTP (see remote.h):
 * an "http" source (source/http.c) whose header is read here, header
 * first, or taken from the header cache (hcache.c), and handed to the
 * reader as the start of a source that cannot map (gguf_open_source_head).
 * Tensor data is then read through the source where it is read.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "extent.h"
#include "hcache.h"
#include "http.h"
#include "internal.h"
#include "remote.h"
#include "source.h"

/* A source's error as the reader's (the same line). */
static int
to_err(struct gguf_err *err, const struct gguf_srcerr *e)
{
	return gguf_errf(err, e->has_off ? (int64_t)e->off : -1, "%s",
	    e->msg);
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
gguf_remote_counts(const struct gguf_file *f, uint64_t *requests,
    uint64_t *bytes)
{
	struct gguf_source	*src = gguf_file_source(f);

	*requests = *bytes = 0;
	if (gguf_file_remote(f))
		gguf_http_counts(gguf_source_http_handle(src), requests,
		    bytes);
}

int
gguf_remote_cached(const struct gguf_file *f)
{
	return gguf_file_remote(f) &&
	    gguf_http_cached(gguf_source_http_handle(gguf_file_source(f)));
}

int
gguf_file_remote(const struct gguf_file *f)
{
	struct gguf_source	*src = gguf_file_source(f);

	return src != NULL && strcmp(gguf_source_kind(src), "http") == 0;
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
		/*
		 * A header that the file cannot hold (counts of KV pairs or
		 * tensors that need more bytes than it has): the reader says
		 * so from what is here, without a byte more.
		 */
		if (rc == 1 && want > size)
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
	struct gguf_source	*src;
	struct gguf_srcerr	 e;
	struct gguf_http	*h;
	uint8_t			*hdr, *cached;
	char			 ident[512];
	size_t			 n, cn = 0;
	uint64_t		 csize = 0;
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
	return gguf_open_source_head(src, hdr, n, err);
}
