/*
 * dline.c - width-aware UTF-8 text, escaping, and lines being composed.
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
 * A name too long for its column is shortened in the middle (DT_MIDDLE):
 * the ends of a name are what tell it from its neighbours.
 *
 * Nothing here draws: this file has no curses, so the unit tests link it.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "tui.h"

int	tui_utf8;

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

int
text_middle(const char *p, size_t n, unsigned flags, int w, size_t *head,
    size_t *tail)
{
	struct piece	pc;
	size_t		i;
	int		total, cols, room, tw;

	*head = *tail = n;
	total = text_width(p, n, flags, w);
	if (total <= w)
		return 0;
	total = text_width(p, n, flags, INT_MAX - 64);
	room = w > 1 ? w - 1 : 0;
	tw = (room + 1) / 2;		/* the tail gets the odd column */
	/* The tail: from the first boundary after which tw columns remain. */
	for (i = 0, cols = 0; i < n && total - cols > tw; i += pc.used) {
		next_piece(p, n, i, flags, i == 0, &pc);
		cols += pc.w;
	}
	/* Never begin the tail with a mark that combines with the ellipsis. */
	for (; i < n; i += pc.used) {
		next_piece(p, n, i, flags, i == 0, &pc);
		if (pc.w > 0)
			break;
		cols += pc.w;
	}
	*tail = i;
	tw = total - cols;
	/* The head: as much as the rest of the room takes. */
	for (i = 0, cols = 0; i < *tail; i += pc.used) {
		next_piece(p, n, i, flags, i == 0, &pc);
		if (cols + pc.w > room - tw)
			break;
		cols += pc.w;
	}
	*head = i;
	return 1;
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

/* dl_text for DT_MIDDLE: the head, an ellipsis, the tail, lim columns. */
static int
dl_middle(struct dline *dl, int slot, const char *p, size_t n, int lim,
    unsigned flags)
{
	struct piece	pc;
	size_t		head, tail, i;
	int		start = dl->cols, tw;

	if (!text_middle(p, n, flags, lim, &head, &tail))
		head = tail = n;
	for (i = 0; i < head; i += pc.used) {
		next_piece(p, n, i, flags, i == 0, &pc);
		dl_piece(dl, slot, &pc);
	}
	if (head == n)
		return dl->cols - start;
	tw = text_width(p + tail, n - tail, flags & ~DT_QUOTE, lim);
	/* A wide character that did not fit leaves a blank before the cut. */
	dl_pad(dl, slot, start + lim - 1 - tw);
	dl_add(dl, S_DIM, g_ellipsis(), strlen(g_ellipsis()), 1);
	for (i = tail; i < n; i += pc.used) {
		next_piece(p, n, i, flags, i == 0, &pc);
		dl_piece(dl, slot, &pc);
	}
	return dl->cols - start;
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
	if ((flags & DT_MIDDLE) && skip == 0 && !(flags & DT_QUOTE))
		return dl_middle(dl, slot, p, n, lim, flags);
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

static void
escape_into(char *buf, size_t len, const char *p, size_t n, int maxcols,
    unsigned flags)
{
	struct dline	dl;

	dl_init(&dl);
	dl_text(&dl, S_NORMAL, p, n, 0, maxcols, flags);
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

void
text_escape(char *buf, size_t len, const char *p, size_t n, int maxcols)
{
	escape_into(buf, len, p, n, maxcols, 0);
}

void
typed_escape(char *buf, size_t len, const char *p, size_t n, int maxcols)
{
	escape_into(buf, len, p, n, maxcols, DT_KEEPBS);
}

void
name_escape(char *buf, size_t len, const char *p, size_t n, int maxcols)
{
	escape_into(buf, len, p, n, maxcols, DT_MIDDLE);
}
