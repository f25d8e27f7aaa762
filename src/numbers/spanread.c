/*
 * spanread.c - spans of files read into aligned buffers, handed to a
 * consumer on up to two threads.
 *
 * A "lane" reads its spans in list order. Consecutive spans of one file
 * that ascend with small gaps (tensor data and its padding) form a run,
 * read in GGUF_SR_CHUNK pieces; each piece is cut into segments, one per
 * span it touches, and a span with a unit ends its segment at a multiple
 * of the unit (the next piece is read from there). In GGUF_SR_SPLIT each
 * thread is a lane with one buffer and consumes what it reads. In
 * GGUF_SR_SHARE the calling thread is the only lane: it publishes every
 * piece into a ring of GGUF_SR_NSLOT buffers and consumes it as thread 0;
 * the follower consumes the same pieces as thread 1, and a buffer is
 * filled again only when the follower is done with it. Pieces of a
 * file's mapping are read in place: the ring then costs no memory, and it
 * is as short as the buffers', so the follower reads what the lane has
 * just read from the cache, not from memory a second time (xxh64 of each
 * tensor and of all, 1 GiB mapped: 0.60 s of CPU with a ring of 64 MB,
 * 0.49 s with 4 MB).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "io.h"
#include "source.h"
#include "spanread.h"
#include "xmalloc.h"

#define NSLOT	GGUF_SR_NSLOT
#define GIVEBACK (32u << 20)	/* mapped bytes given back at a time */
#define POPULATE (4u << 20)	/* mapped bytes mapped in at a time */
#define MAXGAP	(1u << 20)	/* a gap between spans still read through */
#define BUFALIGN 4096
#define TICK_NS	50000000L	/* the calling thread reports at least this often */

struct seg {
	size_t		 span;
	uint64_t	 pos;		/* in the span */
	size_t		 boff;		/* in the buffer */
	size_t		 len;
	int		 last;
};

struct slot {
	void		*raw;		/* allocation */
	uint8_t		*buf;		/* aligned */
	const uint8_t	*p;		/* the bytes: buf, or the memory */
	size_t		 len;		/* bytes at p */
	const struct gguf_file *file;	/* p is this file's mapping, or NULL */
	struct seg	*seg;
	size_t		 nseg;
	size_t		 aseg;
	uint64_t	 bytes;		/* of spans, in the segments */
	size_t		 mapped_in;	/* bytes of buf populated */
};

struct engine;

struct lane {
	struct engine	*e;
	size_t		 s0, s1;	/* its spans */
	unsigned	 th;		/* the thread that consumes them */
	int		 caller;	/* runs on the calling thread */
	int		 follow;	/* GGUF_SR_SHARE with a follower */
	unsigned	 nslot;		/* in the ring */
	struct slot	*slot;
	/* Mapped bytes consumed, not given back yet (one thread's). */
	const struct gguf_file *gb_file;
	const uint8_t	*gb_a, *gb_z;
	/* The mapped bytes last populated by the lane. */
	const struct gguf_file *pop_file;
	const uint8_t	*pop_a, *pop_z;
	/* with a follower; a change is followed by wake() */
	atomic_uint_least64_t next;	/* the piece the lane fills next */
	atomic_uint_least64_t fnext;	/* the piece the follower takes next */
	atomic_uint_least64_t published;	/* pieces ready */
	atomic_uint_least64_t consumed;	/* pieces the follower is done with */
	atomic_int	 finished;	/* no more pieces; the lane returned */
};

struct engine {
	struct gguf_spanread	*r;
	pthread_mutex_t		 mu;
	pthread_cond_t		 cv;
	atomic_int		 waiters;	/* threads in a wait on cv */
	atomic_int		 stop;
	atomic_int		 running;	/* threads other than the caller */
	atomic_uint_least64_t	 done[GGUF_SR_THREADS];
	uint64_t		 total;
	int			 share;
	int			 failed;
	size_t			 err_span;
	struct gguf_err		 err;
};

static void
fail(struct engine *e, int64_t off, size_t span, const char *what)
{
	pthread_mutex_lock(&e->mu);
	if (!e->failed) {
		e->failed = 1;
		e->err_span = span;
		gguf_errf(&e->err, off, "%s", what);
	}
	atomic_store(&e->stop, 1);
	pthread_cond_broadcast(&e->cv);
	pthread_mutex_unlock(&e->mu);
}

