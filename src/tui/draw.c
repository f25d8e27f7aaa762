/*
 * draw.c - lines on the screen, and the theme.
 *
 * A struct dline (dline.c) goes to the screen through draw_dline, one run
 * of a theme slot at a time, cut at the screen's width on a character
 * boundary.
 *
 * Colours: each slot has a colour pair and attributes, and a monochrome
 * rendering (bold, reverse, underline) used when NO_COLOR is set (to any
 * non-empty value) or the terminal has no colours.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "curses.h"
#include "tui.h"

int	tui_color;

static int	slot_attr[S_COUNT];

/* ------------------------------------------------------------- output */

/*
 * A run of printable ASCII straight into the window's cells, as
 * addnstr would leave them but without decoding each byte as a
 * multibyte character; the cursor moves past it. -1 (nothing done)
 * for anything else, or a run too long for the buffer.
 */
static int
put_ascii(int y, int x, const char *s, size_t n, int attr)
{
	chtype	buf[512];
	size_t	k;

	if (n > sizeof buf / sizeof buf[0])
		return -1;
	for (k = 0; k < n; k++) {
		if ((unsigned char)s[k] < 0x20 || (unsigned char)s[k] > 0x7e)
			return -1;
		buf[k] = (chtype)(unsigned char)s[k] | (chtype)attr;
	}
	addchnstr(buf, (int)n);
	move(y, x + (int)n);
	return 0;
}

void
draw_dline(int y, const struct dline *dl, int w, int pad, int select)
{
	size_t		i = 0, j, len;
	unsigned	cp;
	int		col = 0, from, cw, slot, attr;

	move(y, 0);
	while (i < dl->len && col < w) {
		slot = dl->a[i];
		from = col;
		/* A run of one slot that fits. */
		for (j = i; j < dl->len && dl->a[j] == slot;) {
			len = gguf_utf8_seq((const unsigned char *)dl->s + j,
			    dl->len - j, &cp);
			if (len == 0)
				len = 1;
			cw = cp < 0x80 ? 1 : wcwidth((wchar_t)cp);
			if (cw < 0)
				cw = 1;
			if (col + cw > w)
				break;
			col += cw;
			j += len;
		}
		if (j == i)
			break;
		attr = slot_attr[select && slot != S_MATCH ? S_SELECT : slot];
		if (put_ascii(y, from, dl->s + i, j - i, attr) != 0) {
			attrset(attr);
			addnstr(dl->s + i, (int)(j - i));
		}
		i = j;
	}
	/* The rest of the line, blank, in one call. */
	attr = slot_attr[select ? S_SELECT : pad];
	if (col < w) {
		attrset(attr);
		hline((chtype)' ' | (chtype)attr, w - col);
	}
	attrset(A_NORMAL);
}

void
draw_highlight(struct dline *dl, struct re *re)
{
	size_t	start = dl->hl_from, so, eo;

	if (re == NULL)
		return;
	while (start <= dl->len &&
	    re_match(re, dl->s, dl->len, start, &so, &eo) == 1) {
		memset(dl->a + so, S_MATCH, eo - so);
		start = eo > so ? eo : eo + 1;
		/* Never stop inside a character. */
		while (start < dl->len &&
		    ((unsigned char)dl->s[start] & 0xc0) == 0x80)
			start++;
	}
}

/* -------------------------------------------------------------- theme */

struct theme_entry {
	int	fg, bg;
	int	attr;		/* added in colour */
	int	mono;		/* used without colour */
};

