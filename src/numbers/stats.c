/*
 * stats.c - statistics and row summaries on a pool of threads.
 *
 * Work is cut into items (a chunk of CHUNK elements, or a group of rows of
 * about that many elements). Threads take the next item from a shared
 * counter until none is left, decode it into their own buffer and
 * summarise it; the caller's thread is one of them. Results of each item
 * are kept apart and merged in item order once every thread has finished,
 * so the numbers do not depend on how many threads ran or which thread
 * took which item. Histogram counts are integers and are simply added.
 *
 * Moments are numerically stable: each chunk computes its mean and the sum
 * of squared deviations from that mean (two passes over a buffer in
 * cache), and chunks are combined with the pairwise update of Chan, Golub
 * and LeVeque.
 *
 * The data is read once. Besides the moments, each finite value is
 * counted in a sketch: a bucket per value of its order-preserving bits cut
 * to SK_MANT mantissa bits (2048 buckets an octave, each as wide as 2^-11
 * of its values' magnitude). A thread counts into a table of 32-bit counts
 * indexed by the key (4 MB of address space for floats, 32 MB for
 * doubles, mapped so that the system only backs the pages values land
 * in: a tensor of weights touches a few hundred KB; the table is kept for
 * the next run, see kit_take) and remembers which
 * keys it may have touched: keys sort as values do, so those of a chunk's
 * negative values lie between the keys of its minimum and of minus its
 * least nonzero magnitude, those of its positive values between the
 * least nonzero magnitude's and the maximum's, plus the two zeros'. Those
 * ranges are added into the run's 64-bit counts, kept in pages of one
 * sign and exponent allocated when first needed, at the end and before a
 * count can overflow. Once the data is read, the histogram and the
 * percentiles come from the merged sketch (from_sketch), a walk over its
 * pages whatever the size of the tensor. F16 and BF16 are not decoded at all: one pass counts each
 * of their 65536 values, every moment is computed from the counts, and the
 * counts make an exact sketch, each value in a bucket of its own
 * (work_count16, from_values). Q8_0, Q4_0 and Q4_K chunks are read
 * from their codes (stats_codes.c, codes_chunk), not decoded into a
 * buffer: the same counts, extremes and sketch, moments rounded in
 * another order (Q4_K: a sub-block's values are counted code by code, and
 * the sketch takes each value once with its count).
 *
 * Progress is counted after every item and reported a few hundred times
 * a run, under a lock, so calls never overlap and the count only grows.
 * Cancellation, by the callback or the caller's flag, is noticed before
 * the next item is taken. The pool of threads is in stats_pool.c.
 *
 * A local file's items are read through its descriptor into a buffer of
 * the thread's (run_bytes); data in memory is read where it lies, each
 * item's reads guarded on the thread that makes them (guard.c). If the
 * file shrinks under a run, the item that meets the hole fails (a read
 * that comes short, or a fault caught), the run stops like a cancelled
 * one and returns -1 with "changed on disk"; a file rewritten in place is
 * seen by the check after the run (run_done). Items hold no lock and
 * allocate nothing while they read (a sketch page is allocated after the
 * chunk is decoded, and stored at once), so one can be abandoned at any
 * read.
 */
#include "config.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "gguf.h"
#include "internal.h"
#include "io.h"
#include "dequant.h"
#include "stats.h"
#include "source.h"
#include "stats_vec.h"

#include "stats_pool.h"

const double	gguf_stats_pct[GGUF_STATS_NPCT] = { 1, 5, 50, 95, 99 };

_Static_assert(23 - SK_MANT == GGUF_SV_KEYSHIFT, "stats_codes.c's keys");

/* ------------------------------------------------------- summarising */

/* Moments and counts of one chunk. */
struct part {
	uint64_t	nfinite, nzero, nnan, npinf, nninf;
	double		mean;
	double		m2;		/* sum of squared deviations */
	double		min, max;
	double		minnz;		/* least nonzero |x|; Inf if none */
};

/*
 * Sketch keys: the bits of a value made to sort as the values do (the
 * sign bit flipped on positive values, every bit on negative ones), cut
 * to the sign, the exponent and SK_MANT bits of mantissa. The page of a
 * key is key >> SK_MANT; +0 and -0 have neighbouring keys.
 */
static inline uint32_t
key_f(uint32_t u)
{
	return (u ^ ((0u - (u >> 31)) | 0x80000000u)) >> (23 - SK_MANT);
}

static inline uint32_t
key_d(uint64_t u)
{
	return (uint32_t)((u ^ ((0ull - (u >> 63)) | 0x8000000000000000ull)) >>
	    (52 - SK_MANT));
}

/* The worker's sketch may hold keys k0 .. k1 of negative (r 0) or
 * positive (r 1) values. */
static inline void
sk_range(struct worker *w, int r, uint32_t k0, uint32_t k1)
{
	w->kr[r][0] = k0 < w->kr[r][0] ? k0 : w->kr[r][0];
	w->kr[r][1] = k1 > w->kr[r][1] ? k1 : w->kr[r][1];
}

/*
 * Summaries of a buffer of floats and of doubles: the same code over both
 * element types. A value is finite when its exponent bits are not all
 * ones; non-finite values are counted and otherwise skipped. The sketch
 * (if the worker has one) counts the finite values.
 */
#define SUMMARY_FUNCS(sfx, T, U, EXP, MANT, SIGN)			\
static inline U								\
bits_##sfx(T x)								\
{									\
	U	u;							\
									\
	memcpy(&u, &x, sizeof u);					\
	return u;							\
}									\
									\
/*									\
 * The keys a chunk of summary pt counted: its negative values' from	\
 * the minimum's to that of minus the least nonzero magnitude, its	\
 * positive values' from the least nonzero magnitude's to the		\
 * maximum's, and both zeros' if it has a zero (either sign: which one	\
 * is an extreme depends on the order of comparisons). Keys near zero	\
 * that no value has are left out, so that untouched memory stays	\
 * untouched.								\
 */									\
