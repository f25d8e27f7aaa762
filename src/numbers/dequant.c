/*
 * dequant.c - one decoder per ggml tensor type, dispatched through one table
 * indexed by type id.
 *
 * Exactness. ggml's conversions are plain float32 arithmetic: a block scale
 * (an IEEE half, bfloat, E8M0 or UE4M3 byte) widened to float, then a few
 * multiplications and additions per element. Each decoder below performs
 * the same operations on the same operands in the same order, so with
 * IEEE float32 arithmetic and no contraction (the build passes
 * -ffp-contract=off and never -ffast-math) the results are the same bits.
 * Where the order matters it is written out: Q6_K is (d * scale) * q, Q2_K
 * is (dl * q) - ml, the i-quants multiply the magnitude before the sign.
 * Widening a half or a bfloat is exact, so any correct conversion will do.
 *
 * Layout. A decoder takes n whole blocks and writes n * blck floats. Range
 * decoding (gguf_dequant) decodes a partial first and last block into a
 * small buffer and the whole blocks in between straight into the output, so
 * it touches exactly the blocks that hold the range.
 *
 * Speed. Inner loops run over fixed counts, on restrict pointers, so that
 * the compiler turns them into vector code. What does not vectorise as
 * written is rearranged without changing the arithmetic: grids, sign
 * masks and 2-bit codes are looked up as floats and bit masks built once
 * (the sign is a flip of the sign bit, as multiplying by -1 is), fifth bits
 * are spread by table, the 4-bit codebooks are scaled once per block and
 * then looked up, and a half is widened without branches. Where the
 * toolchain allows, each decoder is also compiled for AVX2 (dequant_int.h),
 * and that version is picked at the first decoding where the CPU runs it.
 * For the most used types, dequant_x86.c has decoders written with AVX2
 * and F16C that give the same bits; they are picked at run time, and these
 * stay the reference (gguf_dequant_ref).
 *
 * Byte order. Plain types have big-endian decoders; quantized types do not
 * (their fields have no defined big-endian layout), and gguf_dequant_check
 * refuses them.
 */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "dequant_int.h"
#include "guard.h"

struct dq_type {
	dq_fn		*le;		/* n blocks of little-endian data */
	dq_fn		*be;		/* plain types: big-endian data */
	dq_fn		*le_avx2;	/* the same compiled for AVX2 */
	dq_fn		*be_avx2;
	dq64_fn		*le64;		/* plain types: straight to double */
	dq64_fn		*be64;
	bv_fn		*view;		/* quantized types: block fields */
};

/* ------------------------------------------------------ derived tables */

struct gguf_dq_tab	gguf_dq_tab __attribute__((aligned(32)));
pthread_once_t		gguf_dq_tab_once = PTHREAD_ONCE_INIT;

static void
grid8(float (*dst)[8], const uint64_t *src, int n, int is_signed)
{
	int	i, j;

	for (i = 0; i < n; i++) {
		for (j = 0; j < 8; j++) {
			if (is_signed)
				dst[i][j] = (float)(int8_t)(src[i] >> (8 * j));
			else
				dst[i][j] = (float)(src[i] >> (8 * j) & 0xff);
		}
	}
}

static void
grid4(float (*dst)[4], const uint32_t *src, int n)
{
	int	i, j;

	for (i = 0; i < n; i++) {
		for (j = 0; j < 4; j++)
			dst[i][j] = (float)(src[i] >> (8 * j) & 0xff);
	}
}

void
gguf_dq_tab_build(void)
{
	int	i, j;

	grid8(gguf_dq_tab.iq2xxs, gguf_iq2xxs_grid, 256, 0);
	grid8(gguf_dq_tab.iq2xs, gguf_iq2xs_grid, 512, 0);
	grid8(gguf_dq_tab.iq2s, gguf_iq2s_grid, 1024, 0);
	grid4(gguf_dq_tab.iq3xxs, gguf_iq3xxs_grid, 256);
	grid4(gguf_dq_tab.iq3s, gguf_iq3s_grid, 512);
	grid8(gguf_dq_tab.iq1s, gguf_iq1s_grid, 2048, 1);
	for (i = 0; i < 256; i++) {
		for (j = 0; j < 8; j++) {
			gguf_dq_tab.sign[i][j] = (uint32_t)(i >> j & 1) << 31;
			gguf_dq_tab.hi16[i][j] = (uint8_t)((i >> j & 1) << 4);
		}
		for (j = 0; j < 4; j++)
			gguf_dq_tab.q2_0[i][j] =
			    (float)((i >> (2 * j) & 3) - 1);
	}
}

