/*
 * check.c - model-level checks: tokenizer, hyper-parameters, blocks,
 * file name and, on request, the tensor data itself.
 *
 * Levels follow what llama.cpp does with such a file: it reads
 * tokenizer.ggml.scores and token_type by token id without checking their
 * length (a shorter array is read past its end), refuses a BPE vocabulary
 * without merges, and replaces a special token id outside the vocabulary
 * by its default with a warning.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "dequant.h"
#include "doc.h"
#include "internal.h"
#include "kind.h"
#include "model.h"
#include "naming.h"
#include "scan.h"
#include "schema.h"
#include "source.h"
#include "hugemem.h"
#include "io.h"
#include "xmalloc.h"

struct checker {
	struct gguf_file	*f;
	/*
	 * A document whose merged view (its edits applied) the tokenizer's
	 * checks read instead of f (gguf_check_tokenizer); f is then its
	 * source, for what edits do not change (the kind of file).
	 */
	struct gguf_doc		*d;
	gguf_finding_fn		 fn;
	void			*arg;
	struct gguf_str		 arch;
	char			 buf[512];
};

static void say(struct checker *, int, int64_t, const char *, ...)
    __attribute__((format(printf, 4, 5)));
static void say_t(struct checker *, int, const struct gguf_tensor *,
    const char *, ...) __attribute__((format(printf, 4, 5)));

static void
say(struct checker *c, int level, int64_t off, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(c->buf, sizeof c->buf, fmt, ap);
	va_end(ap);
	c->fn(c->arg, level, NULL, off, c->buf);
}

/* A finding about tensor t, at its info in the file that holds it. */
static void
say_t(struct checker *c, int level, const struct gguf_tensor *t,
    const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(c->buf, sizeof c->buf, fmt, ap);
	va_end(ap);
	c->fn(c->arg, level, gguf_tensor_path(c->f, t), (int64_t)t->off,
	    c->buf);
}

/* The entry of key, or NULL; *off its file offset (-1 if absent). */
static struct gguf_kv *
kv_of(struct checker *c, const char *key, int64_t *off)
{
	int64_t	i = gguf_kv_find(c->f, key, strlen(key));

	*off = -1;
	if (i < 0)
		return NULL;
	*off = (int64_t)gguf_kv_at(c->f, (uint64_t)i)->off;
	return gguf_kv_at(c->f, (uint64_t)i);
}

/*
 * The value of key, or NULL; *off its file offset (-1 if absent, or read
 * from a document).
 */
static struct gguf_val *
val_of(struct checker *c, const char *key, int64_t *off)
{
	struct gguf_kv	*kv;

	if (c->d != NULL) {
		*off = -1;
		return gguf_doc_get(c->d, key, strlen(key));
	}
	return (kv = kv_of(c, key, off)) != NULL ? &kv->val : NULL;
}

/* "{arch}.block_count" with the file's architecture, in buf. */
static const char *
arch_key(struct checker *c, const char *suffix, char *buf, size_t len)
{
	snprintf(buf, len, "%.*s.%s", (int)c->arch.n, c->arch.p, suffix);
	return buf;
}

/*
 * A non-negative integer value (no bool, float, string or array) in *out:
 * 0, or -1 when the value is not one.
 */
static int
int_value(const struct gguf_val *v, uint64_t *out)
{
	if (v->type == GGUF_VT_ARR || v->type == GGUF_VT_STR ||
	    v->type == GGUF_VT_BOOL || v->type == GGUF_VT_F32 ||
	    v->type == GGUF_VT_F64)
		return -1;
	return gguf_val_u64(v, out);
}

/* An integer key's value; 0 and *ok 0 if absent or not one. */
static uint64_t
key_u64(struct checker *c, const char *key, int *ok, int64_t *off)
{
	struct gguf_val	*kv = val_of(c, key, off);
	uint64_t	 v;

	*ok = kv != NULL && int_value(kv, &v) == 0;
	return *ok ? v : 0;
}

/* ---------------------------------------------------------------- tokenizer */

/*
 * An array read by token id: shorter than the tokens, llama.cpp reads past
 * its end (an error); longer, the rest is never read (a warning).
 */
static void
check_array_len(struct checker *c, const char *key, uint64_t n_tok)
{
	struct gguf_val	*kv;
	int64_t		 off;
	char		 g1[32], g2[32];

	if ((kv = val_of(c, key, &off)) == NULL || kv->type != GGUF_VT_ARR ||
	    kv->count == n_tok)
		return;
	say(c, kv->count < n_tok ? GGUF_W_ERROR : GGUF_W_WARN, off,
	    "%s has %s elements but tokenizer.ggml.tokens has %s", key,
	    gguf_fmt_group(kv->count, g1, sizeof g1),
	    gguf_fmt_group(n_tok, g2, sizeof g2));
}

/*
 * How many of the n i32 token types at p are not 0 to 6: a vocabulary of
 * 150,000 in a few thousand instructions where the file's byte order is
 * the machine's (the loop vectorised), one at a time otherwise.
 */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("tree-vectorize")))
#endif
static uint32_t
types_over_native(const uint8_t *p, uint32_t n)
{
	uint32_t	bad = 0, i, v;

	for (i = 0; i < n; i++) {
		memcpy(&v, p + 4 * (size_t)i, sizeof v);
		bad += v > 6;
	}
	return bad;
}

static uint64_t
count_types_over(const uint8_t *p, uint64_t n, int be)
{
	const uint64_t	chunk = (uint64_t)1 << 20;
	uint64_t	bad = 0, k, m;

	if (be != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)) {
		for (k = 0; k < n; k++)
			bad += gguf_ld32(p + 4 * k, be) > 6;
		return bad;
	}
	for (k = 0; k < n; k += m) {
		m = n - k < chunk ? n - k : chunk;
		bad += types_over_native(p + 4 * k, (uint32_t)m);
	}
	return bad;
}

