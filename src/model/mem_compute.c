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
 * moe_sigmoid; grovemoe's, llm_build_grovemoe: qwen3's attention, and
 * experts then chunk experts over their output, at moe_grove). The other
 * graphs (gemma2 and gemma3, cohere2, gpt-oss, openelm, llama4,
 * bailingmoe2, deepseek2) are told at their builders;
 * those of the recurrent architectures are in mem_compute_recurrent.c,
 * gemma3n's and gemma4's in mem_compute_gemma.c, the gated delta-net
 * hybrids' in mem_compute_deltanet.c.
 *
 * Only the tensors a graph is known to read are accepted: any other
 * tensor, a block unlike the others (heads, head sizes) or a cache kind
 * the graph does not have leaves the compute buffer "not modelled".
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "mem.h"
#include "mem_graph.h"
#include "schema.h"
#include "xmalloc.h"

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
#define C_QKV		0x800	/* one projection of Q, K and V */
#define C_DENSE		0x1000	/* llama4: a dense feed-forward */
#define C_MOE		0x2000	/* llama4: experts and a shared one */
#define C_PROBSB	0x4000	/* the experts' selection bias */
#define C_MLA		0x8000	/* deepseek2: latent attention's tensors */

enum graph_kind {
	G_LLAMA,	/* llm_build_llama, qwen2, qwen3 */
	G_GEMMA3,	/* llm_build_gemma3: sliding-window layers */
	G_GEMMA2,	/* llm_build_gemma2: and soft-capping, no norms of
			   the heads */
	G_COHERE2,	/* llm_build_cohere2_iswa: attention and FFN side by
			   side */
	G_GPTOSS,	/* llm_build_openai_moe_iswa: experts */
	G_APERTUS,	/* llm_build_apertus: qwen3's, an xIELU feed-forward */
	G_MINIMAX,	/* llm_build_minimax_m2: norms of the whole Q and K,
			   experts routed by sigmoid */
	G_OPENELM,	/* llm_build_openelm: heads and feed-forward of each
			   block its own, a fused QKV */
	G_LLAMA4,	/* llm_build_llama_iswa: chunked layers with RoPE,
			   others without; experts and a shared one */
	G_BAILING2,	/* llm_build_bailingmoe2: a fused QKV, norms of Q's
			   and K's heads; leading dense blocks, then experts
			   and shared ones */
	G_DEEPSEEK2,	/* llm_build_deepseek2: latent attention over a K
			   cache only; leading dense blocks, then experts and
			   shared ones */
	G_GROVE		/* llm_build_grovemoe: qwen3's attention; experts,
			   then chunk experts of their output */
};

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
	const uint64_t	*nh, *nhkv;	/* heads, KV heads, per block */
	uint64_t	 ffsh;		/* the shared experts' length */
	int		 normw;		/* the weights normalized */
	int		 scalew;	/* and scaled */
	uint64_t	 rank, rope, qrank, temp;	/* deepseek2's c_mla */
	uint64_t	 ngroup, ngused;	/* groups of experts, used */
	int		 kt;		/* the K cache's type (T_F16, T_F32) */
	uint64_t	 nchunk;	/* grovemoe: the chunk experts (their
					   length: ffsh) */
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

	k = mg_view(g, k, ekv, T, 1, NULL);
	/* K into the cache (seen as one stream) */
	mg_cache_view(g, k, kidx, ns > 1 ? mg_cache_view(g, EXT, -1, -1) :
	    EXT);
	if (s->fa) {
		v = mg_view(g, v, evv, T, 1, NULL);
		mg_cache_view(g, v, vidx, ns > 1 ? mg_cache_view(g, EXT, -1,
		    -1) : EXT);
		q = mg_permute(g, mg_view(g, q, s->hk, s->head, T, NULL));
		k = mg_permute(g, mg_cache_view(g, EXT, -1, -1));
		v = mg_permute(g, mg_cache_view(g, EXT, -1, -1));
		a = mg_op4(g, K_PLAIN, T_F32, s->hv, s->head, ts, ns, q, k,
		    v);
		g->t[a].src[3] = mask;
		g->t[a].n_src = 4;
		a = mg_view(g, a, s->hv * s->head, T, 1, NULL);
	} else {
		/* V's heads apart (views of one projection): copied together
		   first */
		if (g->t[v].kind == K_VIEW && g->t[v].nb[2] != g->t[v].nb[1] *
		    g->t[v].ne[1])
			v = mg_op(g, K_PLAIN, T_F32, evv, T, 1, v, -1, -1);
		else
			v = mg_view(g, v, evv, T, 1, NULL);
		v = mg_view(g, v, 1, mg_mul_lim(g, T, evv), 1, NULL);
		mg_cache_view(g, v, vidx, mg_cache_view(g, EXT, -1, -1));
		v = mg_permute(g, mg_cache_view(g, EXT, -1, -1));
		k = mg_permute(g, mg_cache_view(g, EXT, -1, -1));
		q = mg_permute(g, mg_view(g, q, s->hk, s->head, T, NULL));
		kq = mg_op4(g, K_PLAIN, T_F32, n_kv, ts, s->head, ns,
		    k, q, -1);
		/* soft-capping: scaled, tanh, scaled back */
		for (j = 0; s->kind == G_GEMMA2 && j < 3; j++)
			kq = mg_op4(g, K_INPLACE, T_F32, n_kv, ts, s->head, ns,
			    kq, -1, -1);
		kq = mg_op4(g, K_INPLACE, T_F32, n_kv, ts, s->head, ns,
		    kq, mask, -1);
		kqv = mg_op4(g, K_PLAIN, T_F32, s->hv, ts, s->head, ns, v,
		    kq, -1);
		kqv = mg_permute(g, kqv);
		a = mg_op(g, K_PLAIN, T_F32, s->hv * s->head, T, 1, kqv,
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

	lg = mg_op(g, K_PLAIN, T_F32, s->n_exp, T, 1, EXT, t, -1);
	lg = mg_op(g, K_INPLACE, T_F32, s->n_exp, T, 1, lg, -1, -1);
	pr = mg_view(g, lg, 1, s->n_exp, T, NULL);
	tk = mg_op(g, K_INPLACE, T_F32, s->n_exp, T, 1, lg, EXT, -1);
	tk = mg_op(g, K_PLAIN, T_I32, s->n_exp, T, 1, tk, -1, -1);
	memcpy(nb, g->t[tk].nb, sizeof nb);
	tk = mg_view(g, tk, nu, T, 1, nb);
	wt = mg_op(g, K_PLAIN, T_F32, 1, nu, T, pr, tk, -1);
	wt = mg_view(g, wt, nu, T, 1, NULL);
	sum = mg_op(g, K_PLAIN, T_F32, 1, T, 1, wt, -1, -1);
	sum = mg_op(g, K_INPLACE, T_F32, 1, T, 1, sum, -1, -1);
	wt = mg_op(g, K_INPLACE, T_F32, nu, T, 1, wt, sum, -1);
	wt = mg_view(g, wt, 1, nu, T, NULL);
	cr = mg_view(g, t, s->embd, 1, T, NULL);
	q = mg_op(g, K_PLAIN, T_F32, s->ff[il], nu, T, EXT, cr, tk);
	up = mg_op(g, K_PLAIN, T_F32, s->ff[il], nu, T, EXT, cr, tk);
	e = mg_op(g, K_PLAIN, T_F32, s->ff[il], nu, T, q, up, -1);
	e = mg_op(g, K_PLAIN, T_F32, s->embd, nu, T, EXT, e, tk);
	e = mg_op(g, K_INPLACE, T_F32, s->embd, nu, T, e, wt, -1);
	memcpy(nb, g->t[e].nb, sizeof nb);
	nb[1] = g->t[e].nb[2];
	nb[2] = nb[3] = nb[1] * T;
	q = mg_view(g, e, s->embd, T, 1, nb);
	if (nu == 1)
		q = mg_op(g, K_PLAIN, T_F32, s->embd, T, 1, q, -1, -1);
	else {
		k = mg_view(g, e, s->embd, T, 1, nb);
		g->t[k].view_offs = g->t[e].nb[1];
		for (j = 2; j < nu; j++) {
			v = mg_view(g, e, s->embd, T, 1, nb);
			g->t[v].view_offs = j * g->t[e].nb[1];
		}
		q = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, q, k, -1);
		for (j = 2; j < nu; j++)
			q = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, q,
			    k + (int)(j - 1), -1);
	}
	return mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, q, a, -1);
}

/*
 * One of grovemoe's two build_moe_ffn over in (T tokens), both ranked by
 * the same router logits lg (n_exp of them): their soft-max (the
 * weights; the logits read four times, so never in place), their sigmoid
 * ranked, the n_used first; for the chunk experts (chunk), unless there
 * are as many as experts, the ranks made floats, scaled to a chunk's and
 * made integers again; the weights
 * normalized by their sum; gate and up (ff long), SwiGLU, down,
 * weighted, summed. With one expert a token the sum is a view of the
 * weighted experts, copied whole where it is first read: *in (the first
 * experts' output) after the weights, the result by the caller.
 */
static int
grove_experts(struct graph *g, const struct shape *s, uint64_t T, int *in,
    int lg, uint64_t ff, int chunk)
{
	uint64_t	nu = s->n_used, nb[4], j;
	int		pr, tk, wt, sum, cr, q, up, e, k, v;

	pr = mg_op(g, K_INPLACE, T_F32, s->n_exp, T, 1, lg, -1, -1);
	pr = mg_view(g, pr, 1, s->n_exp, T, NULL);
	tk = mg_op(g, K_INPLACE, T_F32, s->n_exp, T, 1, lg, -1, -1);
	tk = mg_op(g, K_PLAIN, T_I32, s->n_exp, T, 1, tk, -1, -1);
	memcpy(nb, g->t[tk].nb, sizeof nb);
	tk = mg_view(g, tk, nu, T, 1, nb);
	if (chunk && s->nchunk != s->n_exp) {
		tk = mg_op(g, K_PLAIN, T_F32, nu, T, 1, tk, -1, -1);
		tk = mg_op(g, K_INPLACE, T_F32, nu, T, 1, tk, -1, -1);
		tk = mg_op(g, K_PLAIN, T_I32, nu, T, 1, tk, -1, -1);
	}
	wt = mg_op(g, K_PLAIN, T_F32, 1, nu, T, pr, tk, -1);
	wt = mg_view(g, wt, nu, T, 1, NULL);
	sum = mg_op(g, K_PLAIN, T_F32, 1, T, 1, wt, -1, -1);
	sum = mg_op(g, K_INPLACE, T_F32, 1, T, 1, sum, -1, -1);
	wt = mg_op(g, K_INPLACE, T_F32, nu, T, 1, wt, sum, -1);
	wt = mg_view(g, wt, 1, nu, T, NULL);
	if (g->t[*in].kind == K_VIEW)
		*in = mg_op(g, K_PLAIN, T_F32, s->embd, T, 1, *in, -1, -1);
	cr = mg_view(g, *in, s->embd, 1, T, NULL);
	q = mg_op(g, K_PLAIN, T_F32, ff, nu, T, EXT, cr, tk);
	up = mg_op(g, K_PLAIN, T_F32, ff, nu, T, EXT, cr, tk);
	e = mg_op(g, K_PLAIN, T_F32, ff, nu, T, q, up, -1);
	e = mg_op(g, K_PLAIN, T_F32, s->embd, nu, T, EXT, e, tk);
	e = mg_op(g, K_INPLACE, T_F32, s->embd, nu, T, e, wt, -1);
	memcpy(nb, g->t[e].nb, sizeof nb);
	nb[1] = g->t[e].nb[2];
	nb[2] = nb[3] = nb[1] * T;
	q = mg_view(g, e, s->embd, T, 1, nb);
	if (nu == 1)
		return q;
	k = mg_view(g, e, s->embd, T, 1, nb);
	g->t[k].view_offs = g->t[e].nb[1];
	for (j = 2; j < nu; j++) {
		v = mg_view(g, e, s->embd, T, 1, nb);
		g->t[v].view_offs = j * g->t[e].nb[1];
	}
	q = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, q, k, -1);
	for (j = 2; j < nu; j++)
		q = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, q,
		    k + (int)(j - 1), -1);
	return q;
}

