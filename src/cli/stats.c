/*
 * stats.c - `ggufed stats FILE (TENSOR... | --all) [--rows A:B] [--json]
 * [--threads N]`: whole-tensor statistics.
 *
 * For each tensor: count, finite values, zeros, NaN, +Inf, -Inf, min,
 * max, mean and standard deviation of the finite values, the percentiles
 * p1, p5, p50, p95 and p99 (within (max - min) / 4096, see stats.h), and
 * a 64-bin histogram over [min, max]. Named tensors get a report with the
 * histogram drawn; --all prints one line per tensor. --json prints one
 * JSON document in both cases, {"file", "tensors": [...]} with an object
 * per tensor (NaN and infinities as strings, as elsewhere). When standard error is a terminal, progress is shown there.
 *
 * A tensor that cannot be decoded (unknown type, quantized data in a
 * big-endian file, data past the end of the file) is reported and
 * skipped; the exit status is then 1.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "dequant.h"
#include "stats.h"

/* One tensor's element of the document's "tensors" array. */
static void
print_json(struct json *j, const struct gguf_tensor *t,
    const struct gguf_stats *st, const char *error)
{
	char	tb[24];
	int	b;

	json_obj(j, JSON_FLAT);
	json_key(j, "tensor");
	json_str(j, t->name.p, t->name.n);
	json_key(j, "type");
	json_cstr(j, gguf_ttype_name(t->type, tb));
	if (error != NULL) {
		json_key(j, "error");
		json_cstr(j, error);
		json_end(j);
		return;
	}
	json_key(j, "count");
	json_u64(j, st->count);
	json_key(j, "finite");
	json_u64(j, st->nfinite);
	json_key(j, "zeros");
	json_u64(j, st->nzero);
	json_key(j, "nan");
	json_u64(j, st->nnan);
	json_key(j, "pinf");
	json_u64(j, st->npinf);
	json_key(j, "ninf");
	json_u64(j, st->nninf);
	json_key(j, "min");
	json_double(j, st->min);
	json_key(j, "max");
	json_double(j, st->max);
	json_key(j, "mean");
	json_double(j, st->mean);
	json_key(j, "std");
	json_double(j, st->std);
	for (b = 0; b < GGUF_STATS_NPCT; b++) {
		snprintf(tb, sizeof tb, "p%g", gguf_stats_pct[b]);
		json_key(j, tb);
		json_double(j, st->pct[b]);
	}
	json_key(j, "hist");
	json_arr(j, JSON_FLAT);
	for (b = 0; b < GGUF_STATS_BINS; b++)
		json_u64(j, st->hist[b]);
	json_end(j);
	json_key(j, "edges");
	json_arr(j, JSON_FLAT);
	for (b = 0; b <= GGUF_STATS_BINS; b++)
		json_double(j, st->edge[b]);
	json_end(j);
	json_end(j);
}

/* Counts in human output are grouped: G(v, slot) is v in buffer g[slot]. */
#define G(v, slot)	gguf_fmt_group((v), g[(slot)], sizeof g[(slot)])

static void
print_line(const struct gguf_tensor *t, const struct gguf_stats *st,
    const char *error)
{
	char	tb[24], g[5][32];
	int	b;

	out_text(stdout, t->name.p, t->name.n);
	printf("\t%s", gguf_ttype_name(t->type, tb));
	if (error != NULL) {
		fputs("\terror: ", stdout);
		out_msg(stdout, error);
		putchar('\n');
		return;
	}
	printf("\tcount=%s min=%.9g max=%.9g mean=%.9g std=%.9g",
	    G(st->count, 0), st->min, st->max, st->mean, st->std);
	for (b = 0; b < GGUF_STATS_NPCT; b++)
		printf(" p%g=%.6g", gguf_stats_pct[b], st->pct[b]);
	printf(" zeros=%s nan=%s +inf=%s -inf=%s\n", G(st->nzero, 1),
	    G(st->nnan, 2), G(st->npinf, 3), G(st->nninf, 4));
}

