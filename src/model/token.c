/*
 * token.c - token strings to the text they stand for (see token.h).
 *
 * GPT-2's byte map gives each of the 256 bytes a printable character:
 * the bytes that are printable in Latin-1 (33-126, 161-172, 174-255)
 * stand for themselves as code points, and the other 68 (0-32, 127-160,
 * 173), in order, take U+0100 to U+0143. Decoding reads the characters
 * back into bytes; a character outside the map means the token is not a
 * byte-level string, and it is then kept as it is.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "gguf.h"
#include "token.h"
#include "xmalloc.h"

#define SPM_SPACE	"\xe2\x96\x81"	/* U+2581 */

static int
direct_byte(unsigned cp)
{
	return (cp >= 33 && cp <= 126) || (cp >= 161 && cp <= 172) ||
	    (cp >= 174 && cp <= 255);
}

/* The byte the map's character cp stands for, or -1. */
static int
map_byte(unsigned cp)
{
	unsigned	b, k = 0;

	if (direct_byte(cp))
		return (int)cp;
	if (cp < 0x100 || cp >= 0x100 + 68)
		return -1;
	for (b = 0; b < 256; b++) {
		if (direct_byte(b))
			continue;
		if (k++ == cp - 0x100)
			return (int)b;
	}
	return -1;
}

static int
streq(const char *p, size_t n, const char *s)
{
	return p != NULL && n == strlen(s) && memcmp(p, s, n) == 0;
}

enum gguf_tok_kind
gguf_tok_kind(const char *m, size_t mn, const char *pre, size_t pn)
{
	/* BPE pre-tokenizers that write spaces as U+2581, as llama.cpp has it. */
	if (streq(pre, pn, "gemma4") ||
	    streq(pre, pn, "granite-embed-multi-311m") ||
	    streq(pre, pn, "sarvam-moe"))
		return GGUF_TOK_SPM;
	if (streq(m, mn, "gpt2") || streq(m, mn, "hybriddna") ||
	    streq(m, mn, "whitespace"))
		return GGUF_TOK_BYTES;
	if (streq(m, mn, "llama") || streq(m, mn, "t5") ||
	    streq(m, mn, "bert") || streq(m, mn, "gemma4"))
		return GGUF_TOK_SPM;
	return GGUF_TOK_PLAIN;
}

const char *
gguf_tok_kind_name(enum gguf_tok_kind k)
{
	switch (k) {
	case GGUF_TOK_BYTES:
		return "byte-level BPE";
	case GGUF_TOK_SPM:
		return "SentencePiece";
	default:
		return "as stored";
	}
}

/* The byte of "<0xNN>", or -1. */
static int
byte_token(const char *p, size_t n)
{
	int	hi, lo;

	if (n != 6 || memcmp(p, "<0x", 3) != 0 || p[5] != '>')
		return -1;
	if ((hi = gguf_hexval((unsigned char)p[3])) < 0 ||
	    (lo = gguf_hexval((unsigned char)p[4])) < 0)
		return -1;
	return hi << 4 | lo;
}

static int
asis(const char *p, size_t n, char *out, size_t *outlen, int how)
{
	if (n > 0)
		memcpy(out, p, n);
	*outlen = n;
	return how;
}

static int
decode_bytes(const char *p, size_t n, char *out, size_t *outlen)
{
	size_t		i = 0, o = 0, len;
	unsigned	cp;
	int		b;

	while (i < n) {
		len = gguf_utf8_seq((const unsigned char *)p + i, n - i, &cp);
		if (len == 0 || (b = map_byte(cp)) < 0)
			return asis(p, n, out, outlen, GGUF_TOKD_RAW);
		out[o++] = (char)b;
		i += len;
	}
	*outlen = o;
	return GGUF_TOKD_TEXT;
}

static int
decode_spm(const char *p, size_t n, char *out, size_t *outlen)
{
	size_t	i = 0, o = 0;

	while (i < n) {
		if (n - i >= 3 && memcmp(p + i, SPM_SPACE, 3) == 0) {
			out[o++] = ' ';
			i += 3;
		} else
			out[o++] = p[i++];
	}
	*outlen = o;
	return GGUF_TOKD_TEXT;
}

