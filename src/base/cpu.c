/*
 * cpu.c - AVX2 and F16C, from CPUID and XGETBV, asked once.
 *
 * AVX2 is usable when CPUID leaf 1 says the operating system saves the
 * extended state (OSXSAVE, ECX bit 27) and the CPU has AVX (ECX bit 28),
 * XGETBV(0) says the XMM and YMM state is saved (bits 1 and 2), and
 * CPUID leaf 7 says AVX2 (EBX bit 5): what the compiler's runtime checks
 * for __builtin_cpu_supports("avx2"). F16C is CPUID leaf 1, ECX bit 29.
 *
 * The answer is kept in one int (bit 0: asked, bit 1: AVX2, bit 2:
 * F16C), read and written with relaxed atomics: two threads asking at
 * once both compute the same answer.
 */
#include "config.h"

#include "cpu.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#define CPU_X86	1
#endif

#define C_ASKED	1
#define C_AVX2	2
#define C_F16C	4

static int	cpu_bits;

#if defined(CPU_X86)
static unsigned
xcr0(void)
{
	unsigned	lo, hi;

	__asm__ volatile ("xgetbv" : "=a" (lo), "=d" (hi) : "c" (0));
	(void)hi;
	return lo;
}

static int
probe(void)
{
	unsigned	a, b, c, d;
	int		bits = C_ASKED;

	if (!__get_cpuid(1, &a, &b, &c, &d))
		return bits;
	if (c >> 29 & 1)
		bits |= C_F16C;
	if ((c >> 27 & 1) == 0 || (c >> 28 & 1) == 0 || (xcr0() & 6) != 6)
		return bits;
	if (__get_cpuid_count(7, 0, &a, &b, &c, &d) && (b >> 5 & 1))
		bits |= C_AVX2;
	return bits;
}
#else
static int
probe(void)
{
	return C_ASKED;
}
#endif

static int
cpu(void)
{
	int	bits = __atomic_load_n(&cpu_bits, __ATOMIC_RELAXED);

	if (bits == 0) {
		bits = probe();
		__atomic_store_n(&cpu_bits, bits, __ATOMIC_RELAXED);
	}
	return bits;
}

int
gguf_cpu_avx2(void)
{
	return (cpu() & C_AVX2) != 0;
}

int
gguf_cpu_f16c(void)
{
	return (cpu() & C_F16C) != 0;
}
