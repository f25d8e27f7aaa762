/*
 * dequant.c - one decoder per ggml tensor type, dispatched through one table
 * indexed by type id.
 *
 * Exactness. ggml's conversions are plain float32 arithmetic: a block scale
 * (an IEEE half, bfloat, E8M0 or UE4M3 byte) widened to float, then a few
 * multiplications and additions per element. Each decoder below performs
 * the same operations on the same operands in the same order, so with
 * IEEE float32 arithmetic and no contraction (the build passes
 * -ffp-contract=off and never -ffast-math) the results are the same bits.
 * Where the order matters it is written out: Q6_K is (d * scale) * q, Q2_K
 * is (dl * q) - ml, the i-quants multiply the magnitude before the sign.
 * Widening a half or a bfloat is exact, so any correct conversion will do.
 *
 * Layout. A decoder takes n whole blocks and writes n * blck floats. Range
 * decoding (gguf_dequant) decodes a partial first and last block into a
 * small buffer and the whole blocks in between straight into the output, so
 * it touches exactly the blocks that hold the range.
 *
 * Speed. Inner loops run over fixed counts, on restrict pointers, so that
 * the compiler turns them into vector code. What does not vectorise as
 * written is rearranged without changing the arithmetic: grids, sign
 * masks and 2-bit codes are looked up as floats and bit masks built once
 * (the sign is a flip of the sign bit, as multiplying by -1 is), fifth bits
 * are spread by table, the 4-bit codebooks are scaled once per block and
 * then looked up, and a half is widened without branches. Where the
 * toolchain allows, each decoder is also compiled for AVX2 (below). For
 * the most used types, dequant_x86.c has decoders written with AVX2 and
 * F16C that give the same bits; they are picked at run time, and these
 * stay the reference (gguf_dequant_ref).
 *
 * Byte order. Plain types have big-endian decoders; quantized types do not
 * (their fields have no defined big-endian layout), and gguf_dequant_check
 * refuses them.
 */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "gguf.h"
#include "internal.h"
#include "dequant.h"
#include "dequant_grids.h"
#include "dequant_vec.h"

/*
 * Where the toolchain can, every decoder is compiled twice, for the x86-64
 * baseline and for AVX2, and the loader picks the one the CPU runs: the
 * same operations in wider registers (AVX2 without FMA, and contraction is
 * off), so the same bits.
 */
#if defined(HAVE_TARGET_CLONES)
#define DQ_CLONES	__attribute__((target_clones("avx2", "default")))
#else
#define DQ_CLONES
#endif

typedef void	dq_fn(const uint8_t *, float *, uint64_t);
typedef void	dq64_fn(const uint8_t *, double *, uint64_t);
typedef void	bv_fn(const uint8_t *, struct gguf_blockview *);

struct dq_type {
	dq_fn		*le;		/* n blocks of little-endian data */
	dq_fn		*be;		/* plain types: big-endian data */
	dq64_fn		*le64;		/* plain types: straight to double */
	dq64_fn		*be64;
	bv_fn		*view;		/* quantized types: block fields */
};

/* ------------------------------------------------------- scalar helpers */

/* Little-endian loads; plain loads on a little-endian host vectorise. */
static inline uint16_t
ld16(const uint8_t *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint16_t	v;

	memcpy(&v, p, sizeof v);
	return v;
#else
	return gguf_ld16(p, 0);
#endif
}

static inline uint32_t
ld32(const uint8_t *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint32_t	v;

	memcpy(&v, p, sizeof v);
	return v;
#else
	return gguf_ld32(p, 0);
#endif
}

static inline float
bits_f(uint32_t u)
{
	float	f;

	memcpy(&f, &u, sizeof f);
	return f;
}

static inline uint32_t
f_bits(float f)
{
	uint32_t	u;

	memcpy(&u, &f, sizeof u);
	return u;
}

static inline double
bits_d(uint64_t u)
{
	double	d;

	memcpy(&d, &u, sizeof d);
	return d;
}

/*
 * IEEE half to float, exactly. Normal numbers move their exponent from
 * bias 15 to bias 127; subnormals are their 10-bit integer times 2^-24
 * (exact in float); infinities and NaNs keep their payload. All three are
 * computed and one is picked with masks: no branch, no arithmetic on
 * subnormal floats, so that loops over it vectorise and stay fast.
 */
static inline float
h2f(uint32_t h)
{
	uint32_t	em = h & 0x7fffu;
	uint32_t	sign = (h & 0x8000u) << 16;
	uint32_t	norm = (em << 13) + 0x38000000u;
	uint32_t	infnan = (em << 13) | 0x7f800000u;
	uint32_t	sub = f_bits((float)(int32_t)em * 0x1p-24f);
	uint32_t	is_sub = -(uint32_t)(em < 0x0400u);
	uint32_t	is_inf = -(uint32_t)(em >= 0x7c00u);
	uint32_t	bits;

	bits = (sub & is_sub) | (norm & ~is_sub);
	bits = (infnan & is_inf) | (bits & ~is_inf);
	return bits_f(bits | sign);
}

/*
 * The same for a single value, such as a block scale: normal numbers (the
 * usual case) take a short path with a branch that is almost always taken
 * the same way.
 */
static inline float
h2f_one(uint32_t h)
{
	uint32_t	em = h & 0x7fffu;

	if (em - 0x0400u < 0x7800u)
		return bits_f(((em << 13) + 0x38000000u) | (h & 0x8000u) << 16);
	return h2f(h);
}

static inline float
ldh(const uint8_t *p)
{
	return h2f_one(ld16(p));
}

/*
 * Unsigned E4M3 scale byte (NVFP4), halved for the doubled E2M1 values;
 * 0x00 and 0x7f are zero, bit 7 is ignored. Every value is exact.
 */
