/*
 * kind.c - telling the kinds of GGUF file apart, and checking each by the
 * rules of the llama.cpp loader that reads it (kind.h).
 *
 * Every check is one pass over the tensors with hashed lookups by name:
 * its cost is bounded by the tensor count, whatever the names.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "kind.h"
#include "projectors.h"
#include "xmalloc.h"

/* ------------------------------------------------------------------ kinds */

static int
val_is(struct gguf_val *v, const char *s)
{
	struct gguf_str	str;

	return v != NULL && gguf_val_str(v, &str) == 0 &&
	    (size_t)str.n == strlen(s) && memcmp(str.p, s, str.n) == 0;
}

static int ends(const struct gguf_str *, const char *);

enum gguf_kind
gguf_kind_by(gguf_kind_get_fn get, void *arg, const struct gguf_str *first)
{
	struct gguf_val	*type = get(arg, "general.type", 12);
	struct gguf_val	*arch = get(arg, "general.architecture", 20);

	if (val_is(type, "adapter") || (first != NULL &&
	    (ends(first, ".lora_a") || ends(first, ".lora_b"))))
		return GGUF_KIND_ADAPTER;
	if (val_is(type, "imatrix") ||
	    get(arg, "imatrix.chunk_count", 19) != NULL ||
	    get(arg, "imatrix.datasets", 16) != NULL)
		return GGUF_KIND_IMATRIX;
	if (val_is(arch, "controlvector"))
		return GGUF_KIND_CVEC;
	if (val_is(arch, "clip") || val_is(type, "mmproj"))
		return GGUF_KIND_MMPROJ;
	return GGUF_KIND_MODEL;
}

static struct gguf_val *
file_get(void *arg, const char *key, size_t n)
{
	int64_t	i = gguf_kv_find(arg, key, n);

	return i < 0 ? NULL : &gguf_kv_at(arg, (uint64_t)i)->val;
}

enum gguf_kind
gguf_kind_of(struct gguf_file *f)
{
	return gguf_kind_by(file_get, f, gguf_layout(f)->n_tensors > 0 ?
	    &gguf_tensor_at(f, 0)->name : NULL);
}

const char *
gguf_kind_name(enum gguf_kind k)
{
	switch (k) {
	case GGUF_KIND_ADAPTER:	return "adapter";
	case GGUF_KIND_CVEC:	return "control vector";
	case GGUF_KIND_IMATRIX:	return "imatrix";
	case GGUF_KIND_MMPROJ:	return "projector";
	default:		return "model";
	}
}

const char *
gguf_kind_id(enum gguf_kind k)
{
	switch (k) {
	case GGUF_KIND_ADAPTER:	return "lora";
	case GGUF_KIND_CVEC:	return "control_vector";
	case GGUF_KIND_IMATRIX:	return "imatrix";
	case GGUF_KIND_MMPROJ:	return "mmproj";
	default:		return "model";
	}
}

/* ---------------------------------------------------------------- helpers */

struct kc {
	struct gguf_file	*f;
	struct gguf_file	*base;
	gguf_finding_fn		 fn;
	void			*arg;
	unsigned		 errors;
	char			 buf[640];
};

static void say(struct kc *, int, int64_t, const char *, ...)
    __attribute__((format(printf, 4, 5)));

static void
say(struct kc *c, int level, int64_t off, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(c->buf, sizeof c->buf, fmt, ap);
	va_end(ap);
	if (level == GGUF_W_ERROR)
		c->errors++;
	if (c->fn != NULL)
		c->fn(c->arg, level, NULL, off, c->buf);
}

/* A key's entry, or NULL; *off its offset (-1 when absent). */
static struct gguf_kv *
kv_of(struct gguf_file *f, const char *key, int64_t *off)
{
	int64_t	i = gguf_kv_find(f, key, strlen(key));

	*off = -1;
	if (i < 0)
		return NULL;
	*off = (int64_t)gguf_kv_at(f, (uint64_t)i)->off;
	return gguf_kv_at(f, (uint64_t)i);
}

/* A string key's printable text in buf ("" when absent or not a string). */
static const char *
str_text(struct gguf_file *f, const char *key, char *buf, size_t len)
{
	struct gguf_val	*v = gguf_kv_get(f, key);
	struct gguf_str	 s;

	if (v == NULL || gguf_val_str(v, &s) != 0) {
		buf[0] = '\0';
		return buf;
	}
	return gguf_pname(s.p, (size_t)s.n, buf, len);
}

static int
ends(const struct gguf_str *s, const char *suffix)
{
	size_t	n = strlen(suffix);

	return (size_t)s->n >= n && memcmp(s->p + s->n - n, suffix, n) == 0;
}

/* A tensor's printable name. */
static const char *
tname(const struct gguf_tensor *t, char *buf, size_t len)
{
	return gguf_pname(t->name.p, (size_t)t->name.n, buf, len);
}

/* "4096 x 8" */
static const char *
shape(const struct gguf_tensor *t, char *buf, size_t len)
{
	size_t		 k, o = 0;
	uint32_t	 n = t->n_dims == 0 ? 1 : t->n_dims;

	buf[0] = '\0';
	for (k = 0; k < n && k < GGUF_MAX_DIMS && o < len; k++)
		o += (size_t)snprintf(buf + o, len - o, "%s%llu", k ? " x " :
		    "", (unsigned long long)t->ne[k]);
	return buf;
}

/* ---------------------------------------------------------------- adapters */

/*
 * The base name of an adapter tensor as llama.cpp's loader makes it:
 * every occurrence of suffix removed. Into buf (allocated by the caller,
 * at least n + 1 bytes); its length.
 */
static size_t
strip_all(const char *p, size_t n, const char *suffix, char *buf)
{
	size_t	sl = strlen(suffix), i = 0, o = 0;

	while (i < n) {
		if (n - i >= sl && memcmp(p + i, suffix, sl) == 0) {
			i += sl;
			continue;
		}
		buf[o++] = p[i++];
	}
	buf[o] = '\0';
	return o;
}

