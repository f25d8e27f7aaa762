/*
 * view_tokens.c - the vocabulary as one table.
 *
 * tokenizer.ggml.tokens, .scores and .token_type are parallel arrays; row
 * i joins element i of each (an array that is missing or shorter leaves
 * its column empty). The ids named by the tokenizer.ggml.*_token_id keys
 * (bos, eos, unk, pad, ...) are marked with their names. Rows are read
 * when drawn, so a 150,000-token vocabulary opens and scrolls at once.
 *
 * Token text is escaped like every file string, and spaces are made
 * visible. Search and filter look at the token text as shown, so ^ and $
 * anchor on the token; `:` jumps to an id.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui.h"

#define MAX_MARKS	64
#define MARK_W		9
#define SCORE_W		12
#define TTYPE_W		13

struct mark {
	uint64_t	 id;
	char		 label[16];
};

struct tokens {
	struct app	*app;
	struct list	 list;
	struct gguf_val	*tok;
	struct gguf_val	*score;
	struct gguf_val	*type;
	struct mark	 marks[MAX_MARKS];
	int		 n_marks;
	int		 id_w;
	int		 mark_w;
};

static void
find_marks(struct tokens *t)
{
	static const char	pre[] = "tokenizer.ggml.", suf[] = "_token_id";
	struct gguf_doc_kv	 dkv, *kv = &dkv;
	uint64_t		 i, id;
	size_t			 n, ln, k;
	int			 w;

	t->mark_w = 0;
	for (i = 0; i < mdl_n_kv(t->app) && t->n_marks < MAX_MARKS; i++) {
		if (mdl_kv(t->app, i, kv) != 0 ||
		    (kv->flags & GGUF_ED_REMOVED))
			continue;
		n = (size_t)kv->key.n;
		if (n <= sizeof pre - 1 + sizeof suf - 1 ||
		    memcmp(kv->key.p, pre, sizeof pre - 1) != 0 ||
		    memcmp(kv->key.p + n - (sizeof suf - 1), suf,
		    sizeof suf - 1) != 0 ||
		    gguf_val_u64(kv->val, &id) != 0)
			continue;
		ln = n - (sizeof pre - 1) - (sizeof suf - 1);
		if (ln >= sizeof t->marks[0].label)
			ln = sizeof t->marks[0].label - 1;
		/* Program text from here on: keep only safe characters. */
		for (k = 0; k < ln; k++) {
			char	c = kv->key.p[sizeof pre - 1 + k];

			t->marks[t->n_marks].label[k] =
			    (c >= 0x21 && c < 0x7f) ? c : '?';
		}
		t->marks[t->n_marks].label[ln] = '\0';
		t->marks[t->n_marks].id = id;
		w = (int)ln;
		if (w > t->mark_w)
			t->mark_w = w;
		t->n_marks++;
	}
	if (t->mark_w > MARK_W)
		t->mark_w = MARK_W;
}

static int
layout(struct tokens *t, int w, int *tok_w)
{
	int	fixed = t->id_w + 2 + (t->mark_w ? t->mark_w + 1 : 0) +
		    SCORE_W + 1 + TTYPE_W + 1;

	*tok_w = w - fixed;
	if (*tok_w < 12)
		*tok_w = 12;
	return fixed;
}

static void
header(void *ctx, struct dline *dl, int w)
{
	struct tokens	*t = ctx;
	int		 tw, c;

	layout(t, w, &tw);
	dl_rjust(dl, S_HEADER, "id", t->id_w);
	dl_puts(dl, S_HEADER, "  ");
	if (t->mark_w) {
		dl_puts(dl, S_HEADER, "special");
		dl_pad(dl, S_HEADER, t->id_w + 2 + t->mark_w + 1);
	}
	c = dl->cols;
	dl_puts(dl, S_HEADER, "token");
	dl_pad(dl, S_HEADER, c + tw);
	dl_rjust(dl, S_HEADER, "score", SCORE_W);
	dl_puts(dl, S_HEADER, "  type");
	dl_pad(dl, S_HEADER, w);
}

static void
row(void *ctx, struct dline *dl, uint64_t id, int w)
{
	struct tokens	*t = ctx;
	struct gguf_val	 e;
	struct gguf_str	 s;
	char		 num[40], marks[64];
	const char	*tn;
	int		 tw, i, col;
	int64_t		 tt;
	double		 d;

	layout(t, w, &tw);
	snprintf(num, sizeof num, "%*llu", t->id_w, (unsigned long long)id);
	dl_puts(dl, S_NUMBER, num);
	/* '*': the token, its score or its type differs from the file's. */
	dl_puts(dl, S_MARK, mdl_elem_edited(t->app, "tokenizer.ggml.tokens",
	    21, t->tok, id) || mdl_elem_edited(t->app, "tokenizer.ggml.scores",
	    21, t->score, id) || mdl_elem_edited(t->app,
	    "tokenizer.ggml.token_type", 25, t->type, id) ? " *" : "  ");
	if (t->mark_w) {
		marks[0] = '\0';
		for (i = 0; i < t->n_marks; i++) {
			if (t->marks[i].id != id)
				continue;
			if (marks[0] != '\0')
				strncat(marks, ",", sizeof marks - strlen(marks) - 1);
			strncat(marks, t->marks[i].label,
			    sizeof marks - strlen(marks) - 1);
		}
		col = dl->cols;
		dl_text(dl, S_MARK, marks, strlen(marks), 0, t->mark_w, 0);
		dl_pad(dl, S_NORMAL, col + t->mark_w + 1);
	}
	col = dl->cols;
	dl->hl_from = dl->len;
	if (mdl_arr_get(t->tok, id, &e) == 0 && gguf_val_str(&e, &s) == 0) {
		if (s.n == 0)
			dl_puts(dl, S_DIM, "(empty)");
		else
			dl_text(dl, S_STRING, s.p, (size_t)s.n, 0, tw - 1,
			    DT_SPACES);
	} else
		dl_puts(dl, S_ERROR, "?");
	dl_pad(dl, S_NORMAL, col + tw);
	if (t->score != NULL && id < t->score->count &&
	    mdl_arr_get(t->score, id, &e) == 0 && gguf_val_f64(&e, &d) == 0) {
		snprintf(num, sizeof num, "%.6g", d);
		dl_rjust(dl, S_NUMBER, num, SCORE_W);
	} else
		dl_pad(dl, S_NORMAL, dl->cols + SCORE_W);
	dl_puts(dl, S_NORMAL, "  ");
	if (t->type != NULL && id < t->type->count &&
	    mdl_arr_get(t->type, id, &e) == 0 && gguf_val_i64(&e, &tt) == 0) {
		tn = gguf_token_type_name(tt);
		if (tn != NULL)
			dl_text(dl, tt == 1 ? S_DIM : S_TYPE, tn, strlen(tn), 0,
			    TTYPE_W - 1, 0);
		else
			dl_printf(dl, S_WARN, "%lld", (long long)tt);
	}
}

