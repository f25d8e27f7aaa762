/*
 * parse.c - tokens into the syntax tree, with jinja2's grammar:
 *
 *	expr	:= or ("if" or ["else" expr])*
 *	or	:= and ("or" and)*	and := not ("and" not)*
 *	not	:= "not" not | compare
 *	compare	:= math1 (("=="|"!="|"<"|"<="|">"|">="|"in"|"not" "in") math1)*
 *	math1	:= concat (("+"|"-") concat)*	concat := math2 ("~" math2)*
 *	math2	:= pow (("*"|"/"|"//"|"%") pow)*	pow := unary ("**" unary)*
 *	unary	:= ("-"|"+") unary-without-filters | primary postfix filters
 *
 * where postfix is attribute, subscript and call, and filters are "|"
 * filter, "is" test and calls after them. Power is left-associative, as
 * in jinja2. Statements: for, if, set, macro, call, filter, with, break,
 * continue (raw is the lexer's).
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jint.h"
#include "xmalloc.h"

#define MAX_PARSE_DEPTH	200	/* the parser's own recursion */
#define MAX_TREE_DEPTH	1000	/* the tree's: any walk over it recurses */

struct ps {
	struct tokens	*t;
	size_t		 i;
	struct jinja_error *err;
	int		 failed;
	unsigned	 depth;
	/* the blocks open, for the message at an unexpected end */
	const char	*open[MAX_PARSE_DEPTH + 8];
	unsigned	 nopen;
};

static struct token *
cur(struct ps *p)
{
	return &p->t->v[p->i];
}

static struct token *
peek(struct ps *p, size_t k)
{
	size_t	i = p->i + k;

	return &p->t->v[i < p->t->n ? i : p->t->n - 1];
}

static void
next(struct ps *p)
{
	if (p->i + 1 < p->t->n)
		p->i++;
}

static const char *
describe(const struct token *k, char *buf, size_t sz)
{
	switch (k->type) {
	case T_EOF: return "end of template";
	case T_DATA: return "template data";
	case T_VAR_BEGIN: return "begin of print statement";
	case T_VAR_END: return "end of print statement";
	case T_BLOCK_BEGIN: return "begin of statement block";
	case T_BLOCK_END: return "end of statement block";
	case T_STRING: return "string";
	case T_INT: return "integer";
	case T_FLOAT: return "float";
	default:
		snprintf(buf, sz, "%.*s", (int)(k->n > 60 ? 60 : k->n), k->p);
		return buf;
	}
}

static void *fail_at(struct ps *p, const struct token *k, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void *
fail_at(struct ps *p, const struct token *k, const char *fmt, ...)
{
	va_list	ap;

	if (p->failed)
		return NULL;
	p->failed = 1;
	p->err->line = k->line;
	p->err->col = k->col;
	p->err->raised = 0;
	va_start(ap, fmt);
	vsnprintf(p->err->msg, sizeof p->err->msg, fmt, ap);
	va_end(ap);
	return NULL;
}

static void *
unexpected(struct ps *p)
{
	char	b[80];

	if (cur(p)->type == T_EOF)
		return fail_at(p, cur(p), "unexpected end of template");
	return fail_at(p, cur(p), "unexpected '%s'", describe(cur(p), b, sizeof b));
}

static int
is_op(struct ps *p, int op)
{
	return cur(p)->type == T_OP && cur(p)->op == op;
}

static int
is_name(struct ps *p, const char *name)
{
	const struct token *k = cur(p);

	return k->type == T_NAME && k->n == strlen(name) &&
	    memcmp(k->p, name, k->n) == 0;
}

static int
tok_is_name(const struct token *k, const char *name)
{
	return k->type == T_NAME && k->n == strlen(name) &&
	    memcmp(k->p, name, k->n) == 0;
}

static int
expect_op(struct ps *p, int op, const char *what)
{
	char	b[80];

	if (is_op(p, op)) {
		next(p);
		return 0;
	}
	if (cur(p)->type == T_EOF)
		fail_at(p, cur(p), "unexpected end of template, expected '%s'", what);
	else
		fail_at(p, cur(p), "expected token '%s', got '%s'", what,
		    describe(cur(p), b, sizeof b));
	return -1;
}

static int
expect_type(struct ps *p, enum tok t, const char *what)
{
	char	b[80];

	if (cur(p)->type == t) {
		next(p);
		return 0;
	}
	fail_at(p, cur(p), "expected token '%s', got '%s'", what,
	    describe(cur(p), b, sizeof b));
	return -1;
}

static struct node *
mk(enum ntype t, const struct token *k)
{
	struct node *n = xcalloc(1, sizeof *n);

	n->t = t;
	n->line = k->line;
	n->col = k->col;
	return n;
}

void
nlist_push(struct nlist *l, struct node *n)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 4;
		l->v = xreallocarray(l->v, l->cap, sizeof *l->v);
	}
	l->v[l->n++] = n;
}

/*
 * Frees a tree without recursion, so that a tree of any shape goes: the
 * nodes waiting are kept in a list.
 */
