/*
 * test_scan.c - the scanners against the full decode.
 *
 * The reference, gguf_scan_ref, decodes every value with gguf_dequant and
 * tests its bits; gguf_scan decodes only the blocks whose scales may make
 * a non-finite value. Both must agree on every count, on the first
 * non-finite element, on the invalid block scales and on "a value is not
 * zero", for every tensor of every ggml fixture file (whole and cut into
 * pieces at random block boundaries), for random blocks of every
 * quantized type (random bytes make a NaN or infinite half scale one time
 * in 32) and for blocks with NaN, infinite and overflowing scales planted
 * at random places. For the half-scaled types, a block has a non-finite
 * value exactly when its scale is invalid, and then every value is
 * non-finite: the mapping scan.h promises.
 */
#include "config.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gguf.h"
#include "dequant.h"
#include "scan.h"
#include "tap.h"

#define FIXDIR	"fixtures/ggml"

static int
same_scan(const struct gguf_scan *a, const struct gguf_scan *b)
{
	return a->count == b->count && a->nnan == b->nnan &&
	    a->npinf == b->npinf && a->nninf == b->nninf &&
	    a->first_bad == b->first_bad && a->nbadscale == b->nbadscale &&
	    a->first_badscale == b->first_badscale &&
	    a->nonzero == b->nonzero;
}

static void
show(const char *what, const struct gguf_scan *s)
{
	diag("%s: count %llu nan %llu +inf %llu -inf %llu first %lld "
	    "badscale %llu first %lld nonzero %d", what,
	    (unsigned long long)s->count, (unsigned long long)s->nnan,
	    (unsigned long long)s->npinf, (unsigned long long)s->nninf,
	    (long long)s->first_bad, (unsigned long long)s->nbadscale,
	    (long long)s->first_badscale, s->nonzero);
}

/*
 * Scans nbytes at p of type whole, in random pieces, and with the
 * reference; 1 if all three agree (and the reference succeeded).
 */
static int
agree(uint32_t type, int be, const uint8_t *p, uint64_t nbytes,
    struct gguf_scan *out)
{
	const struct gguf_type_info	*ti = gguf_ttype(type);
	struct gguf_scan		 ref, whole, cut, part;
	struct gguf_err			 err;
	uint64_t			 nb = nbytes / ti->bytes, b, k;

	gguf_scan_init(&ref);
	gguf_scan_init(&whole);
	gguf_scan_init(&cut);
	if (gguf_scan_ref(type, be, p, nbytes, 0, &ref, &err) != 0) {
		diag("reference: %s", err.msg);
		return 0;
	}
	if (gguf_scan(type, be, p, nbytes, 0, &whole, &err) != 0) {
		diag("scan: %s", err.msg);
		return 0;
	}
	/* Pieces, each into its own result, added in order. */
	for (b = 0; b < nb; b += k) {
		k = 1 + tap_rand(nb - b < 40 ? nb - b : 40);
		gguf_scan_init(&part);
		if (gguf_scan(type, be, p + b * ti->bytes, k * ti->bytes,
		    b * ti->blck, &part, &err) != 0) {
			diag("piece: %s", err.msg);
			return 0;
		}
		gguf_scan_add(&cut, &part);
	}
	if (out != NULL)
		*out = ref;
	if (same_scan(&ref, &whole) && same_scan(&ref, &cut))
		return 1;
	show("reference", &ref);
	show("scan", &whole);
	show("in pieces", &cut);
	return 0;
}

/* --------------------------------------------------------------- fixtures */

