/*
 * view_preview.c - a tensor's values: a grid, statistics, a histogram,
 * and the blocks of quantized data.
 *
 * The grid shows one 2-D slice of the tensor: rows are dimension 1,
 * columns dimension 0; [ and ] step through dimension 2, { and } through
 * dimension 3. A tensor that is one row long (a norm's weights, a bias) is
 * wrapped into screen-wide rows instead, labelled by the index of their
 * first element. Only the window on the screen is decoded, through the
 * dequantizer (src/numbers/dequant.h), at every draw: what is shown is what
 * `ggufed cat` prints, and a screen of a 10 GB tensor costs a screen. The
 * preview never holds a pointer to the tensor's data: rows, searches and
 * blocks are read through the file (guarded, or from its source when it
 * is not mapped), so a model read over the network fetches the rows shown.
 *
 * Values are shown short (%.4g), full (%.9g, enough to tell any two
 * floats apart) or as the hex bits of the float32; `c` colours each cell
 * by its value (blue negative, red positive, on the tensor's range once
 * statistics are known, on the window's until then); the cell under the
 * cursor is then marked and drawn in a slot no value uses.
 *
 * Statistics start in the background when the preview opens (a task,
 * task.h, running the threads of the stats module): the panel shows a
 * progress line, then the counts, moments and a histogram drawn with the
 * eight block characters. Esc or Ctrl-C cancels (the panel then says so
 * and shows no number); the grid can be browsed meanwhile. Closing the
 * preview cancels and joins the work. The task reads only the file,
 * which no edit changes (a save or a reload closes the preview first).
 *
 * `/` asks for a value and moves the cursor to the next element equal to
 * it (in element order, from the one after the cursor to the end of the
 * tensor; nan and inf are values too), `n` looks for it again: a search
 * of a large tensor is a task too, with its progress on the top line,
 * and Esc or Ctrl-C cancels it. Equal means equal to what the grid shows
 * in full: the value typed is rounded to float32 for the types that
 * decode through float32.
 *
 * `b` switches to the block view of a quantized tensor: one row per block
 * with its scales, mins and quants as the format stores them, drawn by
 * the list widget (so it scrolls, searches and filters like every list).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dequant.h"
#include "mathlib.h"
#include "remote.h"
#include "stats.h"
#include "task.h"
#include "tui.h"

enum fmt { FMT_SHORT, FMT_FULL, FMT_HEX, FMT_COUNT };

static const char *const fmt_names[FMT_COUNT] = { "short", "full", "hex" };
static const int fmt_width[FMT_COUNT] = { 11, 16, 11 };
#define FULL64_W	25	/* %.17g and 64-bit hex */

struct preview {
	struct app			*app;
	const struct gguf_tensor	*t;
	uint64_t			 index;
	uint64_t			 ne[GGUF_MAX_DIMS];
	int				 wrapped;	/* one row laid out in screen rows */
	uint64_t			 i2, i3;	/* the slice */
	uint64_t			 cur_r, cur_c;	/* cursor, in grid rows/cols */
	uint64_t			 top_r, left_c;
	uint64_t			 per_row;	/* wrapped: elements per screen row */
	enum fmt			 fmt;
	int				 heat;
	int				 logscale;	/* histogram heights */
	int				 blocks;	/* the block view is shown */
	double				*buf;
	int64_t				*ibuf;		/* integer types: exact values */
	size_t				 buf_n;
	int				 integral;	/* an integer tensor type */
	char				 err[300];	/* decoding error, shown in the grid */
	struct dline			 dl;

	/* Block view. */
	struct list			 blist;
	uint64_t			 nblocks;

	/* Statistics, computed by a task; st is the task's until it ends. */
	struct task			 task;
	struct gguf_stats		 st;
	const struct gguf_file		*f;

	/* The value search: a task; found is its answer. */
	struct task			 ftask;
	double				 fval;
	double				 ftol;		/* 0: exactly fval */
	char				 fstr[64];	/* as typed, safe text */
	char				 fwhat[96];	/* its progress label */
	uint64_t			 fstart;	/* first element looked at */
	uint64_t			 found;		/* or UINT64_MAX */
	double				 fgot;		/* the value found */
	int				 fpending;	/* its end not taken in */
};

/* ---------------------------------------------------------- statistics */

static int
stats_job(struct task *t, void *arg)
{
	struct preview		*p = arg;
	struct gguf_stats_opts	 o;
	struct gguf_stats	 st;
	struct gguf_err		 err;
	int			 rc;

	memset(&o, 0, sizeof o);
	memset(&err, 0, sizeof err);
	o.progress = task_progress;
	o.arg = t;
	o.cancel = &t->cancel;
	rc = gguf_stats_tensor(p->f, p->t, 0, gguf_tensor_nrows(p->t), &o, &st,
	    &err);
	if (rc == GGUF_STATS_CANCELLED)
		return TASK_STOPPED;
	if (rc != 0) {
		gguf_err_text(&err, t->err, sizeof t->err);
		return TASK_ERROR;
	}
	p->st = st;
	return TASK_OK;
}

static int	job_state(struct preview *);

static void
stats_start(struct preview *p)
{
	if (job_state(p) == TASK_RUNNING || p->t->nelem == 0)
		return;
	/* Progress counts the elements read (one pass), shown as bytes. */
	p->task.unit_bytes = (double)p->t->nbytes / (double)p->t->nelem;
	task_start(&p->task, p->app, "computing", 0, stats_job, p);
}

static int
job_state(struct preview *p)
{
	return (int)task_state(&p->task);
}

/* ------------------------------------------------------- value search */

#define FIND_CHUNK	65536	/* elements decoded at a time */

/* x equals the value looked for (both NaN counts as equal). */
/* x is want, or within tol of it (tol 0: exactly). */
static int
find_match(double want, double tol, double x)
{
	if (isnan(want))
		return isnan(x);
	if (tol > 0)
		return fabs(x - want) <= tol;
	return !(x < want) && !(x > want);
}

