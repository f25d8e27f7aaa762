/*
 * sync.c - a model's metadata against its upstream repository's files.
 *
 * What the converter writes, and from where (llama.cpp):
 *
 *	convert_hf_to_gguf.py, TextModel.set_gguf_parameters: the context
 *	length (the first of max_position_embeddings, n_ctx, n_positions,
 *	max_length, max_sequence_length, model_max_length), rope_theta,
 *	rms_norm_eps (or norm_eps), and the shape: hidden_size,
 *	num_hidden_layers, num_attention_heads, num_key_value_heads,
 *	intermediate_size. ModelBase.load_hparams lets text_config's values
 *	win over the top level's.
 *	LlamaModel.set_gguf_parameters: rope_scaling linear (type, factor);
 *	LlamaModel.generate_extra_tensors: llama3 scaling as the tensor
 *	rope_freqs.weight. Qwen2Model and Qwen3Model: rope_scaling yarn (type,
 *	factor, original_context_length). Gemma2Model, Gemma3Model and
 *	Phi3MiniModel: sliding_window; Gemma3Model: linear scaling;
 *	Phi3MiniModel: longrope as the tensors rope_factors_long/short.
 *	gguf-py/gguf/vocab.py, SpecialVocab._try_load_from_tokenizer_json:
 *	only with tokenizer_config.json, the chat template (its chat_template,
 *	a string or a list of {name, template}; else chat_template.jinja,
 *	with the .jinja files of additional_chat_templates as named ones; else
 *	chat_template.json's), add_TYPE_token, and TYPE_token (a string or
 *	{content}) looked up to an id; _try_load_from_config_json: else
 *	config.json's TYPE_token_id when it is an integer under the
 *	vocabulary's size. GGUFWriter.add_chat_template: a template named
 *	"default" is tokenizer.chat_template, another tokenizer.chat_template.
 *	NAME (other than letters, digits and _ as _), their names in
 *	tokenizer.chat_templates.
 *
 * The converter looks a token's text up in tokenizer.json; here it is
 * looked up in the model's own vocabulary, which the converter made from
 * that file.
 */
#include "config.h"

#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "gguf.h"
#include "hf.h"
#include "http.h"
#include "xmalloc.h"
#include "jinja/jinja.h"
#include "sync/sync.h"

#define SYNC_MAX_FILE	(16u << 20)	/* bytes of one upstream file */
#define SYNC_NOW	1753000000LL	/* strftime_now in the rendering */
#define SYNC_MAX_LINES	2000		/* lines of a rendering diffed */
#define SYNC_SHOW_LINES	12		/* differing lines shown */

#define ROPE_LINEAR	0x1
#define ROPE_YARN	0x2
#define ROPE_LLAMA3	0x4
#define ROPE_LONGROPE	0x8

/* The families whose names differ between Hugging Face and GGUF. */
static const struct sync_arch {
	const char	*hf;		/* config.json architectures[0] */
	const char	*model_type;	/* config.json model_type */
	const char	*arch;		/* general.architecture */
	const char	*cls;		/* the converter's class */
	unsigned	 rope;		/* rope_scaling types it maps */
	int		 swa;		/* it writes sliding_window */
} sync_archs[] = {
	{ "LlamaForCausalLM", "llama", "llama", "LlamaModel",
	    ROPE_LINEAR | ROPE_LLAMA3, 0 },
	{ "MistralForCausalLM", "mistral", "llama", "LlamaModel",
	    ROPE_LINEAR | ROPE_LLAMA3, 0 },
	{ "Qwen2ForCausalLM", "qwen2", "qwen2", "Qwen2Model", ROPE_YARN, 0 },
	{ "Qwen3ForCausalLM", "qwen3", "qwen3", "Qwen3Model", ROPE_YARN, 0 },
	{ "GemmaForCausalLM", "gemma", "gemma", "GemmaModel", 0, 0 },
	{ "Gemma2ForCausalLM", "gemma2", "gemma2", "Gemma2Model", 0, 1 },
	{ "Gemma3ForCausalLM", "gemma3_text", "gemma3", "Gemma3Model",
	    ROPE_LINEAR, 1 },
	{ "Gemma3ForConditionalGeneration", "gemma3", "gemma3", "Gemma3Model",
	    ROPE_LINEAR, 1 },
	{ "Phi3ForCausalLM", "phi3", "phi3", "Phi3MiniModel", ROPE_LONGROPE,
	    1 },
};

/* SpecialVocab's token types and the keys GGUFWriter gives them. */
static const struct sync_tok {
	const char	*typ;
	const char	*key;
	const char	*effect;
} sync_toks[] = {
	{ "bos", "tokenizer.ggml.bos_token_id",
	    "prompts start with another token than the model was trained "
	    "with" },
	{ "eos", "tokenizer.ggml.eos_token_id",
	    "generation does not stop at the end of a turn" },
	{ "unk", "tokenizer.ggml.unknown_token_id",
	    "text the vocabulary cannot spell becomes another token" },
	{ "sep", "tokenizer.ggml.seperator_token_id",
	    "inputs of two parts (reranking) are joined with another token" },
	{ "pad", "tokenizer.ggml.padding_token_id",
	    "batches are padded with another token" },
	{ "cls", "tokenizer.ggml.cls_token_id",
	    "classification and embeddings read another token's output" },
	{ "mask", "tokenizer.ggml.mask_token_id",
	    "masked-token prediction reads another token" },
};

/* What one comparison works with. */
struct sctx {
	const struct sync_model	*m;
	const char		*source;
	struct sync_report	*r;
	jv			*config;	/* config.json */
	jv			*text;		/* its text_config, or NULL */
	jv			*tcfg;		/* tokenizer_config.json, or NULL */
	const struct sync_arch	*arch;
	struct gguf_val		*tokens;	/* tokenizer.ggml.tokens */
	int64_t			 up_eos;	/* upstream's eos id, or -1 */
	int			 bad;		/* a value refused: msg says */
	char			*msg;
	size_t			 len;
};

static char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static int	bad_text(struct sctx *, const char *, const char *, size_t);

