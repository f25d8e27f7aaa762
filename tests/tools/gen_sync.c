/*
 * gen_sync.c - writes models as an older conversion left them, for
 * `ggufed sync` against their upstream repositories' files
 * (tests/cli/sync.sh, tests/tui/sync.sh).
 *
 *	gen_sync DIR
 *
 * writes into DIR:
 *
 *	llama31.gguf	llama with the shape of Llama-3.1-8B-Instruct and its
 *			vocabulary's size (the specials at their ids), as
 *			Llama 3 was converted first: eos 128001, the context
 *			of 8192, Llama 3's chat template; rope_freqs.weight
 *			(llama3 scaling) is there
 *	qwen25.gguf	qwen2 with the shape of Qwen2.5-7B-Instruct, no YaRN
 *			keys, a plain ChatML template
 *	gemma3.gguf	gemma3 with the shape of gemma-3-1b-it, a sliding
 *			window of 4096 and no chat template
 *
 * Only the metadata matters to sync: there is no other tensor.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ggufgen.h"

struct special {
	unsigned	 id;
	const char	*text;
};

/* Header, then KVs; the KV count is patched by finish(). */
static void
start(struct gg *g, const char *arch, unsigned n_tensors)
{
	gg_init(g, 3, 0);
	gg_header(g, n_tensors, 0);
	gg_kv_str(g, "general.architecture", arch);
	gg_kv_str(g, "general.name", arch);
}

static void
vocab(struct gg *g, unsigned n, const struct special *sp, size_t nsp)
{
	char		buf[32];
	unsigned	i;
	size_t		k;

	gg_kv_str(g, "tokenizer.ggml.model", "gpt2");
	gg_kv_arr(g, "tokenizer.ggml.tokens", GG_STR, n);
	for (i = 0; i < n; i++) {
		const char	*t = NULL;

		for (k = 0; k < nsp; k++)
			if (sp[k].id == i)
				t = sp[k].text;
		if (t == NULL) {
			snprintf(buf, sizeof buf, "t%u", i);
			t = buf;
		}
		gg_str(g, t);
	}
}

static void
shape(struct gg *g, const char *arch, unsigned embd, unsigned blocks,
    unsigned heads, unsigned kv, unsigned ff)
{
	char	key[128];

	snprintf(key, sizeof key, "%s.embedding_length", arch);
	gg_kv_u32(g, key, embd);
	snprintf(key, sizeof key, "%s.block_count", arch);
	gg_kv_u32(g, key, blocks);
	snprintf(key, sizeof key, "%s.attention.head_count", arch);
	gg_kv_u32(g, key, heads);
	snprintf(key, sizeof key, "%s.attention.head_count_kv", arch);
	gg_kv_u32(g, key, kv);
	snprintf(key, sizeof key, "%s.feed_forward_length", arch);
	gg_kv_u32(g, key, ff);
}

static void
kvu(struct gg *g, const char *arch, const char *suffix, unsigned v)
{
	char	key[128];

	snprintf(key, sizeof key, "%s.%s", arch, suffix);
	gg_kv_u32(g, key, v);
}

static void
kvf(struct gg *g, const char *arch, const char *suffix, float v)
{
	char	key[128];

	snprintf(key, sizeof key, "%s.%s", arch, suffix);
	gg_kv_f32(g, key, v);
}

/* Counts the KVs written after the header (n_kv at offset 16). */
static int
finish(struct gg *g, unsigned n_kv, const char *dir, const char *name)
{
	char	path[4096];
	int	rc;

	gg_set64(g, 16, n_kv);
	snprintf(path, sizeof path, "%s/%s", dir, name);
	rc = gg_write(g, path);
	if (rc != 0)
		perror(path);
	gg_free(g);
	return rc;
}

static const char llama3_template[] =
    "{% set loop_messages = messages %}{% for message in loop_messages %}"
    "{% set content = '<|start_header_id|>' + message['role'] + "
    "'<|end_header_id|>\n\n'+ message['content'] | trim + '<|eot_id|>' %}"
    "{% if loop.index0 == 0 %}{% set content = bos_token + content %}"
    "{% endif %}{{ content }}{% endfor %}{% if add_generation_prompt %}"
    "{{ '<|start_header_id|>assistant<|end_header_id|>\n\n' }}{% endif %}";

static const char chatml_template[] =
    "{% for message in messages %}{{'<|im_start|>' + message['role'] + "
    "'\n' + message['content'] + '<|im_end|>' + '\n'}}{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}"
    "{% endif %}";

