/*
 * test_model.c - the model check: every expression of assets/models.tsv
 * parses and names only parameters its section has; the evaluator's
 * operators, functions, errors and overflow; the check on the demo model
 * (clean) and on documents edited the ways a user breaks a model.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc.h"
#include "gguf.h"
#include "model.h"
#include "tap.h"

static int64_t
val(struct gguf_doc *d, const char *arch, const char *e, int64_t il)
{
	int64_t	v;
	char	why[200];

	if (gguf_model_eval(d, arch, e, il, &v, why, sizeof why) != 0) {
		diag("%s: %s", e, why);
		return INT64_MIN;
	}
	return v;
}

/* Whether e fails, and why begins with want. */
static int
fails(struct gguf_doc *d, const char *e, const char *want)
{
	int64_t	v;
	char	why[200];

	if (gguf_model_eval(d, NULL, e, -1, &v, why, sizeof why) == 0) {
		diag("%s gave %lld", e, (long long)v);
		return 0;
	}
	if (strncmp(why, want, strlen(want)) != 0) {
		diag("%s: %s", e, why);
		return 0;
	}
	return 1;
}

static void
test_table(void)
{
	const char	*names[128];
	size_t		 n, i;
	int		 llama = 0;
	char		 why[300];

	is_u64(gguf_model_table_verify(why, sizeof why), 0,
	    "every expression of models.tsv parses and resolves");
	if (why[0] != '\0')
		diag("%s", why);
	n = gguf_model_archs(names, 128);
	ok(n >= 1, "the table has sections (%zu)", n);
	for (i = 0; i < n && i < 128; i++) {
		llama |= strcmp(names[i], "llama") == 0;
		ok(strcmp(names[i], "*") != 0, "* is not an architecture");
	}
	ok(llama, "llama is in the table");
	ok(gguf_model_known("llama", 5), "llama is known");
	ok(!gguf_model_known("*", 1), "* is no architecture");
	ok(!gguf_model_known("nosuch", 6), "nosuch is not known");
}

