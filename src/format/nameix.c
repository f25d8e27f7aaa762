/*
 * nameix.c - the one index from names to entries (see nameix.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "internal.h"
#include "nameix.h"

#define MIN_SLOTS	16

/*
 * A name's hash: XXH3. FNV-1a, a multiply to wait for at every byte, was
 * 15% of opening a shard of 500 tensors. Only this process's tables hold
 * it.
 */
static uint64_t
name_hash(const char *p, size_t n)
{
	return XXH3_64bits(p, n);
}

static int
same(struct gguf_str s, const char *p, size_t n)
{
	return s.n == n && (n == 0 || memcmp(s.p, p, n) == 0);
}

#define TAG(hash)	((hash) >> 32 << 32)	/* a slot's bits of the hash */
#define ENTRY(v)	((uint64_t)(uint32_t)(v) - 1)

/* The slot of the entry named p[0..n), or the empty slot where it would go. */
static uint64_t
probe_h(const struct gguf_nameix *ix, const char *p, size_t n, uint64_t hash)
{
	uint64_t	h = hash & ix->mask, v, tag = TAG(hash);

	while ((v = ix->slot[h]) != 0) {
		if (TAG(v) == tag && same(ix->name(ix->ctx, ENTRY(v)), p, n))
			break;
		h = (h + 1) & ix->mask;
	}
	return h;
}

static uint64_t
probe(const struct gguf_nameix *ix, const char *p, size_t n)
{
	return probe_h(ix, p, n, name_hash(p, n));
}

static void
alloc_slots(struct gguf_nameix *ix, uint64_t entries)
{
	uint64_t	cap = MIN_SLOTS;

	while (cap / 4 * 3 < entries)
		cap <<= 1;
	ix->slot = xcalloc_big((size_t)cap, sizeof *ix->slot);
	ix->mask = cap - 1;
}

void
gguf_nameix_init(struct gguf_nameix *ix, gguf_name_fn name, void *ctx,
    uint64_t hint)
{
	ix->name = name;
	ix->ctx = ctx;
	ix->n = 0;
	alloc_slots(ix, hint);
}

/* Twice the slots, every entry placed again. */
static void
grow(struct gguf_nameix *ix)
{
	uint64_t	*old = ix->slot;
	uint64_t	 n_old = ix->mask + 1, k, h;
	struct gguf_str	 s;

	alloc_slots(ix, n_old);
	for (k = 0; k < n_old; k++) {
		if (old[k] == 0)
			continue;
		s = ix->name(ix->ctx, ENTRY(old[k]));
		for (h = name_hash(s.p, (size_t)s.n) & ix->mask;
		    ix->slot[h] != 0; h = (h + 1) & ix->mask)
			;
		ix->slot[h] = old[k];
	}
	free(old);
}

/* Adds entry i, named s, whose name hashes to hash (see gguf_nameix_add). */
static int64_t
add(struct gguf_nameix *ix, uint64_t i, struct gguf_str s, uint64_t hash)
{
	uint64_t	h;

	h = probe_h(ix, s.p, (size_t)s.n, hash);
	if (ix->slot[h] != 0)
		return (int64_t)ENTRY(ix->slot[h]);
	if (ix->n + 1 > (ix->mask + 1) / 4 * 3) {
		grow(ix);
		h = probe_h(ix, s.p, (size_t)s.n, hash);
	}
	ix->slot[h] = TAG(hash) | (i + 1);
	ix->n++;
	return -1;
}

int64_t
gguf_nameix_add(struct gguf_nameix *ix, uint64_t i)
{
	struct gguf_str	s = ix->name(ix->ctx, i);

	return add(ix, i, s, name_hash(s.p, (size_t)s.n));
}

int64_t
gguf_nameix_add_hashed(struct gguf_nameix *ix, uint64_t i, uint64_t hash)
{
	return add(ix, i, ix->name(ix->ctx, i), hash);
}

uint64_t
gguf_nameix_hash(const char *p, size_t n)
{
	return name_hash(p, n);
}

int64_t
gguf_nameix_find(const struct gguf_nameix *ix, const char *p, size_t n)
{
	uint64_t	v;

	if (ix->slot == NULL)
		return -1;
	v = ix->slot[probe(ix, p, n)];
	return v != 0 ? (int64_t)ENTRY(v) : -1;
}

void
gguf_nameix_clear(struct gguf_nameix *ix)
{
	memset(ix->slot, 0, (size_t)(ix->mask + 1) * sizeof *ix->slot);
	ix->n = 0;
}

void
gguf_nameix_free(struct gguf_nameix *ix)
{
	free(ix->slot);
	ix->slot = NULL;
	ix->mask = 0;
	ix->n = 0;
}
