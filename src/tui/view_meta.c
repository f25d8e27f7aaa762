/*
 * view_meta.c - every KV pair: key, type, value, as a tree of namespaces.
 *
 * Keys are grouped by their first dotted segment (general., tokenizer.,
 * the architecture's prefix, anything else a file uses), groups in the
 * order they first appear, keys in file order inside them. Keys are shown
 * whole, so that what a search matches is what the key is called.
 *
 * A value is drawn in the space its column has: strings escaped and cut by
 * display width, arrays as [N x type] and the first elements that fit.
 * Enter opens a string in the pager and an array in the element list,
 * and edits a scalar; e, t, a, d, m edit (edit.c). A token id
 * (tokenizer.ggml.*_token_id) has the token's text beside it.
 *
 * The rows are the document's entries, so edits show at once: an edited
 * key has a mark in the gap before its type ('*' value, '+' added, '>'
 * renamed), a removed one stays, dimmed and marked '-', until the save.
 * Entry indexes do not move when the document changes (removed entries
 * stay, added ones come last), so they are the rows' ids, and a refresh
 * keeps the selection and the folds.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema.h"
#include "tui.h"
#include "view_meta.h"
#include "cmd/chat.h"

#define TYPE_W		10

struct meta {
	struct app		*app;
	struct list		 list;
	struct list_groups	 groups;
	int			 key_w;		/* widest key, capped */
};

/*
 * The group of a key: its namespace, up to the first dot, or the group of
 * keys without one. Measures the keys on the way.
 */
static int
namespace(void *ctx, uint64_t i, struct gguf_str *ns)
{
	struct meta		*m = ctx;
	struct gguf_doc_kv	 kv;
	const char		*dot;
	int			 w;

	if (mdl_kv(m->app, i, &kv) != 0)
		memset(&kv, 0, sizeof kv);
	w = text_width(kv.key.p, (size_t)kv.key.n, 0, 60);
	if (w > m->key_w)
		m->key_w = w;
	/* An empty view may have no pointer at all. */
	dot = kv.key.n > 0 ? memchr(kv.key.p, '.', (size_t)kv.key.n) : NULL;
	ns->p = dot != NULL ? kv.key.p : NULL;
	ns->n = dot != NULL ? (uint64_t)(dot - kv.key.p) : 0;
	return 1;
}

/* Groups in the order they first appear, keys in file order inside them. */
static struct list_node *
build(struct meta *m, uint64_t *n_nodes)
{
	m->key_w = 8;
	return list_group_tree(mdl_n_kv(m->app), namespace, m, &m->groups,
	    n_nodes);
}

static int
key_col(struct meta *m, int w)
{
	int	k = m->key_w + 4;
	int	most = w < 60 ? w * 55 / 100 : w * 45 / 100;

	/* A narrow terminal gives the keys more of its width. */
	if (k > most)
		k = most;
	return k;
}

static void
header(void *ctx, struct dline *dl, int w)
{
	struct meta	*m = ctx;
	int		 kw = key_col(m, w);

	dl_puts(dl, S_HEADER, "    Key");
	dl_pad(dl, S_HEADER, kw + 1);
	dl_puts(dl, S_HEADER, "Type");
	dl_pad(dl, S_HEADER, kw + 1 + TYPE_W);
	dl_puts(dl, S_HEADER, "Value");
	dl_pad(dl, S_HEADER, w);
}

static void
row(void *ctx, struct dline *dl, uint64_t id, int w)
{
	struct meta		*m = ctx;
	struct gguf_doc_kv	 kv;
	struct list_group	*g;
	char			 tb[32], mk[2], nb[32];
	uint64_t		 tid;
	int			 kw = key_col(m, w), dead;

	if (id & LIST_GROUP) {
		g = &m->groups.g[id & ~LIST_GROUP];
		if (g->name.p != NULL) {
			dl_text(dl, S_GROUP, g->name.p, (size_t)g->name.n, 0,
			    w - dl->cols - 12, DT_MIDDLE);
			dl_puts(dl, S_GROUP, ".");
		} else
			dl_puts(dl, S_GROUP, "(no namespace)");
		dl_printf(dl, S_DIM, "  %s key%s",
		    gguf_fmt_group(g->count, nb, sizeof nb),
		    g->count == 1 ? "" : "s");
		return;
	}
	if (mdl_kv(m->app, id, &kv) != 0)
		return;
	dead = (kv.flags & GGUF_ED_REMOVED) != 0;
	dl_text(dl, dead ? S_DIM : S_KEY, kv.key.p, (size_t)kv.key.n, 0,
	    kw - dl->cols, DT_MIDDLE);
	dl_pad(dl, S_NORMAL, kw);
	mk[0] = (char)mdl_mark(kv.flags);
	mk[1] = '\0';
	dl_puts(dl, S_MARK, mk);
	dl_puts(dl, dead ? S_DIM : S_TYPE, gguf_vtype_text(kv.val->type,
	    kv.val->atype, tb, sizeof tb));
	dl_pad(dl, S_NORMAL, kw + 1 + TYPE_W);
	if (dead)
		dl_puts(dl, S_DIM, "(removed)");
	else {
		mdl_value(dl, kv.val, w - dl->cols);
		/* A token id: the token's text beside it. */
		if (kv.val->type != GGUF_VT_ARR && gguf_val_u64(kv.val,
		    &tid) == 0 && tokens_is_id_key(kv.key.p,
		    (size_t)kv.key.n) && w - dl->cols > 3) {
			dl_puts(dl, S_NORMAL, "  ");
			tokens_id_text(m->app, dl, tid, w - dl->cols);
		}
	}
}

