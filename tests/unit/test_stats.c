/*
 * test_stats.c - statistics and row summaries against a plain reference.
 *
 * The reference decodes the whole range with the dequantizer and counts
 * and sums in the most direct way, in double precision: one loop, a
 * two-pass variance, percentiles by sorting. Statistics must agree with it
 * (counts and extremes exactly; the standard deviation to 1e-12 relative,
 * the mean to 1e-12 of |mean| + standard deviation; every histogram bin
 * equal to the number of values between the edges it states, by the rule
 * of stats.h; the edges in order, within [min, max], and within a sketch
 * bucket of the equal divisions where buckets are narrow enough; every
 * percentile within a bucket, 2^-11 of its magnitude, of the exact
 * nearest-rank value) for every tensor of the fixture files, including
 * the special.* tensors of shapes.gguf (NaN, infinities, -0, subnormals),
 * whole and by row range; results must not depend on the number of
 * threads, nor on the vector kernels (the program runs itself again with
 * GGUFED_STATS=ref and compares the bytes). Progress, cancelling and
 * errors are checked on buffers built here.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gguf.h"
#include "dequant.h"
#include "stats.h"
#include "tap.h"

#define FIXDIR	"fixtures/ggml"

static int	same_double(double, double);

static int
close_to(double a, double b, double rel)
{
	if (isnan(a) || isnan(b))
		return isnan(a) && isnan(b);
	if (isinf(a) || isinf(b))
		return same_double(a, b);
	return fabs(a - b) <= rel * fmax(fabs(a), fabs(b)) + 1e-300;
}

static int
same_double(double a, double b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) && isnan(b);
	return memcmp(&a, &b, sizeof a) == 0;
}

static int
is_zero(double x)
{
	return fpclassify(x) == FP_ZERO;
}

static void
put_f32(uint8_t *p, float f)
{
	memcpy(p, &f, 4);
}

static int
cmp_double(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Exact nearest-rank percentiles of the finite values of x, sorted. */
static void
exact_pct(const double *x, uint64_t n, struct gguf_stats *st)
{
	double		*v;
	uint64_t	 i, m = 0, k;
	int		 j;

	for (j = 0; j < GGUF_STATS_NPCT; j++)
		st->pct[j] = NAN;
	v = malloc((n > 0 ? n : 1) * sizeof *v);
	for (i = 0; i < n; i++)
		if (isfinite(x[i]))
			v[m++] = x[i];
	qsort(v, m, sizeof *v, cmp_double);
	for (j = 0; j < GGUF_STATS_NPCT && m > 0; j++) {
		k = (uint64_t)ceil(gguf_stats_pct[j] / 100 * (double)m);
		k = k < 1 ? 1 : k > m ? m : k;
		st->pct[j] = v[k - 1];
	}
	free(v);
}

/*
 * got's percentiles are within the stated bound of the exact ones in
 * want: one sketch bucket, 2^-11 of the exact value's magnitude (2^-137
 * among float subnormals); equal to them if exact is set.
 */
static int
pct_agree(const struct gguf_stats *got, const struct gguf_stats *want,
    int exact, const char *what)
{
	double	bound = 0;
	int	j;

	for (j = 0; j < GGUF_STATS_NPCT; j++) {
		if (!exact)
			bound = fmax(ldexp(fabs(want->pct[j]), -11),
			    ldexp(1, -137));
		if (isnan(want->pct[j]) ? !isnan(got->pct[j]) :
		    !(fabs(got->pct[j] - want->pct[j]) <= bound) ||
		    got->pct[j] < want->min || got->pct[j] > want->max) {
			diag("%s: p%g %.17g, exact %.17g, bound %.3g", what,
			    gguf_stats_pct[j], got->pct[j], want->pct[j],
			    bound);
			return 0;
		}
	}
	return 1;
}

/*
 * The histogram of got against a count of the values of x between the
 * edges got states (stats.h: a value on an edge goes to the bin away from
 * zero; -0 is negative), and the edges themselves.
 */
static int
hist_agrees(const struct gguf_stats *got, const double *x, uint64_t n,
    const char *what)
{
	uint64_t	want[GGUF_STATS_BINS], i;
	double		mag, t, u;
	int		b, e;

	if (got->nfinite == 0)
		return 1;
	memset(want, 0, sizeof want);
	for (i = 0; i < n; i++) {
		if (!isfinite(x[i]))
			continue;
		for (b = 0, e = 1; e < GGUF_STATS_BINS; e++)
			if (signbit(x[i]) ? got->edge[e] < x[i] :
			    got->edge[e] <= x[i])
				b = e;
		want[b]++;
	}
	for (b = 0; b < GGUF_STATS_BINS; b++) {
		if (got->hist[b] != want[b]) {
			diag("%s: bin %d [%.9g, %.9g] holds %llu, want %llu",
			    what, b, got->edge[b], got->edge[b + 1],
			    (unsigned long long)got->hist[b],
			    (unsigned long long)want[b]);
			return 0;
		}
	}
	if (!same_double(got->edge[0], got->min) ||
	    !same_double(got->edge[GGUF_STATS_BINS], got->max)) {
		diag("%s: outer edges %.17g %.17g", what, got->edge[0],
		    got->edge[GGUF_STATS_BINS]);
		return 0;
	}
	/* one bucket: all in bin 0, the edges that bucket's top */
	if (got->hist[0] == got->nfinite && got->edge[1] >= got->max)
		return 1;
	mag = fmax(fabs(got->min), fabs(got->max));
	for (e = 1; e < GGUF_STATS_BINS; e++) {
		u = (double)e / GGUF_STATS_BINS;
		t = got->min * (1 - u) + got->max * u;
		if (got->edge[e] < got->edge[e - 1] ||
		    got->edge[e] > got->max || (got->max * 0.5 - got->min *
		    0.5 >= ldexp(mag, -4) && !(fabs(got->edge[e] - t) <=
		    ldexp(mag, -11)))) {
			diag("%s: edge %d %.17g (equal division %.17g)", what,
			    e, got->edge[e], t);
			return 0;
		}
	}
	return 1;
}

/* Reference statistics of n doubles, written out longhand. */
static void
reference(const double *x, uint64_t n, struct gguf_stats *st)
{
	double		sum = 0, sq = 0, d;
	uint64_t	i;

	memset(st, 0, sizeof *st);
	st->count = n;
	st->min = INFINITY;
	st->max = -INFINITY;
	for (i = 0; i < n; i++) {
		switch (fpclassify(x[i])) {
		case FP_NAN:
			st->nnan++;
			continue;
		case FP_INFINITE:
			if (signbit(x[i]))
				st->nninf++;
			else
				st->npinf++;
			continue;
		case FP_ZERO:
			st->nzero++;
			break;
		default:
			break;
		}
		st->nfinite++;
		sum += x[i];
		if (x[i] < st->min)
			st->min = x[i];
		if (x[i] > st->max)
			st->max = x[i];
	}
	exact_pct(x, n, st);
	if (st->nfinite == 0) {
		st->min = st->max = st->mean = st->std = NAN;
		return;
	}
	st->mean = sum / (double)st->nfinite;
	for (i = 0; i < n; i++) {
		if (!isfinite(x[i]))
			continue;
		d = x[i] - st->mean;
		sq += d * d;
	}
	st->std = sqrt(sq / (double)st->nfinite);
}

