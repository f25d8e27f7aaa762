/*
 * stats_x86.c - the statistics kernel (stats_vec.h) with AVX2
 * instructions, chosen at run time when the CPU has AVX2.
 *
 * Exactness. The portable kernel in stats.c defines the results; this one
 * performs the same operations on the same operands in the same order, 16
 * lanes at a time: floats widened to double exactly, additions in double
 * lane by lane, minimum and maximum with the instructions whose operand
 * order gives v < min ? v : min and v > max ? v : max, squares and sums
 * as a multiplication then an addition ("fma" is not among the target
 * features, and the build turns contraction off). Keys are integer
 * operations, and the counts they index are integers.
 *
 * The pass counts every element into the sketch as it goes, one scattered
 * increment each: that work has no vector form, and it is interleaved
 * with the vector work of the moments so that the processor runs both
 * at once.
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "cpu.h"
#include "dequant_int.h"
#include "stats_vec.h"

#if defined(__x86_64__) && defined(__GNUC__)

#include <immintrin.h>

#define AVX2	__attribute__((target("avx2")))

/* Keys of 8 floats: flip the sign bit, or every bit of negatives; >> 12. */
AVX2 static inline __m256i
keys8(__m256 v)
{
	__m256i	u = _mm256_castps_si256(v);
	__m256i	m = _mm256_or_si256(_mm256_srai_epi32(u, 31),
		    _mm256_set1_epi32((int)0x80000000u));

	return _mm256_srli_epi32(_mm256_xor_si256(u, m), 12);
}

AVX2 static inline void
scan_body(const float *x, uint64_t n, uint32_t *sk, struct gguf_sv *sv,
    int counting)
{
	__m256d		s0 = _mm256_setzero_pd(), s1 = s0, s2 = s0, s3 = s0;
	__m256		mn0 = _mm256_loadu_ps(x), mn1 = _mm256_loadu_ps(x + 8);
	__m256		mx0 = mn0, mx1 = mn1, v0, v1;
	__m256i		nz0 = _mm256_setzero_si256(), nz1 = nz0, bad = nz0;
	__m256i		abs = _mm256_set1_epi32(0x7fffffff);
	__m256i		exp = _mm256_set1_epi32(0x7f800000), zero = nz0;
	__m256i		u0, u1, z0, z1;
	uint32_t	k[16];
	uint64_t	i;
	int		j;

	for (i = 0; i < n; i += 16) {
		v0 = _mm256_loadu_ps(x + i);
		v1 = _mm256_loadu_ps(x + i + 8);
		if (counting) {
			_mm256_storeu_si256((__m256i *)k, keys8(v0));
			_mm256_storeu_si256((__m256i *)(k + 8), keys8(v1));
			for (j = 0; j < 16; j++)
				sk[k[j]]++;
		}
		s0 = _mm256_add_pd(s0, _mm256_cvtps_pd(
		    _mm256_castps256_ps128(v0)));
		s1 = _mm256_add_pd(s1, _mm256_cvtps_pd(
		    _mm256_extractf128_ps(v0, 1)));
		s2 = _mm256_add_pd(s2, _mm256_cvtps_pd(
		    _mm256_castps256_ps128(v1)));
		s3 = _mm256_add_pd(s3, _mm256_cvtps_pd(
		    _mm256_extractf128_ps(v1, 1)));
		/* minps(a, b) is a < b ? a : b; maxps(a, b) a > b ? a : b */
		mn0 = _mm256_min_ps(v0, mn0);
		mn1 = _mm256_min_ps(v1, mn1);
		mx0 = _mm256_max_ps(v0, mx0);
		mx1 = _mm256_max_ps(v1, mx1);
		u0 = _mm256_castps_si256(v0);
		u1 = _mm256_castps_si256(v1);
		z0 = _mm256_cmpeq_epi32(_mm256_and_si256(u0, abs), zero);
		z1 = _mm256_cmpeq_epi32(_mm256_and_si256(u1, abs), zero);
		nz0 = _mm256_sub_epi32(nz0, z0);
		nz1 = _mm256_sub_epi32(nz1, z1);
		bad = _mm256_or_si256(bad, _mm256_cmpeq_epi32(
		    _mm256_and_si256(u0, exp), exp));
		bad = _mm256_or_si256(bad, _mm256_cmpeq_epi32(
		    _mm256_and_si256(u1, exp), exp));
	}
	_mm256_storeu_pd(sv->sum, s0);
	_mm256_storeu_pd(sv->sum + 4, s1);
	_mm256_storeu_pd(sv->sum + 8, s2);
	_mm256_storeu_pd(sv->sum + 12, s3);
	_mm256_storeu_ps(sv->min, mn0);
	_mm256_storeu_ps(sv->min + 8, mn1);
	_mm256_storeu_ps(sv->max, mx0);
	_mm256_storeu_ps(sv->max + 8, mx1);
	_mm256_storeu_si256((__m256i *)sv->nzero, nz0);
	_mm256_storeu_si256((__m256i *)(sv->nzero + 8), nz1);
	sv->bad = !_mm256_testz_si256(bad, bad);
}

