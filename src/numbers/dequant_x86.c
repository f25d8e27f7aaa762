/*
 * dequant_x86.c - decoders written with AVX2 and F16C instructions, for the
 * most used tensor types (F16, BF16, Q8_0, Q4_0, Q4_1, Q5_0, Q5_1, the
 * K-quants Q2_K to Q6_K and Q8_K, the i-quants IQ1_S to IQ3_S, the 4-bit
 * codebook types IQ4_NL, IQ4_XS, MXFP4, and the ternary TQ1_0, TQ2_0),
 * chosen at run time when the CPU has both.
 *
 * Exactness. Each decoder performs the portable decoder's float32
 * operations (dequant.c) on the same operands, in the same order, eight
 * lanes at a time: no FMA (a fused multiply-add rounds once where ggml
 * rounds twice, so "fma" is deliberately not among the target features,
 * and the build passes -ffp-contract=off), integers converted to float
 * exactly, multiplications that are commutative written either way.
 * Where a quant takes only a few values (Q2_K, Q3_K, the ternary types),
 * the few results of a scale are computed that way, once, and looked up.
 * Halves are widened with F16C, which is exact for every finite value,
 * subnormals included, and for infinities; it sets the quiet bit of a
 * signalling NaN, which the portable decoder keeps as it is. A block
 * scale is only ever multiplied, and a product quiets a NaN anyway, so
 * scales may take F16C as they are; F16 data may not, and a group of
 * halves holding a NaN is left to the portable decoder. One case is not
 * the C code's to decide: Q4_1 and Q5_1 add two scales (q * d + m), and
 * when both are NaN the sum is whichever the instruction's first operand
 * holds, an order compilers choose freely for a commutative addition;
 * here it is the product's, as GCC's build of the portable code gives,
 * clang's may give the other (the tests accept either NaN there).
 *
 * Everything is compiled for the x86-64 baseline except the functions
 * marked AVX2, which only run after the CPU said it has AVX2 and F16C.
 * Other architectures and compilers without target attributes get no
 * vector decoder and use the portable ones.
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "cpu.h"
#include "gguf.h"
#include "dequant_grids.h"
#include "dequant_vec.h"

#if defined(__x86_64__) && defined(__GNUC__)

#include <immintrin.h>

#define AVX2	__attribute__((target("avx2,f16c")))

static inline uint16_t
ld16(const uint8_t *p)
{
	uint16_t	v;

	memcpy(&v, p, sizeof v);	/* x86-64 is little-endian */
	return v;
}

AVX2 static inline float
half(const uint8_t *p)
{
	return _cvtsh_ss(ld16(p));
}

/* Stores the 8 bytes of b, as unsigned integers, times d, minus m. */
AVX2 static inline void
put8_u_dm(float *y, __m128i b, __m256 d, __m256 m)
{
	__m256	x = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(b));

	_mm256_storeu_ps(y, _mm256_sub_ps(_mm256_mul_ps(d, x), m));
}

/* The 32 unsigned bytes of v: d * q - m each. */
AVX2 static inline void
put32_u_dm(float *y, __m256i v, float d, float m)
{
	__m256	dv = _mm256_set1_ps(d), mv = _mm256_set1_ps(m);
	__m128i	lo = _mm256_castsi256_si128(v), hi = _mm256_extracti128_si256(v, 1);

	put8_u_dm(y, lo, dv, mv);
	put8_u_dm(y + 8, _mm_srli_si128(lo, 8), dv, mv);
	put8_u_dm(y + 16, hi, dv, mv);
	put8_u_dm(y + 24, _mm_srli_si128(hi, 8), dv, mv);
}

/* Stores the 8 low bytes of b, as signed integers, times d. */
AVX2 static inline void
put8_s_d(float *y, __m128i b, __m256 d)
{
	__m256	x = _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(b));

	_mm256_storeu_ps(y, _mm256_mul_ps(x, d));
}

/* 16 signed bytes times d. */
AVX2 static inline void
put16_s_d(float *y, __m128i b, float d)
{
	__m256	dv = _mm256_set1_ps(d);

	put8_s_d(y, b, dv);
	put8_s_d(y + 8, _mm_srli_si128(b, 8), dv);
}

/* ------------------------------------------------------------ plain */

/* F16: halves widened eight at a time; a group holding a NaN: portable. */
AVX2 static void
v_f16(const uint8_t *restrict s, float *restrict y, uint64_t n)
{
	const __m128i	em = _mm_set1_epi16(0x7fff), inf = _mm_set1_epi16(0x7c00);
	__m128i		a, b, c, d, nan;
	uint64_t	i;

	for (i = 0; i + 32 <= n; i += 32) {
		a = _mm_loadu_si128((const __m128i *)(s + 2 * i));
		b = _mm_loadu_si128((const __m128i *)(s + 2 * i + 16));
		c = _mm_loadu_si128((const __m128i *)(s + 2 * i + 32));
		d = _mm_loadu_si128((const __m128i *)(s + 2 * i + 48));
		/* |h| > inf (as signed 16-bit, |h| < 0x8000): a NaN */
		nan = _mm_or_si128(
		    _mm_or_si128(_mm_cmpgt_epi16(_mm_and_si128(a, em), inf),
		    _mm_cmpgt_epi16(_mm_and_si128(b, em), inf)),
		    _mm_or_si128(_mm_cmpgt_epi16(_mm_and_si128(c, em), inf),
		    _mm_cmpgt_epi16(_mm_and_si128(d, em), inf)));
		if (!_mm_testz_si128(nan, nan)) {
			gguf_dq_f16_ref(s + 2 * i, y + i, 32);
			continue;
		}
		_mm256_storeu_ps(y + i, _mm256_cvtph_ps(a));
		_mm256_storeu_ps(y + i + 8, _mm256_cvtph_ps(b));
		_mm256_storeu_ps(y + i + 16, _mm256_cvtph_ps(c));
		_mm256_storeu_ps(y + i + 24, _mm256_cvtph_ps(d));
	}
	if (i < n)
		gguf_dq_f16_ref(s + 2 * i, y + i, n - i);
}

/* BF16: the upper half of a float. */
AVX2 static void
v_bf16(const uint8_t *restrict s, float *restrict y, uint64_t n)
{
	__m256i		a, b;
	uint64_t	i;
	uint32_t	u;

	for (i = 0; i + 16 <= n; i += 16) {
		a = _mm256_cvtepu16_epi32(_mm_loadu_si128(
		    (const __m128i *)(s + 2 * i)));
		b = _mm256_cvtepu16_epi32(_mm_loadu_si128(
		    (const __m128i *)(s + 2 * i + 16)));
		_mm256_storeu_si256((__m256i *)(y + i),
		    _mm256_slli_epi32(a, 16));
		_mm256_storeu_si256((__m256i *)(y + i + 8),
		    _mm256_slli_epi32(b, 16));
	}
	for (; i < n; i++) {
		u = (uint32_t)ld16(s + 2 * i) << 16;
		memcpy(y + i, &u, sizeof u);
	}
}

/* ------------------------------------------------- 32-element blocks */

