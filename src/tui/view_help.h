/*
 * view_help.h - the help screen, made from the key table.
 * What the application opens it with; only the application's side of the
 * browser includes this (no other view: see tui.h).
 */
#ifndef TUI_VIEW_HELP_H
#define TUI_VIEW_HELP_H

#include "tui.h"

struct view	*view_help_new(struct app *a);	

#endif /* TUI_VIEW_HELP_H */
