/*
 * test_cpu.c - what the CPU runs, and the decoders picked by it.
 *
 * gguf_cpu_avx2 and gguf_cpu_f16c must say what the compiler's runtime
 * and CPUID say. The decoder gguf_dequant uses must be the AVX2 version
 * of the portable one exactly when the CPU runs AVX2 (the vector one of
 * dequant_x86.c where it has one, unless GGUFED_DEQUANT=ref), and the two
 * versions of every decoder must give the same bits on random blocks (a
 * NaN only has to be a NaN), little- and big-endian.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#endif

#include "cpu.h"
#include "dequant_int.h"
#include "tap.h"

#define NBLK	64

static int
same(float a, float b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) && isnan(b);
	return memcmp(&a, &b, sizeof a) == 0;
}

static void
test_probe(void)
{
	int	avx2 = gguf_cpu_avx2();

	ok(gguf_cpu_avx2() == avx2, "the answer is kept: %d", avx2);
#if defined(__x86_64__) && defined(__GNUC__)
	{
		unsigned	a, b, c, d;
		int		f16c = 0;

		__builtin_cpu_init();
		ok(avx2 == (__builtin_cpu_supports("avx2") != 0),
		    "AVX2 as the compiler's runtime says: %d", avx2);
		if (__get_cpuid(1, &a, &b, &c, &d))
			f16c = (int)(c >> 29 & 1);
		ok(gguf_cpu_f16c() == f16c, "F16C as CPUID says: %d", f16c);
	}
#else
	ok(avx2 == 0 && gguf_cpu_f16c() == 0, "no AVX2 nor F16C off x86-64");
#endif
}

static void
test_pick(void)
{
	const char	*e = getenv("GGUFED_DEQUANT");
	int		 ref = e != NULL && strcmp(e, "ref") == 0;
	int		 avx2 = gguf_cpu_avx2(), bad = 0, be, twins = 0;
	uint32_t	 t;
	dq_fn		*base, *v2, *want;
	struct gguf_err	 err;

	for (t = 0; t < GGUF_T_COUNT; t++) {
		for (be = 0; be < 2; be++) {
			if (gguf_dequant_check(t, be, &err) != 0)
				continue;
			gguf_dq_versions(t, be, &base, &v2);
			twins += base != v2;
			want = avx2 ? v2 : base;
			if (gguf_dq_decoder(t, be, 1) != want) {
				diag("%s%s: not the %s version",
				    gguf_ttype(t)->name, be ? " (be)" : "",
				    avx2 ? "AVX2" : "baseline");
				bad++;
			}
			if (!be && strcmp(gguf_dequant_isa(t), "portable")
			    == 0 && gguf_dq_decoder(t, be, 0) != want) {
				diag("%s: not the %s version without a "
				    "vector decoder", gguf_ttype(t)->name,
				    avx2 ? "AVX2" : "baseline");
				bad++;
			}
		}
	}
	ok(bad == 0, "the portable decoders picked are the %s versions",
	    avx2 ? "AVX2" : "baseline");
#if defined(HAVE_TARGET_AVX2)
	ok(twins > 0, "the decoders have AVX2 versions (%d)", twins);
#else
	ok(twins == 0, "no AVX2 versions where the compiler cannot make them");
#endif
	ok(strcmp(gguf_dequant_isa(GGUF_T_Q8_0),
	    !ref && avx2 && gguf_cpu_f16c() ? "avx2" : "portable") == 0,
	    "Q8_0's decoder is %s (AVX2 %d, GGUFED_DEQUANT=%s)",
	    gguf_dequant_isa(GGUF_T_Q8_0), avx2, e != NULL ? e : "");
}

static void
test_versions(void)
{
	const struct gguf_type_info	*ti;
	struct gguf_err			 err;
	uint8_t				*blk;
	float				*y0, *y1;
	dq_fn				*base, *v2;
	uint64_t			 i, nel;
	uint32_t			 t;
	int				 be, bad = 0, n = 0;

	if (!gguf_cpu_avx2()) {
		skip("the AVX2 versions: the CPU does not run AVX2");
		return;
	}
	for (t = 0; t < GGUF_T_COUNT; t++) {
		for (be = 0; be < 2; be++) {
			if (gguf_dequant_check(t, be, &err) != 0)
				continue;
			ti = gguf_ttype(t);
			nel = (uint64_t)NBLK * ti->blck;
			blk = malloc((size_t)NBLK * ti->bytes);
			y0 = malloc((size_t)nel * sizeof *y0);
			y1 = malloc((size_t)nel * sizeof *y1);
			for (i = 0; i < (uint64_t)NBLK * ti->bytes; i++)
				blk[i] = (uint8_t)tap_rand(256);
			gguf_dq_versions(t, be, &base, &v2);
			base(blk, y0, NBLK);
			v2(blk, y1, NBLK);
			for (i = 0; i < nel && same(y0[i], y1[i]); i++)
				;
			if (i < nel) {
				diag("%s%s: element %llu differs", ti->name,
				    be ? " (be)" : "", (unsigned long long)i);
				bad++;
			}
			n++;
			free(blk);
			free(y0);
			free(y1);
		}
	}
	ok(bad == 0 && n > 0, "both versions of %d decoders give the same "
	    "bits on random blocks", n);
}

int
main(void)
{
	test_probe();
	test_pick();
	test_versions();
	return tap_done();
}
