/*
 * fuzz_template.c - fuzz target: the template renderer over hostile
 * templates and contexts.
 *
 * Input: a template, then optionally a NUL byte and a JSON context. Input
 * without a NUL, or whose JSON does not parse, renders with a built-in
 * context (a conversation with tools and the special tokens, as the
 * template command passes). Limits are tight (1 MiB of output, 200000
 * steps, depth 64, 2 s, 64 MiB of values) so that a loop bomb ends in an
 * error, not a timeout.
 *
 * Beyond "no crash, no hang, no sanitizer report or leak":
 *	- a parse error and a render error carry a message and a line
 *	  (and a column) inside the template (a parse error of a source
 *	  over JINJA_MAX_SOURCE bytes has none: it is not read);
 *	- a rendering is NUL-terminated, its length as reported, within
 *	  the output limit;
 *	- rendering is a pure function of template and context: a second
 *	  rendering of the same parsed template gives the same bytes or the
 *	  same error (nothing of one rendering leaks into the next, and the
 *	  context is not changed).
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "jinja/jinja.h"
#include "jinja/jv.h"
#include "fuzz.h"

static const char default_ctx[] =
    "{\"messages\": ["
    "{\"role\": \"system\", \"content\": \"You are helpful.\"},"
    "{\"role\": \"user\", \"content\": \"Hi \\u00e9\"},"
    "{\"role\": \"assistant\", \"content\": null, \"tool_calls\": [{\"type\": "
    "\"function\", \"function\": {\"name\": \"f\", \"arguments\": {\"a\": 1}}}]},"
    "{\"role\": \"tool\", \"content\": \"42\"},"
    "{\"role\": \"assistant\", \"content\": \"ok\"}],"
    "\"tools\": [{\"type\": \"function\", \"function\": {\"name\": \"f\", "
    "\"parameters\": {\"type\": \"object\", \"properties\": {\"a\": "
    "{\"type\": \"integer\"}}}}}],"
    "\"add_generation_prompt\": true, \"bos_token\": \"<s>\", "
    "\"eos_token\": \"</s>\", \"documents\": null, \"n\": 1.5}";

static unsigned
count_lines(const char *s, size_t n)
{
	unsigned lines = 1;
	size_t	i;

	for (i = 0; i < n; i++)
		if (s[i] == '\n' || (s[i] == '\r' && (i + 1 == n || s[i + 1] != '\n')))
			lines++;
	return lines;
}

static void
check_error(const struct jinja_error *e, unsigned lines, size_t srcn,
    const char *what)
{
	if (e->msg[0] == '\0')
		fuzz_fail("%s error without a message", what);
	if (memchr(e->msg, '\0', sizeof e->msg) == NULL)
		fuzz_fail("%s error message not terminated", what);
	if (e->line > lines || (e->line > 0 && e->col == 0))
		fuzz_fail("%s error at %u:%u outside a template of %u lines: %s",
		    what, e->line, e->col, lines, e->msg);
	if (e->line == 0 && !e->raised && strcmp(what, "parse") == 0 &&
	    srcn <= JINJA_MAX_SOURCE)
		fuzz_fail("parse error without a position: %s", e->msg);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char	*src = (const char *)data, *nul;
	size_t		 srcn = size;
	struct jinja_limits lim = { 1u << 20, 200000, 64, 2000, 64u << 20 };
	struct jinja_error e1, e2;
	struct jinja	*t;
	char		*o1 = NULL, *o2 = NULL, jerr[200];
	size_t		 n1 = 0, n2 = 0;
	jv		*ctx = NULL;
	int		 r1, r2;
	unsigned	 lines;

	if ((nul = memchr(data, '\0', size)) != NULL) {
		srcn = (size_t)(nul - src);
		ctx = jv_parse_json(nul + 1, size - srcn - 1, jerr, sizeof jerr);
		if (ctx == NULL && jerr[0] == '\0')
			fuzz_fail("a JSON error without a message");
	}
	if (ctx == NULL)
		ctx = jv_parse_json(default_ctx, sizeof default_ctx - 1, jerr,
		    sizeof jerr);
	if (ctx == NULL)
		fuzz_fail("the built-in context does not parse: %s", jerr);
	lines = count_lines(src, srcn);
	t = jinja_parse(src, srcn, &e1);
	if (t == NULL) {
		check_error(&e1, lines, srcn, "parse");
		jv_unref(ctx);
		return 0;
	}
	r1 = jinja_render(t, ctx, &lim, 1753000000, &o1, &n1, &e1);
	r2 = jinja_render(t, ctx, &lim, 1753000000, &o2, &n2, &e2);
	if (r1 != r2)
		fuzz_fail("two renderings disagree: %d then %d", r1, r2);
	if (r1 == 0) {
		if (o1 == NULL || o1[n1] != '\0' || n1 > lim.max_output)
			fuzz_fail("a rendering of %zu bytes is malformed", n1);
		if (n1 != n2 || memcmp(o1, o2, n1) != 0)
			fuzz_fail("two renderings differ (%zu and %zu bytes)", n1, n2);
	} else {
		check_error(&e1, lines, srcn, "render");
		/* a time limit may strike at a different step; anything else may not */
		if (strcmp(e1.msg, e2.msg) != 0 && strstr(e1.msg, "too long") == NULL &&
		    strstr(e2.msg, "too long") == NULL)
			fuzz_fail("two renderings fail differently: \"%s\" then \"%s\"",
			    e1.msg, e2.msg);
	}
	free(o1);
	free(o2);
	jinja_free(t);
	jv_unref(ctx);
	return 0;
}
