/*
 * filters.c - the filters of jinja2 that chat templates use (tests.c has
 * its tests), with jinja2's semantics: what each accepts, what it gives
 * back (some give generators, which are always true and have no length),
 * and what undefined values turn into.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jint.h"
#include "mathlib.h"
#include "xmalloc.h"

#define ARG(pos, name) arg_get(args, nargs, kwn, kwv, nkw, (pos), (name))

typedef jv *(*filter_fn)(struct rstate *rs, const struct node *at, jv *v,
    jv **args, size_t nargs, char **kwn, jv **kwv, size_t nkw);

static jv *
str_of(struct buf *b)
{
	size_t	n;
	char	*p = buf_take(b, &n);

	return jv_str_take(p, n);
}

static jv *
gen_of(jv *l)
{
	l->flags |= JVF_GEN;
	return l;
}

/* str() of v, "" for undefined. */
static jv *
soft_str(struct rstate *rs, jv *v)
{
	return to_str(rs, v);
}

static int
truthy_arg(jv *v, int dflt)
{
	return v ? jv_truthy(v) : dflt;
}

static int
int_of(jv *v, long long *out)
{
	if (v && v->kind == JV_INT) {
		*out = v->u.i;
		return 1;
	}
	if (v && v->kind == JV_BOOL) {
		*out = v->u.b;
		return 1;
	}
	return 0;
}

/* Attribute path "a.b.0": item lookups, integer parts as integers. */
static jv *
attr_path(struct rstate *rs, const struct node *at, jv *item, jv *attr,
    jv *dflt)
{
	jv	*cur = jv_ref(item), *key, *nx;
	const char *p, *e, *dot;

	if (attr == NULL || attr->kind == JV_NONE)
		return cur;
	if (attr->kind == JV_INT) {
		nx = get_item(rs, at, cur, attr);
		jv_unref(cur);
		if (nx && dflt && nx->kind == JV_UNDEFINED) {
			jv_unref(nx);
			return jv_ref(dflt);
		}
		return nx;
	}
	if (attr->kind != JV_STR) {
		jv_unref(cur);
		return rs_fail(rs, at, "attribute must be a string or an integer");
	}
	p = attr->u.s.p;
	e = p + attr->u.s.n;
	for (;;) {
		const char *q;
		int	digits = 1;

		dot = memchr(p, '.', (size_t)(e - p));
		if (dot == NULL)
			dot = e;
		for (q = p; q < dot; q++)
			if (*q < '0' || *q > '9')
				digits = 0;
		if (digits && dot > p && dot - p < 18) {
			long long v = 0;

			for (q = p; q < dot; q++)
				v = v * 10 + (*q - '0');
			key = jv_int(v);
		} else
			key = jv_str(p, (size_t)(dot - p));
		nx = get_item(rs, at, cur, key);
		jv_unref(key);
		jv_unref(cur);
		if (nx == NULL)
			return NULL;
		cur = nx;
		if (dflt && cur->kind == JV_UNDEFINED) {
			jv_unref(cur);
			cur = jv_ref(dflt);
		}
		if (dot == e)
			break;
		p = dot + 1;
	}
	return cur;
}

/* Lowercased copy of a string (other values as they are). */
static jv *
fold(jv *v)
{
	if (v->kind == JV_STR)
		return str_case(v, 'l');
	return jv_ref(v);
}

/* A stable merge sort of keys[] carrying vals[]; -1 on a comparison error. */
static int
msort(struct rstate *rs, const struct node *at, jv **keys, jv **vals,
    size_t n, int reverse, jv **tk, jv **tv)
{
	size_t	h, i, j, k;
	int	c;

	if (n < 2)
		return 0;
	h = n / 2;
	if (msort(rs, at, keys, vals, h, reverse, tk, tv) ||
	    msort(rs, at, keys + h, vals + h, n - h, reverse, tk, tv))
		return -1;
	for (i = 0, j = h, k = 0; i < h && j < n; k++) {
		if (py_cmp(rs, at, keys[j], keys[i], &c))
			return -1;
		if (reverse ? c > 0 : c < 0) {
			tk[k] = keys[j];
			tv[k] = vals[j++];
		} else {
			tk[k] = keys[i];
			tv[k] = vals[i++];
		}
	}
	while (i < h) {
		tk[k] = keys[i];
		tv[k++] = vals[i++];
	}
	while (j < n) {
		tk[k] = keys[j];
		tv[k++] = vals[j++];
	}
	memcpy(keys, tk, n * sizeof *keys);
	memcpy(vals, tv, n * sizeof *vals);
	return 0;
}

/* Sorts items (a list, owned) by keys (owned); returns a new list. */
static jv *
sort_by(struct rstate *rs, const struct node *at, jv *items, jv **keys,
    int reverse)
{
	size_t	n = items->u.l.n, i;
	jv	**vals = xcalloc(n + 1, sizeof *vals);
	jv	**tk = xcalloc(n + 1, sizeof *tk), **tv = xcalloc(n + 1, sizeof *tv);
	jv	*out = NULL;

	for (i = 0; i < n; i++)
		vals[i] = items->u.l.v[i];
	if (msort(rs, at, keys, vals, n, reverse, tk, tv) == 0) {
		out = jv_list();
		for (i = 0; i < n; i++)
			jv_list_push(out, jv_ref(vals[i]));
	}
	for (i = 0; i < n; i++)
		jv_unref(keys[i]);
	free(vals);
	free(tk);
	free(tv);
	return out;
}

/* ------------------------------------------------------------- filters */
static jv *
f_abs(struct rstate *rs, const struct node *at, jv *v, jv **args, size_t nargs,
    char **kwn, jv **kwv, size_t nkw)
{
	(void)args; (void)nargs; (void)kwn; (void)kwv; (void)nkw;
	if (v->kind == JV_INT) {
		if (v->u.i == -9223372036854775807LL - 1)
			return rs_fail(rs, at, "integer overflow");
		return jv_int(v->u.i < 0 ? -v->u.i : v->u.i);
	}
	if (v->kind == JV_BOOL)
		return jv_int(v->u.b);
	if (v->kind == JV_FLOAT)
		return jv_float(fabs(v->u.f));
	return rs_fail(rs, at, "bad operand type for abs(): '%s'", jv_kind_name(v));
}

