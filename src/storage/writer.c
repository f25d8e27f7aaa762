/*
 * writer.c - the layout of a saved document and its serialisation as
 * GGUF v3.
 *
 * The output is: the header (magic, version 3, tensor count, KV count),
 * the live KV entries in document order, the live tensor infos in file
 * order with the n_dims each was read with, zero padding to the
 * alignment, then the tensor data.
 *
 * Tensor offsets are relative to the data section, so a KV edit or a
 * rename moves no tensor: the data section of the source is copied as
 * one range, whatever the header became. The data is re-laid out, tensor
 * by tensor, only when it has to be: a tensor was removed or converted,
 * the alignment changed, or the source is not laid out the way ggml demands (offsets 0,
 * then each previous offset plus the previous size padded to the
 * alignment, in tensor-info order, zero padding after every tensor
 * including the last, nothing after that). The re-laid-out form is
 * exactly that canonical one, and a notice says what was normalised.
 *
 * Unchanged KV entries and tensor infos of a v2 or v3 source are copied
 * as raw bytes; everything else is encoded, in the source's byte order,
 * with 64-bit lengths (v1 entries are re-encoded). A source saved with no
 * edits is therefore byte-identical to itself whenever it is canonical.
 *
 * A file without tensors keeps the choice of its source: ggml pads the
 * header even then, many converters do not; both load.
 *
 * The reserve: an entry GGUF_RESERVED_KEY (an array of zero bytes) can
 * hold the slack of the header region, so that a later edit that grows or
 * shrinks the header resizes the reserve instead of moving the data, and
 * the save is an in-place header rewrite. Its size is chosen here.
 *
 * A tensor converted to float32 is written from the source's mapping,
 * decoded by the dequantizer a stretch at a time, so a converted tensor
 * costs a buffer of CONV_CHUNK values, not its size.
 *
 * Data is streamed between descriptors with copy_file_range (the kernel
 * copies, or clones where the filesystem can), falling back to pread and
 * pwrite in large chunks; it is never mapped or loaded whole. Holes of a
 * sparse source (found with SEEK_DATA and SEEK_HOLE) are not copied, so
 * they stay holes in the new file.
 *
 * The save fsyncs the new file before renaming it; left to that fsync,
 * gigabytes of dirty pages would only start towards the disk at the end.
 * So writeback of each copied stretch is started as soon as it is
 * written (sync_file_range, which neither waits nor reports: the fsync
 * still does both), and the disk works while the copy goes on.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dequant.h"
#include "source.h"
#include "storeint.h"

#define SINK_BUF	(1u << 20)		/* header writes */
#define COPY_CHUNK	(64ull << 20)		/* per copy call, per progress */
#define COPY_BUF	(8u << 20)		/* fallback buffer */
#define CONV_CHUNK	(1u << 20)		/* values decoded per call */
#define WRITEBACK	(16ull << 20)		/* start writeback this often */
#define RES_KEYLEN	(sizeof GGUF_RESERVED_KEY - 1)
#define RES_OVERHEAD	(8 + RES_KEYLEN + 4 + 4 + 8)	/* entry minus data */

void
gguf_notice(struct gguf_save_info *info, const char *fmt, ...)
{
	va_list	ap;

	if (info == NULL || info->n_notices >= GGUF_MAX_NOTICES)
		return;
	va_start(ap, fmt);
	vsnprintf(info->notices[info->n_notices++], sizeof info->notices[0],
	    fmt, ap);
	va_end(ap);
}

/* ------------------------------------------------------------------ sizes */

static int
kv_raw(struct gguf_doc *d, uint64_t i)
{
	return i < d->n_src_kv && d->kv[i].name == NULL &&
	    d->kv[i].val == NULL && gguf_layout(d->f)->version >= 2;
}

static int
kv_size(struct gguf_doc *d, uint64_t i, uint64_t *size, struct gguf_err *err)
{
	struct gguf_kv	*kv;
	struct gguf_str	 key;
	uint64_t	 vs;

	if (kv_raw(d, i)) {
		kv = gguf_kv_at(d->f, i);
		*size = kv->end - kv->off;
		return 0;
	}
	key = gguf_doc_kv_key(d, i);
	if (gguf_enc_size(gguf_doc_kv_val(d, i), &vs, err) != 0)
		return -1;
	*size = 8 + key.n + 4 + vs;
	return 0;
}

