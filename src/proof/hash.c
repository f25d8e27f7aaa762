/*
 * hash.c - hashes of tensor data on the span reader (spanread.h): the
 * hash functions, the jobs, the tensors of a model, the proof of a save.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <nettle/sha1.h>
#include <nettle/sha2.h>
#include <xxhash.h>

#include "doc.h"
#include "hash.h"
#include "set.h"
#include "source.h"
#include "xmalloc.h"
#include "xxh64pair.h"


/* uuid.uuid5(uuid.NAMESPACE_URL, 'en.wikipedia.org/wiki/Llama.cpp') */
static const uint8_t uuid_ns[16] = {
	0xef, 0x00, 0x12, 0x06, 0xda, 0xdc, 0x5f, 0x6d,
	0xa1, 0x5f, 0x33, 0x59, 0xe5, 0x77, 0xd4, 0xe5
};

static const char *const kind_names[GGUF_H_COUNT] = {
	"xxh64", "xxh3", "sha1", "sha256", "uuid"
};

const char *
gguf_hash_name(int kind)
{
	return kind >= 0 && kind < GGUF_H_COUNT ? kind_names[kind] : NULL;
}

int
gguf_hash_parse(const char *s, size_t n)
{
	int	k;

	for (k = 0; k < GGUF_H_COUNT; k++)
		if (strlen(kind_names[k]) == n && memcmp(kind_names[k], s, n) == 0)
			return k;
	return -1;
}

const char *
gguf_hash_text(int kind, const struct gguf_digest *d, char *buf)
{
	static const char	hex[] = "0123456789abcdef";
	char			*o = buf;
	unsigned		 i;

	for (i = 0; i < d->len; i++) {
		if (kind == GGUF_H_UUID && (i == 4 || i == 6 || i == 8 ||
		    i == 10))
			*o++ = '-';
		*o++ = hex[d->b[i] >> 4];
		*o++ = hex[d->b[i] & 15];
	}
	*o = '\0';
	return buf;
}

int
gguf_digest_eq(const struct gguf_digest *a, const struct gguf_digest *b)
{
	return a->len != 0 && a->len == b->len &&
	    memcmp(a->b, b->b, a->len) == 0;
}

/* ------------------------------------------------------- running hashes */

/* The running hashes of several kinds over one stream of bytes. */
struct hstate {
	unsigned	 kinds;
	XXH64_state_t	*x64;
	XXH3_state_t	*x3;
	struct sha1_ctx	*sha1;
	struct sha256_ctx *sha256;
	struct sha1_ctx	*uuid;		/* SHA-1 of the namespace, then the bytes */
};

static void
hs_reset(struct hstate *s)
{
	if (s->x64 != NULL)
		XXH64_reset(s->x64, 0);
	if (s->x3 != NULL)
		XXH3_64bits_reset(s->x3);
	if (s->sha1 != NULL)
		sha1_init(s->sha1);
	if (s->sha256 != NULL)
		sha256_init(s->sha256);
	if (s->uuid != NULL) {
		sha1_init(s->uuid);
		sha1_update(s->uuid, sizeof uuid_ns, uuid_ns);
	}
}

static void
hs_init(struct hstate *s, unsigned kinds)
{
	memset(s, 0, sizeof *s);
	s->kinds = kinds;
	if ((kinds & GGUF_HM(GGUF_H_XXH64)) &&
	    (s->x64 = XXH64_createState()) == NULL)
		xmalloc_fail(64);
	if ((kinds & GGUF_HM(GGUF_H_XXH3)) &&
	    (s->x3 = XXH3_createState()) == NULL)
		xmalloc_fail(576);
	if (kinds & GGUF_HM(GGUF_H_SHA1))
		s->sha1 = xmalloc(sizeof *s->sha1);
	if (kinds & GGUF_HM(GGUF_H_SHA256))
		s->sha256 = xmalloc(sizeof *s->sha256);
	if (kinds & GGUF_HM(GGUF_H_UUID))
		s->uuid = xmalloc(sizeof *s->uuid);
	hs_reset(s);
}

/* The n bytes at p, but xxh64's first done bytes, which it has. */
static void
hs_update_past(struct hstate *s, const uint8_t *p, size_t n, size_t done)
{
	if (s->x64 != NULL && n > done)
		XXH64_update(s->x64, p + done, n - done);
	if (s->x3 != NULL)
		XXH3_64bits_update(s->x3, p, n);
	if (s->sha1 != NULL)
		sha1_update(s->sha1, n, p);
	if (s->sha256 != NULL)
		sha256_update(s->sha256, n, p);
	if (s->uuid != NULL)
		sha1_update(s->uuid, n, p);
}

static void
hs_update(struct hstate *s, const void *p, size_t n)
{
	hs_update_past(s, p, n, 0);
}

/* The same n bytes into a and b: their xxh64 in one pass where it can. */
static void
hs_update_pair(struct hstate *a, struct hstate *b, const void *p, size_t n)
{
	size_t	done = 0;

	if (a->x64 != NULL && b->x64 != NULL)
		done = gguf_xxh64_pair(a->x64, b->x64, p, n);
	hs_update_past(a, p, n, done);
	hs_update_past(b, p, n, done);
}

