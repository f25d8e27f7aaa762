/*
 * view_help.c - the help screen, generated from the key table.
 *
 * One section per scope, in the order a newcomer meets them; in each, one
 * line per action with every key bound to it there, the action's name and
 * its help text. Nothing here names a key: the table in keys.c does.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "curses.h"
#include "tui.h"
#include "view_help.h"

#define KEYS_W		20

/*
 * Below this width, a binding's help text goes under its keys and name
 * instead of beside them.
 */
#define SIDE_MIN	60
#define UNDER_INDENT	6

/*
 * HL_TEXT: a line of the notes; HL_HEAD: a scope's heading; HL_BIND: an
 * action's keys and name, and the first line of its help beside them
 * when the screen is wide enough; HL_MORE: a further line of that help.
 */
enum hl_kind { HL_TEXT, HL_HEAD, HL_BIND, HL_MORE };

struct hline {
	enum hl_kind	 kind;
	unsigned	 scope;
	enum tui_action	 act;
	const char	*text;		/* a piece of a note or help text */
	size_t		 len;
};

struct help {
	struct list	 list;
	struct hline	*lines;
	size_t		 n, cap;
	int		 width;		/* the lines are wrapped for it */
};

/* Wrapped to the screen's width. */
static const char notes[] =
	"Searches and filters take PCRE2 regular expressions, matched against "
	"what a row shows (escaped text). Smart case: a pattern without "
	"capitals ignores case. `?` searches backward, as in less and vim; "
	"help is F1 or H. Enter on an empty search repeats the last one. Esc "
	"clears a filter. File text is escaped: \\n \\t \\\\ \\xHH "
	"(controls, bad UTF-8), \\u{XXXX}. The command line (:) takes the "
	"edit language of `ggufed edit -e` (set, ins, append, del, rm, mv, "
	"rename, rm-tensor, convert, undo, redo) and w [FILE], w! (force: over "
	"a file, read-only, changed on disk), e, e! (reload), q, q!, wq, "
	"changes, messages, rescue, diff OTHER (what differs from another "
	"model), "
	"help [CMD]; "
	":N: row N. Text is edited with libedit (editrc).";

static const unsigned scope_order[] = {
	SC_ALL, SC_LIST, SC_TREE, SC_SUMMARY, SC_META, SC_ARRAY, SC_TOKENS,
	SC_TENSORS,
	SC_PAGER, SC_PREVIEW
};

static void
add(struct help *h, enum hl_kind k, unsigned scope, enum tui_action act,
    const char *text, size_t len)
{
	if (h->n == h->cap) {
		h->cap = h->cap ? h->cap * 2 : 64;
		h->lines = xreallocarray(h->lines, h->cap, sizeof *h->lines);
	}
	h->lines[h->n].kind = k;
	h->lines[h->n].scope = scope;
	h->lines[h->n].act = act;
	h->lines[h->n].text = text;
	h->lines[h->n].len = len;
	h->n++;
}

/*
 * The length of the first line of p (n bytes) wrapped at w columns: up to
 * the last space that fits, or w bytes of a word longer than that.
 */
static size_t
wrap_len(const char *p, size_t n, int w)
{
	size_t	k, cut = 0, lim = w > 1 ? (size_t)w : 1;

	if (n <= lim)
		return n;
	for (k = 0; k <= lim; k++)
		if (p[k] == ' ')
			cut = k;
	return cut > 0 ? cut : lim;
}

/* Adds text (n bytes) wrapped at w columns: first line as kind, the rest as more. */
static void
add_wrapped(struct help *h, enum hl_kind kind, enum hl_kind more,
    unsigned scope, enum tui_action act, const char *p, size_t n, int w)
{
	size_t	k;

	do {
		k = wrap_len(p, n, w);
		add(h, kind, scope, act, p, k);
		kind = more;
		p += k;
		n -= k;
		while (n > 0 && *p == ' ') {
			p++;
			n--;
		}
	} while (n > 0);
}

/* The column of action names: the widest name of the key table, a blank. */
static int
name_w(void)
{
	static int	w;
	size_t		i;
	int		n;

	if (w == 0) {
		for (i = 0; i < keys_count; i++) {
			n = (int)strlen(action_name(keys_table[i].action));
			if (n + 1 > w)
				w = n + 1;
		}
	}
	return w;
}

/* Where a binding's help text starts on a screen w columns wide. */
static int
help_col(int w)
{
	return w >= SIDE_MIN ? KEYS_W + name_w() + 1 : UNDER_INDENT;
}

