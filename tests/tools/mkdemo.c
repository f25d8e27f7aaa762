/*
 * mkdemo.c - writes the bundled demo model.
 *
 * The demo is a file with the shape of a small llama model: the usual
 * general.* and llama.* metadata, a SentencePiece-style vocabulary of a few
 * thousand tokens with scores and token types, a chat template, and the
 * standard tensors of a few transformer blocks in a mix of quantization
 * types (F32 norms, Q8_0, Q4_K, Q6_K, F16). Its weights are random: it
 * cannot generate text, it only has to look and browse like a model.
 *
 * Everything is derived from a fixed seed by integer arithmetic and plain
 * IEEE operations (no libm calls on the data path), so the output is the
 * same byte for byte wherever it is built. Each tensor draws from its own
 * stream, seeded from its name, so reordering tensors does not change them.
 *
 * The quantizers are simple ones written from the block layouts alone: a
 * per-block range (Q8_0), per-sub-block scale and minimum (Q4_K) or scale
 * (Q6_K), with the sub-block scales quantized against a super-block scale.
 * They are not as good as ggml's searches, and need not be. After writing,
 * each tensor is dequantized again here and its mean, deviation and
 * round-trip error are printed, so a wrong bit layout shows at once.
 *
 * The vocabulary is generated too: byte tokens, control tokens, a short
 * hand-written list of English words and word pieces, a few non-ASCII
 * pieces (to exercise width-aware drawing), pseudo-words from a syllable
 * generator to fill up, single characters last, then added tokens.
 *
 * The layout is the one ggml writes: GGUF v3, the default alignment of 32
 * (so no general.alignment key), tensor data offsets the running sum of
 * padded sizes in tensor-info order, and zero padding after every tensor,
 * the last one included.
 *
 * Usage: mkdemo OUTPUT.gguf
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ggufgen.h"

#define DEMO_SEED	0x6767756665640001ULL

/* Hyper-parameters. K-quant rows need a multiple of 256 elements. */
#define N_VOCAB		3072
#define N_EMBD		256
#define N_FF		512
#define N_HEAD		8
#define N_HEAD_KV	4
#define N_LAYER		4
#define N_CTX		2048
#define HEAD_DIM	(N_EMBD / N_HEAD)
#define ALIGN		32

#define QK8_0		32
#define QK_K		256
#define Q4_K_BYTES	144	/* d, dmin, scales[12], qs[128] */
#define Q6_K_BYTES	210	/* ql[128], qh[64], scales[16], d */
#define Q8_0_BYTES	34	/* d, qs[32] */

#define FTYPE_MOSTLY_Q4_K_M	15	/* general.file_type */

/* ------------------------------------------------------------------ random */

struct rng {
	uint64_t	s;
};

