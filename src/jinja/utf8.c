/*
 * utf8.c - UTF-8 decoding and encoding, and the few character classes of
 * Python's str that templates reach (whitespace, letters, and case from
 * the tables of casemap.c).
 */
#include "config.h"

#include <stdint.h>

#include "jint.h"

size_t
utf8_dec(const char *s, size_t n, uint32_t *cp)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t	need, i;
	uint32_t c;

	if (n == 0) {
		*cp = 0;
		return 1;
	}
	if (u[0] < 0x80) {
		*cp = u[0];
		return 1;
	}
	if ((u[0] & 0xe0) == 0xc0) {
		need = 2;
		c = u[0] & 0x1f;
	} else if ((u[0] & 0xf0) == 0xe0) {
		need = 3;
		c = u[0] & 0x0f;
	} else if ((u[0] & 0xf8) == 0xf0) {
		need = 4;
		c = u[0] & 0x07;
	} else {
		*cp = 0xfffd;
		return 1;
	}
	if (need > n) {
		*cp = 0xfffd;
		return 1;
	}
	for (i = 1; i < need; i++) {
		if ((u[i] & 0xc0) != 0x80) {
			*cp = 0xfffd;
			return 1;
		}
		c = c << 6 | (u[i] & 0x3f);
	}
	*cp = c;
	return need;
}

/*
 * The code point that ends at end (start < end): where it begins, with
 * its value in *cp.
 */
const char *
utf8_prev(const char *start, const char *end, uint32_t *cp)
{
	const char *q = end - 1;

	while (q > start && ((unsigned char)*q & 0xc0) == 0x80)
		q--;
	utf8_dec(q, (size_t)(end - q), cp);
	return q;
}

size_t
utf8_enc(char *out, uint32_t cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | cp >> 6);
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | cp >> 12);
		out[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | cp >> 18);
	out[1] = (char)(0x80 | (cp >> 12 & 0x3f));
	out[2] = (char)(0x80 | (cp >> 6 & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

int
py_isspace(uint32_t c)
{
	return (c >= 9 && c <= 13) || (c >= 0x1c && c <= 0x20) || c == 0x85 ||
	    c == 0xa0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200a) ||
	    c == 0x2028 || c == 0x2029 || c == 0x202f || c == 0x205f ||
	    c == 0x3000;
}

/* Letters of the scripts templates are written in; enough for \w. */
int
py_isalpha(uint32_t c)
{
	if (c < 0x80)
		return (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
	if (c == 0xaa || c == 0xb5 || c == 0xba)
		return 1;
	if (c >= 0xc0 && c <= 0x24f)
		return c != 0xd7 && c != 0xf7;
	if (c >= 0x370 && c <= 0x3ff)
		return c != 0x375 && c != 0x37e && c != 0x384 && c != 0x385 &&
		    c != 0x387;
	if (c >= 0x400 && c <= 0x52f)
		return !(c >= 0x482 && c <= 0x489);
	if (c >= 0x3040 && c <= 0x9fff)		/* kana, CJK */
		return !(c >= 0x3099 && c <= 0x309c);
	if (c >= 0xac00 && c <= 0xd7a3)		/* Hangul */
		return 1;
	return 0;
}

int
py_isalnum(uint32_t c)
{
	return py_isalpha(c) || (c >= '0' && c <= '9') || c == '_';
}

/* The case properties of c (CP_*). */
static unsigned
case_flags(uint32_t c)
{
	size_t	lo = 0, hi = caseprops_n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (c < caseprops[mid].lo)
			hi = mid;
		else if (c > caseprops[mid].hi)
			lo = mid + 1;
		else
			return caseprops[mid].flags;
	}
	return 0;
}

size_t
py_case(uint32_t c, int how, uint32_t out[3])
{
	size_t	lo = 0, hi = casemap_n, mid, n, i;
	uint32_t m;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (c < casemap[mid].cp)
			hi = mid;
		else if (c > casemap[mid].cp)
			lo = mid + 1;
		else {
			m = how == 'l' ? casemap[mid].lower : how == 'u' ?
			    casemap[mid].upper : casemap[mid].title;
			if (!(m & CM_MULTI)) {
				out[0] = m;
				return 1;
			}
			m &= ~CM_MULTI;
			n = casemap_multi[m];
			for (i = 0; i < n && i < 3; i++)
				out[i] = casemap_multi[m + 1 + i];
			return i;
		}
	}
	out[0] = c;
	return 1;
}

int
py_cased(uint32_t c)
{
	return (case_flags(c) & CP_CASED) != 0;
}

int
py_case_ignorable(uint32_t c)
{
	return (case_flags(c) & CP_IGNORABLE) != 0;
}

int
py_isupper(uint32_t c)
{
	return (case_flags(c) & CP_UPPER) != 0;
}

int
py_islower(uint32_t c)
{
	return (case_flags(c) & CP_LOWER) != 0;
}

int
py_istitle(uint32_t c)
{
	return (case_flags(c) & CP_TITLE) != 0;
}
