/*
 * view_summary.c - the first screen: what this file is.
 *
 * The same facts as `ggufed info`, laid out for a screen: the file and its
 * layout, the model's identity, the tensor-type mix as one bar (bytes per
 * type) with a legend giving bits per weight, the file name split by the
 * GGUF naming convention, and the checks: the reader's findings and the
 * model checks of `ggufed validate` (without the tensor data), each with
 * its level.
 *
 * The summary is a list of prepared lines, so it scrolls on a small
 * terminal and can be searched like every other view. Lines are built once
 * (their number does not depend on the size of the model: one per tensor
 * type, one per finding); the bar is drawn at the current width.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "naming.h"
#include "tui.h"

#define LABEL_W		15

enum sl_kind {
	SL_BLANK, SL_HEAD, SL_TEXT, SL_FILE, SL_BAR, SL_TYPE, SL_WARN,
	SL_PART
};

struct sline {
	enum sl_kind	 kind;
	const char	*label;
	char		 text[160];	/* program text */
	struct gguf_str	 fs;		/* file bytes (SL_FILE, SL_PART) */
	int		 slot;
	uint64_t	 a, b, c;	/* SL_TYPE: type, bytes, elems;
					   SL_WARN: -, offset, has offset */
	int		 n;		/* SL_TYPE: tensors; SL_BAR: colour
					   index; SL_WARN: level */
};

struct summary {
	struct app	*app;
	struct list	 list;
	struct sline	*lines;
	size_t		 n, cap;
	uint64_t	 type_bytes[GGUF_T_COUNT + 1];
	uint64_t	 type_elems[GGUF_T_COUNT + 1];
	int		 type_count[GGUF_T_COUNT + 1];
	int		 type_colour[GGUF_T_COUNT + 1];
	uint64_t	 total_bytes;
	char		*name_copy;	/* the path the name parts point into */
	char		**msgs;		/* the model checks' messages */
	size_t		 n_msgs;
	unsigned	 count[3];	/* findings by level */
};

/*
 * A new line at the end. The pointer it returns is good until the next
 * add: the array moves when it grows.
 */
static struct sline *
add(struct summary *s, enum sl_kind k, const char *label)
{
	struct sline	*l;

	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 64;
		s->lines = xreallocarray(s->lines, s->cap, sizeof *s->lines);
	}
	l = &s->lines[s->n++];
	memset(l, 0, sizeof *l);
	l->kind = k;
	l->label = label;
	l->slot = S_NORMAL;
	return l;
}

