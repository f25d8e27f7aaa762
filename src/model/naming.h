/*
 * naming.h - the GGUF file-naming convention.
 *
 * The GGUF specification names model files
 * <BaseName>-<SizeLabel>-<FineTune>-<Version>-<Encoding>-<Type>-<Shard>.gguf
 * and gives one regular expression to validate and split such a name. That
 * expression is used here as written in the specification, through PCRE2,
 * so that what ggufed says about a name is what the specification says.
 */
#ifndef GGUF_NAMING_H
#define GGUF_NAMING_H

#include <stddef.h>

#include "gguf.h"

enum gguf_name_part {
	GGUF_NP_BASENAME, GGUF_NP_SIZELABEL, GGUF_NP_FINETUNE,
	GGUF_NP_VERSION, GGUF_NP_ENCODING, GGUF_NP_TYPE, GGUF_NP_SHARD,
	GGUF_NP_COUNT
};

struct gguf_name {
	int		matched;		/* follows the convention */
	struct gguf_str	part[GGUF_NP_COUNT];	/* views into the name; n 0 if absent */
};

/* "BaseName", "SizeLabel", ... as the specification spells them. */
const char	*gguf_name_part_label(enum gguf_name_part p);

/*
 * Splits the last path component of path by the convention. Returns 0 and
 * fills out (matched 0 when the name does not follow the convention; the
 * parts then all have n 0), or -1 with err set if the expression could not
 * be compiled or run. The parts point into path, which must outlive out.
 */
int		 gguf_name_parse(const char *path, struct gguf_name *out,
		    struct gguf_err *err);

#endif /* GGUF_NAMING_H */
