/*
 * chat.h - a model's chat template put to work: the context it is
 * rendered with, the sample conversations, and the lint of the classic
 * mistakes. No terminal: `ggufed template`, `validate`, the edit commands
 * and the browser share it.
 *
 * The context is what Hugging Face transformers' apply_chat_template
 * passes: messages, tools and documents (None unless given),
 * add_generation_prompt, and the tokenizer's special tokens as text
 * (bos_token, eos_token, unk_token, sep_token, pad_token, cls_token,
 * mask_token: those the model names), here taken from the model's
 * vocabulary. The metadata is read through a lookup, so an opened file
 * and an edited document serve alike.
 */
#ifndef GGUF_CHAT_H
#define GGUF_CHAT_H

#include <stddef.h>

#include "gguf.h"
#include "jinja/jinja.h"

/* The current value of key, or NULL. */
typedef struct gguf_val *(*chat_get_fn)(void *arg, const char *key);

struct chat_model {
	chat_get_fn	 get;
	void		*arg;
};

/* The time strftime_now formats in the samples and the lint. */
#define CHAT_SAMPLE_NOW	1753000000LL	/* 2025-07-20 08:26:40 UTC */

/* The sample conversations. */
enum chat_sample {
	CHAT_SAMPLE_DEFAULT,	/* system, user, assistant, user */
	CHAT_SAMPLE_PLAIN,	/* user, assistant, user */
	CHAT_SAMPLE_TOOLS,	/* a tool offered, called, and its result */
	CHAT_SAMPLE_COUNT
};
/* "with a system prompt", "plain chat", "with tool calls". */
const char	*chat_sample_name(enum chat_sample s);
/* The messages of a sample (a new reference to a list). */
jv		*chat_sample_messages(enum chat_sample s);
/* The tools of a sample: a list, or None. */
jv		*chat_sample_tools(enum chat_sample s);

/*
 * The text of the special token whose id is under key (a
 * "tokenizer.ggml.*_token_id" key) in a new string, or NULL when the model
 * names none or the id is outside the vocabulary.
 */
char		*chat_token_text(const struct chat_model *m, const char *key);

/*
 * The context: messages (taken), tools (taken; NULL = None), documents
 * None, add_generation_prompt, and the special tokens of m. The caller
 * may add keys (jv_dict_set) before rendering.
 */
jv		*chat_context(const struct chat_model *m, jv *messages,
		    jv *tools, int add_generation_prompt);

/*
 * Renders the template text src (n bytes) with ctx. 0 with *out, *outn
 * (malloc'd, NUL-terminated); -1 with err filled (err->line 0: the error
 * is not at a place of the template).
 */
int		 chat_render(const char *src, size_t n, jv *ctx, long long now,
		    char **out, size_t *outn, struct jinja_error *err);

/*
 * The template key for name: "tokenizer.chat_template", or
 * "tokenizer.chat_template.NAME". Into buf.
 */
const char	*chat_template_key(const char *name, char *buf, size_t len);

/* True if key (n bytes) is tokenizer.chat_template or .NAME of it. */
int		 chat_is_template_key(const char *key, size_t n);

/*
 * The time strftime_now formats: SOURCE_DATE_EPOCH when it is set (for
 * reproducible output), else now.
 */
long long	 chat_now(void);

/* Levels of lint findings: those of enum gguf_wlevel. */
typedef void	(*chat_lint_fn)(void *arg, int level, const char *msg);

/*
 * Lints the template src (n bytes) as model m would use it. Errors: it
 * does not parse; it fails on the plain sample conversation. Warnings,
 * each with its reason: the rendering starts with bos_token while
 * tokenizer.ggml.add_bos_token is true (double BOS); it uses a special
 * token that is not in the vocabulary; the text after an assistant turn
 * holds no end-of-generation token; add_generation_prompt changes
 * nothing; the system message does not appear (or the template refuses
 * it). Calls fn once per finding; returns the number of errors.
 */
int		 chat_lint(const struct chat_model *m, const char *src,
		    size_t n, chat_lint_fn fn, void *arg);

#endif /* GGUF_CHAT_H */