/* Q8_0: (float)q * d */
AVX2 static void
v_q8_0(const uint8_t *restrict s, float *restrict y, uint64_t nb)
{
	__m128i		q;
	uint64_t	i;
	float		d;

	for (i = 0; i < nb; i++, s += 34, y += 32) {
		d = half(s);
		q = _mm_loadu_si128((const __m128i *)(s + 2));
		put16_s_d(y, q, d);
		q = _mm_loadu_si128((const __m128i *)(s + 18));
		put16_s_d(y + 16, q, d);
	}
}

/* Q4_0: (float)(nibble - 8) * d, low nibbles first. */
AVX2 static void
v_q4_0(const uint8_t *restrict s, float *restrict y, uint64_t nb)
{
	const __m128i	m4 = _mm_set1_epi8(0x0f), eight = _mm_set1_epi8(8);
	__m128i		q, lo, hi;
	uint64_t	i;
	float		d;

	for (i = 0; i < nb; i++, s += 18, y += 32) {
		d = half(s);
		q = _mm_loadu_si128((const __m128i *)(s + 2));
		lo = _mm_sub_epi8(_mm_and_si128(q, m4), eight);
		hi = _mm_sub_epi8(_mm_and_si128(_mm_srli_epi16(q, 4), m4),
		    eight);
		put16_s_d(y, lo, d);
		put16_s_d(y + 16, hi, d);
	}
}

/*
 * The 4-bit codebook types: each nibble picks a signed byte of the
 * codebook (a byte shuffle does 16 lookups at once), which is then
 * converted and multiplied by the scale, as the portable decoder's
 * scaled table holds scale times codebook value.
 */
AVX2 static inline void
put32_book(float *y, const uint8_t *q, __m128i book, float d)
{
	const __m128i	m4 = _mm_set1_epi8(0x0f);
	__m128i		v = _mm_loadu_si128((const __m128i *)q);

	put16_s_d(y, _mm_shuffle_epi8(book, _mm_and_si128(v, m4)), d);
	put16_s_d(y + 16, _mm_shuffle_epi8(book, _mm_and_si128(
	    _mm_srli_epi16(v, 4), m4)), d);
}

/* IQ4_NL: d * kv[nibble] */
AVX2 static void
v_iq4_nl(const uint8_t *restrict s, float *restrict y, uint64_t nb)
{
	__m128i		book = _mm_loadu_si128((const __m128i *)
			    gguf_kvalues_iq4nl);
	uint64_t	i;

	for (i = 0; i < nb; i++, s += 18, y += 32)
		put32_book(y, s + 2, book, half(s));
}

/* MXFP4: kv[nibble] * (E8M0 scale / 2) */
AVX2 static void
v_mxfp4(const uint8_t *restrict s, float *restrict y, uint64_t nb)
{
	__m128i		book = _mm_loadu_si128((const __m128i *)
			    gguf_kvalues_mxfp4);
	uint64_t	i;

	for (i = 0; i < nb; i++, s += 17, y += 32)
		put32_book(y, s + 1, book, gguf_e8m0_half(s[0]));
}

/* IQ4_XS: (d * (scale - 32)) * kv[nibble], a 6-bit scale per 32. */
AVX2 static void
v_iq4_xs(const uint8_t *restrict s, float *restrict y, uint64_t nb)
{
	__m128i		book = _mm_loadu_si128((const __m128i *)
			    gguf_kvalues_iq4nl);
	uint64_t	i;
	uint32_t	sh;
	float		d;
	int		ib, ls;

	for (i = 0; i < nb; i++, s += 136) {
		d = half(s);
		sh = ld16(s + 2);
		for (ib = 0; ib < 8; ib++, y += 32) {
			ls = ((s[4 + ib / 2] >> (4 * (ib % 2))) & 0xf) |
			    ((sh >> (2 * ib)) & 3) << 4;
			put32_book(y, s + 8 + 16 * ib, book,
			    d * (float)(ls - 32));
		}
	}
}

/* 16 unsigned bytes: (float)q * d + m each. */
AVX2 static inline void
put16_u_da(float *y, __m128i b, float d, float m)
{
	__m256	dv = _mm256_set1_ps(d), mv = _mm256_set1_ps(m);

	_mm256_storeu_ps(y, _mm256_add_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(
	    _mm256_cvtepu8_epi32(b)), dv), mv));
	_mm256_storeu_ps(y + 8, _mm256_add_ps(_mm256_mul_ps(
	    _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_srli_si128(b, 8))),
	    dv), mv));
}

/* Q4_1: (float)nibble * d + m */
AVX2 static void
v_q4_1(const uint8_t *restrict s, float *restrict y, uint64_t nb)
{
	const __m128i	m4 = _mm_set1_epi8(0x0f);
	__m128i		q;
	uint64_t	i;
	float		d, m;

	for (i = 0; i < nb; i++, s += 20, y += 32) {
		d = half(s);
		m = half(s + 2);
		q = _mm_loadu_si128((const __m128i *)(s + 4));
		put16_u_da(y, _mm_and_si128(q, m4), d, m);
		put16_u_da(y + 16, _mm_and_si128(_mm_srli_epi16(q, 4), m4), d,
		    m);
	}
}

/* The 32 fifth bits of Q5_0 and Q5_1 (bit j: element j) as 0 or 16. */
AVX2 static inline __m256i
q5_high(const uint8_t *p)
{
	const __m256i	pick = _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0,
			    1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2,
			    3, 3, 3, 3, 3, 3, 3, 3);
	const __m256i	bit = _mm256_set1_epi64x(
			    (long long)0x8040201008040201ull);
	uint32_t	qh;
	__m256i		v;

	memcpy(&qh, p, sizeof qh);
	v = _mm256_shuffle_epi8(_mm256_set1_epi32((int)qh), pick);
	return _mm256_and_si256(_mm256_cmpeq_epi8(_mm256_and_si256(v, bit),
	    bit), _mm256_set1_epi8(16));
}

/* Q5_0: (float)((nibble | fifth bit) - 16) * d */
AVX2 static void
v_q5_0(const uint8_t *restrict s, float *restrict y, uint64_t nb)
{
	const __m128i	m4 = _mm_set1_epi8(0x0f), b16 = _mm_set1_epi8(16);
	__m128i		q;
	__m256i		h;
	uint64_t	i;
	float		d;

	for (i = 0; i < nb; i++, s += 22, y += 32) {
		d = half(s);
		h = q5_high(s + 2);
		q = _mm_loadu_si128((const __m128i *)(s + 6));
		put16_s_d(y, _mm_sub_epi8(_mm_or_si128(_mm_and_si128(q, m4),
		    _mm256_castsi256_si128(h)), b16), d);
		put16_s_d(y + 16, _mm_sub_epi8(_mm_or_si128(_mm_and_si128(
		    _mm_srli_epi16(q, 4), m4), _mm256_extracti128_si256(h, 1)),
		    b16), d);
	}
}

