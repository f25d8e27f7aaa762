/*
 * test_lang.c - the table of commands against what is said about them.
 *
 * Every row of lang_defs has an entry in the manual (the edit language's
 * in "The edit language", the browser's own in "The command line") and
 * every entry there is a row, so a command added, renamed or removed
 * without the manual fails here; the help screen names them too. Each row parses to its own op, and the
 * browser's own are unknown to every other front end.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/lang.h"
#include "tap.h"

#define MAX_NAMES	64

struct names {
	char	*v[MAX_NAMES];
	int	 n;
};

/* Adds p[0..n) as roff spells it: \- is a hyphen, \& nothing. */
static void
add_name(struct names *ns, const char *p, size_t n)
{
	char	*s;
	size_t	 i, o = 0;

	if (ns->n == MAX_NAMES || (s = malloc(n + 1)) == NULL)
		return;
	for (i = 0; i < n; i++) {
		if (p[i] == '\\' && i + 1 < n && p[i + 1] == '-')
			continue;
		if (p[i] == '\\' && i + 1 < n && p[i + 1] == '&') {
			i++;
			continue;
		}
		s[o++] = p[i];
	}
	s[o] = '\0';
	ns->v[ns->n++] = s;
}

/*
 * The commands a .It line of the manual names: the word after ".It Li",
 * and the word after each ", Li" ("undo ..., Li redo ...").
 */
static void
it_names(const char *line, struct names *ns)
{
	const char	*p = line + strlen(".It Li "), *c;

	add_name(ns, p, strcspn(p, " \n"));
	while ((c = strstr(p, " , Li ")) != NULL) {
		p = c + strlen(" , Li ");
		add_name(ns, p, strcspn(p, " \n"));
	}
}

/* The names in the first list after the ".Ss title" line of the manual. */
static int
manual_names(const char *path, const char *title, struct names *ns)
{
	FILE	*f = fopen(path, "r");
	char	 line[1024];
	int	 state = 0;	/* 0 before the title, 1 before .Bl, 2 in it */

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof line, f) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		if (state == 0 && strncmp(line, ".Ss ", 4) == 0 &&
		    strcmp(line + 4, title) == 0)
			state = 1;
		else if (state == 1 && strncmp(line, ".Bl", 3) == 0)
			state = 2;
		else if (state == 2 && strcmp(line, ".El") == 0)
			break;
		else if (state == 2 && strncmp(line, ".It Li ", 7) == 0)
			it_names(line, ns);
	}
	fclose(f);
	return state == 2 ? 0 : -1;
}

static int
has(const struct names *ns, const char *name)
{
	int	i;

	for (i = 0; i < ns->n; i++)
		if (strcmp(ns->v[i], name) == 0)
			return 1;
	return 0;
}

/* The manual's list against the rows of the table with browser == b. */
static void
check_section(const char *man, const char *title, int b)
{
	struct names	 ns = { { NULL }, 0 };
	size_t		 i;
	int		 k, n_rows = 0;

	if (!ok(manual_names(man, title, &ns) == 0, "the manual has a list "
	    "under \"%s\"", title))
		return;
	for (i = 0; i < lang_n_defs; i++) {
		if (lang_defs[i].browser != b)
			continue;
		n_rows++;
		ok(has(&ns, lang_defs[i].name), "the manual names %s under "
		    "\"%s\"", lang_defs[i].name, title);
	}
	for (k = 0; k < ns.n; k++) {
		const struct lang_def	*d = lang_find(ns.v[k],
					    strlen(ns.v[k]));

		ok(d != NULL && d->browser == b, "\"%s\" in the manual under "
		    "\"%s\" is a command of the table", ns.v[k], title);
		free(ns.v[k]);
	}
	ok(n_rows > 0, "the table has commands for \"%s\"", title);
}

/* True if name stands in text as a word of its own. */
static int
has_word(const char *text, const char *name)
{
	const char	*p = text;
	size_t		 n = strlen(name);

	while ((p = strstr(p, name)) != NULL) {
		if ((p == text || strchr(" (,", p[-1]) != NULL) &&
		    strchr(" ),;", p[n]) != NULL)
			return 1;
		p++;
	}
	return 0;
}

/*
 * The help screen's note on the command line (in its golden screen, which
 * screens.sh holds to the program) names every command of the list of
 * `help` alone.
 */
