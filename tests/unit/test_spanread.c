/*
 * test_spanread.c - the span reader: every byte of every span reaches the
 * consumer once per consuming thread, in order, on one thread a span, cut
 * at multiples of the span's unit; spans in two files and in memory; both
 * modes on one and two threads; progress that never counts bytes not yet
 * consumed; errors that name the offset and the span; stop and cancel.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gguf.h"
#include "hash.h"
#include "spanread.h"
#include "tap.h"
#include "../tools/ggufgen.h"

#define NBYTES	(3u << 20)	/* a file: several pieces */

/* Where the spans lie: file 0 or 1, offset, length, unit. */
static const struct {
	int		 file;
	uint64_t	 off, len;
	uint32_t	 unit;
} where[] = {
	{ 0, 0, 32, 0 }, { 0, 64, 1u << 20, 34 },	/* Q8_0 blocks */
	{ 0, (1u << 20) + 96, 1, 0 }, { 0, (1u << 20) + 128, 0, 34 },
	{ 0, (1u << 20) + 128, 700001, 210 },	/* not a whole number */
	{ 1, 100, 600000, 144 }, { 1, 700000, 5000, 1 },
	{ 0, 100, 4096, 0 }, { 0, 100, 4096, 0 },	/* back, twice */
	{ 1, NBYTES - 7, 7, 0 }, { 0, 0, 0, 0 },
	{ 0, 2u << 20, 1u << 20, 65536 },		/* the largest unit */
};
#define NSPANS	(sizeof where / sizeof where[0])

static uint8_t		*data[2];
static int		 fds[2];
static struct gguf_span	 spans[NSPANS];

struct seen {
	int			 share;
	int			 slow;		/* thread 1 takes its time */
	uint64_t		 next[2][NSPANS];	/* pos expected */
	int			 owner[NSPANS];	/* split: the thread (or -1) */
	int			 lasts[2][NSPANS];
	int			 bad;
	char			 why[160];
	atomic_uint_least64_t	 consumed[2];
	uint64_t		 max_done;
	int			 over;		/* progress ran ahead */
	int			 stop_at;	/* span to stop at, or -1 */
};

static void
bad(struct seen *s, const char *why, size_t span)
{
	if (!s->bad)
		snprintf(s->why, sizeof s->why, "span %zu: %s", span, why);
	s->bad = 1;
}

static int
consume(void *arg, unsigned th, size_t span, uint64_t pos, const uint8_t *p,
    size_t n, int last)
{
	struct seen		*s = arg;
	const struct gguf_span	*sp = &spans[span];
	const uint8_t		*want;
	unsigned		 k = s->share ? th : 0;

	if (th >= GGUF_SR_THREADS || span >= NSPANS) {
		bad(s, "thread or span out of range", span);
		return 0;
	}
	if (!s->share) {
		if (s->owner[span] < 0)
			s->owner[span] = (int)th;
		else if (s->owner[span] != (int)th)
			bad(s, "on two threads", span);
	}
	if (pos != s->next[k][span])
		bad(s, "a piece out of order", span);
	if (s->lasts[k][span] != 0)
		bad(s, "a piece after the last", span);
	if (pos + n > sp->len)
		bad(s, "a piece past the end", span);
	else if (n > 0) {
		want = (sp->fd >= 0 ? data[where[span].file] : sp->mem) +
		    sp->off + pos;
		if (memcmp(p, want, n) != 0)
			bad(s, "wrong bytes", span);
	}
	if (!last && sp->unit > 1 && (pos + n) % sp->unit != 0)
		bad(s, "a piece cut inside a unit", span);
	if (last != (pos + n == sp->len))
		bad(s, "last where it is not, or not where it is", span);
	s->next[k][span] = pos + n;
	s->lasts[k][span] += last;
	if (s->slow && th == 1)
		usleep(100);
	atomic_fetch_add(&s->consumed[th], n);
	return s->stop_at == (int)span ? 1 : 0;
}

static int
progress(void *arg, uint64_t done, uint64_t total)
{
	struct seen	*s = arg;
	uint64_t	 a = atomic_load(&s->consumed[0]);
	uint64_t	 b = atomic_load(&s->consumed[1]);
	uint64_t	 have = s->share ? (a < b ? a : b) : a + b;

	(void)total;
	if (done > have)
		s->over = 1;
	if (done > s->max_done)
		s->max_done = done;
	return 0;
}