/*
 * After a change of what another thread may wait for: wakes it if it
 * waits and what it waits for holds (ready NULL: whatever it waits for).
 * A waiter counts itself in e->waiters under e->mu before it looks at
 * the condition, so either this sees it or it sees the change.
 */
static void
wake(struct engine *e, struct lane *l, int (*ready)(struct lane *))
{
	if (atomic_load(&e->waiters) > 0 && (ready == NULL || ready(l))) {
		pthread_mutex_lock(&e->mu);
		pthread_cond_broadcast(&e->cv);
		pthread_mutex_unlock(&e->mu);
	}
}

/* Bytes consumed: by both threads, or by the one behind. */
static uint64_t
done_bytes(struct engine *e)
{
	uint64_t	a = atomic_load(&e->done[0]);
	uint64_t	b = atomic_load(&e->done[1]);

	if (e->share)
		return a < b ? a : b;
	return a + b;
}

/* From the calling thread: progress, and a cancel. 0, or -1 if stopped. */
static int
report(struct engine *e)
{
	if (atomic_load(&e->stop))
		return -1;
	if (e->r->progress != NULL &&
	    e->r->progress(e->r->parg, done_bytes(e), e->total) != 0) {
		fail(e, -1, (size_t)-1, "cancelled");
		return -1;
	}
	return 0;
}

/*
 * Waits until ready(l) or a stop. The calling thread wakes every TICK_NS
 * to report progress (and take a cancel).
 */
static void
wait_for(struct engine *e, struct lane *l, int (*ready)(struct lane *),
    int caller)
{
	struct timespec	ts;
	int		rc;

	if (ready(l) || atomic_load(&e->stop))
		return;
	pthread_mutex_lock(&e->mu);
	atomic_fetch_add(&e->waiters, 1);
	while (!ready(l) && !atomic_load(&e->stop)) {
		if (!caller) {
			pthread_cond_wait(&e->cv, &e->mu);
			continue;
		}
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += TICK_NS;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		rc = pthread_cond_timedwait(&e->cv, &e->mu, &ts);
		if (rc == ETIMEDOUT && !ready(l)) {
			pthread_mutex_unlock(&e->mu);
			(void)report(e);
			pthread_mutex_lock(&e->mu);
		}
	}
	atomic_fetch_sub(&e->waiters, 1);
	pthread_mutex_unlock(&e->mu);
}

/*
 * The lane may fill the slot of piece l->next. Once it had to wait, it
 * waits for half the ring, so the threads do not wake each other for
 * every piece.
 */
static int
slot_free(struct lane *l)
{
	return atomic_load(&l->next) + l->nslot / 2 <
	    atomic_load(&l->consumed) + l->nslot;
}

/* The follower may go on: half a ring is published, or all is. */
static int
piece_ready(struct lane *l)
{
	return atomic_load(&l->fnext) + l->nslot / 2 <=
	    atomic_load(&l->published) ||
	    atomic_load(&l->finished);
}

/* The threads other than the caller have returned. */
static int
others_done(struct lane *l)
{
	return atomic_load(&l->e->running) == 0;
}

/*
 * Reads n bytes of fd at off into buf: 0, or -1 after fail(). With f (the
 * file fd reads), the file is first checked to be as it was opened, and a
 * read that fails says how it changed when it did.
 */
static int
read_at(struct engine *e, int fd, const struct gguf_file *f, uint8_t *buf,
    size_t n, uint64_t off, size_t span)
{
	struct gguf_err	 ce;
	char		 msg[160];
	size_t		 got = 0;
	ssize_t		 r;

	memset(&ce, 0, sizeof ce);
	if (f != NULL && gguf_file_changed(f, 0, &ce)) {
		fail(e, -1, span, ce.msg);
		return -1;
	}
	gguf_io_map_read();	/* a test's stop before a read of data */
	while (got < n) {
		r = pread(fd, buf + got, n - got, (off_t)(off + got));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			snprintf(msg, sizeof msg, "read: %s", strerror(errno));
		else if (r == 0)
			snprintf(msg, sizeof msg, "the file ends before the "
			    "data does (changed on disk?)");
		if (r <= 0) {
			if (f != NULL && gguf_file_changed(f, 0, &ce))
				fail(e, -1, span, ce.msg);
			else
				fail(e, (int64_t)(off + got), span, msg);
			return -1;
		}
		got += (size_t)r;
	}
	return 0;
}