AVX2 static void
v_scan(const float *x, uint64_t n, uint32_t *sk, struct gguf_sv *sv)
{
	if (sk != NULL)
		scan_body(x, n, sk, sv, 1);
	else
		scan_body(x, n, NULL, sv, 0);
}

AVX2 static void
v_m2(const float *x, uint64_t n, double mean, double m2[GGUF_SV_LANES],
    float minnz[GGUF_SV_LANES])
{
	__m256d	a0 = _mm256_setzero_pd(), a1 = a0, a2 = a0, a3 = a0, d;
	__m256d	mv = _mm256_set1_pd(mean);
	__m256	v0, v1, mz0 = _mm256_set1_ps(__builtin_inff()), mz1 = mz0;
	__m256i	abs = _mm256_set1_epi32(0x7fffffff), zero = _mm256_setzero_si256();
	__m256i	a;
	uint64_t i;

	for (i = 0; i < n; i += 16) {
		v0 = _mm256_loadu_ps(x + i);
		v1 = _mm256_loadu_ps(x + i + 8);
		/*
		 * |v|, all ones (a NaN) for a zero: minps(a, b) is b when a
		 * is a NaN, as a < b ? a : b is.
		 */
		a = _mm256_and_si256(_mm256_castps_si256(v0), abs);
		mz0 = _mm256_min_ps(_mm256_castsi256_ps(_mm256_or_si256(a,
		    _mm256_cmpeq_epi32(a, zero))), mz0);
		a = _mm256_and_si256(_mm256_castps_si256(v1), abs);
		mz1 = _mm256_min_ps(_mm256_castsi256_ps(_mm256_or_si256(a,
		    _mm256_cmpeq_epi32(a, zero))), mz1);
		d = _mm256_sub_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(v0)),
		    mv);
		a0 = _mm256_add_pd(a0, _mm256_mul_pd(d, d));
		d = _mm256_sub_pd(_mm256_cvtps_pd(_mm256_extractf128_ps(v0,
		    1)), mv);
		a1 = _mm256_add_pd(a1, _mm256_mul_pd(d, d));
		d = _mm256_sub_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(v1)),
		    mv);
		a2 = _mm256_add_pd(a2, _mm256_mul_pd(d, d));
		d = _mm256_sub_pd(_mm256_cvtps_pd(_mm256_extractf128_ps(v1,
		    1)), mv);
		a3 = _mm256_add_pd(a3, _mm256_mul_pd(d, d));
	}
	_mm256_storeu_pd(m2, a0);
	_mm256_storeu_pd(m2 + 4, a1);
	_mm256_storeu_pd(m2 + 8, a2);
	_mm256_storeu_pd(m2 + 12, a3);
	_mm256_storeu_ps(minnz, mz0);
	_mm256_storeu_ps(minnz + 8, mz1);
}