/*
 * How near a value must be to the number typed in s to be it: half a
 * unit of its last significant digit ("-0.04486", as the short format
 * shows it, finds -0.0448601 and -0.0448649), or 0 for an exact match
 * (nine digits or more, as the %.9g format shows every float; zero;
 * nan and inf).
 */
static double
find_tolerance(const char *s, double v)
{
	const char	*p = s;
	int		 digits = 0, lead = 1, e10;

	if (!isfinite(v) || !(fabs(v) > 0))
		return 0;
	if (*p == '-' || *p == '+')
		p++;
	for (; *p != '\0' && *p != 'e' && *p != 'E'; p++) {
		if (*p < '0' || *p > '9')
			continue;
		if (*p == '0' && lead)
			continue;
		lead = 0;
		digits++;
	}
	if (digits == 0 || digits >= 9)
		return 0;
	e10 = (int)floor(gguf_log10(fabs(v)));
	return 0.5 * gguf_pow(10, e10 - digits + 1);
}

static int
find_job(struct task *t, void *arg)
{
	struct preview	*p = arg;
	uint64_t	 n = p->t->nelem, ne0 = p->ne[0], e = p->fstart, m, k;
	double		*buf = xreallocarray(NULL, FIND_CHUNK, sizeof *buf);
	int64_t		*ibuf = NULL;
	double		 want = p->fval, tol = p->ftol;
	struct gguf_err	 err;
	int		 rc = TASK_OK;

	/* What the grid shows in full: float32 for the float32 types. */
	if (!p->integral && p->t->type != GGUF_T_F64 && isfinite(want) &&
	    !(tol > 0))
		want = (double)(float)want;
	if (p->integral)
		ibuf = xreallocarray(NULL, FIND_CHUNK, sizeof *ibuf);
	memset(&err, 0, sizeof err);
	while (e < n) {
		if (task_progress(t, e - p->fstart, n - p->fstart) != 0) {
			rc = TASK_STOPPED;
			break;
		}
		/* A piece of one row. */
		m = ne0 - e % ne0;
		if (m > FIND_CHUNK)
			m = FIND_CHUNK;
		if (p->integral) {
			if (gguf_dequant_rows_i64(p->f, p->t, e / ne0, 1,
			    e % ne0, m, ibuf, &err) != 0)
				rc = TASK_ERROR;
			for (k = 0; rc == TASK_OK && k < m; k++)
				buf[k] = (double)ibuf[k];
		} else if (gguf_dequant_rows_f64(p->f, p->t, e / ne0, 1,
		    e % ne0, m, buf, &err) != 0)
			rc = TASK_ERROR;
		if (rc != TASK_OK) {
			gguf_err_text(&err, t->err, sizeof t->err);
			break;
		}
		for (k = 0; k < m; k++) {
			if (find_match(want, tol, buf[k])) {
				p->found = e + k;
				p->fgot = buf[k];
				break;
			}
		}
		if (p->found != UINT64_MAX)
			break;
		e += m;
	}
	free(buf);
	free(ibuf);
	return rc;
}

/* The cursor on element e (of the whole tensor), its slice shown. */
static void
goto_elem(struct preview *p, uint64_t e)
{
	uint64_t	row;

	if (p->wrapped) {
		p->cur_r = p->per_row > 0 ? e / p->per_row : 0;
		p->cur_c = p->per_row > 0 ? e % p->per_row : 0;
		return;
	}
	row = e / p->ne[0];
	p->cur_c = e % p->ne[0];
	p->cur_r = row % p->ne[1];
	p->i2 = row / p->ne[1] % p->ne[2];
	p->i3 = row / (p->ne[1] * p->ne[2]);
}

static int	cell_index(struct preview *, uint64_t, uint64_t, uint64_t *,
		    uint64_t *);

/* Looks for p->fval after the cursor. */
static int
find_start(struct preview *p)
{
	uint64_t	i0, row, e;
	struct gguf_err	err;

	if (task_state(&p->ftask) == TASK_RUNNING) {
		app_msg(p->app, 0, "a search is running (Esc stops it)");
		return R_NONE;
	}
	if (cell_index(p, p->cur_r, p->cur_c, &i0, &row) != 0) {
		app_msg(p->app, 0, "no elements to search");
		return R_DRAW;
	}
	e = row * p->ne[0] + i0;
	if (e + 1 >= p->t->nelem) {
		app_msg(p->app, 0, "%s: the cursor is on the last element: "
		    "nothing after it", p->fstr);
		return R_DRAW;
	}
	memset(&err, 0, sizeof err);
	if (gguf_tensor_read(p->f, p->t, 0, NULL, 0, &err) != 0) {
		app_msg(p->app, 1, "%s", err.msg);
		return R_DRAW;
	}
	p->fstart = e + 1;
	p->found = UINT64_MAX;
	p->fpending = 1;
	snprintf(p->fwhat, sizeof p->fwhat, "looking for %s", p->fstr);
	p->ftask.unit_bytes = (double)p->t->nbytes / (double)p->t->nelem;
	task_start(&p->ftask, p->app, p->fwhat, 0, find_job, p);
	return R_DRAW;
}

static int
find_answer(struct app *a, void *arg, const char *line)
{
	struct preview	*p = arg;
	char		*end, bad[sizeof p->fstr];
	double		 v;

	(void)a;
	if (line == NULL)
		return R_DRAW;
	while (*line == ' ')
		line++;
	v = strtod(line, &end);
	while (end != line && *end == ' ')
		end++;
	if (*line == '\0' || end == line || *end != '\0') {
		/* the last good value stays, for n */
		text_escape(bad, sizeof bad, line, strlen(line), 40);
		app_msg(p->app, 1, "%s: not a number (a value such as 0.5, "
		    "-3e-2, nan, inf)%s%s", bad, p->fstr[0] != '\0' ?
		    "; n still looks for " : "", p->fstr);
		return R_DRAW;
	}
	p->fval = v;
	p->ftol = p->integral ? 0 : find_tolerance(line, v);
	text_escape(p->fstr, sizeof p->fstr, line, strlen(line), 40);
	return find_start(p);
}