/* Q5_1: (float)(nibble | fifth bit) * d + m */
AVX2 static void
v_q5_1(const uint8_t *restrict s, float *restrict y, uint64_t nb)
{
	const __m128i	m4 = _mm_set1_epi8(0x0f);
	__m128i		q;
	__m256i		h;
	uint64_t	i;
	float		d, m;

	for (i = 0; i < nb; i++, s += 24, y += 32) {
		d = half(s);
		m = half(s + 2);
		h = q5_high(s + 4);
		q = _mm_loadu_si128((const __m128i *)(s + 8));
		put16_u_da(y, _mm_or_si128(_mm_and_si128(q, m4),
		    _mm256_castsi256_si128(h)), d, m);
		put16_u_da(y + 16, _mm_or_si128(_mm_and_si128(
		    _mm_srli_epi16(q, 4), m4), _mm256_extracti128_si256(h, 1)),
		    d, m);
	}
}

/* ----------------------------------------------------------- K-quants */

/* Q4_K: d1 * (float)nibble - m1 per sub-block of 32. */
AVX2 static void
v_q4_K(const uint8_t *restrict s, float *restrict y, uint64_t nb)
{
	const __m256i	m4 = _mm256_set1_epi8(0x0f);
	const uint8_t	*q;
	__m256i		v;
	uint64_t	i;
	float		d, dmin;
	uint8_t		sc, m;
	int		j;

	for (i = 0; i < nb; i++, s += 144) {
		d = half(s);
		dmin = half(s + 2);
		q = s + 16;
		for (j = 0; j < 8; j += 2, q += 32, y += 64) {
			v = _mm256_loadu_si256((const __m256i *)q);
			gguf_k4_scale_min(s + 4, j, &sc, &m);
			put32_u_dm(y, _mm256_and_si256(v, m4), d * (float)sc,
			    dmin * (float)m);
			gguf_k4_scale_min(s + 4, j + 1, &sc, &m);
			put32_u_dm(y + 32, _mm256_and_si256(
			    _mm256_srli_epi16(v, 4), m4), d * (float)sc,
			    dmin * (float)m);
		}
	}
}

/* Q5_K: as Q4_K, with bit j of the high bytes adding 16 in sub-block j. */
AVX2 static void
v_q5_K(const uint8_t *restrict s, float *restrict y, uint64_t nb)
{
	const __m256i	m4 = _mm256_set1_epi8(0x0f), b16 = _mm256_set1_epi8(16);
	const uint8_t	*q;
	__m256i		v, h, u1, u2, lo, hi;
	uint64_t	i;
	float		d, dmin;
	uint8_t		sc, m;
	int		j;

	for (i = 0; i < nb; i++, s += 176) {
		d = half(s);
		dmin = half(s + 2);
		h = _mm256_loadu_si256((const __m256i *)(s + 16));
		q = s + 48;
		for (j = 0; j < 8; j += 2, q += 32, y += 64) {
			v = _mm256_loadu_si256((const __m256i *)q);
			u1 = _mm256_set1_epi8((char)(1u << j));
			u2 = _mm256_set1_epi8((char)(2u << j));
			lo = _mm256_add_epi8(_mm256_and_si256(v, m4),
			    _mm256_and_si256(_mm256_cmpeq_epi8(
			    _mm256_and_si256(h, u1), u1), b16));
			hi = _mm256_add_epi8(_mm256_and_si256(
			    _mm256_srli_epi16(v, 4), m4),
			    _mm256_and_si256(_mm256_cmpeq_epi8(
			    _mm256_and_si256(h, u2), u2), b16));
			gguf_k4_scale_min(s + 4, j, &sc, &m);
			put32_u_dm(y, lo, d * (float)sc, dmin * (float)m);
			gguf_k4_scale_min(s + 4, j + 1, &sc, &m);
			put32_u_dm(y + 32, hi, d * (float)sc, dmin * (float)m);
		}
	}
}

/*
 * Q6_K: 6-bit quants (4 low bits in ql, 2 high in qh) minus 32, times
 * d * scale, a scale per 16 elements. Of each 128 elements, element l of
 * the four runs of 32 takes: ql[l] low nibble, ql[l + 32] low nibble,
 * ql[l] high nibble, ql[l + 32] high nibble, and bits 0-1, 2-3, 4-5, 6-7
 * of qh[l].
 */
AVX2 static void
v_q6_K(const uint8_t *restrict s, float *restrict y, uint64_t nb)
{
	const __m256i	m4 = _mm256_set1_epi8(0x0f), m30 = _mm256_set1_epi8(0x30);
	const __m256i	b32 = _mm256_set1_epi8(32);
	const uint8_t	*ql, *qh;
	const int8_t	*sc;
	__m256i		l0, l1, h, q[4];
	uint64_t	i;
	float		d;
	int		n, k;

	for (i = 0; i < nb; i++, s += 210) {
		d = half(s + 208);
		ql = s;
		qh = s + 128;
		sc = (const int8_t *)(s + 192);
		for (n = 0; n < 2; n++, ql += 64, qh += 32, sc += 8, y += 128) {
			l0 = _mm256_loadu_si256((const __m256i *)ql);
			l1 = _mm256_loadu_si256((const __m256i *)(ql + 32));
			h = _mm256_loadu_si256((const __m256i *)qh);
			q[0] = _mm256_or_si256(_mm256_and_si256(l0, m4),
			    _mm256_and_si256(_mm256_slli_epi16(h, 4), m30));
			q[1] = _mm256_or_si256(_mm256_and_si256(l1, m4),
			    _mm256_and_si256(_mm256_slli_epi16(h, 2), m30));
			q[2] = _mm256_or_si256(_mm256_and_si256(
			    _mm256_srli_epi16(l0, 4), m4),
			    _mm256_and_si256(h, m30));
			q[3] = _mm256_or_si256(_mm256_and_si256(
			    _mm256_srli_epi16(l1, 4), m4),
			    _mm256_and_si256(_mm256_srli_epi16(h, 2), m30));
			for (k = 0; k < 4; k++) {
				q[k] = _mm256_sub_epi8(q[k], b32);
				put16_s_d(y + 32 * k, _mm256_castsi256_si128(
				    q[k]), d * (float)sc[2 * k]);
				put16_s_d(y + 32 * k + 16,
				    _mm256_extracti128_si256(q[k], 1),
				    d * (float)sc[2 * k + 1]);
			}
		}
	}
}

/*
 * The types whose quants take a few values (2-bit codes, Q3_K's 3 bits,
 * trits): per scale, each possible value is computed once with the portable
 * decoder's operations, and each element picks its own from the table with
 * vpermps, which reads the low 3 bits of a 32-bit index. A table of four
 * values holds them twice, so a 2-bit code shifted into the low bits needs
 * no mask.
 */

/* The 8 bytes at p as 32-bit indices. */
AVX2 static inline __m256i
ld8_idx(const uint8_t *p)
{
	return _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)p));
}

/* Eight floats of table t, picked by the low 3 bits of the lanes of x. */
AVX2 static inline void
put8_tab(float *y, __m256 t, __m256i x)
{
	_mm256_storeu_ps(y, _mm256_permutevar8x32_ps(t, x));
}

/*
 * Q2_K's four values of sub-block i: dl[i] * (float)q - ml[i], q = 0..3
 * (the scales broadcast from memory: loads, not shuffles).
 */
