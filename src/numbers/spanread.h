/*
 * spanread.h - read byte ranges ("spans") of one or more files at the
 * speed of the page cache and hand them, piece by piece, to a consumer
 * running on up to two threads.
 *
 * Spans of a file are read with pread() into aligned buffers; spans of a
 * file's mapping (gguf_span.file) are read in place, with no copy. Which
 * is faster depends on the machine: xxh64 of a 2.1 GB model in the page
 * cache took 0.34 s through a mapping and 0.54-0.80 s through pread on
 * this code's first machine, and 0.70 s through a mapping and 0.25 s
 * through pread on a 2-core virtual machine where mapping pages in is
 * costly; the hashes and diff now read local files through pread
 * (hash.h, gguf_tensor_span). Each run of ascending spans of one file
 * (tensor data with its padding) is read through in pieces of
 * GGUF_SR_CHUNK bytes, with posix_fadvise(SEQUENTIAL) over the run, so
 * gaps of padding cost one copy, not a read each. Only the bytes of spans reach the
 * consumer, never a gap.
 *
 * Memory is the ring of buffers, never a span's size: GGUF_SR_CHUNK bytes
 * a thread in GGUF_SR_SPLIT, GGUF_SR_NSLOT buffers in GGUF_SR_SHARE.
 *
 * A use, counting the bytes of every span that are zero:
 *
 *	static int
 *	zeros(void *arg, unsigned th, size_t span, uint64_t pos,
 *	    const uint8_t *p, size_t n, int last)
 *	{
 *		struct count *c = arg;	// c->n[GGUF_SR_THREADS], one a thread
 *
 *		for (size_t i = 0; i < n; i++)
 *			c->n[th] += p[i] == 0;
 *		return 0;
 *	}
 *	...
 *	struct gguf_spanread r = { .spans = sp, .n_spans = n,
 *	    .consume = zeros, .arg = &c };
 *	if (gguf_spanread(&r, &err) != 0)
 *		... err.msg, err.off, r.err_span name what failed
 *
 * Nothing here prints.
 */
#ifndef GGUF_SPANREAD_H
#define GGUF_SPANREAD_H

#include <stddef.h>
#include <stdint.h>

#include "gguf.h"

#define GGUF_SR_THREADS	2		/* at most this many threads */
#define GGUF_SR_CHUNK	(256u << 10)	/* bytes read at a time */
#define GGUF_SR_NSLOT	16		/* buffers of the GGUF_SR_SHARE ring */
#define GGUF_SR_MAXUNIT	(64u << 10)	/* the largest unit of a span */

/*
 * A byte range of a file. Spans of one list may be of different files
 * (the shards of a split model), may overlap, repeat or go backwards
 * (each is read on its own then), and may be empty.
 */
struct gguf_span {
	int		 fd;	/* read with pread; or < 0: the bytes are mem */
	const uint8_t	*mem;	/* with fd < 0: the file's bytes (mem + off) */
	uint64_t	 off;	/* offset of the first byte in the file */
	uint64_t	 len;	/* bytes */
	/*
	 * 0 or 1: pieces of the span may end anywhere. Otherwise every
	 * piece but the last ends at a multiple of unit bytes from off
	 * (a block-quantized type's block size), so a consumer never sees
	 * part of a block; the last piece holds the rest (a whole number
	 * of units if len is one). At most GGUF_SR_MAXUNIT.
	 */
	uint32_t	 unit;
	/*
	 * With fd >= 0, may name the file fd reads: before each piece it
	 * is checked to be as it was opened, and a read that fails says
	 * how it changed ("changed on disk: cut to ..."), as a read of its
	 * mapping would.
	 *
	 * With fd < 0, may name the file whose mapping mem is: its bytes
	 * are then read in place, each piece's consumer calls guarded
	 * (gguf_file_guard: a file changed or cut on disk fails the run
	 * with "changed on disk", never a SIGBUS), and the pages read are
	 * given back (gguf_file_release) 32 MB at a time once every thread
	 * is done with them. No copy: the page cache is read where it lies.
	 * The pages are mapped in 4 MB at a time with one call each
	 * (gguf_file_populate), not faulted in a few at a time, by the
	 * thread that reads them (in GGUF_SR_SHARE, ahead of the thread
	 * that follows).
	 */
	const struct gguf_file *file;
	/*
	 * With fd < 0 and mem NULL: the source the bytes are read from
	 * (gguf_source_read into the ring's buffers, as pread would read a
	 * file's): a source that cannot map.
	 */
	struct gguf_source *src;
};