/* The search's end, taken in once it is joined. */
static void
find_done(struct preview *p)
{
	uint64_t	i0, row, r1, r2, r3;

	p->fpending = 0;
	switch (task_state(&p->ftask)) {
	case TASK_DONE:
		if (p->found == UINT64_MAX) {
			app_msg(p->app, 0, "%s: not found after the cursor (to "
			    "the end of the tensor)", p->fstr);
			break;
		}
		goto_elem(p, p->found);
		i0 = p->found % p->ne[0];
		row = p->found / p->ne[0];
		r1 = row % p->ne[1];
		r2 = row / p->ne[1] % p->ne[2];
		r3 = row / (p->ne[1] * p->ne[2]);
		if (p->ftol > 0 && (p->fgot < p->fval || p->fgot > p->fval))
			app_msg(p->app, 0, "%s found at [%llu,%llu,%llu,%llu]: "
			    "%.9g, which is %s to the digits typed (within "
			    "%g; more digits narrow it; n: the next one)",
			    p->fstr, (unsigned long long)i0,
			    (unsigned long long)r1, (unsigned long long)r2,
			    (unsigned long long)r3, p->fgot, p->fstr,
			    p->ftol);
		else
			app_msg(p->app, 0, "%s found at [%llu,%llu,%llu,%llu] "
			    "(n: the next one)", p->fstr, (unsigned long long)i0,
			    (unsigned long long)r1, (unsigned long long)r2,
			    (unsigned long long)r3);
		break;
	case TASK_FAILED:
		app_msg(p->app, 1, "cannot search: %s", p->ftask.err);
		break;
	default:
		app_msg(p->app, 0, "search for %s cancelled", p->fstr);
		break;
	}
}

/* ----------------------------------------------------------- geometry */

static uint64_t
grid_rows(struct preview *p)
{
	if (p->wrapped)
		return p->per_row == 0 ? 0 :
		    (p->ne[0] + p->per_row - 1) / p->per_row;
	return p->ne[1];
}

static uint64_t
grid_cols(struct preview *p)
{
	return p->wrapped ? p->per_row : p->ne[0];
}

/* Element coordinates of grid cell (r, c); -1 if there is none. */
static int
cell_index(struct preview *p, uint64_t r, uint64_t c, uint64_t *i0,
    uint64_t *row)
{
	if (p->wrapped) {
		*i0 = r * p->per_row + c;
		*row = 0;
		return *i0 < p->ne[0] ? 0 : -1;
	}
	if (r >= p->ne[1] || c >= p->ne[0])
		return -1;
	*i0 = c;
	*row = r + p->ne[1] * (p->i2 + p->ne[2] * p->i3);
	return 0;
}

/*
 * The full form is `ggufed cat`'s: %.9g for the float32 of every type
 * that decodes through float32, %.17g for F64, integers for the integer
 * types. Hex shows the bits of that same number.
 */
static void
format_value(const struct preview *p, double v, int64_t iv, char *buf,
    size_t len)
{
	int				 integral = p->integral;
	uint64_t			 b64;
	uint32_t			 b32;
	float				 f = (float)v;

	switch (p->fmt) {
	case FMT_SHORT:
		if (integral)
			snprintf(buf, len, "%lld", (long long)iv);
		else
			snprintf(buf, len, "%.4g", v);
		break;
	case FMT_FULL:
		if (integral)
			snprintf(buf, len, "%lld", (long long)iv);
		else if (p->t->type == GGUF_T_F64)
			snprintf(buf, len, "%.17g", v);
		else
			snprintf(buf, len, "%.9g", (double)f);
		break;
	default:
		if (integral)
			snprintf(buf, len, "0x%llx", (unsigned long long)iv &
			    (p->t->type == GGUF_T_I8 ? 0xffULL : p->t->type ==
			    GGUF_T_I16 ? 0xffffULL : p->t->type == GGUF_T_I32 ?
			    0xffffffffULL : ~0ULL));
		else if (p->t->type == GGUF_T_F64) {
			memcpy(&b64, &v, sizeof b64);
			snprintf(buf, len, "%016llx", (unsigned long long)b64);
		} else {
			memcpy(&b32, &f, sizeof b32);
			snprintf(buf, len, "0x%08x", b32);
		}
	}
}

static int
heat_slot(double v, double scale)
{
	double	x;
	int	k;

	if (isnan(v) || scale <= 0)
		return S_HEAT0 + S_NHEAT / 2;
	x = v / scale;
	if (x > 1)
		x = 1;
	if (x < -1)
		x = -1;
	/* nearest, halves up: the value is not negative */
	k = (int)((x + 1) / 2 * (S_NHEAT - 1) + 0.5);
	return S_HEAT0 + k;
}

/* -------------------------------------------------------------- drawing */

/* The tensor's name as the edits have it (the file's if none renamed it). */
static struct gguf_str
cur_name(const struct preview *p)
{
	struct gguf_str	name;
	unsigned	flags;

	name = mdl_tensor_name(p->app, p->index, &flags);
	return name.n > 0 ? name : p->t->name;
}

