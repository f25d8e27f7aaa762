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

/*
 * An option of a command, as `COMMAND --help` and the manual give it:
 * its spellings, comma-separated, each with its argument if it takes
 * one ("-o OUT, --output OUT"), and one line of help.
 */
struct cli_opt {
	const char	*flags;
	const char	*help;
};

/*
 * A command: `ggufed --help` lists them, `ggufed COMMAND --help` prints
 * one (usage, options, an example), and a usage error repeats its usage.
 * The options are every option the command's parser accepts but --help
 * (tests/cli/help.sh holds the two together, and the manual to both).
 */
struct cli_cmd {
	const char		*name;
	int			(*fn)(int argc, char **argv);
	const char		*usage;		/* "[--json] FILE KEY" */
	const char		*help;		/* one line */
	const struct cli_opt	*opts;		/* ends with { NULL, NULL } */
	const char		*example;	/* arguments after the name */
};

/* common.c: the commands, errors on stderr, what a save left. */
extern const struct cli_cmd	cli_commands[];
extern const size_t		cli_n_commands;
extern const char	*cli_prog;
/* --shard (--no-set): a shard of a split model is opened alone. */
extern int		 cli_alone;
/*
 * Takes --shard and --no-set out of argv (before any "--"), setting
 * cli_alone; returns the new argc.
 */
int	 cli_take_shard(int argc, char **argv);
/* The command called name, or NULL. */
const struct cli_cmd *cli_find_command(const char *name);
/* `ggufed --help`: the forms, every command, the options; to fp. */
void	 cli_help_all(FILE *fp);
/* `ggufed COMMAND --help`: usage, options, an example; on stdout, 0. */
int	 cli_help(const struct cli_cmd *c);
void	 cli_usage_error(const char *cmd, const char *fmt, ...)
	     __attribute__((format(printf, 2, 3)));
void	 cli_file_error(const char *path, const struct gguf_err *err);
void	 cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * Opens path or prints the error; NULL on failure. Either way, what an
 * interrupted or running save left beside the file is said too. A shard
 * of a split model opens the whole set (set.h), unless cli_alone.
 */
struct gguf_file *cli_open(const char *path);
/* One warning when f's shards are not one whole set (gguf_set_errors). */
void	cli_set_warning(const char *path, const struct gguf_file *f);
/*
 * What a save left beside path, in buf: a save running, the journal of
 * an interrupted one, a killed rewrite's temporary files (their size).
 * 0 if nothing.
 */
int	 cli_leftovers(const char *path, char *buf, size_t len);
/*
 * What killed saves left beside path, or beside every shard of the split
 * set path is a shard of (temporary files, a set's old shards): how many
 * files, after removing them if remove is set; of each kind in *lo.
 */
struct gguf_leftovers;
int	 cli_stale_temps(const char *path, int remove,
	    struct gguf_leftovers *lo, struct gguf_err *err);
/* args.c: option values. */
/* Parses an unsigned decimal number; -1 if it is not one (0x3 is not). */
int	 cli_parse_u64(const char *s, unsigned long long *out);
/*
 * Parses a half-open range "A:B", "A:", ":B" or "N" (N:N+1). *has_b is 0
 * when the end is left open. -1 if s is not a range.
 */
int	 cli_parse_range(const char *s, uint64_t *a, uint64_t *b, int *has_b);
/*
 * A range A:B that is reversed (B before A): one usage line for cmd's
 * option opt, naming it, and -1; 0 if it is not (A:A, empty, is not).
 */
/*
 * An argument as an option loop sees it: NULL for the "--" that ends the
 * options (*dd set), "" for every word after it (an argument, whatever it
 * looks like: the loop takes argv[i] as it is), else arg itself.
 */
const char	*cli_opt(const char *arg, int *dd);
int	cli_range_sane(const char *cmd, const char *opt, const char *text,
	    uint64_t a, uint64_t b, int has_b);
/* --threads N: 0 (every CPU) to 1024; else a usage error for cmd and -1. */
int	 cli_parse_threads(const char *cmd, const char *s, unsigned *out);
/*
 * A size in bytes: N, NK, NM, NG, NT (powers of 1000, as gguf-split's)
 * or NKiB, NMiB, NGiB, NTiB (powers of 1024), a B after any; -1 if not.
 */
int	 cli_parse_size(const char *s, uint64_t *out);
#define CLI_SIZE_UNITS	"K, M, G, T: 10^3, 10^6, 10^9, 10^12; KiB, MiB, " \
	"GiB, TiB: 2^10, 2^20, 2^30, 2^40"

/*
 * progress.c: a progress line on standard error for long work, and
 * Ctrl-C as its cancel. cli_progress is a gguf progress callback (arg: a
 * struct cli_progress); it returns 1, cancelling the job, once Ctrl-C
 * was pressed between cli_sigint_catch and cli_sigint_restore.
 */
struct cli_progress {
	const char	*what;		/* "saving", "stats", ... */
	const char	*item;		/* a tensor's name shown, or NULL */
	size_t		 item_len;
	uint64_t	 index, count;	/* "index+1/count" when count > 0 */
	uint64_t	 min_total;	/* smaller jobs show nothing */
	double		 last;
	int		 tty, shown;
};
void	 cli_progress_init(struct cli_progress *p, const char *what,
	    uint64_t min_total);
int	 cli_progress(void *arg, uint64_t done, uint64_t total);
void	 cli_progress_clear(struct cli_progress *p);	/* wipes the line */
struct sigaction;
void	 cli_sigint_catch(struct sigaction *old);	/* also SIGXFSZ off */
void	 cli_sigint_restore(const struct sigaction *old);
int	 cli_sigint_caught(void);

