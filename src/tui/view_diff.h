/*
 * view_diff.h - the Diff view: what differs from another model.
 * What the application opens it with; only the application's side of the
 * browser includes this (no other view: see tui.h).
 */
#ifndef TUI_VIEW_DIFF_H
#define TUI_VIEW_DIFF_H

#include "tui.h"

/*
 * `:diff OTHER`: what differs between the document and the model OTHER
 * (src/proof/diff.h), in a view on the Summary tab; a message if OTHER
 * cannot be read.
 */
void		 view_diff_open(struct app *a, const char *other);

#endif /* TUI_VIEW_DIFF_H */
