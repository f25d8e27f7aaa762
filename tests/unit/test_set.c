/*
 * test_set.c - split models (set.h): shard names, a set opened and joined
 * from any shard, its findings, and where gguf-split's plan puts tensors.
 */
#include "config.h"

#include <sys/stat.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "doc.h"
#include "gguf.h"
#include "set.h"
#include "tap.h"
#include "../tools/ggufgen.h"

static char	dir[] = "/tmp/test_set.XXXXXX";

static void
names(void)
{
	static const struct {
		const char	*path;
		int		 rc;
		size_t		 plen;
		unsigned	 no, count;
	} c[] = {
		{ "m-00001-of-00003.gguf", 0, 1, 1, 3 },
		{ "dir/Model-Q4_K_M-00002-of-00004.gguf", 0, 16, 2, 4 },
		{ "m-000002-of-000010.gguf", 0, 1, 2, 10 },
		{ "m-00003-of-00003.gguf", 0, 1, 3, 3 },
		{ "m-00004-of-00003.gguf", -1, 0, 0, 0 },	/* no > count */
		{ "m-00000-of-00003.gguf", -1, 0, 0, 0 },	/* 1-based */
		{ "m-0001-of-00003.gguf", -1, 0, 0, 0 },	/* 4 digits */
		{ "m-00001-of-00003.bin", -1, 0, 0, 0 },
		{ "-00001-of-00003.gguf", -1, 0, 0, 0 },	/* no prefix */
		{ "d/-00001-of-00003.gguf", -1, 0, 0, 0 },
		{ "m_00001-of-00003.gguf", -1, 0, 0, 0 },
		{ "m-00001-00003.gguf", -1, 0, 0, 0 },
		{ "m-00001-of-99999.gguf", -1, 0, 0, 0 },	/* > u16 */
		{ "model.gguf", -1, 0, 0, 0 },
	};
	size_t		i, plen;
	unsigned	no, count;
	int		rc;
	char		*p;

	for (i = 0; i < sizeof c / sizeof c[0]; i++) {
		plen = 0;
		no = count = 0;
		rc = gguf_set_name(c[i].path, &plen, &no, &count);
		ok(rc == c[i].rc && (rc != 0 || (plen == c[i].plen &&
		    no == c[i].no && count == c[i].count)),
		    "name %s: %s", c[i].path, c[i].rc == 0 ? "a shard" :
		    "not a shard");
	}
	p = gguf_set_path("a/m", 3, 2, 3);
	ok(strcmp(p, "a/m-00002-of-00003.gguf") == 0, "path of shard 2 of 3: %s",
	    p);
	free(p);
	p = gguf_set_path("m-00001-of-00002.gguf", 1, 12, 123);
	ok(strcmp(p, "m-00012-of-00123.gguf") == 0, "path from a prefix "
	    "length: %s", p);
	free(p);
}

/*
 * The header and keys of shard k (0-based) of nt tensors: shard 0 has the
 * general keys, every shard the split keys.
 */
static void
shard_head(struct gg *g, unsigned k, unsigned nt, int32_t total,
    uint16_t count_key)
{
	gg_init(g, 3, 0);
	gg_header(g, nt, k == 0 ? 5 : 3);
	if (k == 0) {
		gg_kv_str(g, "general.architecture", "llama");
		gg_kv_str(g, "general.name", "set");
	}
	gg_kv_u16(g, "split.no", (uint16_t)k);
	gg_kv_i32(g, "split.tensors.count", total);
	gg_kv_u16(g, "split.count", count_key);
}

/*
 * Shard k (0-based) of 3: shard 0 has the general keys, every shard its
 * split keys and two f32 tensors "t<k>.a", "t<k>.b" of 4 values k*10+i.
 */
