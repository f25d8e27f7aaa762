/*
 * encode.c - owned values: building them, and re-encoding any value in v3
 * widths and a chosen byte order.
 *
 * An edited value is stored exactly as the file stores a value: the bytes
 * after the type tag, with 64-bit string lengths and array counts, in the
 * byte order of the document. Its struct gguf_val view is the same kind
 * the reader hands out, so gguf_val_u64, gguf_val_str, gguf_arr_get and
 * the rest work on file-backed and edited values alike, and the writer
 * copies an edited payload as it copies an unchanged one.
 *
 * Re-encoding walks a value with the same bounded cursor the reader uses,
 * so malformed nested data fails with a message instead of being trusted:
 * it is how a v1 value (32-bit lengths) becomes v3, and how a value built
 * little-endian is put into a big-endian document.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "docint.h"

/* ------------------------------------------------------------ byte buffer */

static void
gbuf_grow(struct gbuf *b, uint64_t n)
{
	uint64_t	cap;

	if (b->cap - b->n >= n)
		return;
	cap = b->cap == 0 ? 256 : b->cap;
	while (cap - b->n < n)
		cap *= 2;
	b->p = xreallocarray(b->p, (size_t)cap, 1);
	b->cap = cap;
}

void
gbuf_put(struct gbuf *b, const void *p, uint64_t n)
{
	if (n == 0)
		return;
	gbuf_grow(b, n);
	memcpy(b->p + b->n, p, (size_t)n);
	b->n += n;
}

void
gbuf_zeros(struct gbuf *b, uint64_t n)
{
	if (n == 0)
		return;
	gbuf_grow(b, n);
	memset(b->p + b->n, 0, (size_t)n);
	b->n += n;
}

void
gbuf_bits(struct gbuf *b, uint64_t bits, unsigned size, int be)
{
	uint8_t		tmp[8];
	unsigned	i;

	for (i = 0; i < size; i++)
		tmp[be ? size - 1 - i : i] = (uint8_t)(bits >> (8 * i));
	gbuf_put(b, tmp, size);
}

void
gbuf_u32(struct gbuf *b, uint32_t v, int be)
{
	gbuf_bits(b, v, 4, be);
}

void
gbuf_u64(struct gbuf *b, uint64_t v, int be)
{
	gbuf_bits(b, v, 8, be);
}

void
gbuf_free(struct gbuf *b)
{
	free(b->p);
	memset(b, 0, sizeof *b);
}

/* ------------------------------------------------------------- re-encoding */

static int
enc_cur(struct gbuf *b, struct gguf_cur *c, uint32_t vt, unsigned depth,
    int be, struct gguf_err *err)
{
	struct gguf_val	 v;
	uint64_t	 i;
	unsigned	 esz;

	if (gguf_cur_value(c, vt, depth, &v, err) != 0)
		return -1;
	esz = gguf_vtype_size(vt);
	if (esz != 0) {
		gbuf_bits(b, gguf_val_bits(&v), esz, be);
		return 0;
	}
	if (vt == GGUF_VT_STR) {
		struct gguf_str	s;

		gguf_val_str(&v, &s);
		gbuf_u64(b, s.n, be);
		gbuf_put(b, s.p, s.n);
		return 0;
	}
	/* An array: walk its elements again from the start of its payload. */
	c->pos = v.off + 4 + c->lw;
	gbuf_u32(b, v.atype, be);
	gbuf_u64(b, v.count, be);
	for (i = 0; i < v.count; i++) {
		if (enc_cur(b, c, v.atype, depth + 1, be, err) != 0)
			return -1;
	}
	return 0;
}

int
gguf_enc_payload(struct gbuf *b, struct gguf_val *v, int be,
    struct gguf_err *err)
{
	struct gguf_cur	c;

	/* Same widths and order: the bytes are already right. */
	if (v->lw == 8 && (v->be != 0) == (be != 0)) {
		gbuf_put(b, v->p, v->n);
		return 0;
	}
	memset(&c, 0, sizeof c);
	c.base = v->p;
	c.size = v->n;
	c.be = v->be;
	c.lw = v->lw;
	return enc_cur(b, &c, v->type, 0, be, err);
}

static int
size_cur(struct gguf_cur *c, uint32_t vt, unsigned depth, uint64_t *size,
    struct gguf_err *err)
{
	struct gguf_val	 v;
	uint64_t	 i, sub;

	if (gguf_cur_value(c, vt, depth, &v, err) != 0)
		return -1;
	if (vt != GGUF_VT_ARR) {
		*size = v.n + (vt == GGUF_VT_STR ? 8 - c->lw : 0);
		return 0;
	}
	*size = 4 + 8;
	if (gguf_vtype_size(v.atype) != 0) {
		*size += v.n - 4 - c->lw;
		return 0;
	}
	c->pos = v.off + 4 + c->lw;
	for (i = 0; i < v.count; i++) {
		if (size_cur(c, v.atype, depth + 1, &sub, err) != 0)
			return -1;
		*size += sub;
	}
	return 0;
}

