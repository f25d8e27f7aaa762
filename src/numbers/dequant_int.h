/*
 * dequant_int.h - what the decoders of the tensor types share, and nobody
 * else sees: the helpers every decoder uses, the tables derived from the
 * grids, and the decoders of each family, which dequant.c puts in its
 * table by type id:
 *
 *	dequant_float.c		the plain types: floats and integers
 *	dequant_legacy.c	the small-block types: Q4_0 ... Q8_1, IQ4_NL,
 *				MXFP4, NVFP4, Q1_0, Q2_0
 *	dequant_kquants.c	the K-quants and the ternary types
 *	dequant_iquants.c	the i-quants of 256-element blocks
 *
 * Exactness and speed are dequant.c's rules; every decoder keeps them.
 */
#ifndef GGUF_DEQUANT_INT_H
#define GGUF_DEQUANT_INT_H

#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "cpu.h"
#include "gguf.h"
#include "internal.h"
#include "dequant.h"
#include "dequant_grids.h"
#include "dequant_vec.h"

/*
 * Where the toolchain can, every decoder is compiled twice, for the x86-64
 * baseline and for AVX2 (NAME_avx2), and dequant.c picks one at its first
 * decoding by what the CPU runs (gguf_cpu_avx2): the same operations in
 * wider registers (AVX2 without FMA, and contraction is off), so the same
 * bits. Nothing is picked at load time: no ifunc resolver runs at start.
 *
 *	DQ_DECODER(gguf_dq_x, s, y, nb)
 *	{
 *		...
 *	}
 *
 * defines gguf_dq_x and gguf_dq_x_avx2, both the body written once and
 * inlined into each (s, y restrict; nb the count). DQ_AVX2(f) is f's AVX2
 * version, or f where there is none.
 */
#if defined(HAVE_TARGET_AVX2)
#define DQ_DECODER(name, s, y, n)					\
GGUF_BODY void name##_body(const uint8_t *restrict s,			\
    float *restrict y, uint64_t n);					\
GGUF_TARGET_AVX2 void							\
name##_avx2(const uint8_t *restrict s, float *restrict y, uint64_t n)	\
{									\
	name##_body(s, y, n);						\
}									\
void									\
name(const uint8_t *restrict s, float *restrict y, uint64_t n)		\
{									\
	name##_body(s, y, n);						\
}									\
GGUF_BODY void								\
name##_body(const uint8_t *restrict s, float *restrict y, uint64_t n)
#define DQ_AVX2(f)	f##_avx2
#else
#define DQ_DECODER(name, s, y, n)					\
void									\
name(const uint8_t *restrict s, float *restrict y, uint64_t n)
#define DQ_AVX2(f)	f
#endif

typedef void	dq_fn(const uint8_t *, float *, uint64_t);
typedef void	dq64_fn(const uint8_t *, double *, uint64_t);
typedef void	bv_fn(const uint8_t *, struct gguf_blockview *);

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
struct gguf_dq_tab {
	float		iq2xxs[256][8];
	float		iq2xs[512][8];
	float		iq2s[1024][8];
	float		iq3xxs[256][4];
	float		iq3s[512][4];
	float		iq1s[2048][8];
	uint32_t	sign[256][8];	/* bit j of the index: the sign bit */
	float		q2_0[256][4];	/* the four codes of a byte, minus 1 */
	uint8_t		hi16[256][8];	/* bit j of the index, times 16 */
};

/* Aligned as the compiler aligns a table of its own, for the same code. */
extern struct gguf_dq_tab	gguf_dq_tab __attribute__((aligned(32)));
extern pthread_once_t		gguf_dq_tab_once;
/* Builds gguf_dq_tab; through tables() only. */
void	gguf_dq_tab_build(void);

/* Makes gguf_dq_tab ready: every decoder that reads it calls this first. */
static inline void
tables(void)
{
	pthread_once(&gguf_dq_tab_once, gguf_dq_tab_build);
}

/* ----------------------------------------------------------- codebooks */

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

/* --------------------------------------------------------- block views */


static inline double *
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

static inline void
bv_d(struct gguf_blockview *bv, const char *name, const char *what,
    double d)
{
	*bv_add(bv, name, what, 1, 0) = d;
}

/* ------------------------------------------------------------ decoders */

/*
 * A plain type has decoders of n elements to float and to double, of
 * little- and big-endian data; a quantized type a decoder of n blocks of
 * little-endian data and a view of one block's fields.
 */
#define DQ_PLAIN(n)	dq_fn gguf_dq_##n, gguf_dq_##n##_be,		\
			    DQ_AVX2(gguf_dq_##n), DQ_AVX2(gguf_dq_##n##_be); \
			dq64_fn gguf_dq64_##n, gguf_dq64_##n##_be
#define DQ_QUANT(n)	dq_fn gguf_dq_##n, DQ_AVX2(gguf_dq_##n);	\
			bv_fn gguf_bv_##n

/*
 * dequant.c: the decoder gguf_dequant uses for type, of big-endian data
 * if be, never a vector one if ref (gguf_dequant_ref); and the baseline
 * and AVX2 versions of its portable decoder (the same function twice
 * where there is no AVX2 version; NULL where there is no decoder).
 */
dq_fn	*gguf_dq_decoder(uint32_t type, int be, int ref);
void	 gguf_dq_versions(uint32_t type, int be, dq_fn **base, dq_fn **avx2);

/* dequant_float.c */
DQ_PLAIN(f32);
DQ_PLAIN(f16);
DQ_PLAIN(bf16);
DQ_PLAIN(f64);
DQ_PLAIN(i8);
DQ_PLAIN(i16);
DQ_PLAIN(i32);
DQ_PLAIN(i64);
/* dequant_legacy.c */
DQ_QUANT(q4_0);
DQ_QUANT(q4_1);
DQ_QUANT(q5_0);
DQ_QUANT(q5_1);
DQ_QUANT(q8_0);
DQ_QUANT(q8_1);
DQ_QUANT(iq4_nl);
DQ_QUANT(mxfp4);
DQ_QUANT(nvfp4);
DQ_QUANT(q1_0);
DQ_QUANT(q2_0);
/* dequant_kquants.c */
DQ_QUANT(q2_K);
DQ_QUANT(q3_K);
DQ_QUANT(q4_K);
DQ_QUANT(q5_K);
DQ_QUANT(q6_K);
DQ_QUANT(q8_K);
DQ_QUANT(tq1_0);
DQ_QUANT(tq2_0);
/* dequant_iquants.c */
DQ_QUANT(iq2_xxs);
DQ_QUANT(iq2_xs);
DQ_QUANT(iq2_s);
DQ_QUANT(iq3_xxs);
DQ_QUANT(iq3_s);
DQ_QUANT(iq1_s);
DQ_QUANT(iq1_m);
DQ_QUANT(iq4_xs);

#endif /* GGUF_DEQUANT_INT_H */
