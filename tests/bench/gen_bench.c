/*
 * gen_bench.c - writes model-like GGUF files for the benchmarks.
 *
 *	gen_bench FILE		metadata of a large model (150,000-token
 *				vocabulary and merges, a 5 KB chat template,
 *				llama hyper-parameters), 2,000 tensor infos,
 *				and a sparse data section: over 8 GB on
 *				paper, nothing on disk
 *	gen_bench --small FILE	the same metadata, fewer and smaller
 *				tensors, every data byte written (about
 *				20 MB)
 *	gen_bench --wide FILE	the same metadata, 10,001 small tensor
 *				infos, sparse data (about 300 MB on
 *				paper): what the split-model benchmark
 *				splits into 20 shards
 *
 * The output is deterministic and canonical (ggml's layout: offsets are
 * the padded running sum, the data is followed by its padding), so a
 * no-op rewrite of it must give the same bytes.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../tools/ggufgen.h"

#define ALIGN		32
#define N_VOCAB		150000
#define TEMPLATE_MIN	5120

struct model {
	uint32_t	n_layer;
	uint32_t	n_embd;
	uint32_t	n_ff;
	uint32_t	n_head;
	uint32_t	n_head_kv;
	uint32_t	n_rows_embd;	/* rows of token_embd */
};

/* Big: 222 layers x 9 + 2 = 2,000 tensors, about 10 GB of data. */
static const struct model	big = { 222, 2560, 6912, 20, 4, N_VOCAB };
/* Small: about 15 MB of tensors next to about 7 MB of metadata. */
static const struct model	small = { 6, 512, 1536, 8, 2, 4096 };
/* Wide: 1,111 layers x 9 + 2 = 10,001 tensors of a small model. */
static const struct model	wide = { 1111, 256, 256, 8, 2, N_VOCAB };

static const struct {
	uint32_t	id;
	uint32_t	blck;
	uint32_t	bytes;
} ttypes[] = {
	{ GG_T_F32, 1, 4 }, { GG_T_F16, 1, 2 },
	{ GG_T_Q4_K, 256, 144 }, { GG_T_Q6_K, 256, 210 },
};

struct tensor {
	char		name[64];
	uint64_t	ne[2];
	uint32_t	n_dims;
	uint32_t	type;
	uint64_t	offset;
	uint64_t	nbytes;
};

static uint64_t	rng = 0x9e3779b97f4a7c15ULL;

static uint64_t
next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static uint64_t
nbytes(uint32_t type, const uint64_t ne[2])
{
	size_t	i;

	for (i = 0; i < sizeof ttypes / sizeof ttypes[0]; i++) {
		if (ttypes[i].id == type)
			return ne[0] / ttypes[i].blck * ttypes[i].bytes * ne[1];
	}
	abort();
}

static void
add(struct tensor *t, size_t *n, const char *name, uint64_t ne0,
    uint64_t ne1, uint32_t type)
{
	struct tensor	*x = &t[(*n)++];

	snprintf(x->name, sizeof x->name, "%s", name);
	x->ne[0] = ne0;
	x->ne[1] = ne1;
	x->n_dims = ne1 == 1 ? 1 : 2;
	x->type = type;
	x->nbytes = nbytes(type, x->ne);
}

/* The llama tensor list; returns the count. */
static size_t
tensors(const struct model *md, struct tensor *t)
{
	uint32_t	 l, kv = md->n_embd / md->n_head * md->n_head_kv;
	size_t		 n = 0, i;
	uint64_t	 off = 0;
	char		 name[64];

	add(t, &n, "token_embd.weight", md->n_embd, md->n_rows_embd,
	    GG_T_F16);
	for (l = 0; l < md->n_layer; l++) {
#define L(what, ne0, ne1, type) do {					\
	snprintf(name, sizeof name, "blk.%u.%s.weight", l, what);	\
	add(t, &n, name, ne0, ne1, type);				\
} while (0)
		L("attn_norm", md->n_embd, 1, GG_T_F32);
		L("attn_q", md->n_embd, md->n_embd, GG_T_Q4_K);
		L("attn_k", md->n_embd, kv, GG_T_Q4_K);
		L("attn_v", md->n_embd, kv, GG_T_Q6_K);
		L("attn_output", md->n_embd, md->n_embd, GG_T_Q4_K);
		L("ffn_norm", md->n_embd, 1, GG_T_F32);
		L("ffn_gate", md->n_embd, md->n_ff, GG_T_Q4_K);
		L("ffn_up", md->n_embd, md->n_ff, GG_T_Q4_K);
		L("ffn_down", md->n_ff, md->n_embd, GG_T_Q6_K);
#undef L
	}
	add(t, &n, "output_norm.weight", md->n_embd, 1, GG_T_F32);
	for (i = 0; i < n; i++) {
		t[i].offset = off;
		off += (t[i].nbytes + ALIGN - 1) / ALIGN * ALIGN;
	}
	return n;
}