static char *
fmt(const char *f, ...)
{
	va_list	 ap;
	char	*s;
	int	 n;

	va_start(ap, f);
	n = vsnprintf(NULL, 0, f, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	s = xmalloc((size_t)n + 1);
	va_start(ap, f);
	vsnprintf(s, (size_t)n + 1, f, ap);
	va_end(ap);
	return s;
}

/* ------------------------------------------------------------- the source */

/*
 * The file at url (an hf:// name or an http(s) URL) into *text (NUL
 * added) and *n: 0, 1 when the server has no such file, -1 with msg.
 */
static int
fetch(const char *url, char **text, size_t *n, char *msg, size_t len)
{
	struct gguf_err		 err;
	struct gguf_http	*h;
	const uint8_t		*head;
	char			*buf;
	size_t			 hl;
	uint64_t		 size;

	memset(&err, 0, sizeof err);
	if ((h = gguf_http_open(url, 1u << 20, NULL, 0, NULL, &err)) == NULL) {
		if (strncmp(err.msg, "not found on the server", 23) == 0)
			return 1;
		snprintf(msg, len, "%s: %s", url, err.msg);
		return -1;
	}
	if ((size = gguf_http_size(h)) > SYNC_MAX_FILE) {
		snprintf(msg, len, "%s: %llu bytes, more than the %u MiB an "
		    "upstream file may have", url, (unsigned long long)size,
		    SYNC_MAX_FILE >> 20);
		gguf_http_close(h);
		return -1;
	}
	head = gguf_http_head(h, &hl);
	buf = xmalloc((size_t)size + 1);
	if (hl > size)
		hl = (size_t)size;
	memcpy(buf, head, hl);
	if (hl < size && gguf_http_read(h, hl, buf + hl, (size_t)size - hl,
	    &err) != 0) {
		snprintf(msg, len, "%s: %s", url, err.msg);
		free(buf);
		gguf_http_close(h);
		return -1;
	}
	buf[size] = '\0';
	gguf_http_close(h);
	*text = buf;
	*n = (size_t)size;
	return 0;
}

/*
 * sync_read_file for a source on a server: hf://OWNER/REPO[@REVISION]
 * (the file hf://OWNER/REPO/NAME[@REVISION], as the Hub resolves it) or
 * an http(s) URL of the repository's folder (URL/NAME).
 */
static int
read_remote(const char *source, const char *name, char **text, size_t *n,
    char *msg, size_t len)
{
	const char	*at = NULL;
	char		*url;
	size_t		 sl = strlen(source);
	int		 rc;

	while (sl > 0 && source[sl - 1] == '/')
		sl--;
	if (strncmp(source, "hf://", 5) == 0)
		at = strchr(source + 5, '@');
	if (at != NULL)
		url = fmt("%.*s/%s%s", (int)(at - source), source, name, at);
	else
		url = fmt("%.*s/%s", (int)sl, source, name);
	rc = fetch(url, text, n, msg, len);
	free(url);
	return rc;
}

/* Whether path is dir or under it (both resolved). */
static int
under(const char *path, const char *dir)
{
	size_t	n = strlen(dir);

	if (n > 0 && dir[n - 1] == '/')
		n--;		/* the root */
	return strncmp(path, dir, n) == 0 && (path[n] == '/' ||
	    path[n] == '\0');
}

/*
 * 0 if the file path of the folder source (there) leads, through links,
 * to a file in the folder, or into the blobs/ of the Hugging Face cache
 * the folder is a snapshot of (SNAPSHOT is CACHE/snapshots/REV, its
 * files links to ../../blobs/HASH); else -1 with msg naming where it
 * leads. A file upstream's folder holds must not bring in another's: a
 * chat_template.jinja linked to a token file would put the token in the
 * report and in the model.
 */
static int
inside(const char *source, const char *path, char *msg, size_t len)
{
	char	*root, *real, *blobs, *s;
	int	 ok;

	if ((real = realpath(path, NULL)) == NULL)
		return 0;	/* not there: the open says so */
	if ((root = realpath(source, NULL)) == NULL) {
		free(real);
		return 0;
	}
	ok = under(real, root) && strcmp(real, root) != 0;
	if (!ok && (s = strrchr(root, '/')) != NULL && s > root) {
		/* .../snapshots/REV: the cache's blobs/ beside snapshots/ */
		*s = '\0';
		if ((s = strrchr(root, '/')) != NULL &&
		    strcmp(s + 1, "snapshots") == 0) {
			*s = '\0';
			blobs = fmt("%s/blobs", root);
			ok = under(real, blobs) && strcmp(real, blobs) != 0;
			free(blobs);
		}
	}
	if (!ok)
		snprintf(msg, len, "%s: a link to %s, outside the folder: not "
		    "read", path, real);
	free(root);
	free(real);
	return ok ? 0 : -1;
}

int
sync_read_file(const char *source, const char *name, char **text,
    size_t *n, char *msg, size_t len)
{
	struct stat	 st;
	char		*path, *buf;
	size_t		 got = 0;
	ssize_t		 k;
	int		 fd;

	*text = NULL;
	*n = 0;
	if (gguf_is_url(source))
		return read_remote(source, name, text, n, msg, len);
	path = fmt("%s/%s", source, name);
	if (inside(source, path, msg, len) != 0) {
		free(path);
		return -1;
	}
	if ((fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK)) == -1) {
		if (errno == ENOENT) {
			free(path);
			return 1;
		}
		snprintf(msg, len, "%s: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		snprintf(msg, len, "%s: not a regular file", path);
		goto fail;
	}
	if ((uint64_t)st.st_size > SYNC_MAX_FILE) {
		snprintf(msg, len, "%s: %lld bytes, more than the %u MiB an "
		    "upstream file may have", path, (long long)st.st_size,
		    SYNC_MAX_FILE >> 20);
		goto fail;
	}
	buf = xmalloc((size_t)st.st_size + 1);
	while (got < (size_t)st.st_size) {
		k = read(fd, buf + got, (size_t)st.st_size - got);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			snprintf(msg, len, "%s: %s", path, strerror(errno));
			free(buf);
			goto fail;
		}
		if (k == 0)
			break;
		got += (size_t)k;
	}
	buf[got] = '\0';
	close(fd);
	free(path);
	*text = buf;
	*n = got;
	return 0;
fail:
	close(fd);
	free(path);
	return -1;
}

/*
 * Reads and parses the JSON file name of the source: 0 with *out, 1 when
 * there is no such file, -1 with msg. The top level must be an object.
 */
static int
load_json(struct sctx *c, const char *name, jv **out)
{
	char	*text, err[300];
	size_t	 n;
	int	 rc;

	*out = NULL;
	rc = sync_read_file(c->source, name, &text, &n, c->msg, c->len);
	if (rc != 0)
		return rc;
	*out = jv_parse_json(text, n, err, sizeof err);
	free(text);
	if (*out == NULL) {
		snprintf(c->msg, c->len, "%s/%s: not JSON: %s", c->source,
		    name, err);
		return -1;
	}
	if (jv_kind(*out) != JV_DICT) {
		snprintf(c->msg, c->len, "%s/%s: not a JSON object", c->source,
		    name);
		jv_unref(*out);
		*out = NULL;
		return -1;
	}
	return 0;
}

/* A hyper-parameter: text_config's first, as load_hparams merges them. */
static jv *
hparam(struct sctx *c, const char *name)
{
	jv	*v;

	if (c->text != NULL && (v = jv_dict_get(c->text, name)) != NULL)
		return v;
	return jv_dict_get(c->config, name);
}

static int
jv_isnum(const jv *v)
{
	return v != NULL && (jv_kind(v) == JV_INT || jv_kind(v) == JV_FLOAT);
}

static double
jv_num(const jv *v)
{
	return jv_kind(v) == JV_INT ? (double)jv_int_value(v) :
	    jv_float_value(v);
}

/* ------------------------------------------------------------ differences */

/* Upstream gives a value for key. */
static void
seen(struct sctx *c, const char *key)
{
	struct sync_report	*r = c->r;
	size_t			 i;

	for (i = 0; i < r->n_compared; i++)
		if (strcmp(r->compared[i], key) == 0)
			return;
	r->compared = xreallocarray(r->compared, r->n_compared + 1,
	    sizeof *r->compared);
	r->compared[r->n_compared++] = xstrdup(key);
}

static void
add_diff(struct sctx *c, enum sync_kind kind, const char *key, char *file,
    char *upstream, const char *source, const char *effect, char *edit)
{
	struct sync_report	*r = c->r;
	struct sync_diff	*d;

	seen(c, key);
	r->diffs = xreallocarray(r->diffs, r->n + 1, sizeof *r->diffs);
	d = &r->diffs[r->n++];
	memset(d, 0, sizeof *d);
	d->kind = kind;
	d->key = xstrdup(key);
	d->file = file;
	d->upstream = upstream;
	d->source = xstrdup(source);
	d->effect = xstrdup(effect);
	d->edit = edit;
	d->selected = 1;
	if (kind == SYNC_SHAPE)
		r->shape_mismatch = 1;
}

static void
add_note(struct sctx *c, char *note)
{
	c->r->notes = xreallocarray(c->r->notes, c->r->n_notes + 1,
	    sizeof *c->r->notes);
	c->r->notes[c->r->n_notes++] = note;
}

/* A scalar of the file as text, or "(none)". */
static char *
file_text(struct gguf_val *v)
{
	char		buf[64], tb[32];
	struct gguf_str	s;

	if (v == NULL)
		return xstrdup("(none)");
	if (v->type == GGUF_VT_STR) {
		gguf_val_str(v, &s);
		return xstrndup(s.p, (size_t)s.n);
	}
	if (v->type == GGUF_VT_ARR)
		return fmt("%s of %llu", gguf_vtype_text(v->type, v->atype, tb,
		    sizeof tb), (unsigned long long)v->count);
	return xstrdup(gguf_val_scalar_text(v, buf, sizeof buf));
}

