/*
 * lang.c - parsing and applying the commands of the edit language.
 *
 * Parsing turns a line into a struct lang_cmd and checks only its shape:
 * the command, its keys and names (bare or quoted), index and type
 * suffixes, the regex. Values are kept as text until the command is
 * applied, because their type is only known then (a `set KEY VALUE`
 * takes the type the key has in the document).
 *
 * Applying goes through the document's edit functions, so every check
 * of doc.h holds whichever front end typed the command, and a refused
 * command leaves the document unchanged.
 *
 * The commands are one table, lang_defs: a row a command with its name,
 * its op, its usage and its parser. The browser's own commands (w, q,
 * help, ...) are rows too, so its `:help`, its completion and the test of
 * the manual read the same table; only the browser's parse takes them.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gguf.h"
#include "chat.h"
#include "doc.h"
#include "lang.h"
#include "set.h"
#include "xmalloc.h"
#include "schema.h"
#include "suggest.h"
#include "value.h"

static int msgf(char *, size_t, const char *, ...)
    __attribute__((format(printf, 3, 4)));

static int
msgf(char *msg, size_t len, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(msg, len, fmt, ap);
	va_end(ap);
	return LANG_ERR;
}
#ifdef __clang_analyzer__
#define msgf(...)	(msgf(__VA_ARGS__), LANG_ERR)	/* as in gguf.h */
#endif