void
node_free(struct node *n)
{
	struct nlist	 todo = { NULL, 0, 0 };
	const struct nlist *lists[4];
	size_t		 i, k;

	if (n == NULL)
		return;
	nlist_push(&todo, n);
	while (todo.n > 0) {
		n = todo.v[--todo.n];
		if (n->a != NULL)
			nlist_push(&todo, n->a);
		if (n->b != NULL)
			nlist_push(&todo, n->b);
		if (n->c != NULL)
			nlist_push(&todo, n->c);
		lists[0] = &n->args;
		lists[1] = &n->kw;
		lists[2] = &n->body;
		lists[3] = &n->els;
		for (k = 0; k < 4; k++)
			for (i = 0; i < lists[k]->n; i++)
				nlist_push(&todo, lists[k]->v[i]);
		for (i = 0; n->kwn && i < n->kw.n; i++)
			free(n->kwn[i]);
		free(n->kwn);
		free(n->s);
		jv_unref(n->v);
		free(n->ops);
		free(n->args.v);
		free(n->kw.v);
		free(n->body.v);
		free(n->els.v);
		free(n);
	}
	free(todo.v);
}

static char *
tok_str(const struct token *k)
{
	return xstrndup(k->p, k->n);
}

static struct node *expr(struct ps *p, int condexpr);
static struct node *unary(struct ps *p, int with_filter);
static struct node *tuple(struct ps *p, int simplified, int condexpr,
    const char *extra_end, int explicit, int with_ns);
static struct node *logic_expr(struct ps *p, int and_level);
static struct node *arith(struct ps *p, size_t level);

static int
enter(struct ps *p)
{
	if (++p->depth > MAX_PARSE_DEPTH) {
		fail_at(p, cur(p), "template nested too deeply");
		return -1;
	}
	return 0;
}

static int
call_args(struct ps *p, struct node *n)
{
	int	need_comma = 0;
	struct node *v;

	if (expect_op(p, OP_LPAREN, "("))
		return -1;
	while (!is_op(p, OP_RPAREN)) {
		if (need_comma) {
			if (expect_op(p, OP_COMMA, ","))
				return -1;
			if (is_op(p, OP_RPAREN))
				break;
		}
		if (is_op(p, OP_MUL)) {
			if (n->c != NULL || n->star)
				return fail_at(p, cur(p), "invalid syntax for function call expression"), -1;
			next(p);
			if ((n->c = expr(p, 1)) == NULL)
				return -1;
			n->star = 1;
		} else if (is_op(p, OP_POW)) {
			return fail_at(p, cur(p), "**kwargs in a call is not supported"), -1;
		} else if (cur(p)->type == T_NAME && peek(p, 1)->type == T_OP &&
		    peek(p, 1)->op == OP_ASSIGN) {
			char *name = tok_str(cur(p));

			next(p);
			next(p);
			if ((v = expr(p, 1)) == NULL) {
				free(name);
				return -1;
			}
			n->kwn = xreallocarray(n->kwn, n->kw.n + 1, sizeof *n->kwn);
			n->kwn[n->kw.n] = name;
			nlist_push(&n->kw, v);
		} else {
			if (n->kw.n || n->star)
				return fail_at(p, cur(p), "invalid syntax for function call expression"), -1;
			if ((v = expr(p, 1)) == NULL)
				return -1;
			nlist_push(&n->args, v);
		}
		need_comma = 1;
	}
	next(p);
	return 0;
}

static struct node *
list_lit(struct ps *p)
{
	struct node *n = mk(N_LIST, cur(p)), *v;

	next(p);
	while (!is_op(p, OP_RBRACKET)) {
		if (n->args.n && expect_op(p, OP_COMMA, ","))
			goto bad;
		if (is_op(p, OP_RBRACKET))
			break;
		if ((v = expr(p, 1)) == NULL)
			goto bad;
		nlist_push(&n->args, v);
	}
	next(p);
	return n;
bad:
	node_free(n);
	return NULL;
}

static struct node *
dict_lit(struct ps *p)
{
	struct node *n = mk(N_DICT, cur(p)), *k, *v;

	next(p);
	while (!is_op(p, OP_RBRACE)) {
		if (n->args.n && expect_op(p, OP_COMMA, ","))
			goto bad;
		if (is_op(p, OP_RBRACE))
			break;
		if ((k = expr(p, 1)) == NULL)
			goto bad;
		nlist_push(&n->args, k);
		if (expect_op(p, OP_COLON, ":"))
			goto bad;
		if ((v = expr(p, 1)) == NULL)
			goto bad;
		nlist_push(&n->body, v);
	}
	next(p);
	return n;
bad:
	node_free(n);
	return NULL;
}