/*
 * Equal to the reference want of the n values x (exact: percentiles
 * too); the reason in diag() if not.
 */
static int
agrees(const struct gguf_stats *got, const struct gguf_stats *want,
    const double *x, uint64_t n, int exact, const char *what)
{
	if (got->count != want->count || got->nfinite != want->nfinite ||
	    got->nzero != want->nzero || got->nnan != want->nnan ||
	    got->npinf != want->npinf || got->nninf != want->nninf) {
		diag("%s: counts %llu/%llu/%llu/%llu/%llu/%llu, want "
		    "%llu/%llu/%llu/%llu/%llu/%llu", what,
		    (unsigned long long)got->count,
		    (unsigned long long)got->nfinite,
		    (unsigned long long)got->nzero,
		    (unsigned long long)got->nnan,
		    (unsigned long long)got->npinf,
		    (unsigned long long)got->nninf,
		    (unsigned long long)want->count,
		    (unsigned long long)want->nfinite,
		    (unsigned long long)want->nzero,
		    (unsigned long long)want->nnan,
		    (unsigned long long)want->npinf,
		    (unsigned long long)want->nninf);
		return 0;
	}
	/* a zero extreme may be either zero: the order of comparisons */
	if (!(same_double(got->min, want->min) || (is_zero(got->min) &&
	    is_zero(want->min))) || !(same_double(got->max, want->max) ||
	    (is_zero(got->max) && is_zero(want->max)))) {
		diag("%s: min/max %.17g %.17g, want %.17g %.17g", what,
		    got->min, got->max, want->min, want->max);
		return 0;
	}
	/*
	 * The mean of values that cancel is only defined to the rounding of
	 * their sum: compare it on the scale of the spread.
	 */
	if (!(isnan(want->mean) ? isnan(got->mean) : fabs(got->mean -
	    want->mean) <= 1e-12 * (fabs(want->mean) + want->std)) ||
	    !close_to(got->std, want->std, 1e-12)) {
		diag("%s: mean/std %.17g %.17g, want %.17g %.17g", what,
		    got->mean, got->std, want->mean, want->std);
		return 0;
	}
	return hist_agrees(got, x, n, what) &&
	    pct_agree(got, want, exact, what);
}

/*
 * Percentiles on data made to be hard for a histogram: most values near
 * zero and a few far outliers, an odd count (the general path) and a
 * multiple of the block (the fast one), NaN and infinities among them,
 * all values equal; float and double data; 1 and 3 threads alike.
 */
static void
test_percentiles(void)
{
	struct gguf_stats_opts	 opts;
	struct gguf_stats	 st, st1, want;
	struct gguf_err		 err;
	uint8_t			*buf;
	double			*x;
	uint64_t		 n, i, seed = 99;
	float			 v;
	int			 rc, shape, j;
	static const char	*what[] = { "heavy tails, odd count",
				    "heavy tails, 2^16", "NaN and Inf among them",
				    "all equal", "uniform" };

	memset(&opts, 0, sizeof opts);
	for (shape = 0; shape < 5; shape++) {
		n = shape == 1 ? 65536 : 100003;
		buf = malloc(n * 8);
		x = malloc(n * sizeof *x);
		for (i = 0; i < n; i++) {
			seed = seed * 6364136223846793005ull +
			    1442695040888963407ull;
			v = (float)((double)(seed >> 11) / 9007199254740992.0);
			if (shape <= 2)	/* a Cauchy-like tail: 1/u */
				v = (v - 0.5f) * 0.01f +
				    ((seed & 0xff) == 0 ? 50.0f / (v + 0.01f) :
				    0);
			if (shape == 2 && i % 1000 == 7)
				v = i % 2000 == 7 ? NAN : -INFINITY;
			if (shape == 3)
				v = 0.25f;
			put_f32(buf + 4 * i, v);
			x[i] = v;
		}
		reference(x, n, &want);
		opts.threads = 1;
		rc = gguf_stats_data(GGUF_T_F32, 0, buf, n * 4, 0, n, &opts,
		    &st1, &err);
		opts.threads = 3;
		rc |= gguf_stats_data(GGUF_T_F32, 0, buf, n * 4, 0, n, &opts,
		    &st, &err);
		for (j = 0; j < GGUF_STATS_NPCT; j++)
			if (!same_double(st.pct[j], st1.pct[j]))
				rc = 1;
		ok(rc == 0 && pct_agree(&st, &want, 0, what[shape]),
		    "percentiles, %s: p1 %.6g p50 %.6g p99 %.6g (exact %.6g "
		    "%.6g %.6g), the same on 1 and 3 threads", what[shape],
		    st.pct[0], st.pct[2], st.pct[4], want.pct[0], want.pct[2],
		    want.pct[4]);
		/* The same values as doubles: the wide path. */
		for (i = 0; i < n; i++)
			memcpy(buf + 8 * i, &x[i], 8);
		rc = gguf_stats_data(GGUF_T_F64, 0, buf, n * 8, 0, n, &opts,
		    &st, &err);
		ok(rc == 0 && pct_agree(&st, &want, 0, what[shape]),
		    "percentiles of doubles, %s", what[shape]);
		free(buf);
		free(x);
	}
	opts.flags = GGUF_STATS_NO_HIST;
	buf = calloc(1, 4096);
	rc = gguf_stats_data(GGUF_T_F32, 0, buf, 4096, 0, 1024, &opts, &st,
	    &err);
	ok(rc == 0 && isnan(st.pct[0]) && isnan(st.pct[4]),
	    "no histogram: no percentiles (NaN)");
	free(buf);
}

/* Statistics of rows [r0, r0 + nr) with 1, 2 and 3 threads. */
static void
check_tensor(struct gguf_file *f, const struct gguf_tensor *t, uint64_t r0,
    uint64_t nr, const char *what)
{
	struct gguf_stats_opts	 opts;
	struct gguf_stats	 want, got[4];
	struct gguf_err		 err;
	double			*x;
	uint64_t		 n = nr * t->ne[0];
	unsigned		 k;
	int			 good = 1;

	x = malloc((size_t)n * sizeof *x + 8);
	if (gguf_dequant_rows_f64(f, t, r0, nr, 0, t->ne[0], x, &err) != 0) {
		ok(0, "%s: decodes (%s)", what, err.msg);
		free(x);
		return;
	}
	reference(x, n, &want);
	memset(&opts, 0, sizeof opts);
	for (k = 0; k < 4 && good; k++) {
		opts.threads = k < 3 ? k + 1 : 7;
		if (gguf_stats_tensor(f, t, r0, nr, &opts, &got[k],
		    &err) != 0) {
			diag("%s: %s", what, err.msg);
			good = 0;
		}
	}
	ok(good && agrees(&got[0], &want, x, n, t->type == GGUF_T_F16 ||
	    t->type == GGUF_T_BF16, what), "%s: statistics agree with "
	    "the reference", what);
	ok(good && memcmp(&got[0], &got[1], sizeof got[0]) == 0 &&
	    memcmp(&got[0], &got[2], sizeof got[0]) == 0 &&
	    memcmp(&got[0], &got[3], sizeof got[0]) == 0,
	    "%s: 1, 2, 3 and 7 threads give the same bits", what);
	free(x);
}

