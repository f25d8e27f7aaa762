/*
 * stats_pool.c - the pool of threads of stats.c: items taken from a
 * shared counter, progress, cancellation, and each thread's buffers and
 * tables, merged into the run's at its end.
 */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "gguf.h"
#include "hugemem.h"
#include "internal.h"
#include "io.h"
#include "stats.h"
#include "stats_pool.h"

unsigned
gguf_ncpu(void)
{
	long	n = sysconf(_SC_NPROCESSORS_ONLN);

	if (n < 1)
		return 1;
	if (n > MAX_THREADS)
		return MAX_THREADS;
	return (unsigned)n;
}

/* A decode buffer, aligned to a cache line (whole vector stores). */
static void *
chunk_alloc(size_t n)
{
	void	*p;

	if (posix_memalign(&p, 64, n) != 0) {
		p = xmalloc(n);	/* aborts if memory is gone */
	}
	return p;
}

struct item {
	struct pool	*p;
	uint64_t	 i;
	struct worker	*w;
	uint64_t	*units;
	struct gguf_err	*err;
};

static int
item_cb(void *arg)
{
	struct item	*it = arg;

	return it->p->work(it->p, it->i, it->w, it->units, it->err);
}

/* Runs item i with its reads of the data guarded. */
static int
run_item(struct pool *p, uint64_t i, struct worker *w, uint64_t *units,
    struct gguf_err *err)
{
	struct item	it;
	int		rc;

	it.p = p;
	it.i = i;
	it.w = w;
	it.units = units;
	it.err = err;
	if (p->staged)		/* read, not mapped: nothing to guard */
		return item_cb(&it);
	gguf_io_map_read();
	rc = gguf_guard_run(p->data, p->nbytes, item_cb, &it);
	if (rc == GGUF_GUARD_FAULT)
		return gguf_errf(err, -1, "changed on disk: its data could "
		    "not be read");
	return rc;
}

static void	vt_flush(struct pool *, struct worker *);
static void	sk_flush(struct pool *, struct worker *);

/*
 * Counts an item's units done, and reports them when the count crosses a
 * multiple of p->step or reaches the total: a few hundred reports a run
 * whatever its size, not a lock taken by every thread after every item.
 * Reports are made under the lock, so calls never overlap, and read the
 * count there, so it only grows. 1 if the callback cancels the run.
 */
static int
progress(struct pool *p, uint64_t units)
{
	uint64_t	was, now;
	int		stop = 0;

	was = __atomic_fetch_add(&p->done, units, __ATOMIC_RELAXED);
	now = was + units;
	if (p->opts->progress == NULL ||
	    (was / p->step == now / p->step && now != p->total))
		return 0;
	pthread_mutex_lock(&p->lock);
	if (p->opts->progress(p->opts->arg, __atomic_load_n(&p->done,
	    __ATOMIC_RELAXED), p->total) != 0) {
		p->cancelled = 1;
		stop = 1;
	}
	pthread_mutex_unlock(&p->lock);
	return stop;
}

static void *
worker_main(void *arg)
{
	struct worker	*w = arg;
	struct pool	*p = w->p;
	struct gguf_err	 err;
	uint64_t	 i, units;
	int		 stop;

	for (;;) {
		if (__atomic_load_n(&p->stop, __ATOMIC_ACQUIRE))
			break;
		if (p->opts->cancel != NULL &&
		    __atomic_load_n(p->opts->cancel, __ATOMIC_ACQUIRE)) {
			pthread_mutex_lock(&p->lock);
			p->cancelled = 1;
			pthread_mutex_unlock(&p->lock);
			__atomic_store_n(&p->stop, 1, __ATOMIC_RELEASE);
			break;
		}
		i = __atomic_fetch_add(&p->next, 1, __ATOMIC_RELAXED);
		if (i >= p->nitems)
			break;
		units = 0;
		memset(&err, 0, sizeof err);
		if (w->vt != NULL && w->vtn > UINT32_MAX - CHUNK)
			vt_flush(p, w);		/* no count can overflow */
		if (w->sk != NULL && w->skn > UINT32_MAX - CHUNK)
			sk_flush(p, w);
		stop = run_item(p, i, w, &units, &err) != 0;
		if (stop) {
			pthread_mutex_lock(&p->lock);
			if (!p->failed) {
				p->failed = 1;
				p->err = err;
			}
			pthread_mutex_unlock(&p->lock);
		} else
			stop = progress(p, units);
		if (stop) {
			__atomic_store_n(&p->stop, 1, __ATOMIC_RELEASE);
			break;
		}
	}
	return NULL;
}

