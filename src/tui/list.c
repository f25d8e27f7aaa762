/*
 * list.c - the one list/tree widget every browsing view is built on.
 *
 * Items are identified by 64-bit ids that the view chooses. A flat list
 * of n items is just the number n: item r is on row r, and nothing is
 * allocated per item, which is what lets a 150,000-element array open at
 * once. A tree is an array of nodes (id, parent, depth, fold state); the
 * list sorts siblings with the view's comparator, lays the nodes out in
 * pre-order, and keeps a row index (row -> node) that is rebuilt when a
 * group is folded, the sort changes or a filter is set.
 *
 * Drawing costs the rows on the screen: the view's row callback is called
 * for each of them and for nothing else. Search and filter are the only
 * operations that look at every item, one at a time, and only when asked.
 * They match what the row shows (the escaped text), or the text callback
 * when the view has one.
 *
 * The selection survives rebuilds by id, as in tmux's mode-tree.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nameix.h"
#include "tui.h"

#define SEARCH_WIDTH	4096

/* ------------------------------------------------------------- helpers */

static uint64_t
row_node(const struct list *l, uint64_t r)
{
	return l->rows != NULL ? l->rows[r] : r;
}

static uint64_t
row_id(const struct list *l, uint64_t r)
{
	uint64_t	k = row_node(l, r);

	return l->nodes != NULL ? l->nodes[k].id : k;
}

int
list_cur(const struct list *l, uint64_t *id)
{
	if (l->n_rows == 0)
		return -1;
	*id = row_id(l, l->cur);
	return 0;
}

struct list_node *
list_cur_node(struct list *l)
{
	if (l->nodes == NULL || l->n_rows == 0)
		return NULL;
	return &l->nodes[row_node(l, l->cur)];
}

static void
clamp(struct list *l)
{
	if (l->n_rows == 0) {
		l->cur = l->top = 0;
		return;
	}
	if (l->cur >= l->n_rows)
		l->cur = l->n_rows - 1;
	if (l->top > l->cur)
		l->top = l->cur;
}

/* ------------------------------------------------------------- sorting */

static struct list	*sort_list;	/* qsort has no context argument */

static int
sort_cmp(const void *a, const void *b)
{
	const struct list_node	*na = &sort_list->nodes[*(const uint32_t *)a];
	const struct list_node	*nb = &sort_list->nodes[*(const uint32_t *)b];
	int			 c;

	c = sort_list->ops->cmp(sort_list->ctx, na->id, nb->id);
	if (c != 0)
		return c;
	/* Stable: fall back to the order the view built them in. */
	return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
}

/* Sorts siblings and lays the nodes out in pre-order. */
static void
tree_layout(struct list *l)
{
	struct list_node	*out;
	uint32_t		*first, *kids, *stack, *newix;
	uint64_t		 n = l->n_items, i, k;
	uint32_t		 p, sp = 0, o = 0;

	if (n == 0)
		return;
	/* Children of parent p are kids[first[p] .. first[p+1]); root is n. */
	first = xcalloc(n + 2, sizeof *first);
	kids = xcalloc(n, sizeof *kids);
	for (i = 0; i < n; i++) {
		p = l->nodes[i].parent == LIST_ROOT ? (uint32_t)n :
		    l->nodes[i].parent;
		first[p + 1]++;
	}
	for (i = 1; i < n + 2; i++)
		first[i] += first[i - 1];
	{
		uint32_t	*fill = xcalloc(n + 1, sizeof *fill);

		for (i = 0; i < n; i++) {
			p = l->nodes[i].parent == LIST_ROOT ? (uint32_t)n :
			    l->nodes[i].parent;
			kids[first[p] + fill[p]++] = (uint32_t)i;
		}
		free(fill);
	}
	if (l->ops->cmp != NULL) {
		sort_list = l;
		for (p = 0; p <= n; p++) {
			if (first[p + 1] - first[p] > 1)
				qsort(kids + first[p], first[p + 1] - first[p],
				    sizeof *kids, sort_cmp);
		}
		sort_list = NULL;
	}
	/* Depth-first walk: push children in reverse so the first comes out first. */
	stack = xcalloc(n, sizeof *stack);
	out = xcalloc(n, sizeof *out);
	newix = xcalloc(n, sizeof *newix);
	for (k = first[n + 1]; k > first[n]; k--)
		stack[sp++] = kids[k - 1];
	while (sp > 0) {
		uint32_t	c = stack[--sp];

		newix[c] = o;
		out[o++] = l->nodes[c];
		for (k = first[c + 1]; k > first[c]; k--)
			stack[sp++] = kids[k - 1];
	}
	for (i = 0; i < n; i++) {
		if (out[i].parent != LIST_ROOT)
			out[i].parent = newix[out[i].parent];
	}
	free(l->nodes);
	l->nodes = out;
	free(first);
	free(kids);
	free(stack);
	free(newix);
}

