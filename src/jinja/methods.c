/*
 * methods.c - the Python methods templates call on strings, dicts and
 * lists, bound when the attribute is looked up ("x.strip" is a callable
 * holding x), plus printf-style "%" and str.format. Methods that would
 * change a list or a dict are refused, as the immutable sandbox does.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jint.h"
#include "xmalloc.h"

static jv *
str_of(struct buf *b)
{
	size_t	n;
	char	*p = buf_take(b, &n);

	return jv_str_take(p, n);
}

/* Does [p, p+k) hold the code point c of the set chars (NULL: whitespace)? */
static int
in_set(uint32_t c, const jv *chars)
{
	size_t	i, k;
	uint32_t d;

	if (chars == NULL || chars->kind == JV_NONE)
		return py_isspace(c);
	for (i = 0; i < chars->u.s.n; i += k) {
		k = utf8_dec(chars->u.s.p + i, chars->u.s.n - i, &d);
		if (d == c)
			return 1;
	}
	return 0;
}

jv *
str_strip(jv *s, const jv *chars, int left, int right)
{
	size_t	a = 0, b = s->u.s.n, k;
	uint32_t c;

	if (left)
		while (a < b) {
			k = utf8_dec(s->u.s.p + a, b - a, &c);
			if (!in_set(c, chars))
				break;
			a += k;
		}
	if (right)
		while (b > a) {
			const char *q = utf8_prev(s->u.s.p + a, s->u.s.p + b,
			    &c);

			if (!in_set(c, chars))
				break;
			b = (size_t)(q - s->u.s.p);
		}
	if (a == 0 && b == s->u.s.n)
		return jv_ref(s);
	return jv_str(s->u.s.p + a, b - a);
}

/*
 * The lower case of c, at s[i] (k bytes) of s[0, n): capital sigma takes
 * its final form at the end of a word, as CPython decides it (cased,
 * case-ignorables, sigma, and no case-ignorables then cased after it).
 */
static size_t
lower_at(const char *s, size_t n, size_t i, size_t k, uint32_t c,
    uint32_t out[3])
{
	const char *p;
	uint32_t d = 0;
	size_t	j, m;
	int	final = 0;

	if (c != 0x3a3)
		return py_case(c, 'l', out);
	for (p = s + i; p > s;) {
		p = utf8_prev(s, p, &d);
		if (!py_case_ignorable(d)) {
			final = py_cased(d);
			break;
		}
	}
	if (final) {
		for (j = i + k; j < n; j += m) {
			m = utf8_dec(s + j, n - j, &d);
			if (!py_case_ignorable(d))
				break;
		}
		final = j >= n || !py_cased(d);
	}
	out[0] = final ? 0x3c2 : 0x3c3;
	return 1;
}

void
case_add(struct buf *b, const char *s, size_t n, int how)
{
	size_t	i, j, k, m;
	uint32_t c, out[3];
	char	u[4];
	int	prev_cased = 0;

	for (i = 0; i < n; i += k) {
		k = utf8_dec(s + i, n - i, &c);
		switch (how) {
		case 'u':
			m = py_case(c, 'u', out);
			break;
		case 'l':
			m = lower_at(s, n, i, k, c, out);
			break;
		case 't':	/* str.title */
			m = prev_cased ? lower_at(s, n, i, k, c, out) :
			    py_case(c, 't', out);
			prev_cased = py_cased(c);
			break;
		case 'c':	/* str.capitalize: title case first */
			m = i == 0 ? py_case(c, 't', out) :
			    lower_at(s, n, i, k, c, out);
			break;
		default:	/* str.swapcase */
			if (py_isupper(c))
				m = lower_at(s, n, i, k, c, out);
			else if (py_islower(c))
				m = py_case(c, 'u', out);
			else {
				out[0] = c;
				m = 1;
			}
			break;
		}
		for (j = 0; j < m; j++)
			buf_add(b, u, utf8_enc(u, out[j]));
	}
}

jv *
str_case(jv *s, int how)
{
	struct buf b = { 0 };

	case_add(&b, s->u.s.p, s->u.s.n, how);
	return str_of(&b);
}

static const char *
memfind(const char *h, size_t hn, const char *n, size_t nn)
{
	size_t	i;

	if (nn == 0)
		return h;
	if (nn > hn)
		return NULL;
	for (i = 0; i + nn <= hn; i++)
		if (h[i] == n[0] && memcmp(h + i, n, nn) == 0)
			return h + i;
	return NULL;
}

