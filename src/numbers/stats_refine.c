/*
 * stats_refine.c - the pass over floats that makes percentiles exact
 * (refine in stats.c), over decoded floats or from quantized codes
 * (stats_vec.h).
 *
 * Up to five bands are wanted, each the floats of one sketch bucket, and
 * nearly every value lies in none of them. Decoded floats are tested
 * sixteen at a time, every lane against every band with no branch (code
 * the compiler puts in vector registers); only a group that holds a hit
 * is looked at value by value.
 *
 * Quantized blocks are not decoded. A Q8_0 or Q4_0 block's values are q
 * * d, a Q6_K group's q * (d * sc), all exact in float (dequant_legacy.c,
 * dequant_kquants.c; stats_codes.c for the count of bits): for a scale
 * a, the codes whose values can lie in a band [lo, hi] are the integers
 * between lo / a and hi / a, which for a bucket as narrow as 2^-11 of its
 * values is usually none. A Q4_K or Q5_K sub-block's values are a * c - b,
 * the product exact and the difference rounded once: its codes are those
 * between (lo + b) / a and (hi + b) / a, taken wider by the roundings.
 * The scales of a batch of blocks are read first and tested against
 * every band in vector code, in float, the quotients taken a little wide
 * (the band's bounds moved out by 2^-20 of their magnitude, and more), so
 * that rounding cannot lose a code: a flag per scale and band. Only a
 * flagged block is looked at again: each candidate code's value computed
 * as the decoder computes it and tested by its bits, and then the
 * block's codes equal to it counted. A block whose scale is zero or not
 * finite is computed value by value. Counts are integers: the same
 * whatever the order.
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "cpu.h"
#include "dequant_int.h"
#include "stats_vec.h"

/*
 * The loops over many values below are compiled for the baseline and,
 * where the compiler can, for AVX2 (NAME_avx2): one body inlined into
 * both, picked by GGUF_PICK at each call.
 */

#define SHIFT		GGUF_SV_KEYSHIFT
#define SLOTS		GGUF_SR_SLOTS

/* A float's bits made to sort as the values do. */
static inline uint32_t
ord(uint32_t u)
{
	return u ^ ((0u - (u >> 31)) | 0x80000000u);
}

/* The float of ordered bits o. */
static inline double
unord(uint32_t o)
{
	return bits_f(o >> 31 ? o ^ 0x80000000u : ~o);
}

void
gguf_sr_init(struct gguf_sr *b, int n, const uint32_t *keys)
{
	double	lo, hi;
	int	k;

	memset(b, 0, sizeof *b);
	b->n = n;
	for (k = 0; k < GGUF_SR_BANDS; k++) {
		b->key[k] = k < n ? keys[k] : UINT32_MAX;
		if (k >= n)
			continue;
		lo = unord(keys[k] << SHIFT);
		hi = unord(keys[k] << SHIFT | ((1u << SHIFT) - 1));
		b->lo[k] = lo - (fabs(lo) * 0x1p-20 + 0x1p-140);
		b->hi[k] = hi + (fabs(hi) * 0x1p-20 + 0x1p-140);
		/* rounded to float, and no subnormal (slow to compute with) */
		b->flo[k] = (float)(b->lo[k] - fabs(b->lo[k]) * 0x1p-20);
		b->fhi[k] = (float)(b->hi[k] + fabs(b->hi[k]) * 0x1p-20);
		if (fabsf(b->flo[k]) < 0x1p-100f)
			b->flo[k] = -0x1p-100f;
		if (fabsf(b->fhi[k]) < 0x1p-100f)
			b->fhi[k] = 0x1p-100f;
		b->fab[k] = fabsf(b->flo[k]) + fabsf(b->fhi[k]);
	}
	for (k = n; k < GGUF_SR_BANDS; k++) {
		b->flo[k] = b->fhi[k] = INFINITY;
		b->fab[k] = 0;
	}
}