/* The text of token id of the vocabulary, or NULL. */
static char *
token_text(struct sctx *c, uint64_t id)
{
	struct gguf_val	e;
	struct gguf_err	err;
	struct gguf_str	s;

	if (c->tokens == NULL || id >= c->tokens->count ||
	    gguf_arr_get(c->tokens, id, &e, &err) != 0 ||
	    gguf_val_str(&e, &s) != 0)
		return NULL;
	return xstrndup(s.p, (size_t)s.n);
}

/* "128009 `<|eot_id|>`", or the id alone. */
static char *
token_show(struct sctx *c, uint64_t id)
{
	char	*t, *s;

	if ((t = token_text(c, id)) == NULL)
		return fmt("%llu", (unsigned long long)id);
	s = fmt("%llu `%s`", (unsigned long long)id, t);
	free(t);
	return s;
}

/* The id of the token spelled text in the vocabulary, or -1. */
static int64_t
token_find(struct sctx *c, const char *text)
{
	struct gguf_val	e;
	struct gguf_err	err;
	struct gguf_str	s;
	size_t		n = strlen(text);
	uint64_t	i;

	if (c->tokens == NULL)
		return -1;
	for (i = 0; i < c->tokens->count; i++) {
		if (gguf_arr_get(c->tokens, i, &e, &err) != 0 ||
		    gguf_val_str(&e, &s) != 0)
			continue;
		if (s.n == n && memcmp(s.p, text, n) == 0)
			return (int64_t)i;
	}
	return -1;
}

/* Upstream's u32 against the file's key; a difference if they differ. */
static void
cmp_u32(struct sctx *c, enum sync_kind kind, const char *key, uint64_t up,
    const char *source, const char *effect, int writable)
{
	struct gguf_val	*v = c->m->get(c->m->arg, key);
	uint64_t	 have;

	seen(c, key);
	if (v != NULL && v->type != GGUF_VT_ARR && gguf_val_u64(v, &have) ==
	    0 && have == up)
		return;
	add_diff(c, kind, key, file_text(v), fmt("%llu",
	    (unsigned long long)up), source, effect, writable ?
	    fmt("set %s:u32 %llu", key, (unsigned long long)up) : NULL);
}

/* The same float32: what the converter writes of a double. */
static int
same_f32(double a, double b)
{
	float	x = (float)a, y = (float)b;

	return memcmp(&x, &y, sizeof x) == 0;
}

/*
 * Upstream's up, from source ("FILE FIELD"; field, if not NULL, is the
 * field of FIELD it is): -1 with msg (once) if it is not a float32 the
 * converter writes, a finite number other than -0 (as `set` refuses).
 */
static int
bad_f32(struct sctx *c, double up, const char *source, const char *field)
{
	const char	*sp = strchr(source, ' ');
	float		 f = (float)up;
	char		 why[96];

	if (isfinite(f) && !(fpclassify(f) == FP_ZERO && signbit(f)))
		return 0;
	if (isnan(up))
		snprintf(why, sizeof why, "NaN is not a number");
	else if (isinf(up))
		snprintf(why, sizeof why, "%sInfinity is not a finite number",
		    up < 0 ? "-" : "");
	else if (isinf(f))
		snprintf(why, sizeof why, "%g is out of range for f32 (at most "
		    "%.9g)", up, (double)FLT_MAX);
	else
		snprintf(why, sizeof why, "-0 (a negative zero) is not a "
		    "value to give it");
	if (!c->bad)
		snprintf(c->msg, c->len, "%s/%.*s: %s%s%s: %s", c->source,
		    sp != NULL ? (int)(sp - source) : (int)strlen(source),
		    source, sp != NULL ? sp + 1 : "", field != NULL ? "." : "",
		    field != NULL ? field : "", why);
	c->bad = 1;
	return -1;
}

static void
cmp_f32(struct sctx *c, const char *key, double up, const char *source,
    const char *field, const char *effect)
{
	struct gguf_val	*v = c->m->get(c->m->arg, key);
	double		 have;

	if (bad_f32(c, up, source, field) != 0)
		return;
	seen(c, key);
	if (v != NULL && v->type != GGUF_VT_ARR && gguf_val_f64(v, &have) ==
	    0 && same_f32(have, up))
		return;
	add_diff(c, SYNC_HPARAM, key, file_text(v), fmt("%.9g", (float)up),
	    source, effect, fmt("set %s:f32 %.9g", key, (float)up));
}

static void
cmp_str(struct sctx *c, enum sync_kind kind, const char *key,
    const char *up, const char *source, const char *effect)
{
	struct gguf_val	*v = c->m->get(c->m->arg, key);
	struct gguf_str	 s;
	char		*q;

	seen(c, key);
	if (v != NULL && gguf_val_str(v, &s) == 0 && s.n == strlen(up) &&
	    memcmp(s.p, up, (size_t)s.n) == 0)
		return;
	q = gguf_str_cquote(up, strlen(up));
	add_diff(c, kind, key, file_text(v), xstrdup(up), source, effect,
	    fmt("set %s:str %s", key, q));
	free(q);
}

static void
cmp_bool(struct sctx *c, const char *key, int up, const char *source,
    const char *effect)
{
	struct gguf_val	*v = c->m->get(c->m->arg, key);

	seen(c, key);
	if (v != NULL && v->type == GGUF_VT_BOOL && (gguf_val_bits(v) != 0) ==
	    (up != 0))
		return;
	add_diff(c, SYNC_TOKEN, key, file_text(v), xstrdup(up ? "true" :
	    "false"), source, effect, fmt("set %s:bool %s", key, up ? "true" :
	    "false"));
}

/* ------------------------------------------------------------------ shape */

static const char *
arch_key(struct sctx *c, const char *suffix, char *buf, size_t len)
{
	snprintf(buf, len, "%s.%s", c->arch->arch, suffix);
	return buf;
}

static void
cmp_shape(struct sctx *c)
{
	static const struct {
		const char	*hf;
		const char	*key;
	} shape[] = {
		{ "hidden_size", "embedding_length" },
		{ "num_hidden_layers", "block_count" },
		{ "num_attention_heads", "attention.head_count" },
		{ "num_key_value_heads", "attention.head_count_kv" },
		{ "intermediate_size", "feed_forward_length" },
	};
	struct gguf_val	*v;
	char		 key[128], src[96];
	uint64_t	 have;
	size_t		 i;
	jv		*u;

	for (i = 0; i < sizeof shape / sizeof shape[0]; i++) {
		u = hparam(c, shape[i].hf);
		if (u == NULL || jv_kind(u) != JV_INT)
			continue;
		arch_key(c, shape[i].key, key, sizeof key);
		seen(c, key);
		v = c->m->get(c->m->arg, key);
		/* A per-layer array is not the one number upstream has. */
		if (v != NULL && v->type == GGUF_VT_ARR)
			continue;
		if (v != NULL && gguf_val_u64(v, &have) == 0 &&
		    (long long)have == jv_int_value(u))
			continue;
		snprintf(src, sizeof src, "config.json %s", shape[i].hf);
		add_diff(c, SYNC_SHAPE, key, file_text(v), fmt("%lld",
		    jv_int_value(u)), src, "the folder is not this model's: "
		    "its shape differs", NULL);
	}
	u = hparam(c, "vocab_size");
	if (u != NULL && jv_kind(u) == JV_INT && c->tokens != NULL &&
	    (long long)c->tokens->count != jv_int_value(u))
		add_diff(c, SYNC_SHAPE, "tokenizer.ggml.tokens",
		    fmt("%llu tokens", (unsigned long long)c->tokens->count),
		    fmt("%lld tokens", jv_int_value(u)),
		    "config.json vocab_size", "the folder is not this model's: "
		    "its vocabulary has another size", NULL);
}

/* ------------------------------------------------------ hyper-parameters */

