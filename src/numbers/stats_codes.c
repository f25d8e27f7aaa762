/*
 * stats_codes.c - statistics of quantized blocks read from their codes,
 * without decoding them into a buffer first (stats_vec.h).
 *
 * A Q8_0 block is 32 int8 codes q under one half-precision scale d, and
 * its values are q * d in float; a Q4_0 block the same with codes of 4
 * bits less 8. The scale is a multiple of 2^-24 with
 * 11 significant bits and a code has at most 8, so every product is
 * exact, and so are the block's sums: S1 = sum q and S2 = sum q^2 are
 * integers. The values' sum is the sum of d * S1 over the blocks; when no
 * partial sum can exceed 2^29 (2^53 multiples of 2^-24) every way of
 * adding them is exact, and the sum has the same bits as the decoded
 * values' added one by one. The squared deviations of a block from its
 * own mean, d^2 (32 S2 - S1^2) / 32, are exact too; the chunk's follow
 * from them and each block's mean (the sum of squares of a union), with
 * one rounding per block instead of one per value.
 *
 * The sketch counts the values' keys, each value computed as the decoder
 * computes it (dequant_legacy.c), so its counts are those of the decoded
 * values. Neither sums nor counts depend on the order of the codes.
 */
#include "config.h"

#include <math.h>
#include <stdint.h>

#include "dequant_int.h"
#include "stats_vec.h"

#define QK	32		/* elements of a block */
#define BOUND	536870912.0	/* 2^29: see above */

/* Bytes of a block of type t, Q8_0 or Q4_0: the scale, then the codes. */
static inline uint64_t
bytes(uint32_t t)
{
	return t == GGUF_T_Q8_0 ? 34 : 18;
}

/* The codes of a block, as the decoder takes them, in any order. */
static inline void
codes(uint32_t t, const uint8_t *s, int8_t q[QK])
{
	int	j;

	if (t == GGUF_T_Q8_0) {
		memcpy(q, s + 2, QK);
		return;
	}
	for (j = 0; j < QK / 2; j++) {
		q[j] = (int8_t)((s[2 + j] & 0xf) - 8);
		q[j + QK / 2] = (int8_t)((s[2 + j] >> 4) - 8);
	}
}

static inline uint32_t
key(float v)
{
	uint32_t	u = f_bits(v);

	return (u ^ ((0u - (u >> 31)) | 0x80000000u)) >> GGUF_SV_KEYSHIFT;
}

static inline void
pass(uint32_t t, const uint8_t *s, uint64_t nb, uint32_t *sk,
    struct gguf_sc_blocks *b)
{
	int8_t		 q[QK];
	uint32_t	 k[QK];
	uint64_t	 i, zeros = 0;
	int32_t		 s1, s2, z;
	float		 d, v, mn = INFINITY, mx = -INFINITY;
	int		 j;

	for (i = 0; i < nb; i++, s += bytes(t)) {
		codes(t, s, q);
		d = b->d[i];
		s1 = s2 = z = 0;
		for (j = 0; j < QK; j++) {
			s1 += q[j];
			s2 += q[j] * q[j];
			z += q[j] == 0;
			v = (float)q[j] * d;
			mn = v < mn ? v : mn;
			mx = v > mx ? v : mx;
			k[j] = key(v);
		}
		b->s1[i] = s1;
		b->t[i] = QK * s2 - s1 * s1;
		zeros += (f_bits(d) & 0x7fffffffu) == 0 ? QK : (uint64_t)z;
		for (j = 0; sk != NULL && j < QK; j++)
			sk[k[j]]++;
	}
	b->min = mn;
	b->max = mx;
	b->nzero = zeros;
}

/* The portable passes; stats_x86.c has the same in AVX2 instructions. */
void
gguf_sc_q8_0_pass(const uint8_t *s, uint64_t nb, uint32_t *sk,
    struct gguf_sc_blocks *b)
{
	pass(GGUF_T_Q8_0, s, nb, sk, b);
}

void
gguf_sc_q4_0_pass(const uint8_t *s, uint64_t nb, uint32_t *sk,
    struct gguf_sc_blocks *b)
{
	pass(GGUF_T_Q4_0, s, nb, sk, b);
}

/* Takes back the counts a pass added to sk. */
static void
uncount(uint32_t t, const uint8_t *s, uint64_t nb, uint32_t *sk)
{
	int8_t		q[QK];
	uint64_t	i;
	float		d;
	int		j;

	for (i = 0; i < nb; i++, s += bytes(t)) {
		d = ldh(s);
		codes(t, s, q);
		for (j = 0; j < QK; j++)
			sk[key((float)q[j] * d)]--;
	}
}

