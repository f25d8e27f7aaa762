/*
 * summary.c - the facts of a file for `ggufed info` and the Summary view.
 *
 * Everything here is counted from the layout and the tensor infos, once:
 * its cost is one pass over the tensors and, on request, the model checks
 * (which never decode tensor data).
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "internal.h"
#include "kind.h"
#include "model.h"
#include "summary.h"

static struct gguf_val *
key(struct gguf_file *f, struct gguf_doc *d, const char *k)
{
	if (d != NULL)
		return gguf_doc_get(d, k, strlen(k));
	return gguf_kv_get(f, k);
}

static void
section(struct gguf_summary *s, enum gguf_section what, uint64_t from,
    uint64_t to)
{
	struct gguf_sum_section	*sec = &s->sections[s->n_sections++];

	sec->what = what;
	sec->from = from;
	sec->to = to;
}

static void
add_finding(struct gguf_summary *s, int level, const char *file, int64_t off,
    const char *msg)
{
	struct gguf_finding	*fd;

	if (level < GGUF_W_NOTE || level > GGUF_W_ERROR)
		level = GGUF_W_ERROR;
	s->findings = xreallocarray(s->findings, s->n_findings + 1,
	    sizeof *s->findings);
	fd = &s->findings[s->n_findings++];
	fd->level = level;
	fd->off = off;
	fd->msg = xstrdup(msg);
	fd->file = file != NULL ? xstrdup(file) : NULL;
	s->count[level]++;
}

static void
on_finding(void *arg, int level, const char *file, int64_t off,
    const char *msg)
{
	add_finding(arg, level, file, off, msg);
}

/* The model check's findings: a few of each kind, every one counted. */
struct model_at {
	struct gguf_summary	*s;
	struct gguf_mgroup	 g;
};

static void
on_model_finding(void *arg, const struct gguf_mfinding *mf)
{
	struct model_at	*m = arg;

	if (gguf_mgroup_add(&m->g, mf))
		add_finding(m->s, mf->level, NULL, -1, mf->msg);
	else
		m->s->count[mf->level < GGUF_W_NOTE || mf->level >
		    GGUF_W_ERROR ? GGUF_W_ERROR : mf->level]++;
}

static void
model_more(struct model_at *m)
{
	char	buf[200];
	int	k;

	for (k = 0; k < GGUF_MK_COUNT; k++)
		if (gguf_mgroup_more(&m->g, k, buf, sizeof buf) == 0) {
			add_finding(m->s, GGUF_W_ERROR, NULL, -1, buf);
			m->s->count[GGUF_W_ERROR]--;	/* counted */
		}
}

static void
count_types(struct gguf_summary *s, struct gguf_file *f)
{
	const struct gguf_tensor	*t;
	struct gguf_sum_type		 by[GGUF_T_COUNT + 1];
	uint64_t			 i;
	size_t				 k;

	memset(by, 0, sizeof by);
	for (i = 0; i < s->lay->n_tensors; i++) {
		t = gguf_tensor_at(f, i);
		k = t->type < GGUF_T_COUNT ? t->type : GGUF_T_COUNT;
		by[k].count++;
		by[k].bytes += t->nbytes;
		by[k].elems += t->nelem;
		s->tensor_bytes += t->nbytes;
		s->params += t->nelem;
	}
	s->types = xcalloc(GGUF_T_COUNT + 1, sizeof *s->types);
	for (k = 0; k <= GGUF_T_COUNT; k++) {
		if (by[k].count == 0)
			continue;
		by[k].type = (uint32_t)k;
		s->types[s->n_types++] = by[k];
	}
}

/*
 * One hyper-parameter: machine name, label and text (printf), if there
 * is room.
 */
static void __attribute__((format(printf, 4, 5)))
hparam(struct gguf_summary *s, const char *id, const char *label,
    const char *fmt, ...)
{
	va_list	ap;

	if (s->n_hp == GGUF_SUM_MAXHP)
		return;
	s->hp[s->n_hp].id = id;
	s->hp[s->n_hp].label = label;
	va_start(ap, fmt);
	vsnprintf(s->hp[s->n_hp].text, sizeof s->hp[0].text, fmt, ap);
	va_end(ap);
	s->n_hp++;
}

