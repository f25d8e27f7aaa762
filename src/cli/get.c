/*
 * get.c - `ggufed get [--json] [--raw] FILE KEY`: one value.
 *
 * Scalars print on one line; arrays one element per line. Strings are
 * escaped as everywhere else, unless --raw asks for their exact bytes
 * (for `> template.jinja`); --raw refuses to write to a terminal.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "suggest.h"

static void
print_elem(const struct gguf_val *v, int raw)
{
	struct gguf_str	s;

	if (raw && gguf_val_str(v, &s) == 0)
		fwrite(s.p, 1, s.n, stdout);
	else if (v->type == GGUF_VT_STR) {
		gguf_val_str(v, &s);
		out_text(stdout, s.p, s.n);
	} else
		out_scalar(stdout, v, SIZE_MAX);
}

/* A value as JSON: a scalar as itself, an array (nested ones too) as a list. */
static int
print_json(struct gguf_val *v, struct gguf_err *err)
{
	struct gguf_val	e;
	uint64_t	i;
	int		rc;

	if (v->type != GGUF_VT_ARR) {
		out_scalar_json(stdout, v);
		return 0;
	}
	fputc('[', stdout);
	for (i = 0; i < v->count; i++) {
		if (gguf_arr_get(v, i, &e, err) != 0)
			return -1;
		if (i > 0)
			fputs(", ", stdout);
		rc = print_json(&e, err);
		gguf_arrix_free(e.ix);
		if (rc != 0)
			return -1;
	}
	fputc(']', stdout);
	return 0;
}

static int
print_value(struct gguf_val *v, int json, int raw, struct gguf_err *err)
{
	struct gguf_val	e;
	uint64_t	i;
	char		tb[32];

	if (json) {
		printf("{\"type\": \"%s\", \"value\": ",
		    gguf_vtype_text(v->type, v->atype, tb, sizeof tb));
		if (print_json(v, err) != 0)
			return -1;
		fputs("}\n", stdout);
		return 0;
	}
	if (v->type != GGUF_VT_ARR) {
		print_elem(v, raw);
		if (!raw || v->type != GGUF_VT_STR)
			putchar('\n');
		return 0;
	}
	for (i = 0; i < v->count; i++) {
		if (gguf_arr_get(v, i, &e, err) != 0)
			return -1;
		if (e.type == GGUF_VT_ARR)
			printf("%s n=%llu", gguf_vtype_text(e.type, e.atype,
			    tb, sizeof tb), (unsigned long long)e.count);
		else
			print_elem(&e, raw);
		gguf_arrix_free(e.ix);
		putchar('\n');
	}
	return 0;
}

static struct gguf_str
key_of(void *f, uint64_t i)
{
	return gguf_kv_at(f, i)->key;
}

/* "no key "K"", with the closest key of the file if one is near. */
static void
no_key(struct gguf_file *f, const char *path, const char *key)
{
	struct gguf_suggest	 sg;
	const char		*best;
	size_t			 bn;

	gguf_suggest_init(&sg, key, strlen(key));
	gguf_suggest_names(&sg, key_of, f, gguf_layout(f)->n_kv);
	fprintf(stderr, "%s: ", cli_prog);
	out_text(stderr, path, strlen(path));
	fputs(": no key ", stderr);
	out_quoted(stderr, key, strlen(key));
	if ((best = gguf_suggest_best(&sg, &bn)) != NULL) {
		fputs(" (did you mean ", stderr);
		out_quoted(stderr, best, bn);
		fputs("?)", stderr);
	}
	fputc('\n', stderr);
}

int
cmd_get(int argc, char **argv)
{
	struct gguf_file	*f;
	struct gguf_err		 err;
	int64_t			 idx;
	const char		*path = NULL, *key = NULL;
	int			 i, json = 0, raw = 0, rc, dd = 0;

	argc = cli_take_shard(argc, argv);

	for (i = 1; i < argc; i++) {
		const char	*opt = cli_opt(argv[i], &dd);

		if (opt == NULL)
			continue;
		if (strcmp(opt, "--json") == 0)
			json = 1;
		else if (strcmp(opt, "--raw") == 0)
			raw = 1;
		else if (opt[0] == '-' && opt[1] == '-' &&
		    path == NULL) {
			cli_usage_error("get", "unknown option '%s'", argv[i]);
			return EXIT_USAGE;
		} else if (path == NULL)
			path = argv[i];
		else if (key == NULL)
			key = argv[i];
		else {
			cli_usage_error("get", "too many arguments");
			return EXIT_USAGE;
		}
	}
	if (key == NULL) {
		cli_usage_error("get", "missing %s", path == NULL ? "FILE and "
		    "KEY" : "KEY");
		return EXIT_USAGE;
	}
	if (json && raw) {
		cli_usage_error("get", "--json and --raw exclude each other");
		return EXIT_USAGE;
	}
	if (raw && isatty(STDOUT_FILENO)) {
		cli_error("--raw writes exact bytes and will not write them to "
		    "a terminal: redirect the output");
		return EXIT_USAGE;
	}
	if ((f = cli_open(path)) == NULL)
		return EXIT_BADFILE;
	idx = gguf_kv_find(f, key, strlen(key));
	if (idx < 0) {
		no_key(f, path, key);
		gguf_close(f);
		return EXIT_BADFILE;
	}
	memset(&err, 0, sizeof err);
	rc = print_value(&gguf_kv_at(f, (uint64_t)idx)->val, json, raw, &err);
	fflush(stdout);
	if (rc != 0)
		cli_file_error(path, &err);
	gguf_close(f);
	return rc != 0 ? EXIT_BADFILE : 0;
}
