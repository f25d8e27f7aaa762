/*
 * mem_compute_deltanet.c - llama.cpp's compute buffer on the CPU for the
 * gated delta-net hybrids qwen3next, qwen35 and qwen35moe (see
 * mem_compute.c for how llama.cpp reserves its graphs and how ggml's
 * allocator lays them out; mem_compute_recurrent.c for how a graph with
 * a recurrent state is expanded, as here: tensors first, then expanded
 * where llama.cpp expands them, depth first, sources in order).
 *
 * Each block is RMS-normed (expanded there), then either a gated
 * delta-net layer (the blocks of a recurrent state) or attention; the
 * residual; RMS norm; the feed-forward; the residual. Then RMS norm (an
 * output), the outputs' rows of it and the logits.
 *
 * The delta-net layer: the conv state's rows (llama.cpp's build_rs, as
 * mem_compute_recurrent.c's); Q, K and V of the input projection made
 * one (qwen3next's ssm_in split by K head in Q, K, V and Z, each made
 * contiguous, Q, K and V concatenated; else attn_qkv as it is); after
 * the conv state, transposed, the last columns written back; the
 * delta-net state's rows; the short convolution (ggml_ssm_conv), SiLU;
 * Q and K L2-normed (an RMS norm and a scale), repeated to the V heads
 * where they are fewer (qwen3next); the decay (qwen3next: ssm_ba's alpha
 * half, made contiguous; qwen35 and qwen35moe: ssm_alpha) biased,
 * soft-plus, times A; beta (ssm_ba's other half made contiguous, or
 * ssm_beta) through a sigmoid; ggml_gated_delta_net, its new states
 * written back; its output RMS-normed, times SiLU of Z (ssm_in's fourth
 * part made contiguous, or attn_gate); the output projection.
 *
 * The attention: Q and its gate of one projection (qwen3next: reshaped,
 * then viewed; the others: viewed), K and V of their own (or, qwen35's
 * and qwen35moe's, all three of attn_qkv, each made contiguous first);
 * Q and K RMS-normed by head and rotated (qwen35's and qwen35moe's
 * M-RoPE: four positions a token); llama.cpp's build_attn over the
 * cache (mem_compute_recurrent.c's attend()); times the sigmoid of the
 * gate made contiguous; the output projection.
 *
 * The feed-forward: qwen35's SwiGLU; qwen3next's and qwen35moe's
 * experts (build_moe_ffn: soft-max routed, the weights normalized,
 * expanded as soon as they are made) plus a shared SwiGLU expert gated
 * by the sigmoid of its one-row projection.
 *
 * Only the tensors these graphs are known to read are accepted: any
 * other (scales, biases, qwen3next's attention's attn_qkv, a NextN
 * layer) leaves the compute buffer "not modelled".
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

enum dn_kind {
	D_QWEN3NEXT = MC_DELTANET,	/* ssm_in and ssm_ba; experts */
	D_QWEN35,			/* attn_qkv, attn_gate, ssm_alpha,
					   ssm_beta; SwiGLU */
	D_QWEN35MOE			/* qwen35's layers, qwen3next's
					   experts */
};

/* m->c_rec's sizes */
#define S_CONV		0	/* ssm.conv_kernel */
#define S_NK		1	/* ssm.group_count: Q and K heads */
#define S_NV		2	/* ssm.time_step_rank: V heads */
#define S_SK		3	/* ssm.state_size: the heads' size */
#define S_FFE		4	/* the experts' length */
#define S_QKV		5	/* qwen3next's Q, K and V of attn_qkv and Z of
				   attn_gate (else ssm_in) */
#define S_AQKV		6	/* the attention's Q, K and V in one attn_qkv
				   (qwen35, qwen35moe) */

struct dshape {
	const uint64_t	*c;		/* m->c_rec */
	uint64_t	 embd, out;
	uint32_t	 n_layer;
	int		 kind;
	uint64_t	 ns;		/* the micro-batch's sequences */
	uint64_t	 n_rs;		/* rows of the state: n_seq_max */
	const uint64_t	*ff;		/* feed-forward length, per block */
	const uint16_t	*flags;		/* F_*, per block */
	uint64_t	 head, head_kv, hk, hv;
	uint64_t	 n_kv;		/* cells of a stream */
	int		 fa;
	uint64_t	 n_exp, n_used;	/* experts; those used a token */
	uint64_t	 ffsh;		/* the shared expert's length */
};

#define F_ATTN		0x01	/* the block attends (else: its state) */

/* ------------------------------------------------ tensors, expanded */

struct rg {
	struct graph	*g;
	unsigned char	*seen;
	size_t		 n_seen;
};

/* A tensor of the graph, not yet a node: sources a and b (-1: none;
   weights and the state are EXT). */
static int
nd(struct rg *r, enum kind kind, uint64_t ne0, uint64_t ne1, uint64_t ne2,
    uint64_t ne3, int a, int b)
{
	uint64_t	ne[4] = { ne0, ne1, ne2, ne3 };
	int		i = mg_add_tensor(r->g, kind, T_F32, ne);
	struct ct	*t = &r->g->t[i];

	t->src[0] = a;
	t->src[1] = b;
	t->n_src = 2;
	return i;
}

/* More sources of t (from the third on). */
static void
more_src(struct rg *r, int t, int n, const int *src)
{
	struct ct	*c = &r->g->t[t];
	int		 j;

	for (j = 0; j < n && 2 + j < MAX_SRC; j++)
		c->src[2 + j] = src[j];
	c->n_src = 2 + j;
}

