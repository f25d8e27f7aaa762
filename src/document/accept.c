/*
 * accept.c - whether llama.cpp would load a value stored under a key of
 * the document: the one check every front end makes before an edit.
 *
 * A well-known key that llama.cpp reads through a type-checking reader
 * (schema.h: gguf_schema_strict) given a type the schema does not list
 * for it is refused: the load fails.
 *
 * A special token id (tokenizer.ggml.*_token_id) that is not a token of
 * the document's vocabulary is not refused: llama.cpp loads the model,
 * logs "bad special token" and keeps its default id. The edit is made
 * and gguf_doc_token_outside says so (a warning). -1 and UINT32_MAX (-1
 * written as u32) mean "no such token" to the writers that use them, and
 * any id is fine when the document has no vocabulary to hold it against.
 *
 * The reader and `validate` find the same defects in files that have
 * them already (reader.c, check.c) and say so with the same words; here
 * a refused edit is stopped unless the caller forces it (GGUF_SET_FORCE).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "doc.h"
#include "schema.h"

/* tokenizer.ggml.*_token_id (a schema pattern). */
static int
is_token_id(const char *pattern)
{
	static const char	pre[] = "tokenizer.ggml.", suf[] = "_token_id";
	size_t			n = strlen(pattern);

	return n > sizeof pre - 1 + sizeof suf - 1 &&
	    strncmp(pattern, pre, sizeof pre - 1) == 0 &&
	    strcmp(pattern + n - (sizeof suf - 1), suf) == 0;
}

int
gguf_doc_check_loadable(struct gguf_doc *d, const char *key, size_t klen,
    struct gguf_val *v, struct gguf_err *err)
{
	const struct gguf_key_spec	*spec;
	struct gguf_val			*av;
	struct gguf_str			 arch = { NULL, 0 };
	char				 buf[256], got[32];

	av = gguf_doc_get(d, "general.architecture", 20);
	if (av == NULL || gguf_val_str(av, &arch) != 0)
		arch.n = 0;
	spec = gguf_schema_find(key, klen, arch.p, (size_t)arch.n);
	if (spec == NULL)
		return 0;
	if (!gguf_schema_type_ok(spec, v->type, v->atype)) {
		if (!gguf_schema_strict(spec))
			return 0;
		return gguf_errf(err, -1, "%s should be %s, not %s: llama.cpp "
		    "refuses another type", gguf_pname(key, klen, buf,
		    sizeof buf), spec->types, gguf_vtype_text(v->type,
		    v->atype, got, sizeof got));
	}
	return 0;
}

int
gguf_doc_token_outside(struct gguf_doc *d, const char *key, size_t klen,
    const struct gguf_val *v, char *msg, size_t len)
{
	const struct gguf_key_spec	*spec;
	struct gguf_val			*av, *voc;
	struct gguf_str			 arch = { NULL, 0 };
	uint64_t			 id;
	char				 buf[256], g1[32], g2[32];

	av = gguf_doc_get(d, "general.architecture", 20);
	if (av == NULL || gguf_val_str(av, &arch) != 0)
		arch.n = 0;
	spec = gguf_schema_find(key, klen, arch.p, (size_t)arch.n);
	/* Negative ids fail gguf_val_u64: they are "none". */
	if (spec == NULL || !is_token_id(spec->key) ||
	    v->type == GGUF_VT_ARR || v->type == GGUF_VT_STR ||
	    gguf_val_u64(v, &id) != 0 || id == UINT32_MAX)
		return 0;
	voc = gguf_doc_get(d, "tokenizer.ggml.tokens", 21);
	if (voc == NULL || voc->type != GGUF_VT_ARR || voc->count == 0 ||
	    id < voc->count)
		return 0;
	snprintf(msg, len, "%s: llama.cpp ignores token %llu, outside the "
	    "vocabulary (%s tokens, 0 to %s), and keeps its default",
	    gguf_pname(key, klen, buf, sizeof buf), (unsigned long long)id,
	    gguf_fmt_group(voc->count, g1, sizeof g1),
	    gguf_fmt_group(voc->count - 1, g2, sizeof g2));
	return 1;
}
