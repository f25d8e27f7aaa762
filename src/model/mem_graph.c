/*
 * mem_graph.c - a model of ggml's compute graphs (tensors, views and the
 * nodes reading them, in the order ggml's expansion gives them) and of
 * ggml's graph allocator laying them out in one buffer: its high-water
 * mark is the compute buffer llama.cpp allocates (mem_compute.c tells
 * how the allocator places and frees a tensor).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "mem_graph.h"
#include "xmalloc.h"

static uint64_t
esize(int type)
{
	return type == T_F16 ? 2 : type == T_I64 ? 8 : 4;
}

uint64_t
mg_mul_lim(struct graph *g, uint64_t a, uint64_t b)
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
		n += mg_mul_lim(g, t->ne[i] - 1, t->nb[i]);
	}
	return n > LIMIT ? (g->overflow = 1, 0) : n;
}

int
mg_add_tensor(struct graph *g, enum kind kind, int type, const uint64_t ne[4])
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
			t->nb[i] = mg_mul_lim(g, t->nb[i - 1], t->ne[i - 1]);
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

int
mg_input(struct graph *g, int type, uint64_t ne0, uint64_t ne1, uint64_t ne3)
{
	uint64_t	ne[4] = { ne0, ne1, 1, ne3 };
	int		i = mg_add_tensor(g, K_INPUT, type, ne);

	push(&g->leafs, &g->n_leafs, &g->cap_l, i);
	return i;
}

/* A node of the graph, contiguous, from up to three sources. */
int
mg_op4(struct graph *g, enum kind kind, int type, uint64_t ne0, uint64_t ne1,
    uint64_t ne2, uint64_t ne3, int a, int b, int c)
{
	uint64_t	ne[4] = { ne0, ne1, ne2, ne3 };
	int		i = mg_add_tensor(g, kind, type, ne);

	g->t[i].src[0] = a;
	g->t[i].src[1] = b;
	g->t[i].src[2] = c;
	g->t[i].n_src = c >= 0 ? 3 : b >= 0 ? 2 : 1;
	push(&g->nodes, &g->n_nodes, &g->cap_n, i);
	return i;
}

int
mg_op(struct graph *g, enum kind kind, int type, uint64_t ne0, uint64_t ne1,
    uint64_t ne2, int a, int b, int c)
{
	return mg_op4(g, kind, type, ne0, ne1, ne2, 1, a, b, c);
}

/* A view of a (reshape when nb is NULL: contiguous). */
int
mg_view(struct graph *g, int a, uint64_t ne0, uint64_t ne1, uint64_t ne2,
    const uint64_t *nb)
{
	uint64_t	ne[4] = { ne0, ne1, ne2, 1 };
	int		i, type = g->t[a].type, j;
	struct ct	*t;

	i = mg_add_tensor(g, K_VIEW, type, ne);
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
int
mg_permute(struct graph *g, int a)
{
	uint64_t	nb[4];
	const struct ct	*s = &g->t[a];
	int		 i;

	nb[0] = s->nb[0];
	nb[1] = s->nb[2];
	nb[2] = s->nb[1];
	nb[3] = s->nb[3];
	i = mg_view(g, a, s->ne[0], s->ne[2], s->ne[1], nb);
	g->t[i].ne[3] = g->t[a].ne[3];
	return i;
}

/* A view of the cache (or a write into it): no room, no layout needed. */
int
mg_cache_view(struct graph *g, int a, int b, int c)
{
	int	i = mg_op(g, K_EXT, T_F16, 1, 1, 1, a, b, c);

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
uint64_t
mg_lay_out(struct graph *g)
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
	g->b = NULL;
	g->n_b = g->cap_b = 0;
	return g->max;
}

void
mg_free(struct graph *g)
{
	free(g->t);
	free(g->leafs);
	free(g->nodes);
	free(g->b);
}
