/*
 * split.c - `ggufed split` and `ggufed merge`: a model into the shards of
 * a split model, and a split model back into one file, laid out as
 * llama.cpp's gguf-split lays them out.
 *
 *	ggufed split [--max-size SIZE | --max-tensors N]
 *	    [--no-tensor-first-split] [-e CMD]... IN.gguf OUT-PREFIX
 *	ggufed merge FIRST-SHARD OUT.gguf [-e CMD]...
 *
 * The -e commands (the edit language) apply to the model before it is
 * split or once it is merged. Every output is written beside its target
 * and renamed over it when complete (the save of doc.h); an existing
 * output is refused unless --force. A split is all or nothing: every
 * shard is written under a temporary name beside its own
 * (".SHARD.ggufed-PID-split", which info and recover know as a killed
 * save's), and only when all are written are they given their names; on
 * any failure the temporary files are removed, no new shard is left and
 * older files are as they were. One line per written file on standard
 * output; progress (on a terminal), notes and errors on standard error.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "doc.h"
#include "save.h"
#include "set.h"

struct sopts {
	const char	 *in;
	const char	 *out;
	char		 *out_own;	/* out made of a folder and in's name */
	int		  mode;
	uint64_t	  max;
	int		  no_first;
	int		  force;
	int		  quiet;
	int		  strict;	/* refuse what llama.cpp would */
	const char	**cmds;
	size_t		  ncmds;
};

/* "DIR/" and "path/to/model.gguf": "DIR/model". */
static char *
in_folder(const char *dir, const char *in)
{
	const char	*b = strrchr(in, '/');
	size_t		 n, len;
	char		*p;

	b = b != NULL ? b + 1 : in;
	n = strlen(b);
	if (n > 5 && strcmp(b + n - 5, ".gguf") == 0)
		n -= 5;
	len = strlen(dir) + n + 1;
	p = xmalloc(len);
	snprintf(p, len, "%s%.*s", dir, (int)n, b);
	return p;
}

static int
parse(const char *cmd, int argc, char **argv, struct sopts *o)
{
	const char	*pos[2];
	int		 i, npos = 0, dashdash = 0;
	unsigned long long n;

	memset(o, 0, sizeof *o);
	o->cmds = xcalloc((size_t)argc, sizeof *o->cmds);
	for (i = 1; i < argc; i++) {
		const char	*a = argv[i];

		if (dashdash || a[0] != '-' || a[1] == '\0') {
			if (npos == 2) {
				cli_usage_error(cmd, "too many arguments: '%s'",
				    a);
				return -1;
			}
			pos[npos++] = a;
		} else if (strcmp(a, "--") == 0)
			dashdash = 1;
		else if (strcmp(a, "-e") == 0 && i + 1 < argc)
			o->cmds[o->ncmds++] = argv[++i];
		else if (strcmp(a, "--force") == 0)
			o->force = 1;
		else if (strcmp(a, "--strict") == 0)
			o->strict = 1;
		else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0)
			o->quiet = 1;
		else if (strcmp(cmd, "split") == 0 &&
		    strcmp(a, "--max-size") == 0 && i + 1 < argc) {
			if (o->mode == GGUF_SPLIT_BY_COUNT ||
			    cli_parse_size(argv[++i], &o->max) != 0 ||
			    o->max == 0) {
				cli_usage_error(cmd, o->mode ? "--max-size "
				    "and --max-tensors exclude each other" :
				    "--max-size wants a positive size (%s): "
				    "'%s'", CLI_SIZE_UNITS, argv[i]);
				return -1;
			}
			o->mode = GGUF_SPLIT_BY_SIZE;
		} else if (strcmp(cmd, "split") == 0 &&
		    strcmp(a, "--max-tensors") == 0 && i + 1 < argc) {
			if (o->mode == GGUF_SPLIT_BY_SIZE ||
			    cli_parse_u64(argv[++i], &n) != 0 || n == 0) {
				cli_usage_error(cmd, o->mode ? "--max-size "
				    "and --max-tensors exclude each other" :
				    "--max-tensors wants a count of at least "
				    "1: '%s'", argv[i]);
				return -1;
			}
			o->max = n;
			o->mode = GGUF_SPLIT_BY_COUNT;
		} else if (strcmp(cmd, "split") == 0 &&
		    strcmp(a, "--no-tensor-first-split") == 0)
			o->no_first = 1;
		else {
			cli_usage_error(cmd, "unknown option or missing value: "
			    "'%s'", a);
			return -1;
		}
	}
	if (npos != 2) {
		cli_usage_error(cmd, strcmp(cmd, "split") == 0 ? "split wants "
		    "IN.gguf and OUT-PREFIX" : "merge wants FIRST-SHARD and "
		    "OUT.gguf");
		return -1;
	}
	if (o->mode == 0) {		/* gguf-split's default */
		o->mode = GGUF_SPLIT_BY_COUNT;
		o->max = 128;
	}
	o->in = pos[0];
	o->out = pos[1];
	/*
	 * A folder (split's prefix ending in '/'): the shards are named
	 * after the input in it, not "-00001-of-...".
	 */
	if (strcmp(cmd, "split") == 0 && *o->out != '\0' &&
	    o->out[strlen(o->out) - 1] == '/')
		o->out = o->out_own = in_folder(o->out, o->in);
	return 0;
}

