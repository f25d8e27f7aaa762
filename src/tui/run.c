/*
 * run.c - work the loop does after a handler, which only asks for it:
 * the prompt (libedit, see prompt.c), $VISUAL on a string, a save with
 * its progress bar.
 */
#include "config.h"

#include <sys/wait.h>

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app.h"
#include "hash.h"
#include "http.h"
#include "save.h"
#include "task.h"

static int
write_all(int fd, const char *p, size_t n)
{
	ssize_t	w;

	while (n > 0) {
		if ((w = write(fd, p, n)) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static int
read_all(const char *path, char **out, size_t *outlen)
{
	FILE	*fp = fopen(path, "rb");
	char	*buf = NULL;
	size_t	 len = 0, cap = 0, k;

	if (fp == NULL)
		return -1;
	for (;;) {
		if (cap - len < 4096) {
			cap = cap ? cap * 2 : 8192;
			buf = xreallocarray(buf, cap, 1);
		}
		k = fread(buf + len, 1, cap - len, fp);
		len += k;
		if (k == 0)
			break;
	}
	if (ferror(fp)) {
		fclose(fp);
		free(buf);
		return -1;
	}
	fclose(fp);
	*out = buf;
	*outlen = len;
	return 0;
}

/* The prompt's keys: the frame is drawn, then a key is read. */
static int
pr_key(void *arg)
{
	struct app		*a = arg;
	struct tui_input	 in;
	int			 rc;

	for (;;) {
		frame_draw(a);
		if (a->script != NULL) {
			if (script_input(a, &in) != 0)
				return -1;
			return in.key;
		}
		rc = term_input(a, &in, 0);
		if (rc == 0)
			return in.key;
		if (rc < 0)
			return -1;
	}
}

static int
pr_pending(void *arg)
{
	struct app	*a = arg;

	if (a->script != NULL)
		return script_keys_waiting(a);
	return term_key_waiting();
}

static void
pr_complete(void *arg, const char *line, size_t word,
    void (*add)(void *, const char *), void *ctx)
{
	struct app	*a = arg;

	edit_complete(a, a->ask.compl, line, word, add, ctx);
}

static void
run_prompt(struct app *a)
{
	struct ask	 q = a->ask;
	char		*line = NULL;
	int		 rc, r;

	a->ask_pending = 0;
	a->in_prompt = 1;
	curs_set(1);
	rc = prompt_read(a->pr, a->ask_init, q.hist, &line);
	a->in_prompt = 0;
	curs_set(0);
	a->msg[0] = '\0';
	r = q.fn(a, q.arg, rc == 0 ? line : NULL);
	if (rc == -2)
		app_msg(a, 1, "the line editor (libedit) could not be set up");
	free(line);
	if (q.arg_free != NULL && !(a->ask_pending && a->ask.arg == q.arg))
		q.arg_free(q.arg);
	app_apply(a, r);
}

/*
 * $VISUAL (or $EDITOR, or vi) on a temporary file holding the string.
 * curses is left the way ncdu leaves it for a shell, and taken back
 * after; an editor that fails, or a file left as it was, is no edit.
 */
static void
run_editor(struct app *a)
{
	struct sigaction sa, old_int, old_quit;
	const char	*ed = getenv("VISUAL"), *tmp = getenv("TMPDIR");
	char		 path[PATH_MAX], *cmd, *text = NULL, *now = NULL;
	size_t		 len = 0, nlen = 0;
	pid_t		 pid;
	int		 fd, status = 0;

	a->ed_pending = 0;
	if (ed == NULL || *ed == '\0')
		ed = getenv("EDITOR");
	if (ed == NULL || *ed == '\0')
		ed = "vi";
	if (edit_get_string(a, a->ed_key, a->ed_elem, &text, &len) != 0)
		return;
	snprintf(path, sizeof path, "%s/ggufed-XXXXXX%s",
	    tmp != NULL && *tmp == '/' ? tmp : "/tmp",
	    strstr(a->ed_key, "chat_template") != NULL ? ".jinja" : ".txt");
	fd = mkstemps(path, strstr(a->ed_key, "chat_template") != NULL ? 6 : 4);
	if (fd < 0 || write_all(fd, text, len) != 0) {
		app_error(a, "cannot write a temporary file in %s: %s",
		    tmp != NULL ? tmp : "/tmp", strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(path);
		}
		free(text);
		return;
	}
	close(fd);
	def_prog_mode();
	endwin();
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGQUIT, &sa, &old_quit);
	/* As git and mutt do: the variable is shell text ("code -w"). */
	cmd = xcalloc(1, strlen(ed) + 8);
	snprintf(cmd, strlen(ed) + 8, "%s \"$1\"", ed);
	pid = fork();
	if (pid == 0) {
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGQUIT, &old_quit, NULL);
		execl("/bin/sh", "sh", "-c", cmd, "sh", path, (char *)NULL);
		_exit(127);
	}
	free(cmd);
	if (pid > 0) {
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	reset_prog_mode();
	clearok(curscr, TRUE);
	refresh();
	if (pid < 0)
		app_error(a, "cannot run the editor: %s", strerror(errno));
	else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		app_msg(a, 1, "the editor (%s) failed (status %d): no edit", ed,
		    WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	else if (read_all(path, &now, &nlen) != 0)
		app_error(a, "cannot read %s back: %s", path, strerror(errno));
	else
		app_apply(a, edit_set_string(a, a->ed_key, a->ed_elem, text,
		    len, now, nlen));
	unlink(path);
	free(text);
	free(now);
}

/*
 * A save: the document decides in place or rewrite; the progress callback
 * draws the bar and polls for Esc, which cancels a rewrite (the file is
 * untouched then). Errors are a dialog; the edits stay pending.
 */
static int
save_progress(void *arg, uint64_t done, uint64_t total)
{
	struct app		*a = arg;
	struct tui_input	 in;
	double			 t = app_now_ms();
	int			 esc = 0;

	a->save_done = done;
	a->save_total = total;
	if (a->script != NULL) {
		/* Keys typed ahead on the same script line reach the save. */
		while (script_keys_waiting(a)) {
			if (script_input(a, &in) != 0)
				break;
			if (in.key == 0x1b)
				esc = 1;
		}
	} else
		esc = term_esc_typed();
	if (esc)
		return 1;
	if (t - a->save_drawn >= 50) {
		a->save_drawn = t;
		frame_draw(a);
	}
	return 0;
}

/*
 * After a save: the proof that it kept the tensor data (hash.h), with the
 * progress bar; Esc stops it. The line to show, allocated; *bad is set
 * when the data is not intact.
 */
static char *
run_proof(struct app *a, struct gguf_proof *p, const char *target,
    int inplace, int *bad)
{
	struct gguf_proof_result	 r;
	struct gguf_err			 err;
	char				*s;

	a->save_how = "Verifying the tensor data (xxh64)";
	a->save_t0 = app_now_ms();
	a->save_drawn = 0;
	a->save_done = 0;
	a->save_total = 0;
	memset(&err, 0, sizeof err);
	if (gguf_proof_check(p, target, inplace, save_progress, a, &r,
	    &err) != 0) {
		s = xmalloc(sizeof err.msg + 64);
		snprintf(s, sizeof err.msg + 64, "tensor data not verified "
		    "(%s)", err.msg);
		return s;
	}
	s = gguf_proof_text(&r);
	*bad = r.n_changed + r.n_missing > 0;
	gguf_proof_result_free(&r);
	return s;
}

/* A save asked for again once the user said to go ahead. */
struct save_again {
	char	*path;
	int	 force;
	int	 quit;
};

static void
save_again_free(void *arg)
{
	struct save_again	*s = arg;

	free(s->path);
	free(s);
}

static int
save_anyway_choice(struct app *a, void *arg, int key)
{
	struct save_again	*s = arg;

	if (key != 'y') {
		app_msg(a, 0, "not saved: the edits are still pending");
		return R_DRAW;
	}
	app_save(a, s->path, s->force, s->quit);
	a->save_anyway = 1;
	return R_DRAW;
}

/*
 * Whether to save a document llama.cpp would refuse: asks first, and 1
 * if the save waits for the answer.
 */
static int
ask_save_anyway(struct app *a)
{
	struct save_again	*s;
	char			 text[700];

	if (a->save_anyway || a->model_bad == 0) {
		a->save_anyway = 0;
		return 0;
	}
	s = xcalloc(1, sizeof *s);
	s->path = a->save_path != NULL ? xstrdup(a->save_path) : NULL;
	s->force = a->save_force;
	s->quit = a->save_quit;
	snprintf(text, sizeof text, "llama.cpp would refuse the result: %s%s"
	    "\n\nSave anyway? [y]es, [n]o", a->model_msg, a->model_bad > 1 ?
	    " (and more: D shows them)" : "");
	app_choose(a, text, "yn", save_anyway_choice, s, save_again_free);
	return 1;
}

/* What a refusal the save's force overrides says: ":w! forces it. " */
static void
force_hint(const struct app *a, const char *msg, char *hint, size_t len)
{
	hint[0] = '\0';
	if (strstr(msg, "unless forced") != NULL)
		snprintf(hint, len, ":w!%s%s forces it. ",
		    a->save_path != NULL ? " " : "",
		    a->save_path != NULL ? a->save_path : "");
}

static void
run_save(struct app *a)
{
	struct gguf_save_opts	 o;
	struct gguf_save_info	 info;
	struct gguf_err		 err;
	struct gguf_doc		*nd, *od = NULL;
	struct gguf_proof	 proof;
	struct sigaction	 sa, oxfsz;
	char			 size[32], links[120], hint[600], *target;
	char			*proved = NULL;
	double			 secs;
	int			 rc, quit = a->save_quit, prove, bad = 0;
	struct gguf_err		 perr;
	char			 unproved[sizeof perr.msg + 96] =
				    "tensor data not verified";

	a->save_pending = 0;
	/*
	 * The save reads the document and the file, then replaces them: no
	 * background work may go on reading (the views are made anew after).
	 */
	task_stop_all(a, 0, TASK_BY_LOOP);
	target = a->save_path != NULL ? a->save_path : a->path;
	memset(&o, 0, sizeof o);
	memset(&info, 0, sizeof info);
	memset(&err, 0, sizeof err);
	o.path = a->save_path;
	o.force = a->save_force;
	o.reserve = -1;
	o.progress = save_progress;
	o.arg = a;
	(void)app_check_disk(a);	/* the save refuses; the banner says why */
	if (a->save_path == NULL && mdl_n_changes(a) == 0) {
		app_msg(a, 0, "no changes to save");
		if (quit)
			a->quit = 1;
		return;
	}
	if (ask_save_anyway(a))
		return;
	if (a->save_path == NULL && gguf_is_url(a->path)) {
		app_error(a, "cannot save %s:\na model read from a URL cannot "
		    "be saved in place: :w FILE writes a local copy.\n\nThe "
		    "edits are still pending.", target);
		return;
	}
	if (gguf_doc_check_target(a->doc, &o, &err) != 0) {
		/* Not over a file, nor a read-only one, unless forced. */
		force_hint(a, err.msg, hint, sizeof hint);
		app_error(a, "cannot save %s:\n%s\n\n%sThe edits are still "
		    "pending.", target, err.msg, hint);
		return;
	}
	if (gguf_doc_plan_save(a->doc, &o, &info, &err) != 0) {
		app_error(a, "cannot save %s:\n%s\n\nThe edits are still pending.",
		    target, err.msg);
		return;
	}
	a->save_how = info.how == GGUF_SAVE_INPLACE ? "Saving in place" :
	    info.how == GGUF_SAVE_SET ? "Saving the set (rewriting the "
	    "changed shards)" : "Saving (rewriting the file)";
	/* An in-place save changes every name of the file, a rewrite one. */
	links[0] = '\0';
	if (info.nlink > 1)
		snprintf(links, sizeof links, "%lu names, hard links: %s",
		    info.nlink, info.how == GGUF_SAVE_INPLACE ?
		    "all of them change" : "only this one changes");
	a->save_links = links;
	a->saving = 1;
	a->save_t0 = app_now_ms();
	a->save_drawn = 0;
	a->save_done = 0;
	a->save_total = 0;
	/* Past `ulimit -f` a write fails (EFBIG) instead of killing us. */
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGXFSZ, &sa, &oxfsz);
	/* The proof that the data survived: source kept open through it. */
	memset(&perr, 0, sizeof perr);
	prove = gguf_proof_begin(a->doc, &proof, &perr) == 0;
	if (!prove)
		snprintf(unproved, sizeof unproved, "tensor data not verified "
		    "(%s; `ggufed diff --data` of the two compares them)",
		    perr.msg);
	rc = gguf_doc_save(a->doc, &o, &info, &err);
	sigaction(SIGXFSZ, &oxfsz, NULL);
	secs = (app_now_ms() - a->save_t0) / 1e3;
	a->saving = 0;
	a->save_links = NULL;
	if (rc < 0) {
		if (prove)
			gguf_proof_free(&proof);
		if (a->save_done < a->save_total || strstr(err.msg, "cancel"))
			app_msg(a, 1, "save cancelled: %s is untouched, the edits "
			    "are still pending", target);
		else {
			force_hint(a, err.msg, hint, sizeof hint);
			app_error(a, "cannot save %s:\n%s\n\n%sThe edits are "
			    "still pending.", target, err.msg, hint);
		}
		return;
	}
	if (a->save_path != NULL || rc == 1) {
		/* Go on with the saved file. */
		nd = a->save_path != NULL ? gguf_doc_open(target, &err) :
		    gguf_doc_open_set(target, a->open_flags, &err);
		if (nd == NULL) {
			if (prove)
				gguf_proof_free(&proof);
			app_error(a, "saved, but cannot open %s again:\n%s",
			    target, err.msg);
			if (rc == 1)
				a->quit = 1;
			return;
		}
		/*
		 * The views go before the old document: a preview's
		 * statistics may still be reading the old file.
		 */
		od = a->doc;
		a->doc = nd;
		if (a->save_path != NULL) {
			free(a->path);
			a->path = a->save_path;
			a->save_path = NULL;
		}
	}
	app_reset_views(a);
	gguf_doc_free(od);
	/* What is on disk is what was saved: no change there to tell of. */
	a->disk_changed = 0;
	/* With the views on the saved file: the proof, its bar drawn. */
	if (prove) {
		a->saving = 1;
		proved = run_proof(a, &proof, target,
		    info.how == GGUF_SAVE_INPLACE, &bad);
		a->saving = 0;
		gguf_proof_free(&proof);
	}
	gguf_fmt_size(info.file_size, size, sizeof size);
	if (bad)
		app_error(a, "saved %s, but the save did not keep the tensor "
		    "data:\n%s", target, proved);
	else if (info.how == GGUF_SAVE_SET)
		/* The outcome first: the rest may not fit the line (M). */
		app_msg(a, 0, "saved %s: %s; %u of the set's %u shards "
		    "written (%u in place, %u rewritten, %s) in %.2f s, all "
		    "or none", target, proved != NULL ? proved :
		    unproved, info.shards_written,
		    info.n_shards, info.shards_inplace, info.shards_written -
		    info.shards_inplace, size, secs);
	else if (info.source_changed)
		/* The proof holds of the copy, not of what was opened. */
		app_msg(a, APP_WARN, "saved %s by a rewrite, forced: the file "
		    "had changed on disk, its tensor data is copied as it is "
		    "there now, not as it was opened (%s); %s in %.2f s",
		    target, proved != NULL ? proved : unproved, size, secs);
	else
		app_msg(a, 0, "saved %s %s%s%s%s: %s; %s in %.2f s", target,
		    info.how == GGUF_SAVE_INPLACE ? "in place" :
		    "by a rewrite", *links != '\0' ? " (" : "", links,
		    *links != '\0' ? ")" : "", proved != NULL ? proved :
		    unproved, size, secs);
	free(proved);
	if (quit)
		a->quit = 1;
}

int
run_pending(struct app *a)
{
	if (a->ask_pending)
		run_prompt(a);
	else if (a->ed_pending)
		run_editor(a);
	else if (a->save_pending)
		run_save(a);
	else if (a->reload_pending)
		app_reload_run(a);
	else
		return 0;
	return 1;
}

struct prompt *
run_prompt_new(struct app *a)
{
	struct prompt_io	io;

	memset(&io, 0, sizeof io);
	io.key = pr_key;
	io.pending = pr_pending;
	io.complete = pr_complete;
	io.arg = a;
	return prompt_new(&io);
}