jv *
str_replace(struct rstate *rs, jv *s, jv *old, jv *new, long long count)
{
	struct buf b = { 0 };
	const char *p = s->u.s.p, *end = s->u.s.p + s->u.s.n, *q;
	long long done = 0;

	b.limit = rs->lim.max_output;
	if (old->u.s.n == 0) {
		/* Python inserts new between every code point and at both ends */
		size_t	i, k;
		uint32_t c;

		for (i = 0; i <= s->u.s.n; i += k) {
			if (count >= 0 && done >= count) {
				buf_add(&b, s->u.s.p + i, s->u.s.n - i);
				break;
			}
			buf_add(&b, new->u.s.p, new->u.s.n);
			done++;
			if (i == s->u.s.n)
				break;
			k = utf8_dec(s->u.s.p + i, s->u.s.n - i, &c);
			buf_add(&b, s->u.s.p + i, k);
		}
	} else {
		while ((count < 0 || done < count) &&
		    (q = memfind(p, (size_t)(end - p), old->u.s.p, old->u.s.n)) != NULL) {
			buf_add(&b, p, (size_t)(q - p));
			buf_add(&b, new->u.s.p, new->u.s.n);
			p = q + old->u.s.n;
			done++;
		}
		buf_add(&b, p, (size_t)(end - p));
	}
	if (b.over) {
		free(b.p);
		return rs_fail(rs, NULL, "result of replace() too large");
	}
	return str_of(&b);
}

/* Where the whitespace that ends [p, e) begins (e if there is none). */
static const char *
rskip_space(const char *p, const char *e)
{
	const char *q;
	uint32_t c;

	while (e > p) {
		q = utf8_prev(p, e, &c);
		if (!py_isspace(c))
			break;
		e = q;
	}
	return e;
}

/* str.split(sep=None, maxsplit=-1), or rsplit when right. */
jv *
str_split(jv *s, const jv *sep, long long maxsplit, int right)
{
	jv	*l = jv_list();
	const char *p = s->u.s.p, *end = p + s->u.s.n;
	long long n = 0;

	if (sep == NULL || sep->kind == JV_NONE) {
		/* runs of whitespace; no empty strings */
		size_t	k;
		uint32_t c;

		if (right) {
			jv	*tmp = jv_list();
			const char *e = end;
			size_t	i;

			for (;;) {
				const char *q;

				e = rskip_space(p, e);
				if (e == p)
					break;
				if (maxsplit >= 0 && n >= maxsplit) {
					jv_list_push(tmp, jv_str(p, (size_t)(e - p)));
					break;
				}
				q = e;
				while (q > p) {
					const char *r = utf8_prev(p, q, &c);

					if (py_isspace(c))
						break;
					q = r;
				}
				jv_list_push(tmp, jv_str(q, (size_t)(e - q)));
				n++;
				e = q;
			}
			for (i = tmp->u.l.n; i > 0; i--)
				jv_list_push(l, jv_ref(tmp->u.l.v[i - 1]));
			jv_unref(tmp);
			return l;
		}
		for (;;) {
			const char *q;

			while (p < end) {
				k = utf8_dec(p, (size_t)(end - p), &c);
				if (!py_isspace(c))
					break;
				p += k;
			}
			if (p == end)
				break;
			if (maxsplit >= 0 && n >= maxsplit) {
				const char *e = rskip_space(p, end);

				jv_list_push(l, jv_str(p, (size_t)(e - p)));
				break;
			}
			q = p;
			while (q < end) {
				k = utf8_dec(q, (size_t)(end - q), &c);
				if (py_isspace(c))
					break;
				q += k;
			}
			jv_list_push(l, jv_str(p, (size_t)(q - p)));
			n++;
			p = q;
		}
		return l;
	}
	if (right) {
		jv	*tmp = jv_list();
		const char *e = end;
		size_t	i;

		for (;;) {
			const char *q = NULL, *r;

			if (maxsplit < 0 || n < maxsplit)
				for (r = e - sep->u.s.n; r >= p && r + sep->u.s.n <= e; r--) {
					if (memcmp(r, sep->u.s.p, sep->u.s.n) == 0) {
						q = r;
						break;
					}
					if (r == p)
						break;
				}
			if (q == NULL) {
				jv_list_push(tmp, jv_str(p, (size_t)(e - p)));
				break;
			}
			jv_list_push(tmp, jv_str(q + sep->u.s.n,
			    (size_t)(e - q - (ptrdiff_t)sep->u.s.n)));
			n++;
			e = q;
		}
		for (i = tmp->u.l.n; i > 0; i--)
			jv_list_push(l, jv_ref(tmp->u.l.v[i - 1]));
		jv_unref(tmp);
		return l;
	}
	for (;;) {
		const char *q = NULL;

		if (maxsplit < 0 || n < maxsplit)
			q = memfind(p, (size_t)(end - p), sep->u.s.p, sep->u.s.n);
		if (q == NULL) {
			jv_list_push(l, jv_str(p, (size_t)(end - p)));
			break;
		}
		jv_list_push(l, jv_str(p, (size_t)(q - p)));
		n++;
		p = q + sep->u.s.n;
	}
	return l;
}

