/*
 * suggest.h - "did you mean": the known name closest to a mistyped one.
 *
 * One search is fed the names that could have been meant (a document's
 * keys or tensor names through their name index, the well-known keys of
 * the schema, a table of command or type names) and keeps the closest
 * one within reach. Distance counts edits of bytes: an insertion, a
 * deletion, a change, or a swap of two neighbours (nmae -> name is one);
 * a difference of ASCII case alone costs nothing. Within reach means at
 * most a third of the typed name's length in edits, at least one, at most
 * GGUF_SUGGEST_REACH, and fewer than its length (so "x" suggests nothing
 * but "X"). The typed name
 * itself is never suggested; of two candidates as close, the one first
 * in byte order wins, whatever order they came in.
 *
 * Names longer than GGUF_SUGGEST_MAX bytes take no part (neither typed
 * nor suggested). Nothing here prints: the caller words the message.
 */
#ifndef GGUF_SUGGEST_H
#define GGUF_SUGGEST_H

#include <stddef.h>
#include <stdint.h>

#include "gguf.h"
#include "nameix.h"

#define GGUF_SUGGEST_MAX	255
#define GGUF_SUGGEST_REACH	3	/* edits, whatever the length */

struct gguf_suggest {
	char		want[GGUF_SUGGEST_MAX + 1];
	size_t		wn;
	unsigned	reach;		/* most edits a suggestion may take */
	char		best[GGUF_SUGGEST_MAX + 1];
	size_t		bn;
	unsigned	dist;		/* of best; reach + 1 while none */
};

/* A search for names close to p (n bytes). */
void		 gguf_suggest_init(struct gguf_suggest *sg, const char *p,
		    size_t n);
/* Offers one candidate (copied if kept). */
void		 gguf_suggest_add(struct gguf_suggest *sg, const char *p,
		    size_t n);
/* Offers entries 0..n-1 of an owner, named by name. */
void		 gguf_suggest_names(struct gguf_suggest *sg, gguf_name_fn name,
		    void *ctx, uint64_t n);
/* Offers every entry of a name index. */
void		 gguf_suggest_index(struct gguf_suggest *sg,
		    const struct gguf_nameix *ix);
/*
 * Offers the schema's well-known keys, {arch} spelled as arch (archn
 * bytes; keys of the architecture are left out when archn is 0). Keys
 * with {id} or {name} placeholders are patterns, not names: left out.
 */
void		 gguf_suggest_schema(struct gguf_suggest *sg, const char *arch,
		    size_t archn);
/* The suggestion (NUL-terminated, *n its length if n), or NULL. */
const char	*gguf_suggest_best(const struct gguf_suggest *sg, size_t *n);

/*
 * The distance of a and b as above (edits, case ignored), or any number
 * above max once it is certain to be above max.
 */
unsigned	 gguf_suggest_distance(const char *a, size_t na, const char *b,
		    size_t nb, unsigned max);

#endif /* GGUF_SUGGEST_H */