/* Row summaries against the reference of each row. */
static void
check_rows(struct gguf_file *f, const struct gguf_tensor *t, const char *what)
{
	struct gguf_stats_opts	 opts;
	struct gguf_rowsum	*rs, *rs2;
	struct gguf_err		 err;
	double			*x, sum, sq, mn, mx;
	uint64_t		 nrows = gguf_tensor_nrows(t), r, i, nf;
	int			 good = 1;

	if (nrows == 0)
		return;
	x = malloc((size_t)t->ne[0] * sizeof *x);
	rs = calloc(nrows, sizeof *rs);
	rs2 = calloc(nrows, sizeof *rs2);
	memset(&opts, 0, sizeof opts);
	opts.threads = 1;
	if (gguf_row_summaries(f, t, 0, nrows, &opts, rs, &err) != 0)
		good = 0;
	opts.threads = 2;
	if (gguf_row_summaries(f, t, 0, nrows, &opts, rs2, &err) != 0)
		good = 0;
	if (good && memcmp(rs, rs2, nrows * sizeof *rs) != 0)
		good = 0;
	for (r = 0; good && r < nrows; r++) {
		gguf_dequant_rows_f64(f, t, r, 1, 0, t->ne[0], x, &err);
		sum = sq = 0;
		mn = INFINITY;
		mx = -INFINITY;
		nf = 0;
		for (i = 0; i < t->ne[0]; i++) {
			if (!isfinite(x[i]))
				continue;
			nf++;
			sum += x[i];
			sq += x[i] * x[i];
			mn = fmin(mn, x[i]);
			mx = fmax(mx, x[i]);
		}
		if (nf == 0)
			good = rs[r].nfinite == 0 && isnan(rs[r].mean) &&
			    isnan(rs[r].min);
		else
			good = rs[r].nfinite == nf &&
			    same_double(rs[r].min, mn) &&
			    same_double(rs[r].max, mx) &&
			    close_to(rs[r].mean, sum / (double)nf, 1e-12) &&
			    close_to(rs[r].l2, sqrt(sq), 1e-12);
		if (!good)
			diag("%s row %llu: min %g max %g mean %g l2 %g",
			    what, (unsigned long long)r, rs[r].min, rs[r].max,
			    rs[r].mean, rs[r].l2);
	}
	ok(good, "%s: row summaries agree with the reference", what);
	free(x);
	free(rs);
	free(rs2);
}

static void
test_files(const char *dir)
{
	static const char	*files[] = {
		"types.gguf", "internal-types.gguf", "shapes.gguf", "kv.gguf",
		"align64.gguf", "zero-elem.gguf", "big-vocab.gguf",
	};
	struct gguf_file	*f;
	struct gguf_err		 err;
	const struct gguf_tensor *t;
	char			 path[1024], what[256];
	uint64_t		 i, nrows;
	size_t			 k;

	for (k = 0; k < sizeof files / sizeof files[0]; k++) {
		snprintf(path, sizeof path, "%s/%s", dir, files[k]);
		if (!ok((f = gguf_open(path, &err)) != NULL, "%s opens",
		    files[k]))
			continue;
		for (i = 0; i < gguf_layout(f)->n_tensors; i++) {
			t = gguf_tensor_at(f, i);
			snprintf(what, sizeof what, "%s %.*s", files[k],
			    (int)t->name.n, t->name.p);
			nrows = gguf_tensor_nrows(t);
			check_tensor(f, t, 0, nrows, what);
			if (nrows > 2) {
				snprintf(what, sizeof what, "%s %.*s rows 1:%llu",
				    files[k], (int)t->name.n, t->name.p,
				    (unsigned long long)nrows - 1);
				check_tensor(f, t, 1, nrows - 2, what);
			}
			if (strcmp(files[k], "types.gguf") == 0 ||
			    strcmp(files[k], "shapes.gguf") == 0)
				check_rows(f, t, what);
		}
		gguf_close(f);
	}
}

/* The special.* tensors, spelled out. */
static void
test_special(const char *dir)
{
	struct gguf_file	*f;
	struct gguf_err		 err;
	struct gguf_stats	 st;
	const struct gguf_tensor *t;
	char			 path[1024];
	int64_t			 ti;

	snprintf(path, sizeof path, "%s/shapes.gguf", dir);
	if ((f = gguf_open(path, &err)) == NULL)
		return;
	ti = gguf_tensor_find(f, "special.f32", 11);
	t = gguf_tensor_at(f, (uint64_t)ti);
	if (ok(gguf_stats_tensor(f, t, 0, 1, NULL, &st, &err) == 0,
	    "special.f32: statistics")) {
		diag("special.f32: count %llu finite %llu zero %llu nan %llu "
		    "+inf %llu -inf %llu min %g max %g",
		    (unsigned long long)st.count,
		    (unsigned long long)st.nfinite,
		    (unsigned long long)st.nzero, (unsigned long long)st.nnan,
		    (unsigned long long)st.npinf, (unsigned long long)st.nninf,
		    st.min, st.max);
		ok(st.nnan > 0 && st.npinf > 0 && st.nninf > 0 &&
		    st.nzero > 0 && st.count == st.nfinite + st.nnan +
		    st.npinf + st.nninf && isfinite(st.mean) &&
		    isfinite(st.std), "special.f32: NaN, +Inf, -Inf and "
		    "zeros counted, moments finite");
	}
	gguf_close(f);
}

/* ---------------------------------------------------- synthetic buffers */

struct progress {
	uint64_t	calls, last, total;
	int		monotonic;
	uint64_t	cancel_after;	/* 0: never */
};

static int
on_progress(void *arg, uint64_t done, uint64_t total)
{
	struct progress	*p = arg;

	p->calls++;
	if (done < p->last)
		p->monotonic = 0;
	p->last = done;
	p->total = total;
	return p->cancel_after != 0 && p->calls >= p->cancel_after;
}

