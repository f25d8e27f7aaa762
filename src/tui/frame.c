/*
 * frame.c - a frame of the browser, drawn from state.
 *
 * The screen is three bands: a title bar (program, the top views as tabs,
 * the file name), the current view's body, then two lines at the bottom:
 * the view's status line (where it is, what it shows, position) and the
 * message line, which doubles as the prompt for searches, filters and
 * jumps, as in vim, less and tig. Dialogs and the save's progress are
 * boxes over the body.
 *
 * The frame is drawn once per input, from state only, which is also what
 * makes a resize trivial.
 */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "remote.h"

#define TITLE_FILE_W	16	/* below this, tabs are shown by number */
#define TITLE_NARROW_W	60	/* below this, the status line has no tab */

static void
draw_title(struct app *a, int w)
{
	struct dline	*dl = &a->dl;
	const char	*base;
	int		 t, start, full;

	/*
	 * A narrow terminal names the current tab only, the others by their
	 * number, and leaves the file name some room.
	 */
	full = 8;
	for (t = 0; t < N_TABS; t++)
		if (app_has_tab(a, t))
			full += 4 + (int)strlen(app_tabs[t].name);
	dl_reset(dl);
	dl_puts(dl, S_TITLE, " ggufed ");
	for (t = 0; t < N_TABS; t++) {
		if (!app_has_tab(a, t))
			continue;
		if (t == a->tab || full + TITLE_FILE_W <= w)
			dl_printf(dl, t == a->tab ? S_TAB_CUR : S_TAB, " %d %s ",
			    t + 1, app_tabs[t].name);
		else
			dl_printf(dl, S_TAB, " %d ", t + 1);
	}
	base = strrchr(a->path, '/');
	base = base != NULL ? base + 1 : a->path;
	start = dl->cols + 2;
	if (w - start > 4) {
		int	fw = text_width(base, strlen(base), 0, w);

		if (fw > w - start - 1)
			fw = w - start - 1;
		dl_pad(dl, S_TITLE, w - fw - 1);
		dl_text(dl, S_TITLE, base, strlen(base), 0, fw, DT_MIDDLE);
	}
	draw_dline(0, dl, w, S_TITLE, 0);
}

/*
 * What a model read over the network cost so far, "1.5 MiB fetched  ",
 * or "header from the cache  " while nothing was; "" for a model on
 * disk.
 */
static void
fetched(struct app *a, char *buf, size_t len)
{
	const struct gguf_file	*f, *s;
	uint64_t		 req, bytes, total = 0;
	size_t			 i, n;
	int			 remote = 0, cached = 0;
	char			 sz[32];

	buf[0] = '\0';
	if (a->doc == NULL)
		return;
	f = gguf_doc_file(a->doc);
	n = gguf_n_shards(f);
	for (i = 0; i <= n; i++) {
		s = i == 0 ? f : gguf_shard(f, i - 1);
		if (s == NULL || !gguf_file_remote(s))
			continue;
		gguf_remote_counts(s, &req, &bytes);
		total += bytes;
		remote = 1;
		cached |= gguf_remote_cached(s);
	}
	if (remote && total == 0 && cached)
		snprintf(buf, len, "header from the cache  ");
	else if (remote)
		snprintf(buf, len, "%s fetched  ",
		    gguf_fmt_size(total, sz, sizeof sz));
}