static void
check_token_types(struct checker *c, uint64_t n_tok)
{
	struct gguf_val	*kv;
	struct gguf_val	 e;
	struct gguf_err	 err;
	int64_t		 off, t;
	uint64_t	 i, n, bad = 0, first = 0;

	kv = val_of(c, "tokenizer.ggml.token_type", &off);
	if (kv == NULL || kv->type != GGUF_VT_ARR ||
	    kv->atype == GGUF_VT_STR || kv->atype == GGUF_VT_ARR)
		return;
	n = kv->count < n_tok ? kv->count : n_tok;
	i = 0;
	/* The usual i32 elements read in place: the type of each of a large
	   vocabulary's tokens costs a load, not a value's decoding. */
	if (kv->atype == GGUF_VT_I32 && n > 0 &&
	    gguf_arr_get(kv, 0, &e, &err) == 0 && e.n == 4) {
		/* counted, then the first found if there is one */
		bad = count_types_over(e.p, n, e.be);
		for (i = 0; bad > 0 && gguf_ld32(e.p + 4 * i, e.be) <= 6;
		    i++)
			;
		first = i;
		i = n;
	}
	for (; i < n; i++) {
		if (gguf_arr_get(kv, i, &e, &err) != 0 ||
		    gguf_val_i64(&e, &t) != 0 || t < 0 || t > 6) {
			if (bad++ == 0)
				first = i;
		}
	}
	if (bad > 0)
		say(c, GGUF_W_WARN, off, "tokenizer.ggml.token_type: %llu "
		    "token%s of no known type (0 to 6), the first id %llu",
		    (unsigned long long)bad, bad == 1 ? "" : "s",
		    (unsigned long long)first);
}

/* Every well-known tokenizer.ggml.*_token_id against the vocabulary. */
static void
check_token_ids(struct checker *c, uint64_t n_tok)
{
	const struct gguf_key_spec	*s;
	struct gguf_doc_kv		 dk;
	struct gguf_kv			*kv;
	struct gguf_str			 key;
	struct gguf_val			*v;
	uint64_t			 i, n;
	int64_t				 id, off;
	size_t				 kl;
	char				 g[32];

	n = c->d != NULL ? gguf_doc_n_kv(c->d) : gguf_layout(c->f)->n_kv;
	for (i = 0; i < n; i++) {
		if (c->d != NULL) {
			if (gguf_doc_kv(c->d, i, &dk) != 0 ||
			    (dk.flags & GGUF_ED_REMOVED))
				continue;
			key = dk.key;
			v = dk.val;
			off = -1;
		} else {
			kv = gguf_kv_at(c->f, i);
			key = kv->key;
			v = &kv->val;
			off = (int64_t)kv->off;
		}
		s = gguf_schema_find(key.p, key.n, c->arch.p, c->arch.n);
		if (s == NULL || strncmp(s->key, "tokenizer.ggml.", 15) != 0)
			continue;
		kl = strlen(s->key);
		if (kl < 9 || strcmp(s->key + kl - 9, "_token_id") != 0)
			continue;
		if (v->type == GGUF_VT_ARR || v->type == GGUF_VT_STR ||
		    gguf_val_i64(v, &id) != 0)
			continue;	/* wrong types: the reader says so */
		if (id < 0)
			continue;	/* -1: none, as some writers put it */
		/* UINT32_MAX: -1 written as u32, meaning "none". */
		if ((uint64_t)id >= n_tok)
			say(c, id == UINT32_MAX ? GGUF_W_NOTE : GGUF_W_WARN,
			    off, "%s is %lld, not a token: the "
			    "vocabulary has %s (llama.cpp ignores it and keeps "
			    "its default)", s->key,
			    (long long)id, gguf_fmt_group(n_tok, g, sizeof g));
	}
}

static int	is_model(struct checker *);

/*
 * Whether the model check of model.h (the table of models.tsv) checks
 * this file too: a model of an architecture the table knows.
 */
static int
table_checks(struct checker *c)
{
	return c->arch.n > 0 && gguf_model_known(c->arch.p,
	    (size_t)c->arch.n) && is_model(c);
}

static void
check_tokenizer(struct checker *c)
{
	struct gguf_val	*tok, *model;
	struct gguf_str	 m = { NULL, 0 };
	int64_t		 off, moff;
	uint64_t	 n_tok, vs;
	int		 ok, novocab;
	char		 k[256], g1[32], g2[32];

	tok = val_of(c, "tokenizer.ggml.tokens", &off);
	model = val_of(c, "tokenizer.ggml.model", &moff);
	if (model != NULL)
		(void)gguf_val_str(model, &m);
	/* "no_vocab" and "none": a model without a vocabulary. */
	novocab = model != NULL && ((m.n == 8 && memcmp(m.p, "no_vocab",
	    8) == 0) || (m.n == 4 && memcmp(m.p, "none", 4) == 0));
	if (tok == NULL || tok->type != GGUF_VT_ARR) {
		if (model != NULL && !novocab)
			say(c, GGUF_W_ERROR, moff, "tokenizer.ggml.model is "
			    "set but there is no tokenizer.ggml.tokens array");
		return;
	}
	n_tok = tok->count;
	/*
	 * llama.cpp's vocabulary loader stops at such a model: it reads no
	 * tokens, scores, types, merges or token ids, and takes the count of
	 * tokens from {arch}.vocab_size (models.tsv's n_vocab).
	 */
	if (novocab) {
		say(c, GGUF_W_NOTE, moff, "tokenizer.ggml.model is \"%.*s\": "
		    "llama.cpp reads none of the vocabulary's %s tokens, nor "
		    "the arrays and token ids that go with them",
		    (int)m.n, (const char *)m.p,
		    gguf_fmt_group(n_tok, g1, sizeof g1));
		return;
	}
	if (model == NULL)
		say(c, GGUF_W_ERROR, off, "tokenizer.ggml.tokens without "
		    "tokenizer.ggml.model: llama.cpp cannot tell how to "
		    "tokenize and refuses the model");
	check_array_len(c, "tokenizer.ggml.scores", n_tok);
	check_array_len(c, "tokenizer.ggml.token_type", n_tok);
	check_token_types(c, n_tok);
	check_token_ids(c, n_tok);
	/* A model the table knows has it from there (models.tsv). */
	if (((m.n == 4 && memcmp(m.p, "gpt2", 4) == 0) ||
	    (m.n == 6 && memcmp(m.p, "gemma4", 6) == 0)) &&
	    val_of(c, "tokenizer.ggml.merges", &off) == NULL &&
	    !table_checks(c))
		say(c, GGUF_W_ERROR, moff, "tokenizer.ggml.model is a BPE "
		    "tokenizer (gpt2, gemma4) but there is no "
		    "tokenizer.ggml.merges array");
	if (c->arch.n > 0) {
		vs = key_u64(c, arch_key(c, "vocab_size", k, sizeof k), &ok,
		    &off);
		if (ok && vs != n_tok)
			say(c, GGUF_W_WARN, off, "%s is %s but "
			    "tokenizer.ggml.tokens has %s", k,
			    gguf_fmt_group(vs, g1, sizeof g1),
			    gguf_fmt_group(n_tok, g2, sizeof g2));
	}
}

