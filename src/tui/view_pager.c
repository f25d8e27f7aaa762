/*
 * view_pager.c - a long string (a chat template, a license) as numbered
 * lines; a chat template with its Jinja syntax in colours, and what it
 * renders.
 *
 * The string is cut at its newlines once, when the pager opens. Without
 * wrapping each line is one row and h/l scroll sideways; with wrapping
 * (w) each line is cut into rows of the text width, by display columns on
 * character boundaries, and the rows are recomputed when the width
 * changes. Either way the rows are a flat list, so moving, searching and
 * filtering are the list's. The line-number gutter is not searched.
 *
 * Text is escaped as everywhere, except that a backslash stays a single
 * backslash: templates are full of them, and the escapes the pager adds
 * are drawn in their own colour, so they cannot be mistaken for text.
 *
 * A chat template is shown with its tags ({{ }}, {% %}, {# #}) in
 * colours: the delimiters, the statement keyword, the code, the string
 * literals in it, the comments; the text between tags as any string. r
 * renders the template with a sample conversation into a pager of its
 * own (a rendering pager), which a and s re-render with or without the
 * generation prompt and with the next sample; the lint's findings come
 * first. A template made in $EDITOR opens as a pending rendering: Enter
 * sets it, q drops it.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui.h"
#include "cmd/chat.h"

/* What a byte of the text is, for its colour. */
enum {
	C_TEXT,		/* a template's text, any string */
	C_DELIM,	/* {{ }} {% %} {%- -%} */
	C_KEYWORD,	/* the statement: for, if, set, endfor ... */
	C_CODE,		/* expressions */
	C_LITERAL,	/* a string literal in code */
	C_COMMENT,	/* {# ... #} */
	C_HEADER,	/* a rendering's first lines: what it is */
	C_ERROR,
	C_WARN,
	C_NOTE
};

static const unsigned char class_slot[] = {
	[C_TEXT] = S_STRING, [C_DELIM] = S_KEY, [C_KEYWORD] = S_TYPE,
	[C_CODE] = S_NORMAL, [C_LITERAL] = S_NUMBER, [C_COMMENT] = S_DIM,
	[C_HEADER] = S_HEADER, [C_ERROR] = S_ERROR, [C_WARN] = S_WARN,
	[C_NOTE] = S_DIM,
};

enum pager_kind { PG_TEXT, PG_TEMPLATE, PG_RENDER };

struct seg {
	size_t		 off;		/* bytes [off, end) of the string */
	size_t		 end;
	uint64_t	 line;		/* 0-based */
	int		 first;		/* first row of its line */
};

struct pager {
	struct app	*app;
	struct list	 list;
	const char	*p;
	size_t		 n;
	size_t		*lines;		/* start of each line */
	uint64_t	 n_lines;
	struct seg	*segs;
	uint64_t	 n_segs;
	int		 wrap;
	int		 to_end;	/* the first layout selects the last line */
	int		 seg_w;		/* width the rows were cut for */
	int		 gutter;
	enum pager_kind	 kind;
	unsigned char	*cls;		/* class of each byte, or NULL */
	char		*own;		/* p, when the pager owns it */
	/* Templates and renderings. */
	char		*key;		/* the template's key */
	char		*tmpl;		/* a rendering's template (a copy) */
	size_t		 tmpl_n;
	enum chat_sample sample;
	int		 agp;		/* add_generation_prompt */
	int		 pending;	/* a new template, not set yet */
};

static size_t
line_end(struct pager *pg, uint64_t l)
{
	if (l + 1 < pg->n_lines)
		return pg->lines[l + 1] - 1;	/* before the newline */
	return pg->n;
}

static void
add_seg(struct pager *pg, uint64_t *cap, size_t off, size_t end,
    uint64_t line, int first)
{
	if (pg->n_segs == *cap) {
		*cap = *cap ? *cap * 2 : 256;
		pg->segs = xreallocarray(pg->segs, *cap, sizeof *pg->segs);
	}
	pg->segs[pg->n_segs].off = off;
	pg->segs[pg->n_segs].end = end;
	pg->segs[pg->n_segs].line = line;
	pg->segs[pg->n_segs].first = first;
	pg->n_segs++;
}

