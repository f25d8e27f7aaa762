/*
 * model.c - the model check: assets/models.tsv evaluated against a
 * document or a file.
 *
 * The table is compiled once (model_table.c): each row's expressions
 * parsed into trees (model_expr.c), each section's effective rows (those
 * of *, of its base chain, then its own, a later row of the same kind and
 * name replacing an earlier one) listed. A check then walks the effective
 * rows: key rows against the key's type, need rows, tensor rows for each
 * block, looking every expected tensor up in the source's name index and
 * marking it used; a live tensor no row used is one llama.cpp does not
 * load. Lets are evaluated lazily and memoised, per block for those that
 * read il. Each evaluation records the keys it read, so a finding can say
 * which parameters its expectation came from.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "doc.h"
#include "kind.h"
#include "modelint.h"
#include "schema.h"
#include "xmalloc.h"

/* ------------------------------------------------------------ the source */

/* What the check reads: a document, or a file as opened. */
struct msrc {
	struct gguf_doc		*d;
	struct gguf_file	*f;
	/* A new model's tensors, planned (gguf_model_plan): has_tensor
	   looks here, not in d. */
	int			 virt;
	const struct gguf_mtensor *vt;
	size_t			 nvt;
};

static struct gguf_val *
src_get(const struct msrc *s, const char *key, size_t n)
{
	int64_t	i;

	if (s->d != NULL)
		return gguf_doc_get(s->d, key, n);
	if (s->f == NULL || (i = gguf_kv_find(s->f, key, n)) < 0)
		return NULL;
	return &gguf_kv_at(s->f, (uint64_t)i)->val;
}

static int64_t
src_find(const struct msrc *s, const char *name, size_t n)
{
	size_t	i;

	if (s->virt) {
		for (i = 0; i < s->nvt; i++)
			if (strlen(s->vt[i].name) == n &&
			    memcmp(s->vt[i].name, name, n) == 0)
				return (int64_t)i;
		return -1;
	}
	if (s->d != NULL)
		return gguf_doc_tensor_find(s->d, name, n);
	if (s->f == NULL)
		return -1;
	return gguf_tensor_find(s->f, name, n);
}

/* Dimension k of tensor name (1 past its dims): 0, or -1 if it is absent. */
static int
src_dim(const struct msrc *s, const char *name, size_t n, int64_t k,
    int64_t *out)
{
	struct gguf_doc_tensor	 dt;
	const struct gguf_tensor *t;
	int64_t			 i;

	if ((i = src_find(s, name, n)) < 0)
		return -1;
	if (s->virt) {
		*out = k < s->vt[i].n_dims ? s->vt[i].ne[k] : 1;
		return 0;
	}
	if (s->d != NULL) {
		if (gguf_doc_tensor(s->d, (uint64_t)i, &dt) != 0)
			return -1;
		t = dt.t;
	} else
		t = gguf_tensor_at(s->f, (uint64_t)i);
	*out = k < t->n_dims && t->ne[k] <= INT64_MAX ? (int64_t)t->ne[k] :
	    k < t->n_dims ? INT64_MAX : 1;
	return 0;
}

static uint64_t
src_ntensors(const struct msrc *s)
{
	if (s->d != NULL)
		return gguf_doc_n_tensors(s->d);
	return s->f == NULL ? 0 : gguf_layout(s->f)->n_tensors;
}

/* Tensor i: 0 and its name and info if live, -1 if removed. */
static int
src_tensor(const struct msrc *s, uint64_t i, struct gguf_str *name,
    const struct gguf_tensor **t)
{
	struct gguf_doc_tensor	dt;

	if (s->d != NULL) {
		if (gguf_doc_tensor(s->d, i, &dt) != 0 ||
		    (dt.flags & GGUF_ED_REMOVED))
			return -1;
		*name = dt.name;
		*t = dt.t;
		return 0;
	}
	*t = gguf_tensor_at(s->f, i);
	*name = (*t)->name;
	return 0;
}

/* ------------------------------------------------------------ evaluation */

#define MAX_KEYS	32		/* distinct keys a check records */

struct memo {
	int		 state;		/* 0 not yet, 1 busy, 2 done */
	int		 uses_il;
	int64_t		 il;
	int64_t		 v;
	uint32_t	 deps;
};

struct kdep {
	char		 key[128];
	int		 kind;		/* 0 value, 1 length, 2 absent */
	int64_t		 v;
};

struct mctx {
	const struct msrc	*s;
	const char		*arch;
	size_t			 archn;
	const struct csect	*sect;
	struct memo		*memo;		/* per effective row */
	int64_t			 il;
	int			 uses_il;
	uint32_t		 deps;
	struct kdep		 kd[MAX_KEYS];
	int			 nkd;
	char			 why[200];
};

static int ev(struct mctx *, const struct mnode *, int64_t *);

