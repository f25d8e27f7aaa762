/*
 * test_manual.c - the manual against the tables the program is made of.
 *
 * The commands of the command line and their options (cli_commands, which
 * --help prints) and the browser's key bindings (keys_table, which the
 * help screen lists) are each in the manual, and everything the manual
 * names there is in the tables, so a command, an option or a key added,
 * renamed or removed without the manual fails here. (The : commands are
 * held to the manual by test_lang.)
 *
 *	SYNOPSIS	one block a command (".Nm" then ".Cm NAME") giving
 *			a spelling of each of its options, and no other
 *	COMMANDS	".It Cm NAME" for each command; ".It Fl ..." for every
 *			spelling of every option
 *	KEYS		".Ss SCOPE" (the help screen's heading) a scope, in it
 *			".It Ic KEY , KEY ..." the keys of one action there
 *	MODEL CHECK	its first ".Bd" block, ".Li ARCH" a line: exactly the
 *			architectures of models.tsv (gguf_model_archs)
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "model.h"
#include "tui/curses.h"
#include "tui/tui.h"
#include "tap.h"

#define MAX_LINES	4096
#define MAX_WORDS	256

static char	*lines[MAX_LINES];
static int	 nlines;

struct words {
	char	 v[MAX_WORDS][64];
	int	 n;
};

static int
load(const char *path)
{
	FILE	*f = fopen(path, "r");
	char	 buf[1024];

	if (f == NULL)
		return -1;
	while (nlines < MAX_LINES && fgets(buf, sizeof buf, f) != NULL) {
		buf[strcspn(buf, "\n")] = '\0';
		if ((lines[nlines] = strdup(buf)) == NULL)
			abort();
		nlines++;
	}
	fclose(f);
	return 0;
}

/* The word p[0..n) as roff means it: \- a hyphen, \& nothing, \e \. */
static void
unroff(char *out, size_t len, const char *p, size_t n)
{
	size_t	i, o = 0;

	for (i = 0; i < n && o + 1 < len; i++) {
		if (p[i] == '\\' && i + 1 < n) {
			i++;
			if (p[i] == '-')
				out[o++] = '-';
			else if (p[i] == 'e')
				out[o++] = '\\';
			continue;	/* \& and anything else: nothing */
		}
		out[o++] = p[i];
	}
	out[o] = '\0';
}

static int
has(const struct words *w, const char *s)
{
	int	i;

	for (i = 0; i < w->n; i++)
		if (strcmp(w->v[i], s) == 0)
			return 1;
	return 0;
}

/* Adds s once; more words than a list holds end the test. */
static void
add(struct words *w, const char *s)
{
	if (has(w, s))
		return;
	if (w->n == MAX_WORDS) {
		printf("Bail out! more than %d words in a list\n", MAX_WORDS);
		exit(1);
	}
	snprintf(w->v[w->n++], sizeof w->v[0], "%s", s);
}

/* The flags of a line: "-" and the word after each "Fl" ("Fl \-json"). */
static void
line_flags(const char *line, struct words *w)
{
	const char	*p = line;
	char		 word[60], flag[62];
	size_t		 n;

	while ((p = strstr(p, "Fl ")) != NULL) {
		if (p != line && p[-1] != ' ' && p[-1] != '.') {
			p++;
			continue;
		}
		p += 3;
		n = strcspn(p, " ");
		unroff(word, sizeof word, p, n);
		if (word[0] != '\0' && strcmp(word, "|") != 0) {
			snprintf(flag, sizeof flag, "-%s", word);
			add(w, flag);
		}
		p += n;
	}
}

/* The words of ".It MACRO a , b , c" (up to a word that is no name). */
static void
it_words(const char *line, const char *macro, struct words *w)
{
	const char	*p = line + strlen(".It ") + strlen(macro) + 1;
	char		 word[64];
	size_t		 n;

	for (;;) {
		n = strcspn(p, " ");
		unroff(word, sizeof word, p, n);
		add(w, word);
		p += n;
		if (strncmp(p, " , ", 3) != 0)
			break;
		p += 3;
	}
}

/* The index of the line ".Sh name", or -1. */
static int
section(const char *name)
{
	int	i;

	for (i = 0; i < nlines; i++)
		if (strncmp(lines[i], ".Sh ", 4) == 0 &&
		    strcmp(lines[i] + 4, name) == 0)
			return i;
	return -1;
}

/* The end of the section that starts at line i: the next .Sh. */
static int
section_end(int i)
{
	for (i++; i < nlines; i++)
		if (strncmp(lines[i], ".Sh ", 4) == 0)
			break;
	return i;
}

