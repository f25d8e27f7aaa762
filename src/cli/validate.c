/*
 * validate.c - `ggufed validate [--data] [--strict] [--json] [-q]
 * [--threads N] FILE...`: is this a file every reader loads?
 *
 * Reports, for each file, what the reader found while opening it (layout,
 * names, duplicates, key types) and what the model checks find (tokenizer,
 * hyper-parameters, blocks, file name; with --data, NaN, Inf and all-zero
 * tensors) and the lint of its chat templates, one finding a line:
 *
 *	model.gguf:0x1c4: error: duplicate key "general.name" (first ...)
 *	model.gguf: warning: no llama.context_length key: ...
 *
 * then a summary line per file. Several shards of one split set given
 * together are reported once, as the set, by the first of them given
 * (which says what it covers). An error is a file ggml or llama.cpp
 * refuses or misreads; a warning, something some reader gets wrong; a note,
 * a departure from the specification's advice. The exit status is 0 when
 * no file has an error (with --strict, no warning either), 1 otherwise.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cli.h"
#include "kind.h"
#include "model.h"
#include "set.h"
#include "cmd/chat.h"

/* What the options ask for. */
struct vopts {
	unsigned		 flags;		/* GGUF_CHECK_* */
	struct gguf_stats_opts	 stats;		/* for --data */
	int			 json;
	int			 quiet;
	int			 strict;
	const char		*base_path;	/* --base */
	struct gguf_file	*base;
};

struct report {
	const char	*path;
	struct json	*json;		/* NULL: text */
	int		 quiet;
	unsigned	 count[3];	/* by enum gguf_wlevel */
	char		**folded;	/* other shards of the set given */
	const char	 *kind;		/* gguf_kind_id, NULL if not opened */
	const char	 *kind_text;	/* gguf_kind_describe, or NULL */
	int		 nfolded;
};

/*
 * One finding; file is where off is when not r->path (a tensor in a later
 * shard of a set), else NULL.
 */
static void
finding(void *arg, int level, const char *file, int64_t off, const char *msg)
{
	struct report	*r = arg;

	if (level < GGUF_W_NOTE || level > GGUF_W_ERROR)
		level = GGUF_W_ERROR;
	r->count[level]++;
	if (r->quiet)
		return;
	if (file == NULL)
		file = r->path;
	if (r->json != NULL) {
		json_obj(r->json, JSON_FLAT);
		json_key(r->json, "file");
		json_cstr(r->json, file);
		json_key(r->json, "level");
		json_cstr(r->json, gguf_wlevel_name(level));
		json_key(r->json, "offset");
		if (off >= 0)
			json_i64(r->json, off);
		else
			json_null(r->json);
		json_key(r->json, "message");
		json_cstr(r->json, msg);
		json_end(r->json);
		return;
	}
	out_text(stdout, file, strlen(file));
	if (off >= 0)
		printf(":0x%llx", (unsigned long long)off);
	printf(": %s: ", gguf_wlevel_name(level));
	out_msg(stdout, msg);
	putchar('\n');
}

struct model_at {
	struct report		*r;
	struct gguf_file	*f;
	struct gguf_mgroup	 g;	/* text: the first few of each kind */
};

/*
 * A finding of the model check: at the tensor's info or the key's entry
 * when it names one that is in the file.
 */
static void
model_finding(void *arg, const struct gguf_mfinding *mf)
{
	struct model_at			*m = arg;
	const struct gguf_tensor	*t;
	const char			*file = NULL;
	int64_t				 off = -1, i;

	if (mf->what == GGUF_MF_TENSOR && mf->index >= 0) {
		t = gguf_tensor_at(m->f, (uint64_t)mf->index);
		off = (int64_t)t->off;
		file = gguf_tensor_path(m->f, t);
	} else if (mf->what == GGUF_MF_KEY && (i = gguf_kv_find(m->f,
	    mf->name, strlen(mf->name))) >= 0)
		off = (int64_t)gguf_kv_at(m->f, (uint64_t)i)->off;
	/* The text shows a few of each kind; the count and JSON, all. */
	if (m->r->json == NULL && !gguf_mgroup_add(&m->g, mf)) {
		m->r->count[mf->level < GGUF_W_NOTE || mf->level >
		    GGUF_W_ERROR ? GGUF_W_ERROR : mf->level]++;
		return;
	}
	finding(m->r, mf->level, file, off, mf->msg);
}

/* The text's line for the findings of each kind it did not show. */
static void
model_more(const struct model_at *m)
{
	char	buf[200];
	int	k;

	for (k = 0; k < GGUF_MK_COUNT; k++) {
		if (m->r->quiet || gguf_mgroup_more(&m->g, k, buf,
		    sizeof buf) != 0)
			continue;
		out_text(stdout, m->r->path, strlen(m->r->path));
		printf(": %s: %s (--json lists each)\n",
		    gguf_wlevel_name(GGUF_W_ERROR), buf);
	}
}

struct lint_at {
	struct report	*r;
	int64_t		 off;
	const char	*key;
	char		 buf[1400];
};

