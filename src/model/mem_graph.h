/*
 * mem_graph.h - a model of ggml's compute graphs and of its graph
 * allocator, for llama.cpp's compute buffer (mem_compute.c and the
 * builders beside it). See mem_graph.c.
 */
#ifndef GGUFED_MEM_GRAPH_H
#define GGUFED_MEM_GRAPH_H

#include <stddef.h>
#include <stdint.h>

#define ALIGN		32	/* the CPU buffer type's alignment */
#define MAX_SRC		8
#define T_F32		0	/* ggml type ids */
#define T_F16		1
#define T_I32		26
#define T_I64		27
#define EXT		0	/* the tensor standing for weights and cache */

enum kind {
	K_EXT,		/* allocated elsewhere: weights, the cache, writes
			   into the cache */
	K_INPUT,	/* a graph input, allocated first */
	K_VIEW,		/* view, reshape, permute: no room of its own */
	K_INPLACE,	/* may take its parent's place */
	K_PLAIN		/* allocated */
};

struct ct {
	enum kind	 kind;
	int		 type;
	uint64_t	 ne[4], nb[4];
	int		 output;
	int		 src[MAX_SRC], n_src;
	int		 view_src;	/* -1: none */
	uint64_t	 view_offs;
	/* the allocator's */
	int		 n_children, n_views, allocated;
	uint64_t	 addr;
};

struct block {
	uint64_t	 off, size;
};

struct graph {
	struct ct	*t;
	size_t		 n, cap;
	int		*leafs, *nodes;
	size_t		 n_leafs, n_nodes, cap_l, cap_n;
	int		 overflow;	/* a size beyond 2^62 */
	/* the allocator */
	struct block	*b;
	size_t		 n_b, cap_b;
	uint64_t	 max;
};

#define LIMIT	((uint64_t)1 << 62)

uint64_t	mg_mul_lim(struct graph *, uint64_t, uint64_t);
int		mg_add_tensor(struct graph *, enum kind, int, const uint64_t[4]);
int		mg_input(struct graph *, int, uint64_t, uint64_t, uint64_t);
int		mg_op4(struct graph *, enum kind, int, uint64_t, uint64_t,
		    uint64_t, uint64_t, int, int, int);
int		mg_op(struct graph *, enum kind, int, uint64_t, uint64_t,
		    uint64_t, int, int, int);
int		mg_view(struct graph *, int, uint64_t, uint64_t, uint64_t,
		    const uint64_t *);
int		mg_permute(struct graph *, int);
int		mg_cache_view(struct graph *, int, int, int);
uint64_t	mg_lay_out(struct graph *);
void		mg_free(struct graph *);

/* mem_compute_recurrent.c: the recurrent architectures' graphs.
   mc_recurrent_make reads m's sizes from d (1: the architecture is one
   of them, m->compute or m->cwhy set; 0: not one of them);
   mc_recurrent_compute is gguf_mem_compute for them. */
#define MC_RECURRENT	100	/* their graph kinds (c_kind) from here */
struct gguf_mem_model;
struct gguf_mem_opts;
struct gguf_mem_need;
struct gguf_doc;
int		mc_recurrent_make(struct gguf_mem_model *, struct gguf_doc *);
int		mc_recurrent_compute(const struct gguf_mem_model *,
		    const struct gguf_mem_opts *, const struct gguf_mem_need *,
		    uint64_t *, char *, size_t);

/* mem_compute.c, for the graphs' files: a tensor's shape (blk.IL.NAME
   where il >= 0; -1 absent), an unsigned key ARCH.KEY (1 if it is one),
   and m->cwhy set to "compute: not modelled for ARCH" and what fmt says
   (1). */
int		mc_tshape(struct gguf_doc *, int64_t, const char *, uint64_t[4]);
int		mc_key_u64(struct gguf_doc *, const char *, const char *,
		    uint64_t *);
int		mc_cnot(struct gguf_mem_model *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));

/* mem_compute_gemma.c: gemma3n's and gemma4's graphs, alike. */
#define MC_GEMMA	200	/* their graph kinds (c_kind) from here */
int		mc_gemma_make(struct gguf_mem_model *, struct gguf_doc *);
int		mc_gemma_compute(const struct gguf_mem_model *,
		    const struct gguf_mem_opts *, const struct gguf_mem_need *,
		    uint64_t *, char *, size_t);

/* mem_compute_deltanet.c: the gated delta-net hybrids' graphs, as
   mc_recurrent_make and mc_recurrent_compute. */
#define MC_DELTANET	300	/* their graph kinds (c_kind) from here */
int		mc_deltanet_make(struct gguf_mem_model *, struct gguf_doc *);
int		mc_deltanet_compute(const struct gguf_mem_model *,
		    const struct gguf_mem_opts *, const struct gguf_mem_need *,
		    uint64_t *, char *, size_t);

#endif
