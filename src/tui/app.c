/*
 * app.c - the browser's loop: input, dispatch, and the frame.
 *
 * The screen is three bands: a title bar (program, the top views as tabs,
 * the file name), the current view's body, then two lines at the bottom:
 * the view's status line (where it is, what it shows, position) and the
 * message line, which doubles as the prompt for searches, filters and
 * jumps, as in vim, less and tig.
 *
 * Each top view (Summary, Metadata, Tokenizer, Tensors) has a stack of the
 * views opened from it (pager, array list, tensor preview, help); Tab and
 * the number keys switch stacks, q pops. A view is created the first time
 * it is shown and keeps its place until the program ends.
 *
 * A key goes through the key table to an action; the action is offered to
 * the view, then to the view's list, then handled here. Handlers return
 * R_* flags and never draw: the frame is drawn once per input, from state,
 * which is also what makes KEY_RESIZE trivial.
 *
 * Script mode: with GGUFED_SCRIPT=FILE in the environment, the terminal is
 * not used at all: curses renders into a virtual screen (its output goes
 * to /dev/null) and keys come from FILE, one command per line:
 *
 *	size 80x24		the size of the virtual screen
 *	keys jj<Enter>		keys; <Name> for Up Down Left Right PgUp PgDn
 *				Home End Enter Esc Tab S-Tab Space F1 C-x
 *	type some text		each character as a key, spaces included
 *	click Y X / dclick Y X / wheel up|down Y X
 *	wait			until background work of the view is done
 *	dump FILE		the screen as text (what capture-pane shows)
 *	dumpattr FILE		the screen's theme slots, one letter a cell
 *	bench N KEYS		press KEYS N times; report the time per key
 *	# comment
 *
 * This is how the screen tests and `make bench` drive the real program
 * without a terminal, in the manner of tig's TIG_SCRIPT.
 */
#include "config.h"

#include <sys/wait.h>

#include <errno.h>
#include <langinfo.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <wchar.h>

#include "curses.h"
#include "tui.h"

#define MIN_COLS	40
#define MIN_ROWS	10
#define N_TABS		4
#define MAX_DEPTH	16

enum search_kind { K_SEARCH, K_SEARCH_BACK, K_FILTER };

struct app {
	struct gguf_doc	*doc;
	char		*path;		/* the document's file */
	struct view	*stk[N_TABS][MAX_DEPTH];
	int		 depth[N_TABS];	/* views in each stack, 0: not made */
	int		 tab;
	char		 msg[512];
	int		 msg_err;
	struct re	*search;
	int		 search_dir;
	int		 quit;
	struct dline	 dl;

	/* The question to ask, and the one being asked. */
	struct prompt	*pr;
	struct ask	 ask;
	char		*ask_label;
	char		*ask_init;
	int		 ask_pending;
	int		 in_prompt;
	char		 hint[256];

	/* A dialog: a choice between keys, or an error. */
	char		 dlg_text[1024];
	char		 dlg_keys[16];
	int		 dlg_on;	/* 1 choice, 2 error */
	choose_fn	 dlg_fn;
	void		*dlg_arg;
	void		(*dlg_free)(void *);

	/* Work for the loop: the external editor, a save. */
	char		*ed_key;
	int64_t		 ed_elem;
	int		 ed_pending;
	char		*save_path;
	int		 save_force;
	int		 save_quit;
	int		 save_pending;
	/* The save under way. */
	int		 saving;
	const char	*save_how;
	double		 save_t0;
	double		 save_drawn;
	uint64_t	 save_done;
	uint64_t	 save_total;

	SCREEN		*scr;
	FILE		*tty_out;
	FILE		*tty_in;
	FILE		*script;
	const char	*script_path;
	int		 jobs_held;	/* script mode: jobs wait for `wait` */
	unsigned	 script_line;
	int		 script_err;
	char		 pending[1024];	/* script keys not read yet */
	size_t		 ppos;
	int		 typing;
};

static double	now_ms(void);

static const char *const tab_names[N_TABS] = {
	"Summary", "Metadata", "Tokenizer", "Tensors"
};

/* ---------------------------------------------------------- allocation */

static void
oom(void)
{
	if (!isendwin())
		endwin();
	fputs("ggufed: out of memory\n", stderr);
	exit(1);
}

void *
xcalloc(size_t n, size_t size)
{
	void	*p;

	if (n == 0 || size == 0)
		n = size = 1;
	if ((p = calloc(n, size)) == NULL)
		oom();
	return p;
}

void *
xreallocarray(void *p, size_t n, size_t size)
{
	void	*q;

	if (size != 0 && n > SIZE_MAX / size)
		oom();
	if ((q = realloc(p, n * size == 0 ? 1 : n * size)) == NULL)
		oom();
	return q;
}

char *
xstrdup(const char *s)
{
	char	*p = strdup(s);

	if (p == NULL)
		oom();
	return p;
}

/* --------------------------------------------------------------- views */

struct view *
view_new(struct app *a, const struct view_ops *ops, unsigned scopes,
    void *priv)
{
	struct view	*v = xcalloc(1, sizeof *v);

	v->ops = ops;
	v->app = a;
	v->scopes = scopes;
	v->priv = priv;
	return v;
}

static void
view_free(struct view *v)
{
	if (v == NULL)
		return;
	if (v->ops->free != NULL)
		v->ops->free(v);
	free(v);
}

struct gguf_file *
app_file(struct app *a)
{
	return gguf_doc_file(a->doc);
}

struct gguf_doc *
app_doc(struct app *a)
{
	return a->doc;
}

const char *
app_path(struct app *a)
{
	return a->path;
}

struct re *
app_search_re(struct app *a)
{
	return a->search;
}

int
app_jobs_held(struct app *a)
{
	return __atomic_load_n(&a->jobs_held, __ATOMIC_ACQUIRE);
}

void
app_msg(struct app *a, int error, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(a->msg, sizeof a->msg, fmt, ap);
	va_end(ap);
	a->msg_err = error;
}

static int
has_tab(struct app *a, int t)
{
	return t != 2 || mdl_get(a, "tokenizer.ggml.tokens") != NULL;
}

static struct view *
cur_view(struct app *a)
{
	int	t = a->tab;

	if (a->depth[t] == 0) {
		switch (t) {
		case 0:
			a->stk[t][0] = view_summary_new(a);
			break;
		case 1:
			a->stk[t][0] = view_meta_new(a);
			break;
		case 2:
			a->stk[t][0] = view_tokens_new(a);
			break;
		default:
			a->stk[t][0] = view_tensors_new(a);
		}
		a->depth[t] = 1;
	}
	/* depth is at least 1 here: set just above when it was 0. */
	/* cppcheck-suppress negativeIndex */
	return a->stk[t][a->depth[t] - 1];
}