static inline float
ue4m3_half(uint8_t x)
{
	uint32_t	e = (x >> 3) & 0xf, m = x & 7;

	if (x == 0 || x == 0x7f)
		return 0.0f;
	if (e == 0)
		return (float)m * 0x1p-10f;
	return bits_f((e + 119) << 23 | m << 20);
}

/* The 8-bit sign mask of the i-quants: 7 stored bits plus even parity. */
static inline uint32_t
iq_signs(uint32_t s7)
{
	s7 &= 127;
	return s7 | (uint32_t)__builtin_parity(s7) << 7;
}

/* ------------------------------------------------------ derived tables */

/*
 * Float forms of the grids, sign masks and 2-bit codes, built once on
 * first use. A decoder then multiplies contiguous floats and flips sign
 * bits, which compilers turn into vector code, instead of pulling bytes
 * out of integers one by one. Every entry is exact: the grids hold small
 * integers, and negation is a flip of the sign bit, so the products are
 * the ones ggml computes.
 */
static struct {
	float		iq2xxs[256][8];
	float		iq2xs[512][8];
	float		iq2s[1024][8];
	float		iq3xxs[256][4];
	float		iq3s[512][4];
	float		iq1s[2048][8];
	uint32_t	sign[256][8];	/* bit j of the index: the sign bit */
	float		q2_0[256][4];	/* the four codes of a byte, minus 1 */
	uint8_t		hi16[256][8];	/* bit j of the index, times 16 */
} tab;

static pthread_once_t	tab_once = PTHREAD_ONCE_INIT;

static void
grid8(float (*dst)[8], const uint64_t *src, int n, int is_signed)
{
	int	i, j;

	for (i = 0; i < n; i++) {
		for (j = 0; j < 8; j++) {
			if (is_signed)
				dst[i][j] = (float)(int8_t)(src[i] >> (8 * j));
			else
				dst[i][j] = (float)(src[i] >> (8 * j) & 0xff);
		}
	}
}

static void
grid4(float (*dst)[4], const uint32_t *src, int n)
{
	int	i, j;

	for (i = 0; i < n; i++) {
		for (j = 0; j < 4; j++)
			dst[i][j] = (float)(src[i] >> (8 * j) & 0xff);
	}
}

static void
tab_build(void)
{
	int	i, j;

	grid8(tab.iq2xxs, gguf_iq2xxs_grid, 256, 0);
	grid8(tab.iq2xs, gguf_iq2xs_grid, 512, 0);
	grid8(tab.iq2s, gguf_iq2s_grid, 1024, 0);
	grid4(tab.iq3xxs, gguf_iq3xxs_grid, 256);
	grid4(tab.iq3s, gguf_iq3s_grid, 512);
	grid8(tab.iq1s, gguf_iq1s_grid, 2048, 1);
	for (i = 0; i < 256; i++) {
		for (j = 0; j < 8; j++) {
			tab.sign[i][j] = (uint32_t)(i >> j & 1) << 31;
			tab.hi16[i][j] = (uint8_t)((i >> j & 1) << 4);
		}
		for (j = 0; j < 4; j++)
			tab.q2_0[i][j] = (float)((i >> (2 * j) & 3) - 1);
	}
}

static inline void
tables(void)
{
	pthread_once(&tab_once, tab_build);
}

/* ------------------------------------------------------------ plain types */

DQ_CLONES static void
dq_f32(const uint8_t *restrict s, float *restrict y, uint64_t n)
{
	memcpy(y, s, n * 4);
}

DQ_CLONES static void
dq_f32_be(const uint8_t *restrict s, float *restrict y, uint64_t n)
{
	uint64_t	i;

	for (i = 0; i < n; i++)
		y[i] = bits_f(gguf_ld32(s + 4 * i, 1));
}

DQ_CLONES static void
dq_f16(const uint8_t *restrict s, float *restrict y, uint64_t n)
{
	uint64_t	i;
	int		j;

	for (i = 0; i + 32 <= n; i += 32, s += 64) {
		for (j = 0; j < 32; j++)
			y[i + j] = h2f(ld16(s + 2 * j));
	}
	for (; i < n; i++, s += 2)
		y[i] = h2f(ld16(s));
}

void
gguf_dq_f16_ref(const uint8_t *s, float *y, uint64_t n)
{
	dq_f16(s, y, n);
}

const float *
gguf_dq_grid(uint32_t type)
{
	tables();
	switch (type) {
	case GGUF_T_IQ2_XXS:	return tab.iq2xxs[0];
	case GGUF_T_IQ2_XS:	return tab.iq2xs[0];
	case GGUF_T_IQ2_S:	return tab.iq2s[0];
	case GGUF_T_IQ3_XXS:	return tab.iq3xxs[0];
	case GGUF_T_IQ3_S:	return tab.iq3s[0];
	case GGUF_T_IQ1_S:
	case GGUF_T_IQ1_M:	return tab.iq1s[0];
	default:		return NULL;
	}
}

DQ_CLONES static void
dq_f16_be(const uint8_t *restrict s, float *restrict y, uint64_t n)
{
	uint64_t	i;

	for (i = 0; i < n; i++)
		y[i] = h2f(gguf_ld16(s + 2 * i, 1));
}

DQ_CLONES static void
dq_bf16(const uint8_t *restrict s, float *restrict y, uint64_t n)
{
	uint64_t	i;
	int		j;

	for (i = 0; i + 32 <= n; i += 32, s += 64) {
		for (j = 0; j < 32; j++)
			y[i + j] = bits_f((uint32_t)ld16(s + 2 * j) << 16);
	}
	for (; i < n; i++, s += 2)
		y[i] = bits_f((uint32_t)ld16(s) << 16);
}

DQ_CLONES static void
dq_bf16_be(const uint8_t *restrict s, float *restrict y, uint64_t n)
{
	uint64_t	i;

	for (i = 0; i < n; i++)
		y[i] = bits_f((uint32_t)gguf_ld16(s + 2 * i, 1) << 16);
}

