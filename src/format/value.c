/*
 * value.c - reading scalars out of value views, and lazy array access.
 *
 * Arrays of fixed-size elements are addressed directly. Arrays of strings
 * (or of arrays) cannot be: each element's size is in its own length field.
 * On the first access to such an array an index of checkpoints is built,
 * one offset every GGUF_ARRIX_STRIDE elements, in one walk; element i is
 * then found by walking at most STRIDE-1 elements from its checkpoint. A
 * 150,000-string vocabulary costs one walk and 37 KB of index, once.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "gguf.h"
#include "internal.h"

#define GGUF_ARRIX_STRIDE	32

struct gguf_arrix {
	uint64_t	 n;		/* checkpoints */
	uint64_t	*pos;		/* payload offset of element k*STRIDE */
	uint64_t	 last_i;	/* the element asked for last ... */
	uint64_t	 last_pos;	/* ... and its payload offset */
};

/* ----------------------------------------------------------------- scalars */

uint64_t
gguf_val_bits(const struct gguf_val *v)
{
	switch (gguf_vtype_size(v->type)) {
	case 1:
		return v->p[0];
	case 2:
		return gguf_ld16(v->p, v->be);
	case 4:
		return gguf_ld32(v->p, v->be);
	case 8:
		return gguf_ld64(v->p, v->be);
	}
	return 0;
}

int
gguf_val_i64(const struct gguf_val *v, int64_t *out)
{
	uint64_t	b = gguf_val_bits(v);

	switch (v->type) {
	case GGUF_VT_U8: case GGUF_VT_U16: case GGUF_VT_U32: case GGUF_VT_BOOL:
		*out = (int64_t)b;
		return 0;
	case GGUF_VT_U64:
		if (b > INT64_MAX)
			return -1;
		*out = (int64_t)b;
		return 0;
	case GGUF_VT_I8:
		*out = (int8_t)b;
		return 0;
	case GGUF_VT_I16:
		*out = (int16_t)b;
		return 0;
	case GGUF_VT_I32:
		*out = (int32_t)b;
		return 0;
	case GGUF_VT_I64:
		*out = (int64_t)b;
		return 0;
	}
	return -1;
}

int
gguf_val_u64(const struct gguf_val *v, uint64_t *out)
{
	int64_t	i;

	if (v->type == GGUF_VT_U64) {
		*out = gguf_val_bits(v);
		return 0;
	}
	if (gguf_val_i64(v, &i) != 0 || i < 0)
		return -1;
	*out = (uint64_t)i;
	return 0;
}

int
gguf_val_f64(const struct gguf_val *v, double *out)
{
	uint64_t	b = gguf_val_bits(v);
	uint32_t	b32;
	float		f;
	int64_t		i;

	switch (v->type) {
	case GGUF_VT_F32:
		b32 = (uint32_t)b;
		memcpy(&f, &b32, 4);
		*out = f;
		return 0;
	case GGUF_VT_F64:
		memcpy(out, &b, 8);
		return 0;
	case GGUF_VT_U64:
		*out = (double)b;
		return 0;
	}
	if (gguf_val_i64(v, &i) != 0)
		return -1;
	*out = (double)i;
	return 0;
}

int
gguf_val_str(const struct gguf_val *v, struct gguf_str *out)
{
	if (v->type != GGUF_VT_STR)
		return -1;
	out->n = v->lw == 8 ? gguf_ld64(v->p, v->be) : gguf_ld32(v->p, v->be);
	out->p = (const char *)v->p + v->lw;
	return 0;
}

/* ------------------------------------------------------------------ arrays */

/* Offset within the payload of the first element. */
static uint64_t
arr_head(const struct gguf_val *arr)
{
	return 4 + (uint64_t)arr->lw;
}

/* A cursor over the array's payload, positioned at payload offset pos. */
static void
arr_cursor(const struct gguf_val *arr, uint64_t pos, struct gguf_cur *c)
{
	memset(c, 0, sizeof *c);	/* no descriptor (rd): base is memory */
	c->base = arr->p;
	c->size = arr->n;
	c->pos = pos;
	c->be = arr->be;
	c->lw = arr->lw;
	c->full = 0;
	c->want = 0;
}

static int
arr_step(struct gguf_cur *c, const struct gguf_val *arr, struct gguf_val *elem,
    struct gguf_err *err)
{
	if (gguf_cur_value(c, arr->atype, 1, elem, err) != 0)
		return -1;
	elem->off += arr->off;		/* payload-relative to file offset */
	return 0;
}

/*
 * The string of a string array's payload at *pos: its bytes at *p, *n of
 * them, and *pos past it; -1 where its length or bytes run past the
 * payload. gguf_cur_str does the same through a cursor, with the
 * reader's messages: in the walks below it cost 9M more instructions of
 * 55M setting a chat template in place on a 2.4 MB vocabulary.
 */
