/*
 * view_pager.c - a long string (a chat template, a license) as numbered
 * lines.
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
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "tui.h"

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
	int		 seg_w;		/* width the rows were cut for */
	int		 gutter;
	char		*own;		/* text the pager frees, or NULL */
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
	for (k = 0; k < pg->list.n_rows; k++) {
		id = pg->list.rows != NULL ? pg->list.rows[k] : k;
		if (pg->segs[id].line >= cur_line) {
			pg->list.cur = k;
			break;
		}
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
	dl_text(dl, S_STRING, pg->p + s->off, s->end - s->off,
	    pg->wrap ? 0 : pg->list.hscroll, w - dl->cols, DT_KEEPBS);
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

static int
action(struct view *v, enum tui_action act, const struct tui_input *in)
{
	struct pager	*pg = v->priv;

	(void)in;
	switch (act) {
	case ACT_WRAP:
		pg->wrap = !pg->wrap;
		pg->list.hscroll = 0;
		pg->list.has_hscroll = !pg->wrap;
		app_msg(pg->app, 0, "wrapping %s", pg->wrap ? "on" : "off");
		return R_DRAW;
	case ACT_OPEN:
		app_msg(pg->app, 0, "Enter opens nothing in the pager: Space "
		    "pages down, w wraps, q goes back");
		return R_NONE;
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
	free(pg->own);
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

struct view *
view_pager_new(struct app *a, const char *title, const char *p, size_t n)
{
	struct pager	*pg = xcalloc(1, sizeof *pg);
	struct view	*v;
	uint64_t	 cap = 64, k;
	size_t		 i;
	char		 g[32];

	pg->app = a;
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
	list_init_flat(&pg->list, &pager_list_ops, pg, 0);
	pg->list.has_hscroll = 1;
	pg->seg_w = -1;
	v = view_new(a, &pager_ops, SC_LIST | SC_PAGER | SC_JUMP, pg);
	v->list = &pg->list;
	snprintf(v->title, sizeof v->title, "%s (%s bytes)", title,
	    gguf_fmt_group(n, g, sizeof g));
	return v;
}

struct view *
view_pager_own(struct app *a, const char *title, char *p, size_t n)
{
	struct view	*v = view_pager_new(a, title, p, n);

	((struct pager *)v->priv)->own = p;
	return v;
}
