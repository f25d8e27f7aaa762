/*
 * test_diff.c - the typed diff of two documents (src/proof/diff.h) on
 * files built byte by byte with ggufgen: items and counts for each kind
 * of change, pending edits counted (a pending conversion hashes as the
 * float32 data a save writes), element diffs of arrays that grew or
 * shrank, the hunks of a string diff, a big-endian file against its
 * little-endian twin, and the numbers of the value comparison.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gguf.h"
#include "doc.h"
#include "save.h"
#include "diff.h"
#include "cmd/lang.h"
#include "tap.h"
#include "../tools/ggufgen.h"

static char	dir[256] = "/tmp/ggufed-test_diff.XXXXXX";

static const char *
tmp(const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", dir, name);
	return buf;
}

/*
 * A small model: keys of each kind, tensors t0 and t1 (F32, 8 values:
 * t0 = i * scale, t1 = 100 + i) and h (F16, 8 values).
 */
static void
build(const char *path, int be, float scale, const char *tmpl)
{
	struct gg	g;
	uint64_t	ne[1] = { 8 };
	int		i;

	gg_init(&g, 3, be);
	gg_header(&g, 3, 5);
	gg_kv_str(&g, "general.name", "tiny");
	gg_kv_u32(&g, "x", 7);
	gg_kv_arr(&g, "toks", GG_STR, 4);
	gg_str(&g, "a");
	gg_str(&g, "bb");
	gg_str(&g, "ccc");
	gg_str(&g, "dddd");
	gg_kv_arr(&g, "ids", GG_I32, 4);
	for (i = 0; i < 4; i++)
		gg_u32(&g, (uint32_t)(i * 10));
	gg_kv_str(&g, "tmpl", tmpl);
	gg_tensor(&g, "t0", 1, ne, GG_T_F32, 0);
	gg_tensor(&g, "t1", 1, ne, GG_T_F32, 32);
	gg_tensor(&g, "h", 1, ne, GG_T_F16, 64);
	gg_pad(&g, 32);
	for (i = 0; i < 8; i++)
		gg_f32(&g, (float)i * scale);
	for (i = 0; i < 8; i++)
		gg_f32(&g, 100.0f + (float)i);
	for (i = 0; i < 8; i++)		/* 1.0, 2.0, ... in F16 */
		gg_u16(&g, (uint16_t)(0x3c00 + i * 0x400));
	gg_write(&g, path);
	gg_free(&g);
}

static const char	T0[] = "one\ntwo\nthree\nfour\nfive\nsix\nseven\n";
static const char	T1[] = "one\ntwo\nTHREE\nfour\nfive\nsix\nseven\neight\n";

static struct gguf_doc *
open_doc(const char *path)
{
	struct gguf_err	 err;
	struct gguf_doc	*d = gguf_doc_open(path, &err);

	if (d == NULL)
		printf("# %s: %s\n", path, err.msg);
	return d;
}

static int
diff(struct gguf_doc *a, struct gguf_doc *b, struct gguf_diff *d)
{
	struct gguf_diff_opts	o;
	struct gguf_err		err;

	memset(&o, 0, sizeof o);
	o.context = 1;
	o.name_a = "A";
	o.name_b = "B";
	o.threads = 2;
	if (gguf_diff_docs(a, b, &o, d, &err) != 0) {
		printf("# diff: %s\n", err.msg);
		return -1;
	}
	return 0;
}

static void
edit(struct gguf_doc *d, const char *line)
{
	char	msg[256];

	if (lang_exec(d, line, msg, sizeof msg) < 0)
		printf("# %s: %s\n", line, msg);
}

static const struct gguf_diff_item *
item(const struct gguf_diff *d, const char *name)
{
	size_t	i;

	for (i = 0; i < d->n_items; i++) {
		const struct gguf_diff_item	*it = &d->items[i];
		const struct gguf_str		*s = it->a >= 0 ? &it->name_a :
						    &it->name_b;

		if (s->n == strlen(name) && memcmp(s->p, name, s->n) == 0)
			return it;
	}
	return NULL;
}

static int
has_line(const struct gguf_diff *d, const char *text)
{
	size_t	i;

	for (i = 0; i < d->n_lines; i++)
		if (strcmp(d->lines[i].text, text) == 0)
			return 1;
	for (i = 0; i < d->n_lines; i++)
		printf("# | %s\n", d->lines[i].text);
	return 0;
}

static uint64_t	last_done, last_total;

