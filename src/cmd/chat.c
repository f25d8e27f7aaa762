/*
 * chat.c - the context of a chat template, the sample conversations and
 * the lint (see chat.h).
 *
 * The lint renders the template the way a chat front end would, then
 * reads the result: where the assistant's words are, what follows them,
 * what is emitted before everything, which special-looking strings it
 * holds. Each sample message has words of its own, so finding them in
 * the rendering finds the turn.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "chat.h"
#include "token.h"
#include "xmalloc.h"

/* The words of the samples; the lint looks for them in renderings. */
#define S_SYSTEM	"You are a helpful assistant."
#define S_USER1		"Hello! Who are you?"
#define S_ASSISTANT	"I am an assistant; ask me anything."
#define S_USER2		"What is 2+2?"

static const char sample_default[] =
    "[{\"role\": \"system\", \"content\": \"" S_SYSTEM "\"},"
    " {\"role\": \"user\", \"content\": \"" S_USER1 "\"},"
    " {\"role\": \"assistant\", \"content\": \"" S_ASSISTANT "\"},"
    " {\"role\": \"user\", \"content\": \"" S_USER2 "\"}]";

static const char sample_plain[] =
    "[{\"role\": \"user\", \"content\": \"" S_USER1 "\"},"
    " {\"role\": \"assistant\", \"content\": \"" S_ASSISTANT "\"},"
    " {\"role\": \"user\", \"content\": \"" S_USER2 "\"}]";

static const char sample_tools[] =
    "[{\"role\": \"system\", \"content\": \"" S_SYSTEM "\"},"
    " {\"role\": \"user\", \"content\": \"What's the weather in Paris?\"},"
    " {\"role\": \"assistant\", \"content\": \"\", \"tool_calls\": ["
    "{\"id\": \"call12345\", \"type\": \"function\", \"function\": "
    "{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", "
    "\"unit\": \"celsius\"}}}]},"
    " {\"role\": \"tool\", \"tool_call_id\": \"call12345\", \"name\": "
    "\"get_weather\", \"content\": \"{\\\"temperature\\\": 22, "
    "\\\"condition\\\": \\\"sunny\\\"}\"}]";

static const char sample_tool_list[] =
    "[{\"type\": \"function\", \"function\": {\"name\": \"get_weather\", "
    "\"description\": \"Get the current weather in a city\", "
    "\"parameters\": {\"type\": \"object\", \"properties\": {\"city\": "
    "{\"type\": \"string\", \"description\": \"The city name\"}, "
    "\"unit\": {\"type\": \"string\", \"enum\": [\"celsius\", "
    "\"fahrenheit\"]}}, \"required\": [\"city\"]}}}]";

/* The special tokens of the context: transformers' names, GGUF's keys. */
static const struct {
	const char	*name;
	const char	*key;
} special[] = {
	{ "bos_token", "tokenizer.ggml.bos_token_id" },
	{ "eos_token", "tokenizer.ggml.eos_token_id" },
	{ "unk_token", "tokenizer.ggml.unknown_token_id" },
	{ "sep_token", "tokenizer.ggml.seperator_token_id" },
	{ "pad_token", "tokenizer.ggml.padding_token_id" },
	{ "cls_token", "tokenizer.ggml.cls_token_id" },
	{ "mask_token", "tokenizer.ggml.mask_token_id" },
};

/*
 * Tokens that end a turn, by their text, as llama.cpp finds them in a
 * vocabulary (besides the eos, eot and eom ids the file names).
 */
static const char *const eog_texts[] = {
	"<|eot_id|>", "<|im_end|>", "<|end|>", "<|return|>", "<|call|>",
	"<|endoftext|>", "<|eom_id|>", "<EOT>", "_<EOT>", "<end_of_turn>",
	"<|end_of_text|>", "<|END_OF_TURN_TOKEN|>", "<|end_of_turn|>",
	/* Split where a hex escape would run on; in parentheses, one string. */
	("<\xef\xbd\x9c" "end\xe2\x96\x81of\xe2\x96\x81sentence\xef\xbd\x9c>"),
	"</s>", "<|eot|>",
};