/*
 * grovemoe's feed-forward over t, then the residual a: the router's
 * logits; the experts over t; the chunk experts over their output,
 * scaled and added to it.
 */
static int
moe_grove(struct graph *g, const struct shape *s, uint32_t il, uint64_t T,
    int t, int a)
{
	int	lg, m, adj;

	lg = mg_op(g, K_PLAIN, T_F32, s->n_exp, T, 1, EXT, t, -1);
	m = grove_experts(g, s, T, &t, lg, s->ff[il], 0);
	adj = grove_experts(g, s, T, &m, lg, s->ffsh, 1);
	if (g->t[adj].kind == K_VIEW)
		adj = mg_op(g, K_PLAIN, T_F32, s->embd, T, 1, adj, -1, -1);
	adj = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, adj, -1, -1);
	m = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, m, adj, -1);
	return mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, m, a, -1);
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

	mg_add_tensor(g, K_EXT, T_F32, NULL);		/* EXT */
	tok = mg_input(g, T_I32, T, 1, 1);
	mg_input(g, T_F32, s->embd, T, 1);		/* embeddings, unread */
	pos = mg_input(g, T_I32, T, 1, 1);
	kidx = mg_input(g, T_I64, T, 1, 1);
	vidx = mg_input(g, T_I64, s->fa ? T : mg_mul_lim(g, T, evv), 1, 1);
	mask = mg_input(g, s->fa ? T_F16 : T_F32, s->n_kv, ts, ns);
	out = mg_input(g, T_I32, rows, 1, 1);
	x = mg_op(g, K_PLAIN, T_F32, s->embd, T, 1, EXT, tok, -1);
	for (il = 0; il < s->n_layer; il++) {
		in_sa = x;
		t = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, x, -1, -1);
		t = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, t, EXT, -1);
		f = s->flags[il];
		q = mg_op(g, K_PLAIN, T_F32, nq, T, 1, EXT, t, -1);
		if (f & C_BQ)
			q = mg_op(g, K_INPLACE, T_F32, nq, T, 1, q, EXT, -1);
		if (s->kind == G_MINIMAX) {	/* norm of the whole Q */
			q = mg_op(g, K_INPLACE, T_F32, nq, T, 1, q, -1, -1);
			q = mg_op(g, K_INPLACE, T_F32, nq, T, 1, q, EXT, -1);
		}
		q = mg_view(g, q, s->hk, s->head, T, NULL);
		if (f & C_QKNORM) {
			q = mg_op(g, K_INPLACE, T_F32, s->hk, s->head, T, q, -1,
			    -1);
			q = mg_op(g, K_INPLACE, T_F32, s->hk, s->head, T, q, EXT,
			    -1);
		}
		q = mg_op(g, K_INPLACE, T_F32, s->hk, s->head, T, q, pos, -1);
		v = mg_op(g, K_PLAIN, T_F32, evv, T, 1, EXT, t, -1);
		if (f & C_BV)
			v = mg_op(g, K_INPLACE, T_F32, evv, T, 1, v, EXT, -1);
		v = mg_view(g, v, s->hv, s->head_kv, T, NULL);
		k = mg_op(g, K_PLAIN, T_F32, ekv, T, 1, EXT, t, -1);
		if (f & C_BK)
			k = mg_op(g, K_INPLACE, T_F32, ekv, T, 1, k, EXT, -1);
		if (s->kind == G_MINIMAX) {	/* norm of the whole K */
			k = mg_op(g, K_INPLACE, T_F32, ekv, T, 1, k, -1, -1);
			k = mg_op(g, K_INPLACE, T_F32, ekv, T, 1, k, EXT, -1);
		}
		k = mg_view(g, k, s->hk, s->head_kv, T, NULL);
		if (f & C_QKNORM) {
			k = mg_op(g, K_INPLACE, T_F32, s->hk, s->head_kv, T, k,
			    -1, -1);
			k = mg_op(g, K_INPLACE, T_F32, s->hk, s->head_kv, T, k,
			    EXT, -1);
		}
		k = mg_op(g, K_INPLACE, T_F32, s->hk, s->head_kv, T, k, pos, -1);
		a = attention(g, s, T, q, k, v, kidx, vidx, mask, s->n_kv);
		a = mg_op(g, K_PLAIN, T_F32, s->embd, T, 1, EXT, a, -1);
		if (il + 1 == s->n_layer) {		/* the outputs' rows */
			a = mg_op(g, K_PLAIN, T_F32, s->embd, rows, 1, a, out, -1);
			in_sa = mg_op(g, K_PLAIN, T_F32, s->embd, rows, 1, in_sa,
			    out, -1);
			T = rows;
		}
		a = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, a, in_sa, -1);
		t = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, a, -1, -1);
		t = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, t, EXT, -1);
		if (s->kind == G_MINIMAX) {
			x = moe_sigmoid(g, s, il, T, t, a);
			continue;
		}
		if (s->kind == G_GROVE) {
			x = moe_grove(g, s, il, T, t, a);
			continue;
		}
		if (s->kind == G_APERTUS) {	/* up, xIELU (in place) */
			t = mg_op(g, K_PLAIN, T_F32, s->ff[il], T, 1, EXT, t, -1);
			t = mg_op(g, K_INPLACE, T_F32, s->ff[il], T, 1, t, -1,
			    -1);
		} else {			/* gate, up, SwiGLU */
			q = mg_op(g, K_PLAIN, T_F32, s->ff[il], T, 1, EXT, t, -1);
			k = mg_op(g, K_PLAIN, T_F32, s->ff[il], T, 1, EXT, t, -1);
			t = mg_op(g, K_PLAIN, T_F32, s->ff[il], T, 1, q, k, -1);
		}
		t = mg_op(g, K_PLAIN, T_F32, s->embd, T, 1, EXT, t, -1);
		x = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, t, a, -1);
	}
	t = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, x, -1, -1);
	t = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, t, EXT, -1);
	g->t[t].output = 1;
	t = mg_op(g, K_PLAIN, T_F32, s->out, T, 1, EXT, t, -1);
	g->t[t].output = 1;
}

/*
 * llm_build_openelm's graph: per block RMS norm, one projection of Q, K
 * and V (the block's own heads and KV heads), views of it: Q and K
 * through RMS norms of their heads and RoPE, V a view (copied into one
 * piece before the cache without flash attention); the attention; on the
 * last block the rows of the outputs, the attention's then the
 * residual's; the residual added; RMS norm, the SwiGLU feed-forward (of
 * the block's own length), the residual.
 */