static int
count_calls(void *arg, uint64_t done, uint64_t total)
{
	(*(int *)arg)++;
	last_done = done;
	last_total = total;
	return 0;
}

static int
cancel_at_once(void *arg, uint64_t done, uint64_t total)
{
	(void)arg;
	(void)done;
	(void)total;
	return 1;
}

static void
test_equal_and_keys(const char *pa)
{
	struct gguf_doc			*a = open_doc(pa), *b = open_doc(pa);
	const struct gguf_diff_item	*it;
	struct gguf_diff		 d;

	if (!ok(a != NULL && b != NULL, "the model opens"))
		return;
	ok(diff(a, b, &d) == 0 && d.n_items == 0 && d.n_lines == 0,
	    "a model against itself: no item, no line");
	gguf_diff_free(&d);

	/* pending edits of B count */
	edit(b, "set x 8");
	edit(b, "rm general.name");
	edit(b, "set new:str hello");
	edit(b, "set toks[1] \"BB\"");
	edit(b, "append ids 40");
	if (!ok(diff(a, b, &d) == 0, "diff runs"))
		return;
	is_u64(d.kv_changed, 3, "3 keys changed (x, toks, ids)");
	is_u64(d.kv_removed, 1, "1 removed");
	is_u64(d.kv_added, 1, "1 added");
	it = item(&d, "x");
	ok(it != NULL && it->flags == GGUF_DF_VALUE && it->a == 1 &&
	    it->b == 1, "x: a value change, the entries of both");
	ok(has_line(&d, "~ key x: 7 -> 8"), "x's line");
	ok(has_line(&d, "- key general.name: str \"tiny\""), "the key removed");
	ok(has_line(&d, "+ key new: str \"hello\""), "the key added");
	it = item(&d, "toks");
	ok(it != NULL && it->n_changed == 1 && it->n_elems == 1 &&
	    it->elems[0].op == '~' && it->elems[0].ia == 1,
	    "toks: element 1 changed");
	it = item(&d, "ids");
	ok(it != NULL && it->n_added == 1 && it->n_changed == 0 &&
	    it->elems[0].op == '+' && it->elems[0].ib == 4,
	    "ids: one element added at the end, none changed");
	ok(has_line(&d, "keys: 1 added, 1 removed, 3 changed"), "the counts");
	ok(d.lines[0].kind == GGUF_DL_FILE && strcmp(d.lines[0].text,
	    "--- A") == 0, "the first line names A");
	gguf_diff_free(&d);

	/* an element inserted in the middle: not every later one changed */
	gguf_doc_free(b);
	b = open_doc(pa);
	edit(b, "ins toks[1] \"x\"");
	diff(a, b, &d);
	it = item(&d, "toks");
	ok(it != NULL && it->n_added == 1 && it->n_changed == 0 &&
	    it->n_removed == 0 && it->elems[0].ib == 1,
	    "an insertion is one element added at its index");
	gguf_diff_free(&d);
	/* a deletion and a change at once */
	edit(b, "undo");
	edit(b, "del toks[0]");
	edit(b, "set toks[2] \"zz\"");
	diff(a, b, &d);
	it = item(&d, "toks");
	ok(it != NULL && it->va->count == 4 && it->vb->count == 3 &&
	    it->n_changed + it->n_removed + it->n_added >= 2 &&
	    it->n_removed >= 1, "a deletion and a change: counted");
	gguf_diff_free(&d);

	/* a type change */
	edit(b, "set x:u64 7");
	diff(a, b, &d);
	it = item(&d, "x");
	ok(it != NULL && (it->flags & GGUF_DF_TYPE),
	    "the same number in another type is a type change");
	ok(has_line(&d, "~ key x: u32 7 -> u64 7 (type changed)"),
	    "its line");
	gguf_diff_free(&d);
	gguf_doc_free(a);
	gguf_doc_free(b);
}