static void
check_help_screen(const char *path)
{
	FILE	*f = fopen(path, "r");
	char	 line[1024], note[2048] = "";
	size_t	 i;
	int	 in = 0;

	while (f != NULL && fgets(line, sizeof line, f) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		if (strstr(line, "The command line (:)") != NULL)
			in = 1;
		if (in && line[strspn(line, " ")] == '\0')
			break;
		if (in && strlen(note) + strlen(line) + 2 < sizeof note) {
			strcat(note, line);
			strcat(note, " ");
		}
	}
	if (f != NULL)
		fclose(f);
	if (!ok(note[0] != '\0', "the help screen has a note on the command "
	    "line"))
		return;
	for (i = 0; i < lang_n_defs; i++) {
		if (lang_defs[i].brief != NULL)
			ok(has_word(note, lang_defs[i].name), "the help "
			    "screen names %s", lang_defs[i].name);
	}
}

/* The line "NAME ARGS" parses to the row's op, in the browser only. */
static void
check_parse(const struct lang_def *d)
{
	struct lang_cmd	 cmd;
	char		 line[128], msg[512];
	const char	*args = "";
	int		 rc;

	switch (d->op) {
	case LANG_SET:
		args = " general.name x";
		break;
	case LANG_INS:
		args = " k[0] 1";
		break;
	case LANG_APPEND:
		args = " k 1";
		break;
	case LANG_DEL:
		args = " k[0]";
		break;
	case LANG_MV:
	case LANG_RENAME:
		args = " a b";
		break;
	case LANG_RM:
	case LANG_RM_TENSOR:
		args = " a";
		break;
	case LANG_CONVERT:
		args = " a f32";
		break;
	default:
		break;
	}
	snprintf(line, sizeof line, "%s%s", d->name, args);
	rc = lang_parse_browser(line, &cmd, msg, sizeof msg);
	ok(rc == LANG_OK && cmd.op == d->op, "\"%s\" parses to its op in "
	    "the browser", line);
	lang_cmd_free(&cmd);
	rc = lang_parse(line, &cmd, msg, sizeof msg);
	if (d->browser) {
		ok(rc == LANG_ERR && strstr(msg, "unknown command") != NULL,
		    "\"%s\" is unknown outside the browser", d->name);
		ok(!lang_modifies(&cmd), "and changes nothing");
	} else
		ok(rc == LANG_OK && cmd.op == d->op && lang_modifies(&cmd),
		    "\"%s\" parses to its op everywhere", line);
	lang_cmd_free(&cmd);
	ok(d->usage != NULL && (d->browser || strncmp(d->usage, d->name,
	    strlen(d->name)) == 0), "%s has a usage", d->name);
}

int
main(void)
{
	struct lang_cmd	 cmd;
	const char	*src = getenv("TESTS_SRCDIR");
	char		 path[4096], msg[512], want[512];
	size_t		 i, j, o = 0;
	int		 unique = 1;

	snprintf(path, sizeof path, "%s/../assets/ggufed.1",
	    src != NULL ? src : "tests");
	check_section(path, "The edit language", 0);
	check_section(path, "The command line", 1);
	snprintf(path, sizeof path, "%s/tui/golden/help.200x60.txt",
	    src != NULL ? src : "tests");
	check_help_screen(path);

	for (i = 0; i < lang_n_defs; i++) {
		check_parse(&lang_defs[i]);
		for (j = 0; j < i; j++)
			if (strcmp(lang_defs[i].name, lang_defs[j].name) == 0)
				unique = 0;
		if (i > 0 && lang_defs[i - 1].browser > lang_defs[i].browser)
			unique = 0;
	}
	ok(unique, "one row a name; the edit language's rows first");

	/* An unknown command is told the commands there are. */
	for (i = 0; i < lang_n_defs && !lang_defs[i].browser; i++)
		o += (size_t)snprintf(want + o, sizeof want - o, "%s%s",
		    i > 0 ? ", " : "", lang_defs[i].name);
	ok(lang_parse("frob x", &cmd, msg, sizeof msg) == LANG_ERR,
	    "frob is no command");
	ok(strstr(msg, want) != NULL, "the message lists the commands: %s",
	    msg);
	/* In the browser, every command it takes: its own and :N too. */
	o = 0;
	for (i = 0; i < lang_n_defs; i++)
		o += (size_t)snprintf(want + o, sizeof want - o, "%s%s",
		    i > 0 ? ", " : "", lang_defs[i].name);
	ok(lang_parse_browser("frob x", &cmd, msg, sizeof msg) == LANG_ERR &&
	    strstr(msg, want) != NULL && strstr(msg, ", N (row N)") != NULL,
	    "the browser lists all its commands: %s", msg);
	ok(lang_find("w", 1) != NULL && lang_find("w!", 1) ==
	    lang_find("w", 1), "a name is found by its bytes and length");

	/* The browser's w keeps its argument as typed. */
	ok(lang_parse_browser("w  my file.gguf ", &cmd, msg, sizeof msg) ==
	    LANG_OK && cmd.arg != NULL && strcmp(cmd.arg, "my file.gguf ") ==
	    0, "w takes the rest of the line as the file name");
	lang_cmd_free(&cmd);
	return tap_done();
}
