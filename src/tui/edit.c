/*
 * edit.c - editing from the views: values, types, keys, array elements
 * and tensor names (the `:` line is cmdline.c).
 *
 * Every edit goes through the command language (src/cmd: the parser and
 * the value syntax of `ggufed edit -e`) or straight to the document's
 * edit functions, so a value typed here is checked exactly as one given
 * on the command line, and a refused edit changes nothing. A handler
 * never waits for the user: it asks a question (app_ask, app_choose)
 * with a small argument saying what is being edited, and the answer
 * arrives in a callback. A value that does not parse is asked for again,
 * with the text as typed and the reason in the status line, until it is
 * right or the user gives up.
 *
 * What the prompts are prefilled with is the value in the syntax the
 * parser reads back (gguf_val_text): numbers as `ggufed get` prints them,
 * strings bare when that is unambiguous, else quoted with C escapes. Long
 * or multi-line strings (chat templates) go to $VISUAL instead
 * (app_run_editor).
 *
 * A type change converts the value with value_convert, which refuses any
 * conversion that would lose information.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui.h"
#include "set.h"
#include "schema.h"
#include "cmd/chat.h"
#include "cmd/lang.h"
#include "cmd/value.h"
#include "edit.h"
#include "loop.h"
#include "view_changes.h"

#define LONG_STRING	160	/* longer strings go to the editor */
#define KEY_SHOW	48	/* columns of a key in a label */
#define DIALOG_TEXT	60	/* columns of a line in a dialog */

struct earg *
earg_new(const char *key, size_t klen)
{
	struct earg	*e = xcalloc(1, sizeof *e);

	e->key = xcalloc(1, klen + 1);
	memcpy(e->key, key, klen);
	e->klen = klen;
	e->elem = -1;
	return e;
}

struct earg *
earg_dup(const struct earg *e)
{
	struct earg	*n = earg_new(e->key, e->klen);
	char		*key = n->key;

	*n = *e;
	n->key = key;
	n->text = e->text != NULL ? xstrdup(e->text) : NULL;
	return n;
}

void
earg_free(void *arg)
{
	struct earg	*e = arg;

	if (e == NULL)
		return;
	free(e->key);
	free(e->text);
	free(e);
}

static void
ask(struct app *a, const char *label, const char *init, enum ask_compl c,
    ask_fn fn, hint_fn hint, struct earg *e)
{
	struct ask	q;

	memset(&q, 0, sizeof q);
	q.label = label;
	q.init = init;
	q.compl = c;
	q.fn = fn;
	q.hint = hint;
	q.arg = e;
	q.arg_free = earg_free;
	app_ask(a, &q);
}

/* The name of key for labels and messages: escaped, cut. */
static const char *
kname(const char *p, size_t n, char *buf, size_t len)
{
	text_escape(buf, len, p, n, KEY_SHOW);
	return buf;
}

/* ---------------------------------------------------------- value text */

static int
long_string(const struct gguf_val *v)
{
	struct gguf_str	s;

	if (v->type != GGUF_VT_STR || gguf_val_str(v, &s) != 0)
		return 0;
	return s.n > LONG_STRING || memchr(s.p, '\n', (size_t)s.n) != NULL;
}

/* ------------------------------------------------------ special tokens */

/* tokenizer.ggml.*_token_id */
static int
is_token_id_key(const char *k, size_t n)
{
	static const char	pre[] = "tokenizer.ggml.", suf[] = "_token_id";

	return n > sizeof pre - 1 + sizeof suf - 1 &&
	    memcmp(k, pre, sizeof pre - 1) == 0 &&
	    memcmp(k + n - (sizeof suf - 1), suf, sizeof suf - 1) == 0;
}

/* The vocabulary, or NULL. */
static struct gguf_val *
vocab(struct app *a)
{
	struct gguf_val	*v = mdl_get(a, "tokenizer.ggml.tokens");

	return v != NULL && v->type == GGUF_VT_ARR &&
	    v->atype == GGUF_VT_STR ? v : NULL;
}

