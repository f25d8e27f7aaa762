/*
 * view_sync.h - the Sync view: the differences with a model's upstream
 * repository files, to apply. What the application opens it with; only
 * the application's side of the browser includes this (no other view:
 * see tui.h).
 */
#ifndef TUI_VIEW_SYNC_H
#define TUI_VIEW_SYNC_H

#include "tui.h"

/* `:sync DIR`: the differences with the upstream files, to apply. */
void		 view_sync_open(struct app *a, const char *dir);

#endif /* TUI_VIEW_SYNC_H */