/* Counts ordered bits o (n times) in the band they lie in, if any. */
static inline void
count_o(const struct gguf_sr *b, uint32_t o, uint32_t n, uint32_t *cnt)
{
	uint32_t	f = o >> SHIFT;
	int		k;

	for (k = 0; k < b->n; k++)
		if (f == b->key[k]) {
			cnt[(unsigned)k * SLOTS + (o & (SLOTS - 1))] += n;
			return;
		}
}

/* The same for a value's bits u. */
static inline void
count(const struct gguf_sr *b, uint32_t u, uint32_t n, uint32_t *cnt)
{
	count_o(b, ord(u), n, cnt);
}

/* Whether ordered bits o lie in one of the bands (keys past n match none). */
_Static_assert(GGUF_SR_BANDS == 5, "in_bands tests five keys");

static inline int
in_bands(const struct gguf_sr *b, uint32_t o)
{
	uint32_t	f = o >> SHIFT;

	return f == b->key[0] || f == b->key[1] || f == b->key[2] ||
	    f == b->key[3] || f == b->key[4];
}

GGUF_BODY void
sr_floats_body(const struct gguf_sr *b, const uint8_t *x, uint64_t n,
    uint32_t *cnt)
{
	uint32_t	k0 = b->key[0], k1 = b->key[1], k2 = b->key[2];
	uint32_t	k3 = b->key[3], k4 = b->key[4], u, f, hit;
	uint64_t	i;
	int		l;

	for (i = 0; i + 16 <= n; i += 16) {
		hit = 0;
		for (l = 0; l < 16; l++) {
			memcpy(&u, x + 4 * (i + (uint64_t)l), 4);
			f = ord(u) >> SHIFT;
			hit |= (uint32_t)(f == k0) | (uint32_t)(f == k1) |
			    (uint32_t)(f == k2) | (uint32_t)(f == k3) |
			    (uint32_t)(f == k4);
		}
		if (__builtin_expect(hit == 0, 1))
			continue;
		for (l = 0; l < 16; l++) {
			memcpy(&u, x + 4 * (i + (uint64_t)l), 4);
			count(b, u, 1, cnt);
		}
	}
	for (; i < n; i++) {
		memcpy(&u, x + 4 * i, 4);
		count(b, u, 1, cnt);
	}
}

static void
sr_floats(const struct gguf_sr *b, const uint8_t *x, uint64_t n,
    uint32_t *cnt)
{
	sr_floats_body(b, x, n, cnt);
}

#if defined(HAVE_TARGET_AVX2)
GGUF_TARGET_AVX2 static void
sr_floats_avx2(const struct gguf_sr *b, const uint8_t *x, uint64_t n,
    uint32_t *cnt)
{
	sr_floats_body(b, x, n, cnt);
}
#endif

void
gguf_sr_floats(const struct gguf_sr *b, const uint8_t *x, uint64_t n,
    uint32_t *cnt)
{
	GGUF_PICK(sr_floats)(b, x, n, cnt);
}

/*
 * The codes in [qmin, qmax] whose values under scale a (1 / a is inv)
 * may lie in band k: [*qa, *qb], or 0 if none.
 */
static inline int
cands(const struct gguf_sr *b, int k, double inv, int qmin, int qmax,
    int *qa, int *qb)
{
	double	x = b->lo[k] * inv, y = b->hi[k] * inv, t;
	int	a, z;

	if (x > y) {
		t = x;
		x = y;
		y = t;
	}
	if (!(y >= qmin && x <= qmax))
		return 0;
	x = x < qmin ? qmin : x;
	y = y > qmax ? qmax : y;
	a = (int)x;		/* toward zero, then up: the ceiling */
	a += (double)a < x;
	z = (int)y;		/* the floor */
	z -= (double)z > y;
	*qa = a;
	*qb = z;
	return a <= z;
}

/*
 * First, scales by the batch, in float and with no branch (vector code):
 * flags of each, bit k set when band k may hold one of its values, SLOW
 * when its values must be computed one by one. Exact work follows for
 * flagged scales only, nearly none.
 */
#define BATCH		512	/* scales, a multiple of 8 */
#define SLOW		0x80u

_Static_assert(GGUF_SR_BANDS < 7, "a flag per band");

