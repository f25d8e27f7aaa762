/*
 * jv.c - values of the template language: construction, reference
 * counting, lists and insertion-ordered dictionaries, truth and equality
 * as Python has them, and the growing byte buffer.
 */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jint.h"
#include "xmalloc.h"

/*
 * The bytes held by the values of this thread: counted always, measured
 * against a budget while one is set (jv_mem_start). Buffers stop growing
 * at the budget; the rest is seen by jv_mem_over.
 */
static _Thread_local long long	mem_live;	/* may go below a start */
static _Thread_local long long	mem_limit;	/* mem_live's ceiling */
static _Thread_local int	mem_on, mem_over, mem_deep;

/*
 * c now holds v: c is at least one level deeper than v. Past
 * JV_MAX_DEPTH levels the rendering is stopped (jv_mem_over), so that
 * what walks values by recursion (freeing, comparing) stays shallow.
 */
static void
nest(jv *c, const jv *v)
{
	unsigned d;

	if (v == NULL || v == c)
		return;
	d = (unsigned)v->depth + 1;
	if (d > c->depth)
		c->depth = d > 0xffff ? 0xffff : (unsigned short)d;
	if (mem_on && c->depth > JV_MAX_DEPTH)
		mem_deep = 1;
}

static void
mem_add(long long n)
{
	mem_live += n;
	if (mem_on && mem_live > mem_limit)
		mem_over = 1;
}

void
jv_mem_start(size_t budget)
{
	mem_on = 1;
	mem_over = 0;
	mem_deep = 0;
	mem_limit = mem_live + (long long)(budget > (size_t)1 << 62 ?
	    (size_t)1 << 62 : budget);
}

void
jv_mem_stop(void)
{
	mem_on = 0;
	mem_over = 0;
	mem_deep = 0;
}

int
jv_mem_over(void)
{
	if (!mem_on)
		return 0;
	return mem_over ? 1 : mem_deep ? 2 : 0;
}

int
jv_mem_room(size_t n)
{
	if (!mem_on)
		return 1;
	if (mem_over || mem_live > mem_limit ||
	    n > (unsigned long long)(mem_limit - mem_live)) {
		mem_over = 1;
		return 0;
	}
	return 1;
}

static jv *
jv_new(int kind)
{
	jv	*v = xcalloc(1, sizeof *v);

	mem_add((long long)sizeof *v);

	v->refs = 1;
	v->kind = (unsigned char)kind;
	return v;
}

jv *
jv_undefined(void)
{
	return jv_new(JV_UNDEFINED);
}

jv *
jv_undefined_hint(const char *fmt, ...)
{
	jv	*v = jv_new(JV_UNDEFINED);
	va_list	 ap;
	char	 tmp[256];

	va_start(ap, fmt);
	vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	v->u.s.p = xstrdup(tmp);
	v->u.s.n = strlen(tmp);
	return v;
}

jv *
jv_none(void)
{
	return jv_new(JV_NONE);
}

jv *
jv_bool(int b)
{
	jv	*v = jv_new(JV_BOOL);

	v->u.b = b != 0;
	return v;
}

jv *
jv_int(long long i)
{
	jv	*v = jv_new(JV_INT);

	v->u.i = i;
	return v;
}

jv *
jv_float(double d)
{
	jv	*v = jv_new(JV_FLOAT);

	v->u.f = d;
	return v;
}

jv *
jv_str_take(char *p, size_t n)
{
	jv	*v = jv_new(JV_STR);

	v->u.s.p = p;
	v->u.s.n = n;
	v->u.s.cps = (size_t)-1;
	mem_add((long long)n + 1);
	return v;
}

jv *
jv_str(const char *s, size_t n)
{
	char	*p = xmalloc(n + 1);

	if (n)
		memcpy(p, s, n);
	p[n] = '\0';
	return jv_str_take(p, n);
}

jv *
jv_cstr(const char *s)
{
	return jv_str(s, strlen(s));
}

