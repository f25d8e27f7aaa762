/*
 * jsoncheck.c - reads standard input and exits 0 if it is exactly one
 * valid JSON value (RFC 8259), 1 with the byte offset of the first error
 * otherwise. Strings must be valid UTF-8; \u escapes may name lone
 * surrogates (ggufed writes invalid bytes as \udcHH).
 *
 *	jsoncheck < file.json
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const unsigned char	*p, *start, *end;

static int	value(int depth);

static void
fail(const char *what)
{
	fprintf(stderr, "jsoncheck: offset %ld: %s\n", (long)(p - start), what);
	exit(1);
}

static void
ws(void)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
}

static int
lit(const char *s)
{
	size_t	n = strlen(s);

	if ((size_t)(end - p) < n || memcmp(p, s, n) != 0)
		fail("bad literal");
	p += n;
	return 0;
}

static int
utf8(void)
{
	unsigned	c = *p, cp, min;
	int		len, i;

	if (c < 0xc2 || c > 0xf4)
		fail("invalid UTF-8");
	len = c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
	cp = c & (len == 2 ? 0x1f : len == 3 ? 0x0f : 0x07);
	min = len == 2 ? 0x80 : len == 3 ? 0x800 : 0x10000;
	if (end - p < len)
		fail("truncated UTF-8");
	for (i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			fail("invalid UTF-8");
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		fail("invalid UTF-8");
	p += len;
	return 0;
}

static int
string(void)
{
	int	i;

	p++;
	for (;;) {
		if (p >= end)
			fail("unterminated string");
		if (*p == '"') {
			p++;
			return 0;
		}
		if (*p < 0x20)
			fail("control character in string");
		if (*p == '\\') {
			p++;
			if (p >= end)
				fail("unterminated escape");
			if (strchr("\"\\/bfnrt", *p) != NULL && *p != '\0')
				p++;
			else if (*p == 'u') {
				p++;
				for (i = 0; i < 4; i++, p++) {
					if (p >= end || strchr("0123456789abcdefABCDEF",
					    *p) == NULL || *p == '\0')
						fail("bad \\u escape");
				}
			} else
				fail("bad escape");
		} else if (*p >= 0x80)
			utf8();
		else
			p++;
	}
}

static int
number(void)
{
	const unsigned char	*s = p;

	if (*p == '-')
		p++;
	if (p < end && *p == '0')
		p++;
	else if (p < end && *p >= '1' && *p <= '9')
		while (p < end && *p >= '0' && *p <= '9')
			p++;
	else
		fail("bad number");
	if (p < end && *p == '.') {
		p++;
		if (p >= end || *p < '0' || *p > '9')
			fail("bad fraction");
		while (p < end && *p >= '0' && *p <= '9')
			p++;
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		p++;
		if (p < end && (*p == '+' || *p == '-'))
			p++;
		if (p >= end || *p < '0' || *p > '9')
			fail("bad exponent");
		while (p < end && *p >= '0' && *p <= '9')
			p++;
	}
	return s == p;
}

static int
value(int depth)
{
	if (depth > 512)
		fail("nested too deep");
	ws();
	if (p >= end)
		fail("value expected");
	switch (*p) {
	case '{':
		p++;
		ws();
		if (p < end && *p == '}') {
			p++;
			return 0;
		}
		for (;;) {
			ws();
			if (p >= end || *p != '"')
				fail("key expected");
			string();
			ws();
			if (p >= end || *p != ':')
				fail("':' expected");
			p++;
			value(depth + 1);
			ws();
			if (p < end && *p == ',') {
				p++;
				continue;
			}
			if (p < end && *p == '}') {
				p++;
				return 0;
			}
			fail("',' or '}' expected");
		}
	case '[':
		p++;
		ws();
		if (p < end && *p == ']') {
			p++;
			return 0;
		}
		for (;;) {
			value(depth + 1);
			ws();
			if (p < end && *p == ',') {
				p++;
				continue;
			}
			if (p < end && *p == ']') {
				p++;
				return 0;
			}
			fail("',' or ']' expected");
		}
	case '"':
		return string();
	case 't':
		return lit("true");
	case 'f':
		return lit("false");
	case 'n':
		return lit("null");
	default:
		return number();
	}
}

int
main(void)
{
	static unsigned char	*buf;
	size_t			 cap = 1 << 20, len = 0, n;

	buf = malloc(cap);
	while (buf != NULL && (n = fread(buf + len, 1, cap - len, stdin)) > 0) {
		len += n;
		if (len == cap) {
			cap *= 2;
			buf = realloc(buf, cap);
		}
	}
	if (buf == NULL) {
		fprintf(stderr, "jsoncheck: out of memory\n");
		return 2;
	}
	start = p = buf;
	end = buf + len;
	value(0);
	ws();
	if (p != end)
		fail("trailing data");
	free(buf);
	return 0;
}
