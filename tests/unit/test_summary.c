/*
 * test_summary.c - the facts `ggufed info` and the Summary view share
 * (summary.h), on files built byte by byte: the sections cover the file
 * end to end, the tensor types are counted, the reader's findings come
 * first and the model checks only on request, and keys are read from the
 * document (with its edits) when one is given.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gguf.h"
#include "doc.h"
#include "summary.h"
#include "tap.h"
#include "../tools/ggufgen.h"

/*
 * A llama file with two F32 tensors [4, 2], one Q8_0 tensor [32] (one
 * block of 34 bytes), general.name twice, and file type 7 (MOSTLY_Q8_0).
 */
static void
build(struct gg *g)
{
	uint64_t	ne2[2] = { 4, 2 }, ne1[1] = { 32 };

	gg_init(g, 3, 0);
	gg_header(g, 3, 4);
	gg_kv_str(g, "general.architecture", "llama");
	gg_kv_str(g, "general.name", "first");
	gg_kv_str(g, "general.name", "second");
	gg_kv_u32(g, "general.file_type", 7);
	gg_tensor(g, "a", 2, ne2, GG_T_F32, 0);
	gg_tensor(g, "b", 2, ne2, GG_T_F32, 32);
	gg_tensor(g, "c", 1, ne1, GG_T_Q8_0, 64);
	gg_pad(g, 32);
	gg_zeros(g, 64 + 34);
}

static void
test_file(void)
{
	struct gguf_summary	 s;
	struct gguf_file	*f;
	struct gguf_err		 err;
	struct gguf_str		 str;
	struct gg		 g;
	size_t			 k;
	unsigned		 sum;
	int			 ordered = 1;

	build(&g);
	memset(&err, 0, sizeof err);
	f = gguf_open_buffer(g.buf, g.len, &err);
	if (!ok(f != NULL, "the file opens")) {
		gg_free(&g);
		return;
	}
	gguf_summary_make(&s, f, NULL, 0);
	ok(s.arch != NULL && gguf_val_str(s.arch, &str) == 0 && str.n == 5 &&
	    memcmp(str.p, "llama", 5) == 0, "architecture llama");
	ok(s.has_file_type && s.file_type == 7, "file type 7");
	ok(s.file_type_name != NULL && strcmp(s.file_type_name,
	    gguf_file_type_name(7)) == 0, "file type named as the table does");

	is_u64(s.n_sections, 5, "five sections");
	for (k = 0; k < s.n_sections; k++) {
		if (s.sections[k].what != (enum gguf_section)k ||
		    (k > 0 && s.sections[k].from != s.sections[k - 1].to))
			ordered = 0;
	}
	ok(ordered && s.sections[0].from == 0, "sections in file order, "
	    "each where the last ends");
	is_u64(s.sections[s.n_sections - 1].to, g.len,
	    "the last section ends at the end of the file");

	is_u64(s.n_types, 2, "two tensor types");
	ok(s.n_types == 2 && s.types[0].type == GG_T_F32 &&
	    s.types[0].count == 2 && s.types[0].bytes == 64 &&
	    s.types[0].elems == 16, "F32: 2 tensors, 64 bytes, 16 weights");
	ok(s.n_types == 2 && s.types[1].type == GG_T_Q8_0 &&
	    s.types[1].count == 1 && s.types[1].bytes == 34 &&
	    s.types[1].elems == 32, "Q8_0: 1 tensor, 34 bytes, 32 weights");
	is_u64(s.params, 48, "48 parameters");
	is_u64(s.tensor_bytes, 98, "98 bytes of tensors");

	is_u64(s.n_reader, gguf_n_warnings(f), "every finding of the reader");
	ok(s.n_findings == s.n_reader, "no model checks unless asked");
	ok(s.count[GGUF_W_ERROR] >= 1 && s.n_reader > 0 &&
	    strstr(s.findings[0].msg, "duplicate key") != NULL,
	    "the duplicate key is an error");
	gguf_summary_free(&s);

	gguf_summary_make(&s, f, NULL, GGUF_SUM_CHECKS);
	ok(s.n_findings > s.n_reader, "the model checks add findings "
	    "(%zu of the reader, %zu in all)", s.n_reader, s.n_findings);
	sum = s.count[0] + s.count[1] + s.count[2];
	is_u64(sum, s.n_findings, "the counts by level add up");
	gguf_summary_free(&s);

	gguf_close(f);
	gg_free(&g);
}