/* Reads n bytes of src at off into buf: 0, or -1 after fail(). */
static int
read_src(struct engine *e, struct gguf_source *src, uint8_t *buf, size_t n,
    uint64_t off, size_t span)
{
	struct gguf_srcerr	se;

	memset(&se, 0, sizeof se);
	if (gguf_source_changed(src, 0, &se) ||
	    gguf_source_read(src, off, buf, n, &se) != 0) {
		fail(e, se.has_off ? (int64_t)se.off : (int64_t)off, span,
		    se.msg);
		return -1;
	}
	return 0;
}

static void
seg_add(struct slot *sl, size_t span, uint64_t pos, size_t boff, size_t len,
    int last)
{
	if (sl->nseg == sl->aseg) {
		sl->aseg = sl->aseg != 0 ? 2 * sl->aseg : 16;
		sl->seg = xreallocarray(sl->seg, sl->aseg, sizeof *sl->seg);
	}
	sl->seg[sl->nseg].span = span;
	sl->seg[sl->nseg].pos = pos;
	sl->seg[sl->nseg].boff = boff;
	sl->seg[sl->nseg].len = len;
	sl->seg[sl->nseg].last = last;
	sl->nseg++;
	sl->bytes += len;
}

struct calls {
	struct engine		*e;
	const struct slot	*sl;
	unsigned		 th;
	size_t			 at;	/* the segment being consumed */
};

/* The consumer calls of a piece's segments: 0, or -1 if one stopped. */
static int
calls(void *arg)
{
	struct calls		*c = arg;
	struct engine		*e = c->e;
	const struct seg	*g;

	for (c->at = 0; c->at < c->sl->nseg; c->at++) {
		g = &c->sl->seg[c->at];
		if (e->r->consume(e->r->arg, c->th, g->span, g->pos,
		    g->len != 0 ? c->sl->p + g->boff : NULL, g->len,
		    g->last) != 0)
			return -1;
	}
	return 0;
}

/*
 * Hands a piece's segments to the consumer as thread th: 0, or -1. The
 * calls on a file's mapping are guarded (its pages are given back by
 * give_back, on the thread that consumes the lane's pieces last).
 */
static int
consume(struct engine *e, struct slot *sl, unsigned th)
{
	struct calls	c;
	struct gguf_err	err;
	int		rc;

	c.e = e;
	c.sl = sl;
	c.th = th;
	c.at = 0;
	if (sl->file == NULL)
		rc = calls(&c);
	else {
		memset(&err, 0, sizeof err);
		rc = gguf_file_guard(sl->file, calls, &c, &err);
		if (rc != 0 && err.msg[0] != '\0') {
			fail(e, err.has_off ? (int64_t)err.off : -1,
			    sl->nseg == 0 ? (size_t)-1 : sl->seg[c.at <
			    sl->nseg ? c.at : sl->nseg - 1].span, err.msg);
			return -1;
		}
	}
	if (rc != 0) {
		fail(e, -1, sl->seg[c.at].span, "stopped");
		return -1;
	}
	atomic_fetch_add(&e->done[th], sl->bytes);
	return 0;
}

/*
 * Gives the pages of the mapped pieces consumed back in runs of GIVEBACK
 * bytes (gguf_file_release: the page cache keeps them, the process's
 * page tables stay small): one call a piece would cost a TLB shootdown
 * on the other thread's core each time. Called by the one thread that
 * is last to consume every piece of the lane: the follower, or the lane.
 */
static void
give_back_now(struct lane *l)
{
	if (l->gb_file != NULL && l->gb_z > l->gb_a)
		gguf_file_release(l->gb_file, l->gb_a,
		    (uint64_t)(l->gb_z - l->gb_a));
	l->gb_file = NULL;
}

static void
give_back(struct lane *l, const struct slot *sl)
{
	if (sl->file == NULL || sl->len == 0)
		return;
	if (l->gb_file == sl->file && sl->p >= l->gb_a &&
	    sl->p <= l->gb_z) {
		if (sl->p + sl->len > l->gb_z)
			l->gb_z = sl->p + sl->len;
	} else {
		give_back_now(l);
		l->gb_file = sl->file;
		l->gb_a = sl->p;
		l->gb_z = sl->p + sl->len;
	}
	if ((uint64_t)(l->gb_z - l->gb_a) >= GIVEBACK)
		give_back_now(l);
}

