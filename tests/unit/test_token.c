/*
 * test_token.c - token strings to text (token.h): the GPT-2 byte map both
 * ways over all 256 bytes, SentencePiece spaces and byte tokens, tokens
 * kept as they are by their type, tokens that do not decode kept raw, the
 * vocabulary's index by text and its greedy split; then known tokens of
 * real vocabularies from the shared fixtures.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gguf.h"
#include "token.h"
#include "tap.h"
#include "../tools/ggufgen.h"

/* Decodes s and compares with want (wn bytes) and the outcome how. */
static void
decodes(enum gguf_tok_kind k, int64_t type, const char *s, const char *want,
    size_t wn, int how, const char *what)
{
	char	out[256];
	size_t	n = 0;
	int	got;

	got = gguf_tok_decode(k, type, s, strlen(s), out, &n);
	if (!ok(got == how && n == wn && memcmp(out, want, wn) == 0, "%s",
	    what))
		diag("got %d, %zu bytes \"%.*s\"", got, n, (int)n, out);
}

/* The GPT-2 byte map's character for byte b, as UTF-8, into buf. */
static size_t
map_char(unsigned b, char *buf)
{
	unsigned	cp, k = 0, c;

	if ((b >= 33 && b <= 126) || (b >= 161 && b <= 172) || b >= 174)
		cp = b;
	else {
		for (c = 0; c < b; c++)
			if (!((c >= 33 && c <= 126) || (c >= 161 && c <= 172) ||
			    c >= 174))
				k++;
		cp = 0x100 + k;
	}
	if (cp < 0x80) {
		buf[0] = (char)cp;
		return 1;
	}
	buf[0] = (char)(0xc0 | cp >> 6);
	buf[1] = (char)(0x80 | (cp & 0x3f));
	return 2;
}

static void
test_vectors(void)
{
	char	in[8], out[8];
	size_t	n, len;
	int	b, bad = 0;

	decodes(GGUF_TOK_BYTES, GGUF_TOKT_NORMAL, "\xc4\xa0the", " the", 4,
	    GGUF_TOKD_TEXT, "byte-level: \"\xc4\xa0the\" is \" the\"");
	decodes(GGUF_TOK_BYTES, GGUF_TOKT_NORMAL, "\xc3\xa5\xc4\xa8\xc2\xaf",
	    "\xe5\x86\xaf", 3, GGUF_TOKD_TEXT,
	    "byte-level: \"\xc3\xa5\xc4\xa8\xc2\xaf\" is \"\xe5\x86\xaf\"");
	decodes(GGUF_TOK_BYTES, GGUF_TOKT_NORMAL, "\xc4\x8a", "\n", 1,
	    GGUF_TOKD_TEXT, "byte-level: U+010A is a newline");
	decodes(GGUF_TOK_BYTES, GGUF_TOKT_NONE, "\xc3\xa5\xc4\xa8", "\xe5\x86",
	    2, GGUF_TOKD_TEXT, "byte-level: part of a character stays bytes");
	decodes(GGUF_TOK_SPM, GGUF_TOKT_NORMAL, "\xe2\x96\x81the", " the", 4,
	    GGUF_TOKD_TEXT, "SentencePiece: \"\xe2\x96\x81the\" is \" the\"");
	decodes(GGUF_TOK_SPM, GGUF_TOKT_BYTE, "<0x0A>", "\n", 1,
	    GGUF_TOKD_TEXT, "SentencePiece: <0x0A> is a newline");
	decodes(GGUF_TOK_SPM, GGUF_TOKT_NONE, "<0xff>", "\xff", 1,
	    GGUF_TOKD_TEXT, "without a type, <0xff> is a byte");
	decodes(GGUF_TOK_SPM, GGUF_TOKT_BYTE, "<0xZZ>", "<0xZZ>", 6,
	    GGUF_TOKD_RAW, "a byte token that is not <0xNN> stays raw");
	decodes(GGUF_TOK_SPM, GGUF_TOKT_CONTROL, "</s>", "</s>", 4,
	    GGUF_TOKD_ASIS, "a control token is shown as it is");
	decodes(GGUF_TOK_SPM, GGUF_TOKT_CONTROL, "\xe2\x96\x81x",
	    "\xe2\x96\x81x", 4, GGUF_TOKD_ASIS, "even with a U+2581 in it");
	decodes(GGUF_TOK_BYTES, GGUF_TOKT_USER, "\xc4\xa0<|im|>",
	    "\xc4\xa0<|im|>", 8, GGUF_TOKD_ASIS,
	    "a user-defined token is shown as it is");
	decodes(GGUF_TOK_BYTES, GGUF_TOKT_NORMAL, "\xe5\x86\xaf",
	    "\xe5\x86\xaf", 3, GGUF_TOKD_RAW,
	    "byte-level: a character outside the map keeps the token raw");
	decodes(GGUF_TOK_BYTES, GGUF_TOKT_NORMAL, "a b", "a b", 3,
	    GGUF_TOKD_RAW, "byte-level: a plain space is outside the map");
	decodes(GGUF_TOK_BYTES, GGUF_TOKT_NORMAL, "\xff", "\xff", 1,
	    GGUF_TOKD_RAW, "byte-level: invalid UTF-8 keeps the token raw");
	decodes(GGUF_TOK_PLAIN, GGUF_TOKT_NORMAL, "\xe2\x96\x81x",
	    "\xe2\x96\x81x", 4, GGUF_TOKD_TEXT, "as stored: nothing changes");
	decodes(GGUF_TOK_BYTES, GGUF_TOKT_NORMAL, "", "", 0, GGUF_TOKD_TEXT,
	    "an empty token is empty");

	for (b = 0; b < 256; b++) {
		n = map_char((unsigned)b, in);
		if (gguf_tok_decode(GGUF_TOK_BYTES, GGUF_TOKT_NORMAL, in, n, out,
		    &len) != GGUF_TOKD_TEXT || len != 1 ||
		    (unsigned char)out[0] != b)
			bad++;
	}
	is_u64(bad, 0, "every byte's character of the map decodes to it");
	in[0] = (char)0xc5;		/* U+0144, one past the map */
	in[1] = (char)0x84;
	ok(gguf_tok_decode(GGUF_TOK_BYTES, GGUF_TOKT_NORMAL, in, 2, out,
	    &len) == GGUF_TOKD_RAW, "U+0144 is past the map");
}

