/*
 * gen_legacy.c - writes a GGUF v2 file as early converters wrote some:
 * Q8_0 tensors whose rows are not whole blocks of 32, their blocks
 * running on across the rows (current ggml refuses such tensors).
 *
 *	gen_legacy FILE
 *
 * Three tensors, laid out as ggml lays them out (alignment 32):
 *
 *	cross	Q8_0 [33, 3]	99 elements in 4 blocks (136 bytes, the
 *				last block holds 3 elements and 29 unused)
 *	even	Q8_0 [48, 2]	96 elements in 3 blocks (102 bytes)
 *	plain	F32  [4]	1, 2, 3, 4
 *
 * Block b of a Q8_0 tensor has the scale (b + 1) / 4 (exact in f16) and
 * the quants j - 16 for j = 0 .. 31, so element i of the run is
 * (i / 32 + 1) / 4 * (i % 32 - 16): element 32 of "cross" (the last of
 * row 0) is -8, element 33 (the first of row 1) is -7.5. The unused
 * quants of the last block of "cross" are the same pattern; nothing may
 * show them.
 */
#include "config.h"

#include <stdio.h>

#include "ggufgen.h"

static const uint16_t	scale_f16[] = {
	0x3400, 0x3800, 0x3a00, 0x3c00		/* 0.25 0.5 0.75 1 */
};

static void
q8_0_blocks(struct gg *g, unsigned nblocks)
{
	unsigned	b, j;

	for (b = 0; b < nblocks; b++) {
		gg_u16(g, scale_f16[b]);
		for (j = 0; j < 32; j++)
			gg_u8(g, (uint8_t)(int8_t)((int)j - 16));
	}
}

int
main(int argc, char **argv)
{
	struct gg	g;
	uint64_t	ne[2];
	int		i, rc;

	if (argc != 2) {
		fprintf(stderr, "usage: gen_legacy FILE\n");
		return 2;
	}
	gg_init(&g, 2, 0);
	gg_header(&g, 3, 2);
	gg_kv_str(&g, "general.architecture", "llama");
	gg_kv_str(&g, "general.name", "legacy");
	ne[0] = 33;
	ne[1] = 3;
	gg_tensor(&g, "cross", 2, ne, GG_T_Q8_0, 0);
	ne[0] = 48;
	ne[1] = 2;
	gg_tensor(&g, "even", 2, ne, GG_T_Q8_0, 160);
	ne[0] = 4;
	gg_tensor(&g, "plain", 1, ne, GG_T_F32, 288);
	gg_pad(&g, 32);
	q8_0_blocks(&g, 4);		/* 136 bytes */
	gg_pad(&g, 32);
	q8_0_blocks(&g, 3);		/* 102 bytes at 160 */
	gg_pad(&g, 32);
	for (i = 1; i <= 4; i++)	/* at 288 */
		gg_f32(&g, (float)i);
	gg_pad(&g, 32);
	rc = gg_write(&g, argv[1]);
	gg_free(&g);
	return rc != 0;
}
