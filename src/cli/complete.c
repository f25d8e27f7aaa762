/*
 * complete.c - `ggufed __complete WORD...`: the candidates for the last
 * word of a command line, for the shell completion scripts of
 * assets/completions, which stay small because the knowledge is here.
 *
 * The words are the command line after "ggufed", the last one being the
 * word under the cursor (empty when the cursor follows a blank). One
 * candidate is printed a line, each starting with that word; a line
 * ":files" asks the shell to offer file names as well. What a word means
 * comes from the table of commands (common.c): a command's options and
 * which of them take an argument, and below, which positional argument
 * of which command is a key or a tensor of the file named first, and the
 * values some options take. Key and
 * tensor names are read from that file (the whole set, for a shard);
 * a file that cannot be read gives no names and no message: completion
 * never prints an error into the user's command line. The key of `set`
 * is also any well-known key (assets/keys.tsv) the file lacks, and after
 * KEY: its types. A line ":dirs" asks for folder names.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "mem.h"
#include "model.h"
#include "schema.h"
#include "set.h"

/*
 * What each positional argument of a command is: F a file, K a key of
 * it, N a key of it or a well-known key it lacks (KEY:TYPE too), T a
 * tensor of it, A an architecture of the model check's table, - anything
 * else; the last letter repeats ("FT*": a file, then tensors). A command
 * not listed takes files.
 */
static const struct {
	const char	*cmd;
	const char	*args;
} positionals[] = {
	{ "get",	"FK-" },
	{ "set",	"FN-" },
	{ "rm",		"FK-" },
	{ "mv",		"FK-" },
	{ "cat",	"FT-" },
	{ "stats",	"FT*" },
	{ "rename",	"FT-" },
	{ "rm-tensor",	"FT-" },
	{ "convert",	"FT-" },
	{ "split",	"FF-" },
	{ "merge",	"FF-" },
	{ "new",	"A-" },
};

static const char *
positional_kinds(const char *cmd)
{
	size_t	i;

	for (i = 0; i < sizeof positionals / sizeof positionals[0]; i++)
		if (strcmp(positionals[i].cmd, cmd) == 0)
			return positionals[i].args;
	return "F*";
}

/* The kind of positional argument n (0-based) in kinds. */
static char
positional_kind(const char *kinds, size_t n)
{
	size_t	len = strlen(kinds);

	if (n < len && kinds[n] != '*')
		return kinds[n];
	if (kinds[len - 1] == '*')
		return kinds[len - 2];
	return '-';
}

/*
 * One candidate a line, escaped so that nothing of a file reaches the
 * terminal raw and every name is one line: a backslash is "\\", and
 * each byte of a control character, of an unsafe code point (see
 * gguf_cp_unsafe) or of bytes that are not UTF-8 is "\xHH", as is a
 * leading ':' (the answer's own lines start with one). The scripts turn
 * the escapes back into bytes (bash's printf %b, zsh's ${(g::)...})
 * before quoting each candidate for the shell.
 */
static void
candidate(const char *cur, const char *p, size_t n)
{
	const unsigned char	*u = (const unsigned char *)p;
	size_t			 clen = strlen(cur), i = 0, len, k;
	unsigned		 cp;

	if (n < clen || memcmp(p, cur, clen) != 0)
		return;
	/* No shell variable holds a NUL: such a name is not offered. */
	if (memchr(p, '\0', n) != NULL)
		return;
	while (i < n) {
		len = gguf_utf8_seq(u + i, n - i, &cp);
		if (len == 0 || (len > 1 && gguf_cp_unsafe(cp)) ||
		    (len == 1 && (cp < 0x20 || cp == 0x7f ||
		    (cp == ':' && i == 0)))) {
			if (len == 0)
				len = 1;
			for (k = 0; k < len; k++)
				printf("\\x%02x", u[i + k]);
		} else if (cp == '\\')
			fputs("\\\\", stdout);
		else
			fwrite(u + i, 1, len, stdout);
		i += len;
	}
	putchar('\n');
}

/*
 * If word is a spelling of an option of c that takes an argument, the
 * argument's placeholder ("OUT" for "-o" in "-o OUT, --output OUT");
 * "" for an option without one; NULL for no option of c.
 */
