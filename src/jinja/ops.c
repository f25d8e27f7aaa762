/*
 * ops.c - what the operators do to values, as Python does it: iteration,
 * indexing, slicing and attributes, arithmetic, comparison and "in",
 * with Python's errors; eval.c applies them.
 */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jint.h"
#include "mathlib.h"
#include "xmalloc.h"

/* ------------------------------------------------------ iteration, items */
jv *
iter_list(struct rstate *rs, const struct node *at, jv *v)
{
	jv	*l;
	size_t	i, k;

	switch (v->kind) {
	case JV_LIST:
		if (v->flags & JVF_GEN) {	/* a generator runs once */
			l = jv_list();
			for (i = 0; i < v->u.l.n; i++)
				jv_list_push(l, v->u.l.v[i]);
			v->u.l.n = 0;
			return l;
		}
		if (!(v->flags & JVF_TUPLE))
			return jv_ref(v);
		l = jv_list();
		for (i = 0; i < v->u.l.n; i++)
			jv_list_push(l, jv_ref(v->u.l.v[i]));
		return l;
	case JV_DICT:
		if (v->flags & JVF_LOOP)
			break;
		l = jv_list();
		for (i = 0; i < v->u.d.n; i++)
			jv_list_push(l, jv_ref(v->u.d.k[i]));
		return l;
	case JV_STR:
		l = jv_list();
		for (i = 0; i < v->u.s.n; i += k) {
			uint32_t c;

			k = utf8_dec(v->u.s.p + i, v->u.s.n - i, &c);
			jv_list_push(l, jv_str(v->u.s.p + i, k));
		}
		return l;
	case JV_UNDEFINED:
		return jv_list();
	default:
		break;
	}
	return rs_fail(rs, at, "'%s' object is not iterable", jv_kind_name(v));
}

static void
undefined_msg(const jv *u, char *buf, size_t sz)
{
	snprintf(buf, sz, "%s", u->u.s.p ? u->u.s.p : "value is undefined");
}

jv *
undefined_error(struct rstate *rs, const struct node *at, const jv *u)
{
	char	m[300];

	undefined_msg(u, m, sizeof m);
	return rs_fail(rs, at, "%s", m);
}

static const char *
type_repr(const jv *v)
{
	switch (v->kind) {
	case JV_NONE:
		return "None";
	case JV_DICT:
		return v->flags & JVF_NAMESPACE ? "jinja2.utils.Namespace object" :
		    v->flags & JVF_LOOP ? "jinja2.runtime.LoopContext object" : "dict object";
	case JV_LIST:
		return v->flags & JVF_TUPLE ? "tuple object" : "list object";
	case JV_STR:
		return "str object";
	case JV_INT:
		return "int object";
	case JV_FLOAT:
		return "float object";
	case JV_BOOL:
		return "bool object";
	default:
		return "object";
	}
}

/* A Python index (negatives from the end) into [0, n): -1 when outside. */
static long long
norm_index(long long i, size_t n)
{
	if (i < 0)
		i += (long long)n;
	return i < 0 || i >= (long long)n ? -1 : i;
}

jv *
str_slice_cp(jv *s, size_t from, size_t to)
{
	size_t	i = 0, cp = 0, a = s->u.s.n, b = s->u.s.n;

	if (from >= to)
		return jv_str("", 0);
	for (i = 0; i < s->u.s.n; i++) {
		if (((unsigned char)s->u.s.p[i] & 0xc0) == 0x80)
			continue;
		if (cp == from)
			a = i;
		if (cp == to) {
			b = i;
			break;
		}
		cp++;
	}
	if (a >= b)
		return jv_str("", 0);
	return jv_str(s->u.s.p + a, b - a);
}

