/*
 * repr.c - values as Python prints them: str() for output, repr() inside
 * lists and dicts, floats in their shortest round-trip form, and
 * json.dumps for the tojson filter.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jint.h"

#define MAX_NEST	512

/*
 * repr(float): the shortest digits that read back to the same double,
 * written positionally when the decimal exponent is in [-4, 16), with
 * an exponent otherwise ("1e-05", "1e+16"); a whole number gets ".0".
 */
void
fmt_float(struct buf *b, double d)
{
	char	tmp[40], digits[24];
	int	prec, exp10, nd, i, pt;
	char	*e;

	if (isnan(d)) {
		buf_adds(b, "nan");
		return;
	}
	if (isinf(d)) {
		buf_adds(b, d < 0 ? "-inf" : "inf");
		return;
	}
	if (f_eq(d, 0)) {
		buf_adds(b, signbit(d) ? "-0.0" : "0.0");
		return;
	}
	for (prec = 0; prec < 17; prec++) {
		snprintf(tmp, sizeof tmp, "%.*e", prec, d);
		if (f_eq(strtod(tmp, NULL), d))
			break;
	}
	snprintf(tmp, sizeof tmp, "%.*e", prec, d);
	/* tmp: [-]D[.DDD]e[+-]XX */
	nd = 0;
	for (i = tmp[0] == '-' ? 1 : 0; tmp[i] != 'e'; i++)
		if (tmp[i] != '.')
			digits[nd++] = tmp[i];
	digits[nd] = '\0';
	e = strchr(tmp, 'e');
	exp10 = atoi(e + 1);
	while (nd > 1 && digits[nd - 1] == '0')
		digits[--nd] = '\0';
	if (d < 0)
		buf_addc(b, '-');
	pt = exp10 + 1;		/* digits before the decimal point */
	if (pt <= -4 || pt > 16) {
		buf_addc(b, digits[0]);
		if (nd > 1) {
			buf_addc(b, '.');
			buf_add(b, digits + 1, (size_t)nd - 1);
		}
		buf_printf(b, "e%c%02d", exp10 < 0 ? '-' : '+',
		    exp10 < 0 ? -exp10 : exp10);
		return;
	}
	if (pt <= 0) {
		buf_adds(b, "0.");
		for (i = 0; i < -pt; i++)
			buf_addc(b, '0');
		buf_add(b, digits, (size_t)nd);
	} else if (pt >= nd) {
		buf_add(b, digits, (size_t)nd);
		for (i = nd; i < pt; i++)
			buf_addc(b, '0');
		buf_adds(b, ".0");
	} else {
		buf_add(b, digits, (size_t)pt);
		buf_addc(b, '.');
		buf_add(b, digits + pt, (size_t)(nd - pt));
	}
}

/* What Python's str.isprintable says of one character, closely enough. */
static int
printable(uint32_t c)
{
	if (c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0xa0) || c == 0xad)
		return 0;
	if (c == 0x1680 || (c >= 0x2000 && c <= 0x200f) ||
	    (c >= 0x2028 && c <= 0x202f) || (c >= 0x205f && c <= 0x206f) ||
	    c == 0x3000 || c == 0xfeff || (c >= 0xfff9 && c <= 0xfffb))
		return 0;
	if ((c >= 0xd800 && c <= 0xf8ff) || c >= 0xf0000 || c == 0x61c ||
	    c == 0x180e || (c >= 0xe0000 && c <= 0xe0fff))
		return 0;
	return 1;
}

void
fmt_repr_str(struct buf *b, const char *s, size_t n)
{
	char	q = '\'';
	size_t	i, k;
	uint32_t c;

	if (memchr(s, '\'', n) && !memchr(s, '"', n))
		q = '"';
	buf_addc(b, q);
	for (i = 0; i < n; i += k) {
		k = utf8_dec(s + i, n - i, &c);
		if (c == (uint32_t)q || c == '\\') {
			buf_addc(b, '\\');
			buf_addc(b, (char)c);
		} else if (c == '\n')
			buf_adds(b, "\\n");
		else if (c == '\r')
			buf_adds(b, "\\r");
		else if (c == '\t')
			buf_adds(b, "\\t");
		else if (!printable(c)) {
			if (c < 0x100)
				buf_printf(b, "\\x%02x", c);
			else if (c < 0x10000)
				buf_printf(b, "\\u%04x", c);
			else
				buf_printf(b, "\\U%08x", c);
		} else
			buf_add(b, s + i, k);
	}
	buf_addc(b, q);
}

