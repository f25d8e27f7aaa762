/*
 * mem_compute_recurrent.c - llama.cpp's compute buffer on the CPU for
 * the recurrent architectures (see mem_compute.c for how llama.cpp
 * reserves its graphs and how ggml's allocator lays them out; mem_graph.c
 * for the model of both).
 *
 * These graphs are not expanded in one pass from the logits: llama.cpp
 * expands some tensors as it builds them (the embeddings; each write
 * into the recurrent state), so a block's first nodes are those its
 * state's writes need, and the rest of it is reached only from the next
 * block's writes (or the logits). The graph is therefore made here as
 * ggml makes it: tensors first, then expanded where llama.cpp expands
 * them, depth first, sources in order (expand()).
 *
 * The recurrent state (llama.cpp's build_rs): a stream (sequence) of
 * the micro-batch reads its row of the state (a row index input of the
 * state's size, n_seq_max rows: the micro-batch's sequences first, then
 * those it does not hold, whose rows are copied over); only the
 * micro-batch's rows are the graph's own tensors.
 *
 * mamba (llm_build_mamba, its Mamba layer): per block RMS norm; the input
 * projection, split in x and z; the conv state's rows and x transposed,
 * concatenated, their last columns written back; the short convolution
 * (ggml_ssm_conv), its bias, SiLU; the projection to dt, B and C, dt
 * made contiguous (or dt, B and C RMS-normed: ssm.dt_b_c_rms, and
 * jamba's norms with weights), projected and biased; the selective
 * scan (ggml_ssm_scan) of the SSM state's rows, its new states written
 * back; y plus x times D, gated by z (SwiGLU), the output projection;
 * on the last block the rows of the outputs; the residual. Then the
 * final norm and the logits, both outputs. Its Mamba-2 layer (mamba2):
 * one input projection split in z, xBC and dt; the conv state and xBC
 * concatenated, their last columns written back; the convolution, its
 * bias, SiLU; x, B and C of heads and groups, dt made contiguous and
 * biased; the scan, its new states written back; y plus x times D,
 * gated by z, RMS-normed by group; the output projection.
 *
 * rwkv6 (llm_build_rwkv6): the embeddings layer-normed; per block the
 * token shift's state (the last token's normed input of the time mix
 * and of the channel mix), layer norm, the previous tokens (the shift,
 * then all but the last), the time mix (the lerps fused: low-rank mix,
 * five views of it; receptance, key, value, gate; the low-rank decay;
 * ggml_rwkv_wkv6 over the WKV state's rows, its new states written back;
 * group norm, the gate, the output projection), the residual, layer
 * norm, the token shift's new rows written back; on the last block the
 * rows of the outputs; the channel mix (receptance, squared ReLU key,
 * value), the residual, halved every rescale_every_n_layers blocks.
 * Then layer norm and the logits. rwkv7 (llm_build_rwkv7) is built
 * alike: its time mix lerps six views at once (receptance, decay, key,
 * value, in-context learning rate, gate), the decay low-rank and
 * squashed, the value mixed with the first block's from the second
 * block on, the key's L2-normed copy and the rate, ggml_rwkv_wkv7 over
 * the state's rows; group norm, plus the value times the bonus of
 * receptance and key, the gate, the output; its channel mix a lerp and
 * a squared-ReLU feed-forward, never rescaled.
 *
 * The hybrids attend as llama.cpp's build_attn does (attend()) where a
 * block has KV heads: lfm2 (and lfm2moe), nemotron_h, jamba,
 * granitehybrid and falcon-h1 are told at their builders. The experts
 * of lfm2moe, jamba and granitehybrid are llama.cpp's build_moe_ffn
 * (experts()): its weights expanded as soon as they are made, so the
 * block before them is expanded there too, and so is each sum of the
 * experts' outputs (before the next block's state is read).
 *
 * Only the tensors a graph is known to read are accepted: any other
 * (biases of the projections or a fused QKV but falcon-h1's)
 * leaves the compute buffer "not modelled".
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

enum rec_kind {
	R_MAMBA = MC_RECURRENT,	/* llm_build_mamba, Mamba (1) layers */
	R_MAMBA2,		/* the same, Mamba-2 layers */
	R_RWKV6,		/* llm_build_rwkv6 */
	R_RWKV7,		/* llm_build_rwkv7 */
	R_LFM2,			/* llm_build_lfm2: short convolutions and
				   attention */
	R_NEMOTRON_H,		/* llm_build_nemotron_h: Mamba-2, attention
				   or a feed-forward a block */
	R_JAMBA,		/* llm_build_jamba: Mamba or attention */
	R_GRANITEH,		/* llm_build_granite_hybrid: Mamba-2 or
				   attention, scaled */
	R_FALCONH1		/* llm_build_falcon_h1: attention and Mamba-2
				   side by side */
};

/* m->c_rec's sizes */
#define S_CONV		0	/* ssm.conv_kernel */
#define S_INNER		1	/* ssm.inner_size */
#define S_STATE		2	/* ssm.state_size */
#define S_RANK		3	/* ssm.time_step_rank (Mamba-2: heads) */
#define S_GROUP		4	/* ssm.group_count */
#define S_HEAD		5	/* RWKV: wkv.head_size */
#define S_TMX		6	/* time_mix_extra_dim */
#define S_TDX		7	/* time_decay_extra_dim */
#define S_RESCALE	8	/* rescale_every_n_layers */
#define S_FF		9	/* the channel mix's length */
#define S_LCACHE	12	/* lfm2: shortconv.l_cache */
#define S_QKV		17	/* falcon-h1: one projection of Q, K and V on
				   every block (F_QS, F_QB its scale and bias) */
#define S_SCALE		14	/* granitehybrid: scaled embeddings, residual
				   branches, logits (1 each, 15, 16) */
#define S_NORMS		13	/* Mamba: RMS norms of dt, B and C: 1, with
				   weights: 2 */
#define S_VL		10	/* RWKV-7: the value residual's rank */
#define S_GL		11	/* the gate's rank (S_TMX: the decay's, S_TDX:
				   the in-context learning rate's) */

struct rshape {
	const uint64_t	*c;		/* m->c_rec */
	uint64_t	 embd, out;
	uint32_t	 n_layer;
	int		 kind;
	uint64_t	 ns;		/* the micro-batch's sequences */
	uint64_t	 n_rs;		/* rows of the state: n_seq_max */
	/* the attention of hybrids */
	const uint64_t	*ff;		/* feed-forward length, per block */
	const uint16_t	*flags;		/* F_*, per block */
	uint64_t	 head, head_kv, hk, hv;
	uint64_t	 n_kv;		/* cells of a stream */
	int		 fa;
	/* the experts */
	uint64_t	 n_exp, n_used;	/* experts; those used a token */
	int		 normw, probsb;	/* weights normalized; a selection
					   bias */
	uint64_t	 ffsh;		/* the shared expert's length */
};

#define F_ATTN		0x01	/* the block attends (else: its state) */
#define F_FFN		0x02	/* the block is a feed-forward only */
#define F_MOE		0x04	/* its feed-forward: experts */
#define F_SHEXP		0x08	/* and a shared expert */
/* falcon-h1: a scale after a projection (Q, K, V, the attention's
   output, the Mamba-2 layer's input and output), a bias after one (Q, K,
   V; the feed-forward's gate, up and down) */
#define F_QS		0x10
#define F_KS		0x20
#define F_VS		0x40
#define F_OS		0x80
#define F_INS		0x100
#define F_OUTS		0x200
#define F_QB		0x400
#define F_KB		0x800
#define F_VB		0x1000
#define F_GB		0x2000
#define F_UB		0x4000
#define F_DB		0x8000

/* ------------------------------------------------ tensors, expanded */

struct rg {
	struct graph	*g;
	unsigned char	*seen;
	size_t		 n_seen;
};

/* A tensor of the graph, not yet a node: up to MAX_SRC sources, -1 for
   none (weights and the state are EXT). */
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

/* ggml_transpose: dimensions 0 and 1 swapped. */
static int
transpose(struct rg *r, int a)
{
	const struct ct	*s = &r->g->t[a];
	uint64_t	 nb[4] = { s->nb[1], s->nb[0], s->nb[2], s->nb[3] };

	return vw(r, a, s->ne[1], s->ne[0], s->ne[2], s->ne[3], nb, 0);
}

