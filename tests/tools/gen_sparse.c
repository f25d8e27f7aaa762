/*
 * gen_sparse.c - writes a GGUF file larger than 4 GiB that costs almost
 * no disk: its big tensor is a hole.
 *
 *	gen_sparse FILE [GIB]
 *
 * Three F32 tensors, laid out as ggml lays them out (alignment 32):
 *
 *	head	[8]		offset 0, values 1 .. 8
 *	hole	[2^30 + 64]	offset 32, 4 GiB + 256 bytes of zeros, never
 *				written (a hole)
 *	far	[16]		offset 2^32 + 288, above 2^32; values
 *				100 .. 115, written with pwrite past the hole
 *
 * The file ends right after "far"; its size is set with ftruncate. With
 * GIB, the hole is GIB GiB + 256 bytes instead (far moves with it): a
 * tensor that takes seconds to scan and no disk. With TOKENS, the header
 * holds a vocabulary of that many tokens ("token0", ...): a header of
 * more than a megabyte from 70,000.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ggufgen.h"

#define HOLE_NE		((1ull << 30) + 64)
#define FAR_OFF		(32 + hole_ne * 4)	/* 2^32 + 288, aligned */

int
main(int argc, char **argv)
{
	struct gg	 g;
	uint64_t	 ne;
	uint8_t		 v[16 * 4];
	uint32_t	 bits;
	size_t		 data_off;
	float		 x;
	uint64_t	 hole_ne = HOLE_NE;
	char		 tok[32];
	long		 ntok = 0, t;
	int		 fd, i, k;

	if (argc == 4)
		ntok = atol(argv[3]);
	if (argc >= 3 && argc <= 4 && atoi(argv[2]) > 0 &&
	    atoi(argv[2]) <= 1024 && ntok >= 0 && ntok <= 10000000)
		hole_ne = ((uint64_t)atoi(argv[2]) << 28) + 64;
	else if (argc != 2) {
		fprintf(stderr, "usage: gen_sparse FILE [GIB [TOKENS]]\n");
		return 2;
	}
	gg_init(&g, 3, 0);
	gg_header(&g, 3, ntok > 0 ? 3 : 2);
	gg_kv_str(&g, "general.architecture", "llama");
	gg_kv_str(&g, "general.name", "sparse");
	if (ntok > 0) {
		gg_kv_arr(&g, "tokenizer.ggml.tokens", GG_STR,
		    (uint64_t)ntok);
		for (t = 0; t < ntok; t++) {
			snprintf(tok, sizeof tok, "token%ld", t);
			gg_str(&g, tok);
		}
	}
	ne = 8;
	gg_tensor(&g, "head", 1, &ne, GG_T_F32, 0);
	ne = hole_ne;
	gg_tensor(&g, "hole", 1, &ne, GG_T_F32, 32);
	ne = 16;
	gg_tensor(&g, "far", 1, &ne, GG_T_F32, FAR_OFF);
	gg_pad(&g, 32);
	data_off = gg_pos(&g);
	for (i = 0; i < 8; i++)
		gg_f32(&g, (float)(i + 1));
	if (gg_write(&g, argv[1]) != 0)
		return 1;
	gg_free(&g);

	for (i = 0; i < 16; i++) {		/* little-endian floats */
		x = (float)(100 + i);
		memcpy(&bits, &x, 4);
		for (k = 0; k < 4; k++)
			v[4 * i + k] = (uint8_t)(bits >> (8 * k));
	}
	if ((fd = open(argv[1], O_WRONLY)) < 0 ||
	    pwrite(fd, v, sizeof v, (off_t)(data_off + FAR_OFF)) !=
	    (ssize_t)sizeof v ||
	    ftruncate(fd, (off_t)(data_off + FAR_OFF + sizeof v)) != 0 ||
	    close(fd) != 0) {
		fprintf(stderr, "gen_sparse: %s: %s\n", argv[1],
		    strerror(errno));
		return 1;
	}
	return 0;
}
