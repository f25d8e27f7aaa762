/*
 * mem.c - the memory llama.cpp allocates for a model: weights, KV cache,
 * recurrent state (see mem.h).
 *
 * How llama.cpp sizes its caches (checked against the library itself by
 * tests/interop/mem.sh, which reads the byte size of every cache tensor
 * llama.cpp allocates):
 *
 * - The context asked for (0: the training context) is rounded up to a
 *   multiple of 256. Without a unified cache each of the n_seq sequences
 *   has a stream of its own, of n_ctx / n_seq cells rounded up to 256
 *   again; with one, a single stream holds n_ctx cells.
 * - An attention layer stores, per cell and stream, a K row of
 *   n_embd_head_k * n_head_kv(layer) elements and a V row of
 *   n_embd_head_v * n_head_kv(layer), in the cache types (F16 by default).
 *   head_count_kv may be one number or one per layer. Without flash
 *   attention (V stored transposed) every V row is as wide as the widest
 *   of the model's layers (openelm's, gemma4's).
 * - A sliding-window layer holds min(cells, pad256(n_swa * (unified ?
 *   n_seq : 1) + n_ubatch)) cells, or the full count with --swa-full.
 *   Which layers slide: the architecture's period (gemma2: every other
 *   layer from the first, as gpt-oss; gemma3: five of every six; cohere2:
 *   three of every four), or the file's
 *   {arch}.attention.sliding_window_pattern (a period, or a flag per layer).
 *   A file's key_length_swa and value_length_swa are the head sizes of
 *   the sliding layers (gemma4), else they are those of the others.
 * - Chunked attention (llama4): three layers of four hold chunks of 8192
 *   tokens, cached as a sliding window of 8192 whatever the file's
 *   attention.sliding_window says; a window of 0 turns chunks off.
 * - Shared-KV layers read the cache of an earlier layer and have none:
 *   gemma3n's from the 20th on, gemma4's last attention.shared_kv_layers
 *   (llama.cpp asserts that two layers at least keep their own). From
 *   layer F on, a sliding layer reads F - 2's cache, a full one F - 1's;
 *   llama.cpp gives up when that layer is of the other kind.
 * - Multi-head latent attention (deepseek2 with key_length_mla): K rows
 *   of kv_lora_rank + rope dimensions (key_length * head_count_kv), and
 *   no V cache at all (V is read out of K); K and V types must then be
 *   the same.
 * - A recurrent layer (mamba, mamba-2) keeps per sequence an R row of
 *   (d_conv - 1) * (d_inner + 2 * n_group * d_state) and an S row of
 *   d_state * d_inner, F32. A hybrid (granitehybrid) has such a layer
 *   where head_count_kv is 0, and a KV cache on the others.
 *   jamba is such a hybrid with Mamba (1) layers (no groups); nemotron-h
 *   one whose Mamba-2 layers are those without KV heads nor a
 *   feed-forward (a layer of a feed-forward only keeps nothing).
 * - qwen3next, qwen35 and qwen35moe: attention on every
 *   full_attention_interval-th layer (4 unless given), a gated delta-net
 *   state on the others, sized as Mamba-2's (the conv of ssm.inner_size
 *   value and 2 * group_count * state_size key channels; a state of
 *   state_size * inner_size). A file that flags its recurrent layers
 *   itself (attention.recurrent_layers) is not modelled.
 * - lfm2 (and lfm2moe): a short-conv layer where head_count_kv is 0
 *   keeps per sequence an R row of (shortconv.l_cache - 1) * n_embd,
 *   F32, and no S row; the others a KV cache.
 * - falcon-h1 has both on every layer: a KV cache and a Mamba-2 state.
 * - RWKV (6, 7) keeps per sequence a token-shift row of token_shift_count
 *   (2) * n_embd and a WKV row of n_embd * wkv.head_size, F32.
 * - The last nextn_predict_layers layers (NextN, multi-token prediction)
 *   get no cache; hybrids keep one for them, and are then not modelled.
 * - The output buffer beside the cache: the logits of one output a
 *   sequence, n_vocab * n_seq * 4 bytes.
 * - A quantized K (V) cache type needs n_embd_head_k (_v) to be a whole
 *   number of its blocks: llama.cpp refuses the context otherwise.
 *
 * Every size comes from the file: each product and sum is checked, and
 * one that does not fit in 64 bits is said to be too large, never wrapped.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "internal.h"
#include "mem.h"
#include "schema.h"
#include "xmalloc.h"

#define PAD256(x)	(((x) + 255) / 256 * 256)
#define MAX_SEQ		256		/* llama.cpp's LLAMA_MAX_SEQ */
#define MAX_LAYERS	512		/* llama.cpp's LLAMA_MAX_LAYERS */

enum family {
	FAM_ATTN,	/* attention on every layer */
	FAM_RECURRENT,	/* a recurrent state on every layer */
	FAM_HYBRID,	/* recurrent where head_count_kv is 0, else attention */
	FAM_CONV,	/* the same with a short-conv state (lfm2) */
	FAM_HYBRID_FF,	/* recurrent where head_count_kv and
			   feed_forward_length are 0, else attention */
	FAM_INTERVAL,	/* attention on every full_attention_interval-th
			   layer, a gated delta-net state elsewhere */
	FAM_PARALLEL,	/* attention and a Mamba-2 state on every layer */
	FAM_RWKV	/* an RWKV state (token shift, WKV) on every layer */
};

/* How the sliding-window layers are chosen and how wide they are. */
enum swa_kind {
	SWA_NONE,	/* no sliding window */
	SWA_WINDOW,	/* the file's window (else swa_default) */
	SWA_CHUNKED	/* llama4: chunks of swa_default whatever the file
			   says; a window of 0 turns them off */
};

struct arch_rule {
	const char	*name;
	enum family	 fam;
	enum swa_kind	 swa;
	uint32_t	 swa_period;	/* 0: every layer slides */
	uint64_t	 swa_default;	/* window if the file has none; 0: needed */
	int		 mla;
	/* Layers from this one on keep no cache of their own (they read
	   an earlier layer's): 0 none, SHARED_KEY the file's count of such
	   layers (attention.shared_kv_layers). */
	uint32_t	 kv_from;
	const char	*how;
};

#define SHARED_KEY	UINT32_MAX