static void
spans_in(int mem)
{
	size_t	i;

	for (i = 0; i < NSPANS; i++) {
		memset(&spans[i], 0, sizeof spans[i]);
		spans[i].fd = mem ? -1 : fds[where[i].file];
		spans[i].mem = mem ? data[where[i].file] : NULL;
		spans[i].off = where[i].off;
		spans[i].len = where[i].len;
		spans[i].unit = where[i].unit;
	}
}

static void
seen_init(struct seen *s, int share)
{
	size_t	i;

	memset(s, 0, sizeof *s);
	s->share = share;
	s->stop_at = -1;
	for (i = 0; i < NSPANS; i++)
		s->owner[i] = -1;
	atomic_init(&s->consumed[0], 0);
	atomic_init(&s->consumed[1], 0);
}

/* One run: every span, whole, once per consuming thread. */
static void
whole(int mode, unsigned threads, int mem, int slow)
{
	struct gguf_spanread	 r;
	struct gguf_err		 err;
	struct seen		 s;
	uint64_t		 total = 0;
	size_t			 i;
	unsigned		 k, nk = mode == GGUF_SR_SHARE ? 2 : 1;
	int			 rc, good = 1;
	const char		*what = mode == GGUF_SR_SHARE ? "share" : "split";

	spans_in(mem);
	seen_init(&s, mode == GGUF_SR_SHARE);
	s.slow = slow;
	memset(&r, 0, sizeof r);
	r.spans = spans;
	r.n_spans = NSPANS;
	r.consume = consume;
	r.arg = &s;
	r.mode = mode;
	r.threads = threads;
	r.progress = progress;
	r.parg = &s;
	rc = gguf_spanread(&r, &err);
	for (i = 0; i < NSPANS; i++) {
		total += spans[i].len;
		for (k = 0; k < nk; k++)
			if (s.next[k][i] != spans[i].len ||
			    s.lasts[k][i] != 1) {
				if (good)
					diag("span %zu, thread %u: %llu of "
					    "%llu bytes, %d last", i, k,
					    (unsigned long long)s.next[k][i],
					    (unsigned long long)spans[i].len,
					    s.lasts[k][i]);
				good = 0;
			}
	}
	if (s.bad)
		diag("%s", s.why);
	ok(rc == 0 && good && !s.bad, "%s, %u thread(s), %s%s: every byte "
	    "once a consumer, in order, cut at units", what, threads,
	    mem ? "memory" : "two files", slow ? ", a slow follower" : "");
	ok(!s.over && s.max_done == total, "%s, %u thread(s), %s%s: "
	    "progress counts only consumed bytes and ends at the total",
	    what, threads, mem ? "memory" : "two files",
	    slow ? ", a slow follower" : "");
	if (mode == GGUF_SR_SPLIT && threads == 2) {
		int	on1 = 0;

		for (i = 0; i < NSPANS; i++)
			on1 |= s.owner[i] == 1;
		ok(on1 && s.owner[0] == 0, "split on two threads: the first "
		    "spans on thread 0, later ones on thread 1");
	}
}

static int
cancel_soon(void *arg, uint64_t done, uint64_t total)
{
	(void)arg;
	(void)total;
	return done > 0;
}

static void
failures(void)
{
	struct gguf_spanread	 r;
	struct gguf_err		 err;
	struct gguf_span	 sp[2];
	struct seen		 s;
	int			 mode;

	/* A span past the end of the second file. */
	spans_in(0);
	sp[0] = spans[0];
	sp[1] = spans[6];
	sp[1].off = NBYTES - 10;
	sp[1].len = 20;
	seen_init(&s, 0);
	memset(&r, 0, sizeof r);
	r.spans = sp;
	r.n_spans = 2;
	r.consume = consume;
	r.arg = &s;
	r.threads = 1;
	memset(&err, 0, sizeof err);
	ok(gguf_spanread(&r, &err) == -1 && err.has_off &&
	    err.off == NBYTES && r.err_span == 1 &&
	    strstr(err.msg, "ends before") != NULL, "a span past the end of "
	    "its file fails at the offset, naming the span (%s)", err.msg);

	/* A unit too large. */
	sp[1] = spans[1];
	sp[1].unit = GGUF_SR_MAXUNIT + 1;
	ok(gguf_spanread(&r, &err) == -1 && r.err_span == 1 &&
	    strstr(err.msg, "unit") != NULL, "a unit too large (%s)",
	    err.msg);

	/* The consumer stops; progress cancels. */
	for (mode = GGUF_SR_SPLIT; mode <= GGUF_SR_SHARE; mode++) {
		spans_in(0);
		seen_init(&s, mode == GGUF_SR_SHARE);
		s.stop_at = 4;
		memset(&r, 0, sizeof r);
		r.spans = spans;
		r.n_spans = NSPANS;
		r.consume = consume;
		r.arg = &s;
		r.mode = mode;
		ok(gguf_spanread(&r, &err) == -1 && r.err_span == 4 &&
		    strcmp(err.msg, "stopped") == 0, "%s: the consumer "
		    "stops the read (%s)", mode ? "share" : "split", err.msg);
		seen_init(&s, mode == GGUF_SR_SHARE);
		r.progress = cancel_soon;
		ok(gguf_spanread(&r, &err) == -1 &&
		    r.err_span == (size_t)-1 &&
		    strcmp(err.msg, "cancelled") == 0, "%s: progress "
		    "cancels (%s)", mode ? "share" : "split", err.msg);
	}
}