static long long
cp_index(const jv *s, size_t byte)
{
	size_t	i;
	long long c = 0;

	for (i = 0; i < byte; i++)
		if (((unsigned char)s->u.s.p[i] & 0xc0) != 0x80)
			c++;
	return c;
}

static int
int_arg(jv *v, long long *out)
{
	if (v == NULL || v->kind == JV_NONE)
		return 0;
	if (v->kind == JV_INT) {
		*out = v->u.i;
		return 1;
	}
	if (v->kind == JV_BOOL) {
		*out = v->u.b;
		return 1;
	}
	return -1;
}

/* ------------------------------------------------------- % and format */
static int
fmt_one(struct rstate *rs, struct buf *b, jv *v, const char *spec, size_t sn,
    char conv);

jv *
str_percent(struct rstate *rs, const struct node *at, jv *fmt, jv *args)
{
	struct buf b = { 0 };
	size_t	i = 0, ai = 0, nargs;
	jv	**av, *one[1];
	const char *p = fmt->u.s.p;
	size_t	n = fmt->u.s.n;

	if (args->kind == JV_LIST && (args->flags & JVF_TUPLE)) {
		av = args->u.l.v;
		nargs = args->u.l.n;
	} else {
		one[0] = args;
		av = one;
		nargs = 1;
	}
	b.limit = rs->lim.max_output;
	while (i < n) {
		size_t	s0;
		char	spec[32];
		size_t	sl = 0;
		jv	*v;

		if (p[i] != '%') {
			buf_addc(&b, p[i++]);
			continue;
		}
		i++;
		if (i < n && p[i] == '%') {
			buf_addc(&b, '%');
			i++;
			continue;
		}
		if (i < n && p[i] == '(' && args->kind == JV_DICT) {
			size_t	e = i + 1;
			jv	*key;

			while (e < n && p[e] != ')')
				e++;
			if (e >= n) {
				free(b.p);
				return rs_fail(rs, at, "incomplete format key");
			}
			key = jv_str(p + i + 1, e - i - 1);
			v = jv_dict_getv(args, key);
			jv_unref(key);
			if (v == NULL) {
				free(b.p);
				return rs_fail(rs, at, "format key not found");
			}
			i = e + 1;
		} else
			v = NULL;
		s0 = i;
		while (i < n && strchr("-+ #0123456789.", p[i]))
			i++;
		if (i >= n) {
			free(b.p);
			return rs_fail(rs, at, "incomplete format");
		}
		sl = i - s0 < sizeof spec - 1 ? i - s0 : sizeof spec - 1;
		memcpy(spec, p + s0, sl);
		spec[sl] = '\0';
		if (v == NULL) {
			if (ai >= nargs) {
				free(b.p);
				return rs_fail(rs, at, "not enough arguments for format string");
			}
			v = av[ai++];
		}
		{
			char	conv = p[i++], pyspec[48], *o = pyspec;
			const char *q = spec;
			int	left = 0, zero = 0;
			char	sign = 0;

			/* the printf flags, width and precision as a format() spec */
			for (; *q && strchr("-+ #0", *q); q++) {
				if (*q == '-')
					left = 1;
				else if (*q == '0')
					zero = 1;
				else if (*q == '+' || (*q == ' ' && sign != '+'))
					sign = *q;
			}
			if (left)
				*o++ = '<';
			else if (zero && conv != 's' && conv != 'r' && conv != 'a') {
				*o++ = '0';
				*o++ = '=';
			} else if (conv == 's' || conv == 'r' || conv == 'a')
				*o++ = '>';
			if (sign)
				*o++ = sign;
			while (*q && o < pyspec + sizeof pyspec - 3)
				*o++ = *q++;
			if (conv == 'i' || conv == 'u')
				conv = 'd';
			if (strchr("dxXoeEfFgG", conv)) {
				if (!jv_is_number(v)) {
					free(b.p);
					return rs_fail(rs, at, "%%%c format: a real number is required, not %s",
					    conv, jv_kind_name(v));
				}
				*o++ = conv;
			} else if (conv == 'c') {
				char	u[4];

				if (v->kind == JV_INT && v->u.i >= 0 && v->u.i < 0x110000) {
					buf_add(&b, u, utf8_enc(u, (uint32_t)v->u.i));
					continue;
				}
				if (v->kind == JV_STR && jv_str_cps(v) == 1) {
					buf_add(&b, v->u.s.p, v->u.s.n);
					continue;
				}
				free(b.p);
				return rs_fail(rs, at, "%%c requires an int or a unicode character");
			} else if (conv != 's' && conv != 'r' && conv != 'a') {
				free(b.p);
				return rs_fail(rs, at, "unsupported format character '%c'", conv);
			}
			*o = '\0';
			if (strchr("dxXo", conv) && v->kind == JV_FLOAT) {
				jv	*iv;
				int	rc;

				if (!isfinite(v->u.f) || fabs(v->u.f) > 9.2e18) {
					free(b.p);
					return rs_fail(rs, at, "cannot convert float to integer");
				}
				iv = jv_int((long long)v->u.f);
				rc = fmt_one(rs, &b, iv, pyspec, strlen(pyspec), 's');
				jv_unref(iv);
				if (rc) {
					free(b.p);
					return NULL;
				}
				continue;
			}
			if (fmt_one(rs, &b, v, pyspec, strlen(pyspec),
			    conv == 'r' || conv == 'a' ? 'r' : 's')) {
				free(b.p);
				return NULL;
			}
		}
	}
	if (ai < nargs && args->kind == JV_LIST && (args->flags & JVF_TUPLE)) {
		free(b.p);
		return rs_fail(rs, at, "not all arguments converted during string formatting");
	}
	if (b.over) {
		free(b.p);
		return rs_fail(rs, at, "formatted string too large");
	}
	return str_of(&b);
}

