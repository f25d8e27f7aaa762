/*
 * journal.c - what an interrupted save leaves, and the way back: the
 * journal of an in-place save (its name, its format, whether it is to be
 * trusted), the recovery of the model from it, and the temporary and
 * backup files an interrupted rewrite leaves (save.c says how a save
 * uses them).
 */
#include "config.h"

#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "storeint.h"
#include "set.h"

#define JOURNAL_SUFFIX	".ggufed-journal"
#define JOURNAL_MAGIC	"GGUFEDJ2"
#define JOURNAL_OLD	"GGUFEDJ1"	/* a format that said less */
#define JOURNAL_OLD_HEAD 48		/* its header, hashed up to 40 */
#define JOURNAL_HEAD	112

int
gguf_doc_has_journal(struct gguf_doc *d)
{
	char	why[160];

	return gguf_journal_trust(d->real, why, sizeof why);
}

/* --------------------------------------------------------------- in place */

void
gguf_journal_path(const char *path, char *buf, size_t len)
{
	char	*real = gguf_resolve(path);

	snprintf(buf, len, "%s%s", real, JOURNAL_SUFFIX);
	free(real);
}

/*
 * The journal of a set's save beside the first shard of the set path is
 * a shard of, in buf: 1 if there is one.
 */
static int
set_journal(const char *path, char *buf, size_t len)
{
	size_t	 plen;
	unsigned no, count;
	char	*first;

	if (gguf_set_name(path, &plen, &no, &count) != 0 || count < 2)
		return 0;
	first = gguf_set_path(path, plen, 1, count);
	gguf_journal_path(first, buf, len);
	free(first);
	return gguf_set_journal_is(buf);
}

int
gguf_journal_exists(const char *path)
{
	char		jp[4096];
	struct stat	st;

	gguf_journal_path(path, jp, sizeof jp);
	if (lstat(jp, &st) == 0)
		return 1;
	return set_journal(path, jp, sizeof jp);
}

int
gguf_journal_trust(const char *path, char *why, size_t len)
{
	char		jp[4096];
	struct stat	st;

	gguf_journal_path(path, jp, sizeof jp);
	if (lstat(jp, &st) != 0 && (!set_journal(path, jp, sizeof jp) ||
	    lstat(jp, &st) != 0))
		return GGUF_JOURNAL_NONE;
	if (gguf_not_ours(&st, why, len) != NULL)
		return GGUF_JOURNAL_FOREIGN;
	return GGUF_JOURNAL_OURS;
}

/* What a journal says besides the bytes. */
struct jhead {
	uint64_t	off;		/* the range written */
	uint64_t	len;
	uint64_t	size;		/* the model's identity before */
	uint64_t	dev;
	uint64_t	ino;
	uint64_t	mt_sec;
	uint64_t	mt_nsec;
	uint64_t	region;		/* end of the header region */
	uint64_t	h_pre;		/* hash of [0, off) */
	uint64_t	h_post;		/* hash of [off + len, region) */
	uint64_t	h_old;
	uint64_t	h_new;
};

static void
jhead_put(uint8_t *b, const struct jhead *h)
{
	memcpy(b, JOURNAL_MAGIC, 8);
	gguf_st64(b + 8, h->off, 0);
	gguf_st64(b + 16, h->len, 0);
	gguf_st64(b + 24, h->size, 0);
	gguf_st64(b + 32, h->dev, 0);
	gguf_st64(b + 40, h->ino, 0);
	gguf_st64(b + 48, h->mt_sec, 0);
	gguf_st64(b + 56, h->mt_nsec, 0);
	gguf_st64(b + 64, h->region, 0);
	gguf_st64(b + 72, h->h_pre, 0);
	gguf_st64(b + 80, h->h_post, 0);
	gguf_st64(b + 88, h->h_old, 0);
	gguf_st64(b + 96, h->h_new, 0);
	gguf_st64(b + 104, gguf_hash(b, 104), 0);
}

