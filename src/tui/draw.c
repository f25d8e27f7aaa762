/*
 * draw.c - width-aware UTF-8 text, escaping, and the theme.
 *
 * Everything on the screen is composed into a struct dline first: bytes of
 * valid UTF-8 plus a theme slot per byte. Program text goes in as it is;
 * text from the file goes in through dl_text, which applies the same rules
 * as the command line's text output (out.c): valid printable UTF-8 is
 * kept; \n \r \t \\ get C escapes (and \" inside quotes); other C0 bytes,
 * DEL and every byte that is not part of valid UTF-8 become \xHH; C1
 * controls, bidirectional overrides and characters the C library calls
 * unprintable (wcwidth < 0) become \u{XXXX}, and so does a combining mark
 * with nothing before it to combine with. When the terminal does not take
 * UTF-8, every non-ASCII character is shown as \u{XXXX}. Escapes are drawn
 * in their own slot so that "\x1b" in a value and a backslash typed by a
 * model author look different.
 *
 * Widths are display columns (wcwidth), and cuts fall on character
 * boundaries; an escape is never split. Measuring stops as soon as the
 * answer is known, so a 70,000-byte string costs what fits on the screen.
 *
 * Colours: each slot has a colour pair and attributes, and a monochrome
 * rendering (bold, reverse, underline) used when NO_COLOR is set (to any
 * non-empty value) or the terminal has no colours.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "curses.h"
#include "tui.h"

int	tui_utf8;
int	tui_color;

static int	slot_attr[S_COUNT];

/* ------------------------------------------------------------- glyphs */

const char *
g_ellipsis(void)
{
	return tui_utf8 ? "\xe2\x80\xa6" : "~";
}

const char *
g_vbar(void)
{
	return tui_utf8 ? "\xe2\x94\x82" : "|";
}

const char *
g_fold(int folded)
{
	if (tui_utf8)
		return folded ? "\xe2\x96\xb8" : "\xe2\x96\xbe";
	return folded ? "+" : "-";
}

/* ------------------------------------------------------ escaped text */

/*
 * One displayed piece of file text: either the original bytes of one
 * character (esc 0) or an escape sequence in e[] (esc 1).
 */
struct piece {
	size_t		 used;		/* bytes of input consumed */
	const char	*p;		/* bytes to show */
	size_t		 n;
	int		 w;		/* columns */
	int		 esc;
	char		 e[16];
};

static void
next_piece(const char *s, size_t n, size_t i, unsigned flags, int first,
    struct piece *pc)
{
	const unsigned char	*p = (const unsigned char *)s + i;
	unsigned		 cp;
	size_t			 len;
	int			 w;

	pc->esc = 1;
	pc->p = pc->e;
	len = gguf_utf8_seq(p, n - i, &cp);
	if (len == 0) {
		pc->used = 1;
		pc->n = (size_t)snprintf(pc->e, sizeof pc->e, "\\x%02x", p[0]);
		pc->w = (int)pc->n;
		return;
	}
	pc->used = len;
	if (len == 1) {
		switch (cp) {
		case '\n':
			pc->n = 2;
			memcpy(pc->e, "\\n", 3);
			break;
		case '\r':
			pc->n = 2;
			memcpy(pc->e, "\\r", 3);
			break;
		case '\t':
			pc->n = 2;
			memcpy(pc->e, "\\t", 3);
			break;
		case '\\':
			if (flags & DT_KEEPBS)
				goto plain;
			pc->n = 2;
			memcpy(pc->e, "\\\\", 3);
			break;
		case '"':
			if (flags & DT_QUOTE) {
				pc->n = 2;
				memcpy(pc->e, "\\\"", 3);
				break;
			}
			goto plain;
		case ' ':
			if (flags & DT_SPACES) {
				pc->esc = 0;
				pc->p = tui_utf8 ? "\xe2\x90\xa3" : "_";
				pc->n = strlen(pc->p);
				pc->w = 1;
				pc->esc = 2;	/* drawn dim */
				return;
			}
			goto plain;
		default:
			if (cp < 0x20 || cp == 0x7f) {
				pc->n = (size_t)snprintf(pc->e, sizeof pc->e,
				    "\\x%02x", cp);
				break;
			}
		plain:
			pc->esc = 0;
			pc->p = (const char *)p;
			pc->n = 1;
			pc->w = 1;
			return;
		}
		pc->w = (int)pc->n;
		return;
	}
	w = tui_utf8 && !gguf_cp_unsafe(cp) ? wcwidth((wchar_t)cp) : -1;
	if (w < 0 || (w == 0 && first)) {
		pc->n = (size_t)snprintf(pc->e, sizeof pc->e, "\\u{%04x}", cp);
		pc->w = (int)pc->n;
		return;
	}
	pc->esc = 0;
	pc->p = (const char *)p;
	pc->n = len;
	pc->w = w;
}

int
text_width(const char *p, size_t n, unsigned flags, int max)
{
	struct piece	pc;
	size_t		i = 0;
	int		w = (flags & DT_QUOTE) ? 2 : 0;

	while (i < n && w <= max) {
		next_piece(p, n, i, flags, i == 0, &pc);
		w += pc.w;
		i += pc.used;
	}
	return w;
}

size_t
text_fit(const char *p, size_t n, unsigned flags, int w)
{
	struct piece	pc;
	size_t		i = 0;
	int		cols = 0;

	while (i < n) {
		next_piece(p, n, i, flags, i == 0, &pc);
		if (i > 0 && cols + pc.w > w)
			break;
		cols += pc.w;
		i += pc.used;
	}
	return i;
}

/* -------------------------------------------------------------- dlines */

void
dl_init(struct dline *dl)
{
	memset(dl, 0, sizeof *dl);
}