/* A distinct, word-like token for each id. */
static size_t
token(uint32_t id, char *buf)
{
	static const char	cons[] = "bcdfghklmnprstvwz", vow[] = "aeiou";
	size_t			n = 0;
	uint32_t		x = id;

	if (id < 256)
		return (size_t)sprintf(buf, "<0x%02X>", id);
	if (id % 3 != 0) {		/* GPT-2's space marker */
		buf[n++] = (char)0xc4;
		buf[n++] = (char)0xa0;
	}
	do {
		buf[n++] = cons[x % 17];
		x /= 17;
		buf[n++] = vow[x % 5];
		x /= 5;
	} while (x != 0);
	return n;
}

static void
metadata(struct gg *g, const struct model *md)
{
	char		 a[32], b[32], *tmpl;
	size_t		 na, nb, len = 0;
	uint32_t	 i;
	static const char	block[] =
	    "{%- for message in messages %}\n"
	    "  {%- if message['role'] == 'system' %}\n"
	    "    {{- '<|start_header_id|>system<|end_header_id|>\\n\\n' + "
	    "message['content'] | trim + '<|eot_id|>' }}\n"
	    "  {%- elif message['role'] == 'tool' %}\n"
	    "    {{- '<|start_header_id|>ipython<|end_header_id|>\\n\\n' }}\n"
	    "    {{- message['content'] | tojson + '<|eot_id|>' }}\n"
	    "  {%- else %}\n"
	    "    {{- '<|start_header_id|>' + message['role'] + "
	    "'<|end_header_id|>\\n\\n' + message['content'] | trim + "
	    "'<|eot_id|>' }}\n"
	    "  {%- endif %}\n"
	    "{%- endfor %}\n";

	gg_kv_str(g, "general.architecture", "llama");
	gg_kv_str(g, "general.name", "Bench Model");
	gg_kv_u32(g, "general.file_type", 15);
	gg_kv_u32(g, "general.quantization_version", 2);
	gg_kv_u32(g, "llama.context_length", 131072);
	gg_kv_u32(g, "llama.embedding_length", md->n_embd);
	gg_kv_u32(g, "llama.block_count", md->n_layer);
	gg_kv_u32(g, "llama.feed_forward_length", md->n_ff);
	gg_kv_u32(g, "llama.rope.dimension_count", md->n_embd / md->n_head);
	gg_kv_u32(g, "llama.attention.head_count", md->n_head);
	gg_kv_u32(g, "llama.attention.head_count_kv", md->n_head_kv);
	gg_kv_f32(g, "llama.attention.layer_norm_rms_epsilon", 1e-5f);
	gg_kv_f32(g, "llama.rope.freq_base", 500000.0f);
	gg_kv_u32(g, "llama.vocab_size", N_VOCAB);

	gg_kv_str(g, "tokenizer.ggml.model", "gpt2");
	gg_kv_str(g, "tokenizer.ggml.pre", "llama-bpe");
	gg_kv_arr(g, "tokenizer.ggml.tokens", GG_STR, N_VOCAB);
	for (i = 0; i < N_VOCAB; i++) {
		na = token(i, a);
		gg_strn(g, a, na);
	}
	gg_kv_arr(g, "tokenizer.ggml.scores", GG_F32, N_VOCAB);
	for (i = 0; i < N_VOCAB; i++)
		gg_f32(g, -(float)i);
	gg_kv_arr(g, "tokenizer.ggml.token_type", GG_I32, N_VOCAB);
	for (i = 0; i < N_VOCAB; i++)
		gg_u32(g, i < 256 ? 6 : i >= N_VOCAB - 256 ? 3 : 1);
	gg_kv_arr(g, "tokenizer.ggml.merges", GG_STR, N_VOCAB);
	for (i = 0; i < N_VOCAB; i++) {
		na = token(256 + i % (N_VOCAB - 256), a);
		nb = token(256 + (i * 7919u) % (N_VOCAB - 256), b);
		a[na++] = ' ';
		memcpy(a + na, b, nb);
		gg_strn(g, a, na + nb);
	}
	gg_kv_u32(g, "tokenizer.ggml.bos_token_id", N_VOCAB - 256);
	gg_kv_u32(g, "tokenizer.ggml.eos_token_id", N_VOCAB - 255);
	gg_kv_bool(g, "tokenizer.ggml.add_bos_token", 1);

	tmpl = malloc(TEMPLATE_MIN + sizeof block);
	if (tmpl == NULL)
		abort();
	while (len < TEMPLATE_MIN) {
		memcpy(tmpl + len, block, sizeof block - 1);
		len += sizeof block - 1;
	}
	gg_key(g, "tokenizer.chat_template", GG_STR);
	gg_strn(g, tmpl, len);
	free(tmpl);
}

