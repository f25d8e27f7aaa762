/*
 * view_tokens.h - the Tokenizer tab: the vocabulary, token by token.
 * What the application opens it with; only the application's side of the
 * browser includes this (no other view: see tui.h).
 */
#ifndef TUI_VIEW_TOKENS_H
#define TUI_VIEW_TOKENS_H

#include "tui.h"

struct view	*view_tokens_new(struct app *a);

#endif /* TUI_VIEW_TOKENS_H */