static void
test_fixture_file(const char *path, int *ntensors, int *nbad)
{
	struct gguf_file		*f;
	const struct gguf_tensor	*t;
	const uint8_t			*data;
	struct gguf_err			 err;
	struct gguf_scan		 s;
	uint64_t			 i;
	char				 tn[24];

	if ((f = gguf_open(path, &err)) == NULL)
		return;		/* the reader's own tests cover refusals */
	for (i = 0; i < gguf_layout(f)->n_tensors; i++) {
		t = gguf_tensor_at(f, i);
		if (t->nbytes == 0 || gguf_scan_check(t->type,
		    gguf_layout(f)->be, &err) != 0)
			continue;
		if ((data = gguf_tensor_data(f, t, &err)) == NULL)
			continue;
		if (!ok(agree(t->type, gguf_layout(f)->be, data, t->nbytes,
		    &s), "%s: %.*s (%s) scans as it decodes", strrchr(path,
		    '/') + 1, (int)t->name.n, t->name.p,
		    gguf_ttype_name(t->type, tn)))
			continue;
		(*ntensors)++;
		*nbad += s.nnan + s.npinf + s.nninf > 0;
	}
	gguf_close(f);
}

static void
test_fixtures(const char *dir)
{
	struct dirent	*de;
	DIR		*d;
	char		 path[1024];
	size_t		 n;
	int		 ntensors = 0, nbad = 0;

	if ((d = opendir(dir)) == NULL) {
		ok(0, "%s opens", dir);
		return;
	}
	while ((de = readdir(d)) != NULL) {
		n = strlen(de->d_name);
		if (n < 5 || strcmp(de->d_name + n - 5, ".gguf") != 0)
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
		test_fixture_file(path, &ntensors, &nbad);
	}
	closedir(d);
	ok(ntensors >= 60, "%d fixture tensors scanned", ntensors);
	ok(nbad >= 3, "%d of them hold NaN or infinities", nbad);
}

/* ------------------------------------------------------- random blocks */

static const uint16_t	bad_halves[] = {
	0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x7c01, 0xffff, 0x7fff
};

/* A random half: usually finite, sometimes NaN or infinite. */
static uint16_t
some_half(int planted)
{
	if (planted)
		return bad_halves[tap_rand(sizeof bad_halves / sizeof bad_halves[0])];
	return (uint16_t)(tap_rand(0x7c00) | (tap_rand(2) << 15));
}

static void
put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

/* The scale field offsets of each half-scaled type (-1: none). */
static int
half_at(uint32_t type, int k)
{
	switch (type) {
	case GGUF_T_Q4_1: case GGUF_T_Q5_1: case GGUF_T_Q4_K:
	case GGUF_T_Q5_K:
		return k < 2 ? 2 * k : -1;
	case GGUF_T_Q2_K:
		return k < 2 ? 80 + 2 * k : -1;
	case GGUF_T_Q3_K:
		return k == 0 ? 108 : -1;
	case GGUF_T_Q6_K:
		return k == 0 ? 208 : -1;
	case GGUF_T_TQ1_0:
		return k == 0 ? 52 : -1;
	case GGUF_T_TQ2_0:
		return k == 0 ? 64 : -1;
	case GGUF_T_Q4_0: case GGUF_T_Q5_0: case GGUF_T_Q8_0:
	case GGUF_T_Q8_1: case GGUF_T_IQ2_XXS: case GGUF_T_IQ2_XS:
	case GGUF_T_IQ3_XXS: case GGUF_T_IQ1_S: case GGUF_T_IQ4_NL:
	case GGUF_T_IQ3_S: case GGUF_T_IQ2_S: case GGUF_T_IQ4_XS:
	case GGUF_T_Q1_0: case GGUF_T_Q2_0:
		return k == 0 ? 0 : -1;
	default:
		return -1;
	}
}

/* IQ1_M: the half d spread over the top nibbles of 4 u16 at 48. */
static void
put_iq1m_d(uint8_t *blk, uint16_t d)
{
	int	k;

	for (k = 0; k < 4; k++)
		blk[48 + 2 * k + 1] = (uint8_t)((blk[48 + 2 * k + 1] & 0x0f) |
		    ((d >> (4 * k)) & 0xf) << 4);
}