static void
build_openelm(struct graph *g, const struct shape *s, uint64_t T,
    uint64_t rows)
{
	struct shape	ls = *s;
	uint64_t	hd = s->hk, nb[4], nh, nkv, nqkv, evv = 0;
	int		tok, pos, kidx, vidx, mask, out, x, in, t, q, k, v, a,
			r, up;
	uint32_t	il;

	for (il = 0; il < s->n_layer; il++)	/* the widest V */
		if (s->hv * s->nhkv[il] > evv)
			evv = s->hv * s->nhkv[il];
	mg_add_tensor(g, K_EXT, T_F32, NULL);		/* EXT */
	tok = mg_input(g, T_I32, T, 1, 1);
	mg_input(g, T_F32, s->embd, T, 1);		/* embeddings, unread */
	pos = mg_input(g, T_I32, T, 1, 1);
	kidx = mg_input(g, T_I64, T, 1, 1);
	vidx = mg_input(g, T_I64, s->fa ? T : mg_mul_lim(g, T, evv), 1, 1);
	mask = mg_input(g, s->fa ? T_F16 : T_F32, s->n_kv, T / s->ns, s->ns);
	out = mg_input(g, T_I32, rows, 1, 1);
	x = mg_op(g, K_PLAIN, T_F32, s->embd, T, 1, EXT, tok, -1);
	for (il = 0; il < s->n_layer; il++) {
		nh = s->nh[il];
		nkv = s->nhkv[il];
		nqkv = nh + 2 * nkv;
		ls.head = nh;
		ls.head_kv = nkv;
		in = x;
		t = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, x, -1, -1);
		t = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, t, EXT, -1);
		r = mg_op(g, K_PLAIN, T_F32, hd * nqkv, T, 1, EXT, t, -1);
		r = mg_view(g, r, hd, nqkv, T, NULL);
		memcpy(nb, g->t[r].nb, sizeof nb);
		q = mg_view(g, r, hd, nh, T, nb);
		q = mg_op(g, K_INPLACE, T_F32, hd, nh, T, q, -1, -1);
		q = mg_op(g, K_INPLACE, T_F32, hd, nh, T, q, EXT, -1);
		q = mg_op(g, K_INPLACE, T_F32, hd, nh, T, q, pos, -1);
		v = mg_view(g, r, hd, nkv, T, nb);
		g->t[v].view_offs = nb[1] * (nh + nkv);
		k = mg_view(g, r, hd, nkv, T, nb);
		g->t[k].view_offs = nb[1] * nh;
		k = mg_op(g, K_INPLACE, T_F32, hd, nkv, T, k, -1, -1);
		k = mg_op(g, K_INPLACE, T_F32, hd, nkv, T, k, EXT, -1);
		k = mg_op(g, K_INPLACE, T_F32, hd, nkv, T, k, pos, -1);
		a = attention(g, &ls, T, q, k, v, kidx, vidx, mask, s->n_kv);
		a = mg_op(g, K_PLAIN, T_F32, s->embd, T, 1, EXT, a, -1);
		if (il + 1 == s->n_layer) {
			a = mg_op(g, K_PLAIN, T_F32, s->embd, rows, 1, a, out, -1);
			in = mg_op(g, K_PLAIN, T_F32, s->embd, rows, 1, in, out,
			    -1);
			T = rows;
		}
		a = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, in, a, -1);
		t = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, a, -1, -1);
		t = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, t, EXT, -1);
		q = mg_op(g, K_PLAIN, T_F32, s->ff[il], T, 1, EXT, t, -1);
		up = mg_op(g, K_PLAIN, T_F32, s->ff[il], T, 1, EXT, t, -1);
		t = mg_op(g, K_PLAIN, T_F32, s->ff[il], T, 1, q, up, -1);
		t = mg_op(g, K_PLAIN, T_F32, s->embd, T, 1, EXT, t, -1);
		x = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, t, a, -1);
	}
	t = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, x, -1, -1);
	t = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, t, EXT, -1);
	g->t[t].output = 1;
	t = mg_op(g, K_PLAIN, T_F32, s->out, T, 1, EXT, t, -1);
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

	mg_add_tensor(g, K_EXT, T_F32, NULL);		/* EXT */
	*tok = mg_input(g, T_I32, T, 1, 1);
	mg_input(g, T_F32, s->embd, T, 1);		/* embeddings, unread */
	*pos = mg_input(g, T_I32, T, 1, 1);
	kidx[0] = kidx[1] = vidx[0] = vidx[1] = mask[0] = mask[1] = -1;
	for (il = 0; il < s->n_layer; il++) {
		w = s->swa[il] != 0;
		if (kidx[w] >= 0)
			continue;
		kidx[w] = mg_input(g, T_I64, T, 1, 1);
		vidx[w] = mg_input(g, T_I64, s->fa ? T : mg_mul_lim(g, T, evv), 1,
		    1);
		mask[w] = mg_input(g, s->fa ? T_F16 : T_F32, w ? s->n_kv_swa :
		    s->n_kv, ts, ns);
	}
	*out = mg_input(g, T_I32, rows, 1, 1);
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
	x = mg_op(g, K_PLAIN, T_F32, s->embd, T, 1, EXT, tok, -1);
	x = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, x, -1, -1);
	for (il = 0; il < s->n_layer; il++) {
		w = s->swa[il] != 0;
		in = x;
		t = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, x, -1, -1);
		t = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, t, EXT, -1);
		q = mg_op(g, K_PLAIN, T_F32, nq, T, 1, EXT, t, -1);
		q = mg_view(g, q, s->hk, s->head, T, NULL);
		/* gemma3: norm, its weight; RoPE, scale */
		for (j = s->kind == G_GEMMA2 ? 2 : 0; j < 4; j++)
			q = mg_op(g, K_INPLACE, T_F32, s->hk, s->head, T, q,
			    j == 1 ? EXT : j == 2 ? pos : -1, -1);
		k = mg_op(g, K_PLAIN, T_F32, ekv, T, 1, EXT, t, -1);
		k = mg_view(g, k, s->hk, s->head_kv, T, NULL);
		for (j = s->kind == G_GEMMA2 ? 2 : 0; j < 3; j++)
			k = mg_op(g, K_INPLACE, T_F32, s->hk, s->head_kv, T, k,
			    j == 1 ? EXT : j == 2 ? pos : -1, -1);
		v = mg_op(g, K_PLAIN, T_F32, evv, T, 1, EXT, t, -1);
		v = mg_view(g, v, s->hv, s->head_kv, T, NULL);
		a = attention(g, s, T, q, k, v, kidx[w], vidx[w], mask[w],
		    w ? s->n_kv_swa : s->n_kv);
		a = mg_op(g, K_PLAIN, T_F32, s->embd, T, 1, EXT, a, -1);
		if (il + 1 == s->n_layer)		/* the outputs' rows */
			a = mg_op(g, K_PLAIN, T_F32, s->embd, rows, 1, a, out, -1);
		if (il + 1 == s->n_layer) {
			T = rows;
			a = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, a, -1, -1);
			a = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, a, EXT, -1);
			in = mg_op(g, K_PLAIN, T_F32, s->embd, T, 1, in, out, -1);
		} else {
			a = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, a, -1, -1);
			a = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, a, EXT, -1);
		}
		a = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, a, in, -1);
		t = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, a, -1, -1);
		t = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, t, EXT, -1);
		q = mg_op(g, K_PLAIN, T_F32, s->ff[il], T, 1, EXT, t, -1);
		k = mg_op(g, K_PLAIN, T_F32, s->ff[il], T, 1, EXT, t, -1);
		t = mg_op(g, K_PLAIN, T_F32, s->ff[il], T, 1, q, k, -1);
		t = mg_op(g, K_PLAIN, T_F32, s->embd, T, 1, EXT, t, -1);
		t = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, t, -1, -1);
		t = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, t, EXT, -1);
		x = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, t, a, -1);
	}
	t = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, x, -1, -1);
	t = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, t, EXT, -1);
	g->t[t].output = 1;
	t = mg_op(g, K_PLAIN, T_F32, s->out, T, 1, EXT, t, -1);
	/* gemma2: the logits soft-capped */
	for (j = 0; s->kind == G_GEMMA2 && j < 3; j++)
		t = mg_op(g, K_INPLACE, T_F32, s->out, T, 1, t, -1, -1);
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
	x = mg_op(g, K_PLAIN, T_F32, s->embd, T, 1, EXT, tok, -1);
	for (il = 0; il < s->n_layer; il++) {
		w = s->swa[il] != 0;
		in = x;
		t = mg_op(g, K_PLAIN, T_F32, s->embd, T, 1, x, -1, -1);
		t = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, t, EXT, -1);
		q = mg_op(g, K_PLAIN, T_F32, nq, T, 1, EXT, t, -1);
		q = mg_view(g, q, s->hk, s->head, T, NULL);
		if (w)
			q = mg_op(g, K_INPLACE, T_F32, s->hk, s->head, T, q, pos,
			    -1);
		k = mg_op(g, K_PLAIN, T_F32, ekv, T, 1, EXT, t, -1);
		k = mg_view(g, k, s->hk, s->head_kv, T, NULL);
		if (w)
			k = mg_op(g, K_INPLACE, T_F32, s->hk, s->head_kv, T, k,
			    pos, -1);
		v = mg_op(g, K_PLAIN, T_F32, evv, T, 1, EXT, t, -1);
		v = mg_view(g, v, s->hv, s->head_kv, T, NULL);
		a = attention(g, s, T, q, k, v, kidx[w], vidx[w], mask[w],
		    w ? s->n_kv_swa : s->n_kv);
		if (il + 1 == s->n_layer) {		/* the outputs' rows */
			t = mg_op(g, K_PLAIN, T_F32, s->embd, rows, 1, t, out, -1);
			T = rows;
		}
		q = mg_op(g, K_PLAIN, T_F32, s->ff[il], T, 1, EXT, t, -1);
		up = mg_op(g, K_PLAIN, T_F32, s->ff[il], T, 1, EXT, t, -1);
		t = mg_op(g, K_PLAIN, T_F32, s->ff[il], T, 1, q, up, -1);
		t = mg_op(g, K_PLAIN, T_F32, s->embd, T, 1, EXT, t, -1);
		if (il + 1 == s->n_layer)
			in = mg_op(g, K_PLAIN, T_F32, s->embd, T, 1, in, out, -1);
		t = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, t, in, -1);
		a = mg_op(g, K_PLAIN, T_F32, s->embd, il + 1 == s->n_layer ?
		    ts * ns : T, 1, EXT, a, -1);
		if (il + 1 == s->n_layer)
			a = mg_op(g, K_PLAIN, T_F32, s->embd, T, 1, a, out, -1);
		x = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, t, a, -1);
	}
	t = mg_op(g, K_PLAIN, T_F32, s->embd, T, 1, x, -1, -1);
	t = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, t, EXT, -1);
	g->t[t].output = 1;
	t = mg_op(g, K_PLAIN, T_F32, s->out, T, 1, EXT, t, -1);
	t = mg_op(g, K_INPLACE, T_F32, s->out, T, 1, t, -1, -1);
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
	x = mg_op(g, K_PLAIN, T_F32, s->embd, T, 1, EXT, tok, -1);
	for (il = 0; il < s->n_layer; il++) {
		w = s->swa[il] != 0;
		f = s->flags[il];
		in = x;
		t = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, x, -1, -1);
		t = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, t, EXT, -1);
		q = mg_op(g, K_PLAIN, T_F32, nq, T, 1, EXT, t, -1);
		if (f & C_BQ)
			q = mg_op(g, K_INPLACE, T_F32, nq, T, 1, q, EXT, -1);
		q = mg_view(g, q, s->hk, s->head, T, NULL);
		q = mg_op(g, K_INPLACE, T_F32, s->hk, s->head, T, q, pos, -1);
		k = mg_op(g, K_PLAIN, T_F32, ekv, T, 1, EXT, t, -1);
		if (f & C_BK)
			k = mg_op(g, K_INPLACE, T_F32, ekv, T, 1, k, EXT, -1);
		k = mg_view(g, k, s->hk, s->head_kv, T, NULL);
		k = mg_op(g, K_INPLACE, T_F32, s->hk, s->head_kv, T, k, pos, -1);
		v = mg_op(g, K_PLAIN, T_F32, evv, T, 1, EXT, t, -1);
		if (f & C_BV)
			v = mg_op(g, K_INPLACE, T_F32, evv, T, 1, v, EXT, -1);
		v = mg_view(g, v, s->hv, s->head_kv, T, NULL);
		a = attention(g, s, T, q, k, v, kidx[w], vidx[w], mask[w],
		    w ? s->n_kv_swa : s->n_kv);
		a = mg_op(g, K_PLAIN, T_F32, s->embd, T, 1, EXT, a, -1);
		if (f & C_BO)
			a = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, a, EXT, -1);
		a = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, a, in, -1);
		t = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, a, -1, -1);
		t = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, t, EXT, -1);
		/* the router */
		lg = mg_op(g, K_PLAIN, T_F32, s->n_exp, T, 1, EXT, t, -1);
		if (f & C_BR)
			lg = mg_op(g, K_INPLACE, T_F32, s->n_exp, T, 1, lg, EXT,
			    -1);
		pr = mg_view(g, lg, 1, s->n_exp, T, NULL);
		tk = mg_op(g, K_PLAIN, T_I32, s->n_exp, T, 1, lg, -1, -1);
		memcpy(nb, g->t[tk].nb, sizeof nb);
		tk = mg_view(g, tk, nu, T, 1, nb);
		wt = mg_op(g, K_PLAIN, T_F32, 1, nu, T, pr, tk, -1);
		wt = mg_view(g, wt, nu, T, 1, NULL);
		wt = mg_op(g, K_INPLACE, T_F32, nu, T, 1, wt, -1, -1);
		wt = mg_view(g, wt, 1, nu, T, NULL);
		/* the experts */
		cr = mg_view(g, t, s->embd, 1, T, NULL);
		q = mg_op(g, K_PLAIN, T_F32, s->ff[il], nu, T, EXT, cr, tk);
		if (f & C_BEG)
			q = mg_op(g, K_INPLACE, T_F32, s->ff[il], nu, T, q, EXT,
			    tk);
		up = mg_op(g, K_PLAIN, T_F32, s->ff[il], nu, T, EXT, cr, tk);
		if (f & C_BEU)
			up = mg_op(g, K_INPLACE, T_F32, s->ff[il], nu, T, up, EXT,
			    tk);
		e = mg_op(g, K_PLAIN, T_F32, s->ff[il], nu, T, q, up, -1);
		e = mg_op(g, K_PLAIN, T_F32, s->embd, nu, T, EXT, e, tk);
		if (f & C_BED)
			e = mg_op(g, K_INPLACE, T_F32, s->embd, nu, T, e, EXT, tk);
		e = mg_op(g, K_INPLACE, T_F32, s->embd, nu, T, e, wt, -1);
		/* their sum, a view of each */
		memcpy(nb, g->t[e].nb, sizeof nb);
		nb[1] = g->t[e].nb[2];
		nb[2] = nb[3] = nb[1] * T;
		q = mg_view(g, e, s->embd, T, 1, nb);
		if (nu == 1)
			q = mg_op(g, K_PLAIN, T_F32, s->embd, T, 1, q, -1, -1);
		else {
			k = mg_view(g, e, s->embd, T, 1, nb);
			g->t[k].view_offs = g->t[e].nb[1];
			for (j = 2; j < nu; j++) {
				v = mg_view(g, e, s->embd, T, 1, nb);
				g->t[v].view_offs = j * g->t[e].nb[1];
			}
			q = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, q, k, -1);
			for (j = 2; j < nu; j++)
				q = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, q,
				    k + (int)(j - 1), -1);
		}
		x = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, q, a, -1);
	}
	g->t[x].output = 1;
	x = mg_op(g, K_PLAIN, T_F32, s->embd, rows, 1, x, out, -1);
	T = rows;
	t = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, x, -1, -1);
	t = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, t, EXT, -1);
	g->t[t].output = 1;
	t = mg_op(g, K_PLAIN, T_F32, s->out, T, 1, EXT, t, -1);
	g->t[t].output = 1;
}