AVX2 static inline __m256
q2_K_tab(const float *dl, const float *ml, int i)
{
	const __m256	k = _mm256_setr_ps(0, 1, 2, 3, 0, 1, 2, 3);

	return _mm256_sub_ps(_mm256_mul_ps(_mm256_broadcast_ss(dl + i), k),
	    _mm256_broadcast_ss(ml + i));
}

/*
 * The four 2-bit codes of 8 bytes (bits 0-1, 2-3, 4-5, 6-7), each from
 * its table, to y, y + 32, y + 64, y + 96: the element order of Q2_K and
 * TQ2_0. The shifts are written out so that they are immediates.
 */
AVX2 static inline void
put8x4_2bit(float *y, const uint8_t *p, __m256 t0, __m256 t1, __m256 t2,
    __m256 t3)
{
	__m256i	x = ld8_idx(p);

	put8_tab(y, t0, x);
	put8_tab(y + 32, t1, _mm256_srli_epi32(x, 2));
	put8_tab(y + 64, t2, _mm256_srli_epi32(x, 4));
	put8_tab(y + 96, t3, _mm256_srli_epi32(x, 6));
}

/*
 * Q2_K: of each 128 elements, the four runs of 32 take bits 0-1, 2-3, 4-5,
 * 6-7 of the same 32 bytes, with a scale and min for each 16.
 */
AVX2 static void
v_q2_K(const uint8_t *restrict s, float *restrict y, uint64_t nb)
{
	const __m128i	m4 = _mm_set1_epi8(0x0f);
	const uint8_t	*q;
	__m256		t0, t1, t2, t3;
	__m128i		sc;
	uint64_t	i;
	float		dl[16], ml[16];
	int		n, h, is;

	for (i = 0; i < nb; i++, s += 84) {
		/* the 16 d * (float)scale and dmin * (float)min at once */
		sc = _mm_loadu_si128((const __m128i *)s);
		put16_s_d(dl, _mm_and_si128(sc, m4), half(s + 80));
		put16_s_d(ml, _mm_and_si128(_mm_srli_epi16(sc, 4), m4),
		    half(s + 82));
		q = s + 16;
		for (n = 0; n < 2; n++, y += 128) {
			/* h: the first or second 16 of each run */
			for (h = 0; h < 2; h++, q += 16) {
				is = 8 * n + h;
				t0 = q2_K_tab(dl, ml, is);
				t1 = q2_K_tab(dl, ml, is + 2);
				t2 = q2_K_tab(dl, ml, is + 4);
				t3 = q2_K_tab(dl, ml, is + 6);
				put8x4_2bit(y + 16 * h, q, t0, t1, t2, t3);
				put8x4_2bit(y + 16 * h + 8, q + 8, t0, t1, t2,
				    t3);
			}
		}
	}
}

/*
 * Q3_K's eight values of sub-block i, dl[i] * (float)v for v = -4..3, at
 * index v + 4: the 2-bit code, plus 4 when the high bit is set.
 */
AVX2 static inline __m256
q3_K_tab(const float *dl, int i)
{
	const __m256	k = _mm256_setr_ps(-4, -3, -2, -1, 0, 1, 2, 3);

	return _mm256_mul_ps(_mm256_broadcast_ss(dl + i), k);
}

/*
 * The 16 signed 6-bit scales of Q3_K from its 12 bytes, as bytes: low
 * nibbles in bytes 0..7 (scales 0..7 low, 8..15 high nibble), and bits
 * 2(i / 4), 2(i / 4) + 1 of byte 8 + i % 4 on top, minus 32.
 */
AVX2 static inline __m128i
q3_K_scales(const uint8_t *p)
{
	const __m128i	m4 = _mm_set1_epi8(0x0f), m3 = _mm_set1_epi8(3);
	__m128i		lo = _mm_loadl_epi64((const __m128i *)p), hi;
	uint32_t	w;

	memcpy(&w, p + 8, sizeof w);
	lo = _mm_unpacklo_epi64(_mm_and_si128(lo, m4),
	    _mm_and_si128(_mm_srli_epi16(lo, 4), m4));
	hi = _mm_and_si128(_mm_srlv_epi32(_mm_set1_epi32((int)w),
	    _mm_setr_epi32(0, 2, 4, 6)), m3);
	return _mm_sub_epi8(_mm_or_si128(lo, _mm_slli_epi16(hi, 4)),
	    _mm_set1_epi8(32));
}

/*
 * Eight elements of each of the four runs of a Q3_K half: code bits 2j,
 * 2j + 1 of x and high bit j of h (h already shifted down by 4 for the
 * second half), moved to index bits 0-1 and 2.
 */
AVX2 static inline void
q3_K_put8x4(float *y, __m256i x, __m256i h, __m256 t0, __m256 t1,
    __m256 t2, __m256 t3)
{
	const __m256i	m3 = _mm256_set1_epi32(3), m4 = _mm256_set1_epi32(4);

	put8_tab(y, t0, _mm256_or_si256(_mm256_and_si256(x, m3),
	    _mm256_and_si256(_mm256_slli_epi32(h, 2), m4)));
	put8_tab(y + 32, t1, _mm256_or_si256(_mm256_and_si256(
	    _mm256_srli_epi32(x, 2), m3),
	    _mm256_and_si256(_mm256_slli_epi32(h, 1), m4)));
	put8_tab(y + 64, t2, _mm256_or_si256(_mm256_and_si256(
	    _mm256_srli_epi32(x, 4), m3), _mm256_and_si256(h, m4)));
	put8_tab(y + 96, t3, _mm256_or_si256(_mm256_srli_epi32(x, 6),
	    _mm256_and_si256(_mm256_srli_epi32(h, 1), m4)));
}

/*
 * Q3_K: as Q2_K, with a high bit per element (bit 4n + j of hm[l] for
 * element l of run j of half n) that takes 4 off when clear, and a signed
 * scale per 16 elements: dl * (float)v.
 */
AVX2 static void
v_q3_K(const uint8_t *restrict s, float *restrict y, uint64_t nb)
{
	const uint8_t	*q;
	__m256i		h[4];
	__m256		t0, t1, t2, t3;
	uint64_t	i;
	float		dl[16];
	int		n, c, hf, is;

	for (i = 0; i < nb; i++, s += 110) {
		/* the 16 d * (float)scale at once */
		put16_s_d(dl, q3_K_scales(s + 96), half(s + 108));
		for (c = 0; c < 4; c++)
			h[c] = ld8_idx(s + 8 * c);
		q = s + 32;
		for (n = 0; n < 2; n++, y += 128) {
			/* hf: the first or second 16 of each run */
			for (hf = 0; hf < 2; hf++) {
				is = 8 * n + hf;
				t0 = q3_K_tab(dl, is);
				t1 = q3_K_tab(dl, is + 2);
				t2 = q3_K_tab(dl, is + 4);
				t3 = q3_K_tab(dl, is + 6);
				for (c = 2 * hf; c < 2 * hf + 2; c++, q += 8) {
					q3_K_put8x4(y + 8 * c, ld8_idx(q),
					    h[c], t0, t1, t2, t3);
					h[c] = _mm256_srli_epi32(h[c], 4);
				}
			}
		}
	}
}