static void
test_synthetic(void)
{
	struct gguf_stats_opts	 opts;
	struct gguf_stats	 st, want, got1;
	struct progress		 pr;
	struct gguf_err		 err;
	uint8_t			*buf;
	double			*x;
	uint64_t		 n = 1000003, i, seed = 12345;
	int			 flag, rc;
	float			 v;

	buf = malloc(n * 4);
	x = malloc(n * sizeof *x);
	/* large offset, small spread: a naive one-pass variance fails */
	for (i = 0; i < n; i++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		v = 1e6f + (float)((seed >> 40) % 1000) / 64.0f;
		put_f32(buf + 4 * i, v);
		x[i] = v;
	}
	reference(x, n, &want);
	memset(&opts, 0, sizeof opts);
	memset(&pr, 0, sizeof pr);
	pr.monotonic = 1;
	opts.threads = 3;
	opts.progress = on_progress;
	opts.arg = &pr;
	rc = gguf_stats_data(GGUF_T_F32, 0, buf, n * 4, 0, n, &opts, &st,
	    &err);
	ok(rc == 0 && agrees(&st, &want, x, n, 0, "offset data"), "1e6 + small spread: "
	    "std %.9g, want %.9g", st.std, want.std);
	ok(pr.monotonic && pr.calls > 2 && pr.last == n &&
	    pr.total == n, "progress: %llu calls, monotonic, one pass: ends "
	    "at %llu of %llu", (unsigned long long)pr.calls,
	    (unsigned long long)pr.last, (unsigned long long)pr.total);

	/* no sketch: the same counts and moments, no histogram */
	memset(&pr, 0, sizeof pr);
	pr.monotonic = 1;
	opts.flags = GGUF_STATS_NO_HIST;
	rc = gguf_stats_data(GGUF_T_F32, 0, buf, n * 4, 0, n, &opts, &got1,
	    &err);
	opts.flags = 0;
	for (i = 0; i < GGUF_STATS_BINS; i++)
		if (got1.hist[i] != 0)
			break;
	ok(rc == 0 && i == GGUF_STATS_BINS && got1.count == st.count &&
	    got1.nfinite == st.nfinite && got1.nzero == st.nzero &&
	    same_double(got1.min, st.min) && same_double(got1.max, st.max) &&
	    same_double(got1.mean, st.mean) && same_double(got1.std, st.std) &&
	    pr.last == n && pr.total == n,
	    "GGUF_STATS_NO_HIST: progress ends at %llu of %llu, "
	    "same moments bit for bit, empty histogram",
	    (unsigned long long)pr.last, (unsigned long long)pr.total);

	memset(&pr, 0, sizeof pr);
	pr.monotonic = 1;
	pr.cancel_after = 2;
	rc = gguf_stats_data(GGUF_T_F32, 0, buf, n * 4, 0, n, &opts, &st,
	    &err);
	ok(rc == GGUF_STATS_CANCELLED && pr.last < n,
	    "the progress callback cancels (rc %d, stopped at %llu)", rc,
	    (unsigned long long)pr.last);
	flag = 1;
	opts.progress = NULL;
	opts.cancel = &flag;
	rc = gguf_stats_data(GGUF_T_F32, 0, buf, n * 4, 0, n, &opts, &st,
	    &err);
	ok(rc == GGUF_STATS_CANCELLED, "a set cancel flag cancels");
	opts.cancel = NULL;

	/* every value NaN; then a single value */
	for (i = 0; i < 1000; i++)
		put_f32(buf + 4 * i, NAN);
	rc = gguf_stats_data(GGUF_T_F32, 0, buf, n * 4, 0, 1000, &opts, &st,
	    &err);
	ok(rc == 0 && st.nnan == 1000 && st.nfinite == 0 && isnan(st.min) &&
	    isnan(st.mean) && isnan(st.std) && st.hist[0] == 0,
	    "all NaN: no finite values, NaN moments, empty histogram");
	put_f32(buf, -0.0f);
	rc = gguf_stats_data(GGUF_T_F32, 0, buf, n * 4, 0, 1, &opts, &st,
	    &err);
	ok(rc == 0 && st.nzero == 1 && st.hist[0] == 1 && st.std <= 0 &&
	    st.std >= 0 && signbit(st.min), "a single -0: one zero in bin 0, min is -0");
	rc = gguf_stats_data(GGUF_T_F32, 0, buf, n * 4, 0, 0, &opts, &st,
	    &err);
	ok(rc == 0 && st.count == 0 && isnan(st.mean), "no elements");
	ok(gguf_stats_data(GGUF_T_F32, 0, buf, 400, 50, 51, &opts, &st,
	    &err) == -1, "range past the data: %s", err.msg);
	ok(gguf_stats_data(GGUF_T_Q4_K, 1, buf, 1440, 0, 256, &opts, &st,
	    &err) == -1, "big-endian Q4_K refused: %s", err.msg);

	/* F64 extremes: max - min overflows */
	{
		double	d[4] = { -1.5e308, 1.5e308, 0.0, 1e308 };

		rc = gguf_stats_data(GGUF_T_F64, 0, (const uint8_t *)d,
		    sizeof d, 0, 4, &opts, &st, &err);
		reference(d, 4, &want);
		ok(rc == 0 && agrees(&st, &want, d, 4, 0, "f64 extremes") &&
		    st.hist[0] == 1 && st.hist[63] == 1 && st.hist[32] == 1 &&
		    st.hist[53] == 1,
		    "F64 range that overflows: bins 0, 32, 53, 63");
	}
	free(buf);
	free(x);
}

static void
test_errors(const char *dir)
{
	struct gguf_file	*f;
	struct gguf_err		 err;
	struct gguf_stats	 st;
	struct gguf_rowsum	 rs[8];
	const struct gguf_tensor *t;
	char			 path[1024];

	snprintf(path, sizeof path, "%s/types.gguf", dir);
	if ((f = gguf_open(path, &err)) == NULL)
		return;
	t = gguf_tensor_at(f, (uint64_t)gguf_tensor_find(f, "t.Q6_K", 6));
	ok(gguf_stats_tensor(f, t, 2, 3, NULL, &st, &err) == -1 &&
	    strstr(err.msg, "valid 0:4") != NULL, "rows 2:5: %s", err.msg);
	ok(gguf_row_summaries(f, t, 4, 1, NULL, rs, &err) == -1,
	    "row summaries of row 4: %s", err.msg);
	ok(gguf_stats_tensor(f, t, 4, 0, NULL, &st, &err) == 0 &&
	    st.count == 0, "an empty row range");
	gguf_close(f);
}

/*
 * F16 and BF16 are counted value by value in one pass: random halves of
 * both byte orders (planted NaNs, infinities, zeros and subnormals among
 * them) against the reference, over several items, whole and in a range
 * that starts and ends inside items; 1 and 2 threads give the same bytes;
 * progress and cancelling work as in the two-pass path.
 */
