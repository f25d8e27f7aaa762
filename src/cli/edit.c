/*
 * edit.c - `ggufed edit`, the shorthands `set`, `rm`, `mv`, `rename`,
 * `rm-tensor` and `convert`, and `ggufed recover`.
 *
 *	ggufed edit FILE (-i | -o OUT) [-e CMD]... [-f SCRIPT] [--dry-run]
 *	ggufed set FILE KEY[:TYPE] VALUE (-i | -o OUT)
 *	ggufed rm [--if-exists] FILE KEY (-i | -o OUT)
 *	ggufed recover FILE
 *
 * Commands are applied in the order given (-e and -f lines interleaved as
 * on the command line), then the document is saved once. The first
 * refused command stops everything before anything is written. A
 * modifying command needs to be told where the result goes: -i (the file
 * itself) or -o OUT; --dry-run prints the changes and what a save would
 * do instead.
 *
 * A refused command exits 2 (usage), or 1 when the key or tensor it
 * names is not there (as `get` does); `rm --if-exists` of a missing key
 * changes nothing and succeeds.
 *
 * Before saving, the result is checked as llama.cpp would load it
 * (model.h): what the edits broke (an error the file did not have) is a
 * warning on standard error, and the save goes on; with --strict, it is
 * an error and nothing is written (exit 1).
 *
 * Output: the diff (--dry-run, or -v) and one line saying how the file
 * was saved go to standard output; notes, warnings and errors to standard
 * error. Everything from the file is escaped (out.c).
 */
#include "config.h"

#include <sys/stat.h>

#include <limits.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "doc.h"
#include "hash.h"
#include "http.h"
#include "model.h"
#include "save.h"
#include "set.h"
#include "cmd/lang.h"
#include "cmd/value.h"

#define MAX_SHOW	80	/* bytes of a string shown in a diff */
#define MAX_ELEMS	5	/* differing array elements shown */
#define MAX_LINE	((size_t)256 << 20) /* bytes of a script line: a value's most */

struct step {
	const char	*text;		/* -e CMD, or NULL */
	const char	*script;	/* -f SCRIPT, or NULL */
};

struct opts {
	const char	*path;
	const char	*out;
	int		 inplace;
	int		 dry;
	int		 force;
	int		 strict;	/* refuse what llama.cpp would refuse */
	int		 verbose;
	int		 quiet;
	int		 no_inplace;
	int		 if_exists;	/* rm: a missing key is no error */
	int		 verify;	/* prove the tensor data after the save */
	int64_t		 reserve;
	struct step	*steps;
	size_t		 nsteps;
};

/* ------------------------------------------------------------------- diff */

static void
show_scalar(FILE *fp, struct gguf_val *v)
{
	char	tb[32];

	if (v->type == GGUF_VT_ARR) {
		fprintf(fp, "%s n=%llu", gguf_vtype_text(v->type, v->atype,
		    tb, sizeof tb), (unsigned long long)v->count);
		return;
	}
	fprintf(fp, "%s ", gguf_vtype_text(v->type, v->atype, tb,
	    sizeof tb));
	out_scalar(fp, v, MAX_SHOW);
}

static void
show_elem(FILE *fp, struct gguf_val *arr, uint64_t i)
{
	struct gguf_val	e;
	struct gguf_err	err;

	if (i >= arr->count) {
		fputs("(none)", fp);
		return;
	}
	if (gguf_arr_get(arr, i, &e, &err) != 0) {
		fputs("?", fp);
		return;
	}
	if (e.type == GGUF_VT_ARR)
		fprintf(fp, "arr n=%llu", (unsigned long long)e.count);
	else
		out_scalar(fp, &e, MAX_SHOW);
}

static int
elem_same(struct gguf_val *a, struct gguf_val *b, uint64_t i)
{
	struct gguf_val	x, y;
	struct gguf_err	err;

	if (gguf_arr_get(a, i, &x, &err) != 0 ||
	    gguf_arr_get(b, i, &y, &err) != 0)
		return 0;
	if (x.type == GGUF_VT_STR && x.lw != y.lw) {
		struct gguf_str	s, t;

		gguf_val_str(&x, &s);
		gguf_val_str(&y, &t);
		return s.n == t.n && memcmp(s.p, t.p, (size_t)s.n) == 0;
	}
	return x.n == y.n && memcmp(x.p, y.p, (size_t)x.n) == 0;
}

