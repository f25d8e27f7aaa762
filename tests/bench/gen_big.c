/*
 * gen_big.c - writes a dense model-like GGUF file for the save benchmark.
 *
 *	gen_big FILE MIB
 *
 * Metadata like a real model's (llama hyper-parameters, a 150,000-token
 * vocabulary, a chat template), then F16 tensors of 16 MiB each until the
 * data reaches MIB mebibytes, every byte written (pseudo-random, seeded:
 * the same file each time). Dense on purpose: a sparse data section
 * would let copies skip holes and flatter every copy time.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../tools/ggufgen.h"

#define N_VOCAB		150000
#define TENSOR_MIB	16
#define CHUNK		(4u << 20)

static uint64_t
next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

int
main(int argc, char **argv)
{
	struct gg	 g;
	uint64_t	 ne[2] = { 4096, TENSOR_MIB * 1024 * 1024 / 2 / 4096 };
	uint64_t	 seed = 0x9e3779b97f4a7c15ULL, i, n, done, total;
	uint64_t	*buf;
	size_t		 k;
	char		 name[64], tok[32];
	int		 fd;
	ssize_t		 w;

	if (argc != 3 || (n = strtoull(argv[2], NULL, 10) / TENSOR_MIB) == 0) {
		fprintf(stderr, "usage: gen_big FILE MIB\n");
		return 2;
	}
	gg_init(&g, 3, 0);
	gg_header(&g, n, 8);
	gg_kv_str(&g, "general.architecture", "llama");
	gg_kv_str(&g, "general.name", "Bench Dense");
	gg_kv_u32(&g, "llama.block_count", (uint32_t)n);
	gg_kv_u32(&g, "llama.embedding_length", 4096);
	gg_kv_f32(&g, "llama.rope.freq_base", 500000.0f);
	gg_kv_str(&g, "tokenizer.ggml.model", "gpt2");
	gg_kv_arr(&g, "tokenizer.ggml.tokens", GG_STR, N_VOCAB);
	for (i = 0; i < N_VOCAB; i++) {
		snprintf(tok, sizeof tok, "tok%llu", (unsigned long long)i);
		gg_str(&g, tok);
	}
	gg_kv_str(&g, "tokenizer.chat_template",
	    "{% for m in messages %}<|{{ m.role }}|>{{ m.content }}{% endfor %}");
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof name, "blk.%llu.ffn_up.weight",
		    (unsigned long long)i);
		gg_tensor(&g, name, 2, ne, GG_T_F16,
		    i * TENSOR_MIB * 1024 * 1024);
	}
	gg_pad(&g, 32);
	if (gg_write(&g, argv[1]) != 0) {
		perror(argv[1]);
		return 1;
	}
	gg_free(&g);

	fd = open(argv[1], O_WRONLY | O_APPEND);
	buf = malloc(CHUNK);
	if (fd < 0 || buf == NULL) {
		perror(argv[1]);
		return 1;
	}
	total = n * TENSOR_MIB * 1024 * 1024;
	for (done = 0; done < total; done += CHUNK) {
		for (k = 0; k < CHUNK / 8; k++)
			buf[k] = next(&seed) & 0x3bff3bff3bff3bffULL;	/* finite f16 */
		for (k = 0; k < CHUNK; k += (size_t)w) {
			w = write(fd, (char *)buf + k, CHUNK - k);
			if (w <= 0) {
				perror("write");
				return 1;
			}
		}
	}
	free(buf);
	return close(fd) == 0 ? 0 : 1;
}