/* A pair's tensors, found by the base name. */
struct pair {
	const struct gguf_tensor	*a, *b;
};

/*
 * The partner of an adapter tensor t (its .lora_a or .lora_b) named base
 * + other, or NULL.
 */
static const struct gguf_tensor *
partner(struct gguf_file *f, const char *base, size_t bn, const char *other,
    char *tmp)
{
	int64_t	i;

	memcpy(tmp, base, bn);
	memcpy(tmp + bn, other, 8);
	if ((i = gguf_tensor_find(f, tmp, bn + 7)) < 0)
		return NULL;
	return gguf_tensor_at(f, (uint64_t)i);
}

static int
same_arch(struct gguf_file *a, struct gguf_file *b)
{
	struct gguf_val	*va = gguf_kv_get(a, "general.architecture");
	struct gguf_val	*vb = gguf_kv_get(b, "general.architecture");
	struct gguf_str	 sa, sb;

	if (va == NULL || vb == NULL || gguf_val_str(va, &sa) != 0 ||
	    gguf_val_str(vb, &sb) != 0)
		return 0;
	return sa.n == sb.n && sa.n > 0 && memcmp(sa.p, sb.p, sa.n) == 0;
}

/*
 * One pair against the base model's tensor of the same name, as
 * llama_adapter_lora_init does: the lora_a's width is the base's input
 * width, the lora_b's height its output height and the rank between
 * them the same (lora_a is stored transposed); for token_embd.weight the
 * two are flipped (B is [rank, n_embd], A [rank, n_vocab]).
 */
static void
check_pair(struct kc *c, const char *name, const struct pair *p)
{
	const struct gguf_tensor	*m = NULL;
	int64_t				 i;
	size_t				 n = strlen(name);
	char				 pn[160], s1[80], s2[80], s3[80];
	int				 embd;

	embd = n >= 17 && strcmp(name + n - 17, "token_embd.weight") == 0;
	gguf_pname(name, n, pn, sizeof pn);
	if (c->base != NULL) {
		if ((i = gguf_tensor_find(c->base, name, n)) < 0) {
			say(c, GGUF_W_ERROR, (int64_t)p->a->off, "LoRA pair "
			    "%s: the base model has no tensor %s (llama.cpp "
			    "refuses the adapter: a wrong base model?)", pn,
			    pn);
			return;
		}
		m = gguf_tensor_at(c->base, (uint64_t)i);
		if (embd ? m->ne[0] != p->b->ne[1] || m->ne[1] != p->a->ne[1] :
		    m->ne[0] != p->a->ne[0] || m->ne[1] != p->b->ne[1]) {
			say(c, GGUF_W_ERROR, (int64_t)p->a->off, "LoRA pair "
			    "%s: lora_a is %s and lora_b %s, which do not fit "
			    "the base model's %s (llama.cpp refuses the "
			    "adapter: a wrong base model?)", pn,
			    shape(p->a, s1, sizeof s1),
			    shape(p->b, s2, sizeof s2),
			    shape(m, s3, sizeof s3));
			return;
		}
	}
	if (!embd && p->a->ne[1] != p->b->ne[0])
		say(c, GGUF_W_ERROR, (int64_t)p->a->off, "LoRA pair %s: "
		    "lora_a is %s and lora_b %s: the rank of one is not the "
		    "other's (lora_a must be stored transposed, [in, rank]; "
		    "llama.cpp refuses the adapter)", pn,
		    shape(p->a, s1, sizeof s1), shape(p->b, s2, sizeof s2));
}

/* The adapter's keys, as llama_adapter_lora_init reads them. */
static void
check_adapter_keys(struct kc *c)
{
	struct gguf_kv	*kv;
	int64_t		 off;
	char		 t[80], a[80], b[80];

	kv = kv_of(c->f, "general.type", &off);
	if (kv == NULL)
		say(c, GGUF_W_ERROR, -1, "no general.type key: llama.cpp loads "
		    "an adapter whose general.type is \"adapter\"");
	else if (kv->val.type != GGUF_VT_STR)
		say(c, GGUF_W_ERROR, off, "general.type is %s, not a string: "
		    "llama.cpp aborts reading the adapter",
		    gguf_vtype_name(kv->val.type));
	else if (!val_is(&kv->val, "adapter"))
		say(c, GGUF_W_ERROR, off, "general.type is \"%s\", not "
		    "\"adapter\": llama.cpp refuses the adapter",
		    str_text(c->f, "general.type", t, sizeof t));

	kv = kv_of(c->f, "general.architecture", &off);
	if (kv == NULL)
		say(c, GGUF_W_ERROR, -1, "no general.architecture key: "
		    "llama.cpp loads an adapter only onto a model of its "
		    "architecture");
	else if (kv->val.type != GGUF_VT_STR)
		say(c, GGUF_W_ERROR, off, "general.architecture is %s, not a "
		    "string: llama.cpp aborts reading the adapter",
		    gguf_vtype_name(kv->val.type));
	else if (c->base != NULL && !same_arch(c->f, c->base))
		say(c, GGUF_W_ERROR, off, "general.architecture is \"%s\" but "
		    "the base model's is \"%s\": llama.cpp refuses the "
		    "adapter", str_text(c->f, "general.architecture", a,
		    sizeof a), str_text(c->base, "general.architecture", b,
		    sizeof b));

	kv = kv_of(c->f, "adapter.type", &off);
	if (kv == NULL)
		say(c, GGUF_W_ERROR, -1, "no adapter.type key: llama.cpp "
		    "loads an adapter whose adapter.type is \"lora\"");
	else if (kv->val.type != GGUF_VT_STR)
		say(c, GGUF_W_ERROR, off, "adapter.type is %s, not a string: "
		    "llama.cpp aborts reading the adapter",
		    gguf_vtype_name(kv->val.type));
	else if (!val_is(&kv->val, "lora"))
		say(c, GGUF_W_ERROR, off, "adapter.type is \"%s\": llama.cpp "
		    "loads only \"lora\" adapters", str_text(c->f,
		    "adapter.type", t, sizeof t));

	kv = kv_of(c->f, "adapter.lora.alpha", &off);
	if (kv != NULL && kv->val.type != GGUF_VT_F32)
		say(c, GGUF_W_ERROR, off, "adapter.lora.alpha is %s, not f32: "
		    "llama.cpp aborts reading the adapter",
		    gguf_vtype_name(kv->val.type));

	kv = kv_of(c->f, "adapter.alora.invocation_tokens", &off);
	if (kv != NULL && (kv->val.type != GGUF_VT_ARR ||
	    kv->val.atype != GGUF_VT_U32))
		say(c, GGUF_W_ERROR, off, "adapter.alora.invocation_tokens is "
		    "%s, not an array of u32: llama.cpp refuses the adapter",
		    gguf_vtype_text(kv->val.type, kv->val.atype, t, sizeof t));
}