static struct node *
primary(struct ps *p, int with_ns)
{
	struct token *k = cur(p);
	struct node *n;

	switch (k->type) {
	case T_NAME:
		next(p);
		n = mk(N_CONST, k);
		if (tok_is_name(k, "true") || tok_is_name(k, "True"))
			n->v = jv_bool(1);
		else if (tok_is_name(k, "false") || tok_is_name(k, "False"))
			n->v = jv_bool(0);
		else if (tok_is_name(k, "none") || tok_is_name(k, "None"))
			n->v = jv_none();
		else if (with_ns && is_op(p, OP_DOT)) {
			next(p);
			n->t = N_NSREF;
			n->a = mk(N_NAME, k);
			n->a->s = tok_str(k);
			if (cur(p)->type != T_NAME) {
				node_free(n);
				return unexpected(p);
			}
			n->s = tok_str(cur(p));
			next(p);
		} else {
			n->t = N_NAME;
			n->s = tok_str(k);
		}
		return n;
	case T_STRING: {
		struct buf b = { 0 };
		size_t	len;
		char	*s;

		n = mk(N_CONST, k);
		while (cur(p)->type == T_STRING) {
			buf_add(&b, jv_str_ptr(cur(p)->v), jv_str_len(cur(p)->v));
			next(p);
		}
		s = buf_take(&b, &len);
		n->v = jv_str_take(s, len);
		return n;
	}
	case T_INT:
	case T_FLOAT:
		next(p);
		n = mk(N_CONST, k);
		n->v = jv_ref(k->v);
		return n;
	case T_OP:
		if (k->op == OP_LPAREN) {
			next(p);
			if ((n = tuple(p, 0, 1, NULL, 1, 0)) == NULL)
				return NULL;
			if (expect_op(p, OP_RPAREN, ")")) {
				node_free(n);
				return NULL;
			}
			return n;
		}
		if (k->op == OP_LBRACKET)
			return list_lit(p);
		if (k->op == OP_LBRACE)
			return dict_lit(p);
		break;
	default:
		break;
	}
	return unexpected(p);
}

static int
tuple_end(struct ps *p, const char *extra_end)
{
	const struct token *k = cur(p);

	if (k->type == T_VAR_END || k->type == T_BLOCK_END || k->type == T_EOF ||
	    (k->type == T_OP && k->op == OP_RPAREN))
		return 1;
	return extra_end != NULL && is_name(p, extra_end);
}

static struct node *
tuple(struct ps *p, int simplified, int condexpr, const char *extra_end,
    int explicit, int with_ns)
{
	struct node *n = mk(N_TUPLE, cur(p)), *v;
	int	is_tuple = 0;

	for (;;) {
		if (n->args.n && expect_op(p, OP_COMMA, ","))
			goto bad;
		if (tuple_end(p, extra_end))
			break;
		v = simplified ? primary(p, with_ns) : expr(p, condexpr);
		if (v == NULL)
			goto bad;
		nlist_push(&n->args, v);
		if (is_op(p, OP_COMMA))
			is_tuple = 1;
		else
			break;
	}
	if (!is_tuple) {
		if (n->args.n) {
			v = n->args.v[0];
			n->args.n = 0;
			node_free(n);
			return v;
		}
		if (!explicit) {
			char b[80];

			fail_at(p, cur(p), "Expected an expression, got '%s'",
			    describe(cur(p), b, sizeof b));
			goto bad;
		}
	}
	return n;
bad:
	node_free(n);
	return NULL;
}

static struct node *
subscribed(struct ps *p)
{
	struct node *n, *a = NULL;
	const struct token *k = cur(p);

	if (!is_op(p, OP_COLON)) {
		if ((a = expr(p, 1)) == NULL)
			return NULL;
		if (!is_op(p, OP_COLON))
			return a;
	}
	next(p);
	n = mk(N_SLICE, k);
	n->a = a;
	if (!is_op(p, OP_COLON) && !is_op(p, OP_RBRACKET) && !is_op(p, OP_COMMA))
		if ((n->b = expr(p, 1)) == NULL)
			goto bad;
	if (is_op(p, OP_COLON)) {
		next(p);
		if (!is_op(p, OP_RBRACKET) && !is_op(p, OP_COMMA))
			if ((n->c = expr(p, 1)) == NULL)
				goto bad;
	}
	return n;
bad:
	node_free(n);
	return NULL;
}

static struct node *
postfix(struct ps *p, struct node *n)
{
	struct node *m, *s;

	for (;;) {
		const struct token *k = cur(p);

		if (is_op(p, OP_DOT)) {
			next(p);
			if (cur(p)->type == T_NAME) {
				m = mk(N_GETATTR, k);
				m->line = n->line;
				m->col = n->col;
				m->a = n;
				m->s = tok_str(cur(p));
				next(p);
				n = m;
			} else if (cur(p)->type == T_INT) {
				m = mk(N_GETITEM, k);
				m->a = n;
				m->b = mk(N_CONST, cur(p));
				m->b->v = jv_ref(cur(p)->v);
				next(p);
				n = m;
			} else {
				fail_at(p, cur(p), "expected name or number");
				goto bad;
			}
		} else if (is_op(p, OP_LBRACKET)) {
			struct node *t = mk(N_TUPLE, k);

			next(p);
			m = mk(N_GETITEM, k);
			m->line = n->line;
			m->col = n->col;
			m->a = n;
			n = m;
			while (!is_op(p, OP_RBRACKET)) {
				if (t->args.n && expect_op(p, OP_COMMA, ",")) {
					node_free(t);
					goto bad;
				}
				if ((s = subscribed(p)) == NULL) {
					node_free(t);
					goto bad;
				}
				nlist_push(&t->args, s);
			}
			next(p);
			if (t->args.n == 1) {
				m->b = t->args.v[0];
				t->args.n = 0;
				node_free(t);
			} else
				m->b = t;
			if (m->b->t == N_TUPLE && m->b->args.n == 0) {
				fail_at(p, k, "expected an expression in the subscript");
				goto bad;
			}
		} else if (is_op(p, OP_LPAREN)) {
			m = mk(N_CALL, k);
			m->line = n->line;
			m->col = n->col;
			m->a = n;
			n = m;
			if (call_args(p, m))
				goto bad;
		} else
			return n;
	}
bad:
	node_free(n);
	return NULL;
}

