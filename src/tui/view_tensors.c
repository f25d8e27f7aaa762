/*
 * view_tensors.c - every tensor: name, type, shape, elements, bytes,
 * offset, as a tree of blocks.
 *
 * A tensor whose name has a numeric segment before its last one belongs
 * to the group named by everything up to that segment: blk.10.attn_q.weight
 * to blk.10, v.blk.3.ffn_up.weight to v.blk.3. Other tensors (token_embd,
 * output) stand at the top. Groups and tensors are sorted together, by
 * name in natural order (blk.2 before blk.10), by size, by type or by
 * offset; a group sorts by its total size, its smallest type and offset.
 *
 * Which columns are shown depends on the width: name, type, shape and
 * bytes always; elements from 100 columns; the offset from 120. A split
 * model (set.h) adds the shard that holds each tensor, a sort by shard
 * (then offset: the order of the files), and a filter or search matches
 * the shard too: "shard 2" or its file name.
 *
 * Names are the document's: a renamed tensor shows its new name with a
 * '>' in the gap before its type, a removed one stays, dimmed and marked
 * '-', until the save. r renames, R renames by regex, d removes (edit.c).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui.h"
#include "view_tensors.h"

#define TYPE_W		8
#define SHAPE_W		20
#define ELEM_W		14
#define BYTES_W		10
#define OFF_W		14
#define SHARD_W		7
#define NARROW_W	60	/* below this, no bytes and a narrow shape */
#define SHAPE_NARROW_W	12
#define NAME_MIN_W	28	/* less, and the shape is left out */

enum { SORT_NAME, SORT_SIZE, SORT_TYPE, SORT_OFFSET, SORT_SHARD,
    SORT_COUNT };

static const char *const sort_names[SORT_COUNT] = {
	"name", "size", "type", "offset", "shard"
};

/* What a group adds up, beside its name and count (struct list_group). */
struct tgroup {
	uint64_t	 bytes;
	uint64_t	 elems;
	uint64_t	 min_off;
	uint32_t	 min_type;
	uint32_t	 min_shard;
	uint32_t	 max_shard;
};

struct tensors {
	struct app		*app;
	struct list		 list;
	struct list_groups	 groups;
	struct tgroup		*sums;		/* of each group */
	int			 sort;
	int			 rev;
	int			 set;		/* a split model: shards shown */
	struct dline		 scratch;	/* match's texts */
};

/*
 * Natural order: runs of digits compare as numbers, everything else byte
 * by byte.
 */
static int
natcmp(const char *a, size_t an, const char *b, size_t bn)
{
	size_t	i = 0, j = 0, ia, jb, la, lb;

	while (i < an && j < bn) {
		if (a[i] >= '0' && a[i] <= '9' && b[j] >= '0' && b[j] <= '9') {
			while (i < an && a[i] == '0')
				i++;
			while (j < bn && b[j] == '0')
				j++;
			for (ia = i; ia < an && a[ia] >= '0' && a[ia] <= '9';)
				ia++;
			for (jb = j; jb < bn && b[jb] >= '0' && b[jb] <= '9';)
				jb++;
			la = ia - i;
			lb = jb - j;
			if (la != lb)
				return la < lb ? -1 : 1;
			if (la > 0 && memcmp(a + i, b + j, la) != 0)
				return memcmp(a + i, b + j, la);
			i = ia;
			j = jb;
			continue;
		}
		if (a[i] != b[j])
			return (unsigned char)a[i] < (unsigned char)b[j] ? -1 : 1;
		i++;
		j++;
	}
	return (i < an) - (j < bn);
}

/* Length of the group prefix of name, 0 if it has none. */
static size_t
group_len(const char *p, size_t n)
{
	size_t	i = 0, s, k;
	int	digits;

	while (i < n) {
		s = i;
		digits = 1;
		for (k = s; k < n && p[k] != '.'; k++) {
			if (p[k] < '0' || p[k] > '9')
				digits = 0;
		}
		if (k == n)
			return 0;		/* the last segment */
		if (digits && k > s)
			return k;
		i = k + 1;
	}
	return 0;
}

static int
block(void *ctx, uint64_t i, struct gguf_str *name)
{
	struct tensors	*ts = ctx;
	unsigned	 fl;

	*name = mdl_tensor_name(ts->app, i, &fl);
	name->n = group_len(name->p, (size_t)name->n);
	return name->n > 0;
}

