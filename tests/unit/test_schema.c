/*
 * test_schema.c - the table of well-known keys (assets/keys.tsv made C)
 * and the lookup of keys in it: placeholders, alternatives, limits.
 */
#include "config.h"

#include <string.h>

#include "gguf.h"
#include "schema.h"
#include "tap.h"

/* The pattern key is found as, or "-" for none. */
static const char *
found(const char *key, const char *arch)
{
	const struct gguf_key_spec	*s;

	s = gguf_schema_find(key, strlen(key), arch, arch ? strlen(arch) : 0);
	return s != NULL ? s->key : "-";
}

static void
is_found(const char *key, const char *arch, const char *want)
{
	const char	*got = found(key, arch);

	if (!ok(strcmp(got, want) == 0, "%s (arch %s) -> %s", key,
	    arch ? arch : "none", want))
		diag("got %s", got);
}

int
main(void)
{
	const struct gguf_key_spec	*s;
	char				 key[400];
	size_t				 i;
	int				 sorted = 1, typed = 1;

	ok(gguf_schema_n > 150, "the table has the keys of keys.tsv (%zu)",
	    gguf_schema_n);
	for (i = 1; i < gguf_schema_n; i++)
		if (strcmp(gguf_schema_keys[i - 1].key,
		    gguf_schema_keys[i].key) >= 0) {
			sorted = 0;
			diag("out of order: %s", gguf_schema_keys[i].key);
		}
	ok(sorted, "sorted in byte order, no duplicates (binary search)");
	for (i = 0; i < gguf_schema_n; i++) {
		s = &gguf_schema_keys[i];
		if (s->desc[0] == '\0' || s->types[0] == '\0')
			typed = 0;
	}
	ok(typed, "every entry has a type and a description");

	is_found("general.name", NULL, "general.name");
	is_found("general.name", "llama", "general.name");
	is_found("llama.block_count", "llama", "{arch}.block_count");
	is_found("llama.block_count", NULL, "-");
	is_found("llama.block_count", "qwen2", "-");
	is_found("llama.attention.head_count_kv", "llama",
	    "{arch}.attention.head_count_kv");
	is_found("general.base_model.0.name", NULL,
	    "general.base_model.{id}.name");
	is_found("general.base_model.123.repo_url", NULL,
	    "general.base_model.{id}.repo_url");
	is_found("general.base_model.x1.name", NULL, "-");
	is_found("tokenizer.chat_template", NULL, "tokenizer.chat_template");
	is_found("tokenizer.chat_template.tool_use", NULL,
	    "tokenizer.chat_template.{name}");
	is_found("tokenizer.chat_template.a.b", NULL, "-");
	is_found("general", NULL, "-");
	is_found("general.", NULL, "-");
	is_found(".general.name", NULL, "-");
	is_found("nosuch.key", "llama", "-");
	is_found("general.name", "general", "general.name");
	is_found("{arch}.block_count", "llama", "-");
	is_found("tokenizer.chat_template.{name}", NULL, "-");
	is_found("llama.{id}", "llama", "-");
	is_found("general.sampling.top_k", "general",
	    "general.sampling.top_k");
	ok(gguf_schema_find("general.name\0x", 14, NULL, 0) == NULL,
	    "a key with a NUL byte matches nothing");
	ok(gguf_schema_find("", 0, NULL, 0) == NULL, "the empty key");
	memset(key, 'a', sizeof key);
	memcpy(key, "general.", 8);
	ok(gguf_schema_find(key, sizeof key, NULL, 0) == NULL,
	    "a 400-byte key matches nothing (and overflows nothing)");
	memset(key, 'a', sizeof key);
	memcpy(key, "tokenizer.chat_template.", 24);
	s = gguf_schema_find(key, 300, NULL, 0);
	ok(s != NULL && strcmp(s->key, "tokenizer.chat_template.{name}") == 0,
	    "a 300-byte tokenizer.chat_template.NAME is still a {name} key");
	ok(s != NULL && !gguf_schema_strict(s) &&
	    gguf_schema_strict(gguf_schema_find("llama.block_count", 17,
	    "llama", 5)) && gguf_schema_strict(gguf_schema_find(
	    "tokenizer.ggml.tokens", 21, NULL, 0)) && !gguf_schema_strict(
	    gguf_schema_find("general.sampling.top_k", 22, NULL, 0)),
	    "strict: the keys llama.cpp reads, not the others");
	memset(key, '1', sizeof key);
	memcpy(key, "general.base_model.", 19);
	ok(gguf_schema_find(key, 190, NULL, 0) == NULL,
	    "a long run of digits for {id}: no overflow");

	s = gguf_schema_find("llama.feed_forward_length", 25, "llama", 5);
	ok(s != NULL && strcmp(s->types, "u32|arr[i32]|arr[u32]") == 0,
	    "alternatives: u32|arr[i32]|arr[u32]");
	if (s != NULL) {
		ok(gguf_schema_type_ok(s, GGUF_VT_U32, 0), "u32 is allowed");
		ok(gguf_schema_type_ok(s, GGUF_VT_ARR, GGUF_VT_I32),
		    "arr[i32] is allowed");
		ok(gguf_schema_type_ok(s, GGUF_VT_ARR, GGUF_VT_U32),
		    "arr[u32] is allowed");
		ok(!gguf_schema_type_ok(s, GGUF_VT_I32, 0), "i32 is not");
		ok(!gguf_schema_type_ok(s, GGUF_VT_ARR, GGUF_VT_STR),
		    "arr[str] is not");
	}
	s = gguf_schema_find("tokenizer.ggml.tokens", 21, NULL, 0);
	ok(s != NULL && gguf_schema_type_ok(s, GGUF_VT_ARR, GGUF_VT_STR) &&
	    !gguf_schema_type_ok(s, GGUF_VT_STR, 0) &&
	    !gguf_schema_type_ok(s, GGUF_VT_ARR, GGUF_VT_U8),
	    "tokenizer.ggml.tokens: arr[str] only");
	s = gguf_schema_find("general.alignment", 17, NULL, 0);
	ok(s != NULL && gguf_schema_type_ok(s, GGUF_VT_U32, 0) &&
	    !gguf_schema_type_ok(s, GGUF_VT_U64, 0) &&
	    !gguf_schema_type_ok(s, GGUF_VT_ARR, GGUF_VT_U32),
	    "general.alignment: u32, not u64 nor arr[u32]");
	return tap_done();
}
