/*
 * stats.h - whole-tensor statistics, per-row summaries.
 *
 * Statistics decode a tensor (or a row range of it) in chunks, on several
 * threads, and never hold more than one chunk per thread: a 10 GB tensor
 * costs a few megabytes. The data is read once, then again to make the
 * percentiles exact (refine in stats.c; not for F16 and BF16). Each chunk
 * gives its counts, extremes and moments, and counts its finite values into a sketch
 * of 2048 buckets per octave (a bucket per value of a value's float32
 * bits cut to 11 mantissa bits; double bits for the wide types, F64, I32,
 * I64, whose buckets are as fine); the histogram and the percentiles are
 * then read from the sketch, a pass over its buckets only. The sketch
 * lives in pages of 8 KB per thread, allocated where values fall (at most
 * 4 MB, 32 MB for wide types, whatever the size of the tensor). F16 and
 * BF16 are not decoded: their pass counts how often each of their 65536
 * values occurs (a table per thread), every statistic follows from the
 * counts, and each value has a bucket of its own. Results do not depend on
 * the number of threads: chunks are merged in order, counts are integers;
 * nor on the CPU's vector instructions (the same operations in the same
 * order; GGUFED_STATS=ref keeps the portable code). Q8_0 and Q4_0 are
 * read from their codes, not decoded into a buffer first: the same counts,
 * extremes and mean, a standard deviation rounded fewer times
 * (GGUFED_STATS=decode decodes them, to compare).
 *
 * Long computations report progress through a callback and can be
 * cancelled, by the callback or through a flag another thread sets, so an
 * interface can run them in the background.
 */
#ifndef GGUF_STATS_H
#define GGUF_STATS_H

#include <stdint.h>

#include "gguf.h"

#define GGUF_STATS_BINS		64
#define GGUF_STATS_NPCT		5
#define GGUF_STATS_CANCELLED	1	/* return value of a cancelled run */
#define GGUF_STATS_STOPPED	2	/* of a run its callback stopped */

struct gguf_stats {
	uint64_t	count;		/* elements looked at */
	uint64_t	nfinite;	/* of which finite */
	uint64_t	nzero;		/* +0 and -0 */
	uint64_t	nnan;
	uint64_t	npinf;		/* +Inf */
	uint64_t	nninf;		/* -Inf */
	double		min;		/* of the finite values; NaN if none */
	double		max;
	double		mean;		/* of the finite values; NaN if none */
	double		std;		/* population standard deviation, same */
	/*
	 * Histogram of the finite values, exact for the edges it states. The
	 * interior edges edge[1 .. GGUF_STATS_BINS - 1] are sketch bucket
	 * boundaries (numbers with 12 significant bits), each the boundary
	 * nearest to its equal division min + b / GGUF_STATS_BINS * (max -
	 * min), nondecreasing, and in [min, max]: bins are equally wide to
	 * within a bucket, 2^-11 of the magnitude there (2^-137 among float
	 * subnormals), about 1.6% of a bin when min and max are of opposite
	 * signs; narrow ranges far from zero (max - min below 2^-5 of |max|)
	 * get unequal bins, some empty. edge[0] is min and
	 * edge[GGUF_STATS_BINS] max. A finite x is counted in bin b when
	 *	edge[b] <= x < edge[b + 1]	if x is positive or +0,
	 *	edge[b] < x <= edge[b + 1]	if x is negative or -0,
	 * taking edge[0] as -Inf and edge[GGUF_STATS_BINS] as +Inf. When
	 * every finite value lies in one bucket (min == max, for one), they
	 * are all in bin 0 and the interior edges are that bucket's upper
	 * boundary, which may exceed max by less than a bucket. NaN edges
	 * with no finite value or no histogram.
	 */
	uint64_t	hist[GGUF_STATS_BINS];
	double		edge[GGUF_STATS_BINS + 1];
	/*
	 * Percentiles of the finite values, at gguf_stats_pct[i] percent:
	 * the nearest-rank percentile, the value x of rank
	 * ceil(p / 100 * nfinite) in sorted order, exactly. The sketch
	 * tells which bucket holds x; unless that bucket is settled (the
	 * 16-bit types, whose buckets hold one value each; a bucket of
	 * zeros alone) the data is read again, counting the bucket's values
	 * by their next 12 bits (refine in stats.c): once for floats, four
	 * times for the wide types. NaN with no finite value or no
	 * histogram.
	 */
	double		pct[GGUF_STATS_NPCT];
};

/* 1, 5, 50, 95, 99: the percentiles statistics give. */
extern const double	gguf_stats_pct[GGUF_STATS_NPCT];

/*
 * Progress: done out of total units of work (elements read). Called from worker threads, one call at a time. A nonzero
 * return cancels the run.
 */
typedef int	(*gguf_progress_fn)(void *arg, uint64_t done, uint64_t total);

struct gguf_stats_opts {
	unsigned		 threads;	/* 0: the number of online CPUs */
	gguf_progress_fn	 progress;	/* or NULL */
	void			*arg;		/* for progress */
	/*
	 * Or NULL. Another thread cancels the run by storing a nonzero value
	 * (with __atomic_store_n, or any store the platform makes visible);
	 * it is read between chunks.
	 */
	int			*cancel;
	unsigned		 flags;		/* GGUF_STATS_* below */
};