static struct list_node *
build(struct tensors *ts, uint64_t *n_nodes)
{
	const struct gguf_tensor	*t;
	struct list_node		*nodes;
	struct tgroup			*g;
	uint64_t			 n = mdl_n_tensors(ts->app), i, nbytes;
	uint32_t			 type;
	size_t				 k;

	nodes = list_group_tree(n, block, ts, &ts->groups, n_nodes);
	free(ts->sums);
	ts->sums = xcalloc(ts->groups.n + 1, sizeof *ts->sums);
	for (k = 0; k < ts->groups.n; k++) {
		ts->sums[k].min_off = UINT64_MAX;
		ts->sums[k].min_type = UINT32_MAX;
		ts->sums[k].min_shard = UINT32_MAX;
	}
	for (i = 0; i < n; i++) {
		if (ts->groups.of[i] == LIST_ROOT)
			continue;
		/* The type and size it is saved with (convert). */
		t = mdl_tensor(ts->app, i);
		type = mdl_tensor_type(ts->app, i, &nbytes);
		g = &ts->sums[ts->groups.of[i]];
		g->bytes += nbytes;
		g->elems += t->nelem;
		if (t->offset < g->min_off)
			g->min_off = t->offset;
		if (type < g->min_type)
			g->min_type = type;
		if (t->shard < g->min_shard)
			g->min_shard = t->shard;
		if (t->shard > g->max_shard)
			g->max_shard = t->shard;
	}
	return nodes;
}

/* The sort keys of an item, group or tensor. */
static void
keys_of(struct tensors *ts, uint64_t id, const char **p, size_t *n,
    uint64_t *bytes, uint64_t *type, uint64_t *off, uint64_t *shard)
{
	const struct gguf_tensor	*t;
	struct tgroup			*g;
	struct gguf_str			 nm;
	unsigned			 fl;

	if (id & LIST_GROUP) {
		g = &ts->sums[id & ~LIST_GROUP];
		*p = ts->groups.g[id & ~LIST_GROUP].name.p;
		*n = (size_t)ts->groups.g[id & ~LIST_GROUP].name.n;
		*bytes = g->bytes;
		*type = g->min_type;
		*off = g->min_off;
		*shard = g->min_shard;
		return;
	}
	t = mdl_tensor(ts->app, id);
	nm = mdl_tensor_name(ts->app, id, &fl);
	*p = nm.p;
	*n = (size_t)nm.n;
	*type = mdl_tensor_type(ts->app, id, bytes);
	*off = t->offset;
	*shard = t->shard;
}

static int
cmp(void *ctx, uint64_t a, uint64_t b)
{
	struct tensors	*ts = ctx;
	const char	*pa, *pb;
	size_t		 na, nb;
	uint64_t	 ba, bb, ta, tb, oa, ob, sa, sb;
	int		 c = 0;

	keys_of(ts, a, &pa, &na, &ba, &ta, &oa, &sa);
	keys_of(ts, b, &pb, &nb, &bb, &tb, &ob, &sb);
	switch (ts->sort) {
	case SORT_SIZE:
		/* Largest first: that is what one sorts by size for. */
		c = ba > bb ? -1 : ba < bb;
		break;
	case SORT_TYPE:
		c = ta < tb ? -1 : ta > tb;
		break;
	case SORT_OFFSET:
		c = oa < ob ? -1 : oa > ob;
		break;
	case SORT_SHARD:
		c = sa < sb ? -1 : sa > sb;
		if (c == 0)
			c = oa < ob ? -1 : oa > ob;
		break;
	}
	if (c == 0)
		c = natcmp(pa, na, pb, nb);
	return ts->rev ? -c : c;
}

/*
 * The columns at width w: a narrow terminal leaves out the bytes and
 * gives the shape less room, or none, so that the names keep theirs.
 */
struct cols {
	int	name_w;
	int	shape_w;
	int	elem;		/* shown or not */
	int	bytes;
	int	off;
	int	shard;
};

