/*
 * view_tensors.h - the Tensors tab: every tensor, grouped by block.
 * What the application opens it with; only the application's side of the
 * browser includes this (no other view: see tui.h).
 */
#ifndef TUI_VIEW_TENSORS_H
#define TUI_VIEW_TENSORS_H

#include "tui.h"

struct view	*view_tensors_new(struct app *a);

#endif /* TUI_VIEW_TENSORS_H */
