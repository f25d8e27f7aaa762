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
 * values is usually none. Those quotients are taken a little wide (the
 * band's bounds moved out by 2^-20 of their magnitude and by 2^-140), so
 * that rounding cannot lose a code; each candidate's value is then
 * computed as the decoder computes it and tested by its bits, and only
 * then are the block's codes equal to it counted. A block whose scale is
 * zero or not finite is computed value by value. A Q4_K sub-block has at
 * most 16 values, a * c - b: those are computed and tested, and the
 * codes of the ones that hit are counted. Counts are integers: the same
 * whatever the order.
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "dequant_int.h"
#include "stats_vec.h"

#if defined(HAVE_TARGET_CLONES) && !defined(__clang__)
#define SR_CLONES	__attribute__((target_clones("avx2", "default")))
#else
#define SR_CLONES
#endif

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

SR_CLONES void
gguf_sr_floats(const struct gguf_sr *b, const uint8_t *x, uint64_t n,
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

/* A scale the codes' bounds can be divided by. */
static inline int
scale_ok(float a)
{
	return fabsf(a) > 0 && fabsf(a) <= 0x1.fffffep127f;
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
blocks_0(const struct gguf_sr *b, int q8, const uint8_t *s, uint64_t nb,
    uint32_t *cnt)
{
	const uint8_t	*q;
	uint64_t	 i;
	uint32_t	 o, c;
	double		 inv;
	float		 d;
	int		 k, qa, qb, v, l, qmin = q8 ? -128 : -8;
	int		 qmax = q8 ? 127 : 7;

	for (i = 0; i < nb; i++, s += q8 ? 34 : 18) {
		d = ldh(s);
		q = s + 2;
		if (!scale_ok(d)) {
			for (l = 0; l < 32; l++) {
				v = q8 ? (int8_t)q[l] : l < 16 ?
				    (q[l] & 0xf) - 8 : (q[l - 16] >> 4) - 8;
				count(b, f_bits((float)v * d), 1, cnt);
			}
			continue;
		}
		inv = 1.0 / d;
		for (k = 0; k < b->n; k++) {
			if (!cands(b, k, inv, qmin, qmax, &qa, &qb))
				continue;
			for (v = qa; v <= qb; v++) {
				o = ord(f_bits((float)v * d));
				if (o >> SHIFT != b->key[k])
					continue;
				c = q8 ? count_q8(q, v) : count_q4(q, v + 8);
				cnt[(unsigned)k * SLOTS + (o & (SLOTS - 1))] +=
				    c;
			}
		}
	}
}

/*
 * Q6_K (210 bytes a block): 16 groups of 16 codes of 6 bits less 32, the
 * values of group g (a * q) under a = d * sc[g]. Group (n, h, p) holds
 * elements 128 n + 32 p + 16 h .. + 15, scale sc[8 n + h + 2 p].
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
blocks_q6_k(const struct gguf_sr *b, const uint8_t *s, uint64_t nb,
    uint32_t *cnt)
{
	const int8_t	*sc;
	uint64_t	 i;
	uint32_t	 o, c;
	double		 inv;
	float		 d, a;
	int		 n, h, p, k, l, qa, qb, v;

	for (i = 0; i < nb; i++, s += 210) {
		d = ldh(s + 208);
		sc = (const int8_t *)(s + 192);
		for (n = 0; n < 2; n++)
		for (h = 0; h < 2; h++)
		for (p = 0; p < 4; p++) {
			a = d * (float)sc[8 * n + h + 2 * p];
			if (!scale_ok(a)) {
				for (l = 0; l < 16; l++)
					count(b, f_bits(a * (float)q6_code(s,
					    n, h, p, l)), 1, cnt);
				continue;
			}
			inv = 1.0 / a;
			for (k = 0; k < b->n; k++) {
				if (!cands(b, k, inv, -32, 31, &qa, &qb))
					continue;
				for (v = qa; v <= qb; v++) {
					o = ord(f_bits(a * (float)v));
					if (o >> SHIFT != b->key[k])
						continue;
					for (c = 0, l = 0; l < 16; l++)
						c += q6_code(s, n, h, p, l) == v;
					cnt[(unsigned)k * SLOTS +
					    (o & (SLOTS - 1))] += c;
				}
			}
		}
	}
}

/*
 * Q4_K (144 bytes a block): 8 sub-blocks of 32 codes of 4 bits, the value
 * of code c a * c - b in float (stats_codes.c's k4_value).
 */
static void
blocks_q4_k(const struct gguf_sr *b, const uint8_t *s, uint64_t nb,
    uint32_t *cnt)
{
	const uint8_t	*q;
	uint32_t	 k0 = b->key[0], k1 = b->key[1], k2 = b->key[2];
	uint32_t	 k3 = b->key[3], k4 = b->key[4], f, hit, any, o[16];
	uint32_t	 hits[16], n;
	uint64_t	 i;
	float		 d, dmin, a, m, t;
	uint8_t		 sc, mn;
	int		 j, c, l, sh;

	for (i = 0; i < nb; i++, s += 144) {
		d = ldh(s);
		dmin = ldh(s + 2);
		for (j = 0; j < 8; j++) {
			gguf_k4_scale_min(s + 4, j, &sc, &mn);
			a = d * (float)sc;
			m = dmin * (float)mn;
			any = 0;
			for (c = 0; c < 16; c++) {
				t = a * (float)c;
				o[c] = ord(f_bits(t - m));
				f = o[c] >> SHIFT;
				hit = (uint32_t)(f == k0) | (uint32_t)(f == k1) |
				    (uint32_t)(f == k2) | (uint32_t)(f == k3) |
				    (uint32_t)(f == k4);
				hits[c] = hit;
				any |= hit;
			}
			if (__builtin_expect(any == 0, 1))
				continue;
			q = s + 16 + 32 * (j / 2);
			sh = j & 1 ? 4 : 0;
			for (c = 0; c < 16; c++) {
				if (!hits[c])
					continue;
				for (n = 0, l = 0; l < 32; l++)
					n += (q[l] >> sh & 0xf) == c;
				if (n > 0)
					count_o(b, o[c], n, cnt);
			}
		}
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
	default:
		return -1;
	}
}