static jv *
f_attr(struct rstate *rs, const struct node *at, jv *v, jv **args,
    size_t nargs, char **kwn, jv **kwv, size_t nkw)
{
	jv	*n = ARG(0, "name");

	if (n == NULL || n->kind != JV_STR)
		return rs_fail(rs, at, "attr() needs an attribute name");
	return get_attr(rs, at, v, n->u.s.p);
}

static jv *
f_batch(struct rstate *rs, const struct node *at, jv *v, jv **args,
    size_t nargs, char **kwn, jv **kwv, size_t nkw)
{
	long long n;
	jv	*fill = ARG(1, "fill_with"), *items, *out, *cur = NULL;
	size_t	i;

	if (!int_of(ARG(0, "linecount"), &n) || n <= 0)
		return rs_fail(rs, at, "batch() needs a positive count");
	if ((items = iter_list(rs, at, v)) == NULL)
		return NULL;
	out = jv_list();
	for (i = 0; i < items->u.l.n; i++) {
		if (cur == NULL)
			cur = jv_list();
		jv_list_push(cur, jv_ref(items->u.l.v[i]));
		if ((long long)cur->u.l.n == n) {
			jv_list_push(out, cur);
			cur = NULL;
		}
	}
	if (cur) {
		if (fill && fill->kind != JV_NONE)
			while ((long long)cur->u.l.n < n)
				jv_list_push(cur, jv_ref(fill));
		jv_list_push(out, cur);
	}
	jv_unref(items);
	return gen_of(out);
}

/* The capitalize, lower and upper filters: str_case's how on v as text. */
static jv *
case_filter(struct rstate *rs, jv *v, int how)
{
	jv	*s = soft_str(rs, v), *r;

	if (s == NULL)
		return NULL;
	r = jv_keep_safe(s, str_case(s, how));
	jv_unref(s);
	return r;
}

static jv *
f_capitalize(struct rstate *rs, const struct node *at, jv *v, jv **args,
    size_t nargs, char **kwn, jv **kwv, size_t nkw)
{
	(void)at; (void)args; (void)nargs; (void)kwn; (void)kwv; (void)nkw;
	return case_filter(rs, v, 'c');
}

static jv *
f_center(struct rstate *rs, const struct node *at, jv *v, jv **args,
    size_t nargs, char **kwn, jv **kwv, size_t nkw)
{
	long long w = 80;
	jv	*s = soft_str(rs, v);
	struct buf b = { 0 };
	size_t	n, l, r, i;

	if (s == NULL)
		return NULL;
	if (ARG(0, "width") && !int_of(ARG(0, "width"), &w)) {
		jv_unref(s);
		return rs_fail(rs, at, "center() width must be an integer");
	}
	n = jv_str_cps(s);
	if ((long long)n >= w)
		return s;
	/* Too wide is an error, as for the other filters, not cut short. */
	if ((unsigned long long)(w - (long long)n) > rs->lim.max_output ||
	    s->u.s.n > rs->lim.max_output - (size_t)(w - (long long)n)) {
		jv_unref(s);
		return rs_fail(rs, at, "center() result too large");
	}
	/* Python: left = pad/2 + (pad & width & 1) */
	l = (size_t)(w - (long long)n) / 2 + ((size_t)(w - (long long)n) & (size_t)w & 1);
	r = (size_t)(w - (long long)n) - l;
	for (i = 0; i < l; i++)
		buf_addc(&b, ' ');
	buf_add(&b, s->u.s.p, s->u.s.n);
	for (i = 0; i < r; i++)
		buf_addc(&b, ' ');
	{
		jv *res = jv_keep_safe(s, str_of(&b));

		jv_unref(s);
		return res;
	}
}

static jv *
f_length(struct rstate *rs, const struct node *at, jv *v, jv **args,
    size_t nargs, char **kwn, jv **kwv, size_t nkw)
{
	(void)args; (void)nargs; (void)kwn; (void)kwv; (void)nkw;
	switch (v->kind) {
	case JV_UNDEFINED:
		return jv_int(0);
	case JV_STR:
		return jv_int((long long)jv_str_cps(v));
	case JV_LIST:
		if (v->flags & JVF_GEN)
			break;
		return jv_int((long long)v->u.l.n);
	case JV_DICT:
		if (v->flags & (JVF_NAMESPACE | JVF_LOOP))
			break;
		return jv_int((long long)v->u.d.n);
	default:
		break;
	}
	return rs_fail(rs, at, "object of type '%s' has no len()", jv_kind_name(v));
}

static jv *
f_default(struct rstate *rs, const struct node *at, jv *v, jv **args,
    size_t nargs, char **kwn, jv **kwv, size_t nkw)
{
	jv	*d = ARG(0, "default_value");
	int	boolean = truthy_arg(ARG(1, "boolean"), 0);

	(void)rs; (void)at;
	if (v->kind == JV_UNDEFINED || (boolean && !jv_truthy(v)))
		return d ? jv_ref(d) : jv_str("", 0);
	return jv_ref(v);
}

static jv *
f_dictsort(struct rstate *rs, const struct node *at, jv *v, jv **args,
    size_t nargs, char **kwn, jv **kwv, size_t nkw)
{
	int	cs = truthy_arg(ARG(0, "case_sensitive"), 0);
	jv	*by = ARG(1, "by");
	int	rev = truthy_arg(ARG(2, "reverse"), 0), pos = 0;
	jv	*items, **keys;
	size_t	i;

	if (v->kind != JV_DICT || (v->flags & (JVF_NAMESPACE | JVF_LOOP)))
		return rs_fail(rs, at, "dictsort() needs a mapping");
	if (by && by->kind == JV_STR && !strcmp(by->u.s.p, "value"))
		pos = 1;
	else if (by && !(by->kind == JV_STR && !strcmp(by->u.s.p, "key")))
		return rs_fail(rs, at, "You can only sort by either \"key\" or \"value\"");
	items = jv_list();
	keys = xcalloc(v->u.d.n + 1, sizeof *keys);
	for (i = 0; i < v->u.d.n; i++) {
		jv	*t = jv_tuple(), *k = pos ? v->u.d.v[i] : v->u.d.k[i];

		jv_list_push(t, jv_ref(v->u.d.k[i]));
		jv_list_push(t, jv_ref(v->u.d.v[i]));
		jv_list_push(items, t);
		keys[i] = cs ? jv_ref(k) : fold(k);
	}
	{
		jv *r = sort_by(rs, at, items, keys, rev);

		free(keys);
		jv_unref(items);
		return r;
	}
}

