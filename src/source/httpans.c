/*
 * httpans.c - an HTTP answer's head as ggufed reads it (see httpans.h).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "httpans.h"

void
gguf_http_copy(char *dst, size_t len, const char *p, size_t n, int shown)
{
	size_t	i;

	while (n > 0 && (p[0] == ' ' || p[0] == '\t')) {
		p++;
		n--;
	}
	while (n > 0 && (p[n - 1] == '\r' || p[n - 1] == '\n' ||
	    p[n - 1] == ' ' || p[n - 1] == '\t'))
		n--;
	if (n >= len)
		n = len - 1;
	memcpy(dst, p, n);
	dst[n] = '\0';
	for (i = 0; shown && i < n; i++)
		if (dst[i] < ' ' || dst[i] > '~')
			dst[i] = '?';
}

void
gguf_http_answer_start(struct gguf_http_answer *a)
{
	memset(a, 0, sizeof *a);
}

/* The answer's own fields, for the next one (the head count stays). */
static void
answer_reset(struct gguf_http_answer *a)
{
	size_t	n = a->hdr_bytes;

	memset(a, 0, sizeof *a);
	a->hdr_bytes = n;
}

/* True if the n bytes at p begin with the header name h (its colon). */
static int
is_header(const char *p, size_t n, const char *h)
{
	size_t	k = strlen(h);

	return n > k && strncasecmp(p, h, k) == 0;
}

/*
 * A decimal number of at most 19 digits (below 2^63) from the n bytes at
 * p, after blanks: 0 and *v, or -1. Nothing but digits, so that no sign
 * or overflow of sscanf's slips through.
 */
static int
number(const char **pp, const char *end, uint64_t *v)
{
	const char	*p = *pp;
	int		 digits = 0;

	*v = 0;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	while (p < end && *p >= '0' && *p <= '9' && digits < 19) {
		*v = *v * 10 + (uint64_t)(*p++ - '0');
		digits++;
	}
	if (digits == 0 || (p < end && *p >= '0' && *p <= '9'))
		return -1;
	*pp = p;
	return 0;
}

/* Content-Range's value: "bytes A-B/T" or "bytes *\/T". */
static void
content_range(struct gguf_http_answer *a, const char *p, size_t n)
{
	char		 v[128];
	const char	*s, *end;
	uint64_t	 f, l, t;

	gguf_http_copy(v, sizeof v, p, n, 0);
	s = v;
	end = v + strlen(v);
	a->has_range = 3;
	gguf_http_copy(a->range_text, sizeof a->range_text, p, n, 1);
	if (strncasecmp(s, "bytes ", 6) != 0)
		return;
	s += 6;
	if (s < end && *s == '*') {
		s++;
		if (s < end && *s == '/' && (s++, number(&s, end, &t)) == 0 &&
		    s == end) {
			a->has_range = 2;
			a->r_total = t;
		}
		return;
	}
	if (number(&s, end, &f) != 0 || s >= end || *s++ != '-' ||
	    number(&s, end, &l) != 0 || s >= end || *s++ != '/' ||
	    number(&s, end, &t) != 0 || s != end || f > l || l >= t)
		return;
	a->has_range = 1;
	a->r_first = f;
	a->r_last = l;
	a->r_total = t;
}

int
gguf_http_answer_line(struct gguf_http_answer *a, const char *p, size_t n)
{
	const char	*s, *end;
	uint64_t	 v;

	if (n > GGUF_HTTP_MAX_HEADERS - a->hdr_bytes) {
		a->hdr_bytes = GGUF_HTTP_MAX_HEADERS + 1;
		return -1;
	}
	a->hdr_bytes += n;
	if (n >= 5 && strncmp(p, "HTTP/", 5) == 0) {
		answer_reset(a);
		/* "HTTP/1.1 206 ..." or "HTTP/2 206" */
		s = memchr(p, ' ', n);
		end = p + n;
		if (s == NULL || number(&s, end, &v) != 0 || v > 999 ||
		    (s < end && *s != ' ' && *s != '\r' && *s != '\n'))
			a->status = 0;
		else
			a->status = (long)v;
		return 0;
	}
	if (n <= 2 && (n == 0 || p[0] == '\r' || p[0] == '\n'))
		return 1;
	if (is_header(p, n, "etag:"))
		gguf_http_copy(a->etag, sizeof a->etag, p + 5, n - 5, 0);
	else if (is_header(p, n, "last-modified:"))
		gguf_http_copy(a->lastmod, sizeof a->lastmod, p + 14, n - 14,
		    0);
	else if (is_header(p, n, "content-range:"))
		content_range(a, p + 14, n - 14);
	else if (is_header(p, n, "content-length:")) {
		s = p + 15;
		end = p + n;
		while (end > s && (end[-1] == '\r' || end[-1] == '\n' ||
		    end[-1] == ' ' || end[-1] == '\t'))
			end--;
		if (number(&s, end, &v) == 0 && s == end) {
			a->has_len = 1;
			a->clen = v;
		}
	} else if (is_header(p, n, "content-encoding:")) {
		gguf_http_copy(a->encoding, sizeof a->encoding, p + 17,
		    n - 17, 1);
		a->encoded = a->encoding[0] != '\0' &&
		    strcasecmp(a->encoding, "identity") != 0;
	}
	return 0;
}

int
gguf_http_redirect_ok(const char *from, const char *loc, char *scheme,
    size_t len)
{
	if (strncasecmp(loc, "https://", 8) == 0 ||
	    (strncasecmp(loc, "http://", 7) == 0 &&
	    strncasecmp(from, "https://", 8) != 0))
		return 0;
	gguf_http_copy(scheme, len, loc, strcspn(loc, ":"), 1);
	return -1;
}