/* The architectures checked against llama.cpp (tests/interop/mem.sh). */
static const struct arch_rule rules[] = {
	{ "llama", FAM_ATTN, SWA_NONE, 0, 0, 0, 0,
	    "KV cache on every layer (grouped-query heads)" },
	{ "openelm", FAM_ATTN, SWA_NONE, 0, 0, 0, 0,
	    "KV cache on every layer, head counts per layer" },
	{ "qwen2", FAM_ATTN, SWA_NONE, 0, 0, 0, 0,
	    "KV cache on every layer (grouped-query heads)" },
	{ "qwen3", FAM_ATTN, SWA_NONE, 0, 0, 0, 0,
	    "KV cache on every layer (grouped-query heads)" },
	{ "minimax-m2", FAM_ATTN, SWA_NONE, 0, 0, 0, 0,
	    "KV cache on every layer (grouped-query heads)" },
	{ "apertus", FAM_ATTN, SWA_NONE, 0, 0, 0, 0,
	    "KV cache on every layer (grouped-query heads)" },
	{ "bailingmoe2", FAM_ATTN, SWA_NONE, 0, 0, 0, 0,
	    "KV cache on every layer (grouped-query heads)" },
	{ "grovemoe", FAM_ATTN, SWA_NONE, 0, 0, 0, 0,
	    "KV cache on every layer (grouped-query heads)" },
	{ "gemma2", FAM_ATTN, SWA_WINDOW, 2, 4096, 0, 0,
	    "KV cache; sliding window on every other layer" },
	{ "gemma3", FAM_ATTN, SWA_WINDOW, 6, 0, 0, 0,
	    "KV cache; sliding window on 5 layers of 6" },
	{ "gemma3n", FAM_ATTN, SWA_WINDOW, 5, 0, 0, 20,
	    "KV cache; sliding window on 4 layers of 5; layers from the "
	    "20th reuse an earlier layer's cache" },
	{ "gemma4", FAM_ATTN, SWA_WINDOW, 0, 0, 0, SHARED_KEY,
	    "KV cache; sliding layers as the file flags them, with head "
	    "sizes of their own; the last shared_kv_layers reuse an "
	    "earlier layer's cache" },
	{ "llama4", FAM_ATTN, SWA_CHUNKED, 4, 8192, 0, 0,
	    "KV cache; chunked attention (chunks of 8,192) on 3 layers "
	    "of 4" },
	{ "gpt-oss", FAM_ATTN, SWA_WINDOW, 2, 0, 0, 0,
	    "KV cache; sliding window on every other layer" },
	{ "cohere2", FAM_ATTN, SWA_WINDOW, 4, 0, 0, 0,
	    "KV cache; sliding window on 3 layers of 4" },
	{ "deepseek2", FAM_ATTN, SWA_NONE, 0, 0, 1, 0,
	    "latent attention (MLA): compressed K cache, no V cache" },
	{ "mamba", FAM_RECURRENT, SWA_NONE, 0, 0, 0, 0,
	    "recurrent state (conv and SSM), no KV cache" },
	{ "mamba2", FAM_RECURRENT, SWA_NONE, 0, 0, 0, 0,
	    "recurrent state (conv and SSM), no KV cache" },
	{ "granitehybrid", FAM_HYBRID, SWA_NONE, 0, 0, 0, 0,
	    "Mamba-2 state on layers without KV heads, KV cache on the others" },
	{ "jamba", FAM_HYBRID, SWA_NONE, 0, 0, 0, 0,
	    "Mamba state on layers without KV heads, KV cache on the others" },
	{ "nemotron_h", FAM_HYBRID_FF, SWA_NONE, 0, 0, 0, 0,
	    "Mamba-2 state on layers without KV heads or feed-forward, KV "
	    "cache on those with KV heads" },
	{ "qwen3next", FAM_INTERVAL, SWA_NONE, 0, 0, 0, 0,
	    "gated delta-net state, KV cache on every "
	    "full_attention_interval-th layer (4 unless given)" },
	{ "qwen35", FAM_INTERVAL, SWA_NONE, 0, 0, 0, 0,
	    "gated delta-net state, KV cache on every "
	    "full_attention_interval-th layer (4 unless given)" },
	{ "qwen35moe", FAM_INTERVAL, SWA_NONE, 0, 0, 0, 0,
	    "gated delta-net state, KV cache on every "
	    "full_attention_interval-th layer (4 unless given)" },
	{ "lfm2", FAM_CONV, SWA_NONE, 0, 0, 0, 0,
	    "short-conv state on layers without KV heads, KV cache on the "
	    "others" },
	{ "lfm2moe", FAM_CONV, SWA_NONE, 0, 0, 0, 0,
	    "short-conv state on layers without KV heads, KV cache on the "
	    "others" },
	{ "falcon-h1", FAM_PARALLEL, SWA_NONE, 0, 0, 0, 0,
	    "KV cache and Mamba-2 state on every layer" },
	{ "rwkv6", FAM_RWKV, SWA_NONE, 0, 0, 0, 0,
	    "recurrent state (token shift and WKV), no KV cache" },
	{ "rwkv7", FAM_RWKV, SWA_NONE, 0, 0, 0, 0,
	    "recurrent state (token shift and WKV), no KV cache" },
};

static const struct {
	const char	*name;
	uint32_t	 type;
} cache_types[] = {
	{ "f32", GGUF_T_F32 }, { "f16", GGUF_T_F16 }, { "bf16", GGUF_T_BF16 },
	{ "q8_0", GGUF_T_Q8_0 }, { "q4_0", GGUF_T_Q4_0 },
	{ "q4_1", GGUF_T_Q4_1 }, { "iq4_nl", GGUF_T_IQ4_NL },
	{ "q5_0", GGUF_T_Q5_0 }, { "q5_1", GGUF_T_Q5_1 },
};

int
gguf_mem_cache_type(const char *name)
{
	size_t	i;

	for (i = 0; i < sizeof cache_types / sizeof cache_types[0]; i++)
		if (strcasecmp(name, cache_types[i].name) == 0)
			return (int)cache_types[i].type;
	return -1;
}

const char *
gguf_mem_cache_types(void)
{
	return "f32, f16, bf16, q8_0, q4_0, q4_1, iq4_nl, q5_0, q5_1";
}

void
gguf_mem_opts_default(struct gguf_mem_opts *o)
{
	memset(o, 0, sizeof *o);
	o->type_k = GGUF_T_F16;
	o->type_v = GGUF_T_F16;
	o->n_seq = 1;
	o->n_ubatch = 512;
	o->n_batch = 2048;
	o->flash_attn = -1;
}

int
gguf_mem_flash_attn(const struct gguf_mem_opts *o)
{
	return o->flash_attn != 0;
}

uint64_t
gguf_mem_ubatch(const struct gguf_mem_opts *o, uint64_t n_ctx)
{
	uint64_t	ub = o->n_ubatch;

	if (o->n_batch != 0 && o->n_batch < ub)
		ub = o->n_batch;
	return ub < n_ctx ? ub : n_ctx;
}

/* ------------------------------------------------------------ the keys */

/*
 * Every {arch}. key the model reads, and a value that changes it: the
 * interop test (tests/interop/mem.sh) takes this list from `ggufed mem
 * --keys`, and for each architecture above sets each key to its value and
 * removes it, comparing every figure with llama.cpp's. A key read but not
 * listed here stops the program (akey), so the list cannot fall behind.
 */
static const struct {
	const char	*suffix;
	const char	*probe;
} keys[] = {
	{ "block_count", "1" },
	{ "context_length", "1000" },
	{ "embedding_length", "64" },
	{ "feed_forward_length", "0" },
	{ "nextn_predict_layers", "1" },
	{ "full_attention_interval", "2" },
	{ "attention.recurrent_layers", "1" },
	{ "attention.head_count", "2" },
	{ "attention.head_count_kv", "1" },
	{ "attention.key_length", "16" },
	{ "attention.value_length", "16" },
	{ "attention.key_length_mla", "64" },
	{ "attention.value_length_mla", "16" },
	{ "attention.kv_lora_rank", "32" },
	{ "attention.sliding_window", "100" },
	{ "attention.sliding_window_pattern", "3" },
	{ "attention.key_length_swa", "16" },
	{ "attention.value_length_swa", "16" },
	{ "attention.shared_kv_layers", "1" },
	{ "ssm.conv_kernel", "3" },
	{ "ssm.inner_size", "64" },
	{ "ssm.state_size", "8" },
	{ "ssm.group_count", "2" },
	{ "wkv.head_size", "16" },
	{ "shortconv.l_cache", "2" },
	{ "token_shift_count", "1" },
};

void
gguf_mem_list(FILE *fp)
{
	size_t	i;

	for (i = 0; i < sizeof rules / sizeof rules[0]; i++)
		fprintf(fp, "arch %s\n", rules[i].name);
	for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
		fprintf(fp, "key %s %s\n", keys[i].suffix, keys[i].probe);
}

