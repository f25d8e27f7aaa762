/*
 * view_meta.h - the Metadata tab: every key, grouped, with its value.
 * What the application opens it with; only the application's side of the
 * browser includes this (no other view: see tui.h).
 */
#ifndef TUI_VIEW_META_H
#define TUI_VIEW_META_H

#include "tui.h"

struct view	*view_meta_new(struct app *a);	

#endif /* TUI_VIEW_META_H */