/* A view of a with a's strides from dimension 1 on (nb0 its element). */
static int
vw_rows(struct rg *r, int a, uint64_t ne0, uint64_t ne1, uint64_t ne2,
    uint64_t offs)
{
	const struct ct	*s = &r->g->t[a];
	uint64_t	 nb[4];

	nb[0] = s->nb[0];
	nb[1] = s->nb[1];
	nb[2] = s->nb[2];
	nb[3] = mg_mul_lim(r->g, s->nb[2], ne2);
	return vw(r, a, ne0, ne1, ne2, 1, nb, offs);
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

/* A graph input: a leaf once the expansion reaches it (the allocator
   places the leafs first, in that order). */
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

/* ------------------------------------------------------- the graphs */

/*
 * The weights' stand-in EXT and the embeddings of T tokens, expanded as
 * build_inp_embd does: the tokens and the embeddings input no node reads
 * are the first leafs.
 */
static int
embed(struct rg *r, uint64_t embd, uint64_t T)
{
	int	x;

	mg_add_tensor(r->g, K_EXT, T_F32, NULL);	/* EXT */
	x = nd(r, K_PLAIN, embd, T, 1, 1, EXT, input(r, T_I32, T, 1, 1));
	expand(r, x);
	push_leaf(r->g, input(r, T_F32, embd, T, 1));
	return x;
}

/* A write of t into the state (no room of its own), expanded. */
static void
write_state(struct rg *r, int t)
{
	expand(r, nd(r, K_EXT, 1, 1, 1, 1, t, EXT));
}

/*
 * build_rs: the rows of the state of the micro-batch's sequences (get,
 * made by the caller, reads them through the index view sel), expanded;
 * then the rows of the others, copied over.
 */
static int
read_state(struct rg *r, const struct rshape *s, uint64_t size, int get,
    int extra)
{
	expand(r, get);
	write_state(r, nd(r, K_PLAIN, size, s->n_rs - s->ns, 1, 1, EXT,
	    extra));
	return get;
}

/* llm_build_mamba's Mamba layer over t (T tokens): its output. */
static int
mamba_layer(struct rg *r, const struct rshape *s, uint64_t T, int t,
    int sel, int extra)
{
	uint64_t	conv = s->c[S_CONV], inner = s->c[S_INNER];
	uint64_t	state = s->c[S_STATE], rank = s->c[S_RANK];
	uint64_t	ns = s->ns, ts = T / ns;
	int		cs, xz, x, z, cx, y, xdb, dt, B, C, cur, x4, yv, src[5];

	cs = read_state(r, s, (conv - 1) * inner, nd(r, K_PLAIN,
	    (conv - 1) * inner, ns, 1, 1, EXT, sel), extra);
	cs = vw(r, cs, conv - 1, inner, ns, 1, NULL, 0);
	t = vw(r, t, s->embd, ts, ns, 1, NULL, 0);
	xz = nd(r, K_PLAIN, 2 * inner, ts, ns, 1, EXT, t);
	x = vw_rows(r, xz, inner, ts, ns, 0);
	z = vw_rows(r, xz, inner, ts, ns, inner * 4);
	/* the conv state and x: its last columns written back */
	cx = nd(r, K_PLAIN, conv - 1 + ts, inner, ns, 1, cs, transpose(r, x));
	write_state(r, vw_rows(r, cx, conv - 1, inner, ns, ts * 4));
	x = nd(r, K_PLAIN, inner, ts, ns, 1, cx, EXT);
	x = nd(r, K_INPLACE, inner, ts, ns, 1, x, EXT);
	x = nd(r, K_INPLACE, inner, ts, ns, 1, x, -1);
	/* dt, B, C */
	xdb = nd(r, K_PLAIN, rank + 2 * state, ts, ns, 1, EXT, x);
	dt = vw_rows(r, xdb, rank, ts, ns, 0);
	{
		const struct ct	*d = &r->g->t[xdb];
		uint64_t	 nb[4] = { 4, state * 4, d->nb[1], d->nb[2] };

		B = vw(r, xdb, state, 1, ts, ns, nb, rank * 4);
		C = vw(r, xdb, state, 1, ts, ns, nb, (rank + state) * 4);
	}
	if (s->c[S_NORMS]) {	/* RMS norms of dt, B and C */
		dt = nd(r, K_INPLACE, rank, ts, ns, 1, dt, -1);
		B = nd(r, K_INPLACE, state, 1, ts, ns, B, -1);
		C = nd(r, K_INPLACE, state, 1, ts, ns, C, -1);
		if (s->c[S_NORMS] > 1) {	/* and their weights */
			dt = nd(r, K_INPLACE, rank, ts, ns, 1, dt, EXT);
			B = nd(r, K_INPLACE, state, 1, ts, ns, B, EXT);
			C = nd(r, K_INPLACE, state, 1, ts, ns, C, EXT);
		}
	} else		/* made contiguous */
		dt = nd(r, K_PLAIN, rank, ts, ns, 1, dt, -1);
	dt = nd(r, K_PLAIN, inner, ts, ns, 1, EXT, dt);
	dt = nd(r, K_INPLACE, inner, ts, ns, 1, dt, EXT);
	cur = x;
	x4 = vw(r, x, 1, inner, ts, ns, NULL, 0);
	/* the scan: y, then the new states */
	y = nd(r, K_PLAIN, mg_mul_lim(r->g, inner, T) +
	    mg_mul_lim(r->g, state * inner, ns), 1, 1, 1, EXT, x4);
	src[0] = dt;
	src[1] = EXT;
	src[2] = B;
	src[3] = C;
	src[4] = sel;
	more_src(r, y, 5, src);
	read_state(r, s, state * inner, y, extra);
	write_state(r, vw(r, y, state * inner * ns, 1, 1, 1, NULL,
	    mg_mul_lim(r->g, inner * 4, T)));
	yv = vw(r, y, inner, ts, ns, 1, NULL, 0);
	z = nd(r, K_PLAIN, inner, ts, ns, 1, z, -1);
	cur = nd(r, K_INPLACE, inner, ts, ns, 1, cur, EXT);
	yv = nd(r, K_INPLACE, inner, ts, ns, 1, yv, cur);
	y = nd(r, K_PLAIN, inner, ts, ns, 1, z, yv);
	cur = nd(r, K_PLAIN, s->embd, ts, ns, 1, EXT, y);
	return vw(r, cur, s->embd, T, 1, 1, NULL, 0);
}

/* llm_build_mamba's Mamba-2 layer over t (T tokens): its output. */
static int
mamba2_layer(struct rg *r, const struct rshape *s, uint64_t T, int t,
    int sel, int extra, unsigned f)
{
	uint64_t	conv = s->c[S_CONV], inner = s->c[S_INNER];
	uint64_t	state = s->c[S_STATE], nh = s->c[S_RANK];
	uint64_t	ng = s->c[S_GROUP], hd = inner / nh;
	uint64_t	xbc = inner + 2 * ng * state, ns = s->ns, ts = T / ns;
	uint64_t	nb[4];
	int		cs, zx, x, z, cx, y, dt, B, C, src[5];

	cs = read_state(r, s, (conv - 1) * xbc, nd(r, K_PLAIN,
	    (conv - 1) * xbc, ns, 1, 1, EXT, sel), extra);
	cs = vw(r, cs, conv - 1, xbc, ns, 1, NULL, 0);
	zx = nd(r, K_PLAIN, 2 * inner + 2 * ng * state + nh, T, 1, 1, EXT, t);
	if (f & F_INS)
		zx = nd(r, K_INPLACE, 2 * inner + 2 * ng * state + nh, T, 1, 1,
		    zx, EXT);
	zx = vw(r, zx, 2 * inner + 2 * ng * state + nh, ts, ns, 1, NULL, 0);
	nb[0] = 4;
	nb[1] = hd * 4;
	nb[2] = r->g->t[zx].nb[1];
	nb[3] = r->g->t[zx].nb[2];
	z = vw(r, zx, hd, nh, ts, ns, nb, 0);
	x = vw_rows(r, zx, xbc, ts, ns, inner * 4);
	dt = vw_rows(r, zx, nh, ts, ns, (2 * inner + 2 * ng * state) * 4);
	/* the conv state and xBC: its last columns written back */
	cx = nd(r, K_PLAIN, conv - 1 + ts, xbc, ns, 1, cs, transpose(r, x));
	write_state(r, vw_rows(r, cx, conv - 1, xbc, ns, ts * 4));
	x = nd(r, K_PLAIN, xbc, ts, ns, 1, cx, EXT);
	x = nd(r, K_INPLACE, xbc, ts, ns, 1, x, EXT);
	x = nd(r, K_INPLACE, xbc, ts, ns, 1, x, -1);
	/* x, B, C of the heads and groups */
	nb[1] = state * 4;
	nb[2] = r->g->t[x].nb[1];
	nb[3] = r->g->t[x].nb[2];
	B = vw(r, x, state, ng, ts, ns, nb, inner * 4);
	C = vw(r, x, state, ng, ts, ns, nb, (inner + ng * state) * 4);
	nb[1] = hd * 4;
	x = vw(r, x, hd, nh, ts, ns, nb, 0);
	dt = nd(r, K_PLAIN, nh, ts, ns, 1, dt, -1);
	dt = nd(r, K_INPLACE, nh, ts, ns, 1, dt, EXT);
	/* the scan: y, then the new states */
	y = nd(r, K_PLAIN, mg_mul_lim(r->g, inner, T) +
	    mg_mul_lim(r->g, state * inner, ns), 1, 1, 1, EXT, x);
	src[0] = dt;
	src[1] = EXT;
	src[2] = B;
	src[3] = C;
	src[4] = sel;
	more_src(r, y, 5, src);
	read_state(r, s, state * inner, y, extra);
	write_state(r, vw(r, y, state * inner * ns, 1, 1, 1, NULL,
	    mg_mul_lim(r->g, inner * 4, T)));
	/* y plus x times D, gated by z; grouped RMS norm; out */
	z = nd(r, K_PLAIN, hd, nh, ts, ns, z, -1);
	y = vw(r, y, hd, nh, ts, ns, NULL, 0);
	x = nd(r, K_INPLACE, hd, nh, ts, ns, x, EXT);
	y = nd(r, K_INPLACE, hd, nh, ts, ns, y, x);
	y = nd(r, K_PLAIN, hd, nh, ts, ns, z, y);
	y = vw(r, y, inner / ng, ng, ts, ns, NULL, 0);
	y = nd(r, K_INPLACE, inner / ng, ng, ts, ns, y, -1);
	y = nd(r, K_INPLACE, inner / ng, ng, ts, ns, y, EXT);
	y = vw(r, y, inner, ts, ns, 1, NULL, 0);
	y = nd(r, K_PLAIN, s->embd, T, 1, 1, EXT, y);
	if (f & F_OUTS)
		y = nd(r, K_INPLACE, s->embd, T, 1, 1, y, EXT);
	return y;
}

/* llm_build_mamba's graph of T tokens, rows of them outputs. */
static void
build_mamba(struct rg *r, const struct rshape *s, uint64_t T, uint64_t rows)
{
	struct graph	*g = r->g;
	int		scopy, out, x, in, t, sel, extra;
	uint32_t	il;

	x = embed(r, s->embd, T);
	scopy = input(r, T_I32, s->n_rs, 1, 1);
	out = input(r, T_I32, rows, 1, 1);
	sel = vw(r, scopy, s->ns, 1, 1, 1, NULL, 0);
	extra = vw(r, scopy, s->n_rs - s->ns, 1, 1, 1, NULL, s->ns * 4);
	for (il = 0; il < s->n_layer; il++) {
		in = x;
		t = nd(r, K_INPLACE, s->embd, T, 1, 1, x, -1);
		t = nd(r, K_INPLACE, s->embd, T, 1, 1, t, EXT);
		t = s->kind == R_MAMBA2 ? mamba2_layer(r, s, T, t, sel,
		    extra, 0) : mamba_layer(r, s, T, t, sel, extra);
		if (il + 1 == s->n_layer) {		/* the outputs' rows */
			t = nd(r, K_PLAIN, s->embd, rows, 1, 1, t, out);
			in = nd(r, K_PLAIN, s->embd, rows, 1, 1, in, out);
			T = rows;
		}
		x = nd(r, K_INPLACE, s->embd, T, 1, 1, t, in);
	}
	t = nd(r, K_INPLACE, s->embd, T, 1, 1, x, -1);
	t = nd(r, K_INPLACE, s->embd, T, 1, 1, t, EXT);
	g->t[t].output = 1;
	t = nd(r, K_PLAIN, s->out, T, 1, 1, EXT, t);
	g->t[t].output = 1;
	expand(r, t);
}

/* ggml_norm, then the norm's weight and bias (build_norm, LLM_NORM). */
static int
layer_norm(struct rg *r, int t)
{
	const struct ct	*c = &r->g->t[t];
	uint64_t	 a = c->ne[0], b = c->ne[1], d = c->ne[2], e = c->ne[3];

	t = nd(r, K_PLAIN, a, b, d, e, t, -1);
	t = nd(r, K_INPLACE, a, b, d, e, t, EXT);
	return nd(r, K_INPLACE, a, b, d, e, t, EXT);
}

/* A view of t's rows (E, n, ns) from row `from` of each sequence. */
static int
seq_rows(struct rg *r, int t, uint64_t n, uint64_t from)
{
	const struct ct	*c = &r->g->t[t];

	return vw_rows(r, t, c->ne[0], n, c->ne[2], from * c->nb[1]);
}

/*
 * RWKV-6's time mix (build_rwkv6_time_mix) of cur (E, ts, ns) and x_prev,
 * the lerps fused: its output (E, ts, ns).
 */
static int
rwkv6_time_mix(struct rg *r, const struct rshape *s, uint64_t T, int cur,
    int x_prev, int sel, int extra)
{
	uint64_t	E = s->embd, H = s->c[S_HEAD], nh = E / H;
	uint64_t	X = s->c[S_TMX], D = s->c[S_TDX], ns = s->ns, nb[4];
	int		sx, c2, x, xw, xk, xv, xr, xg, k, v, q, g, w, st, wkv,
			src[4];

	sx = nd(r, K_INPLACE, E, T / ns, ns, 1, x_prev, cur);
	sx = vw(r, sx, E, T, 1, 1, NULL, 0);
	c2 = vw(r, cur, E, T, 1, 1, NULL, 0);
	x = nd(r, K_INPLACE, E, T, 1, 1, sx, EXT);
	x = nd(r, K_INPLACE, E, T, 1, 1, x, c2);
	x = nd(r, K_PLAIN, 5 * X, T, 1, 1, EXT, x);
	x = nd(r, K_INPLACE, 5 * X, T, 1, 1, x, -1);
	x = vw(r, x, X, 1, 5, T, NULL, 0);
	nb[0] = 4;
	nb[1] = r->g->t[x].nb[1];
	nb[2] = r->g->t[x].nb[3];
	nb[3] = r->g->t[x].nb[2];
	x = vw(r, x, X, 1, T, 5, nb, 0);
	x = nd(r, K_PLAIN, X, 1, T, 5, x, -1);
	x = nd(r, K_PLAIN, E, 1, T, 5, EXT, x);
	/* the lerps, fused */
	x = nd(r, K_INPLACE, E, 1, T, 5, x, EXT);
	x = nd(r, K_INPLACE, E, 1, T, 5, x, vw(r, sx, E, 1, T, 1, NULL, 0));
	x = nd(r, K_INPLACE, E, 1, T, 5, x, vw(r, c2, E, 1, T, 1, NULL, 0));
	nb[1] = r->g->t[x].nb[1];
	nb[2] = nb[3] = mg_mul_lim(r->g, nb[1], T);
	xw = vw(r, x, E, T, 1, 1, nb, 0);
	xk = vw(r, x, E, T, 1, 1, nb, nb[2]);
	xv = vw(r, x, E, T, 1, 1, nb, 2 * nb[2]);
	xr = vw(r, x, E, T, 1, 1, nb, 3 * nb[2]);
	xg = vw(r, x, E, T, 1, 1, nb, 4 * nb[2]);
	q = nd(r, K_PLAIN, E, T, 1, 1, EXT, xr);
	k = nd(r, K_PLAIN, E, T, 1, 1, EXT, xk);
	v = nd(r, K_PLAIN, E, T, 1, 1, EXT, xv);
	g = nd(r, K_PLAIN, E, T, 1, 1, EXT, xg);
	g = nd(r, K_INPLACE, E, T, 1, 1, g, -1);
	k = vw(r, k, H, nh, T, 1, NULL, 0);
	v = vw(r, v, H, nh, T, 1, NULL, 0);
	q = vw(r, q, H, nh, T, 1, NULL, 0);
	w = nd(r, K_PLAIN, D, T, 1, 1, EXT, xw);
	w = nd(r, K_INPLACE, D, T, 1, 1, w, -1);
	w = nd(r, K_PLAIN, E, T, 1, 1, EXT, w);
	w = nd(r, K_INPLACE, E, T, 1, 1, w, EXT);
	w = nd(r, K_INPLACE, E, T, 1, 1, w, -1);
	w = nd(r, K_INPLACE, E, T, 1, 1, w, -1);
	w = nd(r, K_INPLACE, E, T, 1, 1, w, -1);
	w = vw(r, w, H, nh, T, 1, NULL, 0);
	st = read_state(r, s, E * H, nd(r, K_PLAIN, E * H, ns, 1, 1, EXT,
	    sel), extra);
	wkv = nd(r, K_PLAIN, E, T + H * ns, 1, 1, k, v);
	src[0] = q;
	src[1] = EXT;
	src[2] = w;
	src[3] = st;
	more_src(r, wkv, 4, src);
	cur = vw(r, wkv, E * T, 1, 1, 1, NULL, 0);
	write_state(r, vw(r, wkv, E * H * ns, 1, 1, 1, NULL,
	    mg_mul_lim(r->g, E * 4, T)));
	/* the group norm, the gate, out */
	cur = vw(r, cur, H, nh, T, 1, NULL, 0);
	cur = nd(r, K_PLAIN, H, nh, T, 1, cur, -1);
	cur = vw(r, cur, E, T, 1, 1, NULL, 0);
	cur = nd(r, K_INPLACE, E, T, 1, 1, cur, EXT);
	cur = nd(r, K_INPLACE, E, T, 1, 1, cur, EXT);
	cur = nd(r, K_INPLACE, E, T, 1, 1, cur, g);
	cur = nd(r, K_PLAIN, E, T, 1, 1, EXT, cur);
	return vw(r, cur, E, T / ns, ns, 1, NULL, 0);
}

/* RWKV-6's channel mix (build_rwkv6_channel_mix) of T rows. */
static int
rwkv6_channel_mix(struct rg *r, const struct rshape *s, uint64_t T, int cur,
    int x_prev)
{
	uint64_t	E = s->embd, F = s->c[S_FF];
	int		sx, xk, xr, q, k;

	sx = nd(r, K_INPLACE, E, T, 1, 1, x_prev, cur);
	xk = nd(r, K_INPLACE, E, T, 1, 1, sx, EXT);
	xk = nd(r, K_INPLACE, E, T, 1, 1, xk, cur);
	xr = nd(r, K_INPLACE, E, T, 1, 1, sx, EXT);
	xr = nd(r, K_INPLACE, E, T, 1, 1, xr, cur);
	q = nd(r, K_PLAIN, E, T, 1, 1, EXT, xr);
	q = nd(r, K_INPLACE, E, T, 1, 1, q, -1);
	k = nd(r, K_PLAIN, F, T, 1, 1, EXT, xk);
	k = nd(r, K_INPLACE, F, T, 1, 1, k, -1);
	k = nd(r, K_INPLACE, F, T, 1, 1, k, -1);
	k = nd(r, K_PLAIN, E, T, 1, 1, EXT, k);
	return nd(r, K_INPLACE, E, T, 1, 1, q, k);
}

/*
 * RWKV-7's time mix (build_rwkv7_time_mix) of cur (E, ts, ns) and
 * x_prev: its output (E, ts, ns). *v1 is the first block's value.
 */
static int
rwkv7_time_mix(struct rg *r, const struct rshape *s, uint64_t T, int cur,
    int x_prev, int *v1, int sel, int extra)
{
	uint64_t	E = s->embd, H = s->c[S_HEAD], nh = E / H, ns = s->ns;
	uint64_t	DL = s->c[S_TMX], AL = s->c[S_TDX], VL = s->c[S_VL];
	uint64_t	GL = s->c[S_GL], nb[4];
	int		sx, x, xr, xw, xk, xv, xa, xg, q, w, k, v, a, ka, kk, g,
			t, st, wkv, rk, src[5];

	sx = nd(r, K_INPLACE, E, T / ns, ns, 1, x_prev, cur);
	x = nd(r, K_PLAIN, E, T, 1, 6, sx, -1);
	x = nd(r, K_INPLACE, E, T, 1, 6, x, EXT);
	x = nd(r, K_INPLACE, E, T, 1, 6, x, cur);
	nb[0] = 4;
	nb[1] = r->g->t[x].nb[1];
	nb[2] = nb[3] = mg_mul_lim(r->g, nb[1], T);
	xr = vw(r, x, E, T, 1, 1, nb, 0);
	xw = vw(r, x, E, T, 1, 1, nb, nb[2]);
	xk = vw(r, x, E, T, 1, 1, nb, 2 * nb[2]);
	xv = vw(r, x, E, T, 1, 1, nb, 3 * nb[2]);
	xa = vw(r, x, E, T, 1, 1, nb, 4 * nb[2]);
	xg = vw(r, x, E, T, 1, 1, nb, 5 * nb[2]);
	q = nd(r, K_PLAIN, E, T, 1, 1, EXT, xr);
	w = nd(r, K_PLAIN, DL, T, 1, 1, EXT, xw);
	w = nd(r, K_INPLACE, DL, T, 1, 1, w, -1);
	w = nd(r, K_PLAIN, E, T, 1, 1, EXT, w);
	w = nd(r, K_INPLACE, E, T, 1, 1, w, EXT);
	w = nd(r, K_INPLACE, E, T, 1, 1, w, -1);	/* sigmoid */
	w = nd(r, K_INPLACE, E, T, 1, 1, w, -1);	/* scale */
	w = nd(r, K_INPLACE, E, T, 1, 1, w, -1);	/* exp */
	k = nd(r, K_PLAIN, E, T, 1, 1, EXT, xk);
	v = nd(r, K_PLAIN, E, T, 1, 1, EXT, xv);
	if (*v1 < 0)
		*v1 = v;
	else {		/* the first block's value, a residual */
		t = nd(r, K_INPLACE, E, T, 1, 1, *v1, v);
		x = nd(r, K_PLAIN, VL, T, 1, 1, EXT, xv);
		x = nd(r, K_PLAIN, E, T, 1, 1, EXT, x);
		x = nd(r, K_INPLACE, E, T, 1, 1, x, EXT);
		x = nd(r, K_INPLACE, E, T, 1, 1, x, -1);
		t = nd(r, K_INPLACE, E, T, 1, 1, t, x);
		v = nd(r, K_INPLACE, E, T, 1, 1, v, t);
	}
	g = nd(r, K_PLAIN, GL, T, 1, 1, EXT, xg);
	g = nd(r, K_INPLACE, GL, T, 1, 1, g, -1);
	g = nd(r, K_PLAIN, E, T, 1, 1, EXT, g);
	a = nd(r, K_PLAIN, AL, T, 1, 1, EXT, xa);
	a = nd(r, K_PLAIN, E, T, 1, 1, EXT, a);
	a = nd(r, K_INPLACE, E, T, 1, 1, a, EXT);
	a = nd(r, K_INPLACE, E, T, 1, 1, a, -1);
	kk = nd(r, K_INPLACE, E, T, 1, 1, k, EXT);
	kk = vw(r, kk, H, nh, T, 1, NULL, 0);
	kk = nd(r, K_PLAIN, H, nh, T, 1, kk, -1);	/* l2 norm */
	ka = nd(r, K_INPLACE, E, T, 1, 1, k, EXT);
	t = nd(r, K_INPLACE, E, T, 1, 1, a, ka);
	t = nd(r, K_INPLACE, E, T, 1, 1, t, ka);
	k = nd(r, K_INPLACE, E, T, 1, 1, k, t);
	q = vw(r, q, H, nh, T, 1, NULL, 0);
	k = vw(r, k, H, nh, T, 1, NULL, 0);
	a = vw(r, a, H, nh, T, 1, NULL, 0);
	st = read_state(r, s, E * H, nd(r, K_PLAIN, E * H, ns, 1, 1, EXT,
	    sel), extra);
	w = vw(r, w, H, nh, T, 1, NULL, 0);
	v = vw(r, v, H, nh, T, 1, NULL, 0);
	wkv = nd(r, K_PLAIN, E, T + H * ns, 1, 1, q, w);
	src[0] = k;
	src[1] = v;
	src[2] = nd(r, K_INPLACE, H, nh, T, 1, kk, -1);
	src[3] = nd(r, K_INPLACE, H, nh, T, 1, kk, a);
	src[4] = st;
	more_src(r, wkv, 5, src);
	cur = vw(r, wkv, E * T, 1, 1, 1, NULL, 0);
	write_state(r, vw(r, wkv, E * H * ns, 1, 1, 1, NULL,
	    mg_mul_lim(r->g, E * 4, T)));
	/* the group norm; plus v times the bonus of r and k; the gate */
	cur = vw(r, cur, H, nh, T, 1, NULL, 0);
	cur = nd(r, K_PLAIN, H, nh, T, 1, cur, -1);
	cur = vw(r, cur, E, T, 1, 1, NULL, 0);
	cur = nd(r, K_INPLACE, E, T, 1, 1, cur, EXT);
	cur = nd(r, K_INPLACE, E, T, 1, 1, cur, EXT);
	rk = nd(r, K_INPLACE, H, nh, T, 1, k, q);
	rk = nd(r, K_INPLACE, H, nh, T, 1, rk, EXT);
	rk = nd(r, K_PLAIN, 1, nh, T, 1, rk, -1);
	rk = nd(r, K_INPLACE, H, nh, T, 1, v, rk);
	cur = nd(r, K_INPLACE, E, T, 1, 1, cur, vw(r, rk, E, T, 1, 1, NULL,
	    0));
	cur = nd(r, K_INPLACE, E, T, 1, 1, cur, g);
	cur = nd(r, K_PLAIN, E, T, 1, 1, EXT, cur);
	return vw(r, cur, E, T / ns, ns, 1, NULL, 0);
}

/* RWKV-7's channel mix of T rows: lerp, squared ReLU feed-forward. */
static int
rwkv7_channel_mix(struct rg *r, const struct rshape *s, uint64_t T, int cur,
    int x_prev)
{
	uint64_t	E = s->embd, F = s->c[S_FF];
	int		x;

	x = nd(r, K_INPLACE, E, T, 1, 1, x_prev, cur);
	x = nd(r, K_INPLACE, E, T, 1, 1, x, EXT);
	x = nd(r, K_INPLACE, E, T, 1, 1, x, cur);
	x = nd(r, K_PLAIN, F, T, 1, 1, EXT, x);
	x = nd(r, K_INPLACE, F, T, 1, 1, x, -1);
	x = nd(r, K_INPLACE, F, T, 1, 1, x, -1);
	return nd(r, K_PLAIN, E, T, 1, 1, EXT, x);
}

/* llm_build_rwkv6's and llm_build_rwkv7's graph of T tokens, rows of them
   outputs. */
static void
build_rwkv6(struct rg *r, const struct rshape *s, uint64_t T, uint64_t rows)
{
	struct graph	*g = r->g;
	uint64_t	E = s->embd, ns = s->ns, ts = T / ns, nb[4];
	int		scopy, out, x, t, sel, extra, sh, att_shift,
			ffn_shift, an, fi, fn, xp, tshift, v1 = -1;
	uint32_t	il;

	x = embed(r, E, T);
	scopy = input(r, T_I32, s->n_rs, 1, 1);
	out = input(r, T_I32, rows, 1, 1);
	x = layer_norm(r, x);
	sel = vw(r, scopy, ns, 1, 1, 1, NULL, 0);
	extra = vw(r, scopy, s->n_rs - ns, 1, 1, 1, NULL, ns * 4);
	for (il = 0; il < s->n_layer; il++) {
		x = vw(r, x, E, ts, ns, 1, NULL, 0);
		/* the token shift: the last token's normed inputs */
		sh = read_state(r, s, 2 * E, nd(r, K_PLAIN, 2 * E, ns, 1, 1,
		    EXT, sel), extra);
		sh = vw(r, sh, E, 2, ns, 1, NULL, 0);
		nb[0] = 4;
		nb[1] = r->g->t[sh].nb[1];
		nb[2] = r->g->t[sh].nb[2];
		nb[3] = mg_mul_lim(g, nb[2], ns);
		att_shift = vw(r, sh, E, 1, ns, 1, nb, 0);
		ffn_shift = vw(r, sh, E, 1, ns, 1, nb, E * 4);
		an = layer_norm(r, x);
		xp = nd(r, K_PLAIN, E, ts, ns, 1, att_shift,
		    seq_rows(r, an, ts - 1, 0));
		t = s->kind == R_RWKV7 ? rwkv7_time_mix(r, s, T, an, xp, &v1,
		    sel, extra) : rwkv6_time_mix(r, s, T, an, xp, sel, extra);
		fi = nd(r, K_INPLACE, E, ts, ns, 1, t, x);
		fn = layer_norm(r, fi);
		xp = nd(r, K_PLAIN, E, ts, ns, 1, ffn_shift,
		    seq_rows(r, fn, ts - 1, 0));
		tshift = nd(r, K_PLAIN, E, 2, ns, 1, seq_rows(r, an, 1,
		    ts - 1), seq_rows(r, fn, 1, ts - 1));
		write_state(r, vw(r, tshift, 2 * E * ns, 1, 1, 1, NULL, 0));
		fi = vw(r, fi, E, T, 1, 1, NULL, 0);
		fn = vw(r, fn, E, T, 1, 1, NULL, 0);
		xp = vw(r, xp, E, T, 1, 1, NULL, 0);
		if (il + 1 == s->n_layer) {		/* the outputs' rows */
			fi = nd(r, K_PLAIN, E, rows, 1, 1, fi, out);
			fn = nd(r, K_PLAIN, E, rows, 1, 1, fn, out);
			xp = nd(r, K_PLAIN, E, rows, 1, 1, xp, out);
			T = rows;
		}
		t = s->kind == R_RWKV7 ? rwkv7_channel_mix(r, s, T, fn, xp) :
		    rwkv6_channel_mix(r, s, T, fn, xp);
		x = nd(r, K_INPLACE, E, T, 1, 1, t, fi);
		if (s->c[S_RESCALE] != 0 && (il + 1) % s->c[S_RESCALE] == 0)
			x = nd(r, K_INPLACE, E, T, 1, 1, x, -1);
	}
	t = layer_norm(r, x);
	g->t[t].output = 1;
	t = nd(r, K_PLAIN, s->out, T, 1, 1, EXT, t);
	g->t[t].output = 1;
	expand(r, t);
}

/* ggml_permute(a, 0, 2, 1, 3). */
static int
permute(struct rg *r, int a)
{
	const struct ct	*c = &r->g->t[a];
	uint64_t	 nb[4] = { c->nb[0], c->nb[2], c->nb[1], c->nb[3] };

	return vw(r, a, c->ne[0], c->ne[2], c->ne[1], c->ne[3], nb, 0);
}

/* The attention's inputs: positions, the cache's row indices, the mask. */
struct att_in {
	int	pos, kidx, vidx, mask;
};

/* ggml_is_contiguous: its elements one after the other (dimensions of
   one element aside). */
static int
contiguous(const struct ct *c)
{
	uint64_t	next = c->nb[0] * c->ne[0];
	int		i;

	for (i = 1; i < 4; i++) {
		if (c->ne[i] == 1)
			continue;
		if (c->nb[i] != next)
			return 0;
		next *= c->ne[i];
	}
	return 1;
}

/*
 * llama.cpp's build_attn over the cache for q (hk, head, T), k (hk,
 * head_kv, T), v (hv, head_kv, T): Q, V and K expanded in that order, K
 * and V written into the cache, then the attention of each stream's
 * tokens over its n_kv cells (flash attention, or KQ, soft-max, KQV and
 * a copy), expanded: its output (hv * head, T).
 */
static int
attend(struct rg *r, const struct rshape *s, uint64_t T, int q, int k, int v,
    const struct att_in *in)
{
	uint64_t	ns = s->ns, ts = T / ns, head = s->head;
	int		a;

	expand(r, q);
	expand(r, v);
	expand(r, k);
	expand(r, nd(r, K_EXT, 1, 1, 1, 1, vw(r, k, s->hk * s->head_kv, T, 1,
	    1, NULL, 0), in->kidx));
	/* V's heads apart (views of one projection): copied together first
	   without flash attention */
	if (!s->fa && !contiguous(&r->g->t[v]))
		v = nd(r, K_PLAIN, s->hv * s->head_kv, T, 1, 1, v, -1);
	else
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

/* RMS norm of t and its weight. */
static int
rms_norm(struct rg *r, int t)
{
	const struct ct	*c = &r->g->t[t];
	uint64_t	 a = c->ne[0], b = c->ne[1], d = c->ne[2], e = c->ne[3];

	t = nd(r, K_INPLACE, a, b, d, e, t, -1);
	return nd(r, K_INPLACE, a, b, d, e, t, EXT);
}

/*
 * llama.cpp's build_moe_ffn over t (T tokens), SwiGLU experts: the
 * router's logits through a soft-max or a sigmoid, biased (probsb) to
 * rank them, the n_used first weights (normalized by their sum with
 * normw), expanded then; gate and up, SwiGLU, down, weighted; each
 * expert's view expanded, then their sum, each addition expanded (made
 * contiguous for one, not expanded).
 */
static int
experts(struct rg *r, const struct rshape *s, uint32_t il, uint64_t T, int t)
{
	uint64_t	E = s->embd, ne = s->n_exp, nu = s->n_used;
	uint64_t	ff = s->ff[il], nb[4], j;
	int		lg, pr, tk, wt, sum, cr, gt, up, e, q, v, v1;

	lg = nd(r, K_PLAIN, ne, T, 1, 1, EXT, t);
	lg = nd(r, K_INPLACE, ne, T, 1, 1, lg, -1);
	pr = vw(r, lg, 1, ne, T, 1, NULL, 0);
	tk = lg;
	if (s->probsb)
		tk = nd(r, K_INPLACE, ne, T, 1, 1, lg, EXT);
	tk = nd(r, K_PLAIN, ne, T, 1, 1, tk, -1);
	r->g->t[tk].type = T_I32;	/* the experts' order */
	memcpy(nb, r->g->t[tk].nb, sizeof nb);
	tk = vw(r, tk, nu, T, 1, 1, nb, 0);
	wt = nd(r, K_PLAIN, 1, nu, T, 1, pr, tk);
	if (s->normw) {
		wt = vw(r, wt, nu, T, 1, 1, NULL, 0);
		sum = nd(r, K_PLAIN, 1, T, 1, 1, wt, -1);
		sum = nd(r, K_INPLACE, 1, T, 1, 1, sum, -1);
		wt = nd(r, K_INPLACE, nu, T, 1, 1, wt, sum);
		wt = vw(r, wt, 1, nu, T, 1, NULL, 0);
	}
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
		return nd(r, K_PLAIN, E, T, 1, 1, q, -1);
	for (j = 1, v1 = -1; j < nu; j++) {
		v = vw(r, e, E, T, 1, 1, nb, j * r->g->t[e].nb[1]);
		expand(r, v);
		if (v1 < 0)
			v1 = v;
	}
	for (j = 1; j < nu; j++) {
		q = nd(r, K_INPLACE, E, T, 1, 1, q, v1 + (int)j - 1);
		expand(r, q);
	}
	return q;
}

/*
 * llm_build_lfm2's graph of T tokens, rows of them outputs: per block RMS
 * norm; a short convolution (the input projection split in B, C and x;
 * B times x transposed after the conv state, its last columns written
 * back; the convolution, times C; the output projection) or attention
 * (Q and K RMS-normed by head, RoPE); the residual; RMS norm, SwiGLU
 * feed-forward (lfm2moe: the leading blocks', experts on the others,
 * soft-max or sigmoid routed, a selection bias, the weights normalized),
 * the residual. Then RMS norm and the logits.
 */
static void
build_lfm2(struct rg *r, const struct rshape *s, uint64_t T, uint64_t rows)
{
	struct graph	*g = r->g;
	uint64_t	E = s->embd, ns = s->ns, ts = T / ns, L = s->c[S_LCACHE];
	uint64_t	ekv = s->hk * s->head_kv;
	struct att_in	ai;
	int		scopy, out, x, in, t, sel, extra, cs, bcx, b, c, q, k,
			v;
	uint32_t	il;

	x = embed(r, E, T);
	scopy = input(r, T_I32, s->n_rs, 1, 1);
	ai.pos = input(r, T_I32, T, 1, 1);
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
		if (s->flags[il] & F_ATTN) {
			q = nd(r, K_PLAIN, s->hk * s->head, T, 1, 1, EXT, t);
			q = vw(r, q, s->hk, s->head, T, 1, NULL, 0);
			q = rms_norm(r, q);
			q = nd(r, K_INPLACE, s->hk, s->head, T, 1, q, ai.pos);
			k = nd(r, K_PLAIN, ekv, T, 1, 1, EXT, t);
			k = vw(r, k, s->hk, s->head_kv, T, 1, NULL, 0);
			k = rms_norm(r, k);
			k = nd(r, K_INPLACE, s->hk, s->head_kv, T, 1, k, ai.pos);
			v = nd(r, K_PLAIN, s->hv * s->head_kv, T, 1, 1, EXT, t);
			v = vw(r, v, s->hv, s->head_kv, T, 1, NULL, 0);
			t = attend(r, s, T, q, k, v, &ai);
			t = nd(r, K_PLAIN, E, T, 1, 1, EXT, t);
		} else {
			cs = read_state(r, s, (L - 1) * E, nd(r, K_PLAIN,
			    (L - 1) * E, ns, 1, 1, EXT, sel), extra);
			cs = vw(r, cs, L - 1, E, ns, 1, NULL, 0);
			t = vw(r, t, E, ts, ns, 1, NULL, 0);
			bcx = nd(r, K_PLAIN, 3 * E, ts, ns, 1, EXT, t);
			b = vw_rows(r, bcx, E, ts, ns, 0);
			c = vw_rows(r, bcx, E, ts, ns, E * 4);
			t = vw_rows(r, bcx, E, ts, ns, 2 * E * 4);
			t = nd(r, K_INPLACE, E, ts, ns, 1, b, t);
			t = nd(r, K_PLAIN, L - 1 + ts, E, ns, 1, cs,
			    transpose(r, t));
			write_state(r, vw_rows(r, t, L - 1, E, ns, ts * 4));
			t = nd(r, K_PLAIN, E, ts, ns, 1, t, EXT);
			t = nd(r, K_INPLACE, E, ts, ns, 1, c, t);
			t = nd(r, K_PLAIN, E, ts, ns, 1, EXT, t);
			t = vw(r, t, E, T, 1, 1, NULL, 0);
		}
		if (il + 1 == s->n_layer) {		/* the outputs' rows */
			t = nd(r, K_PLAIN, E, rows, 1, 1, t, out);
			in = nd(r, K_PLAIN, E, rows, 1, 1, in, out);
			T = rows;
		}
		x = nd(r, K_INPLACE, E, T, 1, 1, in, t);
		t = rms_norm(r, x);
		if (s->flags[il] & F_MOE)
			t = experts(r, s, il, T, t);
		else {
			q = nd(r, K_PLAIN, s->ff[il], T, 1, 1, EXT, t);
			k = nd(r, K_PLAIN, s->ff[il], T, 1, 1, EXT, t);
			t = nd(r, K_PLAIN, s->ff[il], T, 1, 1, q, k);
			t = nd(r, K_PLAIN, E, T, 1, 1, EXT, t);
		}
		x = nd(r, K_INPLACE, E, T, 1, 1, x, t);
	}
	t = rms_norm(r, x);
	g->t[t].output = 1;
	t = nd(r, K_PLAIN, s->out, T, 1, 1, EXT, t);
	g->t[t].output = 1;
	expand(r, t);
}

/*
 * llm_build_nemotron_h's graph of T tokens, rows of them outputs: per
 * block RMS norm, then a Mamba-2 layer, attention (no RoPE) and its
 * output projection, or a squared-ReLU feed-forward; the residual. Then
 * RMS norm (an output), the outputs' rows of it, and the logits.
 */
static void
build_nemotron_h(struct rg *r, const struct rshape *s, uint64_t T,
    uint64_t rows)
{
	struct graph	*g = r->g;
	uint64_t	E = s->embd, ns = s->ns, ts = T / ns;
	struct att_in	ai;
	int		scopy, out, x, t, sel, extra, q, k, v;
	uint32_t	il;

	x = embed(r, E, T);
	scopy = input(r, T_I32, s->n_rs, 1, 1);
	ai.pos = -1;
	ai.kidx = input(r, T_I64, T, 1, 1);
	ai.vidx = input(r, T_I64, s->fa ? T : mg_mul_lim(g, T, s->hv *
	    s->head_kv), 1, 1);
	ai.mask = input(r, s->fa ? T_F16 : T_F32, s->n_kv, ts, ns);
	out = input(r, T_I32, rows, 1, 1);
	sel = vw(r, scopy, ns, 1, 1, 1, NULL, 0);
	extra = vw(r, scopy, s->n_rs - ns, 1, 1, 1, NULL, ns * 4);
	for (il = 0; il < s->n_layer; il++) {
		t = rms_norm(r, x);
		if (s->flags[il] & F_ATTN) {
			q = nd(r, K_PLAIN, s->hk * s->head, T, 1, 1, EXT, t);
			q = vw(r, q, s->hk, s->head, T, 1, NULL, 0);
			v = nd(r, K_PLAIN, s->hv * s->head_kv, T, 1, 1, EXT, t);
			v = vw(r, v, s->hv, s->head_kv, T, 1, NULL, 0);
			k = nd(r, K_PLAIN, s->hk * s->head_kv, T, 1, 1, EXT, t);
			k = vw(r, k, s->hk, s->head_kv, T, 1, NULL, 0);
			t = attend(r, s, T, q, k, v, &ai);
			t = nd(r, K_PLAIN, E, T, 1, 1, EXT, t);
		} else if (s->flags[il] & F_FFN) {
			t = nd(r, K_PLAIN, s->ff[il], T, 1, 1, EXT, t);
			t = nd(r, K_INPLACE, s->ff[il], T, 1, 1, t, -1);
			t = nd(r, K_INPLACE, s->ff[il], T, 1, 1, t, -1);
			t = nd(r, K_PLAIN, E, T, 1, 1, EXT, t);
		} else
			t = mamba2_layer(r, s, T, t, sel, extra, 0);
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

/*
 * llm_build_jamba's graph of T tokens, rows of them outputs: per block
 * RMS norm, a Mamba layer (RMS norms of dt, B and C) or attention (no
 * RoPE) and its output projection; on the last block the rows of the
 * outputs; the residual; RMS norm, the SwiGLU feed-forward (or experts
 * where the block has a router: soft-max routed, their weights as they
 * are), the residual. Then RMS norm and the logits.
 */
static void
build_jamba(struct rg *r, const struct rshape *s, uint64_t T, uint64_t rows)
{
	struct graph	*g = r->g;
	uint64_t	E = s->embd, ns = s->ns, ts = T / ns;
	struct att_in	ai;
	int		scopy, out, x, in, t, sel, extra, q, k, v;
	uint32_t	il;

	x = embed(r, E, T);
	scopy = input(r, T_I32, s->n_rs, 1, 1);
	ai.pos = -1;
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
		if (s->flags[il] & F_ATTN) {
			q = nd(r, K_PLAIN, s->hk * s->head, T, 1, 1, EXT, t);
			q = vw(r, q, s->hk, s->head, T, 1, NULL, 0);
			v = nd(r, K_PLAIN, s->hv * s->head_kv, T, 1, 1, EXT, t);
			v = vw(r, v, s->hv, s->head_kv, T, 1, NULL, 0);
			k = nd(r, K_PLAIN, s->hk * s->head_kv, T, 1, 1, EXT, t);
			k = vw(r, k, s->hk, s->head_kv, T, 1, NULL, 0);
			t = attend(r, s, T, q, k, v, &ai);
			t = nd(r, K_PLAIN, E, T, 1, 1, EXT, t);
		} else
			t = mamba_layer(r, s, T, t, sel, extra);
		if (il + 1 == s->n_layer) {		/* the outputs' rows */
			t = nd(r, K_PLAIN, E, rows, 1, 1, t, out);
			in = nd(r, K_PLAIN, E, rows, 1, 1, in, out);
			T = rows;
		}
		x = nd(r, K_INPLACE, E, T, 1, 1, in, t);
		t = rms_norm(r, x);
		if (s->flags[il] & F_MOE)
			t = experts(r, s, il, T, t);
		else {
			q = nd(r, K_PLAIN, s->ff[il], T, 1, 1, EXT, t);
			k = nd(r, K_PLAIN, s->ff[il], T, 1, 1, EXT, t);
			t = nd(r, K_PLAIN, s->ff[il], T, 1, 1, q, k);
			t = nd(r, K_PLAIN, E, T, 1, 1, EXT, t);
		}
		x = nd(r, K_INPLACE, E, T, 1, 1, x, t);
	}
	t = rms_norm(r, x);
	g->t[t].output = 1;
	t = nd(r, K_PLAIN, s->out, T, 1, 1, EXT, t);
	g->t[t].output = 1;
	expand(r, t);
}

/*
 * llm_build_granite_hybrid's graph of T tokens, rows of them outputs:
 * the embeddings scaled; per block RMS norm, a Mamba-2 layer or attention
 * (RoPE on Q and K) and its output projection; on the last block the
 * rows of the outputs; scaled, the residual; RMS norm, the SwiGLU
 * feed-forward (or experts, soft-max routed, their weights normalized,
 * and a shared expert beside them where it has one), scaled, the
 * residual. Then RMS norm and the logits, scaled. A scale of 0 (or
 * none) is no node.
 */
static void
build_granite_hybrid(struct rg *r, const struct rshape *s, uint64_t T,
    uint64_t rows)
{
	struct graph	*g = r->g;
	uint64_t	E = s->embd, ns = s->ns, ts = T / ns;
	struct att_in	ai;
	int		scopy, out, x, in, t, sel, extra, q, k, v, e;
	uint32_t	il;

	x = embed(r, E, T);
	if (s->c[S_SCALE]) {
		x = nd(r, K_INPLACE, E, T, 1, 1, x, -1);
		expand(r, x);
	}
	scopy = input(r, T_I32, s->n_rs, 1, 1);
	ai.pos = input(r, T_I32, T, 1, 1);
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
		if (s->flags[il] & F_ATTN) {
			q = nd(r, K_PLAIN, s->hk * s->head, T, 1, 1, EXT, t);
			q = vw(r, q, s->hk, s->head, T, 1, NULL, 0);
			q = nd(r, K_INPLACE, s->hk, s->head, T, 1, q, ai.pos);
			v = nd(r, K_PLAIN, s->hv * s->head_kv, T, 1, 1, EXT, t);
			v = vw(r, v, s->hv, s->head_kv, T, 1, NULL, 0);
			k = nd(r, K_PLAIN, s->hk * s->head_kv, T, 1, 1, EXT, t);
			k = vw(r, k, s->hk, s->head_kv, T, 1, NULL, 0);
			k = nd(r, K_INPLACE, s->hk, s->head_kv, T, 1, k, ai.pos);
			t = attend(r, s, T, q, k, v, &ai);
			t = nd(r, K_PLAIN, E, T, 1, 1, EXT, t);
		} else
			t = mamba2_layer(r, s, T, t, sel, extra, 0);
		if (il + 1 == s->n_layer) {		/* the outputs' rows */
			t = nd(r, K_PLAIN, E, rows, 1, 1, t, out);
			in = nd(r, K_PLAIN, E, rows, 1, 1, in, out);
			T = rows;
		}
		if (s->c[S_SCALE + 1])
			t = nd(r, K_INPLACE, E, T, 1, 1, t, -1);
		x = nd(r, K_INPLACE, E, T, 1, 1, t, in);
		t = rms_norm(r, x);
		if (s->flags[il] & F_MOE) {
			e = experts(r, s, il, T, t);
			if (s->flags[il] & F_SHEXP) {	/* the shared one */
				q = nd(r, K_PLAIN, s->ffsh, T, 1, 1, EXT, t);
				k = nd(r, K_PLAIN, s->ffsh, T, 1, 1, EXT, t);
				t = nd(r, K_PLAIN, s->ffsh, T, 1, 1, q, k);
				t = nd(r, K_PLAIN, E, T, 1, 1, EXT, t);
				e = nd(r, K_INPLACE, E, T, 1, 1, e, t);
			}
			t = e;
		} else {
			q = nd(r, K_PLAIN, s->ff[il], T, 1, 1, EXT, t);
			k = nd(r, K_PLAIN, s->ff[il], T, 1, 1, EXT, t);
			t = nd(r, K_PLAIN, s->ff[il], T, 1, 1, q, k);
			t = nd(r, K_PLAIN, E, T, 1, 1, EXT, t);
		}
		if (s->c[S_SCALE + 1])
			t = nd(r, K_INPLACE, E, T, 1, 1, t, -1);
		x = nd(r, K_INPLACE, E, T, 1, 1, t, x);
	}
	t = rms_norm(r, x);
	g->t[t].output = 1;
	t = nd(r, K_PLAIN, s->out, T, 1, 1, EXT, t);
	if (s->c[S_SCALE + 2])
		t = nd(r, K_INPLACE, s->out, T, 1, 1, t, -1);
	g->t[t].output = 1;
	expand(r, t);
}

/* A projection of t to n (T tokens): times its scale, plus its bias,
   where it has them. */
static int
proj(struct rg *r, uint64_t n, uint64_t T, int t, int scale, int bias)
{
	t = nd(r, K_PLAIN, n, T, 1, 1, EXT, t);
	if (scale)
		t = nd(r, K_INPLACE, n, T, 1, 1, t, EXT);
	if (bias)
		t = nd(r, K_INPLACE, n, T, 1, 1, t, EXT);
	return t;
}

/*
 * llm_build_falcon_h1's graph of T tokens, rows of them outputs: per
 * block RMS norm and attention (Q, K and V apart or views of one
 * projection; RoPE on Q and K), the input RMS-normed again for a Mamba-2
 * layer beside it; the attention's output projection plus the Mamba-2
 * layer's, plus the residual; on the last block the rows of the outputs
 * of that; RMS norm, the SwiGLU feed-forward, the residual. Then RMS norm
 * and the logits. A projection's scale (Q, K, V or the one of them, the
 * attention's output, the Mamba-2 layer's input and output) multiplies
 * it, a bias (Q, K, V or the one, the feed-forward's gate, up and down)
 * is added to it; the graph reads no other (input scales, the
 * feed-forward's scales, the attention output's bias).
 */
static void
build_falcon_h1(struct rg *r, const struct rshape *s, uint64_t T,
    uint64_t rows)
{
	struct graph	*g = r->g;
	uint64_t	E = s->embd, ns = s->ns, ts = T / ns;
	struct att_in	ai;
	uint64_t	hk = s->hk, nb[4];
	int		scopy, out, x, t, a, sel, extra, q, k, v;
	uint32_t	il;
	unsigned	f;

	x = embed(r, E, T);
	ai.pos = input(r, T_I32, T, 1, 1);
	ai.kidx = input(r, T_I64, T, 1, 1);
	ai.vidx = input(r, T_I64, s->fa ? T : mg_mul_lim(g, T, s->hv *
	    s->head_kv), 1, 1);
	ai.mask = input(r, s->fa ? T_F16 : T_F32, s->n_kv, ts, ns);
	scopy = input(r, T_I32, s->n_rs, 1, 1);
	out = input(r, T_I32, rows, 1, 1);
	sel = vw(r, scopy, ns, 1, 1, 1, NULL, 0);
	extra = vw(r, scopy, s->n_rs - ns, 1, 1, 1, NULL, ns * 4);
	for (il = 0; il < s->n_layer; il++) {
		f = s->flags[il];
		t = rms_norm(r, x);
		if (s->c[S_QKV]) {	/* views of one projection */
			a = proj(r, hk * (s->head + 2 * s->head_kv), T, t,
			    f & F_QS, f & F_QB);
			nb[0] = 4;
			nb[1] = 4 * hk;
			nb[2] = r->g->t[a].nb[1];
			nb[3] = nb[2] * T;
			q = vw(r, a, hk, s->head, T, 1, nb, 0);
			v = vw(r, a, hk, s->head_kv, T, 1, nb,
			    4 * hk * (s->head + s->head_kv));
			k = vw(r, a, hk, s->head_kv, T, 1, nb, 4 * hk * s->head);
		} else {
			q = proj(r, hk * s->head, T, t, f & F_QS, f & F_QB);
			q = vw(r, q, hk, s->head, T, 1, NULL, 0);
			v = proj(r, s->hv * s->head_kv, T, t, f & F_VS,
			    f & F_VB);
			v = vw(r, v, s->hv, s->head_kv, T, 1, NULL, 0);
			k = proj(r, hk * s->head_kv, T, t, f & F_KS, f & F_KB);
			k = vw(r, k, hk, s->head_kv, T, 1, NULL, 0);
		}
		q = nd(r, K_INPLACE, hk, s->head, T, 1, q, ai.pos);
		k = nd(r, K_INPLACE, hk, s->head_kv, T, 1, k, ai.pos);
		a = attend(r, s, T, q, k, v, &ai);
		a = proj(r, E, T, a, f & F_OS, 0);
		t = mamba2_layer(r, s, T, rms_norm(r, x), sel, extra, f);
		t = nd(r, K_INPLACE, E, T, 1, 1, a, t);
		x = nd(r, K_INPLACE, E, T, 1, 1, t, x);
		if (il + 1 == s->n_layer) {		/* the outputs' rows */
			x = nd(r, K_PLAIN, E, rows, 1, 1, x, out);
			T = rows;
		}
		t = rms_norm(r, x);
		q = proj(r, s->ff[il], T, t, 0, f & F_GB);
		k = proj(r, s->ff[il], T, t, 0, f & F_UB);
		t = nd(r, K_PLAIN, s->ff[il], T, 1, 1, q, k);
		t = proj(r, E, T, t, 0, f & F_DB);
		x = nd(r, K_INPLACE, E, T, 1, 1, t, x);
	}
	t = rms_norm(r, x);
	g->t[t].output = 1;
	t = nd(r, K_PLAIN, s->out, T, 1, 1, EXT, t);
	g->t[t].output = 1;
	expand(r, t);
}

static uint64_t
graph_bytes(const struct rshape *s, uint64_t T, uint64_t rows, int *overflow)
{
	struct graph	g;
	struct rg	r;
	uint64_t	b;

	memset(&g, 0, sizeof g);
	memset(&r, 0, sizeof r);
	r.g = &g;
	if (s->kind == R_RWKV6 || s->kind == R_RWKV7)
		build_rwkv6(&r, s, T, rows);
	else if (s->kind == R_LFM2)
		build_lfm2(&r, s, T, rows);
	else if (s->kind == R_NEMOTRON_H)
		build_nemotron_h(&r, s, T, rows);
	else if (s->kind == R_JAMBA)
		build_jamba(&r, s, T, rows);
	else if (s->kind == R_GRANITEH)
		build_granite_hybrid(&r, s, T, rows);
	else if (s->kind == R_FALCONH1)
		build_falcon_h1(&r, s, T, rows);
	else
		build_mamba(&r, s, T, rows);	/* mamba, mamba2 */
	b = g.overflow ? 0 : mg_lay_out(&g);
	*overflow = g.overflow;
	free(r.seen);
	mg_free(&g);
	return b;
}

/* ------------------------------------------------------------ the model */


/* The tensors of a block of each architecture ("?": it may have it, the
   graph does not read it), those outside the blocks. */
static const char *const mamba_block[] = {
	"attn_norm.weight", "ssm_in.weight", "ssm_conv1d.weight",
	"ssm_conv1d.bias", "ssm_x.weight", "ssm_dt.weight", "ssm_dt.bias",
	"ssm_a", "ssm_d", "ssm_out.weight", NULL
};
static const char *const mamba2_block[] = {
	"attn_norm.weight", "ssm_in.weight", "ssm_conv1d.weight",
	"ssm_conv1d.bias", "ssm_dt.bias", "ssm_a", "ssm_d",
	"ssm_norm.weight", "ssm_out.weight", NULL
};
static const char *const rwkv6_block[] = {
	"attn_norm.weight", "attn_norm.bias", "attn_norm_2.weight",
	"attn_norm_2.bias", "time_mix_w1.weight", "time_mix_w2.weight",
	"time_mix_lerp_x.weight", "time_mix_lerp_fused.weight",
	"time_mix_first.weight", "time_mix_decay.weight",
	"time_mix_decay_w1.weight", "time_mix_decay_w2.weight",
	"time_mix_key.weight", "time_mix_value.weight",
	"time_mix_receptance.weight", "time_mix_gate.weight",
	"time_mix_ln.weight", "time_mix_ln.bias", "time_mix_output.weight",
	"channel_mix_lerp_k.weight", "channel_mix_lerp_r.weight",
	"channel_mix_key.weight", "channel_mix_value.weight",
	"channel_mix_receptance.weight",
	"?time_mix_lerp_w.weight", "?time_mix_lerp_k.weight",
	"?time_mix_lerp_v.weight", "?time_mix_lerp_r.weight",
	"?time_mix_lerp_g.weight", NULL
};
static const char *const rwkv7_block[] = {
	"attn_norm.weight", "attn_norm.bias", "attn_norm_2.weight",
	"attn_norm_2.bias", "time_mix_w0.weight", "time_mix_w1.weight",
	"time_mix_w2.weight", "time_mix_a0.weight", "time_mix_a1.weight",
	"time_mix_a2.weight", "time_mix_v0.weight", "time_mix_v1.weight",
	"time_mix_v2.weight", "time_mix_g1.weight", "time_mix_g2.weight",
	"time_mix_lerp_fused.weight", "time_mix_k_k.weight",
	"time_mix_k_a.weight", "time_mix_r_k.weight", "time_mix_key.weight",
	"time_mix_value.weight", "time_mix_receptance.weight",
	"time_mix_ln.weight", "time_mix_ln.bias", "time_mix_output.weight",
	"channel_mix_lerp_k.weight", "channel_mix_key.weight",
	"channel_mix_value.weight", NULL
};
static const char *const lfm2_block[] = {
	"?attn_norm.weight", "?ffn_norm.weight", "?ffn_gate.weight",
	"?ffn_up.weight", "?ffn_down.weight", "?shortconv.conv.weight",
	"?shortconv.in_proj.weight", "?shortconv.out_proj.weight",
	"?attn_q_norm.weight", "?attn_k_norm.weight", "?attn_q.weight",
	"?attn_k.weight", "?attn_v.weight", "?attn_output.weight", NULL
};
static const char *const lfm2moe_block[] = {
	"?attn_norm.weight", "?ffn_norm.weight", "?ffn_gate.weight",
	"?ffn_up.weight", "?ffn_down.weight", "?shortconv.conv.weight",
	"?shortconv.in_proj.weight", "?shortconv.out_proj.weight",
	"?attn_q_norm.weight", "?attn_k_norm.weight", "?attn_q.weight",
	"?attn_k.weight", "?attn_v.weight", "?attn_output.weight",
	"?ffn_gate_inp.weight", "?ffn_gate_exps.weight",
	"?ffn_up_exps.weight", "?ffn_down_exps.weight", "?exp_probs_b.bias",
	NULL
};
/* Those of its blocks: the feed-forward's (or the experts'), a short
   convolution's, the attention's. */
static const char *const lfm2_ffn[] = {
	"attn_norm.weight", "ffn_norm.weight", "ffn_gate.weight",
	"ffn_up.weight", "ffn_down.weight", NULL
};
static const char *const lfm2_moe[] = {
	"attn_norm.weight", "ffn_norm.weight", "ffn_gate_inp.weight",
	"ffn_gate_exps.weight", "ffn_up_exps.weight", "ffn_down_exps.weight",
	"exp_probs_b.bias", NULL
};
static const char *const lfm2_conv[] = {
	"shortconv.conv.weight", "shortconv.in_proj.weight",
	"shortconv.out_proj.weight", NULL
};
static const char *const lfm2_attn[] = {
	"attn_q_norm.weight", "attn_k_norm.weight", "attn_q.weight",
	"attn_k.weight", "attn_v.weight", "attn_output.weight", NULL
};
static const char *const nemotron_h_block[] = {
	"?attn_norm.weight", "?ssm_in.weight", "?ssm_conv1d.weight",
	"?ssm_conv1d.bias", "?ssm_dt.bias", "?ssm_a", "?ssm_d",
	"?ssm_norm.weight", "?ssm_out.weight", "?attn_q.weight",
	"?attn_k.weight", "?attn_v.weight", "?attn_output.weight",
	"?ffn_up.weight", "?ffn_down.weight", NULL
};
static const char *const jamba_block[] = {
	"?attn_norm.weight", "?ssm_in.weight", "?ssm_conv1d.weight",
	"?ssm_conv1d.bias", "?ssm_x.weight", "?ssm_dt_norm.weight",
	"?ssm_dt.weight", "?ssm_dt.bias", "?ssm_b_norm.weight",
	"?ssm_c_norm.weight", "?ssm_a", "?ssm_d", "?ssm_out.weight",
	"?attn_q.weight", "?attn_k.weight", "?attn_v.weight",
	"?attn_output.weight", "?ffn_norm.weight", "?ffn_gate.weight",
	"?ffn_up.weight", "?ffn_down.weight", "?ffn_gate_inp.weight",
	"?ffn_gate_exps.weight", "?ffn_up_exps.weight",
	"?ffn_down_exps.weight", NULL
};
static const char *const jamba_mamba[] = {
	"ssm_in.weight", "ssm_conv1d.weight", "ssm_conv1d.bias",
	"ssm_x.weight", "ssm_dt_norm.weight", "ssm_dt.weight", "ssm_dt.bias",
	"ssm_b_norm.weight", "ssm_c_norm.weight", "ssm_a", "ssm_d",
	"ssm_out.weight", NULL
};
static const char *const jamba_ffn[] = {
	"attn_norm.weight", "ffn_norm.weight", "ffn_gate.weight",
	"ffn_up.weight", "ffn_down.weight", NULL
};
/* A block's experts (jamba's, granitehybrid's), granitehybrid's shared
   expert. */
static const char *const hybrid_moe[] = {
	"attn_norm.weight", "ffn_norm.weight", "ffn_gate_inp.weight",
	"ffn_gate_exps.weight", "ffn_up_exps.weight", "ffn_down_exps.weight",
	NULL
};
static const char *const hybrid_shexp[] = {
	"ffn_gate_shexp.weight", "ffn_up_shexp.weight",
	"ffn_down_shexp.weight", NULL
};
static const char *const granite_h_block[] = {
	"?attn_norm.weight", "?ssm_in.weight", "?ssm_conv1d.weight",
	"?ssm_conv1d.bias", "?ssm_dt.bias", "?ssm_a", "?ssm_d",
	"?ssm_norm.weight", "?ssm_out.weight", "?attn_q.weight",
	"?attn_k.weight", "?attn_v.weight", "?attn_output.weight",
	"?ffn_norm.weight", "?ffn_gate.weight", "?ffn_up.weight",
	"?ffn_down.weight", "?ffn_gate_inp.weight", "?ffn_gate_exps.weight",
	"?ffn_up_exps.weight", "?ffn_down_exps.weight",
	"?ffn_gate_shexp.weight", "?ffn_up_shexp.weight",
	"?ffn_down_shexp.weight", NULL
};
static const char *const falcon_h1_block[] = {
	"attn_norm.weight", "?attn_q.weight", "?attn_k.weight",
	"?attn_v.weight", "?attn_qkv.weight", "attn_output.weight",
	"ssm_in.weight", "ssm_conv1d.weight", "ssm_conv1d.bias",
	"ssm_dt.bias", "ssm_a", "ssm_d", "ssm_norm.weight", "ssm_out.weight",
	"ffn_norm", "ffn_gate.weight", "ffn_up.weight", "ffn_down.weight",
	"?attn_qkv.scale", "?attn_qkv.bias", "?attn_qkv.input_scale",
	/* its variants' (falcon_h1_extra), and those its graph does not
	   read */
	"?attn_q.scale", "?attn_k.scale", "?attn_v.scale",
	"?attn_output.scale", "?ssm_in.scale", "?ssm_out.scale",
	"?attn_q.bias", "?attn_k.bias", "?attn_v.bias", "?ffn_gate.bias",
	"?ffn_up.bias", "?ffn_down.bias", "?attn_output.bias",
	"?ffn_gate.scale", "?ffn_up.scale", "?ffn_down.scale",
	"?attn_q.input_scale", "?attn_k.input_scale", "?attn_v.input_scale",
	"?attn_output.input_scale", "?ssm_in.input_scale",
	"?ssm_out.input_scale", "?ffn_gate.input_scale",
	"?ffn_up.input_scale", "?ffn_down.input_scale", NULL
};
/* The tensors of falcon-h1's variants its graph reads, each a node after
   its projection. */
static const struct {
	const char	*name;
	unsigned	 bit;
} falcon_h1_extra[] = {
	{ "attn_q.scale", F_QS }, { "attn_k.scale", F_KS },
	{ "attn_v.scale", F_VS }, { "attn_output.scale", F_OS },
	{ "ssm_in.scale", F_INS }, { "ssm_out.scale", F_OUTS },
	{ "attn_q.bias", F_QB }, { "attn_k.bias", F_KB },
	{ "attn_v.bias", F_VB }, { "ffn_gate.bias", F_GB },
	{ "ffn_up.bias", F_UB }, { "ffn_down.bias", F_DB },
	{ "attn_qkv.scale", F_QS }, { "attn_qkv.bias", F_QB },
};
static const char *const nemotron_h_attn[] = {
	"attn_norm.weight", "attn_q.weight", "attn_k.weight", "attn_v.weight",
	"attn_output.weight", NULL
};
static const char *const nemotron_h_ffn[] = {
	"attn_norm.weight", "ffn_up.weight", "ffn_down.weight", NULL
};
static const char *const lfm2_kept[] = {
	"token_embd.weight", "token_embd_norm.weight", "?output.weight", NULL
};
static const char *const falcon_h1_kept[] = {
	"token_embd.weight", "output_norm.weight", "?output.weight",
	"?rope_freqs.weight", NULL
};
static const char *const mamba_kept[] = {
	"token_embd.weight", "output_norm.weight", "?output.weight", NULL
};
static const char *const rwkv_kept[] = {
	"token_embd.weight", "token_embd_norm.weight", "token_embd_norm.bias",
	"output_norm.weight", "output_norm.bias", "output.weight", NULL
};

static const struct {
	const char		*arch;
	int			 kind;
	const char *const	*block, *const *kept;
} rec_archs[] = {
	{ "mamba", R_MAMBA, mamba_block, mamba_kept },
	{ "mamba2", R_MAMBA2, mamba2_block, mamba_kept },
	{ "rwkv6", R_RWKV6, rwkv6_block, rwkv_kept },
	{ "rwkv7", R_RWKV7, rwkv7_block, rwkv_kept },
	{ "lfm2", R_LFM2, lfm2_block, lfm2_kept },
	{ "lfm2moe", R_LFM2, lfm2moe_block, lfm2_kept },
	{ "nemotron_h", R_NEMOTRON_H, nemotron_h_block, mamba_kept },
	{ "jamba", R_JAMBA, jamba_block, mamba_kept },
	{ "granitehybrid", R_GRANITEH, granite_h_block, mamba_kept },
	{ "falcon-h1", R_FALCONH1, falcon_h1_block, falcon_h1_kept },
};

/* Whether name is blk.N.suffix. */
static int
ends(const struct gguf_str *name, const char *suffix)
{
	size_t	len = (size_t)name->n, n = strlen(suffix);

	return len > n && memcmp(name->p + len - n, suffix, n) == 0 &&
	    name->p[len - n - 1] == '.';
}

static const char *
bare(const char *name)
{
	return name[0] == '?' ? name + 1 : name;
}

/* The sizes of Mamba's and Mamba-2's state. 0, or 1 not modelled. */
static int
ssm_sizes(struct gguf_mem_model *m, struct gguf_doc *d)
{
	uint64_t	*c = m->c_rec, v;
	size_t		 j;

	if (!mc_key_u64(d, m->arch, "ssm.conv_kernel", &c[S_CONV]) ||
	    !mc_key_u64(d, m->arch, "ssm.inner_size", &c[S_INNER]) ||
	    !mc_key_u64(d, m->arch, "ssm.state_size", &c[S_STATE]) ||
	    !mc_key_u64(d, m->arch, "ssm.time_step_rank", &c[S_RANK]) ||
	    ((m->c_kind == R_MAMBA2 || m->c_kind == R_NEMOTRON_H ||
	    m->c_kind == R_GRANITEH || m->c_kind == R_FALCONH1) &&
	    !mc_key_u64(d, m->arch, "ssm.group_count", &c[S_GROUP])) ||
	    c[S_CONV] == 0)
		return mc_cnot(m, " without its ssm sizes");
	for (j = 0; j < 5; j++)
		if (c[j] > ((uint64_t)1 << 24))
			return mc_cnot(m, " with ssm sizes over 2^24");
	if ((m->c_kind == R_MAMBA2 || m->c_kind == R_NEMOTRON_H ||
	    m->c_kind == R_GRANITEH || m->c_kind == R_FALCONH1) &&
	    (c[S_RANK] == 0 || c[S_GROUP] == 0 ||
	    c[S_INNER] % c[S_RANK] != 0 || c[S_INNER] % c[S_GROUP] != 0))
		return mc_cnot(m, " with heads or groups that do not divide "
		    "ssm.inner_size");
	if (m->c_kind == R_MAMBA && mc_key_u64(d, m->arch, "ssm.dt_b_c_rms",
	    &v) && v != 0)
		c[S_NORMS] = 1;
	return 0;
}

/* The low-rank sizes RWKV reads from its tensors' shapes (their rows
   over div), each block alike. */
static const struct {
	int		 kind;
	const char	*name;
	uint64_t	 div;
	int		 slot;
} rwkv_dims[] = {
	{ R_RWKV6, "time_mix_w1.weight", 5, S_TMX },
	{ R_RWKV6, "time_mix_decay_w1.weight", 1, S_TDX },
	{ R_RWKV6, "channel_mix_key.weight", 1, S_FF },
	{ R_RWKV7, "time_mix_w1.weight", 1, S_TMX },
	{ R_RWKV7, "time_mix_a1.weight", 1, S_TDX },
	{ R_RWKV7, "time_mix_v1.weight", 1, S_VL },
	{ R_RWKV7, "time_mix_g1.weight", 1, S_GL },
	{ R_RWKV7, "channel_mix_key.weight", 1, S_FF },
};

/* The sizes of RWKV-6's and RWKV-7's. 0, or 1 not modelled. */
static int
rwkv_sizes(struct gguf_mem_model *m, struct gguf_doc *d)
{
	uint64_t	*c = m->c_rec, ne[4], shift = 2, kv = 0;
	uint32_t	 il;
	size_t		 j;

	if (!mc_key_u64(d, m->arch, "wkv.head_size", &c[S_HEAD]) ||
	    c[S_HEAD] == 0 || m->c_embd % c[S_HEAD] != 0)
		return mc_cnot(m, " without a wkv.head_size dividing the "
		    "embedding");
	mc_key_u64(d, m->arch, "token_shift_count", &shift);
	if (shift != 2)
		return mc_cnot(m, " with a token_shift_count other than 2");
	if (m->c_kind == R_RWKV6) {
		mc_key_u64(d, m->arch, "rescale_every_n_layers", &c[S_RESCALE]);
		/* K and V repeated over the heads: not modelled */
		if (!mc_key_u64(d, m->arch, "attention.head_count_kv", &kv))
			mc_key_u64(d, m->arch, "attention.head_count", &kv);
		if (kv != 0 && kv != m->c_embd / c[S_HEAD])
			return mc_cnot(m, " with fewer KV heads than wkv heads");
	}
	for (j = 0; j < sizeof rwkv_dims / sizeof rwkv_dims[0]; j++) {
		if (rwkv_dims[j].kind != m->c_kind)
			continue;
		for (il = 0; il < m->n_layer; il++) {
			if (mc_tshape(d, il, rwkv_dims[j].name, ne) != 0 ||
			    ne[1] % rwkv_dims[j].div != 0 || (il > 0 &&
			    ne[1] / rwkv_dims[j].div != c[rwkv_dims[j].slot]))
				return mc_cnot(m, " blocks unlike one another");
			c[rwkv_dims[j].slot] = ne[1] / rwkv_dims[j].div;
		}
	}
	for (j = S_HEAD; j <= S_GL; j++)
		if (c[j] > ((uint64_t)1 << 24))
			return mc_cnot(m, " with sizes over 2^24");
	return 0;
}

/* Whether block il has each of names. */
static int
has_all(struct gguf_doc *d, uint32_t il, const char *const *names,
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

/* The heads of attention block il, as those of the others: 0, or 1 not
   modelled. */
static int
attn_heads(struct gguf_mem_model *m, struct gguf_doc *d, uint32_t il,
    int *first)
{
	const struct gguf_mem_layer	*l = &m->layers[il];
	uint64_t			 ne[4];

	/* falcon-h1's one projection of Q, K and V: the heads of its
	   size, every one of the value's */
	if (m->c_rec[S_QKV] && (mc_tshape(d, il, "attn_qkv.weight", ne) != 0 ||
	    l->head_k != l->head_v || ne[1] < l->k + l->v))
		return mc_cnot(m, " blocks unlike one another");
	if (m->c_rec[S_QKV])
		ne[1] -= l->k + l->v;
	if (l->kind != GGUF_MEM_FULL || l->head_k == 0 || l->head_v == 0 ||
	    l->k % l->head_k != 0 || l->v != l->k / l->head_k * l->head_v ||
	    (l->r + l->s != 0) != (m->c_kind == R_FALCONH1) ||
	    (!m->c_rec[S_QKV] && mc_tshape(d, il, "attn_q.weight", ne) != 0) ||
	    ne[1] % l->head_k != 0 || (!*first &&
	    (l->head_k != m->c_head_k || l->head_v != m->c_head_v ||
	    l->k / l->head_k != m->c_head_kv ||
	    ne[1] / l->head_k != m->c_head)))
		return mc_cnot(m, " blocks unlike one another");
	m->c_head_k = l->head_k;
	m->c_head_v = l->head_v;
	m->c_head_kv = l->k / l->head_k;
	m->c_head = ne[1] / l->head_k;
	*first = 0;
	if (m->c_head_k > ((uint64_t)1 << 24) ||
	    m->c_head_v > ((uint64_t)1 << 24) ||
	    m->c_head > ((uint64_t)1 << 24) ||
	    m->c_head_kv > ((uint64_t)1 << 24))
		return mc_cnot(m, " with sizes over 2^24");
	return 0;
}

/* The experts of block il (their tensors there): their length, the
   same number of them as the other blocks'. 0, or 1 not modelled. */
static int
block_experts(struct gguf_mem_model *m, struct gguf_doc *d, uint32_t il)
{
	uint64_t	ne[4];

	mc_tshape(d, il, "ffn_gate_inp.weight", ne);
	if ((m->c_nexp != 0 && ne[1] != m->c_nexp) || ne[1] == 0)
		return mc_cnot(m, " blocks unlike one another");
	if (ne[1] > ((uint64_t)1 << 24))
		return mc_cnot(m, " with sizes over 2^24");
	m->c_nexp = ne[1];
	mc_tshape(d, il, "ffn_gate_exps.weight", ne);
	m->c_ff[il] = ne[1];
	m->c_flags[il] |= F_MOE;
	return 0;
}

/* The experts a token uses (expert_used_count), where a block has
   experts: 0, or 1 not modelled. */
static int
used_experts(struct gguf_mem_model *m, struct gguf_doc *d)
{
	if (m->c_nexp != 0 && (!mc_key_u64(d, m->arch, "expert_used_count",
	    &m->c_nused) || m->c_nused == 0 || m->c_nused > m->c_nexp))
		return mc_cnot(m, " without an expert_used_count of 1 to its "
		    "experts");
	return 0;
}

/*
 * The feed-forward of jamba's (or granitehybrid's) block il: SwiGLU, or
 * experts where it has a router (granitehybrid's with a shared expert
 * where expert_shared_feed_forward_length is not 0, F_SHEXP). 0, or 1
 * not modelled.
 */
static int
hybrid_ffn(struct gguf_mem_model *m, struct gguf_doc *d, uint32_t il)
{
	uint64_t	 ne[4], sh = 0;
	const char	*miss;

	if (mc_tshape(d, il, "ffn_gate_inp.weight", ne) != 0) {
		if (!has_all(d, il, jamba_ffn, &miss))
			return mc_cnot(m, " without blk.%u.%s", il, miss);
		if (mc_tshape(d, il, "ffn_gate_shexp.weight", ne) == 0)
			return mc_cnot(m, " blocks unlike one another");
		mc_tshape(d, il, "ffn_gate.weight", ne);
		m->c_ff[il] = ne[1];
		return 0;
	}
	if (!has_all(d, il, hybrid_moe, &miss))
		return mc_cnot(m, " without blk.%u.%s", il, miss);
	if (mc_tshape(d, il, "ffn_gate.weight", ne) == 0)
		return mc_cnot(m, " blocks unlike one another");
	if (m->c_kind == R_GRANITEH)
		mc_key_u64(d, m->arch, "expert_shared_feed_forward_length", &sh);
	if (sh != 0) {
		if (!has_all(d, il, hybrid_shexp, &miss))
			return mc_cnot(m, " without blk.%u.%s", il, miss);
		mc_tshape(d, il, "ffn_gate_shexp.weight", ne);
		if (ne[1] != sh)
			return mc_cnot(m, " blocks unlike one another");
		m->c_ffsh = sh;
		m->c_flags[il] |= F_SHEXP;
	} else if (mc_tshape(d, il, "ffn_gate_shexp.weight", ne) == 0)
		return mc_cnot(m, " blocks unlike one another");
	return block_experts(m, d, il);
}

/* The sizes of lfm2's blocks: which attend, their heads; the short
   convolution's length; the feed-forward's (lfm2moe: experts after
   the leading blocks). 0, or 1 not modelled. */
static int
lfm2_sizes(struct gguf_mem_model *m, struct gguf_doc *d)
{
	uint64_t		*c = m->c_rec, ne[4], lead, v;
	const char		*miss;
	uint32_t		 il;
	int			 first = 1;

	if (!mc_key_u64(d, m->arch, "shortconv.l_cache", &c[S_LCACHE]) ||
	    c[S_LCACHE] < 2 || c[S_LCACHE] > ((uint64_t)1 << 24))
		return mc_cnot(m, " without a shortconv.l_cache of 2 to 2^24");
	lead = m->n_layer;
	if (strcmp(m->arch, "lfm2moe") == 0) {
		lead = 0;
		mc_key_u64(d, m->arch, "leading_dense_block_count", &lead);
		if (!mc_key_u64(d, m->arch, "expert_gating_func", &v) ||
		    (v != 1 && v != 2))
			return mc_cnot(m, " without a soft-max (1) or sigmoid "
			    "(2) expert_gating_func");
		m->c_normw = 1;
	}
	m->c_ff = xcalloc(m->n_layer, sizeof *m->c_ff);
	m->c_flags = xcalloc(m->n_layer, sizeof *m->c_flags);
	for (il = 0; il < m->n_layer; il++) {
		if (il >= lead) {
			if (!has_all(d, il, lfm2_moe, &miss))
				return mc_cnot(m, " without blk.%u.%s", il, miss);
			if (mc_tshape(d, il, "ffn_gate.weight", ne) == 0)
				return mc_cnot(m, " blocks unlike one another");
			if (block_experts(m, d, il) != 0)
				return 1;
		} else {
			if (!has_all(d, il, lfm2_ffn, &miss))
				return mc_cnot(m, " without blk.%u.%s", il, miss);
			if (mc_tshape(d, il, "ffn_gate_inp.weight", ne) == 0)
				return mc_cnot(m, " blocks unlike one another");
			mc_tshape(d, il, "ffn_gate.weight", ne);
			m->c_ff[il] = ne[1];
		}
		if (m->layers[il].kind == GGUF_MEM_RECURRENT) {
			if (!has_all(d, il, lfm2_conv, &miss))
				return mc_cnot(m, " without blk.%u.%s", il, miss);
			continue;
		}
		if (!has_all(d, il, lfm2_attn, &miss))
			return mc_cnot(m, " without blk.%u.%s", il, miss);
		if (attn_heads(m, d, il, &first) != 0)
			return 1;
		m->c_flags[il] |= F_ATTN;
	}
	return used_experts(m, d);
}

/* The sizes of nemotron_h's: Mamba-2's, which blocks attend (their
   heads), which are a feed-forward only (its length). 0, or 1. */
static int
nemotron_h_sizes(struct gguf_mem_model *m, struct gguf_doc *d)
{
	uint64_t		 ne[4];
	const char		*miss;
	uint32_t		 il;
	int			 first = 1;

	if (ssm_sizes(m, d) != 0)
		return 1;
	m->c_ff = xcalloc(m->n_layer, sizeof *m->c_ff);
	m->c_flags = xcalloc(m->n_layer, sizeof *m->c_flags);
	for (il = 0; il < m->n_layer; il++) {
		switch (m->layers[il].kind) {
		case GGUF_MEM_RECURRENT:
			if (!has_all(d, il, mamba2_block, &miss))
				return mc_cnot(m, " without blk.%u.%s", il, miss);
			break;
		case GGUF_MEM_FULL:
			if (!has_all(d, il, nemotron_h_attn, &miss))
				return mc_cnot(m, " without blk.%u.%s", il, miss);
			if (attn_heads(m, d, il, &first) != 0)
				return 1;
			m->c_flags[il] |= F_ATTN;
			break;
		case GGUF_MEM_NONE:
			if (!has_all(d, il, nemotron_h_ffn, &miss))
				return mc_cnot(m, " without blk.%u.%s", il, miss);
			mc_tshape(d, il, "ffn_up.weight", ne);
			m->c_ff[il] = ne[1];
			m->c_flags[il] = F_FFN;
			break;
		default:
			return mc_cnot(m, " blocks unlike one another");
		}
	}
	return 0;
}

/* The sizes of jamba's: Mamba's (its norms of dt, B and C), which
   blocks attend (their heads), the feed-forwards'. 0, or 1. */
static int
jamba_sizes(struct gguf_mem_model *m, struct gguf_doc *d)
{
	const char		*miss;
	uint32_t		 il;
	int			 first = 1;

	if (ssm_sizes(m, d) != 0)
		return 1;
	m->c_rec[S_NORMS] = 2;
	m->c_ff = xcalloc(m->n_layer, sizeof *m->c_ff);
	m->c_flags = xcalloc(m->n_layer, sizeof *m->c_flags);
	for (il = 0; il < m->n_layer; il++) {
		if (hybrid_ffn(m, d, il) != 0)
			return 1;
		if (m->layers[il].kind == GGUF_MEM_RECURRENT) {
			if (!has_all(d, il, jamba_mamba, &miss))
				return mc_cnot(m, " without blk.%u.%s", il, miss);
			continue;
		}
		if (!has_all(d, il, nemotron_h_attn, &miss))
			return mc_cnot(m, " without blk.%u.%s", il, miss);
		if (attn_heads(m, d, il, &first) != 0)
			return 1;
		m->c_flags[il] |= F_ATTN;
	}
	return used_experts(m, d);
}

/* The sizes of granitehybrid's: Mamba-2's, which blocks attend (their
   heads), the feed-forwards'; which of its scales it has. 0, or 1. */
static int
granite_h_sizes(struct gguf_mem_model *m, struct gguf_doc *d)
{
	static const char *const scales[] = {
		"embedding_scale", "residual_scale", "logit_scale"
	};
	struct gguf_val		*val;
	uint64_t		 v;
	double			 f;
	const char		*miss;
	char			 key[96];
	uint32_t		 il;
	size_t			 j;
	int			 first = 1, n;

	/* each scale where the file gives one other than 0 */
	for (j = 0; j < sizeof scales / sizeof scales[0]; j++) {
		n = snprintf(key, sizeof key, "%s.%s", m->arch, scales[j]);
		if ((val = gguf_doc_get(d, key, (size_t)n)) == NULL)
			continue;
		if (gguf_val_f64(val, &f) != 0)
			return mc_cnot(m, " with a %s not a number", scales[j]);
		m->c_rec[S_SCALE + j] = !(f >= 0 && f <= 0);	/* NaN too */
	}
	if (mc_key_u64(d, m->arch, "rope.scaling.finetuned", &v) && v == 0)
		return mc_cnot(m, " without RoPE (rope.scaling.finetuned)");
	if (ssm_sizes(m, d) != 0)
		return 1;
	m->c_normw = 1;		/* the experts' weights normalized */
	m->c_ff = xcalloc(m->n_layer, sizeof *m->c_ff);
	m->c_flags = xcalloc(m->n_layer, sizeof *m->c_flags);
	for (il = 0; il < m->n_layer; il++) {
		if (hybrid_ffn(m, d, il) != 0)
			return 1;
		if (m->layers[il].kind == GGUF_MEM_RECURRENT) {
			if (!has_all(d, il, mamba2_block, &miss))
				return mc_cnot(m, " without blk.%u.%s", il, miss);
			continue;
		}
		if (!has_all(d, il, nemotron_h_attn, &miss))
			return mc_cnot(m, " without blk.%u.%s", il, miss);
		if (attn_heads(m, d, il, &first) != 0)
			return 1;
		m->c_flags[il] |= F_ATTN;
	}
	return used_experts(m, d);
}

/* The sizes of falcon-h1's: Mamba-2's, the heads of every block's
   attention, the feed-forwards'. 0, or 1. */
static int
falcon_h1_sizes(struct gguf_mem_model *m, struct gguf_doc *d)
{
	uint64_t		 ne[4];
	uint32_t		 il;
	size_t			 j;
	int			 first = 1;

	static const char *const sep[] = {
		"attn_q.weight", "attn_k.weight", "attn_v.weight", NULL
	};
	const char		*miss;

	if (ssm_sizes(m, d) != 0)
		return 1;
	m->c_ff = xcalloc(m->n_layer, sizeof *m->c_ff);
	m->c_flags = xcalloc(m->n_layer, sizeof *m->c_flags);
	/* Q, K and V in one projection or apart, every block alike */
	m->c_rec[S_QKV] = mc_tshape(d, 0, "attn_qkv.weight", ne) == 0;
	for (il = 0; il < m->n_layer; il++) {
		if (m->c_rec[S_QKV] != (mc_tshape(d, il, "attn_qkv.weight", ne) ==
		    0) || (m->c_rec[S_QKV] && (mc_tshape(d, il, "attn_q.weight",
		    ne) == 0 || mc_tshape(d, il, "attn_k.weight", ne) == 0 ||
		    mc_tshape(d, il, "attn_v.weight", ne) == 0)))
			return mc_cnot(m, " with Q, K and V in one projection on "
			    "some blocks only");
		if (!m->c_rec[S_QKV] && !has_all(d, il, sep, &miss))
			return mc_cnot(m, " without blk.%u.%s", il, miss);
		if (attn_heads(m, d, il, &first) != 0)
			return 1;
		mc_tshape(d, il, "ffn_gate.weight", ne);
		m->c_ff[il] = ne[1];
		m->c_flags[il] |= F_ATTN;
		for (j = 0; j < sizeof falcon_h1_extra /
		    sizeof falcon_h1_extra[0]; j++)
			if (mc_tshape(d, il, falcon_h1_extra[j].name, ne) == 0)
				m->c_flags[il] |= falcon_h1_extra[j].bit;
	}
	return 0;
}

int
mc_recurrent_make(struct gguf_mem_model *m, struct gguf_doc *d)
{
	struct gguf_doc_tensor	 t;
	uint64_t		 ne[4], i, nt;
	uint32_t		 il;
	size_t			 j, k, len;
	int64_t			 b;
	const char *const	*blk, *const *kept;
	char			 name[96];

	for (k = 0; k < sizeof rec_archs / sizeof rec_archs[0]; k++)
		if (strcmp(m->arch, rec_archs[k].arch) == 0)
			break;
	if (k == sizeof rec_archs / sizeof rec_archs[0])
		return 0;
	m->c_kind = rec_archs[k].kind;
	blk = rec_archs[k].block;
	kept = rec_archs[k].kept;
	memset(m->c_rec, 0, sizeof m->c_rec);
	if (mc_tshape(d, -1, "token_embd.weight", ne) != 0)
		return mc_cnot(m, " without token_embd.weight");
	m->c_embd = ne[0];
	if (mc_tshape(d, -1, "output.weight", ne) != 0)
		mc_tshape(d, -1, "token_embd.weight", ne);
	m->c_out = ne[1];
	if (m->n_layer == 0)
		return mc_cnot(m, " without blocks");
	if (m->c_embd > ((uint64_t)1 << 24) || m->c_out > ((uint64_t)1 << 32))
		return mc_cnot(m, " with an embedding over 2^24 or a vocabulary "
		    "over 2^32");
	/* Every tensor one the graph knows, every one it reads there. */
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
			for (j = 0; kept[j] != NULL; j++)
				if (strcmp(name, bare(kept[j])) == 0)
					break;
			if (kept[j] == NULL)
				return mc_cnot(m, " with %s", name);
			continue;
		}
		for (j = 0; blk[j] != NULL; j++)
			if (ends(&t.name, bare(blk[j])))
				break;
		if (blk[j] == NULL)
			return mc_cnot(m, " blocks with %s", name);
	}
	for (j = 0; kept[j] != NULL; j++)
		if (kept[j][0] != '?' && mc_tshape(d, -1, kept[j], ne) != 0)
			return mc_cnot(m, " without %s", kept[j]);
	for (il = 0; il < m->n_layer; il++)
		for (j = 0; blk[j] != NULL; j++)
			if (blk[j][0] != '?' && mc_tshape(d, il, blk[j], ne) != 0)
				return mc_cnot(m, " without blk.%u.%s", il,
				    blk[j]);
	if ((m->c_kind == R_FALCONH1 ? falcon_h1_sizes(m, d) :
	    m->c_kind == R_GRANITEH ? granite_h_sizes(m, d) :
	    m->c_kind == R_JAMBA ? jamba_sizes(m, d) :
	    m->c_kind == R_NEMOTRON_H ? nemotron_h_sizes(m, d) :
	    m->c_kind == R_LFM2 ? lfm2_sizes(m, d) :
	    m->c_kind == R_RWKV6 || m->c_kind == R_RWKV7 ? rwkv_sizes(m, d) :
	    ssm_sizes(m, d)) != 0)
		return 1;
	m->compute = 1;
	m->cwhy[0] = '\0';
	return 1;
}

