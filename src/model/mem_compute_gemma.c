/*
 * mem_compute_gemma.c - llama.cpp's compute buffer on the CPU for
 * gemma3n and gemma4 (see mem_compute.c for how llama.cpp reserves its
 * graphs and how ggml's allocator lays them out; mem_graph.c for the
 * model of both).
 *
 * gemma3n (llama.cpp's llama_model_gemma3n graph): the per-layer inputs
 * first (llama.cpp expands them as it makes them: their rows of
 * per_layer_token_embd by a token input of their own, scaled), then the
 * embeddings, scaled; the alternating updates (altup): the embeddings
 * repeated n_altup - 1 times, projected, scaled to the embeddings'
 * magnitude (the square root of the sum of squares of a row), stacked
 * with them. Per block: the prediction (the stack permuted into one
 * piece; a router of the active slice: RMS norm, scaled, projected,
 * tanh; its coefficients times the stack, permuted back, plus the
 * stack); RMS norm of the active prediction; the attention (Q, K and V
 * with RMS norms of their heads, V's without a weight, RoPE; over the
 * sliding-window cache or the full one, each with inputs of its own), or
 * where the block has no cache of its own (from the 20th) Q alone over
 * the cache of an earlier block; the output projection, RMS norm, plus
 * the active prediction; laurel (a low-rank projection of the normed
 * input, RMS norm, plus the normed input) added, scaled; RMS norm, the
 * feed-forward (up; gate, on the first ten blocks cut at its mean plus
 * a multiple of its deviation, ReLU; GeLU, times up; down), RMS norm,
 * the residual; the correction (the innovation, the output less the
 * active prediction, repeated over the stack, times the router's
 * coefficients of the output made one piece, plus the prediction); the
 * per-layer input (the corrected active slice scaled, gated, GeLU, times
 * the block's slice of the per-layer inputs, which the first block makes:
 * the embeddings projected to every block's, scaled, RMS-normed, plus
 * the per-layer rows, scaled, permuted into one piece; projected back,
 * RMS-normed) added to the other slices, the stack concatenated again.
 * Then the stack unembedded (the other slices projected, scaled to the
 * active one's magnitude, added to the first, scaled), the rows of the
 * outputs, RMS norm, the logits, soft-capped.
 *
 * gemma4's graph is told at its builder (build_gemma4).
 *
 * Only the tensors a graph is known to read are accepted: any other (a
 * fused QKV, biases, scales of the projections) leaves the compute
 * buffer "not modelled".
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "mem.h"
#include "mem_graph.h"
#include "schema.h"
#include "xmalloc.h"

enum gemma_kind {
	GM_GEMMA3N = MC_GEMMA,	/* llama_model_gemma3n */
	GM_GEMMA4		/* llama_model_gemma4 */
};

#define F_KV		0x01	/* a block with a cache of its own */
#define F_V		0x02	/* gemma4: a V projection (else V is K's) */
#define F_OSCALE	0x04	/* gemma4: the block's output scaled */
#define F_MOE		0x08	/* gemma4: experts beside the feed-forward */
#define N_SPARSE	10	/* gemma3n: the blocks of a sparse gate */

/* What a graph needs (from gguf_mem_model's c_* fields). */
struct gshape {
	uint64_t	 embd, out, head, head_kv, hk, hv;
	uint64_t	 altup, pl, rank;	/* gemma3n: n_altup, per-layer
						   input length, laurel rank */
	uint64_t	 hk_swa;	/* gemma4: the sliding blocks' head size */
	uint64_t	 evv_max;	/* the widest V row (the V cache's
				   without flash attention) */
	int		 softcap;	/* gemma4: the logits soft-capped */
	uint64_t	 n_exp, n_used, ff_exp;	/* gemma4: experts, those used
					   a token, their length */
	int		 kind;
	const uint64_t	*ff, *nh, *nhkv;	/* gemma4: heads, KV heads a
						   block */
	const uint16_t	*flags;
	const unsigned char *swa;	/* the cache a block reads: sliding */
	uint32_t	 n_layer;
	uint64_t	 n_kv, n_kv_swa, ns;
	int		 fa;
};

/* ---------------------------------------------------------- the graphs */

/*
 * llama.cpp's build_attn over a cache: K and V of T tokens written into
 * it (k < 0: none, the block reads an earlier block's cache), then the
 * attention of q over its n_kv cells a stream; the heads' values a
 * token.
 */
static int
attend(struct graph *g, const struct gshape *s, uint64_t T, int q, int k,
    int v, int kidx, int vidx, int mask, uint64_t n_kv)
{
	uint64_t	evv = s->hv * s->head_kv, ts = T / s->ns, ns = s->ns;
	int		kq, a;

	if (k >= 0) {
		k = mg_view(g, k, s->hk * s->head_kv, T, 1, NULL);
		mg_cache_view(g, k, kidx, ns > 1 ?
		    mg_cache_view(g, EXT, -1, -1) : EXT);
		v = mg_view(g, v, evv, T, 1, NULL);
		if (s->fa)
			mg_cache_view(g, v, vidx, ns > 1 ?
			    mg_cache_view(g, EXT, -1, -1) : EXT);
		else {
			/* padded to the cache's row, the widest V */
			if (s->evv_max > evv)
				v = mg_op(g, K_PLAIN, T_F32, s->evv_max, T, 1,
				    v, -1, -1);
			v = mg_view(g, v, 1, mg_mul_lim(g, T, s->evv_max), 1,
			    NULL);
			mg_cache_view(g, v, vidx, mg_cache_view(g, EXT, -1,
			    -1));
		}
	}
	if (s->fa) {
		q = mg_permute(g, mg_view(g, q, s->hk, s->head, T, NULL));
		k = mg_permute(g, mg_cache_view(g, EXT, -1, -1));
		v = mg_permute(g, mg_cache_view(g, EXT, -1, -1));
		a = mg_op4(g, K_PLAIN, T_F32, s->hv, s->head, ts, ns, q, k,
		    v);
		g->t[a].src[3] = mask;
		g->t[a].n_src = 4;
		return mg_view(g, a, s->hv * s->head, T, 1, NULL);
	}
	v = mg_permute(g, mg_cache_view(g, EXT, -1, -1));
	k = mg_permute(g, mg_cache_view(g, EXT, -1, -1));
	q = mg_permute(g, mg_view(g, q, s->hk, s->head, T, NULL));
	kq = mg_op4(g, K_PLAIN, T_F32, n_kv, ts, s->head, ns, k, q, -1);
	kq = mg_op4(g, K_INPLACE, T_F32, n_kv, ts, s->head, ns, kq, mask, -1);
	a = mg_op4(g, K_PLAIN, T_F32, s->hv, ts, s->head, ns, v, kq, -1);
	a = mg_permute(g, a);
	return mg_op(g, K_PLAIN, T_F32, s->hv * s->head, T, 1, a, -1, -1);
}