static void
draw_status(struct app *a, struct view *v, int y, int w)
{
	struct dline	*dl = &a->dl;
	struct list	*l = v->list;
	char		 right[200], extra[256], net[48];
	const char	*pat = "", *label = "";
	int		 rw, avail, pw, fw = 0;

	dl_reset(dl);
	right[0] = extra[0] = '\0';
	fetched(a, net, sizeof net);
	if (v->ops->status != NULL)
		v->ops->status(v, extra, sizeof extra);
	if (l != NULL && extra[0] == '\0') {
		if (l->n_rows == 0)
			snprintf(right, sizeof right, "%s0 rows", net);
		else
			snprintf(right, sizeof right, "%s%llu/%llu %3d%%", net,
			    (unsigned long long)l->cur + 1,
			    (unsigned long long)l->n_rows,
			    (int)((l->cur + 1) * 100 / l->n_rows));
	} else
		snprintf(right, sizeof right, "%s%s", net, extra);
	/* A narrow title bar names the current tab already. */
	if (w >= TITLE_NARROW_W)
		dl_printf(dl, S_STATUS, " [%s] ", app_tabs[a->tab].name);
	else
		dl_puts(dl, S_STATUS, " ");
	rw = (int)strlen(right) + 1;
	avail = w - dl->cols - rw - 1;
	/* The filter before the title: it is what explains the rows. */
	if (l != NULL && l->filter != NULL) {
		pat = re_pattern(l->filter);
		pw = text_width(pat, strlen(pat), DT_KEEPBS, avail);
		label = avail - pw - 11 >= 10 ? "  filter /" : " /";
		fw = (int)strlen(label) + pw + 1;
		if (fw > avail * 2 / 3)
			fw = avail * 2 / 3;
	}
	dl_text(dl, S_STATUS, v->title, strlen(v->title), 0, avail - fw,
	    DT_KEEPBS | DT_MIDDLE);
	if (fw > (int)strlen(label) + 1) {
		dl_puts(dl, S_STATUS, label);
		dl_text(dl, S_STATUS, pat, strlen(pat), 0,
		    fw - (int)strlen(label) - 1, DT_KEEPBS | DT_MIDDLE);
		dl_puts(dl, S_STATUS, "/");
	}
	dl_pad(dl, S_STATUS, w - rw);
	dl_puts(dl, S_STATUS, right);
	draw_dline(y, dl, w, S_STATUS, 0);
}

/* The prompt: its label, then the line libedit holds, scrolled so that
   the cursor shows. */
static void
draw_prompt(struct app *a, int y, int w)
{
	struct dline	*dl = &a->dl;
	const char	*s;
	size_t		 len, cur, off = 0;
	int		 cx, room;

	dl_reset(dl);
	dl_puts(dl, S_KEY, a->ask_label);
	prompt_line(a->pr, &s, &len, &cur);
	room = w - dl->cols - 1;
	while (off < cur && text_width(s + off, cur - off, DT_KEEPBS, w) >
	    room - 1)
		off++;
	while (off < cur && ((unsigned char)s[off] & 0xc0) == 0x80)
		off++;
	cx = dl->cols + text_width(s + off, cur - off, DT_KEEPBS, w);
	dl_text(dl, prompt_selected(a->pr) ? S_CURSOR : S_NORMAL, s + off,
	    len - off, 0, room, DT_KEEPBS);
	draw_dline(y, dl, w, S_NORMAL, 0);
	move(y, cx < w ? cx : w - 1);
	curs_set(1);
}

/*
 * A hint of the message line, after the others: the first key of the
 * table that does act in view v, and what it does. Nothing if no key
 * does it here, or if it would go past column lim (a hint is whole or
 * not there).
 */
static void
hint(struct dline *dl, struct view *v, enum tui_action act,
    const char *what, int lim)
{
	char	kb[16];
	size_t	i;
	int	need;

	for (i = 0; i < keys_count; i++) {
		if (keys_table[i].action != act ||
		    keys_lookup(v->scopes, keys_table[i].key) != act)
			continue;
		keys_name(keys_table[i].key, kb, sizeof kb);
		need = (dl->cols > 0 ? 2 : 0) + (int)strlen(kb) + 1 +
		    (int)strlen(what);
		if (dl->cols + need > lim)
			return;
		if (dl->cols > 0)
			dl_puts(dl, S_DIM, "  ");
		dl_puts(dl, S_KEY, kb);
		dl_printf(dl, S_DIM, " %s", what);
		return;
	}
}