static struct gguf_val *
akey(struct gguf_doc *d, const char *arch, const char *suffix)
{
	char	key[160];
	size_t	i;
	int	n;

	for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (strcmp(keys[i].suffix, suffix) == 0)
			break;
	if (i == sizeof keys / sizeof keys[0]) {
		fprintf(stderr, "mem: key %s read but not listed\n", suffix);
		abort();
	}
	n = snprintf(key, sizeof key, "%s.%s", arch, suffix);
	if (n < 0 || (size_t)n >= sizeof key)
		return NULL;
	return gguf_doc_get(d, key, (size_t)n);
}

/* A scalar number key: 1 if present and a whole number >= 0. */
static int
akey_u64(struct gguf_doc *d, const char *arch, const char *suffix,
    uint64_t *out)
{
	struct gguf_val	*v = akey(d, arch, suffix);

	return v != NULL && v->type != GGUF_VT_ARR &&
	    v->type != GGUF_VT_BOOL && gguf_val_u64(v, out) == 0;
}

/*
 * A key that is one number or one per layer (as llama.cpp's
 * get_key_or_arr): the n values in out. 0 if absent, 1 if read, -1 if
 * present but not of that form (why says so).
 */
static int
akey_per_layer(struct gguf_doc *d, const char *arch, const char *suffix,
    uint32_t n, uint64_t *out, char *why, size_t whylen)
{
	struct gguf_val	*v = akey(d, arch, suffix), e;
	struct gguf_err	 err;
	uint64_t	 x;
	int64_t		 y;
	uint32_t	 i;

	if (v == NULL)
		return 0;
	if (v->type != GGUF_VT_ARR) {
		if (v->type == GGUF_VT_BOOL || gguf_val_u64(v, &x) != 0)
			goto bad;
		for (i = 0; i < n; i++)
			out[i] = x;
		return 1;
	}
	if (v->count != n) {
		snprintf(why, whylen, "%s.%s has %llu elements, not one per "
		    "layer (%u)", arch, suffix, (unsigned long long)v->count,
		    n);
		return -1;
	}
	/* llama.cpp reads a per-layer array of i32 or u32 only. */
	if (v->atype != GGUF_VT_I32 && v->atype != GGUF_VT_U32) {
		snprintf(why, whylen, "%s.%s is an array of %s: llama.cpp "
		    "refuses it (one per layer must be i32 or u32)", arch,
		    suffix, gguf_vtype_name(v->atype));
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (gguf_arr_get(v, i, &e, &err) != 0 ||
		    gguf_val_i64(&e, &y) != 0)
			goto bad;
		/*
		 * Copied bit for bit into its uint32_t: -1 is 4294967295,
		 * a size no model has (llama.cpp then refuses the shapes).
		 */
		if (y < 0) {
			snprintf(why, whylen, "%s.%s element %u is %lld, "
			    "which llama.cpp reads as %lu", arch, suffix, i,
			    (long long)y, (unsigned long)(uint32_t)y);
			return -1;
		}
		out[i] = (uint64_t)y;
	}
	return 1;
bad:
	snprintf(why, whylen, "%s.%s is not a whole number >= 0 or an array "
	    "of them", arch, suffix);
	return -1;
}

/* -------------------------------------------------------------- weights */

/* *acc += x, held at UINT64_MAX rather than wrapped. */
static void
sat_add(uint64_t *acc, uint64_t x)
{
	if (gguf_add_ok(*acc, x, acc) != 0)
		*acc = UINT64_MAX;
}

static void
add_type(struct gguf_mem_model *m, uint32_t type, uint64_t bytes)
{
	size_t	i;

	for (i = 0; i < m->n_types; i++)
		if (m->types[i].type == type)
			break;
	if (i == m->n_types) {
		m->types = xreallocarray(m->types, m->n_types + 1,
		    sizeof *m->types);
		m->types[i].type = type;
		m->types[i].count = 0;
		m->types[i].bytes = 0;
		m->n_types++;
	}
	m->types[i].count++;
	sat_add(&m->types[i].bytes, bytes);
}

static int
cmp_type(const void *a, const void *b)
{
	const struct gguf_mem_type	*x = a, *y = b;

	return x->type < y->type ? -1 : x->type > y->type;
}

static void
weights(struct gguf_mem_model *m, struct gguf_doc *d)
{
	struct gguf_doc_tensor	t;
	uint64_t		i, n = gguf_doc_n_tensors(d);
	int64_t			l;

	for (i = 0; i < n; i++) {
		if (gguf_doc_tensor(d, i, &t) != 0 ||
		    (t.flags & GGUF_ED_REMOVED))
			continue;
		m->n_tensors++;
		if (t.nbytes == 0 && t.t != NULL &&
		    (t.t->flags & GGUF_TENSOR_UNSIZED) && t.type == t.t->type)
			m->unsized++;
		sat_add(&m->weights, t.nbytes);
		add_type(m, t.type, t.nbytes);
		l = gguf_tensor_block(&t.name);
		if (l >= 0 && m->layers != NULL && (uint64_t)l < m->n_layer) {
			sat_add(&m->layers[l].weights, t.nbytes);
			m->layers[l].n_weights++;
			sat_add(&m->in_layers, t.nbytes);
		} else {
			sat_add(&m->kept, t.nbytes);
			m->n_kept++;
		}
	}
	if (m->n_types > 1)
		qsort(m->types, m->n_types, sizeof *m->types, cmp_type);
}

/* ---------------------------------------------------------- the caches */

static int	not_modelled(struct gguf_mem_model *m, const char *fmt, ...)
		    __attribute__((format(printf, 2, 3)));

static int
not_modelled(struct gguf_mem_model *m, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(m->why, sizeof m->why, fmt, ap);
	va_end(ap);
	m->modelled = 0;
	return -1;
}

/* Which layers slide, into the layers' kinds (FULL or SWA). */
static int
swa_layers(struct gguf_mem_model *m, struct gguf_doc *d,
    const struct arch_rule *r)
{
	struct gguf_val	*v, e;
	struct gguf_err	 err;
	uint64_t	 period = r->swa_period, x;
	uint32_t	 i;

	if (!akey_u64(d, m->arch, "attention.sliding_window", &m->n_swa))
		m->n_swa = r->swa_default;
	else if (r->swa == SWA_CHUNKED) {
		/* llama.cpp reads the window only to turn chunks off. */
		if (m->n_swa == 0)
			return 0;
		m->n_swa = r->swa_default;
	}
	if (m->n_swa == 0)
		return not_modelled(m, "%s: no attention.sliding_window",
		    m->arch);
	v = akey(d, m->arch, "attention.sliding_window_pattern");
	if (v != NULL && v->type == GGUF_VT_ARR) {
		if (v->count != m->n_layer)
			return not_modelled(m, "%s.attention.sliding_window_"
			    "pattern has not one element per layer", m->arch);
		for (i = 0; i < m->n_layer; i++) {
			if (gguf_arr_get(v, i, &e, &err) != 0 ||
			    gguf_val_u64(&e, &x) != 0)
				return not_modelled(m, "%s.attention.sliding_"
				    "window_pattern is not flags", m->arch);
			if (m->layers[i].kind != GGUF_MEM_NONE)
				m->layers[i].kind = x != 0 ? GGUF_MEM_SWA :
				    GGUF_MEM_FULL;
		}
		return 0;
	}
	if (v != NULL && (v->type == GGUF_VT_BOOL ||
	    gguf_val_u64(v, &period) != 0))
		return not_modelled(m, "%s.attention.sliding_window_pattern "
		    "is not a number", m->arch);
	for (i = 0; i < m->n_layer - m->n_nextn; i++)
		m->layers[i].kind = period == 0 ||
		    i % period < period - 1 ? GGUF_MEM_SWA : GGUF_MEM_FULL;
	return 0;
}

/*
 * The head sizes of the sliding layers: key_length_swa and
 * value_length_swa where the file has them (gemma4), else those of the
 * other layers.
 */