/* Adds a worker's value counts into the run's and clears them. */
static void
vt_flush(struct pool *p, struct worker *w)
{
	uint32_t	k;

	pthread_mutex_lock(&p->lock);
	for (k = 0; k < VALUES; k++)
		p->vtab[k] += w->vt[k];
	pthread_mutex_unlock(&p->lock);
	memset(w->vt, 0, VALUES * sizeof *w->vt);
	w->vtn = 0;
}

/*
 * Adds a worker's sketch counts into the run's and clears them (writing
 * only the counts that are not zero, so that untouched memory stays
 * untouched).
 */
static void
sk_flush(struct pool *p, struct worker *w)
{
	uint64_t	*t;
	uint32_t	 k;
	int		 r;

	pthread_mutex_lock(&p->lock);
	for (r = 0; r < 2; r++) {
		for (k = w->kr[r][0]; k <= w->kr[r][1]; k++) {
			if (w->sk[k] == 0)
				continue;
			if ((t = p->sktot[k >> SK_MANT]) == NULL)
				t = p->sktot[k >> SK_MANT] = xcalloc(SK_BUCKETS,
				    sizeof *t);
			t[k & (SK_BUCKETS - 1)] += w->sk[k];
			w->sk[k] = 0;
		}
		w->kr[r][0] = UINT32_MAX;
		w->kr[r][1] = 0;
	}
	pthread_mutex_unlock(&p->lock);
	w->skn = 0;
}

/*
 * A worker's table of counts: a private anonymous mapping where there is
 * one, whose pages the system zeroes when first touched (an allocation
 * of this size would be cleared in full, a few hundred microseconds per
 * run, where a tensor of weights touches a few hundred KB).
 */
static uint32_t *
sk_table(size_t n, int *mapped)
{
#if defined(MAP_ANONYMOUS)
	void	*m;

	m = mmap(NULL, n * sizeof(uint32_t), PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m != MAP_FAILED) {
		*mapped = 1;
		return m;
	}
#endif
	*mapped = 0;
	return xcalloc(n, sizeof(uint32_t));
}

/*
 * Kits are kept from run to run, up to one per thread a run has used: a
 * thread's first touch of a page of its table (or of its buffers) is a
 * fault, and faults, like the mapping and unmapping of tables, take the
 * process's lock on its address space, so that threads faulting at once
 * wait for each other, and `stats --all`, a run per tensor, paid them
 * again for every tensor. A kit given back is as it was taken: its tables
 * all zero (sk_flush and vt_flush clear what they add).
 */
#define KIT_BYTES	(VALUES * sizeof(uint32_t) + CHUNK * (sizeof(float) + \
			    sizeof(double)) + STAGE)

static pthread_mutex_t	 kits_lock = PTHREAD_MUTEX_INITIALIZER;
static struct kit	*kits[MAX_THREADS];
static unsigned		 nkits;

static struct kit *
kit_take(void)
{
	struct kit	*k = NULL;

	pthread_mutex_lock(&kits_lock);
	if (nkits > 0)
		k = kits[--nkits];
	pthread_mutex_unlock(&kits_lock);
	if (k == NULL)
		k = xcalloc(1, sizeof *k);
	return k;
}

static void
kit_free(struct kit *k)
{
	int	d;

	for (d = 0; d < 2; d++) {
		if (k->sk[d] == NULL)
			continue;
#if defined(MAP_ANONYMOUS)
		if (k->skmap[d]) {
			munmap(k->sk[d], (size_t)(d ? SK_PAGES_D : SK_PAGES_F) *
			    SK_BUCKETS * sizeof(uint32_t));
			continue;
		}
#endif
		free(k->sk[d]);
	}
	gguf_huge_free(k->block, KIT_BYTES);
	free(k);
}

/* Keeps k for the next run, unless runs at once have taken more. */
static void
kit_give(struct kit *k)
{
	pthread_mutex_lock(&kits_lock);
	if (nkits < MAX_THREADS) {
		kits[nkits++] = k;
		k = NULL;
	}
	pthread_mutex_unlock(&kits_lock);
	if (k != NULL)
		kit_free(k);
}

static void		*tables[MAX_THREADS];	/* under kits_lock */
static unsigned		 ntables;

void *
gguf_stats_table_take(void)
{
	void	*t = NULL;

	pthread_mutex_lock(&kits_lock);
	if (ntables > 0)
		t = tables[--ntables];
	pthread_mutex_unlock(&kits_lock);
	if (t == NULL)
		return gguf_huge_alloc(TABLE_BYTES);
	memset(t, 0, VALUES * sizeof(uint64_t));
	return t;
}

void
gguf_stats_table_give(void *t)
{
	pthread_mutex_lock(&kits_lock);
	if (ntables < MAX_THREADS) {
		tables[ntables++] = t;
		t = NULL;
	}
	pthread_mutex_unlock(&kits_lock);
	gguf_huge_free(t, TABLE_BYTES);
}

