/*
 * tokens.c - `ggufed tokens FILE [--id N]... [--text STRING]
 * [--grep REGEX] [--encode TEXT] [--json]`: the vocabulary, one token a
 * line, with the text each token stands for (token.h decodes byte-level
 * BPE and SentencePiece spellings).
 *
 *	ID<TAB>TYPE<TAB>SCORE<TAB>DECODED
 *
 * DECODED is escaped as all text is (\n, \t, \\, \xNN for bytes that do
 * not print), and quoted where a space (U+0020, a no-break or another
 * Unicode space) at either end would not show:
 * " the", " ", also "" and a text that starts with a quote. TYPE is the
 * token_type name, SCORE the score, "-" where the file has none.
 *
 * --id picks tokens (in the order given; an id past the vocabulary is
 * said after the others, exit 1), --text keeps those whose text is
 * exactly STRING, --grep those whose text a PCRE2 pattern matches;
 * together, a token must pass each. A selection that keeps no token exits
 * 1 with a message, as grep does. --encode TEXT gives the tokens TEXT
 * splits into, as the browser's text -> ids does (the vocabulary's
 * longest matches, left to right: an approximation of the tokenizer); a
 * byte no token covers is a line "-<TAB>-<TAB>-<TAB>BYTES", exit 1.
 * --json writes one document:
 * {"file", "model", "decoding", "count", "tokens": [{"id", "type",
 * "score", "text", "raw"}]}.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "re.h"
#include "token.h"

struct sel {
	uint64_t	*ids;
	size_t		 n_ids;
	const char	*text;
	const char	*pattern;
	const char	*encode;	/* --encode: text to split */
	struct gguf_re	*re;		/* on valid UTF-8 text */
	struct gguf_re	*re_bytes;	/* on text that is not */
};

struct vocab_src {
	struct gguf_val		*tok;
	struct gguf_val		*score;
	struct gguf_val		*type;
	struct gguf_vocab	*v;
	struct gguf_str		 model;
};

static int
valid_utf8(const char *p, size_t n)
{
	size_t		i = 0, len;
	unsigned	cp;

	while (i < n) {
		if ((len = gguf_utf8_seq((const unsigned char *)p + i, n - i,
		    &cp)) == 0)
			return 0;
		i += len;
	}
	return 1;
}

static int
selected(const struct sel *sel, const struct vocab_src *vs, uint64_t id)
{
	struct gguf_str	s;
	size_t		so, eo;

	gguf_vocab_text(vs->v, id, &s);
	if (sel->text != NULL && (s.n != strlen(sel->text) ||
	    memcmp(s.p, sel->text, s.n) != 0))
		return 0;
	if (sel->re != NULL && !gguf_re_match(valid_utf8(s.p, (size_t)s.n) ?
	    sel->re : sel->re_bytes, s.p, (size_t)s.n, 0, &so, &eo))
		return 0;
	return 1;
}

static const char *
type_text(int64_t tt, char *buf, size_t len)
{
	const char	*tn;

	if (tt == GGUF_TOKT_NONE)
		return "-";
	if ((tn = gguf_token_type_name(tt)) != NULL)
		return tn;
	snprintf(buf, len, "%lld", (long long)tt);
	return buf;
}

/* The score of id, or NULL: e is filled in. */
static struct gguf_val *
score_of(const struct vocab_src *vs, uint64_t id, struct gguf_val *e)
{
	struct gguf_err	err;
	double		d;

	if (vs->score == NULL || id >= vs->score->count ||
	    gguf_arr_get(vs->score, id, e, &err) != 0 ||
	    gguf_val_f64(e, &d) != 0)
		return NULL;
	return e;
}

/* A space of Unicode (White_Space, but the controls, which are escaped). */
static int
is_space(unsigned cp)
{
	return cp == ' ' || cp == 0xa0 || cp == 0x1680 ||
	    (cp >= 0x2000 && cp <= 0x200a) || cp == 0x202f || cp == 0x205f ||
	    cp == 0x3000;
}