static void
test_kinds(void)
{
	ok(gguf_tok_kind("gpt2", 4, NULL, 0) == GGUF_TOK_BYTES,
	    "gpt2 is byte-level");
	ok(gguf_tok_kind("gpt2", 4, "qwen2", 5) == GGUF_TOK_BYTES,
	    "gpt2 with a pre-tokenizer is byte-level");
	ok(gguf_tok_kind("gpt2", 4, "gemma4", 6) == GGUF_TOK_SPM,
	    "gpt2 with the gemma4 pre-tokenizer writes U+2581");
	ok(gguf_tok_kind("llama", 5, "default", 7) == GGUF_TOK_SPM,
	    "llama is SentencePiece");
	ok(gguf_tok_kind("t5", 2, NULL, 0) == GGUF_TOK_SPM &&
	    gguf_tok_kind("bert", 4, NULL, 0) == GGUF_TOK_SPM,
	    "t5 and bert write spaces as U+2581");
	ok(gguf_tok_kind("rwkv", 4, NULL, 0) == GGUF_TOK_PLAIN &&
	    gguf_tok_kind(NULL, 0, NULL, 0) == GGUF_TOK_PLAIN &&
	    gguf_tok_kind("gpt", 3, NULL, 0) == GGUF_TOK_PLAIN,
	    "others, and none, as stored");
}

/* A small SentencePiece vocabulary. */
static const char *const spm_tokens[] = {
	"<unk>", "<s>", "\xe2\x96\x81", "\xe2\x96\x81t", "\xe2\x96\x81the",
	"re", "<0x41>", "A", "<0x0A>", "\xe2\x96\x81the", "h", "e",
};
static const int32_t spm_types[] = { 2, 3, 1, 1, 1, 1, 6, 1, 6, 1, 1, 1 };
#define N_SPM	(sizeof spm_tokens / sizeof spm_tokens[0])