static void
draw_info(struct preview *p, int y, int w)
{
	struct dline	*dl = &p->dl;
	struct gguf_str	 name;
	char		 tb[40];
	uint32_t	 d;

	dl_reset(dl);
	dl_puts(dl, S_NORMAL, " ");
	name = cur_name(p);
	dl_text(dl, S_KEY, name.p, (size_t)name.n, 0, w / 2, DT_MIDDLE);
	dl_printf(dl, S_TYPE, "  %s", gguf_ttype_name(p->t->type, tb));
	dl_puts(dl, S_NUMBER, "  ");
	for (d = 0; d < GGUF_MAX_DIMS && (d == 0 || d < p->t->n_dims); d++)
		dl_printf(dl, S_NUMBER, "%s%llu", d ? (tui_utf8 ? "\xc3\x97" :
		    "x") : "", (unsigned long long)p->ne[d]);
	if (p->ne[2] > 1 || p->ne[3] > 1)
		dl_printf(dl, S_NORMAL, "  slice [:, :, %llu, %llu]",
		    (unsigned long long)p->i2, (unsigned long long)p->i3);
	snprintf(tb, sizeof tb, "  %s%s%s", fmt_names[p->fmt],
	    p->heat ? ", heat" : "", p->wrapped ? ", wrapped" : "");
	if (dl->cols + (int)strlen(tb) <= w)
		dl_puts(dl, S_DIM, tb);
	draw_dline(y, dl, w, S_NORMAL, 0);
}

static void
draw_grid(struct preview *p, int y, int h, int w)
{
	struct dline	*dl = &p->dl;
	uint64_t	 nr, nc, r, c, i0, row, nrows_fetch, k;
	struct gguf_err	 err;
	double		 scale = 0;
	int		 cw = fmt_width[p->fmt], gut, ncols, nrows, i, j, s;
	char		 buf[40];

	if (p->fmt != FMT_SHORT && p->t->type == GGUF_T_F64)
		cw = FULL64_W;
	if (p->integral)
		cw = p->t->type == GGUF_T_I64 ? 22 : p->t->type == GGUF_T_I32 ?
		    13 : 8;
	/* Gutter: the widest row label. */
	if (p->wrapped)
		k = p->ne[0];
	else
		k = p->ne[1];
	for (gut = 4; k >= 10000; k /= 10)
		gut++;
	gut++;
	ncols = (w - gut) / cw;
	if (ncols < 1)
		ncols = 1;
	if (p->wrapped && p->per_row != (uint64_t)ncols) {
		/* Keep the cursor on the same element across a re-wrap. */
		uint64_t	e = p->cur_r * p->per_row + p->cur_c;

		p->per_row = (uint64_t)ncols;
		p->cur_r = e / p->per_row;
		p->cur_c = e % p->per_row;
		p->top_r = p->cur_r;
	}
	nr = grid_rows(p);
	nc = grid_cols(p);
	nrows = h - 1;
	if (nrows < 1)
		return;
	/* Keep the cursor in view. */
	if (p->cur_r >= nr)
		p->cur_r = nr > 0 ? nr - 1 : 0;
	if (p->cur_c >= nc)
		p->cur_c = nc > 0 ? nc - 1 : 0;
	if (p->cur_r < p->top_r)
		p->top_r = p->cur_r;
	if (p->cur_r >= p->top_r + (uint64_t)nrows)
		p->top_r = p->cur_r - (uint64_t)nrows + 1;
	if (p->cur_c < p->left_c)
		p->left_c = p->cur_c;
	if (p->cur_c >= p->left_c + (uint64_t)ncols)
		p->left_c = p->cur_c - (uint64_t)ncols + 1;
	if (p->wrapped)
		p->left_c = 0;

	/* Column header. */
	dl_reset(dl);
	dl_pad(dl, S_HEADER, gut);
	for (j = 0; j < ncols && p->left_c + (uint64_t)j < nc; j++) {
		snprintf(buf, sizeof buf, "%llu", (unsigned long long)
		    (p->wrapped ? (uint64_t)j : p->left_c + (uint64_t)j));
		dl_rjust(dl, S_HEADER, buf, cw);
	}
	dl_pad(dl, S_HEADER, w);
	draw_dline(y, dl, w, S_HEADER, 0);
	y++;

	/* Decode the window: whole screen rows at once. */
	nrows_fetch = nr > p->top_r ? nr - p->top_r : 0;
	if (nrows_fetch > (uint64_t)nrows)
		nrows_fetch = (uint64_t)nrows;
	if ((size_t)nrows * (size_t)ncols > p->buf_n) {
		p->buf_n = (size_t)nrows * (size_t)ncols;
		p->buf = xreallocarray(p->buf, p->buf_n, sizeof *p->buf);
		p->ibuf = xreallocarray(p->ibuf, p->buf_n, sizeof *p->ibuf);
	}
	p->err[0] = '\0';
	for (i = 0; i < (int)nrows_fetch && p->err[0] == '\0'; i++) {
		uint64_t	n;

		r = p->top_r + (uint64_t)i;
		if (cell_index(p, r, p->left_c, &i0, &row) != 0)
			break;
		n = nc - p->left_c < (uint64_t)ncols ? nc - p->left_c :
		    (uint64_t)ncols;
		if (p->wrapped && i0 + n > p->ne[0])
			n = p->ne[0] - i0;
		memset(&err, 0, sizeof err);
		if (p->integral) {
			size_t	o = (size_t)i * (size_t)ncols, q;

			if (gguf_dequant_rows_i64(p->f, p->t, row, 1, i0, n,
			    p->ibuf + o, &err) != 0)
				gguf_err_text(&err, p->err, sizeof p->err);
			for (q = 0; q < n; q++)
				p->buf[o + q] = (double)p->ibuf[o + q];
		} else if (gguf_dequant_rows_f64(p->f, p->t, row, 1, i0, n,
		    p->buf + (size_t)i * (size_t)ncols, &err) != 0)
			gguf_err_text(&err, p->err, sizeof p->err);
	}
	if (p->err[0] != '\0') {
		dl_reset(dl);
		dl_puts(dl, S_ERROR, " cannot decode: ");
		dl_text(dl, S_ERROR, p->err, strlen(p->err), 0, w - dl->cols,
		    DT_KEEPBS);
		draw_dline(y, dl, w, S_NORMAL, 0);
		for (i = 1; i < nrows; i++) {
			dl_reset(dl);
			draw_dline(y + i, dl, w, S_NORMAL, 0);
		}
		return;
	}
	if (p->heat) {
		if (job_state(p) == TASK_DONE && p->st.nfinite > 0)
			scale = fabs(p->st.min) > fabs(p->st.max) ?
			    fabs(p->st.min) : fabs(p->st.max);
		else {
			for (k = 0; k < nrows_fetch * (uint64_t)ncols; k++) {
				if (isfinite(p->buf[k]) &&
				    fabs(p->buf[k]) > scale)
					scale = fabs(p->buf[k]);
			}
		}
	}
	for (i = 0; i < nrows; i++) {
		r = p->top_r + (uint64_t)i;
		dl_reset(dl);
		if (r >= nr) {
			draw_dline(y + i, dl, w, S_NORMAL, 0);
			continue;
		}
		snprintf(buf, sizeof buf, "%*llu ", gut - 1,
		    (unsigned long long)(p->wrapped ? r * p->per_row : r));
		dl_puts(dl, S_DIM, buf);
		for (j = 0; j < ncols; j++) {
			c = p->left_c + (uint64_t)j;
			if (cell_index(p, r, c, &i0, &row) != 0 || c >= nc)
				break;
			format_value(p, p->buf[(size_t)i * (size_t)ncols +
			    (size_t)j], p->ibuf[(size_t)i * (size_t)ncols +
			    (size_t)j], buf, sizeof buf);
			s = p->heat ? heat_slot(p->buf[(size_t)i *
			    (size_t)ncols + (size_t)j], scale) : S_NUMBER;
			if (r == p->cur_r && c == p->cur_c && p->heat) {
				/*
				 * Every colour is a value here: the cursor
				 * gets a slot of its own and a marker, which
				 * show in 8 colours and in none.
				 */
				dl_puts(dl, S_CURSOR, tui_utf8 ?
				    "\xe2\x96\xb8" : ">");
				dl_rjust(dl, S_CURSOR, buf, cw - 1);
				continue;
			}
			if (r == p->cur_r && c == p->cur_c)
				s = S_SELECT;
			dl_pad(dl, S_NORMAL, dl->cols + 1);
			dl_rjust(dl, s, buf, cw - 1);
		}
		draw_dline(y + i, dl, w, S_NORMAL, 0);
	}
}

