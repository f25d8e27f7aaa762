/*
 * dequant_legacy.c - the decoders of the small-block types: ggml's first
 * quantizations (Q4_0, Q4_1, Q5_0, Q5_1, Q8_0, Q8_1) and the types of
 * blocks of 32 to 128 elements since (IQ4_NL, MXFP4, NVFP4, Q1_0, Q2_0),
 * and the views of their blocks' fields.
 */
#include "config.h"

#include "dequant_int.h"

/* Q4_0: half d, 16 bytes of nibbles; low nibbles first. (q - 8) * d */
DQ_DECODER(gguf_dq_q4_0, s, y, nb)
{
	uint64_t	i;
	float		d;
	int		j;

	for (i = 0; i < nb; i++, s += 18, y += 32) {
		d = ldh(s);
		for (j = 0; j < 16; j++) {
			y[j] = (float)((s[2 + j] & 0xf) - 8) * d;
			y[j + 16] = (float)((s[2 + j] >> 4) - 8) * d;
		}
	}
}

/* Q4_1: half d, half m, nibbles. q * d + m */
DQ_DECODER(gguf_dq_q4_1, s, y, nb)
{
	uint64_t	i;
	float		d, m;
	int		j;

	for (i = 0; i < nb; i++, s += 20, y += 32) {
		d = ldh(s);
		m = ldh(s + 2);
		for (j = 0; j < 16; j++) {
			y[j] = (float)(s[4 + j] & 0xf) * d + m;
			y[j + 16] = (float)(s[4 + j] >> 4) * d + m;
		}
	}
}

/* The fifth bits of Q5_0 and Q5_1, as 0 or 16 for each element. */
static inline void
q5_high(const uint8_t *qh, uint8_t *h)
{
	memcpy(h, gguf_dq_tab.hi16[qh[0]], 8);
	memcpy(h + 8, gguf_dq_tab.hi16[qh[1]], 8);
	memcpy(h + 16, gguf_dq_tab.hi16[qh[2]], 8);
	memcpy(h + 24, gguf_dq_tab.hi16[qh[3]], 8);
}

/* Q5_0: half d, 32 high bits, nibbles. (q - 16) * d */
DQ_DECODER(gguf_dq_q5_0, s, y, nb)
{
	uint64_t	i;
	uint8_t		h[32];
	float		d;
	int		j;

	tables();
	for (i = 0; i < nb; i++, s += 22, y += 32) {
		d = ldh(s);
		q5_high(s + 2, h);
		for (j = 0; j < 16; j++) {
			y[j] = (float)((int32_t)((s[6 + j] & 0xf) | h[j]) -
			    16) * d;
			y[j + 16] = (float)((int32_t)((s[6 + j] >> 4) |
			    h[j + 16]) - 16) * d;
		}
	}
}

/* Q5_1: half d, half m, 32 high bits, nibbles. q * d + m */
DQ_DECODER(gguf_dq_q5_1, s, y, nb)
{
	uint64_t	i;
	uint8_t		h[32];
	float		d, m;
	int		j;

	tables();
	for (i = 0; i < nb; i++, s += 24, y += 32) {
		d = ldh(s);
		m = ldh(s + 2);
		q5_high(s + 4, h);
		for (j = 0; j < 16; j++) {
			y[j] = (float)((s[8 + j] & 0xf) | h[j]) * d + m;
			y[j + 16] = (float)((s[8 + j] >> 4) | h[j + 16]) * d +
			    m;
		}
	}
}

/* Q8_0: half d, 32 int8. q * d */
DQ_DECODER(gguf_dq_q8_0, s, y, nb)
{
	uint64_t	i;
	float		d;
	int		j;

	for (i = 0; i < nb; i++, s += 34, y += 32) {
		d = ldh(s);
		for (j = 0; j < 32; j++)
			y[j] = (float)(int8_t)s[2 + j] * d;
	}
}

/* Q8_1: half d, half s (d times the sum of the quants), 32 int8. q * d */
DQ_DECODER(gguf_dq_q8_1, s, y, nb)
{
	uint64_t	i;
	float		d;
	int		j;

	for (i = 0; i < nb; i++, s += 36, y += 32) {
		d = ldh(s);
		for (j = 0; j < 32; j++)
			y[j] = (float)(int8_t)s[4 + j] * d;
	}
}