/* No tensors: what follows the KV pairs is trailing. */
static void
test_trailing(void)
{
	struct gguf_summary	 s;
	struct gguf_file	*f;
	struct gguf_err		 err;
	struct gg		 g;

	gg_init(&g, 3, 0);
	gg_header(&g, 0, 1);
	gg_kv_str(&g, "general.architecture", "llama");
	gg_zeros(&g, 7);
	memset(&err, 0, sizeof err);
	f = gguf_open_buffer(g.buf, g.len, &err);
	if (!ok(f != NULL, "a file without tensors opens")) {
		gg_free(&g);
		return;
	}
	gguf_summary_make(&s, f, NULL, 0);
	ok(s.n_sections == 4 && s.sections[3].what == GGUF_SEC_TRAILING &&
	    s.sections[3].to - s.sections[3].from == 7, "7 trailing bytes");
	ok(s.n_types == 0 && s.params == 0 && !s.has_file_type && s.name ==
	    NULL, "no types, no parameters, no file type, no name");
	gguf_summary_free(&s);
	gguf_close(f);
	gg_free(&g);
}

/* With a document, keys are its current values. */
static void
test_doc(void)
{
	struct gguf_summary	 s;
	struct gguf_vbuild	 vb;
	struct gguf_value	*v;
	struct gguf_doc		*d;
	struct gguf_err		 err;
	struct gguf_str		 str;
	struct gg		 g;
	char			 dir[] = "/tmp/test_summary.XXXXXX", path[64];
	int			 warn = 0;

	if (mkdtemp(dir) == NULL) {
		ok(0, "a scratch directory");
		return;
	}
	snprintf(path, sizeof path, "%s/m.gguf", dir);
	gg_init(&g, 3, 0);
	gg_header(&g, 0, 2);
	gg_kv_str(&g, "general.architecture", "llama");
	gg_kv_str(&g, "general.name", "before");
	if (!ok(gg_write(&g, path) == 0, "the file is written")) {
		gg_free(&g);
		return;
	}
	gg_free(&g);
	memset(&err, 0, sizeof err);
	d = gguf_doc_open(path, &err);
	if (!ok(d != NULL, "the document opens"))
		goto out;
	gguf_vb_init(&vb, GGUF_VT_STR, 0);
	gguf_vb_str(&vb, "after", 5);
	v = gguf_vb_finish(&vb);
	ok(gguf_doc_set(d, "general.name", 12, v, 0, &warn, &err) == 0,
	    "general.name set in the document");
	gguf_value_unref(v);		/* the document holds its own */
	gguf_summary_make(&s, gguf_doc_file(d), d, 0);
	ok(s.name != NULL && gguf_val_str(s.name, &str) == 0 && str.n == 5 &&
	    memcmp(str.p, "after", 5) == 0, "the name is the document's");
	gguf_summary_free(&s);
	gguf_summary_make(&s, gguf_doc_file(d), NULL, 0);
	ok(s.name != NULL && gguf_val_str(s.name, &str) == 0 && str.n == 6 &&
	    memcmp(str.p, "before", 6) == 0, "without it, the file's");
	gguf_summary_free(&s);
	gguf_doc_free(d);
out:
	unlink(path);
	rmdir(dir);
}

static void
test_scaled(void)
{
	char	buf[32];

	ok(strcmp(gguf_fmt_scaled(999, buf, sizeof buf), "") == 0,
	    "999: no scaled form");
	ok(strcmp(gguf_fmt_scaled(1234, buf, sizeof buf), "1.23 K") == 0,
	    "1234: 1.23 K");
	ok(strcmp(gguf_fmt_scaled(3900000, buf, sizeof buf), "3.90 M") == 0,
	    "3900000: 3.90 M");
	ok(strcmp(gguf_fmt_scaled(7000000000ULL, buf, sizeof buf),
	    "7.00 B") == 0, "7e9: 7.00 B");
}

