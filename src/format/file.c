/*
 * file.c - where an open file's bytes come from: opening it through a
 * source (source/source.h), the checks that it is still what was opened,
 * and the guarded and unguarded reads of its data.
 *
 * A source that maps (a local file) has its header region (KV entries
 * and tensor infos, up to the data section) copied into memory of its own
 * when it is at most 1 MiB, as in most shards and small models (open_small:
 * a first 64 KiB, 32 KiB of a set's later shard, then what the walk says
 * the rest needs); a small file is then mapped only when its tensor data
 * is first needed (gguf_file_data), so that opening costs no mapping to
 * make, pin and tear down. A larger header is walked in place in the
 * mapping of the whole file, then made private memory (gguf_source_pin),
 * or, in a program that holds its files for moments (gguf_keep_headers),
 * left there, a part the file loses reading as zeros (gguf_source_soften).
 * Either way metadata, names and tokens never fault however the file
 * changes; tensor data stays a view of the file, read through
 * gguf_file_guard, which first checks that the file is as it was opened
 * and then catches the fault of a read past a new end (source/guard.c).
 * A source that cannot map (a server) gives its
 * first 2 MiB, then exactly what the walk still needs (plus as much again
 * at most, so that a vocabulary costs a few reads, not one a string): the
 * header region is then the file's own buffer, and tensor data is read
 * into the callers' buffers (gguf_file_read).
 *
 * A URL is opened by remote.c: an "http" source, its header read (or
 * taken from the header cache) and handed to gguf_open_source_head.
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fileint.h"
#include "guard.h"
#include "http.h"
#include "remote.h"
#include "io.h"

#define FIRST_READ	((uint64_t)2 << 20)	/* a source's first read */
#define MORE_READ	((uint64_t)2 << 20)	/* read past what is needed */
#define CMP_BUF		(1u << 16)
#define LOCAL_READ	((uint64_t)64 << 10)	/* a local file's first read */
#define SHARD_READ	((uint64_t)32 << 10)	/* a later shard's */
#define LOCAL_MOST	((uint64_t)1 << 20)	/* and the most it reads */
#define VIA_MAP		((uint64_t)64 << 20)	/* from here, copied */

/* How a header region is kept: GGUF_HEADERS_* (gguf_keep_headers). */
static int	keep_headers = GGUF_HEADERS_COPY;

void
gguf_keep_headers(int how)
{
	keep_headers = how;
}

void
gguf_unmap_late(int on)
{
	gguf_source_unmap_late(on);
}

int
gguf_headers_cut(void)
{
	return gguf_guard_soft_cuts() > 0;
}

/* The source's error as a file's. Returns -1. */
static int
from_src(const struct gguf_srcerr *se, struct gguf_err *err)
{
	return gguf_errf(err, se->has_off ? (int64_t)se->off : -1, "%s",
	    se->msg);
}

int
gguf_file_keep(struct gguf_file *f, struct gguf_err *err)
{
	struct gguf_srcerr	se;
	uint64_t		len;
	size_t			i;

	for (i = 0; i < f->n_shards; i++)
		if (f->shards[i] != NULL &&
		    gguf_file_keep(f->shards[i], err) != 0) {
			gguf_file_shard_msg(f, i, err);
			return -1;
		}
	if (f->src == NULL || f->hdr_len > 0 || !f->whole ||
	    f->base != f->data)
		return 0;	/* a buffer, a copy, or not mapped */
	memset(&se, 0, sizeof se);
	len = f->lay.data_off < f->size ? f->lay.data_off : f->size;
	if (gguf_source_pin(f->src, len, &se) != 0)
		return from_src(&se, err);
	f->hdr_len = gguf_source_pinned(f->src);
	return 0;
}

struct parse_job {
	struct gguf_file	*f;
	struct gguf_err		*err;
};

static int
parse_cb(void *arg)
{
	struct parse_job	*j = arg;

	j->f = gguf_file_parse(j->f, NULL, j->err);
	return 0;
}

static struct gguf_file *
new_file(struct gguf_source *src, int defer_names)
{
	struct gguf_file	*f = xcalloc(1, sizeof *f);

	f->size = gguf_source_size(src);
	f->defer_names = defer_names;
	return f;
}