/* A view of a, of ne (nb NULL: contiguous), offs bytes into it. */
static int
vw(struct rg *r, int a, uint64_t ne0, uint64_t ne1, uint64_t ne2,
    uint64_t ne3, const uint64_t *nb, uint64_t offs)
{
	uint64_t	ne[4] = { ne0, ne1, ne2, ne3 };
	struct graph	*g = r->g;
	int		i = mg_add_tensor(g, K_VIEW, g->t[a].type, ne), j;
	struct ct	*t = &g->t[i];

	if (nb != NULL)
		for (j = 0; j < 4; j++)
			t->nb[j] = nb[j];
	t->src[0] = a;
	t->n_src = 1;
	t->view_src = g->t[a].view_src >= 0 ? g->t[a].view_src : a;
	t->view_offs = g->t[a].view_offs + offs;
	return i;
}

/* A view of a of ne with a's strides, offs bytes into it. */
static int
vw_as(struct rg *r, int a, uint64_t ne0, uint64_t ne1, uint64_t ne2,
    uint64_t ne3, uint64_t offs)
{
	uint64_t	nb[4];

	memcpy(nb, r->g->t[a].nb, sizeof nb);
	return vw(r, a, ne0, ne1, ne2, ne3, nb, offs);
}

/* ggml_transpose: dimensions 0 and 1 swapped. */
static int
transpose(struct rg *r, int a)
{
	const struct ct	*s = &r->g->t[a];
	uint64_t	 nb[4] = { s->nb[1], s->nb[0], s->nb[2], s->nb[3] };

	return vw(r, a, s->ne[1], s->ne[0], s->ne[2], s->ne[3], nb, 0);
}

/* ggml_permute(a, 0, 2, 1, 3). */
static int
permute(struct rg *r, int a)
{
	const struct ct	*c = &r->g->t[a];
	uint64_t	 nb[4] = { c->nb[0], c->nb[2], c->nb[1], c->nb[3] };

	return vw(r, a, c->ne[0], c->ne[2], c->ne[1], c->ne[3], nb, 0);
}

static void
push_node(struct graph *g, int i)
{
	if (g->n_nodes == g->cap_n) {
		g->cap_n = g->cap_n ? g->cap_n * 2 : 256;
		g->nodes = xreallocarray(g->nodes, g->cap_n, sizeof *g->nodes);
	}
	g->nodes[g->n_nodes++] = i;
}

static void
push_leaf(struct graph *g, int i)
{
	if (g->n_leafs == g->cap_l) {
		g->cap_l = g->cap_l ? g->cap_l * 2 : 256;
		g->leafs = xreallocarray(g->leafs, g->cap_l, sizeof *g->leafs);
	}
	g->leafs[g->n_leafs++] = i;
}

/* A graph input: a leaf once the expansion reaches it. */
static int
input(struct rg *r, int type, uint64_t ne0, uint64_t ne1, uint64_t ne2)
{
	uint64_t	ne[4] = { ne0, ne1, ne2, 1 };

	return mg_add_tensor(r->g, K_INPUT, type, ne);
}

/* ggml_build_forward_expand: t's sources depth first, in order, then t;
   each tensor once. Weights, the state and inputs are no nodes. */
static void
expand(struct rg *r, int t)
{
	struct ct	*c;
	size_t		 n;
	int		 j;

	if (t < 0)
		return;
	if ((size_t)t >= r->n_seen) {
		n = r->g->n + 256;
		r->seen = xreallocarray(r->seen, n, 1);
		memset(r->seen + r->n_seen, 0, n - r->n_seen);
		r->n_seen = n;
	}
	if (r->seen[t])
		return;
	r->seen[t] = 1;
	c = &r->g->t[t];
	if (t == EXT)
		return;
	if (c->kind == K_INPUT) {
		push_leaf(r->g, t);
		return;
	}
	for (j = 0; j < c->n_src; j++)
		expand(r, r->g->t[t].src[j]);
	push_node(r->g, t);
}

/* A write of t into the state or the cache (no room of its own),
   expanded. */
static void
write_state(struct rg *r, int t)
{
	expand(r, nd(r, K_EXT, 1, 1, 1, 1, t, EXT));
}

/* build_rs: the rows of size of the micro-batch's sequences (read through
   the index view sel), expanded; then the others' (extra), copied over. */
static int
read_state(struct rg *r, const struct dshape *s, uint64_t size, int sel,
    int extra)
{
	int	get = nd(r, K_PLAIN, size, s->ns, 1, 1, EXT, sel);

	expand(r, get);
	write_state(r, nd(r, K_PLAIN, size, s->n_rs - s->ns, 1, 1, EXT,
	    extra));
	return get;
}

/* RMS norm of t and its weight. */
static int
rms_norm(struct rg *r, int t)
{
	const struct ct	*c = &r->g->t[t];
	uint64_t	 a = c->ne[0], b = c->ne[1], d = c->ne[2], e = c->ne[3];

	t = nd(r, K_INPLACE, a, b, d, e, t, -1);
	return nd(r, K_INPLACE, a, b, d, e, t, EXT);
}

/* A unary op (or a scale) of t, in its place if it may. */
static int
unary(struct rg *r, int t)
{
	const struct ct	*c = &r->g->t[t];

	return nd(r, K_INPLACE, c->ne[0], c->ne[1], c->ne[2], c->ne[3], t, -1);
}