/* ------------------------------------------------------- hyper-parameters */

static const char *const required_hparams[] = {
	"context_length", "embedding_length", "block_count"
};

/* Hyper-parameters that may be an array with one element per block. */
static const char *const per_block[] = {
	"feed_forward_length", "attention.head_count",
	"attention.head_count_kv"
};

/* Whether the file describes a model (rather than an adapter, a vocab...). */
static int
is_model(struct checker *c)
{
	struct gguf_val	*v = gguf_kv_get(c->f, "general.type");
	struct gguf_str	 s;

	if (gguf_layout(c->f)->n_tensors == 0 ||
	    gguf_kind_of(c->f) != GGUF_KIND_MODEL)
		return 0;
	if (v == NULL || gguf_val_str(v, &s) != 0)
		return 1;
	return s.n == 5 && memcmp(s.p, "model", 5) == 0;
}

static void
check_hparams(struct checker *c)
{
	const struct gguf_tensor	*t;
	struct gguf_kv			*kv;
	uint64_t			 nb, i;
	int64_t				 off, b;
	size_t				 k;
	int				 ok;
	char				 key[256], pk[256], nm[128];

	if (c->arch.n == 0 || !is_model(c))
		return;
	for (k = 0; k < sizeof required_hparams / sizeof required_hparams[0];
	    k++) {
		arch_key(c, required_hparams[k], key, sizeof key);
		if (gguf_kv_find(c->f, key, strlen(key)) < 0)
			say(c, GGUF_W_WARN, -1, "no %s key: llama.cpp needs it "
			    "to load a %.*s model", key, (int)c->arch.n,
			    c->arch.p);
	}
	nb = key_u64(c, arch_key(c, "block_count", key, sizeof key), &ok,
	    &off);
	if (!ok)
		return;
	/* Per-block forms: one element per block, as llama.cpp requires. */
	for (k = 0; k < sizeof per_block / sizeof per_block[0]; k++) {
		kv = kv_of(c, arch_key(c, per_block[k], pk, sizeof pk), &off);
		if (kv != NULL && kv->val.type == GGUF_VT_ARR &&
		    kv->val.count != nb)
			say(c, GGUF_W_WARN, off, "%s has %llu element%s, one "
			    "per block, but %s is %llu", pk,
			    (unsigned long long)kv->val.count,
			    kv->val.count == 1 ? "" : "s", key,
			    (unsigned long long)nb);
	}
	for (i = 0; i < gguf_layout(c->f)->n_tensors; i++) {
		t = gguf_tensor_at(c->f, i);
		if ((b = gguf_tensor_block(&t->name)) >= 0 && (uint64_t)b >= nb) {
			say_t(c, GGUF_W_WARN, t, "tensor \"%s\" "
			    "is in block %lld but %s is %llu",
			    gguf_pname(t->name.p, t->name.n, nm, sizeof nm),
			    (long long)b, key, (unsigned long long)nb);
			break;
		}
	}
}

/* ----------------------------------------------------------- tensor shapes */

/*
 * The shapes llama.cpp's loader expects of the common tensors, from the
 * hyper-parameters: a hand edit of embedding_length or head_count_kv that
 * no longer matches the weights makes the model fail to load ("tensor has
 * wrong shape"). Only what every transformer architecture shares is
 * checked; a dimension whose hyper-parameter is absent is not.
 */
enum dimkind { D_NONE, D_EMBD, D_VOCAB, D_FF, D_Q, D_K, D_V, D_O };

static const struct shape_rule {
	const char	*name;		/* after "blk.N." for block tensors */
	int		 block;
	enum dimkind	 d0, d1;
	int		 d1_twice;	/* d1 may also be 2 x d1: gate and up
					   fused (Phi-3, ChatGLM) */
} shape_rules[] = {
	{ "token_embd.weight", 0, D_EMBD, D_VOCAB },
	{ "output.weight", 0, D_EMBD, D_VOCAB },
	{ "output_norm.weight", 0, D_EMBD, D_NONE },
	{ "attn_norm.weight", 1, D_EMBD, D_NONE },
	{ "ffn_norm.weight", 1, D_EMBD, D_NONE },
	{ "attn_q.weight", 1, D_EMBD, D_Q },
	{ "attn_k.weight", 1, D_EMBD, D_K },
	{ "attn_v.weight", 1, D_EMBD, D_V },
	{ "attn_output.weight", 1, D_O, D_EMBD },
	{ "ffn_up.weight", 1, D_EMBD, D_FF, 1 },
	{ "ffn_gate.weight", 1, D_EMBD, D_FF },
	{ "ffn_down.weight", 1, D_FF, D_EMBD },
};
#define N_SHAPE_RULES	(sizeof shape_rules / sizeof shape_rules[0])