jv *
jv_mark_safe(jv *s)
{
	jv	*c;

	if (s == NULL || s->kind != JV_STR || (s->flags & JVF_SAFE))
		return s;
	if (s->refs == 1) {
		s->flags |= JVF_SAFE;
		return s;
	}
	c = jv_str(s->u.s.p, s->u.s.n);
	jv_unref(s);
	c->flags |= JVF_SAFE;
	return c;
}

jv *
jv_keep_safe(const jv *in, jv *out)
{
	if (in->kind == JV_STR && (in->flags & JVF_SAFE))
		return jv_mark_safe(out);
	return out;
}

void
html_escape(struct buf *b, const char *s, size_t n)
{
	size_t	i, r = 0;

	for (i = 0; i < n; i++) {
		const char *e;

		switch (s[i]) {
		case '&': e = "&amp;"; break;
		case '<': e = "&lt;"; break;
		case '>': e = "&gt;"; break;
		case '"': e = "&#34;"; break;
		case '\'': e = "&#39;"; break;
		default: continue;
		}
		buf_add(b, s + r, i - r);
		buf_adds(b, e);
		r = i + 1;
	}
	buf_add(b, s + r, n - r);
}

jv *
jv_list(void)
{
	return jv_new(JV_LIST);
}

jv *
jv_tuple(void)
{
	jv	*v = jv_new(JV_LIST);

	v->flags |= JVF_TUPLE;
	return v;
}

void
jv_list_push(jv *list, jv *v)
{
	if (list->u.l.n == list->u.l.cap) {
		mem_add((long long)((list->u.l.cap ? list->u.l.cap : 4) *
		    sizeof *list->u.l.v));
		list->u.l.cap = list->u.l.cap ? list->u.l.cap * 2 : 4;
		list->u.l.v = xreallocarray(list->u.l.v, list->u.l.cap,
		    sizeof *list->u.l.v);
	}
	list->u.l.v[list->u.l.n++] = v;
	nest(list, v);
}

jv *
jv_dict(void)
{
	return jv_new(JV_DICT);
}

static size_t
dict_find(const jv *d, const jv *key)
{
	size_t	i;

	for (i = 0; i < d->u.d.n; i++)
		if (jv_equal(d->u.d.k[i], key))
			return i;
	return (size_t)-1;
}

static size_t
dict_find_c(const jv *d, const char *k, size_t n)
{
	size_t	i;

	for (i = 0; i < d->u.d.n; i++) {
		const jv *x = d->u.d.k[i];

		if (x->kind == JV_STR && x->u.s.n == n &&
		    memcmp(x->u.s.p, k, n) == 0)
			return i;
	}
	return (size_t)-1;
}

void
jv_dict_setv(jv *d, jv *key, jv *v)
{
	size_t	i = dict_find(d, key);

	if (i != (size_t)-1) {
		jv_unref(key);
		jv_unref(d->u.d.v[i]);
		d->u.d.v[i] = v;
		nest(d, v);
		return;
	}
	if (d->u.d.n == d->u.d.cap) {
		mem_add((long long)((d->u.d.cap ? d->u.d.cap : 4) * 2 *
		    sizeof *d->u.d.k));
		d->u.d.cap = d->u.d.cap ? d->u.d.cap * 2 : 4;
		d->u.d.k = xreallocarray(d->u.d.k, d->u.d.cap, sizeof *d->u.d.k);
		d->u.d.v = xreallocarray(d->u.d.v, d->u.d.cap, sizeof *d->u.d.v);
	}
	d->u.d.k[d->u.d.n] = key;
	d->u.d.v[d->u.d.n++] = v;
	nest(d, key);
	nest(d, v);
}

void
jv_dict_set(jv *d, const char *k, jv *v)
{
	size_t	i = dict_find_c(d, k, strlen(k));

	if (i != (size_t)-1) {
		jv_unref(d->u.d.v[i]);
		d->u.d.v[i] = v;
		nest(d, v);
		return;
	}
	jv_dict_setv(d, jv_cstr(k), v);
}

jv *
jv_dict_get(const jv *d, const char *k)
{
	size_t	i;

	if (d->kind != JV_DICT)
		return NULL;
	i = dict_find_c(d, k, strlen(k));
	return i == (size_t)-1 ? NULL : d->u.d.v[i];
}