static int
ti_raw(struct gguf_doc *d, const struct wplan *p, uint64_t i)
{
	return d->ten[i].name == NULL && !d->ten[i].f32 &&
	    gguf_layout(d->f)->version >= 2 &&
	    p->off[i] == gguf_tensor_at(d->f, i)->offset;
}

static uint64_t
ti_size(struct gguf_doc *d, uint64_t i)
{
	return 8 + gguf_doc_tensor_name(d, i).n + 4 +
	    8 * (uint64_t)gguf_tensor_at(d->f, i)->n_dims + 4 + 8;
}

static int
is_reserve(struct gguf_doc *d, uint64_t i)
{
	struct gguf_str	 k = gguf_doc_kv_key(d, i);
	struct gguf_val	*v;

	if (d->kv[i].removed || k.n != RES_KEYLEN ||
	    memcmp(k.p, GGUF_RESERVED_KEY, RES_KEYLEN) != 0)
		return 0;
	v = gguf_doc_kv_val(d, i);
	return v->type == GGUF_VT_ARR && v->atype == GGUF_VT_U8;
}

/* ------------------------------------------------------------------- plan */

/*
 * Whether the source is laid out as ggml lays out, and where its header
 * region ends; notes what a rewrite would normalise.
 */
static void
src_layout(struct gguf_doc *d, struct wplan *p, struct gguf_save_info *info)
{
	const struct gguf_layout	*lay = gguf_layout(d->f);
	const struct gguf_tensor	*t;
	uint64_t			 i, expect = 0, end, aend;
	int				 order = 1;

	p->src_canon = 1;
	if (lay->n_tensors == 0) {
		/* Unpadded, or padded with zeros and nothing more. */
		p->src_region = lay->file_size;
		if (gguf_align_ok(lay->ti_end, lay->alignment, &aend) != 0)
			aend = lay->ti_end;
		if (lay->file_size != lay->ti_end && lay->file_size != aend) {
			p->src_canon = 0;
			p->src_region = lay->ti_end;
			gguf_notice(info, "%llu bytes after the metadata dropped",
			    (unsigned long long)(lay->file_size - lay->ti_end));
		}
		return;
	}
	p->src_region = lay->data_off;
	for (i = 0; i < lay->n_tensors; i++) {
		t = gguf_tensor_at(d->f, i);
		if (t->flags & (GGUF_TENSOR_UNSIZED | GGUF_TENSOR_UNREADABLE)) {
			p->src_canon = 0;
			return;
		}
		if (t->offset != expect)
			order = 0;
		if (gguf_add_ok(t->offset, t->nbytes, &end) != 0 ||
		    gguf_align_ok(end, lay->alignment, &expect) != 0) {
			p->src_canon = 0;
			return;
		}
	}
	if (!order) {
		p->src_canon = 0;
		gguf_notice(info, "tensor data re-laid out in ggml's order (the "
		    "source has gaps, overlaps or reordered offsets)");
		return;
	}
	if (lay->data_off + expect != lay->file_size) {
		p->src_canon = 0;
		if (lay->file_size < lay->data_off + expect)
			gguf_notice(info, "zero padding added after the last tensor");
		else
			gguf_notice(info, "%llu bytes after the last tensor "
			    "dropped", (unsigned long long)(lay->file_size -
			    lay->data_off - expect));
	}
}

int
gguf_plan(struct gguf_doc *d, int64_t reserve, struct wplan *p,
    struct gguf_save_info *info, struct gguf_err *err)
{
	const struct gguf_layout	*lay = gguf_layout(d->f);
	const struct gguf_tensor	*t;
	uint64_t			 i, sz, h, expect, end, cur, conv = 0;
	int				 removed = 0, pad;
	char				 buf[256];