static void
write_shard(unsigned k, const char *extra_tensor, uint16_t count_key)
{
	struct gg	g;
	uint64_t	ne[1] = { 4 };
	char		path[128], name[16];
	unsigned	t, i, nt = extra_tensor != NULL ? 3 : 2;

	shard_head(&g, k, nt, 6, count_key);
	for (t = 0; t < 2; t++) {
		snprintf(name, sizeof name, "t%u.%c", k, 'a' + t);
		gg_tensor(&g, name, 1, ne, 0, 32 * t);
	}
	if (extra_tensor != NULL)
		gg_tensor(&g, extra_tensor, 1, ne, 0, 64);
	gg_pad(&g, 32);
	for (t = 0; t < nt; t++) {
		for (i = 0; i < 4; i++)
			gg_f32(&g, (float)(k * 10 + i));
		gg_pad(&g, 32);
	}
	snprintf(path, sizeof path, "%s/m-%05u-of-00003.gguf", dir, k + 1);
	if (gg_write(&g, path) != 0)
		ok(0, "write %s", path);
	gg_free(&g);
}

static int
has_finding(const struct gguf_file *f, const char *text)
{
	size_t	i;

	for (i = 0; i < gguf_n_warnings(f); i++)
		if (strstr(gguf_warning_at(f, i)->msg, text) != NULL)
			return 1;
	return 0;
}

/* A finding holding text, located in the file named name (its base). */
static int
has_finding_in(const struct gguf_file *f, const char *name, const char *text)
{
	const struct gguf_warning	*w;
	const char			*b;
	size_t				 i;

	for (i = 0; i < gguf_n_warnings(f); i++) {
		w = gguf_warning_at(f, i);
		if (w->file == NULL || strstr(w->msg, text) == NULL)
			continue;
		b = strrchr(w->file, '/') != NULL ? strrchr(w->file, '/') + 1 :
		    w->file;
		if (strcmp(b, name) == 0 && strncmp(w->msg, name,
		    strlen(name)) != 0)
			return 1;
	}
	return 0;
}

/*
 * Every tensor of a set of write_shard's shards in its place: tensor i is
 * "t<k>.a" or "t<k>.b" of shard k = shard[i / 2], found by its name at i;
 * none past the last.
 */
static void
in_order(const struct gguf_file *f, const unsigned *shard, uint64_t n,
    const char *what)
{
	const struct gguf_tensor	*t;
	char				 name[16];
	uint64_t			 i, bad = 0;

	for (i = 0; i < n; i++) {
		snprintf(name, sizeof name, "t%u.%c", shard[i / 2],
		    'a' + (int)(i % 2));
		t = gguf_tensor_at(f, i);
		if (t == NULL || t->shard != shard[i / 2] || t->name.n !=
		    strlen(name) || memcmp(t->name.p, name, t->name.n) != 0 ||
		    gguf_tensor_find(f, name, strlen(name)) != (int64_t)i) {
			diag("tensor %llu: not %s of shard %u",
			    (unsigned long long)i, name, shard[i / 2] + 1);
			bad++;
		}
	}
	ok(bad == 0 && gguf_tensor_at(f, n) == NULL, "%s: each of the %llu "
	    "tensors in its shard and place, found there by name", what,
	    (unsigned long long)n);
}