/* One replacement field's value by a format() spec: [[fill]align][sign][0][width][.prec][type]. */
static int
fmt_one(struct rstate *rs, struct buf *b, jv *v, const char *spec, size_t sn,
    char conv)
{
	struct buf t = { 0 };
	char	fill = ' ', align = 0, type = 0, sign = '-';
	long	width = 0, prec = -1;
	size_t	i = 0, len, cps, k;

	if (sn >= 2 && strchr("<>^=", spec[1])) {
		fill = spec[0];
		align = spec[1];
		i = 2;
	} else if (sn >= 1 && strchr("<>^=", spec[0])) {
		align = spec[0];
		i = 1;
	}
	if (i < sn && strchr("+- ", spec[i]))
		sign = spec[i++];
	if (i < sn && spec[i] == '0') {
		if (!align) {
			fill = '0';
			align = '=';
		}
		i++;
	}
	while (i < sn && spec[i] >= '0' && spec[i] <= '9' && width < 100000)
		width = width * 10 + (spec[i++] - '0');
	if (i < sn && spec[i] == '.') {
		i++;
		prec = 0;
		while (i < sn && spec[i] >= '0' && spec[i] <= '9' && prec < 1000)
			prec = prec * 10 + (spec[i++] - '0');
	}
	if (i < sn)
		type = spec[i++];
	if (i != sn)
		return rs_fail(rs, NULL, "Invalid format specifier"), -1;
	if (conv == 'r') {
		if (fmt_repr(&t, v, 0))
			return free(t.p), rs_fail(rs, NULL, "value nested too deeply"), -1;
	} else if (type && strchr("eEfFgG%", type) && jv_is_number(v)) {
		double	d = jv_num(v);
		int	pr = (int)(prec < 0 ? 6 : prec);

		if (sign != '-' && !signbit(d))
			buf_addc(&t, sign);
		switch (type) {
		case 'e': buf_printf(&t, "%.*e", pr, d); break;
		case 'E': buf_printf(&t, "%.*E", pr, d); break;
		case 'f': buf_printf(&t, "%.*f", pr, d); break;
		case 'F': buf_printf(&t, "%.*F", pr, d); break;
		case 'g': buf_printf(&t, "%.*g", pr, d); break;
		case 'G': buf_printf(&t, "%.*G", pr, d); break;
		default:
			buf_printf(&t, "%.*f%%", pr, d * 100);
			break;
		}
	} else if (type && strchr("dxXob", type) && (v->kind == JV_INT || v->kind == JV_BOOL)) {
		long long x = v->kind == JV_INT ? v->u.i : v->u.b;
		unsigned long long ux = x < 0 ? 0ULL - (unsigned long long)x : (unsigned long long)x;

		if (x < 0)
			buf_addc(&t, '-');
		else if (sign != '-')
			buf_addc(&t, sign);
		if (type == 'b') {
			char	bits[70];
			int	nb = 0;

			do {
				bits[nb++] = (char)('0' + (ux & 1));
				ux >>= 1;
			} while (ux);
			while (nb)
				buf_addc(&t, bits[--nb]);
		} else if (type == 'x')
			buf_printf(&t, "%llx", ux);
		else if (type == 'X')
			buf_printf(&t, "%llX", ux);
		else if (type == 'o')
			buf_printf(&t, "%llo", ux);
		else
			buf_printf(&t, "%llu", ux);
	} else if (jv_is_number(v) && v->kind != JV_BOOL && prec >= 0 && !type) {
		buf_printf(&t, "%.*g", (int)(prec ? prec : 1), jv_num(v));
	} else {
		if (fmt_str(&t, v, 0))
			return free(t.p), rs_fail(rs, NULL, "value nested too deeply"), -1;
		if (prec >= 0 && v->kind == JV_STR) {
			jv *tmp = jv_str(t.p ? t.p : "", t.n), *cut;

			cut = str_slice_cp(tmp, 0, (size_t)prec);
			free(t.p);
			memset(&t, 0, sizeof t);
			buf_add(&t, cut->u.s.p, cut->u.s.n);
			jv_unref(cut);
			jv_unref(tmp);
		}
	}
	len = t.n;
	for (cps = 0, k = 0; k < len; k++)
		if (((unsigned char)t.p[k] & 0xc0) != 0x80)
			cps++;
	if (!align)
		align = jv_is_number(v) && v->kind != JV_BOOL ? '>' : '<';
	if ((long)cps < width) {
		long	pad = width - (long)cps, l = 0, r = 0;

		if (align == '<')
			r = pad;
		else if (align == '>' || align == '=')
			l = pad;
		else {
			l = pad / 2;
			r = pad - l;
		}
		if (align == '=' && t.n && (t.p[0] == '-' || t.p[0] == '+')) {
			buf_addc(b, t.p[0]);
			while (l-- > 0)
				buf_addc(b, fill);
			buf_add(b, t.p + 1, t.n - 1);
		} else {
			while (l-- > 0)
				buf_addc(b, fill);
			buf_add(b, t.p, t.n);
		}
		while (r-- > 0)
			buf_addc(b, fill);
	} else
		buf_add(b, t.p, t.n);
	free(t.p);
	return 0;
}