/*
 * llama4's experts over t (T tokens), then the shared expert, their sum
 * and the residual a: the router's logits ranked, their sigmoid the
 * weights of the n_used first; the input repeated for each expert and
 * weighted before gate and up, SwiGLU, down, summed; the shared expert's
 * SwiGLU feed-forward of t beside them.
 */
static int
moe_llama4(struct graph *g, const struct shape *s, uint32_t il, uint64_t T,
    int t, int a)
{
	uint64_t	nu = s->n_used, nb[4], j;
	int		lg, pr, tk, wt, rp, q, up, e, k, v, moe;

	lg = mg_op(g, K_PLAIN, T_F32, s->n_exp, T, 1, EXT, t, -1);
	pr = mg_op(g, K_INPLACE, T_F32, s->n_exp, T, 1, lg, -1, -1);
	pr = mg_view(g, pr, 1, s->n_exp, T, NULL);
	tk = mg_op(g, K_PLAIN, T_I32, s->n_exp, T, 1, lg, -1, -1);
	memcpy(nb, g->t[tk].nb, sizeof nb);
	tk = mg_view(g, tk, nu, T, 1, nb);
	wt = mg_op(g, K_PLAIN, T_F32, 1, nu, T, pr, tk, -1);
	rp = mg_view(g, t, s->embd, 1, T, NULL);
	rp = mg_op(g, K_PLAIN, T_F32, s->embd, nu, T, rp, -1, -1);
	rp = mg_op(g, K_INPLACE, T_F32, s->embd, nu, T, rp, wt, -1);
	q = mg_op(g, K_PLAIN, T_F32, s->ff[il], nu, T, EXT, rp, tk);
	up = mg_op(g, K_PLAIN, T_F32, s->ff[il], nu, T, EXT, rp, tk);
	e = mg_op(g, K_PLAIN, T_F32, s->ff[il], nu, T, q, up, -1);
	e = mg_op(g, K_PLAIN, T_F32, s->embd, nu, T, EXT, e, tk);
	memcpy(nb, g->t[e].nb, sizeof nb);
	nb[1] = g->t[e].nb[2];
	nb[2] = nb[3] = nb[1] * T;
	moe = mg_view(g, e, s->embd, T, 1, nb);
	if (nu == 1)
		moe = mg_op(g, K_PLAIN, T_F32, s->embd, T, 1, moe, -1, -1);
	else {
		k = mg_view(g, e, s->embd, T, 1, nb);
		g->t[k].view_offs = g->t[e].nb[1];
		for (j = 2; j < nu; j++) {
			v = mg_view(g, e, s->embd, T, 1, nb);
			g->t[v].view_offs = j * g->t[e].nb[1];
		}
		moe = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, moe, k, -1);
		for (j = 2; j < nu; j++)
			moe = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, moe,
			    k + (int)(j - 1), -1);
	}
	/* the shared expert */
	q = mg_op(g, K_PLAIN, T_F32, s->ff[il], T, 1, EXT, t, -1);
	up = mg_op(g, K_PLAIN, T_F32, s->ff[il], T, 1, EXT, t, -1);
	q = mg_op(g, K_PLAIN, T_F32, s->ff[il], T, 1, q, up, -1);
	q = mg_op(g, K_PLAIN, T_F32, s->embd, T, 1, EXT, q, -1);
	moe = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, moe, q, -1);
	return mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, moe, a, -1);
}

/*
 * llm_build_llama_iswa's graph (llama4): per block RMS norm, Q, V, K;
 * on the chunked blocks RoPE on Q and K, then (kq_norm) RMS norms of
 * them; on the others Q scaled by the temperature input (its own, made
 * where a block first reads it); attention over the chunked cache or the
 * full one; the residual; RMS norm, then a dense SwiGLU feed-forward or
 * the experts and the shared expert (moe_llama4); the residual.
 */
static void
build_llama4(struct graph *g, const struct shape *s, uint64_t T,
    uint64_t rows)
{
	uint64_t	ekv = s->hk * s->head_kv, evv = s->hv * s->head_kv;
	uint64_t	nq = s->hk * s->head, ts = T / s->ns, ns = s->ns;
	int		tok, pos, kidx[2], vidx[2], mask[2], out, x, in, t, q,
			k, v, a, w, sc = -1;
	uint32_t	il;

	mg_add_tensor(g, K_EXT, T_F32, NULL);		/* EXT */
	tok = mg_input(g, T_I32, T, 1, 1);
	mg_input(g, T_F32, s->embd, T, 1);		/* embeddings, unread */
	pos = mg_input(g, T_I32, T, 1, 1);
	kidx[0] = kidx[1] = vidx[0] = vidx[1] = mask[0] = mask[1] = -1;
	for (il = 0; il < s->n_layer; il++) {
		w = s->swa[il] != 0;
		if (!w && sc < 0)
			sc = mg_input(g, T_F32, 1, 1, T);
		if (kidx[w] >= 0)
			continue;
		kidx[w] = mg_input(g, T_I64, T, 1, 1);
		vidx[w] = mg_input(g, T_I64, s->fa ? T : mg_mul_lim(g, T, evv), 1,
		    1);
		mask[w] = mg_input(g, s->fa ? T_F16 : T_F32, w ? s->n_kv_swa :
		    s->n_kv, ts, ns);
	}
	out = mg_input(g, T_I32, rows, 1, 1);
	x = mg_op(g, K_PLAIN, T_F32, s->embd, T, 1, EXT, tok, -1);
	for (il = 0; il < s->n_layer; il++) {
		w = s->swa[il] != 0;
		in = x;
		t = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, x, -1, -1);
		t = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, t, EXT, -1);
		q = mg_op(g, K_PLAIN, T_F32, nq, T, 1, EXT, t, -1);
		q = mg_view(g, q, s->hk, s->head, T, NULL);
		if (w) {
			q = mg_op(g, K_INPLACE, T_F32, s->hk, s->head, T, q, pos,
			    -1);
			if (s->flags[il] & C_QKNORM)
				q = mg_op(g, K_INPLACE, T_F32, s->hk, s->head, T,
				    q, -1, -1);
		} else
			q = mg_op(g, K_INPLACE, T_F32, s->hk, s->head, T, q, sc,
			    -1);
		v = mg_op(g, K_PLAIN, T_F32, evv, T, 1, EXT, t, -1);
		v = mg_view(g, v, s->hv, s->head_kv, T, NULL);
		k = mg_op(g, K_PLAIN, T_F32, ekv, T, 1, EXT, t, -1);
		k = mg_view(g, k, s->hk, s->head_kv, T, NULL);
		if (w) {
			k = mg_op(g, K_INPLACE, T_F32, s->hk, s->head_kv, T, k,
			    pos, -1);
			if (s->flags[il] & C_QKNORM)
				k = mg_op(g, K_INPLACE, T_F32, s->hk, s->head_kv,
				    T, k, -1, -1);
		}
		a = attention(g, s, T, q, k, v, kidx[w], vidx[w], mask[w],
		    w ? s->n_kv_swa : s->n_kv);
		a = mg_op(g, K_PLAIN, T_F32, s->embd, T, 1, EXT, a, -1);
		if (il + 1 == s->n_layer) {		/* the outputs' rows */
			a = mg_op(g, K_PLAIN, T_F32, s->embd, rows, 1, a, out, -1);
			in = mg_op(g, K_PLAIN, T_F32, s->embd, rows, 1, in, out,
			    -1);
			T = rows;
		}
		a = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, a, in, -1);
		t = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, a, -1, -1);
		t = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, t, EXT, -1);
		if (s->flags[il] & C_MOE) {
			x = moe_llama4(g, s, il, T, t, a);
			continue;
		}
		q = mg_op(g, K_PLAIN, T_F32, s->ff[il], T, 1, EXT, t, -1);
		k = mg_op(g, K_PLAIN, T_F32, s->ff[il], T, 1, EXT, t, -1);
		t = mg_op(g, K_PLAIN, T_F32, s->ff[il], T, 1, q, k, -1);
		t = mg_op(g, K_PLAIN, T_F32, s->embd, T, 1, EXT, t, -1);
		x = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, t, a, -1);
	}
	t = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, x, -1, -1);
	t = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, t, EXT, -1);
	g->t[t].output = 1;
	t = mg_op(g, K_PLAIN, T_F32, s->out, T, 1, EXT, t, -1);
	g->t[t].output = 1;
}

