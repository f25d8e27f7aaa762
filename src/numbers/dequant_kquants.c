/*
 * dequant_kquants.c - the decoders of the K-quants (Q2_K ... Q8_K) and the
 * ternary types (TQ1_0, TQ2_0), blocks of 256 elements, and the views of
 * their blocks' fields.
 */
#include "config.h"

#include "dequant_int.h"

/* ------------------------------------------------------------- K-quants */

/*
 * The 16 signed 6-bit scales of Q3_K from its 12 bytes: low nibbles in
 * bytes 0..7 (scales 0..7 low, 8..15 high nibble), top 2 bits in 8..11.
 */
static inline void
k3_scales(const uint8_t *p, int *sc)
{
	int	i, lo;

	for (i = 0; i < 16; i++) {
		lo = i < 8 ? p[i] & 0xf : p[i - 8] >> 4;
		sc[i] = (lo | ((p[8 + i % 4] >> (2 * (i / 4))) & 3) << 4) - 32;
	}
}

/* Q2_K: 16 scale/min bytes, 64 bytes of 2-bit quants, half d, half dmin. */
DQ_DECODER(gguf_dq_q2_K, s, y, nb)
{
	const uint8_t	*q;
	uint64_t	 i;
	float		 d, dmin, dl, ml;
	int		 n, j, l, is, shift;

	for (i = 0; i < nb; i++, s += 84) {
		d = ldh(s + 80);
		dmin = ldh(s + 82);
		q = s + 16;
		is = 0;
		for (n = 0; n < 2; n++, q += 32) {
			for (j = 0, shift = 0; j < 4; j++, shift += 2) {
				dl = d * (float)(s[is] & 0xf);
				ml = dmin * (float)(s[is] >> 4);
				is++;
				for (l = 0; l < 16; l++)
					y[l] = dl * (float)(q[l] >> shift & 3) -
					    ml;
				y += 16;
				dl = d * (float)(s[is] & 0xf);
				ml = dmin * (float)(s[is] >> 4);
				is++;
				for (l = 0; l < 16; l++)
					y[l] = dl * (float)(q[l + 16] >> shift &
					    3) - ml;
				y += 16;
			}
		}
	}
}

/* Q3_K: 32 bytes of high bits, 64 of 2-bit quants, 12 of scales, half d. */
DQ_DECODER(gguf_dq_q3_K, s, y, nb)
{
	const uint8_t	*hm, *q;
	uint64_t	 i;
	float		 d, dl;
	int		 sc[16], n, j, l, is, shift;
	unsigned	 m;

	for (i = 0; i < nb; i++, s += 110) {
		d = ldh(s + 108);
		k3_scales(s + 96, sc);
		hm = s;
		q = s + 32;
		is = 0;
		m = 1;
		for (n = 0; n < 2; n++, q += 32) {
			for (j = 0, shift = 0; j < 4; j++, shift += 2, m <<= 1) {
				dl = d * (float)sc[is++];
				for (l = 0; l < 16; l++)
					y[l] = dl * (float)((q[l] >> shift & 3) -
					    ((hm[l] & m) ? 0 : 4));
				y += 16;
				dl = d * (float)sc[is++];
				for (l = 0; l < 16; l++)
					y[l] = dl * (float)((q[l + 16] >> shift &
					    3) - ((hm[l + 16] & m) ? 0 : 4));
				y += 16;
			}
		}
	}
}

/* Q4_K: half d, half dmin, 12 bytes of scales, 128 bytes of nibbles. */
DQ_DECODER(gguf_dq_q4_K, s, y, nb)
{
	const uint8_t	*q;
	uint64_t	 i;
	float		 d, dmin, d1, m1, d2, m2;
	uint8_t		 sc, m;
	int		 j, l;

	for (i = 0; i < nb; i++, s += 144) {
		d = ldh(s);
		dmin = ldh(s + 2);
		q = s + 16;
		for (j = 0; j < 8; j += 2, q += 32) {
			gguf_k4_scale_min(s + 4, j, &sc, &m);
			d1 = d * (float)sc;
			m1 = dmin * (float)m;
			gguf_k4_scale_min(s + 4, j + 1, &sc, &m);
			d2 = d * (float)sc;
			m2 = dmin * (float)m;
			for (l = 0; l < 32; l++)
				y[l] = d1 * (float)(q[l] & 0xf) - m1;
			for (l = 0; l < 32; l++)
				y[l + 32] = d2 * (float)(q[l] >> 4) - m2;
			y += 64;
		}
	}
}