/* Cuts the lines into rows for text width tw (0: no wrapping). */
static void
segment(struct pager *pg, int tw)
{
	uint64_t	l, cap = 0, cur_line = 0, id, k;
	size_t		off, end, len;

	if (pg->n_segs > 0 && list_cur(&pg->list, &id) == 0)
		cur_line = pg->segs[id].line;
	free(pg->segs);
	pg->segs = NULL;
	pg->n_segs = 0;
	for (l = 0; l < pg->n_lines; l++) {
		off = pg->lines[l];
		end = line_end(pg, l);
		if (tw <= 0 || off == end) {
			add_seg(pg, &cap, off, end, l, 1);
			continue;
		}
		while (off < end) {
			len = text_fit(pg->p + off, end - off, DT_KEEPBS, tw);
			add_seg(pg, &cap, off, off + len, l,
			    off == pg->lines[l]);
			off += len;
		}
	}
	pg->list.n_items = pg->n_segs;
	list_rebuild(&pg->list);
	if (pg->to_end && pg->n_lines > 0) {
		cur_line = pg->n_lines - 1;
		pg->to_end = 0;
	}
	for (k = 0; k < pg->list.n_rows; k++) {
		id = pg->list.rows != NULL ? pg->list.rows[k] : k;
		if (pg->segs[id].line >= cur_line) {
			pg->list.cur = k;
			break;
		}
	}
}

/*
 * Bytes [off, end) in the colours of their classes, skip columns left
 * out, at most lim columns: run by run, the run that reaches the right
 * edge drawn with the rest of the line so that the cut gets its ellipsis.
 */
static void
colored(struct pager *pg, struct dline *dl, size_t off, size_t end, int skip,
    int lim)
{
	size_t	run;
	int	rw, used;

	while (off < end && lim > 0) {
		for (run = off + 1; run < end && pg->cls[run] == pg->cls[off];
		    run++)
			;
		rw = text_width(pg->p + off, run - off, DT_KEEPBS, skip + lim +
		    1);
		if (skip >= rw) {
			skip -= rw;
			off = run;
			continue;
		}
		if (rw - skip >= lim && run < end) {
			dl_text(dl, class_slot[pg->cls[off]], pg->p + off,
			    end - off, skip, lim, DT_KEEPBS);
			return;
		}
		used = dl_text(dl, class_slot[pg->cls[off]], pg->p + off,
		    run - off, skip, lim, DT_KEEPBS);
		lim -= used;
		skip = 0;
		off = run;
	}
}

static void
row(void *ctx, struct dline *dl, uint64_t id, int w)
{
	struct pager	*pg = ctx;
	struct seg	*s = &pg->segs[id];
	char		 num[32];

	if (s->first)
		snprintf(num, sizeof num, "%*llu", pg->gutter,
		    (unsigned long long)s->line + 1);
	else
		snprintf(num, sizeof num, "%*s", pg->gutter, "");
	dl_puts(dl, S_DIM, num);
	dl_puts(dl, S_DIM, " ");
	dl_puts(dl, S_DIM, g_vbar());
	dl_puts(dl, S_NORMAL, " ");
	dl->hl_from = dl->len;
	if (pg->cls == NULL) {
		dl_text(dl, S_STRING, pg->p + s->off, s->end - s->off,
		    pg->wrap ? 0 : pg->list.hscroll, w - dl->cols, DT_KEEPBS);
		return;
	}
	colored(pg, dl, s->off, s->end, pg->wrap ? 0 : pg->list.hscroll,
	    w - dl->cols);
}

static void
text(void *ctx, struct dline *dl, uint64_t id)
{
	struct pager	*pg = ctx;
	struct seg	*s = &pg->segs[id];

	dl_text(dl, S_STRING, pg->p + s->off, s->end - s->off, 0, 1 << 30,
	    DT_KEEPBS);
}

static void
draw(struct view *v, int y, int h, int w)
{
	struct pager	*pg = v->priv;
	int		 tw = pg->wrap ? w - pg->gutter - 3 : 0;

	if (tw < 0)
		tw = 1;
	if (tw != pg->seg_w) {
		pg->seg_w = tw;
		segment(pg, tw);
	}
	list_draw(&pg->list, v->app, y, h, w);
}

/* ------------------------------------------------------------- Jinja */

static int
is_word(unsigned char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9');
}

/*
 * The classes of a template's bytes: text, and in tags the delimiters
 * (with their - or +), the statement's first word, string literals,
 * the rest of the code; comments whole. A tag left open runs to the end.
 */