/*
 * build_moe_ffn's groups of experts (ngroup of them, ngused used): the
 * selection's scores sel made groups, each group's two best summed, the
 * ngused best groups' scores kept, the others' set to -inf (rows set in
 * a tensor of the groups' shape): a view of it.
 */
static int
expert_groups(struct graph *g, const struct shape *s, uint64_t T, int sel)
{
	uint64_t	G = s->ngroup, epg = s->n_exp / G, nb[4];
	int		grp, r4, a, gt, rows, fill, v;

	grp = mg_view(g, sel, epg, G, T, NULL);
	r4 = mg_view(g, grp, 1, epg, G, NULL);
	g->t[r4].ne[3] = T;
	g->t[r4].nb[3] = g->t[r4].nb[2] * G;
	a = mg_op(g, K_PLAIN, T_I32, epg, G, T, grp, -1, -1);
	memcpy(nb, g->t[a].nb, sizeof nb);
	a = mg_view(g, a, 2, G, T, nb);
	a = mg_op4(g, K_PLAIN, T_F32, 1, 2, G, T, r4, a, -1);
	a = mg_view(g, a, 2, G, T, NULL);
	a = mg_op(g, K_PLAIN, T_F32, 1, G, T, a, -1, -1);
	a = mg_view(g, a, G, T, 1, NULL);
	gt = mg_op(g, K_PLAIN, T_I32, G, T, 1, a, -1, -1);
	memcpy(nb, g->t[gt].nb, sizeof nb);
	gt = mg_view(g, gt, s->ngused, T, 1, nb);
	rows = mg_op(g, K_PLAIN, T_F32, epg, s->ngused, T, grp, gt, -1);
	fill = mg_op(g, K_PLAIN, T_F32, epg, G, T, grp, -1, -1);
	v = mg_view(g, fill, epg, G, T, NULL);	/* the rows set in it */
	g->t[v].src[0] = rows;
	g->t[v].src[1] = gt;
	g->t[v].src[2] = fill;
	g->t[v].n_src = 3;
	return mg_view(g, v, s->n_exp, T, 1, NULL);
}

/*
 * llama.cpp's build_moe_ffn over t (T tokens), then the shared experts
 * and the residual a: the router's logits through a soft-max or a
 * sigmoid, biased (C_PROBSB) to rank them (in groups of experts, only
 * the best groups' experts), the n_used first weights
 * (normalized by their sum with normw, scaled with scalew); gate and up,
 * SwiGLU, down, weighted, summed; the shared experts' SwiGLU
 * feed-forward of t (ffsh long) added.
 */
static int
moe_ffn(struct graph *g, const struct shape *s, uint32_t il, uint64_t T,
    int t, int a)
{
	uint64_t	nu = s->n_used, nb[4], j;
	int		lg, pr, tk, wt, sum, cr, q, up, e, k, v;

	lg = mg_op(g, K_PLAIN, T_F32, s->n_exp, T, 1, EXT, t, -1);
	lg = mg_op(g, K_INPLACE, T_F32, s->n_exp, T, 1, lg, -1, -1);
	pr = mg_view(g, lg, 1, s->n_exp, T, NULL);
	tk = lg;
	if (s->flags[il] & C_PROBSB)
		tk = mg_op(g, K_INPLACE, T_F32, s->n_exp, T, 1, lg, EXT, -1);
	if (s->ngroup > 1)
		tk = expert_groups(g, s, T, tk);
	tk = mg_op(g, K_PLAIN, T_I32, s->n_exp, T, 1, tk, -1, -1);
	memcpy(nb, g->t[tk].nb, sizeof nb);
	tk = mg_view(g, tk, nu, T, 1, nb);
	wt = mg_op(g, K_PLAIN, T_F32, 1, nu, T, pr, tk, -1);
	if (s->normw) {
		wt = mg_view(g, wt, nu, T, 1, NULL);
		sum = mg_op(g, K_PLAIN, T_F32, 1, T, 1, wt, -1, -1);
		sum = mg_op(g, K_INPLACE, T_F32, 1, T, 1, sum, -1, -1);
		wt = mg_op(g, K_INPLACE, T_F32, nu, T, 1, wt, sum, -1);
		wt = mg_view(g, wt, 1, nu, T, NULL);
	}
	if (s->scalew)
		wt = mg_op(g, K_INPLACE, T_F32, 1, nu, T, wt, -1, -1);
	cr = mg_view(g, t, s->embd, 1, T, NULL);
	q = mg_op(g, K_PLAIN, T_F32, s->ff[il], nu, T, EXT, cr, tk);
	up = mg_op(g, K_PLAIN, T_F32, s->ff[il], nu, T, EXT, cr, tk);
	e = mg_op(g, K_PLAIN, T_F32, s->ff[il], nu, T, q, up, -1);
	e = mg_op(g, K_PLAIN, T_F32, s->embd, nu, T, EXT, e, tk);
	e = mg_op(g, K_INPLACE, T_F32, s->embd, nu, T, e, wt, -1);
	memcpy(nb, g->t[e].nb, sizeof nb);
	nb[1] = g->t[e].nb[2];
	nb[2] = nb[3] = nb[1] * T;
	q = mg_view(g, e, s->embd, T, 1, nb);
	if (nu == 1)
		q = mg_op(g, K_PLAIN, T_F32, s->embd, T, 1, q, -1, -1);
	else {
		k = mg_view(g, e, s->embd, T, 1, nb);
		g->t[k].view_offs = g->t[e].nb[1];
		for (j = 2; j < nu; j++) {
			v = mg_view(g, e, s->embd, T, 1, nb);
			g->t[v].view_offs = j * g->t[e].nb[1];
		}
		q = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, q, k, -1);
		for (j = 2; j < nu; j++)
			q = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, q,
			    k + (int)(j - 1), -1);
	}
	/* the shared experts */
	e = mg_op(g, K_PLAIN, T_F32, s->ffsh, T, 1, EXT, t, -1);
	up = mg_op(g, K_PLAIN, T_F32, s->ffsh, T, 1, EXT, t, -1);
	e = mg_op(g, K_PLAIN, T_F32, s->ffsh, T, 1, e, up, -1);
	e = mg_op(g, K_PLAIN, T_F32, s->embd, T, 1, EXT, e, -1);
	q = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, q, e, -1);
	return mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, q, a, -1);
}

/*
 * llm_build_bailingmoe2's graph: per block RMS norm, one projection of
 * Q, K and V, views of it: Q and K through RMS norms of their heads and
 * RoPE, V a view (copied into one piece before the cache without flash
 * attention); the attention; the residual; RMS norm, then a dense SwiGLU
 * feed-forward (the leading blocks) or the experts and the shared ones
 * (moe_ffn); the residual.
 */
static void
build_bailing2(struct graph *g, const struct shape *s, uint64_t T,
    uint64_t rows)
{
	uint64_t	hd = s->hk, nb[4], nh = s->head, nkv = s->head_kv;
	uint64_t	nqkv = nh + 2 * nkv, evv = s->hv * nkv;
	int		tok, pos, kidx, vidx, mask, out, x, in, t, q, k, v, a,
			r, up;
	uint32_t	il;

	mg_add_tensor(g, K_EXT, T_F32, NULL);		/* EXT */
	tok = mg_input(g, T_I32, T, 1, 1);
	mg_input(g, T_F32, s->embd, T, 1);		/* embeddings, unread */
	pos = mg_input(g, T_I32, T, 1, 1);
	kidx = mg_input(g, T_I64, T, 1, 1);
	vidx = mg_input(g, T_I64, s->fa ? T : mg_mul_lim(g, T, evv), 1, 1);
	mask = mg_input(g, s->fa ? T_F16 : T_F32, s->n_kv, T / s->ns, s->ns);
	out = mg_input(g, T_I32, rows, 1, 1);
	x = mg_op(g, K_PLAIN, T_F32, s->embd, T, 1, EXT, tok, -1);
	for (il = 0; il < s->n_layer; il++) {
		in = x;
		t = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, x, -1, -1);
		t = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, t, EXT, -1);
		r = mg_op(g, K_PLAIN, T_F32, hd * nqkv, T, 1, EXT, t, -1);
		nb[0] = 4;
		nb[1] = 4 * hd;
		nb[2] = g->t[r].nb[1];
		nb[3] = nb[2] * T;
		q = mg_view(g, r, hd, nh, T, nb);
		q = mg_op(g, K_INPLACE, T_F32, hd, nh, T, q, -1, -1);
		q = mg_op(g, K_INPLACE, T_F32, hd, nh, T, q, EXT, -1);
		q = mg_op(g, K_INPLACE, T_F32, hd, nh, T, q, pos, -1);
		v = mg_view(g, r, hd, nkv, T, nb);
		g->t[v].view_offs = nb[1] * (nh + nkv);
		k = mg_view(g, r, hd, nkv, T, nb);
		g->t[k].view_offs = nb[1] * nh;
		k = mg_op(g, K_INPLACE, T_F32, hd, nkv, T, k, -1, -1);
		k = mg_op(g, K_INPLACE, T_F32, hd, nkv, T, k, EXT, -1);
		k = mg_op(g, K_INPLACE, T_F32, hd, nkv, T, k, pos, -1);
		a = attention(g, s, T, q, k, v, kidx, vidx, mask, s->n_kv);
		a = mg_op(g, K_PLAIN, T_F32, s->embd, T, 1, EXT, a, -1);
		if (il + 1 == s->n_layer) {		/* the outputs' rows */
			a = mg_op(g, K_PLAIN, T_F32, s->embd, rows, 1, a, out, -1);
			in = mg_op(g, K_PLAIN, T_F32, s->embd, rows, 1, in, out,
			    -1);
			T = rows;
		}
		a = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, a, in, -1);
		t = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, a, -1, -1);
		t = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, t, EXT, -1);
		if (s->flags[il] & C_MOE) {
			x = moe_ffn(g, s, il, T, t, a);
			continue;
		}
		q = mg_op(g, K_PLAIN, T_F32, s->ff[il], T, 1, EXT, t, -1);
		up = mg_op(g, K_PLAIN, T_F32, s->ff[il], T, 1, EXT, t, -1);
		t = mg_op(g, K_PLAIN, T_F32, s->ff[il], T, 1, q, up, -1);
		t = mg_op(g, K_PLAIN, T_F32, s->embd, T, 1, EXT, t, -1);
		x = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, t, a, -1);
	}
	t = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, x, -1, -1);
	t = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, t, EXT, -1);
	g->t[t].output = 1;
	t = mg_op(g, K_PLAIN, T_F32, s->out, T, 1, EXT, t, -1);
	g->t[t].output = 1;
}

