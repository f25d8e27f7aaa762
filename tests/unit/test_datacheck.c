/*
 * test_datacheck.c - the data checks of validate --data (check.c) over a
 * large file: on one thread and on two, the file's pages this process
 * has mapped (RssFile) stay far below the file's size (its pieces are
 * read into buffers, not mapped in), every piece is scanned (the
 * progress reaches every element), and the findings are the same
 * whatever the threads.
 *
 * The file is made here, sparse: one F32 tensor of SIZE bytes of zeros
 * (read, a hole is pages of the page cache like any other), which the
 * check finds all zero.
 */
#include "config.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "gguf.h"
#include "stats.h"
#include "tap.h"

#define SIZE	((uint64_t)768 << 20)	/* the tensor's bytes */
#define BOUND	((uint64_t)384 << 20)	/* mapped at most: half of it */

static void
put(uint8_t **p, const void *v, size_t n)
{
	memcpy(*p, v, n);
	*p += n;
}

/* A GGUF v3 file of one F32 tensor "t" of SIZE bytes, its data a hole. */
static int
make(const char *path)
{
	uint8_t		 h[256], *p = h;
	uint32_t	 u32;
	uint64_t	 u64, off;
	int		 fd, rc = -1;

	put(&p, "GGUF", 4);
	u32 = 3;
	put(&p, &u32, 4);
	u64 = 1;			/* tensors */
	put(&p, &u64, 8);
	u64 = 0;			/* KV pairs */
	put(&p, &u64, 8);
	u64 = 1;			/* the name */
	put(&p, &u64, 8);
	put(&p, "t", 1);
	u32 = 1;			/* dimensions */
	put(&p, &u32, 4);
	u64 = SIZE / 4;
	put(&p, &u64, 8);
	u32 = 0;			/* F32 */
	put(&p, &u32, 4);
	u64 = 0;			/* offset in the data section */
	put(&p, &u64, 8);
	off = ((uint64_t)(p - h) + 31) / 32 * 32;
	memset(p, 0, (size_t)(off - (uint64_t)(p - h)));
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644)) < 0)
		return -1;
	if (write(fd, h, (size_t)off) == (ssize_t)off &&
	    ftruncate(fd, (off_t)(off + SIZE)) == 0)
		rc = 0;
	close(fd);
	return rc;
}

struct seen {
	uint64_t	base;		/* RssFile before the scan */
	uint64_t	most;		/* above base, sampled */
	uint64_t	done, total;
	unsigned	calls;
	char		text[4096];
	size_t		len;
};

static int
progress(void *arg, uint64_t done, uint64_t total)
{
	struct seen	*s = arg;
	uint64_t	 r;

	s->done = done;
	s->total = total;
	if (s->calls++ % 4 == 0 && (r = tap_rss_file()) > s->base &&
	    r - s->base > s->most)
		s->most = r - s->base;
	return 0;
}

static void
finding(void *arg, int level, const char *file, int64_t off,
    const char *msg)
{
	struct seen	*s = arg;
	int		 n;

	(void)file;
	n = snprintf(s->text + s->len, sizeof s->text - s->len,
	    "%d %lld %s\n", level, (long long)off, msg);
	if (n > 0 && (size_t)n < sizeof s->text - s->len)
		s->len += (size_t)n;
}

int
main(void)
{
	char			 path[] = "test_datacheck.XXXXXX";
	struct gguf_stats_opts	 so;
	struct gguf_file	*f;
	struct gguf_err		 err;
	struct seen		 s[2];
	unsigned		 th;
	int			 fd;

	if ((fd = mkstemp(path)) < 0) {
		ok(0, "a file to scan: cannot make one");
		return tap_done();
	}
	close(fd);
	if (make(path) != 0) {
		ok(0, "a file to scan: cannot write %s", path);
		unlink(path);
		return tap_done();
	}
	for (th = 1; th <= 2; th++) {
		memset(&err, 0, sizeof err);
		if ((f = gguf_open(path, &err)) == NULL) {
			ok(0, "opened: %s", err.msg);
			break;
		}
		memset(&s[th - 1], 0, sizeof s[0]);
		memset(&so, 0, sizeof so);
		so.threads = th;
		so.progress = progress;
		so.arg = &s[th - 1];
		s[th - 1].base = tap_rss_file();
		gguf_check_model(f, NULL, GGUF_CHECK_DATA, &so, finding,
		    &s[th - 1]);
		ok(s[th - 1].total == SIZE / 4 && s[th - 1].done == SIZE / 4,
		    "%u thread%s: every element scanned (%llu of %llu)", th,
		    th > 1 ? "s" : "", (unsigned long long)s[th - 1].done,
		    (unsigned long long)s[th - 1].total);
		ok(strstr(s[th - 1].text, "all") != NULL &&
		    strstr(s[th - 1].text, "zero") != NULL,
		    "%u thread%s: found all zero", th, th > 1 ? "s" : "");
		if (s[th - 1].base == 0 && s[th - 1].most == 0)
			skip("no RssFile in /proc/self/status");
		else
			ok(s[th - 1].most < BOUND, "%u thread%s: at most %llu "
			    "MiB of the %llu MiB file mapped at once (bound "
			    "%llu)", th, th > 1 ? "s" : "",
			    (unsigned long long)(s[th - 1].most >> 20),
			    (unsigned long long)(SIZE >> 20),
			    (unsigned long long)(BOUND >> 20));
		gguf_close(f);
	}
	ok(s[0].len == s[1].len && memcmp(s[0].text, s[1].text, s[0].len) ==
	    0, "the same findings on 1 and 2 threads");
	unlink(path);
	return tap_done();
}
