/*
 * view_sync.c - `:sync DIR`: the differences between the document (its
 * pending edits included) and the model's upstream repository's files
 * (src/sync), one row each, as `ggufed sync` reports them (a chat
 * template's with its rendered difference under it). Enter on a
 * difference selects it or leaves it out (all that can be written start
 * selected; a shape hyper-parameter or a fix that needs a tensor cannot
 * be); Enter on the last row applies the selected ones as edit commands,
 * each one step that u undoes, and w saves as after any edit. The view
 * compares again whenever the document changes; a difference left out
 * stays out. Right opens a difference or a note, whole, in the pager
 * (Enter too, on a note): a row is cut at the screen's width.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui.h"
#include "view_sync.h"
#include "cmd/lang.h"
#include "sync/sync.h"

/* A row: a difference, a line of its detail, the apply row, a note. */
#define ROW_DIFF	0
#define ROW_DETAIL	1
#define ROW_APPLY	2
#define ROW_NOTE	3
struct srow {
	int		 kind;
	size_t		 i;		/* the difference or note */
	const char	*p;		/* ROW_DETAIL: the line, in detail */
	size_t		 n;
};

struct sview {
	struct app		*app;
	struct list		 list;
	struct sync_report	 r;
	struct srow		*rows;
	size_t			 n_rows;
	char			*dir;
	char			 err[512];	/* the comparison failed: why */
	char			**off;		/* the keys left out, kept out
						   when compared again */
	size_t			 n_off;
};

static struct gguf_val *
doc_get(void *arg, const char *key)
{
	return gguf_doc_get(arg, key, strlen(key));
}

static int
doc_has_tensor(void *arg, const char *name)
{
	return gguf_doc_tensor_find(arg, name, strlen(name)) >= 0;
}

static void
add_row(struct sview *sv, int kind, size_t i, const char *p, size_t n)
{
	sv->rows = xreallocarray(sv->rows, sv->n_rows + 1, sizeof *sv->rows);
	sv->rows[sv->n_rows].kind = kind;
	sv->rows[sv->n_rows].i = i;
	sv->rows[sv->n_rows].p = p;
	sv->rows[sv->n_rows].n = n;
	sv->n_rows++;
}

/*
 * The rows: each difference followed by its detail (a template's
 * rendered difference), the apply row, the notes. At least one row.
 */
static uint64_t
make_rows(struct sview *sv)
{
	const char	*p, *nl;
	size_t		 i;

	free(sv->rows);
	sv->rows = NULL;
	sv->n_rows = 0;
	if (sv->err[0] != '\0')
		return 1;
	for (i = 0; i < sv->r.n; i++) {
		add_row(sv, ROW_DIFF, i, NULL, 0);
		for (p = sv->r.diffs[i].detail; p != NULL && *p != '\0';
		    p = nl + 1) {
			if ((nl = strchr(p, '\n')) == NULL)
				nl = p + strlen(p);
			add_row(sv, ROW_DETAIL, i, p, (size_t)(nl - p));
			if (*nl == '\0')
				break;
		}
	}
	add_row(sv, ROW_APPLY, 0, NULL, 0);
	for (i = 0; i < sv->r.n_notes; i++)
		add_row(sv, ROW_NOTE, i, NULL, 0);
	return sv->n_rows;
}

static size_t
n_selected(const struct sview *sv)
{
	size_t	i, n = 0;

	for (i = 0; i < sv->r.n; i++)
		if (sv->r.diffs[i].selected && sv->r.diffs[i].edit != NULL)
			n++;
	return n;
}

/* Whether key was left out; with drop, it is no longer. */
static int
left_out(struct sview *sv, const char *key, int drop)
{
	size_t	i;

	for (i = 0; i < sv->n_off; i++) {
		if (strcmp(sv->off[i], key) != 0)
			continue;
		if (drop) {
			free(sv->off[i]);
			sv->off[i] = sv->off[--sv->n_off];
		}
		return 1;
	}
	return 0;
}

static void
compare(struct sview *sv)
{
	struct sync_model	m;
	size_t			i;

	sync_report_free(&sv->r);
	sv->err[0] = '\0';
	m.get = doc_get;
	m.has_tensor = doc_has_tensor;
	m.arg = app_doc(sv->app);
	if (sync_compare(&m, sv->dir, &sv->r, sv->err, sizeof sv->err) != 0 &&
	    sv->err[0] == '\0')
		snprintf(sv->err, sizeof sv->err, "the comparison failed");
	for (i = 0; i < sv->r.n; i++)
		if (left_out(sv, sv->r.diffs[i].key, 0))
			sv->r.diffs[i].selected = 0;
}

