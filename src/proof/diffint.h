/*
 * diffint.h - what diff.c and difftensors.c share and nobody else sees.
 */
#ifndef GGUF_DIFFINT_H
#define GGUF_DIFFINT_H

#include <stddef.h>

#include "diff.h"

#define MAX_THREADS	64
#define CHUNK		65536	/* elements decoded at a time by --data */

/*
 * A new item of kind what at the end of d's items (cap: their room, grown
 * as needed), zeroed but for what and no entry in A or B (-1). Good until
 * the next call that adds an item.
 */
struct gguf_diff_item	*gguf_diff_new_item(struct gguf_diff *d, size_t *cap,
			    int what);
/*
 * Adds to d the items of the tensors of a and b: matched by name, the
 * renamed ones by type, shape and data hash, the data hashed where it
 * decides something (on o's threads). 0, or -1 with err set.
 */
int	gguf_diff_tensors(struct gguf_doc *a, struct gguf_doc *b,
	    const struct gguf_diff_opts *o, struct gguf_diff *d, size_t *cap,
	    struct gguf_err *err);

#endif /* GGUF_DIFFINT_H */
