/*
 * loop.h - what the commands (cmdline.c, edit.c, rescue.c) may ask of the
 * loop (app.c): the work it does after a handler returns, and the message
 * log. No view includes it: a view asks through tui.h.
 */
#ifndef TUI_LOOP_H
#define TUI_LOOP_H

#include <stdint.h>

#include "tui.h"

/* Work the loop does after the handler: the external editor, a save. */
void	app_run_editor(struct app *a, const char *key, int64_t elem);
void	app_save(struct app *a, const char *path, int force, int quit);
/*
 * Opens the file again as it is on disk (:e), refused while edits are
 * pending unless forced (:e!, which drops them).
 */
void	app_reload(struct app *a, int force);
/* Quit, asking first if edits are pending. */
int	app_quit(struct app *a, int ask);
/* The message log (every app_msg of the session, whole) in a pager. */
void		 app_messages(struct app *a);
/*
 * :rescue (rescue.c) - the newest script of unsaved edits kept for the
 * file, applied as pending edits (forced: they were made here), then
 * removed; a line that fails stops it, keeping the script and the edits
 * before it. R_* flags.
 */
int		 rescue_apply(struct app *a);

#endif /* TUI_LOOP_H */
