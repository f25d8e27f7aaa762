/*
 * save.c - saving a document without ever losing the model.
 *
 * Two paths.
 *
 * The rewrite, always safe: a new file is created beside the target (same
 * directory, so same filesystem), private (0600) while it is written, its
 * space reserved up front so a full disk fails before anything is
 * written, the whole file written, given the target's owner and mode,
 * fsynced and closed (errors of a delayed write show there), read back
 * with the reader to check that it parses to the planned counts and
 * layout, and only then renamed over the target; the directory is
 * fsynced so the rename itself is durable. Until the rename the target is
 * untouched; on any failure (ENOSPC, EDQUOT, EIO, EACCES, EFBIG, a
 * cancel) the temporary file is removed. A symlinked target is followed
 * and the file it names is replaced.
 *
 * In place, when the new header region has exactly the length of the old
 * one and no tensor moves: only the header region is rewritten. Crash
 * safety comes from a journal beside the model ("MODEL.ggufed-journal"):
 *
 *	1. the old header region is written to the journal, which is
 *	   fsynced, and so is the directory;
 *	2. the new header region is written over the model, which is
 *	   fsynced;
 *	3. the journal is removed, and the directory fsynced.
 *
 * A crash in 2 leaves a model whose header may be torn and a complete
 * journal: gguf_recover writes the old region back. A crash in 1 leaves
 * an incomplete journal and an untouched model: recovery just removes the
 * journal. The journal is self-checking (magic, lengths, FNV-1a hashes of
 * its header and of the saved bytes), so the two cases are told apart.
 * It also says which file it belongs to (device, inode, size, mtime,
 * hashes of the rest of the header region, and both the old and the new
 * bytes of the range): recovery writes into no other file.
 *
 * Journal layout, little-endian:
 *
 *	0	"GGUFEDJ2"
 *	8	u64 offset of the saved range in the model
 *	16	u64 its length L
 *	24	u64 model size
 *	32	u64 model device
 *	40	u64 model inode
 *	48	u64 model mtime, seconds
 *	56	u64 model mtime, nanoseconds
 *	64	u64 end R of the header region
 *	72	u64 hash of the model's bytes [0, offset)
 *	80	u64 hash of the model's bytes [offset + L, R)
 *	88	u64 hash of the old bytes
 *	96	u64 hash of the new bytes
 *	104	u64 hash of bytes 0..103
 *	112	the old bytes, L; then the new bytes, L
 *
 * Only the range that differs between the old and the new header region
 * is journaled and written: a fixed-size edit costs a few bytes.
 *
 * One save or recovery of a file at a time: each holds an exclusive lock
 * on "FILE.ggufed-lock" beside it (an open file description lock, so it
 * goes with the process that holds it; the file says its process id). A
 * lock file nobody holds is what a dead process left: it is taken over.
 *
 * A journal or a lock beside a model may sit in a folder others can write
 * into, and whoever can read the model can compute every check of a
 * journal: both are honoured only when they are regular files of the user
 * running ggufed (root's own, for root) that neither the group nor others
 * can write. Anything else is refused, naming its owner, and left alone.
 *
 * Before either path, the source is checked against the identity it had
 * when it was opened (device, inode, size, mtime, the bytes of its header
 * region): a file changed by someone else is not overwritten unless
 * forced. Unless forced, a save
 * does not overwrite another existing file, nor write a read-only file
 * or into a read-only directory (by their mode bits, so that the
 * superuser is warned too).
 */
#include "config.h"

#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "http.h"
#include "storeint.h"
#include "set.h"

#define LOCK_SUFFIX	".ggufed-lock"

int	gguf_doc_reload(struct gguf_doc *d, struct gguf_err *err);

/* ---------------------------------------------------------------- helpers */

void
gguf_split_path(const char *path, char **dir, char **base)
{
	const char	*slash = strrchr(path, '/');

	if (slash == NULL) {
		*dir = xstrdup(".");
		*base = xstrdup(path);
	} else if (slash == path) {
		*dir = xstrdup("/");
		*base = xstrdup(slash + 1);
	} else {
		*dir = xstrndup(path, (size_t)(slash - path));
		*base = xstrdup(slash + 1);
	}
}

