/*
 * tui.h - the full-screen browser: what every file of src/tui may use,
 * grouped by the file that defines it: the drawing, the keys, the list
 * widget, the prompt, and the one narrow interface a view has to the
 * application (app.c below): messages and questions, the document (through
 * model.c and edit.c), jumping, pushing a view.
 *
 * The shape: app.c owns the loop. A key becomes an action through the key
 * table (keys.c, data with help text); the action goes to the current view,
 * then to its list, then to the app; handlers return R_* flags and never
 * draw. Every frame is drawn from state: the title bar, the view's body
 * and the status line. A view either is a list (list.c: one virtualised
 * tree/list widget that every browsing view reuses) or draws itself (the
 * tensor preview). Text from the file only reaches the screen through
 * draw.c, which escapes it and cuts it by display columns.
 *
 * Nothing here is called from the core (the floors below src/cmd), and
 * nothing in the core includes curses. Who may include what
 * (tests/unit/layers.sh holds a view to it):
 *
 *	tui.h		every file: the widgets and the narrow interface
 *	curses.h	the files that draw or read keys: curses itself
 *	task.h		background work a view or the loop runs (task.c)
 *	view_X.h	view_X.c, and the application's side: app.c opens the
 *			tabs, cmdline.c and edit.c the views of commands
 *	loop.h		the commands (cmdline.c, edit.c, rescue.c): what they
 *			ask of the loop (save, reload, quit, the editor)
 *	edit.h		edit.c and cmdline.c: the edit language's side
 *	app.h		the loop and the files that share its state (app.c,
 *			frame.c, term.c, run.c, script.c, state.c, task.c,
 *			rescue.c)
 *
 * A view (view_*.c) includes tui.h, curses.h, task.h and its own
 * view_*.h: never another view's header, loop.h, edit.h or app.h.
 */
#ifndef TUI_H
#define TUI_H

#include <stddef.h>
#include <stdint.h>

#include "gguf.h"
#include "doc.h"
#include "xmalloc.h"

struct app;
struct view;
struct list;
struct re;

/* --------------------------------------------------- dline.c, draw.c */

/* Theme slots: what a cell is, not how it looks. */
#define TUI_THEME(X)							\
	X(NORMAL)	X(TITLE)	X(TAB)		X(TAB_CUR)	\
	X(STATUS)	X(ERROR)	X(SELECT)	X(MATCH)	\
	X(DIM)		X(ESCAPE)	X(KEY)		X(TYPE)		\
	X(NUMBER)	X(STRING)	X(GROUP)	X(MARK)		\
	X(WARN)		X(HEADER)	X(OK)		X(BAR0)		\
	X(BAR1)		X(BAR2)		X(BAR3)		X(BAR4)		\
	X(BAR5)		X(CURSOR)	X(HEAT0)	X(HEAT1)	\
	X(HEAT2)	X(HEAT3)	X(HEAT4)	X(HEAT5)	\
	X(HEAT6)	X(HEAT7)	X(HEAT8)

enum tui_slot {
#define TUI_SLOT_ENUM(n)	S_##n,
	TUI_THEME(TUI_SLOT_ENUM)
#undef TUI_SLOT_ENUM
	S_COUNT
};
#define S_NHEAT	9

/*
 * A line being composed: valid UTF-8 (escaped where it came from a file)
 * with one theme slot per byte, and its width in columns. Rows are built
 * into a dline and then drawn, which is what makes highlighting matches
 * and horizontal scrolling generic.
 */
struct dline {
	char		*s;
	unsigned char	*a;		/* slot of each byte */
	size_t		 len;
	size_t		 cap;
	int		 cols;		/* display width of s */
	size_t		 hl_from;	/* matches are highlighted from here */
};

/* dl_text flags */
#define DT_QUOTE	0x01	/* in double quotes, \" escaped */
#define DT_SPACES	0x02	/* spaces shown as a visible glyph */
#define DT_KEEPBS	0x04	/* \\ stays \\: program text, the pager */
#define DT_MIDDLE	0x08	/* a name: cut in the middle, never at the end */

extern int	tui_utf8;	/* the terminal takes UTF-8 */
extern int	tui_color;	/* colours in use (not NO_COLOR, not mono) */

/* Glyphs with an ASCII fallback. */
const char	*g_ellipsis(void);
const char	*g_vbar(void);
const char	*g_fold(int folded);