/* 0 if b is a whole journal header, in h. */
static int
jhead_get(const uint8_t *b, struct jhead *h)
{
	if (memcmp(b, JOURNAL_MAGIC, 8) != 0 ||
	    gguf_ld64(b + 104, 0) != gguf_hash(b, 104))
		return -1;
	h->off = gguf_ld64(b + 8, 0);
	h->len = gguf_ld64(b + 16, 0);
	h->size = gguf_ld64(b + 24, 0);
	h->dev = gguf_ld64(b + 32, 0);
	h->ino = gguf_ld64(b + 40, 0);
	h->mt_sec = gguf_ld64(b + 48, 0);
	h->mt_nsec = gguf_ld64(b + 56, 0);
	h->region = gguf_ld64(b + 64, 0);
	h->h_pre = gguf_ld64(b + 72, 0);
	h->h_post = gguf_ld64(b + 80, 0);
	h->h_old = gguf_ld64(b + 88, 0);
	h->h_new = gguf_ld64(b + 96, 0);
	if (h->region > h->size || h->off > h->region ||
	    h->len > h->region - h->off || h->len > SIZE_MAX / 4)
		return -1;
	return 0;
}

/*
 * The journal of an in-place save of the model whose identity is st and
 * whose header region [0, region) is old, which is to become nw in
 * [lo, hi): the old and the new bytes of that range, and what tells the
 * model apart from any other file.
 */
int
gguf_journal_write(const char *jpath, const struct stat *st,
    const uint8_t *old, const uint8_t *saved, const uint8_t *nw, uint64_t lo,
    uint64_t hi, uint64_t region, struct gguf_err *err)
{
	uint8_t		head[JOURNAL_HEAD];
	struct jhead	h;
	int		fd;

	memset(&h, 0, sizeof h);
	h.off = lo;
	h.len = hi - lo;
	h.size = (uint64_t)st->st_size;
	h.dev = (uint64_t)st->st_dev;
	h.ino = (uint64_t)st->st_ino;
	h.mt_sec = (uint64_t)st->st_mtim.tv_sec;
	h.mt_nsec = (uint64_t)st->st_mtim.tv_nsec;
	h.region = region;
	h.h_pre = gguf_hash(old, (size_t)lo);
	h.h_post = gguf_hash(old + hi, (size_t)(region - hi));
	h.h_old = gguf_hash(saved, (size_t)h.len);
	h.h_new = gguf_hash(nw + lo, (size_t)h.len);
	jhead_put(head, &h);
	fd = gguf_io_open(jpath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		if (errno == EEXIST)
			return gguf_errf(err, -1, "a journal of an interrupted "
			    "save exists: recover first");
		return gguf_errf(err, -1, "cannot create the journal: %s",
		    strerror(errno));
	}
	if (gguf_pwrite_all(fd, head, JOURNAL_HEAD, 0, err) != 0 ||
	    gguf_pwrite_all(fd, saved, h.len, JOURNAL_HEAD, err) != 0 ||
	    gguf_pwrite_all(fd, nw + lo, h.len, JOURNAL_HEAD + h.len, err) != 0)
		goto fail;
	if (gguf_io_fsync(fd) != 0) {
		gguf_errf(err, -1, "fsync: %s", strerror(errno));
		goto fail;
	}
	if (gguf_io_close(fd) != 0) {
		fd = -1;
		gguf_errf(err, -1, "close: %s", strerror(errno));
		goto fail;
	}
	fd = -1;
	/* Not durable, so not relied on: the model is still untouched. */
	if (gguf_sync_dir(jpath, err) != 0)
		goto fail;
	return 0;
fail:
	if (fd >= 0)
		close(fd);
	unlink(jpath);
	gguf_journal_failed(jpath, err);
	return -1;
}

void
gguf_journal_failed(const char *jpath, struct gguf_err *err)
{
	const char	*slash = strrchr(jpath, '/'), *why = err->msg;
	char		 msg[sizeof err->msg];

	if (strncmp(why, "write: ", 7) == 0)
		why += 7;
	memcpy(msg, why, strlen(why) + 1);
	gguf_errf(err, -1, "cannot write the journal %s: %s; nothing was "
	    "changed", slash != NULL ? slash + 1 : jpath, msg);
}

void
gguf_fault_torn(const char *step, int fd, const uint8_t *p, uint64_t n,
    uint64_t off)
{
	const char	*e = getenv("GGUFED_FAULT");
	struct gguf_err	 err;

	if (gguf_fault_hook != NULL || e == NULL || strcmp(e, step) != 0)
		return;
	gguf_pwrite_all(fd, p, (n + 1) / 2, off, &err);
	fsync(fd);
	_exit(GGUF_FAULT_EXIT);
}