static void
test_eval(void)
{
	is_u64(val(NULL, NULL, "1 + 2 * 3", -1), 7, "precedence");
	is_u64(val(NULL, NULL, "(1 + 2) * 3", -1), 9, "parentheses");
	is_u64(val(NULL, NULL, "7 / 2", -1), 3, "integer division");
	is_u64(val(NULL, NULL, "7 % 4", -1), 3, "remainder");
	ok(val(NULL, NULL, "-7 / 2", -1) == -3, "division truncates");
	ok(val(NULL, NULL, "2 - 5", -1) == -3, "subtraction");
	ok(val(NULL, NULL, "- -4", -1) == 4, "unary minus");
	is_u64(val(NULL, NULL, "!0 + !5", -1), 1, "not");
	is_u64(val(NULL, NULL, "3 == 3", -1), 1, "==");
	is_u64(val(NULL, NULL, "3 != 3", -1), 0, "!=");
	is_u64(val(NULL, NULL, "2 < 3", -1), 1, "<");
	is_u64(val(NULL, NULL, "3 <= 3", -1), 1, "<=");
	is_u64(val(NULL, NULL, "2 > 3", -1), 0, ">");
	is_u64(val(NULL, NULL, "3 >= 4", -1), 0, ">=");
	is_u64(val(NULL, NULL, "1 && 2", -1), 1, "&&");
	is_u64(val(NULL, NULL, "0 || 0", -1), 0, "||");
	is_u64(val(NULL, NULL, "1 ? 10 : 20", -1), 10, "?: true");
	is_u64(val(NULL, NULL, "0 ? 10 : 0 ? 20 : 30", -1), 30,
	    "?: nests to the right");
	is_u64(val(NULL, NULL, "max(3, 9) + min(3, 9)", -1), 12, "max, min");
	is_u64(val(NULL, NULL, "il * 2", 5), 10, "il in a block");
	is_u64(val(NULL, NULL, "0 && 1 / 0", -1), 0, "&& short-circuits");
	is_u64(val(NULL, NULL, "1 || 1 / 0", -1), 1, "|| short-circuits");
	is_u64(val(NULL, NULL, "1 ? 4 : 1 / 0", -1), 4, "?: evaluates one arm");
	is_u64(val(NULL, NULL, "key(\"a.b\", 42)", -1), 42,
	    "key with a default, no document");
	is_u64(val(NULL, NULL, "has(\"a.b\") + has_tensor(\"t\")", -1), 0,
	    "has, has_tensor, no document");
	is_u64(val(NULL, NULL, "9223372036854775807", -1), INT64_MAX,
	    "the largest number");

	ok(fails(NULL, "1 / 0", "division by zero"), "division by zero");
	ok(fails(NULL, "tensor_dim(\"t\", 0)", "syntax: too few arguments"),
	    "tensor_dim wants a default");
	ok(fails(NULL, "1 % 0", "division by zero"), "remainder by zero");
	ok(fails(NULL, "9223372036854775807 + 1", "overflow"), "+ overflows");
	ok(fails(NULL, "-9223372036854775807 - 2", "overflow"), "- overflows");
	ok(fails(NULL, "4294967296 * 4294967296", "overflow"), "* overflows");
	ok(fails(NULL, "(-9223372036854775807 - 1) / -1", "overflow"),
	    "/ overflows");
	ok(fails(NULL, "-(-9223372036854775807 - 1)", "overflow"),
	    "unary - overflows");
	ok(fails(NULL, "9223372036854775808", "syntax"), "number too large");
	ok(fails(NULL, "key(\"a.b\")", "no a.b"), "key absent");
	ok(fails(NULL, "len(\"a.b\")", "no a.b"), "len of no key");
	ok(fails(NULL, "nosuch + 1", "no parameter nosuch"), "unknown let");
	ok(fails(NULL, "il", "il outside"), "il outside a block");
	ok(fails(NULL, "1 +", "syntax"), "syntax: missing operand");
	ok(fails(NULL, "(1", "syntax"), "syntax: unclosed");
	ok(fails(NULL, "1 2", "syntax"), "syntax: trailing text");
	ok(fails(NULL, "1 = 2", "syntax"), "syntax: = alone");
	ok(fails(NULL, "1 ? 2", "syntax"), "syntax: ? without :");
	ok(fails(NULL, "foo(1)", "syntax"), "syntax: unknown function");
	ok(fails(NULL, "key(a)", "syntax"), "syntax: unquoted key");
	ok(fails(NULL, "key(\"a", "syntax"), "syntax: unterminated string");
	ok(fails(NULL, "max(1)", "syntax"), "syntax: too few arguments");
	ok(fails(NULL, "max(1, 2, 3)", "syntax"), "syntax: too many");
	ok(fails(NULL, "12abc", "syntax"), "syntax: bad number");
	ok(fails(NULL, "((((((((((((((((((((((((((((((((((((((((((((((((((((("
	    "(((((((((((((((((((((1)))))))))))))))))))))))))))))))))))))))"
	    "))))))))))))))))))))))))))))))))", "syntax"),
	    "syntax: nested too deep");
	ok(fails(NULL, "", "syntax"), "syntax: empty");
}

struct count {
	unsigned	 n[3];
	char		 first[3][512];
	int		 named;		/* a finding named want */
	const char	*want;
};

static void
on_finding(void *arg, const struct gguf_mfinding *f)
{
	struct count	*c = arg;

	if (f->level < 0 || f->level > 2)
		return;
	if (c->n[f->level]++ == 0)
		snprintf(c->first[f->level], sizeof c->first[0], "%s", f->msg);
	if (c->want != NULL && f->name != NULL &&
	    strcmp(f->name, c->want) == 0)
		c->named = 1;
	if (c->want != NULL && f->ndeps > 0) {
		size_t	i;

		for (i = 0; i < f->ndeps; i++)
			if (strcmp(f->deps[i], c->want) == 0)
				c->named = 1;
	}
}

static struct count
check(struct gguf_doc *d, const char *want)
{
	struct count	c;

	memset(&c, 0, sizeof c);
	c.want = want;
	gguf_model_check(d, on_finding, &c);
	return c;
}

static struct gguf_value *
u32v(uint32_t v)
{
	struct gguf_vbuild	b;

	gguf_vb_init(&b, GGUF_VT_U32, 0);
	gguf_vb_bits(&b, v);
	return gguf_vb_finish(&b);
}

static struct gguf_value *
strv(const char *s)
{
	struct gguf_vbuild	b;

	gguf_vb_init(&b, GGUF_VT_STR, 0);
	gguf_vb_str(&b, s, strlen(s));
	return gguf_vb_finish(&b);
}