/* The least (or greatest) of 8 floats. */
AVX2 static inline float
fold(__m256 v, int greatest)
{
	float	f[8], r;
	int	j;

	_mm256_storeu_ps(f, v);
	r = f[0];
	for (j = 1; j < 8; j++)
		r = greatest ? (f[j] > r ? f[j] : r) : (f[j] < r ? f[j] : r);
	return r;
}

/* The sum of 8 int32 lanes. */
AVX2 static inline int32_t
hsum8(__m256i v)
{
	__m128i	x = _mm_add_epi32(_mm256_castsi256_si128(v),
		    _mm256_extracti128_si256(v, 1));

	x = _mm_add_epi32(x, _mm_shuffle_epi32(x, 0x4e));
	x = _mm_add_epi32(x, _mm_shuffle_epi32(x, 0xb1));
	return _mm_cvtsi128_si32(x);
}

/* The running extremes and zeros of a pass over blocks. */
struct vpass {
	__m256		mn;
	__m256		mx;
	uint64_t	zeros;
};

/*
 * stats_codes.c's pass, one block of 32 codes q (int8) under scale d:
 * the sums of the codes and of their squares in integers, the values
 * q * d as floats (exact products, so the same in any order), their keys
 * counted one by one.
 */
AVX2 static inline __attribute__((always_inline)) void
v_block(__m256i q, struct gguf_sc_blocks *b, uint64_t i, uint32_t *sk,
    struct vpass *vp)
{
	__m256i		zero = _mm256_setzero_si256(), sq, lo, hi, sad;
	__m128i		h[2];
	__m256		dv = _mm256_set1_ps(b->d[i]), v;
	uint32_t	k[32], u;
	int32_t		s1, s2;
	int		j;

	/* codes + 128 are bytes without sign: their sum, less 4096 */
	sad = _mm256_sad_epu8(_mm256_xor_si256(q,
	    _mm256_set1_epi8((char)0x80)), zero);
	h[0] = _mm256_castsi256_si128(q);
	h[1] = _mm256_extracti128_si256(q, 1);
	lo = _mm256_cvtepi8_epi16(h[0]);
	hi = _mm256_cvtepi8_epi16(h[1]);
	sq = _mm256_add_epi32(_mm256_madd_epi16(lo, lo),
	    _mm256_madd_epi16(hi, hi));
	s1 = hsum8(sad) - 4096;
	s2 = hsum8(sq);
	b->s1[i] = s1;
	b->t[i] = 32 * s2 - s1 * s1;
	memcpy(&u, &b->d[i], sizeof u);
	if ((u & 0x7fffffffu) == 0)
		vp->zeros += 32;
	else
		vp->zeros += (uint64_t)__builtin_popcount((unsigned)
		    _mm256_movemask_epi8(_mm256_cmpeq_epi8(q, zero)));
#pragma GCC unroll 4
	for (j = 0; j < 4; j++) {
		v = _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(
		    j & 1 ? _mm_srli_si128(h[j >> 1], 8) : h[j >> 1])), dv);
		vp->mn = _mm256_min_ps(v, vp->mn);
		vp->mx = _mm256_max_ps(v, vp->mx);
		_mm256_storeu_si256((__m256i *)(k + 8 * j), keys8(v));
	}
	for (j = 0; sk != NULL && j < 32; j++)
		sk[k[j]]++;
}

AVX2 static void
v_done(struct vpass *vp, struct gguf_sc_blocks *b)
{
	b->min = fold(vp->mn, 0);
	b->max = fold(vp->mx, 1);
	b->nzero = vp->zeros;
}

/* Q8_0: the codes as they are. */
AVX2 static void
v_q8_0(const uint8_t *s, uint64_t nb, uint32_t *sk,
    struct gguf_sc_blocks *b)
{
	struct vpass	vp;
	uint64_t	i;

