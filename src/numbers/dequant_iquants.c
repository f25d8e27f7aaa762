/*
 * dequant_iquants.c - the decoders of the i-quants of 256-element blocks
 * (IQ2_XXS ... IQ1_M, IQ4_XS), which index the grids of dequant_grids.c,
 * and the views of their blocks' fields.
 */
#include "config.h"

#include "dequant_int.h"

/* ------------------------------------------------------------- i-quants */

/*
 * Eight elements from a grid entry (floats) and a scale: db * magnitude,
 * negated where the sign mask says so (ggml multiplies by -1: the same).
 */
static inline void
iq_put8(float *restrict y, const float *restrict g, float db,
    const uint32_t *restrict sm)
{
	int	j;

	for (j = 0; j < 8; j++)
		y[j] = bits_f(f_bits(db * g[j]) ^ sm[j]);
}

/* The same from two 4-magnitude entries (IQ3). */
static inline void
iq_put4x2(float *restrict y, const float *restrict g1,
    const float *restrict g2, float db, const uint32_t *restrict sm)
{
	int	j;

	for (j = 0; j < 4; j++) {
		y[j] = bits_f(f_bits(db * g1[j]) ^ sm[j]);
		y[j + 4] = bits_f(f_bits(db * g2[j]) ^ sm[j + 4]);
	}
}

/* IQ2_XXS: half d; per 32 elements 4 grid bytes and a u32 of 4x7 sign
 * bits plus a 4-bit scale. */
DQ_DECODER(gguf_dq_iq2_xxs, s, y, nb)
{
	const uint8_t	*q;
	uint64_t	 i;
	uint32_t	 aux;
	float		 d, db;
	int		 ib, l;

	tables();
	for (i = 0; i < nb; i++, s += 66) {
		d = ldh(s);
		for (ib = 0; ib < 8; ib++) {
			q = s + 2 + 8 * ib;
			aux = ld32(q + 4);
			db = d * (0.5f + (float)(aux >> 28)) * 0.25f;
			for (l = 0; l < 4; l++, y += 8)
				iq_put8(y, gguf_dq_tab.iq2xxs[q[l]], db,
				    gguf_dq_tab.sign[iq_signs(aux >> (7 * l))]);
		}
	}
}

/* IQ2_XS: half d, 32 u16 (9-bit grid index, 7 sign bits), 8 scale bytes. */
DQ_DECODER(gguf_dq_iq2_xs, s, y, nb)
{
	uint64_t	i;
	uint32_t	q;
	float		d, db[2];
	int		ib, l;

	tables();
	for (i = 0; i < nb; i++, s += 74) {
		d = ldh(s);
		for (ib = 0; ib < 8; ib++) {
			db[0] = d * (0.5f + (float)(s[66 + ib] & 0xf)) * 0.25f;
			db[1] = d * (0.5f + (float)(s[66 + ib] >> 4)) * 0.25f;
			for (l = 0; l < 4; l++, y += 8) {
				q = ld16(s + 2 + 8 * ib + 2 * l);
				iq_put8(y, gguf_dq_tab.iq2xs[q & 511],
				    db[l / 2],
				    gguf_dq_tab.sign[iq_signs(q >> 9)]);
			}
		}
	}
}

/* IQ2_S: half d, 32 grid bytes, 32 sign bytes, 8 bytes of 2-bit index
 * extensions, 8 scale bytes. */
DQ_DECODER(gguf_dq_iq2_s, s, y, nb)
{
	const uint8_t	*qs, *sg, *qh;
	uint64_t	 i;
	float		 d, db[2];
	int		 ib, l;

	tables();
	for (i = 0; i < nb; i++, s += 82) {
		d = ldh(s);
		qs = s + 2;
		sg = s + 34;
		qh = s + 66;
		for (ib = 0; ib < 8; ib++, qs += 4, sg += 4) {
			db[0] = d * (0.5f + (float)(s[74 + ib] & 0xf)) * 0.25f;
			db[1] = d * (0.5f + (float)(s[74 + ib] >> 4)) * 0.25f;
			for (l = 0; l < 4; l++, y += 8)
				iq_put8(y, gguf_dq_tab.iq2s[qs[l] |
				    ((qh[ib] << (8 - 2 * l)) & 0x300)],
				    db[l / 2], gguf_dq_tab.sign[sg[l]]);
		}
	}
}