static void
draw_message(struct app *a, struct view *v, int y, int w)
{
	struct dline	*dl = &a->dl;
	const char	*back;
	int		 lim;

	dl_reset(dl);
	if (a->in_prompt) {
		draw_prompt(a, y, w);
		return;
	}
	curs_set(0);
	if (a->msg[0] != '\0') {
		dl_text(dl, a->msg_err ? S_ERROR : S_OK, a->msg,
		    strlen(a->msg), 0, w, DT_KEEPBS);
		draw_dline(y, dl, w, S_NORMAL, 0);
		return;
	}
	if (a->disk_changed) {
		/* Until the file is opened again, instead of the hints. */
		dl_text(dl, S_ERROR, a->disk_msg, strlen(a->disk_msg), 0,
		    w - dl->cols - 10 > 0 ? w - dl->cols - 10 : 0, DT_KEEPBS);
		dl_puts(dl, S_KEY, "  :e");
		dl_puts(dl, S_DIM, " reload");
		draw_dline(y, dl, w, S_NORMAL, 0);
		return;
	}
	if (a->model_bad > 0) {
		/* Until the edits are fixed or undone, instead of the hints. */
		dl_puts(dl, S_ERROR, "llama.cpp would refuse the result: ");
		dl_text(dl, S_ERROR, a->model_msg, strlen(a->model_msg), 0,
		    w - dl->cols - 12 > 0 ? w - dl->cols - 12 : 0, DT_KEEPBS);
		dl_puts(dl, S_KEY, "  D");
		dl_puts(dl, S_DIM, " why");
		draw_dline(y, dl, w, S_NORMAL, 0);
		return;
	}
	/*
	 * Hints: the keys a newcomer needs in this view, each named by the
	 * key table (one that does something else here is not hinted).
	 */
	back = a->depth[a->tab] > 1 ? "back" : "quit";
	lim = w - 8;		/* room for the last, "  q back" */
	hint(dl, v, ACT_HELP, "help", lim);
	if (v->scopes & SC_PAGER) {
		hint(dl, v, ACT_PGDN, "page", lim);
		hint(dl, v, ACT_SEARCH, "search", lim);
		hint(dl, v, ACT_WRAP, "wrap", lim);
		if (strcmp(v->ops->name, "template") == 0)
			hint(dl, v, ACT_RENDER, "render", lim);
		else if (strcmp(v->ops->name, "rendering") == 0) {
			hint(dl, v, ACT_SAMPLE, "sample", lim);
			hint(dl, v, ACT_GEN_PROMPT, "gen. prompt", lim);
		}
	} else if ((v->scopes & SC_PREVIEW) && !(v->scopes & SC_LIST)) {
		hint(dl, v, ACT_FORMAT, "format", lim);
		hint(dl, v, ACT_HEAT, "heat", lim);
		hint(dl, v, ACT_BLOCKS, "blocks", lim);
		hint(dl, v, ACT_STATS, "stats", lim);
	} else if (v->scopes & SC_PREVIEW) {
		/* The block view: a list of blocks, wider than the screen. */
		hint(dl, v, ACT_SEARCH, "search", lim);
		hint(dl, v, ACT_RIGHT, "scroll", lim);
		hint(dl, v, ACT_BLOCKS, "values", lim);
		hint(dl, v, ACT_STATS, "stats", lim);
	} else {
		hint(dl, v, ACT_SEARCH, "search", lim);
		hint(dl, v, ACT_FILTER, "filter", lim);
		hint(dl, v, ACT_OPEN, "open", lim);
		hint(dl, v, ACT_NEXT_VIEW, "views", lim);
	}
	hint(dl, v, ACT_BACK, back, w);
	draw_dline(y, dl, w, S_NORMAL, 0);
}

/*
 * While a question is asked, the status line says what the answer must
 * be: the error of the last try, the hint for what is typed (the token
 * an id names), or the candidates of an ambiguous completion.
 */