/* Sets key to v (taking v) as the browser's set does. */
static void
set(struct gguf_doc *d, const char *key, struct gguf_value *v,
    unsigned flags)
{
	struct gguf_err	err;

	if (gguf_doc_set(d, key, strlen(key), v, flags, NULL, &err) < 0)
		diag("set %s: %s", key, err.msg);
	gguf_value_unref(v);
}

/* After one edit, the check has an error naming want; undone, it is clean. */
static void
broken(struct gguf_doc *d, const char *what, const char *want)
{
	struct count	c = check(d, want);

	ok(c.n[GGUF_W_ERROR] > 0, "%s: an error (%s)", what,
	    c.first[GGUF_W_ERROR]);
	ok(c.named, "%s: a finding names %s", what, want);
	ok(gguf_doc_undo(d, NULL) == 0, "%s: undone", what);
	c = check(d, NULL);
	is_u64(c.n[GGUF_W_ERROR], 0, "%s undone: no error", what);
}

/*
 * Run first: the table parses the rows of a section when a model of it is
 * first checked, not the whole table at once; and what the check finds on
 * those rows is what it finds once every row is parsed.
 */
static void
test_lazy(const char *path)
{
	struct gguf_doc	*d;
	struct gguf_err	 err;
	struct count	 c;
	size_t		 after_llama;
	char		 why[300];

	is_u64(gguf_model_table_parsed(), 0, "nothing parsed before a check");
	ok(gguf_model_known("qwen2", 5) && gguf_model_table_parsed() == 0,
	    "knowing an architecture parses none of its rows");
	if ((d = gguf_doc_open(path, &err)) == NULL) {
		ok(0, "the demo model opens: %s", err.msg);
		return;
	}
	c = check(d, NULL);
	is_u64(c.n[GGUF_W_ERROR] + c.n[GGUF_W_WARN] + c.n[GGUF_W_NOTE], 0,
	    "the demo model is clean, llama's rows parsed on the way");
	after_llama = gguf_model_table_parsed();
	ok(after_llama > 0 && after_llama < gguf_model_nrows / 4,
	    "checking a llama model parses llama's rows, not the table's "
	    "(%zu of %zu)", after_llama, gguf_model_nrows);
	c = check(d, NULL);
	is_u64(gguf_model_table_parsed(), after_llama,
	    "a second check parses nothing more");
	is_u64(gguf_model_table_verify(why, sizeof why), 0,
	    "the rest of the table parses and resolves after the fact");
	is_u64(gguf_model_table_parsed(), gguf_model_nrows,
	    "every row is parsed once the table is verified");
	c = check(d, NULL);
	is_u64(c.n[GGUF_W_ERROR] + c.n[GGUF_W_WARN] + c.n[GGUF_W_NOTE], 0,
	    "the demo model is still clean with the whole table parsed");
	gguf_doc_free(d);
}

