/*
 * test_stats_many.c - statistics of several tensors (gguf_stats_tensors).
 *
 * A file built here holds small tensors of five types around one large
 * one, so that a run on several threads has segments of small tensors run
 * side by side and a large one run on every thread between them. On 1, 2,
 * 3 and 8 threads: every job is handed over once, in order, with the
 * bytes gguf_stats_tensor gives it alone on one thread (rows ranges, a
 * range of no rows and a job failed on entry included); progress only
 * grows and ends at the elements of every job, and is never reported
 * while done runs; jobs taken in order; a done callback that stops
 * the run, a cancel through progress and through the flag; and a file
 * rewritten while the run goes on fails the tensors handed after it.
 * The jobs are asked for one at a time and held in a window: done never
 * sees more than gguf_stats_in_flight(threads) of them at once. A file
 * with a descriptor, read into the threads' buffers, gives the bytes of
 * the same file in memory, little- and big-endian, and on rows that are
 * not whole blocks.
 */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gguf.h"
#include "dequant.h"
#include "stats.h"
#include "tap.h"
#include "../tools/ggufgen.h"

#define NE0	256
#define NT	13
#define BIG	6	/* the large tensor's index */

static const struct {
	uint32_t	type;
	uint64_t	blck, bytes;
} types[] = {
	{ GG_T_F32, 1, 4 }, { GG_T_F16, 1, 2 }, { GG_T_Q8_0, 32, 34 },
	{ GG_T_Q4_K, 256, 144 }, { GG_T_Q6_K, 256, 210 },
};

static uint64_t
rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* The file: NT tensors, the large one F32 of 1024 x 2048. */
static void
build(struct gg *g)
{
	uint64_t	ne[2], off = 0, size[NT], s = 88172645463325252ull, v;
	char		name[32];
	size_t		k, i;

	gg_init(g, 3, 0);
	gg_header(g, NT, 1);
	gg_kv_str(g, "general.architecture", "llama");
	for (k = 0; k < NT; k++) {
		snprintf(name, sizeof name, "t%zu", k);
		if (k == BIG) {
			ne[0] = 1024;
			ne[1] = 2048;
			size[k] = ne[0] * ne[1] * 4;
			gg_tensor(g, name, 2, ne, GG_T_F32, off);
		} else {
			ne[0] = NE0;
			/* smallest first; jobs 0 and 1 under one chunk */
			ne[1] = k < 2 ? 8 : (3 + k) * 64;
			size[k] = ne[0] / types[k % 5].blck *
			    types[k % 5].bytes * ne[1];
			gg_tensor(g, name, 2, ne, types[k % 5].type, off);
		}
		off += (size[k] + 31) / 32 * 32;
	}
	gg_pad(g, 32);
	for (k = 0; k < NT; k++) {
		for (i = 0; i < size[k]; i += 8) {
			v = rnd(&s);
			gg_bytes(g, &v, size[k] - i < 8 ? size[k] - i : 8);
		}
		gg_pad(g, 32);
	}
}

/* What done was handed for a job. */
struct rec {
	int		rc;
	char		msg[64];
	uint64_t	count;
};

struct seen {
	const struct gguf_file	*f;
	struct gguf_stats_job	*jobs;		/* what job k is */
	struct rec		 rec[NT];	/* what done got for it */
	const void		*addr[NT];	/* the jobs done got, apart */
	unsigned		 naddr;
	uint64_t		 next;		/* the job expected */
	int			 in_order;
	int			 same;
	uint64_t		 stop_at;	/* done returns 1 there */
	const char		*rewrite;	/* a path rewritten after job 0 */
	int			 failed_after;	/* jobs after 0 that failed */
	int			 changed_msg;
};

/* Set while done runs; progress reports made meanwhile are counted. */
static int	in_done, overlaps;

/* One job's statistics alone, on one thread. */
static int
alone(const struct gguf_file *f, const struct gguf_stats_job *j,
    struct gguf_stats *st)
{
	struct gguf_stats_opts	o;
	struct gguf_err		e;

	memset(&o, 0, sizeof o);
	o.threads = 1;
	return gguf_stats_tensor(f, j->t, j->row0, j->nrows, &o, st, &e);
}

