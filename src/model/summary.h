/*
 * summary.h - what a file is, at a glance: the facts `ggufed info` prints
 * and the browser's Summary view draws, gathered in one place so the two
 * cannot drift apart. Data only; each front end words and lays it out.
 *
 *	struct gguf_summary	s;
 *
 *	gguf_summary_make(&s, f, NULL, 0);
 *	... s.sections[i], s.types[i], s.findings[i] ...
 *	gguf_summary_free(&s);
 */
#ifndef GGUF_SUMMARY_H
#define GGUF_SUMMARY_H

#include <stddef.h>
#include <stdint.h>

#include "doc.h"
#include "gguf.h"

/* The parts of the file, in file order. */
enum gguf_section {
	GGUF_SEC_HEADER,
	GGUF_SEC_KV,		/* the KV pairs */
	GGUF_SEC_TINFO,		/* the tensor infos */
	GGUF_SEC_PADDING,	/* up to the data (or the end of the file) */
	GGUF_SEC_DATA,		/* the tensor data */
	GGUF_SEC_TRAILING	/* bytes after the infos of a file without tensors */
};

struct gguf_sum_section {
	enum gguf_section	 what;
	uint64_t		 from, to;	/* [from, to) */
};

/* The tensors of one type. */
struct gguf_sum_type {
	uint32_t	 type;		/* GGUF_T_COUNT: types unknown here */
	uint64_t	 count;
	uint64_t	 bytes;
	uint64_t	 elems;
};

struct gguf_finding {
	int		 level;		/* enum gguf_wlevel */
	int64_t		 off;		/* -1: no one place of the file */
	char		*msg;		/* one line, printable ASCII */
	char		*file;		/* a set: the shard off is in; NULL: the file */
};

/*
 * The hyper-parameters a reader looks for first, from the keys of the
 * architecture ({arch}.context_length, ...) and of the tokenizer, in
 * this order; those the file lacks are left out.
 */
#define GGUF_SUM_MAXHP	12
struct gguf_sum_hparam {
	const char	*id;		/* "context_length", ...: info --json */
	const char	*label;		/* "Context length", "Layers", ... */
	char		 text[80];	/* "4096", "32 (8 in use)", "yes" */
};

struct gguf_summary {
	const struct gguf_layout *lay;
	/* Well-known keys, NULL if absent (of any type: check before use). */
	struct gguf_val		*arch;		/* general.architecture */
	struct gguf_val		*name;		/* general.name */
	int			 has_file_type;	/* general.file_type, a number */
	uint64_t		 file_type;
	const char		*file_type_name;	/* "MOSTLY_Q4_K_M", "unknown" */

	/*
	 * What the file is (kind.h: enum gguf_kind) and, for all but a
	 * model, the line that says so ("LoRA adapter for llama, rank 8,
	 * ..."); kind_text is empty for a model.
	 */
	int			 kind;
	char			 kind_text[200];

	uint64_t		 params;	/* elements of every tensor */
	uint64_t		 tensor_bytes;	/* bytes of every tensor */
	struct gguf_sum_section	 sections[5];
	size_t			 n_sections;
	struct gguf_sum_type	*types;		/* by type id, present ones */
	size_t			 n_types;

	/*
	 * The reader's findings first (n_reader), then the model checks':
	 * a few of each kind (model.h, gguf_mgroup) and a line for the rest.
	 * count has every finding.
	 */
	struct gguf_finding	*findings;
	size_t			 n_findings;
	size_t			 n_reader;
	unsigned		 count[3];	/* by level */
	struct gguf_sum_hparam	 hp[GGUF_SUM_MAXHP];
	size_t			 n_hp;
};

#define GGUF_SUM_CHECKS	0x01	/* run the model checks (without the data) */

/*
 * Fills s from f. Keys are read from d (f's document, with its edits)
 * when d is not NULL; everything else is f's. With GGUF_SUM_CHECKS the
 * findings include those of gguf_check_model and of the model check
 * (model.h: of d when given, with its edits), else only the reader's.
 * The summary points into f and d, and is good while they are unchanged.
 */
void	gguf_summary_make(struct gguf_summary *s, struct gguf_file *f,
	    struct gguf_doc *d, unsigned flags);
void	gguf_summary_free(struct gguf_summary *s);

/* 1234567 -> "1.23 M" (K, M, B with two decimals); "" below 1000. */
const char	*gguf_fmt_scaled(uint64_t v, char *buf, size_t len);

#endif /* GGUF_SUMMARY_H */
