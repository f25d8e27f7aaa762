/*
 * mem.c - a source over a buffer in memory: the test double of every
 * other source.
 *
 * It maps (a pointer into the buffer) unless told not to, so that a
 * caller's read path runs without a server; and it can be told to fail
 * as a file or a server does: a change since it was opened, or reads
 * that come back short past some offset.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "source.h"

struct mem {
	const uint8_t	*p;
	uint8_t		*own;		/* GGUF_SRC_MEM_COPY: the copy */
	unsigned	 fail;		/* GGUF_SRC_FAIL_* */
	uint64_t	 short_at;
	uint64_t	 reads;		/* calls of read */
	uint64_t	 bytes;		/* bytes they asked for */
};

static int
mem_read(struct gguf_source *s, uint64_t off, void *buf, size_t len,
    struct gguf_srcerr *e)
{
	struct mem	*m = s->impl;
	size_t		 got = len;

	m->reads++;
	m->bytes += len;
	if ((m->fail & GGUF_SRC_FAIL_SHORT) && off + len > m->short_at)
		got = off < m->short_at ? (size_t)(m->short_at - off) : 0;
	memcpy(buf, m->p + off, got);
	if (got < len)
		return gguf_source_short(s, off, got, len, e);
	return 0;
}

static const uint8_t *
mem_map(struct gguf_source *s, struct gguf_srcerr *e)
{
	struct mem	*m = s->impl;

	(void)e;
	return m->p;
}

static int
mem_changed(struct gguf_source *s, unsigned how, struct gguf_srcerr *e)
{
	struct mem	*m = s->impl;

	(void)how;
	if (!(m->fail & GGUF_SRC_FAIL_CHANGED))
		return 0;
	gguf_srcerr_set(e, GGUF_SRCE_CHANGED, -1, "written to since it was "
	    "opened");
	return 1;
}

static void
mem_close(struct gguf_source *s)
{
	struct mem	*m = s->impl;

	free(m->own);
	free(m);
}

static const struct gguf_source_ops mem_ops = {
	.kind = "memory",
	.word = "changed in memory",
	.read = mem_read,
	.map = mem_map,
	.changed = mem_changed,
	.close = mem_close
};

struct gguf_source *
gguf_source_mem(const void *buf, size_t len, const char *name,
    unsigned flags)
{
	struct gguf_source	*s;
	struct mem		*m;

	if ((s = calloc(1, sizeof *s)) == NULL ||
	    (m = calloc(1, sizeof *m)) == NULL) {
		free(s);
		return NULL;
	}
	m->p = buf;
	if (flags & GGUF_SRC_MEM_COPY) {
		if ((m->own = malloc(len > 0 ? len : 1)) == NULL) {
			free(m);
			free(s);
			return NULL;
		}
		memcpy(m->own, buf, len);
		m->p = m->own;
	}
	if (name != NULL && (s->name = strdup(name)) == NULL) {
		free(m->own);
		free(m);
		free(s);
		return NULL;
	}
	s->ops = &mem_ops;
	s->size = len;
	s->mappable = !(flags & GGUF_SRC_MEM_NOMAP);
	s->impl = m;
	return s;
}

void
gguf_source_mem_fail(struct gguf_source *s, unsigned flags,
    uint64_t short_at)
{
	struct mem	*m;

	if (s->ops != &mem_ops)
		return;
	m = s->impl;
	m->fail = flags;
	m->short_at = short_at;
}

void
gguf_source_mem_count(const struct gguf_source *s, uint64_t *reads,
    uint64_t *bytes)
{
	const struct mem	*m = s->impl;

	*reads = s->ops == &mem_ops ? m->reads : 0;
	*bytes = s->ops == &mem_ops ? m->bytes : 0;
}