/* The spellings of an option: "-o OUT, --output OUT" gives -o, --output. */
static void
spellings(const struct cli_opt *o, struct words *w)
{
	const char	*p = o->flags;
	char		 s[64];
	size_t		 n;

	while (*p != '\0') {
		n = strcspn(p, " ,");
		snprintf(s, sizeof s, "%.*s", (int)n, p);
		add(w, s);
		if ((p = strstr(p, ", ")) == NULL)
			break;
		p += 2;
	}
}

/* ---------------------------------------------------------- commands */

static void
check_synopsis(void)
{
	const struct cli_cmd	*c;
	const struct cli_opt	*o;
	struct words		 fl, sp, all;
	int			 s, e, i, j, k, found;
	size_t			 ci;
	char			 name[64];

	s = section("SYNOPSIS");
	if (!ok(s >= 0, "the manual has a SYNOPSIS"))
		return;
	e = section_end(s);
	/* Each block names a command of the table. */
	for (i = s; i < e; i++) {
		if (strcmp(lines[i], ".Nm") != 0 || i + 1 >= e ||
		    strncmp(lines[i + 1], ".Cm ", 4) != 0)
			continue;
		unroff(name, sizeof name, lines[i + 1] + 4,
		    strcspn(lines[i + 1] + 4, " "));
		ok(cli_find_command(name) != NULL, "the SYNOPSIS's %s is a "
		    "command", name);
	}
	for (ci = 0; ci < cli_n_commands; ci++) {
		c = &cli_commands[ci];
		found = 0;
		memset(&fl, 0, sizeof fl);
		for (i = s; i < e; i++) {
			if (strcmp(lines[i], ".Nm") != 0 || i + 1 >= e ||
			    strncmp(lines[i + 1], ".Cm ", 4) != 0)
				continue;
			unroff(name, sizeof name, lines[i + 1] + 4,
			    strcspn(lines[i + 1] + 4, " "));
			if (strcmp(name, c->name) != 0)
				continue;
			found = 1;
			for (j = i + 1; j < e && strcmp(lines[j], ".Nm") != 0;
			    j++)
				line_flags(lines[j], &fl);
		}
		if (!ok(found, "the SYNOPSIS has %s", c->name))
			continue;
		memset(&all, 0, sizeof all);
		for (o = c->opts; o->flags != NULL; o++) {
			memset(&sp, 0, sizeof sp);
			spellings(o, &sp);
			for (k = 0; k < sp.n; k++)
				add(&all, sp.v[k]);
			for (k = 0; k < sp.n && !has(&fl, sp.v[k]); k++)
				;
			ok(k < sp.n, "the SYNOPSIS of %s gives %s", c->name,
			    o->flags);
		}
		for (k = 0; k < fl.n; k++)
			ok(has(&all, fl.v[k]), "%s in the SYNOPSIS of %s is "
			    "an option of it", fl.v[k], c->name);
	}
}

static void
check_commands(void)
{
	const struct cli_opt	*o;
	struct words		 items, flags, all;
	int			 s, e, i, k;
	size_t			 ci;
	char			 name[64];

	s = section("COMMANDS");
	if (!ok(s >= 0, "the manual has COMMANDS"))
		return;
	e = section_end(s);
	memset(&items, 0, sizeof items);
	memset(&flags, 0, sizeof flags);
	for (i = s; i < e; i++) {
		if (strncmp(lines[i], ".It Cm ", 7) == 0) {
			unroff(name, sizeof name, lines[i] + 7,
			    strcspn(lines[i] + 7, " "));
			add(&items, name);
			ok(cli_find_command(name) != NULL, "%s in COMMANDS "
			    "is a command", name);
		} else if (strncmp(lines[i], ".It Fl ", 7) == 0)
			line_flags(lines[i], &flags);
	}
	memset(&all, 0, sizeof all);
	for (ci = 0; ci < cli_n_commands; ci++) {
		ok(has(&items, cli_commands[ci].name), "COMMANDS describes %s",
		    cli_commands[ci].name);
		for (o = cli_commands[ci].opts; o->flags != NULL; o++)
			spellings(o, &all);
	}
	for (k = 0; k < all.n; k++)
		ok(has(&flags, all.v[k]), "COMMANDS describes the option %s",
		    all.v[k]);
	for (k = 0; k < flags.n; k++)
		ok(has(&all, flags.v[k]), "the option %s in COMMANDS is an "
		    "option of a command", flags.v[k]);
}

/* -------------------------------------------------------------- keys */

/* The binding of the key called name in exactly scope, or NULL. */
static const struct key_binding *
binding(unsigned scope, const char *name)
{
	char	kb[16];
	size_t	i;

	for (i = 0; i < keys_count; i++)
		if (keys_table[i].scope == scope &&
		    strcmp(keys_name(keys_table[i].key, kb, sizeof kb),
		    name) == 0)
			return &keys_table[i];
	return NULL;
}