static void
put_be64(uint8_t *b, uint64_t v)
{
	int	i;

	for (i = 7; i >= 0; i--) {
		b[i] = (uint8_t)v;
		v >>= 8;
	}
}

/* Sets the version and variant bits of a UUIDv5 (RFC 9562, 5.5). */
static void
uuid5(const uint8_t *sha1, struct gguf_digest *out)
{
	memcpy(out->b, sha1, 16);
	out->b[6] = (uint8_t)((out->b[6] & 0x0f) | 0x50);
	out->b[8] = (uint8_t)((out->b[8] & 0x3f) | 0x80);
	out->len = 16;
}

static void
hs_final(struct hstate *s, struct gguf_hashes *out)
{
	uint8_t		 md[SHA1_DIGEST_SIZE];

	if (s->x64 != NULL) {
		put_be64(out->d[GGUF_H_XXH64].b, XXH64_digest(s->x64));
		out->d[GGUF_H_XXH64].len = 8;
	}
	if (s->x3 != NULL) {
		put_be64(out->d[GGUF_H_XXH3].b, XXH3_64bits_digest(s->x3));
		out->d[GGUF_H_XXH3].len = 8;
	}
	if (s->sha1 != NULL) {
		sha1_digest(s->sha1, SHA1_DIGEST_SIZE, out->d[GGUF_H_SHA1].b);
		out->d[GGUF_H_SHA1].len = SHA1_DIGEST_SIZE;
	}
	if (s->sha256 != NULL) {
		sha256_digest(s->sha256, SHA256_DIGEST_SIZE,
		    out->d[GGUF_H_SHA256].b);
		out->d[GGUF_H_SHA256].len = SHA256_DIGEST_SIZE;
	}
	if (s->uuid != NULL) {
		sha1_digest(s->uuid, SHA1_DIGEST_SIZE, md);
		uuid5(md, &out->d[GGUF_H_UUID]);
	}
	hs_reset(s);
}

static void
hs_free(struct hstate *s)
{
	if (s->x64 != NULL)
		XXH64_freeState(s->x64);
	if (s->x3 != NULL)
		XXH3_freeState(s->x3);
	free(s->sha1);
	free(s->sha256);
	free(s->uuid);
	memset(s, 0, sizeof *s);
}

void
gguf_hash_mem(int kind, const void *p, size_t n, struct gguf_digest *out)
{
	struct hstate		s;
	struct gguf_hashes	h;

	memset(&h, 0, sizeof h);
	hs_init(&s, GGUF_HM(kind));
	hs_update(&s, p, n);
	hs_final(&s, &h);
	hs_free(&s);
	*out = h.d[kind];
}

/* --------------------------------------------------------------- engine */

/*
 * A job on the span reader. With both each and all, GGUF_SR_SHARE: both
 * threads see every piece; thread 1 hashes all spans in order, and each
 * span's own hash is made by thread 0, thread 1, or begun by thread 0 and
 * ended by thread 1. Thread 0 reads and decides before it hands a piece
 * on (the reader's claim call):
 *   - at a span's start, it takes the span while it has spent less CPU
 *     time than thread 1 (its clock read every 4 MB), so that both end
 *     together, whatever reading and hashing cost on the machine;
 *   - further on, it keeps the span while it has still spent less, or
 *     thread 1 has at least a quarter of the ring left to do. Else it
 *     cuts, and thread 1 ends the span: thread 1 does not run dry
 *     waiting on a long hash of thread 0's. Thread 0's running state
 *     goes to thread 1 through one slot; while thread 1 has not taken
 *     the last one, thread 0 goes on instead of cutting.
 * A thread that hashes a span's own bytes and all of them feeds both
 * xxh64s in one pass (xxh64pair.c): 2.1 GB of xxh64 each and all, 0.225 s
 * against 0.308 s with two passes, xxhsum -H64 0.295 s (medians of 20).
 * A span stays thread 1's from its cut to its end (thread 0 could take it
 * back only by waiting for thread 1 to get there). Before the cuts, a
 * span larger than the ring was hashed whole on one thread while the
 * other waited on it.
 *
 * xxh64 of each tensor and of all, a 2.2 GB model of 133 tensors in the
 * page cache, 2-core virtual machine, medians of 5 interleaved rounds:
 * 0.329-0.353 s, against 0.331-0.361 s without the cuts; sha256 the
 * same (1.90-1.96 s). Cutting wherever thread 1 ran low, whatever the
 * CPU times, was faster on xxh64 but 10% slower on sha256, whose all's
 * hash costs thread 1 about what a span costs thread 0.
 *
 * Each alone: GGUF_SR_SPLIT, each thread its own spans. All alone is one
 * sequence: one thread.
 */
#define NO_CUT		UINT64_MAX
#define BUSY_EVERY	((uint64_t)4 << 20)	/* bytes between clock reads */

