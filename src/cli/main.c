/*
 * main.c - argument dispatch for the ggufed command line.
 *
 * `ggufed FILE` opens the interactive browser; `ggufed COMMAND ...` runs one
 * subcommand from the table below. Each subcommand parses its own options
 * and returns the process exit status.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "doc.h"
#include "tui/tui.h"

const char	*cli_prog = "ggufed";

static const struct cli_cmd commands[] = {
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
#define N_COMMANDS	(sizeof commands / sizeof commands[0])

static void
usage(FILE *fp)
{
	size_t	i;

	fprintf(fp, "usage: %s COMMAND [ARGS]\n\ncommands:\n", cli_prog);
	for (i = 0; i < N_COMMANDS; i++)
		fprintf(fp, "  %-7s %s\n          %s\n", commands[i].name,
		    commands[i].usage, commands[i].help);
	fprintf(fp, "\noptions: --help, --version\n"
	    "exit status: 0 success, 1 unreadable or invalid file, 2 usage "
	    "error\n");
}

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
	for (i = 0; cmd != NULL && i < N_COMMANDS; i++) {
		if (strcmp(commands[i].name, cmd) == 0)
			fprintf(stderr, "usage: %s %s %s\n", cli_prog, cmd,
			    commands[i].usage);
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

struct gguf_file *
cli_open(const char *path)
{
	struct gguf_err		 err;
	struct gguf_file	*f;

	memset(&err, 0, sizeof err);
	f = gguf_open(path, &err);
	if (f == NULL)
		cli_file_error(path, &err);
	else if (gguf_journal_exists(path)) {
		snprintf(err.msg, sizeof err.msg, "warning: an interrupted "
		    "save left a journal: run 'ggufed recover' on the file");
		err.has_off = 0;
		cli_file_error(path, &err);
	} else if (gguf_stale_temps(path, 0, &err) > 0) {
		snprintf(err.msg, sizeof err.msg, "warning: a rewrite that was "
		    "interrupted left a temporary file: 'ggufed recover' "
		    "removes it");
		err.has_off = 0;
		cli_file_error(path, &err);
	}
	return f;
}

int
main(int argc, char **argv)
{
	size_t	i;

	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return 0;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("%s %s\n", PACKAGE_NAME, PACKAGE_VERSION);
		return 0;
	}
	for (i = 0; i < N_COMMANDS; i++) {
		if (strcmp(argv[1], commands[i].name) == 0)
			return commands[i].fn(argc - 1, argv + 1);
	}
	/* Not a command: a file to browse. */
	if (argv[1][0] != '-' && argc == 2)
		return tui_main(argv[1]);
	cli_usage_error(NULL, "unknown command '%s' (try --help)", argv[1]);
	return EXIT_USAGE;
}
