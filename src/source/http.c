/*
 * http.c - a file on a web server, read by byte ranges (see http.h).
 *
 * One libcurl easy handle per file, kept for the file's life, so that
 * every range after the first goes over the same connection. Redirects
 * are followed here, hop by hop, so that the token goes to the
 * endpoint's origin and nowhere else whatever libcurl's own rules are;
 * the URL a redirect ended at is remembered and asked directly next
 * time (asked anew from the start if it stops answering).
 *
 * Built without libcurl, every function that would reach a server says
 * how to get a build that does.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "err.h"
#include "hf.h"
#include "http.h"
#include "httpans.h"
#include "source.h"
#include "xmalloc.h"

#define READ_AHEAD	((uint64_t)16 << 20)	/* a request in order */

#define NO_CURL_MSG	"this build of ggufed has no URL support: install " \
			"libcurl4-openssl-dev and rebuild"

#ifndef HAVE_CURL

int
gguf_http_supported(void)
{
	return 0;
}

struct gguf_http *
gguf_http_open(const char *name, size_t len, const char *identity,
    uint64_t size, int *unchanged, struct gguf_err *err)
{
	(void)name;
	(void)len;
	(void)identity;
	(void)size;
	if (unchanged != NULL)
		*unchanged = 0;
	gguf_errf(err, -1, "%s", NO_CURL_MSG);
	return NULL;
}

void
gguf_http_close(struct gguf_http *h)
{
	(void)h;
}

const char *
gguf_http_name(const struct gguf_http *h)
{
	(void)h;
	return "";
}

uint64_t
gguf_http_size(const struct gguf_http *h)
{
	(void)h;
	return 0;
}

const uint8_t *
gguf_http_head(const struct gguf_http *h, size_t *len)
{
	(void)h;
	*len = 0;
	return NULL;
}

const char *
gguf_http_identity(const struct gguf_http *h)
{
	(void)h;
	return "";
}

void
gguf_http_counts(const struct gguf_http *h, uint64_t *requests,
    uint64_t *bytes)
{
	(void)h;
	*requests = *bytes = 0;
}

int
gguf_http_read(struct gguf_http *h, uint64_t off, void *buf, size_t len,
    struct gguf_err *err)
{
	(void)h;
	(void)off;
	(void)buf;
	(void)len;
	return gguf_errf(err, -1, "%s", NO_CURL_MSG);
}

int
gguf_http_stream(struct gguf_http *h, uint64_t off, uint64_t len,
    gguf_http_sink sink, void *arg, struct gguf_err *err)
{
	(void)h;
	(void)off;
	(void)len;
	(void)sink;
	(void)arg;
	return gguf_errf(err, -1, "%s", NO_CURL_MSG);
}

int
gguf_http_changed(const struct gguf_http *h)
{
	(void)h;
	return 0;
}

int
gguf_http_cached(const struct gguf_http *h)
{
	(void)h;
	return 0;
}

struct gguf_source *
gguf_source_http(const char *name, size_t len, const char *identity,
    uint64_t size, int *unchanged, struct gguf_srcerr *e)
{
	(void)name;
	(void)len;
	(void)identity;
	(void)size;
	if (unchanged != NULL)
		*unchanged = 0;
	gguf_srcerr_set(e, GGUF_SRCE_OPEN, -1, "%s", NO_CURL_MSG);
	return NULL;
}

struct gguf_http *
gguf_source_http_handle(const struct gguf_source *s)
{
	(void)s;
	return NULL;
}

#else /* HAVE_CURL */

#define CURL_DISABLE_TYPECHECK	1
#include <curl/curl.h>
#include <dlfcn.h>

/*
 * libcurl is loaded at the first URL, not linked: it brings some thirty
 * shared libraries (TLS, Kerberos, LDAP, ...) that every command would
 * otherwise load at start, local files or not. The functions used, each
 * called through a pointer of its own type; the names below are those
 * pointers from here on.
 */
#define CURL_FNS(X)	X(global_init) X(global_cleanup) X(easy_init) \
			X(easy_setopt) X(easy_perform) X(easy_cleanup) \
			X(easy_getinfo) X(easy_strerror) X(slist_append) \
			X(slist_free_all) X(url) X(url_set) X(url_get) \
			X(url_cleanup) X(free)
static struct {
#define X(n)	__typeof__(curl_##n) *n;
	CURL_FNS(X)
#undef X
} cu;
#undef curl_easy_setopt		/* curl.h's own checks of arguments */
#undef curl_easy_getinfo
#define curl_global_init	(*cu.global_init)
#define curl_global_cleanup	(*cu.global_cleanup)
#define curl_easy_init		(*cu.easy_init)
#define curl_easy_setopt	(*cu.easy_setopt)
#define curl_easy_perform	(*cu.easy_perform)
#define curl_easy_cleanup	(*cu.easy_cleanup)
#define curl_easy_getinfo	(*cu.easy_getinfo)
#define curl_easy_strerror	(*cu.easy_strerror)
#define curl_slist_append	(*cu.slist_append)
#define curl_slist_free_all	(*cu.slist_free_all)
#define curl_url		(*cu.url)
#define curl_url_set		(*cu.url_set)
#define curl_url_get		(*cu.url_get)
#define curl_url_cleanup	(*cu.url_cleanup)
#define curl_free		(*cu.free)

/*
 * Loads libcurl (the OpenSSL build's soname, else the GnuTLS build's)
 * and finds its functions: 0, or -1 with why said in buf.
 */
static int
load_curl(char *buf, size_t len)
{
	static const char *const names[] = {
		"libcurl.so.4", "libcurl-gnutls.so.4"
	};
	const char	*e = "not found";
	void		*lib = NULL;
	size_t		 i;

	for (i = 0; i < sizeof names / sizeof names[0] && lib == NULL; i++)
		if ((lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL)) == NULL &&
		    dlerror() != NULL && i == 0)
			e = "libcurl.so.4 cannot be loaded";
	if (lib == NULL) {
		snprintf(buf, len, "%s", e);
		return -1;
	}