static jv *
f_escape(struct rstate *rs, const struct node *at, jv *v, jv **args,
    size_t nargs, char **kwn, jv **kwv, size_t nkw)
{
	struct buf b = { 0 };
	jv	*s;

	(void)at; (void)args; (void)nargs; (void)kwn; (void)kwv; (void)nkw;
	if (v->kind == JV_STR && (v->flags & JVF_SAFE))
		return jv_ref(v);
	if ((s = soft_str(rs, v)) == NULL)
		return NULL;
	html_escape(&b, s->u.s.p, s->u.s.n);
	jv_unref(s);
	return jv_mark_safe(str_of(&b));
}

static jv *
f_first(struct rstate *rs, const struct node *at, jv *v, jv **args,
    size_t nargs, char **kwn, jv **kwv, size_t nkw)
{
	jv	*l, *r;
	size_t	i;

	(void)args; (void)nargs; (void)kwn; (void)kwv; (void)nkw;
	if (v->kind == JV_LIST && (v->flags & JVF_GEN)) {
		/* next(): takes one item off the generator */
		if (v->u.l.n == 0)
			return jv_undefined_hint("No first item, sequence was empty.");
		r = v->u.l.v[0];
		for (i = 1; i < v->u.l.n; i++)
			v->u.l.v[i - 1] = v->u.l.v[i];
		v->u.l.n--;
		return r;
	}
	if ((l = iter_list(rs, at, v)) == NULL)
		return NULL;
	r = l->u.l.n ? jv_ref(l->u.l.v[0]) :
	    jv_undefined_hint("No first item, sequence was empty.");
	jv_unref(l);
	return r;
}

static jv *
f_last(struct rstate *rs, const struct node *at, jv *v, jv **args,
    size_t nargs, char **kwn, jv **kwv, size_t nkw)
{
	jv	*l, *r;

	(void)args; (void)nargs; (void)kwn; (void)kwv; (void)nkw;
	if (v->kind == JV_LIST && (v->flags & JVF_GEN))
		return rs_fail(rs, at, "'generator' object is not reversible");
	if (v->kind == JV_DICT && !(v->flags & (JVF_NAMESPACE | JVF_LOOP)))
		return rs_fail(rs, at, "'dict' object is not reversible");
	if ((l = iter_list(rs, at, v)) == NULL)
		return NULL;
	r = l->u.l.n ? jv_ref(l->u.l.v[l->u.l.n - 1]) :
	    jv_undefined_hint("No last item, sequence was empty.");
	jv_unref(l);
	return r;
}

/* Python's float() of a string: strip, then a decimal or inf/nan. */
static int
parse_float(jv *s, double *out)
{
	jv	*t = str_strip(s, NULL, 1, 1);
	char	*buf = xmalloc(t->u.s.n + 1), *e;
	size_t	i, n = 0;
	int	ok;

	for (i = 0; i < t->u.s.n; i++) {
		char c = t->u.s.p[i];

		if (c == '_') {
			if (i == 0 || i + 1 == t->u.s.n || !(t->u.s.p[i - 1] >= '0' &&
			    t->u.s.p[i - 1] <= '9') || !(t->u.s.p[i + 1] >= '0' &&
			    t->u.s.p[i + 1] <= '9')) {
				free(buf);
				jv_unref(t);
				return 0;
			}
			continue;
		}
		buf[n++] = c;
	}
	buf[n] = '\0';
	ok = n > 0 && !(buf[0] == '0' && (buf[1] | 0x20) == 'x') &&
	    !((buf[0] == '-' || buf[0] == '+') && buf[1] == '0' &&
	    (buf[2] | 0x20) == 'x');
	if (ok) {
		*out = strtod(buf, &e);
		ok = *e == '\0';
		if (ok) {	/* strtod takes "infinity", "nan(...)": Python takes inf, infinity, nan */
			const char *q = buf + (buf[0] == '-' || buf[0] == '+');

			if (((*q | 0x20) == 'n' && strlen(q) != 3))
				ok = 0;
		}
	}
	free(buf);
	jv_unref(t);
	return ok;
}

/* Python's int() of a string in a base. */
static int
parse_int(jv *s, long long base, long long *out)
{
	jv	*t = str_strip(s, NULL, 1, 1);
	const char *p = t->u.s.p, *e = p + t->u.s.n;
	int	neg = 0, any = 0;
	unsigned long long v = 0;

	if (p < e && (*p == '-' || *p == '+'))
		neg = *p++ == '-';
	if (base == 0 || base == 16 || base == 8 || base == 2) {
		if (e - p >= 2 && p[0] == '0' && strchr("xXoObB", p[1])) {
			int	b = (p[1] | 0x20) == 'x' ? 16 : (p[1] | 0x20) == 'o' ? 8 : 2;

			if (base == 0 || base == b) {
				base = b;
				p += 2;
				if (p < e && *p == '_')
					p++;
			}
		}
		if (base == 0)
			base = 10;
	}
	if (base < 2 || base > 36) {
		jv_unref(t);
		return 0;
	}
	for (; p < e; p++) {
		int	d;

		if (*p == '_' && any && p + 1 < e && p[1] != '_')
			continue;
		if (*p >= '0' && *p <= '9')
			d = *p - '0';
		else if ((*p | 0x20) >= 'a' && (*p | 0x20) <= 'z')
			d = (*p | 0x20) - 'a' + 10;
		else
			break;
		if (d >= base)
			break;
		if (v > (9223372036854775807ULL - (unsigned)d) / (unsigned long long)base)
			break;
		v = v * (unsigned long long)base + (unsigned)d;
		any = 1;
	}
	jv_unref(t);
	if (p != e || !any)
		return 0;
	*out = neg ? -(long long)v : (long long)v;
	return 1;
}

static jv *
f_float(struct rstate *rs, const struct node *at, jv *v, jv **args,
    size_t nargs, char **kwn, jv **kwv, size_t nkw)
{
	jv	*d = ARG(0, "default");
	double	x;

	(void)rs; (void)at;
	if (jv_is_number(v))
		return jv_float(jv_num(v));
	if (v->kind == JV_STR && parse_float(v, &x))
		return jv_float(x);
	if (v->kind == JV_UNDEFINED)
		return rs_fail(rs, at, "%s", v->u.s.p ? v->u.s.p : "value is undefined");
	return d ? jv_ref(d) : jv_float(0.0);
}

