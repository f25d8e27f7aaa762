/*
 * sync.c - `ggufed sync FILE --from DIR [-o OUT | -i] [--only KEY,...]
 * [--json]`: the model's metadata against its upstream repository's
 * files (sync/sync.h), key by key.
 *
 * Without -o or -i nothing is written: the report says, for each key that
 * differs, what the file holds, what upstream says and where, and what
 * the difference does to a user; the exit status is 0 when nothing
 * differs, 1 when something does (as diff(1)), 2 on trouble (a source
 * that cannot be read, a token text the vocabulary lacks, a usage error).
 *
 * With -o OUT or -i the differences that can be written (--only: those
 * named) are applied as edit commands through `ggufed edit`, the path of
 * every edit: each value checked, the model check's warnings, the save
 * and its proof. A shape hyper-parameter that differs means the folder is
 * not this model's: then nothing is written and the exit status is 2.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "sync/sync.h"

static struct gguf_val *
file_get(void *arg, const char *key)
{
	return gguf_kv_get(arg, key);
}

static int
file_has_tensor(void *arg, const char *name)
{
	return gguf_tensor_find(arg, name, strlen(name)) >= 0;
}

static const char *
kind_name(enum sync_kind k)
{
	switch (k) {
	case SYNC_TOKEN:
		return "token";
	case SYNC_TEMPLATE:
		return "template";
	case SYNC_HPARAM:
		return "hyper-parameter";
	case SYNC_SHAPE:
		return "shape";
	}
	return "?";
}

static void
print_text(const char *path, const char *from, const struct sync_report *r)
{
	const struct sync_diff	*d;
	const char		*p, *nl;
	size_t			 i;

	out_text(stdout, path, strlen(path));
	printf(": %zu difference%s with ", r->n, r->n == 1 ? "" : "s");
	out_text(stdout, from, strlen(from));
	if (r->arch != NULL)
		printf(" (%s)", r->arch);
	putchar('\n');
	for (i = 0; i < r->n; i++) {
		d = &r->diffs[i];
		fputs(d->edit != NULL ? "~ " : "! ", stdout);
		out_text(stdout, d->key, strlen(d->key));
		fputs(": ", stdout);
		out_text(stdout, d->file, strlen(d->file));
		fputs(", upstream ", stdout);
		out_text(stdout, d->upstream, strlen(d->upstream));
		fputs(" (", stdout);
		out_text(stdout, d->source, strlen(d->source));
		printf("): %s", d->effect);
		if (d->kind == SYNC_SHAPE)
			fputs(" [shape: never written]", stdout);
		else if (d->edit == NULL)
			fputs(" [report only]", stdout);
		putchar('\n');
		for (p = d->detail; p != NULL && *p != '\0'; p = nl + 1) {
			if ((nl = strchr(p, '\n')) == NULL)
				nl = p + strlen(p);
			fputs("    ", stdout);
			out_text(stdout, p, (size_t)(nl - p));
			putchar('\n');
			if (*nl == '\0')
				break;
		}
	}
	for (i = 0; i < r->n_notes; i++) {
		fputs("note: ", stdout);
		out_text(stdout, r->notes[i], strlen(r->notes[i]));
		putchar('\n');
	}
}

static void
print_json(const char *path, const char *from, const struct sync_report *r)
{
	const struct sync_diff	*d;
	struct json		 j;
	size_t			 i;

	json_init(&j, stdout);
	json_obj(&j, JSON_LINES);
	json_key(&j, "file");
	json_str(&j, path, strlen(path));
	json_key(&j, "source");
	json_str(&j, from, strlen(from));
	json_key(&j, "architecture");
	if (r->arch != NULL)
		json_cstr(&j, r->arch);
	else
		json_null(&j);
	json_key(&j, "shape_mismatch");
	json_bool(&j, r->shape_mismatch);
	json_key(&j, "differences");
	json_arr(&j, JSON_LINES);
	for (i = 0; i < r->n; i++) {
		d = &r->diffs[i];
		json_obj(&j, JSON_FLAT);
		json_key(&j, "key");
		json_str(&j, d->key, strlen(d->key));
		json_key(&j, "kind");
		json_cstr(&j, kind_name(d->kind));
		json_key(&j, "file");
		json_str(&j, d->file, strlen(d->file));
		json_key(&j, "upstream");
		json_str(&j, d->upstream, strlen(d->upstream));
		json_key(&j, "source");
		json_str(&j, d->source, strlen(d->source));
		json_key(&j, "effect");
		json_cstr(&j, d->effect);
		json_key(&j, "writable");
		json_bool(&j, d->edit != NULL);
		json_key(&j, "selected");
		json_bool(&j, d->selected);
		if (d->detail != NULL) {
			json_key(&j, "detail");
			json_str(&j, d->detail, strlen(d->detail));
		}
		json_end(&j);
	}
	json_end(&j);
	json_key(&j, "notes");
	json_arr(&j, JSON_LINES);
	for (i = 0; i < r->n_notes; i++)
		json_str(&j, r->notes[i], strlen(r->notes[i]));
	json_end(&j);
	json_end(&j);
	json_finish(&j);
}

/*
 * The selected differences applied as `ggufed edit FILE (-i | -o OUT)
 * -e CMD...`: its exit status. The templates go last: what their check
 * warns of (a template that writes the BOS token while add_bos_token is
 * true) is then said of the result, every other key already as the sync
 * leaves it; and no message names a -e the user never gave.
 */