/* Q5_K: as Q4_K plus 32 bytes of fifth bits before the nibbles. */
DQ_DECODER(gguf_dq_q5_K, s, y, nb)
{
	const uint8_t	*qh, *q;
	uint64_t	 i;
	float		 d, dmin, d1, m1, d2, m2;
	uint8_t		 sc, m, u1, u2;
	int		 j, l;

	for (i = 0; i < nb; i++, s += 176) {
		d = ldh(s);
		dmin = ldh(s + 2);
		qh = s + 16;
		q = s + 48;
		for (j = 0; j < 8; j += 2, q += 32) {
			gguf_k4_scale_min(s + 4, j, &sc, &m);
			d1 = d * (float)sc;
			m1 = dmin * (float)m;
			gguf_k4_scale_min(s + 4, j + 1, &sc, &m);
			d2 = d * (float)sc;
			m2 = dmin * (float)m;
			/* bit j of qh[l] is the fifth bit of element l of
			 * sub-block j (kept in bytes: faster vector code) */
			u1 = (uint8_t)(1u << j);
			u2 = (uint8_t)(2u << j);
			for (l = 0; l < 32; l++)
				y[l] = d1 * (float)(uint8_t)((q[l] & 0xf) +
				    ((qh[l] & u1) ? 16 : 0)) - m1;
			for (l = 0; l < 32; l++)
				y[l + 32] = d2 * (float)(uint8_t)((q[l] >> 4) +
				    ((qh[l] & u2) ? 16 : 0)) - m2;
			y += 64;
		}
	}
}

/* Q6_K: 128 bytes of low nibbles, 64 of high 2 bits, 16 int8 scales, d. */
DQ_DECODER(gguf_dq_q6_K, s, y, nb)
{
	const uint8_t	*ql, *qh;
	const int8_t	*sc;
	uint64_t	 i;
	float		 d, s0, s1, s2, s3;
	int		 n, l, h, q1, q2, q3, q4;

	for (i = 0; i < nb; i++, s += 210) {
		d = ldh(s + 208);
		ql = s;
		qh = s + 128;
		sc = (const int8_t *)(s + 192);
		for (n = 0; n < 2; n++, ql += 64, qh += 32, sc += 8, y += 128) {
			for (h = 0; h < 2; h++) {
				s0 = d * (float)sc[h];
				s1 = d * (float)sc[h + 2];
				s2 = d * (float)sc[h + 4];
				s3 = d * (float)sc[h + 6];
				for (l = 16 * h; l < 16 * h + 16; l++) {
					q1 = ((ql[l] & 0xf) |
					    (qh[l] & 3) << 4) - 32;
					q2 = ((ql[l + 32] & 0xf) |
					    (qh[l] >> 2 & 3) << 4) - 32;
					q3 = ((ql[l] >> 4) |
					    (qh[l] >> 4 & 3) << 4) - 32;
					q4 = ((ql[l + 32] >> 4) |
					    (qh[l] >> 6 & 3) << 4) - 32;
					y[l] = s0 * (float)q1;
					y[l + 32] = s1 * (float)q2;
					y[l + 64] = s2 * (float)q3;
					y[l + 96] = s3 * (float)q4;
				}
			}
		}
	}
}

/* Q8_K: float d, 256 int8, 16 int16 sums (not needed). d * q */
DQ_DECODER(gguf_dq_q8_K, s, y, nb)
{
	uint64_t	i;
	float		d;
	int		j;

	for (i = 0; i < nb; i++, s += 292, y += 256) {
		d = bits_f(ld32(s));
		for (j = 0; j < 256; j++)
			y[j] = d * (float)(int8_t)s[4 + j];
	}
}

/* ------------------------------------------------------- ternary types */

/*
 * TQ1_0: 48 bytes holding 5 trits each, 4 bytes holding 4 trits each, half
 * d. A byte is a fixed-point fraction: multiplying by 3^n (mod 256) brings
 * trit n to the top, and (q * 3) >> 8 reads it.
 */