/* Old and new arrays of one element type: the elements that differ. */
static void
show_arr_diff(FILE *fp, struct gguf_val *o, struct gguf_val *n)
{
	uint64_t	i, lim = o->count < n->count ? o->count : n->count;
	unsigned	shown = 0;
	char		tb[32];

	fprintf(fp, "%s n=%llu", gguf_vtype_text(n->type, n->atype, tb,
	    sizeof tb), (unsigned long long)o->count);
	if (o->count != n->count)
		fprintf(fp, " -> n=%llu", (unsigned long long)n->count);
	for (i = 0; i < lim && shown < MAX_ELEMS; i++) {
		if (elem_same(o, n, i))
			continue;
		fprintf(fp, "%s [%llu] ", shown == 0 ? ":" : ",",
		    (unsigned long long)i);
		show_elem(fp, o, i);
		fputs(" -> ", fp);
		show_elem(fp, n, i);
		shown++;
		if (o->count != n->count)
			break;		/* the rest is shifted */
	}
	if (shown == MAX_ELEMS && i < lim)
		fputs(", ...", fp);
	if (shown == 0 && o->count != n->count)
		fprintf(fp, ": from [%llu] on", (unsigned long long)lim);
}

/*
 * "- tensor NAME", "> tensor OLD -> NEW", "~ tensor NAME: Q8_0 -> F32";
 * a new name not among those llama.cpp looks for (mn) is marked.
 */
static void
print_tensor_change(FILE *fp, const struct gguf_change *c,
    const struct gguf_mnames *mn)
{
	char	b1[24], b2[24];

	if (c->flags & GGUF_ED_REMOVED) {
		fputs("- tensor ", fp);
		out_quoted(fp, c->old_name.p, c->old_name.n);
		fputc('\n', fp);
		return;
	}
	if (c->flags & GGUF_ED_RENAMED) {
		fputs("> tensor ", fp);
		out_quoted(fp, c->old_name.p, c->old_name.n);
		fputs(" -> ", fp);
		out_quoted(fp, c->new_name.p, c->new_name.n);
		if (!gguf_mnames_has(mn, c->new_name.p, (size_t)c->new_name.n))
			fputs("  (llama.cpp will not find it)", fp);
		fputc('\n', fp);
	}
	if (c->flags & GGUF_ED_VALUE) {
		fputs("~ tensor ", fp);
		out_quoted(fp, c->new_name.p, c->new_name.n);
		fprintf(fp, ": %s -> %s\n", gguf_ttype_name(c->old_type, b1),
		    gguf_ttype_name(c->new_type, b2));
	}
}

static void
print_diff(FILE *fp, struct gguf_doc *d)
{
	struct gguf_change	*ch;
	struct gguf_mnames	*mn = NULL;
	size_t			 n, i;

	n = gguf_doc_diff(d, &ch);
	if (n == 0)
		fputs("no changes\n", fp);
	for (i = 0; i < n; i++)
		if (ch[i].what == GGUF_CH_TENSOR &&
		    (ch[i].flags & GGUF_ED_RENAMED) &&
		    !(ch[i].flags & GGUF_ED_REMOVED)) {
			mn = gguf_model_names(d);
			break;
		}
	for (i = 0; i < n; i++) {
		struct gguf_change	*c = &ch[i];

		if (c->what == GGUF_CH_TENSOR) {
			print_tensor_change(fp, c, mn);
			continue;
		}
		if (c->flags & GGUF_ED_ADDED) {
			fputs("+ ", fp);
			out_text(fp, c->new_name.p, c->new_name.n);
			fputs(": ", fp);
			show_scalar(fp, c->new_val);
			fputc('\n', fp);
			continue;
		}
		if (c->flags & GGUF_ED_REMOVED) {
			fputs("- ", fp);
			out_text(fp, c->old_name.p, c->old_name.n);
			fputs(": ", fp);
			show_scalar(fp, c->old_val);
			fputc('\n', fp);
			continue;
		}
		if (c->flags & GGUF_ED_RENAMED) {
			fputs("> ", fp);
			out_text(fp, c->old_name.p, c->old_name.n);
			fputs(" -> ", fp);
			out_text(fp, c->new_name.p, c->new_name.n);
			fputc('\n', fp);
		}
		if (c->flags & GGUF_ED_VALUE) {
			fputs("~ ", fp);
			out_text(fp, c->new_name.p, c->new_name.n);
			fputs(": ", fp);
			if (c->old_val->type == GGUF_VT_ARR &&
			    c->new_val->type == GGUF_VT_ARR &&
			    c->old_val->atype == c->new_val->atype &&
			    c->old_val->atype != GGUF_VT_ARR)
				show_arr_diff(fp, c->old_val, c->new_val);
			else {
				show_scalar(fp, c->old_val);
				fputs(" -> ", fp);
				show_scalar(fp, c->new_val);
			}
			fputc('\n', fp);
		}
	}
	gguf_mnames_free(mn);
	free(ch);
}

