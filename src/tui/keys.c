/*
 * keys.c - key bindings as data.
 *
 * An action has a name and a line of help (TUI_ACTIONS in tui.h); a
 * binding maps a key, in a scope, to an action. A view says which scopes
 * it is in, and the first binding whose scope it shares wins, so the
 * bindings of a narrow scope (the preview's h/l scroll the grid) come
 * before the broad ones (h/l fold in trees). The help screen is generated
 * from this table: adding a binding here documents it.
 *
 * The one conflict of habits: in less, vim and tig `?` searches backward,
 * while htop shows help on it. Here `?` searches backward, like the
 * pagers people already read long text in, and help is F1 (or H).
 */
#include "config.h"

#include <stdio.h>

#include "curses.h"
#include "tui.h"

#define FN(k)	(TK_FN | (k))
#define CTRL(c)	((c) & 0x1f)

static const char *const action_names[ACT_COUNT] = {
#define TUI_ACT_NAME(n, s, h)	s,
	TUI_ACTIONS(TUI_ACT_NAME)
#undef TUI_ACT_NAME
};

static const char *const action_helps[ACT_COUNT] = {
#define TUI_ACT_HELP(n, s, h)	h,
	TUI_ACTIONS(TUI_ACT_HELP)
#undef TUI_ACT_HELP
};

const struct key_binding keys_table[] = {
	/* The tensor preview: hjkl move over the grid. */
	{ SC_PREVIEW,	'f',		ACT_FORMAT },
	{ SC_PREVIEW,	'c',		ACT_HEAT },
	{ SC_PREVIEW,	'b',		ACT_BLOCKS },
	{ SC_PREVIEW,	's',		ACT_STATS },
	{ SC_PREVIEW,	'L',		ACT_LOG_SCALE },
	{ SC_PREVIEW,	']',		ACT_SLICE_NEXT },
	{ SC_PREVIEW,	'[',		ACT_SLICE_PREV },
	{ SC_PREVIEW,	'}',		ACT_SLICE3_NEXT },
	{ SC_PREVIEW,	'{',		ACT_SLICE3_PREV },

	/* The pager: long strings; Space pages, as in less. */
	{ SC_PAGER,	'w',		ACT_WRAP },
	{ SC_PAGER,	' ',		ACT_PGDN },
	{ SC_PAGER,	'r',		ACT_RENDER },
	{ SC_PAGER,	'a',		ACT_GEN_PROMPT },
	{ SC_PAGER,	's',		ACT_SAMPLE },

	/* Metadata: editing. */
	{ SC_META,	'e',		ACT_EDIT },
	{ SC_META,	'E',		ACT_EDIT_EXT },
	{ SC_META,	't',		ACT_RETYPE },
	{ SC_META,	'a',		ACT_ADD },
	{ SC_META,	'd',		ACT_DELETE },
	{ SC_META,	'm',		ACT_RENAME },
	{ SC_META,	'i',		ACT_DESCRIBE },

	/* Arrays: editing elements. */
	{ SC_ARRAY,	'e',		ACT_EDIT },
	{ SC_ARRAY,	'E',		ACT_EDIT_EXT },
	{ SC_ARRAY,	'i',		ACT_INSERT },
	{ SC_ARRAY,	'a',		ACT_ADD },
	{ SC_ARRAY,	'd',		ACT_DELETE },

	/* The Summary. */
	{ SC_SUMMARY,	'm',		ACT_MEMORY },
	{ SC_SUMMARY,	'o',		ACT_GPU_LAYERS },
	{ SC_SUMMARY,	'p',		ACT_PROJECTOR },

	/* The Tokenizer. */
	{ SC_TOKENS,	't',		ACT_LOOKUP },

	/* Tensors. */
	{ SC_TENSORS,	's',		ACT_SORT },
	{ SC_TENSORS,	'S',		ACT_REVERSE },
	{ SC_TENSORS,	'r',		ACT_RENAME },
	{ SC_TENSORS,	'R',		ACT_RENAME_RE },
	{ SC_TENSORS,	'd',		ACT_DELETE },
	{ SC_TENSORS,	'c',		ACT_CONVERT },

	/* Trees: folding. */
	{ SC_TREE,	' ',		ACT_TOGGLE },
	{ SC_TREE,	'-',		ACT_FOLD_ALL },
	{ SC_TREE,	'+',		ACT_UNFOLD_ALL },
	{ SC_TREE,	'=',		ACT_UNFOLD_ALL },

	/* Lists: search, filter, jump. */
	{ SC_LIST,	'/',		ACT_SEARCH },
	{ SC_LIST,	'?',		ACT_SEARCH_BACK },
	{ SC_LIST,	'n',		ACT_NEXT_MATCH },
	{ SC_LIST,	'N',		ACT_PREV_MATCH },
	{ SC_LIST,	'f',		ACT_FILTER },
	/* The preview's grid (its block view is a list: the above win). */
	{ SC_PREVIEW,	'/',		ACT_FIND_VALUE },
	{ SC_PREVIEW,	'n',		ACT_NEXT_MATCH },

	/* Everywhere: movement. */
	{ SC_ALL,	FN(KEY_UP),	ACT_UP },
	{ SC_ALL,	'k',		ACT_UP },
	{ SC_ALL,	CTRL('p'),	ACT_UP },
	{ SC_ALL,	FN(KEY_DOWN),	ACT_DOWN },
	{ SC_ALL,	'j',		ACT_DOWN },
	{ SC_ALL,	CTRL('n'),	ACT_DOWN },
	{ SC_ALL,	FN(KEY_PPAGE),	ACT_PGUP },
	{ SC_ALL,	CTRL('b'),	ACT_PGUP },
	{ SC_ALL,	FN(KEY_NPAGE),	ACT_PGDN },
	{ SC_ALL,	CTRL('f'),	ACT_PGDN },
	{ SC_ALL,	CTRL('u'),	ACT_HALF_UP },
	{ SC_ALL,	CTRL('d'),	ACT_HALF_DN },
	{ SC_ALL,	FN(KEY_HOME),	ACT_TOP },
	{ SC_ALL,	'g',		ACT_TOP },
	{ SC_ALL,	FN(KEY_END),	ACT_BOTTOM },
	{ SC_ALL,	'G',		ACT_BOTTOM },
	{ SC_ALL,	FN(KEY_LEFT),	ACT_LEFT },
	{ SC_ALL,	'h',		ACT_LEFT },
	{ SC_ALL,	FN(KEY_RIGHT),	ACT_RIGHT },
	{ SC_ALL,	'l',		ACT_RIGHT },
	{ SC_ALL,	'\n',		ACT_OPEN },
	{ SC_ALL,	'\r',		ACT_OPEN },
	{ SC_ALL,	FN(KEY_ENTER),	ACT_OPEN },
	{ SC_ALL,	TK_MOUSE,	ACT_CLICK },

	/* Everywhere: views. */
	{ SC_ALL,	'\t',		ACT_NEXT_VIEW },
	{ SC_ALL,	FN(KEY_BTAB),	ACT_PREV_VIEW },
	{ SC_ALL,	'1',		ACT_VIEW1 },
	{ SC_ALL,	'2',		ACT_VIEW2 },
	{ SC_ALL,	'3',		ACT_VIEW3 },
	{ SC_ALL,	'4',		ACT_VIEW4 },
	{ SC_ALL,	'q',		ACT_BACK },
	{ SC_ALL,	0x1b,		ACT_CANCEL },
	{ SC_ALL,	'Q',		ACT_QUIT },
	{ SC_ALL,	CTRL('c'),	ACT_INTERRUPT },
	{ SC_ALL,	FN(KEY_F(1)),	ACT_HELP },
	{ SC_ALL,	'H',		ACT_HELP },
	{ SC_ALL,	CTRL('l'),	ACT_REDRAW },

	/* Everywhere: the command line, undo, changes, save. */
	{ SC_ALL,	':',		ACT_COMMAND },
	{ SC_ALL,	'u',		ACT_UNDO },
	{ SC_ALL,	CTRL('r'),	ACT_REDO },
	{ SC_ALL,	'D',		ACT_CHANGES },
	{ SC_ALL,	'M',		ACT_MESSAGES },
	{ SC_ALL,	'w',		ACT_SAVE },
};
const size_t	keys_count = sizeof keys_table / sizeof keys_table[0];