static void
sets(void)
{
	static const unsigned	all[] = { 0, 1, 2 }, gap[] = { 0, 2 };
	struct gguf_file		*f;
	const struct gguf_tensor	*t;
	const uint8_t			*p;
	struct gguf_err			 err;
	char				 path[128];
	float				 v;
	int64_t				 i;
	unsigned			 k;

	for (k = 0; k < 3; k++)
		write_shard(k, NULL, 3);
	snprintf(path, sizeof path, "%s/m-00003-of-00003.gguf", dir);
	memset(&err, 0, sizeof err);
	f = gguf_set_open(path, 0, &err);
	ok(f != NULL, "a set opens from its last shard (%s)", err.msg);
	if (f == NULL)
		return;
	is_u64(gguf_n_shards(f), 3, "three shards");
	is_u64(gguf_layout(f)->n_tensors, 6, "the tensors of every shard");
	is_u64(gguf_layout(f)->n_kv, 5, "the keys of shard 1");
	if (!ok(gguf_n_warnings(f) == 0, "a good set has no finding"))
		for (k = 0; k < gguf_n_warnings(f); k++)
			printf("# %s\n", gguf_warning_at(f, k)->msg);
	i = gguf_tensor_find(f, "t2.b", 4);
	ok(i == 5, "tensor t2.b found by name, last");
	t = gguf_tensor_at(f, (uint64_t)(i < 0 ? 0 : i));
	is_u64(t->shard, 2, "t2.b is in shard 3 (index 2)");
	ok(gguf_tensor_file(f, t) == gguf_shard(f, 2), "its file is shard 3");
	p = gguf_tensor_data(f, t, &err);
	memcpy(&v, p + 4, 4);
	ok(p != NULL && v > 20.5f && v < 21.5f, "its data is read from shard 3 (%g)",
	    (double)v);
	ok(gguf_file_changed(f, 0, &err) == 0, "the set has not changed");
	in_order(f, all, 6, "a set of three");
	gguf_close(f);

	f = gguf_set_open(path, GGUF_OPEN_ALONE, &err);
	ok(f != NULL && gguf_n_shards(f) == 0 &&
	    gguf_layout(f)->n_tensors == 2, "GGUF_OPEN_ALONE: the shard alone");
	gguf_close(f);

	/* A tensor in two shards, and a count that disagrees. */
	write_shard(1, "t0.a", 4);
	f = gguf_set_open(path, 0, &err);
	ok(f != NULL && has_finding_in(f, "m-00002-of-00003.gguf", "tensor "
	    "\"t0.a\" is in m-00001-of-00003.gguf too"),
	    "a tensor in two shards is found, naming both files (once each)");
	ok(f != NULL && has_finding_in(f, "m-00002-of-00003.gguf", "split.count "
	    "is 4 but the set has 3 shards"), "split.count that disagrees");
	ok(f != NULL && has_finding(f, "split.tensors.count is 6 but the set "
	    "holds 7 tensors"), "split.tensors.count that disagrees");
	gguf_close(f);

	/* A missing shard: a finding, or with STRICT the error. */
	snprintf(path, sizeof path, "%s/m-00002-of-00003.gguf", dir);
	unlink(path);
	snprintf(path, sizeof path, "%s/m-00001-of-00003.gguf", dir);
	f = gguf_set_open(path, 0, &err);
	ok(f != NULL && gguf_shard(f, 1) == NULL && has_finding(f,
	    "m-00002-of-00003.gguf: missing: shard 2 of 3"),
	    "a missing shard is a finding naming its file");
	ok(f != NULL && gguf_layout(f)->n_tensors == 4,
	    "the tensors of the shards that are there");
	if (f != NULL)
		in_order(f, gap, 4, "the second of three missing");
	gguf_close(f);
	memset(&err, 0, sizeof err);
	f = gguf_set_open(path, GGUF_OPEN_STRICT, &err);
	ok(f == NULL && strstr(err.msg, "shard 2 of 3, "
	    "m-00002-of-00003.gguf: missing") != NULL,
	    "GGUF_OPEN_STRICT: the open fails, naming it (%s)", err.msg);
	gguf_close(f);
}

/* ------------------------------------------- shards opened side by side */

/* What can be wrong with one shard of random_sets' sets. */
enum fate { GOOD, MISSING, NOT_GGUF, CUT, TWICE_HERE, TWICE_THERE, LONG };

static unsigned	rs_state;

static unsigned
rs_next(void)
{
	rs_state = rs_state * 1103515245u + 12345u;
	return rs_state >> 8;
}

/*
 * Shard k of count in folder sub, as fate says: a good shard has the
 * split keys (split.count count_key) and tensors "t<k>.a", "t<k>.b"
 * (and, LONG, 300 more, for a walk long enough to overlap another).
 */
static void
write_rshard(const char *sub, unsigned k, unsigned count, enum fate fate,
    uint16_t count_key)
{
	struct gg	g;
	uint64_t	ne[1] = { 4 };
	char		path[192], name[32];
	unsigned	t, nt = 2, i;
	FILE		*fp;

	snprintf(path, sizeof path, "%s/r-%05u-of-%05u.gguf", sub, k + 1,
	    count);
	if (fate == MISSING)
		return;
	if (fate == NOT_GGUF) {
		if ((fp = fopen(path, "w")) != NULL) {
			fputs("not a model at all\n", fp);
			fclose(fp);
		}
		return;
	}
	if (fate == TWICE_HERE || fate == TWICE_THERE)
		nt = 3;
	else if (fate == LONG)
		nt = 302;
	shard_head(&g, k, nt, (int32_t)(2 * count), count_key);
	for (t = 0; t < nt; t++) {
		if (t < 2)
			snprintf(name, sizeof name, "t%u.%c", k, 'a' + t);
		else if (fate == TWICE_HERE)
			snprintf(name, sizeof name, "t%u.a", k);
		else if (fate == TWICE_THERE)
			snprintf(name, sizeof name, "t%u.b", (k + 1) % count);
		else
			snprintf(name, sizeof name, "t%u.long%u", k, t);
		gg_tensor(&g, name, 1, ne, 0, 32 * t);
	}
	gg_pad(&g, 32);
	for (t = 0; t < nt; t++) {
		for (i = 0; i < 4; i++)
			gg_f32(&g, (float)(k * 10 + i));
		gg_pad(&g, 32);
	}
	if (fate == CUT)	/* inside its tensor infos */
		gg_truncate(&g, 120 + rs_next() % 40);
	if (gg_write(&g, path) != 0)
		ok(0, "write %s", path);
	gg_free(&g);
}