static void
columns(int w, int set, struct cols *c)
{
	c->elem = w >= 100;
	c->off = w >= 120;
	c->bytes = w >= NARROW_W;
	c->shard = set;
	c->shape_w = w >= NARROW_W ? SHAPE_W : SHAPE_NARROW_W;
	c->name_w = w - TYPE_W - c->shape_w - 1 - (c->bytes ? BYTES_W : 0) -
	    (c->elem ? ELEM_W : 0) - (c->off ? OFF_W : 0) -
	    (c->shard ? SHARD_W : 0);
	if (c->name_w < NAME_MIN_W) {
		/* The shape is in the preview; the name is only here. */
		c->name_w += c->shape_w;
		c->shape_w = 0;
	}
	if (c->name_w < 16)
		c->name_w = 16;
}

static void
header(void *ctx, struct dline *dl, int w)
{
	struct tensors	*ts = ctx;
	struct cols	 c;

	columns(w, ts->set, &c);
	dl_puts(dl, S_HEADER, "    Name");
	dl_pad(dl, S_HEADER, c.name_w);
	dl_puts(dl, S_HEADER, " Type");
	dl_pad(dl, S_HEADER, c.name_w + TYPE_W);
	if (c.shape_w > 0)
		dl_puts(dl, S_HEADER, " Shape");
	dl_pad(dl, S_HEADER, c.name_w + TYPE_W + c.shape_w);
	if (c.elem)
		dl_rjust(dl, S_HEADER, "Elements", ELEM_W);
	if (c.bytes)
		dl_rjust(dl, S_HEADER, "Bytes", BYTES_W);
	if (c.off)
		dl_rjust(dl, S_HEADER, "Offset", OFF_W);
	if (c.shard)
		dl_rjust(dl, S_HEADER, "Shard", SHARD_W);
	dl_pad(dl, S_HEADER, w);
}

static void
shape(const struct gguf_tensor *t, char *buf, size_t len)
{
	size_t		o = 0;
	uint32_t	d, nd = t->n_dims > GGUF_MAX_DIMS ? GGUF_MAX_DIMS :
			    t->n_dims;

	buf[0] = '\0';
	if (nd == 0) {
		snprintf(buf, len, "()");
		return;
	}
	for (d = 0; d < nd && o < len; d++)
		o += (size_t)snprintf(buf + o, len - o, "%s%llu",
		    d == 0 ? "" : (tui_utf8 ? "\xc3\x97" : "x"),
		    (unsigned long long)t->ne[d]);
}

