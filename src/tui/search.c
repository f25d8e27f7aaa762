/*
 * search.c - the browser's search and filter patterns, over the core's
 * regular expressions (re.h: JIT-compiled, bounded, so a pattern such as
 * (a*)*b on a long line fails fast with "no match" instead of freezing
 * the screen).
 *
 * Patterns are compiled in UTF mode: the text they run on is the escaped
 * display text, valid UTF-8 by construction.
 *
 * Smart case, as in less -i and vim's smartcase: a pattern with no
 * upper-case letter matches caselessly; one with any is case-sensitive.
 *
 * Plain text is accepted too: what is typed also matches as a literal
 * string, so `1+1`, `c++` or `a(b` find themselves whether or not they
 * are regular expressions (one that does not compile is searched as text
 * only). A match is the earlier of the two.
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui.h"
#include "re.h"

struct re {
	struct gguf_re	*code;		/* NULL: not a regular expression */
	char		*pat;
	size_t		 len;
	int		 icase;
};

static int
has_upper(const char *s)
{
	for (; *s != '\0'; s++) {
		if (*s == '\\' && s[1] != '\0') {
			s++;		/* \S \W \D are classes, not letters */
			continue;
		}
		if (isupper((unsigned char)*s))
			return 1;
	}
	return 0;
}

struct re *
re_compile(const char *pat, char *err, size_t errlen)
{
	struct re	*re;
	struct gguf_err	 e;

	if (*pat == '\0') {
		snprintf(err, errlen, "empty pattern");
		return NULL;
	}
	re = xcalloc(1, sizeof *re);
	re->icase = !has_upper(pat);
	re->code = gguf_re_compile(pat, GGUF_RE_UTF | (re->icase ?
	    GGUF_RE_CASELESS : 0), &e);
	re->pat = xstrdup(pat);
	re->len = strlen(pat);
	return re;
}

/* The pattern as plain text in s[start, n): 1 with its span, or 0. */
static int
literal(const struct re *re, const char *s, size_t n, size_t start,
    size_t *so, size_t *eo)
{
	size_t	i, k;

	for (i = start; i + re->len <= n; i++) {
		for (k = 0; k < re->len; k++) {
			unsigned char	a = (unsigned char)s[i + k];
			unsigned char	b = (unsigned char)re->pat[k];

			if (a != b && !(re->icase && a < 0x80 && b < 0x80 &&
			    tolower(a) == tolower(b)))
				break;
		}
		if (k == re->len) {
			*so = i;
			*eo = i + re->len;
			return 1;
		}
	}
	return 0;
}

int
re_match(struct re *re, const char *s, size_t n, size_t start, size_t *so,
    size_t *eo)
{
	size_t	lso, leo;
	int	r;

	r = re->code != NULL && gguf_re_match(re->code, s, n, start, so, eo);
	if (literal(re, s, n, start, &lso, &leo) && (!r || lso < *so)) {
		*so = lso;
		*eo = leo;
		return 1;
	}
	return r;
}

const char *
re_pattern(const struct re *re)
{
	return re->pat;
}

void
re_free(struct re *re)
{
	if (re == NULL)
		return;
	gguf_re_free(re->code);
	free(re->pat);
	free(re);
}