/* Eighths of a cell, bottom up. */
static const char *const eighths[9] = {
	" ", "\xe2\x96\x81", "\xe2\x96\x82", "\xe2\x96\x83", "\xe2\x96\x84",
	"\xe2\x96\x85", "\xe2\x96\x86", "\xe2\x96\x87", "\xe2\x96\x88"
};
static const char *const ascii_eighths[9] = {
	" ", ".", ".", "_", "_", "o", "o", "#", "#"
};

static void
draw_stats(struct preview *p, int y, int h, int w)
{
	struct dline		*dl = &p->dl;
	struct gguf_stats	*st = &p->st;
	uint64_t		 maxc = 0;
	int			 state = job_state(p), i, j, hh, b;
	char			 a[32], z[32], c[4][32];

	dl_reset(dl);
	dl_puts(dl, S_HEADER, " Statistics");
	if (state == TASK_DONE && st->nfinite > 0)
		dl_puts(dl, S_HEADER, p->logscale ?
		    "  (histogram: log scale, L linear)" :
		    "  (histogram: linear, L log scale)");
	dl_pad(dl, S_HEADER, w);
	draw_dline(y, dl, w, S_HEADER, 0);
	y++;
	h--;
	dl_reset(dl);
	dl_puts(dl, S_NORMAL, " ");
	switch (state) {
	case TASK_NONE:
		dl_puts(dl, S_DIM, p->t->nelem == 0 ? "no elements" :
		    "press s to compute");
		break;
	case TASK_RUNNING:
		task_draw_progress(&p->task, dl, w - 1);
		break;
	case TASK_CANCELLED:
		dl_puts(dl, S_WARN, "cancelled (s computes again)");
		break;
	case TASK_FAILED:
		dl_text(dl, S_ERROR, p->task.err, strlen(p->task.err), 0,
		    w - 2, DT_KEEPBS);
		break;
	case TASK_DONE:
		dl_printf(dl, S_NORMAL, "min %.6g  max %.6g  mean %.6g  "
		    "std %.6g", st->min, st->max, st->mean, st->std);
		draw_dline(y, dl, w, S_NORMAL, 0);
		y++;
		h--;
		if (h <= 0)
			return;
		dl_reset(dl);
		dl_printf(dl, S_NORMAL, " %s values, %s finite, %s zero, "
		    "%s NaN, %s +Inf, %s -Inf",
		    gguf_fmt_group(st->count, a, sizeof a),
		    gguf_fmt_group(st->nfinite, z, sizeof z),
		    gguf_fmt_group(st->nzero, c[0], sizeof c[0]),
		    gguf_fmt_group(st->nnan, c[1], sizeof c[1]),
		    gguf_fmt_group(st->npinf, c[2], sizeof c[2]),
		    gguf_fmt_group(st->nninf, c[3], sizeof c[3]));
		break;
	}
	draw_dline(y, dl, w, S_NORMAL, 0);
	y++;
	h--;
	/* The percentiles, when the histogram keeps three rows. */
	if (state == TASK_DONE && h >= 5 && st->nfinite > 0) {
		dl_reset(dl);
		for (i = 0; i < GGUF_STATS_NPCT; i++)
			dl_printf(dl, S_NORMAL, " %sp%g %.4g", i > 0 ? " " : "",
			    gguf_stats_pct[i], st->pct[i]);
		draw_dline(y, dl, w, S_NORMAL, 0);
		y++;
		h--;
	}
	if (state != TASK_DONE || h < 3 || st->nfinite == 0) {
		for (i = 0; i < h; i++) {
			dl_reset(dl);
			draw_dline(y + i, dl, w, S_NORMAL, 0);
		}
		return;
	}
	/*
	 * The histogram: GGUF_STATS_BINS columns, h - 1 rows of eighths;
	 * heights in proportion to the counts, or to log(1 + count).
	 */
	hh = h - 1;
	for (b = 0; b < GGUF_STATS_BINS; b++)
		if (st->hist[b] > maxc)
			maxc = st->hist[b];
	for (i = 0; i < hh; i++) {
		dl_reset(dl);
		dl_puts(dl, S_NORMAL, " ");
		for (b = 0; b < GGUF_STATS_BINS && dl->cols < w; b++) {
			/* Height in eighths, at least one for a non-empty bin. */
			double	f = maxc == 0 ? 0 : p->logscale ?
				    gguf_log1p((double)st->hist[b]) /
				    gguf_log1p((double)maxc) :
				    (double)st->hist[b] / (double)maxc;
			int	e = (int)(f * hh * 8 + 0.5);
			int	lvl;

			if (e == 0 && st->hist[b] > 0)
				e = 1;
			lvl = e - (hh - 1 - i) * 8;
			if (lvl < 0)
				lvl = 0;
			if (lvl > 8)
				lvl = 8;
			j = lvl;
			dl_puts(dl, S_BAR0, tui_utf8 ? eighths[j] :
			    ascii_eighths[j]);
		}
		draw_dline(y + i, dl, w, S_NORMAL, 0);
	}
	dl_reset(dl);
	snprintf(a, sizeof a, "%.4g", st->min);
	snprintf(z, sizeof z, "%.4g", st->max);
	dl_puts(dl, S_DIM, " ");
	dl_puts(dl, S_DIM, a);
	dl_pad(dl, S_DIM, 1 + GGUF_STATS_BINS - (int)strlen(z));
	dl_puts(dl, S_DIM, z);
	draw_dline(y + hh, dl, w, S_NORMAL, 0);
}

