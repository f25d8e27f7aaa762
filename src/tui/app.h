/*
 * app.h - the browser's own state, shared by the files of its loop and
 * by no view:
 *
 *	app.c		the state, the tabs, the view stacks, dispatch, the loop
 *	frame.c		drawing a frame: title and tabs, status, prompt, dialogs
 *	term.c		the terminal: curses set up and given back, keys read
 *	run.c		work the loop does after a handler: the prompt, the
 *			external editor, a save
 *	script.c	script mode (GGUFED_SCRIPT): keys from a file, a
 *			virtual screen, dumps
 *	task.c		background work: a scan on a thread, its progress,
 *			cancel and join
 *
 * Views see the browser only through the functions of tui.h.
 */
#ifndef TUI_APP_H
#define TUI_APP_H

#include <stdio.h>

#include "curses.h"
#include "tui.h"
#include "loop.h"

#define MIN_COLS	40
#define MIN_ROWS	10
#define MAX_DEPTH	16

/*
 * The top views, one row each: the title bar shows them as tabs, the
 * number keys and Tab switch between them. A tab with a `needs` key is
 * only there when the file has that key.
 */
struct tab {
	const char	*name;
	struct view	*(*make)(struct app *);
	enum tui_action	 act;		/* the key that shows it */
	const char	*needs;		/* a key the file must have, or NULL */
};
#define N_TABS		4
extern const struct tab	app_tabs[N_TABS];

/* Why the loop was cut off (app.term_gone). */
#define TERM_HUNG_UP	1	/* the terminal went away */
#define TERM_KILLED	2	/* SIGTERM */

struct app {
	struct gguf_doc	*doc;
	char		*path;		/* the document's file */
	unsigned	 open_flags;	/* GGUF_OPEN_*: a shard alone or its set */
	struct view	*stk[N_TABS][MAX_DEPTH];
	int		 depth[N_TABS];	/* views in each stack, 0: not made */
	int		 tab;
	char		 msg[512];
	int		 msg_err;
	/* After an edit's views are made again: where to go, as `:N` goes
	   (0: stay), to what the edit made. */
	uint64_t	 jump_to;
	/* Every message of the session, whole, one a line (:messages). */
	char		*log;
	size_t		 log_len;
	size_t		 log_cap;
	struct re	*search;
	int		 search_dir;
	int		 quit;
	/* The file changed on disk since it was opened: how (shown until :e). */
	int		 disk_changed;
	char		 disk_msg[512];
	int		 reload_pending;	/* :e 1, :e! 2 */
	struct dline	 dl;

	/* The question to ask, and the one being asked. */
	struct prompt	*pr;
	struct ask	 ask;
	char		*ask_label;
	char		*ask_init;
	int		 ask_pending;
	int		 in_prompt;
	char		 hint[256];

	/* A dialog: a choice between keys, or an error. */
	char		 dlg_text[1024];
	char		 dlg_keys[16];
	int		 dlg_on;	/* 1 choice, 2 error */
	choose_fn	 dlg_fn;
	void		*dlg_arg;
	void		(*dlg_free)(void *);

	/* Work for the loop: the external editor, a save. */
	char		*ed_key;
	int64_t		 ed_elem;
	int		 ed_pending;
	char		*save_path;
	int		 save_force;
	int		 save_quit;
	int		 save_pending;
	int		 save_anyway;	/* asked: llama.cpp would refuse it */
	/* What the pending edits broke for llama.cpp (model.h). */
	unsigned	 model_bad;	/* errors the source did not have */
	char		 model_msg[300];	/* the first of them */
	/* The save under way. */
	int		 saving;
	const char	*save_how;
	const char	*save_links;	/* what the save does to hard links */
	double		 save_t0;
	double		 save_drawn;
	uint64_t	 save_done;
	uint64_t	 save_total;