/* 0 with the id's token text in buf; -1 with why not in buf. */
static int
token_check(struct app *a, const char *line, char *buf, size_t len)
{
	struct gguf_val		*voc = vocab(a), e;
	struct gguf_str		 s;
	unsigned long long	 id;
	char			*end, t[96];

	while (isspace((unsigned char)*line))
		line++;
	errno = 0;
	id = strtoull(line, &end, 0);
	while (isspace((unsigned char)*end))
		end++;
	if (*line == '\0' || *line == '-' || *end != '\0' || errno != 0) {
		snprintf(buf, len, "a token id is a number");
		return -1;
	}
	if (voc == NULL) {
		snprintf(buf, len, "token %llu (no vocabulary to check it "
		    "against)", id);
		return 0;
	}
	if (id >= voc->count) {
		snprintf(buf, len, "token %llu is outside the vocabulary "
		    "(%llu tokens, 0 to %llu): llama.cpp ignores it", id,
		    (unsigned long long)voc->count,
		    (unsigned long long)voc->count - 1);
		return -1;
	}
	if (mdl_arr_get(voc, id, &e) != 0 || gguf_val_str(&e, &s) != 0) {
		snprintf(buf, len, "token %llu: unreadable", id);
		return 0;
	}
	text_escape(t, sizeof t, s.p, (size_t)s.n, 60);
	snprintf(buf, len, "token %llu is \"%s\"", id, t);
	return 0;
}

static void
token_hint(struct app *a, void *arg, const char *line, char *buf,
    size_t len)
{
	(void)arg;
	token_check(a, line, buf, len);
}

/* -------------------------------------------------------------- values */

static int
run_cmd(struct app *a, struct lang_cmd *cmd)
{
	char	msg[512];
	int	rc;

	rc = lang_apply(app_doc_edit(a), cmd, msg, sizeof msg);
	if (rc < 0) {
		app_msg(a, 1, "%s", msg);
		return -1;
	}
	if (msg[0] != '\0')
		app_msg(a, rc == LANG_WARN ? APP_WARN : 0, "%s", msg);
	return 0;
}

/* ------------------------------------------------------------- forcing */

static hint_fn
hint_of(const struct earg *e)
{
	return e->answer != NULL && e->compl == C_NONE && e->elem < 0 &&
	    is_token_id_key(e->key, e->klen) ? token_hint : NULL;
}

static int
force_choice(struct app *a, void *arg, int key)
{
	struct earg	*e = arg, *n;

	if (key == 'y')
		return e->apply(a, e, e->text, 1) == 0 ? R_DRAW | R_EDITED :
		    R_DRAW;
	if (e->answer != NULL) {
		n = earg_dup(e);
		ask(a, n->label, n->text, n->compl, n->answer, hint_of(n), n);
	}
	return R_DRAW;
}

/* Breaks the lines of s at blanks to at most width bytes (ASCII text). */
static void
wrap(char *s, size_t width)
{
	char	*line = s, *blank = NULL, *p;

	for (p = s; *p != '\0'; p++) {
		if (*p == '\n') {
			line = p + 1;
			blank = NULL;
			continue;
		}
		if (*p == ' ')
			blank = p;
		if ((size_t)(p - line) >= width && blank != NULL) {
			*blank = '\n';
			line = blank + 1;
			blank = NULL;
		}
	}
}

int
edit_outcome(struct app *a, int rc, const char *msg)
{
	if (rc == LANG_REFUSED)
		return 1;
	if (rc < 0) {
		app_msg(a, 1, "%s", msg);
		return -1;
	}
	if (msg[0] != '\0')
		app_msg(a, rc == LANG_WARN ? APP_WARN : 0, "%s", msg);
	return 0;
}

/*
 * The answer line was refused by the checks llama.cpp makes (why): ask
 * whether to set it anyway; no goes back to the question (answer), if
 * there was one.
 */
void
confirm_force(struct app *a, struct earg *e, const char *line,
    const char *why, apply_fn apply, ask_fn answer, enum ask_compl c)
{
	struct earg	*n = earg_dup(e);
	char		 text[700];

	free(n->text);
	n->text = xstrdup(line);
	n->apply = apply;
	n->answer = answer;
	n->compl = c;
	snprintf(text, sizeof text, "%s\n\nllama.cpp would refuse it. Set it "
	    "anyway? [y]es, [n]o", why);
	wrap(text, DIALOG_TEXT);
	app_choose(a, text, "yn", force_choice, n, earg_free);
}

/*
 * An answer to a question about e: applied, or asked again (the text as
 * typed, the reason in the status line) until it is right or given up.
 */
