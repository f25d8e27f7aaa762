/*
 * model.c - the model check: assets/models.tsv evaluated against a
 * document or a file.
 *
 * The table is compiled once (pthread_once): each row's expressions
 * parsed into trees, each section's effective rows (those of *, of its
 * base chain, then its own, a later row of the same kind and name
 * replacing an earlier one) listed. A check then walks the effective
 * rows: key rows against the key's type, need rows, tensor rows for each
 * block, looking every expected tensor up in the source's name index and
 * marking it used; a live tensor no row used is one llama.cpp does not
 * load. Lets are evaluated lazily and memoised, per block for those that
 * read il. Each evaluation records the keys it read, so a finding can say
 * which parameters its expectation came from.
 */
#include "config.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc.h"
#include "model.h"
#include "schema.h"
#include "xmalloc.h"

/* ------------------------------------------------------------ expressions */

enum mop {
	OP_NUM, OP_LET, OP_IL, OP_NEG, OP_NOT, OP_ADD, OP_SUB, OP_MUL,
	OP_DIV, OP_MOD, OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE, OP_AND,
	OP_OR, OP_COND, OP_KEY, OP_LKEY, OP_LKEY0, OP_HAS, OP_LEN, OP_KEYIS,
	OP_HAST, OP_MAX, OP_MIN, OP_AT
};

struct mnode {
	enum mop	 op;
	int64_t		 num;
	char		*str;		/* a let's name, a function's key */
	char		*str2;		/* key_is: the string */
	struct mnode	*a, *b, *c;
};

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
	{ "has_tensor", OP_HAST, 1, 1, 1 },
	{ "at", OP_AT, 1, 2, 2 },
	{ "max", OP_MAX, 0, 2, 2 },
	{ "min", OP_MIN, 0, 2, 2 },
};

#define MAX_DEPTH	64

struct parser {
	const char	*s;
	const char	*p;
	int		 depth;
	char		 err[160];
};

static struct mnode *p_expr(struct parser *);

static void
node_free(struct mnode *n)
{
	if (n == NULL)
		return;
	node_free(n->a);
	node_free(n->b);
	node_free(n->c);
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
	if (f->nstr >= 2) {
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
	node_free(n);
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
			node_free(n);
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
			node_free(l);
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
		node_free(c);
		goto out;
	}
	if (!p_take(ps, ":")) {
		node_free(c);
		node_free(a);
		p_fail(ps, "\":\" expected");
		goto out;
	}
	if ((b = p_expr(ps)) == NULL) {
		node_free(c);
		node_free(a);
		goto out;
	}
	n = node_new(OP_COND, a, b);
	n->c = c;
out:
	ps->depth--;
	return n;
}

/* Parses s[0..n) whole; NULL with err set. */
static struct mnode *
parse(const char *s, size_t n, char *err, size_t errlen)
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
			node_free(e);
			e = p_fail(&ps, "unexpected text");
		}
	}
	if (e == NULL)
		snprintf(err, errlen, "%s", ps.err);
	free(copy);
	return e;
}

/* ------------------------------------------------------------ the table */

#define MAX_DIMS	4
#define MAX_CLAUSES	6
#define MAX_TYPES	6

struct clause {
	int		 req;		/* 1 req, 0 opt, -1 none */
	struct mnode	*cond;		/* NULL: always */
};

struct ktype {
	uint32_t	 type;
	uint32_t	 atype;
	struct mnode	*len;		/* arr[T;EXPR], or NULL */
};

struct crow {
	const struct gguf_mrow	*r;
	struct mnode		*e[MAX_DIMS];	/* let, need: e[0]; tensor: shape */
	int			 ne;
	struct clause		 cl[MAX_CLAUSES];
	int			 ncl;
	struct ktype		 kt[MAX_TYPES];
	int			 nkt;
	int			 block;		/* the name has {bid} */
	int			 can_req;	/* a clause says req */
	char			 err[200];	/* why it did not compile */
};

struct clet {
	const char	*name;
	size_t		 row;		/* in the section's rows */
};

struct csect {
	const char	*name;
	int		 base;		/* section index, or -1 */
	struct crow	**rows;		/* effective rows, lets included */
	size_t		 nrows;
	struct clet	*lets;		/* its lets by name, for a search */
	size_t		 nlets;
};

static struct crow	*crows;
static struct csect	*csects;
static size_t		 ncsects;
static pthread_once_t	 compile_once = PTHREAD_ONCE_INIT;

static void
crow_err(struct crow *c, const char *what, const char *detail)
{
	if (c->err[0] == '\0')
		snprintf(c->err, sizeof c->err, "models.tsv:%u: %s: %s",
		    c->r->line, what, detail);
}

static void
compile_when(struct crow *c, const char *w)
{
	const char	*p = w, *end;
	char		 err[160];
	struct clause	*cl;
	size_t		 n;

	if (w == NULL) {
		c->cl[0].req = 1;
		c->ncl = 1;
		c->can_req = 1;
		return;
	}
	while (*p != '\0') {
		end = strchr(p, ';');
		n = end == NULL ? strlen(p) : (size_t)(end - p);
		while (n > 0 && *p == ' ') {
			p++;
			n--;
		}
		while (n > 0 && p[n - 1] == ' ')
			n--;
		if (c->ncl == MAX_CLAUSES) {
			crow_err(c, "WHEN", "too many clauses");
			return;
		}
		cl = &c->cl[c->ncl++];
		c->can_req |= n >= 3 && memcmp(p, "req", 3) == 0;
		if (n == 4 && memcmp(p, "none", 4) == 0)
			cl->req = -1;
		else if (n >= 3 && (memcmp(p, "req", 3) == 0 ||
		    memcmp(p, "opt", 3) == 0)) {
			cl->req = p[0] == 'r';
			if (n > 3) {
				if (n < 7 || memcmp(p + 3, " if ", 4) != 0) {
					crow_err(c, "WHEN", "a clause is req, "
					    "opt, none, req if or opt if");
					return;
				}
				cl->cond = parse(p + 7, n - 7, err,
				    sizeof err);
				if (cl->cond == NULL) {
					crow_err(c, "WHEN", err);
					return;
				}
			}
		} else {
			crow_err(c, "WHEN", "a clause is req, opt, none, "
			    "req if or opt if");
			return;
		}
		if (end == NULL)
			break;
		p = end + 1;
	}
}

