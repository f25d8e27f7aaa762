/*
 * model.h - will llama.cpp load it? The model check.
 *
 * What llama.cpp requires of a model, per architecture, is the table
 * assets/models.tsv (its header describes the format), made C at build
 * time by build-aux/models2c: the keys it reads and their types, the
 * tensors it loads (required or optional, per block) with their shapes as
 * expressions of the hyper-parameters, and the conditions it asserts.
 *
 * The check reads a document (doc.h: the file as it will be saved, edits
 * included; a split set opened as one document is one model) or an opened
 * file, and reports, per finding, its level (enum gguf_wlevel: an error is
 * a model llama.cpp refuses to load), the key or tensor it is about and a
 * one-line message naming what was expected, what was found and the
 * parameters it came from. Its cost is bounded by the table's rows times
 * the smaller of the block count and the number of tensors, each step a
 * hashed lookup: a hostile block count, key or expression cannot make it
 * loop or overflow.
 *
 * Nothing here prints or touches a terminal.
 */
#ifndef GGUF_MODEL_H
#define GGUF_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "gguf.h"

struct gguf_doc;

/*
 * The llama.cpp whose rules the table follows (models.tsv's header), and
 * `ggufed mem` with it: the release node-llama-cpp 3.22.1 ships, as its
 * llama/binariesGithubRelease.json names it and its library's
 * llama_commit() reports it. `ggufed --version` prints it.
 */
#define GGUF_LLAMA_CPP_RELEASE	"v0.5.0"
#define GGUF_LLAMA_CPP_COMMIT	"0ad4a86"
#define GGUF_LLAMA_CPP_VIA	"node-llama-cpp 3.22.1"

/* One row of models.tsv (model_table.c makes them from the packed ones). */
#define GGUF_MR_ARCH	1
#define GGUF_MR_LET	2
#define GGUF_MR_KEY	3
#define GGUF_MR_TENSOR	4
#define GGUF_MR_NEED	5
#define GGUF_MR_VAL	6

struct gguf_mrow {
	int		 kind;		/* GGUF_MR_* */
	const char	*name;
	const char	*value;
	const char	*when;		/* NULL when the row has none */
	unsigned	 line;		/* in models.tsv */
};

/*
 * The rows as build-aux/models2c writes them: each string an offset into
 * gguf_model_strs, so the table holds no pointer for the loader to
 * relocate at every start.
 */
#define GGUF_MR_NONE	UINT32_MAX	/* no WHEN */

struct gguf_mrow_packed {
	int		 kind;
	uint32_t	 name, value, when;
	unsigned	 line;
};

extern const char			gguf_model_strs[];
extern const struct gguf_mrow_packed	gguf_model_prows[];
extern const size_t			gguf_model_nrows;

/* What a finding is about. */
#define GGUF_MF_MODEL	0	/* the model as a whole */
#define GGUF_MF_KEY	1	/* name is a key */
#define GGUF_MF_TENSOR	2	/* name is a tensor */

#define GGUF_MF_MAXDEPS	8

/*
 * The kind of a finding, for a report that shows the first few of each
 * kind and counts the rest (gguf_mgroup): the checks pass every finding.
 */
#define GGUF_MK_OTHER	0
#define GGUF_MK_MISSING	1	/* a tensor llama.cpp requires is absent */
#define GGUF_MK_SHAPE	2	/* a tensor of a shape llama.cpp refuses */
#define GGUF_MK_UNUSED	3	/* a tensor llama.cpp does not load */
#define GGUF_MK_COUNT	4

struct gguf_mfinding {
	int		 level;		/* enum gguf_wlevel */
	int		 what;		/* GGUF_MF_* */
	int		 kind;		/* GGUF_MK_* */
	const char	*name;		/* the key or tensor, or NULL */
	int64_t		 index;		/* a tensor's entry index, or -1 */
	const char	*msg;		/* one line, naming name */
	/* The keys the finding's expected values were computed from. */
	const char	*deps[GGUF_MF_MAXDEPS];
	size_t		 ndeps;
};

/* Called for each finding; the views are valid during the call only. */
typedef void	(*gguf_mfinding_fn)(void *arg, const struct gguf_mfinding *f);

/*
 * Checks the document d (the merged view after its edits) against the
 * table, calling fn for each finding (fn may be NULL). A document that is
 * not a model (no tensors, general.type not "model") gets no finding; an
 * architecture the table does not know gets one note and no guess.
 * Returns the number of errors.
 */
unsigned	gguf_model_check(struct gguf_doc *d, gguf_mfinding_fn fn,
		    void *arg);
/* The same for a file (or a set) as opened, without a document. */
unsigned	gguf_model_check_file(struct gguf_file *f, gguf_mfinding_fn fn,
		    void *arg);

/*
 * The errors of gguf_model_check(d) that the document's source (the file
 * as opened or last saved) does not have: what the pending edits broke.
 * Only errors are passed to fn (which may be NULL); returns their count.
 */
unsigned	gguf_model_check_new(struct gguf_doc *d, gguf_mfinding_fn fn,
		    void *arg);

