/*
 * test_srcread.c - a model read through a source that cannot map gives
 * what the mapped file gives: the same header, KV bytes and layout; the
 * same rows, windows, raw bytes, quantized blocks and statistics of
 * every tensor, and the same hashes of every tensor and of all of them
 * (the span reader, reading through the source), the same findings of
 * the data checks (validate --data). A header larger than the first
 * read is read in a few reads of at most what it needs and 2 MiB more.
 * A short read and a changed source each fail with their one-line error.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "dequant.h"
#include "gguf.h"
#include "hash.h"
#include "source.h"
#include "stats.h"
#include "tap.h"

static uint8_t *
slurp(const char *path, size_t *n)
{
	FILE	*fp = fopen(path, "rb");
	uint8_t	*p;
	long	 len;

	if (fp == NULL || fseek(fp, 0, SEEK_END) != 0 ||
	    (len = ftell(fp)) < 0 || fseek(fp, 0, SEEK_SET) != 0)
		return NULL;
	p = malloc((size_t)len + 1);
	if (fread(p, 1, (size_t)len, fp) != (size_t)len) {
		free(p);
		p = NULL;
	}
	fclose(fp);
	*n = (size_t)len;
	return p;
}

/* Both files' header, layout and KV bytes are the same. */
static void
same_header(struct gguf_file *a, struct gguf_file *b, const char *what)
{
	const struct gguf_layout	*la = gguf_layout(a);
	const struct gguf_layout	*lb = gguf_layout(b);
	uint64_t			 i;
	int				 same = 1;

	ok(la->n_kv == lb->n_kv && la->n_tensors == lb->n_tensors &&
	    la->data_off == lb->data_off && la->file_size == lb->file_size &&
	    gguf_n_warnings(a) == gguf_n_warnings(b),
	    "%s: the same layout and findings", what);
	for (i = 0; i < la->n_kv && same; i++) {
		struct gguf_kv	*ka = gguf_kv_at(a, i), *kb = gguf_kv_at(b, i);

		same = ka->off == kb->off && ka->end == kb->end &&
		    memcmp(gguf_base(a) + ka->off, gguf_base(b) + kb->off,
		    (size_t)(ka->end - ka->off)) == 0;
	}
	ok(same, "%s: the same bytes of every KV pair", what);
}

/* The findings of a check, as one text. */
struct findings {
	char	text[16384];
	size_t	len;
};

static void
finding(void *arg, int level, const char *file, int64_t off,
    const char *msg)
{
	struct findings	*fs = arg;
	int		 n;

	(void)file;
	n = snprintf(fs->text + fs->len, sizeof fs->text - fs->len,
	    "%d %lld %s\n", level, (long long)off, msg);
	if (n > 0 && (size_t)n < sizeof fs->text - fs->len)
		fs->len += (size_t)n;
}

static int
same_stats(const struct gguf_stats *a, const struct gguf_stats *b)
{
	return a->count == b->count && a->nfinite == b->nfinite &&
	    a->nzero == b->nzero && a->nnan == b->nnan &&
	    (same_f64(a->min, b->min) || (isnan(a->min) && isnan(b->min))) &&
	    (same_f64(a->max, b->max) || (isnan(a->max) && isnan(b->max))) &&
	    (same_f64(a->mean, b->mean) || (isnan(a->mean) &&
	    isnan(b->mean))) &&
	    (same_f64(a->std, b->std) || (isnan(a->std) && isnan(b->std)));
}

