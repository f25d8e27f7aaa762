/*
 * test_dequant.c - the dequantizer against ggml's own values.
 *
 * Every tensor of every fixture file listed in fixtures/ggml/expected.tsv
 * with expected values is decoded whole and compared with ggml's float32
 * values bit for bit (a NaN only has to be a NaN). Then, for every tensor,
 * random row/column windows and random element ranges (starting and ending
 * inside blocks) must equal the same slice of the whole decode. Q8_1, which
 * ggml cannot convert, is checked against its layout on hand-built blocks
 * and on the fixture's blocks. Big-endian plain data, refused types and
 * out-of-range requests are checked on hand-built buffers, and the block
 * view against the decoded values.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gguf.h"
#include "dequant.h"
#include "tap.h"

#define FIXDIR	"fixtures/ggml"


static uint32_t
fbits(float f)
{
	uint32_t	u;

	memcpy(&u, &f, sizeof u);
	return u;
}

/* Equal bits, or both NaN. */
static int
same(float a, float b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) && isnan(b);
	return fbits(a) == fbits(b);
}

/* Index of the first difference of two float arrays, or -1. */
static int64_t
first_diff(const float *a, const float *b, uint64_t n)
{
	uint64_t	i;

	for (i = 0; i < n; i++) {
		if (!same(a[i], b[i]))
			return (int64_t)i;
	}
	return -1;
}