int
gguf_sync_dir(const char *path, struct gguf_err *err)
{
	char	*dir, *base;
	int	 fd, rc = 0;

	gguf_split_path(path, &dir, &base);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || gguf_io_fsync(fd) != 0)
		rc = gguf_errf(err, -1, "syncing the directory: %s",
		    strerror(errno));
	if (fd >= 0)
		close(fd);
	free(dir);
	free(base);
	return rc;
}

int
gguf_pwrite_all(int fd, const uint8_t *p, uint64_t n, uint64_t off,
    struct gguf_err *err)
{
	ssize_t	w;

	while (n > 0) {
		w = gguf_io_pwrite(fd, p, n > (1u << 30) ? (1u << 30) : (size_t)n,
		    (off_t)off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return gguf_errf(err, -1, "write: %s", w < 0 ?
			    strerror(errno) : "no progress");
		p += w;
		n -= (uint64_t)w;
		off += (uint64_t)w;
	}
	return 0;
}


/*
 * Read-only by its mode bits: nobody may write it, or we may not. The
 * bits are looked at even where access() would say yes (the superuser).
 */
int
gguf_read_only(const struct stat *st, const char *path)
{
	return (st->st_mode & 0222) == 0 || access(path, W_OK) != 0;
}

/* ------------------------------------------------------------------ trust */

/* gguf_not_ours: trust.c */

/* ------------------------------------------------------------------- lock */

static void
lock_path(const char *real, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s", real, LOCK_SUFFIX);
}

/* The process id written in a lock file, or 0. */
static long
lock_pid(int fd)
{
	char	buf[32];
	ssize_t	r;

	r = pread(fd, buf, sizeof buf - 1, 0);
	if (r <= 0)
		return 0;
	buf[r] = '\0';
	return strtol(buf, NULL, 10);
}

/*
 * Takes fd's exclusive lock (take set), or asks whether another holds
 * it: 0 free (and now ours if take), 1 held by another, -1 error.
 */
static int
lock_op(int fd, int take)
{
#ifdef F_OFD_SETLK
	struct flock	fl;

	memset(&fl, 0, sizeof fl);
	fl.l_type = F_WRLCK;
	fl.l_whence = SEEK_SET;
	if (fcntl(fd, take ? F_OFD_SETLK : F_OFD_GETLK, &fl) != 0)
		return errno == EAGAIN || errno == EACCES ? 1 : -1;
	return !take && fl.l_type != F_UNLCK;
#else
	if (flock(fd, LOCK_EX | LOCK_NB) != 0)
		return errno == EWOULDBLOCK ? 1 : -1;
	if (!take)
		flock(fd, LOCK_UN);
	return 0;
#endif
}

static int
held_err(long pid, struct gguf_err *err)
{
	if (pid > 0)
		return gguf_errf(err, -1, "the file is being saved by process "
		    "%ld: try again when it is done", pid);
	return gguf_errf(err, -1, "the file is being saved by another "
	    "process: try again when it is done");
}

long
gguf_save_holder(const char *path)
{
	struct stat	 st;
	char		*real, lp[4096], why[160];
	long		 pid = 0;
	int		 fd;

	real = gguf_resolve(path);
	lock_path(real, lp, sizeof lp);
	free(real);
	if ((fd = gguf_open_regular(lp, O_RDONLY | O_NOFOLLOW, NULL)) < 0)
		return 0;
	/* A lock not ours says nothing: taking it is refused, saying why. */
	if (fstat(fd, &st) != 0 || gguf_not_ours(&st, why, sizeof why) !=
	    NULL) {
		close(fd);
		return 0;
	}
	if (lock_op(fd, 0) == 1 && (pid = lock_pid(fd)) <= 0)
		pid = -1;
	close(fd);
	return pid;
}

/*
 * Takes the lock of the file real (resolved) for a save or a recovery.
 * A lock file nobody holds is taken over: lk->stale says whose it was.
 */
int
gguf_lock_take(const char *real, struct savelock *lk, struct gguf_err *err)
{
	struct stat	a, b;
	char		lp[4096], buf[32], why[160];
	size_t		n;
	int		fd = -1, tries, r;

	memset(lk, 0, sizeof *lk);
	lk->fd = -1;
	lock_path(real, lp, sizeof lp);
	for (tries = 0; tries < 100; tries++) {
		fd = open(lp, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK |
		    O_CLOEXEC, 0600);
		if (fd < 0 && errno == ENOENT) {
			/* The one reason a file cannot be made beside it. */
			char	*slash;

			snprintf(lp, sizeof lp, "%s", real);
			if ((slash = strrchr(lp, '/')) == NULL)
				snprintf(lp, sizeof lp, ".");
			else
				slash[slash == lp] = '\0';
			return gguf_errf(err, -1, "the folder %s does not "
			    "exist", lp);
		}
		if (fd < 0 && errno == ELOOP)
			return gguf_errf(err, -1, "the lock file beside the "
			    "file is a symbolic link: not trusted, nothing was "
			    "touched (remove it if it is not yours)");
		if (fd < 0)
			return gguf_errf(err, -1, "cannot create the lock file "
			    "beside the file: %s", strerror(errno));
		if (fstat(fd, &a) != 0 || gguf_not_ours(&a, why,
		    sizeof why) != NULL) {
			close(fd);
			return gguf_errf(err, -1, "the lock file beside the "
			    "file is %s: not trusted, nothing was touched "
			    "(remove it if it is not yours)", why);
		}
		if ((r = lock_op(fd, 1)) != 0) {
			lk->stale = lock_pid(fd);
			close(fd);
			if (r > 0)
				return held_err(lk->stale, err);
			return gguf_errf(err, -1, "cannot lock the file: %s",
			    strerror(errno));
		}
		/* Ours, unless its last holder removed it meanwhile. */
		if (fstat(fd, &a) == 0 && stat(lp, &b) == 0 &&
		    a.st_dev == b.st_dev && a.st_ino == b.st_ino)
			break;
		close(fd);
		fd = -1;
	}
	if (fd < 0)
		return gguf_errf(err, -1, "cannot lock the file: its lock file "
		    "keeps changing");
	lk->stale = lock_pid(fd);
	snprintf(buf, sizeof buf, "%ld\n", (long)getpid());
	n = strlen(buf);
	if (ftruncate(fd, 0) != 0 || pwrite(fd, buf, n, 0) != (ssize_t)n) {
		gguf_errf(err, -1, "cannot write the lock file: %s",
		    strerror(errno));
		unlink(lp);
		close(fd);
		return -1;
	}
	lk->fd = fd;
	lk->path = xstrdup(lp);
	return 0;
}

void
gguf_lock_release(struct savelock *lk)
{
	if (lk->fd < 0)
		return;
	unlink(lk->path);	/* before the lock goes: see lock_take */
	close(lk->fd);
	free(lk->path);
	lk->fd = -1;
	lk->path = NULL;
}

/* ----------------------------------------------------------- source check */

/* Why the source differs from what was opened, or NULL. */
static const char *
src_changed(struct gguf_doc *d, const struct stat *st)
{
	if (st->st_dev != d->dev || st->st_ino != d->ino)
		return "was replaced";
	if ((uint64_t)st->st_size != d->size)
		return "changed size";
	if (st->st_mtim.tv_sec != d->mtime.tv_sec ||
	    st->st_mtim.tv_nsec != d->mtime.tv_nsec)
		return "was modified";
	return NULL;
}

/* 0 if unchanged, 1 if changed but forced, -1 if changed. */
static int
check_source(struct gguf_doc *d, int force, struct gguf_err *err)
{
	struct stat	 st;
	const char	*why;

	if (gguf_is_url(d->real))
		return 0;	/* each read checks the server's file */
	if (stat(d->real, &st) != 0) {
		if (force)
			return 1;
		return gguf_errf(err, -1, "the file being edited is gone "
		    "(%s)", strerror(errno));
	}
	why = src_changed(d, &st);
	if (why == NULL && gguf_file_changed(d->f, GGUF_CHANGE_CONTENT, NULL))
		why = "was rewritten";	/* same size and time, other bytes */
	if (why == NULL)
		return 0;
	/*
	 * Grown or cut where it is: the tensor data a save copies is read
	 * from the file as it is now, another model's or shifted, under the
	 * opened model's header: garbage. Forcing cannot help, the data of
	 * the model that was opened is gone. (Written to at the same size,
	 * as a header edited in place is, force takes the user's word;
	 * replaced or removed, the file opened is still held open, and is
	 * what is copied.)
	 */
	if (st.st_dev == d->dev && st.st_ino == d->ino &&
	    (uint64_t)st.st_size != d->size)
		return gguf_errf(err, -1, "the file %s on disk since it was "
		    "opened: its tensor data may no longer be the model's, "
		    "and a save would copy it as it is now (reopen the file "
		    "and make the edits again)", why);
	if (force)
		return 1;
	return gguf_errf(err, -1, "the file %s on disk since it was opened: "
	    "not overwriting it (reopen it) unless forced", why);
}

/* ---------------------------------------------------------------- rewrite */

int
gguf_create_temp(const char *dir, const char *base, char **tmp,
    struct gguf_err *err)
{
	static unsigned	 seq;
	struct timespec	 ts;
	size_t		 len;
	int		 fd, tries;

