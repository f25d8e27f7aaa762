/*
 * main.c - argument dispatch for the ggufed command line.
 *
 * `ggufed FILE` opens the interactive browser; `ggufed COMMAND ...` runs one
 * subcommand from the table of commands (common.c). Each subcommand parses
 * its own options and returns the process exit status; `COMMAND --help`
 * prints the command's help from the table instead.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "hf.h"
#include "model.h"
#include "remote.h"
#include "suggest.h"
#include "xmalloc.h"
#include "tui/tui.h"

/*
 * A --help (or -h) among a command's arguments, before any "--": the
 * command's help instead of running it.
 */
static int
wants_help(int argc, char **argv)
{
	int	i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			break;
		if (strcmp(argv[i], "--help") == 0 ||
		    strcmp(argv[i], "-h") == 0)
			return 1;
	}
	return 0;
}

/* Out of memory: one line, and no leak report from a process cut short. */
static void
cli_oom(size_t n)
{
	fprintf(stderr, "ggufed: out of memory allocating %zu bytes\n", n);
	_exit(EXIT_BADFILE);
}

/*
 * The browser's command line: [--shard | --no-set] [--message TEXT] FILE,
 * options in any order before the file. Returns the browser's exit status,
 * or -1 when the arguments are not a browser's (an unknown word, to be
 * answered as an unknown command).
 */
static int
browse(int argc, char **argv)
{
	const char	*path = NULL, *message = NULL;
	int		 i, alone = 0;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--shard") == 0 ||
		    strcmp(argv[i], "--no-set") == 0)
			alone = 1;
		else if (strcmp(argv[i], "--message") == 0) {
			if (i + 1 == argc) {
				cli_usage_error(NULL, "--message needs a text");
				return EXIT_USAGE;
			}
			message = argv[++i];
		} else if (strncmp(argv[i], "--message=", 10) == 0)
			message = argv[i] + 10;
		else if (argv[i][0] == '-' || path != NULL)
			return -1;
		else
			path = argv[i];
	}
	if (path == NULL) {
		if (argc == 2)
			return -1;
		cli_usage_error(NULL, "no file to browse");
		return EXIT_USAGE;
	}
	return tui_main(path, alone, message);
}

/*
 * Takes --no-cache (before any "--") out of argv, for every command and
 * the browser alike: headers read over the network are then neither
 * taken from the cache nor kept in it. Returns the new argc.
 */
static int
take_no_cache(int argc, char **argv)
{
	int	i, n = 1;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0) {
			while (i < argc)
				argv[n++] = argv[i++];
			break;
		}
		if (strcmp(argv[i], "--no-cache") == 0)
			gguf_remote_cache(0);
		else
			argv[n++] = argv[i];
	}
	argv[n] = NULL;
	return n;
}

/*
 * Every URL among the arguments with a user:password@ (also as the value
 * of --opt=URL) in its user:***@ form: the name each message, status
 * line and output then prints. The password is kept aside (hf.h) and is
 * sent to that server only; the argument's own bytes are overwritten,
 * so that the process's command line (/proc/PID/cmdline, ps) no longer
 * shows it.
 */
static void
hide_passwords(int argc, char **argv)
{
	char		*v, *h;
	size_t		 pre;
	int		 i;

	for (i = 1; i < argc; i++) {
		v = argv[i];
		if (strncmp(v, "--", 2) == 0 && strchr(v, '=') != NULL)
			v = strchr(v, '=') + 1;
		if ((h = gguf_url_hide(v)) == NULL)
			continue;
		pre = (size_t)(v - argv[i]);
		argv[i] = xmalloc(pre + strlen(h) + 1);
		memcpy(argv[i], v - pre, pre);
		memcpy(argv[i] + pre, h, strlen(h) + 1);
		free(h);
		gguf_url_wipe(v);
	}
}

/* The header cache's warning, on the standard error as every other. */
static void
cache_warning(const char *msg)
{
	fprintf(stderr, "ggufed: %s\n", msg);
}

/*
 * The commands that only read the models they open, for moments: a large
 * header is read where the file is mapped, not copied (gguf_keep_headers).
 * A command that may write a model in place keeps its copy, which reads
 * as the file was before its own writes, and so does the browser.
 */
static const char *const readers[] = {
	"info", "dump", "get", "cat", "stats", "tokens", "mem", "validate",
	"hash", "diff", "template", NULL
};

static int
run_command(const struct cli_cmd *c, int argc, char **argv)
{
	size_t	i;
	int	rc;

	for (i = 0; readers[i] != NULL; i++)
		if (strcmp(c->name, readers[i]) == 0)
			gguf_keep_headers(GGUF_HEADERS_VIEW);
	gguf_unmap_late(1);		/* every command ends soon after */
	rc = c->fn(argc, argv);
	/* what a failure said of the file said it: a success must say it */
	if (rc == 0 && gguf_headers_cut()) {
		fflush(stdout);
		fprintf(stderr, "%s: a model was cut short on disk while it "
		    "was being read: what was shown of it may be wrong\n",
		    cli_prog);
		rc = EXIT_BADFILE;
	}
	return rc;
}

int
main(int argc, char **argv)
{
	const struct cli_cmd	*c;
	struct gguf_suggest	 sg;
	const char		*best;
	size_t			 i;
	int			 rc;
	static char		 errbuf[4096];

	/*
	 * Messages go out a line at a time, in one write each, not a byte at
	 * a time (stderr's default): two commands sharing a log or a
	 * terminal cannot mix their lines, and a message costs one system
	 * call. Every message ends its line; the progress meter, which does
	 * not, flushes.
	 */
	setvbuf(stderr, errbuf, _IOLBF, sizeof errbuf);
	xmalloc_set_oom(cli_oom);
	gguf_remote_cache_warn(cache_warning);
	argc = take_no_cache(argc, argv);
	hide_passwords(argc, argv);
	if (argc < 2) {
		cli_help_all(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		cli_help_all(stdout);
		return 0;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("%s %s\n", PACKAGE_NAME, PACKAGE_VERSION);
		printf("model check and mem follow llama.cpp %s (commit %s, "
		    "as shipped in %s)\n", GGUF_LLAMA_CPP_RELEASE,
		    GGUF_LLAMA_CPP_COMMIT, GGUF_LLAMA_CPP_VIA);
		return 0;
	}
	/* Hidden: the completion scripts' helper, not a command to list. */
	if (strcmp(argv[1], "__complete") == 0)
		return cmd_complete(argc - 1, argv + 1);
	if ((c = cli_find_command(argv[1])) != NULL) {
		if (wants_help(argc - 1, argv + 1))
			return cli_help(c);
		return run_command(c, argc - 1, argv + 1);
	}
	/* Not a command: a file to browse. */
	if ((rc = browse(argc, argv)) >= 0)
		return rc;
	gguf_suggest_init(&sg, argv[1], strlen(argv[1]));
	for (i = 0; i < cli_n_commands; i++)
		gguf_suggest_add(&sg, cli_commands[i].name,
		    strlen(cli_commands[i].name));
	if ((best = gguf_suggest_best(&sg, NULL)) != NULL)
		cli_usage_error(NULL, "unknown command '%s' (did you mean "
		    "'%s'?)", argv[1], best);
	else
		cli_usage_error(NULL, "unknown command '%s' (try --help)",
		    argv[1]);
	return EXIT_USAGE;
}