/* ------------------------------------------------------------ application */

static void
report(const char *where, const char *where2, int rc, const char *msg)
{
	if (msg[0] == '\0' && rc >= 0)
		return;
	fprintf(stderr, "%s: ", cli_prog);
	if (where != NULL) {
		out_text(stderr, where, strlen(where));
		if (where2 != NULL)
			fprintf(stderr, ":%s", where2);
		fputs(": ", stderr);
	}
	if (rc == LANG_WARN)
		fputs("warning: ", stderr);
	out_msg(stderr, msg);
	if (rc == LANG_REFUSED)
		fputs(" (--force sets it anyway)", stderr);
	fputc('\n', stderr);
}

/* edit --dry-run: the commands' messages say what they would do. */
static int	edit_dry;

int		cli_edit_own_steps;

int
cli_edit_line(struct gguf_doc *d, const char *line, int force,
    const char *where, const char *where2)
{
	struct lang_cmd	cmd;
	char		msg[2048];
	int		rc;

	if ((rc = lang_parse(line, &cmd, msg, sizeof msg)) == LANG_OK) {
		cmd.force = force;
		cmd.dry = edit_dry;
		rc = lang_apply(d, &cmd, msg, sizeof msg);
		lang_cmd_free(&cmd);
	}
	report(where, where2, rc, msg);
	return rc < 0 ? rc : 0;
}

/* The exit status of a refused command: 1 if what it named is not there. */
static int
refused_status(int rc)
{
	return rc == LANG_MISSING ? EXIT_BADFILE : EXIT_USAGE;
}

static int
run_script(struct gguf_doc *d, const char *path, int force)
{
	struct gguf_err	 err;
	FILE		*fp;
	char		*line = NULL, lno[32];
	size_t		 cap = 0, n = 0;
	ssize_t		 len;
	int		 rc = 0;

	if (strcmp(path, "-") == 0)
		value_stdin_taken("the script is read from it");
	memset(&err, 0, sizeof err);
	fp = strcmp(path, "-") == 0 ? stdin : gguf_open_text(path, &err);
	if (fp == NULL) {
		cli_error("%s: cannot open the script: %s", path, err.msg);
		return LANG_ERR;
	}
	while ((len = gguf_text_line(fp, &line, &cap, MAX_LINE)) != -1) {
		n++;
		snprintf(lno, sizeof lno, "%zu", n);
		if (len < 0) {
			report(path, lno, LANG_ERR, len == -2 ? "a NUL byte in "
			    "the line: not a script" : "a line longer than "
			    "256 MiB");
			rc = LANG_ERR;
			break;
		}
		if ((rc = cli_edit_line(d, line, force, path, lno)) != 0)
			break;
	}
	free(line);
	if (fp != stdin)
		fclose(fp);
	return rc;
}

/* ------------------------------------------------------------------- save */

static void
print_notices(const struct gguf_save_info *info)
{
	size_t	i;

	for (i = 0; i < info->n_notices; i++)
		fprintf(stderr, "%s: note: %s\n", cli_prog, info->notices[i]);
	if (info->source_changed)
		fprintf(stderr, "%s: warning: the file changed on disk while "
		    "it was being edited: its tensor data was copied as it is "
		    "now\n", cli_prog);
}

