/*
 * cmdline.c - the browser's `:` line: a command of the edit language
 * (src/cmd/lang.c, the same table `ggufed edit -e` reads) or one of the
 * browser's own (w, q, e, changes, help, :N), and Tab completion of
 * command names, keys, tensor names and types.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui.h"
#include "schema.h"
#include "cmd/lang.h"
#include "edit.h"
#include "loop.h"
#include "view_changes.h"
#include "view_diff.h"

/*
 * help alone: the commands in one line, from the table (the edit
 * language's, then the browser's, then :N and help itself).
 */
static int
help_cmd(struct app *a, const char *arg)
{
	const struct lang_def	*d, *help = NULL;
	const char		*u;
	char			 line[512];
	size_t			 i, o = 0;
	int			 browser = 0;

	if (*arg != '\0') {
		if ((u = lang_usage(arg)) != NULL)
			app_msg(a, 0, "%s", u);
		else
			app_msg(a, 1, "no command %s", arg);
		return R_DRAW;
	}
	line[0] = '\0';
	for (i = 0; i < lang_n_defs && o < sizeof line; i++) {
		d = &lang_defs[i];
		if (d->op == LANG_HELP)
			help = d;
		if (d->op == LANG_HELP || d->brief == NULL)
			continue;
		o += (size_t)snprintf(line + o, sizeof line - o, "%s%s",
		    o == 0 ? "" : d->browser && !browser ? " | " : " ",
		    d->brief);
		browser |= d->browser;
	}
	app_msg(a, 0, "%s | :N | %s", line, help != NULL ? help->brief : "");
	return R_DRAW;
}

/* A command of the : line (line parses). */
static int
line_apply(struct app *a, struct earg *e, const char *line, int force)
{
	struct lang_cmd	 cmd;
	char		 msg[512];
	int		 rc;

	if (lang_parse_browser(line, &cmd, msg, sizeof msg) != LANG_OK) {
		app_msg(a, 1, "%s", msg);
		return -1;
	}
	cmd.force = force;
	rc = lang_apply(app_doc_edit(a), &cmd, msg, sizeof msg);
	lang_cmd_free(&cmd);
	if ((rc = edit_outcome(a, rc, msg)) == 1) {
		e = e != NULL ? earg_dup(e) : earg_new("", 0);
		confirm_force(a, e, line, msg, line_apply, NULL, C_NONE);
		earg_free(e);
		return 1;
	}
	if (rc != 0)
		return -1;
	if (msg[0] == '\0')
		app_msg(a, 0, "done (%u pending change%s; D shows them)",
		    mdl_n_changes(a), mdl_n_changes(a) == 1 ? "" : "s");
	return 0;
}

int
edit_command(struct app *a, const char *line)
{
	struct lang_cmd	 cmd;
	char		 msg[512], *end;
	size_t		 n;
	unsigned long long num;
	int		 rc;

	while (*line == ' ' || *line == '\t')
		line++;
	if (*line == '\0')
		return R_DRAW;
	if (isdigit((unsigned char)*line)) {
		errno = 0;
		num = strtoull(line, &end, 10);
		if (*end == '\0' && errno == 0)
			return app_jump(a, num);
	}
	if (lang_parse_browser(line, &cmd, msg, sizeof msg) != LANG_OK) {
		app_msg(a, 1, "%s", msg);
		return R_DRAW;
	}
	rc = R_DRAW;
	switch (cmd.op) {
	case LANG_WRITE:
	case LANG_WRITE_FORCE:
	case LANG_WRITE_QUIT:
		app_save(a, cmd.alen > 0 ? cmd.arg : NULL,
		    cmd.op == LANG_WRITE_FORCE, cmd.op == LANG_WRITE_QUIT);
		break;
	case LANG_QUIT:
		rc = app_quit(a, 1);
		break;
	case LANG_QUIT_FORCE:
		rc = R_QUIT;
		break;
	case LANG_RELOAD:
	case LANG_RELOAD_FORCE:
		app_reload(a, cmd.op == LANG_RELOAD_FORCE);
		break;
	case LANG_HELP:
		rc = help_cmd(a, cmd.arg);
		break;
	case LANG_CHANGES:
		app_push(a, view_changes_new(a));
		break;
	case LANG_MESSAGES:
		app_messages(a);
		break;
	case LANG_RESCUE:
		rc = rescue_apply(a);
		break;
	case LANG_DIFF:
		if (cmd.alen == 0)
			app_msg(a, 1, "diff wants the file to compare with");
		else
			view_diff_open(a, cmd.arg);
		break;
	case LANG_RENAME_RE:
		/* Asked first: the renames are shown before they are done. */
		n = strcspn(line, " \t");
		edit_rename_re(a, line + n);
		break;
	default:
		rc = line_apply(a, NULL, line, 0) == 0 ? R_DRAW | R_EDITED :
		    R_DRAW;
	}
	lang_cmd_free(&cmd);
	return rc;
}

