/*
 * app.c - the browser's state, its view stacks, dispatch and the loop.
 *
 * Each top view (the tabs: Summary, Metadata, Tokenizer, Tensors) has a
 * stack of the views opened from it (pager, array list, tensor preview,
 * help); Tab and the number keys switch stacks, q pops. A view is created
 * the first time it is shown and keeps its place until the program ends.
 *
 * A key goes through the key table to an action; the action is offered to
 * the view, then to the view's list, then handled here. Handlers return
 * R_* flags and never draw: the frame is drawn once per input, from state
 * (frame.c). Work that needs the terminal or the loop (a prompt, the
 * external editor, a save) is asked for by a handler and done after it
 * (run.c). The files of the loop are listed in app.h.
 */
#include "config.h"

#include <langinfo.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app.h"
#include "model.h"
#include "task.h"
#include "save.h"
#include "set.h"
#include "view_changes.h"
#include "view_help.h"
#include "view_meta.h"
#include "view_summary.h"
#include "view_tensors.h"
#include "view_tokens.h"
#include "cmd/value.h"

enum search_kind { K_SEARCH, K_SEARCH_BACK, K_FILTER };

const struct tab app_tabs[N_TABS] = {
	{ "Summary",	view_summary_new,	ACT_VIEW1,	NULL },
	{ "Metadata",	view_meta_new,		ACT_VIEW2,	NULL },
	{ "Tokenizer",	view_tokens_new,	ACT_VIEW3,
	    "tokenizer.ggml.tokens" },
	{ "Tensors",	view_tensors_new,	ACT_VIEW4,	NULL },
};

/* The tab shown when the current one goes (its key was removed). */
#define TAB_FALLBACK	1

/* --------------------------------------------------------------- views */

struct view *
view_new(struct app *a, const struct view_ops *ops, unsigned scopes,
    void *priv)
{
	struct view	*v = xcalloc(1, sizeof *v);

	v->ops = ops;
	v->app = a;
	v->scopes = scopes;
	v->priv = priv;
	return v;
}

static void
view_free(struct view *v)
{
	if (v == NULL)
		return;
	if (v->ops->free != NULL)
		v->ops->free(v);
	free(v);
}

struct gguf_file *
app_file(struct app *a)
{
	return gguf_doc_file(a->doc);
}

struct gguf_doc *
app_doc(struct app *a)
{
	return a->doc;
}

unsigned
app_open_flags(struct app *a)
{
	return a->open_flags;
}

struct gguf_doc *
app_doc_edit(struct app *a)
{
	task_doc_changing(a);
	return a->doc;
}

const char *
app_path(struct app *a)
{
	return a->path;
}

struct re *
app_search_re(struct app *a)
{
	return a->search;
}

int
app_jobs_held(struct app *a)
{
	return __atomic_load_n(&a->jobs_held, __ATOMIC_ACQUIRE);
}

/* The log keeps the newest messages up to this size. */
#define LOG_MAX	(1024 * 1024)

/*
 * Adds "HH:MM:SS [error: |warning: ]TEXT" to the message log (error 1 or
 * APP_WARN), newlines in text made spaces; past LOG_MAX the oldest half
 * goes.
 */
static void
log_add(struct app *a, int error, const char *text)
{
	struct tm	 tm;
	time_t		 now = time(NULL);
	size_t		 n = strlen(text), need, i, cut;
	char		*p;

	need = n + 32;
	if (a->log_len + need > LOG_MAX && a->log_len > 0) {
		cut = a->log_len / 2;
		p = memchr(a->log + cut, '\n', a->log_len - cut);
		cut = p != NULL ? (size_t)(p - a->log) + 1 : a->log_len;
		memmove(a->log, a->log + cut, a->log_len - cut);
		a->log_len -= cut;
	}
	if (a->log_len + need > a->log_cap) {
		a->log_cap = a->log_len + need + 4096;
		a->log = xreallocarray(a->log, a->log_cap, 1);
	}
	localtime_r(&now, &tm);
	a->log_len += (size_t)snprintf(a->log + a->log_len, need,
	    "%02d:%02d:%02d %s", tm.tm_hour, tm.tm_min, tm.tm_sec,
	    error == APP_WARN ? "warning: " : error ? "error: " : "");
	for (i = 0; i < n; i++)
		a->log[a->log_len++] = text[i] == '\n' ? ' ' : text[i];
	a->log[a->log_len++] = '\n';
}