	memset(p, 0, sizeof *p);
	p->ver = (int)lay->version;
	p->res_kv = -1;
	p->align = gguf_doc_alignment(d);
	p->off = xcalloc((size_t)d->n_ten, sizeof *p->off);
	if (gguf_n_shards(d->f) > 0) {
		/* A split set is written as one file, laid out anew. */
		p->src_canon = 0;
		p->src_region = lay->data_off;
	} else
		src_layout(d, p, info);
	if (lay->version < 3)
		gguf_notice(info, "GGUF v%u converted to v3", (unsigned)lay->version);

	/* The reserve entry: found, added, dropped. */
	for (i = 0; i < d->n_kv; i++) {
		if (is_reserve(d, i)) {
			p->res_kv = (int64_t)i;
			break;
		}
	}
	if (reserve == 0 && p->res_kv >= 0)
		p->res_drop = 1;
	if (reserve > 0 && p->res_kv < 0)
		p->res_new = 1;

	/* Header size, the reserve entry aside. */
	h = 4 + 4 + 8 + 8;
	for (i = 0; i < d->n_kv; i++) {
		if (d->kv[i].removed || (int64_t)i == p->res_kv)
			continue;
		if (kv_size(d, i, &sz, err) != 0)
			return -1;
		h += sz;
		p->n_kv++;
	}
	for (i = 0; i < d->n_ten; i++) {
		t = gguf_tensor_at(d->f, i);
		if (d->ten[i].removed) {
			removed = 1;
			continue;
		}
		if (t->flags & GGUF_TENSOR_UNSIZED)
			return gguf_errf(err, -1, "tensor \"%s\" has an unknown "
			    "type or shape, so its data cannot be copied: "
			    "remove it to save", gguf_pname_str(
			    gguf_doc_tensor_name(d, i), buf, sizeof buf));
		if (t->flags & GGUF_TENSOR_UNREADABLE)
			return gguf_errf(err, -1, "tensor \"%s\": its data lies "
			    "beyond the end of the file: remove it to save",
			    gguf_pname_str(gguf_doc_tensor_name(d, i), buf,
			    sizeof buf));
		h += ti_size(d, i);
		p->n_tensors++;
		conv += d->ten[i].f32 != 0;
	}

	/* Tensor layout: kept as is, or re-laid out canonically. */
	p->relayout = removed || conv > 0 || !p->src_canon ||
	    gguf_n_shards(d->f) > 0 ||
	    p->align != lay->alignment;
	if (p->relayout && lay->n_tensors > 0) {
		expect = 0;
		for (i = 0; i < d->n_ten; i++) {
			if (d->ten[i].removed)
				continue;
			p->off[i] = expect;
			if (gguf_add_ok(expect, gguf_doc_tensor_nbytes(d, i),
			    &end) != 0 ||
			    gguf_align_ok(end, p->align, &expect) != 0)
				return gguf_errf(err, -1, "data section size "
				    "overflows");
		}
		p->data_len = expect;
		if (conv > 0)
			gguf_notice(info, "%llu tensor%s converted to F32 (data "
			    "re-laid out)", (unsigned long long)conv,
			    conv == 1 ? "" : "s");
		if (removed)
			gguf_notice(info, "tensor data re-laid out (tensors removed)");
		else if (p->align != lay->alignment)
			gguf_notice(info, "tensor data re-laid out for alignment %u",
			    (unsigned)p->align);
	} else {
		for (i = 0; i < d->n_ten; i++)
			p->off[i] = gguf_tensor_at(d->f, i)->offset;
		p->data_len = lay->n_tensors > 0 ?
		    lay->file_size - lay->data_off : 0;
	}
	/* Whether the header region is padded. */
	if (p->n_tensors > 0 || lay->n_tensors > 0)
		pad = 1;
	else
		pad = lay->file_size > lay->ti_end;

