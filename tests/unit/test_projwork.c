/*
 * test_projwork.c - the work of holding a projector to its type's block
 * tensors is that of one pass over the names, whatever the block count:
 * a projector of many tensors and a block count of billions takes no
 * look-up by name a block and a pattern (it took millions a pattern of a
 * file of millions of tensors). Linked with gguf_tensor_find wrapped, to
 * count the look-ups.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gguf.h"
#include "check.h"
#include "kind.h"
#include "tap.h"
#include "../tools/ggufgen.h"

#define N_MANY	20000

static unsigned long	lookups;

int64_t	__real_gguf_tensor_find(const struct gguf_file *, const char *,
	    size_t);
int64_t	__wrap_gguf_tensor_find(const struct gguf_file *, const char *,
	    size_t);

int64_t
__wrap_gguf_tensor_find(const struct gguf_file *f, const char *name,
    size_t n)
{
	lookups++;
	return __real_gguf_tensor_find(f, name, n);
}

struct found {
	char	text[4096];
};

static void
finding(void *arg, int level, const char *file, int64_t off,
    const char *msg)
{
	struct found	*fd = arg;
	size_t		 n = strlen(fd->text);

	(void)level;
	(void)file;
	(void)off;
	snprintf(fd->text + n, sizeof fd->text - n, "%s\n", msg);
}

int
main(void)
{
	static const char *const blk[] = {
		"v.blk.0.attn_out.weight", "v.blk.0.attn_out.weight",
		"v.blk.01.attn_out.weight", "v.blk.1.ffn_up.weight"
	};
	struct gg		 g;
	struct gguf_file	*f;
	struct gguf_err		 err;
	struct found		 fd;
	uint64_t		 ne[1] = { 1 }, i, nt = N_MANY + 4;
	char			 name[32];

	gg_init(&g, 3, 0);
	gg_header(&g, nt, 5);
	gg_kv_str(&g, "general.architecture", "clip");
	gg_kv_str(&g, "clip.projector_type", "gemma3");
	gg_kv_bool(&g, "clip.has_vision_encoder", 1);
	gg_kv_u32(&g, "clip.vision.block_count", 4000000000u);
	gg_kv_u32(&g, "clip.vision.embedding_length", 8);
	for (i = 0; i < 4; i++)
		gg_tensor(&g, blk[i], 1, ne, 0, 32 * i);
	for (i = 4; i < nt; i++) {
		snprintf(name, sizeof name, "x.%llu", (unsigned long long)i);
		gg_tensor(&g, name, 1, ne, 0, 32 * i);
	}
	gg_pad(&g, 32);
	gg_zeros(&g, 32 * nt);
	f = gguf_open_buffer(g.buf, g.len, &err);
	if (!ok(f != NULL, "a projector of %llu tensors opens",
	    (unsigned long long)nt))
		return tap_done();
	memset(&fd, 0, sizeof fd);
	lookups = 0;
	(void)gguf_kind_check(f, NULL, finding, &fd);
	ok(lookups < N_MANY / 4, "%lu look-ups by name, not one a block "
	    "and a pattern", lookups);
	ok(strstr(fd.text, "v.blk.1.attn_out.weight is missing, and so is "
	    "its block's in 3999999998 more blocks") != NULL,
	    "block 0's tensor, named twice, counts once; block 01's is no "
	    "block 1's");
	ok(strstr(fd.text, "v.blk.0.ffn_up.weight is missing, and so is "
	    "its block's in 3999999998 more blocks") != NULL,
	    "block 1's tensor counts, block 0's is the first missing");
	ok(strstr(fd.text, "v.blk.0.ffn_down.weight is missing, and so is "
	    "its block's in 3999999999 more blocks") != NULL,
	    "a tensor of no block: every block's missing");
	if (tap_failed)
		printf("%s", fd.text);
	gguf_close(f);
	gg_free(&g);
	return tap_done();
}