/* Attaches src to f, which takes it. */
static void
attach(struct gguf_file *f, struct gguf_source *src)
{
	f->src = src;
	if (src->name != NULL)
		f->path = xstrdup(src->name);
}

/* open_small's file f, walked in buf, when it holds the header region. */
static struct gguf_file *
small_done(struct gguf_file *f, struct gguf_source *src, uint8_t *buf,
    uint64_t have)
{
	uint64_t	size = gguf_source_size(src), want;

	/*
	 * To the data section; without tensors, the whole file: a save
	 * keeps its padding as header bytes (storage/writer.c).
	 */
	want = f->lay.n_tensors > 0 && f->lay.data_off < size ?
	    f->lay.data_off : size;
	if (want > have) {			/* the padding is further */
		gguf_close(f);
		free(buf);
		return NULL;
	}
	f->own = buf;
	f->hdr_len = have;
	f->whole = 1;
	attach(f, src);
	if (gguf_source_changed(src, 0, NULL)) {
		f->src = NULL;			/* the caller's again */
		gguf_close(f);
		return NULL;
	}
	return f;
}

/*
 * A local file's header region read into memory: its first LOCAL_READ
 * bytes (SHARD_READ), then, while the walk runs out of them, as many as it says the
 * rest need (gguf_file_parse's want: the pace of the array or tensor
 * infos it was in), at least twice as many, up to LOCAL_MOST. The file
 * (a small one's data not mapped yet); NULL (nothing said, src kept) when
 * the header is longer, or anything fails: the caller then maps the file
 * and walks it there, which says what is wrong.
 */
static struct gguf_file *
open_small(struct gguf_source *src, int defer_names)
{
	struct gguf_file	*f;
	struct gguf_srcerr	 se;
	struct gguf_err		 err;
	uint64_t		 size = gguf_source_size(src), have = 0, n, want;
	struct gguf_guard_copy	 cp;
	const uint8_t		*map = NULL;
	uint8_t			*buf = NULL;
	int			 tries;

	memset(&se, 0, sizeof se);
	/*
	 * A model's metadata and vocabulary often take 32 to 64 KiB (every
	 * walk that runs short starts again from the first byte); a set's
	 * later shard holds its tensor infos alone, mostly fewer.
	 */
	n = defer_names ? SHARD_READ : LOCAL_READ;
	if (n > size)
		n = size;
	/*
	 * A large file's header is copied out of its mapping, made now for
	 * its data: a read() of its first pages would leave them in the page
	 * cache in a way that slows a scan of the cold file through the
	 * mapping by half (validate --data of 1 GiB, cold: 0.8 -> 1.2 s; the
	 * kernel's read-ahead of the mapping grows from them). A small file
	 * is read, and not mapped until its data is needed.
	 */
	if (size > VIA_MAP && (map = gguf_source_map(src, 0, size,
	    &se)) == NULL)
		return NULL;
	for (tries = 0; tries < 4; tries++) {
		buf = xreallocarray(buf, n > 0 ? (size_t)n : 1, 1);
		memset(&se, 0, sizeof se);
		if (map != NULL) {
			cp.src = map + have;
			cp.dst = buf + have;
			cp.n = (size_t)(n - have);
			if (gguf_source_guard(src, gguf_guard_copy_cb,
			    &cp) != 0)
				break;
		} else if (gguf_source_read(src, have, buf + have,
		    (size_t)(n - have), &se) != 0)
			break;
		have = n;
		f = new_file(src, defer_names);
		f->base = buf;
		f->have = have;
		memset(&err, 0, sizeof err);
		if ((f = gguf_file_parse(f, &want, &err)) != NULL) {
			f->data = map;
			return small_done(f, src, buf, have);
		}
		if (want <= have || want > size || want > LOCAL_MOST)
			break;
		/* to a page's end (the bytes are there to be read), and at
		   least twice as far: each try walks again from the start */
		n = (want + 4095) / 4096 * 4096;
		if (n < 2 * have)
			n = 2 * have;
		if (n > size)
			n = size;
	}
	free(buf);
	return NULL;
}