static void
test_halves(void)
{
	static const uint16_t	special[2][8] = {
		{ 0x7c01, 0x7e00, 0xfc00, 0x7c00, 0x0000, 0x8000, 0x0001,
		  0x8001 },
		{ 0x7f81, 0x7fc0, 0xff80, 0x7f80, 0x0000, 0x8000, 0x0001,
		  0x8001 } };
	static const uint32_t	types[] = { GGUF_T_F16, GGUF_T_BF16 };
	const uint64_t		n = 200003, big = 600 * 65536ull;
	struct gguf_stats_opts	opts;
	struct gguf_stats	st, st2, want;
	struct gguf_err		err;
	struct progress		pr;
	uint8_t			*buf = malloc(2 * n);
	double			*x = malloc(n * sizeof *x);
	uint64_t		i, v;
	int			k, be, rc;
	char			what[64];

	for (k = 0; k < 2; k++) {
		for (be = 0; be < 2; be++) {
			for (i = 0; i < n; i++) {
				/* sign, exponent near 1, random mantissa */
				v = (uint64_t)rand();
				v = k == 0 ? (v & 0x83ff) | (0x3000 + (v >> 16 &
				    0x7) * 0x400) : (v & 0x807f) | (0x3c00 +
				    (v >> 16 & 0x7) * 0x80);
				if (i % 997 == 0)
					v = special[k][(i / 997) % 8];
				buf[2 * i + be] = (uint8_t)v;
				buf[2 * i + !be] = (uint8_t)(v >> 8);
			}
			snprintf(what, sizeof what, "%s %s-endian",
			    k == 0 ? "F16" : "BF16", be ? "big" : "little");
			memset(&opts, 0, sizeof opts);
			opts.threads = 1;
			rc = gguf_stats_data(types[k], be, buf, 2 * n, 0, n,
			    &opts, &st, &err);
			opts.threads = 2;
			rc |= gguf_stats_data(types[k], be, buf, 2 * n, 0, n,
			    &opts, &st2, &err);
			rc |= gguf_dequant_f64(types[k], be, buf, 2 * n, 0, n,
			    x, &err);
			reference(x, n, &want);
			ok(rc == 0 && agrees(&st, &want, x, n, 1, what) &&
			    memcmp(&st, &st2, sizeof st) == 0,
			    "%s: counted values agree with the reference, "
			    "1 and 2 threads alike (%llu NaN)", what,
			    (unsigned long long)st.nnan);
			rc = gguf_stats_data(types[k], be, buf, 2 * n, 70001,
			    n - 70001 - 5, &opts, &st, &err);
			reference(x + 70001, n - 70001 - 5, &want);
			ok(rc == 0 && agrees(&st, &want, x + 70001,
			    n - 70001 - 5, 1, what),
			    "%s: a range inside items agrees", what);
		}
	}
	memset(&pr, 0, sizeof pr);
	pr.monotonic = 1;
	opts.threads = 2;
	opts.progress = on_progress;
	opts.arg = &pr;
	rc = gguf_stats_data(GGUF_T_F16, 0, buf, 2 * n, 0, n, &opts, &st,
	    &err);
	ok(rc == 0 && pr.monotonic && pr.last == n && pr.total == n,
	    "F16: one pass of progress (%llu calls, ends at %llu of %llu)",
	    (unsigned long long)pr.calls, (unsigned long long)pr.last,
	    (unsigned long long)pr.total);
	memset(&pr, 0, sizeof pr);
	pr.cancel_after = 1;
	rc = gguf_stats_data(GGUF_T_F16, 0, buf, 2 * n, 0, n, &opts, &st,
	    &err);
	ok(rc == GGUF_STATS_CANCELLED && pr.last < n,
	    "F16: the progress callback cancels (rc %d)", rc);
	free(buf);
	free(x);

	/* Many items: progress is reported a few hundred times, not after
	   every item (a lock every thread takes after every item). */
	buf = calloc(big, 2);
	memset(&pr, 0, sizeof pr);
	pr.monotonic = 1;
	opts.progress = on_progress;
	rc = gguf_stats_data(GGUF_T_F16, 0, buf, 2 * big, 0, big, &opts,
	    &st, &err);
	ok(rc == 0 && pr.monotonic && pr.calls >= 100 && pr.calls <= 257 &&
	    pr.last == big && st.nzero == big, "600 items: %llu reports of "
	    "progress, monotonic, ending at %llu of %llu",
	    (unsigned long long)pr.calls, (unsigned long long)pr.last,
	    (unsigned long long)big);
	free(buf);
}

/* ------------------------------------------- sketch cases, both kernels */

#define NCASES	14

static uint64_t	case_seed;

static uint64_t
rnd64(void)
{
	case_seed = case_seed * 6364136223846793005ull +
	    1442695040888963407ull;
	return case_seed ^ case_seed >> 29;
}

/* A value for the mixed cases: any magnitude, subnormals, zeros. */
static double
mixed_value(int wide, int finite)
{
	uint64_t	r = rnd64();
	double		v;

	switch (r % 64) {
	case 0:
		return finite ? 0.0 : NAN;
	case 1:
		return finite ? -0.0 : INFINITY;
	case 2:
		return finite ? 0.0 : -INFINITY;
	case 3:
		return -0.0;
	case 4:		/* subnormal */
		v = ldexp((double)(r >> 40 & 0x7fffff) + 1, wide ? -1074 :
		    -149);
		return r >> 63 ? -v : v;
	case 5:		/* huge */
		v = wide ? 1e300 * (double)(r >> 40 & 0xff) : 3e38;
		return r >> 63 ? -v : v;
	default:
		v = ldexp((double)(r >> 11 & 0xfffff) / 1048576.0 + 1,
		    (int)((r >> 32) % 41) - 20);
		return r >> 63 ? -v : v;
	}
}

/*
 * Block k of the Q8_0 or Q4_0 (q4) cases, by chunk of 2048 blocks:
 * random quants under scales of either sign, some scales +0 and -0; no
 * value negative, some +0, some -0 (the minimum a zero, whose sign
 * depends on the order of comparisons: decoded); a scale of 65504 (a sum
 * that could round: decoded); a scale of +Inf (decoded); subnormal
 * scales; then a chunk of five blocks.
 */
static void
q8_chunks(uint8_t *b, uint64_t k, int q4)
{
	uint64_t	h = rnd64();
	int		j;

	switch (k / 2048) {
	case 1:
		h = k % 7 == 0 ? 0 : k % 11 == 0 ? 0x8000 : 0x1c00 +
		    (h & 0x3ff) + (h >> 10 & 1) * 0x8000;
		break;
	case 2:
		h = 0x1c00 + (h & 0x3ff) + (k % 5 == 0) * 0x8000;
		for (j = 0; !q4 && j < 32; j++)
			b[2 + j] &= k % 5 == 0 ? 0 : 0x7f;
		for (j = 0; q4 && j < 16; j++)	/* nibbles of 8 are zeros */
			b[2 + j] = k % 5 == 0 ? 0x88 : b[2 + j] | 0x88;
		/* +0 comes first in some orders of comparison, -0 in others */
		for (j = 0; k == 2 * 2048 && !q4 && j < 32; j++)
			b[2 + j] = j == 8 ? 0 : (uint8_t)(b[2 + j] | 1);
		for (j = 0; k == 2 * 2048 && q4 && j < 16; j++)
			b[2 + j] = j == 8 ? 0x98 : 0x99;
		break;
	case 3:
		h = k == 3 * 2048 + 5 ? 0x7bff : 0x1c00 + (h & 0x3ff);
		break;
	case 4:
		h = k == 4 * 2048 + 9 ? 0x7c00 : 0x1c00 + (h & 0x3ff);
		break;
	case 5:
		h = 1 + h % 0x3ff;
		break;
	default:
		h = 0x1c00 + (h & 0x3ff);
		break;
	}
	b[0] = (uint8_t)h;
	b[1] = (uint8_t)(h >> 8);
}

/*
 * Block k of the Q4_K case, by chunk of 256 blocks: scales d and dmin of
 * either sign (values of both signs); some d +0 and -0; dmin 0, so that
 * no value is negative and the least is a zero (decoded); a d of 65504; a
 * d of +Inf and a dmin NaN (decoded); subnormal scales; then a chunk of
 * five blocks.
 */
