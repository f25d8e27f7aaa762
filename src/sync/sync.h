/*
 * sync.h - a model's metadata compared with its upstream repository's
 * files, key by key, as llama.cpp's converter (convert_hf_to_gguf.py and
 * gguf-py's SpecialVocab) would have written them from those files.
 *
 * A source is a folder laid out as a Hugging Face model repository:
 * config.json (required), generation_config.json, tokenizer_config.json,
 * chat_template.jinja (with additional_chat_templates/NAME.jinja) or
 * chat_template.json; or such a repository on a server (hf://OWNER/REPO
 * [@REVISION], an http(s) URL of its folder). Every file is read through
 * sync_read_file, the one place that knows where a source's files come
 * from.
 *
 * The result is a list of differences. Each names the GGUF key, what the
 * file holds, what upstream says, where upstream says it, what the
 * difference does to a user, and the edit command (cmd/lang.h) that
 * writes the converter's value; a difference that cannot be written (a
 * shape hyper-parameter, a fix that needs a tensor) has none. Nothing
 * here prints, edits or exits.
 */
#ifndef GGUF_SYNC_H
#define GGUF_SYNC_H

#include <stddef.h>

#include "gguf.h"

/*
 * The model compared: its current metadata through a lookup, so an opened
 * file and an edited document serve alike, and whether it holds a tensor.
 */
struct sync_model {
	struct gguf_val	*(*get)(void *arg, const char *key);
	int		 (*has_tensor)(void *arg, const char *name);
	void		*arg;
};

enum sync_kind {
	SYNC_TOKEN,		/* a special token id or an add_*_token flag */
	SYNC_TEMPLATE,		/* a chat template */
	SYNC_HPARAM,		/* a hyper-parameter a fix may change */
	SYNC_SHAPE		/* a shape hyper-parameter: never written */
};

struct sync_diff {
	enum sync_kind	 kind;
	char		*key;		/* the GGUF key */
	char		*file;		/* its value in the file, as text;
					   "(none)" when it is not there */
	char		*upstream;	/* the converter's value, as text */
	char		*source;	/* "config.json max_position_embeddings" */
	char		*effect;	/* what the difference does to a user */
	char		*detail;	/* more lines (a template's rendered
					   difference), or NULL */
	char		*edit;		/* the edit command that writes it, or
					   NULL: reported only */
	int		 selected;	/* the browser's toggle */
};

struct sync_report {
	struct sync_diff *diffs;
	size_t		  n;
	char		**notes;	/* what was not mapped, and why */
	size_t		  n_notes;
	char		 *arch;		/* the GGUF architecture upstream maps
					   to, or NULL (unknown: only the
					   tokenizer and template keys) */
	int		  shape_mismatch; /* the folder is not this model's */
	char		**compared;	/* every key upstream gives a value
					   for, differing or not */
	size_t		  n_compared;
};

/*
 * Reads the file name of source (a folder, or on a server:
 * hf://OWNER/REPO[@REVISION] or the http(s) URL of the repository's
 * folder; a file the server does not have is "no such file") into *text (allocated, NUL
 * added, not counted in *n). 0 when read, 1 when the source has no such
 * file, -1 with a one-line reason in msg ("SOURCE/NAME: what"). A file of
 * a folder that leads through links out of it is not read (-1), unless
 * into the blobs/ of the Hugging Face cache the folder is a snapshot of.
 */
int	sync_read_file(const char *source, const char *name, char **text,
	    size_t *n, char *msg, size_t len);

/*
 * Compares model m with source: 0 with r filled (no differences is
 * n == 0), or -1 with a one-line reason in msg and r empty: the source
 * cannot be read (no folder, no config.json, a file that is not JSON or
 * not of the expected shape) or names a special token the model's
 * vocabulary does not hold; or it gives what the converter would refuse
 * or write otherwise (a float not finite as f32, or -0; a template or a
 * token text with a NUL or not UTF-8; two templates whose names are alike
 * once sanitised).
 */
int	sync_compare(const struct sync_model *m, const char *source,
	    struct sync_report *r, char *msg, size_t len);
void	sync_report_free(struct sync_report *r);

/*
 * Selects only the differences whose key is in the comma-separated list
 * keys (the others stay in the report, unselected); -1 with msg naming a
 * key of the list that upstream gives no value for. A key compared
 * alike selects nothing.
 */
int	sync_report_only(struct sync_report *r, const char *keys, char *msg,
	    size_t len);

#endif /* GGUF_SYNC_H */