static unsigned char *
classify(const char *p, size_t n)
{
	unsigned char	*c = xmalloc(n + 1);
	size_t		 i = 0, k;
	char		 close, q;
	int		 first;

	while (i < n) {
		if (p[i] != '{' || i + 1 >= n || (p[i + 1] != '{' &&
		    p[i + 1] != '%' && p[i + 1] != '#')) {
			c[i++] = C_TEXT;
			continue;
		}
		if (p[i + 1] == '#') {
			for (k = i + 2; k + 1 < n && !(p[k] == '#' &&
			    p[k + 1] == '}'); k++)
				;
			k = k + 1 < n ? k + 2 : n;
			memset(c + i, C_COMMENT, k - i);
			i = k;
			continue;
		}
		close = p[i + 1] == '{' ? '}' : '%';
		first = close == '%';
		c[i] = c[i + 1] = C_DELIM;
		i += 2;
		if (i < n && (p[i] == '-' || p[i] == '+'))
			c[i++] = C_DELIM;
		while (i < n) {
			if ((p[i] == '-' || p[i] == '+') && i + 2 < n &&
			    p[i + 1] == close && p[i + 2] == '}') {
				memset(c + i, C_DELIM, 3);
				i += 3;
				break;
			}
			if (p[i] == close && i + 1 < n && p[i + 1] == '}') {
				c[i] = c[i + 1] = C_DELIM;
				i += 2;
				break;
			}
			if (p[i] == '\'' || p[i] == '"') {
				q = p[i];
				for (k = i + 1; k < n && p[k] != q; k++)
					if (p[k] == '\\' && k + 1 < n)
						k++;
				k = k < n ? k + 1 : n;
				memset(c + i, C_LITERAL, k - i);
				i = k;
				continue;
			}
			if (is_word((unsigned char)p[i])) {
				for (k = i; k < n && is_word((unsigned char)p[k]);
				    k++)
					;
				memset(c + i, first ? C_KEYWORD : C_CODE, k - i);
				first = 0;
				i = k;
				continue;
			}
			c[i++] = C_CODE;
		}
	}
	return c;
}

/* ------------------------------------------------------------- content */

/* The text shown: p[0..n) (owned if own), classes cls (owned; or NULL). */
static void
set_text(struct pager *pg, const char *p, size_t n, char *own,
    unsigned char *cls)
{
	uint64_t	cap = 64, k;
	size_t		i;

	free(pg->own);
	free(pg->cls);
	free(pg->lines);
	pg->own = own;
	pg->cls = cls;
	pg->p = p;
	pg->n = n;
	pg->lines = xcalloc(cap, sizeof *pg->lines);
	pg->n_lines = 1;
	for (i = 0; i < n; i++) {
		if (p[i] != '\n')
			continue;
		if (pg->n_lines == cap) {
			cap *= 2;
			pg->lines = xreallocarray(pg->lines, cap,
			    sizeof *pg->lines);
		}
		pg->lines[pg->n_lines++] = i + 1;
	}
	for (pg->gutter = 1, k = pg->n_lines; k >= 10; k /= 10)
		pg->gutter++;
	if (pg->gutter < 3)
		pg->gutter = 3;
	free(pg->segs);
	pg->segs = NULL;
	pg->n_segs = 0;
	pg->list.cur = 0;
	pg->list.top = 0;
	pg->seg_w = -1;		/* cut again at the next draw */
}

struct buf {
	char		*p;
	unsigned char	*c;
	size_t		 n, cap;
};

static void
put(struct buf *b, int cls, const char *p, size_t n)
{
	if (b->cap - b->n < n + 1) {
		while (b->cap - b->n < n + 1)
			b->cap = b->cap ? b->cap * 2 : 1024;
		b->p = xreallocarray(b->p, b->cap, 1);
		b->c = xreallocarray(b->c, b->cap, 1);
	}
	memcpy(b->p + b->n, p, n);
	memset(b->c + b->n, cls, n);
	b->n += n;
	b->p[b->n] = '\0';
}

static void put_line(struct buf *, int, const char *, ...)
    __attribute__((format(printf, 3, 4)));

static void
put_line(struct buf *b, int cls, const char *fmt, ...)
{
	char	line[1200];
	va_list	ap;
	int	n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	put(b, cls, line, (size_t)n < sizeof line ? (size_t)n :
	    sizeof line - 1);
	put(b, cls, "\n", 1);
}

static struct gguf_val *
doc_get(void *arg, const char *key)
{
	return gguf_doc_get(arg, key, strlen(key));
}

static void
lint_line(void *arg, int level, const char *msg)
{
	put_line(arg, level == GGUF_W_ERROR ? C_ERROR : level == GGUF_W_WARN ?
	    C_WARN : C_NOTE, "%s: %s", gguf_wlevel_name(level), msg);
}

/*
 * A rendering pager's text: what it is (and, pending, what Enter and q
 * do), the lint's findings, then the rendering of the sample, or the
 * error the template ends with.
 */