/* A source that maps: walked in place, its header pinned. */
static struct gguf_file *
open_mapped(struct gguf_source *src, int defer_names, struct gguf_err *err)
{
	struct gguf_file	*f;
	struct gguf_srcerr	 se;
	struct parse_job	 j;
	struct gguf_cur_rd	 rd;
	uint64_t		 len;
	int			 rc;

	memset(&se, 0, sizeof se);
	memset(&rd, 0, sizeof rd);
	f = new_file(src, defer_names);
	if ((f->base = gguf_source_map(src, 0, f->size, &se)) == NULL) {
		from_src(&se, err);
		free(f);
		gguf_source_close(src);
		return NULL;
	}
	f->have = f->size;
	f->whole = 1;
	f->data = f->base;
	/*
	 * A vocabulary's strings are walked by reading the file, not where
	 * it is mapped: each page of the mapping costs a fault to look at
	 * once, and most are never looked at again (a 150,000-token
	 * vocabulary and its merges: 3.7 ms mapped, 1.2 ms read).
	 */
	if (gguf_source_fd(src) >= 0) {		/* a file: reads are cheap */
		rd.src = src;
		f->walk_rd = &rd;
	}
	j.f = f;
	j.err = err;
	rc = gguf_source_guard(src, parse_cb, &j);
	free(rd.buf);		/* also after a fault cut the walk short */
	if (j.f != NULL)
		j.f->walk_rd = NULL;
	if (rc == 0 && j.f == NULL) {		/* the walk freed it */
		gguf_source_close(src);
		return NULL;
	}
	attach(f, src);
	if (rc == 0) {
		len = f->lay.data_off < f->size ? f->lay.data_off : f->size;
		if (keep_headers != GGUF_HEADERS_COPY &&
		    gguf_source_soften(src, len) == 0)
			;		/* left where it is mapped */
		else if (gguf_source_pin(src, len, &se) != 0)
			rc = se.kind == GGUF_SRCE_CHANGED ? GGUF_SRC_FAULT :
			    from_src(&se, err);
		f->hdr_len = gguf_source_pinned(src);
	}
	if (rc == 0 && gguf_source_changed(src, 0, NULL))
		rc = GGUF_SRC_FAULT;
	if (rc != 0) {
		if (rc == GGUF_SRC_FAULT)
			gguf_errf(err, -1, "%s while it was being opened",
			    gguf_source_changed_word(src));
		gguf_close(f);
		return NULL;
	}
	return f;
}

/*
 * A source that does not map: its header region read into a buffer,
 * which starts as head (n bytes from 0, taken) when the caller has it.
 */
static struct gguf_file *
open_read(struct gguf_source *src, uint8_t *head, size_t n0,
    struct gguf_err *err)
{
	struct gguf_file	*f;
	struct gguf_srcerr	 se;
	uint8_t			*buf;
	uint64_t		 size = gguf_source_size(src), have, want, n;

	memset(&se, 0, sizeof se);
	if (head != NULL) {
		buf = head;
		have = n0 < size ? n0 : size;
	} else {
		have = size < FIRST_READ ? size : FIRST_READ;
		buf = xmalloc(have > 0 ? (size_t)have : 1);
		if (gguf_source_read(src, 0, buf, (size_t)have, &se) != 0)
			goto fail;
	}
	for (;;) {
		f = new_file(src, 0);
		f->base = buf;
		f->have = have;
		if ((f = gguf_file_parse(f, &want, err)) != NULL) {
			want = f->lay.data_off < size ? f->lay.data_off : size;
			if (want <= have)
				break;
			gguf_close(f);		/* the padding: read it too */
		} else if (want == 0) {
			free(buf);
			gguf_source_close(src);
			return NULL;
		}
		if (want <= have || want > size) {
			gguf_errf(err, -1, "the header's walk asked for bytes "
			    "it had");
			free(buf);
			gguf_source_close(src);
			return NULL;
		}
		n = size - want < MORE_READ ? size : want + MORE_READ;
		buf = xreallocarray(buf, (size_t)n, 1);
		if (gguf_source_read(src, have, buf + have, (size_t)(n - have),
		    &se) != 0)
			goto fail;
		have = n;
	}
	if (err != NULL)	/* the walks that asked for more said so */
		memset(err, 0, sizeof *err);
	f->own = buf;
	f->hdr_len = have;
	attach(f, src);
	if (gguf_source_changed(src, 0, &se)) {
		from_src(&se, err);
		gguf_close(f);
		return NULL;
	}
	return f;
fail:
	from_src(&se, err);
	free(buf);
	gguf_source_close(src);
	return NULL;
}