static int
answer(struct app *a, struct earg *e, const char *line, apply_fn apply,
    ask_fn fn, enum ask_compl c)
{
	if (line == NULL)
		return R_DRAW;
	switch (apply(a, e, line, 0)) {
	case 0:
		return R_DRAW | R_EDITED;
	case 1:
		return R_DRAW;
	}
	e->answer = fn;
	e->compl = c;
	if (c == C_TYPE) {
		while (*line == ' ')
			line++;
	}
	ask(a, e->label, line, c, fn, hint_of(e), e);
	return R_DRAW;
}

/* ------------------------------------------------------------ values */

static int value_answer(struct app *, void *, const char *);

static int
value_apply(struct app *a, struct earg *e, const char *line, int force)
{
	struct lang_cmd	 cmd;
	char		 msg[512], kb[96];
	int		 rc;

	memset(&cmd, 0, sizeof cmd);
	cmd.op = e->elem >= 0 ? LANG_SET_ELEM : LANG_SET;
	cmd.name = e->key;
	cmd.nlen = e->klen;
	cmd.value = (char *)(uintptr_t)line;
	cmd.vlen = strlen(line);
	cmd.has_index = e->elem >= 0;
	cmd.i0 = e->elem;
	if (e->type != 0 || e->atype != 0) {
		/* A key being added. */
		cmd.has_type = 1;
		cmd.type = e->type - 1;
		cmd.atype = e->atype;
	}
	cmd.force = force;
	rc = lang_apply(app_doc_edit(a), &cmd, msg, sizeof msg);
	if ((rc = edit_outcome(a, rc, msg)) == 1) {
		confirm_force(a, e, line, msg, value_apply, value_answer,
		    C_NONE);
		return 1;
	}
	if (rc != 0)
		return -1;
	if (e->elem >= 0)
		app_msg(a, 0, "%s[%lld] set", kname(e->key, e->klen, kb,
		    sizeof kb), (long long)e->elem);
	else if (cmd.has_type)
		app_msg(a, 0, "added %s", kname(e->key, e->klen, kb,
		    sizeof kb));
	return 0;
}

static int
value_answer(struct app *a, void *arg, const char *line)
{
	return answer(a, arg, line, value_apply, value_answer, C_NONE);
}

static void
ask_value(struct app *a, struct earg *e, const struct gguf_val *cur)
{
	char	*init = cur != NULL ? gguf_val_text(cur) : NULL, kb[96];

	if (e->elem >= 0)
		snprintf(e->label, sizeof e->label, "%s[%lld] = ",
		    kname(e->key, e->klen, kb, sizeof kb), (long long)e->elem);
	else
		snprintf(e->label, sizeof e->label, "%s = ",
		    kname(e->key, e->klen, kb, sizeof kb));
	e->answer = value_answer;
	e->compl = C_NONE;
	ask(a, e->label, init, C_NONE, value_answer, hint_of(e), e);
	free(init);
}

/* ---------------------------------------------------------------- types */

static int type_answer(struct app *, void *, const char *);

static int
type_apply(struct app *a, struct earg *e, const char *line, int force)
{
	struct gguf_value	*nv;
	struct gguf_val		*cur;
	struct gguf_err		 err;
	uint32_t		 t, at = 0;
	char			 msg[300], kb[96], tb[32];
	int			 warn = 0, rc;

	cur = gguf_doc_get(app_doc(a), e->key, e->klen);
	if (cur == NULL) {
		app_msg(a, 1, "%s is gone", kname(e->key, e->klen, kb,
		    sizeof kb));
		return 1;
	}
	while (*line == ' ')
		line++;
	if (value_parse_type(line, strlen(line), &t, &at, msg,
	    sizeof msg) != 0) {
		app_msg(a, 1, "%s", msg);
		return -1;
	}
	if (t == cur->type && (t != GGUF_VT_ARR || at == cur->atype)) {
		app_msg(a, 0, "%s is already %s", kname(e->key, e->klen, kb,
		    sizeof kb), line);
		return 1;
	}
	if (gguf_set_key_kept(app_doc(a), e->key, e->klen, &err) != 0) {
		app_msg(a, 1, "%s", err.msg);
		return -1;
	}
	if ((nv = value_convert(cur, t, at, msg, sizeof msg)) == NULL) {
		app_msg(a, 1, "cannot make it %s: %s", gguf_vtype_text(t, at,
		    tb, sizeof tb), msg);
		return -1;
	}
	rc = gguf_doc_set(app_doc_edit(a), e->key, e->klen, nv, GGUF_SET_RETYPE |
	    (force ? GGUF_SET_FORCE : 0), &warn, &err);
	gguf_value_unref(nv);
	if (rc == GGUF_REFUSED) {
		confirm_force(a, e, line, err.msg, type_apply, type_answer,
		    C_TYPE);
		return 1;
	}
	if (rc != 0) {
		app_msg(a, 1, "%s", err.msg);
		return -1;
	}
	app_msg(a, 0, "%s is now %s", kname(e->key, e->klen, kb, sizeof kb),
	    gguf_vtype_text(t, at, tb, sizeof tb));
	return 0;
}