/*
 * Eight lanes in the compiler's vector types: SSE2 pairs on the x86-64
 * baseline, one AVX register in the AVX2 clone, whatever the machine has
 * elsewhere.
 */
typedef float	v8f __attribute__((vector_size(32)));
typedef int32_t	v8i __attribute__((vector_size(32)));
typedef uint8_t	v8b __attribute__((vector_size(8)));

/*
 * Helpers as macros: a function taking or giving such a vector would have
 * a calling convention that depends on the instructions compiled for,
 * which compilers warn of even when it is inlined.
 *
 * SEL: m ? a : b, lane by lane (m all ones or all zeros).
 */
#define SEL(m, a, b)	((v8f)(((v8i)(a) & (m)) | ((v8i)(b) & ~(m))))

/*
 * f |= flag in the lanes where some integer lies in [lo, hi] (v8f
 * variables, changed), lo and hi clamped to [qmin, qmax + 1] and [qmin -
 * 1, qmax] first (a NaN to qmin and qmax), so that they convert: lim
 * holds qmin, qmax + 1, qmin - 1 and qmax in every lane; ia and iz v8i
 * variables.
 */
#define SOME_INT(f, lo, hi, lim, flag, ia, iz) do {			\
	(lo) = SEL((lo) > (lim)[0], (lo), (lim)[0]);			\
	(lo) = SEL((lo) < (lim)[1], (lo), (lim)[1]);			\
	(hi) = SEL((hi) > (lim)[2], (hi), (lim)[2]);			\
	(hi) = SEL((hi) < (lim)[3], (hi), (lim)[3]);			\
	(ia) = __builtin_convertvector((lo), v8i);	/* toward zero */	\
	(iz) = __builtin_convertvector((hi), v8i);			\
	(ia) -= __builtin_convertvector((ia), v8f) < (lo); /* ceiling */\
	(iz) += __builtin_convertvector((iz), v8f) > (hi); /* floor */	\
	(f) |= ((ia) <= (iz)) & (flag);					\
} while (0)

#define ZERO8		((v8f){ 0, 0, 0, 0, 0, 0, 0, 0 })

/* Values q * a[i], q in [qmin, qmax]; m a multiple of 8. */
GGUF_BODY void
flags_scaled_body(const struct gguf_sr *b, const float *a, unsigned m,
    float qmin, float qmax, uint8_t *fl)
{
	v8f		s, as, inv, x, y, lo, hi, lim[4];
	v8i		f, c, ia, iz;
	v8b		fb;
	unsigned	i;
	int		k;

	lim[0] = qmin + ZERO8;
	lim[1] = qmax + 1 + ZERO8;
	lim[2] = qmin - 1 + ZERO8;
	lim[3] = qmax + ZERO8;
	for (i = 0; i < m; i += 8) {
		memcpy(&s, a + i, sizeof s);
		as = (v8f)((v8i)s & 0x7fffffff);
		f = ~((as > 0) & (as <= 0x1.fffffep127f)) & (int32_t)SLOW;
		inv = 1.0f / s;
		for (k = 0; k < GGUF_SR_BANDS; k++) {
			x = b->flo[k] * inv;
			y = b->fhi[k] * inv;
			c = x < y;
			lo = SEL(c, x, y);
			hi = SEL(c, y, x);
			SOME_INT(f, lo, hi, lim, 1 << k, ia, iz);
		}
		fb = __builtin_convertvector(f, v8b);
		memcpy(fl + i, &fb, sizeof fb);
	}
}

/*
 * Values c * a[i] - o[i] (each product exact, the difference rounded), c
 * in [0, cmax]; m a multiple of 8. The bounds, moved by o, are widened by
 * 2^-18 of the magnitudes in play, more than the roundings of the value
 * and of these sums and products.
 */
