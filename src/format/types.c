/*
 * types.c - the one table of ggml tensor types, metadata value types,
 * general.file_type names and token type names.
 *
 * Block sizes and byte counts are those of ggml (ggml-common.h); ids 4, 5,
 * 31-33 and 36-38 were used once and removed, and are kept here only so that
 * a file naming them can be described ("removed type Q4_2").
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "gguf.h"
#include "internal.h"

#define Q	GGUF_TF_QUANT
#define F	GGUF_TF_FLOAT
#define I	GGUF_TF_INT
#define R	GGUF_TF_REMOVED

static const struct gguf_type_info ttypes[GGUF_T_COUNT] = {
	[0]  = { "F32",      "f32",      1,   4,   F },
	[1]  = { "F16",      "f16",      1,   2,   F },
	[2]  = { "Q4_0",     "q4_0",     32,  18,  Q },
	[3]  = { "Q4_1",     "q4_1",     32,  20,  Q },
	[4]  = { "Q4_2",     "q4_2",     0,   0,   R },
	[5]  = { "Q4_3",     "q4_3",     0,   0,   R },
	[6]  = { "Q5_0",     "q5_0",     32,  22,  Q },
	[7]  = { "Q5_1",     "q5_1",     32,  24,  Q },
	[8]  = { "Q8_0",     "q8_0",     32,  34,  Q },
	[9]  = { "Q8_1",     "q8_1",     32,  36,  Q },
	[10] = { "Q2_K",     "q2_K",     256, 84,  Q },
	[11] = { "Q3_K",     "q3_K",     256, 110, Q },
	[12] = { "Q4_K",     "q4_K",     256, 144, Q },
	[13] = { "Q5_K",     "q5_K",     256, 176, Q },
	[14] = { "Q6_K",     "q6_K",     256, 210, Q },
	[15] = { "Q8_K",     "q8_K",     256, 292, Q },
	[16] = { "IQ2_XXS",  "iq2_xxs",  256, 66,  Q },
	[17] = { "IQ2_XS",   "iq2_xs",   256, 74,  Q },
	[18] = { "IQ3_XXS",  "iq3_xxs",  256, 98,  Q },
	[19] = { "IQ1_S",    "iq1_s",    256, 50,  Q },
	[20] = { "IQ4_NL",   "iq4_nl",   32,  18,  Q },
	[21] = { "IQ3_S",    "iq3_s",    256, 110, Q },
	[22] = { "IQ2_S",    "iq2_s",    256, 82,  Q },
	[23] = { "IQ4_XS",   "iq4_xs",   256, 136, Q },
	[24] = { "I8",       "i8",       1,   1,   I },
	[25] = { "I16",      "i16",      1,   2,   I },
	[26] = { "I32",      "i32",      1,   4,   I },
	[27] = { "I64",      "i64",      1,   8,   I },
	[28] = { "F64",      "f64",      1,   8,   F },
	[29] = { "IQ1_M",    "iq1_m",    256, 56,  Q },
	[30] = { "BF16",     "bf16",     1,   2,   F },
	[31] = { "Q4_0_4_4", "q4_0_4x4", 0,   0,   R },
	[32] = { "Q4_0_4_8", "q4_0_4x8", 0,   0,   R },
	[33] = { "Q4_0_8_8", "q4_0_8x8", 0,   0,   R },
	[34] = { "TQ1_0",    "tq1_0",    256, 54,  Q },
	[35] = { "TQ2_0",    "tq2_0",    256, 66,  Q },
	[36] = { "IQ4_NL_4_4", "iq4_nl_4x4", 0, 0, R },
	[37] = { "IQ4_NL_4_8", "iq4_nl_4x8", 0, 0, R },
	[38] = { "IQ4_NL_8_8", "iq4_nl_8x8", 0, 0, R },
	[39] = { "MXFP4",    "mxfp4",    32,  17,  Q },
	[40] = { "NVFP4",    "nvfp4",    64,  36,  Q },
	[41] = { "Q1_0",     "q1_0",     128, 18,  Q },
	[42] = { "Q2_0",     "q2_0",     64,  18,  Q },
};

#undef Q
#undef F
#undef I
#undef R

const struct gguf_type_info *
gguf_ttype(uint32_t id)
{
	if (id >= GGUF_T_COUNT)
		return NULL;
	return &ttypes[id];
}

int
gguf_ttype_known(uint32_t id)
{
	return id < GGUF_T_COUNT && ttypes[id].blck != 0;
}

int
gguf_ttype_decodable(uint32_t id, int be, struct gguf_err *err)
{
	const struct gguf_type_info	*ti = gguf_ttype(id);

	if (ti == NULL || ti->name == NULL)
		return gguf_errf(err, -1, "unknown tensor type %u cannot be "
		    "decoded", (unsigned)id);
	if (ti->flags & GGUF_TF_REMOVED)
		return gguf_errf(err, -1, "type %s (id %u) was removed from "
		    "ggml and cannot be decoded", ti->name, (unsigned)id);
	if (be && (ti->flags & GGUF_TF_QUANT))
		return gguf_errf(err, -1, "quantized type %s in a big-endian "
		    "file cannot be decoded (no defined byte order)",
		    ti->name);
	return 0;
}

const char *
gguf_ttype_name(uint32_t id, char *buf)
{
	if (id < GGUF_T_COUNT)
		return ttypes[id].name;
	snprintf(buf, 24, "type %u", (unsigned)id);
	return buf;
}

int
gguf_ttype_parse(const char *s)
{
	int	i;

	for (i = 0; i < GGUF_T_COUNT; i++) {
		if (strcasecmp(s, ttypes[i].name) == 0 ||
		    strcasecmp(s, ttypes[i].lname) == 0)
			return i;
	}
	return -1;
}

int
gguf_ttype_nbytes(uint32_t id, const uint64_t ne[GGUF_MAX_DIMS],
    uint64_t *nbytes, struct gguf_err *err)
{
	const struct gguf_type_info	*ti = gguf_ttype(id);
	uint64_t			 size, nblocks;
	char				 buf[24];
	int				 i;

	if (ti == NULL || ti->blck == 0)
		return gguf_errf(err, -1, "%s%s has no known size",
		    ti != NULL ? "removed type " : "",
		    gguf_ttype_name(id, buf));
	if (ne[0] % ti->blck != 0)
		return gguf_errf(err, -1, "row of %llu elements is not a whole "
		    "number of %s blocks of %u", (unsigned long long)ne[0],
		    ti->name, ti->blck);
	nblocks = ne[0] / ti->blck;
	if (gguf_mul_ok(nblocks, ti->bytes, &size) != 0)
		goto overflow;
	for (i = 1; i < GGUF_MAX_DIMS; i++) {
		if (gguf_mul_ok(size, ne[i], &size) != 0)
			goto overflow;
	}
	/*
	 * No file holds more than 2^63-1 bytes, and a size just below 2^64
	 * (F32 with ne0 = 2^62-1) wraps to 0 when padded.
	 */
	if (size > INT64_MAX)
		goto overflow;
	*nbytes = size;
	return 0;
