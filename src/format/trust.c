/*
 * trust.c - whether a file or a directory of ggufed's own can be believed
 * (see trust.h).
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "gguf.h"
#include "trust.h"

/* The name of the user uid, in buf. */
static const char *
user_name(uid_t uid, char *buf, size_t len)
{
	struct passwd	*pw = getpwuid(uid);

	if (pw != NULL)
		snprintf(buf, len, "%s", pw->pw_name);
	else
		snprintf(buf, len, "uid %lu", (unsigned long)uid);
	return buf;
}

const char *
gguf_not_ours(const struct stat *st, char *buf, size_t len)
{
	char	owner[64], me[64];

	user_name(st->st_uid, owner, sizeof owner);
	if (!S_ISREG(st->st_mode))
		snprintf(buf, len, "not a regular file (owner %s)", owner);
	else if (st->st_uid != geteuid())
		snprintf(buf, len, "owned by %s, not by %s", owner,
		    user_name(geteuid(), me, sizeof me));
	else if ((st->st_mode & 022) != 0)
		snprintf(buf, len, "writable by %s (mode %04o, owner %s)",
		    (st->st_mode & 002) ? "others" : "its group",
		    (unsigned)(st->st_mode & 07777), owner);
	else
		return NULL;
	return buf;
}

const char *
gguf_unsafe_dir(const char *path, char *buf, size_t len)
{
	struct stat	st;
	char		owner[64];

	if (lstat(path, &st) != 0) {
		if (errno == ENOENT)
			return NULL;
		snprintf(buf, len, "%s", strerror(errno));
		return buf;
	}
	if (S_ISDIR(st.st_mode) && st.st_uid == geteuid() &&
	    (st.st_mode & 022) == 0)
		return NULL;	/* no owner's name to look up (passwd) */
	user_name(st.st_uid, owner, sizeof owner);
	if (S_ISLNK(st.st_mode))
		snprintf(buf, len, "is a symbolic link (owner %s)", owner);
	else if (!S_ISDIR(st.st_mode))
		snprintf(buf, len, "is not a directory (owner %s)", owner);
	else if (st.st_uid != geteuid())
		snprintf(buf, len, "belongs to %s", owner);
	else
		snprintf(buf, len, "can be written by %s (mode %04o)",
		    (st.st_mode & 002) ? "others" : "its group",
		    (unsigned)(st.st_mode & 07777));
	return buf;
}

int
gguf_open_ours(const char *path, int flags, char *buf, size_t len)
{
	struct stat	st;
	int		fd, e;

	/* gguf_open_regular: O_NONBLOCK, fstat, a regular file only */
	if ((fd = gguf_open_regular(path, flags | O_NOFOLLOW, NULL)) < 0) {
		e = errno;
		snprintf(buf, len, "%s", e == ELOOP ? "a symbolic link" :
		    e == EINVAL ? "not a regular file" : strerror(e));
		errno = e;
		return -1;
	}
	if (fstat(fd, &st) != 0) {
		e = errno;
		snprintf(buf, len, "%s", strerror(e));
		close(fd);
		errno = e;
		return -1;
	}
	if (gguf_not_ours(&st, buf, len) != NULL) {
		close(fd);
		errno = EPERM;
		return -1;
	}
	return fd;
}