/*
 * Q8_K: d * (float)q, d a float. Each 8 bytes are widened as they are
 * loaded (one instruction, no shuffle to reach the upper ones).
 */
AVX2 static void
v_q8_K(const uint8_t *restrict s, float *restrict y, uint64_t nb)
{
	__m256		d;
	uint64_t	i;
	float		f;
	int		j;

	for (i = 0; i < nb; i++, s += 292) {
		memcpy(&f, s, sizeof f);
		d = _mm256_set1_ps(f);
		for (j = 4; j < 260; j += 16, y += 16) {
			put8_s_d(y, _mm_loadl_epi64((const __m128i *)(s + j)),
			    d);
			put8_s_d(y + 8, _mm_loadl_epi64((const __m128i *)(s +
			    j + 8)), d);
		}
	}
}

/* ------------------------------------------------------- ternary types */

/*
 * TQ1_0's trits, in 32-bit lanes: a byte q is a fixed-point fraction,
 * 3q >> 8 its top trit and 3q mod 256 the fraction of the next, so one
 * tripling gives both (the portable decoder multiplies the byte by 3^n
 * mod 256 instead: the same fraction). The table holds (float)(k - 1) * d.
 */
AVX2 static inline __m256i
tq1_next(float *y, __m256i q, __m256 t)
{
	__m256i	q3 = _mm256_add_epi32(q, _mm256_add_epi32(q, q));

	put8_tab(y, t, _mm256_srli_epi32(q3, 8));
	return _mm256_and_si256(q3, _mm256_set1_epi32(0xff));
}

/* The five trits of 8 bytes, to y, y + stride, ... y + 4 * stride. */
AVX2 static inline void
tq1_put8x5(float *y, const uint8_t *p, int stride, __m256 t)
{
	__m256i	q = ld8_idx(p);

	q = tq1_next(y, q, t);
	q = tq1_next(y + stride, q, t);
	q = tq1_next(y + 2 * stride, q, t);
	q = tq1_next(y + 3 * stride, q, t);
	(void)tq1_next(y + 4 * stride, q, t);
}

/*
 * TQ1_0: 32 bytes of 5 trits (element 32n + m: trit n of byte m), 16 more
 * (160 + 16n + m), then 4 of 4 trits (240 + 4n + m). Of the last four
 * bytes, trits 0 and 1 are one vector (the bytes in lanes 0-3, the bytes
 * times 3 mod 256 in lanes 4-7), trits 2 and 3 another.
 */
AVX2 static void
v_tq1_0(const uint8_t *restrict s, float *restrict y, uint64_t nb)
{
	const __m256	k = _mm256_setr_ps(-1, 0, 1, 0, 0, 0, 0, 0);
	const __m256i	m8 = _mm256_set1_epi32(0xff);
	__m256		t;
	__m256i		q, q3;
	uint64_t	i;
	uint32_t	w;

	for (i = 0; i < nb; i++, s += 54, y += 256) {
		t = _mm256_mul_ps(k, _mm256_set1_ps(half(s + 52)));
		tq1_put8x5(y, s, 32, t);
		tq1_put8x5(y + 8, s + 8, 32, t);
		tq1_put8x5(y + 16, s + 16, 32, t);
		tq1_put8x5(y + 24, s + 24, 32, t);
		tq1_put8x5(y + 160, s + 32, 16, t);
		tq1_put8x5(y + 168, s + 40, 16, t);
		memcpy(&w, s + 48, sizeof w);
		q = _mm256_cvtepu8_epi32(_mm_set1_epi32((int)w));
		q = _mm256_blend_epi32(q, _mm256_and_si256(_mm256_add_epi32(q,
		    _mm256_add_epi32(q, q)), m8), 0xf0);
		q3 = _mm256_add_epi32(q, _mm256_add_epi32(q, q));
		put8_tab(y + 240, t, _mm256_srli_epi32(q3, 8));
		/* times 9 and 27 mod 256 */
		q = _mm256_and_si256(_mm256_add_epi32(q3, _mm256_add_epi32(q3,
		    q3)), m8);
		q3 = _mm256_add_epi32(q, _mm256_add_epi32(q, q));
		put8_tab(y + 248, t, _mm256_srli_epi32(q3, 8));
	}
}

/*
 * TQ2_0: (float)(q - 1) * d; of each 128 elements, the four runs of 32
 * take bits 0-1, 2-3, 4-5, 6-7 of the same 32 bytes.
 */
AVX2 static void
v_tq2_0(const uint8_t *restrict s, float *restrict y, uint64_t nb)
{
	const __m256	k = _mm256_setr_ps(-1, 0, 1, 2, -1, 0, 1, 2);
	__m256		t;
	uint64_t	i;
	int		c;

	for (i = 0; i < nb; i++, s += 66, y += 256) {
		t = _mm256_mul_ps(k, _mm256_set1_ps(half(s + 64)));
		for (c = 0; c < 8; c++)
			put8x4_2bit(y + 128 * (c / 4) + 8 * (c % 4), s + 8 * c,
			    t, t, t, t);
	}
}

/* ------------------------------------------------------------ i-quants */

/*
 * IQ2_XXS and IQ3_XXS keep, per 32 elements, a u32 of four groups of 7
 * sign bits (bits 0-27) and a 4-bit scale (bits 28-31). The eight of a
 * block are decoded together: the eight db = d * (0.5f + (float)scale) *
 * f, in the portable decoder's order, and the eight sign words, each
 * group spread to a byte and completed with its even parity in bit 7
 * (the folds stay inside each byte), as gguf_iq_signs does one at a time.
 */
AVX2 static inline void
iq_xxs_aux(__m256i aux, float d, float f, float *db, uint32_t *sw)
{
	const __m256i	m7 = _mm256_set1_epi32(0x7f);
	__m256		x = _mm256_cvtepi32_ps(_mm256_srli_epi32(aux, 28));
	__m256i		w, p;

	_mm256_storeu_ps(db, _mm256_mul_ps(_mm256_mul_ps(_mm256_set1_ps(d),
	    _mm256_add_ps(_mm256_set1_ps(0.5f), x)), _mm256_set1_ps(f)));
	w = _mm256_or_si256(
	    _mm256_or_si256(_mm256_and_si256(aux, m7),
	    _mm256_and_si256(_mm256_slli_epi32(aux, 1), _mm256_slli_epi32(m7,
	    8))),
	    _mm256_or_si256(_mm256_and_si256(_mm256_slli_epi32(aux, 2),
	    _mm256_slli_epi32(m7, 16)), _mm256_and_si256(_mm256_slli_epi32(aux,
	    3), _mm256_slli_epi32(m7, 24))));
	p = _mm256_xor_si256(w, _mm256_srli_epi32(w, 4));
	p = _mm256_xor_si256(p, _mm256_srli_epi32(p, 2));
	p = _mm256_xor_si256(p, _mm256_srli_epi32(p, 1));
	w = _mm256_or_si256(w, _mm256_slli_epi32(_mm256_and_si256(p,
	    _mm256_set1_epi32(0x01010101)), 7));
	_mm256_storeu_si256((__m256i *)sw, w);
}

