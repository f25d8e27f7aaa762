/*
 * bench_dequant.c - dequantization throughput against ggml, and the
 * speed-up of threaded statistics.
 *
 *	bench_dequant [--no-stats] [--no-types] [--stats-mb N] [--rounds N]
 *	    FIXDIR
 *
 * Part 1. For every tensor type of the fixture files (FIXDIR/types.gguf,
 * FIXDIR/internal-types.gguf), the tensor's bytes are repeated to make
 * 2^20 elements, and four decoders convert the same bytes in the same
 * process, one after the other in each round, on one thread, in calls of
 * 65536 elements (the chunk size statistics decode with) into the same
 * kind of buffer: ggufed's portable reference (gguf_dequant_ref), what
 * gguf_dequant uses on this CPU (the AVX2/F16C decoders where there are),
 * ggml's base library (to_float of its type traits; dequantize_row_q8_K
 * for Q8_K), and ggml's CPU backend: ggml_cpu_fp16_to_fp32 and
 * ggml_cpu_bf16_to_fp32 of the libggml-cpu variant for this CPU (F16C,
 * AVX2); the CPU backend has no other conversion to float, it converts the
 * quantized types with the base library's to_float (shown as "base").
 * The median of the rounds is kept for each; ratios are ggml's time over
 * ggufed's (above 1: ggufed is faster), against the faster of ggml's two.
 * All outputs of a whole decode must be equal bit for bit.
 * ggml's libraries are loaded at run time from $GGML_LIB_DIR (the CPU
 * variant: $GGML_CPU_VARIANT, or the best this CPU runs); without them
 * only ggufed's figures are printed.
 *
 * Part 2. A Q8_0 tensor of N MB (default 1024) of random blocks is written
 * to a file in $TMPDIR, opened with the reader, and its statistics are
 * computed with 1 and with 2 threads, alternately, five times each (the
 * first run also maps the file in); the median of each is kept. The
 * results must be identical.
 *
 * Part 3. Statistics per type against ggml's conversion of the same data:
 * 2^25 elements of model-like values (halves and bfloats near 0.01-1,
 * blocks of random quants with scales of a few thousandths) in memory;
 * gguf_stats_data with 1 and 2 threads and ggml's faster to_float over
 * the whole buffer in calls of 65536 elements, in turn, eleven times
 * each; the fastest run of each is kept (on a virtual machine whose
 * neighbours take cache and cycles at random, a median moves by a
 * third from one run of the bench to the next; the fastest run is what
 * the code does when left alone, for ggml's code as for ours). "per core" is statistics on 1 thread over ggml's
 * conversion on 1 thread (the target: at least 0.5), by the wall clock and
 * by the process's CPU time (which other programs disturb less); "cores"
 * is the CPU time of the 2-thread runs over their wall time, the cores
 * they actually got (on a busy machine fewer than 2, and the speed-up
 * with them), and "x2 cpu" twice the CPU time on 1 thread over that on 2.
 * On a machine of two CPUs, the 1-thread run is also made on each CPU
 * alone (pinned), in the same rounds: "2 CPUs" is the most 2 threads can
 * give over the 1-thread run, its time over each CPU's, added. The cores
 * of a virtual machine need not be equally fast (one ran statistics at
 * 0.63 of the other's speed for minutes), and "x2" cannot pass it.
 * A second table shows what bounds "per core", in nanoseconds per element
 * on one thread: ggml's conversion of one chunk of 65536 elements in cache
 * ("ggml"), the sketch's counting of that chunk's decoded values alone,
 * in cache (gguf_stats_sketch_only: one scattered increment per value,
 * which statistics cannot do without), statistics over the whole buffer
 * without the sketch (GGUF_STATS_NO_HIST: decoding, counts, moments) and
 * with it; "bound" is ggml over the sketch alone, the highest "per core"
 * the counting allows even if decoding and moments were free.
 *
 * Other programs running on the machine disturb every figure: run it on a
 * quiet machine, or read the medians with that in mind.
 */
#include "config.h"

#include <dlfcn.h>
#include <math.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gguf.h"
#include "dequant.h"
#include "stats.h"

#define NELEM	(1u << 20)	/* elements decoded per round */
#define CALL	65536		/* per call: the chunk statistics use */
#define STATS_RUNS	5