static void
check_adapter(struct kc *c)
{
	const struct gguf_tensor	*t, *o;
	struct pair			 p;
	uint64_t			 i, nt = gguf_layout(c->f)->n_tensors;
	size_t				 bn;
	char				*base, *tmp, nm[160], bm[160];

	check_adapter_keys(c);
	for (i = 0; i < nt; i++) {
		t = gguf_tensor_at(c->f, i);
		base = xmalloc((size_t)t->name.n + 1);
		tmp = xmalloc((size_t)t->name.n + 9);
		if (ends(&t->name, ".lora_a")) {
			bn = strip_all(t->name.p, (size_t)t->name.n, ".lora_a",
			    base);
			o = strstr(base, ".lora_b") != NULL ? NULL :
			    partner(c->f, base, bn, ".lora_b", tmp);
			if (o == NULL)
				say(c, GGUF_W_ERROR, (int64_t)t->off, "tensor "
				    "%s has no %s.lora_b beside it: llama.cpp "
				    "refuses the adapter", tname(t, nm,
				    sizeof nm), gguf_pname(base, bn, bm,
				    sizeof bm));
			else {
				p.a = t;
				p.b = o;
				check_pair(c, base, &p);
			}
		} else if (ends(&t->name, ".lora_b")) {
			bn = strip_all(t->name.p, (size_t)t->name.n, ".lora_b",
			    base);
			o = strstr(base, ".lora_a") != NULL ? NULL :
			    partner(c->f, base, bn, ".lora_a", tmp);
			if (o == NULL)
				say(c, GGUF_W_ERROR, (int64_t)t->off, "tensor "
				    "%s has no %s.lora_a beside it: llama.cpp "
				    "refuses the adapter", tname(t, nm,
				    sizeof nm), gguf_pname(base, bn, bm,
				    sizeof bm));
		} else if (!ends(&t->name, "_norm.weight"))
			say(c, GGUF_W_ERROR, (int64_t)t->off, "tensor %s is "
			    "neither a .lora_a nor a .lora_b (nor a norm): "
			    "llama.cpp refuses the adapter",
			    tname(t, nm, sizeof nm));
		free(base);
		free(tmp);
	}
}

/* The ranks of the pairs (lora_b's rows), alpha and the pair count. */
static const char *
describe_adapter(struct gguf_file *f, char *buf, size_t len)
{
	const struct gguf_tensor	*t;
	struct gguf_val			*v;
	uint64_t			 i, n = 0, lo = UINT64_MAX, hi = 0;
	double				 alpha;
	size_t				 o;
	char				 a[80], ty[80];
	int				 alora;

	for (i = 0; i < gguf_layout(f)->n_tensors; i++) {
		t = gguf_tensor_at(f, i);
		if (!ends(&t->name, ".lora_b"))
			continue;
		n++;
		lo = t->ne[0] < lo ? t->ne[0] : lo;
		hi = t->ne[0] > hi ? t->ne[0] : hi;
	}
	alora = gguf_kv_get(f, "adapter.alora.invocation_tokens") != NULL;
	if (!val_is(gguf_kv_get(f, "adapter.type"), "lora"))
		o = (size_t)snprintf(buf, len, "adapter (adapter.type \"%s\") "
		    "for %s", str_text(f, "adapter.type", ty, sizeof ty),
		    str_text(f, "general.architecture", a, sizeof a));
	else
		o = (size_t)snprintf(buf, len, "%s adapter for %s", alora ?
		    "aLoRA" : "LoRA", str_text(f, "general.architecture", a,
		    sizeof a));
	if (o < len && n > 0 && lo == hi)
		o += (size_t)snprintf(buf + o, len - o, ", rank %llu",
		    (unsigned long long)lo);
	else if (o < len && n > 0)
		o += (size_t)snprintf(buf + o, len - o, ", rank %llu..%llu",
		    (unsigned long long)lo, (unsigned long long)hi);
	v = gguf_kv_get(f, "adapter.lora.alpha");
	if (o < len && v != NULL && gguf_val_f64(v, &alpha) == 0)
		o += (size_t)snprintf(buf + o, len - o, ", alpha %g", alpha);
	else if (o < len)
		o += (size_t)snprintf(buf + o, len - o, ", no alpha");
	if (o < len)
		o += (size_t)snprintf(buf + o, len - o, ", %llu pair%s",
		    (unsigned long long)n, n == 1 ? "" : "s");
	if (o < len && alora)
		(void)snprintf(buf + o, len - o, ", %llu invocation token%s",
		    (unsigned long long)gguf_kv_get(f,
		    "adapter.alora.invocation_tokens")->count,
		    gguf_kv_get(f, "adapter.alora.invocation_tokens")->count ==
		    1 ? "" : "s");
	return buf;
}

/* ---------------------------------------------------------- the others */

/* A number key's text in buf, or NULL. */
static const char *
num_text(struct gguf_file *f, const char *key, char *buf, size_t len)
{
	struct gguf_val	*v = gguf_kv_get(f, key);
	uint64_t	 u;

	if (v == NULL || v->type == GGUF_VT_ARR || v->type == GGUF_VT_STR ||
	    gguf_val_u64(v, &u) != 0)
		return NULL;
	snprintf(buf, len, "%llu", (unsigned long long)u);
	return buf;
}

