/*
 * model_expr.c - the expressions of assets/models.tsv parsed into trees:
 * numbers, lets, il, operators as in C, and the functions of mfuncs.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "modelint.h"
#include "xmalloc.h"

/* ------------------------------------------------------------ expressions */

static const struct mfunc {
	const char	*name;
	enum mop	 op;
	int		 nstr;		/* leading string arguments */
	int		 min, max;	/* arguments in all */
} mfuncs[] = {
	{ "key", OP_KEY, 1, 1, 2 },
	{ "lkey", OP_LKEY, 1, 2, 2 },
	{ "lkey0", OP_LKEY0, 1, 2, 2 },
	{ "has", OP_HAS, 1, 1, 1 },
	{ "len", OP_LEN, 1, 1, 1 },
	{ "key_is", OP_KEYIS, 2, 2, 2 },
	{ "has_tensor", OP_HAST, 1, 1, 2 },
	{ "tensor_dim", OP_TDIM, 1, 3, 3 },
	{ "at", OP_AT, 1, 2, 2 },
	{ "max", OP_MAX, 0, 2, 2 },
	{ "min", OP_MIN, 0, 2, 2 },
	{ "any", OP_ANY, 0, 1, 1 },
	{ "amin", OP_AMIN, 2, 1, 2 },
	{ "amax", OP_AMAX, 2, 1, 2 },
};

#define MAX_DEPTH	64

struct parser {
	const char	*s;
	const char	*p;
	int		 depth;
	char		 err[160];
};

static struct mnode *p_expr(struct parser *);

void
gguf_mexpr_free(struct mnode *n)
{
	if (n == NULL)
		return;
	gguf_mexpr_free(n->a);
	gguf_mexpr_free(n->b);
	gguf_mexpr_free(n->c);
	free(n->str);
	free(n->str2);
	free(n);
}

static struct mnode *
node_new(enum mop op, struct mnode *a, struct mnode *b)
{
	struct mnode	*n = xcalloc(1, sizeof *n);

	n->op = op;
	n->a = a;
	n->b = b;
	return n;
}

static struct mnode *
p_fail(struct parser *ps, const char *what)
{
	if (ps->err[0] == '\0')
		snprintf(ps->err, sizeof ps->err, "syntax: %s at column %d",
		    what, (int)(ps->p - ps->s) + 1);
	return NULL;
}

static void
p_space(struct parser *ps)
{
	while (*ps->p == ' ' || *ps->p == '\t')
		ps->p++;
}

/* Takes the operator op if it comes next (and not a longer one). */
static int
p_take(struct parser *ps, const char *op)
{
	size_t	n = strlen(op);

	p_space(ps);
	if (strncmp(ps->p, op, n) != 0)
		return 0;
	/* "<" is not "<=", "!" is not "!=", "=" alone is no operator. */
	if (n == 1 && strchr("<>!", op[0]) != NULL && ps->p[1] == '=')
		return 0;
	ps->p += n;
	return 1;
}

static int
is_ident(int c, int first)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	    (!first && c >= '0' && c <= '9');
}

static char *
p_string(struct parser *ps)
{
	const char	*start;

	p_space(ps);
	if (*ps->p != '"') {
		p_fail(ps, "a quoted name expected");
		return NULL;
	}
	start = ++ps->p;
	while (*ps->p != '"' && *ps->p != '\0')
		ps->p++;
	if (*ps->p != '"') {
		p_fail(ps, "unterminated string");
		return NULL;
	}
	ps->p++;
	return xstrndup(start, (size_t)(ps->p - 1 - start));
}

static struct mnode *
p_call(struct parser *ps, const struct mfunc *f)
{
	struct mnode	*n = node_new(f->op, NULL, NULL);
	struct mnode	**slot[3];
	int		 nargs = 0;

	slot[0] = &n->a;
	slot[1] = &n->b;
	slot[2] = &n->c;
	if (f->nstr >= 1 && (n->str = p_string(ps)) == NULL)
		goto fail;
	if (f->nstr >= 1)
		nargs++;
	p_space(ps);
	/* (a second string a function of one argument may go without:
	 * then it takes no other) */
	if (f->nstr >= 2 && f->min < 2 && *ps->p == ')')
		nargs = f->max;
	else if (f->nstr >= 2) {
		if (!p_take(ps, ",")) {
			p_fail(ps, "\",\" expected");
			goto fail;
		}
		if ((n->str2 = p_string(ps)) == NULL)
			goto fail;
		nargs++;
	}
	for (;;) {
		p_space(ps);
		if (*ps->p == ')')
			break;
		if (nargs > 0 && !p_take(ps, ",")) {
			p_fail(ps, "\",\" or \")\" expected");
			goto fail;
		}
		if (nargs >= f->max) {
			p_fail(ps, "too many arguments");
			goto fail;
		}
		if ((*slot[nargs - f->nstr] = p_expr(ps)) == NULL)
			goto fail;
		nargs++;
	}
	ps->p++;
	if (nargs < f->min) {
		p_fail(ps, "too few arguments");
		goto fail;
	}
	if (f->op == OP_KEY && nargs == 1)
		n->num = 1;		/* no default: fails when absent */
	return n;
fail:
	gguf_mexpr_free(n);
	return NULL;
}