void
app_msg(struct app *a, int error, const char *fmt, ...)
{
	va_list	 ap;
	char	*full;
	int	 n;

	va_start(ap, fmt);
	n = vsnprintf(a->msg, sizeof a->msg, fmt, ap);
	va_end(ap);
	a->msg_err = error;
	if (n < 0)
		return;
	if ((size_t)n < sizeof a->msg) {
		log_add(a, error, a->msg);
		return;
	}
	/* Longer than the message line keeps: the log has it whole. */
	full = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(full, (size_t)n + 1, fmt, ap);
	va_end(ap);
	log_add(a, error, full);
	free(full);
}

void
app_messages(struct app *a)
{
	struct view	*v;
	char		*copy;

	if (a->log_len == 0) {
		app_msg(a, 0, "no messages yet");
		return;
	}
	/* Without the last newline: no empty line at the end. */
	copy = xmalloc(a->log_len);
	memcpy(copy, a->log, a->log_len - 1);
	v = view_pager_own(a, "Messages", copy, a->log_len - 1);
	/* Oldest first, the newest in view, as vim's :messages. */
	view_pager_log(v);
	app_push(a, v);
}

int
app_has_tab(struct app *a, int t)
{
	return app_tabs[t].needs == NULL || mdl_get(a, app_tabs[t].needs) !=
	    NULL;
}

struct view *
app_cur_view(struct app *a)
{
	int	t = a->tab;

	if (a->depth[t] == 0) {
		a->stk[t][0] = app_tabs[t].make(a);
		a->depth[t] = 1;
	}
	/* depth is at least 1 here: set just above when it was 0. */
	/* cppcheck-suppress negativeIndex */
	return a->stk[t][a->depth[t] - 1];
}

void
app_push(struct app *a, struct view *v)
{
	int	t = a->tab;

	if (a->depth[t] >= MAX_DEPTH) {
		app_msg(a, 1, "too many views open");
		view_free(v);
		return;
	}
	a->stk[t][a->depth[t]++] = v;
}

static void
pop(struct app *a)
{
	int	t = a->tab;

	if (a->depth[t] > 1)
		view_free(a->stk[t][--a->depth[t]]);
}

/* Closes the views above tab t's top view. */
static void
pop_to_top(struct app *a, int t)
{
	while (a->depth[t] > 1)
		view_free(a->stk[t][--a->depth[t]]);
}

static void
switch_tab(struct app *a, int t)
{
	if (t < 0 || t >= N_TABS)
		return;
	if (!app_has_tab(a, t)) {
		app_msg(a, 1, "no %s in this file", app_tabs[t].needs);
		return;
	}
	a->tab = t;
}

void
app_push_home(struct app *a, struct view *v)
{
	a->tab = 0;
	(void)app_cur_view(a);	/* the top view first: v goes above it */
	app_push(a, v);
}

int
app_show_entry(struct app *a, int tensors, uint64_t i)
{
	struct view	*v;
	int		 t = tensors ? 3 : 1;	/* in app_tabs */

	switch_tab(a, t);
	if (a->tab != t)
		return -1;
	pop_to_top(a, t);
	v = app_cur_view(a);
	if (v->list == NULL)
		return -1;
	if (list_goto_id(v->list, i) != 0 && v->list->filter != NULL) {
		list_set_filter(v->list, NULL);
		app_msg(a, 0, "filter cleared");
	}
	if (list_goto_id(v->list, i) != 0) {
		app_msg(a, 1, "that %s is not shown", tensors ? "tensor" :
		    "key");
		return -1;
	}
	return 0;
}

/*
 * The document changed: every view re-reads it. A view that cannot (a
 * pager over a value that is gone) is closed with the views above it; a
 * top view without a refresh is made again, keeping its place.
 */
static void
refresh_views(struct app *a)
{
	struct view	*v, *nv;
	uint64_t	 cur = 0, top = 0;
	int		 t, d, k, has_list;

	for (t = 0; t < N_TABS; t++) {
		if (a->depth[t] == 0)
			continue;
		for (d = 1; d < a->depth[t]; d++) {
			v = a->stk[t][d];
			if (v->ops->reload == NULL || v->ops->reload(v) != 0) {
				for (k = a->depth[t] - 1; k >= d; k--)
					view_free(a->stk[t][k]);
				a->depth[t] = d;
				break;
			}
		}
		v = a->stk[t][0];
		if (v->ops->reload != NULL && v->ops->reload(v) == 0)
			continue;
		if ((has_list = v->list != NULL)) {
			cur = v->list->cur;
			top = v->list->top;
		}
		nv = app_tabs[t].make(a);
		if (has_list && nv->list != NULL && nv->list->n_rows > 0) {
			nv->list->cur = cur < nv->list->n_rows ? cur :
			    nv->list->n_rows - 1;
			nv->list->top = top <= nv->list->cur ? top :
			    nv->list->cur;
		}
		view_free(v);
		a->stk[t][0] = nv;
	}
	if (!app_has_tab(a, a->tab))
		a->tab = TAB_FALLBACK;
}