static int
swa_heads(struct gguf_mem_model *m, struct gguf_doc *d,
    const uint64_t *head_kv)
{
	struct gguf_mem_layer	*l;
	uint64_t		 hk, hv;
	uint32_t		 i;
	int			 gk, gv;

	gk = akey_u64(d, m->arch, "attention.key_length_swa", &hk);
	gv = akey_u64(d, m->arch, "attention.value_length_swa", &hv);
	for (i = 0; i < m->n_layer && (gk || gv); i++) {
		l = &m->layers[i];
		if (l->kind != GGUF_MEM_SWA)
			continue;
		if (gk)
			l->head_k = hk;
		if (gv)
			l->head_v = hv;
		if (gguf_mul_ok(l->head_k, head_kv[i], &l->k) != 0 ||
		    gguf_mul_ok(l->head_v, head_kv[i], &l->v) != 0)
			return not_modelled(m, "%s: layer %u's K or V row is "
			    "too large (key_length_swa, value_length_swa, "
			    "head_count_kv give over 2^64 elements)", m->arch,
			    i);
	}
	return 0;
}

/*
 * Layers that reuse an earlier layer's cache and allocate none: from
 * the rule's layer on (gemma3n: the 20th), or the last
 * attention.shared_kv_layers (gemma4).
 */
static int
shared_kv(struct gguf_mem_model *m, struct gguf_doc *d,
    const struct arch_rule *r)
{
	uint64_t	from = r->kv_from, n;
	uint32_t	i;

	if (r->kv_from == SHARED_KEY) {
		if (!akey_u64(d, m->arch, "attention.shared_kv_layers", &n))
			n = 0;
		/* llama.cpp asserts that two layers at least (a sliding
		   one and a full one to reuse) have a cache, whether
		   any layer shares one or not. */
		if (n >= m->n_layer || m->n_layer - n < 2)
			return not_modelled(m, "%s.attention.shared_kv_layers "
			    "(%llu) leaves fewer than 2 layers a cache of "
			    "their own: llama.cpp gives up", m->arch,
			    (unsigned long long)n);
		from = m->n_layer - n;
	}
	if (from >= m->n_layer)
		return 0;
	/* A sliding layer reads the cache of layer from - 2, a full one
	   that of from - 1: llama.cpp gives up if it is of the other
	   kind. */
	for (i = (uint32_t)from; i < m->n_layer; i++) {
		uint64_t	reuse = from - (m->layers[i].kind ==
				    GGUF_MEM_SWA ? 2 : 1);

		if (from < 2 || m->layers[reuse].kind != m->layers[i].kind)
			return not_modelled(m, "%s: layer %u would read the "
			    "cache of layer %llu, of the other kind (sliding "
			    "or full): llama.cpp gives up", m->arch, i,
			    (unsigned long long)reuse);
	}
	for (i = (uint32_t)from; i < m->n_layer; i++) {
		m->layers[i].shared = m->layers[i].kind;
		m->layers[i].kind = GGUF_MEM_NONE;
		m->layers[i].k = m->layers[i].v = 0;
		m->layers[i].head_k = m->layers[i].head_v = 0;
	}
	return 0;
}

/* The R and S rows of a recurrent layer (mamba, mamba-2). */
static int
ssm_rows(struct gguf_mem_model *m, struct gguf_doc *d, uint64_t *r,
    uint64_t *st)
{
	uint64_t	conv, inner, state, group = 0, x;

	if (!akey_u64(d, m->arch, "ssm.conv_kernel", &conv) || conv == 0 ||
	    !akey_u64(d, m->arch, "ssm.inner_size", &inner) ||
	    !akey_u64(d, m->arch, "ssm.state_size", &state))
		return not_modelled(m, "%s: no ssm.conv_kernel, "
		    "ssm.inner_size or ssm.state_size", m->arch);
	/* Mamba (1) has no groups: llama.cpp does not read the key. */
	if (strcmp(m->arch, "mamba") != 0 && strcmp(m->arch, "jamba") != 0)
		akey_u64(d, m->arch, "ssm.group_count", &group);
	/* (conv - 1) * (inner + 2 * group * state), state * inner */
	if (gguf_mul_ok(group, state, &x) != 0 || gguf_mul_ok(x, 2, &x) != 0 ||
	    gguf_add_ok(x, inner, &x) != 0 ||
	    gguf_mul_ok(conv - 1, x, r) != 0 ||
	    gguf_mul_ok(state, inner, st) != 0)
		return not_modelled(m, "%s: the recurrent state is too large "
		    "(ssm.inner_size, ssm.state_size, ssm.group_count give "
		    "over 2^64 elements)", m->arch);
	return 0;
}

/*
 * The R row of a short-conv layer (lfm2): shortconv.l_cache - 1 columns
 * of embedding_length; no S row.
 */
static int
conv_rows(struct gguf_mem_model *m, struct gguf_doc *d, uint64_t embd,
    uint64_t *r, uint64_t *st)
{
	uint64_t	l_cache;

	if (!akey_u64(d, m->arch, "shortconv.l_cache", &l_cache) ||
	    l_cache == 0)
		return not_modelled(m, "%s: no shortconv.l_cache", m->arch);
	*st = 0;
	if (gguf_mul_ok(l_cache - 1, embd, r) != 0)
		return not_modelled(m, "%s: the short-conv state is too "
		    "large (over 2^64 elements)", m->arch);
	return 0;
}

static int
recurrent(struct gguf_mem_model *m, struct gguf_doc *d)
{
	uint64_t	r, st;
	uint32_t	i;

	if (ssm_rows(m, d, &r, &st) != 0)
		return -1;
	for (i = 0; i < m->n_layer - m->n_nextn; i++) {
		m->layers[i].kind = GGUF_MEM_RECURRENT;
		m->layers[i].k = r;
		m->layers[i].v = st;
	}
	return 0;
}

/*
 * RWKV (6, 7): per sequence an R row of token_shift_count (2 unless
 * given) x n_embd and an S row of n_embd x wkv.head_size, F32.
 */
static int
rwkv(struct gguf_mem_model *m, struct gguf_doc *d)
{
	uint64_t	embd, head, shift = 2, r, st;
	uint32_t	i;

	if (!akey_u64(d, m->arch, "embedding_length", &embd) ||
	    !akey_u64(d, m->arch, "wkv.head_size", &head))
		return not_modelled(m, "%s: no embedding_length or "
		    "wkv.head_size", m->arch);
	akey_u64(d, m->arch, "token_shift_count", &shift);
	if (gguf_mul_ok(shift, embd, &r) != 0 ||
	    gguf_mul_ok(embd, head, &st) != 0)
		return not_modelled(m, "%s: the recurrent state is too large "
		    "(over 2^64 elements)", m->arch);
	for (i = 0; i < m->n_layer - m->n_nextn; i++) {
		m->layers[i].kind = GGUF_MEM_RECURRENT;
		m->layers[i].k = r;
		m->layers[i].v = st;
	}
	return 0;
}