/* ---------------------------------------------------------- filtering */

static int
item_matches(struct list *l, struct re *re, uint64_t id)
{
	size_t	so, eo;

	if (l->ops->match != NULL)
		return l->ops->match(l->ctx, re, id);
	dl_reset(&l->dl);
	if (l->ops->text != NULL)
		l->ops->text(l->ctx, &l->dl, id);
	else
		l->ops->row(l->ctx, &l->dl, id, SEARCH_WIDTH);
	return re_match(re, l->dl.s != NULL ? l->dl.s : "", l->dl.len,
	    l->dl.hl_from, &so, &eo);
}

/* Rebuilds the rows of a tree: folds, and the filter if there is one. */
static void
tree_rows(struct list *l)
{
	unsigned char	*keep = NULL;
	uint64_t	 i, n = l->n_items;
	int		 skipping = 0;
	unsigned	 skip_depth = 0;

	if (l->filter != NULL) {
		keep = xcalloc(n, 1);
		for (i = 0; i < n; i++) {
			uint32_t	p = l->nodes[i].parent;

			if (p != LIST_ROOT && (keep[p] & 2))
				keep[i] = 3;	/* inside a matching group */
			else if (item_matches(l, l->filter, l->nodes[i].id))
				keep[i] = l->nodes[i].group ? 3 : 1;
		}
		for (i = n; i > 0; i--) {
			uint32_t	p = l->nodes[i - 1].parent;

			if ((keep[i - 1] & 1) && p != LIST_ROOT)
				keep[p] |= 1;
		}
	}
	free(l->rows);
	l->rows = xcalloc(n > 0 ? n : 1, sizeof *l->rows);
	l->n_rows = 0;
	for (i = 0; i < n; i++) {
		if (skipping && l->nodes[i].depth > skip_depth)
			continue;
		skipping = 0;
		if (keep != NULL && !(keep[i] & 1))
			continue;
		l->rows[l->n_rows++] = i;
		if (l->nodes[i].group && l->nodes[i].folded) {
			skipping = 1;
			skip_depth = l->nodes[i].depth;
		}
	}
	free(keep);
}

static void
flat_rows(struct list *l)
{
	uint64_t	i;

	free(l->rows);
	l->rows = NULL;
	if (l->filter == NULL) {
		l->n_rows = l->n_items;
		return;
	}
	l->rows = xcalloc(l->n_items > 0 ? l->n_items : 1, sizeof *l->rows);
	l->n_rows = 0;
	for (i = 0; i < l->n_items; i++) {
		if (item_matches(l, l->filter, i))
			l->rows[l->n_rows++] = i;
	}
}

/* Selects the row of id, or the nearest row after where it was. */
static void
select_id(struct list *l, uint64_t id, uint64_t old_row)
{
	uint64_t	r, lo, hi;

	if (l->nodes != NULL) {
		for (r = 0; r < l->n_rows; r++) {
			if (l->nodes[l->rows[r]].id == id) {
				l->cur = r;
				return;
			}
		}
		l->cur = old_row;
	} else if (l->rows != NULL) {
		lo = 0;
		hi = l->n_rows;
		while (lo < hi) {
			r = lo + (hi - lo) / 2;
			if (l->rows[r] < id)
				lo = r + 1;
			else
				hi = r;
		}
		l->cur = lo;
	} else
		l->cur = id;
	clamp(l);
}

