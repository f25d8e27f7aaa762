/*
 * gen_validate.c - writes the model `ggufed validate --data` is tested
 * on: well-formed, of an architecture the model check does not know (its
 * tensors are no llama's), with the hyper-parameters every model needs,
 * and three F32 tensors laid out as ggml lays them out (alignment 32):
 *
 *	blk.0.bad	[4]	1, NaN, +Inf, -Inf
 *	blk.0.zero	[8]	all zeros
 *	blk.0.good	[4]	1, 2, 3, 4
 *
 * With --bool, a small file instead whose key x.flags is a bool array
 * holding 0, 1, 2, 1, 255: two elements readers may read as true or
 * refuse.
 *
 * With --scales, two quantized tensors with invalid block scales:
 *
 *	blk.0.q8	[64, 2] Q8_0	block 2's d is +Inf, its quants
 *					-16 .. 15 (1 NaN, 15 +Inf, 16 -Inf)
 *	blk.0.mx	[64] MXFP4	block 1's scale byte is 0xff, its
 *					values all 1 (2^127 to ggml: finite)
 *
 * With --many, 300 keys that break the naming rules (a note each), then
 * general.name twice (an error, past the 256 findings the reader keeps).
 *
 * With --blocks N, a llama whose llama.block_count is 4294967295 (more
 * blocks than llama.cpp loads) and N F32 tensors of 8 elements, one a
 * block: blk.I.attn_norm.weight for I from 0 to N - 1.
 *
 * With --pieces, two F16 tensors larger than the pieces the data check
 * and the span reader read a mapping in (1 MiB; 4 MiB mapped in at a
 * time), values 1 but for non-finite ones on both sides of each boundary:
 *
 *	blk.0.big	[4096, 1280] F16	NaN at element 524287 (the last
 *			of the first MiB), +Inf at 524288, -Inf at 2097151
 *			(the last of the fourth MiB), NaN at 2097152 and
 *			-Inf at the last element, 5242879
 *	blk.0.next	[4096, 2] F16	+Inf at its first element
 *
 *	gen_validate [--bool | --scales | --many | --blocks N | --pieces] FILE
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ggufgen.h"

int
main(int argc, char **argv)
{
	struct gg	g;
	uint64_t	ne;
	int		i, rc;

	if (argc == 3 && strcmp(argv[1], "--bool") == 0) {
		gg_init(&g, 3, 0);
		gg_header(&g, 0, 2);
		gg_kv_str(&g, "general.architecture", "llama");
		gg_kv_arr(&g, "x.flags", GG_BOOL, 5);
		gg_u8(&g, 0);
		gg_u8(&g, 1);
		gg_u8(&g, 2);
		gg_u8(&g, 1);
		gg_u8(&g, 255);
		gg_pad(&g, 32);
		rc = gg_write(&g, argv[2]);
		gg_free(&g);
		return rc != 0;
	}
	if (argc == 3 && strcmp(argv[1], "--scales") == 0) {
		uint64_t	ne2[2] = { 64, 2 };
		int		b, j;

		gg_init(&g, 3, 0);
		gg_header(&g, 2, 2);
		gg_kv_str(&g, "general.architecture", "datatest");
		gg_kv_u32(&g, "general.quantization_version", 2);
		gg_tensor(&g, "blk.0.q8", 2, ne2, GG_T_Q8_0, 0);
		ne = 64;
		gg_tensor(&g, "blk.0.mx", 1, &ne, 39 /* MXFP4 */, 160);
		gg_pad(&g, 32);
		for (b = 0; b < 4; b++) {
			gg_u16(&g, b == 2 ? 0x7c00 : 0x3c00);
			for (j = 0; j < 32; j++)
				gg_u8(&g, (uint8_t)(b == 2 ? j - 16 : 1));
		}
		gg_pad(&g, 32);
		gg_u8(&g, 127);
		gg_fill(&g, 0x22, 16);
		gg_u8(&g, 0xff);
		gg_fill(&g, 0x11, 16);
		gg_pad(&g, 32);
		rc = gg_write(&g, argv[2]);
		gg_free(&g);
		return rc != 0;
	}
	if (argc == 3 && strcmp(argv[1], "--many") == 0) {
		char	key[32];

		gg_init(&g, 3, 0);
		gg_header(&g, 0, 303);
		gg_kv_str(&g, "general.architecture", "llama");
		for (i = 0; i < 300; i++) {
			snprintf(key, sizeof key, "Bad Key %d", i);
			gg_kv_u8(&g, key, 1);
		}
		gg_kv_str(&g, "general.name", "one");
		gg_kv_str(&g, "general.name", "two");
		gg_pad(&g, 32);
		rc = gg_write(&g, argv[2]);
		gg_free(&g);
		return rc != 0;
	}
	if (argc == 4 && strcmp(argv[1], "--blocks") == 0) {
		char		name[48];
		unsigned long	n = strtoul(argv[2], NULL, 10), t;

		gg_init(&g, 3, 0);
		gg_header(&g, n, 5);
		gg_kv_str(&g, "general.architecture", "llama");
		gg_kv_u32(&g, "llama.block_count", 4294967295u);
		gg_kv_u32(&g, "llama.context_length", 16);
		gg_kv_u32(&g, "llama.embedding_length", 8);
		gg_kv_u32(&g, "llama.attention.head_count", 2);
		ne = 8;
		for (t = 0; t < n; t++) {
			snprintf(name, sizeof name, "blk.%lu.attn_norm.weight",
			    t);
			gg_tensor(&g, name, 1, &ne, GG_T_F32, 32 * t);
		}
		gg_pad(&g, 32);
		for (t = 0; t < n; t++)
			gg_zeros(&g, 32);
		rc = gg_write(&g, argv[3]);
		gg_free(&g);
		return rc != 0;
	}
	if (argc == 3 && strcmp(argv[1], "--pieces") == 0) {
		uint64_t	dims[2] = { 4096, 1280 }, e, n = 4096 * 1280;

		gg_init(&g, 3, 0);
		gg_header(&g, 2, 5);
		gg_kv_str(&g, "general.architecture", "datatest");
		gg_kv_str(&g, "general.name", "pieces");
		gg_kv_u32(&g, "datatest.context_length", 16);
		gg_kv_u32(&g, "datatest.embedding_length", 4096);
		gg_kv_u32(&g, "datatest.block_count", 1);
		gg_tensor(&g, "blk.0.big", 2, dims, GG_T_F16, 0);
		dims[1] = 2;
		gg_tensor(&g, "blk.0.next", 2, dims, GG_T_F16, 2 * n);
		gg_pad(&g, 32);
		for (e = 0; e < n; e++)
			gg_u16(&g, e == 524287 || e == 2097152 ? 0x7e00 :
			    e == 524288 ? 0x7c00 : e == 2097151 ||
			    e == n - 1 ? 0xfc00 : 0x3c00);
		for (e = 0; e < 2 * 4096; e++)
			gg_u16(&g, e == 0 ? 0x7c00 : 0x3c00);
		gg_pad(&g, 32);
		rc = gg_write(&g, argv[2]);
		gg_free(&g);
		return rc != 0;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: gen_validate [--bool | --scales | --many "
		    "| --blocks N | --pieces] FILE\n");
		return 2;
	}
	gg_init(&g, 3, 0);
	gg_header(&g, 3, 5);
	gg_kv_str(&g, "general.architecture", "datatest");
	gg_kv_str(&g, "general.name", "validate");
	gg_kv_u32(&g, "datatest.context_length", 16);
	gg_kv_u32(&g, "datatest.embedding_length", 4);
	gg_kv_u32(&g, "datatest.block_count", 1);
	ne = 4;
	gg_tensor(&g, "blk.0.bad", 1, &ne, GG_T_F32, 0);
	ne = 8;
	gg_tensor(&g, "blk.0.zero", 1, &ne, GG_T_F32, 32);
	ne = 4;
	gg_tensor(&g, "blk.0.good", 1, &ne, GG_T_F32, 64);
	gg_pad(&g, 32);
	gg_f32(&g, 1.0f);
	gg_f32(&g, NAN);
	gg_f32(&g, INFINITY);
	gg_f32(&g, -INFINITY);
	gg_pad(&g, 32);
	for (i = 0; i < 8; i++)
		gg_f32(&g, 0.0f);
	for (i = 1; i <= 4; i++)
		gg_f32(&g, (float)i);
	gg_pad(&g, 32);
	rc = gg_write(&g, argv[1]);
	gg_free(&g);
	return rc != 0;
}
