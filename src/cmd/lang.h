/*
 * lang.h - the command language of ggufed: one parser for `ggufed edit -e`,
 * edit scripts (-f), the shorthand subcommands and the browser's `:` line.
 *
 *	set KEY VALUE			change a value, keeping its type
 *	set KEY:TYPE VALUE		add a key, or change its type
 *	set KEY VALUE			a missing well-known key (schema.h)
 *					is added with the schema's type
 *	set KEY[I] VALUE		change element I of an array
 *	ins KEY[I] VALUE|[V, ...]	insert before element I
 *	append KEY VALUE|[V, ...]	add at the end of an array
 *	del KEY[I] | KEY[I:J]		delete element I, or I..J-1
 *	rm [--if-exists] KEY		remove a key (--if-exists: no error
 *					if there is none)
 *	mv KEY NEWKEY			rename a key
 *	rename TENSOR NEWNAME		rename a tensor
 *	rename s/REGEX/REPL/[gi]	rename tensors by PCRE2 substitution
 *	rm-tensor NAME			remove a tensor (its data goes on save)
 *	convert TENSOR f32		its data as float32, losslessly, on save
 *	undo [N], redo [N]
 *
 * The browser's `:` line takes these and its own commands (w, q, help,
 * ...), which the same table describes and the same parser reads into an
 * op for the browser to carry out; elsewhere they are unknown commands.
 *
 * A KEY (or tensor name) is a bare word or a "C-escaped" string; a bare
 * word ending in :TYPE or [I] has that split off (in set, whatever
 * follows the last colon must be a type: a key holding a colon is
 * quoted). Indices count from 0;
 * negative ones count from the end (-1 is the last element). VALUE is the
 * rest of the line, in the syntax of value.h. Blank lines and lines
 * starting with # do nothing.
 */
#ifndef CMD_LANG_H
#define CMD_LANG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct gguf_doc;
struct gguf_err;
struct gguf_key_spec;

enum lang_op {
	LANG_NOP = 0,
	LANG_SET,		/* set KEY[:TYPE] VALUE */
	LANG_SET_ELEM,		/* set KEY[I] VALUE */
	LANG_INS,		/* ins KEY[I] VALUE */
	LANG_APPEND,		/* append KEY VALUE */
	LANG_DEL,		/* del KEY[I] or KEY[I:J] */
	LANG_RM,		/* rm KEY */
	LANG_MV,		/* mv KEY NEWKEY */
	LANG_RENAME,		/* rename TENSOR NEWNAME */
	LANG_RENAME_RE,		/* rename s/RE/REPL/[gi] */
	LANG_RM_TENSOR,		/* rm-tensor NAME */
	LANG_CONVERT,		/* convert TENSOR TYPE */
	LANG_UNDO,		/* undo [N] */
	LANG_REDO,		/* redo [N] */
	/* The browser's own: arg is the rest of the line, as typed. */
	LANG_WRITE,		/* w [FILE] */
	LANG_WRITE_FORCE,	/* w! [FILE] */
	LANG_WRITE_QUIT,	/* wq [FILE], x [FILE] */
	LANG_QUIT,		/* q */
	LANG_QUIT_FORCE,	/* q! */
	LANG_RELOAD,		/* e */
	LANG_RELOAD_FORCE,	/* e! */
	LANG_CHANGES,		/* changes */
	LANG_MESSAGES,		/* messages */
	LANG_RESCUE,		/* rescue */
	LANG_DIFF,		/* diff OTHER */
	LANG_SYNC,		/* sync DIR */
	LANG_HELP		/* help [CMD] */
};

struct lang_src;
struct lang_cmd;

/*
 * One command: a row of the table that parsing, the browser's `:help`, its
 * completion and the test of the man page all read.
 */
struct lang_def {
	const char	*name;
	enum lang_op	 op;
	int		 browser;	/* only on the browser's : line */
	/* What `help NAME` says: the arguments, and for the browser's own
	   commands what they do. */
	const char	*usage;
	/* In the one-line list of `help` alone; NULL: left out of it. */
	const char	*brief;
	/* Reads the arguments into cmd; LANG_ERR with msg if they are wrong.
	   NULL: what follows the name is not read (the browser's q). */
	int		(*parse)(const struct lang_def *def,
			    struct lang_src *src, struct lang_cmd *cmd,
			    char *msg, size_t len);
};