void
dl_free(struct dline *dl)
{
	free(dl->s);
	free(dl->a);
	memset(dl, 0, sizeof *dl);
}

void
dl_reset(struct dline *dl)
{
	dl->len = 0;
	dl->cols = 0;
	dl->hl_from = 0;
	if (dl->s != NULL)
		dl->s[0] = '\0';
}

static void
dl_add(struct dline *dl, int slot, const char *p, size_t n, int w)
{
	if (dl->len + n + 1 > dl->cap) {
		size_t	cap = dl->cap < 256 ? 256 : dl->cap;

		while (dl->len + n + 1 > cap)
			cap *= 2;
		dl->s = xreallocarray(dl->s, cap, 1);
		dl->a = xreallocarray(dl->a, cap, 1);
		dl->cap = cap;
	}
	memcpy(dl->s + dl->len, p, n);
	memset(dl->a + dl->len, slot, n);
	dl->len += n;
	dl->s[dl->len] = '\0';
	dl->cols += w;
}

/* Width of trusted UTF-8 program text. */
static int
prog_width(const char *s, size_t n)
{
	size_t		i = 0, len;
	unsigned	cp;
	int		w = 0, cw;

	while (i < n) {
		len = gguf_utf8_seq((const unsigned char *)s + i, n - i, &cp);
		if (len == 0)
			len = 1;
		cw = cp < 0x80 ? 1 : wcwidth((wchar_t)cp);
		w += cw > 0 ? cw : 0;
		i += len;
	}
	return w;
}

void
dl_puts(struct dline *dl, int slot, const char *s)
{
	size_t	n = strlen(s);

	dl_add(dl, slot, s, n, prog_width(s, n));
}

void
dl_printf(struct dline *dl, int slot, const char *fmt, ...)
{
	char	buf[512];
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	dl_puts(dl, slot, buf);
}

void
dl_pad(struct dline *dl, int slot, int col)
{
	static const char	spaces[] = "                                ";

	while (dl->cols < col) {
		int	k = col - dl->cols;

		if (k > 32)
			k = 32;
		dl_add(dl, slot, spaces, (size_t)k, k);
	}
}

void
dl_rjust(struct dline *dl, int slot, const char *s, int w)
{
	int	sw = prog_width(s, strlen(s));
	int	start = dl->cols;

	if (sw > w) {
		dl_text(dl, slot, s, strlen(s), 0, w, 0);
		return;
	}
	dl_pad(dl, slot, start + w - sw);
	dl_puts(dl, slot, s);
}

static void
dl_piece(struct dline *dl, int slot, const struct piece *pc)
{
	int	s = slot;

	if (pc->esc == 1)
		s = S_ESCAPE;
	else if (pc->esc == 2)
		s = S_DIM;
	dl_add(dl, s, pc->p, pc->n, pc->w);
}

int
dl_text(struct dline *dl, int slot, const char *p, size_t n, int skip,
    int lim, unsigned flags)
{
	struct piece	pc;
	size_t		i;
	int		start = dl->cols, total, col, room;

	if (lim <= 0)
		return 0;
	/* Does the text (after skip) fit? Measure no further than needed. */
	total = text_width(p, n, flags, skip + lim + 1) - skip;
	room = total > lim ? lim - 1 : lim;
	col = 0;
	if ((flags & DT_QUOTE) && skip == 0) {
		if (room >= 1) {
			dl_add(dl, slot, "\"", 1, 1);
			col = 1;
		}
	} else if (flags & DT_QUOTE)
		skip--;
	for (i = 0; i < n;) {
		next_piece(p, n, i, flags, i == 0, &pc);
		i += pc.used;
		if (skip > 0) {
			if (pc.w > skip) {
				/* A piece straddles the left edge: blank it. */
				int	k = pc.w - skip;

				skip = 0;
				if (col + k > room)
					break;
				dl_pad(dl, slot, dl->cols + k);
				col += k;
			} else
				skip -= pc.w;
			continue;
		}
		if (col + pc.w > room)
			break;
		dl_piece(dl, slot, &pc);
		col += pc.w;
	}
	if (total > lim) {
		dl_pad(dl, slot, start + room);
		dl_add(dl, S_DIM, g_ellipsis(), strlen(g_ellipsis()), 1);
	} else if ((flags & DT_QUOTE) && col + 1 <= lim)
		dl_add(dl, slot, "\"", 1, 1);
	return dl->cols - start;
}

void
text_escape(char *buf, size_t len, const char *p, size_t n, int maxcols)
{
	struct dline	dl;

	dl_init(&dl);
	dl_text(&dl, S_NORMAL, p, n, 0, maxcols, 0);
	snprintf(buf, len, "%s", dl.s != NULL ? dl.s : "");
	/* snprintf may have cut a character: back off to a boundary. */
	if (dl.len >= len && len > 0) {
		size_t	e = len - 1;

		/* Drop the last character, which may be incomplete. */
		do
			e--;
		while (e > 0 && ((unsigned char)buf[e] & 0xc0) == 0x80);
		buf[e] = '\0';
	}
	dl_free(&dl);
}

/* ------------------------------------------------------------- output */

void
draw_dline(int y, const struct dline *dl, int w, int pad, int select)
{
	size_t		i = 0, j, len;
	unsigned	cp;
	int		col = 0, cw, slot;

	move(y, 0);
	while (i < dl->len && col < w) {
		slot = dl->a[i];
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
		if (select && slot != S_MATCH)
			attrset(slot_attr[S_SELECT]);
		else
			attrset(slot_attr[slot]);
		addnstr(dl->s + i, (int)(j - i));
		i = j;
	}
	attrset(slot_attr[select ? S_SELECT : pad]);
	for (; col < w; col++)
		addch(' ');
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
