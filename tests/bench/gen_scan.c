/*
 * gen_scan.c - writes a dense GGUF file of one tensor type for the data
 * scan benchmark.
 *
 *	gen_scan [--one] [--model] FILE TYPE MIB
 *
 * A little metadata, then TYPE tensors of 4096 x N elements (about 16 MiB
 * each, or with --one a single tensor) until the data reaches MIB
 * mebibytes. Every byte is written,
 * pseudo-random and seeded (the same file each time), except that each
 * block whose scale would be NaN or infinite is drawn again, and plain
 * values keep their exponents off all ones: a file as clean as a real
 * model's, so the benchmark times the scan, not the rare slow path.
 * Random bytes put a tensor's values over some forty octaves, many of them
 * subnormal; --model draws them as a model's are, within a few octaves:
 * halves and bfloats of 2^-8 to 1 in magnitude, block scales (and K-quant
 * minimums) of 2^-8 to 2^-7 (F16, BF16, Q8_0, Q4_0, Q4_K, Q5_K, Q6_K).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gguf.h"
#include "scan.h"
#include "../tools/ggufgen.h"

#define NE0		4096
#define TENSOR_MIB	16

static uint64_t
next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void
fill(uint8_t *p, size_t n, uint64_t *s)
{
	uint64_t	v;
	size_t		i;

	for (i = 0; i + 8 <= n; i += 8) {
		v = next(s);
		memcpy(p + i, &v, 8);
	}
	for (; i < n; i++)
		p[i] = (uint8_t)next(s);
}

/* Where --model puts its scales in a block: byte offsets, -1 for none. */
static const struct {
	uint32_t	type;
	int		scale[2];
} model_scales[] = {
	{ GGUF_T_F16, { -1, -1 } }, { GGUF_T_BF16, { -1, -1 } },
	{ GGUF_T_Q8_0, { 0, -1 } }, { GGUF_T_Q4_0, { 0, -1 } },
	{ GGUF_T_Q4_K, { 0, 2 } }, { GGUF_T_Q5_K, { 0, 2 } },
	{ GGUF_T_Q6_K, { 208, -1 } },
};

/* The rows made model-like (--model); -1 for a type it does not know. */
static int
model_rows(uint32_t type, uint8_t *p, size_t n, uint64_t *s)
{
	const struct gguf_type_info	*ti = gguf_ttype(type);
	uint64_t			 v, h;
	size_t				 i, k;
	int				 j;

	for (k = 0; k < sizeof model_scales / sizeof model_scales[0] &&
	    model_scales[k].type != type; k++)
		;
	if (k == sizeof model_scales / sizeof model_scales[0])
		return -1;
	for (i = 0; i < n; i += ti->bytes) {
		v = next(s);
		if (type == GGUF_T_F16 || type == GGUF_T_BF16) {
			h = type == GGUF_T_F16 ?
			    (v & 0x83ff) | (0x2000 + (v >> 16 & 7) * 0x400) :
			    (v & 0x807f) | (0x3b80 + (v >> 16 & 7) * 0x80);
			p[i] = (uint8_t)h;
			p[i + 1] = (uint8_t)(h >> 8);
			continue;
		}
		for (j = 0; j < 2; j++) {
			if (model_scales[k].scale[j] < 0)
				continue;
			h = 0x1c00 + (v >> (16 * j)) % 0x400;
			p[i + (size_t)model_scales[k].scale[j]] = (uint8_t)h;
			p[i + (size_t)model_scales[k].scale[j] + 1] =
			    (uint8_t)(h >> 8);
		}
	}
	return 0;
}