/* ggml_cont of t. */
static int
cont(struct rg *r, int t, uint64_t ne0, uint64_t ne1, uint64_t ne2,
    uint64_t ne3)
{
	return nd(r, K_PLAIN, ne0, ne1, ne2, ne3, t, -1);
}

/* The attention's inputs: positions, the cache's row indices, the mask. */
struct att_in {
	int	pos, kidx, vidx, mask;
};

/*
 * llama.cpp's build_attn over the cache for q (hk, head, T), k (hk,
 * head_kv, T), v (hv, head_kv, T): Q, V and K expanded in that order, K
 * and V written into the cache, then the attention of each stream's
 * tokens over its n_kv cells (flash attention, or KQ, soft-max, KQV and
 * a copy), expanded: its output (hv * head, T).
 */
static int
attend(struct rg *r, const struct dshape *s, uint64_t T, int q, int k, int v,
    const struct att_in *in)
{
	uint64_t	ns = s->ns, ts = T / ns, head = s->head;
	int		a;

	expand(r, q);
	expand(r, v);
	expand(r, k);
	write_state(r, nd(r, K_EXT, 1, 1, 1, 1, vw(r, k, s->hk * s->head_kv,
	    T, 1, 1, NULL, 0), in->kidx));
	v = vw(r, v, s->hv * s->head_kv, T, 1, 1, NULL, 0);
	if (!s->fa)
		v = vw(r, v, 1, mg_mul_lim(r->g, s->hv * s->head_kv, T), 1, 1,
		    NULL, 0);
	expand(r, nd(r, K_EXT, 1, 1, 1, 1, v, in->vidx));
	q = permute(r, vw(r, q, s->hk, head, ts, ns, NULL, 0));
	if (s->fa) {
		a = nd(r, K_PLAIN, s->hv, head, ts, ns, q, EXT);
		more_src(r, a, 2, (int[]){ EXT, in->mask });
		a = vw(r, a, s->hv * head, T, 1, 1, NULL, 0);
	} else {
		a = nd(r, K_PLAIN, s->n_kv, ts, head, ns, EXT, q);
		a = nd(r, K_INPLACE, s->n_kv, ts, head, ns, a, in->mask);
		a = nd(r, K_PLAIN, s->hv, ts, head, ns, EXT, a);
		a = nd(r, K_PLAIN, s->hv * head, T, 1, 1, permute(r, a), -1);
	}
	expand(r, a);
	return a;
}

/* ------------------------------------------------------- the graphs */

/*
 * The gated delta-net layer over t (E, T): its output (E, T). sel and
 * extra index the state's rows.
 */
static int
delta_net(struct rg *r, const struct dshape *s, uint64_t T, int t, int sel,
    int extra)
{
	uint64_t	K = s->c[S_CONV], nk = s->c[S_NK], nv = s->c[S_NV];
	uint64_t	sk = s->c[S_SK], ns = s->ns, ts = T / ns, rep = nv / nk;
	uint64_t	qk = 2 * sk * nk, ch = qk + sk * nv, nb[4];
	int		cs, mx, pr, q, k, v, z, ci, st, cv, a, b, o, y, src[4];
	int		next = s->kind == D_QWEN3NEXT;
	int		legacy = next && !s->c[S_QKV];

	cs = read_state(r, s, (K - 1) * ch, sel, extra);
	cs = vw(r, cs, K - 1, ch, ns, 1, NULL, 0);
	if (legacy) {	/* ssm_in: Q, K, V and Z by K head */
		mx = nd(r, K_PLAIN, qk + 2 * sk * nv, T, 1, 1, EXT, t);
		pr = vw(r, mx, 2 * sk + 2 * sk * rep, nk, ts, ns, NULL, 0);
		q = cont(r, vw_as(r, pr, sk, nk, ts, ns, 0), sk * nk, ts, ns,
		    1);
		k = cont(r, vw_as(r, pr, sk, nk, ts, ns, sk * 4), sk * nk, ts,
		    ns, 1);
		mx = nd(r, K_PLAIN, qk, ts, ns, 1, q, k);
		v = cont(r, vw_as(r, pr, sk * rep, nk, ts, ns, 2 * sk * 4),
		    sk * nv, ts, ns, 1);
		mx = nd(r, K_PLAIN, ch, ts, ns, 1, mx, v);
		z = vw_as(r, pr, sk * rep, nk, ts, ns, (2 * sk + sk * rep) * 4);
		z = cont(r, z, sk * rep, nk, ts, ns);
	} else {	/* attn_qkv, attn_gate */
		mx = nd(r, K_PLAIN, ch, T, 1, 1, EXT, t);
		mx = vw(r, mx, ch, ts, ns, 1, NULL, 0);
		z = nd(r, K_PLAIN, sk * nv, T, 1, 1, EXT, t);
	}
	/* the conv state and Q, K, V: its last columns written back */
	ci = nd(r, K_PLAIN, K - 1 + ts, ch, ns, 1, cs, transpose(r, mx));
	write_state(r, vw_as(r, ci, K - 1, ch, ns, 1, ts * 4));
	st = read_state(r, s, sk * sk * nv, sel, extra);
	cv = nd(r, K_PLAIN, ch, ts, ns, 1, ci, EXT);
	cv = unary(r, cv);
	nb[0] = 4;
	nb[1] = sk * 4;
	nb[2] = ch * 4;
	nb[3] = mg_mul_lim(r->g, ch * 4, ts);
	q = unary(r, unary(r, vw(r, cv, sk, nk, ts, ns, nb, 0)));
	k = unary(r, unary(r, vw(r, cv, sk, nk, ts, ns, nb, sk * nk * 4)));
	if (next && nk != nv) {	/* repeated to the V heads */
		q = vw(r, q, sk, 1, nk, T, NULL, 0);
		q = vw(r, nd(r, K_PLAIN, sk, rep, nk, T, q, -1), sk, nv, ts,
		    ns, NULL, 0);
		k = vw(r, k, sk, 1, nk, T, NULL, 0);
		k = vw(r, nd(r, K_PLAIN, sk, rep, nk, T, k, -1), sk, nv, ts,
		    ns, NULL, 0);
	}
	v = vw(r, cv, sk, nv, ts, ns, nb, qk * 4);
	if (next) {	/* ssm_ba: beta and alpha by K head */
		pr = nd(r, K_PLAIN, 2 * nv, T, 1, 1, EXT, t);
		pr = vw(r, pr, 2 * rep, nk, ts, ns, NULL, 0);
		a = cont(r, vw_as(r, pr, rep, nk, ts, ns, rep * 4), nv, ts, ns,
		    1);
		b = cont(r, vw_as(r, pr, rep, nk, ts, ns, 0), rep, nk, ts, ns);
		b = unary(r, b);
	} else {
		a = nd(r, K_PLAIN, nv, T, 1, 1, EXT, t);
		a = vw(r, a, nv, ts, ns, 1, NULL, 0);
		b = nd(r, K_PLAIN, nv, T, 1, 1, EXT, t);
		b = unary(r, vw(r, b, 1, nv, ts, ns, NULL, 0));
	}
	if (next)
		b = vw(r, b, 1, nv, ts, ns, NULL, 0);
	a = nd(r, K_INPLACE, nv, ts, ns, 1, a, EXT);	/* dt bias */
	a = unary(r, a);				/* soft-plus */
	a = nd(r, K_INPLACE, nv, ts, ns, 1, a, EXT);	/* A */
	a = vw(r, a, 1, nv, ts, ns, NULL, 0);
	/* the delta net: its output, then the new states */
	o = nd(r, K_PLAIN, sk * nv, T + sk * ns, 1, 1, q, k);
	src[0] = v;
	src[1] = a;
	src[2] = b;
	src[3] = vw(r, st, sk, sk, nv, ns, NULL, 0);
	more_src(r, o, 4, src);
	write_state(r, vw(r, o, sk, sk, nv, ns, NULL,
	    mg_mul_lim(r->g, sk * nv * 4, T)));
	/* normed, gated by Z; out */
	y = rms_norm(r, vw(r, o, sk, nv, ts, ns, NULL, 0));
	z = unary(r, vw(r, z, sk, nv, ts, ns, NULL, 0));
	y = nd(r, K_INPLACE, sk, nv, ts, ns, y, z);
	y = vw(r, y, sk * nv, ts, ns, 1, NULL, 0);
	y = nd(r, K_PLAIN, s->embd, ts, ns, 1, EXT, y);
	return vw(r, y, s->embd, T, 1, 1, NULL, 0);
}

