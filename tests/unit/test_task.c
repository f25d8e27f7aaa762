/*
 * test_task.c - the browser's background work (src/tui/task.c) on its
 * own: a job runs on its thread, its progress reaches the loop's tick and
 * the progress line, a cancel ends it within a chunk, a failure keeps its
 * reason, a job that fails because it was cancelled counts as cancelled,
 * the app's list holds exactly the running tasks, task_stop_all stops
 * only the tasks it is asked to, and in script mode no job starts before
 * the script lets it. No terminal: the line is read from its dline.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app.h"
#include "task.h"
#include "tap.h"

/* What app.c's app_jobs_held answers in script mode before a `wait`. */
static int	held;

int
app_jobs_held(struct app *a)
{
	(void)a;
	return __atomic_load_n(&held, __ATOMIC_ACQUIRE);
}

/* What a job does, set by each test; the job reports what it did. */
struct job {
	int	mode;		/* one of the J_* below */
	int	ran;		/* atomic: the job started */
	int	go;		/* atomic: the test lets it go on */
	int	saw_cancel;	/* atomic */
};

enum { J_DONE, J_PROGRESS, J_UNTIL_CANCEL, J_FAIL, J_FAIL_ON_CANCEL };

static void
nap(void)
{
	struct timespec	ts = { 0, 1000000 };

	nanosleep(&ts, NULL);
}

/* Waits (at most 10 s) until *flag is set. */
static int
wait_flag(int *flag)
{
	int	i;

	for (i = 0; i < 10000; i++) {
		if (__atomic_load_n(flag, __ATOMIC_ACQUIRE))
			return 1;
		nap();
	}
	return 0;
}

static int
job(struct task *t, void *arg)
{
	struct job	*j = arg;

	__atomic_store_n(&j->ran, 1, __ATOMIC_RELEASE);
	switch (j->mode) {
	case J_DONE:
		return TASK_OK;
	case J_PROGRESS:
		task_progress(t, 0, 1000);
		wait_flag(&j->go);
		__atomic_store_n(&j->go, 0, __ATOMIC_RELEASE);
		task_progress(t, 500, 1000);
		wait_flag(&j->go);
		task_progress(t, 1000, 1000);
		return TASK_OK;
	case J_UNTIL_CANCEL:
		while (task_progress(t, 1, 2) == 0)
			nap();
		__atomic_store_n(&j->saw_cancel, 1, __ATOMIC_RELEASE);
		return TASK_STOPPED;
	case J_FAIL:
		snprintf(t->err, sizeof t->err, "changed on disk");
		return TASK_ERROR;
	default:	/* J_FAIL_ON_CANCEL: an error caused by the cancel */
		while (!task_cancelled(t))
			nap();
		snprintf(t->err, sizeof t->err, "cancelled");
		return TASK_ERROR;
	}
}

/* Ticks until the task is no longer running (at most 10 s): the last tick. */
static int
tick_to_end(struct task *t)
{
	int	i, r = R_NONE;

	for (i = 0; i < 10000; i++) {
		r = task_tick(t);
		if (!(r & R_PASS))
			return r;
		nap();
	}
	return r;
}

static int
on_list(struct app *a, struct task *t)
{
	struct task	*p;

	for (p = a->tasks; p != NULL; p = p->next)
		if (p == t)
			return 1;
	return 0;
}

static void
test_done(struct app *a)
{
	struct task	t;
	struct job	j = { J_DONE, 0, 0, 0 };

	memset(&t, 0, sizeof t);
	is_u64(task_state(&t), TASK_NONE, "a task never started is none");
	is_u64(task_tick(&t), R_NONE, "and its tick asks for nothing");
	ok(task_start(&t, a, "statistics", 0, job, &j) == 0 && on_list(a, &t),
	    "started: it is on the app's list");
	is_u64(tick_to_end(&t), R_DRAW, "its end is one redraw");
	ok(task_state(&t) == TASK_DONE && j.ran, "the job ran; the task is done");
	ok(!on_list(a, &t) && a->tasks == NULL, "joined: off the list");
	is_u64(task_tick(&t), R_NONE, "then the tick asks for nothing");
}

static void
test_progress(struct app *a)
{
	struct task	t;
	struct job	j = { J_PROGRESS, 0, 0, 0 };
	struct dline	dl;
	int		r, i;

	memset(&t, 0, sizeof t);
	t.unit_bytes = 1024;
	task_start(&t, a, "statistics", 0, job, &j);
	wait_flag(&j.ran);
	for (i = 0; i < 10000 && __atomic_load_n(&t.total, __ATOMIC_RELAXED) !=
	    1000; i++)
		nap();
	r = task_tick(&t);
	ok(r == (R_DRAW | R_PASS), "first report: a redraw, still busy");
	is_u64(task_tick(&t), R_PASS, "no movement: busy, no redraw");
	__atomic_store_n(&j.go, 1, __ATOMIC_RELEASE);
	for (i = 0; i < 10000 && __atomic_load_n(&t.done, __ATOMIC_RELAXED) !=
	    500; i++)
		nap();
	is_u64(task_tick(&t), R_DRAW | R_PASS, "half way: a redraw");
	dl_init(&dl);
	task_draw_progress(&t, &dl, 80);
	ok(dl.s != NULL && strncmp(dl.s, "statistics ", 11) == 0 &&
	    strstr(dl.s, "  50%  500.0 KiB of 1000.0 KiB  Esc to cancel") !=
	    NULL && dl.cols <= 80, "the line: what, bar, 50%%, bytes, Esc "
	    "(%s)", dl.s != NULL ? dl.s : "");
	ok(strstr(dl.s, "#####") != NULL && strstr(dl.s, ".....") != NULL,
	    "the bar half filled (ASCII without UTF-8)");
	dl_free(&dl);
	__atomic_store_n(&j.go, 1, __ATOMIC_RELEASE);
	tick_to_end(&t);
	is_u64(task_state(&t), TASK_DONE, "then done");
}