struct hrun {
	const struct gguf_hash_job *j;
	int			 share;
	struct hstate		 each[GGUF_SR_THREADS];
	struct hstate		 all;
	/*
	 * Share mode, per span: where thread 1's part of its own hash
	 * begins (NO_CUT: thread 0 hashes all it has decided so far).
	 * Set once, by thread 0, before the piece it names goes on.
	 */
	atomic_uint_least64_t	*cut;
	/* A running state at a cut past a span's start, for thread 1. */
	struct hstate		 hand;
	atomic_int		 hand_full;
	size_t			 handed;	/* states handed on */
	atomic_uint_least64_t	 seen[GGUF_SR_THREADS];	/* bytes, each thread */
	/* CPU time each thread has spent (ns), as it last read its clock */
	atomic_uint_least64_t	 busy[GGUF_SR_THREADS];
	uint64_t		 cpu0[GGUF_SR_THREADS];	/* its clock at start */
	uint64_t		 read_at[GGUF_SR_THREADS];	/* seen, then */
	int			 clocked[GGUF_SR_THREADS];
};

/* The calling thread's CPU time, ns (0 where it cannot be read). */
static uint64_t
thread_cpu_ns(void)
{
	struct timespec	ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Thread th's CPU time since it first read its clock here, read again
   every BUSY_EVERY bytes it has seen (a clock read is a system call). */
static uint64_t
busy_now(struct hrun *h, unsigned th)
{
	uint64_t	seen = atomic_load(&h->seen[th]), now;

	if (h->clocked[th] && seen - h->read_at[th] < BUSY_EVERY)
		return atomic_load(&h->busy[th]);
	h->read_at[th] = seen;
	if ((now = thread_cpu_ns()) == 0)	/* no clock: as it was */
		return atomic_load(&h->busy[th]);
	if (!h->clocked[th]) {
		h->clocked[th] = 1;
		h->cpu0[th] = now;
	}
	now = now > h->cpu0[th] ? now - h->cpu0[th] : 0;
	atomic_store(&h->busy[th], now);
	return now;
}

/* Swaps two running states (their buffers). */
static void
hs_swap(struct hstate *a, struct hstate *b)
{
	struct hstate	t = *a;

	*a = *b;
	*b = t;
}

/* Share mode, on thread 0 before the piece goes on: whether thread 0
   hashes this segment of span, or thread 1 from here on. */
static int
hash_claim(void *arg, size_t span, uint64_t pos, size_t n, int last,
    unsigned queued)
{
	struct hrun	*h = arg;

	(void)n;
	(void)last;
	if (atomic_load_explicit(&h->cut[span], memory_order_relaxed) !=
	    NO_CUT)
		return 0;		/* thread 1's already */
	if (busy_now(h, 0) < atomic_load(&h->busy[1]) ||
	    (pos > 0 && queued >= GGUF_SR_NSLOT / 4))
		return 0;		/* thread 0 hashes it */
	if (pos > 0) {
		if (atomic_load_explicit(&h->hand_full, memory_order_acquire))
			return 0;	/* the slot is taken: go on */
		hs_swap(&h->hand, &h->each[0]);
		atomic_store_explicit(&h->hand_full, 1, memory_order_release);
		h->handed++;
	}
	atomic_store_explicit(&h->cut[span], pos, memory_order_release);
	return 0;
}

/* Whether thread th hashes span's own bytes at pos. */
static int
hashes_each(struct hrun *h, unsigned th, size_t span, uint64_t pos)
{
	uint64_t	c;

	if (!h->share)
		return 1;
	c = atomic_load_explicit(&h->cut[span], memory_order_acquire);
	if (th == 0)
		return pos < c;
	if (pos < c)
		return 0;
	if (pos == c && pos > 0) {
		/* the state thread 0 handed on: the slot filled before the
		   cut was stored, and not again until this empties it */
		hs_swap(&h->each[1], &h->hand);
		atomic_store_explicit(&h->hand_full, 0, memory_order_release);
	}
	return 1;
}

static int
hash_consume(void *arg, unsigned th, size_t span, uint64_t pos,
    const uint8_t *p, size_t n, int last)
{
	struct hrun	*h = arg;
	int		 all, each;

	all = h->j->all != 0 && (!h->share || th == 1) && n > 0;
	each = h->j->each != 0 && hashes_each(h, th, span, pos);
	if (all && each)
		hs_update_pair(&h->all, &h->each[th], p, n);
	else if (all)
		hs_update(&h->all, p, n);
	else if (each && n > 0)
		hs_update(&h->each[th], p, n);
	if (each && last)
		hs_final(&h->each[th], &h->j->each_out[span]);
	if (h->share) {
		atomic_fetch_add(&h->seen[th], n);
		if (th == 1)
			(void)busy_now(h, 1);
	}
	return 0;
}

/*
 * On more than two threads, each span's hash on every one: the list cut
 * into runs of about equal bytes, each run a span reader of its own on a
 * thread of its own (the calling thread takes the first); with all too,
 * one more thread hashes all spans in order, reading them a second time
 * (from the page cache, or in place from a mapping). Each span is hashed
 * whole by one thread, all in order by one: the digests are those of
 * one thread. Progress and a cancel go through the calling thread; the
 * first failure stops the others.
 */
#define WIDE_MAX	64

struct wide;

struct wlane {
	struct wide		*w;
	size_t			 from, n;	/* spans [from, from + n) */
	int			 all;		/* the lane of all spans */
	int			 caller;	/* runs on the calling thread */
	struct hstate		 hs;
	atomic_uint_least64_t	 done;
	int			 rc, ours;	/* failed; stopped by another */
	struct gguf_err		 err;
	size_t			 err_span;	/* in the whole list */
	pthread_t		 th;
	int			 started;
};

struct wide {
	const struct gguf_hash_job *j;
	struct wlane		*lane;
	size_t			 nlanes;
	uint64_t		 total;		/* bytes of all spans */
	atomic_int		 stop;		/* a lane failed, or a cancel */
	atomic_int		 running;	/* lanes on threads of their own */
};

/* Bytes hashed, counting each span's and all's, as one total's share. */
static uint64_t
wide_done(struct wide *w)
{
	uint64_t	each = 0, all = 0;
	size_t		k;

	for (k = 0; k < w->nlanes; k++) {
		if (w->lane[k].all)
			all = atomic_load(&w->lane[k].done);
		else
			each += atomic_load(&w->lane[k].done);
	}
	return w->j->all != 0 ? each / 2 + all / 2 + (each % 2 + all % 2) / 2 :
	    each;
}

/* The caller's progress with every lane's bytes: non-zero stops all. */
static int
wide_report(struct wide *w)
{
	uint64_t	done;

	if (w->j->progress == NULL)
		return 0;
	done = wide_done(w);
	if (done >= w->total && w->total > 0)	/* total only at the end */
		done = w->total - 1;
	if (w->j->progress(w->j->arg, done, w->total) != 0) {
		atomic_store(&w->stop, 1);
		return 1;
	}
	return 0;
}

static int
wlane_progress(void *arg, uint64_t done, uint64_t total)
{
	struct wlane	*l = arg;

	(void)total;
	atomic_store(&l->done, done);
	if (l->caller && wide_report(l->w) != 0)
		return 1;
	if (atomic_load(&l->w->stop)) {
		l->ours = 1;
		return 1;
	}
	return 0;
}

static int
wlane_consume(void *arg, unsigned th, size_t span, uint64_t pos,
    const uint8_t *p, size_t n, int last)
{
	struct wlane	*l = arg;

	(void)th;
	(void)pos;
	if (n > 0)
		hs_update(&l->hs, p, n);
	if (l->all)
		return 0;
	if (last)		/* which resets the state for the next */
		hs_final(&l->hs, &l->w->j->each_out[l->from + span]);
	return 0;
}

static void
wlane_run(struct wlane *l)
{
	struct gguf_spanread	r;

	memset(&r, 0, sizeof r);
	r.spans = l->w->j->spans + l->from;
	r.n_spans = l->n;
	r.consume = wlane_consume;
	r.arg = l;
	r.mode = GGUF_SR_SPLIT;
	r.threads = 1;
	r.progress = wlane_progress;
	r.parg = l;
	memset(&l->err, 0, sizeof l->err);
	l->rc = gguf_spanread(&r, &l->err);
	l->err_span = r.err_span < l->n ? l->from + r.err_span : (size_t)-1;
	if (l->rc != 0)
		atomic_store(&l->w->stop, 1);
	else if (l->all)
		hs_final(&l->hs, l->w->j->all_out);
}

static void *
wlane_thread(void *arg)
{
	struct wlane	*l = arg;

	wlane_run(l);
	atomic_fetch_sub(&l->w->running, 1);
	return NULL;
}

static int
hash_wide(struct gguf_hash_job *j, unsigned threads, struct gguf_err *err)
{
	struct wide		 w;
	struct wlane		*l, *bad = NULL;
	struct timespec		 ts = { 0, 20 * 1000 * 1000 };
	unsigned		 neach = j->all != 0 ? threads - 1 : threads;
	uint64_t		 acc = 0, cut;
	size_t			 i, k, from = 0;
	int			 rc = 0;

	memset(&w, 0, sizeof w);
	w.j = j;
	for (i = 0; i < j->n_spans; i++)
		w.total += j->spans[i].len;
	if (neach > j->n_spans)
		neach = (unsigned)j->n_spans;
	w.lane = xcalloc(neach + 1, sizeof *w.lane);
	atomic_init(&w.stop, 0);
	atomic_init(&w.running, 0);
	/* Runs of about total / neach bytes, each at least one span. */
	for (k = 0; k < neach; k++) {
		l = &w.lane[w.nlanes++];
		l->w = &w;
		l->from = from;
		cut = w.total / neach * (k + 1);
		acc += j->spans[from].len;
		for (i = from + 1; i < j->n_spans - (neach - k - 1) &&
		    (k + 1 == neach || acc + j->spans[i].len / 2 <= cut); i++)
			acc += j->spans[i].len;
		l->n = i - from;
		from = i;
		hs_init(&l->hs, j->each);
		atomic_init(&l->done, 0);
	}
	if (j->all != 0) {
		l = &w.lane[w.nlanes++];
		l->w = &w;
		l->from = 0;
		l->n = j->n_spans;
		l->all = 1;
		hs_init(&l->hs, j->all);
		atomic_init(&l->done, 0);
	}
	j->threads_used = (unsigned)w.nlanes;
	w.lane[0].caller = 1;
	for (k = 1; k < w.nlanes; k++) {
		atomic_fetch_add(&w.running, 1);
		if (pthread_create(&w.lane[k].th, NULL, wlane_thread,
		    &w.lane[k]) == 0)
			w.lane[k].started = 1;
		else
			atomic_fetch_sub(&w.running, 1);
	}
	wlane_run(&w.lane[0]);
	/* A lane whose thread did not start runs here. */
	for (k = 1; k < w.nlanes; k++)
		if (!w.lane[k].started) {
			w.lane[k].caller = 1;
			wlane_run(&w.lane[k]);
		}
	/* Progress, and a cancel, until the other threads are done. */
	while (atomic_load(&w.running) > 0) {
		if (!atomic_load(&w.stop))
			(void)wide_report(&w);
		nanosleep(&ts, NULL);
	}
	for (k = 1; k < w.nlanes; k++)
		if (w.lane[k].started)
			pthread_join(w.lane[k].th, NULL);
	/* The failure of its own nearest the front, else a cancel. */
	for (k = 0; k < w.nlanes; k++) {
		l = &w.lane[k];
		if (l->rc == 0)
			continue;
		if (bad == NULL || (bad->ours && !l->ours) ||
		    (bad->ours == l->ours && l->err_span < bad->err_span))
			bad = l;
	}
	if (bad != NULL) {
		j->err_span = bad->err_span;
		if (err != NULL)
			*err = bad->err;
		if (bad->ours && err != NULL)
			gguf_errf(err, -1, "cancelled");
		rc = -1;
	} else if (j->progress != NULL)
		(void)j->progress(j->arg, w.total, w.total);
	for (k = 0; k < w.nlanes; k++)
		hs_free(&w.lane[k].hs);
	free(w.lane);
	return rc;
}

/* Threads a job asks for: 0 is one a core. */
static unsigned
job_threads(const struct gguf_hash_job *j)
{
	long	n;

	if (j->threads != 0)
		return j->threads < WIDE_MAX ? j->threads : WIDE_MAX;
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n < WIDE_MAX ? (unsigned)n : WIDE_MAX;
}

int
gguf_hash_run(struct gguf_hash_job *j, struct gguf_err *err)
{
	struct gguf_spanread	 r;
	struct hrun		 h;
	unsigned		 t, nt;
	size_t			 k;
	int			 rc;

	j->handed = 0;
	nt = job_threads(j);
	if (j->each != 0 && nt > 2 && j->n_spans > 1)
		return hash_wide(j, nt, err);
	/* (Unless the second thread cannot be started.) */
	j->threads_used = nt >= 2 && (j->all != 0 || (j->each != 0 &&
	    j->n_spans > 1)) ? 2 : 1;

	memset(&h, 0, sizeof h);
	h.j = j;
	/*
	 * All alone is one sequence, hashed on one thread: with two cores
	 * the calling thread reads the pieces ahead and the other hashes
	 * them (xxh64 of a 2.2 GB model: the read's copy and the hash,
	 * about 0.17 s and 0.25 s, overlap instead of adding up).
	 */
	h.share = j->all != 0 && (j->each != 0 || nt >= 2);
	for (t = 0; t < GGUF_SR_THREADS; t++)
		hs_init(&h.each[t], j->each);
	hs_init(&h.all, j->all);
	hs_init(&h.hand, h.share ? j->each : 0);
	atomic_init(&h.hand_full, 0);
	for (t = 0; t < GGUF_SR_THREADS; t++) {
		atomic_init(&h.seen[t], 0);
		atomic_init(&h.busy[t], 0);
	}
	if (h.share) {
		h.cut = xcalloc(j->n_spans != 0 ? j->n_spans : 1,
		    sizeof *h.cut);
		for (k = 0; k < j->n_spans; k++)
			atomic_init(&h.cut[k], NO_CUT);
	}
	memset(&r, 0, sizeof r);
	r.spans = j->spans;
	r.n_spans = j->n_spans;
	r.consume = hash_consume;
	r.arg = &h;
	r.mode = h.share ? GGUF_SR_SHARE : GGUF_SR_SPLIT;
	r.claim = h.share && j->each != 0 ? hash_claim : NULL;
	r.threads = j->each == 0 && !h.share ? 1 : j->threads;
	r.progress = j->progress;
	r.parg = j->arg;
	rc = gguf_spanread(&r, err);
	j->err_span = r.err_span;
	j->handed = h.handed;
	if (rc == 0 && j->all != 0)
		hs_final(&h.all, j->all_out);
	for (t = 0; t < GGUF_SR_THREADS; t++)
		hs_free(&h.each[t]);
	hs_free(&h.all);
	hs_free(&h.hand);
	free(h.cut);
	return rc;
}

/* ------------------------------------------------------------- tensors */

int
gguf_tensor_span(const struct gguf_file *f, uint64_t i, struct gguf_span *out,
    struct gguf_err *err)
{
	const struct gguf_tensor	*t = gguf_tensor_at(f, i);
	const struct gguf_file		*tf;
	char				 nm[128], tb[24];

	if (t == NULL)
		return gguf_errf(err, -1, "no tensor %llu",
		    (unsigned long long)i);
	gguf_pname(t->name.p, (size_t)t->name.n, nm, sizeof nm);
	if ((tf = gguf_tensor_file(f, t)) == NULL)	/* a shard not read */
		return gguf_errf(err, -1, "tensor \"%s\": its shard %s "
		    "could not be read", nm,
		    gguf_shard_path(f, t->shard));
	if (t->flags & GGUF_TENSOR_UNSIZED)
		return gguf_errf(err, (int64_t)t->off, "tensor \"%s\": the "
		    "size of its data is unknown (%s)", nm,
		    gguf_ttype_name(t->type, tb));
	if (t->flags & GGUF_TENSOR_UNREADABLE)	/* at the reader's offset */
		return gguf_errf(err, (int64_t)(t->end - 8), "tensor \"%s\": "
		    "its data lies past the end of the file", nm);
	memset(out, 0, sizeof *out);
	out->fd = gguf_file_fd(tf);
	/* read through the descriptor, else in memory or from the source */
	out->mem = out->fd >= 0 ? NULL : gguf_file_mem(tf);
	out->src = gguf_file_source(tf);
	out->file = out->fd >= 0 ? tf : NULL;	/* checked for changes */
	out->off = gguf_layout(tf)->data_off + t->offset;
	out->len = t->nbytes;
	return 0;
}

int
gguf_tensor_span_mapped(const struct gguf_file *f, uint64_t i,
    struct gguf_span *out, struct gguf_err *err)
{
	const struct gguf_file	*tf;

	if (gguf_tensor_span(f, i, out, err) != 0)
		return -1;
	tf = gguf_tensor_file(f, gguf_tensor_at(f, i));
	if (out->fd >= 0 && (out->mem = gguf_file_mem(tf)) != NULL)
		out->fd = -1;	/* out->file is tf */
	return 0;
}

int
gguf_hash_tensors(const struct gguf_file *f, unsigned each, unsigned all,
    struct gguf_hashes *each_out, struct gguf_hashes *all_out,
    int (*progress)(void *, uint64_t, uint64_t), void *arg,
    uint64_t *err_tensor, struct gguf_err *err)
{
	struct gguf_hash_job	 j;
	struct gguf_span	*sp;
	uint64_t		 i, n = gguf_layout(f)->n_tensors;
	int			 rc;

	if (err_tensor != NULL)
		*err_tensor = UINT64_MAX;
	sp = xreallocarray(NULL, n != 0 ? n : 1, sizeof *sp);
	for (i = 0; i < n; i++)
		if (gguf_tensor_span(f, i, &sp[i], err) != 0) {
			if (err_tensor != NULL)
				*err_tensor = i;
			free(sp);
			return -1;
		}
	memset(&j, 0, sizeof j);
	j.spans = sp;
	j.n_spans = (size_t)n;
	j.each = each;
	j.all = all;
	j.each_out = each_out;
	j.all_out = all_out;
	j.progress = progress;
	j.arg = arg;
	if (each_out != NULL)
		memset(each_out, 0, (size_t)n * sizeof *each_out);
	if (all_out != NULL)
		memset(all_out, 0, sizeof *all_out);
	rc = gguf_hash_run(&j, err);
	if (rc != 0 && err_tensor != NULL && j.err_span < n)
		*err_tensor = j.err_span;
	free(sp);
	return rc;
}

int
gguf_hash_tensor(const struct gguf_file *f, uint64_t i, int kind,
    struct gguf_digest *out, struct gguf_err *err)
{
	struct gguf_hash_job	j;
	struct gguf_span	sp;
	struct gguf_hashes	h;

	if (gguf_tensor_span(f, i, &sp, err) != 0)
		return -1;
	memset(&j, 0, sizeof j);
	memset(&h, 0, sizeof h);
	j.spans = &sp;
	j.n_spans = 1;
	j.each = GGUF_HM(kind);
	j.each_out = &h;
	j.threads = 1;
	if (gguf_hash_run(&j, err) != 0)
		return -1;
	*out = h.d[kind];
	return 0;
}

/* ------------------------------------------------ proof after a save */

/* A copy of a shard's descriptor fd, made once per shard; -1 on error. */
static int
keep_shard(struct gguf_proof *p, int fd)
{
	size_t	i;
	int	k;

	for (i = 0; i < p->n_kept; i++)
		if (p->from[i] == fd)
			return p->kept[i];
	if ((k = fcntl(fd, F_DUPFD_CLOEXEC, 0)) < 0)
		return -1;
	p->from = xreallocarray(p->from, p->n_kept + 1, sizeof *p->from);
	p->kept = xreallocarray(p->kept, p->n_kept + 1, sizeof *p->kept);
	p->from[p->n_kept] = fd;
	p->kept[p->n_kept++] = k;
	return k;
}

int
gguf_proof_begin(struct gguf_doc *d, struct gguf_proof *p,
    struct gguf_err *err)
{
	struct gguf_file	*f = gguf_doc_file(d);
	struct gguf_doc_tensor	 dt;
	uint64_t		 i, n = gguf_doc_n_tensors(d);
	int64_t			 ix;
	int			 fd;

	memset(p, 0, sizeof *p);
	p->fd = -1;
	for (i = 0; i <= gguf_n_shards(f); i++) {
		const struct gguf_file	*sf = i == 0 ? f : gguf_shard(f, i - 1);

		if (sf != NULL && gguf_file_source(sf) != NULL &&
		    strcmp(gguf_source_kind(gguf_file_source(sf)),
		    "http") == 0)
			return gguf_errf(err, -1, "the tensor data of a model "
			    "read from a URL is not proved: it would be "
			    "downloaded a second time");
	}
	p->set = gguf_n_shards(f) > 0;
	if ((fd = gguf_file_fd(f)) >= 0 &&
	    (p->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0)) < 0)
		return gguf_errf(err, -1, "cannot keep the source open: %s",
		    strerror(errno));
	p->mem = p->fd < 0 ? gguf_file_mem(f) : NULL;	/* a buffer's */
	p->t = xreallocarray(NULL, n != 0 ? n : 1, sizeof *p->t);
	for (i = 0; i < n; i++) {
		if (gguf_doc_tensor(d, i, &dt) != 0 ||
		    (dt.flags & GGUF_ED_REMOVED))
			continue;
		ix = gguf_tensor_find(f, dt.t->name.p, (size_t)dt.t->name.n);
		if (ix < 0 || gguf_tensor_span(f, (uint64_t)ix,
		    &p->t[p->n].src, NULL) != 0) {
			/* Unreadable data: what is there cannot be proved. */
			memset(&p->t[p->n].src, 0, sizeof p->t[p->n].src);
			p->t[p->n].src.fd = p->fd;
			p->t[p->n].src.mem = p->mem;
		}
		/*
		 * From the kept source, or the kept copy of its shard's,
		 * read after f is closed (and the file maybe saved over):
		 * not checked against f.
		 */
		p->t[p->n].src.file = NULL;
		if (!p->set) {
			p->t[p->n].src.fd = p->fd;
			p->t[p->n].src.mem = p->mem;
		} else if (p->t[p->n].src.fd >= 0 &&
		    (p->t[p->n].src.fd = keep_shard(p,
		    p->t[p->n].src.fd)) < 0) {
			gguf_proof_free(p);
			return gguf_errf(err, -1, "cannot keep a shard open: "
			    "%s", strerror(errno));
		}
		p->t[p->n].name = xstrndup(dt.name.p, (size_t)dt.name.n);
		p->t[p->n].edited = (dt.flags & GGUF_ED_VALUE) != 0 ||
		    dt.type != dt.t->type;
		p->t[p->n].type = dt.type;
		p->n++;
	}
	return 0;
}

