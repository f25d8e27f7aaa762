/*
 * llama_mem.c - what llama.cpp itself allocates for a model's memory
 * (KV cache, recurrent state) at a given context, read from the library
 * while it creates a context: the proof for `ggufed mem`.
 *
 *	llama_mem LIBDIR MODEL [--ctx N] [--type-k T] [--type-v T]
 *	    [--parallel N] [--swa-full] [--unified] [--flash-attn -1|0|1]
 *	    [--ubatch N] [--batch N] [--graph]
 *
 * LIBDIR holds llama.cpp's prebuilt libraries (libllama, libggml,
 * libggml-base and the CPU backends) of the npm package
 * @node-llama-cpp/linux-x64 3.22.1; they are loaded with dlopen() and
 * only this program's own declarations of the few entry points it calls
 * are used (the structures as llama.h of that release lays them out,
 * checked against the library's defaults before use).
 *
 * Exact bytes: this program defines ggml_backend_alloc_ctx_tensors_from_buft
 * itself (and is linked with --export-dynamic), so llama.cpp's call to it
 * lands here first; every tensor of the context being allocated whose
 * name starts with "cache_" (cache_k_lN, cache_v_lN, cache_r_lN,
 * cache_s_lN) is printed with its type, shape and ggml_nbytes, then
 * ggml's own function does the allocation. Every buffer of more than 0
 * bytes allocated through ggml_backend_buft_alloc_buffer (the same way:
 * llama.cpp's output buffer is one, logged just after) is printed with
 * its size. llama.cpp reserves its compute buffer through
 * ggml_backend_sched_reserve, which this program defines too: a buffer
 * allocated meanwhile is printed as "compute" (the buffer only grows, so
 * the last is its size), and each reserve ends with "reserved"; with
 * --graph every graph reserved is printed first, leaf by leaf and node by
 * node, as ggml.h of the release lays its tensors out (ADDR its address,
 * VIEW that of the tensor it views, SRC those of its ten sources, (nil)
 * for none; DATA 1 if it has memory already), to compare a model of the
 * graph with. llama.cpp's log lines about its caches are printed too, as
 * it wrote them. Output, one record a line:
 *
 *	tensor NAME TYPE NE0 NE1 NE2 NE3 BYTES
 *	buffer BYTES
 *	compute BYTES
 *	reserved
 *	graph NODES nodes LEAFS leafs
 *	leaf|node I ADDR OP TYPE NE0..NE3 NB0..NB3 BYTES flags FLAGS
 *	    data DATA view VIEW OFFS name NAME srcs SRC0..SRC9
 *	log TEXT
 *	context ok | context failed
 *
 * Exit: 0 the context was created, 3 llama.cpp refused (the model or the
 * context), 4 the library is missing or its layout is not the expected one.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "llama_abi.h"

/* ggml's types, as far as this program needs them (opaque). */
struct ggml_context;
struct ggml_tensor;
typedef void *ggml_backend_buffer_type_t;
typedef void *ggml_backend_buffer_t;



static struct {
	struct ggml_tensor	*(*first)(const struct ggml_context *);
	struct ggml_tensor	*(*next)(const struct ggml_context *,
				    struct ggml_tensor *);
	const char		*(*name)(const struct ggml_tensor *);
	size_t			 (*nbytes)(const struct ggml_tensor *);
	const char		*(*type_name)(int);
	ggml_backend_buffer_t	 (*alloc)(struct ggml_context *,
				    ggml_backend_buffer_type_t);
	ggml_backend_buffer_t	 (*buft_alloc)(ggml_backend_buffer_type_t,
				    size_t);
	int			 (*sched_reserve)(void *, void *);
	const char		*(*op_desc)(const struct ggml_tensor *);
	int			 graph;		/* --graph */
	int			 reserving;	/* inside a scheduler reserve */
} g;

/*
 * The public ggml_tensor starts with its type, a buffer pointer and ne[4]
 * (int64_t); only those fields are read.
 */
struct tensor_head {
	int	 type;
	void	*buffer;
	int64_t	 ne[4];
};

ggml_backend_buffer_t ggml_backend_buft_alloc_buffer(
    ggml_backend_buffer_type_t buft, size_t size);

ggml_backend_buffer_t
ggml_backend_buft_alloc_buffer(ggml_backend_buffer_type_t buft, size_t size)
{
	if (size > 0)
		printf("%s %zu\n", g.reserving ? "compute" : "buffer", size);
	return g.buft_alloc(buft, size);
}

/*
 * ggml's tensor as ggml.h of the release lays it out, for --graph: the
 * fields read are checked against ggml_get_name and ggml_nbytes.
 */
struct tensor_full {
	int			 type;
	void			*buffer;
	int64_t			 ne[4];
	size_t			 nb[4];
	int			 op;
	int32_t			 op_params[16];
	int32_t			 flags;
	struct tensor_full	*src[10];
	struct tensor_full	*view_src;
	size_t			 view_offs;
	void			*data;
	char			 name[64];
};