static struct node *
filters(struct ps *p, struct node *n, int start_inline)
{
	struct node *m;

	while (is_op(p, OP_PIPE) || start_inline) {
		struct buf b = { 0 };
		const struct token *k;

		if (!start_inline)
			next(p);
		start_inline = 0;
		k = cur(p);
		if (k->type != T_NAME) {
			node_free(n);
			return unexpected(p);
		}
		buf_add(&b, k->p, k->n);
		next(p);
		while (is_op(p, OP_DOT)) {
			next(p);
			if (cur(p)->type != T_NAME) {
				free(b.p);
				node_free(n);
				return unexpected(p);
			}
			buf_addc(&b, '.');
			buf_add(&b, cur(p)->p, cur(p)->n);
			next(p);
		}
		m = mk(N_FILTER, k);
		m->a = n;
		m->s = buf_take(&b, NULL);
		n = m;
		if (is_op(p, OP_LPAREN) && call_args(p, m)) {
			node_free(n);
			return NULL;
		}
	}
	return n;
}

static struct node *
filter_expr(struct ps *p, struct node *n)
{
	struct node *m;

	for (;;) {
		if (is_op(p, OP_PIPE)) {
			if ((n = filters(p, n, 0)) == NULL)
				return NULL;
		} else if (is_name(p, "is")) {
			const struct token *k = cur(p);
			struct buf b = { 0 };

			next(p);
			m = mk(N_TEST, k);
			m->a = n;
			n = m;
			if (is_name(p, "not")) {
				next(p);
				m->op = 1;
			}
			if (cur(p)->type != T_NAME) {
				node_free(n);
				return unexpected(p);
			}
			buf_add(&b, cur(p)->p, cur(p)->n);
			next(p);
			while (is_op(p, OP_DOT)) {
				next(p);
				if (cur(p)->type != T_NAME) {
					free(b.p);
					node_free(n);
					return unexpected(p);
				}
				buf_addc(&b, '.');
				buf_add(&b, cur(p)->p, cur(p)->n);
				next(p);
			}
			m->s = buf_take(&b, NULL);
			if (is_op(p, OP_LPAREN)) {
				if (call_args(p, m)) {
					node_free(n);
					return NULL;
				}
			} else {
				const struct token *c = cur(p);

				if ((c->type == T_NAME || c->type == T_STRING ||
				    c->type == T_INT || c->type == T_FLOAT ||
				    (c->type == T_OP && (c->op == OP_LPAREN ||
				    c->op == OP_LBRACKET || c->op == OP_LBRACE))) &&
				    !is_name(p, "else") && !is_name(p, "or") &&
				    !is_name(p, "and")) {
					struct node *a;

					if (is_name(p, "is")) {
						node_free(n);
						return fail_at(p, c, "You cannot chain multiple tests with is");
					}
					if ((a = primary(p, 0)) == NULL ||
					    (a = postfix(p, a)) == NULL) {
						node_free(n);
						return NULL;
					}
					nlist_push(&m->args, a);
				}
			}
		} else if (is_op(p, OP_LPAREN)) {
			m = mk(N_CALL, cur(p));
			m->a = n;
			n = m;
			if (call_args(p, m)) {
				node_free(n);
				return NULL;
			}
		} else
			return n;
	}
}

static struct node *
unary(struct ps *p, int with_filter)
{
	const struct token *k = cur(p);
	struct node *n, *m;

	if (enter(p))
		return NULL;
	if (is_op(p, OP_SUB) || is_op(p, OP_ADD)) {
		int	op = is_op(p, OP_SUB) ? OP_NEG : OP_POS;

		next(p);
		if ((m = unary(p, 0)) == NULL)
			return NULL;
		n = mk(N_UNARY, k);
		n->op = op;
		n->a = m;
	} else if ((n = primary(p, 0)) == NULL)
		return NULL;
	if ((n = postfix(p, n)) == NULL)
		return NULL;
	if (with_filter && (n = filter_expr(p, n)) == NULL)
		return NULL;
	p->depth--;
	return n;
}

static struct node *
binop(const struct token *k, int op, struct node *a, struct node *b)
{
	struct node *n = mk(N_BINOP, k);

	n->op = op;
	n->a = a;
	n->b = b;
	return n;
}

static struct node *
power(struct ps *p)
{
	struct node *n = unary(p, 1), *r;

	while (n && is_op(p, OP_POW)) {
		const struct token *k = cur(p);

		next(p);
		if ((r = unary(p, 1)) == NULL) {
			node_free(n);
			return NULL;
		}
		n = binop(k, OP_POW, n, r);
	}
	return n;
}

