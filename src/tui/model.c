/*
 * model.c - what the views read, and how values become text.
 *
 * The views never walk the gguf_file themselves: they ask the document
 * (doc.h: the file plus the pending edits) for KV entry i, tensor i,
 * element i of an array, so what they show is the file as it will be
 * saved, with each entry's GGUF_ED_* flags to mark what was edited.
 * Removed entries stay in the document as tombstones until a save; the
 * views show them struck out. Tensor infos (type, shape, data) are the
 * source file's: edits only rename or drop tensors.
 *
 * Value text follows the command line's conventions (ggufed get/dump):
 * f32 as %.9g, f64 as %.17g, integers in decimal, bools as true/false,
 * strings quoted and escaped. An array is summarised by its length and
 * element type, then as many elements as fit in the space given, so the
 * cost is bounded by the width of the screen, not the length of the array.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui.h"

uint64_t
mdl_n_kv(struct app *a)
{
	return gguf_doc_n_kv(app_doc(a));
}

int
mdl_kv(struct app *a, uint64_t i, struct gguf_doc_kv *out)
{
	return gguf_doc_kv(app_doc(a), i, out);
}

struct gguf_val *
mdl_get(struct app *a, const char *key)
{
	return gguf_doc_get(app_doc(a), key, strlen(key));
}

uint64_t
mdl_n_tensors(struct app *a)
{
	return gguf_doc_n_tensors(app_doc(a));
}

const struct gguf_tensor *
mdl_tensor(struct app *a, uint64_t i)
{
	return gguf_tensor_at(app_file(a), i);
}

struct gguf_str
mdl_tensor_name(struct app *a, uint64_t i, unsigned *flags)
{
	struct gguf_doc_tensor	dt;
	struct gguf_str		none = { "", 0 };

	if (gguf_doc_tensor(app_doc(a), i, &dt) != 0) {
		*flags = 0;
		return none;
	}
	*flags = dt.flags;
	return dt.name;
}

uint32_t
mdl_tensor_type(struct app *a, uint64_t i, uint64_t *nbytes)
{
	struct gguf_doc_tensor	dt;

	if (gguf_doc_tensor(app_doc(a), i, &dt) != 0) {
		*nbytes = 0;
		return GGUF_T_F32;
	}
	*nbytes = dt.nbytes;
	return dt.type;
}

unsigned
mdl_n_changes(struct app *a)
{
	struct gguf_change	*ch;
	size_t			 n;

	n = gguf_doc_diff(app_doc(a), &ch);
	free(ch);
	return (unsigned)n;
}

int
mdl_arr_get(struct gguf_val *arr, uint64_t i, struct gguf_val *out)
{
	struct gguf_err	err;

	return gguf_arr_get(arr, i, out, &err);
}

/* One element or scalar; strings quoted. */
static void
value_one(struct dline *dl, struct gguf_val *v, int lim)
{
	struct gguf_str	s;
	char		buf[64];

	if (v->type == GGUF_VT_STR) {
		gguf_val_str(v, &s);
		dl_text(dl, S_STRING, s.p, (size_t)s.n, 0, lim, DT_QUOTE);
	} else if (v->type == GGUF_VT_ARR) {
		gguf_vtype_text(v->type, v->atype, buf, sizeof buf);
		dl_text(dl, S_TYPE, buf, strlen(buf), 0, lim, 0);
	} else {
		gguf_val_scalar_text(v, buf, sizeof buf);
		dl_text(dl, S_NUMBER, buf, strlen(buf), 0, lim, 0);
	}
}

/* Width of value_one's rendering, counting no further than max. */
static int
value_width(struct gguf_val *v, int max)
{
	struct gguf_str	s;
	char		buf[64];

	if (v->type == GGUF_VT_STR) {
		gguf_val_str(v, &s);
		return text_width(s.p, (size_t)s.n, DT_QUOTE, max);
	}
	if (v->type == GGUF_VT_ARR)
		gguf_vtype_text(v->type, v->atype, buf, sizeof buf);
	else
		gguf_val_scalar_text(v, buf, sizeof buf);
	return (int)strlen(buf);
}