static const char *
option_arg(const struct cli_cmd *c, const char *word)
{
	const struct cli_opt	*o;
	const char		*p, *e, *sp;
	size_t			 n;

	for (o = c->opts; o->flags != NULL; o++) {
		for (p = o->flags; *p != '\0'; p = *e != '\0' ? e + 2 : e) {
			if ((e = strstr(p, ", ")) == NULL)
				e = p + strlen(p);
			sp = memchr(p, ' ', (size_t)(e - p));
			n = (size_t)((sp != NULL ? sp : e) - p);
			if (strlen(word) == n && memcmp(word, p, n) == 0)
				return sp != NULL ? sp + 1 : "";
		}
	}
	return NULL;
}

/*
 * The values of the options that take one of a few words, by the
 * option's spellings; values NULL: the cache types of mem.h.
 */
static const struct {
	const char	*opt;
	const char	*values;	/* separated by ", " */
} option_values[] = {
	{ "--cache-type-k",	NULL },
	{ "--cache-type-v",	NULL },
	{ "--gpu-layers",	"all, max, 0" },
	{ "-ngl",		"all, max, 0" },
	{ "--flash-attn",	"on, off, auto" },
	{ "-fa",		"on, off, auto" },
	{ "--n-cpu-moe",	"max" },
	{ "-ncmoe",		"max" },
};

/* The values of option opt that begin with cur; 0, or -1: none known. */
static int
complete_values(const char *opt, const char *cur)
{
	const char	*p, *e;
	size_t		 i;

	for (i = 0; i < sizeof option_values / sizeof option_values[0]; i++) {
		if (strcmp(option_values[i].opt, opt) != 0)
			continue;
		p = option_values[i].values != NULL ? option_values[i].values :
		    gguf_mem_cache_types();
		for (; *p != '\0'; p = *e != '\0' ? e + 2 : e) {
			if ((e = strstr(p, ", ")) == NULL)
				e = p + strlen(p);
			candidate(cur, p, (size_t)(e - p));
		}
		return 0;
	}
	return -1;
}

/* Whether an option's argument, by its placeholder, names a folder. */
static int
arg_is_dir(const char *ph)
{
	return strncmp(ph, "DIR", 3) == 0 && (ph[3] == '\0' || ph[3] == ',' ||
	    ph[3] == ' ');
}

/* Whether an option's argument, by its placeholder, names a file. */
static int
arg_is_file(const char *ph)
{
	static const char *const files[] = { "OUT", "SCRIPT", "MANIFEST",
	    "PATH", "FILE" };
	size_t	i, n;

	for (i = 0; i < sizeof files / sizeof files[0]; i++) {
		n = strlen(files[i]);
		if (strncmp(ph, files[i], n) == 0 &&
		    (ph[n] == '\0' || ph[n] == ',' || ph[n] == ' '))
			return 1;
	}
	return 0;
}

static void
complete_options(const struct cli_cmd *c, const char *cur)
{
	const struct cli_opt	*o;
	const char		*p, *e, *sp;

	for (o = c->opts; o->flags != NULL; o++) {
		for (p = o->flags; *p != '\0'; p = *e != '\0' ? e + 2 : e) {
			if ((e = strstr(p, ", ")) == NULL)
				e = p + strlen(p);
			sp = memchr(p, ' ', (size_t)(e - p));
			candidate(cur, p, (size_t)((sp != NULL ? sp : e) - p));
		}
	}
	candidate(cur, "--help", 6);
}

/* "~/x" as the shell would expand it; path itself otherwise. */
static char *
expand_home(const char *path)
{
	const char	*home;
	char		*s;

	if (strncmp(path, "~/", 2) != 0 || (home = getenv("HOME")) == NULL)
		return xstrdup(path);
	s = xmalloc(strlen(home) + strlen(path));
	sprintf(s, "%s%s", home, path + 1);
	return s;
}

/* KEY:TYPE: the value types after the colon of cur. */
static void
complete_types(const char *cur)
{
	const char *const	*types;
	const char		*colon = strchr(cur, ':');
	size_t			 n = (size_t)(colon + 1 - cur);
	char			*buf;

	for (types = gguf_vtype_all(); *types != NULL; types++) {
		buf = xmalloc(n + strlen(*types) + 1);
		memcpy(buf, cur, n);
		strcpy(buf + n, *types);
		candidate(cur, buf, strlen(buf));
		free(buf);
	}
}

