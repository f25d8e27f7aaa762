/*
 * httpans.h - what ggufed reads itself of an HTTP answer: its status
 * line and the headers that say which bytes its body holds (ETag,
 * Last-Modified, Content-Range, Content-Length, Content-Encoding), and
 * whether a redirect's Location may be followed.
 *
 * libcurl speaks HTTP and hands each line of an answer's head over as it
 * arrives; these functions take it from there. They never trust the
 * server: every value is bounded, every text kept for a message is cut
 * and made printable, and the head as a whole has a size limit, so that
 * a server sending headers without end gets an error, not a process
 * that grows. Kept apart from http.c (and from libcurl) so that they can
 * be fuzzed alone.
 */
#ifndef GGUF_HTTPANS_H
#define GGUF_HTTPANS_H

#include <stddef.h>
#include <stdint.h>

/* Bytes of head lines an answer (its redirects included) may send. */
#define GGUF_HTTP_MAX_HEADERS	(256 * 1024)

struct gguf_http_answer {
	long		 status;	/* of the status line; 0 if none */
	char		 etag[256];
	char		 lastmod[128];
	/*
	 * Content-Range: 1 "bytes A-B/T" (r_first <= r_last < r_total), 2
	 * "bytes *\/T" (r_total alone), 3 something else (its words in
	 * range_text), 0 none.
	 */
	int		 has_range;
	uint64_t	 r_first, r_last, r_total;
	char		 range_text[64];
	int		 has_len;	/* Content-Length, in clen */
	uint64_t	 clen;
	int		 encoded;	/* a Content-Encoding but identity */
	char		 encoding[32];
	size_t		 hdr_bytes;	/* head bytes so far */
};

/* Forgets everything, the count of head bytes too: a new request. */
void	gguf_http_answer_start(struct gguf_http_answer *a);

/*
 * Takes one line of the head (n bytes at p, its CR LF included, as
 * libcurl hands it over): 1 at the blank line that ends the head, -1
 * once the head passes GGUF_HTTP_MAX_HEADERS, else 0. A status line
 * starts a new answer (after a 1xx or a redirect).
 */
int	gguf_http_answer_line(struct gguf_http_answer *a, const char *p,
	    size_t n);

/*
 * Whether a redirect from the URL from to the absolute URL loc may be
 * followed: to https://, or to http:// from http://. 0 if it may, else
 * -1 with loc's scheme in scheme (printable, cut to len).
 */
int	gguf_http_redirect_ok(const char *from, const char *loc,
	    char *scheme, size_t len);

/*
 * n bytes at p, blanks and line ends trimmed, into dst (of len bytes),
 * NUL-terminated; with shown, anything but printable ASCII as '?', for
 * a message.
 */
void	gguf_http_copy(char *dst, size_t len, const char *p, size_t n,
	    int shown);

#endif /* GGUF_HTTPANS_H */
