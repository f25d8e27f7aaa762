/*
 * set.h - a split model (llama.cpp's gguf-split) opened as one model.
 *
 * A split model is a set of complete GGUF files named
 * PREFIX-00001-of-0000N.gguf ... PREFIX-0000N-of-0000N.gguf. The first
 * holds all the metadata; every shard holds some of the tensors and the
 * split keys: split.no (u16, 0-based), split.count (u16) and
 * split.tensors.count (i32, the tensors of the whole set). llama.cpp reads
 * the metadata of the first shard only and finds the others by rebuilding
 * their names from the first one's.
 *
 * gguf_set_open, given any shard, finds the set by that name pattern,
 * opens every shard and joins them as one struct gguf_file (gguf.h): the
 * first shard's metadata, every shard's tensors, each with its shard.
 * What is wrong with the set (a missing shard, split keys that disagree,
 * a tensor in two shards, a shard that is a Git LFS pointer or cut short,
 * metadata llama.cpp will not read) becomes a finding of the joined file,
 * each naming the file it is about.
 */
#ifndef GGUF_SET_H
#define GGUF_SET_H

#include <stddef.h>

#include "gguf.h"

#define GGUF_OPEN_ALONE		0x01	/* the file alone, even a shard */
#define GGUF_OPEN_STRICT	0x02	/* a shard that cannot be read fails */

/*
 * Opens path: a shard of a split set opens the whole set (unless
 * GGUF_OPEN_ALONE), anything else as gguf_open does. The first shard must
 * be readable; a later one that is missing or unreadable is a finding,
 * or with GGUF_OPEN_STRICT the error of the open (naming the file). NULL
 * with err set on failure.
 */
struct gguf_file	*gguf_set_open(const char *path, unsigned flags,
			    struct gguf_err *err);
/*
 * The shards of a local set are opened on up to n threads besides the
 * caller's (at most 8, and one core less than the process may run on);
 * 0: one after another on the caller's. What the open gives does not
 * depend on it. For tests, which compare the two.
 */
void			 gguf_set_openers(unsigned n);

/* The bytes of every shard of a set (those that could be read). */
uint64_t	gguf_set_size(const struct gguf_file *f);

/*
 * Whether path is named as a shard, "PREFIX-NNNNN-of-MMMMM.gguf" (five
 * digits or more each, 1 <= N <= M, PREFIX not empty): 0 with the length
 * of PREFIX, N and M; -1 if not.
 */
int	gguf_set_name(const char *path, size_t *plen, unsigned *no,
	    unsigned *count);
/* "PREFIX-%05u-of-%05u.gguf" of shard no (1-based) of count, allocated. */
char	*gguf_set_path(const char *prefix, size_t plen, unsigned no,
	    unsigned count);

/* ------------------------------------------------------- split and merge */

struct gguf_doc;

#define GGUF_SPLIT_BY_SIZE	1	/* at most max bytes of tensor data */
#define GGUF_SPLIT_BY_COUNT	2	/* at most max tensors */

/*
 * Where gguf-split puts each live tensor of d: shard[i] for tensor entry i
 * (removed entries get -1), *n the number of shards. By size, a tensor
 * starts a new shard when the data of the shard (each tensor's size
 * rounded up to 32 bytes) would exceed max; by count, tensor i (counting
 * live tensors from 0) starts one when i > 0 and i % max == 0. With
 * no_first, the first shard holds no tensor. A tensor larger than max
 * goes alone into the shard it finds empty (gguf-split gives up there);
 * every split gguf-split makes is made the same. 0, or -1 with err (more
 * than 65,535 shards, max 0). shard is allocated.
 */
int	gguf_split_plan(struct gguf_doc *d, int mode, uint64_t max,
	    int no_first, int **shard, unsigned *n, struct gguf_err *err);
/*
 * Makes d shard k of n as gguf-split writes it: for k > 0 every key goes;
 * the split keys are (re)added at the end, split.no, split.tensors.count
 * and split.count; the tensors of other shards go. Each change is an
 * edit: *nedits gets how many, for gguf_doc_undo to take them back.
 */
int	gguf_split_shard(struct gguf_doc *d, const int *shard, unsigned k,
	    unsigned n, unsigned *nedits, struct gguf_err *err);
/*
 * Makes d (a joined set) what gguf-split's merge writes: the first
 * shard's keys with split.count set to 0 (and moved to the end, as ggml's
 * setter does), every tensor. One edit or two.
 */
int	gguf_merge_prepare(struct gguf_doc *d, unsigned *nedits,
	    struct gguf_err *err);

/*
 * -1 with err set if key (klen bytes) is a split key (split.*) and d is
 * a split set: ggufed keeps those keys as gguf-split writes them, so an
 * edit of the set never touches them by hand. 0 otherwise.
 */
int	gguf_set_key_kept(struct gguf_doc *d, const char *key, size_t klen,
	    struct gguf_err *err);

#endif /* GGUF_SET_H */