static void
k4_chunks(uint8_t *b, uint64_t k)
{
	uint64_t	h = rnd64(), hm = 0x1c00 + (rnd64() & 0x3ff);

	h = 0x1c00 + (h & 0x3ff) + (h >> 10 & 1) * 0x8000;
	switch (k / 256) {
	case 1:
		h = k % 7 == 0 ? 0 : k % 11 == 0 ? 0x8000 : h;
		hm |= (k & 1) * 0x8000;
		break;
	case 2:
		h &= 0x7fff;
		hm = 0;
		break;
	case 3:
		h = k == 3 * 256 + 5 ? 0x7bff : h;
		break;
	case 4:
		h = k == 4 * 256 + 9 ? 0x7c00 : h;
		hm = k == 4 * 256 + 20 ? 0x7e00 : hm;
		break;
	case 5:
		h = 1 + h % 0x3ff;
		hm = 1 + hm % 0x3ff;
		break;
	}
	b[0] = (uint8_t)h;
	b[1] = (uint8_t)(h >> 8);
	b[2] = (uint8_t)hm;
	b[3] = (uint8_t)(hm >> 8);
}

/*
 * Synthetic data of case c: mixed float values with NaN and infinities (a
 * general path); the same as doubles, whose range overflows; a constant
 * tensor; one element; finite mixed floats, subnormals and zeros among
 * them, in whole chunks (the vector kernels); a range past float's that
 * overflows as a difference; Q8_0 and Q4_K blocks of random quants;
 * non-negative floats with zeros of both signs (the sign of a zero
 * minimum depends on the order of comparisons, which must be the
 * portable kernel's); Q8_0 chunks of every kind the reading of codes
 * (stats_codes.c) takes or leaves to the decoder (q8_chunks), and Q8_0
 * data whose minimum is a zero; the same two of Q4_0; Q4_K chunks of
 * every kind (k4_chunks).
 */
static uint8_t *
make_case(int c, uint32_t *type, uint64_t *n, uint64_t *nbytes,
    const char **what)
{
	static const char	*names[NCASES] = { "floats with NaN and Inf",
				    "doubles, range overflows", "constant",
				    "one element",
				    "finite floats, subnormals and zeros",
				    "floats at +-3e38",
				    "Q8_0 blocks", "Q4_K blocks",
				    "non-negative floats, +0 and -0",
				    "Q8_0 chunks of every kind",
				    "Q8_0, none negative, +0 and -0",
				    "Q4_0 chunks of every kind",
				    "Q4_0, none negative, +0 and -0",
				    "Q4_K chunks of every kind" };
	uint8_t		*b;
	uint64_t	 i, h, k;
	double		 d;
	float		 f;

	case_seed = 77 + (uint64_t)c;
	*what = names[c];
	*type = c == 1 ? GGUF_T_F64 : c == 6 || c == 9 || c == 10 ?
	    GGUF_T_Q8_0 : c == 11 || c == 12 ? GGUF_T_Q4_0 : c == 7 ||
	    c == 13 ? GGUF_T_Q4_K : GGUF_T_F32;
	*n = c == 0 || c == 1 ? 300007 : c == 2 ? 70000 : c == 3 ? 1 :
	    c == 4 || c == 8 ? 1u << 18 : c == 5 ? 131072 : c == 9 ||
	    c == 11 ? 65536 * 6 + 32 * 5 : c == 10 || c == 12 ? 65536 * 2 :
	    c == 13 ? 65536 * 6 + 256 * 5 : 65536 * 4;
	*nbytes = *n / gguf_ttype(*type)->blck * gguf_ttype(*type)->bytes;
	b = malloc(*nbytes);
	for (i = 0; (c == 6 || c == 7 || c >= 9) && i < *nbytes; i++)
		b[i] = (uint8_t)rnd64();
	for (i = 0; (c == 6 || c == 7 || c >= 9) && i < *nbytes;
	    i += gguf_ttype(*type)->bytes) {
		h = 0x1c00 + rnd64() % 0x400;
		b[i] = (uint8_t)h;
		b[i + 1] = (uint8_t)(h >> 8);
		if (c == 7) {
			b[i + 2] = (uint8_t)h;
			b[i + 3] = (uint8_t)(h >> 8 ^ 0x80);
		}
		k = i / gguf_ttype(*type)->bytes;
		if (c == 9 || c == 11)
			q8_chunks(b + i, k, c == 11);
		if (c == 10 || c == 12)	/* every chunk as case 9's third */
			q8_chunks(b + i, 2 * 2048 + k % 2048, c == 12);
		if (c == 13)
			k4_chunks(b + i, k);
	}
	for (i = 0; (c < 6 || c == 8) && i < *n; i++) {
		d = c == 2 ? 3.5 : c == 3 ? -2.25 : c == 5 ? (rnd64() & 1 ?
		    3e38 : -3e38) * (double)(rnd64() % 1000) / 999 :
		    mixed_value(c == 1, c == 4 || c == 8);
		/*
		 * No huge values; zeros of both signs, but in lane 0 only
		 * one of each (+0 then -0).
		 */
		if (c == 8)
			d = fabs(d) > 1e30 ? 1 : !is_zero(d) ? fabs(d) :
			    i % 16 == 0 ? 0.5 : d;
		if (c == 8 && (i == 0 || i == 16))
			d = i == 0 ? 0.0 : -0.0;
		if (c == 1) {
			memcpy(b + 8 * i, &d, 8);
			continue;
		}
		f = (float)d;
		memcpy(b + 4 * i, &f, 4);
	}
	return b;
}

/* Statistics of case c on 2 threads; -1 if they fail. */
static int
case_stats(int c, struct gguf_stats *st)
{
	struct gguf_stats_opts	 opts;
	struct gguf_err		 err;
	const char		*what;
	uint32_t		 type;
	uint64_t		 n, nbytes;
	uint8_t			*b = make_case(c, &type, &n, &nbytes, &what);
	int			 rc;

	memset(&opts, 0, sizeof opts);
	opts.threads = 2;
	rc = gguf_stats_data(type, 0, b, nbytes, 0, n, &opts, st, &err);
	free(b);
	return rc;
}

/* --dump: every case's statistics as bytes on stdout. */
static int
dump_cases(void)
{
	struct gguf_stats	st;
	int			c;

	for (c = 0; c < NCASES; c++) {
		if (case_stats(c, &st) != 0)
			return 1;
		fwrite(&st, sizeof st, 1, stdout);
	}
	return fflush(stdout) != 0;
}

/*
 * Statistics of every case from this program run again with GGUFED_STATS
 * set to how, against those here: the same bytes, but for the standard
 * deviation when std_rel is above 0, which is then within std_rel of it.
 */