void
app_push(struct app *a, struct view *v)
{
	int	t = a->tab;

	if (a->depth[t] >= MAX_DEPTH) {
		app_msg(a, 1, "too many views open");
		view_free(v);
		return;
	}
	a->stk[t][a->depth[t]++] = v;
}

static void
pop(struct app *a)
{
	int	t = a->tab;

	if (a->depth[t] > 1)
		view_free(a->stk[t][--a->depth[t]]);
}

static void
switch_tab(struct app *a, int t)
{
	if (t < 0 || t >= N_TABS)
		return;
	if (!has_tab(a, t)) {
		app_msg(a, 1, "no tokenizer.ggml.tokens in this file");
		return;
	}
	a->tab = t;
}

/*
 * The document changed: every view re-reads it. A view that cannot (a
 * pager over a value that is gone) is closed with the views above it; a
 * top view without a refresh is made again, keeping its place.
 */
static void
refresh_views(struct app *a)
{
	struct view	*v, *nv;
	uint64_t	 cur = 0, top = 0;
	int		 t, d, k, has_list;

	for (t = 0; t < N_TABS; t++) {
		if (a->depth[t] == 0)
			continue;
		for (d = 1; d < a->depth[t]; d++) {
			v = a->stk[t][d];
			if (v->ops->reload == NULL || v->ops->reload(v) != 0) {
				for (k = a->depth[t] - 1; k >= d; k--)
					view_free(a->stk[t][k]);
				a->depth[t] = d;
				break;
			}
		}
		v = a->stk[t][0];
		if (v->ops->reload != NULL && v->ops->reload(v) == 0)
			continue;
		if ((has_list = v->list != NULL)) {
			cur = v->list->cur;
			top = v->list->top;
		}
		switch (t) {
		case 0:
			nv = view_summary_new(a);
			break;
		case 1:
			nv = view_meta_new(a);
			break;
		case 2:
			nv = view_tokens_new(a);
			break;
		default:
			nv = view_tensors_new(a);
		}
		if (has_list && nv->list != NULL && nv->list->n_rows > 0) {
			nv->list->cur = cur < nv->list->n_rows ? cur :
			    nv->list->n_rows - 1;
			nv->list->top = top <= nv->list->cur ? top :
			    nv->list->cur;
		}
		view_free(v);
		a->stk[t][0] = nv;
	}
	if (!has_tab(a, a->tab))
		a->tab = 1;
}

/* After a save the document is another one: every view is made again. */
static void
reset_views(struct app *a)
{
	struct view	*v;
	uint64_t	 cur = 0, top = 0;
	int		 t, d, has_list = 0;

	if (a->depth[a->tab] > 0 && (v = a->stk[a->tab][0])->list != NULL) {
		has_list = 1;
		cur = v->list->cur;
		top = v->list->top;
	}
	for (t = 0; t < N_TABS; t++) {
		for (d = a->depth[t]; d > 0; d--)
			view_free(a->stk[t][d - 1]);
		a->depth[t] = 0;
	}
	if (!has_tab(a, a->tab))
		a->tab = 1;
	v = cur_view(a);
	if (has_list && v->list != NULL && v->list->n_rows > 0) {
		v->list->cur = cur < v->list->n_rows ? cur :
		    v->list->n_rows - 1;
		v->list->top = top <= v->list->cur ? top : v->list->cur;
	}
}

/* What the loop does with a handler's flags. */
static void
apply_flags(struct app *a, int r)
{
	if (r & R_POP)
		pop(a);
	if (r & R_EDITED)
		refresh_views(a);
	if (r & R_QUIT)
		a->quit = 1;
}

/* -------------------------------------------------------------- frame */

static void
draw_title(struct app *a, int w)
{
	struct dline	*dl = &a->dl;
	const char	*base;
	int		 t, start;

	dl_reset(dl);
	dl_puts(dl, S_TITLE, " ggufed ");
	for (t = 0; t < N_TABS; t++) {
		if (!has_tab(a, t))
			continue;
		dl_printf(dl, t == a->tab ? S_TAB_CUR : S_TAB, " %d %s ", t + 1,
		    tab_names[t]);
	}
	base = strrchr(a->path, '/');
	base = base != NULL ? base + 1 : a->path;
	start = dl->cols + 2;
	if (w - start > 4) {
		int	fw = text_width(base, strlen(base), 0, w);

		if (fw > w - start - 1)
			fw = w - start - 1;
		dl_pad(dl, S_TITLE, w - fw - 1);
		dl_text(dl, S_TITLE, base, strlen(base), 0, fw, 0);
	}
	draw_dline(0, dl, w, S_TITLE, 0);
}