/*
 * Eight elements of an i-quant: db * g for the 8 grid floats g (the
 * portable decoder's table), the sign bit flipped where bit j of byte l
 * of lane j of w is set (the portable decoder flips it too; ggml
 * multiplies by -1: the same). A shift per lane brings that bit to the
 * sign bit; l is a constant wherever this is inlined, and so the shifts.
 */
AVX2 static inline void
put8_grid(float *y, __m256 g, __m256 db, __m256i w, int l)
{
	const __m256i	up = _mm256_setr_epi32(31, 30, 29, 28, 27, 26, 25, 24);
	const __m256i	sign = _mm256_set1_epi32((int)0x80000000u);
	__m256i		m;

	m = _mm256_and_si256(_mm256_sllv_epi32(w, _mm256_sub_epi32(up,
	    _mm256_set1_epi32(8 * l))), sign);
	_mm256_storeu_ps(y, _mm256_xor_ps(_mm256_mul_ps(db, g),
	    _mm256_castsi256_ps(m)));
}

/*
 * IQ2_XXS: half d; per 32 elements 4 grid bytes and the u32 of signs and
 * scale (the odd u32 of the 64 bytes after d).
 */
AVX2 static void
v_iq2_xxs(const uint8_t *restrict s, float *restrict y, uint64_t nb)
{
	const float	*grid = gguf_dq_grid(GGUF_T_IQ2_XXS);
	const uint8_t	*q;
	__m256		db;
	__m256i		w, a, b;
	uint64_t	i;
	uint32_t	sw[8];
	float		dbs[8];
	int		ib;

	for (i = 0; i < nb; i++, s += 66) {
		a = _mm256_loadu_si256((const __m256i *)(s + 2));
		b = _mm256_loadu_si256((const __m256i *)(s + 34));
		/* u32 1, 3 of a, 1, 3 of b, 5, 7 of a, 5, 7 of b: reorder */
		a = _mm256_castps_si256(_mm256_shuffle_ps(_mm256_castsi256_ps(a),
		    _mm256_castsi256_ps(b), _MM_SHUFFLE(3, 1, 3, 1)));
		iq_xxs_aux(_mm256_permute4x64_epi64(a, _MM_SHUFFLE(3, 1, 2, 0)),
		    half(s), 0.25f, dbs, sw);
		for (ib = 0, q = s + 2; ib < 8; ib++, q += 8, y += 32) {
			db = _mm256_broadcast_ss(dbs + ib);
			w = _mm256_set1_epi32((int)sw[ib]);
			put8_grid(y, _mm256_loadu_ps(grid + 8 * q[0]), db, w, 0);
			put8_grid(y + 8, _mm256_loadu_ps(grid + 8 * q[1]), db, w,
			    1);
			put8_grid(y + 16, _mm256_loadu_ps(grid + 8 * q[2]), db, w,
			    2);
			put8_grid(y + 24, _mm256_loadu_ps(grid + 8 * q[3]), db, w,
			    3);
		}
	}
}

/* Two 4-float entries of an IQ3 grid, for grid bytes q[0], q[1]. */
AVX2 static inline __m256
iq3_grid2(const float *grid, const uint8_t *q)
{
	return _mm256_loadu2_m128(grid + 4 * q[1], grid + 4 * q[0]);
}

/*
 * IQ3_XXS: half d, 64 grid bytes (a 4-float entry each, two to 8
 * elements), then the eight u32 of signs and scales.
 */
AVX2 static void
v_iq3_xxs(const uint8_t *restrict s, float *restrict y, uint64_t nb)
{
	const float	*grid = gguf_dq_grid(GGUF_T_IQ3_XXS);
	const uint8_t	*q;
	__m256		db;
	__m256i		w;
	uint64_t	i;
	uint32_t	sw[8];
	float		dbs[8];
	int		ib;

	for (i = 0; i < nb; i++, s += 98) {
		iq_xxs_aux(_mm256_loadu_si256((const __m256i *)(s + 66)),
		    half(s), 0.5f, dbs, sw);
		for (ib = 0, q = s + 2; ib < 8; ib++, q += 8, y += 32) {
			db = _mm256_broadcast_ss(dbs + ib);
			w = _mm256_set1_epi32((int)sw[ib]);
			put8_grid(y, iq3_grid2(grid, q), db, w, 0);
			put8_grid(y + 8, iq3_grid2(grid, q + 2), db, w, 1);
			put8_grid(y + 16, iq3_grid2(grid, q + 4), db, w, 2);
			put8_grid(y + 24, iq3_grid2(grid, q + 6), db, w, 3);
		}
	}
}

/*
 * The 16 db of IQ2_XS and IQ2_S, d * (0.5f + (float)nibble) * 0.25f in
 * the portable decoder's order, from the 8 scale bytes at p, low nibble
 * first (the first and second 16 elements of each 32).
 */
AVX2 static inline void
iq2_db16(const uint8_t *p, float d, float *db)
{
	const __m128i	m4 = _mm_set1_epi8(0x0f);
	const __m256	dv = _mm256_set1_ps(d), half1 = _mm256_set1_ps(0.5f);
	const __m256	quarter = _mm256_set1_ps(0.25f);
	__m128i		v = _mm_loadl_epi64((const __m128i *)p), n;
	__m256		x;

	n = _mm_unpacklo_epi8(_mm_and_si128(v, m4),
	    _mm_and_si128(_mm_srli_epi16(v, 4), m4));
	x = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(n));
	_mm256_storeu_ps(db, _mm256_mul_ps(_mm256_mul_ps(dv,
	    _mm256_add_ps(half1, x)), quarter));
	x = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_srli_si128(n, 8)));
	_mm256_storeu_ps(db + 8, _mm256_mul_ps(_mm256_mul_ps(dv,
	    _mm256_add_ps(half1, x)), quarter));
}

/*
 * The sign bytes of 16 IQ2_XS u16 (their top 7 bits, completed with the
 * even parity in bit 7 by folds that stay inside the byte), one per
 * 16-bit lane.
 */
AVX2 static inline __m256i
iq2_xs_signs16(__m256i v)
{
	__m256i	p;

	v = _mm256_srli_epi16(v, 9);
	p = _mm256_xor_si256(v, _mm256_srli_epi16(v, 4));
	p = _mm256_xor_si256(p, _mm256_srli_epi16(p, 2));
	p = _mm256_xor_si256(p, _mm256_srli_epi16(p, 1));
	return _mm256_or_si256(v, _mm256_slli_epi16(_mm256_and_si256(p,
	    _mm256_set1_epi16(1)), 7));
}