static int
apply_cmds(struct gguf_doc *d, const struct sopts *o)
{
	size_t	k;
	char	where[32];
	int	rc;

	for (k = 0; k < o->ncmds; k++) {
		snprintf(where, sizeof where, "-e #%zu", k + 1);
		if ((rc = cli_edit_line(d, o->cmds[k], o->force, where,
		    NULL)) != 0)
			return rc == -3 ? EXIT_BADFILE : EXIT_USAGE;
	}
	/* What the edits broke for llama.cpp, as every save says it. */
	if (o->ncmds > 0 && cli_model_check(d, o->out, o->strict) != 0)
		return EXIT_BADFILE;
	return 0;
}

/*
 * Saves d to path (the output named, errors naming it, or a temporary
 * name of it when tmp is not NULL); the size written in *size. 0 or
 * EXIT_BADFILE.
 */
static int
save_one(struct gguf_doc *d, const char *path, const char *tmp,
    const struct sopts *o, uint64_t *size)
{
	struct gguf_save_opts	so;
	struct gguf_save_info	info;
	struct gguf_err		err;
	struct cli_progress	pr;
	int			rc;

	memset(&so, 0, sizeof so);
	memset(&err, 0, sizeof err);
	so.path = path;
	so.force = o->force;
	so.reserve = -1;
	so.progress = cli_progress;
	so.arg = &pr;
	cli_progress_init(&pr, path, 64u << 20);
	if (gguf_doc_check_target(d, &so, &err) != 0) {
		if (strstr(err.msg, "unless forced") != NULL)
			strncat(err.msg, " (--force)", sizeof err.msg -
			    strlen(err.msg) - 1);
		goto fail;
	}
	if (tmp != NULL)
		so.path = tmp;
	rc = gguf_doc_save(d, &so, &info, &err);
	cli_progress_clear(&pr);
	if (rc != 0)
		goto fail;
	*size = info.file_size;
	return 0;
fail:
	if (tmp != NULL)
		strncat(err.msg, "; no shard was written", sizeof err.msg -
		    strlen(err.msg) - 1);
	cli_file_error(path, &err);
	return EXIT_BADFILE;
}

/* The line of a written file on stdout, unless quiet. */
static void
written(const char *path, const struct sopts *o, uint64_t ntensors,
    uint64_t size)
{
	char	b[32], g[32];

	if (o->quiet)
		return;
	out_text(stdout, path, strlen(path));
	printf(": %s tensor%s, %s\n", gguf_fmt_group(ntensors, g, sizeof g),
	    ntensors == 1 ? "" : "s", gguf_fmt_size(size, b, sizeof b));
}

/* Saves d to path; one line on stdout. 0 or EXIT_BADFILE. */
static int
write_one(struct gguf_doc *d, const char *path, const struct sopts *o,
    uint64_t ntensors)
{
	uint64_t	size;

	if (save_one(d, path, NULL, o, &size) != 0)
		return EXIT_BADFILE;
	written(path, o, ntensors, size);
	return 0;
}