/* The gated attention of t (E, T): its output (E, T). */
static int
gated_attention(struct rg *r, const struct dshape *s, uint64_t T, int t,
    const struct att_in *ai)
{
	uint64_t	hk = s->hk, head = s->head;
	int		qf, q, g, k, v;

	if (s->c[S_AQKV]) {	/* Q, K, V in one, each made contiguous */
		uint64_t	kd = hk * s->head_kv;

		qf = nd(r, K_PLAIN, 2 * hk * head + 2 * kd, T, 1, 1, EXT, t);
		v = cont(r, vw_as(r, qf, kd, T, 1, 1, (2 * hk * head + kd) * 4),
		    kd, T, 1, 1);
		k = cont(r, vw_as(r, qf, kd, T, 1, 1, 2 * hk * head * 4), kd,
		    T, 1, 1);
		qf = cont(r, vw_as(r, qf, 2 * hk * head, T, 1, 1, 0),
		    2 * hk * head, T, 1, 1);
	} else {
		qf = nd(r, K_PLAIN, 2 * hk * head, T, 1, 1, EXT, t);
		v = nd(r, K_PLAIN, s->hv * s->head_kv, T, 1, 1, EXT, t);
		k = nd(r, K_PLAIN, hk * s->head_kv, T, 1, 1, EXT, t);
	}
	if (s->kind == D_QWEN3NEXT)	/* reshaped, then viewed */
		qf = vw(r, qf, 2 * hk, head, T, 1, NULL, 0);
	{
		uint64_t	nb[4] = { 4, 2 * hk * 4, 2 * hk * head * 4, 0 };

		nb[3] = mg_mul_lim(r->g, nb[2], T);
		q = vw(r, qf, hk, head, T, 1, nb, 0);
		g = vw(r, qf, hk, head, T, 1, nb, hk * 4);
	}
	q = rms_norm(r, q);
	q = nd(r, K_INPLACE, hk, head, T, 1, q, ai->pos);
	v = vw(r, v, s->hv, s->head_kv, T, 1, NULL, 0);
	k = vw(r, k, hk, s->head_kv, T, 1, NULL, 0);
	k = rms_norm(r, k);
	k = nd(r, K_INPLACE, hk, s->head_kv, T, 1, k, ai->pos);
	t = attend(r, s, T, q, k, v, ai);
	g = unary(r, cont(r, g, hk * head, T, 1, 1));
	t = nd(r, K_INPLACE, s->hv * head, T, 1, 1, t, g);
	return nd(r, K_PLAIN, s->embd, T, 1, 1, EXT, t);
}