static jv *
f_int(struct rstate *rs, const struct node *at, jv *v, jv **args,
    size_t nargs, char **kwn, jv **kwv, size_t nkw)
{
	jv	*d = ARG(0, "default");
	long long base = 10, x;
	double	f;

	int_of(ARG(1, "base"), &base);
	if (v->kind == JV_INT)
		return jv_ref(v);
	if (v->kind == JV_BOOL)
		return jv_int(v->u.b);
	if (v->kind == JV_FLOAT) {
		if (isfinite(v->u.f) && fabs(v->u.f) < 9.2e18)
			return jv_int((long long)v->u.f);
		if (isnan(v->u.f) || isinf(v->u.f))
			return d ? jv_ref(d) : jv_int(0);
		return rs_fail(rs, at, "integer too large");
	}
	if (v->kind == JV_STR) {
		if (parse_int(v, base, &x))
			return jv_int(x);
		if (parse_float(v, &f) && isfinite(f) && fabs(f) < 9.2e18)
			return jv_int((long long)f);
	}
	if (v->kind == JV_UNDEFINED)
		return rs_fail(rs, at, "%s", v->u.s.p ? v->u.s.p : "value is undefined");
	return d ? jv_ref(d) : jv_int(0);
}

static jv *
f_indent(struct rstate *rs, const struct node *at, jv *v, jv **args,
    size_t nargs, char **kwn, jv **kwv, size_t nkw)
{
	jv	*w = ARG(0, "width"), *s;
	int	first = truthy_arg(ARG(1, "first"), 0);
	int	blank = truthy_arg(ARG(2, "blank"), 0);
	struct buf ind = { 0 }, b = { 0 };
	const char *p, *e, *q;
	long long n = 4, i;
	int	line = 0;

	if (w && w->kind == JV_STR)
		buf_add(&ind, w->u.s.p, w->u.s.n);
	else {
		if (w && !int_of(w, &n))
			return rs_fail(rs, at, "indent() width must be an integer or a string");
		for (i = 0; i < n && i < 10000; i++)
			buf_addc(&ind, ' ');
	}
	if ((s = soft_str(rs, v)) == NULL) {
		free(ind.p);
		return NULL;
	}
	b.limit = rs->lim.max_output;
	if (first)
		buf_add(&b, ind.p, ind.n);
	/* lines as str.splitlines() cuts s + "\n" (joined again with "\n") */
	p = s->u.s.p;
	e = p + s->u.s.n;
	for (;;) {
		const char *nx = e;
		size_t	k = 0;
		uint32_t c = 0;

		for (q = p; q < e; q += k) {
			k = utf8_dec(q, (size_t)(e - q), &c);
			if (c == '\n' || c == '\r' || c == '\v' || c == '\f' ||
			    (c >= 0x1c && c <= 0x1e) || c == 0x85 || c == 0x2028 ||
			    c == 0x2029)
				break;
		}
		if (line > 0) {
			buf_addc(&b, '\n');
			if (blank || q > p)
				buf_add(&b, ind.p, ind.n);
		}
		buf_add(&b, p, (size_t)(q - p));
		line++;
		if (q >= e)
			break;
		nx = q + k;
		if (c == '\r' && nx < e && *nx == '\n')
			nx++;
		p = nx;
	}
	free(ind.p);
	if (b.over) {
		jv_unref(s);
		free(b.p);
		return rs_fail(rs, at, "indent() result too large");
	}
	{
		jv *r = jv_keep_safe(s, str_of(&b));

		jv_unref(s);
		return r;
	}
}

static jv *
f_items(struct rstate *rs, const struct node *at, jv *v, jv **args,
    size_t nargs, char **kwn, jv **kwv, size_t nkw)
{
	jv	*l;
	size_t	i;

	(void)args; (void)nargs; (void)kwn; (void)kwv; (void)nkw;
	if (v->kind == JV_UNDEFINED)
		return gen_of(jv_list());
	if (v->kind != JV_DICT || (v->flags & JVF_LOOP))
		return rs_fail(rs, at, "Can only get item pairs from a mapping.");
	l = jv_list();
	for (i = 0; i < v->u.d.n; i++) {
		jv *t = jv_tuple();

		jv_list_push(t, jv_ref(v->u.d.k[i]));
		jv_list_push(t, jv_ref(v->u.d.v[i]));
		jv_list_push(l, t);
	}
	return gen_of(l);
}

static jv *
f_join(struct rstate *rs, const struct node *at, jv *v, jv **args,
    size_t nargs, char **kwn, jv **kwv, size_t nkw)
{
	jv	*d = ARG(0, "d"), *attr = ARG(1, "attribute"), *l, *ds = NULL;
	struct buf b = { 0 };
	size_t	i;

	if ((l = iter_list(rs, at, v)) == NULL)
		return NULL;
	if (d && (ds = soft_str(rs, d)) == NULL) {
		jv_unref(l);
		return NULL;
	}
	b.limit = rs->lim.max_output;
	for (i = 0; i < l->u.l.n; i++) {
		jv	*it = attr_path(rs, at, l->u.l.v[i], attr, NULL), *s;

		if (it == NULL || (s = soft_str(rs, it)) == NULL) {
			jv_unref(it);
			jv_unref(l);
			jv_unref(ds);
			free(b.p);
			return NULL;
		}
		if (i && ds)
			buf_add(&b, ds->u.s.p, ds->u.s.n);
		buf_add(&b, s->u.s.p, s->u.s.n);
		jv_unref(s);
		jv_unref(it);
	}
	jv_unref(l);
	jv_unref(ds);
	if (b.over) {
		free(b.p);
		return rs_fail(rs, at, "join() result too large");
	}
	return str_of(&b);
}

static jv *
f_list(struct rstate *rs, const struct node *at, jv *v, jv **args,
    size_t nargs, char **kwn, jv **kwv, size_t nkw)
{
	jv	*l, *r;
	size_t	i;

	(void)args; (void)nargs; (void)kwn; (void)kwv; (void)nkw;
	if ((l = iter_list(rs, at, v)) == NULL)
		return NULL;
	if (l == v) {	/* a copy: list() makes a new list */
		r = jv_list();
		for (i = 0; i < l->u.l.n; i++)
			jv_list_push(r, jv_ref(l->u.l.v[i]));
		jv_unref(l);
		return r;
	}
	l->flags &= (unsigned char)~(JVF_GEN | JVF_TUPLE);
	return l;
}

