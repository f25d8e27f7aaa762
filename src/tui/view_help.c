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

#define KEYS_W		20
#define NAME_W		14

enum hl_kind { HL_TEXT, HL_HEAD, HL_BIND };

struct hline {
	enum hl_kind	 kind;
	unsigned	 scope;
	enum tui_action	 act;
	const char	*text;
};

struct help {
	struct list	 list;
	struct hline	*lines;
	size_t		 n;
};

static const char *const notes[] = {
	"Searches and filters take PCRE2 regular expressions, matched against",
	"what a row shows (escaped text). Smart case: a pattern without capitals",
	"ignores case. `?` searches backward, as in less and vim; help is F1 or H.",
	"Enter on an empty search repeats the last one. Esc clears a filter.",
	"File text is escaped: \\n \\t \\\\ \\xHH (controls, bad UTF-8), \\u{XXXX}.",
	"The command line (:) takes the edit language of `ggufed edit -e` (set,",
	"ins, append, del, rm, mv, rename, rm-tensor, convert, undo, redo) and w",
	"[FILE], w! (force: over a file, read-only, changed on disk), e, e! (reload),",
	"q, q!, wq, changes, diff OTHER (what differs from another model), help",
	"[CMD]; :N: row N. Text is edited with libedit (editrc).",
	NULL
};

static const unsigned scope_order[] = {
	SC_ALL, SC_LIST, SC_TREE, SC_SUMMARY, SC_META, SC_ARRAY, SC_TOKENS,
	SC_TENSORS,
	SC_PAGER, SC_PREVIEW
};

static void
add(struct help *h, size_t *cap, enum hl_kind k, unsigned scope,
    enum tui_action act, const char *text)
{
	if (h->n == *cap) {
		*cap = *cap ? *cap * 2 : 64;
		h->lines = xreallocarray(h->lines, *cap, sizeof *h->lines);
	}
	h->lines[h->n].kind = k;
	h->lines[h->n].scope = scope;
	h->lines[h->n].act = act;
	h->lines[h->n].text = text;
	h->n++;
}

static void
build(struct help *h)
{
	size_t		 cap = 0, i, j, s;
	int		 seen;

	for (i = 0; notes[i] != NULL; i++)
		add(h, &cap, HL_TEXT, 0, ACT_NONE, notes[i]);
	for (s = 0; s < sizeof scope_order / sizeof scope_order[0]; s++) {
		add(h, &cap, HL_TEXT, 0, ACT_NONE, "");
		add(h, &cap, HL_HEAD, scope_order[s], ACT_NONE,
		    keys_scope_name(scope_order[s]));
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
			if (!seen)
				add(h, &cap, HL_BIND, scope_order[s],
				    keys_table[i].action, NULL);
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
		dl_text(dl, S_NORMAL, l->text, strlen(l->text), 0,
		    w - dl->cols, DT_KEEPBS);
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
		dl_pad(dl, S_NORMAL, KEYS_W);
		dl_puts(dl, S_DIM, " ");
		dl_puts(dl, S_TYPE, action_name(l->act));
		dl_pad(dl, S_NORMAL, KEYS_W + NAME_W);
		dl_puts(dl, S_DIM, " ");
		dl_text(dl, S_NORMAL, action_help(l->act),
		    strlen(action_help(l->act)), 0, w - dl->cols, DT_KEEPBS);
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

static int
keep(struct view *v)
{
	(void)v;
	return 0;
}

static const struct view_ops help_ops = {
	.reload = keep,
	.name = "help",
	.free = help_free,
};

struct view *
view_help_new(struct app *a)
{
	struct help	*h = xcalloc(1, sizeof *h);
	struct view	*v;

	build(h);
	list_init_flat(&h->list, &help_list_ops, h, h->n);
	v = view_new(a, &help_ops, SC_LIST, h);
	v->list = &h->list;
	snprintf(v->title, sizeof v->title, "help: keys (F1 or q closes)");
	return v;
}