/* F64 and the integer types, to float and to double, in both orders. */
#define PLAIN(name, size, load, conv)					\
DQ_CLONES static void							\
dq_##name(const uint8_t *s, float *y, uint64_t n)			\
{									\
	uint64_t	i;						\
									\
	for (i = 0; i < n; i++)						\
		y[i] = (float)conv(load(s + (size) * i, 0));		\
}									\
DQ_CLONES static void							\
dq_##name##_be(const uint8_t *s, float *y, uint64_t n)			\
{									\
	uint64_t	i;						\
									\
	for (i = 0; i < n; i++)						\
		y[i] = (float)conv(load(s + (size) * i, 1));		\
}									\
static void								\
dq64_##name(const uint8_t *s, double *y, uint64_t n)			\
{									\
	uint64_t	i;						\
									\
	for (i = 0; i < n; i++)						\
		y[i] = (double)conv(load(s + (size) * i, 0));		\
}									\
static void								\
dq64_##name##_be(const uint8_t *s, double *y, uint64_t n)		\
{									\
	uint64_t	i;						\
									\
	for (i = 0; i < n; i++)						\
		y[i] = (double)conv(load(s + (size) * i, 1));		\
}

static inline uint8_t
ld8(const uint8_t *p, int be)
{
	(void)be;
	return *p;
}

#define AS_I8(u)	((int8_t)(u))
#define AS_I16(u)	((int16_t)(u))
#define AS_I32(u)	((int32_t)(u))
#define AS_I64(u)	((int64_t)(u))

PLAIN(f64, 8, gguf_ld64, bits_d)
PLAIN(i8, 1, ld8, AS_I8)
PLAIN(i16, 2, gguf_ld16, AS_I16)
PLAIN(i32, 4, gguf_ld32, AS_I32)
PLAIN(i64, 8, gguf_ld64, AS_I64)

/* float types to double go through float, which is exact */
static void
dq64_f32(const uint8_t *s, double *y, uint64_t n)
{
	uint64_t	i;

	for (i = 0; i < n; i++)
		y[i] = bits_f(ld32(s + 4 * i));
}

static void
dq64_f32_be(const uint8_t *s, double *y, uint64_t n)
{
	uint64_t	i;

	for (i = 0; i < n; i++)
		y[i] = bits_f(gguf_ld32(s + 4 * i, 1));
}

static void
dq64_f16(const uint8_t *s, double *y, uint64_t n)
{
	uint64_t	i;

	for (i = 0; i < n; i++)
		y[i] = ldh(s + 2 * i);
}

static void
dq64_f16_be(const uint8_t *s, double *y, uint64_t n)
{
	uint64_t	i;

	for (i = 0; i < n; i++)
		y[i] = h2f(gguf_ld16(s + 2 * i, 1));
}

static void
dq64_bf16(const uint8_t *s, double *y, uint64_t n)
{
	uint64_t	i;

	for (i = 0; i < n; i++)
		y[i] = bits_f((uint32_t)ld16(s + 2 * i) << 16);
}

static void
dq64_bf16_be(const uint8_t *s, double *y, uint64_t n)
{
	uint64_t	i;

	for (i = 0; i < n; i++)
		y[i] = bits_f((uint32_t)gguf_ld16(s + 2 * i, 1) << 16);
}

/* --------------------------------------------------- 32-element blocks */

/* Q4_0: half d, 16 bytes of nibbles; low nibbles first. (q - 8) * d */
DQ_CLONES static void
dq_q4_0(const uint8_t *restrict s, float *restrict y, uint64_t nb)
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
DQ_CLONES static void
dq_q4_1(const uint8_t *restrict s, float *restrict y, uint64_t nb)
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
	memcpy(h, tab.hi16[qh[0]], 8);
	memcpy(h + 8, tab.hi16[qh[1]], 8);
	memcpy(h + 16, tab.hi16[qh[2]], 8);
	memcpy(h + 24, tab.hi16[qh[3]], 8);
}

/* Q5_0: half d, 32 high bits, nibbles. (q - 16) * d */
DQ_CLONES static void
dq_q5_0(const uint8_t *restrict s, float *restrict y, uint64_t nb)
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
DQ_CLONES static void
dq_q5_1(const uint8_t *restrict s, float *restrict y, uint64_t nb)
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
DQ_CLONES static void
dq_q8_0(const uint8_t *restrict s, float *restrict y, uint64_t nb)
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
DQ_CLONES static void
dq_q8_1(const uint8_t *restrict s, float *restrict y, uint64_t nb)
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

/*
 * The 4-bit codebook types: a block's scale times the 16 codebook values,
 * computed once per scale (the same products ggml computes per element),
 * then each element is a lookup.
 */
static inline void
scaled16(float *t, const int8_t *kv, float d, int d_first)
{
	int	k;

	for (k = 0; k < 16; k++)
		t[k] = d_first ? d * (float)kv[k] : (float)kv[k] * d;
}

/*
 * Lookups are scalar: written over 32-bit words, so that the compiler
 * does not emulate vector gathers, which are slower here than plain loads.
 */
static inline void
lookup16(float *restrict lo, float *restrict hi, const uint8_t *restrict q,
    const float *t, int n)
{
	uint32_t	w;
	int		j, k;

	for (j = 0; j < n; j += 4) {
		w = ld32(q + j);
		for (k = 0; k < 4; k++, w >>= 8) {
			lo[j + k] = t[w & 0xf];
			hi[j + k] = t[(w >> 4) & 0xf];
		}
	}
}

static inline void
lookup32(float *restrict y, const uint8_t *restrict q, const float *t)
{
	lookup16(y, y + 16, q, t, 16);
}

/* IQ4_NL: half d, nibbles indexing the non-linear codebook. d * kv[q] */
DQ_CLONES static void
dq_iq4_nl(const uint8_t *restrict s, float *restrict y, uint64_t nb)
{
	uint64_t	i;
	float		t[16];

	for (i = 0; i < nb; i++, s += 18, y += 32) {
		scaled16(t, gguf_kvalues_iq4nl, ldh(s), 1);
		lookup32(y, s + 2, t);
	}
}

