/*
 * stats_many.c - statistics of several tensors at once.
 *
 * One tensor after another, each on every thread, leaves threads idle at
 * the end of each (the last chunks, the sketch's reading), and starts and
 * joins them per tensor: on many cores and many tensors of a few
 * megabytes, that is most of the time. Here the tensors that are each a
 * small part of the whole are a segment, run side by side, a thread per
 * tensor, taken in order so that results stream out; the others (larger
 * than a share of the whole, read by range, of no rows, or that fail
 * their checks) run in their turn on every thread, as gguf_stats_tensor
 * runs them. A tensor's results do not depend on its threads, so they
 * are the same either way. The calling thread hands the results over in
 * order, each after checking the file has not changed since the tensor
 * was read.
 *
 * Jobs are asked of the caller one at a time and held in a ring of
 * gguf_stats_in_flight(threads) slots: a worker takes a job only once
 * the one that many places before it has been handed over, so memory
 * follows the threads, not the number of tensors (a file of a million
 * tiny tensors holds a few slots, not a million results).
 */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "gguf.h"
#include "internal.h"
#include "dequant.h"
#include "stats.h"
#include "stats_pool.h"

struct many {
	const struct gguf_file		*f;
	gguf_stats_job_fn		 job;	/* the caller's: job k */
	void				*arg;
	const struct gguf_stats_opts	*opts;
	uint64_t			 total;	/* elements of every job */

	unsigned			 w;	/* slots in the ring */
	struct gguf_stats_job		*slot;	/* job k in slot k % w */
	const uint8_t			**data;	/* by slot: its rows, when
						   it runs in a segment */
	unsigned char			*ended;	/* by slot */

	uint64_t			 end;	/* the segment's jobs end */
	uint64_t			 next;	/* atomic: the next to run */
	uint64_t			 handed;	/* jobs handed over */
	int				 stop;	/* atomic: runs stop */
	int				 quit;	/* done stopped: no more
						   handed (under lock) */
	int				 cancelled;	/* atomic: by opts */
	uint64_t			 done;	/* atomic: elements */

	pthread_mutex_t			 lock;	/* slots, progress calls */
	pthread_cond_t			 cond;
};

/* Whether runs are to stop; a cancel by opts is noted as such. */
static int
stopping(struct many *m)
{
	const int	*cancel = m->opts->cancel;

	if (cancel != NULL && __atomic_load_n(cancel, __ATOMIC_RELAXED)) {
		__atomic_store_n(&m->cancelled, 1, __ATOMIC_RELAXED);
		__atomic_store_n(&m->stop, 1, __ATOMIC_RELAXED);
	}
	return __atomic_load_n(&m->stop, __ATOMIC_RELAXED);
}

/* A job's progress, turned into the run's. */
struct job_progress {
	struct many	*m;
	uint64_t	 last;
};

static int
job_progress(void *arg, uint64_t done, uint64_t total)
{
	struct job_progress		*jp = arg;
	struct many			*m = jp->m;
	const struct gguf_stats_opts	*o = m->opts;
	int				 stop;

	(void)total;
	__atomic_fetch_add(&m->done, done - jp->last, __ATOMIC_RELAXED);
	jp->last = done;
	if (stopping(m))
		return 1;
	if (o->progress == NULL)
		return 0;
	/* read under the lock, so the count reported only grows */
	pthread_mutex_lock(&m->lock);
	stop = o->progress(o->arg, __atomic_load_n(&m->done,
	    __ATOMIC_RELAXED), m->total) != 0;
	pthread_mutex_unlock(&m->lock);
	if (stop) {
		__atomic_store_n(&m->cancelled, 1, __ATOMIC_RELAXED);
		__atomic_store_n(&m->stop, 1, __ATOMIC_RELAXED);
	}
	return stop;
}

static uint64_t
job_elements(const struct gguf_stats_job *j)
{
	uint64_t	n;

	if (gguf_mul_ok(j->nrows, j->t->ne[0], &n) != 0)
		return UINT64_MAX;
	return n;
}

/* A ring of twice the threads, and the slot a look at the next job uses. */
unsigned
gguf_stats_in_flight(unsigned threads)
{
	if (threads == 0)
		threads = gguf_ncpu();
	return (threads < 2 ? 2 : 2 * threads) + 1;
}

/* Job k from the caller, in *j (zeroed first). */
static void
load(struct many *m, uint64_t k, struct gguf_stats_job *j)
{
	memset(j, 0, sizeof *j);
	m->job(m->arg, k, j);
}