/* Whether the UTF-8 of p (n bytes) starts or ends with a space. */
static int
space_at_end(const char *p, size_t n)
{
	const unsigned char	*u = (const unsigned char *)p;
	unsigned		 cp;
	size_t			 i = n;

	if (gguf_utf8_seq(u, n, &cp) > 0 && is_space(cp))
		return 1;
	while (i > 0 && (u[i - 1] & 0xc0) == 0x80 && n - i < 3)
		i--;		/* back to the last character's first byte */
	return i > 0 && gguf_utf8_seq(u + i - 1, n - i + 1, &cp) ==
	    n - i + 1 && is_space(cp);
}

/* A token's text: quoted where its spaces would not show (see above). */
static void
print_decoded(const char *p, size_t n)
{
	if (n == 0 || p[0] == '"' || space_at_end(p, n))
		out_quoted(stdout, p, n);
	else
		out_text(stdout, p, n);
}

static void
print_line(const struct vocab_src *vs, uint64_t id)
{
	struct gguf_val	 e, *sc;
	struct gguf_str	 s;
	char		 tb[32];

	gguf_vocab_text(vs->v, id, &s);
	printf("%llu\t%s\t", (unsigned long long)id,
	    type_text(gguf_vocab_type(vs->v, id), tb, sizeof tb));
	if ((sc = score_of(vs, id, &e)) != NULL)
		out_scalar(stdout, sc, 0);
	else
		fputc('-', stdout);
	fputc('\t', stdout);
	print_decoded(s.p, (size_t)s.n);
	fputc('\n', stdout);
}

/* --encode: bytes no token covers, where a token's line would be. */
static void
print_miss(struct json *j, const char *p, size_t n)
{
	if (j == NULL) {
		fputs("-\t-\t-\t", stdout);
		print_decoded(p, n);
		fputc('\n', stdout);
		return;
	}
	json_obj(j, JSON_FLAT);
	json_key(j, "id");
	json_null(j);
	json_key(j, "type");
	json_null(j);
	json_key(j, "score");
	json_null(j);
	json_key(j, "text");
	json_str(j, p, n);
	json_key(j, "raw");
	json_null(j);
	json_end(j);
}

static void
print_json(struct json *j, const struct vocab_src *vs, uint64_t id)
{
	struct gguf_val	 e, *sc;
	struct gguf_str	 s, raw;
	struct gguf_err	 err;
	int64_t		 tt = gguf_vocab_type(vs->v, id);
	const char	*tn;

	json_obj(j, JSON_FLAT);
	json_key(j, "id");
	json_u64(j, id);
	json_key(j, "type");
	if (tt == GGUF_TOKT_NONE)
		json_null(j);
	else if ((tn = gguf_token_type_name(tt)) != NULL)
		json_cstr(j, tn);
	else
		json_i64(j, tt);
	json_key(j, "score");
	if ((sc = score_of(vs, id, &e)) != NULL)
		json_scalar(j, sc);
	else
		json_null(j);
	gguf_vocab_text(vs->v, id, &s);
	json_key(j, "text");
	json_str(j, s.p, (size_t)s.n);
	raw.p = "";
	raw.n = 0;
	if (gguf_arr_get(vs->tok, id, &e, &err) != 0 ||
	    gguf_val_str(&e, &raw) != 0) {
		raw.p = "";
		raw.n = 0;
	}
	json_key(j, "raw");
	json_str(j, raw.p, (size_t)raw.n);
	json_end(j);
}

/* The array key, if it is an array of one of the element types. */
static struct gguf_val *
array_of(struct gguf_file *f, const char *key, uint32_t t1, uint32_t t2)
{
	struct gguf_val	*v = gguf_kv_get(f, key);

	if (v == NULL || v->type != GGUF_VT_ARR ||
	    (v->atype != t1 && v->atype != t2))
		return NULL;
	return v;
}