static int
llama31(const char *dir)
{
	static const struct special sp[] = {
		{ 128000, "<|begin_of_text|>" },
		{ 128001, "<|end_of_text|>" },
		{ 128006, "<|start_header_id|>" },
		{ 128007, "<|end_header_id|>" },
		{ 128008, "<|eom_id|>" },
		{ 128009, "<|eot_id|>" },
	};
	struct gg	g;
	uint64_t	ne[1] = { 64 };
	unsigned	n = 0;

	start(&g, "llama", 1);
	n += 2;
	shape(&g, "llama", 4096, 32, 32, 8, 14336);
	n += 5;
	kvu(&g, "llama", "context_length", 8192);
	kvf(&g, "llama", "rope.freq_base", 500000.0f);
	kvf(&g, "llama", "attention.layer_norm_rms_epsilon", 1e-5f);
	kvu(&g, "llama", "vocab_size", 128256);
	n += 4;
	vocab(&g, 128256, sp, sizeof sp / sizeof sp[0]);
	n += 2;
	gg_kv_u32(&g, "tokenizer.ggml.bos_token_id", 128000);
	gg_kv_u32(&g, "tokenizer.ggml.eos_token_id", 128001);
	gg_kv_str(&g, "tokenizer.chat_template", llama3_template);
	n += 3;
	gg_tensor(&g, "rope_freqs.weight", 1, ne, GG_T_F32, 0);
	gg_pad(&g, 32);
	gg_zeros(&g, 64 * 4);
	return finish(&g, n, dir, "llama31.gguf");
}

static int
qwen25(const char *dir)
{
	static const struct special sp[] = {
		{ 151643, "<|endoftext|>" },
		{ 151644, "<|im_start|>" },
		{ 151645, "<|im_end|>" },
	};
	struct gg	g;
	unsigned	n = 0;

	start(&g, "qwen2", 0);
	n += 2;
	shape(&g, "qwen2", 3584, 28, 28, 4, 18944);
	n += 5;
	kvu(&g, "qwen2", "context_length", 32768);
	kvf(&g, "qwen2", "rope.freq_base", 1000000.0f);
	kvf(&g, "qwen2", "attention.layer_norm_rms_epsilon", 1e-6f);
	n += 3;
	vocab(&g, 152064, sp, sizeof sp / sizeof sp[0]);
	n += 2;
	gg_kv_u32(&g, "tokenizer.ggml.bos_token_id", 151643);
	gg_kv_u32(&g, "tokenizer.ggml.eos_token_id", 151645);
	gg_kv_u32(&g, "tokenizer.ggml.padding_token_id", 151643);
	gg_kv_bool(&g, "tokenizer.ggml.add_bos_token", 0);
	gg_kv_str(&g, "tokenizer.chat_template", chatml_template);
	n += 5;
	return finish(&g, n, dir, "qwen25.gguf");
}

static int
gemma3(const char *dir)
{
	static const struct special sp[] = {
		{ 0, "<pad>" },
		{ 1, "<eos>" },
		{ 2, "<bos>" },
		{ 3, "<unk>" },
		{ 105, "<start_of_turn>" },
		{ 106, "<end_of_turn>" },
	};
	struct gg	g;
	unsigned	n = 0;

	start(&g, "gemma3", 0);
	n += 2;
	shape(&g, "gemma3", 1152, 26, 4, 1, 6912);
	n += 5;
	kvu(&g, "gemma3", "context_length", 32768);
	kvf(&g, "gemma3", "rope.freq_base", 1000000.0f);
	kvf(&g, "gemma3", "attention.layer_norm_rms_epsilon", 1e-6f);
	kvu(&g, "gemma3", "attention.sliding_window", 4096);
	n += 4;
	vocab(&g, 262144, sp, sizeof sp / sizeof sp[0]);
	n += 2;
	gg_kv_u32(&g, "tokenizer.ggml.bos_token_id", 2);
	gg_kv_u32(&g, "tokenizer.ggml.eos_token_id", 1);
	gg_kv_u32(&g, "tokenizer.ggml.unknown_token_id", 3);
	gg_kv_u32(&g, "tokenizer.ggml.padding_token_id", 0);
	gg_kv_bool(&g, "tokenizer.ggml.add_bos_token", 1);
	gg_kv_bool(&g, "tokenizer.ggml.add_eos_token", 0);
	n += 6;
	return finish(&g, n, dir, "gemma3.gguf");
}

int
main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: gen_sync DIR\n");
		return 2;
	}
	if (llama31(argv[1]) != 0 || qwen25(argv[1]) != 0 ||
	    gemma3(argv[1]) != 0)
		return 1;
	return 0;
}