/* IQ2_XS: half d, 32 u16 (9-bit grid index, 7 sign bits), 8 scale bytes. */
AVX2 static void
v_iq2_xs(const uint8_t *restrict s, float *restrict y, uint64_t nb)
{
	const float	*grid = gguf_dq_grid(GGUF_T_IQ2_XS);
	const uint8_t	*q;
	__m256		db0, db1;
	__m256i		w, a, b;
	uint64_t	i;
	uint32_t	sw[8];
	float		dbs[16];
	int		ib;

	for (i = 0; i < nb; i++, s += 74) {
		iq2_db16(s + 66, half(s), dbs);
		/* the 32 sign bytes in order (a pack interleaves 8s) */
		a = iq2_xs_signs16(_mm256_loadu_si256((const __m256i *)(s + 2)));
		b = iq2_xs_signs16(_mm256_loadu_si256((const __m256i *)
		    (s + 34)));
		_mm256_storeu_si256((__m256i *)sw, _mm256_permute4x64_epi64(
		    _mm256_packus_epi16(a, b), _MM_SHUFFLE(3, 1, 2, 0)));
		for (ib = 0, q = s + 2; ib < 8; ib++, q += 8, y += 32) {
			db0 = _mm256_broadcast_ss(dbs + 2 * ib);
			db1 = _mm256_broadcast_ss(dbs + 2 * ib + 1);
			w = _mm256_set1_epi32((int)sw[ib]);
			put8_grid(y, _mm256_loadu_ps(grid + 8 * (ld16(q) & 511)),
			    db0, w, 0);
			put8_grid(y + 8, _mm256_loadu_ps(grid + 8 *
			    (ld16(q + 2) & 511)), db0, w, 1);
			put8_grid(y + 16, _mm256_loadu_ps(grid + 8 *
			    (ld16(q + 4) & 511)), db1, w, 2);
			put8_grid(y + 24, _mm256_loadu_ps(grid + 8 *
			    (ld16(q + 6) & 511)), db1, w, 3);
		}
	}
}

/*
 * IQ2_S: half d, 32 grid bytes, 32 sign bytes (taken as they are), 8
 * bytes of 2-bit index extensions, 8 scale bytes.
 */
AVX2 static void
v_iq2_s(const uint8_t *restrict s, float *restrict y, uint64_t nb)
{
	const float	*grid = gguf_dq_grid(GGUF_T_IQ2_S);
	const uint8_t	*qs;
	__m256		db0, db1;
	__m256i		w;
	uint64_t	i;
	uint32_t	u, h;
	float		dbs[16];
	int		ib;

	for (i = 0; i < nb; i++, s += 82) {
		iq2_db16(s + 74, half(s), dbs);
		for (ib = 0, qs = s + 2; ib < 8; ib++, qs += 4, y += 32) {
			db0 = _mm256_broadcast_ss(dbs + 2 * ib);
			db1 = _mm256_broadcast_ss(dbs + 2 * ib + 1);
			memcpy(&u, s + 34 + 4 * ib, sizeof u);
			w = _mm256_set1_epi32((int)u);
			h = s[66 + ib];
			put8_grid(y, _mm256_loadu_ps(grid + 8 * (qs[0] |
			    ((h << 8) & 0x300))), db0, w, 0);
			put8_grid(y + 8, _mm256_loadu_ps(grid + 8 * (qs[1] |
			    ((h << 6) & 0x300))), db0, w, 1);
			put8_grid(y + 16, _mm256_loadu_ps(grid + 8 * (qs[2] |
			    ((h << 4) & 0x300))), db1, w, 2);
			put8_grid(y + 24, _mm256_loadu_ps(grid + 8 * (qs[3] |
			    ((h << 2) & 0x300))), db1, w, 3);
		}
	}
}

/*
 * IQ3_S: half d, 64 grid bytes, 8 bytes of ninth index bits, 32 sign
 * bytes (taken as they are), 4 bytes of 4-bit scales: db = d * (float)(1 +
 * 2 * nibble), the eight of a block at once.
 */
AVX2 static void
v_iq3_s(const uint8_t *restrict s, float *restrict y, uint64_t nb)
{
	const __m128i	m4 = _mm_set1_epi8(0x0f);
	const float	*grid = gguf_dq_grid(GGUF_T_IQ3_S);
	const uint8_t	*qs;
	__m256		db;
	__m256i		w, n;
	__m128i		v;
	uint64_t	i;
	uint32_t	u, h;
	float		dbs[8];
	int		ib;

	for (i = 0; i < nb; i++, s += 110) {
		memcpy(&u, s + 106, sizeof u);
		v = _mm_cvtsi32_si128((int)u);
		n = _mm256_cvtepu8_epi32(_mm_unpacklo_epi8(_mm_and_si128(v, m4),
		    _mm_and_si128(_mm_srli_epi16(v, 4), m4)));
		n = _mm256_add_epi32(_mm256_slli_epi32(n, 1),
		    _mm256_set1_epi32(1));
		_mm256_storeu_ps(dbs, _mm256_mul_ps(_mm256_set1_ps(half(s)),
		    _mm256_cvtepi32_ps(n)));
		for (ib = 0, qs = s + 2; ib < 8; ib++, qs += 8, y += 32) {
			db = _mm256_broadcast_ss(dbs + ib);
			memcpy(&u, s + 74 + 4 * ib, sizeof u);
			w = _mm256_set1_epi32((int)u);
			h = s[66 + ib];
			put8_grid(y, _mm256_loadu2_m128(grid + 4 * (qs[1] |
			    ((h << 7) & 256)), grid + 4 * (qs[0] |
			    ((h << 8) & 256))), db, w, 0);
			put8_grid(y + 8, _mm256_loadu2_m128(grid + 4 * (qs[3] |
			    ((h << 5) & 256)), grid + 4 * (qs[2] |
			    ((h << 6) & 256))), db, w, 1);
			put8_grid(y + 16, _mm256_loadu2_m128(grid + 4 * (qs[5] |
			    ((h << 3) & 256)), grid + 4 * (qs[4] |
			    ((h << 4) & 256))), db, w, 2);
			put8_grid(y + 24, _mm256_loadu2_m128(grid + 4 * (qs[7] |
			    ((h << 1) & 256)), grid + 4 * (qs[6] |
			    ((h << 2) & 256))), db, w, 3);
		}
	}
}

/*
 * Eight elements of IQ1_S or IQ1_M: dl * (g + delta) for the 8 grid
 * floats g (-1, 0, 1), in that association.
 */
AVX2 static inline void
put8_iq1(float *y, const float *g, __m256 dl, __m256 delta)
{
	_mm256_storeu_ps(y, _mm256_mul_ps(dl, _mm256_add_ps(_mm256_loadu_ps(g),
	    delta)));
}

/* The delta of IQ1_S and IQ1_M, by its sign bit (broadcast from here). */
static const float	iq1_delta[2] = { 0.125f, -0.125f };

/*
 * IQ1_S: half d, 32 grid bytes, 8 u16 (3-bit scale, delta sign, 4x3 high
 * index bits); the eight dl = d * (float)(2 * scale + 1) at once.
 */