/*
 * The consumer: called with the bytes p[0..n) of span `span` (an index
 * into the list) that begin pos bytes into it. Pieces of a span come in
 * order, without gap or overlap, each span on one thread; last is 1 on
 * its last piece. Every span gets a last call, an empty span one call
 * with n 0 (p may then be NULL). p is valid only during the call.
 *
 * th is the thread (0 .. GGUF_SR_THREADS-1), so a consumer can keep
 * per-thread state without locks; thread 0 is the calling thread. Calls
 * on different threads run at the same time.
 *
 * Returns 0 to go on; anything else stops the read (gguf_spanread then
 * fails with "stopped"; the consumer keeps its reason itself).
 */
typedef int	(*gguf_sr_consumer)(void *arg, unsigned th, size_t span,
		    uint64_t pos, const uint8_t *p, size_t n, int last);

enum gguf_sr_mode {
	/*
	 * The spans are divided between the threads, the list cut where
	 * about half the bytes lie: thread 0 gets spans 0..k-1, thread 1
	 * k..n-1, each span whole. For work per span (per-tensor hashes,
	 * scans). Cut a huge span into several (at multiples of its unit)
	 * to share it.
	 */
	GGUF_SR_SPLIT,
	/*
	 * Every piece goes to both threads, 0 and 1, each seeing every
	 * span in list order: two computations over the same bytes read
	 * once (the hash of all the data in order on one thread, each
	 * tensor's on the other). Thread 0 reads; thread 1 follows at most
	 * GGUF_SR_NSLOT pieces behind. With one thread, thread 0 makes both
	 * calls, 0 then 1, for every piece.
	 */
	GGUF_SR_SHARE
};

struct gguf_spanread {
	const struct gguf_span	*spans;
	size_t			 n_spans;
	gguf_sr_consumer	 consume;
	void			*arg;		/* the consumer's */
	int			 mode;		/* enum gguf_sr_mode */
	/*
	 * GGUF_SR_SHARE: may be set. Called on thread 0 with each segment of
	 * a piece (as the consumer would be, without the bytes) before the
	 * piece goes to thread 1 and before thread 0's consumer calls of it:
	 * so thread 0 can decide, for each segment, what each thread does
	 * with it, and thread 1 always finds the decision made. When it is
	 * called for a piece, thread 0's consumer calls of every earlier
	 * piece have returned. queued: the pieces thread 1 has still to
	 * be done with, before this one (0 to GGUF_SR_NSLOT - 1; 0 where
	 * thread 0 makes both calls). Non-zero stops the read, as the
	 * consumer's.
	 */
	int			(*claim)(void *arg, size_t span, uint64_t pos,
				    size_t n, int last, unsigned queued);
	/*
	 * 0: one a core, at most GGUF_SR_THREADS; 1: everything on the
	 * calling thread.
	 */
	unsigned		 threads;
	/*
	 * Called from the calling thread only, about every piece and at
	 * least every 50 ms, with the bytes consumed (in GGUF_SR_SHARE, by
	 * the thread that is behind) and the bytes of all spans: done
	 * counts only pieces whose consumer call has returned, and is
	 * total only once every call has. After a run without error it is
	 * called once more with done == total (its return is then ignored).
	 * Non-zero cancels: gguf_spanread then fails with "cancelled". May
	 * be NULL.
	 */
	int			(*progress)(void *parg, uint64_t done,
				    uint64_t total);
	void			*parg;
	/*
	 * Out: after a failure, the span being read or consumed when it
	 * failed (to name its file), or (size_t)-1 for a cancel.
	 */
	size_t			 err_span;
};

/*
 * Reads the spans and hands every byte of them to the consumer; returns
 * after every call to it has returned. 0, or -1 with err set: a read
 * error ("read: " and the system's reason) or a file that ends before a
 * span does, both with err->off the file offset and r->err_span the span;
 * a unit larger than GGUF_SR_MAXUNIT; "stopped" by the consumer;
 * "cancelled" by progress.
 */
int	gguf_spanread(struct gguf_spanread *r, struct gguf_err *err);

#endif /* GGUF_SPANREAD_H */