overflow:
	return gguf_errf(err, -1, "tensor byte size overflows (more than "
	    "2^63-1 bytes)");
}

int
gguf_ttype_nbytes_flat(uint32_t id, uint64_t nelem, uint64_t *nbytes,
    struct gguf_err *err)
{
	const struct gguf_type_info	*ti = gguf_ttype(id);
	uint64_t			 nblocks, size;
	char				 buf[24];

	if (ti == NULL || ti->blck == 0)
		return gguf_errf(err, -1, "%s%s has no known size",
		    ti != NULL ? "removed type " : "",
		    gguf_ttype_name(id, buf));
	nblocks = nelem / ti->blck + (nelem % ti->blck != 0);
	if (gguf_mul_ok(nblocks, ti->bytes, &size) != 0 || size > INT64_MAX)
		return gguf_errf(err, -1, "tensor byte size overflows (more "
		    "than 2^63-1 bytes)");
	*nbytes = size;
	return 0;
}

/* ------------------------------------------------------------ value types */

static const struct {
	const char	*name;
	unsigned	 size;
} vtypes[GGUF_VT_COUNT] = {
	[GGUF_VT_U8] = { "u8", 1 },	[GGUF_VT_I8] = { "i8", 1 },
	[GGUF_VT_U16] = { "u16", 2 },	[GGUF_VT_I16] = { "i16", 2 },
	[GGUF_VT_U32] = { "u32", 4 },	[GGUF_VT_I32] = { "i32", 4 },
	[GGUF_VT_F32] = { "f32", 4 },	[GGUF_VT_BOOL] = { "bool", 1 },
	[GGUF_VT_STR] = { "str", 0 },	[GGUF_VT_ARR] = { "arr", 0 },
	[GGUF_VT_U64] = { "u64", 8 },	[GGUF_VT_I64] = { "i64", 8 },
	[GGUF_VT_F64] = { "f64", 8 },
};

