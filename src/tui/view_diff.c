/*
 * view_diff.c - `:diff OTHER`: what differs between the document (its
 * pending edits included) and another model, the lines `ggufed diff`
 * prints (src/proof/diff.h), one row each. Enter on a row of a key or a
 * tensor goes to it in the Metadata or Tensors view; the view stays on
 * the Summary tab, where 1 finds it again.
 *
 * The comparison runs as a background task (task.h): hashing the tensor
 * data of a large model takes a while, and meanwhile the view shows a
 * progress line, keys work and Esc or Ctrl-C cancels it (the view then
 * says so; :diff again compares anew). The task reads the document, which
 * is not locked: an edit cancels it first (its answer would describe the
 * document as it was). When the document changes after the comparison
 * the view keeps its lines and says they are out of date.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui.h"
#include "diff.h"
#include "set.h"
#include "task.h"
#include "view_diff.h"

struct dview {
	struct app		*app;
	struct list		 list;
	struct gguf_doc		*doc;		/* the document, read by the task */
	struct gguf_doc		*other;
	struct gguf_diff	 d;		/* the task's, the view's once joined */
	char			*path;		/* the document's file */
	char			*other_path;
	struct task		 task;
	int			 pending;	/* the task's end not taken in yet */
	int			 stale;		/* the document changed since */
};

static int
slot_of(int kind)
{
	switch (kind) {
	case GGUF_DL_FILE:
	case GGUF_DL_HUNK:
		return S_HEADER;
	case GGUF_DL_ADD:
	case GGUF_DL_LADD:
		return S_OK;
	case GGUF_DL_DEL:
	case GGUF_DL_LDEL:
		return S_ERROR;
	case GGUF_DL_RENAME:
		return S_KEY;
	case GGUF_DL_CTX:
	case GGUF_DL_SUMMARY:
		return S_DIM;
	default:
		return S_NORMAL;
	}
}

static void
row(void *ctx, struct dline *dl, uint64_t id, int w)
{
	struct dview	*dv = ctx;
	const char	*t;

	if (task_state(&dv->task) == TASK_RUNNING) {
		dl_puts(dl, S_NORMAL, " ");
		task_draw_progress(&dv->task, dl, w);
		return;
	}
	switch (task_state(&dv->task)) {
	case TASK_CANCELLED:
		dl_puts(dl, S_WARN, dv->task.stopped_by == TASK_BY_EDIT ?
		    " comparison cancelled: the document was edited "
		    "(:diff again compares)" :
		    " comparison cancelled (:diff again compares)");
		return;
	case TASK_FAILED:
		dl_puts(dl, S_ERROR, " not compared: ");
		dl_text(dl, S_ERROR, dv->task.err, strlen(dv->task.err), 0,
		    w - dl->cols, DT_KEEPBS);
		return;
	default:
		break;
	}
	if (dv->d.n_lines == 0) {
		dl_puts(dl, S_DIM, " no differences");
		return;
	}
	t = dv->d.lines[id].text;
	dl_puts(dl, S_NORMAL, " ");
	/* the core escaped what came from the files: shown as it is */
	dl_text(dl, slot_of(dv->d.lines[id].kind), t, strlen(t), 0,
	    w - dl->cols, DT_KEEPBS);
}

static int
diff_action(struct view *v, enum tui_action act, const struct tui_input *in)
{
	struct dview			*dv = v->priv;
	const struct gguf_diff_item	*it;
	uint64_t			 id;
	int				 tensors;

	(void)in;
	if ((act == ACT_CANCEL || act == ACT_INTERRUPT) &&
	    task_state(&dv->task) == TASK_RUNNING) {
		task_stop(&dv->task, TASK_BY_USER);
		return R_DRAW;		/* the tick says so */
	}
	if (act != ACT_OPEN)
		return R_PASS;
	if (dv->pending)
		return R_NONE;
	if (list_cur(&dv->list, &id) != 0 || dv->d.n_lines == 0 ||
	    dv->d.lines[id].item < 0) {
		app_msg(dv->app, 0, "Enter on a key or tensor goes to it");
		return R_DRAW;
	}
	it = &dv->d.items[dv->d.lines[id].item];
	if (it->what == GGUF_DIFF_HEADER) {
		app_msg(dv->app, 0, "a header field: Summary shows the header");
		return R_DRAW;
	}
	tensors = it->what == GGUF_CH_TENSOR;
	if (it->a < 0) {
		app_msg(dv->app, 0, "this %s is only in the other model",
		    tensors ? "tensor" : "key");
		return R_DRAW;
	}
	app_show_entry(dv->app, tensors, (uint64_t)it->a);
	return R_DRAW;
}