static int
same_as(const char *argv0, const char *how, double std_rel)
{
	struct gguf_stats	 st, other;
	char			 cmd[1100];
	FILE			*fp;
	int			 c, same;

	snprintf(cmd, sizeof cmd, "GGUFED_STATS=%s '%s' --dump", how, argv0);
	fp = popen(cmd, "r");
	same = fp != NULL;
	for (c = 0; same && c < NCASES; c++) {
		same = fread(&other, sizeof other, 1, fp) == 1 &&
		    case_stats(c, &st) == 0;
		if (same && std_rel > 0 && close_to(st.std, other.std,
		    std_rel))
			other.std = st.std;
		same = same && memcmp(&other, &st, sizeof st) == 0;
		if (!same)
			diag("case %d differs with GGUFED_STATS=%s (std %.17g, "
			    "there %.17g)", c, how, st.std, other.std);
	}
	if (fp != NULL && pclose(fp) != 0)
		same = 0;
	return same;
}

/*
 * Each case against the reference, on 1, 2, 3 and 7 threads; then the
 * same statistics with the portable kernels (this program run again with
 * GGUFED_STATS=ref) byte for byte; and with every block decoded
 * (GGUFED_STATS=decode), where Q8_0 and Q4_0 chunks read from their codes
 * have a standard deviation rounded differently (fewer times), else the
 * same.
 */
static void
test_cases(const char *argv0)
{
	struct gguf_stats_opts	 opts;
	struct gguf_stats	 st[4], want;
	struct gguf_err		 err;
	const char		*what;
	uint32_t		 type;
	uint64_t		 n, nbytes;
	uint8_t			*b;
	double			*x;
	int			 c, k, rc;

	memset(&opts, 0, sizeof opts);
	for (c = 0; c < NCASES; c++) {
		b = make_case(c, &type, &n, &nbytes, &what);
		x = malloc(n * sizeof *x);
		rc = gguf_dequant_f64(type, 0, b, nbytes, 0, n, x, &err);
		reference(x, n, &want);
		for (k = 0; k < 4; k++) {
			opts.threads = k < 3 ? (unsigned)k + 1 : 7;
			rc |= gguf_stats_data(type, 0, b, nbytes, 0, n, &opts,
			    &st[k], &err);
		}
		ok(rc == 0 && agrees(&st[0], &want, x, n, 0, what),
		    "%s: agrees with the reference (%llu finite, range "
		    "%.3g .. %.3g)", what, (unsigned long long)want.nfinite,
		    want.min, want.max);
		ok(rc == 0 && memcmp(&st[0], &st[1], sizeof st[0]) == 0 &&
		    memcmp(&st[0], &st[2], sizeof st[0]) == 0 &&
		    memcmp(&st[0], &st[3], sizeof st[0]) == 0,
		    "%s: 1, 2, 3 and 7 threads give the same bytes", what);
		free(b);
		free(x);
	}
	ok(same_as(argv0, "ref", 0), "kernels here (%s) and portable ones give the same bytes "
	    "in every case", gguf_stats_isa());
	ok(same_as(argv0, "decode", 1e-12), "Q8_0, Q4_0 and Q4_K read from their "
	    "codes: the bytes of decoding them, the std within 1e-12");
}

/* ------------------------------------ exact percentiles, every type */

/* A half-precision scale for block k: mostly 2^-8 .. 2^-7 of either
 * sign, some zeros of both signs, some subnormal, rarely +Inf. */
static uint16_t
rnd_scale(uint64_t k)
{
	uint64_t	r = rnd64();

	if (k % 97 == 5)
		return k % 2 ? 0x8000 : 0;
	if (k % 89 == 7)
		return (uint16_t)(1 + r % 0x3ff);
	if (k % 1999 == 11)
		return 0x7c00;
	return (uint16_t)(0x1c00 + (r & 0x3ff) + (r >> 10 & 1) * 0x8000);
}

/*
 * n random elements of type t, seeded: floats and doubles of a model's
 * magnitudes on a coarse grid (so that many share a bucket and values
 * repeat), zeros of both signs, a NaN and an infinity now and then;
 * halves of any bits; quantized blocks of random codes under rnd_scale.
 */
static uint8_t *
rnd_tensor(uint32_t t, uint64_t n, uint64_t *nbytes)
{
	const struct gguf_type_info	*ti = gguf_ttype(t);
	uint8_t				*b;
	uint64_t			 i, r;
	uint16_t			 h;
	double				 d;
	float				 f;

	*nbytes = n / ti->blck * ti->bytes;
	b = malloc(*nbytes);
	for (i = 0; i < *nbytes; i++)
		b[i] = (uint8_t)rnd64();
	for (i = 0; (t == GGUF_T_F32 || t == GGUF_T_F64) && i < n; i++) {
		r = rnd64();
		d = ldexp((double)(int64_t)(r >> 40 & 0xfff) - 2048,
		    -14 - (int)(r >> 60));
		d = r % 1013 == 0 ? (r & 1 ? -0.0 : 0.0) : r % 4099 == 1 ?
		    NAN : r % 4099 == 2 ? -INFINITY : d;
		if (t == GGUF_T_F64) {
			memcpy(b + 8 * i, &d, 8);
			continue;
		}
		f = (float)d;
		memcpy(b + 4 * i, &f, 4);
	}
	for (i = 0; ti->blck > 1 && i < n / ti->blck; i++) {
		h = rnd_scale(i);
		switch (t) {
		case GGUF_T_Q6_K:
			memcpy(b + i * ti->bytes + 208, &h, 2);
			break;
		case GGUF_T_Q3_K:
			memcpy(b + i * ti->bytes + 108, &h, 2);
			break;
		case GGUF_T_Q2_K:
			memcpy(b + i * ti->bytes + 80, &h, 2);
			h = rnd_scale(i + 3);
			memcpy(b + i * ti->bytes + 82, &h, 2);
			break;
		case GGUF_T_Q4_1:
		case GGUF_T_Q5_1:
		case GGUF_T_Q4_K:
		case GGUF_T_Q5_K:
			memcpy(b + i * ti->bytes, &h, 2);
			h = rnd_scale(i + 3);
			memcpy(b + i * ti->bytes + 2, &h, 2);
			break;
		default:
			memcpy(b + i * ti->bytes, &h, 2);
			break;
		}
	}
	return b;
}

/*
 * Statistics of the n elements of type t at b, whole and from an element
 * past the first chunk's start, on 1 and 3 threads: percentiles exactly
 * the nearest-rank values of the sorted decoded elements, the same bytes
 * on both.
 */
static void
exact_check(uint32_t t, const uint8_t *b, uint64_t nbytes, uint64_t n,
    const char *what)
{
	struct gguf_stats_opts	 opts;
	struct gguf_stats	 st, st3, want;
	struct gguf_err		 err;
	uint64_t		 first;
	double			*x;
	unsigned		 pass;
	int			 rc, same;

	memset(&opts, 0, sizeof opts);
	x = malloc(n * sizeof *x);
	rc = gguf_dequant_f64(t, 0, b, nbytes, 0, n, x, &err);
	for (pass = 0; pass < 2; pass++) {
		first = pass == 0 ? 0 : 256 * 41;
		reference(x + first, n - first, &want);
		opts.threads = 1;
		rc |= gguf_stats_data(t, 0, b, nbytes, first, n - first,
		    &opts, &st, &err);
		opts.threads = 3;
		rc |= gguf_stats_data(t, 0, b, nbytes, first, n - first,
		    &opts, &st3, &err);
		same = memcmp(&st, &st3, sizeof st) == 0;
		ok(rc == 0 && same && pct_agree(&st, &want, 1,
		    gguf_ttype(t)->name),
		    "%s, %s, from element %llu: percentiles exact (p1 %.9g "
		    "p50 %.9g p99 %.9g), the same on 1 and 3 threads",
		    gguf_ttype(t)->name, what, (unsigned long long)first,
		    st.pct[0], st.pct[2], st.pct[4]);
	}
	free(x);
}