/*
 * The left-associative arithmetic levels, loosest first: math1, concat,
 * math2 of the grammar above; the operands of the last are pow.
 */
static const int arith_ops[][5] = {
	{ OP_ADD, OP_SUB, -1 },
	{ OP_TILDE, -1 },
	{ OP_MUL, OP_DIV, OP_FLOORDIV, OP_MOD, -1 },
};
#define N_ARITH	(sizeof arith_ops / sizeof arith_ops[0])

static int
at_arith_op(struct ps *p, size_t level)
{
	const int	*op;

	for (op = arith_ops[level]; *op >= 0; op++)
		if (is_op(p, *op))
			return 1;
	return 0;
}

static struct node *
arith_operand(struct ps *p, size_t level)
{
	return level + 1 < N_ARITH ? arith(p, level + 1) : power(p);
}

static struct node *
arith(struct ps *p, size_t level)
{
	struct node *n = arith_operand(p, level), *r;

	while (n && at_arith_op(p, level)) {
		const struct token *k = cur(p);

		next(p);
		if ((r = arith_operand(p, level)) == NULL) {
			node_free(n);
			return NULL;
		}
		n = binop(k, k->op, n, r);
	}
	return n;
}

static struct node *
compare(struct ps *p)
{
	struct node *n = arith(p, 0), *c = NULL, *r;
	const struct token *k0 = cur(p);

	if (n == NULL)
		return NULL;
	for (;;) {
		int	op;

		if (cur(p)->type == T_OP && (cur(p)->op == OP_EQ ||
		    cur(p)->op == OP_NE || cur(p)->op == OP_LT ||
		    cur(p)->op == OP_LTEQ || cur(p)->op == OP_GT ||
		    cur(p)->op == OP_GTEQ)) {
			op = cur(p)->op;
			next(p);
		} else if (is_name(p, "in")) {
			op = OP_IN;
			next(p);
		} else if (is_name(p, "not") && tok_is_name(peek(p, 1), "in")) {
			op = OP_NOTIN;
			next(p);
			next(p);
		} else
			break;
		if ((r = arith(p, 0)) == NULL) {
			node_free(c ? c : n);
			return NULL;
		}
		if (c == NULL) {
			c = mk(N_COMPARE, k0);
			c->line = n->line;
			c->col = n->col;
			nlist_push(&c->args, n);
		}
		c->ops = xreallocarray(c->ops, c->args.n, sizeof *c->ops);
		c->ops[c->args.n - 1] = op;
		nlist_push(&c->args, r);
	}
	return c ? c : n;
}

static struct node *
not_expr(struct ps *p)
{
	struct node *n, *m;
	const struct token *k = cur(p);

	if (is_name(p, "not")) {
		next(p);
		if (enter(p))
			return NULL;
		if ((m = not_expr(p)) == NULL)
			return NULL;
		p->depth--;
		n = mk(N_NOT, k);
		n->a = m;
		return n;
	}
	return compare(p);
}

/*
 * "a or b" (and_level 0) and "a and b" (and_level 1): left-associative
 * chains, "and" binding tighter than "or".
 */
static struct node *
logic_operand(struct ps *p, int and_level)
{
	return and_level ? not_expr(p) : logic_expr(p, 1);
}

static struct node *
logic_expr(struct ps *p, int and_level)
{
	struct node *n = logic_operand(p, and_level), *r;

	while (n && is_name(p, and_level ? "and" : "or")) {
		const struct token *k = cur(p);

		next(p);
		if ((r = logic_operand(p, and_level)) == NULL) {
			node_free(n);
			return NULL;
		}
		n = binop(k, 0, n, r);
		n->t = and_level ? N_AND : N_OR;
	}
	return n;
}

static struct node *
condexpr(struct ps *p)
{
	struct node *n = logic_expr(p, 0), *m;

	while (n && is_name(p, "if")) {
		const struct token *k = cur(p);

		next(p);
		m = mk(N_COND, k);
		m->b = n;
		n = m;
		if ((m->a = logic_expr(p, 0)) == NULL) {
			node_free(n);
			return NULL;
		}
		if (is_name(p, "else")) {
			next(p);
			if (enter(p) || (m->c = condexpr(p)) == NULL) {
				node_free(n);
				return NULL;
			}
			p->depth--;
		}
	}
	return n;
}

static struct node *
expr(struct ps *p, int cond)
{
	struct node *n;

	if (enter(p))
		return NULL;
	n = cond ? condexpr(p) : logic_expr(p, 0);
	p->depth--;
	return n;
}

/* ---------------------------------------------------------- statements */
static int subparse(struct ps *p, struct nlist *body, const char *const *ends);

/*
 * The body of a block up to one of ends (NULL-terminated): the opening
 * tag's end first; leaves the stream at the ending name.
 */
static int
statements(struct ps *p, struct nlist *body, const char *const *ends)
{
	if (is_op(p, OP_COLON))
		next(p);
	if (expect_type(p, T_BLOCK_END, "end of statement block"))
		return -1;
	return subparse(p, body, ends);
}

static int
drop_needle(struct ps *p, const char *name)
{
	(void)name;
	next(p);
	return 0;
}

