/*
 * gen_hostile.c - writes the hostile-file corpus and its manifest.
 *
 *	gen_hostile DIR
 *
 * Each case is a small GGUF file with one defect (or none, for the valid
 * controls), built byte by byte with ggufgen. DIR/expect.tsv gets one line
 * per file:
 *
 *	NAME<tab>OUTCOME<tab>OFFSET<tab>SUBSTRING
 *
 * OUTCOME is "error" (the reader refuses the file: the one-line message
 * must carry OFFSET and contain SUBSTRING), "warn" (the file opens, and one
 * of its warnings is at OFFSET and contains SUBSTRING) or "ok" (opens with
 * no warning; OFFSET and SUBSTRING are "-"). Substrings avoid quotes and
 * backslashes, which the command line may escape.
 *
 * Offsets are never typed in: every case records where its fields land
 * with gg_pos while it builds them, so the expectations follow the layout.
 * The valid controls valid-*.gguf are also the inputs of the every-prefix
 * and mutation tests:
 *
 *	gen_hostile --mutants FILE DIR
 *
 * writes DIR/POS-K.gguf, FILE with the byte at POS set to 0x00, 0xff, 0x80
 * or itself + 1 (K = 0 to 3).
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tools/ggufgen.h"

#define ALIGN		32
#define DESC_LEN	320	/* keeps the count check out of the way */

static const char	*outdir;
static FILE		*manifest;
static unsigned		 n_cases;

/*
 * Writes g as DIR/NAME.gguf with its expectation, then frees g. fmt is the
 * expected substring (ignored for "ok").
 */
static void emit(struct gg *, const char *, const char *, uint64_t,
    const char *, ...) __attribute__((format(printf, 5, 6)));