/*
 * build_moe_ffn's experts over t (E, T), SwiGLU, soft-max routed, the
 * weights normalized by their sum and expanded as they are made; then
 * the shared expert gated by a sigmoid, added.
 */
static int
experts(struct rg *r, const struct dshape *s, uint64_t T, int t)
{
	uint64_t	E = s->embd, ne = s->n_exp, nu = s->n_used;
	uint64_t	ff = s->c[S_FFE], nb[4], j;
	int		lg, pr, tk, wt, sum, cr, gt, up, e, q, v, sh, sg;

	lg = nd(r, K_PLAIN, ne, T, 1, 1, EXT, t);
	lg = unary(r, lg);
	pr = vw(r, lg, 1, ne, T, 1, NULL, 0);
	tk = nd(r, K_PLAIN, ne, T, 1, 1, lg, -1);
	r->g->t[tk].type = T_I32;	/* the experts' order */
	tk = vw_as(r, tk, nu, T, 1, 1, 0);
	wt = nd(r, K_PLAIN, 1, nu, T, 1, pr, tk);
	wt = vw(r, wt, nu, T, 1, 1, NULL, 0);
	sum = nd(r, K_PLAIN, 1, T, 1, 1, wt, -1);
	sum = unary(r, sum);
	wt = nd(r, K_INPLACE, nu, T, 1, 1, wt, sum);
	wt = vw(r, wt, 1, nu, T, 1, NULL, 0);
	expand(r, wt);
	cr = vw(r, t, E, 1, T, 1, NULL, 0);
	gt = nd(r, K_PLAIN, ff, nu, T, 1, EXT, cr);
	more_src(r, gt, 1, &tk);
	up = nd(r, K_PLAIN, ff, nu, T, 1, EXT, cr);
	more_src(r, up, 1, &tk);
	e = nd(r, K_PLAIN, ff, nu, T, 1, gt, up);
	e = nd(r, K_PLAIN, E, nu, T, 1, EXT, e);
	more_src(r, e, 1, &tk);
	e = nd(r, K_INPLACE, E, nu, T, 1, e, wt);
	memcpy(nb, r->g->t[e].nb, sizeof nb);
	nb[1] = r->g->t[e].nb[2];
	nb[2] = nb[3] = mg_mul_lim(r->g, nb[1], T);
	q = vw(r, e, E, T, 1, 1, nb, 0);
	expand(r, q);
	if (nu == 1)
		q = cont(r, q, E, T, 1, 1);
	for (j = 1; j < nu; j++) {
		v = vw(r, e, E, T, 1, 1, nb, j * r->g->t[e].nb[1]);
		expand(r, v);
		q = nd(r, K_INPLACE, E, T, 1, 1, q, v);
	}
	/* the shared expert */
	gt = nd(r, K_PLAIN, s->ffsh, T, 1, 1, EXT, t);
	up = nd(r, K_PLAIN, s->ffsh, T, 1, 1, EXT, t);
	sh = nd(r, K_PLAIN, s->ffsh, T, 1, 1, gt, up);
	sh = nd(r, K_PLAIN, E, T, 1, 1, EXT, sh);
	sg = unary(r, nd(r, K_PLAIN, 1, T, 1, 1, EXT, t));
	sh = nd(r, K_INPLACE, E, T, 1, 1, sh, sg);
	return nd(r, K_INPLACE, E, T, 1, 1, q, sh);
}

/* The graph of T tokens, rows of them outputs. */
static void
build_deltanet(struct rg *r, const struct dshape *s, uint64_t T,
    uint64_t rows)
{
	struct graph	*g = r->g;
	uint64_t	E = s->embd, ns = s->ns, ts = T / ns;
	struct att_in	ai;
	int		scopy, out, x, in, t, sel, extra, q, k;
	uint32_t	il;

	/* the embeddings, expanded; the embeddings input no node reads */
	mg_add_tensor(g, K_EXT, T_F32, NULL);	/* EXT */
	x = nd(r, K_PLAIN, E, T, 1, 1, EXT, input(r, T_I32, T, 1, 1));
	expand(r, x);
	push_leaf(g, input(r, T_F32, E, T, 1));
	scopy = input(r, T_I32, s->n_rs, 1, 1);
	/* qwen35's positions: four a token (its M-RoPE sections) */
	ai.pos = input(r, T_I32, s->kind == D_QWEN3NEXT ? T : 4 * T, 1, 1);
	ai.kidx = input(r, T_I64, T, 1, 1);
	ai.vidx = input(r, T_I64, s->fa ? T : mg_mul_lim(g, T, s->hv *
	    s->head_kv), 1, 1);
	ai.mask = input(r, s->fa ? T_F16 : T_F32, s->n_kv, ts, ns);
	out = input(r, T_I32, rows, 1, 1);
	sel = vw(r, scopy, ns, 1, 1, 1, NULL, 0);
	extra = vw(r, scopy, s->n_rs - ns, 1, 1, 1, NULL, ns * 4);
	for (il = 0; il < s->n_layer; il++) {
		in = x;
		t = rms_norm(r, x);
		expand(r, t);
		if (s->flags[il] & F_ATTN)
			t = gated_attention(r, s, T, t, &ai);
		else
			t = delta_net(r, s, T, t, sel, extra);
		x = nd(r, K_INPLACE, E, T, 1, 1, t, in);
		t = rms_norm(r, x);
		if (s->kind == D_QWEN35) {
			q = nd(r, K_PLAIN, s->ff[il], T, 1, 1, EXT, t);
			k = nd(r, K_PLAIN, s->ff[il], T, 1, 1, EXT, t);
			t = nd(r, K_PLAIN, s->ff[il], T, 1, 1, q, k);
			t = nd(r, K_PLAIN, E, T, 1, 1, EXT, t);
		} else
			t = experts(r, s, T, t);
		x = nd(r, K_INPLACE, E, T, 1, 1, t, x);
	}
	t = rms_norm(r, x);
	g->t[t].output = 1;
	t = nd(r, K_PLAIN, E, rows, 1, 1, t, out);
	g->t[t].output = 1;
	t = nd(r, K_PLAIN, s->out, rows, 1, 1, EXT, t);
	g->t[t].output = 1;
	expand(r, t);
}

