/*
 * mem_compute.c - llama.cpp's compute buffer on the CPU (see mem.h): the
 * graphs llama.cpp reserves when it creates a context, laid out by a
 * model of ggml's graph allocator.
 *
 * What llama.cpp does (checked byte for byte against the library by
 * tests/interop/mem.sh, which records the buffer its scheduler allocates):
 *
 * - It reserves the prompt graph of n_ubatch tokens (min(n_ubatch,
 *   n_batch, n_ctx)), all of them outputs, then the one-token graph,
 *   then the prompt graph again, each over the whole cache (n_kv = the
 *   cells of a stream). The buffer grows to the largest of them.
 * - The allocator walks a graph's leafs, then its nodes, in the order
 *   ggml's depth-first expansion gives them. Inputs (tokens, positions,
 *   the cache's row indices, the attention mask, the output ids, and the
 *   embeddings input that no node reads) are placed first. A node is
 *   placed when it is reached: in its parent's place if its operation can
 *   work in place (add, mul, rms_norm, rope, soft_max, ...), the parent is
 *   the allocator's own, not an output, laid out alike and read by nothing
 *   else (through a view: the view at offset 0 of a tensor with no other
 *   view or reader); else in the smallest free block that fits (the last
 *   of equal ones), or at the end. Sizes are rounded up to the buffer's
 *   alignment (32 bytes on the CPU). A tensor is freed when its last
 *   reader (or the last reader of its last view) has run, and the freed
 *   block merges with its neighbours. Views, weights and the cache take
 *   no room. Outputs are never freed.
 * - The buffer is the high-water mark.
 *
 * The graph of llama's blocks (llm_build_llama, and llm_build_qwen2 and
 * llm_build_qwen3, which add to it biases after the Q, K and V
 * projections, or RMS norms of Q's and K's heads before RoPE): embeddings
 * by row; per block RMS norm, Q, K, V, RoPE on Q and K, K and V written
 * into the cache (seen as one stream where there are several); attention
 * by ggml's flash attention over the cache (F16 mask), or without it as
 * KQ, soft-max (F32 mask), KQV and a copy, each stream (parallel
 * sequence) its own slice of the tokens; the output projection; on the
 * last block the rows of the outputs; the residual; RMS norm and the
 * SwiGLU feed-forward; the residual; then the final norm and the logits,
 * both outputs (apertus's, llm_build_apertus: qwen3's with an up
 * projection and xIELU in place of SwiGLU; minimax-m2's,
 * llm_build_minimax_m2: norms of the whole Q and K, and experts, at
 * moe_sigmoid). The other graphs (gemma2 and gemma3, cohere2, gpt-oss)
 * are told at their builders.
 *
 * Only the tensors a graph is known to read are accepted: any other
 * tensor, a block unlike the others (heads, head sizes) or a cache kind
 * the graph does not have leaves the compute buffer "not modelled".
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "mem.h"
#include "schema.h"
#include "xmalloc.h"

#define ALIGN		32	/* the CPU buffer type's alignment */
#define MAX_SRC		4
#define T_F32		0	/* ggml type ids */
#define T_F16		1
#define T_I32		26
#define T_I64		27
#define EXT		0	/* the tensor standing for weights and cache */
#define C_BQ		0x01	/* a block's biases of Q, K, V */
#define C_BK		0x02
#define C_BV		0x04
#define C_QKNORM	0x08	/* RMS norms of Q's and K's heads */
#define C_POSTNORM	0x10	/* RMS norms after attention and FFN */
#define C_BO		0x20	/* the attention output's bias */
#define C_BR		0x40	/* the router's bias */
#define C_BEG		0x80	/* the experts' biases: gate, up, down */
#define C_BEU		0x100
#define C_BED		0x200
#define C_MMNORM	0x400	/* minimax-m2: norms and the router's bias */

enum graph_kind {
	G_LLAMA,	/* llm_build_llama, qwen2, qwen3 */
	G_GEMMA3,	/* llm_build_gemma3: sliding-window layers */
	G_GEMMA2,	/* llm_build_gemma2: and soft-capping, no norms of
			   the heads */
	G_COHERE2,	/* llm_build_cohere2_iswa: attention and FFN side by
			   side */
	G_GPTOSS,	/* llm_build_openai_moe_iswa: experts */
	G_APERTUS,	/* llm_build_apertus: qwen3's, an xIELU feed-forward */
	G_MINIMAX	/* llm_build_minimax_m2: norms of the whole Q and K,
			   experts routed by sigmoid */
};

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

static uint64_t
esize(int type)
{
	return type == T_F16 ? 2 : type == T_I64 ? 8 : 4;
}

static uint64_t
mul_lim(struct graph *g, uint64_t a, uint64_t b)
{
	if (a != 0 && b > LIMIT / a) {
		g->overflow = 1;
		return 1;
	}
	return a * b;
}

/* ggml_nbytes: the last byte's offset, plus one element. */
static uint64_t
nbytes(struct graph *g, const struct ct *t)
{
	uint64_t	n = esize(t->type);
	int		i;

	for (i = 0; i < 4; i++) {
		if (t->ne[i] == 0)
			return 0;
		n += mul_lim(g, t->ne[i] - 1, t->nb[i]);
	}
	return n > LIMIT ? (g->overflow = 1, 0) : n;
}

static int
add_tensor(struct graph *g, enum kind kind, int type, const uint64_t ne[4])
{
	struct ct	*t;
	int		 i;

	if (g->n == g->cap) {
		g->cap = g->cap ? g->cap * 2 : 256;
		g->t = xreallocarray(g->t, g->cap, sizeof *g->t);
	}
	t = &g->t[g->n];
	memset(t, 0, sizeof *t);
	t->kind = kind;
	t->type = type;
	t->view_src = -1;
	for (i = 0; i < MAX_SRC; i++)
		t->src[i] = -1;
	if (ne != NULL) {
		for (i = 0; i < 4; i++)
			t->ne[i] = ne[i];
		t->nb[0] = esize(type);
		for (i = 1; i < 4; i++)
			t->nb[i] = mul_lim(g, t->nb[i - 1], t->ne[i - 1]);
	}
	return (int)g->n++;
}

static void
push(int **v, size_t *n, size_t *cap, int x)
{
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 256;
		*v = xreallocarray(*v, *cap, sizeof **v);
	}
	(*v)[(*n)++] = x;
}

static int
input(struct graph *g, int type, uint64_t ne0, uint64_t ne1, uint64_t ne3)
{
	uint64_t	ne[4] = { ne0, ne1, 1, ne3 };
	int		i = add_tensor(g, K_INPUT, type, ne);

	push(&g->leafs, &g->n_leafs, &g->cap_l, i);
	return i;
}

/* A node of the graph, contiguous, from up to three sources. */
static int
op4(struct graph *g, enum kind kind, int type, uint64_t ne0, uint64_t ne1,
    uint64_t ne2, uint64_t ne3, int a, int b, int c)
{
	uint64_t	ne[4] = { ne0, ne1, ne2, ne3 };
	int		i = add_tensor(g, kind, type, ne);

	g->t[i].src[0] = a;
	g->t[i].src[1] = b;
	g->t[i].src[2] = c;
	g->t[i].n_src = c >= 0 ? 3 : b >= 0 ? 2 : 1;
	push(&g->nodes, &g->n_nodes, &g->cap_n, i);
	return i;
}

static int
op(struct graph *g, enum kind kind, int type, uint64_t ne0, uint64_t ne1,
    uint64_t ne2, int a, int b, int c)
{
	return op4(g, kind, type, ne0, ne1, ne2, 1, a, b, c);
}