const char *
gguf_vtype_name(uint32_t vt)
{
	return vt < GGUF_VT_COUNT ? vtypes[vt].name : NULL;
}

unsigned
gguf_vtype_size(uint32_t vt)
{
	return vt < GGUF_VT_COUNT ? vtypes[vt].size : 0;
}

int
gguf_vtype_parse(const char *s, size_t n)
{
	int	i;

	if (n == 6 && memcmp(s, "string", 6) == 0)
		return GGUF_VT_STR;
	for (i = 0; i < GGUF_VT_COUNT; i++) {
		if (strlen(vtypes[i].name) == n &&
		    memcmp(s, vtypes[i].name, n) == 0)
			return i;
	}
	return -1;
}

const char *
gguf_vtype_text(uint32_t type, uint32_t atype, char *buf, size_t len)
{
	const char	*n;

	if (type == GGUF_VT_ARR) {
		n = gguf_vtype_name(atype);
		snprintf(buf, len, "arr[%s]", n != NULL ? n : "?");
	} else {
		n = gguf_vtype_name(type);
		snprintf(buf, len, "%s", n != NULL ? n : "?");
	}
	return buf;
}

int
gguf_vtype_parse_full(const char *s, size_t n, uint32_t *type,
    uint32_t *atype)
{
	int	t;

	*atype = 0;
	if (n > 5 && memcmp(s, "arr[", 4) == 0 && s[n - 1] == ']') {
		t = gguf_vtype_parse(s + 4, n - 5);
		if (t < 0 || t == GGUF_VT_ARR)
			return -1;
		*type = GGUF_VT_ARR;
		*atype = (uint32_t)t;
		return 0;
	}
	t = gguf_vtype_parse(s, n);
	if (t < 0 || t == GGUF_VT_ARR)
		return -1;
	*type = (uint32_t)t;
	return 0;
}

const char *const *
gguf_vtype_all(void)
{
	static const char *const	all[] = {
		"u8", "i8", "u16", "i16", "u32", "i32", "u64", "i64", "f32",
		"f64", "bool", "str", "arr[u8]", "arr[i8]", "arr[u16]",
		"arr[i16]", "arr[u32]", "arr[i32]", "arr[u64]", "arr[i64]",
		"arr[f32]", "arr[f64]", "arr[bool]", "arr[str]", NULL
	};

	return all;
}

/* ------------------------------------------------------ file and token types */

static const char *const file_types[] = {
	"ALL_F32", "MOSTLY_F16", "MOSTLY_Q4_0", "MOSTLY_Q4_1",
	"MOSTLY_Q4_1_SOME_F16", "MOSTLY_Q4_2 (removed)",
	"MOSTLY_Q4_3 (removed)", "MOSTLY_Q8_0", "MOSTLY_Q5_0", "MOSTLY_Q5_1",
	"MOSTLY_Q2_K", "MOSTLY_Q3_K_S", "MOSTLY_Q3_K_M", "MOSTLY_Q3_K_L",
	"MOSTLY_Q4_K_S", "MOSTLY_Q4_K_M", "MOSTLY_Q5_K_S", "MOSTLY_Q5_K_M",
	"MOSTLY_Q6_K", "MOSTLY_IQ2_XXS", "MOSTLY_IQ2_XS", "MOSTLY_Q2_K_S",
	"MOSTLY_IQ3_XS", "MOSTLY_IQ3_XXS", "MOSTLY_IQ1_S", "MOSTLY_IQ4_NL",
	"MOSTLY_IQ3_S", "MOSTLY_IQ3_M", "MOSTLY_IQ2_S", "MOSTLY_IQ2_M",
	"MOSTLY_IQ4_XS", "MOSTLY_IQ1_M", "MOSTLY_BF16",
	"MOSTLY_Q4_0_4_4 (removed)", "MOSTLY_Q4_0_4_8 (removed)",
	"MOSTLY_Q4_0_8_8 (removed)", "MOSTLY_TQ1_0", "MOSTLY_TQ2_0",
	"MOSTLY_MXFP4_MOE",
};

const char *
gguf_file_type_name(uint32_t ft)
{
	if (ft < sizeof(file_types) / sizeof(file_types[0]))
		return file_types[ft];
	return NULL;
}

static const char *const token_types[] = {
	"undefined", "normal", "unknown", "control", "user_defined",
	"unused", "byte",
};

const char *
gguf_token_type_name(int64_t tt)
{
	if (tt >= 0 && tt < (int64_t)(sizeof(token_types) / sizeof(token_types[0])))
		return token_types[tt];
	return NULL;
}
