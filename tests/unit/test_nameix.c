/*
 * test_nameix.c - the name index every lookup by name goes through: the
 * reader's keys and tensor names, the document's, the browser's groups.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gguf.h"
#include "nameix.h"
#include "tap.h"

#define N_MANY	5000

/* The owner: entry i is called names[i]. */
struct owner {
	struct gguf_str	*names;
	uint64_t	 calls;		/* name() calls, to see the probes */
};

static struct gguf_str
name_of(void *ctx, uint64_t i)
{
	struct owner	*o = ctx;

	o->calls++;
	return o->names[i];
}

static struct gguf_str
str(const char *p, size_t n)
{
	struct gguf_str	s = { p, n };

	return s;
}

static int64_t
find(const struct gguf_nameix *ix, const char *s)
{
	return gguf_nameix_find(ix, s, strlen(s));
}

int
main(void)
{
	static const char	nul_a[] = { 'k', '\0', 'a' };
	static const char	nul_b[] = { 'k', '\0', 'b' };
	struct gguf_str		 names[8], *many;
	struct gguf_nameix	 ix;
	struct owner		 o = { names, 0 };
	char			(*buf)[16];
	uint64_t		 i;
	int			 all = 1;

	names[0] = str("general.name", 12);
	names[1] = str("general.architecture", 20);
	names[2] = str("general.name", 12);		/* again */
	names[3] = str(NULL, 0);			/* the empty name */
	names[4] = str(nul_a, sizeof nul_a);
	names[5] = str(nul_b, sizeof nul_b);
	names[6] = str("general", 7);			/* a prefix */
	names[7] = str("", 0);				/* empty again */

	gguf_nameix_init(&ix, name_of, &o, 8);
	ok(find(&ix, "general.name") == -1, "an empty index finds nothing");
	is_u64(gguf_nameix_add(&ix, 0), (uint64_t)-1, "a new name is added");
	is_u64(gguf_nameix_add(&ix, 1), (uint64_t)-1, "another is added");
	is_u64(gguf_nameix_add(&ix, 2), 0,
	    "adding a name that is there gives its entry, the first");
	is_u64(ix.n, 2, "and leaves the index as it was");
	is_u64(find(&ix, "general.name"), 0, "found by name");
	is_u64(find(&ix, "general.architecture"), 1, "the other too");
	ok(find(&ix, "general") == -1, "a prefix of a name is not the name");
	ok(find(&ix, "general.names") == -1, "nor a longer name");
	ok(gguf_nameix_find(&ix, "general.name", 11) == -1,
	    "the length counts, not a terminating NUL");

	is_u64(gguf_nameix_add(&ix, 3), (uint64_t)-1,
	    "the empty name is a name");
	is_u64(gguf_nameix_find(&ix, "", 0), 3, "and is found");
	is_u64(gguf_nameix_add(&ix, 7), 3,
	    "an empty name with a pointer is the same empty name");
	is_u64(gguf_nameix_add(&ix, 4), (uint64_t)-1, "a name with a NUL byte");
	is_u64(gguf_nameix_add(&ix, 5), (uint64_t)-1,
	    "and one that differs only after the NUL");
	is_u64(gguf_nameix_find(&ix, nul_b, sizeof nul_b), 5,
	    "bytes after a NUL count");
	is_u64(gguf_nameix_add(&ix, 6), (uint64_t)-1, "the prefix as a name");
	is_u64(find(&ix, "general"), 6, "is found as itself");

	/* The owner renames entry 1; the index is built again. */
	names[1] = str("general.arch", 12);
	gguf_nameix_clear(&ix);
	ok(find(&ix, "general.name") == -1, "a cleared index finds nothing");
	for (i = 0; i < 8; i++)
		gguf_nameix_add(&ix, i);
	is_u64(find(&ix, "general.arch"), 1, "a renamed entry by its new name");
	ok(find(&ix, "general.architecture") == -1, "not by its old one");
	gguf_nameix_free(&ix);
	ok(find(&ix, "general.name") == -1, "a freed index finds nothing");

	/* Many more entries than the hint: the index grows. */
	many = calloc(N_MANY, sizeof *many);
	buf = calloc(N_MANY, sizeof *buf);
	for (i = 0; i < N_MANY; i++) {
		snprintf(buf[i], sizeof buf[i], "blk.%llu.w",
		    (unsigned long long)i);
		many[i] = str(buf[i], strlen(buf[i]));
	}
	o.names = many;
	o.calls = 0;
	gguf_nameix_init(&ix, name_of, &o, 0);
	for (i = 0; i < N_MANY; i++)
		if (gguf_nameix_add(&ix, i) != -1)
			all = 0;
	ok(all, "%d distinct names added to an index made for none", N_MANY);
	is_u64(ix.n, N_MANY, "all of them are in it");
	ok((ix.mask + 1) / 4 * 3 >= N_MANY, "it is at most three quarters "
	    "full (%llu slots)", (unsigned long long)ix.mask + 1);
	/* each add asks for its own name, and each growth for every name
	   again; the hash bits in the slots spare the names probed past */
	ok(o.calls <= 12 * N_MANY / 5, "adding them asked for %llu names, not "
	    "one a slot probed past", (unsigned long long)o.calls);
	for (all = 1, i = 0; i < N_MANY; i++)
		if (find(&ix, buf[i]) != (int64_t)i)
			all = 0;
	ok(all, "each is found as its own entry after the growth");
	o.calls = 0;
	ok(find(&ix, "blk.5000.w") == -1, "a missing name is not found");
	ok(o.calls == 0, "a lookup of a missing name compares none: the "
	    "hash bits in the slots differ (%llu)",
	    (unsigned long long)o.calls);
	gguf_nameix_free(&ix);

	/* The same names added with their hashes made beforehand. */
	gguf_nameix_init(&ix, name_of, &o, 0);
	for (all = 1, i = 0; i < N_MANY; i++)
		if (gguf_nameix_add_hashed(&ix, i, gguf_nameix_hash(buf[i],
		    strlen(buf[i]))) != -1)
			all = 0;
	ok(all, "added with their hashes, through the growths");
	for (all = 1, i = 0; i < N_MANY; i++)
		if (find(&ix, buf[i]) != (int64_t)i)
			all = 0;
	ok(all, "each is found by its name as gguf_nameix_add would have it");
	is_u64((uint64_t)gguf_nameix_add_hashed(&ix, 7, gguf_nameix_hash(
	    buf[7], strlen(buf[7]))), 7, "a name added twice: its entry");
	gguf_nameix_free(&ix);
	free(many);
	free(buf);
	return tap_done();
}