/*
 * Rebuilds the rows (after laying the tree out again if relayout) and
 * selects id again if there was a selection (had), or the row nearest to
 * where it was.
 */
static void
rows_again(struct list *l, int relayout, int had, uint64_t id, uint64_t row)
{
	if (l->nodes != NULL && relayout)
		tree_layout(l);
	if (l->nodes != NULL)
		tree_rows(l);
	else
		flat_rows(l);
	if (had)
		select_id(l, id, row);
	clamp(l);
}

static void
rebuild_rows(struct list *l, int relayout)
{
	uint64_t	id = 0;
	int		had = list_cur(l, &id) == 0;

	rows_again(l, relayout, had, id, l->cur);
}

/* ---------------------------------------------------------- the API */

void
list_init_flat(struct list *l, const struct list_ops *ops, void *ctx,
    uint64_t n)
{
	memset(l, 0, sizeof *l);
	l->ops = ops;
	l->ctx = ctx;
	l->n_items = n;
	l->n_rows = n;
	dl_init(&l->dl);
}

void
list_init_tree(struct list *l, const struct list_ops *ops, void *ctx,
    struct list_node *nodes, uint64_t n)
{
	memset(l, 0, sizeof *l);
	l->ops = ops;
	l->ctx = ctx;
	l->nodes = nodes;
	l->n_items = n;
	dl_init(&l->dl);
	tree_layout(l);
	tree_rows(l);
}

void
list_free(struct list *l)
{
	free(l->nodes);
	free(l->rows);
	re_free(l->filter);
	dl_free(&l->dl);
}

void
list_rebuild(struct list *l)
{
	rebuild_rows(l, 1);
}

/* A group's fold state, found by its id. */
struct fold {
	uint64_t	 id;
	uint8_t		 folded;
};

static int
fold_cmp(const void *a, const void *b)
{
	const struct fold	*fa = a, *fb = b;

	return fa->id < fb->id ? -1 : fa->id > fb->id;
}

/*
 * The groups of nodes that were among old take the fold state they had
 * there. Through the old groups sorted by id: a tree of thousands of groups
 * is refreshed after every edit.
 */
static void
keep_folds(const struct list_node *old, uint64_t n_old,
    struct list_node *nodes, uint64_t n)
{
	struct fold	*f, key, *hit;
	uint64_t	 i, nf = 0;

	f = xcalloc(n_old > 0 ? n_old : 1, sizeof *f);
	for (i = 0; i < n_old; i++) {
		if (!old[i].group)
			continue;
		f[nf].id = old[i].id;
		f[nf].folded = old[i].folded;
		nf++;
	}
	qsort(f, nf, sizeof *f, fold_cmp);
	for (i = 0; i < n; i++) {
		if (!nodes[i].group)
			continue;
		key.id = nodes[i].id;
		if ((hit = bsearch(&key, f, nf, sizeof *f, fold_cmp)) != NULL)
			nodes[i].folded = hit->folded;
	}
	free(f);
}

void
list_reset(struct list *l, struct list_node *nodes, uint64_t n)
{
	struct list_node	*old = l->nodes;
	uint64_t		 n_old = l->n_items, id = 0, top = l->top;
	uint64_t		 row = l->cur;
	int			 had = list_cur(l, &id) == 0;

	if (nodes != NULL && old != NULL)
		keep_folds(old, n_old, nodes, n);
	free(old);
	free(l->rows);
	l->rows = NULL;
	l->nodes = nodes;
	l->n_items = n;
	l->n_rows = nodes != NULL ? 0 : n;
	rows_again(l, 1, had, id, row);
	l->top = top;
	clamp(l);
}