static uint64_t
graph_bytes(const struct dshape *s, uint64_t T, uint64_t rows, int *overflow)
{
	struct graph	g;
	struct rg	r;
	uint64_t	b;

	memset(&g, 0, sizeof g);
	memset(&r, 0, sizeof r);
	r.g = &g;
	build_deltanet(&r, s, T, rows);
	b = g.overflow ? 0 : mg_lay_out(&g);
	*overflow = g.overflow;
	free(r.seen);
	mg_free(&g);
	return b;
}

/* ------------------------------------------------------------ the model */


/* The tensors of each kind of block ("?": it may have it), by what the
   blocks hold: a delta-net layer, attention, the feed-forward. */
static const char *const q3n_linear[] = {
	"ssm_conv1d.weight", "ssm_dt.bias", "ssm_a", "ssm_ba.weight",
	"ssm_norm.weight", "ssm_out.weight", NULL
};
/* and its projection: ssm_in, or attn_qkv and attn_gate */
static const char *const q3n_in[] = { "ssm_in.weight", NULL };
static const char *const q3n_qkv[] = {
	"attn_qkv.weight", "attn_gate.weight", NULL
};
static const char *const q35_linear[] = {
	"attn_qkv.weight", "attn_gate.weight", "ssm_conv1d.weight",
	"ssm_dt.bias", "ssm_a", "ssm_beta.weight", "ssm_alpha.weight",
	"ssm_norm.weight", "ssm_out.weight", NULL
};
static const char *const dn_attn[] = {
	"attn_output.weight", "attn_q_norm.weight", "attn_k_norm.weight",
	NULL
};
/* and its projections: Q, K and V apart, or (not qwen3next's) in one */
static const char *const dn_qkv[] = {
	"attn_q.weight", "attn_k.weight", "attn_v.weight", NULL
};
static const char *const dn_fused[] = { "attn_qkv.weight", NULL };
static const char *const dn_moe[] = {
	"attn_norm.weight", "post_attention_norm.weight",
	"ffn_gate_inp.weight", "ffn_gate_exps.weight", "ffn_up_exps.weight",
	"ffn_down_exps.weight", "ffn_gate_inp_shexp.weight",
	"ffn_gate_shexp.weight", "ffn_up_shexp.weight",
	"ffn_down_shexp.weight", NULL
};
static const char *const dn_ffn[] = {
	"attn_norm.weight", "post_attention_norm.weight", "ffn_gate.weight",
	"ffn_up.weight", "ffn_down.weight", NULL
};
static const char *const dn_kept[] = {
	"token_embd.weight", "output_norm.weight", "output.weight", NULL
};

static const struct {
	const char		*arch;
	int			 kind;
	const char *const	*linear, *const *ffn;
} dn_archs[] = {
	{ "qwen3next", D_QWEN3NEXT, q3n_linear, dn_moe },
	{ "qwen35", D_QWEN35, q35_linear, dn_ffn },
	{ "qwen35moe", D_QWEN35MOE, q35_linear, dn_moe },
};

/* Whether block il has each of names (*missing: the first it lacks). */
static int
has_all(struct gguf_doc *d, int64_t il, const char *const *names,
    const char **missing)
{
	uint64_t	ne[4];

	for (; *names != NULL; names++)
		if (mc_tshape(d, il, *names, ne) != 0) {
			*missing = *names;
			return 0;
		}
	return 1;
}

/* Whether a tensor named (after "blk.N.") name is one of names. */
static int
one_of(const char *name, const char *const *names)
{
	for (; *names != NULL; names++)
		if (strcmp(name, *names) == 0)
			return 1;
	return 0;
}

/* The heads of attention block il, as those of the others: 0, or 1 not
   modelled. */
