/*
 * mem.h - how much memory a model needs when llama.cpp loads it: the
 * weights (per type, per layer, and what stays out of the layers), and
 * the KV cache or recurrent state at a given context, computed the way
 * llama.cpp sizes them (cells rounded up to 256, a sliding-window cache of
 * the window plus the micro-batch, one stream per sequence, the head-size
 * rule of quantized caches).
 *
 *	struct gguf_mem_model	m;
 *	struct gguf_mem_opts	o;
 *	struct gguf_mem_need	n;
 *
 *	gguf_mem_model_make(&m, doc);
 *	gguf_mem_opts_default(&o);
 *	o.n_ctx = 8192;
 *	if (m.modelled && gguf_mem_need(&m, &o, &n) == 0)
 *		... n.total bytes of cache ...
 *	gguf_mem_model_free(&m);
 *
 * Only the architectures whose cache layout has been checked against
 * llama.cpp's own allocation are modelled; for any other, m.modelled is 0
 * and m.why says so: no guess is made. The weights are known for every
 * file.
 */
#ifndef GGUF_MEM_H
#define GGUF_MEM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "doc.h"

#define GGUF_MEM_NDEFAULT	6	/* contexts of the default table */

/* What a layer keeps per token (attention) or per sequence (recurrent). */
enum gguf_mem_kind {
	GGUF_MEM_NONE,		/* no cache */
	GGUF_MEM_FULL,		/* KV cache of the whole context */
	GGUF_MEM_SWA,		/* KV cache of the sliding window */
	GGUF_MEM_RECURRENT	/* fixed-size state (R and S rows, F32) */
};

struct gguf_mem_layer {
	enum gguf_mem_kind	 kind;
	/* FULL/SWA: elements of one cell's K and V rows (n_embd_k_gqa,
	   n_embd_v_gqa); RECURRENT: elements of one sequence's R and S. */
	uint64_t		 k, v;
	uint64_t		 head_k, head_v;	/* head sizes */
	/* FULL/SWA: a recurrent state beside the attention (falcon-h1):
	   elements of one sequence's R and S, else 0. */
	uint64_t		 r, s;
	uint64_t		 weights;		/* bytes of blk.N.* */
	uint64_t		 n_weights;		/* tensors of blk.N.* */
	/* A layer without a cache of its own (shared KV): the kind (FULL,
	   SWA) of the earlier layer's cache it reads; else GGUF_MEM_NONE. */
	enum gguf_mem_kind	 shared;
};

/* Bytes of the tensors of one type. */
struct gguf_mem_type {
	uint32_t	 type;
	uint64_t	 count;
	uint64_t	 bytes;
};

struct gguf_mem_model {
	char			 arch[64];	/* general.architecture, escaped */
	int			 modelled;	/* the cache can be computed */
	char			 why[200];	/* if not: why, one line */
	const char		*how;		/* if so: what is modelled, one line */
	uint32_t		 n_layer;
	uint64_t		 n_ctx_train;	/* 0 if the file has none */
	uint64_t		 n_swa;		/* sliding window, 0 if none */
	int			 mla;		/* latent attention: no V cache */
	uint32_t		 n_nextn;	/* last layers: NextN (MTP), no cache */
	uint64_t		 n_vocab;	/* tokenizer.ggml.tokens, 0 if none */
	struct gguf_mem_layer	*layers;	/* n_layer of them (NULL if unknown) */
	/* Weights: every live tensor. */
	uint64_t		 weights;
	uint64_t		 n_tensors;
	uint64_t		 unsized;	/* tensors whose size is unknown */
	uint64_t		 in_layers;	/* bytes of blk.N.* with N < n_layer */
	uint64_t		 kept;		/* bytes of every other tensor */
	uint64_t		 n_kept;
	struct gguf_mem_type	*types;		/* by type id, present ones */
	size_t			 n_types;
	/* A shard of a split model (split.count > 1): the weights are this
	   file's only. */
	uint64_t		 split_no, split_count;
	/* The compute buffer (src/model/mem_compute.c): set when llama.cpp's
	   graph of the architecture is modelled, else cwhy says why. */
	int			 compute;
	char			 cwhy[200];
	uint64_t		 c_embd, c_out;	/* embedding; logits' rows */
	uint64_t		 c_head, c_head_kv, c_head_k, c_head_v;
	uint64_t		*c_ff;		/* feed-forward length, per layer */
	uint16_t		*c_flags;	/* what a layer adds, per layer */
	uint64_t		 c_nexp, c_nused;	/* experts; used a token */
	unsigned char		*c_swa;		/* a sliding window, per layer */
	uint64_t		*c_nh, *c_nhkv;	/* heads, KV heads, per layer
						   (openelm) */
	uint64_t		 c_ffsh;	/* the shared experts' length */
	int			 c_normw, c_scalew;	/* their weights
						   normalized, scaled */
	int			 c_kind;	/* the graph's builder */
	uint64_t		 c_mla[6];	/* deepseek2: kv_lora_rank, RoPE
						   dimensions, q_lora_rank (0:
						   one Q projection), 1 with a
						   temperature scale; groups of
						   experts (0: none), those
						   used (bailingmoe2's too) */
	uint64_t		 c_nchunk;	/* grovemoe: chunk experts (of
						   c_ffsh) */
	/* The recurrent graphs' sizes (mem_compute_recurrent.c), the
	   gemma graphs' (mem_compute_gemma.c). */
	uint64_t		 c_rec[24];
};

