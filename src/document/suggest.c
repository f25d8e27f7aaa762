/*
 * suggest.c - the name closest to a mistyped one (see suggest.h).
 *
 * The distance is the optimal string alignment form of the edit
 * distance (Levenshtein's edits plus the swap of two neighbours, each
 * byte edited once), over three rows of at most GGUF_SUGGEST_MAX + 1
 * cells: O(na * nb) time, no allocation, and a stop as soon as every cell
 * of a row is beyond the reach asked for.
 */
#include "config.h"

#include <string.h>

#include "gguf.h"
#include "schema.h"
#include "suggest.h"

static int
fold(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

static int
same(const char *a, size_t i, const char *b, size_t j)
{
	return fold((unsigned char)a[i]) == fold((unsigned char)b[j]);
}

unsigned
gguf_suggest_distance(const char *a, size_t na, const char *b, size_t nb,
    unsigned max)
{
	unsigned	r0[GGUF_SUGGEST_MAX + 1], r1[GGUF_SUGGEST_MAX + 1];
	unsigned	r2[GGUF_SUGGEST_MAX + 1];
	unsigned	*two = r0, *one = r1, *cur = r2, *t, c, low;
	size_t		 i, j;

	if (na > GGUF_SUGGEST_MAX || nb > GGUF_SUGGEST_MAX)
		return max + 1;
	if ((na > nb ? na - nb : nb - na) > max)
		return max + 1;
	for (j = 0; j <= nb; j++)
		one[j] = (unsigned)j;
	for (i = 1; i <= na; i++) {
		cur[0] = (unsigned)i;
		low = cur[0];
		for (j = 1; j <= nb; j++) {
			c = one[j - 1] + !same(a, i - 1, b, j - 1);
			if (one[j] + 1 < c)
				c = one[j] + 1;
			if (cur[j - 1] + 1 < c)
				c = cur[j - 1] + 1;
			if (i > 1 && j > 1 && same(a, i - 1, b, j - 2) &&
			    same(a, i - 2, b, j - 1) && two[j - 2] + 1 < c)
				c = two[j - 2] + 1;
			cur[j] = c;
			if (c < low)
				low = c;
		}
		if (low > max)
			return max + 1;
		t = two;
		two = one;
		one = cur;
		cur = t;
	}
	return one[nb];
}

void
gguf_suggest_init(struct gguf_suggest *sg, const char *p, size_t n)
{
	memset(sg, 0, sizeof *sg);
	if (n > GGUF_SUGGEST_MAX) {
		sg->dist = 1;		/* reach 0: nothing is ever kept */
		return;
	}
	memcpy(sg->want, p, n);
	sg->wn = n;
	sg->reach = (unsigned)(n / 3 > 0 ? n / 3 : 1);
	if (sg->reach > GGUF_SUGGEST_REACH)
		sg->reach = GGUF_SUGGEST_REACH;
	if (sg->reach >= n)
		sg->reach = n > 0 ? (unsigned)n - 1 : 0;
	sg->dist = sg->reach + 1;
}

/* Byte order of two names, the shorter first on a common start. */
static int
before(const char *a, size_t na, const char *b, size_t nb)
{
	int	c = memcmp(a, b, na < nb ? na : nb);

	return c < 0 || (c == 0 && na < nb);
}

void
gguf_suggest_add(struct gguf_suggest *sg, const char *p, size_t n)
{
	unsigned	d;

	if (sg->wn == 0 || n == 0 || n > GGUF_SUGGEST_MAX ||
	    (n == sg->wn && memcmp(p, sg->want, n) == 0))
		return;
	d = gguf_suggest_distance(sg->want, sg->wn, p, n, sg->reach);
	if (d > sg->reach || d > sg->dist || (d == sg->dist &&
	    !before(p, n, sg->best, sg->bn)))
		return;
	memcpy(sg->best, p, n);
	sg->best[n] = '\0';
	sg->bn = n;
	sg->dist = d;
}

void
gguf_suggest_names(struct gguf_suggest *sg, gguf_name_fn name, void *ctx,
    uint64_t n)
{
	struct gguf_str	s;
	uint64_t	i;

	for (i = 0; i < n; i++) {
		s = name(ctx, i);
		gguf_suggest_add(sg, s.p, (size_t)s.n);
	}
}

void
gguf_suggest_index(struct gguf_suggest *sg, const struct gguf_nameix *ix)
{
	struct gguf_str	s;
	uint64_t	k;
	int64_t		e;

	if (ix->slot == NULL)
		return;
	for (k = 0; k <= ix->mask; k++) {
		if ((e = gguf_nameix_slot(ix, k)) < 0)
			continue;
		s = ix->name(ix->ctx, (uint64_t)e);
		gguf_suggest_add(sg, s.p, (size_t)s.n);
	}
}

void
gguf_suggest_schema(struct gguf_suggest *sg, const char *arch, size_t archn)
{
	static const char	ph[] = "{arch}";
	const char		*k;
	char			 buf[GGUF_SUGGEST_MAX + 1];
	size_t			 i, kn;

	for (i = 0; i < gguf_schema_n; i++) {
		k = gguf_schema_keys[i].key;
		kn = strlen(k);
		if (strncmp(k, ph, sizeof ph - 1) == 0) {
			if (archn == 0 || archn + kn - (sizeof ph - 1) >
			    GGUF_SUGGEST_MAX)
				continue;
			memcpy(buf, arch, archn);
			memcpy(buf + archn, k + sizeof ph - 1,
			    kn - (sizeof ph - 1));
			kn = archn + kn - (sizeof ph - 1);
			k = buf;
		}
		if (memchr(k, '{', kn) == NULL)
			gguf_suggest_add(sg, k, kn);
	}
}

const char *
gguf_suggest_best(const struct gguf_suggest *sg, size_t *n)
{
	if (sg->dist > sg->reach)
		return NULL;
	if (n != NULL)
		*n = sg->bn;
	return sg->best;
}