/* {arch}.suffix, or NULL. */
static struct gguf_val *
arch_key(struct gguf_file *f, struct gguf_doc *d, const struct gguf_str *a,
    const char *suffix)
{
	char	k[160];

	if (a->n == 0 || a->n > 64)
		return NULL;
	snprintf(k, sizeof k, "%.*s.%s", (int)a->n, a->p, suffix);
	return key(f, d, k);
}

/* A number as its text ("4096", "10000", "0.5"); 0 if it is not one. */
static int
num_text(struct gguf_val *v, char *buf, size_t len)
{
	uint64_t	u;
	double		x;

	if (v == NULL)
		return 0;
	if (gguf_val_u64(v, &u) == 0)
		snprintf(buf, len, "%llu", (unsigned long long)u);
	else if (gguf_val_f64(v, &x) == 0)
		snprintf(buf, len, "%.9g", x);
	else
		return 0;
	return 1;
}

/*
 * Head counts: a number, or an array of one per layer (the KV heads of
 * models whose layers differ): "8", or "0..8 per layer".
 */
static int
heads_text(struct gguf_val *v, char *buf, size_t len)
{
	struct gguf_val	e;
	uint64_t	i, u, lo = UINT64_MAX, hi = 0;

	if (v == NULL)
		return 0;
	if (v->type != GGUF_VT_ARR)
		return num_text(v, buf, len);
	for (i = 0; i < v->count; i++) {
		if (gguf_arr_get(v, i, &e, NULL) != 0 ||
		    gguf_val_u64(&e, &u) != 0)
			return 0;
		lo = u < lo ? u : lo;
		hi = u > hi ? u : hi;
	}
	if (v->count == 0)
		return 0;
	if (lo == hi)
		snprintf(buf, len, "%llu", (unsigned long long)lo);
	else
		snprintf(buf, len, "%llu..%llu per layer",
		    (unsigned long long)lo, (unsigned long long)hi);
	return 1;
}

static void
hparams(struct gguf_summary *s, struct gguf_file *f, struct gguf_doc *d)
{
	struct gguf_str	 a = { NULL, 0 }, m;
	struct gguf_val	*v;
	char		 t[40], u[40];

	if (s->arch == NULL || gguf_val_str(s->arch, &a) != 0)
		a.n = 0;
	if (num_text(arch_key(f, d, &a, "context_length"), t, sizeof t))
		hparam(s, "context_length", "Context", "%s", t);
	if (num_text(arch_key(f, d, &a, "embedding_length"), t, sizeof t))
		hparam(s, "embedding_length", "Embedding", "%s", t);
	if (num_text(arch_key(f, d, &a, "block_count"), t, sizeof t))
		hparam(s, "block_count", "Layers", "%s", t);
	if (heads_text(arch_key(f, d, &a, "attention.head_count"), t,
	    sizeof t))
		hparam(s, "head_count", "Heads", "%s", t);
	if (heads_text(arch_key(f, d, &a, "attention.head_count_kv"), t,
	    sizeof t))
		hparam(s, "head_count_kv", "KV heads", "%s", t);
	if (num_text(arch_key(f, d, &a, "expert_count"), t, sizeof t)) {
		if (num_text(arch_key(f, d, &a, "expert_used_count"), u,
		    sizeof u))
			hparam(s, "experts", "Experts", "%s (%s in use)",
			    t, u);
		else
			hparam(s, "experts", "Experts", "%s", t);
	}
	if (num_text(arch_key(f, d, &a, "rope.freq_base"), t, sizeof t))
		hparam(s, "rope_freq_base", "RoPE base", "%s", t);
	v = arch_key(f, d, &a, "rope.scaling.type");
	if (v != NULL && gguf_val_str(v, &m) == 0 && m.n < 32) {
		if (num_text(arch_key(f, d, &a, "rope.scaling.factor"), u,
		    sizeof u))
			hparam(s, "rope_scaling", "RoPE scaling",
			    "%.*s, factor %s", (int)m.n, m.p, u);
		else
			hparam(s, "rope_scaling", "RoPE scaling", "%.*s",
			    (int)m.n, m.p);
	}
	v = key(f, d, "tokenizer.ggml.tokens");
	if (v != NULL && v->type == GGUF_VT_ARR)
		hparam(s, "vocabulary", "Vocabulary", "%s tokens",
		    gguf_fmt_group(v->count, t, sizeof t));
	else if (num_text(arch_key(f, d, &a, "vocab_size"), t, sizeof t))
		hparam(s, "vocabulary", "Vocabulary", "%s tokens", t);
	v = key(f, d, "tokenizer.ggml.model");
	if (v != NULL && gguf_val_str(v, &m) == 0 && m.n < 32)
		hparam(s, "tokenizer", "Tokenizer", "%.*s", (int)m.n, m.p);
	if (s->n_hp > 0)
		hparam(s, "chat_template", "Chat template", "%s",
		    key(f, d, "tokenizer.chat_template") != NULL ? "yes" : "no");
}