static int
check_target(struct ps *p, struct node *t)
{
	size_t	i;

	if (t->t == N_NAME) {
		if (!strcmp(t->s, "true") || !strcmp(t->s, "false") ||
		    !strcmp(t->s, "none") || !strcmp(t->s, "True") ||
		    !strcmp(t->s, "False") || !strcmp(t->s, "None"))
			goto bad;
		return 0;
	}
	if (t->t == N_NSREF)
		return 0;
	if (t->t == N_TUPLE) {
		for (i = 0; i < t->args.n; i++)
			if (t->args.v[i]->t != N_NAME && t->args.v[i]->t != N_NSREF)
				goto bad;
		return 0;
	}
bad:
	fail_at(p, cur(p), "can't assign to %s", t->t == N_CONST ? "'const'" :
	    t->t == N_TUPLE ? "'tuple'" : "this expression");
	return -1;
}

static struct node *
assign_target(struct ps *p, const char *extra_end, int with_ns)
{
	struct node *t = tuple(p, 1, 1, extra_end, 0, with_ns);

	if (t == NULL)
		return NULL;
	if (check_target(p, t)) {
		node_free(t);
		return NULL;
	}
	return t;
}

static int
signature(struct ps *p, struct node *n)
{
	struct node *d;

	if (expect_op(p, OP_LPAREN, "("))
		return -1;
	while (!is_op(p, OP_RPAREN)) {
		struct node *a;

		if (n->args.n && expect_op(p, OP_COMMA, ","))
			return -1;
		if (cur(p)->type != T_NAME) {
			unexpected(p);
			return -1;
		}
		a = mk(N_NAME, cur(p));
		a->s = tok_str(cur(p));
		next(p);
		nlist_push(&n->args, a);
		if (is_op(p, OP_ASSIGN)) {
			next(p);
			if ((d = expr(p, 1)) == NULL)
				return -1;
			nlist_push(&n->kw, d);
		} else if (n->kw.n) {
			fail_at(p, cur(p), "non-default argument follows default argument");
			return -1;
		}
	}
	next(p);
	return 0;
}