void	 dl_init(struct dline *dl);
void	 dl_free(struct dline *dl);
void	 dl_reset(struct dline *dl);
/* Program text (trusted, printable): appended as is, width measured. */
void	 dl_puts(struct dline *dl, int slot, const char *s);
void	 dl_printf(struct dline *dl, int slot, const char *fmt, ...)
	     __attribute__((format(printf, 3, 4)));
/* Spaces up to column col. */
void	 dl_pad(struct dline *dl, int slot, int col);
/* Program text right-aligned in a field of w columns (cut if longer). */
void	 dl_rjust(struct dline *dl, int slot, const char *s, int w);
/*
 * Bytes from a file, escaped (C escapes, \xHH for controls and invalid
 * UTF-8, \u{XXXX} for C1 controls, bidi overrides and unprintable
 * characters) and cut to lim columns on a character boundary, with an
 * ellipsis when cut. The first skip columns of the escaped text are left
 * out (horizontal scrolling). Returns the columns appended.
 */
int	 dl_text(struct dline *dl, int slot, const char *p, size_t n,
	     int skip, int lim, unsigned flags);
/* The escaped form of p, cut to maxcols, as a C string in buf. */
void	 text_escape(char *buf, size_t len, const char *p, size_t n,
	     int maxcols);
/* The same for a name: shortened in the middle (DT_MIDDLE). */
void	 name_escape(char *buf, size_t len, const char *p, size_t n,
	     int maxcols);
/* The same for what the user typed (a pattern): backslashes as typed. */
void	 typed_escape(char *buf, size_t len, const char *p, size_t n,
	    int maxcols);
/*
 * Where a name too wide for w columns is cut in the middle: it is shown
 * as the escaped bytes [0, *head), an ellipsis and [*tail, n), at most w
 * columns, the tail taking the odd column; the cuts fall between
 * characters (an escape is one) and the tail never starts with a
 * combining mark. Returns 0 (and *head = *tail = n) if the name fits.
 */
int	 text_middle(const char *p, size_t n, unsigned flags, int w,
	     size_t *head, size_t *tail);
/* Display width of the escaped form of p, counting at most up to max. */
int	 text_width(const char *p, size_t n, unsigned flags, int max);
/*
 * Splits p into pieces of at most w columns of escaped text: returns the
 * byte length of the first piece (at least one character).
 */
size_t	 text_fit(const char *p, size_t n, unsigned flags, int w);
/* Draws dl at row y from column 0, w columns wide, padded with pad slot. */
void	 draw_dline(int y, const struct dline *dl, int w, int pad,
	     int select);
/* Sets up colours (after initscr); honours NO_COLOR and mono terminals. */
void	 draw_init_theme(void);
/* The curses attribute of a slot. */
int	 draw_attr(int slot);
/* Marks the bytes of dl that re matches (from dl->hl_from) as S_MATCH. */
void	 draw_highlight(struct dline *dl, struct re *re);

/* ----------------------------------------------------------- search.c */

/*
 * A PCRE2 regular expression, JIT-compiled where the platform allows, with
 * match limits so a pathological pattern cannot hang the interface.
 * Smart case: a pattern without upper-case letters matches caselessly.
 * The pattern also matches as plain text (and only so if it is not a
 * valid regular expression); NULL with err only for an empty pattern.
 */
struct re	*re_compile(const char *pat, char *err, size_t errlen);
/* 1 and [*so, *eo) on a match at or after start, 0 if none. */
int		 re_match(struct re *re, const char *s, size_t n, size_t start,
		     size_t *so, size_t *eo);
const char	*re_pattern(const struct re *re);
void		 re_free(struct re *re);

/* ------------------------------------------------------------- keys.c */