	vp.mn = _mm256_set1_ps(__builtin_inff());
	vp.mx = _mm256_set1_ps(-__builtin_inff());
	vp.zeros = 0;
	for (i = 0; i < nb; i++, s += 34)
		v_block(_mm256_loadu_si256((const __m256i *)(s + 2)), b, i,
		    sk, &vp);
	v_done(&vp, b);
}

/* Q4_0: nibbles less 8, the low ones, then the high ones. */
AVX2 static void
v_q4_0(const uint8_t *s, uint64_t nb, uint32_t *sk,
    struct gguf_sc_blocks *b)
{
	struct vpass	vp;
	__m128i		x, m = _mm_set1_epi8(0x0f), e = _mm_set1_epi8(8);
	uint64_t	i;

	vp.mn = _mm256_set1_ps(__builtin_inff());
	vp.mx = _mm256_set1_ps(-__builtin_inff());
	vp.zeros = 0;
	for (i = 0; i < nb; i++, s += 18) {
		x = _mm_loadu_si128((const __m128i *)(s + 2));
		v_block(_mm256_set_m128i(_mm_sub_epi8(_mm_and_si128(
		    _mm_srli_epi16(x, 4), m), e), _mm_sub_epi8(_mm_and_si128(
		    x, m), e)), b, i, sk, &vp);
	}
	v_done(&vp, b);
}

/* ------------------------------------------------------------ Q4_K */

/* Codes 0 .. 7 and 8 .. 15 as floats. */
#define K4_C0	_mm256_setr_ps(0, 1, 2, 3, 4, 5, 6, 7)
#define K4_C1	_mm256_setr_ps(8, 9, 10, 11, 12, 13, 14, 15)

/*
 * How many of each code a vector of 32 codes holds, into n[16]. A table
 * lookup maps code 2p to 1, code 2p + 1 to 64 and the others to 0; the
 * sum of those bytes over a lane of 8 is then N(2p) + 64 N(2p + 1), and so
 * is the sum of the 4 lanes' sums, each count being at most 32: 8
 * lookups and 8 sums of bytes instead of one comparison per code.
 */
static const uint8_t	k4_lut[8][16] = {
	{ 1, 64 }, { 0, 0, 1, 64 }, { 0, 0, 0, 0, 1, 64 },
	{ 0, 0, 0, 0, 0, 0, 1, 64 }, { 0, 0, 0, 0, 0, 0, 0, 0, 1, 64 },
	{ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 64 },
	{ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 64 },
	{ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 64 },
};

/* Sums of 8 bytes of the lookup of pairs 4h .. 4h + 3, as 16-bit fields. */
AVX2 static inline __m256i
k4_pairs(__m256i x, int h)
{
	__m256i	zero = _mm256_setzero_si256(), t = zero, s;
	int	p;

	for (p = 0; p < 4; p++) {
		s = _mm256_sad_epu8(_mm256_shuffle_epi8(
		    _mm256_broadcastsi128_si256(_mm_loadu_si128(
		    (const __m128i *)k4_lut[4 * h + p])), x), zero);
		t = _mm256_or_si256(t, _mm256_slli_epi64(s, 16 * p));
	}
	/* the 4 lanes' fields added: in lane 0 of each half, then across */
	return _mm256_add_epi16(t, _mm256_permute4x64_epi64(t, 0x4e));
}

AVX2 static inline void
k4_codes(__m256i x, uint8_t n[16])
{
	__m256i	a = k4_pairs(x, 0), b = k4_pairs(x, 1);
	__m128i	w, lo, hi, m = _mm_set1_epi16(63);

	w = _mm256_castsi256_si128(_mm256_add_epi16(_mm256_unpacklo_epi64(a,
	    b), _mm256_unpackhi_epi64(a, b)));
	/* field p: N(2p) + 64 N(2p + 1) */
	lo = _mm_and_si128(w, m);
	hi = _mm_srli_epi16(w, 6);
	_mm_storeu_si128((__m128i *)n, _mm_packus_epi16(
	    _mm_unpacklo_epi16(lo, hi), _mm_unpackhi_epi16(lo, hi)));
}