static int
on_done(void *arg, struct gguf_stats_job *job, uint64_t k)
{
	struct seen		*s = arg;
	struct gguf_stats	 st;
	struct timespec		 pause = { 0, 30000000 };
	unsigned		 i;
	int			 fd;

	__atomic_store_n(&in_done, 1, __ATOMIC_SEQ_CST);
	/*
	 * The first job of each segment, the smallest, ends first: long
	 * enough for the workers on the others to report meanwhile.
	 */
	if (k == 0 || k == BIG + 1)
		nanosleep(&pause, NULL);
	if (k != s->next)
		s->in_order = 0;
	s->next = k + 1;
	if (k < NT) {
		s->rec[k].rc = job->rc;
		snprintf(s->rec[k].msg, sizeof s->rec[k].msg, "%.63s",
		    job->rc != 0 ? job->err.msg : "");
		s->rec[k].count = job->st.count;
	}
	for (i = 0; i < s->naddr && s->addr[i] != job; i++)
		;
	if (i == s->naddr && s->naddr < NT)
		s->addr[s->naddr++] = job;
	if (s->rewrite != NULL) {
		if (k == 0 && (fd = open(s->rewrite, O_WRONLY)) >= 0) {
			/* the architecture's value: "llama" -> "llamb" */
			if (pwrite(fd, "b", 1, 24 + 8 + 20 + 4 + 8 + 4) != 1)
				s->rewrite = NULL;
			close(fd);
		} else if (k > 0 && job->rc != 0) {
			s->failed_after++;
			s->changed_msg += strstr(job->err.msg, "changed") !=
			    NULL || strstr(job->err.msg, "rewritten") != NULL;
		}
		return 0;
	}
	if (job->rc == 0 && (alone(s->f, job, &st) != 0 ||
	    memcmp(&st, &job->st, sizeof st) != 0))
		s->same = 0;
	__atomic_store_n(&in_done, 0, __ATOMIC_SEQ_CST);
	return k == s->stop_at;
}

/* Job k, as the caller gives it. */
static void
job_at(void *arg, uint64_t k, struct gguf_stats_job *job)
{
	struct seen	*s = arg;

	*job = s->jobs[k];
}

struct progress {
	uint64_t	calls, last, total;
	uint64_t	first;		/* done at the first report */
	int		grows;
	uint64_t	cancel_after;	/* 0: never */
};

static int
on_progress(void *arg, uint64_t done, uint64_t total)
{
	struct progress	*p = arg;

	if (p->calls++ == 0)
		p->first = done;
	overlaps += __atomic_load_n(&in_done, __ATOMIC_SEQ_CST);
	if (done < p->last || total != p->total)
		p->grows = 0;
	p->last = done;
	return p->cancel_after > 0 && p->calls >= p->cancel_after;
}

/* The jobs: every tensor, some by rows; job 3 failed on entry. */
static uint64_t
jobs_of(const struct gguf_file *f, struct gguf_stats_job *jobs)
{
	uint64_t	k, total = 0;

	memset(jobs, 0, NT * sizeof *jobs);
	for (k = 0; k < NT; k++) {
		jobs[k].t = gguf_tensor_at(f, k);
		jobs[k].nrows = gguf_tensor_nrows(jobs[k].t);
		if (k == 2) {			/* rows 1 .. n - 1 */
			jobs[k].row0 = 1;
			jobs[k].nrows -= 2;
		}
		if (k == 9)			/* no rows */
			jobs[k].nrows = 0;
		if (k == 3)
			jobs[k].rc = gguf_errf(&jobs[k].err, -1, "left out");
		else
			total += jobs[k].nrows * jobs[k].t->ne[0];
	}
	return total;
}

/* A run's set-up: the jobs, the callbacks' records, progress on. */
static void
setup(const struct gguf_file *f, struct gguf_stats_job *jobs,
    struct gguf_stats_opts *o, struct progress *p, struct seen *s,
    unsigned threads)
{
	memset(o, 0, sizeof *o);
	memset(p, 0, sizeof *p);
	memset(s, 0, sizeof *s);
	p->total = jobs_of(f, jobs);
	p->grows = 1;
	o->threads = threads;
	o->progress = on_progress;
	o->arg = p;
	s->f = f;
	s->jobs = jobs;
	s->in_order = s->same = 1;
	s->stop_at = UINT64_MAX;
}