#define X(n)								\
	if ((cu.n = (__typeof__(cu.n))dlsym(lib, "curl_" #n)) == NULL) { \
		snprintf(buf, len, "libcurl has no curl_%s", #n);	\
		dlclose(lib);						\
		return -1;						\
	}
	CURL_FNS(X)
#undef X
	return 0;
}

/* 1234567 -> "1,234,567" in buf; returns buf. */
static const char *
group(uint64_t v, char *buf, size_t len)
{
	char	tmp[32];
	size_t	n, i, o = 0;

	n = (size_t)snprintf(tmp, sizeof tmp, "%llu", (unsigned long long)v);
	for (i = 0; i < n && o + 1 < len; i++) {
		if (i > 0 && (n - i) % 3 == 0 && o + 2 < len)
			buf[o++] = ',';
		buf[o++] = tmp[i];
	}
	buf[o] = '\0';
	return buf;
}

#define MAX_HOPS	10	/* redirects followed */
#define MAX_TRIES	4	/* 5xx and cut connections: tries in all */
#define FIRST_WAIT_MS	250	/* then doubled at each try */
#define DEFAULT_TIMEOUT	30	/* seconds: to connect; with no byte */
#define DEFAULT_MIN_RATE 32768	/* bytes a second a transfer keeps up */
#define MAX_PAGE	65536	/* body bytes of an error page or redirect */

struct gguf_http {
	pthread_mutex_t	 lock;
	CURL		*curl;
	char		*name;		/* as given, for messages */
	char		*url;		/* resolved */
	char		*final;		/* where redirects last led, or NULL */
	char		*token;		/* or NULL */
	const char	*token_from;	/* "HF_TOKEN", "the token file" */
	int		 userinfo;	/* the URL has user:password@ */
	char		*origin;	/* the endpoint's: it gets the token */
	char		 errbuf[CURL_ERROR_SIZE];
	long		 timeout;
	uint64_t	 min_rate;	/* bytes a second, at least */

	int		 known;		/* size and identity fixed */
	uint64_t	 size;
	char		 etag[256];
	char		 lastmod[128];
	char		 identity[512];
	int		 norange;	/* answered 200 to a range request */
	int		 changed;	/* an answer was another file's */
	int		 cached;	/* opened by a 304: the cache's header */

	/*
	 * A server that ignores ranges: the first bytes of the file (up to
	 * GGUF_HTTP_NORANGE_MAX), downloaded once at the first read after
	 * the open and every later read served from them.
	 */
	uint8_t		*whole;
	uint64_t	 whole_len;

	uint8_t		*head;
	size_t		 head_len;

	/*
	 * Reads announced to come in order (gguf_source_sequential): a
	 * small read inside [seq_from, seq_to) fetches READ_AHEAD bytes,
	 * kept in ra for the reads after it.
	 */
	pthread_mutex_t	 ra_lock;
	uint64_t	 seq_from, seq_to;
	uint8_t		*ra;
	uint64_t	 ra_off, ra_len;

	uint64_t	 n_requests;
	uint64_t	 n_bytes;
};

/* One request and its answer. */
struct req {
	struct gguf_http *h;
	uint64_t	 off, len;	/* asked */
	uint64_t	 got;		/* handed to the sink */
	uint64_t	 skip;		/* 200: body bytes before off */
	gguf_http_sink	 sink;
	void		*arg;
	int		 sink_rc;
	const char	*cond;		/* a conditional header, or NULL */

	int		 deliver;	/* the body is the file's bytes */
	int		 exact;		/* its Content-Length is the range's */
	int		 done;		/* all asked for was handed over */
	int		 cut;		/* a page's body was cut: not an error */
	uint64_t	 page;		/* body bytes not the file's */
	uint64_t	 deadline_ms;	/* of the last request */
	uint64_t	 elapsed_ms;
	int		 failed;	/* err set while reading headers */
	int		 head_done;	/* the answer's head was all read */
	struct gguf_http_answer a;	/* the last answer's head */
	char		 scheme[16];	/* a redirect's, refused */
	struct gguf_err	*err;
};

static pthread_mutex_t	global_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned		global_users;
static int		loaded;		/* libcurl's functions are found */

int
gguf_http_supported(void)
{
	return 1;
}

/*
 * libcurl loaded (once), and curl_global_init once for every open
 * handle, cleaned with the last: 0, or -1 with err set.
 */
static int
global_get(struct gguf_err *err)
{
	char	why[200];
	int	rc = 0;

	pthread_mutex_lock(&global_lock);
	if (!loaded && load_curl(why, sizeof why) != 0)
		rc = gguf_errf(err, -1, "URLs need libcurl, and %s: install "
		    "the package libcurl4", why);
	else if ((loaded = 1, global_users == 0) &&
	    curl_global_init(CURL_GLOBAL_DEFAULT) != 0)
		rc = gguf_errf(err, -1, "libcurl cannot start");
	else
		global_users++;
	pthread_mutex_unlock(&global_lock);
	return rc;
}

static void
global_put(void)
{
	pthread_mutex_lock(&global_lock);
	if (--global_users == 0)
		curl_global_cleanup();
	pthread_mutex_unlock(&global_lock);
}

/*
 * The origin of url, "scheme://host:port" in lower case with the port
 * always given, allocated; NULL if url cannot be parsed.
 */
static char *
origin_of(const char *url)
{
	CURLU	*u = curl_url();
	char	*scheme = NULL, *host = NULL, *port = NULL, *o = NULL, *p;
	size_t	 n;

	if (u == NULL)
		return NULL;
	if (curl_url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_HOST, &host, 0) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_PORT, &port, CURLU_DEFAULT_PORT) ==
	    CURLUE_OK) {
		n = strlen(scheme) + strlen(host) + strlen(port) + 5;
		o = xmalloc(n);
		snprintf(o, n, "%s://%s:%s", scheme, host, port);
		for (p = o; *p != '\0'; p++)
			if (*p >= 'A' && *p <= 'Z')
				*p = (char)(*p - 'A' + 'a');
	}
	curl_free(scheme);
	curl_free(host);
	curl_free(port);
	curl_url_cleanup(u);
	return o;
}

/* The host (and port) of url for messages, into buf. */
static const char *
host_of(const char *url, char *buf, size_t len)
{
	const char	*p = strstr(url, "://"), *e;
	size_t		 n;

	p = p != NULL ? p + 3 : url;
	n = strcspn(p, "/?#");
	/* never user:password, which may hold an @ of its own */
	for (e = p + n; e > p; e--)
		if (e[-1] == '@') {
			p = e;
			break;
		}
	n = strcspn(p, "/?#");
	if (n >= len)
		n = len - 1;
	memcpy(buf, p, n);
	buf[n] = '\0';
	return buf;
}