static int
apply(const char *path, const char *out, int inplace,
    const struct sync_report *r)
{
	char	**av;
	size_t	  i, n = 0;
	int	  rc, last;

	av = xcalloc(r->n * 2 + 6, sizeof *av);
	av[n++] = xstrdup("edit");
	av[n++] = xstrdup(path);
	av[n++] = xstrdup(inplace ? "-i" : "-o");
	if (!inplace)
		av[n++] = xstrdup(out);
	for (last = 0; last < 2; last++)
		for (i = 0; i < r->n; i++)
			if (r->diffs[i].selected && r->diffs[i].edit != NULL &&
			    (r->diffs[i].kind == SYNC_TEMPLATE) == last) {
				av[n++] = xstrdup("-e");
				av[n++] = xstrdup(r->diffs[i].edit);
			}
	cli_edit_own_steps = 1;
	rc = cmd_edit((int)n, av);
	cli_edit_own_steps = 0;
	for (i = 0; i < n; i++)
		free(av[i]);
	free(av);
	return rc;
}

int
cmd_sync(int argc, char **argv)
{
	struct sync_report	 r;
	struct sync_model	 m;
	struct gguf_file	*f;
	const char		*path = NULL, *from = NULL, *out = NULL;
	const char		*only = NULL, *a;
	char			 msg[1024];
	int			 i, inplace = 0, json = 0, rc;
	size_t			 k, n;

	for (i = 1; i < argc; i++) {
		a = argv[i];
		if (strcmp(a, "--from") == 0 || strcmp(a, "-o") == 0 ||
		    strcmp(a, "--output") == 0 || strcmp(a, "--only") == 0) {
			if (++i == argc) {
				cli_usage_error("sync", "option '%s' needs an "
				    "argument", a);
				return EXIT_USAGE;
			}
			if (strcmp(a, "--from") == 0)
				from = argv[i];
			else if (strcmp(a, "--only") == 0)
				only = argv[i];
			else
				out = argv[i];
		} else if (strcmp(a, "-i") == 0 ||
		    strcmp(a, "--in-place") == 0)
			inplace = 1;
		else if (strcmp(a, "--json") == 0)
			json = 1;
		else if (a[0] == '-' && a[1] != '\0') {
			cli_usage_error("sync", "unknown option '%s'", a);
			return EXIT_USAGE;
		} else if (path == NULL)
			path = a;
		else {
			cli_usage_error("sync", "one FILE only");
			return EXIT_USAGE;
		}
	}
	if (path == NULL || from == NULL) {
		cli_usage_error("sync", path == NULL ? "missing FILE" :
		    "missing --from DIR (the upstream repository's folder)");
		return EXIT_USAGE;
	}
	if (inplace && out != NULL) {
		cli_usage_error("sync", "-i and -o exclude each other");
		return EXIT_USAGE;
	}
	if ((f = cli_open(path)) == NULL)
		return EXIT_USAGE;
	m.get = file_get;
	m.has_tensor = file_has_tensor;
	m.arg = f;
	if (sync_compare(&m, from, &r, msg, sizeof msg) != 0) {
		cli_error("%s", msg);
		gguf_close(f);
		return EXIT_USAGE;
	}
	gguf_close(f);
	if (only != NULL && sync_report_only(&r, only, msg, sizeof msg) != 0) {
		cli_error("%s", msg);
		sync_report_free(&r);
		return EXIT_USAGE;
	}
	if (json)
		print_json(path, from, &r);
	else
		print_text(path, from, &r);
	fflush(stdout);
	if (!inplace && out == NULL) {
		rc = r.n > 0;
		sync_report_free(&r);
		return rc;
	}
	if (r.shape_mismatch) {
		cli_error("%s: not written: the folder is not this model's "
		    "(its shape or architecture differs)", path);
		sync_report_free(&r);
		return EXIT_USAGE;
	}
	for (k = n = 0; k < r.n; k++)
		if (r.diffs[k].selected && r.diffs[k].edit != NULL)
			n++;
	if (n == 0) {
		out_text(stdout, path, strlen(path));
		puts(": nothing to write");
		sync_report_free(&r);
		return 0;
	}
	rc = apply(path, out, inplace, &r);
	sync_report_free(&r);
	return rc == 0 ? 0 : EXIT_USAGE;
}
