/*
 * eval.c - rendering: statements write into the output, expressions give
 * values, with jinja2's scoping (a for body is a fresh scope on every
 * iteration, a macro sees the scope it was defined in as it is when the
 * macro runs, "if" opens no scope) and the limits of struct jinja_limits.
 *
 * Every evaluation returns a new reference, or NULL after recording the
 * error in the render state; statements return X_OK, X_BREAK,
 * X_CONTINUE or X_ERR.
 */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jint.h"
#include "xmalloc.h"

enum { X_OK = 0, X_BREAK = 1, X_CONTINUE = 2, X_ERR = -1 };

static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

jv *
rs_fail(struct rstate *rs, const struct node *at, const char *fmt, ...)
{
	va_list	ap;

	if (rs->failed)
		return NULL;
	rs->failed = 1;
	if (at == NULL)
		at = rs->at;
	rs->err->line = at ? at->line : 0;
	rs->err->col = at ? at->col : 0;
	rs->err->raised = 0;
	/* what failed after the budget ran out failed for it */
	switch (jv_mem_over()) {
	case 1:
		if (rs->lim.max_memory % (1u << 20) == 0)
			snprintf(rs->err->msg, sizeof rs->err->msg,
			    "template values too large (the limit is %zu MiB)",
			    rs->lim.max_memory >> 20);
		else
			snprintf(rs->err->msg, sizeof rs->err->msg, "template "
			    "values too large (the limit is %zu bytes)",
			    rs->lim.max_memory);
		return NULL;
	case 2:
		snprintf(rs->err->msg, sizeof rs->err->msg,
		    "value nested too deeply (the limit is %u levels)",
		    JV_MAX_DEPTH);
		return NULL;
	}
	va_start(ap, fmt);
	vsnprintf(rs->err->msg, sizeof rs->err->msg, fmt, ap);
	va_end(ap);
	return NULL;
}

/*
 * The memory budget of the values is spent, or a value is nested too
 * deeply: the error (rs_fail words it), and NULL.
 */
jv *
mem_fail(struct rstate *rs, const struct node *at)
{
	return rs_fail(rs, at, "template values too large");
}

jv *
rs_raise(struct rstate *rs, const char *msg)
{
	if (rs->failed)
		return NULL;
	rs_fail(rs, rs->at, "%s", msg);
	rs->err->raised = 1;
	return NULL;
}