static int
draw_prompt_status(struct app *a, int y, int w)
{
	struct dline	*dl = &a->dl;
	const char	*s, *c;
	size_t		 len, cur;
	char		*line;
	int		 slot = S_STATUS;

	if (!a->in_prompt)
		return 0;
	c = prompt_candidates(a->pr);
	a->hint[0] = '\0';
	if (a->ask.hint != NULL) {
		prompt_line(a->pr, &s, &len, &cur);
		line = xcalloc(1, len + 1);
		memcpy(line, s, len);
		a->ask.hint(a, a->ask.arg, line, a->hint, sizeof a->hint);
		free(line);
	}
	/* Why the last Enter was refused, over the hint, until a key. */
	if (*c != '\0')
		s = c;
	else if (a->msg[0] != '\0' && a->msg_err) {
		s = a->msg;
		slot = S_ERROR;
	} else if (a->hint[0] != '\0')
		s = a->hint;
	else if (a->msg[0] != '\0') {
		s = a->msg;
		slot = a->msg_err ? S_ERROR : S_STATUS;
	} else
		return 0;
	dl_reset(dl);
	dl_puts(dl, slot, " ");
	dl_text(dl, slot, s, strlen(s), 0, w - 2, DT_KEEPBS);
	draw_dline(y, dl, w, slot, 0);
	return 1;
}

/* The columns p[0..n) takes on the screen, escaped as a box shows it. */
static int
box_width(struct dline *m, const char *p, size_t n)
{
	dl_reset(m);
	return dl_text(m, S_NORMAL, p, n, 0, INT_MAX / 2, DT_KEEPBS);
}

/*
 * The row of a box's text line p[0..n) that starts at *i: *end is where
 * it ends, *i moves to where the next one starts. The row breaks at the
 * last space that lets it fit in w columns; a word longer than a row is
 * broken where the row is full (never inside a character or an escape).
 */
static void
box_row(struct dline *m, const char *p, size_t n, size_t *i, size_t *end,
    int w)
{
	size_t	s = *i, e, fit = s;

	if (s >= n) {
		*end = *i = n;
		return;
	}
	for (e = s; e < n; e++) {
		if (p[e] != ' ')
			continue;
		if (box_width(m, p + s, e - s) > w)
			break;
		fit = e;
	}
	if (e >= n && box_width(m, p + s, n - s) <= w)
		fit = n;
	if (fit == s) {
		/* No space to break at: as many characters as fit. */
		for (e = s + 1; e <= n; e++) {
			if (e < n && ((unsigned char)p[e] & 0xc0) == 0x80)
				continue;
			if (box_width(m, p + s, e - s) > w)
				break;
			fit = e;
		}
		if (fit == s)		/* not even one: take it anyway */
			for (fit = s + 1; fit < n &&
			    ((unsigned char)p[fit] & 0xc0) == 0x80; fit++)
				;
	}
	*end = fit;
	while (fit < n && p[fit] == ' ')
		fit++;
	*i = fit;
}

/*
 * A box in the middle of the screen: text lines split at \n, each wrapped
 * at spaces to the width of the box, which grows down as far as the
 * screen lets it.
 */
static void
draw_box(struct app *a, const char *title, const char *text, int slot, int w,
    int h)
{
	struct dline	*dl = &a->dl, m;
	const char	*p, *nl;
	size_t		 n, i, end;
	int		 rows = 0, bw, bh, x0, y0, y;

	bw = w - 4 < 76 ? w - 4 : 76;
	dl_init(&m);
	for (p = text; p != NULL; p = nl != NULL ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		n = nl != NULL ? (size_t)(nl - p) : strlen(p);
		i = 0;
		do {
			box_row(&m, p, n, &i, &end, bw - 4);
			rows++;
		} while (i < n);
	}
	bh = rows + 4 < h - 2 ? rows + 4 : h - 2;
	x0 = (w - bw) / 2;
	y0 = (h - bh) / 2;
	for (y = 0; y < bh; y++) {
		/*
		 * The rows beside the box are blanked: a cut row's ellipsis
		 * in the last column read as part of the box.
		 */
		attrset(A_NORMAL);
		mvhline(y0 + y, 0, ' ', x0);
		mvhline(y0 + y, x0 + bw, ' ', w - x0 - bw);
		attrset(draw_attr(slot));
		mvhline(y0 + y, x0, ' ', bw);
	}
	mvaddnstr(y0, x0 + 2, title, bw - 4);
	y = y0 + 2;
	for (p = text; p != NULL && y < y0 + bh - 1;
	    p = nl != NULL ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		n = nl != NULL ? (size_t)(nl - p) : strlen(p);
		i = 0;
		do {
			size_t	s = i;

			box_row(&m, p, n, &i, &end, bw - 4);
			dl_reset(dl);
			dl_text(dl, slot, p + s, end - s, 0, bw - 4,
			    DT_KEEPBS);
			move(y, x0 + 2);
			attrset(draw_attr(slot));
			addnstr(dl->s, (int)dl->len);
			y++;
		} while (i < n && y < y0 + bh - 1);
	}
	dl_free(&m);
	attrset(A_NORMAL);
}