static void
print_how(const char *path, const struct gguf_save_info *info, int dry)
{
	char	b1[32], b2[32];

	out_text(stdout, path, strlen(path));
	if (info->how == GGUF_SAVE_SET && info->shards_written == 0)
		printf(": nothing changed, not written");
	else if (info->how == GGUF_SAVE_SET) {
		printf(": %s %u of the set's %u shards (", dry ? "would write" :
		    "wrote", info->shards_written, info->n_shards);
		if (info->shards_inplace > 0)
			printf("%u in place, %s byte%s of header%s", info->
			    shards_inplace, gguf_fmt_group(info->written, b1,
			    sizeof b1), info->written == 1 ? "" : "s",
			    info->shards_written > info->shards_inplace ?
			    "; " : "");
		if (info->shards_written > info->shards_inplace)
			printf("%u as new file%s, %s", info->shards_written -
			    info->shards_inplace, info->shards_written -
			    info->shards_inplace == 1 ? "" : "s",
			    gguf_fmt_size(info->file_size, b1, sizeof b1));
		printf("), all or none");
	}
	else if (info->how == GGUF_SAVE_INPLACE && dry)
		printf(": would save in place (header only; data not touched)");
	else if (info->how == GGUF_SAVE_INPLACE && info->written == 0)
		printf(": nothing changed, not written");
	else if (info->how == GGUF_SAVE_INPLACE)
		printf(": saved in place (%s byte%s of the header rewritten; "
		    "data not touched)", gguf_fmt_group(info->written, b1,
		    sizeof b1), info->written == 1 ? "" : "s");
	else
		printf(": %s (%s, %s)", dry ? "would write a new file" :
		    "written as a new file", gguf_fmt_size(info->file_size, b1,
		    sizeof b1), info->relayout ? "tensor data re-laid out" :
		    "tensor data copied as is");
	if (info->reserve > 0)
		printf(", header reserve %s bytes", gguf_fmt_group(info->reserve,
		    b2, sizeof b2));
	putchar('\n');
}

/*
 * --verify: compares the data of every tensor the save copied in the
 * source and in the result (path). *line gets what to say; -1 if the
 * data is not intact, or (with *line NULL, the error printed) if it
 * could not be read.
 */
static int
verify(struct gguf_proof *p, const char *path,
    const struct gguf_save_info *info, char **line)
{
	struct gguf_proof_result	r;
	struct gguf_err			err;
	struct cli_progress		pr;
	int				bad, rc;

	memset(&err, 0, sizeof err);
	*line = NULL;
	cli_progress_init(&pr, "verifying", 64u << 20);
	rc = gguf_proof_check(p, path, info->how == GGUF_SAVE_INPLACE,
	    cli_progress, &pr, &r, &err);
	cli_progress_clear(&pr);
	if (rc != 0) {
		char	msg[sizeof err.msg + 64];

		gguf_err_text(&err, msg, sizeof msg);
		cli_error("%s: saved, but the tensor data could not be "
		    "verified: %s", path, msg);
		return -1;
	}
	*line = gguf_proof_text(&r);
	bad = r.n_changed + r.n_missing > 0;
	gguf_proof_result_free(&r);
	return bad ? -1 : 0;
}

/*
 * What the edits broke for llama.cpp, said on standard error: -1 if the
 * save must not happen (--strict).
 */
static int
check_model(struct gguf_doc *d, const struct opts *o, const char *path)
{
	return cli_model_check(d, path, o->strict);
}

/*
 * A dry run with no change to save into the file itself: the diff said
 * "no changes", and there is no save to describe (a new file -o would
 * still be written).
 */
static int
dry_nothing(struct gguf_doc *d, const struct gguf_save_info *info)
{
	struct gguf_change	*ch;
	size_t			 n;

	if (info->n_notices > 0 || (info->how != GGUF_SAVE_INPLACE &&
	    info->how != GGUF_SAVE_SET))
		return 0;
	n = gguf_doc_diff(d, &ch);
	free(ch);
	return n == 0;
}

