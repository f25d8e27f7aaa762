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

#include <pcre2.h>

#include "naming.h"

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

int
gguf_name_parse(const char *path, struct gguf_name *out,
    struct gguf_err *err)
{
	pcre2_code		*re;
	pcre2_match_data	*md;
	PCRE2_SIZE		 eoff, *ov;
	const char		*name, *slash;
	int			 ecode, rc, i, g;
	char			 msg[256];

	memset(out, 0, sizeof *out);
	slash = strrchr(path, '/');
	name = slash != NULL ? slash + 1 : path;

	re = pcre2_compile((PCRE2_SPTR)naming_re, PCRE2_ZERO_TERMINATED, 0,
	    &ecode, &eoff, NULL);
	if (re == NULL) {
		pcre2_get_error_message(ecode, (PCRE2_UCHAR *)msg, sizeof msg);
		return gguf_errf(err, -1, "naming expression at %zu: %s",
		    (size_t)eoff, msg);
	}
	md = pcre2_match_data_create_from_pattern(re, NULL);
	if (md == NULL) {
		pcre2_code_free(re);
		return gguf_errf(err, -1, "out of memory");
	}
	rc = pcre2_match(re, (PCRE2_SPTR)name, strlen(name), 0, 0, md, NULL);
	if (rc < 0 && rc != PCRE2_ERROR_NOMATCH) {
		pcre2_get_error_message(rc, (PCRE2_UCHAR *)msg, sizeof msg);
		pcre2_match_data_free(md);
		pcre2_code_free(re);
		return gguf_errf(err, -1, "matching the file name: %s", msg);
	}
	if (rc >= 0) {
		out->matched = 1;
		ov = pcre2_get_ovector_pointer(md);
		for (i = 0; i < GGUF_NP_COUNT; i++) {
			g = pcre2_substring_number_from_name(re,
			    (PCRE2_SPTR)part_labels[i]);
			if (g <= 0 || g >= rc || ov[2 * g] == PCRE2_UNSET)
				continue;
			out->part[i].p = name + ov[2 * g];
			out->part[i].n = ov[2 * g + 1] - ov[2 * g];
		}
	}
	pcre2_match_data_free(md);
	pcre2_code_free(re);
	return 0;
}