/*
 * Sets w up from its kit for a run of p, making what the kit lacks: its
 * block the first time (each part at a multiple of 256 KB, so aligned
 * for whole vector stores).
 */
static void
kit_fit(struct pool *p, struct worker *w)
{
	struct kit	*k = w->kit;
	uint8_t		*b;
	int		 d = p->sk_pages == SK_PAGES_D;

	if (k->block == NULL) {
		b = k->block = gguf_huge_alloc(KIT_BYTES);
		k->vt = (uint32_t *)(void *)b;
		b += VALUES * sizeof *k->vt;
		k->fbuf = (float *)(void *)b;
		b += CHUNK * sizeof *k->fbuf;
		k->dbuf = (double *)(void *)b;
		b += CHUNK * sizeof *k->dbuf;
		k->stage = b;
	}
	if (p->staged)
		w->stage = k->stage;
	if (p->vtab != NULL) {
		w->vt = k->vt;
		if (!p->decode)		/* the 16-bit types' pass */
			return;
	}
	w->fbuf = k->fbuf;
	w->dbuf = k->dbuf;
	w->kr[0][0] = w->kr[1][0] = UINT32_MAX;
	if (p->sk_pages == 0)
		return;
	if (k->sk[d] == NULL)
		k->sk[d] = sk_table((size_t)p->sk_pages * SK_BUCKETS,
		    &k->skmap[d]);
	w->sk = k->sk[d];
}

/*
 * The end of a run: every worker's counts added into the run's, and
 * cleared. Done one worker after another under the lock, it was the part
 * of a run that does not shrink with more threads but grows (a table per
 * thread), as long as reading a tensor of 16 MiB on 16 cores. So the
 * counts are cut into slices, a page of the sketch or 1/VT_SLICES of the
 * values, that the run's threads take in turn once every item is done: a
 * slice of the run's counts is written by one thread only, and needs no
 * lock. Counts are integers, so the order of the additions changes
 * nothing.
 */
struct merge {
	struct pool	*p;
	struct worker	*w;
	unsigned	 n;		/* workers */
	unsigned	 nslices;
	unsigned	 next;		/* atomic */
};

static void
merge_values(struct merge *m, unsigned s)
{
	uint32_t	lo = s * (VALUES / VT_SLICES), k;
	unsigned	j;

	for (j = 0; j < m->n; j++) {
		for (k = lo; k < lo + VALUES / VT_SLICES; k++)
			m->p->vtab[k] += m->w[j].vt[k];
		memset(m->w[j].vt + lo, 0, VALUES / VT_SLICES *
		    sizeof *m->w[j].vt);
	}
	if (m->p->slice != NULL)
		m->p->slice(m->p, s);
}

static void
merge_page(struct merge *m, unsigned s)
{
	uint64_t	**slot = &m->p->sktot[s];
	struct worker	*w;
	uint32_t	  lo = s << SK_MANT, hi = lo + SK_BUCKETS - 1, a, z, k;
	unsigned	  j;
	int		  r;

	for (j = 0; j < m->n; j++) {
		w = &m->w[j];
		for (r = 0; r < 2; r++) {
			a = w->kr[r][0] > lo ? w->kr[r][0] : lo;
			z = w->kr[r][1] < hi ? w->kr[r][1] : hi;
			for (k = a; k <= z && a <= z; k++) {
				if (w->sk[k] == 0)
					continue;
				if (*slot == NULL)
					*slot = xcalloc(SK_BUCKETS,
					    sizeof **slot);
				(*slot)[k - lo] += w->sk[k];
				w->sk[k] = 0;
			}
		}
	}
}

static void
merge_main(struct merge *m)
{
	unsigned	s;

	while ((s = __atomic_fetch_add(&m->next, 1, __ATOMIC_RELAXED)) <
	    m->nslices) {
		if (m->p->vtab != NULL)
			merge_values(m, s);
		else
			merge_page(m, s);
	}
}

/*
 * A crew: the caller (thread 0) and helpers 1 .. helpers, which wait
 * between runs. A run's threads (0 .. m - 1) take its items, meet when
 * every item is done, merge, and the caller returns when every helper
 * has left the run.
 */
struct helper {
	struct crew	*c;
	unsigned	 i;
};

struct crew {
	pthread_mutex_t	 lock;
	pthread_cond_t	 go;		/* a run begins, or the crew ends */
	pthread_cond_t	 met;		/* the run's items are all done */
	pthread_cond_t	 idle;		/* its helpers have all left it */
	unsigned	 n;		/* threads wanted, the caller's too */
	unsigned	 helpers;	/* started */
	unsigned	 gen;		/* runs begun */
	int		 quit;
	struct worker	*w;		/* the run: its workers, */
	unsigned	 m;		/* its threads, */
	unsigned	 left;		/* those still at its items, */
	unsigned	 busy;		/* its helpers not yet done */
	struct merge	 merge;
	struct helper	 h[MAX_THREADS];
	pthread_t	 tid[MAX_THREADS];
};