static void
cmp_rope_scaling(struct sctx *c)
{
	static const char *const rkeys[] = { "rope.scaling.type",
	    "rope.scaling.factor", "rope.scaling.original_context_length" };
	jv		*rs, *t, *f, *o;
	const char	*type = NULL, *src = "config.json rope_scaling";
	char		 key[128];
	struct gguf_val	*v;
	struct gguf_str	 s;

	if ((rs = hparam(c, "rope_scaling")) == NULL ||
	    jv_kind(rs) != JV_DICT) {
		rs = hparam(c, "rope_parameters");
		src = "config.json rope_parameters";
	}
	if (rs != NULL && jv_kind(rs) == JV_DICT) {
		if ((t = jv_dict_get(rs, "rope_type")) == NULL)
			t = jv_dict_get(rs, "type");
		if (t != NULL && jv_kind(t) == JV_STR)
			type = jv_str_ptr(t);
	}
	if (type == NULL || strcmp(type, "default") == 0) {
		/* Upstream does not scale: the file should not either. */
		v = c->m->get(c->m->arg, arch_key(c, rkeys[0], key,
		    sizeof key));
		if (v != NULL && gguf_val_str(v, &s) == 0 && !(s.n == 4 &&
		    memcmp(s.p, "none", 4) == 0))
			add_diff(c, SYNC_HPARAM, key, file_text(v),
			    xstrdup("(none)"), "config.json rope_scaling",
			    "RoPE is scaled though upstream's configuration "
			    "does not scale it (remove the rope.scaling keys "
			    "if that was not set on purpose)", NULL);
		return;
	}
	f = jv_dict_get(rs, "factor");
	if ((strcmp(type, "linear") == 0 && (c->arch->rope & ROPE_LINEAR)) ||
	    (strcmp(type, "yarn") == 0 && (c->arch->rope & ROPE_YARN))) {
		if (!jv_isnum(f)) {
			add_note(c, fmt("%s: %s scaling without a factor: the "
			    "converter writes no rope.scaling keys", src,
			    type));
			return;
		}
		cmp_str(c, SYNC_HPARAM, arch_key(c, rkeys[0], key, sizeof key),
		    type, src, type[0] == 'y' ? "contexts past the original "
		    "length degrade: YaRN is off" : "contexts past the "
		    "original length degrade: linear scaling is off");
		cmp_f32(c, arch_key(c, rkeys[1], key, sizeof key), jv_num(f),
		    src, "factor", "RoPE is scaled by another factor than upstream's");
		if (type[0] != 'y')
			return;
		o = jv_dict_get(rs, "original_max_position_embeddings");
		if (o == NULL || jv_kind(o) != JV_INT || jv_int_value(o) < 0) {
			add_note(c, fmt("%s: yarn scaling without an integer "
			    "original_max_position_embeddings: the converter "
			    "fails on it", src));
			return;
		}
		cmp_u32(c, SYNC_HPARAM, arch_key(c, rkeys[2], key, sizeof key),
		    (uint64_t)jv_int_value(o), src, "YaRN scales from "
		    "another original context length than upstream's", 1);
		return;
	}
	if (strcmp(type, "llama3") == 0 && (c->arch->rope & ROPE_LLAMA3)) {
		if (!c->m->has_tensor(c->m->arg, "rope_freqs.weight"))
			add_diff(c, SYNC_HPARAM, "rope_freqs.weight",
			    xstrdup("(no tensor)"), xstrdup("a tensor of "
			    "frequency factors"), src, "contexts past the "
			    "original length degrade: llama3 scaling is a "
			    "tensor the converter makes (convert the model "
			    "again)", NULL);
		return;
	}
	if (strcmp(type, "longrope") == 0 && (c->arch->rope & ROPE_LONGROPE)) {
		if (!c->m->has_tensor(c->m->arg, "rope_factors_long.weight"))
			add_diff(c, SYNC_HPARAM, "rope_factors_long.weight",
			    xstrdup("(no tensor)"), xstrdup("tensors of "
			    "frequency factors"), src, "long contexts degrade: "
			    "longrope scaling is tensors the converter makes "
			    "(convert the model again)", NULL);
		return;
	}
	add_note(c, fmt("%s: %s scaling is not one %s maps to metadata: not "
	    "compared", src, type, c->arch->cls));
}

static void
cmp_hparams(struct sctx *c)
{
	static const char *const ctx_names[] = { "max_position_embeddings",
	    "n_ctx", "n_positions", "max_length", "max_sequence_length",
	    "model_max_length" };
	char		 key[128], src[96];
	jv		*u;
	size_t		 i;
	struct gguf_val	*v;
	uint64_t	 have;

	for (i = 0; i < sizeof ctx_names / sizeof ctx_names[0]; i++)
		if ((u = hparam(c, ctx_names[i])) != NULL)
			break;
	if (u != NULL && jv_kind(u) == JV_INT && jv_int_value(u) > 0) {
		const char	*effect = "llama.cpp allows a longer context "
		    "than the model was trained for: output degrades past it";

		arch_key(c, "context_length", key, sizeof key);
		v = c->m->get(c->m->arg, key);
		if (v == NULL || gguf_val_u64(v, &have) != 0 ||
		    (long long)have < jv_int_value(u))
			effect = "the context is capped below the length "
			    "upstream supports";
		snprintf(src, sizeof src, "config.json %s", ctx_names[i]);
		cmp_u32(c, SYNC_HPARAM, key, (uint64_t)jv_int_value(u), src,
		    effect, 1);
	}
	if (jv_isnum(u = hparam(c, "rope_theta")))
		cmp_f32(c, arch_key(c, "rope.freq_base", key, sizeof key),
		    jv_num(u), "config.json rope_theta", NULL, "positions are "
		    "encoded with another base frequency: output degrades");
	else if ((u = hparam(c, "rope_parameters")) != NULL &&
	    jv_kind(u) == JV_DICT && jv_isnum(u = jv_dict_get(u,
	    "rope_theta")))
		cmp_f32(c, arch_key(c, "rope.freq_base", key, sizeof key),
		    jv_num(u), "config.json rope_parameters.rope_theta", NULL,
		    "positions are encoded with another base frequency: "
		    "output degrades");
	if (jv_isnum(u = hparam(c, "rms_norm_eps")) ||
	    jv_isnum(u = hparam(c, "norm_eps")))
		cmp_f32(c, arch_key(c, "attention.layer_norm_rms_epsilon", key,
		    sizeof key), jv_num(u), "config.json rms_norm_eps", NULL,
		    "normalization differs from training");
	if (c->arch->swa && (u = hparam(c, "sliding_window")) != NULL &&
	    jv_kind(u) == JV_INT && jv_int_value(u) >= 0)
		cmp_u32(c, SYNC_HPARAM, arch_key(c, "attention.sliding_window",
		    key, sizeof key), (uint64_t)jv_int_value(u),
		    "config.json sliding_window", "sliding-window layers "
		    "attend over another span than trained", 1);
	cmp_rope_scaling(c);
}

/* ---------------------------------------------------------------- tokens */

/* The text of tokenizer_config.json's TYPE_token (of *n bytes if n is
   not NULL), or NULL. */
static const char *
tcfg_token(struct sctx *c, const char *typ, size_t *n)
{
	char	 name[32];
	jv	*e;

	if (c->tcfg == NULL)
		return NULL;
	snprintf(name, sizeof name, "%s_token", typ);
	if ((e = jv_dict_get(c->tcfg, name)) == NULL)
		return NULL;
	if (jv_kind(e) == JV_DICT)
		e = jv_dict_get(e, "content");
	if (e == NULL || jv_kind(e) != JV_STR)
		return NULL;
	if (n != NULL)
		*n = jv_str_len(e);
	return jv_str_ptr(e);
}

