/*
 * text.c - the rules for turning file bytes into text, shared by every
 * front end: UTF-8 decoding that refuses overlongs, surrogates and values
 * past U+10FFFF; the code points that must never reach a terminal even
 * when valid (C1 controls, bidirectional overrides and isolates, line and
 * paragraph separators); and the printable-ASCII rendering of names used
 * in the core's own messages; how values are written as text, in the
 * syntax the command language reads back (cmd/value.h); and how numbers
 * of elements and bytes are written for people (1,234,567 and 1.2 MiB).
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "gguf.h"
#include "internal.h"

size_t
gguf_utf8_seq(const unsigned char *p, size_t n, unsigned *cp)
{
	unsigned	c, min;
	size_t		len, i;

	if (n == 0)
		return 0;
	c = p[0];
	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2;
		c &= 0x1f;
		min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		c &= 0x0f;
		min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		c &= 0x07;
		min = 0x10000;
	} else
		return 0;
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (p[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

int
gguf_cp_unsafe(unsigned cp)
{
	return cp < 0x20 || cp == 0x7f ||
	    (cp >= 0x80 && cp <= 0x9f) ||		/* C1 controls */
	    (cp >= 0x202a && cp <= 0x202e) ||		/* bidi embeddings */
	    (cp >= 0x2066 && cp <= 0x2069) ||		/* bidi isolates */
	    cp == 0x200e || cp == 0x200f || cp == 0x061c ||	/* marks */
	    cp == 0x2028 || cp == 0x2029;		/* line separators */
}

const char *
gguf_pname(const char *p, size_t n, char *buf, size_t len)
{
	static const char	 hex[] = "0123456789abcdef";
	size_t			 i, o = 0;
	unsigned char		 ch;

	for (i = 0; i < n && o + 8 < len; i++) {
		ch = (unsigned char)p[i];
		if (i == 80) {
			memcpy(buf + o, "...", 3);
			o += 3;
			break;
		}
		if (ch == '\\' || ch == '"') {
			buf[o++] = '\\';
			buf[o++] = (char)ch;
		} else if (ch >= 0x20 && ch < 0x7f)
			buf[o++] = (char)ch;
		else {
			buf[o++] = '\\';
			buf[o++] = 'x';
			buf[o++] = hex[ch >> 4];
			buf[o++] = hex[ch & 15];
		}
	}
	buf[o] = '\0';
	return buf;
}

/* ---------------------------------------------------------- value text */

const char *
gguf_val_scalar_text(const struct gguf_val *v, char *buf, size_t len)
{
	uint64_t	u;
	int64_t		i;
	double		d;

	switch (v->type) {
	case GGUF_VT_BOOL:
		u = gguf_val_bits(v);
		if (u <= 1)
			snprintf(buf, len, "%s", u ? "true" : "false");
		else
			snprintf(buf, len, "%llu (invalid bool)",
			    (unsigned long long)u);
		break;
	case GGUF_VT_F32:
		gguf_val_f64(v, &d);
		snprintf(buf, len, "%.9g", d);
		break;
	case GGUF_VT_F64:
		gguf_val_f64(v, &d);
		snprintf(buf, len, "%.17g", d);
		break;
	case GGUF_VT_U64:
		gguf_val_u64(v, &u);
		snprintf(buf, len, "%llu", (unsigned long long)u);
		break;
	default:
		if (gguf_val_i64(v, &i) == 0)
			snprintf(buf, len, "%lld", (long long)i);
		else
			snprintf(buf, len, "?");
	}
	return buf;
}

int
gguf_hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Whether n bytes are valid UTF-8 throughout. */
static int
utf8_valid(const unsigned char *p, size_t n)
{
	size_t		i = 0, k;
	unsigned	cp;

	while (i < n) {
		if ((k = gguf_utf8_seq(p + i, n - i, &cp)) == 0)
			return 0;
		i += k;
	}
	return 1;
}

static char	*quote(const char *, size_t, int);

char *
gguf_str_quote(const char *p, size_t n)
{
	return quote(p, n, 0);
}

char *
gguf_str_cquote(const char *p, size_t n)
{
	return quote(p, n, 1);
}