/* Takes the slot of the lane's next piece: NULL if stopped. */
static struct slot *
slot_get(struct lane *l, uint64_t piece)
{
	struct engine	*e = l->e;

	if (l->follow) {
		atomic_store(&l->next, piece);
		if (piece >= atomic_load(&l->consumed) + l->nslot)
			wait_for(e, l, slot_free, l->caller);
	}
	if (atomic_load(&e->stop))
		return NULL;
	return &l->slot[piece % l->nslot];
}

/* A filled piece: to the follower, to the consumer. 0, or -1 if stopped. */
static int
emit(struct lane *l, struct slot *sl, uint64_t *piece)
{
	struct engine	*e = l->e;
	const struct seg *g;
	size_t		 k;

	if (e->share && e->r->claim != NULL)
		for (k = 0; k < sl->nseg; k++) {
			g = &sl->seg[k];
			if (e->r->claim(e->r->arg, g->span, g->pos, g->len,
			    g->last, l->follow ? (unsigned)(*piece -
			    atomic_load(&l->consumed)) : 0) != 0) {
				fail(e, -1, g->span, "stopped");
				return -1;
			}
		}
	if (l->follow) {
		atomic_store(&l->published, ++*piece);
		wake(e, l, piece_ready);
	}
	if (consume(e, sl, l->th) != 0)
		return -1;
	if (e->share && !l->follow && consume(e, sl, 1) != 0)
		return -1;
	if (!l->follow)
		give_back(l, sl);
	if (l->caller)
		return report(e);
	return atomic_load(&e->stop) ? -1 : 0;
}

/*
 * Maps in the pages of a file's mapping that the piece [p, q) needs and
 * were not yet, POPULATE bytes at a time up to z at most (the end of the
 * run), before the lane hands them on: one call instead of a page fault
 * every few pages (gguf_file_populate). Memory stays bounded: what is
 * populated is given back as it is consumed.
 */
static void
populate(struct lane *l, const struct gguf_file *f, const uint8_t *p,
    const uint8_t *q, const uint8_t *z)
{
	if (f == NULL || p >= q)
		return;
	if (l->pop_file == f && p >= l->pop_a && p < l->pop_z) {
		if (q <= l->pop_z)
			return;
		p = l->pop_z;
	}
	if ((uint64_t)(z - p) > POPULATE)
		z = p + POPULATE;
	gguf_file_populate(f, p, (uint64_t)(z - p));
	l->pop_file = f;
	l->pop_a = p;
	l->pop_z = z;
}

static int
same_file(const struct gguf_span *a, const struct gguf_span *b)
{
	return a->fd >= 0 ? a->fd == b->fd : b->fd < 0 && a->mem == b->mem &&
	    a->file == b->file && a->src == b->src;
}