/* -1 with msg: a token text the vocabulary does not hold. */
static int
cmp_tokens(struct sctx *c)
{
	const struct sync_tok	*t;
	const char		*text;
	char			 name[32], src[64], *up;
	int64_t			 id;
	size_t			 i, tlen;
	jv			*u;
	struct gguf_val		*v;
	uint64_t		 have;

	for (i = 0; i < sizeof sync_toks / sizeof sync_toks[0]; i++) {
		t = &sync_toks[i];
		id = -1;
		if ((text = tcfg_token(c, t->typ, &tlen)) != NULL) {
			snprintf(src, sizeof src, "tokenizer_config.json "
			    "%s_token", t->typ);
			if (bad_text(c, src, text, tlen) != 0)
				return -1;
			if ((id = token_find(c, text)) < 0 &&
			    c->r->shape_mismatch) {
				add_note(c, fmt("tokenizer_config.json %s_token "
				    "%s is not in the model's vocabulary (the "
				    "folder is not this model's)", t->typ,
				    text));
				continue;
			}
			if (id < 0) {
				char	pn[200];

				snprintf(c->msg, c->len, "%s/tokenizer_config."
				    "json: %s_token \"%s\" is not in the "
				    "model's vocabulary", c->source, t->typ,
				    gguf_pname(text, strlen(text), pn,
				    sizeof pn));
				return -1;
			}
			snprintf(src, sizeof src, "tokenizer_config.json "
			    "%s_token", t->typ);
		} else {
			snprintf(name, sizeof name, "%s_token_id", t->typ);
			u = hparam(c, name);
			if (u == NULL || jv_kind(u) != JV_INT ||
			    jv_int_value(u) < 0 || c->tokens == NULL ||
			    (uint64_t)jv_int_value(u) >= c->tokens->count)
				continue;
			id = jv_int_value(u);
			snprintf(src, sizeof src, "config.json %s", name);
		}
		if (strcmp(t->typ, "eos") == 0)
			c->up_eos = id;
		seen(c, t->key);
		v = c->m->get(c->m->arg, t->key);
		if (v != NULL && v->type != GGUF_VT_ARR &&
		    gguf_val_u64(v, &have) == 0 && have == (uint64_t)id)
			continue;
		up = token_show(c, (uint64_t)id);
		add_diff(c, SYNC_TOKEN, t->key, v != NULL && v->type !=
		    GGUF_VT_ARR && gguf_val_u64(v, &have) == 0 ?
		    token_show(c, have) : file_text(v), up, src, t->effect,
		    fmt("set %s:u32 %lld", t->key, (long long)id));
	}
	if (c->tcfg == NULL)
		return 0;
	for (i = 0; i < 3; i++) {
		static const char *const typs[] = { "bos", "eos", "sep" };
		char	 key[64];
		jv	*b;

		snprintf(name, sizeof name, "add_%s_token", typs[i]);
		b = jv_dict_get(c->tcfg, name);
		if (b == NULL || jv_kind(b) != JV_BOOL)
			continue;
		snprintf(key, sizeof key, "tokenizer.ggml.add_%s_token",
		    typs[i]);
		snprintf(src, sizeof src, "tokenizer_config.json %s", name);
		cmp_bool(c, key, jv_bool_value(b), src, i == 0 ?
		    (jv_bool_value(b) ? "prompts lack the BOS token the "
		    "model expects" : "the prompt starts with 2 BOS tokens "
		    "when the template writes one") : i == 1 ?
		    (jv_bool_value(b) ? "inputs lack the EOS token the model "
		    "expects at their end" : "every input ends with an EOS "
		    "token") : "inputs of two parts are joined otherwise");
	}
	return 0;
}

/* generation_config.json's end-of-generation ids: notes. */
static int
note_generation(struct sctx *c)
{
	static const char *const eog[] = { "tokenizer.ggml.eos_token_id",
	    "tokenizer.ggml.eot_token_id", "tokenizer.ggml.eom_token_id" };
	jv		*g, *e, *x;
	size_t		 i, k, n;
	int		 rc;
	uint64_t	 have;
	struct gguf_val	*v;

	if ((rc = load_json(c, "generation_config.json", &g)) != 0)
		return rc < 0 ? -1 : 0;
	e = jv_dict_get(g, "eos_token_id");
	n = e == NULL ? 0 : jv_kind(e) == JV_LIST ? jv_len(e) : 1;
	for (i = 0; i < n; i++) {
		char	*show;
		int	 found = 0;

		x = jv_kind(e) == JV_LIST ? jv_list_get(e, i) : e;
		if (jv_kind(x) != JV_INT || jv_int_value(x) < 0 ||
		    jv_int_value(x) == c->up_eos)
			continue;
		for (k = 0; k < sizeof eog / sizeof eog[0]; k++) {
			v = c->m->get(c->m->arg, eog[k]);
			if (v != NULL && v->type != GGUF_VT_ARR &&
			    gguf_val_u64(v, &have) == 0 &&
			    have == (uint64_t)jv_int_value(x))
				found = 1;
		}
		if (found)
			continue;
		show = token_show(c, (uint64_t)jv_int_value(x));
		add_note(c, fmt("generation_config.json eos_token_id: upstream "
		    "also stops generating at %s; the converter writes no key "
		    "for it (llama.cpp stops there only if it knows the "
		    "token's text as an end of generation)", show));
		free(show);
	}
	jv_unref(g);
	return 0;
}

/* ------------------------------------------------------------- templates */

struct tmpl {
	char	*name;		/* sanitised; "" for the default */
	char	*text;
	char	*src;		/* "FILE" or "FILE FIELD" */
};

/*
 * -1 with msg if the n bytes at p, upstream's text from src ("FILE" or
 * "FILE FIELD"), are not what the converter writes whole: a NUL cuts a
 * GGUF string read as C text, and text that is not UTF-8 the converter
 * cannot read (nor llama.cpp's tokenizer and template engine).
 */
static int
bad_text(struct sctx *c, const char *src, const char *p, size_t n)
{
	const char	*nul = memchr(p, '\0', n), *sp = strchr(src, ' ');
	char		 file[256];
	size_t		 i, k;
	unsigned	 cp;

	snprintf(file, sizeof file, "%.*s", sp != NULL ? (int)(sp - src) :
	    (int)strlen(src), src);
	if (nul != NULL) {
		snprintf(c->msg, c->len, "%s/%s: %s%sa NUL character (\\u0000) "
		    "at byte %zu: the text would be cut there", c->source,
		    file, sp != NULL ? sp + 1 : "", sp != NULL ? ": " : "",
		    (size_t)(nul - p));
		return -1;
	}
	for (i = 0; i < n; i += k)
		if ((k = gguf_utf8_seq((const unsigned char *)p + i, n - i,
		    &cp)) == 0) {
			snprintf(c->msg, c->len, "%s/%s: %s%snot UTF-8 (byte "
			    "%zu is 0x%02x)", c->source, file, sp != NULL ?
			    sp + 1 : "", sp != NULL ? ": " : "", i,
			    (unsigned)(unsigned char)p[i]);
			return -1;
		}
	return 0;
}

/* How a template is named to the user: its key. */
static char *
tmpl_what(const char *name)
{
	return name[0] == '\0' ? xstrdup("the default template "
	    "(tokenizer.chat_template)") : fmt("the template %s "
	    "(tokenizer.chat_template.%s)", name, name);
}

/*
 * Adds upstream's template, from src (where, if not NULL, says where
 * in it for messages): -1 with msg if its text is not one the
 * converter writes whole (bad_text), or if another has its name once
 * sanitised (the converter fails: "Duplicated key name").
 */
static int
tmpl_add(struct sctx *c, struct tmpl **t, size_t *n, const char *name,
    const char *text, size_t tlen, const char *src, const char *where)
{
	struct tmpl	*x;
	char		*w;
	size_t		 i;

	if (bad_text(c, where != NULL ? where : src, text, tlen) != 0)
		return -1;
	*t = xreallocarray(*t, *n + 1, sizeof **t);
	x = &(*t)[*n];
	x->name = xstrdup(strcmp(name, "default") == 0 ? "" : name);
	for (i = 0; x->name[i] != '\0'; i++)
		if (!((x->name[i] >= 'a' && x->name[i] <= 'z') ||
		    (x->name[i] >= 'A' && x->name[i] <= 'Z') ||
		    (x->name[i] >= '0' && x->name[i] <= '9')))
			x->name[i] = '_';
	if (strcmp(x->name, "default") == 0)
		x->name[0] = '\0';	/* "default" once sanitised too */
	for (i = 0; i < *n; i++)
		if (strcmp((*t)[i].name, x->name) == 0)
			break;
	if (i < *n) {
		w = tmpl_what(x->name);
		if (strcmp((*t)[i].src, src) == 0)
			snprintf(c->msg, c->len, "%s/%s: two of its templates "
			    "are %s: the converter fails on it (duplicated "
			    "key name)", c->source, src, w);
		else
			snprintf(c->msg, c->len, "%s/%s and %s: both are %s: "
			    "the converter fails on it (duplicated key name)",
			    c->source, (*t)[i].src, src, w);
		free(w);
		free(x->name);
		return -1;
	}
	x->text = xstrndup(text, tlen);
	x->src = xstrdup(src);
	(*n)++;
	return 0;
}