static void
emit(struct gg *g, const char *name, const char *outcome, uint64_t off,
    const char *fmt, ...)
{
	va_list	ap;
	char	path[4096], msg[512];

	snprintf(path, sizeof path, "%s/%s.gguf", outdir, name);
	if (gg_write(g, path) != 0) {
		fprintf(stderr, "gen_hostile: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	if (strcmp(outcome, "ok") == 0)
		fprintf(manifest, "%s.gguf\tok\t-\t-\n", name);
	else {
		va_start(ap, fmt);
		vsnprintf(msg, sizeof msg, fmt, ap);
		va_end(ap);
		fprintf(manifest, "%s.gguf\t%s\t0x%llx\t%s\n", name, outcome,
		    (unsigned long long)off, msg);
	}
	gg_free(g);
	n_cases++;
}

/* ----------------------------------------------------------- the base file */

/*
 * The base file: a small valid file with a KV of every scalar type, a
 * string, arrays of u32, of strings and of arrays, and two tensors with
 * their data. Every field a case cuts or patches is recorded in marks.
 *
 * The first KV is a long description: the reader checks up front that the
 * counts can fit in the bytes left, so a file cut before that many bytes
 * is reported at the counts, not where it ends. Cuts made after the
 * description reach the reader's check of each field.
 */
enum {
	K_DESC, K_ARCH, K_U8, K_I8, K_U16, K_I16, K_U32, K_I32, K_F32,
	K_BOOL, K_U64, K_I64, K_F64, K_STR, K_ARR_U32, K_ARR_STR, K_ARR_ARR,
	NKV
};

static const struct {
	const char	*key;
	uint32_t	 type;
	const char	*name;		/* the reader's name of the type */
	unsigned	 size;
} scalars[] = {
	[K_U8] = { "t.u8", GG_U8, "u8", 1 },
	[K_I8] = { "t.i8", GG_I8, "i8", 1 },
	[K_U16] = { "t.u16", GG_U16, "u16", 2 },
	[K_I16] = { "t.i16", GG_I16, "i16", 2 },
	[K_U32] = { "t.u32", GG_U32, "u32", 4 },
	[K_I32] = { "t.i32", GG_I32, "i32", 4 },
	[K_F32] = { "t.f32", GG_F32, "f32", 4 },
	[K_BOOL] = { "t.bool", GG_BOOL, "bool", 1 },
	[K_U64] = { "t.u64", GG_U64, "u64", 8 },
	[K_I64] = { "t.i64", GG_I64, "i64", 8 },
	[K_F64] = { "t.f64", GG_F64, "f64", 8 },
};

static const char *const sarr[] = { "alpha", "be", "gamma-delta" };

struct marks {
	size_t	n_t, n_kv;		/* the header's count fields */
	size_t	kv[NKV];		/* each KV entry */
	size_t	kv_type[NKV];		/* its value type field */
	size_t	kv_val[NKV];		/* its value */
	size_t	arr_count;		/* t.arr_u32: count, first element */
	size_t	arr_payload;
	size_t	sarr_count;		/* t.arr_str: count, each element */
	size_t	sarr_elem[3];
	size_t	narr_inner[2];		/* t.arr_arr: each inner array */
	size_t	ti[2];			/* each tensor info */
	size_t	ti_ndims[2];
	size_t	ti_dim[2][2];
	size_t	ti_type[2];
	size_t	ti_off[2];
	size_t	ti_end, data_off, data_end;
};

static const char	*tname[2] = { "blk.0.attn.weight", "blk.0.ffn.weight" };

static void
mark_key(struct gg *g, struct marks *m, int k, const char *key, uint32_t type)
{
	m->kv[k] = gg_pos(g);
	gg_str(g, key);
	m->kv_type[k] = gg_pos(g);
	gg_u32(g, type);
	m->kv_val[k] = gg_pos(g);
}

static void
base(struct gg *g, struct marks *m, uint32_t version, int be)
{
	uint64_t	ne0[2] = { 4, 2 }, ne1[2] = { 32, 2 };
	char		desc[DESC_LEN + 1];
	int		k, i, j;

	memset(m, 0, sizeof *m);
	for (i = 0; i < DESC_LEN; i++)
		desc[i] = "A small valid file for the hostile tests. "[i % 42];
	desc[DESC_LEN] = '\0';

	gg_init(g, version, be);
	gg_bytes(g, "GGUF", 4);
	gg_u32(g, version);
	m->n_t = gg_pos(g);
	gg_len(g, 2);
	m->n_kv = gg_pos(g);
	gg_len(g, NKV);

	mark_key(g, m, K_DESC, "general.description", GG_STR);
	gg_str(g, desc);
	mark_key(g, m, K_ARCH, "general.architecture", GG_STR);
	gg_str(g, "llama");
	for (k = K_U8; k <= K_F64; k++) {
		mark_key(g, m, k, scalars[k].key, scalars[k].type);
		switch (scalars[k].type) {
		case GG_F32:
			gg_f32(g, 1.5f);
			break;
		case GG_F64:
			gg_f64(g, -2.25);
			break;
		case GG_BOOL:
			gg_u8(g, 1);
			break;
		default:	/* the byte order shows in every value */
			if (scalars[k].size == 1)
				gg_u8(g, 0x81);
			else if (scalars[k].size == 2)
				gg_u16(g, 0x8102);
			else if (scalars[k].size == 4)
				gg_u32(g, 0x81020304);
			else
				gg_u64(g, 0x8102030405060708ULL);
		}
	}
	mark_key(g, m, K_STR, "t.str", GG_STR);
	gg_str(g, "hello");

	mark_key(g, m, K_ARR_U32, "t.arr_u32", GG_ARR);
	gg_u32(g, GG_U32);
	m->arr_count = gg_pos(g);
	gg_len(g, 3);
	m->arr_payload = gg_pos(g);
	for (i = 0; i < 3; i++)
		gg_u32(g, 100 + (uint32_t)i);

	mark_key(g, m, K_ARR_STR, "t.arr_str", GG_ARR);
	gg_u32(g, GG_STR);
	m->sarr_count = gg_pos(g);
	gg_len(g, 3);
	for (i = 0; i < 3; i++) {
		m->sarr_elem[i] = gg_pos(g);
		gg_str(g, sarr[i]);
	}

	mark_key(g, m, K_ARR_ARR, "t.arr_arr", GG_ARR);
	gg_arr(g, GG_ARR, 2);
	for (i = 0; i < 2; i++) {
		m->narr_inner[i] = gg_pos(g);
		gg_arr(g, GG_I16, 3);
		for (j = 0; j < 3; j++)
			gg_u16(g, (uint16_t)(i * 10 + j));
	}

	for (i = 0; i < 2; i++) {
		m->ti[i] = gg_pos(g);
		gg_str(g, tname[i]);
		m->ti_ndims[i] = gg_pos(g);
		gg_u32(g, 2);
		for (j = 0; j < 2; j++) {
			m->ti_dim[i][j] = gg_pos(g);
			if (version == 1)
				gg_u32(g, (uint32_t)(i == 0 ? ne0 : ne1)[j]);
			else
				gg_u64(g, (i == 0 ? ne0 : ne1)[j]);
		}
		m->ti_type[i] = gg_pos(g);
		gg_u32(g, i == 0 ? GG_T_F32 : GG_T_Q8_0);
		m->ti_off[i] = gg_pos(g);
		gg_u64(g, i == 0 ? 0 : 32);
	}
	m->ti_end = gg_pos(g);
	gg_pad(g, ALIGN);
	m->data_off = gg_pos(g);

	/* blk.0.attn.weight: F32 4x2, 32 bytes at 0. */
	for (i = 0; i < 8; i++)
		gg_f32(g, (float)i * 0.5f);
	/* blk.0.ffn.weight: Q8_0 32x2, two blocks of 34 bytes at 32. */
	for (i = 0; i < 2; i++) {
		gg_u16(g, 0x3c00);		/* scale 1.0 (f16) */
		for (j = 0; j < 32; j++)
			gg_u8(g, (uint8_t)(j - 16));
	}
	gg_pad(g, ALIGN);
	m->data_end = gg_pos(g);
}

/* ------------------------------------------------------ small custom files */

/* Header, then general.architecture (counted in n_kv). */
static void
start(struct gg *g, uint64_t n_t, uint64_t n_kv)
{
	gg_init(g, 3, 0);
	gg_header(g, n_t, n_kv);
	gg_kv_str(g, "general.architecture", "test");
}

/* Pads to the alignment and writes n bytes of tensor data, padded too. */
static void
data(struct gg *g, size_t n, uint64_t align)
{
	size_t	i;

	gg_pad(g, align);
	for (i = 0; i < n; i++)
		gg_u8(g, (uint8_t)(i * 7 + 1));
	gg_pad(g, align);
}

/* A 1-D F32 tensor info; returns the offset of its offset field. */
static size_t
f32_tensor(struct gg *g, const char *name, uint64_t n, uint64_t off)
{
	gg_tensor(g, name, 1, &n, GG_T_F32, off);
	return gg_pos(g) - 8;
}

/* ------------------------------------------------------------------ cases */

static void
valid_controls(void)
{
	struct gg	g;
	struct marks	m;
	uint64_t	ne = 4;

	base(&g, &m, 3, 0);
	emit(&g, "valid-base", "ok", 0, "-");
	/* Read in full; the warning says who else cannot read them. */
	base(&g, &m, 3, 1);
	emit(&g, "valid-base-be", "warn", 4, "big-endian file");
	base(&g, &m, 1, 0);
	emit(&g, "valid-base-v1", "warn", 4, "GGUF v1 file");
	base(&g, &m, 2, 0);
	emit(&g, "valid-base-v2", "ok", 0, "-");

	/*
	 * The small files of the every-prefix and mutation tests: three KVs
	 * (a string, a u32, an array of strings) and one F16 tensor.
	 */
	gg_init(&g, 3, 0);
	gg_header(&g, 1, 3);
	gg_kv_str(&g, "general.architecture", "tiny");
	gg_kv_u32(&g, "t.n", 7);
	gg_kv_arr(&g, "t.list", GG_STR, 2);
	gg_str(&g, "a");
	gg_str(&g, "bc");
	gg_tensor(&g, "w", 1, &ne, GG_T_F16, 0);
	data(&g, 8, ALIGN);
	emit(&g, "valid-tiny", "ok", 0, "-");

	gg_init(&g, 1, 0);
	gg_header(&g, 1, 3);
	gg_kv_str(&g, "general.architecture", "tiny");
	gg_kv_u32(&g, "t.n", 7);
	gg_kv_arr(&g, "t.list", GG_STR, 2);
	gg_str(&g, "a");
	gg_str(&g, "bc");
	gg_tensor(&g, "w", 1, &ne, GG_T_F16, 0);
	data(&g, 8, ALIGN);
	emit(&g, "valid-tiny-v1", "warn", 4, "GGUF v1 file");

	/* No metadata, no tensors: a header padded to the alignment. */
	gg_init(&g, 3, 0);
	gg_header(&g, 0, 0);
	gg_pad(&g, ALIGN);
	emit(&g, "valid-empty", "warn", 24, "no general.architecture key");
}

static void
truncations(void)
{
	struct gg	g;
	struct marks	m;
	size_t		at, left;
	int		k;
	char		name[64];

#define CUT(len) do { base(&g, &m, 3, 0); gg_truncate(&g, (len)); } while (0)

	CUT(2);
	emit(&g, "trunc-magic", "error", 0,
	    "file ends inside the magic (2 bytes)");
	CUT(6);
	emit(&g, "trunc-version", "error", 4,
	    "file ends inside the version field (4 bytes needed, 2 left)");
	CUT(12);
	emit(&g, "trunc-tensor-count", "error", 8,
	    "file ends inside the tensor count (8 bytes needed, 4 left)");
	CUT(20);
	emit(&g, "trunc-kv-count", "error", 16,
	    "file ends inside the KV count (8 bytes needed, 4 left)");
	CUT(24);
	emit(&g, "trunc-after-header", "error", 16,
	    "KV count %d cannot fit in the 0 bytes left", NKV);
	/* Too early for the fields to be reached: the counts cannot fit. */
	CUT(m.kv[K_DESC] + 3);
	emit(&g, "trunc-first-key", "error", 16,
	    "KV count %d cannot fit in the 3 bytes left", NKV);

	/* general.architecture, a string KV after the description. */
	CUT(m.kv[K_ARCH] + 3);
	emit(&g, "trunc-key-len", "error", m.kv[K_ARCH],
	    "file ends inside key (8 bytes needed, 3 left)");
	CUT(m.kv[K_ARCH] + 8 + 5);
	emit(&g, "trunc-key-bytes", "error", m.kv[K_ARCH],
	    "key length 20 runs past the end of the file (5 bytes left)");
	CUT(m.kv_type[K_ARCH] + 2);
	emit(&g, "trunc-value-type", "error", m.kv_type[K_ARCH],
	    "file ends inside value type (4 bytes needed, 2 left)");
	CUT(m.kv_val[K_ARCH] + 5);
	emit(&g, "trunc-str-len", "error", m.kv_val[K_ARCH],
	    "file ends inside string (8 bytes needed, 5 left)");
	CUT(m.kv_val[K_ARCH] + 8 + 2);
	emit(&g, "trunc-str-bytes", "error", m.kv_val[K_ARCH],
	    "string length 5 runs past the end of the file (2 bytes left)");

	/* Each scalar, one byte short. */
	for (k = K_U8; k <= K_F64; k++) {
		CUT(m.kv_val[k] + scalars[k].size - 1);
		snprintf(name, sizeof name, "trunc-%s", scalars[k].name);
		emit(&g, name, "error", m.kv_val[k],
		    "file ends inside %s (%u bytes needed, %u left)",
		    scalars[k].name, scalars[k].size, scalars[k].size - 1);
	}

	/* Arrays. */
	CUT(m.kv_val[K_ARR_U32] + 1);
	emit(&g, "trunc-arr-type", "error", m.kv_val[K_ARR_U32],
	    "file ends inside array element type (4 bytes needed, 1 left)");
	CUT(m.arr_count + 3);
	emit(&g, "trunc-arr-count", "error", m.arr_count,
	    "file ends inside array length (8 bytes needed, 3 left)");
	CUT(m.arr_payload + 5);
	emit(&g, "trunc-arr-payload", "error", m.arr_count,
	    "array of 3 u32 runs past the end of the file (5 bytes left)");
	CUT(m.sarr_count + 8 + 3);
	emit(&g, "trunc-arr-str-count", "error", m.sarr_count,
	    "array of 3 str cannot fit in the 3 bytes left");
	CUT(m.sarr_elem[2] + 8 + 1);
	emit(&g, "trunc-arr-str-bytes", "error", m.sarr_elem[2],
	    "string length %zu runs past the end of the file (1 bytes left)",
	    strlen(sarr[2]));
	CUT(m.narr_inner[1] + 12 + 1);
	emit(&g, "trunc-arr-nested", "error", m.narr_inner[1] + 4,
	    "array of 3 i16 runs past the end of the file (1 bytes left)");

	/* The second tensor info. */
	CUT(m.ti[1] + 4);
	emit(&g, "trunc-tensor-name-len", "error", m.ti[1],
	    "file ends inside tensor name (8 bytes needed, 4 left)");
	CUT(m.ti[1] + 8 + 3);
	emit(&g, "trunc-tensor-name", "error", m.ti[1],
	    "tensor name length %zu runs past the end of the file (3 bytes "
	    "left)", strlen(tname[1]));
	CUT(m.ti_ndims[1] + 2);
	emit(&g, "trunc-n-dims", "error", m.ti_ndims[1],
	    "file ends inside n_dims (4 bytes needed, 2 left)");
	CUT(m.ti_dim[1][0] + 4);
	emit(&g, "trunc-dim0", "error", m.ti_dim[1][0],
	    "file ends inside a dimension (8 bytes needed, 4 left)");
	CUT(m.ti_dim[1][1] + 7);
	emit(&g, "trunc-dim1", "error", m.ti_dim[1][1],
	    "file ends inside a dimension (8 bytes needed, 7 left)");
	CUT(m.ti_type[1] + 1);
	emit(&g, "trunc-tensor-type", "error", m.ti_type[1],
	    "file ends inside tensor type (4 bytes needed, 1 left)");
	CUT(m.ti_off[1] + 6);
	emit(&g, "trunc-tensor-offset", "error", m.ti_off[1],
	    "file ends inside tensor data offset (8 bytes needed, 6 left)");

	/* The data section: warnings, the tensors are kept but unreadable. */
	CUT(m.ti_end);
	if (m.ti_end % ALIGN == 0) {
		fprintf(stderr, "gen_hostile: the base file's tensor infos "
		    "end aligned; change it so trunc-infos-end tests what it "
		    "says\n");
		exit(1);
	}
	emit(&g, "trunc-infos-end", "warn", m.ti_end,
	    "the data section would start at 0x%zx, beyond the end of the "
	    "file (%zu bytes): no tensor data is present", m.data_off,
	    m.ti_end);
	CUT(m.data_off + 16);
	emit(&g, "trunc-data-first", "warn", m.ti_off[0],
	    "data [0x0, +32) lies beyond the end of the file");
	CUT(m.data_off + 32 + 10);
	emit(&g, "trunc-data", "warn", m.ti_off[1],
	    "data [0x20, +68) lies beyond the end of the file");
	CUT(m.data_off + 32 + 68);
	emit(&g, "trunc-padding", "warn", m.data_off + 32 + 68,
	    "the last tensor is not followed by its alignment padding");

	/* Big-endian and v1 files cut short. */
	base(&g, &m, 3, 1);
	gg_truncate(&g, m.kv_val[K_ARCH] + 8 + 2);
	emit(&g, "be-trunc-str-bytes", "error", m.kv_val[K_ARCH],
	    "string length 5 runs past the end of the file (2 bytes left)");
	base(&g, &m, 3, 1);
	gg_truncate(&g, m.arr_payload + 5);
	emit(&g, "be-trunc-arr-payload", "error", m.arr_count,
	    "array of 3 u32 runs past the end of the file (5 bytes left)");
	base(&g, &m, 3, 1);
	gg_truncate(&g, m.data_off + 32 + 10);
	emit(&g, "be-trunc-data", "warn", m.ti_off[1],
	    "data [0x20, +68) lies beyond the end of the file");
	base(&g, &m, 1, 0);
	gg_truncate(&g, m.kv_val[K_ARCH] + 3);
	emit(&g, "v1-trunc-str-len", "error", m.kv_val[K_ARCH],
	    "file ends inside string (4 bytes needed, 3 left)");
	base(&g, &m, 1, 0);
	gg_truncate(&g, m.ti_dim[1][1] + 2);
	emit(&g, "v1-trunc-dim", "error", m.ti_dim[1][1],
	    "file ends inside a dimension (4 bytes needed, 2 left)");
	base(&g, &m, 1, 0);
	at = m.kv_val[K_ARCH];
	left = gg_pos(&g) - at - 4;
	gg_set32(&g, at, (uint32_t)left + 1);
	emit(&g, "v1-str-len-eof", "error", at,
	    "string length %zu runs past the end of the file (%zu bytes "
	    "left)", left + 1, left);
#undef CUT
}

static void
counts(void)
{
	struct gg	g;
	struct marks	m;
	uint64_t	left;
	size_t		end;

	base(&g, &m, 3, 0);
	left = gg_pos(&g) - 24;
	gg_set64(&g, m.n_kv, 1ULL << 60);
	emit(&g, "kv-count-2p60", "error", m.n_kv,
	    "KV count 1152921504606846976 cannot fit in the %llu bytes left",
	    (unsigned long long)left);

	base(&g, &m, 3, 0);
	gg_set64(&g, m.n_t, 1ULL << 60);
	emit(&g, "tensor-count-2p60", "error", m.n_t,
	    "tensor count 1152921504606846976 cannot fit in the %llu bytes "
	    "left", (unsigned long long)left);

	base(&g, &m, 3, 0);
	gg_set64(&g, m.n_kv, UINT64_MAX);
	emit(&g, "kv-count-max", "error", m.n_kv,
	    "KV count 18446744073709551615 cannot fit");

	/* Each fits the bytes left alone, not both together. */
	base(&g, &m, 3, 0);
	gg_set64(&g, m.n_kv, left / 13);
	gg_set64(&g, m.n_t, left / 24);
	emit(&g, "counts-together", "error", m.n_t,
	    "%llu tensor infos and %llu KV pairs cannot fit in the %llu "
	    "bytes left", (unsigned long long)(left / 24),
	    (unsigned long long)(left / 13), (unsigned long long)left);

	base(&g, &m, 1, 0);
	gg_set32(&g, m.n_kv, UINT32_MAX);
	emit(&g, "v1-kv-count-max", "error", m.n_kv,
	    "KV count 4294967295 cannot fit");

	/*
	 * The KV count says 1: the second KV and the bytes after it are
	 * trailing bytes, past the padding ggml writes after the metadata.
	 */
	start(&g, 0, 1);
	end = (gg_pos(&g) + ALIGN - 1) / ALIGN * ALIGN;
	gg_kv_u32(&g, "t.extra", 5);
	gg_fill(&g, 0xa5, 60);
	emit(&g, "kv-count-short", "warn", end,
	    "%zu bytes after the metadata", gg_pos(&g) - end);

	base(&g, &m, 3, 0);
	gg_fill(&g, 0xa5, 64);
	emit(&g, "trailing-garbage", "warn", m.data_end,
	    "64 bytes after the end of the last tensor's data and padding");
}

static void
strings(void)
{
	struct gg	g;
	struct marks	m;
	size_t		at, left;

	base(&g, &m, 3, 0);
	gg_set64(&g, m.kv_val[K_ARCH], UINT64_MAX);
	emit(&g, "str-len-max", "error", m.kv_val[K_ARCH],
	    "string length 18446744073709551615 runs past the end of the "
	    "file");

	base(&g, &m, 3, 0);
	at = m.kv_val[K_ARCH];
	left = gg_pos(&g) - at - 8;
	gg_set64(&g, at, left + 1);
	emit(&g, "str-len-eof", "error", at,
	    "string length %zu runs past the end of the file (%zu bytes "
	    "left)", left + 1, left);

	/* The string swallows the rest: the next key is missing. */
	base(&g, &m, 3, 0);
	gg_set64(&g, at, left);
	emit(&g, "str-len-to-eof", "error", gg_pos(&g),
	    "file ends inside key (8 bytes needed, 0 left)");

	base(&g, &m, 3, 0);
	gg_set64(&g, m.kv[K_ARCH], UINT64_MAX);
	emit(&g, "key-len-max", "error", m.kv[K_ARCH],
	    "key length 18446744073709551615 runs past the end of the file");

	base(&g, &m, 3, 0);
	gg_set64(&g, m.ti[0], 1ULL << 63);
	emit(&g, "tensor-name-len-2p63", "error", m.ti[0],
	    "tensor name length 9223372036854775808 runs past the end");
}

static void
arrays(void)
{
	struct gg	g;
	struct marks	m;
	size_t		p0;
	int		i;

	base(&g, &m, 3, 0);
	gg_set64(&g, m.arr_count, 1ULL << 62);
	emit(&g, "arr-u32-2p62", "error", m.arr_count,
	    "array of 4611686018427387904 u32 runs past the end of the file");

	base(&g, &m, 3, 0);
	gg_set64(&g, m.sarr_count, 1ULL << 62);
	emit(&g, "arr-str-2p62", "error", m.sarr_count,
	    "array of 4611686018427387904 str cannot fit in the");

	/* count * 8 wraps to 0 in 64 bits. */
	base(&g, &m, 3, 0);
	gg_set32(&g, m.kv_val[K_ARR_U32], GG_U64);
	gg_set64(&g, m.arr_count, 1ULL << 61);
	emit(&g, "arr-u64-2p61", "error", m.arr_count,
	    "array of 2305843009213693952 u64 runs past the end of the file");

	base(&g, &m, 3, 0);
	gg_set64(&g, m.narr_inner[0] + 4, 1ULL << 62);
	emit(&g, "arr-nested-2p62", "error", m.narr_inner[0] + 4,
	    "array of 4611686018427387904 i16 runs past the end of the file");

	base(&g, &m, 1, 0);
	gg_set32(&g, m.sarr_count, UINT32_MAX);
	emit(&g, "v1-arr-str-max", "error", m.sarr_count,
	    "array of 4294967295 str cannot fit in the");

	base(&g, &m, 3, 0);
	gg_set32(&g, m.kv_val[K_ARR_U32], 13);
	emit(&g, "arr-type-13", "error", m.kv_val[K_ARR_U32],
	    "unknown array element type 13");

	base(&g, &m, 3, 0);
	gg_set32(&g, m.kv_val[K_ARR_U32], UINT32_MAX);
	emit(&g, "arr-type-max", "error", m.kv_val[K_ARR_U32],
	    "unknown array element type 4294967295");

	base(&g, &m, 3, 0);
	gg_set32(&g, m.narr_inner[1], 99);
	emit(&g, "arr-nested-type-99", "error", m.narr_inner[1],
	    "unknown array element type 99");

	/*
	 * Nesting: 8 levels of arrays are read, a 9th is refused, and so is
	 * the 10,000-level file, at the same place.
	 */
	start(&g, 0, 2);
	gg_key(&g, "t.deep", GG_ARR);
	for (i = 0; i < 7; i++)
		gg_arr(&g, GG_ARR, 1);
	gg_arr(&g, GG_U8, 1);
	gg_u8(&g, 42);
	emit(&g, "nest-8", "ok", 0, "-");

	start(&g, 0, 2);
	gg_key(&g, "t.deep", GG_ARR);
	p0 = gg_pos(&g);
	for (i = 0; i < 8; i++)
		gg_arr(&g, GG_ARR, 1);
	gg_arr(&g, GG_U8, 1);
	gg_u8(&g, 42);
	emit(&g, "nest-9", "error", p0 + 8 * 12,
	    "arrays nested deeper than 8 levels");

	start(&g, 0, 2);
	gg_key(&g, "t.deep", GG_ARR);
	p0 = gg_pos(&g);
	for (i = 0; i < 9999; i++)
		gg_arr(&g, GG_ARR, 1);
	gg_arr(&g, GG_U8, 0);
	emit(&g, "nest-10000", "error", p0 + 8 * 12,
	    "arrays nested deeper than 8 levels");
}

static void
value_types(void)
{
	struct gg	g;
	struct marks	m;

	base(&g, &m, 3, 0);
	gg_set32(&g, m.kv_type[K_U8], 13);
	emit(&g, "value-type-13", "error", m.kv_type[K_U8],
	    "unknown value type 13");

	base(&g, &m, 3, 0);
	gg_set32(&g, m.kv_type[K_U8], UINT32_MAX);
	emit(&g, "value-type-max", "error", m.kv_type[K_U8],
	    "unknown value type 4294967295");

	base(&g, &m, 3, 0);
	gg_set8(&g, m.kv_val[K_BOOL], 2);
	emit(&g, "bool-2", "warn", m.kv_val[K_BOOL],
	    "bool value 2 is neither 0 nor 1");

	base(&g, &m, 3, 1);
	gg_set8(&g, m.kv_val[K_BOOL], 0xff);
	emit(&g, "be-bool-255", "warn", m.kv_val[K_BOOL],
	    "bool value 255 is neither 0 nor 1");
}

static void
keys(void)
{
	struct gg	g;
	size_t		at, first;
	char		*key;

	start(&g, 0, 2);
	at = gg_pos(&g);
	gg_kv_u32(&g, "", 1);
	emit(&g, "key-empty", "warn", at, "empty key");

	start(&g, 0, 3);
	first = gg_pos(&g);
	gg_kv_u32(&g, "t.a", 1);
	at = gg_pos(&g);
	gg_kv_u32(&g, "t.a", 2);
	emit(&g, "key-duplicate", "warn", at,
	    "(first at offset 0x%zx)", first);

	start(&g, 0, 2);
	at = gg_pos(&g);
	gg_kv_u32(&g, "General.Name", 1);
	emit(&g, "key-not-canonical", "warn", at, "breaks the naming rules");

	key = malloc(70000 + 1);
	if (key == NULL)
		abort();
	memset(key, 'k', 70000);
	key[70000] = '\0';
	start(&g, 0, 2);
	at = gg_pos(&g);
	gg_kv_u32(&g, key, 1);
	emit(&g, "key-70000", "warn", at,
	    "key of 70000 bytes is longer than 65535");
	free(key);

	gg_init(&g, 3, 0);
	gg_header(&g, 0, 1);
	at = gg_pos(&g);
	gg_kv_u32(&g, "general.architecture", 1);
	emit(&g, "key-wrong-type", "warn", at,
	    "general.architecture should be str, not u32");

	gg_init(&g, 3, 0);
	gg_header(&g, 0, 1);
	gg_kv_u32(&g, "general.name", 1);
	emit(&g, "key-no-arch", "warn", 24, "no general.architecture key");
}

static void
alignment(void)
{
	static const struct {
		const char	*name;
		uint32_t	 type;
		uint64_t	 v;
		const char	*msg;
	} a[] = {
		{ "align-0", GG_U32, 0, "general.alignment 0 is not a power "
		    "of two" },
		{ "align-3", GG_U32, 3, "general.alignment 3 is not a power "
		    "of two" },
		{ "align-2p31", GG_U32, 1U << 31, "general.alignment "
		    "2147483648 is larger than the 1048576 limit" },
		{ "align-max", GG_U32, UINT32_MAX, "general.alignment "
		    "4294967295 is not a power of two" },
		{ "align-u64", GG_U64, 32, "general.alignment must be u32, "
		    "not u64" },
		{ "align-i32", GG_I32, 32, "general.alignment must be u32, "
		    "not i32" },
	};
	struct gg	g;
	size_t		i, at;
	uint64_t	ne = 8;

	for (i = 0; i < sizeof a / sizeof a[0]; i++) {
		start(&g, 0, 2);
		gg_key(&g, "general.alignment", a[i].type);
		at = gg_pos(&g);
		if (a[i].type == GG_U64)
			gg_u64(&g, a[i].v);
		else
			gg_u32(&g, (uint32_t)a[i].v);
		emit(&g, a[i].name, "error", at, "%s", a[i].msg);
	}
	start(&g, 0, 2);
	gg_key(&g, "general.alignment", GG_STR);
	at = gg_pos(&g);
	gg_str(&g, "32");
	emit(&g, "align-str", "error", at,
	    "general.alignment must be u32, not str");

	/* Valid: alignment 64 and 1 (a power of two, ggml takes it). */
	start(&g, 1, 2);
	gg_kv_u32(&g, "general.alignment", 64);
	gg_tensor(&g, "w", 1, &ne, GG_T_F32, 0);
	data(&g, 32, 64);
	emit(&g, "align-64", "ok", 0, "-");

	start(&g, 2, 2);
	gg_kv_u32(&g, "general.alignment", 1);
	gg_tensor(&g, "a", 1, &ne, GG_T_F32, 0);
	ne = 3;
	gg_tensor(&g, "b", 1, &ne, GG_T_F16, 32);
	data(&g, 38, 1);
	emit(&g, "align-1", "ok", 0, "-");
}

static void
shapes(void)
{
	struct gg	g;
	struct marks	m;
	size_t		at;
	uint64_t	ne = 1;

	base(&g, &m, 3, 0);
	gg_set64(&g, m.ti_dim[0][0], 1ULL << 32);
	gg_set64(&g, m.ti_dim[0][1], 1ULL << 32);
	emit(&g, "dims-2p32-2p32", "error", m.ti_dim[0][1],
	    "element count overflows");

	base(&g, &m, 3, 0);
	gg_set64(&g, m.ti_dim[0][0], INT64_MAX);
	gg_set64(&g, m.ti_dim[0][1], 2);
	emit(&g, "dims-i64max-2", "error", m.ti_dim[0][1],
	    "element count overflows");

	/* 4 * (2^62 - 1) = 2^64 - 4: padding it to 32 wraps to 0. */
	base(&g, &m, 3, 0);
	gg_set64(&g, m.ti_dim[0][0], (1ULL << 62) - 1);
	gg_set64(&g, m.ti_dim[0][1], 1);
	emit(&g, "dims-pad-wrap", "error", m.ti_type[0],
	    "tensor byte size overflows");

	/* 8 * 2^62 overflows 64 bits. */
	base(&g, &m, 3, 0);
	gg_set64(&g, m.ti_dim[0][0], 1ULL << 62);
	gg_set64(&g, m.ti_dim[0][1], 1);
	gg_set32(&g, m.ti_type[0], GG_T_F64);
	emit(&g, "bytes-overflow-f64", "error", m.ti_type[0],
	    "tensor byte size overflows");

	base(&g, &m, 3, 0);
	gg_set64(&g, m.ti_dim[0][0], 1ULL << 63);
	emit(&g, "dim-negative", "error", m.ti_dim[0][0],
	    "dimension 0 is negative (-9223372036854775808)");

	base(&g, &m, 3, 0);
	gg_set64(&g, m.ti_dim[0][1], UINT64_MAX);
	emit(&g, "dim-minus-one", "error", m.ti_dim[0][1],
	    "dimension 1 is negative (-1)");

	base(&g, &m, 3, 0);
	gg_set32(&g, m.ti_ndims[0], 5);
	emit(&g, "ndims-5", "error", m.ti_ndims[0],
	    "has 5 dimensions (at most 4)");

	base(&g, &m, 3, 0);
	gg_set32(&g, m.ti_ndims[0], UINT32_MAX);
	emit(&g, "ndims-max", "error", m.ti_ndims[0],
	    "has 4294967295 dimensions (at most 4)");

	start(&g, 1, 1);
	at = gg_pos(&g);
	gg_tensor(&g, "s", 0, &ne, GG_T_F32, 0);
	data(&g, 4, ALIGN);
	emit(&g, "ndims-0", "warn", at,
	    "has 0 dimensions (read as a scalar)");

	/* A zero dimension is a valid empty tensor. */
	start(&g, 2, 1);
	ne = 0;
	gg_tensor(&g, "empty", 1, &ne, GG_T_F32, 0);
	ne = 8;
	gg_tensor(&g, "w", 1, &ne, GG_T_F32, 0);
	data(&g, 32, ALIGN);
	emit(&g, "zero-elements", "ok", 0, "-");
}

static void
tensor_types(void)
{
	static const struct {
		const char	*name;
		uint32_t	 type;
		const char	*msg;
	} t[] = {
		{ "ttype-43", 43, "type 43 has no known size" },
		{ "ttype-max", UINT32_MAX, "type 4294967295 has no known size" },
		{ "ttype-4", 4, "removed type Q4_2 has no known size" },
		{ "ttype-31", 31, "removed type Q4_0_4_4 has no known size" },
	};
	struct gg	g;
	struct marks	m;
	size_t		i;

	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		base(&g, &m, 3, 0);
		gg_set32(&g, m.ti_type[0], t[i].type);
		emit(&g, t[i].name, "warn", m.ti_type[0], "%s", t[i].msg);
	}

	/* Q4_0 rows are whole blocks of 32. */
	base(&g, &m, 3, 0);
	gg_set32(&g, m.ti_type[1], GG_T_Q4_0);
	gg_set64(&g, m.ti_dim[1][0], 33);
	emit(&g, "q4_0-ne0-33", "warn", m.ti_type[1],
	    "row of 33 elements is not a whole number of Q4_0 blocks of 32");
}

static void
names(void)
{
	struct gg	g;
	size_t		at;
	uint64_t	ne = 8;
	char		name[301];

	start(&g, 2, 1);
	gg_tensor(&g, "w", 1, &ne, GG_T_F32, 0);
	at = gg_pos(&g);
	gg_tensor(&g, "w", 1, &ne, GG_T_F32, 32);
	data(&g, 64, ALIGN);
	emit(&g, "tensor-duplicate", "warn", at, "duplicate tensor name");

	memset(name, 'n', 300);
	name[64] = '\0';
	start(&g, 1, 1);
	at = gg_pos(&g);
	gg_tensor(&g, name, 1, &ne, GG_T_F32, 0);
	data(&g, 32, ALIGN);
	emit(&g, "tensor-name-64", "warn", at,
	    "is 64 bytes (ggml loads at most 63)");

	name[63] = '\0';
	start(&g, 1, 1);
	gg_tensor(&g, name, 1, &ne, GG_T_F32, 0);
	data(&g, 32, ALIGN);
	emit(&g, "tensor-name-63", "ok", 0, "-");

	memset(name, 'n', 300);
	name[300] = '\0';
	start(&g, 1, 1);
	at = gg_pos(&g);
	gg_tensor(&g, name, 1, &ne, GG_T_F32, 0);
	data(&g, 32, ALIGN);
	emit(&g, "tensor-name-300", "warn", at,
	    "is 300 bytes (ggml loads at most 63)");

	start(&g, 1, 1);
	at = gg_pos(&g);
	gg_tensor(&g, "", 1, &ne, GG_T_F32, 0);
	data(&g, 32, ALIGN);
	emit(&g, "tensor-name-empty", "warn", at, "tensor with an empty name");
}

static void
layout(void)
{
	struct gg	g;
	struct marks	m;
	size_t		at;
	uint64_t	ne = 8;

	/* 32 bytes of F32 at 4096 in a file that has 32. */
	start(&g, 1, 1);
	at = f32_tensor(&g, "w", 8, 4096);
	data(&g, 32, ALIGN);
	emit(&g, "offset-past-eof", "warn", at,
	    "data [0x1000, +32) lies beyond the end of the file");

	/* No element, yet past the end: llama.cpp refuses its offset. */
	start(&g, 1, 1);
	at = f32_tensor(&g, "w", 0, 4096);
	data(&g, 32, ALIGN);
	emit(&g, "offset-past-eof-empty", "warn", at,
	    "data [0x1000, +0) lies beyond the end of the file");

	start(&g, 1, 1);
	at = f32_tensor(&g, "w", 8, 0xffffffffffffffe0ULL);
	data(&g, 32, ALIGN);
	emit(&g, "offset-max", "warn", at,
	    "data [0xffffffffffffffe0, +32) lies beyond the end of the file");

	start(&g, 2, 1);
	f32_tensor(&g, "a", 8, 0);
	at = f32_tensor(&g, "b", 8, 48);
	data(&g, 96, ALIGN);
	emit(&g, "offset-misaligned", "warn", at,
	    "data offset 0x30 is not a multiple of the alignment 32");

	start(&g, 2, 1);
	f32_tensor(&g, "a", 16, 0);
	at = f32_tensor(&g, "b", 8, 32);
	data(&g, 64, ALIGN);
	emit(&g, "overlap", "warn", at, "overlaps tensor");

	start(&g, 2, 1);
	f32_tensor(&g, "a", 8, 0);
	at = f32_tensor(&g, "b", 8, 96);
	data(&g, 128, ALIGN);
	emit(&g, "gap", "warn", at, "gap of 64 bytes before tensor");

	start(&g, 1, 1);
	at = f32_tensor(&g, "w", 8, 64);
	data(&g, 96, ALIGN);
	emit(&g, "gap-leading", "warn", at, "gap of 64 bytes before tensor");

	start(&g, 2, 1);
	f32_tensor(&g, "a", 8, 32);
	at = f32_tensor(&g, "b", 8, 0);
	data(&g, 64, ALIGN);
	emit(&g, "data-order", "warn", at,
	    "tensor data is not in tensor-info order");

	/* ggml's layout with the last tensor's padding missing. */
	start(&g, 1, 1);
	gg_tensor(&g, "w", 1, &ne, GG_T_F16, 0);
	gg_pad(&g, ALIGN);
	at = gg_pos(&g) + 16;
	gg_zeros(&g, 16);
	emit(&g, "no-final-padding", "warn", at,
	    "the last tensor is not followed by its alignment padding");

	/* An unknown-size tensor first: no gap can be told before the next. */
	base(&g, &m, 3, 0);
	gg_set32(&g, m.ti_type[0], 200);
	emit(&g, "unsized-then-sized", "warn", m.ti_type[0],
	    "type 200 has no known size");
}

static void
header(void)
{
	static const struct {
		const char	*name;
		uint32_t	 v;
	} ver[] = {
		{ "version-0", 0 }, { "version-4", 4 },
		{ "version-max", UINT32_MAX }, { "version-256", 256 },
	};
	static const char	lfs[] =
	    "version https://git-lfs.github.com/spec/v1\n"
	    "oid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2"
	    "ca24d17e2393\nsize 4368439584\n";
	struct gg	g;
	struct marks	m;
	size_t		i;

	for (i = 0; i < sizeof ver / sizeof ver[0]; i++) {
		base(&g, &m, 3, 0);
		gg_set32(&g, 4, ver[i].v);
		emit(&g, ver[i].name, "error", 4,
		    "unsupported GGUF version %u", (unsigned)ver[i].v);
	}
	base(&g, &m, 3, 1);
	gg_set32(&g, 4, 4);
	emit(&g, "be-version-4", "error", 4, "unsupported GGUF version 4");

	gg_init(&g, 3, 0);
	gg_bytes(&g, lfs, sizeof lfs - 1);
	emit(&g, "lfs-pointer", "error", 0, "this is a Git LFS pointer, not the model");

	base(&g, &m, 3, 0);
	memcpy(g.buf, "FUGG", 4);
	emit(&g, "magic-fugg", "error", 0, "bad magic");

	base(&g, &m, 3, 0);
	memcpy(g.buf, "ggjt", 4);
	emit(&g, "magic-ggjt", "error", 0, "not a GGUF file (magic");

	gg_init(&g, 3, 0);
	emit(&g, "empty", "error", 0, "empty file");

	gg_init(&g, 3, 0);
	gg_bytes(&g, "GGU", 3);
	emit(&g, "three-bytes", "error", 0,
	    "file ends inside the magic (3 bytes)");
}

/*
 * Writes DIR/POS-K.gguf for every byte position of FILE and each of the
 * four mutations K: the byte set to 0x00, 0xff, 0x80, and to itself + 1.
 */
static int
mutants(const char *file, const char *dir)
{
	FILE		*fp;
	struct gg	 g;
	uint8_t		 buf[65536], orig;
	size_t		 len, i;
	unsigned	 k;
	char		 path[4096];

	if ((fp = fopen(file, "rb")) == NULL) {
		fprintf(stderr, "gen_hostile: %s: %s\n", file, strerror(errno));
		return 1;
	}
	len = fread(buf, 1, sizeof buf, fp);
	if (ferror(fp) || !feof(fp)) {
		fprintf(stderr, "gen_hostile: %s: unreadable or too big\n",
		    file);
		fclose(fp);
		return 1;
	}
	fclose(fp);
	gg_init(&g, 3, 0);
	gg_bytes(&g, buf, len);
	for (i = 0; i < len; i++) {
		orig = g.buf[i];
		for (k = 0; k < 4; k++) {
			gg_set8(&g, i, k == 0 ? 0x00 : k == 1 ? 0xff :
			    k == 2 ? 0x80 : (uint8_t)(orig + 1));
			snprintf(path, sizeof path, "%s/%05zu-%u.gguf", dir, i,
			    k);
			if (gg_write(&g, path) != 0) {
				fprintf(stderr, "gen_hostile: %s: %s\n", path,
				    strerror(errno));
				return 1;
			}
		}
		gg_set8(&g, i, orig);
	}
	gg_free(&g);
	return 0;
}

int
main(int argc, char **argv)
{
	char	path[4096];

	if (argc == 4 && strcmp(argv[1], "--mutants") == 0)
		return mutants(argv[2], argv[3]);
	if (argc != 2) {
		fprintf(stderr, "usage: gen_hostile DIR\n"
		    "       gen_hostile --mutants FILE DIR\n");
		return 2;
	}
	outdir = argv[1];
	snprintf(path, sizeof path, "%s/expect.tsv", outdir);
	if ((manifest = fopen(path, "w")) == NULL) {
		fprintf(stderr, "gen_hostile: %s: %s\n", path, strerror(errno));
		return 1;
	}
	fprintf(manifest, "# name\toutcome\toffset\tsubstring\n");

	valid_controls();
	truncations();
	counts();
	strings();
	arrays();
	value_types();
	keys();
	alignment();
	shapes();
	tensor_types();
	names();
	layout();
	header();

	if (fclose(manifest) != 0) {
		fprintf(stderr, "gen_hostile: %s: %s\n", path, strerror(errno));
		return 1;
	}
	printf("%u files\n", n_cases);
	return 0;
}