int
gguf_tok_decode(enum gguf_tok_kind k, int64_t type, const char *p, size_t n,
    char *out, size_t *outlen)
{
	int	b;

	if (type != GGUF_TOKT_NONE && type != GGUF_TOKT_NORMAL &&
	    type != GGUF_TOKT_BYTE)
		return asis(p, n, out, outlen, GGUF_TOKD_ASIS);
	if (k == GGUF_TOK_BYTES)
		return decode_bytes(p, n, out, outlen);
	/* Byte tokens; without a type, a token spelt like one is one. */
	if ((b = byte_token(p, n)) >= 0) {
		out[0] = (char)b;
		*outlen = 1;
		return GGUF_TOKD_TEXT;
	}
	if (type == GGUF_TOKT_BYTE)
		return asis(p, n, out, outlen, GGUF_TOKD_RAW);
	if (k == GGUF_TOK_SPM)
		return decode_spm(p, n, out, outlen);
	return asis(p, n, out, outlen, GGUF_TOKD_TEXT);
}

/* ------------------------------------------------------------ vocabulary */

#define NO_ID	UINT32_MAX

struct gguf_vocab {
	uint64_t	 n;
	char		*text;		/* every decoded text, one after another */
	uint64_t	*off;		/* n + 1 offsets into text */
	int64_t		*type;
	unsigned char	*how;		/* GGUF_TOKD_* */
	uint32_t	*next;		/* the next id with the same text */
	uint32_t	*slot;		/* hash table: first id of a text */
	uint32_t	*tail;		/* and the last, by slot */
	size_t		 mask;
	size_t		 maxlen;
};

static size_t
hash(const char *s, size_t n)
{
	uint64_t	h = 0xcbf29ce484222325ULL;
	size_t		i;

	for (i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ULL;
	}
	return (size_t)h;
}

static size_t
text_of(const struct gguf_vocab *v, uint64_t id, const char **p)
{
	*p = v->text + v->off[id];
	return (size_t)(v->off[id + 1] - v->off[id]);
}

/* The slot holding text s, or the empty slot where it would go. */
static size_t
find_slot(const struct gguf_vocab *v, const char *s, size_t n)
{
	const char	*t;
	size_t		 i = hash(s, n) & v->mask;

	while (v->slot[i] != NO_ID) {
		if (text_of(v, v->slot[i], &t) == n && memcmp(t, s, n) == 0)
			break;
		i = (i + 1) & v->mask;
	}
	return i;
}

struct gguf_vocab *
gguf_vocab_new(struct gguf_val *tokens, struct gguf_val *types,
    enum gguf_tok_kind k)
{
	struct gguf_vocab	*v = xcalloc(1, sizeof *v);
	struct gguf_val		 e;
	struct gguf_str		 s;
	struct gguf_err		 err;
	uint64_t		 id, cap = 0, used = 0;
	size_t			 len, i, size;
	int64_t			 tt;