static void
row(void *ctx, struct dline *dl, uint64_t id, int w)
{
	struct tensors			*ts = ctx;
	const struct gguf_tensor	*t;
	struct list_group		*g;
	struct tgroup			*gs;
	char				 buf[96], tb[24], mk[2], cb[32];
	const char			*tn;
	struct gguf_str			 nm;
	unsigned			 fl;
	struct cols			 c;
	uint64_t			 nbytes;
	uint32_t			 type;
	int				 nw, dead;

	columns(w, ts->set, &c);
	nw = c.name_w;
	if (id & LIST_GROUP) {
		g = &ts->groups.g[id & ~LIST_GROUP];
		dl_text(dl, S_GROUP, g->name.p, (size_t)g->name.n, 0,
		    nw - dl->cols - 1, DT_MIDDLE);
		dl_printf(dl, S_DIM, "  %s tensor%s",
		    gguf_fmt_group(g->count, cb, sizeof cb),
		    g->count == 1 ? "" : "s");
		dl_pad(dl, S_NORMAL, nw + TYPE_W + c.shape_w);
		if (c.elem)
			dl_rjust(dl, S_DIM, gguf_fmt_group(
			    ts->sums[id & ~LIST_GROUP].elems, buf, sizeof buf),
			    ELEM_W);
		if (c.bytes)
			dl_rjust(dl, S_DIM, gguf_fmt_size(
			    ts->sums[id & ~LIST_GROUP].bytes, buf, sizeof buf),
			    BYTES_W);
		if (c.shard && c.off)
			dl_pad(dl, S_NORMAL, dl->cols + OFF_W);
		if (c.shard) {
			/* The shards it spans: "2", or "2-3". */
			gs = &ts->sums[id & ~LIST_GROUP];
			if (gs->max_shard > gs->min_shard)
				snprintf(buf, sizeof buf, "%u-%u",
				    gs->min_shard + 1, gs->max_shard + 1);
			else
				snprintf(buf, sizeof buf, "%u",
				    gs->min_shard + 1);
			dl_rjust(dl, S_DIM, buf, SHARD_W);
		}
		return;
	}
	t = mdl_tensor(ts->app, id);
	nm = mdl_tensor_name(ts->app, id, &fl);
	dead = (fl & GGUF_ED_REMOVED) != 0;
	dl_text(dl, dead ? S_DIM : S_KEY, nm.p, (size_t)nm.n, 0,
	    nw - dl->cols - 1, DT_MIDDLE);
	dl_pad(dl, S_NORMAL, nw);
	mk[0] = (char)mdl_mark(fl);
	mk[1] = '\0';
	dl_puts(dl, S_MARK, mk);
	type = mdl_tensor_type(ts->app, id, &nbytes);
	tn = gguf_ttype_name(type, tb);
	dl_text(dl, S_TYPE, tn, strlen(tn), 0, TYPE_W - 1, 0);
	dl_pad(dl, S_NORMAL, nw + TYPE_W + 1);
	shape(t, buf, sizeof buf);
	if (c.shape_w > 0)
		dl_text(dl, S_NUMBER, buf, strlen(buf), 0, c.shape_w - 2, 0);
	dl_pad(dl, S_NORMAL, nw + TYPE_W + c.shape_w);
	if (c.elem)
		dl_rjust(dl, S_NUMBER, gguf_fmt_group(t->nelem, buf, sizeof buf),
		    ELEM_W);
	if (c.bytes && (t->flags & GGUF_TENSOR_UNSIZED))
		dl_rjust(dl, S_WARN, "?", BYTES_W);
	else if (c.bytes)
		dl_rjust(dl, S_NUMBER, gguf_fmt_size(nbytes, buf, sizeof buf),
		    BYTES_W);
	if (c.off) {
		snprintf(buf, sizeof buf, "0x%llx",
		    (unsigned long long)t->offset);
		dl_rjust(dl, (t->flags & GGUF_TENSOR_UNREADABLE) ? S_WARN :
		    S_DIM, buf, OFF_W);
	}
	if (c.shard) {
		snprintf(buf, sizeof buf, "%u", t->shard + 1);
		dl_rjust(dl, S_NUMBER, buf, SHARD_W);
	}
}

/* Searches and filters look at the name only. */
static void
text(void *ctx, struct dline *dl, uint64_t id)
{
	struct tensors			*ts = ctx;
	struct list_group		*g;
	struct gguf_str			 nm;
	unsigned			 fl;

	if (id & LIST_GROUP) {
		g = &ts->groups.g[id & ~LIST_GROUP];
		dl_text(dl, S_GROUP, g->name.p, (size_t)g->name.n, 0, 1 << 30,
		    0);
		return;
	}
	nm = mdl_tensor_name(ts->app, id, &fl);
	dl_text(dl, S_KEY, nm.p, (size_t)nm.n, 0, 1 << 30, 0);
}

/* In a split model: the name, else "shard N", else the shard's file name. */
static int
match(void *ctx, struct re *re, uint64_t id)
{
	struct tensors	*ts = ctx;
	struct dline	*dl = &ts->scratch;
	const char	*path, *base;
	size_t		 so, eo;
	uint32_t	 k;
	char		 buf[32];

	dl_reset(dl);
	text(ts, dl, id);
	if (re_match(re, dl->s != NULL ? dl->s : "", dl->len, 0, &so, &eo))
		return 1;
	if (!ts->set || (id & LIST_GROUP))
		return 0;
	k = mdl_tensor(ts->app, id)->shard;
	snprintf(buf, sizeof buf, "shard %u", k + 1);
	if (re_match(re, buf, strlen(buf), 0, &so, &eo))
		return 1;
	if ((path = gguf_shard_path(app_file(ts->app), k)) == NULL)
		return 0;
	base = strrchr(path, '/') != NULL ? strrchr(path, '/') + 1 : path;
	dl_reset(dl);
	dl_text(dl, S_NORMAL, base, strlen(base), 0, 1 << 30, 0);
	return re_match(re, dl->s != NULL ? dl->s : "", dl->len, 0, &so, &eo);
}