/* A view of slice i of x's third dimension (n of them from i). */
static int
slice(struct graph *g, int x, uint64_t i, uint64_t n)
{
	uint64_t	nb[4];
	int		v;

	memcpy(nb, g->t[x].nb, sizeof nb);
	v = mg_view(g, x, g->t[x].ne[0], g->t[x].ne[1], n, nb);
	g->t[v].view_offs += i * nb[2];
	return v;
}

/* The magnitude of x's rows: the square root of the sum of squares. */
static int
magnitude(struct graph *g, int x)
{
	uint64_t	ne1 = g->t[x].ne[1], ne2 = g->t[x].ne[2];

	x = mg_op(g, K_INPLACE, T_F32, g->t[x].ne[0], ne1, ne2, x, -1, -1);
	x = mg_op(g, K_PLAIN, T_F32, 1, ne1, ne2, x, -1, -1);
	return mg_op(g, K_INPLACE, T_F32, 1, ne1, ne2, x, -1, -1);
}

/* An RMS norm and its weight (x's shape). */
static int
rms(struct graph *g, int x)
{
	uint64_t	ne0 = g->t[x].ne[0], ne1 = g->t[x].ne[1];
	uint64_t	ne2 = g->t[x].ne[2];

	x = mg_op(g, K_INPLACE, T_F32, ne0, ne1, ne2, x, -1, -1);
	return mg_op(g, K_INPLACE, T_F32, ne0, ne1, ne2, x, EXT, -1);
}

/* The altup router of x (T tokens): norm, scale, projection, tanh. */
static int
router(struct graph *g, const struct gshape *s, uint64_t T, int x)
{
	x = rms(g, x);
	x = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, x, -1, -1);
	x = mg_op(g, K_PLAIN, T_F32, s->altup, T, 1, EXT, x, -1);
	return mg_op(g, K_INPLACE, T_F32, s->altup, T, 1, x, -1, -1);
}

/*
 * The inputs: the weights' stand-in EXT, tokens, the embeddings input no
 * node reads, the per-layer inputs' tokens (if any), positions, then
 * each cache's row indices and mask, made in the order the blocks first
 * read them (a block reading an earlier block's cache: its mask only),
 * and the outputs' ids.
 */
static void
inputs(struct graph *g, const struct gshape *s, uint64_t T, uint64_t rows,
    int tok[2], int *pos, int kidx[2], int vidx[2], int mask[2], int *out)
{
	uint64_t	ts = T / s->ns, ns = s->ns;
	uint32_t	il;
	int		w;

	mg_add_tensor(g, K_EXT, T_F32, NULL);		/* EXT */
	tok[0] = mg_input(g, T_I32, T, 1, 1);
	mg_input(g, T_F32, s->embd, T, 1);		/* embeddings, unread */
	tok[1] = s->pl != 0 ? mg_input(g, T_I32, T, 1, 1) : -1;
	*pos = mg_input(g, T_I32, T, 1, 1);
	kidx[0] = kidx[1] = vidx[0] = vidx[1] = mask[0] = mask[1] = -1;
	for (il = 0; il < s->n_layer; il++) {
		w = s->swa[il] != 0;
		if (mask[w] >= 0)
			continue;
		if (s->flags[il] & F_KV) {
			kidx[w] = mg_input(g, T_I64, T, 1, 1);
			vidx[w] = mg_input(g, T_I64, s->fa ? T :
			    mg_mul_lim(g, T, s->evv_max), 1, 1);
		}
		mask[w] = mg_input(g, s->fa ? T_F16 : T_F32, w ?
		    s->n_kv_swa : s->n_kv, ts, ns);
	}
	*out = mg_input(g, T_I32, rows, 1, 1);
}

/* The per-layer inputs' rows of the tokens, scaled (expanded first). */
static int
per_layer_rows(struct graph *g, const struct gshape *s, uint64_t T, int tok)
{
	uint64_t	P = s->pl, L = s->n_layer;
	int		pl;

	pl = mg_op(g, K_PLAIN, T_F32, mg_mul_lim(g, P, L), T, 1, EXT, tok, -1);
	pl = mg_view(g, pl, P, L, T, NULL);
	return mg_op(g, K_INPLACE, T_F32, P, L, T, pl, -1, -1);
}

/* The per-layer inputs: the embeddings emb projected to every block's,
   scaled, RMS-normed, plus their rows pl, scaled, permuted into one
   piece of P, T, L. */
static int
per_layer_inputs(struct graph *g, const struct gshape *s, uint64_t T,
    int emb, int pl)
{
	uint64_t	P = s->pl, L = s->n_layer;
	int		t;

	t = mg_op(g, K_PLAIN, T_F32, mg_mul_lim(g, P, L), T, 1, EXT, emb, -1);
	t = mg_op(g, K_INPLACE, T_F32, P * L, T, 1, t, -1, -1);
	t = rms(g, mg_view(g, t, P, L, T, NULL));
	t = mg_op(g, K_INPLACE, T_F32, P, L, T, t, pl, -1);
	t = mg_op(g, K_INPLACE, T_F32, P, L, T, t, -1, -1);
	t = mg_permute(g, t);
	return mg_op(g, K_PLAIN, T_F32, P, T, L, t, -1, -1);
}