/* What llama.cpp is asked for (its defaults by gguf_mem_opts_default). */
struct gguf_mem_opts {
	uint64_t	 n_ctx;		/* 0: the training context */
	uint32_t	 type_k;	/* ggml type id; F16 by default */
	uint32_t	 type_v;
	uint32_t	 n_seq;		/* parallel sequences, 1..256 */
	int		 swa_full;	/* full-size cache for SWA layers */
	int		 unified;	/* one stream shared by the sequences */
	uint32_t	 n_ubatch;	/* micro-batch (-ub), 512 */
	uint32_t	 n_batch;	/* logical batch (-b), 2048 */
	int		 flash_attn;	/* -fa: 1 on, 0 off, -1 auto (on, on
					   the CPU) */
	uint64_t	 mmproj;	/* the projector's weights (llama.cpp's
					   --mmproj), 0: none */
	int		 mmproj_cpu;	/* --no-mmproj-offload: on the CPU */
	int		 gpu;		/* a GPU backend (--gpu-layers): its
					   compute buffers are not modelled */
};

/* The memory at one context. */
struct gguf_mem_need {
	uint64_t	 n_ctx;		/* the context llama.cpp settles on */
	uint64_t	 cells;		/* KV cells per stream (full layers) */
	uint64_t	 cells_swa;	/* KV cells per stream (SWA layers) */
	uint32_t	 streams;	/* 1 if unified, else the sequences */
	uint32_t	 n_full, n_swa, n_rec;	/* layers of each kind */
	uint64_t	 k, v;		/* bytes, full layers */
	uint64_t	 k_swa, v_swa;	/* bytes, SWA layers */
	uint64_t	 r, s;		/* bytes, recurrent state */
	uint64_t	 total;		/* the sum: the cache */
	/* The output buffer beside the cache: logits (F32) of the
	   vocabulary for one output a sequence. */
	uint64_t	 output;
	/* llama.cpp's compute buffer on the CPU, if compute_ok; else
	   compute_why says why it is not known. */
	uint64_t	 compute;
	int		 compute_ok;
	char		 compute_why[200];
	uint64_t	 with_weights;	/* total + output + compute (when
					   known) + the weights (and the
					   projector's) */
	char		 refused[200];	/* llama.cpp refuses: why ("" if not) */
};

/* The architectures modelled ("arch NAME" lines) and every {arch}. key
   read with a value that changes it ("key SUFFIX VALUE" lines), to fp:
   what the interop test walks. */
void	gguf_mem_list(FILE *fp);

/* Fills m from d's current keys and live tensors. Never fails; see
   modelled: set only when every key the cache needs was read, else why
   says what is missing, wrong or too large. Sums of bytes of weights are
   held at UINT64_MAX rather than wrapped. */