static int
action(struct view *v, enum tui_action act, const struct tui_input *in)
{
	struct tensors	*ts = v->priv;
	uint64_t	 id;

	(void)in;
	switch (act) {
	case ACT_SORT:
		ts->sort = (ts->sort + 1) % SORT_COUNT;
		if (ts->sort == SORT_SHARD && !ts->set)
			ts->sort = SORT_NAME;
		list_rebuild(&ts->list);
		app_msg(ts->app, 0, "sorted by %s%s", sort_names[ts->sort],
		    ts->rev ? ", reversed" : "");
		return R_DRAW;
	case ACT_REVERSE:
		ts->rev = !ts->rev;
		list_rebuild(&ts->list);
		app_msg(ts->app, 0, "sorted by %s%s", sort_names[ts->sort],
		    ts->rev ? ", reversed" : "");
		return R_DRAW;
	case ACT_OPEN:
		if (list_cur(&ts->list, &id) != 0 || (id & LIST_GROUP))
			return R_PASS;
		app_push(ts->app, view_preview_new(ts->app, id));
		return R_DRAW;
	case ACT_RENAME_RE:
		return edit_tensor(ts->app, act, 0);
	case ACT_RENAME:
	case ACT_DELETE:
	case ACT_CONVERT:
		if (list_cur(&ts->list, &id) != 0) {
			app_msg(ts->app, 0, "no tensor here to %s",
			    act == ACT_RENAME ? "rename" : act == ACT_DELETE ?
			    "delete" : "convert");
			return R_NONE;
		}
		if (id & LIST_GROUP) {
			app_msg(ts->app, 0, "this row is a group: %s works on "
			    "one tensor%s", act == ACT_RENAME ? "r" :
			    act == ACT_DELETE ? "d" : "c",
			    act == ACT_RENAME ? " (R renames by a pattern)" :
			    "");
			return R_NONE;
		}
		return edit_tensor(ts->app, act, id);
	default:
		return R_PASS;
	}
}

static void
status(struct view *v, char *buf, size_t len)
{
	struct tensors	*ts = v->priv;
	char		 pos[64];

	snprintf(buf, len, "by %s%s  %s", sort_names[ts->sort],
	    ts->rev && ts->list.n_rows > 0 ? " (rev)" : "",
	    list_position(&ts->list, pos, sizeof pos));
}

static void
set_title(struct view *v, struct tensors *ts)
{
	unsigned	n = mdl_n_changes(ts->app);
	char		g1[32], g2[32];

	if (n > 0)
		snprintf(v->title, sizeof v->title, "%s tensors in %s "
		    "groups, %u change%s", gguf_fmt_group(
		    gguf_doc_live_tensors(app_doc(ts->app)), g1, sizeof g1),
		    gguf_fmt_group(ts->groups.n, g2, sizeof g2), n,
		    n == 1 ? "" : "s");
	else
		snprintf(v->title, sizeof v->title, "%s tensors in %s "
		    "groups", gguf_fmt_group(mdl_n_tensors(ts->app), g1,
		    sizeof g1), gguf_fmt_group(ts->groups.n, g2, sizeof g2));
}

static int
reload(struct view *v)
{
	struct tensors		*ts = v->priv;
	struct list_node	*nodes;
	uint64_t		 n;

	nodes = build(ts, &n);
	list_reset(&ts->list, nodes, n);
	set_title(v, ts);
	return 0;
}

static void
tensors_free(struct view *v)
{
	struct tensors	*ts = v->priv;

	list_free(&ts->list);
	list_groups_free(&ts->groups);
	free(ts->sums);
	dl_free(&ts->scratch);
	free(ts);
}

static const struct list_ops tensors_list_ops = {
	.row = row,
	.text = text,
	.header = header,
	.cmp = cmp,
	.match = match,
};

static const struct view_ops tensors_ops = {
	.name = "tensors",
	.action = action,
	.status = status,
	.reload = reload,
	.free = tensors_free,
};

struct view *
view_tensors_new(struct app *a)
{
	struct tensors		*ts = xcalloc(1, sizeof *ts);
	struct list_node	*nodes;
	struct view		*v;
	uint64_t		 n;

	ts->app = a;
	ts->set = gguf_n_shards(app_file(a)) > 0;
	dl_init(&ts->scratch);
	nodes = build(ts, &n);
	list_init_tree(&ts->list, &tensors_list_ops, ts, nodes, n);
	v = view_new(a, &tensors_ops, SC_LIST | SC_TREE | SC_TENSORS, ts);
	v->list = &ts->list;
	set_title(v, ts);
	return v;
}
