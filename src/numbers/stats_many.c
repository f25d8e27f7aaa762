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
	struct gguf_stats_job		*jobs;
	const uint8_t			**data;	/* by job: its rows, when it
						   runs in a segment */
	const struct gguf_stats_opts	*opts;
	uint64_t			 total;	/* elements of every job */

	uint64_t			 end;	/* the segment's jobs end */
	uint64_t			 next;	/* atomic: the next to run */
	int				 stop;	/* atomic: runs stop */
	int				 cancelled;	/* atomic: by opts */
	uint64_t			 done;	/* atomic: elements */

	pthread_mutex_t			 lock;	/* ended, progress calls */
	pthread_cond_t			 cond;
	unsigned char			*ended;
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

/* Runs job k on the given threads: in place if in a segment. */
static void
run_job(struct many *m, uint64_t k, unsigned threads)
{
	struct gguf_stats_job	*j = &m->jobs[k];
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
	if (m->data[k] == NULL)
		j->rc = gguf_stats_tensor(m->f, j->t, j->row0, j->nrows, &o,
		    &j->st, &j->err);
	else
		j->rc = gguf_stats_data(j->t->type, gguf_layout(m->f)->be,
		    m->data[k], j->t->nbytes, j->row0 * j->t->ne[0],
		    j->nrows * j->t->ne[0], &o, &j->st, &j->err);
}

static void *
worker_main(void *arg)
{
	struct many	*m = arg;
	uint64_t	 k;

	while ((k = __atomic_fetch_add(&m->next, 1, __ATOMIC_RELAXED)) <
	    m->end) {
		run_job(m, k, 1);
		pthread_mutex_lock(&m->lock);
		m->ended[k] = 1;
		pthread_cond_broadcast(&m->cond);
		pthread_mutex_unlock(&m->lock);
	}
	return NULL;
}

/*
 * Job k handed to done, after the check that the file is as it was: if
 * not, the job fails with the reason (what it read may mix old and new
 * bytes). GGUF_STATS_STOPPED if done stops the run.
 */
static int
hand(struct many *m, uint64_t k, gguf_stats_done_fn done, void *arg)
{
	struct gguf_stats_job	*j = &m->jobs[k];
	struct gguf_err		 e;
	int			 stop;

	memset(&e, 0, sizeof e);
	if (m->data[k] != NULL && j->rc != GGUF_STATS_CANCELLED &&
	    gguf_file_changed(m->f, 0, &e)) {
		j->rc = -1;
		j->err = e;
	}
	/* never while a worker reports progress: both may print */
	pthread_mutex_lock(&m->lock);
	stop = done(arg, j, k) != 0;
	pthread_mutex_unlock(&m->lock);
	if (stop) {
		__atomic_store_n(&m->stop, 1, __ATOMIC_RELAXED);
		return GGUF_STATS_STOPPED;
	}
	return 0;
}

/*
 * Jobs k0 .. k1 side by side, taken in order (so results come out as soon
 * as a thread's worth of them has ended, and a change of the file is seen
 * within about one tensor), on no more threads than the segment has
 * chunks; each handed over in order.
 */
static int
segment(struct many *m, uint64_t k0, uint64_t k1, unsigned threads,
    gguf_stats_done_fn done, void *arg)
{
	pthread_t	*tid;
	uint64_t	 k, i, el = 0;
	unsigned	 n, started = 0;
	int		 rc = 0;

	m->end = k1;
	m->next = k0;
	for (k = k0; k < k1; k++)
		el += job_elements(&m->jobs[k]);
	n = k1 - k0 < threads ? (unsigned)(k1 - k0) : threads;
	if (el / CHUNK + 1 < n)
		n = (unsigned)(el / CHUNK + 1);
	tid = xcalloc(n, sizeof *tid);
	for (i = 0; i < n; i++) {
		if (pthread_create(&tid[started], NULL, worker_main, m) != 0)
			break;
		started++;
	}
	if (started == 0)	/* no thread could start: this one works */
		worker_main(m);
	for (k = k0; k < k1; k++) {
		pthread_mutex_lock(&m->lock);
		while (!m->ended[k])
			pthread_cond_wait(&m->cond, &m->lock);
		pthread_mutex_unlock(&m->lock);
		if ((rc = hand(m, k, done, arg)) != 0)
			break;
	}
	for (i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	free(tid);
	return rc;
}

int
gguf_stats_tensors(const struct gguf_file *f, struct gguf_stats_job *jobs,
    uint64_t n, const struct gguf_stats_opts *opts, gguf_stats_done_fn done,
    void *arg)
{
	static const struct gguf_stats_opts	 defaults;
	struct gguf_err				 e;
	struct many				 m;
	unsigned				 threads;
	uint64_t				 k, k1, el, share;
	int					 rc = 0;

	if (opts == NULL)
		opts = &defaults;
	threads = opts->threads != 0 ? opts->threads : gguf_ncpu();
	memset(&m, 0, sizeof m);
	m.f = f;
	m.jobs = jobs;
	m.opts = opts;
	m.data = xcalloc(n > 0 ? n : 1, sizeof *m.data);
	m.ended = xcalloc(n > 0 ? n : 1, 1);
	pthread_mutex_init(&m.lock, NULL);
	pthread_cond_init(&m.cond, NULL);
	for (k = 0; k < n; k++) {
		el = jobs[k].rc == 0 ? job_elements(&jobs[k]) : 0;
		m.total = el > UINT64_MAX - m.total ? UINT64_MAX :
		    m.total + el;
	}
	/* a thread each: a tensor of at most half a thread's share */
	share = m.total / threads / 2;
	for (k = 0; threads > 1 && k < n; k++) {
		el = job_elements(&jobs[k]);
		memset(&e, 0, sizeof e);
		if (jobs[k].rc != 0 || jobs[k].nrows == 0 || el > share ||
		    gguf_tensor_by_range(f, jobs[k].t))
			continue;
		m.data[k] = gguf_tensor_window(f, jobs[k].t, jobs[k].row0,
		    jobs[k].nrows, 0, jobs[k].t->ne[0], &e);
	}
	for (k = 0; k < n && rc == 0; k = k1) {
		if (m.data[k] == NULL) {
			if (jobs[k].rc == 0)
				run_job(&m, k, threads);
			k1 = k + 1;
			rc = hand(&m, k, done, arg);
			continue;
		}
		/* the file as opened before any of the segment is read */
		for (k1 = k; k1 < n && m.data[k1] != NULL; k1++)
			;
		memset(&e, 0, sizeof e);
		if (gguf_file_changed(f, 0, &e)) {
			for (; k < k1 && rc == 0; k++) {
				jobs[k].rc = -1;
				jobs[k].err = e;
				m.data[k] = NULL;
				rc = hand(&m, k, done, arg);
			}
			continue;
		}
		rc = segment(&m, k, k1, threads, done, arg);
	}
	if (rc == 0 && m.cancelled)
		rc = GGUF_STATS_CANCELLED;
	pthread_cond_destroy(&m.cond);
	pthread_mutex_destroy(&m.lock);
	free(m.ended);
	free(m.data);
	return rc;
}