/* Every tensor reads the same from both. */
static void
same_tensors(struct gguf_file *a, struct gguf_file *b)
{
	const struct gguf_layout	*lay = gguf_layout(a);
	struct gguf_stats_opts		 so;
	struct gguf_stats		 sa, sb;
	struct gguf_blockview		 va, vb;
	struct gguf_err			 ea, eb;
	double				*ra, *rb;
	uint8_t				 ba[64], bb[64];
	uint64_t			 i, nr, c0, nc, n;
	int				 rows = 1, win = 1, raw = 1, st = 1;
	int				 blk = 1, tried = 0;

	memset(&so, 0, sizeof so);
	so.threads = 1;
	for (i = 0; i < lay->n_tensors; i++) {
		const struct gguf_tensor *t = gguf_tensor_at(a, i);
		const struct gguf_type_info *ti = gguf_ttype(t->type);

		n = t->nbytes < sizeof ba ? t->nbytes : sizeof ba;
		if (gguf_tensor_read(a, t, t->nbytes - n, ba, n, &ea) != 0 ||
		    gguf_tensor_read(b, gguf_tensor_at(b, i), t->nbytes - n,
		    bb, n, &eb) != 0 || memcmp(ba, bb, (size_t)n) != 0)
			raw = 0;
		if (gguf_dequant_check(t->type, lay->be, NULL) != 0)
			continue;
		tried++;
		nr = gguf_tensor_nrows(t) < 3 ? gguf_tensor_nrows(t) : 3;
		ra = calloc((size_t)(nr * t->ne[0] + 1), sizeof *ra);
		rb = calloc((size_t)(nr * t->ne[0] + 1), sizeof *rb);
		/* the last rows: the end of the data */
		if (gguf_dequant_rows_f64(a, t, gguf_tensor_nrows(t) - nr, nr,
		    0, t->ne[0], ra, &ea) != 0 ||
		    gguf_dequant_rows_f64(b, t, gguf_tensor_nrows(t) - nr, nr,
		    0, t->ne[0], rb, &eb) != 0 ||
		    memcmp(ra, rb, (size_t)(nr * t->ne[0]) * sizeof *ra) != 0) {
			rows = 0;
			diag("rows of tensor %llu: %s / %s",
			    (unsigned long long)i, ea.msg, eb.msg);
		}
		c0 = t->ne[0] / 3;
		nc = t->ne[0] - c0 < 5 ? t->ne[0] - c0 : 5;
		if (gguf_dequant_rows_f64(a, t, 0, nr, c0, nc, ra, &ea) != 0 ||
		    gguf_dequant_rows_f64(b, t, 0, nr, c0, nc, rb, &eb) != 0 ||
		    memcmp(ra, rb, (size_t)(nr * nc) * sizeof *ra) != 0)
			win = 0;
		free(ra);
		free(rb);
		if (gguf_stats_tensor(a, t, 0, gguf_tensor_nrows(t), &so, &sa,
		    &ea) != 0 || gguf_stats_tensor(b, t, 0,
		    gguf_tensor_nrows(t), &so, &sb, &eb) != 0 ||
		    !same_stats(&sa, &sb))
			st = 0;
		if ((ti->flags & GGUF_TF_QUANT) && t->nbytes / ti->bytes > 1 &&
		    (gguf_tensor_block_view(a, t, 1, &va, &ea) != 0 ||
		    gguf_tensor_block_view(b, t, 1, &vb, &eb) != 0 ||
		    va.nfield != vb.nfield ||
		    memcmp(va.v, vb.v, sizeof va.v) != 0))
			blk = 0;
	}
	ok(tried > 0, "tensors to decode: %d", tried);
	ok(raw, "the same raw bytes of every tensor");
	ok(rows, "the same last rows of every tensor");
	ok(win, "the same column windows of every tensor");
	ok(st, "the same statistics of every tensor");
	ok(blk, "the same quantized blocks");
}

/*
 * The data checks (validate --data) find the same in memory as read
 * through a source that cannot map: with a NaN planted in the first F32
 * tensor, so that there is something to find.
 */
static void
data_checks(uint8_t *mem, size_t n)
{
	static struct findings	 fa, fb;
	static const uint8_t	 nan[4] = { 0x00, 0x00, 0xc0, 0x7f };
	struct gguf_stats_opts	 so;
	struct gguf_file	*a, *b;
	struct gguf_err		 err;
	uint64_t		 i;

	memset(&so, 0, sizeof so);
	so.threads = 1;
	if ((a = gguf_open_buffer(mem, n, &err)) == NULL)
		return;
	for (i = 0; i < gguf_layout(a)->n_tensors; i++) {
		const struct gguf_tensor *t = gguf_tensor_at(a, i);

		if (t->type == GGUF_T_F32) {
			memcpy(mem + gguf_layout(a)->data_off + t->offset +
			    4 * (t->nelem / 2), nan, 4);
			break;
		}
	}
	gguf_close(a);
	a = gguf_open_buffer(mem, n, &err);
	b = gguf_open_source(gguf_source_mem(mem, n, NULL,
	    GGUF_SRC_MEM_NOMAP), &err);
	if (a == NULL || b == NULL) {
		ok(0, "reopened with a NaN: %s", err.msg);
		return;
	}
	gguf_check_model(a, NULL, GGUF_CHECK_DATA, &so, finding, &fa);
	gguf_check_model(b, NULL, GGUF_CHECK_DATA, &so, finding, &fb);
	ok(strstr(fa.text, "NaN") != NULL && fa.len == fb.len &&
	    memcmp(fa.text, fb.text, fa.len) == 0,
	    "the same findings of the data checks (%zu bytes)", fa.len);
	if (fa.len != fb.len || fa.len == 0)
		diag("in memory:\n%s\nread:\n%s", fa.text, fb.text);
	gguf_close(a);
	gguf_close(b);
}