int
list_goto_id(struct list *l, uint64_t id)
{
	uint64_t	i, p;

	if (l->nodes == NULL) {
		if (id >= l->n_items)
			return -1;
		select_id(l, id, l->cur);
		return row_id(l, l->cur) == id ? 0 : -1;
	}
	for (i = 0; i < l->n_items; i++) {
		if (l->nodes[i].id == id)
			break;
	}
	if (i == l->n_items)
		return -1;
	for (p = l->nodes[i].parent; p != LIST_ROOT; p = l->nodes[p].parent)
		l->nodes[p].folded = 0;
	tree_rows(l);
	select_id(l, id, l->cur);
	return l->n_rows > 0 && row_id(l, l->cur) == id ? 0 : -1;
}

uint64_t
list_set_filter(struct list *l, struct re *re)
{
	re_free(l->filter);
	l->filter = re;
	rebuild_rows(l, 0);
	return l->n_rows;
}

/*
 * The rows the filter keeps and the rows there are, group headers left
 * out of both (a tree's headers are there to place the rows, and a row
 * in a folded group counts): what "N of M rows match" says.
 */
uint64_t
list_filter_count(struct list *l, uint64_t *of)
{
	unsigned char	*in;
	uint64_t	 i, kept = 0, all = 0;

	if (l->nodes == NULL) {
		*of = l->n_items;
		return l->n_rows;
	}
	/* 1: a match, or inside a group whose header matches */
	in = xcalloc(l->n_items > 0 ? l->n_items : 1, 1);
	for (i = 0; i < l->n_items; i++) {
		uint32_t	p = l->nodes[i].parent;

		if (l->filter == NULL || (p != LIST_ROOT && in[p]) ||
		    item_matches(l, l->filter, l->nodes[i].id))
			in[i] = 1;
		if (l->nodes[i].group)
			continue;
		all++;
		kept += in[i];
	}
	free(in);
	*of = all;
	return kept;
}

int
list_search(struct list *l, struct re *re, int dir, int skip_cur)
{
	uint64_t	n, k, start, i, p;

	/* A tree without a filter is searched through folded groups too. */
	if (l->nodes != NULL && l->filter == NULL) {
		n = l->n_items;
		if (n == 0)
			return 0;
		start = l->n_rows > 0 ? l->rows[l->cur] : 0;
		for (k = skip_cur ? 1 : 0; k <= n; k++) {
			i = dir > 0 ? (start + k) % n : (start + n - k % n) % n;
			if (!item_matches(l, re, l->nodes[i].id))
				continue;
			for (p = l->nodes[i].parent; p != LIST_ROOT;
			    p = l->nodes[p].parent)
				l->nodes[p].folded = 0;
			tree_rows(l);
			select_id(l, l->nodes[i].id, l->cur);
			return 1;
		}
		return 0;
	}
	n = l->n_rows;
	if (n == 0)
		return 0;
	for (k = skip_cur ? 1 : 0; k <= n; k++) {
		i = dir > 0 ? (l->cur + k) % n : (l->cur + n - k % n) % n;
		if (item_matches(l, re, row_id(l, i))) {
			l->cur = i;
			return 1;
		}
	}
	return 0;
}

const char *
list_position(const struct list *l, char *buf, size_t len)
{
	if (l->n_rows == 0)
		snprintf(buf, len, "0 rows");
	else
		snprintf(buf, len, "%llu/%llu %3d%%",
		    (unsigned long long)l->cur + 1,
		    (unsigned long long)l->n_rows,
		    (int)((l->cur + 1) * 100 / l->n_rows));
	return buf;
}

int
list_jump(struct list *l, struct app *a, uint64_t n, const char *what)
{
	if (list_goto_id(l, n) != 0)
		app_msg(a, 1, "no %s %llu%s", what, (unsigned long long)n,
		    l->filter != NULL ? " among the filtered rows" : "");
	return R_DRAW;
}