jv *
do_slice(struct rstate *rs, const struct node *at, jv *obj, jv *start,
    jv *stop, jv *step)
{
	long long n, st = 1, lo, hi, i;
	jv	*out;

	if (obj->kind != JV_LIST && obj->kind != JV_STR)
		return rs_fail(rs, at, "'%s' object is not subscriptable",
		    jv_kind_name(obj));
	if ((start && start->kind != JV_NONE && start->kind != JV_INT && start->kind != JV_BOOL) ||
	    (stop && stop->kind != JV_NONE && stop->kind != JV_INT && stop->kind != JV_BOOL) ||
	    (step && step->kind != JV_NONE && step->kind != JV_INT && step->kind != JV_BOOL))
		return rs_fail(rs, at, "slice indices must be integers or None");
	n = obj->kind == JV_LIST ? (long long)obj->u.l.n : (long long)jv_str_cps(obj);
	if (step && step->kind != JV_NONE) {
		st = step->kind == JV_INT ? step->u.i : step->u.b;
		if (st == 0)
			return rs_fail(rs, at, "slice step cannot be zero");
	}
#define IDX(v) ((v)->kind == JV_INT ? (v)->u.i : (long long)(v)->u.b)
	if (st > 0) {
		lo = start && start->kind != JV_NONE ? IDX(start) : 0;
		hi = stop && stop->kind != JV_NONE ? IDX(stop) : n;
		if (lo < 0) lo += n;
		if (lo < 0) lo = 0;
		if (lo > n) lo = n;
		if (hi < 0) hi += n;
		if (hi < 0) hi = 0;
		if (hi > n) hi = n;
	} else {
		lo = start && start->kind != JV_NONE ? IDX(start) : n - 1;
		hi = stop && stop->kind != JV_NONE ? IDX(stop) : -1 - n;
		if (lo < 0) lo += n;
		if (lo < -1) lo = -1;
		if (lo >= n) lo = n - 1;
		if (hi < 0) hi += n;
		if (hi < -1) hi = -1;
		if (hi >= n) hi = n - 1;
	}
#undef IDX
	if (obj->kind == JV_STR && st == 1)
		return str_slice_cp(obj, (size_t)lo, (size_t)(hi > lo ? hi : lo));
	if (obj->kind == JV_LIST) {
		out = obj->flags & JVF_TUPLE ? jv_tuple() : jv_list();
		if (st > 0)
			for (i = lo; i < hi; i += st)
				jv_list_push(out, jv_ref(obj->u.l.v[i]));
		else
			for (i = lo; i > hi; i += st)
				jv_list_push(out, jv_ref(obj->u.l.v[i]));
		return out;
	}
	{
		/* a string with a step: by code points */
		size_t	*off, k = 0, j;
		struct buf b = { 0 };
		char	*p;
		size_t	len;

		off = xreallocarray(NULL, (size_t)n + 1, sizeof *off);
		for (j = 0; j < obj->u.s.n; j++)
			if (((unsigned char)obj->u.s.p[j] & 0xc0) != 0x80)
				off[k++] = j;
		off[k] = obj->u.s.n;
		if (st > 0)
			for (i = lo; i < hi; i += st)
				buf_add(&b, obj->u.s.p + off[i], off[i + 1] - off[i]);
		else
			for (i = lo; i > hi; i += st)
				buf_add(&b, obj->u.s.p + off[i], off[i + 1] - off[i]);
		free(off);
		p = buf_take(&b, &len);
		return jv_str_take(p, len);
	}
}

/* obj[key]: the item first, then (for a string key) the attribute. */
jv *
get_item(struct rstate *rs, const struct node *at, jv *obj, jv *key)
{
	jv	*v;
	long long i;

	switch (obj->kind) {
	case JV_UNDEFINED:
		return undefined_error(rs, at, obj);
	case JV_DICT:
		if ((v = jv_dict_getv(obj, key)) != NULL)
			return jv_ref(v);
		break;
	case JV_LIST:
		if (key->kind == JV_INT || key->kind == JV_BOOL) {
			i = norm_index(key->kind == JV_INT ? key->u.i : key->u.b,
			    obj->u.l.n);
			if (i >= 0)
				return jv_ref(obj->u.l.v[i]);
			return jv_undefined_hint("'%s' has no element %lld",
			    type_repr(obj), key->kind == JV_INT ? key->u.i : key->u.b);
		}
		break;
	case JV_STR:
		if (key->kind == JV_INT || key->kind == JV_BOOL) {
			i = norm_index(key->kind == JV_INT ? key->u.i : key->u.b,
			    jv_str_cps(obj));
			if (i >= 0)
				return jv_keep_safe(obj, str_slice_cp(obj,
				    (size_t)i, (size_t)i + 1));
			return jv_undefined_hint("'%s' has no element %lld",
			    type_repr(obj), key->kind == JV_INT ? key->u.i : key->u.b);
		}
		break;
	default:
		break;
	}
	if (key->kind == JV_STR) {
		if ((v = method_of(obj, key->u.s.p)) != NULL)
			return v;
		return jv_undefined_hint("'%s' has no attribute '%s'",
		    type_repr(obj), key->u.s.p);
	}
	{
		struct buf b = { 0 };
		jv	*u;

		b.limit = 200;
		fmt_repr(&b, key, 0);
		u = jv_undefined_hint("'%s' has no element %s", type_repr(obj),
		    b.p ? b.p : "?");
		free(b.p);
		return u;
	}
}