static inline float
tq1_trit(uint8_t byte, unsigned pow3, float d)
{
	uint8_t	q = (uint8_t)(byte * pow3);

	return (float)((int)(((unsigned)q * 3) >> 8) - 1) * d;
}

DQ_DECODER(gguf_dq_tq1_0, s, y, nb)
{
	static const unsigned	pow3[5] = { 1, 3, 9, 27, 81 };
	uint64_t		i;
	float			d;
	int			n, m;

	for (i = 0; i < nb; i++, s += 54) {
		d = ldh(s + 52);
		for (n = 0; n < 5; n++, y += 32) {
			for (m = 0; m < 32; m++)
				y[m] = tq1_trit(s[m], pow3[n], d);
		}
		for (n = 0; n < 5; n++, y += 16) {
			for (m = 0; m < 16; m++)
				y[m] = tq1_trit(s[32 + m], pow3[n], d);
		}
		for (n = 0; n < 4; n++, y += 4) {
			for (m = 0; m < 4; m++)
				y[m] = tq1_trit(s[48 + m], pow3[n], d);
		}
	}
}

/* TQ2_0: 64 bytes of 2-bit codes (value code - 1), half d. */
DQ_DECODER(gguf_dq_tq2_0, s, y, nb)
{
	uint64_t	i;
	float		d;
	int		j, l, m;

	for (i = 0; i < nb; i++, s += 66) {
		d = ldh(s + 64);
		for (j = 0; j < 64; j += 32) {
			for (l = 0; l < 4; l++, y += 32) {
				for (m = 0; m < 32; m++)
					y[m] = (float)((s[j + m] >> (2 * l) &
					    3) - 1) * d;
			}
		}
	}
}

/* ------------------------------------------------------------ block views */

void
gguf_bv_q2_K(const uint8_t *s, struct gguf_blockview *bv)
{
	double	*sc, *mn, *q;
	int	 j, l, n, k;

	bv_d(bv, "d", "super-block scale of the scales (f16)", ldh(s + 80));
	bv_d(bv, "dmin", "super-block scale of the mins (f16)", ldh(s + 82));
	sc = bv_add(bv, "scales", "4-bit scale of each 16 elements", 16, 1);
	mn = bv_add(bv, "mins", "4-bit min of each 16 elements", 16, 1);
	for (j = 0; j < 16; j++) {
		sc[j] = s[j] & 0xf;
		mn[j] = s[j] >> 4;
	}
	q = bv_add(bv, "q", "quants, value = d*scale*q - dmin*min", 256, 1);
	for (k = 0; k < 256; k++) {
		n = k / 128;
		j = (k % 128) / 32;
		l = k % 32;
		q[k] = s[16 + 32 * n + l] >> (2 * j) & 3;
	}
}

void
gguf_bv_q3_K(const uint8_t *s, struct gguf_blockview *bv)
{
	double	*sc, *q;
	int	 scales[16], j, l, n, k;

	k3_scales(s + 96, scales);
	bv_d(bv, "d", "super-block scale (f16)", ldh(s + 108));
	sc = bv_add(bv, "scales", "6-bit signed scale of each 16 elements",
	    16, 1);
	for (j = 0; j < 16; j++)
		sc[j] = scales[j];
	q = bv_add(bv, "q", "quants, value = d*scale*q", 256, 1);
	for (k = 0; k < 256; k++) {
		n = k / 128;
		j = (k % 128) / 32;
		l = k % 32;
		q[k] = (s[32 + 32 * n + l] >> (2 * j) & 3) -
		    ((s[l] >> (4 * n + j) & 1) ? 0 : 4);
	}
}

