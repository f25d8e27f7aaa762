/*
 * view_changes.c - two lists of prepared lines about edits: the pending
 * changes (D, :changes), and the mapping of a regex rename before it is
 * applied (R, :rename s/.../.../).
 *
 * The changes are the document's diff (gguf_doc_diff), one line each, old
 * -> new, in document order: '~' a value, '+' an added key, '-' a removed
 * key or tensor, '>' a rename. Values are cut to what a line can hold;
 * an array shows its length and the first element that differs. When
 * llama.cpp would refuse the result (model.h: errors the file did not
 * have), the first line says so, and a change that a problem names (its
 * key or tensor, or a key its expected shape comes from) is followed by
 * the problem, marked '!'.
 *
 * The rename mapping is the document's plan (gguf_doc_rename_plan), the
 * one the document applies, so that what is shown is what will be done.
 * Unlike the document, which refuses with the first problem, it lists
 * every offending name: results that are empty, longer than 63 bytes,
 * shared by two tensors, or taken by a tensor that keeps its name; and it
 * marks the new names llama.cpp does not look for (model.h). Enter
 * applies the rename (through the document, which plans it again), q
 * leaves everything as it was. Both views follow the document when it
 * changes.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "tui.h"
#include "view_changes.h"

#define SHOW	60	/* columns of a value or name in a line */

struct cline {
	char	*text;		/* program text (escaped) */
	int	 slot;
};

struct lines {
	struct app	*app;
	struct list	 list;
	struct cline	*l;
	size_t		 n, cap;
	/* the rename */
	char		*pattern;
	char		*repl;
	int		 global;
	int		 icase;
	int		 bad;		/* offending names: not applicable */
	uint64_t	 renamed;
};