/* obj.name: the attribute first (methods), then the item. */
jv *
get_attr(struct rstate *rs, const struct node *at, jv *obj, const char *name)
{
	jv	*v;

	if (obj->kind == JV_UNDEFINED)
		return undefined_error(rs, at, obj);
	if (obj->kind == JV_DICT && (obj->flags & (JVF_NAMESPACE | JVF_LOOP))) {
		if ((v = jv_dict_get(obj, name)) != NULL)
			return jv_ref(v);
		return jv_undefined_hint("'%s' has no attribute '%s'",
		    type_repr(obj), name);
	}
	if ((v = method_of(obj, name)) != NULL)
		return v;
	if (obj->kind == JV_DICT && (v = jv_dict_get(obj, name)) != NULL)
		return jv_ref(v);
	return jv_undefined_hint("'%s' has no attribute '%s'", type_repr(obj),
	    name);
}

/* ---------------------------------------------------------- arithmetic */
int
as_int(const jv *v, long long *out)
{
	if (v->kind == JV_INT) {
		*out = v->u.i;
		return 1;
	}
	if (v->kind == JV_BOOL) {
		*out = v->u.b;
		return 1;
	}
	return 0;
}

static jv *
type_error(struct rstate *rs, const struct node *at, const char *op, jv *a,
    jv *b)
{
	if (a->kind == JV_UNDEFINED)
		return undefined_error(rs, at, a);
	if (b->kind == JV_UNDEFINED)
		return undefined_error(rs, at, b);
	return rs_fail(rs, at, "unsupported operand type(s) for %s: '%s' and '%s'",
	    op, jv_kind_name(a), jv_kind_name(b));
}

static jv *
repeat(struct rstate *rs, const struct node *at, jv *seq, long long n)
{
	long long i;
	size_t	k;

	if (n < 0)
		n = 0;
	if (seq->kind == JV_STR) {
		struct buf b = { 0 };
		char	*p;
		size_t	len;

		if (n && seq->u.s.n && (unsigned long long)n > rs->lim.max_output / seq->u.s.n)
			return rs_fail(rs, at, "string repetition too large");
		for (i = 0; i < n; i++)
			buf_add(&b, seq->u.s.p, seq->u.s.n);
		p = buf_take(&b, &len);
		return jv_str_take(p, len);
	} else {
		jv *l = seq->flags & JVF_TUPLE ? jv_tuple() : jv_list();

		if (n && seq->u.l.n && (unsigned long long)n > (rs->lim.max_output / 8) / seq->u.l.n) {
			jv_unref(l);
			return rs_fail(rs, at, "list repetition too large");
		}
		if (!jv_mem_room((size_t)n * seq->u.l.n * sizeof(jv *))) {
			jv_unref(l);
			return mem_fail(rs, at);
		}
		for (i = 0; i < n; i++)
			for (k = 0; k < seq->u.l.n; k++)
				jv_list_push(l, jv_ref(seq->u.l.v[k]));
		return l;
	}
}

static double
py_fmod(double a, double b)
{
	double m = gguf_fmod(a, b);

	if (!f_eq(m, 0) && ((m < 0) != (b < 0)))
		m += b;
	else if (f_eq(m, 0))
		m = copysign(0.0, b);
	return m;
}

jv	*str_percent(struct rstate *rs, const struct node *at, jv *fmt, jv *args);