static inline void							\
sk_range_##sfx(struct worker *w, const struct part *pt)			\
{									\
	U	a = bits_##sfx((T)pt->min), b = bits_##sfx((T)pt->max);	\
	U	z = bits_##sfx((T)pt->minnz);				\
									\
	if (pt->nzero > 0) {						\
		sk_range(w, 0, key_##sfx(SIGN), key_##sfx(SIGN));	\
		sk_range(w, 1, key_##sfx(0), key_##sfx(0));		\
	}								\
	if ((a & (SIGN)) && (a & ~(U)(SIGN)) != 0)			\
		sk_range(w, 0, key_##sfx(a), key_##sfx(z | (SIGN)));	\
	if (!(b & (SIGN)) && b != 0)					\
		sk_range(w, 1, key_##sfx(z), key_##sfx(b));		\
}									\
									\
static void								\
part_##sfx(const T *x, uint64_t n, struct part *pt)			\
{									\
	double		s[4] = { 0, 0, 0, 0 }, mn = INFINITY;		\
	double		mx = -INFINITY, mean, d, m2[4] = { 0, 0, 0, 0 };\
	double		mz = INFINITY;					\
	uint64_t	i, nf = 0, nz = 0, nn = 0, pi = 0, ni = 0;	\
	U		u;						\
									\
	for (i = 0; i < n; i++) {					\
		u = bits_##sfx(x[i]);					\
		if ((u & (EXP)) == (EXP)) {				\
			if (u & (MANT))					\
				nn++;					\
			else if (u & (SIGN))				\
				ni++;					\
			else						\
				pi++;					\
			continue;					\
		}							\
		nf++;							\
		nz += (u & ~(U)(SIGN)) == 0;				\
		d = x[i];						\
		s[i & 3] += d;						\
		mn = d < mn ? d : mn;					\
		mx = d > mx ? d : mx;					\
		if ((u & ~(U)(SIGN)) != 0)				\
			mz = fabs(d) < mz ? fabs(d) : mz;		\
	}								\
	mean = nf > 0 ? ((s[0] + s[1]) + (s[2] + s[3])) / (double)nf : 0;\
	for (i = 0; i < n; i++) {					\
		u = bits_##sfx(x[i]);					\
		if ((u & (EXP)) == (EXP))				\
			continue;					\
		d = (double)x[i] - mean;				\
		m2[i & 3] += d * d;					\
	}								\
	pt->nfinite = nf;						\
	pt->nzero = nz;							\
	pt->nnan = nn;							\
	pt->npinf = pi;							\
	pt->nninf = ni;							\
	pt->mean = mean;						\
	pt->m2 = (m2[0] + m2[1]) + (m2[2] + m2[3]);			\
	pt->min = mn;							\
	pt->max = mx;							\
	pt->minnz = mz;							\
}									\
									\
static void								\
sketch_##sfx(struct worker *w, const T *x, uint64_t n,			\
    const struct part *pt)						\
{									\
	uint32_t	*restrict sk = w->sk;				\
	uint64_t	i;						\
	U		u;						\
									\
	if (pt->nfinite == 0)						\
		return;							\
	sk_range_##sfx(w, pt);						\
	for (i = 0; i < n; i++) {					\
		u = bits_##sfx(x[i]);					\
		if ((u & (EXP)) != (EXP))				\
			sk[key_##sfx(u)]++;				\
	}								\
	w->skn += n;							\
}									\
									\
static void								\
row_##sfx(const T *x, uint64_t n, struct gguf_rowsum *rs, double *sum,	\
    double *sq)								\
{									\
	uint64_t	i;						\
	double		d;						\
									\
	for (i = 0; i < n; i++) {					\
		if ((bits_##sfx(x[i]) & (EXP)) == (EXP))		\
			continue;					\
		d = x[i];						\
		rs->nfinite++;						\
		*sum += d;						\
		*sq += d * d;						\
		rs->min = d < rs->min ? d : rs->min;			\
		rs->max = d > rs->max ? d : rs->max;			\
	}								\
}

SUMMARY_FUNCS(f, float, uint32_t, 0x7f800000u, 0x007fffffu, 0x80000000u)
SUMMARY_FUNCS(d, double, uint64_t, 0x7ff0000000000000ull,
    0x000fffffffffffffull, 0x8000000000000000ull)

/* ------------------------------------------------ fast paths for floats */

/*
 * Most chunks hold floats, in whole groups of GGUF_SV_LANES. For those, one
 * pass (the kernel of stats_vec.h) counts every element into the sketch
 * and sums, in GGUF_SV_LANES independent lanes (lane j takes elements j,
 * j + LANES, ...), the values, extremes and zeros, with a second pass over
 * the chunk in cache for the squared deviations; the lanes are added in a
 * fixed order at the end: the same numbers whatever thread does the chunk.
 * Non-finite values land in keys no finite value has, which are never
 * read, so a chunk that holds some keeps its sketch counts and only takes
 * the general path above for its moments.
 *
 * The portable kernel here defines the results; stats_x86.c has the same
 * operations in AVX2 instructions, chosen once at run time if the CPU has
 * it, which give the same bits. GGUFED_STATS=ref in the environment keeps
 * the portable kernel (to compare them).
 */
#define LANES		GGUF_SV_LANES

static void
scan_ref(const float *x, uint64_t n, uint32_t *sk, struct gguf_sv *sv)
{
	uint64_t	i;
	uint32_t	u, bad = 0;
	float		v;
	int		j;

	for (j = 0; j < LANES; j++) {
		sv->sum[j] = 0;
		sv->min[j] = sv->max[j] = x[j];
		sv->nzero[j] = 0;
	}
	for (i = 0; i < n; i += LANES) {
		for (j = 0; j < LANES; j++) {
			v = x[i + j];
			u = bits_f(v);
			if (sk != NULL)
				sk[key_f(u)]++;
			sv->sum[j] += (double)v;
			sv->min[j] = v < sv->min[j] ? v : sv->min[j];
			sv->max[j] = v > sv->max[j] ? v : sv->max[j];
			sv->nzero[j] += (u & 0x7fffffffu) == 0;
			bad |= (u & 0x7f800000u) == 0x7f800000u;
		}
	}
	sv->bad = bad;
}

static void
m2_ref(const float *x, uint64_t n, double mean, double m2[LANES],
    float minnz[LANES])
{
	uint64_t	i;
	double		d;
	uint32_t	u;
	float		a;
	int		j;

	for (j = 0; j < LANES; j++) {
		m2[j] = 0;
		minnz[j] = INFINITY;
	}
	for (i = 0; i < n; i += LANES) {
		for (j = 0; j < LANES; j++) {
			d = (double)x[i + j] - mean;
			m2[j] += d * d;
			u = bits_f(x[i + j]);
			a = (u & 0x7fffffffu) == 0 ? NAN : fabsf(x[i + j]);
			minnz[j] = a < minnz[j] ? a : minnz[j];
		}
	}
}

static struct {
	gguf_sv_scan_fn	*scan;
	gguf_sv_m2_fn	*m2;
	const char	*isa;
	int		 codes;		/* Q8_0, Q4_0 read from their codes */
	gguf_sc_pass_fn	*q8_0;
	gguf_sc_pass_fn	*q4_0;
	gguf_sc_k4_count_fn	*k4_count;
	gguf_sc_k4_spread_fn	*k4_spread;
} kern = { scan_ref, m2_ref, "portable", 1, gguf_sc_q8_0_pass,
    gguf_sc_q4_0_pass, gguf_sc_k4_count, gguf_sc_k4_spread };

static pthread_once_t	kern_once = PTHREAD_ONCE_INIT;

static void
kern_init(void)
{
	const char	*e = getenv("GGUFED_STATS");

	if (e != NULL && strcmp(e, "decode") == 0)
		kern.codes = 0;
	if (e != NULL && strcmp(e, "ref") == 0)
		return;
	gguf_sc_vec(&kern.q8_0, &kern.q4_0);
	gguf_sc_k4_vec(&kern.k4_count, &kern.k4_spread);
	if (gguf_sv_vec(&kern.scan, &kern.m2, &kern.isa) == 0) {
		kern.scan = scan_ref;
		kern.m2 = m2_ref;
	}
}

const char *
gguf_stats_isa(void)
{
	pthread_once(&kern_once, kern_init);
	return kern.isa;
}

/* The lanes of 16 doubles added in a fixed order. */
static double
lanes_sum(const double *s)
{
	return (((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) +
	    (s[6] + s[7]))) + (((s[8] + s[9]) + (s[10] + s[11])) +
	    ((s[12] + s[13]) + (s[14] + s[15])));
}

/* Summary (and sketch, if sk) of a chunk of floats: fast path or general. */
static void
scan_float(struct worker *w, const float *x, uint64_t n, struct part *pt,
    int sk)
{
	struct gguf_sv	sv;
	double		m2[LANES];
	float		a, b, z, mz[LANES];
	uint64_t	zeros = 0;
	int		j;

	if (n == 0 || n % LANES != 0) {
		part_f(x, n, pt);
		if (sk)
			sketch_f(w, x, n, pt);
		return;
	}
	kern.scan(x, n, sk ? w->sk : NULL, &sv);
	if (sv.bad)
		part_f(x, n, pt);
	else {
		memset(pt, 0, sizeof *pt);
		pt->nfinite = n;
		pt->mean = lanes_sum(sv.sum) / (double)n;
		kern.m2(x, n, pt->mean, m2, mz);
		pt->m2 = lanes_sum(m2);
		a = sv.min[0];
		b = sv.max[0];
		z = mz[0];
		for (j = 0; j < LANES; j++) {
			a = sv.min[j] < a ? sv.min[j] : a;
			b = sv.max[j] > b ? sv.max[j] : b;
			z = mz[j] < z ? mz[j] : z;
			zeros += sv.nzero[j];
		}
		pt->nzero = zeros;
		pt->min = a;
		pt->max = b;
		pt->minnz = z;
	}
	if (sk && pt->nfinite > 0) {
		sk_range_f(w, pt);
		w->skn += n;
	}
}

uint64_t
gguf_stats_sketch_only(const float *x, uint64_t n, unsigned repeat)
{
	uint32_t	*sk, *keys, k0 = UINT32_MAX, k1 = 0, k;
	uint64_t	 total = 0, i;
	unsigned	 r;

	sk = xcalloc((size_t)SK_PAGES_F * SK_BUCKETS, sizeof *sk);
	keys = xmalloc((n > 0 ? n : 1) * sizeof *keys);
	for (i = 0; i < n; i++) {
		k = keys[i] = key_f(bits_f(x[i]));
		k0 = k < k0 ? k : k0;
		k1 = k > k1 ? k : k1;
	}
	for (r = 0; r < repeat; r++) {
		for (i = 0; i < n; i++)
			sk[keys[i]]++;
	}
	for (k = k0; n > 0 && k <= k1; k++)
		total += sk[k];
	free(keys);
	free(sk);
	return total;
}

/* ------------------------------------------------------------ statistics */

struct stats_run {
	uint32_t	 type;
	int		 be;
	int		 wide;
	int		 sketch;	/* histogram wanted */
	const uint8_t	*data;		/* in memory, or NULL: read from */
	struct gguf_source *src;	/* this source, where the data */
	uint64_t	 src_off;	/* begins here (see run_bytes) */
	uint64_t	 nbytes;
	uint64_t	 first;
	uint64_t	 n;
	struct part	*parts;
	struct values_run *vr;		/* the 16-bit types */
};

/*
 * The bytes of elements [e, e + len) of the run's data, whole blocks (e
 * is a block's first element: a run is read into stages only from a
 * block's start, gguf_stats_window): where they lie in memory, or read
 * from the file into the worker's stage. A file in the page cache is read
 * faster by copies into a buffer that stays in the core's cache than
 * through its mapping, where every page is mapped in and taken from
 * memory (one 1 GiB tensor of F16 on 2 cores: 0.13 s against 0.18 s),
 * and by threads that do not contend for the process's page tables.
 * NULL with err set if the read fails (its *nb bytes are not there).
 */
static const uint8_t *
run_bytes(const struct stats_run *r, struct worker *w, uint64_t e,
    uint64_t len, uint64_t *nb, struct gguf_err *err)
{
	const struct gguf_type_info	*ti = gguf_ttype(r->type);
	struct gguf_srcerr		 se;
	uint64_t			 b0 = e / ti->blck * ti->bytes;

	*nb = (len + ti->blck - 1) / ti->blck * ti->bytes;
	if (r->data != NULL)
		return r->data + b0;
	if (*nb > STAGE) {		/* a type of more than 8 bytes a value */
		gguf_errf(err, -1, "statistics: %llu bytes of an item do not "
		    "fit its buffer", (unsigned long long)*nb);
		return NULL;
	}
	memset(&se, 0, sizeof se);
	gguf_io_map_read();
	if (gguf_source_read(r->src, r->src_off + b0, w->stage, (size_t)*nb,
	    &se) != 0) {
		/* a change of the file is said after the run (run_done) */
		gguf_errf(err, -1, "its data could not be read: %s", se.msg);
		return NULL;
	}
	return w->stage;
}

/* Decodes item i of a chunked run into the worker's buffer; its length. */
static int
decode_chunk(struct stats_run *r, uint64_t i, struct worker *w,
    uint64_t *len, struct gguf_err *err)
{
	const uint8_t	*s = r->data;
	uint64_t	 off = i * CHUNK, nbytes = r->nbytes, e = r->first + off;

	*len = r->n - off < CHUNK ? r->n - off : CHUNK;
	if (s == NULL) {	/* staged: its bytes alone */
		if ((s = run_bytes(r, w, e, *len, &nbytes, err)) == NULL)
			return -1;
		e = 0;
	}
	if (r->wide)
		return gguf_dequant_f64(r->type, r->be, s, nbytes, e, *len,
		    w->dbuf, err);
	return gguf_dequant(r->type, r->be, s, nbytes, e, *len, w->fbuf,
	    err);
}

/*
 * A chunk of whole Q8_0 or Q4_0 blocks summarised from their codes, with
 * the bits decoding it would give but the squared deviations, which are
 * as stable and rounded fewer times (stats_codes.c); -1 if it must be
 * decoded. Q4_K's counts are kept in the worker's buffer of doubles,
 * which the codes path does not otherwise use.
 */
_Static_assert(sizeof(struct gguf_sc_k4) <= CHUNK * sizeof(double),
    "Q4_K's counts fit a worker's dbuf");

static int
codes_chunk(struct stats_run *r, uint64_t i, struct worker *w,
    uint64_t *len, struct gguf_err *err)
{
	struct gguf_sc	 sc;
	struct part	*pt = &r->parts[i];
	const uint8_t	*s;
	uint64_t	 off = i * CHUNK, qk, first, nb;
	uint32_t	*sk = r->sketch ? w->sk : NULL;
	int		 rc;

	*len = r->n - off < CHUNK ? r->n - off : CHUNK;
	first = r->first + off;
	if (!kern.codes || r->be)
		return -1;
	switch (r->type) {
	case GGUF_T_Q8_0:
	case GGUF_T_Q4_0:
		qk = 32;
		break;
	case GGUF_T_Q4_K:
		qk = 256;
		break;
	default:
		return -1;
	}
	if (*len % qk != 0 || first % qk != 0)
		return -1;
	if ((s = run_bytes(r, w, first, *len, &nb, err)) == NULL)
		return -2;
	if (r->type == GGUF_T_Q4_K)
		rc = gguf_sc_k4_sum(kern.k4_count, kern.k4_spread, s,
		    *len / qk, sk, &sc, (struct gguf_sc_k4 *)(void *)w->dbuf);
	else
		rc = gguf_sc_sum(r->type, r->type == GGUF_T_Q8_0 ?
		    kern.q8_0 : kern.q4_0, s, *len / qk, sk, &sc);
	if (rc != 0)
		return -1;
	memset(pt, 0, sizeof *pt);
	pt->nfinite = *len;
	pt->nzero = sc.nzero;
	pt->mean = sc.sum / (double)*len;
	pt->m2 = sc.m2;
	pt->min = sc.min;
	pt->max = sc.max;
	pt->minnz = sc.minnz;
	if (r->sketch) {
		sk_range_f(w, pt);
		w->skn += *len;
	}
	return 0;
}

/* One chunk: decoded once, summarised and counted into the sketch. */
static int
work_scan(struct pool *p, uint64_t i, struct worker *w, uint64_t *units,
    struct gguf_err *err)
{
	struct stats_run	*r = p->ctx;
	const uint8_t		*x = NULL;
	uint64_t		 len, nb;
	int			 rc;

	if ((rc = codes_chunk(r, i, w, &len, err)) == 0) {
		*units = len;
		return 0;
	}
	if (rc == -2)		/* could not be read */
		return -1;
	/* F32 read where it lies, when it lies as floats do */
	if (r->type == GGUF_T_F32 && !r->be && (x = run_bytes(r, w,
	    r->first + i * CHUNK, len, &nb, err)) == NULL)
		return -1;
	if (x != NULL && (uintptr_t)x % _Alignof(float) == 0) {
		scan_float(w, (const float *)(const void *)x, len,
		    &r->parts[i], r->sketch);
		*units = len;
		return 0;
	}
	if (decode_chunk(r, i, w, &len, err) != 0)
		return -1;
	if (r->wide) {
		part_d(w->dbuf, len, &r->parts[i]);
		if (r->sketch)
			sketch_d(w, w->dbuf, len, &r->parts[i]);
	} else
		scan_float(w, w->fbuf, len, &r->parts[i], r->sketch);
	*units = len;
	return 0;
}

/*
 * F16 and BF16 have 65536 values, so counting how often each occurs is all
 * the work a pass needs (nothing is decoded), and every statistic follows
 * exactly from the counts (from_values): one pass, and a table per thread
 * whatever the size of the tensor.
 */
static int
work_count16(struct pool *p, uint64_t i, struct worker *w, uint64_t *units,
    struct gguf_err *err)
{
	struct stats_run	*r = p->ctx;
	const uint8_t		*s;
	uint32_t		*vt = w->vt;
	uint64_t		 off = i * CHUNK, len, j, x, nb;

	len = r->n - off < CHUNK ? r->n - off : CHUNK;
	if ((s = run_bytes(r, w, r->first + off, len, &nb, err)) == NULL)
		return -1;
	if (r->be) {
		for (j = 0; j < len; j++)
			vt[(uint32_t)s[2 * j] << 8 | s[2 * j + 1]]++;
	} else {
		for (j = 0; j + 4 <= len; j += 4) {
			x = gguf_ld64(s + 2 * j, 0);
			vt[x & 0xffff]++;
			vt[x >> 16 & 0xffff]++;
			vt[x >> 32 & 0xffff]++;
			vt[x >> 48]++;
		}
		for (; j < len; j++)
			vt[gguf_ld16(s + 2 * j, 0)]++;
	}
	w->vtn += len;
	*units = len;
	return 0;
}

/* ------------------------------------------- the pass over the sketch */

/*
 * The lower boundary of bucket K: the value where bucket K - 1 ends and K
 * begins. A bucket of positive values (and +0) holds [B(K), B(K + 1)), one
 * of negative values (and -0) holds (B(K), B(K + 1)]: a value on a
 * boundary is in the bucket away from zero. Computed in double, exactly
 * (B of the last float bucket is 2^128; of the last double one, infinity).
 */
static double
sk_bound(int wide, uint32_t K)
{
	uint32_t	half = wide ? 1u << 22 : 1u << 19;
	uint32_t	j = K >= half ? K - half : half - K;
	uint32_t	e = j >> SK_MANT, m = j & (SK_BUCKETS - 1);
	int		bias = wide ? 1023 : 127;
	double		v;

	v = e == 0 ? ldexp((double)m, 1 - bias - SK_MANT) :
	    ldexp((double)(SK_BUCKETS + m), (int)e - bias - SK_MANT);
	return K >= half ? v : -v;
}

/* The key of a finite value (a float, if not wide). */
static uint32_t
sk_key(int wide, double x)
{
	float	f = (float)x;

	if (wide)
		return key_d(bits_d(x));
	return key_f(bits_f(f));
}

/*
 * The bucket a percentile was read from: its key, the number of values
 * in the buckets below it, and whether the value read is exact (the
 * 16-bit types, a bucket of zeros) or the bucket's values must be read
 * again to find it (refine).
 */
struct pct_bucket {
	uint32_t	key;
	uint64_t	below;
	int		settled;
};

struct values_run;
static const uint64_t	*values_page(struct values_run *, unsigned);

/*
 * Histogram and percentiles from the run's sketch (st's counts, min and
 * max set); exact: every value is its bucket's boundary nearer zero (the
 * 16-bit types, whose mantissas fit in SK_MANT bits). ptot: each page's
 * total count, or NULL to add its buckets up here. With vr (a 16-bit
 * type's run, ptot given), pg is not read: a page whose buckets are
 * needed is made from the values' counts (values_page).
 */
static void
from_sketch(uint64_t *const *pg, unsigned npages, int wide, int exact,
    const uint64_t *ptot, struct values_run *vr, struct gguf_stats *st,
    struct pct_bucket *pb)
{
	const uint64_t	*bk;
	uint32_t	kb[GGUF_STATS_BINS + 1], K, half, kz[2];
	uint64_t	rank[GGUF_STATS_NPCT], cum = 0, c, cz = 0;
	double		t, u, lo, hi, v;
	unsigned	p, k;
	int		b, i, ip = 0, zeros;

	half = wide ? 1u << 22 : 1u << 19;
	/*
	 * The buckets of -0 and +0 also hold the subnormals nearest zero.
	 * When they hold nothing but the zeros counted, a percentile falling
	 * there is 0 exactly, not a value spread over the bucket.
	 */
	kz[0] = sk_key(wide, -0.0);
	kz[1] = sk_key(wide, 0.0);
	for (i = 0; i < 2; i++) {
		p = kz[i] >> SK_MANT;
		if (p >= npages)
			continue;
		bk = vr != NULL ? values_page(vr, p) : pg[p];
		if (bk != NULL)
			cz += bk[kz[i] & (SK_BUCKETS - 1)];
	}
	zeros = st->nzero > 0 && cz == st->nzero;
	kb[0] = sk_key(wide, st->min);
	kb[GGUF_STATS_BINS] = sk_key(wide, st->max) + 1;
	/*
	 * Interior edges: the bucket boundary nearest each of the equal
	 * divisions of [min, max], strictly inside the buckets of min and max
	 * (so within [min, max]). When all values share one bucket there is
	 * no such boundary: every edge is B(key(max) + 1) and all values are
	 * in bin 0.
	 */
	for (b = 1; b < GGUF_STATS_BINS; b++) {
		if (kb[GGUF_STATS_BINS] - kb[0] < 2) {
			kb[b] = kb[GGUF_STATS_BINS];
			continue;
		}
		u = (double)b / GGUF_STATS_BINS;
		t = st->min * (1 - u) + st->max * u;	/* cannot overflow */
		K = sk_key(wide, t);
		if (fabs(sk_bound(wide, K + 1) - t) < fabs(t -
		    sk_bound(wide, K)))
			K++;
		if (K < kb[b - 1])
			K = kb[b - 1];
		if (K <= kb[0])
			K = kb[0] + 1;
		if (K >= kb[GGUF_STATS_BINS])
			K = kb[GGUF_STATS_BINS] - 1;
		kb[b] = K;
	}
	st->edge[0] = st->min;
	st->edge[GGUF_STATS_BINS] = st->max;
	for (b = 1; b < GGUF_STATS_BINS; b++)
		st->edge[b] = sk_bound(wide, kb[b]);

	for (i = 0; i < GGUF_STATS_NPCT; i++) {
		rank[i] = (uint64_t)ceil(gguf_stats_pct[i] / 100 *
		    (double)st->nfinite);
		if (rank[i] < 1)
			rank[i] = 1;
		if (rank[i] > st->nfinite)
			rank[i] = st->nfinite;
	}
	b = 0;
	for (p = 0; p < npages; p++) {
		if (vr != NULL ? ptot[p] == 0 : pg[p] == NULL)
			continue;
		/*
		 * A page within one bin where no percentile falls is added
		 * whole (most pages of values spread over many octaves).
		 */
		K = p << SK_MANT;
		while (b + 1 < GGUF_STATS_BINS && K >= kb[b + 1])
			b++;
		if (ptot != NULL)
			c = ptot[p];
		else
			for (c = 0, k = 0; k < SK_BUCKETS; k++)
				c += pg[p][k];
		if ((b + 1 == GGUF_STATS_BINS ||
		    (K | (SK_BUCKETS - 1)) < kb[b + 1]) &&
		    (ip == GGUF_STATS_NPCT || cum + c < rank[ip])) {
			st->hist[b] += c;
			cum += c;
			continue;
		}
		bk = vr != NULL ? values_page(vr, p) : pg[p];
		for (k = 0; k < SK_BUCKETS; k++) {
			if ((c = bk[k]) == 0)
				continue;
			K = p << SK_MANT | k;
			while (b + 1 < GGUF_STATS_BINS && K >= kb[b + 1])
				b++;
			st->hist[b] += c;
			for (; ip < GGUF_STATS_NPCT && cum + c >= rank[ip];
			    ip++) {
				lo = sk_bound(wide, K);
				hi = sk_bound(wide, K + 1);
				lo = lo < st->min ? st->min : lo;
				hi = hi > st->max ? st->max : hi;
				if (exact)
					v = K >= half ? lo : hi;
				else if (zeros && (K == kz[0] || K == kz[1]))
					v = 0;
				else	/* spread the bucket's values evenly */
					v = lo + (hi - lo) * (((double)(rank[ip] -
					    cum) - 0.5) / (double)c);
				st->pct[ip] = v < lo ? lo : v > hi ? hi : v;
				if (pb != NULL) {
					pb[ip].key = K;
					pb[ip].below = cum;
					pb[ip].settled = exact || (zeros &&
					    (K == kz[0] || K == kz[1]));
				}
			}
			cum += c;
		}
	}
}

static void
sk_free(uint64_t **pg, unsigned npages)
{
	unsigned	p;

	for (p = 0; p < npages; p++)
		free(pg[p]);
	free(pg);
}

/*
 * Statistics of a 16-bit type from the count of each value (vt, indexed
 * by the little-endian value): sums in value order, exact products; the
 * counts make the sketch. Most of the work is done slice by slice of the
 * values (values_slice), by the threads that merge the counts, as each
 * slice's counts become whole: the values decoded, the non-finite ones
 * and the zeros counted, the least and greatest, the count of each
 * sketch page. A slice of the values is one sign and a run of exponents,
 * so its buckets lie in sketch pages of its own: no two slices write one
 * page. Only the sums are left to the end (from_values), in value order
 * as ever, so that nothing depends on which thread did which slice.
 */
#define SLICE_N		(VALUES / VT_SLICES)

struct vslice {
	uint64_t	nf, nzero, nnan, npinf, nninf;
	double		min, max;
};

struct values_run {
	uint32_t	 type;
	int		 hist;
	float		*v;		/* each value decoded */
	const uint64_t	*vt;		/* the count of each value */
	uint64_t	 ptot[SK_PAGES_F];	/* the count of each sketch
						   page (hist) */
	uint32_t	 pa[SK_PAGES_F];	/* the values of page p: */
	uint32_t	 pz[SK_PAGES_F];	/* [pa, pz), or none */
	uint64_t	*page;		/* a page made of them (values_page) */
	struct vslice	 s[VT_SLICES];
};

/*
 * Sketch page p of a 16-bit type's values, made from their counts when
 * it is asked for (the page before is then gone), or NULL if it holds
 * nothing. A page is a sign and an exponent; the values of one lie in a
 * run of the 16-bit codes, [pa, pz) (values of one sign sort as their
 * codes do, or in reverse), so a page costs the values it holds, and the
 * sketch costs one page, not one per exponent the values reach (a
 * tensor of random bits: 512 pages, 8 MB to zero, fault in and free).
 */
static const uint64_t *
values_page(struct values_run *vr, unsigned p)
{
	uint32_t	k, u;

	if (vr->ptot[p] == 0)
		return NULL;
	if (vr->page == NULL)
		vr->page = xmalloc(SK_BUCKETS * sizeof *vr->page);
	memset(vr->page, 0, SK_BUCKETS * sizeof *vr->page);
	for (k = vr->pa[p]; k < vr->pz[p]; k++) {
		if (vr->vt[k] == 0)
			continue;
		memcpy(&u, &vr->v[k], sizeof u);
		vr->page[key_f(u) & (SK_BUCKETS - 1)] += vr->vt[k];
	}
	return vr->page;
}

static void
values_slice(struct pool *p, unsigned s)
{
	struct values_run	*vr = ((struct stats_run *)p->ctx)->vr;
	struct vslice		*vs = &vr->s[s];
	const uint64_t		*vt = p->vtab;
	struct gguf_err		 err;
	uint8_t			 keys[2 * SLICE_N];
	uint32_t		 lo = s * SLICE_N, k, u, pn;
	uint64_t		 c;
	double			 x;

	for (k = 0; k < SLICE_N; k++) {
		keys[2 * k] = (uint8_t)(lo + k);
		keys[2 * k + 1] = (uint8_t)((lo + k) >> 8);
	}
	/* cannot fail: the type was checked, and the range is whole */
	gguf_dequant(vr->type, 0, keys, sizeof keys, 0, SLICE_N, vr->v + lo,
	    &err);
	memset(vs, 0, sizeof *vs);
	vs->min = INFINITY;
	vs->max = -INFINITY;
	for (k = lo; k < lo + SLICE_N; k++) {
		if ((c = vt[k]) == 0)
			continue;
		memcpy(&u, &vr->v[k], sizeof u);
		if ((u & 0x7f800000u) == 0x7f800000u) {
			if (u & 0x007fffffu)
				vs->nnan += c;
			else if (u & 0x80000000u)
				vs->nninf += c;
			else
				vs->npinf += c;
			continue;
		}
		x = vr->v[k];
		vs->nf += c;
		vs->nzero += (u & 0x7fffffffu) == 0 ? c : 0;
		vs->min = x < vs->min ? x : vs->min;
		vs->max = x > vs->max ? x : vs->max;
		if (!vr->hist)
			continue;
		/* keys grow or shrink with k: a page's values are a run */
		pn = key_f(u) >> SK_MANT;
		if (vr->ptot[pn] == 0)
			vr->pa[pn] = k;
		vr->pz[pn] = k + 1;
		vr->ptot[pn] += c;
	}
}

static void
from_values(struct values_run *vr, const uint64_t *vt,
    struct gguf_stats *st)
{
	const struct vslice	*vs;
	uint64_t		 nf = 0;
	double			 sum = 0, m2 = 0, d;
	uint32_t		 k;
	unsigned		 s;

	st->min = INFINITY;
	st->max = -INFINITY;
	for (s = 0; s < VT_SLICES; s++) {
		vs = &vr->s[s];
		st->nnan += vs->nnan;
		st->nninf += vs->nninf;
		st->npinf += vs->npinf;
		if (vs->nf == 0)
			continue;
		nf += vs->nf;
		st->nzero += vs->nzero;
		st->min = vs->min < st->min ? vs->min : st->min;
		st->max = vs->max > st->max ? vs->max : st->max;
	}
	st->nfinite = nf;
	if (nf == 0) {
		st->min = st->max = st->mean = st->std = NAN;
		return;
	}
	/* adding 0 changes no sum: one that starts at +0 is never -0 */
	for (k = 0; k < VALUES; k++)
		if (vt[k] != 0 && isfinite(vr->v[k]))
			sum += (double)vt[k] * (double)vr->v[k];
	st->mean = sum / (double)nf;
	for (k = 0; k < VALUES; k++) {
		if (vt[k] == 0 || !isfinite(vr->v[k]))
			continue;
		d = (double)vr->v[k] - st->mean;
		m2 += (double)vt[k] * (d * d);
	}
	st->std = sqrt(m2 / (double)nf);
	if (vr->hist)
		from_sketch(NULL, SK_PAGES_F, 0, 1, vr->ptot, vr, st, NULL);
}

/*
 * Percentiles made exact. The sketch tells in which bucket the value of
 * each percentile's rank lies, and its rank among the bucket's values; a
 * second pass over the data counts the values of those buckets by the
 * next REF_BITS bits of their ordered bits (the bits of a value made to
 * sort as the values do, as the sketch's keys), which narrows each to a
 * range of 2^REF_BITS times fewer values, and so on until every bit is
 * known: one pass for floats (their buckets keep 12 bits), four for the
 * wide types. A percentile is then the value of its rank, exactly. The
 * counts live in the threads' tables of the 16-bit types' pass.
 */
#define REF_BITS	12
#define REF_SLOTS	(1u << REF_BITS)

_Static_assert(GGUF_STATS_NPCT * REF_SLOTS <= VALUES, "refine's counts");
_Static_assert(GGUF_STATS_NPCT == GGUF_SR_BANDS, "refine's bands");
_Static_assert(REF_SLOTS == GGUF_SR_SLOTS, "refine's counts of floats");

/* The ordered bits of a finite value and back (a float's in 32 bits). */
static inline uint64_t
ord_of(int wide, double x)
{
	uint64_t	u;

	if (wide) {
		u = bits_d(x);
		return u ^ ((0ull - (u >> 63)) | 0x8000000000000000ull);
	}
	u = bits_f((float)x);
	return (uint32_t)(u ^ ((0u - (u >> 31)) | 0x80000000u));
}

static double
val_of(int wide, uint64_t o)
{
	double		d;
	float		f;
	uint32_t	u;

	if (wide) {
		o = o >> 63 ? o ^ 0x8000000000000000ull : ~o;
		memcpy(&d, &o, sizeof d);
		return d;
	}
	u = (uint32_t)o;
	u = u >> 31 ? u ^ 0x80000000u : ~u;
	memcpy(&f, &u, sizeof f);
	return f;
}

struct refine_run {
	struct stats_run	*r;
	uint64_t		 pre[GGUF_STATS_NPCT];	/* ordered bits >>
							   shift */
	int			 nk;
	unsigned		 shift;		/* bits below pre */
	unsigned		 bits;		/* counted of them */
	struct gguf_sr		 sr;		/* floats: the bands */
};

/*
 * Floats are counted by stats_refine.c: F32 read where it lies, Q8_0,
 * Q4_0, Q4_K, Q5_K and Q6_K from their codes (as the first pass reads
 * Q8_0, Q4_0 and Q4_K), any other type decoded first; a value outside
 * the bands costs a few vector instructions, and none is compared one by
 * one.
 */
static int
refine_floats(const struct refine_run *rr, uint64_t i, struct worker *w,
    uint64_t *len, struct gguf_err *err)
{
	struct stats_run	*r = rr->r;
	const uint8_t		*s;
	uint64_t		 first = r->first + i * CHUNK, qk, nb;

	*len = r->n - i * CHUNK < CHUNK ? r->n - i * CHUNK : CHUNK;
	qk = gguf_ttype(r->type)->blck;
	if (kern.codes && !r->be && first % qk == 0 && *len % qk == 0 &&
	    gguf_sr_has_codes(r->type)) {
		if ((s = run_bytes(r, w, first, *len, &nb, err)) == NULL)
			return -1;
		gguf_sr_codes(&rr->sr, r->type, s, *len / qk, w->vt);
		return 0;
	}
	if (r->type == GGUF_T_F32 && !r->be) {
		if ((s = run_bytes(r, w, first, *len, &nb, err)) == NULL)
			return -1;
		gguf_sr_floats(&rr->sr, s, *len, w->vt);
		return 0;
	}
	if (decode_chunk(r, i, w, len, err) != 0)
		return -1;
	gguf_sr_floats(&rr->sr, (const uint8_t *)w->fbuf, *len, w->vt);
	return 0;
}

static int
work_refine(struct pool *p, uint64_t i, struct worker *w, uint64_t *units,
    struct gguf_err *err)
{
	const struct refine_run	*rr = p->ctx;
	struct stats_run	*r = rr->r;
	uint32_t		*vt = w->vt;
	uint64_t		 len, j, o, hi, mask, pre[GGUF_STATS_NPCT];
	unsigned		 shift = rr->shift, low = rr->shift - rr->bits;
	int			 k, nk = rr->nk;

	if (!r->wide) {
		if (refine_floats(rr, i, w, &len, err) != 0)
			return -1;
		w->vtn += len;
		*units = len;
		return 0;
	}
	/* In locals: the counts written through vt cannot change them. */
	mask = (1ull << rr->bits) - 1;
	for (k = 0; k < GGUF_STATS_NPCT; k++)
		pre[k] = k < nk ? rr->pre[k] : UINT64_MAX;
	if (decode_chunk(r, i, w, &len, err) != 0)
		return -1;
	for (j = 0; j < len; j++) {
		if (!isfinite(w->dbuf[j]))
			continue;
		o = ord_of(1, w->dbuf[j]);
		hi = o >> shift;
		for (k = 0; k < nk; k++)
			if (hi == pre[k]) {
				vt[(unsigned)k * REF_SLOTS +
				    (unsigned)(o >> low & mask)]++;
				break;
			}
	}
	w->vtn += len;
	*units = len;
	return 0;
}

static int
refine(struct stats_run *r, const struct pool *scan,
    const struct pct_bucket *pb, struct gguf_stats *st,
    struct gguf_err *err)
{
	struct gguf_stats_opts	 o = *scan->opts;
	struct refine_run	 rr;
	struct pool		 p;
	uint64_t		 pre[GGUF_STATS_NPCT], rank[GGUF_STATS_NPCT];
	uint64_t		 cum, c;
	uint32_t		 keys[GGUF_STATS_NPCT];
	unsigned		 s;
	int			 k, m, todo = 0, rc = 0;

	for (k = 0; k < GGUF_STATS_NPCT; k++) {
		if (pb[k].settled)
			continue;
		todo |= 1 << k;
		pre[k] = pb[k].key;
		rank[k] = (uint64_t)ceil(gguf_stats_pct[k] / 100 *
		    (double)st->nfinite);
		rank[k] = rank[k] < 1 ? 1 : rank[k] > st->nfinite ?
		    st->nfinite : rank[k];
		rank[k] -= pb[k].below;		/* among the bucket's values */
	}
	memset(&rr, 0, sizeof rr);
	rr.r = r;
	rr.shift = r->wide ? 52 - SK_MANT : 23 - SK_MANT;	/* a key's */
	o.progress = NULL;	/* the scan's progress has reached its end */
	while (rc == 0 && todo != 0) {
		rr.bits = rr.shift < REF_BITS ? rr.shift : REF_BITS;
		rr.nk = 0;
		for (k = 0; k < GGUF_STATS_NPCT; k++) {
			if (!(todo & 1 << k))
				continue;
			for (m = 0; m < rr.nk && rr.pre[m] != pre[k]; m++)
				;
			if (m == rr.nk)
				rr.pre[rr.nk++] = pre[k];
		}
		if (!r->wide) {		/* one pass: a float's 12 bits left */
			for (m = 0; m < rr.nk; m++)
				keys[m] = (uint32_t)rr.pre[m];
			gguf_sr_init(&rr.sr, rr.nk, keys);
		}
		memset(&p, 0, sizeof p);
		pthread_mutex_init(&p.lock, NULL);
		p.nitems = scan->nitems;
		p.ctx = &rr;
		p.opts = &o;
		p.data = scan->data;
		p.nbytes = scan->nbytes;
		p.staged = scan->staged;
		p.total = scan->total;
		p.vtab = gguf_stats_table_take();
		p.decode = 1;
		p.crew = scan->crew;	/* the scan's threads, again */
		p.work = work_refine;
		rc = gguf_stats_pool_run(&p, o.threads, err);
		for (k = 0; rc == 0 && k < GGUF_STATS_NPCT; k++) {
			if (!(todo & 1 << k))
				continue;
			for (m = 0; rr.pre[m] != pre[k]; m++)
				;
			cum = 0;
			for (s = 0; s < (1u << rr.bits); s++) {
				c = p.vtab[(unsigned)m * REF_SLOTS + s];
				if (cum + c >= rank[k])
					break;
				cum += c;
			}
			if (s == 1u << rr.bits) {	/* cannot be */
				rc = gguf_errf(err, -1, "statistics: the "
				    "data changed while it was read");
				break;
			}
			rank[k] -= cum;
			pre[k] = pre[k] << rr.bits | s;
			if (rr.shift == rr.bits) {
				st->pct[k] = val_of(r->wide, pre[k]);
				todo &= ~(1 << k);
			}
		}
		gguf_stats_table_give(p.vtab);
		pthread_mutex_destroy(&p.lock);
		rr.shift -= rr.bits;
	}
	return rc;
}

/* Folds the chunk results, in order, into st. */
static void
merge_parts(const struct part *parts, uint64_t n, struct gguf_stats *st)
{
	double		mean = 0, m2 = 0, na, nb, delta;
	uint64_t	i, nf = 0;

	st->min = INFINITY;
	st->max = -INFINITY;
	for (i = 0; i < n; i++) {
		st->nzero += parts[i].nzero;
		st->nnan += parts[i].nnan;
		st->npinf += parts[i].npinf;
		st->nninf += parts[i].nninf;
		if (parts[i].nfinite == 0)
			continue;
		st->min = parts[i].min < st->min ? parts[i].min : st->min;
		st->max = parts[i].max > st->max ? parts[i].max : st->max;
		if (nf == 0) {
			mean = parts[i].mean;
			m2 = parts[i].m2;
		} else {
			na = (double)nf;
			nb = (double)parts[i].nfinite;
			delta = parts[i].mean - mean;
			mean += delta * (nb / (na + nb));
			m2 += parts[i].m2 + delta * delta * (na * nb /
			    (na + nb));
		}
		nf += parts[i].nfinite;
	}
	st->nfinite = nf;
	if (nf == 0) {
		st->min = st->max = st->mean = st->std = NAN;
		return;
	}
	st->mean = mean;
	st->std = sqrt(m2 / (double)nf);
}

/*
 * The statistics of elements [first, first + n) of data, or, with src,
 * of the bytes of src from src_off on, read item by item (data then only
 * stands for them: it is not read).
 */
static int
stats_run(uint32_t type, int be, const uint8_t *data,
    struct gguf_source *src, uint64_t src_off, uint64_t nbytes,
    uint64_t first, uint64_t n, const struct gguf_stats_opts *opts,
    struct gguf_stats *st, struct gguf_err *err)
{
	static const struct gguf_stats_opts	 defaults;
	struct stats_run			 r;
	struct pool				 p;
	struct pct_bucket			 pb[GGUF_STATS_NPCT];
	const struct gguf_type_info		*ti;
	float					 probe;
	uint64_t				 cap;
	int					 rc, k;

	memset(st, 0, sizeof *st);
	for (k = 0; k < GGUF_STATS_NPCT; k++)
		st->pct[k] = NAN;
	for (k = 0; k <= GGUF_STATS_BINS; k++)
		st->edge[k] = NAN;
	if (opts == NULL)
		opts = &defaults;
	/* a zero-length decode checks the type and the start (reads nothing) */
	if (gguf_dequant(type, be, data, nbytes, first, 0, &probe, err) != 0)
		return -1;
	ti = gguf_ttype(type);
	if (gguf_mul_ok(nbytes / ti->bytes, ti->blck, &cap) != 0)
		cap = UINT64_MAX;
	if (n > cap - first)
		return gguf_errf(err, -1, "elements %llu..%llu lie outside "
		    "the %llu elements of the data",
		    (unsigned long long)first,
		    (unsigned long long)(first + n),
		    (unsigned long long)cap);
	pthread_once(&kern_once, kern_init);
	memset(&r, 0, sizeof r);
	r.type = type;
	r.be = be;
	r.wide = gguf_dequant_wide(type);
	r.sketch = !(opts->flags & GGUF_STATS_NO_HIST);
	r.data = src != NULL ? NULL : data;
	r.src = src;
	r.src_off = src_off;
	r.nbytes = nbytes;
	r.first = first;
	r.n = n;
	st->count = n;

	memset(&p, 0, sizeof p);
	pthread_mutex_init(&p.lock, NULL);
	p.nitems = (n + CHUNK - 1) / CHUNK;
	p.ctx = &r;
	p.opts = opts;
	p.data = data;
	p.nbytes = nbytes;
	p.staged = src != NULL;
	p.total = n;
	p.crew = gguf_stats_crew_start(opts->threads, p.nitems);

	if (type == GGUF_T_F16 || type == GGUF_T_BF16) {
		r.vr = xcalloc(1, sizeof *r.vr);
		r.vr->type = type;
		r.vr->hist = r.sketch;
		p.vtab = gguf_stats_table_take();
		r.vr->v = (float *)(void *)(p.vtab + VALUES);
		p.slice = values_slice;
		p.work = work_count16;
		rc = gguf_stats_pool_run(&p, opts->threads, err);
		r.vr->vt = p.vtab;
		if (rc == 0)
			from_values(r.vr, p.vtab, st);
		free(r.vr->page);
		free(r.vr);
		gguf_stats_table_give(p.vtab);
		gguf_stats_crew_end(p.crew);
		pthread_mutex_destroy(&p.lock);
		return rc;
	}
	r.parts = xcalloc(p.nitems > 0 ? p.nitems : 1, sizeof *r.parts);
	if (r.sketch) {
		p.sk_pages = r.wide ? SK_PAGES_D : SK_PAGES_F;
		p.sktot = xcalloc(p.sk_pages, sizeof *p.sktot);
	}
	p.work = work_scan;
	rc = gguf_stats_pool_run(&p, opts->threads, err);
	if (rc == 0)
		merge_parts(r.parts, p.nitems, st);
	if (rc == 0 && st->nfinite > 0 && r.sketch) {
		from_sketch(p.sktot, p.sk_pages, r.wide, 0, NULL, NULL, st,
		    pb);
		rc = refine(&r, &p, pb, st, err);
	}
	if (rc == 0 && st->nfinite == 0)
		st->mean = st->std = NAN;
	if (p.sktot != NULL)
		sk_free(p.sktot, p.sk_pages);
	free(r.parts);
	gguf_stats_crew_end(p.crew);
	pthread_mutex_destroy(&p.lock);
	return rc;
}

int
gguf_stats_data(uint32_t type, int be, const uint8_t *data,
    uint64_t nbytes, uint64_t first, uint64_t n,
    const struct gguf_stats_opts *opts, struct gguf_stats *st,
    struct gguf_err *err)
{
	return stats_run(type, be, data, NULL, 0, nbytes, first, n, opts, st,
	    err);
}

int
gguf_stats_window(const struct gguf_file *f, const struct gguf_tensor *t,
    const uint8_t *data, uint64_t row0, uint64_t nrows,
    const struct gguf_stats_opts *opts, struct gguf_stats *st,
    struct gguf_err *err)
{
	const struct gguf_file	*tf = gguf_tensor_file(f, t);
	struct gguf_source	*src = tf != NULL ? gguf_file_source(tf) :
				    NULL;
	uint64_t		 off = 0;

	/*
	 * A file with a descriptor is read, not mapped (run_bytes), from a
	 * block's start: rows that are not whole blocks (GGUF_TENSOR_XROW)
	 * may start inside one, and are read where they lie.
	 */
	if (src != NULL && gguf_source_fd(src) >= 0 &&
	    row0 * t->ne[0] % gguf_ttype(t->type)->blck == 0)
		off = gguf_layout(tf)->data_off + t->offset;
	else
		src = NULL;
	return stats_run(t->type, gguf_layout(f)->be, data, src, off,
	    t->nbytes, row0 * t->ne[0], nrows * t->ne[0], opts, st, err);
}

/*
 * Whole rows row0 .. row0+nrows of t: checked like any window, and the
 * file checked to be as it was opened.
 */
static const uint8_t *
row_range(const struct gguf_file *f, const struct gguf_tensor *t,
    uint64_t row0, uint64_t nrows, uint8_t **hold, struct gguf_err *err)
{
	const uint8_t	*data;

	*hold = NULL;
	data = gguf_tensor_window(f, t, row0, nrows, 0, t->ne[0], err);
	if (data != NULL && gguf_file_changed(f, 0, err))
		return NULL;
	/* A file that is not mapped, or remote: the rows read into memory. */
	if (data != NULL && nrows > 0 && gguf_tensor_by_range(f, t))
		data = *hold = gguf_tensor_fetch(f, t, row0 * t->ne[0],
		    (row0 + nrows) * t->ne[0], err);
	return data;
}

/*
 * After a run: if the file changed meanwhile, a failure has that reason
 * and a success may have read a mix of old and new bytes, so it fails too.
 */
static int
run_done(const struct gguf_file *f, int rc, struct gguf_err *err)
{
	struct gguf_err	e;

	memset(&e, 0, sizeof e);
	if (rc != GGUF_STATS_CANCELLED && gguf_file_changed(f, 0, &e)) {
		if (err != NULL)
			*err = e;
		return -1;
	}
	return rc;
}

int
gguf_stats_tensor(const struct gguf_file *f, const struct gguf_tensor *t,
    uint64_t row0, uint64_t nrows, const struct gguf_stats_opts *opts,
    struct gguf_stats *st, struct gguf_err *err)
{
	const uint8_t	*data;
	uint8_t		*hold;
	int		 k, rc;

	memset(st, 0, sizeof *st);
	data = row_range(f, t, row0, nrows, &hold, err);
	if (data == NULL)
		return -1;
	if (nrows == 0) {
		st->min = st->max = st->mean = st->std = NAN;
		for (k = 0; k < GGUF_STATS_NPCT; k++)
			st->pct[k] = NAN;
		for (k = 0; k <= GGUF_STATS_BINS; k++)
			st->edge[k] = NAN;
		return 0;
	}
	if (hold != NULL)
		rc = gguf_stats_data(t->type, gguf_layout(f)->be, data,
		    t->nbytes, row0 * t->ne[0], nrows * t->ne[0], opts, st,
		    err);
	else
		rc = gguf_stats_window(f, t, data, row0, nrows, opts, st,
		    err);
	rc = run_done(f, rc, err);
	free(hold);
	return rc;
}

/* ---------------------------------------------------------- row summaries */

struct rows_run {
	const struct gguf_tensor *t;
	int			 be;
	int			 wide;
	const uint8_t		*data;
	uint64_t		 row0;
	uint64_t		 nrows;
	uint64_t		 per_item;	/* rows per item */
	struct gguf_rowsum	*out;
};

static int
work_rows(struct pool *p, uint64_t item, struct worker *w, uint64_t *units,
    struct gguf_err *err)
{
	struct rows_run		*r = p->ctx;
	const struct gguf_tensor *t = r->t;
	struct gguf_rowsum	*rs;
	uint64_t		 row, end, off, len, base;
	double			 sum, sq;
	int			 rc;

	row = item * r->per_item;
	end = row + r->per_item < r->nrows ? row + r->per_item : r->nrows;
	for (; row < end; row++) {
		rs = &r->out[row];
		rs->min = INFINITY;
		rs->max = -INFINITY;
		rs->nfinite = 0;
		sum = sq = 0;
		base = (r->row0 + row) * t->ne[0];
		for (off = 0; off < t->ne[0]; off += len) {
			len = t->ne[0] - off < CHUNK ? t->ne[0] - off : CHUNK;
			if (r->wide)
				rc = gguf_dequant_f64(t->type, r->be, r->data,
				    t->nbytes, base + off, len, w->dbuf, err);
			else
				rc = gguf_dequant(t->type, r->be, r->data,
				    t->nbytes, base + off, len, w->fbuf, err);
			if (rc != 0)
				return -1;
			if (r->wide)
				row_d(w->dbuf, len, rs, &sum, &sq);
			else
				row_f(w->fbuf, len, rs, &sum, &sq);
		}
		if (rs->nfinite == 0) {
			rs->min = rs->max = rs->mean = rs->l2 = NAN;
		} else {
			rs->mean = sum / (double)rs->nfinite;
			rs->l2 = sqrt(sq);
		}
		*units += t->ne[0];
	}
	return 0;
}

int
gguf_row_summaries(const struct gguf_file *f, const struct gguf_tensor *t,
    uint64_t row0, uint64_t nrows, const struct gguf_stats_opts *opts,
    struct gguf_rowsum *out, struct gguf_err *err)
{
	static const struct gguf_stats_opts	 defaults;
	struct rows_run				 r;
	struct pool				 p;
	uint8_t					*hold;
	int					 rc;

	if (opts == NULL)
		opts = &defaults;
	memset(&r, 0, sizeof r);
	r.data = row_range(f, t, row0, nrows, &hold, err);
	if (r.data == NULL)
		return -1;
	if (nrows == 0)
		return 0;
	r.t = t;
	r.be = gguf_layout(f)->be;
	r.wide = gguf_dequant_wide(t->type);
	r.row0 = row0;
	r.nrows = nrows;
	r.per_item = t->ne[0] >= CHUNK ? 1 : CHUNK / (t->ne[0] ? t->ne[0] : 1);
	r.out = out;

	memset(&p, 0, sizeof p);
	pthread_mutex_init(&p.lock, NULL);
	p.nitems = (nrows + r.per_item - 1) / r.per_item;
	p.ctx = &r;
	p.opts = opts;
	p.data = r.data;
	p.nbytes = t->nbytes;
	p.total = nrows * t->ne[0];
	p.work = work_rows;
	rc = gguf_stats_pool_run(&p, opts->threads, err);
	pthread_mutex_destroy(&p.lock);
	rc = run_done(f, rc, err);
	free(hold);
	return rc;
}