static struct node *
statement(struct ps *p)
{
	const struct token *k = cur(p);
	struct node *n = NULL;
	static const char *const for_ends[] = { "endfor", "else", NULL };
	static const char *const endfor[] = { "endfor", NULL };
	static const char *const if_ends[] = { "elif", "else", "endif", NULL };
	static const char *const endif[] = { "endif", NULL };
	static const char *const endset[] = { "endset", NULL };
	static const char *const endmacro[] = { "endmacro", NULL };
	static const char *const endcall[] = { "endcall", NULL };
	static const char *const endfilter[] = { "endfilter", NULL };
	static const char *const endwith[] = { "endwith", NULL };

	if (k->type != T_NAME) {
		char	b[80];

		return fail_at(p, k, "tag name expected, got '%s'",
		    describe(k, b, sizeof b));
	}
	if (p->nopen >= MAX_PARSE_DEPTH)
		return fail_at(p, k, "template nested too deeply");
	if (tok_is_name(k, "for")) {
		p->open[p->nopen++] = "for";
		n = mk(N_FOR, k);
		next(p);
		if ((n->a = assign_target(p, "in", 0)) == NULL)
			goto bad;
		if (!is_name(p, "in")) {
			fail_at(p, cur(p), "expected 'in'");
			goto bad;
		}
		next(p);
		if ((n->b = tuple(p, 0, 0, "recursive", 0, 0)) == NULL)
			goto bad;
		if (is_name(p, "if")) {
			next(p);
			if ((n->c = expr(p, 1)) == NULL)
				goto bad;
		}
		if (is_name(p, "recursive")) {
			next(p);
			n->op = 1;
		}
		if (statements(p, &n->body, for_ends))
			goto bad;
		if (is_name(p, "else")) {
			next(p);
			if (statements(p, &n->els, endfor))
				goto bad;
		}
		drop_needle(p, "endfor");
		p->nopen--;
		return n;
	}
	if (tok_is_name(k, "if")) {
		struct node *cur_if;

		p->open[p->nopen++] = "if";
		n = cur_if = mk(N_IF, k);
		next(p);
		for (;;) {
			if ((cur_if->a = tuple(p, 0, 0, NULL, 0, 0)) == NULL)
				goto bad;
			if (statements(p, &cur_if->body, if_ends))
				goto bad;
			if (is_name(p, "elif")) {
				struct node *e = mk(N_IF, cur(p));

				next(p);
				nlist_push(&cur_if->els, e);
				cur_if = e;
				continue;
			}
			if (is_name(p, "else")) {
				next(p);
				if (statements(p, &cur_if->els, endif))
					goto bad;
			}
			break;
		}
		drop_needle(p, "endif");
		p->nopen--;
		return n;
	}
	if (tok_is_name(k, "set")) {
		struct node *t;

		next(p);
		if ((t = assign_target(p, NULL, 1)) == NULL)
			return NULL;
		if (is_op(p, OP_ASSIGN)) {
			next(p);
			n = mk(N_SET, k);
			n->a = t;
			if ((n->b = tuple(p, 0, 1, NULL, 0, 0)) == NULL)
				goto bad;
			return n;
		}
		p->open[p->nopen++] = "set";
		n = mk(N_SETBLOCK, k);
		n->a = t;
		if (is_op(p, OP_PIPE) && (n->c = filters(p, NULL, 0)) == NULL)
			goto bad;
		if (statements(p, &n->body, endset))
			goto bad;
		drop_needle(p, "endset");
		p->nopen--;
		return n;
	}
	if (tok_is_name(k, "macro")) {
		p->open[p->nopen++] = "macro";
		n = mk(N_MACRO, k);
		next(p);
		if (cur(p)->type != T_NAME)
			return unexpected(p), node_free(n), NULL;
		n->s = tok_str(cur(p));
		next(p);
		if (signature(p, n) || statements(p, &n->body, endmacro))
			goto bad;
		drop_needle(p, "endmacro");
		p->nopen--;
		return n;
	}
	if (tok_is_name(k, "call")) {
		p->open[p->nopen++] = "call";
		n = mk(N_CALLBLOCK, k);
		next(p);
		n->s = xstrdup("caller");
		if (is_op(p, OP_LPAREN) && signature(p, n))
			goto bad;
		if ((n->a = expr(p, 1)) == NULL)
			goto bad;
		if (n->a->t != N_CALL) {
			fail_at(p, k, "expected call");
			goto bad;
		}
		if (statements(p, &n->body, endcall))
			goto bad;
		drop_needle(p, "endcall");
		p->nopen--;
		return n;
	}
	if (tok_is_name(k, "filter")) {
		p->open[p->nopen++] = "filter";
		n = mk(N_FILTERBLOCK, k);
		next(p);
		if ((n->c = filters(p, NULL, 1)) == NULL)
			goto bad;
		if (statements(p, &n->body, endfilter))
			goto bad;
		drop_needle(p, "endfilter");
		p->nopen--;
		return n;
	}
	if (tok_is_name(k, "with")) {
		p->open[p->nopen++] = "with";
		n = mk(N_WITH, k);
		next(p);
		while (cur(p)->type != T_BLOCK_END) {
			struct node *t, *v;

			if (n->args.n && expect_op(p, OP_COMMA, ","))
				goto bad;
			if ((t = assign_target(p, NULL, 0)) == NULL)
				goto bad;
			nlist_push(&n->args, t);
			if (expect_op(p, OP_ASSIGN, "=") || (v = expr(p, 1)) == NULL)
				goto bad;
			nlist_push(&n->kw, v);
		}
		if (statements(p, &n->body, endwith))
			goto bad;
		drop_needle(p, "endwith");
		p->nopen--;
		return n;
	}
	if (tok_is_name(k, "generation")) {
		/* transformers' tag marking assistant text: renders its body */
		static const char *const endgen[] = { "endgeneration", NULL };

		p->open[p->nopen++] = "generation";
		n = mk(N_WITH, k);
		next(p);
		if (statements(p, &n->body, endgen))
			goto bad;
		drop_needle(p, "endgeneration");
		p->nopen--;
		return n;
	}
	if (tok_is_name(k, "break") || tok_is_name(k, "continue")) {
		unsigned i;
		int	inloop = 0;

		for (i = p->nopen; i > 0; i--) {
			if (!strcmp(p->open[i - 1], "macro") ||
			    !strcmp(p->open[i - 1], "call"))
				break;
			if (!strcmp(p->open[i - 1], "for")) {
				inloop = 1;
				break;
			}
		}
		if (!inloop)
			return fail_at(p, k, "'%.*s' only valid in a for loop",
			    (int)k->n, k->p);
		n = mk(tok_is_name(k, "break") ? N_BREAK : N_CONTINUE, k);
		next(p);
		return n;
	}
	if (tok_is_name(k, "block") || tok_is_name(k, "extends") ||
	    tok_is_name(k, "include") || tok_is_name(k, "import") ||
	    tok_is_name(k, "from"))
		return fail_at(p, k, "'%.*s' needs other templates, which a chat template cannot have",
		    (int)k->n, k->p);
	return fail_at(p, k, "Encountered unknown tag '%.*s'.", (int)k->n, k->p);
bad:
	node_free(n);
	return NULL;
}

static int
is_end(struct ps *p, const char *const *ends)
{
	size_t	i;

	if (ends == NULL)
		return 0;
	for (i = 0; ends[i]; i++)
		if (is_name(p, ends[i]))
			return 1;
	return 0;
}