static const char *const dim_source[] = {
	[D_NONE] = "", [D_EMBD] = "embedding_length",
	[D_VOCAB] = "the vocabulary", [D_FF] = "feed_forward_length",
	[D_Q] = "head_count x key_length",
	[D_K] = "head_count_kv x key_length",
	[D_V] = "head_count_kv x value_length",
	[D_O] = "head_count x value_length",
};

struct hparams {
	uint64_t	 embd, vocab;
	struct gguf_kv	*ff, *head, *head_kv, *klen, *vlen;
};

/*
 * The value of a hyper-parameter for block b (-1: not a block): a number,
 * or element b of a per-block array. 0 when absent or unusable.
 */
static uint64_t
hp_value(struct gguf_kv *kv, int64_t b)
{
	struct gguf_val	 e;
	struct gguf_err	 err;
	uint64_t	 v;

	if (kv == NULL)
		return 0;
	if (kv->val.type == GGUF_VT_ARR) {
		if (b < 0 || (uint64_t)b >= kv->val.count ||
		    kv->val.atype == GGUF_VT_STR ||
		    kv->val.atype == GGUF_VT_ARR ||
		    gguf_arr_get(&kv->val, (uint64_t)b, &e, &err) != 0 ||
		    int_value(&e, &v) != 0)
			return 0;
		return v;
	}
	return int_value(&kv->val, &v) == 0 ? v : 0;
}

static uint64_t
mul_or_0(uint64_t a, uint64_t b)
{
	return a != 0 && b != 0 && a <= UINT32_MAX && b <= UINT32_MAX ?
	    a * b : 0;
}

/* The expected size of a dimension in block b, or 0 for "any". */
static uint64_t
dim_want(const struct hparams *h, enum dimkind d, int64_t b)
{
	uint64_t	head = hp_value(h->head, b), kv, klen, vlen;
	uint64_t	head0 = hp_value(h->head, 0);

	kv = h->head_kv != NULL ? hp_value(h->head_kv, b) : head;
	/* As llama.cpp: without key_length, n_embd / the first block's heads. */
	klen = h->klen != NULL ? hp_value(h->klen, b) :
	    head0 != 0 && h->embd % head0 == 0 ? h->embd / head0 : 0;
	vlen = h->vlen != NULL ? hp_value(h->vlen, b) : klen;
	switch (d) {
	case D_EMBD:
		return h->embd;
	case D_VOCAB:
		return h->vocab;
	case D_FF:
		return hp_value(h->ff, b);
	case D_Q:
		return mul_or_0(head, klen);
	case D_K:
		return mul_or_0(kv, klen);
	case D_V:
		return mul_or_0(kv, vlen);
	case D_O:
		return mul_or_0(head, vlen);
	default:
		return 0;
	}
}

/* A wanted dimension: its size, or "any" when it is not known. */
static void
dim_text(uint64_t v, char *buf, size_t len)
{
	if (v == 0)
		snprintf(buf, len, "any");
	else
		snprintf(buf, len, "%llu", (unsigned long long)v);
}

static struct gguf_kv *
arch_kv(struct checker *c, const char *suffix)
{
	int64_t	off;
	char	key[256];

	return kv_of(c, arch_key(c, suffix, key, sizeof key), &off);
}

static void
check_shapes(struct checker *c)
{
	const struct gguf_tensor	*t, *first[N_SHAPE_RULES];
	const struct shape_rule		*r;
	struct hparams			 h;
	struct gguf_kv			*tok;
	uint64_t			 i, n[N_SHAPE_RULES], w0, w1;
	uint64_t			 want[N_SHAPE_RULES][2];
	int64_t				 b, off;
	size_t				 k, nl;
	const char			*rest;
	int				 ok;
	char				 key[256], nm[128], w0s[24], w1s[24];

	if (c->arch.n == 0 || !is_model(c))
		return;
	memset(&h, 0, sizeof h);
	h.embd = key_u64(c, arch_key(c, "embedding_length", key, sizeof key),
	    &ok, &off);
	tok = kv_of(c, "tokenizer.ggml.tokens", &off);
	if (tok != NULL && tok->val.type == GGUF_VT_ARR)
		h.vocab = tok->val.count;
	else
		h.vocab = key_u64(c, arch_key(c, "vocab_size", key,
		    sizeof key), &ok, &off);
	h.ff = arch_kv(c, "feed_forward_length");
	h.head = arch_kv(c, "attention.head_count");
	h.head_kv = arch_kv(c, "attention.head_count_kv");
	h.klen = arch_kv(c, "attention.key_length");
	h.vlen = arch_kv(c, "attention.value_length");
	memset(n, 0, sizeof n);
	for (i = 0; i < gguf_layout(c->f)->n_tensors; i++) {
		t = gguf_tensor_at(c->f, i);
		b = gguf_tensor_block(&t->name);
		rest = t->name.p;
		nl = (size_t)t->name.n;
		if (b >= 0) {
			const char *dot = memchr(rest + 4, '.', nl - 4);

			nl -= (size_t)(dot + 1 - rest);
			rest = dot + 1;
		}
		for (k = 0; k < N_SHAPE_RULES; k++) {
			r = &shape_rules[k];
			if (r->block == (b >= 0) && strlen(r->name) == nl &&
			    memcmp(r->name, rest, nl) == 0)
				break;
		}
		if (k == N_SHAPE_RULES)
			continue;
		w0 = dim_want(&h, r->d0, b);
		w1 = r->d1 == D_NONE ? 0 : dim_want(&h, r->d1, b);
		if ((w0 == 0 || t->ne[0] == w0) &&
		    (r->d1 == D_NONE || w1 == 0 || t->ne[1] == w1 ||
		    (r->d1_twice && t->ne[1] / 2 == w1 && t->ne[1] % 2 == 0)))
			continue;
		if (n[k]++ == 0) {
			first[k] = t;
			want[k][0] = w0;
			want[k][1] = w1;
		}
	}
	for (k = 0; k < N_SHAPE_RULES; k++) {
		if (n[k] == 0)
			continue;
		t = first[k];
		r = &shape_rules[k];
		gguf_pname(t->name.p, t->name.n, nm, sizeof nm);
		dim_text(want[k][0], w0s, sizeof w0s);
		dim_text(want[k][1], w1s, sizeof w1s);
		if (r->d1 == D_NONE)
			say_t(c, GGUF_W_WARN, t, "tensor \"%s\" has "
			    "rows of %llu where %.*s.%s is %s: llama.cpp "
			    "refuses such a model%s", nm,
			    (unsigned long long)t->ne[0], (int)c->arch.n,
			    c->arch.p, dim_source[r->d0], w0s,
			    n[k] > 1 ? "; more blocks alike" : "");
		else
			say_t(c, GGUF_W_WARN, t, "tensor \"%s\" is "
			    "[%llu, %llu] where the hyper-parameters make "
			    "[%s, %s] (%s by %s): llama.cpp refuses such a "
			    "model%s", nm, (unsigned long long)t->ne[0],
			    (unsigned long long)t->ne[1], w0s, w1s,
			    dim_source[r->d0], dim_source[r->d1],
			    n[k] > 1 ? "; more blocks alike" : "");
	}
}