static void
compile_types(struct crow *c, const char *s)
{
	const char	*p = s, *end, *semi;
	struct ktype	*kt;
	char		 err[160];
	size_t		 n;

	while (*p != '\0') {
		end = strchr(p, '|');
		n = end == NULL ? strlen(p) : (size_t)(end - p);
		if (c->nkt == MAX_TYPES) {
			crow_err(c, "VALUE", "too many types");
			return;
		}
		kt = &c->kt[c->nkt++];
		semi = memchr(p, ';', n);
		if (semi != NULL && n > 5 && memcmp(p, "arr[", 4) == 0 &&
		    p[n - 1] == ']') {
			char	 t[32];

			snprintf(t, sizeof t, "%.*s]", (int)(semi - p), p);
			if (gguf_vtype_parse_full(t, strlen(t), &kt->type,
			    &kt->atype) != 0) {
				crow_err(c, "VALUE", "unknown type");
				return;
			}
			kt->len = parse(semi + 1, (size_t)(p + n - 1 -
			    (semi + 1)), err, sizeof err);
			if (kt->len == NULL) {
				crow_err(c, "VALUE", err);
				return;
			}
		} else if (gguf_vtype_parse_full(p, n, &kt->type,
		    &kt->atype) != 0) {
			crow_err(c, "VALUE", "unknown type");
			return;
		}
		if (end == NULL)
			break;
		p = end + 1;
	}
}

static void
compile_row(struct crow *c)
{
	const struct gguf_mrow	*r = c->r;
	const char		*p, *comma;
	char			 err[160];
	size_t			 n;

	switch (r->kind) {
	case GGUF_MR_LET:
		if ((c->e[0] = parse(r->value, strlen(r->value), err,
		    sizeof err)) == NULL)
			crow_err(c, "let", err);
		c->ne = 1;
		break;
	case GGUF_MR_NEED:
		if ((c->e[0] = parse(r->name, strlen(r->name), err,
		    sizeof err)) == NULL)
			crow_err(c, "need", err);
		c->ne = 1;
		break;
	case GGUF_MR_KEY:
		compile_types(c, r->value);
		compile_when(c, r->when);
		break;
	case GGUF_MR_TENSOR:
		c->block = strstr(r->name, "{bid}") != NULL;
		compile_when(c, r->when);
		if (strcmp(r->value, "-") == 0)
			break;
		for (p = r->value; ; p = comma + 1) {
			comma = strchr(p, ',');
			n = comma == NULL ? strlen(p) : (size_t)(comma - p);
			if (c->ne == MAX_DIMS) {
				crow_err(c, "SHAPE", "more than 4 dimensions");
				break;
			}
			if ((c->e[c->ne++] = parse(p, n, err,
			    sizeof err)) == NULL) {
				crow_err(c, "SHAPE", err);
				break;
			}
			if (comma == NULL)
				break;
		}
		break;
	default:
		break;
	}
}

static int
same_row(const struct gguf_mrow *a, const struct gguf_mrow *b)
{
	return a->kind == b->kind && strcmp(a->name, b->name) == 0;
}

/* Appends section s's rows (its base's first) to the list. */
static void
gather(size_t s, size_t *first, struct crow ***list, size_t *n,
    size_t *cap, int depth)
{
	size_t	i;

	if (depth > 32)
		return;
	if (csects[s].base >= 0)
		gather((size_t)csects[s].base, first, list, n, cap, depth + 1);
	for (i = first[s] + 1; i < gguf_model_nrows &&
	    gguf_model_rows[i].kind != GGUF_MR_ARCH; i++) {
		if (*n == *cap) {
			*cap = *cap ? *cap * 2 : 64;
			*list = xreallocarray(*list, *cap, sizeof **list);
		}
		(*list)[(*n)++] = &crows[i];
	}
}

static int
let_cmp(const void *a, const void *b)
{
	return strcmp(((const struct clet *)a)->name,
	    ((const struct clet *)b)->name);
}

/* The row of the let name in section s, or SIZE_MAX. */
static size_t
let_row(const struct csect *s, const char *name)
{
	struct clet	 key, *hit;

	key.name = name;
	hit = bsearch(&key, s->lets, s->nlets, sizeof *s->lets, let_cmp);
	return hit == NULL ? SIZE_MAX : hit->row;
}

static void
compile_table(void)
{
	struct crow	**list;
	size_t		 i, j, k, n, cap, *first, star = SIZE_MAX;

	crows = xcalloc(gguf_model_nrows + 1, sizeof *crows);
	first = xcalloc(gguf_model_nrows + 1, sizeof *first);
	csects = xcalloc(gguf_model_nrows + 1, sizeof *csects);
	for (i = 0; i < gguf_model_nrows; i++) {
		crows[i].r = &gguf_model_rows[i];
		compile_row(&crows[i]);
		if (gguf_model_rows[i].kind != GGUF_MR_ARCH)
			continue;
		csects[ncsects].name = gguf_model_rows[i].name;
		csects[ncsects].base = -1;
		for (k = 0; k < ncsects; k++)
			if (strcmp(csects[k].name,
			    gguf_model_rows[i].value) == 0)
				csects[ncsects].base = (int)k;
		if (strcmp(gguf_model_rows[i].name, "*") == 0)
			star = ncsects;
		first[ncsects++] = i;
	}
	for (k = 0; k < ncsects; k++) {
		list = NULL;
		n = cap = 0;
		if (star != SIZE_MAX && k != star)
			gather(star, first, &list, &n, &cap, 0);
		gather(k, first, &list, &n, &cap, 0);
		/* A later row of the same kind and name replaces this one. */
		csects[k].rows = xcalloc(n + 1, sizeof *csects[k].rows);
		for (i = 0; i < n; i++) {
			for (j = i + 1; j < n; j++)
				if (same_row(list[i]->r, list[j]->r))
					break;
			if (j == n)
				csects[k].rows[csects[k].nrows++] = list[i];
		}
		free(list);
		csects[k].lets = xcalloc(csects[k].nrows + 1,
		    sizeof *csects[k].lets);
		for (i = 0; i < csects[k].nrows; i++) {
			if (csects[k].rows[i]->r->kind != GGUF_MR_LET)
				continue;
			csects[k].lets[csects[k].nlets].name =
			    csects[k].rows[i]->r->name;
			csects[k].lets[csects[k].nlets++].row = i;
		}
		qsort(csects[k].lets, csects[k].nlets, sizeof *csects[k].lets,
		    let_cmp);
	}
	free(first);
}

static void
compile(void)
{
	pthread_once(&compile_once, compile_table);
}

static const struct csect *
find_sect(const char *arch, size_t n)
{
	size_t	k;

	compile();
	for (k = 0; k < ncsects; k++)
		if (strlen(csects[k].name) == n &&
		    memcmp(csects[k].name, arch, n) == 0)
			return &csects[k];
	return NULL;
}