static void
lint_finding(void *arg, int level, const char *msg)
{
	struct lint_at	*l = arg;

	snprintf(l->buf, sizeof l->buf, "%s: %s", l->key, msg);
	finding(l->r, level, NULL, l->off, l->buf);
}

static struct gguf_val *
file_get(void *arg, const char *key)
{
	return gguf_kv_get(arg, key);
}

/* The lint of each chat template (tokenizer.chat_template[.NAME]). */
static void
lint_templates(struct gguf_file *f, struct report *r)
{
	struct chat_model	 m = { file_get, f };
	struct lint_at		 l;
	struct gguf_str		 s;
	uint64_t		 i;
	char			*key;

	for (i = 0; i < gguf_layout(f)->n_kv; i++) {
		struct gguf_kv	*kv = gguf_kv_at(f, i);

		if (!chat_is_template_key(kv->key.p, (size_t)kv->key.n) ||
		    gguf_val_str(&kv->val, &s) != 0)
			continue;
		key = xstrndup(kv->key.p, (size_t)kv->key.n);
		l.r = r;
		l.off = (int64_t)kv->off;
		l.key = key;
		chat_lint(&m, s.p, (size_t)s.n, lint_finding, &l);
		free(key);
	}
}

static void
summary(const struct report *r, int opened)
{
	char	buf[96];

	if (r->json != NULL) {
		json_end(r->json);		/* the findings */
		if (r->nfolded > 0) {
			int	i;

			json_key(r->json, "folded");
			json_arr(r->json, JSON_FLAT);
			for (i = 0; i < r->nfolded; i++)
				json_cstr(r->json, r->folded[i]);
			json_end(r->json);
		}
		if (r->kind != NULL) {
			json_key(r->json, "kind");
			json_cstr(r->json, r->kind);
		}
		if (r->kind_text != NULL) {
			json_key(r->json, "kind_text");
			json_cstr(r->json, r->kind_text);
		}
		json_key(r->json, "errors");
		json_u64(r->json, r->count[GGUF_W_ERROR]);
		json_key(r->json, "warnings");
		json_u64(r->json, r->count[GGUF_W_WARN]);
		json_key(r->json, "notes");
		json_u64(r->json, r->count[GGUF_W_NOTE]);
		json_key(r->json, "opened");
		json_bool(r->json, opened);
		json_end(r->json);
		return;
	}
	out_text(stdout, r->path, strlen(r->path));
	printf(": %s\n", gguf_wlevel_counts(r->count, "no problems found",
	    buf, sizeof buf));
}

/*
 * Validates one file; 1 if it fails (an error, or a warning if strict).
 * folded[0..nfolded) are other shards of its set given too: when path
 * opens as a set, its report is theirs (*was_set is set), and says so.
 */
static int
validate_one(const char *path, const struct vopts *o, struct json *j,
    char **folded, int nfolded, int *was_set)
{
	struct gguf_file		*f;
	const struct gguf_warning	*w;
	struct report			 r;
	struct model_at			 ma;
	struct gguf_err			 err;
	size_t				 i;
	enum gguf_kind			 kind;
	char				 left[400], what[200];
	int				 rc, n;

	memset(&r, 0, sizeof r);
	r.path = path;
	r.json = j;
	r.quiet = o->quiet;
	if (j != NULL) {
		json_obj(j, JSON_LINES);
		json_key(j, "file");
		json_cstr(j, path);
		json_key(j, "findings");
		json_arr(j, JSON_LINES);
	}
	/* Before parsing: a header torn by a crash has a journal beside it. */
	n = cli_leftovers(path, left, sizeof left);
	memset(&err, 0, sizeof err);
	if ((f = gguf_set_open(path, cli_alone ? GGUF_OPEN_ALONE : 0,
	    &err)) == NULL) {
		finding(&r, GGUF_W_ERROR, NULL, err.has_off ?
		    (int64_t)err.off : -1, err.msg);
		if (n)
			finding(&r, GGUF_W_WARN, NULL, -1, left);
		summary(&r, 0);
		return 1;
	}
	if (n)
		finding(&r, GGUF_W_WARN, NULL, -1, left);
	*was_set = gguf_n_shards(f) > 0;
	if (*was_set && nfolded > 0) {
		r.folded = folded;
		r.nfolded = nfolded;
		if (j == NULL) {
			int	k;

			out_text(stdout, path, strlen(path));
			printf(": the whole set, for ");
			for (k = 0; k < nfolded; k++) {
				if (k > 0)
					printf(k + 1 == nfolded ? " and " :
					    ", ");
				out_text(stdout, folded[k], strlen(folded[k]));
			}
			printf(" too\n");
		}
	}
	/* What the file is, when it is not a model. */
	kind = gguf_kind_of(f);
	r.kind = gguf_kind_id(kind);
	if (gguf_kind_describe(f, what, sizeof what) != NULL) {
		r.kind_text = what;
		if (j == NULL && !o->quiet) {
			out_text(stdout, path, strlen(path));
			printf(": %s\n", what);
		}
	}
	for (i = 0; i < gguf_n_warnings(f); i++) {
		w = gguf_warning_at(f, i);
		finding(&r, w->level, w->file, w->off == GGUF_NO_OFFSET ? -1 :
		    (int64_t)w->off, w->msg);
	}
	rc = gguf_check_model(f, path, o->flags, &o->stats, finding, &r);
	if (o->base != NULL && kind == GGUF_KIND_MODEL)
		finding(&r, GGUF_W_NOTE, NULL, -1, "--base is for an adapter, "
		    "a control vector or a projector; this file is a model");
	gguf_kind_check(f, o->base, finding, &r);
	if (rc != 0)
		finding(&r, GGUF_W_ERROR, NULL, -1,
		    "the data checks were cancelled");
	memset(&ma, 0, sizeof ma);
	ma.r = &r;
	ma.f = f;
	gguf_model_check_file(f, model_finding, &ma);
	model_more(&ma);
	lint_templates(f, &r);
	gguf_close(f);
	summary(&r, 1);
	return r.count[GGUF_W_ERROR] > 0 ||
	    (o->strict && r.count[GGUF_W_WARN] > 0);
}

