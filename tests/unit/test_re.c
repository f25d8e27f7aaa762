/*
 * test_re.c - the regular expressions of re.c (compile errors with their
 * position, case, UTF-8, the limits, groups, substitution) and the plan
 * of a regex tensor rename (rename.c), with the document's refusal of a
 * flawed plan, on a model built byte by byte with ggufgen.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gguf.h"
#include "doc.h"
#include "re.h"
#include "tap.h"
#include "../tools/ggufgen.h"

static int
matches(const char *pat, unsigned flags, const char *s, size_t want_so,
    size_t want_eo)
{
	struct gguf_re	*re;
	struct gguf_err	 err;
	size_t		 so = 0, eo = 0;
	int		 m;

	if ((re = gguf_re_compile(pat, flags, &err)) == NULL) {
		diag("%s: %s", pat, err.msg);
		return 0;
	}
	m = gguf_re_match(re, s, strlen(s), 0, &so, &eo);
	gguf_re_free(re);
	return m == 1 && so == want_so && eo == want_eo;
}

static int
no_match(const char *pat, unsigned flags, const char *s)
{
	struct gguf_re	*re;
	struct gguf_err	 err;
	size_t		 so, eo;
	int		 m;

	if ((re = gguf_re_compile(pat, flags, &err)) == NULL)
		return 0;
	m = gguf_re_match(re, s, strlen(s), 0, &so, &eo);
	gguf_re_free(re);
	return m == 0;
}

static void
test_re(void)
{
	struct gguf_re	*re;
	struct gguf_err	 err;
	char		*out = NULL, *s;
	size_t		 so, eo, n, len;
	clock_t		 t0;
	int		 m;

	/* Compile errors: one line, with the position. */
	memset(&err, 0, sizeof err);
	ok(gguf_re_compile("abc[d", 0, &err) == NULL &&
	    strcmp(err.msg, "regex error at position 5: missing terminating ] "
	    "for character class") == 0, "a bad pattern: %s", err.msg);
	ok(gguf_re_compile("*x", 0, &err) == NULL &&
	    strncmp(err.msg, "regex error at position 0: ", 27) == 0,
	    "the position of the error: %s", err.msg);

	ok(matches("b+", 0, "abbbc", 1, 4), "a match and its span");
	ok(no_match("B", 0, "abc"), "case-sensitive by default");
	ok(matches("B", GGUF_RE_CASELESS, "abc", 1, 2), "caseless");
	ok(matches("\\w+", GGUF_RE_UTF, "\xc3\xa9t\xc3\xa9!", 0, 5),
	    "UTF mode: \\w is Unicode");
	ok(matches("^.$", GGUF_RE_UTF, "\xc3\xa9", 0, 2),
	    "UTF mode: . is a character");
	ok(matches("^..$", 0, "\xc3\xa9", 0, 2), "bytes otherwise");
	ok(matches("\xc3\x89", GGUF_RE_UTF | GGUF_RE_CASELESS, "\xc3\xa9", 0, 2),
	    "UTF mode: caseless beyond ASCII");

	/* From a start offset; \K cannot make a match end before it begins. */
	re = gguf_re_compile("a", 0, &err);
	ok(re != NULL && gguf_re_match(re, "aXa", 3, 1, &so, &eo) == 1 &&
	    so == 2 && eo == 3, "matching from an offset");
	ok(gguf_re_match(re, "aXa", 3, 4, &so, &eo) == 0,
	    "a start past the end: no match");
	gguf_re_free(re);

	/* The limits: catastrophic backtracking is "no match", fast. */
	n = 20000;
	s = malloc(n + 1);
	memset(s, 'a', n);
	s[n] = '\0';
	t0 = clock();
	re = gguf_re_compile("(a*)*[^a]", 0, &err);
	m = re != NULL ? gguf_re_match(re, s, n, 0, &so, &eo) : -1;
	gguf_re_free(re);
	ok(m == 0 && (clock() - t0) / CLOCKS_PER_SEC < 5,
	    "(a*)*[^a] on 20,000 a's: no match, within the limits");
	re = gguf_re_compile("(a*)*[^a]", 0, &err);
	ok(re != NULL && gguf_re_subst(re, s, n, "x", 0, &out, &len, &err) ==
	    -1 && strncmp(err.msg, "substitution: ", 14) == 0,
	    "a substitution that hits the limits is an error: %s", err.msg);
	gguf_re_free(re);
	free(s);

	/* Named groups. */
	re = gguf_re_compile("(?<a>x)(?<b>y)?(?<c>z)", 0, &err);
	ok(re != NULL && gguf_re_group(re, "a", &so, &eo) == 0,
	    "no group before a match");
	ok(gguf_re_match(re, "_xz", 3, 0, &so, &eo) == 1 &&
	    gguf_re_group(re, "a", &so, &eo) == 1 && so == 1 && eo == 2 &&
	    gguf_re_group(re, "c", &so, &eo) == 1 && so == 2 && eo == 3,
	    "named groups of a match");
	ok(gguf_re_group(re, "b", &so, &eo) == 0, "a group that took no part");
	ok(gguf_re_group(re, "nope", &so, &eo) == 0, "no such group");
	ok(gguf_re_match(re, "zz", 2, 0, &so, &eo) == 0 &&
	    gguf_re_group(re, "a", &so, &eo) == 0, "none after a failed match");
	gguf_re_free(re);

	/* Substitution. */
	re = gguf_re_compile("^blk\\.(\\d+)\\.", 0, &err);
	ok(re != NULL && gguf_re_subst(re, "blk.12.attn", 11, "layers.$1.", 0,
	    &out, &len, &err) == 1 && len == 14 &&
	    strcmp(out, "layers.12.attn") == 0, "substitution with a capture");
	free(out);
	ok(gguf_re_subst(re, "output", 6, "x", 0, &out, &len, &err) == 0,
	    "no match: 0");
	ok(gguf_re_subst(re, "blk.1.x", 7, "$9", 0, &out, &len, &err) == -1 &&
	    strncmp(err.msg, "substitution: ", 14) == 0,
	    "a bad replacement: %s", err.msg);
	gguf_re_free(re);
	re = gguf_re_compile("a", 0, &err);
	ok(gguf_re_subst(re, "banana", 6, "o", 0, &out, &len, &err) == 1 &&
	    strcmp(out, "bonana") == 0, "the first match");
	free(out);
	ok(gguf_re_subst(re, "banana", 6, "o", 1, &out, &len, &err) == 1 &&
	    strcmp(out, "bonono") == 0, "every match (global)");
	free(out);
	s = malloc(1000);
	memset(s, 'a', 1000);
	ok(gguf_re_subst(re, s, 1000, "aaaa", 1, &out, &len, &err) == 1 &&
	    len == 4000 && out[3999] == 'a' && out[4000] == '\0',
	    "a result larger than the first buffer");
	free(out);
	free(s);
	gguf_re_free(re);
}