static int
type_answer(struct app *a, void *arg, const char *line)
{
	return answer(a, arg, line, type_apply, type_answer, C_TYPE);
}

/* ------------------------------------------------------------- add key */

/*
 * What the key being added is: one the file has, a well-known one (its
 * type and meaning), or neither (nothing said).
 */
static void
key_hint_of(struct app *a, const char *key, size_t n, char *buf, size_t len)
{
	const struct gguf_key_spec	*spec;
	uint32_t			 t, at;
	char				 kb[96];

	buf[0] = '\0';
	if (n == 0)
		return;
	if (gguf_doc_kv_find(app_doc(a), key, n) >= 0)
		snprintf(buf, len, "%s exists already", kname(key, n, kb,
		    sizeof kb));
	else if ((spec = lang_schema_type(app_doc(a), key, n, &t, &at)) !=
	    NULL)
		snprintf(buf, len, "well-known key, %s: %s", spec->types,
		    spec->desc);
}

static void
new_key_hint(struct app *a, void *arg, const char *line, char *buf,
    size_t len)
{
	size_t	n = strlen(line);

	(void)arg;
	while (n > 0 && line[n - 1] == ' ')
		n--;
	key_hint_of(a, line, n, buf, len);
}

static void
add_type_hint(struct app *a, void *arg, const char *line, char *buf,
    size_t len)
{
	struct earg	*e = arg;

	(void)line;
	key_hint_of(a, e->key, e->klen, buf, len);
}

static int
add_type_answer(struct app *a, void *arg, const char *line)
{
	struct earg	*e = arg;
	uint32_t	 t, at = 0;
	char		 kb[96], tb[32], msg[300];

	if (line == NULL)
		return R_DRAW;
	while (*line == ' ')
		line++;
	if (value_parse_type(line, strlen(line), &t, &at, msg,
	    sizeof msg) != 0) {
		app_msg(a, 1, "%s", msg);
		ask(a, e->label, line, C_TYPE, add_type_answer, add_type_hint,
		    e);
		return R_DRAW;
	}
	e->type = t + 1;
	e->atype = at;
	snprintf(e->label, sizeof e->label, "%s (%s) = ",
	    kname(e->key, e->klen, kb, sizeof kb),
	    gguf_vtype_text(t, at, tb, sizeof tb));
	ask(a, e->label, t == GGUF_VT_ARR ? "[]" : NULL, C_NONE, value_answer,
	    NULL, e);
	return R_DRAW;
}

/*
 * The type is asked next, starting from the well-known key's type (the
 * first of several), else str.
 */
static int
add_key_answer(struct app *a, void *arg, const char *line)
{
	struct earg	*e = arg, *n;
	uint32_t	 t, at;
	size_t		 len;
	char		 kb[96], tb[32];

	if (line == NULL || *line == '\0')
		return R_DRAW;
	/* Completion ends a name with a blank: it is no part of the key. */
	for (len = strlen(line); len > 0 && line[len - 1] == ' '; len--)
		;
	if (gguf_doc_kv_find(app_doc(a), line, len) >= 0) {
		app_msg(a, 1, "%s exists already", kname(line, len, kb,
		    sizeof kb));
		ask(a, e->label, line, C_NEWKEY, add_key_answer, new_key_hint,
		    e);
		return R_DRAW;
	}
	n = earg_new(line, len);
	snprintf(n->label, sizeof n->label, "type of %s: ", kname(line, len,
	    kb, sizeof kb));
	if (lang_schema_type(app_doc(a), line, len, &t, &at) != NULL)
		gguf_vtype_text(t, at, tb, sizeof tb);
	else
		snprintf(tb, sizeof tb, "str");
	ask(a, n->label, tb, C_TYPE, add_type_answer, add_type_hint, n);
	return R_DRAW;
}

/* -------------------------------------------------- remove, rename key */