/* A source opened: read in part, mapped, or read. */
static struct gguf_file *
open_local(struct gguf_source *src, int defer_names, struct gguf_err *err)
{
	struct gguf_file	*f;
	struct gguf_srcerr	 se;

	if (!gguf_source_mappable(src))
		return open_read(src, NULL, 0, err);
	/*
	 * A header that is not to be copied is walked where the file is
	 * mapped, whatever its size: its pages are the page cache's, where
	 * a read would fill as many of the process's own (a set's shards).
	 * A file the system will not map is read, as when copying.
	 */
	memset(&se, 0, sizeof se);
	if (keep_headers == GGUF_HEADERS_VIEW &&
	    gguf_source_map(src, 0, gguf_source_size(src), &se) != NULL)
		return open_mapped(src, defer_names, err);
	if (!gguf_source_mappable(src))		/* the system refused */
		return open_read(src, NULL, 0, err);
	if ((f = open_small(src, defer_names)) != NULL)
		return f;
	if (gguf_source_map(src, 0, gguf_source_size(src), &se) == NULL &&
	    !gguf_source_mappable(src))
		return open_read(src, NULL, 0, err);
	return open_mapped(src, defer_names, err);
}

struct gguf_file *
gguf_open_source(struct gguf_source *src, struct gguf_err *err)
{
	gguf_io_init();
	if (src == NULL) {
		gguf_errf(err, -1, "out of memory");
		return NULL;
	}
	return open_local(src, 0, err);
}

struct gguf_file *
gguf_open_source_head(struct gguf_source *src, uint8_t *head, size_t n,
    struct gguf_err *err)
{
	gguf_io_init();
	if (src == NULL) {
		free(head);
		gguf_errf(err, -1, "out of memory");
		return NULL;
	}
	return open_read(src, head, n, err);
}

struct gguf_file *
gguf_open_fd(int fd, const char *path, struct gguf_err *err)
{
	struct gguf_source	*src;
	struct gguf_srcerr	 se;

	memset(&se, 0, sizeof se);
	gguf_io_init();
	if ((src = gguf_source_file_fd(fd, path, &se)) == NULL) {
		from_src(&se, err);
		return NULL;
	}
	return gguf_open_source(src, err);
}

/* gguf_open_regular, with the file's fstat() in *st. */
static int
open_regular(const char *path, int flags, struct stat *st,
    struct gguf_err *err)
{
	int	fd, e;

