/*
 * dequant_vec.h - between the portable decoders (dequant.c) and the ones
 * written with vector instructions (dequant_x86.c). Internal to the
 * dequantizer.
 *
 * A decoder takes n whole blocks (n elements for the plain types) of
 * little-endian data and writes n * blck floats. A vector decoder must
 * give the same bits as the portable one for every input, NaNs included;
 * the portable one is the reference (test_dequant and fuzz_dequant
 * compare the two).
 */
#ifndef GGUF_DEQUANT_VEC_H
#define GGUF_DEQUANT_VEC_H

#include <stdint.h>
#include <string.h>

typedef void	gguf_dq_fn(const uint8_t *, float *, uint64_t);

/*
 * The vector decoder of type for the CPU running the program and the
 * name of the instruction set it uses ("avx2"), or NULL where there is
 * none (another type, another CPU, a build for another architecture).
 */
gguf_dq_fn	*gguf_dq_vec(uint32_t type, const char **isa);

/* The portable F16 decoder, for the lanes a vector one leaves to it. */
void		 gguf_dq_f16_ref(const uint8_t *, float *, uint64_t);

/*
 * The grid of IQ2_XXS, IQ2_XS, IQ2_S, IQ1_S and IQ1_M (8 floats an entry)
 * or IQ3_XXS, IQ3_S (4), as the portable decoders hold it, built on first
 * use; NULL for other types.
 */
const float	*gguf_dq_grid(uint32_t type);

/*
 * The 6-bit scale and min of sub-block j (0..7) of Q4_K and Q5_K: the first
 * four in the low 6 bits of bytes 0..7, the last four split between the
 * nibbles of bytes 8..11 and the top 2 bits of bytes 0..7.
 */
static inline void
gguf_k4_scale_min(const uint8_t *q, int j, uint8_t *sc, uint8_t *m)
{
	if (j < 4) {
		*sc = q[j] & 63;
		*m = q[j + 4] & 63;
	} else {
		*sc = (q[j + 4] & 0xf) | (q[j - 4] >> 6) << 4;
		*m = (q[j + 4] >> 4) | (q[j] >> 6) << 4;
	}
}

/* E8M0 exponent byte, halved (MXFP4 stores doubled E2M1 values). */
static inline float
gguf_e8m0_half(uint8_t x)
{
	uint32_t	bits;
	float		f;

	if (x < 2)
		bits = 0x00200000u << x;
	else
		bits = (uint32_t)(x - 1) << 23;
	memcpy(&f, &bits, sizeof f);
	return f;
}

#endif /* GGUF_DEQUANT_VEC_H */