/* IQ3_XXS: half d, 64 grid bytes, then per 32 elements a u32 of 4x7 sign
 * bits and a 4-bit scale. */
DQ_DECODER(gguf_dq_iq3_xxs, s, y, nb)
{
	const uint8_t	*qs;
	uint64_t	 i;
	uint32_t	 aux;
	float		 d, db;
	int		 ib, l;

	tables();
	for (i = 0; i < nb; i++, s += 98) {
		d = ldh(s);
		qs = s + 2;
		for (ib = 0; ib < 8; ib++, qs += 8) {
			aux = ld32(s + 66 + 4 * ib);
			db = d * (0.5f + (float)(aux >> 28)) * 0.5f;
			for (l = 0; l < 4; l++, y += 8)
				iq_put4x2(y, gguf_dq_tab.iq3xxs[qs[2 * l]],
				    gguf_dq_tab.iq3xxs[qs[2 * l + 1]], db,
				    gguf_dq_tab.sign[iq_signs(aux >> (7 * l))]);
		}
	}
}

/* IQ3_S: half d, 64 grid bytes, 8 bytes of ninth index bits, 32 sign
 * bytes, 4 bytes of 4-bit scales (odd multipliers 1..31). */
DQ_DECODER(gguf_dq_iq3_s, s, y, nb)
{
	const uint8_t	*qs, *qh, *sg;
	uint64_t	 i;
	float		 d, db;
	int		 ib, l;

	tables();
	for (i = 0; i < nb; i++, s += 110) {
		d = ldh(s);
		qs = s + 2;
		qh = s + 66;
		sg = s + 74;
		for (ib = 0; ib < 8; ib++, qs += 8, sg += 4) {
			db = d * (float)(1 + 2 * ((s[106 + ib / 2] >>
			    (4 * (ib % 2))) & 0xf));
			for (l = 0; l < 4; l++, y += 8)
				iq_put4x2(y, gguf_dq_tab.iq3s[qs[2 * l] |
				    ((qh[ib] << (8 - 2 * l)) & 256)],
				    gguf_dq_tab.iq3s[qs[2 * l + 1] |
				    ((qh[ib] << (7 - 2 * l)) & 256)], db,
				    gguf_dq_tab.sign[sg[l]]);
		}
	}
}

#define IQ1_DELTA	0.125f

/* Eight elements of a signed grid entry: dl * (g + delta). */
static inline void
iq1_put8(float *restrict y, const float *restrict g, float dl, float delta)
{
	int	j;

	for (j = 0; j < 8; j++)
		y[j] = dl * (g[j] + delta);
}

/* IQ1_S: half d, 32 grid bytes, 8 u16 (3-bit scale, delta sign, 4x3 high
 * index bits). */
DQ_DECODER(gguf_dq_iq1_s, s, y, nb)
{
	const uint8_t	*qs;
	uint64_t	 i;
	uint32_t	 qh;
	float		 d, dl, delta;
	int		 ib, l;

	tables();
	for (i = 0; i < nb; i++, s += 50) {
		d = ldh(s);
		qs = s + 2;
		for (ib = 0; ib < 8; ib++, qs += 4) {
			qh = ld16(s + 34 + 2 * ib);
			dl = d * (float)(2 * ((qh >> 12) & 7) + 1);
			delta = (qh & 0x8000) ? -IQ1_DELTA : IQ1_DELTA;
			for (l = 0; l < 4; l++, y += 8)
				iq1_put8(y, gguf_dq_tab.iq1s[qs[l] |
				    ((qh >> (3 * l)) & 7) << 8], dl, delta);
		}
	}
}