const char *
action_name(enum tui_action a)
{
	return (unsigned)a < ACT_COUNT ? action_names[a] : "?";
}

const char *
action_help(enum tui_action a)
{
	return (unsigned)a < ACT_COUNT ? action_helps[a] : "";
}

enum tui_action
keys_lookup(unsigned scopes, int key)
{
	size_t	i;

	for (i = 0; i < keys_count; i++) {
		if (keys_table[i].key == key &&
		    (keys_table[i].scope & (scopes | SC_ALL)) != 0)
			return keys_table[i].action;
	}
	return ACT_NONE;
}

const char *
keys_name(int key, char *buf, size_t len)
{
	static const struct {
		int		 key;
		const char	*name;
	} names[] = {
		{ FN(KEY_UP), "Up" }, { FN(KEY_DOWN), "Down" },
		{ FN(KEY_LEFT), "Left" }, { FN(KEY_RIGHT), "Right" },
		{ FN(KEY_PPAGE), "PgUp" }, { FN(KEY_NPAGE), "PgDn" },
		{ FN(KEY_HOME), "Home" }, { FN(KEY_END), "End" },
		{ FN(KEY_ENTER), "KpEnter" }, { FN(KEY_BTAB), "S-Tab" },
		{ FN(KEY_F(1)), "F1" }, { TK_MOUSE, "Mouse" },
		{ '\n', "Enter" }, { '\r', "Enter" }, { '\t', "Tab" },
		{ 0x1b, "Esc" }, { ' ', "Space" }, { 0x7f, "Backspace" },
		{ FN(KEY_BACKSPACE), "Backspace" }, { FN(KEY_DC), "Delete" },
		{ FN(KEY_IC), "Insert" },
	};
	size_t	i;

	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		if (names[i].key == key) {
			snprintf(buf, len, "%s", names[i].name);
			return buf;
		}
	}
	if (key > 0 && key < 0x20)
		snprintf(buf, len, "C-%c", key + 0x60);
	else if (key > 0x20 && key < 0x7f)
		snprintf(buf, len, "%c", key);
	else
		snprintf(buf, len, "#%x", (unsigned)key);
	return buf;
}

const char *
keys_scope_name(unsigned scope)
{
	switch (scope) {
	case SC_ALL:
		return "Everywhere";
	case SC_LIST:
		return "Lists (every view but the preview)";
	case SC_TREE:
		return "Trees (Metadata, Tensors)";
	case SC_TENSORS:
		return "Tensors";
	case SC_PAGER:
		return "Pager (long strings)";
	case SC_PREVIEW:
		return "Tensor preview";
	case SC_JUMP:
		return "Tokenizer, arrays, pager";
	case SC_META:
		return "Metadata (editing)";
	case SC_ARRAY:
		return "Arrays (editing elements)";
	case SC_TOKENS:
		return "Tokenizer";
	case SC_SUMMARY:
		return "Summary";
	}
	return "?";
}
