/*
 * hf.c - names of files on the Hugging Face Hub, and its token.
 *
 * hf://OWNER/REPO/FILE[@REVISION] is the file the Hub serves at
 * {endpoint}/OWNER/REPO/resolve/{REVISION or main}/FILE, the endpoint
 * being HF_ENDPOINT or https://huggingface.co, as huggingface_hub has
 * it. The token is HF_TOKEN, else the first line of $HF_HOME/token
 * (HF_HOME defaulting to ~/.cache/huggingface), again as huggingface_hub
 * reads it.
 */
#include "config.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "err.h"
#include "hf.h"
#include "http.h"
#include "xmalloc.h"

#define HF_DEFAULT_ENDPOINT	"https://huggingface.co"

int
gguf_is_url(const char *name)
{
	return strncasecmp(name, "http://", 7) == 0 ||
	    strncasecmp(name, "https://", 8) == 0 ||
	    strncasecmp(name, "hf://", 5) == 0;
}

const char *
gguf_hf_endpoint(void)
{
	const char	*e = getenv("HF_ENDPOINT");

	return e != NULL && *e != '\0' ? e : HF_DEFAULT_ENDPOINT;
}

/* Appends n bytes of s to buf (at *at, of size len), percent-encoding
   every byte outside RFC 3986's unreserved set but those in keep. */
static void
put_enc(char *buf, size_t len, size_t *at, const char *s, size_t n,
    const char *keep)
{
	static const char	hex[] = "0123456789ABCDEF";
	unsigned char		c;
	size_t			i;

	for (i = 0; i < n; i++) {
		c = (unsigned char)s[i];
		if (isalnum(c) || strchr("-._~", c) != NULL ||
		    (c != '\0' && strchr(keep, c) != NULL)) {
			if (*at + 1 < len)
				buf[(*at)++] = (char)c;
		} else if (*at + 3 < len) {
			buf[(*at)++] = '%';
			buf[(*at)++] = hex[c >> 4];
			buf[(*at)++] = hex[c & 15];
		}
	}
	buf[*at] = '\0';
}

/* True if the n bytes at p hold a path segment "." or ".." or nothing. */
static int
bad_segment(const char *p, size_t n)
{
	return n == 0 || (n == 1 && p[0] == '.') ||
	    (n == 2 && p[0] == '.' && p[1] == '.');
}

char *
gguf_hf_resolve(const char *name, struct gguf_err *err)
{
	const char	*p, *owner, *repo, *file, *at, *seg, *ep;
	size_t		 n_owner, n_repo, n_file, len, o;
	char		*url;

	if (strncasecmp(name, "hf://", 5) != 0)
		return xstrdup(name);
	p = name + 5;
	owner = p;
	if ((p = strchr(owner, '/')) == NULL)
		goto usage;
	n_owner = (size_t)(p - owner);
	repo = p + 1;
	if ((p = strchr(repo, '/')) == NULL)
		goto usage;
	n_repo = (size_t)(p - repo);
	file = p + 1;
	at = strrchr(file, '@');
	n_file = at != NULL ? (size_t)(at - file) : strlen(file);
	if (bad_segment(owner, n_owner) || bad_segment(repo, n_repo) ||
	    n_file == 0 || (at != NULL && at[1] == '\0'))
		goto usage;
	for (seg = file; seg < file + n_file; seg = p + 1) {
		p = memchr(seg, '/', (size_t)(file + n_file - seg));
		if (p == NULL)
			p = file + n_file;
		if (bad_segment(seg, (size_t)(p - seg)))
			goto usage;
	}
	ep = gguf_hf_endpoint();
	if (strncasecmp(ep, "http://", 7) != 0 &&
	    strncasecmp(ep, "https://", 8) != 0) {
		gguf_errf(err, -1, "HF_ENDPOINT is not an http:// or "
		    "https:// URL");
		return NULL;
	}
	len = strlen(ep) + 3 * (strlen(name) + 16) + 32;
	url = xmalloc(len);
	o = 0;
	put_enc(url, len, &o, ep, strlen(ep), ":/?#[]@!$&'()*+,;=%");
	while (o > 0 && url[o - 1] == '/')
		url[--o] = '\0';
	put_enc(url, len, &o, "/", 1, "/");
	put_enc(url, len, &o, owner, n_owner, "");
	put_enc(url, len, &o, "/", 1, "/");
	put_enc(url, len, &o, repo, n_repo, "");
	put_enc(url, len, &o, "/resolve/", 9, "/");
	if (at != NULL)
		put_enc(url, len, &o, at + 1, strlen(at + 1), "");
	else
		put_enc(url, len, &o, "main", 4, "");
	put_enc(url, len, &o, "/", 1, "/");
	put_enc(url, len, &o, file, n_file, "/");
	return url;
usage:
	gguf_errf(err, -1, "not a Hub file name: hf://OWNER/REPO/FILE or "
	    "hf://OWNER/REPO/FILE@REVISION");
	return NULL;
}