/* IQ1_M's half scale, spread over the top nibbles of its 4 scale u16. */
static inline float
iq1m_d(const uint8_t *sc)
{
	uint32_t	s0 = ld16(sc), s1 = ld16(sc + 2);
	uint32_t	s2 = ld16(sc + 4), s3 = ld16(sc + 6);

	return h2f((s0 >> 12) | ((s1 >> 8) & 0x00f0) | ((s2 >> 4) & 0x0f00) |
	    (s3 & 0xf000));
}

/* IQ1_M: 32 grid bytes, 16 bytes of (3 index bits, delta sign) nibbles,
 * 8 bytes of 3-bit scales (and the pieces of d). */
DQ_DECODER(gguf_dq_iq1_m, s, y, nb)
{
	const uint8_t	*qs, *qh;
	uint64_t	 i;
	uint32_t	 sc, h;
	float		 d, dl;
	int		 ib, l;

	tables();
	for (i = 0; i < nb; i++, s += 56) {
		d = iq1m_d(s + 48);
		qs = s;
		qh = s + 32;
		for (ib = 0; ib < 8; ib++, qs += 4, qh += 2) {
			sc = ld16(s + 48 + 2 * (ib / 2)) >> (6 * (ib % 2));
			for (l = 0; l < 4; l++, y += 8) {
				h = qh[l / 2] >> (4 * (l % 2));
				dl = d * (float)(2 * ((sc >> (3 * (l / 2))) &
				    7) + 1);
				iq1_put8(y,
				    gguf_dq_tab.iq1s[qs[l] | (h & 7) << 8], dl,
				    (h & 8) ? -IQ1_DELTA : IQ1_DELTA);
			}
		}
	}
}

/* IQ4_XS: half d, u16 of high scale bits, 4 bytes of low scale nibbles,
 * 128 bytes of codebook nibbles. */
DQ_DECODER(gguf_dq_iq4_xs, s, y, nb)
{
	uint64_t	i;
	uint32_t	sh;
	float		d, t[16];
	int		ib, ls;

	for (i = 0; i < nb; i++, s += 136) {
		d = ldh(s);
		sh = ld16(s + 2);
		for (ib = 0; ib < 8; ib++, y += 32) {
			ls = ((s[4 + ib / 2] >> (4 * (ib % 2))) & 0xf) |
			    ((sh >> (2 * ib)) & 3) << 4;
			scaled16(t, gguf_kvalues_iq4nl, d * (float)(ls - 32), 1);
			lookup32(y, s + 8 + 16 * ib, t);
		}
	}
}

/* ------------------------------------------------------------ block views */

/* Signed grid values of eight elements of an i-quant. */
static void
bv_grid8(double *q, uint64_t g, uint32_t signs)
{
	int	j;
	double	v;

	for (j = 0; j < 8; j++) {
		v = (double)(g >> (8 * j) & 0xff);
		q[j] = (signs >> j & 1) ? -v : v;
	}
}

void
gguf_bv_iq2_xxs(const uint8_t *s, struct gguf_blockview *bv)
{
	double		*sc, *ix, *q;
	const uint8_t	*p;
	uint32_t	 aux;
	int		 ib, l;

	bv_d(bv, "d", "super-block scale (f16)", ldh(s));
	sc = bv_add(bv, "scales", "scale of each 32 elements, "
	    "d*(scale+0.5)/4", 8, 1);
	ix = bv_add(bv, "grid", "grid index of each 8 elements", 32, 1);
	q = bv_add(bv, "q", "signed grid values, value = (scale) * q", 256,
	    1);
	for (ib = 0; ib < 8; ib++) {
		p = s + 2 + 8 * ib;
		aux = ld32(p + 4);
		sc[ib] = aux >> 28;
		for (l = 0; l < 4; l++) {
			ix[4 * ib + l] = p[l];
			bv_grid8(q + 32 * ib + 8 * l, gguf_iq2xxs_grid[p[l]],
			    iq_signs(aux >> (7 * l)));
		}
	}
}