/* ggml's per-type traits record, as its public header declares it. */
struct ggml_traits {
	const char	*type_name;
	int64_t		 blck_size;
	int64_t		 blck_size_interleave;
	size_t		 type_size;
	bool		 is_quantized;
	void		(*to_float)(const void *, float *, int64_t);
	void		(*from_float_ref)(const float *, void *, int64_t);
};

typedef const struct ggml_traits *(*traits_fn)(int);
typedef void	(*row_fn)(const void *, float *, int64_t);

static traits_fn	ggml_traits;
static row_fn		ggml_q8_K;
static row_fn		cpu_f16, cpu_bf16;	/* ggml's CPU backend */
static const char	*cpu_variant = "-";

/* CPU time of the process, all threads. */
static double
cpu_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double
now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The libggml-cpu variant for this CPU, as ggml's loader would pick it. */
static const char *
cpu_name(void)
{
	const char	*e = getenv("GGML_CPU_VARIANT");

	if (e != NULL && *e != '\0')
		return e;
#if defined(__x86_64__) && defined(__GNUC__)
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx512f"))
		return "skylakex";
	if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
		return "haswell";
	if (__builtin_cpu_supports("avx"))
		return "sandybridge";
	if (__builtin_cpu_supports("sse4.2"))
		return "sse42";
#endif
	return "x64";
}

/* ggml's CPU backend: its F16 and BF16 conversions. */
static void
load_cpu(const char *dir)
{
	char	path[4096];
	void	*h;
	void	(*init)(void);

	cpu_variant = cpu_name();
	snprintf(path, sizeof path, "%s/libggml-cpu-%s.so", dir, cpu_variant);
	if ((h = dlopen(path, RTLD_NOW | RTLD_LOCAL)) == NULL) {
		printf("# cannot load %s: %s\n", path, dlerror());
		cpu_variant = "-";
		return;
	}
	*(void **)&init = dlsym(h, "ggml_cpu_init");
	if (init != NULL)
		init();
	*(void **)&cpu_f16 = dlsym(h, "ggml_cpu_fp16_to_fp32");
	*(void **)&cpu_bf16 = dlsym(h, "ggml_cpu_bf16_to_fp32");
}

/* ggml's CPU backend conversion of type, or NULL. */
static row_fn
ggml_cpu_fn(uint32_t type)
{
	if (type == GGUF_T_F16)
		return cpu_f16;
	if (type == GGUF_T_BF16)
		return cpu_bf16;
	return NULL;
}

/* ggml's base conversion of type, or NULL. */
static row_fn
ggml_base_fn(uint32_t type)
{
	if (ggml_traits == NULL)
		return NULL;
	if (type == GGUF_T_Q8_K)
		return ggml_q8_K;
	return ggml_traits((int)type)->to_float;
}

