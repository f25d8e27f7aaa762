/*
 * test_source.c - the sources under the reader: a local file and the
 * memory double read the same bytes; a range outside the source and a
 * short read fail with their one-line errors; mapping is refused when the
 * double is told to; a changed file and a changed double say so; a copy
 * to a descriptor is byte for byte, reports progress and can be
 * cancelled.
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "source.h"
#include "tap.h"

#define NBYTES	((3u << 20) + 123)	/* more than a copy's block */

static uint8_t	*data;

static int
read_all(int fd, uint8_t *buf, size_t n)
{
	size_t	got = 0;
	ssize_t	r;

	while (got < n) {
		r = pread(fd, buf + got, n - got, (off_t)got);
		if (r <= 0)
			return -1;
		got += (size_t)r;
	}
	return 0;
}

struct prog {
	uint64_t	last;
	int		calls;
	int		cancel_at;	/* call that cancels, or 0 */
	int		backwards;
};

static int
progress(void *arg, uint64_t done, uint64_t total)
{
	struct prog	*p = arg;

	(void)total;
	if (done < p->last)
		p->backwards = 1;
	p->last = done;
	return ++p->calls == p->cancel_at;
}

/* The checks every source must pass, over the bytes of data. */
static void
common(struct gguf_source *s, const char *what)
{
	struct gguf_srcerr	 e;
	uint8_t			*buf = malloc(NBYTES), *back;
	struct prog		 pr;
	char			 tmp[] = "/tmp/test_source.XXXXXX";
	int			 fd;

	is_u64(gguf_source_size(s), NBYTES, "%s: size", what);
	memset(&e, 0, sizeof e);
	ok(gguf_source_read(s, 0, buf, NBYTES, &e) == 0 &&
	    memcmp(buf, data, NBYTES) == 0, "%s: reads every byte", what);
	ok(gguf_source_read(s, 1000, buf, 10, &e) == 0 &&
	    memcmp(buf, data + 1000, 10) == 0, "%s: reads a range", what);
	ok(gguf_source_read(s, NBYTES - 5, buf, 10, &e) == -1 &&
	    e.kind == GGUF_SRCE_RANGE && strstr(e.msg, "are not in") != NULL,
	    "%s: a range past the end is refused: %s", what, e.msg);
	ok(gguf_source_read(s, NBYTES, buf, 0, &e) == 0,
	    "%s: an empty read at the end succeeds", what);
	ok(!gguf_source_changed(s, GGUF_SRC_CHANGE_NAME, &e),
	    "%s: unchanged", what);

	fd = mkstemp(tmp);
	memset(&pr, 0, sizeof pr);
	ok(fd >= 0 && gguf_source_copy(s, 7, NBYTES - 7, fd, 3, progress,
	    &pr, &e) == 0, "%s: copies to a descriptor", what);
	back = calloc(1, NBYTES);
	ok(read_all(fd, back, NBYTES - 4) == 0 &&
	    memcmp(back + 3, data + 7, NBYTES - 7) == 0,
	    "%s: the copy is byte for byte, at its offset", what);
	ok(pr.calls >= 1 && !pr.backwards && pr.last == NBYTES - 7,
	    "%s: the copy's progress ends at its length (%d calls)", what,
	    pr.calls);
	memset(&pr, 0, sizeof pr);
	pr.cancel_at = 1;
	ok(gguf_source_copy(s, 0, NBYTES, fd, 0, progress, &pr, &e) == -1 &&
	    e.kind == GGUF_SRCE_CANCEL && strcmp(e.msg, "cancelled") == 0,
	    "%s: a copy is cancelled by its progress", what);
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	free(back);
	free(buf);
}