/* Reads and hands on the lane's spans. */
static void
lane_run(struct lane *l)
{
	struct engine		*e = l->e;
	const struct gguf_span	*sp = e->r->spans, *s;
	struct slot		*sl;
	uint64_t		 start, end, pos, next, cdone, a, b, piece = 0;
	size_t			 i, k, cur, clen;
	int			 have;

	for (i = l->s0; i < l->s1 && !atomic_load(&e->stop); i = k) {
		/* A run: spans of one file, ascending, with small gaps. */
		have = 0;
		start = end = 0;
		for (k = i; k < l->s1; k++) {
			if (!same_file(&sp[i], &sp[k]))
				break;
			if (sp[k].len == 0)
				continue;
			if (!have) {
				have = 1;
				start = sp[k].off;
			} else if (sp[k].off < end || sp[k].off - end > MAXGAP)
				break;
			end = sp[k].off + sp[k].len;
		}
		if (have && sp[i].fd >= 0)
			(void)posix_fadvise(sp[i].fd, (off_t)start,
			    (off_t)(end - start), POSIX_FADV_SEQUENTIAL);
		else if (have && sp[i].mem == NULL && sp[i].src != NULL)
			gguf_source_sequential(sp[i].src, start, end - start);
		else if (have && sp[i].file != NULL)
			gguf_file_sequential(sp[i].file, sp[i].mem + start,
			    end - start);
		cur = i;
		cdone = 0;
		pos = start;
		while (cur < k) {
			clen = end - pos < GGUF_SR_CHUNK ? (size_t)(end - pos) :
			    GGUF_SR_CHUNK;
			if ((sl = slot_get(l, piece)) == NULL)
				goto out;
			sl->nseg = 0;
			sl->bytes = 0;
			sl->p = NULL;
			sl->len = clen;
			sl->file = NULL;
			if (clen > sl->mapped_in && (sp[cur].fd >= 0 ||
			    (sp[cur].mem == NULL && sp[cur].src != NULL))) {
				/* what the read fills mapped in at once, not
				   a fault a page in the read (64 a buffer) */
				xpopulate(sl->buf + sl->mapped_in,
				    clen - sl->mapped_in);
				sl->mapped_in = clen;
			}
			if (clen > 0 && sp[cur].fd >= 0) {
				if (read_at(e, sp[cur].fd, sp[cur].file,
				    sl->buf, clen, pos, cur) != 0)
					goto out;
				sl->p = sl->buf;
			} else if (clen > 0 && sp[cur].mem == NULL &&
			    sp[cur].src != NULL) {
				if (read_src(e, sp[cur].src, sl->buf, clen, pos,
				    cur) != 0)
					goto out;
				sl->p = sl->buf;
			} else if (clen > 0) {
				sl->p = sp[cur].mem + pos;
				sl->file = sp[cur].file;
				populate(l, sl->file, sl->p, sl->p + clen,
				    sp[cur].mem + end);
			}
			next = pos + clen;
			for (; cur < k; cur++) {
				s = &sp[cur];
				if (s->len == 0) {
					seg_add(sl, cur, 0, 0, 0, 1);
					continue;
				}
				if (s->off >= pos + clen)
					break;
				a = s->off + cdone;
				b = s->off + s->len;
				if (b > pos + clen) {
					b = pos + clen;
					if (s->unit > 1)
						b = s->off + (b - s->off) /
						    s->unit * s->unit;
				}
				if (b > a)
					seg_add(sl, cur, a - s->off,
					    (size_t)(a - pos), (size_t)(b - a),
					    b == s->off + s->len);
				if (b != s->off + s->len) {
					cdone = b - s->off;
					next = b;
					break;
				}
				cdone = 0;
			}
			if (emit(l, sl, &piece) != 0)
				goto out;
			pos = next;
		}
	}
out:
	if (!l->follow)
		give_back_now(l);
	atomic_store(&l->finished, 1);
	wake(e, l, NULL);
}

/* The follower of a GGUF_SR_SHARE lane: thread 1. */
static void *
follower(void *arg)
{
	struct lane	*l = arg;
	struct engine	*e = l->e;
	uint64_t	 piece = 0;

	for (;;) {
		atomic_store(&l->fnext, piece);
		if (piece >= atomic_load(&l->published))
			wait_for(e, l, piece_ready, 0);
		if (atomic_load(&e->stop) ||
		    piece >= atomic_load(&l->published))
			break;
		if (consume(e, &l->slot[piece % l->nslot], 1) != 0)
			break;
		give_back(l, &l->slot[piece % l->nslot]);
		atomic_store(&l->consumed, ++piece);
		wake(e, l, slot_free);
	}
	give_back_now(l);
	atomic_fetch_sub(&e->running, 1);
	wake(e, l, NULL);
	return NULL;
}

static void *
lane_thread(void *arg)
{
	struct lane	*l = arg;

	lane_run(l);
	atomic_fetch_sub(&l->e->running, 1);
	wake(l->e, l, NULL);
	return NULL;
}

static void
lane_init(struct lane *l, struct engine *e, size_t s0, size_t s1,
    unsigned th, int follow)
{
	unsigned	i;
	size_t		k;
	int		files = 0;

	memset(l, 0, sizeof *l);
	atomic_init(&l->next, 0);
	atomic_init(&l->fnext, 0);
	atomic_init(&l->published, 0);
	atomic_init(&l->consumed, 0);
	atomic_init(&l->finished, 0);
	l->e = e;
	l->s0 = s0;
	l->s1 = s1;
	l->th = th;
	l->caller = th == 0;
	l->follow = follow;
	for (k = s0; k < s1 && !files; k++)
		files = (e->r->spans[k].fd >= 0 || (e->r->spans[k].mem ==
		    NULL && e->r->spans[k].src != NULL)) &&
		    e->r->spans[k].len > 0;
	l->nslot = !follow ? 1 : NSLOT;
	l->slot = xcalloc(l->nslot, sizeof *l->slot);
	for (i = 0; i < l->nslot && files; i++) {
		l->slot[i].raw = xmalloc(GGUF_SR_CHUNK + BUFALIGN);
		l->slot[i].buf = (uint8_t *)(((uintptr_t)l->slot[i].raw +
		    BUFALIGN - 1) & ~(uintptr_t)(BUFALIGN - 1));
	}
}