	/* The reserve's size. */
	if (p->res_kv >= 0 && !p->res_drop && reserve < 0) {
		cur = gguf_doc_kv_val(d, (uint64_t)p->res_kv)->count;
		if (!p->relayout && h + RES_OVERHEAD <= p->src_region &&
		    (!pad || p->src_region % p->align == 0))
			p->res_n = p->src_region - h - RES_OVERHEAD;
		else
			p->res_n = cur;
	} else if (reserve > 0 && !p->res_drop) {
		p->res_n = (uint64_t)reserve;
		if (pad && (h + RES_OVERHEAD + p->res_n) % p->align != 0)
			p->res_n += p->align -
			    (h + RES_OVERHEAD + p->res_n) % p->align;
	}
	if ((p->res_kv >= 0 && !p->res_drop) || p->res_new) {
		h += RES_OVERHEAD + p->res_n;
		p->n_kv++;
		if (info != NULL)
			info->reserve = p->res_n;
	}
	p->hdr_end = h;
	if (pad) {
		if (gguf_align_ok(h, p->align, &p->data_off) != 0)
			return gguf_errf(err, -1, "header size overflows");
	} else
		p->data_off = h;
	if (gguf_add_ok(p->data_off, p->data_len, &p->file_size) != 0)
		return gguf_errf(err, -1, "file size overflows");

	p->inplace_ok = !p->relayout && p->src_canon &&
	    p->data_off == p->src_region && p->file_size == lay->file_size;
	if (info != NULL) {
		info->file_size = p->file_size;
		info->data_off = p->data_off;
		info->relayout = p->relayout && lay->n_tensors > 0;
	}
	return 0;
}

void
gguf_plan_free(struct wplan *p)
{
	free(p->off);
	p->off = NULL;
}

/* ------------------------------------------------------------------- sink */

void
gguf_sink_init(struct wsink *s, int fd, uint64_t total, gguf_progress_fn fn,
    void *arg)
{
	memset(s, 0, sizeof *s);
	s->fd = fd;
	s->total = total;
	s->progress = fn;
	s->arg = arg;
	if (fd >= 0)
		s->buf = xmalloc(SINK_BUF);
}