void
app_reset_views(struct app *a)
{
	struct view	*v;
	uint64_t	 cur = 0, top = 0;
	int		 t, d, has_list = 0;

	if (a->depth[a->tab] > 0 && (v = a->stk[a->tab][0])->list != NULL) {
		has_list = 1;
		cur = v->list->cur;
		top = v->list->top;
	}
	for (t = 0; t < N_TABS; t++) {
		for (d = a->depth[t]; d > 0; d--)
			view_free(a->stk[t][d - 1]);
		a->depth[t] = 0;
	}
	if (!app_has_tab(a, a->tab))
		a->tab = TAB_FALLBACK;
	app_model_check(a);
	v = app_cur_view(a);
	if (has_list && v->list != NULL && v->list->n_rows > 0) {
		v->list->cur = cur < v->list->n_rows ? cur :
		    v->list->n_rows - 1;
		v->list->top = top <= v->list->cur ? top : v->list->cur;
	}
}

static void
model_first(void *arg, const struct gguf_mfinding *f)
{
	struct app	*a = arg;

	if (a->model_bad++ == 0)
		snprintf(a->model_msg, sizeof a->model_msg, "%s", f->msg);
}

void
app_model_check(struct app *a)
{
	a->model_bad = 0;
	a->model_msg[0] = '\0';
	if (mdl_n_changes(a) > 0)
		gguf_model_check_new(a->doc, model_first, a);
}

void
app_apply(struct app *a, int r)
{
	char	was[sizeof a->model_msg];

	if (r & R_POP)
		pop(a);
	if (r & R_EDITED) {
		refresh_views(a);
		if (a->jump_to > 0)
			(void)app_jump(a, a->jump_to);
		a->jump_to = 0;
		memcpy(was, a->model_msg, sizeof was);
		app_model_check(a);
		/* An edit that breaks the model says so at once. */
		if (a->model_bad > 0 && strcmp(was, a->model_msg) != 0) {
			if (a->msg[0] != '\0' && !a->msg_err) {
				size_t	n = strlen(a->msg);

				snprintf(a->msg + n, sizeof a->msg - n, "; "
				    "llama.cpp would refuse the result: %s",
				    a->model_msg);
			} else
				app_msg(a, 1, "llama.cpp would refuse the "
				    "result: %s", a->model_msg);
			a->msg_err = 1;
		}
	}
	if (r & R_QUIT)
		a->quit = 1;
}
/* ------------------------------------------------------------ questions */

void
app_ask(struct app *a, const struct ask *q)
{
	/* A question asked while another is pending replaces it. */
	if (a->ask_pending && a->ask.arg != q->arg && a->ask.arg_free != NULL)
		a->ask.arg_free(a->ask.arg);
	free(a->ask_label);
	free(a->ask_init);
	a->ask = *q;
	a->ask_label = xstrdup(q->label);
	a->ask_init = q->init != NULL ? xstrdup(q->init) : NULL;
	a->ask_pending = 1;
}

void
app_choose(struct app *a, const char *text, const char *keys, choose_fn fn,
    void *arg, void (*arg_free)(void *))
{
	if (a->dlg_on == 1 && a->dlg_arg != arg && a->dlg_free != NULL)
		a->dlg_free(a->dlg_arg);
	snprintf(a->dlg_text, sizeof a->dlg_text, "%s", text);
	snprintf(a->dlg_keys, sizeof a->dlg_keys, "%s", keys);
	a->dlg_fn = fn;
	a->dlg_arg = arg;
	a->dlg_free = arg_free;
	a->dlg_on = 1;
}

void
app_error(struct app *a, const char *fmt, ...)
{
	va_list	ap;

	if (a->dlg_on == 1 && a->dlg_free != NULL)
		a->dlg_free(a->dlg_arg);
	a->dlg_fn = NULL;
	a->dlg_arg = NULL;
	a->dlg_free = NULL;
	va_start(ap, fmt);
	vsnprintf(a->dlg_text, sizeof a->dlg_text, fmt, ap);
	va_end(ap);
	log_add(a, 1, a->dlg_text);	/* M has it after the dialog goes */
	snprintf(a->dlg_text + strlen(a->dlg_text), sizeof a->dlg_text -
	    strlen(a->dlg_text), "\n\n(Enter or Esc)");
	a->dlg_on = 2;
}

void
app_run_editor(struct app *a, const char *key, int64_t elem)
{
	free(a->ed_key);
	a->ed_key = xstrdup(key);
	a->ed_elem = elem;
	a->ed_pending = 1;
}

