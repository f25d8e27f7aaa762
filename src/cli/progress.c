/*
 * progress.c - the one progress line of long commands (saving, split,
 * stats, diff) on standard error, and Ctrl-C as their cancel.
 *
 * The line shows only when standard error is a terminal and the job is
 * at least min_total bytes; it is redrawn at most ten times a second and
 * wiped when the job ends, so nothing of it stays in a terminal's
 * scrollback and nothing reaches a file standard error goes to.
 */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

static volatile sig_atomic_t	caught;

static void
on_sigint(int sig)
{
	(void)sig;
	caught = 1;
}

void
cli_sigint_catch(struct sigaction *old)
{
	struct sigaction	sa;

	/* A file size limit makes writes fail with EFBIG, not kill us. */
	signal(SIGXFSZ, SIG_IGN);
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_sigint;
	sigaction(SIGINT, &sa, old);
}

void
cli_sigint_restore(const struct sigaction *old)
{
	sigaction(SIGINT, old, NULL);
}

int
cli_sigint_caught(void)
{
	return caught != 0;
}

void
cli_progress_init(struct cli_progress *p, const char *what,
    uint64_t min_total)
{
	memset(p, 0, sizeof *p);
	p->what = what;
	p->min_total = min_total;
	p->tty = isatty(STDERR_FILENO);
}

static double
seconds(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int
cli_progress(void *arg, uint64_t done, uint64_t total)
{
	struct cli_progress	*p = arg;
	double			 now;
	size_t			 n;

	if (caught)
		return 1;
	if (!p->tty || total < p->min_total)
		return 0;
	now = seconds();
	if (p->shown && now - p->last < 0.1)
		return 0;
	p->last = now;
	fprintf(stderr, "\r%s: ", p->what);
	if (p->count > 0)
		fprintf(stderr, "%llu/%llu ", (unsigned long long)p->index + 1,
		    (unsigned long long)p->count);
	if (p->item != NULL) {
		n = p->item_len > 40 ? 40 : p->item_len;
		out_text(stderr, p->item, n);
		fputs(p->item_len > 40 ? "... " : " ", stderr);
	}
	fprintf(stderr, "%3.0f%%  ",
	    total > 0 ? 100.0 * (double)done / (double)total : 100.0);
	fflush(stderr);		/* no newline: stderr is line-buffered */
	p->shown = 1;
	return 0;
}

void
cli_progress_clear(struct cli_progress *p)
{
	if (p->shown)
		fprintf(stderr, "\r%-78s\r", "");
	fflush(stderr);
	p->shown = 0;
}
