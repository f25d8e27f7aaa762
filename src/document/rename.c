/*
 * rename.c - planning a regex rename of tensors: what every live tensor
 * would be called, and which of the new names cannot be used.
 *
 * The plan is made once, here, for both of its uses: the browser shows it
 * before anything changes (every offending name marked), and the document
 * applies it (doc.c: gguf_doc_tensor_rename_re, which refuses a plan with
 * any flaw). A name is flawed if it is empty, longer than ggml loads,
 * given to two tensors, or that of a tensor that keeps its name; a name
 * freed by a tensor that is itself renamed away can be taken.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "doc.h"
#include "internal.h"
#include "re.h"

static int
cmp_new(const void *x, const void *y)
{
	const struct gguf_rename	*a = *(const struct gguf_rename *const *)x;
	const struct gguf_rename	*b = *(const struct gguf_rename *const *)y;
	int				 c;

	c = memcmp(a->name, b->name, a->n < b->n ? a->n : b->n);
	if (c != 0)
		return c;
	return a->n < b->n ? -1 : a->n > b->n;
}

/* Marks the names given to more than one tensor. */
static void
mark_shared(struct gguf_rename_plan *p)
{
	struct gguf_rename	**sorted;
	uint64_t		  k;

	if (p->n < 2)
		return;
	sorted = xcalloc((size_t)p->n, sizeof *sorted);
	for (k = 0; k < p->n; k++)
		sorted[k] = &p->map[k];
	qsort(sorted, (size_t)p->n, sizeof *sorted, cmp_new);
	for (k = 1; k < p->n; k++) {
		if (cmp_new(&sorted[k - 1], &sorted[k]) == 0) {
			sorted[k - 1]->flaws |= GGUF_RN_SHARED;
			sorted[k]->flaws |= GGUF_RN_SHARED;
		}
	}
	free(sorted);
}

/* Marks the names held by a tensor that keeps its own. */
static void
mark_taken(struct gguf_doc *d, struct gguf_rename_plan *p)
{
	uint64_t	k, q;
	int64_t		j;

	for (k = 0; k < p->n; k++) {
		if (p->map[k].flaws != 0 || (j = gguf_doc_tensor_find(d,
		    p->map[k].name, p->map[k].n)) < 0)
			continue;
		for (q = 0; q < p->n && p->map[q].idx != (uint64_t)j; q++)
			;
		if (q == p->n)
			p->map[k].flaws |= GGUF_RN_TAKEN;
	}
}

/*
 * The replacement as PCRE2 takes it, from what sed and Perl users type
 * too: \1 .. \9 (and \0, the whole match) are groups, as $1 .. $9 and
 * $0 are; \\ is one backslash. Any other character stays as it is.
 */
static char *
sed_refs(const char *repl)
{
	size_t	 n = strlen(repl), i, o = 0;
	char	*out = xmalloc(2 * n + 1);

	for (i = 0; i < n; i++) {
		if (repl[i] == '\\' && repl[i + 1] >= '0' &&
		    repl[i + 1] <= '9') {
			out[o++] = '$';
			out[o++] = repl[++i];
		} else if (repl[i] == '\\' && repl[i + 1] == '\\') {
			out[o++] = '\\';
			i++;
		} else
			out[o++] = repl[i];
	}
	out[o] = '\0';
	return out;
}

int
gguf_doc_rename_plan(struct gguf_doc *d, const char *pattern,
    const char *repl, int global, struct gguf_rename_plan *p,
    struct gguf_err *err)
{
	struct gguf_doc_tensor	 dt;
	struct gguf_rename	*r;
	struct gguf_re		*re;
	uint64_t		 i, k, nt = gguf_doc_n_tensors(d);
	size_t			 outlen = 0;
	char			*out = NULL, *rp;
	int			 m;

	memset(p, 0, sizeof *p);
	if ((re = gguf_re_compile(pattern, 0, err)) == NULL)
		return -1;
	rp = sed_refs(repl);
	for (i = 0; i < nt; i++) {
		if (gguf_doc_tensor(d, i, &dt) != 0 ||
		    (dt.flags & GGUF_ED_REMOVED))
			continue;
		m = gguf_re_subst(re, dt.name.p, (size_t)dt.name.n, rp,
		    global, &out, &outlen, err);
		if (m < 0) {
			free(rp);
			gguf_re_free(re);
			gguf_rename_plan_free(p);
			return -1;
		}
		if (m == 0)
			continue;
		if (outlen == dt.name.n && memcmp(out, dt.name.p, outlen) == 0) {
			free(out);
			continue;
		}
		p->map = xreallocarray(p->map, (size_t)p->n + 1, sizeof *p->map);
		r = &p->map[p->n++];
		r->idx = i;
		r->name = out;
		r->n = outlen;
		r->flaws = outlen == 0 ? GGUF_RN_EMPTY : outlen > GGUF_MAX_NAME ?
		    GGUF_RN_LONG : 0;
	}
	free(rp);
	gguf_re_free(re);
	mark_shared(p);
	mark_taken(d, p);
	for (k = 0; k < p->n; k++)
		p->bad += p->map[k].flaws != 0;
	return 0;
}

void
gguf_rename_plan_free(struct gguf_rename_plan *p)
{
	uint64_t	k;

	for (k = 0; k < p->n; k++)
		free(p->map[k].name);
	free(p->map);
	memset(p, 0, sizeof *p);
}

const char *
gguf_rename_why(const struct gguf_rename *r)
{
	if (r->flaws & GGUF_RN_SHARED)
		return "the same name as another";
	if (r->flaws & GGUF_RN_EMPTY)
		return "empty";
	if (r->flaws & GGUF_RN_LONG)
		return "longer than 63 bytes";
	if (r->flaws & GGUF_RN_TAKEN)
		return "the name of another tensor";
	return NULL;
}