static void
tmpl_free(struct tmpl *t, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		free(t[i].name);
		free(t[i].text);
		free(t[i].src);
	}
	free(t);
}

/* A list of {name, template}, as tokenizer_config.json may hold. */
static int
tmpl_list(struct sctx *c, jv *l, const char *src, struct tmpl **t,
    size_t *n)
{
	jv	*e, *nm, *tx;
	char	*where;
	size_t	 i;
	int	 rc;

	for (i = 0; i < jv_len(l); i++) {
		e = jv_list_get(l, i);
		if (jv_kind(e) != JV_DICT) {
			snprintf(c->msg, c->len, "%s/%s: element %zu is not "
			    "an object of name and template", c->source, src,
			    i);
			return -1;
		}
		nm = jv_dict_get(e, "name");
		tx = jv_dict_get(e, "template");
		if (nm == NULL || jv_kind(nm) != JV_STR || jv_str_len(nm) ==
		    0 || tx == NULL || jv_kind(tx) != JV_STR)
			continue;	/* GGUFWriter skips it */
		where = fmt("%s[%zu].name", src, i);
		rc = bad_text(c, where, jv_str_ptr(nm), jv_str_len(nm));
		free(where);
		if (rc != 0)
			return -1;
		where = fmt("%s[%zu].template", src, i);
		rc = tmpl_add(c, t, n, jv_str_ptr(nm), jv_str_ptr(tx),
		    jv_str_len(tx), src, where);
		free(where);
		if (rc != 0)
			return -1;
	}
	return 0;
}

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Adds name to the list names of *nn if it is NAME.jinja. */
static void
add_jinja(char ***names, size_t *nn, const char *name, size_t l)
{
	if (l > 6 && memcmp(name + l - 6, ".jinja", 6) == 0 &&
	    memchr(name, '/', l) == NULL && memchr(name, '\0', l) == NULL) {
		*names = xreallocarray(*names, *nn + 1, sizeof **names);
		(*names)[(*nn)++] = xstrndup(name, l);
	}
}

/*
 * The NAME.jinja files of the source's additional_chat_templates/ (the
 * converter's glob of *.jinja there), sorted: 0, or -1 with msg. A folder
 * on disk is read as a folder; a repository on the Hub is listed by the
 * Hub's API, never looked for on disk; a folder at a plain http(s) URL
 * cannot be listed (a note says so).
 */
static int
list_additional(struct sctx *c, char ***names, size_t *nn)
{
	static const char	 dir_name[] = "additional_chat_templates";
	struct gguf_err		 err;
	struct dirent		*de;
	DIR			*dir;
	jv			*l, *e, *p, *ty;
	char			*path, *url, *text, why[300];
	const char		*s;
	size_t			 n, i, k = sizeof dir_name - 1;
	int			 rc;

	*names = NULL;
	*nn = 0;
	if (strncasecmp(c->source, "hf://", 5) == 0) {
		memset(&err, 0, sizeof err);
		if ((url = gguf_hf_tree(c->source, dir_name, &err)) == NULL) {
			snprintf(c->msg, c->len, "%s: %s", c->source, err.msg);
			return -1;
		}
		rc = fetch(url, &text, &n, c->msg, c->len);
		if (rc != 0) {
			free(url);
			return rc < 0 ? -1 : 0;	/* no such folder: none */
		}
		l = jv_parse_json(text, n, why, sizeof why);
		free(text);
		if (l == NULL || jv_kind(l) != JV_LIST) {
			snprintf(c->msg, c->len, "%s: the Hub's listing of %s/ "
			    "is not a JSON list%s%s", url, dir_name,
			    l == NULL ? ": " : "", l == NULL ? why : "");
			if (l != NULL)
				jv_unref(l);
			free(url);
			return -1;
		}
		free(url);
		for (i = 0; i < jv_len(l); i++) {
			e = jv_list_get(l, i);
			if (jv_kind(e) != JV_DICT ||
			    (ty = jv_dict_get(e, "type")) == NULL ||
			    jv_kind(ty) != JV_STR ||
			    strcmp(jv_str_ptr(ty), "file") != 0 ||
			    (p = jv_dict_get(e, "path")) == NULL ||
			    jv_kind(p) != JV_STR || jv_str_len(p) <= k + 1 ||
			    memcmp(jv_str_ptr(p), dir_name, k) != 0 ||
			    jv_str_ptr(p)[k] != '/')
				continue;
			s = jv_str_ptr(p) + k + 1;
			add_jinja(names, nn, s, jv_str_len(p) - k - 1);
		}
		jv_unref(l);
	} else if (gguf_is_url(c->source)) {
		add_note(c, fmt("%s/ cannot be listed at an http(s) URL: its "
		    "templates are not compared (give the folder, or "
		    "hf://OWNER/REPO)", dir_name));
		return 0;
	} else {
		path = fmt("%s/%s", c->source, dir_name);
		if ((dir = opendir(path)) != NULL) {
			while ((de = readdir(dir)) != NULL)
				add_jinja(names, nn, de->d_name,
				    strlen(de->d_name));
			closedir(dir);
		}
		free(path);
	}
	if (*nn > 0)
		qsort(*names, *nn, sizeof **names, name_cmp);
	return 0;
}

/* Upstream's templates, in the converter's order of precedence. */
static int
load_templates(struct sctx *c, struct tmpl **t, size_t *n)
{
	jv		*ct, *j;
	char		*text, **names = NULL;
	size_t		 len, nn = 0, i;
	int		 rc;

	*t = NULL;
	*n = 0;
	ct = jv_dict_get(c->tcfg, "chat_template");
	if (ct != NULL && jv_kind(ct) == JV_STR)
		return tmpl_add(c, t, n, "", jv_str_ptr(ct), jv_str_len(ct),
		    "tokenizer_config.json chat_template", NULL);
	if (ct != NULL && jv_kind(ct) == JV_LIST)
		return tmpl_list(c, ct, "tokenizer_config.json chat_template",
		    t, n);
	/* A chat_template of null is none: the files below are not read. */
	if (ct != NULL && jv_kind(ct) == JV_NONE)
		return 0;
	if (ct != NULL) {
		add_note(c, xstrdup("tokenizer_config.json chat_template is "
		    "neither a string nor a list: the converter ignores it"));
		return 0;
	}
	rc = sync_read_file(c->source, "chat_template.jinja", &text, &len,
	    c->msg, c->len);
	if (rc < 0)
		return -1;
	if (rc == 0) {
		rc = tmpl_add(c, t, n, "", text, len, "chat_template.jinja",
		    NULL);
		free(text);
		if (rc == 0)
			rc = list_additional(c, &names, &nn);
		for (i = 0; i < nn; i++) {
			char	*rel = fmt("additional_chat_templates/%s",
			    names[i]);

			if (rc >= 0 && (rc = sync_read_file(c->source, rel,
			    &text, &len, c->msg, c->len)) == 0) {
				names[i][strlen(names[i]) - 6] = '\0';
				rc = tmpl_add(c, t, n, names[i], text, len,
				    rel, NULL);
				free(text);
			}
			free(rel);
			free(names[i]);
		}
		free(names);
		return rc < 0 ? -1 : 0;
	}
	if ((rc = load_json(c, "chat_template.json", &j)) != 0)
		return rc < 0 ? -1 : 0;
	ct = jv_dict_get(j, "chat_template");
	rc = 0;
	if (ct != NULL && jv_kind(ct) == JV_STR)
		rc = tmpl_add(c, t, n, "", jv_str_ptr(ct), jv_str_len(ct),
		    "chat_template.json chat_template", NULL);
	else if (ct != NULL && jv_kind(ct) == JV_LIST)
		rc = tmpl_list(c, ct, "chat_template.json chat_template", t,
		    n);
	jv_unref(j);
	return rc;
}