static int
fail(struct mctx *x, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int
fail(struct mctx *x, const char *fmt, ...)
{
	va_list	ap;

	if (x->why[0] == '\0') {
		va_start(ap, fmt);
		vsnprintf(x->why, sizeof x->why, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/*
 * Expands {arch} and {bid} (block il) in pattern into buf: its length, or
 * -1 if it does not fit.
 */
static int
expand(const struct mctx *x, const char *pat, int64_t il, char *buf,
    size_t len)
{
	size_t	o = 0, n;
	int	w;

	while (*pat != '\0') {
		if (*pat != '{') {
			if (o + 1 >= len)
				return -1;
			buf[o++] = *pat++;
		} else if (strncmp(pat, "{arch}", 6) == 0) {
			n = x->archn;
			if (o + n >= len)
				return -1;
			memcpy(buf + o, x->arch, n);
			o += n;
			pat += 6;
		} else if (strncmp(pat, "{bid}", 5) == 0) {
			/* the block's number in decimal, as %lld writes it
			   (one per tensor of every block: no printf) */
			char		 d[24];
			uint64_t	 u = il < 0 ? 0 - (uint64_t)il :
			    (uint64_t)il;

			w = 0;
			do {
				d[sizeof d - 1 - (size_t)w++] =
				    (char)('0' + u % 10);
				u /= 10;
			} while (u != 0);
			if (il < 0)
				d[sizeof d - 1 - (size_t)w++] = '-';
			if ((size_t)w >= len - o)
				return -1;
			memcpy(buf + o, d + sizeof d - (size_t)w, (size_t)w);
			o += (size_t)w;
			pat += 5;
		} else {
			if (o + 1 >= len)
				return -1;
			buf[o++] = *pat++;
		}
	}
	buf[o] = '\0';
	return (int)o;
}

/*
 * Records that key was read (kind: 0 its value v, 1 its length v, 2
 * absent, 3 an array holding v, its least or greatest element).
 */
static void
dep(struct mctx *x, const char *key, int kind, int64_t v)
{
	int	i;

	for (i = 0; i < x->nkd; i++)
		if (strcmp(x->kd[i].key, key) == 0)
			break;
	if (i == x->nkd) {
		if (x->nkd == MAX_KEYS)
			return;
		snprintf(x->kd[i].key, sizeof x->kd[i].key, "%s", key);
		x->nkd++;
	}
	x->kd[i].kind = kind;
	x->kd[i].v = v;
	x->deps |= 1u << i;
}

/* An integer value, or a bool as 0 or 1 (no float, string or array). */
static int
int_of(const struct gguf_val *v, int64_t *out)
{
	switch (v->type) {
	case GGUF_VT_U8: case GGUF_VT_I8: case GGUF_VT_U16: case GGUF_VT_I16:
	case GGUF_VT_U32: case GGUF_VT_I32: case GGUF_VT_U64: case GGUF_VT_I64:
	case GGUF_VT_BOOL:
		return gguf_val_i64(v, out);
	default:
		return -1;
	}
}

static int
ev_let(struct mctx *x, const char *name, int64_t *out)
{
	const struct csect	*s = x->sect;
	struct memo		*m;
	size_t			 k;
	uint32_t		 deps;
	int			 uses_il, rc;

	if ((k = gguf_mtable_let(s, name)) == SIZE_MAX)
		return fail(x, "no parameter %s", name);
	if (s->rows[k]->e[0] == NULL)
		return fail(x, "%s", s->rows[k]->err);
	m = &x->memo[k];
	if (m->state == 2 && (!m->uses_il || m->il == x->il)) {
		x->deps |= m->deps;
		x->uses_il |= m->uses_il;
		*out = m->v;
		return 0;
	}
	if (m->state == 1)
		return fail(x, "parameter %s refers to itself", name);
	m->state = 1;
	deps = x->deps;
	uses_il = x->uses_il;
	x->deps = 0;
	x->uses_il = 0;
	rc = ev(x, s->rows[k]->e[0], out);
	m->state = rc == 0 ? 2 : 0;
	m->deps = x->deps;
	m->uses_il = x->uses_il;
	m->il = x->il;
	m->v = *out;
	x->deps |= deps;
	x->uses_il |= uses_il;
	return rc;
}

/* lkey and lkey0: element il of a per-block array, or the scalar. */
static int
ev_lkey(struct mctx *x, const struct mnode *n, int64_t il, int64_t *out)
{
	struct gguf_val	*v, e;
	struct gguf_err	 err;
	int64_t		 nl;
	char		 key[160];
	int		 kn;

	if ((kn = expand(x, n->str, il, key, sizeof key)) < 0)
		return fail(x, "key name too long");
	if ((v = src_get(x->s, key, (size_t)kn)) == NULL) {
		dep(x, key, 2, 0);
		return ev(x, n->a, out);
	}
	if (v->type != GGUF_VT_ARR) {
		if (int_of(v, out) != 0)
			return fail(x, "%s is not an integer", key);
		dep(x, key, 0, *out);
		return 0;
	}
	if (ev_let(x, "n_layer", &nl) != 0)
		return -1;
	if ((uint64_t)nl != v->count || nl < 0)
		return fail(x, "%s has %llu elements, not one per block", key,
		    (unsigned long long)v->count);
	if (il < 0 || (uint64_t)il >= v->count)
		return fail(x, "%s read outside a block", key);
	if (gguf_arr_get(v, (uint64_t)il, &e, &err) != 0 ||
	    int_of(&e, out) != 0)
		return fail(x, "%s holds no integers", key);
	/*
	 * llama.cpp copies the elements of an i32 array into its uint32_t
	 * per-layer arrays bit for bit: -1 is 4294967295 there.
	 */
	if (e.type == GGUF_VT_I32 && *out < 0)
		*out = (int64_t)(uint32_t)*out;
	dep(x, key, 0, *out);
	return 0;
}

/* at("K", I): element I of the array key K. */
static int
ev_at(struct mctx *x, const struct mnode *n, int64_t *out)
{
	struct gguf_val	*v, e;
	struct gguf_err	 err;
	int64_t		 i;
	char		 key[160];
	int		 kn;

	if (ev(x, n->a, &i) != 0)
		return -1;
	if ((kn = expand(x, n->str, x->il, key, sizeof key)) < 0)
		return fail(x, "key name too long");
	if ((v = src_get(x->s, key, (size_t)kn)) == NULL)
		return fail(x, "no %s", key);
	if (v->type != GGUF_VT_ARR || i < 0 || (uint64_t)i >= v->count)
		return fail(x, "%s has no element %lld", key, (long long)i);
	if (gguf_arr_get(v, (uint64_t)i, &e, &err) != 0 ||
	    int_of(&e, out) != 0)
		return fail(x, "%s holds no integers", key);
	dep(x, key, 0, *out);
	return 0;
}

#define MAX_AKEYED	4096	/* elements amin("K", "BY") looks at */

/* Element i of the array v as an integer. */
static int
arr_int(struct gguf_val *v, uint64_t i, int64_t *out)
{
	struct gguf_val	e;
	struct gguf_err	err;

	if (gguf_arr_get(v, i, &e, &err) != 0)
		return -1;
	return int_of(&e, out);
}

/*
 * amin("K") and amax("K"): the least and the greatest element of the
 * array key K, an i32 element as llama.cpp's int32_t vectors read it
 * (signed), a u32 one as is; an empty array has neither. amin("K",
 * "BY"): of the elements of K whose index holds, in the array key BY, a
 * value no later index of BY repeats (llama.cpp's maps from BY's
 * elements to K's keep the last).
 */
static int
ev_arange(struct mctx *x, const struct mnode *n, int64_t *out)
{
	struct gguf_val	*v, *by = NULL;
	uint64_t	 i, j;
	int64_t		 el, b, b2;
	int		 kn, found = 0;
	char		 key[160], bykey[160];

	if ((kn = expand(x, n->str, x->il, key, sizeof key)) < 0)
		return fail(x, "key name too long");
	if ((v = src_get(x->s, key, (size_t)kn)) == NULL)
		return fail(x, "no %s", key);
	if (v->type != GGUF_VT_ARR || v->count == 0)
		return fail(x, "%s is no array with elements", key);
	if (n->str2 != NULL) {
		if ((kn = expand(x, n->str2, x->il, bykey,
		    sizeof bykey)) < 0)
			return fail(x, "key name too long");
		if ((by = src_get(x->s, bykey, (size_t)kn)) == NULL ||
		    by->type != GGUF_VT_ARR || by->count != v->count)
			return fail(x, "%s is no array as long as %s", bykey,
			    key);
		if (v->count > MAX_AKEYED)
			return fail(x, "%s has more than %d elements", key,
			    MAX_AKEYED);
	}
	for (i = 0; i < v->count; i++) {
		if (arr_int(v, i, &el) != 0)
			return fail(x, "%s holds no integers", key);
		if (by != NULL) {
			if (arr_int(by, i, &b) != 0)
				return fail(x, "%s holds no integers", bykey);
			for (j = i + 1; j < by->count; j++)
				if (arr_int(by, j, &b2) != 0 || b2 == b)
					break;
			if (j < by->count)
				continue;
		}
		if (!found || (n->op == OP_AMIN ? el < *out : el > *out))
			*out = el;
		found = 1;
	}
	if (!found)
		return fail(x, "%s holds no integers", key);
	dep(x, key, 3, *out);
	return 0;
}

#define MAX_ANY	4096		/* blocks any() looks at */

/* any(E): 1 if E holds in some block il = 0 .. n_block - 1. */
static int
ev_any(struct mctx *x, const struct mnode *n, int64_t *out)
{
	int64_t	nb, il = x->il, i, v;
	int	uses_il = x->uses_il, rc = 0;

	if (ev_let(x, "n_block", &nb) != 0)
		return -1;
	if (nb > MAX_ANY)
		return fail(x, "any() over more than %d blocks", MAX_ANY);
	*out = 0;
	for (i = 0; i < nb && *out == 0 && rc == 0; i++) {
		x->il = i;
		if ((rc = ev(x, n->a, &v)) == 0)
			*out = v != 0;
	}
	/* the answer is the model's, not the block's being checked */
	x->il = il;
	x->uses_il = uses_il;
	return rc;
}

static int
ev(struct mctx *x, const struct mnode *n, int64_t *out)
{
	struct gguf_val	*v;
	struct gguf_str	 s;
	int64_t		 a, b;
	char		 key[160];
	int		 kn;

	*out = 0;
	switch (n->op) {
	case OP_NUM:
		*out = n->num;
		return 0;
	case OP_IL:
		x->uses_il = 1;
		if (x->il < 0)
			return fail(x, "il outside a block row");
		*out = x->il;
		return 0;
	case OP_LET:
		return ev_let(x, n->str, out);
	case OP_NEG:
		if (ev(x, n->a, &a) != 0)
			return -1;
		if (__builtin_sub_overflow((int64_t)0, a, out))
			return fail(x, "overflow");
		return 0;
	case OP_NOT:
		if (ev(x, n->a, &a) != 0)
			return -1;
		*out = !a;
		return 0;
	case OP_AND:
	case OP_OR:
		if (ev(x, n->a, &a) != 0)
			return -1;
		if ((n->op == OP_AND) != (a != 0)) {
			*out = a != 0;
			return 0;
		}
		if (ev(x, n->b, &b) != 0)
			return -1;
		*out = b != 0;
		return 0;
	case OP_COND:
		if (ev(x, n->c, &a) != 0)
			return -1;
		return ev(x, a ? n->a : n->b, out);
	case OP_KEY:
	case OP_HAS:
	case OP_LEN:
	case OP_KEYIS:
		if ((kn = expand(x, n->str, x->il, key, sizeof key)) < 0)
			return fail(x, "key name too long");
		v = src_get(x->s, key, (size_t)kn);
		if (n->op == OP_HAS) {
			*out = v != NULL;
			return 0;
		}
		if (n->op == OP_KEYIS) {
			*out = v != NULL && gguf_val_str(v, &s) == 0 &&
			    s.n == strlen(n->str2) &&
			    memcmp(s.p, n->str2, (size_t)s.n) == 0;
			return 0;
		}
		if (v == NULL) {
			if (n->op == OP_KEY && n->b == NULL && n->a != NULL) {
				dep(x, key, 2, 0);
				return ev(x, n->a, out);
			}
			return fail(x, "no %s", key);
		}
		if (n->op == OP_LEN) {
			if (v->type != GGUF_VT_ARR || v->count > INT64_MAX)
				return fail(x, "%s is not an array", key);
			*out = (int64_t)v->count;
			dep(x, key, 1, *out);
			return 0;
		}
		if (int_of(v, out) != 0)
			return fail(x, "%s is not an integer", key);
		dep(x, key, 0, *out);
		return 0;
	case OP_LKEY:
		x->uses_il = 1;
		return ev_lkey(x, n, x->il, out);
	case OP_LKEY0:
		return ev_lkey(x, n, 0, out);
	case OP_AT:
		return ev_at(x, n, out);
	case OP_ANY:
		return ev_any(x, n, out);
	case OP_AMIN:
	case OP_AMAX:
		return ev_arange(x, n, out);
	case OP_HAST:
		if (n->a != NULL) {
			/* has_tensor("T", I): {bid} is block I */
			if (ev(x, n->a, &a) != 0)
				return -1;
		} else if (strstr(n->str, "{bid}") != NULL) {
			x->uses_il = 1;
			if ((a = x->il) < 0)
				return fail(x, "{bid} outside a block row");
		} else
			a = x->il;
		if ((kn = expand(x, n->str, a, key, sizeof key)) < 0)
			return fail(x, "tensor name too long");
		*out = src_find(x->s, key, (size_t)kn) >= 0;
		return 0;
	case OP_TDIM:
		/* tensor_dim("T", K, D): {bid} is the row's block */
		if (strstr(n->str, "{bid}") != NULL) {
			x->uses_il = 1;
			if (x->il < 0)
				return fail(x, "{bid} outside a block row");
		}
		if (ev(x, n->a, &a) != 0)
			return -1;
		if (a < 0 || a >= GGUF_MAX_DIMS)
			return fail(x, "tensor_dim: no dimension %lld",
			    (long long)a);
		if ((kn = expand(x, n->str, x->il, key, sizeof key)) < 0)
			return fail(x, "tensor name too long");
		if (src_dim(x->s, key, (size_t)kn, a, out) != 0)
			return ev(x, n->b, out);
		return 0;
	default:
		break;
	}
	if (ev(x, n->a, &a) != 0 || ev(x, n->b, &b) != 0)
		return -1;
	switch (n->op) {
	case OP_ADD:
		if (__builtin_add_overflow(a, b, out))
			return fail(x, "overflow");
		return 0;
	case OP_SUB:
		if (__builtin_sub_overflow(a, b, out))
			return fail(x, "overflow");
		return 0;
	case OP_MUL:
		if (__builtin_mul_overflow(a, b, out))
			return fail(x, "overflow");
		return 0;
	case OP_DIV:
	case OP_MOD:
		if (b == 0)
			return fail(x, "division by zero");
		if (a == INT64_MIN && b == -1)
			return fail(x, "overflow");
		*out = n->op == OP_DIV ? a / b : a % b;
		return 0;
	case OP_EQ: *out = a == b; return 0;
	case OP_NE: *out = a != b; return 0;
	case OP_LT: *out = a < b; return 0;
	case OP_LE: *out = a <= b; return 0;
	case OP_GT: *out = a > b; return 0;
	case OP_GE: *out = a >= b; return 0;
	case OP_MAX: *out = a > b ? a : b; return 0;
	case OP_MIN: *out = a < b ? a : b; return 0;
	default:
		return fail(x, "bad expression");
	}
}

/* Evaluates e for block il, starting a fresh record of the keys read. */
static int
eval_at(struct mctx *x, const struct mnode *e, int64_t il, int64_t *out)
{
	x->il = il;
	x->why[0] = '\0';
	return ev(x, e, out);
}

static void
ctx_init(struct mctx *x, const struct msrc *s, const struct csect *sect,
    const char *arch, size_t archn)
{
	memset(x, 0, sizeof *x);
	x->s = s;
	x->sect = sect;
	x->arch = arch;
	x->archn = archn;
	x->memo = xcalloc(sect->nrows + 1, sizeof *x->memo);
	x->il = -1;
}

/* --------------------------------------------------------------- findings */

struct check {
	struct mctx		 x;
	gguf_mfinding_fn	 fn;
	void			*arg;
	unsigned		 errors;
	uint8_t			*used;		/* per tensor entry */
	int			 uncertain;	/* unused ones unknown */
	int			 file;		/* the reader checked key types */
	uint32_t		 ldeps;		/* what n_layer read */
	int64_t			 nblock;	/* the blocks llama.cpp loads */
	char			 msg[512];
	char			 from[256];
};

/* "from head_count_kv = 4 and key_length = 32" for the keys in deps. */
static const char *
from_text(struct check *c, uint32_t deps)
{
	struct mctx	*x = &c->x;
	const char	*k;
	size_t		 o = 0;
	int		 i, n = 0, total = 0, w;

	for (i = 0; i < x->nkd; i++)
		total += (deps >> i) & 1;
	c->from[0] = '\0';
	for (i = 0; i < x->nkd && o < sizeof c->from; i++) {
		if (!((deps >> i) & 1))
			continue;
		k = x->kd[i].key;
		if (strncmp(k, x->arch, x->archn) == 0 && k[x->archn] == '.')
			k += x->archn + 1;
		w = snprintf(c->from + o, sizeof c->from - o, "%s",
		    n == 0 ? " from " : n + 1 == total ? " and " : ", ");
		o += w > 0 ? (size_t)w : 0;
		if (o >= sizeof c->from)
			break;
		if (x->kd[i].kind == 1 &&
		    strcmp(k, "tokenizer.ggml.tokens") == 0)
			w = snprintf(c->from + o, sizeof c->from - o,
			    "%lld tokens", (long long)x->kd[i].v);
		else if (x->kd[i].kind == 1)
			w = snprintf(c->from + o, sizeof c->from - o,
			    "%s of %lld elements", k, (long long)x->kd[i].v);
		else if (x->kd[i].kind == 2)
			w = snprintf(c->from + o, sizeof c->from - o,
			    "no %s", k);
		else if (x->kd[i].kind == 3)
			w = snprintf(c->from + o, sizeof c->from - o,
			    "%s holding %lld", k, (long long)x->kd[i].v);
		else
			w = snprintf(c->from + o, sizeof c->from - o,
			    "%s = %lld", k, (long long)x->kd[i].v);
		o += w > 0 ? (size_t)w : 0;
		n++;
	}
	return c->from;
}

static void	vsay(struct check *, int, int, int, const char *, int64_t,
		    uint32_t, const char *, va_list)
    __attribute__((format(printf, 8, 0)));

static void
vsay(struct check *c, int kind, int level, int what, const char *name,
    int64_t index, uint32_t deps, const char *fmt, va_list ap)
{
	struct gguf_mfinding	f;
	int			i;

	if (level == GGUF_W_ERROR)
		c->errors++;
	if (c->fn == NULL)
		return;
	vsnprintf(c->msg, sizeof c->msg, fmt, ap);
	memset(&f, 0, sizeof f);
	f.level = level;
	f.what = what;
	f.kind = kind;
	f.name = name;
	f.index = index;
	f.msg = c->msg;
	for (i = 0; i < c->x.nkd && f.ndeps < GGUF_MF_MAXDEPS; i++)
		if ((deps >> i) & 1)
			f.deps[f.ndeps++] = c->x.kd[i].key;
	c->fn(c->arg, &f);
}

static void
say(struct check *c, int level, int what, const char *name, int64_t index,
    uint32_t deps, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));

static void
say(struct check *c, int level, int what, const char *name, int64_t index,
    uint32_t deps, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vsay(c, GGUF_MK_OTHER, level, what, name, index, deps, fmt, ap);
	va_end(ap);
}

/* An error about tensor name of kind (GGUF_MK_*). */
static void
say_t(struct check *c, int kind, const char *name, int64_t index,
    uint32_t deps, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

static void
say_t(struct check *c, int kind, const char *name, int64_t index,
    uint32_t deps, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vsay(c, kind, GGUF_W_ERROR, GGUF_MF_TENSOR, name, index, deps, fmt,
	    ap);
	va_end(ap);
}

/*
 * The clause of row r that holds for block il: 1 req, 0 opt, -1 none (or
 * no clause holds), -2 it cannot be told; the keys read go to *deps.
 */
static int
when_of(struct check *c, const struct crow *r, int64_t il, uint32_t *deps)
{
	int64_t	v;
	int	i;

	for (i = 0; i < r->ncl; i++) {
		if (r->cl[i].cond == NULL)
			return r->cl[i].req;
		c->x.deps = 0;
		if (eval_at(&c->x, r->cl[i].cond, il, &v) != 0)
			return -2;
		*deps |= c->x.deps;
		if (v)
			return r->cl[i].req;
	}
	return -1;
}

static const char *
type_text(const struct gguf_val *v, char *buf, size_t len)
{
	return gguf_vtype_text(v->type, v->type == GGUF_VT_ARR ? v->atype : 0,
	    buf, len);
}

/* "u32|arr[i32]" from "u32|arr[i32;n_layer]": the types alone. */
static const char *
types_text(const char *types, char *buf, size_t len)
{
	size_t	o = 0;
	int	skip = 0;

	for (; *types != '\0' && o + 1 < len; types++) {
		if (*types == ';')
			skip = 1;
		else if (*types == ']')
			skip = 0;
		if (!skip)
			buf[o++] = *types;
	}
	buf[o] = '\0';
	return buf;
}

/*
 * Whether the reader reported a well-known key of a type llama.cpp
 * refuses as it opened the file (reader.c): the finding is then its.
 */
static int
reader_said(const struct mctx *x, const char *key, size_t n,
    const struct gguf_val *v)
{
	const struct gguf_key_spec	*spec;

	spec = gguf_schema_find(key, n, x->arch, x->archn);
	return spec != NULL && gguf_schema_strict(spec) &&
	    !gguf_schema_type_ok(spec, v->type, v->type == GGUF_VT_ARR ?
	    v->atype : 0);
}

static void
check_key(struct check *c, const struct crow *r)
{
	struct mctx	*x = &c->x;
	struct gguf_val	*v;
	uint32_t	 deps = 0, ldeps = 0;
	int64_t		 want = 0;
	int		 i, kn, req, lenbad = 0;
	char		 key[160], tb[32], ts[96];

	if (r->err[0] != '\0' ||
	    (kn = expand(x, r->r->name, -1, key, sizeof key)) < 0)
		return;
	v = src_get(x->s, key, (size_t)kn);
	req = when_of(c, r, -1, &deps);
	if (v == NULL) {
		if (req == 1)
			say(c, GGUF_W_ERROR, GGUF_MF_KEY, key, -1, deps,
			    "key %s not found: llama.cpp requires it for %.*s",
			    key, (int)x->archn, x->arch);
		return;
	}
	for (i = 0; i < r->nkt; i++) {
		if (r->kt[i].type != v->type || (v->type == GGUF_VT_ARR &&
		    r->kt[i].atype != v->atype))
			continue;
		if (r->kt[i].len == NULL)
			return;
		x->deps = 0;
		if (eval_at(x, r->kt[i].len, -1, &want) != 0 ||
		    (want >= 0 && (uint64_t)want == v->count))
			return;
		lenbad = 1;
		ldeps = x->deps;
	}
	if (lenbad) {
		say(c, GGUF_W_ERROR, GGUF_MF_KEY, key, -1, ldeps,
		    "key %s has %llu elements, llama.cpp wants %lld%s", key,
		    (unsigned long long)v->count, (long long)want,
		    from_text(c, ldeps));
		return;
	}
	if (c->file && reader_said(x, key, (size_t)kn, v))
		return;
	say(c, GGUF_W_ERROR, GGUF_MF_KEY, key, -1, 0, "key %s is %s: "
	    "llama.cpp reads it as %s and refuses another type", key,
	    type_text(v, tb, sizeof tb), types_text(r->r->value, ts,
	    sizeof ts));
}

static void
check_need(struct check *c, const struct crow *r)
{
	int64_t	v;

	if (r->err[0] != '\0')
		return;
	c->x.deps = 0;
	if (eval_at(&c->x, r->e[0], -1, &v) != 0 || v != 0)
		return;
	say(c, GGUF_W_ERROR, GGUF_MF_MODEL, NULL, -1, c->x.deps,
	    "llama.cpp refuses the model: %s (%s)%s", r->r->value,
	    r->r->name, from_text(c, c->x.deps));
}

static void
dims_text(const int64_t *d, int n, char *buf, size_t len)
{
	size_t	o = 0;
	int	i, w;

	buf[0] = '\0';
	for (i = 0; i < n && o < len; i++) {
		w = snprintf(buf + o, len - o, "%s%lld", i ? ", " : "[",
		    (long long)d[i]);
		o += w > 0 ? (size_t)w : 0;
	}
	if (o < len)
		snprintf(buf + o, len - o, "]");
}

/* One tensor a row stands for (block il, or -1). */
static void
check_tensor(struct check *c, const struct crow *r, int64_t il,
    int64_t nlayer)
{
	struct mctx			*x = &c->x;
	const struct gguf_tensor	*t;
	struct gguf_str			 nm;
	uint32_t			 deps = 0;
	int64_t				 idx, want[MAX_DIMS], got[MAX_DIMS];
	int				 i, n, req, bad;
	char				 name[160], ws[120], gs[120];

	if ((n = expand(x, r->r->name, il, name, sizeof name)) < 0)
		return;
	idx = src_find(x->s, name, (size_t)n);
	if (idx < 0 && !r->can_req)
		return;		/* optional and absent: nothing to tell */
	req = when_of(c, r, il, &deps);
	if (req == -2) {		/* cannot be told: not checked */
		if (idx >= 0)
			c->used[idx] = 1;
		return;
	}
	if (req == -1)
		return;
	if (idx < 0) {
		if (req == 1) {
			if (il >= 0)
				say_t(c, GGUF_MK_MISSING, name, -1, c->ldeps,
				    "%s is missing: llama.cpp requires it for "
				    "%.*s (block %lld of block_count = %lld)",
				    name, (int)x->archn, x->arch, (long long)il,
				    (long long)nlayer);
			else
				say_t(c, GGUF_MK_MISSING, name, -1, deps,
				    "%s is missing: llama.cpp requires it for "
				    "%.*s", name, (int)x->archn, x->arch);
		}
		return;
	}
	c->used[idx] = 1;
	if (r->ne == 0 || src_tensor(x->s, (uint64_t)idx, &nm, &t) != 0)
		return;
	x->deps = 0;
	for (i = 0; i < r->ne; i++)
		if (eval_at(x, r->e[i], il, &want[i]) != 0)
			return;
	deps = x->deps;
	bad = 0;
	for (i = 0; i < MAX_DIMS; i++) {
		got[i] = t->ne[i] > INT64_MAX ? -1 : (int64_t)t->ne[i];
		if (i < r->ne ? got[i] != want[i] : t->ne[i] != 1)
			bad = 1;
	}
	if (!bad)
		return;
	n = t->n_dims == 0 ? 1 : (int)t->n_dims;
	dims_text(got, n > MAX_DIMS ? MAX_DIMS : n, gs, sizeof gs);
	dims_text(want, r->ne, ws, sizeof ws);
	say_t(c, GGUF_MK_SHAPE, name, idx, deps, "%s: shape %s, llama.cpp "
	    "expects %s%s", name, gs, ws, from_text(c, deps));
}

/*
 * Whether name is a tensor of one of the last blocks, the NextN layers
 * that llama.cpp does not load (blocks n_block .. n_layer - 1).
 */
static int
in_nextn_block(const struct check *c, const char *name, int64_t nlayer)
{
	char		*end;
	long long	 b;

	if (c->nblock >= nlayer || strncmp(name, "blk.", 4) != 0 ||
	    name[4] < '0' || name[4] > '9')
		return 0;
	errno = 0;
	b = strtoll(name + 4, &end, 10);
	return errno == 0 && *end == '.' && b >= c->nblock && b < nlayer;
}

/* Tensors of blocks past those checked one by one, all missing. */
static void
more_missing(struct check *c, int64_t from, int64_t nblock, int64_t nlayer)
{
	say(c, GGUF_W_ERROR, GGUF_MF_MODEL, NULL, -1, c->ldeps,
	    "blocks %lld to %lld have no tensors at all: llama.cpp requires "
	    "them (block_count = %lld)", (long long)from,
	    (long long)nblock - 1, (long long)nlayer);
}

static void
check_tensors(struct check *c)
{
	const struct csect		*s = c->x.sect;
	const struct gguf_tensor	*t;
	struct gguf_str			 nm;
	uint64_t			 i, nt = src_ntensors(c->x.s), live = 0;
	int64_t				 nlayer, nblock, upto, il;
	size_t				 k;
	char				 name[80];

	for (i = 0; i < nt; i++)
		if (src_tensor(c->x.s, i, &nm, &t) == 0)
			live++;
	c->x.deps = 0;
	c->x.il = -1;
	c->x.why[0] = '\0';
	if (ev_let(&c->x, "n_layer", &nlayer) != 0 || nlayer < 0 ||
	    ev_let(&c->x, "n_block", &nblock) != 0 || nblock < 0 ||
	    nblock > nlayer) {
		nlayer = nblock = 0;
		c->uncertain = 1;
	}
	c->ldeps = c->x.deps;
	c->nblock = nblock;
	/* A block past the tensors can only be missing: stop there. */
	upto = nblock;
	if ((uint64_t)upto > live + 1)
		upto = (int64_t)live + 1;
	/*
	 * More blocks than llama.cpp loads: the table's need "n_layer <=
	 * 512" has said so, once; block by block there is nothing more to
	 * tell, and which tensors it uses cannot be told.
	 */
	if (nlayer > MAX_LAYERS) {
		upto = nblock = 0;
		c->uncertain = 1;
	}
	for (il = -1; il < upto; il++) {
		for (k = 0; k < s->nrows; k++) {
			const struct crow *r = s->rows[k];

			if (r->r->kind == GGUF_MR_TENSOR && r->err[0] == '\0' &&
			    r->block == (il >= 0))
				check_tensor(c, r, il, nlayer);
		}
	}
	if (upto < nblock)
		more_missing(c, upto, nblock, nlayer);
	if (c->uncertain)
		return;
	for (i = 0; i < nt; i++) {
		if (c->used[i] || src_tensor(c->x.s, i, &nm, &t) != 0)
			continue;
		snprintf(name, sizeof name, "%.*s", (int)(nm.n < 64 ? nm.n :
		    64), nm.p);
		if (in_nextn_block(c, name, nlayer))
			say_t(c, GGUF_MK_UNUSED, name, (int64_t)i, c->ldeps,
			    "tensor %s is not used by "
			    "%.*s: its block is a NextN layer (block_count "
			    "%lld, nextn_predict_layers %lld), which llama.cpp "
			    "does not load for %.*s and refuses to find in "
			    "the file", name, (int)c->x.archn, c->x.arch,
			    (long long)nlayer, (long long)(nlayer - c->nblock),
			    (int)c->x.archn, c->x.arch);
		else
			say_t(c, GGUF_MK_UNUSED, name, (int64_t)i, 0,
			    "tensor %s is not used by %.*s: llama.cpp "
			    "refuses files with tensors it does not load", name,
			    (int)c->x.archn, c->x.arch);
	}
}

static struct gguf_val *
kind_get(void *arg, const char *key, size_t n)
{
	return src_get(arg, key, n);
}

static unsigned
run(const struct msrc *s, int file, gguf_mfinding_fn fn, void *arg)
{
	const struct csect	*sect;
	struct gguf_val		*v;
	struct gguf_str		 arch, type;
	struct msrc		 kind_src;
	struct check		 c;
	uint64_t		 nt = src_ntensors(s), i, live = 0;
	const struct gguf_tensor *t;
	struct gguf_str		 nm;
	size_t			 k;

	for (i = 0; i < nt; i++)
		if (src_tensor(s, i, &nm, &t) == 0)
			live++;
	/* Adapters, control vectors, ...: kind.h checks them. */
	kind_src = *s;
	nm.p = NULL;
	nm.n = 0;
	for (i = 0; i < nt; i++)
		if (src_tensor(s, i, &nm, &t) == 0)
			break;
	if (live == 0 || gguf_kind_by(kind_get, &kind_src, &nm) !=
	    GGUF_KIND_MODEL)
		return 0;
	v = src_get(s, "general.type", 12);
	if (v != NULL && gguf_val_str(v, &type) == 0 &&
	    !(type.n == 5 && memcmp(type.p, "model", 5) == 0))
		return 0;
	v = src_get(s, "general.architecture", 20);
	if (v == NULL || gguf_val_str(v, &arch) != 0 || arch.n == 0 ||
	    arch.n > 64 || memchr(arch.p, '\0', (size_t)arch.n) != NULL)
		return 0;
	memset(&c, 0, sizeof c);
	c.fn = fn;
	c.arg = arg;
	c.file = file;
	if ((arch.n == 1 && arch.p[0] == '*') ||
	    (sect = gguf_mtable_sect(arch.p, (size_t)arch.n)) == NULL) {
		char	a[80];

		snprintf(a, sizeof a, "%.*s", (int)arch.n, arch.p);
		say(&c, GGUF_W_NOTE, GGUF_MF_MODEL, NULL, -1, 0, "tensors not "
		    "checked: architecture %s is not in the table", a);
		return 0;
	}
	ctx_init(&c.x, s, sect, arch.p, (size_t)arch.n);
	c.used = xcalloc((size_t)nt + 1, 1);
	for (k = 0; k < sect->nrows; k++)
		if (sect->rows[k]->r->kind == GGUF_MR_KEY)
			check_key(&c, sect->rows[k]);
	for (k = 0; k < sect->nrows; k++)
		if (sect->rows[k]->r->kind == GGUF_MR_NEED)
			check_need(&c, sect->rows[k]);
	check_tensors(&c);
	free(c.used);
	free(c.x.memo);
	return c.errors;
}

unsigned
gguf_model_check(struct gguf_doc *d, gguf_mfinding_fn fn, void *arg)
{
	struct msrc	s = { d, NULL };

	return run(&s, 0, fn, arg);
}

unsigned
gguf_model_check_file(struct gguf_file *f, gguf_mfinding_fn fn, void *arg)
{
	struct msrc	s = { NULL, f };

	return run(&s, 1, fn, arg);
}

/* ------------------------------------------------------------ names wanted */

struct gguf_mnames {
	char	**v;
	size_t	  n;
	size_t	  cap;
};

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

struct gguf_mnames *
gguf_model_names(struct gguf_doc *d)
{
	const struct csect		*sect;
	const struct gguf_tensor	*t;
	struct gguf_mnames		*mn;
	struct msrc			 s = { d, NULL };
	struct gguf_str			 arch, nm;
	struct gguf_val			*v;
	struct check			 c;
	uint64_t			 i, nt, live = 0;
	int64_t				 nlayer, upto, il;
	uint32_t			 deps;
	size_t				 k;
	int				 n;
	char				 name[160];

	v = src_get(&s, "general.architecture", 20);
	if (v == NULL || gguf_val_str(v, &arch) != 0 || arch.n == 0 ||
	    arch.n > 64 || (arch.n == 1 && arch.p[0] == '*') ||
	    (sect = gguf_mtable_sect(arch.p, (size_t)arch.n)) == NULL)
		return NULL;
	memset(&c, 0, sizeof c);
	ctx_init(&c.x, &s, sect, arch.p, (size_t)arch.n);
	if (ev_let(&c.x, "n_block", &nlayer) != 0 || nlayer < 0) {
		free(c.x.memo);
		return NULL;
	}
	nt = src_ntensors(&s);
	for (i = 0; i < nt; i++)
		if (src_tensor(&s, i, &nm, &t) == 0)
			live++;
	upto = (uint64_t)nlayer > live + 1 ? (int64_t)live + 1 : nlayer;
	if (upto > MAX_LAYERS)
		upto = MAX_LAYERS;	/* llama.cpp loads no more */
	mn = xcalloc(1, sizeof *mn);
	for (il = -1; il < upto; il++) {
		for (k = 0; k < sect->nrows; k++) {
			const struct crow *r = sect->rows[k];

			if (r->r->kind != GGUF_MR_TENSOR ||
			    r->err[0] != '\0' || r->block != (il >= 0))
				continue;
			deps = 0;
			if (when_of(&c, r, il, &deps) == -1 ||
			    (n = expand(&c.x, r->r->name, il, name,
			    sizeof name)) < 0)
				continue;
			if (mn->n == mn->cap) {
				mn->cap = mn->cap ? mn->cap * 2 : 256;
				mn->v = xreallocarray(mn->v, mn->cap,
				    sizeof *mn->v);
			}
			mn->v[mn->n++] = xstrndup(name, (size_t)n);
		}
	}
	free(c.x.memo);
	qsort(mn->v, mn->n, sizeof *mn->v, name_cmp);
	return mn;
}

int
gguf_mnames_has(const struct gguf_mnames *mn, const char *name, size_t n)
{
	char	*key, **hit;

	if (mn == NULL)
		return 1;
	key = xstrndup(name, n);
	hit = bsearch(&key, mn->v, mn->n, sizeof *mn->v, name_cmp);
	free(key);
	return hit != NULL;
}

void
gguf_mnames_free(struct gguf_mnames *mn)
{
	size_t	i;

	if (mn == NULL)
		return;
	for (i = 0; i < mn->n; i++)
		free(mn->v[i]);
	free(mn->v);
	free(mn);
}

/* The messages of the errors of the source, to tell new ones from them. */
struct known {
	char			**msg;
	size_t			  n;
	gguf_mfinding_fn	  fn;
	void			 *arg;
	unsigned		  fresh;
};

static void
known_add(void *arg, const struct gguf_mfinding *f)
{
	struct known	*k = arg;

	if (f->level != GGUF_W_ERROR)
		return;
	k->msg = xreallocarray(k->msg, k->n + 1, sizeof *k->msg);
	k->msg[k->n++] = xstrdup(f->msg);
}

static void
known_filter(void *arg, const struct gguf_mfinding *f)
{
	struct known	*k = arg;
	const char	*m = f->msg;

	if (f->level != GGUF_W_ERROR)
		return;
	/* Sorted: a model with many faults is not a quadratic wait. */
	if (k->n > 0 && bsearch(&m, k->msg, k->n, sizeof *k->msg,
	    name_cmp) != NULL)
		return;
	k->fresh++;
	if (k->fn != NULL)
		k->fn(k->arg, f);
}

/* The tokenizer's findings (check.c) handed on as the table's. */
struct tok_fwd {
	struct known	*k;
	void		(*to)(void *, const struct gguf_mfinding *);
};

static void
tok_fwd(void *arg, int level, const char *file, int64_t off,
    const char *msg)
{
	const struct tok_fwd	*t = arg;
	struct gguf_mfinding	 f;

	(void)file;
	(void)off;
	memset(&f, 0, sizeof f);
	f.level = level;
	f.what = GGUF_MF_MODEL;
	f.kind = GGUF_MK_OTHER;
	f.index = -1;
	f.msg = msg;
	t->to(t->k, &f);
}

unsigned
gguf_model_check_new(struct gguf_doc *d, gguf_mfinding_fn fn, void *arg)
{
	struct msrc	src = { NULL, gguf_doc_file(d) }, doc = { d, NULL };
	struct known	k;
	struct tok_fwd	add = { &k, known_add }, filter = { &k, known_filter };
	size_t		i;

	memset(&k, 0, sizeof k);
	k.fn = fn;
	k.arg = arg;
	/* The source read as a document: the same faults, the same words. */
	run(&src, 0, known_add, &k);
	/* And the tokenizer's checks of validate (check.c), the same way. */
	gguf_check_tokenizer(gguf_doc_file(d), NULL, tok_fwd, &add);
	if (k.n > 0)
		qsort(k.msg, k.n, sizeof *k.msg, name_cmp);
	run(&doc, 0, known_filter, &k);
	gguf_check_tokenizer(NULL, d, tok_fwd, &filter);
	for (i = 0; i < k.n; i++)
		free(k.msg[i]);
	free(k.msg);
	return k.fresh;
}

int
gguf_mgroup_add(struct gguf_mgroup *g, const struct gguf_mfinding *f)
{
	if (f->kind <= GGUF_MK_OTHER || f->kind >= GGUF_MK_COUNT)
		return 1;
	return g->n[f->kind]++ < GGUF_MK_SHOWN;
}

int
gguf_mgroup_more(const struct gguf_mgroup *g, int k, char *buf, size_t len)
{
	uint64_t	n;
	int		one;

	if (k <= GGUF_MK_OTHER || k >= GGUF_MK_COUNT ||
	    g->n[k] <= GGUF_MK_SHOWN)
		return -1;
	n = g->n[k] - GGUF_MK_SHOWN;
	one = n == 1;
	if (k == GGUF_MK_MISSING)
		snprintf(buf, len, "%llu more tensor%s llama.cpp requires %s "
		    "missing", (unsigned long long)n, one ? "" : "s",
		    one ? "is" : "are");
	else if (k == GGUF_MK_SHAPE)
		snprintf(buf, len, "%llu more tensor%s a shape llama.cpp "
		    "refuses", (unsigned long long)n, one ? " has" : "s have");
	else
		snprintf(buf, len, "%llu more tensor%s llama.cpp does not "
		    "load: it refuses such files", (unsigned long long)n,
		    one ? "" : "s");
	return 0;
}

static void
verdict_cb(void *arg, const struct gguf_mfinding *f)
{
	struct gguf_mverdict	*v = arg;

	if (f->level >= GGUF_W_NOTE && f->level <= GGUF_W_ERROR)
		v->count[f->level]++;
	if (f->level == GGUF_W_ERROR && v->first[0] == '\0')
		snprintf(v->first, sizeof v->first, "%s", f->msg);
}

void
gguf_model_verdict(struct gguf_doc *d, struct gguf_mverdict *v)
{
	memset(v, 0, sizeof *v);
	gguf_model_check(d, verdict_cb, v);
}

/* ------------------------------------------------------------ a new model */

/* A bit of variant for row r (and block il when the variant says so). */
static int
chosen(uint64_t variant, const char *pattern, int64_t il)
{
	uint64_t	h = 1469598103934665603ull ^ variant;

	if (variant == 0)
		return 0;
	for (; *pattern != '\0'; pattern++)
		h = (h ^ (unsigned char)*pattern) * 1099511628211ull;
	/* Every third variant chooses block by block. */
	if (variant % 3 == 2)
		h = (h ^ (uint64_t)(il + 1)) * 1099511628211ull;
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 32;
	return (int)(h & 1);
}

struct plan {
	struct gguf_mtensor	*t;
	size_t			 n, cap;
};

/*
 * One pass over the rows: the tensors chosen, with has_tensor reading
 * those of seen (NULL: the ones this pass has chosen so far).
 */
static int
plan_pass(struct gguf_doc *d, const struct csect *sect, const char *arch,
    size_t archn, uint64_t variant, const struct plan *seen,
    struct plan *p, char *why, size_t len)
{
	struct msrc		 s;
	struct mctx		 x;
	struct gguf_mtensor	*t;
	const struct crow	*r;
	int64_t			 nblock, il, v;
	size_t			 k;
	int			 i, req, run, rc = -1;
	char			 name[160];

	memset(&s, 0, sizeof s);
	s.d = d;
	s.virt = 1;
	s.vt = seen != NULL ? seen->t : p->t;
	s.nvt = seen != NULL ? seen->n : 0;
	ctx_init(&x, &s, sect, arch, archn);
	x.why[0] = '\0';
	if (ev_let(&x, "n_block", &nblock) != 0) {
		snprintf(why, len, "the block count: %s", x.why);
		goto out;
	}
	if (nblock < 0 || nblock > 4096) {
		snprintf(why, len, "%lld blocks", (long long)nblock);
		goto out;
	}
	for (il = -1; il < nblock; il++) {
		for (k = 0; k < sect->nrows; k++) {
			r = sect->rows[k];
			if (r->r->kind != GGUF_MR_TENSOR || r->block != (il >= 0))
				continue;
			if (r->err[0] != '\0') {
				snprintf(why, len, "%s", r->err);
				goto out;
			}
			if (expand(&x, r->r->name, il, name, sizeof name) < 0 ||
			    strlen(name) >= sizeof t->name) {
				snprintf(why, len, "%s: name too long",
				    r->r->name);
				goto out;
			}
			req = -1;
			run = 0;
			for (i = 0; i < r->ncl; i++) {
				if (r->cl[i].cond == NULL) {
					req = r->cl[i].req;
					run = r->cl[i].run;
					break;
				}
				if (eval_at(&x, r->cl[i].cond, il, &v) != 0) {
					snprintf(why, len, "%s: %s", name,
					    x.why);
					goto out;
				}
				if (v) {
					req = r->cl[i].req;
					run = r->cl[i].run;
					break;
				}
			}
			/* what llama.cpp's graph reads is made, loaded or not */
			if (req == -1 || (req == 0 && !run &&
			    !chosen(variant, r->r->name, il)))
				continue;
			if (p->n == p->cap) {
				p->cap = p->cap ? p->cap * 2 : 64;
				p->t = xreallocarray(p->t, p->cap,
				    sizeof *p->t);
				if (seen == NULL)
					s.vt = p->t;
			}
			t = &p->t[p->n];
			memset(t, 0, sizeof *t);
			snprintf(t->name, sizeof t->name, "%s", name);
			t->n_dims = (uint32_t)r->ne;
			for (i = 0; i < MAX_DIMS; i++) {
				t->ne[i] = 1;
				if (i >= r->ne)
					continue;
				/* An optional one sized by a parameter the
				   model does not have, or has as 0 (experts),
				   is left out. */
				if (eval_at(&x, r->e[i], il, &t->ne[i]) != 0) {
					if (req == 0)
						break;
					snprintf(why, len, "%s: %s", name,
					    x.why);
					goto out;
				}
				if (t->ne[i] <= 0 && req == 0)
					break;
				if (t->ne[i] <= 0 || t->ne[i] > (1 << 24)) {
					snprintf(why, len, "%s: dimension %d "
					    "is %lld", name, i,
					    (long long)t->ne[i]);
					goto out;
				}
			}
			if (i < MAX_DIMS)
				continue;
			p->n++;
			if (seen == NULL)
				s.nvt = p->n;
		}
	}
	rc = 0;
out:
	free(x.memo);
	return rc;
}

static int
plan_same(const struct plan *a, const struct plan *b)
{
	size_t	i;

	if (a->n != b->n)
		return 0;
	for (i = 0; i < a->n; i++)
		if (strcmp(a->t[i].name, b->t[i].name) != 0)
			return 0;
	return 1;
}

int
gguf_model_plan(struct gguf_doc *d, uint64_t variant,
    struct gguf_mtensor **out, size_t *n, char *why, size_t len)
{
	const struct csect	*sect;
	struct gguf_val		*v;
	struct gguf_str		 arch;
	struct plan		 a, b;
	int			 pass;

	*out = NULL;
	*n = 0;
	v = gguf_doc_get(d, "general.architecture", 20);
	if (v == NULL || gguf_val_str(v, &arch) != 0 ||
	    (arch.n == 1 && arch.p[0] == '*') ||
	    (sect = gguf_mtable_sect(arch.p, (size_t)arch.n)) == NULL) {
		snprintf(why, len, "no architecture the table knows");
		return -1;
	}
	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	/* In table order first; then again against the whole set, until
	   a condition reading a later tensor changes nothing more. */
	if (plan_pass(d, sect, arch.p, (size_t)arch.n, variant, NULL, &a,
	    why, len) != 0)
		goto fail;
	for (pass = 0; pass < 8; pass++) {
		b.n = 0;
		if (plan_pass(d, sect, arch.p, (size_t)arch.n, variant, &a,
		    &b, why, len) != 0)
			goto fail;
		if (plan_same(&a, &b)) {
			free(b.t);
			*out = a.t;
			*n = a.n;
			return 0;
		}
		free(a.t);
		a = b;
		memset(&b, 0, sizeof b);
	}
	snprintf(why, len, "the tensors' conditions do not settle");
fail:
	free(a.t);
	free(b.t);
	return -1;
}

/* ----------------------------------------------------------- for the tests */

int
gguf_model_eval(struct gguf_doc *d, const char *arch, const char *expr,
    int64_t il, int64_t *out, char *why, size_t len)
{
	const struct csect	*sect = NULL;
	struct msrc		 s = { d, NULL };
	struct mctx		 x;
	struct mnode		*e;
	int			 rc;

	*out = 0;
	if (arch != NULL)
		sect = gguf_mtable_sect(arch, strlen(arch));
	if (sect == NULL)
		sect = gguf_mtable_sect("*", 1);
	if (sect == NULL) {
		snprintf(why, len, "the table has no * section");
		return -1;
	}
	if ((e = gguf_mexpr_parse(expr, strlen(expr), why, len)) == NULL)
		return -1;
	if (arch == NULL)
		arch = "";
	ctx_init(&x, &s, sect, arch, strlen(arch));
	rc = eval_at(&x, e, il, out);
	if (rc != 0)
		snprintf(why, len, "%s", x.why);
	free(x.memo);
	gguf_mexpr_free(e);
	return rc;
}