/* splitmix64: small, full period, good enough for weights. */
static uint64_t
rng_next(struct rng *r)
{
	uint64_t	z;

	r->s += 0x9e3779b97f4a7c15ULL;
	z = r->s;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in [0, 1). */
static double
rng_unif(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

/* Uniform integer in [0, n). */
static uint32_t
rng_below(struct rng *r, uint32_t n)
{
	return (uint32_t)((rng_next(r) >> 32) % n);
}

/*
 * Roughly standard normal: the sum of twelve uniforms less six (mean 0,
 * variance 1, tails cut at 6). No libm, so the same everywhere.
 */
static double
rng_normal(struct rng *r)
{
	double	s = 0;
	int	i;

	for (i = 0; i < 12; i++)
		s += rng_unif(r);
	return s - 6.0;
}

static uint64_t
fnv1a(const char *s)
{
	uint64_t	h = 0xcbf29ce484222325ULL;

	for (; *s != '\0'; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* ------------------------------------------------------------- half floats */

static uint32_t
f32_bits(float f)
{
	uint32_t	x;

	memcpy(&x, &f, sizeof x);
	return x;
}

static float
bits_f32(uint32_t x)
{
	float	f;

	memcpy(&f, &x, sizeof f);
	return f;
}

/* IEEE binary32 to binary16, round to nearest even. */
static uint16_t
f32_to_f16(float f)
{
	uint32_t	x = f32_bits(f), sign, mant, m, rem, halfway, h;
	int		e, shift;

	sign = (x >> 16) & 0x8000;
	e = (int)((x >> 23) & 0xff);
	mant = x & 0x7fffff;
	if (e == 0xff)
		return (uint16_t)(sign | 0x7c00 | (mant != 0 ? 0x200 : 0));
	e = e - 127 + 15;
	if (e >= 31)
		return (uint16_t)(sign | 0x7c00);
	if (e <= 0) {
		/* Subnormal half: the value in units of 2^-24. */
		shift = 14 - e;
		if (shift > 24)
			return (uint16_t)sign;
		mant |= 0x800000;
		m = mant >> shift;
		rem = mant & ((1u << shift) - 1);
		halfway = 1u << (shift - 1);
		if (rem > halfway || (rem == halfway && (m & 1) != 0))
			m++;
		return (uint16_t)(sign | m);
	}
	h = ((uint32_t)e << 10) | (mant >> 13);
	rem = mant & 0x1fff;
	if (rem > 0x1000 || (rem == 0x1000 && (h & 1) != 0))
		h++;		/* may carry into the exponent, up to inf */
	return (uint16_t)(sign | h);
}

static float
f16_to_f32(uint16_t h)
{
	uint32_t	sign = (uint32_t)(h & 0x8000) << 16;
	uint32_t	e = (h >> 10) & 0x1f, mant = h & 0x3ff;

	if (e == 0) {
		if (mant == 0)
			return bits_f32(sign);
		/* Normalise the subnormal. */
		e = 127 - 15 + 1;
		while ((mant & 0x400) == 0) {
			mant <<= 1;
			e--;
		}
		mant &= 0x3ff;
		return bits_f32(sign | (e << 23) | (mant << 13));
	}
	if (e == 31)
		return bits_f32(sign | 0x7f800000 | (mant << 13));
	return bits_f32(sign | ((e - 15 + 127) << 23) | (mant << 13));
}

static void
put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static uint16_t
get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | (p[1] << 8));
}

/* Round half away from zero, then clamp to [lo, hi]. */
static int
qround(double v, int lo, int hi)
{
	int	q;

	if (v >= hi)
		return hi;
	if (v <= lo)
		return lo;
	q = v >= 0 ? (int)(v + 0.5) : -(int)(-v + 0.5);
	return q < lo ? lo : q > hi ? hi : q;
}

/* -------------------------------------------------------------- quantizers */

/*
 * Q8_0: blocks of 32, one f16 scale d, 32 signed bytes; x = d * q.
 */
static void
quant_q8_0(const float *x, size_t n, uint8_t *out)
{
	size_t		b, i;
	float		amax, d, v;
	uint16_t	dh;

	for (b = 0; b < n / QK8_0; b++, x += QK8_0, out += Q8_0_BYTES) {
		amax = 0;
		for (i = 0; i < QK8_0; i++) {
			v = x[i] < 0 ? -x[i] : x[i];
			if (v > amax)
				amax = v;
		}
		dh = f32_to_f16(amax / 127.0f);
		d = f16_to_f32(dh);
		put16(out, dh);
		for (i = 0; i < QK8_0; i++)
			out[2 + i] = (uint8_t)(int8_t)(d > 0 ?
			    qround((double)x[i] / d, -127, 127) : 0);
	}
}

static void
dequant_q8_0(const uint8_t *in, size_t n, float *y)
{
	size_t	b, i;
	float	d;

	for (b = 0; b < n / QK8_0; b++, in += Q8_0_BYTES) {
		d = f16_to_f32(get16(in));
		for (i = 0; i < QK8_0; i++)
			*y++ = d * (float)(int8_t)in[2 + i];
	}
}

/*
 * Q4_K: super-blocks of 256 in 8 sub-blocks of 32. Each sub-block j has a
 * 6-bit scale sc[j] and a 6-bit minimum m[j], against the super-block's
 * f16 d and dmin: x = d * sc[j] * q - dmin * m[j], q in 0..15.
 *
 * The twelve scale bytes hold sc[0..3] and m[0..3] in the low six bits of
 * bytes 0..3 and 4..7; sc[4..7] and m[4..7] keep their low four bits in
 * the two nibbles of bytes 8..11 and their top two bits in the top two
 * bits of bytes 0..3 and 4..7.
 *
 * The 128 quant bytes cover the super-block in four runs of 64 values:
 * byte k of run r holds value r*64+k in its low nibble and r*64+32+k in
 * its high nibble.
 */
static void
quant_q4_k(const float *x, size_t n, uint8_t *out)
{
	float		scale[8], mn[8], smax, mmax, d, dmin, lo, hi, ed, em;
	uint8_t		sc[8], m[8], *s, *qs;
	uint16_t	dh, dminh;
	size_t		b;
	int		j, i, q;

	for (b = 0; b < n / QK_K; b++, x += QK_K, out += Q4_K_BYTES) {
		smax = mmax = 0;
		for (j = 0; j < 8; j++) {
			lo = hi = x[j * 32];
			for (i = 1; i < 32; i++) {
				if (x[j * 32 + i] < lo)
					lo = x[j * 32 + i];
				if (x[j * 32 + i] > hi)
					hi = x[j * 32 + i];
			}
			if (lo > 0)
				lo = 0;
			scale[j] = (hi - lo) / 15.0f;
			mn[j] = -lo;
			if (scale[j] > smax)
				smax = scale[j];
			if (mn[j] > mmax)
				mmax = mn[j];
		}
		dh = f32_to_f16(smax / 63.0f);
		dminh = f32_to_f16(mmax / 63.0f);
		d = f16_to_f32(dh);
		dmin = f16_to_f32(dminh);
		for (j = 0; j < 8; j++) {
			sc[j] = (uint8_t)(d > 0 ?
			    qround((double)scale[j] / d, 0, 63) : 0);
			m[j] = (uint8_t)(dmin > 0 ?
			    qround((double)mn[j] / dmin, 0, 63) : 0);
		}

		put16(out, dh);
		put16(out + 2, dminh);
		s = out + 4;
		for (j = 0; j < 4; j++) {
			s[j] = (uint8_t)(sc[j] | ((sc[j + 4] >> 4) << 6));
			s[j + 4] = (uint8_t)(m[j] | ((m[j + 4] >> 4) << 6));
			s[j + 8] = (uint8_t)((sc[j + 4] & 0xf) |
			    ((m[j + 4] & 0xf) << 4));
		}
		qs = out + 16;
		memset(qs, 0, QK_K / 2);
		for (j = 0; j < 8; j++) {
			ed = d * (float)sc[j];
			em = dmin * (float)m[j];
			for (i = 0; i < 32; i++) {
				q = ed > 0 ? qround(((double)x[j * 32 + i] +
				    em) / ed, 0, 15) : 0;
				if (j % 2 == 0)
					qs[(j / 2) * 32 + i] |= (uint8_t)q;
				else
					qs[(j / 2) * 32 + i] |= (uint8_t)(q << 4);
			}
		}
	}
}

static void
dequant_q4_k(const uint8_t *in, size_t n, float *y)
{
	const uint8_t	*s, *qs;
	size_t		 b;
	float		 d, dmin;
	int		 j, i, sc, m, q;

	for (b = 0; b < n / QK_K; b++, in += Q4_K_BYTES) {
		d = f16_to_f32(get16(in));
		dmin = f16_to_f32(get16(in + 2));
		s = in + 4;
		qs = in + 16;
		for (j = 0; j < 8; j++) {
			if (j < 4) {
				sc = s[j] & 63;
				m = s[j + 4] & 63;
			} else {
				sc = (s[j + 4] & 0xf) | ((s[j - 4] >> 6) << 4);
				m = (s[j + 4] >> 4) | ((s[j] >> 6) << 4);
			}
			for (i = 0; i < 32; i++) {
				q = qs[(j / 2) * 32 + i];
				q = j % 2 == 0 ? q & 0xf : q >> 4;
				*y++ = d * (float)sc * (float)q -
				    dmin * (float)m;
			}
		}
	}
}

/*
 * Q6_K: super-blocks of 256 in 16 sub-blocks of 16, each with a signed
 * 8-bit scale against the super-block's f16 d: x = d * sc[j] * (q - 32),
 * q in 0..63.
 *
 * The super-block is two halves of 128 values; half h uses ql[64h..],
 * qh[32h..] and scales[8h..]. Within a half, value 32g + l (g 0..3, l
 * 0..31) keeps its low four bits in ql[l] (g 0 low nibble, g 2 high
 * nibble) or ql[32 + l] (g 1 low, g 3 high), and its top two bits in bits
 * 2g..2g+1 of qh[l]. Its scale is scales[8h + (32g + l) / 16].
 */
static void
quant_q6_k(const float *x, size_t n, uint8_t *out)
{
	float		scale[16], smax, d, v, ed;
	uint8_t		*ql, *qh;
	int8_t		sc[16];
	uint16_t	dh;
	size_t		b;
	int		j, i, e, h, g, l, q;

	for (b = 0; b < n / QK_K; b++, x += QK_K, out += Q6_K_BYTES) {
		smax = 0;
		for (j = 0; j < 16; j++) {
			scale[j] = 0;
			for (i = 0; i < 16; i++) {
				v = x[j * 16 + i] < 0 ? -x[j * 16 + i] :
				    x[j * 16 + i];
				if (v > scale[j])
					scale[j] = v;
			}
			scale[j] /= 31.0f;
			if (scale[j] > smax)
				smax = scale[j];
		}
		dh = f32_to_f16(smax / 127.0f);
		d = f16_to_f32(dh);
		for (j = 0; j < 16; j++)
			sc[j] = (int8_t)(d > 0 ?
			    qround((double)scale[j] / d, 0, 127) : 0);

		ql = out;
		qh = out + 128;
		memset(out, 0, 192);
		for (e = 0; e < QK_K; e++) {
			ed = d * (float)sc[e / 16];
			q = (ed > 0 ? qround((double)x[e] / ed, -32, 31) : 0) +
			    32;
			h = e / 128;
			g = (e % 128) / 32;
			l = e % 32;
			ql[64 * h + l + (g % 2) * 32] |=
			    (uint8_t)((q & 0xf) << (g / 2 * 4));
			qh[32 * h + l] |= (uint8_t)((q >> 4) << (2 * g));
		}
		memcpy(out + 192, sc, 16);
		put16(out + 208, dh);
	}
}

static void
dequant_q6_k(const uint8_t *in, size_t n, float *y)
{
	const uint8_t	*ql, *qh;
	size_t		 b;
	float		 d;
	int		 e, h, g, l, q;

	for (b = 0; b < n / QK_K; b++, in += Q6_K_BYTES) {
		ql = in;
		qh = in + 128;
		d = f16_to_f32(get16(in + 208));
		for (e = 0; e < QK_K; e++) {
			h = e / 128;
			g = (e % 128) / 32;
			l = e % 32;
			q = (ql[64 * h + l + (g % 2) * 32] >> (g / 2 * 4)) &
			    0xf;
			q |= ((qh[32 * h + l] >> (2 * g)) & 3) << 4;
			*y++ = d * (float)(int8_t)in[192 + 8 * h +
			    (32 * g + l) / 16] * (float)(q - 32);
		}
	}
}

static void
quant_f16(const float *x, size_t n, uint8_t *out)
{
	size_t	i;

	for (i = 0; i < n; i++)
		put16(out + 2 * i, f32_to_f16(x[i]));
}

static void
dequant_f16(const uint8_t *in, size_t n, float *y)
{
	size_t	i;

	for (i = 0; i < n; i++)
		y[i] = f16_to_f32(get16(in + 2 * i));
}

static void
quant_f32(const float *x, size_t n, uint8_t *out)
{
	size_t		i;
	uint32_t	v;

	for (i = 0; i < n; i++) {
		v = f32_bits(x[i]);
		out[4 * i] = (uint8_t)v;
		out[4 * i + 1] = (uint8_t)(v >> 8);
		out[4 * i + 2] = (uint8_t)(v >> 16);
		out[4 * i + 3] = (uint8_t)(v >> 24);
	}
}

static void
dequant_f32(const uint8_t *in, size_t n, float *y)
{
	size_t	i;

	for (i = 0; i < n; i++)
		y[i] = bits_f32((uint32_t)in[4 * i] |
		    (uint32_t)in[4 * i + 1] << 8 |
		    (uint32_t)in[4 * i + 2] << 16 |
		    (uint32_t)in[4 * i + 3] << 24);
}

struct qtype {
	uint32_t	 id;
	const char	*name;
	uint32_t	 blck;
	uint32_t	 bytes;
	void		(*quant)(const float *, size_t, uint8_t *);
	void		(*dequant)(const uint8_t *, size_t, float *);
};

static const struct qtype qtypes[] = {
	{ GG_T_F32, "F32", 1, 4, quant_f32, dequant_f32 },
	{ GG_T_F16, "F16", 1, 2, quant_f16, dequant_f16 },
	{ GG_T_Q8_0, "Q8_0", QK8_0, Q8_0_BYTES, quant_q8_0, dequant_q8_0 },
	{ GG_T_Q4_K, "Q4_K", QK_K, Q4_K_BYTES, quant_q4_k, dequant_q4_k },
	{ GG_T_Q6_K, "Q6_K", QK_K, Q6_K_BYTES, quant_q6_k, dequant_q6_k },
};
enum { T_F32, T_F16, T_Q8_0, T_Q4_K, T_Q6_K };

/* ----------------------------------------------------------------- tensors */

/* How a tensor's values are drawn. */
enum dist {
	D_NORM,		/* around mean (near 1), spread std */
	D_WEIGHT,	/* normal(0, std), rows scaled, rare outliers */
};

struct tensor {
	char		 name[64];
	uint32_t	 n_dims;
	uint64_t	 ne[2];
	int		 type;		/* index into qtypes */
	enum dist	 dist;
	float		 mean;
	float		 std;
	uint64_t	 nbytes;
	uint64_t	 offset;	/* from the start of the data section */
};

#define MAX_TENSORS	(2 + 2 + 9 * N_LAYER)

static struct tensor	tensors[MAX_TENSORS];
static size_t		n_tensors;

static void
add_tensor(const char *name, uint64_t ne0, uint64_t ne1, int type,
    enum dist dist, float mean, float std)
{
	struct tensor	*t;
	uint64_t	 n;

	if (n_tensors == MAX_TENSORS)
		abort();
	t = &tensors[n_tensors++];
	snprintf(t->name, sizeof t->name, "%s", name);
	t->n_dims = ne1 > 1 ? 2 : 1;
	t->ne[0] = ne0;
	t->ne[1] = ne1;
	t->type = type;
	t->dist = dist;
	t->mean = mean;
	t->std = std;
	n = ne0 * ne1;
	if (ne0 % qtypes[type].blck != 0)
		abort();
	t->nbytes = n / qtypes[type].blck * qtypes[type].bytes;
}

/* Adds blk.L.SUFFIX.weight. */
static void
add_block_tensor(int l, const char *suffix, uint64_t ne0, uint64_t ne1,
    int type, enum dist dist, float mean, float std)
{
	char	name[64];

	snprintf(name, sizeof name, "blk.%d.%s.weight", l, suffix);
	add_tensor(name, ne0, ne1, type, dist, mean, std);
}

/*
 * The recipe: the bulk in Q4_K with Q6_K for the value and down
 * projections and the output head (as a Q4_K_M file has it), the first
 * block's attention kept in Q8_0, the last block's key and value
 * projections in F16, and every norm in F32.
 */
static void
plan_tensors(void)
{
	int	l, wq, wk, wv, wo, wg, wu, wd;

	add_tensor("token_embd.weight", N_EMBD, N_VOCAB, T_Q4_K, D_WEIGHT,
	    0, 0.045f);
	for (l = 0; l < N_LAYER; l++) {
		wq = wk = wo = wg = wu = T_Q4_K;
		wv = wd = T_Q6_K;
		if (l == 0)
			wq = wk = wv = wo = T_Q8_0;
		if (l == N_LAYER - 1)
			wk = wv = T_F16;
		add_block_tensor(l, "attn_norm", N_EMBD, 1, T_F32, D_NORM,
		    0.85f + 0.05f * (float)l, 0.08f);
		add_block_tensor(l, "attn_q", N_EMBD, N_EMBD, wq, D_WEIGHT,
		    0, 0.055f);
		add_block_tensor(l, "attn_k", N_EMBD, HEAD_DIM * N_HEAD_KV, wk,
		    D_WEIGHT, 0, 0.06f);
		add_block_tensor(l, "attn_v", N_EMBD, HEAD_DIM * N_HEAD_KV, wv,
		    D_WEIGHT, 0, 0.03f);
		add_block_tensor(l, "attn_output", N_EMBD, N_EMBD, wo, D_WEIGHT,
		    0, 0.03f);
		add_block_tensor(l, "ffn_norm", N_EMBD, 1, T_F32, D_NORM,
		    0.95f + 0.03f * (float)l, 0.06f);
		add_block_tensor(l, "ffn_gate", N_EMBD, N_FF, wg, D_WEIGHT,
		    0, 0.045f);
		add_block_tensor(l, "ffn_up", N_EMBD, N_FF, wu, D_WEIGHT,
		    0, 0.04f);
		add_block_tensor(l, "ffn_down", N_FF, N_EMBD, wd, D_WEIGHT,
		    0, 0.035f);
	}
	add_tensor("output_norm.weight", N_EMBD, 1, T_F32, D_NORM, 1.1f, 0.1f);
	add_tensor("output.weight", N_EMBD, N_VOCAB, T_Q6_K, D_WEIGHT, 0,
	    0.04f);
}

/*
 * Draws a tensor's values. Weights: each row (output channel) gets its own
 * scale between 0.7 and 1.3, and one value in about a thousand is an
 * outlier three to eight times larger, as in trained models. Norms: near
 * the mean, never below 0.05.
 */
static void
fill_tensor(const struct tensor *t, float *x)
{
	struct rng	r;
	uint64_t	row, i;
	double		rs, v;

	r.s = DEMO_SEED ^ fnv1a(t->name);
	for (row = 0; row < t->ne[1]; row++) {
		rs = 0.7 + 0.6 * rng_unif(&r);
		for (i = 0; i < t->ne[0]; i++) {
			if (t->dist == D_NORM) {
				v = t->mean + t->std * rng_normal(&r);
				if (v < 0.05)
					v = 0.05;
			} else {
				v = t->std * rs * rng_normal(&r);
				if (rng_below(&r, 1024) == 0)
					v *= 3.0 + 5.0 * rng_unif(&r);
			}
			x[row * t->ne[0] + i] = (float)v;
		}
	}
}

static uint64_t
n_params(void)
{
	uint64_t	n = 0;
	size_t		i;

	for (i = 0; i < n_tensors; i++)
		n += tensors[i].ne[0] * tensors[i].ne[1];
	return n;
}

/*
 * A parameter count in the style of general.size_label: one scale letter
 * and at least two significant digits ("3.9M", "42M", "650K").
 */
static void
size_label(uint64_t n, char *buf, size_t len)
{
	static const struct {
		double	 scale;
		char	 letter;
	}		 s[] = {
		{ 1e15, 'Q' }, { 1e12, 'T' }, { 1e9, 'B' }, { 1e6, 'M' },
		{ 1e3, 'K' }, { 1, ' ' }
	};
	double		 v;
	size_t		 i;

	for (i = 0; i < sizeof s / sizeof s[0] - 1; i++)
		if ((double)n >= s[i].scale)
			break;
	v = (double)n / s[i].scale;
	if (v + 0.5 < 10)
		snprintf(buf, len, "%.1f%c", v, s[i].letter);
	else
		snprintf(buf, len, "%.0f%c", v, s[i].letter);
}

/* -------------------------------------------------------------- vocabulary */

/* Frequent letter pairs and triples, in rough frequency order. */
static const char *const pieces_ngram[] = {
	"▁t", "er", "in", "▁a", "en", "on", "▁th", "es", "▁s", "▁d", "at",
	"or", "an", "▁c", "is", "re", "it", "▁the", "ar", "le", "▁w", "▁p",
	"ou", "al", "▁f", "▁m", "ed", "▁o", "▁b", "om", "ion", "ing", "ic",
	"as", "el", "ent", "▁in", "▁h", "nd", "et", "▁l", "▁n", "st", "▁to",
	"ch", "▁I", "ro", "il", "▁of", "de", "ct", "▁(", "am", "▁C", "▁de",
	"▁S", "▁u", "▁A", "ot", "▁e", "ol", "▁and", "▁g", "us", "ad", "im",
	"ut", "ation", "ow", "ay", "ly", "id", "ig", "ur", "ver", "ter",
	"ers", "ce", "ith", "▁re", "ter", "ra", "ist", "▁be", "ir", "ec",
	"ul", "▁T", "iv", "ate", "her", "▁y", "▁is", "▁on", "▁for", "ill",
	"ment", "ess", "ck", "▁st", "ld", "ke", "ge", "▁M", "ies", "all",
	"ight", "▁P", "▁B", "▁it", "▁that", "▁con", "▁you", "ort", "ous",
	"ect", "igh", "▁with", "ity", "▁ex", "ri", "ab", "ue", "▁pro",
	"ag", "▁was", "ive", "▁an", "und", "ook", "▁he", "▁we", "ake",
	"ard", "ain", "▁com", "▁al", "ust", "ach", "ong", "ack", "▁as",
	"ind", "ew", "▁su", "▁un", "ell", "▁D", "▁R", "ound", "ated",
	"▁H", "▁F", "ere", "ant", "▁L", "ance", "ence", "▁will", "▁this",
	"ough", "own", "▁are", "ose", "▁v", "▁le", "ile", "ire", "▁ch",
	"▁N", "▁E", "ook", "ible", "able", "▁W", "ful", "less", "ness",
	"tion", "sion", "▁dis", "▁pre", "▁over", "▁under", "ward", "ways",
	"ish", "ism", "ize", "ise", "▁O", "▁G", "▁k", "▁j", "▁K", "▁J",
	"▁V", "▁Y", "▁U", "▁r", "ens", "ial", "ical", "ally", "▁sh",
	"oun", "ical", "ual", "ory", "ary", "ery", "▁qu", "que", "ons",
	"ants", "▁inter", "▁trans", "▁sub", "▁super", "▁anti", "▁auto",
	"▁micro", "▁multi", "▁non", "▁post", "▁semi", "▁tele",
};

/* Common English words. */
static const char *const words[] = {
	"of", "and", "to", "a", "in", "is", "that", "for", "it", "as",
	"was", "with", "be", "by", "on", "not", "he", "I", "this", "are",
	"or", "his", "from", "at", "which", "but", "have", "an", "had",
	"they", "you", "were", "their", "one", "all", "we", "can", "her",
	"has", "there", "been", "if", "more", "when", "will", "would",
	"who", "so", "no", "she", "other", "its", "may", "these", "what",
	"them", "than", "some", "him", "time", "into", "only", "do",
	"could", "new", "about", "two", "first", "then", "also", "any",
	"like", "my", "now", "over", "such", "our", "man", "me", "even",
	"most", "made", "after", "many", "before", "must", "through",
	"back", "years", "where", "much", "your", "way", "well", "down",
	"should", "because", "each", "just", "those", "people", "how",
	"too", "little", "state", "good", "very", "make", "world", "still",
	"own", "see", "men", "work", "long", "get", "here", "between",
	"both", "life", "being", "under", "never", "day", "same", "another",
	"know", "while", "last", "might", "us", "great", "old", "year",
	"off", "come", "since", "against", "go", "came", "right", "used",
	"take", "three", "small", "house", "use", "during", "without",
	"again", "place", "around", "however", "home", "found", "Mr",
	"thought", "went", "say", "part", "once", "general", "high",
	"upon", "school", "every", "does", "got", "united", "left",
	"number", "course", "war", "until", "always", "away", "something",
	"fact", "water", "though", "less", "public", "put", "think",
	"almost", "hand", "enough", "far", "took", "head", "yet",
	"government", "system", "better", "set", "told", "nothing", "night",
	"end", "why", "called", "didn", "eyes", "find", "going", "look",
	"asked", "later", "knew", "point", "next", "program", "city",
	"business", "give", "group", "toward", "young", "days", "let",
	"room", "president", "side", "social", "given", "present",
	"several", "order", "national", "possible", "rather", "second",
	"face", "per", "among", "form", "important", "often", "things",
	"looked", "early", "white", "case", "become", "large", "big",
	"need", "four", "within", "felt", "children", "along", "saw",
	"best", "church", "ever", "least", "power", "development", "light",
	"thing", "seemed", "family", "interest", "want", "members", "mind",
	"country", "area", "others", "done", "turned", "although", "open",
	"God", "service", "certain", "kind", "problem", "began", "different",
	"door", "thus", "help", "sense", "means", "whole", "matter",
	"perhaps", "itself", "times", "law", "human", "line", "above",
	"name", "example", "company", "hands", "local", "show", "whether",
	"five", "history", "gave", "today", "either", "act", "feet",
	"across", "taken", "past", "quite", "anything", "seen", "having",
	"death", "week", "experience", "body", "word", "half", "really",
	"field", "am", "car", "words", "already", "themselves", "information",
	"tell", "together", "college", "shall", "money", "period", "held",
	"keep", "sure", "real", "probably", "free", "seems", "political",
	"cannot", "behind", "miss", "question", "air", "office", "making",
	"brought", "whose", "special", "major", "heard", "problems", "ago",
	"became", "federal", "study", "available", "known", "result",
	"street", "economic", "boy", "position", "reason", "change",
	"south", "board", "individual", "job", "areas", "society", "west",
	"close", "turn", "love", "community", "true", "court", "force",
	"full", "model", "file", "token", "data", "story", "once", "cat",
	"dog", "tree", "sun", "moon", "happy", "friend", "play", "ran",
	"little", "girl", "named", "Lily", "Tom", "park", "ball", "saw",
};

/* Sub-word endings, written without the word-start mark. */
static const char *const suffixes[] = {
	"s", "ed", "ing", "er", "ers", "ly", "es", "est", "ness", "ment",
	"ments", "tion", "tions", "able", "ful", "less", "ity", "ous", "ive",
	"al", "ally", "ize", "ized", "ized", "ism", "ist", "ists", "ance",
	"ence", "ship", "hood", "ward", "wise", "like", "y", "ie", "ies",
};

/* Pieces outside ASCII: accents, punctuation, CJK, an emoji. */
static const char *const pieces_utf8[] = {
	"é", "è", "à", "ü", "ö", "ä", "ñ", "ç", "ß", "ø", "å",
	"▁é", "▁über", "▁café", "▁naïve", "▁résumé", "▁façade", "▁São",
	"’", "’s", "▁“", "”", "▁—", "—", "…", "▁€", "°", "×", "±", "→",
	"▁→", "•", "▁•", "▁«", "»", "¿", "¡",
	"日", "本", "語", "▁日本", "人", "中", "国", "▁中国", "的", "是",
	"한", "국", "어", "▁한국어", "の", "は", "に", "を", "▁こんにちは",
	"▁Привет", "▁мир", "ы", "и", "▁Γειά", "α", "β", "γ", "λ", "π",
	"▁∑", "∞", "≈", "≤", "≥", "🙂", "🚀", "▁👍",
};

/* Single characters, appended with the lowest scores. */
static const char single_chars[] =
	"etaoinshrdlcumwfgypbvkjxqzETAOINSHRDLCUMWFGYPBVKJXQZ"
	"0123456789.,'\"-!?:;()[]{}/\\&*+=<>#%$@_|~^`";

/* Tokens added after training, at the end of the vocabulary. */
static const struct {
	const char	*text;
	int32_t		 type;
} added[] = {
	{ "<|im_start|>", 3 }, { "<|im_end|>", 3 }, { "<|tool|>", 4 },
	{ "<unused0>", 5 }, { "<unused1>", 5 }, { "<unused2>", 5 },
	{ "<unused3>", 5 },
};
#define N_ADDED		(sizeof added / sizeof added[0])

#define TOK_UNK		0
#define TOK_BOS		1
#define TOK_EOS		2
#define TOK_IM_END	(N_VOCAB - N_ADDED + 1)

struct vocab {
	char		*text[N_VOCAB];
	float		 score[N_VOCAB];
	int32_t		 type[N_VOCAB];
	size_t		 n;
	uint32_t	 slot[2 * 8192];	/* index + 1; hash set */
};

/* The slot of text in the hash set: where it is, or where it would go. */
static uint64_t
vocab_find(const struct vocab *v, const char *text)
{
	uint64_t	mask = sizeof v->slot / sizeof v->slot[0] - 1, h;

	h = fnv1a(text) & mask;
	while (v->slot[h] != 0) {
		if (strcmp(v->text[v->slot[h] - 1], text) == 0)
			break;
		h = (h + 1) & mask;
	}
	return h;
}

/* Appends a token unless it is already there; returns 1 if added. */
static int
vocab_add(struct vocab *v, const char *text, float score, int32_t type)
{
	uint64_t	h;

	if (v->n >= N_VOCAB)
		abort();
	h = vocab_find(v, text);
	if (v->slot[h] != 0)
		return 0;
	v->text[v->n] = strdup(text);
	if (v->text[v->n] == NULL)
		abort();
	v->score[v->n] = score;
	v->type[v->n] = type;
	v->slot[h] = (uint32_t)++v->n;
	return 1;
}

/* A normal piece: each gets the next lower score. */
static void
vocab_piece(struct vocab *v, const char *text)
{
	vocab_add(v, text, -(float)(v->n - 259), 1);
}

/* "▁" + word. */
static void
vocab_word(struct vocab *v, const char *w, const char *suffix)
{
	char	buf[64];

	snprintf(buf, sizeof buf, "\xe2\x96\x81%s%s", w, suffix);
	vocab_piece(v, buf);
}

/*
 * A pseudo-word of one to three syllables (mostly one or two), marked as a
 * word start half of the time.
 */
static void
pseudo_word(struct rng *r, char *buf, size_t len)
{
	static const char *const onset[] = {
		"b", "c", "d", "f", "g", "h", "k", "l", "m", "n", "p", "r",
		"s", "t", "v", "w", "br", "ch", "cl", "cr", "dr", "fl", "gr",
		"pl", "pr", "sh", "sl", "sp", "st", "str", "th", "tr", "",
	};
	static const char *const nucleus[] = {
		"a", "e", "i", "o", "u", "ai", "ea", "ee", "oo", "ou", "ie",
		"y",
	};
	static const char *const coda[] = {
		"", "", "", "n", "r", "s", "t", "l", "nd", "st", "ng", "ck",
		"m", "rt", "nt",
	};
	size_t		o = 0;
	int		k, n;
	uint32_t	u, a, b, c;

	buf[0] = '\0';
	if (rng_below(r, 2) == 0)
		o += (size_t)snprintf(buf, len, "\xe2\x96\x81");
	u = rng_below(r, 20);
	n = u < 11 ? 1 : u < 19 ? 2 : 3;
	for (k = 0; k < n && o < len; k++) {
		/* One draw per statement: argument order is unspecified. */
		a = rng_below(r, sizeof onset / sizeof onset[0]);
		b = rng_below(r, sizeof nucleus / sizeof nucleus[0]);
		c = rng_below(r, sizeof coda / sizeof coda[0]);
		o += (size_t)snprintf(buf + o, len - o, "%s%s%s", onset[a],
		    nucleus[b], coda[c]);
	}
}

static void
build_vocab(struct vocab *v)
{
	static const char *const verbs[] = {
		"walk", "talk", "play", "look", "want", "help", "work", "call",
		"turn", "start", "show", "ask", "jump", "open", "learn",
		"read", "load", "edit", "save", "print", "count", "test",
	};
	static const char *const vsuf[] = { "s", "ed", "ing", "er" };
	struct rng	 r;
	char		 buf[64];
	size_t		 i, j, tail;

	memset(v, 0, sizeof *v);
	vocab_add(v, "<unk>", 0, 2);
	vocab_add(v, "<s>", 0, 3);
	vocab_add(v, "</s>", 0, 3);
	for (i = 0; i < 256; i++) {
		snprintf(buf, sizeof buf, "<0x%02X>", (unsigned)i);
		vocab_add(v, buf, 0, 6);
	}

	vocab_piece(v, "\xe2\x96\x81\xe2\x96\x81");
	for (i = 0; i < sizeof pieces_ngram / sizeof pieces_ngram[0]; i++)
		vocab_piece(v, pieces_ngram[i]);
	for (i = 0; i < sizeof words / sizeof words[0]; i++) {
		vocab_word(v, words[i], "");
		if (i < 120 && words[i][0] >= 'a' && words[i][0] <= 'z') {
			snprintf(buf, sizeof buf, "\xe2\x96\x81%c%s",
			    words[i][0] - 'a' + 'A', words[i] + 1);
			vocab_piece(v, buf);
		}
		if (i % 7 == 3)
			vocab_piece(v, words[i]);
	}
	for (i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++)
		vocab_piece(v, suffixes[i]);
	for (i = 0; i < sizeof verbs / sizeof verbs[0]; i++)
		for (j = 0; j < sizeof vsuf / sizeof vsuf[0]; j++)
			vocab_word(v, verbs[i], vsuf[j]);
	for (i = 0; i < 10; i++) {
		snprintf(buf, sizeof buf, "\xe2\x96\x81%zu", i);
		vocab_piece(v, buf);
	}
	for (i = 0; i < 100; i += 7) {
		snprintf(buf, sizeof buf, "%02zu", i);
		vocab_piece(v, buf);
	}
	vocab_piece(v, "\xe2\x96\x81\xe2\x96\x81\xe2\x96\x81\xe2\x96\x81");
	vocab_piece(v, "\xe2\x96\x81\xe2\x96\x81\xe2\x96\x81\xe2\x96\x81"
	    "\xe2\x96\x81\xe2\x96\x81\xe2\x96\x81\xe2\x96\x81");
	vocab_piece(v, ".\xe2\x96\x81");
	vocab_piece(v, ",\xe2\x96\x81");
	vocab_piece(v, "\xe2\x96\x81\"");
	vocab_piece(v, "\xe2\x96\x81'");
	vocab_piece(v, "'s");
	vocab_piece(v, "n't");
	vocab_piece(v, "\xe2\x96\x81-");
	vocab_piece(v, "://");
	vocab_piece(v, "\xe2\x96\x81http");
	vocab_piece(v, ".com");
	vocab_piece(v, "\xe2\x96\x81{");
	vocab_piece(v, "\xe2\x96\x81}");
	vocab_piece(v, "();");
	vocab_piece(v, "\xe2\x96\x81=");
	vocab_piece(v, "\xe2\x96\x81==");
	vocab_piece(v, "\xe2\x96\x81return");
	for (i = 0; i < sizeof pieces_utf8 / sizeof pieces_utf8[0]; i++)
		vocab_piece(v, pieces_utf8[i]);

	/*
	 * Fill with pseudo-words, leaving room for the tail: the lone word
	 * mark, the single characters not yet in, and the added tokens.
	 * Pseudo-words of one byte are skipped so the tail stays free.
	 */
	tail = 1 + N_ADDED;
	buf[1] = '\0';
	for (i = 0; single_chars[i] != '\0'; i++) {
		buf[0] = single_chars[i];
		if (v->slot[vocab_find(v, buf)] == 0)
			tail++;
	}
	r.s = DEMO_SEED ^ fnv1a("vocab");
	while (v->n < N_VOCAB - tail) {
		pseudo_word(&r, buf, sizeof buf);
		if (strlen(buf) > 1 && strlen(buf) < 12)
			vocab_piece(v, buf);
	}

	vocab_piece(v, "\xe2\x96\x81");
	buf[1] = '\0';
	for (i = 0; single_chars[i] != '\0'; i++) {
		buf[0] = single_chars[i];
		vocab_piece(v, buf);
	}
	for (i = 0; i < N_ADDED; i++)
		if (!vocab_add(v, added[i].text, 0, added[i].type))
			abort();
	if (v->n != N_VOCAB)
		abort();
}

static void
vocab_free(struct vocab *v)
{
	size_t	i;

	for (i = 0; i < v->n; i++)
		free(v->text[i]);
}

/* ---------------------------------------------------------------- metadata */

static const char chat_template[] =
	"{#- ChatML-style turns. A system turn is added when the first\n"
	"    message is not one. -#}\n"
	"{%- for message in messages %}\n"
	"    {%- if loop.first and message['role'] != 'system' %}\n"
	"        {{- '<|im_start|>system\\n' }}\n"
	"        {{- 'You are a small demo model with random weights.' }}\n"
	"        {{- '<|im_end|>\\n' }}\n"
	"    {%- endif %}\n"
	"    {{- '<|im_start|>' + message['role'] + '\\n' }}\n"
	"    {{- message['content'] | trim }}\n"
	"    {{- '<|im_end|>\\n' }}\n"
	"{%- endfor %}\n"
	"{%- if add_generation_prompt %}\n"
	"    {{- '<|im_start|>assistant\\n' }}\n"
	"{%- endif %}\n";

struct kvw {
	struct gg	*g;
	uint64_t	 n;
};

static void
kv_str(struct kvw *w, const char *key, const char *v)
{
	gg_kv_str(w->g, key, v);
	w->n++;
}

static void
kv_u32(struct kvw *w, const char *key, uint32_t v)
{
	gg_kv_u32(w->g, key, v);
	w->n++;
}

static void
kv_f32(struct kvw *w, const char *key, float v)
{
	gg_kv_f32(w->g, key, v);
	w->n++;
}

static void
kv_bool(struct kvw *w, const char *key, int v)
{
	gg_kv_bool(w->g, key, v != 0);
	w->n++;
}

static void
kv_strs(struct kvw *w, const char *key, const char *const *v, size_t n)
{
	size_t	i;

	gg_kv_arr(w->g, key, GG_STR, n);
	for (i = 0; i < n; i++)
		gg_str(w->g, v[i]);
	w->n++;
}

/* In the order llama.cpp's converter and quantizer write them. */
static void
write_kv(struct kvw *w, const struct vocab *v, const char *label)
{
	static const char *const tags[] = { "demo", "synthetic",
	    "text-generation" };
	static const char *const langs[] = { "en" };
	size_t	i;

	kv_str(w, "general.architecture", "llama");
	kv_str(w, "general.type", "model");
	kv_str(w, "general.name", "Demo Llama");
	kv_str(w, "general.author", "ggufed");
	kv_str(w, "general.version", "v1.0");
	kv_str(w, "general.description", "A small file with the shape of a "
	    "llama model and random weights, bundled with ggufed to show "
	    "what it can browse. It cannot generate text.");
	kv_str(w, "general.basename", "Demo-Llama");
	kv_str(w, "general.size_label", label);
	kv_str(w, "general.license", "MIT");
	kv_strs(w, "general.tags", tags, sizeof tags / sizeof tags[0]);
	kv_strs(w, "general.languages", langs, 1);
	kv_u32(w, "llama.block_count", N_LAYER);
	kv_u32(w, "llama.context_length", N_CTX);
	kv_u32(w, "llama.embedding_length", N_EMBD);
	kv_u32(w, "llama.feed_forward_length", N_FF);
	kv_u32(w, "llama.attention.head_count", N_HEAD);
	kv_u32(w, "llama.attention.head_count_kv", N_HEAD_KV);
	kv_f32(w, "llama.rope.freq_base", 10000.0f);
	kv_f32(w, "llama.attention.layer_norm_rms_epsilon", 1e-5f);
	kv_u32(w, "general.file_type", FTYPE_MOSTLY_Q4_K_M);
	kv_u32(w, "llama.vocab_size", N_VOCAB);
	kv_u32(w, "llama.rope.dimension_count", HEAD_DIM);
	kv_str(w, "tokenizer.ggml.model", "llama");
	kv_str(w, "tokenizer.ggml.pre", "default");

	gg_kv_arr(w->g, "tokenizer.ggml.tokens", GG_STR, v->n);
	for (i = 0; i < v->n; i++)
		gg_str(w->g, v->text[i]);
	w->n++;
	gg_kv_arr(w->g, "tokenizer.ggml.scores", GG_F32, v->n);
	for (i = 0; i < v->n; i++)
		gg_f32(w->g, v->score[i]);
	w->n++;
	gg_kv_arr(w->g, "tokenizer.ggml.token_type", GG_I32, v->n);
	for (i = 0; i < v->n; i++)
		gg_u32(w->g, (uint32_t)v->type[i]);
	w->n++;

	kv_u32(w, "tokenizer.ggml.bos_token_id", TOK_BOS);
	kv_u32(w, "tokenizer.ggml.eos_token_id", TOK_EOS);
	kv_u32(w, "tokenizer.ggml.eot_token_id", TOK_IM_END);
	kv_u32(w, "tokenizer.ggml.unknown_token_id", TOK_UNK);
	kv_u32(w, "tokenizer.ggml.padding_token_id", TOK_UNK);
	kv_bool(w, "tokenizer.ggml.add_bos_token", 1);
	kv_bool(w, "tokenizer.ggml.add_eos_token", 0);
	kv_str(w, "tokenizer.chat_template", chat_template);
	kv_u32(w, "general.quantization_version", 2);
}

/* -------------------------------------------------------------------- main */

/* Mean and deviation of the stored values, and their error against x. */
static void
report(const struct tensor *t, const float *x, const float *y)
{
	uint64_t	n = t->ne[0] * t->ne[1], i;
	double		s = 0, ss = 0, es = 0, xs = 0, mean, var, d;

	for (i = 0; i < n; i++) {
		s += y[i];
		ss += (double)y[i] * y[i];
		d = (double)y[i] - x[i];
		es += d * d;
		xs += (double)x[i] * x[i];
	}
	mean = s / (double)n;
	var = ss / (double)n - mean * mean;
	printf("%-26s %-5s %4llu x %-4llu %8llu bytes  mean %+.5f  std %.5f"
	    "  rel.rmse %.4f\n", t->name, qtypes[t->type].name,
	    (unsigned long long)t->ne[0], (unsigned long long)t->ne[1],
	    (unsigned long long)t->nbytes, mean, var > 0 ? sqrt(var) : 0,
	    xs > 0 ? sqrt(es / xs) : 0);
}

int
main(int argc, char **argv)
{
	struct gg	 g;
	struct kvw	 w;
	struct vocab	*v;
	struct tensor	*t;
	uint64_t	 off = 0, n, total;
	size_t		 i, kv_at;
	float		*x, *y;
	uint8_t		*q;
	char		 label[16];

	if (argc != 2) {
		fprintf(stderr, "usage: mkdemo OUTPUT.gguf\n");
		return 2;
	}

	plan_tensors();
	for (i = 0; i < n_tensors; i++) {
		tensors[i].offset = off;
		off += (tensors[i].nbytes + ALIGN - 1) / ALIGN * ALIGN;
	}
	total = n_params();
	size_label(total, label, sizeof label);

	v = calloc(1, sizeof *v);
	if (v == NULL)
		abort();
	build_vocab(v);

	gg_init(&g, 3, 0);
	gg_header(&g, n_tensors, 0);
	kv_at = gg_pos(&g) - 8;
	w.g = &g;
	w.n = 0;
	write_kv(&w, v, label);
	gg_set64(&g, kv_at, w.n);
	for (i = 0; i < n_tensors; i++) {
		t = &tensors[i];
		gg_tensor(&g, t->name, t->n_dims, t->ne, qtypes[t->type].id,
		    t->offset);
	}
	gg_pad(&g, ALIGN);

	for (i = 0; i < n_tensors; i++) {
		t = &tensors[i];
		n = t->ne[0] * t->ne[1];
		x = malloc(n * sizeof *x);
		y = malloc(n * sizeof *y);
		q = malloc(t->nbytes);
		if (x == NULL || y == NULL || q == NULL)
			abort();
		fill_tensor(t, x);
		qtypes[t->type].quant(x, n, q);
		qtypes[t->type].dequant(q, n, y);
		gg_bytes(&g, q, t->nbytes);
		gg_pad(&g, ALIGN);
		report(t, x, y);
		free(x);
		free(y);
		free(q);
	}

	printf("%zu tensors, %llu parameters (%s), %zu tokens, %llu KV "
	    "pairs, %zu bytes\n", n_tensors, (unsigned long long)total,
	    label, v->n, (unsigned long long)w.n, gg_pos(&g));
	if (gg_write(&g, argv[1]) == -1) {
		perror(argv[1]);
		return 1;
	}
	gg_free(&g);
	vocab_free(v);
	free(v);
	return 0;
}