static struct mnode *
p_primary(struct parser *ps)
{
	struct mnode	*n;
	const char	*start;
	size_t		 i, len;
	int64_t		 v;

	p_space(ps);
	if (*ps->p == '(') {
		ps->p++;
		if ((n = p_expr(ps)) == NULL)
			return NULL;
		if (!p_take(ps, ")")) {
			gguf_mexpr_free(n);
			return p_fail(ps, "\")\" expected");
		}
		return n;
	}
	if (*ps->p >= '0' && *ps->p <= '9') {
		v = 0;
		while (*ps->p >= '0' && *ps->p <= '9') {
			if (__builtin_mul_overflow(v, 10, &v) ||
			    __builtin_add_overflow(v, *ps->p - '0', &v))
				return p_fail(ps, "number too large");
			ps->p++;
		}
		if (is_ident((unsigned char)*ps->p, 0))
			return p_fail(ps, "bad number");
		n = node_new(OP_NUM, NULL, NULL);
		n->num = v;
		return n;
	}
	if (!is_ident((unsigned char)*ps->p, 1))
		return p_fail(ps, *ps->p == '\0' ? "unexpected end" :
		    "a number, a name or \"(\" expected");
	start = ps->p;
	while (is_ident((unsigned char)*ps->p, 0))
		ps->p++;
	len = (size_t)(ps->p - start);
	p_space(ps);
	if (*ps->p == '(') {
		ps->p++;
		for (i = 0; i < sizeof mfuncs / sizeof mfuncs[0]; i++)
			if (strlen(mfuncs[i].name) == len &&
			    memcmp(mfuncs[i].name, start, len) == 0)
				return p_call(ps, &mfuncs[i]);
		ps->p = start;
		return p_fail(ps, "unknown function");
	}
	if (len == 2 && memcmp(start, "il", 2) == 0)
		return node_new(OP_IL, NULL, NULL);
	n = node_new(OP_LET, NULL, NULL);
	n->str = xstrndup(start, len);
	return n;
}

static struct mnode *
p_unary(struct parser *ps)
{
	struct mnode	*n;

	if (++ps->depth > MAX_DEPTH) {
		ps->depth--;
		return p_fail(ps, "nested too deep");
	}
	if (p_take(ps, "-")) {
		if ((n = p_unary(ps)) != NULL)
			n = node_new(OP_NEG, n, NULL);
	} else if (p_take(ps, "!")) {
		if ((n = p_unary(ps)) != NULL)
			n = node_new(OP_NOT, n, NULL);
	} else if (p_take(ps, "+"))
		n = p_unary(ps);
	else
		n = p_primary(ps);
	ps->depth--;
	return n;
}

/* Binary operators by level, tightest last. */
static const struct binop {
	const char	*tok;
	enum mop	 op;
	int		 level;
} binops[] = {
	{ "||", OP_OR, 0 }, { "&&", OP_AND, 1 },
	{ "==", OP_EQ, 2 }, { "!=", OP_NE, 2 }, { "<=", OP_LE, 2 },
	{ ">=", OP_GE, 2 }, { "<", OP_LT, 2 }, { ">", OP_GT, 2 },
	{ "+", OP_ADD, 3 }, { "-", OP_SUB, 3 },
	{ "*", OP_MUL, 4 }, { "/", OP_DIV, 4 }, { "%", OP_MOD, 4 },
};
#define TOP_LEVEL	4

static struct mnode *
p_binary(struct parser *ps, int level)
{
	struct mnode	*l, *r;
	size_t		 i;

	if (level > TOP_LEVEL)
		return p_unary(ps);
	if ((l = p_binary(ps, level + 1)) == NULL)
		return NULL;
	for (;;) {
		for (i = 0; i < sizeof binops / sizeof binops[0]; i++)
			if (binops[i].level == level &&
			    p_take(ps, binops[i].tok))
				break;
		if (i == sizeof binops / sizeof binops[0])
			return l;
		if ((r = p_binary(ps, level + 1)) == NULL) {
			gguf_mexpr_free(l);
			return NULL;
		}
		l = node_new(binops[i].op, l, r);
	}
}

static struct mnode *
p_expr(struct parser *ps)
{
	struct mnode	*c, *a, *b, *n;

	if (++ps->depth > MAX_DEPTH) {
		ps->depth--;
		return p_fail(ps, "nested too deep");
	}
	n = NULL;
	if ((c = p_binary(ps, 0)) == NULL)
		goto out;
	if (!p_take(ps, "?")) {
		n = c;
		goto out;
	}
	if ((a = p_expr(ps)) == NULL) {
		gguf_mexpr_free(c);
		goto out;
	}
	if (!p_take(ps, ":")) {
		gguf_mexpr_free(c);
		gguf_mexpr_free(a);
		p_fail(ps, "\":\" expected");
		goto out;
	}
	if ((b = p_expr(ps)) == NULL) {
		gguf_mexpr_free(c);
		gguf_mexpr_free(a);
		goto out;
	}
	n = node_new(OP_COND, a, b);
	n->c = c;
out:
	ps->depth--;
	return n;
}

struct mnode *
gguf_mexpr_parse(const char *s, size_t n, char *err, size_t errlen)
{
	struct parser	 ps;
	struct mnode	*e;
	char		*copy = xstrndup(s, n);

	memset(&ps, 0, sizeof ps);
	ps.s = ps.p = copy;
	e = p_expr(&ps);
	if (e != NULL) {
		p_space(&ps);
		if (*ps.p != '\0') {
			gguf_mexpr_free(e);
			e = p_fail(&ps, "unexpected text");
		}
	}
	if (e == NULL)
		snprintf(err, errlen, "%s", ps.err);
	free(copy);
	return e;
}