/* The special tokens as text for the rendering: upstream's, else ours. */
static void
ctx_token(struct sctx *c, jv *ctx, const char *typ, const char *key,
    int upstream)
{
	const char	*text = upstream ? tcfg_token(c, typ, NULL) : NULL;
	struct gguf_val	*v;
	uint64_t	 id;
	char		*t, name[32];

	snprintf(name, sizeof name, "%s_token", typ);
	if (text != NULL) {
		jv_dict_set(ctx, name, jv_cstr(text));
		return;
	}
	v = c->m->get(c->m->arg, key);
	if (v == NULL || v->type == GGUF_VT_ARR || gguf_val_u64(v, &id) != 0 ||
	    (t = token_text(c, id)) == NULL)
		return;
	jv_dict_set(ctx, name, jv_cstr(t));
	free(t);
}

static jv *
message(const char *role, const char *content)
{
	jv	*m = jv_dict();

	jv_dict_set(m, "role", jv_cstr(role));
	jv_dict_set(m, "content", jv_cstr(content));
	return m;
}

/* The conversation rendered with text; NULL with the error in *why. */
static char *
render(struct sctx *c, const char *text, int upstream, char **why)
{
	struct jinja_error	 err;
	struct jinja		*t;
	jv			*ctx, *msgs;
	char			*out = NULL;
	size_t			 outn;

	memset(&err, 0, sizeof err);
	if ((t = jinja_parse(text, strlen(text), &err)) == NULL) {
		*why = fmt("%u:%u: %s", err.line, err.col, err.msg);
		return NULL;
	}
	ctx = jv_dict();
	msgs = jv_list();
	jv_list_push(msgs, message("system", "You are a helpful assistant."));
	jv_list_push(msgs, message("user", "Hello! Who are you?"));
	jv_list_push(msgs, message("assistant", "I am an assistant."));
	jv_list_push(msgs, message("user", "What is 2+2?"));
	jv_dict_set(ctx, "messages", msgs);
	jv_dict_set(ctx, "tools", jv_none());
	jv_dict_set(ctx, "documents", jv_none());
	jv_dict_set(ctx, "add_generation_prompt", jv_bool(1));
	ctx_token(c, ctx, "bos", "tokenizer.ggml.bos_token_id", upstream);
	ctx_token(c, ctx, "eos", "tokenizer.ggml.eos_token_id", upstream);
	if (jinja_render(t, ctx, NULL, SYNC_NOW, &out, &outn, &err) != 0) {
		*why = err.line > 0 ? fmt("%u:%u: %s", err.line, err.col,
		    err.msg) : xstrdup(err.msg);
		out = NULL;
	}
	jv_unref(ctx);
	jinja_free(t);
	return out;
}

/* Splits s into lines (each without its newline), in place. */
static char **
split_lines(char *s, size_t *n)
{
	char	**l = NULL, *p = s, *nl;

	*n = 0;
	while (*p != '\0' && *n < SYNC_MAX_LINES) {
		l = xreallocarray(l, *n + 1, sizeof *l);
		l[(*n)++] = p;
		if ((nl = strchr(p, '\n')) == NULL)
			break;
		*nl = '\0';
		p = nl + 1;
	}
	return l;
}

/*
 * The lines of a and b that differ ("- " the file's, "+ " upstream's),
 * from their longest common subsequence; at most SYNC_SHOW_LINES.
 */
static char *
line_diff(char *a, char *b)
{
	char		**la, **lb, *out = xstrdup(""), *t;
	size_t		  na, nb, i, j, shown = 0, left = 0;
	unsigned	 *lcs;

	la = split_lines(a, &na);
	lb = split_lines(b, &nb);
	lcs = xcalloc((na + 1) * (nb + 1), sizeof *lcs);
	for (i = na; i-- > 0;)
		for (j = nb; j-- > 0;)
			lcs[i * (nb + 1) + j] = strcmp(la[i], lb[j]) == 0 ?
			    lcs[(i + 1) * (nb + 1) + j + 1] + 1 :
			    lcs[(i + 1) * (nb + 1) + j] >
			    lcs[i * (nb + 1) + j + 1] ?
			    lcs[(i + 1) * (nb + 1) + j] :
			    lcs[i * (nb + 1) + j + 1];
	i = j = 0;
	while (i < na || j < nb) {
		const char	*sign, *line;

		if (i < na && j < nb && strcmp(la[i], lb[j]) == 0) {
			i++;
			j++;
			continue;
		}
		if (j >= nb || (i < na && lcs[(i + 1) * (nb + 1) + j] >=
		    lcs[i * (nb + 1) + j + 1])) {
			sign = "- ";
			line = la[i++];
		} else {
			sign = "+ ";
			line = lb[j++];
		}
		if (shown == SYNC_SHOW_LINES) {
			left++;
			continue;
		}
		t = fmt("%s%s%s\n", out, sign, line);
		free(out);
		out = t;
		shown++;
	}
	if (left > 0) {
		t = fmt("%s(%zu more line%s)\n", out, left, left == 1 ? "" :
		    "s");
		free(out);
		out = t;
	}
	free(lcs);
	free(la);
	free(lb);
	return out;
}

/* What the two templates make of one conversation. */
static char *
render_detail(struct sctx *c, const char *file, const char *up)
{
	char	*a = NULL, *b = NULL, *wa = NULL, *wb = NULL, *d, *s;

	if (file != NULL)
		a = render(c, file, 0, &wa);
	b = render(c, up, 1, &wb);
	if (wb != NULL)
		s = fmt("upstream's template fails on a conversation of "
		    "system, user, assistant, user: %s\n", wb);
	else if (file == NULL)
		s = NULL;
	else if (wa != NULL)
		s = fmt("the file's template fails on a conversation of "
		    "system, user, assistant, user: %s\n", wa);
	else if (strcmp(a, b) == 0)
		s = xstrdup("both render a conversation of system, user, "
		    "assistant, user alike: they differ in other cases "
		    "(tools, other roles)\n");
	else {
		d = line_diff(a, b);
		s = fmt("rendered for a conversation of system, user, "
		    "assistant, user and the assistant's prompt (- the "
		    "file's, + upstream's):\n%s", d);
		free(d);
	}
	free(a);
	free(b);
	free(wa);
	free(wb);
	return s;
}

static int
cmp_templates(struct sctx *c)
{
	struct tmpl	*t;
	size_t		 n, i, k, nnames = 0;
	char		 key[300], **names = NULL;
	struct gguf_val	*v, e;
	struct gguf_str	 s;
	struct gguf_err	 err;
	int		 same;

	if (load_templates(c, &t, &n) != 0) {
		tmpl_free(t, n);
		return -1;
	}
	for (i = 0; i < n; i++) {
		char	*file = NULL, *q;
		size_t	 before = c->r->n;

		if (t[i].name[0] == '\0')
			snprintf(key, sizeof key, "tokenizer.chat_template");
		else {
			snprintf(key, sizeof key, "tokenizer.chat_template.%s",
			    t[i].name);
			names = xreallocarray(names, nnames + 1,
			    sizeof *names);
			names[nnames++] = t[i].name;
		}
		seen(c, key);
		v = c->m->get(c->m->arg, key);
		if (v != NULL && gguf_val_str(v, &s) == 0) {
			if (s.n == strlen(t[i].text) && memcmp(s.p, t[i].text,
			    (size_t)s.n) == 0)
				continue;
			file = xstrndup(s.p, (size_t)s.n);
		}
		q = gguf_str_cquote(t[i].text, strlen(t[i].text));
		add_diff(c, SYNC_TEMPLATE, key, file != NULL ?
		    fmt("%zu bytes", strlen(file)) : file_text(v),
		    fmt("%zu bytes", strlen(t[i].text)), t[i].src,
		    file != NULL ? "prompts are not laid out as the model was "
		    "trained: answers degrade, tool calls break" :
		    t[i].name[0] != '\0' ? "programs that ask for this named "
		    "template (tools, documents) fall back to the default" :
		    "the model has no chat template: chat falls back to "
		    "another format", fmt("set %s:str %s", key, q));
		free(q);
		if (c->r->n > before)
			c->r->diffs[before].detail = render_detail(c, file,
			    t[i].text);
		free(file);
	}
	if (nnames > 0) {
		char	*up, *j, *x;

		qsort(names, nnames, sizeof *names, name_cmp);
		seen(c, "tokenizer.chat_templates");
		v = c->m->get(c->m->arg, "tokenizer.chat_templates");
		same = v != NULL && v->type == GGUF_VT_ARR && v->atype ==
		    GGUF_VT_STR && v->count == nnames;
		for (i = 0; same && i < nnames; i++) {
			int	found = 0;

			for (k = 0; k < v->count; k++)
				if (gguf_arr_get(v, k, &e, &err) == 0 &&
				    gguf_val_str(&e, &s) == 0 &&
				    s.n == strlen(names[i]) &&
				    memcmp(s.p, names[i], (size_t)s.n) == 0)
					found = 1;
			same = found;
		}
		if (!same) {
			up = xstrdup("");
			j = xstrdup("");
			for (i = 0; i < nnames; i++) {
				x = fmt("%s%s%s", up, i ? " " : "", names[i]);
				free(up);
				up = x;
				x = fmt("%s%s\"%s\"", j, i ? ", " : "",
				    names[i]);
				free(j);
				j = x;
			}
			add_diff(c, SYNC_TEMPLATE, "tokenizer.chat_templates",
			    file_text(v), up, t[0].src, "programs that list "
			    "the named templates do not offer them",
			    fmt("set tokenizer.chat_templates:arr[str] [%s]",
			    j));
			free(j);
		}
	}
	free(names);
	tmpl_free(t, n);
	return 0;
}