/* ggml's graph: its size and counts, then nodes, grads, grad_accs, leafs. */
struct graph_head {
	int			 size, n_nodes, n_leafs;
	struct tensor_full	**nodes, **grads, **grad_accs, **leafs;
};

static void
dump_tensor(const char *kind, int i, struct tensor_full *t)
{
	int	j;

	printf("%s %d %p %s %s %lld %lld %lld %lld %zu %zu %zu %zu %zu "
	    "flags %d data %d view %p %zu name %s srcs", kind, i, (void *)t,
	    g.op_desc((struct ggml_tensor *)(void *)t),
	    g.type_name(t->type), (long long)t->ne[0], (long long)t->ne[1],
	    (long long)t->ne[2], (long long)t->ne[3], t->nb[0], t->nb[1],
	    t->nb[2], t->nb[3], g.nbytes((struct ggml_tensor *)(void *)t),
	    t->flags, t->data != NULL || t->buffer != NULL,
	    (void *)t->view_src, t->view_offs, t->name[0] != '\0' ?
	    t->name : "-");
	for (j = 0; j < 10; j++)
		printf(" %p", (void *)t->src[j]);
	printf("\n");
}

int ggml_backend_sched_reserve(void *sched, void *graph);

/*
 * llama.cpp reserves its compute buffer through the scheduler: what the
 * scheduler allocates meanwhile is the compute buffer ("compute BYTES"),
 * and with --graph every graph reserved is printed, leafs and nodes.
 */
int
ggml_backend_sched_reserve(void *sched, void *graph)
{
	const struct graph_head	*h = graph;
	int			 i, r;

	if (g.graph) {
		printf("graph %d nodes %d leafs\n", h->n_nodes, h->n_leafs);
		for (i = 0; i < h->n_leafs; i++)
			dump_tensor("leaf", i, h->leafs[i]);
		for (i = 0; i < h->n_nodes; i++)
			dump_tensor("node", i, h->nodes[i]);
	}
	g.reserving = 1;
	r = g.sched_reserve(sched, graph);
	g.reserving = 0;
	printf("reserved\n");
	return r;
}

ggml_backend_buffer_t ggml_backend_alloc_ctx_tensors_from_buft(
    struct ggml_context *ctx, ggml_backend_buffer_type_t buft);

ggml_backend_buffer_t
ggml_backend_alloc_ctx_tensors_from_buft(struct ggml_context *ctx,
    ggml_backend_buffer_type_t buft)
{
	struct ggml_tensor		*t;
	const struct tensor_head	*h;
	const char			*n;

	for (t = g.first(ctx); t != NULL; t = g.next(ctx, t)) {
		n = g.name(t);
		if (strncmp(n, "cache_", 6) != 0 || strchr(n, ' ') != NULL)
			continue;
		h = (const struct tensor_head *)(const void *)t;
		printf("tensor %s %s %lld %lld %lld %lld %zu\n", n,
		    g.type_name(h->type), (long long)h->ne[0],
		    (long long)h->ne[1], (long long)h->ne[2],
		    (long long)h->ne[3], g.nbytes(t));
	}
	return g.alloc(ctx, buft);
}

static char	logline[4096];

/* llama.cpp's log arrives in pieces; whole lines about memory are kept. */
static void
on_log(int level, const char *text, void *ud)
{
	size_t	n = strlen(logline), m = strlen(text);
	char	*nl;

	(void)level;
	(void)ud;
	if (n + m >= sizeof logline)
		m = sizeof logline - n - 1;
	memcpy(logline + n, text, m);
	logline[n + m] = '\0';
	while ((nl = strchr(logline, '\n')) != NULL) {
		*nl = '\0';
		if (strstr(logline, "KV") != NULL ||
		    strstr(logline, "RS buffer") != NULL ||
		    strstr(logline, "output buffer") != NULL ||
		    strstr(logline, "cells") != NULL ||
		    strstr(logline, "n_ctx") != NULL ||
		    strstr(logline, "swa") != NULL ||
		    strstr(logline, "failed") != NULL ||
		    strstr(logline, "error") != NULL ||
		    strstr(logline, "llama_memory") != NULL ||
		    strstr(logline, "requires") != NULL ||
		    strstr(logline, "divide") != NULL ||
		    strstr(logline, "does not support") != NULL)
			printf("log %s\n", logline);
		memmove(logline, nl + 1, strlen(nl + 1) + 1);
	}
}

/* ggml type ids of the cache types llama.cpp accepts. */
static int
cache_type(const char *s)
{
	static const struct { const char *n; int id; } t[] = {
		{ "f32", 0 }, { "f16", 1 }, { "q4_0", 2 }, { "q4_1", 3 },
		{ "q5_0", 6 }, { "q5_1", 7 }, { "q8_0", 8 },
		{ "iq4_nl", 20 }, { "bf16", 30 },
	};
	size_t	i;

	for (i = 0; i < sizeof t / sizeof t[0]; i++)
		if (strcmp(s, t[i].n) == 0)
			return t[i].id;
	return -1;
}

static void *
sym(void *h, const char *name)
{
	return la_sym("llama_mem", h, name);
}