/* A view of a (reshape when nb is NULL: contiguous). */
static int
view(struct graph *g, int a, uint64_t ne0, uint64_t ne1, uint64_t ne2,
    const uint64_t *nb)
{
	uint64_t	ne[4] = { ne0, ne1, ne2, 1 };
	int		i, type = g->t[a].type, j;
	struct ct	*t;

	i = add_tensor(g, K_VIEW, type, ne);
	t = &g->t[i];
	if (nb != NULL)
		for (j = 0; j < 4; j++)
			t->nb[j] = nb[j];
	t->src[0] = a;
	t->n_src = 1;
	t->view_src = g->t[a].view_src >= 0 ? g->t[a].view_src : a;
	t->view_offs = g->t[a].view_offs;
	push(&g->nodes, &g->n_nodes, &g->cap_n, i);
	return i;
}

/* ggml_permute(a, 0, 2, 1, 3): dimensions 1 and 2 swapped. */
static int
permute(struct graph *g, int a)
{
	uint64_t	nb[4];
	const struct ct	*s = &g->t[a];
	int		 i;

	nb[0] = s->nb[0];
	nb[1] = s->nb[2];
	nb[2] = s->nb[1];
	nb[3] = s->nb[3];
	i = view(g, a, s->ne[0], s->ne[2], s->ne[1], nb);
	g->t[i].ne[3] = g->t[a].ne[3];
	return i;
}

/* A view of the cache (or a write into it): no room, no layout needed. */
static int
cache_view(struct graph *g, int a, int b, int c)
{
	int	i = op(g, K_EXT, T_F16, 1, 1, 1, a, b, c);

	if (a == EXT) {		/* a view of the cache itself */
		g->t[i].kind = K_VIEW;
		g->t[i].view_src = EXT;
	}
	return i;
}

/* ------------------------------------------------------- the allocator */

static uint64_t
pad(uint64_t x)
{
	return (x + ALIGN - 1) / ALIGN * ALIGN;
}

static void
remove_block(struct graph *g, size_t i)
{
	memmove(&g->b[i], &g->b[i + 1], (g->n_b - i - 1) * sizeof *g->b);
	g->n_b--;
}

static uint64_t
block_alloc(struct graph *g, uint64_t size)
{
	size_t		i, best = g->n_b - 1;
	uint64_t	best_size = UINT64_MAX, off;

	size = pad(size);
	/* The best fit of the blocks before the last, the last of equals. */
	for (i = 0; i + 1 < g->n_b; i++)
		if (g->b[i].size >= size && g->b[i].size <= best_size) {
			best = i;
			best_size = g->b[i].size;
		}
	off = g->b[best].off;
	g->b[best].off += size;
	g->b[best].size -= size;
	if (g->b[best].size == 0)
		remove_block(g, best);
	if (off + size > g->max)
		g->max = off + size;
	return off;
}

static void
block_free(struct graph *g, uint64_t off, uint64_t size)
{
	size_t	i;

	size = pad(size);
	for (i = 0; i < g->n_b; i++) {
		if (g->b[i].off + g->b[i].size == off) {
			g->b[i].size += size;
			if (i + 1 < g->n_b &&
			    g->b[i].off + g->b[i].size == g->b[i + 1].off) {
				g->b[i].size += g->b[i + 1].size;
				remove_block(g, i + 1);
			}
			return;
		}
		if (off + size == g->b[i].off) {
			g->b[i].off = off;
			g->b[i].size += size;
			if (i > 0 && g->b[i - 1].off + g->b[i - 1].size ==
			    g->b[i].off) {
				g->b[i - 1].size += g->b[i].size;
				remove_block(g, i);
			}
			return;
		}
	}
	if (g->n_b == g->cap_b) {
		g->cap_b *= 2;
		g->b = xreallocarray(g->b, g->cap_b, sizeof *g->b);
	}
	for (i = 0; i < g->n_b && g->b[i].off < off; i++)
		;
	memmove(&g->b[i + 1], &g->b[i], (g->n_b - i) * sizeof *g->b);
	g->b[i].off = off;
	g->b[i].size = size;
	g->n_b++;
}

static int
same_layout(const struct ct *a, const struct ct *b)
{
	return a->type == b->type && memcmp(a->ne, b->ne, sizeof a->ne) == 0 &&
	    memcmp(a->nb, b->nb, sizeof a->nb) == 0;
}

/* The tail of the parent's block the node does not need. */
static void
free_extra(struct graph *g, const struct ct *node, const struct ct *parent)
{
	uint64_t	ps = pad(nbytes(g, parent)), ns = pad(nbytes(g, node));

	if (ps > ns)
		block_free(g, parent->addr + ns, ps - ns);
}

static void
allocate(struct graph *g, int i)
{
	struct ct	*t = &g->t[i], *p, *v;
	int		 j;

	if (t->kind == K_EXT || t->kind == K_VIEW || t->allocated)
		return;
	t->allocated = 1;
	for (j = 0; t->kind == K_INPLACE && j < t->n_src; j++) {
		if (t->src[j] < 0)
			continue;
		p = &g->t[t->src[j]];
		if (!p->allocated || p->output ||
		    (p->view_src >= 0 && g->t[p->view_src].output) ||
		    !same_layout(t, p) || p->n_children != 1 ||
		    p->n_views != 0)
			continue;
		if (p->kind == K_VIEW) {
			v = &g->t[p->view_src];
			if (v->n_views == 1 && v->n_children == 0 &&
			    p->view_offs == 0) {
				t->addr = v->addr;
				p->allocated = v->allocated = 0;
				free_extra(g, t, v);
				return;
			}
		} else {
			t->addr = p->addr;
			p->allocated = 0;
			free_extra(g, t, p);
			return;
		}
	}
	t->addr = block_alloc(g, nbytes(g, t));
}

static void
release(struct graph *g, struct ct *t)
{
	if (t->output)
		return;
	block_free(g, t->addr, nbytes(g, t));
	t->allocated = 0;
}

/* The high-water mark of the graph's allocation. */
static uint64_t
lay_out(struct graph *g)
{
	size_t		 i;
	int		 j;
	struct ct	*n, *p, *v;

	g->n_b = 1;
	g->cap_b = 16;
	g->b = xcalloc(g->cap_b, sizeof *g->b);
	g->b[0].off = 0;
	g->b[0].size = LIMIT;
	g->max = 0;
	for (i = 0; i < g->n_leafs; i++)
		allocate(g, g->leafs[i]);
	for (i = 0; i < g->n_nodes; i++) {
		n = &g->t[g->nodes[i]];
		if (n->kind == K_VIEW)
			g->t[n->view_src].n_views++;
		for (j = 0; j < n->n_src; j++)
			if (n->src[j] >= 0)
				g->t[n->src[j]].n_children++;
	}
	for (i = 0; i < g->n_nodes; i++) {
		n = &g->t[g->nodes[i]];
		for (j = 0; j < n->n_src; j++)
			if (n->src[j] >= 0)
				allocate(g, n->src[j]);
		allocate(g, g->nodes[i]);
		for (j = 0; j < n->n_src; j++) {
			if (n->src[j] < 0)
				continue;
			p = &g->t[n->src[j]];
			if (--p->n_children != 0 || p->n_views != 0)
				continue;
			if (p->kind == K_VIEW) {
				v = &g->t[p->view_src];
				if (--v->n_views == 0 && v->n_children == 0 &&
				    v->allocated)
					release(g, v);
			} else if (p->allocated)
				release(g, p);
		}
	}
	free(g->b);
	return g->max;
}

/* ---------------------------------------------------------- the graphs */

