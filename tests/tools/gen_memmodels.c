/*
 * gen_memmodels.c - writes tiny random-weight models of many
 * architectures, with the tensor names and shapes llama.cpp expects of
 * each, so that llama.cpp loads them: the memory it allocates is set
 * beside what `ggufed mem` computes (tests/interop/mem.sh), and hand
 * edits of them show whether `ggufed validate` knows when llama.cpp
 * refuses a model (tests/interop/model_check.sh).
 *
 *	gen_memmodels [--check] DIR
 *	gen_memmodels --deltanet ARCH FILE BLOCKS EMBD HEADS HEADS_KV HEAD
 *	    INTERVAL CONV STATE GROUPS V_HEADS FF EXPERTS USED EXP_FF SHARED_FF
 *
 * The second form writes one model of a gated delta-net hybrid
 * (qwen3next, qwen35, qwen35moe) of those sizes to FILE: attention on
 * every INTERVAL-th block (heads of size HEAD), the delta net on the
 * others (conv kernel CONV, GROUPS K heads and V_HEADS V heads of size
 * STATE), with the optional projections llama.cpp's graph reads
 * (qwen3next's ssm_in, qwen35's attn_qkv and attn_gate; ARCH
 * qwen3next-qkv: qwen3next with attn_qkv and attn_gate, qwen35-qkv and
 * qwen35moe-qkv: their attention's Q, K and V in one attn_qkv); qwen35's
 * feed-forward of FF, the others' EXPERTS experts of EXP_FF (USED a
 * token) and a shared one of SHARED_FF.
 *
 * writes into DIR:
 *
 *	llama-gqa.gguf	llama, 4 query heads sharing 2 KV heads, head size 32
 *	gemma2.gguf	sliding window on every other layer (window 300)
 *	gemma3.gguf	sliding window on 5 layers of 6 (window 600)
 *	gemma3-pattern.gguf  the same, the sliding layers given by the file
 *			(attention.sliding_window_pattern: 1 0 1 1 0 0 1)
 *	openelm.gguf	per-layer head counts (arrays), head size 32
 *	mamba.gguf	recurrent (Mamba): conv and SSM states, no KV cache
 *	deepseek2.gguf	multi-head latent attention (kv_lora_rank 64, rope 32)
 *	deepseek2-nextn.gguf  the same with a third block, a NextN
 *			(multi-token prediction) layer
 *	deepseek2-moe.gguf  the same attention with one Q projection
 *			(q_lora_rank 0); a dense first block, then experts
 *			(sigmoid gating, the selection bias exp_probs_b,
 *			weights normalized and scaled) and a shared one
 *	qwen2.gguf	llama-like with q/k/v biases
 *	qwen3.gguf	q/k norms, head size 48 (not embedding / heads)
 *	granitehybrid.gguf  Mamba-2 layers (head_count_kv 0) and attention
 *	mamba2.gguf	recurrent (Mamba-2, 2 groups)
 *	cohere2.gguf	sliding window on 3 layers of 4 (window 700)
 *	gpt-oss.gguf	mixture of experts, sliding window on every other
 *			layer (window 128)
 *	ARCH.gguf	for each architecture of the table dmodels
 *			(qwen2moe, qwen3moe, phi2, phi3, gemma, starcoder2,
 *			gpt2, falcon, stablelm, mpt, bloom, olmo2, granite,
 *			command-r, internlm2, glm4, bert, gptneox, deepseek,
 *			llama4, rwkv6, rwkv7, falcon-h1, t5, gemma3n, exaone4,
 *			olmoe, granitemoe, minicpm, mistral3, nomic-bert,
 *			baichuan, qwen, smollm3, deci, gemma4, arcee, exaone,
 *			olmo, orion, seed_oss, starcoder, xverse, refact,
 *			codeshell, nemotron, ernie4_5, bitnet, chatglm, dbrx,
 *			grok, hunyuan-moe, jais, phimoe, plamo, dots1,
 *			ernie4_5-moe, hunyuan-dense, minicpm3, llada), and
 *			of dmodels3 (qwen35, qwen35moe, minimax-m2, apertus,
 *			gemma-embedding, lfm2moe, smallthinker, afmoe,
 *			granite_swa, cohere2moe, jina-bert-v3, modern-bert,
 *			neo-bert, eurobert, exaone-moe, bailingmoe2, grovemoe):
 *			the tensors llama.cpp requires, no more (and qwen35's
 *			optional delta-net qkv and gate, which its models have)
 *	glm4-nextn.gguf, exaone4-nextn.gguf, qwen35-nextn.gguf  the same
 *			with a block more, a NextN (multi-token prediction)
 *			layer
 *	glm4moe.gguf	a dense block, experts (shared one, expert bias),
 *			and a NextN layer
 *	qwen2vl.gguf, qwen3vl.gguf, qwen3vlmoe.gguf  qwen2, qwen3 and
 *			qwen3moe with M-RoPE sections (the text models of
 *			the vision-language ones)
 *	jamba.gguf	Mamba (1) layers (head_count_kv 0) and attention
 *	nemotron_h.gguf  Mamba-2 layers, an attention layer and a
 *			feed-forward-only layer
 *	lfm2.gguf	short-conv layers (head_count_kv 0) and attention
 *	qwen3next.gguf	gated delta-net layers, attention on every 4th
 *	and, without --check (for the memory test only):
 *	llama4-chunked.gguf  llama4 with 5 blocks: chunked attention on
 *			blocks 0-2 and 4, full on block 3
 *	gemma3n-shared.gguf  gemma3n with 22 blocks (window 300): blocks 20
 *			and 21 reuse the cache of earlier ones
 *	gemma4-shared.gguf  gemma4 with a third block, sliding, that
 *			reuses the cache of another (shared_kv_layers 1)
 *	gemma4-scaled.gguf  gemma4 with V projections, each block's
 *			output scaled, the logits not soft-capped
 *	gemma4-moe.gguf  gemma4 with experts (2 of 4 used) beside
 *			each block's feed-forward
 *
 * With --check, beside each model NAME.gguf: NAME-extra.gguf, with one
 * tensor more ("extra.weight", which no architecture loads), and
 * NAME-reshape.gguf, whose first matrix of block 0 has one row more; and
 * one line a model on standard output: "NAME ARCH RESHAPED-TENSOR".
 *
 * Every tensor is F32 with values from a fixed pseudo-random sequence;
 * the vocabulary is a small SentencePiece one (3 specials, 256 byte
 * tokens, a few letters).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ggufgen.h"

#define MAXT	640

struct model {
	struct gg	 kv;		/* the KV entries, counted */
	uint64_t	 n_kv;
	const char	*arch;
	char		 tname[MAXT + 1][128];
	uint64_t	 tne[MAXT + 1][4];
	uint32_t	 tdims[MAXT + 1];
	size_t		 nt;
};

static uint32_t	rng = 12345;

static float
rnd(void)
{
	rng = rng * 1664525u + 1013904223u;
	return ((float)(rng >> 8) / 16777216.0f - 0.5f) * 0.1f;
}

/* A model of ARCH named NAME. */
static void
m_init_named(struct model *m, const char *arch, const char *name)
{
	memset(m, 0, sizeof *m);
	gg_init(&m->kv, 3, 0);
	m->arch = arch;
	gg_kv_str(&m->kv, "general.architecture", arch);
	m->n_kv++;
	gg_kv_str(&m->kv, "general.name", name);
	m->n_kv++;
}

static void
m_init(struct model *m, const char *arch)
{
	m_init_named(m, arch, arch);
}

/* "{arch}.suffix" */
static const char *
ak(const struct model *m, const char *suffix)
{
	static char	buf[128];

	snprintf(buf, sizeof buf, "%s.%s", m->arch, suffix);
	return buf;
}

static void
kv_u32(struct model *m, const char *suffix, uint32_t v)
{
	gg_kv_u32(&m->kv, ak(m, suffix), v);
	m->n_kv++;
}

/* The four sizes every model here states first, in this order. */
static void
m_dims(struct model *m, uint64_t ctx, uint64_t embd, uint64_t blocks,
    uint64_t ff)
{
	kv_u32(m, "context_length", (uint32_t)ctx);
	kv_u32(m, "embedding_length", (uint32_t)embd);
	kv_u32(m, "block_count", (uint32_t)blocks);
	kv_u32(m, "feed_forward_length", (uint32_t)ff);
}

/* Query and key/value head counts. */
static void
m_heads(struct model *m, uint64_t heads, uint64_t heads_kv)
{
	kv_u32(m, "attention.head_count", (uint32_t)heads);
	kv_u32(m, "attention.head_count_kv", (uint32_t)heads_kv);
}

/* The state-space sizes of mamba's blocks. */
static void
m_ssm(struct model *m, uint64_t conv, uint64_t inner, uint64_t state,
    uint64_t dt_rank)
{
	kv_u32(m, "ssm.conv_kernel", (uint32_t)conv);
	kv_u32(m, "ssm.inner_size", (uint32_t)inner);
	kv_u32(m, "ssm.state_size", (uint32_t)state);
	kv_u32(m, "ssm.time_step_rank", (uint32_t)dt_rank);
}

static void
kv_bool(struct model *m, const char *suffix, int v)
{
	gg_kv_bool(&m->kv, ak(m, suffix), (uint8_t)(v != 0));
	m->n_kv++;
}

static void
kv_f32(struct model *m, const char *suffix, float v)
{
	gg_kv_f32(&m->kv, ak(m, suffix), v);
	m->n_kv++;
}

static void
kv_u32_arr(struct model *m, const char *suffix, const uint32_t *v,
    size_t n)
{
	size_t	i;

	gg_kv_arr(&m->kv, ak(m, suffix), GG_U32, n);
	for (i = 0; i < n; i++)
		gg_u32(&m->kv, v[i]);
	m->n_kv++;
}