/* out.c: text escaping. Nothing from a file reaches the terminal raw. */
void	 out_text(FILE *fp, const char *p, size_t n);		/* escaped, unquoted */
/* A message of the core (printable ASCII; anything else escaped). */
void	 out_msg(FILE *fp, const char *msg);
void	 out_quoted(FILE *fp, const char *p, size_t n);		/* "escaped" */
void	 out_quoted_max(FILE *fp, const char *p, size_t n, size_t max);
/* out_text cut at max bytes (on a character), then "... (N bytes)". */
void	 out_text_max(FILE *fp, const char *p, size_t n, size_t max);
/* JSON string of arbitrary bytes (invalid UTF-8 bytes as \udcXX). */
void	 out_json_str(FILE *fp, const char *p, size_t n);
void	 out_json_double(FILE *fp, double d);
void	 out_json_float(FILE *fp, float f);
/* A scalar value as text (numbers, bools, quoted strings). */
void	 out_scalar(FILE *fp, const struct gguf_val *v, size_t max_str);
void	 out_scalar_json(FILE *fp, const struct gguf_val *v);

/*
 * out.c: a JSON writer, so each --json output is one document laid out
 * the same way. Commas, colons and indentation are its business:
 *
 *	struct json	j;
 *
 *	json_init(&j, stdout);
 *	json_obj(&j, JSON_LINES);	-- members one a line, indented
 *	json_key(&j, "tensors");
 *	json_arr(&j, JSON_LINES);
 *	json_obj(&j, JSON_FLAT);	-- {"name": ..., "bytes": 12} inline
 *	json_key(&j, "name"); json_str(&j, p, n);
 *	...
 *	json_end(&j); json_end(&j); json_end(&j);
 *	json_finish(&j);		-- the final newline
 *
 * A container opened inside a flat one is flat too. Keys are plain ASCII
 * names of the program's own; text from a file goes through json_str.
 */
#define JSON_MAXDEPTH	32
#define JSON_LINES	0
#define JSON_FLAT	1
struct json {
	FILE		*fp;
	int		 depth;
	int		 key;			/* a key waits for its value */
	unsigned char	 any[JSON_MAXDEPTH];	/* the container has members */
	unsigned char	 flat[JSON_MAXDEPTH];
	char		 closer[JSON_MAXDEPTH];	/* } or ] */
};
void	 json_init(struct json *j, FILE *fp);
void	 json_obj(struct json *j, int flat);
void	 json_arr(struct json *j, int flat);
void	 json_end(struct json *j);
void	 json_finish(struct json *j);
void	 json_key(struct json *j, const char *key);
void	 json_str(struct json *j, const char *p, size_t n);	/* as out_json_str */
void	 json_cstr(struct json *j, const char *s);	/* NUL-terminated */
void	 json_u64(struct json *j, uint64_t v);
void	 json_i64(struct json *j, int64_t v);
void	 json_double(struct json *j, double d);		/* as out_json_double */
void	 json_float(struct json *j, float f);
void	 json_bool(struct json *j, int b);
void	 json_null(struct json *j);
void	 json_scalar(struct json *j, const struct gguf_val *v);	/* out_scalar_json */
/* A value written by the caller to j->fp follows (after json_key or ','). */
FILE	*json_raw(struct json *j);

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
/* tokens.c */
int	 cmd_tokens(int argc, char **argv);
/* mem.c */
int	 cmd_mem(int argc, char **argv);
/* diff.c */
int	 cmd_diff(int argc, char **argv);
/* validate.c */
int	 cmd_validate(int argc, char **argv);
/* hash.c */
int	 cmd_hash(int argc, char **argv);
/* template.c */
int	 cmd_template(int argc, char **argv);
/* sync.c */
int	 cmd_sync(int argc, char **argv);
/* edit.c */
int	 cmd_edit(int argc, char **argv);
/*
 * Set by a command that applies edits of its own through cmd_edit (sync):
 * their messages name no "-e #N" step, which the user never gave.
 */
extern int cli_edit_own_steps;
int	 cmd_set(int argc, char **argv);
int	 cmd_rm(int argc, char **argv);
int	 cmd_mv(int argc, char **argv);
int	 cmd_rename(int argc, char **argv);
int	 cmd_rm_tensor(int argc, char **argv);
int	 cmd_convert(int argc, char **argv);
int	 cmd_recover(int argc, char **argv);
/* new.c: a tiny random model of an architecture of the table. */
int	 cmd_new(int argc, char **argv);
struct gguf_doc;
/*
 * One command of the edit language applied to d, its refusal or warning
 * said on stderr (where, where2: the script and line, or NULL): 0, or
 * the LANG_* code (negative) of a refusal.
 */
int	 cli_edit_line(struct gguf_doc *d, const char *line, int force,
	     const char *where, const char *where2);
/*
 * What the edits of d broke for llama.cpp (the model check, model.h), a
 * warning on standard error each, naming path; with strict, errors, and
 * -1: nothing must be written.
 */
int	 cli_model_check(struct gguf_doc *d, const char *path, int strict);
/* split.c */
int	 cmd_split(int argc, char **argv);
int	 cmd_merge(int argc, char **argv);
/*
 * complete.c: `ggufed __complete WORD...`, a hidden command: the
 * candidates for the last word of a command line, one a line, for the
 * shell completion scripts (":files" asks for file names too).
 */
int	 cmd_complete(int argc, char **argv);

#endif /* CLI_H */