AVX2 static void
v_iq1_s(const uint8_t *restrict s, float *restrict y, uint64_t nb)
{
	const float	*grid = gguf_dq_grid(GGUF_T_IQ1_S);
	const uint8_t	*qs;
	__m256		dl, delta;
	__m256i		n;
	uint64_t	i;
	uint32_t	qh;
	float		dls[8];
	int		ib;

	for (i = 0; i < nb; i++, s += 50) {
		n = _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)
		    (s + 34)));
		n = _mm256_and_si256(_mm256_srli_epi32(n, 12),
		    _mm256_set1_epi32(7));
		n = _mm256_add_epi32(_mm256_slli_epi32(n, 1),
		    _mm256_set1_epi32(1));
		_mm256_storeu_ps(dls, _mm256_mul_ps(_mm256_set1_ps(half(s)),
		    _mm256_cvtepi32_ps(n)));
		for (ib = 0, qs = s + 2; ib < 8; ib++, qs += 4, y += 32) {
			qh = ld16(s + 34 + 2 * ib);
			dl = _mm256_broadcast_ss(dls + ib);
			delta = _mm256_broadcast_ss(iq1_delta + (qh >> 15));
			put8_iq1(y, grid + 8 * (qs[0] | (qh & 7) << 8), dl,
			    delta);
			put8_iq1(y + 8, grid + 8 * (qs[1] | ((qh >> 3) & 7) << 8),
			    dl, delta);
			put8_iq1(y + 16, grid + 8 * (qs[2] | ((qh >> 6) & 7) <<
			    8), dl, delta);
			put8_iq1(y + 24, grid + 8 * (qs[3] | ((qh >> 9) & 7) <<
			    8), dl, delta);
		}
	}
}

/* One IQ1_M group of 8: h is its nibble (3 index bits, delta sign). */
AVX2 static inline void
iq1_m_put8(float *y, const float *grid, uint8_t q, uint32_t h, __m256 dl)
{
	put8_iq1(y, grid + 8 * (q | (h & 7) << 8), dl,
	    _mm256_broadcast_ss(iq1_delta + ((h >> 3) & 1)));
}

/*
 * IQ1_M: 32 grid bytes, 16 bytes of (3 index bits, delta sign) nibbles,
 * 4 u16 of four 3-bit scales each (scale m: u16 m / 4, bits 3(m % 4)),
 * their top nibbles making the half d (only ever multiplied: F16C may
 * widen it); the sixteen dl = d * (float)(2 * scale + 1) at once.
 */
AVX2 static void
v_iq1_m(const uint8_t *restrict s, float *restrict y, uint64_t nb)
{
	const __m256i	sh = _mm256_setr_epi32(0, 3, 6, 9, 0, 3, 6, 9);
	const __m256i	m7 = _mm256_set1_epi32(7), one = _mm256_set1_epi32(1);
	const float	*grid = gguf_dq_grid(GGUF_T_IQ1_M);
	const uint8_t	*qs;
	__m256		d, dl0, dl1;
	__m256i		v, n;
	uint64_t	i;
	uint32_t	h;
	float		dls[16];
	int		ib;

	for (i = 0; i < nb; i++, s += 56) {
		d = _mm256_set1_ps(_cvtsh_ss((uint16_t)((ld16(s + 48) >> 12) |
		    ((ld16(s + 50) >> 8) & 0x00f0) |
		    ((ld16(s + 52) >> 4) & 0x0f00) | (ld16(s + 54) & 0xf000))));
		v = _mm256_cvtepu16_epi32(_mm_loadl_epi64((const __m128i *)
		    (s + 48)));
		n = _mm256_and_si256(_mm256_srlv_epi32(
		    _mm256_permutevar8x32_epi32(v, _mm256_setr_epi32(0, 0, 0, 0,
		    1, 1, 1, 1)), sh), m7);
		_mm256_storeu_ps(dls, _mm256_mul_ps(d, _mm256_cvtepi32_ps(
		    _mm256_add_epi32(_mm256_slli_epi32(n, 1), one))));
		n = _mm256_and_si256(_mm256_srlv_epi32(
		    _mm256_permutevar8x32_epi32(v, _mm256_setr_epi32(2, 2, 2, 2,
		    3, 3, 3, 3)), sh), m7);
		_mm256_storeu_ps(dls + 8, _mm256_mul_ps(d, _mm256_cvtepi32_ps(
		    _mm256_add_epi32(_mm256_slli_epi32(n, 1), one))));
		for (ib = 0, qs = s; ib < 8; ib++, qs += 4, y += 32) {
			h = ld16(s + 32 + 2 * ib);
			dl0 = _mm256_broadcast_ss(dls + 2 * ib);
			dl1 = _mm256_broadcast_ss(dls + 2 * ib + 1);
			iq1_m_put8(y, grid, qs[0], h, dl0);
			iq1_m_put8(y + 8, grid, qs[1], h >> 4, dl0);
			iq1_m_put8(y + 16, grid, qs[2], h >> 8, dl1);
			iq1_m_put8(y + 24, grid, qs[3], h >> 12, dl1);
		}
	}
}

/* AVX2 (the operating system saving the registers) and F16C. */
static int
have_avx2_f16c(void)
{
	return gguf_cpu_avx2() && gguf_cpu_f16c();
}

gguf_dq_fn *
gguf_dq_vec(uint32_t type, const char **isa)
{
	gguf_dq_fn	*fn = NULL;

	if (!have_avx2_f16c())
		return NULL;
	switch (type) {
	case GGUF_T_F16:	fn = v_f16; break;
	case GGUF_T_BF16:	fn = v_bf16; break;
	case GGUF_T_Q8_0:	fn = v_q8_0; break;
	case GGUF_T_Q4_0:	fn = v_q4_0; break;
	case GGUF_T_Q4_1:	fn = v_q4_1; break;
	case GGUF_T_Q5_0:	fn = v_q5_0; break;
	case GGUF_T_Q5_1:	fn = v_q5_1; break;
	case GGUF_T_Q2_K:	fn = v_q2_K; break;
	case GGUF_T_Q3_K:	fn = v_q3_K; break;
	case GGUF_T_Q4_K:	fn = v_q4_K; break;
	case GGUF_T_Q5_K:	fn = v_q5_K; break;
	case GGUF_T_Q6_K:	fn = v_q6_K; break;
	case GGUF_T_Q8_K:	fn = v_q8_K; break;
	case GGUF_T_IQ2_XXS:	fn = v_iq2_xxs; break;
	case GGUF_T_IQ2_XS:	fn = v_iq2_xs; break;
	case GGUF_T_IQ2_S:	fn = v_iq2_s; break;
	case GGUF_T_IQ3_XXS:	fn = v_iq3_xxs; break;
	case GGUF_T_IQ3_S:	fn = v_iq3_s; break;
	case GGUF_T_IQ1_S:	fn = v_iq1_s; break;
	case GGUF_T_IQ1_M:	fn = v_iq1_m; break;
	case GGUF_T_IQ4_NL:	fn = v_iq4_nl; break;
	case GGUF_T_IQ4_XS:	fn = v_iq4_xs; break;
	case GGUF_T_MXFP4:	fn = v_mxfp4; break;
	case GGUF_T_TQ1_0:	fn = v_tq1_0; break;
	case GGUF_T_TQ2_0:	fn = v_tq2_0; break;
	default:		return NULL;
	}
	if (isa != NULL)
		*isa = "avx2";
	return fn;
}

#else /* not x86-64 with GCC or clang */

gguf_dq_fn *
gguf_dq_vec(uint32_t type, const char **isa)
{
	(void)type;
	(void)isa;
	return NULL;
}

#endif