/*
 * F32 data is read where it lies when it is aligned as floats are and in
 * the machine's order, else decoded: the same bytes either way.
 */
static void
odd_f32(const uint8_t *b, uint64_t nbytes, uint64_t n)
{
	struct gguf_stats_opts	 opts;
	struct gguf_stats	 st, odd;
	struct gguf_err		 err;
	uint8_t			*c = malloc(nbytes + 1);
	uint64_t		 i;
	uint32_t		 one;
	uint8_t			 le;
	int			 rc;

	memset(&opts, 0, sizeof opts);
	opts.threads = 2;
	memcpy(c + 1, b, nbytes);
	rc = gguf_stats_data(GGUF_T_F32, 0, b, nbytes, 0, n, &opts, &st, &err);
	rc |= gguf_stats_data(GGUF_T_F32, 0, c + 1, nbytes, 0, n, &opts, &odd,
	    &err);
	ok(rc == 0 && memcmp(&st, &odd, sizeof st) == 0,
	    "F32 at an odd address: the statistics of the same floats "
	    "aligned, byte for byte");
	one = 1;
	memcpy(&le, &one, 1);
	for (i = 0; i < nbytes; i++)	/* big-endian: decoded */
		c[i] = b[le ? i ^ 3 : i];
	rc = gguf_stats_data(GGUF_T_F32, 1, c, nbytes, 0, n, &opts, &odd,
	    &err);
	ok(rc == 0 && memcmp(&st, &odd, sizeof st) == 0,
	    "F32 big-endian: the statistics of the same floats in the "
	    "machine's order, byte for byte");
	free(c);
}

/*
 * Percentiles of seeded random tensors of every kind the statistics read
 * differently (F32 where it lies, halves counted, Q8_0, Q4_0, Q4_1,
 * Q5_0, Q5_1, Q2_K, Q4_K, Q5_K and Q6_K from their codes, Q3_K and
 * IQ4_NL decoded, doubles in several passes), whole and from an element
 * past the first chunk's start, on 1 and 3 threads: exactly the
 * nearest-rank values of the sorted decoded elements.
 */
static void
test_exact_pct(void)
{
	static const uint32_t	 types[] = { GGUF_T_F32, GGUF_T_F16,
				    GGUF_T_BF16, GGUF_T_Q8_0, GGUF_T_Q4_0,
				    GGUF_T_Q4_1, GGUF_T_Q5_0, GGUF_T_Q5_1,
				    GGUF_T_Q2_K, GGUF_T_Q4_K, GGUF_T_Q5_K,
				    GGUF_T_Q6_K, GGUF_T_Q3_K, GGUF_T_IQ4_NL,
				    GGUF_T_F64 };
	uint64_t		 n = 65536 * 3 + 1280, nbytes;
	uint8_t			*b;
	unsigned		 k;

	for (k = 0; k < sizeof types / sizeof types[0]; k++) {
		case_seed = 4242 + k;
		b = rnd_tensor(types[k], n, &nbytes);
		exact_check(types[k], b, nbytes, n, "random");
		if (types[k] == GGUF_T_F32)
			odd_f32(b, nbytes, n);
		free(b);
	}
}

/*
 * Blocks whose values have few significant bits, so that each is the
 * least value of its sketch bucket (the greatest if negative): the bands
 * the exact pass reads end on values the data holds, under scales whose
 * inverses are not exact (3 2^-8, and so on). Codes at random among a
 * few: Q8_0 +-63 and +-64; Q4_0 -8 and -7 under scales of either sign;
 * Q6_K -32 and -31 under scales +-8; Q4_K 0, 1 and 2 under 32 d - 16
 * dmin.
 */
static void
test_exact_edges(void)
{
	static const uint32_t	 types[] = { GGUF_T_Q8_0, GGUF_T_Q4_0,
				    GGUF_T_Q6_K, GGUF_T_Q4_K };
	static const int8_t	 q8[] = { -64, 64, -63, 63 };
	const struct gguf_type_info *ti;
	uint64_t		 n = 65536 * 2 + 512, nbytes, i, j;
	uint8_t			*b, *p;
	unsigned		 k;

	for (k = 0; k < sizeof types / sizeof types[0]; k++) {
		case_seed = 99 + k;
		ti = gguf_ttype(types[k]);
		nbytes = n / ti->blck * ti->bytes;
		b = calloc(1, nbytes);
		for (i = 0; i < n / ti->blck; i++) {
			p = b + i * ti->bytes;
			switch (types[k]) {
			case GGUF_T_Q8_0:	/* 3 2^-8 */
				p[0] = 0x00;
				p[1] = 0x22;
				for (j = 0; j < 32; j++)
					p[2 + j] = (uint8_t)q8[rnd64() % 4];
				break;
			case GGUF_T_Q4_0:	/* +-3 2^-4 */
				p[0] = 0x00;
				p[1] = i % 2 ? 0xb2 : 0x32;
				for (j = 0; j < 16; j++)
					p[2 + j] = (uint8_t)(rnd64() & 0x11);
				break;
			case GGUF_T_Q6_K:	/* 3 2^-8, scales +-8 */
				for (j = 0; j < 128; j++)
					p[j] = (uint8_t)(rnd64() & 0x11);
				for (j = 0; j < 16; j++)
					p[192 + j] = (uint8_t)(rnd64() & 1 ? 8 :
					    -8);
				p[208] = 0x00;
				p[209] = 0x22;
				break;
			default:	/* d, dmin 3 2^-8; by 32, 16 */
				p[0] = p[2] = 0x00;
				p[1] = p[3] = 0x22;
				for (j = 0; j < 4; j++) {
					p[4 + j] = 0xa0;
					p[8 + j] = 0x50;
				}
				for (j = 0; j < 128; j++)
					p[16 + j] = (uint8_t)(rnd64() % 3 |
					    (rnd64() % 3) << 4);
				break;
			}
		}
		exact_check(types[k], b, nbytes, n, "values on buckets' ends");
		free(b);
	}
}

int
main(int argc, char **argv)
{
	char	dir[512];

	if (argc > 1 && strcmp(argv[1], "--dump") == 0)
		return dump_cases();
	ok(gguf_ncpu() >= 1, "%u online CPUs", gguf_ncpu());
	test_synthetic();
	test_percentiles();
	test_halves();
	test_cases(argv[0]);
	test_exact_pct();
	test_exact_edges();
	if (shared_path(FIXDIR, dir, sizeof dir) == NULL) {
		skip("statistics of the ggml fixtures: no shared " FIXDIR);
		return tap_done();
	}
	test_files(dir);
	test_special(dir);
	test_errors(dir);
	return tap_done();
}
