/*
 * test_pct.c - percentiles against the exact sorted answer, for F32, F16,
 * BF16, Q8_0 and Q4_K data built here in three shapes:
 *
 *	zero median	most values exactly 0 (of either sign), the others
 *			spread on both sides: p50 falls on the zeros;
 *	repeated	most values one exactly represented value, the
 *			others spread on both sides of it: p50 falls on it;
 *	spread		values all distinct (the 16-bit and float types) or
 *			as distinct as the blocks allow (distinct scales
 *			and codes).
 *
 * The exact answer is the nearest-rank percentile of the decoded values,
 * sorted. Every percentile must be within the bound the manual states,
 * one sketch bucket (2^-11 of its magnitude), and be exact where it
 * promises: a percentile that falls on the zeros is 0, not a tiny number
 * beside it, a percentile that falls on a value many elements share is
 * that value (its bucket is read again, and holds that value alone), and
 * F16 and BF16 percentiles are exact. Results must be the same on 1 and
 * 3 threads.
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

/* elements: two chunks and a part of one, a multiple of every block */
#define N	(2 * 65536 + 4096)

enum shape { ZERO, REPEATED, SPREAD };

static const char	*shape_name[] = { "zero median", "repeated value",
			    "spread" };

static uint64_t	seed;

static uint32_t
rnd(void)
{
	seed = seed * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(seed >> 32);
}

/* 60% of the elements, spread over the tensor: the chosen value */
static int
chosen(void)
{
	return rnd() % 10 < 6;
}

