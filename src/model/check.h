/*
 * check.h - what `ggufed validate` finds beyond the reader's own checks.
 *
 * The reader reports defects of the container (layout, offsets, names,
 * duplicate keys, well-known keys of the wrong type) as it opens a file.
 * These checks look at the model the file describes: a tokenizer whose
 * arrays disagree in length, special token ids outside the vocabulary, a
 * file name off the naming convention and, on request, NaN, Inf or
 * all-zero tensors; for an architecture the model check (model.h) does not
 * know, missing hyper-parameters, blocks beyond the block count and the
 * common tensors' shapes (for the others, that check says it all, as
 * llama.cpp's errors).
 * Each finding has a level (enum gguf_wlevel: an error is a file llama.cpp
 * fails to load or misreads) and, where one applies, a file offset.
 */
#ifndef GGUF_CHECK_H
#define GGUF_CHECK_H

#include <stdint.h>

#include "gguf.h"
#include "stats.h"

/*
 * One finding; off is -1 when no single place of the file is at fault.
 * file is the path of the file off is in when that is not the file
 * checked (a tensor of a later shard of a set: gguf_tensor_path), else
 * NULL.
 */
typedef void	(*gguf_finding_fn)(void *arg, int level, const char *file,
		    int64_t off, const char *msg);

#define GGUF_CHECK_DATA		0x01	/* scan every tensor: NaN, Inf, bad block
					   scales, all zero (scan.h) */

/*
 * Runs the model checks over f (whose warnings the caller reports itself),
 * calling fn for each finding. name is the file's name for the naming
 * convention check (NULL to skip it); opts (threads, progress, cancel) is
 * for the data checks and may be NULL. What cannot be checked is itself a
 * finding. Returns 0, or GGUF_STATS_CANCELLED if the data checks were
 * cancelled.
 */
int	gguf_check_model(struct gguf_file *f, const char *name, unsigned flags,
	    const struct gguf_stats_opts *opts, gguf_finding_fn fn, void *arg);

/*
 * The tokenizer's checks of gguf_check_model (array lengths, token types
 * and ids, a tokenizer model without tokens or tokens without one, BPE
 * merges) alone: over f, or, when d is not NULL, over d's merged view
 * (its edits applied; every offset then -1). What a save's --strict and
 * the browser compare with the source's (model.c).
 */
struct gguf_doc;
void	gguf_check_tokenizer(struct gguf_file *f, struct gguf_doc *d,
	    gguf_finding_fn fn, void *arg);

#endif /* GGUF_CHECK_H */