struct shape {
	uint64_t	 embd, out, head, head_kv, hk, hv;
	const uint64_t	*ff;
	const uint16_t	*flags;		/* C_*, per block */
	uint64_t	 n_exp, n_used;	/* experts, those used a token */
	uint32_t	 n_layer;
	enum graph_kind	 kind;
	const unsigned char *swa;	/* per block: a sliding window */
	uint64_t	 n_kv;		/* cells of a stream */
	uint64_t	 n_kv_swa;	/* cells of a stream, sliding layers */
	uint64_t	 ns;		/* streams */
	int		 fa;
};

/*
 * K and V of T tokens into the cache, then the attention of q over the
 * cache's n_kv cells a stream (the inputs: the rows of K and V, the
 * mask): its output, of the heads' values a token.
 */
static int
attention(struct graph *g, const struct shape *s, uint64_t T, int q, int k,
    int v, int kidx, int vidx, int mask, uint64_t n_kv)
{
	uint64_t	ekv = s->hk * s->head_kv, evv = s->hv * s->head_kv;
	uint64_t	ts = T / s->ns, ns = s->ns;
	int		kq, kqv, a, j;

	k = view(g, k, ekv, T, 1, NULL);
	/* K into the cache (seen as one stream) */
	cache_view(g, k, kidx, ns > 1 ? cache_view(g, EXT, -1, -1) :
	    EXT);
	if (s->fa) {
		v = view(g, v, evv, T, 1, NULL);
		cache_view(g, v, vidx, ns > 1 ? cache_view(g, EXT, -1,
		    -1) : EXT);
		q = permute(g, view(g, q, s->hk, s->head, T, NULL));
		k = permute(g, cache_view(g, EXT, -1, -1));
		v = permute(g, cache_view(g, EXT, -1, -1));
		a = op4(g, K_PLAIN, T_F32, s->hv, s->head, ts, ns, q, k,
		    v);
		g->t[a].src[3] = mask;
		g->t[a].n_src = 4;
		a = view(g, a, s->hv * s->head, T, 1, NULL);
	} else {
		v = view(g, v, evv, T, 1, NULL);
		v = view(g, v, 1, mul_lim(g, T, evv), 1, NULL);
		cache_view(g, v, vidx, cache_view(g, EXT, -1, -1));
		v = permute(g, cache_view(g, EXT, -1, -1));
		k = permute(g, cache_view(g, EXT, -1, -1));
		q = permute(g, view(g, q, s->hk, s->head, T, NULL));
		kq = op4(g, K_PLAIN, T_F32, n_kv, ts, s->head, ns,
		    k, q, -1);
		/* soft-capping: scaled, tanh, scaled back */
		for (j = 0; s->kind == G_GEMMA2 && j < 3; j++)
			kq = op4(g, K_INPLACE, T_F32, n_kv, ts, s->head, ns,
			    kq, -1, -1);
		kq = op4(g, K_INPLACE, T_F32, n_kv, ts, s->head, ns,
		    kq, mask, -1);
		kqv = op4(g, K_PLAIN, T_F32, s->hv, ts, s->head, ns, v,
		    kq, -1);
		kqv = permute(g, kqv);
		a = op(g, K_PLAIN, T_F32, s->hv * s->head, T, 1, kqv,
		    -1, -1);
	}
	return a;
}

/*
 * minimax-m2's experts over t (T tokens), then the residual a: the
 * router's logits through a sigmoid, biased to rank them (the weights
 * unbiased), the n_used first weights normalized by their sum; gate and
 * up, SwiGLU, down, weighted, summed.
 */
static int
moe_sigmoid(struct graph *g, const struct shape *s, uint32_t il, uint64_t T,
    int t, int a)
{
	uint64_t	nu = s->n_used, nb[4], j;
	int		lg, pr, tk, wt, sum, cr, q, up, e, k, v;

	lg = op(g, K_PLAIN, T_F32, s->n_exp, T, 1, EXT, t, -1);
	lg = op(g, K_INPLACE, T_F32, s->n_exp, T, 1, lg, -1, -1);
	pr = view(g, lg, 1, s->n_exp, T, NULL);
	tk = op(g, K_INPLACE, T_F32, s->n_exp, T, 1, lg, EXT, -1);
	tk = op(g, K_PLAIN, T_I32, s->n_exp, T, 1, tk, -1, -1);
	memcpy(nb, g->t[tk].nb, sizeof nb);
	tk = view(g, tk, nu, T, 1, nb);
	wt = op(g, K_PLAIN, T_F32, 1, nu, T, pr, tk, -1);
	wt = view(g, wt, nu, T, 1, NULL);
	sum = op(g, K_PLAIN, T_F32, 1, T, 1, wt, -1, -1);
	sum = op(g, K_INPLACE, T_F32, 1, T, 1, sum, -1, -1);
	wt = op(g, K_INPLACE, T_F32, nu, T, 1, wt, sum, -1);
	wt = view(g, wt, 1, nu, T, NULL);
	cr = view(g, t, s->embd, 1, T, NULL);
	q = op(g, K_PLAIN, T_F32, s->ff[il], nu, T, EXT, cr, tk);
	up = op(g, K_PLAIN, T_F32, s->ff[il], nu, T, EXT, cr, tk);
	e = op(g, K_PLAIN, T_F32, s->ff[il], nu, T, q, up, -1);
	e = op(g, K_PLAIN, T_F32, s->embd, nu, T, EXT, e, tk);
	e = op(g, K_INPLACE, T_F32, s->embd, nu, T, e, wt, -1);
	memcpy(nb, g->t[e].nb, sizeof nb);
	nb[1] = g->t[e].nb[2];
	nb[2] = nb[3] = nb[1] * T;
	q = view(g, e, s->embd, T, 1, nb);
	if (nu == 1)
		q = op(g, K_PLAIN, T_F32, s->embd, T, 1, q, -1, -1);
	else {
		k = view(g, e, s->embd, T, 1, nb);
		g->t[k].view_offs = g->t[e].nb[1];
		for (j = 2; j < nu; j++) {
			v = view(g, e, s->embd, T, 1, nb);
			g->t[v].view_offs = j * g->t[e].nb[1];
		}
		q = op(g, K_INPLACE, T_F32, s->embd, T, 1, q, k, -1);
		for (j = 2; j < nu; j++)
			q = op(g, K_INPLACE, T_F32, s->embd, T, 1, q,
			    k + (int)(j - 1), -1);
	}
	return op(g, K_INPLACE, T_F32, s->embd, T, 1, q, a, -1);
}

/*
 * llm_build_llama's graph of T tokens (a multiple of the streams, T / ns
 * each), rows of them outputs.
 */