/*
 * Whether job j runs a thread of its own in a segment: the rows it reads
 * there, else NULL (it runs alone, on every thread).
 */
static const uint8_t *
seg_data(struct many *m, const struct gguf_stats_job *j, uint64_t share,
    unsigned threads)
{
	struct gguf_err	e;

	memset(&e, 0, sizeof e);
	if (threads < 2 || j->rc != 0 || j->nrows == 0 ||
	    job_elements(j) > share || gguf_tensor_by_range(m->f, j->t))
		return NULL;
	return gguf_tensor_window(m->f, j->t, j->row0, j->nrows, 0,
	    j->t->ne[0], &e);
}

/* Runs job j on the given threads: in place if data (in a segment). */
static void
run_job(struct many *m, struct gguf_stats_job *j, const uint8_t *data,
    unsigned threads)
{
	struct gguf_stats_opts	 o = *m->opts;
	struct job_progress	 jp;

	if (stopping(m)) {
		memset(&j->st, 0, sizeof j->st);
		j->rc = GGUF_STATS_CANCELLED;
		gguf_errf(&j->err, -1, "cancelled");
		return;
	}
	jp.m = m;
	jp.last = 0;
	o.threads = threads;
	o.progress = job_progress;
	o.arg = &jp;
	o.cancel = &m->stop;
	if (data == NULL)
		j->rc = gguf_stats_tensor(m->f, j->t, j->row0, j->nrows, &o,
		    &j->st, &j->err);
	else
		j->rc = gguf_stats_window(m->f, j->t, data, j->row0,
		    j->nrows, &o, &j->st, &j->err);
}

/* The share of the whole a tensor may have to run in a segment. */
struct segarg {
	struct many	*m;
	uint64_t	 share;
};

static void *
worker_main(void *arg)
{
	struct segarg		*sa = arg;
	struct many		*m = sa->m;
	struct gguf_stats_job	*j;
	const uint8_t		*data;
	uint64_t		 k;

	while ((k = __atomic_fetch_add(&m->next, 1, __ATOMIC_RELAXED)) <
	    m->end) {
		/* its slot is free once job k - w has been handed over */
		pthread_mutex_lock(&m->lock);
		while (k >= m->handed + m->w && !m->quit)
			pthread_cond_wait(&m->cond, &m->lock);
		if (m->quit) {
			pthread_mutex_unlock(&m->lock);
			break;
		}
		j = &m->slot[k % m->w];
		load(m, k, j);
		data = seg_data(m, j, sa->share, 2);
		m->data[k % m->w] = data;
		pthread_mutex_unlock(&m->lock);
		run_job(m, j, data, 1);
		pthread_mutex_lock(&m->lock);
		m->ended[k % m->w] = 1;
		pthread_cond_broadcast(&m->cond);
		pthread_mutex_unlock(&m->lock);
	}
	return NULL;
}

/*
 * Job j (number k) handed to done, after the check that the file is as
 * it was when it was read in place (data): if not, the job fails with
 * the reason (what it read may mix old and new bytes).
 * GGUF_STATS_STOPPED if done stops the run.
 */
static int
hand(struct many *m, struct gguf_stats_job *j, int in_place, uint64_t k,
    gguf_stats_done_fn done)
{
	struct gguf_err		 e;
	int			 stop;

	memset(&e, 0, sizeof e);
	if (in_place && j->rc != GGUF_STATS_CANCELLED &&
	    gguf_file_changed(m->f, 0, &e)) {
		j->rc = -1;
		j->err = e;
	}
	/* never while a worker reports progress: both may print */
	pthread_mutex_lock(&m->lock);
	stop = done(m->arg, j, k) != 0;
	if (stop) {
		m->quit = 1;
		__atomic_store_n(&m->stop, 1, __ATOMIC_RELAXED);
	}
	m->handed = k + 1;
	pthread_cond_broadcast(&m->cond);
	pthread_mutex_unlock(&m->lock);
	return stop ? GGUF_STATS_STOPPED : 0;
}

/*
 * Jobs k0 .. k1 (of el elements) side by side, taken in order (so results
 * come out as soon as a thread's worth of them has ended, and a change of
 * the file is seen within about one tensor), on no more threads than the
 * segment has chunks; each handed over in order.
 */