	/* O_NONBLOCK: a FIFO opens at once instead of waiting for a writer
	   (or a reader), and no device waits for a carrier. */
	fd = open(path, flags | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		gguf_errf(err, -1, "%s", strerror(e));
		errno = e;	/* callers tell ENOENT and ELOOP apart */
		return -1;
	}
	if (fstat(fd, st) != 0) {
		e = errno;
		gguf_errf(err, -1, "%s", strerror(e));
		close(fd);
		errno = e;
		return -1;
	}
	if (!S_ISREG(st->st_mode)) {
		gguf_errf(err, -1, "not a regular file");
		close(fd);
		errno = EINVAL;
		return -1;
	}
	/*
	 * The status flags it was opened with, less O_NONBLOCK; a regular
	 * file's reads and writes do not heed it (open(2)), so it is left
	 * there unless O_APPEND is to be kept: one system call less for each
	 * file opened (the shards of a set).
	 */
	if ((flags & O_APPEND) && fcntl(fd, F_SETFL, flags & O_APPEND) != 0) {
		e = errno;
		gguf_errf(err, -1, "%s", strerror(e));
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

int
gguf_open_regular(const char *path, int flags, struct gguf_err *err)
{
	struct stat	st;

	return open_regular(path, flags, &st, err);
}

/*
 * A local file's source over a descriptor of its own (no duplicate, no
 * second fstat): NULL with err set.
 */
static struct gguf_source *
local_source(const char *path, struct gguf_err *err)
{
	struct gguf_source	*src;
	struct gguf_srcerr	 se;
	struct stat		 st;
	int			 fd;

	if ((fd = open_regular(path, O_RDONLY, &st, err)) < 0)
		return NULL;
	memset(&se, 0, sizeof se);
	gguf_io_init();
	if ((src = gguf_source_file_own(fd, &st, path, &se)) == NULL)
		from_src(&se, err);
	return src;
}

/* Whether st is that of /dev/null. */
static int
is_dev_null(const struct stat *st)
{
	struct stat	null;

	return stat("/dev/null", &null) == 0 && S_ISCHR(null.st_mode) &&
	    null.st_rdev == st->st_rdev;
}

ssize_t
gguf_text_line(FILE *fp, char **line, size_t *cap, size_t max)
{
	size_t	n = 0;
	int	c;

	for (;;) {
		if ((c = getc(fp)) == EOF) {
			if (n == 0)
				return -1;
			break;
		}
		if (c == '\0')
			return -2;
		if (n >= max)
			return -3;
		if (n + 2 > *cap) {
			*cap = *cap < 128 ? 128 : *cap * 2;
			*line = xreallocarray(*line, *cap, 1);
		}
		(*line)[n++] = (char)c;
		if (c == '\n')
			break;
	}
	(*line)[n] = '\0';
	return (ssize_t)n;
}

FILE *
gguf_open_text(const char *path, struct gguf_err *err)
{
	struct stat	 st;
	FILE		*fp;
	ssize_t		 n;
	char		 c;
	int		 fd, e;

	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		gguf_errf(err, -1, "%s", strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) != 0) {
		gguf_errf(err, -1, "%s", strerror(errno));
		goto fail;
	}
	/*
	 * A terminal or /dev/null is text as well; a disk is not, nor a
	 * device that never ends (/dev/zero, /dev/urandom: read to its end,
	 * it would fill the memory).
	 */
	if ((!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode) &&
	    !S_ISCHR(st.st_mode)) ||
	    (S_ISCHR(st.st_mode) && !isatty(fd) && !is_dev_null(&st))) {
		gguf_errf(err, -1, "not a regular file, a pipe or a terminal");
		goto fail;
	}
	/*
	 * A pipe: one byte read without waiting tells a writer that has
	 * nothing to say yet (EAGAIN: then wait for it) from none at all
	 * (end of file at once: a FIFO no one writes to, which would
	 * otherwise be waited for forever).
	 */
	n = -1;
	if (S_ISFIFO(st.st_mode)) {
		while ((n = read(fd, &c, 1)) < 0 && errno == EINTR)
			;
		if (n < 0 && errno != EAGAIN) {
			gguf_errf(err, -1, "%s", strerror(errno));
			goto fail;
		}
		if (n == 0) {
			gguf_errf(err, -1, "a FIFO no process writes to");
			goto fail;
		}
	}
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0 ||
	    (fp = fdopen(fd, "r")) == NULL) {
		gguf_errf(err, -1, "%s", strerror(errno));
		goto fail;
	}
	if (n == 1)
		ungetc((unsigned char)c, fp);
	return fp;
fail:
	e = errno;
	close(fd);
	errno = e;
	return NULL;
}

struct gguf_file *
gguf_open(const char *path, struct gguf_err *err)
{
	struct gguf_source	*src;

	if (gguf_is_url(path))
		return gguf_open_url(path, err);
	if ((src = local_source(path, err)) == NULL)
		return NULL;
	return gguf_open_source(src, err);
}

struct gguf_file *
gguf_open_shard(const char *path, struct gguf_err *err)
{
	struct gguf_source	*src;

	if (gguf_is_url(path))
		return gguf_open_url(path, err);
	if ((src = local_source(path, err)) == NULL)
		return NULL;
	return open_local(src, 1, err);
}

struct gguf_source *
gguf_file_source(const struct gguf_file *f)
{
	return f->src;
}

const uint8_t *
gguf_file_header(const struct gguf_file *f)
{
	return f->base;
}

/* Who maps a file's data at its first need, one thread at a time. */
static pthread_mutex_t data_mu = PTHREAD_MUTEX_INITIALIZER;