/* Appends to buf (of len, at *at) what printf writes, cut at its end. */
static void __attribute__((format(printf, 4, 5)))
put(char *buf, size_t len, size_t *at, const char *fmt, ...)
{
	va_list	ap;
	int	n;

	if (*at + 1 >= len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *at, len - *at, fmt, ap);
	va_end(ap);
	if (n > 0)
		*at += (size_t)n < len - *at ? (size_t)n : len - *at - 1;
}

/* Everything gguf_set_open gives, as text: the error, or the set. */
static void
set_text(const char *path, unsigned flags, char *buf, size_t len)
{
	const struct gguf_warning	*w;
	const struct gguf_tensor	*t;
	struct gguf_file		*f;
	struct gguf_err			 err;
	const char			*first = NULL, *b;
	size_t				 at = 0, i;
	unsigned			 n;

	buf[0] = '\0';
	memset(&err, 0, sizeof err);
	if ((f = gguf_set_open(path, flags, &err)) == NULL) {
		put(buf, len, &at, "error: %s\n", err.msg);
		return;
	}
	n = gguf_set_errors(f, &first);
	put(buf, len, &at, "shards %zu tensors %llu set errors %u (%s)\n",
	    gguf_n_shards(f), (unsigned long long)gguf_layout(f)->n_tensors,
	    n, first != NULL ? first : "");
	for (i = 0; i < gguf_n_shards(f); i++)
		put(buf, len, &at, "shard %zu %s\n", i,
		    gguf_shard(f, i) != NULL ? "open" : "not open");
	for (i = 0; (t = gguf_tensor_at(f, i)) != NULL; i++)
		put(buf, len, &at, "tensor %.*s in %u\n", (int)t->name.n,
		    t->name.p, t->shard);
	for (i = 0; i < gguf_n_warnings(f); i++) {
		w = gguf_warning_at(f, i);
		b = w->file == NULL ? "-" : strrchr(w->file, '/') != NULL ?
		    strrchr(w->file, '/') + 1 : w->file;
		put(buf, len, &at, "%s %s %llx %s\n",
		    gguf_wlevel_name(w->level), b, (unsigned long long)w->off,
		    w->msg);
	}
	gguf_close(f);
}

/*
 * Random sets, each opened one shard after another and side by side: the
 * two must give the same set, findings and errors, byte for byte. Shards
 * missing, not GGUF, cut short, holding a tensor name twice (which opens
 * that shard again, alone), naming a tensor of another shard, or long;
 * a split.count that disagrees; opened from any shard, strict or not.
 * The seed is SET_SEED's, or the clock's, and printed.
 */
