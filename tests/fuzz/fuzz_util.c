/*
 * fuzz_util.c - helpers shared by the fuzz targets: the terminal-safety
 * check of printed text, a command run with its output checked, a
 * scratch directory, failing loudly.
 */
#include "config.h"

#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"

static char	scratch[256];

void
fuzz_fail(const char *fmt, ...)
{
	va_list	ap;

	fputs("fuzz invariant broken: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

int
fuzz_safe_text(const char *s, size_t n, size_t *bad)
{
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 i = 0, len, k;
	unsigned		 c, min;

	while (i < n) {
		c = p[i];
		*bad = i;
		if (c < 0x80) {
			if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f)
				return 0;
			i++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf) {
			len = 2;
			c &= 0x1f;
			min = 0x80;
		} else if (c >= 0xe0 && c <= 0xef) {
			len = 3;
			c &= 0x0f;
			min = 0x800;
		} else if (c >= 0xf0 && c <= 0xf4) {
			len = 4;
			c &= 0x07;
			min = 0x10000;
		} else
			return 0;
		if (len > n - i)
			return 0;
		for (k = 1; k < len; k++) {
			if ((p[i + k] & 0xc0) != 0x80)
				return 0;
			c = c << 6 | (p[i + k] & 0x3f);
		}
		if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
			return 0;
		if (c <= 0x9f || (c >= 0x202a && c <= 0x202e) ||
		    (c >= 0x2066 && c <= 0x2069) || c == 0x200e ||
		    c == 0x200f || c == 0x061c)
			return 0;
		i += len;
	}
	return 1;
}

static void
remove_scratch(void)
{
	DIR		*dp;
	struct dirent	*de;
	char		 path[512];

	if (scratch[0] == '\0' || (dp = opendir(scratch)) == NULL)
		return;
	while ((de = readdir(dp)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		snprintf(path, sizeof path, "%s/%s", scratch, de->d_name);
		unlink(path);
	}
	closedir(dp);
	rmdir(scratch);
}

const char *
fuzz_scratch(void)
{
	const char	*base;
	struct stat	 st;

	if (scratch[0] != '\0')
		return scratch;
	/* tmpfs where there is one: the saves fsync. */
	if (stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) &&
	    access("/dev/shm", W_OK) == 0)
		base = "/dev/shm";
	else if ((base = getenv("TMPDIR")) == NULL || *base == '\0')
		base = "/tmp";
	snprintf(scratch, sizeof scratch, "%s/ggufed-fuzz.XXXXXX", base);
	if (mkdtemp(scratch) == NULL) {
		fprintf(stderr, "fuzz: cannot create %s: %s\n", scratch,
		    strerror(errno));
		exit(1);
	}
	atexit(remove_scratch);
	return scratch;
}

void
fuzz_path(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", fuzz_scratch(), name);
}

void
fuzz_write_file(const char *path, const void *p, size_t n)
{
	const char	*b = p;
	ssize_t		 w;
	int		 fd;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		fuzz_fail("cannot create %s: %s", path, strerror(errno));
	while (n > 0) {
		w = write(fd, b, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			fuzz_fail("cannot write %s: %s", path, strerror(errno));
		b += w;
		n -= (size_t)w;
	}
	if (close(fd) != 0)
		fuzz_fail("cannot write %s: %s", path, strerror(errno));
}

void
fuzz_run_cmd(int (*cmd)(int, char **), int argc, char **argv)
{
	FILE	*real = stdout, *real_err = stderr, *mem;
	char	*out = NULL;
	size_t	 len = 0, bad;

	if ((mem = open_memstream(&out, &len)) == NULL)
		fuzz_fail("open_memstream");
	fflush(real);
	fflush(real_err);
	stdout = stderr = mem;
	cmd(argc, argv);
	stdout = real;
	stderr = real_err;
	fclose(mem);
	if (!fuzz_safe_text(out, len, &bad))
		fuzz_fail("%s %s printed unsafe byte 0x%02x at %zu", argv[0],
		    argc > 1 ? argv[1] : "", (unsigned char)out[bad], bad);
	free(out);
}