static int
str_next(const struct gguf_val *arr, uint64_t *pos, const char **p,
    uint64_t *n)
{
	uint64_t	at = *pos, len;

	if (arr->n - at < arr->lw)
		return -1;
	len = arr->lw == 8 ? gguf_ld64(arr->p + at, arr->be) :
	    gguf_ld32(arr->p + at, arr->be);
	at += arr->lw;
	if (len > arr->n - at)
		return -1;
	*p = (const char *)arr->p + at;
	*n = len;
	*pos = at + len;
	return 0;
}

int
gguf_arr_strings(const struct gguf_val *arr,
    int (*fn)(void *arg, uint64_t i, const char *p, uint64_t n), void *arg,
    struct gguf_err *err)
{
	const char	*p;
	uint64_t	 i, n, pos = arr_head(arr);
	int		 rc;

	if (arr->type != GGUF_VT_ARR || arr->atype != GGUF_VT_STR)
		return gguf_errf(err, -1, "value is not an array of strings");
	if (arr->n < pos)
		return gguf_errf(err, (int64_t)arr->off, "array payload of "
		    "%llu bytes has no room for its count",
		    (unsigned long long)arr->n);
	for (i = 0; i < arr->count; i++) {
		if (str_next(arr, &pos, &p, &n) != 0)
			return gguf_errf(err, (int64_t)(arr->off + pos),
			    "string %llu of the array runs past its end",
			    (unsigned long long)i);
		if ((rc = fn(arg, i, p, n)) != 0)
			return rc;
	}
	return 0;
}

static int
arr_index(struct gguf_val *arr, struct gguf_err *err)
{
	struct gguf_arrix	*ix;
	struct gguf_cur		 c;
	struct gguf_val		 e;
	const char		*sp;
	uint64_t		 i, sn;

	ix = xcalloc(1, sizeof *ix);
	ix->n = (arr->count + GGUF_ARRIX_STRIDE - 1) / GGUF_ARRIX_STRIDE;
	ix->pos = xcalloc(ix->n, sizeof *ix->pos);
	arr_cursor(arr, arr_head(arr), &c);
	for (i = 0; i < arr->count; i++) {
		if (i % GGUF_ARRIX_STRIDE == 0)
			ix->pos[i / GGUF_ARRIX_STRIDE] = c.pos;
		/* a string: its length is all the walk needs */
		if (arr->atype == GGUF_VT_STR &&
		    str_next(arr, &c.pos, &sp, &sn) == 0)
			continue;
		if (arr_step(&c, arr, &e, err) != 0) {
			gguf_arrix_free(ix);
			return -1;
		}
	}
	arr->ix = ix;
	return 0;
}

int
gguf_arr_get(struct gguf_val *arr, uint64_t i, struct gguf_val *elem,
    struct gguf_err *err)
{
	struct gguf_cur	c;
	unsigned	esize;
	uint64_t	k;

	if (arr->type != GGUF_VT_ARR)
		return gguf_errf(err, -1, "value is not an array");
	if (i >= arr->count)
		return gguf_errf(err, -1, "index %llu out of range (array of "
		    "%llu)", (unsigned long long)i,
		    (unsigned long long)arr->count);
	esize = gguf_vtype_size(arr->atype);
	if (esize != 0) {
		memset(elem, 0, sizeof *elem);
		elem->type = arr->atype;
		elem->be = arr->be;
		elem->lw = arr->lw;
		elem->p = arr->p + arr_head(arr) + i * esize;
		elem->n = esize;
		elem->off = arr->off + arr_head(arr) + i * esize;
		return 0;
	}
	if (arr->ix == NULL && arr_index(arr, err) != 0)
		return -1;
	/*
	 * Walk from the checkpoint at or before i, or from the element asked
	 * for last when that is nearer: a front-to-back scan (a search, a
	 * dump) then costs one step per element.
	 */
	k = i - i % GGUF_ARRIX_STRIDE;
	arr_cursor(arr, arr->ix->pos[i / GGUF_ARRIX_STRIDE], &c);
	if (arr->ix->last_i <= i && arr->ix->last_i > k) {
		k = arr->ix->last_i;
		c.pos = arr->ix->last_pos;
	}
	for (; k <= i; k++) {
		arr->ix->last_i = k;
		arr->ix->last_pos = c.pos;
		if (arr_step(&c, arr, elem, err) != 0)
			return -1;
	}
	return 0;
}

void
gguf_arrix_free(struct gguf_arrix *ix)
{
	if (ix == NULL)
		return;
	free(ix->pos);
	free(ix);
}