static void
build_llama(struct graph *g, const struct shape *s, uint64_t T,
    uint64_t rows)
{
	uint64_t	ekv = s->hk * s->head_kv, evv = s->hv * s->head_kv;
	uint64_t	nq = s->hk * s->head, ts = T / s->ns, ns = s->ns;
	int		tok, pos, kidx, vidx, mask, out, x, in_sa, t, q, k,
			v, a;
	uint32_t	il;
	unsigned	f;

	add_tensor(g, K_EXT, T_F32, NULL);		/* EXT */
	tok = input(g, T_I32, T, 1, 1);
	input(g, T_F32, s->embd, T, 1);		/* embeddings, unread */
	pos = input(g, T_I32, T, 1, 1);
	kidx = input(g, T_I64, T, 1, 1);
	vidx = input(g, T_I64, s->fa ? T : mul_lim(g, T, evv), 1, 1);
	mask = input(g, s->fa ? T_F16 : T_F32, s->n_kv, ts, ns);
	out = input(g, T_I32, rows, 1, 1);
	x = op(g, K_PLAIN, T_F32, s->embd, T, 1, EXT, tok, -1);
	for (il = 0; il < s->n_layer; il++) {
		in_sa = x;
		t = op(g, K_INPLACE, T_F32, s->embd, T, 1, x, -1, -1);
		t = op(g, K_INPLACE, T_F32, s->embd, T, 1, t, EXT, -1);
		f = s->flags[il];
		q = op(g, K_PLAIN, T_F32, nq, T, 1, EXT, t, -1);
		if (f & C_BQ)
			q = op(g, K_INPLACE, T_F32, nq, T, 1, q, EXT, -1);
		if (s->kind == G_MINIMAX) {	/* norm of the whole Q */
			q = op(g, K_INPLACE, T_F32, nq, T, 1, q, -1, -1);
			q = op(g, K_INPLACE, T_F32, nq, T, 1, q, EXT, -1);
		}
		q = view(g, q, s->hk, s->head, T, NULL);
		if (f & C_QKNORM) {
			q = op(g, K_INPLACE, T_F32, s->hk, s->head, T, q, -1,
			    -1);
			q = op(g, K_INPLACE, T_F32, s->hk, s->head, T, q, EXT,
			    -1);
		}
		q = op(g, K_INPLACE, T_F32, s->hk, s->head, T, q, pos, -1);
		v = op(g, K_PLAIN, T_F32, evv, T, 1, EXT, t, -1);
		if (f & C_BV)
			v = op(g, K_INPLACE, T_F32, evv, T, 1, v, EXT, -1);
		v = view(g, v, s->hv, s->head_kv, T, NULL);
		k = op(g, K_PLAIN, T_F32, ekv, T, 1, EXT, t, -1);
		if (f & C_BK)
			k = op(g, K_INPLACE, T_F32, ekv, T, 1, k, EXT, -1);
		if (s->kind == G_MINIMAX) {	/* norm of the whole K */
			k = op(g, K_INPLACE, T_F32, ekv, T, 1, k, -1, -1);
			k = op(g, K_INPLACE, T_F32, ekv, T, 1, k, EXT, -1);
		}
		k = view(g, k, s->hk, s->head_kv, T, NULL);
		if (f & C_QKNORM) {
			k = op(g, K_INPLACE, T_F32, s->hk, s->head_kv, T, k,
			    -1, -1);
			k = op(g, K_INPLACE, T_F32, s->hk, s->head_kv, T, k,
			    EXT, -1);
		}
		k = op(g, K_INPLACE, T_F32, s->hk, s->head_kv, T, k, pos, -1);
		a = attention(g, s, T, q, k, v, kidx, vidx, mask, s->n_kv);
		a = op(g, K_PLAIN, T_F32, s->embd, T, 1, EXT, a, -1);
		if (il + 1 == s->n_layer) {		/* the outputs' rows */
			a = op(g, K_PLAIN, T_F32, s->embd, rows, 1, a, out, -1);
			in_sa = op(g, K_PLAIN, T_F32, s->embd, rows, 1, in_sa,
			    out, -1);
			T = rows;
		}
		a = op(g, K_INPLACE, T_F32, s->embd, T, 1, a, in_sa, -1);
		t = op(g, K_INPLACE, T_F32, s->embd, T, 1, a, -1, -1);
		t = op(g, K_INPLACE, T_F32, s->embd, T, 1, t, EXT, -1);
		if (s->kind == G_MINIMAX) {
			x = moe_sigmoid(g, s, il, T, t, a);
			continue;
		}
		if (s->kind == G_APERTUS) {	/* up, xIELU (in place) */
			t = op(g, K_PLAIN, T_F32, s->ff[il], T, 1, EXT, t, -1);
			t = op(g, K_INPLACE, T_F32, s->ff[il], T, 1, t, -1,
			    -1);
		} else {			/* gate, up, SwiGLU */
			q = op(g, K_PLAIN, T_F32, s->ff[il], T, 1, EXT, t, -1);
			k = op(g, K_PLAIN, T_F32, s->ff[il], T, 1, EXT, t, -1);
			t = op(g, K_PLAIN, T_F32, s->ff[il], T, 1, q, k, -1);
		}
		t = op(g, K_PLAIN, T_F32, s->embd, T, 1, EXT, t, -1);
		x = op(g, K_INPLACE, T_F32, s->embd, T, 1, t, a, -1);
	}
	t = op(g, K_INPLACE, T_F32, s->embd, T, 1, x, -1, -1);
	t = op(g, K_INPLACE, T_F32, s->embd, T, 1, t, EXT, -1);
	g->t[t].output = 1;
	t = op(g, K_PLAIN, T_F32, s->out, T, 1, EXT, t, -1);
	g->t[t].output = 1;
}

/*
 * The inputs of a graph whose blocks attend over two caches, the
 * sliding-window one and the full one (swa[il] picks): the weights'
 * stand-in EXT, tokens, the embeddings input no node reads, positions,
 * then each cache's row indices and mask, made in the order the blocks
 * first read them, and the outputs' ids.
 */
static void
inputs_iswa(struct graph *g, const struct shape *s, uint64_t T,
    uint64_t rows, int *tok, int *pos, int kidx[2], int vidx[2],
    int mask[2], int *out)
{
	uint64_t	evv = s->hv * s->head_kv, ts = T / s->ns, ns = s->ns;
	uint32_t	il;
	int		w;

	add_tensor(g, K_EXT, T_F32, NULL);		/* EXT */
	*tok = input(g, T_I32, T, 1, 1);
	input(g, T_F32, s->embd, T, 1);		/* embeddings, unread */
	*pos = input(g, T_I32, T, 1, 1);
	kidx[0] = kidx[1] = vidx[0] = vidx[1] = mask[0] = mask[1] = -1;
	for (il = 0; il < s->n_layer; il++) {
		w = s->swa[il] != 0;
		if (kidx[w] >= 0)
			continue;
		kidx[w] = input(g, T_I64, T, 1, 1);
		vidx[w] = input(g, T_I64, s->fa ? T : mul_lim(g, T, evv), 1,
		    1);
		mask[w] = input(g, s->fa ? T_F16 : T_F32, w ? s->n_kv_swa :
		    s->n_kv, ts, ns);
	}
	*out = input(g, T_I32, rows, 1, 1);
}

/*
 * llm_build_gemma3's graph: the embeddings scaled; per block RMS norm, Q
 * and K with RMS norms of their heads, RoPE, Q scaled, V; attention over
 * the sliding-window cache or the full one, each with inputs of its own
 * (made in the order the blocks first read them); RMS norm after it, the
 * residual; RMS norm, the GeGLU feed-forward, RMS norm after it, the
 * residual.
 */