static void
bv_iq2_xs_s(const uint8_t *s, struct gguf_blockview *bv, int is_s)
{
	double		*sc, *ix, *q;
	uint32_t	 v, idx, sg;
	int		 ib, l;

	bv_d(bv, "d", "super-block scale (f16)", ldh(s));
	sc = bv_add(bv, "scales", "scale of each 16 elements, "
	    "d*(scale+0.5)/4", 16, 1);
	ix = bv_add(bv, "grid", "grid index of each 8 elements", 32, 1);
	q = bv_add(bv, "q", "signed grid values, value = (scale) * q", 256,
	    1);
	for (ib = 0; ib < 8; ib++) {
		v = s[(is_s ? 74 : 66) + ib];
		sc[2 * ib] = v & 0xf;
		sc[2 * ib + 1] = v >> 4;
		for (l = 0; l < 4; l++) {
			if (is_s) {
				idx = s[2 + 4 * ib + l] |
				    ((s[66 + ib] << (8 - 2 * l)) & 0x300);
				sg = s[34 + 4 * ib + l];
			} else {
				v = ld16(s + 2 + 8 * ib + 2 * l);
				idx = v & 511;
				sg = iq_signs(v >> 9);
			}
			ix[4 * ib + l] = idx;
			bv_grid8(q + 32 * ib + 8 * l, is_s ?
			    gguf_iq2s_grid[idx] : gguf_iq2xs_grid[idx], sg);
		}
	}
}

void
gguf_bv_iq2_xs(const uint8_t *s, struct gguf_blockview *bv)
{
	bv_iq2_xs_s(s, bv, 0);
}

void
gguf_bv_iq2_s(const uint8_t *s, struct gguf_blockview *bv)
{
	bv_iq2_xs_s(s, bv, 1);
}

static void
bv_iq3(const uint8_t *s, struct gguf_blockview *bv, int is_s)
{
	double		*sc, *ix, *q;
	uint32_t	 aux, i1, i2, g1, g2, sg;
	int		 ib, l;

	bv_d(bv, "d", "super-block scale (f16)", ldh(s));
	sc = bv_add(bv, "scales", is_s ? "scale of each 32 elements, "
	    "d*(1+2*scale)" : "scale of each 32 elements, d*(scale+0.5)/2",
	    8, 1);
	ix = bv_add(bv, "grid", "grid index of each 4 elements", 64, 1);
	q = bv_add(bv, "q", "signed grid values, value = (scale) * q", 256,
	    1);
	for (ib = 0; ib < 8; ib++) {
		aux = is_s ? 0 : ld32(s + 66 + 4 * ib);
		sc[ib] = is_s ? (s[106 + ib / 2] >> (4 * (ib % 2))) & 0xf :
		    aux >> 28;
		for (l = 0; l < 4; l++) {
			i1 = s[2 + 8 * ib + 2 * l];
			i2 = s[2 + 8 * ib + 2 * l + 1];
			if (is_s) {
				i1 |= (s[66 + ib] << (8 - 2 * l)) & 256;
				i2 |= (s[66 + ib] << (7 - 2 * l)) & 256;
				g1 = gguf_iq3s_grid[i1];
				g2 = gguf_iq3s_grid[i2];
				sg = s[74 + 4 * ib + l];
			} else {
				g1 = gguf_iq3xxs_grid[i1];
				g2 = gguf_iq3xxs_grid[i2];
				sg = iq_signs(aux >> (7 * l));
			}
			ix[8 * ib + 2 * l] = i1;
			ix[8 * ib + 2 * l + 1] = i2;
			bv_grid8(q + 32 * ib + 8 * l, (uint64_t)g2 << 32 | g1,
			    sg);
		}
	}
}

