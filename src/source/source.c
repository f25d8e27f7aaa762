/*
 * source.c - the operations every source shares: the wrappers of
 * source.h that check ranges and fill in the defaults of a source
 * without an operation, and the copy by reads and writes.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "source.h"

#define COPY_BLOCK	(8u << 20)	/* a copy's reads and writes */

int
gguf_srcerr_set(struct gguf_srcerr *e, int kind, int64_t off,
    const char *fmt, ...)
{
	va_list	ap;

	if (e == NULL)
		return -1;
	e->kind = kind;
	e->has_off = off >= 0;
	e->off = off >= 0 ? (uint64_t)off : 0;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof e->msg, fmt, ap);
	va_end(ap);
	return -1;
}

void
gguf_source_close(struct gguf_source *s)
{
	if (s == NULL)
		return;
	s->ops->close(s);
	free(s->name);
	free(s);
}

uint64_t
gguf_source_size(const struct gguf_source *s)
{
	return s->size;
}

const char *
gguf_source_name(const struct gguf_source *s)
{
	return s->name != NULL ? s->name : "<memory>";
}

const char *
gguf_source_kind(const struct gguf_source *s)
{
	return s->ops->kind;
}

const char *
gguf_source_changed_word(const struct gguf_source *s)
{
	return s->ops->word;
}

void
gguf_source_identity(struct gguf_source *s, char *buf, size_t len)
{
	if (s->ops->identity != NULL)
		s->ops->identity(s, buf, len);
	else
		snprintf(buf, len, "%s %llu %s", s->ops->kind,
		    (unsigned long long)s->size, gguf_source_name(s));
}

int
gguf_source_changed(struct gguf_source *s, unsigned how,
    struct gguf_srcerr *e)
{
	struct gguf_srcerr	 mine;

	if (s->ops->changed == NULL)
		return 0;
	memset(&mine, 0, sizeof mine);
	if (s->ops->changed(s, how, &mine) == 0)
		return 0;
	gguf_srcerr_set(e, GGUF_SRCE_CHANGED, -1, "%s: %.300s", s->ops->word,
	    mine.msg);
	return 1;
}

/* -1 with GGUF_SRCE_RANGE unless [off, off + len) is in s. */
static int
in_range(const struct gguf_source *s, uint64_t off, uint64_t len,
    struct gguf_srcerr *e)
{
	if (off > s->size || len > s->size - off)
		return gguf_srcerr_set(e, GGUF_SRCE_RANGE, (int64_t)off,
		    "bytes %llu:%llu are not in the %llu bytes of the %s",
		    (unsigned long long)off, (unsigned long long)off + len,
		    (unsigned long long)s->size, s->ops->kind);
	return 0;
}

int
gguf_source_read(struct gguf_source *s, uint64_t off, void *buf,
    size_t len, struct gguf_srcerr *e)
{
	if (in_range(s, off, len, e) != 0)
		return -1;
	if (len == 0)
		return 0;
	return s->ops->read(s, off, buf, len, e);
}

const uint8_t *
gguf_source_map(struct gguf_source *s, uint64_t off, uint64_t len,
    struct gguf_srcerr *e)
{
	const uint8_t	*p;

	if (!s->mappable || s->ops->map == NULL) {
		gguf_srcerr_set(e, GGUF_SRCE_NOMAP, -1, "cannot map a %s "
		    "source: read it instead", s->ops->kind);
		return NULL;
	}
	if (in_range(s, off, len, e) != 0)
		return NULL;
	if ((p = s->ops->map(s, e)) == NULL) {
		/*
		 * The system would not map it (no address space left, a file
		 * system that does not map): from now on it is read, as a
		 * server's file is.
		 */
		if (e == NULL || e->kind == GGUF_SRCE_IO) {
			s->mappable = 0;
			if (e != NULL)
				e->kind = GGUF_SRCE_NOMAP;
		}
		return NULL;
	}
	return p + off;
}

int
gguf_source_mappable(const struct gguf_source *s)
{
	return s->mappable && s->ops->map != NULL;
}

int
gguf_source_pin(struct gguf_source *s, uint64_t len, struct gguf_srcerr *e)
{
	if (s->ops->pin == NULL || len == 0)
		return 0;
	if (len > s->size)
		len = s->size;
	return s->ops->pin(s, len, e);
}