/* Actions: name and help text, one table. */
#define TUI_ACTIONS(X)							\
	X(NONE,		"none",		"")				\
	X(UP,		"up",		"move up")			\
	X(DOWN,		"down",		"move down")			\
	X(PGUP,		"page-up",	"move up one page")		\
	X(PGDN,		"page-down",	"move down one page")		\
	X(HALF_UP,	"half-up",	"move up half a page")		\
	X(HALF_DN,	"half-down",	"move down half a page")	\
	X(TOP,		"top",		"go to the first row")		\
	X(BOTTOM,	"bottom",	"go to the last row")		\
	X(LEFT,		"left",		"fold the group / go to its parent; scroll left") \
	X(RIGHT,	"right",	"unfold the group; scroll right") \
	X(OPEN,		"open",		"open the selected item (fold/unfold a group)") \
	X(BACK,		"back",		"close this view; quit from a top view") \
	X(CANCEL,	"cancel",	"stop background work / clear the filter / close this view") \
	X(INTERRUPT,	"interrupt",	"stop background work (statistics, a search, a comparison); never quits") \
	X(QUIT,		"quit",		"quit at once")			\
	X(HELP,		"help",		"this help")			\
	X(REDRAW,	"redraw",	"redraw the screen")		\
	X(NEXT_VIEW,	"next-view",	"next top view")		\
	X(PREV_VIEW,	"prev-view",	"previous top view")		\
	X(VIEW1,	"summary",	"Summary view")			\
	X(VIEW2,	"metadata",	"Metadata view")		\
	X(VIEW3,	"tokenizer",	"Tokenizer view")		\
	X(VIEW4,	"tensors",	"Tensors view")			\
	X(SEARCH,	"search",	"search forward (PCRE2)")	\
	X(SEARCH_BACK,	"search-back",	"search backward (PCRE2)")	\
	X(NEXT_MATCH,	"next-match",	"repeat the search")		\
	X(PREV_MATCH,	"prev-match",	"repeat the search the other way") \
	X(FILTER,	"filter",	"keep only the rows that match (PCRE2)") \
	X(JUMP,		"jump",		"go to a row number / token id") \
	X(COMMAND,	"command",	"command line: the edit language, w, q, help; :N goes to row N") \
	X(EDIT,		"edit",		"edit the value (a prompt; long strings in $VISUAL)") \
	X(EDIT_EXT,	"edit-external", "edit the string in $VISUAL / $EDITOR") \
	X(RETYPE,	"retype",	"change the type (lossless conversions only)") \
	X(ADD,		"add",		"add a key (key, type, value) / an element after this one") \
	X(INSERT,	"insert",	"insert an element before this one") \
	X(DELETE,	"delete",	"delete the key, element or tensor (asks first)") \
	X(RENAME,	"rename",	"rename the key or tensor") \
	X(DESCRIBE,	"describe",	"what a well-known key means, and the type readers expect") \
	X(MEMORY,	"memory",	"the memory llama.cpp needs, by context: weights, KV cache") \
	X(GPU_LAYERS,	"gpu-layers",	"the memory split between the GPU and the CPU for -ngl N (llama.cpp's rule)") \
	X(PROJECTOR,	"projector",	"add a multimodal projector's weights to the memory (llama.cpp's --mmproj FILE)") \
	X(LOOKUP,	"lookup",	"text -> ids: a string split into the vocabulary's longest tokens (an approximation)") \
	X(RENAME_RE,	"rename-regex",	"rename tensors by PCRE2 substitution (shows the mapping first)") \
	X(CONVERT,	"convert",	"data to float32 when saved (lossless)") \
	X(UNDO,		"undo",		"undo the last edit") \
	X(REDO,		"redo",		"redo what was undone") \
	X(CHANGES,	"changes",	"the pending changes, old -> new") \
	X(MESSAGES,	"messages",	"every message of this session, whole") \
	X(SAVE,		"save",		"save (in place when possible; Esc cancels a rewrite)") \
	X(TOGGLE,	"toggle",	"fold or unfold the group")	\
	X(FOLD_ALL,	"fold-all",	"fold every group")		\
	X(UNFOLD_ALL,	"unfold-all",	"unfold every group")		\
	X(SORT,		"sort",		"next sort order: name, size, type, offset") \
	X(REVERSE,	"reverse",	"reverse the sort order")	\
	X(WRAP,		"wrap",		"wrap long lines")		\
	X(RENDER,	"render",	"chat template: the prompt a sample conversation becomes") \
	X(GEN_PROMPT,	"generation-prompt", "rendering: with or without the generation prompt") \
	X(SAMPLE,	"sample",	"rendering: next sample (plain chat, with a system prompt, with tool calls)") \
	X(FORMAT,	"format",	"value format: short, full %.9g, hex bits") \
	X(HEAT,		"heat",		"colour heat map")		\
	X(BLOCKS,	"blocks",	"block view of quantized data")	\
	X(STATS,	"stats",	"statistics and histogram (in the background)") \
	X(LOG_SCALE,	"log-scale",	"histogram heights: log scale or linear") \
	X(FIND_VALUE,	"find-value",	"go to the next element equal to a value (nan, inf too; in the background)") \
	X(SLICE_NEXT,	"next-slice",	"next slice (dimension 2)")	\
	X(SLICE_PREV,	"prev-slice",	"previous slice (dimension 2)")	\
	X(SLICE3_NEXT,	"next-slice3",	"next slice (dimension 3)")	\
	X(SLICE3_PREV,	"prev-slice3",	"previous slice (dimension 3)")	\
	X(WHEEL_UP,	"wheel-up",	"mouse wheel: scroll up")	\
	X(WHEEL_DN,	"wheel-down",	"mouse wheel: scroll down")	\
	X(CLICK,	"click",	"mouse: select a row; twice: open")