/* Plants a scale in blk: bad (NaN or Inf), overflowing or finite. */
static void
plant(uint32_t type, uint8_t *blk, int bad)
{
	uint32_t	u;
	float		f;
	int		k, off, which;

	switch (type) {
	case GGUF_T_Q8_K:
		/* half the time huge: d * q overflows for large q */
		which = (int)tap_rand(3);
		if (bad)
			u = which == 0 ? 0x7f800000u : which == 1 ?
			    0xff800000u : 0x7fc00001u;
		else if (which == 0) {
			f = 0x1p120f * (1.0f + (float)tap_rand(3000) / 1000.0f);
			memcpy(&u, &f, sizeof u);
		} else
			u = (uint32_t)tap_rand(0x7f000000u);
		u |= (uint32_t)tap_rand(2) << 31;
		memcpy(blk, &u, 4);
		return;
	case GGUF_T_MXFP4:
		blk[0] = (uint8_t)(bad ? 255 : 248 + tap_rand(7));
		return;
	case GGUF_T_IQ1_M:
		put_iq1m_d(blk, some_half(bad));
		return;
	default:
		which = half_at(type, 1) >= 0 && tap_rand(2) ? 1 : 0;
		for (k = 0; (off = half_at(type, k)) >= 0; k++)
			put16(blk + off, some_half(bad && k == which));
		return;
	}
}

static int
half_scaled(uint32_t type)
{
	return half_at(type, 0) >= 0 || type == GGUF_T_IQ1_M;
}

/*
 * For the half-scaled types: a block has an invalid scale exactly when
 * its decode has a non-finite value, and then all its values are.
 */
static int
mapping_holds(uint32_t type, const uint8_t *p, uint64_t nb)
{
	const struct gguf_type_info	*ti = gguf_ttype(type);
	float				 y[GGUF_MAX_BLCK];
	struct gguf_err			 err;
	uint64_t			 b;
	uint32_t			 j, nf;
	int				 bad;

	for (b = 0; b < nb; b++, p += ti->bytes) {
		if (gguf_dequant(type, 0, p, ti->bytes, 0, ti->blck, y,
		    &err) != 0)
			return 0;
		for (j = nf = 0; j < ti->blck; j++)
			nf += !isfinite(y[j]);
		bad = gguf_scan_badscale(type, p);
		if ((bad && nf != ti->blck) || (!bad && nf != 0)) {
			diag("block %llu: invalid scale %d, %u non-finite "
			    "values of %u", (unsigned long long)b, bad, nf,
			    ti->blck);
			return 0;
		}
	}
	return 1;
}

static void
test_random_blocks(void)
{
	const struct gguf_type_info	*ti;
	struct gguf_scan		 s;
	uint8_t				*buf;
	uint64_t			 nb = 600, i, b;
	uint32_t			 type;
	int				 round, all_ok;
	char				 tn[24];

	buf = malloc(nb * 292);
	for (type = 0; type < GGUF_T_COUNT; type++) {
		ti = gguf_ttype(type);
		if (ti == NULL || ti->blck <= 1 ||
		    gguf_scan_check(type, 0, NULL) != 0)
			continue;
		all_ok = 1;
		for (round = 0; round < 4 && all_ok; round++) {
			for (i = 0; i < nb * ti->bytes; i++)
				buf[i] = (uint8_t)tap_rand(256);
			/* round 0: random bytes; then planted scales */
			for (b = 0; round > 0 && b < nb; b++)
				plant(type, buf + b * ti->bytes,
				    tap_rand(round == 3 ? 2 : 20) == 0);
			if (round == 3)	/* a long clean stretch, then one */
				for (b = 0; b < nb - 1; b++)
					plant(type, buf + b * ti->bytes, 0);
			all_ok = agree(type, 0, buf, nb * ti->bytes, &s);
			if (all_ok && half_scaled(type))
				all_ok = mapping_holds(type, buf, nb);
		}
		ok(all_ok, "%s: random and planted scales scan as they "
		    "decode", gguf_ttype_name(type, tn));
	}
	free(buf);
}

/* ------------------------------------------------------------ plain */

