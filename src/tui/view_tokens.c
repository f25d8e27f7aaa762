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
 * visible. Beside it, the text the token stands for (token.h decodes
 * byte-level BPE and SentencePiece spellings), with spaces, newlines and
 * tabs drawn as dim glyphs; tokens kept as they are (control tokens) are
 * drawn in the type's colour, those that do not decode in the warning
 * colour. Search and filter try the token as shown, its text as shown and
 * its text with plain spaces, each on its own, so ^ and $ anchor on either
 * column; `:` jumps to an id; `t` splits a string into the vocabulary's
 * longest tokens (an approximation of the tokenizer, said as such).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "token.h"
#include "tui.h"
#include "view_tokens.h"

#define MAX_MARKS	64
#define MARK_W		16
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
	enum gguf_tok_kind kind;
	char		*buf;		/* a token decoded */
	size_t		 bufcap;
	struct dline	 scratch;	/* what a search tries */
	struct gguf_vocab *vocab;	/* built for the first lookup */
	char		*split;		/* the last lookup, as text */
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
		t->n_marks++;
	}
	/* As wide as the marks of one id, joined by commas, allow. */
	for (i = 0; i < (uint64_t)t->n_marks; i++) {
		w = -1;
		for (k = 0; k < (size_t)t->n_marks; k++)
			if (t->marks[k].id == t->marks[i].id)
				w += 1 + (int)strlen(t->marks[k].label);
		if (w > t->mark_w)
			t->mark_w = w;
	}
	if (t->mark_w > MARK_W)
		t->mark_w = MARK_W;
}

/*
 * The token and text columns share what the fixed ones leave; when that
 * is too little for two, the text alone is shown (Enter opens the token).
 */
static int
layout(struct tokens *t, int w, int *tok_w, int *txt_w)
{
	int	fixed = t->id_w + 2 + (t->mark_w ? t->mark_w + 1 : 0) +
		    SCORE_W + 1 + TTYPE_W + 1, rest;

	rest = w - fixed;
	if (rest < 24) {
		*tok_w = 0;
		*txt_w = rest < 12 ? 12 : rest;
		return fixed;
	}
	*tok_w = rest / 2;
	*txt_w = rest - *tok_w;
	return fixed;
}

/* Visible whitespace: dim glyphs, with ASCII stand-ins. */
static const char *
ws_glyph(char c)
{
	switch (c) {
	case ' ':
		return tui_utf8 ? "\xc2\xb7" : "_";
	case '\n':
		return tui_utf8 ? "\xe2\x8f\x8e" : "\\n";
	case '\t':
		return tui_utf8 ? "\xe2\x86\x92" : "\\t";
	}
	return NULL;
}

/*
 * The decoded text p (n bytes, decoded as how says) in at most lim
 * columns: whitespace as glyphs, the rest escaped as all file text.
 */
static int
draw_text(struct dline *dl, int how, const char *p, size_t n, int lim)
{
	const char	*g;
	size_t		 i, j;
	int		 start = dl->cols, room;

	if (how == GGUF_TOKD_ASIS)
		return dl_text(dl, S_TYPE, p, n, 0, lim, 0);
	if (how == GGUF_TOKD_RAW)
		return dl_text(dl, S_WARN, p, n, 0, lim, 0);
	if (n == 0) {
		dl_text(dl, S_DIM, "(empty)", 7, 0, lim, 0);
		return dl->cols - start;
	}
	for (i = 0; i < n;) {
		room = lim - (dl->cols - start);
		if (room <= 0)
			break;
		if ((g = ws_glyph(p[i])) != NULL) {
			if ((int)strlen(g) > 1 && !tui_utf8 &&
			    room < (int)strlen(g))
				break;
			if (room == 1 && i + 1 < n) {
				dl_puts(dl, S_DIM, g_ellipsis());
				break;
			}
			dl_puts(dl, S_DIM, g);
			i++;
			continue;
		}
		for (j = i; j < n && ws_glyph(p[j]) == NULL; j++)
			;
		/* Leave a column for what follows, or the ellipsis says so. */
		if (j < n && text_width(p + i, j - i, 0, room) >= room) {
			dl_text(dl, S_STRING, p + i, n - i, 0, room, 0);
			break;
		}
		dl_text(dl, S_STRING, p + i, j - i, 0, room, 0);
		i = j;
	}
	return dl->cols - start;
}