char *
gguf_hf_tree(const char *repo, const char *folder, struct gguf_err *err)
{
	const char	*owner, *name, *at, *ep;
	size_t		 n_owner, n_repo, len, o;
	char		*url;

	if (strncasecmp(repo, "hf://", 5) != 0)
		goto usage;
	owner = repo + 5;
	if ((name = strchr(owner, '/')) == NULL)
		goto usage;
	n_owner = (size_t)(name - owner);
	name++;
	at = strchr(name, '@');
	n_repo = at != NULL ? (size_t)(at - name) : strlen(name);
	while (n_repo > 0 && name[n_repo - 1] == '/')
		n_repo--;
	if (bad_segment(owner, n_owner) || bad_segment(name, n_repo) ||
	    memchr(name, '/', n_repo) != NULL || (at != NULL && at[1] == '\0'))
		goto usage;
	ep = gguf_hf_endpoint();
	if (strncasecmp(ep, "http://", 7) != 0 &&
	    strncasecmp(ep, "https://", 8) != 0) {
		gguf_errf(err, -1, "HF_ENDPOINT is not an http:// or "
		    "https:// URL");
		return NULL;
	}
	len = strlen(ep) + 3 * (strlen(repo) + strlen(folder) + 16) + 64;
	url = xmalloc(len);
	o = 0;
	put_enc(url, len, &o, ep, strlen(ep), ":/?#[]@!$&'()*+,;=%");
	while (o > 0 && url[o - 1] == '/')
		url[--o] = '\0';
	put_enc(url, len, &o, "/api/models/", 12, "/");
	put_enc(url, len, &o, owner, n_owner, "");
	put_enc(url, len, &o, "/", 1, "/");
	put_enc(url, len, &o, name, n_repo, "");
	put_enc(url, len, &o, "/tree/", 6, "/");
	if (at != NULL)
		put_enc(url, len, &o, at + 1, strlen(at + 1), "");
	else
		put_enc(url, len, &o, "main", 4, "");
	put_enc(url, len, &o, "/", 1, "/");
	put_enc(url, len, &o, folder, strlen(folder), "/");
	return url;
usage:
	gguf_errf(err, -1, "not a Hub repository: hf://OWNER/REPO or "
	    "hf://OWNER/REPO@REVISION");
	return NULL;
}

int
gguf_hf_at_revision(const char *name)
{
	return strncasecmp(name, "hf://", 5) == 0 && strchr(name, '@') != NULL;
}

char *
gguf_hf_token(const char *what[1])
{
	const char	*t = getenv("HF_TOKEN"), *home, *hf;
	char		 path[4096], line[1024];
	size_t		 n;
	FILE		*fp;

	if (t != NULL && *t != '\0') {
		*what = "HF_TOKEN";
		return xstrdup(t);
	}
	*what = NULL;
	hf = getenv("HF_HOME");
	if (hf != NULL && *hf != '\0')
		n = (size_t)snprintf(path, sizeof path, "%s/token", hf);
	else if ((home = getenv("HOME")) != NULL && *home != '\0')
		n = (size_t)snprintf(path, sizeof path,
		    "%s/.cache/huggingface/token", home);
	else
		return NULL;
	if (n >= sizeof path || (fp = fopen(path, "re")) == NULL)
		return NULL;
	if (fgets(line, sizeof line, fp) == NULL) {
		fclose(fp);
		return NULL;
	}
	fclose(fp);
	n = strlen(line);
	while (n > 0 && isspace((unsigned char)line[n - 1]))
		line[--n] = '\0';
	if (n == 0)
		return NULL;
	*what = "the token file";
	return xstrdup(line);
}

/*
 * The passwords hidden from names: a URL's user:password@ is shown as
 * user:***@ wherever the name is printed, and the password is put back
 * only in what is sent to that same scheme, user, host and port. Each
 * URL given keeps its own password: a URL so hidden gets the password of
 * the URL given that it shares the longest start with (itself, or the
 * shard or the file of a folder named after it), the last one given
 * when two are alike.
 */
struct hidden {
	char	*key;		/* scheme://user@host:port, as given */
	char	*shown;		/* the URL given, its password as *** */
	char	*password;
};
static struct hidden	*hidden;
static size_t		 n_hidden;
static pthread_mutex_t	 hidden_lock = PTHREAD_MUTEX_INITIALIZER;

/*
 * Splits url's authority: *user (n_user bytes) and *pass (n_pass) of
 * its userinfo, *host the rest up to the path. The userinfo ends at the
 * authority's last @ (a password, or a user name, may hold one), and the
 * user name at the first colon. 0, or -1 if url has no user:password@.
 */
static int
split_userinfo(const char *url, const char **user, size_t *n_user,
    const char **pass, size_t *n_pass, const char **host)
{
	const char	*a, *at, *colon;
	size_t		 n;

	if ((a = strstr(url, "://")) == NULL)
		return -1;
	a += 3;
	n = strcspn(a, "/?#");
	at = NULL;
	for (colon = a; colon < a + n; colon++)
		if (*colon == '@')
			at = colon;	/* the last one */
	if (at == NULL || (colon = memchr(a, ':', (size_t)(at - a))) == NULL)
		return -1;
	*user = a;
	*n_user = (size_t)(colon - a);
	*pass = colon + 1;
	*n_pass = (size_t)(at - colon - 1);
	*host = at + 1;
	return 0;
}