static jv *
str_format(struct rstate *rs, jv *fmt, jv **args, size_t nargs, char **kwn,
    jv **kwv, size_t nkw)
{
	struct buf b = { 0 };
	const char *p = fmt->u.s.p;
	size_t	n = fmt->u.s.n, i = 0, auto_i = 0;

	b.limit = rs->lim.max_output;
	while (i < n) {
		size_t	s, e, colon, bang;
		jv	*v = NULL;
		char	conv = 's';

		if (p[i] == '}' ) {
			if (i + 1 < n && p[i + 1] == '}') {
				buf_addc(&b, '}');
				i += 2;
				continue;
			}
			free(b.p);
			return rs_fail(rs, NULL, "Single '}' encountered in format string");
		}
		if (p[i] != '{') {
			buf_addc(&b, p[i++]);
			continue;
		}
		if (i + 1 < n && p[i + 1] == '{') {
			buf_addc(&b, '{');
			i += 2;
			continue;
		}
		s = i + 1;
		for (e = s; e < n && p[e] != '}'; e++)
			;
		if (e >= n) {
			free(b.p);
			return rs_fail(rs, NULL, "Single '{' encountered in format string");
		}
		for (colon = s; colon < e && p[colon] != ':'; colon++)
			;
		for (bang = s; bang < colon && p[bang] != '!'; bang++)
			;
		if (bang < colon && bang + 1 < colon)
			conv = p[bang + 1];
		if (bang == s) {
			if (auto_i < nargs)
				v = args[auto_i];
			auto_i++;
		} else if (p[s] >= '0' && p[s] <= '9') {
			size_t	k = 0, q;

			for (q = s; q < bang && p[q] >= '0' && p[q] <= '9' && k < 1000000; q++)
				k = k * 10 + (size_t)(p[q] - '0');
			if (k < nargs)
				v = args[k];
		} else {
			size_t	q;

			for (q = 0; q < nkw; q++)
				if (strlen(kwn[q]) == bang - s &&
				    memcmp(kwn[q], p + s, bang - s) == 0)
					v = kwv[q];
			if (v == NULL) {
				free(b.p);
				return rs_fail(rs, NULL, "KeyError: '%.*s'", (int)(bang - s), p + s);
			}
		}
		if (v == NULL) {
			free(b.p);
			return rs_fail(rs, NULL, "Replacement index %zu out of range for positional args tuple",
			    auto_i ? auto_i - 1 : 0);
		}
		if (fmt_one(rs, &b, v, colon < e ? p + colon + 1 : "",
		    colon < e ? e - colon - 1 : 0, conv == 'r' ? 'r' : 's')) {
			free(b.p);
			return NULL;
		}
		i = e + 1;
	}
	if (b.over) {
		free(b.p);
		return rs_fail(rs, NULL, "formatted string too large");
	}
	return str_of(&b);
}