enum tui_action {
#define TUI_ACT_ENUM(n, s, h)	ACT_##n,
	TUI_ACTIONS(TUI_ACT_ENUM)
#undef TUI_ACT_ENUM
	ACT_COUNT
};

/* Where a binding applies: a view has a mask of these. */
#define SC_ALL		0x01
#define SC_LIST		0x02
#define SC_TREE		0x04
#define SC_TENSORS	0x08
#define SC_PAGER	0x10
#define SC_PREVIEW	0x20
#define SC_JUMP		0x40
#define SC_META		0x80
#define SC_ARRAY	0x100
#define SC_TOKENS	0x200
#define SC_SUMMARY	0x400

/* Keys: characters are their code point; curses function keys are FN|code. */
#define TK_FN		0x40000000
#define TK_MOUSE	(TK_FN | 0x3fffffff)

struct tui_input {
	int		 key;
	int		 y, x;		/* mouse */
	unsigned long	 bstate;	/* mouse */
};

struct key_binding {
	unsigned	 scope;
	int		 key;
	enum tui_action	 action;
};

extern const struct key_binding	keys_table[];
extern const size_t		keys_count;

const char	*action_name(enum tui_action a);
const char	*action_help(enum tui_action a);
/* The action bound to key in a view with scopes, or ACT_NONE. */
enum tui_action	 keys_lookup(unsigned scopes, int key);
/* "j", "Down", "C-d", "F1", "Enter": written into buf (>= 16 bytes). */
const char	*keys_name(int key, char *buf, size_t len);
/* "Lists", "Trees", ...: the heading of a scope in the help screen. */
const char	*keys_scope_name(unsigned scope);

/* ------------------------------------------------------------- list.c */

/* What a handler asks of the loop. */
#define R_NONE		0x00
#define R_DRAW		0x01	/* redraw */
#define R_POP		0x02	/* close the current view */
#define R_QUIT		0x04
#define R_PASS		0x08	/* not handled here: pass it on */
#define R_EDITED	0x10	/* the document changed: views refresh */

struct list_ops {
	/* Renders item id into dl within w columns. */
	void	(*row)(void *ctx, struct dline *dl, uint64_t id, int w);
	/* The text searched and filtered for id; NULL: row() at a large width. */
	void	(*text)(void *ctx, struct dline *dl, uint64_t id);
	/* Column headings, or NULL for none. */
	void	(*header)(void *ctx, struct dline *dl, int w);
	/* Order of two siblings under the current sort, or NULL. */
	int	(*cmp)(void *ctx, uint64_t a, uint64_t b);
	/*
	 * Whether item id matches re, for views that search several texts
	 * of a row; NULL: the text of text() (or of row()) is searched.
	 */
	int	(*match)(void *ctx, struct re *re, uint64_t id);
};

/* A tree node, in the order the view builds them (parents first). */
struct list_node {
	uint64_t	 id;
	uint32_t	 parent;	/* LIST_ROOT for top-level nodes */
	uint16_t	 depth;
	uint8_t		 group;		/* can fold */
	uint8_t		 folded;
};
#define LIST_ROOT	UINT32_MAX

/*
 * One virtualised list or tree. A flat list has n items with ids 0..n-1
 * and costs nothing per item until a filter is set. A tree has an array
 * of nodes. The visible rows are an index (row -> node or id) rebuilt on
 * fold, sort and filter; drawing touches only the rows on screen. The
 * selection is kept by item id across rebuilds.
 */
struct list {
	const struct list_ops	*ops;
	void			*ctx;
	struct list_node	*nodes;		/* tree, or NULL (flat) */
	uint64_t		 n_items;	/* flat: item count; tree: nodes */
	uint64_t		*rows;		/* row -> node / id; NULL: identity */
	uint64_t		 n_rows;
	uint64_t		 top;
	uint64_t		 cur;
	int			 height;	/* rows in the last draw */
	int			 hscroll;	/* columns scrolled (views that use it) */
	int			 has_hscroll;
	struct re		*filter;
	int			 y0;		/* screen row of the first item */
	struct dline		 dl;
};