static void
draw(struct view *v, int y, int h, int w)
{
	struct preview	*p = v->priv;
	int		 ph;

	if (p->blocks) {
		list_draw(&p->blist, v->app, y, h, w);
		return;
	}
	if (task_state(&p->ftask) == TASK_RUNNING) {
		dl_reset(&p->dl);
		dl_puts(&p->dl, S_NORMAL, " ");
		task_draw_progress(&p->ftask, &p->dl, w - 1);
		draw_dline(y, &p->dl, w, S_NORMAL, 0);
	} else
		draw_info(p, y, w);
	y++;
	h--;
	/* The statistics panel takes the bottom when there is room. */
	ph = h >= 18 ? 9 : h >= 10 ? 3 : 0;
	draw_grid(p, y, h - ph, w);
	if (ph > 0)
		draw_stats(p, y + h - ph, ph, w);
}

/* ---------------------------------------------------------- block view */

/*
 * s in slot, after dropping what is left of the *skip columns to scroll
 * past (the block view's text is ASCII: one byte a column).
 */
static void
put_skip(struct dline *dl, int slot, const char *s, int *skip)
{
	size_t	n = strlen(s);

	if ((size_t)*skip >= n) {
		*skip -= (int)n;
		return;
	}
	dl_puts(dl, slot, s + *skip);
	*skip = 0;
}

static void
block_row(void *ctx, struct dline *dl, uint64_t id, int w)
{
	struct preview		*p = ctx;
	struct gguf_blockview	 bv;
	struct gguf_err		 err;
	const struct gguf_type_info *ti = gguf_ttype(p->t->type);
	uint64_t		 e0 = id * (ti != NULL ? ti->blck : 1);
	uint32_t		 k, i;
	int			 skip;
	char			 buf[48];

	snprintf(buf, sizeof buf, "%8llu", (unsigned long long)id);
	dl_puts(dl, S_DIM, buf);
	snprintf(buf, sizeof buf, "  r%llu c%llu ", p->ne[0] > 0 ?
	    (unsigned long long)(e0 / p->ne[0]) : 0ULL, p->ne[0] > 0 ?
	    (unsigned long long)(e0 % p->ne[0]) : 0ULL);
	dl_puts(dl, S_DIM, buf);
	dl->hl_from = dl->len;
	memset(&err, 0, sizeof err);
	if (gguf_tensor_block_view(p->f, p->t, id, &bv, &err) != 0) {
		dl_text(dl, S_ERROR, err.msg, strlen(err.msg), 0, w - dl->cols,
		    DT_KEEPBS);
		return;
	}
	/* The fields scroll sideways (h l), the block's place stays. */
	skip = p->blist.hscroll;
	for (k = 0; k < bv.nfield && dl->cols < w; k++) {
		put_skip(dl, S_NORMAL, " ", &skip);
		put_skip(dl, S_KEY, bv.f[k].name, &skip);
		put_skip(dl, S_NORMAL, "=", &skip);
		if (bv.f[k].n != 1)
			put_skip(dl, S_NORMAL, "[", &skip);
		for (i = 0; i < bv.f[k].n && dl->cols < w; i++) {
			double	d = bv.v[bv.f[k].off + i];

			if (bv.f[k].integral)
				snprintf(buf, sizeof buf, "%s%.0f", i ? " " : "",
				    d);
			else
				snprintf(buf, sizeof buf, "%s%.6g", i ? " " : "",
				    d);
			put_skip(dl, S_NUMBER, buf, &skip);
		}
		if (bv.f[k].n != 1)
			put_skip(dl, S_NORMAL, "]", &skip);
	}
	if (skip > 0 && p->blist.hscroll > 0)
		dl_puts(dl, S_DIM, " (scrolled past the end: h goes back)");
}

static const struct list_ops block_list_ops = {
	.row = block_row,
};

/* -------------------------------------------------------------- actions */

/*
 * The next (dir 1) or previous (-1) slice of dimension d (2 or 3), or
 * the message line says why there is none.
 */
