/*
 * out.c - turning file bytes into text that is safe to print.
 *
 * Nothing read from a file reaches the terminal raw: a key or a token can
 * hold escape sequences (OSC 52 clipboard writes, OSC 8 links), control
 * characters or invalid UTF-8.
 *
 * Text output: valid, printable UTF-8 is kept; \n \r \t \\ \" get C
 * escapes; other C0 bytes, DEL, and every byte that is not part of valid
 * UTF-8 become \xHH; C1 controls and the bidirectional-override characters
 * (which can reorder what a terminal shows) become \u{XXXX}.
 *
 * JSON output: valid UTF-8 is kept, control characters are \u00XX, and a
 * byte that is not part of valid UTF-8 becomes the lone surrogate \udcHH
 * (the "surrogateescape" convention), so no information is lost and the
 * original bytes can be recovered.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static void
text(FILE *fp, const char *s, size_t n, int quotes)
{
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 i = 0, len;
	unsigned		 cp;

	while (i < n) {
		len = gguf_utf8_seq(p + i, n - i, &cp);
		if (len == 0) {
			fprintf(fp, "\\x%02x", p[i]);
			i++;
			continue;
		}
		if (len > 1) {
			if (gguf_cp_unsafe(cp))
				fprintf(fp, "\\u{%04x}", cp);
			else
				fwrite(p + i, 1, len, fp);
			i += len;
			continue;
		}
		switch (cp) {
		case '\n':
			fputs("\\n", fp);
			break;
		case '\r':
			fputs("\\r", fp);
			break;
		case '\t':
			fputs("\\t", fp);
			break;
		case '\\':
			fputs("\\\\", fp);
			break;
		case '"':
			fputs(quotes ? "\\\"" : "\"", fp);
			break;
		default:
			if (cp < 0x20 || cp == 0x7f)
				fprintf(fp, "\\x%02x", cp);
			else
				fputc((int)cp, fp);
		}
		i++;
	}
}

void
out_text(FILE *fp, const char *p, size_t n)
{
	text(fp, p, n, 0);
}

void
out_quoted(FILE *fp, const char *p, size_t n)
{
	fputc('"', fp);
	text(fp, p, n, 1);
	fputc('"', fp);
}

/* Where to cut n bytes at p: a character boundary at or before max. */
static size_t
cut_at(const char *p, size_t n, size_t max)
{
	size_t		i, len;
	unsigned	cp;

	for (i = 0; i < n; i += len) {
		len = gguf_utf8_seq((const unsigned char *)p + i, n - i, &cp);
		if (len == 0)
			len = 1;
		if (i + len > max)
			return i;
	}
	return n;
}

void
out_quoted_max(FILE *fp, const char *p, size_t n, size_t max)
{
	if (n <= max) {
		out_quoted(fp, p, n);
		return;
	}
	fputc('"', fp);
	text(fp, p, cut_at(p, n, max), 1);
	fprintf(fp, "\"... (%zu bytes)", n);
}

void
out_text_max(FILE *fp, const char *p, size_t n, size_t max)
{
	if (n <= max) {
		out_text(fp, p, n);
		return;
	}
	text(fp, p, cut_at(p, n, max), 0);
	fprintf(fp, "... (%zu bytes)", n);
}

void
out_json_str(FILE *fp, const char *s, size_t n)
{
	gguf_json_str(fp, s, n);
}

/* JSON has no NaN or infinity: those are written as strings. */
void
out_json_double(FILE *fp, double d)
{
	if (isnan(d))
		fputs("\"nan\"", fp);
	else if (isinf(d))
		fputs(d > 0 ? "\"inf\"" : "\"-inf\"", fp);
	else
		fprintf(fp, "%.17g", d);
}

void
out_json_float(FILE *fp, float f)
{
	if (isnan(f) || isinf(f))
		out_json_double(fp, f);
	else
		fprintf(fp, "%.9g", (double)f);
}

void
out_scalar(FILE *fp, const struct gguf_val *v, size_t max_str)
{
	struct gguf_str	s;
	char		buf[64];

	if (v->type == GGUF_VT_STR) {
		gguf_val_str(v, &s);
		out_quoted_max(fp, s.p, s.n, max_str);
	} else
		fputs(gguf_val_scalar_text(v, buf, sizeof buf), fp);
}