static void *
slurp(const char *path, size_t *len)
{
	FILE	*fp;
	char	*buf;
	long	 n;

	if ((fp = fopen(path, "rb")) == NULL)
		return NULL;
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	fseek(fp, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	if (buf == NULL || fread(buf, 1, (size_t)n, fp) != (size_t)n) {
		free(buf);
		fclose(fp);
		return NULL;
	}
	fclose(fp);
	*len = (size_t)n;
	return buf;
}

/* Reference half to float, independent of the code under test. */
static float
ref_h2f(uint16_t h)
{
	int	e = (h >> 10) & 31, m = h & 1023;
	float	v;

	if (e == 0)
		v = ldexpf((float)m, -24);
	else if (e == 31)
		v = m ? NAN : INFINITY;
	else
		v = ldexpf((float)(m + 1024), e - 25);
	return (h & 0x8000) ? -v : v;
}

/* --------------------------------------------------- fixture comparisons */

struct fix {
	char		 file[64];
	char		 tensor[128];
	char		 type[16];
	char		 f32[256];
	char		 source[64];
};

/* Copies a field that must fit; -1 if it does not. */
static int
copy_field(char *dst, size_t size, const char *src)
{
	size_t	n = strlen(src);

	if (n >= size)
		return -1;
	memcpy(dst, src, n + 1);
	return 0;
}

static int
parse_line(char *line, struct fix *fx)
{
	char	*field[12];
	int	 n = 0;
	char	*p = line, *tab;

	while (n < 12) {
		field[n++] = p;
		tab = strchr(p, '\t');
		if (tab == NULL)
			break;
		*tab = '\0';
		p = tab + 1;
	}
	if (n != 12)
		return -1;
	field[11][strcspn(field[11], "\r\n")] = '\0';
	if (copy_field(fx->file, sizeof fx->file, field[0]) != 0 ||
	    copy_field(fx->tensor, sizeof fx->tensor, field[1]) != 0 ||
	    copy_field(fx->type, sizeof fx->type, field[2]) != 0 ||
	    copy_field(fx->f32, sizeof fx->f32, field[10]) != 0 ||
	    copy_field(fx->source, sizeof fx->source, field[11]) != 0)
		return -1;
	return 0;
}

/* Random windows and element ranges must equal slices of the full decode. */
static void
check_windows(struct gguf_file *f, const struct gguf_tensor *t,
    const float *full, const char *what)
{
	const uint8_t	*data;
	struct gguf_err	 err;
	uint64_t	 nrows = gguf_tensor_nrows(t), ne0 = t->ne[0];
	uint64_t	 r0, nr, c0, nc, first, n, r, i;
	float		*win;
	int		 k, bad = 0;

	if (nrows == 0)
		return;
	win = malloc((size_t)t->nelem * sizeof *win + 4);
	for (k = 0; k < 40 && !bad; k++) {
		r0 = tap_rand(nrows);
		nr = 1 + tap_rand(nrows - r0);
		c0 = tap_rand(ne0);
		nc = 1 + tap_rand(ne0 - c0);
		if (gguf_dequant_rows(f, t, r0, nr, c0, nc, win, &err) != 0) {
			bad = 1;
			diag("%s rows %llu+%llu: %s", what,
			    (unsigned long long)r0, (unsigned long long)nr,
			    err.msg);
			break;
		}
		for (r = 0; r < nr && !bad; r++) {
			for (i = 0; i < nc; i++) {
				if (!same(win[r * nc + i],
				    full[(r0 + r) * ne0 + c0 + i])) {
					bad = 1;
					diag("%s window rows %llu+%llu cols "
					    "%llu+%llu differs", what,
					    (unsigned long long)r0,
					    (unsigned long long)nr,
					    (unsigned long long)c0,
					    (unsigned long long)nc);
					break;
				}
			}
		}
	}
	data = gguf_tensor_data(f, t, &err);
	for (k = 0; k < 40 && !bad && data != NULL; k++) {
		first = tap_rand(t->nelem);
		n = 1 + tap_rand(t->nelem - first);
		if (gguf_dequant(t->type, 0, data, t->nbytes, first, n, win,
		    &err) != 0 || first_diff(win, full + first, n) >= 0) {
			bad = 1;
			diag("%s elements %llu+%llu differ", what,
			    (unsigned long long)first, (unsigned long long)n);
		}
	}
	ok(!bad && data != NULL, "%s: random windows equal the full decode",
	    what);
	free(win);
}

/*
 * Index of the first difference of the bits of two float arrays decoded
 * from type, or -1. Q4_1 and Q5_1 add two scales (q * d + m) that may
 * both be NaN; which NaN a sum of two NaNs gives depends on the order the
 * compiler put the operands in, which C leaves to it, so there both being
 * NaN is enough. Everywhere else a NaN has one source and its bits must
 * match.
 */
static int64_t
first_bits_diff(uint32_t type, const float *a, const float *b, uint64_t n)
{
	int		two_nans = type == GGUF_T_Q4_1 || type == GGUF_T_Q5_1;
	uint64_t	i;

	for (i = 0; i < n; i++) {
		if (fbits(a[i]) != fbits(b[i]) && !(two_nans &&
		    isnan(a[i]) && isnan(b[i])))
			return (int64_t)i;
	}
	return -1;
}

/*
 * The decoders gguf_dequant picks (vector ones where the CPU has them)
 * against the portable reference: the same bits, NaNs included.
 */
static void
check_ref(struct gguf_file *f, const struct gguf_tensor *t, const float *got,
    const char *what)
{
	struct gguf_err	 err;
	const uint8_t	*data = gguf_tensor_data(f, t, &err);
	float		*ref = malloc((size_t)t->nelem * sizeof *ref + 4);
	int64_t		 d = -1;
	int		 rc;

	rc = data != NULL ? gguf_dequant_ref(t->type, gguf_layout(f)->be,
	    data, t->nbytes, 0, t->nelem, ref, &err) : -1;
	if (rc == 0)
		d = first_bits_diff(t->type, got, ref, t->nelem);
	if (!ok(rc == 0 && d < 0, "%s: %s decoder equals the portable one "
	    "bit for bit", what, gguf_dequant_isa(t->type)) && d >= 0)
		diag("element %lld: 0x%08x, portable 0x%08x", (long long)d,
		    fbits(got[d]), fbits(ref[d]));
	free(ref);
}

static void
check_fixture(const char *dir, struct fix *fx, struct gguf_file *f)
{
	const struct gguf_tensor	*t;
	struct gguf_err			 err;
	char				 path[1024], what[256];
	float				*got, *want;
	double				*wide;
	int64_t				 ti, d, i;
	size_t				 len;
	int				 wide_ok = 1;

	snprintf(what, sizeof what, "%s %s (%s)", fx->file, fx->tensor,
	    fx->type);
	ti = gguf_tensor_find(f, fx->tensor, strlen(fx->tensor));
	if (!ok(ti >= 0, "%s: tensor found", what))
		return;
	t = gguf_tensor_at(f, (uint64_t)ti);
	snprintf(path, sizeof path, "%s/%s", dir, fx->f32);
	want = slurp(path, &len);
	if (!ok(want != NULL && len == t->nelem * 4, "%s: expected values "
	    "read (%zu bytes)", what, want != NULL ? len : 0)) {
		free(want);
		return;
	}
	got = malloc((size_t)t->nelem * sizeof *got + 4);
	wide = malloc((size_t)t->nelem * sizeof *wide + 8);
	if (!ok(gguf_dequant_rows(f, t, 0, gguf_tensor_nrows(t), 0, t->ne[0],
	    got, &err) == 0, "%s: decodes", what)) {
		diag("%s", err.msg);
		goto out;
	}
	d = first_diff(got, want, t->nelem);
	if (!ok(d < 0, "%s: equals ggml's %s values bit for bit", what,
	    fx->source))
		diag("element %lld: got %.9g (0x%08x), want %.9g (0x%08x)",
		    (long long)d, got[d], fbits(got[d]), want[d],
		    fbits(want[d]));
	/* the double variant: exact, so it rounds to the same floats */
	if (gguf_dequant_rows_f64(f, t, 0, gguf_tensor_nrows(t), 0, t->ne[0],
	    wide, &err) != 0)
		wide_ok = 0;
	for (i = 0; wide_ok && i < (int64_t)t->nelem; i++) {
		if (t->type == GGUF_T_I64)
			break;	/* double rounding; checked as integers */
		if (!same((float)wide[i], want[i]))
			wide_ok = 0;
	}
	if (t->type == GGUF_T_I64 || t->type == GGUF_T_I32 ||
	    t->type == GGUF_T_I16 || t->type == GGUF_T_I8) {
		int64_t	*iv = malloc((size_t)t->nelem * 8 + 8);

		if (gguf_dequant_i64(t->type, 0, gguf_tensor_data(f, t, &err),
		    t->nbytes, 0, t->nelem, iv, &err) != 0)
			wide_ok = 0;
		for (i = 0; wide_ok && i < (int64_t)t->nelem; i++) {
			if (!same((float)iv[i], want[i]))
				wide_ok = 0;
		}
		free(iv);
	}
	ok(wide_ok, "%s: double%s variant agrees", what,
	    t->type == GGUF_T_I64 ? " and integer" : "");
	check_windows(f, t, got, what);
	check_ref(f, t, got, what);
out:
	free(got);
	free(wide);
	free(want);
}

static void
test_fixtures(const char *dir)
{
	struct gguf_file	*f = NULL;
	struct gguf_err		 err;
	struct fix		 fx;
	char			 path[1024], line[2048], open_name[64] = "";
	FILE			*fp;
	int			 n = 0;

	snprintf(path, sizeof path, "%s/expected.tsv", dir);
	fp = fopen(path, "r");
	if (!ok(fp != NULL, "expected.tsv opens"))
		return;
	if (fgets(line, sizeof line, fp) == NULL) {
		fclose(fp);
		return;
	}
	while (fgets(line, sizeof line, fp) != NULL) {
		if (parse_line(line, &fx) != 0 || strcmp(fx.f32, "-") == 0)
			continue;
		if (strcmp(open_name, fx.file) != 0) {
			if (f != NULL)
				gguf_close(f);
			snprintf(path, sizeof path, "%s/%s", dir, fx.file);
			f = gguf_open(path, &err);
			if (!ok(f != NULL, "%s opens", fx.file)) {
				diag("%s", err.msg);
				continue;
			}
			snprintf(open_name, sizeof open_name, "%s", fx.file);
		}
		if (f != NULL)
			check_fixture(dir, &fx, f);
		n++;
	}
	fclose(fp);
	if (f != NULL)
		gguf_close(f);
	ok(n >= 60, "%d fixture tensors compared", n);
}

/* ------------------------------------------------------------------ Q8_1 */

static void
test_q8_1(const char *dir)
{
	uint8_t			 blk[2 * 36];
	float			 y[64];
	struct gguf_err		 err;
	struct gguf_file	*f;
	const struct gguf_tensor *t;
	const uint8_t		*data;
	float			*all;
	char			 path[1024];
	int64_t			 ti;
	uint64_t		 i, b;
	int			 j, bad = 0;

	/* block 0: d = 0.5 (0x3800), quants -16..15; block 1: d = -2 */
	memset(blk, 0, sizeof blk);
	blk[0] = 0x00;
	blk[1] = 0x38;
	blk[2] = 0x12;			/* s: anything, not used */
	blk[3] = 0x34;
	for (j = 0; j < 32; j++)
		blk[4 + j] = (uint8_t)(int8_t)(j - 16);
	blk[36] = 0x00;
	blk[37] = 0xc0;
	for (j = 0; j < 32; j++)
		blk[40 + j] = (uint8_t)(int8_t)(j * 4 - 128 + (j == 31 ? 3 : 0));
	ok(gguf_dequant(GGUF_T_Q8_1, 0, blk, sizeof blk, 0, 64, y, &err) == 0,
	    "Q8_1: hand-built blocks decode");
	for (j = 0; j < 32; j++) {
		if (!same(y[j], (float)(j - 16) * 0.5f) ||
		    !same(y[32 + j], (float)(int8_t)blk[40 + j] * -2.0f))
			bad = 1;
	}
	ok(!bad, "Q8_1: values are q * d (first %g, last %g)", y[0], y[63]);
	ok(gguf_dequant(GGUF_T_Q8_1, 0, blk, sizeof blk, 30, 5, y, &err) == 0 &&
	    same(y[0], 7.0f) && same(y[2], 256.0f) && same(y[4], 240.0f),
	    "Q8_1: a range across the block boundary");

	/* the fixture: every value must follow the layout */
	snprintf(path, sizeof path, "%s/internal-types.gguf", dir);
	f = gguf_open(path, &err);
	if (!ok(f != NULL, "internal-types.gguf opens"))
		return;
	ti = gguf_tensor_find(f, "t.Q8_1", 6);
	t = ti >= 0 ? gguf_tensor_at(f, (uint64_t)ti) : NULL;
	data = t != NULL ? gguf_tensor_data(f, t, &err) : NULL;
	if (ok(data != NULL, "t.Q8_1 found")) {
		all = malloc((size_t)t->nelem * sizeof *all);
		bad = gguf_dequant(t->type, 0, data, t->nbytes, 0, t->nelem,
		    all, &err) != 0;
		for (i = 0; !bad && i < t->nelem; i++) {
			b = i / 32;
			if (!same(all[i], (float)(int8_t)data[36 * b + 4 +
			    i % 32] * ref_h2f((uint16_t)(data[36 * b] |
			    data[36 * b + 1] << 8))))
				bad = 1;
		}
		ok(!bad, "t.Q8_1: all %llu values follow the layout",
		    (unsigned long long)t->nelem);
		check_windows(f, t, all, "internal-types.gguf t.Q8_1");
		free(all);
	}
	gguf_close(f);
}

/* ------------------------------------------------------------ big-endian */

static void
put_be(uint8_t *p, uint64_t v, int size)
{
	int	i;

	for (i = 0; i < size; i++)
		p[i] = (uint8_t)(v >> (8 * (size - 1 - i)));
}

static void
put_le(uint8_t *p, uint64_t v, int size)
{
	int	i;

	for (i = 0; i < size; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void
test_big_endian(void)
{
	static const struct {
		uint32_t	type;
		int		size;
		uint64_t	v[4];
	} cases[] = {
		{ GGUF_T_F16, 2, { 0x3c00, 0xc000, 0x0001, 0x7c00 } },
		{ GGUF_T_BF16, 2, { 0x3f80, 0xc040, 0x8000, 0x7f80 } },
		{ GGUF_T_F32, 4, { 0x3f800000, 0xc0490fdb, 0x00000001,
		    0xff800000 } },
		{ GGUF_T_F64, 8, { 0x3ff0000000000000ull,
		    0xc00921fb54442d18ull, 0x0000000000000001ull,
		    0x7ff0000000000000ull } },
		{ GGUF_T_I8, 1, { 0x7f, 0x80, 0xff, 0x01 } },
		{ GGUF_T_I16, 2, { 0x7fff, 0x8000, 0xffff, 0x1234 } },
		{ GGUF_T_I32, 4, { 0x7fffffff, 0x80000000, 0xffffffff,
		    0x12345678 } },
		{ GGUF_T_I64, 8, { 0x7fffffffffffffffull, 0x8000000000000000ull,
		    0xffffffffffffffffull, 0x0000001234567890ull } },
	};
	uint8_t		le[32], be[32];
	float		yl[4], yb[4];
	double		dl[4], db[4];
	int64_t		il[4], ib[4];
	struct gguf_err	err;
	char		buf[24];
	size_t		c;
	uint32_t	t;
	int		i, e, good, agree;

	for (c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		for (i = 0; i < 4; i++) {
			put_le(le + i * cases[c].size, cases[c].v[i],
			    cases[c].size);
			put_be(be + i * cases[c].size, cases[c].v[i],
			    cases[c].size);
		}
		good = gguf_dequant(cases[c].type, 0, le, 4 * cases[c].size,
		    0, 4, yl, &err) == 0 && gguf_dequant(cases[c].type, 1, be,
		    4 * cases[c].size, 0, 4, yb, &err) == 0 &&
		    first_diff(yl, yb, 4) < 0;
		good = good && gguf_dequant_f64(cases[c].type, 0, le,
		    4 * cases[c].size, 0, 4, dl, &err) == 0 &&
		    gguf_dequant_f64(cases[c].type, 1, be, 4 * cases[c].size,
		    0, 4, db, &err) == 0 && memcmp(dl, db, sizeof dl) == 0;
		if (cases[c].type >= GGUF_T_I8 && cases[c].type <= GGUF_T_I64)
			good = good && gguf_dequant_i64(cases[c].type, 0, le,
			    4 * cases[c].size, 0, 4, il, &err) == 0 &&
			    gguf_dequant_i64(cases[c].type, 1, be,
			    4 * cases[c].size, 0, 4, ib, &err) == 0 &&
			    memcmp(il, ib, sizeof il) == 0;
		ok(good, "%s: big-endian data decodes like little-endian",
		    gguf_ttype_name(cases[c].type, buf));
	}
	/* known values */
	put_be(be, 0x3c00, 2);
	put_be(be + 2, 0x0001, 2);
	gguf_dequant(GGUF_T_F16, 1, be, 4, 0, 2, yb, &err);
	ok(same(yb[0], 1.0f) && same(yb[1], 0x1p-24f),
	    "big-endian F16 1.0 and the smallest subnormal");
	put_be(be, 0xfffffffffffffffeull, 8);
	gguf_dequant_i64(GGUF_T_I64, 1, be, 8, 0, 1, ib, &err);
	ok(ib[0] == -2, "big-endian I64 -2");
	put_be(be, 0x400921fb54442d18ull, 8);
	gguf_dequant_f64(GGUF_T_F64, 1, be, 8, 0, 1, db, &err);
	ok(db[0] > 3.14159265358979 && db[0] < 3.1415926535897936,
	    "big-endian F64 pi as a double, not rounded to float");

	memset(be, 0, sizeof be);
	ok(gguf_dequant(GGUF_T_Q8_0, 1, be, 34, 0, 32, yb, &err) == -1 &&
	    strstr(err.msg, "big-endian") != NULL,
	    "quantized data in a big-endian file is refused: %s", err.msg);
	ok(gguf_dequant_check(GGUF_T_Q4_K, 1, &err) == -1 &&
	    gguf_dequant_check(GGUF_T_Q4_K, 0, &err) == 0 &&
	    gguf_dequant_check(GGUF_T_F16, 1, &err) == 0,
	    "gguf_dequant_check: Q4_K little-endian only, F16 both");
	for (t = 0, agree = 1; t < GGUF_T_COUNT + 2; t++) {
		for (e = 0; e < 2; e++) {
			if ((gguf_dequant_check(t, e, &err) == 0) !=
			    (gguf_ttype_decodable(t, e, &err) == 0)) {
				diag("type %u be %d: the decoders and the "
				    "type table disagree", t, e);
				agree = 0;
			}
		}
	}
	ok(agree, "every type the type table calls decodable has its "
	    "decoders, and no other");
}

/*
 * A whole big-endian GGUF file in memory, read through the reader and
 * gguf_dequant_rows: an F16 matrix and a Q8_0 tensor (refused).
 */
static size_t
be_file(uint8_t *p)
{
	size_t		n = 0;

	memcpy(p, "GGUF", 4);
	put_be(p + 4, 3, 4);
	put_be(p + 8, 2, 8);		/* tensors */
	put_be(p + 16, 0, 8);		/* kv */
	n = 24;
	put_be(p + n, 1, 8);
	p[n + 8] = 'h';
	n += 9;
	put_be(p + n, 2, 4);
	put_be(p + n + 4, 4, 8);
	put_be(p + n + 12, 2, 8);
	put_be(p + n + 20, GGUF_T_F16, 4);
	put_be(p + n + 24, 0, 8);
	n += 32;
	put_be(p + n, 1, 8);
	p[n + 8] = 'q';
	n += 9;
	put_be(p + n, 1, 4);
	put_be(p + n + 4, 32, 8);
	put_be(p + n + 12, GGUF_T_Q8_0, 4);
	put_be(p + n + 16, 32, 8);
	n += 24;
	while (n % 32 != 0)
		p[n++] = 0;
	put_be(p + n + 0, 0x3c00, 2);	/* 1 */
	put_be(p + n + 2, 0x4000, 2);	/* 2 */
	put_be(p + n + 4, 0x4200, 2);	/* 3 */
	put_be(p + n + 6, 0x4400, 2);	/* 4 */
	put_be(p + n + 8, 0xc500, 2);	/* -5 */
	put_be(p + n + 10, 0x4600, 2);	/* 6 */
	put_be(p + n + 12, 0x4700, 2);	/* 7 */
	put_be(p + n + 14, 0x4800, 2);	/* 8 */
	n += 32;
	memset(p + n, 0, 34);
	n += 34;
	while (n % 32 != 0)
		p[n++] = 0;
	return n;
}

static void
test_big_endian_file(void)
{
	uint8_t			 buf[512];
	size_t			 len;
	struct gguf_file	*f;
	struct gguf_err		 err;
	const struct gguf_tensor *t;
	float			 y[8];

	memset(buf, 0, sizeof buf);
	len = be_file(buf);
	f = gguf_open_buffer(buf, len, &err);
	if (!ok(f != NULL && gguf_layout(f)->be, "hand-built big-endian "
	    "file opens")) {
		if (f == NULL)
			diag("%s", err.msg);
		return;
	}
	t = gguf_tensor_at(f, 0);
	ok(gguf_dequant_rows(f, t, 1, 1, 0, 3, y, &err) == 0 &&
	    same(y[0], -5.0f) && same(y[1], 6.0f) && same(y[2], 7.0f),
	    "big-endian F16 window row 1 cols 0:3 = -5 6 7");
	t = gguf_tensor_at(f, 1);
	ok(gguf_dequant_rows(f, t, 0, 1, 0, 32, y, &err) == -1,
	    "big-endian Q8_0 tensor refused: %s", err.msg);
	gguf_close(f);
}

/* ----------------------------------------------------- errors and ranges */

static void
test_errors(void)
{
	uint8_t		data[64];
	float		y[64];
	struct gguf_err	err;

	memset(data, 0, sizeof data);
	ok(gguf_dequant(4, 0, data, 64, 0, 1, y, &err) == -1 &&
	    strstr(err.msg, "removed") != NULL && strstr(err.msg, "Q4_2"),
	    "removed type 4: %s", err.msg);
	ok(gguf_dequant(36, 0, data, 64, 0, 1, y, &err) == -1 &&
	    strstr(err.msg, "removed") != NULL,
	    "removed type 36: %s", err.msg);
	ok(gguf_dequant(43, 0, data, 64, 0, 1, y, &err) == -1 &&
	    strstr(err.msg, "unknown") != NULL && strstr(err.msg, "43"),
	    "unknown type 43: %s", err.msg);
	ok(gguf_dequant(0xffffffffu, 0, data, 64, 0, 1, y, &err) == -1,
	    "unknown type 0xffffffff: %s", err.msg);
	ok(gguf_dequant(GGUF_T_F32, 0, data, 64, 10, 7, y, &err) == -1 &&
	    strstr(err.msg, "outside") != NULL,
	    "range past the end: %s", err.msg);
	ok(gguf_dequant(GGUF_T_F32, 0, data, 64, 16, 0, y, &err) == 0,
	    "empty range at the end");
	ok(gguf_dequant(GGUF_T_Q8_0, 0, data, 33, 0, 1, y, &err) == -1,
	    "partial block holds no elements");
	ok(gguf_dequant(GGUF_T_F32, 0, data, 64, UINT64_MAX, 2, y, &err) == -1,
	    "range overflowing 64 bits");
}

static void
test_windows_errors(const char *dir)
{
	struct gguf_file	*f;
	struct gguf_err		 err;
	const struct gguf_tensor *t;
	float			 y[8];
	char			 path[1024];
	int64_t			 ti;

	snprintf(path, sizeof path, "%s/types.gguf", dir);
	f = gguf_open(path, &err);
	if (!ok(f != NULL, "types.gguf opens"))
		return;
	ti = gguf_tensor_find(f, "t.Q4_K", 6);
	t = gguf_tensor_at(f, (uint64_t)ti);
	ok(gguf_dequant_rows(f, t, 3, 2, 0, 1, y, &err) == -1 &&
	    strstr(err.msg, "valid 0:4") != NULL, "rows 3:5: %s", err.msg);
	ok(gguf_dequant_rows(f, t, 0, 1, 510, 3, y, &err) == -1 &&
	    strstr(err.msg, "valid 0:512") != NULL, "cols 510:513: %s",
	    err.msg);
	ok(gguf_dequant_rows(f, t, 4, 0, 0, 0, y, &err) == 0,
	    "an empty window at the end");
	is_u64(gguf_tensor_nrows(t), 4, "t.Q4_K has 4 rows");
	gguf_close(f);
}

/* ------------------------------------------------------------ block view */

static double
field(const struct gguf_blockview *bv, const char *name, uint32_t i)
{
	uint32_t	k;

	for (k = 0; k < bv->nfield; k++) {
		if (strcmp(bv->f[k].name, name) == 0 && i < bv->f[k].n)
			return bv->v[bv->f[k].off + i];
	}
	return NAN;
}

static void
test_block_view(const char *dir)
{
	static const char *names[] = {
		"t.Q4_0", "t.Q4_1", "t.Q5_0", "t.Q5_1", "t.Q8_0", "t.Q2_K",
		"t.Q3_K", "t.Q4_K", "t.Q5_K", "t.Q6_K", "t.IQ4_NL", "t.IQ4_XS",
		"t.TQ1_0", "t.TQ2_0", "t.MXFP4", "t.NVFP4", "t.Q1_0", "t.Q2_0",
		"t.IQ2_XXS", "t.IQ2_XS", "t.IQ2_S", "t.IQ3_XXS", "t.IQ3_S",
		"t.IQ1_S", "t.IQ1_M",
	};
	struct gguf_blockview	 bv;
	struct gguf_file	*f;
	struct gguf_err		 err;
	const struct gguf_tensor *t;
	const struct gguf_type_info *ti;
	const uint8_t		*data;
	float			 y[256];
	char			 path[1024];
	double			 d, v, sc, dm, mn, tol;
	uint64_t		 b;
	uint32_t		 j, blk;
	size_t			 k;
	int			 bad;

	snprintf(path, sizeof path, "%s/types.gguf", dir);
	f = gguf_open(path, &err);
	if (f == NULL)
		return;
	for (k = 0; k < sizeof names / sizeof names[0]; k++) {
		t = gguf_tensor_at(f, (uint64_t)gguf_tensor_find(f, names[k],
		    strlen(names[k])));
		ti = gguf_ttype(t->type);
		data = gguf_tensor_data(f, t, &err);
		bad = 0;
		for (b = 0; b < t->nbytes / ti->bytes && !bad; b++) {
			blk = ti->blck;
			if (gguf_dequant_block_view(t->type, 0, data,
			    t->nbytes, b, &bv, &err) != 0 ||
			    gguf_dequant(t->type, 0, data, t->nbytes,
			    b * blk, blk, y, &err) != 0) {
				bad = 1;
				break;
			}
			d = field(&bv, "d", 0);
			for (j = 0; j < blk && !bad; j++) {
				v = field(&bv, "q", j);
				/* the value the fields stand for */
				switch (t->type) {
				case GGUF_T_Q4_1:
				case GGUF_T_Q5_1:
					v = v * d + field(&bv, "m", 0);
					break;
				case GGUF_T_Q2_K:
					sc = field(&bv, "scales", j / 16);
					mn = field(&bv, "mins", j / 16);
					dm = field(&bv, "dmin", 0);
					v = d * sc * v - dm * mn;
					break;
				case GGUF_T_Q4_K:
				case GGUF_T_Q5_K:
					sc = field(&bv, "scales", j / 32);
					mn = field(&bv, "mins", j / 32);
					dm = field(&bv, "dmin", 0);
					v = d * sc * v - dm * mn;
					break;
				case GGUF_T_Q3_K:
				case GGUF_T_Q6_K:
					v = d * field(&bv, "scales", j / 16) * v;
					break;
				case GGUF_T_IQ4_XS:
					v = d * field(&bv, "scales", j / 32) * v;
					break;
				case GGUF_T_MXFP4:
					v = v * field(&bv, "d", 0);
					break;
				case GGUF_T_NVFP4:
					v = v * field(&bv, "d", j / 16);
					break;
				case GGUF_T_IQ2_XXS:
					v = d * (field(&bv, "scales", j / 32) +
					    0.5) * 0.25 * v;
					break;
				case GGUF_T_IQ2_XS:
				case GGUF_T_IQ2_S:
					v = d * (field(&bv, "scales", j / 16) +
					    0.5) * 0.25 * v;
					break;
				case GGUF_T_IQ3_XXS:
					v = d * (field(&bv, "scales", j / 32) +
					    0.5) * 0.5 * v;
					break;
				case GGUF_T_IQ3_S:
					v = d * (1 + 2 * field(&bv, "scales",
					    j / 32)) * v;
					break;
				case GGUF_T_IQ1_S:
					v = d * (2 * field(&bv, "scales",
					    j / 32) + 1) * (v + field(&bv,
					    "delta", j / 32));
					break;
				case GGUF_T_IQ1_M:
					v = d * (2 * field(&bv, "scales",
					    j / 16) + 1) * (v + field(&bv,
					    "delta", j / 8));
					break;
				default:
					v = v * d;
					break;
				}
				tol = 1e-5 * fabs(y[j]) + 1e-6 * fabs(d);
				if (!(fabs(v - y[j]) <= tol)) {
					bad = 1;
					diag("%s block %llu element %u: "
					    "fields give %.9g, decode %.9g",
					    names[k], (unsigned long long)b,
					    j, v, y[j]);
				}
			}
		}
		ok(!bad, "%s: the block view accounts for every value",
		    names[k]);
	}
	ok(gguf_dequant_block_view(GGUF_T_F16, 0, data, 64, 0, &bv,
	    &err) == -1, "no block view of F16: %s", err.msg);
	gguf_close(f);
}

/* --------------------------------------------- vector against portable */

/*
 * Random blocks of every decodable type, through gguf_dequant (the vector
 * decoder where there is one) and gguf_dequant_ref, whole and in random
 * ranges: the same bits. Random bytes give NaN and infinite half scales
 * now and then; F16 data also gets NaNs (quiet and signalling),
 * infinities, zeros and subnormals planted among the random halves.
 */
#define VBLOCKS	67	/* not a multiple of any vector width */

static void
test_vec_random(void)
{
	static const uint16_t	special[] = { 0x7c01, 0xfc01, 0x7dff, 0x7e00,
				    0xfe00, 0x7fff, 0x7c00, 0xfc00, 0x0000,
				    0x8000, 0x0001, 0x83ff, 0x0400, 0x7bff };
	const struct gguf_type_info	*ti;
	struct gguf_err			 err;
	uint8_t				*data;
	float				*a, *b;
	uint64_t			 nbytes, nelem, first, n, i;
	uint32_t			 t;
	int				 round, bad, nvec = 0, k;
	int64_t				 d;

	data = malloc(VBLOCKS * 292 + 64);
	a = malloc(VBLOCKS * 256 * sizeof *a);
	b = malloc(VBLOCKS * 256 * sizeof *b);
	for (t = 0; t < GGUF_T_COUNT; t++) {
		if (gguf_dequant_check(t, 0, &err) != 0)
			continue;
		ti = gguf_ttype(t);
		nbytes = (uint64_t)VBLOCKS * ti->bytes;
		nelem = (uint64_t)VBLOCKS * ti->blck;
		nvec += strcmp(gguf_dequant_isa(t), "portable") != 0;
		bad = 0;
		for (round = 0; round < 40 && !bad; round++) {
			for (i = 0; i < nbytes; i++)
				data[i] = (uint8_t)tap_rand(256);
			if (t == GGUF_T_F16 && round % 2 == 1) {
				for (k = 0; k < 24; k++) {
					i = tap_rand(nelem);
					data[2 * i] = (uint8_t)special[k %
					    (sizeof special / sizeof *special)];
					data[2 * i + 1] = (uint8_t)(special[k %
					    (sizeof special / sizeof *special)]
					    >> 8);
				}
			}
			first = tap_rand(nelem);
			n = tap_rand(nelem - first + 1);
			if (round == 0) {
				first = 0;
				n = nelem;
			}
			memset(a, 0, nelem * sizeof *a);
			memset(b, 0xff, nelem * sizeof *b);
			if (gguf_dequant(t, 0, data, nbytes, first, n, a,
			    &err) != 0 || gguf_dequant_ref(t, 0, data, nbytes,
			    first, n, b, &err) != 0) {
				diag("%s: %s", ti->name, err.msg);
				bad = 1;
				break;
			}
			d = first_bits_diff(t, a, b, n);
			if (d >= 0) {
				diag("%s, round %d, element %llu: 0x%08x, "
				    "portable 0x%08x", ti->name, round,
				    (unsigned long long)(first + (uint64_t)d),
				    fbits(a[d]), fbits(b[d]));
				bad = 1;
			}
		}
		ok(!bad, "%s: %s decoder equals the portable one on random "
		    "blocks", ti->name, gguf_dequant_isa(t));
	}
	diag("%d types have a vector decoder on this CPU", nvec);
	free(data);
	free(a);
	free(b);
}

int
main(void)
{
	char	dir[512];

	tap_seed(0x9e3779b97f4a7c15ull);
	test_errors();
	test_big_endian();
	test_big_endian_file();
	test_vec_random();
	if (shared_path(FIXDIR, dir, sizeof dir) == NULL) {
		skip("comparisons with the ggml fixtures: no shared " FIXDIR);
		return tap_done();
	}
	test_fixtures(dir);
	test_q8_1(dir);
	test_windows_errors(dir);
	test_block_view(dir);
	return tap_done();
}