static void
test_plain(void)
{
	static const uint32_t	types[] = { GGUF_T_F32, GGUF_T_F16,
	    GGUF_T_BF16, GGUF_T_F64, GGUF_T_I8, GGUF_T_I32 };
	struct gguf_scan	s;
	uint8_t			buf[8 * 3000];
	uint64_t		n = 3000, i, w, k;
	size_t			t;
	int			be, all_ok;
	char			tn[24];

	for (t = 0; t < sizeof types / sizeof types[0]; t++) {
		w = gguf_ttype(types[t])->bytes;
		all_ok = 1;
		for (be = 0; be < 2 && all_ok; be++) {
			/* random values, mostly finite: exponents kept low */
			for (i = 0; i < n * w; i++)
				buf[i] = (uint8_t)tap_rand(256);
			for (i = 0; i < n; i++)
				buf[i * w + (be ? 0 : w - 1)] &= 0x3f;
			/* a few NaN and infinities, both signs */
			for (k = 0; k < 7; k++) {
				i = tap_rand(n);
				memset(buf + i * w, 0xff, w);
				buf[i * w + (be ? 0 : w - 1)] = tap_rand(2) ? 0x7f :
				    0xff;
				if (k % 2 == 0) {	/* infinity */
					memset(buf + i * w, 0, w);
					if (types[t] == GGUF_T_F16) {
						buf[i * w + (be ? 0 : 1)] = 0x7c;
					} else if (types[t] == GGUF_T_BF16) {
						buf[i * w + (be ? 0 : 1)] = 0x7f;
						buf[i * w + (be ? 1 : 0)] = 0x80;
					} else if (types[t] == GGUF_T_F32) {
						buf[i * w + (be ? 0 : 3)] = 0xff;
						buf[i * w + (be ? 1 : 2)] = 0x80;
					} else if (types[t] == GGUF_T_F64) {
						buf[i * w + (be ? 0 : 7)] = 0xff;
						buf[i * w + (be ? 1 : 6)] = 0xf0;
					}
				}
			}
			all_ok = agree(types[t], be, buf, n * w, &s);
			if (all_ok && types[t] != GGUF_T_I8 &&
			    types[t] != GGUF_T_I32)
				all_ok = s.nnan + s.npinf + s.nninf > 0;
		}
		ok(all_ok, "%s: planted NaN and Inf, both byte orders",
		    gguf_ttype_name(types[t], tn));
	}
}

/*
 * One non-finite value at each edge of the scanner's groups (4096 bytes)
 * among the largest finite magnitudes of both signs, which must not
 * count: found exactly there, counted once, its kind right.
 */
static void
test_plain_edges(void)
{
	static const struct {
		uint32_t	type;
		unsigned	w;
		uint64_t	maxfin, inf, nan;
	} pt[] = {
		{ GGUF_T_F16, 2, 0x7bffu, 0x7c00u, 0x7e01u },
		{ GGUF_T_BF16, 2, 0x7f7fu, 0x7f80u, 0x7fc1u },
		{ GGUF_T_F32, 4, 0x7f7fffffu, 0x7f800000u, 0x7fc00001u },
		{ GGUF_T_F64, 8, 0x7fefffffffffffffull, 0x7ff0000000000000ull,
		    0x7ff8000000000001ull },
	};
	static uint8_t		buf[3 * 4096 + 24];
	struct gguf_scan	s;
	struct gguf_err		err;
	uint64_t		n, at[6], i, v, sign;
	size_t			t, a, kind;
	unsigned		b;
	int			all_ok;
	char			tn[24];

	for (t = 0; t < sizeof pt / sizeof pt[0]; t++) {
		n = sizeof buf / pt[t].w;
		at[0] = 0;
		at[1] = 4096 / pt[t].w - 1;
		at[2] = 4096 / pt[t].w;
		at[3] = 2 * 4096 / pt[t].w - 1;
		at[4] = 3 * 4096 / pt[t].w;
		at[5] = n - 1;
		all_ok = 1;
		for (a = 0; a < 6 && all_ok; a++) {
			for (kind = 0; kind < 3 && all_ok; kind++) {
				sign = (uint64_t)1 << (8 * pt[t].w - 1);
				for (i = 0; i < n; i++) {
					v = pt[t].maxfin | (i % 2 ? sign : 0);
					if (i == at[a])
						v = kind == 0 ? pt[t].nan :
						    kind == 1 ? pt[t].inf :
						    pt[t].inf | sign;
					for (b = 0; b < pt[t].w; b++)
						buf[i * pt[t].w + b] =
						    (uint8_t)(v >> (8 * b));
				}
				gguf_scan_init(&s);
				memset(&err, 0, sizeof err);
				all_ok = gguf_scan(pt[t].type, 0, buf, n * pt[t].w,
				    0, &s, &err) == 0 && s.first_bad == at[a] &&
				    s.nnan == (kind == 0) && s.npinf == (kind == 1) &&
				    s.nninf == (kind == 2) && s.nonzero &&
				    s.count == n &&
				    agree(pt[t].type, 0, buf, n * pt[t].w, &s);
				if (!all_ok)
					diag("%s: element %llu, kind %zu",
					    gguf_ttype_name(pt[t].type, tn),
					    (unsigned long long)at[a], kind);
			}
		}
		ok(all_ok, "%s: NaN, +Inf, -Inf at each group edge among the "
		    "largest finite values", gguf_ttype_name(pt[t].type, tn));
	}
}

