/*
 * gen_hostile_ui.c - files that are hard on a browser, for the TUI tests.
 *
 *	gen_hostile_ui DIR
 *
 * DIR/strings.gguf
 *	hostile.line	a 1 MiB string on one line
 *	KEY		keys and values holding terminal escapes: CSI (colour,
 *			clear screen, cursor moves), OSC 0 (title), OSC 52
 *			(clipboard write), OSC 8 (hyperlink), DCS, every C0
 *			control, DEL, C1 controls both as UTF-8 (U+009B) and as
 *			raw bytes, a right-to-left override, invalid UTF-8
 *			(0xff, an overlong '/', a surrogate, a cut sequence)
 *	hostile.array	10^6 u32 elements
 *	tokenizer.ggml.tokens	10^6 tokens, the hostile strings among them
 *			(at 0, 1, ..., and again at 999,990 and after)
 *
 * DIR/tensors.gguf	10^4 F32 tensors of one element, with 63-byte names
 *			(the longest ggml loads), and a hostile one.
 *
 * DIR/groups.gguf	10^5 tensors blk.N.w, each the one tensor of its group
 *			(blk.N) in the tensor tree.
 *
 * DIR/findings.gguf	500 findings: general.name 251 times (250 duplicate
 *			keys, errors of the reader) and 250 bool arrays
 *			holding a 2 (warnings of the model checks).
 *
 * The payloads carry recognisable markers (PWNED, SGVsbG8=, 31mRED) so a
 * test can search the bytes written to the terminal for them.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ggufgen.h"

#define LINE_LEN	(1u << 20)
#define N_ARRAY		1000000u
#define N_TOKENS	1000000u
#define N_TENSORS	10000u
#define N_FINDINGS	500u
#define N_GROUPS	100000u

static const char *const	hostile[] = {
	"csi \033[31mRED\033[0m \033[2J\033[H\033[10;10H moved",
	"osc0 \033]0;PWNED\007 title",
	"osc52 \033]52;c;SGVsbG8=\007 clipboard",
	"osc8 \033]8;;http://example.invalid/\033\\link\033]8;;\033\\",
	"dcs \033P1$r0m\033\\ done",
	("c0 \001\002\003\004\005\006\007\010\t\n\013\014\r\016\017\020\021"
	    "\022\023\024\025\026\027\030\031\032\033\034\035\036\037 del \177"),
	"c1 \302\233 31mRED \302\235 0;PWNED \302\220 raw \233 31mRED \235 x",
	"bidi \342\200\256 PWNED reversed \342\200\254",
	"utf8 \377 \376 \300\257 \355\240\200 cut \342\202",
};
#define N_HOSTILE	(sizeof hostile / sizeof hostile[0])

static int
strings(const char *dir)
{
	struct gg	 g;
	char		 path[4096], key[64], *line;
	uint32_t	 i;
	int		 rc;

	gg_init(&g, 3, 0);
	gg_header(&g, 0, 5 + 2 * N_HOSTILE);
	gg_kv_str(&g, "general.architecture", "llama");
	gg_kv_str(&g, "general.name", hostile[0]);
	line = malloc(LINE_LEN + 1);
	if (line == NULL)
		return 1;
	for (i = 0; i < LINE_LEN; i++)
		line[i] = (char)('a' + i % 26);
	memcpy(line + LINE_LEN - 8, "THE-END.", 8);
	line[LINE_LEN] = '\0';
	gg_kv_str(&g, "hostile.line", line);
	free(line);
	for (i = 0; i < N_HOSTILE; i++) {
		/* hostile value under a plain key, and as a key itself */
		snprintf(key, sizeof key, "hostile.value%u", i);
		gg_kv_str(&g, key, hostile[i]);
		gg_kv_str(&g, hostile[i], "a hostile key");
	}
	gg_kv_arr(&g, "hostile.array", GG_U32, N_ARRAY);
	for (i = 0; i < N_ARRAY; i++)
		gg_u32(&g, i * 7u);
	gg_kv_arr(&g, "tokenizer.ggml.tokens", GG_STR, N_TOKENS);
	for (i = 0; i < N_TOKENS; i++) {
		if (i < N_HOSTILE)
			gg_str(&g, hostile[i]);
		else if (i >= N_TOKENS - 10 && i - (N_TOKENS - 10) < N_HOSTILE)
			gg_str(&g, hostile[i - (N_TOKENS - 10)]);
		else {
			snprintf(key, sizeof key, "tok%u", i);
			gg_str(&g, key);
		}
	}
	snprintf(path, sizeof path, "%s/strings.gguf", dir);
	rc = gg_write(&g, path);
	gg_free(&g);
	return rc != 0;
}

