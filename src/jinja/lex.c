/*
 * lex.c - template text into tokens, as jinja2's lexer cuts it under
 * trim_blocks and lstrip_blocks.
 *
 * Newlines are normalised to "\n" and one trailing newline is dropped.
 * Text runs up to the next "{{", "{%" or "{#". A "-" after the opening
 * delimiter strips all whitespace before it; otherwise, for a block or a
 * comment (not for "{{") and without a "+", the spaces and tabs between
 * the start of the line and the tag go. A "-" before the closing
 * delimiter strips all whitespace after it; a block or comment end
 * without "+" swallows one newline. Inside a tag come names, numbers,
 * strings and operators; the end of a tag is only recognised outside
 * brackets.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jint.h"
#include "xmalloc.h"

_Thread_local unsigned long long jlex_scanned;

struct lx {
	const char	*s, *end;
	const char	*line_start;
	unsigned	 line;
	struct tokens	*out;
	struct jinja_error *err;
	/* the last column asked for, where the next count starts */
	const char	*col_line, *col_p;
	unsigned	 col;
};

/*
 * The column (in code points) of p on the current line. Tokens come in
 * order, so the count goes on from the last answer: the line is read
 * once, however many tokens it holds.
 */
static unsigned
col_of(struct lx *l, const char *p)
{
	const char *q;

	if (l->col_line != l->line_start || l->col_p > p) {
		l->col_line = l->line_start;
		l->col_p = l->line_start;
		l->col = 1;
	}
	for (q = l->col_p; q < p; q++) {
		if (((unsigned char)*q & 0xc0) != 0x80)
			l->col++;
		jlex_scanned++;
	}
	l->col_p = p;
	return l->col;
}

/* Moves the line counter over [from, to). */
static void
advance(struct lx *l, const char *from, const char *to)
{
	const char *q;

	for (q = from; q < to; q++)
		if (*q == '\n') {
			l->line++;
			l->line_start = q + 1;
		}
}

static int lx_fail(struct lx *l, const char *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
lx_fail(struct lx *l, const char *at, const char *fmt, ...)
{
	va_list	ap;

	l->err->line = l->line;
	l->err->col = col_of(l, at);
	l->err->raised = 0;
	va_start(ap, fmt);
	vsnprintf(l->err->msg, sizeof l->err->msg, fmt, ap);
	va_end(ap);
	return -1;
}

static struct token *
emit(struct lx *l, enum tok type, const char *p, size_t n)
{
	struct tokens *t = l->out;
	struct token *k;

	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 64;
		t->v = xreallocarray(t->v, t->cap, sizeof *t->v);
	}
	k = &t->v[t->n++];
	memset(k, 0, sizeof *k);
	k->type = type;
	k->line = l->line;
	k->col = col_of(l, p);
	k->p = p;
	k->n = n;
	return k;
}

/* Length of the Python whitespace character at p, 0 if none. */
static size_t
space_at(const char *p, const char *end)
{
	uint32_t c;
	size_t	k;

	if (p >= end)
		return 0;
	k = utf8_dec(p, (size_t)(end - p), &c);
	return py_isspace(c) ? k : 0;
}

/* The start of the trailing whitespace of [s, e). */
static const char *
rstrip_ws(const char *s, const char *e)
{
	while (e > s) {
		const char *q = e - 1;
		size_t	k;

		while (q > s && ((unsigned char)*q & 0xc0) == 0x80)
			q--;
		k = space_at(q, e);
		if (k == 0 || q + k != e)
			break;
		e = q;
	}
	return e;
}

static const char *
skip_ws(const char *p, const char *end)
{
	size_t	k;

	while ((k = space_at(p, end)) != 0)
		p += k;
	return p;
}

/*
 * The text before a tag, with the tag's whitespace control applied: sign
 * is '-', '+' or 0; lstrip says whether lstrip_blocks applies (a block or
 * comment); line_starting whether the text starts a line.
 */
static void
emit_text(struct lx *l, const char *s, const char *e, int sign, int lstrip,
    int line_starting)
{
	const char *ls, *q;

	if (sign == '-')
		e = rstrip_ws(s, e);
	else if (sign != '+' && lstrip) {
		ls = e;
		while (ls > s && ls[-1] != '\n')
			ls--;
		if ((ls > s || line_starting) && ls < e) {
			q = skip_ws(ls, e);
			if (q == e)
				e = ls;
		}
	}
	if (e > s) {
		struct token *k = emit(l, T_DATA, s, (size_t)(e - s));

		k->v = jv_str(s, (size_t)(e - s));
	}
}