/* The well-known keys f lacks, {arch} spelled out as f's architecture. */
static void
complete_schema(struct gguf_file *f, const char *cur)
{
	static const char	 ph[] = "{arch}";
	struct gguf_val		*v = gguf_kv_get(f, "general.architecture");
	struct gguf_str		 arch = { NULL, 0 };
	const char		*k;
	char			 buf[512];
	size_t			 i;

	if (v == NULL || gguf_val_str(v, &arch) != 0 || arch.n > 128 ||
	    memchr(arch.p, '\n', (size_t)arch.n) != NULL)
		arch.n = 0;
	for (i = 0; i < gguf_schema_n; i++) {
		k = gguf_schema_keys[i].key;
		if (strncmp(k, ph, sizeof ph - 1) == 0) {
			if (arch.n == 0)
				continue;
			snprintf(buf, sizeof buf, "%.*s%s", (int)arch.n,
			    arch.p, k + sizeof ph - 1);
		} else
			snprintf(buf, sizeof buf, "%s", k);
		/* Patterns ({id}, {name}) are no names to complete to. */
		if (strchr(buf, '{') != NULL ||
		    gguf_kv_find(f, buf, strlen(buf)) >= 0)
			continue;
		candidate(cur, buf, strlen(buf));
	}
}

/* kind: K keys, N keys and well-known ones, T tensors. */
static void
complete_names(const char *file, char kind, const char *cur)
{
	struct gguf_err		 err;
	struct gguf_file	*f;
	const struct gguf_tensor *t;
	struct gguf_kv		*kv;
	char			*path;
	uint64_t		 i;
	int			 tensors = kind == 'T';

	if (kind == 'N' && strchr(cur, ':') != NULL) {
		complete_types(cur);
		return;
	}
	path = expand_home(file);
	memset(&err, 0, sizeof err);
	f = gguf_set_open(path, 0, &err);
	free(path);
	if (f == NULL)
		return;
	if (tensors) {
		for (i = 0; i < gguf_layout(f)->n_tensors; i++) {
			t = gguf_tensor_at(f, i);
			candidate(cur, t->name.p, t->name.n);
		}
	} else {
		for (i = 0; i < gguf_layout(f)->n_kv; i++) {
			kv = gguf_kv_at(f, i);
			candidate(cur, kv->key.p, kv->key.n);
		}
		if (kind == 'N')
			complete_schema(f, cur);
	}
	gguf_close(f);
}

/* The architectures `new` makes. */
static void
complete_archs(const char *cur)
{
	const char	**names;
	size_t		  n, i;

	n = gguf_model_archs(NULL, 0);
	names = xcalloc(n + 1, sizeof *names);
	gguf_model_archs(names, n);
	for (i = 0; i < n; i++)
		candidate(cur, names[i], strlen(names[i]));
	free(names);
}

int
cmd_complete(int argc, char **argv)
{
	const struct cli_cmd	*c;
	const char		*cur, *kinds, *ph, *file = NULL;
	size_t			 i, npos = 0;
	int			 ddash = 0;
	char			 kind;

	if (argc < 2)
		return 0;
	cur = argv[argc - 1];
	if (argc == 2) {
		/* The first word: a command, an option, or a file to browse. */
		for (i = 0; i < cli_n_commands; i++)
			candidate(cur, cli_commands[i].name,
			    strlen(cli_commands[i].name));
		if (cur[0] == '-') {
			candidate(cur, "--help", 6);
			candidate(cur, "--version", 9);
			candidate(cur, "--shard", 7);
		} else
			puts(":files");
		return 0;
	}
	if ((c = cli_find_command(argv[1])) == NULL) {
		puts(":files");
		return 0;
	}
	kinds = positional_kinds(c->name);
	/* The words between the command and the current one. */
	for (i = 2; i < (size_t)argc - 1; i++) {
		if (!ddash && strcmp(argv[i], "--") == 0) {
			ddash = 1;
			continue;
		}
		if (!ddash && argv[i][0] == '-' && argv[i][1] != '\0') {
			ph = option_arg(c, argv[i]);
			if (ph == NULL || *ph == '\0')
				continue;
			if (i + 1 < (size_t)argc - 1) {
				i++;
				continue;
			}
			/* The current word is the option's argument. */
			if (arg_is_file(ph))
				puts(":files");
			else if (arg_is_dir(ph))
				puts(":dirs");
			else
				(void)complete_values(argv[i], cur);
			return 0;
		}
		if (positional_kind(kinds, npos) == 'F' && file == NULL)
			file = argv[i];
		npos++;
	}
	if (!ddash && cur[0] == '-') {
		complete_options(c, cur);
		return 0;
	}
	kind = positional_kind(kinds, npos);
	if (kind == 'F')
		puts(":files");
	else if (kind == 'N' && strchr(cur, ':') != NULL)
		complete_types(cur);
	else if ((kind == 'K' || kind == 'N' || kind == 'T') && file != NULL)
		complete_names(file, kind, cur);
	else if (kind == 'A')
		complete_archs(cur);
	return 0;
}