	v->n = tokens != NULL && tokens->count < NO_ID ? tokens->count : 0;
	v->off = xcalloc(v->n + 1, sizeof *v->off);
	v->type = xcalloc(v->n + 1, sizeof *v->type);
	v->how = xcalloc(v->n + 1, 1);
	v->next = xcalloc(v->n + 1, sizeof *v->next);
	for (id = 0; id < v->n; id++) {
		s.p = "";
		s.n = 0;
		if (gguf_arr_get(tokens, id, &e, &err) != 0 ||
		    gguf_val_str(&e, &s) != 0) {
			s.p = "";
			s.n = 0;
		}
		tt = GGUF_TOKT_NONE;
		if (types != NULL && id < types->count &&
		    (gguf_arr_get(types, id, &e, &err) != 0 ||
		    gguf_val_i64(&e, &tt) != 0))
			tt = GGUF_TOKT_NONE;
		v->type[id] = tt;
		if (used + s.n > cap) {
			cap = cap * 2 > used + s.n ? cap * 2 : used + s.n + 4096;
			v->text = xreallocarray(v->text, (size_t)cap, 1);
		}
		v->how[id] = (unsigned char)gguf_tok_decode(k, tt, s.p,
		    (size_t)s.n, v->text + used, &len);
		v->off[id] = used;
		used += len;
		v->off[id + 1] = used;
		if (len > v->maxlen)
			v->maxlen = len;
	}
	if (v->text == NULL)
		v->text = xmalloc(1);
	for (size = 16; size < 2 * v->n; size *= 2)
		;
	v->mask = size - 1;
	v->slot = xreallocarray(NULL, size, sizeof *v->slot);
	v->tail = xreallocarray(NULL, size, sizeof *v->tail);
	for (i = 0; i < size; i++)
		v->slot[i] = v->tail[i] = NO_ID;
	for (id = 0; id < v->n; id++) {
		const char	*t;
		size_t		 tn = text_of(v, id, &t);

		v->next[id] = NO_ID;
		if (tn == 0)
			continue;
		i = find_slot(v, t, tn);
		if (v->slot[i] == NO_ID)
			v->slot[i] = (uint32_t)id;
		else
			v->next[v->tail[i]] = (uint32_t)id;
		v->tail[i] = (uint32_t)id;
	}
	return v;
}

void
gguf_vocab_free(struct gguf_vocab *v)
{
	if (v == NULL)
		return;
	free(v->text);
	free(v->off);
	free(v->type);
	free(v->how);
	free(v->next);
	free(v->slot);
	free(v->tail);
	free(v);
}

uint64_t
gguf_vocab_size(const struct gguf_vocab *v)
{
	return v->n;
}

int
gguf_vocab_text(const struct gguf_vocab *v, uint64_t id, struct gguf_str *out)
{
	if (id >= v->n) {
		out->p = "";
		out->n = 0;
		return GGUF_TOKD_RAW;
	}
	out->n = text_of(v, id, &out->p);
	return v->how[id];
}

int64_t
gguf_vocab_type(const struct gguf_vocab *v, uint64_t id)
{
	return id < v->n ? v->type[id] : GGUF_TOKT_NONE;
}

size_t
gguf_vocab_find(const struct gguf_vocab *v, const char *s, size_t n,
    uint64_t *ids, size_t max)
{
	size_t		k = 0;
	uint32_t	id;

	if (n == 0)
		return 0;
	for (id = v->slot[find_slot(v, s, n)]; id != NO_ID; id = v->next[id]) {
		if (k < max)
			ids[k] = id;
		k++;
	}
	return k;
}

/* The token a split uses for text s: -1 if none can be produced. */
static int64_t
split_id(const struct gguf_vocab *v, const char *s, size_t n)
{
	uint32_t	id;
	int64_t		byte = -1, tt;

	for (id = v->slot[find_slot(v, s, n)]; id != NO_ID; id = v->next[id]) {
		tt = v->type[id];
		if (tt == GGUF_TOKT_NONE || tt == GGUF_TOKT_NORMAL ||
		    tt == GGUF_TOKT_USER)
			return id;
		if (tt == GGUF_TOKT_BYTE && byte < 0)
			byte = id;
	}
	return byte;
}

size_t
gguf_vocab_split(const struct gguf_vocab *v, const char *s, size_t n,
    struct gguf_tok_piece *out, size_t max)
{
	size_t	i = 0, k = 0, len;
	int64_t	id;

	while (i < n) {
		id = -1;
		len = n - i < v->maxlen ? n - i : v->maxlen;
		for (; len > 0; len--)
			if ((id = split_id(v, s + i, len)) >= 0)
				break;
		if (len == 0)
			len = 1;
		if (k < max) {
			out[k].off = i;
			out[k].len = len;
			out[k].id = id;
		}
		k++;
		i += len;
	}
	return k;
}