static jv *
parse_const(const char *json)
{
	char	err[128];
	jv	*v = jv_parse_json(json, strlen(json), err, sizeof err);

	if (v == NULL)
		abort();	/* the samples above are valid JSON */
	return v;
}

const char *
chat_sample_name(enum chat_sample s)
{
	switch (s) {
	case CHAT_SAMPLE_DEFAULT:
		return "with a system prompt";
	case CHAT_SAMPLE_PLAIN:
		return "plain chat";
	case CHAT_SAMPLE_TOOLS:
		return "with tool calls";
	default:
		return "?";
	}
}

jv *
chat_sample_messages(enum chat_sample s)
{
	switch (s) {
	case CHAT_SAMPLE_PLAIN:
		return parse_const(sample_plain);
	case CHAT_SAMPLE_TOOLS:
		return parse_const(sample_tools);
	default:
		return parse_const(sample_default);
	}
}

jv *
chat_sample_tools(enum chat_sample s)
{
	return s == CHAT_SAMPLE_TOOLS ? parse_const(sample_tool_list) :
	    jv_none();
}

static int
get_str(const struct chat_model *m, const char *key, struct gguf_str *s)
{
	struct gguf_val	*v = m->get(m->arg, key);

	return v != NULL && gguf_val_str(v, s) == 0 ? 0 : -1;
}

char *
chat_token_text(const struct chat_model *m, const char *key)
{
	struct gguf_val	*idv, *toks, *types, e;
	struct gguf_str	 model, pre, s;
	struct gguf_err	 err;
	uint64_t	 id;
	int64_t		 type = GGUF_TOKT_NONE;
	char		*out;
	size_t		 outn;

	if ((idv = m->get(m->arg, key)) == NULL ||
	    gguf_val_u64(idv, &id) != 0 ||
	    (toks = m->get(m->arg, "tokenizer.ggml.tokens")) == NULL ||
	    toks->type != GGUF_VT_ARR || id >= toks->count ||
	    gguf_arr_get(toks, id, &e, &err) != 0 ||
	    gguf_val_str(&e, &s) != 0)
		return NULL;
	if ((types = m->get(m->arg, "tokenizer.ggml.token_type")) != NULL &&
	    types->type == GGUF_VT_ARR && id < types->count) {
		struct gguf_val	t;

		if (gguf_arr_get(types, id, &t, &err) != 0 ||
		    gguf_val_i64(&t, &type) != 0)
			type = GGUF_TOKT_NONE;
	}
	if (get_str(m, "tokenizer.ggml.model", &model) != 0)
		model.p = NULL, model.n = 0;
	if (get_str(m, "tokenizer.ggml.pre", &pre) != 0)
		pre.p = NULL, pre.n = 0;
	out = xmalloc((size_t)s.n + 1);
	gguf_tok_decode(gguf_tok_kind(model.p, (size_t)model.n, pre.p,
	    (size_t)pre.n), type, s.p, (size_t)s.n, out, &outn);
	out[outn] = '\0';
	return out;
}

jv *
chat_context(const struct chat_model *m, jv *messages, jv *tools,
    int add_generation_prompt)
{
	jv	*ctx = jv_dict();
	size_t	 i;

	jv_dict_set(ctx, "messages", messages);
	jv_dict_set(ctx, "tools", tools != NULL ? tools : jv_none());
	jv_dict_set(ctx, "documents", jv_none());
	jv_dict_set(ctx, "add_generation_prompt",
	    jv_bool(add_generation_prompt));
	for (i = 0; m != NULL && i < sizeof special / sizeof special[0]; i++) {
		char	*t = chat_token_text(m, special[i].key);

		if (t != NULL) {
			jv_dict_set(ctx, special[i].name, jv_cstr(t));
			free(t);
		}
	}
	return ctx;
}

int
chat_render(const char *src, size_t n, jv *ctx, long long now, char **out,
    size_t *outn, struct jinja_error *err)
{
	struct jinja	*t;
	int		 rc;

	memset(err, 0, sizeof *err);
	if ((t = jinja_parse(src, n, err)) == NULL)
		return -1;
	rc = jinja_render(t, ctx, NULL, now, out, outn, err);
	jinja_free(t);
	return rc;
}

