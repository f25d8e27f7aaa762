/*
 * naming.c - the GGUF file-naming convention, by the specification's own
 * regular expression.
 *
 * The expression below is copied character for character from the
 * "Validating Above Naming Convention" section of the GGUF specification
 * (only the C string escaping of backslashes is added). It relies on named
 * groups, \s \d \w classes and a negative lookahead, all of which PCRE2
 * supports with the same meaning as the JavaScript engine the
 * specification's example uses. It is matched against bytes (no UTF mode):
 * the expression is ASCII-only, and a name with invalid UTF-8 must not
 * make the match fail with an encoding error rather than "no".
 */
#include "config.h"

#include <string.h>

#include "naming.h"
#include "re.h"

static const char naming_re[] =
    "^(?<BaseName>[A-Za-z0-9\\s]*(?:(?:-(?:(?:[A-Za-z\\s][A-Za-z0-9\\s]*)|"
    "(?:[0-9\\s]*)))*))-(?:(?<SizeLabel>(?:\\d+x)?(?:\\d+\\.)?\\d+[A-Za-z]"
    "(?:-[A-Za-z]+(\\d+\\.)?\\d+[A-Za-z]+)?)(?:-(?<FineTune>[A-Za-z0-9\\s-]+))"
    "?)?-(?:(?<Version>v\\d+(?:\\.\\d+)*))(?:-(?<Encoding>(?!LoRA|vocab)"
    "[\\w_]+))?(?:-(?<Type>LoRA|vocab))?(?:-(?<Shard>\\d{5}-of-\\d{5}))?"
    "\\.gguf$";

static const char *const part_labels[GGUF_NP_COUNT] = {
	"BaseName", "SizeLabel", "FineTune", "Version", "Encoding", "Type",
	"Shard"
};

const char *
gguf_name_part_label(enum gguf_name_part p)
{
	return (unsigned)p < GGUF_NP_COUNT ? part_labels[p] : "?";
}

/*
 * Whether name can match at all: the expression ends in ".gguf" and has
 * a version ("-v" and a digit) that is not optional. Most names that do
 * not follow the convention fail this, without compiling the expression.
 */
static int
may_match(const char *name)
{
	size_t		 n = strlen(name);
	const char	*p;

	if (n < 5 || memcmp(name + n - 5, ".gguf", 5) != 0)
		return 0;
	for (p = name; (p = strstr(p, "-v")) != NULL; p += 2)
		if (p[2] >= '0' && p[2] <= '9')
			return 1;
	return 0;
}

int
gguf_name_parse(const char *path, struct gguf_name *out,
    struct gguf_err *err)
{
	struct gguf_re	*re;
	const char	*name, *slash;
	size_t		 so, eo;
	int		 i;

	memset(out, 0, sizeof *out);
	slash = strrchr(path, '/');
	name = slash != NULL ? slash + 1 : path;
	if (!may_match(name))
		return 0;

	if ((re = gguf_re_compile(naming_re, 0, err)) == NULL)
		return -1;
	if (gguf_re_match(re, name, strlen(name), 0, &so, &eo)) {
		out->matched = 1;
		for (i = 0; i < GGUF_NP_COUNT; i++) {
			if (!gguf_re_group(re, part_labels[i], &so, &eo))
				continue;
			out->part[i].p = name + so;
			out->part[i].n = eo - so;
		}
	}
	gguf_re_free(re);
	return 0;
}
