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

#endif /* GGUF_STATS_VEC_H */