void
app_save(struct app *a, const char *path, int force, int quit)
{
	free(a->save_path);
	a->save_path = path != NULL ? xstrdup(path) : NULL;
	a->save_force = force;
	a->save_quit = quit;
	a->save_pending = 1;
}

static int
quit_choice(struct app *a, void *arg, int key)
{
	(void)arg;
	switch (key) {
	case 's':
		app_save(a, NULL, 0, 1);
		return R_DRAW;
	case 'd':
		return R_QUIT;
	case 'D':
		/* D everywhere else: the pending changes, not "discard". */
		app_push(a, view_changes_new(a));
		return R_DRAW;
	}
	app_msg(a, 0, "not quitting");
	return R_DRAW;
}

int
app_check_disk(struct app *a)
{
	struct gguf_err	err;

	if (a->disk_changed)
		return 0;
	memset(&err, 0, sizeof err);
	if (!gguf_file_changed(gguf_doc_file(a->doc), GGUF_CHANGE_PATH |
	    GGUF_CHANGE_CONTENT, &err))
		return 0;
	a->disk_changed = 1;
	/*
	 * A set's message starts with the name of the shard that changed;
	 * a file's is about the file: it gets its name.
	 */
	if (gguf_n_shards(gguf_doc_file(a->doc)) > 0)
		snprintf(a->disk_msg, sizeof a->disk_msg, "%s", err.msg);
	else
		snprintf(a->disk_msg, sizeof a->disk_msg, "%.200s %.300s",
		    a->path, err.msg);
	/* Said now over any message; the hint line keeps it after. */
	app_msg(a, 1, "%s; :e reloads", a->disk_msg);
	return 1;
}

/*
 * Says what a journal beside the file (as it was when opened) means: 1 if
 * there is one, 0 if not.
 */
static int
journal_msg(struct app *a)
{
	switch (gguf_doc_has_journal(a->doc)) {
	case GGUF_JOURNAL_OURS:
		app_msg(a, 1, "an interrupted save left a journal: run "
		    "`ggufed recover` on this file before editing it");
		return 1;
	case GGUF_JOURNAL_FOREIGN:
		app_msg(a, 1, "a journal that is not ours is beside the file: "
		    "it is ignored, and a save in place refused while it is "
		    "there");
		return 1;
	}
	return 0;
}

void
app_reload(struct app *a, int force)
{
	a->reload_pending = force ? 2 : 1;
}

void
app_reload_run(struct app *a)
{
	struct gguf_doc	*old = a->doc, *nd;
	struct gguf_err	 err;
	unsigned	 n;
	int		 force = a->reload_pending == 2;

	a->reload_pending = 0;
	if (!force && (n = mdl_n_changes(a)) > 0) {
		app_msg(a, 1, "%u unsaved change%s: :e! drops %s and opens "
		    "the file again", n, n == 1 ? "" : "s",
		    n == 1 ? "it" : "them");
		return;
	}
	memset(&err, 0, sizeof err);
	if ((nd = gguf_doc_open_set(a->path, a->open_flags, &err)) == NULL) {
		app_error(a, "cannot open %s again:\n%s\n\nStill showing "
		    "the file as it was.", a->path, err.msg);
		return;
	}
	/* The views of the old document go first, then the document. */
	a->doc = nd;
	app_reset_views(a);
	gguf_doc_free(old);
	a->disk_changed = 0;
	a->disk_msg[0] = '\0';
	if (!journal_msg(a))
		app_msg(a, 0, "opened %s again", a->path);
}

int
app_quit(struct app *a, int ask)
{
	unsigned	n;
	char		text[200];

	if (!ask || (n = mdl_n_changes(a)) == 0)
		return R_QUIT;
	if (n == 1)
		snprintf(text, sizeof text, "There is 1 unsaved change.\n\n"
		    "[s]ave and quit, [d]iscard it and quit, [c]ancel, "
		    "[D] shows it");
	else
		snprintf(text, sizeof text, "There are %u unsaved changes."
		    "\n\n[s]ave and quit, [d]iscard them and quit, [c]ancel, "
		    "[D] shows them", n);
	app_choose(a, text, "sc!dD", quit_choice, NULL, NULL);
	return R_DRAW;
}

static int
do_search(struct app *a, struct view *v, int dir, int skip_cur)
{
	if (a->search == NULL) {
		app_msg(a, 1, "no previous search");
		return R_DRAW;
	}
	if (v->list == NULL) {
		app_msg(a, 1, "this view cannot be searched");
		return R_DRAW;
	}
	if (!list_search(v->list, a->search, dir, skip_cur))
		app_msg(a, 1, "pattern not found: %s", re_pattern(a->search));
	return R_DRAW;
}