/* The tensors whose name ends with suffix, and the widest's width. */
static uint64_t
count_suffix(struct gguf_file *f, const char *suffix, uint64_t *width)
{
	const struct gguf_tensor	*t;
	uint64_t			 i, n = 0;

	*width = 0;
	for (i = 0; i < gguf_layout(f)->n_tensors; i++) {
		t = gguf_tensor_at(f, i);
		if (!ends(&t->name, suffix))
			continue;
		n++;
		*width = t->ne[0] > *width ? t->ne[0] : *width;
	}
	return n;
}

static const char *
describe_cvec(struct gguf_file *f, char *buf, size_t len)
{
	const struct gguf_tensor	*t;
	uint64_t			 i, n = 0, w = 0;
	char				 h[80];

	for (i = 0; i < gguf_layout(f)->n_tensors; i++) {
		t = gguf_tensor_at(f, i);
		if (t->name.n > 10 && memcmp(t->name.p, "direction.", 10) == 0) {
			n++;
			w = t->ne[0];
		}
	}
	str_text(f, "controlvector.model_hint", h, sizeof h);
	snprintf(buf, len, "control vector%s%s, %llu direction%s, width %llu",
	    h[0] != '\0' ? " for " : "", h, (unsigned long long)n,
	    n == 1 ? "" : "s", (unsigned long long)w);
	return buf;
}

static const char *
describe_imatrix(struct gguf_file *f, char *buf, size_t len)
{
	struct gguf_val	*v;
	struct gguf_val	 e;
	struct gguf_str	 s;
	uint64_t	 n, w, i;
	size_t		 o;
	char		 cc[32], cs[32], d[80];

	n = count_suffix(f, ".in_sum2", &w);
	o = (size_t)snprintf(buf, len, "importance matrix of %llu tensor%s",
	    (unsigned long long)n, n == 1 ? "" : "s");
	if (o < len && num_text(f, "imatrix.chunk_count", cc, sizeof cc))
		o += (size_t)snprintf(buf + o, len - o, ", %s chunk%s", cc,
		    strcmp(cc, "1") == 0 ? "" : "s");
	if (o < len && num_text(f, "imatrix.chunk_size", cs, sizeof cs))
		o += (size_t)snprintf(buf + o, len - o, " of %s tokens", cs);
	v = gguf_kv_get(f, "imatrix.datasets");
	if (v != NULL && v->type == GGUF_VT_ARR && v->atype == GGUF_VT_STR)
		for (i = 0; i < v->count && o < len; i++) {
			if (gguf_arr_get(v, i, &e, NULL) != 0 ||
			    gguf_val_str(&e, &s) != 0)
				break;
			if (i == 3) {
				o += (size_t)snprintf(buf + o, len - o,
				    " and %llu more", (unsigned long long)
				    (v->count - 3));
				break;
			}
			o += (size_t)snprintf(buf + o, len - o, "%s%s",
			    i == 0 ? ", datasets " : ", ", gguf_pname(s.p,
			    (size_t)s.n, d, sizeof d));
		}
	return buf;
}

/*
 * A projector's modality and type, as clip.cpp reads them: the type of
 * each modality (clip.vision.projector_type, clip.audio.projector_type)
 * or the one of the file (clip.projector_type).
 */
static const char *
describe_mmproj(struct gguf_file *f, char *buf, size_t len)
{
	struct gguf_val	*hv = gguf_kv_get(f, "clip.has_vision_encoder");
	struct gguf_val	*ha = gguf_kv_get(f, "clip.has_audio_encoder");
	char		 pt[80], vt[80], at[80];
	int		 vis, aud;
	size_t		 o;

	vis = hv != NULL && hv->type == GGUF_VT_BOOL && gguf_val_bits(hv);
	aud = ha != NULL && ha->type == GGUF_VT_BOOL && gguf_val_bits(ha);
	str_text(f, "clip.projector_type", pt, sizeof pt);
	str_text(f, "clip.vision.projector_type", vt, sizeof vt);
	str_text(f, "clip.audio.projector_type", at, sizeof at);
	if (vt[0] == '\0')
		memcpy(vt, pt, sizeof vt);
	if (at[0] == '\0')
		memcpy(at, pt, sizeof at);
	if (!vis && !aud)
		vis = 1;	/* clip.cpp's default */
	o = (size_t)snprintf(buf, len, "%s", "");
	if (vis)
		o += (size_t)snprintf(buf + o, len - o, "vision projector (%s)",
		    vt[0] != '\0' ? vt : "no projector type");
	if (vis && aud && o < len)
		o += (size_t)snprintf(buf + o, len - o, " and ");
	if (aud && o < len)
		(void)snprintf(buf + o, len - o, "audio projector (%s)",
		    at[0] != '\0' ? at : "no projector type");
	return buf;
}

/* -------------------------------------------------------- control vectors */

/*
 * The layer of a direction tensor as llama.cpp's control vector loader
 * reads it: "direction" before the first dot, then what std::stoi makes
 * of the rest (blanks, a sign, digits, anything after them). -1 when it
 * reads none, or one out of int's range.
 */
static int64_t
direction_layer(const struct gguf_str *name)
{
	const char	*p = name->p, *e = name->p + name->n, *dot;
	int64_t		 v = 0;
	int		 neg = 0, digits = 0;

	if ((dot = memchr(p, '.', (size_t)name->n)) == NULL ||
	    dot - p != 9 || memcmp(p, "direction", 9) != 0)
		return -1;
	for (p = dot + 1; p < e && (*p == ' ' || (*p >= '\t' && *p <= '\r'));
	    p++)
		;
	if (p < e && (*p == '+' || *p == '-'))
		neg = *p++ == '-';
	for (; p < e && *p >= '0' && *p <= '9'; p++, digits++) {
		v = v * 10 + (*p - '0');
		if (v > (int64_t)INT32_MAX + 1)
			return -1;
	}
	if (digits == 0 || (!neg && v > INT32_MAX))
		return -1;
	return neg ? -v : v;
}