/* The schema's entry for a key, in the message line. */
static int
describe(struct meta *m, const struct gguf_doc_kv *kv)
{
	const struct gguf_key_spec	*spec;
	struct gguf_val			*av;
	struct gguf_str			 arch = { NULL, 0 };
	char				 key[72], tb[32];

	av = mdl_get(m->app, "general.architecture");
	if (av == NULL || gguf_val_str(av, &arch) != 0)
		arch.n = 0;
	name_escape(key, sizeof key, kv->key.p, (size_t)kv->key.n, 60);
	spec = gguf_schema_find(kv->key.p, (size_t)kv->key.n, arch.p,
	    (size_t)arch.n);
	if (spec == NULL) {
		app_msg(m->app, 0, "%s is not a well-known key", key);
		return R_DRAW;
	}
	if (kv->flags & GGUF_ED_REMOVED ||
	    gguf_schema_type_ok(spec, kv->val->type, kv->val->atype))
		app_msg(m->app, 0, "%s (%s): %s", key, spec->types,
		    spec->desc);
	else
		app_msg(m->app, 1, "%s should be %s, not %s: %s", key,
		    spec->types, gguf_vtype_text(kv->val->type,
		    kv->val->atype, tb, sizeof tb), spec->desc);
	return R_DRAW;
}

static int
action(struct view *v, enum tui_action act, const struct tui_input *in)
{
	struct meta		*m = v->priv;
	struct gguf_doc_kv	 kv;
	struct gguf_str		 s;
	uint64_t		 id;
	char			 title[128];

	(void)in;
	if (act == ACT_ADD && (list_cur(&m->list, &id) != 0 ||
	    (id & LIST_GROUP))) {
		/* Adding needs no key selected: start from the first. */
		return edit_kv(m->app, act, 0);
	}
	if (list_cur(&m->list, &id) == 0 && (id & LIST_GROUP) &&
	    (act == ACT_EDIT || act == ACT_EDIT_EXT || act == ACT_RETYPE ||
	    act == ACT_DELETE || act == ACT_RENAME || act == ACT_DESCRIBE)) {
		app_msg(m->app, 0, "this row is a group of keys: e E t d m i "
		    "work on one key (Enter unfolds it)");
		return R_NONE;
	}
	if (list_cur(&m->list, &id) != 0 || (id & LIST_GROUP) ||
	    mdl_kv(m->app, id, &kv) != 0)
		return R_PASS;
	if (act == ACT_DESCRIBE)
		return describe(m, &kv);
	if (act != ACT_OPEN)
		return edit_kv(m->app, act, id);
	name_escape(title, sizeof title, kv.key.p, (size_t)kv.key.n, 60);
	if (kv.flags & GGUF_ED_REMOVED)
		app_msg(m->app, 1, "%s is removed (u undoes that)", title);
	else if (kv.val->type == GGUF_VT_STR) {
		char	*key = xstrndup(kv.key.p, (size_t)kv.key.n);

		gguf_val_str(kv.val, &s);
		app_push(m->app, chat_is_template_key(key, strlen(key)) ?
		    view_pager_template(m->app, title, key, s.p, (size_t)s.n) :
		    view_pager_new(m->app, title, s.p, (size_t)s.n));
		free(key);
	} else if (kv.val->type == GGUF_VT_ARR)
		app_push(m->app, view_array_key(m->app, kv.key.p,
		    (size_t)kv.key.n));
	else
		return edit_kv(m->app, ACT_EDIT, id);
	return R_DRAW;
}

static void
set_title(struct view *v)
{
	struct app	*a = v->app;
	unsigned	 n = mdl_n_changes(a);
	char		 g[32];

	if (n > 0)
		snprintf(v->title, sizeof v->title, "%s key-value pairs, "
		    "%u change%s", gguf_fmt_group(gguf_doc_live_kv(app_doc(a)),
		    g, sizeof g), n, n == 1 ? "" : "s");
	else
		snprintf(v->title, sizeof v->title, "%s key-value pairs",
		    gguf_fmt_group(mdl_n_kv(a), g, sizeof g));
}

static int
reload(struct view *v)
{
	struct meta		*m = v->priv;
	struct list_node	*nodes;
	uint64_t		 n;

	nodes = build(m, &n);
	list_reset(&m->list, nodes, n);
	set_title(v);
	return 0;
}

static void
meta_free(struct view *v)
{
	struct meta	*m = v->priv;

	list_free(&m->list);
	list_groups_free(&m->groups);
	free(m);
}

static const struct list_ops meta_list_ops = {
	.row = row,
	.header = header,
};

static const struct view_ops meta_ops = {
	.name = "metadata",
	.action = action,
	.reload = reload,
	.free = meta_free,
};

struct view *
view_meta_new(struct app *a)
{
	struct meta		*m = xcalloc(1, sizeof *m);
	struct view		*v;
	struct list_node	*nodes;
	uint64_t		 n;

	m->app = a;
	nodes = build(m, &n);
	list_init_tree(&m->list, &meta_list_ops, m, nodes, n);
	v = view_new(a, &meta_ops, SC_LIST | SC_TREE | SC_META, m);
	v->list = &m->list;
	set_title(v);
	return v;
}