/* -------------------------------------------------------------- the rest */

static int
is_quantized(uint32_t type)
{
	const struct gguf_type_info	*ti = gguf_ttype(type);

	return ti != NULL && ti->blck > 1;
}

/* Bools inside arrays; the reader checks only scalar ones, at open. */
static void
check_bool_arrays(struct checker *c)
{
	struct gguf_kv	*kv;
	struct gguf_val	 e;
	struct gguf_err	 err;
	uint64_t	 i, k, bad, first;
	unsigned	 v = 0;
	char		 nm[128];

	for (k = 0; k < gguf_layout(c->f)->n_kv; k++) {
		kv = gguf_kv_at(c->f, k);
		if (kv->val.type != GGUF_VT_ARR || kv->val.atype != GGUF_VT_BOOL)
			continue;
		bad = first = 0;
		for (i = 0; i < kv->val.count; i++) {
			if (gguf_arr_get(&kv->val, i, &e, &err) != 0)
				break;
			if (e.n >= 1 && e.p[0] > 1 && bad++ == 0) {
				first = i;
				v = e.p[0];
			}
		}
		if (bad > 0)
			say(c, GGUF_W_WARN, (int64_t)kv->off, "%s: %llu bool "
			    "element%s neither 0 nor 1 (element %llu is %u)",
			    gguf_pname(kv->key.p, kv->key.n, nm, sizeof nm),
			    (unsigned long long)bad, bad == 1 ? " is" : "s are",
			    (unsigned long long)first, v);
	}
}

/*
 * The float hyper-parameters whose value only makes sense positive and
 * finite. llama.cpp loads whatever they hold, and then computes with it:
 * a RoPE base of 0 or less makes every angle infinite or NaN, an epsilon
 * or a scaling factor below 0 or not finite the same of the norms and
 * positions. A scaling factor of 0 means none, to llama.cpp.
 */
static const struct {
	const char	*suffix;
	int		 zero_ok;
} positive_floats[] = {
	{ "rope.freq_base", 0 },
	{ "rope.scaling.factor", 1 },
	{ "attention.layer_norm_epsilon", 1 },
	{ "attention.layer_norm_rms_epsilon", 1 },
};

static void
check_floats(struct checker *c)
{
	struct gguf_kv	*kv;
	size_t		 k;
	int64_t		 off;
	double		 d;
	char		 key[160];

	if (c->arch.n == 0)
		return;
	for (k = 0; k < sizeof positive_floats / sizeof positive_floats[0];
	    k++) {
		kv = kv_of(c, arch_key(c, positive_floats[k].suffix, key,
		    sizeof key), &off);
		if (kv == NULL || (kv->val.type != GGUF_VT_F32 &&
		    kv->val.type != GGUF_VT_F64) ||
		    gguf_val_f64(&kv->val, &d) != 0)
			continue;
		if (isfinite(d) && (d > 0 || (positive_floats[k].zero_ok &&
		    fpclassify(d) == FP_ZERO)))
			continue;
		say(c, GGUF_W_WARN, off, "%s is %g: llama.cpp loads it and "
		    "computes with it, but it makes sense only %s", key, d,
		    positive_floats[k].zero_ok ? "0 or more, and finite" :
		    "more than 0, and finite");
	}
}

static void
check_general(struct checker *c)
{
	const struct gguf_layout	*lay = gguf_layout(c->f);
	uint64_t			 i, no, count;
	int64_t				 off, coff;
	int				 ok, cok;
	char				 nm[128];

	for (i = 0; i < lay->n_tensors; i++)
		if (is_quantized(gguf_tensor_at(c->f, i)->type))
			break;
	if (i < lay->n_tensors &&
	    gguf_kv_find(c->f, "general.quantization_version", 28) < 0)
		say(c, GGUF_W_WARN, -1, "tensor \"%s\" is quantized but "
		    "there is no general.quantization_version key",
		    gguf_pname(gguf_tensor_at(c->f, i)->name.p,
		    gguf_tensor_at(c->f, i)->name.n, nm, sizeof nm));

	no = key_u64(c, "split.no", &ok, &off);
	count = key_u64(c, "split.count", &cok, &coff);
	/* split.count 0: gguf-split's merge says "no longer split" so. */
	if (ok && cok && count > 0 && no >= count)
		say(c, GGUF_W_ERROR, off, "split.no is %llu but split.count "
		    "is %llu", (unsigned long long)no,
		    (unsigned long long)count);
	else if (ok != cok)
		say(c, GGUF_W_WARN, ok ? off : coff, "%s without %s",
		    ok ? "split.no" : "split.count",
		    ok ? "split.count" : "split.no");
}

