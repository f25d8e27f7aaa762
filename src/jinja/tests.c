/*
 * tests.c - the tests of jinja2 ("x is defined", "n is divisibleby 3")
 * that chat templates use, with jinja2's semantics, undefined values
 * included.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jint.h"
#include "mathlib.h"
#include "xmalloc.h"

/* --------------------------------------------------------------- tests */
static const char *const tests[] = {
	"boolean", "callable", "defined", "divisibleby", "eq", "equalto", "==",
	"escaped", "even", "false", "filter", "float", "ge", ">=", "gt", ">",
	"greaterthan", "in", "integer", "iterable", "le", "<=", "lower", "lt",
	"<", "lessthan", "mapping", "ne", "!=", "none", "number", "odd",
	"sameas", "sequence", "string", "test", "true", "undefined", "upper",
	NULL
};

int
has_test(const char *name)
{
	size_t	i;

	for (i = 0; tests[i]; i++)
		if (!strcmp(tests[i], name))
			return 1;
	return 0;
}

static int
str_cased(jv *v, int upper)
{
	size_t	i, k;
	uint32_t c;
	int	cased = 0;

	for (i = 0; i < v->u.s.n; i += k) {
		k = utf8_dec(v->u.s.p + i, v->u.s.n - i, &c);
		if ((upper ? py_islower(c) : py_isupper(c)) || py_istitle(c))
			return 0;
		cased |= upper ? py_isupper(c) : py_islower(c);
	}
	return cased;
}

int
apply_test(struct rstate *rs, const struct node *at, const char *name,
    jv *v, jv **args, size_t nargs)
{
	jv	*a = nargs ? args[0] : NULL;
	int	k = v->kind;
	long long x, y;

	if (rs_step(rs, at))
		return -1;
	if (!has_test(name)) {
		rs_fail(rs, at, "No test named '%s' found.", name);
		return -1;
	}
	if (!strcmp(name, "defined"))
		return k != JV_UNDEFINED;
	if (!strcmp(name, "undefined"))
		return k == JV_UNDEFINED;
	if (!strcmp(name, "none"))
		return k == JV_NONE;
	if (!strcmp(name, "boolean"))
		return k == JV_BOOL;
	if (!strcmp(name, "true"))
		return k == JV_BOOL && v->u.b;
	if (!strcmp(name, "false"))
		return k == JV_BOOL && !v->u.b;
	if (!strcmp(name, "string"))
		return k == JV_STR;
	if (!strcmp(name, "number"))
		return k == JV_INT || k == JV_FLOAT || k == JV_BOOL;
	if (!strcmp(name, "integer"))
		return k == JV_INT;
	if (!strcmp(name, "float"))
		return k == JV_FLOAT;
	if (!strcmp(name, "mapping"))
		return k == JV_DICT && !(v->flags & (JVF_NAMESPACE | JVF_LOOP));
	if (!strcmp(name, "iterable"))
		return k == JV_STR || k == JV_LIST || k == JV_UNDEFINED ||
		    (k == JV_DICT && !(v->flags & (JVF_NAMESPACE | JVF_LOOP)));
	if (!strcmp(name, "sequence"))
		return k == JV_STR || (k == JV_LIST && !(v->flags & JVF_GEN)) ||
		    k == JV_UNDEFINED ||
		    (k == JV_DICT && !(v->flags & (JVF_NAMESPACE | JVF_LOOP)));
	if (!strcmp(name, "callable"))
		return k == JV_CALLABLE;
	if (!strcmp(name, "escaped"))
		return 0;
	if (!strcmp(name, "lower") || !strcmp(name, "upper")) {
		jv	*s = to_str(rs, v);
		int	r;

		if (s == NULL)
			return -1;
		r = str_cased(s, name[0] == 'u');
		jv_unref(s);
		return r;
	}
	if (!strcmp(name, "filter") || !strcmp(name, "test")) {
		if (k != JV_STR)
			return 0;
		return name[0] == 'f' ? has_filter(v->u.s.p) : has_test(v->u.s.p);
	}
	if (!strcmp(name, "odd") || !strcmp(name, "even")) {
		if (k == JV_INT || k == JV_BOOL) {
			x = k == JV_INT ? v->u.i : v->u.b;
			return (int)((x % 2 != 0) == (name[0] == 'o'));
		}
		if (k == JV_FLOAT) {
			double m = gguf_fmod(v->u.f, 2.0);

			if (m < 0)
				m += 2;

			return f_eq(m, 1) == (name[0] == 'o');
		}
		if (k == JV_UNDEFINED) {
			rs_fail(rs, at, "%s", v->u.s.p ? v->u.s.p : "value is undefined");
			return -1;
		}
		rs_fail(rs, at, "unsupported operand type(s) for %%: '%s' and 'int'",
		    jv_kind_name(v));
		return -1;
	}
	if (!strcmp(name, "divisibleby")) {
		if (a == NULL) {
			rs_fail(rs, at, "divisibleby needs a number");
			return -1;
		}
		if ((k == JV_INT || k == JV_BOOL) && (a->kind == JV_INT || a->kind == JV_BOOL)) {
			x = k == JV_INT ? v->u.i : v->u.b;
			y = a->kind == JV_INT ? a->u.i : a->u.b;
			if (y == 0) {
				rs_fail(rs, at, "integer modulo by zero");
				return -1;
			}
			if (y == -1)
				return 1;
			return x % y == 0;
		}
		if (jv_is_number(v) && jv_is_number(a)) {
			if (f_eq(jv_num(a), 0)) {
				rs_fail(rs, at, "float modulo");
				return -1;
			}
			return f_eq(gguf_fmod(jv_num(v), jv_num(a)), 0);
		}
		rs_fail(rs, at, "unsupported operand type(s) for %%: '%s' and '%s'",
		    jv_kind_name(v), jv_kind_name(a));
		return -1;
	}
	if (!strcmp(name, "sameas")) {
		if (a == NULL)
			return 0;
		if (v == a)
			return 1;
		/* None, True and False are singletons; small values compare as Python caches them */
		if (k == JV_NONE || k == JV_BOOL || k == JV_UNDEFINED)
			return jv_equal(v, a) && a->kind == k;
		if (k == JV_INT && a->kind == JV_INT && v->u.i == a->u.i &&
		    v->u.i >= -5 && v->u.i <= 256)
			return 1;
		return 0;
	}
	if (a == NULL) {
		rs_fail(rs, at, "the test '%s' needs an argument", name);
		return -1;
	}
	if (!strcmp(name, "eq") || !strcmp(name, "equalto") || !strcmp(name, "=="))
		return compare_values(rs, at, OP_EQ, v, a);
	if (!strcmp(name, "ne") || !strcmp(name, "!="))
		return compare_values(rs, at, OP_NE, v, a);
	if (!strcmp(name, "lt") || !strcmp(name, "<") || !strcmp(name, "lessthan"))
		return compare_values(rs, at, OP_LT, v, a);
	if (!strcmp(name, "le") || !strcmp(name, "<="))
		return compare_values(rs, at, OP_LTEQ, v, a);
	if (!strcmp(name, "gt") || !strcmp(name, ">") || !strcmp(name, "greaterthan"))
		return compare_values(rs, at, OP_GT, v, a);
	if (!strcmp(name, "ge") || !strcmp(name, ">="))
		return compare_values(rs, at, OP_GTEQ, v, a);
	if (!strcmp(name, "in"))
		return compare_values(rs, at, OP_IN, v, a);
	rs_fail(rs, at, "No test named '%s' found.", name);
	return -1;
}