static int
is_name_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* digits possibly separated by single underscores; returns the end */
static const char *
digits(const char *p, const char *end, int (*ok)(char))
{
	if (p >= end || !ok(*p))
		return NULL;
	p++;
	while (p < end) {
		if (ok(*p))
			p++;
		else if (*p == '_' && p + 1 < end && ok(p[1]))
			p += 2;
		else
			break;
	}
	return p;
}

static int dec(char c) { return c >= '0' && c <= '9'; }
static int hexd(char c) { return dec(c) || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f'); }
static int octd(char c) { return c >= '0' && c <= '7'; }
static int bind(char c) { return c == '0' || c == '1'; }

/* A float literal at p (jinja2's float_re), or NULL. */
static const char *
float_at(const char *p, const char *end)
{
	const char *q = digits(p, end, dec), *r;

	if (q == NULL)
		return NULL;
	if (q < end && *q == '.' && (r = digits(q + 1, end, dec)) != NULL) {
		q = r;
		if (q < end && (*q | 0x20) == 'e') {
			r = q + 1;
			if (r < end && (*r == '+' || *r == '-'))
				r++;
			if ((r = digits(r, end, dec)) != NULL)
				q = r;
		}
		return q;
	}
	if (q < end && (*q | 0x20) == 'e') {
		r = q + 1;
		if (r < end && (*r == '+' || *r == '-'))
			r++;
		return digits(r, end, dec);
	}
	return NULL;
}

static int
lex_number(struct lx *l, const char *p, const char **endp)
{
	const char *q;
	char	tmp[128];
	size_t	i, n = 0;
	struct token *k;

	if ((p == l->s || p[-1] != '.') && (q = float_at(p, l->end)) != NULL) {
		for (i = 0; p + i < q && n < sizeof tmp - 1; i++)
			if (p[i] != '_')
				tmp[n++] = p[i];
		tmp[n] = '\0';
		k = emit(l, T_FLOAT, p, (size_t)(q - p));
		k->v = jv_float(strtod(tmp, NULL));
		*endp = q;
		return 0;
	}
	if (*p == '0' && p + 1 < l->end && strchr("xXoObB", p[1]) && p[1]) {
		int	(*ok)(char) = (p[1] | 0x20) == 'x' ? hexd :
		    (p[1] | 0x20) == 'o' ? octd : bind;
		int	base = (p[1] | 0x20) == 'x' ? 16 : (p[1] | 0x20) == 'o' ? 8 : 2;
		const char *r = p + 2;
		unsigned long long v = 0;

		if (r < l->end && *r == '_')
			r++;
		q = digits(r, l->end, ok);
		if (q != NULL) {
			for (; r < q; r++) {
				int d;

				if (*r == '_')
					continue;
				d = dec(*r) ? *r - '0' : (*r | 0x20) - 'a' + 10;
				if (v > (unsigned long long)(9223372036854775807LL - d) / (unsigned)base)
					return lx_fail(l, p, "integer literal too large");
				v = v * (unsigned)base + (unsigned)d;
			}
			k = emit(l, T_INT, p, (size_t)(q - p));
			k->v = jv_int((long long)v);
			*endp = q;
			return 0;
		}
	}
	if (*p == '0') {
		q = p + 1;
		while (q < l->end && (*q == '0' || (*q == '_' && q + 1 < l->end && q[1] == '0')))
			q += *q == '_' ? 2 : 1;
		k = emit(l, T_INT, p, (size_t)(q - p));
		k->v = jv_int(0);
		*endp = q;
		return 0;
	}
	q = digits(p, l->end, dec);
	{
		long long v = 0;
		const char *r;

		for (r = p; r < q; r++) {
			if (*r == '_')
				continue;
			if (v > (9223372036854775807LL - (*r - '0')) / 10)
				return lx_fail(l, p, "integer literal too large");
			v = v * 10 + (*r - '0');
		}
		k = emit(l, T_INT, p, (size_t)(q - p));
		k->v = jv_int(v);
	}
	*endp = q;
	return 0;
}

static int
hexval(const char *p, int n, uint32_t *out)
{
	uint32_t v = 0;
	int	i;

	for (i = 0; i < n; i++) {
		if (!hexd(p[i]))
			return -1;
		v = v * 16 + (uint32_t)(dec(p[i]) ? p[i] - '0' : (p[i] | 0x20) - 'a' + 10);
	}
	*out = v;
	return 0;
}

/* A string literal, unescaped as Python's unicode-escape codec does. */
static int
lex_string(struct lx *l, const char *p, const char **endp)
{
	char	q = *p;
	const char *r = p + 1;
	struct buf b = { 0 };
	struct token *k;
	char	u[4];
	uint32_t cp;
	size_t	n;
	char	*s;

	for (;;) {
		if (r >= l->end) {
			free(b.p);
			return lx_fail(l, p, "unexpected end of string literal");
		}
		if (*r == q)
			break;
		if (*r != '\\') {
			buf_addc(&b, *r++);
			continue;
		}
		if (r + 1 >= l->end) {
			free(b.p);
			return lx_fail(l, p, "unexpected end of string literal");
		}
		r++;
		switch (*r) {
		case '\n': r++; break;
		case '\\': buf_addc(&b, '\\'); r++; break;
		case '\'': buf_addc(&b, '\''); r++; break;
		case '"': buf_addc(&b, '"'); r++; break;
		case 'a': buf_addc(&b, '\a'); r++; break;
		case 'b': buf_addc(&b, '\b'); r++; break;
		case 'f': buf_addc(&b, '\f'); r++; break;
		case 'n': buf_addc(&b, '\n'); r++; break;
		case 'r': buf_addc(&b, '\r'); r++; break;
		case 't': buf_addc(&b, '\t'); r++; break;
		case 'v': buf_addc(&b, '\v'); r++; break;
		case 'x': case 'u': case 'U': {
			int	nd = *r == 'x' ? 2 : *r == 'u' ? 4 : 8;

			if (l->end - r <= nd || hexval(r + 1, nd, &cp) ||
			    cp > 0x10ffff) {
				free(b.p);
				return lx_fail(l, r - 1, "truncated \\%cXX escape", *r);
			}
			if (cp >= 0xd800 && cp < 0xe000)
				cp = 0xfffd;
			buf_add(&b, u, utf8_enc(u, cp));
			r += nd + 1;
			break;
		}
		case 'N':
			free(b.p);
			return lx_fail(l, r - 1, "malformed \\N character escape");
		default:
			if (octd(*r)) {
				int	i;

				cp = 0;
				for (i = 0; i < 3 && r < l->end && octd(*r); i++)
					cp = cp * 8 + (uint32_t)(*r++ - '0');
				buf_add(&b, u, utf8_enc(u, cp));
			} else
				buf_addc(&b, '\\');	/* kept, as Python keeps it */
			break;
		}
	}
	s = buf_take(&b, &n);
	k = emit(l, T_STRING, p, (size_t)(r + 1 - p));
	k->v = jv_str_take(s, n);
	*endp = r + 1;
	return 0;
}

static const struct { const char *s; int op; } ops[] = {
	{ "//", OP_FLOORDIV }, { "**", OP_POW }, { "==", OP_EQ },
	{ "!=", OP_NE }, { ">=", OP_GTEQ }, { "<=", OP_LTEQ },
	{ "+", OP_ADD }, { "-", OP_SUB }, { "/", OP_DIV }, { "*", OP_MUL },
	{ "%", OP_MOD }, { "~", OP_TILDE }, { "[", OP_LBRACKET },
	{ "]", OP_RBRACKET }, { "(", OP_LPAREN }, { ")", OP_RPAREN },
	{ "{", OP_LBRACE }, { "}", OP_RBRACE }, { ">", OP_GT }, { "<", OP_LT },
	{ "=", OP_ASSIGN }, { ".", OP_DOT }, { ":", OP_COLON },
	{ "|", OP_PIPE }, { ",", OP_COMMA }, { ";", OP_SEMICOLON },
};

/*
 * The inside of a tag from p; kind is 'b' (block) or 'v' (variable).
 * Returns the position after the end delimiter; *nl says whether the
 * matched end ended with a newline.
 */
static const char *
lex_tag(struct lx *l, const char *p, int kind, int *nl)
{
	char	stack[256];
	size_t	depth = 0, i, k;
	char	close = kind == 'b' ? '%' : '}';

	for (;;) {
		if (p >= l->end) {
			lx_fail(l, p, kind == 'b' ? "unexpected end of template, expected end of block"
			    : "unexpected end of template, expected end of print statement");
			return NULL;
		}
		if (depth == 0) {
			const char *q = NULL;

			if (kind == 'b' && *p == '+' && l->end - p >= 3 &&
			    p[1] == '%' && p[2] == '}')
				q = p + 3, *nl = 0;
			else if (*p == '-' && l->end - p >= 3 && p[1] == close &&
			    p[2] == '}') {
				const char *e = p + 3;

				q = skip_ws(e, l->end);
				*nl = q > e && q[-1] == '\n';
			} else if (l->end - p >= 2 && p[0] == close && p[1] == '}') {
				q = p + 2;
				*nl = 0;
				if (kind == 'b' && q < l->end && *q == '\n') {
					q++;
					*nl = 1;
				}
			}
			if (q) {
				emit(l, kind == 'b' ? T_BLOCK_END : T_VAR_END, p,
				    (size_t)(q - p));
				return q;
			}
		}
		if ((k = space_at(p, l->end)) != 0) {
			const char *e = skip_ws(p, l->end);

			advance(l, p, e);
			p = e;
			continue;
		}
		if (is_digit(*p)) {
			if (lex_number(l, p, &p))
				return NULL;
			continue;
		}
		if (is_name_start(*p)) {
			const char *q = p + 1;

			while (q < l->end && (is_name_start(*q) || is_digit(*q)))
				q++;
			emit(l, T_NAME, p, (size_t)(q - p));
			p = q;
			continue;
		}
		if (*p == '\'' || *p == '"') {
			const char *q = p;

			if (lex_string(l, p, &q))
				return NULL;
			advance(l, p, q);
			p = q;
			continue;
		}
		for (i = 0; i < sizeof ops / sizeof ops[0]; i++) {
			size_t n = strlen(ops[i].s);

			if ((size_t)(l->end - p) >= n && memcmp(p, ops[i].s, n) == 0)
				break;
		}
		if (i == sizeof ops / sizeof ops[0]) {
			uint32_t c;

			utf8_dec(p, (size_t)(l->end - p), &c);
			lx_fail(l, p, c < 0x80 && c >= 0x20 ? "unexpected char '%c'" :
			    "unexpected char U+%04X", c);
			return NULL;
		}
		switch (ops[i].op) {
		case OP_LBRACE: case OP_LPAREN: case OP_LBRACKET:
			if (depth == sizeof stack) {
				lx_fail(l, p, "brackets nested too deeply");
				return NULL;
			}
			stack[depth++] = ops[i].op == OP_LBRACE ? '}' :
			    ops[i].op == OP_LPAREN ? ')' : ']';
			break;
		case OP_RBRACE: case OP_RPAREN: case OP_RBRACKET:
			if (depth == 0) {
				lx_fail(l, p, "unexpected '%c'", *p);
				return NULL;
			}
			if (stack[--depth] != *p) {
				lx_fail(l, p, "unexpected '%c', expected '%c'", *p,
				    stack[depth]);
				return NULL;
			}
			break;
		}
		emit(l, T_OP, p, strlen(ops[i].s))->op = ops[i].op;
		p += strlen(ops[i].s);
	}
}

/* "{%[-+]? raw [-]?%}" at p: the end of the tag, or NULL. */
static const char *
raw_begin(const char *p, const char *end, int *dash_end)
{
	const char *q = p + 2;

	if (q < end && (*q == '-' || *q == '+'))
		q++;
	q = skip_ws(q, end);
	if (end - q < 3 || memcmp(q, "raw", 3) != 0)
		return NULL;
	q = skip_ws(q + 3, end);
	*dash_end = 0;
	if (end - q >= 3 && memcmp(q, "-%}", 3) == 0) {
		*dash_end = 1;
		return skip_ws(q + 3, end);
	}
	if (end - q >= 2 && memcmp(q, "%}", 2) == 0)
		return q + 2;
	return NULL;
}

/* Finds "{% endraw %}" from p: sets the start, the sign and the end. */
static int
raw_end(const char *p, const char *end, const char **tag, int *sign,
    const char **after, int *nl)
{
	for (; p + 1 < end; p++) {
		const char *q;

		if (p[0] != '{' || p[1] != '%')
			continue;
		q = p + 2;
		*sign = 0;
		if (q < end && (*q == '-' || *q == '+'))
			*sign = *q++;
		q = skip_ws(q, end);
		if (end - q < 6 || memcmp(q, "endraw", 6) != 0)
			continue;
		q = skip_ws(q + 6, end);
		*nl = 0;
		if (end - q >= 3 && memcmp(q, "+%}", 3) == 0)
			*after = q + 3;
		else if (end - q >= 3 && memcmp(q, "-%}", 3) == 0) {
			*after = skip_ws(q + 3, end);
			*nl = *after > q + 3 && (*after)[-1] == '\n';
		} else if (end - q >= 2 && memcmp(q, "%}", 2) == 0) {
			*after = q + 2;
			if (*after < end && **after == '\n') {
				(*after)++;
				*nl = 1;
			}
		} else
			continue;
		*tag = p;
		return 0;
	}
	return -1;
}

/* Normalised source: "\r\n" and "\r" become "\n", one trailing newline goes. */
static char *
normalise(const char *src, size_t n, size_t *outn)
{
	char	*s = xmalloc(n + 1);
	size_t	i, o = 0;

	for (i = 0; i < n; i++) {
		if (src[i] == '\r') {
			s[o++] = '\n';
			if (i + 1 < n && src[i + 1] == '\n')
				i++;
		} else
			s[o++] = src[i];
	}
	if (o > 0 && s[o - 1] == '\n')
		o--;
	s[o] = '\0';
	*outn = o;
	return s;
}

int
jlex(const char *src, size_t n, struct tokens *out, struct jinja_error *err)
{
	struct lx l;
	const char *p, *q;
	size_t	len;
	int	line_starting = 1;

	memset(out, 0, sizeof *out);
	out->src = normalise(src, n, &len);
	l.s = out->src;
	l.end = out->src + len;
	l.line_start = l.s;
	l.line = 1;
	l.col_line = NULL;
	l.col_p = NULL;
	l.col = 1;
	l.out = out;
	l.err = err;
	p = l.s;
	while (p < l.end) {
		int	sign = 0, kind, nl = 0, dash;
		const char *t = p, *after = NULL;

		/* the next tag start */
		for (t = p; t + 1 < l.end; t++)
			if (t[0] == '{' && (t[1] == '{' || t[1] == '%' || t[1] == '#'))
				break;
		if (t + 1 >= l.end) {
			emit_text(&l, p, l.end, 0, 0, 0);
			advance(&l, p, l.end);
			break;
		}
		kind = t[1];
		if (t + 2 < l.end && (t[2] == '-' || t[2] == '+'))
			sign = t[2];
		if (kind == '%' && (after = raw_begin(t, l.end, &dash)) != NULL) {
			const char *tag = NULL, *a2 = NULL;
			int	s2 = 0, nl2 = 0;

			emit_text(&l, p, t, sign, 1, line_starting);
			advance(&l, p, t);
			if (raw_end(after, l.end, &tag, &s2, &a2, &nl2)) {
				lx_fail(&l, t, "Missing end of raw directive");
				goto fail;
			}
			advance(&l, t, after);
			emit_text(&l, after, tag, s2, 1, dash && after > t &&
			    after[-1] == '\n');
			advance(&l, after, a2);
			line_starting = nl2;
			p = a2;
			continue;
		}
		emit_text(&l, p, t, sign, kind != '{', line_starting);
		advance(&l, p, t);
		q = t + 2 + (sign != 0);
		if (kind == '#') {
			const char *r;

			for (r = q; r + 1 < l.end; r++) {
				if (r[0] == '+' && r + 2 < l.end && r[1] == '#' && r[2] == '}') {
					after = r + 3;
					nl = 0;
					break;
				}
				if (r[0] == '-' && r + 2 < l.end && r[1] == '#' && r[2] == '}') {
					after = skip_ws(r + 3, l.end);
					nl = after > r + 3 && after[-1] == '\n';
					break;
				}
				if (r[0] == '#' && r[1] == '}') {
					after = r + 2;
					nl = 0;
					if (after < l.end && *after == '\n') {
						after++;
						nl = 1;
					}
					break;
				}
			}
			if (r + 1 >= l.end) {
				lx_fail(&l, t, "Missing end of comment tag");
				goto fail;
			}
			advance(&l, t, after);
			line_starting = nl;
			p = after;
			continue;
		}
		emit(&l, kind == '%' ? T_BLOCK_BEGIN : T_VAR_BEGIN, t, (size_t)(q - t));
		p = lex_tag(&l, q, kind == '%' ? 'b' : 'v', &nl);
		if (p == NULL)
			goto fail;
		advance(&l, l.out->v[l.out->n - 1].p, p);
		line_starting = nl;
	}
	emit(&l, T_EOF, l.end, 0);
	return 0;
fail:
	jlex_free(out);
	return -1;
}

void
jlex_free(struct tokens *t)
{
	size_t	i;

	for (i = 0; i < t->n; i++)
		jv_unref(t->v[i].v);
	free(t->v);
	free(t->src);
	memset(t, 0, sizeof *t);
}