static void
check_name(struct checker *c, const char *name)
{
	struct gguf_name	n;
	struct gguf_err		err;

	memset(&err, 0, sizeof err);
	if (gguf_name_parse(name, &n, &err) != 0)
		say(c, GGUF_W_NOTE, -1, "the file name could not be checked: "
		    "%s", err.msg);
	else if (!n.matched)
		say(c, GGUF_W_NOTE, -1, "the file name is off the naming "
		    "convention <BaseName>-<SizeLabel>[-<FineTune>]-"
		    "<Version>[-<Encoding>][-<Type>][-<Shard>].gguf");
}

/* ------------------------------------------------------------------ data */

/*
 * The data check scans every tensor's bytes (scan.h) in pieces of about
 * PIECE bytes (whole blocks). Threads take the next piece in file order
 * from a shared counter; each piece's result is kept and the pieces of a
 * tensor are added in order, so the findings do not depend on the number
 * of threads. A local file's piece is read through its descriptor into a
 * buffer of the thread's, which stays in the core's cache while it is
 * scanned; a remote file's is read by range into the same buffer; only a
 * file in memory is scanned where it lies, guarded. Before each piece the
 * file is checked to be as it was opened, and a read that comes short
 * (the file cut) or a change seen fails the run with "changed on disk".
 *
 * Reading through the file's mapping instead (each piece's pages mapped
 * in with one call, then given back behind the scan) was measured
 * against this on a 2-core virtual machine whose page cache reads at 15
 * GB/s (1 GiB models in the page cache, two threads, medians of 5 runs):
 * F32 92 ms against 48, F16 91 against 49, Q4_K 87 against 45 (`cat
 * FILE >/dev/null`: 70 ms), with twice the CPU time: every page mapped
 * in, read from memory and dropped costs more there than the copy of it
 * into a buffer the scan then reads from the cache. Memory stays one
 * buffer a thread whatever the model's size.
 */
#define PIECE		(1u << 20)
#define MAX_THREADS	256

struct piece {
	uint64_t		 tensor;	/* index in the file */
	uint64_t		 off;		/* bytes into its data */
	uint64_t		 len;
	struct gguf_scan	 res;
	int			 failed;	/* its message in the tensor's */
};

struct dtensor {
	uint64_t	 first;		/* its first piece */
	uint64_t	 n;		/* and how many */
	int		 local;		/* read through a descriptor */
	int		 failed;
	int		 changed;	/* the file changed on disk */
	struct gguf_err	 err;
};

struct dscan {
	struct gguf_file		*f;
	const struct gguf_stats_opts	*opts;
	struct piece			*p;
	uint64_t			 np;
	struct dtensor			*t;
	uint64_t			 next;		/* atomic */
	int				 stop;		/* atomic */
	pthread_mutex_t			 lock;
	uint64_t			 done, total;	/* elements */
	int				 cancelled;
};

struct mapscan {
	const uint8_t		*data;
	const struct gguf_tensor *t;
	struct piece		*p;
	int			 be;
	struct gguf_err		*err;
};

static int
map_cb(void *arg)
{
	struct mapscan	*m = arg;
	uint32_t	 blck = gguf_ttype(m->t->type)->blck;
	uint32_t	 bytes = gguf_ttype(m->t->type)->bytes;

	return gguf_scan(m->t->type, m->be, m->data + m->p->off, m->p->len,
	    m->p->off / bytes * blck, &m->p->res, m->err);
}

/*
 * Piece p of local tensor t read into buf: 0, or -1 with e set (the
 * file's change when it changed, as a read of the mapping would say).
 */
static int
read_piece(struct dscan *d, const struct gguf_tensor *t,
    const struct piece *p, uint8_t *buf, struct gguf_err *e)
{
	const struct gguf_file	*tf = gguf_tensor_file(d->f, t);
	struct gguf_source	*src = gguf_file_source(tf);
	struct gguf_srcerr	 se;

	if (gguf_file_changed(d->f, 0, e))
		return -1;
	gguf_io_map_read();
	memset(&se, 0, sizeof se);
	if (gguf_source_read(src, gguf_layout(tf)->data_off + t->offset +
	    p->off, buf, (size_t)p->len, &se) == 0)
		return 0;
	/* a read error of a file that has not changed: this tensor's */
	if (!gguf_file_changed(d->f, 0, e))
		gguf_errf(e, -1, "its data could not be read: %s", se.msg);
	return -1;
}

/*
 * Scans piece p, read into buf (PIECE bytes) or, in memory, where it
 * lies. 0, or -1 when the run must stop (the file changed on disk).
 */
static int
scan_piece(struct dscan *d, struct piece *p, uint8_t *buf)
{
	const struct gguf_tensor	*t = gguf_tensor_at(d->f, p->tensor);
	struct dtensor			*dt = &d->t[p->tensor];
	struct mapscan			 m;
	struct gguf_err			 e;
	int				 rc;

	memset(&e, 0, sizeof e);
	gguf_scan_init(&p->res);
	if (dt->local || (gguf_tensor_file(d->f, t) != NULL &&
	    !gguf_file_whole(gguf_tensor_file(d->f, t)))) {
		/* a local file, or one read by range (a server's) */
		rc = dt->local ? read_piece(d, t, p, buf, &e) :
		    gguf_tensor_read(d->f, t, p->off, buf, p->len, &e);
		if (rc == 0)
			rc = gguf_scan(t->type, gguf_layout(d->f)->be, buf,
			    p->len, p->off / gguf_ttype(t->type)->bytes *
			    gguf_ttype(t->type)->blck, &p->res, &e);
		if (rc == 0)
			return 0;
	} else {
		m.data = gguf_tensor_data(d->f, t, &e);
		m.t = t;
		m.p = p;
		m.be = gguf_layout(d->f)->be;
		m.err = &e;
		if (m.data != NULL && gguf_file_guard(d->f, map_cb, &m,
		    &e) == 0)
			return 0;
	}
	pthread_mutex_lock(&d->lock);
	if (!dt->failed) {
		dt->failed = 1;
		dt->err = e;
		/* "changed on disk", "changed on the server": the source's,
		   or a set's shard's (its name first) */
		dt->changed = strncmp(e.msg, "changed ", 8) == 0 ||
		    gguf_file_changed(d->f, 0, NULL);
	}
	pthread_mutex_unlock(&d->lock);
	p->failed = 1;
	return dt->changed ? -1 : 0;
}