static int
tensors(const char *dir)
{
	struct gg	 g;
	char		 path[4096], name[80];	/* cut to 63 below */
	uint64_t	 ne = 1;
	uint32_t	 i;
	int		 rc;

	gg_init(&g, 3, 0);
	gg_header(&g, N_TENSORS + 1, 1);
	gg_kv_str(&g, "general.architecture", "llama");
	for (i = 0; i < N_TENSORS; i++) {
		snprintf(name, sizeof name, "blk.%05u.a_tensor_name_exactly_"
		    "sixty_three_bytes_long_xxxxxxxxxxx", i);
		name[63] = '\0';
		gg_tensor(&g, name, 1, &ne, GG_T_F32, (uint64_t)i * 32);
	}
	gg_tensor(&g, "evil\033]0;PWNED\007\033[31mRED", 1, &ne, GG_T_F32,
	    (uint64_t)N_TENSORS * 32);
	gg_pad(&g, 32);
	for (i = 0; i <= N_TENSORS; i++) {
		gg_f32(&g, (float)i);
		gg_zeros(&g, 28);
	}
	snprintf(path, sizeof path, "%s/tensors.gguf", dir);
	rc = gg_write(&g, path);
	gg_free(&g);
	return rc != 0;
}

static int
groups(const char *dir)
{
	struct gg	 g;
	char		 path[4096], name[32];
	uint64_t	 ne = 1;
	uint32_t	 i;
	int		 rc;

	gg_init(&g, 3, 0);
	gg_header(&g, N_GROUPS, 1);
	gg_kv_str(&g, "general.architecture", "llama");
	for (i = 0; i < N_GROUPS; i++) {
		snprintf(name, sizeof name, "blk.%u.w", i);
		gg_tensor(&g, name, 1, &ne, GG_T_F32, (uint64_t)i * 32);
	}
	gg_pad(&g, 32);
	for (i = 0; i < N_GROUPS; i++) {
		gg_f32(&g, (float)i);
		gg_zeros(&g, 28);
	}
	snprintf(path, sizeof path, "%s/groups.gguf", dir);
	rc = gg_write(&g, path);
	gg_free(&g);
	return rc != 0;
}

static int
findings(const char *dir)
{
	struct gg	 g;
	char		 path[4096], key[32];
	uint32_t	 i;
	int		 rc;

	gg_init(&g, 3, 0);
	gg_header(&g, 0, 1 + N_FINDINGS + 1);
	gg_kv_str(&g, "general.architecture", "llama");
	for (i = 0; i <= N_FINDINGS / 2; i++)
		gg_kv_str(&g, "general.name", "again");
	for (i = 0; i < N_FINDINGS / 2; i++) {
		snprintf(key, sizeof key, "x.flags%03u", i);
		gg_kv_arr(&g, key, GG_BOOL, 1);
		gg_u8(&g, 2);
	}
	snprintf(path, sizeof path, "%s/findings.gguf", dir);
	rc = gg_write(&g, path);
	gg_free(&g);
	return rc != 0;
}

int
main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: gen_hostile_ui DIR\n");
		return 2;
	}
	return strings(argv[1]) || tensors(argv[1]) || groups(argv[1]) ||
	    findings(argv[1]);
}