/* MXFP4: E8M0 exponent byte, nibbles of doubled E2M1 values. v * d */
DQ_CLONES static void
dq_mxfp4(const uint8_t *restrict s, float *restrict y, uint64_t nb)
{
	uint64_t	i;
	float		t[16];

	for (i = 0; i < nb; i++, s += 17, y += 32) {
		scaled16(t, gguf_kvalues_mxfp4, gguf_e8m0_half(s[0]), 0);
		lookup32(y, s + 1, t);
	}
}

/* NVFP4: 4 UE4M3 scales, one per 16 elements, then their nibbles. */
DQ_CLONES static void
dq_nvfp4(const uint8_t *restrict s, float *restrict y, uint64_t nb)
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
DQ_CLONES static void
dq_q1_0(const uint8_t *restrict s, float *restrict y, uint64_t nb)
{
	const uint32_t	*sm;
	uint64_t	 i;
	uint32_t	 d;
	int		 b, k;

	tables();
	for (i = 0; i < nb; i++, s += 18) {
		d = f_bits(ldh(s));
		for (b = 0; b < 16; b++, y += 8) {
			sm = tab.sign[(uint8_t)~s[2 + b]];
			for (k = 0; k < 8; k++)
				y[k] = bits_f(d ^ sm[k]);
		}
	}
}

/* Q2_0: half d, 64 two-bit codes, code j at bits 2(j%4) of byte j/4. */
DQ_CLONES static void
dq_q2_0(const uint8_t *restrict s, float *restrict y, uint64_t nb)
{
	const float	*c;
	uint64_t	 i;
	float		 d;
	int		 b, k;

	tables();
	for (i = 0; i < nb; i++, s += 18) {
		d = ldh(s);
		for (b = 0; b < 16; b++, y += 4) {
			c = tab.q2_0[s[2 + b]];
			for (k = 0; k < 4; k++)
				y[k] = c[k] * d;
		}
	}
}

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
DQ_CLONES static void
dq_q2_K(const uint8_t *restrict s, float *restrict y, uint64_t nb)
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
DQ_CLONES static void
dq_q3_K(const uint8_t *restrict s, float *restrict y, uint64_t nb)
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
DQ_CLONES static void
dq_q4_K(const uint8_t *restrict s, float *restrict y, uint64_t nb)
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
DQ_CLONES static void
dq_q5_K(const uint8_t *restrict s, float *restrict y, uint64_t nb)
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
DQ_CLONES static void
dq_q6_K(const uint8_t *restrict s, float *restrict y, uint64_t nb)
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
DQ_CLONES static void
dq_q8_K(const uint8_t *restrict s, float *restrict y, uint64_t nb)
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

DQ_CLONES static void
dq_tq1_0(const uint8_t *restrict s, float *restrict y, uint64_t nb)
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
DQ_CLONES static void
dq_tq2_0(const uint8_t *restrict s, float *restrict y, uint64_t nb)
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
DQ_CLONES static void
dq_iq2_xxs(const uint8_t *restrict s, float *restrict y, uint64_t nb)
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
				iq_put8(y, tab.iq2xxs[q[l]], db,
				    tab.sign[iq_signs(aux >> (7 * l))]);
		}
	}
}

/* IQ2_XS: half d, 32 u16 (9-bit grid index, 7 sign bits), 8 scale bytes. */
DQ_CLONES static void
dq_iq2_xs(const uint8_t *restrict s, float *restrict y, uint64_t nb)
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
				iq_put8(y, tab.iq2xs[q & 511], db[l / 2],
				    tab.sign[iq_signs(q >> 9)]);
			}
		}
	}
}

/* IQ2_S: half d, 32 grid bytes, 32 sign bytes, 8 bytes of 2-bit index
 * extensions, 8 scale bytes. */
DQ_CLONES static void
dq_iq2_s(const uint8_t *restrict s, float *restrict y, uint64_t nb)
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
				iq_put8(y, tab.iq2s[qs[l] |
				    ((qh[ib] << (8 - 2 * l)) & 0x300)],
				    db[l / 2], tab.sign[sg[l]]);
		}
	}
}

/* IQ3_XXS: half d, 64 grid bytes, then per 32 elements a u32 of 4x7 sign
 * bits and a 4-bit scale. */
DQ_CLONES static void
dq_iq3_xxs(const uint8_t *restrict s, float *restrict y, uint64_t nb)
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
				iq_put4x2(y, tab.iq3xxs[qs[2 * l]],
				    tab.iq3xxs[qs[2 * l + 1]], db,
				    tab.sign[iq_signs(aux >> (7 * l))]);
		}
	}
}

/* IQ3_S: half d, 64 grid bytes, 8 bytes of ninth index bits, 32 sign
 * bytes, 4 bytes of 4-bit scales (odd multipliers 1..31). */
DQ_CLONES static void
dq_iq3_s(const uint8_t *restrict s, float *restrict y, uint64_t nb)
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
				iq_put4x2(y, tab.iq3s[qs[2 * l] |
				    ((qh[ib] << (8 - 2 * l)) & 256)],
				    tab.iq3s[qs[2 * l + 1] |
				    ((qh[ib] << (7 - 2 * l)) & 256)], db,
				    tab.sign[sg[l]]);
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
DQ_CLONES static void
dq_iq1_s(const uint8_t *restrict s, float *restrict y, uint64_t nb)
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
				iq1_put8(y, tab.iq1s[qs[l] |
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
DQ_CLONES static void
dq_iq1_m(const uint8_t *restrict s, float *restrict y, uint64_t nb)
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
				iq1_put8(y, tab.iq1s[qs[l] | (h & 7) << 8], dl,
				    (h & 8) ? -IQ1_DELTA : IQ1_DELTA);
			}
		}
	}
}

