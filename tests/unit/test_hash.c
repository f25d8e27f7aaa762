/*
 * test_hash.c - the hash engine: known vectors of every kind, and the
 * engine's span hashes (from a file and from memory, on one lane, two
 * lanes, and with a follower) against one-shot hashes of the same bytes.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hash.h"
#include "tap.h"
#include "xxh64pair.h"

static int
text_is(int kind, const void *p, size_t n, const char *want)
{
	struct gguf_digest	d;
	char			buf[GGUF_HASH_TEXTLEN];

	gguf_hash_mem(kind, p, n, &d);
	gguf_hash_text(kind, &d, buf);
	if (strcmp(buf, want) != 0) {
		diag("%s: got %s, want %s", gguf_hash_name(kind), buf, want);
		return 0;
	}
	return 1;
}

static void
vectors(void)
{
	/* xxhsum -H64, xxhsum -H3, sha1sum, sha256sum, Python's uuid5. */
	ok(text_is(GGUF_H_XXH64, "", 0, "ef46db3751d8e999"), "xxh64 of nothing");
	ok(text_is(GGUF_H_XXH64, "abc", 3, "44bc2cf5ad770999"), "xxh64 of abc");
	ok(text_is(GGUF_H_XXH3, "", 0, "2d06800538d394c2"), "xxh3 of nothing");
	ok(text_is(GGUF_H_XXH3, "abc", 3, "78af5f94892f3950"), "xxh3 of abc");
	ok(text_is(GGUF_H_SHA1, "abc", 3,
	    "a9993e364706816aba3e25717850c26c9cd0d89d"), "sha1 of abc");
	ok(text_is(GGUF_H_SHA256, "abc", 3,
	    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
	    "sha256 of abc");
	/* uuid.uuid5(UUID('ef001206-dadc-5f6d-a15f-3359e577d4e5'), 'abc') */
	ok(text_is(GGUF_H_UUID, "abc", 3,
	    "9f2200fc-45e8-5a39-9535-c3ea5c0e0cef"), "uuid of abc");
	ok(text_is(GGUF_H_UUID, "", 0,
	    "6b2748e2-363e-5825-9e7a-d9b30f33ac5b"), "uuid of nothing");
	ok(gguf_hash_parse("sha256", 6) == GGUF_H_SHA256 &&
	    gguf_hash_parse("sha25", 5) == -1 &&
	    strcmp(gguf_hash_name(GGUF_H_XXH3), "xxh3") == 0 &&
	    gguf_hash_name(GGUF_H_COUNT) == NULL, "names");
}

#define NBYTES	(5u << 20)	/* several buffers of the engine */

/* Spans of every shape: padding gaps, a big gap, empty, overlapping, back. */
static const struct { uint64_t off, len; } where[] = {
	{ 0, 32 }, { 64, 3u << 20 }, { (3u << 20) + 96, 1 },
	{ (3u << 20) + 128, 0 }, { (3u << 20) + 128, 5000 },
	{ (4u << 20) + 512, 700000 }, { 100, 4096 }, { 100, 4096 },
	{ NBYTES - 7, 7 }, { 0, 0 },
};
#define NSPANS	(sizeof where / sizeof where[0])

static struct gguf_span	spans[NSPANS];

/* The spans of `where`, in the file fd or the memory mem. */
static void
spans_in(int fd, const uint8_t *mem)
{
	size_t	i;

	for (i = 0; i < NSPANS; i++) {
		memset(&spans[i], 0, sizeof spans[i]);
		spans[i].fd = fd;
		spans[i].mem = mem;
		spans[i].off = where[i].off;
		spans[i].len = where[i].len;
	}
}