static void
free_kind(void *arg)
{
	free(arg);
}

/* The answer to /, ? and f. */
static int
search_answer(struct app *a, void *arg, const char *line)
{
	struct view	*v = app_cur_view(a);
	struct re	*re;
	char		 err[300], g1[32], g2[32];
	int		 k = *(int *)arg;
	uint64_t	 kept, all;

	if (line == NULL)
		return R_DRAW;
	if (k == K_FILTER && *line == '\0') {
		if (v->list != NULL)
			list_set_filter(v->list, NULL);
		return R_DRAW;
	}
	if (*line == '\0') {
		/* An empty search repeats the last one, as in less and vim. */
		if (a->search == NULL)
			return R_DRAW;
		a->search_dir = k == K_SEARCH_BACK ? -1 : 1;
		return do_search(a, v, a->search_dir, 1);
	}
	re = re_compile(line, err, sizeof err);
	if (re == NULL) {
		app_msg(a, 1, "%s", err);
		return R_DRAW;
	}
	if (k == K_FILTER) {
		if (v->list == NULL) {
			re_free(re);
			return R_DRAW;
		}
		list_set_filter(v->list, re);
		kept = list_filter_count(v->list, &all);
		app_msg(a, 0, "%s of %s rows match",
		    gguf_fmt_group(kept, g1, sizeof g1),
		    gguf_fmt_group(all, g2, sizeof g2));
		return R_DRAW;
	}
	re_free(a->search);
	a->search = re;
	a->search_dir = k == K_SEARCH_BACK ? -1 : 1;
	return do_search(a, v, a->search_dir, 1);
}

static void
ask_search(struct app *a, int k)
{
	static const char *const labels[] = { "/", "?", "filter: " };
	struct ask	 q;
	int		*arg = xcalloc(1, sizeof *arg);

	*arg = k;
	memset(&q, 0, sizeof q);
	q.label = labels[k];
	q.hist = H_SEARCH;
	q.fn = search_answer;
	q.arg = arg;
	q.arg_free = free_kind;
	app_ask(a, &q);
}

/* Where app_apply goes once an edit's views are made again. */
void
app_jump_later(struct app *a, uint64_t n)
{
	a->jump_to = n;
}

/* `:N` goes to row N (or token, element, line N) of the view. */
int
app_jump(struct app *a, uint64_t n)
{
	struct view	*v = app_cur_view(a);

	if (v->ops->jump != NULL)
		return v->ops->jump(v, n);
	if (v->list != NULL) {
		v->list->cur = n > 0 ? n - 1 : 0;
		if (v->list->cur >= v->list->n_rows)
			v->list->cur = v->list->n_rows > 0 ?
			    v->list->n_rows - 1 : 0;
	}
	return R_DRAW;
}

static int
command_answer(struct app *a, void *arg, const char *line)
{
	(void)arg;
	if (line == NULL)
		return R_DRAW;
	return edit_command(a, line);
}

static void
ask_command(struct app *a)
{
	struct ask	q;

	memset(&q, 0, sizeof q);
	q.label = ":";
	q.hist = H_CMD;
	q.compl = C_CMD;
	q.fn = command_answer;
	app_ask(a, &q);
}

/* ------------------------------------------------------------ dispatch */