static void
build_gemma3(struct graph *g, const struct shape *s, uint64_t T,
    uint64_t rows)
{
	uint64_t	ekv = s->hk * s->head_kv, evv = s->hv * s->head_kv;
	uint64_t	nq = s->hk * s->head;
	int		tok, pos, kidx[2], vidx[2], mask[2], out, x, in, t, q,
			k, v, a, w;
	uint32_t	il;
	size_t		j;

	inputs_iswa(g, s, T, rows, &tok, &pos, kidx, vidx, mask, &out);
	x = op(g, K_PLAIN, T_F32, s->embd, T, 1, EXT, tok, -1);
	x = op(g, K_INPLACE, T_F32, s->embd, T, 1, x, -1, -1);
	for (il = 0; il < s->n_layer; il++) {
		w = s->swa[il] != 0;
		in = x;
		t = op(g, K_INPLACE, T_F32, s->embd, T, 1, x, -1, -1);
		t = op(g, K_INPLACE, T_F32, s->embd, T, 1, t, EXT, -1);
		q = op(g, K_PLAIN, T_F32, nq, T, 1, EXT, t, -1);
		q = view(g, q, s->hk, s->head, T, NULL);
		/* gemma3: norm, its weight; RoPE, scale */
		for (j = s->kind == G_GEMMA2 ? 2 : 0; j < 4; j++)
			q = op(g, K_INPLACE, T_F32, s->hk, s->head, T, q,
			    j == 1 ? EXT : j == 2 ? pos : -1, -1);
		k = op(g, K_PLAIN, T_F32, ekv, T, 1, EXT, t, -1);
		k = view(g, k, s->hk, s->head_kv, T, NULL);
		for (j = s->kind == G_GEMMA2 ? 2 : 0; j < 3; j++)
			k = op(g, K_INPLACE, T_F32, s->hk, s->head_kv, T, k,
			    j == 1 ? EXT : j == 2 ? pos : -1, -1);
		v = op(g, K_PLAIN, T_F32, evv, T, 1, EXT, t, -1);
		v = view(g, v, s->hv, s->head_kv, T, NULL);
		a = attention(g, s, T, q, k, v, kidx[w], vidx[w], mask[w],
		    w ? s->n_kv_swa : s->n_kv);
		a = op(g, K_PLAIN, T_F32, s->embd, T, 1, EXT, a, -1);
		if (il + 1 == s->n_layer)		/* the outputs' rows */
			a = op(g, K_PLAIN, T_F32, s->embd, rows, 1, a, out, -1);
		if (il + 1 == s->n_layer) {
			T = rows;
			a = op(g, K_INPLACE, T_F32, s->embd, T, 1, a, -1, -1);
			a = op(g, K_INPLACE, T_F32, s->embd, T, 1, a, EXT, -1);
			in = op(g, K_PLAIN, T_F32, s->embd, T, 1, in, out, -1);
		} else {
			a = op(g, K_INPLACE, T_F32, s->embd, T, 1, a, -1, -1);
			a = op(g, K_INPLACE, T_F32, s->embd, T, 1, a, EXT, -1);
		}
		a = op(g, K_INPLACE, T_F32, s->embd, T, 1, a, in, -1);
		t = op(g, K_INPLACE, T_F32, s->embd, T, 1, a, -1, -1);
		t = op(g, K_INPLACE, T_F32, s->embd, T, 1, t, EXT, -1);
		q = op(g, K_PLAIN, T_F32, s->ff[il], T, 1, EXT, t, -1);
		k = op(g, K_PLAIN, T_F32, s->ff[il], T, 1, EXT, t, -1);
		t = op(g, K_PLAIN, T_F32, s->ff[il], T, 1, q, k, -1);
		t = op(g, K_PLAIN, T_F32, s->embd, T, 1, EXT, t, -1);
		t = op(g, K_INPLACE, T_F32, s->embd, T, 1, t, -1, -1);
		t = op(g, K_INPLACE, T_F32, s->embd, T, 1, t, EXT, -1);
		x = op(g, K_INPLACE, T_F32, s->embd, T, 1, t, a, -1);
	}
	t = op(g, K_INPLACE, T_F32, s->embd, T, 1, x, -1, -1);
	t = op(g, K_INPLACE, T_F32, s->embd, T, 1, t, EXT, -1);
	g->t[t].output = 1;
	t = op(g, K_PLAIN, T_F32, s->out, T, 1, EXT, t, -1);
	/* gemma2: the logits soft-capped */
	for (j = 0; s->kind == G_GEMMA2 && j < 3; j++)
		t = op(g, K_INPLACE, T_F32, s->out, T, 1, t, -1, -1);
	g->t[t].output = 1;
}

/*
 * llm_build_cohere2_iswa's graph: per block a layer norm (no room of the
 * input's: ggml's norm does not work in place); Q, K and V, RoPE on the
 * sliding-window blocks only; the attention; then the SwiGLU
 * feed-forward of the same normed input, plus the input, plus the
 * attention's output projection. The logits scaled.
 */
static void
build_cohere2(struct graph *g, const struct shape *s, uint64_t T,
    uint64_t rows)
{
	uint64_t	ekv = s->hk * s->head_kv, evv = s->hv * s->head_kv;
	uint64_t	nq = s->hk * s->head, ts = T / s->ns, ns = s->ns;
	int		tok, pos, kidx[2], vidx[2], mask[2], out, x, in, t, q,
			k, v, a, w, up;
	uint32_t	il;

	inputs_iswa(g, s, T, rows, &tok, &pos, kidx, vidx, mask, &out);
	x = op(g, K_PLAIN, T_F32, s->embd, T, 1, EXT, tok, -1);
	for (il = 0; il < s->n_layer; il++) {
		w = s->swa[il] != 0;
		in = x;
		t = op(g, K_PLAIN, T_F32, s->embd, T, 1, x, -1, -1);
		t = op(g, K_INPLACE, T_F32, s->embd, T, 1, t, EXT, -1);
		q = op(g, K_PLAIN, T_F32, nq, T, 1, EXT, t, -1);
		q = view(g, q, s->hk, s->head, T, NULL);
		if (w)
			q = op(g, K_INPLACE, T_F32, s->hk, s->head, T, q, pos,
			    -1);
		k = op(g, K_PLAIN, T_F32, ekv, T, 1, EXT, t, -1);
		k = view(g, k, s->hk, s->head_kv, T, NULL);
		if (w)
			k = op(g, K_INPLACE, T_F32, s->hk, s->head_kv, T, k,
			    pos, -1);
		v = op(g, K_PLAIN, T_F32, evv, T, 1, EXT, t, -1);
		v = view(g, v, s->hv, s->head_kv, T, NULL);
		a = attention(g, s, T, q, k, v, kidx[w], vidx[w], mask[w],
		    w ? s->n_kv_swa : s->n_kv);
		if (il + 1 == s->n_layer) {		/* the outputs' rows */
			t = op(g, K_PLAIN, T_F32, s->embd, rows, 1, t, out, -1);
			T = rows;
		}
		q = op(g, K_PLAIN, T_F32, s->ff[il], T, 1, EXT, t, -1);
		up = op(g, K_PLAIN, T_F32, s->ff[il], T, 1, EXT, t, -1);
		t = op(g, K_PLAIN, T_F32, s->ff[il], T, 1, q, up, -1);
		t = op(g, K_PLAIN, T_F32, s->embd, T, 1, EXT, t, -1);
		if (il + 1 == s->n_layer)
			in = op(g, K_PLAIN, T_F32, s->embd, T, 1, in, out, -1);
		t = op(g, K_INPLACE, T_F32, s->embd, T, 1, t, in, -1);
		a = op(g, K_PLAIN, T_F32, s->embd, il + 1 == s->n_layer ?
		    ts * ns : T, 1, EXT, a, -1);
		if (il + 1 == s->n_layer)
			a = op(g, K_PLAIN, T_F32, s->embd, T, 1, a, out, -1);
		x = op(g, K_INPLACE, T_F32, s->embd, T, 1, t, a, -1);
	}
	t = op(g, K_PLAIN, T_F32, s->embd, T, 1, x, -1, -1);
	t = op(g, K_INPLACE, T_F32, s->embd, T, 1, t, EXT, -1);
	g->t[t].output = 1;
	t = op(g, K_PLAIN, T_F32, s->out, T, 1, EXT, t, -1);
	t = op(g, K_INPLACE, T_F32, s->out, T, 1, t, -1, -1);
	g->t[t].output = 1;
}

/*
 * llm_build_openai_moe_iswa's graph (gpt-oss): llama's attention with
 * biases, sinks (no node of their own) and sliding-window layers; RMS
 * norm after it; the router (its logits, their ranks, the weights of the
 * n_used first, soft-maxed) and the experts (gate, up, SwiGLU, down, each
 * with its bias, weighted), whose outputs are summed; the residual. The
 * last block's output is an output of the graph, its rows taken after it.
 */