jv *
apply_binop(struct rstate *rs, const struct node *at, int op, jv *a, jv *b)
{
	long long x, y, r;
	static const char *names[] = {
		[OP_ADD] = "+", [OP_SUB] = "-", [OP_MUL] = "*", [OP_DIV] = "/",
		[OP_FLOORDIV] = "//", [OP_MOD] = "%", [OP_POW] = "** or pow()",
	};

	if (op == OP_TILDE) {
		jv	*sa, *sb, *res;
		struct buf bb = { 0 };
		char	*p;
		size_t	len;

		if ((sa = to_str(rs, a)) == NULL)
			return NULL;
		if ((sb = to_str(rs, b)) == NULL) {
			jv_unref(sa);
			return NULL;
		}
		buf_add(&bb, sa->u.s.p, sa->u.s.n);
		buf_add(&bb, sb->u.s.p, sb->u.s.n);
		jv_unref(sa);
		jv_unref(sb);
		p = buf_take(&bb, &len);
		res = jv_str_take(p, len);
		return res;
	}
	if (as_int(a, &x) && as_int(b, &y)) {
		switch (op) {
		case OP_ADD:
			if (__builtin_add_overflow(x, y, &r))
				return rs_fail(rs, at, "integer overflow");
			return jv_int(r);
		case OP_SUB:
			if (__builtin_sub_overflow(x, y, &r))
				return rs_fail(rs, at, "integer overflow");
			return jv_int(r);
		case OP_MUL:
			if (__builtin_mul_overflow(x, y, &r))
				return rs_fail(rs, at, "integer overflow");
			return jv_int(r);
		case OP_DIV:
			if (y == 0)
				return rs_fail(rs, at, "division by zero");
			return jv_float((double)x / (double)y);
		case OP_FLOORDIV:
		case OP_MOD:
			if (y == 0)
				return rs_fail(rs, at, op == OP_MOD ?
				    "integer modulo by zero" : "integer division or modulo by zero");
			if (x == -9223372036854775807LL - 1 && y == -1)
				return op == OP_MOD ? jv_int(0) :
				    rs_fail(rs, at, "integer overflow");
			r = x / y;
			if ((x % y != 0) && ((x < 0) != (y < 0)))
				r--;
			return op == OP_FLOORDIV ? jv_int(r) : jv_int(x - r * y);
		case OP_POW:
			if (y < 0)
				return jv_float(gguf_pow((double)x, (double)y));
			r = 1;
			while (y > 0) {
				if (y & 1 && __builtin_mul_overflow(r, x, &r))
					return rs_fail(rs, at, "integer overflow");
				y >>= 1;
				if (y && __builtin_mul_overflow(x, x, &x))
					return rs_fail(rs, at, "integer overflow");
			}
			return jv_int(r);
		}
	}
	if (jv_is_number(a) && jv_is_number(b)) {
		double p = jv_num(a), q = jv_num(b);

		switch (op) {
		case OP_ADD:
			return jv_float(p + q);
		case OP_SUB:
			return jv_float(p - q);
		case OP_MUL:
			return jv_float(p * q);
		case OP_DIV:
			if (f_eq(q, 0))
				return rs_fail(rs, at, "float division by zero");
			return jv_float(p / q);
		case OP_FLOORDIV:
			if (f_eq(q, 0))
				return rs_fail(rs, at, "float floor division by zero");
			return jv_float(floor(p / q));
		case OP_MOD:
			if (f_eq(q, 0))
				return rs_fail(rs, at, "float modulo");
			return jv_float(py_fmod(p, q));
		case OP_POW:
			if (f_eq(p, 0) && q < 0)
				return rs_fail(rs, at, "0.0 cannot be raised to a negative power");
			return jv_float(gguf_pow(p, q));
		}
	}
	if (op == OP_ADD && a->kind == JV_STR && b->kind == JV_STR) {
		struct buf bb = { 0 };
		char	*p;
		size_t	len;
		int	safe = (a->flags | b->flags) & JVF_SAFE;

		/* Markup + str escapes the str (either way round) */
		if (safe && !(a->flags & JVF_SAFE))
			html_escape(&bb, a->u.s.p, a->u.s.n);
		else
			buf_add(&bb, a->u.s.p, a->u.s.n);
		if (safe && !(b->flags & JVF_SAFE))
			html_escape(&bb, b->u.s.p, b->u.s.n);
		else
			buf_add(&bb, b->u.s.p, b->u.s.n);
		p = buf_take(&bb, &len);
		return safe ? jv_mark_safe(jv_str_take(p, len)) : jv_str_take(p, len);
	}
	if (op == OP_ADD && a->kind == JV_LIST && b->kind == JV_LIST &&
	    (a->flags & JVF_TUPLE) == (b->flags & JVF_TUPLE)) {
		jv	*l;
		size_t	i;

		if (!jv_mem_room((a->u.l.n + b->u.l.n) * sizeof(jv *)))
			return mem_fail(rs, at);
		l = a->flags & JVF_TUPLE ? jv_tuple() : jv_list();
		for (i = 0; i < a->u.l.n; i++)
			jv_list_push(l, jv_ref(a->u.l.v[i]));
		for (i = 0; i < b->u.l.n; i++)
			jv_list_push(l, jv_ref(b->u.l.v[i]));
		return l;
	}
	if (op == OP_MUL) {
		if ((a->kind == JV_STR || a->kind == JV_LIST) && as_int(b, &y))
			return repeat(rs, at, a, y);
		if ((b->kind == JV_STR || b->kind == JV_LIST) && as_int(a, &x))
			return repeat(rs, at, b, x);
	}
	if (op == OP_MOD && a->kind == JV_STR)
		return str_percent(rs, at, a, b);
	return type_error(rs, at, names[op], a, b);
}