static void
print_report(const struct gguf_tensor *t, const struct gguf_stats *st)
{
	uint64_t	top = 0;
	char		tb[24], bar[41], g[6][32];
	int		b, n;

	fputs("tensor   ", stdout);
	out_text(stdout, t->name.p, t->name.n);
	printf("\ntype     %s\n", gguf_ttype_name(t->type, tb));
	printf("shape    %llu x %llu x %llu x %llu\n",
	    (unsigned long long)t->ne[0], (unsigned long long)t->ne[1],
	    (unsigned long long)t->ne[2], (unsigned long long)t->ne[3]);
	printf("count    %s\nfinite   %s\nzeros    %s\nnan      %s\n"
	    "+inf     %s\n-inf     %s\n", G(st->count, 0), G(st->nfinite, 1),
	    G(st->nzero, 2), G(st->nnan, 3), G(st->npinf, 4),
	    G(st->nninf, 5));
	printf("min      %.9g\nmax      %.9g\nmean     %.9g\nstd      %.9g\n",
	    st->min, st->max, st->mean, st->std);
	if (st->nfinite == 0)
		return;
	for (b = 0; b < GGUF_STATS_NPCT; b++) {
		snprintf(tb, sizeof tb, "p%g", gguf_stats_pct[b]);
		printf("%-8s %.6g\n", tb, st->pct[b]);
	}
	if (!(st->min < st->max)) {
		printf("histogram (one value)\n  %14.6g %12s %s\n", st->min,
		    G(st->nfinite, 0), "########################################");
		return;
	}
	printf("histogram (%d bins over [min, max], each from its lower "
	    "edge)\n", GGUF_STATS_BINS);
	for (b = 0; b < GGUF_STATS_BINS; b++)
		top = st->hist[b] > top ? st->hist[b] : top;
	for (b = 0; b < GGUF_STATS_BINS; b++) {
		n = top > 0 ? (int)((double)st->hist[b] * 40.0 /
		    (double)top + 0.5) : 0;
		memset(bar, '#', (size_t)n);
		bar[n] = '\0';
		printf("  %14.6g %12s %s\n", st->edge[b],
		    G(st->hist[b], 0), bar);
	}
}

/* What printing a tensor's results needs. */
struct printer {
	const char		*path;
	const struct gguf_file	*f;
	struct cli_progress	*pr;
	struct json		*j;	/* or NULL */
	const struct gguf_tensor **named;	/* the tensors named, or NULL:
						   every tensor (--all) */
	uint64_t		 n;
	const char		*rows;	/* --rows, or NULL */
	uint64_t		 ra, rb;
	int			 has_rb;
	int			 all;
	int			 rc;
	uint64_t		 reports;	/* printed so far */
};

/* Tensor k of those asked. */
static const struct gguf_tensor *
tensor_of(const struct printer *pp, uint64_t k)
{
	return pp->named != NULL ? pp->named[k] : gguf_tensor_at(pp->f, k);
}

/* Job k: its tensor and rows; a range outside the tensor fails it alone. */
static void
job_of(void *arg, uint64_t k, struct gguf_stats_job *job)
{
	struct printer	*pp = arg;
	uint64_t	 nrows, a, b;
	char		 g1[32];

	job->t = tensor_of(pp, k);
	nrows = gguf_tensor_nrows(job->t);
	a = pp->ra;
	b = pp->has_rb ? pp->rb : nrows;
	if (pp->rows != NULL && (a > b || b > nrows)) {
		job->rc = gguf_errf(&job->err, -1, "rows %llu:%llu out of "
		    "range: the tensor has %s row%s (valid 0:%llu)",
		    (unsigned long long)a, (unsigned long long)b,
		    gguf_fmt_group(nrows, g1, sizeof g1), nrows == 1 ? "" : "s",
		    (unsigned long long)nrows);
		return;
	}
	job->row0 = a;
	job->nrows = b - a;
}

/* Job k's results, in the form asked; 1 to stop (the file changed). */
static int
print_job(void *arg, struct gguf_stats_job *job, uint64_t k)
{
	struct printer		*pp = arg;
	const struct gguf_tensor *t = job->t;
	const char		*msg = job->rc != 0 ? job->err.msg : NULL;
	struct gguf_err		 e;

	cli_progress_clear(pp->pr);
	if (k + 1 < pp->n) {
		pp->pr->index = k + 1;
		pp->pr->item = tensor_of(pp, k + 1)->name.p;
		pp->pr->item_len = tensor_of(pp, k + 1)->name.n;
	}
	if (job->rc != 0)
		pp->rc = EXIT_BADFILE;
	memset(&e, 0, sizeof e);
	if (job->rc != 0 && gguf_file_changed(pp->f, 0, &e)) {
		/* no tensor after this one can be trusted */
		fflush(stdout);
		cli_file_error(pp->path, &e);
		return 1;
	}
	if (pp->j != NULL)
		print_json(pp->j, t, &job->st, msg);
	else if (pp->all)
		print_line(t, &job->st, msg);
	else if (msg != NULL) {
		fflush(stdout);
		fprintf(stderr, "%s: ", cli_prog);
		out_text(stderr, pp->path, strlen(pp->path));
		fputs(": ", stderr);
		out_text(stderr, t->name.p, t->name.n);
		fputs(": ", stderr);
		out_msg(stderr, msg);
		fputc('\n', stderr);
	} else {
		if (pp->reports++ > 0)
			putchar('\n');
		print_report(t, &job->st);
	}
	fflush(stdout);
	return 0;
}

