/*
 * fuzz_http.c - fuzz target: the head of an HTTP answer as ggufed reads
 * it (httpans.h), and a redirect's Location.
 *
 * Input: byte 0 says how many times (1 to 8) the head is sent over, so
 * that a head can pass the size limit; the rest, up to its first blank
 * line, is the head, cut into lines at each newline as libcurl hands
 * them over; what follows the blank line is a Location.
 *
 * Beyond "no crash, no sanitizer report":
 *	- every text kept is NUL-terminated inside its field, and the ones
 *	  a message may print (an unknown Content-Range, a Content-Encoding,
 *	  a refused scheme) are printable ASCII;
 *	- a Content-Range taken as a range is one: first <= last < total;
 *	- the status is 0 to 999; the end of the head is said only at a
 *	  blank line, the size limit only past GGUF_HTTP_MAX_HEADERS bytes;
 *	- a Location is followed only to https://, or to http:// from
 *	  http://, and never from https:// to http://.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fuzz.h"
#include "httpans.h"

/* A field of a struct is a string: its NUL inside it. */
#define IS_STRING(f)	(memchr((f), '\0', sizeof (f)) != NULL)

static void
printable(const char *what, const char *s)
{
	const char	*p;

	for (p = s; *p != '\0'; p++)
		if (*p < ' ' || *p > '~')
			fuzz_fail("%s holds byte 0x%02x", what,
			    (unsigned)(unsigned char)*p);
}

static void
check_answer(const struct gguf_http_answer *a)
{
	if (!IS_STRING(a->etag) || !IS_STRING(a->lastmod) ||
	    !IS_STRING(a->range_text) || !IS_STRING(a->encoding))
		fuzz_fail("a field of the answer is not NUL-terminated");
	printable("the Content-Range kept", a->range_text);
	printable("the Content-Encoding kept", a->encoding);
	if (a->status < 0 || a->status > 999)
		fuzz_fail("status %ld", a->status);
	if (a->has_range == 1 && (a->r_first > a->r_last ||
	    a->r_last >= a->r_total))
		fuzz_fail("range %llu-%llu/%llu taken",
		    (unsigned long long)a->r_first,
		    (unsigned long long)a->r_last,
		    (unsigned long long)a->r_total);
	if (a->has_range < 0 || a->has_range > 3)
		fuzz_fail("has_range %d", a->has_range);
	if (a->encoded && (a->encoding[0] == '\0' ||
	    strcasecmp(a->encoding, "identity") == 0))
		fuzz_fail("encoded, by \"%s\"", a->encoding);
}

/* Feeds the head's lines: the place of its blank line, or size. */
static size_t
feed(struct gguf_http_answer *a, const uint8_t *p, size_t size,
    size_t *fed, int *rc)
{
	const uint8_t	*nl;
	size_t		 at = 0, n;

	*rc = 0;
	while (at < size && *rc == 0) {
		nl = memchr(p + at, '\n', size - at);
		n = nl != NULL ? (size_t)(nl - (p + at)) + 1 : size - at;
		*rc = gguf_http_answer_line(a, (const char *)p + at, n);
		*fed += n;
		if (*rc == 1 && !(n <= 2 && (p[at] == '\r' ||
		    p[at] == '\n')))
			fuzz_fail("the head ended at a line of %zu bytes", n);
		if (*rc == -1 && *fed <= GGUF_HTTP_MAX_HEADERS)
			fuzz_fail("the limit said at %zu bytes", *fed);
		if (*rc == 0 && *fed > GGUF_HTTP_MAX_HEADERS)
			fuzz_fail("%zu bytes of head taken", *fed);
		check_answer(a);
		at += n;
	}
	return at;
}

static void
check_location(const uint8_t *p, size_t n)
{
	static const char *const from[] = {
		"http://127.0.0.1/m.gguf", "https://127.0.0.1/m.gguf"
	};
	char	*loc, scheme[16];
	size_t	 i;
	int	 rc;

	loc = malloc(n + 1);
	if (loc == NULL)
		return;
	memcpy(loc, p, n);
	loc[n] = '\0';
	for (i = 0; i < 2; i++) {
		memset(scheme, 'x', sizeof scheme);
		rc = gguf_http_redirect_ok(from[i], loc, scheme,
		    sizeof scheme);
		if (rc == 0 && strncasecmp(loc, "https://", 8) != 0 &&
		    (i == 1 || strncasecmp(loc, "http://", 7) != 0))
			fuzz_fail("a redirect from %s to \"%.40s\" followed",
			    from[i], loc);
		if (rc != 0 && (strncasecmp(loc, "https://", 8) == 0 ||
		    (i == 0 && strncasecmp(loc, "http://", 7) == 0)))
			fuzz_fail("a redirect to \"%.40s\" refused", loc);
		if (rc != 0) {
			if (!IS_STRING(scheme))
				fuzz_fail("the scheme is not NUL-terminated");
			printable("the scheme", scheme);
		}
	}
	free(loc);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gguf_http_answer	a;
	size_t			end = 0, fed = 0;
	unsigned		times, i;
	int			rc = 0;

	if (size < 1)
		return 0;
	times = 1 + data[0] % 8;
	gguf_http_answer_start(&a);
	for (i = 0; i < times && rc == 0; i++)
		end = feed(&a, data + 1, size - 1, &fed, &rc);
	if (rc == 1 && end < size - 1)
		check_location(data + 1 + end, size - 1 - end);
	return 0;
}