#define N_VOCAB	(3 + 256 + 5)

static void
vocab(struct model *m)
{
	char	tok[16];
	int	i;

	gg_kv_str(&m->kv, "tokenizer.ggml.model", "llama");
	gg_kv_arr(&m->kv, "tokenizer.ggml.tokens", GG_STR, N_VOCAB);
	gg_str(&m->kv, "<unk>");
	gg_str(&m->kv, "<s>");
	gg_str(&m->kv, "</s>");
	for (i = 0; i < 256; i++) {
		snprintf(tok, sizeof tok, "<0x%02X>", i);
		gg_str(&m->kv, tok);
	}
	for (i = 0; i < 5; i++) {
		snprintf(tok, sizeof tok, "%c", 'a' + i);
		gg_str(&m->kv, tok);
	}
	gg_kv_arr(&m->kv, "tokenizer.ggml.scores", GG_F32, N_VOCAB);
	for (i = 0; i < N_VOCAB; i++)
		gg_f32(&m->kv, i < 259 ? 0.0f : -(float)i);
	gg_kv_arr(&m->kv, "tokenizer.ggml.token_type", GG_I32, N_VOCAB);
	for (i = 0; i < N_VOCAB; i++)
		gg_u32(&m->kv, i == 0 ? 2 : i < 3 ? 3 : i < 259 ? 6 : 1);
	gg_kv_u32(&m->kv, "tokenizer.ggml.bos_token_id", 1);
	gg_kv_u32(&m->kv, "tokenizer.ggml.eos_token_id", 2);
	gg_kv_u32(&m->kv, "tokenizer.ggml.unknown_token_id", 0);
	m->n_kv += 7;
}

static void
t4(struct model *m, const char *name, uint32_t dims, uint64_t a, uint64_t b,
    uint64_t c, uint64_t d)
{
	if (m->nt == MAXT)
		abort();
	snprintf(m->tname[m->nt], sizeof m->tname[m->nt], "%s", name);
	m->tdims[m->nt] = dims;
	m->tne[m->nt][0] = a;
	m->tne[m->nt][1] = b;
	m->tne[m->nt][2] = c;
	m->tne[m->nt][3] = d;
	m->nt++;
}

static void
t3(struct model *m, const char *name, uint32_t dims, uint64_t a, uint64_t b,
    uint64_t c)
{
	t4(m, name, dims, a, b, c, 1);
}

static void
t1(struct model *m, const char *name, uint64_t a)
{
	t3(m, name, 1, a, 1, 1);
}

static void
t2(struct model *m, const char *name, uint64_t a, uint64_t b)
{
	t3(m, name, 2, a, b, 1);
}

/* blk.L.NAME.weight */
static const char *
bn(int l, const char *name)
{
	static char	buf[128];

	snprintf(buf, sizeof buf, "blk.%d.%s.weight", l, name);
	return buf;
}

static const char *
bb(int l, const char *name)
{
	static char	buf[128];

	snprintf(buf, sizeof buf, "blk.%d.%s.bias", l, name);
	return buf;
}

/* blk.L.NAME (tensors llama.cpp names without a suffix) */
static const char *
bx(int l, const char *name)
{
	static char	buf[128];

	snprintf(buf, sizeof buf, "blk.%d.%s", l, name);
	return buf;
}

static int	variants;	/* --check: write each model's variants too */

/*
 * Writes the model to DIR/FILE. extra: with one more tensor,
 * "extra.weight", that no architecture loads; reshape: tensor number
 * reshape (if not -1) with one row more.
 */
static int
m_emit(struct model *m, const char *dir, const char *file, int extra,
    long reshape)
{
	struct gg	g;
	char		path[4096];
	uint64_t	off = 0, n, j, ne[MAXT + 1][4];
	size_t		i, nt = m->nt;
	int		rc;

	memcpy(ne, m->tne, sizeof ne);
	if (reshape >= 0)
		ne[reshape][1]++;
	if (extra) {
		snprintf(m->tname[nt], sizeof m->tname[nt], "extra.weight");
		m->tdims[nt] = 1;
		ne[nt][0] = 8;
		ne[nt][1] = ne[nt][2] = ne[nt][3] = 1;
		nt++;
	}
	gg_init(&g, 3, 0);
	gg_header(&g, nt, m->n_kv);
	gg_bytes(&g, m->kv.buf, m->kv.len);
	for (i = 0; i < nt; i++) {
		gg_tensor(&g, m->tname[i], m->tdims[i], ne[i], GG_T_F32, off);
		n = ne[i][0] * ne[i][1] * ne[i][2] * ne[i][3] * 4;
		off += (n + 31) / 32 * 32;
	}
	gg_pad(&g, 32);
	for (i = 0; i < nt; i++) {
		n = ne[i][0] * ne[i][1] * ne[i][2] * ne[i][3];
		for (j = 0; j < n; j++)
			gg_f32(&g, strstr(m->tname[i], "norm") != NULL ?
			    1.0f : rnd());
		gg_pad(&g, 32);
	}
	snprintf(path, sizeof path, "%s/%s", dir, file);
	rc = gg_write(&g, path);
	if (rc != 0)
		perror(path);
	gg_free(&g);
	return rc;
}

/*
 * Writes the model to DIR/FILE, and with --check its variants beside it:
 * FILE less ".gguf" plus "-extra.gguf" (a tensor added) and
 * "-reshape.gguf" (the first matrix of block 0 given one row more),
 * printing "MODEL ARCH RESHAPED-TENSOR" for the test.
 */
static int
m_write(struct model *m, const char *dir, const char *file)
{
	char		base[256], vfile[300];
	size_t		i;
	uint32_t	seed = rng;
	int		rc;

	/* The variants' values are the model's (the same sequence). */
	rc = m_emit(m, dir, file, 0, -1);
	if (variants && rc == 0) {
		snprintf(base, sizeof base, "%.*s",
		    (int)(strlen(file) - strlen(".gguf")), file);
		for (i = 0; i < m->nt; i++)
			if (strncmp(m->tname[i], "blk.0.", 6) == 0 &&
			    m->tdims[i] >= 2)
				break;
		if (i == m->nt)
			i = 0;
		snprintf(vfile, sizeof vfile, "%s-extra.gguf", base);
		rng = seed;
		rc |= m_emit(m, dir, vfile, 1, -1);
		snprintf(vfile, sizeof vfile, "%s-reshape.gguf", base);
		rng = seed;
		rc |= m_emit(m, dir, vfile, 0, (long)i);
		printf("%s %s %s\n", base, m->arch, m->tname[i]);
	}
	gg_free(&m->kv);
	return rc;
}

/* Attention blocks of the llama family: q, k, v, output, norms, FFN. */
static void
attn_layer(struct model *m, int l, uint64_t embd, uint64_t nq, uint64_t nk,
    uint64_t nv, uint64_t ff)
{
	t1(m, bn(l, "attn_norm"), embd);
	t2(m, bn(l, "attn_q"), embd, nq);
	t2(m, bn(l, "attn_k"), embd, nk);
	t2(m, bn(l, "attn_v"), embd, nv);
	t2(m, bn(l, "attn_output"), nq, embd);
	t1(m, bn(l, "ffn_norm"), embd);
	t2(m, bn(l, "ffn_gate"), embd, ff);
	t2(m, bn(l, "ffn_down"), ff, embd);
	t2(m, bn(l, "ffn_up"), embd, ff);
}

static int
llama_gqa(const char *dir)
{
	struct model	m;
	int		l;

	m_init(&m, "llama");
	m_dims(&m, 4096, 128, 3, 256);
	m_heads(&m, 4, 2);
	kv_u32(&m, "rope.dimension_count", 32);
	kv_f32(&m, "attention.layer_norm_rms_epsilon", 1e-5f);
	vocab(&m);
	t2(&m, "token_embd.weight", 128, N_VOCAB);
	for (l = 0; l < 3; l++)
		attn_layer(&m, l, 128, 128, 64, 64, 256);
	t1(&m, "output_norm.weight", 128);
	t2(&m, "output.weight", 128, N_VOCAB);
	return m_write(&m, dir, "llama-gqa.gguf");
}

static void
gemma_layers(struct model *m, int n_layer, int qk_norm)
{
	int	l;

	t2(m, "token_embd.weight", 128, N_VOCAB);
	for (l = 0; l < n_layer; l++) {
		t1(m, bn(l, "attn_norm"), 128);
		t2(m, bn(l, "attn_q"), 128, 4 * 32);
		t2(m, bn(l, "attn_k"), 128, 2 * 32);
		t2(m, bn(l, "attn_v"), 128, 2 * 32);
		if (qk_norm) {
			t1(m, bn(l, "attn_q_norm"), 32);
			t1(m, bn(l, "attn_k_norm"), 32);
		}
		t2(m, bn(l, "attn_output"), 4 * 32, 128);
		t1(m, bn(l, "post_attention_norm"), 128);
		t1(m, bn(l, "ffn_norm"), 128);
		t2(m, bn(l, "ffn_gate"), 128, 256);
		t2(m, bn(l, "ffn_up"), 128, 256);
		t2(m, bn(l, "ffn_down"), 256, 128);
		t1(m, bn(l, "post_ffw_norm"), 128);
	}
	t1(m, "output_norm.weight", 128);
}

static int
gemma2(const char *dir)
{
	struct model	m;

	m_init(&m, "gemma2");
	m_dims(&m, 8192, 128, 4, 256);
	m_heads(&m, 4, 2);
	kv_u32(&m, "attention.key_length", 32);
	kv_u32(&m, "attention.value_length", 32);
	kv_f32(&m, "attention.layer_norm_rms_epsilon", 1e-6f);
	kv_u32(&m, "attention.sliding_window", 300);
	kv_f32(&m, "attn_logit_softcapping", 50.0f);
	kv_f32(&m, "final_logit_softcapping", 30.0f);
	vocab(&m);
	gemma_layers(&m, 4, 0);
	return m_write(&m, dir, "gemma2.gguf");
}