int
gguf_enc_size(struct gguf_val *v, uint64_t *size, struct gguf_err *err)
{
	struct gguf_cur	c;

	if (v->lw == 8) {
		*size = v->n;
		return 0;
	}
	memset(&c, 0, sizeof c);
	c.base = v->p;
	c.size = v->n;
	c.be = v->be;
	c.lw = v->lw;
	return size_cur(&c, v->type, 0, size, err);
}

/* ----------------------------------------------------------- owned values */

struct gguf_value *
gguf_value_wrap(struct gbuf *b, uint32_t type, int be, struct gguf_err *err)
{
	struct gguf_value	*v;
	struct gguf_cur		 c;

	v = xcalloc(1, sizeof *v);
	v->refs = 1;
	v->p = b->p;
	v->n = b->n;
	memset(b, 0, sizeof *b);

	/* Describe it by reading it back: the view is then what a file gives. */
	memset(&c, 0, sizeof c);
	c.base = v->p != NULL ? v->p : (const uint8_t *)"";
	c.size = v->n;
	c.be = be;
	c.lw = 8;
	if (gguf_cur_value(&c, type, 0, &v->val, err) != 0 || c.pos != v->n) {
		if (c.pos != v->n)
			gguf_errf(err, -1, "value has %llu stray bytes",
			    (unsigned long long)(v->n - c.pos));
		free(v->p);
		free(v);
		return NULL;
	}
	v->val.off = 0;
	return v;
}

struct gguf_value *
gguf_value_ref(struct gguf_value *v)
{
	if (v != NULL)
		v->refs++;
	return v;
}

void
gguf_value_unref(struct gguf_value *v)
{
	if (v == NULL || --v->refs > 0)
		return;
	gguf_arrix_free(v->val.ix);
	free(v->p);
	free(v);
}

struct gguf_val *
gguf_value_val(struct gguf_value *v)
{
	return &v->val;
}

struct gguf_value *
gguf_value_encode(struct gguf_val *src, int be, struct gguf_err *err)
{
	struct gbuf	b;

	memset(&b, 0, sizeof b);
	if (gguf_enc_payload(&b, src, be, err) != 0) {
		gbuf_free(&b);
		return NULL;
	}
	return gguf_value_wrap(&b, src->type, be, err);
}

/* ---------------------------------------------------------------- builder */

void
gguf_vb_init(struct gguf_vbuild *vb, uint32_t type, uint32_t atype)
{
	struct gbuf	b;

	memset(vb, 0, sizeof *vb);
	memset(&b, 0, sizeof b);
	vb->type = type;
	vb->atype = atype;
	if (type == GGUF_VT_ARR) {
		gbuf_u32(&b, atype, 0);
		gbuf_u64(&b, 0, 0);		/* the count, patched at finish */
	}
	vb->p = b.p;
	vb->n = b.n;
	vb->cap = b.cap;
}

static uint32_t
vb_item_type(const struct gguf_vbuild *vb)
{
	return vb->type == GGUF_VT_ARR ? vb->atype : vb->type;
}

static void
vb_take(struct gguf_vbuild *vb, struct gbuf *b)
{
	b->p = vb->p;
	b->n = vb->n;
	b->cap = vb->cap;
}

static void
vb_give(struct gguf_vbuild *vb, struct gbuf *b)
{
	vb->p = b->p;
	vb->n = b->n;
	vb->cap = b->cap;
	vb->count++;
}

void
gguf_vb_bits(struct gguf_vbuild *vb, uint64_t bits)
{
	struct gbuf	b;

	vb_take(vb, &b);
	gbuf_bits(&b, bits, gguf_vtype_size(vb_item_type(vb)), 0);
	vb_give(vb, &b);
}

void
gguf_vb_str(struct gguf_vbuild *vb, const void *p, uint64_t n)
{
	struct gbuf	b;

	vb_take(vb, &b);
	gbuf_u64(&b, n, 0);
	gbuf_put(&b, p, n);
	vb_give(vb, &b);
}

int
gguf_vb_val(struct gguf_vbuild *vb, struct gguf_val *v, struct gguf_err *err)
{
	struct gbuf	b;
	uint64_t	n0 = vb->n;

	if (v->type != vb_item_type(vb))
		return gguf_errf(err, -1, "a %s cannot go where a %s is "
		    "expected", gguf_vtype_name(v->type),
		    gguf_vtype_name(vb_item_type(vb)));
	vb_take(vb, &b);
	if (gguf_enc_payload(&b, v, 0, err) != 0) {
		b.n = n0;
		vb->p = b.p;
		vb->cap = b.cap;
		return -1;
	}
	vb_give(vb, &b);
	return 0;
}

struct gguf_value *
gguf_vb_finish(struct gguf_vbuild *vb)
{
	struct gguf_err		 err;
	struct gbuf		 b;
	uint32_t		 type = vb->type;

	if (type != GGUF_VT_ARR && vb->count != 1) {
		gguf_vb_free(vb);
		return NULL;
	}
	if (type == GGUF_VT_ARR)
		gguf_st64(vb->p + 4, vb->count, 0);
	vb_take(vb, &b);
	memset(vb, 0, sizeof *vb);
	return gguf_value_wrap(&b, type, 0, &err);
}

void
gguf_vb_free(struct gguf_vbuild *vb)
{
	free(vb->p);
	memset(vb, 0, sizeof *vb);
}