/* The lines for a screen w columns wide. */
static void
build(struct help *h, int w)
{
	const char	*t;
	size_t		 i, j, s;
	int		 seen;

	h->n = 0;
	h->width = w;
	add_wrapped(h, HL_TEXT, HL_TEXT, 0, ACT_NONE, notes, sizeof notes - 1,
	    w - 2);
	for (s = 0; s < sizeof scope_order / sizeof scope_order[0]; s++) {
		add(h, HL_TEXT, 0, ACT_NONE, "", 0);
		add(h, HL_HEAD, scope_order[s], ACT_NONE,
		    keys_scope_name(scope_order[s]), 0);
		for (i = 0; i < keys_count; i++) {
			if (keys_table[i].scope != scope_order[s])
				continue;
			if (keys_table[i].key == '\r' ||
			    keys_table[i].key == (TK_FN | KEY_ENTER))
				continue;	/* same as Enter */
			seen = 0;
			for (j = 0; j < i; j++) {
				if (keys_table[j].scope == scope_order[s] &&
				    keys_table[j].action == keys_table[i].action)
					seen = 1;
			}
			if (seen)
				continue;
			t = action_help(keys_table[i].action);
			if (w < SIDE_MIN)
				add(h, HL_BIND, scope_order[s],
				    keys_table[i].action, t, 0);
			add_wrapped(h, w < SIDE_MIN ? HL_MORE : HL_BIND,
			    HL_MORE, scope_order[s], keys_table[i].action, t,
			    strlen(t), w - help_col(w) - 1);
		}
	}
}

static void
row(void *ctx, struct dline *dl, uint64_t id, int w)
{
	struct help	*h = ctx;
	struct hline	*l = &h->lines[id];
	char		 kb[16];
	size_t		 i;
	int		 first = 1;

	dl_puts(dl, S_NORMAL, " ");
	switch (l->kind) {
	case HL_TEXT:
		dl_text(dl, S_NORMAL, l->text, l->len, 0, w - dl->cols,
		    DT_KEEPBS);
		return;
	case HL_MORE:
		dl_pad(dl, S_NORMAL, help_col(w));
		dl_text(dl, S_NORMAL, l->text, l->len, 0, w - dl->cols,
		    DT_KEEPBS);
		return;
	case HL_HEAD:
		dl_puts(dl, S_HEADER, l->text);
		return;
	case HL_BIND:
		dl_puts(dl, S_NORMAL, "  ");
		for (i = 0; i < keys_count; i++) {
			if (keys_table[i].scope != l->scope ||
			    keys_table[i].action != l->act ||
			    keys_table[i].key == '\r' ||
			    keys_table[i].key == (TK_FN | KEY_ENTER))
				continue;
			if (!first)
				dl_puts(dl, S_DIM, " ");
			dl_puts(dl, S_KEY, keys_name(keys_table[i].key, kb,
			    sizeof kb));
			first = 0;
		}
		dl_pad(dl, S_NORMAL, w >= SIDE_MIN ? KEYS_W : dl->cols);
		dl_puts(dl, S_DIM, " ");
		dl_puts(dl, S_TYPE, action_name(l->act));
		if (l->len == 0)
			return;		/* the help is on the lines below */
		dl_pad(dl, S_NORMAL, KEYS_W + name_w());
		dl_puts(dl, S_DIM, " ");
		dl_text(dl, S_NORMAL, l->text, l->len, 0, w - dl->cols,
		    DT_KEEPBS);
		return;
	}
}

static void
help_free(struct view *v)
{
	struct help	*h = v->priv;

	list_free(&h->list);
	free(h->lines);
	free(h);
}

static const struct list_ops help_list_ops = {
	.row = row,
};

/* Wraps the lines again when the width changed, then draws the list. */
static void
draw(struct view *v, int y, int hgt, int w)
{
	struct help	*h = v->priv;

	if (w != h->width) {
		build(h, w);
		list_reset(&h->list, NULL, h->n);
	}
	list_draw(&h->list, v->app, y, hgt, w);
}

static int
keep(struct view *v)
{
	(void)v;
	return 0;
}

static const struct view_ops help_ops = {
	.draw = draw,
	.reload = keep,
	.name = "help",
	.free = help_free,
};

struct view *
view_help_new(struct app *a)
{
	struct help	*h = xcalloc(1, sizeof *h);
	struct view	*v;

	build(h, COLS > 0 ? COLS : 80);
	list_init_flat(&h->list, &help_list_ops, h, h->n);
	v = view_new(a, &help_ops, SC_LIST, h);
	v->list = &h->list;
	snprintf(v->title, sizeof v->title, "help: keys (F1 or q closes)");
	return v;
}