void
gguf_bv_iq3_xxs(const uint8_t *s, struct gguf_blockview *bv)
{
	bv_iq3(s, bv, 0);
}

void
gguf_bv_iq3_s(const uint8_t *s, struct gguf_blockview *bv)
{
	bv_iq3(s, bv, 1);
}

static void
bv_iq1(const uint8_t *s, struct gguf_blockview *bv, int is_m)
{
	double		*sc, *dt, *ix, *q;
	uint32_t	 qh, h, idx, v;
	int		 ib, l, j, ns = is_m ? 16 : 8;

	bv_d(bv, "d", "super-block scale (f16)", is_m ? iq1m_d(s + 48) :
	    ldh(s));
	sc = bv_add(bv, "scales", is_m ? "3-bit scale of each 16 elements, "
	    "d*(2*scale+1)" : "3-bit scale of each 32 elements, "
	    "d*(2*scale+1)", ns, 1);
	dt = bv_add(bv, "delta", is_m ? "shift of each 8 elements" :
	    "shift of each 32 elements", is_m ? 32 : 8, 0);
	ix = bv_add(bv, "grid", "grid index of each 8 elements", 32, 1);
	q = bv_add(bv, "q", "grid values, value = (scale) * (q + delta)",
	    256, 1);
	for (ib = 0; ib < 8; ib++) {
		if (is_m) {
			v = ld16(s + 48 + 2 * (ib / 2)) >> (6 * (ib % 2));
			sc[2 * ib] = v & 7;
			sc[2 * ib + 1] = (v >> 3) & 7;
		} else {
			qh = ld16(s + 34 + 2 * ib);
			sc[ib] = (qh >> 12) & 7;
			dt[ib] = (qh & 0x8000) ? -IQ1_DELTA : IQ1_DELTA;
		}
		for (l = 0; l < 4; l++) {
			if (is_m) {
				h = s[32 + 2 * ib + l / 2] >> (4 * (l % 2));
				idx = s[4 * ib + l] | (h & 7) << 8;
				dt[4 * ib + l] = (h & 8) ? -IQ1_DELTA :
				    IQ1_DELTA;
			} else {
				qh = ld16(s + 34 + 2 * ib);
				idx = s[2 + 4 * ib + l] |
				    ((qh >> (3 * l)) & 7) << 8;
			}
			ix[4 * ib + l] = idx;
			for (j = 0; j < 8; j++)
				q[32 * ib + 8 * l + j] =
				    (int8_t)(gguf_iq1s_grid[idx] >> (8 * j));
		}
	}
}

void
gguf_bv_iq1_s(const uint8_t *s, struct gguf_blockview *bv)
{
	bv_iq1(s, bv, 0);
}

void
gguf_bv_iq1_m(const uint8_t *s, struct gguf_blockview *bv)
{
	bv_iq1(s, bv, 1);
}

void
gguf_bv_iq4_xs(const uint8_t *s, struct gguf_blockview *bv)
{
	double		*sc, *q;
	uint32_t	 sh = ld16(s + 2);
	int		 ib, j;

	bv_d(bv, "d", "super-block scale (f16)", ldh(s));
	sc = bv_add(bv, "scales", "6-bit signed scale of each 32 elements",
	    8, 1);
	q = bv_add(bv, "q", "codebook values, value = d*scale*q", 256, 1);
	for (ib = 0; ib < 8; ib++) {
		sc[ib] = (int)(((s[4 + ib / 2] >> (4 * (ib % 2))) & 0xf) |
		    ((sh >> (2 * ib)) & 3) << 4) - 32;
		for (j = 0; j < 16; j++) {
			q[32 * ib + j] = gguf_kvalues_iq4nl[s[8 + 16 * ib +
			    j] & 0xf];
			q[32 * ib + j + 16] = gguf_kvalues_iq4nl[s[8 +
			    16 * ib + j] >> 4];
		}
	}
}
