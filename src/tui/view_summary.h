/*
 * view_summary.h - the Summary tab: what the model is, at a glance.
 * What the application opens it with; only the application's side of the
 * browser includes this (no other view: see tui.h).
 */
#ifndef TUI_VIEW_SUMMARY_H
#define TUI_VIEW_SUMMARY_H

#include "tui.h"

struct view	*view_summary_new(struct app *a);

#endif /* TUI_VIEW_SUMMARY_H */