uint64_t
gguf_source_pinned(const struct gguf_source *s)
{
	return s->pinned;
}

int
gguf_source_soften(struct gguf_source *s, uint64_t len)
{
	if (s->ops->pin == NULL || len == 0)
		return 0;
	if (s->ops->soften == NULL)
		return -1;
	if (len > s->size)
		len = s->size;
	return s->ops->soften(s, len);
}

int
gguf_source_guard(struct gguf_source *s, int (*fn)(void *), void *arg)
{
	if (s->ops->guard == NULL)
		return fn(arg);
	return s->ops->guard(s, fn, arg);
}

void
gguf_source_sequential(struct gguf_source *s, uint64_t off, uint64_t len)
{
	if (s->ops->sequential == NULL || off >= s->size || len == 0)
		return;
	if (len > s->size - off)
		len = s->size - off;
	s->ops->sequential(s, off, len);
}

void
gguf_source_release(struct gguf_source *s, uint64_t off, uint64_t len)
{
	if (s->ops->release == NULL || off >= s->size || len == 0)
		return;
	if (len > s->size - off)
		len = s->size - off;
	s->ops->release(s, off, len);
}

void
gguf_source_populate(struct gguf_source *s, uint64_t off, uint64_t len)
{
	if (s->ops->populate == NULL || off >= s->size || len == 0)
		return;
	if (len > s->size - off)
		len = s->size - off;
	s->ops->populate(s, off, len);
}

/* The copy of a source without its own: reads and writes of COPY_BLOCK. */
static int
copy_by_reads(struct gguf_source *s, uint64_t off, uint64_t len, int fd,
    uint64_t fdoff, gguf_source_progress fn, void *parg,
    struct gguf_srcerr *e)
{
	uint8_t		*buf;
	uint64_t	 done = 0;
	size_t		 k, w;
	ssize_t		 r;
	int		 rc = -1;

	if ((buf = malloc(len < COPY_BLOCK ? (size_t)len : COPY_BLOCK)) ==
	    NULL)
		return gguf_srcerr_set(e, GGUF_SRCE_IO, -1, "out of memory");
	while (done < len) {
		k = len - done < COPY_BLOCK ? (size_t)(len - done) :
		    COPY_BLOCK;
		if (s->ops->read(s, off + done, buf, k, e) != 0)
			goto out;
		for (w = 0; w < k; w += (size_t)r) {
			r = pwrite(fd, buf + w, k - w,
			    (off_t)(fdoff + done + w));
			if (r < 0 && errno == EINTR) {
				r = 0;
				continue;
			}
			if (r <= 0) {
				gguf_srcerr_set(e, GGUF_SRCE_IO, -1,
				    "write: %s", r < 0 ? strerror(errno) :
				    "no progress");
				goto out;
			}
		}
		done += k;
		if (fn != NULL && fn(parg, done, len) != 0) {
			gguf_srcerr_set(e, GGUF_SRCE_CANCEL, -1, "cancelled");
			goto out;
		}
	}
	rc = 0;
out:
	free(buf);
	return rc;
}

int
gguf_source_copy(struct gguf_source *s, uint64_t off, uint64_t len, int fd,
    uint64_t fdoff, gguf_source_progress fn, void *parg,
    struct gguf_srcerr *e)
{
	if (in_range(s, off, len, e) != 0)
		return -1;
	if (len == 0)
		return 0;
	if (s->ops->copy != NULL)
		return s->ops->copy(s, off, len, fd, fdoff, fn, parg, e);
	return copy_by_reads(s, off, len, fd, fdoff, fn, parg, e);
}

int
gguf_source_fd(const struct gguf_source *s)
{
	if (s->ops->fd == NULL)
		return -1;
	return s->ops->fd((struct gguf_source *)(uintptr_t)s);
}

/*
 * The message of a short read, for the implementations: got of want
 * bytes at off.
 */
int
gguf_source_short(struct gguf_source *s, uint64_t off, size_t got,
    size_t want, struct gguf_srcerr *e)
{
	return gguf_srcerr_set(e, GGUF_SRCE_SHORT, (int64_t)(off + got),
	    "read %zu bytes of %zu: the %s ends early (%s?)", got, want,
	    s->ops->kind, s->ops->word);
}