static void *
dscan_worker(void *arg)
{
	struct dscan	*d = arg;
	struct piece	*p;
	uint8_t		*buf = gguf_huge_alloc(PIECE);
	uint64_t	 i, units;
	int		 stop;

	for (;;) {
		if (__atomic_load_n(&d->stop, __ATOMIC_ACQUIRE))
			break;
		if (d->opts->cancel != NULL &&
		    __atomic_load_n(d->opts->cancel, __ATOMIC_ACQUIRE)) {
			pthread_mutex_lock(&d->lock);
			d->cancelled = 1;
			pthread_mutex_unlock(&d->lock);
			__atomic_store_n(&d->stop, 1, __ATOMIC_RELEASE);
			break;
		}
		i = __atomic_fetch_add(&d->next, 1, __ATOMIC_RELAXED);
		if (i >= d->np)
			break;
		p = &d->p[i];
		stop = scan_piece(d, p, buf) != 0;
		units = p->len / gguf_ttype(gguf_tensor_at(d->f,
		    p->tensor)->type)->bytes * gguf_ttype(gguf_tensor_at(d->f,
		    p->tensor)->type)->blck;
		pthread_mutex_lock(&d->lock);
		d->done += units;
		if (!stop && d->opts->progress != NULL &&
		    d->opts->progress(d->opts->arg, d->done, d->total) != 0) {
			d->cancelled = 1;
			stop = 1;
		}
		pthread_mutex_unlock(&d->lock);
		if (stop) {
			__atomic_store_n(&d->stop, 1, __ATOMIC_RELEASE);
			break;
		}
	}
	gguf_huge_free(buf, PIECE);
	return NULL;
}

/* Runs the pieces on the threads opts asks for, the caller's included. */
static void
dscan_run(struct dscan *d)
{
	pthread_t	*tid;
	unsigned	 n = d->opts->threads, i, started = 0;

	if (n == 0)
		n = gguf_ncpu();
	if (n > MAX_THREADS)
		n = MAX_THREADS;
	if ((uint64_t)n > d->np)
		n = d->np > 0 ? (unsigned)d->np : 1;
	tid = xcalloc(n, sizeof *tid);
	for (i = 1; i < n; i++) {
		if (pthread_create(&tid[i], NULL, dscan_worker, d) != 0)
			break;
		started++;
	}
	dscan_worker(d);
	for (i = 1; i <= started; i++)
		pthread_join(tid[i], NULL);
	free(tid);
}

/*
 * The pieces of every tensor with data to scan; a tensor whose type
 * cannot be scanned is said here. Returns the number of pieces.
 */
static uint64_t
dscan_plan(struct checker *c, struct dscan *d)
{
	const struct gguf_tensor	*t;
	const struct gguf_type_info	*ti;
	struct gguf_err			 e;
	uint64_t			 i, off, len, step, np = 0, cap = 0;
	char				 nm[128];

	for (i = 0; i < gguf_layout(c->f)->n_tensors; i++) {
		t = gguf_tensor_at(c->f, i);
		d->t[i].first = np;
		if (t->flags & (GGUF_TENSOR_UNSIZED | GGUF_TENSOR_UNREADABLE))
			continue;	/* the reader has said why */
		if (t->nelem == 0)
			continue;
		memset(&e, 0, sizeof e);
		if (gguf_scan_check(t->type, gguf_layout(c->f)->be, &e) != 0) {
			say_t(c, GGUF_W_ERROR, t, "tensor \"%s\": "
			    "%s", gguf_pname(t->name.p, t->name.n, nm,
			    sizeof nm), e.msg);
			continue;
		}
		ti = gguf_ttype(t->type);
		d->t[i].local = gguf_tensor_file(c->f, t) != NULL &&
		    gguf_file_fd(gguf_tensor_file(c->f, t)) >= 0;
		step = PIECE / ti->bytes * ti->bytes;
		for (off = 0; off < t->nbytes; off += len) {
			len = t->nbytes - off < step ? t->nbytes - off : step;
			if (np == cap) {
				cap = cap ? 2 * cap : 1024;
				d->p = xreallocarray(d->p, cap, sizeof *d->p);
			}
			memset(&d->p[np], 0, sizeof d->p[np]);
			d->p[np].tensor = i;
			d->p[np].off = off;
			d->p[np].len = len;
			np++;
		}
		d->t[i].n = np - d->t[i].first;
		d->total += t->nelem;
	}
	return np;
}

