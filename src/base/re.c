/*
 * re.c - the wrapper around PCRE2 (see re.h).
 *
 * A compiled expression carries its own match data and match context,
 * so matching allocates nothing; an expression is used by one thread at
 * a time.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <pcre2.h>

#include "xmalloc.h"
#include "re.h"

struct gguf_re {
	pcre2_code		*code;
	pcre2_match_data	*md;
	pcre2_match_context	*mc;
	uint32_t		 mopts;		/* options of every match */
	int			 matched;	/* the last match succeeded */
};

static int
re_errf(struct gguf_err *err, int code, const char *what)
{
	PCRE2_UCHAR	msg[256];

	pcre2_get_error_message(code, msg, sizeof msg);
	return gguf_errf(err, -1, "%s: %s", what, (const char *)msg);
}

struct gguf_re *
gguf_re_compile(const char *pat, unsigned flags, struct gguf_err *err)
{
	struct gguf_re	*re;
	PCRE2_SIZE	 eoff;
	PCRE2_UCHAR	 msg[256];
	uint32_t	 opts = 0;
	int		 ecode;

	if (flags & GGUF_RE_CASELESS)
		opts |= PCRE2_CASELESS;
	if (flags & GGUF_RE_UTF)
		opts |= PCRE2_UTF | PCRE2_UCP;
	re = xcalloc(1, sizeof *re);
	re->code = pcre2_compile((PCRE2_SPTR)pat, PCRE2_ZERO_TERMINATED, opts,
	    &ecode, &eoff, NULL);
	if (re->code == NULL) {
		pcre2_get_error_message(ecode, msg, sizeof msg);
		gguf_errf(err, -1, "regex error at position %zu: %s",
		    (size_t)eoff, (const char *)msg);
		free(re);
		return NULL;
	}
	(void)pcre2_jit_compile(re->code, PCRE2_JIT_COMPLETE);
	re->md = pcre2_match_data_create_from_pattern(re->code, NULL);
	re->mc = pcre2_match_context_create(NULL);
	if (re->md == NULL || re->mc == NULL) {
		gguf_re_free(re);
		gguf_errf(err, -1, "out of memory");
		return NULL;
	}
	pcre2_set_match_limit(re->mc, GGUF_RE_MATCH_LIMIT);
	pcre2_set_depth_limit(re->mc, GGUF_RE_DEPTH_LIMIT);
	if (flags & GGUF_RE_UTF)
		re->mopts = PCRE2_NO_UTF_CHECK;
	return re;
}

void
gguf_re_free(struct gguf_re *re)
{
	if (re == NULL)
		return;
	pcre2_match_context_free(re->mc);
	pcre2_match_data_free(re->md);
	pcre2_code_free(re->code);
	free(re);
}

int
gguf_re_match(struct gguf_re *re, const char *s, size_t n, size_t start,
    size_t *so, size_t *eo)
{
	PCRE2_SIZE	*ov;

	re->matched = 0;
	if (start > n || pcre2_match(re->code, (PCRE2_SPTR)s, n, start,
	    re->mopts, re->md, re->mc) < 0)
		return 0;
	re->matched = 1;
	ov = pcre2_get_ovector_pointer(re->md);
	*so = ov[0];
	*eo = ov[1] < ov[0] ? ov[0] : ov[1];	/* \K can make it end first */
	return 1;
}

int
gguf_re_group(struct gguf_re *re, const char *name, size_t *so, size_t *eo)
{
	PCRE2_SIZE	*ov;
	int		 g;

	if (!re->matched)
		return 0;
	g = pcre2_substring_number_from_name(re->code, (PCRE2_SPTR)name);
	if (g <= 0 || (uint32_t)g >= pcre2_get_ovector_count(re->md))
		return 0;
	ov = pcre2_get_ovector_pointer(re->md);
	if (ov[2 * g] == PCRE2_UNSET)
		return 0;
	*so = ov[2 * g];
	*eo = ov[2 * g + 1];
	return 1;
}

int
gguf_re_subst(struct gguf_re *re, const char *s, size_t n, const char *repl,
    int global, char **out, size_t *outlen, struct gguf_err *err)
{
	PCRE2_SIZE	 len = 256;
	PCRE2_UCHAR	*buf;
	uint32_t	 opt = re->mopts | PCRE2_SUBSTITUTE_OVERFLOW_LENGTH;
	int		 rc;

	re->matched = 0;
	if (global)
		opt |= PCRE2_SUBSTITUTE_GLOBAL;
	for (;;) {
		buf = xmalloc(len);
		rc = pcre2_substitute(re->code, (PCRE2_SPTR)s, (PCRE2_SIZE)n,
		    0, opt, re->md, re->mc, (PCRE2_SPTR)repl,
		    PCRE2_ZERO_TERMINATED, buf, &len);
		if (rc != PCRE2_ERROR_NOMEMORY)
			break;
		free(buf);
	}
	if (rc <= 0) {
		free(buf);
		return rc == 0 ? 0 : re_errf(err, rc, "substitution");
	}
	*out = (char *)buf;
	*outlen = len;
	return 1;
}