static void
text(void *ctx, struct dline *dl, uint64_t id)
{
	struct tokens	*t = ctx;
	struct gguf_val	 e;
	struct gguf_str	 s;

	if (mdl_arr_get(t->tok, id, &e) == 0 && gguf_val_str(&e, &s) == 0)
		dl_text(dl, S_STRING, s.p, (size_t)s.n, 0, 1 << 30, DT_SPACES);
}

static int
action(struct view *v, enum tui_action act, const struct tui_input *in)
{
	struct tokens	*t = v->priv;
	struct gguf_val	 e;
	struct gguf_str	 s;
	uint64_t	 id;
	char		 title[64];

	(void)in;
	if (act != ACT_OPEN)
		return R_PASS;
	if (list_cur(&t->list, &id) != 0 || mdl_arr_get(t->tok, id, &e) != 0 ||
	    gguf_val_str(&e, &s) != 0)
		return R_NONE;
	snprintf(title, sizeof title, "token %llu", (unsigned long long)id);
	app_push(t->app, view_pager_new(t->app, title, s.p, (size_t)s.n));
	return R_DRAW;
}

static int
jump(struct view *v, uint64_t n)
{
	struct tokens	*t = v->priv;

	return list_jump(&t->list, t->app, n, "token");
}

static void
status(struct view *v, char *buf, size_t len)
{
	struct tokens	*t = v->priv;
	uint64_t	 id;
	char		 pos[64];

	if (list_cur(&t->list, &id) != 0)
		snprintf(buf, len, "0 tokens");
	else
		snprintf(buf, len, "id %llu  %s", (unsigned long long)id,
		    list_position(&t->list, pos, sizeof pos));
}

static void
tokens_free(struct view *v)
{
	struct tokens	*t = v->priv;

	list_free(&t->list);
	free(t);
}

static const struct list_ops tokens_list_ops = {
	.row = row,
	.text = text,
	.header = header,
};

static const struct view_ops tokens_ops = {
	.name = "tokenizer",
	.action = action,
	.status = status,
	.jump = jump,
	.free = tokens_free,
};

static struct gguf_val *
array_of(struct app *a, const char *key, uint32_t atype1, uint32_t atype2)
{
	struct gguf_val	*v = mdl_get(a, key);

	if (v == NULL || v->type != GGUF_VT_ARR ||
	    (v->atype != atype1 && v->atype != atype2))
		return NULL;
	return v;
}

struct view *
view_tokens_new(struct app *a)
{
	struct tokens	*t = xcalloc(1, sizeof *t);
	struct view	*v;
	struct gguf_str	 model;
	struct gguf_val	*mv;
	uint64_t	 k, n;
	char		 g[32];

	t->app = a;
	t->tok = array_of(a, "tokenizer.ggml.tokens", GGUF_VT_STR,
	    GGUF_VT_STR);
	t->score = array_of(a, "tokenizer.ggml.scores", GGUF_VT_F32,
	    GGUF_VT_F64);
	t->type = array_of(a, "tokenizer.ggml.token_type", GGUF_VT_I32,
	    GGUF_VT_U32);
	n = t->tok != NULL ? t->tok->count : 0;
	for (t->id_w = 2, k = n > 0 ? n - 1 : 0; k >= 100; k /= 10)
		t->id_w++;
	find_marks(t);
	list_init_flat(&t->list, &tokens_list_ops, t, n);
	v = view_new(a, &tokens_ops, SC_LIST | SC_JUMP, t);
	v->list = &t->list;
	mv = mdl_get(a, "tokenizer.ggml.model");
	if (t->tok == NULL)
		snprintf(v->title, sizeof v->title,
		    "tokenizer.ggml.tokens is not an array of strings");
	else if (mv != NULL && gguf_val_str(mv, &model) == 0) {
		char	m[48];

		text_escape(m, sizeof m, model.p, (size_t)model.n, 24);
		snprintf(v->title, sizeof v->title, "%s tokens, model %s",
		    gguf_fmt_group(n, g, sizeof g), m);
	} else
		snprintf(v->title, sizeof v->title, "%s tokens",
		    gguf_fmt_group(n, g, sizeof g));
	return v;
}