/*
 * Why the model (identity st, header region bytes r) is not the file the
 * journal h (old and new bytes j) was made for, or NULL if it is: the
 * same inode, of the same size, no older, the header region the same
 * outside the range and inside it made of old or new bytes only (a torn
 * write leaves some of each).
 */
static const char *
not_journaled(const struct jhead *h, const uint8_t *j, const struct stat *st,
    const uint8_t *r)
{
	/*
	 * The inode, not the device: a filesystem's device number may be
	 * another after the reboot that follows a crash (btrfs subvolumes,
	 * LVM, removable disks), and the size, time and header hashes below
	 * tell the file apart anyway.
	 */
	if ((uint64_t)st->st_ino != h->ino)
		return "it is another file (its inode differs)";
	if ((uint64_t)st->st_size != h->size)
		return "its size differs";
	if ((uint64_t)st->st_mtim.tv_sec < h->mt_sec ||
	    ((uint64_t)st->st_mtim.tv_sec == h->mt_sec &&
	    (uint64_t)st->st_mtim.tv_nsec < h->mt_nsec))
		return "it is older";
	if (r == NULL)
		return NULL;
	return gguf_region_check(r, h->off, h->len, h->region, h->h_pre,
	    h->h_post, j, j + h->len);
}

const char *
gguf_region_check(const uint8_t *r, uint64_t off, uint64_t len,
    uint64_t region, uint64_t h_pre, uint64_t h_post, const uint8_t *old,
    const uint8_t *nw)
{
	uint64_t	i;

	if (gguf_hash(r, (size_t)off) != h_pre ||
	    gguf_hash(r + off + len, (size_t)(region - off - len)) != h_post)
		return "its header differs outside the saved range";
	for (i = 0; i < len; i++) {
		if (r[off + i] != old[i] && r[off + i] != nw[i])
			return "its header holds bytes the save never wrote";
	}
	return NULL;
}

/* Reads [0, n) of fd into a new buffer; NULL with err set on failure. */
uint8_t *
gguf_read_region(int fd, uint64_t n, struct gguf_err *err)
{
	uint8_t	*b = xmalloc(n > 0 ? (size_t)n : 1);
	uint64_t done = 0;
	ssize_t	 r;

	while (done < n) {
		r = pread(fd, b + done, (size_t)(n - done), (off_t)done);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			gguf_errf(err, -1, "reading the file: %s", r < 0 ?
			    strerror(errno) : "unexpected end");
			free(b);
			return NULL;
		}
		done += (uint64_t)r;
	}
	return b;
}