static void
tree_prefix(struct list *l, uint64_t r)
{
	const struct list_node	*nd = &l->nodes[row_node(l, r)];

	dl_pad(&l->dl, S_NORMAL, 2 * nd->depth);
	if (nd->group) {
		dl_puts(&l->dl, S_GROUP, g_fold(nd->folded));
		dl_puts(&l->dl, S_NORMAL, " ");
	} else
		dl_puts(&l->dl, S_NORMAL, "  ");
}

void
list_draw(struct list *l, struct app *a, int y, int h, int w)
{
	struct re	*re = app_search_re(a);
	uint64_t	 r;
	int		 i;

	if (l->ops->header != NULL && h > 1) {
		dl_reset(&l->dl);
		l->ops->header(l->ctx, &l->dl, w);
		draw_dline(y, &l->dl, w, S_HEADER, 0);
		y++;
		h--;
	}
	l->height = h;
	l->y0 = y;
	clamp(l);
	if (l->cur >= l->top + (uint64_t)h)
		l->top = l->cur - (uint64_t)h + 1;
	if (l->n_rows > 0 && l->top + (uint64_t)h > l->n_rows)
		l->top = l->n_rows > (uint64_t)h ? l->n_rows - (uint64_t)h : 0;
	if (l->top > l->cur)
		l->top = l->cur;
	for (i = 0; i < h; i++) {
		r = l->top + (uint64_t)i;
		dl_reset(&l->dl);
		if (r >= l->n_rows) {
			if (i == 0 && l->n_rows == 0)
				dl_puts(&l->dl, S_DIM, l->filter != NULL ?
				    "  (no row matches the filter)" :
				    "  (empty)");
			draw_dline(y + i, &l->dl, w, S_NORMAL, 0);
			continue;
		}
		if (l->nodes != NULL)
			tree_prefix(l, r);
		l->dl.hl_from = l->dl.len;
		l->ops->row(l->ctx, &l->dl, row_id(l, r), w);
		draw_highlight(&l->dl, re);
		draw_dline(y + i, &l->dl, w, S_NORMAL, r == l->cur);
	}
}

static void
set_fold(struct list *l, int fold)
{
	uint64_t	i;

	for (i = 0; i < l->n_items; i++) {
		if (l->nodes[i].group)
			l->nodes[i].folded = (uint8_t)fold;
	}
	rebuild_rows(l, 0);
}

static void
step(struct list *l, int64_t d)
{
	if (l->n_rows == 0)
		return;
	if (d < 0 && (uint64_t)-d > l->cur)
		l->cur = 0;
	else if (d > 0 && l->cur + (uint64_t)d >= l->n_rows)
		l->cur = l->n_rows - 1;
	else
		l->cur = (uint64_t)((int64_t)l->cur + d);
}