static jv *
f_lower(struct rstate *rs, const struct node *at, jv *v, jv **args,
    size_t nargs, char **kwn, jv **kwv, size_t nkw)
{
	(void)at; (void)args; (void)nargs; (void)kwn; (void)kwv; (void)nkw;
	return case_filter(rs, v, 'l');
}

static jv *
f_upper(struct rstate *rs, const struct node *at, jv *v, jv **args,
    size_t nargs, char **kwn, jv **kwv, size_t nkw)
{
	(void)at; (void)args; (void)nargs; (void)kwn; (void)kwv; (void)nkw;
	return case_filter(rs, v, 'u');
}

static jv *
f_map(struct rstate *rs, const struct node *at, jv *v, jv **args,
    size_t nargs, char **kwn, jv **kwv, size_t nkw)
{
	jv	*l, *out, *attr = NULL, *dflt = NULL;
	size_t	i, k;

	if (!jv_truthy(v))	/* a false value maps to nothing, whatever it is */
		return gen_of(jv_list());
	if (nargs == 0) {
		for (k = 0; k < nkw; k++) {
			if (!strcmp(kwn[k], "attribute"))
				attr = kwv[k];
			else if (!strcmp(kwn[k], "default"))
				dflt = kwv[k];
			else
				return rs_fail(rs, at, "Unexpected keyword argument '%s'", kwn[k]);
		}
		if (attr == NULL)
			return rs_fail(rs, at, "map requires a filter argument");
	} else if (args[0]->kind != JV_STR)
		return rs_fail(rs, at, "map() needs the name of a filter");
	if ((l = iter_list(rs, at, v)) == NULL)
		return NULL;
	out = jv_list();
	for (i = 0; i < l->u.l.n; i++) {
		jv	*r;

		if (attr)
			r = attr_path(rs, at, l->u.l.v[i], attr,
			    dflt && dflt->kind != JV_NONE ? dflt : NULL);
		else
			r = apply_filter(rs, at, args[0]->u.s.p, l->u.l.v[i],
			    args + 1, nargs - 1, kwn, kwv, nkw);
		if (r == NULL) {
			jv_unref(l);
			jv_unref(out);
			return NULL;
		}
		jv_list_push(out, r);
	}
	jv_unref(l);
	return gen_of(out);
}

static jv *
minmax(struct rstate *rs, const struct node *at, jv *v, jv **args,
    size_t nargs, char **kwn, jv **kwv, size_t nkw, int max)
{
	int	cs = truthy_arg(ARG(0, "case_sensitive"), 0), c;
	jv	*attr = ARG(1, "attribute"), *l, *best = NULL, *bk = NULL;
	size_t	i;

	if ((l = iter_list(rs, at, v)) == NULL)
		return NULL;
	for (i = 0; i < l->u.l.n; i++) {
		jv	*k = attr_path(rs, at, l->u.l.v[i], attr, NULL), *f;

		if (k == NULL)
			goto bad;
		f = cs ? jv_ref(k) : fold(k);
		jv_unref(k);
		if (bk == NULL) {
			best = l->u.l.v[i];
			bk = f;
			continue;
		}
		if (py_cmp(rs, at, f, bk, &c)) {
			jv_unref(f);
			goto bad;
		}
		if (max ? c > 0 : c < 0) {
			jv_unref(bk);
			bk = f;
			best = l->u.l.v[i];
		} else
			jv_unref(f);
	}
	jv_unref(bk);
	best = best ? jv_ref(best) : jv_undefined_hint("No aggregated item, sequence was empty.");
	jv_unref(l);
	return best;
bad:
	jv_unref(bk);
	jv_unref(l);
	return NULL;
}

static jv *
f_max(struct rstate *rs, const struct node *at, jv *v, jv **args,
    size_t nargs, char **kwn, jv **kwv, size_t nkw)
{
	return minmax(rs, at, v, args, nargs, kwn, kwv, nkw, 1);
}

static jv *
f_min(struct rstate *rs, const struct node *at, jv *v, jv **args,
    size_t nargs, char **kwn, jv **kwv, size_t nkw)
{
	return minmax(rs, at, v, args, nargs, kwn, kwv, nkw, 0);
}

/* select, reject, selectattr, rejectattr */
static jv *
selrej(struct rstate *rs, const struct node *at, jv *v, jv **args,
    size_t nargs, char **kwn, jv **kwv, size_t nkw, int keep, int byattr)
{
	jv	*l, *out, *attr = NULL;
	const char *test = NULL;
	size_t	i, off = 0;

	(void)kwn; (void)kwv; (void)nkw;
	if (!jv_truthy(v))	/* a false value selects nothing, whatever it is */
		return gen_of(jv_list());
	if (byattr) {
		if (nargs < 1)
			return rs_fail(rs, at, "Missing parameter for attribute name");
		attr = args[0];
		off = 1;
	}
	if (nargs > off) {
		if (args[off]->kind != JV_STR)
			return rs_fail(rs, at, "the test name must be a string");
		test = args[off]->u.s.p;
		if (!has_test(test))
			return rs_fail(rs, at, "No test named '%s'.", test);
	}
	if ((l = iter_list(rs, at, v)) == NULL)
		return NULL;
	out = jv_list();
	for (i = 0; i < l->u.l.n; i++) {
		jv	*it = attr ? attr_path(rs, at, l->u.l.v[i], attr, NULL) :
		    jv_ref(l->u.l.v[i]);
		int	t;

		if (it == NULL)
			goto bad;
		if (test)
			t = apply_test(rs, at, test, it, args + off + 1,
			    nargs - off - 1);
		else
			t = jv_truthy(it);
		jv_unref(it);
		if (t < 0)
			goto bad;
		if (t == keep)
			jv_list_push(out, jv_ref(l->u.l.v[i]));
	}
	jv_unref(l);
	return gen_of(out);
bad:
	jv_unref(l);
	jv_unref(out);
	return NULL;
}

static jv *
f_select(struct rstate *rs, const struct node *at, jv *v, jv **args,
    size_t nargs, char **kwn, jv **kwv, size_t nkw)
{
	return selrej(rs, at, v, args, nargs, kwn, kwv, nkw, 1, 0);
}