int
gguf_recover(const char *path, struct gguf_err *err)
{
	struct savelock	 lk;
	struct jhead	 h;
	struct stat	 jst, mst;
	const char	*why;
	char		*real, jpath[4096], whose[160];
	uint8_t		 head[JOURNAL_HEAD], *j = NULL, *r = NULL;
	ssize_t		 n;
	int		 jfd = -1, mfd = -1, rc = -1, valid = 0;

	/* A set's journal (beside its first shard) rolls back every shard. */
	gguf_journal_path(path, jpath, sizeof jpath);
	if (gguf_set_journal_is(jpath) || (access(jpath, F_OK) != 0 &&
	    set_journal(path, jpath, sizeof jpath)))
		return gguf_set_recover(path, jpath, err);
	/* One name for both: the file the links lead to. */
	real = gguf_resolve(path);
	snprintf(jpath, sizeof jpath, "%s%s", real, JOURNAL_SUFFIX);
	if (gguf_lock_take(real, &lk, err) != 0) {
		if (gguf_save_holder(real) == 0 &&
		    !gguf_journal_exists(real))
			rc = 0;		/* nothing to recover, nobody saving */
		free(real);
		return rc;
	}
	jfd = gguf_open_regular(jpath, O_RDONLY | O_NOFOLLOW, NULL);
	if (jfd < 0) {
		if (errno == ENOENT)
			rc = 0;
		else if (errno == ELOOP)
			gguf_errf(err, -1, "the journal beside the file is a "
			    "symbolic link: not trusted, nothing was touched "
			    "(remove it if it is not yours)");
		else
			gguf_errf(err, -1, "cannot open the journal: %s",
			    errno == EINVAL ? "not a regular file" :
			    strerror(errno));
		goto out;
	}
	if (fstat(jfd, &jst) != 0) {
		gguf_errf(err, -1, "journal: %s", strerror(errno));
		goto out;
	}
	if (gguf_not_ours(&jst, whose, sizeof whose) != NULL) {
		gguf_errf(err, -1, "the journal beside the file is %s: not "
		    "trusted, nothing was touched (remove it if it is not "
		    "yours)", whose);
		goto out;
	}
	n = pread(jfd, head, JOURNAL_HEAD, 0);
	if (n >= JOURNAL_OLD_HEAD && memcmp(head, JOURNAL_OLD, 8) == 0 &&
	    gguf_ld64(head + 40, 0) == gguf_hash(head, 40)) {
		gguf_errf(err, -1, "the journal is of an older format that "
		    "does not say which file it was made for: not rolling "
		    "back (the journal is kept)");
		goto out;
	}
	if (n == JOURNAL_HEAD && jhead_get(head, &h) == 0 &&
	    (uint64_t)jst.st_size == JOURNAL_HEAD + 2 * h.len) {
		j = xmalloc(h.len > 0 ? (size_t)(2 * h.len) : 1);
		n = h.len > 0 ? pread(jfd, j, (size_t)(2 * h.len),
		    JOURNAL_HEAD) : 0;
		valid = n >= 0 && (uint64_t)n == 2 * h.len &&
		    gguf_hash(j, (size_t)h.len) == h.h_old &&
		    gguf_hash(j + h.len, (size_t)h.len) == h.h_new;
	}
	if (!valid) {
		/* Incomplete: written before the model was touched. */
		if (unlink(jpath) != 0) {
			gguf_errf(err, -1, "cannot remove the journal: %s",
			    strerror(errno));
			goto out;
		}
		gguf_sync_dir(jpath, err);
		rc = 2;
		goto out;
	}
	mfd = gguf_open_regular(real, O_RDWR, err);
	if (mfd < 0)
		goto out;
	if (fstat(mfd, &mst) != 0) {
		gguf_errf(err, -1, "%s", strerror(errno));
		goto out;
	}
	if ((why = not_journaled(&h, j, &mst, NULL)) == NULL) {
		if ((r = gguf_read_region(mfd, h.region, err)) == NULL)
			goto out;
		why = not_journaled(&h, j, &mst, r);
	}
	if (why != NULL) {
		gguf_errf(err, -1, "this is not the file the journal was made "
		    "for (%s): not rolling back; the file is untouched and the "
		    "journal kept (remove it by hand if the file is right)",
		    why);
		goto out;
	}
	if (gguf_pwrite_all(mfd, j, h.len, h.off, err) != 0)
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
	if (gguf_sync_dir(jpath, err) != 0)
		goto out;
	rc = 1;
out:
	free(j);
	free(r);
	if (jfd >= 0)
		close(jfd);
	if (mfd >= 0)
		close(mfd);
	gguf_lock_release(&lk);
	free(real);
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

/* What the files of one directory are checked against. */
struct stale_of {
	char	*real;		/* the model, links followed */
	char	*base;		/* its name */
	int	 backup;	/* its set's committed save may have left
				   "BASE.ggufed-old"; -1 not known yet */
};

/* Whether a backup beside so is what a committed save left (asked once). */
static int
backup_left(struct stale_of *so)
{
	size_t		plen;
	unsigned	no, count;

	if (so->backup < 0)
		so->backup = gguf_set_name(so->real, &plen, &no, &count) == 0 &&
		    !gguf_journal_exists(so->real) &&
		    gguf_save_holder(so->real) == 0;
	return so->backup;
}

/* 1 if name is a killed save's temporary file, 2 a set's old shard. */
static int
stale_match(const char *name, struct stale_of *so, size_t n)
{
	size_t	i, bl;

	for (i = 0; i < n; i++) {
		bl = strlen(so[i].base);
		if (stale_temp(name, so[i].base))
			return 1;
		if (strncmp(name, so[i].base, bl) == 0 && strcmp(name + bl,
		    ".ggufed-old") == 0 && backup_left(&so[i]))
			return 2;
	}
	return 0;
}

/*
 * path with its links followed. Where path is named in the same folder as
 * the path given before it (ag, found at ar) and neither is a link, the
 * folder ar is in: one lstat instead of a walk of the path (a set's twenty
 * shards). NULL when path does not exist and skip is set; *link says
 * whether path is a link.
 */
static char *
resolve_near(const char *path, const char *ag, const char *ar, int skip,
    int *link)
{
	const char	*sa, *sb, *rs;
	struct stat	 st;
	size_t		 dl;
	char		*r;

	*link = 1;
	if (ag == NULL && !skip)	/* a lone file: no lstat to make */
		return gguf_resolve(path);
	if (lstat(path, &st) != 0)
		return errno == ENOENT && skip ? NULL : gguf_resolve(path);
	*link = S_ISLNK(st.st_mode);
	if (ag == NULL || *link)
		return gguf_resolve(path);
	sa = strrchr(ag, '/');
	sb = strrchr(path, '/');
	rs = strrchr(ar, '/');
	if ((sa == NULL) != (sb == NULL) || rs == NULL || (sa != NULL &&
	    (sa - ag != sb - path || strncmp(ag, path, (size_t)(sa - ag)))))
		return gguf_resolve(path);
	dl = (size_t)(rs - ar);		/* 0: the root */
	sb = sb != NULL ? sb + 1 : path;
	r = xmalloc(dl + strlen(sb) + 2);
	snprintf(r, dl + strlen(sb) + 2, "%.*s/%s", (int)dl, ar, sb);
	return r;
}

static int
stale_list(const char *const *paths, size_t npaths, int remove, int skip,
    struct gguf_leftovers *lo, struct gguf_err *err)
{
	struct gguf_leftovers	  sub;
	struct dirent		 *de;
	struct stat		  st;
	struct stale_of		 *so;
	DIR			 *dp = NULL;
	const char		 *ag = NULL, *ar = NULL;
	char			 *dir = NULL, *d2, *full;
	uint64_t		  sz;
	size_t			  len, i, n = 0;
	int			  found = 0, r, kind, link;

	memset(lo, 0, sizeof *lo);
	so = xcalloc(npaths > 0 ? npaths : 1, sizeof *so);
	for (i = 0; i < npaths; i++) {
		so[n].real = resolve_near(paths[i], ag, ar, skip, &link);
		if (so[n].real == NULL)
			continue;
		gguf_split_path(so[n].real, &d2, &so[n].base);
		/* A set's save that committed and died leaves backups. */
		so[n].backup = -1;
		if (dir == NULL)
			dir = d2;
		else if (strcmp(dir, d2) != 0) {
			/* another directory: on its own */
			free(d2);
			free(so[n].base);
			free(so[n].real);
			r = stale_list(&paths[i], 1, remove, skip, &sub, err);
			if (r < 0) {
				found = -1;
				goto out;
			}
			found += r;
			lo->temps += sub.temps;
			lo->temp_bytes += sub.temp_bytes;
			lo->backups += sub.backups;
			lo->backup_bytes += sub.backup_bytes;
			continue;
		} else
			free(d2);
		if (!link) {		/* the next shards' folder */
			ag = paths[i];
			ar = so[n].real;
		}
		n++;
	}
	if (dir == NULL || (dp = opendir(dir)) == NULL)
		goto out;
	while ((de = readdir(dp)) != NULL) {
		if ((kind = stale_match(de->d_name, so, n)) == 0)
			continue;
		len = strlen(dir) + strlen(de->d_name) + 2;
		full = xmalloc(len);
		snprintf(full, len, "%s/%s", dir, de->d_name);
		sz = lstat(full, &st) == 0 ? (uint64_t)st.st_size : 0;
		if (remove && unlink(full) != 0) {
			gguf_errf(err, -1, "cannot remove %s: %s", de->d_name,
			    strerror(errno));
			free(full);
			found = -1;
			goto out;
		}
		free(full);
		if (kind == 1) {
			lo->temps++;
			lo->temp_bytes += sz;
		} else {
			lo->backups++;
			lo->backup_bytes += sz;
		}
		found++;
	}
out:
	if (dp != NULL)
		closedir(dp);
	for (i = 0; i < n; i++) {
		free(so[i].base);
		free(so[i].real);
	}
	free(so);
	free(dir);
	return found;
}

int
gguf_stale_temps_list(const char *const *paths, size_t npaths, int remove,
    struct gguf_leftovers *lo, struct gguf_err *err)
{
	return stale_list(paths, npaths, remove, 1, lo, err);
}

int
gguf_stale_temps(const char *path, int remove, struct gguf_leftovers *lo,
    struct gguf_err *err)
{
	return stale_list(&path, 1, remove, 0, lo, err);
}