static void
test_threads(const struct gguf_file *f)
{
	static const unsigned	 threads[] = { 1, 2, 3, 8 };
	struct gguf_stats_job	 jobs[NT];
	struct gguf_stats_opts	 o;
	struct progress		 p;
	struct seen		 s;
	size_t			 i;
	int			 rc;

	for (i = 0; i < sizeof threads / sizeof threads[0]; i++) {
		setup(f, jobs, &o, &p, &s, threads[i]);
		rc = gguf_stats_tensors(f, NT, job_at, &o, on_done, &s);
		ok(rc == 0, "%u threads: the run ends well (%d)", threads[i],
		    rc);
		ok(s.next == NT && s.in_order, "%u threads: every job handed "
		    "over once, in order", threads[i]);
		ok(s.same, "%u threads: every job's statistics are those of "
		    "the tensor alone on one thread", threads[i]);
		ok(s.rec[3].rc == -1 && strcmp(s.rec[3].msg, "left out") == 0,
		    "%u threads: a job failed on entry is passed over as it "
		    "was", threads[i]);
		ok(s.rec[9].rc == 0 && s.rec[9].count == 0 &&
		    s.rec[2].count == (gguf_tensor_nrows(jobs[2].t) - 2) *
		    NE0, "%u threads: rows ranges, and a range of no rows",
		    threads[i]);
		ok(s.naddr <= gguf_stats_in_flight(threads[i]) &&
		    (threads[i] > 3 || s.naddr < NT), "%u threads: the jobs "
		    "are held in a window of %u, not one each (%u seen)",
		    threads[i], gguf_stats_in_flight(threads[i]), s.naddr);
		ok(overlaps == 0, "%u threads: no progress reported while "
		    "done runs", threads[i]);
		ok(p.calls > 0 && p.grows && p.last == p.total, "%u threads: "
		    "progress only grows and ends at %llu elements (%llu "
		    "calls, last %llu)", threads[i],
		    (unsigned long long)p.total, (unsigned long long)p.calls,
		    (unsigned long long)p.last);
	}
}

static void
test_stops(const struct gguf_file *f)
{
	struct gguf_stats_job	jobs[NT];
	struct gguf_stats_opts	o;
	struct progress		p;
	struct seen		s;
	uint64_t		k;
	int			rc, flag = 1, cancelled;

	setup(f, jobs, &o, &p, &s, 3);
	s.stop_at = 4;
	rc = gguf_stats_tensors(f, NT, job_at, &o, on_done, &s);
	ok(rc == GGUF_STATS_STOPPED && s.next == 5 && s.in_order,
	    "done stops the run: GGUF_STATS_STOPPED, nothing handed after "
	    "job 4 (%d, %llu)", rc, (unsigned long long)s.next);

	setup(f, jobs, &o, &p, &s, 3);
	p.cancel_after = 1;
	rc = gguf_stats_tensors(f, NT, job_at, &o, on_done, &s);
	for (k = 0, cancelled = 0; k < NT; k++)
		cancelled += s.rec[k].rc == GGUF_STATS_CANCELLED;
	ok(rc == GGUF_STATS_CANCELLED && s.next == NT && cancelled > 0,
	    "progress cancels: every job still handed over, %d of them "
	    "cancelled (%d)", cancelled, rc);

	setup(f, jobs, &o, &p, &s, 3);
	o.progress = NULL;
	o.cancel = &flag;
	rc = gguf_stats_tensors(f, NT, job_at, &o, on_done, &s);
	for (k = 0, cancelled = 0; k < NT; k++)
		cancelled += s.rec[k].rc == GGUF_STATS_CANCELLED &&
		    strcmp(s.rec[k].msg, "cancelled") == 0;
	ok(rc == GGUF_STATS_CANCELLED && cancelled == NT - 1 &&
	    s.next == NT, "the cancel flag set: every job handed over, "
	    "cancelled but the one failed on entry (%d of %d, %d)",
	    cancelled, NT - 1, rc);

	/*
	 * Jobs are taken in order, so results stream: until a job ends no
	 * worker takes another, and every job reports its end, so the first
	 * report on 2 threads can only count jobs 0 and 1 (2,048 values
	 * each). Taken largest first, it would count a chunk of job 5.
	 */
	setup(f, jobs, &o, &p, &s, 2);
	jobs[3].rc = 0;
	jobs[9].nrows = gguf_tensor_nrows(jobs[9].t);
	rc = gguf_stats_tensors(f, NT, job_at, &o, on_done, &s);
	ok(rc == 0 && p.first > 0 && p.first <= 2 * 2048, "results stream: "
	    "jobs taken in order (the first report counts %llu values)",
	    (unsigned long long)p.first);
}