static int
attention(struct gguf_mem_model *m, struct gguf_doc *d,
    const struct arch_rule *r)
{
	uint64_t	*head, *head_kv, *ff, embd, hk, hv, lora, interval = 0;
	uint32_t	 i;
	int		 rc = -1, got;

	head = xcalloc(m->n_layer, sizeof *head);
	head_kv = xcalloc(m->n_layer, sizeof *head_kv);
	ff = xcalloc(m->n_layer, sizeof *ff);
	if (r->fam == FAM_INTERVAL) {
		if (akey(d, m->arch, "attention.recurrent_layers") != NULL) {
			not_modelled(m, "%s.attention.recurrent_layers (the "
			    "file's own recurrent layers) is not modelled",
			    m->arch);
			goto out;
		}
		if (!akey_u64(d, m->arch, "full_attention_interval",
		    &interval))
			interval = 4;
		if (interval == 0 || interval > m->n_layer) {
			not_modelled(m, "%s.full_attention_interval (%llu) "
			    "is not 1 to block_count", m->arch,
			    (unsigned long long)interval);
			goto out;
		}
	}
	/* nemotron-h: a layer with neither KV heads nor a feed-forward is
	   a Mamba-2 one (absent, every layer's is 0). */
	if (r->fam == FAM_HYBRID_FF && akey_per_layer(d, m->arch,
	    "feed_forward_length", m->n_layer, ff, m->why,
	    sizeof m->why) < 0)
		goto out;
	if (!akey_u64(d, m->arch, "embedding_length", &embd) || embd == 0) {
		not_modelled(m, "%s: no embedding_length", m->arch);
		goto out;
	}
	got = akey_per_layer(d, m->arch, "attention.head_count", m->n_layer,
	    head, m->why, sizeof m->why);
	if (got <= 0) {
		if (got == 0)
			not_modelled(m, "%s: no attention.head_count",
			    m->arch);
		goto out;
	}
	got = akey_per_layer(d, m->arch, "attention.head_count_kv",
	    m->n_layer, head_kv, m->why, sizeof m->why);
	if (got < 0)
		goto out;
	if (got == 0)		/* as llama.cpp: as many as query heads */
		memcpy(head_kv, head, m->n_layer * sizeof *head);
	/* Head sizes: the keys, else each n_embd / n_head of the first
	   layer, as llama.cpp. */
	if ((!akey_u64(d, m->arch, "attention.key_length", &hk) ||
	    !akey_u64(d, m->arch, "attention.value_length", &hv)) &&
	    head[0] == 0) {
		not_modelled(m, "%s: no attention.key_length or value_length, "
		    "and layer 0 has no heads", m->arch);
		goto out;
	}
	if (!akey_u64(d, m->arch, "attention.key_length", &hk))
		hk = embd / head[0];
	if (!akey_u64(d, m->arch, "attention.value_length", &hv))
		hv = embd / head[0];
	if (r->mla) {
		uint64_t	kmla, vmla;

		if (!akey_u64(d, m->arch, "attention.key_length_mla", &kmla) ||
		    !akey_u64(d, m->arch, "attention.value_length_mla",
		    &vmla) || kmla == 0 || vmla == 0 ||
		    !akey_u64(d, m->arch, "attention.kv_lora_rank", &lora) ||
		    lora == 0) {
			not_modelled(m, "%s: a file without key_length_mla "
			    "(converted before latent attention was "
			    "stored) is not modelled", m->arch);
			goto out;
		}
	}
	/* The NextN (MTP) layers, the last ones, have no cache. */
	for (i = 0; i < m->n_layer - m->n_nextn; i++) {
		m->layers[i].kind = GGUF_MEM_FULL;
		m->layers[i].head_k = hk;
		m->layers[i].head_v = hv;
		if (gguf_mul_ok(hk, head_kv[i], &m->layers[i].k) != 0 ||
		    gguf_mul_ok(r->mla ? 0 : hv, head_kv[i],
		    &m->layers[i].v) != 0) {
			not_modelled(m, "%s: layer %u's K or V row is too "
			    "large (key_length, value_length, head_count_kv "
			    "give over 2^64 elements)", m->arch, i);
			goto out;
		}
		if (r->fam == FAM_INTERVAL && (i + 1) % interval != 0) {
			/* Gated delta-net: Mamba-2's rows (conv of value
			   and key heads, a state of d_state x d_inner). */
			m->layers[i].kind = GGUF_MEM_RECURRENT;
			if (ssm_rows(m, d, &m->layers[i].k,
			    &m->layers[i].v) != 0)
				goto out;
			m->layers[i].head_k = m->layers[i].head_v = 0;
		} else if (head_kv[i] == 0 && r->fam == FAM_HYBRID_FF) {
			if (ff[i] != 0) {	/* feed-forward only */
				m->layers[i].kind = GGUF_MEM_NONE;
				m->layers[i].head_k = m->layers[i].head_v = 0;
				continue;
			}
			m->layers[i].kind = GGUF_MEM_RECURRENT;
			if (ssm_rows(m, d, &m->layers[i].k,
			    &m->layers[i].v) != 0)
				goto out;
			m->layers[i].head_k = m->layers[i].head_v = 0;
		} else if (head_kv[i] == 0 && (r->fam == FAM_HYBRID ||
		    r->fam == FAM_CONV)) {
			m->layers[i].kind = GGUF_MEM_RECURRENT;
			if ((r->fam == FAM_CONV ? conv_rows(m, d, embd,
			    &m->layers[i].k, &m->layers[i].v) :
			    ssm_rows(m, d, &m->layers[i].k,
			    &m->layers[i].v)) != 0)
				goto out;
			m->layers[i].head_k = m->layers[i].head_v = 0;
		} else if (r->fam == FAM_PARALLEL) {
			if (head_kv[i] == 0) {
				not_modelled(m, "%s: layer %u has no KV heads",
				    m->arch, i);
				goto out;
			}
			if (ssm_rows(m, d, &m->layers[i].r,
			    &m->layers[i].s) != 0)
				goto out;
		} else if (head_kv[i] == 0) {
			not_modelled(m, "%s: a layer without KV heads (a "
			    "hybrid or shared-cache layer) is not modelled",
			    m->arch);
			goto out;
		}
	}
	if (r->swa != SWA_NONE && (swa_layers(m, d, r) != 0 ||
	    swa_heads(m, d, head_kv) != 0))
		goto out;
	if (r->kv_from != 0 && shared_kv(m, d, r) != 0)
		goto out;
	m->mla = r->mla;
	rc = 0;
out:
	free(head);
	free(head_kv);
	free(ff);
	return rc;
}