static void
draw_status(struct app *a, struct view *v, int y, int w)
{
	struct dline	*dl = &a->dl;
	struct list	*l = v->list;
	char		 right[160], extra[256];
	int		 rw;

	dl_reset(dl);
	right[0] = extra[0] = '\0';
	if (v->ops->status != NULL)
		v->ops->status(v, extra, sizeof extra);
	if (l != NULL && extra[0] == '\0') {
		if (l->n_rows == 0)
			snprintf(right, sizeof right, "0 rows");
		else
			snprintf(right, sizeof right, "%llu/%llu %3d%%",
			    (unsigned long long)l->cur + 1,
			    (unsigned long long)l->n_rows,
			    (int)((l->cur + 1) * 100 / l->n_rows));
	} else
		snprintf(right, sizeof right, "%s", extra);
	dl_printf(dl, S_STATUS, " [%s] ", tab_names[a->tab]);
	rw = (int)strlen(right) + 1;
	dl_text(dl, S_STATUS, v->title, strlen(v->title), 0,
	    w - dl->cols - rw - 1, DT_KEEPBS);
	if (l != NULL && l->filter != NULL) {
		dl_puts(dl, S_STATUS, "  filter /");
		dl_text(dl, S_STATUS, re_pattern(l->filter),
		    strlen(re_pattern(l->filter)), 0, w - dl->cols - rw - 2,
		    DT_KEEPBS);
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
	dl_text(dl, S_NORMAL, s + off, len - off, 0, room, DT_KEEPBS);
	draw_dline(y, dl, w, S_NORMAL, 0);
	move(y, cx < w ? cx : w - 1);
	curs_set(1);
}

static void
draw_message(struct app *a, struct view *v, int y, int w)
{
	struct dline	*dl = &a->dl;

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
	/* Hints: the keys a newcomer needs, from the key table's actions. */
	dl_puts(dl, S_KEY, "F1");
	dl_puts(dl, S_DIM, " help  ");
	if (v->scopes & SC_LIST) {
		dl_puts(dl, S_KEY, "/");
		dl_puts(dl, S_DIM, " search  ");
		dl_puts(dl, S_KEY, "f");
		dl_puts(dl, S_DIM, " filter  ");
	}
	dl_puts(dl, S_KEY, "Enter");
	dl_puts(dl, S_DIM, " open  ");
	dl_puts(dl, S_KEY, "Tab");
	dl_puts(dl, S_DIM, " views  ");
	dl_puts(dl, S_KEY, "q");
	dl_puts(dl, S_DIM, a->depth[a->tab] > 1 ? " back" : " quit");
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
	if (*c != '\0')
		s = c;
	else if (a->hint[0] != '\0')
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

/* A box in the middle of the screen: text lines split at \n. */
static void
draw_box(struct app *a, const char *title, const char *text, int slot, int w,
    int h)
{
	struct dline	*dl = &a->dl;
	const char	*p, *nl;
	int		 lines = 0, bw, bh, x0, y0, y;

	for (p = text; p != NULL; p = nl != NULL ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		lines++;
	}
	bw = w - 4 < 76 ? w - 4 : 76;
	bh = lines + 4 < h - 2 ? lines + 4 : h - 2;
	x0 = (w - bw) / 2;
	y0 = (h - bh) / 2;
	attrset(draw_attr(slot));
	for (y = 0; y < bh; y++) {
		mvhline(y0 + y, x0, ' ', bw);
	}
	mvaddnstr(y0, x0 + 2, title, bw - 4);
	y = y0 + 2;
	for (p = text; p != NULL && y < y0 + bh - 1;
	    p = nl != NULL ? nl + 1 : NULL, y++) {
		nl = strchr(p, '\n');
		dl_reset(dl);
		dl_text(dl, slot, p, nl != NULL ? (size_t)(nl - p) : strlen(p),
		    0, bw - 4, DT_KEEPBS);
		move(y, x0 + 2);
		attrset(draw_attr(slot));
		addnstr(dl->s, (int)dl->len);
	}
	attrset(A_NORMAL);
}

static void
draw_progress(struct app *a, int w, int h)
{
	char		 text[512], bar[128], d1[32], d2[32], eta[32];
	double		 secs = (now_ms() - a->save_t0) / 1e3, rate, frac;
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
	snprintf(text, sizeof text, "%s\n%s of %s  %.1f MB/s  ETA %s\n\n"
	    "Esc cancels: the file stays as it was", bar,
	    gguf_fmt_size(a->save_done, d1, sizeof d1),
	    gguf_fmt_size(a->save_total, d2, sizeof d2), rate / 1e6, eta);
	draw_box(a, a->save_how, text, S_TAB_CUR, w, h);
}

static void
draw_frame(struct app *a)
{
	struct view	*v = cur_view(a);
	int		 w = COLS, h = LINES;
	const char	*m = "terminal too small";

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

/* ------------------------------------------------------------ questions */

void
app_ask(struct app *a, const struct ask *q)
{
	/* A question asked while another is pending replaces it. */
	if (a->ask_pending && a->ask.arg != q->arg && a->ask.arg_free != NULL)
		a->ask.arg_free(a->ask.arg);
	free(a->ask_label);
	free(a->ask_init);
	a->ask = *q;
	a->ask_label = xstrdup(q->label);
	a->ask_init = q->init != NULL ? xstrdup(q->init) : NULL;
	a->ask_pending = 1;
}

void
app_choose(struct app *a, const char *text, const char *keys, choose_fn fn,
    void *arg, void (*arg_free)(void *))
{
	if (a->dlg_on == 1 && a->dlg_arg != arg && a->dlg_free != NULL)
		a->dlg_free(a->dlg_arg);
	snprintf(a->dlg_text, sizeof a->dlg_text, "%s", text);
	snprintf(a->dlg_keys, sizeof a->dlg_keys, "%s", keys);
	a->dlg_fn = fn;
	a->dlg_arg = arg;
	a->dlg_free = arg_free;
	a->dlg_on = 1;
}

void
app_error(struct app *a, const char *fmt, ...)
{
	va_list	ap;

	if (a->dlg_on == 1 && a->dlg_free != NULL)
		a->dlg_free(a->dlg_arg);
	a->dlg_fn = NULL;
	a->dlg_arg = NULL;
	a->dlg_free = NULL;
	va_start(ap, fmt);
	vsnprintf(a->dlg_text, sizeof a->dlg_text, fmt, ap);
	va_end(ap);
	snprintf(a->dlg_text + strlen(a->dlg_text), sizeof a->dlg_text -
	    strlen(a->dlg_text), "\n\n(any key)");
	a->dlg_on = 2;
}

void
app_run_editor(struct app *a, const char *key, int64_t elem)
{
	free(a->ed_key);
	a->ed_key = xstrdup(key);
	a->ed_elem = elem;
	a->ed_pending = 1;
}

void
app_save(struct app *a, const char *path, int force, int quit)
{
	free(a->save_path);
	a->save_path = path != NULL ? xstrdup(path) : NULL;
	a->save_force = force;
	a->save_quit = quit;
	a->save_pending = 1;
}

static int
quit_choice(struct app *a, void *arg, int key)
{
	(void)arg;
	switch (key) {
	case 's':
		app_save(a, NULL, 0, 1);
		return R_DRAW;
	case 'd':
		return R_QUIT;
	}
	app_msg(a, 0, "not quitting");
	return R_DRAW;
}

int
app_quit(struct app *a, int ask)
{
	unsigned	n;

	if (!ask || (n = mdl_n_changes(a)) == 0)
		return R_QUIT;
	app_choose(a, n == 1 ? "There is 1 unsaved change.\n\n"
	    "[s]ave and quit, [d]iscard it and quit, [c]ancel" :
	    "There are unsaved changes.\n\n"
	    "[s]ave and quit, [d]iscard them and quit, [c]ancel", "sdc",
	    quit_choice, NULL, NULL);
	return R_DRAW;
}

static int
do_search(struct app *a, struct view *v, int dir, int skip_cur)
{
	if (a->search == NULL) {
		app_msg(a, 1, "no previous search");
		return R_DRAW;
	}
	if (v->list == NULL) {
		app_msg(a, 1, "this view cannot be searched");
		return R_DRAW;
	}
	if (!list_search(v->list, a->search, dir, skip_cur))
		app_msg(a, 1, "pattern not found: %s", re_pattern(a->search));
	return R_DRAW;
}

static void
free_kind(void *arg)
{
	free(arg);
}

/* The answer to /, ? and f. */
static int
search_answer(struct app *a, void *arg, const char *line)
{
	struct view	*v = cur_view(a);
	struct re	*re;
	char		 err[300];
	int		 k = *(int *)arg;
	uint64_t	 kept;

	if (line == NULL)
		return R_DRAW;
	if (k == K_FILTER && *line == '\0') {
		if (v->list != NULL)
			list_set_filter(v->list, NULL);
		return R_DRAW;
	}
	if (*line == '\0') {
		/* An empty search repeats the last one, as in less and vim. */
		if (a->search == NULL)
			return R_DRAW;
		a->search_dir = k == K_SEARCH_BACK ? -1 : 1;
		return do_search(a, v, a->search_dir, 1);
	}
	re = re_compile(line, err, sizeof err);
	if (re == NULL) {
		app_msg(a, 1, "%s", err);
		return R_DRAW;
	}
	if (k == K_FILTER) {
		if (v->list == NULL) {
			re_free(re);
			return R_DRAW;
		}
		kept = list_set_filter(v->list, re);
		app_msg(a, 0, "%llu of %llu rows match",
		    (unsigned long long)kept,
		    (unsigned long long)v->list->n_items);
		return R_DRAW;
	}
	re_free(a->search);
	a->search = re;
	a->search_dir = k == K_SEARCH_BACK ? -1 : 1;
	return do_search(a, v, a->search_dir, 1);
}

static void
ask_search(struct app *a, int k)
{
	static const char *const labels[] = { "/", "?", "filter: " };
	struct ask	 q;
	int		*arg = xcalloc(1, sizeof *arg);

	*arg = k;
	memset(&q, 0, sizeof q);
	q.label = labels[k];
	q.hist = H_SEARCH;
	q.fn = search_answer;
	q.arg = arg;
	q.arg_free = free_kind;
	app_ask(a, &q);
}

/* `:N` goes to row N (or token, element, line N) of the view. */
int
app_jump(struct app *a, uint64_t n)
{
	struct view	*v = cur_view(a);

	if (v->ops->jump != NULL)
		return v->ops->jump(v, n);
	if (v->list != NULL) {
		v->list->cur = n > 0 ? n - 1 : 0;
		if (v->list->cur >= v->list->n_rows)
			v->list->cur = v->list->n_rows > 0 ?
			    v->list->n_rows - 1 : 0;
	}
	return R_DRAW;
}

static int
command_answer(struct app *a, void *arg, const char *line)
{
	(void)arg;
	if (line == NULL)
		return R_DRAW;
	return edit_command(a, line);
}

static void
ask_command(struct app *a)
{
	struct ask	q;

	memset(&q, 0, sizeof q);
	q.label = ":";
	q.hist = H_CMD;
	q.compl = C_CMD;
	q.fn = command_answer;
	app_ask(a, &q);
}

/* ------------------------------------------------------------ dispatch */

static int
app_action(struct app *a, struct view *v, enum tui_action act)
{
	int	t;

	switch (act) {
	case ACT_BACK:
		if (a->depth[a->tab] > 1)
			return R_POP;
		return app_quit(a, 1);
	case ACT_CANCEL:
		if (v->list != NULL && v->list->filter != NULL) {
			list_set_filter(v->list, NULL);
			app_msg(a, 0, "filter cleared");
			return R_DRAW;
		}
		if (a->depth[a->tab] > 1)
			return R_POP;
		if (a->search != NULL) {
			re_free(a->search);
			a->search = NULL;
		}
		return R_DRAW;
	case ACT_QUIT:
		return app_quit(a, 1);
	case ACT_HELP:
		if (v->ops->name != NULL && strcmp(v->ops->name, "help") == 0)
			return R_POP;
		app_push(a, view_help_new(a));
		return R_DRAW;
	case ACT_REDRAW:
		clearok(curscr, TRUE);
		return R_DRAW;
	case ACT_NEXT_VIEW:
	case ACT_PREV_VIEW:
		t = a->tab;
		do
			t = (t + (act == ACT_NEXT_VIEW ? 1 : N_TABS - 1)) % N_TABS;
		while (!has_tab(a, t));
		switch_tab(a, t);
		return R_DRAW;
	case ACT_VIEW1:
	case ACT_VIEW2:
	case ACT_VIEW3:
	case ACT_VIEW4:
		switch_tab(a, act - ACT_VIEW1);
		return R_DRAW;
	case ACT_SEARCH:
		ask_search(a, K_SEARCH);
		return R_DRAW;
	case ACT_SEARCH_BACK:
		ask_search(a, K_SEARCH_BACK);
		return R_DRAW;
	case ACT_FILTER:
		ask_search(a, K_FILTER);
		return R_DRAW;
	case ACT_JUMP:
	case ACT_COMMAND:
		ask_command(a);
		return R_DRAW;
	case ACT_UNDO:
	case ACT_REDO:
		return edit_undo(a, act == ACT_REDO);
	case ACT_CHANGES:
		if (v->ops->name != NULL && strcmp(v->ops->name, "changes") == 0)
			return R_POP;
		app_push(a, view_changes_new(a));
		return R_DRAW;
	case ACT_SAVE:
		app_save(a, NULL, 0, 0);
		return R_DRAW;
	case ACT_NEXT_MATCH:
		return do_search(a, v, a->search_dir, 1);
	case ACT_PREV_MATCH:
		return do_search(a, v, -a->search_dir, 1);
	default:
		return R_NONE;
	}
}

static int
dispatch(struct app *a, enum tui_action act, const struct tui_input *in)
{
	struct view	*v = cur_view(a);
	int		 r = R_PASS;

	if (v->ops->action != NULL)
		r = v->ops->action(v, act, in);
	if ((r & R_PASS) && v->list != NULL)
		r = list_action(v->list, act, in);
	if (r & R_PASS)
		r = app_action(a, v, act);
	apply_flags(a, r);
	return r;
}

static void
dialog_key(struct app *a, int key)
{
	choose_fn	 fn = a->dlg_fn;
	void		*arg = a->dlg_arg;
	void		(*arg_free)(void *) = a->dlg_free;
	int		 k = key >= 'A' && key <= 'Z' ? key - 'A' + 'a' : key;

	if (a->dlg_on == 2) {
		a->dlg_on = 0;
		return;
	}
	if (k != 0x1b && k != 0x07 && (k <= 0 || k > 0x7f ||
	    strchr(a->dlg_keys, k) == NULL))
		return;
	a->dlg_on = 0;
	apply_flags(a, fn(a, arg, k == 0x1b || k == 0x07 ? 0 : k));
	if (arg_free != NULL && !(a->dlg_on == 1 && a->dlg_arg == arg))
		arg_free(arg);
}

static void
handle_input(struct app *a, const struct tui_input *in)
{
	struct view	*v;
	enum tui_action	 act;

	a->msg[0] = '\0';
	if (a->dlg_on != 0) {
		dialog_key(a, in->key);
		return;
	}
	v = cur_view(a);
	if (in->key == TK_MOUSE) {
		if (in->bstate & BUTTON4_PRESSED)
			dispatch(a, ACT_WHEEL_UP, in);
#ifdef BUTTON5_PRESSED
		else if (in->bstate & BUTTON5_PRESSED)
			dispatch(a, ACT_WHEEL_DN, in);
#endif
		else if (in->bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED |
		    BUTTON1_DOUBLE_CLICKED)) {
			dispatch(a, ACT_CLICK, in);
			if (in->bstate & BUTTON1_DOUBLE_CLICKED)
				dispatch(a, ACT_OPEN, in);
		}
		return;
	}
	act = keys_lookup(v->scopes, in->key);
	if (act != ACT_NONE)
		dispatch(a, act, in);
}

static int
tick(struct app *a, int *busy)
{
	struct view	*v = cur_view(a);
	int		 r = R_NONE;

	*busy = 0;
	if (v->ops->tick != NULL) {
		r = v->ops->tick(v);
		*busy = (r & R_PASS) != 0;
	}
	return r & R_DRAW;
}

/* ---------------------------------------------------------- script mode */

static int
script_key_name(const char *name, size_t n)
{
	static const struct {
		const char	*name;
		int		 key;
	} names[] = {
		{ "Up", TK_FN | KEY_UP }, { "Down", TK_FN | KEY_DOWN },
		{ "Left", TK_FN | KEY_LEFT }, { "Right", TK_FN | KEY_RIGHT },
		{ "PgUp", TK_FN | KEY_PPAGE }, { "PgDn", TK_FN | KEY_NPAGE },
		{ "Home", TK_FN | KEY_HOME }, { "End", TK_FN | KEY_END },
		{ "Enter", '\n' }, { "Esc", 0x1b }, { "Tab", '\t' },
		{ "S-Tab", TK_FN | KEY_BTAB }, { "Space", ' ' },
		{ "F1", TK_FN | KEY_F(1) }, { "BS", 0x7f }, { "Lt", '<' },
	};
	size_t	i;

	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		if (strlen(names[i].name) == n &&
		    strncmp(names[i].name, name, n) == 0)
			return names[i].key;
	}
	if (n == 3 && name[0] == 'C' && name[1] == '-')
		return name[2] & 0x1f;
	return -1;
}

/* Parses the next key of s at *i: a character or <Name>; -1 at the end. */
static int
script_next_key(const char *s, size_t *i)
{
	const char	*close;
	wchar_t		 wc;
	mbstate_t	 st;
	size_t		 n;
	int		 k;

	if (s[*i] == '\0')
		return -1;
	if (s[*i] == '<' && (close = strchr(s + *i, '>')) != NULL &&
	    close > s + *i + 1) {
		k = script_key_name(s + *i + 1, (size_t)(close - s - *i - 1));
		if (k != -1) {
			*i = (size_t)(close - s) + 1;
			return k;
		}
	}
	memset(&st, 0, sizeof st);
	n = mbrtowc(&wc, s + *i, strlen(s + *i), &st);
	if (n == 0 || n > 4) {
		(*i)++;
		return (unsigned char)s[*i - 1];
	}
	*i += n;
	return (int)wc;
}

static void
dump_screen(const char *path, int attrs)
{
	FILE		*fp;
	cchar_t		 cc;
	wchar_t		 wch[CCHARW_MAX + 1];
	attr_t		 at;
	short		 pair;
	char		 line[4096], mb[MB_LEN_MAX];
	size_t		 len, keep, n;
	mbstate_t	 st;
	int		 y, x, k;

	if ((fp = fopen(path, "w")) == NULL) {
		endwin();
		fprintf(stderr, "ggufed: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	for (y = 0; y < LINES; y++) {
		len = keep = 0;
		for (x = 0; x < COLS; x++) {
			if (mvin_wch(y, x, &cc) == ERR)
				break;
			if (getcchar(&cc, wch, &at, &pair, NULL) == ERR) {
				wch[0] = L' ';
				wch[1] = 0;
			}
			if (attrs) {
				line[len++] = pair == 0 ? '.' : (char)(pair < 27 ?
				    'A' + pair - 1 : 'a' + pair - 27);
				if (pair != 0)
					keep = len;
				if (wch[0] != 0 && wcwidth(wch[0]) == 2) {
					line[len] = line[len - 1];
					len++;
					x++;
				}
				continue;
			}
			memset(&st, 0, sizeof st);
			for (k = 0; k < CCHARW_MAX && wch[k] != 0; k++) {
				n = wcrtomb(mb, wch[k], &st);
				if (n == (size_t)-1) {
					mb[0] = '?';
					n = 1;
				}
				if (len + n < sizeof line) {
					memcpy(line + len, mb, n);
					len += n;
				}
			}
			if (k == 0)
				line[len++] = ' ';
			if (wch[0] != L' ' || k > 1)
				keep = len;
			if (wch[0] != 0 && wcwidth(wch[0]) == 2)
				x++;
		}
		fwrite(line, 1, keep, fp);
		fputc('\n', fp);
	}
	fclose(fp);
}

static double
now_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int
cmp_double(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void
script_fail(struct app *a, const char *what)
{
	if (!isendwin())
		endwin();
	fprintf(stderr, "ggufed: %s:%u: %s\n", a->script_path, a->script_line,
	    what);
	a->script_err = 1;
	a->quit = 1;
}

/*
 * Runs script commands until one produces input, which goes to *in.
 * Returns 0 with input, -1 at the end of the script. Commands that only
 * look (dump) or change the screen (size) are done here.
 */
static int
script_input(struct app *a, struct tui_input *in)
{
	char		*pending = a->pending;
	char		 line[1024], *arg, *nl;
	int		 k, y, x, busy;

	for (;;) {
		if (pending[a->ppos] != '\0') {
			memset(in, 0, sizeof *in);
			if (a->typing) {
				wchar_t		wc;
				mbstate_t	st;
				size_t		n;

				memset(&st, 0, sizeof st);
				n = mbrtowc(&wc, pending + a->ppos,
				    strlen(pending + a->ppos), &st);
				if (n == 0 || n > 4) {
					in->key = (unsigned char)pending[a->ppos++];
				} else {
					in->key = (int)wc;
					a->ppos += n;
				}
				return 0;
			}
			k = script_next_key(pending, &a->ppos);
			if (k == -1)
				continue;
			in->key = k;
			return 0;
		}
		pending[0] = '\0';
		a->ppos = 0;
		if (fgets(line, sizeof line, a->script) == NULL)
			return -1;
		a->script_line++;
		if ((nl = strchr(line, '\n')) != NULL)
			*nl = '\0';
		if (line[0] == '#' || line[0] == '\0')
			continue;
		arg = strchr(line, ' ');
		if (arg != NULL)
			*arg++ = '\0';
		else
			arg = line + strlen(line);
		if (strcmp(line, "keys") == 0 || strcmp(line, "type") == 0) {
			a->typing = line[0] == 't';
			snprintf(pending, sizeof a->pending, "%s", arg);
			a->ppos = 0;
		} else if (strcmp(line, "size") == 0) {
			if (sscanf(arg, "%dx%d", &x, &y) != 2 || x < 1 || y < 1) {
				script_fail(a, "size wants COLSxROWS");
				return -1;
			}
			resizeterm(y, x);
			draw_frame(a);
		} else if (strcmp(line, "dump") == 0 ||
		    strcmp(line, "dumpattr") == 0) {
			draw_frame(a);
			dump_screen(arg, line[4] == 'a');
		} else if (strcmp(line, "wait") == 0) {
			__atomic_store_n(&a->jobs_held, 0, __ATOMIC_RELEASE);
			do {
				tick(a, &busy);
				if (busy) {
					struct timespec ts = { 0, 2000000 };

					nanosleep(&ts, NULL);
				}
			} while (busy);
			__atomic_store_n(&a->jobs_held, 1, __ATOMIC_RELEASE);
			draw_frame(a);
		} else if (strcmp(line, "click") == 0 ||
		    strcmp(line, "dclick") == 0 || strcmp(line, "wheel") == 0) {
			char	dir[8] = "";

			memset(in, 0, sizeof *in);
			in->key = TK_MOUSE;
			if (line[0] == 'w') {
				if (sscanf(arg, "%7s %d %d", dir, &in->y,
				    &in->x) != 3) {
					script_fail(a, "wheel up|down Y X");
					return -1;
				}
				in->bstate = strcmp(dir, "up") == 0 ?
				    BUTTON4_PRESSED : BUTTON5_PRESSED;
			} else {
				if (sscanf(arg, "%d %d", &in->y, &in->x) != 2) {
					script_fail(a, "click Y X");
					return -1;
				}
				in->bstate = line[0] == 'd' ?
				    BUTTON1_DOUBLE_CLICKED : BUTTON1_CLICKED;
			}
			return 0;
		} else if (strcmp(line, "bench") == 0) {
			char		 keys[900];
			double		*t, t0, sum = 0;
			int		 reps, nk = 0, cap = 0, i;
			size_t		 p;
			struct tui_input bi;

			if (sscanf(arg, "%d %899s", &reps, keys) != 2 ||
			    reps < 1) {
				script_fail(a, "bench N KEYS");
				return -1;
			}
			t = NULL;
			for (i = 0; i < reps; i++) {
				for (p = 0; (k = script_next_key(keys, &p)) != -1;) {
					memset(&bi, 0, sizeof bi);
					bi.key = k;
					t0 = now_ms();
					handle_input(a, &bi);
					draw_frame(a);
					if (nk == cap) {
						cap = cap ? cap * 2 : 256;
						t = xreallocarray(t, (size_t)cap,
						    sizeof *t);
					}
					t[nk++] = now_ms() - t0;
				}
			}
			if (nk == 0) {		/* no key in KEYS */
				script_fail(a, "bench N KEYS");
				return -1;
			}
			qsort(t, (size_t)nk, sizeof *t, cmp_double);
			for (i = 0; i < nk; i++)
				sum += t[i];
			fprintf(stderr, "bench %s x%d: %d keys, mean %.3f ms, "
			    "median %.3f ms, p99 %.3f ms, max %.3f ms\n", keys,
			    reps, nk, sum / nk, t[nk / 2],
			    t[(int)floor((nk - 1) * 0.99)], t[nk - 1]);
			free(t);
		} else {
			script_fail(a, "unknown script command");
			return -1;
		}
	}
}

/* ---------------------------------------------------------------- main */

/*
 * Takes the terminal's own size if curses has another: a terminal resized
 * in two steps can leave curses with a size from between them, and a
 * SIGWINCH that lands just before curses blocks in read() is only seen at
 * the next key. Returns 1 if the size changed.
 */
static int
follow_terminal_size(void)
{
	struct winsize	ws;

	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) != 0 || ws.ws_row == 0 ||
	    ws.ws_col == 0 || (ws.ws_row == LINES && ws.ws_col == COLS))
		return 0;
	resizeterm(ws.ws_row, ws.ws_col);
	return 1;
}

/* Idle, the loop still wakes this often to catch a lost resize. */
#define IDLE_WAKE_MS	1000

static int
real_input(struct app *a, struct tui_input *in, int busy)
{
	wint_t	wc;
	MEVENT	me;
	int	rc;

	(void)a;
	timeout(busy ? 50 : IDLE_WAKE_MS);
	rc = get_wch(&wc);
	memset(in, 0, sizeof *in);
	if (rc == ERR)
		return follow_terminal_size() ? 2 : 1;	/* timeout: tick */
	if (rc == KEY_CODE_YES) {
		if (wc == KEY_RESIZE) {
			(void)follow_terminal_size();
			return 2;
		}
		if (wc == KEY_MOUSE) {
			if (getmouse(&me) != OK)
				return 1;
			in->key = TK_MOUSE;
			in->y = me.y;
			in->x = me.x;
			in->bstate = (unsigned long)me.bstate;
			return 0;
		}
		in->key = TK_FN | (int)wc;
		return 0;
	}
	in->key = (int)wc;
	return 0;
}

/* ------------------------------------------------------ the loop's work */

static int
write_all(int fd, const char *p, size_t n)
{
	ssize_t	w;

	while (n > 0) {
		if ((w = write(fd, p, n)) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static int
read_all(const char *path, char **out, size_t *outlen)
{
	FILE	*fp = fopen(path, "rb");
	char	*buf = NULL;
	size_t	 len = 0, cap = 0, k;

	if (fp == NULL)
		return -1;
	for (;;) {
		if (cap - len < 4096) {
			cap = cap ? cap * 2 : 8192;
			buf = xreallocarray(buf, cap, 1);
		}
		k = fread(buf + len, 1, cap - len, fp);
		len += k;
		if (k == 0)
			break;
	}
	if (ferror(fp)) {
		fclose(fp);
		free(buf);
		return -1;
	}
	fclose(fp);
	*out = buf;
	*outlen = len;
	return 0;
}

/* The prompt's keys: the frame is drawn, then a key is read. */
static int
pr_key(void *arg)
{
	struct app		*a = arg;
	struct tui_input	 in;
	int			 rc;

	for (;;) {
		draw_frame(a);
		if (a->script != NULL) {
			if (script_input(a, &in) != 0)
				return -1;
			return in.key;
		}
		rc = real_input(a, &in, 0);
		if (rc == 0)
			return in.key;
	}
}

static int
pr_pending(void *arg)
{
	struct app	*a = arg;
	wint_t		 wc;
	int		 rc;

	if (a->script != NULL)
		return a->pending[a->ppos] != '\0';
	timeout(0);
	rc = get_wch(&wc);
	if (rc == ERR)
		return 0;
	if (rc == KEY_CODE_YES)
		ungetch((int)wc);
	else
		unget_wch((wchar_t)wc);
	return 1;
}

static void
pr_complete(void *arg, const char *line, size_t word,
    void (*add)(void *, const char *), void *ctx)
{
	struct app	*a = arg;

	edit_complete(a, a->ask.compl, line, word, add, ctx);
}

static void
run_prompt(struct app *a)
{
	struct ask	 q = a->ask;
	char		*line = NULL;
	int		 rc, r;

	a->ask_pending = 0;
	a->in_prompt = 1;
	curs_set(1);
	rc = prompt_read(a->pr, a->ask_init, q.hist, &line);
	a->in_prompt = 0;
	curs_set(0);
	a->msg[0] = '\0';
	r = q.fn(a, q.arg, rc == 0 ? line : NULL);
	free(line);
	if (q.arg_free != NULL && !(a->ask_pending && a->ask.arg == q.arg))
		q.arg_free(q.arg);
	apply_flags(a, r);
}

/*
 * $VISUAL (or $EDITOR, or vi) on a temporary file holding the string.
 * curses is left the way ncdu leaves it for a shell, and taken back
 * after; an editor that fails, or a file left as it was, is no edit.
 */
static void
run_editor(struct app *a)
{
	struct sigaction sa, old_int, old_quit;
	const char	*ed = getenv("VISUAL"), *tmp = getenv("TMPDIR");
	char		 path[PATH_MAX], *cmd, *text = NULL, *now = NULL;
	size_t		 len = 0, nlen = 0;
	pid_t		 pid;
	int		 fd, status = 0;

	a->ed_pending = 0;
	if (ed == NULL || *ed == '\0')
		ed = getenv("EDITOR");
	if (ed == NULL || *ed == '\0')
		ed = "vi";
	if (edit_get_string(a, a->ed_key, a->ed_elem, &text, &len) != 0)
		return;
	snprintf(path, sizeof path, "%s/ggufed-XXXXXX%s",
	    tmp != NULL && *tmp == '/' ? tmp : "/tmp",
	    strstr(a->ed_key, "chat_template") != NULL ? ".jinja" : ".txt");
	fd = mkstemps(path, strstr(a->ed_key, "chat_template") != NULL ? 6 : 4);
	if (fd < 0 || write_all(fd, text, len) != 0) {
		app_error(a, "cannot write a temporary file in %s: %s",
		    tmp != NULL ? tmp : "/tmp", strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(path);
		}
		free(text);
		return;
	}
	close(fd);
	def_prog_mode();
	endwin();
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGQUIT, &sa, &old_quit);
	/* As git and mutt do: the variable is shell text ("code -w"). */
	cmd = xcalloc(1, strlen(ed) + 8);
	snprintf(cmd, strlen(ed) + 8, "%s \"$1\"", ed);
	pid = fork();
	if (pid == 0) {
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGQUIT, &old_quit, NULL);
		execl("/bin/sh", "sh", "-c", cmd, "sh", path, (char *)NULL);
		_exit(127);
	}
	free(cmd);
	if (pid > 0) {
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	reset_prog_mode();
	clearok(curscr, TRUE);
	refresh();
	if (pid < 0)
		app_error(a, "cannot run the editor: %s", strerror(errno));
	else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		app_msg(a, 1, "the editor (%s) failed (status %d): no edit", ed,
		    WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	else if (read_all(path, &now, &nlen) != 0)
		app_error(a, "cannot read %s back: %s", path, strerror(errno));
	else
		apply_flags(a, edit_set_string(a, a->ed_key, a->ed_elem, text,
		    len, now, nlen));
	unlink(path);
	free(text);
	free(now);
}

/*
 * A save: the document decides in place or rewrite; the progress callback
 * draws the bar and polls for Esc, which cancels a rewrite (the file is
 * untouched then). Errors are a dialog; the edits stay pending.
 */
static int
save_progress(void *arg, uint64_t done, uint64_t total)
{
	struct app		*a = arg;
	struct tui_input	 in;
	double			 t = now_ms();
	wint_t			 wc;
	int			 rc, esc = 0;

	a->save_done = done;
	a->save_total = total;
	if (a->script != NULL) {
		/* Keys typed ahead on the same script line reach the save. */
		while (a->pending[a->ppos] != '\0') {
			if (script_input(a, &in) != 0)
				break;
			if (in.key == 0x1b)
				esc = 1;
		}
	} else {
		timeout(0);
		while ((rc = get_wch(&wc)) != ERR) {
			if (rc == OK && wc == 0x1b)
				esc = 1;
		}
	}
	if (esc)
		return 1;
	if (t - a->save_drawn >= 50) {
		a->save_drawn = t;
		draw_frame(a);
	}
	return 0;
}

static void
run_save(struct app *a)
{
	struct gguf_save_opts	 o;
	struct gguf_save_info	 info;
	struct gguf_err		 err;
	struct gguf_doc		*nd;
	char			 size[32], *target;
	double			 secs;
	int			 rc, quit = a->save_quit;

	a->save_pending = 0;
	target = a->save_path != NULL ? a->save_path : a->path;
	memset(&o, 0, sizeof o);
	memset(&info, 0, sizeof info);
	memset(&err, 0, sizeof err);
	o.path = a->save_path;
	o.force = a->save_force;
	o.reserve = -1;
	o.progress = save_progress;
	o.arg = a;
	if (a->save_path == NULL && mdl_n_changes(a) == 0) {
		app_msg(a, 0, "no changes to save");
		if (quit)
			a->quit = 1;
		return;
	}
	if (gguf_doc_plan_save(a->doc, &o, &info, &err) != 0) {
		app_error(a, "cannot save %s:\n%s\n\nThe edits are still pending.",
		    target, err.msg);
		return;
	}
	a->save_how = info.how == GGUF_SAVE_INPLACE ? "Saving in place" :
	    "Saving (rewriting the file)";
	a->saving = 1;
	a->save_t0 = now_ms();
	a->save_drawn = 0;
	a->save_done = 0;
	a->save_total = 0;
	rc = gguf_doc_save(a->doc, &o, &info, &err);
	a->saving = 0;
	secs = (now_ms() - a->save_t0) / 1e3;
	if (rc < 0) {
		if (a->save_done < a->save_total || strstr(err.msg, "cancel"))
			app_msg(a, 1, "save cancelled: %s is untouched, the edits "
			    "are still pending", target);
		else
			app_error(a, "cannot save %s:\n%s\n\nThe edits are still "
			    "pending.", target, err.msg);
		return;
	}
	gguf_fmt_size(info.file_size, size, sizeof size);
	app_msg(a, 0, "saved %s %s: %s in %.2f s", target,
	    info.how == GGUF_SAVE_INPLACE ? "in place" : "by a rewrite", size,
	    secs);
	if (a->save_path != NULL || rc == 1) {
		/* Go on with the saved file. */
		nd = gguf_doc_open(target, &err);
		if (nd == NULL) {
			app_error(a, "saved, but cannot open %s again:\n%s",
			    target, err.msg);
			if (rc == 1)
				a->quit = 1;
			return;
		}
		gguf_doc_free(a->doc);
		a->doc = nd;
		if (a->save_path != NULL) {
			free(a->path);
			a->path = a->save_path;
			a->save_path = NULL;
		}
	}
	reset_views(a);
	if (quit)
		a->quit = 1;
}

/* Runs what a handler asked for; 1 if there was something. */
static int
run_pending(struct app *a)
{
	if (a->ask_pending)
		run_prompt(a);
	else if (a->ed_pending)
		run_editor(a);
	else if (a->save_pending)
		run_save(a);
	else
		return 0;
	return 1;
}

static int
start_curses(struct app *a)
{
	const char	*script = getenv("GGUFED_SCRIPT");
	const char	*term = getenv("TERM");

	if (script != NULL && *script != '\0') {
		a->script_path = script;
		a->jobs_held = 1;
		if ((a->script = fopen(script, "r")) == NULL) {
			fprintf(stderr, "ggufed: %s: %s\n", script,
			    strerror(errno));
			return -1;
		}
		/* Two streams on /dev/null, one each way: on purpose. */
		a->tty_out = fopen("/dev/null", "w");
		/* cppcheck-suppress incompatibleFileOpen */
		a->tty_in = fopen("/dev/null", "r");
		if (a->tty_out == NULL || a->tty_in == NULL) {
			fprintf(stderr, "ggufed: /dev/null: %s\n",
			    strerror(errno));
			return -1;
		}
		if (term == NULL || *term == '\0')
			term = "xterm-256color";
		a->scr = newterm(term, a->tty_out, a->tty_in);
	} else
		a->scr = newterm(NULL, stdout, stdin);
	if (a->scr == NULL) {
		fprintf(stderr, "ggufed: cannot use terminal type '%s'\n",
		    term != NULL ? term : "");
		return -1;
	}
	set_term(a->scr);
	if (a->script != NULL)
		resizeterm(24, 80);
	raw();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	mousemask(BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED | BUTTON4_PRESSED
#ifdef BUTTON5_PRESSED
	    | BUTTON5_PRESSED
#endif
	    , NULL);
	mouseinterval(200);
	draw_init_theme();
	return 0;
}

static void
stop_curses(struct app *a)
{
	if (a->scr != NULL) {
		endwin();
		delscreen(a->scr);
		a->scr = NULL;
	}
	if (a->tty_out != NULL)
		fclose(a->tty_out);
	if (a->tty_in != NULL)
		fclose(a->tty_in);
	if (a->script != NULL)
		fclose(a->script);
}

int
tui_main(const char *path)
{
	struct app		 app, *a = &app;
	struct gguf_err		 err;
	struct tui_input	 in;
	struct prompt_io	 io;
	char			 msg[640];
	int			 t, d, rc, busy = 0, dirty = 1;

	memset(a, 0, sizeof *a);
	memset(&err, 0, sizeof err);
	setlocale(LC_ALL, "");
	tui_utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
	a->search_dir = 1;
	/* Open before touching the terminal: a bad file leaves it alone. */
	if ((a->doc = gguf_doc_open(path, &err)) == NULL) {
		gguf_err_text(&err, msg, sizeof msg);
		fprintf(stderr, "ggufed: ");
		dl_init(&a->dl);
		dl_text(&a->dl, 0, path, strlen(path), 0, 4096, 0);
		fprintf(stderr, "%s: %s\n", a->dl.s != NULL ? a->dl.s : "",
		    msg);
		dl_free(&a->dl);
		return 1;
	}
	a->path = xstrdup(path);
	dl_init(&a->dl);
	memset(&io, 0, sizeof io);
	io.key = pr_key;
	io.pending = pr_pending;
	io.complete = pr_complete;
	io.arg = a;
	if ((a->pr = prompt_new(&io)) == NULL || start_curses(a) != 0) {
		stop_curses(a);
		dl_free(&a->dl);
		gguf_doc_free(a->doc);
		free(a->path);
		return 1;
	}
	if (gguf_doc_has_journal(a->doc))
		app_msg(a, 1, "an interrupted save left a journal: run "
		    "`ggufed recover` on this file before editing it");
	while (!a->quit) {
		if (dirty)
			draw_frame(a);
		dirty = 0;
		if (run_pending(a)) {
			dirty = 1;
			continue;
		}
		if (a->script != NULL) {
			if (script_input(a, &in) != 0)
				break;
			rc = 0;
		} else
			rc = real_input(a, &in, busy);
		if (rc == 2) {
			dirty = 1;
			continue;
		}
		if (rc == 0) {
			handle_input(a, &in);
			dirty = 1;
		}
		if (tick(a, &busy))
			dirty = 1;
	}
	stop_curses(a);
	for (t = 0; t < N_TABS; t++) {
		for (d = a->depth[t]; d > 0; d--)
			view_free(a->stk[t][d - 1]);
	}
	if (a->ask_pending && a->ask.arg_free != NULL)
		a->ask.arg_free(a->ask.arg);
	if (a->dlg_on == 1 && a->dlg_free != NULL)
		a->dlg_free(a->dlg_arg);
	prompt_free(a->pr);
	free(a->ask_label);
	free(a->ask_init);
	free(a->ed_key);
	free(a->save_path);
	re_free(a->search);
	dl_free(&a->dl);
	gguf_doc_free(a->doc);
	free(a->path);
	return a->script_err ? 1 : 0;
}