int
gguf_model_known(const char *arch, size_t n)
{
	if (n == 1 && arch[0] == '*')
		return 0;
	return find_sect(arch, n) != NULL;
}

size_t
gguf_model_archs(const char **out, size_t max)
{
	size_t	k, n = 0;

	compile();
	for (k = 0; k < ncsects; k++) {
		if (strcmp(csects[k].name, "*") == 0)
			continue;
		if (n < max)
			out[n] = csects[k].name;
		n++;
	}
	return n;
}

/* ------------------------------------------------------------ the source */

/* What the check reads: a document, or a file as opened. */
struct msrc {
	struct gguf_doc		*d;
	struct gguf_file	*f;
};

static struct gguf_val *
src_get(const struct msrc *s, const char *key, size_t n)
{
	int64_t	i;

	if (s->d != NULL)
		return gguf_doc_get(s->d, key, n);
	if (s->f == NULL || (i = gguf_kv_find(s->f, key, n)) < 0)
		return NULL;
	return &gguf_kv_at(s->f, (uint64_t)i)->val;
}

static int64_t
src_find(const struct msrc *s, const char *name, size_t n)
{
	if (s->d != NULL)
		return gguf_doc_tensor_find(s->d, name, n);
	if (s->f == NULL)
		return -1;
	return gguf_tensor_find(s->f, name, n);
}

static uint64_t
src_ntensors(const struct msrc *s)
{
	if (s->d != NULL)
		return gguf_doc_n_tensors(s->d);
	return s->f == NULL ? 0 : gguf_layout(s->f)->n_tensors;
}

/* Tensor i: 0 and its name and info if live, -1 if removed. */
static int
src_tensor(const struct msrc *s, uint64_t i, struct gguf_str *name,
    const struct gguf_tensor **t)
{
	struct gguf_doc_tensor	dt;

	if (s->d != NULL) {
		if (gguf_doc_tensor(s->d, i, &dt) != 0 ||
		    (dt.flags & GGUF_ED_REMOVED))
			return -1;
		*name = dt.name;
		*t = dt.t;
		return 0;
	}
	*t = gguf_tensor_at(s->f, i);
	*name = (*t)->name;
	return 0;
}

/* ------------------------------------------------------------ evaluation */

#define MAX_KEYS	32		/* distinct keys a check records */

struct memo {
	int		 state;		/* 0 not yet, 1 busy, 2 done */
	int		 uses_il;
	int64_t		 il;
	int64_t		 v;
	uint32_t	 deps;
};

struct kdep {
	char		 key[128];
	int		 kind;		/* 0 value, 1 length, 2 absent */
	int64_t		 v;
};

struct mctx {
	const struct msrc	*s;
	const char		*arch;
	size_t			 archn;
	const struct csect	*sect;
	struct memo		*memo;		/* per effective row */
	int64_t			 il;
	int			 uses_il;
	uint32_t		 deps;
	struct kdep		 kd[MAX_KEYS];
	int			 nkd;
	char			 why[200];
};

static int ev(struct mctx *, const struct mnode *, int64_t *);