static int
remove_choice(struct app *a, void *arg, int key)
{
	struct earg	*e = arg;
	struct gguf_err	 err;
	char		 kb[96];

	if (key != 'y')
		return R_DRAW;
	if (e->elem >= 0) {
		struct lang_cmd	cmd;

		memset(&cmd, 0, sizeof cmd);
		cmd.op = LANG_DEL;
		cmd.name = e->key;
		cmd.nlen = e->klen;
		cmd.has_index = 1;
		cmd.i0 = e->elem;
		if (run_cmd(a, &cmd) != 0)
			return R_DRAW;
		app_msg(a, 0, "%s[%lld] deleted", kname(e->key, e->klen, kb,
		    sizeof kb), (long long)e->elem);
		return R_DRAW | R_EDITED;
	}
	if ((!e->tensor && gguf_set_key_kept(app_doc(a), e->key, e->klen,
	    &err) != 0) || (e->tensor ? gguf_doc_tensor_remove(app_doc_edit(a),
	    e->key, e->klen, &err) : gguf_doc_remove(app_doc_edit(a), e->key,
	    e->klen, &err)) != 0) {
		app_msg(a, 1, "%s", err.msg);
		return R_DRAW;
	}
	app_msg(a, 0, "%s%s removed (u undoes it)", e->tensor ? "tensor " : "",
	    kname(e->key, e->klen, kb, sizeof kb));
	return R_DRAW | R_EDITED;
}

static void
confirm_remove(struct app *a, struct earg *e, const char *what)
{
	char	text[256], kb[96];

	if (e->elem >= 0)
		snprintf(text, sizeof text, "Delete element %lld of %s?\n\n"
		    "[y]es, [n]o", (long long)e->elem, kname(e->key, e->klen,
		    kb, sizeof kb));
	else
		snprintf(text, sizeof text, "Remove %s %s?\n\n[y]es, [n]o",
		    what, kname(e->key, e->klen, kb, sizeof kb));
	app_choose(a, text, "yn", remove_choice, e, earg_free);
}

static int rename_answer(struct app *, void *, const char *);

static int
rename_apply(struct app *a, struct earg *e, const char *line, int force)
{
	struct gguf_err	 err;
	char		 kb[96], nb[96];
	int		 warn = 0, rc;

	if (strlen(line) == e->klen && memcmp(line, e->key, e->klen) == 0)
		return 1;
	if (e->tensor)
		rc = gguf_doc_tensor_rename(app_doc_edit(a), e->key, e->klen, line,
		    strlen(line), &err);
	else if (gguf_set_key_kept(app_doc(a), e->key, e->klen, &err) != 0 ||
	    gguf_set_key_kept(app_doc(a), line, strlen(line), &err) != 0)
		rc = -1;
	else
		rc = gguf_doc_rename(app_doc_edit(a), e->key, e->klen, line,
		    strlen(line), force ? GGUF_SET_FORCE : 0, &warn, &err);
	if (rc == GGUF_REFUSED) {
		confirm_force(a, e, line, err.msg, rename_apply, rename_answer,
		    C_KEY);
		return 1;
	}
	if (rc != 0) {
		app_msg(a, 1, "%s", err.msg);
		return -1;
	}
	app_msg(a, warn, "%s -> %s%s", kname(e->key, e->klen, kb, sizeof kb),
	    kname(line, strlen(line), nb, sizeof nb), warn ? " (the name "
	    "breaks the naming rules: lower_snake_case segments separated by "
	    "dots)" : "");
	return 0;
}

static int
rename_answer(struct app *a, void *arg, const char *line)
{
	struct earg	*e = arg;

	return answer(a, e, line, rename_apply, rename_answer, e->tensor ?
	    C_TENSOR : C_KEY);
}

static int
insert_answer(struct app *a, void *arg, const char *line)
{
	struct earg	*e = arg;
	struct lang_cmd	 cmd;
	char		 kb[96];

	if (line == NULL)
		return R_DRAW;
	memset(&cmd, 0, sizeof cmd);
	cmd.op = LANG_INS;
	cmd.name = e->key;
	cmd.nlen = e->klen;
	cmd.value = (char *)(uintptr_t)line;
	cmd.vlen = strlen(line);
	cmd.has_index = 1;
	cmd.i0 = e->elem;
	if (run_cmd(a, &cmd) != 0) {
		ask(a, e->label, line, C_NONE, insert_answer, NULL, e);
		return R_DRAW;
	}
	app_msg(a, 0, "inserted at %s[%lld]", kname(e->key, e->klen, kb,
	    sizeof kb), (long long)e->elem);
	app_jump_later(a, (uint64_t)e->elem);	/* on it, after a too (:N) */
	return R_DRAW | R_EDITED;
}