static int
run(struct gguf_file *f, const char *path, struct sel *sel, int json)
{
	struct vocab_src	 vs;
	struct gguf_val		*m, *pre;
	struct gguf_str		 ps = { NULL, 0 };
	struct json		 j;
	enum gguf_tok_kind	 kind;
	struct gguf_tok_piece	*pc = NULL;
	uint64_t		 id, n, shown = 0, bad = 0;
	size_t			 k, len, npc = 0, missed = 0;
	char			 g[32];

	memset(&vs, 0, sizeof vs);
	vs.tok = array_of(f, "tokenizer.ggml.tokens", GGUF_VT_STR, GGUF_VT_STR);
	if (vs.tok == NULL) {
		fprintf(stderr, "%s: ", cli_prog);
		out_text(stderr, path, strlen(path));
		fputs(gguf_kv_get(f, "tokenizer.ggml.tokens") == NULL ?
		    ": no vocabulary: there is no tokenizer.ggml.tokens key\n" :
		    ": no vocabulary: tokenizer.ggml.tokens is not an array "
		    "of strings\n", stderr);
		return EXIT_BADFILE;
	}
	vs.score = array_of(f, "tokenizer.ggml.scores", GGUF_VT_F32,
	    GGUF_VT_F64);
	vs.type = array_of(f, "tokenizer.ggml.token_type", GGUF_VT_I32,
	    GGUF_VT_U32);
	if ((m = gguf_kv_get(f, "tokenizer.ggml.model")) == NULL ||
	    gguf_val_str(m, &vs.model) != 0) {
		vs.model.p = NULL;
		vs.model.n = 0;
	}
	if ((pre = gguf_kv_get(f, "tokenizer.ggml.pre")) == NULL ||
	    gguf_val_str(pre, &ps) != 0) {
		ps.p = NULL;
		ps.n = 0;
	}
	n = vs.tok->count;
	kind = gguf_tok_kind(vs.model.p,
	    (size_t)vs.model.n, ps.p, (size_t)ps.n);
	vs.v = gguf_vocab_new(vs.tok, vs.type, kind);
	if (json) {
		json_init(&j, stdout);
		json_obj(&j, JSON_LINES);
		json_key(&j, "file");
		json_str(&j, path, strlen(path));
		json_key(&j, "model");
		if (vs.model.p != NULL)
			json_str(&j, vs.model.p, (size_t)vs.model.n);
		else
			json_null(&j);
		json_key(&j, "decoding");
		json_cstr(&j, gguf_tok_kind_name(kind));
		json_key(&j, "count");
		json_u64(&j, n);
		json_key(&j, "tokens");
		json_arr(&j, JSON_LINES);
	}
	if (sel->encode != NULL) {
		len = strlen(sel->encode);
		npc = gguf_vocab_split(vs.v, sel->encode, len, NULL, 0);
		pc = xreallocarray(NULL, npc + 1, sizeof *pc);
		gguf_vocab_split(vs.v, sel->encode, len, pc, npc);
	}
	for (k = 0; k < npc; k++) {
		if (pc[k].id < 0) {
			print_miss(json ? &j : NULL, sel->encode + pc[k].off,
			    pc[k].len);
			missed += pc[k].len;
		} else if (json)
			print_json(&j, &vs, (uint64_t)pc[k].id);
		else
			print_line(&vs, (uint64_t)pc[k].id);
	}
	for (k = 0; sel->encode == NULL && (sel->n_ids > 0 ?
	    k < sel->n_ids : k < n); k++) {
		id = sel->n_ids > 0 ? sel->ids[k] : k;
		if (id >= n) {
			bad++;
			continue;
		}
		if (!selected(sel, &vs, id))
			continue;
		if (json)
			print_json(&j, &vs, id);
		else
			print_line(&vs, id);
		shown++;
	}
	if (json) {
		json_end(&j);
		json_end(&j);
		json_finish(&j);
	}
	free(pc);
	gguf_vocab_free(vs.v);
	fflush(stdout);
	/* The ids past the vocabulary, after the tokens that are in it. */
	for (k = 0; k < sel->n_ids && bad > 0; k++)
		if (sel->ids[k] >= n)
			cli_error("no token %llu: the vocabulary has %s tokens",
			    (unsigned long long)sel->ids[k],
			    gguf_fmt_group(n, g, sizeof g));
	if (bad > 0)
		return EXIT_BADFILE;
	if (missed > 0) {
		cli_error("%zu byte%s of the text %s no token", missed,
		    missed == 1 ? "" : "s", missed == 1 ? "has" : "have");
		return EXIT_BADFILE;
	}
	if (shown == 0 && (sel->text != NULL || sel->re != NULL)) {
		fprintf(stderr, "%s: no token ", cli_prog);
		if (sel->text != NULL) {
			fputs("decodes to ", stderr);
			out_quoted(stderr, sel->text, strlen(sel->text));
		} else {
			fputs("matches ", stderr);
			out_quoted(stderr, sel->pattern,
			    strlen(sel->pattern));
		}
		fputc('\n', stderr);
		return EXIT_BADFILE;
	}
	return 0;
}