/* A number key of the base model's architecture, or -1. */
static int64_t
base_hparam(struct gguf_file *base, const char *suffix, char *key,
    size_t len)
{
	struct gguf_val	*v = gguf_kv_get(base, "general.architecture");
	struct gguf_str	 a;
	uint64_t	 u;

	key[0] = '\0';
	if (v == NULL || gguf_val_str(v, &a) != 0 || a.n == 0 || a.n > 64)
		return -1;
	snprintf(key, len, "%.*s.%s", (int)a.n, a.p, suffix);
	v = gguf_kv_get(base, key);
	if (v == NULL || v->type == GGUF_VT_ARR || v->type == GGUF_VT_STR ||
	    gguf_val_u64(v, &u) != 0 || u > INT32_MAX)
		return -1;
	return (int64_t)u;
}

/*
 * A control vector as llama.cpp's common library loads it (its
 * --control-vector): every tensor a direction.N with N a layer from 1,
 * F32, one-dimensional, all of one width; any fault and the whole file
 * is refused, and llama.cpp stops. On a model, the width must be its
 * embedding length, and a direction for layer N is applied only where
 * the model has a block N (from 1 to block_count - 1).
 */
static void
check_cvec(struct kc *c)
{
	const struct gguf_tensor	*t, *first = NULL;
	uint64_t			 i, nt = gguf_layout(c->f)->n_tensors;
	int64_t				 layer, embd = -1, nl = -1;
	char				 nm[160], s1[80], ek[160], bk[160];
	unsigned			 errors = c->errors;

	if (nt == 0) {
		say(c, GGUF_W_ERROR, -1, "no direction tensors: llama.cpp "
		    "refuses an empty control vector");
		return;
	}
	if (c->base != NULL) {
		embd = base_hparam(c->base, "embedding_length", ek,
		    sizeof ek);
		nl = base_hparam(c->base, "block_count", bk, sizeof bk);
	}
	for (i = 0; i < nt; i++) {
		t = gguf_tensor_at(c->f, i);
		layer = direction_layer(&t->name);
		if (layer < 0)
			say(c, GGUF_W_ERROR, (int64_t)t->off, "tensor %s is "
			    "not a direction.N of a layer N: llama.cpp "
			    "refuses the control vector",
			    tname(t, nm, sizeof nm));
		else if (layer == 0)
			say(c, GGUF_W_ERROR, (int64_t)t->off, "tensor %s is "
			    "for layer 0, which has none: llama.cpp refuses "
			    "the control vector", tname(t, nm, sizeof nm));
		else if (t->type != GGUF_T_F32)
			say(c, GGUF_W_ERROR, (int64_t)t->off, "tensor %s is "
			    "not F32: llama.cpp refuses the control vector",
			    tname(t, nm, sizeof nm));
		else if (t->ne[1] != 1 || t->ne[2] != 1 || t->ne[3] != 1)
			say(c, GGUF_W_ERROR, (int64_t)t->off, "tensor %s is "
			    "%s, not one-dimensional: llama.cpp refuses the "
			    "control vector", tname(t, nm, sizeof nm),
			    shape(t, s1, sizeof s1));
		else if (first != NULL && t->ne[0] != first->ne[0])
			say(c, GGUF_W_ERROR, (int64_t)t->off, "tensor %s is "
			    "%llu wide but %s is %llu: llama.cpp refuses the "
			    "control vector", tname(t, nm, sizeof nm),
			    (unsigned long long)t->ne[0], tname(first, s1,
			    sizeof s1), (unsigned long long)first->ne[0]);
		else {
			if (first == NULL)
				first = t;
			if (nl >= 0 && layer >= nl)
				say(c, GGUF_W_WARN, (int64_t)t->off, "tensor "
				    "%s is for layer %lld but the base model's "
				    "%s is %lld: llama.cpp never applies it",
				    tname(t, nm, sizeof nm), (long long)layer,
				    bk, (long long)nl);
			continue;
		}
		break;		/* llama.cpp stops at the first */
	}
	if (c->errors != errors || first == NULL || c->base == NULL)
		return;
	if (embd < 0)
		say(c, GGUF_W_NOTE, -1, "the base model has no %s: the "
		    "control vector's width is not checked against it",
		    ek[0] != '\0' ? ek : "architecture");
	else if ((uint64_t)embd != first->ne[0])
		say(c, GGUF_W_ERROR, (int64_t)first->off, "the control "
		    "vector is %llu wide but the base model's %s is %lld: "
		    "llama.cpp refuses it", (unsigned long long)first->ne[0],
		    ek, (long long)embd);
}

/* ------------------------------------------------------------- imatrix */

/* An imatrix key llama-quantize reads, of its type. */
static void
imatrix_key(struct kc *c, const char *key, uint32_t type, uint32_t atype)
{
	struct gguf_kv	*kv;
	int64_t		 off;
	char		 t[40];

	if ((kv = kv_of(c->f, key, &off)) == NULL)
		say(c, GGUF_W_ERROR, -1, "no %s key: llama-quantize refuses "
		    "an imatrix without it", key);
	else if (kv->val.type != type || (type == GGUF_VT_ARR &&
	    kv->val.atype != atype))
		say(c, GGUF_W_ERROR, off, "%s is %s, not %s: llama-quantize "
		    "cannot read it", key, gguf_vtype_text(kv->val.type,
		    kv->val.atype, t, sizeof t), type == GGUF_VT_ARR ?
		    "arr[str]" : "u32");
}

/*
 * An importance matrix as llama-quantize reads it (--imatrix): its three
 * keys, and for each weight NAME, NAME.in_sum2 (the sums, [width, rows])
 * and NAME.counts (one count a row), both F32; other tensors are ignored.
 */
