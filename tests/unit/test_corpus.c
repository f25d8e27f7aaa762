/*
 * test_corpus.c - the C renderer against Python's jinja2 over the corpus of
 * real chat templates in tests/template (README.md there says what the
 * files are and how expected/ was made).
 *
 * One test point per template and conversation. A pair listed in
 * known-differences is a TODO point: its failure is expected (XFAIL) and
 * its success fails the run (XPASS), so a fixed pair must leave the list.
 * The last lines say how many pairs and templates render identically.
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jinja/jinja.h"
#include "tap.h"

/* The time strftime_now formats, in UTC: the generator's NOW. */
#define CORPUS_NOW 1753000000LL

struct known {
	char	*pair;		/* NAME.CONV */
	char	*why;
	int	 seen;
};

/* A path into buf (PATH_LEN bytes); one too long ends the test. */
#define PATH_LEN	4096
static char *mkpath(char *, const char *, ...)
    __attribute__((format(printf, 2, 3)));

static char *
mkpath(char *buf, const char *fmt, ...)
{
	va_list	ap;
	int	n;

	va_start(ap, fmt);
	n = vsnprintf(buf, PATH_LEN, fmt, ap);
	va_end(ap);
	if (n < 0 || n >= PATH_LEN) {
		printf("Bail out! a path longer than %d bytes\n", PATH_LEN);
		exit(1);
	}
	return buf;
}

static char *
slurp(const char *path, size_t *n)
{
	FILE	*f = fopen(path, "rb");
	char	*buf = NULL;
	size_t	 len = 0, cap = 0, got;

	if (f == NULL)
		return NULL;
	for (;;) {
		if (cap - len < 4096) {
			cap = cap ? cap * 2 : 8192;
			buf = realloc(buf, cap + 1);
			if (buf == NULL)
				abort();
		}
		got = fread(buf + len, 1, cap - len, f);
		len += got;
		if (got == 0)
			break;
	}
	fclose(f);
	buf[len] = '\0';
	if (n != NULL)
		*n = len;
	return buf;
}

static int
cmpstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in dir ending in ext, without it, sorted. */
static char **
list(const char *dir, const char *ext, size_t *count)
{
	DIR		*d = opendir(dir);
	struct dirent	*e;
	char		**v = NULL;
	size_t		 n = 0, el = strlen(ext);

	if (d == NULL) {
		printf("Bail out! %s: %s\n", dir, strerror(errno));
		exit(1);
	}
	while ((e = readdir(d)) != NULL) {
		size_t	l = strlen(e->d_name);

		if (l <= el || strcmp(e->d_name + l - el, ext) != 0)
			continue;
		v = realloc(v, (n + 1) * sizeof *v);
		if (v == NULL || (v[n] = strndup(e->d_name, l - el)) == NULL)
			abort();
		n++;
	}
	closedir(d);
	qsort(v, n, sizeof *v, cmpstr);
	*count = n;
	return v;
}

