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
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>

#include "tui.h"
#include "re.h"

struct re {
	struct gguf_re	*code;
	char		*pat;
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

	re = xcalloc(1, sizeof *re);
	re->code = gguf_re_compile(pat, GGUF_RE_UTF | (has_upper(pat) ? 0 :
	    GGUF_RE_CASELESS), &e);
	if (re->code == NULL) {
		snprintf(err, errlen, "%s", e.msg);
		free(re);
		return NULL;
	}
	re->pat = xstrdup(pat);
	return re;
}

int
re_match(struct re *re, const char *s, size_t n, size_t start, size_t *so,
    size_t *eo)
{
	return gguf_re_match(re->code, s, n, start, so, eo);
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
