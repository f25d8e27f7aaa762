/*
 * cat.c - `ggufed cat FILE TENSOR [--rows A:B] [--cols A:B] [--slice I,J]
 * [--raw]`: a tensor's values as text.
 *
 * A tensor is printed as rows of ne[0] values, one row per line, values
 * separated by one space. Floats print with %.9g, which reads back to the
 * same float32 bits; F64 with %.17g; integer types as exact integers. Only
 * the blocks holding the chosen window are decoded.
 *
 * Rows are numbered over the whole tensor (ne[1] * ne[2] * ne[3] of them),
 * or, with --slice I,J, within the matrix at index I of dimension 2 and J
 * of dimension 3. Ranges are half-open, A:B, with either end optional; a
 * single number N means N:N+1.
 *
 * --raw prints what the window's blocks store instead: for quantized types
 * each block's scales, mins and quants as numbers (the block view of the
 * dequantizer); for plain types the stored bit patterns in hex. Where a
 * tensor's blocks cross rows (an early converter's), blocks are numbered
 * over the tensor and located by element.
 *
 * This file also holds the helpers `ggufed stats` shares: tensor lookup
 * with suggestions, allocation.
 */
#include "config.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "dequant.h"
#include "suggest.h"

#define CAT_CHUNK	65536	/* elements decoded per call */

/* --------------------------------------------------------------- helpers */

const struct gguf_tensor *
cli_find_tensor(const struct gguf_file *f, const char *path,
    const char *name)
{
	const struct gguf_tensor	*t;
	uint64_t			 i, n = gguf_layout(f)->n_tensors;
	uint64_t			 best[3];
	unsigned			 dist[3], d;
	int64_t				 idx;
	int				 k, m, nbest = 0;

	idx = gguf_tensor_find(f, name, strlen(name));
	if (idx >= 0)
		return gguf_tensor_at(f, (uint64_t)idx);
	for (i = 0; i < n; i++) {
		t = gguf_tensor_at(f, i);
		d = gguf_suggest_distance(name, strlen(name), t->name.p,
		    (size_t)t->name.n, UINT_MAX - 1);
		for (k = 0; k < nbest && dist[k] <= d; k++)
			;
		if (k >= 3)
			continue;
		for (m = nbest < 3 ? nbest : 2; m > k; m--) {
			dist[m] = dist[m - 1];
			best[m] = best[m - 1];
		}
		dist[k] = d;
		best[k] = i;
		if (nbest < 3)
			nbest++;
	}
	fprintf(stderr, "%s: ", cli_prog);
	out_text(stderr, path, strlen(path));
	fputs(": no tensor ", stderr);
	out_quoted(stderr, name, strlen(name));
	for (k = 0; k < nbest; k++) {
		t = gguf_tensor_at(f, best[k]);
		fputs(k == 0 ? "; closest: " : ", ", stderr);
		out_quoted(stderr, t->name.p, t->name.n);
	}
	if (n == 0)
		fputs(" (the file has no tensors)", stderr);
	fputc('\n', stderr);
	return NULL;
}

/* ------------------------------------------------------------------ cat */

struct window {
	uint64_t	row0;		/* absolute first row */
	uint64_t	nrows;
	uint64_t	col0;
	uint64_t	ncols;
};

static void
print_row_values(const float *fv, const double *dv, const int64_t *iv,
    uint64_t n, int first)
{
	uint64_t	i;

	for (i = 0; i < n; i++) {
		if (!first || i > 0)
			putchar(' ');
		if (iv != NULL)
			printf("%" PRId64, iv[i]);
		else if (dv != NULL)
			printf("%.17g", dv[i]);
		else
			printf("%.9g", (double)fv[i]);
	}
}

static int
cat_values(const struct gguf_file *f, const struct gguf_tensor *t,
    const struct window *w, struct gguf_err *err)
{
	const struct gguf_type_info	*ti = gguf_ttype(t->type);
	int				 ints = (ti->flags & GGUF_TF_INT) != 0;
	int				 wide = t->type == GGUF_T_F64;
	uint64_t			 r, off, k;
	float				*fv = NULL;
	double				*dv = NULL;
	int64_t				*iv = NULL;
	int				 rc = -1;

	if (gguf_tensor_read(f, t, 0, NULL, 0, err) != 0)
		return -1;
	if (ints)
		iv = xcalloc(CAT_CHUNK, sizeof *iv);
	else if (wide)
		dv = xcalloc(CAT_CHUNK, sizeof *dv);
	else
		fv = xcalloc(CAT_CHUNK, sizeof *fv);
	for (r = w->row0; r < w->row0 + w->nrows; r++) {
		for (off = 0; off < w->ncols; off += k) {
			k = w->ncols - off < CAT_CHUNK ? w->ncols - off :
			    CAT_CHUNK;
			if ((ints ? gguf_dequant_rows_i64(f, t, r, 1,
			    w->col0 + off, k, iv, err) : wide ?
			    gguf_dequant_rows_f64(f, t, r, 1, w->col0 + off, k,
			    dv, err) : gguf_dequant_rows(f, t, r, 1,
			    w->col0 + off, k, fv, err)) != 0)
				goto out;
			print_row_values(fv, dv, iv, k, off == 0);
		}
		putchar('\n');
		if (ferror(stdout))
			break;
	}
	rc = 0;
out:
	free(fv);
	free(dv);
	free(iv);
	return rc;
}