void
gguf_mem_model_make(struct gguf_mem_model *m, struct gguf_doc *d)
{
	const struct arch_rule	*r = NULL;
	struct gguf_val		*v;
	struct gguf_str		 s;
	uint64_t		 n;
	size_t			 i;

	memset(m, 0, sizeof *m);
	v = gguf_doc_get(d, "general.architecture", 20);
	if (v == NULL || gguf_val_str(v, &s) != 0) {
		weights(m, d);
		snprintf(m->why, sizeof m->why, "the file names no "
		    "architecture (general.architecture)");
		return;
	}
	gguf_pname(s.p, (size_t)s.n, m->arch, sizeof m->arch);
	/* A shard alone; a split model opened as a set weighs all of it. */
	if (gguf_n_shards(gguf_doc_file(d)) == 0 &&
	    (v = gguf_doc_get(d, "split.count", 11)) != NULL &&
	    gguf_val_u64(v, &n) == 0 && n > 1) {
		m->split_count = n;
		if ((v = gguf_doc_get(d, "split.no", 8)) != NULL)
			gguf_val_u64(v, &m->split_no);
	}
	if (akey_u64(d, m->arch, "block_count", &n) && n > 0 &&
	    n <= MAX_LAYERS) {
		m->n_layer = (uint32_t)n;
		m->layers = xcalloc(n, sizeof *m->layers);
	}
	akey_u64(d, m->arch, "context_length", &m->n_ctx_train);
	if ((v = gguf_doc_get(d, "tokenizer.ggml.tokens", 21)) != NULL &&
	    v->type == GGUF_VT_ARR)
		m->n_vocab = v->count;
	weights(m, d);
	if (m->layers != NULL && akey_u64(d, m->arch, "nextn_predict_layers",
	    &n) && n > 0) {
		if (n >= m->n_layer) {
			not_modelled(m, "%s.nextn_predict_layers (%llu) leaves "
			    "no layer of the model itself", m->arch,
			    (unsigned long long)n);
			return;
		}
		m->n_nextn = (uint32_t)n;
	}
	for (i = 0; i < sizeof rules / sizeof rules[0]; i++)
		if (strlen(rules[i].name) == s.n &&
		    memcmp(rules[i].name, s.p, s.n) == 0)
			r = &rules[i];
	if (r == NULL) {
		not_modelled(m, "the cache of architecture \"%s\" is not "
		    "modelled (ggufed(1), mem, lists those that are)", m->arch);
		return;
	}
	if (m->layers == NULL) {
		not_modelled(m, "%s: no block_count (1 to 512)", m->arch);
		return;
	}
	/* llama.cpp's hybrid memory keeps the attention cache of NextN
	   layers (falcon-h1 shows it): not modelled. */
	if (m->n_nextn != 0 && (r->fam == FAM_HYBRID ||
	    r->fam == FAM_CONV || r->fam == FAM_HYBRID_FF ||
	    r->fam == FAM_INTERVAL || r->fam == FAM_PARALLEL)) {
		not_modelled(m, "%s: NextN layers (nextn_predict_layers) in a "
		    "hybrid of attention and recurrent layers are not modelled",
		    m->arch);
		m->n_nextn = 0;
		return;
	}
	/* Modelled only once every key has been read: a bad one says why. */
	if ((r->fam == FAM_RECURRENT ? recurrent(m, d) :
	    r->fam == FAM_RWKV ? rwkv(m, d) : attention(m, d, r)) != 0) {
		m->modelled = 0;
		m->n_swa = 0;
		m->mla = 0;
		m->n_nextn = 0;
		for (i = 0; i < m->n_layer; i++) {
			m->layers[i].kind = GGUF_MEM_NONE;
			m->layers[i].k = m->layers[i].v = 0;
			m->layers[i].head_k = m->layers[i].head_v = 0;
			m->layers[i].r = m->layers[i].s = 0;
		}
		return;
	}
	m->modelled = 1;
	m->how = r->how;
	gguf_mem_compute_make(m, d);
}

void
gguf_mem_model_free(struct gguf_mem_model *m)
{
	free(m->layers);
	free(m->types);
	free(m->c_ff);
	free(m->c_flags);
	free(m->c_swa);
	free(m->c_nh);
	free(m->c_nhkv);
	memset(m, 0, sizeof *m);
}

/* Bytes of rows of n elements of type, count of them; -1 if n is not
   whole blocks, -2 if the bytes do not fit in 64 bits. */
static int
rows(uint32_t type, uint64_t n, uint64_t count, uint64_t *out)
{
	const struct gguf_type_info	*ti = gguf_ttype(type);
	uint64_t			 x;

	if (ti == NULL || ti->blck == 0 || n % ti->blck != 0)
		return -1;
	if (gguf_mul_ok(n / ti->blck, ti->bytes, &x) != 0 ||
	    gguf_mul_ok(x, count, out) != 0)
		return -2;
	return 0;
}

static int
too_large(struct gguf_mem_need *n)
{
	snprintf(n->refused, sizeof n->refused, "the cache is too large: "
	    "over 2^64 bytes");
	return -1;
}

static int
refuse(struct gguf_mem_need *n, const char *which, uint32_t type,
    uint64_t head)
{
	char	tb[24];

	snprintf(n->refused, sizeof n->refused, "llama.cpp refuses a %s "
	    "cache of type %s here: its block of %u does not divide the head "
	    "size %llu", which, gguf_ttype_name(type, tb),
	    gguf_ttype(type)->blck, (unsigned long long)head);
	return -1;
}

/* The elements of a V row of layer l's cache: without flash attention
   (V transposed) those of the widest V row of the model's layers. */
static uint64_t
v_row(const struct gguf_mem_model *m, const struct gguf_mem_opts *o,
    const struct gguf_mem_layer *l)
{
	uint64_t	max = l->v;
	uint32_t	i;

	if (gguf_mem_flash_attn(o) || l->v == 0)
		return l->v;
	for (i = 0; i < m->n_layer; i++)
		if ((m->layers[i].kind == GGUF_MEM_FULL ||
		    m->layers[i].kind == GGUF_MEM_SWA) && m->layers[i].v > max)
			max = m->layers[i].v;
	return max;
}

/* Layer il's bytes: K and V (attention or recurrent, by its kind) in
   *k and *v, a state beside the attention in *r and *s. */
static int
layer_parts(const struct gguf_mem_model *m, const struct gguf_mem_opts *o,
    const struct gguf_mem_need *n, uint32_t il, uint64_t *k, uint64_t *v,
    uint64_t *r, uint64_t *s)
{
	const struct gguf_mem_layer	*l = &m->layers[il];
	uint64_t			 cells, seq4 = (uint64_t)o->n_seq * 4;
	int				 rk, rv;

	*k = *v = *r = *s = 0;
	if (gguf_mul_ok(l->r, seq4, r) != 0 ||
	    gguf_mul_ok(l->s, seq4, s) != 0) {
		*r = *s = 0;
		return -1;
	}
	switch (l->kind) {
	case GGUF_MEM_FULL:
	case GGUF_MEM_SWA:
		/* At most 2^32 cells a stream, 256 streams: no overflow. */
		cells = (l->kind == GGUF_MEM_FULL ? n->cells : n->cells_swa) *
		    n->streams;
		rk = rows(o->type_k, l->k, cells, k);
		rv = rows(o->type_v, v_row(m, o, l), cells, v);
		if (rk == -2 || rv == -2) {
			*k = *v = 0;
			return -1;
		}
		if (rk != 0 || rv != 0)
			*k = *v = 0;
		break;
	case GGUF_MEM_RECURRENT:
		if (gguf_mul_ok(l->k, seq4, k) != 0 ||
		    gguf_mul_ok(l->v, seq4, v) != 0) {
			*k = *v = 0;
			return -1;
		}
		break;
	case GGUF_MEM_NONE:
		break;
	}
	return 0;
}

int
gguf_mem_layer_bytes(const struct gguf_mem_model *m,
    const struct gguf_mem_opts *o, const struct gguf_mem_need *n, uint32_t il,
    uint64_t *k, uint64_t *v)
{
	uint64_t	r, s;

	if (layer_parts(m, o, n, il, k, v, &r, &s) != 0 ||
	    gguf_add_ok(*k, r, k) != 0 || gguf_add_ok(*v, s, v) != 0) {
		*k = *v = 0;
		return -1;
	}
	return 0;
}

/*
 * The output buffer (llama_context::output_reserve, at context creation):
 * one output a sequence, its logits, F32. (Embeddings are not asked for;
 * t5, which has them too, is not modelled.)
 */
static int
output_bytes(const struct gguf_mem_model *m, uint32_t seq, uint64_t *out)
{
	return gguf_mul_ok(m->n_vocab, (uint64_t)seq * 4, out);
}

int
gguf_mem_need(const struct gguf_mem_model *m, const struct gguf_mem_opts *o,
    struct gguf_mem_need *n)
{
	uint64_t	ctx, cells, swa, ub, k, v, r, s, *sk, *sv;
	uint32_t	i, seq;
	int		any_attn = 0;