void
gguf_summary_make(struct gguf_summary *s, struct gguf_file *f,
    struct gguf_doc *d, unsigned flags)
{
	const struct gguf_layout	*lay = gguf_layout(f);
	const struct gguf_warning	*w;
	struct gguf_val			*v;
	struct model_at			 ma;
	size_t				 k;

	memset(s, 0, sizeof *s);
	s->lay = lay;
	s->arch = key(f, d, "general.architecture");
	s->name = key(f, d, "general.name");
	v = key(f, d, "general.file_type");
	if (v != NULL && gguf_val_u64(v, &s->file_type) == 0) {
		s->has_file_type = 1;
		s->file_type_name = s->file_type <= UINT32_MAX ?
		    gguf_file_type_name((uint32_t)s->file_type) : NULL;
		if (s->file_type_name == NULL)
			s->file_type_name = "unknown";
	}

	section(s, GGUF_SEC_HEADER, 0, lay->kv_off);
	section(s, GGUF_SEC_KV, lay->kv_off, lay->ti_off);
	section(s, GGUF_SEC_TINFO, lay->ti_off, lay->ti_end);
	if (lay->n_tensors > 0) {
		section(s, GGUF_SEC_PADDING, lay->ti_end,
		    lay->data_off < lay->file_size ? lay->data_off :
		    lay->file_size);
		if (lay->data_off <= lay->file_size)
			section(s, GGUF_SEC_DATA, lay->data_off,
			    lay->file_size);
	} else if (lay->ti_end < lay->file_size)
		section(s, GGUF_SEC_TRAILING, lay->ti_end, lay->file_size);

	count_types(s, f);
	s->kind = (int)gguf_kind_of(f);
	if (gguf_kind_describe(f, s->kind_text, sizeof s->kind_text) == NULL)
		s->kind_text[0] = '\0';
	if (s->kind == GGUF_KIND_MODEL)
		hparams(s, f, d);

	for (k = 0; k < gguf_n_warnings(f); k++) {
		w = gguf_warning_at(f, k);
		add_finding(s, w->level, w->file, w->off == GGUF_NO_OFFSET ?
		    -1 : (int64_t)w->off, w->msg);
	}
	s->n_reader = s->n_findings;
	if (!(flags & GGUF_SUM_CHECKS))
		return;
	(void)gguf_check_model(f, NULL, 0, NULL, on_finding, s);
	(void)gguf_kind_check(f, NULL, on_finding, s);
	/* Whether llama.cpp loads the model as it will be saved. */
	memset(&ma, 0, sizeof ma);
	ma.s = s;
	if (d != NULL)
		gguf_model_check(d, on_model_finding, &ma);
	else
		gguf_model_check_file(f, on_model_finding, &ma);
	model_more(&ma);
}

void
gguf_summary_free(struct gguf_summary *s)
{
	size_t	k;

	for (k = 0; k < s->n_findings; k++) {
		free(s->findings[k].msg);
		free(s->findings[k].file);
	}
	free(s->findings);
	free(s->types);
	memset(s, 0, sizeof *s);
}

const char *
gguf_fmt_scaled(uint64_t v, char *buf, size_t len)
{
	if (v >= 1000000000ULL)
		snprintf(buf, len, "%.2f B", (double)v / 1e9);
	else if (v >= 1000000ULL)
		snprintf(buf, len, "%.2f M", (double)v / 1e6);
	else if (v >= 1000ULL)
		snprintf(buf, len, "%.2f K", (double)v / 1e3);
	else if (len > 0)
		buf[0] = '\0';
	return buf;
}
