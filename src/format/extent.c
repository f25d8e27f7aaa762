/*
 * extent.c - how many bytes a GGUF header takes, from a prefix of it.
 *
 * A file read over the network is read header first, and a header's
 * length is written nowhere: it is the end of its last tensor info,
 * rounded up to the alignment. This walks the header as far as the
 * prefix goes (the same walk as the reader's, without its checks: the
 * reader checks everything once the bytes are there) and says either
 * where the data section starts or how many bytes it needs to go on.
 */
#include "config.h"

#include <string.h>

#include "extent.h"
#include "internal.h"

struct walk {
	const uint8_t	*p;
	uint64_t	 n;	/* bytes of the prefix */
	uint64_t	 pos;
	int		 be;
	unsigned	 lw;	/* 4 (v1) or 8 */
	uint64_t	 need;	/* when out of bytes: the prefix needed */
	uint64_t	 floor;	/* and the least that must follow it */
};

/* Adds n * each to w->floor, saturating. */
static void
more_after(struct walk *w, uint64_t n, uint64_t each)
{
	uint64_t	b;

	if (gguf_mul_ok(n, each, &b) != 0 ||
	    gguf_add_ok(w->floor, b, &w->floor) != 0)
		w->floor = UINT64_MAX;
}

/* -1 and w->need set when n bytes are not there. */
static int
have(struct walk *w, uint64_t n)
{
	if (w->pos <= w->n && n <= w->n - w->pos)
		return 0;
	if (gguf_add_ok(w->pos, n, &w->need) != 0)
		w->need = UINT64_MAX;
	return -1;
}

static int
u32(struct walk *w, uint32_t *v)
{
	if (have(w, 4) != 0)
		return -1;
	*v = gguf_ld32(w->p + w->pos, w->be);
	w->pos += 4;
	return 0;
}

static int
len(struct walk *w, uint64_t *v)
{
	if (have(w, w->lw) != 0)
		return -1;
	*v = w->lw == 4 ? gguf_ld32(w->p + w->pos, w->be) :
	    gguf_ld64(w->p + w->pos, w->be);
	w->pos += w->lw;
	return 0;
}

static int
skip(struct walk *w, uint64_t n)
{
	if (have(w, n) != 0)
		return -1;
	w->pos += n;
	return 0;
}

static int
str(struct walk *w)
{
	uint64_t	n;

	return len(w, &n) != 0 ? -1 : skip(w, n);
}

/* -1: out of bytes (w->need); -2: not a value the reader would take. */
static int
value(struct walk *w, uint32_t vt, unsigned depth)
{
	uint64_t	count, i, bytes;
	uint32_t	at;
	unsigned	sz;

	if (vt == GGUF_VT_STR)
		return str(w);
	if (vt != GGUF_VT_ARR) {
		if ((sz = gguf_vtype_size(vt)) == 0)
			return -2;
		return skip(w, sz);
	}
	if (depth >= GGUF_MAX_DEPTH)
		return -2;
	if (u32(w, &at) != 0 || len(w, &count) != 0)
		return -1;
	if ((sz = gguf_vtype_size(at)) != 0) {
		if (gguf_mul_ok(count, sz, &bytes) != 0)
			return -2;
		return skip(w, bytes);
	}
	if (at != GGUF_VT_STR && at != GGUF_VT_ARR)
		return -2;
	for (i = 0; i < count; i++) {
		int	rc = value(w, at, depth + 1);

		if (rc != 0) {
			/* each element left: its length (or head) at least */
			if (rc == -1)
				more_after(w, count - i - 1, at == GGUF_VT_STR ?
				    w->lw : 4 + w->lw);
			return rc;
		}
	}
	return 0;
}

int
gguf_header_extent(const uint8_t *p, uint64_t n, uint64_t *out)
{
	struct walk	 w;
	uint64_t	 n_kv, n_t, i, align = GGUF_DEFAULT_ALIGNMENT, klen;
	uint32_t	 version, vt, nd, a;
	const uint8_t	*key;
	int		 rc;

	memset(&w, 0, sizeof w);
	w.p = p;
	w.n = n;
	w.lw = 8;
	if (have(&w, 8) != 0)
		goto more;
	if (memcmp(p, GGUF_MAGIC, 4) != 0)
		return -1;
	version = gguf_ld32(p + 4, 0);
	if ((version & 0xffff) == 0) {
		w.be = 1;
		version = gguf_ld32(p + 4, 1);
	}
	if (version < 1 || version > 3)
		return -1;
	w.pos = 8;
	if (version == 1)
		w.lw = 4;
	if (len(&w, &n_t) != 0 || len(&w, &n_kv) != 0)
		goto more;
	for (i = 0; i < n_kv; i++) {
		if (len(&w, &klen) != 0 || have(&w, klen) != 0)
			goto kv_more;
		key = p + w.pos;
		w.pos += klen;
		if (u32(&w, &vt) != 0)
			goto kv_more;
		if (vt == GGUF_VT_U32 && klen == 17 &&
		    memcmp(key, "general.alignment", 17) == 0) {
			if (have(&w, 4) != 0)
				goto kv_more;
			a = gguf_ld32(p + w.pos, w.be);
			if (a != 0 && (a & (a - 1)) == 0 &&
			    a <= GGUF_MAX_ALIGNMENT)
				align = a;
		}
		if ((rc = value(&w, vt, 0)) == -1)
			goto kv_more;
		if (rc != 0)
			return -1;
	}
	for (i = 0; i < n_t; i++) {
		if (str(&w) != 0 || u32(&w, &nd) != 0) {
			more_after(&w, n_t - i - 1, w.lw + 4 + 4 + 8);
			goto more;
		}
		if (nd > GGUF_MAX_DIMS)
			return -1;
		if (skip(&w, (uint64_t)nd * (version == 1 ? 4 : 8)) != 0 ||
		    skip(&w, 4 + 8) != 0) {
			more_after(&w, n_t - i - 1, w.lw + 4 + 4 + 8);
			goto more;
		}
	}
	if (gguf_align_ok(w.pos, align, out) != 0)
		return -1;
	return 0;
kv_more:
	/* out of bytes in KV i: every KV after it, and every tensor info */
	more_after(&w, n_kv - i - 1, w.lw + 4 + 1);
	more_after(&w, n_t, w.lw + 4 + 4 + 8);
more:
	if (gguf_add_ok(w.need, w.floor, out) != 0)
		*out = UINT64_MAX;
	if (*out <= n)
		*out = n + 1;
	return 1;
}