static void
build_gptoss(struct graph *g, const struct shape *s, uint64_t T,
    uint64_t rows)
{
	uint64_t	ekv = s->hk * s->head_kv, evv = s->hv * s->head_kv;
	uint64_t	nq = s->hk * s->head;
	uint64_t	nu = s->n_used, nb[4];
	int		tok, pos, kidx[2], vidx[2], mask[2], out, x, in, t, q,
			k, v, a, w, lg, pr, tk, wt, cr, up, e;
	uint32_t	il;
	unsigned	f;
	uint64_t	j;

	inputs_iswa(g, s, T, rows, &tok, &pos, kidx, vidx, mask, &out);
	x = op(g, K_PLAIN, T_F32, s->embd, T, 1, EXT, tok, -1);
	for (il = 0; il < s->n_layer; il++) {
		w = s->swa[il] != 0;
		f = s->flags[il];
		in = x;
		t = op(g, K_INPLACE, T_F32, s->embd, T, 1, x, -1, -1);
		t = op(g, K_INPLACE, T_F32, s->embd, T, 1, t, EXT, -1);
		q = op(g, K_PLAIN, T_F32, nq, T, 1, EXT, t, -1);
		if (f & C_BQ)
			q = op(g, K_INPLACE, T_F32, nq, T, 1, q, EXT, -1);
		q = view(g, q, s->hk, s->head, T, NULL);
		q = op(g, K_INPLACE, T_F32, s->hk, s->head, T, q, pos, -1);
		k = op(g, K_PLAIN, T_F32, ekv, T, 1, EXT, t, -1);
		if (f & C_BK)
			k = op(g, K_INPLACE, T_F32, ekv, T, 1, k, EXT, -1);
		k = view(g, k, s->hk, s->head_kv, T, NULL);
		k = op(g, K_INPLACE, T_F32, s->hk, s->head_kv, T, k, pos, -1);
		v = op(g, K_PLAIN, T_F32, evv, T, 1, EXT, t, -1);
		if (f & C_BV)
			v = op(g, K_INPLACE, T_F32, evv, T, 1, v, EXT, -1);
		v = view(g, v, s->hv, s->head_kv, T, NULL);
		a = attention(g, s, T, q, k, v, kidx[w], vidx[w], mask[w],
		    w ? s->n_kv_swa : s->n_kv);
		a = op(g, K_PLAIN, T_F32, s->embd, T, 1, EXT, a, -1);
		if (f & C_BO)
			a = op(g, K_INPLACE, T_F32, s->embd, T, 1, a, EXT, -1);
		a = op(g, K_INPLACE, T_F32, s->embd, T, 1, a, in, -1);
		t = op(g, K_INPLACE, T_F32, s->embd, T, 1, a, -1, -1);
		t = op(g, K_INPLACE, T_F32, s->embd, T, 1, t, EXT, -1);
		/* the router */
		lg = op(g, K_PLAIN, T_F32, s->n_exp, T, 1, EXT, t, -1);
		if (f & C_BR)
			lg = op(g, K_INPLACE, T_F32, s->n_exp, T, 1, lg, EXT,
			    -1);
		pr = view(g, lg, 1, s->n_exp, T, NULL);
		tk = op(g, K_PLAIN, T_I32, s->n_exp, T, 1, lg, -1, -1);
		memcpy(nb, g->t[tk].nb, sizeof nb);
		tk = view(g, tk, nu, T, 1, nb);
		wt = op(g, K_PLAIN, T_F32, 1, nu, T, pr, tk, -1);
		wt = view(g, wt, nu, T, 1, NULL);
		wt = op(g, K_INPLACE, T_F32, nu, T, 1, wt, -1, -1);
		wt = view(g, wt, 1, nu, T, NULL);
		/* the experts */
		cr = view(g, t, s->embd, 1, T, NULL);
		q = op(g, K_PLAIN, T_F32, s->ff[il], nu, T, EXT, cr, tk);
		if (f & C_BEG)
			q = op(g, K_INPLACE, T_F32, s->ff[il], nu, T, q, EXT,
			    tk);
		up = op(g, K_PLAIN, T_F32, s->ff[il], nu, T, EXT, cr, tk);
		if (f & C_BEU)
			up = op(g, K_INPLACE, T_F32, s->ff[il], nu, T, up, EXT,
			    tk);
		e = op(g, K_PLAIN, T_F32, s->ff[il], nu, T, q, up, -1);
		e = op(g, K_PLAIN, T_F32, s->embd, nu, T, EXT, e, tk);
		if (f & C_BED)
			e = op(g, K_INPLACE, T_F32, s->embd, nu, T, e, EXT, tk);
		e = op(g, K_INPLACE, T_F32, s->embd, nu, T, e, wt, -1);
		/* their sum, a view of each */
		memcpy(nb, g->t[e].nb, sizeof nb);
		nb[1] = g->t[e].nb[2];
		nb[2] = nb[3] = nb[1] * T;
		q = view(g, e, s->embd, T, 1, nb);
		if (nu == 1)
			q = op(g, K_PLAIN, T_F32, s->embd, T, 1, q, -1, -1);
		else {
			k = view(g, e, s->embd, T, 1, nb);
			g->t[k].view_offs = g->t[e].nb[1];
			for (j = 2; j < nu; j++) {
				v = view(g, e, s->embd, T, 1, nb);
				g->t[v].view_offs = j * g->t[e].nb[1];
			}
			q = op(g, K_INPLACE, T_F32, s->embd, T, 1, q, k, -1);
			for (j = 2; j < nu; j++)
				q = op(g, K_INPLACE, T_F32, s->embd, T, 1, q,
				    k + (int)(j - 1), -1);
		}
		x = op(g, K_INPLACE, T_F32, s->embd, T, 1, q, a, -1);
	}
	g->t[x].output = 1;
	x = op(g, K_PLAIN, T_F32, s->embd, rows, 1, x, out, -1);
	T = rows;
	t = op(g, K_INPLACE, T_F32, s->embd, T, 1, x, -1, -1);
	t = op(g, K_INPLACE, T_F32, s->embd, T, 1, t, EXT, -1);
	g->t[t].output = 1;
	t = op(g, K_PLAIN, T_F32, s->out, T, 1, EXT, t, -1);
	g->t[t].output = 1;
}

static uint64_t
graph_bytes(const struct shape *s, uint64_t T, uint64_t rows, int *overflow)
{
	struct graph	g;
	uint64_t	r;

	memset(&g, 0, sizeof g);
	if (s->kind == G_GEMMA3 || s->kind == G_GEMMA2)
		build_gemma3(&g, s, T, rows);
	else if (s->kind == G_COHERE2)
		build_cohere2(&g, s, T, rows);
	else if (s->kind == G_GPTOSS)
		build_gptoss(&g, s, T, rows);
	else
		build_llama(&g, s, T, rows);
	r = g.overflow ? 0 : lay_out(&g);
	*overflow = g.overflow;
	free(g.t);
	free(g.leafs);
	free(g.nodes);
	return r;
}

/* ------------------------------------------------------------ the model */

/* Shape of tensor NAME (blk.IL. prefixed if il >= 0): 0, or -1 absent. */
static int
tshape(struct gguf_doc *d, int64_t il, const char *name, uint64_t ne[4])
{
	struct gguf_doc_tensor	t;
	char			buf[96];
	int64_t			i;
	int			n;

	n = il >= 0 ? snprintf(buf, sizeof buf, "blk.%lld.%s", (long long)il,
	    name) : snprintf(buf, sizeof buf, "%s", name);
	if ((i = gguf_doc_tensor_find(d, buf, (size_t)n)) < 0 ||
	    gguf_doc_tensor(d, (uint64_t)i, &t) != 0 || t.t == NULL)
		return -1;
	memcpy(ne, t.t->ne, sizeof t.t->ne);
	return 0;
}

