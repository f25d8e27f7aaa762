/*
 * scan.c - the scanners of scan.h.
 *
 * Plain floats are looked at GROUP_BYTES at a time: a loop of fixed
 * length that keeps the largest magnitude (the compiler turns it into
 * vector code; compiled for AVX2 as well where the toolchain can), and
 * only a group with a non-finite value is classified value by value. Quantized blocks are looked at through their
 * scale fields, eight blocks at a time; a block whose scales may lead to a
 * non-finite value is decoded with gguf_dequant and its values counted.
 *
 * "All values are zero" needs one value that is not: blocks whose bytes
 * are all zero decode to zeros in every type (every scale and min is then
 * +0, or an exponent byte of 0 with codes of value 0), so the scan skips
 * them and decodes the first other block until a nonzero value is found;
 * after that the question is settled for the rest of the scan.
 */
#include "config.h"

#include <string.h>

#include "cpu.h"
#include "gguf.h"
#include "dequant.h"
#include "scan.h"

/*
 * A plain scan is compiled for the baseline and, where the compiler can,
 * for AVX2 (plain_f16_avx2 ...), picked by GGUF_PICK at each call.
 */
#define SC_ARGS	(const uint8_t *p, uint64_t n, uint64_t elem0,	\
		    struct gguf_scan *s)
#if defined(HAVE_TARGET_AVX2)
#define SC_TWIN(name)							\
GGUF_TARGET_AVX2 static void name##_avx2 SC_ARGS			\
{									\
	name##_body(p, n, elem0, s);					\
}
#else
#define SC_TWIN(name)
#endif

#define GROUP_BYTES 4096	/* bytes of plain values looked at a time */
#define REFBUF	4096	/* values the reference decodes at a time */

enum kind {
	K_NO,		/* not scannable (removed, unknown) */
	K_F32, K_F16, K_BF16, K_F64,
	K_INT,		/* never non-finite */
	K_NEVER,	/* quantized, never non-finite (NVFP4) */
	K_H1,		/* one half scale at off */
	K_H2,		/* two half scales at off, off + 2 */
	K_Q8K,		/* float d at 0 */
	K_MXFP4,	/* exponent byte at 0 */
	K_IQ1M		/* half d in the top nibbles of 4 u16 at 48 */
};

static const struct stype {
	enum kind	 kind;
	uint16_t	 off;
	const char	*scale;
} stypes[GGUF_T_COUNT] = {
	[GGUF_T_F32] = { K_F32, 0, NULL },
	[GGUF_T_F16] = { K_F16, 0, NULL },
	[GGUF_T_BF16] = { K_BF16, 0, NULL },
	[GGUF_T_F64] = { K_F64, 0, NULL },
	[GGUF_T_I8] = { K_INT, 0, NULL },
	[GGUF_T_I16] = { K_INT, 0, NULL },
	[GGUF_T_I32] = { K_INT, 0, NULL },
	[GGUF_T_I64] = { K_INT, 0, NULL },
	[GGUF_T_Q4_0] = { K_H1, 0, "d" },
	[GGUF_T_Q4_1] = { K_H2, 0, "d or m" },
	[GGUF_T_Q5_0] = { K_H1, 0, "d" },
	[GGUF_T_Q5_1] = { K_H2, 0, "d or m" },
	[GGUF_T_Q8_0] = { K_H1, 0, "d" },
	[GGUF_T_Q8_1] = { K_H1, 0, "d" },	/* s is not used to decode */
	[GGUF_T_Q2_K] = { K_H2, 80, "d or dmin" },
	[GGUF_T_Q3_K] = { K_H1, 108, "d" },
	[GGUF_T_Q4_K] = { K_H2, 0, "d or dmin" },
	[GGUF_T_Q5_K] = { K_H2, 0, "d or dmin" },
	[GGUF_T_Q6_K] = { K_H1, 208, "d" },
	[GGUF_T_Q8_K] = { K_Q8K, 0, "d" },
	[GGUF_T_IQ2_XXS] = { K_H1, 0, "d" },
	[GGUF_T_IQ2_XS] = { K_H1, 0, "d" },
	[GGUF_T_IQ3_XXS] = { K_H1, 0, "d" },
	[GGUF_T_IQ1_S] = { K_H1, 0, "d" },
	[GGUF_T_IQ4_NL] = { K_H1, 0, "d" },
	[GGUF_T_IQ3_S] = { K_H1, 0, "d" },
	[GGUF_T_IQ2_S] = { K_H1, 0, "d" },
	[GGUF_T_IQ4_XS] = { K_H1, 0, "d" },
	[GGUF_T_IQ1_M] = { K_IQ1M, 48, "d" },
	[GGUF_T_TQ1_0] = { K_H1, 52, "d" },
	[GGUF_T_TQ2_0] = { K_H1, 64, "d" },
	[GGUF_T_MXFP4] = { K_MXFP4, 0, "e" },
	[GGUF_T_NVFP4] = { K_NEVER, 0, NULL },
	[GGUF_T_Q1_0] = { K_H1, 0, "d" },
	[GGUF_T_Q2_0] = { K_H1, 0, "d" },
};

