/*
 * test_suggest.c - "did you mean": the distance, the reach, the ties and
 * the sources of names (a list, a name index, the schema).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gguf.h"
#include "nameix.h"
#include "suggest.h"
#include "tap.h"

static const char *const	keys[] = {
	"general.name", "general.type", "general.architecture",
	"llama.context_length", "tokenizer.chat_template", "blk.0.attn_q.weight",
	"blk.0.attn_k.weight", "blk.10.attn_q.weight"
};
#define N_KEYS	(sizeof keys / sizeof keys[0])

static struct gguf_str
name_of(void *ctx, uint64_t i)
{
	struct gguf_str	s;

	(void)ctx;
	s.p = keys[i];
	s.n = strlen(keys[i]);
	return s;
}

/* The suggestion for want among keys[], or "" for none. */
static const char *
among_keys(const char *want)
{
	static struct gguf_suggest	sg;
	const char			*b;

	gguf_suggest_init(&sg, want, strlen(want));
	gguf_suggest_names(&sg, name_of, NULL, N_KEYS);
	b = gguf_suggest_best(&sg, NULL);
	return b != NULL ? b : "";
}

static const char *
among(const char *want, const char *const *names)
{
	static struct gguf_suggest	sg;
	const char			*b;

	gguf_suggest_init(&sg, want, strlen(want));
	for (; *names != NULL; names++)
		gguf_suggest_add(&sg, *names, strlen(*names));
	b = gguf_suggest_best(&sg, NULL);
	return b != NULL ? b : "";
}

static void
test_distance(void)
{
	is_u64(gguf_suggest_distance("name", 4, "name", 4, 9), 0,
	    "equal names: 0");
	is_u64(gguf_suggest_distance("nmae", 4, "name", 4, 9), 1,
	    "a swap of neighbours is one edit");
	is_u64(gguf_suggest_distance("nme", 3, "name", 4, 9), 1,
	    "a deletion is one edit");
	is_u64(gguf_suggest_distance("naame", 5, "name", 4, 9), 1,
	    "an insertion is one edit");
	is_u64(gguf_suggest_distance("nbme", 4, "name", 4, 9), 1,
	    "a change is one edit");
	is_u64(gguf_suggest_distance("NAME", 4, "name", 4, 9), 0,
	    "case costs nothing");
	is_u64(gguf_suggest_distance("", 0, "abc", 3, 9), 3,
	    "from nothing: the length");
	is_u64(gguf_suggest_distance("kitten", 6, "sitting", 7, 9), 3,
	    "kitten/sitting: 3");
	ok(gguf_suggest_distance("abcdefgh", 8, "stuvwxyz", 8, 2) > 2,
	    "beyond the reach asked: above it");
	ok(gguf_suggest_distance("a", 1, "abcdefgh", 8, 3) > 3,
	    "lengths apart by more than the reach: above it at once");
}

static void
test_names(void)
{
	static const char *const	cmds[] = {
		"info", "dump", "get", "cat", "stats", "validate", "edit",
		"set", "rm", "mv", "rename", "rm-tensor", "recover", NULL
	};
	static const char *const	types[] = {
		"u8", "i8", "u16", "i16", "u32", "i32", "u64", "i64", "f32",
		"f64", "bool", "str", NULL
	};
	static const char *const	tie[] = { "abd", "abc", NULL };
	static const char *const	self[] = { "abcdef",
		"blk.0.attn_q.weight", NULL };

	ok(strcmp(among_keys("general.nmae"), "general.name") == 0,
	    "general.nmae: general.name");
	ok(strcmp(among_keys("tokenizer.chat_templat"),
	    "tokenizer.chat_template") == 0, "a letter short: found");
	ok(strcmp(among_keys("General.Name"), "general.name") == 0,
	    "a key in the wrong case: found");
	ok(strcmp(among("abcdef", self), "") == 0,
	    "the name itself is no suggestion");
	ok(strcmp(among("blk.0.attn_q.weight_xyzw", self), "") == 0,
	    "four edits: beyond reach, however long the name");
	ok(strcmp(among_keys("completely.different"), "") == 0,
	    "nothing close: no suggestion");
	ok(strcmp(among_keys("blk.0.attn_v.weight"), "blk.0.attn_k.weight")
	    == 0, "tensors: the closest, first in byte order on a tie");
	ok(strcmp(among("stat", cmds), "stats") == 0, "stat: stats");
	ok(strcmp(among("sett", cmds), "set") == 0, "sett: set");
	ok(strcmp(among("rn", cmds), "rm") == 0, "rn: rm (one edit in two)");
	ok(strcmp(among("frobnicate", cmds), "") == 0,
	    "frobnicate: nothing");
	ok(strcmp(among("x", cmds), "") == 0,
	    "one byte: no other one byte is suggested");
	ok(strcmp(among("u23", types), "u32") == 0, "u23: u32");
	ok(strcmp(among("strr", types), "str") == 0, "strr: str");
	ok(strcmp(among("float", types), "") == 0, "float: nothing close");
	ok(strcmp(among("abx", tie), "abc") == 0,
	    "a tie goes to the first in byte order, whatever the order given");
}