static int
save(struct gguf_doc *d, const struct opts *o)
{
	struct gguf_save_opts	so;
	struct gguf_save_info	info;
	struct gguf_err		err;
	struct cli_progress	pr;
	struct sigaction	old;
	const char		*path = o->out != NULL ? o->out : o->path;
	struct gguf_proof	proof;
	char			*vline = NULL;
	int			rc, vrc = 0;

	memset(&so, 0, sizeof so);
	so.path = o->out;
	so.force = o->force;
	so.no_inplace = o->no_inplace;
	so.no_reopen = 1;		/* we exit after saving */
	so.reserve = o->reserve;
	so.progress = cli_progress;
	so.arg = &pr;
	cli_progress_init(&pr, "saving", 64u << 20);

	/* A set written as one file is a merge: split.count 0, as merge. */
	if (o->out != NULL && gguf_n_shards(gguf_doc_file(d)) > 0) {
		unsigned	nedits;

		memset(&err, 0, sizeof err);
		if (gguf_merge_prepare(d, &nedits, &err) != 0) {
			cli_file_error(o->path, &err);
			return EXIT_BADFILE;
		}
	}
	/* Where it goes: not over a file, nor a read-only one, unforced. */
	if (gguf_doc_check_target(d, &so, &err) != 0) {
		if (strstr(err.msg, "unless forced") != NULL)
			strncat(err.msg, " (--force)", sizeof err.msg -
			    strlen(err.msg) - 1);
		cli_file_error(path, &err);
		return EXIT_BADFILE;
	}
	/* What cannot be saved is a problem of the source: say so first. */
	if (gguf_doc_plan_save(d, &so, &info, &err) != 0) {
		cli_file_error(o->path, &err);
		return EXIT_BADFILE;
	}
	if (check_model(d, o, path) != 0)
		return EXIT_BADFILE;
	if (o->dry) {
		print_notices(&info);
		if (!o->quiet && !dry_nothing(d, &info))
			print_how(path, &info, 1);
		return 0;
	}

	if (o->verify && gguf_proof_begin(d, &proof, &err) != 0) {
		cli_file_error(o->path, &err);
		return EXIT_BADFILE;
	}
	cli_sigint_catch(&old);
	rc = gguf_doc_save(d, &so, &info, &err);
	cli_progress_clear(&pr);
	if (rc >= 0 && o->verify) {
		vrc = verify(&proof, path, &info, &vline);
		if (vrc != 0 && rc == 0)
			rc = -2;
	}
	if (o->verify)
		gguf_proof_free(&proof);
	cli_sigint_restore(&old);
	if (rc == -1) {
		if (strstr(err.msg, "unless forced") != NULL)
			strncat(err.msg, " (--force)", sizeof err.msg -
			    strlen(err.msg) - 1);
		cli_file_error(path, &err);
		return EXIT_BADFILE;
	}
	print_notices(&info);
	if (!o->quiet)
		print_how(path, &info, 0);
	if (o->verify && vline != NULL) {
		out_text(stdout, path, strlen(path));
		printf(": %s\n", vline);
	}
	free(vline);
	if (rc == -2)
		return EXIT_BADFILE;
	if (rc > 0) {
		cli_file_error(path, &err);
		return EXIT_BADFILE;
	}
	return 0;
}

/* ---------------------------------------------------------------- options */

/*
 * Parses the options every modifying command shares. Positional
 * arguments are returned in pos (argv order); a word starting with a
 * single '-' that is no option is positional (a value such as -1).
 */
static int
parse_opts(const char *cmd, int argc, char **argv, int allow_steps,
    struct opts *o, char ***pos, int *npos)
{
	uint64_t		u64;
	int			i, dashdash = 0;
	const char		*a;

	memset(o, 0, sizeof *o);
	o->reserve = -1;
	*pos = calloc((size_t)argc + 1, sizeof **pos);
	if (*pos == NULL)
		abort();
	*npos = 0;
	for (i = 1; i < argc; i++) {
		a = argv[i];
		if (dashdash || a[0] != '-' || a[1] == '\0') {
			(*pos)[(*npos)++] = argv[i];
			continue;
		}
		if (strcmp(a, "--") == 0)
			dashdash = 1;
		else if (strcmp(a, "-i") == 0 || strcmp(a, "--in-place") == 0)
			o->inplace = 1;
		else if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
			if (++i == argc)
				goto needarg;
			if (argv[i][0] == '\0') {
				cli_usage_error(cmd, "%s: the output file name "
				    "is empty", a);
				return -1;
			}
			o->out = argv[i];
		} else if (allow_steps && (strcmp(a, "-e") == 0 ||
		    strcmp(a, "-f") == 0)) {
			if (++i == argc)
				goto needarg;
			o->steps = realloc(o->steps, (o->nsteps + 1) *
			    sizeof *o->steps);
			if (o->steps == NULL)
				abort();
			o->steps[o->nsteps].text = a[1] == 'e' ? argv[i] : NULL;
			o->steps[o->nsteps].script = a[1] == 'f' ? argv[i] :
			    NULL;
			o->nsteps++;
		} else if (strcmp(a, "-n") == 0 || strcmp(a, "--dry-run") == 0)
			o->dry = 1;
		else if (strcmp(a, "--force") == 0)
			o->force = 1;
		else if (strcmp(a, "--strict") == 0)
			o->strict = 1;
		else if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0)
			o->verbose = 1;
		else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0)
			o->quiet = 1;
		else if (strcmp(a, "--rewrite") == 0)
			o->no_inplace = 1;
		else if (strcmp(a, "--verify") == 0)
			o->verify = 1;
		else if (strcmp(cmd, "rm") == 0 && strcmp(a, "--if-exists") ==
		    0)
			o->if_exists = 1;
		else if (strcmp(a, "--reserve") == 0 ||
		    strncmp(a, "--reserve=", 10) == 0) {
			const char	*v = a[9] == '=' ? a + 10 : NULL;

			if (v == NULL) {
				if (++i == argc)
					goto needarg;
				v = argv[i];
			}
			if (cli_parse_size(v, &u64) != 0) {
				cli_usage_error(cmd, "--reserve: '%s' is not a "
				    "size: a whole number of bytes, or with a "
				    "unit (%s)", v, CLI_SIZE_UNITS);
				return -1;
			}
			if (u64 > (1ull << 30)) {
				cli_usage_error(cmd, "--reserve: %s is more "
				    "than it takes (at most 1 GiB)", v);
				return -1;
			}
			o->reserve = (int64_t)u64;
		} else if (a[1] == '-') {
			cli_usage_error(cmd, "unknown option '%s'", a);
			return -1;
		} else
			(*pos)[(*npos)++] = argv[i];
	}
	return 0;