static void
random_sets(void)
{
	static const enum fate	fates[] = { GOOD, GOOD, GOOD, GOOD, GOOD,
	    GOOD, MISSING, NOT_GGUF, CUT, TWICE_HERE, TWICE_THERE, LONG };
#define N_FATES	(sizeof fates / sizeof fates[0])
	static char		seq[65536], par[65536];
	const char		*env = getenv("SET_SEED");
	unsigned		seed, round, k, count, bad = 0, flags;
	char			sub[160], path[192];
	uint16_t		key;
	enum fate		fate;

	seed = env != NULL ? (unsigned)strtoul(env, NULL, 10) :
	    (unsigned)time(NULL);
	rs_state = seed;
	for (round = 0; round < 150; round++) {
		snprintf(sub, sizeof sub, "%s/r%u", dir, round);
		if (mkdir(sub, 0755) != 0) {
			ok(0, "make %s", sub);
			return;
		}
		count = 2 + rs_next() % 11;
		for (k = 0; k < count; k++) {
			fate = fates[rs_next() % N_FATES];
			if (k == 0 && rs_next() % 8 != 0)
				fate = GOOD;	/* mostly a set that opens */
			key = (uint16_t)(rs_next() % 10 == 0 ? count + 1 :
			    count);
			write_rshard(sub, k, count, fate, key);
		}
		snprintf(path, sizeof path, "%s/r-%05u-of-%05u.gguf", sub,
		    1 + rs_next() % count, count);
		flags = rs_next() % 4 == 0 ? GGUF_OPEN_STRICT : 0;
		gguf_set_openers(0);
		set_text(path, flags, seq, sizeof seq);
		gguf_set_openers(8);
		set_text(path, flags, par, sizeof par);
		if (strcmp(seq, par) != 0 && bad++ == 0)
			diag("seed %u round %u (%u shards): one by one:\n%s"
			    "side by side:\n%s", seed, round, count, seq, par);
	}
#undef N_FATES
	ok(bad == 0, "150 random sets (seed %u; SET_SEED=%u to repeat): "
	    "opened side by side as one shard after another", seed, seed);
}

static void
plan(void)
{
	struct gguf_doc	*d;
	struct gguf_err	 err;
	struct gg	 g;
	uint64_t	 ne[1] = { 8 };	/* 32 bytes of f32 */
	char		 path[128], name[8];
	int		*sh = NULL;
	unsigned	 n = 0, i;

	gg_init(&g, 3, 0);
	gg_header(&g, 7, 0);
	for (i = 0; i < 7; i++) {
		snprintf(name, sizeof name, "t%u", i);
		gg_tensor(&g, name, 1, ne, 0, 32 * i);
	}
	gg_pad(&g, 32);
	gg_zeros(&g, 7 * 32);
	snprintf(path, sizeof path, "%s/plain.gguf", dir);
	gg_write(&g, path);
	gg_free(&g);
	memset(&err, 0, sizeof err);
	d = gguf_doc_open(path, &err);
	ok(d != NULL, "a plain model opens as a document");
	if (d == NULL)
		return;
	ok(gguf_split_plan(d, GGUF_SPLIT_BY_COUNT, 3, 0, &sh, &n, &err) == 0 &&
	    n == 3 && sh[0] == 0 && sh[2] == 0 && sh[3] == 1 && sh[5] == 1 &&
	    sh[6] == 2, "by count 3: 3 + 3 + 1 tensors");
	free(sh);
	ok(gguf_split_plan(d, GGUF_SPLIT_BY_COUNT, 3, 1, &sh, &n, &err) == 0 &&
	    n == 4 && sh[0] == 1 && sh[3] == 2 && sh[6] == 3,
	    "no tensor in the first: 0 + 3 + 3 + 1");
	free(sh);
	ok(gguf_split_plan(d, GGUF_SPLIT_BY_SIZE, 64, 0, &sh, &n, &err) == 0 &&
	    n == 4 && sh[1] == 0 && sh[2] == 1 && sh[6] == 3,
	    "by size 64: two 32-byte tensors a shard");
	free(sh);
	ok(gguf_split_plan(d, GGUF_SPLIT_BY_SIZE, 10, 0, &sh, &n, &err) == 0 &&
	    n == 7 && sh[6] == 6, "a tensor larger than the limit: alone");
	free(sh);
	ok(gguf_doc_tensor_remove(d, "t1", 2, &err) == 0 &&
	    gguf_split_plan(d, GGUF_SPLIT_BY_COUNT, 3, 0, &sh, &n, &err) == 0 &&
	    n == 2 && sh[1] == -1 && sh[3] == 0 && sh[4] == 1,
	    "a removed tensor is in no shard and not counted");
	free(sh);
	gguf_doc_free(d);
}

int
main(void)
{
	char	cmd[64];

	if (mkdtemp(dir) == NULL) {
		ok(0, "a scratch directory");
		return tap_done();
	}
	names();
	sets();
	random_sets();
	plan();
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (system(cmd) != 0)
		ok(0, "remove the scratch directory");
	return tap_done();
}