int
list_action(struct list *l, enum tui_action act, const struct tui_input *in)
{
	struct list_node	*nd = list_cur_node(l);
	int64_t			 page = l->height > 1 ? l->height - 1 : 1;
	int			 row;

	switch (act) {
	case ACT_UP:
		step(l, -1);
		return R_DRAW;
	case ACT_DOWN:
		step(l, 1);
		return R_DRAW;
	case ACT_PGUP:
		step(l, -page);
		if (l->top > (uint64_t)page)
			l->top -= (uint64_t)page;
		else
			l->top = 0;
		return R_DRAW;
	case ACT_PGDN:
		step(l, page);
		l->top += (uint64_t)page;
		if (l->top > l->cur)
			l->top = l->cur;
		return R_DRAW;
	case ACT_HALF_UP:
		step(l, -page / 2 - 1);
		return R_DRAW;
	case ACT_HALF_DN:
		step(l, page / 2 + 1);
		return R_DRAW;
	case ACT_TOP:
		l->cur = 0;
		return R_DRAW;
	case ACT_BOTTOM:
		l->cur = l->n_rows > 0 ? l->n_rows - 1 : 0;
		return R_DRAW;
	case ACT_WHEEL_UP:
		step(l, -3);
		l->top = l->top > 3 ? l->top - 3 : 0;
		return R_DRAW;
	case ACT_WHEEL_DN:
		step(l, 3);
		l->top += 3;
		if (l->top > l->cur)
			l->top = l->cur;
		return R_DRAW;
	case ACT_CLICK:
		row = in->y - l->y0;
		if (row < 0 || l->top + (uint64_t)row >= l->n_rows)
			return R_NONE;
		l->cur = l->top + (uint64_t)row;
		return R_DRAW;
	case ACT_LEFT:
		if (nd != NULL) {
			if (nd->group && !nd->folded) {
				nd->folded = 1;
				rebuild_rows(l, 0);
			} else if (nd->parent != LIST_ROOT)
				list_goto_id(l, l->nodes[nd->parent].id);
			return R_DRAW;
		}
		if (l->has_hscroll) {
			l->hscroll = l->hscroll > 8 ? l->hscroll - 8 : 0;
			return R_DRAW;
		}
		return R_PASS;
	case ACT_RIGHT:
		if (nd != NULL) {
			if (nd->group && nd->folded) {
				nd->folded = 0;
				rebuild_rows(l, 0);
			}
			return R_DRAW;
		}
		if (l->has_hscroll) {
			l->hscroll += 8;
			return R_DRAW;
		}
		return R_PASS;
	case ACT_OPEN:
	case ACT_TOGGLE:
		if (nd != NULL && nd->group) {
			nd->folded = !nd->folded;
			rebuild_rows(l, 0);
			return R_DRAW;
		}
		return R_PASS;
	case ACT_FOLD_ALL:
		if (l->nodes == NULL)
			return R_PASS;
		set_fold(l, 1);
		return R_DRAW;
	case ACT_UNFOLD_ALL:
		if (l->nodes == NULL)
			return R_PASS;
		set_fold(l, 0);
		return R_DRAW;
	default:
		return R_PASS;
	}
}

/* ------------------------------------------------------------- grouping */

static struct gguf_str
group_name(void *ctx, uint64_t g)
{
	return ((struct list_groups *)ctx)->g[g].name;
}

struct list_node *
list_group_tree(uint64_t n, list_group_fn group, void *ctx,
    struct list_groups *gs, uint64_t *n_nodes)
{
	struct gguf_nameix	 ix;
	struct list_node	*nodes;
	struct gguf_str		 name;
	int64_t			 g, unnamed = -1;
	uint64_t		 i;
	size_t			 k;

	list_groups_free(gs);
	/* There are at most as many groups as items. */
	gs->g = xcalloc(n + 1, sizeof *gs->g);
	gs->of = xcalloc(n + 1, sizeof *gs->of);
	gguf_nameix_init(&ix, group_name, gs, 0);
	for (i = 0; i < n; i++) {
		gs->of[i] = LIST_ROOT;
		if (!group(ctx, i, &name))
			continue;
		if (name.p == NULL) {
			if (unnamed < 0) {
				unnamed = (int64_t)gs->n;
				gs->g[gs->n++].name = name;
			}
			g = unnamed;
		} else {
			gs->g[gs->n].name = name;
			if ((g = gguf_nameix_add(&ix, gs->n)) < 0)
				g = (int64_t)gs->n++;
		}
		gs->of[i] = (uint32_t)g;
		gs->g[g].count++;
	}
	gguf_nameix_free(&ix);
	nodes = xcalloc(gs->n + n, sizeof *nodes);
	for (k = 0; k < gs->n; k++) {
		nodes[k].id = LIST_GROUP | k;
		nodes[k].parent = LIST_ROOT;
		nodes[k].group = 1;
	}
	for (i = 0; i < n; i++) {
		nodes[gs->n + i].id = i;
		nodes[gs->n + i].parent = gs->of[i];
		nodes[gs->n + i].depth = gs->of[i] != LIST_ROOT;
	}
	*n_nodes = gs->n + n;
	return nodes;
}

void
list_groups_free(struct list_groups *gs)
{
	free(gs->g);
	free(gs->of);
	memset(gs, 0, sizeof *gs);
}