/* gemma3n's graph of T tokens, rows of them outputs (see the top). */
static void
build_gemma3n(struct graph *g, const struct gshape *s, uint64_t T,
    uint64_t rows)
{
	uint64_t	E = s->embd, A = s->altup, P = s->pl;
	uint64_t	nq = s->hk * s->head, ekv = s->hk * s->head_kv;
	uint64_t	evv = s->hv * s->head_kv, nb[4], i;
	int		tok[2], pos, kidx[2], vidx[2], mask[2], out, x, emb, pl,
			plc = -1, t, r, m, pred, ap, an, q, k, v, a, l, up,
			gate, mean, d, inn, co, cr, first, rest, f, w;
	uint32_t	il;

	inputs(g, s, T, rows, tok, &pos, kidx, vidx, mask, &out);
	/* the embeddings (expanded as they are made), the per-layer
	   inputs' rows (expanded there too), scaled */
	x = mg_op(g, K_PLAIN, T_F32, E, T, 1, EXT, tok[0], -1);
	pl = per_layer_rows(g, s, T, tok[1]);
	emb = x = mg_op(g, K_INPLACE, T_F32, E, T, 1, x, -1, -1);
	/* the stack: the embeddings and A - 1 projections of them */
	r = mg_op(g, K_PLAIN, T_F32, E, T, A - 1, x, -1, -1);
	r = mg_op(g, K_PLAIN, T_F32, E, T, A - 1, EXT, r, -1);
	m = magnitude(g, x);
	t = mg_op(g, K_INPLACE, T_F32, E, T, A - 1, r, m, -1);
	m = magnitude(g, r);
	t = mg_op(g, K_INPLACE, T_F32, E, T, A - 1, t, m, -1);
	x = mg_op(g, K_PLAIN, T_F32, E, T, A, emb, t, -1);
	for (il = 0; il < s->n_layer; il++) {
		w = s->swa[il] != 0;
		/* the prediction */
		memcpy(nb, g->t[x].nb, sizeof nb);
		t = mg_view(g, x, A, E, T, nb);		/* permuted */
		t = mg_op(g, K_PLAIN, T_F32, A, E, T, t, -1, -1);
		r = router(g, s, T, slice(g, x, 0, 1));
		r = mg_op(g, K_PLAIN, T_F32, A * A, T, 1, EXT, r, -1);
		r = mg_view(g, r, A, A, T, NULL);
		t = mg_op(g, K_PLAIN, T_F32, E, A, T, t, r, -1);
		t = mg_permute(g, t);
		t = mg_op(g, K_PLAIN, T_F32, E, T, A, t, -1, -1);
		pred = mg_op(g, K_INPLACE, T_F32, E, T, A, t, x, -1);
		ap = slice(g, pred, 0, 1);
		an = rms(g, ap);
		/* the attention */
		q = mg_op(g, K_PLAIN, T_F32, nq, T, 1, EXT, an, -1);
		q = rms(g, mg_view(g, q, s->hk, s->head, T, NULL));
		q = mg_op(g, K_INPLACE, T_F32, s->hk, s->head, T, q, pos, -1);
		k = v = -1;
		if (s->flags[il] & F_KV) {
			k = mg_op(g, K_PLAIN, T_F32, ekv, T, 1, EXT, an, -1);
			k = rms(g, mg_view(g, k, s->hk, s->head_kv, T, NULL));
			k = mg_op(g, K_INPLACE, T_F32, s->hk, s->head_kv, T, k,
			    pos, -1);
			v = mg_op(g, K_PLAIN, T_F32, evv, T, 1, EXT, an, -1);
			v = mg_view(g, v, s->hv, s->head_kv, T, NULL);
			v = mg_op(g, K_INPLACE, T_F32, s->hv, s->head_kv, T, v,
			    -1, -1);
		}
		a = attend(g, s, T, q, k, v, kidx[w], vidx[w], mask[w],
		    w ? s->n_kv_swa : s->n_kv);
		a = mg_op(g, K_PLAIN, T_F32, E, T, 1, EXT, a, -1);
		a = rms(g, a);
		a = mg_op(g, K_INPLACE, T_F32, E, T, 1, a, ap, -1);
		/* laurel */
		l = mg_op(g, K_PLAIN, T_F32, s->rank, T, 1, EXT, an, -1);
		l = mg_op(g, K_PLAIN, T_F32, E, T, 1, EXT, l, -1);
		l = rms(g, l);
		l = mg_op(g, K_INPLACE, T_F32, E, T, 1, l, an, -1);
		a = mg_op(g, K_INPLACE, T_F32, E, T, 1, a, l, -1);
		a = mg_op(g, K_INPLACE, T_F32, E, T, 1, a, -1, -1);
		/* the feed-forward */
		t = rms(g, a);
		up = mg_op(g, K_PLAIN, T_F32, s->ff[il], T, 1, EXT, t, -1);
		gate = mg_op(g, K_PLAIN, T_F32, s->ff[il], T, 1, EXT, t, -1);
		if (il < N_SPARSE) {
			mean = mg_op(g, K_PLAIN, T_F32, 1, T, 1, gate, -1, -1);
			d = mg_op(g, K_INPLACE, T_F32, s->ff[il], T, 1, gate,
			    mean, -1);
			d = mg_op(g, K_INPLACE, T_F32, s->ff[il], T, 1, d, -1,
			    -1);
			d = mg_op(g, K_PLAIN, T_F32, 1, T, 1, d, -1, -1);
			d = mg_op(g, K_INPLACE, T_F32, 1, T, 1, d, -1, -1);
			d = mg_op(g, K_INPLACE, T_F32, 1, T, 1, d, -1, -1);
			d = mg_op(g, K_INPLACE, T_F32, 1, T, 1, d, -1, -1);
			d = mg_op(g, K_INPLACE, T_F32, 1, T, 1, mean, d, -1);
			gate = mg_op(g, K_INPLACE, T_F32, s->ff[il], T, 1, gate,
			    d, -1);
			gate = mg_op(g, K_INPLACE, T_F32, s->ff[il], T, 1, gate,
			    -1, -1);
		}
		gate = mg_op(g, K_INPLACE, T_F32, s->ff[il], T, 1, gate, -1, -1);
		t = mg_op(g, K_INPLACE, T_F32, s->ff[il], T, 1, up, gate, -1);
		t = mg_op(g, K_PLAIN, T_F32, E, T, 1, EXT, t, -1);
		t = rms(g, t);
		t = mg_op(g, K_INPLACE, T_F32, E, T, 1, t, a, -1);
		/* the correction */
		inn = mg_op(g, K_INPLACE, T_F32, E, T, 1, t,
		    slice(g, pred, 0, 1), -1);
		inn = mg_op(g, K_PLAIN, T_F32, E, T, A, inn, -1, -1);
		co = router(g, s, T, t);
		co = mg_op(g, K_PLAIN, T_F32, A, T, 1, EXT, co, -1);
		co = mg_op(g, K_INPLACE, T_F32, A, T, 1, co, -1, -1);
		memcpy(nb, g->t[co].nb, sizeof nb);
		nb[1] = g->t[co].nb[0];
		nb[0] = g->t[co].nb[1];
		co = mg_view(g, co, T, A, 1, nb);	/* transposed */
		co = mg_op(g, K_PLAIN, T_F32, 1, T, A, co, -1, -1);
		cr = mg_op(g, K_INPLACE, T_F32, E, T, A, inn, co, -1);
		cr = mg_op(g, K_INPLACE, T_F32, E, T, A, cr, pred, -1);
		/* the per-layer input */
		first = slice(g, cr, 0, 1);
		rest = slice(g, cr, 1, A - 1);
		f = mg_op(g, K_INPLACE, T_F32, E, T, 1, slice(g, cr, 0, 1),
		    EXT, -1);
		f = mg_op(g, K_PLAIN, T_F32, P, T, 1, EXT, f, -1);
		f = mg_op(g, K_INPLACE, T_F32, P, T, 1, f, -1, -1);
		if (plc < 0)
			plc = per_layer_inputs(g, s, T, emb, pl);
		f = mg_op(g, K_INPLACE, T_F32, P, T, 1, f,
		    slice(g, plc, il, 1), -1);
		f = mg_op(g, K_PLAIN, T_F32, E, T, 1, EXT, f, -1);
		f = rms(g, f);
		f = mg_op(g, K_INPLACE, T_F32, E, T, A - 1, rest, f, -1);
		x = mg_op(g, K_PLAIN, T_F32, E, T, A, first, f, -1);
	}
	/* the stack unembedded */
	first = slice(g, x, 0, 1);
	t = mg_op(g, K_PLAIN, T_F32, E, T, A - 1, EXT, slice(g, x, 1, A - 1),
	    -1);
	m = magnitude(g, slice(g, x, 0, 1));
	r = mg_op(g, K_INPLACE, T_F32, E, T, A - 1, t, m, -1);
	m = magnitude(g, t);
	r = mg_op(g, K_INPLACE, T_F32, E, T, A - 1, r, m, -1);
	for (i = 0; i + 1 < A; i++)
		first = mg_op(g, K_INPLACE, T_F32, E, T, 1, first,
		    slice(g, r, i, 1), -1);
	t = mg_op(g, K_INPLACE, T_F32, E, T, 1, first, -1, -1);
	t = mg_op(g, K_PLAIN, T_F32, E, rows, 1, t, out, -1);
	t = rms(g, t);
	g->t[t].output = 1;
	t = mg_op(g, K_PLAIN, T_F32, s->out, rows, 1, EXT, t, -1);
	for (i = 0; i < 3; i++)		/* soft-capped */
		t = mg_op(g, K_INPLACE, T_F32, s->out, rows, 1, t, -1, -1);
	g->t[t].output = 1;
}