/* Random rows of a tensor, with finite values and valid scales. */
static void
make_rows(uint32_t type, uint8_t *p, size_t n, uint64_t *s)
{
	const struct gguf_type_info	*ti = gguf_ttype(type);
	struct gguf_scan		 sc;
	size_t				 i;

	fill(p, n, s);
	for (i = 0; i < n; i += ti->bytes) {
		if (ti->blck == 1) {
			/* clear the exponent's top bit: never all ones */
			p[i + ti->bytes - 1] &= 0xbf;
			continue;
		}
		for (;;) {
			gguf_scan_init(&sc);
			if (gguf_scan(type, 0, p + i, ti->bytes, 0, &sc,
			    NULL) != 0)
				exit(2);
			if (sc.first_bad == GGUF_SCAN_NONE &&
			    sc.nbadscale == 0)
				break;
			fill(p + i, ti->bytes, s);
		}
	}
}

int
main(int argc, char **argv)
{
	const struct gguf_type_info	*ti;
	struct gg			 g;
	uint64_t			 ne[2], n, i, seed = 0x9e3779b97f4a7c15ull;
	uint64_t			 rowbytes, tbytes, off = 0;
	uint64_t			 nt;
	uint8_t				*buf;
	char				 name[64];
	int				 type, fd, one = 0, model = 0;

	for (; argc > 1 && strncmp(argv[1], "--", 2) == 0; argc--, argv++) {
		if (strcmp(argv[1], "--one") == 0)
			one = 1;
		else if (strcmp(argv[1], "--model") == 0)
			model = 1;
		else
			break;
	}
	if (argc != 4 || (type = gguf_ttype_parse(argv[2])) < 0 ||
	    (ti = gguf_ttype((uint32_t)type)) == NULL || ti->blck == 0 ||
	    NE0 % ti->blck != 0 || atoi(argv[3]) < 16) {
		fprintf(stderr, "usage: gen_scan [--one] [--model] FILE TYPE "
		    "MIB (MIB >= 16)\n");
		return 2;
	}
	rowbytes = NE0 / ti->blck * ti->bytes;
	ne[0] = NE0;
	ne[1] = ((uint64_t)TENSOR_MIB << 20) / rowbytes;
	tbytes = ne[1] * rowbytes;
	n = ((uint64_t)atoi(argv[3]) << 20) / tbytes;
	nt = n;
	if (one) {
		/* the same data in one tensor: its pieces are written as the
		   tensors would be, so they must need no padding between */
		if (tbytes % 32 != 0) {
			fprintf(stderr, "gen_scan: --one: %s rows of %d "
			    "elements are not a multiple of 32 bytes\n",
			    argv[2], NE0);
			return 2;
		}
		ne[1] *= n;
		nt = 1;
	}
	gg_init(&g, 3, 0);
	gg_header(&g, nt, 3);
	/* No architecture llama.cpp knows: the model check has nothing to
	   say of a file that is all tensor data, and validate exits 0. */
	gg_kv_str(&g, "general.architecture", "scanbench");
	gg_kv_str(&g, "general.name", "scan bench");
	gg_kv_u32(&g, "general.quantization_version", 2);
	for (i = 0; i < nt; i++) {
		snprintf(name, sizeof name, "blk.%llu.ffn_up.weight",
		    (unsigned long long)i);
		gg_tensor(&g, name, 2, ne, (uint32_t)type, off);
		off += (tbytes + 31) / 32 * 32;
	}
	gg_pad(&g, 32);
	if (gg_write(&g, argv[1]) != 0)
		return 1;
	gg_free(&g);
	if ((fd = open(argv[1], O_WRONLY | O_APPEND)) < 0) {
		fprintf(stderr, "gen_scan: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	buf = calloc(1, tbytes + 32);
	for (i = 0; i < n; i++) {
		make_rows((uint32_t)type, buf, tbytes, &seed);
		if (model && model_rows((uint32_t)type, buf, tbytes,
		    &seed) != 0) {
			fprintf(stderr, "gen_scan: --model: no model-like "
			    "values of %s\n", argv[2]);
			return 2;
		}
		if (write(fd, buf, (tbytes + 31) / 32 * 32) !=
		    (ssize_t)((tbytes + 31) / 32 * 32)) {
			fprintf(stderr, "gen_scan: %s: %s\n", argv[1],
			    strerror(errno));
			return 1;
		}
	}
	free(buf);
	return close(fd) != 0;
}