/* ------------------------------------------------------------ dispatch */
static jv *
need_str(struct rstate *rs, const char *m, jv *v)
{
	if (v == NULL || v->kind != JV_STR)
		return rs_fail(rs, NULL, "%s() argument must be str, not %s", m,
		    v ? jv_kind_name(v) : "nothing");
	return v;
}

static jv *
items_of(jv *d, int what)
{
	jv	*l = jv_list();
	size_t	i;

	for (i = 0; i < d->u.d.n; i++) {
		if (what == 'k')
			jv_list_push(l, jv_ref(d->u.d.k[i]));
		else if (what == 'v')
			jv_list_push(l, jv_ref(d->u.d.v[i]));
		else {
			jv *t = jv_tuple();

			jv_list_push(t, jv_ref(d->u.d.k[i]));
			jv_list_push(t, jv_ref(d->u.d.v[i]));
			jv_list_push(l, t);
		}
	}
	return l;
}

static int
affix(jv *s, jv *a, int end)
{
	if (a->u.s.n > s->u.s.n)
		return 0;
	return memcmp(s->u.s.p + (end ? s->u.s.n - a->u.s.n : 0), a->u.s.p,
	    a->u.s.n) == 0;
}

static jv *
method_body(struct rstate *rs, jv *self, const char *m, jv **args,
    size_t nargs, char **kwn, jv **kwv, size_t nkw)
{
	jv	*a0 = arg_get(args, nargs, kwn, kwv, nkw, 0, NULL);
	jv	*a1 = arg_get(args, nargs, kwn, kwv, nkw, 1, NULL);
	long long x;
	size_t	i;

	if (self->kind == JV_STR) {
		if (!strcmp(m, "strip") || !strcmp(m, "lstrip") || !strcmp(m, "rstrip")) {
			if (a0 && a0->kind != JV_NONE && !need_str(rs, m, a0))
				return NULL;
			return str_strip(self, a0, m[0] != 'r', m[0] != 'l');
		}
		if (!strcmp(m, "upper"))
			return str_case(self, 'u');
		if (!strcmp(m, "lower"))
			return str_case(self, 'l');
		if (!strcmp(m, "title"))
			return str_case(self, 't');
		if (!strcmp(m, "capitalize"))
			return str_case(self, 'c');
		if (!strcmp(m, "swapcase"))
			return str_case(self, 's');
		if (!strcmp(m, "split") || !strcmp(m, "rsplit")) {
			jv *sep = arg_get(args, nargs, kwn, kwv, nkw, 0, "sep");
			jv *mx = arg_get(args, nargs, kwn, kwv, nkw, 1, "maxsplit");

			x = -1;
			if (sep && sep->kind != JV_NONE && !need_str(rs, m, sep))
				return NULL;
			if (sep && sep->kind == JV_STR && sep->u.s.n == 0)
				return rs_fail(rs, NULL, "empty separator");
			if (int_arg(mx, &x) < 0)
				return rs_fail(rs, NULL, "maxsplit must be an integer");
			return str_split(self, sep, x, m[0] == 'r');
		}
		if (!strcmp(m, "splitlines")) {
			jv	*l = jv_list();
			const char *p = self->u.s.p, *e = p + self->u.s.n, *q;
			int	keep = a0 && jv_truthy(a0);

			while (p < e) {
				for (q = p; q < e && *q != '\n' && *q != '\r'; q++)
					;
				if (q == e) {
					jv_list_push(l, jv_str(p, (size_t)(e - p)));
					break;
				}
				{
					const char *nx = q + 1;

					if (*q == '\r' && nx < e && *nx == '\n')
						nx++;
					jv_list_push(l, jv_str(p, (size_t)((keep ? nx : q) - p)));
					p = nx;
				}
			}
			return l;
		}
		if (!strcmp(m, "startswith") || !strcmp(m, "endswith")) {
			int	end = m[0] == 'e';

			if (a0 && a0->kind == JV_LIST && (a0->flags & JVF_TUPLE)) {
				for (i = 0; i < a0->u.l.n; i++) {
					if (!need_str(rs, m, a0->u.l.v[i]))
						return NULL;
					if (affix(self, a0->u.l.v[i], end))
						return jv_bool(1);
				}
				return jv_bool(0);
			}
			if (!need_str(rs, m, a0))
				return NULL;
			return jv_bool(affix(self, a0, end));
		}
		if (!strcmp(m, "replace")) {
			x = -1;
			if (!need_str(rs, m, a0) || !need_str(rs, m, a1))
				return NULL;
			if (int_arg(arg_get(args, nargs, kwn, kwv, nkw, 2, "count"), &x) < 0)
				return rs_fail(rs, NULL, "count must be an integer");
			return str_replace(rs, self, a0, a1, x);
		}
		if (!strcmp(m, "find") || !strcmp(m, "rfind") || !strcmp(m, "index") ||
		    !strcmp(m, "rindex") || !strcmp(m, "count")) {
			const char *q = NULL, *r;
			long long cnt = 0;

			if (!need_str(rs, m, a0))
				return NULL;
			if (!strcmp(m, "count")) {
				const char *p = self->u.s.p, *e = p + self->u.s.n;

				if (a0->u.s.n == 0)
					return jv_int((long long)jv_str_cps(self) + 1);
				while ((r = memfind(p, (size_t)(e - p), a0->u.s.p, a0->u.s.n)) != NULL) {
					cnt++;
					p = r + a0->u.s.n;
				}
				return jv_int(cnt);
			}
			if (m[0] == 'r') {
				for (r = self->u.s.p + self->u.s.n - a0->u.s.n;
				    a0->u.s.n <= self->u.s.n && r >= self->u.s.p; r--) {
					if (memcmp(r, a0->u.s.p, a0->u.s.n) == 0) {
						q = r;
						break;
					}
					if (r == self->u.s.p)
						break;
				}
			} else
				q = memfind(self->u.s.p, self->u.s.n, a0->u.s.p, a0->u.s.n);
			if (q == NULL) {
				if (strstr(m, "index"))
					return rs_fail(rs, NULL, "substring not found");
				return jv_int(-1);
			}
			return jv_int(cp_index(self, (size_t)(q - self->u.s.p)));
		}
		if (!strcmp(m, "join")) {
			struct buf b = { 0 };
			jv	*l;

			if (a0 == NULL)
				return rs_fail(rs, NULL, "join() takes exactly one argument");
			if ((l = iter_list(rs, NULL, a0)) == NULL)
				return NULL;
			for (i = 0; i < l->u.l.n; i++) {
				if (l->u.l.v[i]->kind != JV_STR) {
					free(b.p);
					jv_unref(l);
					return rs_fail(rs, NULL, "sequence item %zu: expected str instance, %s found",
					    i, jv_kind_name(l->u.l.v[i]));
				}
				if (i)
					buf_add(&b, self->u.s.p, self->u.s.n);
				buf_add(&b, l->u.l.v[i]->u.s.p, l->u.l.v[i]->u.s.n);
			}
			jv_unref(l);
			return str_of(&b);
		}
		if (!strcmp(m, "format"))
			return str_format(rs, self, args, nargs, kwn, kwv, nkw);
		if (!strcmp(m, "center") || !strcmp(m, "ljust") || !strcmp(m, "rjust")) {
			struct buf b = { 0 };
			jv	*fc = a1;
			long long l, r, n = (long long)jv_str_cps(self);

			if (int_arg(a0, &x) != 1)
				return rs_fail(rs, NULL, "%s() needs an integer width", m);
			if (fc && (fc->kind != JV_STR || jv_str_cps(fc) != 1))
				return rs_fail(rs, NULL, "The fill character must be exactly one character long");
			if (x <= n)
				return jv_ref(self);
			/* Too wide is an error, as for the filters. */
			if ((unsigned long long)(x - n) > rs->lim.max_output /
			    (fc ? fc->u.s.n : 1) || self->u.s.n >
			    rs->lim.max_output - (size_t)(x - n) *
			    (fc ? fc->u.s.n : 1))
				return rs_fail(rs, NULL, "%s() result too large", m);
			l = m[0] == 'r' ? x - n : m[0] == 'l' ? 0 :
			    (x - n) / 2 + ((x - n) & x & 1);
			r = x - n - l;
			while (l-- > 0)
				buf_add(&b, fc ? fc->u.s.p : " ", fc ? fc->u.s.n : 1);
			buf_add(&b, self->u.s.p, self->u.s.n);
			while (r-- > 0)
				buf_add(&b, fc ? fc->u.s.p : " ", fc ? fc->u.s.n : 1);
			return str_of(&b);
		}
		if (!strcmp(m, "isdigit") || !strcmp(m, "isalpha") ||
		    !strcmp(m, "isspace") || !strcmp(m, "isalnum") ||
		    !strcmp(m, "isupper") || !strcmp(m, "islower")) {
			size_t	k;
			uint32_t c;
			int	ok = self->u.s.n > 0, cased = 0;

			for (i = 0; i < self->u.s.n && ok; i += k) {
				k = utf8_dec(self->u.s.p + i, self->u.s.n - i, &c);
				switch (m[2]) {
				case 'd': ok = c >= '0' && c <= '9'; break;
				case 'a': ok = m[4] == 'n' ? py_isalnum(c) && c != '_' : py_isalpha(c); break;
				case 's': ok = py_isspace(c); break;
				case 'u':
					if (py_islower(c) || py_istitle(c))
						ok = 0;
					cased |= py_isupper(c);
					break;
				case 'l':
					if (py_isupper(c) || py_istitle(c))
						ok = 0;
					cased |= py_islower(c);
					break;
				}
			}
			if (m[2] == 'u' || m[2] == 'l')
				ok = ok && cased;
			return jv_bool(ok);
		}
	}
	if (self->kind == JV_DICT) {
		if (!strcmp(m, "get")) {
			jv	*v;

			if (a0 == NULL)
				return rs_fail(rs, NULL, "get expected at least 1 argument, got 0");
			v = jv_dict_getv(self, a0);
			if (v)
				return jv_ref(v);
			return a1 ? jv_ref(a1) : jv_none();
		}
		if (!strcmp(m, "items"))
			return items_of(self, 'i');
		if (!strcmp(m, "keys"))
			return items_of(self, 'k');
		if (!strcmp(m, "values"))
			return items_of(self, 'v');
		if (!strcmp(m, "copy")) {
			jv	*d = jv_dict();

			for (i = 0; i < self->u.d.n; i++)
				jv_dict_setv(d, jv_ref(self->u.d.k[i]), jv_ref(self->u.d.v[i]));
			return d;
		}
	}
	if (self->kind == JV_LIST) {
		if (!strcmp(m, "index")) {
			for (i = 0; a0 && i < self->u.l.n; i++)
				if (jv_equal(self->u.l.v[i], a0))
					return jv_int((long long)i);
			return rs_fail(rs, NULL, "value is not in list");
		}
		if (!strcmp(m, "count")) {
			long long c = 0;

			for (i = 0; a0 && i < self->u.l.n; i++)
				c += jv_equal(self->u.l.v[i], a0);
			return jv_int(c);
		}
		if (!strcmp(m, "copy")) {
			jv	*l = jv_list();

			for (i = 0; i < self->u.l.n; i++)
				jv_list_push(l, jv_ref(self->u.l.v[i]));
			return l;
		}
	}
	return rs_fail(rs, NULL, "'%s' object has no attribute '%s'",
	    jv_kind_name(self), m);
}