jv *
jv_dict_getv(const jv *d, const jv *key)
{
	size_t	i;

	if (d->kind != JV_DICT)
		return NULL;
	i = dict_find(d, key);
	return i == (size_t)-1 ? NULL : d->u.d.v[i];
}

jv *
jv_dict_key(const jv *d, size_t i)
{
	return d->u.d.k[i];
}

jv *
jv_dict_value(const jv *d, size_t i)
{
	return d->u.d.v[i];
}

jv *
jv_list_get(const jv *list, size_t i)
{
	return list->u.l.v[i];
}

jv *
jv_fn_builtin(const char *name, jbuiltin fn, jv *self)
{
	jv	*v = jv_new(JV_CALLABLE);

	v->u.fn = xcalloc(1, sizeof *v->u.fn);
	v->u.fn->type = FN_BUILTIN;
	v->u.fn->name = name;
	v->u.fn->fn = fn;
	v->u.fn->self = self;
	nest(v, self);
	return v;
}

jv *
jv_ref(jv *v)
{
	v->refs++;
	return v;
}

void
jv_unref(jv *v)
{
	size_t	i;

	if (v == NULL || --v->refs > 0)
		return;
	mem_live -= (long long)sizeof *v;
	switch (v->kind) {
	case JV_UNDEFINED:
	case JV_STR:
		if (v->kind == JV_STR)
			mem_live -= (long long)v->u.s.n + 1;
		free(v->u.s.p);
		break;
	case JV_LIST:
		for (i = 0; i < v->u.l.n; i++)
			jv_unref(v->u.l.v[i]);
		mem_live -= (long long)(v->u.l.cap * sizeof *v->u.l.v);
		free(v->u.l.v);
		break;
	case JV_DICT:
		for (i = 0; i < v->u.d.n; i++) {
			jv_unref(v->u.d.k[i]);
			jv_unref(v->u.d.v[i]);
		}
		mem_live -= (long long)(v->u.d.cap * 2 * sizeof *v->u.d.k);
		free(v->u.d.k);
		free(v->u.d.v);
		break;
	case JV_CALLABLE:
		jv_unref(v->u.fn->self);
		jv_unref(v->u.fn->caller);
		free(v->u.fn);
		break;
	}
	free(v);
}

enum jv_kind
jv_kind(const jv *v)
{
	return (enum jv_kind)v->kind;
}

int
jv_bool_value(const jv *v)
{
	return v->u.b;
}

long long
jv_int_value(const jv *v)
{
	return v->u.i;
}

double
jv_float_value(const jv *v)
{
	return v->u.f;
}

const char *
jv_str_ptr(const jv *v)
{
	return v->u.s.p;
}

size_t
jv_str_len(const jv *v)
{
	return v->u.s.n;
}

size_t
jv_len(const jv *v)
{
	return v->kind == JV_LIST ? v->u.l.n : v->kind == JV_DICT ? v->u.d.n : 0;
}

size_t
jv_str_cps(jv *s)
{
	size_t	i, c = 0;

	if (s->u.s.cps != (size_t)-1)
		return s->u.s.cps;
	for (i = 0; i < s->u.s.n; i++)
		if (((unsigned char)s->u.s.p[i] & 0xc0) != 0x80)
			c++;
	s->u.s.cps = c;
	return c;
}

int
jv_is_number(const jv *v)
{
	return v->kind == JV_BOOL || v->kind == JV_INT || v->kind == JV_FLOAT;
}

double
jv_num(const jv *v)
{
	return v->kind == JV_FLOAT ? v->u.f : v->kind == JV_INT ?
	    (double)v->u.i : (double)v->u.b;
}

int
jv_truthy(const jv *v)
{
	switch (v->kind) {
	case JV_UNDEFINED:
	case JV_NONE:
		return 0;
	case JV_BOOL:
		return v->u.b;
	case JV_INT:
		return v->u.i != 0;
	case JV_FLOAT:
		return !f_eq(v->u.f, 0);
	case JV_STR:
		return v->u.s.n != 0;
	case JV_LIST:
		return (v->flags & JVF_GEN) || v->u.l.n != 0;
	case JV_DICT:
		return (v->flags & (JVF_NAMESPACE | JVF_LOOP)) || v->u.d.n != 0;
	default:
		return 1;
	}
}