static jv *
f_reject(struct rstate *rs, const struct node *at, jv *v, jv **args,
    size_t nargs, char **kwn, jv **kwv, size_t nkw)
{
	return selrej(rs, at, v, args, nargs, kwn, kwv, nkw, 0, 0);
}

static jv *
f_selectattr(struct rstate *rs, const struct node *at, jv *v, jv **args,
    size_t nargs, char **kwn, jv **kwv, size_t nkw)
{
	return selrej(rs, at, v, args, nargs, kwn, kwv, nkw, 1, 1);
}

static jv *
f_rejectattr(struct rstate *rs, const struct node *at, jv *v, jv **args,
    size_t nargs, char **kwn, jv **kwv, size_t nkw)
{
	return selrej(rs, at, v, args, nargs, kwn, kwv, nkw, 0, 1);
}

static jv *
f_replace(struct rstate *rs, const struct node *at, jv *v, jv **args,
    size_t nargs, char **kwn, jv **kwv, size_t nkw)
{
	jv	*old = ARG(0, "old"), *new = ARG(1, "new"), *cnt = ARG(2, "count");
	jv	*s, *o, *n, *r;
	long long c = -1;

	if (old == NULL || new == NULL)
		return rs_fail(rs, at, "replace() needs the old and the new text");
	if (cnt && cnt->kind != JV_NONE && !int_of(cnt, &c))
		return rs_fail(rs, at, "replace() count must be an integer");
	if ((s = soft_str(rs, v)) == NULL)
		return NULL;
	if ((o = soft_str(rs, old)) == NULL) {
		jv_unref(s);
		return NULL;
	}
	if ((n = soft_str(rs, new)) == NULL) {
		jv_unref(s);
		jv_unref(o);
		return NULL;
	}
	r = str_replace(rs, s, o, n, c);
	jv_unref(s);
	jv_unref(o);
	jv_unref(n);
	return r;
}

static jv *
f_reverse(struct rstate *rs, const struct node *at, jv *v, jv **args,
    size_t nargs, char **kwn, jv **kwv, size_t nkw)
{
	jv	*l, *out;
	size_t	i;

	(void)args; (void)nargs; (void)kwn; (void)kwv; (void)nkw;
	if (v->kind == JV_STR) {
		jv *zero = jv_none(), *step = jv_int(-1);
		struct buf b = { 0 };
		size_t	k;

		(void)zero; (void)step;
		jv_unref(zero);
		jv_unref(step);
		for (i = v->u.s.n; i > 0; i = k) {
			k = i - 1;
			while (k > 0 && ((unsigned char)v->u.s.p[k] & 0xc0) == 0x80)
				k--;
			buf_add(&b, v->u.s.p + k, i - k);
		}
		return str_of(&b);
	}
	if ((l = iter_list(rs, at, v)) == NULL)
		return NULL;
	out = jv_list();
	for (i = l->u.l.n; i > 0; i--)
		jv_list_push(out, jv_ref(l->u.l.v[i - 1]));
	jv_unref(l);
	return gen_of(out);
}

static jv *
f_round(struct rstate *rs, const struct node *at, jv *v, jv **args,
    size_t nargs, char **kwn, jv **kwv, size_t nkw)
{
	long long prec = 0;
	jv	*m = ARG(1, "method");
	double	x, p;
	char	tmp[400];

	if (ARG(0, "precision") && !int_of(ARG(0, "precision"), &prec))
		return rs_fail(rs, at, "round() precision must be an integer");
	if (!jv_is_number(v))
		return rs_fail(rs, at, "type %s doesn't define __round__ method",
		    jv_kind_name(v));
	if (m && !(m->kind == JV_STR && (!strcmp(m->u.s.p, "common") ||
	    !strcmp(m->u.s.p, "ceil") || !strcmp(m->u.s.p, "floor"))))
		return rs_fail(rs, at, "method must be common, ceil or floor");
	x = jv_num(v);
	if (m && strcmp(m->u.s.p, "common")) {
		p = gguf_pow(10, (double)prec);
		x = m->u.s.p[0] == 'c' ? ceil(x * p) / p : floor(x * p) / p;
		return jv_float(x);
	}
	if (v->kind != JV_FLOAT)	/* round(int, n) stays an int */
		return jv_int(v->kind == JV_INT ? v->u.i : v->u.b);
	if (!isfinite(x))
		return jv_float(x);
	if (prec > 300 || prec < -300)
		return jv_float(prec > 0 ? x : 0.0 * x);
	if (prec >= 0) {
		snprintf(tmp, sizeof tmp, "%.*f", (int)prec, x);
		return jv_float(strtod(tmp, NULL));
	}
	p = gguf_pow(10, (double)-prec);
	snprintf(tmp, sizeof tmp, "%.0f", x / p);
	return jv_float(strtod(tmp, NULL) * p);
}

static jv *
f_safe(struct rstate *rs, const struct node *at, jv *v, jv **args,
    size_t nargs, char **kwn, jv **kwv, size_t nkw)
{
	(void)at; (void)args; (void)nargs; (void)kwn; (void)kwv; (void)nkw;
	return jv_mark_safe(soft_str(rs, v));
}

static jv *
f_sort(struct rstate *rs, const struct node *at, jv *v, jv **args,
    size_t nargs, char **kwn, jv **kwv, size_t nkw)
{
	int	rev = truthy_arg(ARG(0, "reverse"), 0);
	int	cs = truthy_arg(ARG(1, "case_sensitive"), 0);
	jv	*attr = ARG(2, "attribute"), *l, **keys, *r;
	size_t	i;

	if ((l = iter_list(rs, at, v)) == NULL)
		return NULL;
	keys = xcalloc(l->u.l.n + 1, sizeof *keys);
	for (i = 0; i < l->u.l.n; i++) {
		jv *k = attr_path(rs, at, l->u.l.v[i], attr, NULL);

		if (k == NULL) {
			while (i > 0)
				jv_unref(keys[--i]);
			free(keys);
			jv_unref(l);
			return NULL;
		}
		keys[i] = cs ? jv_ref(k) : fold(k);
		jv_unref(k);
	}
	r = sort_by(rs, at, l, keys, rev);
	free(keys);
	jv_unref(l);
	return r;
}

