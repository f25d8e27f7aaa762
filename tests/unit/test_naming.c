/*
 * test_naming.c - the GGUF file-naming convention (naming.c): names that
 * follow it are split into their parts; a name that cannot follow it (no
 * ".gguf" at the end, no version "-vN") is answered without compiling the
 * specification's expression, which costs more than the rest of the
 * Summary. Linked with gguf_re_compile wrapped, to count the compiles.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "naming.h"
#include "re.h"
#include "tap.h"

static unsigned	compiles;

struct gguf_re	*__real_gguf_re_compile(const char *, unsigned,
		    struct gguf_err *);
struct gguf_re	*__wrap_gguf_re_compile(const char *, unsigned,
		    struct gguf_err *);

struct gguf_re *
__wrap_gguf_re_compile(const char *pat, unsigned flags, struct gguf_err *err)
{
	compiles++;
	return __real_gguf_re_compile(pat, flags, err);
}

/* part p of n is want ("" for absent). */
static int
part_is(const struct gguf_name *n, enum gguf_name_part p, const char *want)
{
	if (n->part[p].n != strlen(want))
		return 0;
	return n->part[p].n == 0 || memcmp(n->part[p].p, want,
	    strlen(want)) == 0;
}

int
main(void)
{
	static const char *const off[] = {
		"big-vocab.gguf", "model.bin", "llama-3-8b.Q4_K_M.gguf",
		"Mixtral-8x7B-v0.1-KQ2.gguf.part", "dir-v1/model.gguf",
		"Model-vX.gguf", "", "x.gguf",
	};
	struct gguf_name	n;
	struct gguf_err		err;
	size_t			i;
	unsigned		before;

	memset(&err, 0, sizeof err);

	for (i = 0; i < sizeof off / sizeof off[0]; i++) {
		before = compiles;
		ok(gguf_name_parse(off[i], &n, &err) == 0 && !n.matched &&
		    n.part[GGUF_NP_BASENAME].n == 0, "'%s' is off the "
		    "convention", off[i]);
		is_u64(compiles - before, 0, "'%s': told without compiling "
		    "the expression", off[i]);
	}

	before = compiles;
	ok(gguf_name_parse("/models/Mixtral-8x7B-v0.1-KQ2.gguf", &n, &err) ==
	    0 && n.matched, "Mixtral-8x7B-v0.1-KQ2.gguf follows it");
	ok(part_is(&n, GGUF_NP_BASENAME, "Mixtral") &&
	    part_is(&n, GGUF_NP_SIZELABEL, "8x7B") &&
	    part_is(&n, GGUF_NP_VERSION, "v0.1") &&
	    part_is(&n, GGUF_NP_ENCODING, "KQ2") &&
	    part_is(&n, GGUF_NP_SHARD, ""), "its parts, from the last path "
	    "component");
	is_u64(compiles - before, 1, "the expression compiled for it");

	ok(gguf_name_parse("Grok-100B-v1.0-Q4_0-00003-of-00009.gguf", &n,
	    &err) == 0 && n.matched && part_is(&n, GGUF_NP_SHARD,
	    "00003-of-00009") && part_is(&n, GGUF_NP_ENCODING, "Q4_0"),
	    "a shard's name: its Shard part");
	ok(gguf_name_parse("Hermes-2-Pro-Llama-3-8B-v1.0-F16.gguf", &n,
	    &err) == 0 && n.matched && part_is(&n, GGUF_NP_VERSION, "v1.0"),
	    "a base name of several words");

	/* It may match by its look, and does not: the expression says. */
	before = compiles;
	ok(gguf_name_parse("x-v1.gguf", &n, &err) == 0 && !n.matched,
	    "x-v1.gguf: a version but no room for it (the expression says "
	    "no)");
	is_u64(compiles - before, 1, "x-v1.gguf: the expression asked");

	return tap_done();
}