/* --------------------------------------------------------------- zeros */

static void
test_zeros(void)
{
	struct gguf_scan	s;
	struct gguf_err		err;
	uint8_t			buf[34 * 100];
	float			mz = -0.0f;
	uint64_t		b;

	memset(buf, 0, sizeof buf);
	ok(agree(GGUF_T_Q4_K, 0, buf, 144 * 20, &s) && !s.nonzero,
	    "Q4_K blocks of zero bytes: all zero");
	ok(agree(GGUF_T_MXFP4, 0, buf, 17 * 100, &s) && !s.nonzero,
	    "MXFP4 blocks of zero bytes: all zero");
	/* Q8_0 with d = 1 and quants 0: zero bytes are not needed */
	for (b = 0; b < 100; b++)
		put16(buf + 34 * b, 0x3c00);
	ok(agree(GGUF_T_Q8_0, 0, buf, sizeof buf, &s) && !s.nonzero,
	    "Q8_0 with scale 1 and zero quants: all zero");
	buf[34 * 99 + 33] = 1;
	ok(agree(GGUF_T_Q8_0, 0, buf, sizeof buf, &s) && s.nonzero,
	    "Q8_0: one quant of 1 in the last block is not zero");
	memset(buf, 0, sizeof buf);
	for (b = 0; b < 100; b++)
		memcpy(buf + 4 * b, &mz, 4);
	ok(agree(GGUF_T_F32, 0, buf, 400, &s) && !s.nonzero,
	    "F32 -0 is zero");
	buf[4 * 57] = 1;
	ok(agree(GGUF_T_F32, 0, buf, 400, &s) && s.nonzero,
	    "F32: one subnormal is not zero");

	gguf_scan_init(&s);
	memset(&err, 0, sizeof err);
	ok(gguf_scan(GGUF_T_Q4_K, 0, buf, 145, 0, &s, &err) == -1 &&
	    strstr(err.msg, "whole number") != NULL,
	    "a piece that is not whole blocks is refused: %s", err.msg);
	ok(gguf_scan(4, 0, buf, 18, 0, &s, &err) == -1,
	    "a removed type is refused: %s", err.msg);
	ok(gguf_scan(GGUF_T_Q4_0, 1, buf, 18, 0, &s, &err) == -1,
	    "quantized big-endian data is refused: %s", err.msg);
}

int
main(void)
{
	char	dir[512];

	test_plain();
	test_plain_edges();
	test_zeros();
	test_random_blocks();
	if (shared_path(FIXDIR, dir, sizeof dir) == NULL) {
		skip("the ggml fixtures: no shared " FIXDIR);
		return tap_done();
	}
	test_fixtures(dir);
	return tap_done();
}