void
mdl_value(struct dline *dl, struct gguf_val *v, int lim)
{
	struct gguf_val	e;
	uint64_t	i;
	char		head[64], g[32];
	const char	*tn;
	int		end = dl->cols + lim, room, sep, ew, more;

	if (v->type != GGUF_VT_ARR) {
		value_one(dl, v, lim);
		return;
	}
	tn = v->atype == GGUF_VT_ARR ? "arr" : gguf_vtype_name(v->atype);
	snprintf(head, sizeof head, "[%s %s %s]",
	    gguf_fmt_group(v->count, g, sizeof g),
	    tui_utf8 ? "\xc3\x97" : "x",
	    tn != NULL ? tn : "?");
	dl_text(dl, S_TYPE, head, strlen(head), 0, lim, 0);
	/*
	 * Whole elements while they fit, keeping room for ", ..." when more
	 * follow; the first element may be cut. At most 256 however wide.
	 */
	for (i = 0; i < v->count && i < 256; i++) {
		room = end - dl->cols;
		sep = i == 0 ? 1 : 2;
		more = i + 1 < v->count ? 3 : 0;
		if (mdl_arr_get(v, i, &e) != 0) {
			if (room >= sep + 1) {
				dl_puts(dl, S_NORMAL, i == 0 ? " " : ", ");
				dl_puts(dl, S_ERROR, "?");
			}
			return;
		}
		ew = value_width(&e, room);
		if (sep + ew + more > room) {
			if (i == 0 && room >= sep + 4 + more) {
				dl_puts(dl, S_NORMAL, " ");
				value_one(dl, &e, room - sep - more);
				i++;
			}
			break;
		}
		dl_puts(dl, S_NORMAL, i == 0 ? " " : ", ");
		value_one(dl, &e, ew);
	}
	if (i < v->count && end - dl->cols >= 3) {
		dl_puts(dl, S_NORMAL, i == 0 ? " " : ", ");
		dl_puts(dl, S_DIM, g_ellipsis());
	}
}

int
mdl_mark(unsigned flags)
{
	if (flags & GGUF_ED_REMOVED)
		return '-';
	if (flags & GGUF_ED_ADDED)
		return '+';
	if (flags & GGUF_ED_VALUE)
		return '*';
	if (flags & GGUF_ED_RENAMED)
		return '>';
	return ' ';
}

int
mdl_elem_edited(struct app *a, const char *key, size_t klen,
    struct gguf_val *cur, uint64_t id)
{
	struct gguf_doc_kv	 kv;
	struct gguf_val		 x, y;
	struct gguf_str		 s, t;
	int64_t			 i;

	if (key == NULL || cur == NULL ||
	    (i = gguf_doc_kv_find(app_doc(a), key, klen)) < 0 ||
	    gguf_doc_kv(app_doc(a), (uint64_t)i, &kv) != 0 ||
	    !(kv.flags & (GGUF_ED_VALUE | GGUF_ED_ADDED)))
		return 0;
	if (kv.src_val == NULL || kv.src_val->type != GGUF_VT_ARR ||
	    kv.src_val->atype != cur->atype || id >= kv.src_val->count)
		return 1;
	if (mdl_arr_get(cur, id, &x) != 0 || mdl_arr_get(kv.src_val, id, &y) != 0)
		return 0;
	if (x.type == GGUF_VT_STR) {
		gguf_val_str(&x, &s);
		gguf_val_str(&y, &t);
		return s.n != t.n || memcmp(s.p, t.p, (size_t)s.n) != 0;
	}
	if (x.type == GGUF_VT_ARR)
		return 0;
	return gguf_val_bits(&x) != gguf_val_bits(&y);
}