/* Token id decoded into t->buf: *len bytes, GGUF_TOKD_* (-1: no token). */
static int
decode(struct tokens *t, struct gguf_val *tok, struct gguf_val *type,
    uint64_t id, size_t *len)
{
	struct gguf_val	 e;
	struct gguf_str	 s;
	int64_t		 tt = GGUF_TOKT_NONE;

	if (tok == NULL || mdl_arr_get(tok, id, &e) != 0 ||
	    gguf_val_str(&e, &s) != 0)
		return -1;
	if (type != NULL && id < type->count &&
	    (mdl_arr_get(type, id, &e) != 0 || gguf_val_i64(&e, &tt) != 0))
		tt = GGUF_TOKT_NONE;
	if (s.n + 1 > t->bufcap) {
		t->bufcap = (size_t)s.n + 1;
		t->buf = xreallocarray(t->buf, t->bufcap, 1);
	}
	return gguf_tok_decode(t->kind, tt, s.p, (size_t)s.n, t->buf, len);
}

static void
header(void *ctx, struct dline *dl, int w)
{
	struct tokens	*t = ctx;
	int		 tw, xw, c;

	layout(t, w, &tw, &xw);
	dl_rjust(dl, S_HEADER, "id", t->id_w);
	dl_puts(dl, S_HEADER, "  ");
	if (t->mark_w) {
		dl_puts(dl, S_HEADER, "special");
		dl_pad(dl, S_HEADER, t->id_w + 2 + t->mark_w + 1);
	}
	c = dl->cols;
	if (tw > 0)
		dl_puts(dl, S_HEADER, "token");
	dl_pad(dl, S_HEADER, c + tw);
	dl_puts(dl, S_HEADER, "text");
	dl_pad(dl, S_HEADER, c + tw + xw);
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
	size_t		 len;
	int		 tw, xw, i, col, how;
	int64_t		 tt;
	double		 d;

	layout(t, w, &tw, &xw);
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
	if (tw > 0 && (mdl_arr_get(t->tok, id, &e) != 0 ||
	    gguf_val_str(&e, &s) != 0))
		dl_puts(dl, S_ERROR, "?");
	else if (tw > 0 && s.n == 0)
		dl_puts(dl, S_DIM, "(empty)");
	else if (tw > 0)
		dl_text(dl, S_STRING, s.p, (size_t)s.n, 0, tw - 1, DT_SPACES);
	dl_pad(dl, S_NORMAL, col + tw);
	if ((how = decode(t, t->tok, t->type, id, &len)) >= 0)
		draw_text(dl, how, t->buf, len, xw - 1);
	dl_pad(dl, S_NORMAL, col + tw + xw);
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

/* The token as shown, its text as shown, its text with plain spaces. */
static int
match(void *ctx, struct re *re, uint64_t id)
{
	struct tokens	*t = ctx;
	struct dline	*dl = &t->scratch;
	size_t		 len, so, eo;
	int		 how;

	dl_reset(dl);
	text(t, dl, id);
	if (re_match(re, dl->s != NULL ? dl->s : "", dl->len, 0, &so, &eo))
		return 1;
	if ((how = decode(t, t->tok, t->type, id, &len)) < 0)
		return 0;
	dl_reset(dl);
	draw_text(dl, how, t->buf, len, 1 << 30);
	if (re_match(re, dl->s != NULL ? dl->s : "", dl->len, 0, &so, &eo))
		return 1;
	dl_reset(dl);
	dl_text(dl, S_STRING, t->buf, len, 0, 1 << 30, 0);
	return re_match(re, dl->s != NULL ? dl->s : "", dl->len, 0, &so, &eo);
}

/*
 * The answer to `t`: the string split greedily into the longest token
 * texts, shown in a pager (the text lives in t until the next lookup).
 */
static int
lookup_answer(struct app *a, void *arg, const char *line)
{
	struct tokens		*t = arg;
	struct gguf_tok_piece	*pc;
	struct gguf_str		 s;
	struct dline		 dl;
	struct view		*v;
	size_t			 n, k, cap, len, miss = 0;

	if (line == NULL || *line == '\0')
		return R_DRAW;
	if (t->vocab == NULL)
		t->vocab = gguf_vocab_new(t->tok, t->type, t->kind);
	len = strlen(line);
	n = gguf_vocab_split(t->vocab, line, len, NULL, 0);
	pc = xreallocarray(NULL, n + 1, sizeof *pc);
	gguf_vocab_split(t->vocab, line, len, pc, n);
	dl_init(&dl);
	dl_puts(&dl, S_NORMAL, "The vocabulary's longest matches, left to "
	    "right: an approximation,\nnot the model's merges.\n\n");
	for (k = 0; k < n; k++) {
		if (pc[k].id < 0) {
			miss++;
			dl_printf(&dl, S_NORMAL, "%*s  ", t->id_w, "-");
			dl_text(&dl, S_NORMAL, line + pc[k].off, pc[k].len, 0,
			    1 << 30, DT_QUOTE);
			dl_puts(&dl, S_NORMAL, "  (no token)\n");
			continue;
		}
		gguf_vocab_text(t->vocab, (uint64_t)pc[k].id, &s);
		dl_printf(&dl, S_NORMAL, "%*lld  ", t->id_w,
		    (long long)pc[k].id);
		dl_text(&dl, S_NORMAL, s.p, (size_t)s.n, 0, 1 << 30, DT_QUOTE);
		dl_puts(&dl, S_NORMAL, "\n");
	}
	free(pc);
	free(t->split);
	cap = dl.len;
	t->split = xstrndup(dl.s != NULL ? dl.s : "", cap);
	dl_free(&dl);
	/* The title sizes the text typed, not the answer shown. */
	v = view_pager_new(a, "", t->split, cap);
	snprintf(v->title, sizeof v->title, "%zu byte%s: %zu token%s%s",
	    len, len == 1 ? "" : "s", n - miss, n - miss == 1 ? "" : "s",
	    miss > 0 ? ", bytes without one" : "");
	app_push(a, v);
	return R_DRAW;
}

static int
action(struct view *v, enum tui_action act, const struct tui_input *in)
{
	struct tokens	*t = v->priv;
	struct gguf_val	 e;
	struct gguf_str	 s;
	struct ask	 q;
	uint64_t	 id;
	char		 title[64];

	(void)in;
	if (act == ACT_LOOKUP) {
		if (t->tok == NULL) {
			app_msg(t->app, 1, "no vocabulary to look up");
			return R_DRAW;
		}
		memset(&q, 0, sizeof q);
		q.label = "text -> ids: ";
		q.hist = H_SEARCH;
		q.fn = lookup_answer;
		q.arg = t;
		app_ask(t->app, &q);
		return R_DRAW;
	}
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
	dl_free(&t->scratch);
	gguf_vocab_free(t->vocab);
	free(t->buf);
	free(t->split);
	free(t);
}

static const struct list_ops tokens_list_ops = {
	.row = row,
	.text = text,
	.header = header,
	.match = match,
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

/* How the document's tokens stand for text. */
static enum gguf_tok_kind
doc_kind(struct app *a)
{
	struct gguf_val	*v;
	struct gguf_str	 m = { NULL, 0 }, p = { NULL, 0 };

	if ((v = mdl_get(a, "tokenizer.ggml.model")) == NULL ||
	    gguf_val_str(v, &m) != 0)
		m.p = NULL;
	if ((v = mdl_get(a, "tokenizer.ggml.pre")) == NULL ||
	    gguf_val_str(v, &p) != 0)
		p.p = NULL;
	return gguf_tok_kind(m.p, (size_t)m.n, p.p, (size_t)p.n);
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
	t->kind = doc_kind(a);
	v = view_new(a, &tokens_ops, SC_LIST | SC_JUMP | SC_TOKENS, t);
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

int
tokens_is_id_key(const char *key, size_t klen)
{
	static const char	pre[] = "tokenizer.ggml.";
	size_t			p = sizeof pre - 1;

	if (klen <= p || memcmp(key, pre, p) != 0)
		return 0;
	if (klen > p + 9 && memcmp(key + klen - 9, "_token_id", 9) == 0)
		return 1;
	return klen > p + 10 && memcmp(key + klen - 10, "_token_ids", 10) == 0;
}

int
tokens_id_text(struct app *a, struct dline *dl, uint64_t id, int lim)
{
	struct tokens	 t;
	size_t		 len;
	int		 how, w;

	memset(&t, 0, sizeof t);
	t.tok = array_of(a, "tokenizer.ggml.tokens", GGUF_VT_STR, GGUF_VT_STR);
	if (t.tok == NULL || id >= t.tok->count || lim <= 0)
		return 0;
	t.type = array_of(a, "tokenizer.ggml.token_type", GGUF_VT_I32,
	    GGUF_VT_U32);
	t.kind = doc_kind(a);
	if ((how = decode(&t, t.tok, t.type, id, &len)) < 0)
		return 0;
	w = draw_text(dl, how, t.buf, len, lim);
	free(t.buf);
	return w;
}