/* ------------------------------------------------------------- entries */

int
edit_kv(struct app *a, enum tui_action act, uint64_t entry)
{
	struct gguf_doc_kv	 kv;
	struct earg		*e;
	const char		*dot;
	char			 kb[96], tb[32], init[160];

	/*
	 * Only the editing actions are taken, whatever the entry: every
	 * other key goes on to the list and the app (undo, quit, save).
	 */
	switch (act) {
	case ACT_OPEN:
	case ACT_EDIT:
	case ACT_EDIT_EXT:
	case ACT_RETYPE:
	case ACT_ADD:
	case ACT_DELETE:
	case ACT_RENAME:
		break;
	default:
		return R_PASS;
	}
	if (mdl_kv(a, entry, &kv) != 0) {
		if (act != ACT_ADD)
			return R_DRAW;
		/* No key at all: a new one starts from nothing. */
		e = earg_new("", 0);
		snprintf(e->label, sizeof e->label, "new key: ");
		ask(a, e->label, "", C_NEWKEY, add_key_answer, new_key_hint,
		    e);
		return R_DRAW;
	}
	if ((kv.flags & GGUF_ED_REMOVED) && act != ACT_ADD) {
		app_msg(a, 1, "%s is removed (u undoes that)",
		    kname(kv.key.p, (size_t)kv.key.n, kb, sizeof kb));
		return R_DRAW;
	}
	e = earg_new(kv.key.p, (size_t)kv.key.n);
	switch (act) {
	case ACT_OPEN:
	case ACT_EDIT:
		if (kv.val->type == GGUF_VT_ARR) {
			earg_free(e);
			app_push(a, view_array_key(a, kv.key.p,
			    (size_t)kv.key.n));
			return R_DRAW;
		}
		if (long_string(kv.val)) {
			app_run_editor(a, e->key, -1);
			earg_free(e);
			return R_DRAW;
		}
		ask_value(a, e, kv.val);
		return R_DRAW;
	case ACT_EDIT_EXT:
		if (kv.val->type != GGUF_VT_STR) {
			app_msg(a, 1, "%s is not a string", kname(e->key, e->klen,
			    kb, sizeof kb));
			earg_free(e);
			return R_DRAW;
		}
		app_run_editor(a, e->key, -1);
		earg_free(e);
		return R_DRAW;
	case ACT_RETYPE:
		snprintf(e->label, sizeof e->label, "type of %s: ",
		    kname(e->key, e->klen, kb, sizeof kb));
		ask(a, e->label, gguf_vtype_text(kv.val->type, kv.val->atype,
		    tb, sizeof tb), C_TYPE, type_answer, NULL, e);
		return R_DRAW;
	case ACT_ADD:
		/* The new key starts in the namespace of this one. */
		dot = memchr(e->key, '.', e->klen);
		snprintf(init, sizeof init, "%.*s", dot != NULL ?
		    (int)(dot - e->key + 1) : 0, e->key);
		snprintf(e->label, sizeof e->label, "new key: ");
		ask(a, e->label, init, C_NEWKEY, add_key_answer, new_key_hint,
		    e);
		return R_DRAW;
	case ACT_DELETE:
		confirm_remove(a, e, "key");
		return R_DRAW;
	case ACT_RENAME:
		snprintf(e->label, sizeof e->label, "rename %s to: ",
		    kname(e->key, e->klen, kb, sizeof kb));
		ask(a, e->label, e->key, C_KEY, rename_answer, NULL, e);
		return R_DRAW;
	default:
		earg_free(e);
		return R_PASS;
	}
}