static void
lane_free(struct lane *l)
{
	unsigned	i;

	for (i = 0; i < l->nslot; i++) {
		free(l->slot[i].raw);
		free(l->slot[i].seg);
	}
	free(l->slot);
}

static unsigned
cores(void)
{
	long	n = sysconf(_SC_NPROCESSORS_ONLN);

	return n >= 2 ? 2 : 1;
}

/* Where GGUF_SR_SPLIT cuts the list: about half the bytes before it. */
static size_t
split_at(const struct gguf_span *sp, size_t n, uint64_t total)
{
	uint64_t	acc = 0;
	size_t		k;

	for (k = 0; k + 1 < n; k++) {
		if (k > 0 && acc + sp[k].len / 2 >= total / 2)
			break;
		acc += sp[k].len;
	}
	return k;
}

int
gguf_spanread(struct gguf_spanread *r, struct gguf_err *err)
{
	struct engine	 e;
	struct lane	 lane[2];
	pthread_t	 th;
	unsigned	 threads;
	size_t		 i, cut;
	int		 started = 0, nlanes = 1;

	r->err_span = (size_t)-1;
	for (i = 0; i < r->n_spans; i++)
		if (r->spans[i].unit > GGUF_SR_MAXUNIT) {
			r->err_span = i;
			return gguf_errf(err, -1, "a unit of %u bytes is more "
			    "than %u", (unsigned)r->spans[i].unit,
			    (unsigned)GGUF_SR_MAXUNIT);
		}
	memset(&e, 0, sizeof e);
	e.r = r;
	e.share = r->mode == GGUF_SR_SHARE;
	pthread_mutex_init(&e.mu, NULL);
	pthread_cond_init(&e.cv, NULL);
	atomic_init(&e.waiters, 0);
	atomic_init(&e.stop, 0);
	atomic_init(&e.running, 0);
	for (i = 0; i < GGUF_SR_THREADS; i++)
		atomic_init(&e.done[i], 0);
	for (i = 0; i < r->n_spans; i++)
		e.total += r->spans[i].len;
	threads = r->threads != 0 ? r->threads : cores();
	if (threads > GGUF_SR_THREADS)
		threads = GGUF_SR_THREADS;

	if (e.share && threads >= 2) {
		lane_init(&lane[0], &e, 0, r->n_spans, 0, 1);
		atomic_store(&e.running, 1);
		if (pthread_create(&th, NULL, follower, &lane[0]) == 0)
			started = 1;
		else {
			atomic_store(&e.running, 0);
			lane_free(&lane[0]);
			lane_init(&lane[0], &e, 0, r->n_spans, 0, 0);
		}
		lane_run(&lane[0]);
	} else if (!e.share && threads >= 2 && r->n_spans > 1) {
		cut = split_at(r->spans, r->n_spans, e.total);
		lane_init(&lane[0], &e, 0, cut, 0, 0);
		lane_init(&lane[1], &e, cut, r->n_spans, 1, 0);
		nlanes = 2;
		atomic_store(&e.running, 1);
		if (pthread_create(&th, NULL, lane_thread, &lane[1]) == 0)
			started = 1;
		else
			atomic_store(&e.running, 0);
		lane_run(&lane[0]);
		if (!started) {
			lane[1].caller = 1;
			lane_run(&lane[1]);
		}
	} else {
		lane_init(&lane[0], &e, 0, r->n_spans, 0, 0);
		lane_run(&lane[0]);
	}
	if (started) {
		/* Progress, and a cancel, until the other thread is done. */
		wait_for(&e, &lane[0], others_done, 1);
		pthread_join(th, NULL);
	}
	for (i = 0; i < (size_t)nlanes; i++)
		lane_free(&lane[i]);
	pthread_cond_destroy(&e.cv);
	pthread_mutex_destroy(&e.mu);
	if (e.failed) {
		r->err_span = e.err_span;
		if (err != NULL)
			*err = e.err;
		return -1;
	}
	if (r->progress != NULL)
		(void)r->progress(r->parg, e.total, e.total);
	return 0;
}