	len = strlen(dir) + strlen(base) + 64;
	*tmp = xmalloc(len);
	for (tries = 0; tries < 100; tries++) {
		clock_gettime(CLOCK_REALTIME, &ts);
		snprintf(*tmp, len, "%s/.%s.ggufed-%ld-%u-%lx", dir, base,
		    (long)getpid(), seq++, (unsigned long)ts.tv_nsec);
		fd = gguf_io_open(*tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
		    0600);
		if (fd >= 0)
			return fd;
		if (errno != EEXIST)
			break;
	}
	gguf_errf(err, -1, "cannot create a file in %s: %s", dir,
	    strerror(errno));
	free(*tmp);
	*tmp = NULL;
	return -1;
}

/*
 * Reserves the new file's space up front. A sparse source (much less
 * allocated than its size) is not reserved in full, which would fill its
 * holes: the free space is only checked against what it really uses.
 */
static int
reserve_space(int fd, int src, uint64_t size, struct gguf_err *err)
{
	struct stat	st;
	struct statvfs	vfs;
	uint64_t	used;

	if (fstat(src, &st) == 0 && st.st_blocks > 0 &&
	    (uint64_t)st.st_blocks * 512 + (1u << 20) < (uint64_t)st.st_size) {
		used = (uint64_t)st.st_blocks * 512;
		if (fstatvfs(fd, &vfs) == 0 &&
		    (uint64_t)vfs.f_bavail * vfs.f_frsize < used)
			return gguf_errf(err, -1, "no room for the new file "
			    "(%llu bytes of data): %s", (unsigned long long)used,
			    strerror(ENOSPC));
		return 0;
	}
#ifdef __linux__
	if (size == 0)
		return 0;
	if (gguf_io_fallocate(fd, (off_t)size) == 0)
		return 0;
	if (errno == EOPNOTSUPP || errno == ENOSYS || errno == EINVAL)
		return 0;
	return gguf_errf(err, -1, "no room for the new file (%llu bytes): %s",
	    (unsigned long long)size, strerror(errno));
#else
	(void)fd;
	(void)size;
	(void)err;
	return 0;
#endif
}

/* Reads the new file back: it must parse to what was planned. */
static int
verify(const char *tmp, const struct wplan *p, struct gguf_err *err)
{
	struct gguf_file		*f;
	const struct gguf_layout	*lay;
	struct gguf_err			 e;
	int				 rc = 0;

	f = gguf_open(tmp, &e);
	if (f == NULL)
		return gguf_errf(err, -1, "the new file does not read back: "
		    "%s", e.msg);
	lay = gguf_layout(f);
	if (lay->version != 3 || lay->n_kv != p->n_kv ||
	    lay->n_tensors != p->n_tensors || lay->file_size != p->file_size ||
	    (p->n_tensors > 0 && lay->data_off != p->data_off))
		rc = gguf_errf(err, -1, "the new file does not read back as "
		    "planned");
	gguf_close(f);
	return rc;
}

mode_t
gguf_created_mode(void)
{
	mode_t	mask = umask(022);

	umask(mask);
	return 0666 & ~mask;
}

/*
 * Gives the new file what the target has: its owner (where allowed) and
 * its mode; a new target gets the mode a created file gets (0666 less
 * the umask). The owner first: a change of owner drops set-id bits.
 */
static int
take_mode(int fd, const char *target, struct gguf_save_info *info,
    struct gguf_err *err)
{
	struct stat	st;
	mode_t		mode;