/*
 * A file with a descriptor is read into the threads' buffers, one in
 * memory where it lies: the statistics must be the same bytes, of every
 * tensor, of a range of rows, on 1 and 2 threads, alone and several at
 * once, in a little-endian file and a big-endian one (float types).
 */
static void
build_be(struct gg *g)
{
	static const uint32_t	 ty[] = { GG_T_F32, GG_T_F16, GG_T_F64 };
	static const uint64_t	 sz[] = { 4, 2, 8 };
	uint64_t		 ne[2] = { 1000, 300 }, off = 0, v;
	uint64_t		 s = 0x9e3779b97f4a7c15ull;
	char			 name[32];
	size_t			 k, i, n;

	gg_init(g, 3, 1);
	gg_header(g, 3, 1);
	gg_kv_str(g, "general.architecture", "llama");
	for (k = 0; k < 3; k++) {
		snprintf(name, sizeof name, "be%zu", k);
		gg_tensor(g, name, 2, ne, ty[k], off);
		off += (ne[0] * ne[1] * sz[k] + 31) / 32 * 32;
	}
	gg_pad(g, 32);
	for (k = 0; k < 3; k++) {
		n = ne[0] * ne[1] * sz[k];
		for (i = 0; i < n; i += 8) {
			v = rnd(&s);
			if (k != 1)	/* no NaN bits in F32 and F64 */
				v &= 0x3fffffffbfffffffull;
			gg_bytes(g, &v, n - i < 8 ? n - i : 8);
		}
		gg_pad(g, 32);
	}
}

/*
 * Q8_0 and Q4_K tensors whose rows are not whole blocks (1.5 and 2.5 of
 * them): a range of rows from row 1 starts inside a block.
 */
static void
build_xrow(struct gg *g)
{
	uint64_t	ne[2], off = 0, v, s = 0x2545f4914f6cdd1dull, n[2];
	size_t		i, k;

	gg_init(g, 3, 0);
	gg_header(g, 2, 1);
	gg_kv_str(g, "general.architecture", "llama");
	ne[0] = 48;
	ne[1] = 4096;
	gg_tensor(g, "x.q8_0", 2, ne, GG_T_Q8_0, off);
	n[0] = ne[0] * ne[1] / 32 * 34;
	off += (n[0] + 31) / 32 * 32;
	ne[0] = 640;
	ne[1] = 256;
	gg_tensor(g, "x.q4_k", 2, ne, GG_T_Q4_K, off);
	n[1] = ne[0] * ne[1] / 256 * 144;
	gg_pad(g, 32);
	for (k = 0; k < 2; k++) {
		for (i = 0; i < n[k]; i += 2) {
			/* small finite scales: every value a number */
			v = rnd(&s) & 0x3bff3bff3bff3bffull;
			gg_bytes(g, &v, n[k] - i < 2 ? n[k] - i : 2);
		}
		gg_pad(g, 32);
	}
}