/* ----------------------------------------------------------- completion */

/* A name fit to complete to: printable, no blanks or quotes. */
static int
plain(const char *p, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		if ((unsigned char)p[i] <= 0x20 || p[i] == '"' || p[i] == 0x7f)
			return 0;
	}
	return n > 0;
}

static void
add_names(struct app *a, int tensors, const char *prefix,
    void (*add)(void *, const char *), void *ctx)
{
	struct gguf_doc_kv	 kv;
	struct gguf_str		 s;
	uint64_t		 i, n;
	unsigned		 fl;
	char			 buf[512];
	size_t			 pl = strlen(prefix);

	n = tensors ? mdl_n_tensors(a) : mdl_n_kv(a);
	for (i = 0; i < n; i++) {
		if (tensors)
			s = mdl_tensor_name(a, i, &fl);
		else {
			if (mdl_kv(a, i, &kv) != 0)
				continue;
			s = kv.key;
			fl = kv.flags;
		}
		if ((fl & GGUF_ED_REMOVED) || !plain(s.p, (size_t)s.n) ||
		    pl + s.n + 1 > sizeof buf)
			continue;
		snprintf(buf, sizeof buf, "%s%.*s", prefix, (int)s.n, s.p);
		add(ctx, buf);
	}
}

/* The well-known keys the file does not have, {arch} spelled out. */
static void
add_schema_names(struct app *a, void (*add)(void *, const char *), void *ctx)
{
	static const char	 ph[] = "{arch}";
	struct gguf_val		*v = mdl_get(a, "general.architecture");
	struct gguf_str		 arch = { NULL, 0 };
	const char		*k;
	char			 buf[512];
	size_t			 i;

	if (v != NULL && gguf_val_str(v, &arch) == 0 &&
	    !plain(arch.p, (size_t)arch.n))
		arch.n = 0;
	for (i = 0; i < gguf_schema_n; i++) {
		k = gguf_schema_keys[i].key;
		if (strncmp(k, ph, sizeof ph - 1) == 0) {
			if (arch.n == 0 || arch.n > 128)
				continue;
			snprintf(buf, sizeof buf, "%.*s%s", (int)arch.n,
			    arch.p, k + sizeof ph - 1);
		} else
			snprintf(buf, sizeof buf, "%s", k);
		/* Patterns ({id}, {name}) are no names to complete to. */
		if (strchr(buf, '{') != NULL ||
		    gguf_doc_kv_find(app_doc(a), buf, strlen(buf)) >= 0)
			continue;
		add(ctx, buf);
	}
}

void
edit_complete(struct app *a, enum ask_compl c, const char *line, size_t word,
    void (*add)(void *, const char *), void *ctx)
{
	const char *const	*types;
	const char		*colon;
	char			 first[16], pre[512];
	size_t			 n, i;

	switch (c) {
	case C_KEY:
		add_names(a, 0, "", add, ctx);
		return;
	case C_NEWKEY:
		add_names(a, 0, "", add, ctx);
		add_schema_names(a, add, ctx);
		return;
	case C_TENSOR:
		add_names(a, 1, "", add, ctx);
		return;
	case C_TYPE:
		for (types = gguf_vtype_all(); *types != NULL; types++)
			add(ctx, *types);
		return;
	case C_CMD:
		break;
	default:
		return;
	}
	while (*line == ' ')
		line++;
	(void)word;
	n = strcspn(line, " ");
	snprintf(first, sizeof first, "%.*s", (int)(n < 15 ? n : 15), line);
	/* The command name, or the one help is asked about. */
	if (strchr(line, ' ') == NULL || strcmp(first, "help") == 0) {
		for (i = 0; i < lang_n_defs; i++)
			add(ctx, lang_defs[i].name);
		return;
	}
	if (strcmp(first, "rename") == 0 || strcmp(first, "rm-tensor") == 0 ||
	    strcmp(first, "convert") == 0) {
		add_names(a, 1, "", add, ctx);
		return;
	}
	if (strcmp(first, "set") == 0 || strcmp(first, "ins") == 0 ||
	    strcmp(first, "append") == 0 || strcmp(first, "del") == 0 ||
	    strcmp(first, "rm") == 0 || strcmp(first, "mv") == 0) {
		/* KEY:TYPE: the types after the colon. */
		colon = strchr(line + n, ':');
		if (strcmp(first, "set") == 0 && colon != NULL) {
			const char	*ws = line + n;

			while (*ws == ' ')
				ws++;
			snprintf(pre, sizeof pre, "%.*s", (int)(colon + 1 - ws),
			    ws);
			for (types = gguf_vtype_all(); *types != NULL;
			    types++) {
				char	buf[600];

				snprintf(buf, sizeof buf, "%s%s", pre, *types);
				add(ctx, buf);
			}
			return;
		}
		add_names(a, 0, "", add, ctx);
		if (strcmp(first, "set") == 0)
			add_schema_names(a, add, ctx);
	}
}