/*
 * A read a server without range support cannot give: the file's size,
 * the cap and the reason, in one line. Returns -1.
 */
static int
norange_msg(struct gguf_err *err, uint64_t off, uint64_t end, uint64_t size)
{
	char	a[32], b[32], c[32];

	return gguf_errf(err, -1, "the server does not support range "
	    "requests (it sends the whole file), and bytes %s to %s of the "
	    "file's %s run past the first %llu MiB, all that is read from "
	    "such a server", group(off, a, sizeof a),
	    group(end - 1, b, sizeof b), group(size, c, sizeof c),
	    (unsigned long long)(GGUF_HTTP_NORANGE_MAX >> 20));
}

/* Whether an answer's description of the file is the first one's. */
static int
check_same(struct req *r, uint64_t size)
{
	struct gguf_http	*h = r->h;
	char			 a[32], b[32];

	if (!h->known) {
		h->known = 1;
		h->size = size;
		snprintf(h->etag, sizeof h->etag, "%s", r->a.etag);
		snprintf(h->lastmod, sizeof h->lastmod, "%s", r->a.lastmod);
		if (h->etag[0] != '\0')
			snprintf(h->identity, sizeof h->identity, "etag:%s",
			    h->etag);
		else if (h->lastmod[0] != '\0')
			snprintf(h->identity, sizeof h->identity, "lm:%s",
			    h->lastmod);
		return 0;
	}
	if (size != h->size) {
		r->failed = 1;
		h->changed = 1;
		return gguf_errf(r->err, -1, "changed on the server: %s "
		    "bytes now, %s when opened",
		    group(size, a, sizeof a),
		    group(h->size, b, sizeof b));
	}
	if ((h->etag[0] != '\0' && strcmp(h->etag, r->a.etag) != 0) ||
	    (h->etag[0] == '\0' && h->lastmod[0] != '\0' &&
	    strcmp(h->lastmod, r->a.lastmod) != 0)) {
		r->failed = 1;
		h->changed = 1;
		return gguf_errf(r->err, -1, "changed on the server since it "
		    "was opened (%s differs)",
		    h->etag[0] != '\0' ? "ETag" : "Last-Modified");
	}
	return 0;
}

/* The end of an answer's headers: what its body is. */
static void
headers_done(struct req *r)
{
	struct gguf_http	*h = r->h;
	char			 a[32];

	r->deliver = 0;
	if ((r->a.status == 206 || r->a.status == 200) && r->a.encoded) {
		/* identity was asked: these bytes are not the file's */
		r->failed = 1;
		gguf_errf(r->err, -1, "the server sent the file encoded "
		    "(Content-Encoding: %s), not as it is", r->a.encoding);
		return;
	}
	if (r->a.status == 206) {
		if (r->a.has_range == 3) {
			r->failed = 1;
			gguf_errf(r->err, -1, "the server answered with "
			    "Content-Range \"%s\", not a range of the file",
			    r->a.range_text);
			return;
		}
		if (!r->a.has_range) {
			r->failed = 1;
			gguf_errf(r->err, -1, "the server answered a range "
			    "request without saying which range");
			return;
		}
		if (r->a.has_range == 2) {
			r->failed = 1;
			gguf_errf(r->err, -1, "the server answered a range "
			    "request with Content-Range \"%s\", which names "
			    "no bytes", r->a.range_text);
			return;
		}
		if (check_same(r, r->a.r_total) != 0)
			return;
		if (r->len > h->size - r->off)
			r->len = h->size - r->off;	/* the first range */
		if (r->a.r_first != r->off + r->got ||
		    r->a.r_last != r->off + r->len - 1) {
			char	b[32], c[32], d[32];

			r->failed = 1;
			gguf_errf(r->err, -1, "the server sent bytes %s to %s, "
			    "not those asked for (%s to %s)",
			    group(r->a.r_first, a, sizeof a),
			    group(r->a.r_last, b, sizeof b),
			    group(r->off + r->got, c, sizeof c),
			    group(r->off + r->len - 1, d, sizeof d));
			return;
		}
		r->skip = 0;
		r->exact = r->a.has_len && r->a.clen == r->len - r->got;
		r->deliver = 1;
	} else if (r->a.status == 200) {
		if (!r->a.has_len) {
			r->failed = 1;
			gguf_errf(r->err, -1, "the server ignores range "
			    "requests and does not say the file's size");
			return;
		}
		if (check_same(r, r->a.clen) != 0)
			return;
		h->norange = 1;
		if (r->len > h->size - r->off)
			r->len = h->size - r->off;
		if (r->off + r->len > GGUF_HTTP_NORANGE_MAX) {
			r->failed = 1;
			norange_msg(r->err, r->off + r->got, r->off + r->len,
			    h->size);
			return;
		}
		r->skip = r->off + r->got;
		r->deliver = 1;
	}
}

static size_t
on_header(char *p, size_t size, size_t nitems, void *arg)
{
	struct req	*r = arg;
	size_t		 n = size * nitems;

	switch (gguf_http_answer_line(&r->a, p, n)) {
	case -1:
		r->failed = 1;
		gguf_errf(r->err, -1, "the server's answer has more than %d "
		    "KiB of headers", GGUF_HTTP_MAX_HEADERS / 1024);
		return 0;
	case 1:
		r->head_done = 1;
		headers_done(r);
		return r->failed ? 0 : n;
	default:
		return n;
	}
}

static size_t
on_body(char *p, size_t size, size_t nmemb, void *arg)
{
	struct req	*r = arg;
	size_t		 n = size * nmemb, k;

	r->h->n_bytes += n;
	if (!r->deliver) {
		/* a redirect's or an error's page: its start, never all */
		r->page += n;
		if (r->page > MAX_PAGE) {
			r->cut = 1;
			return 0;
		}
		return n;
	}
	if (r->skip > 0) {
		k = r->skip < n ? (size_t)r->skip : n;
		r->skip -= k;
		p += k;
		n -= k;
		if (n == 0)
			return size * nmemb;
	}
	if (n > r->len - r->got)
		n = (size_t)(r->len - r->got);
	if (n > 0 && (r->sink_rc = r->sink(r->arg, (uint8_t *)p, n)) != 0)
		return 0;
	r->got += n;
	if (r->got == r->len) {
		r->done = 1;
		/*
		 * All that was asked for is here: what more the body holds
		 * (the rest of a 200's file, a 206 running past its range
		 * or promising more than it) is not read.
		 */
		if (r->a.status == 200 || !r->exact || n < size * nmemb)
			return 0;
	}
	return size * nmemb;
}

