/*
 * cpu.h - what the processor runs, asked at the first question, not at
 * start.
 *
 * The code that has an AVX2 version (the decoders, the scans, parts of
 * the statistics) asks gguf_cpu_avx2() where it picks a version, and
 * nothing asks before then: a command that decodes nothing runs no CPUID
 * (each one a trap to the hypervisor on a virtual machine) and resolves
 * no function at load time. The answer is computed once and kept.
 *
 * GGUF_TARGET_AVX2 marks a function compiled for AVX2, where the compiler
 * can (HAVE_TARGET_AVX2: x86-64 and a compiler that takes
 * target("avx2")); GGUF_BODY marks the body such a function f_avx2 and
 * its baseline twin f share, written once and inlined into both (the
 * compiler vectorises the copy in f_avx2 with the AVX2 registers).
 */
#ifndef GGUF_CPU_H
#define GGUF_CPU_H

/* 1 if the CPU and the operating system run AVX2 (the YMM registers saved). */
int	gguf_cpu_avx2(void);
/* 1 if the CPU converts halves (F16C). */
int	gguf_cpu_f16c(void);

#if defined(HAVE_TARGET_AVX2)
#define GGUF_TARGET_AVX2	__attribute__((target("avx2")))
#endif
#define GGUF_BODY		static inline __attribute__((always_inline))

/* f, or its twin f_avx2 where there is one and the CPU runs it. */
#if defined(HAVE_TARGET_AVX2)
#define GGUF_PICK(f)		(gguf_cpu_avx2() ? f##_avx2 : f)
#else
#define GGUF_PICK(f)		(f)
#endif

#endif /* GGUF_CPU_H */