static void
put16(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void
put32(uint8_t *p, uint32_t v)
{
	put16(p, v);
	put16(p + 2, v >> 16);
}

/*
 * The 16-bit patterns of finite values, each value once (no -0), in an
 * order that jumps about: i times an odd number is a permutation of the
 * 65536 patterns; those whose exponent (exp_mask) is all ones are NaN or
 * infinite.
 */
static uint32_t
distinct16(uint32_t *state, uint32_t exp_mask)
{
	uint32_t	b;

	do {
		b = (*state * 40503u) & 0xffff;
		(*state)++;
	} while ((b & exp_mask) == exp_mask || b == 0x8000);
	return b;
}

static void
make_float(uint8_t *buf, uint32_t n, enum shape sh)
{
	uint32_t	i, u;
	float		f;

	for (i = 0; i < n; i++) {
		if (sh == SPREAD)	/* k / 1024 for distinct k */
			f = (float)((int32_t)((i * 7919u) % n) -
			    (int32_t)n / 2) / 1024.0f;
		else if (chosen())
			f = sh == ZERO ? (i % 2 ? -0.0f : 0.0f) : 0.3f;
		else
			f = ((float)(rnd() % 20001) - 10000.0f) / 4096.0f +
			    (sh == REPEATED ? 0.3f : 0.0f);
		memcpy(&u, &f, 4);
		put32(buf + 4 * i, u);
	}
}

/*
 * F16 (mantissa of 10 bits) or BF16 (7): the chosen value is 1, the others
 * of either sign and from 2^-6 to 2^7 in magnitude.
 */
static void
make_half(uint8_t *buf, uint32_t n, enum shape sh, int mant)
{
	uint32_t	exp_mask = ((1u << (15 - mant)) - 1) << mant;
	uint32_t	bias = (1u << (14 - mant)) - 1;
	uint32_t	i, b, state = 1;

	for (i = 0; i < n; i++) {
		if (sh == SPREAD)
			b = distinct16(&state, exp_mask);
		else if (chosen())
			b = sh == ZERO ? (i % 2 ? 0x8000 : 0) : bias << mant;
		else
			b = (rnd() & 0x8000) | (bias - 6 + rnd() % 13) <<
			    mant | (rnd() & ((1u << mant) - 1));
		put16(buf + 2 * i, b);
	}
}

/* Q8_0: blocks of an F16 scale and 32 signed codes */
static void
make_q8_0(uint8_t *buf, uint32_t n, enum shape sh)
{
	uint32_t	blk, j;
	uint8_t		*b;

	for (blk = 0; blk < n / 32; blk++) {
		b = buf + 34 * blk;
		if (sh == REPEATED)	/* one scale: code 5 is one value */
			put16(b, 0x2c00);
		else	/* distinct scales around 1/16 */
			put16(b, 0x2a00 + blk % 1024);
		for (j = 0; j < 32; j++) {
			if (sh == ZERO && chosen())
				b[2 + j] = 0;
			else if (sh == REPEATED && chosen())
				b[2 + j] = 5;
			else
				b[2 + j] = (uint8_t)(rnd() % 255 + 129);
		}
	}
}

/* Q4_K: blocks of d, dmin, 12 bytes of 6-bit scales and mins, 256 codes */
static void
make_q4_k(uint8_t *buf, uint32_t n, enum shape sh)
{
	static const uint8_t	ones[12] = { 1, 1, 1, 1, 0, 0, 0, 0, 1, 1,
				    1, 1 };
	uint32_t		blk, j, lo, hi;
	uint8_t			*b;

	for (blk = 0; blk < n / 256; blk++) {
		b = buf + 144 * blk;
		for (j = 4; j < 144; j++)
			b[j] = (uint8_t)rnd();
		if (sh == SPREAD) {
			/* d and dmin distinct, finite, around 1/64 */
			put16(b, 0x2400 + blk * 3 % 1024);
			put16(b + 2, 0x2000 + blk * 5 % 1024);
			continue;
		}
		/* no minimum: a code of 0 is 0; d of either sign */
		put16(b + 2, 0);
		if (sh == REPEATED) {
			/* every scale 1, d 1: a code of 7 is 7 */
			put16(b, 0x3c00);
			memcpy(b + 4, ones, sizeof ones);
		} else
			put16(b, (blk % 2 ? 0x8000 : 0) | (0x2400 + blk %
			    512));
		for (j = 16; j < 144; j++) {
			lo = b[j] & 15;
			hi = b[j] >> 4;
			if (chosen())
				lo = sh == ZERO ? 0 : 7;
			if (chosen())
				hi = sh == ZERO ? 0 : 7;
			b[j] = (uint8_t)(lo | hi << 4);
		}
	}
}

static int
cmp_double(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* a equals b as numbers (-0 equals 0; NaN nothing) */
static int
eq(double a, double b)
{
	return !isnan(a) && !isnan(b) && !(a < b) && !(a > b);
}

static int
same(double a, double b)
{
	return memcmp(&a, &b, sizeof a) == 0;
}

/* the value most elements have (ZERO, REPEATED), as decoded */
static double
chosen_value(uint32_t type, enum shape sh)
{
	if (sh == ZERO)
		return 0;
	switch (type) {
	case GGUF_T_F32:
		return 0.3f;
	case GGUF_T_Q8_0:
		return 5.0 / 16;
	case GGUF_T_Q4_K:
		return 7;
	default:
		return 1;
	}
}

static void
check(uint32_t type, enum shape sh, const uint8_t *buf, uint32_t n)
{
	const struct gguf_type_info	*ti = gguf_ttype(type);
	struct gguf_stats_opts		 opts;
	struct gguf_stats		 st, st3;
	struct gguf_err			 err;
	float				*f = malloc(n * sizeof *f);
	double				*x = malloc(n * sizeof *x);
	double				 r = sh == SPREAD ? NAN :
					    chosen_value(type, sh);
	double				 want, bound;
	uint64_t			 nbytes = n / ti->blck * ti->bytes;
	uint64_t			 i, k, dup = 0;
	int				 j, rc, exact, good = 1;
	char				 msg[512];
	size_t				 used = 0;

	memset(&opts, 0, sizeof opts);
	if (gguf_dequant(type, 0, buf, nbytes, 0, n, f, &err) != 0) {
		ok(0, "%s, %s: %s", ti->name, shape_name[sh], err.msg);
		free(f);
		free(x);
		return;
	}
	for (i = 0; i < n; i++)
		x[i] = f[i];
	qsort(x, n, sizeof *x, cmp_double);
	for (i = 1; i < n; i++)
		dup += eq(x[i], x[i - 1]);
	opts.threads = 1;
	rc = gguf_stats_data(type, 0, buf, nbytes, 0, n, &opts, &st, &err);
	opts.threads = 3;
	rc |= gguf_stats_data(type, 0, buf, nbytes, 0, n, &opts, &st3, &err);
	for (j = 0; j < GGUF_STATS_NPCT; j++) {
		k = (uint64_t)ceil(gguf_stats_pct[j] / 100 * n);
		want = x[k - 1];
		/*
		 * Zeros and the repeated value exactly (their buckets are
		 * read again), any other within a bucket.
		 */
		exact = eq(want, 0) || (ti->blck == 1 && ti->bytes == 2) ||
		    (sh == REPEATED && eq(want, r));
		bound = exact ? 0 : fmax(ldexp(fabs(want), -11),
		    ldexp(1, -137));
		if (!(fabs(st.pct[j] - want) <= bound) ||
		    !same(st.pct[j], st3.pct[j]))
			good = 0;
		if (j == 2 && sh != SPREAD && !eq(want, r))
			good = 0;	/* the data is not what it should be */
		used += (size_t)snprintf(msg + used, sizeof msg - used,
		    " p%g %.9g%s%.9g", gguf_stats_pct[j], st.pct[j],
		    exact ? " == " : " ~ ", want);
	}
	/* 16-bit and float values are all distinct; blocks' nearly */
	if (sh == SPREAD && ti->blck == 1 && dup != 0)
		good = 0;
	ok(rc == 0 && good, "%s, %s, %u values (%llu repeats):%s", ti->name,
	    shape_name[sh], n, (unsigned long long)dup, msg);
	free(f);
	free(x);
}

int
main(void)
{
	static const uint32_t	types[] = { GGUF_T_F32, GGUF_T_F16,
				    GGUF_T_BF16, GGUF_T_Q8_0, GGUF_T_Q4_K };
	uint8_t			*buf = malloc((size_t)N * 4);
	uint32_t		 n;
	size_t			 t;
	int			 sh;

	for (t = 0; t < sizeof types / sizeof types[0]; t++) {
		for (sh = ZERO; sh <= SPREAD; sh++) {
			seed = 1000 * t + (uint64_t)sh;
			n = N;
			switch (types[t]) {
			case GGUF_T_F32:
				make_float(buf, n, sh);
				break;
			case GGUF_T_F16:
			case GGUF_T_BF16:
				/* fewer than the finite values of 16 bits */
				if (sh == SPREAD)
					n = 60000;
				make_half(buf, n, sh,
				    types[t] == GGUF_T_F16 ? 10 : 7);
				break;
			case GGUF_T_Q8_0:
				make_q8_0(buf, n, sh);
				break;
			default:
				make_q4_k(buf, n, sh);
				break;
			}
			check(types[t], sh, buf, n);
		}
	}
	free(buf);
	return tap_done();
}