static int
step_slice(struct preview *p, int d, int dir)
{
	uint64_t	*i = d == 2 ? &p->i2 : &p->i3, n = p->ne[d];

	if (n <= 1)
		app_msg(p->app, 0, "%s: this tensor has one slice of "
		    "dimension %d: nothing to step through", d == 2 ?
		    (dir > 0 ? "]" : "[") : (dir > 0 ? "}" : "{"), d);
	else if (dir > 0 && *i + 1 >= n)
		app_msg(p->app, 0, "already at the last slice of dimension "
		    "%d (%llu of %llu)", d, (unsigned long long)n,
		    (unsigned long long)n);
	else if (dir < 0 && *i == 0)
		app_msg(p->app, 0, "already at the first slice of dimension "
		    "%d (1 of %llu)", d, (unsigned long long)n);
	else {
		*i = dir > 0 ? *i + 1 : *i - 1;
		app_msg(p->app, 0, "slice %llu of %llu of dimension %d",
		    (unsigned long long)*i + 1, (unsigned long long)n, d);
	}
	return R_DRAW;
}

static int
action(struct view *v, enum tui_action act, const struct tui_input *in)
{
	struct preview	*p = v->priv;
	uint64_t	 nr = grid_rows(p), nc = grid_cols(p), page = 10;
	struct gguf_err	 err;
	const struct gguf_type_info *ti;

	(void)in;
	if (p->blocks && (act == ACT_FORMAT || act == ACT_HEAT ||
	    act == ACT_SLICE_NEXT || act == ACT_SLICE_PREV ||
	    act == ACT_SLICE3_NEXT || act == ACT_SLICE3_PREV)) {
		app_msg(p->app, 0, "the block view shows what the blocks "
		    "store: b goes back to the values");
		return R_NONE;
	}
	if (p->blocks && act != ACT_BLOCKS && act != ACT_CANCEL &&
	    act != ACT_INTERRUPT && act != ACT_BACK && act != ACT_STATS)
		return R_PASS;
	switch (act) {
	case ACT_UP:
		if (p->cur_r > 0)
			p->cur_r--;
		return R_DRAW;
	case ACT_DOWN:
		if (p->cur_r + 1 < nr)
			p->cur_r++;
		return R_DRAW;
	case ACT_LEFT:
		if (p->cur_c > 0)
			p->cur_c--;
		else if (p->wrapped && p->cur_r > 0) {
			p->cur_r--;
			p->cur_c = p->per_row - 1;
		}
		return R_DRAW;
	case ACT_RIGHT:
		if (p->cur_c + 1 < nc && (!p->wrapped ||
		    (p->cur_r * p->per_row + p->cur_c + 1) < p->ne[0]))
			p->cur_c++;
		else if (p->wrapped && p->cur_r + 1 < nr) {
			p->cur_r++;
			p->cur_c = 0;
		}
		return R_DRAW;
	case ACT_PGUP:
	case ACT_HALF_UP:
	case ACT_WHEEL_UP:
		page = act == ACT_WHEEL_UP ? 3 : act == ACT_HALF_UP ? 5 : 10;
		p->cur_r = p->cur_r > page ? p->cur_r - page : 0;
		return R_DRAW;
	case ACT_PGDN:
	case ACT_HALF_DN:
	case ACT_WHEEL_DN:
		page = act == ACT_WHEEL_DN ? 3 : act == ACT_HALF_DN ? 5 : 10;
		p->cur_r = p->cur_r + page < nr ? p->cur_r + page :
		    (nr > 0 ? nr - 1 : 0);
		return R_DRAW;
	case ACT_TOP:
		p->cur_r = 0;
		p->cur_c = 0;
		return R_DRAW;
	case ACT_BOTTOM:
		p->cur_r = nr > 0 ? nr - 1 : 0;
		return R_DRAW;
	case ACT_FORMAT:
		p->fmt = (p->fmt + 1) % FMT_COUNT;
		app_msg(p->app, 0, "values: %s", fmt_names[p->fmt]);
		return R_DRAW;
	case ACT_LOG_SCALE:
		p->logscale = !p->logscale;
		return R_DRAW;
	case ACT_HEAT:
		p->heat = !p->heat;
		return R_DRAW;
	case ACT_SLICE_NEXT:
	case ACT_SLICE_PREV:
		return step_slice(p, 2, act == ACT_SLICE_NEXT ? 1 : -1);
	case ACT_SLICE3_NEXT:
	case ACT_SLICE3_PREV:
		return step_slice(p, 3, act == ACT_SLICE3_NEXT ? 1 : -1);
	case ACT_STATS:
		if (job_state(p) == TASK_RUNNING) {
			app_msg(p->app, 0, "the statistics are being computed "
			    "(Esc stops them)");
			return R_NONE;
		}
		stats_start(p);
		return R_DRAW;
	case ACT_BACK:
		if (!p->blocks)
			return R_PASS;
		p->blocks = 0;
		v->list = NULL;
		v->scopes &= ~(unsigned)SC_LIST;
		return R_DRAW;
	case ACT_FIND_VALUE:
		app_ask(p->app, &(struct ask){ .label = "find value: ",
		    .init = p->fstr[0] != '\0' ? p->fstr : NULL,
		    .hist = H_SEARCH, .fn = find_answer, .arg = p });
		return R_DRAW;
	case ACT_NEXT_MATCH:
		if (p->fstr[0] == '\0') {
			app_msg(p->app, 0, "no value to look for yet: / asks "
			    "for one");
			return R_DRAW;
		}
		return find_start(p);
	case ACT_INTERRUPT:
	case ACT_CANCEL:
		/* The search first: it is the one just asked for. */
		if (task_state(&p->ftask) == TASK_RUNNING) {
			task_stop(&p->ftask, TASK_BY_USER);
			return R_DRAW;
		}
		if (job_state(p) == TASK_RUNNING) {
			task_stop(&p->task, TASK_BY_USER);
			app_msg(p->app, 0, "statistics cancelled");
			return R_DRAW;
		}
		if (act == ACT_INTERRUPT)
			return R_PASS;
		if (p->blocks) {
			p->blocks = 0;
			v->list = NULL;
			v->scopes &= ~(unsigned)SC_LIST;
			return R_DRAW;
		}
		return R_POP;
	case ACT_BLOCKS:
		if (p->blocks) {
			p->blocks = 0;
			v->list = NULL;
			v->scopes &= ~(unsigned)SC_LIST;
			return R_DRAW;
		}
		ti = gguf_ttype(p->t->type);
		if (ti == NULL || !(ti->flags & GGUF_TF_QUANT) || ti->blck == 0) {
			app_msg(p->app, 1, "not block-quantized: no block view");
			return R_DRAW;
		}
		memset(&err, 0, sizeof err);
		if (gguf_tensor_read(p->f, p->t, 0, NULL, 0, &err) != 0) {
			app_msg(p->app, 1, "%s", err.msg);
			return R_DRAW;
		}
		p->nblocks = p->t->nbytes / ti->bytes;	/* blocks may cross rows */
		list_free(&p->blist);
		list_init_flat(&p->blist, &block_list_ops, p, p->nblocks);
		/* Start at the block under the cursor. */
		{
			uint64_t	i0, row;

			if (cell_index(p, p->cur_r, p->cur_c, &i0, &row) == 0)
				list_goto_id(&p->blist,
				    (row * p->ne[0] + i0) / ti->blck);
		}
		p->blocks = 1;
		p->blist.has_hscroll = 1;
		v->list = &p->blist;
		v->scopes |= SC_LIST;
		return R_DRAW;
	case ACT_OPEN:
		app_msg(p->app, 0, "Enter opens nothing in the preview: b "
		    "shows the blocks, s the statistics, q goes back");
		return R_NONE;
	default:
		return R_PASS;
	}
}