/* ------------------------------------------------------------- the plan */

static char	dir[256];

static struct gguf_doc *
model(const char *const *names, int n)
{
	struct gguf_doc	*d;
	struct gguf_err	 err;
	struct gg	 g;
	uint64_t	 ne[1] = { 8 };
	char		 path[300];
	int		 i;

	gg_init(&g, 3, 0);
	gg_header(&g, (uint64_t)n, 1);
	gg_kv_str(&g, "general.architecture", "llama");
	for (i = 0; i < n; i++)
		gg_tensor(&g, names[i], 1, ne, GG_T_F32, (uint64_t)i * 32);
	gg_pad(&g, 32);
	gg_zeros(&g, (size_t)n * 32);
	snprintf(path, sizeof path, "%s/m.gguf", dir);
	gg_write(&g, path);
	gg_free(&g);
	d = gguf_doc_open(path, &err);
	if (d == NULL)
		diag("open: %s", err.msg);
	return d;
}

/* The plan's entry for tensor idx, or NULL. */
static const struct gguf_rename *
entry(const struct gguf_rename_plan *p, uint64_t idx)
{
	uint64_t	k;

	for (k = 0; k < p->n; k++) {
		if (p->map[k].idx == idx)
			return &p->map[k];
	}
	return NULL;
}

