/*
 * view_changes.h - the pending changes and the plan of a regex rename.
 * What the application opens it with; only the application's side of the
 * browser includes this (no other view: see tui.h).
 */
#ifndef TUI_VIEW_CHANGES_H
#define TUI_VIEW_CHANGES_H

#include "tui.h"

/* The pending changes, one line each. */
struct view	*view_changes_new(struct app *a);
/* The mapping of a regex rename, applied on confirmation. */
struct view	*view_rename_new(struct app *a, const char *pattern,
		    const char *repl, int global, int icase);

#endif /* TUI_VIEW_CHANGES_H */