static int
app_action(struct app *a, struct view *v, enum tui_action act)
{
	int	t;

	switch (act) {
	case ACT_BACK:
		if (a->depth[a->tab] > 1)
			return R_POP;
		return app_quit(a, 1);
	case ACT_CANCEL:
		if (v->list != NULL && v->list->filter != NULL) {
			list_set_filter(v->list, NULL);
			app_msg(a, 0, "filter cleared");
			return R_DRAW;
		}
		if (a->depth[a->tab] > 1)
			return R_POP;
		if (a->search != NULL) {
			re_free(a->search);
			a->search = NULL;
		}
		return R_DRAW;
	case ACT_QUIT:
		return app_quit(a, 1);
	case ACT_INTERRUPT:
		/* Not the current view's: whatever runs elsewhere. */
		if (task_stop_all(a, 0, TASK_BY_USER) > 0)
			app_msg(a, 0, "background work cancelled");
		else
			app_msg(a, 0, "Ctrl-C stops background work: none is "
			    "running (q quits)");
		return R_DRAW;
	case ACT_HELP:
		if (v->ops->name != NULL && strcmp(v->ops->name, "help") == 0)
			return R_POP;
		app_push(a, view_help_new(a));
		return R_DRAW;
	case ACT_REDRAW:
		clearok(curscr, TRUE);
		return R_DRAW;
	case ACT_NEXT_VIEW:
	case ACT_PREV_VIEW:
		t = a->tab;
		do
			t = (t + (act == ACT_NEXT_VIEW ? 1 : N_TABS - 1)) % N_TABS;
		while (!app_has_tab(a, t));
		switch_tab(a, t);
		return R_DRAW;
	case ACT_SEARCH:
		ask_search(a, K_SEARCH);
		return R_DRAW;
	case ACT_SEARCH_BACK:
		ask_search(a, K_SEARCH_BACK);
		return R_DRAW;
	case ACT_FILTER:
		ask_search(a, K_FILTER);
		return R_DRAW;
	case ACT_JUMP:
	case ACT_COMMAND:
		ask_command(a);
		return R_DRAW;
	case ACT_UNDO:
	case ACT_REDO:
		return edit_undo(a, act == ACT_REDO);
	case ACT_MESSAGES:
		app_messages(a);
		return R_DRAW;
	case ACT_CHANGES:
		if (v->ops->name != NULL && strcmp(v->ops->name, "changes") == 0)
			return R_POP;
		app_push(a, view_changes_new(a));
		return R_DRAW;
	case ACT_SAVE:
		app_save(a, NULL, 0, 0);
		return R_DRAW;
	case ACT_NEXT_MATCH:
		return do_search(a, v, a->search_dir, 1);
	case ACT_PREV_MATCH:
		return do_search(a, v, -a->search_dir, 1);
	default:
		for (t = 0; t < N_TABS; t++) {
			if (app_tabs[t].act == act) {
				switch_tab(a, t);
				return R_DRAW;
			}
		}
		return R_NONE;
	}
}

static int
dispatch(struct app *a, enum tui_action act, const struct tui_input *in)
{
	struct view	*v = app_cur_view(a);
	int		 r = R_PASS;

	if (v->ops->action != NULL)
		r = v->ops->action(v, act, in);
	if ((r & R_PASS) && v->list != NULL)
		r = list_action(v->list, act, in);
	if (r & R_PASS)
		r = app_action(a, v, act);
	app_apply(a, r);
	return r;
}

static void
dialog_key(struct app *a, int key)
{
	choose_fn	 fn = a->dlg_fn;
	void		*arg = a->dlg_arg;
	void		(*arg_free)(void *) = a->dlg_free;
	const char	*exact = strchr(a->dlg_keys, '!');
	size_t		 nfold = exact != NULL ? (size_t)(exact - a->dlg_keys) :
			    strlen(a->dlg_keys);
	int		 k = key;

	if (a->dlg_on == 2) {
		/*
		 * An error's box goes on Enter, Esc, space or C-g/C-c only:
		 * keys typed on after what failed (":w out.gguf" after a
		 * ":w" that was refused) must not run as keys of the view,
		 * its 'w' a save.
		 */
		if (key == '\r' || key == '\n' || key == ' ' || key == 0x1b ||
		    key == 0x07 || key == 0x03 || key == (TK_FN | KEY_ENTER))
			a->dlg_on = 0;
		return;
	}
	/* The key as written, else a letter in the other case if that one
	 * is not an exact key. */
	if (k > 0 && k <= 0x7f && k != '!' && strchr(a->dlg_keys, k) == NULL) {
		if (k >= 'A' && k <= 'Z')
			k += 'a' - 'A';
		else if (k >= 'a' && k <= 'z')
			k -= 'a' - 'A';
		if (memchr(a->dlg_keys, k, nfold) == NULL)
			k = key;
	}
	if (k != 0x1b && k != 0x07 && (k <= 0 || k > 0x7f || k == '!' ||
	    strchr(a->dlg_keys, k) == NULL))
		return;
	a->dlg_on = 0;
	app_apply(a, fn(a, arg, k == 0x1b || k == 0x07 ? 0 : k));
	if (arg_free != NULL && !(a->dlg_on == 1 && a->dlg_arg == arg))
		arg_free(arg);
}

/*
 * A key bound to nothing in the current view: where it does something,
 * if anywhere, on the message line.
 */
static void
say_unbound(struct app *a, int key)
{
	char	kb[16], where[400];
	size_t	i;

	keys_name(key, kb, sizeof kb);
	if (kb[0] == '#') {
		app_msg(a, 0, "that key does nothing in ggufed (F1 lists "
		    "the keys)");
		return;
	}
	where[0] = '\0';
	for (i = 0; i < keys_count; i++) {
		if (keys_table[i].key != key)
			continue;
		snprintf(where + strlen(where), sizeof where - strlen(where),
		    "%s%s in %s", where[0] != '\0' ? ", " : "",
		    action_name(keys_table[i].action),
		    keys_scope_name(keys_table[i].scope));
	}
	if (where[0] != '\0')
		app_msg(a, 0, "%s is %s; not a key of this view (F1 lists "
		    "its keys)", kb, where);
	else
		app_msg(a, 0, "%s does nothing in ggufed (F1 lists the keys)",
		    kb);
}