void
gguf_proof_free(struct gguf_proof *p)
{
	size_t	i;

	for (i = 0; i < p->n; i++)
		free(p->t[i].name);
	free(p->t);
	if (p->fd >= 0)
		close(p->fd);
	for (i = 0; i < p->n_kept; i++)
		close(p->kept[i]);
	free(p->from);
	free(p->kept);
	memset(p, 0, sizeof *p);
	p->fd = -1;
}

void
gguf_proof_result_free(struct gguf_proof_result *r)
{
	size_t	i;

	for (i = 0; i < r->n_changed; i++)
		free(r->changed[i]);
	for (i = 0; i < r->n_missing; i++)
		free(r->missing[i]);
	for (i = 0; i < r->n_edited; i++)
		free(r->edited[i]);
	free(r->changed);
	free(r->missing);
	free(r->edited);
	memset(r, 0, sizeof *r);
}

static void
name_push(char ***v, size_t *n, const char *name, const char *suffix)
{
	char	buf[160], *s;
	size_t	len;

	gguf_pname(name, strlen(name), buf, sizeof buf);
	len = strlen(buf) + (suffix != NULL ? strlen(suffix) + 3 : 0) + 1;
	s = xmalloc(len);
	if (suffix != NULL)
		snprintf(s, len, "%s (%s)", buf, suffix);
	else
		snprintf(s, len, "%s", buf);
	*v = xreallocarray(*v, *n + 1, sizeof **v);
	(*v)[(*n)++] = s;
}