static int
write_all(int fd, const uint8_t *p, size_t n, struct gguf_err *err)
{
	ssize_t	r;

	while (n > 0) {
		r = gguf_io_write(fd, p, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return gguf_errf(err, -1, "write: %s", strerror(errno));
		if (r == 0)
			return gguf_errf(err, -1, "write: no progress");
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

static int
sink_progress(struct wsink *s, struct gguf_err *err)
{
	if (s->progress != NULL && s->progress(s->arg, s->pos, s->total) != 0)
		return gguf_errf(err, -1, "cancelled");
	return 0;
}

int
gguf_sink_flush(struct wsink *s, struct gguf_err *err)
{
	if (s->fd < 0 || s->nbuf == 0)
		return 0;
	if (write_all(s->fd, s->buf, s->nbuf, err) != 0)
		return -1;
	s->nbuf = 0;
	return sink_progress(s, err);
}

int
gguf_sink_put(struct wsink *s, const void *p, uint64_t n,
    struct gguf_err *err)
{
	const uint8_t	*b = p;
	size_t		 k;

	s->pos += n;
	if (s->fd < 0) {
		gbuf_put(&s->mem, p, n);
		return 0;
	}
	while (n > 0) {
		k = SINK_BUF - s->nbuf;
		if (k > n)
			k = (size_t)n;
		memcpy(s->buf + s->nbuf, b, k);
		s->nbuf += k;
		b += k;
		n -= k;
		if (s->nbuf == SINK_BUF && gguf_sink_flush(s, err) != 0)
			return -1;
	}
	return 0;
}

void
gguf_sink_free(struct wsink *s)
{
	free(s->buf);
	gbuf_free(&s->mem);
	memset(s, 0, sizeof *s);
	s->fd = -1;
}

static int
sink_zeros(struct wsink *s, uint64_t n, struct gguf_err *err)
{
	static const uint8_t	z[4096];
	uint64_t		k;

	while (n > 0) {
		k = n < sizeof z ? n : sizeof z;
		if (gguf_sink_put(s, z, k, err) != 0)
			return -1;
		n -= k;
	}
	return 0;
}

/* A small encoded piece (a number or a length), through a buffer. */
static int
sink_enc(struct wsink *s, struct gbuf *b, struct gguf_err *err)
{
	int	rc = gguf_sink_put(s, b->p, b->n, err);

	b->n = 0;
	return rc;
}

/* ----------------------------------------------------------------- header */

static int
write_kv(struct gguf_doc *d, uint64_t i, struct wsink *s, struct gbuf *tmp,
    struct gguf_err *err)
{
	struct gguf_kv	*kv;
	struct gguf_str	 key;
	struct gguf_val	*v;

	if (kv_raw(d, i)) {
		kv = gguf_kv_at(d->f, i);
		return gguf_sink_put(s, gguf_file_header(d->f) + kv->off,
		    kv->end - kv->off, err);
	}
	key = gguf_doc_kv_key(d, i);
	v = gguf_doc_kv_val(d, i);
	gbuf_u64(tmp, key.n, d->be);
	if (sink_enc(s, tmp, err) != 0 ||
	    gguf_sink_put(s, key.p, key.n, err) != 0)
		return -1;
	gbuf_u32(tmp, v->type, d->be);
	if (sink_enc(s, tmp, err) != 0)
		return -1;
	if (v->lw == 8)
		return gguf_sink_put(s, v->p, v->n, err);
	if (gguf_enc_payload(tmp, v, d->be, err) != 0)
		return -1;
	return sink_enc(s, tmp, err);
}

static int
write_reserve(struct gguf_doc *d, const struct wplan *p, struct wsink *s,
    struct gbuf *tmp, struct gguf_err *err)
{
	gbuf_u64(tmp, RES_KEYLEN, d->be);
	gbuf_put(tmp, GGUF_RESERVED_KEY, RES_KEYLEN);
	gbuf_u32(tmp, GGUF_VT_ARR, d->be);
	gbuf_u32(tmp, GGUF_VT_U8, d->be);
	gbuf_u64(tmp, p->res_n, d->be);
	if (sink_enc(s, tmp, err) != 0)
		return -1;
	return sink_zeros(s, p->res_n, err);
}

static int
write_ti(struct gguf_doc *d, const struct wplan *p, uint64_t i,
    struct wsink *s, struct gbuf *tmp, struct gguf_err *err)
{
	const struct gguf_tensor	*t = gguf_tensor_at(d->f, i);
	struct gguf_str			 name;
	uint32_t			 k;

	if (ti_raw(d, p, i))
		return gguf_sink_put(s,
		    gguf_file_header(gguf_tensor_file(d->f, t)) +
		    t->off,
		    t->end - t->off, err);
	name = gguf_doc_tensor_name(d, i);
	gbuf_u64(tmp, name.n, d->be);
	gbuf_put(tmp, name.p, name.n);
	gbuf_u32(tmp, t->n_dims, d->be);
	for (k = 0; k < t->n_dims; k++)
		gbuf_u64(tmp, t->ne[k], d->be);
	gbuf_u32(tmp, gguf_doc_tensor_type(d, i), d->be);
	gbuf_u64(tmp, p->off[i], d->be);
	return sink_enc(s, tmp, err);
}

int
gguf_write_header(struct gguf_doc *d, const struct wplan *p, struct wsink *s,
    struct gguf_err *err)
{
	struct gbuf	tmp;
	uint64_t	i;
	int		rc = -1;

	memset(&tmp, 0, sizeof tmp);
	gbuf_put(&tmp, GGUF_MAGIC, 4);
	gbuf_u32(&tmp, 3, d->be);
	gbuf_u64(&tmp, p->n_tensors, d->be);
	gbuf_u64(&tmp, p->n_kv, d->be);
	if (sink_enc(s, &tmp, err) != 0)
		goto out;
	for (i = 0; i < d->n_kv; i++) {
		if (d->kv[i].removed)
			continue;
		if ((int64_t)i == p->res_kv) {
			if (!p->res_drop &&
			    write_reserve(d, p, s, &tmp, err) != 0)
				goto out;
			continue;
		}
		if (write_kv(d, i, s, &tmp, err) != 0)
			goto out;
	}
	if (p->res_new && write_reserve(d, p, s, &tmp, err) != 0)
		goto out;
	for (i = 0; i < d->n_ten; i++) {
		if (!d->ten[i].removed && write_ti(d, p, i, s, &tmp, err) != 0)
			goto out;
	}
	if (s->pos != p->hdr_end) {
		gguf_errf(err, -1, "internal error: header of %llu bytes, "
		    "planned %llu", (unsigned long long)s->pos,
		    (unsigned long long)p->hdr_end);
		goto out;
	}
	if (sink_zeros(s, p->data_off - p->hdr_end, err) != 0 ||
	    gguf_sink_flush(s, err) != 0)
		goto out;
	rc = 0;
out:
	gbuf_free(&tmp);
	return rc;
}

/* ------------------------------------------------------------------- data */

struct copier {
	struct gguf_source *src;	/* the file the data is read from */
	int		 in;		/* its descriptor, or -1 */
	int		 out;
	int		 no_cfr;	/* copy_file_range unusable here */
	int		 no_holes;	/* SEEK_DATA unusable here */
	uint64_t	 wb_from;	/* output not yet sent to writeback */
	uint64_t	 wb_to;
	uint8_t		*buf;
};

/*
 * Output [ooff, ooff + n) was just written: once a stretch of WRITEBACK
 * bytes has piled up, ask the kernel to start writing it out. Advisory:
 * errors are left to the fsync that ends every save.
 */
static void
writeback(struct copier *c, uint64_t ooff, uint64_t n)
{
#ifdef HAVE_SYNC_FILE_RANGE
	if (ooff != c->wb_to) {			/* a hole or a jump */
		c->wb_from = ooff;
		c->wb_to = ooff;
	}
	c->wb_to += n;
	if (c->wb_to - c->wb_from < WRITEBACK)
		return;
	(void)sync_file_range(c->out, (off_t)c->wb_from,
	    (off_t)(c->wb_to - c->wb_from), SYNC_FILE_RANGE_WRITE);
	c->wb_from = c->wb_to;
#else
	(void)c;
	(void)ooff;
	(void)n;
#endif
}

static int
copy_chunk(struct copier *c, uint64_t ioff, uint64_t ooff, uint64_t len,
    uint64_t *done, struct gguf_err *err)
{
	ssize_t	r, w;
	size_t	k;

#ifdef HAVE_COPY_FILE_RANGE
	if (!c->no_cfr) {
		off_t	a = (off_t)ioff, b = (off_t)ooff;

		r = gguf_io_copy_file_range(c->in, &a, c->out, &b,
		    (size_t)len);
		if (r > 0) {
			*done = (uint64_t)r;
			return 0;
		}
		if (r == 0)
			return gguf_errf(err, -1, "the source ends before its "
			    "tensor data (was it truncated?)");
		if (errno == EINTR) {
			*done = 0;
			return 0;
		}
		if (errno != EXDEV && errno != ENOSYS && errno != EOPNOTSUPP &&
		    errno != EINVAL && errno != EPERM)
			return gguf_errf(err, -1, "copying tensor data: %s",
			    strerror(errno));
		c->no_cfr = 1;
	}
#endif
	if (c->buf == NULL)
		c->buf = xmalloc(COPY_BUF);
	k = len < COPY_BUF ? (size_t)len : COPY_BUF;
	r = gguf_io_pread(c->in, c->buf, k, (off_t)ioff);
	if (r < 0 && errno == EINTR) {
		*done = 0;
		return 0;
	}
	if (r < 0)
		return gguf_errf(err, -1, "reading tensor data: %s",
		    strerror(errno));
	if (r == 0)
		return gguf_errf(err, -1, "the source ends before its tensor "
		    "data (was it truncated?)");
	for (k = 0; k < (size_t)r; k += (size_t)w) {
		w = gguf_io_pwrite(c->out, c->buf + k, (size_t)r - k,
		    (off_t)(ooff + k));
		if (w < 0 && errno == EINTR) {
			w = 0;
			continue;
		}
		if (w <= 0)
			return gguf_errf(err, -1, "write: %s", w < 0 ?
			    strerror(errno) : "no progress");
	}
	*done = (uint64_t)r;
	return 0;
}

/*
 * Bytes from ioff that are a hole in the source (read as zeros, nothing
 * allocated), at most len; 0 if ioff is in data or holes are not
 * reported. The output is a new file, zero wherever nothing is written,
 * so a hole is skipped there too and stays a hole.
 */
static uint64_t
hole_at(struct copier *c, uint64_t ioff, uint64_t len)
{
#ifdef SEEK_DATA
	off_t	data;

	if (c->no_holes)
		return 0;
	data = lseek(c->in, (off_t)ioff, SEEK_DATA);
	if (data < 0) {
		if (errno == ENXIO)		/* a hole up to the end */
			return len;
		c->no_holes = 1;
		return 0;
	}
	if ((uint64_t)data <= ioff)
		return 0;
	return (uint64_t)data - ioff < len ? (uint64_t)data - ioff : len;
#else
	(void)c;
	(void)ioff;
	(void)len;
	return 0;
#endif
}

/* Bytes of data from ioff before the next hole, at most len. */
static uint64_t
data_at(struct copier *c, uint64_t ioff, uint64_t len)
{
#ifdef SEEK_HOLE
	off_t	hole;

	if (c->no_holes)
		return len;
	hole = lseek(c->in, (off_t)ioff, SEEK_HOLE);
	if (hole < 0 || (uint64_t)hole <= ioff)
		return len;
	return (uint64_t)hole - ioff < len ? (uint64_t)hole - ioff : len;
#else
	(void)c;
	(void)ioff;
	return len;
#endif
}

/* The progress of a copy by the source itself, as the sink's. */
struct rcopy {
	struct wsink	*s;
	uint64_t	 pos0;		/* s->pos when the copy began */
	struct gguf_err	*err;
	int		 stopped;	/* sink_progress said stop (err set) */
};

static int
rcopy_progress(void *arg, uint64_t done, uint64_t total)
{
	struct rcopy	*r = arg;

	(void)total;
	r->s->pos = r->pos0 + done;
	if (sink_progress(r->s, r->err) != 0) {
		r->stopped = 1;
		return 1;
	}
	return 0;
}

/*
 * Points c at the file f's source. A source with a descriptor (a local
 * file) is read through it with the system's own copy and its holes
 * kept; fd stands in for a file without a source of its own (a set's
 * first shard is read through d's descriptor).
 */
static void
copier_from(struct copier *c, const struct gguf_file *f, int fd)
{
	c->src = gguf_file_source(f);
	c->in = c->src != NULL ? gguf_source_fd(c->src) : fd;
}

static int
copy_range(struct copier *c, uint64_t ioff, uint64_t ooff, uint64_t len,
    struct wsink *s, struct gguf_err *err)
{
	uint64_t	done = 0, k;

	if (c->in < 0 && c->src != NULL) {
		/* a source without a descriptor (a server): streamed by it
		   in order, never kept */
		struct rcopy		r = { s, s->pos, err, 0 };
		struct gguf_srcerr	e;

		memset(&e, 0, sizeof e);
		if (gguf_source_copy(c->src, ioff, len, c->out, ooff,
		    rcopy_progress, &r, &e) != 0) {
			if (!r.stopped)
				gguf_errf(err, e.has_off ? (int64_t)e.off : -1,
				    "%s", e.msg);
			return -1;
		}
		writeback(c, ooff, len);
		s->pos = r.pos0 + len;
		return 0;
	}
	while (len > 0) {
		if ((k = hole_at(c, ioff, len)) > 0) {
			ioff += k;
			ooff += k;
			len -= k;
			s->pos += k;
			if (sink_progress(s, err) != 0)
				return -1;
			continue;
		}
		k = len < COPY_CHUNK ? len : COPY_CHUNK;
		k = data_at(c, ioff, k);
		if (copy_chunk(c, ioff, ooff, k, &done, err) != 0)
			return -1;
		writeback(c, ooff, done);
		ioff += done;
		ooff += done;
		len -= done;
		s->pos += done;
		if (done > 0 && sink_progress(s, err) != 0)
			return -1;
	}
	return 0;
}

static int
pwrite_zeros(int fd, uint64_t off, uint64_t n, struct gguf_err *err)
{
	static const uint8_t	z[4096];
	ssize_t			w;

	while (n > 0) {
		w = gguf_io_pwrite(fd, z, n < sizeof z ? (size_t)n : sizeof z,
		    (off_t)off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return gguf_errf(err, -1, "write: %s", w < 0 ?
			    strerror(errno) : "no progress");
		off += (uint64_t)w;
		n -= (uint64_t)w;
	}
	return 0;
}

/*
 * Writes the float32 values of source tensor t at ooff in the document's
 * byte order, decoding CONV_CHUNK values at a time: whole rows when a
 * row is short, else stretches of one row.
 */
static int
write_f32(struct gguf_doc *d, const struct gguf_tensor *t, int fd,
    uint64_t ooff, struct copier *c, struct wsink *s, struct gguf_err *err)
{
	uint64_t	 ne0 = t->ne[0], nrows = gguf_tensor_nrows(t);
	uint64_t	 r, col, nr, nc, rstep, cstep, k, n;
	uint32_t	 bits;
	uint8_t		*p;
	float		*v;
	ssize_t		 w;
	int		 rc = -1;

	if (ne0 == 0 || nrows == 0)
		return 0;
	rstep = ne0 <= CONV_CHUNK ? CONV_CHUNK / ne0 : 1;
	cstep = ne0 <= CONV_CHUNK ? ne0 : CONV_CHUNK;
	v = xreallocarray(NULL, (size_t)(rstep * cstep), sizeof *v);
	for (r = 0; r < nrows; r += nr) {
		nr = nrows - r < rstep ? nrows - r : rstep;
		for (col = 0; col < ne0; col += nc) {
			nc = ne0 - col < cstep ? ne0 - col : cstep;
			if (gguf_dequant_rows(d->f, t, r, nr, col, nc, v,
			    err) != 0)
				goto out;
			/* In place: each value's bytes replace its bits. */
			n = nr * nc;
			p = (uint8_t *)v;
			for (k = 0; k < n; k++) {
				memcpy(&bits, p + 4 * k, 4);
				gguf_st32(p + 4 * k, bits, d->be);
			}
			for (k = 0; k < 4 * n; k += (uint64_t)w) {
				w = gguf_io_pwrite(fd, p + k, (size_t)(4 * n - k),
				    (off_t)(ooff + k));
				if (w < 0 && errno == EINTR) {
					w = 0;
					continue;
				}
				if (w <= 0) {
					gguf_errf(err, -1, "write: %s", w < 0 ?
					    strerror(errno) : "no progress");
					goto out;
				}
			}
			writeback(c, ooff, 4 * n);
			ooff += 4 * n;
			s->pos += 4 * n;
			if (sink_progress(s, err) != 0)
				goto out;
		}
	}
	rc = 0;
out:
	free(v);
	return rc;
}

int
gguf_write_data(struct gguf_doc *d, const struct wplan *p, int fd,
    struct wsink *s, struct gguf_err *err)
{
	const struct gguf_layout	*lay = gguf_layout(d->f);
	const struct gguf_tensor	*t;
	const struct gguf_file		*src;
	struct copier			 c;
	uint64_t			 i, end, pend;
	int				 rc = -1;

	memset(&c, 0, sizeof c);
	copier_from(&c, d->f, d->fd);
	c.out = fd;
	if (!p->relayout) {
		rc = copy_range(&c, lay->data_off, p->data_off, p->data_len, s,
		    err);
		goto out;
	}
	for (i = 0; i < d->n_ten; i++) {
		if (d->ten[i].removed)
			continue;
		t = gguf_tensor_at(d->f, i);
		src = gguf_tensor_file(d->f, t);
		if (src != d->f)	/* a shard of a set */
			copier_from(&c, src, -1);
		if (d->ten[i].f32) {
			if (write_f32(d, t, fd, p->data_off + p->off[i], &c, s,
			    err) != 0)
				goto out;
		} else if (copy_range(&c, gguf_layout(src)->data_off + t->offset,
		    p->data_off + p->off[i], t->nbytes, s, err) != 0)
			goto out;
		end = p->off[i] + gguf_doc_tensor_nbytes(d, i);
		if (gguf_align_ok(end, p->align, &pend) != 0)
			goto out;
		if (pwrite_zeros(fd, p->data_off + end, pend - end, err) != 0)
			goto out;
		s->pos += pend - end;
	}
	rc = 0;
out:
	/* A hole at the end is skipped: the size must still be right. */
	if (rc == 0 && ftruncate(fd, (off_t)p->file_size) != 0)
		rc = gguf_errf(err, -1, "setting the file size: %s",
		    strerror(errno));
	free(c.buf);
	return rc;
}