static void
render(struct pager *pg)
{
	struct chat_model	 m = { doc_get, app_doc(pg->app) };
	struct jinja_error	 err;
	struct buf		 b = { NULL, NULL, 0, 0 };
	char			*out = NULL, kb[96];
	size_t			 outn;
	jv			*ctx;

	name_escape(kb, sizeof kb, pg->key, strlen(pg->key), 60);
	if (pg->pending)
		put_line(&b, C_HEADER, "new %s, not set yet: Enter sets it, "
		    "q drops it", kb);
	chat_lint(&m, pg->tmpl, pg->tmpl_n, lint_line, &b);
	put_line(&b, C_HEADER, "sample conversation: %s; generation prompt "
	    "%s (s: next sample, a: on/off)",
	    chat_sample_name(pg->sample), pg->agp ? "on" : "off");
	ctx = chat_context(&m, chat_sample_messages(pg->sample),
	    chat_sample_tools(pg->sample), pg->agp);
	if (chat_render(pg->tmpl, pg->tmpl_n, ctx, chat_now(), &out, &outn,
	    &err) == 0)
		put(&b, C_TEXT, out, outn);
	else if (err.line > 0)
		put_line(&b, C_ERROR, "error: %u:%u: %s%s", err.line, err.col,
		    err.raised ? "raise_exception: " : "", err.msg);
	else
		put_line(&b, C_ERROR, "error: %s", err.msg);
	jv_unref(ctx);
	free(out);
	if (b.p == NULL)
		put(&b, C_TEXT, "", 0);
	set_text(pg, b.p, b.n, b.p, b.c);
}

/* ------------------------------------------------------------- actions */

static struct view *render_view(struct app *, const char *, const char *,
    size_t, int);

static int
action(struct view *v, enum tui_action act, const struct tui_input *in)
{
	struct pager	*pg = v->priv;
	int		 r;

	(void)in;
	switch (act) {
	case ACT_WRAP:
		pg->wrap = !pg->wrap;
		pg->list.hscroll = 0;
		pg->list.has_hscroll = !pg->wrap;
		app_msg(pg->app, 0, "wrapping %s", pg->wrap ? "on" : "off");
		return R_DRAW;
	case ACT_RENDER:
		if (pg->kind == PG_TEMPLATE) {
			app_push(pg->app, render_view(pg->app, pg->key, pg->p,
			    pg->n, 0));
			return R_DRAW;
		}
		if (pg->kind == PG_RENDER) {
			render(pg);
			app_msg(pg->app, 0, "rendered again");
			return R_DRAW;
		}
		app_msg(pg->app, 1, "r renders chat templates: this string is "
		    "not one");
		return R_NONE;
	case ACT_GEN_PROMPT:
	case ACT_SAMPLE:
		if (pg->kind != PG_RENDER) {
			app_msg(pg->app, 1, "%s: only in a rendering (r in a "
			    "chat template's pager)", act == ACT_SAMPLE ? "s" :
			    "a");
			return R_NONE;
		}
		if (act == ACT_SAMPLE)
			pg->sample = (pg->sample + 1) % CHAT_SAMPLE_COUNT;
		else
			pg->agp = !pg->agp;
		render(pg);
		app_msg(pg->app, 0, "%s, generation prompt %s",
		    chat_sample_name(pg->sample), pg->agp ? "on" : "off");
		return R_DRAW;
	case ACT_OPEN:
		if (pg->pending) {
			r = edit_apply_string(pg->app, pg->key, -1, pg->tmpl,
			    pg->tmpl_n);
			return r & R_EDITED ? r : r | R_POP;
		}
		app_msg(pg->app, 0, "Enter opens nothing in the pager: Space "
		    "pages down, w wraps, q goes back");
		return R_NONE;
	case ACT_BACK:
	case ACT_CANCEL:
		if (pg->pending)
			app_msg(pg->app, 0, "the new template was dropped: no "
			    "edit");
		return R_PASS;
	default:
		return R_PASS;
	}
}

static int
jump(struct view *v, uint64_t n)
{
	struct pager	*pg = v->priv;
	uint64_t	 k, id;

	for (k = 0; k < pg->list.n_rows; k++) {
		id = pg->list.rows != NULL ? pg->list.rows[k] : k;
		if (pg->segs[id].line + 1 >= n) {
			pg->list.cur = k;
			return R_DRAW;
		}
	}
	if (pg->list.n_rows > 0)
		pg->list.cur = pg->list.n_rows - 1;
	return R_DRAW;
}