/* r is there and has exactly these flaws (whatever its name). */
static int
flawed(const struct gguf_rename *r, unsigned flaws)
{
	return r != NULL && r->flaws == flaws;
}

static int
named(const struct gguf_rename *r, const char *name, unsigned flaws)
{
	return r != NULL && r->n == strlen(name) &&
	    memcmp(r->name, name, r->n) == 0 && r->flaws == flaws;
}

static void
test_plan(void)
{
	static const char *const	 names[] = {
		"blk.0.attn_q.weight", "blk.1.attn_q.weight", "blk.0.ffn.weight",
		"output.weight", "token_embd.weight", "p.w", "p.w.w"
	};
	struct gguf_rename_plan		 p;
	struct gguf_doc			*d;
	struct gguf_err			 err;
	uint64_t			 n;
	char				 repl[100];

	if ((d = model(names, 7)) == NULL) {
		ok(0, "a model to rename in");
		return;
	}

	ok(gguf_doc_rename_plan(d, "^blk\\.(\\d+)\\.", "layers.$1.", 0, &p,
	    &err) == 0 && p.n == 3 && p.bad == 0 &&
	    named(entry(&p, 0), "layers.0.attn_q.weight", 0) &&
	    named(entry(&p, 1), "layers.1.attn_q.weight", 0) &&
	    named(entry(&p, 2), "layers.0.ffn.weight", 0) &&
	    entry(&p, 3) == NULL, "a plan: old -> new for the matching names");
	gguf_rename_plan_free(&p);
	ok(gguf_doc_n_tensors(d) == 7 &&
	    gguf_doc_tensor_find(d, "blk.0.attn_q.weight", 19) == 0,
	    "planning changes nothing");

	ok(gguf_doc_rename_plan(d, "weight", "weight", 0, &p, &err) == 0 &&
	    p.n == 0, "names the substitution leaves as they are: not listed");
	gguf_rename_plan_free(&p);
	ok(gguf_doc_rename_plan(d, "nomatch", "x", 0, &p, &err) == 0 &&
	    p.n == 0 && p.bad == 0, "nothing matches: an empty plan");
	gguf_rename_plan_free(&p);

	/* Every flaw, each on every name it concerns. */
	ok(gguf_doc_rename_plan(d, "^blk\\.\\d+\\.attn_q", "x", 0, &p, &err) ==
	    0 && p.n == 2 && p.bad == 2 &&
	    named(entry(&p, 0), "x.weight", GGUF_RN_SHARED) &&
	    named(entry(&p, 1), "x.weight", GGUF_RN_SHARED) &&
	    strcmp(gguf_rename_why(entry(&p, 0)), "the same name as another") ==
	    0, "a collision between new names: both reported");
	gguf_rename_plan_free(&p);
	ok(gguf_doc_rename_plan(d, "^blk\\.0\\.ffn", "output", 0, &p, &err) ==
	    0 && p.n == 1 && p.bad == 1 &&
	    named(entry(&p, 2), "output.weight", GGUF_RN_TAKEN) &&
	    strcmp(gguf_rename_why(entry(&p, 2)), "the name of another "
	    "tensor") == 0, "the name of a tensor that keeps it: reported");
	gguf_rename_plan_free(&p);
	ok(gguf_doc_rename_plan(d, "^(output|token_embd)\\.", "${1}x.", 0, &p,
	    &err) == 0 && p.n == 2 && p.bad == 0, "no collision: renamed "
	    "names");
	gguf_rename_plan_free(&p);
	ok(gguf_doc_rename_plan(d, "^(blk\\.)0(\\..*)$", "${1}1$2", 0, &p,
	    &err) == 0 && p.n == 2 && p.bad == 1 &&
	    named(entry(&p, 0), "blk.1.attn_q.weight", GGUF_RN_TAKEN) &&
	    named(entry(&p, 2), "blk.1.ffn.weight", 0),
	    "taken by a tensor left as it is, beside a free name");
	gguf_rename_plan_free(&p);
	ok(gguf_doc_rename_plan(d, "\\.w$", ".w.w", 0, &p, &err) == 0 &&
	    p.n == 2 && p.bad == 0 && named(entry(&p, 5), "p.w.w", 0) &&
	    named(entry(&p, 6), "p.w.w.w", 0),
	    "a name held by a tensor renamed away can be taken");
	gguf_rename_plan_free(&p);
	ok(gguf_doc_rename_plan(d, "^output\\.weight$", "", 0, &p, &err) ==
	    0 && p.bad == 1 && named(entry(&p, 3), "", GGUF_RN_EMPTY) &&
	    strcmp(gguf_rename_why(entry(&p, 3)), "empty") == 0,
	    "an empty name");
	gguf_rename_plan_free(&p);
	memset(repl, 'n', 64);
	repl[64] = '\0';
	ok(gguf_doc_rename_plan(d, "^output\\.weight$", repl, 0, &p, &err) ==
	    0 && p.bad == 1 && flawed(entry(&p, 3), GGUF_RN_LONG),
	    "a name of 64 bytes");
	gguf_rename_plan_free(&p);
	repl[63] = '\0';
	ok(gguf_doc_rename_plan(d, "^output\\.weight$", repl, 0, &p, &err) ==
	    0 && p.bad == 0, "63 bytes are fine");
	gguf_rename_plan_free(&p);
	ok(gguf_doc_rename_plan(d, "[", "x", 0, &p, &err) == -1 &&
	    strncmp(err.msg, "regex error at position 1: ", 27) == 0 &&
	    p.n == 0, "a bad pattern: %s", err.msg);

	/* The document refuses a flawed plan, naming the first flaw. */
	ok(gguf_doc_tensor_rename_re(d, "^blk\\.\\d+\\.attn_q", "x", 0, &n,
	    &err) == -1 && strcmp(err.msg, "two tensors would be named "
	    "\"x.weight\"") == 0, "applied: a collision refused (%s)", err.msg);
	ok(gguf_doc_tensor_rename_re(d, "^blk\\.0\\.ffn", "output", 0, &n,
	    &err) == -1 && strcmp(err.msg, "\"blk.0.ffn.weight\" would become "
	    "\"output.weight\", the name of another tensor") == 0,
	    "applied: a taken name refused (%s)", err.msg);
	ok(gguf_doc_tensor_rename_re(d, "^output\\.weight$", "", 0, &n,
	    &err) == -1 && strcmp(err.msg, "\"output.weight\" would become "
	    "\"\": an empty name") == 0, "applied: an empty name refused");
	ok(gguf_doc_tensor_find(d, "output.weight", 13) == 3,
	    "a refused rename changes nothing");

	/* A clean plan is applied as one step; removed tensors stay out. */
	ok(gguf_doc_tensor_remove(d, "blk.1.attn_q.weight", 19, &err) == 0,
	    "remove a tensor");
	ok(gguf_doc_rename_plan(d, "^blk\\.\\d+\\.attn_q", "x", 0, &p, &err) ==
	    0 && p.n == 1 && p.bad == 0 && entry(&p, 1) == NULL,
	    "a removed tensor is not renamed, and frees its name");
	gguf_rename_plan_free(&p);
	ok(gguf_doc_tensor_rename_re(d, "^blk\\.(\\d+)\\.", "layers.$1.", 1,
	    &n, &err) == 0 && n == 2 &&
	    gguf_doc_tensor_find(d, "layers.0.attn_q.weight", 22) == 0 &&
	    gguf_doc_tensor_find(d, "layers.0.ffn.weight", 19) == 2,
	    "applied: the plan's names");
	ok(gguf_doc_undo(d, NULL) == 0 &&
	    gguf_doc_tensor_find(d, "blk.0.attn_q.weight", 19) == 0 &&
	    gguf_doc_tensor_find(d, "blk.0.ffn.weight", 16) == 2,
	    "one undo step");
	gguf_doc_free(d);
}

int
main(void)
{
	const char	*t = getenv("TMPDIR");
	char		 path[300];

	test_re();
	snprintf(dir, sizeof dir, "%s/test_re.XXXXXX", t != NULL && *t ? t :
	    "/tmp");
	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	test_plan();
	snprintf(path, sizeof path, "%s/m.gguf", dir);
	unlink(path);
	rmdir(dir);
	return tap_done();
}
