/*
 * fuzz.h - what the fuzz targets in this directory share.
 *
 * Each target defines LLVMFuzzerTestOneInput and builds two ways: linked
 * with a fuzzing engine (libFuzzer, or AFL++'s driver) when configured
 * with --enable-fuzzing, and linked with replay.c, a plain main that feeds
 * it the files and directories named on its command line, so the kept
 * corpora and every crash input ever found run under `make check` with
 * the ordinary sanitized build.
 *
 * A target reports a broken invariant with fuzz_fail, which aborts: the
 * engine keeps the input as a crash.
 */
#ifndef FUZZ_H
#define FUZZ_H

#include <stddef.h>
#include <stdint.h>

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int	LLVMFuzzerInitialize(int *argc, char ***argv);

/* Prints "fuzz invariant broken: ..." to stderr and aborts. */
void	fuzz_fail(const char *fmt, ...)
	    __attribute__((format(printf, 1, 2), noreturn));

/*
 * True if p holds only text that is safe for a terminal: valid UTF-8, no
 * control character but newline and tab, no DEL, no C1 control and no
 * bidirectional override. *bad gets the offset of the first offence.
 */
int	fuzz_safe_text(const char *p, size_t n, size_t *bad);

/*
 * Runs a command of the CLI in this process (argv[argc] is NULL), its
 * output and messages caught together, and fails unless all it printed
 * is safe for a terminal (fuzz_safe_text).
 */
void	fuzz_run_cmd(int (*cmd)(int, char **), int argc, char **argv);

/*
 * A private scratch directory for the whole run (created once, removed at
 * exit), and the path of a file of that name inside it.
 */
const char	*fuzz_scratch(void);
void		 fuzz_path(char *buf, size_t len, const char *name);

/* Writes n bytes to path (created or truncated); aborts on failure. */
void	fuzz_write_file(const char *path, const void *p, size_t n);

#endif /* FUZZ_H */