/*
 * gemma4's experts over a (T tokens; llama.cpp expands them as it makes
 * them, before the feed-forward beside them): the router (a's RMS norm
 * without a weight, scaled, times the router's scale, projected),
 * soft-max, the n_used best, their weights normalized by their sum;
 * RMS norm of a, gate and up of the experts used, GeGLU, down, weighted,
 * summed (one expert a token: a view of it, made one piece where it is
 * read, after the feed-forward).
 */
static int
experts(struct graph *g, const struct gshape *s, uint64_t T, int a)
{
	uint64_t	E = s->embd, nu = s->n_used, ne = s->n_exp, nb[4], j;
	int		t, pr, tk, wt, sum, cr, q, up, e, k, v;

	t = mg_op(g, K_INPLACE, T_F32, E, T, 1, a, -1, -1);
	t = mg_op(g, K_INPLACE, T_F32, E, T, 1, t, -1, -1);
	t = mg_op(g, K_INPLACE, T_F32, E, T, 1, t, EXT, -1);
	t = mg_op(g, K_PLAIN, T_F32, ne, T, 1, EXT, t, -1);
	t = mg_op(g, K_INPLACE, T_F32, ne, T, 1, t, -1, -1);
	pr = mg_view(g, t, 1, ne, T, NULL);
	tk = mg_op(g, K_PLAIN, T_I32, ne, T, 1, t, -1, -1);
	memcpy(nb, g->t[tk].nb, sizeof nb);
	tk = mg_view(g, tk, nu, T, 1, nb);
	wt = mg_op(g, K_PLAIN, T_F32, 1, nu, T, pr, tk, -1);
	wt = mg_view(g, wt, nu, T, 1, NULL);
	sum = mg_op(g, K_PLAIN, T_F32, 1, T, 1, wt, -1, -1);
	sum = mg_op(g, K_INPLACE, T_F32, 1, T, 1, sum, -1, -1);
	wt = mg_op(g, K_INPLACE, T_F32, nu, T, 1, wt, sum, -1);
	wt = mg_view(g, wt, 1, nu, T, NULL);
	cr = mg_view(g, rms(g, a), E, 1, T, NULL);
	q = mg_op(g, K_PLAIN, T_F32, s->ff_exp, nu, T, EXT, cr, tk);
	up = mg_op(g, K_PLAIN, T_F32, s->ff_exp, nu, T, EXT, cr, tk);
	e = mg_op(g, K_PLAIN, T_F32, s->ff_exp, nu, T, q, up, -1);
	e = mg_op(g, K_PLAIN, T_F32, E, nu, T, EXT, e, tk);
	e = mg_op(g, K_INPLACE, T_F32, E, nu, T, e, wt, -1);
	memcpy(nb, g->t[e].nb, sizeof nb);
	nb[1] = g->t[e].nb[2];
	nb[2] = nb[3] = nb[1] * T;
	q = mg_view(g, e, E, T, 1, nb);
	if (nu == 1)		/* made one piece later, by its reader */
		return q;
	k = mg_view(g, e, E, T, 1, nb);
	g->t[k].view_offs = g->t[e].nb[1];
	for (j = 2; j < nu; j++) {
		v = mg_view(g, e, E, T, 1, nb);
		g->t[v].view_offs = j * g->t[e].nb[1];
	}
	q = mg_op(g, K_INPLACE, T_F32, E, T, 1, q, k, -1);
	for (j = 2; j < nu; j++)
		q = mg_op(g, K_INPLACE, T_F32, E, T, 1, q, k + (int)(j - 1),
		    -1);
	return q;
}