int
fmt_str(struct buf *b, const jv *v, unsigned depth)
{
	switch (v->kind) {
	case JV_UNDEFINED:
		return 0;
	case JV_STR:
		buf_add(b, v->u.s.p, v->u.s.n);
		return 0;
	default:
		return fmt_repr(b, v, depth);
	}
}

int
fmt_repr(struct buf *b, const jv *v, unsigned depth)
{
	size_t	i;

	if (depth > MAX_NEST)
		return -1;
	switch (v->kind) {
	case JV_UNDEFINED:
		buf_adds(b, "Undefined");
		break;
	case JV_NONE:
		buf_adds(b, "None");
		break;
	case JV_BOOL:
		buf_adds(b, v->u.b ? "True" : "False");
		break;
	case JV_INT:
		buf_printf(b, "%lld", v->u.i);
		break;
	case JV_FLOAT:
		fmt_float(b, v->u.f);
		break;
	case JV_STR:
		fmt_repr_str(b, v->u.s.p, v->u.s.n);
		break;
	case JV_LIST:
		if (v->flags & JVF_GEN) {
			buf_adds(b, "<generator object>");
			break;
		}
		buf_addc(b, v->flags & JVF_TUPLE ? '(' : '[');
		for (i = 0; i < v->u.l.n; i++) {
			if (i)
				buf_adds(b, ", ");
			if (fmt_repr(b, v->u.l.v[i], depth + 1))
				return -1;
		}
		if ((v->flags & JVF_TUPLE) && v->u.l.n == 1)
			buf_addc(b, ',');
		buf_addc(b, v->flags & JVF_TUPLE ? ')' : ']');
		break;
	case JV_DICT:
		if (v->flags & JVF_NAMESPACE) {
			buf_adds(b, "<Namespace {");
		} else if (v->flags & JVF_LOOP) {
			buf_adds(b, "<LoopContext>");
			break;
		} else
			buf_addc(b, '{');
		for (i = 0; i < v->u.d.n; i++) {
			if (i)
				buf_adds(b, ", ");
			if (fmt_repr(b, v->u.d.k[i], depth + 1))
				return -1;
			buf_adds(b, ": ");
			if (fmt_repr(b, v->u.d.v[i], depth + 1))
				return -1;
		}
		buf_adds(b, v->flags & JVF_NAMESPACE ? "}>" : "}");
		break;
	case JV_CALLABLE:
		if (v->u.fn->type == FN_MACRO)
			buf_printf(b, "<Macro '%s'>", v->u.fn->name);
		else
			buf_printf(b, "<built-in method %s>", v->u.fn->name);
		break;
	}
	return 0;
}

/* ---------------------------------------------------------- json.dumps */
static void
json_str(struct buf *b, const char *s, size_t n, int ascii)
{
	size_t	i;

	buf_addc(b, '"');
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (ascii && (c >= 0x7f)) {
			uint32_t cp;
			size_t	k = utf8_dec(s + i, n - i, &cp);

			if (cp >= 0x10000)
				buf_printf(b, "\\u%04x\\u%04x",
				    0xd800 + ((cp - 0x10000) >> 10),
				    0xdc00 + ((cp - 0x10000) & 0x3ff));
			else
				buf_printf(b, "\\u%04x", cp);
			i += k - 1;
			continue;
		}

		switch (c) {
		case '"':
			buf_adds(b, "\\\"");
			break;
		case '\\':
			buf_adds(b, "\\\\");
			break;
		case '\n':
			buf_adds(b, "\\n");
			break;
		case '\r':
			buf_adds(b, "\\r");
			break;
		case '\t':
			buf_adds(b, "\\t");
			break;
		case '\b':
			buf_adds(b, "\\b");
			break;
		case '\f':
			buf_adds(b, "\\f");
			break;
		default:
			if (c < 0x20)
				buf_printf(b, "\\u%04x", c);
			else
				buf_addc(b, (char)c);
		}
	}
	buf_addc(b, '"');
}

static void
json_newline(struct buf *b, const struct json_opts *o, unsigned level)
{
	unsigned i;

	buf_addc(b, '\n');
	for (i = 0; i < level; i++)
		buf_adds(b, o->indent);
}