/* Row id, whole, in the pager: a note, or a difference with its detail. */
static int
open_whole(struct sview *sv, uint64_t id)
{
	const struct sync_diff	*d;
	const struct srow	*r = &sv->rows[id];
	struct view		*v;
	char			*buf = NULL;
	size_t			 len = 0;
	FILE			*fp;

	if (r->kind == ROW_APPLY)
		return R_NONE;
	if ((fp = open_memstream(&buf, &len)) == NULL) {
		app_msg(sv->app, 1, "out of memory");
		return R_DRAW;
	}
	if (r->kind == ROW_NOTE)
		fprintf(fp, "note: %s\n", sv->r.notes[r->i]);
	else {
		d = &sv->r.diffs[r->i];
		fprintf(fp, "%s\n  in the file: %s\n  upstream:    %s", d->key,
		    d->file, d->upstream);
		if (d->source != NULL)
			fprintf(fp, " (%s)", d->source);
		fprintf(fp, "\n  effect:      %s\n  %s%s\n", d->effect,
		    d->edit != NULL ? "written by: " : "not written",
		    d->edit != NULL ? d->edit : d->kind == SYNC_SHAPE ?
		    ": a shape difference (the folder is not this model's)" :
		    ": it needs a tensor the converter makes");
		if (d->detail != NULL && d->detail[0] != '\0')
			fprintf(fp, "\n%s\n", d->detail);
	}
	if (fclose(fp) != 0 || buf == NULL) {
		free(buf);
		app_msg(sv->app, 1, "out of memory");
		return R_DRAW;
	}
	if (len > 0 && buf[len - 1] == '\n')
		len--;			/* no empty last line */
	v = view_pager_own(sv->app, r->kind == ROW_NOTE ? "sync: a note" :
	    "sync: a difference", buf, len);
	view_pager_log(v);
	app_push(sv->app, v);
	return R_DRAW;
}

static void
row(void *ctx, struct dline *dl, uint64_t id, int w)
{
	struct sview		*sv = ctx;
	const struct sync_diff	*d;
	const struct srow	*r;
	char			 b[64];
	const char		*n;

	if (sv->err[0] != '\0' || id >= sv->n_rows) {
		dl_puts(dl, S_ERROR, " not compared: ");
		dl_text(dl, S_ERROR, sv->err, strlen(sv->err), 0,
		    w - dl->cols, 0);
		return;
	}
	r = &sv->rows[id];
	switch (r->kind) {
	case ROW_APPLY:
		snprintf(b, sizeof b, " Apply the %zu selected (Enter)",
		    n_selected(sv));
		dl_puts(dl, sv->r.n == 0 ? S_DIM : S_HEADER, sv->r.n == 0 ?
		    " no differences" : b);
		return;
	case ROW_NOTE:
		n = sv->r.notes[r->i];
		dl_puts(dl, S_DIM, " note: ");
		dl_text(dl, S_DIM, n, strlen(n), 0, w - dl->cols, 0);
		return;
	case ROW_DETAIL:
		dl_puts(dl, S_DIM, "       ");
		dl_text(dl, r->n > 0 && r->p[0] == '+' ? S_OK : r->n > 0 &&
		    r->p[0] == '-' ? S_ERROR : S_DIM, r->p, r->n, 0,
		    w - dl->cols, 0);
		return;
	}
	d = &sv->r.diffs[r->i];
	dl_puts(dl, S_NORMAL, d->edit == NULL ? " [-] " : d->selected ?
	    " [x] " : " [ ] ");
	dl_text(dl, d->edit == NULL ? S_ERROR : S_KEY, d->key, strlen(d->key),
	    0, w - dl->cols, 0);
	dl_puts(dl, S_NORMAL, ": ");
	dl_text(dl, S_NORMAL, d->file, strlen(d->file), 0, w - dl->cols, 0);
	dl_puts(dl, S_DIM, " -> ");
	dl_text(dl, S_OK, d->upstream, strlen(d->upstream), 0, w - dl->cols,
	    0);
	dl_puts(dl, S_DIM, ": ");
	dl_text(dl, S_DIM, d->effect, strlen(d->effect), 0, w - dl->cols, 0);
}