static void
check_keys(void)
{
	static const unsigned scopes[] = {
		SC_ALL, SC_LIST, SC_TREE, SC_TENSORS, SC_PAGER, SC_PREVIEW,
		SC_JUMP, SC_META, SC_ARRAY, SC_TOKENS, SC_SUMMARY
	};
	const struct key_binding	*b;
	struct words			 ks, named[sizeof scopes /
					     sizeof scopes[0]];
	unsigned			 scope = 0;
	enum tui_action			 act;
	size_t				 si, i;
	int				 s, e, l, k, in = -1;
	char				 kb[16];

	s = section("KEYS");
	if (!ok(s >= 0, "the manual has KEYS"))
		return;
	e = section_end(s);
	memset(named, 0, sizeof named);
	for (l = s; l < e; l++) {
		if (strncmp(lines[l], ".Ss ", 4) == 0) {
			for (si = 0; si < sizeof scopes / sizeof scopes[0] &&
			    strcmp(keys_scope_name(scopes[si]), lines[l] + 4)
			    != 0; si++)
				;
			in = si < sizeof scopes / sizeof scopes[0] ?
			    (int)si : -1;
			ok(in >= 0, "KEYS: \"%s\" is the heading of a scope",
			    lines[l] + 4);
			scope = in >= 0 ? scopes[in] : 0;
			continue;
		}
		if (strncmp(lines[l], ".It Ic ", 7) != 0 || in < 0)
			continue;
		memset(&ks, 0, sizeof ks);
		it_words(lines[l], "Ic", &ks);
		act = ACT_NONE;
		for (k = 0; k < ks.n; k++) {
			add(&named[in], ks.v[k]);
			b = binding(scope, ks.v[k]);
			if (!ok(b != NULL, "KEYS: %s is bound under \"%s\"",
			    ks.v[k], keys_scope_name(scope)))
				continue;
			if (act == ACT_NONE)
				act = b->action;
			ok(b->action == act, "KEYS: %s does what the keys "
			    "beside it do under \"%s\" (%s, not %s)", ks.v[k],
			    keys_scope_name(scope), action_name(act),
			    action_name(b->action));
		}
	}
	for (i = 0; i < keys_count; i++) {
		for (si = 0; si < sizeof scopes / sizeof scopes[0] &&
		    scopes[si] != keys_table[i].scope; si++)
			;
		keys_name(keys_table[i].key, kb, sizeof kb);
		ok(si < sizeof scopes / sizeof scopes[0] && has(&named[si],
		    kb), "KEYS documents %s under \"%s\" (%s)", kb,
		    keys_scope_name(keys_table[i].scope),
		    action_name(keys_table[i].action));
	}
}

/* The architectures the manual lists are the table's. */
static void
check_archs(void)
{
	const char	*names[512];
	struct words	 listed;
	size_t		 n, i;
	int		 l, in = 0, block = 0;
	char		 w[64];

	memset(&listed, 0, sizeof listed);
	for (l = 0; l < nlines; l++) {
		if (strncmp(lines[l], ".Sh ", 4) == 0) {
			if (in)
				break;
			in = strcmp(lines[l], ".Sh MODEL CHECK") == 0;
			continue;
		}
		if (!in)
			continue;
		if (strncmp(lines[l], ".Bd", 3) == 0 && block == 0)
			block = 1;
		else if (strncmp(lines[l], ".Ed", 3) == 0 && block == 1)
			block = 2;
		else if (block == 1 && strncmp(lines[l], ".Li ", 4) == 0) {
			unroff(w, sizeof w, lines[l] + 4,
			    strcspn(lines[l] + 4, " "));
			add(&listed, w);
		}
	}
	ok(in && block == 2, "MODEL CHECK lists the architectures in a .Bd "
	    "block");
	n = gguf_model_archs(names, sizeof names / sizeof names[0]);
	for (i = 0; i < n && i < sizeof names / sizeof names[0]; i++)
		ok(has(&listed, names[i]), "MODEL CHECK lists %s, which "
		    "models.tsv has", names[i]);
	for (l = 0; l < listed.n; l++) {
		for (i = 0; i < n && i < sizeof names / sizeof names[0]; i++)
			if (strcmp(names[i], listed.v[l]) == 0)
				break;
		ok(i < n, "MODEL CHECK lists %s: models.tsv has it",
		    listed.v[l]);
	}
}

int
main(void)
{
	const char	*src = getenv("TESTS_SRCDIR");
	char		 path[4096];

	snprintf(path, sizeof path, "%s/../assets/ggufed.1",
	    src != NULL ? src : "tests");
	if (!ok(load(path) == 0, "the manual can be read"))
		return tap_done();
	check_synopsis();
	check_commands();
	check_keys();
	check_archs();
	return tap_done();
}
