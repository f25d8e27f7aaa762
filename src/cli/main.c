/*
 * main.c - argument dispatch for the ggufed command line.
 *
 * `ggufed FILE` opens the interactive browser; `ggufed COMMAND ...` runs one
 * subcommand from the table of commands (common.c). Each subcommand parses
 * its own options and returns the process exit status.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "xmalloc.h"
#include "tui/tui.h"

static void
usage(FILE *fp)
{
	size_t	i;

	fprintf(fp, "usage: %s COMMAND [ARGS]\n\ncommands:\n", cli_prog);
	for (i = 0; i < cli_n_commands; i++)
		fprintf(fp, "  %-7s %s\n          %s\n", cli_commands[i].name,
		    cli_commands[i].usage, cli_commands[i].help);
	fprintf(fp, "\noptions: --help, --version\n"
	    "exit status: 0 success, 1 unreadable or invalid file, 2 usage "
	    "error\n");
}

/* Out of memory: one line, and no leak report from a process cut short. */
static void
cli_oom(size_t n)
{
	fprintf(stderr, "ggufed: out of memory allocating %zu bytes\n", n);
	_exit(EXIT_BADFILE);
}

int
main(int argc, char **argv)
{
	size_t	i;

	xmalloc_set_oom(cli_oom);
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
	for (i = 0; i < cli_n_commands; i++) {
		if (strcmp(argv[1], cli_commands[i].name) == 0)
			return cli_commands[i].fn(argc - 1, argv + 1);
	}
	/* Not a command: a file to browse. */
	if (argv[1][0] != '-' && argc == 2)
		return tui_main(argv[1]);
	cli_usage_error(NULL, "unknown command '%s' (try --help)", argv[1]);
	return EXIT_USAGE;
}
