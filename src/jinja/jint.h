/*
 * jint.h - what the files of the template renderer share: the layout of
 * values, the growing byte buffer, the tokens, the syntax tree and the
 * state of one rendering.
 */
#ifndef JINJA_JINT_H
#define JINJA_JINT_H

#include <stddef.h>
#include <stdint.h>

#include "jinja.h"
#include "jv.h"

/* ------------------------------------------------------------- values */
enum {
	JVF_TUPLE = 1,		/* a list that prints as a tuple */
	JVF_NAMESPACE = 2,	/* a dict made by namespace(): attributes assignable */
	JVF_LOOP = 4,		/* the loop variable of a for */
	JVF_GEN = 8,		/* a list standing for a Python generator:
				   always true, no len(), emptied by iteration */
	JVF_SAFE = 16,		/* a str that is Markup: what is added to it
				   is HTML-escaped first */
};

struct buf;
struct jfn;
struct node;
struct scope;
struct rstate;

/* A builtin callable: self is what it is bound to (NULL: nothing). */
typedef jv *(*jbuiltin)(struct rstate *rs, jv *self, const char *name,
    jv **args, size_t nargs, char **kwn, jv **kwv, size_t nkw);

struct jfn {
	int		 type;		/* FN_BUILTIN, FN_MACRO */
	const char	*name;
	jbuiltin	 fn;
	jv		*self;		/* owned, may be NULL */
	const struct node *macro;	/* FN_MACRO: the macro (or call block) */
	struct scope	*closure;	/* FN_MACRO: where it was defined */
	jv		*caller;	/* FN_MACRO: caller() inside a call block */
};
enum { FN_BUILTIN, FN_MACRO };

struct jv {
	unsigned	refs;
	unsigned char	kind;
	unsigned char	flags;
	unsigned short	depth;		/* levels of values held (saturates) */
	union {
		int		 b;
		long long	 i;
		double		 f;
		struct { char *p; size_t n; size_t cps; } s; /* also undefined's hint */
		struct { jv **v; size_t n, cap; } l;
		struct { jv **k; jv **v; size_t n, cap; } d;
		struct jfn	*fn;
	} u;
};

/* Constructors and helpers beyond the public ones. */
jv	*jv_undefined_hint(const char *fmt, ...)
	    __attribute__((format(printf, 1, 2)));
jv	*jv_str_take(char *p, size_t n);	/* takes a malloc'd, NUL-terminated p */
jv	*jv_tuple(void);
/* Takes s (a str); gives it back as Markup (a copy if it was shared). */
jv	*jv_mark_safe(jv *s);
/* out marked safe when in is (Markup's methods keep the type); takes out. */
jv	*jv_keep_safe(const jv *in, jv *out);
void	 html_escape(struct buf *b, const char *s, size_t n);
jv	*jv_fn_builtin(const char *name, jbuiltin fn, jv *self); /* takes self */
jv	*jv_dict_getv(const jv *d, const jv *key);	/* borrowed */
void	 jv_dict_setv(jv *d, jv *key, jv *v);		/* takes both */
int	 jv_truthy(const jv *v);
int	 jv_equal(const jv *a, const jv *b);
size_t	 jv_str_cps(jv *s);			/* code points */
const char *jv_kind_name(const jv *v);		/* Python's type name */
int	 jv_is_number(const jv *v);		/* bool, int or float */
double	 jv_num(const jv *v);			/* of a number */

/*
 * The memory budget of a rendering, for the values of this thread:
 * jv_mem_start counts from now on, against budget bytes; past it buffers
 * stop growing and jv_mem_over says 1 until jv_mem_stop. It says 2 once a
 * value holds values more than JV_MAX_DEPTH levels deep. jv_mem_room
 * says whether n bytes more still fit (and marks the budget spent when
 * they do not).
 */