static int
subparse(struct ps *p, struct nlist *body, const char *const *ends)
{
	struct node *n;

	for (;;) {
		const struct token *k = cur(p);

		switch (k->type) {
		case T_DATA:
			n = mk(N_OUTPUT, k);
			n->v = jv_ref(k->v);
			nlist_push(body, n);
			next(p);
			break;
		case T_VAR_BEGIN:
			next(p);
			n = mk(N_PRINT, k);
			nlist_push(body, n);
			if ((n->a = tuple(p, 0, 1, NULL, 0, 0)) == NULL)
				return -1;
			if (expect_type(p, T_VAR_END, "end of print statement"))
				return -1;
			break;
		case T_BLOCK_BEGIN:
			next(p);
			if (is_end(p, ends))
				return 0;
			if ((n = statement(p)) == NULL)
				return -1;
			nlist_push(body, n);
			if (expect_type(p, T_BLOCK_END, "end of statement block"))
				return -1;
			break;
		case T_EOF:
			if (ends != NULL) {
				struct buf b = { 0 };
				size_t	i;

				for (i = 0; ends[i]; i++)
					buf_printf(&b, "%s'%s'", i ? " or " : "", ends[i]);
				if (p->nopen)
					fail_at(p, k, "Unexpected end of template. Jinja was looking for the following tags: %s. The innermost block that needs to be closed is '%s'.",
					    b.p, p->open[p->nopen - 1]);
				else
					fail_at(p, k, "Unexpected end of template. Jinja was looking for the following tags: %s.",
					    b.p);
				free(b.p);
				return -1;
			}
			return 0;
		default: {
			char	b[80];

			fail_at(p, k, "unexpected '%s'", describe(k, b, sizeof b));
			return -1;
		}
		}
	}
}

static size_t
nchildren(const struct node *n)
{
	return 3 + n->args.n + n->kw.n + n->body.n + n->els.n;
}

/* The i-th child of n, i < nchildren(n); NULL for an absent a, b or c. */
static const struct node *
child(const struct node *n, size_t i)
{
	if (i < 3)
		return i == 0 ? n->a : i == 1 ? n->b : n->c;
	i -= 3;
	if (i < n->args.n)
		return n->args.v[i];
	i -= n->args.n;
	if (i < n->kw.n)
		return n->kw.v[i];
	i -= n->kw.n;
	if (i < n->body.n)
		return n->body.v[i];
	return n->els.v[i - n->body.n];
}

/*
 * Whether the tree is at most MAX_TREE_DEPTH deep, walked with a stack of
 * its own: the parser's recursion is bounded, but a left-associative
 * chain ("1+1+...", "a.b.c...", "x|f|f...") or a run of elifs deepens the
 * tree without recursing. Every later walk over the tree (the name check,
 * rendering, freeing) can then recurse.
 */
static int
check_depth(struct ps *p, const struct node *root)
{
	struct frame {
		const struct node *n;
		size_t		   i;
	}		*st;
	const struct node *n, *c;
	size_t		 depth;
	int		 rc = 0;

	st = xreallocarray(NULL, MAX_TREE_DEPTH + 1, sizeof *st);
	st[0].n = root;
	st[0].i = 0;
	depth = 1;
	while (depth > 0) {
		n = st[depth - 1].n;
		if (st[depth - 1].i == nchildren(n)) {
			depth--;
			continue;
		}
		if ((c = child(n, st[depth - 1].i++)) == NULL)
			continue;
		if (depth == MAX_TREE_DEPTH) {
			p->err->line = c->line;
			p->err->col = c->col;
			p->err->raised = 0;
			snprintf(p->err->msg, sizeof p->err->msg,
			    "template nested too deeply");
			rc = -1;
			break;
		}
		st[depth].n = c;
		st[depth].i = 0;
		depth++;
	}
	free(st);
	return rc;
}

struct node *
jparse(struct tokens *t, struct jinja_error *err)
{
	struct ps p;
	struct node *root;

	memset(&p, 0, sizeof p);
	p.t = t;
	p.err = err;
	root = mk(N_TEMPLATE, &t->v[0]);
	if (subparse(&p, &root->body, NULL) || check_depth(&p, root)) {
		node_free(root);
		return NULL;
	}
	return root;
}

/*
 * Unknown filters and tests are errors of the template, as jinja2's
 * compiler reports them, except inside an "if" or a conditional
 * expression (jinja2 defers those to the moment they run).
 */
static int
check_names(const struct node *n, int soft, struct jinja_error *err)
{
	size_t	i;
	int	inner;

	if (n == NULL)
		return 0;
	if (!soft && (n->t == N_FILTER || n->t == N_TEST) &&
	    !(n->t == N_FILTER ? has_filter(n->s) : has_test(n->s))) {
		err->line = n->line;
		err->col = n->col;
		snprintf(err->msg, sizeof err->msg, "No %s named '%s'.",
		    n->t == N_FILTER ? "filter" : "test", n->s);
		return -1;
	}
	if (n->t == N_IF || n->t == N_COND)
		soft = 1;
	inner = n->t == N_FOR || n->t == N_MACRO || n->t == N_CALLBLOCK ||
	    n->t == N_FILTERBLOCK || n->t == N_SETBLOCK || n->t == N_WITH;
	if (check_names(n->a, soft, err) || check_names(n->b, soft, err) ||
	    check_names(n->c, soft, err))
		return -1;
	for (i = 0; i < n->args.n; i++)
		if (check_names(n->args.v[i], soft, err))
			return -1;
	for (i = 0; i < n->kw.n; i++)
		if (check_names(n->kw.v[i], soft, err))
			return -1;
	for (i = 0; i < n->body.n; i++)
		if (check_names(n->body.v[i], inner ? 0 : soft, err))
			return -1;
	for (i = 0; i < n->els.n; i++)
		if (check_names(n->els.v[i], inner ? 0 : soft, err))
			return -1;
	return 0;
}

int
jcheck(const struct node *root, struct jinja_error *err)
{
	return check_names(root, 0, err);
}