static const struct stype *
stype(uint32_t type)
{
	if (type >= GGUF_T_COUNT || stypes[type].kind == K_NO ||
	    !gguf_ttype_known(type))
		return NULL;
	return &stypes[type];
}

/* Little-endian loads. */
static inline uint32_t
ld16(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

static inline uint32_t
ld32(const uint8_t *p)
{
	return ld16(p) | ld16(p + 2) << 16;
}

/* Whether a half's exponent bits are all ones (NaN or infinity). */
static inline int
h_bad(uint32_t h)
{
	return (h & 0x7c00u) == 0x7c00u;
}

/*
 * Not zero when a half's exponent bits (of either half of h) are all
 * ones: its magnitude plus 0x0400 reaches bit 15 exactly then (and never
 * carries past it). An and, an add and an or a block when scales of
 * several blocks are tested together.
 */
static inline uint32_t
h_sus(uint32_t h)
{
	return ((h & 0x7fff7fffu) + 0x04000400u) & 0x80008000u;
}

/* IQ1_M's half scale, from the top nibbles of its four scale u16. */
static inline uint32_t
iq1m_h(const uint8_t *sc)
{
	return (ld16(sc) >> 12) | ((ld16(sc + 2) >> 8) & 0x00f0u) |
	    ((ld16(sc + 4) >> 4) & 0x0f00u) | (ld16(sc + 6) & 0xf000u);
}

/* --------------------------------------------------------- the results */

void
gguf_scan_init(struct gguf_scan *s)
{
	memset(s, 0, sizeof *s);
	s->first_bad = GGUF_SCAN_NONE;
	s->first_badscale = GGUF_SCAN_NONE;
}

void
gguf_scan_add(struct gguf_scan *a, const struct gguf_scan *b)
{
	a->count += b->count;
	a->nnan += b->nnan;
	a->npinf += b->npinf;
	a->nninf += b->nninf;
	if (a->first_bad == GGUF_SCAN_NONE)
		a->first_bad = b->first_bad;
	a->nbadscale += b->nbadscale;
	if (a->first_badscale == GGUF_SCAN_NONE)
		a->first_badscale = b->first_badscale;
	a->nonzero |= b->nonzero;
}

/* Counts decoded values y[0 .. n), the first being element elem0. */
static void
classify(const float *y, uint64_t n, uint64_t elem0, struct gguf_scan *s)
{
	uint64_t	i;
	uint32_t	u;

	for (i = 0; i < n; i++) {
		memcpy(&u, &y[i], sizeof u);
		if ((u & 0x7f800000u) != 0x7f800000u) {
			s->nonzero |= (u & 0x7fffffffu) != 0;
			continue;
		}
		s->nonzero = 1;
		if (s->first_bad == GGUF_SCAN_NONE)
			s->first_bad = elem0 + i;
		if (u & 0x007fffffu)
			s->nnan++;
		else if (u & 0x80000000u)
			s->nninf++;
		else
			s->npinf++;
	}
}

/* The same for doubles (the wide types, decoded as statistics do). */
static void
classify_d(const double *y, uint64_t n, uint64_t elem0, struct gguf_scan *s)
{
	const uint64_t	exp = 0x7ff0000000000000ull;
	uint64_t	i, u;

	for (i = 0; i < n; i++) {
		memcpy(&u, &y[i], sizeof u);
		if ((u & exp) != exp) {
			s->nonzero |= (u << 1) != 0;
			continue;
		}
		s->nonzero = 1;
		if (s->first_bad == GGUF_SCAN_NONE)
			s->first_bad = elem0 + i;
		if (u & 0x000fffffffffffffull)
			s->nnan++;
		else if (u >> 63)
			s->nninf++;
		else
			s->npinf++;
	}
}

/* ------------------------------------------------------------ scale fields */

int
gguf_scan_badscale(uint32_t type, const uint8_t *blk)
{
	const struct stype	*st = stype(type);

	if (st == NULL)
		return 0;
	switch (st->kind) {
	case K_H1:
		return h_bad(ld16(blk + st->off));
	case K_H2:
		return h_bad(ld16(blk + st->off)) ||
		    h_bad(ld16(blk + st->off + 2));
	case K_Q8K:
		return (ld32(blk) & 0x7f800000u) == 0x7f800000u;
	case K_MXFP4:
		return blk[0] == 0xff;
	case K_IQ1M:
		return h_bad(iq1m_h(blk + st->off));
	default:
		return 0;
	}
}

const char *
gguf_scan_scale_name(uint32_t type)
{
	const struct stype	*st = stype(type);

	return st != NULL ? st->scale : NULL;
}

/*
 * The bound behind "a finite half scale gives finite values": the largest
 * magnitude a half scale (at most 65504 < 2^16) is multiplied by, per
 * type, from the decoders in dequant.c: Q4_0 8, Q4_1 15, Q5_0 16, Q5_1
 * 31, Q8_0 and Q8_1 128, Q2_K 15 x 3, Q3_K 32 x 4, Q4_K 63 x 15, Q5_K
 * 63 x 31, Q6_K 128 x 32, IQ2_XXS, IQ2_XS and IQ2_S 3.875 x 43 (grid
 * values 8, 25, 43), IQ3_XXS 7.75 x 62, IQ3_S 31 x 15, IQ1_S and IQ1_M
 * 15 x 1.125, IQ4_NL 127, IQ4_XS 32 x 127, TQ1_0 and Q1_0 1, TQ2_0 and
 * Q2_0 2; a min scale (Q4_1, Q5_1 m; Q2_K, Q4_K, Q5_K dmin) at most 63.
 * Every product is below 2^29 and every sum below 2^30, far from
 * float32's 2^128: no overflow, and no rounding of a finite value to an
 * infinity. test_scan's random blocks (every finite half scale, random
 * quants) check it from the other side.
 *
 * Whether a block may decode to a non-finite value. Half scales: exactly
 * when one of them is NaN or infinite (scan.h). Q8_K: d * q with |q| <=
 * 128 = 2^7 stays below 2^127 while |d| < 2^120, biased exponent 0xf7.
 * MXFP4: the halved scale of byte e is 2^(e - 128) (for e >= 2), the
 * doubled E2M1 values are at most 12 = 1.5 * 2^3: for e <= 252 every
 * product is at most 1.5 * 2^127, below FLT_MAX.
 */
static inline int
suspect(enum kind k, unsigned off, const uint8_t *blk)
{
	switch (k) {
	case K_H1:
		return (int)h_sus(ld16(blk + off));
	case K_H2:
		/* both halves at once: neither carries into the other */
		return (int)h_sus(ld32(blk + off));
	case K_Q8K:
		return ((ld32(blk) >> 23) & 0xff) >= 0xf7;
	case K_MXFP4:
		return blk[0] >= 253;
	case K_IQ1M:
		return h_bad(iq1m_h(blk + off));
	default:
		return 0;
	}
}

/*
 * The first block of nb at p (bs bytes each) that suspect() flags, or nb.
 * Inlined into one function per kind with constant sizes, eight blocks a
 * round.
 */
static inline __attribute__((always_inline)) uint64_t
find_suspect(enum kind k, unsigned bs, unsigned off, const uint8_t *p,
    uint64_t nb)
{
	uint64_t	i = 0;

	for (; i + 8 <= nb; i += 8, p += 8 * bs) {
		if (suspect(k, off, p) | suspect(k, off, p + bs) |
		    suspect(k, off, p + 2 * bs) | suspect(k, off, p + 3 * bs) |
		    suspect(k, off, p + 4 * bs) | suspect(k, off, p + 5 * bs) |
		    suspect(k, off, p + 6 * bs) | suspect(k, off, p + 7 * bs))
			break;
	}
	for (; i < nb; i++, p += bs)
		if (suspect(k, off, p))
			return i;
	return nb;
}

#define FINDER(name, k, bs, off)					\
static uint64_t								\
find_##name(const uint8_t *p, uint64_t nb)				\
{									\
	return find_suspect(k, bs, off, p, nb);				\
}

FINDER(q4_0, K_H1, 18, 0)
FINDER(q4_1, K_H2, 20, 0)
FINDER(q5_0, K_H1, 22, 0)
FINDER(q5_1, K_H2, 24, 0)
FINDER(q8_0, K_H1, 34, 0)
FINDER(q8_1, K_H1, 36, 0)
FINDER(q2_k, K_H2, 84, 80)
FINDER(q3_k, K_H1, 110, 108)
FINDER(q4_k, K_H2, 144, 0)
FINDER(q5_k, K_H2, 176, 0)
FINDER(q6_k, K_H1, 210, 208)
FINDER(q8_k, K_Q8K, 292, 0)
FINDER(iq2_xxs, K_H1, 66, 0)
FINDER(iq2_xs, K_H1, 74, 0)
FINDER(iq3_xxs, K_H1, 98, 0)
FINDER(iq1_s, K_H1, 50, 0)
FINDER(iq4_nl, K_H1, 18, 0)
FINDER(iq3_s, K_H1, 110, 0)
FINDER(iq2_s, K_H1, 82, 0)
FINDER(iq4_xs, K_H1, 136, 0)
FINDER(iq1_m, K_IQ1M, 56, 48)
FINDER(tq1_0, K_H1, 54, 52)
FINDER(tq2_0, K_H1, 66, 64)
FINDER(mxfp4, K_MXFP4, 17, 0)
FINDER(q1_0, K_H1, 18, 0)
FINDER(q2_0, K_H1, 18, 0)

typedef uint64_t	find_fn(const uint8_t *, uint64_t);

static find_fn *const finders[GGUF_T_COUNT] = {
	[GGUF_T_Q4_0] = find_q4_0, [GGUF_T_Q4_1] = find_q4_1,
	[GGUF_T_Q5_0] = find_q5_0, [GGUF_T_Q5_1] = find_q5_1,
	[GGUF_T_Q8_0] = find_q8_0, [GGUF_T_Q8_1] = find_q8_1,
	[GGUF_T_Q2_K] = find_q2_k, [GGUF_T_Q3_K] = find_q3_k,
	[GGUF_T_Q4_K] = find_q4_k, [GGUF_T_Q5_K] = find_q5_k,
	[GGUF_T_Q6_K] = find_q6_k, [GGUF_T_Q8_K] = find_q8_k,
	[GGUF_T_IQ2_XXS] = find_iq2_xxs, [GGUF_T_IQ2_XS] = find_iq2_xs,
	[GGUF_T_IQ3_XXS] = find_iq3_xxs, [GGUF_T_IQ1_S] = find_iq1_s,
	[GGUF_T_IQ4_NL] = find_iq4_nl, [GGUF_T_IQ3_S] = find_iq3_s,
	[GGUF_T_IQ2_S] = find_iq2_s, [GGUF_T_IQ4_XS] = find_iq4_xs,
	[GGUF_T_IQ1_M] = find_iq1_m, [GGUF_T_TQ1_0] = find_tq1_0,
	[GGUF_T_TQ2_0] = find_tq2_0, [GGUF_T_MXFP4] = find_mxfp4,
	[GGUF_T_Q1_0] = find_q1_0, [GGUF_T_Q2_0] = find_q2_0,
};

/* ------------------------------------------------------------ plain types */

/*
 * Plain values of one width: U the unsigned word, EXP its exponent mask,
 * MANT its mantissa, SIGN its sign bit. A value's magnitude bits (all
 * but the sign) are at least EXP exactly when its exponent is all ones,
 * and are 0 exactly when it is a zero: so the largest magnitude of a
 * group settles both questions, and the loop over a full group is an
 * and and an unsigned max a vector (AVX2: 16 halves in two instructions),
 * of constant length, without a branch.
 */
#define PLAIN_SCAN(sfx, U, EXP, MANT, SIGN)				\
static inline U								\
ld_##sfx(const uint8_t *p)						\
{									\
	U	u;							\
									\
	memcpy(&u, p, sizeof u);					\
	return u;							\
}									\
									\
GGUF_BODY void								\
plain_##sfx##_body SC_ARGS						\
{									\
	const uint64_t	group = GROUP_BYTES / sizeof(U);		\
	uint64_t	i, j, m;					\
	U		u, v, mx;					\
									\
	for (i = 0; i < n; i += m) {					\
		m = n - i < group ? n - i : group;			\
		mx = 0;							\
		if (m == group) {					\
			for (j = 0; j < GROUP_BYTES / sizeof(U); j++) {	\
				v = ld_##sfx(p + (i + j) * sizeof(U)) &	\
				    (U)~(U)(SIGN);			\
				mx = v > mx ? v : mx;			\
			}						\
		} else {						\
			for (j = 0; j < m; j++) {			\
				v = ld_##sfx(p + (i + j) * sizeof(U)) &	\
				    (U)~(U)(SIGN);			\
				mx = v > mx ? v : mx;			\
			}						\
		}							\
		s->nonzero |= mx != 0;					\
		if (mx < (U)(EXP))					\
			continue;					\
		for (j = 0; j < m; j++) {				\
			u = ld_##sfx(p + (i + j) * sizeof(U));		\
			if ((u & (EXP)) != (EXP))			\
				continue;				\
			if (s->first_bad == GGUF_SCAN_NONE)		\
				s->first_bad = elem0 + i + j;		\
			if (u & (MANT))					\
				s->nnan++;				\
			else if (u & (SIGN))				\
				s->nninf++;				\
			else						\
				s->npinf++;				\
		}							\
	}								\
	s->count += n;							\
}									\
									\
static void								\
plain_##sfx SC_ARGS							\
{									\
	plain_##sfx##_body(p, n, elem0, s);				\
}									\
SC_TWIN(plain_##sfx)

PLAIN_SCAN(f32, uint32_t, 0x7f800000u, 0x007fffffu, 0x80000000u)
PLAIN_SCAN(f16, uint16_t, 0x7c00u, 0x03ffu, 0x8000u)
PLAIN_SCAN(bf16, uint16_t, 0x7f80u, 0x007fu, 0x8000u)
PLAIN_SCAN(f64, uint64_t, 0x7ff0000000000000ull, 0x000fffffffffffffull,
    0x8000000000000000ull)

/* Integers: only whether one is not zero. */
static void
plain_int(const uint8_t *p, uint64_t nbytes, uint64_t n, struct gguf_scan *s)
{
	uint64_t	i;
	uint8_t		acc = 0;

	if (!s->nonzero) {
		for (i = 0; i < nbytes; i++)
			acc |= p[i];
		s->nonzero = acc != 0;
	}
	s->count += n;
}

/* ------------------------------------------------------------- the scan */

int
gguf_scan_check(uint32_t type, int be, struct gguf_err *err)
{
	if (gguf_dequant_check(type, be, err) != 0)
		return -1;
	if (stype(type) == NULL) {
		char	buf[24];

		return gguf_errf(err, -1, "%s cannot be scanned",
		    gguf_ttype_name(type, buf));
	}
	return 0;
}

/* Checks the type and that nbytes is whole blocks; *ti the type's entry. */
static int
scan_args(uint32_t type, int be, uint64_t nbytes,
    const struct gguf_type_info **ti, struct gguf_err *err)
{
	if (gguf_scan_check(type, be, err) != 0)
		return -1;
	*ti = gguf_ttype(type);
	if (nbytes % (*ti)->bytes != 0)
		return gguf_errf(err, -1, "%llu bytes are not a whole number "
		    "of %s blocks of %u bytes", (unsigned long long)nbytes,
		    (*ti)->name, (unsigned)(*ti)->bytes);
	return 0;
}

/* Whether the bs bytes at p are all zero. */
static int
all_zero(const uint8_t *p, unsigned bs)
{
	unsigned	i;
	uint8_t		acc = 0;

	for (i = 0; i < bs; i++)
		acc |= p[i];
	return acc == 0;
}

/*
 * Settles s->nonzero over blocks [0, nb) at p: skips blocks of zero
 * bytes, decodes the others until one has a value that is not zero.
 */
static int
find_nonzero(uint32_t type, const struct gguf_type_info *ti,
    const uint8_t *p, uint64_t nb, struct gguf_err *err)
{
	float		y[GGUF_MAX_BLCK];
	uint64_t	i;
	uint32_t	j, u;

	for (i = 0; i < nb; i++, p += ti->bytes) {
		if (all_zero(p, ti->bytes))
			continue;
		if (gguf_dequant(type, 0, p, ti->bytes, 0, ti->blck, y,
		    err) != 0)
			return -1;
		for (j = 0; j < ti->blck; j++) {
			memcpy(&u, &y[j], sizeof u);
			if (u & 0x7fffffffu)
				return 1;
		}
	}
	return 0;
}

int
gguf_scan(uint32_t type, int be, const uint8_t *p, uint64_t nbytes,
    uint64_t elem0, struct gguf_scan *s, struct gguf_err *err)
{
	const struct gguf_type_info	*ti;
	const struct stype		*st;
	float				 y[GGUF_MAX_BLCK];
	uint64_t			 nb, i, k, blk0;
	int				 rc;

	if (scan_args(type, be, nbytes, &ti, err) != 0)
		return -1;
	st = stype(type);
	nb = nbytes / ti->bytes;
	if (be && st->kind != K_INT)
		return gguf_scan_ref(type, be, p, nbytes, elem0, s, err);
	switch (st->kind) {
	case K_F32:
		GGUF_PICK(plain_f32)(p, nb, elem0, s);
		return 0;
	case K_F16:
		GGUF_PICK(plain_f16)(p, nb, elem0, s);
		return 0;
	case K_BF16:
		GGUF_PICK(plain_bf16)(p, nb, elem0, s);
		return 0;
	case K_F64:
		GGUF_PICK(plain_f64)(p, nb, elem0, s);
		return 0;
	case K_INT:
		plain_int(p, nbytes, nb, s);
		return 0;
	default:
		break;
	}
	if (!s->nonzero) {
		if ((rc = find_nonzero(type, ti, p, nb, err)) < 0)
			return -1;
		s->nonzero = rc;
	}
	s->count += nb * ti->blck;
	if (finders[type] == NULL)
		return 0;	/* never non-finite */
	blk0 = elem0 / ti->blck;
	for (i = 0; i < nb; i++) {
		k = finders[type](p + i * ti->bytes, nb - i);
		if ((i += k) >= nb)
			break;
		if (gguf_scan_badscale(type, p + i * ti->bytes)) {
			if (s->first_badscale == GGUF_SCAN_NONE)
				s->first_badscale = blk0 + i;
			s->nbadscale++;
		}
		if (gguf_dequant(type, 0, p + i * ti->bytes, ti->bytes, 0,
		    ti->blck, y, err) != 0)
			return -1;
		classify(y, ti->blck, elem0 + i * ti->blck, s);
	}
	return 0;
}

int
gguf_scan_ref(uint32_t type, int be, const uint8_t *p, uint64_t nbytes,
    uint64_t elem0, struct gguf_scan *s, struct gguf_err *err)
{
	const struct gguf_type_info	*ti;
	union {
		float	 f[REFBUF];
		double	 d[REFBUF];
	}				 buf;		/* on the stack: no TLS */
	float				*y = buf.f;
	double				*yd = buf.d;
	uint64_t			 n, i, m, nb;
	int				 wide = gguf_dequant_wide(type);

	if (scan_args(type, be, nbytes, &ti, err) != 0)
		return -1;
	nb = nbytes / ti->bytes;
	n = nb * ti->blck;
	for (i = 0; i < n; i += m) {
		m = n - i < REFBUF ? n - i : REFBUF;
		if (wide) {
			if (gguf_dequant_f64(type, be, p, nbytes, i, m, yd,
			    err) != 0)
				return -1;
			classify_d(yd, m, elem0 + i, s);
			continue;
		}
		if (gguf_dequant(type, be, p, nbytes, i, m, y, err) != 0)
			return -1;
		classify(y, m, elem0 + i, s);
	}
	s->count += n;
	for (i = 0; ti->blck > 1 && i < nb; i++) {
		if (gguf_scan_badscale(type, p + i * ti->bytes)) {
			if (s->first_badscale == GGUF_SCAN_NONE)
				s->first_badscale = elem0 / ti->blck + i;
			s->nbadscale++;
		}
	}
	return 0;
}