static struct known *
read_known(const char *path, size_t *count)
{
	char		*text = slurp(path, NULL), *line, *save = NULL;
	struct known	*k = NULL;
	size_t		 n = 0;

	*count = 0;
	if (text == NULL)
		return NULL;
	for (line = strtok_r(text, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		char	*sp;

		if (*line == '#' || *line == '\0')
			continue;
		sp = strchr(line, ' ');
		k = realloc(k, (n + 1) * sizeof *k);
		if (k == NULL)
			abort();
		k[n].pair = strndup(line, sp ? (size_t)(sp - line) : strlen(line));
		k[n].why = strdup(sp ? sp + 1 : "");
		k[n].seen = 0;
		if (k[n].why[0] == '\0') {
			printf("Bail out! %s: %s has no reason\n", path, k[n].pair);
			exit(1);
		}
		n++;
	}
	free(text);
	*count = n;
	return k;
}

/* Where two renderings part, shown with a little context. */
static void
show_difference(const char *got, size_t gn, const char *want, size_t wn)
{
	size_t	i = 0, from;

	while (i < gn && i < wn && got[i] == want[i])
		i++;
	from = i > 40 ? i - 40 : 0;
	diag("first difference at byte %zu (got %zu bytes, want %zu)", i, gn, wn);
	diag("  got:  %.*s", (int)((gn - from) < 120 ? gn - from : 120), got + from);
	diag("  want: %.*s", (int)((wn - from) < 120 ? wn - from : 120), want + from);
}

/*
 * 1 when the C renderer gives what jinja2 gave for this pair; says why not
 * otherwise (quiet: the pair is a known difference, shown only briefly).
 */
static int
check_pair(const char *root, const char *name, const struct jinja *t,
    const struct jinja_error *perr, const char *conv)
{
	char			 path[PATH_LEN], *want, *ctxtext, *out = NULL;
	size_t			 wn, cn, on = 0;
	int			 want_err = 0, rc, good;
	struct jinja_error	 err;
	jv			*ctx;
	char			 jerr[256];

	mkpath(path, "%s/expected/%s.%s.txt", root, name, conv);
	want = slurp(path, &wn);
	if (want == NULL) {
		mkpath(path, "%s/expected/%s.%s.err", root,
		    name, conv);
		want = slurp(path, &wn);
		want_err = 1;
	}
	if (want == NULL) {
		diag("no expected/%s.%s.txt nor .err", name, conv);
		return 0;
	}
	if (t == NULL) {
		good = want_err && strncmp(want, "error: ", 7) == 0;
		if (!good)
			diag("%s.jinja:%u:%u: %s", name, perr->line, perr->col,
			    perr->msg);
		free(want);
		return good;
	}
	mkpath(path, "%s/conv/%s.json", root, conv);
	ctxtext = slurp(path, &cn);
	if (ctxtext == NULL || (ctx = jv_parse_json(ctxtext, cn, jerr,
	    sizeof jerr)) == NULL) {
		printf("Bail out! %s: %s\n", path, ctxtext ? jerr :
		    strerror(errno));
		exit(1);
	}
	free(ctxtext);
	memset(&err, 0, sizeof err);
	rc = jinja_render(t, ctx, NULL, CORPUS_NOW, &out, &on, &err);
	jv_unref(ctx);
	if (!want_err) {
		good = rc == 0 && on == wn && memcmp(out, want, wn) == 0;
		if (rc != 0)
			diag("%s.jinja:%u:%u: %s%s", name, err.line, err.col,
			    err.raised ? "raise_exception: " : "", err.msg);
		else if (!good)
			show_difference(out, on, want, wn);
	} else if (strncmp(want, "raise: ", 7) == 0) {
		size_t	ml = wn - 7;

		if (ml > 0 && want[7 + ml - 1] == '\n')
			ml--;
		good = rc != 0 && err.raised && strlen(err.msg) == ml &&
		    memcmp(err.msg, want + 7, ml) == 0;
		if (!good)
			diag("want %.*s; got %s%s", (int)(wn - 1), want,
			    rc == 0 ? "a rendering" : err.msg,
			    rc != 0 && !err.raised ? " (not raised)" : "");
	} else {
		good = rc != 0;
		if (!good)
			diag("want an error (%.*s), got a rendering",
			    (int)(wn - 1), want);
	}
	free(out);
	free(want);
	return good;
}

int
main(void)
{
	const char	*src = getenv("TESTS_SRCDIR");
	char		 root[PATH_LEN], path[PATH_LEN];
	char		**names, **convs;
	size_t		 nn, nc, nk, i, j, k, pairs_ok = 0, tmpl_ok = 0;
	struct known	*known;

	mkpath(root, "%s/template", src ? src : "tests");
	setenv("TZ", "UTC", 1);
	tzset();
	names = list(root, ".jinja", &nn);
	mkpath(path, "%s/conv", root);
	convs = list(path, ".json", &nc);
	mkpath(path, "%s/known-differences", root);
	known = read_known(path, &nk);

	for (i = 0; i < nn; i++) {
		struct jinja		*t;
		struct jinja_error	 perr;
		char			*text;
		size_t			 tn, all = 1;

		mkpath(path, "%s/%s.jinja", root, names[i]);
		if ((text = slurp(path, &tn)) == NULL) {
			printf("Bail out! %s: %s\n", path, strerror(errno));
			return 1;
		}
		memset(&perr, 0, sizeof perr);
		t = jinja_parse(text, tn, &perr);
		free(text);
		for (j = 0; j < nc; j++) {
			char		 pair[512];
			struct known	*kn = NULL;
			int		 good;

			snprintf(pair, sizeof pair, "%s.%s", names[i], convs[j]);
			for (k = 0; k < nk; k++)
				if (strcmp(known[k].pair, pair) == 0)
					kn = &known[k];
			good = check_pair(root, names[i], t, &perr, convs[j]);
			pairs_ok += good;
			all &= good;
			if (kn != NULL) {
				kn->seen = 1;
				printf("%sok %d - %s # TODO %s\n", good ? "" :
				    "not ", ++tap_n, pair, kn->why);
			} else
				ok(good, "%s", pair);
		}
		tmpl_ok += all;
		if (t != NULL)
			jinja_free(t);
	}
	for (k = 0; k < nk; k++)
		ok(known[k].seen, "known-differences: %s is a pair of the corpus",
		    known[k].pair);
	diag("%zu of %zu renderings identical to jinja2's; %zu of %zu templates "
	    "identical with every conversation", pairs_ok, nn * nc, tmpl_ok, nn);
	for (i = 0; i < nn; i++)
		free(names[i]);
	free(names);
	for (j = 0; j < nc; j++)
		free(convs[j]);
	free(convs);
	for (k = 0; k < nk; k++) {
		free(known[k].pair);
		free(known[k].why);
	}
	free(known);
	return tap_done();
}