static struct curl_slist *
request_headers(struct gguf_http *h, const char *url, struct req *r)
{
	struct curl_slist	*l = NULL, *l2;
	char			 buf[2048];
	char			*o;
	int			 same;

	/* the file's bytes as they are, never compressed on the way */
	if ((l2 = curl_slist_append(l, "Accept-Encoding: identity")) == NULL)
		goto oom;
	l = l2;
	if (r->cond != NULL) {
		if ((l2 = curl_slist_append(l, r->cond)) == NULL)
			goto oom;
		l = l2;
	}
	if (h->token != NULL) {
		o = origin_of(url);
		same = o != NULL && h->origin != NULL &&
		    strcmp(o, h->origin) == 0;
		free(o);
		if (same) {
			snprintf(buf, sizeof buf, "Authorization: Bearer %s",
			    h->token);
			l2 = curl_slist_append(l, buf);
			explicit_bzero(buf, sizeof buf);
			if (l2 == NULL)
				goto oom;
			l = l2;
		}
	}
	return l;
oom:
	curl_slist_free_all(l);
	xmalloc_fail(sizeof buf);
}

/* A curl failure as one line. */
static int
curl_msg(struct gguf_http *h, const char *url, CURLcode rc, struct req *r)
{
	char	host[256], a[32], b[32];

	host_of(url, host, sizeof host);
	switch (rc) {
	case CURLE_COULDNT_RESOLVE_HOST:
		return gguf_errf(r->err, -1, "cannot find the server %s", host);
	case CURLE_COULDNT_CONNECT:
		return gguf_errf(r->err, -1, "cannot connect to %s", host);
	case CURLE_OPERATION_TIMEDOUT:
		/* libcurl tells a connect that timed out by its words only */
		if (r->a.status == 0 && (strncmp(h->errbuf, "Failed to connect",
		    17) == 0 || strncmp(h->errbuf, "Connection timed out",
		    20) == 0))
			return gguf_errf(r->err, -1, "cannot connect to %s: no "
			    "answer in %ld seconds", host, h->timeout);
		if (r->a.status == 0)
			return gguf_errf(r->err, -1, "%s did not answer in "
			    "%ld seconds", host, h->timeout);
		if (strncmp(h->errbuf, "Operation too slow", 18) != 0) {
			char	c[32];

			/* the request's deadline, not a stall */
			return gguf_errf(r->err, -1, "%s is too slow: %s bytes "
			    "of %s in %llu seconds, less than %s bytes a "
			    "second (GGUFED_HTTP_MIN_RATE)", host,
			    group(r->got, a, sizeof a),
			    group(r->len, b, sizeof b),
			    (unsigned long long)(r->elapsed_ms / 1000),
			    group(h->min_rate, c, sizeof c));
		}
		return gguf_errf(r->err, -1, "%s stopped sending: no data "
		    "for %ld seconds (%s bytes of %s received)", host,
		    h->timeout, group(r->got, a, sizeof a),
		    group(r->len, b, sizeof b));
	case CURLE_PEER_FAILED_VERIFICATION:
	case CURLE_SSL_CACERT_BADFILE:
		return gguf_errf(r->err, -1, "the TLS certificate of %s "
		    "cannot be verified", host);
	case CURLE_PARTIAL_FILE:
	case CURLE_RECV_ERROR:
	case CURLE_SEND_ERROR:
	case CURLE_GOT_NOTHING:
		return gguf_errf(r->err, -1, "the connection to %s was cut "
		    "(%s bytes of %s received)", host,
		    group(r->got, a, sizeof a),
		    group(r->len, b, sizeof b));
	case CURLE_OUT_OF_MEMORY:
	default_too_large:
		/*
		 * libcurl keeps a header line in a buffer of its limit, and
		 * says "out of memory" (CURLE_TOO_LARGE, 100, from 8.6 on)
		 * when a line runs past it: the server's doing.
		 */
		if (!r->head_done)
			return gguf_errf(r->err, -1, "%s sent a header line "
			    "too long: longer than libcurl's limit of %d KiB",
			    host, CURL_MAX_HTTP_HEADER / 1024);
		return gguf_errf(r->err, -1, "%s: %s", host,
		    h->errbuf[0] != '\0' ? h->errbuf :
		    curl_easy_strerror(rc));
	case CURLE_WEIRD_SERVER_REPLY:
	case CURLE_UNSUPPORTED_PROTOCOL:
		return gguf_errf(r->err, -1, "%s sent an answer that is not "
		    "HTTP (%s)", host, h->errbuf[0] != '\0' ? h->errbuf :
		    curl_easy_strerror(rc));
	default:
		if ((int)rc == 100)	/* CURLE_TOO_LARGE */
			goto default_too_large;
		return gguf_errf(r->err, -1, "%s: %s", host,
		    h->errbuf[0] != '\0' ? h->errbuf : curl_easy_strerror(rc));
	}
}

static int
retriable(CURLcode rc)
{
	return rc == CURLE_PARTIAL_FILE || rc == CURLE_RECV_ERROR ||
	    rc == CURLE_SEND_ERROR || rc == CURLE_GOT_NOTHING ||
	    rc == CURLE_COULDNT_CONNECT;
}