const uint8_t *
gguf_file_data(const struct gguf_file *f, struct gguf_err *err)
{
	struct gguf_file	*w = (struct gguf_file *)(uintptr_t)f;
	struct gguf_srcerr	 se;
	const uint8_t		*p;

	if ((p = __atomic_load_n(&f->data, __ATOMIC_ACQUIRE)) != NULL)
		return p;
	if (!f->whole || f->src == NULL) {
		gguf_errf(err, -1, "the file's data is not in memory");
		return NULL;
	}
	memset(&se, 0, sizeof se);
	pthread_mutex_lock(&data_mu);
	if ((p = w->data) == NULL) {
		if ((p = gguf_source_map(f->src, 0, f->size, &se)) != NULL)
			__atomic_store_n(&w->data, p, __ATOMIC_RELEASE);
		else
			from_src(&se, err);
	}
	pthread_mutex_unlock(&data_mu);
	return p;
}

const uint8_t *
gguf_file_mem(const struct gguf_file *f)
{
	if (f->n_shards > 0)
		return NULL;
	if (f->src == NULL)		/* a buffer */
		return f->base;
	if (!gguf_source_mappable(f->src))
		return NULL;
	return gguf_file_data(f, NULL);
}

int
gguf_file_whole(const struct gguf_file *f)
{
	/*
	 * A file whose data is mapped at its first need: a system that
	 * refuses to map it makes it one read by range (gguf_source_map).
	 */
	if (!f->whole || f->src == NULL ||
	    __atomic_load_n(&f->data, __ATOMIC_ACQUIRE) != NULL)
		return f->whole;
	return gguf_file_data(f, NULL) != NULL ||
	    gguf_source_mappable(f->src);
}

/* ------------------------------------------------------------- changes */

/* 1 if the header region the source has now differs from f's copy. */
static int
header_differs(const struct gguf_file *f)
{
	uint8_t		*buf;
	uint64_t	 off, n;
	size_t		 k;
	int		 differs = 0;

	if (f->hdr_len == 0)
		return 0;
	n = f->hdr_len < f->size ? f->hdr_len : f->size;
	buf = xmalloc(CMP_BUF);
	for (off = 0; off < n && !differs; off += k) {
		k = n - off < CMP_BUF ? (size_t)(n - off) : CMP_BUF;
		if (gguf_source_read(f->src, off, buf, k, NULL) != 0 ||
		    memcmp(buf, f->base + off, k) != 0)
			differs = 1;
	}
	free(buf);
	return differs;
}

int
gguf_file_changed(const struct gguf_file *f, unsigned how,
    struct gguf_err *err)
{
	struct gguf_srcerr	se;
	size_t			i;

	for (i = 0; i < f->n_shards; i++)
		if (f->shards[i] != NULL &&
		    gguf_file_changed(f->shards[i], how, err)) {
			if (err != NULL)
				gguf_file_shard_msg(f, i, err);
			return 1;
		}
	if (f->src == NULL)
		return 0;
	memset(&se, 0, sizeof se);
	if (gguf_source_changed(f->src, (how & GGUF_CHANGE_PATH) ?
	    GGUF_SRC_CHANGE_NAME : 0, &se))
		return from_src(&se, err), 1;
	/*
	 * A server's file is told changed by its ETag, on every answer:
	 * its header is not fetched again to be compared.
	 */
	if ((how & GGUF_CHANGE_CONTENT) && strcmp(gguf_source_kind(f->src),
	    "http") != 0 && header_differs(f))
		return gguf_errf(err, -1, "%s: its header was rewritten",
		    gguf_source_changed_word(f->src)), 1;
	return 0;
}

/* ----------------------------------------------------------------- reads */

/* The guards of a set: one for each shard's source, nested. */
struct nest {
	const struct gguf_file	*f;
	size_t			 i;
	int			(*fn)(void *);
	void			*arg;
};

static int
nest_cb(void *arg)
{
	struct nest		*n = arg;
	const struct gguf_file	*s;

	while (n->i < n->f->n_shards && (n->f->shards[n->i] == NULL ||
	    n->f->shards[n->i]->src == NULL))
		n->i++;
	if (n->i == n->f->n_shards)
		return n->fn(n->arg);
	s = n->f->shards[n->i++];
	return gguf_source_guard(s->src, nest_cb, n);
}