/* --------------------------------------------------------------- compare */

static const struct sync_arch *
find_arch(jv *config, const char **hf, const char **mt)
{
	jv	*a, *t;
	size_t	 i;

	*hf = *mt = NULL;
	a = jv_dict_get(config, "architectures");
	if (a != NULL && jv_kind(a) == JV_LIST && jv_len(a) > 0 &&
	    jv_kind(jv_list_get(a, 0)) == JV_STR)
		*hf = jv_str_ptr(jv_list_get(a, 0));
	t = jv_dict_get(config, "model_type");
	if (t != NULL && jv_kind(t) == JV_STR)
		*mt = jv_str_ptr(t);
	for (i = 0; i < sizeof sync_archs / sizeof sync_archs[0]; i++)
		if (*hf != NULL && strcmp(*hf, sync_archs[i].hf) == 0)
			return &sync_archs[i];
	for (i = 0; *hf == NULL && i < sizeof sync_archs /
	    sizeof sync_archs[0]; i++)
		if (*mt != NULL && strcmp(*mt, sync_archs[i].model_type) == 0)
			return &sync_archs[i];
	return NULL;
}

int
sync_compare(const struct sync_model *m, const char *source,
    struct sync_report *r, char *msg, size_t len)
{
	struct sctx	 c;
	struct stat	 st;
	struct gguf_val	*v;
	struct gguf_str	 s;
	const char	*hf, *mt;
	int		 rc;

	memset(r, 0, sizeof *r);
	memset(&c, 0, sizeof c);
	c.m = m;
	c.source = source;
	c.r = r;
	c.msg = msg;
	c.len = len;
	c.up_eos = -1;
	if (gguf_is_url(source))
		;	/* its files are asked for one by one */
	else if (stat(source, &st) != 0) {
		snprintf(msg, len, "%s: %s", source, strerror(errno));
		return -1;
	}
	else if (!S_ISDIR(st.st_mode)) {
		snprintf(msg, len, "%s: not a folder (give the folder that "
		    "holds config.json)", source);
		return -1;
	}
	if ((rc = load_json(&c, "config.json", &c.config)) != 0) {
		if (rc > 0)
			snprintf(msg, len, "%s/config.json: no such file (a "
			    "model repository has one)", source);
		return -1;
	}
	c.text = jv_dict_get(c.config, "text_config");
	if (c.text != NULL && jv_kind(c.text) != JV_DICT)
		c.text = NULL;
	if (load_json(&c, "tokenizer_config.json", &c.tcfg) < 0)
		goto fail;
	/* An empty one is none to the converter ("if not tokenizer_config"). */
	if (c.tcfg != NULL && jv_len(c.tcfg) == 0) {
		jv_unref(c.tcfg);
		c.tcfg = NULL;
	}
	v = m->get(m->arg, "tokenizer.ggml.tokens");
	if (v != NULL && v->type == GGUF_VT_ARR && v->atype == GGUF_VT_STR)
		c.tokens = v;
	c.arch = find_arch(c.config, &hf, &mt);
	if (c.arch == NULL)
		add_note(&c, fmt("%s%s%s%s: not a family sync maps: only the "
		    "tokenizer and template keys are compared",
		    mt != NULL ? "model_type " : "",
		    mt != NULL ? mt : "", mt != NULL && hf != NULL ? ", " : "",
		    hf != NULL ? hf : mt != NULL ? "" : "no architectures"));
	else {
		r->arch = xstrdup(c.arch->arch);
		v = m->get(m->arg, "general.architecture");
		if (v == NULL || gguf_val_str(v, &s) != 0 ||
		    s.n != strlen(c.arch->arch) || memcmp(s.p, c.arch->arch,
		    (size_t)s.n) != 0)
			add_diff(&c, SYNC_SHAPE, "general.architecture",
			    file_text(v), xstrdup(c.arch->arch),
			    "config.json architectures",
			    "the folder is not this model's: another "
			    "architecture", NULL);
		else {
			cmp_shape(&c);
			cmp_hparams(&c);
			if (c.bad)
				goto fail;
		}
	}
	if (c.tcfg == NULL)
		add_note(&c, xstrdup("no tokenizer_config.json (or an empty "
		    "one): the converter reads no chat template and no "
		    "special token text without it"));
	else if (cmp_templates(&c) != 0)
		goto fail;
	if (cmp_tokens(&c) != 0)
		goto fail;
	if (note_generation(&c) != 0)
		goto fail;
	jv_unref(c.config);
	if (c.tcfg != NULL)
		jv_unref(c.tcfg);
	return 0;
fail:
	jv_unref(c.config);
	if (c.tcfg != NULL)
		jv_unref(c.tcfg);
	sync_report_free(r);
	return -1;
}

void
sync_report_free(struct sync_report *r)
{
	size_t	i;

	for (i = 0; i < r->n; i++) {
		free(r->diffs[i].key);
		free(r->diffs[i].file);
		free(r->diffs[i].upstream);
		free(r->diffs[i].source);
		free(r->diffs[i].effect);
		free(r->diffs[i].detail);
		free(r->diffs[i].edit);
	}
	free(r->diffs);
	for (i = 0; i < r->n_notes; i++)
		free(r->notes[i]);
	free(r->notes);
	free(r->arch);
	for (i = 0; i < r->n_compared; i++)
		free(r->compared[i]);
	free(r->compared);
	memset(r, 0, sizeof *r);
}

int
sync_report_only(struct sync_report *r, const char *keys, char *msg,
    size_t len)
{
	char	*list = xstrdup(keys), *k, *save = NULL;
	size_t	 i;
	int	 found;

	if (strspn(keys, ",") == strlen(keys)) {
		snprintf(msg, len, "--only: no key given: it takes the GGUF keys "
		    "of the report (such as tokenizer.chat_template), "
		    "separated by commas");
		free(list);
		return -1;
	}
	for (i = 0; i < r->n; i++)
		r->diffs[i].selected = 0;
	for (k = strtok_r(list, ",", &save); k != NULL;
	    k = strtok_r(NULL, ",", &save)) {
		found = 0;
		for (i = 0; i < r->n_compared; i++)
			if (strcmp(r->compared[i], k) == 0)
				found = 1;
		if (!found) {
			snprintf(msg, len, "--only: %s: not a key the folder "
			    "gives a value for", k);
			free(list);
			return -1;
		}
		for (i = 0; i < r->n; i++)
			if (strcmp(r->diffs[i].key, k) == 0)
				r->diffs[i].selected = 1;
	}
	free(list);
	return 0;
}