int
cmd_stats(int argc, char **argv)
{
	const struct gguf_tensor	*t, **named = NULL;
	struct gguf_stats_opts		 opts;
	struct cli_progress		 pr;
	struct printer			 pp;
	struct gguf_file		*f;
	struct json			 j;
	const char			*path = NULL, *rows = NULL;
	unsigned			 nthreads = 0;
	uint64_t			 n = 0, ra = 0, rb = 0;
	int				 i, all = 0, json = 0, has_rb = 0;
	int				 rc = 0, names = 0, dd = 0;

	argc = cli_take_shard(argc, argv);

	for (i = 1; i < argc; i++) {
		const char	*opt = cli_opt(argv[i], &dd);

		if (opt == NULL)
			continue;
		if (strcmp(opt, "--all") == 0)
			all = 1;
		else if (strcmp(opt, "--json") == 0)
			json = 1;
		else if (strcmp(opt, "--threads") == 0 && i + 1 < argc) {
			if (cli_parse_threads("stats", argv[++i],
			    &nthreads) != 0)
				return EXIT_USAGE;
		} else if (strcmp(opt, "--rows") == 0 && i + 1 < argc) {
			rows = argv[++i];
			if (cli_parse_range(rows, &ra, &rb, &has_rb) != 0) {
				cli_usage_error("stats", "--rows wants A:B, "
				    "A:, :B or N, not '%s'", rows);
				return EXIT_USAGE;
			}
			if (cli_range_sane("stats", "--rows", rows, ra, rb,
			    has_rb) != 0)
				return EXIT_USAGE;
		} else if (opt[0] == '-' && opt[1] == '-') {
			cli_usage_error("stats", "unknown option or missing "
			    "value: '%s'", argv[i]);
			return EXIT_USAGE;
		} else if (path == NULL)
			path = argv[i];
		else
			names++;
	}
	if (path == NULL || (names == 0 && !all) || (names > 0 && all)) {
		cli_usage_error("stats", path == NULL ? "missing FILE" :
		    names == 0 ? "name tensors or give --all" :
		    "--all and tensor names exclude each other");
		return EXIT_USAGE;
	}
	if ((f = cli_open(path)) == NULL)
		return EXIT_BADFILE;
	cli_set_warning(path, f);
	/* the tensors, in the order asked (every one: by number) */
	if (all)
		n = gguf_layout(f)->n_tensors;
	else {
		named = xcalloc((size_t)names, sizeof *named);
		for (i = 1; i < argc; i++) {
			if (strcmp(argv[i], "--threads") == 0 ||
			    strcmp(argv[i], "--rows") == 0) {
				i++;
				continue;
			}
			if (argv[i][0] == '-' && argv[i][1] == '-')
				continue;
			if (argv[i] == path)
				continue;
			if ((t = cli_find_tensor(f, path, argv[i])) == NULL) {
				rc = EXIT_BADFILE;
				goto out;
			}
			named[n++] = t;
		}
	}

	memset(&opts, 0, sizeof opts);
	cli_progress_init(&pr, "stats", 0);
	opts.threads = nthreads;
	if (pr.tty) {
		opts.progress = cli_progress;
		opts.arg = &pr;
	}
	pr.count = n;
	memset(&pp, 0, sizeof pp);
	pp.path = path;
	pp.f = f;
	pp.pr = &pr;
	pp.named = named;
	pp.n = n;
	pp.rows = rows;
	pp.ra = ra;
	pp.rb = rb;
	pp.has_rb = has_rb;
	pp.all = all;
	if (n > 0) {
		pr.item = tensor_of(&pp, 0)->name.p;
		pr.item_len = tensor_of(&pp, 0)->name.n;
	}
	if (json) {
		json_init(&j, stdout);
		json_obj(&j, JSON_LINES);
		json_key(&j, "file");
		json_cstr(&j, path);
		json_key(&j, "tensors");
		json_arr(&j, JSON_LINES);
		pp.j = &j;
	}
	(void)gguf_stats_tensors(f, n, job_of, &opts, print_job, &pp);
	cli_progress_clear(&pr);
	rc = pp.rc;
	if (json) {
		/* the document is whole even when a change on disk cut it short */
		json_end(&j);
		json_end(&j);
		json_finish(&j);
	}
	if (ferror(stdout)) {
		cli_error("write error on standard output");
		rc = EXIT_BADFILE;
	}
out:
	free(named);
	gguf_close(f);
	return rc;
}
