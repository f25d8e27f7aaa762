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
 * sorted. Every percentile must be exactly that value, of every type
 * (F64 too, whose buckets take four more passes): a percentile that
 * falls on the zeros is 0, not a tiny number beside it, one that falls
 * on a value many elements share is that value, one among distinct
 * values is the value of its rank. Results must be the same on 1 and 3
 * threads. Then seeded random tensors of few values (1 to 300, of
 * random magnitudes, some repeated) of each type: a failure names its
 * seed.
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

static void
make_double(uint8_t *buf, uint32_t n, enum shape sh)
{
	uint64_t	u;
	uint32_t	i;
	double		d;

	for (i = 0; i < n; i++) {
		if (sh == SPREAD)	/* distinct, with all 52 bits in use */
			d = ((double)((int32_t)((i * 7919u) % n) -
			    (int32_t)n / 2) + 1.0 / 3) / 1024.0;
		else if (chosen())
			d = sh == ZERO ? (i % 2 ? -0.0 : 0.0) : 0.3;
		else
			d = ((double)(rnd() % 20001) - 10000.0) / 3.0 +
			    (sh == REPEATED ? 0.3 : 0.0);
		memcpy(&u, &d, 8);
		put32(buf + 8 * i, (uint32_t)u);
		put32(buf + 8 * i + 4, (uint32_t)(u >> 32));
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
	case GGUF_T_F64:
		return 0.3;
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
	double				 want;
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
	if (gguf_dequant_wide(type) &&
	    gguf_dequant_f64(type, 0, buf, nbytes, 0, n, x, &err) != 0) {
		ok(0, "%s, %s: %s", ti->name, shape_name[sh], err.msg);
		free(f);
		free(x);
		return;
	}
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
		exact = eq(st.pct[j], want);
		if (!exact || !same(st.pct[j], st3.pct[j]))
			good = 0;
		if (j == 2 && sh != SPREAD && !eq(want, r))
			good = 0;	/* the data is not what it should be */
		used += (size_t)snprintf(msg + used, sizeof msg - used,
		    " p%g %.9g%s%.9g", gguf_stats_pct[j], st.pct[j],
		    exact ? " == " : " != ", want);
	}
	/* 16-bit and float values are all distinct; blocks' nearly */
	if (sh == SPREAD && ti->blck == 1 && dup != 0)
		good = 0;
	ok(rc == 0 && good, "%s, %s, %u values (%llu repeats):%s", ti->name,
	    shape_name[sh], n, (unsigned long long)dup, msg);
	free(f);
	free(x);
}

/* check() without a test line: 1 if every percentile is exact */
static int
check_quiet(uint32_t type, const uint8_t *buf, uint32_t n)
{
	const struct gguf_type_info	*ti = gguf_ttype(type);
	struct gguf_stats		 st;
	struct gguf_err			 err;
	double				*x = malloc(n * sizeof *x);
	float				 f;
	uint64_t			 k, u;
	uint32_t			 i, v;
	int				 j, good;

	for (i = 0; i < n; i++) {
		if (ti->bytes == 8) {
			u = (uint64_t)(buf[8 * i] | buf[8 * i + 1] << 8 |
			    buf[8 * i + 2] << 16) |
			    (uint64_t)buf[8 * i + 3] << 24 |
			    (uint64_t)buf[8 * i + 4] << 32 |
			    (uint64_t)buf[8 * i + 5] << 40 |
			    (uint64_t)buf[8 * i + 6] << 48 |
			    (uint64_t)buf[8 * i + 7] << 56;
			memcpy(&x[i], &u, 8);
		} else {
			v = (uint32_t)buf[4 * i] | (uint32_t)buf[4 * i + 1] <<
			    8 | (uint32_t)buf[4 * i + 2] << 16 |
			    (uint32_t)buf[4 * i + 3] << 24;
			memcpy(&f, &v, 4);
			x[i] = f;
		}
	}
	qsort(x, n, sizeof *x, cmp_double);
	good = gguf_stats_data(type, 0, buf, (uint64_t)n * ti->bytes, 0, n,
	    NULL, &st, &err) == 0;
	for (j = 0; good && j < GGUF_STATS_NPCT; j++) {
		k = (uint64_t)ceil(gguf_stats_pct[j] / 100 * n);
		k = k < 1 ? 1 : k;
		if (!eq(st.pct[j], x[k - 1])) {
			diag("p%g: %.17g, the value of rank %llu is %.17g",
			    gguf_stats_pct[j], st.pct[j],
			    (unsigned long long)k, x[k - 1]);
			good = 0;
		}
	}
	free(x);
	return good;
}

/*
 * Seeded random tensors of few values: F32 and F64 of random magnitudes
 * and signs, a third of them repeated; 1, 2, 3, 4 among them. Each must
 * give the exact percentiles; a failure names the seed that makes it.
 */
static void
few(uint8_t *buf)
{
	const char	*env = getenv("PCT_SEED");
	uint64_t	 s0 = env != NULL ? strtoull(env, NULL, 10) : 20261128;
	uint64_t	 u;
	uint32_t	 n, i, v;
	double		 d;
	float		 f;
	int		 round, wide, fails = 0;

	for (i = 0; i < 4; i++) {	/* 1, 2, 3, 4 */
		f = (float)(i + 1);
		memcpy(&v, &f, 4);
		put32(buf + 4 * i, v);
	}
	check(GGUF_T_F32, SPREAD, buf, 4);
	for (round = 0; round < 400; round++) {
		seed = s0 + (uint64_t)round;
		wide = round % 2;
		n = 1 + rnd() % 300;
		for (i = 0; i < n; i++) {
			if (i > 0 && rnd() % 3 == 0) {	/* a repeat */
				memcpy(buf + (wide ? 8 : 4) * i, buf +
				    (wide ? 8 : 4) * (rnd() % i), wide ? 8 : 4);
				continue;
			}
			d = ldexp((double)rnd() / 4294967296.0 + 0.5,
			    (int)(rnd() % 40) - 20) * (rnd() % 2 ? -1 : 1);
			if (wide) {
				d += ldexp((double)rnd(), -70);
				memcpy(&u, &d, 8);
				put32(buf + 8 * i, (uint32_t)u);
				put32(buf + 8 * i + 4, (uint32_t)(u >> 32));
			} else {
				f = (float)d;
				memcpy(&v, &f, 4);
				put32(buf + 4 * i, v);
			}
		}
		if (!check_quiet(wide ? GGUF_T_F64 : GGUF_T_F32, buf, n)) {
			diag("seed %llu (PCT_SEED=%llu, round %d): %u values",
			    (unsigned long long)(s0 + (uint64_t)round),
			    (unsigned long long)s0, round, n);
			fails++;
		}
	}
	ok(fails == 0, "400 seeded random tensors of 1 to 300 F32 or F64 "
	    "values: exact percentiles (%d failed)", fails);
}

int
main(void)
{
	static const uint32_t	types[] = { GGUF_T_F32, GGUF_T_F16,
				    GGUF_T_BF16, GGUF_T_Q8_0, GGUF_T_Q4_K,
				    GGUF_T_F64 };
	uint8_t			*buf = malloc((size_t)N * 8);
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
			case GGUF_T_F64:
				make_double(buf, n, sh);
				break;
			default:
				make_q4_k(buf, n, sh);
				break;
			}
			check(types[t], sh, buf, n);
		}
	}
	few(buf);
	free(buf);
	return tap_done();
}