static int
cnot(struct gguf_mem_model *m, const char *what)
{
	snprintf(m->cwhy, sizeof m->cwhy, "compute: not modelled for %s",
	    what);
	m->compute = 0;
	return -1;
}

/* The tensors of a block: the attention's, then the dense feed-forward's
   (llama's), then gpt-oss's (sinks, norm, router, experts). */
static const char *const llama_block[] = {
	"attn_norm.weight", "attn_q.weight", "attn_k.weight", "attn_v.weight",
	"attn_output.weight",
	"ffn_norm.weight", "ffn_gate.weight", "ffn_up.weight",
	"ffn_down.weight",
	"attn_sinks.weight", "post_attention_norm.weight",
	"ffn_gate_inp.weight", "ffn_gate_exps.weight", "ffn_up_exps.weight",
	"ffn_down_exps.weight",
};
#define N_ATTN	5
#define N_DENSE	9

/* Those some architectures add: a bias after a projection (its bit in
   the block's flags), or the norms of Q and K (every block). */
static const struct {
	const char	*name;
	unsigned	 bit;
} extra_block[] = {
	{ "attn_q.bias", C_BQ }, { "attn_k.bias", C_BK },
	{ "attn_v.bias", C_BV }, { "attn_q_norm.weight", C_QKNORM },
	{ "attn_k_norm.weight", C_QKNORM },
	{ "post_attention_norm.weight", C_POSTNORM },
	{ "post_ffw_norm.weight", C_POSTNORM },
	{ "attn_output.bias", C_BO }, { "ffn_gate_inp.bias", C_BR },
	{ "ffn_gate_exps.bias", C_BEG }, { "ffn_up_exps.bias", C_BEU },
	{ "ffn_down_exps.bias", C_BED },
	{ "attn_q_norm.weight", C_MMNORM }, { "attn_k_norm.weight", C_MMNORM },
	{ "exp_probs_b.bias", C_MMNORM },
};

/* The architectures built by llama's graph: what they add to it. */
static const struct {
	const char	*name;
	unsigned	 optional;	/* tensors a block may have */
	unsigned	 required;	/* tensors every block has */
	enum graph_kind	 kind;
} graph_archs[] = {
	{ "llama", 0, 0, G_LLAMA },
	{ "qwen2", C_BQ | C_BK | C_BV, 0, G_LLAMA },	/* llm_build_qwen2 */
	{ "qwen3", 0, C_QKNORM, G_LLAMA },		/* llm_build_qwen3 */
	{ "gemma3", 0, C_QKNORM | C_POSTNORM, G_GEMMA3 },
	{ "gemma2", 0, C_POSTNORM, G_GEMMA2 },
	{ "cohere2", 0, 0, G_COHERE2 },
	{ "gpt-oss", C_BQ | C_BK | C_BV | C_BO | C_BR | C_BEG | C_BEU | C_BED,
	    0, G_GPTOSS },
	{ "apertus", 0, C_QKNORM, G_APERTUS },
	{ "minimax-m2", 0, C_MMNORM, G_MINIMAX },
};

/* The tensors outside the blocks the graph reads (the weights of the
   embeddings and the output; RoPE's frequency factors). */
static const char *const kept_tensors[] = {
	"token_embd.weight", "output_norm.weight", "output.weight",
	"rope_freqs.weight",
};

/* Whether llama_block[j] is one of a block of the graph kind's
   (cohere2's norm serves both the attention and the feed-forward). */
static int
in_block(int kind, size_t j)
{
	if (j < N_ATTN)
		return 1;
	if (kind == G_GPTOSS)
		return j >= N_DENSE;
	if (kind == G_MINIMAX)	/* its norm, router and experts */
		return strcmp(llama_block[j], "ffn_norm.weight") == 0 ||
		    strcmp(llama_block[j], "ffn_gate_inp.weight") == 0 ||
		    (j >= N_DENSE && strstr(llama_block[j], "_exps") != NULL);
	if (kind == G_APERTUS)
		return j < N_DENSE &&
		    strcmp(llama_block[j], "ffn_gate.weight") != 0;
	return j < N_DENSE && (kind != G_COHERE2 ||
	    strcmp(llama_block[j], "ffn_norm.weight") != 0);
}

/* Whether the graph kind has sliding-window layers (and needs them). */
static int
swa_graph(int kind)
{
	return kind == G_GEMMA2 || kind == G_GEMMA3 || kind == G_COHERE2 ||
	    kind == G_GPTOSS;
}

/* Whether name ends in ".suffix". */
static int
ends(const struct gguf_str *name, const char *suffix)
{
	size_t	len = (size_t)name->n, n = strlen(suffix);

	return len > n && memcmp(name->p + len - n, suffix, n) == 0 &&
	    name->p[len - n - 1] == '.';
}

