/*
 * view_summary.c - the first screen: what this file is.
 *
 * The facts of `ggufed info` (summary.h gathers them for both), laid out
 * for a screen: the file and its layout, the model's identity, its
 * tokenizer and special tokens (each id with the token's text), the
 * tensor-type mix as one bar (bytes per type) with a legend giving bits
 * per weight, the file name split by the GGUF naming convention, and the
 * checks: the reader's findings and the model checks of `ggufed validate`
 * (without the tensor data), each with its level. Between them, the
 * memory llama.cpp needs (mem.h): the weights, and the KV cache at the
 * training context, 4k and 32k; `m` opens the table by context, `o`
 * asks for llama.cpp's -ngl and adds where each byte goes (mem_split.h),
 * `p` for a multimodal projector file whose weights are added (on the GPU,
 * as llama.cpp's --mmproj; its compute buffer is not modelled).
 *
 * The summary is a list of prepared lines, so it scrolls on a small
 * terminal and can be searched like every other view. Lines are built once
 * (their number does not depend on the size of the model: one per tensor
 * type, one per finding); the bar is drawn at the current width. The
 * Summary made for the browser's first screen puts its checks, the file
 * name's and the memory off until that screen is drawn (app_later):
 * "checking..." and "computing..." stand in their place for that moment.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "mem_split.h"
#include "naming.h"
#include "set.h"
#include "summary.h"
#include "token.h"
#include "tui.h"
#include "view_summary.h"

#define LABEL_W		15

enum sl_kind {
	SL_BLANK, SL_HEAD, SL_TEXT, SL_FILE, SL_BAR, SL_TYPE, SL_WARN,
	SL_PART, SL_TOKEN
};

struct sline {
	enum sl_kind	 kind;
	const char	*label;
	char		 text[160];	/* program text */
	struct gguf_str	 fs;		/* file bytes (SL_FILE, SL_PART) */
	int		 slot;
	size_t		 i;		/* SL_TYPE: sum.types[i];
					   SL_WARN: sum.findings[i];
					   SL_TOKEN: the token id */
};

static const char *const section_label[] = {
	[GGUF_SEC_HEADER] = "header",
	[GGUF_SEC_KV] = "KV pairs",
	[GGUF_SEC_TINFO] = "tensor infos",
	[GGUF_SEC_PADDING] = "padding",
	[GGUF_SEC_DATA] = "tensor data",
	[GGUF_SEC_TRAILING] = "trailing",
};