static int
segment(struct many *m, uint64_t k0, uint64_t k1, uint64_t el,
    uint64_t share, unsigned threads, gguf_stats_done_fn done)
{
	struct segarg	 sa = { m, share };
	pthread_t	*tid;
	uint64_t	 k, i;
	unsigned	 n, started = 0, s;
	int		 rc = 0;

	m->end = k1;
	m->next = k0;
	m->handed = k0;
	n = k1 - k0 < threads ? (unsigned)(k1 - k0) : threads;
	if (el / CHUNK + 1 < n)
		n = (unsigned)(el / CHUNK + 1);
	tid = xcalloc(n, sizeof *tid);
	for (i = 0; i < n; i++) {
		if (pthread_create(&tid[started], NULL, worker_main, &sa) != 0)
			break;
		started++;
	}
	if (started == 0) {
		/* no thread could start: this one works, a slot at a time */
		m->end = k0;
		for (k = k0; k < k1 && rc == 0; k++) {
			load(m, k, &m->slot[0]);
			run_job(m, &m->slot[0], seg_data(m, &m->slot[0],
			    share, 2), 1);
			rc = hand(m, &m->slot[0], 1, k, done);
		}
	}
	for (k = k0; k < k1 && started > 0; k++) {
		s = (unsigned)(k % m->w);
		pthread_mutex_lock(&m->lock);
		while (!m->ended[s])
			pthread_cond_wait(&m->cond, &m->lock);
		m->ended[s] = 0;
		pthread_mutex_unlock(&m->lock);
		if ((rc = hand(m, &m->slot[s], m->data[s] != NULL, k,
		    done)) != 0)
			break;
	}
	for (i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	free(tid);
	return rc;
}

int
gguf_stats_tensors(const struct gguf_file *f, uint64_t n,
    gguf_stats_job_fn job, const struct gguf_stats_opts *opts,
    gguf_stats_done_fn done, void *arg)
{
	static const struct gguf_stats_opts	 defaults;
	struct gguf_stats_job			*j;
	struct gguf_err				 e;
	struct many				 m;
	unsigned				 threads;
	uint64_t				 k, k1, el, share, segel;
	int					 rc = 0;

	if (opts == NULL)
		opts = &defaults;
	threads = opts->threads != 0 ? opts->threads : gguf_ncpu();
	memset(&m, 0, sizeof m);
	m.f = f;
	m.job = job;
	m.arg = arg;
	m.opts = opts;
	m.w = gguf_stats_in_flight(threads) - 1;
	m.slot = xcalloc(m.w + 1, sizeof *m.slot);
	m.data = xcalloc(m.w, sizeof *m.data);
	m.ended = xcalloc(m.w, 1);
	j = &m.slot[m.w];	/* the one a look at the next job uses */
	pthread_mutex_init(&m.lock, NULL);
	pthread_cond_init(&m.cond, NULL);
	for (k = 0; k < n; k++) {
		load(&m, k, j);
		el = j->rc == 0 ? job_elements(j) : 0;
		m.total = el > UINT64_MAX - m.total ? UINT64_MAX :
		    m.total + el;
	}
	/* a thread each: a tensor of at most half a thread's share */
	share = m.total / threads / 2;
	for (k = 0; k < n && rc == 0; k = k1) {
		load(&m, k, j);
		if (seg_data(&m, j, share, threads) == NULL) {
			if (j->rc == 0)
				run_job(&m, j, NULL, threads);
			k1 = k + 1;
			rc = hand(&m, j, 0, k, done);
			continue;
		}
		segel = job_elements(j);
		for (k1 = k + 1; k1 < n; k1++) {
			load(&m, k1, j);
			if (seg_data(&m, j, share, threads) == NULL)
				break;
			segel += job_elements(j);
		}
		/* the file as opened before any of the segment is read */
		memset(&e, 0, sizeof e);
		if (gguf_file_changed(f, 0, &e)) {
			for (; k < k1 && rc == 0; k++) {
				load(&m, k, j);
				j->rc = -1;
				j->err = e;
				rc = hand(&m, j, 0, k, done);
			}
			continue;
		}
		rc = segment(&m, k, k1, segel, share, threads, done);
	}
	if (rc == 0 && m.cancelled)
		rc = GGUF_STATS_CANCELLED;
	pthread_cond_destroy(&m.cond);
	pthread_mutex_destroy(&m.lock);
	free(m.ended);
	free(m.data);
	free(m.slot);
	return rc;
}