static void
check_imatrix(struct kc *c)
{
	const struct gguf_tensor	*t, *o;
	uint64_t			 i, nt = gguf_layout(c->f)->n_tensors;
	size_t				 bn;
	int64_t				 j;
	char				*base, nm[160], on[160], s1[80];
	int				 sums;

	imatrix_key(c, "imatrix.datasets", GGUF_VT_ARR, GGUF_VT_STR);
	imatrix_key(c, "imatrix.chunk_count", GGUF_VT_U32, 0);
	imatrix_key(c, "imatrix.chunk_size", GGUF_VT_U32, 0);
	if (nt == 0)
		say(c, GGUF_W_ERROR, -1, "no tensors: llama-quantize refuses "
		    "an imatrix without data");
	for (i = 0; i < nt; i++) {
		t = gguf_tensor_at(c->f, i);
		sums = ends(&t->name, ".in_sum2");
		if (!sums && !ends(&t->name, ".counts"))
			continue;
		tname(t, nm, sizeof nm);
		if (t->type != GGUF_T_F32) {
			say(c, GGUF_W_ERROR, (int64_t)t->off, "tensor %s is "
			    "not F32: llama-quantize reads it as F32", nm);
			continue;
		}
		bn = (size_t)t->name.n - (sums ? 8 : 7);
		base = xmalloc(bn + 9);
		memcpy(base, t->name.p, bn);
		memcpy(base + bn, sums ? ".counts" : ".in_sum2", sums ? 8 : 9);
		j = gguf_tensor_find(c->f, base, bn + (sums ? 7 : 8));
		gguf_pname(base, strlen(base), on, sizeof on);
		free(base);
		if (j < 0) {
			say(c, GGUF_W_ERROR, (int64_t)t->off, "tensor %s has "
			    "no %s beside it: llama-quantize refuses the "
			    "imatrix", nm, on);
			continue;
		}
		o = gguf_tensor_at(c->f, (uint64_t)j);
		if (sums && o->nelem < t->ne[1])
			say(c, GGUF_W_ERROR, (int64_t)o->off, "tensor %s holds "
			    "%llu count%s but %s is %s, of %llu rows: "
			    "llama-quantize reads past its end", on,
			    (unsigned long long)o->nelem, o->nelem == 1 ? "" :
			    "s", nm, shape(t, s1, sizeof s1),
			    (unsigned long long)t->ne[1]);
	}
}

/* ------------------------------------------------------------- projectors */

/*
 * A pattern of projectors.h (len bytes) with {m} and {p} the modality's
 * word and prefix and {bid} or {sam} block il, into out.
 */
static void
proj_name(char *out, size_t size, const char *pat, size_t len,
    const char *m, const char *p, int64_t il)
{
	size_t	o = 0, k = 0, w;

	while (k < len && o + 1 < size) {
		if (pat[k] == '{' && len - k >= 3 &&
		    memcmp(pat + k, "{m}", 3) == 0) {
			w = (size_t)snprintf(out + o, size - o, "%s", m);
			k += 3;
		} else if (pat[k] == '{' && len - k >= 3 &&
		    memcmp(pat + k, "{p}", 3) == 0) {
			w = (size_t)snprintf(out + o, size - o, "%s", p);
			k += 3;
		} else if (pat[k] == '{' && len - k >= 5 &&
		    (memcmp(pat + k, "{bid}", 5) == 0 ||
		    memcmp(pat + k, "{sam}", 5) == 0)) {
			w = (size_t)snprintf(out + o, size - o, "%lld",
			    (long long)il);
			k += 5;
		} else {
			out[o] = pat[k++];
			w = 1;
		}
		o = o + w < size ? o + w : size - 1;
	}
	out[o] = '\0';
}

/* Whether the n bytes at w hold the 5 bytes of var. */
static int
proj_has(const char *w, size_t n, const char *var)
{
	size_t	k;

	for (k = 0; k + 5 <= n; k++)
		if (memcmp(w + k, var, 5) == 0)
			return 1;
	return 0;
}

/* The next blank-separated word of *s: its length, *s moved past it. */
static size_t
proj_word(const char **s, const char **w)
{
	const char	*p = *s;

	while (*p == ' ')
		p++;
	*w = p;
	while (*p != '\0' && *p != ' ')
		p++;
	*s = p;
	return (size_t)(p - *w);
}

/* The keys of pats the projector must have, of their types. */
static void
proj_keys(struct kc *c, const char *pats, const char *m)
{
	const char	*w, *colon;
	struct gguf_kv	*kv;
	size_t		 n;
	int64_t		 off;
	char		 key[160], t[40];
	int		 good;

	while ((n = proj_word(&pats, &w)) > 0) {
		colon = memchr(w, ':', n);
		if (colon == NULL)
			continue;
		proj_name(key, sizeof key, w, (size_t)(colon - w), m, "", 0);
		if ((kv = kv_of(c->f, key, &off)) == NULL) {
			say(c, GGUF_W_ERROR, -1, "%s is missing: llama.cpp's "
			    "projector loader requires it", key);
			continue;
		}
		colon++;
		if (strncmp(colon, "arr3", 4) == 0) {
			if (kv->val.type != GGUF_VT_ARR ||
			    kv->val.atype != GGUF_VT_F32)
				say(c, GGUF_W_ERROR, off, "%s is %s, not arr[f32]: "
				    "llama.cpp's projector loader reads 3 floats "
				    "from it", key, gguf_vtype_text(kv->val.type,
				    kv->val.atype, t, sizeof t));
			else if (kv->val.count < 3)
				say(c, GGUF_W_ERROR, off, "%s holds %llu "
				    "element%s, not 3: llama.cpp's projector "
				    "loader reads past its end", key,
				    (unsigned long long)kv->val.count,
				    kv->val.count == 1 ? "" : "s");
			continue;
		}
		if (memcmp(colon, "u32", 3) == 0)
			good = kv->val.type == GGUF_VT_U32;
		else if (memcmp(colon, "f32", 3) == 0)
			good = kv->val.type == GGUF_VT_F32;
		else
			good = kv->val.type == GGUF_VT_ARR;
		if (!good)
			say(c, GGUF_W_ERROR, off, "%s is %s, not %.*s: llama.cpp's "
			    "projector loader cannot read it", key,
			    gguf_vtype_text(kv->val.type, kv->val.atype, t,
			    sizeof t), memcmp(colon, "arr", 3) == 0 ? 5 : 3,
			    memcmp(colon, "arr", 3) == 0 ? "array" : colon);
	}
}

