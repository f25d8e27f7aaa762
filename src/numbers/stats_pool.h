/*
 * stats_pool.h - the pool of threads that statistics and row summaries
 * run on (stats_pool.c), and what a work function sees of it.
 */
#ifndef GGUF_STATS_POOL_H
#define GGUF_STATS_POOL_H

#include <pthread.h>
#include <stdint.h>

#include "gguf.h"
#include "stats.h"

/* elements per item; a multiple of every block */
#define CHUNK		65536
#define MAX_THREADS	256
#define STAGE		(CHUNK * 8)	/* bytes of CHUNK elements at most */
#define VALUES		65536	/* values of a 16-bit type */
#define VT_SLICES	64	/* merged apart: VALUES / VT_SLICES each */

struct worker;
struct crew;

/*
 * What every thread writes goes on a cache line of its own, apart from what
 * every thread only reads (a write to a shared line takes it from every
 * other core's cache): the item counter, the progress count, and each
 * worker.
 */
#define LINE		64

struct pool {
	uint64_t			 nitems;
	int				 (*work)(struct pool *, uint64_t,
					     struct worker *, uint64_t *,
					     struct gguf_err *);
	void				*ctx;
	const struct gguf_stats_opts	*opts;
	const uint8_t			*data;	/* the range items read */
	uint64_t			 nbytes;
	int				 staged;	/* items read into
							   their worker's
							   stage, not from
							   data: no guard */
	uint64_t			 total;
	uint64_t			 step;		/* progress: units
							   between reports */

	uint64_t			*vtab;	/* VALUES counts, or NULL */
	void				 (*slice)(struct pool *, unsigned);
						/* with vtab, or NULL: called
						   on slice s of vtab once
						   its counts are whole, by
						   the thread that merged it
						   (VT_SLICES of them) */
	int				 decode;	/* with vtab: the
							   decode buffers too */
	unsigned			 sk_pages;	/* 0: no sketch */
	uint64_t			**sktot;	/* the run's sketch */
	struct crew			*crew;		/* the threads to run
							   on, or NULL: threads
							   of the run's own */

	uint64_t			 next		/* atomic */
	    __attribute__((aligned(LINE)));
	int				 stop;		/* atomic */
	uint64_t			 done		/* atomic */
	    __attribute__((aligned(LINE)));

	pthread_mutex_t			 lock		/* the rest */
	    __attribute__((aligned(LINE)));
	int				 cancelled;
	int				 failed;
	struct gguf_err			 err;
};

/*
 * The buffers and tables of a thread, kept from run to run (kit_take):
 * all but the sketch's in one block of huge pages (hugemem.h).
 */
struct kit {
	void		*block;
	float		*fbuf;		/* CHUNK floats */
	double		*dbuf;		/* CHUNK doubles (wide types) */
	uint32_t	*sk[2];		/* sketch counts by key, [0] of floats,
					   [1] of doubles; all zero */
	int		 skmap[2];	/* sk[i] is a mapping */
	uint32_t	*vt;		/* VALUES counts, all zero */
	uint8_t		*stage;		/* STAGE bytes */
};

struct worker {
	struct pool	*p;
	pthread_t	 tid;
	struct kit	*kit;
	float		*fbuf;		/* CHUNK floats */
	double		*dbuf;		/* CHUNK doubles (wide types) */
	uint8_t		*stage;		/* with p->staged: an item's bytes */
	uint32_t	*sk;		/* sketch counts by key, or NULL */
	uint32_t	 kr[2][2];	/* keys sk may hold: [0] negative
					   values', [1] positive ones' (from,
					   to; from > to: none) */
	uint64_t	 skn;		/* elements counted into sk */
	uint32_t	*vt;		/* 16-bit types: count of each value */
	uint64_t	 vtn;		/* elements counted into vt */
} __attribute__((aligned(LINE)));

#define SK_MANT		11	/* mantissa bits of a sketch bucket */
#define SK_BUCKETS	(1u << SK_MANT)	/* per page: a sign and exponent */
#define SK_PAGES_F	512	/* pages of float keys (20 bits) */
#define SK_PAGES_D	4096	/* of double keys (23 bits) */

/*
 * A block of huge pages for a run's tables: VALUES 64-bit counts, all
 * zero, then room for VALUES floats; kept from run to run, as kits are.
 */
#define TABLE_BYTES	(VALUES * (sizeof(uint64_t) + sizeof(float)))
void	*gguf_stats_table_take(void);
void	 gguf_stats_table_give(void *);

/*
 * Runs every item of p on up to `threads` threads (the caller's included)
 * with a decode buffer each, and a sketch each if p has one (merged into
 * p->sktot). 0, GGUF_STATS_CANCELLED, or -1 with err set.
 */
int	gguf_stats_pool_run(struct pool *, unsigned, struct gguf_err *);

/*
 * Threads kept for the runs of one computation (a tensor's passes): up
 * to `threads` (0: a thread per core, and never more than nitems), the
 * caller's included, started once, not once per run and again for each
 * run's merge. A run on a crew (pool.crew) uses at most its threads;
 * gguf_stats_crew_end stops them. A crew runs one run at a time.
 */
struct crew	*gguf_stats_crew_start(unsigned, uint64_t);
void		 gguf_stats_crew_end(struct crew *);

#endif
