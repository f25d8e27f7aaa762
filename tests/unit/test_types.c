/*
 * test_types.c - the type tables agree with ggml's published sizes and
 * name every id.
 */
#include "config.h"

#include <string.h>

#include "gguf.h"
#include "tap.h"

int
main(void)
{
	static const struct { uint32_t id; const char *name; uint32_t blck, bytes; } want[] = {
		{ 0, "F32", 1, 4 }, { 1, "F16", 1, 2 }, { 2, "Q4_0", 32, 18 },
		{ 3, "Q4_1", 32, 20 }, { 6, "Q5_0", 32, 22 }, { 7, "Q5_1", 32, 24 },
		{ 8, "Q8_0", 32, 34 }, { 9, "Q8_1", 32, 36 }, { 10, "Q2_K", 256, 84 },
		{ 11, "Q3_K", 256, 110 }, { 12, "Q4_K", 256, 144 },
		{ 13, "Q5_K", 256, 176 }, { 14, "Q6_K", 256, 210 },
		{ 15, "Q8_K", 256, 292 }, { 16, "IQ2_XXS", 256, 66 },
		{ 17, "IQ2_XS", 256, 74 }, { 18, "IQ3_XXS", 256, 98 },
		{ 19, "IQ1_S", 256, 50 }, { 20, "IQ4_NL", 32, 18 },
		{ 21, "IQ3_S", 256, 110 }, { 22, "IQ2_S", 256, 82 },
		{ 23, "IQ4_XS", 256, 136 }, { 24, "I8", 1, 1 }, { 25, "I16", 1, 2 },
		{ 26, "I32", 1, 4 }, { 27, "I64", 1, 8 }, { 28, "F64", 1, 8 },
		{ 29, "IQ1_M", 256, 56 }, { 30, "BF16", 1, 2 },
		{ 34, "TQ1_0", 256, 54 }, { 35, "TQ2_0", 256, 66 },
		{ 39, "MXFP4", 32, 17 }, { 40, "NVFP4", 64, 36 },
		{ 41, "Q1_0", 128, 18 }, { 42, "Q2_0", 64, 18 },
	};
	static const uint32_t removed[] = { 4, 5, 31, 32, 33, 36, 37, 38 };
	const struct gguf_type_info	*ti;
	struct gguf_err			 err;
	uint64_t			 ne[4] = { 256, 3, 2, 1 }, nb;
	char				 buf[24];
	size_t				 i;

	for (i = 0; i < sizeof want / sizeof want[0]; i++) {
		ti = gguf_ttype(want[i].id);
		ok(ti != NULL && strcmp(ti->name, want[i].name) == 0 &&
		    ti->blck == want[i].blck && ti->bytes == want[i].bytes,
		    "type %u is %s, %u elements in %u bytes", want[i].id,
		    want[i].name, want[i].blck, want[i].bytes);
		ok(gguf_ttype_parse(want[i].name) == (int)want[i].id,
		    "parse %s", want[i].name);
	}
	for (i = 0; i < sizeof removed / sizeof removed[0]; i++) {
		ti = gguf_ttype(removed[i]);
		ok(ti != NULL && (ti->flags & GGUF_TF_REMOVED) &&
		    !gguf_ttype_known(removed[i]), "type %u is removed",
		    removed[i]);
		ok(gguf_ttype_nbytes(removed[i], ne, &nb, &err) == -1 &&
		    strstr(err.msg, "removed") != NULL,
		    "removed type %u cannot be sized: %s", removed[i], err.msg);
	}
	ok(gguf_ttype(43) == NULL, "id 43 is beyond the table");
	ok(strcmp(gguf_ttype_name(43, buf), "type 43") == 0, "unknown id named 'type 43'");
	ok(strcmp(gguf_ttype_name(0xffffffffu, buf), "type 4294967295") == 0,
	    "largest id named");
	ok(gguf_ttype_parse("q4_k") == GGUF_T_Q4_K, "parse is case-insensitive");
	ok(gguf_ttype_parse("Q9_9") == -1, "unknown name refused");

	ok(gguf_ttype_nbytes(GGUF_T_Q4_K, ne, &nb, &err) == 0 && nb == 144 * 6,
	    "Q4_K 256x3x2 is 864 bytes");
	ne[0] = 100;
	ok(gguf_ttype_nbytes(GGUF_T_Q4_K, ne, &nb, &err) == -1 &&
	    strstr(err.msg, "whole number") != NULL, "partial block refused");
	ne[0] = (1ULL << 62) - 1; ne[1] = ne[2] = ne[3] = 1;
	ok(gguf_ttype_nbytes(GGUF_T_F32, ne, &nb, &err) == -1 &&
	    strstr(err.msg, "overflow") != NULL, "F32 2^62-1 overflows");
	ne[0] = 1ULL << 32; ne[1] = 1ULL << 32;
	ok(gguf_ttype_nbytes(GGUF_T_F32, ne, &nb, &err) == -1,
	    "2^32 x 2^32 F32 overflows");

	for (i = 0; i < GGUF_VT_COUNT; i++)
		ok(gguf_vtype_parse(gguf_vtype_name((uint32_t)i),
		    strlen(gguf_vtype_name((uint32_t)i))) == (int)i,
		    "value type %zu round-trips through its name", i);
	ok(gguf_vtype_name(13) == NULL, "value type 13 unknown");
	ok(gguf_vtype_size(GGUF_VT_U64) == 8 && gguf_vtype_size(GGUF_VT_STR) == 0,
	    "value type sizes");
	ok(strcmp(gguf_file_type_name(15), "MOSTLY_Q4_K_M") == 0, "file type 15");
	ok(gguf_file_type_name(1000) == NULL, "file type 1000 unknown");
	ok(strcmp(gguf_token_type_name(3), "control") == 0, "token type 3");
	ok(gguf_token_type_name(-1) == NULL, "token type -1 unknown");
	return tap_done();
}