/*
 * The blocks il < nblk whose tensor of {bid} pattern w (n bytes) the file
 * holds: one pass over the names, each compared with the pattern's ends
 * (a look-up only for one that matches, that a name given twice counts
 * once), not a look-up a block, which a file of millions of tensors made
 * millions a pattern.
 */
static int64_t
proj_found(struct kc *c, const char *w, size_t n, const char *m,
    const char *p, int64_t nblk)
{
	const struct gguf_tensor *t;
	uint64_t	 i, nt = gguf_layout(c->f)->n_tensors, v;
	const char	*q;
	size_t		 at, pl, sl, d, k;
	int64_t		 found = 0;
	char		 pre[200], suf[200];

	for (at = 0; at + 5 <= n && memcmp(w + at, "{bid}", 5) != 0; at++)
		;
	proj_name(pre, sizeof pre, w, at, m, p, 0);
	proj_name(suf, sizeof suf, w + at + 5, n - at - 5, m, p, 0);
	pl = strlen(pre);
	sl = strlen(suf);
	for (i = 0; i < nt; i++) {
		t = gguf_tensor_at(c->f, i);
		if ((size_t)t->name.n <= pl + sl ||
		    (d = (size_t)t->name.n - pl - sl) > 10)
			continue;
		q = t->name.p;
		if (memcmp(q, pre, pl) != 0 ||
		    memcmp(q + pl + d, suf, sl) != 0 ||
		    (d > 1 && q[pl] == '0'))
			continue;
		for (v = 0, k = 0; k < d && q[pl + k] >= '0' &&
		    q[pl + k] <= '9'; k++)
			v = v * 10 + (uint64_t)(q[pl + k] - '0');
		if (k == d && v < (uint64_t)nblk &&
		    gguf_tensor_find(c->f, q, (size_t)t->name.n) == (int64_t)i)
			found++;
	}
	return found;
}

/*
 * The tensors of pats the projector must have: a {bid} pattern once for
 * each of nblk blocks (one finding for the first block without it, with
 * the count of the others), a {sam} one for each SAM block.
 */
static void
proj_tensors(struct kc *c, const char *pats, const char *m, const char *p,
    int64_t nblk)
{
	const char	*w;
	size_t		 n;
	int64_t		 il, top, missing, first;
	char		 name[200];
	int		 per;

	while ((n = proj_word(&pats, &w)) > 0) {
		per = proj_has(w, n, "{bid}") ? 1 :
		    proj_has(w, n, "{sam}") ? 2 : 0;
		top = per == 0 ? 1 : GGUF_PROJ_SAM_BLOCKS;
		missing = 0;
		first = -1;
		if (per == 1) {
			/* the first block without it: one past those found */
			if ((missing = nblk - proj_found(c, w, n, m, p,
			    nblk)) == 0)
				continue;
			top = 0;
			do {
				proj_name(name, sizeof name, w, n, m, p, top);
			} while (gguf_tensor_find(c->f, name,
			    strlen(name)) >= 0 && ++top < nblk);
			first = top;
			top = 0;
		}
		for (il = 0; il < top; il++) {
			proj_name(name, sizeof name, w, n, m, p, il);
			if (gguf_tensor_find(c->f, name, strlen(name)) >= 0)
				continue;
			if (missing++ == 0)
				first = il;
		}
		if (missing == 0)
			continue;
		proj_name(name, sizeof name, w, n, m, p, first);
		if (missing == 1)
			say(c, GGUF_W_ERROR, -1, "%s is missing: llama.cpp's "
			    "projector loader requires it", name);
		else
			say(c, GGUF_W_ERROR, -1, "%s is missing, and so is its "
			    "block's in %lld more blocks: llama.cpp's projector "
			    "loader requires them", name, (long long)(missing - 1));
	}
}

/* A u32 key's value in *v: 1, or 0 when absent or of another type. */
static int
proj_u32(struct kc *c, const char *key, uint64_t *v)
{
	struct gguf_val	*val = gguf_kv_get(c->f, key);

	return val != NULL && val->type == GGUF_VT_U32 &&
	    gguf_val_u64(val, v) == 0;
}

/* A u32 key llama.cpp's projector loader wants more than 0, or 0 bits. */
static void
proj_positive(struct kc *c, const char *key)
{
	uint64_t	v;
	int64_t		off;

	if (proj_u32(c, key, &v) && (v == 0 || v > INT32_MAX)) {
		(void)kv_of(c->f, key, &off);
		say(c, GGUF_W_ERROR, off, "%s is %llu: llama.cpp's projector "
		    "loader refuses it (it must be from 1 to %d)", key,
		    (unsigned long long)v, INT32_MAX);
	}
}

/*
 * The keys and tensors a projector of type row needs for modality mod,
 * as llama.cpp's projector loader reads them (projectors.h).
 */
static void
proj_rules(struct kc *c, const struct gguf_projector *row, const char *mod)
{
	int		 audio = strcmp(mod, "audio") == 0;
	const char	*p = audio ? "a" : "v";
	struct gguf_val	*v;
	uint64_t	 u, lo, hi;
	int64_t		 nblk = 0;
	char		 key[64];

	proj_keys(c, gguf_projector_base_keys(audio ? GGUF_PROJ_AUDIO :
	    GGUF_PROJ_VISION), mod);
	proj_keys(c, row->keys, mod);
	snprintf(key, sizeof key, "clip.%s.block_count", mod);
	v = gguf_kv_get(c->f, key);
	if (v != NULL && v->type == GGUF_VT_U32 && gguf_val_u64(v, &u) == 0)
		nblk = (int64_t)u;
	/* load_hparams' sanity checks. */
	snprintf(key, sizeof key, "clip.%s.embedding_length", mod);
	proj_positive(c, key);
	/* deepseekocr's patch size is 16 whatever the key says. */
	if (!audio && strcmp(row->type, "deepseekocr") != 0)
		proj_positive(c, "clip.vision.patch_size");
	if (strstr(row->keys, "image_min_pixels") != NULL &&
	    proj_u32(c, "clip.vision.image_min_pixels", &lo) &&
	    proj_u32(c, "clip.vision.image_max_pixels", &hi) && hi < lo)
		say(c, GGUF_W_ERROR, -1, "clip.vision.image_max_pixels (%llu) "
		    "is less than clip.vision.image_min_pixels (%llu): "
		    "llama.cpp's projector loader refuses it",
		    (unsigned long long)hi, (unsigned long long)lo);
	proj_tensors(c, row->tensors, mod, p, nblk);
}

