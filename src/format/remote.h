/*
 * remote.h - a GGUF file opened where it lives, over HTTP.
 *
 * The file is read through an "http" source (source.h, http.h), which
 * cannot map: the header is read at open (one range of
 * GGUF_REMOTE_FIRST bytes, then exactly what the header still needs) and
 * is the process's own memory; tensor data is read through the source
 * where it is read (gguf_file_read, the span reader), never kept.
 */
#ifndef GGUF_REMOTE_H
#define GGUF_REMOTE_H

#include <stdint.h>

#include "gguf.h"

#define GGUF_REMOTE_FIRST	((size_t)2 << 20)	/* the first range */
#define GGUF_REMOTE_MAX_HEADER	((uint64_t)1 << 30)	/* read at most */

/*
 * Opens the GGUF file at name (http://, https://, hf://) and indexes it
 * as gguf_open does a local file. NULL with err set.
 */
struct gguf_file	*gguf_open_url(const char *name, struct gguf_err *err);

/* Whether f (not a set: ask its shards) is read over HTTP. */
int	gguf_file_remote(const struct gguf_file *f);
/*
 * Whether f's header came from the header cache (the server answered
 * that the file is still the one cached): no byte of it was fetched.
 */
int	gguf_remote_cached(const struct gguf_file *f);
/* Requests made and bytes received for f since its open (0 if local). */
void	gguf_remote_counts(const struct gguf_file *f, uint64_t *requests,
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
/*
 * Where the cache's one warning goes (a directory or file that cannot be
 * trusted, so not used): fn gets the whole line, without "ggufed: " and
 * newline. NULL, the default, says nothing: the core never prints.
 */
void	gguf_remote_cache_warn(void (*fn)(const char *msg));

#endif /* GGUF_REMOTE_H */