static void
diff_status(struct view *v, char *buf, size_t len)
{
	struct dview	*dv = v->priv;

	snprintf(buf, len, "%s", dv->pending ? "comparing (Esc cancels)" :
	    task_state(&dv->task) != TASK_DONE ? ":diff again compares" :
	    dv->stale ?
	    "out of date: :diff again" : "Enter: go to the key or tensor");
}

static int
diff_reload(struct view *v)
{
	struct dview	*dv = v->priv;

	/* the lines are kept; the jumps still go to the same entries */
	if (!dv->stale && !dv->pending &&
	    task_state(&dv->task) == TASK_DONE) {
		dv->stale = 1;
		snprintf(v->title + strlen(v->title),
		    sizeof v->title - strlen(v->title), " (out of date)");
	}
	return 0;
}

/* The comparison, on the task's thread. */
static int
diff_job(struct task *t, void *arg)
{
	struct dview		*dv = arg;
	struct gguf_diff_opts	 o;
	struct gguf_err		 err;

	memset(&o, 0, sizeof o);
	memset(&err, 0, sizeof err);
	o.context = 3;
	o.name_a = dv->path;
	o.name_b = dv->other_path;
	o.progress = task_progress;
	o.arg = t;
	if (gguf_diff_docs(dv->doc, dv->other, &o, &dv->d, &err) != 0) {
		gguf_err_text(&err, t->err, sizeof t->err);
		return TASK_ERROR;
	}
	return TASK_OK;
}

/*
 * The task's end, taken in once it is joined (by the tick, or by whoever
 * stopped it): the lines, or why there are none.
 */
static int
diff_tick(struct view *v)
{
	struct dview	*dv = v->priv;
	int		 r = task_tick(&dv->task);
	char		 s[200];

	if (!dv->pending || dv->task.joinable)
		return r;
	dv->pending = 0;
	switch (task_state(&dv->task)) {
	case TASK_DONE:
		list_reset(&dv->list, NULL, dv->d.n_lines > 0 ?
		    dv->d.n_lines : 1);
		if (dv->d.n_items == 0)
			app_msg(dv->app, 0, "no differences");
		else
			app_msg(dv->app, 0, "%s",
			    dv->d.lines[dv->d.n_lines - 1].text);
		break;
	case TASK_FAILED:
		text_escape(s, sizeof s, dv->task.err, strlen(dv->task.err),
		    190);
		app_msg(dv->app, 1, "%s", s);
		break;
	default:
		app_msg(dv->app, 0, dv->task.stopped_by == TASK_BY_EDIT ?
		    "comparison cancelled: the document was edited" :
		    "comparison cancelled");
		break;
	}
	return R_DRAW;
}

static void
diff_free(struct view *v)
{
	struct dview	*dv = v->priv;

	task_stop(&dv->task, TASK_BY_LOOP);
	gguf_diff_free(&dv->d);
	gguf_doc_free(dv->other);
	list_free(&dv->list);
	free(dv->other_path);
	free(dv->path);
	free(dv);
}

static const struct list_ops diff_list_ops = {
	.row = row,
};

static const struct view_ops diff_ops = {
	.name = "diff",
	.action = diff_action,
	.status = diff_status,
	.tick = diff_tick,
	.reload = diff_reload,
	.free = diff_free,
};

void
view_diff_open(struct app *a, const char *other)
{
	struct gguf_err		 err;
	struct dview		*dv;
	struct view		*v;
	char			 p[96], s[200];

	memset(&err, 0, sizeof err);
	dv = xcalloc(1, sizeof *dv);
	dv->app = a;
	dv->other_path = xstrdup(other);
	/* As `ggufed diff`: a shard stands for its whole set, unless the
	   browser was asked for shards alone (--shard). */
	if ((dv->other = gguf_doc_open_set(other, (app_open_flags(a) &
	    GGUF_OPEN_ALONE) ? GGUF_OPEN_ALONE : GGUF_OPEN_STRICT,
	    &err)) == NULL) {
		text_escape(p, sizeof p, other, strlen(other), 60);
		gguf_err_text(&err, s, sizeof s);
		app_msg(a, 1, "%s: %s", p, s);
		free(dv->other_path);
		free(dv);
		return;
	}
	dv->pending = 1;
	dv->doc = app_doc(a);
	dv->path = xstrdup(app_path(a));
	list_init_flat(&dv->list, &diff_list_ops, dv, 1);
	v = view_new(a, &diff_ops, SC_LIST, dv);
	v->list = &dv->list;
	text_escape(p, sizeof p, other, strlen(other), 60);
	snprintf(v->title, sizeof v->title, "Diff with %s", p);
	app_push_home(a, v);
	/* bytes of tensor data hashed: the progress counts bytes */
	dv->task.unit_bytes = 1;
	task_start(&dv->task, a, "comparing", TASK_READS_DOC, diff_job, dv);
}