/*
 * The offset in f's source of p, a pointer into its mapped data, in *off:
 * 0, or -1 when f has no source, is not mapped yet, or p is not in it.
 */
static int
data_at(const struct gguf_file *f, const uint8_t *p, uint64_t len,
    uint64_t *off)
{
	const uint8_t	*d = f->src != NULL ?
	    __atomic_load_n(&f->data, __ATOMIC_ACQUIRE) : NULL;

	if (!f->whole || d == NULL || p < d || p >= d + f->size || len == 0)
		return -1;
	*off = (uint64_t)(p - d);
	return 0;
}

void
gguf_file_release(const struct gguf_file *f, const uint8_t *p, uint64_t len)
{
	uint64_t	off;

	if (data_at(f, p, len, &off) == 0)
		gguf_source_release(f->src, off, len);
}

void
gguf_file_sequential(const struct gguf_file *f, const uint8_t *p,
    uint64_t len)
{
	uint64_t	off;

	if (data_at(f, p, len, &off) == 0)
		gguf_source_sequential(f->src, off, len);
}

void
gguf_file_populate(const struct gguf_file *f, const uint8_t *p,
    uint64_t len)
{
	uint64_t	off;

	if (data_at(f, p, len, &off) == 0)
		gguf_source_populate(f->src, off, len);
}

/*
 * The data of f (of each shard of a set) mapped if it is not yet, so that
 * the guard covers the mapping the reads will use. 0, or -1 with err set.
 */
static int
map_data(const struct gguf_file *f, struct gguf_err *err)
{
	size_t	i;

	for (i = 0; i < f->n_shards; i++)
		if (f->shards[i] != NULL && map_data(f->shards[i], err) != 0) {
			gguf_file_shard_msg(f, i, err);
			return -1;
		}
	if (f->n_shards > 0 || !gguf_file_whole(f) || f->src == NULL)
		return 0;		/* read by range, or mapped */
	return gguf_file_data(f, err) != NULL ? 0 : -1;
}

int
gguf_file_guard(const struct gguf_file *f, int (*fn)(void *), void *arg,
    struct gguf_err *err)
{
	struct gguf_err	e;
	int		rc;

	memset(&e, 0, sizeof e);
	if (gguf_file_changed(f, 0, &e) || map_data(f, &e) != 0) {
		if (err != NULL)
			*err = e;
		return -1;
	}
	gguf_io_map_read();
	if (f->n_shards > 0) {
		struct nest	n = { f, 0, fn, arg };

		rc = nest_cb(&n);
	} else if (f->src != NULL)
		rc = gguf_source_guard(f->src, fn, arg);
	else
		rc = fn(arg);
	if (rc != GGUF_SRC_FAULT)
		return rc;
	if (!gguf_file_changed(f, 0, &e))
		gguf_errf(&e, -1, "%s: its data could not be read",
		    f->src != NULL ? gguf_source_changed_word(f->src) :
		    "changed on disk");
	if (err != NULL)
		*err = e;
	return -1;
}

int
gguf_file_read(const struct gguf_file *f, uint64_t off, void *buf,
    size_t len, struct gguf_err *err)
{
	struct gguf_srcerr	 se;
	struct gguf_guard_copy	 j;
	const uint8_t		*d;

	if (f->n_shards > 0)
		return gguf_errf(err, -1, "a split set is read by its shards");
	if (off > f->size || len > f->size - off)
		return gguf_errf(err, (int64_t)off, "bytes %llu:%llu are not "
		    "in the file (%llu bytes)", (unsigned long long)off,
		    (unsigned long long)(off + len),
		    (unsigned long long)f->size);
	if (len == 0)
		return 0;
	if (gguf_file_whole(f)) {
		if ((d = gguf_file_data(f, err)) == NULL)
			return -1;
		j.src = d + off;
		j.dst = buf;
		j.n = len;
		return gguf_file_guard(f, gguf_guard_copy_cb, &j, err);
	}
	if (gguf_file_changed(f, 0, err))
		return -1;
	memset(&se, 0, sizeof se);
	if (gguf_source_read(f->src, off, buf, len, &se) != 0)
		return from_src(&se, err);
	return 0;
}