void	gguf_mem_model_make(struct gguf_mem_model *m, struct gguf_doc *d);
void	gguf_mem_model_free(struct gguf_mem_model *m);

/* llama.cpp's defaults: training context, F16 K and V, 1 sequence,
   window-sized SWA cache (as its command-line tools), micro-batch 512,
   batch 2048, flash attention auto. */
void	gguf_mem_opts_default(struct gguf_mem_opts *o);

/* Whether o's flash attention is on (auto is, on the CPU). */
int	gguf_mem_flash_attn(const struct gguf_mem_opts *o);
/* The micro-batch llama.cpp settles on at a context of n_ctx cells:
   min(n_ubatch, n_batch, n_ctx). */
uint64_t gguf_mem_ubatch(const struct gguf_mem_opts *o, uint64_t n_ctx);

/* mem_compute.c: reads the graph's sizes from d into m (m->compute, or
   m->cwhy); gguf_mem_model_make calls it. */
void	gguf_mem_compute_make(struct gguf_mem_model *m, struct gguf_doc *d);
/* The compute buffer at n (gguf_mem_need's, without it): 0 with *bytes,
   or -1 with why ("compute: not modelled for ..."). */
int	gguf_mem_compute(const struct gguf_mem_model *m,
	    const struct gguf_mem_opts *o, const struct gguf_mem_need *n,
	    uint64_t *bytes, char *why, size_t len);

/*
 * The cache types llama.cpp accepts (f32, f16, bf16, q8_0, q4_0, q4_1,
 * iq4_nl, q5_0, q5_1): the ggml type id of name (any case), or -1.
 */
int	gguf_mem_cache_type(const char *name);
/* Their names, comma-separated, for messages. */
const char *gguf_mem_cache_types(void);

/*
 * The cache at o. 0 on success; -1 with n->refused set when llama.cpp
 * would refuse to create the context (a quantized cache type whose block
 * does not divide the head size, K and V types that differ under latent
 * attention, too many sequences, no context), when the cache, or the
 * cache with the weights, is too large for 64 bits, or when m is not
 * modelled (n->refused = m->why).
 */
int	gguf_mem_need(const struct gguf_mem_model *m,
	    const struct gguf_mem_opts *o, struct gguf_mem_need *n);

/* The bytes of layer il's K (and R) and V (and S) in the cache n (from
   gguf_mem_need with the same m and o). 0; -1 (both 0) if too large for
   64 bits, which gguf_mem_need having succeeded rules out. */
int	gguf_mem_layer_bytes(const struct gguf_mem_model *m,
	    const struct gguf_mem_opts *o, const struct gguf_mem_need *n,
	    uint32_t il, uint64_t *k, uint64_t *v);

/*
 * The largest context (a multiple of what llama.cpp rounds to) whose
 * weights, cache, output buffer and compute buffer (where modelled) fit
 * in budget bytes, in *n_ctx, with
 * its need in n (may be NULL). 0 if found; 1 if not even the smallest context fits;
 * 2 if every context fits (the cache does not grow with the context, or
 * up to llama.cpp's largest, 2^32 - 256): *n_ctx is then that largest
 * one tried; -1 if the cache cannot be computed (n->refused says why).
 */
int	gguf_mem_fit(const struct gguf_mem_model *m,
	    const struct gguf_mem_opts *o, uint64_t budget, uint64_t *n_ctx,
	    struct gguf_mem_need *n);

/*
 * The contexts of the memory table: 4k, 8k, 16k, 32k, 128k and the
 * training context (once), ascending, into out; their number.
 */
size_t	gguf_mem_default_contexts(const struct gguf_mem_model *m,
	    uint64_t out[GGUF_MEM_NDEFAULT]);

/*
 * The report `ggufed mem` prints and the browser's memory table shows:
 * architecture, layers, training context, the weights (by type, in the
 * layers, kept), what is modelled (or why not), then one line a context
 * of ctx[0..n_ctx): cells, the cache, the cache with the output buffer
 * and the weights. To fp.
 */
void	gguf_mem_write(FILE *fp, const struct gguf_mem_model *m,
	    const struct gguf_mem_opts *o, const uint64_t *ctx, size_t n_ctx);

#endif /* GGUF_MEM_H */
