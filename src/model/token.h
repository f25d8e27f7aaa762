/*
 * token.h - the text a vocabulary's token strings stand for.
 *
 * A GGUF vocabulary stores its tokens as the tokenizer spells them, not
 * as the text they produce. Byte-level BPE vocabularies (GPT-2's scheme,
 * tokenizer.ggml.model "gpt2" and the models read the same way) spell
 * every byte as one printable character, so " the" is stored as "Ġthe"
 * and the UTF-8 bytes of a Chinese character as "åĨ¯". SentencePiece
 * vocabularies ("llama", "t5", "bert", ...) write a space as U+2581 "▁"
 * and keep a byte the text needs as a token "<0x0A>". This file turns a
 * token into its text, following the token's type as llama.cpp does:
 * control, user-defined, unknown and unused tokens are shown as they are.
 * A token that does not decode cleanly (a character outside the byte
 * map, a byte token that is not <0xNN>) is given back raw, never lost.
 *
 * The vocabulary (gguf_vocab) is every token decoded once, with an index
 * from text to id: which ids decode to a string, and how a short string
 * splits greedily into the longest tokens it starts with. That split is
 * an approximation of the tokenizer, not its merges or its scores.
 */
#ifndef GGUF_TOKEN_H
#define GGUF_TOKEN_H

#include <stddef.h>
#include <stdint.h>

#include "gguf.h"

/* How a vocabulary's strings stand for text. */
enum gguf_tok_kind {
	GGUF_TOK_PLAIN,		/* as they are (byte tokens <0xNN> aside) */
	GGUF_TOK_BYTES,		/* byte-level BPE: GPT-2's byte map */
	GGUF_TOK_SPM		/* SentencePiece: U+2581 a space, <0xNN> a byte */
};

/* tokenizer.ggml.token_type values. */
#define GGUF_TOKT_NONE		(-1)	/* no type known */
#define GGUF_TOKT_NORMAL	1
#define GGUF_TOKT_UNKNOWN	2
#define GGUF_TOKT_CONTROL	3
#define GGUF_TOKT_USER		4
#define GGUF_TOKT_UNUSED	5
#define GGUF_TOKT_BYTE		6

/*
 * The kind for tokenizer.ggml.model (m, mn bytes; NULL if absent) and
 * tokenizer.ggml.pre (NULL if absent).
 */
enum gguf_tok_kind	 gguf_tok_kind(const char *m, size_t mn, const char *pre,
			    size_t pn);
/* "byte-level BPE", "SentencePiece", "as stored". */
const char		*gguf_tok_kind_name(enum gguf_tok_kind k);

/* What gguf_tok_decode did. */
#define GGUF_TOKD_TEXT	0	/* decoded into the text it stands for */
#define GGUF_TOKD_ASIS	1	/* kept as it is, by its type */
#define GGUF_TOKD_RAW	2	/* does not decode cleanly: kept raw */

/*
 * Decodes the token p (n bytes) of type type (GGUF_TOKT_*, or NONE) into
 * out, which has room for n bytes (the text is never longer than the
 * token), and sets *outlen. Returns GGUF_TOKD_*.
 */
int	gguf_tok_decode(enum gguf_tok_kind k, int64_t type, const char *p,
	    size_t n, char *out, size_t *outlen);

/*
 * Every token of a vocabulary decoded, and an index by text. Built from
 * the tokenizer.ggml.tokens array and, when not NULL, the token_type
 * array (elements that are not strings or numbers count as empty / NONE).
 */
struct gguf_vocab;

struct gguf_vocab	*gguf_vocab_new(struct gguf_val *tokens,
			    struct gguf_val *types, enum gguf_tok_kind k);
void			 gguf_vocab_free(struct gguf_vocab *v);
uint64_t		 gguf_vocab_size(const struct gguf_vocab *v);
/* The decoded text of token id and how it was decoded (GGUF_TOKD_*). */
int			 gguf_vocab_text(const struct gguf_vocab *v,
			    uint64_t id, struct gguf_str *out);
int64_t			 gguf_vocab_type(const struct gguf_vocab *v,
			    uint64_t id);
/*
 * The ids whose text is s (n bytes), in id order: the first max into
 * ids; returns how many there are.
 */
size_t			 gguf_vocab_find(const struct gguf_vocab *v,
			    const char *s, size_t n, uint64_t *ids,
			    size_t max);

/* One piece of a greedy split: s[off, off + len) is token id (-1: none). */
struct gguf_tok_piece {
	size_t	 off;
	size_t	 len;
	int64_t	 id;
};

/*
 * Splits s (n bytes) greedily, from the left, into the longest token
 * texts it starts with, among the tokens that text can produce (normal,
 * byte and user-defined ones; a byte token only where no other token has
 * its text). A byte no token covers is a piece of one byte with id -1.
 * The first max pieces go into out; returns how many there are.
 */
size_t			 gguf_vocab_split(const struct gguf_vocab *v,
			    const char *s, size_t n, struct gguf_tok_piece *out,
			    size_t max);

#endif /* GGUF_TOKEN_H */