/* Thread i's share of the crew's run: items, then slices of the merge. */
static void
crew_share(struct crew *c, unsigned i)
{
	worker_main(&c->w[i]);
	pthread_mutex_lock(&c->lock);
	if (--c->left == 0)
		pthread_cond_broadcast(&c->met);
	while (c->left != 0)
		pthread_cond_wait(&c->met, &c->lock);
	pthread_mutex_unlock(&c->lock);
	merge_main(&c->merge);
}

static void *
helper_main(void *arg)
{
	struct helper	*h = arg;
	struct crew	*c = h->c;
	unsigned	 seen = 0;

	pthread_mutex_lock(&c->lock);
	for (;;) {
		while (c->gen == seen && !c->quit)
			pthread_cond_wait(&c->go, &c->lock);
		if (c->quit)
			break;
		seen = c->gen;
		if (h->i >= c->m)
			continue;
		pthread_mutex_unlock(&c->lock);
		crew_share(c, h->i);
		pthread_mutex_lock(&c->lock);
		if (--c->busy == 0)
			pthread_cond_signal(&c->idle);
	}
	pthread_mutex_unlock(&c->lock);
	return NULL;
}

struct crew *
gguf_stats_crew_start(unsigned threads, uint64_t nitems)
{
	struct crew	*c = xcalloc(1, sizeof *c);
	unsigned	 i;

	c->n = threads != 0 ? threads : gguf_ncpu();
	if (c->n > MAX_THREADS)
		c->n = MAX_THREADS;
	if (nitems > 0 && (uint64_t)c->n > nitems)
		c->n = (unsigned)nitems;
	pthread_mutex_init(&c->lock, NULL);
	pthread_cond_init(&c->go, NULL);
	pthread_cond_init(&c->met, NULL);
	pthread_cond_init(&c->idle, NULL);
	/* a thread that cannot start leaves its share to the others */
	for (i = 1; i < c->n; i++) {
		c->h[i].c = c;
		c->h[i].i = i;
		if (pthread_create(&c->tid[i], NULL, helper_main,
		    &c->h[i]) != 0)
			break;
		c->helpers++;
	}
	return c;
}

void
gguf_stats_crew_end(struct crew *c)
{
	unsigned	i;

	if (c == NULL)
		return;
	pthread_mutex_lock(&c->lock);
	c->quit = 1;
	pthread_cond_broadcast(&c->go);
	pthread_mutex_unlock(&c->lock);
	for (i = 1; i <= c->helpers; i++)
		pthread_join(c->tid[i], NULL);
	pthread_cond_destroy(&c->go);
	pthread_cond_destroy(&c->met);
	pthread_cond_destroy(&c->idle);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

int
gguf_stats_pool_run(struct pool *p, unsigned threads, struct gguf_err *err)
{
	struct crew	*c = p->crew, *own = NULL;
	struct worker	*w;
	unsigned	 n, i;

	if (p->nitems == 0)
		return 0;
	if (c == NULL)
		c = own = gguf_stats_crew_start(threads, p->nitems);
	n = c->helpers + 1;
	if ((uint64_t)n > p->nitems)
		n = (unsigned)p->nitems;
	p->next = 0;
	p->stop = 0;
	p->done = 0;
	p->step = p->total / 256 > 0 ? p->total / 256 : 1;
	w = chunk_alloc(n * sizeof *w);
	memset(w, 0, n * sizeof *w);
	for (i = 0; i < n; i++) {
		w[i].p = p;
		w[i].kit = kit_take();
		kit_fit(p, &w[i]);
	}
	memset(&c->merge, 0, sizeof c->merge);
	c->merge.p = p;
	c->merge.w = w;
	c->merge.n = n;
	c->merge.nslices = p->vtab != NULL ? VT_SLICES : p->sk_pages;
	pthread_mutex_lock(&c->lock);
	c->w = w;
	c->m = n;
	c->left = n;
	c->busy = n - 1;
	c->gen++;
	pthread_cond_broadcast(&c->go);
	pthread_mutex_unlock(&c->lock);
	crew_share(c, 0);
	pthread_mutex_lock(&c->lock);
	while (c->busy != 0)
		pthread_cond_wait(&c->idle, &c->lock);
	pthread_mutex_unlock(&c->lock);
	gguf_stats_crew_end(own);
	for (i = 0; i < n; i++)
		kit_give(w[i].kit);
	free(w);
	if (p->failed) {
		if (err != NULL)
			*err = p->err;
		return -1;
	}
	if (p->cancelled) {
		gguf_errf(err, -1, "cancelled");
		return GGUF_STATS_CANCELLED;
	}
	return 0;
}
