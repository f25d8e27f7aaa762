/*
 * stats_vec.h - the statistics kernel over a chunk of floats, written
 * with vector instructions where the CPU has them (stats_x86.c); the
 * portable one, which defines the results, is in stats.c.
 */
#ifndef GGUF_STATS_VEC_H
#define GGUF_STATS_VEC_H

#include <stdint.h>

#define GGUF_SV_LANES	16	/* lane j takes elements j, j + 16, ... */

/* Per-lane results of a pass over a chunk. */
struct gguf_sv {
	double		sum[GGUF_SV_LANES];
	float		min[GGUF_SV_LANES];
	float		max[GGUF_SV_LANES];
	uint32_t	nzero[GGUF_SV_LANES];
	uint32_t	bad;		/* nonzero: a NaN or infinity seen */
};

/*
 * One pass over n floats, n a nonzero multiple of GGUF_SV_LANES: in each
 * lane, the sum in double of its elements in order, the minimum (v <
 * min ? v : min from the lane's first element on), the maximum likewise,
 * the number of zeros (either sign); and whether any element is NaN or
 * infinite. If sk is not NULL, sk[key(v)] is incremented for every
 * element v, where key(v) is v's bits made to sort as the values do (the
 * sign bit flipped on positive values, every bit on negative ones)
 * shifted right by 12; keys of NaN and infinities fall outside those of
 * finite values.
 */
typedef void	gguf_sv_scan_fn(const float *, uint64_t, uint32_t *,
		    struct gguf_sv *);

/*
 * A second pass over the same n floats, per lane: the sum of squared
 * deviations from mean ((double)v - mean, squared, added in the lane's
 * order; no fused multiply-add), and the least magnitude of a nonzero
 * element (a < least ? a : least from +Inf on, where a is NaN for a zero,
 * which leaves least as it is).
 */
typedef void	gguf_sv_m2_fn(const float *, uint64_t, double,
		    double m2[GGUF_SV_LANES], float minnz[GGUF_SV_LANES]);

/*
 * The vector kernels when the CPU runs them, "avx2" in *isa; 0 if none
 * (the portable ones then serve).
 */
int	gguf_sv_vec(gguf_sv_scan_fn **scan, gguf_sv_m2_fn **m2,
	    const char **isa);

/* Sketch keys are a float's sortable bits shifted right by this. */
#define GGUF_SV_KEYSHIFT	12

/*
 * Quantized blocks read from their codes (stats_codes.c). The summary of
 * a chunk: its values' sum, exactly; the sum of their squared deviations
 * from the mean sum / n; the extremes, a magnitude no nonzero value is
 * below (+Inf if none), the number of zeros (either sign).
 */
struct gguf_sc {
	double		sum;
	double		m2;
	float		min;
	float		max;
	float		minnz;
	uint64_t	nzero;
};

#define GGUF_SC_MAXB	2048	/* blocks in one call */

/* What a pass over blocks gives, block by block and in all. */
struct gguf_sc_blocks {
	float		d[GGUF_SC_MAXB];	/* the scales, given */
	int32_t		s1[GGUF_SC_MAXB];	/* S1 = sum of the codes */
	int32_t		t[GGUF_SC_MAXB];	/* 32 S2 - S1^2, S2 of q^2 */
	float		min;			/* of the values q * d */
	float		max;
	uint64_t	nzero;			/* codes 0, or all if d is */
};

/*
 * The pass over nb blocks at s (Q8_0, or Q4_0 with codes q the nibbles
 * less 8) with their scales in b->d: every value computed as the decoder
 * does, (float)q * d, its key counted in sk
 * if not NULL; min and max with any order of comparisons (the caller
 * only keeps extremes that are not zeros, which are the same whatever
 * the order).
 */
typedef void	gguf_sc_pass_fn(const uint8_t *s, uint64_t nb, uint32_t *sk,
		    struct gguf_sc_blocks *b);

/* The portable passes, and the vector ones (0 if the CPU has none). */
gguf_sc_pass_fn	gguf_sc_q8_0_pass;
gguf_sc_pass_fn	gguf_sc_q4_0_pass;
int		gguf_sc_vec(gguf_sc_pass_fn **q8_0, gguf_sc_pass_fn **q4_0);

/*
 * The summary of nb blocks of type t (Q8_0 or Q4_0) at s, their keys
 * counted into sk if not NULL, with the pass fn for the type; -1, and sk
 * as it was, if it cannot be given with the
 * bits the decoded values would give: a scale not finite, a sum that
 * could round, a minimum or maximum that is a zero (its sign depends on
 * the order of comparisons), nb outside 1 .. GGUF_SC_MAXB. Then the
 * caller decodes the chunk.
 */
int	gguf_sc_sum(uint32_t t, gguf_sc_pass_fn *fn, const uint8_t *s,
	    uint64_t nb, uint32_t *sk, struct gguf_sc *sc);