static void
input(struct app *a, const struct tui_input *in)
{
	struct view	*v;
	enum tui_action	 act;
	char		 kb[16];

	a->msg[0] = '\0';
	if (a->dlg_on != 0) {
		dialog_key(a, in->key);
		return;
	}
	v = app_cur_view(a);
	if (in->key == TK_MOUSE) {
		if (in->bstate & BUTTON4_PRESSED)
			dispatch(a, ACT_WHEEL_UP, in);
#ifdef BUTTON5_PRESSED
		else if (in->bstate & BUTTON5_PRESSED)
			dispatch(a, ACT_WHEEL_DN, in);
#endif
		else if (in->bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED |
		    BUTTON1_DOUBLE_CLICKED)) {
			dispatch(a, ACT_CLICK, in);
			if (in->bstate & BUTTON1_DOUBLE_CLICKED)
				dispatch(a, ACT_OPEN, in);
		}
		return;
	}
	act = keys_lookup(v->scopes, in->key);
	if (act == ACT_NONE) {
		say_unbound(a, in->key);
		return;
	}
	if (dispatch(a, act, in) == R_NONE && a->msg[0] == '\0' &&
	    a->dlg_on == 0 && !a->in_prompt)
		app_msg(a, 0, "%s: nothing here to %s", keys_name(in->key, kb,
		    sizeof kb), act == ACT_LEFT || act == ACT_RIGHT ?
		    "fold or to scroll sideways" : action_name(act));
}

/* A key that may end the browser: Q, or q (at the bottom of a tab). */
static int
quit_key(struct app *a, const struct tui_input *in)
{
	enum tui_action	act;

	if (a->dlg_on != 0 || a->in_prompt || in->key == TK_MOUSE)
		return 0;
	act = keys_lookup(app_cur_view(a)->scopes, in->key);
	return act == ACT_QUIT || act == ACT_BACK;
}

/* Whether work waits for the first screen (app_later, the header's copy). */
static int
put_off(const struct app *a)
{
	return a->later_fn != NULL || a->keep;
}

/*
 * Work put off for the first screen is done before a key is acted on,
 * unless the key quits: then only if it did not (it asked first, or
 * closed a view).
 */
void
app_input(struct app *a, const struct tui_input *in)
{
	/* A terminal too small shows nothing the keys would act on. */
	if (COLS < MIN_COLS || LINES < MIN_ROWS)
		return;
	if (put_off(a) && !quit_key(a, in))
		app_run_later(a);
	input(a, in);
	if (put_off(a) && !a->quit)
		app_run_later(a);
}

int
app_later(struct app *a, void (*fn)(void *), void *arg)
{
	if (a->frames > 0 || a->later_fn != NULL)
		return -1;
	a->later_fn = fn;
	a->later_arg = arg;
	return 0;
}

void
app_later_drop(struct app *a, void *arg)
{
	if (a->later_fn != NULL && a->later_arg == arg) {
		a->later_fn = NULL;
		a->later_arg = NULL;
	}
}

/*
 * The file's large header, left where the file is mapped to open it
 * (GGUF_HEADERS_LATER), copied into the browser's own memory now that the
 * first screen is drawn: from here it reads as it was whatever happens to
 * the file. If the file changed meanwhile, the next look at it says so.
 */
static void
keep_header(struct app *a)
{
	struct gguf_err	err;

	if (!a->keep)
		return;
	a->keep = 0;
	memset(&err, 0, sizeof err);
	(void)gguf_file_keep(gguf_doc_file(a->doc), &err);
}

int
app_run_later(struct app *a)
{
	void	(*fn)(void *) = a->later_fn;

	keep_header(a);
	if (fn == NULL)
		return 0;
	a->later_fn = NULL;
	fn(a->later_arg);
	a->later_arg = NULL;
	a->later_done++;
	return 1;
}

int
app_tick(struct app *a, int *busy)
{
	struct view	*v = app_cur_view(a);
	int		 r = R_NONE;

	*busy = 0;
	if (v->ops->tick != NULL) {
		r = v->ops->tick(v);
		*busy = (r & R_PASS) != 0;
	}
	return r & R_DRAW;
}
double
app_now_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* ---------------------------------------------------------------- main */