struct summary {
	struct app		*app;
	struct list		 list;
	struct gguf_summary	 sum;
	struct gguf_mem_model	 mem;
	struct gguf_mem_place	 place;		/* the weights' devices */
	int			 split;		/* `o` was answered */
	uint64_t		 ngl;		/* its -ngl */
	uint64_t		 mmproj;	/* `p`: the projector's bytes */
	char			 mmproj_name[120];	/* its file, for show */
	struct sline		*lines;
	size_t			 n, cap;
	char			*name_copy;	/* the path the name parts
						   point into */
	char			 ctx_label[32];	/* "Context 2,048" */
	int			 later;		/* the checks and the name are
						   put off (app_later) */
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
add_section(struct summary *s, const struct gguf_sum_section *sec)
{
	uint64_t	n = sec->to - sec->from;
	char		g[32], z[32];

	add_text(s, section_label[sec->what], S_NORMAL, "0x%010llx  %14s  %s",
	    (unsigned long long)sec->from, gguf_fmt_group(n, g, sizeof g),
	    gguf_fmt_size(n, z, sizeof z));
}

static void
add_str(struct summary *s, const char *label, struct gguf_val *v)
{
	struct sline	*l;
	char		 buf[64];

	if (v == NULL)
		return;
	l = add(s, SL_FILE, label);
	if (gguf_val_str(v, &l->fs) == 0)
		return;
	/* Not a string: show the value as the metadata view would. */
	l->kind = SL_TEXT;
	gguf_val_scalar_text(v, buf, sizeof buf);
	snprintf(l->text, sizeof l->text, "%s (not a string)", buf);
}

/* The vocabulary, if the file has one the Tokenizer section shows. */
static struct gguf_val *
token_list(struct app *a)
{
	struct gguf_val	*tok = mdl_get(a, "tokenizer.ggml.tokens");

	if (tok == NULL || tok->type != GGUF_VT_ARR ||
	    tok->atype != GGUF_VT_STR)
		return NULL;
	return tok;
}

/*
 * The tokenizer: its model, how its tokens are read, their number, and
 * the special tokens (tokenizer.ggml.*_token_id) with their text.
 */
static void
add_tokenizer(struct summary *s)
{
	static const char	 pre[] = "tokenizer.ggml.", suf[] = "_token_id";
	struct app		*a = s->app;
	struct gguf_val		*tok, *mv, *pv;
	struct gguf_str		 m = { NULL, 0 }, p = { NULL, 0 };
	struct gguf_doc_kv	 kv;
	struct sline		*l;
	uint64_t		 i, id;
	size_t			 n, ln, k;
	char			 mb[48], g[32];

	if ((tok = token_list(a)) == NULL)
		return;
	if ((mv = mdl_get(a, "tokenizer.ggml.model")) == NULL ||
	    gguf_val_str(mv, &m) != 0)
		m.p = NULL;
	if ((pv = mdl_get(a, "tokenizer.ggml.pre")) == NULL ||
	    gguf_val_str(pv, &p) != 0)
		p.p = NULL;
	text_escape(mb, sizeof mb, m.p != NULL ? m.p : "?",
	    m.p != NULL ? (size_t)m.n : 1, 24);
	add(s, SL_BLANK, NULL);
	l = add(s, SL_HEAD, "Tokenizer");
	snprintf(l->text, sizeof l->text, "%s (%s), %s tokens", mb,
	    gguf_tok_kind_name(gguf_tok_kind(m.p, (size_t)m.n, p.p,
	    (size_t)p.n)), gguf_fmt_group(tok->count, g, sizeof g));
	for (i = 0; i < mdl_n_kv(a); i++) {
		if (mdl_kv(a, i, &kv) != 0 || (kv.flags & GGUF_ED_REMOVED))
			continue;
		n = (size_t)kv.key.n;
		if (n <= sizeof pre - 1 + sizeof suf - 1 ||
		    memcmp(kv.key.p, pre, sizeof pre - 1) != 0 ||
		    memcmp(kv.key.p + n - (sizeof suf - 1), suf,
		    sizeof suf - 1) != 0 || gguf_val_u64(kv.val, &id) != 0)
			continue;
		l = add(s, SL_TOKEN, NULL);
		ln = n - (sizeof pre - 1) - (sizeof suf - 1);
		if (ln > 12)
			ln = 12;
		/* Program text from here on: keep only safe characters. */
		for (k = 0; k < ln; k++) {
			char	c = kv.key.p[sizeof pre - 1 + k];

			l->text[k] = (c >= 0x21 && c < 0x7f) ? c : '?';
		}
		l->text[ln] = '\0';
		l->i = (size_t)id;
	}
}

/* With -ngl asked (`o`): the GPU's part and the CPU's at context o. */
static void
add_split(struct summary *s, const struct gguf_mem_opts *o,
    const struct gguf_mem_need *n)
{
	struct gguf_mem_split	sp;
	char			a[32], b[32], c[32];

	if (!s->place.placed ||
	    gguf_mem_split(&s->mem, &s->place, o, n, s->ngl, &sp) != 0)
		return;
	add_text(s, "", S_NUMBER, "  GPU %s (cache %s), CPU %s",
	    gguf_fmt_size(sp.gpu_total, a, sizeof a),
	    gguf_fmt_size(sp.gpu_cache, b, sizeof b),
	    gguf_fmt_size(sp.cpu_total, c, sizeof c));
}

/* The -ngl line: what goes to the GPU, or why the split is not known. */
static void
add_split_head(struct summary *s, const struct gguf_mem_opts *o)
{
	struct gguf_mem_need	n;
	struct gguf_mem_split	sp;
	char			what[160];

	if (!s->place.placed) {
		add_text(s, "GPU split", S_WARN, "not modelled: %s",
		    s->place.why);
		return;
	}
	if (gguf_mem_need(&s->mem, o, &n) != 0 ||
	    gguf_mem_split(&s->mem, &s->place, o, &n, s->ngl, &sp) != 0)
		return;
	gguf_mem_split_what(&s->mem, &sp, what, sizeof what);
	add_text(s, "GPU split", S_NORMAL, "-ngl %llu: %s (llama.cpp's rule, "
	    "not proven here; compute buffers not counted)",
	    (unsigned long long)s->ngl, what);
}

/*
 * The memory llama.cpp needs: the weights, then the cache (or recurrent
 * state) at the training context, 4k and 32k, with llama.cpp's defaults;
 * each split between the GPU and the CPU once `o` gave an -ngl.
 */
static void
add_memory(struct summary *s)
{
	static const struct { const char *label; uint64_t ctx; } at[] = {
		{ NULL, 0 }, { "Context 4,096", 4096 },
		{ "Context 32,768", 32768 },
	};
	struct gguf_mem_model	*m = &s->mem;
	struct gguf_mem_opts	 o;
	struct gguf_mem_need	 n;
	struct sline		*l;
	const char		*label;
	size_t			 i;
	char			 a[32], b[32], c[32], d[64];

	gguf_mem_model_make(m, app_doc(s->app));
	/* An adapter, a control vector...: no model to run (kind_text). */
	if (m->n_tensors == 0 || s->sum.kind_text[0] != '\0')
		return;
	add(s, SL_BLANK, NULL);
	l = add(s, SL_HEAD, "Memory");
	snprintf(l->text, sizeof l->text, "%s", m->modelled ? "as llama.cpp "
	    "allocates it (F16 cache, 1 sequence); m: by context" :
	    "m: the weights in full");
	if (m->layers != NULL)
		add_text(s, "Weights", S_NUMBER, "%s: %s in %u layer%s "
		    "(offloadable), %s outside them", gguf_fmt_size(m->weights,
		    a, sizeof a), gguf_fmt_size(m->in_layers, b, sizeof b),
		    m->n_layer, m->n_layer == 1 ? "" : "s",
		    gguf_fmt_size(m->kept, c, sizeof c));
	else
		add_text(s, "Weights", S_NUMBER, "%s", gguf_fmt_size(m->weights,
		    a, sizeof a));
	if (m->split_count > 1)
		add_text(s, "Note", S_WARN, "shard %llu of %llu: the weights "
		    "are this file's only", (unsigned long long)m->split_no + 1,
		    (unsigned long long)m->split_count);
	if (s->mmproj != 0)
		add_text(s, "Projector", S_NUMBER, "%s (--mmproj %s), on the "
		    "GPU; its compute buffer not modelled",
		    gguf_fmt_size(s->mmproj, a, sizeof a), s->mmproj_name);
	if (!m->modelled) {
		add_text(s, "KV cache", S_NORMAL, "not modelled: %s", m->why);
		if (s->split)
			add_text(s, "GPU split", S_WARN, "not modelled: the "
			    "cache is not");
		return;
	}
	gguf_mem_opts_default(&o);
	o.mmproj = s->mmproj;
	o.gpu = s->split;	/* the GPU's compute buffers: not modelled */
	if (s->split) {
		gguf_mem_place_make(&s->place, m, app_doc(s->app));
		o.n_ctx = 4096;
		add_split_head(s, &o);
	}
	for (i = 0; i < sizeof at / sizeof at[0]; i++) {
		if (at[i].ctx == 0 && m->n_ctx_train == 0)
			continue;
		o.n_ctx = at[i].ctx;
		label = at[i].label;
		if (at[i].ctx == 0) {		/* the training context */
			snprintf(s->ctx_label, sizeof s->ctx_label,
			    "Context %s", gguf_fmt_group(m->n_ctx_train, c,
			    sizeof c));
			label = s->ctx_label;
		}
		if (gguf_mem_need(m, &o, &n) != 0) {
			add_text(s, label, S_WARN, "%s", n.refused);
			continue;
		}
		/* total: the cache, the output buffer, the compute buffer
		   (where modelled) and the weights */
		if (n.compute_ok)
			snprintf(d, sizeof d, ", compute %s",
			    gguf_fmt_size(n.compute, c, sizeof c));
		else
			d[0] = '\0';
		add_text(s, label, S_NUMBER, "%s %s%s, total %s with the "
		    "weights%s", n.r + n.s > 0 && n.k + n.v + n.k_swa +
		    n.v_swa == 0 ? "state" : "KV cache",
		    gguf_fmt_size(n.total, a, sizeof a), d,
		    gguf_fmt_size(n.with_weights, b, sizeof b),
		    at[i].ctx == 0 ? " (as trained)" : "");
		if (s->split)
			add_split(s, &o, &n);
	}
}

/*
 * The Memory section of the first screen until that screen is drawn: its
 * head, and "computing..." (llama.cpp's allocation modelled at three
 * contexts costs more than the rest of the summary together).
 */
static void
add_memory_later(struct summary *s)
{
	struct sline	*l;

	if (gguf_doc_n_tensors(app_doc(s->app)) == 0 ||
	    s->sum.kind_text[0] != '\0')
		return;
	add(s, SL_BLANK, NULL);
	l = add(s, SL_HEAD, "Memory");
	snprintf(l->text, sizeof l->text, "computing...");
}

static void	build(struct summary *);

/* The lines made again (the list keeps its place). */
static void
rebuild(struct summary *s)
{
	gguf_summary_free(&s->sum);
	gguf_mem_model_free(&s->mem);
	free(s->name_copy);
	s->name_copy = NULL;
	s->n = 0;
	build(s);
	list_reset(&s->list, NULL, s->n);
}

/*
 * The checks of the first screen, once it is drawn: the model checks
 * (what llama.cpp would say), the file name's convention and the memory.
 */
static void
checks_later(void *arg)
{
	struct summary	*s = arg;

	s->later = 0;
	rebuild(s);
}

/* `o`'s answer: -ngl N, all, or nothing (no split); the lines again. */
static int
gpu_layers_answer(struct app *a, void *arg, const char *line)
{
	struct summary		*s = arg;
	unsigned long long	 v;
	char			*end;

	if (line == NULL)
		return R_DRAW;
	while (*line == ' ')
		line++;
	if (*line == '\0')
		s->split = 0;
	else if (strcmp(line, "all") == 0) {
		s->split = 1;
		s->ngl = GGUF_MEM_NGL_MAX;
	} else {
		errno = 0;
		v = strtoull(line, &end, 10);
		if (!isdigit((unsigned char)*line) || *end != '\0' ||
		    errno != 0 || v > GGUF_MEM_NGL_MAX) {
			app_msg(a, 1, "-ngl: '%s' is not a number of layers "
			    "(0 or more, or all)", line);
			return R_DRAW;
		}
		s->split = 1;
		s->ngl = v;
	}
	rebuild(s);
	return R_DRAW;
}

/* `p`'s answer: a projector file (architecture clip), or nothing. */
static int
projector_answer(struct app *a, void *arg, const char *line)
{
	struct summary		*s = arg;
	struct gguf_doc		*pd;
	struct gguf_mem_model	 pm;
	struct gguf_err		 err;
	size_t			 i;

	if (line == NULL)
		return R_DRAW;
	while (*line == ' ')
		line++;
	if (*line == '\0')
		s->mmproj = 0;
	else {
		memset(&err, 0, sizeof err);
		if ((pd = gguf_doc_open_set(line, GGUF_OPEN_STRICT,
		    &err)) == NULL) {
			app_msg(a, 1, "--mmproj: %s", err.msg);
			return R_DRAW;
		}
		gguf_mem_model_make(&pm, pd);
		if (strcmp(pm.arch, "clip") != 0 || pm.unsized != 0 ||
		    pm.weights == UINT64_MAX) {
			app_msg(a, 1, "--mmproj: %s", strcmp(pm.arch, "clip")
			    != 0 ? "not a projector (general.architecture is "
			    "not clip)" : "the size of its tensors is not "
			    "known");
			gguf_mem_model_free(&pm);
			gguf_doc_free(pd);
			return R_DRAW;
		}
		s->mmproj = pm.weights;
		gguf_mem_model_free(&pm);
		gguf_doc_free(pd);
		/* the name, printable */
		for (i = 0; line[i] != '\0' && i < sizeof s->mmproj_name - 1;
		    i++)
			s->mmproj_name[i] = (unsigned char)line[i] >= 0x20 &&
			    (unsigned char)line[i] < 0x7f ? line[i] : '?';
		s->mmproj_name[i] = '\0';
	}
	rebuild(s);
	return R_DRAW;
}

/* `m`: the table of `ggufed mem`, in a pager; `o`: asks for -ngl; `p`
   for a projector. */
static int
summary_action(struct view *v, enum tui_action act,
    const struct tui_input *in)
{
	struct summary		*s = v->priv;
	struct gguf_mem_opts	 o;
	struct ask		 q;
	uint64_t		 ctx[GGUF_MEM_NDEFAULT];
	size_t			 n_ctx, len = 0;
	char			*buf = NULL;
	FILE			*fp;

	(void)in;
	if (act == ACT_PROJECTOR) {
		memset(&q, 0, sizeof q);
		q.label = "Projector file (--mmproj; empty: none): ";
		q.fn = projector_answer;
		q.arg = s;
		app_ask(s->app, &q);
		return R_DRAW;
	}
	if (act == ACT_GPU_LAYERS) {
		memset(&q, 0, sizeof q);
		q.label = "GPU layers (-ngl N, all; empty: no split): ";
		q.fn = gpu_layers_answer;
		q.arg = s;
		app_ask(s->app, &q);
		return R_DRAW;
	}
	if (act != ACT_MEMORY)
		return R_PASS;
	if ((fp = open_memstream(&buf, &len)) == NULL) {
		app_msg(s->app, 1, "out of memory");
		return R_DRAW;
	}
	gguf_mem_opts_default(&o);
	o.mmproj = s->mmproj;
	o.gpu = s->split;
	n_ctx = gguf_mem_default_contexts(&s->mem, ctx);
	gguf_mem_write(fp, &s->mem, &o, ctx, n_ctx);
	if (s->split && s->mem.modelled)
		gguf_mem_split_write(fp, &s->mem, &s->place, &o, s->ngl, ctx,
		    n_ctx);
	if (fclose(fp) != 0 || buf == NULL) {
		free(buf);
		app_msg(s->app, 1, "out of memory");
		return R_DRAW;
	}
	app_push(s->app, view_pager_own(s->app, "memory", buf, len));
	return R_DRAW;
}

/* A split model: each shard, its size and tensors (or why it is not read). */
static void
add_shards(struct summary *s)
{
	struct gguf_file	*f = app_file(s->app);
	const struct gguf_file	*sh;
	const char		*path, *base;
	size_t			 k, n = gguf_n_shards(f);
	char			 nm[100], z[32], g[32];

	if (n == 0)
		return;
	add(s, SL_BLANK, NULL);
	add(s, SL_HEAD, "Shards");
	for (k = 0; k < n; k++) {
		path = gguf_shard_path(f, k);
		base = strrchr(path, '/') != NULL ? strrchr(path, '/') + 1 :
		    path;
		gguf_pname(base, strlen(base), nm, sizeof nm);
		if ((sh = gguf_shard(f, k)) == NULL)
			add_text(s, "", S_WARN, "%zu  %s  not read (see the "
			    "checks)", k + 1, nm);
		else
			add_text(s, "", S_NORMAL, "%zu  %s  %s, %s tensor%s",
			    k + 1, nm, gguf_fmt_size(gguf_layout(sh)->file_size,
			    z, sizeof z), gguf_fmt_group(
			    gguf_layout(sh)->n_tensors, g, sizeof g),
			    gguf_layout(sh)->n_tensors == 1 ? "" : "s");
	}
}

static void
build(struct summary *s)
{
	struct app			*a = s->app;
	struct gguf_summary		*sum = &s->sum;
	const struct gguf_layout	*lay;
	struct gguf_name		 nm;
	struct gguf_err			 err;
	struct sline			*l;
	size_t				 k;
	int				 p, lvl;
	char				 g[32], z[32], chk[96];

	gguf_summary_make(sum, app_file(a), app_doc(a), s->later ? 0 :
	    GGUF_SUM_CHECKS);
	lay = sum->lay;

	l = add(s, SL_FILE, "File");
	l->fs.p = app_path(a);
	l->fs.n = strlen(app_path(a));
	if (gguf_n_shards(app_file(a)) > 0)
		add_text(s, "Size", S_NUMBER, "%s bytes (%s) in %zu shards",
		    gguf_fmt_group(gguf_set_size(app_file(a)), g, sizeof g),
		    gguf_fmt_size(gguf_set_size(app_file(a)), z, sizeof z),
		    gguf_n_shards(app_file(a)));
	else
		add_text(s, "Size", S_NUMBER, "%s bytes (%s)",
		    gguf_fmt_group(lay->file_size, g, sizeof g),
		    gguf_fmt_size(lay->file_size, z, sizeof z));
	add_text(s, "Format", S_NORMAL, "GGUF v%u, %s-endian, alignment %u",
	    lay->version, lay->be ? "big" : "little", lay->alignment);
	if (sum->kind_text[0] != '\0')
		add_text(s, "Kind", S_NORMAL, "%s", sum->kind_text);
	add_str(s, "Architecture", sum->arch);
	add_str(s, "Name", sum->name);
	if (sum->has_file_type)
		add_text(s, "File type", S_NORMAL, "%s (%llu)",
		    sum->file_type_name, (unsigned long long)sum->file_type);
	gguf_fmt_scaled(sum->params, z, sizeof z);
	add_text(s, "Parameters", S_NUMBER, "%s%s%s%s",
	    gguf_fmt_group(sum->params, g, sizeof g), *z != '\0' ? " (" : "",
	    z, *z != '\0' ? ")" : "");
	add_text(s, "KV pairs", S_NUMBER, "%s",
	    gguf_fmt_group(lay->n_kv, g, sizeof g));
	add_text(s, "Tensors", S_NUMBER, "%s",
	    gguf_fmt_group(lay->n_tensors, g, sizeof g));
	/* The verdict on the first screen; the list is at the end. */
	if (s->later)
		add_text(s, "Checks", S_DIM, "checking...");
	else if (sum->count[GGUF_W_ERROR] + sum->count[GGUF_W_WARN] +
	    sum->count[GGUF_W_NOTE] == 0)
		add_text(s, "Checks", S_OK, "no problems found");
	else
		add_text(s, "Checks", sum->count[GGUF_W_ERROR] > 0 ? S_ERROR :
		    sum->count[GGUF_W_WARN] > 0 ? S_WARN : S_NORMAL,
		    "%s (listed at the end: G)", gguf_wlevel_counts(sum->count,
		    "", chk, sizeof chk));

	add_shards(s);
	add(s, SL_BLANK, NULL);
	add(s, SL_HEAD, gguf_n_shards(app_file(a)) > 0 ? "Sections of shard 1" :
	    "Sections");
	for (k = 0; k < sum->n_sections; k++)
		add_section(s, &sum->sections[k]);

	/*
	 * The hyper-parameters one looks for first, after the sections
	 * (which stay on the first screen: they say the file is whole).
	 */
	if (sum->n_hp > 0) {
		add(s, SL_BLANK, NULL);
		add(s, SL_HEAD, "Model");
		for (k = 0; k < sum->n_hp; k++) {
			/* The Tokenizer section below says these. */
			if (token_list(a) != NULL &&
			    (!strcmp(sum->hp[k].id, "vocabulary") ||
			    !strcmp(sum->hp[k].id, "tokenizer")))
				continue;
			add_text(s, sum->hp[k].label, S_NORMAL, "%s",
			    sum->hp[k].text);
		}
	}

	if (lay->n_tensors > 0) {
		add(s, SL_BLANK, NULL);
		l = add(s, SL_HEAD, "Tensor types");
		snprintf(l->text, sizeof l->text, "%s in tensors, %.2f bits "
		    "per weight overall", gguf_fmt_size(sum->tensor_bytes, z,
		    sizeof z), sum->params > 0 ? 8.0 *
		    (double)sum->tensor_bytes / (double)sum->params : 0.0);
		add(s, SL_BAR, NULL);
		for (k = 0; k < sum->n_types; k++)
			add(s, SL_TYPE, NULL)->i = k;
	}

	if (s->later)
		add_memory_later(s);
	else
		add_memory(s);
	add_tokenizer(s);

	add(s, SL_BLANK, NULL);
	l = add(s, SL_HEAD, "File name");
	s->name_copy = xstrdup(app_path(a));
	memset(&err, 0, sizeof err);
	if (s->later)
		snprintf(l->text, sizeof l->text, "checking...");
	else if (gguf_name_parse(s->name_copy, &nm, &err) != 0)
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

	add(s, SL_BLANK, NULL);
	l = add(s, SL_HEAD, "Checks");
	if (s->later)
		snprintf(l->text, sizeof l->text, "checking...");
	else
		gguf_wlevel_counts(sum->count, "none", l->text,
		    sizeof l->text);
	/* Errors first, then warnings, then notes; in order within each. */
	for (lvl = GGUF_W_ERROR; lvl >= GGUF_W_NOTE; lvl--)
		for (k = 0; k < sum->n_findings; k++)
			if (sum->findings[k].level == lvl)
				add(s, SL_WARN, NULL)->i = k;
}

/* The colour of the k-th tensor type present: six, in turn. */
static int
colour(size_t k)
{
	return (int)(k % 6);
}

static const char *
bar_glyph(size_t k)
{
	static const char *const mono[] = { "#", "=", "%", "*", "+", "@" };

	if (tui_color)
		return tui_utf8 ? "\xe2\x96\x88" : "#";
	return mono[colour(k)];
}

static void
row(void *ctx, struct dline *dl, uint64_t id, int w)
{
	struct summary			*s = ctx;
	struct gguf_summary		*sum = &s->sum;
	struct sline			*l = &s->lines[id];
	const struct gguf_sum_type	*t;
	const struct gguf_finding	*fd;
	const char			*base;
	size_t				 k;
	char				 tb[24], g[32], z[32], nm[100];
	int				 cells, used, bw, slot;

	dl_puts(dl, S_NORMAL, " ");
	switch (l->kind) {
	case SL_BLANK:
		return;
	case SL_HEAD:
		dl_puts(dl, S_HEADER, l->label);
		if (l->text[0] != '\0') {
			dl_puts(dl, S_NORMAL, "  ");
			dl_text(dl, S_NORMAL, l->text, strlen(l->text), 0,
			    w - dl->cols, DT_KEEPBS);
		}
		return;
	case SL_TEXT:
	case SL_FILE:
	case SL_PART:
		dl_puts(dl, S_KEY, l->label);
		/* a label as wide as the column still gets a space */
		dl_pad(dl, S_NORMAL, dl->cols < LABEL_W ? LABEL_W :
		    dl->cols + 1);
		if (l->kind == SL_TEXT)
			dl_text(dl, l->slot, l->text, strlen(l->text), 0,
			    w - dl->cols, 0);
		else if (l->kind == SL_PART && l->fs.n == 0)
			dl_puts(dl, S_DIM, "-");
		else
			dl_text(dl, S_STRING, l->fs.p, (size_t)l->fs.n, 0,
			    w - dl->cols, DT_MIDDLE);
		return;
	case SL_BAR:
		bw = w - dl->cols - 1;
		used = 0;
		for (k = 0; k < sum->n_types && bw > 0; k++) {
			t = &sum->types[k];
			cells = sum->tensor_bytes == 0 ? 0 : (int)((double)bw *
			    (double)t->bytes / (double)sum->tensor_bytes + 0.5);
			if (cells == 0 && t->bytes > 0)
				cells = 1;
			if (used + cells > bw)
				cells = bw - used;
			for (; cells > 0; cells--, used++)
				dl_puts(dl, S_BAR0 + colour(k), bar_glyph(k));
		}
		return;
	case SL_TYPE:
		t = &sum->types[l->i];
		dl_puts(dl, S_BAR0 + colour(l->i), bar_glyph(l->i));
		dl_puts(dl, S_BAR0 + colour(l->i), bar_glyph(l->i));
		dl_puts(dl, S_NORMAL, " ");
		dl_puts(dl, S_TYPE, t->type == GGUF_T_COUNT ? "(other)" :
		    gguf_ttype_name(t->type, tb));
		dl_pad(dl, S_NORMAL, LABEL_W);
		dl_printf(dl, S_NUMBER, "%5s", gguf_fmt_group(t->count, g,
		    sizeof g));
		dl_puts(dl, S_DIM, t->count == 1 ? " tensor " : " tensors");
		dl_rjust(dl, S_NUMBER, gguf_fmt_size(t->bytes, z, sizeof z), 11);
		dl_printf(dl, S_NUMBER, " %5.1f%%", sum->tensor_bytes == 0 ?
		    0.0 : 100.0 * (double)t->bytes / (double)sum->tensor_bytes);
		if (t->elems > 0 && t->bytes > 0)
			dl_printf(dl, S_NUMBER, "  %6.2f", 8.0 * (double)t->bytes /
			    (double)t->elems);
		else
			dl_puts(dl, S_DIM, "       -");
		dl_puts(dl, S_DIM, " bpw");
		if (w >= 100) {
			dl_puts(dl, S_DIM, "  ");
			dl_puts(dl, S_NUMBER, gguf_fmt_group(t->elems, g,
			    sizeof g));
			dl_puts(dl, S_DIM, " weights");
		}
		return;
	case SL_TOKEN:
		dl_puts(dl, S_KEY, "  ");
		dl_puts(dl, S_KEY, l->text);
		dl_pad(dl, S_NORMAL, LABEL_W);
		dl_printf(dl, S_NUMBER, "%llu", (unsigned long long)l->i);
		if (w - dl->cols > 3) {
			dl_puts(dl, S_NORMAL, "  ");
			tokens_id_text(s->app, dl, l->i, w - dl->cols);
		}
		return;
	case SL_WARN:
		fd = &sum->findings[l->i];
		dl_pad(dl, S_NORMAL, 2);
		dl_printf(dl, fd->level == GGUF_W_ERROR ? S_ERROR : fd->level ==
		    GGUF_W_WARN ? S_WARN : S_DIM, "%s",
		    gguf_wlevel_name(fd->level));
		dl_pad(dl, S_NORMAL, 11);
		slot = fd->level == GGUF_W_NOTE ? S_NORMAL : S_WARN;
		if (fd->off >= 0 && fd->file != NULL) {	/* a later shard's */
			base = strrchr(fd->file, '/') != NULL ?
			    strrchr(fd->file, '/') + 1 : fd->file;
			dl_printf(dl, slot, "offset 0x%llx of %s: ",
			    (unsigned long long)fd->off,
			    gguf_pname(base, strlen(base), nm, sizeof nm));
		} else if (fd->off >= 0)
			dl_printf(dl, slot, "offset 0x%llx: ",
			    (unsigned long long)fd->off);
		/* a core message is escaped already: never again */
		dl_text(dl, slot, fd->msg, strlen(fd->msg), 0, w - dl->cols,
		    DT_KEEPBS);
		return;
	}
}

static void
summary_free(struct view *v)
{
	struct summary	*s = v->priv;

	app_later_drop(s->app, s);
	list_free(&s->list);
	gguf_summary_free(&s->sum);
	gguf_mem_model_free(&s->mem);
	free(s->lines);
	free(s->name_copy);
	free(s);
}

static const struct list_ops summary_list_ops = {
	.row = row,
};

static const struct view_ops summary_ops = {
	.name = "summary",
	.action = summary_action,
	.free = summary_free,
};

struct view *
view_summary_new(struct app *a)
{
	struct summary	*s = xcalloc(1, sizeof *s);
	struct view	*v;

	s->app = a;
	/* Made for the first screen: its checks wait until it is drawn. */
	s->later = app_later(a, checks_later, s) == 0;
	build(s);
	list_init_flat(&s->list, &summary_list_ops, s, s->n);
	v = view_new(a, &summary_ops, SC_LIST | SC_SUMMARY, s);
	v->list = &s->list;
	snprintf(v->title, sizeof v->title, "file summary");
	return v;
}