static void
test_demo(const char *path)
{
	struct gguf_doc		*d;
	struct gguf_err		 err;
	struct gguf_mverdict	 v;
	struct count		 c;
	struct gguf_vbuild	 b;
	struct gguf_value	*x;
	int64_t			 n;
	char			 why[200];

	if ((d = gguf_doc_open(path, &err)) == NULL) {
		ok(0, "the demo model opens: %s", err.msg);
		return;
	}
	c = check(d, NULL);
	is_u64(c.n[GGUF_W_ERROR] + c.n[GGUF_W_WARN] + c.n[GGUF_W_NOTE], 0,
	    "the demo model is clean");
	if (c.n[GGUF_W_ERROR] > 0)
		diag("%s", c.first[GGUF_W_ERROR]);
	gguf_model_verdict(d, &v);
	ok(v.count[GGUF_W_ERROR] == 0 && v.first[0] == '\0', "verdict: clean");
	is_u64(val(d, "llama", "n_embd", -1), 256, "n_embd of the demo");
	is_u64(val(d, "llama", "n_layer", -1), 4, "n_layer of the demo");
	is_u64(val(d, "llama", "n_vocab", -1), 3072, "n_vocab of the demo");
	is_u64(val(d, "llama", "n_embd_k_gqa", -1), 128, "n_embd_k_gqa");
	is_u64(val(d, "llama", "lkey(\"{arch}.attention.head_count\", 0)", 2),
	    8, "lkey of a scalar");
	is_u64(val(d, "llama", "has_tensor(\"blk.{bid}.attn_k.weight\")", 3),
	    1, "has_tensor with {bid}");
	is_u64(val(d, "llama", "has_tensor(\"blk.{bid}.attn_k.weight\")", 4),
	    0, "has_tensor past the blocks");
	is_u64(val(d, "llama", "has_tensor(\"blk.{bid}.attn_k.weight\", 1 + 2)",
	    -1), 1, "has_tensor of a given block");
	is_u64(val(d, "llama", "has_tensor(\"blk.{bid}.attn_k.weight\", 4)", 3),
	    0, "has_tensor of a given block, not the row's");
	is_u64(val(d, "llama", "tensor_dim(\"blk.{bid}.attn_k.weight\", 1, 7)",
	    3), 128, "tensor_dim of a block's tensor");
	is_u64(val(d, "llama", "tensor_dim(\"token_embd.weight\", 0, 7)", -1),
	    256, "tensor_dim of a whole-model tensor");
	is_u64(val(d, "llama", "tensor_dim(\"token_embd.weight\", 3, 7)", -1),
	    1, "tensor_dim past its dimensions: 1");
	is_u64(val(d, "llama", "tensor_dim(\"blk.{bid}.attn_k.weight\", 1, 7)",
	    4), 7, "tensor_dim of a tensor absent: the default");
	is_u64(val(d, "llama", "tensor_dim(\"nosuch\", 0, n_embd)", -1), 256,
	    "the default is an expression");
	ok(fails(d, "tensor_dim(\"token_embd.weight\", 4, 7)",
	    "tensor_dim: no dimension 4"), "tensor_dim of no dimension");
	ok(fails(d, "tensor_dim(\"blk.{bid}.attn_k.weight\", 0, 7)",
	    "{bid} outside a block row"), "tensor_dim with {bid} outside a block");
	is_u64(val(d, "llama", "key_is(\"tokenizer.ggml.model\", \"llama\")",
	    -1), 1, "key_is");
	is_u64(val(d, "llama", "key(\"tokenizer.ggml.add_bos_token\") + "
	    "key(\"tokenizer.ggml.add_eos_token\")", -1), 1,
	    "key of a bool: 0 or 1");
	is_u64(val(d, "llama", "at(\"tokenizer.ggml.token_type\", 3) == "
	    "at(\"tokenizer.ggml.token_type\", 1 + 2)", -1), 1,
	    "at: an element of an array, its index an expression");
	ok(gguf_model_eval(d, "llama", "at(\"tokenizer.ggml.token_type\", "
	    "3072)", -1, &n, why, sizeof why) != 0 &&
	    strstr(why, "no element 3072") != NULL,
	    "at past the end cannot be evaluated (%s)", why);
	ok(gguf_model_eval(d, "llama", "at(\"tokenizer.ggml.tokens\", 0)", -1,
	    &n, why, sizeof why) != 0, "at of a string array cannot be "
	    "evaluated (%s)", why);
	ok(gguf_model_eval(d, "llama", "key(\"general.name\")", -1, &n, why,
	    sizeof why) != 0 && strstr(why, "not an integer") != NULL,
	    "key of a string cannot be evaluated (%s)", why);

	ok(gguf_doc_tensor_rename(d, "blk.0.attn_k.weight", 19,
	    "blk.0.attn_kk.weight", 20, &err) == 0, "rename a tensor");
	c = check(d, "blk.0.attn_kk.weight");
	is_u64(c.n[GGUF_W_ERROR], 2, "renamed: missing and not used");
	ok(c.named, "renamed: the new name is named");
	gguf_doc_undo(d, NULL);

	ok(gguf_doc_tensor_remove(d, "blk.1.ffn_up.weight", 19, &err) == 0,
	    "remove a tensor");
	broken(d, "removed tensor", "blk.1.ffn_up.weight");

	set(d, "llama.block_count", u32v(5), 0);
	broken(d, "block_count up", "llama.block_count");
	set(d, "llama.block_count", u32v(3), 0);
	broken(d, "block_count down", "blk.3.attn_q.weight");
	set(d, "llama.block_count", u32v(4000000000u), 0);
	broken(d, "block_count huge", "llama.block_count");
	set(d, "llama.attention.head_count_kv", u32v(2), 0);
	broken(d, "head_count_kv", "llama.attention.head_count_kv");
	set(d, "llama.attention.head_count", u32v(0), 0);
	broken(d, "head_count 0", "llama.attention.head_count");
	set(d, "llama.embedding_length", u32v(128), 0);
	broken(d, "embedding_length", "llama.embedding_length");
	gguf_doc_remove(d, "llama.context_length", 20, &err);
	broken(d, "context_length removed", "llama.context_length");
	set(d, "llama.context_length", strv("2048"),
	    GGUF_SET_RETYPE | GGUF_SET_FORCE);
	broken(d, "context_length a string", "llama.context_length");
	gguf_doc_remove(d, "llama.attention.layer_norm_rms_epsilon", 38, &err);
	broken(d, "rms epsilon removed",
	    "llama.attention.layer_norm_rms_epsilon");

	gguf_vb_init(&b, GGUF_VT_ARR, GGUF_VT_STR);
	gguf_vb_str(&b, "zzz", 3);
	x = gguf_vb_finish(&b);
	ok(gguf_doc_splice(d, "tokenizer.ggml.tokens", 21, 3072, 0, x,
	    &err) == 0, "add a token");
	gguf_value_unref(x);
	broken(d, "token added", "token_embd.weight");

	gguf_vb_init(&b, GGUF_VT_ARR, GGUF_VT_I32);
	gguf_vb_bits(&b, 4);
	gguf_vb_bits(&b, 4);
	x = gguf_vb_finish(&b);
	set(d, "llama.attention.head_count_kv", x,
	    GGUF_SET_RETYPE | GGUF_SET_FORCE);
	broken(d, "per-block array of 2 for 4 blocks",
	    "llama.attention.head_count_kv");

	set(d, "general.architecture", strv("nosuch"), GGUF_SET_FORCE);
	c = check(d, NULL);
	ok(c.n[GGUF_W_ERROR] == 0 && c.n[GGUF_W_NOTE] == 1 &&
	    strstr(c.first[GGUF_W_NOTE], "not in the table") != NULL,
	    "an unknown architecture is a note: %s", c.first[GGUF_W_NOTE]);
	gguf_doc_undo(d, NULL);

	set(d, "general.name", strv("Renamed"), 0);
	c = check(d, NULL);
	is_u64(c.n[GGUF_W_ERROR] + c.n[GGUF_W_WARN], 0,
	    "a harmless edit stays clean");
	gguf_doc_free(d);
}