struct side {
	struct gguf_hash_job	 job;
	struct gguf_err		 err;
	int			 rc;
};

static void *
side_run(void *arg)
{
	struct side	*s = arg;

	s->rc = gguf_hash_run(&s->job, &s->err);
	return NULL;
}

/* The file identities of the last descriptors asked about, one a side. */
struct ids {
	int	fd[2];
	int	ok[2];
	dev_t	dev[2];
	ino_t	ino[2];
};

static int
file_id(struct ids *c, int side, int fd)
{
	struct stat	st;

	if (c->ok[side] && c->fd[side] == fd)
		return 1;
	c->ok[side] = 0;
	if (fd < 0 || fstat(fd, &st) != 0)
		return 0;
	c->fd[side] = fd;
	c->dev[side] = st.st_dev;
	c->ino[side] = st.st_ino;
	c->ok[side] = 1;
	return 1;
}

/* Whether descriptors a and b are of the same file. */
static int
same_inode(int a, int b, struct ids *c)
{
	return file_id(c, 0, a) && file_id(c, 1, b) &&
	    c->dev[0] == c->dev[1] && c->ino[0] == c->ino[1];
}

int
gguf_proof_check(struct gguf_proof *p, const char *path, int inplace,
    int (*progress)(void *, uint64_t, uint64_t), void *arg,
    struct gguf_proof_result *r, struct gguf_err *err)
{
	struct gguf_file	*f;
	struct gguf_span	*src, *dst;
	struct gguf_hashes	*hs, *hd;
	struct side		 a, b;
	size_t			*which, i, k, n = 0;
	struct ids		 ids;
	int64_t			 ix;
	char			 tb[24];
	pthread_t		 th;
	int			 started;