static int
fail(struct mctx *x, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int
fail(struct mctx *x, const char *fmt, ...)
{
	va_list	ap;

	if (x->why[0] == '\0') {
		va_start(ap, fmt);
		vsnprintf(x->why, sizeof x->why, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/*
 * Expands {arch} and {bid} (block il) in pattern into buf: its length, or
 * -1 if it does not fit.
 */
static int
expand(const struct mctx *x, const char *pat, int64_t il, char *buf,
    size_t len)
{
	size_t	o = 0, n;
	int	w;

	while (*pat != '\0') {
		if (*pat != '{') {
			if (o + 1 >= len)
				return -1;
			buf[o++] = *pat++;
		} else if (strncmp(pat, "{arch}", 6) == 0) {
			n = x->archn;
			if (o + n >= len)
				return -1;
			memcpy(buf + o, x->arch, n);
			o += n;
			pat += 6;
		} else if (strncmp(pat, "{bid}", 5) == 0) {
			w = snprintf(buf + o, len - o, "%lld", (long long)il);
			if (w < 0 || (size_t)w >= len - o)
				return -1;
			o += (size_t)w;
			pat += 5;
		} else {
			if (o + 1 >= len)
				return -1;
			buf[o++] = *pat++;
		}
	}
	buf[o] = '\0';
	return (int)o;
}

/* Records that key was read (kind: 0 its value v, 1 its length v, 2 absent). */
static void
dep(struct mctx *x, const char *key, int kind, int64_t v)
{
	int	i;

	for (i = 0; i < x->nkd; i++)
		if (strcmp(x->kd[i].key, key) == 0)
			break;
	if (i == x->nkd) {
		if (x->nkd == MAX_KEYS)
			return;
		snprintf(x->kd[i].key, sizeof x->kd[i].key, "%s", key);
		x->nkd++;
	}
	x->kd[i].kind = kind;
	x->kd[i].v = v;
	x->deps |= 1u << i;
}

/* An integer value, or a bool as 0 or 1 (no float, string or array). */
static int
int_of(const struct gguf_val *v, int64_t *out)
{
	switch (v->type) {
	case GGUF_VT_U8: case GGUF_VT_I8: case GGUF_VT_U16: case GGUF_VT_I16:
	case GGUF_VT_U32: case GGUF_VT_I32: case GGUF_VT_U64: case GGUF_VT_I64:
	case GGUF_VT_BOOL:
		return gguf_val_i64(v, out);
	default:
		return -1;
	}
}

static int
ev_let(struct mctx *x, const char *name, int64_t *out)
{
	const struct csect	*s = x->sect;
	struct memo		*m;
	size_t			 k;
	uint32_t		 deps;
	int			 uses_il, rc;

	if ((k = let_row(s, name)) == SIZE_MAX)
		return fail(x, "no parameter %s", name);
	if (s->rows[k]->e[0] == NULL)
		return fail(x, "%s", s->rows[k]->err);
	m = &x->memo[k];
	if (m->state == 2 && (!m->uses_il || m->il == x->il)) {
		x->deps |= m->deps;
		x->uses_il |= m->uses_il;
		*out = m->v;
		return 0;
	}
	if (m->state == 1)
		return fail(x, "parameter %s refers to itself", name);
	m->state = 1;
	deps = x->deps;
	uses_il = x->uses_il;
	x->deps = 0;
	x->uses_il = 0;
	rc = ev(x, s->rows[k]->e[0], out);
	m->state = rc == 0 ? 2 : 0;
	m->deps = x->deps;
	m->uses_il = x->uses_il;
	m->il = x->il;
	m->v = *out;
	x->deps |= deps;
	x->uses_il |= uses_il;
	return rc;
}

/* lkey and lkey0: element il of a per-block array, or the scalar. */
static int
ev_lkey(struct mctx *x, const struct mnode *n, int64_t il, int64_t *out)
{
	struct gguf_val	*v, e;
	struct gguf_err	 err;
	int64_t		 nl;
	char		 key[160];
	int		 kn;

	if ((kn = expand(x, n->str, il, key, sizeof key)) < 0)
		return fail(x, "key name too long");
	if ((v = src_get(x->s, key, (size_t)kn)) == NULL) {
		dep(x, key, 2, 0);
		return ev(x, n->a, out);
	}
	if (v->type != GGUF_VT_ARR) {
		if (int_of(v, out) != 0)
			return fail(x, "%s is not an integer", key);
		dep(x, key, 0, *out);
		return 0;
	}
	if (ev_let(x, "n_layer", &nl) != 0)
		return -1;
	if ((uint64_t)nl != v->count || nl < 0)
		return fail(x, "%s has %llu elements, not one per block", key,
		    (unsigned long long)v->count);
	if (il < 0 || (uint64_t)il >= v->count)
		return fail(x, "%s read outside a block", key);
	if (gguf_arr_get(v, (uint64_t)il, &e, &err) != 0 ||
	    int_of(&e, out) != 0)
		return fail(x, "%s holds no integers", key);
	dep(x, key, 0, *out);
	return 0;
}

/* at("K", I): element I of the array key K. */
static int
ev_at(struct mctx *x, const struct mnode *n, int64_t *out)
{
	struct gguf_val	*v, e;
	struct gguf_err	 err;
	int64_t		 i;
	char		 key[160];
	int		 kn;

	if (ev(x, n->a, &i) != 0)
		return -1;
	if ((kn = expand(x, n->str, x->il, key, sizeof key)) < 0)
		return fail(x, "key name too long");
	if ((v = src_get(x->s, key, (size_t)kn)) == NULL)
		return fail(x, "no %s", key);
	if (v->type != GGUF_VT_ARR || i < 0 || (uint64_t)i >= v->count)
		return fail(x, "%s has no element %lld", key, (long long)i);
	if (gguf_arr_get(v, (uint64_t)i, &e, &err) != 0 ||
	    int_of(&e, out) != 0)
		return fail(x, "%s holds no integers", key);
	dep(x, key, 0, *out);
	return 0;
}

static int
ev(struct mctx *x, const struct mnode *n, int64_t *out)
{
	struct gguf_val	*v;
	struct gguf_str	 s;
	int64_t		 a, b;
	char		 key[160];
	int		 kn;

	*out = 0;
	switch (n->op) {
	case OP_NUM:
		*out = n->num;
		return 0;
	case OP_IL:
		x->uses_il = 1;
		if (x->il < 0)
			return fail(x, "il outside a block row");
		*out = x->il;
		return 0;
	case OP_LET:
		return ev_let(x, n->str, out);
	case OP_NEG:
		if (ev(x, n->a, &a) != 0)
			return -1;
		if (__builtin_sub_overflow((int64_t)0, a, out))
			return fail(x, "overflow");
		return 0;
	case OP_NOT:
		if (ev(x, n->a, &a) != 0)
			return -1;
		*out = !a;
		return 0;
	case OP_AND:
	case OP_OR:
		if (ev(x, n->a, &a) != 0)
			return -1;
		if ((n->op == OP_AND) != (a != 0)) {
			*out = a != 0;
			return 0;
		}
		if (ev(x, n->b, &b) != 0)
			return -1;
		*out = b != 0;
		return 0;
	case OP_COND:
		if (ev(x, n->c, &a) != 0)
			return -1;
		return ev(x, a ? n->a : n->b, out);
	case OP_KEY:
	case OP_HAS:
	case OP_LEN:
	case OP_KEYIS:
		if ((kn = expand(x, n->str, x->il, key, sizeof key)) < 0)
			return fail(x, "key name too long");
		v = src_get(x->s, key, (size_t)kn);
		if (n->op == OP_HAS) {
			*out = v != NULL;
			return 0;
		}
		if (n->op == OP_KEYIS) {
			*out = v != NULL && gguf_val_str(v, &s) == 0 &&
			    s.n == strlen(n->str2) &&
			    memcmp(s.p, n->str2, (size_t)s.n) == 0;
			return 0;
		}
		if (v == NULL) {
			if (n->op == OP_KEY && n->b == NULL && n->a != NULL) {
				dep(x, key, 2, 0);
				return ev(x, n->a, out);
			}
			return fail(x, "no %s", key);
		}
		if (n->op == OP_LEN) {
			if (v->type != GGUF_VT_ARR || v->count > INT64_MAX)
				return fail(x, "%s is not an array", key);
			*out = (int64_t)v->count;
			dep(x, key, 1, *out);
			return 0;
		}
		if (int_of(v, out) != 0)
			return fail(x, "%s is not an integer", key);
		dep(x, key, 0, *out);
		return 0;
	case OP_LKEY:
		x->uses_il = 1;
		return ev_lkey(x, n, x->il, out);
	case OP_LKEY0:
		return ev_lkey(x, n, 0, out);
	case OP_AT:
		return ev_at(x, n, out);
	case OP_HAST:
		if (strstr(n->str, "{bid}") != NULL) {
			x->uses_il = 1;
			if (x->il < 0)
				return fail(x, "{bid} outside a block row");
		}
		if ((kn = expand(x, n->str, x->il, key, sizeof key)) < 0)
			return fail(x, "tensor name too long");
		*out = src_find(x->s, key, (size_t)kn) >= 0;
		return 0;
	default:
		break;
	}
	if (ev(x, n->a, &a) != 0 || ev(x, n->b, &b) != 0)
		return -1;
	switch (n->op) {
	case OP_ADD:
		if (__builtin_add_overflow(a, b, out))
			return fail(x, "overflow");
		return 0;
	case OP_SUB:
		if (__builtin_sub_overflow(a, b, out))
			return fail(x, "overflow");
		return 0;
	case OP_MUL:
		if (__builtin_mul_overflow(a, b, out))
			return fail(x, "overflow");
		return 0;
	case OP_DIV:
	case OP_MOD:
		if (b == 0)
			return fail(x, "division by zero");
		if (a == INT64_MIN && b == -1)
			return fail(x, "overflow");
		*out = n->op == OP_DIV ? a / b : a % b;
		return 0;
	case OP_EQ: *out = a == b; return 0;
	case OP_NE: *out = a != b; return 0;
	case OP_LT: *out = a < b; return 0;
	case OP_LE: *out = a <= b; return 0;
	case OP_GT: *out = a > b; return 0;
	case OP_GE: *out = a >= b; return 0;
	case OP_MAX: *out = a > b ? a : b; return 0;
	case OP_MIN: *out = a < b ? a : b; return 0;
	default:
		return fail(x, "bad expression");
	}
}

/* Evaluates e for block il, starting a fresh record of the keys read. */
static int
eval_at(struct mctx *x, const struct mnode *e, int64_t il, int64_t *out)
{
	x->il = il;
	x->why[0] = '\0';
	return ev(x, e, out);
}

static void
ctx_init(struct mctx *x, const struct msrc *s, const struct csect *sect,
    const char *arch, size_t archn)
{
	memset(x, 0, sizeof *x);
	x->s = s;
	x->sect = sect;
	x->arch = arch;
	x->archn = archn;
	x->memo = xcalloc(sect->nrows + 1, sizeof *x->memo);
	x->il = -1;
}

/* --------------------------------------------------------------- findings */

#define MAX_SHOWN	8	/* findings of one kind before a count */

struct check {
	struct mctx		 x;
	gguf_mfinding_fn	 fn;
	void			*arg;
	unsigned		 errors;
	uint64_t		 nmissing, nshape, nunused;
	uint8_t			*used;		/* per tensor entry */
	int			 uncertain;	/* unused ones unknown */
	int			 file;		/* the reader checked key types */
	uint32_t		 ldeps;		/* what n_layer read */
	char			 msg[512];
	char			 from[256];
};

/* "from head_count_kv = 4 and key_length = 32" for the keys in deps. */
static const char *
from_text(struct check *c, uint32_t deps)
{
	struct mctx	*x = &c->x;
	const char	*k;
	size_t		 o = 0;
	int		 i, n = 0, total = 0, w;

	for (i = 0; i < x->nkd; i++)
		total += (deps >> i) & 1;
	c->from[0] = '\0';
	for (i = 0; i < x->nkd && o < sizeof c->from; i++) {
		if (!((deps >> i) & 1))
			continue;
		k = x->kd[i].key;
		if (strncmp(k, x->arch, x->archn) == 0 && k[x->archn] == '.')
			k += x->archn + 1;
		w = snprintf(c->from + o, sizeof c->from - o, "%s",
		    n == 0 ? " from " : n + 1 == total ? " and " : ", ");
		o += w > 0 ? (size_t)w : 0;
		if (o >= sizeof c->from)
			break;
		if (x->kd[i].kind == 1 &&
		    strcmp(k, "tokenizer.ggml.tokens") == 0)
			w = snprintf(c->from + o, sizeof c->from - o,
			    "%lld tokens", (long long)x->kd[i].v);
		else if (x->kd[i].kind == 1)
			w = snprintf(c->from + o, sizeof c->from - o,
			    "%s of %lld elements", k, (long long)x->kd[i].v);
		else if (x->kd[i].kind == 2)
			w = snprintf(c->from + o, sizeof c->from - o,
			    "no %s", k);
		else
			w = snprintf(c->from + o, sizeof c->from - o,
			    "%s = %lld", k, (long long)x->kd[i].v);
		o += w > 0 ? (size_t)w : 0;
		n++;
	}
	return c->from;
}

static void
say(struct check *c, int level, int what, const char *name, int64_t index,
    uint32_t deps, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));

static void
say(struct check *c, int level, int what, const char *name, int64_t index,
    uint32_t deps, const char *fmt, ...)
{
	struct gguf_mfinding	f;
	va_list			ap;
	int			i;

	if (level == GGUF_W_ERROR)
		c->errors++;
	if (c->fn == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(c->msg, sizeof c->msg, fmt, ap);
	va_end(ap);
	memset(&f, 0, sizeof f);
	f.level = level;
	f.what = what;
	f.name = name;
	f.index = index;
	f.msg = c->msg;
	for (i = 0; i < c->x.nkd && f.ndeps < GGUF_MF_MAXDEPS; i++)
		if ((deps >> i) & 1)
			f.deps[f.ndeps++] = c->x.kd[i].key;
	c->fn(c->arg, &f);
}

/*
 * The clause of row r that holds for block il: 1 req, 0 opt, -1 none (or
 * no clause holds), -2 it cannot be told; the keys read go to *deps.
 */
static int
when_of(struct check *c, const struct crow *r, int64_t il, uint32_t *deps)
{
	int64_t	v;
	int	i;

	for (i = 0; i < r->ncl; i++) {
		if (r->cl[i].cond == NULL)
			return r->cl[i].req;
		c->x.deps = 0;
		if (eval_at(&c->x, r->cl[i].cond, il, &v) != 0)
			return -2;
		*deps |= c->x.deps;
		if (v)
			return r->cl[i].req;
	}
	return -1;
}

static const char *
type_text(const struct gguf_val *v, char *buf, size_t len)
{
	return gguf_vtype_text(v->type, v->type == GGUF_VT_ARR ? v->atype : 0,
	    buf, len);
}

/* "u32|arr[i32]" from "u32|arr[i32;n_layer]": the types alone. */
static const char *
types_text(const char *types, char *buf, size_t len)
{
	size_t	o = 0;
	int	skip = 0;

	for (; *types != '\0' && o + 1 < len; types++) {
		if (*types == ';')
			skip = 1;
		else if (*types == ']')
			skip = 0;
		if (!skip)
			buf[o++] = *types;
	}
	buf[o] = '\0';
	return buf;
}

/*
 * Whether the reader reported a well-known key of a type llama.cpp
 * refuses as it opened the file (reader.c): the finding is then its.
 */
static int
reader_said(const struct mctx *x, const char *key, size_t n,
    const struct gguf_val *v)
{
	const struct gguf_key_spec	*spec;

	spec = gguf_schema_find(key, n, x->arch, x->archn);
	return spec != NULL && gguf_schema_strict(spec) &&
	    !gguf_schema_type_ok(spec, v->type, v->type == GGUF_VT_ARR ?
	    v->atype : 0);
}

static void
check_key(struct check *c, const struct crow *r)
{
	struct mctx	*x = &c->x;
	struct gguf_val	*v;
	uint32_t	 deps = 0, ldeps = 0;
	int64_t		 want = 0;
	int		 i, kn, req, lenbad = 0;
	char		 key[160], tb[32], ts[96];

	if (r->err[0] != '\0' ||
	    (kn = expand(x, r->r->name, -1, key, sizeof key)) < 0)
		return;
	v = src_get(x->s, key, (size_t)kn);
	req = when_of(c, r, -1, &deps);
	if (v == NULL) {
		if (req == 1)
			say(c, GGUF_W_ERROR, GGUF_MF_KEY, key, -1, deps,
			    "key %s not found: llama.cpp requires it for %.*s",
			    key, (int)x->archn, x->arch);
		return;
	}
	for (i = 0; i < r->nkt; i++) {
		if (r->kt[i].type != v->type || (v->type == GGUF_VT_ARR &&
		    r->kt[i].atype != v->atype))
			continue;
		if (r->kt[i].len == NULL)
			return;
		x->deps = 0;
		if (eval_at(x, r->kt[i].len, -1, &want) != 0 ||
		    (want >= 0 && (uint64_t)want == v->count))
			return;
		lenbad = 1;
		ldeps = x->deps;
	}
	if (lenbad) {
		say(c, GGUF_W_ERROR, GGUF_MF_KEY, key, -1, ldeps,
		    "key %s has %llu elements, llama.cpp wants %lld%s", key,
		    (unsigned long long)v->count, (long long)want,
		    from_text(c, ldeps));
		return;
	}
	if (c->file && reader_said(x, key, (size_t)kn, v))
		return;
	say(c, GGUF_W_ERROR, GGUF_MF_KEY, key, -1, 0, "key %s is %s: "
	    "llama.cpp reads it as %s and refuses another type", key,
	    type_text(v, tb, sizeof tb), types_text(r->r->value, ts,
	    sizeof ts));
}

static void
check_need(struct check *c, const struct crow *r)
{
	int64_t	v;

	if (r->err[0] != '\0')
		return;
	c->x.deps = 0;
	if (eval_at(&c->x, r->e[0], -1, &v) != 0 || v != 0)
		return;
	say(c, GGUF_W_ERROR, GGUF_MF_MODEL, NULL, -1, c->x.deps,
	    "llama.cpp refuses the model: %s (%s)%s", r->r->value,
	    r->r->name, from_text(c, c->x.deps));
}

static void
dims_text(const int64_t *d, int n, char *buf, size_t len)
{
	size_t	o = 0;
	int	i, w;

	buf[0] = '\0';
	for (i = 0; i < n && o < len; i++) {
		w = snprintf(buf + o, len - o, "%s%lld", i ? ", " : "[",
		    (long long)d[i]);
		o += w > 0 ? (size_t)w : 0;
	}
	if (o < len)
		snprintf(buf + o, len - o, "]");
}

/* One tensor a row stands for (block il, or -1). */
static void
check_tensor(struct check *c, const struct crow *r, int64_t il,
    int64_t nlayer)
{
	struct mctx			*x = &c->x;
	const struct gguf_tensor	*t;
	struct gguf_str			 nm;
	uint32_t			 deps = 0;
	int64_t				 idx, want[MAX_DIMS], got[MAX_DIMS];
	int				 i, n, req, bad;
	char				 name[160], ws[120], gs[120];

	if ((n = expand(x, r->r->name, il, name, sizeof name)) < 0)
		return;
	idx = src_find(x->s, name, (size_t)n);
	if (idx < 0 && !r->can_req)
		return;		/* optional and absent: nothing to tell */
	req = when_of(c, r, il, &deps);
	if (req == -2) {		/* cannot be told: not checked */
		if (idx >= 0)
			c->used[idx] = 1;
		return;
	}
	if (req == -1)
		return;
	if (idx < 0) {
		if (req == 1 && c->nmissing++ < MAX_SHOWN) {
			if (il >= 0)
				say(c, GGUF_W_ERROR, GGUF_MF_TENSOR, name, -1,
				    c->ldeps, "%s is missing: llama.cpp "
				    "requires it for %.*s (block %lld of "
				    "block_count = %lld)", name,
				    (int)x->archn, x->arch, (long long)il,
				    (long long)nlayer);
			else
				say(c, GGUF_W_ERROR, GGUF_MF_TENSOR, name, -1,
				    deps, "%s is missing: llama.cpp requires "
				    "it for %.*s", name, (int)x->archn,
				    x->arch);
		}
		return;
	}
	c->used[idx] = 1;
	if (r->ne == 0 || src_tensor(x->s, (uint64_t)idx, &nm, &t) != 0)
		return;
	x->deps = 0;
	for (i = 0; i < r->ne; i++)
		if (eval_at(x, r->e[i], il, &want[i]) != 0)
			return;
	deps = x->deps;
	bad = 0;
	for (i = 0; i < MAX_DIMS; i++) {
		got[i] = t->ne[i] > INT64_MAX ? -1 : (int64_t)t->ne[i];
		if (i < r->ne ? got[i] != want[i] : t->ne[i] != 1)
			bad = 1;
	}
	if (!bad || c->nshape++ >= MAX_SHOWN)
		return;
	n = t->n_dims == 0 ? 1 : (int)t->n_dims;
	dims_text(got, n > MAX_DIMS ? MAX_DIMS : n, gs, sizeof gs);
	dims_text(want, r->ne, ws, sizeof ws);
	say(c, GGUF_W_ERROR, GGUF_MF_TENSOR, name, idx, deps, "%s: shape %s, "
	    "llama.cpp expects %s%s", name, gs, ws, from_text(c, deps));
}

/* Tensors of blocks past those checked one by one, all missing. */
static void
more_missing(struct check *c, int64_t from, int64_t nlayer)
{
	say(c, GGUF_W_ERROR, GGUF_MF_MODEL, NULL, -1, c->ldeps,
	    "blocks %lld to %lld have no tensors at all: llama.cpp requires "
	    "them (block_count = %lld)", (long long)from,
	    (long long)nlayer - 1, (long long)nlayer);
}

static void
check_tensors(struct check *c)
{
	const struct csect		*s = c->x.sect;
	const struct gguf_tensor	*t;
	struct gguf_str			 nm;
	uint64_t			 i, nt = src_ntensors(c->x.s), live = 0;
	int64_t				 nlayer, upto, il;
	size_t				 k;
	char				 name[80];

	for (i = 0; i < nt; i++)
		if (src_tensor(c->x.s, i, &nm, &t) == 0)
			live++;
	c->x.deps = 0;
	c->x.il = -1;
	c->x.why[0] = '\0';
	if (ev_let(&c->x, "n_layer", &nlayer) != 0 || nlayer < 0) {
		nlayer = 0;
		c->uncertain = 1;
	}
	c->ldeps = c->x.deps;
	/* A block past the tensors can only be missing: stop there. */
	upto = nlayer;
	if ((uint64_t)upto > live + 1)
		upto = (int64_t)live + 1;
	for (il = -1; il < upto; il++) {
		for (k = 0; k < s->nrows; k++) {
			const struct crow *r = s->rows[k];

			if (r->r->kind == GGUF_MR_TENSOR && r->err[0] == '\0' &&
			    r->block == (il >= 0))
				check_tensor(c, r, il, nlayer);
		}
	}
	if (upto < nlayer)
		more_missing(c, upto, nlayer);
	if (c->nmissing > MAX_SHOWN)
		say(c, GGUF_W_ERROR, GGUF_MF_MODEL, NULL, -1, c->ldeps,
		    "%llu more tensor%s llama.cpp requires %s missing",
		    (unsigned long long)(c->nmissing - MAX_SHOWN),
		    c->nmissing - MAX_SHOWN == 1 ? "" : "s",
		    c->nmissing - MAX_SHOWN == 1 ? "is" : "are");
	if (c->nshape > MAX_SHOWN)
		say(c, GGUF_W_ERROR, GGUF_MF_MODEL, NULL, -1, 0,
		    "%llu more tensor%s a shape llama.cpp refuses",
		    (unsigned long long)(c->nshape - MAX_SHOWN),
		    c->nshape - MAX_SHOWN == 1 ? " has" : "s have");
	if (c->uncertain)
		return;
	for (i = 0; i < nt; i++) {
		if (c->used[i] || src_tensor(c->x.s, i, &nm, &t) != 0)
			continue;
		if (c->nunused++ >= MAX_SHOWN)
			continue;
		snprintf(name, sizeof name, "%.*s", (int)(nm.n < 64 ? nm.n :
		    64), nm.p);
		say(c, GGUF_W_ERROR, GGUF_MF_TENSOR, name, (int64_t)i, 0,
		    "tensor %s is not used by %.*s: llama.cpp refuses files "
		    "with tensors it does not load", name,
		    (int)c->x.archn, c->x.arch);
	}
	if (c->nunused > MAX_SHOWN)
		say(c, GGUF_W_ERROR, GGUF_MF_MODEL, NULL, -1, 0,
		    "%llu more tensor%s not used by %.*s",
		    (unsigned long long)(c->nunused - MAX_SHOWN),
		    c->nunused - MAX_SHOWN == 1 ? " is" : "s are",
		    (int)c->x.archn, c->x.arch);
}

static unsigned
run(const struct msrc *s, int file, gguf_mfinding_fn fn, void *arg)
{
	const struct csect	*sect;
	struct gguf_val		*v;
	struct gguf_str		 arch, type;
	struct check		 c;
	uint64_t		 nt = src_ntensors(s), i, live = 0;
	const struct gguf_tensor *t;
	struct gguf_str		 nm;
	size_t			 k;

	for (i = 0; i < nt; i++)
		if (src_tensor(s, i, &nm, &t) == 0)
			live++;
	if (live == 0)
		return 0;
	v = src_get(s, "general.type", 12);
	if (v != NULL && gguf_val_str(v, &type) == 0 &&
	    !(type.n == 5 && memcmp(type.p, "model", 5) == 0))
		return 0;
	v = src_get(s, "general.architecture", 20);
	if (v == NULL || gguf_val_str(v, &arch) != 0 || arch.n == 0 ||
	    arch.n > 64 || memchr(arch.p, '\0', (size_t)arch.n) != NULL)
		return 0;
	memset(&c, 0, sizeof c);
	c.fn = fn;
	c.arg = arg;
	c.file = file;
	if ((arch.n == 1 && arch.p[0] == '*') ||
	    (sect = find_sect(arch.p, (size_t)arch.n)) == NULL) {
		char	a[80];

		snprintf(a, sizeof a, "%.*s", (int)arch.n, arch.p);
		say(&c, GGUF_W_NOTE, GGUF_MF_MODEL, NULL, -1, 0, "tensors not "
		    "checked: architecture %s is not in the table", a);
		return 0;
	}
	ctx_init(&c.x, s, sect, arch.p, (size_t)arch.n);
	c.used = xcalloc((size_t)nt + 1, 1);
	for (k = 0; k < sect->nrows; k++)
		if (sect->rows[k]->r->kind == GGUF_MR_KEY)
			check_key(&c, sect->rows[k]);
	for (k = 0; k < sect->nrows; k++)
		if (sect->rows[k]->r->kind == GGUF_MR_NEED)
			check_need(&c, sect->rows[k]);
	check_tensors(&c);
	free(c.used);
	free(c.x.memo);
	return c.errors;
}

unsigned
gguf_model_check(struct gguf_doc *d, gguf_mfinding_fn fn, void *arg)
{
	struct msrc	s = { d, NULL };

	return run(&s, 0, fn, arg);
}

unsigned
gguf_model_check_file(struct gguf_file *f, gguf_mfinding_fn fn, void *arg)
{
	struct msrc	s = { NULL, f };

	return run(&s, 1, fn, arg);
}

/* ------------------------------------------------------------ names wanted */

struct gguf_mnames {
	char	**v;
	size_t	  n;
	size_t	  cap;
};

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

struct gguf_mnames *
gguf_model_names(struct gguf_doc *d)
{
	const struct csect		*sect;
	const struct gguf_tensor	*t;
	struct gguf_mnames		*mn;
	struct msrc			 s = { d, NULL };
	struct gguf_str			 arch, nm;
	struct gguf_val			*v;
	struct check			 c;
	uint64_t			 i, nt, live = 0;
	int64_t				 nlayer, upto, il;
	uint32_t			 deps;
	size_t				 k;
	int				 n;
	char				 name[160];

	v = src_get(&s, "general.architecture", 20);
	if (v == NULL || gguf_val_str(v, &arch) != 0 || arch.n == 0 ||
	    arch.n > 64 || (arch.n == 1 && arch.p[0] == '*') ||
	    (sect = find_sect(arch.p, (size_t)arch.n)) == NULL)
		return NULL;
	memset(&c, 0, sizeof c);
	ctx_init(&c.x, &s, sect, arch.p, (size_t)arch.n);
	if (ev_let(&c.x, "n_layer", &nlayer) != 0 || nlayer < 0) {
		free(c.x.memo);
		return NULL;
	}
	nt = src_ntensors(&s);
	for (i = 0; i < nt; i++)
		if (src_tensor(&s, i, &nm, &t) == 0)
			live++;
	upto = (uint64_t)nlayer > live + 1 ? (int64_t)live + 1 : nlayer;
	mn = xcalloc(1, sizeof *mn);
	for (il = -1; il < upto; il++) {
		for (k = 0; k < sect->nrows; k++) {
			const struct crow *r = sect->rows[k];

			if (r->r->kind != GGUF_MR_TENSOR ||
			    r->err[0] != '\0' || r->block != (il >= 0))
				continue;
			deps = 0;
			if (when_of(&c, r, il, &deps) == -1 ||
			    (n = expand(&c.x, r->r->name, il, name,
			    sizeof name)) < 0)
				continue;
			if (mn->n == mn->cap) {
				mn->cap = mn->cap ? mn->cap * 2 : 256;
				mn->v = xreallocarray(mn->v, mn->cap,
				    sizeof *mn->v);
			}
			mn->v[mn->n++] = xstrndup(name, (size_t)n);
		}
	}
	free(c.x.memo);
	qsort(mn->v, mn->n, sizeof *mn->v, name_cmp);
	return mn;
}

int
gguf_mnames_has(const struct gguf_mnames *mn, const char *name, size_t n)
{
	char	*key, **hit;

	if (mn == NULL)
		return 1;
	key = xstrndup(name, n);
	hit = bsearch(&key, mn->v, mn->n, sizeof *mn->v, name_cmp);
	free(key);
	return hit != NULL;
}

void
gguf_mnames_free(struct gguf_mnames *mn)
{
	size_t	i;

	if (mn == NULL)
		return;
	for (i = 0; i < mn->n; i++)
		free(mn->v[i]);
	free(mn->v);
	free(mn);
}

/* The messages of the errors of the source, to tell new ones from them. */
struct known {
	char			**msg;
	size_t			  n;
	gguf_mfinding_fn	  fn;
	void			 *arg;
	unsigned		  fresh;
};

static void
known_add(void *arg, const struct gguf_mfinding *f)
{
	struct known	*k = arg;

	if (f->level != GGUF_W_ERROR)
		return;
	k->msg = xreallocarray(k->msg, k->n + 1, sizeof *k->msg);
	k->msg[k->n++] = xstrdup(f->msg);
}

static void
known_filter(void *arg, const struct gguf_mfinding *f)
{
	struct known	*k = arg;
	size_t		 i;

	if (f->level != GGUF_W_ERROR)
		return;
	for (i = 0; i < k->n; i++)
		if (strcmp(k->msg[i], f->msg) == 0)
			return;
	k->fresh++;
	if (k->fn != NULL)
		k->fn(k->arg, f);
}

unsigned
gguf_model_check_new(struct gguf_doc *d, gguf_mfinding_fn fn, void *arg)
{
	struct msrc	src = { NULL, gguf_doc_file(d) }, doc = { d, NULL };
	struct known	k;
	size_t		i;

	memset(&k, 0, sizeof k);
	k.fn = fn;
	k.arg = arg;
	/* The source read as a document: the same faults, the same words. */
	run(&src, 0, known_add, &k);
	run(&doc, 0, known_filter, &k);
	for (i = 0; i < k.n; i++)
		free(k.msg[i]);
	free(k.msg);
	return k.fresh;
}

static void
verdict_cb(void *arg, const struct gguf_mfinding *f)
{
	struct gguf_mverdict	*v = arg;

	if (f->level >= GGUF_W_NOTE && f->level <= GGUF_W_ERROR)
		v->count[f->level]++;
	if (f->level == GGUF_W_ERROR && v->first[0] == '\0')
		snprintf(v->first, sizeof v->first, "%s", f->msg);
}

void
gguf_model_verdict(struct gguf_doc *d, struct gguf_mverdict *v)
{
	memset(v, 0, sizeof *v);
	gguf_model_check(d, verdict_cb, v);
}

/* ----------------------------------------------------------- for the tests */

int
gguf_model_eval(struct gguf_doc *d, const char *arch, const char *expr,
    int64_t il, int64_t *out, char *why, size_t len)
{
	const struct csect	*sect = NULL;
	struct msrc		 s = { d, NULL };
	struct mctx		 x;
	struct mnode		*e;
	int			 rc;

	*out = 0;
	if (arch != NULL)
		sect = find_sect(arch, strlen(arch));
	if (sect == NULL)
		sect = find_sect("*", 1);
	if (sect == NULL) {
		snprintf(why, len, "the table has no * section");
		return -1;
	}
	if ((e = parse(expr, strlen(expr), why, len)) == NULL)
		return -1;
	if (arch == NULL)
		arch = "";
	ctx_init(&x, &s, sect, arch, strlen(arch));
	rc = eval_at(&x, e, il, out);
	if (rc != 0)
		snprintf(why, len, "%s", x.why);
	free(x.memo);
	node_free(e);
	return rc;
}

/* Every name an expression uses is a let the section sees (or il). */
static int
names_ok(const struct csect *s, const struct mnode *n, char *why, size_t len)
{
	if (n == NULL)
		return 0;
	if (n->op == OP_LET) {
		if (let_row(s, n->str) == SIZE_MAX) {
			snprintf(why, len, "no parameter %s in section %s",
			    n->str, s->name);
			return -1;
		}
	}
	if (names_ok(s, n->a, why, len) != 0 ||
	    names_ok(s, n->b, why, len) != 0 ||
	    names_ok(s, n->c, why, len) != 0)
		return -1;
	return 0;
}

int
gguf_model_table_verify(char *why, size_t len)
{
	const struct crow	*r;
	size_t			 k, i;
	int			 j, bad = 0;
	char			 w[200];

	compile();
	why[0] = '\0';
	for (i = 0; i < gguf_model_nrows; i++) {
		if (crows[i].err[0] == '\0')
			continue;
		if (bad++ == 0)
			snprintf(why, len, "%s", crows[i].err);
	}
	for (k = 0; k < ncsects; k++) {
		for (i = 0; i < csects[k].nrows; i++) {
			r = csects[k].rows[i];
			w[0] = '\0';
			for (j = 0; j < r->ne && w[0] == '\0'; j++)
				names_ok(&csects[k], r->e[j], w, sizeof w);
			for (j = 0; j < r->ncl && w[0] == '\0'; j++)
				names_ok(&csects[k], r->cl[j].cond, w,
				    sizeof w);
			for (j = 0; j < r->nkt && w[0] == '\0'; j++)
				names_ok(&csects[k], r->kt[j].len, w,
				    sizeof w);
			if (w[0] == '\0')
				continue;
			if (bad++ == 0)
				snprintf(why, len, "models.tsv:%u: %s",
				    r->r->line, w);
		}
	}
	if (find_sect("*", 1) == NULL && bad++ == 0)
		snprintf(why, len, "models.tsv: no * section");
	return bad;
}