static int
check_job(int fd, const uint8_t *mem, const uint8_t *data, unsigned each,
    unsigned all, unsigned threads, const char *what)
{
	struct gguf_hash_job	 j;
	struct gguf_hashes	 got[NSPANS], gall;
	struct gguf_digest	 want;
	struct gguf_err		 err;
	uint8_t			*cat;
	size_t			 i, n = 0;
	int			 k, good = 1;

	memset(&j, 0, sizeof j);
	memset(got, 0, sizeof got);
	memset(&gall, 0, sizeof gall);
	spans_in(fd, mem);
	j.spans = spans;
	j.n_spans = NSPANS;
	j.each = each;
	j.all = all;
	j.each_out = got;
	j.all_out = &gall;
	j.threads = threads;
	if (gguf_hash_run(&j, &err) != 0) {
		diag("%s: %s", what, err.msg);
		return 0;
	}
	cat = malloc(NBYTES * 2);
	for (i = 0; i < NSPANS; i++) {
		memcpy(cat + n, data + spans[i].off, spans[i].len);
		n += spans[i].len;
		for (k = 0; k < GGUF_H_COUNT; k++) {
			if (!(each & GGUF_HM(k))) {
				good &= got[i].d[k].len == 0;
				continue;
			}
			gguf_hash_mem(k, data + spans[i].off,
			    spans[i].len, &want);
			if (!gguf_digest_eq(&got[i].d[k], &want)) {
				diag("%s: span %zu, %s differs", what, i,
				    gguf_hash_name(k));
				good = 0;
			}
		}
	}
	for (k = 0; k < GGUF_H_COUNT; k++) {
		if (!(all & GGUF_HM(k)))
			continue;
		gguf_hash_mem(k, cat, n, &want);
		if (!gguf_digest_eq(&gall.d[k], &want)) {
			diag("%s: all spans, %s differs", what,
			    gguf_hash_name(k));
			good = 0;
		}
	}
	free(cat);
	return good;
}

/* A temporary file holding p[0..n), already unlinked: its descriptor,
   or -1 after a failed test. */
