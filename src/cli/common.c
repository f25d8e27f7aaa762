/*
 * common.c - what the subcommands share: the table of commands (name,
 * usage, help), errors on stderr as one line each, naming the program,
 * the file and, for a corrupt file, the offset, and what a save left
 * beside a file (running, interrupted) said by every command reading it.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "doc.h"

const char	*cli_prog = "ggufed";

const struct cli_cmd cli_commands[] = {
	{ "info", cmd_info, "FILE",
	    "summary: version, layout, counts, architecture, tensor types, warnings" },
	{ "dump", cmd_dump, "[--json] [--max-array N] FILE",
	    "every KV pair and every tensor info" },
	{ "get", cmd_get, "[--json] [--raw] FILE KEY",
	    "one value; arrays one element per line" },
	{ "cat", cmd_cat, "FILE TENSOR [--rows A:B] [--cols A:B] "
	    "[--slice I,J] [--raw]",
	    "a tensor's values, one row per line (--raw: its blocks)" },
	{ "stats", cmd_stats, "FILE (TENSOR... | --all) [--rows A:B] "
	    "[--json] [--threads N]",
	    "statistics: min, max, mean, std, zeros, NaN, Inf, histogram" },
	{ "validate", cmd_validate, "[--data] [--strict] [--json] [-q] "
	    "[--threads N] FILE...",
	    "check that files load in every GGUF reader: errors, warnings, "
	    "notes" },
	{ "edit", cmd_edit, "FILE (-i | -o OUT) [-e CMD]... [-f SCRIPT] "
	    "[--dry-run] [--reserve BYTES] [--force]",
	    "apply edit commands (set, rm, mv, rename, ...) and save once" },
	{ "set", cmd_set, "FILE KEY[:TYPE] VALUE (-i | -o OUT)",
	    "set a value (KEY:TYPE adds a key or changes its type)" },
	{ "rm", cmd_rm, "FILE KEY (-i | -o OUT)", "remove a key" },
	{ "mv", cmd_mv, "FILE KEY NEWKEY (-i | -o OUT)", "rename a key" },
	{ "rename", cmd_rename, "FILE (TENSOR NEWNAME | s/REGEX/REPL/[g]) "
	    "(-i | -o OUT)", "rename tensors" },
	{ "rm-tensor", cmd_rm_tensor, "FILE NAME (-i | -o OUT)",
	    "remove a tensor and its data" },
	{ "recover", cmd_recover, "FILE",
	    "roll back a save that was interrupted (from its journal)" },
};
const size_t	cli_n_commands = sizeof cli_commands / sizeof cli_commands[0];

void
cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list	ap;
	size_t	i;

	fprintf(stderr, "%s: ", cli_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	for (i = 0; cmd != NULL && i < cli_n_commands; i++) {
		if (strcmp(cli_commands[i].name, cmd) == 0)
			fprintf(stderr, "usage: %s %s %s\n", cli_prog, cmd,
			    cli_commands[i].usage);
	}
}

void
cli_error(const char *fmt, ...)
{
	va_list	ap;

	fprintf(stderr, "%s: ", cli_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void
cli_file_error(const char *path, const struct gguf_err *err)
{
	char	buf[640];

	gguf_err_text(err, buf, sizeof buf);
	fprintf(stderr, "%s: ", cli_prog);
	out_text(stderr, path, strlen(path));
	fputs(": ", stderr);
	out_msg(stderr, buf);
	fputc('\n', stderr);
}

int
cli_leftovers(const char *path, char *buf, size_t len)
{
	struct gguf_err	err;
	uint64_t	bytes;
	long		pid;
	char		sz[32];
	int		n;

	if ((pid = gguf_save_holder(path)) > 0)
		snprintf(buf, len, "the file is being saved by process %ld",
		    pid);
	else if (pid < 0)
		snprintf(buf, len, "the file is being saved by another "
		    "process");
	else if (gguf_journal_exists(path))
		snprintf(buf, len, "an interrupted save left a journal: run "
		    "'ggufed recover' on the file");
	else if ((n = gguf_stale_temps(path, 0, &bytes, &err)) > 0)
		snprintf(buf, len, "a rewrite that was interrupted left %s "
		    "(%s) beside the file: 'ggufed recover' removes %s",
		    n == 1 ? "a temporary file" : "temporary files",
		    gguf_fmt_size(bytes, sz, sizeof sz), n == 1 ? "it" :
		    "them");
	else
		return 0;
	return 1;
}

struct gguf_file *
cli_open(const char *path)
{
	struct gguf_err		 err;
	struct gguf_file	*f;
	char			 left[400];
	int			 n;

	/* First: a header torn by a crash does not parse; the journal says why. */
	n = cli_leftovers(path, left, sizeof left);
	memset(&err, 0, sizeof err);
	f = gguf_open(path, &err);
	if (f == NULL)
		cli_file_error(path, &err);
	if (n) {
		snprintf(err.msg, sizeof err.msg, "%s%s", f != NULL ?
		    "warning: " : "", left);
		err.has_off = 0;
		cli_file_error(path, &err);
	}
	return f;
}