/* The hyper-parameters: from {arch}.* and tokenizer.* keys, in order. */
static void
test_hparams(void)
{
	static const char *want[][2] = {
		{ "Context", "8192" }, { "Embedding", "4096" },
		{ "Layers", "3" }, { "Heads", "32" },
		{ "KV heads", "0..8 per layer" }, { "Experts", "8 (2 in use)" },
		{ "RoPE base", "500000" }, { "RoPE scaling", "yarn, factor 4" },
		{ "Vocabulary", "3 tokens" }, { "Tokenizer", "gpt2" },
		{ "Chat template", "yes" },
	};
	struct gguf_summary	 s;
	struct gguf_file	*f;
	struct gguf_err		 err;
	struct gg		 g;
	size_t			 k;
	int			 same = 1;

	gg_init(&g, 3, 0);
	gg_header(&g, 0, 14);
	gg_kv_str(&g, "general.architecture", "qwen3moe");
	gg_kv_u32(&g, "qwen3moe.context_length", 8192);
	gg_kv_u32(&g, "qwen3moe.embedding_length", 4096);
	gg_kv_u32(&g, "qwen3moe.block_count", 3);
	gg_kv_u32(&g, "qwen3moe.attention.head_count", 32);
	gg_kv_arr(&g, "qwen3moe.attention.head_count_kv", GG_U32, 3);
	gg_u32(&g, 8);
	gg_u32(&g, 0);
	gg_u32(&g, 8);
	gg_kv_u32(&g, "qwen3moe.expert_count", 8);
	gg_kv_u32(&g, "qwen3moe.expert_used_count", 2);
	gg_kv_f32(&g, "qwen3moe.rope.freq_base", 500000);
	gg_kv_str(&g, "qwen3moe.rope.scaling.type", "yarn");
	gg_kv_f32(&g, "qwen3moe.rope.scaling.factor", 4);
	gg_kv_str(&g, "tokenizer.ggml.model", "gpt2");
	gg_kv_arr(&g, "tokenizer.ggml.tokens", GG_STR, 3);
	gg_str(&g, "a");
	gg_str(&g, "b");
	gg_str(&g, "c");
	gg_kv_str(&g, "tokenizer.chat_template", "{{ x }}");
	memset(&err, 0, sizeof err);
	f = gguf_open_buffer(g.buf, g.len, &err);
	if (!ok(f != NULL, "a MoE file opens: %s", err.msg)) {
		gg_free(&g);
		return;
	}
	gguf_summary_make(&s, f, NULL, 0);
	is_u64(s.n_hp, sizeof want / sizeof want[0],
	    "every hyper-parameter is there");
	for (k = 0; k < s.n_hp && k < sizeof want / sizeof want[0]; k++) {
		if (strcmp(s.hp[k].label, want[k][0]) != 0 ||
		    strcmp(s.hp[k].text, want[k][1]) != 0) {
			diag("%s: %s, want %s: %s", s.hp[k].label,
			    s.hp[k].text, want[k][0], want[k][1]);
			same = 0;
		}
	}
	ok(same, "context, embedding, layers, heads, KV heads (an array), "
	    "experts, RoPE, vocabulary, tokenizer, chat template");
	gguf_summary_free(&s);
	gguf_close(f);
	gg_free(&g);

	/* Without an architecture or a tokenizer: none. */
	gg_init(&g, 3, 0);
	gg_header(&g, 0, 1);
	gg_kv_u32(&g, "x.context_length", 5);
	f = gguf_open_buffer(g.buf, g.len, &err);
	gguf_summary_make(&s, f, NULL, 0);
	is_u64(s.n_hp, 0, "no architecture, no tokenizer: no hyper-parameters");
	gguf_summary_free(&s);
	gguf_close(f);
	gg_free(&g);
}

int
main(void)
{
	test_file();
	test_trailing();
	test_doc();
	test_scaled();
	test_hparams();
	return tap_done();
}