/* IQ4_NL: half d, nibbles indexing the non-linear codebook. d * kv[q] */
DQ_DECODER(gguf_dq_iq4_nl, s, y, nb)
{
	uint64_t	i;
	float		t[16];

	for (i = 0; i < nb; i++, s += 18, y += 32) {
		scaled16(t, gguf_kvalues_iq4nl, ldh(s), 1);
		lookup32(y, s + 2, t);
	}
}

/* MXFP4: E8M0 exponent byte, nibbles of doubled E2M1 values. v * d */
DQ_DECODER(gguf_dq_mxfp4, s, y, nb)
{
	uint64_t	i;
	float		t[16];

	for (i = 0; i < nb; i++, s += 17, y += 32) {
		scaled16(t, gguf_kvalues_mxfp4, gguf_e8m0_half(s[0]), 0);
		lookup32(y, s + 1, t);
	}
}

/* NVFP4: 4 UE4M3 scales, one per 16 elements, then their nibbles. */
DQ_DECODER(gguf_dq_nvfp4, s, y, nb)
{
	uint64_t	i;
	float		t[16];
	int		k;

	for (i = 0; i < nb; i++, s += 36) {
		for (k = 0; k < 4; k++, y += 16) {
			scaled16(t, gguf_kvalues_mxfp4, ue4m3_half(s[k]), 0);
			lookup16(y, y + 8, s + 4 + 8 * k, t, 8);
		}
	}
}

/* Q1_0: half d, 128 sign bits, bit j of byte j/8. +d or -d */
DQ_DECODER(gguf_dq_q1_0, s, y, nb)
{
	const uint32_t	*sm;
	uint64_t	 i;
	uint32_t	 d;
	int		 b, k;

	tables();
	for (i = 0; i < nb; i++, s += 18) {
		d = f_bits(ldh(s));
		for (b = 0; b < 16; b++, y += 8) {
			sm = gguf_dq_tab.sign[(uint8_t)~s[2 + b]];
			for (k = 0; k < 8; k++)
				y[k] = bits_f(d ^ sm[k]);
		}
	}
}

/* Q2_0: half d, 64 two-bit codes, code j at bits 2(j%4) of byte j/4. */
DQ_DECODER(gguf_dq_q2_0, s, y, nb)
{
	const float	*c;
	uint64_t	 i;
	float		 d;
	int		 b, k;

	tables();
	for (i = 0; i < nb; i++, s += 18) {
		d = ldh(s);
		for (b = 0; b < 16; b++, y += 4) {
			c = gguf_dq_tab.q2_0[s[2 + b]];
			for (k = 0; k < 4; k++)
				y[k] = c[k] * d;
		}
	}
}


/* ------------------------------------------------------------ block views */

void
gguf_bv_q4_0(const uint8_t *s, struct gguf_blockview *bv)
{
	double	*q;
	int	 j;

	bv_d(bv, "d", "block scale (f16)", ldh(s));
	q = bv_add(bv, "q", "quants, value = q * d", 32, 1);
	for (j = 0; j < 16; j++) {
		q[j] = (s[2 + j] & 0xf) - 8;
		q[j + 16] = (s[2 + j] >> 4) - 8;
	}
}

void
gguf_bv_q4_1(const uint8_t *s, struct gguf_blockview *bv)
{
	double	*q;
	int	 j;

	bv_d(bv, "d", "block scale (f16)", ldh(s));
	bv_d(bv, "m", "block minimum (f16)", ldh(s + 2));
	q = bv_add(bv, "q", "quants, value = q * d + m", 32, 1);
	for (j = 0; j < 16; j++) {
		q[j] = s[4 + j] & 0xf;
		q[j + 16] = s[4 + j] >> 4;
	}
}

static void
bv_q5(const uint8_t *s, struct gguf_blockview *bv, int has_m)
{
	const uint8_t	*qs = s + (has_m ? 8 : 6);
	uint32_t	 qh = ld32(s + (has_m ? 4 : 2));
	double		*q;
	int		 j, sub = has_m ? 0 : 16;

	bv_d(bv, "d", "block scale (f16)", ldh(s));
	if (has_m)
		bv_d(bv, "m", "block minimum (f16)", ldh(s + 2));
	q = bv_add(bv, "q", has_m ? "quants, value = q * d + m" :
	    "quants, value = q * d", 32, 1);
	for (j = 0; j < 16; j++) {
		q[j] = (int)((qs[j] & 0xf) | ((qh >> j) << 4 & 0x10)) - sub;
		q[j + 16] = (int)((qs[j] >> 4) | ((qh >> (j + 12)) & 0x10)) -
		    sub;
	}
}