static void
test_vocab(void)
{
	struct gguf_vocab	*v;
	struct gguf_file	*f;
	struct gguf_val		*tok, *ty;
	struct gguf_err		 err;
	struct gguf_tok_piece	 pc[16];
	struct gguf_str		 s;
	struct gg		 g;
	uint64_t		 ids[4];
	size_t			 i, n;

	gg_init(&g, 3, 0);
	gg_header(&g, 0, 2);
	gg_key(&g, "tokenizer.ggml.tokens", GG_ARR);
	gg_arr(&g, GG_STR, N_SPM);
	for (i = 0; i < N_SPM; i++)
		gg_str(&g, spm_tokens[i]);
	gg_key(&g, "tokenizer.ggml.token_type", GG_ARR);
	gg_arr(&g, GG_I32, N_SPM);
	for (i = 0; i < N_SPM; i++)
		gg_u32(&g, (uint32_t)spm_types[i]);
	memset(&err, 0, sizeof err);
	f = gguf_open_buffer(g.buf, g.len, &err);
	if (!ok(f != NULL, "the vocabulary file opens")) {
		diag("%s", err.msg);
		gg_free(&g);
		return;
	}
	tok = gguf_kv_get(f, "tokenizer.ggml.tokens");
	ty = gguf_kv_get(f, "tokenizer.ggml.token_type");
	v = gguf_vocab_new(tok, ty, GGUF_TOK_SPM);
	is_u64(gguf_vocab_size(v), N_SPM, "every token is in the vocabulary");
	ok(gguf_vocab_text(v, 4, &s) == GGUF_TOKD_TEXT && s.n == 4 &&
	    memcmp(s.p, " the", 4) == 0, "token 4's text is \" the\"");
	ok(gguf_vocab_text(v, 1, &s) == GGUF_TOKD_ASIS && s.n == 3,
	    "token 1 (control) is as it is");
	ok(gguf_vocab_type(v, 6) == GGUF_TOKT_BYTE, "token 6 is a byte");
	n = gguf_vocab_find(v, " the", 4, ids, 4);
	ok(n == 2 && ids[0] == 4 && ids[1] == 9,
	    "two tokens decode to \" the\", in id order");
	is_u64(gguf_vocab_find(v, "A", 1, ids, 4), 2,
	    "\"A\": the byte token and the normal one");
	is_u64(gguf_vocab_find(v, "zz", 2, ids, 4), 0, "none is \"zz\"");
	is_u64(gguf_vocab_find(v, "", 0, ids, 4), 0, "none is empty");

	n = gguf_vocab_split(v, " thereA\nq", 9, pc, 16);
	ok(n == 5 && pc[0].id == 4 && pc[0].len == 4 && pc[1].id == 5 &&
	    pc[2].id == 7 && pc[3].id == 8 && pc[4].id == -1 &&
	    pc[4].off == 8 && pc[4].len == 1,
	    "\" thereA\\nq\" splits as \" the\" re A <0x0A> and q (none)");
	n = gguf_vocab_split(v, " th", 3, pc, 1);
	ok(n == 2 && pc[0].id == 3, "the split counts past max pieces");
	is_u64(gguf_vocab_split(v, "", 0, pc, 16), 0, "an empty split");
	gguf_vocab_free(v);

	v = gguf_vocab_new(tok, NULL, GGUF_TOK_BYTES);
	ok(gguf_vocab_text(v, 2, &s) == GGUF_TOKD_RAW && s.n == 3,
	    "read as byte-level, U+2581 stays raw");
	ok(gguf_vocab_text(v, 100, &s) == GGUF_TOKD_RAW && s.n == 0,
	    "an id past the end has no text");
	gguf_vocab_free(v);
	v = gguf_vocab_new(NULL, NULL, GGUF_TOK_BYTES);
	is_u64(gguf_vocab_size(v), 0, "no tokens, an empty vocabulary");
	is_u64(gguf_vocab_split(v, "ab", 2, pc, 16), 2,
	    "an empty vocabulary splits into bytes");
	gguf_vocab_free(v);
	gguf_close(f);
	gg_free(&g);
}