static void
test_sources(void)
{
	struct gguf_suggest	sg;
	struct gguf_nameix	ix;
	const char		*b;
	char			 lng[400];
	size_t			 n = 0;
	uint64_t		 i;

	/* A name index: only the entries in it are offered. */
	gguf_nameix_init(&ix, name_of, NULL, 4);
	for (i = 0; i < N_KEYS; i++)
		if (i != 0)	/* general.name is left out */
			gguf_nameix_add(&ix, i);
	gguf_suggest_init(&sg, "general.nmae", 12);
	gguf_suggest_index(&sg, &ix);
	b = gguf_suggest_best(&sg, NULL);
	ok(b == NULL || strcmp(b, "general.name") != 0,
	    "index: an entry not in it is not offered");
	gguf_suggest_init(&sg, "llama.context_lenght", 20);
	gguf_suggest_index(&sg, &ix);
	b = gguf_suggest_best(&sg, &n);
	ok(b != NULL && strcmp(b, "llama.context_length") == 0 && n == 20,
	    "index: its entries are offered, with their length");
	gguf_nameix_free(&ix);

	/* The schema: {arch} spelled out, patterns left out. */
	gguf_suggest_init(&sg, "qwen2.context_lenght", 20);
	gguf_suggest_schema(&sg, "qwen2", 5);
	b = gguf_suggest_best(&sg, NULL);
	ok(b != NULL && strcmp(b, "qwen2.context_length") == 0,
	    "schema: {arch} keys in the file's architecture");
	gguf_suggest_init(&sg, "qwen2.context_lenght", 20);
	gguf_suggest_schema(&sg, NULL, 0);
	ok(gguf_suggest_best(&sg, NULL) == NULL,
	    "schema without an architecture: no {arch} keys");
	gguf_suggest_init(&sg, "tokenizer.chat_tempalte", 23);
	gguf_suggest_schema(&sg, NULL, 0);
	b = gguf_suggest_best(&sg, NULL);
	ok(b != NULL && strcmp(b, "tokenizer.chat_template") == 0,
	    "schema: tokenizer.chat_template");
	gguf_suggest_init(&sg, "general.base_model.0.name", 25);
	gguf_suggest_schema(&sg, NULL, 0);
	ok(gguf_suggest_best(&sg, NULL) == NULL,
	    "schema: a pattern is not a name to suggest");

	/* Too long to take part. */
	memset(lng, 'a', sizeof lng);
	gguf_suggest_init(&sg, lng, sizeof lng);
	gguf_suggest_add(&sg, lng, sizeof lng - 1);
	ok(gguf_suggest_best(&sg, NULL) == NULL,
	    "a name over the limit gets no suggestion");
	gguf_suggest_init(&sg, "", 0);
	gguf_suggest_add(&sg, "a", 1);
	ok(gguf_suggest_best(&sg, NULL) == NULL,
	    "an empty name gets no suggestion");
}

int
main(void)
{
	test_distance();
	test_names();
	test_sources();
	return tap_done();
}