	memset(n, 0, sizeof *n);
	if (!m->modelled) {
		snprintf(n->refused, sizeof n->refused, "%s", m->why);
		return -1;
	}
	seq = o->n_seq;
	if (seq == 0 || seq > MAX_SEQ) {
		snprintf(n->refused, sizeof n->refused, "llama.cpp takes 1 to "
		    "%d parallel sequences", MAX_SEQ);
		return -1;
	}
	ctx = o->n_ctx != 0 ? o->n_ctx : m->n_ctx_train;
	if (ctx == 0) {
		snprintf(n->refused, sizeof n->refused, "no context given, "
		    "and the file has no %s.context_length", m->arch);
		return -1;
	}
	if (ctx > UINT32_MAX - 255) {
		snprintf(n->refused, sizeof n->refused, "llama.cpp's context "
		    "is at most %u", UINT32_MAX - 255);
		return -1;
	}
	ctx = PAD256(ctx);
	if (o->unified) {
		cells = ctx;
		n->streams = 1;
	} else {
		cells = PAD256(ctx / seq);
		n->streams = seq;
	}
	n->n_ctx = cells * n->streams;
	n->cells = cells;
	ub = gguf_mem_ubatch(o, ctx);
	/* A window of more than 2^32 tokens holds the context anyway. */
	swa = m->n_swa > UINT32_MAX ? cells :
	    PAD256(m->n_swa * (o->unified ? seq : 1) + ub);
	n->cells_swa = o->swa_full || swa > cells ? cells : swa;
	if (m->mla && o->type_k != o->type_v) {
		snprintf(n->refused, sizeof n->refused, "llama.cpp refuses "
		    "different K and V cache types for latent attention (V is "
		    "read out of the K cache)");
		return -1;
	}
	/* llama.cpp's context refuses it whatever the model's layers */
	if (!gguf_mem_flash_attn(o) &&
	    (gguf_ttype(o->type_v)->flags & GGUF_TF_QUANT)) {
		snprintf(n->refused, sizeof n->refused, "llama.cpp refuses a "
		    "quantized V cache without flash attention (--flash-attn "
		    "on or auto)");
		return -1;
	}
	for (i = 0; i < m->n_layer; i++) {
		const struct gguf_mem_layer	*l = &m->layers[i];

		if (l->kind == GGUF_MEM_FULL || l->kind == GGUF_MEM_SWA) {
			any_attn = 1;
			if (l->k != 0 && rows(o->type_k, l->head_k, 1, &k) != 0)
				return refuse(n, "K", o->type_k, l->head_k);
			if (l->v != 0 && rows(o->type_v, l->head_v, 1, &v) != 0)
				return refuse(n, "V", o->type_v, l->head_v);
		}
		if (layer_parts(m, o, n, i, &k, &v, &r, &s) != 0 ||
		    gguf_add_ok(n->r, r, &n->r) != 0 ||
		    gguf_add_ok(n->s, s, &n->s) != 0)
			return too_large(n);
		if (l->r + l->s != 0)
			n->n_rec++;
		switch (l->kind) {
		case GGUF_MEM_FULL:
			n->n_full++;
			sk = &n->k;
			sv = &n->v;
			break;
		case GGUF_MEM_SWA:
			n->n_swa++;
			sk = &n->k_swa;
			sv = &n->v_swa;
			break;
		case GGUF_MEM_RECURRENT:
			n->n_rec++;
			sk = &n->r;
			sv = &n->s;
			break;
		default:
			continue;
		}
		if (gguf_add_ok(*sk, k, sk) != 0 ||
		    gguf_add_ok(*sv, v, sv) != 0)
			return too_large(n);
	}
	if (output_bytes(m, seq, &n->output) != 0)
		return too_large(n);
	if (!any_attn)
		n->cells = n->cells_swa = 0;
	if (n->n_swa == 0)
		n->cells_swa = 0;
	n->compute_ok = gguf_mem_compute(m, o, n, &n->compute,
	    n->compute_why, sizeof n->compute_why) == 0;
	/* The total, and the total with the weights, both fit. */
	if (gguf_add_ok(n->k, n->v, &n->total) != 0 ||
	    gguf_add_ok(n->total, n->k_swa, &n->total) != 0 ||
	    gguf_add_ok(n->total, n->v_swa, &n->total) != 0 ||
	    gguf_add_ok(n->total, n->r, &n->total) != 0 ||
	    gguf_add_ok(n->total, n->s, &n->total) != 0 ||
	    m->weights == UINT64_MAX ||
	    gguf_add_ok(n->total, n->output, &k) != 0 ||
	    gguf_add_ok(k, n->compute, &k) != 0 ||
	    gguf_add_ok(k, m->weights, &n->with_weights) != 0 ||
	    gguf_add_ok(n->with_weights, o->mmproj, &n->with_weights) != 0)
		return too_large(n);
	return 0;
}

int
gguf_mem_fit(const struct gguf_mem_model *m, const struct gguf_mem_opts *o,
    uint64_t budget, uint64_t *n_ctx, struct gguf_mem_need *n)
{
	struct gguf_mem_opts	q = *o;
	struct gguf_mem_need	tmp, best;
	uint64_t		lo, hi, mid, step;

	if (n == NULL)
		n = &tmp;
	/* Contexts llama.cpp can settle on: multiples of 256 per stream. */
	step = 256 * (o->unified ? 1 : (o->n_seq != 0 ? o->n_seq : 1));
	q.n_ctx = step;
	if (gguf_mem_need(m, &q, &best) != 0) {
		*n = best;
		return -1;
	}
	if (best.with_weights > budget) {
		*n_ctx = 0;
		*n = best;
		return 1;
	}
	lo = 1;
	hi = (UINT32_MAX - 255) / step;
	q.n_ctx = hi * step;
	if (gguf_mem_need(m, &q, &tmp) == 0 &&
	    tmp.with_weights <= budget) {
		*n_ctx = q.n_ctx;
		*n = tmp;
		return 2;
	}
	while (hi - lo > 1) {		/* lo fits, hi does not */
		mid = lo + (hi - lo) / 2;
		q.n_ctx = mid * step;
		if (gguf_mem_need(m, &q, &tmp) == 0 &&
		    tmp.with_weights <= budget) {
			lo = mid;
			best = tmp;
		} else
			hi = mid;
	}
	*n_ctx = lo * step;
	*n = best;
	return 0;
}

/* ------------------------------------------------------------- the text */

size_t
gguf_mem_default_contexts(const struct gguf_mem_model *m,
    uint64_t out[GGUF_MEM_NDEFAULT])
{
	static const uint64_t	std[] = { 4096, 8192, 16384, 32768, 131072 };
	size_t			i, n = 0, j;
	uint64_t		t = m->n_ctx_train, x;

	for (i = 0; i < sizeof std / sizeof std[0]; i++)
		out[n++] = std[i];
	if (t != 0 && t <= UINT32_MAX - 255) {
		for (i = 0; i < n && out[i] != t; i++)
			;
		if (i == n)
			out[n++] = t;
	}
	for (i = 1; i < n; i++)		/* insertion sort: at most 6 */
		for (j = i; j > 0 && out[j - 1] > out[j]; j--) {
			x = out[j];
			out[j] = out[j - 1];
			out[j - 1] = x;
		}
	return n;
}

/* "3 layers of 589,824 bytes" or "4 layers, 120,000 to 300,000 bytes each" */
static void
layer_span(const struct gguf_mem_model *m, char *buf, size_t len)
{
	uint64_t	lo = UINT64_MAX, hi = 0;
	uint32_t	i;
	char		a[32], b[32];

	for (i = 0; i < m->n_layer; i++) {
		if (m->layers[i].weights < lo)
			lo = m->layers[i].weights;
		if (m->layers[i].weights > hi)
			hi = m->layers[i].weights;
	}
	if (lo == hi)
		snprintf(buf, len, "%u layer%s of %s bytes", m->n_layer,
		    m->n_layer == 1 ? "" : "s", gguf_fmt_group(lo, a, sizeof a));
	else
		snprintf(buf, len, "%u layers, %s to %s bytes each", m->n_layer,
		    gguf_fmt_group(lo, a, sizeof a),
		    gguf_fmt_group(hi, b, sizeof b));
}

