/*
 * replay.c - a plain main for the fuzz targets: feeds every file named on
 * the command line (directories: every file in them, sorted) to
 * LLVMFuzzerTestOneInput once, and prints one TAP line per file. A crash,
 * a sanitizer report or a broken invariant ends the run, which the
 * harness reports as a failure. Used by `make check` to replay the kept
 * corpora and crash inputs without a fuzzing engine.
 */
#include "config.h"

#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"

static FILE	*tap;
static unsigned	 n_run;

__attribute__((weak)) int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static void
run_file(const char *path)
{
	FILE		*fp;
	uint8_t		*buf = NULL, *nb;
	size_t		 n = 0, cap = 0, r;

	if ((fp = fopen(path, "rb")) == NULL) {
		fprintf(tap, "not ok %u - %s: %s\n", ++n_run, path,
		    strerror(errno));
		return;
	}
	for (;;) {
		if (n == cap) {
			cap = cap ? cap * 2 : 65536;
			if ((nb = realloc(buf, cap)) == NULL) {
				fprintf(stderr, "replay: out of memory\n");
				exit(1);
			}
			buf = nb;
		}
		r = fread(buf + n, 1, cap - n, fp);
		if (r == 0)
			break;
		n += r;
	}
	fclose(fp);
	fflush(tap);
	LLVMFuzzerTestOneInput(buf, n);
	free(buf);
	fprintf(tap, "ok %u - %s\n", ++n_run, path);
	fflush(tap);
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void
run_path(const char *path)
{
	struct stat	  st;
	struct dirent	 *de;
	DIR		 *dp;
	char		**names = NULL, **nn, sub[4096];
	size_t		  n = 0, i;

	if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
		run_file(path);
		return;
	}
	if ((dp = opendir(path)) == NULL) {
		fprintf(tap, "not ok %u - %s: %s\n", ++n_run, path,
		    strerror(errno));
		return;
	}
	while ((de = readdir(dp)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		if ((nn = realloc(names, (n + 1) * sizeof *names)) == NULL ||
		    (nn[n] = strdup(de->d_name)) == NULL) {
			fprintf(stderr, "replay: out of memory\n");
			exit(1);
		}
		names = nn;
		n++;
	}
	closedir(dp);
	if (n > 0)
		qsort(names, n, sizeof *names, by_name);
	for (i = 0; i < n; i++) {
		snprintf(sub, sizeof sub, "%s/%s", path, names[i]);
		run_path(sub);
		free(names[i]);
	}
	free(names);
}

int
main(int argc, char **argv)
{
	int	i, fd;

	/* TAP goes to the real standard output; targets may redirect it. */
	if ((fd = dup(1)) < 0 || (tap = fdopen(fd, "w")) == NULL) {
		perror("replay");
		return 1;
	}
	LLVMFuzzerInitialize(&argc, &argv);
	for (i = 1; i < argc; i++)
		run_path(argv[i]);
	fprintf(tap, "1..%u\n", n_run);
	fclose(tap);
	return 0;
}
