/*
 * dequant_float.c - the decoders of the plain types: F32, F16, BF16 and
 * F64 and the integers, to float and to double, in either byte order.
 */
#include "config.h"

#include "dequant_int.h"

DQ_DECODER(gguf_dq_f32, s, y, n)
{
	memcpy(y, s, n * 4);
}

DQ_DECODER(gguf_dq_f32_be, s, y, n)
{
	uint64_t	i;

	for (i = 0; i < n; i++)
		y[i] = bits_f(gguf_ld32(s + 4 * i, 1));
}

DQ_DECODER(gguf_dq_f16, s, y, n)
{
	uint64_t	i;
	int		j;

	for (i = 0; i + 32 <= n; i += 32, s += 64) {
		for (j = 0; j < 32; j++)
			y[i + j] = h2f(ld16(s + 2 * j));
	}
	for (; i < n; i++, s += 2)
		y[i] = h2f(ld16(s));
}

/* Called only by the AVX2 decoders, so on a CPU that runs AVX2. */
void
gguf_dq_f16_ref(const uint8_t *s, float *y, uint64_t n)
{
	DQ_AVX2(gguf_dq_f16)(s, y, n);
}

DQ_DECODER(gguf_dq_f16_be, s, y, n)
{
	uint64_t	i;

	for (i = 0; i < n; i++)
		y[i] = h2f(gguf_ld16(s + 2 * i, 1));
}

DQ_DECODER(gguf_dq_bf16, s, y, n)
{
	uint64_t	i;
	int		j;

	for (i = 0; i + 32 <= n; i += 32, s += 64) {
		for (j = 0; j < 32; j++)
			y[i + j] = bits_f((uint32_t)ld16(s + 2 * j) << 16);
	}
	for (; i < n; i++, s += 2)
		y[i] = bits_f((uint32_t)ld16(s) << 16);
}

DQ_DECODER(gguf_dq_bf16_be, s, y, n)
{
	uint64_t	i;

	for (i = 0; i < n; i++)
		y[i] = bits_f((uint32_t)gguf_ld16(s + 2 * i, 1) << 16);
}

/* F64 and the integer types, to float and to double, in both orders. */
#define PLAIN(name, size, load, conv)					\
DQ_DECODER(gguf_dq_##name, s, y, n)					\
{									\
	uint64_t	i;						\
									\
	for (i = 0; i < n; i++)						\
		y[i] = (float)conv(load(s + (size) * i, 0));		\
}									\
DQ_DECODER(gguf_dq_##name##_be, s, y, n)				\
{									\
	uint64_t	i;						\
									\
	for (i = 0; i < n; i++)						\
		y[i] = (float)conv(load(s + (size) * i, 1));		\
}									\
void									\
gguf_dq64_##name(const uint8_t *s, double *y, uint64_t n)		\
{									\
	uint64_t	i;						\
									\
	for (i = 0; i < n; i++)						\
		y[i] = (double)conv(load(s + (size) * i, 0));		\
}									\
void									\
gguf_dq64_##name##_be(const uint8_t *s, double *y, uint64_t n)		\
{									\
	uint64_t	i;						\
									\
	for (i = 0; i < n; i++)						\
		y[i] = (double)conv(load(s + (size) * i, 1));		\
}

static inline uint8_t
ld8(const uint8_t *p, int be)
{
	(void)be;
	return *p;
}

#define AS_I8(u)	((int8_t)(u))
#define AS_I16(u)	((int16_t)(u))
#define AS_I32(u)	((int32_t)(u))
#define AS_I64(u)	((int64_t)(u))

PLAIN(f64, 8, gguf_ld64, bits_d)
PLAIN(i8, 1, ld8, AS_I8)
PLAIN(i16, 2, gguf_ld16, AS_I16)
PLAIN(i32, 4, gguf_ld32, AS_I32)
PLAIN(i64, 8, gguf_ld64, AS_I64)

/* float types to double go through float, which is exact */
void
gguf_dq64_f32(const uint8_t *s, double *y, uint64_t n)
{
	uint64_t	i;

	for (i = 0; i < n; i++)
		y[i] = bits_f(ld32(s + 4 * i));
}

void
gguf_dq64_f32_be(const uint8_t *s, double *y, uint64_t n)
{
	uint64_t	i;

	for (i = 0; i < n; i++)
		y[i] = bits_f(gguf_ld32(s + 4 * i, 1));
}

void
gguf_dq64_f16(const uint8_t *s, double *y, uint64_t n)
{
	uint64_t	i;

	for (i = 0; i < n; i++)
		y[i] = ldh(s + 2 * i);
}

void
gguf_dq64_f16_be(const uint8_t *s, double *y, uint64_t n)
{
	uint64_t	i;

	for (i = 0; i < n; i++)
		y[i] = h2f(gguf_ld16(s + 2 * i, 1));
}

void
gguf_dq64_bf16(const uint8_t *s, double *y, uint64_t n)
{
	uint64_t	i;

	for (i = 0; i < n; i++)
		y[i] = bits_f((uint32_t)ld16(s + 2 * i) << 16);
}

void
gguf_dq64_bf16_be(const uint8_t *s, double *y, uint64_t n)
{
	uint64_t	i;

	for (i = 0; i < n; i++)
		y[i] = bits_f((uint32_t)gguf_ld16(s + 2 * i, 1) << 16);
}