static int
tick(struct view *v)
{
	struct preview	*p = v->priv;
	int		 r = task_tick(&p->task) | task_tick(&p->ftask);

	if (p->fpending && !p->ftask.joinable) {
		find_done(p);
		r |= R_DRAW;
	}
	return r;
}

static void
status(struct view *v, char *buf, size_t len)
{
	struct preview	*p = v->priv;
	uint64_t	 i0, row, r1, r2, r3;
	double		 val;
	int64_t		 ival = 0;
	struct gguf_err	 err;
	char		 num[40];
	enum fmt	 fm = p->fmt;

	if (p->blocks) {
		snprintf(buf, len, "block %llu/%llu",
		    (unsigned long long)p->blist.cur + 1,
		    (unsigned long long)p->blist.n_rows);
		return;
	}
	if (cell_index(p, p->cur_r, p->cur_c, &i0, &row) != 0) {
		snprintf(buf, len, "no elements");
		return;
	}
	memset(&err, 0, sizeof err);
	if (gguf_dequant_rows_f64(p->f, p->t, row, 1, i0, 1, &val, &err) != 0)
		snprintf(num, sizeof num, "?");
	else {
		if (p->integral)
			gguf_dequant_rows_i64(p->f, p->t, row, 1, i0, 1, &ival,
			    &err);
		p->fmt = FMT_FULL;
		format_value(p, val, ival, num, sizeof num);
		p->fmt = fm;
	}
	r1 = p->ne[1] > 0 ? row % p->ne[1] : 0;
	r2 = p->ne[1] * p->ne[2] > 0 ? row / p->ne[1] % p->ne[2] : 0;
	r3 = p->ne[1] * p->ne[2] > 0 ? row / (p->ne[1] * p->ne[2]) : 0;
	snprintf(buf, len, "[%llu,%llu,%llu,%llu] = %s",
	    (unsigned long long)i0, (unsigned long long)r1,
	    (unsigned long long)r2, (unsigned long long)r3, num);
}

static void
preview_free(struct view *v)
{
	struct preview	*p = v->priv;

	task_stop(&p->task, TASK_BY_LOOP);
	task_stop(&p->ftask, TASK_BY_LOOP);
	list_free(&p->blist);
	dl_free(&p->dl);
	free(p->buf);
	free(p->ibuf);
	free(p);
}

/* Edits rename or drop tensors; the data shown is the file's until a save. */
static int
keep(struct view *v)
{
	(void)v;
	return 0;
}

static const struct view_ops preview_ops = {
	.name = "preview",
	.draw = draw,
	.action = action,
	.status = status,
	.tick = tick,
	.reload = keep,
	.free = preview_free,
};

struct view *
view_preview_new(struct app *a, uint64_t i)
{
	struct preview	*p = xcalloc(1, sizeof *p);
	struct view	*v;
	struct gguf_err	 err;
	struct gguf_str	 name;
	int		 d;

	p->app = a;
	p->f = app_file(a);
	p->index = i;
	p->t = mdl_tensor(a, i);
	for (d = 0; d < GGUF_MAX_DIMS; d++)
		p->ne[d] = p->t->ne[d];
	p->wrapped = p->ne[1] == 1 && p->ne[2] == 1 && p->ne[3] == 1;
	p->integral = gguf_ttype(p->t->type) != NULL &&
	    (gguf_ttype(p->t->type)->flags & GGUF_TF_INT);
	p->per_row = p->wrapped ? 8 : 0;
	dl_init(&p->dl);
	list_init_flat(&p->blist, &block_list_ops, p, 0);
	memset(&err, 0, sizeof err);
	/*
	 * The statistics read the whole tensor: at once from a local file,
	 * but over the network only when asked (s), or opening a preview
	 * would download the tensor rather than the rows it shows.
	 */
	if (gguf_dequant_check(p->t->type, gguf_layout(p->f)->be, &err) == 0 &&
	    !(p->t->flags & (GGUF_TENSOR_UNSIZED | GGUF_TENSOR_UNREADABLE)) &&
	    (gguf_tensor_file(p->f, p->t) == NULL ||
	    !gguf_file_remote(gguf_tensor_file(p->f, p->t))))
		stats_start(p);
	v = view_new(a, &preview_ops, SC_PREVIEW, p);
	name = cur_name(p);
	name_escape(v->title, sizeof v->title, name.p, (size_t)name.n, 60);
	return v;
}