static void
add_text(struct summary *s, const char *label, int slot, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void
add_text(struct summary *s, const char *label, int slot, const char *fmt, ...)
{
	struct sline	*l = add(s, SL_TEXT, label);
	va_list		 ap;

	va_start(ap, fmt);
	vsnprintf(l->text, sizeof l->text, fmt, ap);
	va_end(ap);
	l->slot = slot;
}

static void
add_section(struct summary *s, const char *label, uint64_t from, uint64_t to)
{
	char	g[32], z[32];

	add_text(s, label, S_NORMAL, "0x%010llx  %14s  %s",
	    (unsigned long long)from, gguf_fmt_group(to - from, g, sizeof g),
	    gguf_fmt_size(to - from, z, sizeof z));
}

static void
add_str_key(struct summary *s, const char *label, const char *key)
{
	struct gguf_val	*v = mdl_get(s->app, key);
	struct sline	*l;
	char		 buf[64];

	if (v == NULL)
		return;
	l = add(s, SL_FILE, label);
	if (gguf_val_str(v, &l->fs) == 0)
		return;
	/* Not a string: show the value as the metadata view would. */
	l->kind = SL_TEXT;
	mdl_scalar(v, buf, sizeof buf);
	snprintf(l->text, sizeof l->text, "%s (not a string)", buf);
}

/* A finding line; msg is copied when it does not belong to the file. */
static void
add_finding(struct summary *s, int level, int64_t off, const char *msg,
    int copy)
{
	struct sline	*l = add(s, SL_WARN, NULL);

	if (copy) {
		s->msgs = xreallocarray(s->msgs, s->n_msgs + 1,
		    sizeof *s->msgs);
		msg = s->msgs[s->n_msgs++] = xstrdup(msg);
	}
	if (level < GGUF_W_NOTE || level > GGUF_W_ERROR)
		level = GGUF_W_ERROR;
	s->count[level]++;
	l->n = level;
	l->fs.p = msg;
	l->fs.n = strlen(msg);
	l->b = off >= 0 ? (uint64_t)off : 0;
	l->c = off >= 0;
}

static void
on_finding(void *arg, int level, int64_t off, const char *msg)
{
	add_finding(arg, level, off, msg, 1);
}

static void
build(struct summary *s)
{
	struct app			*a = s->app;
	const struct gguf_layout	*lay = gguf_layout(app_file(a));
	const struct gguf_tensor	*t;
	const struct gguf_warning	*w;
	struct gguf_name		 nm;
	struct gguf_err			 err;
	struct gguf_val			*v;
	struct sline			*l;
	uint64_t			 i, params = 0, ft;
	size_t				 k, head;
	int				 colour = 0, p;
	char				 g[32], z[32];
	const char			*ftn;

	l = add(s, SL_FILE, "File");
	l->fs.p = app_path(a);
	l->fs.n = strlen(app_path(a));
	add_text(s, "Size", S_NUMBER, "%s bytes (%s)",
	    gguf_fmt_group(lay->file_size, g, sizeof g),
	    gguf_fmt_size(lay->file_size, z, sizeof z));
	add_text(s, "Format", S_NORMAL, "GGUF v%u, %s-endian, alignment %u",
	    lay->version, lay->be ? "big" : "little", lay->alignment);
	add_str_key(s, "Architecture", "general.architecture");
	add_str_key(s, "Name", "general.name");
	v = mdl_get(a, "general.file_type");
	if (v != NULL && gguf_val_u64(v, &ft) == 0) {
		ftn = ft <= UINT32_MAX ? gguf_file_type_name((uint32_t)ft) : NULL;
		add_text(s, "File type", S_NORMAL, "%s (%llu)",
		    ftn != NULL ? ftn : "unknown", (unsigned long long)ft);
	}
	for (i = 0; i < lay->n_tensors; i++) {
		t = mdl_tensor(a, i);
		k = t->type < GGUF_T_COUNT ? t->type : GGUF_T_COUNT;
		s->type_count[k]++;
		s->type_bytes[k] += t->nbytes;
		s->type_elems[k] += t->nelem;
		s->total_bytes += t->nbytes;
		params += t->nelem;
	}
	if (params >= 1000000000ULL)
		snprintf(z, sizeof z, " (%.2f B)", (double)params / 1e9);
	else if (params >= 1000000ULL)
		snprintf(z, sizeof z, " (%.2f M)", (double)params / 1e6);
	else if (params >= 1000ULL)
		snprintf(z, sizeof z, " (%.2f K)", (double)params / 1e3);
	else
		z[0] = '\0';
	add_text(s, "Parameters", S_NUMBER, "%s%s", gguf_fmt_group(params, g,
	    sizeof g), z);
	add_text(s, "KV pairs", S_NUMBER, "%llu", (unsigned long long)lay->n_kv);
	add_text(s, "Tensors", S_NUMBER, "%llu",
	    (unsigned long long)lay->n_tensors);

	add(s, SL_BLANK, NULL);
	add(s, SL_HEAD, "Sections");
	add_section(s, "header", 0, lay->kv_off);
	add_section(s, "KV pairs", lay->kv_off, lay->ti_off);
	add_section(s, "tensor infos", lay->ti_off, lay->ti_end);
	if (lay->n_tensors > 0) {
		add_section(s, "padding", lay->ti_end,
		    lay->data_off < lay->file_size ? lay->data_off :
		    lay->file_size);
		if (lay->data_off <= lay->file_size)
			add_section(s, "tensor data", lay->data_off,
			    lay->file_size);
	} else if (lay->ti_end < lay->file_size)
		add_section(s, "trailing", lay->ti_end, lay->file_size);

	if (lay->n_tensors > 0) {
		add(s, SL_BLANK, NULL);
		l = add(s, SL_HEAD, "Tensor types");
		snprintf(l->text, sizeof l->text, "%s in tensors, %.2f bits "
		    "per weight overall", gguf_fmt_size(s->total_bytes, z, sizeof z),
		    params > 0 ? 8.0 * (double)s->total_bytes /
		    (double)params : 0.0);
		for (k = 0; k <= GGUF_T_COUNT; k++) {
			if (s->type_count[k] > 0)
				s->type_colour[k] = colour++ % 6;
		}
		add(s, SL_BAR, NULL);
		for (k = 0; k <= GGUF_T_COUNT; k++) {
			if (s->type_count[k] == 0)
				continue;
			l = add(s, SL_TYPE, NULL);
			l->a = k;
			l->b = s->type_bytes[k];
			l->c = s->type_elems[k];
			l->n = s->type_count[k];
		}
	}

	add(s, SL_BLANK, NULL);
	l = add(s, SL_HEAD, "File name");
	s->name_copy = xstrdup(app_path(a));
	memset(&err, 0, sizeof err);
	if (gguf_name_parse(s->name_copy, &nm, &err) != 0)
		snprintf(l->text, sizeof l->text, "cannot check: %.100s", err.msg);
	else if (!nm.matched)
		snprintf(l->text, sizeof l->text, "does not follow the GGUF "
		    "naming convention");
	else {
		snprintf(l->text, sizeof l->text, "follows the GGUF naming "
		    "convention");
		for (p = 0; p < GGUF_NP_COUNT; p++) {
			l = add(s, SL_PART, gguf_name_part_label(p));
			l->fs = nm.part[p];
		}
	}

	/*
	 * The findings grow the array of lines: the heading is found again
	 * by its index once they are in.
	 */
	add(s, SL_BLANK, NULL);
	head = s->n;
	add(s, SL_HEAD, "Checks");
	for (k = 0; k < gguf_n_warnings(app_file(a)); k++) {
		w = gguf_warning_at(app_file(a), k);
		add_finding(s, w->level, (int64_t)w->off, w->msg, 0);
	}
	(void)gguf_check_model(app_file(a), NULL, 0, NULL, on_finding, s);
	l = &s->lines[head];
	gguf_wlevel_counts(s->count, "none", l->text, sizeof l->text);
}

static const char *
bar_glyph(int colour)
{
	static const char *const mono[] = { "#", "=", "%", "*", "+", "@" };

	if (tui_color)
		return tui_utf8 ? "\xe2\x96\x88" : "#";
	return mono[colour % 6];
}

static void
row(void *ctx, struct dline *dl, uint64_t id, int w)
{
	struct summary	*s = ctx;
	struct sline	*l = &s->lines[id];
	char		 tb[24], g[32], z[32];
	int		 k, cells, used, bw;

	dl_puts(dl, S_NORMAL, " ");
	switch (l->kind) {
	case SL_BLANK:
		return;
	case SL_HEAD:
		dl_puts(dl, S_HEADER, l->label);
		if (l->text[0] != '\0') {
			dl_puts(dl, S_NORMAL, "  ");
			dl_text(dl, S_NORMAL, l->text, strlen(l->text), 0,
			    w - dl->cols, 0);
		}
		return;
	case SL_TEXT:
	case SL_FILE:
	case SL_PART:
		dl_puts(dl, S_KEY, l->label);
		dl_pad(dl, S_NORMAL, LABEL_W);
		if (l->kind == SL_TEXT)
			dl_text(dl, l->slot, l->text, strlen(l->text), 0,
			    w - dl->cols, 0);
		else if (l->kind == SL_PART && l->fs.n == 0)
			dl_puts(dl, S_DIM, "-");
		else
			dl_text(dl, S_STRING, l->fs.p, (size_t)l->fs.n, 0,
			    w - dl->cols, 0);
		return;
	case SL_BAR:
		bw = w - dl->cols - 1;
		used = 0;
		for (k = 0; k <= GGUF_T_COUNT && bw > 0; k++) {
			if (s->type_count[k] == 0)
				continue;
			cells = s->total_bytes == 0 ? 0 : (int)((double)bw *
			    (double)s->type_bytes[k] / (double)s->total_bytes +
			    0.5);
			if (cells == 0 && s->type_bytes[k] > 0)
				cells = 1;
			if (used + cells > bw)
				cells = bw - used;
			for (; cells > 0; cells--, used++)
				dl_puts(dl, S_BAR0 + s->type_colour[k],
				    bar_glyph(s->type_colour[k]));
		}
		return;
	case SL_TYPE:
		dl_puts(dl, S_BAR0 + s->type_colour[l->a],
		    bar_glyph(s->type_colour[l->a]));
		dl_puts(dl, S_BAR0 + s->type_colour[l->a],
		    bar_glyph(s->type_colour[l->a]));
		dl_puts(dl, S_NORMAL, " ");
		dl_puts(dl, S_TYPE, l->a == GGUF_T_COUNT ? "(other)" :
		    gguf_ttype_name((uint32_t)l->a, tb));
		dl_pad(dl, S_NORMAL, LABEL_W);
		dl_printf(dl, S_NUMBER, "%5d", l->n);
		dl_puts(dl, S_DIM, l->n == 1 ? " tensor " : " tensors");
		dl_rjust(dl, S_NUMBER, gguf_fmt_size(l->b, z, sizeof z), 11);
		dl_printf(dl, S_NUMBER, " %5.1f%%", s->total_bytes == 0 ? 0.0 :
		    100.0 * (double)l->b / (double)s->total_bytes);
		if (l->c > 0 && l->b > 0)
			dl_printf(dl, S_NUMBER, "  %6.2f", 8.0 * (double)l->b /
			    (double)l->c);
		else
			dl_puts(dl, S_DIM, "       -");
		dl_puts(dl, S_DIM, " bpw");
		if (w >= 100) {
			dl_puts(dl, S_DIM, "  ");
			dl_puts(dl, S_NUMBER, gguf_fmt_group(l->c, g, sizeof g));
			dl_puts(dl, S_DIM, " weights");
		}
		return;
	case SL_WARN:
		dl_pad(dl, S_NORMAL, 2);
		dl_printf(dl, l->n == GGUF_W_ERROR ? S_ERROR : l->n ==
		    GGUF_W_WARN ? S_WARN : S_DIM, "%s", gguf_wlevel_name(l->n));
		dl_pad(dl, S_NORMAL, 11);
		if (l->c)
			dl_printf(dl, l->n == GGUF_W_NOTE ? S_NORMAL : S_WARN,
			    "offset 0x%llx: ", (unsigned long long)l->b);
		dl_text(dl, l->n == GGUF_W_NOTE ? S_NORMAL : S_WARN, l->fs.p,
		    (size_t)l->fs.n, 0, w - dl->cols, 0);
		return;
	}
}

static void
summary_free(struct view *v)
{
	struct summary	*s = v->priv;

	list_free(&s->list);
	free(s->lines);
	free(s->name_copy);
	while (s->n_msgs > 0)
		free(s->msgs[--s->n_msgs]);
	free(s->msgs);
	free(s);
}

static const struct list_ops summary_list_ops = {
	.row = row,
};

static const struct view_ops summary_ops = {
	.name = "summary",
	.free = summary_free,
};

struct view *
view_summary_new(struct app *a)
{
	struct summary	*s = xcalloc(1, sizeof *s);
	struct view	*v;

	s->app = a;
	build(s);
	list_init_flat(&s->list, &summary_list_ops, s, s->n);
	v = view_new(a, &summary_ops, SC_LIST, s);
	v->list = &s->list;
	snprintf(v->title, sizeof v->title, "file summary");
	return v;
}