/*
 * gemma4's graph (llama.cpp's llama_model_gemma4 graph) of T tokens, rows
 * of them outputs: the per-layer inputs' rows first where the model has
 * them (as gemma3n's), the embeddings scaled; per block RMS norm; Q with
 * RMS norms of its heads, RoPE; where the block has a cache of its own K
 * alike and V (its own projection, or K's) RMS-normed without a weight,
 * written into the cache (without flash attention V padded to the
 * widest V row of the model, the V cache's); the attention over the
 * sliding-window cache or the full one (head sizes of each their own);
 * the output projection, RMS norm, the residual; RMS norm, the GeGLU
 * feed-forward, RMS norm, the residual; the per-layer input (gated, GeLU,
 * times the block's slice of the per-layer inputs, which the first block
 * makes as gemma3n's; projected back, RMS-normed) added; the block's
 * output scale if it has one. A block with experts has them beside the
 * feed-forward (experts()), each RMS-normed after, added, before the
 * feed-forward's last norm. Then RMS norm, the rows of the outputs, the
 * logits, soft-capped unless final_logit_softcapping is 0.
 */
static void
build_gemma4(struct graph *g, const struct gshape *s, uint64_t T,
    uint64_t rows)
{
	struct gshape	ls = *s;
	uint64_t	E = s->embd, P = s->pl, nq, ekv, evv, i;
	int		tok[2], pos, kidx[2], vidx[2], mask[2], out, x, emb,
			pl = -1, plc = -1, t, q, k, kv, v, a, up, gate, w,
			moe = -1;
	uint32_t	il;

	inputs(g, s, T, rows, tok, &pos, kidx, vidx, mask, &out);
	x = mg_op(g, K_PLAIN, T_F32, E, T, 1, EXT, tok[0], -1);
	if (P != 0)
		pl = per_layer_rows(g, s, T, tok[1]);
	emb = x = mg_op(g, K_INPLACE, T_F32, E, T, 1, x, -1, -1);
	for (il = 0; il < s->n_layer; il++) {
		w = s->swa[il] != 0;
		ls.head = s->nh[il];
		ls.head_kv = s->nhkv[il];
		ls.hk = ls.hv = w ? s->hk_swa : s->hk;
		nq = ls.hk * ls.head;
		ekv = evv = ls.hk * ls.head_kv;
		t = rms(g, x);
		q = mg_op(g, K_PLAIN, T_F32, nq, T, 1, EXT, t, -1);
		q = rms(g, mg_view(g, q, ls.hk, ls.head, T, NULL));
		q = mg_op(g, K_INPLACE, T_F32, ls.hk, ls.head, T, q, pos, -1);
		k = v = -1;
		if (s->flags[il] & F_KV) {
			kv = mg_op(g, K_PLAIN, T_F32, ekv, T, 1, EXT, t, -1);
			k = rms(g, mg_view(g, kv, ls.hk, ls.head_kv, T, NULL));
			k = mg_op(g, K_INPLACE, T_F32, ls.hk, ls.head_kv, T, k,
			    pos, -1);
			if (s->flags[il] & F_V)
				kv = mg_op(g, K_PLAIN, T_F32, evv, T, 1, EXT, t,
				    -1);
			v = mg_view(g, kv, ls.hv, ls.head_kv, T, NULL);
			v = mg_op(g, K_INPLACE, T_F32, ls.hv, ls.head_kv, T, v,
			    -1, -1);
		}
		a = attend(g, &ls, T, q, k, v, kidx[w], vidx[w], mask[w],
		    w ? s->n_kv_swa : s->n_kv);
		a = mg_op(g, K_PLAIN, T_F32, E, T, 1, EXT, a, -1);
		a = rms(g, a);
		a = mg_op(g, K_INPLACE, T_F32, E, T, 1, a, x, -1);
		if (s->flags[il] & F_MOE)
			moe = experts(g, s, T, a);
		t = rms(g, a);
		gate = mg_op(g, K_PLAIN, T_F32, s->ff[il], T, 1, EXT, t, -1);
		up = mg_op(g, K_PLAIN, T_F32, s->ff[il], T, 1, EXT, t, -1);
		t = mg_op(g, K_PLAIN, T_F32, s->ff[il], T, 1, gate, up, -1);
		t = mg_op(g, K_PLAIN, T_F32, E, T, 1, EXT, t, -1);
		if (s->flags[il] & F_MOE) {	/* the two normed, added */
			t = rms(g, t);
			if (s->n_used == 1)
				moe = mg_op(g, K_PLAIN, T_F32, E, T, 1, moe, -1,
				    -1);
			t = mg_op(g, K_INPLACE, T_F32, E, T, 1, t, rms(g, moe),
			    -1);
		}
		t = rms(g, t);
		x = mg_op(g, K_INPLACE, T_F32, E, T, 1, t, a, -1);
		if (P != 0) {
			t = mg_op(g, K_PLAIN, T_F32, P, T, 1, EXT, x, -1);
			t = mg_op(g, K_INPLACE, T_F32, P, T, 1, t, -1, -1);
			if (plc < 0)
				plc = per_layer_inputs(g, s, T, emb, pl);
			t = mg_op(g, K_INPLACE, T_F32, P, T, 1, t,
			    slice(g, plc, il, 1), -1);
			t = mg_op(g, K_PLAIN, T_F32, E, T, 1, EXT, t, -1);
			t = rms(g, t);
			x = mg_op(g, K_INPLACE, T_F32, E, T, 1, x, t, -1);
		}
		if (s->flags[il] & F_OSCALE)
			x = mg_op(g, K_INPLACE, T_F32, E, T, 1, x, EXT, -1);
	}
	t = rms(g, x);
	g->t[t].output = 1;
	t = mg_op(g, K_PLAIN, T_F32, E, rows, 1, t, out, -1);
	g->t[t].output = 1;
	t = mg_op(g, K_PLAIN, T_F32, s->out, rows, 1, EXT, t, -1);
	for (i = 0; s->softcap && i < 3; i++)
		t = mg_op(g, K_INPLACE, T_F32, s->out, rows, 1, t, -1, -1);
	g->t[t].output = 1;
}

static uint64_t
graph_bytes(const struct gshape *s, uint64_t T, uint64_t rows, int *overflow)
{
	struct graph	g;
	uint64_t	r;

	memset(&g, 0, sizeof g);
	if (s->kind == GM_GEMMA4)
		build_gemma4(&g, s, T, rows);
	else
		build_gemma3n(&g, s, T, rows);
	r = g.overflow ? 0 : mg_lay_out(&g);
	*overflow = g.overflow;
	mg_free(&g);
	return r;
}

/* ------------------------------------------------------------ the model */