/* Counts and moments only: no sketch, no histogram, no percentiles. */
#define GGUF_STATS_NO_HIST	0x01

/* The number of online CPUs, at least 1. */
unsigned	gguf_ncpu(void);

/* The instructions statistics' kernels use here: "avx2" or "portable". */
const char	*gguf_stats_isa(void);

/*
 * For benchmarks: computes the sketch keys of n finite floats once, then
 * counts them into a scratch sketch repeat times and does nothing else:
 * the scattered increments statistics cannot do without, the floor of
 * their cost per element. Returns the number counted.
 */
uint64_t	gguf_stats_sketch_only(const float *x, uint64_t n,
		    unsigned repeat);

/*
 * Statistics of elements [first, first + n) of tensor data of the given
 * type (nbytes bytes at data). opts may be NULL (all defaults). Returns 0,
 * GGUF_STATS_CANCELLED if cancelled (st is then incomplete), or -1 with a
 * message if the type cannot be decoded or the range is outside the data.
 */
int	gguf_stats_data(uint32_t type, int be, const uint8_t *data,
	    uint64_t nbytes, uint64_t first, uint64_t n,
	    const struct gguf_stats_opts *opts, struct gguf_stats *st,
	    struct gguf_err *err);

/*
 * The same for rows [row0, row0 + nrows) of tensor t of file f, whose
 * window data (gguf_tensor_window, in place) has been checked: read
 * where it lies, or through the file's descriptor where it has one.
 */
int	gguf_stats_window(const struct gguf_file *f,
	    const struct gguf_tensor *t, const uint8_t *data, uint64_t row0,
	    uint64_t nrows, const struct gguf_stats_opts *opts,
	    struct gguf_stats *st, struct gguf_err *err);

/* The same for rows [row0, row0 + nrows) of tensor t of file f. */
int	gguf_stats_tensor(const struct gguf_file *f,
	    const struct gguf_tensor *t, uint64_t row0, uint64_t nrows,
	    const struct gguf_stats_opts *opts, struct gguf_stats *st,
	    struct gguf_err *err);

/*
 * Statistics of several tensors (stats_many.c): n jobs, job k filled in
 * by job(arg, k, j) (j zeroed first; it sets t and the rows [row0, row0 +
 * nrows), or rc and err to fail the job on entry; it is called several
 * times for the same k, from any thread but never at the same time as
 * itself or done, and must give the same job each time). On several
 * threads, tensors that are each a small part of the whole run a thread
 * each, side by side (no thread waits at the end of a tensor for the
 * others, none is started per tensor); a larger one, or one read by
 * range, runs on every thread alone. Results are those
 * gguf_stats_tensor gives, whatever the threads. done(arg, job, k) is
 * called from the calling thread for every job in order, as soon as it
 * and every job before it have ended, each checked after its end against
 * a change of the file, and never while opts->progress is being called
 * (both may print); a nonzero return stops the run. The job done is
 * given lives until done returns: no more than gguf_stats_in_flight
 * (threads) jobs are held at once, whatever n. A job whose rc is nonzero
 * on entry is not run (its err is kept) but passed to done in its turn.
 * Progress counts the elements of every job; opts->cancel is read as by
 * the others, and a cancelled run hands over every job it did not end as
 * cancelled. Returns 0, GGUF_STATS_CANCELLED, or GGUF_STATS_STOPPED if
 * done stopped the run.
 */
struct gguf_stats_job {
	const struct gguf_tensor	*t;
	uint64_t			 row0;
	uint64_t			 nrows;
	int				 rc;	/* as gguf_stats_tensor's */
	struct gguf_stats		 st;
	struct gguf_err			 err;	/* when rc != 0 */
};

typedef void	(*gguf_stats_job_fn)(void *arg, uint64_t k,
		    struct gguf_stats_job *job);
typedef int	(*gguf_stats_done_fn)(void *arg, struct gguf_stats_job *job,
		    uint64_t k);

int	gguf_stats_tensors(const struct gguf_file *f, uint64_t n,
	    gguf_stats_job_fn job, const struct gguf_stats_opts *opts,
	    gguf_stats_done_fn done, void *arg);
/* The most jobs gguf_stats_tensors holds at once on threads (0: all). */
unsigned gguf_stats_in_flight(unsigned threads);

/* Per-row summary, over the row's finite values (NaN where it has none). */
struct gguf_rowsum {
	double		min;
	double		max;
	double		mean;
	double		l2;		/* square root of the sum of squares */
	uint64_t	nfinite;
};

/*
 * Summaries of rows [row0, row0 + nrows) of tensor t into out[0 ..
 * nrows). Threads, progress (in elements) and cancel as for statistics.
 * Returns 0, GGUF_STATS_CANCELLED or -1 with a message.
 */
int	gguf_row_summaries(const struct gguf_file *f,
	    const struct gguf_tensor *t, uint64_t row0, uint64_t nrows,
	    const struct gguf_stats_opts *opts, struct gguf_rowsum *out,
	    struct gguf_err *err);

#endif /* GGUF_STATS_H */