static int
gemma3(const char *dir, int pattern)
{
	static const uint8_t	swa[7] = { 1, 0, 1, 1, 0, 0, 1 };
	struct model		m;
	int			i;

	m_init(&m, "gemma3");
	m_dims(&m, 32768, 128, 7, 256);
	m_heads(&m, 4, 2);
	kv_u32(&m, "attention.key_length", 32);
	kv_u32(&m, "attention.value_length", 32);
	kv_f32(&m, "attention.layer_norm_rms_epsilon", 1e-6f);
	kv_u32(&m, "attention.sliding_window", 600);
	kv_f32(&m, "rope.freq_base", 1000000.0f);
	if (pattern) {
		gg_kv_arr(&m.kv, ak(&m, "attention.sliding_window_pattern"),
		    GG_BOOL, 7);
		for (i = 0; i < 7; i++)
			gg_u8(&m.kv, swa[i]);
		m.n_kv++;
	}
	vocab(&m);
	gemma_layers(&m, 7, 1);
	return m_write(&m, dir, pattern ? "gemma3-pattern.gguf" :
	    "gemma3.gguf");
}

static int
openelm(const char *dir)
{
	static const uint32_t	heads[4] = { 2, 4, 4, 6 };
	static const uint32_t	heads_kv[4] = { 1, 1, 2, 3 };
	static const uint32_t	ff[4] = { 128, 192, 256, 320 };
	struct model		m;
	int			l;

	m_init(&m, "openelm");
	kv_u32(&m, "context_length", 2048);
	kv_u32(&m, "embedding_length", 128);
	kv_u32(&m, "block_count", 4);
	kv_u32_arr(&m, "feed_forward_length", ff, 4);
	kv_u32_arr(&m, "attention.head_count", heads, 4);
	kv_u32_arr(&m, "attention.head_count_kv", heads_kv, 4);
	kv_u32(&m, "attention.key_length", 32);
	kv_u32(&m, "attention.value_length", 32);
	kv_u32(&m, "rope.dimension_count", 32);
	kv_f32(&m, "attention.layer_norm_rms_epsilon", 1e-6f);
	vocab(&m);
	t2(&m, "token_embd.weight", 128, N_VOCAB);
	for (l = 0; l < 4; l++) {
		t1(&m, bn(l, "attn_norm"), 128);
		t2(&m, bn(l, "attn_qkv"), 128,
		    (heads[l] + 2 * heads_kv[l]) * 32);
		t1(&m, bn(l, "attn_q_norm"), 32);
		t1(&m, bn(l, "attn_k_norm"), 32);
		t2(&m, bn(l, "attn_output"), heads[l] * 32, 128);
		t1(&m, bn(l, "ffn_norm"), 128);
		t2(&m, bn(l, "ffn_gate"), 128, ff[l]);
		t2(&m, bn(l, "ffn_up"), 128, ff[l]);
		t2(&m, bn(l, "ffn_down"), ff[l], 128);
	}
	t1(&m, "output_norm.weight", 128);
	return m_write(&m, dir, "openelm.gguf");
}

static int
mamba(const char *dir)
{
	struct model	m;
	int		l;
	const uint64_t	embd = 64, inner = 128, state = 16, conv = 4, dt = 4;

	m_init(&m, "mamba");
	m_dims(&m, 1048576, embd, 2, 0);
	kv_u32(&m, "attention.head_count", 0);
	kv_f32(&m, "attention.layer_norm_rms_epsilon", 1e-5f);
	m_ssm(&m, conv, inner, state, dt);
	vocab(&m);
	t2(&m, "token_embd.weight", embd, N_VOCAB);
	for (l = 0; l < 2; l++) {
		t1(&m, bn(l, "attn_norm"), embd);
		t2(&m, bn(l, "ssm_in"), embd, 2 * inner);
		t2(&m, bn(l, "ssm_conv1d"), conv, inner);
		t1(&m, bb(l, "ssm_conv1d"), inner);
		t2(&m, bn(l, "ssm_x"), inner, dt + 2 * state);
		t2(&m, bn(l, "ssm_dt"), dt, inner);
		t1(&m, bb(l, "ssm_dt"), inner);
		t2(&m, bx(l, "ssm_a"), state, inner);
		t1(&m, bx(l, "ssm_d"), inner);
		t2(&m, bn(l, "ssm_out"), inner, embd);
	}
	t1(&m, "output_norm.weight", embd);
	return m_write(&m, dir, "mamba.gguf");
}

/*
 * With nextn, a third block: a NextN (multi-token prediction) layer, of
 * an ordinary block's tensors and its own nextn.* ones: the projection of
 * the embedding and hidden state, their norms, and the layer's embedding
 * and output head. With moe, one Q projection, and experts on the second
 * block.
 */
static int
deepseek2(const char *dir, int nextn, int moe)
{
	struct model	m;
	int		l, n_layer = nextn ? 3 : 2;
	const uint64_t	embd = 128, heads = 4, nope = 32, rope = 32,
			vhead = 32, rank = 64, qrank = 48, ff = 256, ffe = 48,
			nexp = 6;

	m_init(&m, "deepseek2");
	kv_u32(&m, "context_length", 16384);
	kv_u32(&m, "embedding_length", (uint32_t)embd);
	kv_u32(&m, "block_count", (uint32_t)n_layer);
	kv_u32(&m, "leading_dense_block_count", moe ? 1 : (uint32_t)n_layer);
	if (nextn)
		kv_u32(&m, "nextn_predict_layers", 1);
	kv_u32(&m, "feed_forward_length", (uint32_t)ff);
	m_heads(&m, heads, 1);
	kv_u32(&m, "attention.key_length", (uint32_t)(rank + rope));
	kv_u32(&m, "attention.value_length", (uint32_t)rank);
	kv_u32(&m, "attention.key_length_mla", (uint32_t)(nope + rope));
	kv_u32(&m, "attention.value_length_mla", (uint32_t)vhead);
	kv_u32(&m, "attention.kv_lora_rank", (uint32_t)rank);
	kv_u32(&m, "attention.q_lora_rank", moe ? 0 : (uint32_t)qrank);
	kv_u32(&m, "rope.dimension_count", (uint32_t)rope);
	kv_f32(&m, "attention.layer_norm_rms_epsilon", 1e-6f);
	kv_u32(&m, "expert_feed_forward_length", moe ? (uint32_t)ffe : 64);
	kv_u32(&m, "expert_count", moe ? (uint32_t)nexp : 0);
	if (moe) {
		kv_u32(&m, "expert_used_count", 3);
		kv_u32(&m, "expert_gating_func", 2);
		kv_bool(&m, "expert_weights_norm", 1);
	}
	kv_u32(&m, "expert_shared_count", moe ? 1 : 0);
	kv_f32(&m, "expert_weights_scale", moe ? 2.5f : 1.0f);
	vocab(&m);
	t2(&m, "token_embd.weight", embd, N_VOCAB);
	for (l = 0; l < n_layer; l++) {
		t1(&m, bn(l, "attn_norm"), embd);
		if (moe)
			t2(&m, bn(l, "attn_q"), embd, heads * (nope + rope));
		else {
			t2(&m, bn(l, "attn_q_a"), embd, qrank);
			t1(&m, bn(l, "attn_q_a_norm"), qrank);
			t2(&m, bn(l, "attn_q_b"), qrank, heads * (nope + rope));
		}
		t2(&m, bn(l, "attn_kv_a_mqa"), embd, rank + rope);
		t1(&m, bn(l, "attn_kv_a_norm"), rank);
		t3(&m, bn(l, "attn_k_b"), 3, nope, rank, heads);
		t3(&m, bn(l, "attn_v_b"), 3, rank, vhead, heads);
		t2(&m, bn(l, "attn_output"), heads * vhead, embd);
		t1(&m, bn(l, "ffn_norm"), embd);
		if (moe && l > 0) {
			t2(&m, bn(l, "ffn_gate_inp"), embd, nexp);
			t1(&m, bb(l, "exp_probs_b"), nexp);
			t3(&m, bn(l, "ffn_gate_exps"), 3, embd, ffe, nexp);
			t3(&m, bn(l, "ffn_down_exps"), 3, ffe, embd, nexp);
			t3(&m, bn(l, "ffn_up_exps"), 3, embd, ffe, nexp);
			t2(&m, bn(l, "ffn_gate_shexp"), embd, ffe);
			t2(&m, bn(l, "ffn_down_shexp"), ffe, embd);
			t2(&m, bn(l, "ffn_up_shexp"), embd, ffe);
			continue;
		}
		t2(&m, bn(l, "ffn_gate"), embd, ff);
		t2(&m, bn(l, "ffn_down"), ff, embd);
		t2(&m, bn(l, "ffn_up"), embd, ff);
	}
	if (nextn) {
		l = n_layer - 1;
		t2(&m, bn(l, "nextn.eh_proj"), 2 * embd, embd);
		t1(&m, bn(l, "nextn.enorm"), embd);
		t1(&m, bn(l, "nextn.hnorm"), embd);
		t2(&m, bn(l, "nextn.embed_tokens"), embd, N_VOCAB);
		t2(&m, bn(l, "nextn.shared_head_head"), embd, N_VOCAB);
		t1(&m, bn(l, "nextn.shared_head_norm"), embd);
	}
	t1(&m, "output_norm.weight", embd);
	t2(&m, "output.weight", embd, N_VOCAB);
	return m_write(&m, dir, nextn ? "deepseek2-nextn.gguf" : moe ?
	    "deepseek2-moe.gguf" : "deepseek2.gguf");
}