void	 list_init_flat(struct list *l, const struct list_ops *ops, void *ctx,
	     uint64_t n);
/* Takes nodes (malloc'ed, parents before children); sorts and indexes them. */
void	 list_init_tree(struct list *l, const struct list_ops *ops, void *ctx,
	     struct list_node *nodes, uint64_t n);
void	 list_free(struct list *l);
/* Re-sorts (tree) and rebuilds the rows, keeping the selected item. */
void	 list_rebuild(struct list *l);
/* Id of the selected item; -1 if the list is empty. */
int	 list_cur(const struct list *l, uint64_t *id);
/* The selected node, or NULL (flat lists, empty lists). */
struct list_node *list_cur_node(struct list *l);
/* Selects item id (unfolding its parents); -1 if it is not shown. */
int	 list_goto_id(struct list *l, uint64_t id);
void	 list_draw(struct list *l, struct app *a, int y, int h, int w);
/* Navigation, folding, wheel and click; R_PASS for anything else. */
int	 list_action(struct list *l, enum tui_action act,
	     const struct tui_input *in);
/*
 * Replaces a tree's nodes (or a flat list's count: nodes NULL) after the
 * items changed, keeping the filter, the folded groups, the selected item
 * (by id) and the scroll position.
 */
void	 list_reset(struct list *l, struct list_node *nodes, uint64_t n);
/* Moves to the next row matching re in direction dir (+1/-1); 0 if none. */
int	 list_search(struct list *l, struct re *re, int dir, int skip_cur);
/* Keeps only rows matching re (NULL: all); takes re. Returns rows kept. */
uint64_t list_set_filter(struct list *l, struct re *re);
/* Rows the filter keeps, and in *of the rows there are: headers left out. */
uint64_t list_filter_count(struct list *l, uint64_t *of);
/* "12/340  3%": the selected row of all the rows, "0 rows" if none. */
const char *list_position(const struct list *l, char *buf, size_t len);
/*
 * Selects item n of a flat list; if it is not there (or filtered out), says
 * "no <what> n" in the message line.
 */
int	 list_jump(struct list *l, struct app *a, uint64_t n, const char *what);

/*
 * Trees of items grouped by names: the keys of the metadata by namespace,
 * the tensors by block. The view says which group each item goes in, by
 * the group's name; the groups are found through the core's name index,
 * numbered in the order they first appear, and counted.
 */
#define LIST_GROUP	(1ULL << 63)	/* the id bit of a group's node */

struct list_group {
	struct gguf_str	 name;		/* into the first item's name */
	uint64_t	 count;		/* items in it */
};

struct list_groups {
	struct list_group	*g;
	size_t			 n;
	uint32_t		*of;	/* group of each item, or LIST_ROOT */
};

/*
 * Puts item i in the group named *name (returning 1; name->p NULL for the
 * one group of items without a name) or at the top level (returning 0).
 */
typedef int (*list_group_fn)(void *ctx, uint64_t i, struct gguf_str *name);

/*
 * Groups items 0..n-1 into gs (freed first) and returns the tree's nodes:
 * the groups (id LIST_GROUP | g) first, then the items (id i) under their
 * groups; *n_nodes is their number. Ready for list_init_tree or list_reset.
 */
struct list_node *list_group_tree(uint64_t n, list_group_fn group, void *ctx,
	     struct list_groups *gs, uint64_t *n_nodes);
void	 list_groups_free(struct list_groups *gs);

/* -------------------------------------------------------------- app.c */

struct view_ops {
	const char	*name;
	/* Draws the body (rows y..y+h-1); NULL: draw the list. */
	void	(*draw)(struct view *v, int y, int h, int w);
	/* Handles an action; R_PASS to let the list and the app try. */
	int	(*action)(struct view *v, enum tui_action act,
		    const struct tui_input *in);
	/* The view's part of the status line. */
	void	(*status)(struct view *v, char *buf, size_t len);
	/* Called while the loop is idle; returns R_DRAW if something changed. */
	int	(*tick)(struct view *v);
	/* The jump prompt's answer. */
	int	(*jump)(struct view *v, uint64_t n);
	/*
	 * The document changed: re-read it. -1 if the view cannot show the
	 * new state (it is then closed); NULL: views above the top one are
	 * closed, top views are made again.
	 */
	int	(*reload)(struct view *v);
	void	(*free)(struct view *v);
};