int
gguf_sc_sum(uint32_t t, gguf_sc_pass_fn *fn, const uint8_t *s,
    uint64_t nb, uint32_t *sk, struct gguf_sc *sc)
{
	struct gguf_sc_blocks	b;
	double			sum[4] = { 0, 0, 0, 0 }, m2[2] = { 0, 0 };
	double			mean, dev, d;
	float			mz = INFINITY, top = 0, a;
	uint32_t		bad = 0;
	uint64_t		i;

	if (nb == 0 || nb > GGUF_SC_MAXB ||
	    (t != GGUF_T_Q8_0 && t != GGUF_T_Q4_0))
		return -1;
	for (i = 0; i < nb; i++) {
		b.d[i] = ldh(s + i * bytes(t));
		bad |= (f_bits(b.d[i]) & 0x7f800000u) == 0x7f800000u;
		a = fabsf(b.d[i]);
		top = a > top ? a : top;
		/* no nonzero value of the block is nearer zero than d */
		mz = f_bits(a) != 0 && a < mz ? a : mz;
	}
	/* every partial sum is at most the sum of |q| |d| */
	if (bad || (double)top * (QK * 128) * (double)nb >= BOUND)
		return -1;
	fn(s, nb, sk, &b);
	/* a zero extreme has the sign the order of comparisons gives it */
	if (!(b.min < 0 && b.max > 0)) {
		if (sk != NULL)
			uncount(t, s, nb, sk);
		return -1;
	}
	/* exact, so in any order */
	for (i = 0; i < nb; i++)
		sum[i & 3] += (double)b.d[i] * b.s1[i];
	sc->sum = (sum[0] + sum[1]) + (sum[2] + sum[3]);
	mean = sc->sum / (double)(nb * QK);
	for (i = 0; i < nb; i++) {
		d = b.d[i];
		dev = d * b.s1[i] / QK - mean;
		m2[i & 1] += d * d * (double)b.t[i] / QK + QK * (dev * dev);
	}
	sc->m2 = m2[0] + m2[1];
	sc->min = b.min;
	sc->max = b.max;
	sc->minnz = mz;
	sc->nzero = b.nzero;
	return 0;
}

/* ------------------------------------------------------------ Q4_K */

/* The value of code c in a sub-block, as the decoder computes it. */
static inline float
k4_value(float a, float b, int c)
{
	float	t = a * (float)c;

	return t - b;
}

void
gguf_sc_k4_count(const uint8_t *s, uint64_t nb, struct gguf_sc_k4 *k)
{
	const uint8_t	*q;
	uint64_t	 i, sb = 0, zeros = 0;
	float		 d, dmin, v, a, mn = INFINITY, mx = -INFINITY;
	float		 mz = INFINITY;
	uint8_t		 sc, m;
	int		 j, l, c, sh;

	memset(k->sum, 0, sizeof k->sum);
	for (i = 0; i < nb; i++, s += 144) {
		d = ldh(s);
		dmin = ldh(s + 2);
		for (j = 0; j < 8; j++, sb++) {
			gguf_k4_scale_min(s + 4, j, &sc, &m);
			k->a[sb] = d * (float)sc;
			k->b[sb] = dmin * (float)m;
			memset(k->n[sb], 0, 16);
			q = s + 16 + 32 * (j / 2);
			sh = j & 1 ? 4 : 0;
			for (l = 0; l < 32; l++)
				k->n[sb][q[l] >> sh & 0xf]++;
			for (c = 0; c < 16; c++) {
				v = k4_value(k->a[sb], k->b[sb], c);
				k->sum[c] += (double)k->n[sb][c] * (double)v;
				if (k->n[sb][c] == 0)
					continue;
				mn = v < mn ? v : mn;
				mx = v > mx ? v : mx;
				a = fabsf(v);
				if (f_bits(a) == 0)
					zeros += k->n[sb][c];
				else
					mz = a < mz ? a : mz;
			}
		}
	}
	k->min = mn;
	k->max = mx;
	k->minnz = mz;
	k->nzero = zeros;
}

void
gguf_sc_k4_spread(const struct gguf_sc_k4 *k, uint64_t nsb, double mean,
    double m2[16], uint32_t *sk)
{
	uint64_t	sb;
	double		dv;
	float		v;
	int		c;

	for (c = 0; c < 16; c++)
		m2[c] = 0;
	for (sb = 0; sb < nsb; sb++) {
		for (c = 0; c < 16; c++) {
			v = k4_value(k->a[sb], k->b[sb], c);
			dv = (double)v - mean;
			m2[c] += (double)k->n[sb][c] * (dv * dv);
			if (sk != NULL)
				sk[key(v)] += k->n[sb][c];
		}
	}
}

/* Sixteen lanes added in a fixed order. */
static double
sum16(const double *s)
{
	return (((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) +
	    (s[6] + s[7]))) + (((s[8] + s[9]) + (s[10] + s[11])) +
	    ((s[12] + s[13]) + (s[14] + s[15])));
}

int
gguf_sc_k4_sum(gguf_sc_k4_count_fn *count, gguf_sc_k4_spread_fn *spread,
    const uint8_t *s, uint64_t nb, uint32_t *sk, struct gguf_sc *sc,
    struct gguf_sc_k4 *kp)
{
	struct gguf_sc_k4	*k = kp;
	double			 m2[16];
	uint64_t				i;
	uint16_t				h;

	if (nb == 0 || nb > GGUF_SC_MAXSB / 8)
		return -1;
	for (i = 0; i < nb; i++) {
		memcpy(&h, s + i * 144, 2);
		if ((h & 0x7c00) == 0x7c00)
			return -1;
		memcpy(&h, s + i * 144 + 2, 2);
		if ((h & 0x7c00) == 0x7c00)
			return -1;
	}
	count(s, nb, k);
	/* a zero extreme has the sign the order of comparisons gives it */
	if ((f_bits(k->min) & 0x7fffffffu) == 0 ||
	    (f_bits(k->max) & 0x7fffffffu) == 0)
		return -1;
	sc->sum = sum16(k->sum);
	spread(k, nb * 8, sc->sum / (double)(nb * 256), m2, sk);
	sc->m2 = sum16(m2);
	sc->min = k->min;
	sc->max = k->max;
	sc->minnz = k->minnz;
	sc->nzero = k->nzero;
	return 0;
}