int
jv_equal(const jv *a, const jv *b)
{
	size_t	i;

	if (a == b)
		return 1;
	if (jv_is_number(a) && jv_is_number(b)) {
		if (a->kind != JV_FLOAT && b->kind != JV_FLOAT) {
			long long x = a->kind == JV_INT ? a->u.i : a->u.b;
			long long y = b->kind == JV_INT ? b->u.i : b->u.b;
			return x == y;
		}
		return f_eq(jv_num(a), jv_num(b));
	}
	if (a->kind != b->kind)
		return 0;
	switch (a->kind) {
	case JV_UNDEFINED:
	case JV_NONE:
		return 1;
	case JV_STR:
		return a->u.s.n == b->u.s.n &&
		    memcmp(a->u.s.p, b->u.s.p, a->u.s.n) == 0;
	case JV_LIST:
		if ((a->flags & JVF_TUPLE) != (b->flags & JVF_TUPLE) ||
		    a->u.l.n != b->u.l.n)
			return 0;
		for (i = 0; i < a->u.l.n; i++)
			if (!jv_equal(a->u.l.v[i], b->u.l.v[i]))
				return 0;
		return 1;
	case JV_DICT:
		if ((a->flags | b->flags) & (JVF_NAMESPACE | JVF_LOOP))
			return 0;
		if (a->u.d.n != b->u.d.n)
			return 0;
		for (i = 0; i < a->u.d.n; i++) {
			const jv *o = jv_dict_getv(b, a->u.d.k[i]);
			if (o == NULL || !jv_equal(a->u.d.v[i], o))
				return 0;
		}
		return 1;
	case JV_CALLABLE:
		return a->u.fn->macro != NULL && a->u.fn->macro == b->u.fn->macro;
	}
	return 0;
}

const char *
jv_kind_name(const jv *v)
{
	switch (v->kind) {
	case JV_UNDEFINED:
		return "Undefined";
	case JV_NONE:
		return "NoneType";
	case JV_BOOL:
		return "bool";
	case JV_INT:
		return "int";
	case JV_FLOAT:
		return "float";
	case JV_STR:
		return "str";
	case JV_LIST:
		return v->flags & JVF_TUPLE ? "tuple" : v->flags & JVF_GEN ?
		    "generator" : "list";
	case JV_DICT:
		return v->flags & JVF_NAMESPACE ? "Namespace" :
		    v->flags & JVF_LOOP ? "LoopContext" : "dict";
	default:
		return v->u.fn->type == FN_MACRO ? "Macro" : "builtin_function_or_method";
	}
}

/* ------------------------------------------------------------- buffer */
void
buf_add(struct buf *b, const char *s, size_t n)
{
	if ((b->limit && (n > b->limit || b->n > b->limit - n)) ||
	    (n > 0 && !jv_mem_room(b->n + n))) {
		b->over = 1;
		return;
	}
	if (b->n + n + 1 > b->cap) {
		size_t c = b->cap ? b->cap : 64;

		while (c < b->n + n + 1)
			c *= 2;
		b->p = xreallocarray(b->p, c, 1);
		b->cap = c;
	}
	if (n)
		memcpy(b->p + b->n, s, n);
	b->n += n;
	b->p[b->n] = '\0';
}

void
buf_addc(struct buf *b, char c)
{
	buf_add(b, &c, 1);
}

void
buf_adds(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

void
buf_printf(struct buf *b, const char *fmt, ...)
{
	char	tmp[512];
	va_list	ap;
	int	n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	buf_add(b, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

char *
buf_take(struct buf *b, size_t *n)
{
	char	*p;

	if (b->p == NULL)
		buf_add(b, "", 0);
	p = b->p;
	if (n)
		*n = b->n;
	b->p = NULL;
	b->n = b->cap = 0;
	return p;
}