#define JV_MAX_DEPTH	512
void	 jv_mem_start(size_t budget);
void	 jv_mem_stop(void);
int	 jv_mem_over(void);
int	 jv_mem_room(size_t n);

/* Float equality without -Wfloat-equal's complaint (NaN equals nothing). */
#include <math.h>
static inline int
f_eq(double a, double b)
{
	return !isunordered(a, b) && !isless(a, b) && !isgreater(a, b);
}

/* UTF-8. */
size_t	 utf8_dec(const char *s, size_t n, uint32_t *cp); /* bytes used, >= 1 */
size_t	 utf8_enc(char *out, uint32_t cp);		  /* 1..4 */
const char *utf8_prev(const char *start, const char *end, uint32_t *cp);
int	 py_isspace(uint32_t cp);
int	 py_isalnum(uint32_t cp);	/* \w of Python's re, roughly */
int	 py_isalpha(uint32_t cp);

/*
 * Case, as Python's str has it. py_case: the full mapping of cp, how 'l'
 * (lower), 'u' (upper) or 't' (title), into out; the number of code
 * points, 1 to 3. The sigma's final form is the caller's (py_cased and
 * py_case_ignorable tell its context). py_isupper, py_islower and
 * py_istitle are the properties Uppercase, Lowercase and titlecase (Lt).
 */
size_t	 py_case(uint32_t cp, int how, uint32_t out[3]);
int	 py_cased(uint32_t cp);
int	 py_case_ignorable(uint32_t cp);
int	 py_isupper(uint32_t cp);
int	 py_islower(uint32_t cp);
int	 py_istitle(uint32_t cp);

/* The tables of casemap.c (made by tests/tools/gen_casemap.py). */
#define CM_MULTI	0x80000000u	/* | the index of a longer mapping */
struct casemap {
	uint32_t	cp, lower, upper, title;
};
enum {
	CP_CASED = 1, CP_IGNORABLE = 2, CP_LOWER = 4, CP_UPPER = 8,
	CP_TITLE = 16
};
struct caseprop {
	uint32_t	lo, hi;
	unsigned char	flags;
};
extern const uint32_t		casemap_multi[];
extern const struct casemap	casemap[];
extern const size_t		casemap_n;
extern const struct caseprop	caseprops[];
extern const size_t		caseprops_n;