/* "scheme://user@host:port" of url's parts, allocated. */
static char *
hidden_key(const char *url, const char *user, size_t n_user,
    const char *host)
{
	size_t	n_scheme = (size_t)(user - url), n_host, len;
	char	*k;

	n_host = strcspn(host, "/?#");
	len = n_scheme + n_user + n_host + 2;
	k = xmalloc(len);
	snprintf(k, len, "%.*s%.*s@%.*s", (int)n_scheme, url, (int)n_user,
	    user, (int)n_host, host);
	return k;
}

/* url with pass_len bytes at pass replaced by with, allocated. */
static char *
replace_pass(const char *url, const char *pass, size_t pass_len,
    const char *with)
{
	size_t	len = strlen(url) - pass_len + strlen(with) + 1;
	char	*s = xmalloc(len);

	snprintf(s, len, "%.*s%s%s", (int)(pass - url), url, with,
	    pass + pass_len);
	return s;
}

char *
gguf_url_hide(const char *name)
{
	const char	*user, *pass, *host;
	size_t		 n_user, n_pass, i;
	char		*key, *shown;

	if (!gguf_is_url(name) || split_userinfo(name, &user, &n_user,
	    &pass, &n_pass, &host) != 0 || n_pass == 0 ||
	    (n_pass == 3 && strncmp(pass, "***", 3) == 0))
		return NULL;
	key = hidden_key(name, user, n_user, host);
	shown = replace_pass(name, pass, n_pass, "***");
	pthread_mutex_lock(&hidden_lock);
	for (i = 0; i < n_hidden; i++)
		if (strcmp(hidden[i].shown, shown) == 0)
			break;
	if (i == n_hidden) {
		hidden = xreallocarray(hidden, n_hidden + 1, sizeof *hidden);
		hidden[n_hidden].key = key;
		hidden[n_hidden++].shown = xstrdup(shown);
	} else {
		free(key);
		explicit_bzero(hidden[i].password, strlen(hidden[i].password));
		free(hidden[i].password);
	}
	hidden[i].password = xmalloc(n_pass + 1);
	memcpy(hidden[i].password, pass, n_pass);
	hidden[i].password[n_pass] = '\0';
	pthread_mutex_unlock(&hidden_lock);
	return shown;
}

void
gguf_url_wipe(char *name)
{
	const char	*user, *pass, *host;
	size_t		 n_user, n_pass;

	if (gguf_is_url(name) && split_userinfo(name, &user, &n_user, &pass,
	    &n_pass, &host) == 0)
		memset(name + (pass - name), '*', n_pass);
}

/* How many bytes a and b begin with alike. */
static size_t
common(const char *a, const char *b)
{
	size_t	n = 0;

	while (a[n] != '\0' && a[n] == b[n])
		n++;
	return n;
}

char *
gguf_url_unhide(const char *url)
{
	const char	*user, *pass, *host, *pw = NULL;
	size_t		 n_user, n_pass, i, best = 0, n, len, o;
	char		*key, *s = NULL;
	int		 found = 0;

	if (split_userinfo(url, &user, &n_user, &pass, &n_pass, &host) != 0 ||
	    n_pass != 3 || strncmp(pass, "***", 3) != 0)
		return NULL;
	key = hidden_key(url, user, n_user, host);
	pthread_mutex_lock(&hidden_lock);
	for (i = 0; i < n_hidden; i++)
		if (strcasecmp(hidden[i].key, key) == 0 &&
		    (n = common(hidden[i].shown, url)) >= best) {
			best = n;
			found = 1;
			pw = hidden[i].password;
		}
	if (found) {
		/*
		 * An @ of the user name or the password as %40: libcurl
		 * takes the authority's first @ as the end of the userinfo.
		 */
		len = strlen(url) + 3 * (n_user + strlen(pw)) + 1;
		s = xmalloc(len);
		o = (size_t)(user - url);
		memcpy(s, url, o);
		for (i = 0; i < n_user; i++)
			o += (size_t)snprintf(s + o, len - o, user[i] == '@' ?
			    "%%40" : "%c", user[i]);
		s[o++] = ':';
		for (i = 0; pw[i] != '\0'; i++)
			o += (size_t)snprintf(s + o, len - o, pw[i] == '@' ?
			    "%%40" : "%c", pw[i]);
		snprintf(s + o, len - o, "%s", pass + n_pass);
	}
	pthread_mutex_unlock(&hidden_lock);
	free(key);
	return s;
}

char *
gguf_url_shown(const char *url)
{
	const char	*user, *pass, *host;
	size_t		 n_user, n_pass;

	if (split_userinfo(url, &user, &n_user, &pass, &n_pass, &host) != 0 ||
	    n_pass == 0)
		return xstrdup(url);
	return replace_pass(url, pass, n_pass, "***");
}