GGUF_BODY void
flags_offset_body(const struct gguf_sr *b, const float *a, const float *o,
    unsigned m, float cmax, uint8_t *fl)
{
	v8f		s, as, ao, off, inv, ainv, x, y, e, lo, hi, lim[4];
	v8i		f, c, ia, iz;
	v8b		fb;
	unsigned	i;
	int		k;

	lim[0] = ZERO8;
	lim[1] = cmax + 1 + ZERO8;
	lim[2] = -1 + ZERO8;
	lim[3] = cmax + ZERO8;
	for (i = 0; i < m; i += 8) {
		memcpy(&s, a + i, sizeof s);
		memcpy(&off, o + i, sizeof off);
		as = (v8f)((v8i)s & 0x7fffffff);
		ao = (v8f)((v8i)off & 0x7fffffff);
		f = ~((as > 0) & (as <= 0x1.fffffep127f) &
		    (ao <= 0x1.fffffep127f)) & (int32_t)SLOW;
		inv = 1.0f / s;
		ainv = (v8f)((v8i)inv & 0x7fffffff);
		for (k = 0; k < GGUF_SR_BANDS; k++) {
			x = (b->flo[k] + off) * inv;
			y = (b->fhi[k] + off) * inv;
			e = (b->fab[k] + ao) * ainv * 0x1p-18f;
			c = x < y;
			lo = SEL(c, x, y) - e;
			hi = SEL(c, y, x) + e;
			SOME_INT(f, lo, hi, lim, 1 << k, ia, iz);
		}
		fb = __builtin_convertvector(f, v8b);
		memcpy(fl + i, &fb, sizeof fb);
	}
}

static void
flags_scaled(const struct gguf_sr *b, const float *a, unsigned m,
    float qmin, float qmax, uint8_t *fl)
{
	flags_scaled_body(b, a, m, qmin, qmax, fl);
}

static void
flags_offset(const struct gguf_sr *b, const float *a, const float *o,
    unsigned m, float cmax, uint8_t *fl)
{
	flags_offset_body(b, a, o, m, cmax, fl);
}

#if defined(HAVE_TARGET_AVX2)
GGUF_TARGET_AVX2 static void
flags_scaled_avx2(const struct gguf_sr *b, const float *a, unsigned m,
    float qmin, float qmax, uint8_t *fl)
{
	flags_scaled_body(b, a, m, qmin, qmax, fl);
}

GGUF_TARGET_AVX2 static void
flags_offset_avx2(const struct gguf_sr *b, const float *a, const float *o,
    unsigned m, float cmax, uint8_t *fl)
{
	flags_offset_body(b, a, o, m, cmax, fl);
}
#endif

/* Eight flags at fl all zero (nearly always). */
static inline int
none8(const uint8_t *fl)
{
	uint64_t	u;

	memcpy(&u, fl, 8);
	return u == 0;
}

static inline uint32_t
count_q8(const uint8_t *q, int c)
{
	uint32_t	n = 0;
	int		l;

	for (l = 0; l < 32; l++)
		n += (int8_t)q[l] == c;
	return n;
}

static inline uint32_t
count_q4(const uint8_t *q, int c)
{
	uint32_t	n = 0;
	int		l;

	for (l = 0; l < 16; l++)
		n += ((q[l] & 0xf) == c) + ((q[l] >> 4) == c);
	return n;
}

/* Q8_0 (34 bytes a block) or Q4_0 (18): codes q, values (float)q * d. */
static void
block_0(const struct gguf_sr *b, int q8, const uint8_t *q, float d,
    uint32_t fl, uint32_t *cnt)
{
	uint32_t	o, c;
	double		inv;
	int		k, qa, qb, v, l;

	if (fl & SLOW) {
		for (l = 0; l < 32; l++) {
			v = q8 ? (int8_t)q[l] : l < 16 ? (q[l] & 0xf) - 8 :
			    (q[l - 16] >> 4) - 8;
			count(b, f_bits((float)v * d), 1, cnt);
		}
		return;
	}
	inv = 1.0 / d;
	for (k = 0; k < b->n; k++) {
		if (!(fl >> k & 1) ||
		    !cands(b, k, inv, q8 ? -128 : -8, q8 ? 127 : 7, &qa, &qb))
			continue;
		for (v = qa; v <= qb; v++) {
			o = ord(f_bits((float)v * d));
			if (o >> SHIFT != b->key[k])
				continue;
			c = q8 ? count_q8(q, v) : count_q4(q, v + 8);
			cnt[(unsigned)k * SLOTS + (o & (SLOTS - 1))] += c;
		}
	}
}