int
cmd_tokens(int argc, char **argv)
{
	struct gguf_file	*f;
	struct gguf_err		 err;
	struct sel		 sel;
	unsigned long long	 id;
	const char		*path = NULL, *grep = NULL;
	int			 i, json = 0, rc, dd = 0;

	argc = cli_take_shard(argc, argv);

	memset(&sel, 0, sizeof sel);
	sel.ids = xreallocarray(NULL, (size_t)argc, sizeof *sel.ids);
	for (i = 1; i < argc; i++) {
		const char	*opt = cli_opt(argv[i], &dd);

		if (opt == NULL)
			continue;
		if (strcmp(opt, "--json") == 0)
			json = 1;
		else if (strcmp(opt, "--id") == 0 ||
		    strcmp(opt, "--text") == 0 ||
		    strcmp(opt, "--grep") == 0 ||
		    strcmp(opt, "--encode") == 0) {
			if (i + 1 >= argc) {
				cli_usage_error("tokens", "%s needs a value",
				    argv[i]);
				free(sel.ids);
				return EXIT_USAGE;
			}
			if (argv[i][2] == 'i') {
				if (cli_parse_u64(argv[i + 1], &id) != 0) {
					cli_usage_error("tokens", "--id: '%s' "
					    "is not a token id", argv[i + 1]);
					free(sel.ids);
					return EXIT_USAGE;
				}
				sel.ids[sel.n_ids++] = id;
			} else if (argv[i][2] == 't')
				sel.text = argv[i + 1];
			else if (argv[i][2] == 'e')
				sel.encode = argv[i + 1];
			else
				grep = sel.pattern = argv[i + 1];
			i++;
		} else if (opt[0] == '-' && opt[1] == '-') {
			cli_usage_error("tokens", "unknown option '%s'", argv[i]);
			free(sel.ids);
			return EXIT_USAGE;
		} else if (path == NULL)
			path = argv[i];
		else {
			cli_usage_error("tokens", "too many arguments");
			free(sel.ids);
			return EXIT_USAGE;
		}
	}
	if (path == NULL) {
		cli_usage_error("tokens", "missing FILE");
		free(sel.ids);
		return EXIT_USAGE;
	}
	if (sel.encode != NULL && (sel.n_ids > 0 || sel.text != NULL ||
	    grep != NULL)) {
		cli_usage_error("tokens", "--encode gives the tokens of a "
		    "text: not with --id, --text or --grep");
		free(sel.ids);
		return EXIT_USAGE;
	}
	memset(&err, 0, sizeof err);
	if (grep != NULL && ((sel.re = gguf_re_compile(grep, GGUF_RE_UTF,
	    &err)) == NULL || (sel.re_bytes = gguf_re_compile(grep, 0,
	    &err)) == NULL)) {
		cli_usage_error("tokens", "--grep: %s", err.msg);
		gguf_re_free(sel.re);
		free(sel.ids);
		return EXIT_USAGE;
	}
	rc = EXIT_BADFILE;
	if ((f = cli_open(path)) != NULL) {
		rc = run(f, path, &sel, json);
		gguf_close(f);
	}
	gguf_re_free(sel.re);
	gguf_re_free(sel.re_bytes);
	free(sel.ids);
	return rc;
}