/*
 * llm_build_deepseek2's graph (multi-head latent attention, absorbed):
 * per block RMS norm; Q (one projection, or a low-rank one through an
 * RMS norm), its heads' parts without RoPE through attn_k_b, the RoPE
 * parts rotated, the two concatenated (then scaled by the temperature
 * input, made after the positions, with attention.temperature_scale);
 * the compressed KV and its RoPE
 * part (views of one projection), the first through an RMS norm (V), the
 * second rotated, the two concatenated (K) and written into the K cache;
 * attention over the cache, V a view of K's first kv_lora_rank values (a
 * copy of it transposed without flash attention), its output through
 * attn_v_b; the output projection; on the last block the rows of the
 * outputs; the residual; RMS norm, then a dense SwiGLU feed-forward (the
 * leading blocks) or the experts and the shared ones (moe_ffn); the
 * residual.
 */
static void
build_deepseek2(struct graph *g, const struct shape *s, uint64_t T,
    uint64_t rows)
{
	uint64_t	H = s->head, rank = s->rank, rope = s->rope;
	uint64_t	hq = s->hk, nope = hq - rope, kr = rank + rope;
	uint64_t	ts = T / s->ns, ns = s->ns, nb[4];
	int		tok, pos, kidx, mask, out, x, in, t, q, qn, qp, kv,
			kp, k, v, a, kq, up, c, sc = -1;
	uint32_t	il;

	mg_add_tensor(g, K_EXT, T_F32, NULL);		/* EXT */
	tok = mg_input(g, T_I32, T, 1, 1);
	mg_input(g, T_F32, s->embd, T, 1);		/* embeddings, unread */
	pos = mg_input(g, T_I32, T, 1, 1);
	if (s->temp)				/* the temperature's scales */
		sc = mg_input(g, T_F32, 1, 1, T);
	kidx = mg_input(g, T_I64, T, 1, 1);
	mask = mg_input(g, s->fa ? T_F16 : T_F32, s->n_kv, ts, ns);
	out = mg_input(g, T_I32, rows, 1, 1);
	x = mg_op(g, K_PLAIN, T_F32, s->embd, T, 1, EXT, tok, -1);
	for (il = 0; il < s->n_layer; il++) {
		in = x;
		t = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, x, -1, -1);
		t = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, t, EXT, -1);
		/* Q */
		if (s->qrank != 0) {
			q = mg_op(g, K_PLAIN, T_F32, s->qrank, T, 1, EXT, t, -1);
			q = mg_op(g, K_INPLACE, T_F32, s->qrank, T, 1, q, -1,
			    -1);
			q = mg_op(g, K_INPLACE, T_F32, s->qrank, T, 1, q, EXT,
			    -1);
			q = mg_op(g, K_PLAIN, T_F32, H * hq, T, 1, EXT, q, -1);
		} else
			q = mg_op(g, K_PLAIN, T_F32, H * hq, T, 1, EXT, t, -1);
		nb[0] = 4;
		nb[1] = 4 * hq;
		nb[2] = 4 * hq * H;
		nb[3] = nb[2] * T;
		qn = mg_view(g, q, nope, H, T, nb);
		qn = mg_permute(g, qn);
		qn = mg_op(g, K_PLAIN, T_F32, rank, T, H, EXT, qn, -1);
		qn = mg_permute(g, qn);
		qp = mg_view(g, q, rope, H, T, nb);
		g->t[qp].view_offs = 4 * nope;
		qp = mg_op(g, K_INPLACE, T_F32, rope, H, T, qp, pos, -1);
		q = mg_op(g, K_PLAIN, T_F32, kr, H, T, qn, qp, -1);
		if (s->temp)
			q = mg_op(g, K_INPLACE, T_F32, kr, H, T, q, sc, -1);
		/* V: the compressed KV, normed */
		c = mg_op(g, K_PLAIN, T_F32, kr, T, 1, EXT, t, -1);
		nb[0] = 4;
		nb[1] = 4 * kr;
		nb[2] = nb[3] = 4 * kr * T;
		kv = mg_view(g, c, rank, T, 1, nb);
		kv = mg_op(g, K_INPLACE, T_F32, rank, T, 1, kv, -1, -1);
		kv = mg_op(g, K_INPLACE, T_F32, rank, T, 1, kv, EXT, -1);
		kv = mg_view(g, kv, rank, 1, T, NULL);
		/* K: it and the RoPE part */
		nb[2] = 4 * kr;
		nb[3] = 4 * kr * T;
		kp = mg_view(g, c, rope, 1, T, nb);
		g->t[kp].view_offs = 4 * rank;
		kp = mg_op(g, K_INPLACE, T_F32, rope, 1, T, kp, pos, -1);
		k = mg_op(g, K_PLAIN, T_F32, kr, 1, T, kv, kp, -1);
		k = mg_view(g, k, kr, T, 1, NULL);
		mg_cache_view(g, k, kidx, ns > 1 ? mg_cache_view(g, EXT, -1, -1) :
		    EXT);
		k = mg_cache_view(g, EXT, -1, -1);	/* the layer's K */
		if (s->fa) {
			q = mg_permute(g, mg_view(g, q, kr, H, T, NULL));
			v = mg_permute(g, mg_view(g, k, 1, 1, 1, NULL));
			k = mg_permute(g, k);
			a = mg_op4(g, K_PLAIN, T_F32, rank, H, ts, ns, q, k, v);
			g->t[a].src[3] = mask;
			g->t[a].n_src = 4;
			a = mg_permute(g, a);
			a = mg_op4(g, K_PLAIN, T_F32, s->hv, ts, H, ns, EXT, a,
			    -1);
			a = mg_permute(g, a);
			a = mg_op4(g, K_PLAIN, T_F32, s->hv, H, ts, ns, a, -1,
			    -1);
			a = mg_view(g, a, s->hv * H, T, 1, NULL);
		} else {
			v = mg_permute(g, mg_view(g, k, 1, 1, 1, NULL));
			v = mg_op4(g, K_PLAIN, s->kt, s->n_kv, rank, 1, ns, v,
			    -1, -1);
			k = mg_permute(g, k);
			q = mg_permute(g, mg_view(g, q, kr, H, T, NULL));
			kq = mg_op4(g, K_PLAIN, T_F32, s->n_kv, ts, H, ns, k, q,
			    -1);
			kq = mg_op4(g, K_INPLACE, T_F32, s->n_kv, ts, H, ns, kq,
			    mask, -1);
			a = mg_op4(g, K_PLAIN, T_F32, rank, ts, H, ns, v, kq, -1);
			a = mg_op4(g, K_PLAIN, T_F32, s->hv, ts, H, ns, EXT, a,
			    -1);
			a = mg_permute(g, a);
			a = mg_op(g, K_PLAIN, T_F32, s->hv * H, T, 1, a, -1, -1);
		}
		a = mg_op(g, K_PLAIN, T_F32, s->embd, T, 1, EXT, a, -1);
		if (il + 1 == s->n_layer) {		/* the outputs' rows */
			a = mg_op(g, K_PLAIN, T_F32, s->embd, rows, 1, a, out, -1);
			in = mg_op(g, K_PLAIN, T_F32, s->embd, rows, 1, in, out,
			    -1);
			T = rows;
		}
		a = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, a, in, -1);
		t = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, a, -1, -1);
		t = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, t, EXT, -1);
		if (s->flags[il] & C_MOE) {
			x = moe_ffn(g, s, il, T, t, a);
			continue;
		}
		q = mg_op(g, K_PLAIN, T_F32, s->ff[il], T, 1, EXT, t, -1);
		up = mg_op(g, K_PLAIN, T_F32, s->ff[il], T, 1, EXT, t, -1);
		t = mg_op(g, K_PLAIN, T_F32, s->ff[il], T, 1, q, up, -1);
		t = mg_op(g, K_PLAIN, T_F32, s->embd, T, 1, EXT, t, -1);
		x = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, t, a, -1);
	}
	t = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, x, -1, -1);
	t = mg_op(g, K_INPLACE, T_F32, s->embd, T, 1, t, EXT, -1);
	g->t[t].output = 1;
	t = mg_op(g, K_PLAIN, T_F32, s->out, T, 1, EXT, t, -1);
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
	else if (s->kind == G_OPENELM)
		build_openelm(&g, s, T, rows);
	else if (s->kind == G_LLAMA4)
		build_llama4(&g, s, T, rows);
	else if (s->kind == G_BAILING2)
		build_bailing2(&g, s, T, rows);
	else if (s->kind == G_DEEPSEEK2)
		build_deepseek2(&g, s, T, rows);
	else
		build_llama(&g, s, T, rows);
	r = g.overflow ? 0 : mg_lay_out(&g);
	*overflow = g.overflow;
	mg_free(&g);
	return r;
}

/* ------------------------------------------------------------ the model */

/* Shape of tensor NAME (blk.IL. prefixed if il >= 0): 0, or -1 absent. */
int
mc_tshape(struct gguf_doc *d, int64_t il, const char *name, uint64_t ne[4])
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

/* The unsigned value of key ARCH.KEY: 1 with *v set, or 0. */
int
mc_key_u64(struct gguf_doc *d, const char *arch, const char *key,
    uint64_t *v)
{
	struct gguf_val	*val;
	char		 name[128];
	int		 n;

	n = snprintf(name, sizeof name, "%s.%s", arch, key);
	return (val = gguf_doc_get(d, name, (size_t)n)) != NULL &&
	    gguf_val_u64(val, v) == 0;
}

/* Not modelled: "compute: not modelled for ARCH..." (fmt after the
   architecture). 1. */