/* A temporary name beside path: ".BASE.ggufed-PID-split", allocated. */
static char *
temp_of(const char *path)
{
	const char	*slash = strrchr(path, '/');
	size_t		 dlen = slash != NULL ? (size_t)(slash - path) + 1 : 0;
	size_t		 len = strlen(path) + 64;
	char		*t = xmalloc(len);

	snprintf(t, len, "%.*s.%s.ggufed-%ld-split", (int)dlen, path,
	    path + dlen, (long)getpid());
	return t;
}

/*
 * Gives the temporary file tmp its name path: over an older file only
 * with --force. 0, or EXIT_BADFILE with one line on stderr.
 */
static int
give_name(const char *tmp, const char *path, const struct sopts *o)
{
	struct gguf_err	err;

	memset(&err, 0, sizeof err);
	if (o->force) {
		if (rename(tmp, path) == 0)
			return 0;
	} else if (link(tmp, path) == 0) {
		unlink(tmp);
		return 0;
	} else if (errno != EEXIST) {
		/* A filesystem without hard links. */
		if (access(path, F_OK) == 0)
			errno = EEXIST;
		else if (rename(tmp, path) == 0)
			return 0;
	}
	if (errno == EEXIST)
		snprintf(err.msg, sizeof err.msg, "the file appeared while the "
		    "shards were written: not writing over another file "
		    "unless forced (--force); no shard was written");
	else
		snprintf(err.msg, sizeof err.msg, "cannot name the shard: %s; "
		    "no shard was written", strerror(errno));
	cli_file_error(path, &err);
	return EXIT_BADFILE;
}

/*
 * The input, opened as a set; NULL with one line on stderr, naming the
 * input, if it cannot be read or an interrupted save of it (of its set)
 * left a journal to recover first.
 */
static struct gguf_doc *
open_doc(const char *path, unsigned flags)
{
	struct gguf_doc	*d;
	struct gguf_err	 err;
	char		 why[160];
	size_t		 plen;
	unsigned	 no, count;

	memset(&err, 0, sizeof err);
	if (gguf_journal_trust(path, why, sizeof why) == GGUF_JOURNAL_OURS) {
		snprintf(err.msg, sizeof err.msg, "%s has an interrupted save "
		    "(its journal is still there): run 'ggufed recover' on "
		    "it first", gguf_set_name(path, &plen, &no, &count) == 0 &&
		    count > 1 ? "the set" : "the file");
		cli_file_error(path, &err);
		return NULL;
	}
	if ((d = gguf_doc_open_set(path, flags, &err)) == NULL)
		cli_file_error(path, &err);
	return d;
}