static int
cmp_double(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The least of v: the run the rest of the machine disturbed least. */
static double
fastest(const double *v, int n)
{
	double	m = v[0];
	int	i;

	for (i = 1; i < n; i++)
		if (v[i] < m)
			m = v[i];
	return m;
}

static double
median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Loads ggml's base library; 0 if its traits agree with our type table. */
static int
load_ggml(void)
{
	const char			*dir = getenv("GGML_LIB_DIR");
	const struct ggml_traits	*tr;
	const struct gguf_type_info	*ti;
	char				 path[4096];
	void				*h;
	uint32_t			 t;

	if (dir == NULL || *dir == '\0')
		return -1;
	snprintf(path, sizeof path, "%s/libggml-base.so", dir);
	if ((h = dlopen(path, RTLD_NOW | RTLD_GLOBAL)) == NULL) {
		printf("# cannot load %s: %s\n", path, dlerror());
		return -1;
	}
	*(void **)&ggml_traits = dlsym(h, "ggml_get_type_traits");
	*(void **)&ggml_q8_K = dlsym(h, "dequantize_row_q8_K");
	if (ggml_traits == NULL)
		return -1;
	load_cpu(dir);
	for (t = 0; t < GGUF_T_COUNT; t++) {
		ti = gguf_ttype(t);
		if (ti->blck == 0)
			continue;
		tr = ggml_traits((int)t);
		if (tr == NULL || tr->blck_size != (int64_t)ti->blck ||
		    tr->type_size != ti->bytes) {
			printf("# ggml's type traits do not match type %s: "
			    "not comparing\n", ti->name);
			return -1;
		}
	}
	return 0;
}

static uint32_t
fbits(float f)
{
	uint32_t	u;

	memcpy(&u, &f, sizeof u);
	return u;
}

static int
same_floats(const float *a, const float *b, uint64_t n)
{
	uint64_t	i;

	for (i = 0; i < n; i++) {
		if (isnan(a[i]) && isnan(b[i]))
			continue;
		if (fbits(a[i]) != fbits(b[i]))
			return 0;
	}
	return 1;
}

struct result {
	const char	*name;
	const char	*isa;
	double		 ref;		/* seconds per NELEM, medians */
	double		 ours;
	double		 base;		/* 0: no ggml conversion */
	double		 cpu;		/* 0: none in ggml's CPU backend */
	int		 equal;
};

typedef int	(*dq_call)(uint32_t, int, const uint8_t *, uint64_t,
		    uint64_t, uint64_t, float *, struct gguf_err *);

/* Decodes all NELEM elements in calls of CALL elements into out. */
static double
run_ours(dq_call fn, const struct gguf_tensor *t, const uint8_t *buf,
    uint64_t nbytes, float *out)
{
	struct gguf_err	err;
	uint64_t	first;
	double		t0 = now();

	for (first = 0; first < NELEM; first += CALL)
		fn(t->type, 0, buf, nbytes, first, CALL, out, &err);
	return now() - t0;
}

static double
run_theirs(row_fn fn, const struct gguf_type_info *ti, const uint8_t *buf,
    float *out)
{
	uint64_t	first;
	double		t0 = now();

	for (first = 0; first < NELEM; first += CALL)
		fn(buf + first / ti->blck * ti->bytes, out, CALL);
	return now() - t0;
}

static void
bench_tensor(struct gguf_file *f, const struct gguf_tensor *t, int rounds,
    struct result *res)
{
	const struct gguf_type_info	*ti = gguf_ttype(t->type);
	const uint8_t			*src;
	struct gguf_err			 err;
	row_fn				 base, cpu;
	uint8_t				*buf;
	float				*a, *b;
	double				*tr, *to, *tb, *tc;
	uint64_t			 nblk = NELEM / ti->blck, i;
	uint64_t			 nbytes = nblk * ti->bytes;
	int				 r;

	res->name = ti->name;
	res->isa = gguf_dequant_isa(t->type);
	res->equal = -1;
	base = ggml_base_fn(t->type);
	cpu = ggml_cpu_fn(t->type);
	src = gguf_tensor_data(f, t, &err);
	buf = aligned_alloc(64, (nbytes + 63) / 64 * 64);
	for (i = 0; i < nblk; i++)
		memcpy(buf + i * ti->bytes, src + (i % (t->nbytes /
		    ti->bytes)) * ti->bytes, ti->bytes);
	a = aligned_alloc(64, NELEM * sizeof *a);
	b = aligned_alloc(64, NELEM * sizeof *b);
	tr = calloc((size_t)rounds * 4, sizeof *tr);
	to = tr + rounds;
	tb = to + rounds;
	tc = tb + rounds;
	memset(a, 0, NELEM * sizeof *a);
	memset(b, 0, NELEM * sizeof *b);
	/* the whole buffer once, for the comparisons */
	gguf_dequant(t->type, 0, buf, nbytes, 0, NELEM, a, &err);
	gguf_dequant_ref(t->type, 0, buf, nbytes, 0, NELEM, b, &err);
	res->equal = memcmp(a, b, NELEM * sizeof *a) == 0;
	if (base != NULL) {
		base(buf, b, NELEM);
		res->equal &= same_floats(a, b, NELEM);
	}
	if (cpu != NULL) {
		cpu(buf, b, NELEM);
		res->equal &= same_floats(a, b, NELEM);
	}
	for (r = 0; r < rounds; r++) {
		tr[r] = run_ours(gguf_dequant_ref, t, buf, nbytes, a);
		to[r] = run_ours(gguf_dequant, t, buf, nbytes, a);
		if (base != NULL)
			tb[r] = run_theirs(base, ti, buf, b);
		if (cpu != NULL)
			tc[r] = run_theirs(cpu, ti, buf, b);
	}
	res->ref = median(tr, rounds);
	res->ours = median(to, rounds);
	res->base = base != NULL ? median(tb, rounds) : 0;
	res->cpu = cpu != NULL ? median(tc, rounds) : 0;
	free(tr);
	free(a);
	free(b);
	free(buf);
}

static void
print_rate(double secs, const char *none)
{
	if (secs > 0)
		printf(" %8.0f", NELEM / secs / 1e6);
	else
		printf(" %8s", none);
}

static int
bench_types(const char *dir, int rounds, int have_ggml)
{
	static const char	*files[] = { "types.gguf", "internal-types.gguf" };
	struct result		 res;
	struct gguf_file	*f;
	struct gguf_err		 err;
	const struct gguf_tensor *t;
	char			 path[4096];
	double			 worst = 1e30, best_ggml;
	const char		*worst_name = "-";
	size_t			 k;
	uint64_t		 i;
	int			 bad = 0;

	printf("dequantization of %u elements in calls of %u, median of %d "
	    "rounds, 1 thread, Me/s\n", NELEM, CALL, rounds);
	printf("ggml CPU: libggml-cpu-%s (F16, BF16; quantized types go "
	    "through the base library's to_float)\n", cpu_variant);
	printf("%-8s %8s %8s %-8s %8s %8s %7s %7s  %s\n", "type", "ref",
	    "ggufed", "(isa)", "ggml", "ggml CPU", "/ref", "/ggml", "bits");
	for (k = 0; k < sizeof files / sizeof files[0]; k++) {
		snprintf(path, sizeof path, "%s/%s", dir, files[k]);
		if ((f = gguf_open(path, &err)) == NULL) {
			printf("# %s: %s\n", path, err.msg);
			return -1;
		}
		for (i = 0; i < gguf_layout(f)->n_tensors; i++) {
			t = gguf_tensor_at(f, i);
			bench_tensor(f, t, rounds, &res);
			printf("%-8s", res.name);
			print_rate(res.ref, "-");
			print_rate(res.ours, "-");
			printf(" %-8s", res.isa);
			print_rate(res.base, "-");
			print_rate(res.cpu, res.base > 0 ? "base" : "-");
			printf(" %6.2fx", res.ref / res.ours);
			best_ggml = res.base;
			if (res.cpu > 0 && (!(best_ggml > 0) || res.cpu < best_ggml))
				best_ggml = res.cpu;
			if (best_ggml > 0) {
				printf(" %6.2fx", best_ggml / res.ours);
				if (best_ggml / res.ours < worst) {
					worst = best_ggml / res.ours;
					worst_name = res.name;
				}
			} else
				printf(" %7s", "-");
			printf("  %s\n", res.equal ? "equal" : "DIFFER");
			bad += !res.equal;
			fflush(stdout);
		}
		gguf_close(f);
	}
	if (have_ggml)
		printf("lowest ratio against ggml: %.2fx (%s)%s\n", worst,
		    worst_name, bad ? "; OUTPUTS DIFFER" : "");
	return bad ? -1 : 0;
}

/* ------------------------------------------------------------ statistics */

static uint64_t	rng = 0x2545f4914f6cdd1dull;

static uint64_t
rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void
put64(uint8_t *p, uint64_t v)
{
	int	i;

	for (i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* Writes a one-tensor Q8_0 file of about mb megabytes; its size or 0. */
static uint64_t
write_q8_0(const char *path, uint64_t mb, uint64_t ne0)
{
	FILE		*fp;
	uint8_t		 hdr[128], *row;
	uint64_t	 rowbytes = ne0 / 32 * 34, nrows, r, j, n = 0;

	nrows = (mb * 1000000 + rowbytes - 1) / rowbytes;
	if ((fp = fopen(path, "wb")) == NULL)
		return 0;
	memset(hdr, 0, sizeof hdr);
	memcpy(hdr, "GGUF", 4);
	hdr[4] = 3;
	put64(hdr + 8, 1);		/* tensors */
	put64(hdr + 16, 0);		/* kv */
	n = 24;
	put64(hdr + n, 1);
	hdr[n + 8] = 'w';
	n += 9;
	hdr[n] = 2;			/* n_dims */
	n += 4;
	put64(hdr + n, ne0);
	put64(hdr + n + 8, nrows);
	n += 16;
	hdr[n] = GGUF_T_Q8_0;
	n += 4;
	put64(hdr + n, 0);
	n += 8;
	n = (n + 31) / 32 * 32;
	fwrite(hdr, 1, n, fp);
	row = malloc(rowbytes);
	for (r = 0; r < nrows; r++) {
		for (j = 0; j < rowbytes; j += 8)
			put64(row + j, rnd());
		for (j = 0; j < rowbytes; j += 34) {
			row[j] = (uint8_t)rnd();
			row[j + 1] = 0x20 + (uint8_t)(rnd() % 8); /* modest d */
		}
		if (fwrite(row, 1, rowbytes, fp) != rowbytes) {
			fclose(fp);
			free(row);
			return 0;
		}
	}
	free(row);
	if (fclose(fp) != 0)
		return 0;
	return n + nrows * rowbytes;
}

static int
bench_stats(uint64_t mb)
{
	const char		*tmp = getenv("TMPDIR");
	struct gguf_stats_opts	 opts;
	struct gguf_stats	 st[2];
	struct gguf_file	*f;
	struct gguf_err		 err;
	const struct gguf_tensor *t;
	char			 path[4096];
	double			 best[2], times[2][STATS_RUNS], t0;
	uint64_t		 size;
	int			 k, r, rc = 0;

	snprintf(path, sizeof path, "%s/ggufed-bench-%ld.gguf",
	    tmp != NULL && *tmp != '\0' ? tmp : "/tmp", (long)getpid());
	size = write_q8_0(path, mb, 4096);
	if (size == 0) {
		printf("# cannot write %s\n", path);
		unlink(path);
		return -1;
	}
	if ((f = gguf_open(path, &err)) == NULL) {
		printf("# %s: %s\n", path, err.msg);
		unlink(path);
		return -1;
	}
	t = gguf_tensor_at(f, 0);
	printf("\nstatistics of a Q8_0 tensor of %llu bytes (%llu elements), "
	    "median of %d runs, 1 and 2 threads alternately\n",
	    (unsigned long long)t->nbytes, (unsigned long long)t->nelem,
	    STATS_RUNS);
	memset(&opts, 0, sizeof opts);
	for (r = 0; r < STATS_RUNS && rc == 0; r++) {
		for (k = 0; k < 2; k++) {
			opts.threads = (unsigned)k + 1;
			t0 = now();
			if (gguf_stats_tensor(f, t, 0, gguf_tensor_nrows(t),
			    &opts, &st[k], &err) != 0) {
				printf("# stats: %s\n", err.msg);
				rc = -1;
				break;
			}
			times[k][r] = now() - t0;
		}
	}
	for (k = 0; k < 2 && rc == 0; k++)
		best[k] = median(times[k], STATS_RUNS);
	for (k = 0; k < 2 && rc == 0; k++)
		printf("%d thread%s %8.3f s  %7.0f MB/s\n", k + 1, k ? "s" : " ",
		    best[k], (double)t->nbytes / best[k] / 1e6);
	if (rc == 0) {
		printf("speed-up 1 -> 2 threads: %.2fx; results %s "
		    "(mean %.9g, std %.9g)\n", best[0] / best[1],
		    memcmp(&st[0], &st[1], sizeof st[0]) == 0 ? "identical" :
		    "DIFFER", st[0].mean, st[0].std);
		if (memcmp(&st[0], &st[1], sizeof st[0]) != 0)
			rc = -1;
	}
	gguf_close(f);
	unlink(path);
	return rc;
}

/* ------------------------------------------- statistics against ggml */

#define SNELEM		(1u << 25)
#define SRUNS		11

static const struct {
	uint32_t	type;
	int		scale[2];	/* offsets of half scales, or -1 */
} stypes[] = {
	{ GGUF_T_F32, { -1, -1 } },
	{ GGUF_T_F16, { -1, -1 } },
	{ GGUF_T_BF16, { -1, -1 } },
	{ GGUF_T_Q8_0, { 0, -1 } },
	{ GGUF_T_Q4_0, { 0, -1 } },
	{ GGUF_T_Q4_K, { 0, 2 } },
	{ GGUF_T_Q5_K, { 0, 2 } },
	{ GGUF_T_Q6_K, { 208, -1 } },
};

/* SNELEM elements of model-like data of type k of stypes into buf. */
static void
fill_type(size_t k, uint8_t *buf, uint64_t nbytes)
{
	const struct gguf_type_info	*ti = gguf_ttype(stypes[k].type);
	uint64_t			 i, v, h;
	uint32_t			 u;
	int				 j;

	for (i = 0; i < nbytes; i += 8)
		put64(buf + i, rnd());
	for (i = 0; i < SNELEM; i++) {
		v = rnd();
		switch (stypes[k].type) {
		case GGUF_T_F32:	/* 2^-7 .. 1, either sign */
			u = (uint32_t)(v & 0x807fffffu) |
			    (uint32_t)(120 + (v >> 32 & 7)) << 23;
			memcpy(buf + 4 * i, &u, 4);
			continue;
		case GGUF_T_F16:
			h = (v & 0x83ff) | (0x2000 + (v >> 16 & 7) * 0x400);
			break;
		case GGUF_T_BF16:
			h = (v & 0x807f) | (0x3c00 + (v >> 16 & 7) * 0x80);
			break;
		default:
			i = SNELEM;
			continue;
		}
		buf[2 * i] = (uint8_t)h;
		buf[2 * i + 1] = (uint8_t)(h >> 8);
	}
	for (i = 0; ti->blck > 1 && i < nbytes; i += ti->bytes) {
		for (j = 0; j < 2; j++) {
			if (stypes[k].scale[j] < 0)
				continue;
			h = 0x1c00 + rnd() % 0x400;	/* 0.0039 .. 0.0078 */
			buf[i + (uint64_t)stypes[k].scale[j]] = (uint8_t)h;
			buf[i + (uint64_t)stypes[k].scale[j] + 1] =
			    (uint8_t)(h >> 8);
		}
	}
}

#define FLOOR_REPS	64	/* passes over the chunk in cache */

/*
 * ns per element of ggml's conversion of the first chunk of buf (fn, or
 * none) and of the sketch counting it decoded, in cache: the fastest runs.
 */
static void
chunk_floor(uint32_t type, row_fn fn, const uint8_t *buf, uint64_t nbytes,
    float *out, double *ns_ggml, double *ns_sketch)
{
	struct gguf_err	 err;
	float		*dec = aligned_alloc(64, CALL * sizeof *dec);
	double		 tg[SRUNS], ts[SRUNS], t0;
	uint64_t	 sink = 0;
	int		 r, k;

	gguf_dequant(type, 0, buf, nbytes, 0, CALL, dec, &err);
	for (r = 0; r < SRUNS; r++) {
		tg[r] = 0;
		if (fn != NULL) {
			fn(buf, out, CALL);
			t0 = now();
			for (k = 0; k < FLOOR_REPS; k++)
				fn(buf, out, CALL);
			tg[r] = now() - t0;
		}
		sink += gguf_stats_sketch_only(dec, CALL, 1);
		t0 = now();
		sink += gguf_stats_sketch_only(dec, CALL, FLOOR_REPS);
		ts[r] = now() - t0;
	}
	if (sink == 0)
		printf("# the sketch counted nothing\n");
	*ns_ggml = fastest(tg, SRUNS) / FLOOR_REPS / CALL * 1e9;
	*ns_sketch = fastest(ts, SRUNS) / FLOOR_REPS / CALL * 1e9;
	free(dec);
}

#ifdef CPU_COUNT
static cpu_set_t	all_cpus;

/* The two CPUs this process may run on, when it may run on exactly two. */
static int
two_cpus(int cpu[2])
{
	int	c, n = 0;

	if (sched_getaffinity(0, sizeof all_cpus, &all_cpus) != 0 ||
	    CPU_COUNT(&all_cpus) != 2)
		return -1;
	for (c = 0; c < CPU_SETSIZE && n < 2; c++)
		if (CPU_ISSET(c, &all_cpus))
			cpu[n++] = c;
	return n == 2 ? 0 : -1;
}

/* Runs the calling thread on cpu alone (-1: on all of them again). */
static void
pin(int cpu)
{
	cpu_set_t	one;

	CPU_ZERO(&one);
	if (cpu >= 0)
		CPU_SET(cpu, &one);
	(void)sched_setaffinity(0, sizeof one, cpu >= 0 ? &one : &all_cpus);
}
#else
static int
two_cpus(int cpu[2])
{
	(void)cpu;
	return -1;
}

static void
pin(int cpu)
{
	(void)cpu;
}
#endif

static int
bench_stats_types(void)
{
	const struct gguf_type_info	*ti;
	struct gguf_stats_opts		 opts;
	struct gguf_stats		 st[3];
	struct gguf_err			 err;
	row_fn				 base, cpu, fn;
	uint8_t				*buf;
	float				*out;
	double				 t1[SRUNS], t2[SRUNS], tg[SRUNS], t0;
	double				 c1[SRUNS], c2[SRUNS], cg[SRUNS];
	double				 cores[SRUNS], c0, m1, m2, mg;
	double				 tp[2][SRUNS];	/* pinned */
	int				 pcpu[2], two = two_cpus(pcpu) == 0, j;
	double				 tn[SRUNS], fl[4][sizeof stypes /
					     sizeof stypes[0]];
	uint64_t			 nbytes, first;
	size_t				 k;
	int				 r, rc = 0;

	printf("\nstatistics (gguf_stats_data) of %u elements in memory "
	    "against ggml's conversion of the same data, the fastest of %d "
	    "runs in turn, Me/s\n", SNELEM, SRUNS);
	printf("cores: CPU time over wall time of the 2-thread runs (the "
	    "cores they got: x2 cannot exceed it);\nx2 cpu: 2 x CPU time "
	    "on 1 thread over CPU time on 2 (the speed-up with 2 free "
	    "cores, if the threads never wait);\nper core: ggml's time "
	    "over statistics' on 1 thread, by the wall clock and by CPU "
	    "time;\n2 CPUs: the 1 thread's time over each CPU's alone, "
	    "added (the most x2 can be)\n");
	printf("%-6s %10s %10s %6s %6s %7s %10s %9s %9s %7s\n", "type",
	    "1 thread", "2 threads", "x2", "cores", "x2 cpu", "ggml 1t",
	    "per core", "(cpu)", "2 CPUs");
	out = aligned_alloc(64, CALL * sizeof *out);
	for (k = 0; k < sizeof stypes / sizeof stypes[0] && rc == 0; k++) {
		ti = gguf_ttype(stypes[k].type);
		nbytes = (uint64_t)SNELEM / ti->blck * ti->bytes;
		buf = aligned_alloc(64, (nbytes + 63) / 64 * 64);
		fill_type(k, buf, nbytes);
		base = ggml_base_fn(stypes[k].type);
		cpu = ggml_cpu_fn(stypes[k].type);
		fn = cpu != NULL ? cpu : base;
		memset(&opts, 0, sizeof opts);
		for (r = 0; r < SRUNS; r++) {
			opts.threads = 1;
			c0 = cpu_now();
			t0 = now();
			rc |= gguf_stats_data(stypes[k].type, 0, buf, nbytes, 0,
			    SNELEM, &opts, &st[0], &err);
			t1[r] = now() - t0;
			c1[r] = cpu_now() - c0;
			opts.threads = 2;
			c0 = cpu_now();
			t0 = now();
			rc |= gguf_stats_data(stypes[k].type, 0, buf, nbytes, 0,
			    SNELEM, &opts, &st[1], &err);
			t2[r] = now() - t0;
			c2[r] = cpu_now() - c0;
			cores[r] = c2[r] / t2[r];
			opts.threads = 1;
			for (j = 0; j < 2; j++) {
				tp[j][r] = 0;
				if (!two)
					continue;
				pin(pcpu[j]);
				t0 = now();
				rc |= gguf_stats_data(stypes[k].type, 0, buf,
				    nbytes, 0, SNELEM, &opts, &st[2], &err);
				tp[j][r] = now() - t0;
				pin(-1);
			}
			opts.flags = GGUF_STATS_NO_HIST;
			t0 = now();
			rc |= gguf_stats_data(stypes[k].type, 0, buf, nbytes, 0,
			    SNELEM, &opts, &st[2], &err);
			tn[r] = now() - t0;
			opts.flags = 0;
			tg[r] = cg[r] = 0;
			if (fn == NULL)
				continue;
			c0 = cpu_now();
			t0 = now();
			for (first = 0; first < SNELEM; first += CALL)
				fn(buf + first / ti->blck * ti->bytes, out,
				    CALL);
			tg[r] = now() - t0;
			cg[r] = cpu_now() - c0;
		}
		if (rc != 0 || memcmp(&st[0], &st[1], sizeof st[0]) != 0) {
			printf("# %s: statistics failed or differ between 1 "
			    "and 2 threads\n", ti->name);
			rc = -1;
		}
		m1 = fastest(t1, SRUNS);
		m2 = fastest(t2, SRUNS);
		mg = fastest(tg, SRUNS);
		printf("%-6s %10.0f %10.0f %5.2fx %6.2f %6.2fx", ti->name,
		    SNELEM / m1 / 1e6, SNELEM / m2 / 1e6, m1 / m2,
		    median(cores, SRUNS), 2 * fastest(c1, SRUNS) /
		    fastest(c2, SRUNS));
		if (mg > 0)
			printf(" %10.0f %8.2fx %8.2fx", SNELEM / mg / 1e6,
			    mg / m1, fastest(cg, SRUNS) / fastest(c1, SRUNS));
		else
			printf(" %10s %9s %9s", "-", "-", "-");
		if (two)
			printf(" %6.2fx\n", m1 / fastest(tp[0], SRUNS) +
			    m1 / fastest(tp[1], SRUNS));
		else
			printf(" %7s\n", "-");
		fflush(stdout);
		chunk_floor(stypes[k].type, fn, buf, nbytes, out, &fl[0][k],
		    &fl[1][k]);
		fl[2][k] = fastest(tn, SRUNS) / SNELEM * 1e9;
		fl[3][k] = m1 / SNELEM * 1e9;
		free(buf);
	}
	free(out);
	printf("\nwhat bounds per core, ns per element on 1 thread (kernels: "
	    "%s): ggml's conversion and\nthe sketch's counting alone of one "
	    "chunk in cache; statistics without the sketch and with it;\n"
	    "bound: ggml over the sketch alone, the best per core the "
	    "counting allows\n", gguf_stats_isa());
	printf("%-6s %8s %8s %8s %10s %8s %10s\n", "type", "ggml", "sketch",
	    "bound", "no sketch", "stats", "per core");
	for (k = 0; k < sizeof stypes / sizeof stypes[0] && rc == 0; k++) {
		printf("%-6s ", gguf_ttype(stypes[k].type)->name);
		if (fl[0][k] > 0)
			printf("%8.3f %8.3f %7.2fx", fl[0][k], fl[1][k],
			    fl[0][k] / fl[1][k]);
		else
			printf("%8s %8.3f %8s", "-", fl[1][k], "-");
		printf(" %10.3f %8.3f", fl[2][k], fl[3][k]);
		if (fl[0][k] > 0)
			printf(" %9.2fx\n", fl[0][k] / fl[3][k]);
		else
			printf(" %10s\n", "-");
	}
	return rc;
}

int
main(int argc, char **argv)
{
	int		have_ggml, rounds = 15, stats = 1, types = 1, i, rc = 0;
	uint64_t	mb = 1024;

	for (i = 1; i < argc - 1; i++) {
		if (strcmp(argv[i], "--no-stats") == 0)
			stats = 0;
		else if (strcmp(argv[i], "--no-types") == 0)
			types = 0;
		else if (strcmp(argv[i], "--stats-mb") == 0 && i + 2 < argc)
			mb = strtoull(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "--rounds") == 0 && i + 2 < argc)
			rounds = atoi(argv[++i]);
		else
			break;
	}
	if (i != argc - 1 || rounds < 1) {
		fprintf(stderr, "usage: bench_dequant [--no-stats] [--no-types] "
		    "[--stats-mb N] [--rounds N] FIXDIR\n");
		return 2;
	}
	have_ggml = load_ggml() == 0;
	if (!have_ggml)
		printf("# ggml's library not loaded (set GGML_LIB_DIR): "
		    "ggufed figures only\n");
	if (types && bench_types(argv[argc - 1], rounds, have_ggml) != 0)
		rc = 1;
	if (stats && bench_stats_types() != 0)
		rc = 1;
	if (stats && bench_stats(mb) != 0)
		rc = 1;
	return rc;
}