/* The table: the edit language's commands, then the browser's own. */
extern const struct lang_def	lang_defs[];
extern const size_t		lang_n_defs;

/* A parsed command. Strings are allocated and NUL-terminated. */
struct lang_cmd {
	enum lang_op	 op;
	char		*name;		/* KEY, TENSOR or regex */
	size_t		 nlen;
	char		*arg;		/* NEWKEY, NEWNAME or replacement */
	size_t		 alen;
	char		*value;		/* value text, unparsed */
	size_t		 vlen;
	int		 has_type;
	uint32_t	 type;		/* value type; convert: tensor type */
	uint32_t	 atype;
	int		 has_index;
	int		 has_range;	/* [I:J] */
	int64_t		 i0;		/* may be negative: from the end */
	int64_t		 i1;
	int		 global;	/* regex: every match */
	int		 icase;		/* regex: ignore case */
	uint64_t	 count;		/* undo, redo */
	int		 force;		/* set even what llama.cpp refuses */
	int		 dry;		/* nothing will be saved: messages say
					   "would" */
	int		 if_exists;	/* rm: a missing key is no error */
};

#define LANG_REFUSED	(-2)	/* llama.cpp would refuse the value (msg says
				   why; nothing changed): force sets it */
#define LANG_MISSING	(-3)	/* the key or tensor named is not there
				   (msg says so, with the closest name if
				   one is near); nothing changed */
#define LANG_ERR	(-1)	/* msg says why; nothing changed */
#define LANG_OK		0	/* msg may hold a note ("renamed 32 tensors") */
#define LANG_WARN	1	/* done, but msg holds a warning */

/* Parses one line. LANG_ERR with msg on a syntax error. */
int	lang_parse(const char *line, struct lang_cmd *cmd, char *msg,
	    size_t len);
/* The same, taking the browser's own commands too. */
int	lang_parse_browser(const char *line, struct lang_cmd *cmd, char *msg,
	    size_t len);
/*
 * Builds a command from separate words (the shorthand subcommands):
 * words[0] is the command name; the others are whole tokens, never split
 * at blanks, and the last one of set/ins/append is the value text.
 */
int	lang_parse_words(int n, char *const *words, struct lang_cmd *cmd,
	    char *msg, size_t len);
/* Applies a parsed command to a document. */
int	lang_apply(struct gguf_doc *d, const struct lang_cmd *cmd, char *msg,
	    size_t len);
/* Parses and applies one line. */
int	lang_exec(struct gguf_doc *d, const char *line, char *msg, size_t len);
/*
 * The first line of a script of unsaved edits the browser keeps when it
 * is cut off, and the comment naming the file it is for (its resolved
 * path, quoted as gguf_str_quote quotes): the browser's :rescue and
 * `ggufed edit -i -f SCRIPT` know such a script by them, and remove it
 * once its edits are applied and saved.
 */
#define LANG_RESCUE_HEAD	"# Unsaved changes, kept when the browser was cut off"
#define LANG_RESCUE_FILE	"# file: "

/*
 * Writes d's pending changes to fp as lines of this language (script.c):
 * run on the source file, they make the same document again. Returns
 * the number of changes (0: none), or -1 with err; *lost counts the
 * changes the language cannot write (an array of arrays), left in the
 * script as comments.
 */
int	lang_script(struct gguf_doc *d, FILE *fp, int *lost,
	    struct gguf_err *err);
void	lang_cmd_free(struct lang_cmd *cmd);

/*
 * The entry of key (n bytes) among the well-known keys (schema.h), {arch}
 * being the document's architecture, with in *type, *atype the type `set`
 * adds it with when it is missing: the first the schema gives. NULL if
 * it is no well-known key.
 */
const struct gguf_key_spec *lang_schema_type(struct gguf_doc *d,
			    const char *key, size_t n, uint32_t *type,
			    uint32_t *atype);
/* The row of a command, or NULL if there is none of that name. */
const struct lang_def	*lang_find(const char *name, size_t n);
/* Usage of a command ("set KEY[:TYPE] VALUE ..."), or NULL if unknown. */
const char		*lang_usage(const char *name);
/* True if the command changes the document (the edit language's). */
int			 lang_modifies(const struct lang_cmd *cmd);

#endif /* CMD_LANG_H */
