/*
 * schema.h - the well-known metadata keys: their type and meaning.
 *
 * The table is assets/keys.tsv, turned into C at build time (build-aux/
 * keys2c), so the file a user reads and the checks ggufed makes are one.
 * Keys are patterns: {arch} stands for the value of general.architecture,
 * {id} for a number and {name} for a last segment of any name
 * (tokenizer.chat_template.{name}).
 */
#ifndef GGUF_SCHEMA_H
#define GGUF_SCHEMA_H

#include <stddef.h>
#include <stdint.h>

#include "gguf.h"

struct gguf_key_spec {
	const char	*key;		/* the pattern, as in keys.tsv */
	const char	*types;		/* "u32", "arr[str]", "u32|arr[i32]" */
	const char	*desc;		/* one line */
};

extern const struct gguf_key_spec	gguf_schema_keys[];
extern const size_t			gguf_schema_n;

/*
 * The entry for key (n bytes) in a file whose architecture is arch (archn
 * bytes; NULL or 0 for none), or NULL if the key is not a well-known one.
 */
const struct gguf_key_spec *gguf_schema_find(const char *key, size_t n,
		    const char *arch, size_t archn);

/* Whether a value of type (atype for arrays) is one the entry allows. */
int		 gguf_schema_type_ok(const struct gguf_key_spec *s,
		    uint32_t type, uint32_t atype);

/*
 * Whether llama.cpp refuses a value of another type for this key: the
 * keys it reads (the architecture's hyper-parameters, the tokenizer, the
 * split keys, the architecture, name and file type, the chat template)
 * go through readers that check the type and fail the load.
 */
int		 gguf_schema_strict(const struct gguf_key_spec *s);

/*
 * The N of a tensor named by the convention for repeating blocks,
 * "blk.N.rest" (N decimal, below 2^30), or -1 for any other name.
 */
int64_t		 gguf_tensor_block(const struct gguf_str *name);

#endif /* GGUF_SCHEMA_H */