struct view {
	const struct view_ops	*ops;
	struct app		*app;
	struct list		*list;		/* NULL for views that draw themselves */
	unsigned		 scopes;	/* SC_* */
	char			 title[160];	/* safe text */
	void			*priv;
};

struct view	*view_new(struct app *a, const struct view_ops *ops,
		    unsigned scopes, void *priv);
/* Pushes v above the current view. */
void		 app_push(struct app *a, struct view *v);
/*
 * True while background jobs must not start their work: in script mode
 * they wait for the script's `wait`, so that what a script sees never
 * depends on thread timing. Callable from any thread.
 */
int		 app_jobs_held(struct app *a);
/*
 * Work that the first screen does not show (the Summary's checks), put
 * off until that screen is drawn: it is done as soon as the loop is
 * idle (no key waiting), before any key is acted on but one that quits,
 * and before a script looks at the screen (dump, wait, bench). 0 if
 * fn(arg) is put off; -1 if the first screen is drawn already (or other
 * work waits): the caller does the work now. app_later_drop forgets
 * arg's work (its view goes away).
 */
int		 app_later(struct app *a, void (*fn)(void *), void *arg);
void		 app_later_drop(struct app *a, void *arg);
/*
 * A one-line message in the status line until the next key; error 1 (or
 * APP_WARN: a warning, shown as an error is, logged as one) draws it so.
 */
#define APP_WARN	2
void		 app_msg(struct app *a, int error, const char *fmt, ...)
		     __attribute__((format(printf, 3, 4)));
struct gguf_file *app_file(struct app *a);
struct gguf_doc	*app_doc(struct app *a);
/*
 * The document, to change it: background work that reads it (a
 * comparison, task.h) is cancelled and joined first. Every edit goes
 * through this, never through app_doc.
 */
struct gguf_doc	*app_doc_edit(struct app *a);
const char	*app_path(struct app *a);
/* How the file was opened (set.h's GGUF_OPEN_*: a shard alone or its
   set), for opening another the same way. */
unsigned	 app_open_flags(struct app *a);
struct re	*app_search_re(struct app *a);

/*
 * Questions. A handler never waits for the user: it asks, and returns;
 * the loop then runs the prompt (libedit, see prompt.c) and calls fn
 * with the line (NULL if the user cancelled). fn returns R_* flags and
 * may ask again; arg is freed with arg_free after fn, unless fn asked
 * again with the same arg.
 */
enum ask_hist { H_NONE, H_CMD, H_SEARCH, H_COUNT };
/* C_NEWKEY: the file's keys and the well-known ones (a key to add). */
enum ask_compl { C_NONE, C_CMD, C_KEY, C_NEWKEY, C_TENSOR, C_TYPE };
typedef int	(*ask_fn)(struct app *a, void *arg, const char *line);
/* A hint for the line being typed, shown above the prompt. */
typedef void	(*hint_fn)(struct app *a, void *arg, const char *line,
		    char *buf, size_t len);
struct ask {
	const char	*label;		/* program text */
	const char	*init;		/* prefilled text, or NULL */
	enum ask_hist	 hist;
	enum ask_compl	 compl;
	ask_fn		 fn;
	hint_fn		 hint;
	void		*arg;
	void		(*arg_free)(void *);
};
void	app_ask(struct app *a, const struct ask *q);
/*
 * A choice between keys (a dialog): fn gets the key pressed, one of
 * keys, or 0 for Esc. A letter of keys is taken in either case (fn gets
 * it as written in keys), except those after a '!': a destructive answer
 * takes its exact key only ("sc!dD": S is s, but D is not d). Same
 * ownership of arg as app_ask.
 */
typedef int	(*choose_fn)(struct app *a, void *arg, int key);
void	app_choose(struct app *a, const char *text, const char *keys,
	    choose_fn fn, void *arg, void (*arg_free)(void *));
