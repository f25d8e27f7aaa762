/*
 * modelint.h - what the files of the model check share and nobody else
 * sees: the expressions of assets/models.tsv as trees (model_expr.c), the
 * table compiled into sections of effective rows (model_table.c), which
 * model.c evaluates against a document or a file.
 */
#ifndef GGUF_MODELINT_H
#define GGUF_MODELINT_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"

/* ------------------------------------------------------------ expressions */

enum mop {
	OP_NUM, OP_LET, OP_IL, OP_NEG, OP_NOT, OP_ADD, OP_SUB, OP_MUL,
	OP_DIV, OP_MOD, OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE, OP_AND,
	OP_OR, OP_COND, OP_KEY, OP_LKEY, OP_LKEY0, OP_HAS, OP_LEN, OP_KEYIS,
	OP_HAST, OP_TDIM, OP_MAX, OP_MIN, OP_AT, OP_ANY, OP_AMIN, OP_AMAX
};

struct mnode {
	enum mop	 op;
	int64_t		 num;
	char		*str;		/* a let's name, a function's key */
	char		*str2;		/* key_is: the string */
	struct mnode	*a, *b, *c;
};

/* Parses s[0..n) whole into a tree; NULL with err set. */
struct mnode	*gguf_mexpr_parse(const char *s, size_t n, char *err,
		    size_t errlen);
void		 gguf_mexpr_free(struct mnode *n);

/* ------------------------------------------------------------ the table */

#define MAX_DIMS	4
/* llama.cpp's LLAMA_MAX_LAYERS: it refuses a model with more blocks. */
#define MAX_LAYERS	512
#define MAX_CLAUSES	6
#define MAX_TYPES	6

struct clause {
	int		 req;		/* 1 req, 0 opt (and run), -1 none */
	int		 run;		/* run: opt, but ggufed new makes it */
	struct mnode	*cond;		/* NULL: always */
};

struct ktype {
	uint32_t	 type;
	uint32_t	 atype;
	struct mnode	*len;		/* arr[T;EXPR], or NULL */
};

struct crow {
	const struct gguf_mrow	*r;
	struct mnode		*e[MAX_DIMS];	/* let, need: e[0]; tensor: shape */
	int			 ne;
	struct clause		 cl[MAX_CLAUSES];
	int			 ncl;
	struct ktype		 kt[MAX_TYPES];
	int			 nkt;
	int			 block;		/* the name has {bid} */
	int			 can_req;	/* a clause says req */
	char			 err[200];	/* why it did not compile */
};

struct clet {
	const char	*name;
	size_t		 row;		/* in the section's rows */
};

struct csect {
	const char	*name;
	int		 base;		/* section index, or -1 */
	struct crow	**rows;		/* effective rows, lets included */
	size_t		 nrows;
	struct clet	*lets;		/* its lets by name, for a search */
	size_t		 nlets;
};

/*
 * The compiled section of architecture arch[0..n) ("*" for the rows
 * every architecture has), or NULL; the table is compiled on first use.
 */
const struct csect	*gguf_mtable_sect(const char *arch, size_t n);
/* The row of the let name in section s, or SIZE_MAX. */
size_t			 gguf_mtable_let(const struct csect *s,
			    const char *name);

#endif /* GGUF_MODELINT_H */