static void
print_view(const struct gguf_blockview *bv)
{
	uint32_t	k, i;
	double		v;

	for (k = 0; k < bv->nfield; k++) {
		printf("%s", bv->f[k].name);
		for (i = 0; i < bv->f[k].n; i++) {
			v = bv->v[bv->f[k].off + i];
			if (bv->f[k].integral)
				printf(" %.0f", v);
			else
				printf(" %.9g", v);
		}
		printf("\t# %s\n", bv->f[k].what);
	}
}

static int
cat_raw(const struct gguf_file *f, const struct gguf_tensor *t,
    const struct window *w, struct gguf_err *err)
{
	const struct gguf_type_info	*ti = gguf_ttype(t->type);
	const uint8_t			*p;
	struct gguf_blockview		*bv;
	uint8_t				*row;
	int				 be = gguf_layout(f)->be;
	uint64_t			 r, b, b0, b1, c, e, k;
	unsigned			 i;

	if (gguf_dequant_check(t->type, be, err) != 0)
		return -1;
	if (gguf_tensor_read(f, t, 0, NULL, 0, err) != 0)
		return -1;
	if (!(ti->flags & GGUF_TF_QUANT)) {
		/* plain types: the stored bits, in the file's byte order */
		row = xcalloc(CAT_CHUNK, ti->bytes);
		for (r = w->row0; r < w->row0 + w->nrows; r++) {
			for (c = 0; c < w->ncols; c += k) {
				k = w->ncols - c < CAT_CHUNK ? w->ncols - c :
				    CAT_CHUNK;
				if (gguf_tensor_read(f, t, (r * t->ne[0] +
				    w->col0 + c) * ti->bytes, row,
				    k * ti->bytes, err) != 0) {
					free(row);
					return -1;
				}
				for (e = 0; e < k; e++) {
					p = row + e * ti->bytes;
					fputs(c + e > 0 ? " 0x" : "0x", stdout);
					for (i = 0; i < ti->bytes; i++)
						printf("%02x", p[be ? i :
						    ti->bytes - 1 - i]);
				}
			}
			putchar('\n');
		}
		free(row);
		return 0;
	}
	bv = xcalloc(1, sizeof *bv);
	for (r = w->row0; r < w->row0 + w->nrows; r++) {
		if (w->ncols == 0)
			break;
		e = r * t->ne[0] + w->col0;
		b0 = e / ti->blck;
		b1 = (e + w->ncols - 1) / ti->blck;
		for (b = b0; b <= b1; b++) {
			if (gguf_tensor_block_view(f, t, b, bv, err) != 0) {
				free(bv);
				return -1;
			}
			if (t->flags & GGUF_TENSOR_XROW)
				/* Blocks cross rows: say where in the run. */
				printf("# row %llu, block %llu of the tensor: "
				    "elements %llu:%llu (the row is %llu:%llu), "
				    "data offset %llu\n", (unsigned long long)r,
				    (unsigned long long)b,
				    (unsigned long long)(b * ti->blck),
				    (unsigned long long)((b + 1) * ti->blck),
				    (unsigned long long)(r * t->ne[0]),
				    (unsigned long long)((r + 1) * t->ne[0]),
				    (unsigned long long)(b * ti->bytes));
			else
				printf("# row %llu, block %llu: columns "
				    "%llu:%llu, data offset %llu\n",
				    (unsigned long long)r,
				    (unsigned long long)(b - r * t->ne[0] /
				    ti->blck),
				    (unsigned long long)(b * ti->blck -
				    r * t->ne[0]),
				    (unsigned long long)((b + 1) * ti->blck -
				    r * t->ne[0]),
				    (unsigned long long)(b * ti->bytes));
			print_view(bv);
		}
	}
	free(bv);
	return 0;
}

/*
 * "rows 200:300 out of range: the tensor has 128 rows (valid 0:128)";
 * "rows 200: ..." for a range given without its end (has_b 0).
 */
static int
usage_range(const char *what, uint64_t a, uint64_t b, int has_b,
    uint64_t max, const char *whole)
{
	char	g[32], end[32];

	end[0] = '\0';
	if (has_b)
		snprintf(end, sizeof end, "%llu", (unsigned long long)b);
	cli_usage_error("cat", "%s %llu:%s out of range: %s has %s %s "
	    "(valid 0:%llu)", what, (unsigned long long)a, end, whole,
	    gguf_fmt_group(max, g, sizeof g), what, (unsigned long long)max);
	return EXIT_USAGE;
}