static jv *
f_string(struct rstate *rs, const struct node *at, jv *v, jv **args,
    size_t nargs, char **kwn, jv **kwv, size_t nkw)
{
	(void)at; (void)args; (void)nargs; (void)kwn; (void)kwv; (void)nkw;
	return soft_str(rs, v);
}

static jv *
f_sum(struct rstate *rs, const struct node *at, jv *v, jv **args,
    size_t nargs, char **kwn, jv **kwv, size_t nkw)
{
	jv	*attr = ARG(0, "attribute"), *start = ARG(1, "start"), *l, *acc;
	size_t	i;

	if ((l = iter_list(rs, at, v)) == NULL)
		return NULL;
	acc = start ? jv_ref(start) : jv_int(0);
	for (i = 0; i < l->u.l.n; i++) {
		jv	*it = attr_path(rs, at, l->u.l.v[i], attr, NULL), *n;
		long long a, b, r;

		if (it == NULL)
			goto bad;
		if (int_of(acc, &a) && int_of(it, &b)) {
			if (__builtin_add_overflow(a, b, &r)) {
				jv_unref(it);
				rs_fail(rs, at, "integer overflow");
				goto bad;
			}
			n = jv_int(r);
		} else if (jv_is_number(acc) && jv_is_number(it))
			n = jv_float(jv_num(acc) + jv_num(it));
		else {
			rs_fail(rs, at, "unsupported operand type(s) for +: '%s' and '%s'",
			    jv_kind_name(acc), jv_kind_name(it));
			jv_unref(it);
			goto bad;
		}
		jv_unref(it);
		jv_unref(acc);
		acc = n;
	}
	jv_unref(l);
	return acc;
bad:
	jv_unref(acc);
	jv_unref(l);
	return NULL;
}

/* jinja2's title: words start after "-", whitespace and opening brackets. */
/* What starts a word for the title filter: jinja2's [-\s({\[<]. */
static int
title_sep(uint32_t c)
{
	return c == '-' || py_isspace(c) || c == '(' || c == '{' ||
	    c == '[' || c == '<';
}

static jv *
f_title(struct rstate *rs, const struct node *at, jv *v, jv **args,
    size_t nargs, char **kwn, jv **kwv, size_t nkw)
{
	jv	*s = soft_str(rs, v), *r;
	struct buf b = { 0 };
	size_t	i, k, w, kw;
	uint32_t c;

	(void)at; (void)args; (void)nargs; (void)kwn; (void)kwv; (void)nkw;
	if (s == NULL)
		return NULL;
	/* jinja2: each word's first letter upper, the rest lower, alone */
	for (i = 0; i < s->u.s.n; i += k) {
		k = utf8_dec(s->u.s.p + i, s->u.s.n - i, &c);
		if (title_sep(c)) {
			buf_add(&b, s->u.s.p + i, k);
			continue;
		}
		case_add(&b, s->u.s.p + i, k, 'u');
		for (w = i + k; w < s->u.s.n; w += kw) {
			kw = utf8_dec(s->u.s.p + w, s->u.s.n - w, &c);
			if (title_sep(c))
				break;
		}
		case_add(&b, s->u.s.p + i + k, w - i - k, 'l');
		k = w - i;
	}
	r = jv_keep_safe(s, str_of(&b));
	jv_unref(s);
	return r;
}

static jv *
f_tojson(struct rstate *rs, const struct node *at, jv *v, jv **args,
    size_t nargs, char **kwn, jv **kwv, size_t nkw)
{
	jv	*ea = ARG(0, "ensure_ascii"), *ind = ARG(1, "indent");
	jv	*sep = ARG(2, "separators"), *sk = ARG(3, "sort_keys");
	struct json_opts o = { NULL, ", ", ": ", 0, 0 };
	struct buf b = { 0 }, ib = { 0 };
	char	msg[200];
	long long n, i;

	o.ensure_ascii = ea && jv_truthy(ea);
	if (ind && ind->kind != JV_NONE) {
		if (ind->kind == JV_STR)
			buf_add(&ib, ind->u.s.p, ind->u.s.n);
		else if (int_of(ind, &n)) {
			for (i = 0; i < n && i < 1000; i++)
				buf_addc(&ib, ' ');
		} else
			return rs_fail(rs, at, "tojson: indent must be an integer or a string");
		if (ib.p == NULL)
			buf_add(&ib, "", 0);
		o.indent = ib.p;
		o.item_sep = ",";
	}
	if (sep && sep->kind != JV_NONE) {
		if (sep->kind != JV_LIST || sep->u.l.n != 2 ||
		    sep->u.l.v[0]->kind != JV_STR || sep->u.l.v[1]->kind != JV_STR) {
			free(ib.p);
			return rs_fail(rs, at, "tojson: separators must be a pair of strings");
		}
		o.item_sep = sep->u.l.v[0]->u.s.p;
		o.key_sep = sep->u.l.v[1]->u.s.p;
	}
	o.sort_keys = sk && jv_truthy(sk);
	b.limit = rs->lim.max_output;
	if (json_dump(&b, v, &o, 0, msg, sizeof msg)) {
		free(ib.p);
		free(b.p);
		if (v->kind == JV_UNDEFINED)
			return rs_fail(rs, at, "Object of type Undefined is not JSON serializable");
		return rs_fail(rs, at, "%s", msg);
	}
	free(ib.p);
	if (b.over) {
		free(b.p);
		return rs_fail(rs, at, "tojson result too large");
	}
	return str_of(&b);
}

static jv *
f_trim(struct rstate *rs, const struct node *at, jv *v, jv **args,
    size_t nargs, char **kwn, jv **kwv, size_t nkw)
{
	jv	*chars = ARG(0, "chars"), *s, *r;

	if (chars && chars->kind != JV_NONE && chars->kind != JV_STR)
		return rs_fail(rs, at, "strip arg must be None or str");
	if ((s = soft_str(rs, v)) == NULL)
		return NULL;
	r = jv_keep_safe(s, str_strip(s, chars, 1, 1));
	jv_unref(s);
	return r;
}