void
gguf_bv_q5_0(const uint8_t *s, struct gguf_blockview *bv)
{
	bv_q5(s, bv, 0);
}

void
gguf_bv_q5_1(const uint8_t *s, struct gguf_blockview *bv)
{
	bv_q5(s, bv, 1);
}

void
gguf_bv_q8_0(const uint8_t *s, struct gguf_blockview *bv)
{
	double	*q;
	int	 j;

	bv_d(bv, "d", "block scale (f16)", ldh(s));
	q = bv_add(bv, "q", "quants, value = q * d", 32, 1);
	for (j = 0; j < 32; j++)
		q[j] = (int8_t)s[2 + j];
}

void
gguf_bv_q8_1(const uint8_t *s, struct gguf_blockview *bv)
{
	double	*q;
	int	 j;

	bv_d(bv, "d", "block scale (f16)", ldh(s));
	bv_d(bv, "s", "d times the sum of the quants (f16)", ldh(s + 2));
	q = bv_add(bv, "q", "quants, value = q * d", 32, 1);
	for (j = 0; j < 32; j++)
		q[j] = (int8_t)s[4 + j];
}

void
gguf_bv_iq4_nl(const uint8_t *s, struct gguf_blockview *bv)
{
	double	*q;
	int	 j;

	bv_d(bv, "d", "block scale (f16)", ldh(s));
	q = bv_add(bv, "q", "codebook values, value = d * q", 32, 1);
	for (j = 0; j < 16; j++) {
		q[j] = gguf_kvalues_iq4nl[s[2 + j] & 0xf];
		q[j + 16] = gguf_kvalues_iq4nl[s[2 + j] >> 4];
	}
}

void
gguf_bv_mxfp4(const uint8_t *s, struct gguf_blockview *bv)
{
	double	*q;
	int	 j;

	bv_d(bv, "e", "E8M0 exponent byte", s[0]);
	bv->f[bv->nfield - 1].integral = 1;
	bv_d(bv, "d", "half of 2^(e-127)", gguf_e8m0_half(s[0]));
	q = bv_add(bv, "q", "doubled E2M1 values, value = q * d", 32, 1);
	for (j = 0; j < 16; j++) {
		q[j] = gguf_kvalues_mxfp4[s[1 + j] & 0xf];
		q[j + 16] = gguf_kvalues_mxfp4[s[1 + j] >> 4];
	}
}

void
gguf_bv_nvfp4(const uint8_t *s, struct gguf_blockview *bv)
{
	double	*d, *q;
	int	 k, j;

	d = bv_add(bv, "d", "UE4M3 scale of each 16 elements, halved", 4, 0);
	for (k = 0; k < 4; k++)
		d[k] = ue4m3_half(s[k]);
	q = bv_add(bv, "q", "doubled E2M1 values, value = q * d[i/16]", 64,
	    1);
	for (k = 0; k < 4; k++) {
		for (j = 0; j < 8; j++) {
			q[16 * k + j] = gguf_kvalues_mxfp4[s[4 + 8 * k + j] &
			    0xf];
			q[16 * k + j + 8] = gguf_kvalues_mxfp4[s[4 + 8 * k +
			    j] >> 4];
		}
	}
}

void
gguf_bv_q1_0(const uint8_t *s, struct gguf_blockview *bv)
{
	double	*q;
	int	 j;

	bv_d(bv, "d", "block scale (f16)", ldh(s));
	q = bv_add(bv, "q", "signs, value = q * d", 128, 1);
	for (j = 0; j < 128; j++)
		q[j] = (s[2 + j / 8] >> (j % 8) & 1) ? 1 : -1;
}

void
gguf_bv_q2_0(const uint8_t *s, struct gguf_blockview *bv)
{
	double	*q;
	int	 j;

	bv_d(bv, "d", "block scale (f16)", ldh(s));
	q = bv_add(bv, "q", "quants, value = q * d", 64, 1);
	for (j = 0; j < 64; j++)
		q[j] = (s[2 + j / 4] >> (2 * (j % 4)) & 3) - 1;
}
