/*
 * cli.h - the command-line front end: one function per subcommand, and the
 * output helpers they share (escaping for text, a JSON writer).
 *
 * Exit codes: 0 success, 1 a file could not be read or written, 2 usage.
 * Errors go to stderr as one line: "ggufed: FILE: offset 0x..: what".
 */
#ifndef CLI_H
#define CLI_H

#include <stdio.h>

#include "gguf.h"
#include "xmalloc.h"

#define EXIT_BADFILE	1
#define EXIT_USAGE	2

struct cli_cmd {
	const char	*name;
	int		(*fn)(int argc, char **argv);
	const char	*usage;		/* "[--json] FILE KEY" */
	const char	*help;		/* one line */
};

/* common.c: the commands, errors on stderr, what a save left. */
extern const struct cli_cmd	cli_commands[];
extern const size_t		cli_n_commands;
extern const char	*cli_prog;
void	 cli_usage_error(const char *cmd, const char *fmt, ...)
	     __attribute__((format(printf, 2, 3)));
void	 cli_file_error(const char *path, const struct gguf_err *err);
void	 cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * Opens path or prints the error; NULL on failure. Either way, what an
 * interrupted or running save left beside the file is said too.
 */
struct gguf_file *cli_open(const char *path);
/*
 * What a save left beside path, in buf: a save running, the journal of
 * an interrupted one, a killed rewrite's temporary files (their size).
 * 0 if nothing.
 */
int	 cli_leftovers(const char *path, char *buf, size_t len);
/* args.c: option values. */
/* Parses an unsigned number (decimal or 0x hex); -1 if it is not one. */
int	 cli_parse_u64(const char *s, unsigned long long *out);
/*
 * Parses a half-open range "A:B", "A:", ":B" or "N" (N:N+1). *has_b is 0
 * when the end is left open. -1 if s is not a range.
 */
int	 cli_parse_range(const char *s, uint64_t *a, uint64_t *b, int *has_b);
/* --threads N: 0 (every CPU) to 1024; else a usage error for cmd and -1. */
int	 cli_parse_threads(const char *cmd, const char *s, unsigned *out);

/* out.c: text escaping. Nothing from a file reaches the terminal raw. */
void	 out_text(FILE *fp, const char *p, size_t n);		/* escaped, unquoted */
/* A message of the core (printable ASCII; anything else escaped). */
void	 out_msg(FILE *fp, const char *msg);
void	 out_quoted(FILE *fp, const char *p, size_t n);		/* "escaped" */
void	 out_quoted_max(FILE *fp, const char *p, size_t n, size_t max);
/* JSON string of arbitrary bytes (invalid UTF-8 bytes as \udcXX). */
void	 out_json_str(FILE *fp, const char *p, size_t n);
void	 out_json_double(FILE *fp, double d);
void	 out_json_float(FILE *fp, float f);
/* A scalar value as text (numbers, bools, quoted strings). */
void	 out_scalar(FILE *fp, const struct gguf_val *v, size_t max_str);
void	 out_scalar_json(FILE *fp, const struct gguf_val *v);

/* One function per subcommand. */
int	 cmd_info(int argc, char **argv);
int	 cmd_dump(int argc, char **argv);
int	 cmd_get(int argc, char **argv);
/* cat.c */
int	 cmd_cat(int argc, char **argv);
/*
 * The tensor called name, or NULL after printing "no tensor" with the
 * closest names to stderr.
 */
const struct gguf_tensor *cli_find_tensor(const struct gguf_file *f,
	     const char *path, const char *name);
/* stats.c */
int	 cmd_stats(int argc, char **argv);
/* validate.c */
int	 cmd_validate(int argc, char **argv);
/* edit.c */
int	 cmd_edit(int argc, char **argv);
int	 cmd_set(int argc, char **argv);
int	 cmd_rm(int argc, char **argv);
int	 cmd_mv(int argc, char **argv);
int	 cmd_rename(int argc, char **argv);
int	 cmd_rm_tensor(int argc, char **argv);
int	 cmd_recover(int argc, char **argv);

#endif /* CLI_H */
