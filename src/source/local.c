/*
 * local.c - the source of a local file: read with pread, mapped once
 * on demand (MAP_PRIVATE, read-only), its reads of the mapping guarded
 * against the file shrinking (guard.c), its identity at open (device,
 * inode, size, modification time) the measure of "changed on disk".
 *
 * Pinning: the first bytes of the mapping (the header region the
 * reader's index points into) can be replaced by an anonymous copy.
 * Copy-on-write pages of a private file mapping are not enough: when the
 * file is truncated the kernel drops those too, and the next read of the
 * index would be a SIGBUS. Anonymous pages belong to the process alone.
 */
#include "config.h"

#include <sys/mman.h>
#include <sys/stat.h>

#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "guard.h"
#include "io.h"
#include "source.h"
#include "xmalloc.h"

#define HUGE_PAGE	((uint64_t)2 << 20)
#define PAGE		4096u

struct local {
	int		 fd;
	dev_t		 dev;		/* identity at open */
	ino_t		 ino;
	struct timespec	 mtime;
	const uint8_t	*base;		/* the mapping, once made */
	int		 mapped;	/* base is a mapping of size bytes */
	uint64_t	 pinned;	/* bytes of base that are private */
	int		 soft;		/* the soft region's slot, or -1 */
	int		 no_cfr;	/* copy_file_range refused once */
};