static void
blocks_0(const struct gguf_sr *b, int q8, const uint8_t *s, uint64_t nb,
    uint32_t *cnt)
{
	float		a[BATCH];
	uint8_t		fl[BATCH];
	uint64_t	i0, bs = q8 ? 34 : 18;
	unsigned	m, i, g;

	for (i0 = 0; i0 < nb; i0 += m) {
		m = nb - i0 < BATCH ? (unsigned)(nb - i0) : BATCH;
		for (i = 0; i < m; i++)
			a[i] = ldh(s + (i0 + i) * bs);
		for (; i % 8 != 0; i++)
			a[i] = 1;
		GGUF_PICK(flags_scaled)(b, a, i, q8 ? -128 : -8, q8 ? 127 : 7,
		    fl);
		for (g = 0; g < m; g += 8) {
			if (none8(fl + g))
				continue;
			for (i = g; i < g + 8 && i < m; i++)
				if (fl[i] != 0)
					block_0(b, q8, s + (i0 + i) * bs + 2,
					    a[i], fl[i], cnt);
		}
	}
}

/*
 * The k-quants: blocks of `per` groups (sub-blocks) of codes, each group's
 * values a * c, or a * c - m, under scales of its own. A batch of blocks'
 * scales is read (scales: a block's `per` of them, and offsets), flagged,
 * and each flagged group looked at again (group: the group j of the
 * block at s). Inlined into a function of each type, with the type's
 * constant kq, so that its calls are direct (and inlined in turn).
 */
struct kq {
	unsigned	bytes;		/* a block's */
	unsigned	per;		/* groups a block: 8 or 16 */
	int		offset;		/* values a * c - m; else a * c */
	float		qmin, qmax;	/* the codes (from 0 with an offset) */
	void		(*scales)(const uint8_t *, float *, float *);
	void		(*group)(const struct gguf_sr *, const uint8_t *,
			    unsigned, float, float, uint32_t, uint32_t *);
};

static inline __attribute__((always_inline)) void
blocks_k(const struct gguf_sr *b, const struct kq *kq, const uint8_t *s,
    uint64_t nb, uint32_t *cnt)
{
	float		a[BATCH], mm[BATCH];
	uint8_t		fl[BATCH];
	uint64_t	i0, i;
	unsigned	m, j, g, per = kq->per;

	for (i0 = 0; i0 < nb; i0 += m) {
		m = nb - i0 < BATCH / per ? (unsigned)(nb - i0) : BATCH / per;
		for (i = 0; i < m; i++)
			kq->scales(s + (i0 + i) * kq->bytes, a + per * i,
			    mm + per * i);
		if (kq->offset)
			GGUF_PICK(flags_offset)(b, a, mm, per * m, kq->qmax,
			    fl);
		else
			GGUF_PICK(flags_scaled)(b, a, per * m, kq->qmin,
			    kq->qmax, fl);
		for (g = 0; g < per * m; g += 8) {
			if (none8(fl + g))
				continue;
			for (j = g; j < g + 8; j++)
				if (fl[j] != 0)
					kq->group(b, s + (i0 + j / per) *
					    kq->bytes, j % per, a[j],
					    kq->offset ? mm[j] : 0, fl[j], cnt);
		}
	}
}

/*
 * Q6_K (210 bytes a block): 16 groups of 16 codes of 6 bits less 32, the
 * values of group j (a * q) under a = d * sc[j]. Group j = 8 n + 2 p + h
 * holds elements 128 n + 32 p + 16 h .. + 15.
 */
static inline int
q6_code(const uint8_t *s, int n, int h, int p, int l)
{
	const uint8_t	*ql = s + 64 * n, *qh = s + 128 + 32 * n;
	int		 j = 16 * h + l;

	return ((ql[j + 32 * (p & 1)] >> (4 * (p >> 1)) & 0xf) |
	    (qh[j] >> (2 * p) & 3) << 4) - 32;
}