static char *
dupn(const char *s, size_t n)
{
	char	*p = malloc(n + 1);

	if (p == NULL)
		abort();
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

const struct lang_def *
lang_find(const char *name, size_t n)
{
	size_t	i;

	for (i = 0; i < lang_n_defs; i++) {
		if (strlen(lang_defs[i].name) == n &&
		    memcmp(lang_defs[i].name, name, n) == 0)
			return &lang_defs[i];
	}
	return NULL;
}

const char *
lang_usage(const char *name)
{
	const struct lang_def	*def = lang_find(name, strlen(name));

	return def != NULL ? def->usage : NULL;
}

int
lang_modifies(const struct lang_cmd *cmd)
{
	return cmd->op != LANG_NOP && cmd->op < LANG_WRITE;
}

void
lang_cmd_free(struct lang_cmd *cmd)
{
	free(cmd->name);
	free(cmd->arg);
	free(cmd->value);
	memset(cmd, 0, sizeof *cmd);
}

/* ----------------------------------------------------------------- tokens */

static int
parse_i64(const char *s, size_t n, int64_t *v)
{
	int64_t	acc = 0;
	size_t	i = 0;
	int	neg = 0;

	if (n > 0 && s[0] == '-') {
		neg = 1;
		i = 1;
	}
	if (i == n)
		return -1;
	for (; i < n; i++) {
		if (s[i] < '0' || s[i] > '9' || acc > (INT64_MAX - 9) / 10)
			return -1;
		acc = acc * 10 + (s[i] - '0');
	}
	*v = neg ? -acc : acc;
	return 0;
}

/* Parses "[I]" or "[I:J]" (all of s). */
static int
parse_index(const char *s, size_t n, struct lang_cmd *cmd)
{
	const char	*colon;

	if (n < 3 || s[0] != '[' || s[n - 1] != ']')
		return -1;
	s++;
	n -= 2;
	colon = memchr(s, ':', n);
	if (colon == NULL) {
		if (parse_i64(s, n, &cmd->i0) != 0)
			return -1;
	} else {
		if (parse_i64(s, (size_t)(colon - s), &cmd->i0) != 0 ||
		    parse_i64(colon + 1, n - (size_t)(colon - s) - 1,
		    &cmd->i1) != 0)
			return -1;
		cmd->has_range = 1;
	}
	cmd->has_index = 1;
	return 0;
}

/*
 * Splits a key's suffixes off the end of s[0..*n): ":TYPE" (if allowed)
 * then "[I]" (if allowed). The type is what follows the last colon that
 * is not inside a trailing index ([1:3]); if it is no type, that is an
 * error (LANG_ERR with msg): a key holding a colon is written quoted.
 */
static int
split_suffixes(const char *s, size_t *n, struct lang_cmd *cmd, int types,
    int index, char *msg, size_t len)
{
	struct lang_cmd	scratch;
	size_t		i, lim = *n, tend = *n;
	char		em[200];

	if (types) {
		/* A trailing index is not searched for the colon. */
		if (*n > 0 && s[*n - 1] == ']') {
			for (i = *n - 1; i-- > 0;) {
				if (s[i] != '[')
					continue;
				memset(&scratch, 0, sizeof scratch);
				if (parse_index(s + i, *n - i, &scratch) == 0)
					lim = tend = i;
				break;
			}
		}
		for (i = lim; i-- > 0;) {
			if (s[i] != ':')
				continue;
			if (value_parse_type(s + i + 1, tend - i - 1,
			    &cmd->type, &cmd->atype, em, sizeof em) != 0)
				return msgf(msg, len, "%s; a key holding a "
				    "colon is written \"quoted\"", em);
			cmd->has_type = 1;
			/* KEY:TYPE[I]: both, which set refuses. */
			if (index && tend < *n)
				parse_index(s + tend, *n - tend, cmd);
			*n = i;
			break;
		}
	}
	if (index && *n > 0 && s[*n - 1] == ']') {
		for (i = *n - 1; i-- > 0;) {
			if (s[i] == '[') {
				if (parse_index(s + i, *n - i, cmd) == 0)
					*n = i;
				break;
			}
		}
	}
	return 0;
}

/*
 * Reads a key or name token at s[*pos]: quoted, or bare up to a blank
 * (or to the end when whole). Suffixes follow the rules of split_suffixes.
 */
static int
key_token(const char *s, size_t n, size_t *pos, int whole, struct lang_cmd *cmd,
    int types, int index, char **out, size_t *outlen, char *msg, size_t len)
{
	size_t	 st = *pos, used, e, sl;
	char	*q, em[200];

	if (st < n && s[st] == '"') {
		if (value_unquote(s + st, n - st, &used, &q, outlen, em,
		    sizeof em) != 0)
			return msgf(msg, len, "%s", em);
		e = st + used;
		while (e < n && (whole || !value_is_blank((unsigned char)s[e])))
			e++;
		sl = e - st - used;
		if (split_suffixes(s + st + used, &sl, cmd, types, index, msg,
		    len) != 0) {
			free(q);
			return LANG_ERR;
		}
		if (sl != 0) {
			free(q);
			return msgf(msg, len, "unexpected text after a quoted "
			    "name");
		}
		*out = q;
		*pos = e;
		return 0;
	}
	e = st;
	while (e < n && (whole || !value_is_blank((unsigned char)s[e])))
		e++;
	if (e == st)
		return msgf(msg, len, "a name is missing");
	sl = e - st;
	if (split_suffixes(s + st, &sl, cmd, types, index, msg, len) != 0)
		return LANG_ERR;
	if (sl == 0)
		return msgf(msg, len, "a name is missing");
	*out = dupn(s + st, sl);
	*outlen = sl;
	*pos = e;
	return 0;
}

/* Parses s<d>RE<d>REPL<d>FLAGS into cmd; -1 if s is not of that form. */
static int
parse_subst(const char *s, size_t n, struct lang_cmd *cmd, char *msg,
    size_t len)
{
	char	 d, *part[2];
	size_t	 plen[2], i = 2, k, j;

	if (n < 4 || s[0] != 's')
		return -1;
	/* Not '.', '_' or '-': "s.weight" is a tensor name. */
	d = s[1];
	if (strchr("/|#!,:@%~;", d) == NULL)
		return -1;
	for (k = 0; k < 2; k++) {
		part[k] = malloc(n + 1);
		if (part[k] == NULL)
			abort();
		plen[k] = 0;
		for (;;) {
			if (i >= n) {
				free(part[0]);
				if (k == 1)
					free(part[1]);
				return msgf(msg, len, "unterminated s%c...%c "
				    "expression", d, d);
			}
			if (s[i] == '\\' && i + 1 < n && s[i + 1] == d) {
				part[k][plen[k]++] = d;
				i += 2;
				continue;
			}
			if (s[i] == d)
				break;
			part[k][plen[k]++] = s[i++];
		}
		part[k][plen[k]] = '\0';
		i++;
	}
	for (j = i; j < n && !value_is_blank((unsigned char)s[j]); j++) {
		if (s[j] == 'g')
			cmd->global = 1;
		else if (s[j] == 'i')
			cmd->icase = 1;
		else {
			free(part[0]);
			free(part[1]);
			return msgf(msg, len, "unknown flag '%c' (g and i are "
			    "known)", s[j]);
		}
	}
	value_skip_blanks(s, n, &j);
	if (j != n) {
		free(part[0]);
		free(part[1]);
		return msgf(msg, len, "text after the s%c...%c expression", d,
		    d);
	}
	cmd->op = LANG_RENAME_RE;
	cmd->name = part[0];
	cmd->nlen = plen[0];
	cmd->arg = part[1];
	cmd->alen = plen[1];
	return 0;
}

/* ------------------------------------------------------------------ parse */

/*
 * The parser proper, over the words of a command. In line mode there is
 * one "word" (the rest of the line) that is split here; in words mode
 * each argument is a whole token.
 */
struct lang_src {
	int		 nw;		/* words mode: count, else 0 */
	char *const	*w;
	const char	*s;		/* line mode: the text after the command */
	size_t		 n;
	size_t		 pos;
	int		 wi;
};

static int
src_more(struct lang_src *src)
{
	if (src->nw > 0)
		return src->wi < src->nw;
	value_skip_blanks(src->s, src->n, &src->pos);
	return src->pos < src->n;
}

static int
src_key(struct lang_src *src, struct lang_cmd *cmd, int types, int index,
    char **out, size_t *outlen, char *msg, size_t len)
{
	size_t	pos = 0;
	int	rc;

	if (!src_more(src))
		return msgf(msg, len, "a name is missing");
	if (src->nw > 0) {
		const char	*w = src->w[src->wi++];

		rc = key_token(w, strlen(w), &pos, 1, cmd, types, index, out,
		    outlen, msg, len);
		return rc;
	}
	return key_token(src->s, src->n, &src->pos, 0, cmd, types, index, out,
	    outlen, msg, len);
}

/* The rest: the value text. */
static int
src_rest(struct lang_src *src, char **out, size_t *outlen, char *msg,
    size_t len)
{
	size_t	e;

	if (!src_more(src))
		return msgf(msg, len, "a value is missing");
	if (src->nw > 0) {
		if (src->nw - src->wi != 1)
			return msgf(msg, len, "too many arguments (quote the "
			    "value)");
		*outlen = strlen(src->w[src->wi]);
		*out = dupn(src->w[src->wi++], *outlen);
		return 0;
	}
	e = src->n;
	while (e > src->pos && value_is_blank((unsigned char)src->s[e - 1]))
		e--;
	*out = dupn(src->s + src->pos, e - src->pos);
	*outlen = e - src->pos;
	src->pos = src->n;
	return 0;
}

static int
src_end(struct lang_src *src, char *msg, size_t len)
{
	if (src_more(src))
		return msgf(msg, len, "too many arguments");
	return 0;
}

/* set KEY[:TYPE] VALUE, set KEY[I] VALUE */
static int
parse_set(const struct lang_def *def, struct lang_src *src,
    struct lang_cmd *cmd, char *msg, size_t len)
{
	(void)def;
	if (src_key(src, cmd, 1, 1, &cmd->name, &cmd->nlen, msg, len) != 0)
		return LANG_ERR;
	if (cmd->has_index && cmd->has_type)
		return msgf(msg, len, "an element takes the array's type: "
		    "no :TYPE with [I]");
	if (cmd->has_range)
		return msgf(msg, len, "set takes one index, not a range");
	if (cmd->has_index)
		cmd->op = LANG_SET_ELEM;
	return src_rest(src, &cmd->value, &cmd->vlen, msg, len);
}

/* ins KEY[I] VALUE, append KEY VALUE, del KEY[I] | KEY[I:J] */
static int
parse_elems(const struct lang_def *def, struct lang_src *src,
    struct lang_cmd *cmd, char *msg, size_t len)
{
	if (src_key(src, cmd, 0, cmd->op != LANG_APPEND, &cmd->name,
	    &cmd->nlen, msg, len) != 0)
		return LANG_ERR;
	if (cmd->op != LANG_APPEND && !cmd->has_index)
		return msgf(msg, len, "%s needs an index: KEY[I]", def->name);
	if (cmd->op == LANG_INS && cmd->has_range)
		return msgf(msg, len, "ins takes one index, not a range");
	if (cmd->op == LANG_DEL)
		return src_end(src, msg, len);
	return src_rest(src, &cmd->value, &cmd->vlen, msg, len);
}

/* rm [--if-exists] KEY, rm-tensor NAME */
static int
parse_one(const struct lang_def *def, struct lang_src *src,
    struct lang_cmd *cmd, char *msg, size_t len)
{
	static const char	opt[] = "--if-exists";

	if (def->op == LANG_RM && src_more(src)) {
		if (src->nw > 0 && strcmp(src->w[src->wi], opt) == 0) {
			src->wi++;
			cmd->if_exists = 1;
		} else if (src->nw == 0 && src->n - src->pos >= sizeof opt -
		    1 && memcmp(src->s + src->pos, opt, sizeof opt - 1) == 0 &&
		    (src->n - src->pos == sizeof opt - 1 || value_is_blank(
		    (unsigned char)src->s[src->pos + sizeof opt - 1]))) {
			src->pos += sizeof opt - 1;
			cmd->if_exists = 1;
		}
	}
	if (src_key(src, cmd, 0, 0, &cmd->name, &cmd->nlen, msg, len) != 0)
		return LANG_ERR;
	return src_end(src, msg, len);
}

/* mv KEY NEWKEY */
static int
parse_two(const struct lang_def *def, struct lang_src *src,
    struct lang_cmd *cmd, char *msg, size_t len)
{
	(void)def;
	if (src_key(src, cmd, 0, 0, &cmd->name, &cmd->nlen, msg, len) != 0 ||
	    src_key(src, cmd, 0, 0, &cmd->arg, &cmd->alen, msg, len) != 0)
		return LANG_ERR;
	return src_end(src, msg, len);
}

/* rename TENSOR NEWNAME, rename s/REGEX/REPL/[gi] */
static int
parse_rename(const struct lang_def *def, struct lang_src *src,
    struct lang_cmd *cmd, char *msg, size_t len)
{
	const char	*t;
	size_t		 tn;
	int		 rc;

	/* One unquoted s/../../ argument is a substitution. */
	if (src->nw == 1 || (src->nw == 0 && src_more(src) &&
	    src->s[src->pos] == 's')) {
		t = src->nw == 1 ? src->w[0] : src->s + src->pos;
		tn = src->nw == 1 ? strlen(t) : src->n - src->pos;
		rc = parse_subst(t, tn, cmd, msg, len);
		if (rc == 0)
			return LANG_OK;
		if (rc == LANG_ERR && msg[0] != '\0')
			return LANG_ERR;
	}
	return parse_two(def, src, cmd, msg, len);
}

/* convert TENSOR TYPE */
static int
parse_convert(const struct lang_def *def, struct lang_src *src,
    struct lang_cmd *cmd, char *msg, size_t len)
{
	char	*word;
	size_t	 wlen;
	int	 t;

	(void)def;
	if (src_key(src, cmd, 0, 0, &cmd->name, &cmd->nlen, msg, len) != 0)
		return LANG_ERR;
	if (!src_more(src))
		return msgf(msg, len, "the type is missing: convert TENSOR f32");
	if (src_key(src, cmd, 0, 0, &word, &wlen, msg, len) != 0)
		return LANG_ERR;
	t = strlen(word) == wlen ? gguf_ttype_parse(word) : -1;
	free(word);
	if (t < 0)
		return msgf(msg, len, "unknown tensor type: convert TENSOR f32");
	cmd->type = (uint32_t)t;
	return src_end(src, msg, len);
}

/* undo [N], redo [N] */
static int
parse_count(const struct lang_def *def, struct lang_src *src,
    struct lang_cmd *cmd, char *msg, size_t len)
{
	char	*word;
	size_t	 wlen;
	int64_t	 k;
	int	 bad;

	cmd->count = 1;
	if (!src_more(src))
		return LANG_OK;
	if (src_rest(src, &word, &wlen, msg, len) != 0)
		return LANG_ERR;
	bad = parse_i64(word, wlen, &k) != 0 || k < 1;
	free(word);
	if (bad)
		return msgf(msg, len, "%s takes a count of 1 or more",
		    def->name);
	cmd->count = (uint64_t)k;
	return LANG_OK;
}

/* The browser's w [FILE], help [CMD]: the rest of the line, as typed. */
static int
parse_line(const struct lang_def *def, struct lang_src *src,
    struct lang_cmd *cmd, char *msg, size_t len)
{
	size_t	used, e;
	char	em[200];

	(void)def;
	value_skip_blanks(src->s, src->n, &src->pos);
	if (src->pos < src->n && src->s[src->pos] == '"') {
		/* a quoted name, as the other commands take one: unquoted */
		if (value_unquote(src->s + src->pos, src->n - src->pos, &used,
		    &cmd->arg, &cmd->alen, em, sizeof em) != 0)
			return msgf(msg, len, "%s", em);
		e = src->pos + used;
		value_skip_blanks(src->s, src->n, &e);
		if (memchr(cmd->arg, '\0', cmd->alen) != NULL) {
			free(cmd->arg);
			cmd->arg = NULL;
			cmd->alen = 0;
			return msgf(msg, len, "a file name cannot hold a NUL");
		}
		if (e != src->n) {
			free(cmd->arg);
			cmd->arg = NULL;
			cmd->alen = 0;
			return msgf(msg, len, "unexpected text after a quoted "
			    "name");
		}
		src->pos = src->n;
		return LANG_OK;
	}
	cmd->alen = src->n - src->pos;
	cmd->arg = dupn(src->s + src->pos, cmd->alen);
	return LANG_OK;
}

static const char	save_usage[] = "w [FILE]: save (to FILE, then go on "
			    "with it); w!: even if the file changed on disk";
static const char	quit_usage[] = "q: quit (asks if edits are pending); "
			    "q!: quit, dropping them";
static const char	save_quit_usage[] = "wq, x: save, then quit";
static const char	reload_usage[] = "e: open the file again as it is on "
			    "disk (refused if edits are pending); e!: dropping "
			    "them";

const struct lang_def lang_defs[] = {
	{ "set", LANG_SET, 0, "set KEY[:TYPE] VALUE | set KEY[I] VALUE "
	    "(VALUE: @FILE reads it from a file; @- from standard input, "
	    "outside the browser)",
	    "set", parse_set },
	{ "ins", LANG_INS, 0, "ins KEY[I] VALUE | ins KEY[I] [V, ...]",
	    "ins", parse_elems },
	{ "append", LANG_APPEND, 0, "append KEY VALUE | append KEY [V, ...]",
	    "append", parse_elems },
	{ "del", LANG_DEL, 0, "del KEY[I] | del KEY[I:J]", "del",
	    parse_elems },
	{ "rm", LANG_RM, 0, "rm [--if-exists] KEY", "rm", parse_one },
	{ "mv", LANG_MV, 0, "mv KEY NEWKEY", "mv", parse_two },
	{ "rename", LANG_RENAME, 0,
	    "rename TENSOR NEWNAME | rename s/REGEX/REPL/[gi]", "rename",
	    parse_rename },
	{ "rm-tensor", LANG_RM_TENSOR, 0, "rm-tensor NAME", "rm-tensor",
	    parse_one },
	{ "convert", LANG_CONVERT, 0, "convert TENSOR f32", "convert",
	    parse_convert },
	{ "undo", LANG_UNDO, 0, "undo [N]", "undo", parse_count },
	{ "redo", LANG_REDO, 0, "redo [N]", "redo", parse_count },

	{ "w", LANG_WRITE, 1, save_usage, "w [FILE]", parse_line },
	{ "w!", LANG_WRITE_FORCE, 1, save_usage, "w!", parse_line },
	{ "q", LANG_QUIT, 1, quit_usage, "q", NULL },
	{ "q!", LANG_QUIT_FORCE, 1, quit_usage, "q!", NULL },
	{ "wq", LANG_WRITE_QUIT, 1, save_quit_usage, "wq", parse_line },
	{ "x", LANG_WRITE_QUIT, 1, save_quit_usage, NULL, parse_line },
	{ "e", LANG_RELOAD, 1, reload_usage, "e", NULL },
	{ "e!", LANG_RELOAD_FORCE, 1, reload_usage, "e!", NULL },
	{ "changes", LANG_CHANGES, 1,
	    "changes: the pending changes, old -> new (D)", "changes",
	    NULL },
	{ "rescue", LANG_RESCUE, 1,
	    "rescue: apply the unsaved edits a browser cut off kept for this "
	    "file (then w saves them)", "rescue", NULL },
	{ "messages", LANG_MESSAGES, 1,
	    "messages: every message of this session, whole, oldest first "
	    "(M)", "messages", NULL },
	{ "diff", LANG_DIFF, 1, "diff OTHER: what differs between this "
	    "model (its pending edits included) and OTHER, as `ggufed diff` "
	    "says it; Enter goes to the key or tensor", "diff OTHER",
	    parse_line },
	{ "sync", LANG_SYNC, 1, "sync DIR: the differences with the "
	    "upstream repository's files in DIR, as `ggufed sync` reports "
	    "them; Enter selects, Enter on the last row applies (u undoes)",
	    "sync DIR", parse_line },
	{ "help", LANG_HELP, 1, "help [CMD]: the usage of a command, or the "
	    "list of them", "help CMD", parse_line },
};
const size_t lang_n_defs = sizeof lang_defs / sizeof lang_defs[0];

static int
parse_cmd(const char *name, size_t nlen, struct lang_src *src, int browser,
    struct lang_cmd *cmd, char *msg, size_t len)
{
	const struct lang_def	*def = lang_find(name, nlen);
	struct gguf_suggest	 sg;
	const char		*best;
	char			 buf[64], names[400];
	size_t			 i, o = 0;

	if (def == NULL || (def->browser && !browser)) {
		gguf_suggest_init(&sg, name, nlen);
		for (i = 0; i < lang_n_defs; i++)
			if (browser || !lang_defs[i].browser)
				gguf_suggest_add(&sg, lang_defs[i].name,
				    strlen(lang_defs[i].name));
		if ((best = gguf_suggest_best(&sg, NULL)) != NULL)
			return msgf(msg, len, "unknown command \"%s\" (did you "
			    "mean \"%s\"?)", gguf_pname(name, nlen, buf, sizeof buf),
			    best);
		/*
		 * The commands there are, named from the table: the edit
		 * language's, and in the browser its own and :N too.
		 */
		for (i = 0; i < lang_n_defs && o < sizeof names; i++)
			if (browser || !lang_defs[i].browser)
				o += (size_t)snprintf(names + o, sizeof names -
				    o, "%s%s", i > 0 ? ", " : "",
				    lang_defs[i].name);
		if (browser && o < sizeof names)
			snprintf(names + o, sizeof names - o, ", N (row N)");
		return msgf(msg, len, "unknown command \"%s\" (%s)",
		    gguf_pname(name, nlen, buf, sizeof buf), names);
	}
	cmd->op = def->op;
	if (def->parse != NULL && def->parse(def, src, cmd, msg, len) !=
	    LANG_OK) {
		lang_cmd_free(cmd);
		return LANG_ERR;
	}
	return LANG_OK;
}

static int
parse_line_of(const char *line, int browser, struct lang_cmd *cmd, char *msg,
    size_t len)
{
	struct lang_src	src;
	size_t		n = strlen(line), p = 0, st;

	memset(cmd, 0, sizeof *cmd);
	msg[0] = '\0';
	value_skip_blanks(line, n, &p);
	if (p == n || line[p] == '#')
		return LANG_OK;
	st = p;
	while (p < n && !value_is_blank((unsigned char)line[p]))
		p++;
	memset(&src, 0, sizeof src);
	src.s = line;
	src.n = n;
	src.pos = p;
	return parse_cmd(line + st, p - st, &src, browser, cmd, msg, len);
}

int
lang_parse(const char *line, struct lang_cmd *cmd, char *msg, size_t len)
{
	return parse_line_of(line, 0, cmd, msg, len);
}

int
lang_parse_browser(const char *line, struct lang_cmd *cmd, char *msg,
    size_t len)
{
	return parse_line_of(line, 1, cmd, msg, len);
}

int
lang_parse_words(int n, char *const *words, struct lang_cmd *cmd, char *msg,
    size_t len)
{
	struct lang_src	src;

	memset(cmd, 0, sizeof *cmd);
	msg[0] = '\0';
	if (n < 1)
		return msgf(msg, len, "no command");
	memset(&src, 0, sizeof src);
	src.nw = n - 1;
	src.w = words + 1;
	if (src.nw == 0) {
		src.s = "";
		src.n = 0;
	}
	return parse_cmd(words[0], strlen(words[0]), &src, 0, cmd, msg, len);
}

/* ------------------------------------------------------------------ apply */

static int
doc_error(const struct gguf_err *err, char *msg, size_t len)
{
	return msgf(msg, len, "%s", err->msg);
}

static int
naming_warning(const char *key, size_t klen, char *msg, size_t len)
{
	char	buf[256];

	snprintf(msg, len, "key \"%s\" breaks the naming rules "
	    "(lower_snake_case segments separated by dots)",
	    gguf_pname(key, klen, buf, sizeof buf));
	return LANG_WARN;
}

/* The document's architecture (general.architecture), or none (*n 0). */
static void
doc_arch(struct gguf_doc *d, const char **p, size_t *n)
{
	static const char	key[] = "general.architecture";
	struct gguf_val		*v = gguf_doc_get(d, key, sizeof key - 1);
	struct gguf_str		 s;

	*p = NULL;
	*n = 0;
	if (v != NULL && gguf_val_str(v, &s) == 0) {
		*p = s.p;
		*n = (size_t)s.n;
	}
}

/*
 * No key (or tensor) of that name: says so in msg, with the closest live
 * name, or well-known key if schema, when one is near; then tail.
 */
static int
no_such(struct gguf_doc *d, int tensor, int schema, const char *name,
    size_t n, const char *tail, char *msg, size_t len)
{
	struct gguf_suggest	 sg;
	const char		*best, *arch;
	size_t			 bn, an;
	char			 buf[256], bb[256];

	gguf_suggest_init(&sg, name, n);
	gguf_doc_suggest(d, tensor, &sg);
	if (schema) {
		doc_arch(d, &arch, &an);
		gguf_suggest_schema(&sg, arch, an);
	}
	gguf_pname(name, n, buf, sizeof buf);
	if ((best = gguf_suggest_best(&sg, &bn)) != NULL)
		msgf(msg, len, "no %s \"%s\" (did you mean \"%s\"?)%s",
		    tensor ? "tensor" : "key", buf, gguf_pname(best, bn, bb,
		    sizeof bb), tail);
	else
		msgf(msg, len, "no %s \"%s\"%s", tensor ? "tensor" : "key",
		    buf, tail);
	return LANG_MISSING;
}

/* Resolves a possibly negative index against count (end_ok: I == count). */
static int
resolve(int64_t i, uint64_t count, int end_ok, uint64_t *out, char *msg,
    size_t len)
{
	uint64_t	u;

	if (i < 0) {
		if ((uint64_t)-(i + 1) + 1 > count)
			return msgf(msg, len, "index %lld is out of range (the "
			    "array has %llu elements)", (long long)i,
			    (unsigned long long)count);
		u = count - ((uint64_t)-(i + 1) + 1);
	} else
		u = (uint64_t)i;
	if (u > count || (u == count && !end_ok))
		return msgf(msg, len, "index %lld is out of range (the array "
		    "has %llu elements)", (long long)i,
		    (unsigned long long)count);
	*out = u;
	return 0;
}

/* The array cmd names in *out; else LANG_MISSING or LANG_ERR, msg. */
static int
array_of(struct gguf_doc *d, const struct lang_cmd *cmd,
    struct gguf_val **out, char *msg, size_t len)
{
	struct gguf_val	*v = gguf_doc_get(d, cmd->name, cmd->nlen);
	char		 buf[256];

	if (v == NULL)
		return no_such(d, 0, 0, cmd->name, cmd->nlen, "", msg, len);
	if (v->type != GGUF_VT_ARR)
		return msgf(msg, len, "\"%s\" is %s, not an array",
		    gguf_pname(cmd->name, cmd->nlen, buf, sizeof buf),
		    gguf_vtype_name(v->type));
	*out = v;
	return LANG_OK;
}

const struct gguf_key_spec *
lang_schema_type(struct gguf_doc *d, const char *key, size_t n,
    uint32_t *type, uint32_t *atype)
{
	const struct gguf_key_spec	*spec;
	const char			*arch;
	size_t				 an;

	doc_arch(d, &arch, &an);
	if ((spec = gguf_schema_find(key, n, arch, an)) == NULL)
		return NULL;
	/* "u32|arr[i32]": the first. */
	*atype = 0;
	if (gguf_vtype_parse_full(spec->types, strcspn(spec->types, "|"),
	    type, atype) != 0)
		return NULL;
	return spec;
}

static int
apply_set(struct gguf_doc *d, const struct lang_cmd *cmd, char *msg,
    size_t len)
{
	struct gguf_value	*v;
	struct gguf_val		*cur;
	struct gguf_err		 err;
	uint32_t		 type, atype;
	unsigned		 flags = 0;
	int			 warn = 0, rc, added = 0;
	char			 buf[256], em[400], tb[32];

	if (cmd->has_type) {
		type = cmd->type;
		atype = cmd->atype;
		flags = GGUF_SET_ADD | GGUF_SET_RETYPE;
	} else if ((cur = gguf_doc_get(d, cmd->name, cmd->nlen)) == NULL) {
		/* A well-known key is added with the schema's type. */
		if (lang_schema_type(d, cmd->name, cmd->nlen, &type,
		    &atype) == NULL) {
			no_such(d, 0, 1, cmd->name, cmd->nlen, ": to add it, "
			    "give its type (set KEY:TYPE VALUE)", msg, len);
			return LANG_ERR;
		}
		flags = GGUF_SET_ADD;
		added = 1;
	} else {
		type = cur->type;
		atype = cur->atype;
		if (type == GGUF_VT_ARR && atype == GGUF_VT_ARR)
			return msgf(msg, len, "nested arrays cannot be set");
	}
	v = value_parse(cmd->value, cmd->vlen, type, atype, em, sizeof em);
	if (v == NULL)
		return msgf(msg, len, "%s: %s", gguf_pname(cmd->name, cmd->nlen,
		    buf, sizeof buf), em);
	if (cmd->force)
		flags |= GGUF_SET_FORCE;
	rc = gguf_doc_set(d, cmd->name, cmd->nlen, v, flags, &warn, &err);
	gguf_value_unref(v);
	if (rc == GGUF_REFUSED) {
		doc_error(&err, msg, len);
		return LANG_REFUSED;
	}
	if (rc != 0)
		return doc_error(&err, msg, len);
	if ((cur = gguf_doc_get(d, cmd->name, cmd->nlen)) != NULL &&
	    gguf_doc_token_outside(d, cmd->name, cmd->nlen, cur, msg, len))
		return LANG_WARN;
	if (warn)
		return naming_warning(cmd->name, cmd->nlen, msg, len);
	if (added)
		snprintf(msg, len, "added %s as %s, the type of the "
		    "well-known key", gguf_pname(cmd->name, cmd->nlen, buf,
		    sizeof buf), gguf_vtype_text(type, atype, tb, sizeof tb));
	return LANG_OK;
}

/* An array of one element, given in scalar syntax ("[CLS]" is a string). */
static struct gguf_value *
one_elem(const char *text, size_t n, uint32_t atype, char *msg, size_t len)
{
	struct gguf_value	*e;
	struct gguf_vbuild	 vb;
	struct gguf_err		 err;

	if ((e = value_parse(text, n, atype, 0, msg, len)) == NULL)
		return NULL;
	gguf_vb_init(&vb, GGUF_VT_ARR, atype);
	if (gguf_vb_val(&vb, gguf_value_val(e), &err) != 0) {
		gguf_value_unref(e);
		gguf_vb_free(&vb);
		msgf(msg, len, "%s", err.msg);
		return NULL;
	}
	gguf_value_unref(e);
	return gguf_vb_finish(&vb);
}

static int
apply_elems(struct gguf_doc *d, const struct lang_cmd *cmd, char *msg,
    size_t len)
{
	struct gguf_value	*v = NULL;
	struct gguf_val		*a = NULL;
	struct gguf_err		 err;
	uint64_t		 at, end = 0, ndel = 0;
	int			 rc;
	char			 em[400];

	if ((rc = array_of(d, cmd, &a, msg, len)) != LANG_OK)
		return rc;
	switch (cmd->op) {
	case LANG_SET_ELEM:
		if (resolve(cmd->i0, a->count, 0, &at, msg, len) != 0)
			return LANG_ERR;
		ndel = 1;
		break;
	case LANG_INS:
		if (resolve(cmd->i0, a->count, 1, &at, msg, len) != 0)
			return LANG_ERR;
		break;
	case LANG_APPEND:
		at = a->count;
		break;
	default:		/* LANG_DEL */
		if (resolve(cmd->i0, a->count, cmd->has_range, &at, msg,
		    len) != 0)
			return LANG_ERR;
		if (cmd->has_range) {
			if (resolve(cmd->i1, a->count, 1, &end, msg, len) != 0)
				return LANG_ERR;
			if (end < at)
				return msgf(msg, len, "empty range [%lld:%lld]",
				    (long long)cmd->i0, (long long)cmd->i1);
			ndel = end - at;
		} else
			ndel = 1;
	}
	if (cmd->op != LANG_DEL) {
		if (cmd->op == LANG_SET_ELEM)
			v = one_elem(cmd->value, cmd->vlen, a->atype, em,
			    sizeof em);
		else
			v = value_parse_elems(cmd->value, cmd->vlen, a->atype,
			    em, sizeof em);
		if (v == NULL)
			return msgf(msg, len, "%s", em);
	}
	rc = gguf_doc_splice(d, cmd->name, cmd->nlen, at, ndel, v, &err);
	gguf_value_unref(v);
	if (rc != 0)
		return doc_error(&err, msg, len);
	return LANG_OK;
}

static int
apply_rename_re(struct gguf_doc *d, const struct lang_cmd *cmd, char *msg,
    size_t len)
{
	struct gguf_err	 err;
	uint64_t	 n;
	char		*pat;
	size_t		 plen;
	int		 rc;

	plen = cmd->nlen + (cmd->icase ? 4 : 0);
	pat = malloc(plen + 1);
	if (pat == NULL)
		abort();
	snprintf(pat, plen + 1, "%s%s", cmd->icase ? "(?i)" : "", cmd->name);
	if (strlen(pat) != plen) {
		free(pat);
		return msgf(msg, len, "a regular expression cannot hold a NUL "
		    "byte");
	}
	rc = gguf_doc_tensor_rename_re(d, pat, cmd->arg, cmd->global, &n, &err);
	free(pat);
	if (rc != 0)
		return doc_error(&err, msg, len);
	if (n == 0) {
		snprintf(msg, len, "no tensor name matches: nothing %s",
		    cmd->dry ? "would be renamed" : "renamed");
		return LANG_WARN;
	}
	snprintf(msg, len, "%s %llu tensor%s", cmd->dry ? "would rename" :
	    "renamed", (unsigned long long)n, n == 1 ? "" : "s");
	return LANG_OK;
}

static struct gguf_val *
doc_get(void *arg, const char *key)
{
	return gguf_doc_get(arg, key, strlen(key));
}

struct lint_msg {
	char	*msg;
	size_t	 len;
	int	 n;
};

static void
lint_found(void *arg, int level, const char *text)
{
	struct lint_msg	*l = arg;
	size_t		 at = strlen(l->msg);

	(void)level;
	if (at + 3 < l->len)
		snprintf(l->msg + at, l->len - at, "%s%s", l->n++ ? "; " : "",
		    text);
}

/*
 * A chat template just set (tokenizer.chat_template[.NAME]) is linted:
 * what the lint finds is a warning, after any the set gave (rc).
 */
static int
lint_template(struct gguf_doc *d, const struct lang_cmd *cmd, int rc,
    char *msg, size_t len)
{
	struct chat_model	 m = { doc_get, d };
	struct lint_msg		 l;
	struct gguf_val		*v;
	struct gguf_str		 s;
	size_t			 at;
	char			 kb[400];

	if (rc < 0 || !chat_is_template_key(cmd->name, cmd->nlen) ||
	    (v = gguf_doc_get(d, cmd->name, cmd->nlen)) == NULL ||
	    gguf_val_str(v, &s) != 0)
		return rc;
	at = strlen(msg);
	if (at + 2 >= len)
		return rc;
	snprintf(msg + at, len - at, "%s%s: ", at ? "; " : "",
	    gguf_pname(cmd->name, cmd->nlen, kb, sizeof kb));
	l.msg = msg;
	l.len = len;
	l.n = 0;
	chat_lint(&m, s.p, (size_t)s.n, lint_found, &l);
	if (l.n == 0) {
		msg[at] = '\0';
		return rc;
	}
	return LANG_WARN;
}

/*
 * Puts "WHAT: " (one step) or "WHAT N: " (N steps) in front of the step
 * labels in msg.
 */
static void
steps_text(char *msg, size_t len, const char *what, uint64_t n)
{
	char	*labels;

	labels = xstrdup(msg);
	if (n == 1)
		snprintf(msg, len, "%s: %s", what, labels);
	else
		snprintf(msg, len, "%s %llu: %s", what, (unsigned long long)n,
		    labels);
	free(labels);
}

int
lang_apply(struct gguf_doc *d, const struct lang_cmd *cmd, char *msg,
    size_t len)
{
	struct gguf_err	 err;
	struct gguf_val	*cur;
	const char	*label;
	uint64_t	 k;
	size_t		 used;
	int		 warn = 0, rc;

	msg[0] = '\0';
	memset(&err, 0, sizeof err);
	switch (cmd->op) {
	case LANG_SET:
	case LANG_SET_ELEM:
	case LANG_INS:
	case LANG_APPEND:
	case LANG_DEL:
	case LANG_RM:
	case LANG_MV:
		/* A set's split keys are ggufed's to keep (set.h). */
		if (gguf_set_key_kept(d, cmd->name, cmd->nlen, &err) != 0 ||
		    (cmd->op == LANG_MV &&
		    gguf_set_key_kept(d, cmd->arg, cmd->alen, &err) != 0))
			return doc_error(&err, msg, len);
		break;
	default:
		break;
	}
	switch (cmd->op) {
	case LANG_NOP:
		return LANG_OK;
	case LANG_SET:
		return lint_template(d, cmd, apply_set(d, cmd, msg, len), msg,
		    len);
	case LANG_SET_ELEM:
	case LANG_INS:
	case LANG_APPEND:
	case LANG_DEL:
		return apply_elems(d, cmd, msg, len);
	case LANG_RM:
		if (gguf_doc_kv_find(d, cmd->name, cmd->nlen) < 0)
			return cmd->if_exists ? LANG_OK : no_such(d, 0, 0,
			    cmd->name, cmd->nlen, "", msg, len);
		if (gguf_doc_remove(d, cmd->name, cmd->nlen, &err) != 0)
			return doc_error(&err, msg, len);
		return LANG_OK;
	case LANG_MV:
		if (gguf_doc_kv_find(d, cmd->name, cmd->nlen) < 0)
			return no_such(d, 0, 0, cmd->name, cmd->nlen, "", msg,
			    len);
		rc = gguf_doc_rename(d, cmd->name, cmd->nlen, cmd->arg,
		    cmd->alen, cmd->force ? GGUF_SET_FORCE : 0, &warn, &err);
		if (rc == GGUF_REFUSED) {
			doc_error(&err, msg, len);
			return LANG_REFUSED;
		}
		if (rc != 0)
			return doc_error(&err, msg, len);
		if ((cur = gguf_doc_get(d, cmd->arg, cmd->alen)) != NULL &&
		    gguf_doc_token_outside(d, cmd->arg, cmd->alen, cur, msg,
		    len))
			return LANG_WARN;
		if (warn)
			return naming_warning(cmd->arg, cmd->alen, msg, len);
		return LANG_OK;
	case LANG_RENAME:
		if (gguf_doc_tensor_find(d, cmd->name, cmd->nlen) < 0)
			return no_such(d, 1, 0, cmd->name, cmd->nlen, "", msg,
			    len);
		if (gguf_doc_tensor_rename(d, cmd->name, cmd->nlen, cmd->arg,
		    cmd->alen, &err) != 0)
			return doc_error(&err, msg, len);
		return LANG_OK;
	case LANG_RENAME_RE:
		return apply_rename_re(d, cmd, msg, len);
	case LANG_RM_TENSOR:
		if (gguf_doc_tensor_find(d, cmd->name, cmd->nlen) < 0)
			return no_such(d, 1, 0, cmd->name, cmd->nlen, "", msg,
			    len);
		if (gguf_doc_tensor_remove(d, cmd->name, cmd->nlen, &err) != 0)
			return doc_error(&err, msg, len);
		return LANG_OK;
	case LANG_CONVERT:
		if (gguf_doc_tensor_find(d, cmd->name, cmd->nlen) < 0)
			return no_such(d, 1, 0, cmd->name, cmd->nlen, "", msg,
			    len);
		if (gguf_doc_tensor_convert(d, cmd->name, cmd->nlen, cmd->type,
		    &err) != 0)
			return doc_error(&err, msg, len);
		return LANG_OK;
	case LANG_UNDO:
	case LANG_REDO:
		/*
		 * Every step is named, latest first: "undone 2: set b;
		 * set a" (a step's label may be cut to fit).
		 */
		msg[0] = '\0';
		for (k = 0; k < cmd->count; k++) {
			if ((cmd->op == LANG_UNDO ? gguf_doc_undo(d, &label) :
			    gguf_doc_redo(d, &label)) != 0) {
				if (k == 0)
					return msgf(msg, len, "nothing to %s",
					    cmd->op == LANG_UNDO ? "undo" :
					    "redo");
				break;
			}
			used = strlen(msg);
			if (used + 1 < len)
				snprintf(msg + used, len - used, "%s%s",
				    k > 0 ? "; " : "", label);
		}
		steps_text(msg, len, cmd->op == LANG_UNDO ? "undone" :
		    "redone", k);
		return LANG_OK;
	case LANG_WRITE:
	case LANG_WRITE_FORCE:
	case LANG_WRITE_QUIT:
	case LANG_QUIT:
	case LANG_QUIT_FORCE:
	case LANG_RELOAD:
	case LANG_RELOAD_FORCE:
	case LANG_CHANGES:
	case LANG_MESSAGES:
	case LANG_RESCUE:
	case LANG_DIFF:
	case LANG_SYNC:
	case LANG_HELP:
		/* Parsed only for the browser, which carries them out. */
		break;
	}
	return msgf(msg, len, "unknown command");
}

int
lang_exec(struct gguf_doc *d, const char *line, char *msg, size_t len)
{
	struct lang_cmd	cmd;
	int		rc;

	if (lang_parse(line, &cmd, msg, len) != LANG_OK)
		return LANG_ERR;
	rc = lang_apply(d, &cmd, msg, len);
	lang_cmd_free(&cmd);
	return rc;
}