static int
temp_with(const uint8_t *p, size_t n)
{
	char	path[] = "/tmp/test_hash.XXXXXX";
	int	fd = mkstemp(path);

	if (fd >= 0)
		unlink(path);
	if (fd < 0 || write(fd, p, n) != (ssize_t)n) {
		ok(0, "temporary file: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

/* n spans of 4 KiB of fd in a row, span bad replaced by past. */
static void
spans_past(struct gguf_span *sp, size_t n, int fd, size_t bad,
    const struct gguf_span *past)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		memset(&sp[i], 0, sizeof sp[i]);
		sp[i].fd = fd;
		sp[i].off = i * 4096;
		sp[i].len = 4096;
	}
	sp[bad] = *past;
}

static int
cancel_at_once(void *arg, uint64_t done, uint64_t total)
{
	(void)arg;
	(void)total;
	return done > 0;
}

static void
engine(void)
{
	uint8_t			*data;
	struct gguf_hash_job	 j;
	struct gguf_hashes	 h[NSPANS], a;
	struct gguf_err		 err;
	struct gguf_span	 past = { 0, NULL, NBYTES - 10, 20, 0 };
	uint32_t		 x = 12345;
	size_t			 i;
	int			 fd, rc;
	unsigned		 t;

	data = malloc(NBYTES);
	for (i = 0; i < NBYTES; i++) {
		x = x * 1103515245u + 12345u;
		data[i] = (uint8_t)(x >> 16);
	}
	if ((fd = temp_with(data, NBYTES)) < 0) {
		free(data);
		return;
	}
	past.fd = fd;
	/* 3 and 5: each span's hash on runs of the list, all's apart */
	for (t = 1; t <= 5; t += t < 3 ? 1 : 2) {
		ok(check_job(fd, NULL, data, GGUF_HM_ALL, GGUF_HM_ALL, t,
		    "file"), "file, every kind of each span and of all, "
		    "%u thread(s)", t);
		ok(check_job(fd, NULL, data, GGUF_HM(GGUF_H_XXH64), 0, t,
		    "file each"), "file, xxh64 of each span only, %u "
		    "thread(s)", t);
		ok(check_job(fd, NULL, data, 0, GGUF_HM(GGUF_H_SHA256), t,
		    "file all"), "file, sha256 of all spans only, %u "
		    "thread(s)", t);
		ok(check_job(-1, data, data, GGUF_HM(GGUF_H_XXH3) |
		    GGUF_HM(GGUF_H_SHA1), GGUF_HM(GGUF_H_UUID), t, "memory"),
		    "memory, %u thread(s)", t);
	}

	/* A span past the end of the file: an error with its offset. */
	memset(&j, 0, sizeof j);
	j.spans = &past;
	j.n_spans = 1;
	j.each = GGUF_HM(GGUF_H_XXH64);
	j.each_out = h;
	ok(gguf_hash_run(&j, &err) == -1 && err.has_off &&
	    err.off == NBYTES && strstr(err.msg, "ends before") != NULL,
	    "a span past the end of the file fails at its offset (%s)",
	    err.msg);

	/* Every thread asked for is used, a thread a run of spans. */
	memset(&j, 0, sizeof j);
	spans_in(fd, NULL);
	j.spans = spans;
	j.n_spans = NSPANS;
	j.each = GGUF_HM(GGUF_H_XXH64);
	j.each_out = h;
	j.threads = 4;
	rc = gguf_hash_run(&j, &err);
	ok(rc == 0 && j.threads_used == 4,
	    "each span's xxh64 on 4 threads (%u)", j.threads_used);
	j.all = GGUF_HM(GGUF_H_SHA256);
	j.all_out = &a;
	rc = gguf_hash_run(&j, &err);
	ok(rc == 0 && j.threads_used == 4,
	    "each span's and all's on 4 threads, 3 and 1 (%u)",
	    j.threads_used);
	j.n_spans = 2;
	rc = gguf_hash_run(&j, &err);
	ok(rc == 0 && j.threads_used == 3,
	    "2 spans: no more threads than spans, and all's (%u)",
	    j.threads_used);

	/* All alone on two cores: read on one thread, hashed on the other;
	   a span past the end and a cancel stop it as on one. */
	memset(&j, 0, sizeof j);
	spans_in(fd, NULL);
	j.spans = spans;
	j.n_spans = NSPANS;
	j.all = GGUF_HM(GGUF_H_XXH64);
	j.all_out = &a;
	j.threads = 2;
	rc = gguf_hash_run(&j, &err);
	ok(rc == 0 && j.threads_used == 2,
	    "all's xxh64 alone: read and hashed on 2 threads (%u)",
	    j.threads_used);
	j.threads = 1;
	rc = gguf_hash_run(&j, &err);
	ok(rc == 0 && j.threads_used == 1,
	    "... and on 1 when asked (%u)", j.threads_used);
	{
		struct gguf_span	sp3[3];

		spans_past(sp3, 3, fd, 2, &past);
		j.spans = sp3;
		j.n_spans = 3;
		j.threads = 2;
		ok(gguf_hash_run(&j, &err) == -1 && err.has_off &&
		    err.off == NBYTES && j.err_span == 2 &&
		    strstr(err.msg, "ends before") != NULL,
		    "all alone on 2 threads: a span past the end fails at "
		    "its offset, span 2 (%s)", err.msg);
	}
	j.spans = spans;
	j.n_spans = NSPANS;
	j.progress = cancel_at_once;
	ok(gguf_hash_run(&j, &err) == -1 && strcmp(err.msg, "cancelled") == 0,
	    "all alone on 2 threads: a cancel stops the job (%s)", err.msg);

	/* A span past the end of the file, among others on 4 threads: the
	   error is its own, at its offset. */
	{
		struct gguf_span	sp5[5];

		spans_past(sp5, 5, fd, 3, &past);
		memset(&j, 0, sizeof j);
		j.spans = sp5;
		j.n_spans = 5;
		j.each = GGUF_HM(GGUF_H_XXH64);
		j.all = GGUF_HM(GGUF_H_XXH64);
		j.each_out = h;
		j.all_out = &a;
		j.threads = 4;
		ok(gguf_hash_run(&j, &err) == -1 && err.has_off &&
		    err.off == NBYTES && j.err_span == 3 &&
		    strstr(err.msg, "ends before") != NULL,
		    "4 threads: a span past the end fails at its offset, "
		    "span 3 (%s)", err.msg);
	}

	/* A cancel from the progress callback. */
	for (t = 1; t <= 4; t++) {
		memset(&j, 0, sizeof j);
		spans_in(fd, NULL);
		j.spans = spans;
		j.n_spans = NSPANS;
		j.each = GGUF_HM(GGUF_H_XXH64);
		j.all = t % 2 == 0 ? GGUF_HM(GGUF_H_SHA1) : 0;
		j.threads = t > 2 ? 4 : 0;
		j.each_out = h;
		j.all_out = &a;
		j.progress = cancel_at_once;
		ok(gguf_hash_run(&j, &err) == -1 &&
		    strcmp(err.msg, "cancelled") == 0, "a cancel stops the "
		    "job (%s)", t == 1 ? "two lanes" : t == 2 ?
		    "with a follower" : t == 3 ? "4 lanes" :
		    "3 lanes and all's");
	}
	close(fd);
	free(data);
}

/*
 * A model of many tensors (4,000 of 1 byte to 16 KiB, 32-byte aligned,
 * over 32 MiB of memory): each one's xxh64 and all's, on 1, 2 and 4
 * threads, are those of the bytes, whichever thread claimed a tensor.
 */
#define MANY		4000
#define MANYBYTES	((size_t)32 << 20)

static void
many(void)
{
	static struct gguf_span		sp[MANY];
	static struct gguf_hashes	got[MANY];
	struct gguf_hash_job		j;
	struct gguf_hashes		all;
	struct gguf_digest		want, one;
	struct gguf_err			err;
	uint8_t				*data = malloc(MANYBYTES);
	uint64_t			off = 0, x = 99;
	size_t				i, bad;
	unsigned			t;

	for (i = 0; i < MANYBYTES; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		data[i] = (uint8_t)(x >> 56);
	}
	for (i = 0; i < MANY; i++) {
		memset(&sp[i], 0, sizeof sp[i]);
		sp[i].fd = -1;
		sp[i].mem = data;
		sp[i].off = off;
		sp[i].len = 1 + (uint64_t)(data[i] * 64 + data[i + 1]) %
		    16384;
		off = (off + sp[i].len + 31) / 32 * 32;
	}
	for (t = 1; t <= 4; t *= 2) {
		memset(&j, 0, sizeof j);
		memset(got, 0, sizeof got);
		memset(&all, 0, sizeof all);
		j.spans = sp;
		j.n_spans = MANY;
		j.each = j.all = GGUF_HM(GGUF_H_XXH64);
		j.each_out = got;
		j.all_out = &all;
		j.threads = t;
		bad = MANY + 1;
		if (gguf_hash_run(&j, &err) == 0) {
			for (bad = 0; bad < MANY; bad++) {
				gguf_hash_mem(GGUF_H_XXH64, data + sp[bad].off,
				    sp[bad].len, &want);
				if (!gguf_digest_eq(&got[bad].d[GGUF_H_XXH64],
				    &want))
					break;
			}
		}
		ok(bad == MANY, "%d tensors, %u thread(s): each one's xxh64 "
		    "is that of its bytes (first wrong: %zu)", MANY, t, bad);
		if (t == 1)
			one = all.d[GGUF_H_XXH64];
		else
			ok(gguf_digest_eq(&all.d[GGUF_H_XXH64], &one),
			    "... and all's is one thread's");
	}
	free(data);
}

/*
 * Spans much larger than the ring, each one's sha256 and xxh64 and all's
 * xxh64 on two threads from a file: a span thread 0 takes costs it much
 * more than all's costs thread 1, which catches up, so thread 0 hands its
 * running state on part way through. Every digest is that of the bytes,
 * and some state was handed on (in at most 10 runs: when thread 0 cuts
 * depends on the timing).
 */
#define BIGSPANS	4
#define BIGSPAN		((size_t)12 << 20)

static void
handoff(void)
{
	struct gguf_span	 sp[BIGSPANS];
	struct gguf_hashes	 got[BIGSPANS], all;
	struct gguf_hash_job	 j;
	struct gguf_digest	 want;
	struct gguf_err		 err;
	size_t			 n = BIGSPANS * BIGSPAN + 4096, i, at, handed = 0;
	uint8_t			*data = malloc(n), *cat = malloc(n);
	uint64_t		 x = 7;
	int			 fd, run, k, good = 1;
	const int		 kinds[2] = { GGUF_H_SHA256, GGUF_H_XXH64 };
	struct gguf_digest	 want_all;

	if (data == NULL || cat == NULL) {
		ok(0, "out of memory");
		free(data);
		free(cat);
		return;
	}
	for (i = 0; i < n; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		data[i] = (uint8_t)(x >> 56);
	}
	if ((fd = temp_with(data, n)) < 0) {
		free(data);
		free(cat);
		return;
	}
	for (i = 0, at = 0; i < BIGSPANS; i++) {
		memset(&sp[i], 0, sizeof sp[i]);
		sp[i].fd = fd;
		sp[i].off = 4096 + i * BIGSPAN - (i % 2) * 100;
		sp[i].len = BIGSPAN - (i % 3) * 1000;
		memcpy(cat + at, data + sp[i].off, sp[i].len);
		at += sp[i].len;
	}
	gguf_hash_mem(GGUF_H_XXH64, cat, at, &want_all);
	for (run = 0; run < 10 && good && handed == 0; run++) {
		memset(&j, 0, sizeof j);
		memset(got, 0, sizeof got);
		memset(&all, 0, sizeof all);
		j.spans = sp;
		j.n_spans = BIGSPANS;
		j.each = GGUF_HM(GGUF_H_SHA256) | GGUF_HM(GGUF_H_XXH64);
		j.all = GGUF_HM(GGUF_H_XXH64);
		j.each_out = got;
		j.all_out = &all;
		j.threads = 2;
		if (gguf_hash_run(&j, &err) != 0) {
			diag("run %d: %s", run, err.msg);
			good = 0;
			break;
		}
		handed += j.handed;
		if (!gguf_digest_eq(&all.d[GGUF_H_XXH64], &want_all)) {
			diag("run %d: all spans' xxh64 differs", run);
			good = 0;
		}
		for (i = 0; i < BIGSPANS; i++)
			for (k = 0; k < 2; k++) {
				gguf_hash_mem(kinds[k], data + sp[i].off,
				    sp[i].len, &want);
				if (!gguf_digest_eq(&got[i].d[kinds[k]],
				    &want)) {
					diag("run %d: span %zu, %s differs",
					    run, i, gguf_hash_name(kinds[k]));
					good = 0;
				}
			}
	}
	ok(good, "spans of 12 MB on two threads: each one's sha256 and "
	    "xxh64, and all's xxh64, are those of the bytes (%d run(s))",
	    run);
	ok(handed > 0, "... and thread 0 handed a running state on to "
	    "thread 1 (%zu time(s))", handed);
	close(fd);
	free(data);
	free(cat);
}

/*
 * gguf_xxh64_pair against the library alone: two states of random seeds,
 * each begun with a random prefix (so that either may hold a part of a
 * stripe), fed the same random pieces through the pair then
 * XXH64_update for what it left, beside two states fed by XXH64_update
 * only. The digests must agree after every piece; the pair must take
 * every whole stripe when neither holds a part, and nothing else. The
 * seed is HASH_SEED, or the clock's; a failure says it.
 */
static void
pairs(void)
{
	XXH64_state_t	*a = XXH64_createState(), *b = XXH64_createState();
	XXH64_state_t	*ra = XXH64_createState(), *rb = XXH64_createState();
	const char	*env = getenv("HASH_SEED");
	uint64_t	 seed, sa, sb;
	uint8_t		*buf = malloc(1 << 16);
	size_t		 n, done, i, k, took = 0, bad = 0;
	unsigned	 round;

	seed = env != NULL ? strtoull(env, NULL, 0) :
	    (uint64_t)time(NULL) * 2654435761u;
	tap_seed(seed);
	for (round = 0; round < 3000 && bad == 0; round++) {
		sa = tap_rand(UINT64_MAX);
		sb = round % 3 == 0 ? sa : tap_rand(UINT64_MAX);
		XXH64_reset(a, sa);
		XXH64_reset(ra, sa);
		XXH64_reset(b, sb);
		XXH64_reset(rb, sb);
		for (k = 0; k < 2; k++) {	/* the prefixes, mostly none */
			n = tap_rand(3) == 0 ? tap_rand(100) : 0;
			for (i = 0; i < n; i++)
				buf[i] = (uint8_t)tap_rand(256);
			XXH64_update(k == 0 ? a : b, buf, n);
			XXH64_update(k == 0 ? ra : rb, buf, n);
		}
		for (k = tap_rand(6); k > 0 && bad == 0; k--) {
			/* whole stripes, a few bytes more, or up to 64 KiB */
			switch (tap_rand(3)) {
			case 0:
				n = 32 * tap_rand(40);
				break;
			case 1:
				n = tap_rand(200);
				break;
			default:
				n = tap_rand((1 << 16) + 1);
			}
			for (i = 0; i < n; i++)
				buf[i] = (uint8_t)tap_rand(256);
			done = (a->memsize == 0 && b->memsize == 0) ?
			    (n & ~(size_t)31) : 0;
			if (gguf_xxh64_pair(a, b, buf, n) != done) {
				diag("seed 0x%016llx round %u: the pair took "
				    "other than %zu of %zu bytes",
				    (unsigned long long)seed, round, done, n);
				bad++;
			}
			took += done;
			XXH64_update(a, buf + done, n - done);
			XXH64_update(b, buf + done, n - done);
			XXH64_update(ra, buf, n);
			XXH64_update(rb, buf, n);
			if (XXH64_digest(a) != XXH64_digest(ra) ||
			    XXH64_digest(b) != XXH64_digest(rb)) {
				diag("seed 0x%016llx round %u: digests differ "
				    "after %zu bytes", (unsigned long long)seed,
				    round, n);
				bad++;
			}
		}
	}
	ok(bad == 0 && took > 0, "xxh64 of two states in one pass: the "
	    "library's digests, 3000 random runs (HASH_SEED=0x%016llx)",
	    (unsigned long long)seed);
	XXH64_freeState(a);
	XXH64_freeState(b);
	XXH64_freeState(ra);
	XXH64_freeState(rb);
	free(buf);
}

int
main(void)
{
	pairs();
	vectors();
	engine();
	many();
	handoff();
	return tap_done();
}