int
edit_elem(struct app *a, enum tui_action act, const char *key, size_t klen,
    uint64_t i)
{
	struct gguf_val	*arr = gguf_doc_get(app_doc(a), key, klen), el;
	struct earg	*e;
	char		 kb[96];

	/* Only the editing actions are taken, as in edit_kv. */
	switch (act) {
	case ACT_OPEN:
	case ACT_EDIT:
	case ACT_EDIT_EXT:
	case ACT_INSERT:
	case ACT_ADD:
	case ACT_DELETE:
		break;
	default:
		return R_PASS;
	}
	if (arr == NULL || arr->type != GGUF_VT_ARR)
		return R_DRAW;
	if (arr->atype == GGUF_VT_ARR) {
		app_msg(a, 1, "nested arrays are not edited");
		return R_DRAW;
	}
	e = earg_new(key, klen);
	e->elem = (int64_t)i;
	switch (act) {
	case ACT_OPEN:
	case ACT_EDIT:
	case ACT_EDIT_EXT:
		if (i >= arr->count || mdl_arr_get(arr, i, &el) != 0) {
			earg_free(e);
			return R_NONE;
		}
		if (act == ACT_EDIT_EXT || long_string(&el)) {
			if (el.type != GGUF_VT_STR) {
				app_msg(a, 1, "element %llu is not a string",
				    (unsigned long long)i);
				earg_free(e);
				return R_DRAW;
			}
			app_run_editor(a, e->key, e->elem);
			earg_free(e);
			return R_DRAW;
		}
		ask_value(a, e, &el);
		return R_DRAW;
	case ACT_INSERT:
	case ACT_ADD:
		if (act == ACT_ADD && arr->count > 0)
			e->elem = (int64_t)i + 1;
		snprintf(e->label, sizeof e->label, "insert at %s[%lld]: ",
		    kname(key, klen, kb, sizeof kb), (long long)e->elem);
		ask(a, e->label, NULL, C_NONE, insert_answer, NULL, e);
		return R_DRAW;
	case ACT_DELETE:
		if (i >= arr->count) {
			earg_free(e);
			return R_NONE;
		}
		confirm_remove(a, e, "element");
		return R_DRAW;
	default:
		earg_free(e);
		return R_PASS;
	}
}

/* -------------------------------------------------------------- tensors */

/* `rename s/RE/REPL/[gi]`: the mapping is shown before anything changes. */
int
edit_rename_re(struct app *a, const char *line)
{
	struct lang_cmd	 cmd;
	char		 msg[400], *full;
	size_t		 n = strlen(line) + 8;

	full = xcalloc(1, n);
	snprintf(full, n, "rename %s", line);
	if (lang_parse(full, &cmd, msg, sizeof msg) != LANG_OK) {
		free(full);
		app_msg(a, 1, "%s", msg);
		return -1;
	}
	free(full);
	if (cmd.op != LANG_RENAME_RE) {
		lang_cmd_free(&cmd);
		app_msg(a, 1, "s/REGEX/REPLACEMENT/[gi], as in sed");
		return -1;
	}
	app_push(a, view_rename_new(a, cmd.name, cmd.arg, cmd.global,
	    cmd.icase));
	lang_cmd_free(&cmd);
	return 0;
}

static int
rename_re_answer(struct app *a, void *arg, const char *line)
{
	struct earg	*e = arg;

	if (line == NULL)
		return R_DRAW;
	if (edit_rename_re(a, line) != 0)
		ask(a, e->label, line, C_NONE, rename_re_answer, NULL, e);
	return R_DRAW;
}

/* Converts the tensor of e to float32 (one undo step); frees e. */
static int
convert_tensor(struct app *a, struct earg *e)
{
	struct gguf_err	err;
	char		kb[96];
	int		rc;

	rc = gguf_doc_tensor_convert(app_doc_edit(a), e->key, e->klen, GGUF_T_F32,
	    &err);
	if (rc != 0)
		app_msg(a, 1, "%s", err.msg);
	else
		app_msg(a, 0, "%s: its data becomes float32 when saved (u "
		    "undoes)", kname(e->key, e->klen, kb, sizeof kb));
	earg_free(e);
	return rc != 0 ? R_DRAW : R_DRAW | R_EDITED;
}