/* A dict key as json.dumps writes it; -1 when it cannot be one. */
static int
json_key(struct buf *b, const jv *k, int ascii)
{
	struct buf t = { 0 };

	switch (k->kind) {
	case JV_STR:
		json_str(b, k->u.s.p, k->u.s.n, ascii);
		return 0;
	case JV_INT:
		buf_printf(b, "\"%lld\"", k->u.i);
		return 0;
	case JV_BOOL:
		buf_adds(b, k->u.b ? "\"true\"" : "\"false\"");
		return 0;
	case JV_NONE:
		buf_adds(b, "\"null\"");
		return 0;
	case JV_FLOAT:
		if (isnan(k->u.f))
			buf_adds(b, "\"NaN\"");
		else if (isinf(k->u.f))
			buf_adds(b, k->u.f < 0 ? "\"-Infinity\"" : "\"Infinity\"");
		else {
			fmt_float(&t, k->u.f);
			buf_addc(b, '"');
			buf_add(b, t.p, t.n);
			buf_addc(b, '"');
			free(t.p);
		}
		return 0;
	default:
		return -1;
	}
}

static int
key_less(const jv *a, const jv *b)
{
	size_t	n;
	int	c;

	if (a->kind == JV_STR && b->kind == JV_STR) {
		n = a->u.s.n < b->u.s.n ? a->u.s.n : b->u.s.n;
		c = memcmp(a->u.s.p, b->u.s.p, n);
		return c < 0 || (c == 0 && a->u.s.n < b->u.s.n);
	}
	if (jv_is_number(a) && jv_is_number(b))
		return jv_num(a) < jv_num(b);
	return 0;
}

int
json_dump(struct buf *b, const jv *v, const struct json_opts *o,
    unsigned depth, char *msg, size_t msgsz)
{
	size_t	i, j, n, *ord;

	if (depth > MAX_NEST) {
		snprintf(msg, msgsz, "maximum recursion depth exceeded while encoding a JSON object");
		return -1;
	}
	switch (v->kind) {
	case JV_NONE:
		buf_adds(b, "null");
		return 0;
	case JV_BOOL:
		buf_adds(b, v->u.b ? "true" : "false");
		return 0;
	case JV_INT:
		buf_printf(b, "%lld", v->u.i);
		return 0;
	case JV_FLOAT:
		if (isnan(v->u.f))
			buf_adds(b, "NaN");
		else if (isinf(v->u.f))
			buf_adds(b, v->u.f < 0 ? "-Infinity" : "Infinity");
		else
			fmt_float(b, v->u.f);
		return 0;
	case JV_STR:
		json_str(b, v->u.s.p, v->u.s.n, o->ensure_ascii);
		return 0;
	case JV_LIST:
		if (v->flags & JVF_GEN)
			break;
		if (v->u.l.n == 0) {
			buf_adds(b, "[]");
			return 0;
		}
		buf_addc(b, '[');
		for (i = 0; i < v->u.l.n; i++) {
			if (i)
				buf_adds(b, o->item_sep);
			if (o->indent)
				json_newline(b, o, depth + 1);
			if (json_dump(b, v->u.l.v[i], o, depth + 1, msg, msgsz))
				return -1;
		}
		if (o->indent)
			json_newline(b, o, depth);
		buf_addc(b, ']');
		return 0;
	case JV_DICT:
		if (v->flags & (JVF_NAMESPACE | JVF_LOOP))
			break;
		n = v->u.d.n;
		if (n == 0) {
			buf_adds(b, "{}");
			return 0;
		}
		ord = malloc(n * sizeof *ord);
		if (ord == NULL) {
			snprintf(msg, msgsz, "out of memory");
			return -1;
		}
		for (i = 0; i < n; i++)
			ord[i] = i;
		if (o->sort_keys) {
			for (i = 1; i < n; i++) {	/* stable insertion sort */
				size_t x = ord[i];

				for (j = i; j > 0 && key_less(v->u.d.k[x],
				    v->u.d.k[ord[j - 1]]); j--)
					ord[j] = ord[j - 1];
				ord[j] = x;
			}
		}
		buf_addc(b, '{');
		for (i = 0; i < n; i++) {
			const jv *k = v->u.d.k[ord[i]];

			if (i)
				buf_adds(b, o->item_sep);
			if (o->indent)
				json_newline(b, o, depth + 1);
			if (json_key(b, k, o->ensure_ascii)) {
				snprintf(msg, msgsz, "keys must be str, int, float, bool or None, not %s",
				    jv_kind_name(k));
				free(ord);
				return -1;
			}
			buf_adds(b, o->key_sep);
			if (json_dump(b, v->u.d.v[ord[i]], o, depth + 1, msg, msgsz)) {
				free(ord);
				return -1;
			}
		}
		free(ord);
		if (o->indent)
			json_newline(b, o, depth);
		buf_addc(b, '}');
		return 0;
	default:
		break;
	}
	snprintf(msg, msgsz, "Object of type %s is not JSON serializable",
	    jv_kind_name(v));
	return -1;
}