const char *
chat_template_key(const char *name, char *buf, size_t len)
{
	if (name == NULL || *name == '\0')
		snprintf(buf, len, "tokenizer.chat_template");
	else
		snprintf(buf, len, "tokenizer.chat_template.%s", name);
	return buf;
}

int
chat_is_template_key(const char *key, size_t n)
{
	static const char	pre[] = "tokenizer.chat_template";
	size_t			pn = sizeof pre - 1;

	return n >= pn && memcmp(key, pre, pn) == 0 &&
	    (n == pn || (key[pn] == '.' && n > pn + 1));
}

long long
chat_now(void)
{
	const char		*s = getenv("SOURCE_DATE_EPOCH");
	char			*end;
	unsigned long long	 v;

	if (s != NULL && *s >= '0' && *s <= '9') {
		errno = 0;
		v = strtoull(s, &end, 10);
		if (errno == 0 && *end == '\0' && v <= (1ull << 62))
			return (long long)v;
	}
	return (long long)time(NULL);
}

/* ------------------------------------------------------------------ lint */

struct lint {
	const struct chat_model	*m;
	chat_lint_fn		 fn;
	void			*arg;
	int			 errors;
	char			 buf[1024];
};

static void say(struct lint *, int, const char *, ...)
    __attribute__((format(printf, 3, 4)));

static void
say(struct lint *l, int level, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(l->buf, sizeof l->buf, fmt, ap);
	va_end(ap);
	if (level == GGUF_W_ERROR)
		l->errors++;
	l->fn(l->arg, level, l->buf);
}

/* An error as "LINE:COL: message" (the place left out when unknown). */
static const char *
where(const struct jinja_error *e, char *buf, size_t len)
{
	if (e->line > 0)
		snprintf(buf, len, "%u:%u: %s%s", e->line, e->col,
		    e->raised ? "raise_exception: " : "", e->msg);
	else
		snprintf(buf, len, "%s%s", e->raised ? "raise_exception: " :
		    "", e->msg);
	return buf;
}

/* Renders sample s; NULL with err filled on failure. */
static char *
render_sample(struct lint *l, const struct jinja *t, enum chat_sample s,
    int agp, size_t *n, struct jinja_error *err)
{
	jv	*ctx = chat_context(l->m, chat_sample_messages(s),
		    chat_sample_tools(s), agp);
	char	*out = NULL;
	int	 rc;

	memset(err, 0, sizeof *err);
	rc = jinja_render(t, ctx, NULL, CHAT_SAMPLE_NOW, &out, n, err);
	jv_unref(ctx);
	if (rc != 0) {
		free(out);
		return NULL;
	}
	return out;
}

static const char *
find(const char *hay, size_t hn, const char *needle, size_t nn)
{
	size_t	i;

	if (nn == 0 || nn > hn)
		return NULL;
	for (i = 0; i + nn <= hn; i++)
		if (hay[i] == needle[0] && memcmp(hay + i, needle, nn) == 0)
			return hay + i;
	return NULL;
}

/* The strings looked up in the vocabulary. */
struct cands {
	char	**s;
	int	 *in_vocab;
	size_t	  n;
};

static size_t
cand_add(struct cands *c, const char *p, size_t n)
{
	size_t	i;

	for (i = 0; i < c->n; i++)
		if (strlen(c->s[i]) == n && memcmp(c->s[i], p, n) == 0)
			return i;
	c->s = xreallocarray(c->s, c->n + 1, sizeof *c->s);
	c->in_vocab = xreallocarray(c->in_vocab, c->n + 1,
	    sizeof *c->in_vocab);
	c->s[c->n] = xstrndup(p, n);
	c->in_vocab[c->n] = 0;
	return c->n++;
}

static void
cands_free(struct cands *c)
{
	size_t	i;

	for (i = 0; i < c->n; i++)
		free(c->s[i]);
	free(c->s);
	free(c->in_vocab);
}

/*
 * The length of a special-looking token at p, or 0: "<|...|>", its
 * full-width form "<｜...｜>", or "<name>" / "</name>" where name has an
 * underscore ("<start_of_turn>", "<tool_call>") or is "s".
 */