int
main(void)
{
	const char		*srcdir = getenv("TESTS_SRCDIR");
	const char		*shared = getenv("SHARED_DIR");
	const struct gguf_tensor *t;
	struct gguf_source	*s;
	struct gguf_file	*a, *b;
	struct gguf_err		 err;
	uint64_t		 reads, bytes;
	uint8_t			*mem;
	double			 v[4];
	char			 path[4096];
	size_t			 n;

	snprintf(path, sizeof path, "%s/../assets/Demo-Llama-3.9M-v1.0-"
	    "Q4_K_M.gguf", srcdir != NULL ? srcdir : "tests");
	memset(&err, 0, sizeof err);
	if ((mem = slurp(path, &n)) == NULL ||
	    (a = gguf_open(path, &err)) == NULL) {
		printf("Bail out! cannot read %s: %s\n", path, err.msg);
		return 1;
	}
	s = gguf_source_mem(mem, n, path, GGUF_SRC_MEM_NOMAP);
	b = gguf_open_source(s, &err);
	ok(b != NULL && !gguf_file_whole(b) && gguf_file_whole(a),
	    "opens from a source that cannot map: %s", err.msg);
	if (b == NULL)
		return tap_done();
	same_header(a, b, "the demo model");
	same_tensors(a, b);
	{
		uint64_t		 nt = gguf_layout(a)->n_tensors, et;
		struct gguf_hashes	*ha = calloc(nt, sizeof *ha);
		struct gguf_hashes	*hb = calloc(nt, sizeof *hb);
		struct gguf_hashes	 aa, ab;
		unsigned		 m = GGUF_HM(GGUF_H_XXH64) |
					    GGUF_HM(GGUF_H_SHA256);

		ok(gguf_hash_tensors(a, m, m, ha, &aa, NULL, NULL, &et,
		    &err) == 0 && gguf_hash_tensors(b, m, m, hb, &ab, NULL,
		    NULL, &et, &err) == 0 && memcmp(ha, hb, nt * sizeof *ha)
		    == 0 && memcmp(&aa, &ab, sizeof aa) == 0 &&
		    aa.d[GGUF_H_SHA256].len == 32,
		    "the same hashes of every tensor and of all: %s", err.msg);
		free(ha);
		free(hb);
	}
	{
		uint64_t		 last = gguf_layout(a)->n_tensors - 1;
		uint64_t		 r0, b0, r1, b1;
		struct gguf_digest	 da, db;

		t = gguf_tensor_at(b, last);
		gguf_source_mem_count(s, &r0, &b0);
		ok(gguf_hash_tensor(a, last, GGUF_H_SHA256, &da, &err) == 0 &&
		    gguf_hash_tensor(b, last, GGUF_H_SHA256, &db, &err) == 0 &&
		    da.len == 32 && db.len == 32 &&
		    memcmp(da.b, db.b, 32) == 0,
		    "the same hash of one tensor: %s", err.msg);
		gguf_source_mem_count(s, &r1, &b1);
		ok(r1 > r0 && b1 - b0 == t->nbytes,
		    "its data read through the source: %llu bytes of %llu",
		    (unsigned long long)(b1 - b0),
		    (unsigned long long)t->nbytes);
	}
	t = gguf_tensor_at(b, gguf_layout(b)->n_tensors - 1);
	ok(gguf_tensor_data(b, t, &err) == NULL &&
	    strstr(err.msg, "its data is read from the memory, not mapped") !=
	    NULL, "no pointer into data that is not mapped: %s", err.msg);

	/* A short read, then a change: each its one line. */
	gguf_source_mem_fail(s, GGUF_SRC_FAIL_SHORT, gguf_layout(b)->data_off +
	    t->offset + 10);
	ok(gguf_dequant_rows_f64(b, t, 0, 1, 0, 4, v, &err) == -1 &&
	    strncmp(err.msg, "read 10 bytes of ", 17) == 0 &&
	    strstr(err.msg, ": the memory ends early (changed in memory?)") !=
	    NULL && err.has_off,
	    "a short read fails with its message: %s", err.msg);
	gguf_source_mem_fail(s, GGUF_SRC_FAIL_CHANGED, 0);
	ok(gguf_dequant_rows_f64(b, t, 0, 1, 0, 4, v, &err) == -1 &&
	    strcmp(err.msg, "changed in memory: written to since it was "
	    "opened") == 0, "a changed source fails with its message: %s",
	    err.msg);
	ok(gguf_file_changed(b, 0, &err) == 1, "and says it changed");
	gguf_close(b);
	gguf_close(a);
	data_checks(mem, n);
	free(mem);

	/* A header of 4 MB: more than the first read. */
	if (shared == NULL) {
		skip("no SHARED_DIR");
		return tap_done();
	}
	snprintf(path, sizeof path, "%s/fixtures/real/"
	    "ggml-vocab-deepseek-llm.gguf", shared);
	if ((mem = slurp(path, &n)) == NULL ||
	    (a = gguf_open(path, &err)) == NULL) {
		skip("cannot read %s", path);
		return tap_done();
	}
	s = gguf_source_mem(mem, n, path, GGUF_SRC_MEM_NOMAP);
	b = gguf_open_source(s, &err);
	ok(b != NULL, "a 4 MB header opens: %s", err.msg);
	if (b != NULL) {
		same_header(a, b, "a 4 MB header");
		gguf_source_mem_count(s, &reads, &bytes);
		ok(reads >= 2 && reads <= 3 &&
		    bytes <= gguf_layout(b)->data_off + (2u << 20),
		    "read in %llu reads of %llu bytes (header %llu)",
		    (unsigned long long)reads, (unsigned long long)bytes,
		    (unsigned long long)gguf_layout(b)->data_off);
		gguf_close(b);
	}
	gguf_close(a);
	free(mem);
	return tap_done();
}