void
gguf_mem_write(FILE *fp, const struct gguf_mem_model *m,
    const struct gguf_mem_opts *o, const uint64_t *ctx, size_t n_ctx)
{
	struct gguf_mem_opts	q = *o;
	struct gguf_mem_need	n;
	char			b1[64], b2[64], b3[64], b4[64], tb[24], span[96];
	size_t			i;
	int			swa = m->modelled && m->n_swa != 0;
	int			rec = 0, attn = 0;
	uint32_t		l;
	uint64_t		x;

	fprintf(fp, "architecture  %s\n", m->arch[0] != '\0' ? m->arch : "-");
	if (m->n_layer != 0)
		fprintf(fp, "layers        %u\n", m->n_layer);
	if (m->n_ctx_train != 0)
		fprintf(fp, "training ctx  %s\n", gguf_fmt_group(m->n_ctx_train,
		    b1, sizeof b1));
	fprintf(fp, "weights       %s in %s tensor%s\n", gguf_fmt_bytes(m->weights, b1,
	    sizeof b1), gguf_fmt_group(m->n_tensors, b2, sizeof b2),
	    m->n_tensors == 1 ? "" : "s");
	for (i = 0; i < m->n_types; i++)
		fprintf(fp, "  %-11s %s tensor%s, %s\n",
		    gguf_ttype_name(m->types[i].type, tb),
		    gguf_fmt_group(m->types[i].count, b1, sizeof b1),
		    m->types[i].count == 1 ? "" : "s",
		    gguf_fmt_bytes(m->types[i].bytes, b2, sizeof b2));
	if (m->n_layer != 0 && m->layers != NULL) {
		layer_span(m, span, sizeof span);
		fprintf(fp, "  in layers   %s (blk.N, offloadable): %s\n",
		    gguf_fmt_bytes(m->in_layers, b1, sizeof b1), span);
		fprintf(fp, "  kept        %s in %s tensor%s outside the layers "
		    "(embeddings, output)\n", gguf_fmt_bytes(m->kept, b2, sizeof b2),
		    gguf_fmt_group(m->n_kept, b3, sizeof b3),
		    m->n_kept == 1 ? "" : "s");
	}
	if (m->split_count > 1)
		fprintf(fp, "  note        this file is shard %llu of %llu: "
		    "the weights are its own only\n",
		    (unsigned long long)m->split_no + 1,
		    (unsigned long long)m->split_count);
	if (m->unsized != 0)
		fprintf(fp, "  note        %s tensor%s of unknown size not "
		    "counted\n", gguf_fmt_group(m->unsized, b1, sizeof b1),
		    m->unsized == 1 ? "" : "s");
	if (o->mmproj != 0)
		fprintf(fp, "projector     %s (--mmproj), on the %s; its "
		    "compute buffer is not modelled\n",
		    gguf_fmt_bytes(o->mmproj, b1, sizeof b1),
		    o->mmproj_cpu ? "CPU (--no-mmproj-offload)" : "GPU");
	if (!m->modelled) {
		fprintf(fp, "cache         not modelled: %s\n", m->why);
		fprintf(fp, "compute       not modelled for %s\n",
		    m->arch[0] != '\0' ? m->arch : "a file without an "
		    "architecture");
		return;
	}
	for (l = 0; l < m->n_layer; l++) {
		if (m->layers[l].kind == GGUF_MEM_RECURRENT ||
		    m->layers[l].r + m->layers[l].s != 0)
			rec = 1;
		if (m->layers[l].kind == GGUF_MEM_FULL ||
		    m->layers[l].kind == GGUF_MEM_SWA)
			attn = 1;
	}
	fprintf(fp, "modelled      %s\n", m->how);
	if (m->n_nextn != 0)
		fprintf(fp, "nextn         %u layer%s, the last (multi-token "
		    "prediction): no cache\n", m->n_nextn,
		    m->n_nextn == 1 ? "" : "s");
	if (attn)
		fprintf(fp, "cache         K %s, V %s, %u sequence%s%s%s\n",
		    gguf_ttype(o->type_k)->lname,
		    m->mla ? "none" : gguf_ttype(o->type_v)->lname, o->n_seq,
		    o->n_seq == 1 ? "" : "s",
		    swa ? o->swa_full ? ", full-size SWA cache" :
		    ", SWA cache of the window" : "",
		    rec ? ", and recurrent state (F32)" : "");
	else
		fprintf(fp, "cache         recurrent state (F32), %u sequence%s\n",
		    o->n_seq, o->n_seq == 1 ? "" : "s");
	if (swa)
		fprintf(fp, "window        %s tokens\n", gguf_fmt_group(m->n_swa,
		    b1, sizeof b1));
	if (attn && !m->mla && (gguf_ttype(o->type_v)->flags & GGUF_TF_QUANT))
		fprintf(fp, "note          a quantized V cache needs flash "
		    "attention (llama.cpp's default, auto, turns it on where "
		    "the device has it)\n");
	if (m->n_vocab == 0)
		fprintf(fp, "output        none: the file has no "
		    "tokenizer.ggml.tokens\n");
	else if (output_bytes(m, o->n_seq, &x) == 0)
		fprintf(fp, "output        %s: logits of %s tokens, %u "
		    "sequence%s, F32 (beside the cache)\n",
		    gguf_fmt_bytes(x, b1, sizeof b1),
		    gguf_fmt_group(m->n_vocab, b2, sizeof b2), o->n_seq,
		    o->n_seq == 1 ? "" : "s");
	/* The compute buffer: how, or why not (the first context's). */
	for (i = 0; i < n_ctx; i++) {
		q.n_ctx = ctx[i];
		if (gguf_mem_need(m, &q, &n) == 0)
			break;
	}
	if (i < n_ctx && n.compute_ok)
		fprintf(fp, "compute       %s (CPU): the graphs llama.cpp "
		    "reserves, flash attention %s%s, micro-batch %s of a "
		    "batch of %s\n", m->arch, gguf_mem_flash_attn(o) ?
		    "on" : "off", o->flash_attn < 0 ? " (auto)" : "",
		    gguf_fmt_group(o->n_ubatch, b1, sizeof b1),
		    gguf_fmt_group(o->n_batch, b2, sizeof b2));
	else if (i < n_ctx)
		fprintf(fp, "compute       %s\n", strncmp(n.compute_why,
		    "compute: ", 9) == 0 ? n.compute_why + 9 : n.compute_why);
	fprintf(fp, "\n%-12s %-12s%s %-28s %-28s %s\n", "context",
	    attn ? "cells" : "", swa ? " swa cells " : "",
	    rec && !attn ? "state" : "cache", "compute", "with weights");
	for (i = 0; i < n_ctx; i++) {
		q.n_ctx = ctx[i];
		if (gguf_mem_need(m, &q, &n) != 0) {
			fprintf(fp, "%-12s refused: %s\n", gguf_fmt_group(ctx[i],
			    b1, sizeof b1), n.refused);
			continue;
		}
		fprintf(fp, "%-12s %-12s", gguf_fmt_group(ctx[i], b1, sizeof b1),
		    attn ? gguf_fmt_group(n.cells * n.streams, b2, sizeof b2) :
		    "");
		if (swa)
			fprintf(fp, " %-10s", gguf_fmt_group(n.cells_swa *
			    n.streams, b4, sizeof b4));
		fprintf(fp, " %-28s", gguf_fmt_bytes(n.total, b3, sizeof b3));
		fprintf(fp, " %-28s %s\n", n.compute_ok ?
		    gguf_fmt_bytes(n.compute, b3, sizeof b3) : "-",
		    gguf_fmt_bytes(n.with_weights, b4, sizeof b4));
	}
}