/*
 * A report that groups: each finding counted, the first GGUF_MK_SHOWN of
 * each kind shown, the others of the kind told by one line at the end.
 *
 *	struct gguf_mgroup g = { 0 };
 *	for each finding f: if (gguf_mgroup_add(&g, f)) show f;
 *	for (k = 0; k < GGUF_MK_COUNT; k++)
 *		if (gguf_mgroup_more(&g, k, buf, sizeof buf) == 0) show buf;
 */
#define GGUF_MK_SHOWN	8

struct gguf_mgroup {
	uint64_t	 n[GGUF_MK_COUNT];	/* findings of each kind */
};

/* Counts f; 1 if the report shows it, 0 if the line at the end counts it. */
int		gguf_mgroup_add(struct gguf_mgroup *g,
		    const struct gguf_mfinding *f);
/*
 * The line for the findings of kind k the report did not show ("28 more
 * tensors llama.cpp requires are missing"), an error like each of them,
 * in buf: 0, or -1 when it showed them all.
 */
int		gguf_mgroup_more(const struct gguf_mgroup *g, int k, char *buf,
		    size_t len);

/*
 * A short verdict of gguf_model_check for a status line or a prompt: the
 * counts by level, and the first error's message in first (empty when
 * there is none).
 */
struct gguf_mverdict {
	unsigned	 count[3];	/* by enum gguf_wlevel */
	char		 first[256];
};

void		gguf_model_verdict(struct gguf_doc *d, struct gguf_mverdict *v);

/*
 * The tensor names llama.cpp looks for in document d as it is now (those
 * of the rows whose condition holds, or cannot be told, for each block):
 * a rename preview marks a new name that is not one of them. NULL when
 * the architecture is not in the table or the block count cannot be
 * read; gguf_mnames_has then answers 1 (no guess).
 */
struct gguf_mnames;

struct gguf_mnames	*gguf_model_names(struct gguf_doc *d);
int			 gguf_mnames_has(const struct gguf_mnames *mn,
			    const char *name, size_t n);
void			 gguf_mnames_free(struct gguf_mnames *mn);

/* Whether the table has a section for architecture arch (n bytes). */
int		gguf_model_known(const char *arch, size_t n);
/*
 * The architectures the table has sections for, in table order (not *):
 * up to max names into out; returns how many there are.
 */
size_t		gguf_model_archs(const char **out, size_t max);

/*
 * Evaluates the expression expr as the table would for architecture arch
 * (its lets and those of *; * alone if arch is NULL or not in the table)
 * over document d (NULL: no key, no tensor), in block il (-1: outside any
 * block). 0 and *out, or -1 with why set: the expression does not parse
 * (why begins "syntax:"), or it cannot be evaluated (a key absent or not
 * a number, a division by zero, an overflow).
 */
int		gguf_model_eval(struct gguf_doc *d, const char *arch,
		    const char *expr, int64_t il, int64_t *out, char *why,
		    size_t len);

/* ------------------------------------------------- a new model (ggufed new) */

/*
 * A key `ggufed new` writes: a val row of the section (or of *, or of its
 * base) whose key has a key row there. key: the row's NAME ({arch}
 * unexpanded); value: its VALUE; types: the key row's VALUE (the first
 * alternative is the type written).
 */
struct gguf_mval {
	const char	*key;
	const char	*value;
	const char	*types;
	unsigned	 line;
};

/*
 * The keys of arch[0..n) as `new` writes them, in order (*'s order first,
 * a section's own new keys after): up to max into out, their number in
 * *count. 0; 1 with *why set when the table says `new` cannot make the
 * architecture alone (a "val - WHY" row); -1 if arch is not in the table.
 */
int		gguf_model_vals(const char *arch, size_t n,
		    struct gguf_mval *out, size_t max, size_t *count,
		    const char **why);

/* A tensor of a new model: its name and shape (ne[i] = 1 past n_dims). */
struct gguf_mtensor {
	char		name[96];
	uint32_t	n_dims;
	int64_t		ne[4];
};

/*
 * The tensors of a new model whose keys are document d's (general.
 * architecture names its section): every tensor a row requires, in
 * table order (those outside blocks, then block 0's, block 1's, ...),
 * and each optional one that variant chooses (variant 0: none; another:
 * a choice per row, or per row and block, from its bits). Conditions that
 * read has_tensor see the tensors chosen. 0 with *out (free it) and *n,
 * or -1 with why: a shape or condition that cannot be evaluated.
 */
int		gguf_model_plan(struct gguf_doc *d, uint64_t variant,
		    struct gguf_mtensor **out, size_t *n, char *why,
		    size_t len);

/*
 * Parses every expression of the table and resolves every name it uses
 * in each section that sees it: 0, or the number of rows at fault with the
 * first one's "models.tsv:LINE: what" in why.
 */
int		gguf_model_table_verify(char *why, size_t len);
/*
 * How many rows of the table have their expressions parsed: a section's
 * rows are parsed when a model of it is first checked, every row by
 * gguf_model_table_verify.
 */
size_t		gguf_model_table_parsed(void);

#endif /* GGUF_MODEL_H */