/* i32 array of n elements. */
static struct gguf_value *
i32arr(const int32_t *e, size_t n)
{
	struct gguf_vbuild	b;
	size_t			i;

	gguf_vb_init(&b, GGUF_VT_ARR, GGUF_VT_I32);
	for (i = 0; i < n; i++)
		gguf_vb_bits(&b, (uint32_t)e[i]);
	return gguf_vb_finish(&b);
}

/* amin and amax, alone and keyed by another array (the last of a key). */
static void
test_arange(struct gguf_doc *d)
{
	static const int32_t	sub[] = { 17, -2, 9, 4 }, by[] = { 1, 2, 1, 3 };

	set(d, "llama.sub", i32arr(sub, 4), GGUF_SET_ADD | GGUF_SET_FORCE);
	set(d, "llama.by", i32arr(by, 4), GGUF_SET_ADD | GGUF_SET_FORCE);
	set(d, "llama.short", i32arr(by, 3), GGUF_SET_ADD | GGUF_SET_FORCE);
	is_u64((uint64_t)val(d, "llama", "amin(\"{arch}.sub\")", -1),
	    (uint64_t)-2, "amin(): the least element, signed");
	is_u64(val(d, "llama", "amax(\"{arch}.sub\")", -1), 17,
	    "amax(): the greatest");
	is_u64((uint64_t)val(d, "llama",
	    "amin(\"{arch}.sub\", \"{arch}.by\")", -1), (uint64_t)-2,
	    "amin(K, BY): keys given once count");
	is_u64(val(d, "llama", "amax(\"{arch}.sub\", \"{arch}.by\")", -1),
	    9, "amax(K, BY): the first of a key given twice does not count "
	    "(17), the last does (9)");
	ok(fails(d, "amax(\"llama.sub\", \"llama.short\")",
	    "llama.short is no array as long as"),
	    "amax(K, BY): BY as long as K");
	ok(fails(d, "amax(\"llama.none\")", "no llama.none"),
	    "amax(): of no key, nothing");
	ok(fails(d, "amax(\"llama.sub\"), 1", ""),
	    "amax(): one string, no other argument");
	gguf_doc_undo(d, NULL);
	gguf_doc_undo(d, NULL);
	gguf_doc_undo(d, NULL);
}