/* IQ4_XS: half d, u16 of high scale bits, 4 bytes of low scale nibbles,
 * 128 bytes of codebook nibbles. */
DQ_CLONES static void
dq_iq4_xs(const uint8_t *restrict s, float *restrict y, uint64_t nb)
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

static double *
bv_add(struct gguf_blockview *bv, const char *name, const char *what,
    uint32_t n, int integral)
{
	struct gguf_bv_field	*f = &bv->f[bv->nfield];
	uint32_t		 off = 0;

	if (bv->nfield > 0)
		off = bv->f[bv->nfield - 1].off + bv->f[bv->nfield - 1].n;
	f->name = name;
	f->what = what;
	f->off = off;
	f->n = n;
	f->integral = integral;
	bv->nfield++;
	return bv->v + off;
}

static void
bv_d(struct gguf_blockview *bv, const char *name, const char *what,
    double d)
{
	*bv_add(bv, name, what, 1, 0) = d;
}

static void
bv_q4_0(const uint8_t *s, struct gguf_blockview *bv)
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

static void
bv_q4_1(const uint8_t *s, struct gguf_blockview *bv)
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

static void
bv_q5_0(const uint8_t *s, struct gguf_blockview *bv)
{
	bv_q5(s, bv, 0);
}

static void
bv_q5_1(const uint8_t *s, struct gguf_blockview *bv)
{
	bv_q5(s, bv, 1);
}

static void
bv_q8_0(const uint8_t *s, struct gguf_blockview *bv)
{
	double	*q;
	int	 j;

	bv_d(bv, "d", "block scale (f16)", ldh(s));
	q = bv_add(bv, "q", "quants, value = q * d", 32, 1);
	for (j = 0; j < 32; j++)
		q[j] = (int8_t)s[2 + j];
}

static void
bv_q8_1(const uint8_t *s, struct gguf_blockview *bv)
{
	double	*q;
	int	 j;

	bv_d(bv, "d", "block scale (f16)", ldh(s));
	bv_d(bv, "s", "d times the sum of the quants (f16)", ldh(s + 2));
	q = bv_add(bv, "q", "quants, value = q * d", 32, 1);
	for (j = 0; j < 32; j++)
		q[j] = (int8_t)s[4 + j];
}

static void
bv_iq4_nl(const uint8_t *s, struct gguf_blockview *bv)
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

static void
bv_mxfp4(const uint8_t *s, struct gguf_blockview *bv)
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

static void
bv_nvfp4(const uint8_t *s, struct gguf_blockview *bv)
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

static void
bv_q1_0(const uint8_t *s, struct gguf_blockview *bv)
{
	double	*q;
	int	 j;

	bv_d(bv, "d", "block scale (f16)", ldh(s));
	q = bv_add(bv, "q", "signs, value = q * d", 128, 1);
	for (j = 0; j < 128; j++)
		q[j] = (s[2 + j / 8] >> (j % 8) & 1) ? 1 : -1;
}

static void
bv_q2_0(const uint8_t *s, struct gguf_blockview *bv)
{
	double	*q;
	int	 j;

	bv_d(bv, "d", "block scale (f16)", ldh(s));
	q = bv_add(bv, "q", "quants, value = q * d", 64, 1);
	for (j = 0; j < 64; j++)
		q[j] = (s[2 + j / 4] >> (2 * (j % 4)) & 3) - 1;
}

static void
bv_q2_K(const uint8_t *s, struct gguf_blockview *bv)
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

static void
bv_q3_K(const uint8_t *s, struct gguf_blockview *bv)
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

static void
bv_q4_K(const uint8_t *s, struct gguf_blockview *bv)
{
	bv_q45_K(s, bv, 0);
}

static void
bv_q5_K(const uint8_t *s, struct gguf_blockview *bv)
{
	bv_q45_K(s, bv, 1);
}

static void
bv_q6_K(const uint8_t *s, struct gguf_blockview *bv)
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

static void
bv_q8_K(const uint8_t *s, struct gguf_blockview *bv)
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

/* The trit of element k of a TQ1_0 block, in the order dq_tq1_0 writes. */
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

static void
bv_tq1_0(const uint8_t *s, struct gguf_blockview *bv)
{
	double	*q;
	int	 k;

	bv_d(bv, "d", "block scale (f16)", ldh(s + 52));
	q = bv_add(bv, "q", "trits, value = q * d", 256, 1);
	for (k = 0; k < 256; k++)
		q[k] = tq1_code(s, k);
}

static void
bv_tq2_0(const uint8_t *s, struct gguf_blockview *bv)
{
	double	*q;
	int	 k;

	bv_d(bv, "d", "block scale (f16)", ldh(s + 64));
	q = bv_add(bv, "q", "trits, value = q * d", 256, 1);
	for (k = 0; k < 256; k++)
		q[k] = (s[32 * (k / 128) + k % 32] >> (2 * ((k % 128) / 32)) &
		    3) - 1;
}

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

static void
bv_iq2_xxs(const uint8_t *s, struct gguf_blockview *bv)
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

static void
bv_iq2_xs(const uint8_t *s, struct gguf_blockview *bv)
{
	bv_iq2_xs_s(s, bv, 0);
}

static void
bv_iq2_s(const uint8_t *s, struct gguf_blockview *bv)
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

static void
bv_iq3_xxs(const uint8_t *s, struct gguf_blockview *bv)
{
	bv_iq3(s, bv, 0);
}

static void
bv_iq3_s(const uint8_t *s, struct gguf_blockview *bv)
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

static void
bv_iq1_s(const uint8_t *s, struct gguf_blockview *bv)
{
	bv_iq1(s, bv, 0);
}

static void
bv_iq1_m(const uint8_t *s, struct gguf_blockview *bv)
{
	bv_iq1(s, bv, 1);
}

static void
bv_iq4_xs(const uint8_t *s, struct gguf_blockview *bv)
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

/* ------------------------------------------------------------ the table */

