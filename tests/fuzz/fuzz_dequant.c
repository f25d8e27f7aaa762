/*
 * fuzz_dequant.c - fuzz target: random blocks of every tensor type through
 * the dequantizer.
 *
 * Input: byte 0 picks the type (any id, known or not), byte 1 bit 0 the
 * byte order, bytes 2..5 an element range [first, first + n) (n at most
 * 4096), byte 6 a block number for the block view; the rest is tensor
 * data, cut to a whole number of blocks.
 *
 * Beyond "no crash, no sanitizer report", three invariants:
 *	- a range decodes to the same values as the same elements of the
 *	  whole data decoded at once (block boundaries, partial blocks);
 *	- the float64 decoder agrees with the float32 one wherever the type
 *	  is decoded through float32, and the integer decoder with both;
 *	- a range outside the data is refused, never read;
 *	- the decoders gguf_dequant picks (vector ones where the CPU has
 *	  them) give the same bits as the portable reference, NaNs included;
 *	- the scan (scan.h) finds the NaN, infinities, invalid scales and
 *	  nonzero values that decoding every value finds.
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gguf.h"
#include "dequant.h"
#include "fuzz.h"
#include "scan.h"

#define MAX_N	4096u

static int
same_float(float a, float b)
{
	uint32_t	x, y;

	if (isnan(a) && isnan(b))
		return 1;
	memcpy(&x, &a, 4);
	memcpy(&y, &b, 4);
	return x == y;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static float			 all[MAX_N * 2], part[MAX_N];
	static float			 ref[MAX_N * 2];
	static double			 wide[MAX_N];
	static int64_t			 ints[MAX_N];
	static struct gguf_blockview	 bv;
	const struct gguf_type_info	*ti;
	struct gguf_err			 err;
	const uint8_t			*p;
	uint64_t			 nbytes, nelem, first, n, i;
	uint32_t			 type;
	int				 be, rc, rc2;

	if (size < 7)
		return 0;
	type = data[0];
	be = data[1] & 1;
	first = (uint64_t)data[2] | (uint64_t)data[3] << 8;
	n = ((uint64_t)data[4] | (uint64_t)data[5] << 8) % (MAX_N + 1);
	p = data + 7;
	nbytes = size - 7;

	ti = gguf_ttype(type);
	if (ti != NULL && ti->bytes > 0) {
		nbytes -= nbytes % ti->bytes;
		nelem = nbytes / ti->bytes * ti->blck;
	} else
		nelem = 0;
	/* Keep the whole decode within the buffer. */
	if (nelem > MAX_N * 2) {
		nelem = MAX_N * 2 / ti->blck * ti->blck;
		nbytes = nelem / ti->blck * ti->bytes;
	}

	gguf_dequant_block_view(type, be, p, nbytes, data[6], &bv, &err);
	rc = gguf_dequant(type, be, p, nbytes, first, n, part, &err);
	if (gguf_dequant_check(type, be, &err) != 0) {
		if (rc == 0 && n > 0)
			fuzz_fail("type %u decoded though refused", type);
		return 0;
	}
	if (first > nelem || n > nelem - first) {
		if (rc == 0)
			fuzz_fail("type %u: range %llu+%llu of %llu accepted",
			    type, (unsigned long long)first,
			    (unsigned long long)n, (unsigned long long)nelem);
		return 0;
	}
	if (rc != 0)
		fuzz_fail("type %u: range %llu+%llu of %llu refused: %s", type,
		    (unsigned long long)first, (unsigned long long)n,
		    (unsigned long long)nelem, err.msg);
	if (gguf_dequant(type, be, p, nbytes, 0, nelem, all, &err) != 0)
		fuzz_fail("type %u: whole data refused: %s", type, err.msg);
	if (gguf_dequant_ref(type, be, p, nbytes, 0, nelem, ref, &err) != 0)
		fuzz_fail("type %u: portable decoder refused: %s", type,
		    err.msg);
	/*
	 * Q4_1 and Q5_1 add two scales that may both be NaN, and which NaN
	 * the sum gives depends on the compiler's operand order: there, both
	 * being NaN is enough.
	 */
	for (i = 0; i < nelem; i++) {
		if (memcmp(&all[i], &ref[i], sizeof *all) != 0 &&
		    !((type == GGUF_T_Q4_1 || type == GGUF_T_Q5_1) &&
		    isnan(all[i]) && isnan(ref[i])))
			fuzz_fail("type %u (%s): element %llu differs from the "
			    "portable decoder's", type,
			    gguf_dequant_isa(type), (unsigned long long)i);
	}
	for (i = 0; i < n; i++) {
		if (!same_float(part[i], all[first + i]))
			fuzz_fail("type %u: element %llu differs in a range",
			    type, (unsigned long long)(first + i));
	}

	if (gguf_dequant_f64(type, be, p, nbytes, first, n, wide, &err) != 0)
		fuzz_fail("type %u: f64 decode refused: %s", type, err.msg);
	if (!gguf_dequant_wide(type)) {
		for (i = 0; i < n; i++) {
			if (!same_float((float)wide[i], part[i]))
				fuzz_fail("type %u: f64 and f32 differ at %llu",
				    type, (unsigned long long)(first + i));
		}
	}
	rc2 = gguf_dequant_i64(type, be, p, nbytes, first, n, ints, &err);
	if ((ti->flags & GGUF_TF_INT) != 0) {
		if (rc2 != 0)
			fuzz_fail("type %u: integer decode refused", type);
		for (i = 0; i < n; i++) {
			if (!((double)ints[i] <= wide[i] &&
			    (double)ints[i] >= wide[i]))
				fuzz_fail("type %u: i64 and f64 differ at %llu",
				    type, (unsigned long long)(first + i));
		}
	} else if (rc2 == 0 && n > 0)
		fuzz_fail("type %u: integer decode of a non-integer type", type);
	if (gguf_scan_check(type, be, &err) == 0) {
		struct gguf_scan	sa, sb;

		gguf_scan_init(&sa);
		gguf_scan_init(&sb);
		if (gguf_scan(type, be, p, nbytes, 0, &sa, &err) != 0 ||
		    gguf_scan_ref(type, be, p, nbytes, 0, &sb, &err) != 0 ||
		    sa.count != sb.count || sa.nnan != sb.nnan ||
		    sa.npinf != sb.npinf || sa.nninf != sb.nninf ||
		    sa.first_bad != sb.first_bad ||
		    sa.nbadscale != sb.nbadscale ||
		    sa.first_badscale != sb.first_badscale ||
		    sa.nonzero != sb.nonzero)
			fuzz_fail("type %u: the scan differs from the decode",
			    type);
	}
	return 0;
}