static void
wait_ms(long ms)
{
	struct timespec	ts;

	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (ms % 1000) * 1000000L;
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

static uint64_t
now_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/*
 * How long a request of n bytes may take in all: the time allowed a
 * server to answer, and the bytes at the least rate; in milliseconds,
 * at most a week's.
 */
static uint64_t
deadline_ms(const struct gguf_http *h, uint64_t n)
{
	uint64_t	cap = (uint64_t)7 * 24 * 3600 * 1000, t;

	t = n / h->min_rate;
	if (t > cap / 1000)
		return cap;
	t = (uint64_t)h->timeout * 1000 + t * 1000 +
	    n % h->min_rate * 1000 / h->min_rate;
	return t < cap ? t : cap;
}

/*
 * One request of [r->off + r->got, r->off + r->len) to url, following
 * redirects: the curl result, with r->a.status the last answer's status
 * and *where the URL that gave it (allocated).
 */
static CURLcode
perform(struct gguf_http *h, const char *url, struct req *r, char **where,
    int *hops_out)
{
	struct curl_slist	*hdrs;
	CURLcode		 rc;
	char			 range[64], *next, *cur;
	const char		*loc;
	uint64_t		 t0;
	int			 hops = 0;

	cur = xstrdup(url);
	for (;;) {
		gguf_http_answer_start(&r->a);
		r->deliver = r->exact = r->done = r->failed = r->cut = 0;
		r->head_done = 0;
		r->skip = r->page = 0;
		h->errbuf[0] = '\0';
		snprintf(range, sizeof range, "%llu-%llu",
		    (unsigned long long)(r->off + r->got),
		    (unsigned long long)(r->off + r->len - 1));
		hdrs = request_headers(h, cur, r);
		curl_easy_setopt(h->curl, CURLOPT_URL, cur);
		curl_easy_setopt(h->curl, CURLOPT_HTTPHEADER, hdrs);
		curl_easy_setopt(h->curl, CURLOPT_RANGE, range);
		curl_easy_setopt(h->curl, CURLOPT_HEADERDATA, r);
		curl_easy_setopt(h->curl, CURLOPT_WRITEDATA, r);
		r->deadline_ms = deadline_ms(h, r->len - r->got);
		curl_easy_setopt(h->curl, CURLOPT_TIMEOUT_MS,
		    (long)r->deadline_ms);
		h->n_requests++;
		t0 = now_ms();
		rc = curl_easy_perform(h->curl);
		r->elapsed_ms = now_ms() - t0;
		curl_easy_setopt(h->curl, CURLOPT_HTTPHEADER, NULL);
		curl_slist_free_all(hdrs);
		if (rc == CURLE_WRITE_ERROR && r->cut)
			rc = CURLE_OK;	/* its status is the answer */
		if (rc != CURLE_OK || r->a.status < 300 || r->a.status >= 400 ||
		    r->a.status == 304)
			break;
		loc = NULL;
		if (curl_easy_getinfo(h->curl, CURLINFO_REDIRECT_URL, &loc) !=
		    CURLE_OK || loc == NULL)
			break;		/* a 3xx without a place: an error */
		if (++hops > MAX_HOPS) {
			r->a.status = -1;
			break;
		}
		if (gguf_http_redirect_ok(cur, loc, r->scheme,
		    sizeof r->scheme) != 0) {
			r->a.status = -2;	/* not http, or https to http */
			break;
		}
		next = xstrdup(loc);
		free(cur);
		cur = next;
	}
	*where = cur;
	*hops_out = hops;
	return rc;
}

/* A 401/403 of a host that is not sent the token. */
static int
access_other(struct req *r, const char *host)
{
	char	*ep = gguf_url_shown(gguf_hf_endpoint());
	int	 rc;

	rc = gguf_errf(r->err, -1, "access denied (HTTP %ld) by %s, which "
	    "is not sent the token (only %s is)", r->a.status, host, ep);
	free(ep);
	return rc;
}

/* An HTTP status that is not the bytes asked for, as one line. */
static int
status_msg(struct gguf_http *h, const char *url, struct req *r)
{
	char	host[256], a[32];

	host_of(url, host, sizeof host);
	switch (r->a.status) {
	case -1:
		return gguf_errf(r->err, -1, "more than %d redirects",
		    MAX_HOPS);
	case -2:
		if (strcasecmp(r->scheme, "http") == 0)
			return gguf_errf(r->err, -1, "redirected from "
			    "https:// to http:// (refused)");
		return gguf_errf(r->err, -1, "redirected to a %s: URL "
		    "(refused: only http:// and https:// are followed)",
		    r->scheme);
	case 401:
	case 403:
		if (h->userinfo && strcmp(url, h->url) == 0)
			return gguf_errf(r->err, -1, "access denied (HTTP %ld):"
			    " the user name and password of the URL are "
			    "refused", r->a.status);
		if (h->token == NULL)
			return gguf_errf(r->err, -1, "access denied (HTTP %ld):"
			    " the file needs a token: set HF_TOKEN, or write "
			    "it to $HF_HOME/token (~/.cache/huggingface/token)",
			    r->a.status);
		if (h->origin != NULL) {
			char	*o = origin_of(url);
			int	 same = o != NULL && strcmp(o, h->origin) == 0;

			free(o);
			if (same)
				return gguf_errf(r->err, -1, "access denied "
				    "(HTTP %ld): the token of %s is refused",
				    r->a.status, h->token_from);
		}
		return access_other(r, host);
	case 404:
	case 410:
		return gguf_errf(r->err, -1, "%s (HTTP %ld)",
		    GGUF_HTTP_NOT_FOUND, r->a.status);
	case 416:
		return gguf_errf(r->err, -1, "the server has no bytes at "
		    "offset %s (HTTP 416)",
		    group(r->off + r->got, a, sizeof a));
	default:
		if (r->a.status >= 300 && r->a.status < 400)
			return gguf_errf(r->err, -1, "redirected (HTTP %ld) "
			    "without a place to go", r->a.status);
		return gguf_errf(r->err, -1, "the server %s answered HTTP "
		    "%ld", host, r->a.status);
	}
}

/*
 * Fetches r's range with retries: 0 when all of it reached the sink (or
 * a conditional request was answered 304: r->a.status says so), the
 * sink's value if it stopped, -1 with r->err set.
 */
static int
fetch(struct gguf_http *h, struct req *r)
{
	CURLcode	 rc;
	char		*where;
	const char	*url;
	int		 try, hops, ret, refreshed = 0;
	uint64_t	 before;

	for (try = 0; ; ) {
		url = h->final != NULL ? h->final : h->url;
		before = r->got;
		rc = perform(h, url, r, &where, &hops);
		if (r->sink_rc != 0) {
			free(where);
			return r->sink_rc;
		}
		if (r->failed) {
			free(where);
			return -1;
		}
		if (rc == CURLE_OK && r->a.status == 304 && r->cond == NULL) {
			char	host[256];

			free(where);
			return gguf_errf(r->err, -1, "the server %s answered "
			    "304 Not Modified to a request that was not "
			    "conditional", host_of(url, host, sizeof host));
		}
		if ((rc == CURLE_OK || rc == CURLE_WRITE_ERROR) &&
		    (r->done || r->got == r->len || r->a.status == 304)) {
			if (hops > 0 && r->a.status != 304) {
				free(h->final);
				h->final = where;
			} else
				free(where);
			return 0;
		}
		if (rc == CURLE_OK && (r->a.status == 206 ||
		    r->a.status == 200)) {
			/* the body ended early, the connection whole */
			char	a[32], b[32], c[32];

			ret = gguf_errf(r->err, -1, "the server sent %s bytes "
			    "of the %s asked for at offset %s",
			    group(r->got, a, sizeof a),
			    group(r->len, b, sizeof b),
			    group(r->off, c, sizeof c));
			free(where);
			return ret;
		}
		if (rc == CURLE_OK && h->final != NULL && !refreshed &&
		    (r->a.status == 401 || r->a.status == 403 ||
		    r->a.status == 404 || r->a.status == 410)) {
			/* a redirect's place expired: ask the origin again */
			free(h->final);
			h->final = NULL;
			refreshed = 1;
			free(where);
			continue;
		}
		if (r->a.status == 206 && r->got > before)
			try = 0;	/* progress: the tries start again */
		if (++try >= MAX_TRIES ||
		    (rc == CURLE_OK && r->a.status < 500 &&
		    r->a.status != 429) ||
		    (rc != CURLE_OK && !retriable(rc))) {
			if (rc != CURLE_OK)
				ret = curl_msg(h, where, rc, r);
			else if (r->a.status >= 500)
				ret = gguf_errf(r->err, -1, "the server failed "
				    "(HTTP %ld), %d times", r->a.status, try);
			else
				ret = status_msg(h, where, r);
			free(where);
			return ret;
		}
		free(where);
		wait_ms((long)FIRST_WAIT_MS << (try - 1));
	}
}

/* GGUFED_HTTP_MIN_RATE: bytes a second, 1 to 2^40; else the default. */
static uint64_t
min_rate_setting(void)
{
	const char		*s = getenv("GGUFED_HTTP_MIN_RATE");
	char			*end;
	unsigned long long	 v;

	if (s == NULL || *s < '0' || *s > '9')
		return DEFAULT_MIN_RATE;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0 || *end != '\0' || v < 1 || v > (1ULL << 40))
		return DEFAULT_MIN_RATE;
	return v;
}

