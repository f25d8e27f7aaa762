/*
 * edit.h - what the browser's editing files share (edit.c asks and
 * applies; cmdline.c is the `:` line and its completion). Private to
 * src/tui: no view includes it.
 */
#ifndef GGUFED_TUI_EDIT_H
#define GGUFED_TUI_EDIT_H

#include "tui.h"

struct earg;

/*
 * Applies an answer: 0 done (an edit was made), 1 nothing more to do (or
 * the user was asked whether to force it), -1 refused (the status line
 * says why): ask again.
 */
typedef int	(*apply_fn)(struct app *a, struct earg *e, const char *line,
		    int force);

/* What a question is about. */
struct earg {
	char		*key;		/* key or tensor name (bytes) */
	size_t		 klen;
	int64_t		 elem;		/* array element, or -1 */
	uint32_t	 type;		/* a key being added: its type */
	uint32_t	 atype;
	uint64_t	 tensor;
	char		 label[128];
	/* An answer llama.cpp would refuse, while the user is asked. */
	char		*text;
	apply_fn	 apply;
	ask_fn		 answer;
	enum ask_compl	 compl;
};

/* A question's argument for key (klen bytes); elem -1, no text. */
struct earg	*earg_new(const char *key, size_t klen);
/* A copy of e with its own key and text. */
struct earg	*earg_dup(const struct earg *e);
/* Frees e (an ask's arg_free). */
void		 earg_free(void *arg);

/*
 * The answer line was refused by the checks llama.cpp makes (why): asks
 * whether to set it anyway; yes applies line with force, no goes back to
 * the question (answer, completing c), if there was one.
 */
void		 confirm_force(struct app *a, struct earg *e, const char *line,
		    const char *why, apply_fn apply, ask_fn answer,
		    enum ask_compl c);

/*
 * What lang_apply answered (rc, msg) said in the status line: 0 applied
 * (msg, a warning or a note, shown if any), -1 an error (shown), 1
 * refused by the checks llama.cpp makes (nothing shown: the caller asks
 * whether to force it).
 */
int		 edit_outcome(struct app *a, int rc, const char *msg);

/*
 * `rename s/RE/REPL/[gi]` (line is what follows "rename"): the planned
 * renames are shown before anything changes. 0, or -1 with the reason in
 * the status line.
 */
int		 edit_rename_re(struct app *a, const char *line);

#endif