int
main(int argc, char **argv)
{
	struct la_model_params		 mp;
	struct la_context_params	 cp;
	struct la_model_params		(*model_defaults)(void);
	struct la_context_params	(*context_defaults)(void);
	void	(*backend_init)(void);
	void	(*log_set)(la_log_cb, void *);
	void	(*load_all)(const char *);
	void	*(*model_load)(const char *, struct la_model_params);
	void	*(*ctx_init)(void *, struct la_context_params);
	void	(*ctx_free)(void *);
	void	(*model_free)(void *);
	void	*base, *ggml, *llama, *model, *ctx;
	int	 i;

	if (argc < 3) {
		fprintf(stderr, "usage: llama_mem LIBDIR MODEL [--ctx N] "
		    "[--type-k T] [--type-v T] [--parallel N] [--swa-full] "
		    "[--unified] [--flash-attn -1|0|1] [--ubatch N] "
		    "[--batch N] [--graph]\n");
		return 2;
	}
	base = la_open("llama_mem", argv[1], "libggml-base.so");
	ggml = la_open("llama_mem", argv[1], "libggml.v0.5.0.so");
	llama = la_open("llama_mem", argv[1], "libllama.v0.5.0.so");
	*(void **)&g.first = sym(base, "ggml_get_first_tensor");
	*(void **)&g.next = sym(base, "ggml_get_next_tensor");
	*(void **)&g.name = sym(base, "ggml_get_name");
	*(void **)&g.nbytes = sym(base, "ggml_nbytes");
	*(void **)&g.type_name = sym(base, "ggml_type_name");
	*(void **)&g.alloc = sym(base,
	    "ggml_backend_alloc_ctx_tensors_from_buft");
	*(void **)&g.buft_alloc = sym(base, "ggml_backend_buft_alloc_buffer");
	*(void **)&g.sched_reserve = sym(base, "ggml_backend_sched_reserve");
	*(void **)&g.op_desc = sym(base, "ggml_op_desc");
	*(void **)&load_all = sym(ggml, "ggml_backend_load_all_from_path");
	*(void **)&backend_init = sym(llama, "llama_backend_init");
	*(void **)&log_set = sym(llama, "llama_log_set");
	*(void **)&model_defaults = sym(llama, "llama_model_default_params");
	*(void **)&context_defaults = sym(llama,
	    "llama_context_default_params");
	*(void **)&model_load = sym(llama, "llama_model_load_from_file");
	*(void **)&ctx_init = sym(llama, "llama_init_from_model");
	*(void **)&ctx_free = sym(llama, "llama_free");
	*(void **)&model_free = sym(llama, "llama_model_free");

	/* Each line out as it is made: llama.cpp may abort after its cache. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	mp = model_defaults();
	cp = context_defaults();
	/* The layout check: the release's documented defaults. */
	if (!la_defaults_ok(&cp)) {
		fprintf(stderr, "llama_mem: the library's default parameters "
		    "are not those of the expected release\n");
		return 4;
	}
	/* llama.cpp's command-line tools default to a SWA cache of the window. */
	cp.swa_full = false;
	cp.n_ctx = 4096;
	cp.n_threads = cp.n_threads_batch = 1;
	for (i = 3; i < argc; i++) {
		if (strcmp(argv[i], "--ctx") == 0 && i + 1 < argc)
			cp.n_ctx = (uint32_t)strtoul(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "--parallel") == 0 && i + 1 < argc)
			cp.n_seq_max = (uint32_t)strtoul(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "--type-k") == 0 && i + 1 < argc)
			cp.type_k = cache_type(argv[++i]);
		else if (strcmp(argv[i], "--type-v") == 0 && i + 1 < argc)
			cp.type_v = cache_type(argv[++i]);
		else if (strcmp(argv[i], "--swa-full") == 0)
			cp.swa_full = true;
		else if (strcmp(argv[i], "--unified") == 0)
			cp.kv_unified = true;
		else if (strcmp(argv[i], "--flash-attn") == 0 && i + 1 < argc)
			cp.flash_attn_type = atoi(argv[++i]);
		else if (strcmp(argv[i], "--ubatch") == 0 && i + 1 < argc)
			cp.n_ubatch = (uint32_t)strtoul(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "--batch") == 0 && i + 1 < argc)
			cp.n_batch = (uint32_t)strtoul(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "--graph") == 0)
			g.graph = 1;
		else {
			fprintf(stderr, "llama_mem: bad argument %s\n",
			    argv[i]);
			return 2;
		}
	}
	if (cp.type_k < 0 || cp.type_v < 0) {
		fprintf(stderr, "llama_mem: unknown cache type\n");
		return 2;
	}
	log_set(on_log, NULL);
	load_all(argv[1]);
	backend_init();
	if ((model = model_load(argv[2], mp)) == NULL) {
		printf("model failed\n");
		return 3;
	}
	ctx = ctx_init(model, cp);
	printf("context %s\n", ctx != NULL ? "ok" : "failed");
	if (ctx != NULL)
		ctx_free(ctx);
	model_free(model);
	return ctx != NULL ? 0 : 3;
}