static void
group_q6_k(const struct gguf_sr *b, const uint8_t *s, unsigned j, float a,
    float m, uint32_t fl, uint32_t *cnt)
{
	uint32_t	o, c;
	double		inv;
	int		n = (int)j >> 3, h = (int)j & 1, p = (int)j >> 1 & 3;
	int		k, l, qa, qb, v;

	(void)m;
	if (fl & SLOW) {
		for (l = 0; l < 16; l++)
			count(b, f_bits(a * (float)q6_code(s, n, h, p, l)), 1,
			    cnt);
		return;
	}
	inv = 1.0 / a;
	for (k = 0; k < b->n; k++) {
		if (!(fl >> k & 1) || !cands(b, k, inv, -32, 31, &qa, &qb))
			continue;
		for (v = qa; v <= qb; v++) {
			o = ord(f_bits(a * (float)v));
			if (o >> SHIFT != b->key[k])
				continue;
			for (c = 0, l = 0; l < 16; l++)
				c += q6_code(s, n, h, p, l) == v;
			cnt[(unsigned)k * SLOTS + (o & (SLOTS - 1))] += c;
		}
	}
}

static inline void
scales_q6_k(const uint8_t *restrict s, float *restrict a,
    float *restrict mm)
{
	const int8_t	*sc = (const int8_t *)(s + 192);
	float		 d = ldh(s + 208);
	unsigned	 j;

	(void)mm;
	for (j = 0; j < 16; j++)
		a[j] = d * (float)sc[j];
}

static const struct kq	kq_q6_k = { 210, 16, 0, -32, 31, scales_q6_k,
			    group_q6_k };

static void
blocks_q6_k(const struct gguf_sr *b, const uint8_t *s, uint64_t nb,
    uint32_t *cnt)
{
	blocks_k(b, &kq_q6_k, s, nb, cnt);
}

/*
 * Q4_K (144 bytes a block): 8 sub-blocks of 32 codes of 4 bits, the value
 * of code c a * c - b in float (stats_codes.c's k4_value). A flagged
 * sub-block's 16 values are computed and tested, and the codes of those
 * that hit are counted.
 */
static void
sub_q4_k(const struct gguf_sr *b, const uint8_t *s, unsigned j, float a,
    float m, uint32_t fl, uint32_t *cnt)
{
	const uint8_t	*q = s + 16 + 32 * (j / 2);
	uint32_t	 o, n;
	int		 c, l, sh = j % 2 ? 4 : 0;

	(void)fl;
	for (c = 0; c < 16; c++) {
		o = ord(f_bits(a * (float)c - m));
		if (!in_bands(b, o))
			continue;
		for (n = 0, l = 0; l < 32; l++)
			n += (q[l] >> sh & 0xf) == c;
		if (n > 0)
			count_o(b, o, n, cnt);
	}
}

/* gguf_k4_scale_min, all eight at once */
static inline void
scales_q4_k(const uint8_t *restrict s, float *restrict a,
    float *restrict mm)
{
	const uint8_t	*q = s + 4;
	float		 d = ldh(s), dmin = ldh(s + 2);
	unsigned	 j;

	for (j = 0; j < 4; j++) {
		a[j] = d * (float)(q[j] & 63);
		mm[j] = dmin * (float)(q[j + 4] & 63);
		a[j + 4] = d * (float)((q[j + 8] & 0xf) | (q[j] >> 6) << 4);
		mm[j + 4] = dmin * (float)((q[j + 8] >> 4) | (q[j + 4] >> 6)
		    << 4);
	}
}

static const struct kq	kq_q4_k = { 144, 8, 1, 0, 15, scales_q4_k,
			    sub_q4_k };

static void
blocks_q4_k(const struct gguf_sr *b, const uint8_t *s, uint64_t nb,
    uint32_t *cnt)
{
	blocks_k(b, &kq_q4_k, s, nb, cnt);
}

/*
 * Q5_K (176 bytes a block): Q4_K's scales, then 32 bytes of fifth bits
 * (bit t of byte l for element l of sub-block t), then the nibbles; the
 * value of code c a * c - b as for Q4_K, c up to 31.
 */