/* Counts of codes 4j .. 4j + 3 of n as 4 doubles. */
AVX2 static inline __m256d
k4_n4(const uint8_t n[16], int j)
{
	uint32_t	u;

	memcpy(&u, n + 4 * j, 4);
	return _mm256_cvtepi32_pd(_mm_cvtepu8_epi32(_mm_cvtsi32_si128(
	    (int)u)));
}

/* The values of codes 0 .. 7 (v[0]) and 8 .. 15 (v[1]) of a sub-block. */
AVX2 static inline void
k4_values(float a, float b, __m256 v[2])
{
	__m256	av = _mm256_set1_ps(a), bv = _mm256_set1_ps(b);

	v[0] = _mm256_sub_ps(_mm256_mul_ps(av, K4_C0), bv);
	v[1] = _mm256_sub_ps(_mm256_mul_ps(av, K4_C1), bv);
}

AVX2 static void
v_k4_count(const uint8_t *s, uint64_t nb, struct gguf_sc_k4 *k)
{
	__m256d		sum[4], nd;
	__m256		v[2], mn = _mm256_set1_ps(__builtin_inff());
	__m256		mx = _mm256_set1_ps(-__builtin_inff()), mz = mn, x, pres;
	__m256		inf = mn;
	__m256i		q, m4 = _mm256_set1_epi8(0x0f), nz = _mm256_setzero_si256();
	__m256i		n32, abs = _mm256_set1_epi32(0x7fffffff);
	uint64_t	i, sb = 0;
	uint32_t	zs[8];
	float		d, dmin;
	uint8_t		sc, m;
	int		j, h, c;

	for (j = 0; j < 4; j++)
		sum[j] = _mm256_setzero_pd();
	for (i = 0; i < nb; i++, s += 144) {
		d = ldh(s);
		dmin = ldh(s + 2);
		for (j = 0; j < 8; j++) {
			gguf_k4_scale_min(s + 4, j, &sc, &m);
			k->a[sb + j] = d * (float)sc;
			k->b[sb + j] = dmin * (float)m;
		}
		for (j = 0; j < 4; j++) {
			q = _mm256_loadu_si256((const __m256i *)(s + 16 +
			    32 * j));
			k4_codes(_mm256_and_si256(q, m4), k->n[sb + 2 * j]);
			k4_codes(_mm256_and_si256(_mm256_srli_epi16(q, 4), m4),
			    k->n[sb + 2 * j + 1]);
		}
		for (j = 0; j < 8; j++, sb++) {
			k4_values(k->a[sb], k->b[sb], v);
			/* unrolled: the accumulators stay in registers */
#pragma GCC unroll 2
			for (h = 0; h < 2; h++) {
#pragma GCC unroll 2
				for (c = 0; c < 2; c++) {
					nd = k4_n4(k->n[sb], 2 * h + c);
					sum[2 * h + c] = _mm256_add_pd(
					    sum[2 * h + c], _mm256_mul_pd(nd,
					    _mm256_cvtps_pd(c ?
					    _mm256_extractf128_ps(v[h], 1) :
					    _mm256_castps256_ps128(v[h]))));
				}
				n32 = _mm256_cvtepu8_epi32(_mm_loadl_epi64(
				    (const __m128i *)(k->n[sb] + 8 * h)));
				/* present: a count above zero */
				pres = _mm256_castsi256_ps(_mm256_cmpgt_epi32(
				    n32, _mm256_setzero_si256()));
				x = _mm256_blendv_ps(inf, v[h], pres);
				mn = _mm256_min_ps(x, mn);
				x = _mm256_blendv_ps(_mm256_set1_ps(
				    -__builtin_inff()), v[h], pres);
				mx = _mm256_max_ps(x, mx);
				/* magnitudes; zeros counted, not taken */
				x = _mm256_and_ps(v[h], _mm256_castsi256_ps(
				    abs));
				pres = _mm256_and_ps(pres, _mm256_cmp_ps(x,
				    _mm256_setzero_ps(), _CMP_NEQ_OQ));
				mz = _mm256_min_ps(_mm256_blendv_ps(inf, x,
				    pres), mz);
				nz = _mm256_add_epi32(nz, _mm256_and_si256(n32,
				    _mm256_castps_si256(_mm256_cmp_ps(v[h],
				    _mm256_setzero_ps(), _CMP_EQ_OQ))));
			}
		}
	}
	for (j = 0; j < 4; j++)
		_mm256_storeu_pd(k->sum + 4 * j, sum[j]);
	k->min = fold(mn, 0);
	k->max = fold(mx, 1);
	k->minnz = fold(mz, 0);
	_mm256_storeu_si256((__m256i *)zs, nz);
	k->nzero = 0;
	for (j = 0; j < 8; j++)
		k->nzero += zs[j];
}