static void
bv_q45_K(const uint8_t *s, struct gguf_blockview *bv, int five)
{
	const uint8_t	*qs = s + (five ? 48 : 16);
	double		*sc, *mn, *q;
	uint8_t		 a, b;
	int		 j, k, l, hi;

	bv_d(bv, "d", "super-block scale of the scales (f16)", ldh(s));
	bv_d(bv, "dmin", "super-block scale of the mins (f16)", ldh(s + 2));
	sc = bv_add(bv, "scales", "6-bit scale of each 32 elements", 8, 1);
	mn = bv_add(bv, "mins", "6-bit min of each 32 elements", 8, 1);
	for (j = 0; j < 8; j++) {
		gguf_k4_scale_min(s + 4, j, &a, &b);
		sc[j] = a;
		mn[j] = b;
	}
	q = bv_add(bv, "q", "quants, value = d*scale*q - dmin*min", 256, 1);
	for (k = 0; k < 256; k++) {
		j = k / 32;
		l = k % 32;
		hi = j % 2;
		q[k] = hi ? qs[32 * (j / 2) + l] >> 4 :
		    qs[32 * (j / 2) + l] & 0xf;
		if (five && (s[16 + l] >> j & 1))
			q[k] += 16;
	}
}

void
gguf_bv_q4_K(const uint8_t *s, struct gguf_blockview *bv)
{
	bv_q45_K(s, bv, 0);
}

void
gguf_bv_q5_K(const uint8_t *s, struct gguf_blockview *bv)
{
	bv_q45_K(s, bv, 1);
}

void
gguf_bv_q6_K(const uint8_t *s, struct gguf_blockview *bv)
{
	double	*sc, *q;
	int	 j, k, n, r, l, lo, hi;

	bv_d(bv, "d", "super-block scale (f16)", ldh(s + 208));
	sc = bv_add(bv, "scales", "8-bit signed scale of each 16 elements",
	    16, 1);
	for (j = 0; j < 16; j++)
		sc[j] = (int8_t)s[192 + j];
	q = bv_add(bv, "q", "quants, value = d*scale*q", 256, 1);
	for (k = 0; k < 256; k++) {
		n = k / 128;
		r = (k % 128) / 32;	/* which of the four 32-runs */
		l = k % 32;
		lo = s[64 * n + l + 32 * (r % 2)];
		lo = r < 2 ? lo & 0xf : lo >> 4;
		hi = s[128 + 32 * n + l] >> (2 * r) & 3;
		q[k] = (lo | hi << 4) - 32;
	}
}

void
gguf_bv_q8_K(const uint8_t *s, struct gguf_blockview *bv)
{
	double	*q, *b;
	int	 j;

	bv_d(bv, "d", "block scale (f32)", bits_f(ld32(s)));
	q = bv_add(bv, "q", "quants, value = d * q", 256, 1);
	for (j = 0; j < 256; j++)
		q[j] = (int8_t)s[4 + j];
	b = bv_add(bv, "bsums", "sum of each 16 quants", 16, 1);
	for (j = 0; j < 16; j++)
		b[j] = (int16_t)ld16(s + 260 + 2 * j);
}

/* The trit of element k of a TQ1_0 block, in the order gguf_dq_tq1_0 writes. */
static int
tq1_code(const uint8_t *s, int k)
{
	static const unsigned	pow3[5] = { 1, 3, 9, 27, 81 };
	unsigned		byte, n;

	if (k < 160) {
		byte = s[k % 32];
		n = k / 32;
	} else if (k < 240) {
		byte = s[32 + (k - 160) % 16];
		n = (k - 160) / 16;
	} else {
		byte = s[48 + (k - 240) % 4];
		n = (k - 240) / 4;
	}
	return (int)(((unsigned)(uint8_t)(byte * pow3[n]) * 3) >> 8) - 1;
}

void
gguf_bv_tq1_0(const uint8_t *s, struct gguf_blockview *bv)
{
	double	*q;
	int	 k;

	bv_d(bv, "d", "block scale (f16)", ldh(s + 52));
	q = bv_add(bv, "q", "trits, value = q * d", 256, 1);
	for (k = 0; k < 256; k++)
		q[k] = tq1_code(s, k);
}

void
gguf_bv_tq2_0(const uint8_t *s, struct gguf_blockview *bv)
{
	double	*q;
	int	 k;

	bv_d(bv, "d", "block scale (f16)", ldh(s + 64));
	q = bv_add(bv, "q", "trits, value = q * d", 256, 1);
	for (k = 0; k < 256; k++)
		q[k] = (s[32 * (k / 128) + k % 32] >> (2 * ((k % 128) / 32)) &
		    3) - 1;
}