void
gguf_mem_compute_make(struct gguf_mem_model *m, struct gguf_doc *d)
{
	struct gguf_doc_tensor	 t;
	uint64_t		 ne[4], i, nt;
	uint32_t		 il;
	size_t			 j, k, len;
	int64_t			 b;
	unsigned		 opt = 0, req = 0;
	struct gguf_val		*v;
	char			 what[160];

	m->compute = 0;
	free(m->c_ff);
	m->c_ff = NULL;
	free(m->c_flags);
	m->c_flags = NULL;
	free(m->c_swa);
	m->c_swa = NULL;
	for (k = 0; k < sizeof graph_archs / sizeof graph_archs[0]; k++)
		if (strcmp(m->arch, graph_archs[k].name) == 0)
			break;
	if (k == sizeof graph_archs / sizeof graph_archs[0]) {
		snprintf(what, sizeof what, "%s", m->arch);
		cnot(m, what);
		return;
	}
	opt = graph_archs[k].optional;
	req = graph_archs[k].required;
	m->c_kind = (int)graph_archs[k].kind;
	if (swa_graph(m->c_kind) && m->n_swa == 0) {
		snprintf(what, sizeof what, "%s without a sliding window",
		    m->arch);
		cnot(m, what);
		return;
	}
	if (tshape(d, -1, "token_embd.weight", ne) != 0) {
		snprintf(what, sizeof what, "%s without token_embd.weight",
		    m->arch);
		cnot(m, what);
		return;
	}
	m->c_embd = ne[0];
	if (tshape(d, -1, "output.weight", ne) != 0)
		tshape(d, -1, "token_embd.weight", ne);
	m->c_out = ne[1];
	m->c_ff = xcalloc(m->n_layer, sizeof *m->c_ff);
	m->c_swa = xcalloc(m->n_layer, sizeof *m->c_swa);
	for (il = 0; il < m->n_layer; il++)
		m->c_swa[il] = m->layers[il].kind == GGUF_MEM_SWA;
	m->c_flags = xcalloc(m->n_layer, sizeof *m->c_flags);
	/* Every tensor one the graph reads as modelled: nothing else
	   (fused or scaled projections, experts, other outputs). */
	nt = gguf_doc_n_tensors(d);
	for (i = 0; i < nt; i++) {
		if (gguf_doc_tensor(d, i, &t) != 0 ||
		    (t.flags & GGUF_ED_REMOVED))
			continue;
		len = (size_t)t.name.n;
		if ((b = gguf_tensor_block(&t.name)) < 0 ||
		    (uint64_t)b >= m->n_layer) {
			for (j = 0; j < sizeof kept_tensors /
			    sizeof kept_tensors[0]; j++)
				if (strlen(kept_tensors[j]) == len &&
				    memcmp(t.name.p, kept_tensors[j], len) == 0)
					break;
			if (j < sizeof kept_tensors / sizeof kept_tensors[0])
				continue;
			snprintf(what, sizeof what, "%s with %.*s", m->arch,
			    (int)(len < 80 ? len : 80), t.name.p);
			cnot(m, what);
			return;
		}
		for (j = 0; j < sizeof llama_block / sizeof llama_block[0];
		    j++)
			if (ends(&t.name, llama_block[j]) &&
			    in_block(m->c_kind, j))
				break;
		if (j < sizeof llama_block / sizeof llama_block[0])
			continue;
		for (j = 0; j < sizeof extra_block / sizeof extra_block[0];
		    j++)
			if (ends(&t.name, extra_block[j].name) &&
			    ((opt | req) & extra_block[j].bit)) {
				m->c_flags[b] |= extra_block[j].bit;
				break;
			}
		if (j == sizeof extra_block / sizeof extra_block[0]) {
			snprintf(what, sizeof what, "%s blocks with %.*s",
			    m->arch, (int)(len < 80 ? len : 80), t.name.p);
			cnot(m, what);
			return;
		}
	}
	for (il = 0; il < m->n_layer; il++) {
		const struct gguf_mem_layer	*l = &m->layers[il];

		if ((l->kind != GGUF_MEM_FULL && (l->kind != GGUF_MEM_SWA ||
		    !swa_graph(m->c_kind))) || l->head_k == 0 ||
		    l->head_v == 0 || l->r + l->s != 0 ||
		    l->head_k != m->layers[0].head_k ||
		    l->head_v != m->layers[0].head_v ||
		    l->k != m->layers[0].k || l->v != m->layers[0].v) {
			snprintf(what, sizeof what, "%s blocks unlike one "
			    "another", m->arch);
			cnot(m, what);
			return;
		}
		for (j = 0; j < sizeof llama_block / sizeof llama_block[0];
		    j++)
			if (in_block(m->c_kind, j) &&
			    tshape(d, il, llama_block[j], ne) != 0) {
				snprintf(what, sizeof what, "%s without "
				    "blk.%u.%s", m->arch, il, llama_block[j]);
				cnot(m, what);
				return;
			}
		for (j = 0; j < sizeof extra_block / sizeof extra_block[0];
		    j++)
			if ((req & extra_block[j].bit) &&
			    tshape(d, il, extra_block[j].name, ne) != 0) {
				snprintf(what, sizeof what, "%s without "
				    "blk.%u.%s", m->arch, il,
				    extra_block[j].name);
				cnot(m, what);
				return;
			}
		if (tshape(d, il, "attn_q.weight", ne) != 0 ||
		    ne[1] % l->head_k != 0 || ne[0] != m->c_embd ||
		    (il > 0 && ne[1] / l->head_k != m->c_head)) {
			snprintf(what, sizeof what, "%s blocks unlike one "
			    "another", m->arch);
			cnot(m, what);
			return;
		}
		m->c_head = ne[1] / l->head_k;
		tshape(d, il, m->c_kind == G_GPTOSS ||
		    m->c_kind == G_MINIMAX ? "ffn_gate_exps.weight" :
		    m->c_kind == G_APERTUS ? "ffn_up.weight" :
		    "ffn_gate.weight", ne);
		m->c_ff[il] = ne[1];
		if ((m->c_kind == G_GPTOSS || m->c_kind == G_MINIMAX) &&
		    (tshape(d, il, "ffn_gate_inp.weight", ne) != 0 ||
		    (il > 0 && ne[1] != m->c_nexp))) {
			snprintf(what, sizeof what, "%s blocks unlike one "
			    "another", m->arch);
			cnot(m, what);
			return;
		}
		m->c_nexp = ne[1];
	}
	m->c_head_k = m->layers[0].head_k;
	m->c_head_v = m->layers[0].head_v;
	m->c_head_kv = m->layers[0].k / m->c_head_k;
	if (m->c_head_kv * m->c_head_v != m->layers[0].v) {
		snprintf(what, sizeof what, "%s blocks unlike one another",
		    m->arch);
		cnot(m, what);
		return;
	}
	if (m->c_kind == G_MINIMAX) {	/* routed by sigmoid */
		snprintf(what, sizeof what, "%s.expert_gating_func", m->arch);
		if ((v = gguf_doc_get(d, what, strlen(what))) == NULL ||
		    gguf_val_u64(v, &i) != 0 || i != 2) {
			snprintf(what, sizeof what, "%s without a sigmoid "
			    "expert_gating_func (2)", m->arch);
			cnot(m, what);
			return;
		}
	}
	if (m->c_kind == G_GPTOSS || m->c_kind == G_MINIMAX) {
		/* the experts a token uses */
		snprintf(what, sizeof what, "%s.expert_used_count", m->arch);
		if ((v = gguf_doc_get(d, what, strlen(what))) == NULL ||
		    gguf_val_u64(v, &m->c_nused) != 0 || m->c_nused == 0 ||
		    m->c_nused > m->c_nexp) {
			snprintf(what, sizeof what, "%s without an "
			    "expert_used_count of 1 to its experts", m->arch);
			cnot(m, what);
			return;
		}
	}
	m->compute = 1;
	m->cwhy[0] = '\0';
}

int
gguf_mem_compute(const struct gguf_mem_model *m,
    const struct gguf_mem_opts *o, const struct gguf_mem_need *n,
    uint64_t *bytes, char *why, size_t len)
{
	struct shape	s;
	uint64_t	ub, pp, tg;
	int		ov1, ov2;

	*bytes = 0;
	if (!m->compute) {
		if (m->cwhy[0] != '\0')
			snprintf(why, len, "%s", m->cwhy);
		else
			snprintf(why, len, "compute: not modelled for %s",
			    m->arch);
		return -1;
	}
	if (!gguf_mem_flash_attn(o) &&
	    (gguf_ttype(o->type_v)->flags & GGUF_TF_QUANT)) {
		snprintf(why, len, "compute: llama.cpp refuses a quantized V "
		    "cache without flash attention");
		return -1;
	}
	if (o->gpu) {
		snprintf(why, len, "compute: not modelled with a GPU "
		    "(--gpu-layers)");
		return -1;
	}
	if (gguf_mem_flash_attn(o) &&
	    (o->type_k == GGUF_T_F32 || o->type_v == GGUF_T_F32)) {
		snprintf(why, len, "compute: not modelled for an F32 cache "
		    "with flash attention");
		return -1;
	}
	memset(&s, 0, sizeof s);
	s.embd = m->c_embd;
	s.out = m->c_out;
	s.head = m->c_head;
	s.head_kv = m->c_head_kv;
	s.hk = m->c_head_k;
	s.hv = m->c_head_v;
	s.ff = m->c_ff;
	s.flags = m->c_flags;
	s.n_exp = m->c_nexp;
	s.n_used = m->c_nused;
	s.kind = (enum graph_kind)m->c_kind;
	s.swa = m->c_swa;
	s.n_kv_swa = n->cells_swa;
	s.n_layer = m->n_layer;
	s.n_kv = n->cells;
	s.ns = n->streams;
	s.fa = gguf_mem_flash_attn(o);
	/* llama.cpp caps the batch at the context asked for, not the
	   rounded one. */
	if (s.head != 0 && (s.hv > LIMIT / s.head || s.hk > LIMIT / s.head)) {
		snprintf(why, len, "compute: too large");
		return -1;
	}
	ub = gguf_mem_ubatch(o, o->n_ctx != 0 ? o->n_ctx : m->n_ctx_train);
	/* The prompt's tokens a whole number of each stream's, the
	   outputs as many as the micro-batch; one token of each stream. */
	pp = graph_bytes(&s, (ub + s.ns - 1) / s.ns * s.ns, ub, &ov1);
	tg = graph_bytes(&s, s.ns, s.ns, &ov2);
	if (ov1 || ov2) {
		snprintf(why, len, "compute: too large");
		return -1;
	}
	*bytes = pp > tg ? pp : tg;
	return 0;
}
