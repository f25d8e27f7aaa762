/*
 * re.h - regular expressions: the one place PCRE2 is called.
 *
 * Every pattern of ggufed (the regex tensor rename, the browser's search
 * and filter, the file-naming convention) is compiled here, JIT-compiled
 * where the JIT is available (the interpreter is used otherwise, with the
 * same results), and matched within one pair of limits, so that no
 * pattern, however it backtracks, can make ggufed hang: a match that hits
 * a limit is "no match" for a search and an error for a substitution.
 *
 * A compile error is one line naming the position in the pattern:
 * "regex error at position 4: missing terminating ] for character class".
 */
#ifndef GGUF_RE_H
#define GGUF_RE_H

#include <stddef.h>

#include "err.h"

#define GGUF_RE_MATCH_LIMIT	100000	/* calls of the matcher */
#define GGUF_RE_DEPTH_LIMIT	1000	/* backtracking depth */

#define GGUF_RE_CASELESS	0x01	/* letters match either case */
#define GGUF_RE_UTF		0x02	/* UTF-8 pattern; every subject is
					   valid UTF-8 (not checked); \w \d
					   and caseless matching are Unicode */

struct gguf_re;

/* Compiles pat (NUL-terminated), or NULL with err saying why. */
struct gguf_re	*gguf_re_compile(const char *pat, unsigned flags,
		    struct gguf_err *err);
void		 gguf_re_free(struct gguf_re *re);

/*
 * Looks for a match in s (n bytes) from byte start: 1 with its span
 * [*so, *eo), or 0 if there is none (or the limits were hit).
 */
int		 gguf_re_match(struct gguf_re *re, const char *s, size_t n,
		    size_t start, size_t *so, size_t *eo);
/*
 * The span of the named group in the last successful match: 1, or 0 if
 * the group took no part in it (or there is no such group).
 */
int		 gguf_re_group(struct gguf_re *re, const char *name,
		    size_t *so, size_t *eo);

/*
 * Substitutes repl for the first match in s (every match if global),
 * with PCRE2's replacement syntax ($1, ${name}, $$). 1 with the result in
 * *out (allocated, NUL-terminated, *outlen bytes), 0 if nothing matched,
 * -1 with err (a bad replacement, a limit hit).
 */
int		 gguf_re_subst(struct gguf_re *re, const char *s, size_t n,
		    const char *repl, int global, char **out, size_t *outlen,
		    struct gguf_err *err);

#endif /* GGUF_RE_H */