static void
status(struct view *v, char *buf, size_t len)
{
	struct pager	*pg = v->priv;
	uint64_t	 id;

	if (list_cur(&pg->list, &id) != 0) {
		snprintf(buf, len, "0 lines");
		return;
	}
	snprintf(buf, len, "%s%s line %llu/%llu %3d%%",
	    pg->wrap ? "wrap" : "nowrap",
	    !pg->wrap && pg->list.hscroll > 0 ? " >" : "",
	    (unsigned long long)pg->segs[id].line + 1,
	    (unsigned long long)pg->n_lines,
	    (int)((pg->segs[id].line + 1) * 100 / pg->n_lines));
}

static void
pager_free(struct view *v)
{
	struct pager	*pg = v->priv;

	list_free(&pg->list);
	free(pg->lines);
	free(pg->segs);
	free(pg->cls);
	free(pg->own);
	free(pg->key);
	free(pg->tmpl);
	free(pg);
}

static const struct list_ops pager_list_ops = {
	.row = row,
	.text = text,
};

static const struct view_ops pager_ops = {
	.name = "pager",
	.draw = draw,
	.action = action,
	.status = status,
	.jump = jump,
	.free = pager_free,
};

/* The same, named for the hints of the status line (frame.c). */
static const struct view_ops template_ops = {
	.name = "template",
	.draw = draw,
	.action = action,
	.status = status,
	.jump = jump,
	.free = pager_free,
};

static const struct view_ops render_ops = {
	.name = "rendering",
	.draw = draw,
	.action = action,
	.status = status,
	.jump = jump,
	.free = pager_free,
};

static struct pager *
pager_new(struct app *a)
{
	struct pager	*pg = xcalloc(1, sizeof *pg);

	pg->app = a;
	list_init_flat(&pg->list, &pager_list_ops, pg, 0);
	pg->list.has_hscroll = 1;
	pg->seg_w = -1;
	return pg;
}

static struct view *
pager_view(struct pager *pg, const char *title)
{
	struct view	*v;
	char		 g[32];

	v = view_new(pg->app, pg->kind == PG_TEMPLATE ? &template_ops :
	    &pager_ops, SC_LIST | SC_PAGER | SC_JUMP, pg);
	v->list = &pg->list;
	snprintf(v->title, sizeof v->title, "%s (%s bytes)", title,
	    gguf_fmt_group(pg->n, g, sizeof g));
	return v;
}

struct view *
view_pager_new(struct app *a, const char *title, const char *p, size_t n)
{
	struct pager	*pg = pager_new(a);

	set_text(pg, p, n, NULL, NULL);
	return pager_view(pg, title);
}

struct view *
view_pager_template(struct app *a, const char *title, const char *key,
    const char *p, size_t n)
{
	struct pager	*pg = pager_new(a);

	pg->kind = PG_TEMPLATE;
	pg->key = xstrdup(key);
	set_text(pg, p, n, NULL, classify(p, n));
	return pager_view(pg, title);
}

/* A rendering of the template p[0..n) of key (copied). */
static struct view *
render_view(struct app *a, const char *key, const char *p, size_t n,
    int pending)
{
	struct pager	*pg = pager_new(a);
	struct view	*v;
	char		 kb[96];

	pg->kind = PG_RENDER;
	pg->key = xstrdup(key);
	pg->tmpl = xmalloc(n + 1);
	memcpy(pg->tmpl, p, n);
	pg->tmpl[n] = '\0';
	pg->tmpl_n = n;
	pg->sample = CHAT_SAMPLE_DEFAULT;
	pg->agp = 1;
	pg->pending = pending;
	render(pg);
	v = view_new(a, &render_ops, SC_LIST | SC_PAGER | SC_JUMP, pg);
	v->list = &pg->list;
	name_escape(kb, sizeof kb, key, strlen(key), 60);
	snprintf(v->title, sizeof v->title, "%s %s", kb, pending ?
	    "as edited, rendered (not set yet)" : "rendered");
	return v;
}

struct view *
view_template_pending(struct app *a, const char *key, const char *p,
    size_t n)
{
	return render_view(a, key, p, n, 1);
}

void
view_pager_log(struct view *v)
{
	struct pager	*pg = v->priv;

	pg->wrap = 1;
	pg->list.hscroll = 0;
	pg->list.has_hscroll = 0;
	pg->to_end = 1;
}

struct view *
view_pager_own(struct app *a, const char *title, char *p, size_t n)
{
	struct pager	*pg = pager_new(a);

	set_text(pg, p, n, p, NULL);
	return pager_view(pg, title);
}
