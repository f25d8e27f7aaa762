/*
 * state.c - where the browser keeps its own files: $XDG_STATE_HOME/ggufed
 * (~/.local/state/ggufed by default). The prompts' histories are there
 * (prompt.c), and the unsaved changes of a browser that was cut off
 * (rescue.c).
 *
 * Nothing is written there or read back from there unless the directory
 * (and its subdirectory) is one of the user's own, not a link, that
 * neither its group nor others can write: in a directory others can write
 * into, a link planted at a history's name would have the history written
 * over the file it leads to, and a rescue script could be swapped before
 * it is applied.
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app.h"
#include "trust.h"
#include "xmalloc.h"

static char	state_why[PATH_MAX + 128];

char *
state_dir(const char *sub)
{
	const char	*x = getenv("XDG_STATE_HOME"), *home;
	char		 buf[PATH_MAX];

	if (x != NULL && x[0] == '/')
		snprintf(buf, sizeof buf, "%s/ggufed%s%s", x, sub ? "/" : "",
		    sub ? sub : "");
	else if ((home = getenv("HOME")) != NULL && home[0] == '/')
		snprintf(buf, sizeof buf, "%s/.local/state/ggufed%s%s", home,
		    sub ? "/" : "", sub ? sub : "");
	else
		return NULL;
	return xstrdup(buf);
}

void
state_make_dirs(const char *path)
{
	char	buf[PATH_MAX], *s;

	snprintf(buf, sizeof buf, "%s", path);
	for (s = buf + 1; *s != '\0'; s++) {
		if (*s == '/') {
			*s = '\0';
			mkdir(buf, 0700);
			*s = '/';
		}
	}
	mkdir(buf, 0700);
}

char *
state_safe_dir(const char *sub, int make)
{
	char		*top, *dir, why[128];
	const char	*bad = NULL, *which = NULL;

	if ((top = state_dir(NULL)) == NULL)
		return NULL;
	dir = sub != NULL ? state_dir(sub) : xstrdup(top);
	if (make)
		state_make_dirs(dir);
	if ((bad = gguf_unsafe_dir(top, why, sizeof why)) != NULL)
		which = top;
	else if (sub != NULL && (bad = gguf_unsafe_dir(dir, why, sizeof why)) !=
	    NULL)
		which = dir;
	if (bad != NULL)
		snprintf(state_why, sizeof state_why, "%s %s", which, bad);
	free(top);
	if (bad != NULL) {
		free(dir);
		return NULL;
	}
	return dir;
}

const char *
state_unsafe(void)
{
	char	*dir;

	state_why[0] = '\0';
	if ((dir = state_safe_dir("rescue", 0)) != NULL)
		free(dir);
	return state_why[0] != '\0' ? state_why : NULL;
}