/* ------------------------------------------------------------- buffer */
struct buf {
	char	*p;
	size_t	 n, cap;
	size_t	 limit;		/* 0: none; past it, nothing more is kept */
	int	 over;		/* something was dropped for the limit */
};
void	 buf_add(struct buf *b, const char *s, size_t n);
void	 buf_addc(struct buf *b, char c);
void	 buf_adds(struct buf *b, const char *s);
void	 buf_printf(struct buf *b, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
char	*buf_take(struct buf *b, size_t *n);	/* NUL-terminated */

/* ------------------------------------------------- text of values (repr.c) */
void	 fmt_float(struct buf *b, double d);	/* Python's repr(float) */
void	 fmt_repr_str(struct buf *b, const char *s, size_t n);
/* str(v) and repr(v); 0, or -1 when too deep. */
int	 fmt_str(struct buf *b, const jv *v, unsigned depth);
int	 fmt_repr(struct buf *b, const jv *v, unsigned depth);
/* json.dumps; -1 with msg when a value cannot be serialised. */
struct json_opts {
	const char	*indent;	/* NULL: none */
	const char	*item_sep, *key_sep;
	int		 sort_keys;
	int		 ensure_ascii;	/* non-ASCII as \\uXXXX */
};
int	 json_dump(struct buf *b, const jv *v, const struct json_opts *o,
	    unsigned depth, char *msg, size_t msgsz);

/* ------------------------------------------------------------- tokens */
enum tok {
	T_EOF, T_DATA, T_VAR_BEGIN, T_VAR_END, T_BLOCK_BEGIN, T_BLOCK_END,
	T_NAME, T_STRING, T_INT, T_FLOAT, T_OP
};
/* Operators (T_OP's op). */
enum {
	OP_ADD = 1, OP_SUB, OP_DIV, OP_FLOORDIV, OP_MUL, OP_POW, OP_MOD,
	OP_TILDE, OP_LBRACKET, OP_RBRACKET, OP_LPAREN, OP_RPAREN, OP_LBRACE,
	OP_RBRACE, OP_EQ, OP_NE, OP_GT, OP_GTEQ, OP_LT, OP_LTEQ, OP_ASSIGN,
	OP_DOT, OP_COLON, OP_PIPE, OP_COMMA, OP_SEMICOLON,
	/* not from the lexer: */
	OP_IN, OP_NOTIN, OP_NEG, OP_POS
};
struct token {
	enum tok	 type;
	int		 op;
	unsigned	 line, col;
	const char	*p;		/* T_NAME: the name; T_DATA: text */
	size_t		 n;
	jv		*v;		/* T_STRING, T_INT, T_FLOAT, T_DATA */
};
struct tokens {
	struct token	*v;
	size_t		 n, cap;
	char		*src;		/* the normalised source the tokens point into */
};
int	 jlex(const char *src, size_t n, struct tokens *out,
	    struct jinja_error *err);
/* Bytes the lexer has read to find columns: the tests see it stay linear. */
extern _Thread_local unsigned long long jlex_scanned;
void	 jlex_free(struct tokens *t);

/* ------------------------------------------------------------- syntax */
enum ntype {
	/* expressions */
	N_CONST, N_NAME, N_GETATTR, N_GETITEM, N_SLICE, N_LIST, N_TUPLE,
	N_DICT, N_BINOP, N_UNARY, N_AND, N_OR, N_NOT, N_COMPARE, N_COND,
	N_FILTER, N_TEST, N_CALL, N_NSREF,
	/* statements */
	N_TEMPLATE, N_OUTPUT, N_PRINT, N_FOR, N_IF, N_SET, N_SETBLOCK,
	N_MACRO, N_CALLBLOCK, N_FILTERBLOCK, N_BREAK, N_CONTINUE, N_WITH
};
struct nlist {
	struct node	**v;
	size_t		  n, cap;
};
struct node {
	enum ntype	 t;
	unsigned	 line, col;
	int		 op;		/* operator; N_TEST: negated; N_FOR: recursive */
	char		*s;		/* name, attribute, filter, test */
	jv		*v;		/* N_CONST, N_OUTPUT */
	struct node	*a, *b, *c;
	struct nlist	 args;		/* call arguments, items, operands; macro params */
	struct nlist	 kw;		/* keyword argument values; macro defaults */
	char		**kwn;		/* keyword argument names */
	int		*ops;		/* N_COMPARE: the operators */
	int		 star;		/* N_CALL: *args node in c, **kwargs unsupported */
	struct nlist	 body, els;
};
void	 nlist_push(struct nlist *l, struct node *n);
/*
 * The tree of the tokens, or NULL with err filled. A tree deeper than a
 * thousand levels is refused ("template nested too deeply"), so that the
 * walks over it may recurse.
 */
struct node *jparse(struct tokens *t, struct jinja_error *err);
int	 jcheck(const struct node *root, struct jinja_error *err);
void	 node_free(struct node *n);	/* any depth: does not recurse */

struct jinja {
	struct node	*root;
	char		*src;
};

/* ------------------------------------------------------------ render */
struct scope {
	jv		*vars;		/* dict */
	struct scope	*parent;
	struct scope	*next_alloc;	/* every scope of the rendering, to free */
	int		 captured;	/* a macro closes over it */
};

struct rstate {
	struct buf		 out;
	struct jinja_limits	 lim;
	unsigned long long	 steps;
	unsigned		 depth;
	long long		 now;
	double			 t0;		/* start, in ms */
	jv			*globals;	/* the context */
	struct scope		*scopes;	/* allocated scopes */
	jv			**tracked;	/* namespaces: cleared at the end */
	size_t			 ntracked, captracked;
	struct jinja_error	*err;
	int			 failed;
	const struct node	*at;		/* for error positions */
	struct recur		*recur;		/* recursive loops running */
};

/* Sets the error (once) and returns NULL. */
jv	*rs_fail(struct rstate *rs, const struct node *at, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));
jv	*rs_raise(struct rstate *rs, const char *msg);
int	 rs_step(struct rstate *rs, const struct node *at);	/* -1: a limit */

