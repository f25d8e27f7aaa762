/*
 * scan.h - NaN, infinities and invalid block scales in tensor data,
 * found without decoding it.
 *
 * F32, F16, BF16 and F64 values are not finite exactly when their exponent
 * bits are all ones: they are classified from their bits. A quantized
 * value is its block's scale (a half, or a float, or an exponent byte)
 * times a small integer or codebook value, plus a min scale times a small
 * integer for some types. The products of a finite half scale are far
 * from float32's range (|scale| < 2^16, every multiplier < 2^13), and a
 * non-finite operand makes the result non-finite (Inf times 0 is NaN, Inf
 * minus Inf is NaN, NaN stays NaN). So in every half-scaled type a value
 * is non-finite exactly when a scale of its block is, and then every value
 * of the block is. Only Q8_K (float scale, |d| >= 2^120 times a quant can
 * overflow) and MXFP4 (exponent byte 253 and above, 2^125 times 12
 * overflows) can overflow with finite scales; NVFP4's scales (at most 240
 * times 12) and the integer types never make a non-finite value.
 *
 * The scanners therefore look at one or two scale fields per block and
 * decode (gguf_dequant, the reference) only the blocks whose scales may
 * lead to a non-finite value, to count exactly what the decode gives.
 * The counts equal those of decoding everything and testing each value;
 * tests/unit/test_scan.c proves it on the fixtures and on random blocks.
 *
 * An invalid block scale is a scale field that is itself not a number: a
 * NaN or infinite half or float, or MXFP4's exponent byte 0xff (NaN in
 * the OCP MX format; ggml reads it as 2^127).
 */
#ifndef GGUF_SCAN_H
#define GGUF_SCAN_H

#include <stdint.h>

#include "gguf.h"

#define GGUF_SCAN_NONE	UINT64_MAX

/* What a scan found; fill with gguf_scan_init, add with gguf_scan_add. */
struct gguf_scan {
	uint64_t	count;		/* elements looked at */
	uint64_t	nnan;
	uint64_t	npinf;		/* +Inf */
	uint64_t	nninf;		/* -Inf */
	uint64_t	first_bad;	/* element of the first non-finite
					   value, or GGUF_SCAN_NONE */
	uint64_t	nbadscale;	/* blocks with an invalid scale */
	uint64_t	first_badscale;	/* the first such block, or NONE */
	int		nonzero;	/* a value other than +0 and -0 */
};

void	gguf_scan_init(struct gguf_scan *s);

/*
 * Adds b, the scan of data that follows a's, to a: counts add, firsts
 * keep a's unless a has none.
 */
void	gguf_scan_add(struct gguf_scan *a, const struct gguf_scan *b);

/* 0 if data of this type and byte order can be scanned; -1 and why. */
int	gguf_scan_check(uint32_t type, int be, struct gguf_err *err);

/*
 * Scans nbytes of tensor data at p, a whole number of blocks whose first
 * element is element elem0 of the tensor (positions in s count from
 * there; block numbers are elem0 / block size + the block's index), and
 * adds what it finds to s. Pieces of one tensor scanned in order into the
 * same s give the same result as one scan of the whole. Returns -1 with a
 * message if the type cannot be scanned or nbytes is not whole blocks.
 */
int	gguf_scan(uint32_t type, int be, const uint8_t *p, uint64_t nbytes,
	    uint64_t elem0, struct gguf_scan *s, struct gguf_err *err);

/*
 * The reference: the same result from decoding every value with
 * gguf_dequant, or gguf_dequant_f64 for the wide types (F64, I32, I64:
 * statistics keep them as doubles) (slow; for tests and for what the scanners cannot do).
 */
int	gguf_scan_ref(uint32_t type, int be, const uint8_t *p,
	    uint64_t nbytes, uint64_t elem0, struct gguf_scan *s,
	    struct gguf_err *err);

/*
 * Whether block `block` (bytes at blk) of a quantized type has an invalid
 * scale, by the definition above. 0 for every plain type.
 */
int	gguf_scan_badscale(uint32_t type, const uint8_t *blk);

/* The name of the scale field gguf_scan_badscale looks at ("d", ...). */
const char	*gguf_scan_scale_name(uint32_t type);

#endif /* GGUF_SCAN_H */