/* An error in a dialog, until a key is pressed. */
void	app_error(struct app *a, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
/* Row (token, element, line) n of the current view: `:N`. */
int	app_jump(struct app *a, uint64_t n);
/* The same once an edit's views are made again (the row it made). */
void	app_jump_later(struct app *a, uint64_t n);
/*
 * Entry i of the metadata (tensors 0) or of the tensors (1) in its top
 * view: that tab shown, the views opened above its top view closed, the
 * row selected (its group unfolded; a filter that hides it cleared).
 * -1 with a message if it cannot be shown.
 */
int	app_show_entry(struct app *a, int tensors, uint64_t i);
/*
 * Pushes v on the Summary tab's stack and shows it: the home of a view
 * whose rows lead into the other tabs (the Diff view), so that going
 * there leaves it in place (1 comes back to it).
 */
void	app_push_home(struct app *a, struct view *v);

/*
 * Runs the browser on path. Prints the reader's error and returns 1 if the
 * file cannot be opened, without touching the terminal; then returns 2
 * if standard input or output is not a terminal. If the environment has
 * GGUFED_SCRIPT, keys come from that file and the screen is virtual (see
 * script.c). If the terminal goes away, the program ends (1 if edits
 * were pending: they are lost). A shard of a split model opens the whole
 * set, unless alone. A message, if not NULL, is shown on the status line
 * of the first screen (a rescue or journal notice replaces it; the
 * :messages log keeps both).
 */
int	tui_main(const char *path, int alone, const char *message);

/* ------------------------------------------------------------ model.c */

/*
 * The views read the document (the file and its pending edits) through
 * these few functions only.
 */
/* KV entries, removed ones (tombstones) included. */
uint64_t	 mdl_n_kv(struct app *a);
int		 mdl_kv(struct app *a, uint64_t i, struct gguf_doc_kv *out);
/* The current value of a live key, or NULL. */
struct gguf_val	*mdl_get(struct app *a, const char *key);
uint64_t	 mdl_n_tensors(struct app *a);
/* The source's info of tensor i (type, shape, data). */
const struct gguf_tensor *mdl_tensor(struct app *a, uint64_t i);
/* Its current name and GGUF_ED_* flags. */
struct gguf_str	 mdl_tensor_name(struct app *a, uint64_t i, unsigned *flags);
/* The type and data size it is saved with (convert changes them). */
uint32_t	 mdl_tensor_type(struct app *a, uint64_t i, uint64_t *nbytes);
/* Number of pending changes. */
unsigned	 mdl_n_changes(struct app *a);

/* state.c */
/*
 * The browser's own directory, $XDG_STATE_HOME/ggufed (else
 * ~/.local/state/ggufed), or its subdirectory sub (NULL: none),
 * allocated; NULL if neither variable names an absolute directory.
 */
char		*state_dir(const char *sub);
/* mkdir -p, mode 0700, quietly. */
void		 state_make_dirs(const char *path);
/*
 * state_dir(sub), made first if make, if it and the browser's directory
 * are safe to keep files in (each a directory of the user's own, not a
 * link, that neither its group nor others can write; or not there yet):
 * allocated, or NULL (no state directory, or one that is not safe).
 */
char		*state_safe_dir(const char *sub, int make);
/*
 * Why the state directory (or its rescue/) is not safe to keep files in
 * ("DIR belongs to nobody"), or NULL if it is: said once, at start.
 */
const char	*state_unsafe(void);
/* The mark of an edited row ('*' value, '+' added, '-' removed, '>'
   renamed) or ' '. */
int		 mdl_mark(unsigned flags);
int		 mdl_arr_get(struct gguf_val *arr, uint64_t i,
		     struct gguf_val *out);
/*
 * Whether element id of cur, the current value of key, differs from the
 * source file's element id (an element past the source's end, or of an
 * array whose element type changed, counts as edited).
 */
int		 mdl_elem_edited(struct app *a, const char *key, size_t klen,
		     struct gguf_val *cur, uint64_t id);
/* Renders v into dl within lim columns: scalars, quoted strings, arrays
   summarised as [N x type] followed by as many elements as fit. */
void		 mdl_value(struct dline *dl, struct gguf_val *v, int lim);

/* --------------------------------------------- the views any view may push */

/*
 * The pager, the array view and the tensor preview are what a view opens
 * above itself (app_push); the token text is what a view shows of a token
 * id. The tab views and the views the commands open are declared in
 * view_*.h, for the application's side only.
 */

/*
 * The text token id stands for, decoded from the vocabulary of the
 * document (token.h), whitespace made visible, in at most lim columns;
 * nothing if the document has no such token. Returns the columns used.
 */
int		 tokens_id_text(struct app *a, struct dline *dl, uint64_t id,
		    int lim);
/* Whether key (klen bytes) holds token ids: tokenizer.ggml.*_token_id(s). */
int		 tokens_is_id_key(const char *key, size_t klen);
/* Pager over the bytes p[0..n) (which must outlive the view). */
struct view	*view_pager_new(struct app *a, const char *title,
		    const char *p, size_t n);			/* view_pager.c */
/* The same over text the pager owns (and frees). */
struct view	*view_pager_own(struct app *a, const char *title, char *p,
		    size_t n);
/*
 * A pager view made by the above shows a log: its lines wrapped, the
 * last one selected.
 */
void		 view_pager_log(struct view *v);
/*
 * A chat template (the value of key, p[0..n), which must outlive the
 * view) in the pager, its Jinja syntax in colours; r renders it.
 */
struct view	*view_pager_template(struct app *a, const char *title,
		    const char *key, const char *p, size_t n);
/*
 * A new template for key (p[0..n), copied) that is not set yet: the
 * lint's findings and its rendering; Enter sets it, q drops it.
 */
struct view	*view_template_pending(struct app *a, const char *key,
		    const char *p, size_t n);
/*
 * Elements of an array value. copy 0: arr belongs to the file and must
 * outlive the view; copy 1: the view copies *arr (an element of another
 * array) and frees the index it builds for it.
 */
struct view	*view_array_new(struct app *a, const char *title,
		    struct gguf_val *arr, int copy);		/* view_array.c */
/* The elements of the array key, editable (they follow the document). */
struct view	*view_array_key(struct app *a, const char *key, size_t klen);
/* Dequantized values of tensor i. */
struct view	*view_preview_new(struct app *a, uint64_t i);	/* view_preview.c */

/* ------------------------------------------------------------- edit.c */

/* The editing actions of the views, for the entry they have selected. */
int	edit_kv(struct app *a, enum tui_action act, uint64_t entry);
int	edit_elem(struct app *a, enum tui_action act, const char *key,
	    size_t klen, uint64_t i);
int	edit_tensor(struct app *a, enum tui_action act, uint64_t i);
/* The `:` command line: runs line; R_* flags. */
int	edit_command(struct app *a, const char *line);
/* Undo and redo, with a message. */
int	edit_undo(struct app *a, int redo);
/* Tab completion for a question of kind c. */
void	edit_complete(struct app *a, enum ask_compl c, const char *line,
	    size_t word, void (*add)(void *, const char *), void *ctx);
/*
 * The string the external editor edits: key's value, or its element elem
 * (elem >= 0). Allocated into *out; -1 with a message if it is none.
 */
int	edit_get_string(struct app *a, const char *key, int64_t elem,
	    char **out, size_t *len);
/*
 * The editor's result: old and new bytes; R_* flags. A chat template is
 * not set at once: its rendering opens (view_template_pending) first.
 */
int	edit_set_string(struct app *a, const char *key, int64_t elem,
	    const char *old, size_t olen, const char *now, size_t nlen);
/* Sets key (or its element elem) to the string now; R_* flags. */
int	edit_apply_string(struct app *a, const char *key, int64_t elem,
	    const char *now, size_t nlen);

/* ----------------------------------------------------------- prompt.c */

/*
 * The line editor: libedit on a private pseudo-terminal, so that it edits
 * (emacs or vi keys, the user's editrc, history, completion) while the
 * screen stays curses': keys are fed to it one by one and the line it
 * holds is drawn in the message line.
 */
struct prompt;
struct prompt_io {
	/* Draws the frame and returns the next key; -1: no more input. */
	int	(*key)(void *arg);
	/* 1 if another key is already waiting (Esc then x is Alt-x). */
	int	(*pending)(void *arg);
	/* Candidates for completing the word at the cursor: calls add. */
	void	(*complete)(void *arg, const char *line, size_t word,
		    void (*add)(void *ctx, const char *cand), void *ctx);
	void	*arg;
};
/* libedit itself is set up at the first prompt_read. */
struct prompt	*prompt_new(const struct prompt_io *io);
void		 prompt_free(struct prompt *p);
/* Whether libedit has been set up. */
int		 prompt_started(struct prompt *p);
/*
 * Reads a line (allocated, no newline) into *line, the line starting as
 * init (NULL: empty); 0, or -1 if the user cancelled (Esc in emacs
 * mode, C-c, C-g) or the input ended, -2 if libedit could not be set
 * up. hist names a history (H_NONE: none).
 */
int		 prompt_read(struct prompt *p, const char *init, int hist,
		    char **line);
/* The line being edited and the cursor, in bytes (for drawing). */
void		 prompt_line(struct prompt *p, const char **s, size_t *len,
		    size_t *cursor);
/*
 * Whether the line is still the prefill, untouched: the next character
 * typed replaces it (drawn as a selection).
 */
int		 prompt_selected(struct prompt *p);
/* The candidates of the last ambiguous completion, or "". */
const char	*prompt_candidates(struct prompt *p);

#endif /* TUI_H */