static long
timeout_setting(void)
{
	const char	*s = getenv("GGUFED_HTTP_TIMEOUT");
	char		*end;
	long		 t;

	if (s == NULL || *s == '\0')
		return DEFAULT_TIMEOUT;
	errno = 0;
	t = strtol(s, &end, 10);
	if (errno != 0 || *end != '\0' || t < 1 || t > 3600)
		return DEFAULT_TIMEOUT;
	return t;
}

struct buf_sink {
	uint8_t		*p;
	size_t		 n;
};

static int
to_buf(void *arg, const uint8_t *p, size_t n)
{
	struct buf_sink	*b = arg;

	memcpy(b->p + b->n, p, n);
	b->n += n;
	return 0;
}

struct gguf_http *
gguf_http_open(const char *name, size_t len, const char *identity,
    uint64_t size, int *unchanged, struct gguf_err *err)
{
	struct gguf_http	*h;
	struct buf_sink		 b;
	struct req		 r;
	char			 cond[600];
	char			*url, *real;
	int			 userinfo = 0;

	if (unchanged != NULL)
		*unchanged = 0;
	if ((url = gguf_hf_resolve(name, err)) == NULL)
		return NULL;
	if ((real = gguf_url_unhide(url)) != NULL) {
		free(url);	/* the password hidden from messages */
		url = real;
		userinfo = 1;
	}
	if (global_get(err) != 0) {
		free(url);
		return NULL;
	}
	h = xcalloc(1, sizeof *h);
	pthread_mutex_init(&h->lock, NULL);
	pthread_mutex_init(&h->ra_lock, NULL);
	h->name = xstrdup(name);
	h->url = url;
	h->userinfo = userinfo;
	h->timeout = timeout_setting();
	h->min_rate = min_rate_setting();
	h->token = gguf_hf_token(&h->token_from);
	h->origin = origin_of(gguf_hf_endpoint());
	if ((h->curl = curl_easy_init()) == NULL) {
		gguf_http_close(h);
		gguf_errf(err, -1, "libcurl cannot start");
		return NULL;
	}
	curl_easy_setopt(h->curl, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h->curl, CURLOPT_ERRORBUFFER, h->errbuf);
	curl_easy_setopt(h->curl, CURLOPT_FOLLOWLOCATION, 0L);
#if LIBCURL_VERSION_NUM >= 0x075500
	curl_easy_setopt(h->curl, CURLOPT_PROTOCOLS_STR, "http,https");
#else
	curl_easy_setopt(h->curl, CURLOPT_PROTOCOLS,
	    (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
	curl_easy_setopt(h->curl, CURLOPT_USERAGENT, PACKAGE_NAME "/"
	    PACKAGE_VERSION);
	curl_easy_setopt(h->curl, CURLOPT_CONNECTTIMEOUT, h->timeout);
	curl_easy_setopt(h->curl, CURLOPT_LOW_SPEED_LIMIT, 1L);
	curl_easy_setopt(h->curl, CURLOPT_LOW_SPEED_TIME, h->timeout);
	curl_easy_setopt(h->curl, CURLOPT_TCP_KEEPALIVE, 1L);
	curl_easy_setopt(h->curl, CURLOPT_SSL_VERIFYPEER, 1L);
	curl_easy_setopt(h->curl, CURLOPT_SSL_VERIFYHOST, 2L);
	curl_easy_setopt(h->curl, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(h->curl, CURLOPT_WRITEFUNCTION, on_body);

	h->head = xmalloc(len > 0 ? len : 1);
	b.p = h->head;
	b.n = 0;
	memset(&r, 0, sizeof r);
	r.h = h;
	r.off = 0;
	r.len = len;
	r.sink = to_buf;
	r.arg = &b;
	r.err = err;
	if (identity != NULL && strncmp(identity, "etag:", 5) == 0) {
		snprintf(cond, sizeof cond, "If-None-Match: %s", identity + 5);
		r.cond = cond;
	} else if (identity != NULL && strncmp(identity, "lm:", 3) == 0) {
		snprintf(cond, sizeof cond, "If-Modified-Since: %s",
		    identity + 3);
		r.cond = cond;
	}
	if (len == 0) {
		gguf_errf(err, -1, "nothing to read");
		gguf_http_close(h);
		return NULL;
	}
	if (fetch(h, &r) != 0) {
		if (r.a.status == 416 && r.a.has_range == 2 &&
		    r.a.r_total == 0) {
			h->known = 1;	/* an empty file */
			h->size = 0;
			return h;
		}
		gguf_http_close(h);
		return NULL;
	}
	if (r.a.status == 304) {
		h->known = 1;
		h->size = size;
		snprintf(h->identity, sizeof h->identity, "%s", identity);
		if (strncmp(identity, "etag:", 5) == 0)
			snprintf(h->etag, sizeof h->etag, "%s", identity + 5);
		else
			snprintf(h->lastmod, sizeof h->lastmod, "%s",
			    identity + 3);
		if (unchanged != NULL)
			*unchanged = 1;
		h->cached = 1;
		return h;
	}
	h->head_len = b.n;
	return h;
}

void
gguf_http_close(struct gguf_http *h)
{
	if (h == NULL)
		return;
	if (h->curl != NULL)
		curl_easy_cleanup(h->curl);
	if (h->token != NULL) {
		explicit_bzero(h->token, strlen(h->token));
		free(h->token);
	}
	free(h->origin);
	free(h->name);
	free(h->url);
	free(h->final);
	free(h->head);
	free(h->ra);
	free(h->whole);
	pthread_mutex_destroy(&h->lock);
	pthread_mutex_destroy(&h->ra_lock);
	free(h);
	global_put();
}

const char *
gguf_http_name(const struct gguf_http *h)
{
	return h->name;
}

uint64_t
gguf_http_size(const struct gguf_http *h)
{
	return h->size;
}

const uint8_t *
gguf_http_head(const struct gguf_http *h, size_t *len)
{
	*len = h->head_len;
	return h->head;
}

const char *
gguf_http_identity(const struct gguf_http *h)
{
	return h->identity;
}

void
gguf_http_counts(const struct gguf_http *h, uint64_t *requests,
    uint64_t *bytes)
{
	*requests = h->n_requests;
	*bytes = h->n_bytes;
}

/*
 * A read of a server that ignores ranges: the first bytes of the file
 * (all of it up to GGUF_HTTP_NORANGE_MAX) downloaded in one request the
 * first time, then handed to sink from memory, so that no read starts
 * the body over again. h->lock held.
 */
static int
from_whole(struct gguf_http *h, uint64_t off, uint64_t len,
    gguf_http_sink sink, void *arg, struct gguf_err *err)
{
	struct buf_sink	b;
	struct req	r;
	size_t		n;
	int		rc;

	if (h->whole == NULL) {
		memset(&r, 0, sizeof r);
		r.h = h;
		r.len = h->size < GGUF_HTTP_NORANGE_MAX ? h->size :
		    GGUF_HTTP_NORANGE_MAX;
		b.p = xmalloc((size_t)r.len);
		b.n = 0;
		r.sink = to_buf;
		r.arg = &b;
		r.err = err;
		if ((rc = fetch(h, &r)) != 0) {
			free(b.p);
			return rc;
		}
		h->whole = b.p;
		h->whole_len = r.len;
	}
	while (len > 0) {
		n = len < ((size_t)1 << 20) ? (size_t)len : (size_t)1 << 20;
		if ((rc = sink(arg, h->whole + off, n)) != 0)
			return rc;
		off += n;
		len -= n;
	}
	return 0;
}

int
gguf_http_stream(struct gguf_http *h, uint64_t off, uint64_t len,
    gguf_http_sink sink, void *arg, struct gguf_err *err)
{
	struct req	r;
	char		a[32], b[32];
	int		rc;

	if (len == 0)
		return 0;
	if (off > h->size || len > h->size - off)
		return gguf_errf(err, -1, "bytes %s to %s lie past the end of "
		    "the file", group(off, a, sizeof a),
		    group(off + len, b, sizeof b));
	if (h->norange && off + len > GGUF_HTTP_NORANGE_MAX)
		return norange_msg(err, off, off + len, h->size);
	pthread_mutex_lock(&h->lock);
	if (h->norange) {
		rc = from_whole(h, off, len, sink, arg, err);
		pthread_mutex_unlock(&h->lock);
		return rc;
	}
	memset(&r, 0, sizeof r);
	r.h = h;
	r.off = off;
	r.len = len;
	r.sink = sink;
	r.arg = arg;
	r.err = err;
	rc = fetch(h, &r);
	pthread_mutex_unlock(&h->lock);
	return rc;
}

int
gguf_http_read(struct gguf_http *h, uint64_t off, void *buf, size_t len,
    struct gguf_err *err)
{
	struct buf_sink	b;

	b.p = buf;
	b.n = 0;
	return gguf_http_stream(h, off, len, to_buf, &b, err);
}

int
gguf_http_changed(const struct gguf_http *h)
{
	return h->changed;
}

int
gguf_http_cached(const struct gguf_http *h)
{
	return h->cached;
}

/* ------------------------------------------------------ the http source */

/* A one-line error of the handle as the source's, of the kind it is. */
static int
src_err(struct gguf_srcerr *e, const struct gguf_err *err, int kind)
{
	if (strncmp(err->msg, "changed on the server", 21) == 0)
		kind = GGUF_SRCE_CHANGED;
	else if (strncmp(err->msg, "the server sent ", 16) == 0)
		kind = GGUF_SRCE_SHORT;
	return gguf_srcerr_set(e, kind, -1, "%s", err->msg);
}

/*
 * A read inside the stretch announced to be read in order, served from
 * (and refilling) the read-ahead buffer, so that a run of small reads
 * costs a request of READ_AHEAD bytes, not one each: 0 if served; 1 if
 * not a read for it (nothing done); -1 with e set.
 */
static int
read_ahead(struct gguf_http *h, uint64_t off, void *buf, size_t len,
    struct gguf_srcerr *e)
{
	struct gguf_err	err;
	uint64_t	n;
	int		rc = 0;

	if (len >= READ_AHEAD)
		return 1;
	pthread_mutex_lock(&h->ra_lock);
	if (off < h->seq_from || off + len > h->seq_to) {
		pthread_mutex_unlock(&h->ra_lock);
		return 1;
	}
	if (off < h->ra_off || off + len > h->ra_off + h->ra_len) {
		n = h->seq_to - off < READ_AHEAD ? h->seq_to - off :
		    READ_AHEAD;
		if (h->ra == NULL)
			h->ra = xmalloc(READ_AHEAD);
		h->ra_len = 0;
		memset(&err, 0, sizeof err);
		if (gguf_http_read(h, off, h->ra, (size_t)n, &err) != 0)
			rc = src_err(e, &err, GGUF_SRCE_IO);
		else {
			h->ra_off = off;
			h->ra_len = n;
		}
	}
	if (rc == 0)
		memcpy(buf, h->ra + (off - h->ra_off), len);
	pthread_mutex_unlock(&h->ra_lock);
	return rc;
}

static void
hs_sequential(struct gguf_source *s, uint64_t off, uint64_t len)
{
	struct gguf_http	*h = s->impl;

	pthread_mutex_lock(&h->ra_lock);
	h->seq_from = off;
	h->seq_to = len < s->size - off ? off + len : s->size;
	pthread_mutex_unlock(&h->ra_lock);
}

static int
hs_read(struct gguf_source *s, uint64_t off, void *buf, size_t len,
    struct gguf_srcerr *e)
{
	struct gguf_err	 err;
	const uint8_t	*head;
	size_t		 n, k;
	int		 rc;

	/* The first range, read at the open, is not asked for again. */
	head = gguf_http_head(s->impl, &n);
	if (off < n) {
		k = len < n - off ? len : n - (size_t)off;
		memcpy(buf, head + off, k);
		buf = (uint8_t *)buf + k;
		off += k;
		len -= k;
		if (len == 0)
			return 0;
	}
	if ((rc = read_ahead(s->impl, off, buf, len, e)) <= 0)
		return rc;
	memset(&err, 0, sizeof err);
	if (gguf_http_read(s->impl, off, buf, len, &err) != 0)
		return src_err(e, &err, GGUF_SRCE_IO);
	return 0;
}

static const uint8_t *
hs_map(struct gguf_source *s, struct gguf_srcerr *e)
{
	(void)s;
	gguf_srcerr_set(e, GGUF_SRCE_NOMAP, -1, "a file on a server is not "
	    "mapped: read it");
	return NULL;
}

static int
hs_changed(struct gguf_source *s, unsigned how, struct gguf_srcerr *e)
{
	(void)how;
	if (!gguf_http_changed(s->impl))
		return 0;
	gguf_srcerr_set(e, GGUF_SRCE_CHANGED, -1, "its size, ETag or date is "
	    "not the one it was opened with");
	return 1;
}

static void
hs_identity(struct gguf_source *s, char *buf, size_t len)
{
	struct gguf_http	*h = s->impl;

	snprintf(buf, len, "%s %llu", h->identity[0] != '\0' ? h->identity :
	    "-", (unsigned long long)h->size);
}

struct hs_copy {
	int			 fd;
	uint64_t		 at;		/* where the next byte goes */
	uint64_t		 done, total;
	gguf_source_progress	 fn;
	void			*parg;
	int			 werr;		/* errno of a failed write */
	int			 cancel;
};

static int
hs_put(void *arg, const uint8_t *p, size_t n)
{
	struct hs_copy	*c = arg;
	ssize_t		 w;

	while (n > 0) {
		w = pwrite(c->fd, p, n, (off_t)c->at);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			c->werr = w < 0 ? errno : EIO;
			return 1;
		}
		p += w;
		n -= (size_t)w;
		c->at += (uint64_t)w;
		c->done += (uint64_t)w;
	}
	if (c->fn != NULL && c->fn(c->parg, c->done, c->total) != 0) {
		c->cancel = 1;
		return 1;
	}
	return 0;
}

static int
hs_copy(struct gguf_source *s, uint64_t off, uint64_t len, int fd,
    uint64_t fdoff, gguf_source_progress fn, void *parg,
    struct gguf_srcerr *e)
{
	struct hs_copy	c;
	struct gguf_err	err;
	int		rc;

	memset(&c, 0, sizeof c);
	memset(&err, 0, sizeof err);
	c.fd = fd;
	c.at = fdoff;
	c.total = len;
	c.fn = fn;
	c.parg = parg;
	rc = gguf_http_stream(s->impl, off, len, hs_put, &c, &err);
	if (rc == 0)
		return 0;
	if (c.cancel)
		return gguf_srcerr_set(e, GGUF_SRCE_CANCEL, -1, "cancelled");
	if (c.werr != 0)
		return gguf_srcerr_set(e, GGUF_SRCE_IO, -1, "write: %s",
		    strerror(c.werr));
	/* said of the file written to: the URL is named */
	src_err(e, &err, GGUF_SRCE_IO);
	return gguf_srcerr_set(e, e != NULL ? e->kind : GGUF_SRCE_IO, -1,
	    "%s: %s", s->name, err.msg);
}

static void
hs_close(struct gguf_source *s)
{
	gguf_http_close(s->impl);
}

static const struct gguf_source_ops http_ops = {
	.kind = "http",
	.word = "changed on the server",
	.read = hs_read,
	.map = hs_map,
	.changed = hs_changed,
	.identity = hs_identity,
	.sequential = hs_sequential,
	.copy = hs_copy,
	.close = hs_close
};

struct gguf_source *
gguf_source_http(const char *name, size_t len, const char *identity,
    uint64_t size, int *unchanged, struct gguf_srcerr *e)
{
	struct gguf_source	*s;
	struct gguf_http	*h;
	struct gguf_err		 err;

	memset(&err, 0, sizeof err);
	if ((h = gguf_http_open(name, len, identity, size, unchanged,
	    &err)) == NULL) {
		gguf_srcerr_set(e, GGUF_SRCE_OPEN, -1, "%s", err.msg);
		return NULL;
	}
	s = xcalloc(1, sizeof *s);
	s->ops = &http_ops;
	s->size = h->size;
	s->name = xstrdup(name);
	s->mappable = 0;
	s->impl = h;
	return s;
}

struct gguf_http *
gguf_source_http_handle(const struct gguf_source *s)
{
	return s->ops == &http_ops ? s->impl : NULL;
}

#endif /* HAVE_CURL */
