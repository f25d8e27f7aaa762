/*
 * remote.h - a GGUF file opened where it lives, over HTTP.
 *
 * The file is laid out in the process as a local file is mapped: one
 * region of its size. The header is read in at open (one range of
 * GGUF_REMOTE_FIRST bytes, then exactly what the header still needs)
 * and is the process's own memory; the rest of the region holds no
 * page until a range of it is asked for (gguf_remote_ensure), which
 * fetches the missing pieces and makes them readable. A read of a piece
 * never fetched faults: it never sees a byte that is not the file's.
 *
 * The bytes come from an "http" source (source.h, http.h); the region is
 * how the reader, which maps its files, reads a source that cannot be
 * mapped, and gguf_open_url is the one place that builds it.
 */
#ifndef GGUF_REMOTE_H
#define GGUF_REMOTE_H

#include <stdint.h>

#include "gguf.h"

#define GGUF_REMOTE_FIRST	((size_t)2 << 20)	/* the first range */
#define GGUF_REMOTE_CHUNK	((uint64_t)1 << 20)	/* the piece fetched */
#define GGUF_REMOTE_MAX_HEADER	((uint64_t)1 << 30)	/* read at most */

struct gguf_remote;

/*
 * Opens the GGUF file at name (http://, https://, hf://) and indexes it
 * as gguf_open does a local file. NULL with err set.
 */
struct gguf_file	*gguf_open_url(const char *name, struct gguf_err *err);

/*
 * Makes [off, off + len) of the file's region readable, fetching what is
 * missing: 0, or -1 with err set (the server's error, or "changed on the
 * server").
 */
int	gguf_remote_ensure(struct gguf_remote *r, uint64_t off, uint64_t len,
	    struct gguf_err *err);
/* Gives back the memory of the whole pieces inside [off, off + len). */
void	gguf_remote_release(struct gguf_remote *r, uint64_t off,
	    uint64_t len);
/* The source the file is read from (source.h: an "http" source). */
struct gguf_source *gguf_remote_source(const struct gguf_remote *r);
/* Requests made and bytes received since the open. */
void	gguf_remote_counts(const struct gguf_remote *r, uint64_t *requests,
	    uint64_t *bytes);
/*
 * The header cache: a header read over the network is kept under
 * $XDG_CACHE_HOME/ggufed/headers (~/.cache/ggufed/headers), one file a
 * URL, with the server's ETag (or Last-Modified) and the file's size;
 * the next open asks the server once, conditionally, whether the file is
 * still that one, and reads nothing more if it is. Tensor data is never
 * kept. gguf_remote_cache(0) (--no-cache) neither reads nor writes it.
 */
void	gguf_remote_cache(int on);
/* Frees r and its region (the file's close does it). */
void	gguf_remote_free(struct gguf_remote *r);

#endif /* GGUF_REMOTE_H */