needarg:
	cli_usage_error(cmd, "option '%s' needs an argument", a);
	return -1;
}

static int
check_target(const char *cmd, const struct opts *o)
{
	if (o->inplace && o->out != NULL) {
		cli_usage_error(cmd, "-i and -o exclude each other");
		return -1;
	}
	if (!o->dry && !o->inplace && o->out == NULL) {
		cli_usage_error(cmd, "refusing to modify without being told "
		    "where to write: -i edits the file in place, -o OUT "
		    "writes a copy (--dry-run shows the changes)");
		return -1;
	}
	if (o->inplace && o->path != NULL && gguf_is_url(o->path)) {
		cli_usage_error(cmd, "-i cannot edit a model read from a URL "
		    "in place: write a local copy with -o OUT");
		return -1;
	}
	return 0;
}

static struct gguf_doc *
open_doc(const char *path)
{
	struct gguf_doc	*d;
	struct gguf_err	 err;
	char		 why[160];
	long		 pid;

	memset(&err, 0, sizeof err);
	if ((pid = gguf_save_holder(path)) != 0) {
		if (pid > 0)
			snprintf(err.msg, sizeof err.msg, "the file is being "
			    "saved by process %ld: try again when it is done",
			    pid);
		else
			snprintf(err.msg, sizeof err.msg, "the file is being "
			    "saved by another process: try again when it is "
			    "done");
		cli_file_error(path, &err);
		return NULL;
	}
	/* One not ours is ignored: only a save in place refuses it. */
	if (gguf_journal_trust(path, why, sizeof why) == GGUF_JOURNAL_OURS) {
		snprintf(err.msg, sizeof err.msg, "an interrupted save left "
		    "a journal: run 'ggufed recover' on the file first");
		cli_file_error(path, &err);
		return NULL;
	}
	/* A shard opens its set: each edit goes to the shard it belongs to. */
	d = gguf_doc_open_set(path, cli_alone ? GGUF_OPEN_ALONE :
	    GGUF_OPEN_STRICT, &err);
	if (d == NULL)
		cli_file_error(path, &err);
	return d;
}

/*
 * A metadata edit of shard 2..N of a split model changes nothing
 * llama.cpp reads: say so.
 */
static void
warn_later_shard(struct gguf_doc *d, const char *path)
{
	struct gguf_change	*ch = NULL;
	struct gguf_val		*no;
	size_t			 n, i;
	int			 meta = 0;

	no = gguf_kv_get(gguf_doc_file(d), "split.no");
	if (no == NULL || no->type != GGUF_VT_U16 || gguf_val_bits(no) == 0)
		return;
	n = gguf_doc_diff(d, &ch);
	for (i = 0; i < n; i++)
		if (ch[i].what == GGUF_CH_KV && !(ch[i].new_name.n >= 6 &&
		    memcmp(ch[i].new_name.p, "split.", 6) == 0))
			meta = 1;
	free(ch);
	if (meta) {
		fprintf(stderr, "%s: ", cli_prog);
		out_text(stderr, path, strlen(path));
		fprintf(stderr, ": warning: this is shard %llu of a split "
		    "model: llama.cpp reads metadata from the first shard "
		    "only\n", (unsigned long long)gguf_val_bits(no) + 1);
	}
}