AVX2 static void
v_k4_spread(const struct gguf_sc_k4 *k, uint64_t nsb, double mean,
    double m2[16], uint32_t *sk)
{
	__m256d		acc[4], mv = _mm256_set1_pd(mean), dv;
	__m256		v[2];
	uint32_t	key[16];
	uint64_t	sb;
	int		j, c;

	for (j = 0; j < 4; j++)
		acc[j] = _mm256_setzero_pd();
	for (sb = 0; sb < nsb; sb++) {
		k4_values(k->a[sb], k->b[sb], v);
		/* unrolled: the accumulators stay in registers */
#pragma GCC unroll 4
		for (j = 0; j < 4; j++) {
			dv = _mm256_sub_pd(_mm256_cvtps_pd(j & 1 ?
			    _mm256_extractf128_ps(v[j >> 1], 1) :
			    _mm256_castps256_ps128(v[j >> 1])), mv);
			acc[j] = _mm256_add_pd(acc[j], _mm256_mul_pd(
			    k4_n4(k->n[sb], j), _mm256_mul_pd(dv, dv)));
		}
		if (sk == NULL)
			continue;
		_mm256_storeu_si256((__m256i *)key, keys8(v[0]));
		_mm256_storeu_si256((__m256i *)(key + 8), keys8(v[1]));
		for (c = 0; c < 16; c++)
			sk[key[c]] += k->n[sb][c];
	}
	for (j = 0; j < 4; j++)
		_mm256_storeu_pd(m2 + 4 * j, acc[j]);
}

int
gguf_sc_k4_vec(gguf_sc_k4_count_fn **count, gguf_sc_k4_spread_fn **spread)
{
	if (!gguf_cpu_avx2())
		return 0;
	*count = v_k4_count;
	*spread = v_k4_spread;
	return 1;
}

int
gguf_sc_vec(gguf_sc_pass_fn **q8_0, gguf_sc_pass_fn **q4_0)
{
	if (!gguf_cpu_avx2())
		return 0;
	*q8_0 = v_q8_0;
	*q4_0 = v_q4_0;
	return 1;
}

int
gguf_sv_vec(gguf_sv_scan_fn **scan, gguf_sv_m2_fn **m2, const char **isa)
{
	if (!gguf_cpu_avx2())
		return 0;
	*scan = v_scan;
	*m2 = v_m2;
	*isa = "avx2";
	return 1;
}

#else /* not x86-64 with GCC or clang */

int
gguf_sc_k4_vec(gguf_sc_k4_count_fn **count, gguf_sc_k4_spread_fn **spread)
{
	(void)count;
	(void)spread;
	return 0;
}

int
gguf_sc_vec(gguf_sc_pass_fn **q8_0, gguf_sc_pass_fn **q4_0)
{
	(void)q8_0;
	(void)q4_0;
	return 0;
}

int
gguf_sv_vec(gguf_sv_scan_fn **scan, gguf_sv_m2_fn **m2, const char **isa)
{
	(void)scan;
	(void)m2;
	(void)isa;
	return 0;
}

#endif