/* As out_scalar, but JSON has no NaN, infinity or invalid bool. */
void
out_scalar_json(FILE *fp, const struct gguf_val *v)
{
	struct gguf_str	s;
	double		d;
	char		buf[64];

	if (v->type == GGUF_VT_STR) {
		gguf_val_str(v, &s);
		out_json_str(fp, s.p, s.n);
	} else if (v->type == GGUF_VT_BOOL && gguf_val_bits(v) > 1)
		fprintf(fp, "%llu", (unsigned long long)gguf_val_bits(v));
	else if (v->type == GGUF_VT_F32) {
		gguf_val_f64(v, &d);
		out_json_float(fp, (float)d);
	} else if (v->type == GGUF_VT_F64) {
		gguf_val_f64(v, &d);
		out_json_double(fp, d);
	} else {
		gguf_val_scalar_text(v, buf, sizeof buf);
		fputs(strcmp(buf, "?") == 0 ? "null" : buf, fp);
	}
}

void
out_msg(FILE *fp, const char *msg)
{
	const unsigned char	*p = (const unsigned char *)msg;

	/* Core messages are printable ASCII already; anything else is escaped. */
	for (; *p != '\0'; p++) {
		if (*p >= 0x20 && *p < 0x7f)
			fputc(*p, fp);
		else
			fprintf(fp, "\\x%02x", *p);
	}
}

/* ---------------------------------------------------------- JSON writer */

void
json_init(struct json *j, FILE *fp)
{
	memset(j, 0, sizeof *j);
	j->fp = fp;
}

/* What goes before a value: its comma and line break, or nothing after a key. */
static void
json_sep(struct json *j)
{
	int	d = j->depth;

	if (j->key) {
		j->key = 0;
		return;
	}
	if (d == 0)
		return;
	if (j->any[d - 1])
		fputc(',', j->fp);
	if (j->flat[d - 1]) {
		if (j->any[d - 1])
			fputc(' ', j->fp);
	} else
		fprintf(j->fp, "\n%*s", 2 * d, "");
	j->any[d - 1] = 1;
}

static void
json_open(struct json *j, int c, int flat)
{
	json_sep(j);
	if (j->depth >= JSON_MAXDEPTH)
		abort();	/* the callers nest a few levels only */
	fputc(c, j->fp);
	j->closer[j->depth] = c == '{' ? '}' : ']';
	j->any[j->depth] = 0;
	j->flat[j->depth] = flat || (j->depth > 0 && j->flat[j->depth - 1]);
	j->depth++;
}

void
json_obj(struct json *j, int flat)
{
	json_open(j, '{', flat);
}

void
json_arr(struct json *j, int flat)
{
	json_open(j, '[', flat);
}

/* Closes the innermost container: } or ] by what it opened with. */
void
json_end(struct json *j)
{
	int	d = --j->depth;

	if (j->any[d] && !j->flat[d])
		fprintf(j->fp, "\n%*s", 2 * d, "");
	fputc(j->closer[d], j->fp);
}

/* After the outermost container: the end of the document's line. */
void
json_finish(struct json *j)
{
	fputc('\n', j->fp);
}

void
json_key(struct json *j, const char *key)
{
	json_sep(j);
	out_json_str(j->fp, key, strlen(key));
	fputs(": ", j->fp);
	j->key = 1;
}

FILE *
json_raw(struct json *j)
{
	json_sep(j);
	return j->fp;
}

void
json_str(struct json *j, const char *p, size_t n)
{
	out_json_str(json_raw(j), p, n);
}

void
json_cstr(struct json *j, const char *s)
{
	out_json_str(json_raw(j), s, strlen(s));
}

void
json_u64(struct json *j, uint64_t v)
{
	fprintf(json_raw(j), "%llu", (unsigned long long)v);
}

void
json_i64(struct json *j, int64_t v)
{
	fprintf(json_raw(j), "%lld", (long long)v);
}

void
json_double(struct json *j, double d)
{
	out_json_double(json_raw(j), d);
}

void
json_float(struct json *j, float f)
{
	out_json_float(json_raw(j), f);
}

void
json_bool(struct json *j, int b)
{
	fputs(b ? "true" : "false", json_raw(j));
}

void
json_null(struct json *j)
{
	fputs("null", json_raw(j));
}

void
json_scalar(struct json *j, const struct gguf_val *v)
{
	out_scalar_json(json_raw(j), v);
}