int
cmd_cat(int argc, char **argv)
{
	const struct gguf_tensor	*t;
	struct gguf_file		*f;
	struct gguf_err			 err;
	struct window			 w;
	const char			*path = NULL, *name = NULL;
	const char			*rows = NULL, *cols = NULL, *slice = NULL;
	unsigned long long		 si = 0, sj = 0;
	uint64_t			 ra, rb, ca, cb, nrows, base;
	int				 i, raw = 0, has_rb, has_cb, rc, dd = 0;
	char				 sbuf[64], *comma;

	argc = cli_take_shard(argc, argv);

	for (i = 1; i < argc; i++) {
		const char	*opt = cli_opt(argv[i], &dd);

		if (opt == NULL)
			continue;
		if (strcmp(opt, "--raw") == 0)
			raw = 1;
		else if ((strcmp(opt, "--rows") == 0 ||
		    strcmp(opt, "--cols") == 0 ||
		    strcmp(opt, "--slice") == 0) && i + 1 < argc) {
			if (argv[i][2] == 'r')
				rows = argv[++i];
			else if (argv[i][2] == 'c')
				cols = argv[++i];
			else
				slice = argv[++i];
		} else if (opt[0] == '-' && opt[1] == '-') {
			cli_usage_error("cat", "unknown option or missing "
			    "value: '%s'", argv[i]);
			return EXIT_USAGE;
		} else if (path == NULL)
			path = argv[i];
		else if (name == NULL)
			name = argv[i];
		else {
			cli_usage_error("cat", "too many arguments");
			return EXIT_USAGE;
		}
	}
	if (name == NULL) {
		cli_usage_error("cat", "missing %s", path == NULL ?
		    "FILE and TENSOR" : "TENSOR");
		return EXIT_USAGE;
	}
	ra = ca = 0;
	if (rows != NULL && cli_parse_range(rows, &ra, &rb, &has_rb) != 0) {
		cli_usage_error("cat", "--rows wants A:B, A:, :B or N, not "
		    "'%s'", rows);
		return EXIT_USAGE;
	}
	if (cols != NULL && cli_parse_range(cols, &ca, &cb, &has_cb) != 0) {
		cli_usage_error("cat", "--cols wants A:B, A:, :B or N, not "
		    "'%s'", cols);
		return EXIT_USAGE;
	}
	if ((rows != NULL && cli_range_sane("cat", "--rows", rows, ra, rb,
	    has_rb) != 0) || (cols != NULL && cli_range_sane("cat", "--cols",
	    cols, ca, cb, has_cb) != 0))
		return EXIT_USAGE;
	if (slice != NULL) {
		snprintf(sbuf, sizeof sbuf, "%s", slice);
		comma = strchr(sbuf, ',');
		if (comma != NULL)
			*comma++ = '\0';
		if (cli_parse_u64(sbuf, &si) != 0 || (comma != NULL &&
		    cli_parse_u64(comma, &sj) != 0)) {
			cli_usage_error("cat", "--slice wants I or I,J, not "
			    "'%s'", slice);
			return EXIT_USAGE;
		}
	}
	if ((f = cli_open(path)) == NULL)
		return EXIT_BADFILE;
	cli_set_warning(path, f);
	rc = EXIT_USAGE;
	if ((t = cli_find_tensor(f, path, name)) == NULL) {
		rc = EXIT_BADFILE;
		goto out;
	}
	nrows = gguf_tensor_nrows(t);
	base = 0;
	if (slice != NULL) {
		if (si >= t->ne[2] || sj >= t->ne[3]) {
			cli_usage_error("cat", "slice %llu,%llu out of range: "
			    "the tensor has %llu x %llu matrices (valid "
			    "0:%llu, 0:%llu)", si, sj,
			    (unsigned long long)t->ne[2],
			    (unsigned long long)t->ne[3],
			    (unsigned long long)t->ne[2],
			    (unsigned long long)t->ne[3]);
			goto out;
		}
		nrows = t->ne[1];
		base = (sj * t->ne[2] + si) * t->ne[1];
	}
	if (rows == NULL || !has_rb)
		rb = nrows;
	if (cols == NULL || !has_cb)
		cb = t->ne[0];
	if (ra > rb || rb > nrows) {
		rc = usage_range("rows", ra, rb, rows != NULL && has_rb,
		    nrows, slice != NULL ? "the slice" : "the tensor");
		goto out;
	}
	if (ca > cb || cb > t->ne[0]) {
		rc = usage_range("columns", ca, cb, cols != NULL && has_cb,
		    t->ne[0], "the tensor");
		goto out;
	}
	w.row0 = base + ra;
	w.nrows = rb - ra;
	w.col0 = ca;
	w.ncols = cb - ca;
	memset(&err, 0, sizeof err);
	if (gguf_dequant_check(t->type, gguf_layout(f)->be, &err) != 0 ||
	    (raw ? cat_raw(f, t, &w, &err) : cat_values(f, t, &w,
	    &err)) != 0) {
		cli_file_error(path, &err);
		rc = EXIT_BADFILE;
		goto out;
	}
	rc = 0;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		cli_error("write error on standard output");
		rc = EXIT_BADFILE;
	}
out:
	gguf_close(f);
	return rc;
}