/*
 * glm4moe (GLM-4.5): a dense first block, then mixture-of-experts blocks
 * with a shared expert and the expert bias, q/k/v with biases and q/k
 * norms; the last block a NextN layer with its nextn.* tensors.
 */
static int
glm4moe(const char *dir)
{
	struct model	m;
	int		l;
	const int	n_layer = 3;
	const uint64_t	embd = 64, heads = 4, kv = 2, hd = 16, ff = 128,
			ffe = 32, nexp = 4;

	m_init(&m, "glm4moe");
	m_dims(&m, 4096, embd, n_layer, ff);
	m_heads(&m, heads, kv);
	kv_f32(&m, "attention.layer_norm_rms_epsilon", 1e-5f);
	kv_u32(&m, "rope.dimension_count", (uint32_t)(hd / 2));
	kv_u32(&m, "expert_feed_forward_length", (uint32_t)ffe);
	kv_u32(&m, "expert_count", (uint32_t)nexp);
	kv_u32(&m, "expert_used_count", 2);
	kv_u32(&m, "expert_shared_count", 1);
	kv_u32(&m, "leading_dense_block_count", 1);
	kv_f32(&m, "expert_weights_scale", 1.0f);
	kv_u32(&m, "nextn_predict_layers", 1);
	vocab(&m);
	t2(&m, "token_embd.weight", embd, N_VOCAB);
	for (l = 0; l < n_layer; l++) {
		t1(&m, bn(l, "attn_norm"), embd);
		t2(&m, bn(l, "attn_q"), embd, heads * hd);
		t2(&m, bn(l, "attn_k"), embd, kv * hd);
		t2(&m, bn(l, "attn_v"), embd, kv * hd);
		t1(&m, bb(l, "attn_q"), heads * hd);
		t1(&m, bb(l, "attn_k"), kv * hd);
		t1(&m, bb(l, "attn_v"), kv * hd);
		t2(&m, bn(l, "attn_output"), heads * hd, embd);
		t1(&m, bn(l, "attn_q_norm"), hd);
		t1(&m, bn(l, "attn_k_norm"), hd);
		t1(&m, bn(l, "post_attention_norm"), embd);
		if (l == 0) {
			t2(&m, bn(l, "ffn_gate"), embd, ff);
			t2(&m, bn(l, "ffn_down"), ff, embd);
			t2(&m, bn(l, "ffn_up"), embd, ff);
			continue;
		}
		t2(&m, bn(l, "ffn_gate_inp"), embd, nexp);
		t1(&m, bb(l, "exp_probs_b"), nexp);
		t3(&m, bn(l, "ffn_gate_exps"), 3, embd, ffe, nexp);
		t3(&m, bn(l, "ffn_down_exps"), 3, ffe, embd, nexp);
		t3(&m, bn(l, "ffn_up_exps"), 3, embd, ffe, nexp);
		t2(&m, bn(l, "ffn_gate_shexp"), embd, ffe);
		t2(&m, bn(l, "ffn_down_shexp"), ffe, embd);
		t2(&m, bn(l, "ffn_up_shexp"), embd, ffe);
	}
	l = n_layer - 1;
	t2(&m, bn(l, "nextn.eh_proj"), 2 * embd, embd);
	t1(&m, bn(l, "nextn.enorm"), embd);
	t1(&m, bn(l, "nextn.hnorm"), embd);
	t2(&m, bn(l, "nextn.embed_tokens"), embd, N_VOCAB);
	t2(&m, bn(l, "nextn.shared_head_head"), embd, N_VOCAB);
	t1(&m, bn(l, "nextn.shared_head_norm"), embd);
	t1(&m, "output_norm.weight", embd);
	t2(&m, "output.weight", embd, N_VOCAB);
	return m_write(&m, dir, "glm4moe.gguf");
}

/*
 * The M-RoPE sections of the vision-language models (qwen2vl, qwen3vl,
 * qwen3vlmoe): four, of which llama.cpp reads up to four.
 */
static void
rope_sections(struct model *m)
{
	static const uint32_t	sec[4] = { 8, 4, 4, 0 };
	size_t			i;

	/* as the converter writes them: int32 */
	gg_kv_arr(&m->kv, ak(m, "rope.dimension_sections"), GG_I32, 4);
	for (i = 0; i < 4; i++)
		gg_u32(&m->kv, sec[i]);
	m->n_kv++;
}

static int
qwen(const char *dir, int v3, int vl)
{
	struct model	m;
	int		l;
	const uint64_t	embd = 128, heads = 4, kv = 2, hd = v3 ? 48 : 32,
			ff = 256;
	char		file[32];

	m_init(&m, v3 ? (vl ? "qwen3vl" : "qwen3") : (vl ? "qwen2vl" :
	    "qwen2"));
	m_dims(&m, 32768, embd, 3, ff);
	m_heads(&m, heads, kv);
	if (vl)
		rope_sections(&m);
	if (v3) {
		kv_u32(&m, "attention.key_length", (uint32_t)hd);
		kv_u32(&m, "attention.value_length", (uint32_t)hd);
	}
	kv_f32(&m, "rope.freq_base", 1000000.0f);
	kv_f32(&m, "attention.layer_norm_rms_epsilon", 1e-6f);
	vocab(&m);
	t2(&m, "token_embd.weight", embd, N_VOCAB);
	for (l = 0; l < 3; l++) {
		t1(&m, bn(l, "attn_norm"), embd);
		t2(&m, bn(l, "attn_q"), embd, heads * hd);
		t2(&m, bn(l, "attn_k"), embd, kv * hd);
		t2(&m, bn(l, "attn_v"), embd, kv * hd);
		if (v3) {
			t1(&m, bn(l, "attn_q_norm"), hd);
			t1(&m, bn(l, "attn_k_norm"), hd);
		} else {
			t1(&m, bb(l, "attn_q"), heads * hd);
			t1(&m, bb(l, "attn_k"), kv * hd);
			t1(&m, bb(l, "attn_v"), kv * hd);
		}
		t2(&m, bn(l, "attn_output"), heads * hd, embd);
		t1(&m, bn(l, "ffn_norm"), embd);
		t2(&m, bn(l, "ffn_gate"), embd, ff);
		t2(&m, bn(l, "ffn_down"), ff, embd);
		t2(&m, bn(l, "ffn_up"), embd, ff);
	}
	t1(&m, "output_norm.weight", embd);
	snprintf(file, sizeof file, "%s.gguf", m.arch);
	return m_write(&m, dir, file);
}

/* Mamba-2 layers where head_count_kv is 0, attention elsewhere. */
static int
granitehybrid(const char *dir)
{
	static const uint32_t	kvh[4] = { 0, 2, 0, 0 };
	struct model		m;
	int			l;
	const uint64_t		embd = 128, heads = 4, hd = 32, ff = 256,
				inner = 256, state = 16, conv = 4, group = 1,
				sheads = 8;

	m_init(&m, "granitehybrid");
	m_dims(&m, 131072, embd, 4, ff);
	kv_u32(&m, "attention.head_count", (uint32_t)heads);
	kv_u32_arr(&m, "attention.head_count_kv", kvh, 4);
	kv_f32(&m, "attention.layer_norm_rms_epsilon", 1e-5f);
	m_ssm(&m, conv, inner, state, sheads);
	kv_u32(&m, "ssm.group_count", (uint32_t)group);
	kv_f32(&m, "embedding_scale", 12.0f);
	kv_f32(&m, "residual_scale", 0.22f);
	kv_f32(&m, "attention.scale", 0.0078125f);
	kv_f32(&m, "logit_scale", 8.0f);
	kv_u32(&m, "expert_count", 0);
	kv_u32(&m, "expert_used_count", 0);
	kv_u32(&m, "expert_shared_feed_forward_length", 0);
	kv_u32(&m, "rope.dimension_count", (uint32_t)hd);
	vocab(&m);
	t2(&m, "token_embd.weight", embd, N_VOCAB);
	for (l = 0; l < 4; l++) {
		t1(&m, bn(l, "attn_norm"), embd);
		if (kvh[l] == 0) {
			t2(&m, bn(l, "ssm_in"), embd,
			    2 * inner + 2 * group * state + sheads);
			t2(&m, bn(l, "ssm_conv1d"), conv,
			    inner + 2 * group * state);
			t1(&m, bb(l, "ssm_conv1d"), inner + 2 * group * state);
			t1(&m, bb(l, "ssm_dt"), sheads);
			t2(&m, bx(l, "ssm_a"), 1, sheads);
			t2(&m, bx(l, "ssm_d"), 1, sheads);
			t2(&m, bn(l, "ssm_norm"), inner / group, group);
			t2(&m, bn(l, "ssm_out"), inner, embd);
		} else {
			t2(&m, bn(l, "attn_q"), embd, heads * hd);
			t2(&m, bn(l, "attn_k"), embd, kvh[l] * hd);
			t2(&m, bn(l, "attn_v"), embd, kvh[l] * hd);
			t2(&m, bn(l, "attn_output"), heads * hd, embd);
		}
		t1(&m, bn(l, "ffn_norm"), embd);
		t2(&m, bn(l, "ffn_gate"), embd, ff);
		t2(&m, bn(l, "ffn_down"), ff, embd);
		t2(&m, bn(l, "ffn_up"), embd, ff);
	}
	t1(&m, "output_norm.weight", embd);
	return m_write(&m, dir, "granitehybrid.gguf");
}

