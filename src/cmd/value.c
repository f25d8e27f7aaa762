/*
 * value.c - text to values for the command language.
 *
 * Everything is checked before anything is built: an integer must fit
 * its type exactly (no wrapping, no silent truncation of 300 into a u8),
 * a bool is one of four spellings, a float must be all float syntax and
 * finite values must fit an f32 when the type is f32 (rounding is fine,
 * overflow to infinity is not: write inf to mean it).
 *
 * Arrays come as JSON, so ggufed's own `get --json` output can be fed
 * back: JSON strings with \udcXX lone surrogates are the raw bytes that
 * output escaped, and the strings "nan", "inf", "-inf" are floats. A file
 * of lines (@PATH) gives one element per line, the last newline ending
 * the last element rather than starting an empty one.
 *
 * A value of one type becomes one of another only when nothing is lost
 * (value_convert): 300 does not become a u8, 1.5 an integer, 0.1 (f64)
 * an f32, nor "abc" a number; a number becomes a string as it is printed.
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gguf.h"
#include "doc.h"
#include "suggest.h"
#include "value.h"
#include "xmalloc.h"

#define MAX_FILE	(1ull << 28)	/* @PATH: larger files are refused */

static int msgf(char *, size_t, const char *, ...)
    __attribute__((format(printf, 3, 4)));

static int
msgf(char *msg, size_t len, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(msg, len, fmt, ap);
	va_end(ap);
	return -1;
}
#ifdef __clang_analyzer__
#define msgf(...)	(msgf(__VA_ARGS__), -1)	/* as in gguf.h */
#endif

