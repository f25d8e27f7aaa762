/*
 * xxh64pair.c - two running xxh64 hashes fed the same bytes in one pass
 * (see xxh64pair.h).
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "xxh64pair.h"

/* The layout of XXH64_state_t this walks: lanes v[4], total_len, memsize. */
#if defined(XXH_VERSION_NUMBER) && XXH_VERSION_NUMBER >= 800 && \
    XXH_VERSION_NUMBER < 900
#define PAIR_STATES	1
#else
#define PAIR_STATES	0
#endif

#define PRIME64_1	UINT64_C(0x9E3779B185EBCA87)
#define PRIME64_2	UINT64_C(0xC2B2AE3D27D4EB4F)

#if PAIR_STATES
/* A little-endian 64-bit word, as xxh64 reads its input. */
static inline uint64_t
le64(const uint8_t *p)
{
	uint64_t	v;

	memcpy(&v, p, sizeof v);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	return v;
}

static inline uint64_t
rotl31(uint64_t x)
{
	return (x << 31) | (x >> 33);
}
#endif

size_t
gguf_xxh64_pair(XXH64_state_t *a, XXH64_state_t *b, const void *p, size_t n)
{
#if PAIR_STATES
	const uint8_t	*q = p;
	uint64_t	 a0, a1, a2, a3, b0, b1, b2, b3, w0, w1, w2, w3;
	size_t		 i, len = n & ~(size_t)31;

	if (a->memsize != 0 || b->memsize != 0 || len == 0)
		return 0;
	a0 = a->v[0]; a1 = a->v[1]; a2 = a->v[2]; a3 = a->v[3];
	b0 = b->v[0]; b1 = b->v[1]; b2 = b->v[2]; b3 = b->v[3];
	for (i = 0; i < len; i += 32) {
		w0 = le64(q + i) * PRIME64_2;
		w1 = le64(q + i + 8) * PRIME64_2;
		w2 = le64(q + i + 16) * PRIME64_2;
		w3 = le64(q + i + 24) * PRIME64_2;
		a0 = rotl31(a0 + w0) * PRIME64_1;
		b0 = rotl31(b0 + w0) * PRIME64_1;
		a1 = rotl31(a1 + w1) * PRIME64_1;
		b1 = rotl31(b1 + w1) * PRIME64_1;
		a2 = rotl31(a2 + w2) * PRIME64_1;
		b2 = rotl31(b2 + w2) * PRIME64_1;
		a3 = rotl31(a3 + w3) * PRIME64_1;
		b3 = rotl31(b3 + w3) * PRIME64_1;
	}
	a->v[0] = a0; a->v[1] = a1; a->v[2] = a2; a->v[3] = a3;
	b->v[0] = b0; b->v[1] = b1; b->v[2] = b2; b->v[3] = b3;
	a->total_len += len;
	b->total_len += len;
	return len;
#else
	(void)a;
	(void)b;
	(void)p;
	(void)n;
	return 0;
#endif
}