/*
 * The set a shard's name puts it in: its first shard's path, resolved
 * where it exists, in *key (allocated); -1 if path is not named as a
 * shard of several.
 */
static int
set_key(const char *path, char **key)
{
	size_t		 plen;
	unsigned	 no, count;
	char		*first, *real;

	if (gguf_set_name(path, &plen, &no, &count) != 0 || count < 2)
		return -1;
	first = gguf_set_path(path, plen, 1, count);
	if ((real = realpath(first, NULL)) != NULL) {
		free(first);
		first = xstrdup(real);
		free(real);
	}
	*key = first;
	return 0;
}

int
cmd_validate(int argc, char **argv)
{
	struct vopts	  o;
	struct json	  j;
	char		**files = argv + 1;	/* gathered in place, as getopt does */
	char		**group, **folded;
	int		  i, k, nf, nfiles = 0, failed = 0, only_files = 0;
	int		 *leader, *set;

	argc = cli_take_shard(argc, argv);

	memset(&o, 0, sizeof o);
	for (i = 1; i < argc; i++) {
		if (only_files || argv[i][0] != '-' || argv[i][1] == '\0')
			files[nfiles++] = argv[i];
		else if (strcmp(argv[i], "--") == 0)
			only_files = 1;
		else if (strcmp(argv[i], "--base") == 0 && i + 1 < argc)
			o.base_path = argv[++i];
		else if (strcmp(argv[i], "--data") == 0)
			o.flags |= GGUF_CHECK_DATA;
		else if (strcmp(argv[i], "--json") == 0)
			o.json = 1;
		else if (strcmp(argv[i], "--strict") == 0)
			o.strict = 1;
		else if (strcmp(argv[i], "-q") == 0 ||
		    strcmp(argv[i], "--quiet") == 0)
			o.quiet = 1;
		else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) {
			if (cli_parse_threads("validate", argv[++i],
			    &o.stats.threads) != 0)
				return EXIT_USAGE;
		} else {
			cli_usage_error("validate", "unknown option or missing "
			    "value: '%s'", argv[i]);
			return EXIT_USAGE;
		}
	}
	if (nfiles == 0) {
		cli_usage_error("validate", "validate wants at least one FILE");
		return EXIT_USAGE;
	}
	if (o.base_path != NULL) {
		struct gguf_err	err;

		memset(&err, 0, sizeof err);
		if ((o.base = gguf_set_open(o.base_path, cli_alone ?
		    GGUF_OPEN_ALONE : 0, &err)) == NULL) {
			cli_error("%s: %s", o.base_path, err.msg);
			return EXIT_BADFILE;
		}
	}
	if (o.json) {
		json_init(&j, stdout);
		json_arr(&j, JSON_LINES);
	}
	/* Shards of one set: the set once, by the first of them given. */
	leader = xcalloc((size_t)nfiles, sizeof *leader);
	group = xcalloc((size_t)nfiles, sizeof *group);
	set = xcalloc((size_t)nfiles, sizeof *set);
	for (i = 0; i < nfiles; i++) {
		leader[i] = i;
		if (cli_alone || set_key(files[i], &group[i]) != 0)
			continue;
		for (k = 0; k < i; k++)
			if (group[k] != NULL &&
			    strcmp(group[k], group[i]) == 0) {
				leader[i] = k;
				break;
			}
	}
	folded = xcalloc((size_t)nfiles, sizeof *folded);
	for (i = 0; i < nfiles; i++) {
		if (leader[i] != i && set[leader[i]])
			continue;
		nf = 0;
		for (k = i + 1; k < nfiles; k++)
			if (leader[k] == i)
				folded[nf++] = files[k];
		failed |= validate_one(files[i], &o, o.json ? &j : NULL,
		    folded, nf, &set[i]);
	}
	for (i = 0; i < nfiles; i++)
		free(group[i]);
	free(group);
	free(leader);
	free(set);
	free(folded);
	if (o.base != NULL)
		gguf_close(o.base);
	if (o.json) {
		json_end(&j);
		json_finish(&j);
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		cli_error("writing the report: output error");
		return EXIT_BADFILE;
	}
	return failed ? EXIT_BADFILE : 0;
}