static int
attn_heads(struct gguf_mem_model *m, struct gguf_doc *d, uint32_t il,
    int *first)
{
	const struct gguf_mem_layer	*l = &m->layers[il];
	const char			*miss;
	uint64_t			 ne[4], head, fused;

	/* Q, K and V apart, or in one (as the other blocks) */
	fused = !has_all(d, il, dn_qkv, &miss);
	if (fused && (m->c_kind == D_QWEN3NEXT ||
	    !has_all(d, il, dn_fused, &miss)))
		return mc_cnot(m, " without blk.%u.%s", il, miss);
	if (fused && has_all(d, il, (const char *const[]){ "attn_q.weight",
	    NULL }, &miss))
		return mc_cnot(m, " blocks unlike one another");
	if (l->kind != GGUF_MEM_FULL || l->head_k == 0 ||
	    l->head_k != l->head_v || l->k % l->head_k != 0 ||
	    l->v != l->k || l->r + l->s != 0 ||
	    mc_tshape(d, il, fused ? "attn_qkv.weight" : "attn_q.weight",
	    ne) != 0 || (fused && ne[1] < 2 * l->k) ||
	    (ne[1] - (fused ? 2 * l->k : 0)) % (2 * l->head_k) != 0)
		return mc_cnot(m, " blocks unlike one another");
	head = (ne[1] - (fused ? 2 * l->k : 0)) / (2 * l->head_k);
	if (!*first && (m->c_rec[S_AQKV] != fused))
		return mc_cnot(m, " blocks unlike one another");
	m->c_rec[S_AQKV] = fused;
	if (!*first && (l->head_k != m->c_head_k ||
	    l->k / l->head_k != m->c_head_kv || head != m->c_head))
		return mc_cnot(m, " blocks unlike one another");
	m->c_head_k = m->c_head_v = l->head_k;
	m->c_head_kv = l->k / l->head_k;
	m->c_head = head;
	*first = 0;
	if (m->c_head_k > ((uint64_t)1 << 24) ||
	    m->c_head > ((uint64_t)1 << 24) ||
	    m->c_head_kv > ((uint64_t)1 << 24) || m->c_head_kv == 0)
		return mc_cnot(m, " with sizes over 2^24");
	return 0;
}

/* The sizes of the delta net: 0, or 1 not modelled. */
static int
dn_sizes(struct gguf_mem_model *m, struct gguf_doc *d)
{
	uint64_t	*c = m->c_rec, inner;
	size_t		 j;

	if (!mc_key_u64(d, m->arch, "ssm.conv_kernel", &c[S_CONV]) ||
	    !mc_key_u64(d, m->arch, "ssm.inner_size", &inner) ||
	    !mc_key_u64(d, m->arch, "ssm.state_size", &c[S_SK]) ||
	    !mc_key_u64(d, m->arch, "ssm.time_step_rank", &c[S_NV]) ||
	    !mc_key_u64(d, m->arch, "ssm.group_count", &c[S_NK]))
		return mc_cnot(m, " without its ssm sizes");
	for (j = 0; j < 4; j++)
		if (c[j] == 0 || c[j] > ((uint64_t)1 << 24))
			return mc_cnot(m, " with ssm sizes of 0 or over 2^24");
	/* ggml_gated_delta_net: V heads of the K heads' size, a whole
	   number of them a K head */
	if (c[S_NV] % c[S_NK] != 0 || inner != c[S_SK] * c[S_NV])
		return mc_cnot(m, " with ssm sizes llama.cpp's delta net does "
		    "not take");
	return 0;
}

/*
 * qwen3next's projection of delta-net block il: ssm_in, or attn_qkv and
 * attn_gate, as the other blocks' (*qkv: -1 before the first). 0, or 1
 * not modelled.
 */
static int
q3n_proj(struct gguf_mem_model *m, struct gguf_doc *d, uint32_t il, int *qkv)
{
	const char	*miss;
	int		 in = has_all(d, il, q3n_in, &miss);
	int		 fused = has_all(d, il, q3n_qkv, &miss);

	if (in == fused)	/* both, or neither */
		return in ? mc_cnot(m, " blocks with both ssm_in and attn_qkv") :
		    mc_cnot(m, " without blk.%u.ssm_in.weight", il);
	if (*qkv >= 0 && *qkv != fused)
		return mc_cnot(m, " blocks unlike one another");
	*qkv = fused;
	m->c_rec[S_QKV] = (uint64_t)fused;
	return 0;
}