#define PLAIN_OPS(n)	{ dq_##n, dq_##n##_be, dq64_##n, dq64_##n##_be, NULL }
#define QUANT_OPS(n)	{ dq_##n, NULL, NULL, NULL, bv_##n }

static const struct dq_type dq_types[GGUF_T_COUNT] = {
	[GGUF_T_F32] = PLAIN_OPS(f32),
	[GGUF_T_F16] = PLAIN_OPS(f16),
	[GGUF_T_BF16] = PLAIN_OPS(bf16),
	[GGUF_T_F64] = PLAIN_OPS(f64),
	[GGUF_T_I8] = PLAIN_OPS(i8),
	[GGUF_T_I16] = PLAIN_OPS(i16),
	[GGUF_T_I32] = PLAIN_OPS(i32),
	[GGUF_T_I64] = PLAIN_OPS(i64),
	[GGUF_T_Q4_0] = QUANT_OPS(q4_0),
	[GGUF_T_Q4_1] = QUANT_OPS(q4_1),
	[GGUF_T_Q5_0] = QUANT_OPS(q5_0),
	[GGUF_T_Q5_1] = QUANT_OPS(q5_1),
	[GGUF_T_Q8_0] = QUANT_OPS(q8_0),
	[GGUF_T_Q8_1] = QUANT_OPS(q8_1),
	[GGUF_T_Q2_K] = QUANT_OPS(q2_K),
	[GGUF_T_Q3_K] = QUANT_OPS(q3_K),
	[GGUF_T_Q4_K] = QUANT_OPS(q4_K),
	[GGUF_T_Q5_K] = QUANT_OPS(q5_K),
	[GGUF_T_Q6_K] = QUANT_OPS(q6_K),
	[GGUF_T_Q8_K] = QUANT_OPS(q8_K),
	[GGUF_T_IQ2_XXS] = QUANT_OPS(iq2_xxs),
	[GGUF_T_IQ2_XS] = QUANT_OPS(iq2_xs),
	[GGUF_T_IQ2_S] = QUANT_OPS(iq2_s),
	[GGUF_T_IQ3_XXS] = QUANT_OPS(iq3_xxs),
	[GGUF_T_IQ3_S] = QUANT_OPS(iq3_s),
	[GGUF_T_IQ1_S] = QUANT_OPS(iq1_s),
	[GGUF_T_IQ1_M] = QUANT_OPS(iq1_m),
	[GGUF_T_IQ4_NL] = QUANT_OPS(iq4_nl),
	[GGUF_T_IQ4_XS] = QUANT_OPS(iq4_xs),
	[GGUF_T_TQ1_0] = QUANT_OPS(tq1_0),
	[GGUF_T_TQ2_0] = QUANT_OPS(tq2_0),
	[GGUF_T_MXFP4] = QUANT_OPS(mxfp4),
	[GGUF_T_NVFP4] = QUANT_OPS(nvfp4),
	[GGUF_T_Q1_0] = QUANT_OPS(q1_0),
	[GGUF_T_Q2_0] = QUANT_OPS(q2_0),
};

/* ------------------------------------------------- the vector decoders */

/*
 * For the types that have one, the vector decoder of dequant_x86.c when
 * the CPU runs it, looked up once; GGUFED_DEQUANT=ref in the environment
 * keeps the portable decoders (to compare, or to rule the vector ones out).
 */
static struct {
	gguf_dq_fn	*fn[GGUF_T_COUNT];
	const char	*isa[GGUF_T_COUNT];
} vec;

static pthread_once_t	vec_once = PTHREAD_ONCE_INIT;

static void
vec_init(void)
{
	const char	*e = getenv("GGUFED_DEQUANT");
	uint32_t	 t;

	if (e != NULL && strcmp(e, "ref") == 0)
		return;
	for (t = 0; t < GGUF_T_COUNT; t++)
		vec.fn[t] = gguf_dq_vec(t, &vec.isa[t]);
}

/* The decoder of little- or big-endian data of a decodable type. */
static dq_fn *
decoder(uint32_t type, int be, int ref)
{
	if (be)
		return dq_types[type].be;
	if (!ref) {
		pthread_once(&vec_once, vec_init);
		if (vec.fn[type] != NULL)
			return vec.fn[type];
	}
	return dq_types[type].le;
}

const char *
gguf_dequant_isa(uint32_t type)
{
	if (type >= GGUF_T_COUNT)
		return "portable";
	pthread_once(&vec_once, vec_init);
	return vec.fn[type] != NULL ? vec.isa[type] : "portable";
}

/* -------------------------------------------------------------- the API */

int
gguf_dequant_check(uint32_t type, int be, struct gguf_err *err)
{
	if (gguf_ttype_decodable(type, be, err) != 0)
		return -1;
	if (dq_types[type].le == NULL || (be && dq_types[type].be == NULL))
		return gguf_errf(err, -1, "type %s has no decoder",
		    gguf_ttype(type)->name);
	return 0;
}

int
gguf_dequant_wide(uint32_t type)
{
	return type == GGUF_T_F64 || type == GGUF_T_I32 || type == GGUF_T_I64;
}

/* Checks type and range; the number of elements the data holds. */
static int
range_check(uint32_t type, int be, uint64_t nbytes, uint64_t first,
    uint64_t n, struct gguf_err *err)
{
	const struct gguf_type_info	*ti;
	uint64_t			 cap;

	if (gguf_dequant_check(type, be, err) != 0)
		return -1;
	ti = gguf_ttype(type);
	if (gguf_mul_ok(nbytes / ti->bytes, ti->blck, &cap) != 0)
		cap = UINT64_MAX;
	if (first > cap || n > cap - first)
		return gguf_errf(err, -1, "elements %llu..%llu lie outside "
		    "the %llu elements of the data",
		    (unsigned long long)first,
		    (unsigned long long)(first + n),
		    (unsigned long long)cap);
	return 0;
}

