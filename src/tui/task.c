/*
 * task.c - background work of the browser (see task.h).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "app.h"
#include "task.h"

static void *
trampoline(void *arg)
{
	struct task	*t = arg;
	int		 rc;

	/* Script mode: nothing starts before the script's `wait`. */
	while (app_jobs_held(t->app) && !task_cancelled(t)) {
		struct timespec	ts = { 0, 1000000 };

		nanosleep(&ts, NULL);
	}
	if (task_cancelled(t))
		rc = TASK_STOPPED;
	else
		rc = t->fn(t, t->arg);
	/* A job that failed because it was cancelled was cancelled. */
	if (rc != TASK_OK && task_cancelled(t))
		rc = TASK_STOPPED;
	__atomic_store_n(&t->state, rc == TASK_OK ? TASK_DONE :
	    rc == TASK_STOPPED ? TASK_CANCELLED : TASK_FAILED,
	    __ATOMIC_RELEASE);
	return NULL;
}

static void
unlink_task(struct task *t)
{
	struct task	**pp;

	for (pp = &t->app->tasks; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == t) {
			*pp = t->next;
			break;
		}
	}
	t->next = NULL;
}

static void
join(struct task *t)
{
	if (!t->joinable)
		return;
	pthread_join(t->thread, NULL);
	t->joinable = 0;
	unlink_task(t);
}

int
task_start(struct task *t, struct app *a, const char *what, unsigned flags,
    task_fn fn, void *arg)
{
	if (t->joinable)
		task_stop(t, TASK_BY_LOOP);
	t->app = a;
	t->what = what;
	t->flags = flags;
	t->fn = fn;
	t->arg = arg;
	if (t->unit_bytes <= 0)
		t->unit_bytes = 1;
	t->err[0] = '\0';
	t->stopped_by = 0;
	t->cancel = 0;
	t->done = t->total = 0;
	t->shown = -1;
	t->state = TASK_RUNNING;
	if (pthread_create(&t->thread, NULL, trampoline, t) != 0) {
		t->state = TASK_FAILED;
		snprintf(t->err, sizeof t->err, "cannot start a thread for "
		    "the %s", what);
		return -1;
	}
	t->joinable = 1;
	t->next = a->tasks;
	a->tasks = t;
	return 0;
}

int
task_progress(void *arg, uint64_t done, uint64_t total)
{
	struct task	*t = arg;

	__atomic_store_n(&t->total, total, __ATOMIC_RELAXED);
	__atomic_store_n(&t->done, done, __ATOMIC_RELAXED);
	return __atomic_load_n(&t->cancel, __ATOMIC_RELAXED);
}

int
task_cancelled(struct task *t)
{
	return __atomic_load_n(&t->cancel, __ATOMIC_RELAXED);
}

enum task_state
task_state(struct task *t)
{
	return (enum task_state)__atomic_load_n(&t->state, __ATOMIC_ACQUIRE);
}

void
task_stop(struct task *t, int by)
{
	if (!t->joinable)
		return;
	if (task_state(t) == TASK_RUNNING && t->stopped_by == 0)
		t->stopped_by = by;
	__atomic_store_n(&t->cancel, 1, __ATOMIC_RELAXED);
	join(t);
}

/* Progress in per mille, for redrawing only when it moved. */
static int
permille(struct task *t)
{
	uint64_t	done = __atomic_load_n(&t->done, __ATOMIC_RELAXED);
	uint64_t	total = __atomic_load_n(&t->total, __ATOMIC_RELAXED);

	return total > 0 ? (int)((double)done / (double)total * 1000) : 0;
}

int
task_tick(struct task *t)
{
	int	pm;

	if (!t->joinable)
		return R_NONE;
	if (task_state(t) == TASK_RUNNING) {
		pm = permille(t);
		if (pm != t->shown) {
			t->shown = pm;
			return R_DRAW | R_PASS;
		}
		return R_PASS;		/* busy: the loop polls */
	}
	join(t);
	return R_DRAW;
}

void
task_draw_progress(struct task *t, struct dline *dl, int w)
{
	uint64_t	done = __atomic_load_n(&t->done, __ATOMIC_RELAXED);
	uint64_t	total = __atomic_load_n(&t->total, __ATOMIC_RELAXED);
	char		a[32], b[32], tail[96];
	int		i, bw, fill, pct;

	if (done > total)
		done = total;
	pct = total > 0 ? (int)(100 * (double)done / (double)total) : 0;
	gguf_fmt_size((uint64_t)((double)done * t->unit_bytes), a, sizeof a);
	gguf_fmt_size((uint64_t)((double)total * t->unit_bytes), b, sizeof b);
	if (total > 0)
		snprintf(tail, sizeof tail, "  %s of %s  Esc to cancel", a, b);
	else		/* no report yet */
		snprintf(tail, sizeof tail, "  Esc to cancel");
	dl_printf(dl, S_NORMAL, "%s ", t->what);
	/* The bar takes what the words leave, 10 cells at least. */
	bw = w - dl->cols - 6 - (int)strlen(tail);
	if (bw < 10)
		bw = 10;
	fill = total > 0 ? (int)((double)bw * (double)done / (double)total) :
	    0;
	for (i = 0; i < bw; i++)
		dl_puts(dl, i < fill ? S_OK : S_DIM, i < fill ?
		    (tui_utf8 ? "\xe2\x96\x88" : "#") :
		    (tui_utf8 ? "\xe2\x96\x91" : "."));
	dl_printf(dl, S_NORMAL, " %3d%%", pct);
	dl_puts(dl, S_DIM, tail);
}

int
task_stop_all(struct app *a, unsigned mask, int by)
{
	int	n = 0;

	while (a->tasks != NULL) {
		struct task	*t = a->tasks;

		while (t != NULL && mask != 0 && (t->flags & mask) == 0)
			t = t->next;
		if (t == NULL)
			break;
		if (task_state(t) == TASK_RUNNING)
			n++;
		task_stop(t, by);
	}
	return n;
}

void
task_doc_changing(struct app *a)
{
	task_stop_all(a, TASK_READS_DOC, TASK_BY_EDIT);
}