/* ------------------------------------------------- a file's mapping */

#define MAPBYTES	((uint64_t)160 << 20)	/* past what may be mapped */
#define MAPBOUND	((uint64_t)96 << 20)	/* what may be, and more */

static uint8_t
map_byte(uint64_t x)
{
	return (uint8_t)(x ^ x >> 8 ^ x >> 16 ^ x >> 24);
}

struct mapseen {
	uint64_t	next[2];	/* each thread's */
	atomic_uint	max_rss_kb;
	atomic_uint	calls;
	atomic_int	bad;
};

static int
map_consume(void *arg, unsigned th, size_t span, uint64_t pos,
    const uint8_t *p, size_t n, int last)
{
	struct mapseen	*m = arg;
	uint64_t	 rss;
	unsigned	 kb;
	size_t		 i;

	(void)last;
	if (th > 1 || span != 0 || pos != m->next[th])
		atomic_store(&m->bad, 1);
	for (i = 0; i < n && !atomic_load(&m->bad); i++)
		if (p[i] != map_byte(pos + i))
			atomic_store(&m->bad, 1);
	m->next[th] = pos + n;
	if (atomic_fetch_add(&m->calls, 1) % 8 == 0) {
		rss = tap_rss_file();
		kb = (unsigned)(rss >> 10);
		if (kb > atomic_load(&m->max_rss_kb))
			atomic_store(&m->max_rss_kb, kb);
	}
	return atomic_load(&m->bad);
}

/*
 * Both threads over a file's mapping (GGUF_SR_SHARE), thread 1 slow: it
 * reads at most a ring of pieces behind thread 0, so what it reads was
 * read just before, and is still in the cache.
 */
struct lagseen {
	atomic_uint_least64_t	 at[2];		/* bytes consumed, each thread */
	uint64_t		 max_lag;	/* thread 0 ahead of thread 1 */
	int			 bad;
};

static int
lag_consume(void *arg, unsigned th, size_t span, uint64_t pos,
    const uint8_t *p, size_t n, int last)
{
	struct lagseen	*m = arg;
	uint64_t	 a, b;

	(void)last;
	if (th > 1 || span != 0 || (n > 0 && (p[0] != map_byte(pos) ||
	    p[n - 1] != map_byte(pos + n - 1))))
		m->bad = 1;
	atomic_fetch_add(&m->at[th], n);
	if (th == 1) {
		a = atomic_load(&m->at[0]);
		b = atomic_load(&m->at[1]);
		if (a > b && a - b > m->max_lag)
			m->max_lag = a - b;
		usleep(100);
	}
	return 0;
}

static void
lag(const struct gguf_span *sp)
{
	struct gguf_spanread	 r;
	struct gguf_err		 err;
	struct lagseen		 m;
	uint64_t		 bound = (uint64_t)(GGUF_SR_NSLOT + 1) *
				    GGUF_SR_CHUNK;

	memset(&m, 0, sizeof m);
	atomic_init(&m.at[0], 0);
	atomic_init(&m.at[1], 0);
	memset(&r, 0, sizeof r);
	r.spans = sp;
	r.n_spans = 1;
	r.consume = lag_consume;
	r.arg = &m;
	r.mode = GGUF_SR_SHARE;
	r.threads = 2;
	ok(gguf_spanread(&r, &err) == 0 && !m.bad &&
	    atomic_load(&m.at[0]) == MAPBYTES &&
	    atomic_load(&m.at[1]) == MAPBYTES, "a file's mapping, shared by "
	    "two threads: every byte on both");
	ok(m.max_lag <= bound, "... thread 1 at most %llu KiB behind thread "
	    "0 (bound %llu)", (unsigned long long)(m.max_lag >> 10),
	    (unsigned long long)(bound >> 10));
}