static void
add(struct lines *ls, int slot, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
add(struct lines *ls, int slot, const char *fmt, ...)
{
	va_list	ap;
	char	buf[1024];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (ls->n == ls->cap) {
		ls->cap = ls->cap ? ls->cap * 2 : 64;
		ls->l = xreallocarray(ls->l, ls->cap, sizeof *ls->l);
	}
	ls->l[ls->n].text = xstrdup(buf);
	ls->l[ls->n].slot = slot;
	ls->n++;
}

static void
lines_clear(struct lines *ls)
{
	size_t	i;

	for (i = 0; i < ls->n; i++)
		free(ls->l[i].text);
	ls->n = 0;
}

static void
row(void *ctx, struct dline *dl, uint64_t id, int w)
{
	struct lines	*ls = ctx;

	dl_puts(dl, S_NORMAL, " ");
	dl_text(dl, ls->l[id].slot, ls->l[id].text, strlen(ls->l[id].text), 0,
	    w - dl->cols, DT_KEEPBS);
}

/* ---------------------------------------------------------------- diff */

/* One value in a line: scalars as printed, strings quoted and cut. */
static void
show(struct gguf_val *v, char *buf, size_t len)
{
	struct gguf_str	s;
	char		t[SHOW * 4 + 8], tb[32];

	if (v == NULL) {
		snprintf(buf, len, "(none)");
		return;
	}
	if (v->type == GGUF_VT_STR) {
		gguf_val_str(v, &s);
		text_escape(t, sizeof t, s.p, (size_t)s.n, SHOW);
		snprintf(buf, len, "\"%s\"", t);
	} else if (v->type == GGUF_VT_ARR)
		snprintf(buf, len, "[%llu x %s]", (unsigned long long)v->count,
		    gguf_vtype_text(v->type, v->atype, tb, sizeof tb));
	else
		gguf_val_scalar_text(v, buf, len);
}

/* Old and new arrays: the first element that differs. */
static void
show_arr(struct gguf_val *o, struct gguf_val *n, char *buf, size_t len)
{
	struct gguf_val	x, y;
	struct gguf_str	s, t;
	uint64_t	i, lim = o->count < n->count ? o->count : n->count;
	char		a[96], b[96], tb[32];
	int		same;

	for (i = 0; i < lim; i++) {
		if (mdl_arr_get(o, i, &x) != 0 || mdl_arr_get(n, i, &y) != 0)
			break;
		if (x.type == GGUF_VT_STR) {
			gguf_val_str(&x, &s);
			gguf_val_str(&y, &t);
			same = s.n == t.n && memcmp(s.p, t.p, (size_t)s.n) == 0;
		} else
			same = x.type == GGUF_VT_ARR ||
			    gguf_val_bits(&x) == gguf_val_bits(&y);
		if (!same) {
			show(&x, a, sizeof a);
			show(&y, b, sizeof b);
			if (o->count == n->count)
				snprintf(buf, len, "%s n=%llu: [%llu] %s -> %s",
				    gguf_vtype_text(n->type, n->atype, tb, sizeof tb),
				    (unsigned long long)o->count,
				    (unsigned long long)i, a, b);
			else
				snprintf(buf, len, "%s n=%llu -> n=%llu: from "
				    "[%llu] on", gguf_vtype_text(n->type, n->atype, tb, sizeof tb),
				    (unsigned long long)o->count,
				    (unsigned long long)n->count,
				    (unsigned long long)i);
			return;
		}
	}
	snprintf(buf, len, "%s n=%llu -> n=%llu: from [%llu] on",
	    gguf_vtype_text(n->type, n->atype, tb, sizeof tb),
	    (unsigned long long)o->count, (unsigned long long)n->count,
	    (unsigned long long)lim);
}

/* The problems the edits brought, to tie each to the changes it names. */
struct broke {
	char		**msg;
	char		**names;	/* per problem, NUL-separated, "" ended */
	size_t		  n;
};

static void
broke_add(void *arg, const struct gguf_mfinding *f)
{
	struct broke	*b = arg;
	size_t		 len = 2, i, o = 0;
	char		*p;

	if (f->name != NULL)
		len += strlen(f->name) + 1;
	for (i = 0; i < f->ndeps; i++)
		len += strlen(f->deps[i]) + 1;
	p = xcalloc(1, len);
	if (f->name != NULL) {
		memcpy(p, f->name, strlen(f->name));
		o = strlen(f->name) + 1;
	}
	for (i = 0; i < f->ndeps; i++) {
		memcpy(p + o, f->deps[i], strlen(f->deps[i]));
		o += strlen(f->deps[i]) + 1;
	}
	b->msg = xreallocarray(b->msg, b->n + 1, sizeof *b->msg);
	b->names = xreallocarray(b->names, b->n + 1, sizeof *b->names);
	b->msg[b->n] = xstrdup(f->msg);
	b->names[b->n++] = p;
}

/* Whether problem k names s[0..n). */
static int
broke_names(const struct broke *b, size_t k, const char *s, size_t n)
{
	const char	*p;

	if (n == 0)
		return 0;
	for (p = b->names[k]; *p != '\0'; p += strlen(p) + 1)
		if (strlen(p) == n && memcmp(p, s, n) == 0)
			return 1;
	return 0;
}

/* The problems change c brings, each on a line of its own. */
static void
add_broken(struct lines *ls, const struct broke *b,
    const struct gguf_change *c, unsigned *used)
{
	char	t[400];
	size_t	k;

	for (k = 0; k < b->n; k++) {
		if (!broke_names(b, k, c->old_name.p, (size_t)c->old_name.n) &&
		    !broke_names(b, k, c->new_name.p, (size_t)c->new_name.n))
			continue;
		text_escape(t, sizeof t, b->msg[k], strlen(b->msg[k]), 200);
		add(ls, S_ERROR, "    ! %s", t);
		used[k] = 1;
	}
}

static void
build_changes(struct lines *ls)
{
	struct broke		 b;
	unsigned		*used;
	struct gguf_change	*ch, *c;
	size_t			 n, i;
	char			 on[SHOW * 4 + 8], nn[SHOW * 4 + 8];
	char			 ov[SHOW * 4 + 32], nv[SHOW * 4 + 32], tb[32];
	char			 tt[32];

	lines_clear(ls);
	memset(&b, 0, sizeof b);
	n = gguf_doc_diff(app_doc(ls->app), &ch);
	if (n == 0)
		add(ls, S_DIM, "no pending changes");
	else
		gguf_model_check_new(app_doc(ls->app), broke_add, &b);
	used = xcalloc(b.n + 1, sizeof *used);
	if (b.n > 0)
		add(ls, S_ERROR, "llama.cpp would refuse the result: %zu "
		    "problem%s, under the edits that cause them (!)", b.n,
		    b.n == 1 ? "" : "s");
	for (i = 0; i < n; i++) {
		c = &ch[i];
		if (i > 0 && b.n > 0)
			add_broken(ls, &b, &ch[i - 1], used);
		name_escape(on, sizeof on, c->old_name.p, (size_t)c->old_name.n,
		    SHOW);
		name_escape(nn, sizeof nn, c->new_name.p, (size_t)c->new_name.n,
		    SHOW);
		if (c->what == GGUF_CH_TENSOR) {
			if (c->flags & GGUF_ED_REMOVED) {
				add(ls, S_ERROR, "- tensor %s", on);
				continue;
			}
			if (c->flags & GGUF_ED_RENAMED)
				add(ls, S_KEY, "> tensor %s -> %s", on, nn);
			if (c->flags & GGUF_ED_VALUE)
				add(ls, S_NORMAL, "~ tensor %s: %s -> %s "
				    "(its data as float32 on save)", nn,
				    gguf_ttype_name(c->old_type, tb),
				    gguf_ttype_name(c->new_type, tt));
			continue;
		}
		if (c->flags & GGUF_ED_ADDED) {
			show(c->new_val, nv, sizeof nv);
			add(ls, S_OK, "+ %s (%s) = %s", nn,
			    gguf_vtype_text(c->new_val->type,
			    c->new_val->atype, tb, sizeof tb), nv);
			continue;
		}
		if (c->flags & GGUF_ED_REMOVED) {
			show(c->old_val, ov, sizeof ov);
			add(ls, S_ERROR, "- %s (was %s)", on, ov);
			continue;
		}
		if (c->flags & GGUF_ED_RENAMED)
			add(ls, S_KEY, "> %s -> %s", on, nn);
		if (c->flags & GGUF_ED_VALUE) {
			if (c->old_val->type == GGUF_VT_ARR &&
			    c->new_val->type == GGUF_VT_ARR &&
			    c->old_val->atype == c->new_val->atype) {
				show_arr(c->old_val, c->new_val, nv, sizeof nv);
				add(ls, S_NORMAL, "~ %s: %s", nn, nv);
				continue;
			}
			show(c->old_val, ov, sizeof ov);
			show(c->new_val, nv, sizeof nv);
			if (c->old_val->type != c->new_val->type ||
			    c->old_val->atype != c->new_val->atype) {
				char	t2[32];

				add(ls, S_NORMAL, "~ %s: %s %s -> %s %s", nn,
				    gguf_vtype_text(c->old_val->type,
				    c->old_val->atype, tb, sizeof tb), ov,
				    gguf_vtype_text(c->new_val->type,
				    c->new_val->atype, t2, sizeof t2), nv);
			} else
				add(ls, S_NORMAL, "~ %s: %s -> %s", nn, ov, nv);
		}
	}
	if (n > 0 && b.n > 0)
		add_broken(ls, &b, &ch[n - 1], used);
	/* Problems no single change names: together, at the end. */
	for (i = 0; i < b.n; i++) {
		char	t[400];

		if (!used[i]) {
			text_escape(t, sizeof t, b.msg[i], strlen(b.msg[i]),
			    200);
			add(ls, S_ERROR, "! %s", t);
		}
		free(b.msg[i]);
		free(b.names[i]);
	}
	free(b.msg);
	free(b.names);
	free(used);
	free(ch);
}

static int
changes_refresh(struct view *v)
{
	struct lines	*ls = v->priv;

	build_changes(ls);
	list_reset(&ls->list, NULL, ls->n);
	snprintf(v->title, sizeof v->title, "Pending changes: %u",
	    mdl_n_changes(ls->app));
	return 0;
}

static void
lines_free(struct view *v)
{
	struct lines	*ls = v->priv;

	lines_clear(ls);
	free(ls->l);
	list_free(&ls->list);
	free(ls->pattern);
	free(ls->repl);
	free(ls);
}

static const struct list_ops lines_list_ops = {
	.row = row,
};

static const struct view_ops changes_ops = {
	.name = "changes",
	.reload = changes_refresh,
	.free = lines_free,
};

struct view *
view_changes_new(struct app *a)
{
	struct lines	*ls = xcalloc(1, sizeof *ls);
	struct view	*v;

	ls->app = a;
	list_init_flat(&ls->list, &lines_list_ops, ls, 0);
	v = view_new(a, &changes_ops, SC_LIST, ls);
	v->list = &ls->list;
	changes_refresh(v);
	return v;
}

/* ------------------------------------------------------------- rename */

static void
build_rename(struct lines *ls)
{
	struct app		*a = ls->app;
	struct gguf_rename_plan	 p;
	struct gguf_rename	*r;
	struct gguf_mnames	*mn;
	struct gguf_err		 err;
	struct gguf_str		 nm;
	uint64_t		 k, lost = 0;
	unsigned		 fl;
	char			 on[SHOW * 4 + 8], nn[SHOW * 4 + 8], *pat;
	size_t			 plen;
	int			 rc;

	lines_clear(ls);
	ls->bad = 1;
	ls->renamed = 0;
	plen = strlen(ls->pattern) + 5;
	pat = xcalloc(1, plen);
	snprintf(pat, plen, "%s%s", ls->icase ? "(?i)" : "", ls->pattern);
	rc = gguf_doc_rename_plan(app_doc(a), pat, ls->repl, ls->global, &p,
	    &err);
	free(pat);
	if (rc != 0) {
		add(ls, S_ERROR, "%s", err.msg);
		return;
	}
	mn = p.n > 0 ? gguf_model_names(app_doc(a)) : NULL;
	for (k = 0; k < p.n; k++)
		lost += p.map[k].flaws == 0 &&
		    !gguf_mnames_has(mn, p.map[k].name, p.map[k].n);
	if (p.n == 0)
		add(ls, S_DIM, "no tensor name matches: nothing to rename");
	else if (p.bad > 0)
		add(ls, S_ERROR, "refused: %llu of %llu new names cannot be "
		    "used (marked !); q goes back", (unsigned long long)p.bad,
		    (unsigned long long)p.n);
	else
		add(ls, lost > 0 ? S_ERROR : S_OK, "%llu tensor%s renamed%s: "
		    "Enter applies, q cancels", (unsigned long long)p.n,
		    p.n == 1 ? "" : "s", lost == 0 ? "" : lost == p.n ?
		    ", llama.cpp will find none of the new names (?)" :
		    ", llama.cpp will not find some new names (?)");
	for (k = 0; k < p.n; k++) {
		r = &p.map[k];
		nm = mdl_tensor_name(a, r->idx, &fl);
		name_escape(on, sizeof on, nm.p, (size_t)nm.n, SHOW);
		name_escape(nn, sizeof nn, r->name, r->n, SHOW);
		if (r->flaws != 0)
			add(ls, S_ERROR, "! %s -> \"%s\": %s", on, nn,
			    gguf_rename_why(r));
		else if (!gguf_mnames_has(mn, r->name, r->n))
			add(ls, S_ERROR, "? %s -> %s: llama.cpp will not find "
			    "it", on, nn);
		else
			add(ls, S_NORMAL, "  %s -> %s", on, nn);
	}
	gguf_mnames_free(mn);
	ls->bad = p.bad > 0 || p.n == 0;
	ls->renamed = p.n;
	gguf_rename_plan_free(&p);
}

static int
rename_refresh(struct view *v)
{
	struct lines	*ls = v->priv;

	build_rename(ls);
	list_reset(&ls->list, NULL, ls->n);
	return 0;
}

static int
rename_action(struct view *v, enum tui_action act,
    const struct tui_input *in)
{
	struct lines	*ls = v->priv;
	struct gguf_err	 err;
	uint64_t	 n;
	char		*pat;
	size_t		 plen;
	int		 rc;

	(void)in;
	if (act != ACT_OPEN)
		return R_PASS;
	if (ls->bad) {
		app_msg(ls->app, 1, "nothing to apply (q goes back)");
		return R_DRAW;
	}
	plen = strlen(ls->pattern) + 5;
	pat = xcalloc(1, plen);
	snprintf(pat, plen, "%s%s", ls->icase ? "(?i)" : "", ls->pattern);
	rc = gguf_doc_tensor_rename_re(app_doc_edit(ls->app), pat, ls->repl,
	    ls->global, &n, &err);
	free(pat);
	if (rc != 0) {
		app_msg(ls->app, 1, "%s", err.msg);
		return R_DRAW;
	}
	app_msg(ls->app, 0, "renamed %llu tensor%s (u undoes it)",
	    (unsigned long long)n, n == 1 ? "" : "s");
	return R_POP | R_EDITED | R_DRAW;
}

static const struct view_ops rename_ops = {
	.name = "rename",
	.action = rename_action,
	.reload = rename_refresh,
	.free = lines_free,
};

struct view *
view_rename_new(struct app *a, const char *pattern, const char *repl,
    int global, int icase)
{
	struct lines	*ls = xcalloc(1, sizeof *ls);
	struct view	*v;
	char		 p[96], r[96];

	ls->app = a;
	ls->pattern = xstrdup(pattern);
	ls->repl = xstrdup(repl);
	ls->global = global;
	ls->icase = icase;
	list_init_flat(&ls->list, &lines_list_ops, ls, 0);
	v = view_new(a, &rename_ops, SC_LIST, ls);
	v->list = &ls->list;
	rename_refresh(v);
	typed_escape(p, sizeof p, pattern, strlen(pattern), 40);
	typed_escape(r, sizeof r, repl, strlen(repl), 30);
	snprintf(v->title, sizeof v->title, "rename s/%.60s/%.40s/%s%s", p, r,
	    global ? "g" : "", icase ? "i" : "");
	return v;
}