/* Python's ordering of two values; -1 on a type error. */
int
py_cmp(struct rstate *rs, const struct node *at, jv *a, jv *b, int *res)
{
	size_t	i, n;
	int	c;

	if (jv_is_number(a) && jv_is_number(b)) {
		long long x, y;

		if (as_int(a, &x) && as_int(b, &y))
			*res = x < y ? -1 : x > y;
		else {
			double p = jv_num(a), q = jv_num(b);

			*res = p < q ? -1 : p > q ? 1 : 0;
		}
		return 0;
	}
	if (a->kind == JV_STR && b->kind == JV_STR) {
		n = a->u.s.n < b->u.s.n ? a->u.s.n : b->u.s.n;
		c = memcmp(a->u.s.p, b->u.s.p, n);
		*res = c < 0 ? -1 : c > 0 ? 1 :
		    a->u.s.n < b->u.s.n ? -1 : a->u.s.n > b->u.s.n;
		return 0;
	}
	if (a->kind == JV_LIST && b->kind == JV_LIST &&
	    (a->flags & JVF_TUPLE) == (b->flags & JVF_TUPLE)) {
		n = a->u.l.n < b->u.l.n ? a->u.l.n : b->u.l.n;
		for (i = 0; i < n; i++) {
			if (jv_equal(a->u.l.v[i], b->u.l.v[i]))
				continue;
			return py_cmp(rs, at, a->u.l.v[i], b->u.l.v[i], res);
		}
		*res = a->u.l.n < b->u.l.n ? -1 : a->u.l.n > b->u.l.n;
		return 0;
	}
	if (a->kind == JV_UNDEFINED) {
		undefined_error(rs, at, a);
		return -1;
	}
	if (b->kind == JV_UNDEFINED) {
		undefined_error(rs, at, b);
		return -1;
	}
	rs_fail(rs, at, "'<' not supported between instances of '%s' and '%s'",
	    jv_kind_name(a), jv_kind_name(b));
	return -1;
}

static int
contains(struct rstate *rs, const struct node *at, jv *item, jv *seq)
{
	size_t	i;

	switch (seq->kind) {
	case JV_STR:
		if (item->kind != JV_STR) {
			rs_fail(rs, at, "'in <string>' requires string as left operand, not %s",
			    jv_kind_name(item));
			return -1;
		}
		if (item->u.s.n == 0)
			return 1;
		if (item->u.s.n > seq->u.s.n)
			return 0;
		for (i = 0; i + item->u.s.n <= seq->u.s.n; i++)
			if (memcmp(seq->u.s.p + i, item->u.s.p, item->u.s.n) == 0)
				return 1;
		return 0;
	case JV_LIST:
		for (i = 0; i < seq->u.l.n; i++)
			if (jv_equal(seq->u.l.v[i], item))
				return 1;
		return 0;
	case JV_DICT:
		return jv_dict_getv(seq, item) != NULL;
	case JV_UNDEFINED:
		return 0;
	default:
		rs_fail(rs, at, "argument of type '%s' is not iterable",
		    jv_kind_name(seq));
		return -1;
	}
}

int
compare_values(struct rstate *rs, const struct node *at, int op, jv *a, jv *b)
{
	int	c;

	switch (op) {
	case OP_EQ:
		return jv_equal(a, b);
	case OP_NE:
		return !jv_equal(a, b);
	case OP_IN:
		return contains(rs, at, a, b);
	case OP_NOTIN:
		c = contains(rs, at, a, b);
		return c < 0 ? -1 : !c;
	}
	if (py_cmp(rs, at, a, b, &c)) {
		if (!rs->failed || strncmp(rs->err->msg, "'<'", 3) != 0)
			return -1;
		/* name the operator actually used */
		{
			const char *o = op == OP_LT ? "<" : op == OP_LTEQ ? "<=" :
			    op == OP_GT ? ">" : ">=";

			snprintf(rs->err->msg, sizeof rs->err->msg,
			    "'%s' not supported between instances of '%s' and '%s'",
			    o, jv_kind_name(a), jv_kind_name(b));
		}
		return -1;
	}
	switch (op) {
	case OP_LT:
		return c < 0;
	case OP_LTEQ:
		return c <= 0;
	case OP_GT:
		return c > 0;
	default:
		return c >= 0;
	}
}