int
mc_recurrent_compute(const struct gguf_mem_model *m,
    const struct gguf_mem_opts *o, const struct gguf_mem_need *n,
    uint64_t *bytes, char *why, size_t len)
{
	struct rshape	s;
	uint64_t	ub, pp, tg;
	int		ov1, ov2;

	*bytes = 0;
	if (o->gpu) {
		snprintf(why, len, "compute: not modelled with a GPU "
		    "(--gpu-layers)");
		return -1;
	}
	if (m->c_kind == R_LFM2 || m->c_kind == R_NEMOTRON_H ||
	    m->c_kind == R_JAMBA || m->c_kind == R_GRANITEH ||
	    m->c_kind == R_FALCONH1) {
		/* the attention's cache */
		if (!gguf_mem_flash_attn(o) &&
		    (gguf_ttype(o->type_v)->flags & GGUF_TF_QUANT)) {
			snprintf(why, len, "compute: llama.cpp refuses a "
			    "quantized V cache without flash attention");
			return -1;
		}
		if (gguf_mem_flash_attn(o) && (o->type_k == GGUF_T_F32 ||
		    o->type_v == GGUF_T_F32)) {
			snprintf(why, len, "compute: not modelled for an F32 "
			    "cache with flash attention");
			return -1;
		}
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
	s.normw = m->c_normw;
	s.ffsh = m->c_ffsh;
	s.probsb = m->c_kind == R_LFM2;
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
