/*
 * cli_stub.c - the few helpers of the command line's main.c that the
 * subcommands linked into a fuzz target call, without its main and
 * without the browser. Messages go to standard output, where the fuzz
 * target catches them with the rest of what is printed and checks that
 * they are safe for a terminal too.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

const char	*cli_prog = "ggufed";

void
cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list	ap;

	(void)cmd;
	va_start(ap, fmt);
	vfprintf(stdout, fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
}

void
cli_error(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vfprintf(stdout, fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
}

void
cli_file_error(const char *path, const struct gguf_err *err)
{
	char	buf[640];

	gguf_err_text(err, buf, sizeof buf);
	out_text(stdout, path, strlen(path));
	fputs(": ", stdout);
	out_msg(stdout, buf);
	fputc('\n', stdout);
}

struct gguf_file *
cli_open(const char *path)
{
	struct gguf_err		 err;
	struct gguf_file	*f;

	memset(&err, 0, sizeof err);
	if ((f = gguf_open(path, &err)) == NULL)
		cli_file_error(path, &err);
	return f;
}
