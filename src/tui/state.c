/*
 * state.c - where the browser keeps its own files: $XDG_STATE_HOME/ggufed
 * (~/.local/state/ggufed by default). The prompts' histories are there
 * (prompt.c), and the unsaved changes of a browser that was cut off
 * (rescue.c).
 */
#include "config.h"

#include <sys/stat.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "xmalloc.h"

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