int
main(void)
{
	struct gguf_source	*s, *m;
	struct gguf_srcerr	 e;
	const uint8_t		*p;
	uint8_t			 buf[64];
	char			 tmp[] = "/tmp/test_source.XXXXXX";
	char			 fifo[64], id[128], id2[128];
	size_t			 i;
	int			 fd;

	data = malloc(NBYTES);
	for (i = 0; i < NBYTES; i++)
		data[i] = (uint8_t)(i * 2654435761u >> 13);
	if ((fd = mkstemp(tmp)) < 0 || write(fd, data, NBYTES) != NBYTES) {
		printf("Bail out! cannot write %s\n", tmp);
		return 1;
	}
	close(fd);

	/* ------------------------------------------------- the local file */
	memset(&e, 0, sizeof e);
	s = gguf_source_file(tmp, &e);
	ok(s != NULL, "opens a file: %s", e.msg);
	if (s == NULL)
		return tap_done();
	ok(strcmp(gguf_source_kind(s), "file") == 0 &&
	    strcmp(gguf_source_changed_word(s), "changed on disk") == 0,
	    "a file's kind and change word");
	common(s, "file");
	ok(gguf_source_mappable(s) && (p = gguf_source_map(s, 100, 10, &e)) !=
	    NULL && memcmp(p, data + 100, 10) == 0, "a file maps");
	ok(gguf_source_pin(s, 5000, &e) == 0 && gguf_source_map(s, 0, 10,
	    &e) != NULL && memcmp(gguf_source_map(s, 0, 5000, &e), data,
	    5000) == 0, "its header can be pinned and still reads the same");
	gguf_source_identity(s, id, sizeof id);
	m = gguf_source_file(tmp, &e);
	gguf_source_identity(m, id2, sizeof id2);
	ok(strcmp(id, id2) == 0, "two opens of a file have one identity: %s",
	    id);
	gguf_source_close(m);
	ok(gguf_source_fd(s) >= 0, "a file has a descriptor");

	/* A change: cut, then gone. The mapping's reads are guarded. */
	if (truncate(tmp, 4096) != 0)
		diag("truncate: %s", strerror(errno));
	ok(gguf_source_changed(s, 0, &e) && e.kind == GGUF_SRCE_CHANGED &&
	    strcmp(e.msg, "changed on disk: cut to 4,096 bytes (3,145,851 "
	    "when opened)") == 0, "a cut file: %s", e.msg);
	ok(gguf_source_read(s, 8192, buf, 10, &e) == -1 &&
	    e.kind == GGUF_SRCE_SHORT && e.has_off && e.off == 8192 &&
	    strcmp(e.msg, "read 0 bytes of 10: the file ends early (changed "
	    "on disk?)") == 0, "a short read says so: %s", e.msg);
	ok(gguf_source_read(s, 4090, buf, 10, &e) == -1 && e.off == 4096 &&
	    strstr(e.msg, "read 6 bytes of 10") != NULL,
	    "a read cut short names where it stopped: %s", e.msg);
	unlink(tmp);
	ok(gguf_source_changed(s, GGUF_SRC_CHANGE_NAME, &e) &&
	    strstr(e.msg, "cut to") != NULL, "the size is looked at first");
	gguf_source_close(s);

	/* Not a regular file: refused at once, never waited on. */
	snprintf(fifo, sizeof fifo, "%s.fifo", tmp);
	if (mkfifo(fifo, 0600) == 0) {
		ok(gguf_source_file(fifo, &e) == NULL && errno == EINVAL &&
		    e.kind == GGUF_SRCE_OPEN &&
		    strcmp(e.msg, "not a regular file") == 0,
		    "a FIFO is refused: %s", e.msg);
		unlink(fifo);
	} else
		skip("mkfifo: %s", strerror(errno));
	ok(gguf_source_file(tmp, &e) == NULL && errno == ENOENT &&
	    strcmp(e.msg, strerror(ENOENT)) == 0, "a missing file: %s",
	    e.msg);

	/* ---------------------------------------------- the memory double */
	s = gguf_source_mem(data, NBYTES, "model.gguf", 0);
	common(s, "memory");
	ok((p = gguf_source_map(s, 5, 3, &e)) == data + 5,
	    "memory maps by default");
	gguf_source_close(s);

	s = gguf_source_mem(data, NBYTES, NULL, GGUF_SRC_MEM_NOMAP |
	    GGUF_SRC_MEM_COPY);
	common(s, "memory, not mapped");
	ok(!gguf_source_mappable(s) && gguf_source_map(s, 0, 1, &e) == NULL &&
	    e.kind == GGUF_SRCE_NOMAP && strcmp(e.msg, "cannot map a memory "
	    "source: read it instead") == 0,
	    "told not to, memory does not map: %s", e.msg);
	ok(strcmp(gguf_source_name(s), "<memory>") == 0 &&
	    gguf_source_fd(s) == -1, "a nameless double, without descriptor");
	gguf_source_mem_fail(s, GGUF_SRC_FAIL_SHORT, 1000);
	ok(gguf_source_read(s, 990, buf, 20, &e) == -1 &&
	    e.kind == GGUF_SRCE_SHORT && e.off == 1000 && strcmp(e.msg,
	    "read 10 bytes of 20: the memory ends early (changed in "
	    "memory?)") == 0, "the double's short read: %s", e.msg);
	ok(gguf_source_read(s, 900, buf, 20, &e) == 0,
	    "reads before the cut still succeed");
	ok(gguf_source_copy(s, 0, 5000, 1, 0, NULL, NULL, &e) == -1 &&
	    e.kind == GGUF_SRCE_SHORT, "a copy stops at a short read: %s",
	    e.msg);
	gguf_source_mem_fail(s, GGUF_SRC_FAIL_CHANGED, 0);
	ok(gguf_source_changed(s, 0, &e) && strcmp(e.msg, "changed in "
	    "memory: written to since it was opened") == 0,
	    "the double's change: %s", e.msg);
	gguf_source_mem_fail(s, 0, 0);
	ok(!gguf_source_changed(s, 0, &e), "and back");
	gguf_source_close(s);
	free(data);
	return tap_done();
}