	SCREEN		*scr;
	xmalloc_oom_fn	 oom_prev;	/* the hook before curses took over */
	int		 quick_errs;	/* reads that failed at once, in a row */
	int		 term_gone;	/* TERM_*: the loop was cut off */
	FILE		*tty_out;
	FILE		*tty_in;
	FILE		*script;
	const char	*script_path;
	int		 jobs_held;	/* script mode: jobs wait for `wait` */
	struct task	*tasks;		/* running background work (task.h) */
	unsigned	 script_line;
	int		 script_err;
	char		 pending[1024];	/* script keys not read yet */
	/* Work put off until the first screen is drawn (app_later). */
	void		(*later_fn)(void *);
	void		*later_arg;
	unsigned	 later_done;	/* pieces done */
	int		 keep;		/* the header to copy once drawn */
	unsigned	 frames;	/* frames drawn */
	size_t		 ppos;
	int		 typing;
};

/* app.c */
/* Whether tab t is there for this file. */
int		 app_has_tab(struct app *a, int t);
/* The view on top of the current tab's stack (made on first use). */
struct view	*app_cur_view(struct app *a);
/* After a save the document is another one: every view is made again. */
void		 app_reset_views(struct app *a);
/*
 * Checks the document as llama.cpp would load it, after an edit, an undo,
 * a save: a->model_bad and a->model_msg say what the edits broke.
 */
void		 app_model_check(struct app *a);
/* What the loop does with a handler's flags (R_POP, R_EDITED, R_QUIT). */
void		 app_apply(struct app *a, int r);
/* One key or mouse event: through the dialog or the key table. */
void		 app_input(struct app *a, const struct tui_input *in);
/* Does the work put off by app_later, if any; 1 if there was. */
int		 app_run_later(struct app *a);
/* Background work of the current view; 1 if the frame must be drawn. */
int		 app_tick(struct app *a, int *busy);
/* A monotonic clock in milliseconds. */
double		 app_now_ms(void);
/*
 * Whether the file changed on disk (its size, time, identity or header
 * bytes): on each idle wake and before a save. 1 the first time it is
 * seen, which then stays shown until the file is opened again.
 */
int		 app_check_disk(struct app *a);
/* Opens the file again (:e, :e!), as the loop's work after a handler. */
void		 app_reload_run(struct app *a);

/* frame.c */
/* Draws the whole screen from state. */
void		 frame_draw(struct app *a);

/* term.c */
/*
 * Whether the browser can run: standard input and output are a terminal,
 * or the environment names a script (GGUFED_SCRIPT).
 */
int		 term_usable(void);
/* Sets curses up on the terminal, or on a virtual screen in script mode. */
int		 term_start(struct app *a);
void		 term_stop(struct app *a);
/*
 * Waits for a key (at most a moment if busy): 0 with input in *in, 1
 * for a timeout, 2 if the size changed, -1 if the terminal is gone
 * (hung up, or its input ended).
 */
int		 term_input(struct app *a, struct tui_input *in, int busy);
/* 1 if a key is already waiting (it stays waiting). */
int		 term_key_waiting(void);
/* Reads the keys already typed; 1 if one of them was Esc (or Ctrl-C). */
int		 term_esc_typed(void);

/* rescue.c */
/*
 * The browser was cut off (its terminal gone, or terminated: why says
 * which) with unsaved changes: writes them as an edit script into the
 * state directory and says on standard error where, and how to apply
 * them; if that fails, says they are lost. Returns 0 if kept.
 */
int		 rescue_write(struct app *a, const char *why);
/* At start: says so if changes of an earlier browser on this file were kept. */
void		 rescue_notice(struct app *a);

/* run.c */
/* The line editor, reading keys through the loop. */
struct prompt	*run_prompt_new(struct app *a);
/* Runs what a handler asked for (prompt, editor, save); 1 if there was. */
int		 run_pending(struct app *a);

/* script.c */
/*
 * Runs script commands until one produces input, which goes to *in.
 * Returns 0 with input, -1 at the end of the script (or an error in it).
 */
int		 script_input(struct app *a, struct tui_input *in);
/* 1 if keys of the current script line are not read yet. */
int		 script_keys_waiting(struct app *a);

#endif /* TUI_APP_H */