int
cmd_split(int argc, char **argv)
{
	struct sopts		 o;
	struct gguf_doc		*d;
	struct gguf_err		 err;
	struct sigaction	 old;
	struct gguf_save_opts	 so;
	int			*shard = NULL, rc;
	unsigned		 n, k, e, nedits, named = 0;
	uint64_t		 i, *cnt = NULL, *size = NULL;
	char			**path = NULL, **tmp = NULL;

	if (parse("split", argc, argv, &o) != 0) {
		free(o.cmds);
		free(o.out_own);
		return EXIT_USAGE;
	}
	if ((d = open_doc(o.in, GGUF_OPEN_STRICT)) == NULL) {
		free(o.cmds);
		free(o.out_own);
		return EXIT_BADFILE;
	}
	memset(&err, 0, sizeof err);
	if ((rc = apply_cmds(d, &o)) != 0)
		goto out;
	if (gguf_split_plan(d, o.mode, o.max, o.no_first, &shard, &n,
	    &err) != 0) {
		cli_file_error(o.in, &err);
		rc = EXIT_BADFILE;
		goto out;
	}
	path = xcalloc(n, sizeof *path);
	tmp = xcalloc(n, sizeof *tmp);
	cnt = xcalloc(n, sizeof *cnt);
	size = xcalloc(n, sizeof *size);
	memset(&so, 0, sizeof so);
	so.force = o.force;
	for (k = 0; k < n; k++) {
		path[k] = gguf_set_path(o.out, strlen(o.out), k + 1, n);
		tmp[k] = temp_of(path[k]);
		for (i = 0; i < gguf_doc_n_tensors(d); i++)
			cnt[k] += shard[i] == (int)k;
		/* Every name is checked before any shard is written. */
		so.path = path[k];
		if (rc == 0 && gguf_doc_check_target(d, &so, &err) != 0) {
			if (strstr(err.msg, "unless forced") != NULL)
				strncat(err.msg, " (--force); no shard was "
				    "written", sizeof err.msg -
				    strlen(err.msg) - 1);
			cli_file_error(path[k], &err);
			rc = EXIT_BADFILE;
		}
	}
	cli_sigint_catch(&old);
	for (k = 0; k < n && rc == 0; k++) {
		if (gguf_split_shard(d, shard, k, n, &nedits, &err) != 0) {
			cli_file_error(o.in, &err);
			rc = EXIT_BADFILE;
		} else
			rc = save_one(d, path[k], tmp[k], &o, &size[k]);
		for (e = 0; e < nedits; e++)
			gguf_doc_undo(d, NULL);
	}
	/* All written: each is given its name. */
	for (k = 0; k < n && rc == 0; k++) {
		if ((rc = give_name(tmp[k], path[k], &o)) == 0)
			named++;
	}
	if (rc != 0) {
		/* What this split named goes too: no new shard is left. */
		for (k = 0; k < named; k++)
			unlink(path[k]);
		for (k = 0; k < n; k++)
			unlink(tmp[k]);
	} else {
		for (k = 0; k < n; k++)
			written(path[k], &o, cnt[k], size[k]);
	}
	cli_sigint_restore(&old);
out:
	for (k = 0; path != NULL && k < n; k++) {
		free(path[k]);
		free(tmp[k]);
	}
	free(path);
	free(tmp);
	free(cnt);
	free(size);
	free(shard);
	free(o.cmds);
	free(o.out_own);
	gguf_doc_free(d);
	return rc;
}

int
cmd_merge(int argc, char **argv)
{
	struct sopts		 o;
	struct gguf_doc		*d;
	struct gguf_err		 err;
	struct sigaction	 old;
	struct gguf_val		*v;
	const char		*first;
	unsigned		 nedits, nbad;
	int			 rc;

	if (parse("merge", argc, argv, &o) != 0) {
		free(o.cmds);
		return EXIT_USAGE;
	}
	if ((d = open_doc(o.in, GGUF_OPEN_STRICT)) == NULL) {
		free(o.cmds);
		return EXIT_BADFILE;
	}
	memset(&err, 0, sizeof err);
	v = gguf_kv_get(gguf_doc_file(d), "split.count");
	/* A set of one shard is a file of its own, but gguf-split merges it. */
	if (gguf_n_shards(gguf_doc_file(d)) == 0 && (v == NULL ||
	    v->type != GGUF_VT_U16 || gguf_val_bits(v) != 1)) {
		gguf_errf(&err, -1, "not a shard of a split model (no "
		    "PREFIX-NNNNN-of-NNNNN.gguf name with split keys)");
		cli_file_error(o.in, &err);
		rc = EXIT_BADFILE;
		goto out;
	}
	/* Shards of several sets, or a set with one lost: no one model. */
	if ((nbad = gguf_set_errors(gguf_doc_file(d), &first)) > 0) {
		gguf_errf(&err, -1, "the shards are not one whole set: %s%s",
		    first, nbad > 1 ? " (and more: validate lists them)" : "");
		cli_file_error(o.in, &err);
		rc = EXIT_BADFILE;
		goto out;
	}
	if ((rc = apply_cmds(d, &o)) != 0)
		goto out;
	if (gguf_merge_prepare(d, &nedits, &err) != 0) {
		cli_file_error(o.in, &err);
		rc = EXIT_BADFILE;
		goto out;
	}
	cli_sigint_catch(&old);
	rc = write_one(d, o.out, &o, gguf_doc_live_tensors(d));
	cli_sigint_restore(&old);
out:
	free(o.cmds);
	gguf_doc_free(d);
	return rc;
}