/* Token id of a real vocabulary decodes to want. */
static void
real(const char *name, uint64_t id, const char *raw, const char *want,
    uint64_t *n_raw)
{
	struct gguf_vocab	*v;
	struct gguf_file	*f;
	struct gguf_val		*m, *pre, *tok, *e;
	struct gguf_val		 el;
	struct gguf_str		 ms = { NULL, 0 }, ps = { NULL, 0 }, s, rs;
	struct gguf_err		 err;
	char			 rel[256], path[512];

	*n_raw = UINT64_MAX;
	snprintf(rel, sizeof rel, "fixtures/real/%s", name);
	if (shared_path(rel, path, sizeof path) == NULL) {
		skip("%s: not in the shared fixtures", name);
		return;
	}
	memset(&err, 0, sizeof err);
	if (!ok((f = gguf_open(path, &err)) != NULL, "%s opens", name))
		return;
	if ((m = gguf_kv_get(f, "tokenizer.ggml.model")) != NULL)
		gguf_val_str(m, &ms);
	if ((pre = gguf_kv_get(f, "tokenizer.ggml.pre")) != NULL)
		gguf_val_str(pre, &ps);
	tok = gguf_kv_get(f, "tokenizer.ggml.tokens");
	e = gguf_kv_get(f, "tokenizer.ggml.token_type");
	v = gguf_vocab_new(tok, e, gguf_tok_kind(ms.p, (size_t)ms.n, ps.p,
	    (size_t)ps.n));
	rs.n = 0;
	if (gguf_arr_get(tok, id, &el, &err) == 0)
		gguf_val_str(&el, &rs);
	gguf_vocab_text(v, id, &s);
	ok(rs.n == strlen(raw) && memcmp(rs.p, raw, rs.n) == 0 &&
	    s.n == strlen(want) && memcmp(s.p, want, s.n) == 0,
	    "%s: token %llu \"%s\" is \"%s\"", name, (unsigned long long)id,
	    raw, *want == '\n' ? "\\n" : want);
	*n_raw = 0;
	for (id = 0; id < gguf_vocab_size(v); id++)
		if (gguf_vocab_text(v, id, &s) == GGUF_TOKD_RAW)
			(*n_raw)++;
	gguf_vocab_free(v);
	gguf_close(f);
}

/*
 * Known tokens of real vocabularies; in the byte-level ones every token
 * decodes cleanly (none is kept raw).
 */
static void
test_real(void)
{
	static const struct {
		const char	*file;
		uint64_t	 id;
		const char	*raw, *text;
	} t[] = {
		{ "ggml-vocab-gpt-2.gguf", 262, "\xc4\xa0the", " the" },
		{ "ggml-vocab-gpt-2.gguf", 198, "\xc4\x8a", "\n" },
		{ "ggml-vocab-gpt-2.gguf", 50256, "<|endoftext|>",
		    "<|endoftext|>" },
		{ "ggml-vocab-deepseek-coder.gguf", 30138,
		    "\xc3\xa5\xc4\xa8\xc2\xaf", "\xe5\x86\xaf" },
		{ "ggml-vocab-falcon.gguf", 248, "\xc4\xa0the", " the" },
		{ "ggml-vocab-starcoder.gguf", 341, "\xc4\xa0the", " the" },
		{ "ggml-vocab-llama-spm.gguf", 278, "\xe2\x96\x81the", " the" },
		{ "ggml-vocab-llama-spm.gguf", 13, "<0x0A>", "\n" },
		{ "ggml-vocab-llama-spm.gguf", 2, "</s>", "</s>" },
		{ "ggml-vocab-bert-bge.gguf", 1996, "\xe2\x96\x81the", " the" },
	};
	uint64_t	n_raw;
	size_t		i;

	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		real(t[i].file, t[i].id, t[i].raw, t[i].text, &n_raw);
		if (n_raw != UINT64_MAX && (i == 0 ||
		    strcmp(t[i].file, t[i - 1].file) != 0))
			is_u64(n_raw, 0, "%s: every token decodes cleanly",
			    t[i].file);
	}
}

int
main(void)
{
	test_vectors();
	test_kinds();
	test_vocab();
	test_real();
	return tap_done();
}