static size_t
special_at(const char *p, size_t n)
{
	static const char	fw[] = "\xef\xbd\x9c";	/* U+FF5C */
	size_t			i, us = 0;

	if (n < 3 || p[0] != '<')
		return 0;
	if (p[1] == '|' || (n > 4 && memcmp(p + 1, fw, 3) == 0)) {
		int	wide = p[1] != '|';

		for (i = wide ? 4 : 2; i < n && i < 96; i++) {
			if (p[i] == ' ' || p[i] == '\n' || p[i] == '<')
				return 0;
			if (!wide && p[i] == '|' && i + 1 < n && p[i + 1] == '>')
				return i > 2 ? i + 2 : 0;
			if (wide && i + 3 < n && memcmp(p + i, fw, 3) == 0 &&
			    p[i + 3] == '>')
				return i > 4 ? i + 4 : 0;
		}
		return 0;
	}
	i = p[1] == '/' ? 2 : 1;
	if (i >= n)
		return 0;
	for (; i < n && i < 64; i++) {
		unsigned char	ch = (unsigned char)p[i];

		if (ch == '>')
			break;
		if (ch == '_')
			us = 1;
		else if (!(ch >= 'a' && ch <= 'z') && !(ch >= 'A' && ch <= 'Z') &&
		    !(ch >= '0' && ch <= '9'))
			return 0;
	}
	if (i >= n || p[i] != '>' || i == (p[1] == '/' ? 2u : 1u))
		return 0;
	if (!us && !(i - (p[1] == '/' ? 2 : 1) == 1 && p[i - 1] == 's'))
		return 0;
	return i + 1;
}

static void
scan_specials(struct cands *c, const char *s, size_t n)
{
	size_t	i, k;

	for (i = 0; i < n; i++)
		if (s[i] == '<' && (k = special_at(s + i, n - i)) > 0) {
			cand_add(c, s + i, k);
			i += k - 1;
		}
}

/*
 * mark_vocab's walk: the candidates, their lengths and how many are left;
 * by[from[n]] to by[from[n + 1] - 1] are those of n bytes (n < MARK_LONG),
 * then those of MARK_LONG bytes or more: a token is compared with the
 * candidates of its length only.
 */
#define MARK_LONG	64

struct marking {
	struct cands	*c;
	size_t		*len;
	size_t		 left;
	size_t		*by;
	size_t		 from[MARK_LONG + 2];
};

static int
mark_token(void *arg, uint64_t id, const char *p, uint64_t n)
{
	struct marking	*m = arg;
	struct cands	*c = m->c;
	size_t		 j, i, b = n < MARK_LONG ? (size_t)n : MARK_LONG;

	(void)id;
	for (j = m->from[b]; j < m->from[b + 1]; j++) {
		i = m->by[j];
		if (!c->in_vocab[i] && m->len[i] == n &&
		    memcmp(c->s[i], p, (size_t)n) == 0) {
			c->in_vocab[i] = 1;
			m->left--;
		}
	}
	return m->left == 0;		/* all found: the walk may stop */
}

/* Marks the candidates that are tokens of the vocabulary; -1 if none. */
static int
mark_vocab(const struct chat_model *m, struct cands *c)
{
	struct gguf_val	*toks = m->get(m->arg, "tokenizer.ggml.tokens");
	struct gguf_err	 err;
	struct marking	 mk;
	size_t		 i, b, at[MARK_LONG + 1];
	int		 rc;

	if (toks == NULL || toks->type != GGUF_VT_ARR ||
	    toks->atype != GGUF_VT_STR)
		return -1;
	if (c->n == 0)
		return 0;
	/* a vocabulary has 10^5 tokens or more: no strlen per token, and
	   no value made of each (gguf_arr_strings) */
	memset(&mk, 0, sizeof mk);
	mk.c = c;
	mk.left = c->n;
	mk.len = xreallocarray(NULL, c->n, sizeof *mk.len);
	mk.by = xreallocarray(NULL, c->n, sizeof *mk.by);
	for (i = 0; i < c->n; i++) {
		mk.len[i] = strlen(c->s[i]);
		mk.from[(mk.len[i] < MARK_LONG ? mk.len[i] : MARK_LONG) + 1]++;
	}
	for (b = 0; b <= MARK_LONG; b++) {
		mk.from[b + 1] += mk.from[b];
		at[b] = mk.from[b];
	}
	for (i = 0; i < c->n; i++)
		mk.by[at[mk.len[i] < MARK_LONG ? mk.len[i] : MARK_LONG]++] = i;
	rc = gguf_arr_strings(toks, mark_token, &mk, &err);
	free(mk.len);
	free(mk.by);
	return rc < 0 ? -1 : 0;
}