static void
sub_q5_k(const struct gguf_sr *b, const uint8_t *s, unsigned t, float a,
    float m, uint32_t fl, uint32_t *cnt)
{
	const uint8_t	*qh = s + 16, *q = s + 48 + 32 * (t / 2);
	uint32_t	 o, n;
	int		 c, l, sh = t & 1 ? 4 : 0;

	(void)fl;
	for (c = 0; c < 32; c++) {
		o = ord(f_bits(a * (float)c - m));
		if (!in_bands(b, o))
			continue;
		for (n = 0, l = 0; l < 32; l++)
			n += ((q[l] >> sh & 0xf) | (qh[l] >> t & 1) << 4) == c;
		if (n > 0)
			count_o(b, o, n, cnt);
	}
}

static inline void
scales_q5_k(const uint8_t *restrict s, float *restrict a,
    float *restrict mm)
{
	float		d = ldh(s), dmin = ldh(s + 2);
	uint8_t		sc, mn;
	unsigned	j;

	for (j = 0; j < 8; j++) {
		gguf_k4_scale_min(s + 4, (int)j, &sc, &mn);
		a[j] = d * (float)sc;
		mm[j] = dmin * (float)mn;
	}
}

static const struct kq	kq_q5_k = { 176, 8, 1, 0, 31, scales_q5_k,
			    sub_q5_k };

static void
blocks_q5_k(const struct gguf_sr *b, const uint8_t *s, uint64_t nb,
    uint32_t *cnt)
{
	blocks_k(b, &kq_q5_k, s, nb, cnt);
}

/*
 * Q4_1 (20 bytes a block), Q5_0 (22) and Q5_1 (24): a half d, for Q4_1
 * and Q5_1 a half m, for Q5_0 and Q5_1 32 fifth bits (bit l for element
 * l), then 16 bytes of nibbles (element l the low one of byte l, element
 * l + 16 its high one). Values (float)(c - 16) * d for Q5_0, (float)c * d
 * + m for the others (dequant_legacy.c): Q5_0's scaled, the others' c *
 * d - (-m), the same bits.
 */
static inline int
code_legacy(uint32_t t, const uint8_t *s, int l)
{
	const uint8_t	*q = s + (t == GGUF_T_Q4_1 ? 4 : t == GGUF_T_Q5_0 ?
			    6 : 8);
	int		 c = l < 16 ? q[l] & 0xf : q[l - 16] >> 4;

	if (t == GGUF_T_Q4_1)
		return c;
	return c | (s[(t == GGUF_T_Q5_0 ? 2 : 4) + l / 8] >> (l % 8) & 1) << 4;
}

/* A flagged block: the value of every code tested, the hits counted. */
static void
block_legacy(const struct gguf_sr *b, uint32_t t, const uint8_t *s,
    uint32_t *cnt)
{
	float		d = ldh(s), m = t == GGUF_T_Q5_0 ? 0 : ldh(s + 2), v;
	uint32_t	o, n;
	int		c, l, cmax = t == GGUF_T_Q4_1 ? 15 : 31;

	for (c = 0; c <= cmax; c++) {
		v = t == GGUF_T_Q5_0 ? (float)(c - 16) * d : (float)c * d + m;
		o = ord(f_bits(v));
		if (!in_bands(b, o))
			continue;
		for (n = 0, l = 0; l < 32; l++)
			n += code_legacy(t, s, l) == c;
		if (n > 0)
			count_o(b, o, n, cnt);
	}
}

static void
blocks_legacy(const struct gguf_sr *b, uint32_t t, const uint8_t *s,
    uint64_t nb, uint32_t *cnt)
{
	float		a[BATCH], mm[BATCH];
	uint8_t		fl[BATCH];
	uint64_t	i0, bs = gguf_ttype(t)->bytes;
	unsigned	m, i, g;

	for (i0 = 0; i0 < nb; i0 += m) {
		m = nb - i0 < BATCH ? (unsigned)(nb - i0) : BATCH;
		for (i = 0; i < m; i++) {
			a[i] = ldh(s + (i0 + i) * bs);
			mm[i] = t == GGUF_T_Q5_0 ? 0 :
			    -ldh(s + (i0 + i) * bs + 2);
		}
		for (; i % 8 != 0; i++)
			a[i] = mm[i] = 1;
		if (t == GGUF_T_Q5_0)
			GGUF_PICK(flags_scaled)(b, a, i, -16, 15, fl);
		else
			GGUF_PICK(flags_offset)(b, a, mm, i,
			    t == GGUF_T_Q4_1 ? 15 : 31, fl);
		for (g = 0; g < m; g += 8) {
			if (none8(fl + g))
				continue;
			for (i = g; i < g + 8 && i < m; i++)
				if (fl[i] != 0)
					block_legacy(b, t, s + (i0 + i) * bs,
					    cnt);
		}
	}
}

