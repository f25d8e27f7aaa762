/*
 * mem_split.h - where llama.cpp puts each byte of mem.h's figures when
 * it offloads layers to a GPU (its -ngl N, --gpu-layers N): the weights
 * and the cache of each device, by llama.cpp's rule (mem_split.c says
 * which of its sources it comes from).
 *
 *	struct gguf_mem_place	p;
 *	struct gguf_mem_split	s;
 *
 *	gguf_mem_place_make(&p, &m, doc);	(m from gguf_mem_model_make)
 *	if (p.placed && gguf_mem_split(&m, &p, &o, &n, 20, &s) == 0)
 *		... s.gpu_total bytes on the GPU ...
 *
 * Not proven here: no GPU runs in the tests, and llama.cpp built for the
 * CPU alone ignores -ngl. The figures are llama.cpp's buffers of weights
 * and cache only: its compute buffers on the GPU are not counted.
 */
#ifndef GGUF_MEM_SPLIT_H
#define GGUF_MEM_SPLIT_H

#include <stdint.h>
#include <stdio.h>

#include "doc.h"
#include "mem.h"

#define GGUF_MEM_NGL_MAX	UINT32_MAX	/* -ngl beyond every layer */

/* The weights outside blk.N, by the layer llama.cpp loads them with. */
struct gguf_mem_place {
	int		 placed;	/* every tensor has its place */
	char		 why[200];	/* if not: why, one line */
	uint64_t	 input;		/* token_embd, ...: the CPU, always */
	uint64_t	 output;	/* output, output_norm, ...: output layer */
	uint64_t	 tied;		/* no output.weight: token_embd's bytes,
					   copied to the output layer's device */
	uint64_t	 first;		/* token_embd_norm: layer 0's device */
	uint64_t	 shared;	/* rope_freqs, ...: a copy on each device
					   with a layer */
	/* Tensors a rule (gguf_mem_place_rules) puts on a device of its
	   own: not counted in input, output, first nor in their layer's
	   device; forced[il] of blk.il's bytes (NULL: no rule placed any),
	   fixed_cpu and fixed_gpu the sums of every device. */
	uint64_t	*forced;
	uint64_t	 fixed_cpu, fixed_gpu;
};

/*
 * A tensor-placement rule, llama.cpp's -ot REGEX=BUFTYPE (what --cpu-moe
 * and --n-cpu-moe expand to are such rules too): the tensors whose name
 * the pattern matches anywhere go to the device of the buffer type
 * rather than to their layer's, the first rule that matches winning.
 */
struct gguf_mem_rule {
	const char	*pattern;	/* PCRE2, as llama.cpp's std::regex */
	int		 gpu;		/* the buffer type is a GPU's */
	uint64_t	 matched;	/* out: the tensors it matches */
	uint64_t	 tensors;	/* out: the tensors it placed (the
					   first rule to match them) */
	uint64_t	 bytes;		/* out: their bytes */
};

/* llama.cpp's pattern of the expert tensors (--cpu-moe), and that of
   block N's (--n-cpu-moe N: blocks 0 to N - 1) into buf. */
#define GGUF_MEM_EXPS_RE	"\\.ffn_(up|down|gate|gate_up)_(ch|)exps"
void	gguf_mem_exps_block_re(uint32_t block, char *buf, size_t len);

/*
 * Whether name is a buffer type llama.cpp's -ot takes: 0 the CPU's, 1 a
 * GPU's (CUDA0, ROCm0, MUSA0, Vulkan0, SYCL0, CANN0, Metal, MTL0: a
 * backend's name, as ggml_backend_buft_name gives it), -1 neither.
 */
int	gguf_mem_buftype(const char *name);

/* The bytes of each device at one context and -ngl. */
struct gguf_mem_split {
	uint64_t	 ngl;		/* as asked */
	uint32_t	 n_gpu;		/* repeating layers on the GPU */
	uint32_t	 first_gpu;	/* the first of them (n_layer if none) */
	int		 output_gpu;	/* the output layer on the GPU */
	uint64_t	 gpu_weights, cpu_weights;
	uint64_t	 copies;	/* bytes on both devices (in both sums) */
	uint64_t	 gpu_cache, cpu_cache;	/* KV cache and state */
	uint64_t	 cpu_output;	/* the output buffer: host memory */
	uint64_t	 gpu_total, cpu_total;
};

/* Sorts d's live tensors outside the layers into p (never fails: see
   placed). m must come from the same document. */
void	gguf_mem_place_make(struct gguf_mem_place *p,
	    const struct gguf_mem_model *m, struct gguf_doc *d);

/*
 * p (from gguf_mem_place_make) with rules[0..n) applied as llama.cpp
 * applies them at load: 0 with each rule's tensors and bytes counted;
 * -1 with err set when a pattern does not compile, or p->placed cleared
 * (p->why) when a rule places a tensor llama.cpp loads more than once
 * (rope_freqs, a tied output). Free with gguf_mem_place_free.
 */
int	gguf_mem_place_rules(struct gguf_mem_place *p,
	    const struct gguf_mem_model *m, struct gguf_doc *d,
	    struct gguf_mem_rule *rules, size_t n, struct gguf_err *err);
void	gguf_mem_place_free(struct gguf_mem_place *p);

/*
 * The split of the weights and of the cache n (gguf_mem_need with m and
 * o) with ngl layers on the GPU. 0; -1 if a sum is over 2^64 bytes, which
 * gguf_mem_need having succeeded rules out.
 */
int	gguf_mem_split(const struct gguf_mem_model *m,
	    const struct gguf_mem_place *p, const struct gguf_mem_opts *o,
	    const struct gguf_mem_need *n, uint64_t ngl,
	    struct gguf_mem_split *s);

/*
 * --fit with -ngl: the most layers (0 to n_layer + 1) whose GPU part fits
 * in budget at o's context, in *ngl, with its split in s. 0 if found; 1 if
 * not one layer fits (*ngl = 0); -1 if the cache cannot be computed
 * (n->refused says why).
 */
int	gguf_mem_fit_layers(const struct gguf_mem_model *m,
	    const struct gguf_mem_place *p, const struct gguf_mem_opts *o,
	    uint64_t budget, uint64_t *ngl, struct gguf_mem_need *n,
	    struct gguf_mem_split *s);

/*
 * --fit with -ngl N: the largest context whose GPU part fits in budget,
 * as gguf_mem_fit (same return values), with its split in s.
 */
int	gguf_mem_fit_gpu(const struct gguf_mem_model *m,
	    const struct gguf_mem_place *p, const struct gguf_mem_opts *o,
	    uint64_t ngl, uint64_t budget, uint64_t *n_ctx,
	    struct gguf_mem_need *n, struct gguf_mem_split *s);

/* "20 of 32 layers (blk.12 to blk.31) and the output layer" */
void	gguf_mem_split_what(const struct gguf_mem_model *m,
	    const struct gguf_mem_split *s, char *buf, size_t len);

/*
 * The split for `ggufed mem --gpu-layers` and the browser: the rule's
 * outcome, the weights of each device, then one line a device a context
 * of ctx[0..n_ctx), and what is not counted. To fp.
 */
void	gguf_mem_split_write(FILE *fp, const struct gguf_mem_model *m,
	    const struct gguf_mem_place *p, const struct gguf_mem_opts *o,
	    uint64_t ngl, const uint64_t *ctx, size_t n_ctx);

#endif /* GGUF_MEM_SPLIT_H */