int
edit_tensor(struct app *a, enum tui_action act, uint64_t i)
{
	struct gguf_str	 name;
	struct earg	*e;
	unsigned	 flags;
	char		 kb[96];

	/* Only the editing actions are taken, as in edit_kv. */
	if (act != ACT_RENAME_RE && act != ACT_RENAME && act != ACT_DELETE &&
	    act != ACT_CONVERT)
		return R_PASS;
	if (act == ACT_RENAME_RE) {
		e = earg_new("", 0);
		snprintf(e->label, sizeof e->label, "rename tensors: ");
		ask(a, e->label, "s/", C_NONE, rename_re_answer, NULL, e);
		return R_DRAW;
	}
	name = mdl_tensor_name(a, i, &flags);
	if (flags & GGUF_ED_REMOVED) {
		app_msg(a, 1, "this tensor is removed (u undoes that)");
		return R_DRAW;
	}
	e = earg_new(name.p, (size_t)name.n);
	e->tensor = 1;
	switch (act) {
	case ACT_RENAME:
		snprintf(e->label, sizeof e->label, "rename %s to: ",
		    kname(e->key, e->klen, kb, sizeof kb));
		ask(a, e->label, e->key, C_TENSOR, rename_answer, NULL, e);
		return R_DRAW;
	case ACT_DELETE:
		confirm_remove(a, e, "tensor");
		return R_DRAW;
	case ACT_CONVERT:
		return convert_tensor(a, e);
	default:
		earg_free(e);
		return R_PASS;
	}
}

/* ---------------------------------------------------------- the : line */

int
edit_undo(struct app *a, int redo)
{
	const char	*label = NULL;

	if ((redo ? gguf_doc_redo(app_doc_edit(a), &label) :
	    gguf_doc_undo(app_doc_edit(a), &label)) != 0) {
		app_msg(a, 1, "nothing to %s", redo ? "redo" : "undo");
		return R_DRAW;
	}
	app_msg(a, 0, "%s: %s", redo ? "redone" : "undone", label);
	return R_DRAW | R_EDITED;
}

/* ------------------------------------------------------ external editor */

int
edit_get_string(struct app *a, const char *key, int64_t elem, char **out,
    size_t *len)
{
	struct gguf_val	*v = mdl_get(a, key), e;
	struct gguf_str	 s;

	if (v != NULL && elem >= 0) {
		if (v->type != GGUF_VT_ARR || mdl_arr_get(v, (uint64_t)elem,
		    &e) != 0)
			v = NULL;
		else
			v = &e;
	}
	if (v == NULL || gguf_val_str(v, &s) != 0) {
		app_msg(a, 1, "not a string");
		return -1;
	}
	*out = xcalloc(1, (size_t)s.n + 1);
	memcpy(*out, s.p, (size_t)s.n);
	*len = (size_t)s.n;
	return 0;
}

int
edit_set_string(struct app *a, const char *key, int64_t elem, const char *old,
    size_t olen, const char *now, size_t nlen)
{
	/* Editors end the last line; a value that did not end one keeps
	   not ending it. */
	if ((olen == 0 || old[olen - 1] != '\n') && nlen > 0 &&
	    now[nlen - 1] == '\n')
		nlen--;
	if (nlen == olen && memcmp(old, now, olen) == 0) {
		app_msg(a, 0, "unchanged: no edit");
		return R_DRAW;
	}
	if (elem < 0 && chat_is_template_key(key, strlen(key))) {
		app_push(a, view_template_pending(a, key, now, nlen));
		app_msg(a, 0, "the new template, checked and rendered: Enter "
		    "sets it, q drops it");
		return R_DRAW;
	}
	return edit_apply_string(a, key, elem, now, nlen);
}

int
edit_apply_string(struct app *a, const char *key, int64_t elem,
    const char *now, size_t nlen)
{
	struct gguf_vbuild	 vb;
	struct gguf_value	*v;
	struct gguf_err		 err;
	char			 kb[96];
	int			 rc, warn = 0;

	if (gguf_set_key_kept(app_doc(a), key, strlen(key), &err) != 0) {
		app_error(a, "%s", err.msg);
		return R_DRAW;
	}
	if (elem >= 0) {
		gguf_vb_init(&vb, GGUF_VT_ARR, GGUF_VT_STR);
		gguf_vb_str(&vb, now, nlen);
		v = gguf_vb_finish(&vb);
		rc = gguf_doc_splice(app_doc_edit(a), key, strlen(key),
		    (uint64_t)elem, 1, v, &err);
	} else {
		gguf_vb_init(&vb, GGUF_VT_STR, 0);
		gguf_vb_str(&vb, now, nlen);
		v = gguf_vb_finish(&vb);
		rc = gguf_doc_set(app_doc_edit(a), key, strlen(key), v, 0, &warn,
		    &err);
	}
	gguf_value_unref(v);
	if (rc != 0) {
		app_error(a, "%s", err.msg);
		return R_DRAW;
	}
	app_msg(a, 0, "%s set from the editor (%zu bytes)", kname(key,
	    strlen(key), kb, sizeof kb), nlen);
	return R_DRAW | R_EDITED;
}