#undef MARK_LONG

/* One finding for the special tokens that are not in the vocabulary. */
static void
missing_tokens(struct lint *l, const struct cands *c, size_t nspecial,
    int have_vocab)
{
	char	list[600] = "";
	size_t	i, n = 0, at;

	for (i = 0; have_vocab && i < nspecial; i++) {
		if (c->in_vocab[i])
			continue;
		at = strlen(list);
		if (at + strlen(c->s[i]) + 8 < sizeof list)
			snprintf(list + at, sizeof list - at, "%s\"%s\"",
			    n ? ", " : "", c->s[i]);
		n++;
	}
	if (n > 0)
		say(l, GGUF_W_WARN, "emits %s, %s not in the vocabulary: read "
		    "as plain text, not as special tokens", list,
		    n == 1 ? "a token" : "tokens");
}

static int
is_true(const struct chat_model *m, const char *key)
{
	struct gguf_val	*v = m->get(m->arg, key);
	uint64_t	 b;

	return v != NULL && v->type == GGUF_VT_BOOL &&
	    gguf_val_u64(v, &b) == 0 && b != 0;
}

/*
 * The turn check: what follows the assistant's words up to the next
 * user's must hold an end-of-generation token: the eos, eot or eom token
 * of the model, or one of eog_texts that the vocabulary has (c holds
 * them, marked).
 */
static void
check_eog(struct lint *l, const char *out, size_t n, struct cands *c,
    int have_vocab)
{
	static const char *const keys[] = { "tokenizer.ggml.eos_token_id",
	    "tokenizer.ggml.eot_token_id", "tokenizer.ggml.eom_token_id" };
	const char	*a, *u;
	char		 names[256] = "";
	size_t		 i, k, len;
	int		 any = 0;

	if ((a = find(out, n, S_ASSISTANT, strlen(S_ASSISTANT))) == NULL)
		return;		/* the turn is not rendered: nothing to check */
	a += strlen(S_ASSISTANT);
	u = find(a, n - (size_t)(a - out), S_USER2, strlen(S_USER2));
	len = (size_t)((u != NULL ? u : out + n) - a);
	for (i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		char	*t = chat_token_text(l->m, keys[i]);
		int	 found;

		if (t == NULL || *t == '\0') {
			free(t);
			continue;
		}
		any = 1;
		if (strlen(names) + strlen(t) + 8 < sizeof names)
			snprintf(names + strlen(names), sizeof names -
			    strlen(names), "%s\"%s\"", *names ? ", " : "", t);
		found = find(a, len, t, strlen(t)) != NULL;
		free(t);
		if (found)
			return;
	}
	for (i = 0; have_vocab && i < sizeof eog_texts / sizeof eog_texts[0];
	    i++) {
		k = cand_add(c, eog_texts[i], strlen(eog_texts[i]));
		if (c->in_vocab[k] && find(a, len, eog_texts[i],
		    strlen(eog_texts[i])) != NULL)
			return;
	}
	if (!any && !have_vocab)
		return;		/* nothing to look for */
	say(l, GGUF_W_WARN, "no end-of-generation token after an assistant "
	    "turn%s%s%s: the model may never stop",
	    *names ? " (" : "", names, *names ? ", nor another the "
	    "vocabulary has)" : "");
}

/*
 * Whether a chat rendered without add_generation_prompt still ends on the
 * assistant's header: the last line of what opens the assistant's turn
 * (between the first user message and the assistant's text), not blank,
 * ends the rendering too. Phi-3's template ends every user turn with
 * "<|assistant|>\n", for one.
 */