static const struct theme_entry theme_default[S_COUNT] = {
	[S_NORMAL] =	{ -1, -1, 0, 0 },
	[S_TITLE] =	{ COLOR_BLACK, COLOR_CYAN, 0, A_REVERSE },
	[S_TAB] =	{ COLOR_BLACK, COLOR_CYAN, 0, A_REVERSE },
	[S_TAB_CUR] =	{ COLOR_WHITE, COLOR_BLUE, A_BOLD, A_BOLD },
	[S_STATUS] =	{ COLOR_BLACK, COLOR_WHITE, 0, A_REVERSE },
	[S_ERROR] =	{ COLOR_WHITE, COLOR_RED, A_BOLD, A_BOLD | A_REVERSE },
	[S_SELECT] =	{ COLOR_BLACK, COLOR_YELLOW, 0, A_REVERSE },
	[S_MATCH] =	{ COLOR_BLACK, COLOR_GREEN, 0, A_UNDERLINE | A_BOLD },
	[S_DIM] =	{ COLOR_WHITE, -1, 0, 0 },
	[S_ESCAPE] =	{ COLOR_RED, -1, 0, A_UNDERLINE },
	[S_KEY] =	{ COLOR_CYAN, -1, A_BOLD, A_BOLD },
	[S_TYPE] =	{ COLOR_GREEN, -1, 0, 0 },
	[S_NUMBER] =	{ COLOR_YELLOW, -1, 0, 0 },
	[S_STRING] =	{ -1, -1, 0, 0 },
	[S_GROUP] =	{ COLOR_MAGENTA, -1, A_BOLD, A_BOLD },
	[S_MARK] =	{ COLOR_RED, -1, A_BOLD, A_BOLD },
	[S_WARN] =	{ COLOR_YELLOW, -1, A_BOLD, A_BOLD },
	[S_HEADER] =	{ -1, -1, A_BOLD | A_UNDERLINE, A_UNDERLINE },
	[S_OK] =	{ COLOR_GREEN, -1, A_BOLD, A_BOLD },
	[S_BAR0] =	{ COLOR_CYAN, -1, 0, 0 },
	[S_BAR1] =	{ COLOR_GREEN, -1, 0, 0 },
	[S_BAR2] =	{ COLOR_YELLOW, -1, 0, 0 },
	[S_BAR3] =	{ COLOR_MAGENTA, -1, 0, 0 },
	[S_BAR4] =	{ COLOR_BLUE, -1, 0, 0 },
	[S_BAR5] =	{ COLOR_RED, -1, 0, 0 },
	/*
	 * The cell under the cursor of a heat map: a background no heat
	 * slot has in 8 or 256 colours, reverse video without colours.
	 */
	[S_CURSOR] =	{ COLOR_WHITE, COLOR_BLACK, A_BOLD | A_UNDERLINE,
			  A_REVERSE | A_UNDERLINE },
	/* Heat: cold (negative) blue, neutral white, hot (positive) red. */
	[S_HEAT0] =	{ COLOR_WHITE, COLOR_BLUE, A_BOLD, A_BOLD },
	[S_HEAT1] =	{ COLOR_BLACK, COLOR_BLUE, 0, A_BOLD },
	[S_HEAT2] =	{ COLOR_BLACK, COLOR_CYAN, 0, 0 },
	[S_HEAT3] =	{ COLOR_BLACK, COLOR_CYAN, 0, 0 },
	[S_HEAT4] =	{ COLOR_BLACK, COLOR_WHITE, 0, A_DIM },
	[S_HEAT5] =	{ COLOR_BLACK, COLOR_YELLOW, 0, 0 },
	[S_HEAT6] =	{ COLOR_BLACK, COLOR_YELLOW, 0, 0 },
	[S_HEAT7] =	{ COLOR_BLACK, COLOR_RED, 0, A_BOLD },
	[S_HEAT8] =	{ COLOR_WHITE, COLOR_RED, A_BOLD, A_BOLD },
};

/* With 256 colours the heat map gets a smooth diverging ramp. */
static const short heat256[S_NHEAT] = { 18, 25, 68, 110, 252, 216, 209, 167, 124 };

int
draw_attr(int slot)
{
	return slot >= 0 && slot < S_COUNT ? slot_attr[slot] : 0;
}

void
draw_init_theme(void)
{
	const char	*nc = getenv("NO_COLOR");
	int		 i, fg, bg;

	tui_color = has_colors() && (nc == NULL || *nc == '\0');
	if (tui_color) {
		start_color();
		use_default_colors();
	}
	for (i = 0; i < S_COUNT; i++) {
		if (!tui_color) {
			slot_attr[i] = theme_default[i].mono;
			continue;
		}
		fg = theme_default[i].fg;
		bg = theme_default[i].bg;
		if (i == S_DIM && COLORS >= 256)
			fg = 245;	/* grey: readable on dark and light */
		if (i >= S_HEAT0 && i < S_HEAT0 + S_NHEAT && COLORS >= 256) {
			bg = heat256[i - S_HEAT0];
			fg = (i == S_HEAT0 || i == S_HEAT8) ? COLOR_WHITE :
			    COLOR_BLACK;
		}
		init_pair((short)(i + 1), (short)fg, (short)bg);
		/*
		 * i < S_COUNT: the heat slots are the last ones, so the test
		 * of their end above is redundant with the loop's, not a
		 * sign that i can reach S_COUNT.
		 */
		/* cppcheck-suppress arrayIndexOutOfBoundsCond */
		slot_attr[i] = (int)COLOR_PAIR(i + 1) | theme_default[i].attr;
	}
}
