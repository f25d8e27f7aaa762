/*
 * test_dline.c - names shortened in the middle (text_middle, dl_text with
 * DT_MIDDLE): the width in columns is never exceeded and is filled, the
 * ends are kept, a cut never falls inside a character or an escape, and
 * the tail takes the odd column.
 */
#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui.h"
#include "tap.h"

/* The name p drawn in lim columns as a name: its text into buf. */
static int
draw_name(const char *p, int lim, char *buf, size_t len)
{
	struct dline	dl;
	int		w;

	dl_init(&dl);
	w = dl_text(&dl, S_KEY, p, strlen(p), 0, lim, DT_MIDDLE);
	snprintf(buf, len, "%s", dl.s != NULL ? dl.s : "");
	if (w != dl.cols)
		w = -1;
	dl_free(&dl);
	return w;
}

/* The escaped form of p[0, n) at any width, as dl_text shows it. */
static void
escaped(const char *p, size_t n, char *buf, size_t len)
{
	struct dline	dl;

	dl_init(&dl);
	dl_text(&dl, S_KEY, p, n, 0, 1 << 20, 0);
	snprintf(buf, len, "%s", dl.s != NULL ? dl.s : "");
	dl_free(&dl);
}

/* Every byte sequence in s is whole UTF-8. */
static int
valid_utf8(const char *s)
{
	size_t		i = 0, n = strlen(s), k;
	unsigned	cp;

	while (i < n) {
		k = gguf_utf8_seq((const unsigned char *)s + i, n - i, &cp);
		if (k == 0)
			return 0;
		i += k;
	}
	return 1;
}

/*
 * At every width from 1 to past its own: the name fills exactly
 * min(width, its width) columns, is valid UTF-8, and is the escaped form
 * of a head of the name, an ellipsis and the escaped form of a tail.
 */
static void
every_width(const char *what, const char *p)
{
	char	full[512], got[512], want[512], h[512], t[512];
	size_t	head, tail, n = strlen(p);
	int	fw, lim, w, bad = 0, cut;

	escaped(p, n, full, sizeof full);
	fw = text_width(p, n, 0, 1 << 20);
	for (lim = 1; lim <= fw + 2 && !bad; lim++) {
		w = draw_name(p, lim, got, sizeof got);
		cut = text_middle(p, n, 0, lim, &head, &tail);
		if (w != (lim < fw ? lim : fw) || !valid_utf8(got) ||
		    cut != (fw > lim)) {
			diag("%s at %d: \"%s\" (%d columns)", what, lim, got, w);
			bad = 1;
			break;
		}
		if (!cut) {
			bad = strcmp(got, full) != 0;
			continue;
		}
		escaped(p, head, h, sizeof h);
		escaped(p + tail, n - tail, t, sizeof t);
		/* The cuts fall between the pieces of the whole name. */
		if (head > tail || strncmp(full, h, strlen(h)) != 0 ||
		    strlen(t) > strlen(full) ||
		    strcmp(full + strlen(full) - strlen(t), t) != 0) {
			diag("%s at %d: cut at %zu and %zu", what, lim, head,
			    tail);
			bad = 1;
			break;
		}
		/* A wide character that did not fit leaves a blank. */
		while (strlen(h) + 2 < sizeof h &&
		    text_width(h, strlen(h), DT_KEEPBS, 1 << 20) +
		    text_width(t, strlen(t), DT_KEEPBS, 1 << 20) < lim - 1)
			strcat(h, " ");
		snprintf(want, sizeof want, "%s\xe2\x80\xa6%s", h, t);
		if (strcmp(got, want) != 0) {
			diag("%s at %d: \"%s\", want \"%s\"", what, lim, got,
			    want);
			bad = 1;
		}
	}
	ok(!bad, "%s: every width from 1 to %d", what, fw + 2);
}

int
main(void)
{
	char		buf[256];
	size_t		head, tail;
	const char	*mark = "abcdefgh\xcc\x81" "ij";	/* h + U+0301 */

	if (setlocale(LC_ALL, "C.UTF-8") == NULL &&
	    setlocale(LC_ALL, "en_US.UTF-8") == NULL) {
		skip("no UTF-8 locale");
		return tap_done();
	}
	tui_utf8 = 1;

	/* The ends of a tensor name carry the meaning. */
	is_u64(draw_name("blk.12.ffn_down_exps.weight", 24, buf, sizeof buf),
	    24, "a tensor name in 24 columns fills them");
	ok(strcmp(buf, "blk.12.ffn_\xe2\x80\xa6_exps.weight") == 0,
	    "blk.12.ffn_down_exps.weight in 24 columns: \"%s\"", buf);
	is_u64(draw_name("blk.12.ffn_down_exps.weight", 27, buf, sizeof buf),
	    27, "a name that fits is shown whole");
	ok(strcmp(buf, "blk.12.ffn_down_exps.weight") == 0,
	    "  as it is: \"%s\"", buf);
	draw_name("general.architecture", 12, buf, sizeof buf);
	ok(strcmp(buf, "gener\xe2\x80\xa6" "ecture") == 0,
	    "the tail takes the odd column: \"%s\"", buf);
	draw_name("abcdef", 1, buf, sizeof buf);
	ok(strcmp(buf, "\xe2\x80\xa6") == 0, "one column: the ellipsis alone");

	/* Wide characters: counted in columns, never split. */
	draw_name("\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\xe3\x83\x86"
	    "\xe3\x82\xad\xe3\x82\xb9\xe3\x83\x88", 8, buf, sizeof buf);
	ok(strcmp(buf, "\xe6\x97\xa5 \xe2\x80\xa6\xe3\x82\xb9\xe3\x83\x88")
	    == 0, "seven wide characters in 8 columns: \"%s\"", buf);
	is_u64(text_width(buf, strlen(buf), DT_KEEPBS, 100), 8,
	    "  take 8 columns");
	every_width("wide characters", "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e"
	    ".ffn_\xe3\x83\x86\xe3\x82\xad\xe3\x82\xb9\xe3\x83\x88.weight");

	/* Escapes are one piece: \x1b is kept whole or left out. */
	every_width("escapes", "a\x1b[31mred\x1b[0m.attn\xff\xfe.weight");
	every_width("C1 and bidi", "x\xc2\x9bq\xe2\x80\xaey.ffn_up.weight");
	every_width("plain ASCII", "blk.12.ffn_down_exps.weight");

	/* A combining mark stays with its base: never first in the tail. */
	text_middle(mark, strlen(mark), 0, 5, &head, &tail);
	ok(tail == 10, "the tail does not start at a combining mark (%zu)",
	    tail);
	every_width("a combining mark", mark);

	/* No UTF-8: the ellipsis is ~. */
	tui_utf8 = 0;
	draw_name("blk.12.ffn_down_exps.weight", 24, buf, sizeof buf);
	ok(strcmp(buf, "blk.12.ffn_~_exps.weight") == 0,
	    "without UTF-8 the ellipsis is ~: \"%s\"", buf);
	return tap_done();
}