const float *
gguf_dq_grid(uint32_t type)
{
	tables();
	switch (type) {
	case GGUF_T_IQ2_XXS:	return gguf_dq_tab.iq2xxs[0];
	case GGUF_T_IQ2_XS:	return gguf_dq_tab.iq2xs[0];
	case GGUF_T_IQ2_S:	return gguf_dq_tab.iq2s[0];
	case GGUF_T_IQ3_XXS:	return gguf_dq_tab.iq3xxs[0];
	case GGUF_T_IQ3_S:	return gguf_dq_tab.iq3s[0];
	case GGUF_T_IQ1_S:
	case GGUF_T_IQ1_M:	return gguf_dq_tab.iq1s[0];
	default:		return NULL;
	}
}

/* ------------------------------------------------------------ the table */

#define PLAIN_OPS(n)	{ gguf_dq_##n, gguf_dq_##n##_be,		\
			    DQ_AVX2(gguf_dq_##n), DQ_AVX2(gguf_dq_##n##_be), \
			    gguf_dq64_##n, gguf_dq64_##n##_be, NULL }
#define QUANT_OPS(n)	{ gguf_dq_##n, NULL, DQ_AVX2(gguf_dq_##n), NULL, \
			    NULL, NULL, gguf_bv_##n }

static const struct dq_type dq_types[GGUF_T_COUNT] = {
	[GGUF_T_F32] = PLAIN_OPS(f32),
	[GGUF_T_F16] = PLAIN_OPS(f16),
	[GGUF_T_BF16] = PLAIN_OPS(bf16),
	[GGUF_T_F64] = PLAIN_OPS(f64),
	[GGUF_T_I8] = PLAIN_OPS(i8),
	[GGUF_T_I16] = PLAIN_OPS(i16),
	[GGUF_T_I32] = PLAIN_OPS(i32),
	[GGUF_T_I64] = PLAIN_OPS(i64),
	[GGUF_T_Q4_0] = QUANT_OPS(q4_0),
	[GGUF_T_Q4_1] = QUANT_OPS(q4_1),
	[GGUF_T_Q5_0] = QUANT_OPS(q5_0),
	[GGUF_T_Q5_1] = QUANT_OPS(q5_1),
	[GGUF_T_Q8_0] = QUANT_OPS(q8_0),
	[GGUF_T_Q8_1] = QUANT_OPS(q8_1),
	[GGUF_T_Q2_K] = QUANT_OPS(q2_K),
	[GGUF_T_Q3_K] = QUANT_OPS(q3_K),
	[GGUF_T_Q4_K] = QUANT_OPS(q4_K),
	[GGUF_T_Q5_K] = QUANT_OPS(q5_K),
	[GGUF_T_Q6_K] = QUANT_OPS(q6_K),
	[GGUF_T_Q8_K] = QUANT_OPS(q8_K),
	[GGUF_T_IQ2_XXS] = QUANT_OPS(iq2_xxs),
	[GGUF_T_IQ2_XS] = QUANT_OPS(iq2_xs),
	[GGUF_T_IQ2_S] = QUANT_OPS(iq2_s),
	[GGUF_T_IQ3_XXS] = QUANT_OPS(iq3_xxs),
	[GGUF_T_IQ3_S] = QUANT_OPS(iq3_s),
	[GGUF_T_IQ1_S] = QUANT_OPS(iq1_s),
	[GGUF_T_IQ1_M] = QUANT_OPS(iq1_m),
	[GGUF_T_IQ4_NL] = QUANT_OPS(iq4_nl),
	[GGUF_T_IQ4_XS] = QUANT_OPS(iq4_xs),
	[GGUF_T_TQ1_0] = QUANT_OPS(tq1_0),
	[GGUF_T_TQ2_0] = QUANT_OPS(tq2_0),
	[GGUF_T_MXFP4] = QUANT_OPS(mxfp4),
	[GGUF_T_NVFP4] = QUANT_OPS(nvfp4),
	[GGUF_T_Q1_0] = QUANT_OPS(q1_0),
	[GGUF_T_Q2_0] = QUANT_OPS(q2_0),
};

/* ------------------------------------------------- the vector decoders */

/*
 * For the types that have one, the vector decoder of dequant_x86.c when
 * the CPU runs it, looked up once; GGUFED_DEQUANT=ref in the environment
 * keeps the portable decoders (to compare, or to rule the vector ones out).
 */
static struct {
	gguf_dq_fn	*fn[GGUF_T_COUNT];
	const char	*isa[GGUF_T_COUNT];
} vec;

static pthread_once_t	vec_once = PTHREAD_ONCE_INIT;

static void
vec_init(void)
{
	const char	*e = getenv("GGUFED_DEQUANT");
	uint32_t	 t;

	if (e != NULL && strcmp(e, "ref") == 0)
		return;
	for (t = 0; t < GGUF_T_COUNT; t++)
		vec.fn[t] = gguf_dq_vec(t, &vec.isa[t]);
}

/*
 * The decoder of little- or big-endian data of a decodable type: the
 * vector one unless ref, else the portable one compiled for AVX2 where
 * the CPU runs it.
 */
dq_fn *
gguf_dq_decoder(uint32_t type, int be, int ref)
{
	const struct dq_type	*d = &dq_types[type];
	int			 avx2 = gguf_cpu_avx2();

	if (be)
		return avx2 ? d->be_avx2 : d->be;
	if (!ref) {
		pthread_once(&vec_once, vec_init);
		if (vec.fn[type] != NULL)
			return vec.fn[type];
	}
	return avx2 ? d->le_avx2 : d->le;
}

void
gguf_dq_versions(uint32_t type, int be, dq_fn **base, dq_fn **avx2)
{
	*base = be ? dq_types[type].be : dq_types[type].le;
	*avx2 = be ? dq_types[type].be_avx2 : dq_types[type].le_avx2;
}

const char *
gguf_dequant_isa(uint32_t type)
{
	if (type >= GGUF_T_COUNT)
		return "portable";
	pthread_once(&vec_once, vec_init);
	return vec.fn[type] != NULL ? vec.isa[type] : "portable";
}

/* -------------------------------------------------------------- the API */

int
gguf_dequant_check(uint32_t type, int be, struct gguf_err *err)
{
	if (gguf_ttype_decodable(type, be, err) != 0)
		return -1;
	if (dq_types[type].le == NULL || (be && dq_types[type].be == NULL))
		return gguf_errf(err, -1, "type %s has no decoder",
		    gguf_ttype(type)->name);
	return 0;
}

int
gguf_dequant_wide(uint32_t type)
{
	return type == GGUF_T_F64 || type == GGUF_T_I32 || type == GGUF_T_I64;
}

/* Checks type and range; the number of elements the data holds. */
static int
range_check(uint32_t type, int be, uint64_t nbytes, uint64_t first,
    uint64_t n, struct gguf_err *err)
{
	const struct gguf_type_info	*ti;
	uint64_t			 cap;

	if (gguf_dequant_check(type, be, err) != 0)
		return -1;
	ti = gguf_ttype(type);
	if (gguf_mul_ok(nbytes / ti->bytes, ti->blck, &cap) != 0)
		cap = UINT64_MAX;
	if (first > cap || n > cap - first)
		return gguf_errf(err, -1, "elements %llu..%llu lie outside "
		    "the %llu elements of the data",
		    (unsigned long long)first,
		    (unsigned long long)(first + n),
		    (unsigned long long)cap);
	return 0;
}

static int
dequant(uint32_t type, int be, const uint8_t *data, uint64_t nbytes,
    uint64_t first, uint64_t n, float *out, int ref, struct gguf_err *err)
{
	const struct gguf_type_info	*ti;
	dq_fn				*fn;
	float				 tmp[GGUF_MAX_BLCK];
	uint64_t			 bk, bs, b, off, k, full;

	if (range_check(type, be, nbytes, first, n, err) != 0)
		return -1;
	if (n == 0)
		return 0;
	ti = gguf_ttype(type);
	fn = gguf_dq_decoder(type, be, ref);
	bk = ti->blck;
	bs = ti->bytes;
	b = first / bk;
	off = first % bk;
	if (off != 0) {
		fn(data + b * bs, tmp, 1);
		k = bk - off < n ? bk - off : n;
		memcpy(out, tmp + off, k * sizeof *out);
		out += k;
		n -= k;
		b++;
	}
	full = n / bk;
	if (full > 0) {
		fn(data + b * bs, out, full);
		out += full * bk;
		n -= full * bk;
		b += full;
	}
	if (n > 0) {
		fn(data + b * bs, tmp, 1);
		memcpy(out, tmp, n * sizeof *out);
	}
	return 0;
}

int
gguf_dequant(uint32_t type, int be, const uint8_t *data, uint64_t nbytes,
    uint64_t first, uint64_t n, float *out, struct gguf_err *err)
{
	return dequant(type, be, data, nbytes, first, n, out, 0, err);
}

int
gguf_dequant_ref(uint32_t type, int be, const uint8_t *data, uint64_t nbytes,
    uint64_t first, uint64_t n, float *out, struct gguf_err *err)
{
	return dequant(type, be, data, nbytes, first, n, out, 1, err);
}

int
gguf_dequant_f64(uint32_t type, int be, const uint8_t *data,
    uint64_t nbytes, uint64_t first, uint64_t n, double *out,
    struct gguf_err *err)
{
	const struct gguf_type_info	*ti;
	dq64_fn				*fn;
	float				 tmp[GGUF_MAX_BLCK];
	uint64_t			 k, i;

	if (range_check(type, be, nbytes, first, n, err) != 0)
		return -1;
	if (n == 0)
		return 0;
	ti = gguf_ttype(type);
	fn = be ? dq_types[type].be64 : dq_types[type].le64;
	if (fn != NULL) {
		fn(data + first * ti->bytes, out, n);
		return 0;
	}
	while (n > 0) {
		k = n < GGUF_MAX_BLCK ? n : GGUF_MAX_BLCK;
		if (gguf_dequant(type, be, data, nbytes, first, k, tmp,
		    err) != 0)
			return -1;
		for (i = 0; i < k; i++)
			out[i] = tmp[i];
		out += k;
		first += k;
		n -= k;
	}
	return 0;
}

int
gguf_dequant_i64(uint32_t type, int be, const uint8_t *data,
    uint64_t nbytes, uint64_t first, uint64_t n, int64_t *out,
    struct gguf_err *err)
{
	const struct gguf_type_info	*ti;
	const uint8_t			*p;
	uint64_t			 i;

	if (range_check(type, be, nbytes, first, n, err) != 0)
		return -1;
	ti = gguf_ttype(type);
	if (!(ti->flags & GGUF_TF_INT))
		return gguf_errf(err, -1, "type %s is not an integer type",
		    ti->name);
	p = data + first * ti->bytes;
	for (i = 0; i < n; i++, p += ti->bytes) {
		switch (ti->bytes) {
		case 1:
			out[i] = (int8_t)*p;
			break;
		case 2:
			out[i] = (int16_t)gguf_ld16(p, be);
			break;
		case 4:
			out[i] = (int32_t)gguf_ld32(p, be);
			break;
		default:
			out[i] = (int64_t)gguf_ld64(p, be);
			break;
		}
	}
	return 0;
}

uint64_t
gguf_tensor_nrows(const struct gguf_tensor *t)
{
	if (t->ne[0] == 0)
		return 0;
	return t->nelem / t->ne[0];
}

int
gguf_tensor_by_range(const struct gguf_file *f, const struct gguf_tensor *t)
{
	const struct gguf_file	*tf = gguf_tensor_file(f, t);

	return tf != NULL && !gguf_file_whole(tf);
}

/*
 * A window of a tensor whose file is not mapped: its data is read by the
 * callers (fetch), so this only says whether it can be. A pointer that
 * must not be read, or NULL with err set.
 */
static const uint8_t *
window_unmapped(const struct gguf_file *f, const struct gguf_tensor *t,
    struct gguf_err *err)
{
	static const uint8_t	unmapped[1];

	if (gguf_tensor_file(f, t) == NULL || (t->flags &
	    (GGUF_TENSOR_UNSIZED | GGUF_TENSOR_UNREADABLE)))
		return gguf_tensor_data(f, t, err);
	return unmapped;
}

/*
 * Checks a row and column window of t; the tensor's data on success (for
 * a file that is not mapped, a pointer that must not be read: the
 * readers here fetch the bytes they need).
 */
const uint8_t *
gguf_tensor_window(const struct gguf_file *f, const struct gguf_tensor *t,
    uint64_t row0, uint64_t nrows, uint64_t col0, uint64_t ncols,
    struct gguf_err *err)
{
	uint64_t	total = gguf_tensor_nrows(t);
	static const uint8_t	none[1];

	if (gguf_dequant_check(t->type, gguf_layout(f)->be, err) != 0)
		return NULL;
	if (t->flags & GGUF_TENSOR_UNSIZED) {
		gguf_errf(err, -1, "tensor has no known size");
		return NULL;
	}
	/* past the end, even with no element: what llama.cpp refuses */
	if (t->flags & GGUF_TENSOR_UNREADABLE)
		return gguf_tensor_data(f, t, err);
	if (row0 > total || nrows > total - row0) {
		gguf_errf(err, -1, "rows %llu:%llu out of range: the tensor "
		    "has %llu rows (valid 0:%llu)", (unsigned long long)row0,
		    (unsigned long long)row0 + nrows,
		    (unsigned long long)total, (unsigned long long)total);
		return NULL;
	}
	if (col0 > t->ne[0] || ncols > t->ne[0] - col0) {
		gguf_errf(err, -1, "columns %llu:%llu out of range: rows "
		    "have %llu columns (valid 0:%llu)",
		    (unsigned long long)col0,
		    (unsigned long long)col0 + ncols,
		    (unsigned long long)t->ne[0],
		    (unsigned long long)t->ne[0]);
		return NULL;
	}
	if (nrows == 0 || ncols == 0)
		return none;
	if (gguf_tensor_by_range(f, t))
		return window_unmapped(f, t, err);
	return gguf_tensor_data(f, t, err);
}

/*
 * Reads the blocks that hold elements [e0, e1) of t (e0 < e1) from its
 * file, for a file that is not mapped: an allocated buffer of *nbytes
 * bytes whose first element is element *ebase of t; NULL with err set.
 */
static uint8_t *
fetch(const struct gguf_file *f, const struct gguf_tensor *t, uint64_t e0,
    uint64_t e1, uint64_t *nbytes, uint64_t *ebase, struct gguf_err *err)
{
	const struct gguf_type_info	*ti = gguf_ttype(t->type);
	const struct gguf_file		*tf = gguf_tensor_file(f, t);
	uint64_t			 b0, b1, off, len;
	uint8_t				*buf;

	b0 = e0 / ti->blck;
	b1 = (e1 + ti->blck - 1) / ti->blck;
	off = b0 * ti->bytes;
	len = (b1 - b0) * ti->bytes;
	if (off > t->nbytes)
		off = t->nbytes;
	if (len > t->nbytes - off)
		len = t->nbytes - off;
	buf = xmalloc(len > 0 ? (size_t)len : 1);
	if (gguf_file_read(tf, gguf_layout(tf)->data_off + t->offset + off,
	    buf, (size_t)len, err) != 0) {
		free(buf);
		return NULL;
	}
	*nbytes = len;
	*ebase = b0 * ti->blck;
	return buf;
}

/* One read of a tensor's data, run under the file's guard. */
struct rows_job {
	const struct gguf_tensor *t;
	int			 be;
	const uint8_t		*data;
	uint64_t		 row0, nrows, col0, ncols;
	float			*fout;
	double			*dout;
	int64_t			*iout;
	uint64_t		 block;
	struct gguf_blockview	*bv;
	struct gguf_err		*err;
	uint64_t		 nbytes;	/* bytes at data */
	uint64_t		 ebase;		/* data's first element */
};

uint8_t *
gguf_tensor_fetch(const struct gguf_file *f, const struct gguf_tensor *t,
    uint64_t e0, uint64_t e1, struct gguf_err *err)
{
	uint8_t		*all, *part;
	uint64_t	 n, ebase, off;

	if (e0 >= e1)
		return xcalloc(1, 1);
	if ((part = fetch(f, t, e0, e1, &n, &ebase, err)) == NULL)
		return NULL;
	/* Pages never written are never given memory: only part's are. */
	all = xcalloc(1, (size_t)t->nbytes);
	off = ebase / gguf_ttype(t->type)->blck * gguf_ttype(t->type)->bytes;
	memcpy(all + off, part, (size_t)n);
	free(part);
	return all;
}

static int
rows_cb(void *arg)
{
	struct rows_job			*j = arg;
	const struct gguf_tensor	*t = j->t;
	uint64_t			 r, first;
	int				 rc;

	if (j->bv != NULL)
		return gguf_dequant_block_view(t->type, j->be, j->data,
		    j->nbytes, j->block, j->bv, j->err);
	if (j->fout != NULL && j->ncols == t->ne[0])
		return gguf_dequant(t->type, j->be, j->data, j->nbytes,
		    j->row0 * t->ne[0] - j->ebase, j->nrows * j->ncols,
		    j->fout, j->err);
	for (r = 0; r < j->nrows; r++) {
		first = (j->row0 + r) * t->ne[0] + j->col0 - j->ebase;
		if (j->fout != NULL)
			rc = gguf_dequant(t->type, j->be, j->data, j->nbytes,
			    first, j->ncols, j->fout + r * j->ncols, j->err);
		else if (j->dout != NULL)
			rc = gguf_dequant_f64(t->type, j->be, j->data,
			    j->nbytes, first, j->ncols, j->dout + r * j->ncols,
			    j->err);
		else
			rc = gguf_dequant_i64(t->type, j->be, j->data,
			    j->nbytes, first, j->ncols, j->iout + r * j->ncols,
			    j->err);
		if (rc != 0)
			return -1;
	}
	return 0;
}

static int
rows_run(const struct gguf_file *f, struct rows_job *j)
{
	j->be = gguf_layout(f)->be;
	j->data = gguf_tensor_window(f, j->t, j->row0, j->nrows, j->col0,
	    j->ncols, j->err);
	if (j->data == NULL)
		return -1;
	if (j->nrows == 0 || j->ncols == 0)
		return 0;
	j->nbytes = j->t->nbytes;
	if (gguf_tensor_by_range(f, j->t)) {
		uint8_t	*buf;
		int	 rc;

		buf = fetch(f, j->t, j->row0 * j->t->ne[0] + j->col0,
		    (j->row0 + j->nrows - 1) * j->t->ne[0] + j->col0 +
		    j->ncols, &j->nbytes, &j->ebase, j->err);
		if (buf == NULL)
			return -1;
		j->data = buf;
		rc = rows_cb(j);
		free(buf);
		return rc;
	}
	return gguf_file_guard(f, rows_cb, j, j->err);
}

/* A job over rows row0.. of t, columns col0..; the caller sets the output. */
static void
rows_init(struct rows_job *j, const struct gguf_tensor *t, uint64_t row0,
    uint64_t nrows, uint64_t col0, uint64_t ncols, struct gguf_err *err)
{
	memset(j, 0, sizeof *j);
	j->t = t;
	j->row0 = row0;
	j->nrows = nrows;
	j->col0 = col0;
	j->ncols = ncols;
	j->err = err;
}

int
gguf_dequant_rows(const struct gguf_file *f, const struct gguf_tensor *t,
    uint64_t row0, uint64_t nrows, uint64_t col0, uint64_t ncols,
    float *out, struct gguf_err *err)
{
	struct rows_job	j;

	rows_init(&j, t, row0, nrows, col0, ncols, err);
	j.fout = out;
	return rows_run(f, &j);
}

int
gguf_dequant_rows_f64(const struct gguf_file *f,
    const struct gguf_tensor *t, uint64_t row0, uint64_t nrows,
    uint64_t col0, uint64_t ncols, double *out, struct gguf_err *err)
{
	struct rows_job	j;

	rows_init(&j, t, row0, nrows, col0, ncols, err);
	j.dout = out;
	return rows_run(f, &j);
}

int
gguf_dequant_rows_i64(const struct gguf_file *f,
    const struct gguf_tensor *t, uint64_t row0, uint64_t nrows,
    uint64_t col0, uint64_t ncols, int64_t *out, struct gguf_err *err)
{
	struct rows_job	j;

	rows_init(&j, t, row0, nrows, col0, ncols, err);
	j.iout = out;
	return rows_run(f, &j);
}

int
gguf_tensor_block_view(const struct gguf_file *f,
    const struct gguf_tensor *t, uint64_t block, struct gguf_blockview *bv,
    struct gguf_err *err)
{
	struct rows_job	j;

	memset(&j, 0, sizeof j);
	j.t = t;
	j.be = gguf_layout(f)->be;
	j.block = block;
	j.bv = bv;
	j.err = err;
	j.nbytes = t->nbytes;
	if (gguf_dequant_check(t->type, j.be, err) != 0)
		return -1;
	if (gguf_tensor_file(f, t) != NULL && !(t->flags &
	    (GGUF_TENSOR_UNSIZED | GGUF_TENSOR_UNREADABLE)) &&
	    gguf_tensor_by_range(f, t)) {
		const struct gguf_type_info	*ti = gguf_ttype(t->type);
		uint8_t				*buf;
		uint64_t			 e0;
		int				 rc;

		if (ti->blck == 0 || block >= t->nbytes / ti->bytes)
			return gguf_dequant_block_view(t->type, j.be,
			    (const uint8_t *)"", 0, block, bv, err);
		e0 = block * ti->blck;
		buf = fetch(f, t, e0, e0 + ti->blck, &j.nbytes, &j.ebase,
		    err);
		if (buf == NULL)
			return -1;
		j.data = buf;
		j.block = 0;
		rc = rows_cb(&j);
		free(buf);
		return rc;
	}
	if ((j.data = gguf_tensor_data(f, t, err)) == NULL)
		return -1;
	return gguf_file_guard(f, rows_cb, &j, err);
}

int
gguf_tensor_read(const struct gguf_file *f, const struct gguf_tensor *t,
    uint64_t off, void *buf, uint64_t n, struct gguf_err *err)
{
	const struct gguf_file	*tf = gguf_tensor_file(f, t);
	struct gguf_guard_copy	 j;
	const uint8_t		*data = NULL;

	if (tf == NULL)
		return gguf_errf(err, -1, "its shard could not be read");
	if (!gguf_tensor_by_range(f, t) || (t->flags &
	    (GGUF_TENSOR_UNSIZED | GGUF_TENSOR_UNREADABLE))) {
		if ((data = gguf_tensor_data(f, t, err)) == NULL)
			return -1;
	}
	if (off > t->nbytes || n > t->nbytes - off)
		return gguf_errf(err, -1, "bytes %llu:%llu out of range: the "
		    "tensor has %llu bytes", (unsigned long long)off,
		    (unsigned long long)(off + n),
		    (unsigned long long)t->nbytes);
	if (n == 0)
		return 0;
	if (data == NULL)
		return gguf_file_read(tf, gguf_layout(tf)->data_off +
		    t->offset + off, buf, (size_t)n, err);
	j.src = data + off;
	j.dst = buf;
	j.n = (size_t)n;
	return gguf_file_guard(f, gguf_guard_copy_cb, &j, err);
}

int
gguf_dequant_block_view(uint32_t type, int be, const uint8_t *data,
    uint64_t nbytes, uint64_t block, struct gguf_blockview *bv,
    struct gguf_err *err)
{
	const struct gguf_type_info	*ti;

	if (gguf_dequant_check(type, be, err) != 0)
		return -1;
	ti = gguf_ttype(type);
	if (dq_types[type].view == NULL)
		return gguf_errf(err, -1, "type %s is not block-quantized",
		    ti->name);
	if (block >= nbytes / ti->bytes)
		return gguf_errf(err, -1, "block %llu out of range: the data "
		    "holds %llu blocks", (unsigned long long)block,
		    (unsigned long long)(nbytes / ti->bytes));
	memset(bv, 0, sizeof *bv);
	dq_types[type].view(data + block * ti->bytes, bv);
	return 0;
}

