/*
 * view_array.c - the elements of one array, one per row.
 *
 * A flat list of count rows: element i is fetched when row i is drawn
 * (gguf_arr_get: direct for fixed-size types, through the array's
 * checkpoint index for strings), so opening a 150,000-string array and
 * jumping to its end cost a few dozen element reads. Enter opens a string
 * element in the pager and a nested array in another element list.
 *
 * The list of a key's array follows the document: it fetches the array
 * again after every edit, edits elements (e, i, a, d: edit.c), and marks
 * the elements that differ from the source file's with '*'. The
 * elements of an array of token ids (tokenizer.ggml.*_token_ids) have
 * the token's text beside them.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui.h"

struct array {
	struct app	*app;
	struct list	 list;
	struct gguf_val	*arr;
	struct gguf_val	 own;		/* the copy, when copied */
	int		 copied;
	char		*key;		/* the key's array (editable), or NULL */
	size_t		 klen;
	int		 idx_w;
	char		 name[128];	/* for the titles of what it opens */
};

static void
row(void *ctx, struct dline *dl, uint64_t id, int w)
{
	struct array	*ar = ctx;
	struct gguf_val	 e;
	uint64_t	 tid;
	char		 num[32];

	snprintf(num, sizeof num, "%*llu", ar->idx_w, (unsigned long long)id);
	dl_puts(dl, S_DIM, num);
	dl_puts(dl, S_MARK, mdl_elem_edited(ar->app, ar->key, ar->klen, ar->arr, id) ? "* " : "  ");
	dl->hl_from = dl->len;
	if (mdl_arr_get(ar->arr, id, &e) != 0) {
		dl_puts(dl, S_ERROR, "(unreadable element)");
		return;
	}
	mdl_value(dl, &e, w - dl->cols);
	if (ar->key != NULL && e.type != GGUF_VT_ARR &&
	    gguf_val_u64(&e, &tid) == 0 &&
	    tokens_is_id_key(ar->key, ar->klen) && w - dl->cols > 3) {
		dl_puts(dl, S_NORMAL, "  ");
		tokens_id_text(ar->app, dl, tid, w - dl->cols);
	}
}

static void
text(void *ctx, struct dline *dl, uint64_t id)
{
	struct array	*ar = ctx;
	struct gguf_val	 e;

	if (mdl_arr_get(ar->arr, id, &e) == 0)
		mdl_value(dl, &e, 4096);
}

static int
action(struct view *v, enum tui_action act, const struct tui_input *in)
{
	struct array	*ar = v->priv;
	struct gguf_val	 e;
	struct gguf_str	 s;
	uint64_t	 id;
	char		 title[160];

	(void)in;
	if (ar->key != NULL && (act == ACT_EDIT || act == ACT_EDIT_EXT ||
	    act == ACT_INSERT || act == ACT_ADD || act == ACT_DELETE)) {
		if (list_cur(&ar->list, &id) != 0)
			id = 0;
		return edit_elem(ar->app, act, ar->key, ar->klen, id);
	}
	if (act != ACT_OPEN)
		return R_PASS;
	if (list_cur(&ar->list, &id) != 0 ||
	    mdl_arr_get(ar->arr, id, &e) != 0)
		return R_NONE;
	snprintf(title, sizeof title, "%s[%llu]", ar->name,
	    (unsigned long long)id);
	if (e.type == GGUF_VT_STR) {
		gguf_val_str(&e, &s);
		app_push(ar->app, view_pager_new(ar->app, title, s.p,
		    (size_t)s.n));
	} else if (e.type == GGUF_VT_ARR)
		app_push(ar->app, view_array_new(ar->app, title, &e, 1));
	else if (ar->key != NULL)
		return edit_elem(ar->app, ACT_EDIT, ar->key, ar->klen, id);
	else
		app_msg(ar->app, 0, "element %llu is a scalar",
		    (unsigned long long)id);
	return R_DRAW;
}

static int
jump(struct view *v, uint64_t n)
{
	struct array	*ar = v->priv;

	return list_jump(&ar->list, ar->app, n, "element");
}

static void
status(struct view *v, char *buf, size_t len)
{
	struct array	*ar = v->priv;
	uint64_t	 id;
	char		 pos[64];

	if (list_cur(&ar->list, &id) != 0)
		snprintf(buf, len, "0 elements");
	else
		snprintf(buf, len, "[%llu] %s", (unsigned long long)id,
		    list_position(&ar->list, pos, sizeof pos));
}

static void
array_free(struct view *v)
{
	struct array	*ar = v->priv;

	list_free(&ar->list);
	if (ar->copied)
		gguf_arrix_free(ar->own.ix);
	free(ar->key);
	free(ar);
}

static void
set_title(struct view *v, struct array *ar)
{
	const char	*tn;
	char		 g[32];
	uint64_t	 k;

	for (ar->idx_w = 1, k = ar->arr->count > 0 ? ar->arr->count - 1 : 0;
	    k >= 10; k /= 10)
		ar->idx_w++;
	tn = ar->arr->atype == GGUF_VT_ARR ? "arr" :
	    gguf_vtype_name(ar->arr->atype);
	snprintf(v->title, sizeof v->title, "%s [%s %s %s]", ar->name,
	    gguf_fmt_group(ar->arr->count, g, sizeof g),
	    tui_utf8 ? "\xc3\x97" : "x",
	    tn != NULL ? tn : "?");
}

/* The array of a key is fetched again; an element's copy cannot be. */
static int
reload(struct view *v)
{
	struct array	*ar = v->priv;
	struct gguf_val	*arr;

	if (ar->key == NULL)
		return -1;
	arr = gguf_doc_get(app_doc(ar->app), ar->key, ar->klen);
	if (arr == NULL || arr->type != GGUF_VT_ARR)
		return -1;
	ar->arr = arr;
	list_reset(&ar->list, NULL, arr->count);
	set_title(v, ar);
	return 0;
}

static const struct list_ops array_list_ops = {
	.row = row,
	.text = text,
};

static const struct view_ops array_ops = {
	.name = "array",
	.action = action,
	.status = status,
	.jump = jump,
	.reload = reload,
	.free = array_free,
};

struct view *
view_array_new(struct app *a, const char *title, struct gguf_val *arr,
    int copy)
{
	struct array	*ar = xcalloc(1, sizeof *ar);
	struct view	*v;

	ar->app = a;
	snprintf(ar->name, sizeof ar->name, "%s", title);
	if (copy) {
		ar->own = *arr;
		ar->own.ix = NULL;
		ar->arr = &ar->own;
		ar->copied = 1;
	} else
		ar->arr = arr;
	list_init_flat(&ar->list, &array_list_ops, ar, arr->count);
	v = view_new(a, &array_ops, SC_LIST | SC_JUMP, ar);
	v->list = &ar->list;
	set_title(v, ar);
	return v;
}

struct view *
view_array_key(struct app *a, const char *key, size_t klen)
{
	struct gguf_val	*arr = gguf_doc_get(app_doc(a), key, klen);
	struct array	*ar;
	struct view	*v;
	char		 title[128];

	name_escape(title, sizeof title, key, klen, 60);
	v = view_array_new(a, title, arr, 0);
	ar = v->priv;
	ar->key = xcalloc(1, klen + 1);
	memcpy(ar->key, key, klen);
	ar->klen = klen;
	v->scopes |= SC_ARRAY;
	return v;
}