int
mc_cnot(struct gguf_mem_model *m, const char *fmt, ...)
{
	va_list	ap;
	int	n;

	n = snprintf(m->cwhy, sizeof m->cwhy, "compute: not modelled for %s",
	    m->arch);
	if (n > 0 && (size_t)n < sizeof m->cwhy) {
		va_start(ap, fmt);
		vsnprintf(m->cwhy + n, sizeof m->cwhy - (size_t)n, fmt, ap);
		va_end(ap);
	}
	m->compute = 0;
	return 1;
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
   (llama's), then gpt-oss's (sinks, norm, router, experts), then
   grovemoe's chunk experts. */
static const char *const llama_block[] = {
	"attn_norm.weight", "attn_q.weight", "attn_k.weight", "attn_v.weight",
	"attn_output.weight",
	"ffn_norm.weight", "ffn_gate.weight", "ffn_up.weight",
	"ffn_down.weight",
	"attn_sinks.weight", "post_attention_norm.weight",
	"ffn_gate_inp.weight", "ffn_gate_exps.weight", "ffn_up_exps.weight",
	"ffn_down_exps.weight",
	"ffn_gate_chexps.weight", "ffn_up_chexps.weight",
	"ffn_down_chexps.weight",
};
#define N_ATTN	5
#define N_DENSE	9
#define N_GPTOSS 15	/* grovemoe's chunk experts from here */

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
	{ "exp_probs_b.bias", C_MMNORM }, { "attn_qkv.weight", C_QKV },
	{ "ffn_gate.weight", C_DENSE }, { "ffn_up.weight", C_DENSE },
	{ "ffn_down.weight", C_DENSE }, { "ffn_gate_inp.weight", C_MOE },
	{ "ffn_gate_exps.weight", C_MOE }, { "ffn_up_exps.weight", C_MOE },
	{ "ffn_down_exps.weight", C_MOE }, { "ffn_gate_shexp.weight", C_MOE },
	{ "ffn_up_shexp.weight", C_MOE }, { "ffn_down_shexp.weight", C_MOE },
	{ "exp_probs_b.bias", C_PROBSB },
	{ "attn_q.weight", C_MLA }, { "attn_q_a.weight", C_MLA },
	{ "attn_q_a_norm.weight", C_MLA }, { "attn_q_b.weight", C_MLA },
	{ "attn_kv_a_mqa.weight", C_MLA }, { "attn_kv_a_norm.weight", C_MLA },
	{ "attn_k_b.weight", C_MLA }, { "attn_v_b.weight", C_MLA },
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
	{ "openelm", 0, C_QKNORM | C_QKV, G_OPENELM },
	{ "llama4", C_DENSE | C_MOE, 0, G_LLAMA4 },
	{ "bailingmoe2", C_DENSE | C_MOE | C_PROBSB, C_QKNORM | C_QKV,
	    G_BAILING2 },
	{ "deepseek2", C_DENSE | C_MOE | C_PROBSB | C_MLA, 0, G_DEEPSEEK2 },
	{ "grovemoe", 0, C_QKNORM, G_GROVE },
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
	if (j < N_ATTN)		/* openelm, bailingmoe2: Q, K and V in one;
				   deepseek2: extra_block's */
		return (kind != G_OPENELM && kind != G_BAILING2 &&
		    kind != G_DEEPSEEK2) || j == 0 || j + 1 == N_ATTN;
	if (j >= N_GPTOSS)
		return kind == G_GROVE;
	if (kind == G_GPTOSS)
		return j >= N_DENSE;
	if (kind == G_LLAMA4 || kind == G_BAILING2 || kind == G_DEEPSEEK2)
		/* their feed-forwards: extra_block's */
		return strcmp(llama_block[j], "ffn_norm.weight") == 0;
	if (kind == G_MINIMAX || kind == G_GROVE)
		/* their norm, router and experts */
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
	    kind == G_GPTOSS || kind == G_LLAMA4;
}

/* Whether name ends in ".suffix". */
static int
ends(const struct gguf_str *name, const char *suffix)
{
	size_t	len = (size_t)name->n, n = strlen(suffix);

	return len > n && memcmp(name->p + len - n, suffix, n) == 0 &&
	    name->p[len - n - 1] == '.';
}

/* The feed-forward of block il: dense, or experts and shared ones
   (llama4's of the experts' length), all blocks' experts alike. */
static int
block_ffn(struct gguf_mem_model *m, struct gguf_doc *d, uint32_t il)
{
	static const char *const moe[] = {
		"ffn_gate_inp.weight", "ffn_gate_exps.weight",
		"ffn_up_exps.weight", "ffn_down_exps.weight",
		"ffn_gate_shexp.weight", "ffn_up_shexp.weight",
		"ffn_down_shexp.weight",
	};
	uint64_t	ne[4], ff;
	unsigned	f = m->c_flags[il] & (C_DENSE | C_MOE);
	char		what[160];
	size_t		j;

	if (f == C_DENSE) {
		if (mc_tshape(d, il, "ffn_gate.weight", ne) != 0 ||
		    mc_tshape(d, il, "ffn_up.weight", ne) != 0 ||
		    mc_tshape(d, il, "ffn_down.weight", ne) != 0)
			goto unlike;
		mc_tshape(d, il, "ffn_gate.weight", ne);
		m->c_ff[il] = ne[1];
		return 0;
	}
	if (f != C_MOE)
		goto unlike;
	for (j = 0; j < sizeof moe / sizeof moe[0]; j++)
		if (mc_tshape(d, il, moe[j], ne) != 0)
			goto unlike;
	mc_tshape(d, il, "ffn_gate_exps.weight", ne);
	ff = ne[1];
	mc_tshape(d, il, "ffn_gate_shexp.weight", ne);
	if ((m->c_kind == G_LLAMA4 && ne[1] != ff) ||
	    (m->c_ffsh != 0 && ne[1] != m->c_ffsh))
		goto unlike;
	m->c_ffsh = ne[1];
	m->c_ff[il] = ff;
	mc_tshape(d, il, "ffn_gate_inp.weight", ne);
	if (m->c_nexp != 0 && ne[1] != m->c_nexp)
		goto unlike;
	m->c_nexp = ne[1];
	return 0;
unlike:
	snprintf(what, sizeof what, "%s blocks unlike one another", m->arch);
	cnot(m, what);
	return -1;
}

/* Block il's latent attention (deepseek2): its sizes, those of block 0. */
static int
mla_block(struct gguf_mem_model *m, struct gguf_doc *d, uint32_t il)
{
	const struct gguf_mem_layer	*l = &m->layers[il];
	uint64_t	ne[4], rank, rope, nope, h, vh, qr = 0;
	char		what[160];
	int		qa;

	if (l->kind != GGUF_MEM_FULL || l->v != 0 || l->r + l->s != 0) {
		snprintf(what, sizeof what, "%s without latent attention "
		    "(key_length_mla) on every block", m->arch);
		cnot(m, what);
		return -1;
	}
	qa = mc_tshape(d, il, "attn_q_a.weight", ne) == 0;
	if (mc_tshape(d, il, "attn_kv_a_norm.weight", ne) != 0)
		goto unlike;
	rank = ne[0];
	if (mc_tshape(d, il, "attn_kv_a_mqa.weight", ne) != 0 ||
	    ne[0] != m->c_embd || ne[1] <= rank)
		goto unlike;
	rope = ne[1] - rank;
	if (mc_tshape(d, il, "attn_k_b.weight", ne) != 0 || ne[1] != rank ||
	    ne[0] == 0)
		goto unlike;
	nope = ne[0];
	h = ne[2];
	if (mc_tshape(d, il, "attn_v_b.weight", ne) != 0 || ne[0] != rank ||
	    ne[2] != h || ne[1] == 0)
		goto unlike;
	vh = ne[1];
	if (qa) {
		if (mc_tshape(d, il, "attn_q.weight", ne) == 0 ||
		    mc_tshape(d, il, "attn_q_a.weight", ne) != 0 ||
		    ne[0] != m->c_embd || (qr = ne[1]) == 0 ||
		    mc_tshape(d, il, "attn_q_a_norm.weight", ne) != 0 ||
		    ne[0] != qr ||
		    mc_tshape(d, il, "attn_q_b.weight", ne) != 0 || ne[0] != qr)
			goto unlike;
	} else if (mc_tshape(d, il, "attn_q_a_norm.weight", ne) == 0 ||
	    mc_tshape(d, il, "attn_q_b.weight", ne) == 0 ||
	    mc_tshape(d, il, "attn_q.weight", ne) != 0 || ne[0] != m->c_embd)
		goto unlike;
	if (ne[1] != h * (nope + rope) || l->k != rank + rope ||
	    mc_tshape(d, il, "attn_output.weight", ne) != 0 || ne[0] != h * vh)
		goto unlike;
	if (il > 0 && (rank != m->c_mla[0] || rope != m->c_mla[1] ||
	    qr != m->c_mla[2] || h != m->c_head || vh != m->c_head_v ||
	    nope + rope != m->c_head_k))
		goto unlike;
	m->c_mla[0] = rank;
	m->c_mla[1] = rope;
	m->c_mla[2] = qr;
	m->c_head = h;
	m->c_head_v = vh;
	m->c_head_k = nope + rope;
	m->c_head_kv = 1;
	return 0;
unlike:
	snprintf(what, sizeof what, "%s blocks unlike one another", m->arch);
	cnot(m, what);
	return -1;
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
	double			 f;
	char			 what[160];

	m->compute = 0;
	m->c_nexp = 0;
	m->c_ffsh = 0;
	m->c_normw = m->c_scalew = 0;
	m->c_nchunk = 0;
	memset(m->c_mla, 0, sizeof m->c_mla);
	free(m->c_ff);
	m->c_ff = NULL;
	free(m->c_flags);
	m->c_flags = NULL;
	free(m->c_swa);
	m->c_swa = NULL;
	free(m->c_nh);
	m->c_nh = NULL;
	free(m->c_nhkv);
	m->c_nhkv = NULL;
	if (mc_recurrent_make(m, d))	/* mem_compute_recurrent.c */
		return;
	if (mc_gemma_make(m, d))	/* mem_compute_gemma.c */
		return;
	if (mc_deltanet_make(m, d))	/* mem_compute_deltanet.c */
		return;
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
	if (mc_tshape(d, -1, "token_embd.weight", ne) != 0) {
		snprintf(what, sizeof what, "%s without token_embd.weight",
		    m->arch);
		cnot(m, what);
		return;
	}
	m->c_embd = ne[0];
	if (mc_tshape(d, -1, "output.weight", ne) != 0)
		mc_tshape(d, -1, "token_embd.weight", ne);
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

		if (m->c_kind == G_DEEPSEEK2) {	/* latent attention */
			if (mc_tshape(d, il, "attn_norm.weight", ne) != 0 ||
			    mc_tshape(d, il, "attn_output.weight", ne) != 0 ||
			    mc_tshape(d, il, "ffn_norm.weight", ne) != 0) {
				snprintf(what, sizeof what, "%s without "
				    "blk.%u.attn_norm, attn_output or ffn_norm",
				    m->arch, il);
				cnot(m, what);
				return;
			}
			if (mla_block(m, d, il) != 0 ||
			    block_ffn(m, d, il) != 0)
				return;
			continue;
		}
		if ((l->kind != GGUF_MEM_FULL && (l->kind != GGUF_MEM_SWA ||
		    !swa_graph(m->c_kind))) || l->head_k == 0 ||
		    l->head_v == 0 || l->r + l->s != 0 ||
		    l->head_k != m->layers[0].head_k ||
		    l->head_v != m->layers[0].head_v ||
		    (m->c_kind != G_OPENELM && (l->k != m->layers[0].k ||
		    l->v != m->layers[0].v))) {
			snprintf(what, sizeof what, "%s blocks unlike one "
			    "another", m->arch);
			cnot(m, what);
			return;
		}
		for (j = 0; j < sizeof llama_block / sizeof llama_block[0];
		    j++)
			if (in_block(m->c_kind, j) &&
			    mc_tshape(d, il, llama_block[j], ne) != 0) {
				snprintf(what, sizeof what, "%s without "
				    "blk.%u.%s", m->arch, il, llama_block[j]);
				cnot(m, what);
				return;
			}
		for (j = 0; j < sizeof extra_block / sizeof extra_block[0];
		    j++)
			if ((req & extra_block[j].bit) &&
			    mc_tshape(d, il, extra_block[j].name, ne) != 0) {
				snprintf(what, sizeof what, "%s without "
				    "blk.%u.%s", m->arch, il,
				    extra_block[j].name);
				cnot(m, what);
				return;
			}
		if (m->c_kind == G_OPENELM) {	/* heads of its own */
			if (il == 0) {
				m->c_nh = xcalloc(m->n_layer, sizeof *m->c_nh);
				m->c_nhkv = xcalloc(m->n_layer,
				    sizeof *m->c_nhkv);
			}
			m->c_nhkv[il] = l->k / l->head_k;
			if (mc_tshape(d, il, "attn_qkv.weight", ne) != 0 ||
			    ne[0] != m->c_embd || l->head_k != l->head_v ||
			    ne[1] % l->head_k != 0 || l->k % l->head_k != 0 ||
			    l->v != l->k ||
			    ne[1] / l->head_k <= 2 * m->c_nhkv[il]) {
				snprintf(what, sizeof what, "%s blocks unlike "
				    "one another", m->arch);
				cnot(m, what);
				return;
			}
			m->c_nh[il] = ne[1] / l->head_k - 2 * m->c_nhkv[il];
			mc_tshape(d, il, "ffn_gate.weight", ne);
			m->c_ff[il] = ne[1];
			continue;
		}
		if (m->c_kind == G_BAILING2) {	/* Q, K and V in one */
			if (mc_tshape(d, il, "attn_qkv.weight", ne) != 0 ||
			    ne[0] != m->c_embd || l->head_k != l->head_v ||
			    l->k != l->v || ne[1] < 2 * l->k ||
			    (ne[1] - 2 * l->k) % l->head_k != 0 ||
			    ne[1] == 2 * l->k || (il > 0 && (ne[1] - 2 *
			    l->k) / l->head_k != m->c_head)) {
				snprintf(what, sizeof what, "%s blocks unlike "
				    "one another", m->arch);
				cnot(m, what);
				return;
			}
			m->c_head = (ne[1] - 2 * l->k) / l->head_k;
			if (block_ffn(m, d, il) != 0)
				return;
			continue;
		}
		if (mc_tshape(d, il, "attn_q.weight", ne) != 0 ||
		    ne[1] % l->head_k != 0 || ne[0] != m->c_embd ||
		    (il > 0 && ne[1] / l->head_k != m->c_head)) {
			snprintf(what, sizeof what, "%s blocks unlike one "
			    "another", m->arch);
			cnot(m, what);
			return;
		}
		m->c_head = ne[1] / l->head_k;
		if (m->c_kind == G_LLAMA4) {
			if (block_ffn(m, d, il) != 0)
				return;
			continue;
		}
		if (m->c_kind == G_GROVE && (mc_tshape(d, il,
		    "ffn_gate_chexps.weight", ne) != 0 || (il > 0 &&
		    (ne[1] != m->c_ffsh || ne[2] != m->c_nchunk)))) {
			snprintf(what, sizeof what, "%s blocks unlike one "
			    "another", m->arch);
			cnot(m, what);
			return;
		}
		if (m->c_kind == G_GROVE) {	/* the chunk experts */
			m->c_ffsh = ne[1];
			m->c_nchunk = ne[2];
		}
		mc_tshape(d, il, m->c_kind == G_GPTOSS ||
		    m->c_kind == G_MINIMAX || m->c_kind == G_GROVE ?
		    "ffn_gate_exps.weight" :
		    m->c_kind == G_APERTUS ? "ffn_up.weight" :
		    "ffn_gate.weight", ne);
		m->c_ff[il] = ne[1];
		if ((m->c_kind == G_GPTOSS || m->c_kind == G_MINIMAX ||
		    m->c_kind == G_GROVE) &&
		    (mc_tshape(d, il, "ffn_gate_inp.weight", ne) != 0 ||
		    (il > 0 && ne[1] != m->c_nexp))) {
			snprintf(what, sizeof what, "%s blocks unlike one "
			    "another", m->arch);
			cnot(m, what);
			return;
		}
		m->c_nexp = ne[1];
	}
	if (m->c_kind != G_DEEPSEEK2) {
		m->c_head_k = m->layers[0].head_k;
		m->c_head_v = m->layers[0].head_v;
		m->c_head_kv = m->layers[0].k / m->c_head_k;
	}
	if (m->c_kind != G_OPENELM && m->c_kind != G_DEEPSEEK2 &&
	    m->c_head_kv * m->c_head_v != m->layers[0].v) {
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
	if (m->c_kind == G_LLAMA4) {
		/* norms of Q and K after RoPE but with 128 experts */
		snprintf(what, sizeof what, "%s.expert_count", m->arch);
		if ((v = gguf_doc_get(d, what, strlen(what))) == NULL ||
		    gguf_val_u64(v, &i) != 0 || i != 128)
			for (il = 0; il < m->n_layer; il++)
				m->c_flags[il] |= C_QKNORM;
	}
	if (m->c_kind == G_DEEPSEEK2 || m->c_kind == G_BAILING2) {
		/* groups of experts (more than one): fewer used than there
		   are (llama.cpp's loader gives up on more), of two or more
		   experts each */
		snprintf(what, sizeof what, "%s.expert_group_count", m->arch);
		if ((v = gguf_doc_get(d, what, strlen(what))) != NULL &&
		    gguf_val_u64(v, &i) != 0)
			i = 0;
		if (v != NULL && i > 1) {
			m->c_mla[4] = i;
			snprintf(what, sizeof what,
			    "%s.expert_group_used_count", m->arch);
			if ((v = gguf_doc_get(d, what, strlen(what))) == NULL ||
			    gguf_val_u64(v, &i) != 0 || i == 0 ||
			    i >= m->c_mla[4]) {
				snprintf(what, sizeof what, "%s without an "
				    "expert_group_used_count of 1 to fewer than "
				    "its groups", m->arch);
				cnot(m, what);
				return;
			}
			m->c_mla[5] = i;
			if (m->c_nexp == 0)	/* no experts to group */
				m->c_mla[4] = m->c_mla[5] = 0;
			else if (m->c_nexp % m->c_mla[4] != 0 ||
			    m->c_nexp / m->c_mla[4] < 2) {
				snprintf(what, sizeof what, "%s with an "
				    "expert_group_count not dividing its experts "
				    "in groups of two or more", m->arch);
				cnot(m, what);
				return;
			}
		}
	}
	if (m->c_kind == G_DEEPSEEK2) {
		/* a temperature scale (not 0): Q scaled by an input */
		snprintf(what, sizeof what, "%s.attention.temperature_scale",
		    m->arch);
		if ((v = gguf_doc_get(d, what, strlen(what))) != NULL &&
		    gguf_val_f64(v, &f) != 0) {
			snprintf(what, sizeof what, "%s with an "
			    "attention.temperature_scale not a number",
			    m->arch);
			cnot(m, what);
			return;
		}
		m->c_mla[3] = v != NULL && !(f >= 0 && f <= 0);
	}
	if (m->c_kind == G_BAILING2 || m->c_kind == G_DEEPSEEK2) {
		/* the experts' weights (deepseek2: soft-max unless told) */
		snprintf(what, sizeof what, "%s.expert_gating_func", m->arch);
		if ((v = gguf_doc_get(d, what, strlen(what))) == NULL &&
		    m->c_kind == G_DEEPSEEK2)
			i = 1;
		else if (v == NULL || gguf_val_u64(v, &i) != 0)
			i = 0;
		if (i == 0 && m->c_kind == G_DEEPSEEK2)
			i = 1;
		if (i != 1 && i != 2) {
			snprintf(what, sizeof what, "%s without a soft-max (1) "
			    "or sigmoid (2) expert_gating_func", m->arch);
			cnot(m, what);
			return;
		}
		snprintf(what, sizeof what, "%s.expert_weights_norm", m->arch);
		m->c_normw = (v = gguf_doc_get(d, what, strlen(what))) != NULL &&
		    gguf_val_u64(v, &i) == 0 && i != 0;
		snprintf(what, sizeof what, "%s.expert_weights_scale", m->arch);
		m->c_scalew = (v = gguf_doc_get(d, what, strlen(what))) != NULL &&
		    gguf_val_f64(v, &f) == 0 && (f < 0 || f > 0) &&
		    (f < 1 - 1e-5 || f > 1 + 1e-5);
	}
	if (m->c_kind == G_GPTOSS || m->c_kind == G_MINIMAX ||
	    m->c_kind == G_GROVE || ((m->c_kind == G_LLAMA4 || m->c_kind == G_BAILING2 ||
	    m->c_kind == G_DEEPSEEK2) && m->c_nexp != 0)) {
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
	if (m->c_kind == G_GROVE && m->c_nused > m->c_nchunk) {
		/* llama.cpp sums n_used chunk experts of the fewer it
		   ranks: it gives up (an assertion) */
		snprintf(what, sizeof what, "%s with more experts used a "
		    "token (%llu) than chunk experts (%llu)", m->arch,
		    (unsigned long long)m->c_nused,
		    (unsigned long long)m->c_nchunk);
		cnot(m, what);
		return;
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
	if (m->c_kind >= MC_DELTANET)	/* mem_compute_deltanet.c */
		return mc_deltanet_compute(m, o, n, bytes, why, len);
	if (m->c_kind >= MC_GEMMA)	/* mem_compute_gemma.c */
		return mc_gemma_compute(m, o, n, bytes, why, len);
	if (m->c_kind >= MC_RECURRENT)	/* mem_compute_recurrent.c */
		return mc_recurrent_compute(m, o, n, bytes, why, len);
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
	s.nh = m->c_nh;
	s.nhkv = m->c_nhkv;
	s.ffsh = m->c_ffsh;
	s.normw = m->c_normw;
	s.scalew = m->c_scalew;
	s.rank = m->c_mla[0];
	s.rope = m->c_mla[1];
	s.qrank = m->c_mla[2];
	s.temp = m->c_mla[3];
	s.ngroup = m->c_mla[4];
	s.ngused = m->c_mla[5];
	s.kt = o->type_k == GGUF_T_F32 ? T_F32 : T_F16;
	s.nchunk = m->c_nchunk;
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