	memset(r, 0, sizeof *r);
	memset(&ids, 0, sizeof ids);
	r->inplace = inplace;
	f = p->set ? gguf_set_open(path, 0, err) : gguf_open(path, err);
	if (f == NULL)
		return -1;
	src = xreallocarray(NULL, p->n + 1, sizeof *src);
	dst = xreallocarray(NULL, p->n + 1, sizeof *dst);
	which = xreallocarray(NULL, p->n + 1, sizeof *which);
	for (i = 0; i < p->n; i++) {
		const struct gguf_proof_tensor	*t = &p->t[i];

		ix = gguf_tensor_find(f, t->name, strlen(t->name));
		if (ix < 0) {
			name_push(&r->missing, &r->n_missing, t->name, NULL);
			continue;
		}
		if (t->edited) {
			name_push(&r->edited, &r->n_edited, t->name,
			    gguf_ttype_name(t->type, tb));
			continue;
		}
		if (gguf_tensor_span(f, (uint64_t)ix, &dst[n], NULL) != 0 ||
		    dst[n].len != t->src.len) {
			name_push(&r->changed, &r->n_changed, t->name, NULL);
			continue;
		}
		src[n] = t->src;
		which[n++] = i;
	}
	r->checked = n;
	if (inplace) {
		/* Nothing was written there: the data must lie where it lay. */
		for (i = 0; i < n; i++)
			if (src[i].off != dst[i].off)
				name_push(&r->changed, &r->n_changed,
				    p->t[which[i]].name, NULL);
		r->kept = n;
		goto done;
	}
	/*
	 * A tensor whose data lies where it lay in the very file it was read
	 * from (a shard of a set the save did not rewrite, or saved in place)
	 * was not written either: hashing it twice would read the same bytes
	 * of the same file, a whole model's worth for one key of shard 1.
	 */
	for (i = k = 0; i < n; i++) {
		if (src[i].off == dst[i].off && same_inode(src[i].fd,
		    dst[i].fd, &ids)) {
			r->kept++;
			continue;
		}
		src[k] = src[i];
		dst[k] = dst[i];
		which[k++] = which[i];
	}
	n = k;
	hs = xcalloc(n + 1, sizeof *hs);
	hd = xcalloc(n + 1, sizeof *hd);
	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	a.job.spans = src;
	a.job.n_spans = n;
	a.job.each = GGUF_HM(GGUF_H_XXH64);
	a.job.each_out = hs;
	a.job.threads = 1;
	b.job = a.job;
	b.job.spans = dst;
	b.job.each_out = hd;
	b.job.progress = progress;
	b.job.arg = arg;
	started = pthread_create(&th, NULL, side_run, &a) == 0;
	if (!started)
		side_run(&a);
	side_run(&b);
	if (started)
		pthread_join(th, NULL);
	if (a.rc != 0 || b.rc != 0) {
		if (err != NULL)
			*err = b.rc != 0 ? b.err : a.err;
		free(hs);
		free(hd);
		free(src);
		free(dst);
		free(which);
		gguf_close(f);
		gguf_proof_result_free(r);
		return -1;
	}
	for (i = 0; i < n; i++)
		if (!gguf_digest_eq(&hs[i].d[GGUF_H_XXH64],
		    &hd[i].d[GGUF_H_XXH64]))
			name_push(&r->changed, &r->n_changed,
			    p->t[which[i]].name, NULL);
	free(hs);
	free(hd);
done:
	free(src);
	free(dst);
	free(which);
	gguf_close(f);
	return 0;
}

