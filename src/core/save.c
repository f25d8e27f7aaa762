/*
 * save.c - saving a document without ever losing the model.
 *
 * Two paths.
 *
 * The rewrite, always safe: a new file is created beside the target (same
 * directory, so same filesystem), its space reserved up front so a full
 * disk fails before anything is written, the whole file written, fsynced
 * and closed (errors of a delayed write show there), read back with the
 * reader to check that it parses to the planned counts and layout, and
 * only then renamed over the target; the directory is fsynced so the
 * rename itself is durable. Until the rename the target is untouched; on
 * any failure (ENOSPC, EDQUOT, EIO, EACCES, EFBIG, a cancel) the
 * temporary file is removed. The new file gets the target's permission
 * bits (and owner, where allowed); a symlinked target is followed and the
 * file it names is replaced.
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
 *
 * Journal layout, little-endian:
 *
 *	0	"GGUFEDJ1"
 *	8	u64 offset of the saved range in the model
 *	16	u64 its length L
 *	24	u64 model size
 *	32	u64 hash of the saved bytes
 *	40	u64 hash of bytes 0..39
 *	48	the old bytes, L
 *
 * Only the range that differs between the old and the new header region
 * is journaled and written: a fixed-size edit costs a few bytes.
 *
 * Before either path, the source is checked against the identity it had
 * when it was opened (device, inode, size, mtime): a file changed by
 * someone else is not overwritten unless forced.
 */
#include "config.h"

#include <sys/stat.h>
#include <sys/statvfs.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "docint.h"

#define JOURNAL_SUFFIX	".ggufed-journal"
#define JOURNAL_MAGIC	"GGUFEDJ1"
#define JOURNAL_HEAD	48

int	gguf_doc_reload(struct gguf_doc *d, struct gguf_err *err);

int	(*gguf_fault_hook)(const char *step);

/* ------------------------------------------------------------------ faults */

int
gguf_fault(const char *step, struct gguf_err *err)
{
	const char	*e;

	if (gguf_fault_hook != NULL) {
		if (gguf_fault_hook(step) != 0)
			return gguf_errf(err, -1, "I/O error (injected at "
			    "step %s)", step);
		return 0;
	}
	e = getenv("GGUFED_FAULT");
	if (e != NULL && strcmp(e, step) == 0)
		_exit(GGUF_FAULT_EXIT);
	return 0;
}

/* ---------------------------------------------------------------- helpers */

static void
split_path(const char *path, char **dir, char **base)
{
	const char	*slash = strrchr(path, '/');

	if (slash == NULL) {
		*dir = gguf_xstrdup(".");
		*base = gguf_xstrdup(path);
	} else if (slash == path) {
		*dir = gguf_xstrdup("/");
		*base = gguf_xstrdup(slash + 1);
	} else {
		*dir = gguf_xstrndup(path, (size_t)(slash - path));
		*base = gguf_xstrdup(slash + 1);
	}
}

