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

#include <errno.h>
#include <langinfo.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wchar.h>

#include "curses.h"
#include "tui.h"

#define MIN_COLS	40
#define MIN_ROWS	10
#define N_TABS		4
#define MAX_DEPTH	16

enum prompt_kind { P_NONE, P_SEARCH, P_SEARCH_BACK, P_FILTER, P_JUMP };

struct prompt {
	enum prompt_kind kind;
	char		 buf[512];
	size_t		 len;		/* bytes */
};

struct app {
	struct gguf_file *f;
	const char	*path;
	struct view	*stk[N_TABS][MAX_DEPTH];
	int		 depth[N_TABS];	/* views in each stack, 0: not made */
	int		 tab;
	char		 msg[256];
	int		 msg_err;
	struct prompt	 pr;
	struct re	*search;
	int		 search_dir;
	int		 quit;
	struct dline	 dl;

	SCREEN		*scr;
	FILE		*tty_out;
	FILE		*tty_in;
	FILE		*script;
	const char	*script_path;
	unsigned	 script_line;
	int		 script_err;
};

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
	return a->f;
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

static const char *const prompt_labels[] = {
	"", "/", "?", "filter: ", "go to: "
};

static void
draw_message(struct app *a, struct view *v, int y, int w)
{
	struct dline	*dl = &a->dl;
	int		 cx;

	dl_reset(dl);
	if (a->pr.kind != P_NONE) {
		dl_puts(dl, S_KEY, prompt_labels[a->pr.kind]);
		/* The tail of a long pattern stays visible. */
		{
			size_t	off = 0;

			while (text_width(a->pr.buf + off, a->pr.len - off, 0,
			    w) > w - dl->cols - 1)
				off++;
			while (off < a->pr.len &&
			    ((unsigned char)a->pr.buf[off] & 0xc0) == 0x80)
				off++;
			dl_text(dl, S_NORMAL, a->pr.buf + off, a->pr.len - off,
			    0, w - dl->cols - 1, DT_KEEPBS);
		}
		cx = dl->cols;
		draw_dline(y, dl, w, S_NORMAL, 0);
		move(y, cx < w ? cx : w - 1);
		curs_set(1);
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
	draw_status(a, v, h - 2, w);
	draw_message(a, v, h - 1, w);
	wnoutrefresh(stdscr);
	doupdate();
}

/* ------------------------------------------------------------- prompt */

static void
prompt_open(struct app *a, enum prompt_kind k)
{
	a->pr.kind = k;
	a->pr.len = 0;
	a->pr.buf[0] = '\0';
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

static int
prompt_accept(struct app *a)
{
	struct view	*v = cur_view(a);
	struct re	*re;
	char		 err[300], *end;
	unsigned long long n;
	enum prompt_kind k = a->pr.kind;
	uint64_t	 kept;

	a->pr.kind = P_NONE;
	if (k == P_JUMP) {
		errno = 0;
		n = strtoull(a->pr.buf, &end, 0);
		if (a->pr.len == 0 || errno != 0 || *end != '\0' ||
		    a->pr.buf[0] == '-') {
			app_msg(a, 1, "not a number: %s", a->pr.buf);
			return R_DRAW;
		}
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
	if (k == P_FILTER && a->pr.len == 0) {
		if (v->list != NULL)
			list_set_filter(v->list, NULL);
		return R_DRAW;
	}
	if (a->pr.len == 0) {
		/* An empty search repeats the last one, as in less and vim. */
		if (a->search == NULL)
			return R_DRAW;
		a->search_dir = k == P_SEARCH_BACK ? -1 : 1;
		return do_search(a, v, a->search_dir, 1);
	}
	re = re_compile(a->pr.buf, err, sizeof err);
	if (re == NULL) {
		app_msg(a, 1, "%s", err);
		return R_DRAW;
	}
	if (k == P_FILTER) {
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
	a->search_dir = k == P_SEARCH_BACK ? -1 : 1;
	return do_search(a, v, a->search_dir, 1);
}

static int
prompt_key(struct app *a, int key)
{
	char	mb[MB_LEN_MAX];
	size_t	n;
	mbstate_t st;

	switch (key) {
	case 0x1b:
	case 0x07:	/* C-g */
		a->pr.kind = P_NONE;
		return R_DRAW;
	case '\n':
	case '\r':
	case TK_FN | KEY_ENTER:
		return prompt_accept(a);
	case 0x7f:
	case 0x08:
	case TK_FN | KEY_BACKSPACE:
		if (a->pr.len == 0) {
			a->pr.kind = P_NONE;
			return R_DRAW;
		}
		do
			a->pr.len--;
		while (a->pr.len > 0 &&
		    ((unsigned char)a->pr.buf[a->pr.len] & 0xc0) == 0x80);
		a->pr.buf[a->pr.len] = '\0';
		return R_DRAW;
	case 0x15:	/* C-u */
		a->pr.len = 0;
		a->pr.buf[0] = '\0';
		return R_DRAW;
	case 0x17:	/* C-w: the last word */
		while (a->pr.len > 0 && a->pr.buf[a->pr.len - 1] == ' ')
			a->pr.len--;
		while (a->pr.len > 0 && a->pr.buf[a->pr.len - 1] != ' ')
			a->pr.len--;
		a->pr.buf[a->pr.len] = '\0';
		return R_DRAW;
	}
	if ((key & TK_FN) || key < 0x20)
		return R_NONE;
	memset(&st, 0, sizeof st);
	n = wcrtomb(mb, (wchar_t)key, &st);
	if (n == (size_t)-1 || a->pr.len + n + 1 > sizeof a->pr.buf)
		return R_NONE;
	memcpy(a->pr.buf + a->pr.len, mb, n);
	a->pr.len += n;
	a->pr.buf[a->pr.len] = '\0';
	return R_DRAW;
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
		return R_QUIT;
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
		return R_QUIT;
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
		prompt_open(a, P_SEARCH);
		return R_DRAW;
	case ACT_SEARCH_BACK:
		prompt_open(a, P_SEARCH_BACK);
		return R_DRAW;
	case ACT_FILTER:
		prompt_open(a, P_FILTER);
		return R_DRAW;
	case ACT_JUMP:
		prompt_open(a, P_JUMP);
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
	if (r & R_POP)
		pop(a);
	if (r & R_QUIT)
		a->quit = 1;
	return r;
}

static void
handle_input(struct app *a, const struct tui_input *in)
{
	struct view	*v;
	enum tui_action	 act;

	a->msg[0] = '\0';
	if (a->pr.kind != P_NONE) {
		prompt_key(a, in->key);
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
	static char	 pending[1024];
	static size_t	 ppos;
	static int	 typing;
	char		 line[1024], *arg, *nl;
	int		 k, y, x, busy;

	for (;;) {
		if (pending[ppos] != '\0') {
			memset(in, 0, sizeof *in);
			if (typing) {
				wchar_t		wc;
				mbstate_t	st;
				size_t		n;

				memset(&st, 0, sizeof st);
				n = mbrtowc(&wc, pending + ppos,
				    strlen(pending + ppos), &st);
				if (n == 0 || n > 4) {
					in->key = (unsigned char)pending[ppos++];
				} else {
					in->key = (int)wc;
					ppos += n;
				}
				return 0;
			}
			k = script_next_key(pending, &ppos);
			if (k == -1)
				continue;
			in->key = k;
			return 0;
		}
		pending[0] = '\0';
		ppos = 0;
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
			typing = line[0] == 't';
			snprintf(pending, sizeof pending, "%s", arg);
			ppos = 0;
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
			do {
				tick(a, &busy);
				if (busy) {
					struct timespec ts = { 0, 2000000 };

					nanosleep(&ts, NULL);
				}
			} while (busy);
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

static int
real_input(struct app *a, struct tui_input *in, int busy)
{
	wint_t	wc;
	MEVENT	me;
	int	rc;

	(void)a;
	timeout(busy ? 50 : -1);
	rc = get_wch(&wc);
	memset(in, 0, sizeof *in);
	if (rc == ERR)
		return 1;	/* timeout: tick */
	if (rc == KEY_CODE_YES) {
		if (wc == KEY_RESIZE)
			return 2;
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

static int
start_curses(struct app *a)
{
	const char	*script = getenv("GGUFED_SCRIPT");
	const char	*term = getenv("TERM");

	if (script != NULL && *script != '\0') {
		a->script_path = script;
		if ((a->script = fopen(script, "r")) == NULL) {
			fprintf(stderr, "ggufed: %s: %s\n", script,
			    strerror(errno));
			return -1;
		}
		a->tty_out = fopen("/dev/null", "w");
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
	char			 msg[640];
	int			 t, d, rc, busy = 0, dirty = 1;

	memset(a, 0, sizeof *a);
	memset(&err, 0, sizeof err);
	setlocale(LC_ALL, "");
	tui_utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
	a->path = path;
	a->search_dir = 1;
	/* Open before touching the terminal: a bad file leaves it alone. */
	if ((a->f = gguf_open(path, &err)) == NULL) {
		gguf_err_text(&err, msg, sizeof msg);
		fprintf(stderr, "ggufed: ");
		dl_init(&a->dl);
		dl_text(&a->dl, 0, path, strlen(path), 0, 4096, 0);
		fprintf(stderr, "%s: %s\n", a->dl.s != NULL ? a->dl.s : "",
		    msg);
		dl_free(&a->dl);
		return 1;
	}
	dl_init(&a->dl);
	if (start_curses(a) != 0) {
		stop_curses(a);
		dl_free(&a->dl);
		gguf_close(a->f);
		return 1;
	}
	while (!a->quit) {
		if (dirty)
			draw_frame(a);
		dirty = 0;
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
	re_free(a->search);
	dl_free(&a->dl);
	gguf_close(a->f);
	return a->script_err ? 1 : 0;
}