static int
prompted_anyway(const char *out, size_t n)
{
	const char	*u1, *as, *u2, *e, *b;
	size_t		 ln, tn;

	if ((u1 = find(out, n, S_USER1, strlen(S_USER1))) == NULL ||
	    (as = find(u1, n - (size_t)(u1 - out), S_ASSISTANT,
	    strlen(S_ASSISTANT))) == NULL ||
	    (u2 = find(as, n - (size_t)(as - out), S_USER2,
	    strlen(S_USER2))) == NULL)
		return 0;
	u1 += strlen(S_USER1);
	/* the opener's last line that is not blank */
	for (e = as; e > u1 && (e[-1] == '\n' || e[-1] == ' ' ||
	    e[-1] == '\t' || e[-1] == '\r'); e--)
		;
	for (b = e; b > u1 && b[-1] != '\n'; b--)
		;
	while (b < e && (*b == ' ' || *b == '\t'))
		b++;
	if ((ln = (size_t)(e - b)) == 0)
		return 0;
	/* the rendering's end, blanks aside, after the last user message */
	u2 += strlen(S_USER2);
	for (e = out + n; e > u2 && (e[-1] == '\n' || e[-1] == ' ' ||
	    e[-1] == '\t' || e[-1] == '\r'); e--)
		;
	tn = (size_t)(e - u2);
	return tn >= ln && memcmp(e - ln, b, ln) == 0;
}

int
chat_lint(const struct chat_model *m, const char *src, size_t n,
    chat_lint_fn fn, void *arg)
{
	struct lint		 l = { m, fn, arg, 0, "" };
	struct jinja		*t;
	struct jinja_error	 err;
	struct cands		 c = { NULL, NULL, 0 };
	char			*gen, *nogen = NULL, *sys = NULL, *bos, w[700];
	size_t			 gn, nn, sn, i, nspecial;
	int			 have_vocab;

	memset(&err, 0, sizeof err);
	if ((t = jinja_parse(src, n, &err)) == NULL) {
		say(&l, GGUF_W_ERROR, "does not parse: %s",
		    where(&err, w, sizeof w));
		return l.errors;
	}
	if ((gen = render_sample(&l, t, CHAT_SAMPLE_PLAIN, 1, &gn, &err)) ==
	    NULL || (nogen = render_sample(&l, t, CHAT_SAMPLE_PLAIN, 0, &nn,
	    &err)) == NULL) {
		say(&l, GGUF_W_ERROR, "fails on a plain chat (user, assistant, "
		    "user): %s", where(&err, w, sizeof w));
		free(gen);
		jinja_free(t);
		return l.errors;
	}
	if (gn == nn && memcmp(gen, nogen, gn) == 0 &&
	    !prompted_anyway(nogen, nn))
		say(&l, GGUF_W_WARN, "add_generation_prompt changes nothing: "
		    "the model is not prompted to answer");
	if ((sys = render_sample(&l, t, CHAT_SAMPLE_DEFAULT, 1, &sn, &err)) ==
	    NULL)
		say(&l, GGUF_W_WARN, "%s a system message: %s", err.raised ?
		    "refuses" : "fails on",
		    where(&err, w, sizeof w));
	else if (find(sys, sn, S_SYSTEM, strlen(S_SYSTEM)) == NULL)
		say(&l, GGUF_W_WARN, "ignores the system message: its text is "
		    "not in the rendering");
	if (is_true(m, "tokenizer.ggml.add_bos_token") &&
	    (bos = chat_token_text(m, "tokenizer.ggml.bos_token_id")) != NULL) {
		if (*bos != '\0' && gn >= strlen(bos) &&
		    memcmp(gen, bos, strlen(bos)) == 0)
			say(&l, GGUF_W_WARN, "starts with bos_token \"%s\" while "
			    "tokenizer.ggml.add_bos_token is true: the prompt "
			    "gets two BOS tokens", bos);
		free(bos);
	}
	scan_specials(&c, gen, gn);
	if (sys != NULL)
		scan_specials(&c, sys, sn);
	nspecial = c.n;
	for (i = 0; i < sizeof eog_texts / sizeof eog_texts[0]; i++)
		cand_add(&c, eog_texts[i], strlen(eog_texts[i]));
	have_vocab = mark_vocab(m, &c) == 0;
	missing_tokens(&l, &c, nspecial, have_vocab);
	check_eog(&l, gen, gn, &c, have_vocab);
	cands_free(&c);
	free(gen);
	free(nogen);
	free(sys);
	jinja_free(t);
	return l.errors;
}