static char *
quote(const char *p, size_t n, int always)
{
	static const char	 hex[] = "0123456789abcdef";
	const unsigned char	*u = (const unsigned char *)p;
	char			*o;
	size_t			 i, k = 0;
	int			 valid = utf8_valid(u, n), bare;

	bare = !always && n > 0 && valid && u[0] != '"' && u[0] != '@' &&
	    !isspace(u[0]) && !isspace(u[n - 1]);
	for (i = 0; bare && i < n; i++) {
		if (u[i] < 0x20 || u[i] == 0x7f)
			bare = 0;
	}
	if (bare) {
		o = xmalloc(n + 1);
		memcpy(o, p, n);
		o[n] = '\0';
		return o;
	}
	o = xmalloc(n * 4 + 3);
	o[k++] = '"';
	for (i = 0; i < n; i++) {
		switch (u[i]) {
		case '"':
		case '\\':
			o[k++] = '\\';
			o[k++] = (char)u[i];
			break;
		case '\n':
			o[k++] = '\\';
			o[k++] = 'n';
			break;
		case '\t':
			o[k++] = '\\';
			o[k++] = 't';
			break;
		case '\r':
			o[k++] = '\\';
			o[k++] = 'r';
			break;
		default:
			if (u[i] < 0x20 || u[i] == 0x7f ||
			    (u[i] >= 0x80 && !valid)) {
				o[k++] = '\\';
				o[k++] = 'x';
				o[k++] = hex[u[i] >> 4];
				o[k++] = hex[u[i] & 15];
			} else
				o[k++] = (char)u[i];
		}
	}
	o[k++] = '"';
	o[k] = '\0';
	return o;
}

char *
gguf_val_text(const struct gguf_val *v)
{
	struct gguf_str	s;
	char		buf[64];

	if (v->type == GGUF_VT_STR) {
		if (gguf_val_str(v, &s) != 0)
			return gguf_str_quote("", 0);
		return gguf_str_quote(s.p, (size_t)s.n);
	}
	gguf_val_scalar_text(v, buf, sizeof buf);
	return xstrdup(buf);
}

void
gguf_json_str(FILE *fp, const char *s, size_t n)
{
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 i = 0, len;
	unsigned		 cp;

	fputc('"', fp);
	while (i < n) {
		len = gguf_utf8_seq(p + i, n - i, &cp);
		if (len == 0) {
			fprintf(fp, "\\udc%02x", p[i]);
			i++;
			continue;
		}
		if (len > 1) {
			if (gguf_cp_unsafe(cp))
				fprintf(fp, "\\u%04x", cp);
			else
				fwrite(p + i, 1, len, fp);
			i += len;
			continue;
		}
		if (cp == '"' || cp == '\\')
			fprintf(fp, "\\%c", (int)cp);
		else if (cp == '\n')
			fputs("\\n", fp);
		else if (cp == '\t')
			fputs("\\t", fp);
		else if (cp < 0x20 || cp == 0x7f)
			fprintf(fp, "\\u%04x", cp);
		else
			fputc((int)cp, fp);
		i++;
	}
	fputc('"', fp);
}

/* ------------------------------------------------------------- numbers */

const char *
gguf_fmt_group(uint64_t v, char *buf, size_t len)
{
	char	tmp[32];
	size_t	n, i, o = 0;

	n = (size_t)snprintf(tmp, sizeof tmp, "%llu", (unsigned long long)v);
	for (i = 0; i < n && o + 2 < len; i++) {
		if (i > 0 && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = tmp[i];
	}
	buf[o] = '\0';
	return buf;
}

const char *
gguf_fmt_size(uint64_t v, char *buf, size_t len)
{
	static const char *const units[] = { "KiB", "MiB", "GiB", "TiB", "PiB" };
	double	d = (double)v / 1024;
	int	u = 0;

	if (v < 1024) {
		snprintf(buf, len, "%llu B", (unsigned long long)v);
		return buf;
	}
	while (d >= 1024 && u < 4) {
		d /= 1024;
		u++;
	}
	snprintf(buf, len, "%.1f %s", d, units[u]);
	return buf;
}

const char *
gguf_fmt_bytes(uint64_t v, char *buf, size_t len)
{
	char	g[32], h[32];

	snprintf(buf, len, "%s (%s)", gguf_fmt_group(v, g, sizeof g),
	    gguf_fmt_size(v, h, sizeof h));
	return buf;
}

const char *
gguf_wlevel_name(int level)
{
	switch (level) {
	case GGUF_W_NOTE:
		return "note";
	case GGUF_W_WARN:
		return "warning";
	default:
		return "error";
	}
}

const char *
gguf_wlevel_counts(const unsigned count[3], const char *none, char *buf,
    size_t len)
{
	static const char *const	 names[3][2] = {
		{ "note", "notes" }, { "warning", "warnings" },
		{ "error", "errors" }
	};
	size_t				 used = 0;
	int				 lv, n;

	buf[0] = '\0';
	for (lv = GGUF_W_ERROR; lv >= GGUF_W_NOTE; lv--) {
		if (count[lv] == 0)
			continue;
		n = snprintf(buf + used, len - used, "%s%u %s", used > 0 ?
		    ", " : "", count[lv], names[lv][count[lv] != 1]);
		if (n < 0 || (size_t)n >= len - used)
			break;
		used += (size_t)n;
	}
	if (used == 0)
		snprintf(buf, len, "%s", none);
	return buf;
}