/* The tensors of a gemma3n block, those outside the blocks. */
static const char *const g3n_block[] = {
	"attn_norm.weight", "attn_q.weight", "attn_k.weight", "attn_v.weight",
	"attn_output.weight", "attn_q_norm.weight", "attn_k_norm.weight",
	"post_attention_norm.weight", "ffn_norm.weight", "ffn_gate.weight",
	"ffn_up.weight", "ffn_down.weight", "post_ffw_norm.weight",
	"inp_gate.weight", "proj.weight", "post_norm.weight",
	"altup_correct_coef.weight", "altup_correct_scale.weight",
	"altup_predict_coef.weight", "altup_router.weight",
	"altup_router_norm.weight", "laurel_l.weight", "laurel_r.weight",
	"laurel_post_norm.weight", NULL
};
static const char *const g3n_kept[] = {
	"token_embd.weight", "output.weight", "output_norm.weight",
	"altup_proj.weight", "altup_unembd_proj.weight",
	"per_layer_token_embd.weight", "per_layer_model_proj.weight",
	"per_layer_proj_norm.weight", NULL
};

static const char *const g4_block[] = {
	"attn_norm.weight", "attn_q.weight", "attn_k.weight", "attn_v.weight",
	"attn_output.weight", "attn_q_norm.weight", "attn_k_norm.weight",
	"post_attention_norm.weight", "ffn_norm.weight", "ffn_gate.weight",
	"ffn_up.weight", "ffn_down.weight", "post_ffw_norm.weight",
	"inp_gate.weight", "proj.weight", "post_norm.weight",
	"layer_output_scale.weight", "ffn_gate_inp.weight",
	"ffn_gate_inp.scale", "pre_ffw_norm_2.weight",
	"post_ffw_norm_1.weight", "post_ffw_norm_2.weight",
	"ffn_gate_exps.weight", "ffn_up_exps.weight", "ffn_down_exps.weight",
	NULL
};
static const char *const g4_kept[] = {
	"token_embd.weight", "output.weight", "output_norm.weight",
	"rope_freqs.weight", "per_layer_token_embd.weight",
	"per_layer_model_proj.weight", "per_layer_proj_norm.weight", NULL
};

/* Whether name is "blk.N." followed by one of list's (or, at N < 0, one
   of list's itself). */
static int
listed(const struct gguf_str *name, int64_t b, const char *const *list)
{
	size_t	len = (size_t)name->n, off = 0, j;
	char	pre[32];

	if (b >= 0) {
		off = (size_t)snprintf(pre, sizeof pre, "blk.%lld.",
		    (long long)b);
		if (len < off || memcmp(name->p, pre, off) != 0)
			return 0;
	}
	for (j = 0; list[j] != NULL; j++)
		if (strlen(list[j]) == len - off &&
		    memcmp(name->p + off, list[j], len - off) == 0)
			return 1;
	return 0;
}

/* gemma3n's sizes, from its tensors (llama.cpp's loader holds them to
   its hyper-parameters). */
static int
make_gemma3n(struct gguf_mem_model *m, struct gguf_doc *d)
{
	uint64_t	ne[4], hk = 0, nh = 0, nkv = 0;
	uint32_t	il;
	size_t		j;

	if (mc_tshape(d, -1, "altup_proj.weight", ne) != 0 || ne[0] != m->c_embd ||
	    ne[2] == 0)
		return mc_cnot(m, " without altup_proj.weight");
	m->c_rec[0] = ne[2] + 1;			/* n_altup */
	if (mc_tshape(d, -1, "per_layer_proj_norm.weight", ne) != 0 ||
	    ne[0] == 0)
		return mc_cnot(m, " without per_layer_proj_norm.weight");
	/* llama.cpp's per-layer inputs are of 256, whatever the file's
	   embedding_length_per_layer_input says */
	if (ne[0] != 256)
		return mc_cnot(m, " with per-layer inputs of other than 256");
	m->c_rec[1] = ne[0];				/* per-layer input */
	if (mc_tshape(d, -1, "per_layer_token_embd.weight", ne) != 0 ||
	    ne[0] / m->n_layer != m->c_rec[1] || ne[0] % m->n_layer != 0)
		return mc_cnot(m, " without per_layer_token_embd.weight of "
		    "every block's input");
	for (j = 0; g3n_kept[j] != NULL; j++)
		if (mc_tshape(d, -1, g3n_kept[j], ne) != 0 &&
		    strcmp(g3n_kept[j], "output.weight") != 0)
			return mc_cnot(m, " without %s", g3n_kept[j]);
	for (il = 0; il < m->n_layer; il++) {
		const struct gguf_mem_layer	*l = &m->layers[il];
		enum gguf_mem_kind	 kind = l->kind;
		uint64_t		 h = l->head_k, v = l->head_v;

		for (j = 0; g3n_block[j] != NULL; j++)
			if (mc_tshape(d, il, g3n_block[j], ne) != 0)
				return mc_cnot(m, " without blk.%u.%s", il,
				    g3n_block[j]);
		if (kind == GGUF_MEM_NONE) {	/* shared KV */
			kind = l->shared;
			if (kind == GGUF_MEM_NONE)
				return mc_cnot(m, " blocks without a cache");
			h = hk;
			v = m->c_head_v;
		} else {
			m->c_flags[il] |= F_KV;
			if (h == 0 || l->k % h != 0 || (nkv != 0 &&
			    l->k / h != nkv))
				return mc_cnot(m, " blocks unlike one another");
			nkv = l->k / h;
		}
		if (h == 0 || h != v || (hk != 0 && h != hk) ||
		    (kind != GGUF_MEM_FULL && kind != GGUF_MEM_SWA) ||
		    l->r + l->s != 0 || mc_tshape(d, il, "attn_q.weight", ne) != 0 ||
		    ne[0] != m->c_embd || ne[1] % h != 0 ||
		    (nh != 0 && ne[1] / h != nh))
			return mc_cnot(m, " blocks unlike one another");
		hk = h;
		m->c_head_v = v;
		nh = ne[1] / h;
		m->c_swa[il] = kind == GGUF_MEM_SWA;
		mc_tshape(d, il, "ffn_gate.weight", ne);
		m->c_ff[il] = ne[1];
		if (mc_tshape(d, il, "laurel_l.weight", ne) != 0 || ne[1] == 0 ||
		    (il > 0 && ne[1] != m->c_rec[2]))
			return mc_cnot(m, " blocks unlike one another");
		m->c_rec[2] = ne[1];			/* laurel's rank */
	}
	if (nkv == 0)
		return mc_cnot(m, " blocks unlike one another");
	m->c_head = nh;
	m->c_head_kv = nkv;
	m->c_head_k = hk;
	return 0;
}