int
value_is_blank(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

void
value_skip_blanks(const char *s, size_t n, size_t *pos)
{
	while (*pos < n && value_is_blank((unsigned char)s[*pos]))
		(*pos)++;
}

static void
trim(const char **s, size_t *n)
{
	while (*n > 0 && value_is_blank((unsigned char)**s)) {
		(*s)++;
		(*n)--;
	}
	while (*n > 0 && value_is_blank((unsigned char)(*s)[*n - 1]))
		(*n)--;
}

/* ---------------------------------------------------------------- strings */

static void
put_utf8(char *o, size_t *k, unsigned cp)
{
	if (cp < 0x80)
		o[(*k)++] = (char)cp;
	else if (cp < 0x800) {
		o[(*k)++] = (char)(0xc0 | cp >> 6);
		o[(*k)++] = (char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		o[(*k)++] = (char)(0xe0 | cp >> 12);
		o[(*k)++] = (char)(0x80 | ((cp >> 6) & 0x3f));
		o[(*k)++] = (char)(0x80 | (cp & 0x3f));
	} else {
		o[(*k)++] = (char)(0xf0 | cp >> 18);
		o[(*k)++] = (char)(0x80 | ((cp >> 12) & 0x3f));
		o[(*k)++] = (char)(0x80 | ((cp >> 6) & 0x3f));
		o[(*k)++] = (char)(0x80 | (cp & 0x3f));
	}
}

/* Reads exactly ndig hex digits at s (within n); -1 if not there. */
static long
hexn(const char *s, size_t n, size_t ndig)
{
	long	v = 0;
	size_t	i;
	int	h;

	if (n < ndig)
		return -1;
	for (i = 0; i < ndig; i++) {
		if ((h = gguf_hexval((unsigned char)s[i])) < 0)
			return -1;
		v = v * 16 + h;
	}
	return v;
}

/*
 * Decodes a quoted string: C escapes, or JSON escapes when json (where
 * \udcXX lone surrogates are raw bytes and surrogate pairs combine).
 */
static int
unquote(const char *s, size_t n, int json, size_t *used, char **out,
    size_t *outlen, char *msg, size_t len)
{
	char	*o;
	size_t	 i = 1, k = 0;
	long	 cp, lo;
	int	 c;

	o = xmalloc(n + 1);
	for (;;) {
		if (i >= n) {
			free(o);
			return msgf(msg, len, "unterminated string");
		}
		c = (unsigned char)s[i];
		if (c == '"')
			break;
		if (c != '\\') {
			o[k++] = (char)c;
			i++;
			continue;
		}
		if (++i >= n) {
			free(o);
			return msgf(msg, len, "unterminated string");
		}
		c = (unsigned char)s[i++];
		switch (c) {
		case 'n': o[k++] = '\n'; break;
		case 't': o[k++] = '\t'; break;
		case 'r': o[k++] = '\r'; break;
		case 'b': o[k++] = '\b'; break;
		case 'f': o[k++] = '\f'; break;
		case 'v': o[k++] = '\v'; break;
		case 'a': o[k++] = '\a'; break;
		case 'e': o[k++] = 0x1b; break;
		case '\\': case '"': case '\'': case '/': case '?':
			o[k++] = (char)c;
			break;
		case 'x':
			if ((cp = hexn(s + i, n - i, 2)) < 0)
				goto bad;
			o[k++] = (char)cp;
			i += 2;
			break;
		case 'u':
			if (!json && i < n && s[i] == '{') {
				size_t	j = i + 1;

				cp = 0;
				while (j < n && gguf_hexval((unsigned char)s[j]) >= 0
				    && cp <= 0x10ffff)
					cp = cp * 16 + gguf_hexval((unsigned char)s[j++]);
				if (j == i + 1 || j >= n || s[j] != '}' ||
				    cp > 0x10ffff || (cp >= 0xd800 &&
				    cp <= 0xdfff))
					goto bad;
				put_utf8(o, &k, (unsigned)cp);
				i = j + 1;
				break;
			}
			if ((cp = hexn(s + i, n - i, 4)) < 0)
				goto bad;
			i += 4;
			if (cp >= 0xdc80 && cp <= 0xdcff && json) {
				o[k++] = (char)(cp & 0xff);	/* raw byte */
				break;
			}
			if (cp >= 0xd800 && cp <= 0xdbff && i + 6 <= n &&
			    s[i] == '\\' && s[i + 1] == 'u' &&
			    (lo = hexn(s + i + 2, n - i - 2, 4)) >= 0xdc00 &&
			    lo <= 0xdfff) {
				cp = 0x10000 + ((cp - 0xd800) << 10) +
				    (lo - 0xdc00);
				i += 6;
			} else if (cp >= 0xd800 && cp <= 0xdfff)
				goto bad;
			put_utf8(o, &k, (unsigned)cp);
			break;
		case 'U':
			if (json || (cp = hexn(s + i, n - i, 8)) < 0 ||
			    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
				goto bad;
			put_utf8(o, &k, (unsigned)cp);
			i += 8;
			break;
		default:
			if (!json && c >= '0' && c <= '7') {
				cp = c - '0';
				if (i < n && s[i] >= '0' && s[i] <= '7')
					cp = cp * 8 + (s[i++] - '0');
				if (i < n && s[i] >= '0' && s[i] <= '7' &&
				    cp < 040)
					cp = cp * 8 + (s[i++] - '0');
				o[k++] = (char)cp;
				break;
			}
			goto bad;
		}
	}
	o[k] = '\0';
	*used = i + 1;
	*out = o;
	*outlen = k;
	return 0;
bad:
	free(o);
	return msgf(msg, len, "bad escape at character %zu of the string",
	    i);
}

int
value_unquote(const char *s, size_t n, size_t *used, char **out,
    size_t *outlen, char *msg, size_t len)
{
	return unquote(s, n, 0, used, out, outlen, msg, len);
}

static const char	*stdin_taken;	/* why @- may not read stdin */
static int		 stdin_read;	/* an @- has read it to its end */

void
value_stdin_taken(const char *why)
{
	stdin_taken = why;
}

/* Reads a whole file; "-" is standard input, which is read once. */
static int
read_file(const char *path, char **out, size_t *outlen, char *msg, size_t len)
{
	struct gguf_err	 err;
	struct stat	 st;
	FILE		*fp;
	char		*buf = NULL, sz[32];
	size_t		 n = 0, cap = 0, r;
	int		 in = strcmp(path, "-") == 0;

	if (in && stdin_taken != NULL)
		return msgf(msg, len, "@- cannot read standard input: %s; "
		    "give a file (@FILE)", stdin_taken);
	if (in && stdin_read)
		return msgf(msg, len, "@-: standard input was read to its end "
		    "by an earlier @-");
	if (in)
		fp = stdin;
	else if ((fp = gguf_open_text(path, &err)) == NULL)
		return msgf(msg, len, "cannot read %s: %s", path, err.msg);
	/* A file too large is refused before it is read. */
	if (!in && fstat(fileno(fp), &st) == 0 && S_ISREG(st.st_mode) &&
	    (uint64_t)st.st_size > MAX_FILE) {
		fclose(fp);
		return msgf(msg, len, "%s: too large (%s; a value takes at most "
		    "256 MiB)", path, gguf_fmt_size((uint64_t)st.st_size, sz,
		    sizeof sz));
	}
	for (;;) {
		if (cap - n < 65536) {
			cap = cap == 0 ? 65536 : cap * 2;
			buf = realloc(buf, cap);
			if (buf == NULL) {
				if (!in)
					fclose(fp);
				return msgf(msg, len, "%s: out of memory",
				    in ? "standard input" : path);
			}
		}
		r = fread(buf + n, 1, cap - n, fp);
		n += r;
		if (n > MAX_FILE) {
			if (!in)
				fclose(fp);
			free(buf);
			return msgf(msg, len, "%s: too large (a value takes at "
			    "most 256 MiB)", in ? "standard input" : path);
		}
		if (r == 0)
			break;
	}
	if (ferror(fp)) {
		if (!in)
			fclose(fp);
		free(buf);
		return msgf(msg, len, "cannot read %s: %s", in ?
		    "standard input" : path, errno != 0 ? strerror(errno) :
		    "read error");
	}
	if (in)
		stdin_read = 1;
	else
		fclose(fp);
	*out = buf;
	*outlen = n;
	return 0;
}

int
value_read_file(const char *path, char **out, size_t *outlen, char *msg,
    size_t len)
{
	return read_file(path, out, outlen, msg, len);
}

/* A NUL-terminated copy of a path given after '@'. */
static char *
path_of(const char *s, size_t n)
{
	char	*p = malloc(n + 1);

	if (p != NULL) {
		memcpy(p, s, n);
		p[n] = '\0';
	}
	return p;
}

/* ---------------------------------------------------------------- scalars */

static int
parse_uint(const char *s, size_t n, uint64_t *v, char *msg, size_t len)
{
	uint64_t	acc = 0;
	unsigned	base = 10;
	size_t		i = 0;
	int		d;

	if (n >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		i = 2;
	} else if (n >= 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
		base = 2;
		i = 2;
	} else if (n >= 2 && s[0] == '0')
		return msgf(msg, len, "a number with a leading zero is "
		    "ambiguous (C reads it as octal): write it without");
	if (i == n)
		return msgf(msg, len, "not a number");
	for (; i < n; i++) {
		d = gguf_hexval((unsigned char)s[i]);
		if (d < 0 || (unsigned)d >= base)
			return msgf(msg, len, "not a number");
		if (acc > (UINT64_MAX - (unsigned)d) / base)
			return msgf(msg, len, "number too large");
		acc = acc * base + (unsigned)d;
	}
	*v = acc;
	return 0;
}

/* Whether the n bytes at s are a real number strtod reads whole. */
static int
is_real(const char *s, size_t n)
{
	char	buf[128], *end;

	if (n == 0 || n >= sizeof buf)
		return 0;
	memcpy(buf, s, n);
	buf[n] = '\0';
	(void)strtod(buf, &end);
	return *end == '\0' && end != buf;
}

static int
parse_int(const char *s, size_t n, uint32_t type, uint64_t *bits, char *msg,
    size_t len)
{
	static const struct {
		uint64_t	umax;
		int64_t		smin;
		int		sign;
	} lim[] = {
		[GGUF_VT_U8] = { UINT8_MAX, 0, 0 },
		[GGUF_VT_I8] = { INT8_MAX, INT8_MIN, 1 },
		[GGUF_VT_U16] = { UINT16_MAX, 0, 0 },
		[GGUF_VT_I16] = { INT16_MAX, INT16_MIN, 1 },
		[GGUF_VT_U32] = { UINT32_MAX, 0, 0 },
		[GGUF_VT_I32] = { INT32_MAX, INT32_MIN, 1 },
		[GGUF_VT_U64] = { UINT64_MAX, 0, 0 },
		[GGUF_VT_I64] = { INT64_MAX, INT64_MIN, 1 },
	};
	const char	*s0 = s;
	size_t		 n0 = n;
	uint64_t	 mag = 0;
	int		 neg = 0;
	char		 t[32];

	if (n > 0 && (s[0] == '-' || s[0] == '+')) {
		neg = s[0] == '-';
		s++;
		n--;
	}
	gguf_vtype_text(type, 0, t, sizeof t);
	if (parse_uint(s, n, &mag, msg, len) != 0) {
		if (is_real(s0, n0))	/* 1.5, 1e3: a number, not an integer's */
			msgf(msg, len, "%.*s: %s takes an integer, in digits "
			    "(as 12, 0x1f or 0b101)", (int)(n0 < 64 ? n0 :
			    64), s0, t);
		return -1;
	}
	if (!neg) {
		if (mag > lim[type].umax)
			return msgf(msg, len, "%llu is out of range for %s "
			    "(at most %llu)", (unsigned long long)mag, t,
			    (unsigned long long)lim[type].umax);
		*bits = mag;
		return 0;
	}
	if (mag == 0) {
		*bits = 0;
		return 0;
	}
	if (!lim[type].sign)
		return msgf(msg, len, "%s cannot be negative", t);
	if (mag > (uint64_t)INT64_MAX + 1 ||
	    mag > (uint64_t)(-(lim[type].smin + 1)) + 1)
		return msgf(msg, len, "-%llu is out of range for %s (at least "
		    "%lld)", (unsigned long long)mag, t,
		    (long long)lim[type].smin);
	*bits = (uint64_t)0 - mag;
	return 0;
}

/* Whether a number's text is a zero ("0", "-0.0", "0e5"): no digit but 0. */
static int
is_zero_text(const char *s)
{
	for (; *s != '\0' && *s != 'e' && *s != 'E'; s++)
		if (*s >= '1' && *s <= '9')
			return 0;
	return 1;
}

static int
parse_float(const char *s, size_t n, uint32_t type, uint64_t *bits,
    char *msg, size_t len)
{
	char		buf[128], *end;
	double		d;
	float		f;
	uint32_t	b32;

	if (n == 0 || n >= sizeof buf)
		return msgf(msg, len, "not a number");
	memcpy(buf, s, n);
	buf[n] = '\0';
	errno = 0;
	d = strtod(buf, &end);
	if (*end != '\0' || end == buf)
		return msgf(msg, len, "not a number: \"%s\"", buf);
	if (errno == ERANGE && isinf(d))
		return msgf(msg, len, "%s is out of range for %s (at most %g)",
		    buf, type == GGUF_VT_F64 ? "f64" : "f32", type ==
		    GGUF_VT_F64 ? DBL_MAX : (double)FLT_MAX);
	/* A number too small for the type would be saved as 0. */
	if (errno == ERANGE && fpclassify(d) == FP_ZERO && !is_zero_text(buf))
		return msgf(msg, len, "%s is too small for %s: it would be 0",
		    buf, type == GGUF_VT_F64 ? "f64" : "f32");
	if (type == GGUF_VT_F64) {
		memcpy(bits, &d, 8);
		return 0;
	}
	f = (float)d;
	if (isinf(f) && !isinf(d))
		return msgf(msg, len, "%s is out of range for f32 (at most "
		    "%g)", buf, (double)FLT_MAX);
	if (fpclassify(f) == FP_ZERO && fpclassify(d) != FP_ZERO)
		return msgf(msg, len, "%s is too small for f32: it would be 0 "
		    "(the least is %g)", buf, 1.401298464324817e-45);
	memcpy(&b32, &f, 4);
	*bits = b32;
	return 0;
}

static int
parse_bool(const char *s, size_t n, uint64_t *bits, char *msg, size_t len)
{
	if ((n == 4 && strncasecmp(s, "true", 4) == 0) ||
	    (n == 1 && s[0] == '1')) {
		*bits = 1;
		return 0;
	}
	if ((n == 5 && strncasecmp(s, "false", 5) == 0) ||
	    (n == 1 && s[0] == '0')) {
		*bits = 0;
		return 0;
	}
	return msgf(msg, len, "a bool is true, false, 1 or 0");
}

/* A fixed-size scalar of type from text (already trimmed). */
static int
parse_bits(const char *s, size_t n, uint32_t type, uint64_t *bits, char *msg,
    size_t len)
{
	switch (type) {
	case GGUF_VT_BOOL:
		return parse_bool(s, n, bits, msg, len);
	case GGUF_VT_F32:
	case GGUF_VT_F64:
		return parse_float(s, n, type, bits, msg, len);
	default:
		return parse_int(s, n, type, bits, msg, len);
	}
}

/*
 * Appends one scalar of the builder's item type given in scalar syntax.
 * verbatim: the text as it is, no @ (a line of an @FILE array): strings
 * are not trimmed nor unquoted.
 */
static int
add_scalar(struct gguf_vbuild *vb, uint32_t type, const char *s, size_t n,
    int verbatim, char *msg, size_t len)
{
	uint64_t	 bits;
	size_t		 used, olen;
	char		*o, *path, em[256];
	int		 rc;

	if (type == GGUF_VT_STR && verbatim) {
		gguf_vb_str(vb, s, n);
		return 0;
	}
	trim(&s, &n);
	if (!verbatim && n >= 2 && s[0] == '@' && s[1] == '@') {
		s++;			/* @@: a literal @ */
		n--;
	} else if (!verbatim && n > 0 && s[0] == '@') {
		if ((path = path_of(s + 1, n - 1)) == NULL)
			return msgf(msg, len, "out of memory");
		if (read_file(path, &o, &olen, msg, len) != 0) {
			free(path);
			return -1;
		}
		if (type == GGUF_VT_STR) {
			gguf_vb_str(vb, o, olen);	/* its bytes, exactly */
			rc = 0;
		} else if ((rc = add_scalar(vb, type, o, olen, 1, em,
		    sizeof em)) != 0)
			msgf(msg, len, "%s: %s", strcmp(path, "-") == 0 ?
			    "standard input" : path, em);
		free(path);
		free(o);
		return rc;
	} else if (type == GGUF_VT_STR && n > 0 && s[0] == '"') {
		if (unquote(s, n, 0, &used, &o, &olen, msg, len) != 0)
			return -1;
		if (used != n) {
			free(o);
			return msgf(msg, len, "text after the closing quote");
		}
		gguf_vb_str(vb, o, olen);
		free(o);
		return 0;
	}
	if (type == GGUF_VT_STR) {
		gguf_vb_str(vb, s, n);
		return 0;
	}
	if (parse_bits(s, n, type, &bits, msg, len) != 0)
		return -1;
	gguf_vb_bits(vb, bits);
	return 0;
}

/* ------------------------------------------------------------------- JSON */

/* Appends the elements of a JSON array at s[*i] == '['. */
static int
add_json(struct gguf_vbuild *vb, uint32_t atype, const char *s, size_t n,
    size_t *i, char *msg, size_t len)
{
	size_t	 used = 0, olen = 0, st;
	uint64_t bits = 0;
	char	*o = NULL;
	char	 em[256];

	(*i)++;
	value_skip_blanks(s, n, i);
	if (*i < n && s[*i] == ']') {
		(*i)++;
		return 0;
	}
	for (;;) {
		value_skip_blanks(s, n, i);
		if (*i >= n)
			return msgf(msg, len, "unterminated array");
		if (s[*i] == '"') {
			if (unquote(s + *i, n - *i, 1, &used, &o, &olen, em,
			    sizeof em) != 0)
				return msgf(msg, len, "element %llu: %s",
				    (unsigned long long)vb->count, em);
			*i += used;
			if (atype == GGUF_VT_STR)
				gguf_vb_str(vb, o, olen);
			else if (atype == GGUF_VT_F32 || atype == GGUF_VT_F64) {
				if (parse_float(o, olen, atype, &bits, em,
				    sizeof em) != 0) {
					free(o);
					return msgf(msg, len, "element %llu: "
					    "%s", (unsigned long long)vb->count,
					    em);
				}
				gguf_vb_bits(vb, bits);
			} else {
				free(o);
				return msgf(msg, len, "element %llu: a string "
				    "where a %s is expected",
				    (unsigned long long)vb->count,
				    gguf_vtype_name(atype));
			}
			free(o);
			o = NULL;
		} else {
			if (atype == GGUF_VT_STR)
				return msgf(msg, len, "element %llu: strings "
				    "in an array are \"quoted\"",
				    (unsigned long long)vb->count);
			st = *i;
			while (*i < n && s[*i] != ',' && s[*i] != ']' &&
			    !value_is_blank((unsigned char)s[*i]))
				(*i)++;
			if (parse_bits(s + st, *i - st, atype, &bits, em,
			    sizeof em) != 0)
				return msgf(msg, len, "element %llu: %s",
				    (unsigned long long)vb->count, em);
			gguf_vb_bits(vb, bits);
		}
		value_skip_blanks(s, n, i);
		if (*i < n && s[*i] == ',') {
			(*i)++;
			continue;
		}
		if (*i < n && s[*i] == ']') {
			(*i)++;
			return 0;
		}
		return msgf(msg, len, "expected , or ] after element %llu",
		    (unsigned long long)vb->count - 1);
	}
}

/* Appends one element per line of the file. */
static int
add_lines(struct gguf_vbuild *vb, uint32_t atype, const char *path,
    char *msg, size_t len)
{
	char	*buf, em[256];
	size_t	 n, i = 0, j, line = 0;

	if (read_file(path, &buf, &n, msg, len) != 0)
		return -1;
	while (i < n) {
		line++;
		for (j = i; j < n && buf[j] != '\n'; j++)
			;
		if (add_scalar(vb, atype, buf + i, j - i, 1, em,
		    sizeof em) != 0) {
			free(buf);
			return msgf(msg, len, "%s:%zu: %s", strcmp(path, "-") ==
			    0 ? "standard input" : path, line, em);
		}
		i = j + 1;
	}
	free(buf);
	return 0;
}

/* ------------------------------------------------------------------ entry */

static struct gguf_value *
finish(struct gguf_vbuild *vb, char *msg, size_t len)
{
	struct gguf_value	*v = gguf_vb_finish(vb);

	if (v == NULL)
		msgf(msg, len, "internal error building the value");
	return v;
}

static struct gguf_value *
parse_array(const char *s, size_t n, uint32_t atype, int one_ok, char *msg,
    size_t len)
{
	struct gguf_vbuild	 vb;
	size_t			 i = 0;
	char			*path;

	gguf_vb_init(&vb, GGUF_VT_ARR, atype);
	trim(&s, &n);
	if (n > 0 && s[0] == '[') {
		if (add_json(&vb, atype, s, n, &i, msg, len) != 0)
			goto fail;
		value_skip_blanks(s, n, &i);
		if (i != n) {
			msgf(msg, len, "text after the array");
			goto fail;
		}
		return finish(&vb, msg, len);
	}
	if (!one_ok && n > 0 && s[0] == '@' && (n == 1 || s[1] != '@')) {
		if ((path = path_of(s + 1, n - 1)) == NULL) {
			msgf(msg, len, "out of memory");
			goto fail;
		}
		if (add_lines(&vb, atype, path, msg, len) != 0) {
			free(path);
			goto fail;
		}
		free(path);
		return finish(&vb, msg, len);
	}
	if (!one_ok) {
		msgf(msg, len, "an array is written [a, b, ...] or @FILE (one "
		    "element per line)");
		goto fail;
	}
	if (add_scalar(&vb, atype, s, n, 0, msg, len) != 0)
		goto fail;
	return finish(&vb, msg, len);
fail:
	gguf_vb_free(&vb);
	return NULL;
}

struct gguf_value *
value_parse(const char *s, size_t n, uint32_t type, uint32_t atype, char *msg,
    size_t len)
{
	struct gguf_vbuild	vb;

	if (type == GGUF_VT_ARR)
		return parse_array(s, n, atype, 0, msg, len);
	gguf_vb_init(&vb, type, 0);
	if (add_scalar(&vb, type, s, n, 0, msg, len) != 0) {
		gguf_vb_free(&vb);
		return NULL;
	}
	return finish(&vb, msg, len);
}

struct gguf_value *
value_parse_elems(const char *s, size_t n, uint32_t atype, char *msg,
    size_t len)
{
	return parse_array(s, n, atype, 1, msg, len);
}

/* ------------------------------------------------------------ conversions */

static int
int_range(uint32_t t, int64_t *lo, uint64_t *hi)
{
	switch (t) {
	case GGUF_VT_U8:	*lo = 0; *hi = UINT8_MAX; return 1;
	case GGUF_VT_I8:	*lo = INT8_MIN; *hi = INT8_MAX; return 1;
	case GGUF_VT_U16:	*lo = 0; *hi = UINT16_MAX; return 1;
	case GGUF_VT_I16:	*lo = INT16_MIN; *hi = INT16_MAX; return 1;
	case GGUF_VT_U32:	*lo = 0; *hi = UINT32_MAX; return 1;
	case GGUF_VT_I32:	*lo = INT32_MIN; *hi = INT32_MAX; return 1;
	case GGUF_VT_U64:	*lo = 0; *hi = UINT64_MAX; return 1;
	case GGUF_VT_I64:	*lo = INT64_MIN; *hi = INT64_MAX; return 1;
	}
	return 0;
}

/* Equal as numbers, without -Wfloat-equal's objection. */
static int
same(double x, double y)
{
	return x <= y && x >= y;
}

/* A string becomes a number only if it is that number as printed. */
static int
conv_str(const struct gguf_val *v, uint32_t to, struct gguf_vbuild *vb,
    char *msg, size_t len)
{
	struct gguf_value	*pv;
	struct gguf_str		 s;
	char			 text[64], *t;

	gguf_val_str(v, &s);
	if (to == GGUF_VT_STR) {
		gguf_vb_str(vb, s.p, s.n);
		return 0;
	}
	t = xmalloc((size_t)s.n + 1);
	memcpy(t, s.p, (size_t)s.n);
	t[s.n] = '\0';
	pv = value_parse(t, (size_t)s.n, to, 0, msg, len);
	if (pv == NULL) {
		free(t);
		return -1;
	}
	gguf_val_scalar_text(gguf_value_val(pv), text, sizeof text);
	if (strcmp(text, t) != 0) {
		msgf(msg, len, "\"%s\" would be read as %s", t, text);
		gguf_value_unref(pv);
		free(t);
		return -1;
	}
	free(t);
	gguf_vb_bits(vb, gguf_val_bits(gguf_value_val(pv)));
	gguf_value_unref(pv);
	return 0;
}

/*
 * One scalar of v into vb as type to, or -1 with why in msg. The value
 * is read exactly: as a signed or unsigned 64-bit integer, or a double
 * (every f32 is one).
 */
static int
conv_one(const struct gguf_val *v, uint32_t to, struct gguf_vbuild *vb,
    char *msg, size_t len)
{
	char		 text[64];
	int64_t		 lo, i = 0;
	uint64_t	 hi, u = 0, b64;
	uint32_t	 b32;
	double		 d = 0;
	float		 f;
	int		 neg = 0, isint = 0;

	if (v->type == GGUF_VT_STR)
		return conv_str(v, to, vb, msg, len);
	gguf_val_scalar_text(v, text, sizeof text);
	if (to == GGUF_VT_STR) {
		gguf_vb_str(vb, text, strlen(text));
		return 0;
	}
	if (v->type == GGUF_VT_F32 || v->type == GGUF_VT_F64)
		gguf_val_f64(v, &d);
	else if (gguf_val_u64(v, &u) == 0)
		isint = 1;
	else if (gguf_val_i64(v, &i) == 0)
		isint = neg = 1;
	else
		return msgf(msg, len, "the value cannot be read");
	if (to == GGUF_VT_BOOL) {
		if ((isint && !neg && u <= 1) || (!isint && (same(d, 0) ||
		    same(d, 1)))) {
			gguf_vb_bits(vb, isint ? u : (uint64_t)d);
			return 0;
		}
		return msgf(msg, len, "%s is not 0 or 1", text);
	}
	if (int_range(to, &lo, &hi)) {
		if (!isint) {
			if (isnan(d) || !same(d, floor(d)) ||
			    d < -9.2233720368547758e18 ||
			    d >= 1.8446744073709552e19)
				return msgf(msg, len, "%s is not a whole number "
				    "in range", text);
			if (d < 0) {
				neg = 1;
				i = (int64_t)d;
			} else
				u = (uint64_t)d;
		}
		if ((neg && i < lo) || (!neg && u > hi))
			return msgf(msg, len, "%s does not fit in %s", text,
			    gguf_vtype_name(to));
		gguf_vb_bits(vb, neg ? (uint64_t)i : u);
		return 0;
	}
	if (isint)
		d = neg ? (double)i : (double)u;
	if (isint && (neg ? (d < -9.2233720368547758e18 || (int64_t)d != i) :
	    (d >= 1.8446744073709552e19 || (uint64_t)d != u)))
		return msgf(msg, len, "%s is not exact as a float", text);
	if (to == GGUF_VT_F32) {
		f = (float)d;
		if (!same((double)f, d) && !isnan(d))
			return msgf(msg, len, "%s is not exact as f32", text);
		memcpy(&b32, &f, sizeof b32);
		gguf_vb_bits(vb, b32);
		return 0;
	}
	memcpy(&b64, &d, sizeof b64);
	gguf_vb_bits(vb, b64);
	return 0;
}

struct gguf_value *
value_convert(struct gguf_val *v, uint32_t to, uint32_t ato, char *msg,
    size_t len)
{
	struct gguf_vbuild	 vb;
	struct gguf_val		 e;
	struct gguf_value	*r;
	struct gguf_err		 err;
	uint64_t		 k;
	char			 em[256];

	if ((v->type == GGUF_VT_ARR) != (to == GGUF_VT_ARR)) {
		msgf(msg, len, "an array and a scalar do not convert");
		return NULL;
	}
	if (to == GGUF_VT_ARR && (v->atype == GGUF_VT_ARR ||
	    ato == GGUF_VT_ARR)) {
		msgf(msg, len, "nested arrays do not convert");
		return NULL;
	}
	gguf_vb_init(&vb, to, ato);
	if (to != GGUF_VT_ARR) {
		if (conv_one(v, to, &vb, msg, len) != 0) {
			gguf_vb_free(&vb);
			return NULL;
		}
	} else {
		for (k = 0; k < v->count; k++) {
			if (gguf_arr_get(v, k, &e, &err) != 0) {
				msgf(msg, len, "element %llu cannot be read",
				    (unsigned long long)k);
				gguf_vb_free(&vb);
				return NULL;
			}
			if (conv_one(&e, ato, &vb, em, sizeof em) != 0) {
				msgf(msg, len, "element %llu: %s",
				    (unsigned long long)k, em);
				gguf_vb_free(&vb);
				return NULL;
			}
		}
	}
	if ((r = gguf_vb_finish(&vb)) == NULL)
		msgf(msg, len, "the conversion failed");
	return r;
}

/* ------------------------------------------------------------------ types */

int
value_parse_type(const char *s, size_t n, uint32_t *type, uint32_t *atype,
    char *msg, size_t len)
{
	struct gguf_suggest	 sg;
	const char *const	*t;
	const char		*best;
	char			 name[64];
	size_t			 i, o = 0;

	if (gguf_vtype_parse_full(s, n, type, atype) == 0)
		return 0;
	for (i = 0; i < n && o + 5 < sizeof name; i++) {
		if ((unsigned char)s[i] >= 0x20 && (unsigned char)s[i] < 0x7f)
			name[o++] = s[i];
		else
			o += (size_t)snprintf(name + o, sizeof name - o,
			    "\\x%02x", (unsigned char)s[i]);
	}
	name[o] = '\0';
	gguf_suggest_init(&sg, s, n);
	for (t = gguf_vtype_all(); *t != NULL; t++)
		gguf_suggest_add(&sg, *t, strlen(*t));
	if ((best = gguf_suggest_best(&sg, NULL)) != NULL)
		return msgf(msg, len, "unknown type \"%s\" (did you mean "
		    "\"%s\"?)", name, best);
	return msgf(msg, len, "unknown type \"%s\" (the types: u8 i8 u16 i16 "
	    "u32 i32 u64 i64 f32 f64 bool str arr[T])", name);
}
