/*
 * stats.h - whole-tensor statistics, per-row summaries.
 *
 * Statistics decode a tensor (or a row range of it) in chunks, on several
 * threads, and never hold more than one chunk per thread: a 10 GB tensor
 * costs a few megabytes. Two passes are made: the first finds the counts,
 * extremes and moments, the second fills a histogram over [min, max] of the
 * finite values. F16 and BF16 take one pass, which counts how often each
 * of their 65536 values occurs (a table per thread); every statistic
 * follows from the counts. Results do not depend on the number of threads:
 * chunks are merged in order, counts are integers.
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
#define GGUF_STATS_FINE		4096	/* bins the percentiles are read from */
#define GGUF_STATS_NPCT		5
#define GGUF_STATS_CANCELLED	1	/* return value of a cancelled run */

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
	 * Histogram of the finite values: x is counted in bin
	 * floor((x - min) / (max - min) * GGUF_STATS_BINS), computed in
	 * double (x, min and max halved first if max - min overflows), the
	 * maximum in the last bin. When min == max every finite value is in
	 * bin 0.
	 */
	uint64_t	hist[GGUF_STATS_BINS];
	/*
	 * Percentiles of the finite values, at gguf_stats_pct[i] percent:
	 * estimates of the nearest-rank percentile (the value of rank
	 * ceil(p / 100 * nfinite) in sorted order) read from a histogram of
	 * GGUF_STATS_FINE bins over [min, max] binned like the one above,
	 * interpolated within their bin: each is off by at most one fine
	 * bin, (max - min) / GGUF_STATS_FINE, and lies in [min, max]. NaN
	 * with no finite value or no histogram.
	 */
	double		pct[GGUF_STATS_NPCT];
};

/* 1, 5, 50, 95, 99: the percentiles statistics give. */
extern const double	gguf_stats_pct[GGUF_STATS_NPCT];

/*
 * Progress: done out of total units of work (elements per pass, both passes
 * counted). Called from worker threads, one call at a time. A nonzero
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

/* Counts and moments only: no histogram, so one pass over the data. */
#define GGUF_STATS_NO_HIST	0x01

/* The number of online CPUs, at least 1. */
unsigned	gguf_ncpu(void);

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

/* The same for rows [row0, row0 + nrows) of tensor t of file f. */
int	gguf_stats_tensor(const struct gguf_file *f,
	    const struct gguf_tensor *t, uint64_t row0, uint64_t nrows,
	    const struct gguf_stats_opts *opts, struct gguf_stats *st,
	    struct gguf_err *err);

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