static void
draw_progress(struct app *a, int w, int h)
{
	char		 text[512], bar[128], d1[32], d2[32], eta[32];
	const char	*links;
	double		 secs = (app_now_ms() - a->save_t0) / 1e3, rate, frac;
	int		 bw = (w - 4 < 76 ? w - 4 : 76) - 4, k, fill;

	frac = a->save_total > 0 ? (double)a->save_done / a->save_total : 0;
	if (bw > (int)sizeof bar - 1)
		bw = (int)sizeof bar - 1;
	fill = (int)(frac * bw);
	for (k = 0; k < bw; k++)
		bar[k] = k < fill ? '#' : '.';
	bar[bw] = '\0';
	rate = secs > 0 ? (double)a->save_done / secs : 0;
	if (rate > 0 && a->save_total > a->save_done)
		snprintf(eta, sizeof eta, "%.0f s",
		    (double)(a->save_total - a->save_done) / rate);
	else
		snprintf(eta, sizeof eta, "-");
	links = a->save_links != NULL ? a->save_links : "";
	snprintf(text, sizeof text, "%s\n%s of %s  %.1f MB/s  ETA %s\n\n"
	    "Esc cancels: the file stays as it was%s%s", bar,
	    gguf_fmt_size(a->save_done, d1, sizeof d1),
	    gguf_fmt_size(a->save_total, d2, sizeof d2), rate / 1e6, eta,
	    *links != '\0' ? "\n" : "", links);
	draw_box(a, a->save_how, text, S_TAB_CUR, w, h);
}

void
frame_draw(struct app *a)
{
	struct view	*v = app_cur_view(a);
	int		 w = COLS, h = LINES;
	const char	*m = "terminal too small";
	const char	*wait = "keys wait for it";

	/* Counted once the view is made: one made for the first frame
	   may put work off until it is drawn (app_later). */
	a->frames++;
	erase();
	if (w < MIN_COLS || h < MIN_ROWS) {
		curs_set(0);
		attrset(A_BOLD);
		if (w > 0 && h > 0) {
			mvaddnstr(h / 2, w > (int)strlen(m) ?
			    (w - (int)strlen(m)) / 2 : 0, m, w);
			if (h / 2 + 1 < h) {
				char	need[48];

				snprintf(need, sizeof need, "(%dx%d, need %dx%d)",
				    w, h, MIN_COLS, MIN_ROWS);
				mvaddnstr(h / 2 + 1, w > (int)strlen(need) ?
				    (w - (int)strlen(need)) / 2 : 0, need, w);
			}
			/* app_input drops them */
			if (h / 2 + 2 < h)
				mvaddnstr(h / 2 + 2, w > (int)strlen(wait) ?
				    (w - (int)strlen(wait)) / 2 : 0, wait, w);
		}
		attrset(A_NORMAL);
		wnoutrefresh(stdscr);
		doupdate();
		return;
	}
	draw_title(a, w);
	if (v->ops->draw != NULL)
		v->ops->draw(v, 1, h - 3, w);
	else if (v->list != NULL)
		list_draw(v->list, a, 1, h - 3, w);
	if (!draw_prompt_status(a, h - 2, w))
		draw_status(a, v, h - 2, w);
	if (a->dlg_on == 1)
		draw_box(a, "ggufed", a->dlg_text, S_TAB_CUR, w, h);
	else if (a->dlg_on == 2)
		draw_box(a, "Error", a->dlg_text, S_ERROR, w, h);
	if (a->saving)
		draw_progress(a, w, h);
	draw_message(a, v, h - 1, w);
	wnoutrefresh(stdscr);
	doupdate();
}
