/*
 * search.c - the one wrapper around PCRE2 in the interface.
 *
 * Patterns are compiled in UTF mode (the text they run on is the escaped
 * display text, valid UTF-8 by construction) and JIT-compiled; when the
 * JIT is unavailable the interpreter is used and nothing else changes.
 * A match context bounds backtracking, so a pattern such as (a*)*b on a
 * long line fails fast with "no match" instead of freezing the screen.
 *
 * Smart case, as in less -i and vim's smartcase: a pattern with no
 * upper-case letter matches caselessly; one with any is case-sensitive.
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>

#include <pcre2.h>

#include "tui.h"

struct re {
	pcre2_code		*code;
	pcre2_match_data	*md;
	pcre2_match_context	*mc;
	char			*pat;
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
	PCRE2_SIZE	 eoff;
	uint32_t	 opts = PCRE2_UTF | PCRE2_UCP;
	int		 ecode;
	char		 msg[256];

	if (!has_upper(pat))
		opts |= PCRE2_CASELESS;
	re = xcalloc(1, sizeof *re);
	re->code = pcre2_compile((PCRE2_SPTR)pat, PCRE2_ZERO_TERMINATED, opts,
	    &ecode, &eoff, NULL);
	if (re->code == NULL) {
		pcre2_get_error_message(ecode, (PCRE2_UCHAR *)msg, sizeof msg);
		snprintf(err, errlen, "regex error at position %zu: %s",
		    (size_t)eoff, msg);
		free(re);
		return NULL;
	}
	(void)pcre2_jit_compile(re->code, PCRE2_JIT_COMPLETE);
	re->md = pcre2_match_data_create_from_pattern(re->code, NULL);
	re->mc = pcre2_match_context_create(NULL);
	if (re->md == NULL || re->mc == NULL) {
		snprintf(err, errlen, "out of memory");
		re_free(re);
		return NULL;
	}
	pcre2_set_match_limit(re->mc, 100000);
	pcre2_set_depth_limit(re->mc, 1000);
	re->pat = xstrdup(pat);
	return re;
}

int
re_match(struct re *re, const char *s, size_t n, size_t start, size_t *so,
    size_t *eo)
{
	PCRE2_SIZE	*ov;
	int		 rc;

	if (start > n)
		return 0;
	rc = pcre2_match(re->code, (PCRE2_SPTR)s, n, start,
	    PCRE2_NO_UTF_CHECK, re->md, re->mc);
	if (rc < 0)
		return 0;
	ov = pcre2_get_ovector_pointer(re->md);
	*so = ov[0];
	*eo = ov[1] < ov[0] ? ov[0] : ov[1];	/* \K can make it end first */
	return 1;
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
	pcre2_match_context_free(re->mc);
	pcre2_match_data_free(re->md);
	pcre2_code_free(re->code);
	free(re->pat);
	free(re);
}