/* Appends "NAME, NAME, ..." to fp. */
static void
name_list(FILE *fp, char **v, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		fprintf(fp, "%s%s", i > 0 ? ", " : "", v[i]);
}

char *
gguf_proof_text(const struct gguf_proof_result *r)
{
	char	*s = NULL, num[32], hashed[32], kept[32];
	size_t	 len = 0;
	FILE	*fp;

	if ((fp = open_memstream(&s, &len)) == NULL)
		xmalloc_fail(4096);
	gguf_fmt_group(r->checked, num, sizeof num);
	gguf_fmt_group(r->checked - r->kept, hashed, sizeof hashed);
	gguf_fmt_group(r->kept, kept, sizeof kept);
	if (r->n_changed + r->n_missing == 0 && r->kept > 0 &&
	    r->kept < r->checked)
		fprintf(fp, "tensor data unchanged (%s tensors: %s by xxh64, "
		    "%s not rewritten)", num, hashed, kept);
	else if (r->n_changed + r->n_missing == 0)
		fprintf(fp, "tensor data unchanged (%s tensor%s, %s)", num,
		    r->checked == 1 ? "" : "s", r->inplace ||
		    (r->kept > 0 && r->kept == r->checked) ?
		    "not rewritten" : "xxh64");
	else {
		fputs("tensor data CHANGED", fp);
		if (r->n_changed > 0) {
			fputs(": ", fp);
			name_list(fp, r->changed, r->n_changed);
		}
		if (r->n_missing > 0) {
			fputs(r->n_changed > 0 ? "; missing: " : ": missing: ",
			    fp);
			name_list(fp, r->missing, r->n_missing);
		}
		fprintf(fp, " (%s compared, xxh64)", num);
	}
	if (r->n_edited > 0) {
		fputs("; rewritten by the edit: ", fp);
		name_list(fp, r->edited, r->n_edited);
	}
	if (fclose(fp) != 0 || s == NULL)
		xmalloc_fail(len + 1);
	return s;
}