/* Markup's methods give Markup back. */
static jv *
call_method(struct rstate *rs, jv *self, const char *m, jv **args,
    size_t nargs, char **kwn, jv **kwv, size_t nkw)
{
	jv	*r = method_body(rs, self, m, args, nargs, kwn, kwv, nkw);

	if (r && r->kind == JV_STR && self->kind == JV_STR &&
	    (!strcmp(m, "strip") || !strcmp(m, "lstrip") ||
	    !strcmp(m, "rstrip") || !strcmp(m, "upper") ||
	    !strcmp(m, "lower") || !strcmp(m, "title") ||
	    !strcmp(m, "capitalize") || !strcmp(m, "swapcase") ||
	    !strcmp(m, "replace")))
		r = jv_keep_safe(self, r);
	return r;
}

static const char *const str_methods[] = {
	"strip", "lstrip", "rstrip", "upper", "lower", "title", "capitalize",
	"swapcase", "split", "rsplit", "splitlines", "startswith", "endswith",
	"replace", "find", "rfind", "index", "rindex", "count", "join",
	"format", "isdigit", "isalpha", "isspace", "isalnum", "isupper",
	"islower", "center", "ljust", "rjust", NULL
};
static const char *const dict_methods[] = {
	"get", "items", "keys", "values", "copy", NULL
};
static const char *const list_methods[] = { "index", "count", "copy", NULL };
static const char *const dict_mutators[] = {
	"update", "pop", "popitem", "setdefault", "clear", NULL
};
static const char *const list_mutators[] = {
	"append", "extend", "insert", "pop", "remove", "reverse", "sort",
	"clear", NULL
};

static int
listed(const char *const *l, const char *name)
{
	for (; *l; l++)
		if (!strcmp(*l, name))
			return 1;
	return 0;
}

jv *
method_of(jv *obj, const char *name)
{
	const char *const *l = NULL;

	if (obj->kind == JV_STR)
		l = str_methods;
	else if (obj->kind == JV_DICT && !(obj->flags & (JVF_NAMESPACE | JVF_LOOP))) {
		if (listed(dict_mutators, name))
			return jv_undefined_hint("access to attribute '%s' of 'dict' object is unsafe.", name);
		l = dict_methods;
	} else if (obj->kind == JV_LIST) {
		if (!(obj->flags & JVF_TUPLE) && listed(list_mutators, name))
			return jv_undefined_hint("access to attribute '%s' of 'list' object is unsafe.", name);
		l = list_methods;
	}
	if (l == NULL)
		return NULL;
	for (; *l; l++)
		if (!strcmp(*l, name))
			return jv_fn_builtin(*l, call_method, jv_ref(obj));
	return NULL;
}