int
mc_deltanet_make(struct gguf_mem_model *m, struct gguf_doc *d)
{
	struct gguf_doc_tensor	 t;
	uint64_t		 ne[4], i, nt;
	uint32_t		 il;
	size_t			 k, len;
	int64_t			 b;
	const char		*miss, *bare;
	char			 name[96];
	int			 first = 1, qkv = -1;

	for (k = 0; k < sizeof dn_archs / sizeof dn_archs[0]; k++)
		if (strcmp(m->arch, dn_archs[k].arch) == 0)
			break;
	if (k == sizeof dn_archs / sizeof dn_archs[0])
		return 0;
	m->c_kind = dn_archs[k].kind;
	memset(m->c_rec, 0, sizeof m->c_rec);
	if (mc_tshape(d, -1, "token_embd.weight", ne) != 0)
		return mc_cnot(m, " without token_embd.weight");
	m->c_embd = ne[0];
	if (mc_tshape(d, -1, "output.weight", ne) != 0)
		mc_tshape(d, -1, "token_embd.weight", ne);
	m->c_out = ne[1];
	if (m->n_layer == 0 || m->layers == NULL)
		return mc_cnot(m, " without blocks");
	if (m->c_embd > ((uint64_t)1 << 24) || m->c_out > ((uint64_t)1 << 32))
		return mc_cnot(m, " with an embedding over 2^24 or a vocabulary "
		    "over 2^32");
	/* Every tensor one the graph reads. */
	nt = gguf_doc_n_tensors(d);
	for (i = 0; i < nt; i++) {
		if (gguf_doc_tensor(d, i, &t) != 0 ||
		    (t.flags & GGUF_ED_REMOVED))
			continue;
		len = (size_t)t.name.n;
		if (len >= sizeof name)
			len = sizeof name - 1;
		memcpy(name, t.name.p, len);
		name[len] = '\0';
		if ((b = gguf_tensor_block(&t.name)) < 0 ||
		    (uint64_t)b >= m->n_layer) {
			if (!one_of(name, dn_kept))
				return mc_cnot(m, " with %s", name);
			continue;
		}
		bare = strchr(name + 4, '.');
		bare = bare != NULL ? bare + 1 : name;
		if (!one_of(bare, dn_archs[k].ffn) && !one_of(bare,
		    m->layers[b].kind == GGUF_MEM_RECURRENT ?
		    dn_archs[k].linear : dn_attn) &&
		    (m->layers[b].kind == GGUF_MEM_RECURRENT ||
		    (!one_of(bare, dn_qkv) && (!one_of(bare, dn_fused) ||
		    m->c_kind == D_QWEN3NEXT))) &&
		    (m->layers[b].kind != GGUF_MEM_RECURRENT ||
		    m->c_kind != D_QWEN3NEXT || (!one_of(bare, q3n_in) &&
		    !one_of(bare, q3n_qkv))))
			return mc_cnot(m, " blocks with %s", name);
	}
	if (!has_all(d, -1, (const char *const[]){ "output_norm.weight",
	    NULL }, &miss))
		return mc_cnot(m, " without %s", miss);
	if (dn_sizes(m, d) != 0)
		return 1;
	m->c_ff = xcalloc(m->n_layer, sizeof *m->c_ff);
	m->c_flags = xcalloc(m->n_layer, sizeof *m->c_flags);
	for (il = 0; il < m->n_layer; il++) {
		if (!has_all(d, il, dn_archs[k].ffn, &miss))
			return mc_cnot(m, " without blk.%u.%s", il, miss);
		if (m->layers[il].kind == GGUF_MEM_RECURRENT) {
			if (!has_all(d, il, dn_archs[k].linear, &miss))
				return mc_cnot(m, " without blk.%u.%s", il, miss);
			if (m->c_kind == D_QWEN3NEXT &&
			    q3n_proj(m, d, il, &qkv) != 0)
				return 1;
		} else {
			if (!has_all(d, il, dn_attn, &miss))
				return mc_cnot(m, " without blk.%u.%s", il, miss);
			if (attn_heads(m, d, il, &first) != 0)
				return 1;
			m->c_flags[il] = F_ATTN;
		}
		if (m->c_kind == D_QWEN35) {
			mc_tshape(d, il, "ffn_gate.weight", ne);
			m->c_ff[il] = ne[1];
			continue;
		}
		mc_tshape(d, il, "ffn_gate_inp.weight", ne);
		if ((m->c_nexp != 0 && ne[1] != m->c_nexp) || ne[1] == 0)
			return mc_cnot(m, " blocks unlike one another");
		m->c_nexp = ne[1];
		mc_tshape(d, il, "ffn_gate_exps.weight", ne);
		if (il > 0 && ne[1] != m->c_rec[S_FFE])
			return mc_cnot(m, " blocks unlike one another");
		m->c_rec[S_FFE] = ne[1];
		mc_tshape(d, il, "ffn_gate_shexp.weight", ne);
		if (il > 0 && ne[1] != m->c_ffsh)
			return mc_cnot(m, " blocks unlike one another");
		m->c_ffsh = ne[1];
	}
	if (m->c_nexp != 0) {
		if (m->c_nexp > ((uint64_t)1 << 24) || m->c_ffsh == 0 ||
		    m->c_ffsh > ((uint64_t)1 << 24) ||
		    m->c_rec[S_FFE] > ((uint64_t)1 << 24))
			return mc_cnot(m, " with sizes over 2^24");
		if (!mc_key_u64(d, m->arch, "expert_used_count", &m->c_nused) ||
		    m->c_nused == 0 || m->c_nused > m->c_nexp)
			return mc_cnot(m, " without an expert_used_count of 1 to "
			    "its experts");
	}
	m->compute = 1;
	m->cwhy[0] = '\0';
	return 1;
}

int
mc_deltanet_compute(const struct gguf_mem_model *m,
    const struct gguf_mem_opts *o, const struct gguf_mem_need *n,
    uint64_t *bytes, char *why, size_t len)
{
	struct dshape	s;
	uint64_t	ub, pp, tg;
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
	if (gguf_mem_flash_attn(o) && (o->type_k == GGUF_T_F32 ||
	    o->type_v == GGUF_T_F32)) {
		snprintf(why, len, "compute: not modelled for an F32 cache "
		    "with flash attention");
		return -1;
	}
	memset(&s, 0, sizeof s);
	s.c = m->c_rec;
	s.ff = m->c_ff;
	s.flags = m->c_flags;
	s.head = m->c_head;
	s.head_kv = m->c_head_kv;
	s.hk = m->c_head_k;
	s.hv = m->c_head_v;
	s.n_kv = n->cells;
	s.fa = gguf_mem_flash_attn(o);
	s.n_exp = m->c_nexp;
	s.n_used = m->c_nused;
	s.ffsh = m->c_ffsh;
	s.embd = m->c_embd;
	s.out = m->c_out;
	s.n_layer = m->n_layer;
	s.kind = m->c_kind;
	s.ns = n->streams != 0 ? n->streams : 1;
	s.n_rs = o->n_seq > s.ns ? o->n_seq : s.ns;
	ub = gguf_mem_ubatch(o, o->n_ctx != 0 ? o->n_ctx : m->n_ctx_train);
	pp = graph_bytes(&s, (ub + s.ns - 1) / s.ns * s.ns, ub, &ov1);
	tg = graph_bytes(&s, s.ns, s.ns, &ov2);
	if (ov1 || ov2) {
		snprintf(why, len, "compute: too large");
		return -1;
	}
	*bytes = pp > tg ? pp : tg;
	return 0;
}