/* Plausible bytes for a tensor: small floats, sane block scales. */
static void
fill(struct gg *g, const struct tensor *t)
{
	uint64_t	i, n;
	size_t		at = gg_pos(g);

	switch (t->type) {
	case GG_T_F32:
		for (i = 0; i < t->nbytes / 4; i++)
			gg_f32(g, (float)((int)(next() % 2001) - 1000) / 1000.0f);
		break;
	case GG_T_F16:		/* |x| < 1: exponent below 15 */
		for (i = 0; i < t->nbytes / 2; i++)
			gg_u16(g, (uint16_t)(next() % 0x3c00 |
			    (next() & 1) << 15));
		break;
	default:
		n = t->nbytes;
		for (i = 0; i < n; i++)
			gg_u8(g, (uint8_t)next());
		/* The f16 scales: 0x2000 is about 0.0078. */
		for (i = 0; i < n; i += t->type == GG_T_Q4_K ? 144 : 210) {
			if (t->type == GG_T_Q4_K) {
				gg_set8(g, at + i, 0x00);
				gg_set8(g, at + i + 1, 0x20);
				gg_set8(g, at + i + 2, 0x00);
				gg_set8(g, at + i + 3, 0x1c);
			} else {
				gg_set8(g, at + i + 208, 0x00);
				gg_set8(g, at + i + 209, 0x20);
			}
		}
	}
}

int
main(int argc, char **argv)
{
	const struct model	*md = &big;
	struct tensor		*t;
	struct gg		 g;
	const char		*path;
	size_t			 n, i;
	uint64_t		 data_off, total;
	int			 fd, real = 0;

	if (argc == 3 && strcmp(argv[1], "--small") == 0) {
		md = &small;
		real = 1;
		path = argv[2];
	} else if (argc == 3 && strcmp(argv[1], "--wide") == 0) {
		md = &wide;
		path = argv[2];
	} else if (argc == 2 && argv[1][0] != '-')
		path = argv[1];
	else {
		fprintf(stderr, "usage: gen_bench [--small | --wide] FILE\n"
		    "  FILE: 150,000-token vocabulary, 2,000 tensor infos, "
		    "sparse data (> 8 GB)\n"
		    "  --small: same metadata, about 20 MB of real data\n"
		    "  --wide: same metadata, 10,001 small tensors, sparse\n");
		return 2;
	}

	t = calloc(2 + (size_t)md->n_layer * 9, sizeof *t);
	if (t == NULL)
		abort();
	n = tensors(md, t);

	gg_init(&g, 3, 0);
	gg_header(&g, n, 24);
	metadata(&g, md);
	for (i = 0; i < n; i++)
		gg_tensor(&g, t[i].name, t[i].n_dims, t[i].ne, t[i].type,
		    t[i].offset);
	gg_pad(&g, ALIGN);
	data_off = gg_pos(&g);
	total = data_off + t[n - 1].offset +
	    (t[n - 1].nbytes + ALIGN - 1) / ALIGN * ALIGN;

	if (real) {
		for (i = 0; i < n; i++) {
			fill(&g, &t[i]);
			gg_pad(&g, ALIGN);
		}
	}
	if (gg_write(&g, path) != 0) {
		fprintf(stderr, "gen_bench: %s: %s\n", path, strerror(errno));
		return 1;
	}
	if (!real) {
		/* A hole: the data costs no disk. */
		if ((fd = open(path, O_WRONLY | O_CLOEXEC)) < 0 ||
		    ftruncate(fd, (off_t)total) != 0 || close(fd) != 0) {
			fprintf(stderr, "gen_bench: %s: %s\n", path,
			    strerror(errno));
			return 1;
		}
	}
	printf("%s: %zu tensors, %llu bytes of metadata, %llu bytes\n", path,
	    n, (unsigned long long)data_off, (unsigned long long)total);
	gg_free(&g);
	free(t);
	return 0;
}