/* Mamba (1) layers where head_count_kv is 0, attention elsewhere. */
static int
jamba(const char *dir)
{
	static const uint32_t	kvh[4] = { 0, 0, 1, 0 };
	struct model		m;
	int			l;
	const uint64_t		embd = 96, heads = 4, hd = 24, ff = 160,
				inner = 192, state = 16, conv = 4, dt = 6;

	m_init(&m, "jamba");
	m_dims(&m, 2048, embd, 4, ff);
	kv_u32(&m, "attention.head_count", (uint32_t)heads);
	kv_u32_arr(&m, "attention.head_count_kv", kvh, 4);
	kv_f32(&m, "attention.layer_norm_rms_epsilon", 1e-5f);
	m_ssm(&m, conv, inner, state, dt);
	vocab(&m);
	t2(&m, "token_embd.weight", embd, N_VOCAB);
	for (l = 0; l < 4; l++) {
		t1(&m, bn(l, "attn_norm"), embd);
		if (kvh[l] == 0) {
			t2(&m, bn(l, "ssm_in"), embd, 2 * inner);
			t2(&m, bn(l, "ssm_conv1d"), conv, inner);
			t1(&m, bb(l, "ssm_conv1d"), inner);
			t2(&m, bn(l, "ssm_x"), inner, dt + 2 * state);
			t1(&m, bn(l, "ssm_dt_norm"), dt);
			t2(&m, bn(l, "ssm_dt"), dt, inner);
			t1(&m, bb(l, "ssm_dt"), inner);
			t1(&m, bn(l, "ssm_b_norm"), state);
			t1(&m, bn(l, "ssm_c_norm"), state);
			t2(&m, bx(l, "ssm_a"), state, inner);
			t1(&m, bx(l, "ssm_d"), inner);
			t2(&m, bn(l, "ssm_out"), inner, embd);
		} else {
			t2(&m, bn(l, "attn_q"), embd, heads * hd);
			t2(&m, bn(l, "attn_k"), embd, kvh[l] * hd);
			t2(&m, bn(l, "attn_v"), embd, kvh[l] * hd);
			t2(&m, bn(l, "attn_output"), heads * hd, embd);
		}
		t1(&m, bn(l, "ffn_norm"), embd);
		t2(&m, bn(l, "ffn_gate"), embd, ff);
		t2(&m, bn(l, "ffn_down"), ff, embd);
		t2(&m, bn(l, "ffn_up"), embd, ff);
	}
	t1(&m, "output_norm.weight", embd);
	return m_write(&m, dir, "jamba.gguf");
}

/*
 * Mamba-2 layers (no KV heads, no feed-forward), an attention layer (no
 * feed-forward) and a feed-forward layer (no KV heads, no cache).
 */
static int
nemotron_h(const char *dir)
{
	static const uint32_t	kvh[4] = { 0, 1, 0, 0 };
	static const uint32_t	ffs[4] = { 0, 0, 160, 0 };
	struct model		m;
	int			l;
	const uint64_t		embd = 96, heads = 4, hd = 24,
				inner = 192, state = 16, conv = 4, group = 2,
				sheads = 6;

	m_init(&m, "nemotron_h");
	kv_u32(&m, "context_length", 2048);
	kv_u32(&m, "embedding_length", (uint32_t)embd);
	kv_u32(&m, "block_count", 4);
	kv_u32_arr(&m, "feed_forward_length", ffs, 4);
	kv_u32(&m, "attention.head_count", (uint32_t)heads);
	kv_u32_arr(&m, "attention.head_count_kv", kvh, 4);
	kv_f32(&m, "attention.layer_norm_epsilon", 1e-5f);
	m_ssm(&m, conv, inner, state, sheads);
	kv_u32(&m, "ssm.group_count", (uint32_t)group);
	vocab(&m);
	t2(&m, "token_embd.weight", embd, N_VOCAB);
	for (l = 0; l < 4; l++) {
		t1(&m, bn(l, "attn_norm"), embd);
		if (kvh[l] == 0 && ffs[l] == 0) {
			t2(&m, bn(l, "ssm_in"), embd,
			    2 * inner + 2 * group * state + sheads);
			t2(&m, bn(l, "ssm_conv1d"), conv,
			    inner + 2 * group * state);
			t1(&m, bb(l, "ssm_conv1d"), inner + 2 * group * state);
			t1(&m, bb(l, "ssm_dt"), sheads);
			t2(&m, bx(l, "ssm_a"), 1, sheads);
			t2(&m, bx(l, "ssm_d"), 1, sheads);
			t2(&m, bn(l, "ssm_norm"), inner / group, group);
			t2(&m, bn(l, "ssm_out"), inner, embd);
		} else if (ffs[l] == 0) {
			t2(&m, bn(l, "attn_q"), embd, heads * hd);
			t2(&m, bn(l, "attn_k"), embd, kvh[l] * hd);
			t2(&m, bn(l, "attn_v"), embd, kvh[l] * hd);
			t2(&m, bn(l, "attn_output"), heads * hd, embd);
		} else {
			t2(&m, bn(l, "ffn_down"), ffs[l], embd);
			t2(&m, bn(l, "ffn_up"), embd, ffs[l]);
		}
	}
	t1(&m, "output_norm.weight", embd);
	return m_write(&m, dir, "nemotron_h.gguf");
}

static int
mamba2(const char *dir)
{
	struct model	m;
	int		l;
	const uint64_t	embd = 64, inner = 128, state = 16, conv = 4,
			group = 2, sheads = 4;

	m_init(&m, "mamba2");
	m_dims(&m, 1048576, embd, 2, 0);
	kv_u32(&m, "attention.head_count", 0);
	kv_f32(&m, "attention.layer_norm_rms_epsilon", 1e-5f);
	m_ssm(&m, conv, inner, state, sheads);
	kv_u32(&m, "ssm.group_count", (uint32_t)group);
	vocab(&m);
	t2(&m, "token_embd.weight", embd, N_VOCAB);
	for (l = 0; l < 2; l++) {
		t1(&m, bn(l, "attn_norm"), embd);
		t2(&m, bn(l, "ssm_in"), embd,
		    2 * inner + 2 * group * state + sheads);
		t2(&m, bn(l, "ssm_conv1d"), conv, inner + 2 * group * state);
		t1(&m, bb(l, "ssm_conv1d"), inner + 2 * group * state);
		t1(&m, bb(l, "ssm_dt"), sheads);
		t2(&m, bx(l, "ssm_a"), 1, sheads);
		t2(&m, bx(l, "ssm_d"), 1, sheads);
		t2(&m, bn(l, "ssm_norm"), inner / group, group);
		t2(&m, bn(l, "ssm_out"), inner, embd);
	}
	t1(&m, "output_norm.weight", embd);
	return m_write(&m, dir, "mamba2.gguf");
}

/* Sliding window on 3 layers of 4. */
static int
cohere2(const char *dir)
{
	struct model	m;
	int		l;

	m_init(&m, "cohere2");
	m_dims(&m, 8192, 128, 5, 256);
	m_heads(&m, 4, 1);
	kv_f32(&m, "attention.layer_norm_epsilon", 1e-5f);
	kv_u32(&m, "attention.sliding_window", 700);
	kv_f32(&m, "logit_scale", 0.25f);
	kv_u32(&m, "rope.dimension_count", 32);
	vocab(&m);
	t2(&m, "token_embd.weight", 128, N_VOCAB);
	for (l = 0; l < 5; l++) {
		t1(&m, bn(l, "attn_norm"), 128);
		t2(&m, bn(l, "attn_q"), 128, 128);
		t2(&m, bn(l, "attn_k"), 128, 32);
		t2(&m, bn(l, "attn_v"), 128, 32);
		t2(&m, bn(l, "attn_output"), 128, 128);
		t2(&m, bn(l, "ffn_gate"), 128, 256);
		t2(&m, bn(l, "ffn_up"), 128, 256);
		t2(&m, bn(l, "ffn_down"), 256, 128);
	}
	t1(&m, "output_norm.weight", 128);
	return m_write(&m, dir, "cohere2.gguf");
}

/* Mixture of experts; sliding window on every other layer, with sinks. */
static int
gptoss(const char *dir)
{
	struct model	m;
	int		l;
	const uint64_t	embd = 128, heads = 4, kv = 2, hd = 32, ff = 64,
			nexp = 2;

	m_init(&m, "gpt-oss");
	m_dims(&m, 131072, embd, 4, ff);
	kv_u32(&m, "expert_feed_forward_length", (uint32_t)ff);
	kv_u32(&m, "expert_count", (uint32_t)nexp);
	kv_u32(&m, "expert_used_count", 1);
	m_heads(&m, heads, kv);
	kv_u32(&m, "attention.key_length", (uint32_t)hd);
	kv_u32(&m, "attention.value_length", (uint32_t)hd);
	kv_u32(&m, "attention.sliding_window", 128);
	kv_f32(&m, "attention.layer_norm_rms_epsilon", 1e-5f);
	kv_f32(&m, "rope.freq_base", 150000.0f);
	vocab(&m);
	t2(&m, "token_embd.weight", embd, N_VOCAB);
	for (l = 0; l < 4; l++) {
		t1(&m, bn(l, "attn_norm"), embd);
		t2(&m, bn(l, "attn_q"), embd, heads * hd);
		t1(&m, bb(l, "attn_q"), heads * hd);
		t2(&m, bn(l, "attn_k"), embd, kv * hd);
		t1(&m, bb(l, "attn_k"), kv * hd);
		t2(&m, bn(l, "attn_v"), embd, kv * hd);
		t1(&m, bb(l, "attn_v"), kv * hd);
		t2(&m, bn(l, "attn_output"), heads * hd, embd);
		t1(&m, bb(l, "attn_output"), embd);
		t1(&m, bn(l, "attn_sinks"), heads);
		t1(&m, bn(l, "post_attention_norm"), embd);
		t2(&m, bn(l, "ffn_gate_inp"), embd, nexp);
		t1(&m, bb(l, "ffn_gate_inp"), nexp);
		t3(&m, bn(l, "ffn_gate_exps"), 3, embd, ff, nexp);
		t2(&m, bb(l, "ffn_gate_exps"), ff, nexp);
		t3(&m, bn(l, "ffn_up_exps"), 3, embd, ff, nexp);
		t2(&m, bb(l, "ffn_up_exps"), ff, nexp);
		t3(&m, bn(l, "ffn_down_exps"), 3, ff, embd, nexp);
		t2(&m, bb(l, "ffn_down_exps"), embd, nexp);
	}
	t1(&m, "output_norm.weight", embd);
	t2(&m, "output.weight", embd, N_VOCAB);
	return m_write(&m, dir, "gpt-oss.gguf");
}