static int
dequant(uint32_t type, int be, const uint8_t *data, uint64_t nbytes,
    uint64_t first, uint64_t n, float *out, int ref, struct gguf_err *err)
{
	const struct gguf_type_info	*ti;
	dq_fn				*fn;
	float				 tmp[GGUF_MAX_BLCK];
	uint64_t			 bk, bs, b, off, k, full;

	if (range_check(type, be, nbytes, first, n, err) != 0)
		return -1;
	if (n == 0)
		return 0;
	ti = gguf_ttype(type);
	fn = decoder(type, be, ref);
	bk = ti->blck;
	bs = ti->bytes;
	b = first / bk;
	off = first % bk;
	if (off != 0) {
		fn(data + b * bs, tmp, 1);
		k = bk - off < n ? bk - off : n;
		memcpy(out, tmp + off, k * sizeof *out);
		out += k;
		n -= k;
		b++;
	}
	full = n / bk;
	if (full > 0) {
		fn(data + b * bs, out, full);
		out += full * bk;
		n -= full * bk;
		b += full;
	}
	if (n > 0) {
		fn(data + b * bs, tmp, 1);
		memcpy(out, tmp, n * sizeof *out);
	}
	return 0;
}

int
gguf_dequant(uint32_t type, int be, const uint8_t *data, uint64_t nbytes,
    uint64_t first, uint64_t n, float *out, struct gguf_err *err)
{
	return dequant(type, be, data, nbytes, first, n, out, 0, err);
}

int
gguf_dequant_ref(uint32_t type, int be, const uint8_t *data, uint64_t nbytes,
    uint64_t first, uint64_t n, float *out, struct gguf_err *err)
{
	return dequant(type, be, data, nbytes, first, n, out, 1, err);
}

int
gguf_dequant_f64(uint32_t type, int be, const uint8_t *data,
    uint64_t nbytes, uint64_t first, uint64_t n, double *out,
    struct gguf_err *err)
{
	const struct gguf_type_info	*ti;
	dq64_fn				*fn;
	float				 tmp[GGUF_MAX_BLCK];
	uint64_t			 k, i;

	if (range_check(type, be, nbytes, first, n, err) != 0)
		return -1;
	if (n == 0)
		return 0;
	ti = gguf_ttype(type);
	fn = be ? dq_types[type].be64 : dq_types[type].le64;
	if (fn != NULL) {
		fn(data + first * ti->bytes, out, n);
		return 0;
	}
	while (n > 0) {
		k = n < GGUF_MAX_BLCK ? n : GGUF_MAX_BLCK;
		if (gguf_dequant(type, be, data, nbytes, first, k, tmp,
		    err) != 0)
			return -1;
		for (i = 0; i < k; i++)
			out[i] = tmp[i];
		out += k;
		first += k;
		n -= k;
	}
	return 0;
}

int
gguf_dequant_i64(uint32_t type, int be, const uint8_t *data,
    uint64_t nbytes, uint64_t first, uint64_t n, int64_t *out,
    struct gguf_err *err)
{
	const struct gguf_type_info	*ti;
	const uint8_t			*p;
	uint64_t			 i;

	if (range_check(type, be, nbytes, first, n, err) != 0)
		return -1;
	ti = gguf_ttype(type);
	if (!(ti->flags & GGUF_TF_INT))
		return gguf_errf(err, -1, "type %s is not an integer type",
		    ti->name);
	p = data + first * ti->bytes;
	for (i = 0; i < n; i++, p += ti->bytes) {
		switch (ti->bytes) {
		case 1:
			out[i] = (int8_t)*p;
			break;
		case 2:
			out[i] = (int16_t)gguf_ld16(p, be);
			break;
		case 4:
			out[i] = (int32_t)gguf_ld32(p, be);
			break;
		default:
			out[i] = (int64_t)gguf_ld64(p, be);
			break;
		}
	}
	return 0;
}

uint64_t
gguf_tensor_nrows(const struct gguf_tensor *t)
{
	if (t->ne[0] == 0)
		return 0;
	return t->nelem / t->ne[0];
}

/* Checks a row and column window of t; the tensor's data on success. */
const uint8_t *
gguf_tensor_window(const struct gguf_file *f, const struct gguf_tensor *t,
    uint64_t row0, uint64_t nrows, uint64_t col0, uint64_t ncols,
    struct gguf_err *err)
{
	uint64_t	total = gguf_tensor_nrows(t);
	static const uint8_t	none[1];

	if (gguf_dequant_check(t->type, gguf_layout(f)->be, err) != 0)
		return NULL;
	if (t->flags & GGUF_TENSOR_UNSIZED) {
		gguf_errf(err, -1, "tensor has no known size");
		return NULL;
	}
	if (row0 > total || nrows > total - row0) {
		gguf_errf(err, -1, "rows %llu:%llu out of range: the tensor "
		    "has %llu rows (valid 0:%llu)", (unsigned long long)row0,
		    (unsigned long long)row0 + nrows,
		    (unsigned long long)total, (unsigned long long)total);
		return NULL;
	}
	if (col0 > t->ne[0] || ncols > t->ne[0] - col0) {
		gguf_errf(err, -1, "columns %llu:%llu out of range: rows "
		    "have %llu columns (valid 0:%llu)",
		    (unsigned long long)col0,
		    (unsigned long long)col0 + ncols,
		    (unsigned long long)t->ne[0],
		    (unsigned long long)t->ne[0]);
		return NULL;
	}
	if (nrows == 0 || ncols == 0)
		return none;
	return gguf_tensor_data(f, t, err);
}

/* One read of a tensor's data, run under the file's guard. */
struct rows_job {
	const struct gguf_tensor *t;
	int			 be;
	const uint8_t		*data;
	uint64_t		 row0, nrows, col0, ncols;
	float			*fout;
	double			*dout;
	int64_t			*iout;
	uint64_t		 block;
	struct gguf_blockview	*bv;
	struct gguf_err		*err;
};