/* The findings of tensor t from its scan. */
static void
data_findings(struct checker *c, const struct gguf_tensor *t,
    const struct gguf_scan *s)
{
	const struct gguf_type_info	*ti = gguf_ttype(t->type);
	uint64_t			 b0;
	char				 nm[128], g[32];

	gguf_pname(t->name.p, t->name.n, nm, sizeof nm);
	if (s->nnan > 0 || s->npinf > 0 || s->nninf > 0)
		say_t(c, GGUF_W_WARN, t, "tensor \"%s\" has %llu "
		    "NaN, %llu +Inf and %llu -Inf values, the first at "
		    "element %llu (row %llu, column %llu)", nm,
		    (unsigned long long)s->nnan, (unsigned long long)s->npinf,
		    (unsigned long long)s->nninf,
		    (unsigned long long)s->first_bad,
		    (unsigned long long)(s->first_bad / t->ne[0]),
		    (unsigned long long)(s->first_bad % t->ne[0]));
	else if (!s->nonzero && s->count > 1)
		say_t(c, GGUF_W_WARN, t, "tensor \"%s\": all %s "
		    "values are zero", nm, gguf_fmt_group(s->count, g,
		    sizeof g));
	if (s->nbadscale == 0)
		return;
	b0 = s->first_badscale * ti->blck;
	if (t->type == GGUF_T_MXFP4)
		say_t(c, GGUF_W_WARN, t, "tensor \"%s\": %llu "
		    "MXFP4 block%s the scale byte 0xff (NaN in the MX format, "
		    "2^127 to ggml), the first block %llu (elements %llu to "
		    "%llu)", nm, (unsigned long long)s->nbadscale,
		    s->nbadscale == 1 ? " has" : "s have",
		    (unsigned long long)s->first_badscale,
		    (unsigned long long)b0,
		    (unsigned long long)(b0 + ti->blck - 1));
	else
		say_t(c, GGUF_W_WARN, t, "tensor \"%s\": %llu "
		    "%s block%s a NaN or infinite scale (%s), the first block "
		    "%llu (elements %llu to %llu)", nm,
		    (unsigned long long)s->nbadscale, ti->name,
		    s->nbadscale == 1 ? " has" : "s have",
		    gguf_scan_scale_name(t->type),
		    (unsigned long long)s->first_badscale,
		    (unsigned long long)b0,
		    (unsigned long long)(b0 + ti->blck - 1));
}

/*
 * Tells a local file's source that its data is about to be read in
 * order (the kernel reads ahead far). A remote source is asked for what
 * each scan reads.
 */
static void
read_ahead(const struct gguf_file *f)
{
	struct gguf_source	*src = gguf_file_source(f);

	if (src != NULL && gguf_source_fd(src) >= 0)
		gguf_source_sequential(src, 0, gguf_layout(f)->file_size);
}

static int
check_data(struct checker *c, const struct gguf_stats_opts *uopts)
{
	static const struct gguf_stats_opts	 defaults;
	const struct gguf_tensor	*t;
	struct dscan			 d;
	struct gguf_scan		 s;
	uint64_t			 i, k, n = gguf_layout(c->f)->n_tensors;
	size_t				 sh;
	int				 rc = 0;
	char				 nm[128];

	memset(&d, 0, sizeof d);
	d.f = c->f;
	d.opts = uopts != NULL ? uopts : &defaults;
	d.t = xcalloc(n > 0 ? n : 1, sizeof *d.t);
	pthread_mutex_init(&d.lock, NULL);
	d.np = dscan_plan(c, &d);
	/* The reads go through the data in order: read ahead far. */
	if (gguf_n_shards(c->f) == 0)
		read_ahead(c->f);
	for (sh = 0; sh < gguf_n_shards(c->f); sh++)
		if (gguf_shard(c->f, sh) != NULL)
			read_ahead(gguf_shard(c->f, sh));
	if (d.np > 0)
		dscan_run(&d);
	for (i = 0; i < n; i++) {
		t = gguf_tensor_at(c->f, i);
		if (d.t[i].n == 0)
			continue;
		if (d.t[i].changed) {
			/* the file's (a shard's), not this tensor's: once */
			say(c, GGUF_W_ERROR, -1, "%s; the data check stopped "
			    "there", d.t[i].err.msg);
			break;	/* the rest cannot be trusted */
		}
		if (d.t[i].failed) {
			say_t(c, GGUF_W_ERROR, t, "tensor \"%s\": "
			    "%s", gguf_pname(t->name.p, t->name.n, nm,
			    sizeof nm), d.t[i].err.msg);
			continue;
		}
		/* pieces from d.next on were never taken: a cancelled run */
		if (d.t[i].first + d.t[i].n > d.next)
			break;
		gguf_scan_init(&s);
		for (k = 0; k < d.t[i].n; k++)
			gguf_scan_add(&s, &d.p[d.t[i].first + k].res);
		data_findings(c, t, &s);
	}
	if (d.cancelled)
		rc = GGUF_STATS_CANCELLED;
	pthread_mutex_destroy(&d.lock);
	free(d.p);
	free(d.t);
	return rc;
}

/* The architecture v names, in c->arch; none (n 0) if it names none. */
static void
set_arch(struct checker *c, struct gguf_val *v)
{
	if (v == NULL || gguf_val_str(v, &c->arch) != 0 || c->arch.n == 0 ||
	    c->arch.n > 64 || memchr(c->arch.p, '\0', c->arch.n) != NULL)
		c->arch.n = 0;
}

int
gguf_check_model(struct gguf_file *f, const char *name, unsigned flags,
    const struct gguf_stats_opts *opts, gguf_finding_fn fn, void *arg)
{
	struct checker	c;

	memset(&c, 0, sizeof c);
	c.f = f;
	c.fn = fn;
	c.arg = arg;
	set_arch(&c, gguf_kv_get(f, "general.architecture"));
	check_tokenizer(&c);
	/* The model check (model.h) has the architectures it knows. */
	if (c.arch.n == 0 || !gguf_model_known(c.arch.p, (size_t)c.arch.n)) {
		check_hparams(&c);
		check_shapes(&c);
	}
	check_general(&c);
	check_floats(&c);
	check_bool_arrays(&c);
	if (name != NULL)
		check_name(&c, name);
	if (flags & GGUF_CHECK_DATA)
		return check_data(&c, opts);
	return 0;
}

void
gguf_check_tokenizer(struct gguf_file *f, struct gguf_doc *d,
    gguf_finding_fn fn, void *arg)
{
	struct checker	c;

	memset(&c, 0, sizeof c);
	c.d = d;
	c.f = d != NULL ? gguf_doc_file(d) : f;
	c.fn = fn;
	c.arg = arg;
	set_arch(&c, d != NULL ? gguf_doc_get(d, "general.architecture", 20) :
	    gguf_kv_get(f, "general.architecture"));
	check_tokenizer(&c);
}