/* 1234567 -> "1,234,567". */
static const char *
group(uint64_t v, char *buf, size_t len)
{
	char	tmp[32];
	size_t	n, i, o = 0;

	n = (size_t)snprintf(tmp, sizeof tmp, "%llu", (unsigned long long)v);
	for (i = 0; i < n && o + 2 < len; i++) {
		if (i > 0 && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = tmp[i];
	}
	buf[o] = '\0';
	return buf;
}

static int
local_read(struct gguf_source *s, uint64_t off, void *buf, size_t len,
    struct gguf_srcerr *e)
{
	struct local	*l = s->impl;
	size_t		 got = 0;
	ssize_t		 r;

	while (got < len) {
		r = pread(l->fd, (uint8_t *)buf + got, len - got,
		    (off_t)(off + got));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return gguf_srcerr_set(e, GGUF_SRCE_IO,
			    (int64_t)(off + got), "read: %s", strerror(errno));
		if (r == 0)
			return gguf_source_short(s, off, got, len, e);
		got += (size_t)r;
	}
	return 0;
}

static const uint8_t *
local_map(struct gguf_source *s, struct gguf_srcerr *e)
{
	struct local	*l = s->impl;
	void		*p;
	int		 en;

	if (l->base != NULL)
		return l->base;
	if (s->size == 0) {
		l->base = (const uint8_t *)"";
		return l->base;
	}
	if ((en = gguf_io_mmap_fails()) != 0) {
		errno = en;
		p = MAP_FAILED;
	} else
		p = mmap(NULL, (size_t)s->size, PROT_READ, MAP_PRIVATE, l->fd,
		    0);
	if (p == MAP_FAILED) {
		gguf_srcerr_set(e, GGUF_SRCE_IO, -1, "cannot map the file: %s",
		    strerror(errno));
		return NULL;
	}
	l->base = p;
	l->mapped = 1;
	return l->base;
}

static int
same_time(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec == b->tv_sec && a->tv_nsec == b->tv_nsec;
}

static int
local_changed(struct gguf_source *s, unsigned how, struct gguf_srcerr *e)
{
	struct local	*l = s->impl;
	struct stat	 st;
	char		 a[32], b[32];

	if (fstat(l->fd, &st) != 0)
		return gguf_srcerr_set(e, GGUF_SRCE_CHANGED, -1, "%s",
		    strerror(errno)), 1;
	if ((uint64_t)st.st_size < s->size)
		return gguf_srcerr_set(e, GGUF_SRCE_CHANGED, -1, "cut to %s "
		    "bytes (%s when opened)",
		    group((uint64_t)st.st_size, a, sizeof a),
		    group(s->size, b, sizeof b)), 1;
	if ((uint64_t)st.st_size != s->size)
		return gguf_srcerr_set(e, GGUF_SRCE_CHANGED, -1, "grown to %s "
		    "bytes (%s when opened)",
		    group((uint64_t)st.st_size, a, sizeof a),
		    group(s->size, b, sizeof b)), 1;
	if (!same_time(&st.st_mtim, &l->mtime))
		return gguf_srcerr_set(e, GGUF_SRCE_CHANGED, -1, "written to "
		    "since it was opened"), 1;
	if ((how & GGUF_SRC_CHANGE_NAME) && s->name != NULL) {
		if (stat(s->name, &st) != 0)
			return gguf_srcerr_set(e, GGUF_SRCE_CHANGED, -1, "%s",
			    errno == ENOENT ? "removed" : strerror(errno)), 1;
		if (st.st_dev != l->dev || st.st_ino != l->ino)
			return gguf_srcerr_set(e, GGUF_SRCE_CHANGED, -1,
			    "replaced by another file"), 1;
	}
	return 0;
}

static void
local_identity(struct gguf_source *s, char *buf, size_t len)
{
	struct local	*l = s->impl;

	snprintf(buf, len, "%llu:%llu %llu %lld.%09ld",
	    (unsigned long long)l->dev, (unsigned long long)l->ino,
	    (unsigned long long)s->size, (long long)l->mtime.tv_sec,
	    (long)l->mtime.tv_nsec);
}

/*
 * Anonymous memory for a copy of n bytes, populated at once (one call,
 * not a fault per page). From 2 MiB on, aligned to 2 MiB and in huge
 * pages where the system gives them on request: a 7 MB vocabulary is
 * then a few pages to clear and map, not 1,700.
 */
static void *
anon_region(uint64_t n)
{
	uint8_t		*p, *a;
	uintptr_t	 at;

	if (n < HUGE_PAGE)
		return mmap(NULL, (size_t)n, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	p = mmap(NULL, (size_t)(n + HUGE_PAGE), PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return p;
	at = ((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
	a = (uint8_t *)at;
	if (a > p)
		munmap(p, (size_t)(a - p));
	munmap(a + n, (size_t)(p + n + HUGE_PAGE - (a + n)));
#ifdef MADV_HUGEPAGE
	(void)madvise(a, (size_t)n, MADV_HUGEPAGE);
#endif
	xpopulate(a, (size_t)n);
	return a;
}

static int
local_pin(struct gguf_source *s, uint64_t len, struct gguf_srcerr *e)
{
	struct local	*l = s->impl;
	struct gguf_guard_copy pj;
	struct gguf_srcerr re;
	long		 pg = sysconf(_SC_PAGESIZE);
	uint64_t	 page = pg > 0 ? (uint64_t)pg : PAGE, end;
	void		*anon, *moved;
	int		 rc;

	if (!l->mapped || len <= l->pinned)
		return 0;
	end = (len + page - 1) / page * page;
	anon = anon_region(end);
	if (anon == MAP_FAILED)
		return gguf_srcerr_set(e, GGUF_SRCE_IO, -1, "cannot copy the "
		    "header: %s", strerror(errno));
	/*
	 * The last page may hold bytes past len: copied anyway, so that the
	 * mapping reads as the file everywhere. Read from the file: taken
	 * from the mapping, each page of it would be faulted in to be read
	 * once (a 7 MB vocabulary: 1,700 pages). A read that does not give
	 * them all (the file cut, an error) leaves it to the mapping, which
	 * says what is there as every other read of it does (a fault; zeros
	 * where a soft region lost its bytes).
	 */
	pj.src = l->base;
	pj.dst = anon;
	pj.n = (size_t)(end < s->size ? end : s->size);
	rc = -1;
	if (l->pinned <= pj.n) {
		/* what is private already stays as it was copied */
		memcpy(anon, l->base, (size_t)l->pinned);
		if (local_read(s, l->pinned, (uint8_t *)anon + l->pinned,
		    pj.n - (size_t)l->pinned, &re) == 0)
			rc = 0;
	}
	if (rc != 0)
		rc = gguf_guard_run(l->base, s->size, gguf_guard_copy_cb,
		    &pj);
	if (rc != 0) {
		munmap(anon, (size_t)end);
		return gguf_srcerr_set(e, GGUF_SRCE_CHANGED, -1, "changed on "
		    "disk while it was being opened");
	}
	mprotect(anon, (size_t)end, PROT_READ);
	moved = mremap(anon, (size_t)end, (size_t)end,
	    MREMAP_MAYMOVE | MREMAP_FIXED, (void *)(uintptr_t)l->base);
	if (moved == MAP_FAILED) {
		munmap(anon, (size_t)end);
		return gguf_srcerr_set(e, GGUF_SRCE_IO, -1, "cannot copy the "
		    "header: %s", strerror(errno));
	}
	l->pinned = pj.n;
	s->pinned = pj.n;
	gguf_guard_soft_drop(l->soft);	/* private now, if it was soft */
	l->soft = -1;
	return 0;
}

/*
 * The mappings of closed files, left for the process's exit to take down
 * (gguf_source_unmap_late): an munmap costs a flush of the address
 * space's translations, some 10 us a shard of a set, which the exit does
 * once for all. At most LATE_MAX are kept; the oldest goes first.
 */
#define LATE_MAX	64

static struct {
	void	*p;
	size_t	 n;
} late[LATE_MAX];
static size_t		late_n, late_next;
static int		late_on;
static pthread_mutex_t	late_mu = PTHREAD_MUTEX_INITIALIZER;

void
gguf_source_unmap_late(int on)
{
	late_on = on;
}

static void
unmap(void *p, size_t n)
{
	pthread_mutex_lock(&late_mu);
	if (!late_on) {
		pthread_mutex_unlock(&late_mu);
		munmap(p, n);
		return;
	}
	if (late_n < LATE_MAX) {
		late[late_n].p = p;
		late[late_n++].n = n;
		p = NULL;
	} else {			/* the oldest goes, p takes its place */
		void	*q = late[late_next].p;
		size_t	 m = late[late_next].n;

		late[late_next].p = p;
		late[late_next].n = n;
		late_next = (late_next + 1) % LATE_MAX;
		p = q;
		n = m;
	}
	pthread_mutex_unlock(&late_mu);
	if (p != NULL)
		munmap(p, n);
}

static int
local_soften(struct gguf_source *s, uint64_t len)
{
	struct local	*l = s->impl;

	if (!l->mapped)
		return -1;
	if (l->soft >= 0 || l->pinned > 0)
		return 0;		/* so already, or private */
	l->soft = gguf_guard_soft(l->base, len);
	return l->soft >= 0 ? 0 : -1;
}

static int
local_guard(struct gguf_source *s, int (*fn)(void *), void *arg)
{
	struct local	*l = s->impl;
	int		 rc;

	if (!l->mapped)
		return fn(arg);
	rc = gguf_guard_run(l->base, s->size, fn, arg);
	return rc == GGUF_GUARD_FAULT ? GGUF_SRC_FAULT : rc;
}

static void
local_sequential(struct gguf_source *s, uint64_t off, uint64_t len)
{
	struct local	*l = s->impl;
	uintptr_t	 a, z;

	if (l->mapped) {
		a = (uintptr_t)(l->base + off) & ~(uintptr_t)(PAGE - 1);
		z = (uintptr_t)(l->base + off) + (uintptr_t)len;
		(void)madvise((void *)a, (size_t)(z - a), MADV_SEQUENTIAL);
	}
	(void)posix_fadvise(l->fd, (off_t)off, (off_t)len,
	    POSIX_FADV_SEQUENTIAL);
}

static void
local_release(struct gguf_source *s, uint64_t off, uint64_t len)
{
	struct local	*l = s->impl;
	uintptr_t	 a, z, lo, hi, p;

	if (!l->mapped)
		return;
	/* the pinned pages are the process's own copy: never dropped */
	p = (uintptr_t)(l->base + off);
	lo = (uintptr_t)l->base + (uintptr_t)l->pinned;
	hi = (uintptr_t)l->base + (uintptr_t)s->size;
	a = p & ~(uintptr_t)(PAGE - 1);
	z = (p + (uintptr_t)len + PAGE - 1) & ~(uintptr_t)(PAGE - 1);
	if (a < lo)
		a = (lo + PAGE - 1) & ~(uintptr_t)(PAGE - 1);
	if (z > ((hi + PAGE - 1) & ~(uintptr_t)(PAGE - 1)))
		z = (hi + PAGE - 1) & ~(uintptr_t)(PAGE - 1);
	if (a < z)
		(void)madvise((void *)a, (size_t)(z - a), MADV_DONTNEED);
}

/*
 * One madvise maps the range's pages in, where a read of the mapping
 * faults every few pages (each fault a trip through the kernel: a scan of
 * 1 GiB took 16k of them). A kernel without MADV_POPULATE_READ (before
 * Linux 5.14) says EINVAL once and is not asked again; any other failure
 * (a file cut on disk: EFAULT) leaves the pages to fault as before,
 * where the guard catches what must be caught.
 */
static void
local_populate(struct gguf_source *s, uint64_t off, uint64_t len)
{
#ifdef MADV_POPULATE_READ
	static int	 unsupported;
	struct local	*l = s->impl;
	uintptr_t	 a, z;
	int		 saved = errno;

	if (!l->mapped || __atomic_load_n(&unsupported, __ATOMIC_RELAXED))
		return;
	a = (uintptr_t)(l->base + off) & ~(uintptr_t)(PAGE - 1);
	z = (uintptr_t)(l->base + off) + (uintptr_t)len;
	if (madvise((void *)a, (size_t)(z - a), MADV_POPULATE_READ) != 0 &&
	    errno == EINVAL)
		__atomic_store_n(&unsupported, 1, __ATOMIC_RELAXED);
	errno = saved;
#else
	(void)s;
	(void)off;
	(void)len;
#endif
}

static int
local_copy(struct gguf_source *s, uint64_t off, uint64_t len, int fd,
    uint64_t fdoff, gguf_source_progress fn, void *parg,
    struct gguf_srcerr *e)
{
	struct local	*l = s->impl;
	uint64_t	 done = 0;
	loff_t		 in, out;
	ssize_t		 r;
	size_t		 k;
	uint8_t		*buf = NULL;
	ssize_t		 w;
	size_t		 o;
	int		 rc = -1;

	while (done < len) {
		k = len - done < (8u << 20) ? (size_t)(len - done) : 8u << 20;
		r = -1;
		if (!l->no_cfr) {
			in = (loff_t)(off + done);
			out = (loff_t)(fdoff + done);
			r = copy_file_range(l->fd, &in, fd, &out, k, 0);
			if (r < 0 && errno == EINTR)
				continue;
			if (r < 0 && errno != EXDEV && errno != ENOSYS &&
			    errno != EOPNOTSUPP && errno != EINVAL &&
			    errno != EPERM) {
				gguf_srcerr_set(e, GGUF_SRCE_IO, -1, "copying: "
				    "%s", strerror(errno));
				goto out;
			}
			if (r < 0)
				l->no_cfr = 1;
			else if (r == 0) {
				gguf_source_short(s, off + done, 0, k, e);
				goto out;
			}
		}
		if (r < 0) {
			if (buf == NULL && (buf = malloc(8u << 20)) == NULL) {
				gguf_srcerr_set(e, GGUF_SRCE_IO, -1,
				    "out of memory");
				goto out;
			}
			if (local_read(s, off + done, buf, k, e) != 0)
				goto out;
			for (o = 0; o < k; o += (size_t)w) {
				w = pwrite(fd, buf + o, k - o,
				    (off_t)(fdoff + done + o));
				if (w < 0 && errno == EINTR) {
					w = 0;
					continue;
				}
				if (w <= 0) {
					gguf_srcerr_set(e, GGUF_SRCE_IO, -1,
					    "write: %s", w < 0 ?
					    strerror(errno) : "no progress");
					goto out;
				}
			}
			r = (ssize_t)k;
		}
		done += (uint64_t)r;
		if (fn != NULL && fn(parg, done, len) != 0) {
			gguf_srcerr_set(e, GGUF_SRCE_CANCEL, -1, "cancelled");
			goto out;
		}
	}
	rc = 0;
out:
	free(buf);
	return rc;
}

static int
local_fd(struct gguf_source *s)
{
	return ((struct local *)s->impl)->fd;
}

static void
local_close(struct gguf_source *s)
{
	struct local	*l = s->impl;

	gguf_guard_soft_drop(l->soft);	/* before its pages go */
	if (l->mapped)
		unmap((void *)(uintptr_t)l->base, (size_t)s->size);
	close(l->fd);
	free(l);
}

static const struct gguf_source_ops local_ops = {
	.kind = "file",
	.word = "changed on disk",
	.read = local_read,
	.map = local_map,
	.changed = local_changed,
	.identity = local_identity,
	.pin = local_pin,
	.soften = local_soften,
	.guard = local_guard,
	.sequential = local_sequential,
	.release = local_release,
	.populate = local_populate,
	.copy = local_copy,
	.fd = local_fd,
	.close = local_close
};

struct gguf_source *
gguf_source_file_own(int fd, const struct stat *given, const char *name,
    struct gguf_srcerr *e)
{
	struct gguf_source	*s;
	struct local		*l;
	struct stat		 st;
	int			 en;

	if (given != NULL)
		st = *given;
	else if (fstat(fd, &st) != 0) {
		en = errno;
		gguf_srcerr_set(e, GGUF_SRCE_OPEN, -1, "%s", strerror(en));
		close(fd);
		errno = en;
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		gguf_srcerr_set(e, GGUF_SRCE_OPEN, -1, "not a regular file");
		close(fd);
		errno = EINVAL;
		return NULL;
	}
	s = calloc(1, sizeof *s);
	l = calloc(1, sizeof *l);
	if (s == NULL || l == NULL || (name != NULL &&
	    (s->name = strdup(name)) == NULL)) {
		gguf_srcerr_set(e, GGUF_SRCE_OPEN, -1, "out of memory");
		if (s != NULL)
			free(s->name);
		free(s);
		free(l);
		close(fd);
		return NULL;
	}
	l->fd = fd;
	l->soft = -1;
	l->dev = st.st_dev;
	l->ino = st.st_ino;
	l->mtime = st.st_mtim;
	s->ops = &local_ops;
	s->size = (uint64_t)st.st_size;
	s->mappable = 1;
	s->impl = l;
	gguf_guard_init();
	return s;
}

struct gguf_source *
gguf_source_file_fd(int fd, const char *name, struct gguf_srcerr *e)
{
	int	own;

	if ((own = fcntl(fd, F_DUPFD_CLOEXEC, 0)) < 0) {
		gguf_srcerr_set(e, GGUF_SRCE_OPEN, -1, "%s", strerror(errno));
		return NULL;
	}
	return gguf_source_file_own(own, NULL, name, e);
}

struct gguf_source *
gguf_source_file(const char *path, struct gguf_srcerr *e)
{
	struct stat		 st;
	int			 fd, en;

	/* O_NONBLOCK: a FIFO opens at once instead of waiting for a
	   writer, and no device waits for a carrier. */
	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0) {
		en = errno;
		gguf_srcerr_set(e, GGUF_SRCE_OPEN, -1, "%s", strerror(en));
		errno = en;
		return NULL;
	}
	if (fstat(fd, &st) != 0)
		en = errno;
	else
		en = S_ISREG(st.st_mode) ? 0 : EINVAL;
	if (en != 0) {
		gguf_srcerr_set(e, GGUF_SRCE_OPEN, -1, "%s", en == EINVAL ?
		    "not a regular file" : strerror(en));
		close(fd);
		errno = en;
		return NULL;
	}
	return gguf_source_file_own(fd, &st, path, e);
}