static jv *
f_truncate(struct rstate *rs, const struct node *at, jv *v, jv **args,
    size_t nargs, char **kwn, jv **kwv, size_t nkw)
{
	long long len = 255, leeway = 5;
	int	killwords = truthy_arg(ARG(1, "killwords"), 0);
	jv	*end = ARG(2, "end"), *s, *cut, *r;
	const char *ends = end && end->kind == JV_STR ? end->u.s.p : "...";
	size_t	n, endn = strlen(ends);
	struct buf b = { 0 };

	if (ARG(0, "length"))
		int_of(ARG(0, "length"), &len);
	if (ARG(3, "leeway"))
		int_of(ARG(3, "leeway"), &leeway);
	if ((s = soft_str(rs, v)) == NULL)
		return NULL;
	n = jv_str_cps(s);
	if (len < (long long)endn)
		return jv_unref(s), rs_fail(rs, at, "expected length >= %zu, got %lld", endn, len);
	if ((long long)n <= len + leeway)
		return s;
	cut = str_slice_cp(s, 0, (size_t)(len - (long long)endn));
	if (!killwords) {
		const char *p = cut->u.s.p, *sp = NULL;
		size_t	i;

		for (i = cut->u.s.n; i > 0; i--)
			if (p[i - 1] == ' ') {
				sp = p + i - 1;
				break;
			}
		buf_add(&b, p, sp ? (size_t)(sp - p) : cut->u.s.n);
	} else
		buf_add(&b, cut->u.s.p, cut->u.s.n);
	buf_adds(&b, ends);
	jv_unref(cut);
	jv_unref(s);
	r = str_of(&b);
	(void)at;
	return r;
}

static jv *
f_unique(struct rstate *rs, const struct node *at, jv *v, jv **args,
    size_t nargs, char **kwn, jv **kwv, size_t nkw)
{
	int	cs = truthy_arg(ARG(0, "case_sensitive"), 0);
	jv	*attr = ARG(1, "attribute"), *l, *out, *seen;
	size_t	i, j;

	if ((l = iter_list(rs, at, v)) == NULL)
		return NULL;
	out = jv_list();
	seen = jv_list();
	for (i = 0; i < l->u.l.n; i++) {
		jv	*k = attr_path(rs, at, l->u.l.v[i], attr, NULL), *f;
		int	dup = 0;

		if (k == NULL) {
			jv_unref(l);
			jv_unref(out);
			jv_unref(seen);
			return NULL;
		}
		f = cs ? jv_ref(k) : fold(k);
		jv_unref(k);
		for (j = 0; j < seen->u.l.n && !dup; j++)
			dup = jv_equal(seen->u.l.v[j], f);
		if (dup) {
			jv_unref(f);
			continue;
		}
		jv_list_push(seen, f);
		jv_list_push(out, jv_ref(l->u.l.v[i]));
	}
	jv_unref(l);
	jv_unref(seen);
	return gen_of(out);
}

static jv *
f_wordcount(struct rstate *rs, const struct node *at, jv *v, jv **args,
    size_t nargs, char **kwn, jv **kwv, size_t nkw)
{
	jv	*s = soft_str(rs, v);
	size_t	i, k;
	uint32_t c;
	long long n = 0;
	int	in = 0;

	(void)at; (void)args; (void)nargs; (void)kwn; (void)kwv; (void)nkw;
	if (s == NULL)
		return NULL;
	for (i = 0; i < s->u.s.n; i += k) {
		k = utf8_dec(s->u.s.p + i, s->u.s.n - i, &c);
		if (py_isalnum(c)) {
			if (!in)
				n++;
			in = 1;
		} else
			in = 0;
	}
	jv_unref(s);
	return jv_int(n);
}

static jv *
f_format(struct rstate *rs, const struct node *at, jv *v, jv **args,
    size_t nargs, char **kwn, jv **kwv, size_t nkw)
{
	jv	*s, *t, *r;
	size_t	i;

	if (nargs && nkw)
		return rs_fail(rs, at, "can't handle positional and keyword arguments at the same time");
	if ((s = soft_str(rs, v)) == NULL)
		return NULL;
	if (nkw) {
		t = jv_dict();
		for (i = 0; i < nkw; i++)
			jv_dict_set(t, kwn[i], jv_ref(kwv[i]));
	} else {
		t = jv_tuple();
		for (i = 0; i < nargs; i++)
			jv_list_push(t, jv_ref(args[i]));
	}
	r = str_percent(rs, at, s, t);
	jv_unref(s);
	jv_unref(t);
	return r;
}

static const struct {
	const char	*name;
	filter_fn	 fn;
} filters[] = {
	{ "abs", f_abs }, { "attr", f_attr }, { "batch", f_batch },
	{ "capitalize", f_capitalize }, { "center", f_center },
	{ "count", f_length }, { "d", f_default }, { "default", f_default },
	{ "dictsort", f_dictsort }, { "e", f_escape }, { "escape", f_escape },
	{ "first", f_first }, { "float", f_float },
	{ "forceescape", f_escape }, { "format", f_format },
	{ "indent", f_indent }, { "int", f_int }, { "items", f_items },
	{ "join", f_join }, { "last", f_last }, { "length", f_length },
	{ "list", f_list }, { "lower", f_lower }, { "map", f_map },
	{ "max", f_max }, { "min", f_min }, { "reject", f_reject },
	{ "rejectattr", f_rejectattr }, { "replace", f_replace },
	{ "reverse", f_reverse }, { "round", f_round }, { "safe", f_safe },
	{ "select", f_select }, { "selectattr", f_selectattr },
	{ "sort", f_sort }, { "string", f_string }, { "sum", f_sum },
	{ "title", f_title }, { "tojson", f_tojson }, { "trim", f_trim },
	{ "truncate", f_truncate }, { "unique", f_unique },
	{ "upper", f_upper }, { "wordcount", f_wordcount },
};

int
has_filter(const char *name)
{
	size_t	i;

	for (i = 0; i < sizeof filters / sizeof filters[0]; i++)
		if (!strcmp(filters[i].name, name))
			return 1;
	return 0;
}

jv *
apply_filter(struct rstate *rs, const struct node *at, const char *name,
    jv *subject, jv **args, size_t nargs, char **kwn, jv **kwv, size_t nkw)
{
	size_t	i;

	if (rs_step(rs, at))
		return NULL;
	for (i = 0; i < sizeof filters / sizeof filters[0]; i++)
		if (!strcmp(filters[i].name, name))
			return filters[i].fn(rs, at, subject, args, nargs, kwn,
			    kwv, nkw);
	return rs_fail(rs, at, "No filter named '%s' found.", name);
}