/* Evaluation entry points shared by eval.c, filters.c, methods.c. */
jv	*call_value(struct rstate *rs, const struct node *at, jv *fn,
	    jv **args, size_t nargs, char **kwn, jv **kwv, size_t nkw);
jv	*apply_filter(struct rstate *rs, const struct node *at,
	    const char *name, jv *subject, jv **args, size_t nargs, char **kwn,
	    jv **kwv, size_t nkw);
/* -1 error, else 0/1. */
int	 apply_test(struct rstate *rs, const struct node *at, const char *name,
	    jv *subject, jv **args, size_t nargs);
int	 has_test(const char *name);
int	 has_filter(const char *name);
jv	*get_attr(struct rstate *rs, const struct node *at, jv *obj,
	    const char *name);
jv	*get_item(struct rstate *rs, const struct node *at, jv *obj, jv *key);
jv	*method_of(jv *obj, const char *name);	/* NULL: no such method */
/* A list of the items of an iterable (new reference), or NULL. */
jv	*iter_list(struct rstate *rs, const struct node *at, jv *v);
int	 compare_values(struct rstate *rs, const struct node *at, int op,
	    jv *a, jv *b);	/* -1 error, else 0/1 */
int	 py_cmp(struct rstate *rs, const struct node *at, jv *a, jv *b,
	    int *res);		/* ordering: -1 error */
jv	*to_str(struct rstate *rs, jv *v);	/* str(v) as a jv string */
/* The memory budget is spent or a value nests too deeply: the error, NULL. */
jv	*mem_fail(struct rstate *rs, const struct node *at);
/* The error of using the undefined value u, and NULL. */
jv	*undefined_error(struct rstate *rs, const struct node *at,
	    const jv *u);
/* 1 with *out if v is an integer or a bool, else 0. */
int	 as_int(const jv *v, long long *out);
/* a OP b for the binary operators (OP_ADD ...), as Python: a new value. */
jv	*apply_binop(struct rstate *rs, const struct node *at, int op, jv *a,
	    jv *b);
/* obj[start:stop:step] of a list or a string; NULL or none: omitted. */
jv	*do_slice(struct rstate *rs, const struct node *at, jv *obj,
	    jv *start, jv *stop, jv *step);
jv	*str_slice_cp(jv *s, size_t from, size_t to);	/* code points [from, to) */

/* String methods the filters share (methods.c). */
jv	*str_strip(jv *s, const jv *chars, int left, int right);
/*
 * s[0, n) in a case added to b, with Python's full mappings and its final
 * sigma (s[0, n) is the whole string the rule looks at): how 'u' upper,
 * 'l' lower, 't' str.title, 'c' str.capitalize, 's' str.swapcase.
 * str_case: the same of a string, as a new one.
 */
void	 case_add(struct buf *b, const char *s, size_t n, int how);
jv	*str_case(jv *s, int how);
jv	*str_replace(struct rstate *rs, jv *s, jv *old, jv *new, long long count);
jv	*str_split(jv *s, const jv *sep, long long maxsplit, int right);
jv	*str_percent(struct rstate *rs, const struct node *at, jv *fmt, jv *args);

/* The named argument or the positional one at pos (borrowed), or NULL. */
jv	*arg_get(jv **args, size_t nargs, char **kwn, jv **kwv, size_t nkw,
	    size_t pos, const char *name);

#endif /* JINJA_JINT_H */