/*
 * One modality of a projector (vision or audio): its projector type as
 * clip.cpp reads it (clip.projector_type, else clip.MOD.projector_type)
 * and, on a model, its projection width against the model's embedding
 * length, which llama.cpp's multimodal library requires equal.
 */
static void
check_modality(struct kc *c, const char *mod, int64_t embd, const char *ek)
{
	const struct gguf_projector	*row;
	struct gguf_kv			*kv;
	struct gguf_str			 s;
	const char			*alias;
	int64_t				 off;
	uint64_t			 w;
	char				 key[64], t[80];
	int				 ruled = 0;

	snprintf(key, sizeof key, "clip.projector_type");
	if ((kv = kv_of(c->f, key, &off)) == NULL) {
		snprintf(key, sizeof key, "clip.%s.projector_type", mod);
		kv = kv_of(c->f, key, &off);
	}
	if (kv == NULL)
		say(c, GGUF_W_ERROR, -1, "no clip.projector_type key: llama.cpp "
		    "cannot tell the %s projector's type", mod);
	else if (gguf_val_str(&kv->val, &s) != 0)
		say(c, GGUF_W_ERROR, off, "%s is %s, not a string: llama.cpp "
		    "cannot read it", key, gguf_vtype_name(kv->val.type));
	else if ((row = gguf_projector_find(s.p, (size_t)s.n)) == NULL)
		say(c, GGUF_W_ERROR, off, "%s is \"%s\", a projector type "
		    "llama.cpp's multimodal library does not know", key,
		    gguf_pname(s.p, (size_t)s.n, t, sizeof t));
	else if (row->refused != NULL)
		say(c, GGUF_W_ERROR, off, "%s is \"%s\": %s", key,
		    gguf_pname(s.p, (size_t)s.n, t, sizeof t), row->refused);
	else {
		alias = strcmp(mod, "audio") == 0 ? row->audio_as :
		    row->vision_as;
		if (alias != NULL)
			row = gguf_projector_find(alias, strlen(alias));
		if (row != NULL) {
			proj_rules(c, row, mod);
			ruled = 1;
		}
	}
	if (c->base == NULL)
		return;
	snprintf(key, sizeof key, "clip.%s.projection_dim", mod);
	kv = kv_of(c->f, key, &off);
	if (kv == NULL || kv->val.type == GGUF_VT_ARR ||
	    kv->val.type == GGUF_VT_STR || gguf_val_u64(&kv->val, &w) != 0) {
		/* The type's rules have named the key already. */
		if (!ruled)
			say(c, GGUF_W_NOTE, -1, "no %s: the %s projector's "
			    "width is not checked against the base model", key,
			    mod);
	} else if (embd < 0)
		say(c, GGUF_W_NOTE, -1, "the base model has no %s: the %s "
		    "projector's width is not checked against it",
		    ek[0] != '\0' ? ek : "architecture", mod);
	else if (w != (uint64_t)embd)
		say(c, GGUF_W_ERROR, off, "%s is %llu but the base model's %s "
		    "is %lld: llama.cpp refuses to use this projector with it "
		    "(a projector for another model?)", key,
		    (unsigned long long)w, ek, (long long)embd);
}

static void
check_mmproj(struct kc *c)
{
	struct gguf_val	*hv = gguf_kv_get(c->f, "clip.has_vision_encoder");
	struct gguf_val	*ha = gguf_kv_get(c->f, "clip.has_audio_encoder");
	int64_t		 embd = -1;
	int		 vis, aud;
	char		 ek[160];

	ek[0] = '\0';
	if (c->base != NULL)
		embd = base_hparam(c->base, "embedding_length", ek, sizeof ek);
	vis = hv != NULL && hv->type == GGUF_VT_BOOL && gguf_val_bits(hv);
	aud = ha != NULL && ha->type == GGUF_VT_BOOL && gguf_val_bits(ha);
	if (!vis && !aud)
		vis = 1;
	if (vis)
		check_modality(c, "vision", embd, ek);
	if (aud)
		check_modality(c, "audio", embd, ek);
}

/* ------------------------------------------------------------------ public */

const char *
gguf_kind_describe(struct gguf_file *f, char *buf, size_t len)
{
	if (len == 0)
		return NULL;
	switch (gguf_kind_of(f)) {
	case GGUF_KIND_ADAPTER:
		return describe_adapter(f, buf, len);
	case GGUF_KIND_CVEC:
		return describe_cvec(f, buf, len);
	case GGUF_KIND_IMATRIX:
		return describe_imatrix(f, buf, len);
	case GGUF_KIND_MMPROJ:
		return describe_mmproj(f, buf, len);
	default:
		return NULL;
	}
}

unsigned
gguf_kind_check(struct gguf_file *f, struct gguf_file *base,
    gguf_finding_fn fn, void *arg)
{
	struct kc	c;

	memset(&c, 0, sizeof c);
	c.f = f;
	c.base = base;
	c.fn = fn;
	c.arg = arg;
	switch (gguf_kind_of(f)) {
	case GGUF_KIND_ADAPTER:
		check_adapter(&c);
		break;
	case GGUF_KIND_CVEC:
		check_cvec(&c);
		break;
	case GGUF_KIND_IMATRIX:
		check_imatrix(&c);
		break;
	case GGUF_KIND_MMPROJ:
		check_mmproj(&c);
		break;
	default:
		break;
	}
	return c.errors;
}