/*
 * A tensor read in place from a file's mapping on one thread, and read
 * on one thread to be consumed on both (GGUF_SR_SHARE): every byte right,
 * in order, and the pages mapped at any time bounded (they are given
 * back once every thread is done with them).
 */
static void
mapped(void)
{
	char			 path[] = "/tmp/test_spanread.XXXXXX";
	struct gg		 g;
	struct gguf_file	*f;
	struct gguf_span	 sp;
	struct gguf_spanread	 r;
	struct gguf_err		 err;
	struct mapseen		 m;
	uint64_t		 ne = MAPBYTES, x;
	uint8_t			*buf;
	int			 fd, share;

	fd = mkstemp(path);
	if (fd < 0) {
		ok(0, "temporary file: %s", strerror(errno));
		return;
	}
	close(fd);
	gg_init(&g, 3, 0);
	gg_header(&g, 1, 0);
	gg_tensor(&g, "t", 1, &ne, GGUF_T_I8, 0);
	gg_pad(&g, 32);
	buf = malloc(1u << 20);
	for (x = 0; x < MAPBYTES; x++) {
		buf[x & ((1u << 20) - 1)] = map_byte(x);
		if ((x & ((1u << 20) - 1)) == (1u << 20) - 1)
			gg_bytes(&g, buf, 1u << 20);
	}
	free(buf);
	memset(&err, 0, sizeof err);
	if (gg_write(&g, path) != 0 || (f = gguf_open(path, &err)) == NULL ||
	    gguf_tensor_span_mapped(f, 0, &sp, &err) != 0) {
		ok(0, "a file of %llu MiB: %s", (unsigned long long)(MAPBYTES >>
		    20), err.msg);
		gg_free(&g);
		unlink(path);
		return;
	}
	gg_free(&g);
	for (share = 0; share < 2; share++) {
		memset(&m, 0, sizeof m);
		memset(&r, 0, sizeof r);
		r.spans = &sp;
		r.n_spans = 1;
		r.consume = map_consume;
		r.arg = &m;
		r.mode = share ? GGUF_SR_SHARE : GGUF_SR_SPLIT;
		r.threads = share ? 2 : 1;
		ok(gguf_spanread(&r, &err) == 0 && !m.bad &&
		    m.next[0] == MAPBYTES && m.next[1] == (share ? MAPBYTES :
		    0), "a file's mapping%s: every byte in "
		    "order", share ? ", read on one thread, consumed on "
		    "both" : "");
		if (m.max_rss_kb == 0)
			skip("no RssFile in /proc/self/status");
		else
			ok((uint64_t)m.max_rss_kb << 10 < MAPBOUND, "... at "
			    "most %llu MiB mapped at a time of %llu MiB "
			    "(bound %llu)",
			    (unsigned long long)(m.max_rss_kb >> 10),
			    (unsigned long long)(MAPBYTES >> 20),
			    (unsigned long long)(MAPBOUND >> 20));
	}
	lag(&sp);
	gguf_close(f);
	unlink(path);
}

int
main(void)
{
	char		 path[] = "/tmp/test_spanread.XXXXXX";
	uint32_t	 x = 777;
	size_t		 i;
	int		 f;
	unsigned	 t;

	for (f = 0; f < 2; f++) {
		data[f] = malloc(NBYTES);
		for (i = 0; i < NBYTES; i++) {
			x = x * 1103515245u + 12345u;
			data[f][i] = (uint8_t)(x >> 16);
		}
		strcpy(path, "/tmp/test_spanread.XXXXXX");
		fds[f] = mkstemp(path);
		if (fds[f] < 0 || write(fds[f], data[f], NBYTES) !=
		    (ssize_t)NBYTES)
			return ok(0, "temporary file: %s", strerror(errno)),
			    tap_done();
		unlink(path);
	}
	for (t = 1; t <= 2; t++) {
		whole(GGUF_SR_SPLIT, t, 0, 0);
		whole(GGUF_SR_SHARE, t, 0, 0);
		whole(GGUF_SR_SPLIT, t, 1, 0);
		whole(GGUF_SR_SHARE, t, 1, 0);
	}
	whole(GGUF_SR_SHARE, 2, 0, 1);
	failures();
	mapped();
	for (f = 0; f < 2; f++) {
		close(fds[f]);
		free(data[f]);
	}
	return tap_done();
}