/*
 * Q2_K (84 bytes a block): 16 scale bytes, 64 bytes of 2-bit codes, half
 * d, half dmin; group g (16 elements) under a = d * (sc & 15) and offset
 * dmin * (sc >> 4), its values a * c - offset (dequant_kquants.c); code l
 * of group g = 8 n + 2 j + h is bits 2 j of byte 32 n + 16 h + l.
 */
static void
group_q2_k(const struct gguf_sr *b, const uint8_t *s, unsigned g, float a,
    float m, uint32_t fl, uint32_t *cnt)
{
	const uint8_t	*q = s + 16 + 32 * (g / 8) + 16 * (g % 2);
	uint32_t	 o, n;
	int		 c, l, sh = 2 * (int)(g % 8 / 2);

	(void)fl;
	for (c = 0; c < 4; c++) {
		o = ord(f_bits(a * (float)c - m));
		if (!in_bands(b, o))
			continue;
		for (n = 0, l = 0; l < 16; l++)
			n += (q[l] >> sh & 3) == c;
		if (n > 0)
			count_o(b, o, n, cnt);
	}
}

static inline void
scales_q2_k(const uint8_t *restrict s, float *restrict a,
    float *restrict mm)
{
	float		d = ldh(s + 80), dmin = ldh(s + 82);
	unsigned	j;

	for (j = 0; j < 16; j++) {
		a[j] = d * (float)(s[j] & 0xf);
		mm[j] = dmin * (float)(s[j] >> 4);
	}
}

static const struct kq	kq_q2_k = { 84, 16, 1, 0, 3, scales_q2_k,
			    group_q2_k };

static void
blocks_q2_k(const struct gguf_sr *b, const uint8_t *s, uint64_t nb,
    uint32_t *cnt)
{
	blocks_k(b, &kq_q2_k, s, nb, cnt);
}

int
gguf_sr_has_codes(uint32_t t)
{
	switch (t) {
	case GGUF_T_Q8_0:
	case GGUF_T_Q4_0:
	case GGUF_T_Q6_K:
	case GGUF_T_Q4_K:
	case GGUF_T_Q5_K:
	case GGUF_T_Q4_1:
	case GGUF_T_Q5_0:
	case GGUF_T_Q5_1:
	case GGUF_T_Q2_K:
		return 1;
	default:
		return 0;
	}
}

int
gguf_sr_codes(const struct gguf_sr *b, uint32_t t, const uint8_t *s,
    uint64_t nb, uint32_t *cnt)
{
	switch (t) {
	case GGUF_T_Q8_0:
		blocks_0(b, 1, s, nb, cnt);
		return 0;
	case GGUF_T_Q4_0:
		blocks_0(b, 0, s, nb, cnt);
		return 0;
	case GGUF_T_Q6_K:
		blocks_q6_k(b, s, nb, cnt);
		return 0;
	case GGUF_T_Q4_K:
		blocks_q4_k(b, s, nb, cnt);
		return 0;
	case GGUF_T_Q5_K:
		blocks_q5_k(b, s, nb, cnt);
		return 0;
	case GGUF_T_Q4_1:
	case GGUF_T_Q5_0:
	case GGUF_T_Q5_1:
		blocks_legacy(b, t, s, nb, cnt);
		return 0;
	case GGUF_T_Q2_K:
		blocks_q2_k(b, s, nb, cnt);
		return 0;
	default:
		return -1;
	}
}