static int
sync_dir(const char *path, struct gguf_err *err)
{
	char	*dir, *base;
	int	 fd, rc = 0;

	split_path(path, &dir, &base);
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

static int
pwrite_all(int fd, const uint8_t *p, uint64_t n, uint64_t off,
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

	if (stat(d->real, &st) != 0) {
		if (force)
			return 1;
		return gguf_errf(err, -1, "the file being edited is gone "
		    "(%s)", strerror(errno));
	}
	why = src_changed(d, &st);
	if (why == NULL)
		return 0;
	if (force)
		return 1;
	return gguf_errf(err, -1, "the file %s on disk since it was opened: "
	    "not overwriting it (reopen it, or force)", why);
}

/* ---------------------------------------------------------------- rewrite */

static int
create_temp(const char *dir, const char *base, char **tmp,
    struct gguf_err *err)
{
	static unsigned	 seq;
	struct timespec	 ts;
	size_t		 len;
	int		 fd, tries;

	len = strlen(dir) + strlen(base) + 64;
	*tmp = gguf_xmalloc(len);
	for (tries = 0; tries < 100; tries++) {
		clock_gettime(CLOCK_REALTIME, &ts);
		snprintf(*tmp, len, "%s/.%s.ggufed-%ld-%u-%lx", dir, base,
		    (long)getpid(), seq++, (unsigned long)ts.tv_nsec);
		fd = gguf_io_open(*tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
		    0666);
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

static int
rewrite(struct gguf_doc *d, const struct wplan *p, const char *target,
    const struct gguf_save_opts *o, struct gguf_save_info *info,
    struct gguf_err *err)
{
	struct stat	 tst;
	struct wsink	 s;
	char		*dir, *base, *tmp = NULL;
	int		 fd, exists, rc = -1;

	split_path(target, &dir, &base);
	exists = stat(target, &tst) == 0;
	gguf_sink_init(&s, -1, 0, NULL, NULL);
	fd = create_temp(dir, base, &tmp, err);
	if (fd < 0)
		goto out;
	if (exists) {
		if (fchmod(fd, tst.st_mode & 07777) != 0) {
			gguf_errf(err, -1, "cannot set permissions: %s",
			    strerror(errno));
			goto out;
		}
		if ((tst.st_uid != geteuid() || tst.st_gid != getegid()) &&
		    fchown(fd, tst.st_uid, tst.st_gid) != 0 &&
		    fchown(fd, (uid_t)-1, tst.st_gid) != 0)
			gguf_notice(info, "the file's owner could not be "
			    "kept");
		if (tst.st_nlink > 1)
			gguf_notice(info, "the file had %lu hard links: the "
			    "other names keep the old content",
			    (unsigned long)tst.st_nlink);
	}
	if (reserve_space(fd, d->fd, p->file_size, err) != 0)
		goto out;
	gguf_sink_free(&s);
	gguf_sink_init(&s, fd, p->file_size, o->progress, o->arg);
	if (gguf_write_header(d, p, &s, err) != 0 ||
	    gguf_write_data(d, p, fd, &s, err) != 0)
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
	    verify(tmp, p, err) != 0 ||
	    check_source(d, o->force, err) < 0)
		goto out;
	if (gguf_io_rename(tmp, target) != 0) {
		gguf_errf(err, -1, "rename: %s", strerror(errno));
		goto out;
	}
	free(tmp);
	tmp = NULL;
	if (sync_dir(target, err) != 0)
		goto out;
	info->how = GGUF_SAVE_REWRITE;
	info->written = p->file_size;
	rc = 0;
out:
	if (fd >= 0)
		close(fd);
	if (tmp != NULL) {
		unlink(tmp);
		free(tmp);
	}
	gguf_sink_free(&s);
	free(dir);
	free(base);
	return rc;
}

/* --------------------------------------------------------------- in place */

void
gguf_journal_path(const char *path, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s", path, JOURNAL_SUFFIX);
}

int
gguf_journal_exists(const char *path)
{
	char		jp[4096];
	struct stat	st;

	gguf_journal_path(path, jp, sizeof jp);
	return lstat(jp, &st) == 0;
}

static int
write_journal(const char *jpath, const uint8_t *old, uint64_t off,
    uint64_t len, uint64_t model_size, struct gguf_err *err)
{
	uint8_t	head[JOURNAL_HEAD];
	int	fd;

	memcpy(head, JOURNAL_MAGIC, 8);
	gguf_st64(head + 8, off, 0);
	gguf_st64(head + 16, len, 0);
	gguf_st64(head + 24, model_size, 0);
	gguf_st64(head + 32, gguf_hash(old, (size_t)len), 0);
	gguf_st64(head + 40, gguf_hash(head, 40), 0);
	fd = gguf_io_open(jpath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		if (errno == EEXIST)
			return gguf_errf(err, -1, "a journal of an interrupted "
			    "save exists: recover first");
		return gguf_errf(err, -1, "cannot create the journal: %s",
		    strerror(errno));
	}
	if (pwrite_all(fd, head, JOURNAL_HEAD, 0, err) != 0 ||
	    pwrite_all(fd, old, len, JOURNAL_HEAD, err) != 0)
		goto fail;
	if (gguf_io_fsync(fd) != 0) {
		gguf_errf(err, -1, "fsync of the journal: %s", strerror(errno));
		goto fail;
	}
	if (gguf_io_close(fd) != 0) {
		fd = -1;
		gguf_errf(err, -1, "close of the journal: %s", strerror(errno));
		goto fail;
	}
	fd = -1;
	/* Not durable, so not relied on: the model is still untouched. */
	if (sync_dir(jpath, err) != 0)
		goto fail;
	return 0;
fail:
	if (fd >= 0)
		close(fd);
	unlink(jpath);
	return -1;
}

static int
inplace(struct gguf_doc *d, const struct wplan *p,
    const struct gguf_save_opts *o, struct gguf_save_info *info,
    struct gguf_err *err)
{
	struct wsink	 s;
	struct stat	 st;
	struct gguf_err	 e2;
	const uint8_t	*old = gguf_base(d->f);
	uint8_t		*saved = NULL;
	const char	*why, *fault;
	const uint8_t	*nw;
	uint64_t	 lo, hi;
	char		 jpath[4096];
	int		 fd = -1, journal = 0, rc = -1;

	gguf_journal_path(d->real, jpath, sizeof jpath);
	gguf_sink_init(&s, -1, 0, NULL, NULL);
	if (gguf_write_header(d, p, &s, err) != 0)
		goto out;
	if (s.mem.n != p->data_off) {
		gguf_errf(err, -1, "internal error: header region of %llu "
		    "bytes, planned %llu", (unsigned long long)s.mem.n,
		    (unsigned long long)p->data_off);
		goto out;
	}
	info->how = GGUF_SAVE_INPLACE;
	nw = s.mem.p;
	for (lo = 0; lo < p->data_off && nw[lo] == old[lo]; lo++)
		;
	if (lo == p->data_off) {
		rc = 0;			/* nothing to write */
		goto out;
	}
	for (hi = p->data_off; hi > lo && nw[hi - 1] == old[hi - 1]; hi--)
		;
	fd = open(d->real, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) != 0) {
		gguf_errf(err, -1, "%s", strerror(errno));
		goto out;
	}
	if ((why = src_changed(d, &st)) != NULL) {
		gguf_errf(err, -1, "the file %s on disk since it was opened",
		    why);
		goto out;
	}

	/*
	 * The mapping is of this very file: once the new bytes are written
	 * it shows them. Keep the old ones apart for a rollback.
	 */
	saved = gguf_xmalloc((size_t)(hi - lo));
	memcpy(saved, old + lo, (size_t)(hi - lo));
	if (write_journal(jpath, saved, lo, hi - lo, d->size, err) != 0)
		goto out;
	journal = 1;
	if (gguf_fault("journal-written", err) != 0)
		goto rollback;
	fault = getenv("GGUFED_FAULT");
	if (gguf_fault_hook == NULL && fault != NULL &&
	    strcmp(fault, "torn") == 0) {
		pwrite_all(fd, nw + lo, (hi - lo + 1) / 2, lo, err);
		fsync(fd);
		_exit(GGUF_FAULT_EXIT);
	}
	if (pwrite_all(fd, nw + lo, hi - lo, lo, err) != 0)
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
	if (gguf_io_unlink(jpath) != 0 || sync_dir(jpath, err) != 0) {
		gguf_errf(err, -1, "the header was saved but the journal could "
		    "not be removed: %s", strerror(errno));
		goto out;
	}
	journal = 0;
	info->written = hi - lo;
	if (o->progress != NULL)
		o->progress(o->arg, p->data_off, p->data_off);
	rc = 0;
	goto out;

rollback:
	/* Put the old region back now; if that fails too, the journal stays. */
	if (fd >= 0 && pwrite_all(fd, saved, hi - lo, lo, &e2) == 0 &&
	    gguf_io_fsync(fd) == 0 && gguf_io_unlink(jpath) == 0) {
		sync_dir(jpath, &e2);
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

int
gguf_recover(const char *path, struct gguf_err *err)
{
	char		 jpath[4096];
	uint8_t		 head[JOURNAL_HEAD], *old = NULL;
	struct stat	 jst, mst;
	uint64_t	 off = 0, len = 0, msize = 0;
	ssize_t		 r;
	int		 jfd = -1, mfd = -1, rc = -1, valid = 0;

	gguf_journal_path(path, jpath, sizeof jpath);
	jfd = open(jpath, O_RDONLY | O_CLOEXEC);
	if (jfd < 0) {
		if (errno == ENOENT)
			return 0;
		return gguf_errf(err, -1, "cannot open the journal: %s",
		    strerror(errno));
	}
	if (fstat(jfd, &jst) != 0) {
		gguf_errf(err, -1, "journal: %s", strerror(errno));
		goto out;
	}
	r = pread(jfd, head, JOURNAL_HEAD, 0);
	if (r == JOURNAL_HEAD && memcmp(head, JOURNAL_MAGIC, 8) == 0 &&
	    gguf_ld64(head + 40, 0) == gguf_hash(head, 40)) {
		off = gguf_ld64(head + 8, 0);
		len = gguf_ld64(head + 16, 0);
		msize = gguf_ld64(head + 24, 0);
		if (off <= msize && len <= msize - off &&
		    (uint64_t)jst.st_size == JOURNAL_HEAD + len &&
		    len <= SIZE_MAX) {
			old = gguf_xmalloc((size_t)len);
			r = len > 0 ? pread(jfd, old, (size_t)len,
			    JOURNAL_HEAD) : 0;
			valid = r >= 0 && (uint64_t)r == len &&
			    gguf_hash(old, (size_t)len) ==
			    gguf_ld64(head + 32, 0);
		}
	}
	if (!valid) {
		/* Incomplete: written before the model was touched. */
		if (unlink(jpath) != 0) {
			gguf_errf(err, -1, "cannot remove the journal: %s",
			    strerror(errno));
			goto out;
		}
		sync_dir(jpath, err);
		rc = 2;
		goto out;
	}
	mfd = open(path, O_WRONLY | O_CLOEXEC);
	if (mfd < 0 || fstat(mfd, &mst) != 0) {
		gguf_errf(err, -1, "%s", strerror(errno));
		goto out;
	}
	if ((uint64_t)mst.st_size != msize) {
		gguf_errf(err, -1, "the model is %llu bytes, the journal was "
		    "made for %llu: not rolling back (the journal is kept)",
		    (unsigned long long)mst.st_size,
		    (unsigned long long)msize);
		goto out;
	}
	if (pwrite_all(mfd, old, len, off, err) != 0)
		goto out;
	if (gguf_io_fsync(mfd) != 0) {
		gguf_errf(err, -1, "fsync: %s", strerror(errno));
		goto out;
	}
	if (unlink(jpath) != 0) {
		gguf_errf(err, -1, "cannot remove the journal: %s",
		    strerror(errno));
		goto out;
	}
	if (sync_dir(jpath, err) != 0)
		goto out;
	rc = 1;
out:
	free(old);
	if (jfd >= 0)
		close(jfd);
	if (mfd >= 0)
		close(mfd);
	return rc;
}

/* ------------------------------------------------- interrupted rewrites */

/*
 * A rewrite's temporary file is ".BASE.ggufed-PID-SEQ-NS" beside the
 * target. A crash or a kill leaves it behind; it is stale once no process
 * PID is alive.
 */
static int
stale_temp(const char *name, const char *base)
{
	size_t	 bl = strlen(base);
	char	*end;
	long	 pid;

	if (name[0] != '.' || strncmp(name + 1, base, bl) != 0 ||
	    strncmp(name + 1 + bl, ".ggufed-", 8) != 0)
		return 0;
	pid = strtol(name + 1 + bl + 8, &end, 10);
	if (end == name + 1 + bl + 8 || *end != '-' || pid <= 0)
		return 0;
	return kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

int
gguf_stale_temps(const char *path, int remove, struct gguf_err *err)
{
	struct dirent	*de;
	DIR		*dp;
	char		*real, *dir, *base, *full;
	size_t		 len;
	int		 n = 0;

	real = realpath(path, NULL);
	split_path(real != NULL ? real : path, &dir, &base);
	free(real);
	if ((dp = opendir(dir)) == NULL) {
		free(dir);
		free(base);
		return 0;
	}
	while ((de = readdir(dp)) != NULL) {
		if (!stale_temp(de->d_name, base))
			continue;
		if (remove) {
			len = strlen(dir) + strlen(de->d_name) + 2;
			full = gguf_xmalloc(len);
			snprintf(full, len, "%s/%s", dir, de->d_name);
			if (unlink(full) != 0) {
				gguf_errf(err, -1, "cannot remove %s: %s",
				    de->d_name, strerror(errno));
				free(full);
				n = -1;
				break;
			}
			free(full);
		}
		n++;
	}
	closedir(dp);
	free(dir);
	free(base);
	return n;
}

/* ------------------------------------------------------------------- save */

/* Where a save goes: the resolved target; -1 if it may not go there. */
static int
resolve_target(struct gguf_doc *d, const struct gguf_save_opts *o,
    char **target, struct gguf_err *err)
{
	struct stat	st;
	char		*real;

	if (o->path == NULL) {
		*target = gguf_xstrdup(d->real);
		return 0;
	}
	if (lstat(o->path, &st) == 0 && S_ISLNK(st.st_mode)) {
		real = realpath(o->path, NULL);
		if (real == NULL)
			return gguf_errf(err, -1, "cannot follow the symlink: "
			    "%s", strerror(errno));
		*target = gguf_xstrdup(real);
		free(real);
	} else
		*target = gguf_xstrdup(o->path);
	if (stat(*target, &st) == 0) {
		if (!S_ISREG(st.st_mode)) {
			free(*target);
			return gguf_errf(err, -1, "not a regular file");
		}
		if (st.st_dev == d->dev && st.st_ino == d->ino) {
			free(*target);
			return gguf_errf(err, -1, "this is the file being "
			    "edited: save the document itself (in place) "
			    "instead of writing a copy over it");
		}
	}
	return 0;
}

static int
decide(struct gguf_doc *d, const struct gguf_save_opts *o, struct wplan *p,
    struct gguf_save_info *info, struct gguf_err *err)
{
	memset(info, 0, sizeof *info);
	if (d->journal || gguf_journal_exists(d->real))
		return gguf_errf(err, -1, "an interrupted save left a journal "
		    "beside the file: recover it first");
	if (gguf_plan(d, o->reserve, p, info, err) != 0) {
		gguf_plan_free(p);
		return -1;
	}
	if (o->path == NULL && p->inplace_ok && !o->no_inplace)
		info->how = GGUF_SAVE_INPLACE;
	else
		info->how = GGUF_SAVE_REWRITE;
	return 0;
}

int
gguf_doc_plan_save(struct gguf_doc *d, const struct gguf_save_opts *o,
    struct gguf_save_info *info, struct gguf_err *err)
{
	struct wplan	p;

	if (decide(d, o, &p, info, err) != 0)
		return -1;
	gguf_plan_free(&p);
	return 0;
}

int
gguf_doc_save(struct gguf_doc *d, const struct gguf_save_opts *o,
    struct gguf_save_info *info, struct gguf_err *err)
{
	struct wplan	 p;
	char		*target = NULL;
	int		 rc, changed;

	if (resolve_target(d, o, &target, err) != 0)
		return -1;
	if ((changed = check_source(d, o->force, err)) < 0 ||
	    decide(d, o, &p, info, err) != 0) {
		free(target);
		return -1;
	}
	if (changed)
		info->how = GGUF_SAVE_REWRITE;	/* the old header is not known */
	if (info->how == GGUF_SAVE_INPLACE)
		rc = inplace(d, &p, o, info, err);
	else
		rc = rewrite(d, &p, target, o, info, err);
	gguf_plan_free(&p);
	free(target);
	if (rc != 0)
		return -1;
	if (o->path == NULL && !o->no_reopen && gguf_doc_reload(d, err) != 0)
		return 1;
	return 0;
}