static int
rows_cb(void *arg)
{
	struct rows_job			*j = arg;
	const struct gguf_tensor	*t = j->t;
	uint64_t			 r, first;
	int				 rc;

	if (j->bv != NULL)
		return gguf_dequant_block_view(t->type, j->be, j->data,
		    t->nbytes, j->block, j->bv, j->err);
	if (j->fout != NULL && j->ncols == t->ne[0])
		return gguf_dequant(t->type, j->be, j->data, t->nbytes,
		    j->row0 * t->ne[0], j->nrows * j->ncols, j->fout, j->err);
	for (r = 0; r < j->nrows; r++) {
		first = (j->row0 + r) * t->ne[0] + j->col0;
		if (j->fout != NULL)
			rc = gguf_dequant(t->type, j->be, j->data, t->nbytes,
			    first, j->ncols, j->fout + r * j->ncols, j->err);
		else if (j->dout != NULL)
			rc = gguf_dequant_f64(t->type, j->be, j->data,
			    t->nbytes, first, j->ncols, j->dout + r * j->ncols,
			    j->err);
		else
			rc = gguf_dequant_i64(t->type, j->be, j->data,
			    t->nbytes, first, j->ncols, j->iout + r * j->ncols,
			    j->err);
		if (rc != 0)
			return -1;
	}
	return 0;
}

static int
rows_run(const struct gguf_file *f, struct rows_job *j)
{
	j->be = gguf_layout(f)->be;
	j->data = gguf_tensor_window(f, j->t, j->row0, j->nrows, j->col0,
	    j->ncols, j->err);
	if (j->data == NULL)
		return -1;
	if (j->nrows == 0 || j->ncols == 0)
		return 0;
	return gguf_file_guard(f, rows_cb, j, j->err);
}

/* A job over rows row0.. of t, columns col0..; the caller sets the output. */
static void
rows_init(struct rows_job *j, const struct gguf_tensor *t, uint64_t row0,
    uint64_t nrows, uint64_t col0, uint64_t ncols, struct gguf_err *err)
{
	memset(j, 0, sizeof *j);
	j->t = t;
	j->row0 = row0;
	j->nrows = nrows;
	j->col0 = col0;
	j->ncols = ncols;
	j->err = err;
}

int
gguf_dequant_rows(const struct gguf_file *f, const struct gguf_tensor *t,
    uint64_t row0, uint64_t nrows, uint64_t col0, uint64_t ncols,
    float *out, struct gguf_err *err)
{
	struct rows_job	j;

	rows_init(&j, t, row0, nrows, col0, ncols, err);
	j.fout = out;
	return rows_run(f, &j);
}

int
gguf_dequant_rows_f64(const struct gguf_file *f,
    const struct gguf_tensor *t, uint64_t row0, uint64_t nrows,
    uint64_t col0, uint64_t ncols, double *out, struct gguf_err *err)
{
	struct rows_job	j;

	rows_init(&j, t, row0, nrows, col0, ncols, err);
	j.dout = out;
	return rows_run(f, &j);
}

int
gguf_dequant_rows_i64(const struct gguf_file *f,
    const struct gguf_tensor *t, uint64_t row0, uint64_t nrows,
    uint64_t col0, uint64_t ncols, int64_t *out, struct gguf_err *err)
{
	struct rows_job	j;

	rows_init(&j, t, row0, nrows, col0, ncols, err);
	j.iout = out;
	return rows_run(f, &j);
}

int
gguf_tensor_block_view(const struct gguf_file *f,
    const struct gguf_tensor *t, uint64_t block, struct gguf_blockview *bv,
    struct gguf_err *err)
{
	struct rows_job	j;

	memset(&j, 0, sizeof j);
	j.t = t;
	j.be = gguf_layout(f)->be;
	j.block = block;
	j.bv = bv;
	j.err = err;
	if (gguf_dequant_check(t->type, j.be, err) != 0 ||
	    (j.data = gguf_tensor_data(f, t, err)) == NULL)
		return -1;
	return gguf_file_guard(f, rows_cb, &j, err);
}

struct copy_job {
	const uint8_t	*src;
	void		*dst;
	uint64_t	 n;
};

static int
copy_cb(void *arg)
{
	struct copy_job	*j = arg;

	memcpy(j->dst, j->src, (size_t)j->n);
	return 0;
}

int
gguf_tensor_read(const struct gguf_file *f, const struct gguf_tensor *t,
    uint64_t off, void *buf, uint64_t n, struct gguf_err *err)
{
	struct copy_job	j;
	const uint8_t	*data;

	if ((data = gguf_tensor_data(f, t, err)) == NULL)
		return -1;
	if (off > t->nbytes || n > t->nbytes - off)
		return gguf_errf(err, -1, "bytes %llu:%llu out of range: the "
		    "tensor has %llu bytes", (unsigned long long)off,
		    (unsigned long long)(off + n),
		    (unsigned long long)t->nbytes);
	if (n == 0)
		return 0;
	j.src = data + off;
	j.dst = buf;
	j.n = n;
	return gguf_file_guard(f, copy_cb, &j, err);
}

int
gguf_dequant_block_view(uint32_t type, int be, const uint8_t *data,
    uint64_t nbytes, uint64_t block, struct gguf_blockview *bv,
    struct gguf_err *err)
{
	const struct gguf_type_info	*ti;

	if (gguf_dequant_check(type, be, err) != 0)
		return -1;
	ti = gguf_ttype(type);
	if (dq_types[type].view == NULL)
		return gguf_errf(err, -1, "type %s is not block-quantized",
		    ti->name);
	if (block >= nbytes / ti->bytes)
		return gguf_errf(err, -1, "block %llu out of range: the data "
		    "holds %llu blocks", (unsigned long long)block,
		    (unsigned long long)(nbytes / ti->bytes));
	memset(bv, 0, sizeof *bv);
	dq_types[type].view(data + block * ti->bytes, bv);
	return 0;
}