static void
test_string(const char *pa, const char *pb)
{
	struct gguf_doc			*a = open_doc(pa), *b = open_doc(pb);
	const struct gguf_diff_item	*it;
	struct gguf_diff		 d;
	const char			*want[] = {
		"@", " two", "-three", "+THREE", " four", "@", " seven",
		"+eight"
	};
	size_t				 k;
	int				 same;

	if (!ok(a != NULL && b != NULL && diff(a, b, &d) == 0,
	    "two templates: diff runs"))
		return;
	it = item(&d, "tmpl");
	if (ok(it != NULL && it->n_slines == 8, "8 lines of unified diff "
	    "with one line of context")) {
		same = 1;
		for (k = 0; k < 8; k++) {
			if (it->slines[k].op != want[k][0] ||
			    (want[k][0] != '@' &&
			    (it->slines[k].n != strlen(want[k] + 1) ||
			    memcmp(it->slines[k].p, want[k] + 1,
			    it->slines[k].n) != 0)))
				same = 0;
		}
		ok(same, "the lines are diff -U1's");
		ok(it->slines[0].a0 == 2 && it->slines[0].an == 3 &&
		    it->slines[0].b0 == 2 && it->slines[0].bn == 3,
		    "the first hunk is -2,3 +2,3");
		ok(it->slines[5].a0 == 7 && it->slines[5].an == 1 &&
		    it->slines[5].b0 == 7 && it->slines[5].bn == 2,
		    "the second is -7,1 +7,2");
	}
	ok(has_line(&d, "    @@ -2,3 +2,3 @@"), "the hunk head's line");
	ok(has_line(&d, "~ key tmpl: 1 line removed, 2 added"),
	    "the key's line counts the lines");
	gguf_diff_free(&d);
	gguf_doc_free(a);
	gguf_doc_free(b);
}

static void
test_tensors(const char *pa, const char *pconv)
{
	struct gguf_doc			*a = open_doc(pa), *b = open_doc(pa);
	struct gguf_doc			*c = open_doc(pconv);
	const struct gguf_diff_item	*it;
	struct gguf_diff		 d;

	if (!ok(a != NULL && b != NULL && c != NULL, "the models open"))
		return;
	edit(b, "rename t1 renamed");
	edit(b, "rm-tensor t0");
	diff(a, b, &d);
	it = item(&d, "t1");
	ok(it != NULL && it->flags == GGUF_DF_RENAMED &&
	    it->name_b.n == 7 && memcmp(it->name_b.p, "renamed", 7) == 0 &&
	    it->has_hash && it->hash_a == it->hash_b,
	    "a renamed tensor is found by its hash");
	it = item(&d, "t0");
	ok(it != NULL && it->flags == GGUF_DF_REMOVED, "t0 removed");
	ok(has_line(&d, "- tensor t0: F32 [8]"), "its line");
	is_u64(d.t_renamed, 1, "1 renamed");
	is_u64(d.t_removed, 1, "1 removed");
	gguf_diff_free(&d);
	gguf_doc_free(b);

	/* a pending conversion hashes as the data a save writes */
	b = open_doc(pa);
	edit(b, "convert h f32");
	ok(diff(b, c, &d) == 0 && d.n_items == 0,
	    "a pending conversion against the converted file: equal");
	gguf_diff_free(&d);
	diff(a, c, &d);
	it = item(&d, "h");
	ok(it != NULL && it->flags == GGUF_DF_TYPE && it->type_a == GGUF_T_F16 &&
	    it->type_b == GGUF_T_F32, "F16 against its conversion: a type "
	    "change");
	gguf_diff_free(&d);
	{
		struct gguf_diff_opts	o;
		struct gguf_err		err;
		int			calls = 0, rc;

		memset(&o, 0, sizeof o);
		o.progress = count_calls;
		o.arg = &calls;
		last_done = last_total = 0;
		rc = gguf_diff_docs(a, c, &o, &d, &err);
		ok(rc == 0 && calls > 0 && last_done == last_total &&
		    last_total == 2 * 32 + 2 * 32, "hashing progress: t0 and "
		    "t1 of both, 128 bytes (%llu of %llu, %d calls)",
		    (unsigned long long)last_done,
		    (unsigned long long)last_total, calls);
		gguf_diff_free(&d);
		o.progress = cancel_at_once;
		ok(gguf_diff_docs(a, c, &o, &d, &err) == -1 &&
		    strstr(err.msg, "cancelled") != NULL,
		    "hashing cancelled by the callback: %s", err.msg);
	}
	gguf_doc_free(a);
	gguf_doc_free(b);
	gguf_doc_free(c);
}

static void
test_byte_order(const char *pa, const char *pbe)
{
	struct gguf_doc			*a = open_doc(pa), *b = open_doc(pbe);
	struct gguf_diff		 d;

	if (!ok(a != NULL && b != NULL && diff(a, b, &d) == 0,
	    "little against big-endian: diff runs"))
		return;
	is_u64(d.header, 1, "the byte order differs");
	is_u64(d.kv_added + d.kv_removed + d.kv_changed, 0,
	    "the keys are equal whatever their byte order");
	is_u64(d.t_changed, 3, "the tensors' bytes differ");
	ok(has_line(&d, "~ header byte order: little -> big"), "its line");
	gguf_diff_free(&d);
	gguf_doc_free(a);
	gguf_doc_free(b);
}