/* The selected differences, applied in order as edit commands. */
static int
apply(struct sview *sv)
{
	struct lang_cmd	 cmd;
	struct sync_diff *d;
	char		 msg[512], *line;
	size_t		 i, done = 0, n = n_selected(sv);
	int		 rc;

	if (sv->r.shape_mismatch) {
		app_msg(sv->app, 1, "not applied: the folder is not this "
		    "model's (its shape or architecture differs)");
		return R_DRAW;
	}
	if (n == 0) {
		app_msg(sv->app, 0, "nothing selected (Enter on a difference "
		    "selects it)");
		return R_DRAW;
	}
	for (i = 0; i < sv->r.n; i++) {
		d = &sv->r.diffs[i];
		if (!d->selected || d->edit == NULL)
			continue;
		line = d->edit;
		if (lang_parse(line, &cmd, msg, sizeof msg) != LANG_OK) {
			app_msg(sv->app, 1, "%s", msg);
			break;
		}
		rc = lang_apply(app_doc_edit(sv->app), &cmd, msg, sizeof msg);
		lang_cmd_free(&cmd);
		if (rc < 0) {
			app_msg(sv->app, 1, "%s: %s%s", d->key, msg,
			    rc == LANG_REFUSED ? " (:set with the value "
			    "would ask whether to force it)" : "");
			break;
		}
		done++;
	}
	if (done == n)
		app_msg(sv->app, 0, "applied %zu difference%s (u undoes one, "
		    ":undo %zu all; w saves)", done, done == 1 ? "" : "s",
		    done);
	return done > 0 ? R_DRAW | R_EDITED : R_DRAW;
}

static int
sync_action(struct view *v, enum tui_action act, const struct tui_input *in)
{
	struct sview	*sv = v->priv;
	struct sync_diff *d;
	uint64_t	 id;

	(void)in;
	if ((act != ACT_OPEN && act != ACT_RIGHT) || sv->err[0] != '\0')
		return R_PASS;
	if (list_cur(&sv->list, &id) != 0 || id >= sv->n_rows)
		return R_NONE;
	if (act == ACT_RIGHT || sv->rows[id].kind == ROW_NOTE)
		return open_whole(sv, id);
	if (sv->rows[id].kind == ROW_APPLY)
		return apply(sv);
	if (sv->rows[id].kind != ROW_DIFF)
		return R_NONE;
	d = &sv->r.diffs[sv->rows[id].i];
	if (d->edit == NULL) {
		app_msg(sv->app, 0, "%s", d->kind == SYNC_SHAPE ? "a shape "
		    "difference is never written: the folder is not this "
		    "model's" : "not written: it needs a tensor the converter "
		    "makes");
		return R_DRAW;
	}
	d->selected = !d->selected;
	if (!left_out(sv, d->key, d->selected) && !d->selected) {
		sv->off = xreallocarray(sv->off, sv->n_off + 1,
		    sizeof *sv->off);
		sv->off[sv->n_off++] = xstrdup(d->key);
	}
	return R_DRAW;
}

static void
sync_status(struct view *v, char *buf, size_t len)
{
	struct sview	*sv = v->priv;

	snprintf(buf, len, "%s", sv->err[0] != '\0' ? ":sync DIR again "
	    "compares" : "Enter: select / apply (last row); Right: the whole "
	    "row; u undoes");
}

static int
sync_reload(struct view *v)
{
	struct sview	*sv = v->priv;

	compare(sv);
	list_reset(&sv->list, NULL, make_rows(sv));
	return 0;
}

static void
sync_free(struct view *v)
{
	struct sview	*sv = v->priv;
	size_t		 i;

	sync_report_free(&sv->r);
	list_free(&sv->list);
	free(sv->rows);
	free(sv->dir);
	for (i = 0; i < sv->n_off; i++)
		free(sv->off[i]);
	free(sv->off);
	free(sv);
}

static const struct list_ops sync_list_ops = {
	.row = row,
};

static const struct view_ops sync_ops = {
	.name = "sync",
	.action = sync_action,
	.status = sync_status,
	.reload = sync_reload,
	.free = sync_free,
};

void
view_sync_open(struct app *a, const char *dir)
{
	struct sview	*sv;
	struct view	*v;
	char		 p[96], e[400];

	sv = xcalloc(1, sizeof *sv);
	sv->app = a;
	sv->dir = xstrdup(dir);
	compare(sv);
	if (sv->err[0] != '\0') {
		text_escape(e, sizeof e, sv->err, strlen(sv->err), 300);
		app_msg(a, 1, "%s", e);
		free(sv->dir);
		free(sv);
		return;
	}
	list_init_flat(&sv->list, &sync_list_ops, sv, make_rows(sv));
	v = view_new(a, &sync_ops, SC_LIST, sv);
	v->list = &sv->list;
	text_escape(p, sizeof p, dir, strlen(dir), 60);
	snprintf(v->title, sizeof v->title, "Sync with %s", p);
	app_push(a, v);
	if (sv->r.n == 0)
		app_msg(a, 0, "no differences with %s", p);
	else
		app_msg(a, 0, "%zu difference%s with %s%s", sv->r.n,
		    sv->r.n == 1 ? "" : "s", p, sv->r.shape_mismatch ?
		    ": the folder is not this model's" : "");
}
