/*
 * http.h - a file on a web server, read by byte ranges.
 *
 * A model that lives on a web server or on the Hugging Face Hub is read
 * with HTTP range requests (Range: bytes=A-B) over one connection kept
 * alive, through libcurl. Names it takes: http://..., https://... and
 * hf://OWNER/REPO/FILE[@REVISION], which is resolved as the Hub lays
 * files out: {HF_ENDPOINT, else https://huggingface.co}/OWNER/REPO/
 * resolve/{REVISION, else main}/FILE.
 *
 * The token (HF_TOKEN, else the file $HF_HOME/token, HF_HOME defaulting
 * to ~/.cache/huggingface) is sent as "Authorization: Bearer" to the
 * endpoint's own origin (scheme, host and port) only: redirects are
 * followed here, not by libcurl, and a request to any other origin (the
 * Hub's download CDN) never carries it. No message ever holds it.
 *
 * The first answer fixes what the file is: its size, its ETag and its
 * Last-Modified date. Every later answer must agree, or the read fails
 * with "changed on the server". A server that ignores Range (200 with
 * the whole body) is read from the start of the body as far as needed,
 * then the transfer is stopped; after the open, its first
 * GGUF_HTTP_NORANGE_MAX bytes are downloaded once and every read is
 * served from them; a read further on fails saying that the server does
 * not support range requests and the file's size, rather than
 * downloading a whole model quietly. A body is never read past the
 * bytes asked for (a 206 running on past its range, or promising more).
 *
 * Errors are one line in a struct gguf_err: 404, 401/403 (naming the
 * variables a token is taken from), 5xx and cut connections (retried a
 * few times with a growing wait, then reported), connect timeouts and
 * stalled transfers (GGUFED_HTTP_TIMEOUT seconds, default 30, with no
 * byte received), transfers too slow (a request of n bytes may take
 * GGUFED_HTTP_TIMEOUT seconds and n / GGUFED_HTTP_MIN_RATE more, the
 * rate 32 KiB/s by default), bodies shorter than asked, a 304 to a
 * request that was not conditional. TLS certificates are always
 * verified.
 *
 * A handle may be used from any thread, one request at a time (it holds
 * a lock while it reads).
 */
#ifndef GGUF_HTTP_H
#define GGUF_HTTP_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

/* A server ignoring Range is read through its body up to here, no more. */
#define GGUF_HTTP_NORANGE_MAX	((uint64_t)64 << 20)

/* How a message of a file the server does not have (404, 410) begins. */
#define GGUF_HTTP_NOT_FOUND	"not found on the server"

/* True if name is read over the network: http://, https:// or hf://. */
int		 gguf_is_url(const char *name);

/* True if this build reads URLs at all (it was built with libcurl). */
int		 gguf_http_supported(void);

struct gguf_http;

/*
 * Resolves name (hf:// as the Hub does) and asks for its first len bytes
 * (fewer if the file is shorter), which fixes the file's size and
 * identity. The bytes are kept: gguf_http_head gives them. NULL with err
 * set if the file cannot be read.
 *
 * With a non-NULL identity (as gguf_http_identity gave it for a file of
 * size bytes), the same request is conditional (If-None-Match with an
 * ETag, else If-Modified-Since): if the server answers that the file is
 * still that one, *unchanged is set to 1, the handle takes identity and
 * size as the file's, and no byte is read (gguf_http_head is empty);
 * else *unchanged is 0 and the bytes are read as without it.
 */
struct gguf_http *gguf_http_open(const char *name, size_t len,
		    const char *identity, uint64_t size, int *unchanged,
		    struct gguf_err *err);
void		 gguf_http_close(struct gguf_http *h);

/* The name it was opened by (for messages), and the file's size. */
const char	*gguf_http_name(const struct gguf_http *h);
uint64_t	 gguf_http_size(const struct gguf_http *h);
/* The bytes the open read: the first *len bytes of the file. */
const uint8_t	*gguf_http_head(const struct gguf_http *h, size_t *len);
/*
 * What identifies the file as the server first described it: its ETag,
 * else "Last-Modified size"; "" if the server gave neither.
 */
const char	*gguf_http_identity(const struct gguf_http *h);
/* Requests made and body bytes received since the open. */
void		 gguf_http_counts(const struct gguf_http *h, uint64_t *requests,
		    uint64_t *bytes);

/*
 * Reads [off, off + len) of the file into buf: 0, or -1 with err set.
 * A range past the end of the file is an error.
 */
int		 gguf_http_read(struct gguf_http *h, uint64_t off, void *buf,
		    size_t len, struct gguf_err *err);

/*
 * Hands [off, off + len) of the file, in order, to sink in pieces as
 * they arrive; a cut connection is resumed where it stopped. sink
 * returns 0 to go on, anything else to stop (the function then returns
 * what it returned, with err untouched). 0 when all was handed over, -1
 * with err set on a failure.
 */
typedef int	(*gguf_http_sink)(void *arg, const uint8_t *p, size_t n);
int		 gguf_http_stream(struct gguf_http *h, uint64_t off,
		    uint64_t len, gguf_http_sink sink, void *arg,
		    struct gguf_err *err);

/*
 * 1 if the open was answered that the file is still the one of the
 * identity given (its header is then the header cache's), else 0.
 */
int		 gguf_http_cached(const struct gguf_http *h);

/*
 * 1 if a read found the file changed on the server since the open (its
 * size, ETag or Last-Modified not the first answer's), else 0.
 */
int		 gguf_http_changed(const struct gguf_http *h);

/*
 * The file at name as a source (source.h) of kind "http": opened as
 * gguf_http_open opens it (its first len bytes read and kept; with an
 * identity, conditionally, *unchanged then saying whether the server
 * answered that the file is still that one), read by ranges, never
 * mapped, its identity the server's "etag size" (or "Last-Modified
 * size"), "changed on the server" once a read saw it change, and copied
 * into a descriptor as it arrives. NULL with e set (GGUF_SRCE_OPEN and
 * the one-line reason).
 */
struct gguf_source;
struct gguf_srcerr;
struct gguf_source *gguf_source_http(const char *name, size_t len,
		    const char *identity, uint64_t size, int *unchanged,
		    struct gguf_srcerr *e);
/* The handle under an "http" source, or NULL for any other source. */
struct gguf_http *gguf_source_http_handle(const struct gguf_source *s);

#endif /* GGUF_HTTP_H */