/*
 * Q4_K read from its codes (stats_codes.c): a sub-block is 32 codes c of
 * 4 bits under a step a = d * sc and an offset b = dmin * m, its values
 * a * c - b in float, so it holds at most 16 distinct values. A chunk's
 * sub-blocks are counted first, code by code; the values are then
 * computed once per code and sub-block, and the sketch takes each
 * value's count in one addition.
 */
#define GGUF_SC_MAXSB	2048	/* sub-blocks in one call */

struct gguf_sc_k4 {
	float		a[GGUF_SC_MAXSB];	/* the steps */
	float		b[GGUF_SC_MAXSB];	/* the offsets */
	uint8_t		n[GGUF_SC_MAXSB][16];	/* how many of each code */
	double		sum[16];	/* lane c: sum of n[][c] * value */
	float		min;		/* of the values present */
	float		max;
	float		minnz;		/* least nonzero magnitude, or +Inf */
	uint64_t	nzero;		/* values present that are zeros */
};

/*
 * Counts the codes of nb Q4_K blocks at s (their scales finite) into k,
 * with every field but the sketch's: k->sum[c] adds (double)n * (double)v
 * sub-block after sub-block, v the value of code c, for every code.
 */
typedef void	gguf_sc_k4_count_fn(const uint8_t *s, uint64_t nb,
		    struct gguf_sc_k4 *k);

/*
 * The second pass over k's nsb sub-blocks: m2[c] adds (double)n * (dv *
 * dv), dv = (double)v - mean, sub-block after sub-block; each value's
 * count is added to sk at its key if sk is not NULL.
 */
typedef void	gguf_sc_k4_spread_fn(const struct gguf_sc_k4 *k,
		    uint64_t nsb, double mean, double m2[16], uint32_t *sk);

gguf_sc_k4_count_fn	gguf_sc_k4_count;
gguf_sc_k4_spread_fn	gguf_sc_k4_spread;
int	gguf_sc_k4_vec(gguf_sc_k4_count_fn **count,
	    gguf_sc_k4_spread_fn **spread);

/*
 * The summary of nb Q4_K blocks at s with those passes, their values
 * counted into sk if not NULL; -1, sk untouched, if the chunk must be
 * decoded: a scale not finite, an extreme that is a zero, nb outside
 * 1 .. GGUF_SC_MAXSB / 8. k is the caller's scratch (48 KiB: a thread's
 * own, not thread-local storage, which every thread of the process,
 * and the process at its start, would pay to clear).
 */
int	gguf_sc_k4_sum(gguf_sc_k4_count_fn *count,
	    gguf_sc_k4_spread_fn *spread, const uint8_t *s, uint64_t nb,
	    uint32_t *sk, struct gguf_sc *sc, struct gguf_sc_k4 *k);

/*
 * The pass that makes percentiles exact, over floats (stats_refine.c):
 * up to GGUF_SR_BANDS bands, band k the floats whose sortable bits (as
 * the sketch's keys) shifted right by GGUF_SV_KEYSHIFT are key[k], a
 * sketch bucket; a value of band k is counted at cnt[k * GGUF_SR_SLOTS +
 * (its sortable bits & (GGUF_SR_SLOTS - 1))].
 */
#define GGUF_SR_BANDS	5
#define GGUF_SR_SLOTS	(1u << GGUF_SV_KEYSHIFT)

struct gguf_sr {
	int		n;			/* bands */
	uint32_t	key[GGUF_SR_BANDS];	/* UINT32_MAX past n */
	double		lo[GGUF_SR_BANDS];	/* band k's values lie in */
	double		hi[GGUF_SR_BANDS];	/* [lo, hi], a little wide */
	float		flo[GGUF_SR_BANDS];	/* the same wider still, in */
	float		fhi[GGUF_SR_BANDS];	/* float, none subnormal; */
	float		fab[GGUF_SR_BANDS];	/* |flo| + |fhi|; past n: */
						/* +Inf, +Inf, 0 */
};

/* The bands of n distinct keys (finite values' buckets). */
void	gguf_sr_init(struct gguf_sr *, int n, const uint32_t *keys);

/* Counts n floats at x (native order, any alignment). */
void	gguf_sr_floats(const struct gguf_sr *, const uint8_t *x, uint64_t n,
	    uint32_t *cnt);

/*
 * Counts the values of nb blocks at s of type t (Q8_0, Q4_0, Q4_1, Q5_0,
 * Q5_1, Q2_K, Q4_K, Q5_K or Q6_K, little-endian) from their codes, as
 * decoding them would; -1 for another type.
 */
int	gguf_sr_has_codes(uint32_t t);	/* 1 if gguf_sr_codes counts t */
int	gguf_sr_codes(const struct gguf_sr *, uint32_t t, const uint8_t *s,
	    uint64_t nb, uint32_t *cnt);

#endif /* GGUF_STATS_VEC_H */