static void
test_values(const char *pa, const char *pscaled, const char *pbe)
{
	struct gguf_err			 err;
	struct gguf_diff_values		 v, w;
	struct gguf_file		*a, *b, *be;
	const struct gguf_tensor	*ta, *tb;
	double				 d2 = 0, a2 = 0, b2 = 0, ab = 0, x, y;
	int				 i, calls = 0;

	a = gguf_open(pa, &err);
	b = gguf_open(pscaled, &err);
	be = gguf_open(pbe, &err);
	if (!ok(a != NULL && b != NULL && be != NULL, "the files open"))
		return;
	ta = gguf_tensor_at(a, 0);
	tb = gguf_tensor_at(b, 0);
	ok(gguf_diff_values(a, ta, b, tb, 2, NULL, NULL, &v, &err) == 0,
	    "values of t0 against t0 scaled");
	for (i = 0; i < 8; i++) {
		x = i;
		y = i * 1.5;
		d2 += (x - y) * (x - y);
		a2 += x * x;
		b2 += y * y;
		ab += x * y;
	}
	is_u64(v.count, 8, "8 values compared");
	is_u64(v.ndiff, 7, "7 differ (0 is 0 in both)");
	ok(fabs(v.max_abs - 3.5) < 1e-12, "max |a-b| = 3.5");
	ok(fabs(v.rmse - sqrt(d2 / 8)) < 1e-12, "rmse");
	ok(fabs(v.rel_rmse - sqrt(d2 / a2)) < 1e-12, "relative rmse");
	ok(fabs(v.cosine - ab / sqrt(a2 * b2)) < 1e-12 &&
	    fabs(v.cosine - 1) < 1e-12, "cosine 1: the same direction");
	ok(gguf_diff_values(a, ta, b, tb, 1, count_calls, &calls, &w,
	    &err) == 0 &&
	    memcmp(&v, &w, sizeof v) == 0, "the same numbers on one thread");
	ok(calls > 0 && last_done == 8 && last_total == 8,
	    "progress: every element done, of 8");
	calls = 0;
	ok(gguf_diff_values(a, ta, b, tb, 1, cancel_at_once, &calls, &w,
	    &err) == -1 && strcmp(err.msg, "cancelled") == 0,
	    "a progress callback cancels");
	ok(gguf_diff_values(a, ta, be, gguf_tensor_at(be, 0), 0, NULL,
	    NULL, &v, &err) == 0 && v.ndiff == 0 && !(v.max_abs > 0),
	    "a big-endian twin: equal values");
	ok(gguf_diff_values(a, ta, a, gguf_tensor_at(a, 1), 0, NULL, NULL,
	    &v, &err) == 0
	    && fabs(v.max_abs - 100) < 1e-12, "t0 against t1: max |a-b| 100");
	gguf_close(a);
	gguf_close(b);
	gguf_close(be);
}

int
main(void)
{
	struct gguf_save_opts	 so;
	struct gguf_save_info	 si;
	struct gguf_err		 err;
	struct gguf_doc		*d;
	char			 pa[300], pb[300], pc[300], pbe[300], ps[300];

	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	build(tmp("a.gguf", pa, sizeof pa), 0, 1.0f, T0);
	build(tmp("b.gguf", pb, sizeof pb), 0, 1.0f, T1);
	build(tmp("be.gguf", pbe, sizeof pbe), 1, 1.0f, T0);
	build(tmp("s.gguf", ps, sizeof ps), 0, 1.5f, T0);
	/* the conversion of h, saved */
	d = open_doc(pa);
	edit(d, "convert h f32");
	memset(&so, 0, sizeof so);
	so.path = tmp("c.gguf", pc, sizeof pc);
	so.reserve = -1;
	ok(d != NULL && gguf_doc_save(d, &so, &si, &err) == 0,
	    "a converted copy is saved");
	gguf_doc_free(d);

	test_equal_and_keys(pa);
	test_string(pa, pb);
	test_tensors(pa, pc);
	test_byte_order(pa, pbe);
	test_values(pa, ps, pbe);

	unlink(pa);
	unlink(pb);
	unlink(pc);
	unlink(pbe);
	unlink(ps);
	rmdir(dir);
	return tap_done();
}