/* A key's number, or element il of it (an array): 0, or -1. */
static int
key_il(struct gguf_doc *d, const char *arch, const char *key, uint32_t il,
    uint64_t *x)
{
	struct gguf_val	*v, e;
	struct gguf_err	 err;
	char		 name[128];

	snprintf(name, sizeof name, "%s.%s", arch, key);
	if ((v = gguf_doc_get(d, name, strlen(name))) == NULL)
		return -1;
	if (v->type == GGUF_VT_ARR)
		return il < v->count && gguf_arr_get(v, il, &e, &err) == 0 &&
		    gguf_val_u64(&e, x) == 0 ? 0 : -1;
	return gguf_val_u64(v, x) == 0 ? 0 : -1;
}

/* gemma4's sizes: each block's heads, KV heads (KV rows through the
   cache's), feed-forward; the head sizes of the sliding and the full
   blocks; the per-layer inputs' length (0: none). */
static int
make_gemma4(struct gguf_mem_model *m, struct gguf_doc *d)
{
	static const char *const need[] = {
		"attn_norm.weight", "attn_q.weight", "attn_output.weight",
		"attn_q_norm.weight", "post_attention_norm.weight",
		"ffn_norm.weight", "ffn_gate.weight", "ffn_up.weight",
		"ffn_down.weight", "post_ffw_norm.weight", NULL
	};
	static const char *const per_layer[] = {
		"inp_gate.weight", "proj.weight", "post_norm.weight", NULL
	};
	static const char *const moe[] = {
		"ffn_gate_inp.weight", "ffn_gate_inp.scale",
		"pre_ffw_norm_2.weight", "post_ffw_norm_1.weight",
		"post_ffw_norm_2.weight", "ffn_gate_exps.weight",
		"ffn_up_exps.weight", "ffn_down_exps.weight", NULL
	};
	struct gguf_val	*v;
	uint64_t	 ne[4], h, nkv, P = 0, hs[2] = { 0, 0 };
	uint32_t	 il;
	size_t		 j;
	double		 f;
	char		 key[96];
	int		 w, np = 0;

	if (mc_tshape(d, -1, "per_layer_proj_norm.weight", ne) == 0)
		P = ne[0];
	np += mc_tshape(d, -1, "per_layer_token_embd.weight", ne) == 0 &&
	    P != 0 && ne[0] == P * m->n_layer;
	np += mc_tshape(d, -1, "per_layer_model_proj.weight", ne) == 0 &&
	    ne[0] == m->c_embd && ne[1] == P * m->n_layer;
	if (P != 0 && np != 2)
		return mc_cnot(m, " with per-layer inputs unlike its blocks");
	if (P == 0 && (np != 0 ||
	    mc_tshape(d, -1, "per_layer_token_embd.weight", ne) == 0 ||
	    mc_tshape(d, -1, "per_layer_model_proj.weight", ne) == 0))
		return mc_cnot(m, " with per-layer inputs unlike its blocks");
	m->c_rec[1] = P;
	m->c_nexp = 0;
	m->c_nh = xcalloc(m->n_layer, sizeof *m->c_nh);
	m->c_nhkv = xcalloc(m->n_layer, sizeof *m->c_nhkv);
	for (il = 0; il < m->n_layer; il++) {
		const struct gguf_mem_layer	*l = &m->layers[il];
		enum gguf_mem_kind	 kind = l->kind;

		for (j = 0; need[j] != NULL; j++)
			if (mc_tshape(d, il, need[j], ne) != 0)
				return mc_cnot(m, " without blk.%u.%s", il,
				    need[j]);
		for (j = 0; per_layer[j] != NULL; j++)
			if ((mc_tshape(d, il, per_layer[j], ne) == 0) != (P != 0))
				return mc_cnot(m, " with per-layer inputs unlike "
				    "its blocks");
		if (kind == GGUF_MEM_NONE)	/* shared KV */
			kind = l->shared;
		if ((kind != GGUF_MEM_FULL && kind != GGUF_MEM_SWA) ||
		    l->r + l->s != 0)
			return mc_cnot(m, " blocks without a cache");
		w = kind == GGUF_MEM_SWA;
		m->c_swa[il] = (unsigned char)w;
		if (l->kind != GGUF_MEM_NONE) {
			h = l->head_k;
			if (h == 0 || h != l->head_v || l->k % h != 0 ||
			    l->k / h == 0 || l->v != l->k ||
			    (hs[w] != 0 && h != hs[w]) ||
			    mc_tshape(d, il, "attn_k.weight", ne) != 0 ||
			    mc_tshape(d, il, "attn_k_norm.weight", ne) != 0)
				return mc_cnot(m, " blocks unlike one another");
			hs[w] = h;
			m->c_nhkv[il] = l->k / h;
			m->c_flags[il] |= F_KV;
			if (mc_tshape(d, il, "attn_v.weight", ne) == 0)
				m->c_flags[il] |= F_V;
		} else {
			/* its K and V rows (the widest V counts them) */
			if (hs[w] == 0 || key_il(d, m->arch,
			    "attention.head_count_kv", il, &nkv) != 0 ||
			    nkv == 0)
				return mc_cnot(m, " blocks unlike one another");
			m->c_nhkv[il] = nkv;
		}
		h = hs[w];
		if (mc_tshape(d, il, "attn_q.weight", ne) != 0 ||
		    ne[0] != m->c_embd || ne[1] % h != 0 || ne[1] == 0)
			return mc_cnot(m, " blocks unlike one another");
		m->c_nh[il] = ne[1] / h;
		if (mc_tshape(d, il, "layer_output_scale.weight", ne) == 0)
			m->c_flags[il] |= F_OSCALE;
		/* experts: all their tensors, alike in every block */
		np = 0;
		for (j = 0; moe[j] != NULL; j++)
			np += mc_tshape(d, il, moe[j], ne) == 0;
		if (np != 0 && np != (int)j)
			return mc_cnot(m, " blocks without all of the experts' "
			    "tensors");
		if (np != 0) {
			m->c_flags[il] |= F_MOE;
			mc_tshape(d, il, "ffn_gate_inp.weight", ne);
			if (ne[0] != m->c_embd || ne[1] == 0 ||
			    (m->c_nexp != 0 && ne[1] != m->c_nexp))
				return mc_cnot(m, " blocks unlike one another");
			m->c_nexp = ne[1];
			mc_tshape(d, il, "ffn_gate_exps.weight", ne);
			if (ne[0] != m->c_embd || ne[2] != m->c_nexp ||
			    ne[1] == 0 || (m->c_rec[5] != 0 &&
			    ne[1] != m->c_rec[5]))
				return mc_cnot(m, " blocks unlike one another");
			m->c_rec[5] = ne[1];
		}
		mc_tshape(d, il, "ffn_gate.weight", ne);
		m->c_ff[il] = ne[1];
	}
	if (m->c_nexp != 0) {	/* the experts a token uses */
		snprintf(key, sizeof key, "%s.expert_used_count", m->arch);
		if ((v = gguf_doc_get(d, key, strlen(key))) == NULL ||
		    gguf_val_u64(v, &m->c_nused) != 0 || m->c_nused == 0 ||
		    m->c_nused > m->c_nexp)
			return mc_cnot(m, " without an expert_used_count of 1 to "
			    "its experts");
	}
	m->c_head = m->c_head_kv = 0;	/* each block's, c_nh and c_nhkv */
	m->c_head_k = m->c_head_v = hs[0];
	m->c_rec[3] = hs[1];
	/* the logits soft-capped unless final_logit_softcapping is 0 */
	snprintf(key, sizeof key, "%s.final_logit_softcapping", m->arch);
	m->c_rec[4] = (v = gguf_doc_get(d, key, strlen(key))) == NULL ||
	    gguf_val_f64(v, &f) != 0 || f < 0 || f > 0;
	return 0;
}