static void
test_cancel(struct app *a)
{
	struct task	t;
	struct job	j = { J_UNTIL_CANCEL, 0, 0, 0 };

	memset(&t, 0, sizeof t);
	task_start(&t, a, "comparison", 0, job, &j);
	wait_flag(&j.ran);
	task_stop(&t, TASK_BY_USER);
	ok(j.saw_cancel && task_state(&t) == TASK_CANCELLED &&
	    t.stopped_by == TASK_BY_USER && !on_list(a, &t),
	    "task_stop: the job sees the cancel, is joined, says why");

	memset(&t, 0, sizeof t);
	j.mode = J_FAIL;
	j.ran = 0;
	task_start(&t, a, "statistics", 0, job, &j);
	tick_to_end(&t);
	ok(task_state(&t) == TASK_FAILED && strcmp(t.err, "changed on disk")
	    == 0, "a failing job: failed, its reason kept");

	memset(&t, 0, sizeof t);
	j.mode = J_FAIL_ON_CANCEL;
	task_start(&t, a, "statistics", 0, job, &j);
	task_stop(&t, TASK_BY_EDIT);
	ok(task_state(&t) == TASK_CANCELLED && t.stopped_by == TASK_BY_EDIT,
	    "an error caused by the cancel counts as cancelled");

	/* Starting a running task again stops it first. */
	memset(&t, 0, sizeof t);
	j.mode = J_UNTIL_CANCEL;
	j.ran = j.saw_cancel = 0;
	task_start(&t, a, "statistics", 0, job, &j);
	wait_flag(&j.ran);
	j.mode = J_DONE;
	task_start(&t, a, "statistics", 0, job, &j);
	ok(j.saw_cancel, "a task started again: the first job is stopped");
	tick_to_end(&t);
	ok(task_state(&t) == TASK_DONE && a->tasks == NULL,
	    "and the second runs to its end, one entry on the list");
}

static void
test_stop_all(struct app *a)
{
	struct task	doc, file;
	struct job	jd = { J_UNTIL_CANCEL, 0, 0, 0 };
	struct job	jf = { J_UNTIL_CANCEL, 0, 0, 0 };

	memset(&doc, 0, sizeof doc);
	memset(&file, 0, sizeof file);
	task_start(&doc, a, "statistics", TASK_READS_DOC, job, &jd);
	task_start(&file, a, "comparison", 0, job, &jf);
	wait_flag(&jd.ran);
	wait_flag(&jf.ran);
	task_doc_changing(a);
	ok(task_state(&doc) == TASK_CANCELLED && doc.stopped_by ==
	    TASK_BY_EDIT && task_state(&file) == TASK_RUNNING &&
	    on_list(a, &file) && !on_list(a, &doc),
	    "an edit stops the task that reads the document, not the other");
	is_u64((uint64_t)task_stop_all(a, 0, TASK_BY_LOOP), 1,
	    "task_stop_all stops the one left and counts it");
	ok(task_state(&file) == TASK_CANCELLED && file.stopped_by ==
	    TASK_BY_LOOP && a->tasks == NULL, "... and the list is empty");
}

static void
test_held(struct app *a)
{
	struct task	t;
	struct job	j = { J_DONE, 0, 0, 0 };
	int		i;

	__atomic_store_n(&held, 1, __ATOMIC_RELEASE);
	memset(&t, 0, sizeof t);
	task_start(&t, a, "statistics", 0, job, &j);
	for (i = 0; i < 50; i++)
		nap();
	ok(!j.ran && task_state(&t) == TASK_RUNNING,
	    "script mode: the job waits for the script's wait");
	__atomic_store_n(&held, 0, __ATOMIC_RELEASE);
	tick_to_end(&t);
	ok(j.ran && task_state(&t) == TASK_DONE, "let go, it runs");

	__atomic_store_n(&held, 1, __ATOMIC_RELEASE);
	memset(&t, 0, sizeof t);
	j.ran = 0;
	task_start(&t, a, "statistics", 0, job, &j);
	task_stop(&t, TASK_BY_USER);
	ok(!j.ran && task_state(&t) == TASK_CANCELLED,
	    "cancelled while held: the job never runs");
	__atomic_store_n(&held, 0, __ATOMIC_RELEASE);
}

int
main(void)
{
	struct app	*a = calloc(1, sizeof *a);

	if (a == NULL)
		return 1;
	tui_utf8 = 0;
	test_done(a);
	test_progress(a);
	test_cancel(a);
	test_stop_all(a);
	test_held(a);
	free(a);
	return tap_done();
}