/* After the commands: the diff if asked, then the save. */
static int
finish(struct gguf_doc *d, const struct opts *o)
{
	warn_later_shard(d, o->path);
	if (o->dry || o->verbose)
		print_diff(stdout, d);
	return save(d, o);
}

/*
 * Removes script if it is a script of unsaved edits the browser kept for
 * path (LANG_RESCUE_HEAD, and LANG_RESCUE_FILE naming path), saying so:
 * its edits were just saved into path.
 */
static void
forget_rescue(const char *script, const char *path)
{
	struct stat	 st;
	FILE		*fp;
	char		 line[PATH_MAX * 4 + 16], *real, *q;
	int		 i, head = 0, mine = 0;

	/* A kept script is a regular file: a FIFO is not opened again. */
	if (strcmp(script, "-") == 0 || stat(script, &st) != 0 ||
	    !S_ISREG(st.st_mode) || (fp = fopen(script, "r")) == NULL)
		return;
	if ((real = realpath(path, NULL)) == NULL) {
		fclose(fp);
		return;
	}
	q = gguf_str_quote(real, strlen(real));
	for (i = 0; i < 4 && fgets(line, sizeof line, fp) != NULL; i++) {
		line[strcspn(line, "\n")] = '\0';
		if (i == 0)
			head = strncmp(line, LANG_RESCUE_HEAD,
			    sizeof LANG_RESCUE_HEAD - 1) == 0;
		else if (strncmp(line, LANG_RESCUE_FILE,
		    sizeof LANG_RESCUE_FILE - 1) == 0)
			mine = strcmp(line + sizeof LANG_RESCUE_FILE - 1, q) ==
			    0;
	}
	fclose(fp);
	free(q);
	free(real);
	if (!head || !mine)
		return;
	if (unlink(script) == 0)
		fprintf(stderr, "%s: removed %s: the unsaved edits it kept are "
		    "saved\n", cli_prog, script);
	else
		fprintf(stderr, "%s: warning: %s: %s (its edits are saved; "
		    "remove it)\n", cli_prog, script, strerror(errno));
}

/* ------------------------------------------------------------ subcommands */

int
cmd_edit(int argc, char **argv)
{
	struct opts	 o;
	struct gguf_doc	*d = NULL;
	char		**pos = NULL, where[32];
	int		 npos, rc;
	size_t		 k;

	argc = cli_take_shard(argc, argv);
	if ((rc = parse_opts("edit", argc, argv, 1, &o, &pos, &npos)) != 0) {
		rc = EXIT_USAGE;
		goto out;
	}
	if (npos != 1) {
		cli_usage_error("edit", npos == 0 ? "missing FILE" :
		    "one FILE only (commands go after -e)");
		rc = EXIT_USAGE;
		goto out;
	}
	o.path = pos[0];
	if (check_target("edit", &o) != 0) {
		rc = EXIT_USAGE;
		goto out;
	}
	if ((d = open_doc(o.path)) == NULL) {
		rc = EXIT_BADFILE;
		goto out;
	}
	edit_dry = o.dry;
	for (k = 0; k < o.nsteps; k++) {
		if (o.steps[k].script != NULL)
			rc = run_script(d, o.steps[k].script, o.force);
		else {
			snprintf(where, sizeof where, "-e #%zu", k + 1);
			rc = cli_edit_line(d, o.steps[k].text, o.force,
			    cli_edit_own_steps ? NULL : where, NULL);
		}
		if (rc != 0) {
			rc = refused_status(rc);
			goto out;
		}
	}
	rc = finish(d, &o);
	/* A kept script of the browser's, now saved into its file, is done. */
	if (rc == 0 && o.inplace && !o.dry)
		for (k = 0; k < o.nsteps; k++)
			if (o.steps[k].script != NULL)
				forget_rescue(o.steps[k].script, o.path);
out:
	gguf_doc_free(d);
	free(o.steps);
	free(pos);
	return rc;
}

