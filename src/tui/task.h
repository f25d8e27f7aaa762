/*
 * task.h - background work of the browser: one home for a long scan
 * (statistics, a comparison) that runs on a thread of its own while the
 * loop goes on drawing and reading keys.
 *
 * A view owns a struct task and starts it with a function and an
 * argument. The job reports progress through task_progress, a
 * gguf_progress_fn that the core's long calls take (stats.h, diff.h,
 * hash.h): it stores the counters the loop reads and returns the cancel
 * flag, so that a cancel reaches the core between two chunks. The loop
 * learns of the end by polling: while a view's tick says it is busy,
 * term_input waits at most 50 ms for a key (a short getch timeout), so
 * the progress line is redrawn and keys are handled within that; the
 * resize and hang-up handling of term.c is the loop's as always.
 *
 * Every running task is also on the app's list, so that the loop can
 * stop them all: Ctrl-C, before a save, before the document changes
 * (a task with TASK_READS_DOC reads the document, which is not locked:
 * an edit cancels and joins it first; see task_doc_changing), and when
 * the browser ends. Stopping is cancel then join: the job ends within
 * one chunk of work.
 *
 * In script mode (GGUFED_SCRIPT) a job waits for the script's `wait`
 * before it starts its work, so what a script sees never depends on
 * thread timing.
 */
#ifndef TUI_TASK_H
#define TUI_TASK_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

struct app;
struct dline;
struct task;

enum task_state {
	TASK_NONE,		/* never started */
	TASK_RUNNING,		/* started, not joined yet */
	TASK_DONE,
	TASK_CANCELLED,
	TASK_FAILED		/* err says why */
};

/* What a job returns. */
#define TASK_OK		0
#define TASK_STOPPED	1	/* it saw the cancel flag */
#define TASK_ERROR	(-1)	/* with a message in task->err */

/* The job: runs on the task's thread. */
typedef int	(*task_fn)(struct task *t, void *arg);

#define TASK_READS_DOC	0x01	/* reads the document (not only its file) */

struct task {
	/* Set by task_start, read by the loop. */
	struct app	*app;
	const char	*what;		/* "statistics", "comparison" */
	unsigned	 flags;		/* TASK_* */
	task_fn		 fn;
	void		*arg;
	/*
	 * Bytes read per unit of progress (1 when the job counts bytes):
	 * the progress line shows bytes.
	 */
	double		 unit_bytes;
	char		 err[300];	/* TASK_FAILED: why (raw bytes) */
	int		 stopped_by;	/* why it was cancelled (TASK_BY_*) */

	/* Shared with the thread: atomics only. */
	int		 cancel;
	int		 state;		/* enum task_state */
	uint64_t	 done, total;

	/* The loop's. */
	pthread_t	 thread;
	int		 joinable;
	int		 shown;		/* per mille last drawn */
	struct task	*next;		/* the app's running tasks */
};

/* Why a task was cancelled. */
#define TASK_BY_USER	1	/* Esc, Ctrl-C */
#define TASK_BY_EDIT	2	/* the document changed */
#define TASK_BY_LOOP	3	/* a save, the end of the browser */

/*
 * Starts fn(t, arg) on a thread. A task that runs already is stopped
 * first. 0, or -1 if no thread could be made (then the state is
 * TASK_FAILED with err set).
 */
int	task_start(struct task *t, struct app *a, const char *what,
	    unsigned flags, task_fn fn, void *arg);
/* The progress callback of the core (a gguf_progress_fn); arg the task. */
int	task_progress(void *arg, uint64_t done, uint64_t total);
/* For a job's own loops: nonzero once cancelled. */
int	task_cancelled(struct task *t);
/* The state, from the loop's thread (or any). */
enum task_state task_state(struct task *t);
/* Sets the cancel flag and joins the thread; by is TASK_BY_*. */
void	task_stop(struct task *t, int by);
/*
 * For a view's tick: joins a task whose job has ended. Returns R_DRAW |
 * R_PASS while it runs and its progress moved, R_PASS while it runs,
 * R_DRAW once when it has ended, R_NONE otherwise.
 */
int	task_tick(struct task *t);
/*
 * The progress line: "WHAT |bar| 42%  1.2 GB of 2.9 GB  Esc to cancel",
 * w columns.
 */
void	task_draw_progress(struct task *t, struct dline *dl, int w);

/* Stops every running task (with flags & mask) of the app; the number. */
int	task_stop_all(struct app *a, unsigned mask, int by);
/*
 * The document is about to change: every task reading it is stopped
 * first (and says why). Called before each edit of the document.
 */
void	task_doc_changing(struct app *a);

#endif /* TUI_TASK_H */