int
rs_step(struct rstate *rs, const struct node *at)
{
	if (rs->failed)
		return -1;
	if (jv_mem_over()) {
		mem_fail(rs, at);
		return -1;
	}
	if (++rs->steps > rs->lim.max_steps) {
		rs_fail(rs, at, "too many steps (the limit is %llu)",
		    rs->lim.max_steps);
		return -1;
	}
	if ((rs->steps & 1023) == 0 && rs->lim.max_ms &&
	    now_ms() - rs->t0 > rs->lim.max_ms) {
		rs_fail(rs, at, "rendering took too long (the limit is %u ms)",
		    rs->lim.max_ms);
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------- scopes */
static struct scope *
scope_new(struct rstate *rs, struct scope *parent)
{
	struct scope *s = xcalloc(1, sizeof *s);

	s->vars = jv_dict();
	s->parent = parent;
	s->next_alloc = rs->scopes;
	rs->scopes = s;
	return s;
}

/* A scope no longer needed: freed now unless a macro holds on to it. */
static void
scope_release(struct rstate *rs, struct scope *s)
{
	if (s->captured || rs->scopes != s)
		return;
	rs->scopes = s->next_alloc;
	jv_unref(s->vars);
	free(s);
}

static void scope_set(struct scope *s, const char *name, jv *v)
{
	jv_dict_set(s->vars, name, v);
}

static jv *builtin_global(struct rstate *rs, const char *name);

static jv *
lookup(struct rstate *rs, struct scope *s, const char *name)
{
	jv	*v;

	for (; s; s = s->parent)
		if ((v = jv_dict_get(s->vars, name)) != NULL)
			return jv_ref(v);
	if ((v = jv_dict_get(rs->globals, name)) != NULL)
		return jv_ref(v);
	if ((v = builtin_global(rs, name)) != NULL)
		return v;
	return jv_undefined_hint("'%s' is undefined", name);
}

/* ------------------------------------------------------------- output */
static int
emit(struct rstate *rs, const struct node *at, const char *s, size_t n)
{
	buf_add(&rs->out, s, n);
	if (rs->out.over) {
		rs_fail(rs, at, "output too large (the limit is %zu bytes)",
		    rs->lim.max_output);
		return -1;
	}
	return 0;
}

/* Starts capturing output; returns the outer buffer to give back. */
static struct buf
capture_begin(struct rstate *rs)
{
	struct buf saved = rs->out;

	memset(&rs->out, 0, sizeof rs->out);
	rs->out.limit = rs->lim.max_output;
	return saved;
}

static jv *
capture_end(struct rstate *rs, struct buf saved)
{
	size_t	n;
	char	*p;

	p = buf_take(&rs->out, &n);
	rs->out = saved;
	return jv_str_take(p, n);
}

jv *
to_str(struct rstate *rs, jv *v)
{
	struct buf b = { 0 };
	size_t	n;
	char	*p;

	if (v->kind == JV_STR)
		return jv_ref(v);
	b.limit = rs->lim.max_output;
	if (fmt_str(&b, v, 0) || b.over) {
		free(b.p);
		return rs_fail(rs, NULL, b.over ? "output too large" :
		    "value nested too deeply to print");
	}
	p = buf_take(&b, &n);
	return jv_str_take(p, n);
}

/* --------------------------------------------------------- expressions */
static jv *eval(struct rstate *rs, struct scope *s, const struct node *n);
static int exec_list(struct rstate *rs, struct scope *s, const struct nlist *l);

/* Evaluated call arguments. */
struct cargs {
	jv	**args, **kwv;
	char	**kwn;
	size_t	 nargs, nkw;
};

static void
cargs_free(struct cargs *c)
{
	size_t	i;

	for (i = 0; i < c->nargs; i++)
		jv_unref(c->args[i]);
	for (i = 0; i < c->nkw; i++)
		jv_unref(c->kwv[i]);
	free(c->args);
	free(c->kwv);
	free(c->kwn);
	memset(c, 0, sizeof *c);
}

static int
cargs_eval(struct rstate *rs, struct scope *s, const struct node *n,
    struct cargs *c, jv *first)
{
	size_t	i, extra = 0;
	jv	*star = NULL, *v;

	memset(c, 0, sizeof *c);
	if (n->star) {
		jv *sv = eval(rs, s, n->c);

		if (sv == NULL)
			return -1;
		star = iter_list(rs, n->c, sv);
		jv_unref(sv);
		if (star == NULL)
			return -1;
		extra = star->u.l.n;
	}
	c->args = xcalloc(n->args.n + extra + 1, sizeof *c->args);
	if (first)
		c->args[c->nargs++] = jv_ref(first);
	for (i = 0; i < n->args.n; i++) {
		if ((v = eval(rs, s, n->args.v[i])) == NULL) {
			jv_unref(star);
			cargs_free(c);
			return -1;
		}
		c->args[c->nargs++] = v;
	}
	for (i = 0; i < extra; i++)
		c->args[c->nargs++] = jv_ref(star->u.l.v[i]);
	jv_unref(star);
	c->kwv = xcalloc(n->kw.n + 1, sizeof *c->kwv);
	c->kwn = xcalloc(n->kw.n + 2, sizeof *c->kwn);
	for (i = 0; i < n->kw.n; i++) {
		if ((v = eval(rs, s, n->kw.v[i])) == NULL) {
			cargs_free(c);
			return -1;
		}
		c->kwn[c->nkw] = n->kwn[i];
		c->kwv[c->nkw++] = v;
	}
	return 0;
}

jv *
arg_get(jv **args, size_t nargs, char **kwn, jv **kwv, size_t nkw,
    size_t pos, const char *name)
{
	size_t	i;

	if (name)
		for (i = 0; i < nkw; i++)
			if (!strcmp(kwn[i], name))
				return kwv[i];
	if (pos != (size_t)-1 && pos < nargs)
		return args[pos];
	return NULL;
}

static jv *call_macro(struct rstate *rs, const struct node *at, jv *fn,
    jv **args, size_t nargs, char **kwn, jv **kwv, size_t nkw);

jv *
call_value(struct rstate *rs, const struct node *at, jv *fn, jv **args,
    size_t nargs, char **kwn, jv **kwv, size_t nkw)
{
	const struct node *saved = rs->at;
	jv	*r;

	if (fn->kind == JV_UNDEFINED)
		return undefined_error(rs, at, fn);
	if (fn->kind == JV_DICT && (fn->flags & JVF_LOOP) &&
	    (r = jv_dict_get(fn, "__call__")) != NULL)
		fn = r;
	if (fn->kind != JV_CALLABLE)
		return rs_fail(rs, at, "'%s' object is not callable",
		    jv_kind_name(fn));
	if (rs_step(rs, at))
		return NULL;
	rs->at = at;
	if (fn->u.fn->type == FN_MACRO)
		r = call_macro(rs, at, fn, args, nargs, kwn, kwv, nkw);
	else
		r = fn->u.fn->fn(rs, fn->u.fn->self, fn->u.fn->name, args,
		    nargs, kwn, kwv, nkw);
	rs->at = saved;
	return r;
}

/*
 * A filter node. Its subject is n->a evaluated, or, in a chain (filter
 * blocks, set blocks), n->a as a chain again down to the given innermost
 * subject; without n->a, the subject is the one given.
 */
static jv *
eval_filter(struct rstate *rs, struct scope *s, const struct node *n,
    jv *subject, int chain)
{
	struct cargs c;
	jv	*in, *r;

	if (n->a) {
		in = chain ? eval_filter(rs, s, n->a, subject, 1) :
		    eval(rs, s, n->a);
		if (in == NULL)
			return NULL;
	} else
		in = jv_ref(subject);
	if (cargs_eval(rs, s, n, &c, NULL)) {
		jv_unref(in);
		return NULL;
	}
	rs->at = n;
	r = apply_filter(rs, n, n->s, in, c.args, c.nargs, c.kwn, c.kwv, c.nkw);
	cargs_free(&c);
	jv_unref(in);
	return r;
}

static jv *
eval(struct rstate *rs, struct scope *s, const struct node *n)
{
	jv	*a, *b, *r;
	size_t	i;
	int	t;

	if (rs_step(rs, n))
		return NULL;
	switch (n->t) {
	case N_CONST:
		return jv_ref(n->v);
	case N_NAME:
		return lookup(rs, s, n->s);
	case N_GETATTR:
		if ((a = eval(rs, s, n->a)) == NULL)
			return NULL;
		r = get_attr(rs, n, a, n->s);
		jv_unref(a);
		return r;
	case N_GETITEM:
		if ((a = eval(rs, s, n->a)) == NULL)
			return NULL;
		if (n->b->t == N_SLICE) {
			jv *x = NULL, *y = NULL, *z = NULL;

			if ((n->b->a && (x = eval(rs, s, n->b->a)) == NULL) ||
			    (n->b->b && (y = eval(rs, s, n->b->b)) == NULL) ||
			    (n->b->c && (z = eval(rs, s, n->b->c)) == NULL))
				r = NULL;
			else if (a->kind == JV_UNDEFINED)
				r = undefined_error(rs, n, a);
			else
				r = jv_keep_safe(a, do_slice(rs, n, a, x, y, z));
			jv_unref(x);
			jv_unref(y);
			jv_unref(z);
			jv_unref(a);
			return r;
		}
		if ((b = eval(rs, s, n->b)) == NULL) {
			jv_unref(a);
			return NULL;
		}
		r = get_item(rs, n, a, b);
		jv_unref(a);
		jv_unref(b);
		return r;
	case N_SLICE:
		return rs_fail(rs, n, "a slice outside a subscript");
	case N_LIST:
	case N_TUPLE:
		r = n->t == N_TUPLE ? jv_tuple() : jv_list();
		for (i = 0; i < n->args.n; i++) {
			if ((a = eval(rs, s, n->args.v[i])) == NULL) {
				jv_unref(r);
				return NULL;
			}
			jv_list_push(r, a);
		}
		return r;
	case N_DICT:
		r = jv_dict();
		for (i = 0; i < n->args.n; i++) {
			if ((a = eval(rs, s, n->args.v[i])) == NULL) {
				jv_unref(r);
				return NULL;
			}
			if (a->kind == JV_LIST && !(a->flags & JVF_TUPLE)) {
				jv_unref(a);
				jv_unref(r);
				return rs_fail(rs, n->args.v[i], "unhashable type: 'list'");
			}
			if (a->kind == JV_DICT) {
				jv_unref(a);
				jv_unref(r);
				return rs_fail(rs, n->args.v[i], "unhashable type: 'dict'");
			}
			if ((b = eval(rs, s, n->body.v[i])) == NULL) {
				jv_unref(a);
				jv_unref(r);
				return NULL;
			}
			jv_dict_setv(r, a, b);
		}
		return r;
	case N_BINOP:
		if ((a = eval(rs, s, n->a)) == NULL)
			return NULL;
		if ((b = eval(rs, s, n->b)) == NULL) {
			jv_unref(a);
			return NULL;
		}
		r = apply_binop(rs, n, n->op, a, b);
		jv_unref(a);
		jv_unref(b);
		return r;
	case N_UNARY:
		if ((a = eval(rs, s, n->a)) == NULL)
			return NULL;
		if (a->kind == JV_INT || a->kind == JV_BOOL) {
			long long x = a->kind == JV_INT ? a->u.i : a->u.b;

			if (n->op == OP_NEG && x == -9223372036854775807LL - 1)
				r = rs_fail(rs, n, "integer overflow");
			else
				r = jv_int(n->op == OP_NEG ? -x : x);
		} else if (a->kind == JV_FLOAT)
			r = jv_float(n->op == OP_NEG ? -a->u.f : a->u.f);
		else if (a->kind == JV_UNDEFINED)
			r = undefined_error(rs, n, a);
		else
			r = rs_fail(rs, n, "bad operand type for unary %c: '%s'",
			    n->op == OP_NEG ? '-' : '+', jv_kind_name(a));
		jv_unref(a);
		return r;
	case N_AND:
	case N_OR:
		if ((a = eval(rs, s, n->a)) == NULL)
			return NULL;
		if (jv_truthy(a) == (n->t == N_OR))
			return a;
		jv_unref(a);
		return eval(rs, s, n->b);
	case N_NOT:
		if ((a = eval(rs, s, n->a)) == NULL)
			return NULL;
		r = jv_bool(!jv_truthy(a));
		jv_unref(a);
		return r;
	case N_COMPARE:
		if ((a = eval(rs, s, n->args.v[0])) == NULL)
			return NULL;
		for (i = 1; i < n->args.n; i++) {
			if ((b = eval(rs, s, n->args.v[i])) == NULL) {
				jv_unref(a);
				return NULL;
			}
			t = compare_values(rs, n, n->ops[i - 1], a, b);
			jv_unref(a);
			a = b;
			if (t < 0) {
				jv_unref(a);
				return NULL;
			}
			if (!t) {
				jv_unref(a);
				return jv_bool(0);
			}
		}
		jv_unref(a);
		return jv_bool(1);
	case N_COND:
		if ((a = eval(rs, s, n->a)) == NULL)
			return NULL;
		t = jv_truthy(a);
		jv_unref(a);
		if (t)
			return eval(rs, s, n->b);
		if (n->c)
			return eval(rs, s, n->c);
		return jv_undefined_hint("the inline if-expression on line %u evaluated to false and no else section was defined.",
		    n->line);
	case N_FILTER:
		return eval_filter(rs, s, n, NULL, 0);
	case N_TEST: {
		struct cargs c;

		if ((a = eval(rs, s, n->a)) == NULL)
			return NULL;
		if (cargs_eval(rs, s, n, &c, NULL)) {
			jv_unref(a);
			return NULL;
		}
		rs->at = n;
		t = apply_test(rs, n, n->s, a, c.args, c.nargs);
		cargs_free(&c);
		jv_unref(a);
		if (t < 0)
			return NULL;
		return jv_bool(n->op ? !t : t);
	}
	case N_CALL: {
		struct cargs c;

		if ((a = eval(rs, s, n->a)) == NULL)
			return NULL;
		if (cargs_eval(rs, s, n, &c, NULL)) {
			jv_unref(a);
			return NULL;
		}
		r = call_value(rs, n, a, c.args, c.nargs, c.kwn, c.kwv, c.nkw);
		cargs_free(&c);
		jv_unref(a);
		return r;
	}
	default:
		return rs_fail(rs, n, "this expression cannot be evaluated here");
	}
}

/* ---------------------------------------------------------- statements */
static int
assign(struct rstate *rs, struct scope *s, const struct node *t, jv *v)
{
	size_t	i;

	if (t->t == N_NAME) {
		scope_set(s, t->s, jv_ref(v));
		return 0;
	}
	if (t->t == N_NSREF) {
		jv *ns = lookup(rs, s, t->a->s);

		if (ns->kind != JV_DICT || !(ns->flags & JVF_NAMESPACE)) {
			jv_unref(ns);
			rs_fail(rs, t, "cannot assign attribute on non-namespace object");
			return -1;
		}
		jv_dict_set(ns, t->s, jv_ref(v));
		jv_unref(ns);
		return 0;
	}
	/* a tuple of targets */
	{
		jv	*l = iter_list(rs, t, v);
		int	rc = 0;

		if (l == NULL)
			return -1;
		if (l->u.l.n != t->args.n) {
			rs_fail(rs, t, l->u.l.n > t->args.n ?
			    "too many values to unpack (expected %zu)" :
			    "not enough values to unpack (expected %zu, got %zu)",
			    t->args.n, l->u.l.n);
			jv_unref(l);
			return -1;
		}
		for (i = 0; i < t->args.n && rc == 0; i++)
			rc = assign(rs, s, t->args.v[i], l->u.l.v[i]);
		jv_unref(l);
		return rc;
	}
}

static jv *
loop_cycle(struct rstate *rs, jv *self, const char *name, jv **args,
    size_t nargs, char **kwn, jv **kwv, size_t nkw)
{
	(void)name;
	(void)kwn;
	(void)kwv;
	(void)nkw;
	if (nargs == 0)
		return rs_fail(rs, NULL, "no items for cycling given");
	return jv_ref(args[self->u.i % (long long)nargs]);
}

/* loop.changed(*values): true when values differ from the last call's. */
static jv *
loop_changed(struct rstate *rs, jv *self, const char *name, jv **args,
    size_t nargs, char **kwn, jv **kwv, size_t nkw)
{
	jv	*t = jv_tuple();
	size_t	i;

	(void)rs;
	(void)name;
	(void)kwn;
	(void)kwv;
	(void)nkw;
	for (i = 0; i < nargs; i++)
		jv_list_push(t, jv_ref(args[i]));
	/* self: a private list holding the last values (empty: none yet) */
	if (self->u.l.n == 1 && jv_equal(self->u.l.v[0], t)) {
		jv_unref(t);
		return jv_bool(0);
	}
	if (self->u.l.n == 1)
		jv_unref(self->u.l.v[0]);
	else
		jv_list_push(self, NULL);
	self->u.l.v[0] = t;
	return jv_bool(1);
}

static jv *
make_loop(size_t i, size_t n, jv *items, unsigned depth, jv *last)
{
	jv	*l = jv_dict();

	l->flags |= JVF_LOOP;
	jv_dict_set(l, "index", jv_int((long long)i + 1));
	jv_dict_set(l, "index0", jv_int((long long)i));
	jv_dict_set(l, "revindex", jv_int((long long)(n - i)));
	jv_dict_set(l, "revindex0", jv_int((long long)(n - i - 1)));
	jv_dict_set(l, "first", jv_bool(i == 0));
	jv_dict_set(l, "last", jv_bool(i + 1 == n));
	jv_dict_set(l, "length", jv_int((long long)n));
	jv_dict_set(l, "depth", jv_int((long long)depth + 1));
	jv_dict_set(l, "depth0", jv_int((long long)depth));
	if (i > 0)
		jv_dict_set(l, "previtem", jv_ref(items->u.l.v[i - 1]));
	if (i + 1 < n)
		jv_dict_set(l, "nextitem", jv_ref(items->u.l.v[i + 1]));
	jv_dict_set(l, "cycle", jv_fn_builtin("cycle", loop_cycle,
	    jv_int((long long)i)));
	jv_dict_set(l, "changed", jv_fn_builtin("changed", loop_changed,
	    jv_ref(last)));
	return l;
}

static int exec_for(struct rstate *rs, struct scope *s, const struct node *n,
    jv *iterable, unsigned depth);

struct recur {
	const struct node *loop;
	struct scope	*scope;
	unsigned	 depth;
	struct recur	*prev;		/* the recursive loops running */
};

static jv *
loop_recurse(struct rstate *rs, jv *self, const char *name, jv **args,
    size_t nargs, char **kwn, jv **kwv, size_t nkw)
{
	struct recur *r = (struct recur *)(uintptr_t)self->u.i;
	struct buf saved;
	int	rc;

	(void)name;
	(void)kwn;
	(void)kwv;
	(void)nkw;
	{
		struct recur *q;

		for (q = rs->recur; q && q != r; q = q->prev)
			;
		if (q == NULL)
			return rs_fail(rs, NULL, "loop() called outside its loop");
	}
	if (nargs != 1)
		return rs_fail(rs, NULL, "loop() takes exactly one argument");
	if (++rs->depth > rs->lim.max_depth) {
		rs->depth--;
		return rs_fail(rs, NULL, "recursion too deep (the limit is %u)",
		    rs->lim.max_depth);
	}
	saved = capture_begin(rs);
	rc = exec_for(rs, r->scope, r->loop, args[0], r->depth + 1);
	rs->depth--;
	if (rc == X_ERR) {
		free(rs->out.p);
		rs->out = saved;
		return NULL;
	}
	return capture_end(rs, saved);
}

static int
exec_for(struct rstate *rs, struct scope *s, const struct node *n,
    jv *iterable, unsigned depth)
{
	jv	*items, *all;
	size_t	i;
	int	rc = X_OK, iterated = 0;
	struct recur rec = { n, s, depth, rs->recur };
	struct scope *ls = NULL;
	jv	*last;

	if ((all = iter_list(rs, n->b, iterable)) == NULL)
		return X_ERR;
	if (n->c) {		/* the inline filter, evaluated per item */
		items = jv_list();
		for (i = 0; i < all->u.l.n; i++) {
			struct scope *fs = scope_new(rs, s);
			jv	*c;

			if (assign(rs, fs, n->a, all->u.l.v[i])) {
				jv_unref(items);
				jv_unref(all);
				return X_ERR;
			}
			if ((c = eval(rs, fs, n->c)) == NULL) {
				jv_unref(items);
				jv_unref(all);
				return X_ERR;
			}
			if (jv_truthy(c))
				jv_list_push(items, jv_ref(all->u.l.v[i]));
			jv_unref(c);
			scope_release(rs, fs);
		}
		jv_unref(all);
	} else
		items = all;
	last = jv_list();
	if (n->op)
		rs->recur = &rec;
	for (i = 0; i < items->u.l.n; i++) {
		jv	*lv;

		if (ls)
			scope_release(rs, ls);
		ls = scope_new(rs, s);
		if (rs_step(rs, n)) {
			rc = X_ERR;
			break;
		}
		iterated = 1;
		lv = make_loop(i, items->u.l.n, items, depth, last);
		if (n->op)
			jv_dict_set(lv, "__call__", jv_fn_builtin("loop",
			    loop_recurse, jv_int((long long)(uintptr_t)&rec)));
		scope_set(ls, "loop", lv);
		if (assign(rs, ls, n->a, items->u.l.v[i])) {
			rc = X_ERR;
			break;
		}
		rc = exec_list(rs, ls, &n->body);
		if (rc == X_ERR)
			break;
		if (rc == X_BREAK) {
			rc = X_OK;
			break;
		}
		rc = X_OK;
	}
	rs->recur = rec.prev;
	if (ls)
		scope_release(rs, ls);
	if (last->u.l.n) {	/* what changed() kept may hold the loop itself */
		jv_unref(last->u.l.v[0]);
		last->u.l.n = 0;
	}
	jv_unref(last);
	jv_unref(items);
	if (rc == X_OK && !iterated && n->els.n)
		rc = exec_list(rs, s, &n->els);
	return rc;
}

static jv *
call_macro(struct rstate *rs, const struct node *at, jv *fn, jv **args,
    size_t nargs, char **kwn, jv **kwv, size_t nkw)
{
	const struct node *m = fn->u.fn->macro;
	struct scope *ms;
	size_t	i, j, np = m->args.n, nd = m->kw.n;
	jv	*varargs, *kwargs, *v;
	struct buf saved;
	int	rc;

	if (++rs->depth > rs->lim.max_depth) {
		rs->depth--;
		return rs_fail(rs, at, "recursion too deep (the limit is %u)",
		    rs->lim.max_depth);
	}
	ms = scope_new(rs, fn->u.fn->closure);
	for (i = 0; i < np; i++) {
		const char *pn = m->args.v[i]->s;

		v = NULL;
		if (i < nargs)
			v = jv_ref(args[i]);
		for (j = 0; j < nkw; j++)
			if (!strcmp(kwn[j], pn)) {
				if (v) {
					jv_unref(v);
					rs->depth--;
					return rs_fail(rs, at, "macro '%s' got multiple values for argument '%s'",
					    fn->u.fn->name, pn);
				}
				v = jv_ref(kwv[j]);
			}
		if (v == NULL && i >= np - nd) {
			v = eval(rs, ms, m->kw.v[i - (np - nd)]);
			if (v == NULL) {
				rs->depth--;
				return NULL;
			}
		}
		if (v == NULL)
			v = jv_undefined_hint("parameter '%s' was not provided", pn);
		scope_set(ms, pn, v);
	}
	varargs = jv_tuple();
	for (i = np; i < nargs; i++)
		jv_list_push(varargs, jv_ref(args[i]));
	kwargs = jv_dict();
	for (j = 0; j < nkw; j++) {
		int	known = !strcmp(kwn[j], "caller");

		for (i = 0; i < np && !known; i++)
			known = !strcmp(kwn[j], m->args.v[i]->s);
		if (!known)
			jv_dict_set(kwargs, kwn[j], jv_ref(kwv[j]));
	}
	scope_set(ms, "varargs", varargs);
	scope_set(ms, "kwargs", kwargs);
	v = arg_get(NULL, 0, kwn, kwv, nkw, (size_t)-1, "caller");
	if (v)
		scope_set(ms, "caller", jv_ref(v));
	else if (fn->u.fn->caller)
		scope_set(ms, "caller", jv_ref(fn->u.fn->caller));
	saved = capture_begin(rs);
	rc = exec_list(rs, ms, &m->body);
	rs->depth--;
	scope_release(rs, ms);
	if (rc == X_ERR) {
		free(rs->out.p);
		rs->out = saved;
		return NULL;
	}
	return capture_end(rs, saved);
}

static jv *
make_macro(struct scope *s, const struct node *n, const char *name)
{
	jv	*v = jv_fn_builtin(name, NULL, NULL);

	v->u.fn->type = FN_MACRO;
	v->u.fn->macro = n;
	v->u.fn->closure = s;
	for (; s; s = s->parent)
		s->captured = 1;
	return v;
}

static int
output_value(struct rstate *rs, const struct node *n, jv *v)
{
	struct buf *b = &rs->out;

	if (v->kind == JV_STR)
		return emit(rs, n, v->u.s.p, v->u.s.n);
	if (fmt_str(b, v, 0)) {
		rs_fail(rs, n, "value nested too deeply to print");
		return -1;
	}
	if (b->over) {
		rs_fail(rs, n, "output too large (the limit is %zu bytes)",
		    rs->lim.max_output);
		return -1;
	}
	return 0;
}

static int
exec_stmt(struct rstate *rs, struct scope *s, const struct node *n)
{
	jv	*v, *r;
	int	rc;
	size_t	i;
	struct buf saved;

	if (rs_step(rs, n))
		return X_ERR;
	rs->at = n;
	switch (n->t) {
	case N_OUTPUT:
		return emit(rs, n, n->v->u.s.p, n->v->u.s.n) ? X_ERR : X_OK;
	case N_PRINT:
		if ((v = eval(rs, s, n->a)) == NULL)
			return X_ERR;
		rc = output_value(rs, n, v);
		jv_unref(v);
		return rc ? X_ERR : X_OK;
	case N_IF:
		if ((v = eval(rs, s, n->a)) == NULL)
			return X_ERR;
		rc = jv_truthy(v);
		jv_unref(v);
		if (rc)
			return exec_list(rs, s, &n->body);
		return exec_list(rs, s, &n->els);
	case N_FOR:
		if ((v = eval(rs, s, n->b)) == NULL)
			return X_ERR;
		rc = exec_for(rs, s, n, v, 0);
		jv_unref(v);
		return rc;
	case N_SET:
		if ((v = eval(rs, s, n->b)) == NULL)
			return X_ERR;
		rc = assign(rs, s, n->a, v);
		jv_unref(v);
		return rc ? X_ERR : X_OK;
	case N_SETBLOCK:
	case N_FILTERBLOCK:
		if (++rs->depth > rs->lim.max_depth) {
			rs->depth--;
			rs_fail(rs, n, "blocks nested too deeply (the limit is %u)",
			    rs->lim.max_depth);
			return X_ERR;
		}
		saved = capture_begin(rs);
		rc = exec_list(rs, s, &n->body);
		rs->depth--;
		if (rc == X_ERR) {
			free(rs->out.p);
			rs->out = saved;
			return X_ERR;
		}
		v = capture_end(rs, saved);
		if (n->c) {
			r = eval_filter(rs, s, n->c, v, 1);
			jv_unref(v);
			if ((v = r) == NULL)
				return X_ERR;
		}
		if (n->t == N_SETBLOCK)
			rc = assign(rs, s, n->a, v) ? X_ERR : rc;
		else if (output_value(rs, n, v))
			rc = X_ERR;
		jv_unref(v);
		return rc;
	case N_MACRO:
		scope_set(s, n->s, make_macro(s, n, n->s));
		return X_OK;
	case N_CALLBLOCK: {
		static char caller_name[] = "caller";
		struct cargs c;
		jv	*caller, *fn;

		if ((fn = eval(rs, s, n->a->a)) == NULL)
			return X_ERR;
		if (cargs_eval(rs, s, n->a, &c, NULL)) {
			jv_unref(fn);
			return X_ERR;
		}
		caller = make_macro(s, n, "caller");
		c.kwn[c.nkw] = caller_name;
		c.kwv = xreallocarray(c.kwv, c.nkw + 1, sizeof *c.kwv);
		c.kwv[c.nkw++] = caller;
		r = call_value(rs, n->a, fn, c.args, c.nargs, c.kwn, c.kwv, c.nkw);
		cargs_free(&c);
		jv_unref(fn);
		if (r == NULL)
			return X_ERR;
		rc = output_value(rs, n, r);
		jv_unref(r);
		return rc ? X_ERR : X_OK;
	}
	case N_WITH: {
		struct scope *ws = scope_new(rs, s);

		for (i = 0; i < n->args.n; i++) {
			if ((v = eval(rs, s, n->kw.v[i])) == NULL)
				return X_ERR;
			rc = assign(rs, ws, n->args.v[i], v);
			jv_unref(v);
			if (rc)
				return X_ERR;
		}
		return exec_list(rs, ws, &n->body);
	}
	case N_BREAK:
		return X_BREAK;
	case N_CONTINUE:
		return X_CONTINUE;
	default:
		rs_fail(rs, n, "unexpected statement");
		return X_ERR;
	}
}

static int
exec_list(struct rstate *rs, struct scope *s, const struct nlist *l)
{
	size_t	i;
	int	rc;

	for (i = 0; i < l->n; i++)
		if ((rc = exec_stmt(rs, s, l->v[i])) != X_OK)
			return rc;
	return X_OK;
}

/* ------------------------------------------------------------ globals */
static jv *
g_raise(struct rstate *rs, jv *self, const char *name, jv **args,
    size_t nargs, char **kwn, jv **kwv, size_t nkw)
{
	jv	*m = arg_get(args, nargs, kwn, kwv, nkw, 0, "message"), *s;

	(void)self;
	(void)name;
	if (m == NULL)
		return rs_raise(rs, "raise_exception() called without a message");
	if ((s = to_str(rs, m)) == NULL)
		return NULL;
	/* an empty message (an undefined name, '') still says what failed */
	rs_raise(rs, s->u.s.n > 0 ? s->u.s.p :
	    "raise_exception() called with an empty message");
	jv_unref(s);
	return NULL;
}

static jv *
g_strftime(struct rstate *rs, jv *self, const char *name, jv **args,
    size_t nargs, char **kwn, jv **kwv, size_t nkw)
{
	jv	*f = arg_get(args, nargs, kwn, kwv, nkw, 0, "format");
	time_t	t = (time_t)rs->now;
	struct tm tm;
	char	out[1024];
	size_t	n;

	(void)self;
	(void)name;
	if (f == NULL || f->kind != JV_STR)
		return rs_fail(rs, NULL, "strftime_now() takes a format string");
	if (localtime_r(&t, &tm) == NULL)
		return rs_fail(rs, NULL, "the time cannot be converted");
	if (f->u.s.n == 0)
		return jv_str("", 0);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	n = strftime(out, sizeof out, f->u.s.p, &tm);
#pragma GCC diagnostic pop
	if (n == 0)
		return rs_fail(rs, NULL, "strftime_now(): format too long or empty result");
	return jv_str(out, n);
}

static jv *
g_range(struct rstate *rs, jv *self, const char *name, jv **args,
    size_t nargs, char **kwn, jv **kwv, size_t nkw)
{
	long long a = 0, b = 0, st = 1, i, n;
	jv	*l;

	(void)self;
	(void)name;
	(void)kwn;
	(void)kwv;
	if (nkw)
		return rs_fail(rs, NULL, "range() takes no keyword arguments");
	if (nargs < 1 || nargs > 3)
		return rs_fail(rs, NULL, "range expected at most 3 arguments, got %zu", nargs);
	for (i = 0; i < (long long)nargs; i++)
		if (!as_int(args[i], &n))
			return rs_fail(rs, NULL, "'%s' object cannot be interpreted as an integer",
			    jv_kind_name(args[i]));
	if (nargs == 1)
		as_int(args[0], &b);
	else {
		as_int(args[0], &a);
		as_int(args[1], &b);
		if (nargs == 3)
			as_int(args[2], &st);
	}
	if (st == 0)
		return rs_fail(rs, NULL, "range() arg 3 must not be zero");
	if (st > 0)
		n = b > a ? (long long)(((unsigned long long)b - (unsigned long long)a - 1) / (unsigned long long)st + 1) : 0;
	else
		n = a > b ? (long long)(((unsigned long long)a - (unsigned long long)b - 1) / (unsigned long long)(-(st + 1) + 1ULL) + 1) : 0;
	if (n > 100000)
		return rs_fail(rs, NULL, "Range too big. The sandbox blocks ranges larger than MAX_RANGE (100000).");
	l = jv_list();
	for (i = 0; i < n; i++)
		jv_list_push(l, jv_int(a + i * st));
	return l;
}

static jv *
g_namespace(struct rstate *rs, jv *self, const char *name, jv **args,
    size_t nargs, char **kwn, jv **kwv, size_t nkw)
{
	jv	*ns = jv_dict();
	size_t	i;

	(void)self;
	(void)name;
	ns->flags |= JVF_NAMESPACE;
	for (i = 0; i < nargs; i++) {
		size_t	k;

		if (args[i]->kind != JV_DICT) {
			jv_unref(ns);
			return rs_fail(rs, NULL, "namespace() takes keyword arguments or a dict");
		}
		for (k = 0; k < args[i]->u.d.n; k++)
			if (args[i]->u.d.k[k]->kind == JV_STR)
				jv_dict_setv(ns, jv_ref(args[i]->u.d.k[k]),
				    jv_ref(args[i]->u.d.v[k]));
	}
	for (i = 0; i < nkw; i++)
		jv_dict_set(ns, kwn[i], jv_ref(kwv[i]));
	/* kept so that the end of the rendering can break reference cycles */
	if (rs->ntracked == rs->captracked) {
		rs->captracked = rs->captracked ? rs->captracked * 2 : 8;
		rs->tracked = xreallocarray(rs->tracked, rs->captracked,
		    sizeof *rs->tracked);
	}
	rs->tracked[rs->ntracked++] = jv_ref(ns);
	return ns;
}

static jv *
g_dict(struct rstate *rs, jv *self, const char *name, jv **args,
    size_t nargs, char **kwn, jv **kwv, size_t nkw)
{
	jv	*d = jv_dict();
	size_t	i, k;

	(void)self;
	(void)name;
	for (i = 0; i < nargs; i++) {
		if (args[i]->kind != JV_DICT) {
			jv_unref(d);
			return rs_fail(rs, NULL, "dict() takes a dict or keyword arguments");
		}
		for (k = 0; k < args[i]->u.d.n; k++)
			jv_dict_setv(d, jv_ref(args[i]->u.d.k[k]),
			    jv_ref(args[i]->u.d.v[k]));
	}
	for (i = 0; i < nkw; i++)
		jv_dict_set(d, kwn[i], jv_ref(kwv[i]));
	return d;
}

static jv *
builtin_global(struct rstate *rs, const char *name)
{
	(void)rs;
	if (!strcmp(name, "raise_exception"))
		return jv_fn_builtin("raise_exception", g_raise, NULL);
	if (!strcmp(name, "strftime_now"))
		return jv_fn_builtin("strftime_now", g_strftime, NULL);
	if (!strcmp(name, "range"))
		return jv_fn_builtin("range", g_range, NULL);
	if (!strcmp(name, "namespace"))
		return jv_fn_builtin("namespace", g_namespace, NULL);
	if (!strcmp(name, "dict"))
		return jv_fn_builtin("dict", g_dict, NULL);
	return NULL;
}

/* ------------------------------------------------------------- the API */
struct jinja *
jinja_parse(const char *src, size_t n, struct jinja_error *err)
{
	struct tokens toks;
	struct jinja *t;
	struct node *root;

	memset(err, 0, sizeof *err);
	if (n > JINJA_MAX_SOURCE) {
		snprintf(err->msg, sizeof err->msg,
		    "template too large (%zu bytes, the limit is %u MiB)", n,
		    JINJA_MAX_SOURCE >> 20);
		return NULL;
	}
	if (jlex(src, n, &toks, err))
		return NULL;
	root = jparse(&toks, err);
	jlex_free(&toks);
	if (root == NULL)
		return NULL;
	if (jcheck(root, err)) {
		node_free(root);
		return NULL;
	}
	t = xcalloc(1, sizeof *t);
	t->root = root;
	return t;
}

void
jinja_free(struct jinja *t)
{
	if (t == NULL)
		return;
	node_free(t->root);
	free(t->src);
	free(t);
}

int
jinja_render(const struct jinja *t, jv *ctx, const struct jinja_limits *lim,
    long long now, char **out, size_t *outn, struct jinja_error *err)
{
	struct rstate rs;
	struct scope *top, *s, *nx;
	size_t	i;
	int	rc;

	memset(err, 0, sizeof *err);
	memset(&rs, 0, sizeof rs);
	rs.lim.max_output = 64u << 20;
	rs.lim.max_steps = 100000000ULL;
	rs.lim.max_depth = 256;
	rs.lim.max_ms = 10000;
	rs.lim.max_memory = 256u << 20;
	if (lim) {
		if (lim->max_output)
			rs.lim.max_output = lim->max_output;
		if (lim->max_steps)
			rs.lim.max_steps = lim->max_steps;
		if (lim->max_depth)
			rs.lim.max_depth = lim->max_depth;
		if (lim->max_ms)
			rs.lim.max_ms = lim->max_ms;
		if (lim->max_memory)
			rs.lim.max_memory = lim->max_memory;
	}
	rs.out.limit = rs.lim.max_output;
	rs.now = now;
	rs.t0 = now_ms();
	rs.err = err;
	rs.globals = ctx && ctx->kind == JV_DICT ? ctx : NULL;
	if (rs.globals == NULL)
		rs.globals = jv_dict();
	else
		jv_ref(rs.globals);
	jv_mem_start(rs.lim.max_memory);
	top = scope_new(&rs, NULL);
	rc = exec_list(&rs, top, &t->root->body);
	if (rc != X_ERR && jv_mem_over()) {
		mem_fail(&rs, NULL);
		rc = X_ERR;
	}
	if (rc == X_ERR || rs.failed) {
		free(rs.out.p);
		rs.out.p = NULL;
		rc = -1;
	} else {
		*out = buf_take(&rs.out, outn);
		rc = 0;
	}
	/* break the cycles namespaces may hold, then free the scopes */
	for (i = 0; i < rs.ntracked; i++) {
		jv	*ns = rs.tracked[i];
		size_t	k;

		for (k = 0; k < ns->u.d.n; k++) {
			jv_unref(ns->u.d.k[k]);
			jv_unref(ns->u.d.v[k]);
		}
		ns->u.d.n = 0;
	}
	for (s = rs.scopes; s; s = nx) {
		nx = s->next_alloc;
		jv_unref(s->vars);
		free(s);
	}
	for (i = 0; i < rs.ntracked; i++)
		jv_unref(rs.tracked[i]);
	free(rs.tracked);
	jv_unref(rs.globals);
	jv_mem_stop();
	return rc;
}