/* A shorthand: FILE then the words of one command. */
static int
shorthand(const char *name, int nwords, int argc, char **argv)
{
	struct opts	 o;
	struct lang_cmd	 cmd;
	struct gguf_doc	*d = NULL;
	char		**pos = NULL, msg[2048];
	int		 npos, rc;

	memset(&cmd, 0, sizeof cmd);
	argc = cli_take_shard(argc, argv);
	if ((rc = parse_opts(name, argc, argv, 0, &o, &pos, &npos)) != 0) {
		rc = EXIT_USAGE;
		goto out;
	}
	if (npos < 1 + nwords - (strcmp(name, "rename") == 0) ||
	    npos > 1 + nwords) {
		cli_usage_error(name, "expected FILE and %d argument%s", nwords,
		    nwords == 1 ? "" : "s");
		rc = EXIT_USAGE;
		goto out;
	}
	o.path = pos[0];
	pos[0] = argv[0];		/* the words: the command, its args */
	if (lang_parse_words(npos, pos, &cmd, msg, sizeof msg) != LANG_OK) {
		cli_usage_error(name, "%s", msg);
		rc = EXIT_USAGE;
		goto out;
	}
	if (check_target(name, &o) != 0) {
		rc = EXIT_USAGE;
		goto out;
	}
	if ((d = open_doc(o.path)) == NULL) {
		rc = EXIT_BADFILE;
		goto out;
	}
	cmd.force = o.force;
	cmd.dry = o.dry;
	cmd.if_exists = o.if_exists;
	rc = lang_apply(d, &cmd, msg, sizeof msg);
	report(NULL, NULL, rc, msg);
	if (rc < 0) {
		rc = refused_status(rc);
		goto out;
	}
	rc = finish(d, &o);
out:
	lang_cmd_free(&cmd);
	gguf_doc_free(d);
	free(o.steps);
	free(pos);
	return rc;
}

int
cmd_set(int argc, char **argv)
{
	return shorthand("set", 2, argc, argv);
}

int
cmd_rm(int argc, char **argv)
{
	return shorthand("rm", 1, argc, argv);
}

int
cmd_mv(int argc, char **argv)
{
	return shorthand("mv", 2, argc, argv);
}

int
cmd_rename(int argc, char **argv)
{
	return shorthand("rename", 2, argc, argv);
}

int
cmd_rm_tensor(int argc, char **argv)
{
	return shorthand("rm-tensor", 1, argc, argv);
}

int
cmd_convert(int argc, char **argv)
{
	return shorthand("convert", 2, argc, argv);
}

int
cmd_recover(int argc, char **argv)
{
	struct gguf_leftovers	lo;
	struct gguf_err		err;
	const char		*path;
	char			sz[32];
	int			rc, n;

	if (argc != 2 || argv[1][0] == '-') {
		cli_usage_error("recover", argc == 2 ? "unknown option" :
		    "expected FILE");
		return EXIT_USAGE;
	}
	path = argv[1];
	memset(&err, 0, sizeof err);
	/* No file and no journal of it: nothing to recover is an error. */
	if (access(path, F_OK) != 0) {
		n = errno;
		if (!gguf_journal_exists(path)) {
			snprintf(err.msg, sizeof err.msg, "%s", strerror(n));
			cli_file_error(path, &err);
			return EXIT_BADFILE;
		}
	}
	rc = gguf_recover(path, &err);
	if (rc < 0) {
		cli_file_error(path, &err);
		return EXIT_BADFILE;
	}
	if ((n = cli_stale_temps(path, 1, &lo, &err)) < 0) {
		cli_file_error(path, &err);
		return EXIT_BADFILE;
	}
	if (rc != 0 || n == 0)
		out_text(stdout, path, strlen(path));
	if (rc == 1)
		puts(": rolled back the interrupted save: the file is as it "
		    "was before it");
	else if (rc == 2)
		puts(": removed an incomplete journal (the file had not been "
		    "modified)");
	else if (n == 0)
		puts(": no journal, nothing to recover");
	if (lo.temps > 0) {
		out_text(stdout, path, strlen(path));
		printf(": removed %d temporary file%s (%s): the new file%s of "
		    "a save that was cut off before it replaced anything (the "
		    "file itself was not modified)\n", lo.temps,
		    lo.temps == 1 ? "" : "s", gguf_fmt_size(lo.temp_bytes, sz,
		    sizeof sz), lo.temps == 1 ? "" : "s");
	}
	if (lo.backups > 0) {
		out_text(stdout, path, strlen(path));
		printf(": removed %d old shard%s (.ggufed-old, %s) that a save "
		    "of the set left after it completed (the set is the one "
		    "saved)\n", lo.backups, lo.backups == 1 ? "" : "s",
		    gguf_fmt_size(lo.backup_bytes, sz, sizeof sz));
	}
	return 0;
}