#include "memmodels_data.h"
#include "memmodels_data2.h"
#include "memmodels_data3.h"

/*
 * Models of the tables above with more blocks, for the memory test only
 * (not written with --check): FILE.gguf of ARCH, the table's keys with
 * those given here in their place (or added, if the table has none).
 */
static const struct dkey llama4_chunked_keys[] = {
	/* 3 chunked layers, then a full one, then a chunked one */
	{ "block_count", GG_U32, 5, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dkey gemma3n_shared_keys[] = {
	/* llama.cpp's gemma3n: layers from the 20th share the KV of
	   earlier ones */
	{ "block_count", GG_U32, 22, NULL, 0 },
	{ "attention.sliding_window", GG_U32, 300, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};

static const uint32_t gemma4_a1[] = { 1, 0, 1 };
static const struct dkey gemma4_shared_keys[] = {
	/* the last layer, a sliding one, reads the cache of the first */
	{ "block_count", GG_U32, 3, NULL, 0 },
	{ "attention.sliding_window_pattern", GG_BOOL, 0, gemma4_a1, 3 },
	{ "attention.shared_kv_layers", GG_U32, 1, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten gemma4_shared_tensors[] = {
	{ "blk.2.attn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.2.attn_q.weight", 2, { 96, 80, 1, 1 } },
	{ "blk.2.attn_k.weight", 2, { 96, 20, 1, 1 } },
	{ "blk.2.attn_output.weight", 2, { 80, 96, 1, 1 } },
	{ "blk.2.attn_q_norm.weight", 1, { 20, 1, 1, 1 } },
	{ "blk.2.attn_k_norm.weight", 1, { 20, 1, 1, 1 } },
	{ "blk.2.post_attention_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.2.ffn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.2.ffn_gate.weight", 2, { 96, 160, 1, 1 } },
	{ "blk.2.ffn_up.weight", 2, { 96, 160, 1, 1 } },
	{ "blk.2.ffn_down.weight", 2, { 160, 96, 1, 1 } },
	{ "blk.2.post_ffw_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.2.inp_gate.weight", 2, { 96, 16, 1, 1 } },
	{ "blk.2.proj.weight", 2, { 16, 96, 1, 1 } },
	{ "blk.2.post_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "per_layer_token_embd.weight", 2, { 48, 264, 1, 1 } },
	{ "per_layer_model_proj.weight", 2, { 96, 48, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};
static const struct dkey gemma4_scaled_keys[] = {
	/* no soft-capping of the logits */
	{ "final_logit_softcapping", GG_F32, 0, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten gemma4_scaled_tensors[] = {
	{ "blk.0.attn_v.weight", 2, { 96, 20, 1, 1 } },
	{ "blk.1.attn_v.weight", 2, { 96, 32, 1, 1 } },
	{ "blk.0.layer_output_scale.weight", 1, { 1, 1, 1, 1 } },
	{ "blk.1.layer_output_scale.weight", 1, { 1, 1, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};
static const struct dkey gemma4_moe_keys[] = {
	/* experts (2 of 4 used) beside the feed-forward */
	{ "expert_count", GG_U32, 4, NULL, 0 },
	{ "expert_used_count", GG_U32, 2, NULL, 0 },
	{ "expert_feed_forward_length", GG_U32, 32, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten gemma4_moe_tensors[] = {
	{ "blk.0.ffn_gate_inp.weight", 2, { 96, 4, 1, 1 } },
	{ "blk.0.ffn_gate_inp.scale", 1, { 96, 1, 1, 1 } },
	{ "blk.0.pre_ffw_norm_2.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.0.post_ffw_norm_1.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.0.post_ffw_norm_2.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.0.ffn_gate_exps.weight", 3, { 96, 32, 4, 1 } },
	{ "blk.0.ffn_up_exps.weight", 3, { 96, 32, 4, 1 } },
	{ "blk.0.ffn_down_exps.weight", 3, { 32, 96, 4, 1 } },
	{ "blk.1.ffn_gate_inp.weight", 2, { 96, 4, 1, 1 } },
	{ "blk.1.ffn_gate_inp.scale", 1, { 96, 1, 1, 1 } },
	{ "blk.1.pre_ffw_norm_2.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.1.post_ffw_norm_1.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.1.post_ffw_norm_2.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.1.ffn_gate_exps.weight", 3, { 96, 32, 4, 1 } },
	{ "blk.1.ffn_up_exps.weight", 3, { 96, 32, 4, 1 } },
	{ "blk.1.ffn_down_exps.weight", 3, { 32, 96, 4, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};
static const struct dten gemma3n_shared_tensors[] = {
	/* per-layer inputs: 256 a block */
	{ "per_layer_token_embd.weight", 2, { 256 * 22, 264, 1, 1 } },
	{ "per_layer_model_proj.weight", 2, { 96, 256 * 22, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

/* Short-conv layers where head_count_kv is 0, attention on block 2. */
static const uint32_t lfm2_a0[] = { 0, 0, 1, 0 };
static const struct dkey lfm2_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 96, NULL, 0 },
	{ "block_count", GG_U32, 4, NULL, 0 },
	{ "feed_forward_length", GG_U32, 160, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 0, lfm2_a0, 4 },
	{ "attention.layer_norm_rms_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ "shortconv.l_cache", GG_U32, 3, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten lfm2_tensors[] = {
	{ "token_embd.weight", 2, { 96, 264, 1, 1 } },
	{ "token_embd_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.ffn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.ffn_gate.weight", 2, { 96, 160, 1, 1 } },
	{ "blk.%d.ffn_down.weight", 2, { 160, 96, 1, 1 } },
	{ "blk.%d.ffn_up.weight", 2, { 96, 160, 1, 1 } },
	{ "blk.0.shortconv.conv.weight", 2, { 3, 96, 1, 1 } },
	{ "blk.0.shortconv.in_proj.weight", 2, { 96, 288, 1, 1 } },
	{ "blk.0.shortconv.out_proj.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.1.shortconv.conv.weight", 2, { 3, 96, 1, 1 } },
	{ "blk.1.shortconv.in_proj.weight", 2, { 96, 288, 1, 1 } },
	{ "blk.1.shortconv.out_proj.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.2.attn_q_norm.weight", 1, { 24, 1, 1, 1 } },
	{ "blk.2.attn_k_norm.weight", 1, { 24, 1, 1, 1 } },
	{ "blk.2.attn_q.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.2.attn_k.weight", 2, { 96, 24, 1, 1 } },
	{ "blk.2.attn_v.weight", 2, { 96, 24, 1, 1 } },
	{ "blk.2.attn_output.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.3.shortconv.conv.weight", 2, { 3, 96, 1, 1 } },
	{ "blk.3.shortconv.in_proj.weight", 2, { 96, 288, 1, 1 } },
	{ "blk.3.shortconv.out_proj.weight", 2, { 96, 96, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

/*
 * Gated delta-net layers (4 value heads of 16, 2 key heads), attention
 * on every 4th (block 3); mixtures of 4 experts and a shared one.
 */
static const struct dkey qwen3next_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 96, NULL, 0 },
	{ "block_count", GG_U32, 4, NULL, 0 },
	{ "feed_forward_length", GG_U32, 160, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 1, NULL, 0 },
	{ "attention.key_length", GG_U32, 32, NULL, 0 },
	{ "attention.value_length", GG_U32, 32, NULL, 0 },
	{ "attention.layer_norm_rms_epsilon", GG_F32, 1e-06, NULL, 0 },
	{ "expert_count", GG_U32, 4, NULL, 0 },
	{ "expert_used_count", GG_U32, 2, NULL, 0 },
	{ "expert_feed_forward_length", GG_U32, 32, NULL, 0 },
	{ "expert_shared_feed_forward_length", GG_U32, 32, NULL, 0 },
	{ "ssm.conv_kernel", GG_U32, 4, NULL, 0 },
	{ "ssm.inner_size", GG_U32, 64, NULL, 0 },
	{ "ssm.state_size", GG_U32, 16, NULL, 0 },
	{ "ssm.time_step_rank", GG_U32, 4, NULL, 0 },
	{ "ssm.group_count", GG_U32, 2, NULL, 0 },
	{ "rope.dimension_count", GG_U32, 32, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten qwen3next_tensors[] = {
	{ "token_embd.weight", 2, { 96, 264, 1, 1 } },
	{ "output_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.post_attention_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.ffn_gate_inp.weight", 2, { 96, 4, 1, 1 } },
	{ "blk.%d.ffn_gate_exps.weight", 3, { 96, 32, 4, 1 } },
	{ "blk.%d.ffn_down_exps.weight", 3, { 32, 96, 4, 1 } },
	{ "blk.%d.ffn_up_exps.weight", 3, { 96, 32, 4, 1 } },
	{ "blk.%d.ffn_gate_inp_shexp.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.ffn_gate_shexp.weight", 2, { 96, 32, 1, 1 } },
	{ "blk.%d.ffn_up_shexp.weight", 2, { 96, 32, 1, 1 } },
	{ "blk.%d.ffn_down_shexp.weight", 2, { 32, 96, 1, 1 } },
	{ "blk.0.ssm_in.weight", 2, { 96, 192, 1, 1 } },
	{ "blk.0.ssm_conv1d.weight", 2, { 4, 128, 1, 1 } },
	{ "blk.0.ssm_dt.bias", 1, { 4, 1, 1, 1 } },
	{ "blk.0.ssm_a", 1, { 4, 1, 1, 1 } },
	{ "blk.0.ssm_ba.weight", 2, { 96, 8, 1, 1 } },
	{ "blk.0.ssm_norm.weight", 1, { 16, 1, 1, 1 } },
	{ "blk.0.ssm_out.weight", 2, { 64, 96, 1, 1 } },
	{ "blk.1.ssm_in.weight", 2, { 96, 192, 1, 1 } },
	{ "blk.1.ssm_conv1d.weight", 2, { 4, 128, 1, 1 } },
	{ "blk.1.ssm_dt.bias", 1, { 4, 1, 1, 1 } },
	{ "blk.1.ssm_a", 1, { 4, 1, 1, 1 } },
	{ "blk.1.ssm_ba.weight", 2, { 96, 8, 1, 1 } },
	{ "blk.1.ssm_norm.weight", 1, { 16, 1, 1, 1 } },
	{ "blk.1.ssm_out.weight", 2, { 64, 96, 1, 1 } },
	{ "blk.2.ssm_in.weight", 2, { 96, 192, 1, 1 } },
	{ "blk.2.ssm_conv1d.weight", 2, { 4, 128, 1, 1 } },
	{ "blk.2.ssm_dt.bias", 1, { 4, 1, 1, 1 } },
	{ "blk.2.ssm_a", 1, { 4, 1, 1, 1 } },
	{ "blk.2.ssm_ba.weight", 2, { 96, 8, 1, 1 } },
	{ "blk.2.ssm_norm.weight", 1, { 16, 1, 1, 1 } },
	{ "blk.2.ssm_out.weight", 2, { 64, 96, 1, 1 } },
	{ "blk.3.attn_q.weight", 2, { 96, 256, 1, 1 } },
	{ "blk.3.attn_k.weight", 2, { 96, 32, 1, 1 } },
	{ "blk.3.attn_v.weight", 2, { 96, 32, 1, 1 } },
	{ "blk.3.attn_output.weight", 2, { 128, 96, 1, 1 } },
	{ "blk.3.attn_q_norm.weight", 1, { 32, 1, 1, 1 } },
	{ "blk.3.attn_k_norm.weight", 1, { 32, 1, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

static const struct {
	const char		*file;
	const char		*arch;
	const struct dkey	*keys;	/* in place of the table's */
	const struct dten	*tens;	/* likewise */
	const struct dkey	*base;
	const struct dten	*tensors;
} fmodels[] = {
	{ "llama4-chunked", "llama4", llama4_chunked_keys, NULL, llama4_keys,
	    llama4_tensors },
	{ "gemma3n-shared", "gemma3n", gemma3n_shared_keys,
	    gemma3n_shared_tensors, gemma3n_keys, gemma3n_tensors },
	{ "gemma4-shared", "gemma4", gemma4_shared_keys, gemma4_shared_tensors,
	    gemma4_keys, gemma4_tensors },
	{ "gemma4-scaled", "gemma4", gemma4_scaled_keys, gemma4_scaled_tensors,
	    gemma4_keys, gemma4_tensors },
	{ "gemma4-moe", "gemma4", gemma4_moe_keys, gemma4_moe_tensors,
	    gemma4_keys, gemma4_tensors },
	{ NULL, NULL, NULL, NULL, NULL, NULL }
};

/*
 * Models of the tables above changed, for the model check too (written
 * with --check): a NextN (multi-token prediction) block added to glm4
 * and exaone4, as their converters write it (exaone4's without the two
 * tensors it does not load), qwen3moe as qwen3vlmoe (the text model
 * of Qwen3-VL-MoE, with M-RoPE sections); lfm2 and qwen3next as the
 * tables above give them; and qwen35 with a multi-token prediction
 * block (memmodels_data3.h).
 */
static const struct dkey nextn_keys[] = {
	{ "block_count", GG_U32, 3, NULL, 0 },
	{ "nextn_predict_layers", GG_U32, 1, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten glm4_nextn_tensors[] = {
	{ "blk.2.nextn.eh_proj.weight", 2, { 128, 64, 1, 1 } },
	{ "blk.2.nextn.enorm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.2.nextn.hnorm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.2.nextn.embed_tokens.weight", 2, { 64, N_VOCAB, 1, 1 } },
	{ "blk.2.nextn.shared_head_head.weight", 2, { 64, N_VOCAB, 1, 1 } },
	{ "blk.2.nextn.shared_head_norm.weight", 1, { 64, 1, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};
static const struct dten exaone4_nextn_tensors[] = {
	{ "blk.2.nextn.eh_proj.weight", 2, { 192, 96, 1, 1 } },
	{ "blk.2.nextn.enorm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.2.nextn.hnorm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.2.nextn.shared_head_norm.weight", 1, { 96, 1, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};
/* as the converter writes them: int32 */
static const uint32_t mrope_sections[4] = { 8, 4, 4, 0 };
static const struct dkey vl_keys[] = {
	{ "rope.dimension_sections", GG_I32, 0, mrope_sections, 4 },
	{ NULL, 0, 0, NULL, 0 }
};

static const struct {
	const char		*file;
	const char		*arch;
	const struct dkey	*keys;
	const struct dten	*tens;
	const struct dkey	*base;
	const struct dten	*tensors;
} cmodels[] = {
	{ "glm4-nextn", "glm4", nextn_keys, glm4_nextn_tensors, glm4_keys,
	    glm4_tensors },
	{ "exaone4-nextn", "exaone4", nextn_keys, exaone4_nextn_tensors,
	    exaone4_keys, exaone4_tensors },
	{ "qwen3vlmoe", "qwen3vlmoe", vl_keys, NULL, qwen3moe_keys,
	    qwen3moe_tensors },
	{ "lfm2", "lfm2", NULL, NULL, lfm2_keys, lfm2_tensors },
	{ "qwen3next", "qwen3next", NULL, NULL, qwen3next_keys,
	    qwen3next_tensors },
	{ "qwen35-nextn", "qwen35", qwen35_nextn_keys, qwen35_nextn_tensors,
	    qwen35_keys, qwen35_tensors },
	{ NULL, NULL, NULL, NULL, NULL, NULL }
};

static const struct dkey *
key_named(const struct dkey *keys, const char *name)
{
	for (; keys != NULL && keys->name != NULL; keys++)
		if (strcmp(keys->name, name) == 0)
			return keys;
	return NULL;
}

static void
data_key(struct model *m, const char *arch, const struct dkey *k)
{
	char	name[128];
	size_t	i;

	if (k->name[0] == '=')
		snprintf(name, sizeof name, "%s", k->name + 1);
	else
		snprintf(name, sizeof name, "%s.%s", arch, k->name);
	if (k->a != NULL) {
		gg_kv_arr(&m->kv, name, (uint32_t)k->type, k->an);
		for (i = 0; i < k->an; i++) {
			if (k->type == GG_BOOL)
				gg_u8(&m->kv, (uint8_t)k->a[i]);
			else
				gg_u32(&m->kv, k->a[i]);
		}
	} else if (k->type == GG_F32)
		gg_kv_f32(&m->kv, name, (float)k->v);
	else if (k->type == GG_BOOL)
		gg_kv_bool(&m->kv, name, (uint8_t)k->v);
	else
		gg_kv_u32(&m->kv, name, (uint32_t)k->v);
	m->n_kv++;
}

static const struct dten *
tensor_named(const struct dten *tens, const char *name)
{
	for (; tens != NULL && tens->name != NULL; tens++)
		if (strcmp(tens->name, name) == 0)
			return tens;
	return NULL;
}

/* FILE.gguf of ARCH: keys and tensors (those of over and tover in their
   place). */
static int
data_write(const char *dir, const char *file, const char *arch,
    const struct dkey *keys, const struct dkey *over,
    const struct dten *tensors, const struct dten *tover)
{
	struct model		 m;
	const struct dkey	*k, *o;
	const struct dten	*t, *u;
	char			 name[128], path[128];
	int			 l, n_layer = 0;

	/*
	 * Not the architecture's name: llama.cpp reads a phi3 vocabulary
	 * differently when the model's name has "phi3" in it.
	 */
	m_init_named(&m, arch, "tiny model");
	for (k = keys; k->name != NULL; k++) {
		if ((o = key_named(over, k->name)) != NULL)
			k = o;
		if (strcmp(k->name, "block_count") == 0)
			n_layer = (int)k->v;
		data_key(&m, arch, k);
		if (o != NULL)
			k = key_named(keys, o->name);
	}
	for (o = over; o != NULL && o->name != NULL; o++)
		if (key_named(keys, o->name) == NULL)
			data_key(&m, arch, o);
	vocab(&m);
	for (u = tensors; u->name != NULL; u++) {
		if ((t = tensor_named(tover, u->name)) == NULL)
			t = u;
		if (strncmp(t->name, "blk.%d.", 7) != 0) {
			t4(&m, t->name, t->dims, t->ne[0], t->ne[1], t->ne[2],
			    t->ne[3]);
			continue;
		}
		for (l = 0; l < n_layer; l++) {
			snprintf(name, sizeof name, "blk.%d.%s", l,
			    t->name + 7);
			t4(&m, name, t->dims, t->ne[0], t->ne[1], t->ne[2],
			    t->ne[3]);
		}
	}
	for (u = tover; u != NULL && u->name != NULL; u++)
		if (tensor_named(tensors, u->name) == NULL)
			t4(&m, u->name, u->dims, u->ne[0], u->ne[1], u->ne[2],
			    u->ne[3]);
	snprintf(path, sizeof path, "%s.gguf", file);
	return m_write(&m, dir, path);
}

static int
data_model(const char *dir, const struct dmodel *d)
{
	return data_write(dir, d->arch, d->arch, d->keys, NULL, d->tensors,
	    NULL);
}

/* gen_memmodels --deltanet: one model of a gated delta-net hybrid. */
static int
deltanet(int argc, char **argv)
{
	struct model	 m;
	const char	*arch = argv[0], *file = argv[1], *slash;
	uint64_t	 v[15], inner, ch;
	char		 dir[4096];
	int		 l, i, moe, qkv = 0;

	if (strcmp(arch, "qwen3next-qkv") == 0) {	/* attn_qkv, attn_gate */
		arch = "qwen3next";
		qkv = 1;
	} else if (strncmp(arch, "qwen35", 6) == 0 &&
	    strcmp(arch + strlen(arch) - 4, "-qkv") == 0) {
		arch = strcmp(arch, "qwen35-qkv") == 0 ? "qwen35" :
		    "qwen35moe";
		qkv = 1;	/* the attention's Q, K and V in one */
	}
	if (argc != 17 || (strcmp(arch, "qwen3next") != 0 &&
	    strcmp(arch, "qwen35") != 0 && strcmp(arch, "qwen35moe") != 0)) {
		fprintf(stderr, "usage: gen_memmodels --deltanet ARCH FILE "
		    "BLOCKS EMBD HEADS HEADS_KV HEAD INTERVAL CONV STATE GROUPS "
		    "V_HEADS FF EXPERTS USED EXP_FF SHARED_FF\n");
		return 2;
	}
	for (i = 0; i < 15; i++)
		v[i] = strtoull(argv[2 + i], NULL, 10);
#define B_ v[0]
#define E_ v[1]
	moe = strcmp(arch, "qwen35") != 0;
	inner = v[9] * v[7];
	ch = 2 * v[8] * v[7] + inner;
	m_init_named(&m, arch, "tiny model");
	m_dims(&m, 2048, E_, B_, v[10]);
	m_heads(&m, v[2], v[3]);
	kv_u32(&m, "attention.key_length", (uint32_t)v[4]);
	kv_u32(&m, "attention.value_length", (uint32_t)v[4]);
	kv_f32(&m, "attention.layer_norm_rms_epsilon", 1e-6f);
	kv_u32(&m, "rope.dimension_count", (uint32_t)v[4]);
	if (strcmp(arch, "qwen3next") != 0) {
		gg_kv_arr(&m.kv, ak(&m, "rope.dimension_sections"), GG_I32, 4);
		gg_u32(&m.kv, (uint32_t)(v[4] / 4));
		gg_u32(&m.kv, (uint32_t)(v[4] / 8));
		gg_u32(&m.kv, (uint32_t)(v[4] / 8));
		gg_u32(&m.kv, 0);
		m.n_kv++;
	}
	m_ssm(&m, v[6], inner, v[7], v[9]);
	kv_u32(&m, "ssm.group_count", (uint32_t)v[8]);
	kv_u32(&m, "full_attention_interval", (uint32_t)v[5]);
	if (moe) {
		kv_u32(&m, "expert_count", (uint32_t)v[11]);
		kv_u32(&m, "expert_used_count", (uint32_t)v[12]);
		kv_u32(&m, "expert_feed_forward_length", (uint32_t)v[13]);
		kv_u32(&m, "expert_shared_feed_forward_length",
		    (uint32_t)v[14]);
	}
	vocab(&m);
	t2(&m, "token_embd.weight", E_, N_VOCAB);
	t1(&m, "output_norm.weight", E_);
	for (l = 0; l < (int)B_; l++) {
		t1(&m, bn(l, "attn_norm"), E_);
		t1(&m, bn(l, "post_attention_norm"), E_);
		if ((l + 1) % (int)v[5] == 0 && qkv &&
		    strcmp(arch, "qwen3next") != 0) {
			t2(&m, bn(l, "attn_qkv"), E_,
			    2 * v[4] * v[2] + 2 * v[4] * v[3]);
			t2(&m, bn(l, "attn_output"), v[4] * v[2], E_);
			t1(&m, bn(l, "attn_q_norm"), v[4]);
			t1(&m, bn(l, "attn_k_norm"), v[4]);
		} else if ((l + 1) % (int)v[5] == 0) {	/* attention */
			t2(&m, bn(l, "attn_q"), E_, 2 * v[4] * v[2]);
			t2(&m, bn(l, "attn_k"), E_, v[4] * v[3]);
			t2(&m, bn(l, "attn_v"), E_, v[4] * v[3]);
			t2(&m, bn(l, "attn_output"), v[4] * v[2], E_);
			t1(&m, bn(l, "attn_q_norm"), v[4]);
			t1(&m, bn(l, "attn_k_norm"), v[4]);
		} else if (strcmp(arch, "qwen3next") != 0) {
			t2(&m, bn(l, "attn_qkv"), E_, ch);
			t2(&m, bn(l, "attn_gate"), E_, inner);
			t2(&m, bn(l, "ssm_conv1d"), v[6], ch);
			t1(&m, bb(l, "ssm_dt"), v[9]);
			t1(&m, bx(l, "ssm_a"), v[9]);
			t2(&m, bn(l, "ssm_beta"), E_, v[9]);
			t2(&m, bn(l, "ssm_alpha"), E_, v[9]);
			t1(&m, bn(l, "ssm_norm"), v[7]);
			t2(&m, bn(l, "ssm_out"), inner, E_);
		} else {
			if (qkv) {
				t2(&m, bn(l, "attn_qkv"), E_, ch);
				t2(&m, bn(l, "attn_gate"), E_, inner);
			} else
				t2(&m, bn(l, "ssm_in"), E_, ch + inner);
			t2(&m, bn(l, "ssm_conv1d"), v[6], ch);
			t1(&m, bb(l, "ssm_dt"), v[9]);
			t1(&m, bx(l, "ssm_a"), v[9]);
			t2(&m, bn(l, "ssm_ba"), E_, 2 * v[9]);
			t1(&m, bn(l, "ssm_norm"), v[7]);
			t2(&m, bn(l, "ssm_out"), inner, E_);
		}
		if (!moe) {
			t2(&m, bn(l, "ffn_gate"), E_, v[10]);
			t2(&m, bn(l, "ffn_down"), v[10], E_);
			t2(&m, bn(l, "ffn_up"), E_, v[10]);
			continue;
		}
		t2(&m, bn(l, "ffn_gate_inp"), E_, v[11]);
		t3(&m, bn(l, "ffn_gate_exps"), 3, E_, v[13], v[11]);
		t3(&m, bn(l, "ffn_down_exps"), 3, v[13], E_, v[11]);
		t3(&m, bn(l, "ffn_up_exps"), 3, E_, v[13], v[11]);
		t1(&m, bn(l, "ffn_gate_inp_shexp"), E_);
		t2(&m, bn(l, "ffn_gate_shexp"), E_, v[14]);
		t2(&m, bn(l, "ffn_up_shexp"), E_, v[14]);
		t2(&m, bn(l, "ffn_down_shexp"), v[14], E_);
	}
#undef B_
#undef E_
	if ((slash = strrchr(file, '/')) == NULL)
		snprintf(dir, sizeof dir, ".");
	else {
		snprintf(dir, sizeof dir, "%.*s", (int)(slash - file), file);
		file = slash + 1;
	}
	return m_write(&m, dir, file) != 0;
}

int
main(int argc, char **argv)
{
	size_t	i;
	int	rc = 0;

	if (argc > 1 && strcmp(argv[1], "--deltanet") == 0)
		return deltanet(argc - 2, argv + 2);
	if (argc == 3 && strcmp(argv[1], "--check") == 0) {
		variants = 1;
		argv++;
	} else if (argc != 2) {
		fprintf(stderr, "usage: gen_memmodels [--check] DIR\n");
		return 2;
	}
	rc |= llama_gqa(argv[1]);
	rc |= gemma2(argv[1]);
	rc |= gemma3(argv[1], 0);
	rc |= gemma3(argv[1], 1);
	rc |= openelm(argv[1]);
	rc |= mamba(argv[1]);
	rc |= deepseek2(argv[1], 0, 0);
	rc |= deepseek2(argv[1], 1, 0);
	rc |= deepseek2(argv[1], 0, 1);
	rc |= qwen(argv[1], 0, 0);
	rc |= qwen(argv[1], 1, 0);
	rc |= qwen(argv[1], 0, 1);
	rc |= qwen(argv[1], 1, 1);
	rc |= granitehybrid(argv[1]);
	rc |= mamba2(argv[1]);
	rc |= cohere2(argv[1]);
	rc |= gptoss(argv[1]);
	rc |= glm4moe(argv[1]);
	for (i = 0; dmodels[i].arch != NULL; i++)
		rc |= data_model(argv[1], &dmodels[i]);
	for (i = 0; dmodels3[i].arch != NULL; i++)
		rc |= data_model(argv[1], &dmodels3[i]);
	for (i = 0; cmodels[i].file != NULL; i++)
		rc |= data_write(argv[1], cmodels[i].file, cmodels[i].arch,
		    cmodels[i].base, cmodels[i].keys, cmodels[i].tensors,
		    cmodels[i].tens);
	rc |= jamba(argv[1]);
	rc |= nemotron_h(argv[1]);
	for (i = 0; !variants && fmodels[i].file != NULL; i++)
		rc |= data_write(argv[1], fmodels[i].file, fmodels[i].arch,
		    fmodels[i].base, fmodels[i].keys, fmodels[i].tensors,
		    fmodels[i].tens);
	return rc != 0;
}