static void
test_read(const struct gg *g, const char *what)
{
	struct gguf_stats_job	 jobs[NT];
	struct gguf_stats_opts	 o;
	struct gguf_stats	 a, b;
	struct gguf_file	*ff, *fm;
	struct gguf_err		 err;
	struct progress		 p;
	struct seen		 s;
	const struct gguf_tensor *t;
	char			 path[] = "test_stats_many.XXXXXX";
	uint64_t		 i, n, nrows;
	unsigned		 th;
	int			 fd, same = 1, rc;

	if ((fd = mkstemp(path)) < 0) {
		skip("statistics read from the file: no temporary file");
		return;
	}
	close(fd);
	ff = gg_write(g, path) == 0 ? gguf_open(path, &err) : NULL;
	fm = gguf_open_buffer(g->buf, g->len, &err);
	if (!ok(ff != NULL && fm != NULL, "%s: opens from the file and from "
	    "memory", what)) {
		gguf_close(ff);
		gguf_close(fm);
		unlink(path);
		return;
	}
	n = gguf_layout(ff)->n_tensors;
	memset(&o, 0, sizeof o);
	for (th = 1; th <= 2; th++) {
		o.threads = th;
		for (i = 0; i < n; i++) {
			t = gguf_tensor_at(ff, i);
			nrows = gguf_tensor_nrows(t);
			rc = gguf_stats_tensor(ff, t, 0, nrows, &o, &a, &err);
			rc |= gguf_stats_tensor(fm, gguf_tensor_at(fm, i), 0,
			    nrows, &o, &b, &err);
			same &= rc == 0 && memcmp(&a, &b, sizeof a) == 0;
			rc = gguf_stats_tensor(ff, t, 1, nrows - 2, &o, &a,
			    &err);
			rc |= gguf_stats_tensor(fm, gguf_tensor_at(fm, i), 1,
			    nrows - 2, &o, &b, &err);
			same &= rc == 0 && memcmp(&a, &b, sizeof a) == 0;
		}
	}
	ok(same, "%s: each tensor read from the file, whole and rows 1 to "
	    "the last but one, on 1 and 2 threads: the bytes of it read in "
	    "memory", what);
	if (n == NT) {
		setup(ff, jobs, &o, &p, &s, 2);
		o.progress = NULL;
		jobs[3].rc = 0;
		rc = gguf_stats_tensors(ff, NT, job_at, &o, on_done, &s);
		ok(rc == 0 && s.same && s.next == NT, "%s: several at once on "
		    "2 threads, read from the file: the bytes of each alone",
		    what);
	}
	gguf_close(ff);
	gguf_close(fm);
	unlink(path);
}

/* A file rewritten after the first job: the jobs handed after fail. */
static void
test_change(const struct gg *g)
{
	struct gguf_stats_job	 jobs[NT];
	struct gguf_stats_opts	 o;
	struct gguf_file	*f;
	struct gguf_err		 err;
	struct progress		 p;
	struct seen		 s;
	char			 path[] = "test_stats_many.XXXXXX";
	int			 fd, rc;

	if ((fd = mkstemp(path)) < 0) {
		skip("a file changed under the run: no temporary file");
		return;
	}
	close(fd);
	if (gg_write(g, path) != 0 || (f = gguf_open(path, &err)) == NULL) {
		ok(0, "the test file is written and opens");
		unlink(path);
		return;
	}
	setup(f, jobs, &o, &p, &s, 2);
	o.progress = NULL;
	jobs[3].rc = 0;
	s.rewrite = path;
	rc = gguf_stats_tensors(f, NT, job_at, &o, on_done, &s);
	ok(rc == 0 && s.rewrite != NULL && s.failed_after == NT - 1 &&
	    s.changed_msg == NT - 1, "a header rewritten after job 0: "
	    "every job handed after it fails, saying the file changed "
	    "(%d of %d)", s.changed_msg, NT - 1);
	gguf_close(f);
	unlink(path);
}

int
main(void)
{
	struct gguf_file	*f;
	struct gguf_err		 err;
	struct gg		 g;

	build(&g);
	f = gguf_open_buffer(g.buf, g.len, &err);
	if (!ok(f != NULL, "the test file opens")) {
		diag("%s", err.msg);
		gg_free(&g);
		return tap_done();
	}
	test_threads(f);
	test_stops(f);
	gguf_close(f);
	test_change(&g);
	test_read(&g, "little-endian");
	gg_free(&g);
	build_be(&g);
	test_read(&g, "big-endian");
	gg_free(&g);
	build_xrow(&g);
	test_read(&g, "rows that are not whole blocks");
	gg_free(&g);
	return tap_done();
}
