/*
 * trust.h - whether a file or a directory that ggufed keeps its own data
 * in (journals, locks, rescue scripts, the header cache) can be believed:
 * one of the user's own (root's, for root), not a link, that neither its
 * group nor others can write. In a directory others can write into, a
 * file planted at the name ggufed reads would be believed, a FIFO would
 * hang the reader, and a link would have ggufed write where it leads.
 */
#ifndef GGUF_TRUST_H
#define GGUF_TRUST_H

#include <sys/stat.h>

#include <stddef.h>

/*
 * Why a file (identity st) is not to be trusted, in buf ("owned by
 * nobody, not by root"), or NULL if it is: a regular file of the user
 * running ggufed that neither its group nor others can write.
 */
const char	*gguf_not_ours(const struct stat *st, char *buf, size_t len);
/*
 * Why the directory path is not safe to keep files in, in buf ("belongs
 * to nobody"), or NULL if it is: a directory of the user's own, not a
 * link, that neither its group nor others can write; or not there.
 */
const char	*gguf_unsafe_dir(const char *path, char *buf, size_t len);
/*
 * Opens the file path (flags: O_RDONLY, O_WRONLY or O_RDWR) if it can be
 * trusted: never through a link (O_NOFOLLOW), never waiting on a FIFO
 * (O_NONBLOCK), then its identity checked (gguf_not_ours). The
 * descriptor, or -1 with errno (ENOENT: there is none) and why in buf
 * ("a symbolic link", "not a regular file (owner nobody)", the system's
 * reason).
 */
int		 gguf_open_ours(const char *path, int flags, char *buf,
		    size_t len);

#endif /* GGUF_TRUST_H */