int
mc_gemma_make(struct gguf_mem_model *m, struct gguf_doc *d)
{
	struct gguf_doc_tensor	 t;
	uint64_t		 ne[4], i, nt;
	int64_t			 b;

	const char *const	*blk, *const *kept;

	if (strcmp(m->arch, "gemma3n") == 0) {
		m->c_kind = GM_GEMMA3N;
		blk = g3n_block;
		kept = g3n_kept;
	} else if (strcmp(m->arch, "gemma4") == 0) {
		m->c_kind = GM_GEMMA4;
		blk = g4_block;
		kept = g4_kept;
	} else
		return 0;
	memset(m->c_rec, 0, sizeof m->c_rec);
	if (m->n_layer == 0 || m->layers == NULL)
		return mc_cnot(m, " without blocks");
	if (mc_tshape(d, -1, "token_embd.weight", ne) != 0)
		return mc_cnot(m, " without token_embd.weight");
	m->c_embd = ne[0];
	if (mc_tshape(d, -1, "output.weight", ne) != 0)
		mc_tshape(d, -1, "token_embd.weight", ne);
	m->c_out = ne[1];
	if (m->c_embd > ((uint64_t)1 << 24) || m->c_out > ((uint64_t)1 << 32))
		return mc_cnot(m, " with an embedding over 2^24 or a vocabulary "
		    "over 2^32");
	/* Every tensor one the graph reads. */
	nt = gguf_doc_n_tensors(d);
	for (i = 0; i < nt; i++) {
		if (gguf_doc_tensor(d, i, &t) != 0 ||
		    (t.flags & GGUF_ED_REMOVED))
			continue;
		b = gguf_tensor_block(&t.name);
		if (b >= 0 && (uint64_t)b < m->n_layer ?
		    listed(&t.name, b, blk) : listed(&t.name, -1, kept))
			continue;
		return mc_cnot(m, "%s %.*s", b >= 0 && (uint64_t)b < m->n_layer ?
		    " blocks with" : " with", (int)(t.name.n < 80 ?
		    t.name.n : 80), t.name.p);
	}
	m->c_ff = xcalloc(m->n_layer, sizeof *m->c_ff);
	m->c_swa = xcalloc(m->n_layer, sizeof *m->c_swa);
	m->c_flags = xcalloc(m->n_layer, sizeof *m->c_flags);
	if ((m->c_kind == GM_GEMMA4 ? make_gemma4(m, d) :
	    make_gemma3n(m, d)) != 0)
		return 1;
	m->compute = 1;
	m->cwhy[0] = '\0';
	return 1;
}

int
mc_gemma_compute(const struct gguf_mem_model *m,
    const struct gguf_mem_opts *o, const struct gguf_mem_need *n,
    uint64_t *bytes, char *why, size_t len)
{
	struct gshape	s;
	uint64_t	ub, pp, tg, h;
	uint32_t	il;
	int		ov1, ov2;

	*bytes = 0;
	if (o->gpu) {
		snprintf(why, len, "compute: not modelled with a GPU "
		    "(--gpu-layers)");
		return -1;
	}
	if (!gguf_mem_flash_attn(o) &&
	    (gguf_ttype(o->type_v)->flags & GGUF_TF_QUANT)) {
		snprintf(why, len, "compute: llama.cpp refuses a quantized V "
		    "cache without flash attention");
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
	s.altup = m->c_rec[0];
	s.pl = m->c_rec[1];
	s.rank = m->c_rec[2];
	s.hk_swa = m->c_rec[3];
	s.softcap = m->c_rec[4] != 0;
	s.kind = m->c_kind;
	s.n_exp = m->c_nexp;
	s.n_used = m->c_nused;
	s.ff_exp = m->c_rec[5];
	s.ff = m->c_ff;
	s.nh = m->c_nh;
	s.nhkv = m->c_nhkv;
	s.flags = m->c_flags;
	s.swa = m->c_swa;
	s.n_layer = m->n_layer;
	s.n_kv = n->cells;
	s.n_kv_swa = n->cells_swa;
	s.ns = n->streams != 0 ? n->streams : 1;
	s.fa = gguf_mem_flash_attn(o);
	s.evv_max = s.hv * s.head_kv;
	for (il = 0; s.kind == GM_GEMMA4 && il < s.n_layer; il++) {
		h = s.swa[il] ? s.hk_swa : s.hk;
		if (s.nh[il] > s.head)
			s.head = s.nh[il];
		if (h > (uint64_t)1 << 24 || s.nhkv[il] > (uint64_t)1 << 24)
			s.evv_max = LIMIT;
		else if (h * s.nhkv[il] > s.evv_max)
			s.evv_max = h * s.nhkv[il];
	}
	if (s.hv > LIMIT / s.head || s.hk > LIMIT / s.head ||
	    s.hk_swa > LIMIT / s.head || s.evv_max >= LIMIT ||
	    s.altup > ((uint64_t)1 << 16)) {
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
