/*
 * json.c - JSON text into template values: objects keep their key order
 * (a repeated key keeps its first place and its last value, as Python's
 * json module does), integers stay integers, and errors name the line and
 * column.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jint.h"
#include "xmalloc.h"

#define JSON_MAX_DEPTH	512

struct jp {
	const char	*s, *end, *p;
	char		*err;
	size_t		 errsz;
	int		 failed;
};

static jv *jp_fail(struct jp *j, const char *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static jv *
jp_fail(struct jp *j, const char *at, const char *fmt, ...)
{
	const char *q;
	unsigned line = 1, col = 1;
	char	tmp[256];
	va_list	ap;

	if (j->failed)
		return NULL;
	j->failed = 1;
	for (q = j->s; q < at && q < j->end; q++) {
		if (*q == '\n') {
			line++;
			col = 1;
		} else if (((unsigned char)*q & 0xc0) != 0x80)
			col++;
	}
	va_start(ap, fmt);
	vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	if (j->err && j->errsz)
		snprintf(j->err, j->errsz, "line %u, column %u: %s", line, col, tmp);
	return NULL;
}

static void
jp_ws(struct jp *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' ||
	    *j->p == '\n' || *j->p == '\r'))
		j->p++;
}

static int
hex4(const char *p, uint32_t *out)
{
	uint32_t v = 0;
	int	i;

	for (i = 0; i < 4; i++) {
		char c = p[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (uint32_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (uint32_t)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (uint32_t)(c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

static jv *
jp_string(struct jp *j)
{
	struct buf b = { 0 };
	const char *start = j->p;
	char	u[4];
	uint32_t cp, lo;

	j->p++;
	for (;;) {
		if (j->p >= j->end) {
			free(b.p);
			return jp_fail(j, start, "unterminated string");
		}
		if (*j->p == '"')
			break;
		if ((unsigned char)*j->p < 0x20) {
			free(b.p);
			return jp_fail(j, j->p, "control character in a string");
		}
		if (*j->p != '\\') {
			const char *q = j->p;

			while (q < j->end && *q != '"' && *q != '\\' &&
			    (unsigned char)*q >= 0x20)
				q++;
			buf_add(&b, j->p, (size_t)(q - j->p));
			j->p = q;
			continue;
		}
		if (j->p + 1 >= j->end) {
			free(b.p);
			return jp_fail(j, start, "unterminated string");
		}
		switch (j->p[1]) {
		case '"': buf_addc(&b, '"'); break;
		case '\\': buf_addc(&b, '\\'); break;
		case '/': buf_addc(&b, '/'); break;
		case 'b': buf_addc(&b, '\b'); break;
		case 'f': buf_addc(&b, '\f'); break;
		case 'n': buf_addc(&b, '\n'); break;
		case 'r': buf_addc(&b, '\r'); break;
		case 't': buf_addc(&b, '\t'); break;
		case 'u':
			if (j->end - j->p < 6 || hex4(j->p + 2, &cp)) {
				free(b.p);
				return jp_fail(j, j->p, "bad \\u escape");
			}
			j->p += 4;
			if (cp >= 0xd800 && cp < 0xdc00 && j->end - j->p >= 8 &&
			    j->p[2] == '\\' && j->p[3] == 'u' &&
			    hex4(j->p + 4, &lo) == 0 && lo >= 0xdc00 &&
			    lo < 0xe000) {
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
				j->p += 6;
			}
			if (cp >= 0xd800 && cp < 0xe000)
				cp = 0xfffd;	/* a lone surrogate has no UTF-8 */
			buf_add(&b, u, utf8_enc(u, cp));
			break;
		default:
			free(b.p);
			return jp_fail(j, j->p, "bad escape \\%c", j->p[1]);
		}
		j->p += 2;
	}
	j->p++;
	{
		size_t	 n;
		char	*p = buf_take(&b, &n);

		return jv_str_take(p, n);
	}
}