	if (stat(target, &st) == 0) {
		if ((st.st_uid != geteuid() || st.st_gid != getegid()) &&
		    fchown(fd, st.st_uid, st.st_gid) != 0 &&
		    fchown(fd, (uid_t)-1, st.st_gid) != 0)
			gguf_notice(info, "the file's owner could not be "
			    "kept");
		mode = st.st_mode & 07777;
	} else
		mode = gguf_created_mode();
	if (fchmod(fd, mode) != 0)
		return gguf_errf(err, -1, "cannot set permissions: %s",
		    strerror(errno));
	return 0;
}

/* A write past RLIMIT_FSIZE: say so rather than "File too large". */
static void
explain_limit(uint64_t size, struct gguf_err *err)
{
	struct rlimit	rl;
	char		b[32];

	if (getrlimit(RLIMIT_FSIZE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY ||
	    (uint64_t)rl.rlim_cur >= size ||
	    strstr(err->msg, strerror(EFBIG)) == NULL)
		return;
	gguf_errf(err, -1, "file too large for this process's limit (ulimit "
	    "-f: %llu bytes; the new file is %s): the file is untouched",
	    (unsigned long long)rl.rlim_cur, gguf_fmt_size(size, b,
	    sizeof b));
}

/*
 * Writes the whole new file beside target as a rewrite does, up to the
 * rename: created private, space reserved, written, given the target's
 * owner and mode, fsynced, closed and read back. *tmp gets its path; on
 * failure it is removed (and *tmp NULL).
 */
int
gguf_write_temp(struct gguf_doc *d, const struct wplan *p, const char *target,
    const struct gguf_save_opts *o, struct gguf_save_info *info, char **tmp,
    struct gguf_err *err)
{
	struct wsink	 s;
	char		*dir, *base;
	int		 fd, rc = -1;

	*tmp = NULL;
	gguf_split_path(target, &dir, &base);
	gguf_sink_init(&s, -1, 0, NULL, NULL);
	/* Private while it is written: the owner and mode come last. */
	fd = gguf_create_temp(dir, base, tmp, err);
	if (fd < 0)
		goto out;
	if (reserve_space(fd, d->fd, p->file_size, err) != 0)
		goto out;
	gguf_sink_free(&s);
	gguf_sink_init(&s, fd, p->file_size, o->progress, o->arg);
	if (gguf_write_header(d, p, &s, err) != 0 ||
	    gguf_write_data(d, p, fd, &s, err) != 0)
		goto out;
	if (take_mode(fd, target, info, err) != 0)
		goto out;
	if (gguf_io_fsync(fd) != 0) {
		gguf_errf(err, -1, "fsync: %s", strerror(errno));
		goto out;
	}
	if (gguf_io_close(fd) != 0) {
		fd = -1;
		gguf_errf(err, -1, "close: %s", strerror(errno));
		goto out;
	}
	fd = -1;
	if (gguf_fault("tmp-written", err) != 0 ||
	    verify(*tmp, p, err) != 0)
		goto out;
	rc = 0;
out:
	if (rc != 0)
		explain_limit(p->file_size, err);
	if (fd >= 0)
		close(fd);
	if (rc != 0 && *tmp != NULL) {
		unlink(*tmp);
		free(*tmp);
		*tmp = NULL;
	}
	gguf_sink_free(&s);
	free(dir);
	free(base);
	return rc;
}

static int
rewrite(struct gguf_doc *d, const struct wplan *p, const char *target,
    const struct gguf_save_opts *o, struct gguf_save_info *info,
    struct gguf_err *err)
{
	struct gguf_err	 e2;
	char		*tmp = NULL;
	int		 rc = -1;

	memset(&e2, 0, sizeof e2);
	if (gguf_write_temp(d, p, target, o, info, &tmp, err) != 0)
		return -1;
	if (check_source(d, o->force, err) < 0)
		goto out;
	if (gguf_io_rename(tmp, target) != 0) {
		gguf_errf(err, -1, "rename: %s", strerror(errno));
		goto out;
	}
	free(tmp);
	tmp = NULL;
	if (gguf_sync_dir(target, &e2) != 0) {
		/* Renamed: the new file is the target now, whatever follows. */
		gguf_errf(err, -1, "the new file is in place, but %s: after a "
		    "power cut the old one may be back", e2.msg);
		goto out;
	}
	info->how = GGUF_SAVE_REWRITE;
	info->written = p->file_size;
	rc = 0;
out:
	if (tmp != NULL) {
		unlink(tmp);
		free(tmp);
	}
	return rc;
}

/* --------------------------------------------------------------- in place */

#define DIFF_BLOCK	((uint64_t)4096)	/* bytes compared at a time */

int
gguf_header_diff(struct gguf_doc *d, const struct wplan *p, struct wsink *s,
    uint64_t *lo, uint64_t *hi, struct gguf_err *err)
{
	const uint8_t	*old = gguf_file_header(d->f), *nw;
	uint64_t	 a, b, k;

	gguf_sink_init(s, -1, 0, NULL, NULL);
	if (gguf_write_header(d, p, s, err) != 0)
		return -1;
	if (s->mem.n != p->data_off)
		return gguf_errf(err, -1, "internal error: header region of "
		    "%llu bytes, planned %llu", (unsigned long long)s->mem.n,
		    (unsigned long long)p->data_off);
	nw = s->mem.p;
	/* a block at a time (memcmp), then the byte in the block that
	   differs: a vocabulary's megabytes the same, in a few passes */
	for (a = 0; a < p->data_off; a += k) {
		k = p->data_off - a < DIFF_BLOCK ? p->data_off - a : DIFF_BLOCK;
		if (memcmp(nw + a, old + a, (size_t)k) != 0)
			break;
	}
	while (a < p->data_off && nw[a] == old[a])
		a++;
	for (b = p->data_off; b > a; b -= k) {
		k = b - a < DIFF_BLOCK ? b - a : DIFF_BLOCK;
		if (memcmp(nw + b - k, old + b - k, (size_t)k) != 0)
			break;
	}
	while (b > a && nw[b - 1] == old[b - 1])
		b--;
	*lo = a;
	*hi = b;
	return 0;
}

static int
inplace(struct gguf_doc *d, const struct wplan *p,
    const struct gguf_save_opts *o, struct gguf_save_info *info,
    struct gguf_err *err)
{
	struct wsink	 s;
	struct stat	 st;
	struct gguf_err	 e2;
	const uint8_t	*old = gguf_file_header(d->f);
	uint8_t		*saved = NULL;
	const char	*why;
	const uint8_t	*nw;
	uint64_t	 lo, hi;
	char		 jpath[4096];
	int		 fd = -1, journal = 0, rc = -1;

	gguf_journal_path(d->real, jpath, sizeof jpath);
	if (gguf_header_diff(d, p, &s, &lo, &hi, err) != 0)
		goto out;
	info->how = GGUF_SAVE_INPLACE;
	nw = s.mem.p;
	if (lo == hi) {
		rc = 0;			/* nothing to write */
		goto out;
	}
	fd = gguf_open_regular(d->real, O_WRONLY, err);
	if (fd < 0)
		goto out;
	if (fstat(fd, &st) != 0) {
		gguf_errf(err, -1, "%s", strerror(errno));
		goto out;
	}
	if ((why = src_changed(d, &st)) != NULL) {
		gguf_errf(err, -1, "the file %s on disk since it was opened",
		    why);
		goto out;
	}

	/*
	 * Keep the old bytes apart for a rollback: it must not hang on the
	 * open file's copy of its header.
	 */
	saved = xmalloc((size_t)(hi - lo));
	memcpy(saved, old + lo, (size_t)(hi - lo));
	if (gguf_journal_write(jpath, &st, old, saved, nw, lo, hi, p->data_off,
	    err) != 0)
		goto out;
	journal = 1;
	if (gguf_fault("journal-written", err) != 0)
		goto rollback;
	gguf_fault_torn("torn", fd, nw + lo, hi - lo, lo);
	if (gguf_pwrite_all(fd, nw + lo, hi - lo, lo, err) != 0)
		goto rollback;
	if (gguf_io_fsync(fd) != 0) {
		gguf_errf(err, -1, "fsync: %s", strerror(errno));
		goto rollback;
	}
	if (gguf_fault("header-written", err) != 0)
		goto rollback;
	if (gguf_io_close(fd) != 0) {
		fd = -1;
		gguf_errf(err, -1, "close: %s", strerror(errno));
		goto rollback;
	}
	fd = -1;
	if (gguf_io_unlink(jpath) != 0) {
		gguf_errf(err, -1, "the header was saved but the journal could "
		    "not be removed: %s", strerror(errno));
		goto out;
	}
	journal = 0;
	if (gguf_sync_dir(jpath, &e2) != 0) {
		/* The journal is gone: nothing to recover, no damage. */
		gguf_errf(err, -1, "the header was saved and its journal "
		    "removed, but %s: after a power cut the journal may be "
		    "back, and 'ggufed recover' then puts the old header back",
		    e2.msg);
		goto out;
	}
	info->written = hi - lo;
	if (o->progress != NULL)
		o->progress(o->arg, p->data_off, p->data_off);
	rc = 0;
	goto out;

rollback:
	/* Put the old region back now; if that fails too, the journal stays. */
	if (fd >= 0 && gguf_pwrite_all(fd, saved, hi - lo, lo, &e2) == 0 &&
	    gguf_io_fsync(fd) == 0 && gguf_io_unlink(jpath) == 0) {
		gguf_sync_dir(jpath, &e2);
		journal = 0;
	}
out:
	if (journal && rc != 0) {
		char	msg[sizeof err->msg + 80];

		snprintf(msg, sizeof msg, "%s; the model may be damaged: run "
		    "'ggufed recover' on it", err->msg);
		gguf_errf(err, -1, "%s", msg);
	}
	if (fd >= 0)
		close(fd);
	free(saved);
	gguf_sink_free(&s);
	return rc;
}

/* ------------------------------------------------------------------- save */

/* Where a save goes, and what is there. */
struct target {
	char		*path;		/* links followed */
	int		 exists;
	struct stat	 st;
	int		 ro;		/* read-only: only a forced save writes it */
};

/*
 * Where a save goes; -1 if it may not go there. Unless forced, it does
 * not go over another existing file, nor to a read-only file or into a
 * read-only directory.
 */
static int
target_get(struct gguf_doc *d, const struct gguf_save_opts *o,
    struct target *t, struct gguf_err *err)
{
	struct stat	 lst, dst;
	char		*dir, *base;
	int		 rc = -1;

	memset(t, 0, sizeof t[0]);
	if (o->path == NULL && gguf_is_url(d->real))
		return gguf_errf(err, -1, "a model read from a URL cannot be "
		    "saved in place: write a local copy (-o FILE, or :w FILE "
		    "in the browser)");
	if (o->path == NULL)
		t->path = xstrdup(d->real);
	else if (lstat(o->path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
		t->path = gguf_resolve(o->path);
		if (strcmp(t->path, o->path) == 0) {
			free(t->path);
			t->path = NULL;
			return gguf_errf(err, -1, "cannot follow the symlink: "
			    "%s", strerror(errno));
		}
	} else
		t->path = xstrdup(o->path);
	t->exists = stat(t->path, &t->st) == 0;
	if (t->exists && !S_ISREG(t->st.st_mode)) {
		gguf_errf(err, -1, "not a regular file");
		goto out;
	}
	if (o->path != NULL && t->exists && t->st.st_dev == d->dev &&
	    t->st.st_ino == d->ino) {
		gguf_errf(err, -1, "this is the file being edited: save the "
		    "document itself (in place) instead of writing a copy "
		    "over it");
		goto out;
	}
	if (o->path != NULL && t->exists && !o->force) {
		gguf_errf(err, -1, "the file exists: not overwriting it unless "
		    "forced");
		goto out;
	}
	t->ro = t->exists && gguf_read_only(&t->st, t->path);
	if (t->ro && !o->force) {
		gguf_errf(err, -1, "the file is read-only (mode %04o): not "
		    "writing it unless forced", (unsigned)(t->st.st_mode &
		    07777));
		goto out;
	}
	gguf_split_path(t->path, &dir, &base);
	if (stat(dir, &dst) == 0 && gguf_read_only(&dst, dir) && !o->force)
		gguf_errf(err, -1, "the directory %s is read-only (mode %04o): "
		    "not writing there unless forced", dir,
		    (unsigned)(dst.st_mode & 07777));
	else
		rc = 0;
	free(dir);
	free(base);
out:
	if (rc != 0) {
		free(t->path);
		t->path = NULL;
	}
	return rc;
}

int
gguf_doc_check_target(struct gguf_doc *d, const struct gguf_save_opts *o,
    struct gguf_err *err)
{
	struct target	t;

	if (target_get(d, o, &t, err) != 0)
		return -1;
	free(t.path);
	return 0;
}

static int
decide(struct gguf_doc *d, const struct gguf_save_opts *o,
    const struct target *t, struct wplan *p, struct gguf_save_info *info,
    struct gguf_err *err)
{
	char	why[160];
	long	pid;
	int	trust;

	memset(info, 0, sizeof *info);
	trust = gguf_journal_trust(d->real, why, sizeof why);
	/*
	 * One not ours is ignored, but not saved beside: a copy elsewhere
	 * (o->path, never the source itself: see target_get) goes on.
	 */
	if (trust == GGUF_JOURNAL_FOREIGN && o->path != NULL)
		trust = GGUF_JOURNAL_NONE;
	if (trust != GGUF_JOURNAL_NONE) {
		if ((pid = gguf_save_holder(d->real)) != 0)
			return held_err(pid, err);
		if (trust == GGUF_JOURNAL_FOREIGN)
			return gguf_errf(err, -1, "a journal that is not ours "
			    "is beside the file (%s): not saving while it is "
			    "there (remove it if it is not yours)", why);
		return gguf_errf(err, -1, "an interrupted save left a journal "
		    "beside the file: recover it first");
	}
	if (gguf_plan(d, o->reserve, p, info, err) != 0) {
		gguf_plan_free(p);
		return -1;
	}
	/* A read-only file is replaced, not written: its mode stays. */
	if (o->path == NULL && p->inplace_ok && !o->no_inplace && !t->ro)
		info->how = GGUF_SAVE_INPLACE;
	else
		info->how = GGUF_SAVE_REWRITE;
	info->nlink = t->exists ? (unsigned long)t->st.st_nlink : 0;
	if (t->exists && t->st.st_nlink > 1)
		gguf_notice(info, "the file has %lu names (hard links): %s",
		    (unsigned long)t->st.st_nlink, info->how ==
		    GGUF_SAVE_INPLACE ? "saving in place changes them all" :
		    "a rewrite changes this one only, the others keep the old "
		    "content");
	return 0;
}

int
gguf_doc_plan_save(struct gguf_doc *d, const struct gguf_save_opts *o,
    struct gguf_save_info *info, struct gguf_err *err)
{
	struct wplan	p;
	struct target	t;
	long		pid;

	/* The target's own refusals are gguf_doc_check_target's. */
	memset(&t, 0, sizeof t);
	if (o->path == NULL) {
		t.exists = stat(d->real, &t.st) == 0;
		t.ro = t.exists && gguf_read_only(&t.st, d->real);
	} else
		t.exists = stat(o->path, &t.st) == 0;
	if ((pid = gguf_save_holder(o->path != NULL ? o->path : d->real)) != 0)
		return held_err(pid, err);
	if (o->path == NULL && gguf_n_shards(d->f) > 0)
		return gguf_set_plan(d, o, info, err);
	if (decide(d, o, &t, &p, info, err) != 0)
		return -1;
	gguf_plan_free(&p);
	return 0;
}

int
gguf_doc_save(struct gguf_doc *d, const struct gguf_save_opts *o,
    struct gguf_save_info *info, struct gguf_err *err)
{
	struct wplan	 p;
	struct target	 t;
	struct savelock	 lk;
	long		 stale;
	int		 rc = -1, changed;

	if (target_get(d, o, &t, err) != 0)
		return -1;
	if (o->path == NULL && gguf_n_shards(d->f) > 0) {
		free(t.path);
		if (gguf_set_save(d, o, info, err) != 0)
			return -1;
		if (!o->no_reopen && info->shards_written > 0 &&
		    gguf_doc_reload(d, err) != 0)
			return 1;
		return 0;
	}
	if (gguf_lock_take(t.path, &lk, err) != 0) {
		free(t.path);
		return -1;
	}
	stale = lk.stale;
	if ((changed = check_source(d, o->force, err)) < 0 ||
	    decide(d, o, &t, &p, info, err) != 0)
		goto out;
	if (stale > 0)
		gguf_notice(info, "took over the lock that process %ld left "
		    "(it is gone)", stale);
	if (changed) {
		info->how = GGUF_SAVE_REWRITE;	/* the old header is not known */
		info->source_changed = 1;
	}
	if (info->how == GGUF_SAVE_INPLACE)
		rc = inplace(d, &p, o, info, err);
	else
		rc = rewrite(d, &p, t.path, o, info, err);
	gguf_plan_free(&p);
out:
	gguf_lock_release(&lk);
	free(t.path);
	if (rc != 0)
		return -1;
	if (o->path == NULL && !o->no_reopen && gguf_doc_reload(d, err) != 0)
		return 1;
	return 0;
}