int
tui_main(const char *path, int alone, const char *message)
{
	struct app		 app, *a = &app;
	struct gguf_err		 err;
	struct tui_input	 in;
	char			 msg[640];
	int			 t, d, rc, busy = 0, dirty = 1, status;

	memset(a, 0, sizeof *a);
	memset(&err, 0, sizeof err);
	/*
	 * The user's character set, for curses, libedit and the widths of
	 * characters; nothing else of the locale: numbers are written and
	 * read as everywhere else in ggufed (10000.5, not 10000,5, in a
	 * German locale), and the other categories are never loaded.
	 */
	setlocale(LC_CTYPE, "");
	tui_utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
	a->search_dir = 1;
	/* Open before touching the terminal: a bad file leaves it alone. */
	a->open_flags = alone ? GGUF_OPEN_ALONE : 0;
	/* a large header is copied once the first screen is drawn */
	gguf_keep_headers(GGUF_HEADERS_LATER);
	a->doc = gguf_doc_open_set(path, a->open_flags, &err);
	gguf_keep_headers(GGUF_HEADERS_COPY);
	a->keep = 1;
	if (a->doc == NULL) {
		gguf_err_text(&err, msg, sizeof msg);
		fprintf(stderr, "ggufed: ");
		dl_init(&a->dl);
		dl_text(&a->dl, 0, path, strlen(path), 0, 4096, 0);
		fprintf(stderr, "%s: %s\n", a->dl.s != NULL ? a->dl.s : "",
		    msg);
		/* A header torn by a crash does not parse: say why. */
		if (gguf_journal_trust(path, msg, sizeof msg) ==
		    GGUF_JOURNAL_OURS)
			fprintf(stderr, "ggufed: %s: an interrupted save left a "
			    "journal: run 'ggufed recover' on the file\n",
			    a->dl.s != NULL ? a->dl.s : "");
		dl_free(&a->dl);
		return 1;
	}
	a->path = xstrdup(path);
	value_stdin_taken("the browser reads the keyboard from it");
	dl_init(&a->dl);
	if (!term_usable()) {
		dl_text(&a->dl, 0, path, strlen(path), 0, 4096, 0);
		fprintf(stderr, "ggufed: not a terminal: try 'ggufed info %s'\n",
		    a->dl.s != NULL ? a->dl.s : "");
		dl_free(&a->dl);
		gguf_doc_free(a->doc);
		free(a->path);
		return 2;
	}
	if ((a->pr = run_prompt_new(a)) == NULL || term_start(a) != 0) {
		term_stop(a);
		dl_free(&a->dl);
		gguf_doc_free(a->doc);
		free(a->path);
		return 1;
	}
	/* The caller's word first: a rescue or a journal outranks it. */
	if (message != NULL)
		app_msg(a, 0, "%s", message);
	rescue_notice(a);
	journal_msg(a);
	while (!a->quit && !a->term_gone) {
		if (dirty)
			frame_draw(a);
		dirty = 0;
		if (run_pending(a)) {
			dirty = 1;
			continue;
		}
		/* Drawn: what it put off is done unless a key is waiting. */
		if (put_off(a) && a->script == NULL &&
		    !term_key_waiting()) {
			app_run_later(a);
			dirty = 1;
			continue;
		}
		if (a->script != NULL) {
			if (script_input(a, &in) != 0)
				break;
			rc = 0;
		} else if ((rc = term_input(a, &in, busy)) < 0)
			break;
		if (rc == 2) {
			dirty = 1;
			continue;
		}
		if (rc == 1 && app_check_disk(a))
			dirty = 1;
		if (rc == 0) {
			app_input(a, &in);
			dirty = 1;
		}
		if (app_tick(a, &busy))
			dirty = 1;
	}
	/* Background work reads the document: it ends before anything else. */
	task_stop_all(a, 0, TASK_BY_LOOP);
	term_stop(a);
	/* Cut off: nobody is there to ask whether to save. */
	if (a->term_gone && mdl_n_changes(a) > 0)
		rescue_write(a, a->term_gone == TERM_KILLED ? "terminated" :
		    "the terminal went away");
	status = a->script_err || (a->term_gone && mdl_n_changes(a) > 0);
	for (t = 0; t < N_TABS; t++) {
		for (d = a->depth[t]; d > 0; d--)
			view_free(a->stk[t][d - 1]);
	}
	if (a->ask_pending && a->ask.arg_free != NULL)
		a->ask.arg_free(a->ask.arg);
	if (a->dlg_on == 1 && a->dlg_free != NULL)
		a->dlg_free(a->dlg_arg);
	prompt_free(a->pr);
	free(a->ask_label);
	free(a->ask_init);
	free(a->ed_key);
	free(a->save_path);
	free(a->log);
	re_free(a->search);
	dl_free(&a->dl);
	gguf_doc_free(a->doc);
	free(a->path);
	return status;
}