/* What `ggufed new` reads of the table: the keys, then the tensors. */
static void
test_new(const char *path)
{
	struct gguf_mval	 v[128];
	struct gguf_mtensor	*t;
	struct gguf_doc		*d;
	struct gguf_err		 err;
	const char		*why;
	size_t			 n, nt, i;
	int			 blocks = 0, eps = 0, qkv, q, bad = 0;
	uint64_t		 var;
	char			 msg[256];

	is_u64(gguf_model_vals("llama", 5, v, 128, &n, &why), 0,
	    "llama: new makes it");
	for (i = 0; i < n && i < 128; i++) {
		blocks |= strcmp(v[i].key, "{arch}.block_count") == 0 &&
		    strcmp(v[i].types, "u32") == 0;
		eps |= strcmp(v[i].key,
		    "{arch}.attention.layer_norm_rms_epsilon") == 0;
		/* * has one for layer_norm_epsilon, which llama has no
		   key row for: not written */
		bad |= strcmp(v[i].key, "{arch}.attention.layer_norm_epsilon")
		    == 0;
	}
	ok(blocks && eps && !bad, "llama's keys: block_count (u32) and "
	    "its own epsilon, not another's");
	ok(gguf_model_vals("nosuch", 6, v, 128, &n, &why) == -1,
	    "no keys for an architecture not in the table");
	ok(gguf_model_vals("*", 1, v, 128, &n, &why) == -1, "* is no model");

	if ((d = gguf_doc_open(path, &err)) == NULL) {
		ok(0, "open %s: %s", path, err.msg);
		return;
	}
	is_u64(val(d, "llama", "any(il == 3)", -1), 1, "any(): a block holds");
	is_u64(val(d, "llama", "any(il == 999)", -1), 0, "any(): none does");
	is_u64(val(d, "llama", "any(il == 1) + il", 5), 6,
	    "any() leaves the block being checked as it was");
	test_arange(d);

	/* The demo is a llama with the required tensors and its own output
	   matrix, which variant 0 leaves out. */
	ok(gguf_model_plan(d, 0, &t, &nt, msg, sizeof msg) == 0,
	    "the demo's tensors planned (%s)", nt ? "" : msg);
	is_u64(nt + 1, gguf_doc_n_tensors(d), "as many as the demo has but "
	    "one");
	for (i = 0; i < nt; i++)
		bad |= strcmp(t[i].name, "output.weight") == 0;
	ok(!bad, "not its optional output.weight");
	for (i = 0; i < nt; i++)
		if (gguf_doc_tensor_find(d, t[i].name, strlen(t[i].name)) < 0) {
			diag("not in the demo: %s", t[i].name);
			bad = 1;
		}
	ok(!bad, "each one the demo's");
	free(t);
	/* A condition on a tensor chosen later in the rows: fused or not. */
	for (var = 1, bad = 0; var <= 24; var++) {
		if (gguf_model_plan(d, var, &t, &nt, msg, sizeof msg) != 0) {
			diag("variant %llu: %s", (unsigned long long)var, msg);
			bad = 1;
			continue;
		}
		for (i = 0, qkv = q = 0; i < nt; i++) {
			qkv |= strcmp(t[i].name, "blk.1.attn_qkv.weight") == 0;
			q |= strcmp(t[i].name, "blk.1.attn_q.weight") == 0;
		}
		bad |= qkv == q;
		free(t);
	}
	ok(!bad, "every variant: blk.1 has attn_qkv or attn_q, never both");
	gguf_doc_free(d);
}

int
main(void)
{
	const char	*src = getenv("TESTS_SRCDIR");
	char		 path[1024];

	snprintf(path, sizeof path, "%s/../assets/"
	    "Demo-Llama-3.9M-v1.0-Q4_K_M.gguf", src != NULL ? src : "tests");
	test_lazy(path);
	test_table();
	test_eval();
	test_demo(path);
	test_new(path);
	return tap_done();
}