static jv *
jp_number(struct jp *j)
{
	const char *q = j->p, *start = j->p;
	int	isfloat = 0;
	char	tmp[64], *t;
	size_t	n;

	if (q < j->end && *q == '-')
		q++;
	if (q >= j->end || *q < '0' || *q > '9')
		return jp_fail(j, start, "expected a value");
	if (*q == '0')
		q++;
	else
		while (q < j->end && *q >= '0' && *q <= '9')
			q++;
	if (q < j->end && *q == '.') {
		isfloat = 1;
		q++;
		if (q >= j->end || *q < '0' || *q > '9')
			return jp_fail(j, q, "expected a digit");
		while (q < j->end && *q >= '0' && *q <= '9')
			q++;
	}
	if (q < j->end && (*q == 'e' || *q == 'E')) {
		isfloat = 1;
		q++;
		if (q < j->end && (*q == '+' || *q == '-'))
			q++;
		if (q >= j->end || *q < '0' || *q > '9')
			return jp_fail(j, q, "expected a digit");
		while (q < j->end && *q >= '0' && *q <= '9')
			q++;
	}
	n = (size_t)(q - start);
	t = n < sizeof tmp ? tmp : xmalloc(n + 1);
	memcpy(t, start, n);
	t[n] = '\0';
	j->p = q;
	if (!isfloat) {
		long long v;

		errno = 0;
		v = strtoll(t, NULL, 10);
		if (errno == 0) {
			if (t != tmp)
				free(t);
			return jv_int(v);
		}
		/* beyond 64 bits: kept as the nearest float */
	}
	{
		double d = strtod(t, NULL);

		if (t != tmp)
			free(t);
		return jv_float(d);
	}
}

static jv *jp_value(struct jp *j, unsigned depth);

static jv *
jp_array(struct jp *j, unsigned depth)
{
	jv	*l = jv_list(), *v;

	j->p++;
	jp_ws(j);
	if (j->p < j->end && *j->p == ']') {
		j->p++;
		return l;
	}
	for (;;) {
		if ((v = jp_value(j, depth + 1)) == NULL) {
			jv_unref(l);
			return NULL;
		}
		jv_list_push(l, v);
		jp_ws(j);
		if (j->p < j->end && *j->p == ',') {
			j->p++;
			continue;
		}
		if (j->p < j->end && *j->p == ']') {
			j->p++;
			return l;
		}
		jv_unref(l);
		return jp_fail(j, j->p, "expected ',' or ']'");
	}
}

static jv *
jp_object(struct jp *j, unsigned depth)
{
	jv	*d = jv_dict(), *k, *v;

	j->p++;
	jp_ws(j);
	if (j->p < j->end && *j->p == '}') {
		j->p++;
		return d;
	}
	for (;;) {
		jp_ws(j);
		if (j->p >= j->end || *j->p != '"') {
			jv_unref(d);
			return jp_fail(j, j->p, "expected a key in double quotes");
		}
		if ((k = jp_string(j)) == NULL) {
			jv_unref(d);
			return NULL;
		}
		jp_ws(j);
		if (j->p >= j->end || *j->p != ':') {
			jv_unref(k);
			jv_unref(d);
			return jp_fail(j, j->p, "expected ':'");
		}
		j->p++;
		if ((v = jp_value(j, depth + 1)) == NULL) {
			jv_unref(k);
			jv_unref(d);
			return NULL;
		}
		jv_dict_setv(d, k, v);
		jp_ws(j);
		if (j->p < j->end && *j->p == ',') {
			j->p++;
			continue;
		}
		if (j->p < j->end && *j->p == '}') {
			j->p++;
			return d;
		}
		jv_unref(d);
		return jp_fail(j, j->p, "expected ',' or '}'");
	}
}

static int
word(struct jp *j, const char *w)
{
	size_t	n = strlen(w);

	if ((size_t)(j->end - j->p) >= n && memcmp(j->p, w, n) == 0) {
		j->p += n;
		return 1;
	}
	return 0;
}

static jv *
jp_value(struct jp *j, unsigned depth)
{
	if (depth > JSON_MAX_DEPTH)
		return jp_fail(j, j->p, "nested too deeply");
	jp_ws(j);
	if (j->p >= j->end)
		return jp_fail(j, j->p, "expected a value");
	switch (*j->p) {
	case '{':
		return jp_object(j, depth);
	case '[':
		return jp_array(j, depth);
	case '"':
		return jp_string(j);
	case 't':
		if (word(j, "true"))
			return jv_bool(1);
		break;
	case 'f':
		if (word(j, "false"))
			return jv_bool(0);
		break;
	case 'n':
		if (word(j, "null"))
			return jv_none();
		break;
	case 'N':
		if (word(j, "NaN"))
			return jv_float(NAN);
		break;
	case 'I':
		if (word(j, "Infinity"))
			return jv_float(INFINITY);
		break;
	case '-':
		if (word(j, "-Infinity"))
			return jv_float(-INFINITY);
		return jp_number(j);
	default:
		return jp_number(j);
	}
	return jp_fail(j, j->p, "expected a value");
}

jv *
jv_parse_json(const char *s, size_t n, char *err, size_t errsz)
{
	struct jp j = { s, s + n, s, err, errsz, 0 };
	jv	*v;

	if (err && errsz)
		err[0] = '\0';
	if ((v = jp_value(&j, 0)) == NULL)
		return NULL;
	jp_ws(&j);
	if (j.p != j.end) {
		jv_unref(v);
		return jp_fail(&j, j.p, "extra data after the value");
	}
	return v;
}
