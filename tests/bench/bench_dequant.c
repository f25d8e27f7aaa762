/*
 * bench_dequant.c - dequantization throughput against ggml, and the
 * speed-up of threaded statistics.
 *
 *	bench_dequant [--no-stats] [--no-types] [--stats-mb N] [--rounds N]
 *	    FIXDIR
 *
 * Part 1. For every tensor type of the fixture files (FIXDIR/types.gguf,
 * FIXDIR/internal-types.gguf), the tensor's bytes are repeated to make
 * 2^20 elements, and ggufed's decoder and ggml's own conversion (to_float
 * of ggml's type traits; dequantize_row_q8_K for Q8_K) decode the same
 * bytes in the same process, alternately, on one thread, in calls of
 * 65536 elements (the chunk size statistics decode with) into the same
 * kind of buffer. The best of several rounds is kept for each; the ratio
 * is ggml's time over ggufed's (above 1: ggufed is faster). Both outputs
 * of a whole decode must be equal bit for bit.
 * ggml's base library is loaded at run time from $GGML_LIB_DIR; without it
 * only ggufed's figures are printed.
 *
 * Part 2. A Q8_0 tensor of N MB (default 1024) of random blocks is written
 * to a file in $TMPDIR, opened with the reader, and its statistics are
 * computed with 1 and with 2 threads, alternately, four times each (the
 * first run also maps the file in); the best of each is kept. The results
 * must be identical.
 */
#include "config.h"

#include <dlfcn.h>
#include <math.h>
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
#define STATS_RUNS	4

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

static double
now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
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
	if ((h = dlopen(path, RTLD_NOW | RTLD_LOCAL)) == NULL) {
		printf("# cannot load %s: %s\n", path, dlerror());
		return -1;
	}
	*(void **)&ggml_traits = dlsym(h, "ggml_get_type_traits");
	*(void **)&ggml_q8_K = dlsym(h, "dequantize_row_q8_K");
	if (ggml_traits == NULL)
		return -1;
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
	double		 ours;		/* seconds per NELEM */
	double		 theirs;	/* 0: no ggml conversion */
	int		 equal;
};

/* Decodes all NELEM elements in calls of CALL elements into out. */
static void
run_ours(const struct gguf_tensor *t, const uint8_t *buf, uint64_t nbytes,
    float *out)
{
	struct gguf_err	err;
	uint64_t	first;

	for (first = 0; first < NELEM; first += CALL)
		gguf_dequant(t->type, 0, buf, nbytes, first, CALL, out, &err);
}

static void
run_theirs(row_fn fn, const struct gguf_type_info *ti, const uint8_t *buf,
    float *out)
{
	uint64_t	first;

	for (first = 0; first < NELEM; first += CALL)
		fn(buf + first / ti->blck * ti->bytes, out, CALL);
}

static void
bench_tensor(struct gguf_file *f, const struct gguf_tensor *t, int rounds,
    int have_ggml, struct result *res)
{
	const struct gguf_type_info	*ti = gguf_ttype(t->type);
	const uint8_t			*src;
	struct gguf_err			 err;
	row_fn				 theirs = NULL;
	uint8_t				*buf;
	float				*a, *b;
	uint64_t			 nblk = NELEM / ti->blck, i;
	uint64_t			 nbytes = nblk * ti->bytes;
	double				 t0, dt;
	int				 r;

	res->name = ti->name;
	res->ours = res->theirs = 1e30;
	res->equal = -1;
	if (have_ggml) {
		if (t->type == GGUF_T_Q8_K)
			theirs = ggml_q8_K;
		else if (ggml_traits((int)t->type)->to_float != NULL)
			theirs = ggml_traits((int)t->type)->to_float;
	}
	src = gguf_tensor_data(f, t, &err);
	buf = aligned_alloc(64, (nbytes + 63) / 64 * 64);
	for (i = 0; i < nblk; i++)
		memcpy(buf + i * ti->bytes, src + (i % (t->nbytes /
		    ti->bytes)) * ti->bytes, ti->bytes);
	a = aligned_alloc(64, NELEM * sizeof *a);
	b = aligned_alloc(64, NELEM * sizeof *b);
	memset(a, 0, NELEM * sizeof *a);
	memset(b, 0, NELEM * sizeof *b);
	/* the whole buffer once, for the comparison */
	gguf_dequant(t->type, 0, buf, nbytes, 0, NELEM, a, &err);
	if (theirs != NULL) {
		theirs(buf, b, NELEM);
		res->equal = same_floats(a, b, NELEM);
	}
	for (r = 0; r < rounds; r++) {
		t0 = now();
		run_ours(t, buf, nbytes, a);
		dt = now() - t0;
		if (dt < res->ours)
			res->ours = dt;
		if (theirs == NULL)
			continue;
		t0 = now();
		run_theirs(theirs, ti, buf, b);
		dt = now() - t0;
		if (dt < res->theirs)
			res->theirs = dt;
	}
	if (theirs == NULL)
		res->theirs = 0;
	free(a);
	free(b);
	free(buf);
}

static int
bench_types(const char *dir, int rounds, int have_ggml)
{
	static const char	*files[] = { "types.gguf", "internal-types.gguf" };
	struct result		 res[GGUF_T_COUNT];
	struct gguf_file	*f;
	struct gguf_err		 err;
	const struct gguf_tensor *t;
	char			 path[4096];
	double			 worst = 1e30;
	const char		*worst_name = "-";
	size_t			 k;
	uint64_t		 i;
	int			 n = 0, bad = 0;

	printf("dequantization of %u elements in calls of %u, best of %d "
	    "rounds, 1 thread\n", NELEM, CALL, rounds);
	printf("%-8s %12s %12s %8s  %s\n", "type", "ggufed Me/s", "ggml Me/s",
	    "ratio", "bits");
	for (k = 0; k < sizeof files / sizeof files[0]; k++) {
		snprintf(path, sizeof path, "%s/%s", dir, files[k]);
		if ((f = gguf_open(path, &err)) == NULL) {
			printf("# %s: %s\n", path, err.msg);
			return -1;
		}
		for (i = 0; i < gguf_layout(f)->n_tensors; i++) {
			t = gguf_tensor_at(f, i);
			bench_tensor(f, t, rounds, have_ggml, &res[n]);
			printf("%-8s %12.0f ", res[n].name, NELEM /
			    res[n].ours / 1e6);
			if (res[n].theirs > 0) {
				printf("%12.0f %7.2fx  %s\n", NELEM /
				    res[n].theirs / 1e6, res[n].theirs /
				    res[n].ours, res[n].equal ? "equal" :
				    "DIFFER");
				if (res[n].theirs / res[n].ours < worst) {
					worst = res[n].theirs / res[n].ours;
					worst_name = res[n].name;
				}
				bad += !res[n].equal;
			} else
				printf("%12s %8s  %s\n", "-", "-",
				    "(ggml has no conversion)");
			fflush(stdout);
			n++;
		}
		gguf_close(f);
	}
	if (have_ggml)
		printf("lowest ratio: %.2fx (%s)%s\n", worst, worst_name,
		    bad ? "; OUTPUTS DIFFER" : "");
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
	double			 best[2], t0, dt;
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
	    "best of %d runs, 1 and 2 threads alternately\n",
	    (unsigned long long)t->nbytes, (unsigned long long)t->nelem,
	    STATS_RUNS);
	memset(&opts, 0, sizeof opts);
	best[0] = best[1] = 1e30;
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
			dt = now() - t0;
			if (dt < best[k])
				best[k] = dt;
		}
	}
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
	if (stats && bench_stats(mb) != 0)
		rc = 1;
	return rc;
}
