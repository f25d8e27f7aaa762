/*
 * diff.c - the typed difference of two documents (diff.h): the header,
 * the metadata key by key, the tensors by name and by the hash of their
 * data, and the lines of text that say it; the element-wise comparison
 * of two tensors' values for --data.
 *
 * Keys and tensors are matched by name. A tensor of A that B lacks and a
 * tensor of B that A lacks are the same tensor renamed when their type,
 * shape and data hash agree (the first such pair, in A's order). Data is
 * hashed only where it decides something: tensors of both with the same
 * type and shape, and the candidates of a rename; the hashing runs on
 * several threads, a tensor per job.
 */
#include "config.h"

#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "internal.h"
#include "dequant.h"
#include "diff.h"
#include "hash.h"
#include "stats.h"

#define MAX_THREADS	64
#define SHOW_STR	200	/* bytes of a string shown in a line */
#define SHOW_ARR	8	/* elements of an added or removed array shown */
#define LCS_CELLS	(4u << 20)	/* largest line table of a string diff */
#define CHUNK		65536	/* elements decoded at a time by --data */

/* ------------------------------------------------------------ text lines */

struct sb {
	char	*s;
	size_t	 n, cap;
};

static void
sb_put(struct sb *b, const char *p, size_t n)
{
	if (b->n + n + 1 > b->cap) {
		b->cap = (b->n + n + 1) * 2;
		b->s = xreallocarray(b->s, b->cap, 1);
	}
	memcpy(b->s + b->n, p, n);
	b->n += n;
	b->s[b->n] = '\0';
}

static void
sb_printf(struct sb *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
sb_printf(struct sb *b, const char *fmt, ...)
{
	va_list	ap;
	char	buf[512];
	int	n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n > 0)
		sb_put(b, buf, (size_t)n < sizeof buf ? (size_t)n :
		    sizeof buf - 1);
}

/*
 * File bytes as safe text: valid, printable UTF-8 kept; \n \r \t as C
 * escapes; other controls, DEL and bytes of invalid UTF-8 as \xHH;
 * characters that control or reorder a terminal as \u{XXXX}. quoted:
 * between double quotes, \ and " escaped. At most max bytes of input, then
 * "..." after the closing quote.
 */
static void
sb_esc(struct sb *b, const char *s, size_t n, int quoted, size_t max)
{
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 i = 0, len, lim = n < max ? n : max;
	unsigned		 cp;
	char			 e[16];

	if (quoted)
		sb_put(b, "\"", 1);
	while (i < lim) {
		len = gguf_utf8_seq(p + i, n - i, &cp);
		if (len == 0) {
			snprintf(e, sizeof e, "\\x%02x", p[i]);
			sb_put(b, e, 4);
			i++;
			continue;
		}
		if (len > 1) {
			if (gguf_cp_unsafe(cp)) {
				snprintf(e, sizeof e, "\\u{%04x}", cp);
				sb_put(b, e, strlen(e));
			} else
				sb_put(b, s + i, len);
			i += len;
			continue;
		}
		if (cp == '\n')
			sb_put(b, "\\n", 2);
		else if (cp == '\r')
			sb_put(b, "\\r", 2);
		else if (cp == '\t')
			sb_put(b, "\\t", 2);
		else if (quoted && (cp == '\\' || cp == '"')) {
			e[0] = '\\';
			e[1] = (char)cp;
			sb_put(b, e, 2);
		} else if (cp < 0x20 || cp == 0x7f) {
			snprintf(e, sizeof e, "\\x%02x", cp);
			sb_put(b, e, 4);
		} else
			sb_put(b, s + i, 1);
		i++;
	}
	if (quoted)
		sb_put(b, "\"", 1);
	if (lim < n)
		sb_put(b, "...", 3);
}

/* A value, short: scalars as printed, strings quoted and cut, arrays
   as [N x type] with their first elements. */
static void
sb_val(struct sb *b, struct gguf_val *v, int elems)
{
	struct gguf_str	s;
	struct gguf_val	e;
	char		buf[64];
	uint64_t	i;

	if (v->type == GGUF_VT_STR) {
		if (gguf_val_str(v, &s) != 0)
			s.n = 0;
		sb_esc(b, s.p, (size_t)s.n, 1, SHOW_STR);
	} else if (v->type == GGUF_VT_ARR) {
		sb_printf(b, "[%s x %s", gguf_fmt_group(v->count, buf,
		    sizeof buf), gguf_vtype_name(v->atype) != NULL ?
		    gguf_vtype_name(v->atype) : "?");
		for (i = 0; elems && i < v->count && i < SHOW_ARR; i++) {
			if (gguf_arr_get(v, i, &e, NULL) != 0)
				break;
			sb_put(b, i == 0 ? ": " : ", ", 2);
			sb_val(b, &e, 0);
		}
		if (elems && v->count > SHOW_ARR)
			sb_put(b, ", ...", 5);
		sb_put(b, "]", 1);
	} else
		sb_printf(b, "%s", gguf_val_scalar_text(v, buf, sizeof buf));
}

static void
add_line(struct gguf_diff *d, size_t *cap, int kind, int64_t item,
    struct sb *b)
{
	if (d->n_lines == *cap) {
		*cap = *cap ? *cap * 2 : 64;
		d->lines = xreallocarray(d->lines, *cap, sizeof *d->lines);
	}
	d->lines[d->n_lines].text = xstrdup(b->s != NULL ? b->s : "");
	d->lines[d->n_lines].kind = kind;
	d->lines[d->n_lines].item = item;
	d->n_lines++;
	b->n = 0;
	if (b->s != NULL)
		b->s[0] = '\0';
}

/* ----------------------------------------------------------------- items */

static struct gguf_diff_item *
new_item(struct gguf_diff *d, size_t *cap, int what)
{
	struct gguf_diff_item	*it;

	if (d->n_items == *cap) {
		*cap = *cap ? *cap * 2 : 32;
		d->items = xreallocarray(d->items, *cap, sizeof *d->items);
	}
	it = &d->items[d->n_items++];
	memset(it, 0, sizeof *it);
	it->what = what;
	it->a = it->b = -1;
	return it;
}

/* ---------------------------------------------------------------- values */

static int
str_eq(struct gguf_val *x, struct gguf_val *y)
{
	struct gguf_str	s, t;

	if (gguf_val_str(x, &s) != 0 || gguf_val_str(y, &t) != 0)
		return 0;
	return s.n == t.n && memcmp(s.p, t.p, (size_t)s.n) == 0;
}

/* Same type assumed: whether two values are equal. */
static int
val_eq(struct gguf_val *x, struct gguf_val *y)
{
	struct gguf_val	ex, ey;
	uint64_t	i;

	if (x->be == y->be && x->lw == y->lw && x->n == y->n &&
	    memcmp(x->p, y->p, (size_t)x->n) == 0)
		return 1;
	if (x->type == GGUF_VT_STR)
		return str_eq(x, y);
	if (x->type != GGUF_VT_ARR)
		return gguf_val_bits(x) == gguf_val_bits(y);
	if (x->atype != y->atype || x->count != y->count)
		return 0;
	for (i = 0; i < x->count; i++) {
		if (gguf_arr_get(x, i, &ex, NULL) != 0 ||
		    gguf_arr_get(y, i, &ey, NULL) != 0 || !val_eq(&ex, &ey))
			return 0;
	}
	return 1;
}

/*
 * Element access for the array diff: fixed-size elements of arrays of the
 * same byte order are compared as bytes, at base + i * esize.
 */
struct acmp {
	struct gguf_val	*a, *b;
	const uint8_t	*pa, *pb;	/* element 0, when raw */
	unsigned	 esize;
	int		 raw;
};

static int
elem_eq(struct acmp *c, uint64_t i, uint64_t j)
{
	struct gguf_val	x, y;

	if (c->raw)
		return memcmp(c->pa + i * c->esize, c->pb + j * c->esize,
		    c->esize) == 0;
	if (gguf_arr_get(c->a, i, &x, NULL) != 0 ||
	    gguf_arr_get(c->b, j, &y, NULL) != 0)
		return 0;
	return val_eq(&x, &y);
}

static void
add_elem(struct gguf_diff_item *it, unsigned max, char op, uint64_t ia,
    uint64_t ib)
{
	if (it->n_elems >= max)
		return;
	if (it->elems == NULL)
		it->elems = xcalloc(max, sizeof *it->elems);
	it->elems[it->n_elems].op = op;
	it->elems[it->n_elems].ia = ia;
	it->elems[it->n_elems].ib = ib;
	it->n_elems++;
}

/*
 * Arrays of the same element type whose bytes differ: the common head and
 * tail are taken off; in the middle, positions are paired one to one and
 * what is left over is removed (A longer) or added (B longer).
 */
static void
arr_diff(struct gguf_diff_item *it, unsigned max)
{
	struct acmp	c;
	struct gguf_val	e0, f0;
	uint64_t	na = it->va->count, nb = it->vb->count, p = 0, s = 0;
	uint64_t	lim = na < nb ? na : nb, ma, mb, k;

	memset(&c, 0, sizeof c);
	c.a = it->va;
	c.b = it->vb;
	c.esize = gguf_vtype_size(it->va->atype);
	if (c.esize != 0 && it->va->be == it->vb->be && na > 0 && nb > 0 &&
	    gguf_arr_get(c.a, 0, &e0, NULL) == 0 &&
	    gguf_arr_get(c.b, 0, &f0, NULL) == 0) {
		c.raw = 1;
		c.pa = e0.p;
		c.pb = f0.p;
	}
	while (p < lim && elem_eq(&c, p, p))
		p++;
	if (na != nb)
		while (s < lim - p && elem_eq(&c, na - 1 - s, nb - 1 - s))
			s++;
	ma = na - p - s;
	mb = nb - p - s;
	for (k = 0; k < ma && k < mb; k++) {
		if (!elem_eq(&c, p + k, p + k)) {
			it->n_changed++;
			add_elem(it, max, '~', p + k, p + k);
		}
	}
	for (; k < ma; k++) {
		it->n_removed++;
		add_elem(it, max, '-', p + k, 0);
	}
	for (; k < mb; k++) {
		it->n_added++;
		add_elem(it, max, '+', 0, p + k);
	}
}

/* --------------------------------------------------------- string lines */

struct slines {
	const char	**p;
	size_t		 *n;
	uint64_t	 *h;
	size_t		  count;
};

/* Lines of a string: split at \n; a final \n ends the last line. */
static void
split_lines(const char *s, size_t n, struct slines *l)
{
	size_t	i, st = 0, k = 0, cap = 1;

	for (i = 0; i < n; i++)
		cap += s[i] == '\n';
	l->p = xcalloc(cap, sizeof *l->p);
	l->n = xcalloc(cap, sizeof *l->n);
	l->h = xcalloc(cap, sizeof *l->h);
	for (i = 0; i <= n; i++) {
		if (i < n && s[i] != '\n')
			continue;
		if (i == n && st == n)
			break;
		l->p[k] = s + st;
		l->n[k] = i - st;
		l->h[k] = XXH3_64bits(s + st, i - st);
		k++;
		st = i + 1;
	}
	l->count = k;
}

static void
slines_free(struct slines *l)
{
	free(l->p);
	free(l->n);
	free(l->h);
}

static int
line_eq(const struct slines *a, size_t i, const struct slines *b, size_t j)
{
	return a->h[i] == b->h[j] && a->n[i] == b->n[j] &&
	    memcmp(a->p[i], b->p[j], a->n[i]) == 0;
}

static void
add_sline(struct gguf_diff_item *it, size_t *cap, char op, const char *p,
    size_t n)
{
	if (it->n_slines == *cap) {
		*cap = *cap ? *cap * 2 : 32;
		it->slines = xreallocarray(it->slines, *cap,
		    sizeof *it->slines);
	}
	memset(&it->slines[it->n_slines], 0, sizeof *it->slines);
	it->slines[it->n_slines].op = op;
	it->slines[it->n_slines].p = p;
	it->slines[it->n_slines].n = n;
	it->n_slines++;
}

/*
 * The unified diff of two strings' lines, context lines around each
 * change: the common head and tail are taken off, the middle is matched
 * by a longest common subsequence (or, when too large for the table,
 * reported as all removed and all added).
 */
static void
str_diff(struct gguf_diff_item *it, unsigned context)
{
	struct gguf_str	 sa, sb;
	struct slines	 la, lb;
	char		*ops;
	uint16_t	*L = NULL;
	size_t		 pre = 0, suf = 0, ma, mb, i, j, k, nops = 0, cap = 0;
	size_t		 h, e, ia, ib, x, ca, cb, a0, b0;

	gguf_val_str(it->va, &sa);
	gguf_val_str(it->vb, &sb);
	split_lines(sa.p, (size_t)sa.n, &la);
	split_lines(sb.p, (size_t)sb.n, &lb);
	while (pre < la.count && pre < lb.count && line_eq(&la, pre, &lb, pre))
		pre++;
	while (suf < la.count - pre && suf < lb.count - pre &&
	    line_eq(&la, la.count - 1 - suf, &lb, lb.count - 1 - suf))
		suf++;
	ma = la.count - pre - suf;
	mb = lb.count - pre - suf;
	ops = xmalloc(la.count + lb.count + 1);
	for (i = 0; i < pre; i++)
		ops[nops++] = ' ';
	if (ma > 0 && mb > 0 && (ma + 1) * (mb + 1) <= LCS_CELLS &&
	    ma < 65535 && mb < 65535) {
		/* L[i][j]: the longest common subsequence of the tails */
		L = xcalloc((ma + 1) * (mb + 1), sizeof *L);
		for (i = ma; i-- > 0;)
			for (j = mb; j-- > 0;)
				L[i * (mb + 1) + j] = line_eq(&la, pre + i, &lb,
				    pre + j) ? L[(i + 1) * (mb + 1) + j + 1] + 1 :
				    L[(i + 1) * (mb + 1) + j] >=
				    L[i * (mb + 1) + j + 1] ?
				    L[(i + 1) * (mb + 1) + j] :
				    L[i * (mb + 1) + j + 1];
		i = j = 0;
		while (i < ma || j < mb) {
			if (i < ma && j < mb && line_eq(&la, pre + i, &lb,
			    pre + j)) {
				ops[nops++] = ' ';
				i++;
				j++;
			} else if (j == mb || (i < ma &&
			    L[(i + 1) * (mb + 1) + j] >=
			    L[i * (mb + 1) + j + 1])) {
				ops[nops++] = '-';
				i++;
			} else {
				ops[nops++] = '+';
				j++;
			}
		}
		free(L);
	} else {
		for (i = 0; i < ma; i++)
			ops[nops++] = '-';
		for (i = 0; i < mb; i++)
			ops[nops++] = '+';
	}
	for (i = 0; i < suf; i++)
		ops[nops++] = ' ';

	/* hunks: changes closer than 2 * context lines share one */
	ia = ib = 0;	/* line of A and B at op k */
	for (k = 0; k < nops;) {
		if (ops[k] == ' ') {
			ia++;
			ib++;
			k++;
			continue;
		}
		/* the hunk starts context lines before k */
		h = k;
		ca = ia;
		cb = ib;
		for (x = 0; x < context && h > 0 && ops[h - 1] == ' '; x++) {
			h--;
			ca--;
			cb--;
		}
		/* and ends after the last change followed by > 2C equal lines */
		e = k;
		for (;;) {
			while (e < nops && ops[e] != ' ')
				e++;
			for (x = 0; e + x < nops && ops[e + x] == ' ' &&
			    x <= 2 * (size_t)context; x++)
				;
			if (e + x < nops && x <= 2 * (size_t)context &&
			    ops[e + x] != ' ') {
				e += x;
				continue;
			}
			e += x < context ? x : context;
			break;
		}
		add_sline(it, &cap, '@', NULL, 0);
		a0 = ca;
		b0 = cb;
		for (x = h; x < e; x++) {
			if (ops[x] == ' ') {
				add_sline(it, &cap, ' ', la.p[ca], la.n[ca]);
				ca++;
				cb++;
			} else if (ops[x] == '-') {
				add_sline(it, &cap, '-', la.p[ca], la.n[ca]);
				ca++;
			} else {
				add_sline(it, &cap, '+', lb.p[cb], lb.n[cb]);
				cb++;
			}
		}
		/* the head, filled now that the lengths are known */
		for (x = it->n_slines; x-- > 0;)
			if (it->slines[x].op == '@')
				break;
		it->slines[x].a0 = ca - a0 > 0 ? a0 + 1 : a0;
		it->slines[x].an = ca - a0;
		it->slines[x].b0 = cb - b0 > 0 ? b0 + 1 : b0;
		it->slines[x].bn = cb - b0;
		ia = ca;
		ib = cb;
		k = e;
	}
	free(ops);
	slines_free(&la);
	slines_free(&lb);
}

/* Whether a changed string is shown as a diff of lines. */
static int
multiline(struct gguf_val *v)
{
	struct gguf_str	s;

	if (gguf_val_str(v, &s) != 0)
		return 0;
	return s.n > 80 || memchr(s.p, '\n', (size_t)s.n) != NULL;
}

/* ------------------------------------------------------------------ keys */

/*
 * The keys that say how a split set is cut into files (gguf-split's),
 * not what the model is: left out when either side is a set, so a set
 * and its merge (split.count 0) compare equal.
 */
static int
packaging(const struct gguf_str *k)
{
	static const char *const	keys[] = {
		"split.no", "split.count", "split.tensors.count"
	};
	size_t				i;

	for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if ((size_t)k->n == strlen(keys[i]) &&
		    memcmp(k->p, keys[i], (size_t)k->n) == 0)
			return 1;
	return 0;
}

/*
 * A key given twice (a file ggml refuses, but one to compare still): the
 * first live entry of b with this key not paired yet, or -1. Each
 * occurrence pairs with the same occurrence on the other side.
 */
static int64_t
next_kv(struct gguf_doc *b, const struct gguf_str *key,
    const unsigned char *seen)
{
	struct gguf_doc_kv	kb;
	uint64_t		i, nb = gguf_doc_n_kv(b);

	for (i = 0; i < nb; i++)
		if (!seen[i] && gguf_doc_kv(b, i, &kb) == 0 &&
		    !(kb.flags & GGUF_ED_REMOVED) && kb.key.n == key->n &&
		    memcmp(kb.key.p, key->p, (size_t)key->n) == 0)
			return (int64_t)i;
	return -1;
}

static void
diff_kv(struct gguf_doc *a, struct gguf_doc *b, const struct gguf_diff_opts *o,
    struct gguf_diff *d, size_t *cap)
{
	struct gguf_diff_item	*it;
	struct gguf_doc_kv	 ka, kb;
	uint64_t		 i, na = gguf_doc_n_kv(a), nb = gguf_doc_n_kv(b);
	unsigned char		*seen = xcalloc(nb + 1, 1);
	int64_t			 j;
	int			 sets;

	sets = gguf_n_shards(gguf_doc_file(a)) > 0 ||
	    gguf_n_shards(gguf_doc_file(b)) > 0;
	for (i = 0; i < na; i++) {
		if (gguf_doc_kv(a, i, &ka) != 0 ||
		    (ka.flags & GGUF_ED_REMOVED) ||
		    (sets && packaging(&ka.key)))
			continue;
		j = gguf_doc_kv_find(b, ka.key.p, (size_t)ka.key.n);
		if (j >= 0 && seen[j])
			j = next_kv(b, &ka.key, seen);
		if (j < 0 || gguf_doc_kv(b, (uint64_t)j, &kb) != 0) {
			it = new_item(d, cap, GGUF_CH_KV);
			it->flags = GGUF_DF_REMOVED;
			it->a = (int64_t)i;
			it->name_a = ka.key;
			it->va = ka.val;
			d->kv_removed++;
			continue;
		}
		seen[j] = 1;
		if (ka.val->type != kb.val->type ||
		    (ka.val->type == GGUF_VT_ARR &&
		    ka.val->atype != kb.val->atype)) {
			it = new_item(d, cap, GGUF_CH_KV);
			it->flags = GGUF_DF_TYPE | GGUF_DF_VALUE;
		} else if (val_eq(ka.val, kb.val))
			continue;
		else {
			it = new_item(d, cap, GGUF_CH_KV);
			it->flags = GGUF_DF_VALUE;
		}
		it->a = (int64_t)i;
		it->b = j;
		it->name_a = ka.key;
		it->name_b = kb.key;
		it->va = ka.val;
		it->vb = kb.val;
		d->kv_changed++;
		if (it->flags & GGUF_DF_TYPE)
			continue;
		if (ka.val->type == GGUF_VT_ARR)
			arr_diff(it, o->max_elems);
		else if (ka.val->type == GGUF_VT_STR &&
		    (multiline(ka.val) || multiline(kb.val)))
			str_diff(it, o->context);
	}
	for (i = 0; i < nb; i++) {
		if (seen[i] || gguf_doc_kv(b, i, &kb) != 0 ||
		    (kb.flags & GGUF_ED_REMOVED) ||
		    (sets && packaging(&kb.key)))
			continue;
		it = new_item(d, cap, GGUF_CH_KV);
		it->flags = GGUF_DF_ADDED;
		it->b = (int64_t)i;
		it->name_b = kb.key;
		it->vb = kb.val;
		d->kv_added++;
	}
	free(seen);
}

/* --------------------------------------------------------------- hashing */

struct hjob {
	struct gguf_doc			*doc;
	const struct gguf_tensor	*t;
	uint64_t			 idx;	/* tensor index in the file */
	int				 conv;	/* hash its float32 form */
	uint64_t			 hash;
	int				 unread;	/* past the end */
	int				 rc;
	struct gguf_err			 err;
};

struct hpool {
	struct hjob	*jobs;
	size_t		 n;
	/* progress over both documents */
	gguf_progress_fn progress;
	void		*arg;
	uint64_t	 base;		/* bytes done by the jobs before */
	uint64_t	 total;
};

static int
hash_progress(void *arg, uint64_t done, uint64_t total)
{
	struct hpool	*p = arg;

	(void)total;
	return p->progress(p->arg, p->base + done, p->total);
}

/* An XXH64 digest of hash.h (canonical: big-endian bytes) as a number. */
static uint64_t
digest_u64(const struct gguf_digest *d)
{
	uint64_t	v = 0;
	int		k;

	for (k = 0; k < 8; k++)
		v = v << 8 | d->b[k];
	return v;
}

/*
 * The float32 data a save writes for a converted tensor, hashed as it is
 * decoded (the file holds no such bytes for hash.h to read).
 */
static int
hash_converted(struct hjob *j)
{
	const struct gguf_tensor	*t = j->t;
	XXH64_state_t			*st = XXH64_createState();
	uint64_t			 ne0 = t->ne[0], nrows;
	uint64_t			 r, col, nr, nc, rstep, cstep, k;
	uint32_t			 bits;
	uint8_t				*p;
	float				*v;
	int				 be = gguf_doc_be(j->doc), rc = -1;

	if (st == NULL)
		return gguf_errf(&j->err, -1, "out of memory");
	XXH64_reset(st, 0);
	nrows = gguf_tensor_nrows(t);
	rstep = ne0 == 0 ? 1 : ne0 <= CHUNK ? CHUNK / ne0 : 1;
	cstep = ne0 <= CHUNK ? ne0 : CHUNK;
	v = xreallocarray(NULL, (size_t)(rstep * (cstep ? cstep : 1)),
	    sizeof *v);
	for (r = 0; ne0 > 0 && r < nrows; r += nr) {
		nr = nrows - r < rstep ? nrows - r : rstep;
		for (col = 0; col < ne0; col += nc) {
			nc = ne0 - col < cstep ? ne0 - col : cstep;
			if (gguf_dequant_rows(gguf_doc_file(j->doc), t, r, nr,
			    col, nc, v, &j->err) != 0)
				goto out;
			p = (uint8_t *)v;
			for (k = 0; k < nr * nc; k++) {
				memcpy(&bits, p + 4 * k, 4);
				gguf_st32(p + 4 * k, bits, be);
			}
			XXH64_update(st, p, (size_t)(4 * nr * nc));
		}
	}
	j->hash = XXH64_digest(st);
	rc = 0;
out:
	free(v);
	XXH64_freeState(st);
	return rc;
}

/*
 * Hashes the jobs of one document: the tensors as stored through hash.h
 * (one pass over their byte ranges, on the threads it uses), the
 * converted ones from their decoded values. 0, or -1 with the job that
 * failed marked.
 */
static int
hash_doc(struct hpool *p, struct gguf_doc *doc, unsigned threads)
{
	const struct gguf_file	*f = gguf_doc_file(doc);
	struct gguf_hash_job	 job;
	struct gguf_hashes	*out;
	struct gguf_span	*sp;
	struct gguf_err		 err;
	size_t			*of, i, n = 0;
	int			 rc = 0;

	sp = xcalloc(p->n + 1, sizeof *sp);
	of = xcalloc(p->n + 1, sizeof *of);
	for (i = 0; i < p->n; i++) {
		if (p->jobs[i].doc != doc)
			continue;
		/* Data the file does not hold is not compared, not read. */
		if (p->jobs[i].t->flags & GGUF_TENSOR_UNREADABLE) {
			p->jobs[i].unread = 1;
			continue;
		}
		if (p->jobs[i].conv) {
			if ((p->jobs[i].rc = hash_converted(&p->jobs[i])) != 0)
				rc = -1;
			continue;
		}
		if (gguf_tensor_span_mapped(f, p->jobs[i].idx, &sp[n],
		    &p->jobs[i].err) != 0) {
			p->jobs[i].rc = rc = -1;
			continue;
		}
		of[n++] = i;
	}
	out = xcalloc(n + 1, sizeof *out);
	if (rc == 0 && n > 0) {
		memset(&job, 0, sizeof job);
		job.spans = sp;
		job.n_spans = n;
		job.each = GGUF_HM(GGUF_H_XXH64);
		job.each_out = out;
		job.threads = threads;
		if (p->progress != NULL) {
			job.progress = hash_progress;
			job.arg = p;
		}
		memset(&err, 0, sizeof err);
		if (gguf_hash_run(&job, &err) != 0) {
			p->jobs[of[0]].rc = rc = -1;
			p->jobs[of[0]].err = err;
		}
	}
	for (i = 0; rc == 0 && i < n; i++) {
		p->jobs[of[i]].hash = digest_u64(&out[i].d[GGUF_H_XXH64]);
		p->base += sp[i].len;
	}
	free(out);
	free(of);
	free(sp);
	return rc;
}

/* --------------------------------------------------------------- tensors */

struct tinfo {
	struct gguf_doc_tensor	 dt;
	int64_t			 idx;
	int64_t			 other;	/* matched entry of the other side */
	int64_t			 job;	/* hash job, -1 if not hashed */
};

static int
same_shape(const struct gguf_tensor *x, const struct gguf_tensor *y)
{
	return memcmp(x->ne, y->ne, sizeof x->ne) == 0 &&
	    x->n_dims == y->n_dims;
}

static int
same_form(const struct tinfo *x, const struct tinfo *y)
{
	return x->dt.type == y->dt.type && same_shape(x->dt.t, y->dt.t);
}

static int64_t
add_job(struct hpool *p, size_t *cap, struct gguf_doc *doc, struct tinfo *ti)
{
	struct hjob	*j;

	if (ti->job >= 0)
		return ti->job;
	if (p->n == *cap) {
		*cap = *cap ? *cap * 2 : 64;
		p->jobs = xreallocarray(p->jobs, *cap, sizeof *p->jobs);
	}
	j = &p->jobs[p->n];
	memset(j, 0, sizeof *j);
	j->doc = doc;
	j->t = ti->dt.t;
	j->idx = (uint64_t)ti->idx;
	j->conv = (ti->dt.flags & GGUF_ED_VALUE) && ti->dt.type != ti->dt.t->type;
	ti->job = (int64_t)p->n++;
	return ti->job;
}

static struct tinfo *
live_tensors(struct gguf_doc *doc, size_t *n)
{
	uint64_t	 i, cnt = gguf_doc_n_tensors(doc);
	struct tinfo	*v = xcalloc(cnt + 1, sizeof *v);
	size_t		 k = 0;

	for (i = 0; i < cnt; i++) {
		if (gguf_doc_tensor(doc, i, &v[k].dt) != 0 ||
		    (v[k].dt.flags & GGUF_ED_REMOVED))
			continue;
		v[k].idx = (int64_t)i;
		v[k].other = -1;
		v[k].job = -1;
		k++;
	}
	*n = k;
	return v;
}

static void
fill_tensor(struct gguf_diff_item *it, const struct tinfo *x,
    const struct tinfo *y)
{
	if (x != NULL) {
		it->a = x->idx;
		it->name_a = x->dt.name;
		it->type_a = x->dt.type;
		it->dims_a = x->dt.t->n_dims;
		memcpy(it->ne_a, x->dt.t->ne, sizeof it->ne_a);
		it->bytes_a = x->dt.nbytes;
	}
	if (y != NULL) {
		it->b = y->idx;
		it->name_b = y->dt.name;
		it->type_b = y->dt.type;
		it->dims_b = y->dt.t->n_dims;
		memcpy(it->ne_b, y->dt.t->ne, sizeof it->ne_b);
		it->bytes_b = y->dt.nbytes;
	}
}

static int
diff_tensors(struct gguf_doc *a, struct gguf_doc *b,
    const struct gguf_diff_opts *o, struct gguf_diff *d, size_t *cap,
    struct gguf_err *err)
{
	struct gguf_diff_item	*it;
	struct tinfo		*ta, *tb, *x, *y;
	struct hpool		 pool;
	size_t			 na, nb, i, k, jcap = 0;
	int64_t			*bpos, j;
	int			 rc = -1;
	char			 nb1[96];

	ta = live_tensors(a, &na);
	tb = live_tensors(b, &nb);
	/* position in tb of each entry of b */
	bpos = xcalloc(gguf_doc_n_tensors(b) + 1, sizeof *bpos);
	for (i = 0; i < nb; i++)
		bpos[tb[i].idx] = (int64_t)i;
	memset(&pool, 0, sizeof pool);
	for (i = 0; i < na; i++) {
		x = &ta[i];
		j = gguf_doc_tensor_find(b, x->dt.name.p, (size_t)x->dt.name.n);
		if (j < 0)
			continue;
		if (tb[bpos[j]].other >= 0) {
			/* a name given twice: its next occurrence in b */
			for (k = 0; k < nb; k++)
				if (tb[k].other < 0 &&
				    tb[k].dt.name.n == x->dt.name.n &&
				    memcmp(tb[k].dt.name.p, x->dt.name.p,
				    (size_t)x->dt.name.n) == 0)
					break;
			if (k == nb)
				continue;
			j = tb[k].idx;
		}
		y = &tb[bpos[j]];
		x->other = bpos[j];
		y->other = (int64_t)i;
		if (same_form(x, y)) {
			add_job(&pool, &jcap, a, x);
			add_job(&pool, &jcap, b, y);
		}
	}
	/* candidates of a rename: unmatched on both sides, same form */
	for (i = 0; i < na; i++) {
		if (ta[i].other >= 0)
			continue;
		for (k = 0; k < nb; k++)
			if (tb[k].other < 0 && same_form(&ta[i], &tb[k])) {
				add_job(&pool, &jcap, a, &ta[i]);
				add_job(&pool, &jcap, b, &tb[k]);
			}
	}
	d->hashed = pool.n;
	pool.progress = o->progress;
	pool.arg = o->arg;
	for (i = 0; i < pool.n; i++)
		if (!pool.jobs[i].conv)
			pool.total += pool.jobs[i].t->nbytes;
	if (hash_doc(&pool, a, o->threads) != 0 ||
	    hash_doc(&pool, b, o->threads) != 0) {
		for (i = 0; i < pool.n; i++)
			if (pool.jobs[i].rc != 0)
				break;
		/* The tensor named once: the reader's messages name it. */
		if (strncmp(pool.jobs[i].err.msg, "tensor \"", 8) == 0)
			gguf_errf(err, -1, "%s: %s",
			    gguf_doc_path(pool.jobs[i].doc),
			    pool.jobs[i].err.msg);
		else
			gguf_errf(err, -1, "%s: tensor \"%s\": %s",
			    gguf_doc_path(pool.jobs[i].doc),
			    gguf_pname(pool.jobs[i].t->name.p,
			    (size_t)pool.jobs[i].t->name.n, nb1, sizeof nb1),
			    pool.jobs[i].err.msg);
		goto out;
	}
	/* renames: the first unmatched tensor of B with the same data */
	for (i = 0; i < na; i++) {
		if (ta[i].other >= 0 || ta[i].job < 0 ||
		    pool.jobs[ta[i].job].unread)
			continue;
		for (k = 0; k < nb; k++)
			if (tb[k].other < 0 && tb[k].job >= 0 &&
			    !pool.jobs[tb[k].job].unread &&
			    same_form(&ta[i], &tb[k]) &&
			    pool.jobs[ta[i].job].hash ==
			    pool.jobs[tb[k].job].hash) {
				ta[i].other = (int64_t)k;
				tb[k].other = (int64_t)i;
				it = new_item(d, cap, GGUF_CH_TENSOR);
				it->flags = GGUF_DF_RENAMED;
				fill_tensor(it, &ta[i], &tb[k]);
				it->has_hash = 1;
				it->hash_a = it->hash_b =
				    pool.jobs[ta[i].job].hash;
				d->t_renamed++;
				break;
			}
	}
	/* renames were appended first: tensors go in A's order */
	for (i = 0; i < na; i++) {
		x = &ta[i];
		if (x->other < 0) {
			it = new_item(d, cap, GGUF_CH_TENSOR);
			it->flags = GGUF_DF_REMOVED;
			fill_tensor(it, x, NULL);
			d->t_removed++;
			continue;
		}
		y = &tb[x->other];
		if (y->dt.name.n != x->dt.name.n || memcmp(y->dt.name.p,
		    x->dt.name.p, (size_t)x->dt.name.n) != 0)
			continue;	/* renamed: listed already */
		if (same_form(x, y) && (pool.jobs[x->job].unread ||
		    pool.jobs[y->job].unread)) {
			it = new_item(d, cap, GGUF_CH_TENSOR);
			it->flags = GGUF_DF_UNREAD;
			it->unread = (pool.jobs[x->job].unread ? 1 : 0) |
			    (pool.jobs[y->job].unread ? 2 : 0);
		} else if (same_form(x, y)) {
			if (pool.jobs[x->job].hash == pool.jobs[y->job].hash)
				continue;
			it = new_item(d, cap, GGUF_CH_TENSOR);
			it->flags = GGUF_DF_DATA;
			it->has_hash = 1;
			it->hash_a = pool.jobs[x->job].hash;
			it->hash_b = pool.jobs[y->job].hash;
		} else {
			it = new_item(d, cap, GGUF_CH_TENSOR);
			if (x->dt.type != y->dt.type)
				it->flags |= GGUF_DF_TYPE;
			if (!same_shape(x->dt.t, y->dt.t))
				it->flags |= GGUF_DF_SHAPE;
		}
		fill_tensor(it, x, y);
		d->t_changed++;
	}
	for (k = 0; k < nb; k++) {
		if (tb[k].other >= 0)
			continue;
		it = new_item(d, cap, GGUF_CH_TENSOR);
		it->flags = GGUF_DF_ADDED;
		fill_tensor(it, NULL, &tb[k]);
		d->t_added++;
	}
	rc = 0;
out:
	free(pool.jobs);
	free(bpos);
	free(ta);
	free(tb);
	return rc;
}

/* ------------------------------------------------------------------ text */

static const char *
shape_text(const uint64_t ne[GGUF_MAX_DIMS], uint32_t nd, char *buf,
    size_t len)
{
	size_t		o = 0;
	uint32_t	k;

	if (nd > GGUF_MAX_DIMS)
		nd = GGUF_MAX_DIMS;
	o += (size_t)snprintf(buf, len, "[");
	for (k = 0; k < nd && o < len; k++)
		o += (size_t)snprintf(buf + o, len - o, "%s%llu",
		    k > 0 ? "," : "", (unsigned long long)ne[k]);
	if (o < len)
		snprintf(buf + o, len - o, "]");
	return buf;
}

static void
sb_name(struct sb *b, struct gguf_str s)
{
	sb_esc(b, s.p, (size_t)s.n, 0, SIZE_MAX);
}

static void
render_elems(struct gguf_diff *d, size_t *cap, int64_t idx, struct sb *b)
{
	struct gguf_diff_item	*it = &d->items[idx];
	struct gguf_diff_elem	*e;
	struct gguf_val		 x, y;
	uint64_t		 shown = 0, total;
	char			 g[32];
	size_t			 k;

	for (k = 0; k < it->n_elems; k++) {
		e = &it->elems[k];
		sb_put(b, "    ", 4);
		if (e->op == '~') {
			if (gguf_arr_get(it->va, e->ia, &x, NULL) != 0 ||
			    gguf_arr_get(it->vb, e->ib, &y, NULL) != 0)
				continue;
			sb_printf(b, "[%llu] ", (unsigned long long)e->ia);
			sb_val(b, &x, 0);
			sb_put(b, " -> ", 4);
			sb_val(b, &y, 0);
		} else if (e->op == '-') {
			if (gguf_arr_get(it->va, e->ia, &x, NULL) != 0)
				continue;
			sb_printf(b, "-[%llu] ", (unsigned long long)e->ia);
			sb_val(b, &x, 0);
		} else {
			if (gguf_arr_get(it->vb, e->ib, &y, NULL) != 0)
				continue;
			sb_printf(b, "+[%llu] ", (unsigned long long)e->ib);
			sb_val(b, &y, 0);
		}
		add_line(d, cap, GGUF_DL_DETAIL, idx, b);
		shown++;
	}
	total = it->n_changed + it->n_removed + it->n_added;
	if (total > shown) {
		sb_printf(b, "    ... %s more", gguf_fmt_group(total - shown, g,
		    sizeof g));
		add_line(d, cap, GGUF_DL_DETAIL, idx, b);
	}
}

static void
render_kv(struct gguf_diff *d, size_t *cap, int64_t idx, struct sb *b)
{
	struct gguf_diff_item	*it = &d->items[idx];
	struct gguf_diff_sline	*s;
	char			 t1[32], t2[32], g[3][32];
	int			 kind;
	size_t			 k;
	uint64_t		 nr = 0, na = 0;

	if (it->flags & (GGUF_DF_ADDED | GGUF_DF_REMOVED)) {
		struct gguf_val	*v = it->va != NULL ? it->va : it->vb;

		sb_put(b, it->flags & GGUF_DF_ADDED ? "+ key " : "- key ", 6);
		sb_name(b, it->va != NULL ? it->name_a : it->name_b);
		sb_printf(b, ": %s ", gguf_vtype_text(v->type, v->atype, t1,
		    sizeof t1));
		sb_val(b, v, 1);
		add_line(d, cap, it->flags & GGUF_DF_ADDED ? GGUF_DL_ADD :
		    GGUF_DL_DEL, idx, b);
		return;
	}
	sb_put(b, "~ key ", 6);
	sb_name(b, it->name_a);
	sb_put(b, ": ", 2);
	if (it->flags & GGUF_DF_TYPE) {
		sb_printf(b, "%s ", gguf_vtype_text(it->va->type,
		    it->va->atype, t1, sizeof t1));
		sb_val(b, it->va, 1);
		sb_printf(b, " -> %s ", gguf_vtype_text(it->vb->type,
		    it->vb->atype, t2, sizeof t2));
		sb_val(b, it->vb, 1);
		sb_put(b, " (type changed)", 15);
		add_line(d, cap, GGUF_DL_CHANGE, idx, b);
		return;
	}
	if (it->va->type == GGUF_VT_ARR) {
		if (it->va->count == it->vb->count)
			sb_printf(b, "%s of %s elements differ",
			    gguf_fmt_group(it->n_changed, g[0], sizeof g[0]),
			    gguf_fmt_group(it->va->count, g[1], sizeof g[1]));
		else {
			sb_printf(b, "%s -> %s elements",
			    gguf_fmt_group(it->va->count, g[0], sizeof g[0]),
			    gguf_fmt_group(it->vb->count, g[1], sizeof g[1]));
			if (it->n_changed > 0)
				sb_printf(b, ", %s changed", gguf_fmt_group(
				    it->n_changed, g[2], sizeof g[2]));
			if (it->n_removed > 0)
				sb_printf(b, ", %s removed", gguf_fmt_group(
				    it->n_removed, g[2], sizeof g[2]));
			if (it->n_added > 0)
				sb_printf(b, ", %s added", gguf_fmt_group(
				    it->n_added, g[2], sizeof g[2]));
		}
		add_line(d, cap, GGUF_DL_CHANGE, idx, b);
		render_elems(d, cap, idx, b);
		return;
	}
	if (it->slines == NULL && it->va->type == GGUF_VT_STR &&
	    (multiline(it->va) || multiline(it->vb))) {
		/* the lines are equal: only a final newline differs */
		sb_put(b, "only the final newline differs", 30);
		add_line(d, cap, GGUF_DL_CHANGE, idx, b);
		return;
	}
	if (it->slines == NULL) {
		sb_val(b, it->va, 1);
		sb_put(b, " -> ", 4);
		sb_val(b, it->vb, 1);
		add_line(d, cap, GGUF_DL_CHANGE, idx, b);
		return;
	}
	for (k = 0; k < it->n_slines; k++) {
		nr += it->slines[k].op == '-';
		na += it->slines[k].op == '+';
	}
	sb_printf(b, "%s line%s removed, %s added",
	    gguf_fmt_group(nr, g[0], sizeof g[0]), nr == 1 ? "" : "s",
	    gguf_fmt_group(na, g[1], sizeof g[1]));
	add_line(d, cap, GGUF_DL_CHANGE, idx, b);
	for (k = 0; k < it->n_slines; k++) {
		s = &it->slines[k];
		sb_put(b, "    ", 4);
		if (s->op == '@') {
			sb_printf(b, "@@ -%llu,%llu +%llu,%llu @@",
			    (unsigned long long)s->a0,
			    (unsigned long long)s->an,
			    (unsigned long long)s->b0,
			    (unsigned long long)s->bn);
			kind = GGUF_DL_HUNK;
		} else {
			sb_put(b, &s->op, 1);
			sb_esc(b, s->p, s->n, 0, SIZE_MAX);
			kind = s->op == '-' ? GGUF_DL_LDEL : s->op == '+' ?
			    GGUF_DL_LADD : GGUF_DL_CTX;
		}
		add_line(d, cap, kind, idx, b);
	}
}

static void
render_tensor(struct gguf_diff *d, size_t *cap, int64_t idx, struct sb *b)
{
	struct gguf_diff_item	*it = &d->items[idx];
	char			 t1[24], t2[24], s1[128], s2[128];

	if (it->flags & (GGUF_DF_ADDED | GGUF_DF_REMOVED)) {
		int	add = (it->flags & GGUF_DF_ADDED) != 0;

		sb_put(b, add ? "+ tensor " : "- tensor ", 9);
		sb_name(b, add ? it->name_b : it->name_a);
		sb_printf(b, ": %s %s", gguf_ttype_name(add ? it->type_b :
		    it->type_a, t1), add ? shape_text(it->ne_b, it->dims_b,
		    s1, sizeof s1) : shape_text(it->ne_a, it->dims_a, s1,
		    sizeof s1));
		add_line(d, cap, add ? GGUF_DL_ADD : GGUF_DL_DEL, idx, b);
		return;
	}
	if (it->flags & GGUF_DF_RENAMED) {
		sb_put(b, "> tensor ", 9);
		sb_name(b, it->name_a);
		sb_put(b, " -> ", 4);
		sb_name(b, it->name_b);
		sb_put(b, " (same data, type and shape)", 28);
		add_line(d, cap, GGUF_DL_RENAME, idx, b);
		return;
	}
	sb_put(b, "~ tensor ", 9);
	sb_name(b, it->name_a);
	sb_put(b, ": ", 2);
	if (it->flags & GGUF_DF_UNREAD)
		sb_printf(b, "data not compared (past the end of %s)",
		    it->unread == 3 ? "both files" : it->unread == 1 ?
		    "file A" : "file B");
	if (it->flags & GGUF_DF_DATA)
		sb_printf(b, "data differs (xxh64 %016llx -> %016llx)",
		    (unsigned long long)it->hash_a,
		    (unsigned long long)it->hash_b);
	if (it->flags & GGUF_DF_TYPE)
		sb_printf(b, "type %s -> %s", gguf_ttype_name(it->type_a, t1),
		    gguf_ttype_name(it->type_b, t2));
	if (it->flags & GGUF_DF_SHAPE)
		sb_printf(b, "%sshape %s -> %s",
		    it->flags & GGUF_DF_TYPE ? ", " : "",
		    shape_text(it->ne_a, it->dims_a, s1, sizeof s1),
		    shape_text(it->ne_b, it->dims_b, s2, sizeof s2));
	add_line(d, cap, GGUF_DL_CHANGE, idx, b);
}

static void
render(struct gguf_diff *d, const struct gguf_diff_opts *o)
{
	struct gguf_diff_item	*it;
	struct sb		 b;
	size_t			 cap = 0, i;
	char			 g[32];
	int			 any, first;

	memset(&b, 0, sizeof b);
	if (d->n_items == 0)
		return;
	sb_put(&b, "--- ", 4);
	sb_esc(&b, o->name_a, strlen(o->name_a), 0, SIZE_MAX);
	add_line(d, &cap, GGUF_DL_FILE, -1, &b);
	sb_put(&b, "+++ ", 4);
	sb_esc(&b, o->name_b, strlen(o->name_b), 0, SIZE_MAX);
	add_line(d, &cap, GGUF_DL_FILE, -1, &b);
	for (i = 0; i < d->n_items; i++) {
		it = &d->items[i];
		if (it->what == GGUF_DIFF_HEADER) {
			sb_put(&b, "~ header ", 9);
			sb_name(&b, it->name_a);
			if (strcmp(it->name_a.p, "byte order") == 0)
				sb_printf(&b, ": %s -> %s", it->old ? "big" :
				    "little", it->now ? "big" : "little");
			else
				sb_printf(&b, ": %llu -> %llu",
				    (unsigned long long)it->old,
				    (unsigned long long)it->now);
			add_line(d, &cap, GGUF_DL_HEADER, (int64_t)i, &b);
		} else if (it->what == GGUF_CH_KV)
			render_kv(d, &cap, (int64_t)i, &b);
		else
			render_tensor(d, &cap, (int64_t)i, &b);
	}
	any = 0;
	if (d->header > 0) {
		sb_printf(&b, "header: %s changed", gguf_fmt_group(d->header,
		    g, sizeof g));
		any = 1;
	}
#define COUNT(v, what)							\
	if ((v) > 0) {							\
		sb_printf(&b, "%s %s %s", first ? "" : ",",		\
		    gguf_fmt_group((v), g, sizeof g), (what));		\
		first = 0;						\
	}
	if (d->kv_added + d->kv_removed + d->kv_changed > 0) {
		sb_printf(&b, "%skeys:", any ? "; " : "");
		any = first = 1;
		COUNT(d->kv_added, "added");
		COUNT(d->kv_removed, "removed");
		COUNT(d->kv_changed, "changed");
	}
	if (d->t_added + d->t_removed + d->t_renamed + d->t_changed > 0) {
		sb_printf(&b, "%stensors:", any ? "; " : "");
		any = first = 1;
		COUNT(d->t_added, "added");
		COUNT(d->t_removed, "removed");
		COUNT(d->t_renamed, "renamed");
		COUNT(d->t_changed, "changed");
	}
#undef COUNT
	add_line(d, &cap, GGUF_DL_SUMMARY, -1, &b);
	free(b.s);
}

/* ------------------------------------------------------------------ docs */

static void
header_field(struct gguf_diff *d, size_t *cap, const char *name,
    uint64_t old, uint64_t now)
{
	struct gguf_diff_item	*it;

	if (old == now)
		return;
	it = new_item(d, cap, GGUF_DIFF_HEADER);
	it->name_a.p = name;
	it->name_a.n = strlen(name);
	it->name_b = it->name_a;
	it->old = old;
	it->now = now;
	d->header++;
}

int
gguf_diff_docs(struct gguf_doc *a, struct gguf_doc *b,
    const struct gguf_diff_opts *o, struct gguf_diff *out,
    struct gguf_err *err)
{
	const struct gguf_layout	*la = gguf_layout(gguf_doc_file(a));
	const struct gguf_layout	*lb = gguf_layout(gguf_doc_file(b));
	struct gguf_diff_opts		 opts = *o;
	size_t				 cap = 0;

	memset(out, 0, sizeof *out);
	if (opts.max_elems == 0)
		opts.max_elems = 10;
	if (opts.name_a == NULL)
		opts.name_a = gguf_doc_path(a);
	if (opts.name_b == NULL)
		opts.name_b = gguf_doc_path(b);
	header_field(out, &cap, "version", la->version, lb->version);
	header_field(out, &cap, "byte order", (uint64_t)gguf_doc_be(a),
	    (uint64_t)gguf_doc_be(b));
	header_field(out, &cap, "alignment", la->alignment, lb->alignment);
	diff_kv(a, b, &opts, out, &cap);
	if (diff_tensors(a, b, &opts, out, &cap, err) != 0) {
		gguf_diff_free(out);
		return -1;
	}
	render(out, &opts);
	return 0;
}

void
gguf_diff_free(struct gguf_diff *d)
{
	size_t	i;

	for (i = 0; i < d->n_items; i++) {
		free(d->items[i].elems);
		free(d->items[i].slines);
	}
	for (i = 0; i < d->n_lines; i++)
		free(d->lines[i].text);
	free(d->items);
	free(d->lines);
	memset(d, 0, sizeof *d);
}

/* ---------------------------------------------------------------- values */

struct vpart {
	double		 d2, a2, b2, ab, max;
	uint64_t	 count, nonfinite, ndiff;
};

struct vjob {
	const struct gguf_file		*fa, *fb;
	const struct gguf_tensor	*ta, *tb;
	uint64_t			 ne0, rstep, cstep, ncol, nchunks;
	uint64_t			 next;		/* atomic */
	int				 stop;		/* atomic */
	struct vpart			*parts;
	pthread_mutex_t			 lock;
	int				 rc;
	struct gguf_err			 err;
	gguf_progress_fn		 progress;
	void				*arg;
	uint64_t			 done;		/* elements, under lock */
	uint64_t			 total;
};

static void *
values_worker(void *arg)
{
	struct vjob	*j = arg;
	struct vpart	*p;
	struct gguf_err	 err;
	double		*va, *vb, x, y, dd;
	uint64_t	 k, r, c, nr, nc, nrows = gguf_tensor_nrows(j->ta), i;

	va = xreallocarray(NULL, (size_t)(j->rstep * j->cstep), sizeof *va);
	vb = xreallocarray(NULL, (size_t)(j->rstep * j->cstep), sizeof *vb);
	while (!__atomic_load_n(&j->stop, __ATOMIC_RELAXED) &&
	    (k = __atomic_fetch_add(&j->next, 1, __ATOMIC_RELAXED)) <
	    j->nchunks) {
		r = k / j->ncol * j->rstep;
		c = k % j->ncol * j->cstep;
		nr = nrows - r < j->rstep ? nrows - r : j->rstep;
		nc = j->ne0 - c < j->cstep ? j->ne0 - c : j->cstep;
		memset(&err, 0, sizeof err);
		if (gguf_dequant_rows_f64(j->fa, j->ta, r, nr, c, nc, va,
		    &err) != 0 || gguf_dequant_rows_f64(j->fb, j->tb, r, nr,
		    c, nc, vb, &err) != 0) {
			pthread_mutex_lock(&j->lock);
			if (j->rc == 0) {
				j->rc = -1;
				j->err = err;
			}
			pthread_mutex_unlock(&j->lock);
			__atomic_store_n(&j->stop, 1, __ATOMIC_RELAXED);
			break;
		}
		p = &j->parts[k];
		for (i = 0; i < nr * nc; i++) {
			x = va[i];
			y = vb[i];
			if (!isfinite(x) || !isfinite(y)) {
				p->nonfinite++;
				p->ndiff += memcmp(&x, &y, sizeof x) != 0;
				continue;
			}
			dd = x - y;
			p->count++;
			p->ndiff += x < y || x > y;
			p->d2 += dd * dd;
			p->a2 += x * x;
			p->b2 += y * y;
			p->ab += x * y;
			if (fabs(dd) > p->max)
				p->max = fabs(dd);
		}
		if (j->progress != NULL) {
			pthread_mutex_lock(&j->lock);
			j->done += nr * nc;
			if (j->rc == 0 && j->progress(j->arg, j->done,
			    j->total) != 0) {
				j->rc = -1;
				gguf_errf(&j->err, -1, "cancelled");
				__atomic_store_n(&j->stop, 1, __ATOMIC_RELAXED);
			}
			pthread_mutex_unlock(&j->lock);
		}
	}
	free(va);
	free(vb);
	return NULL;
}

int
gguf_diff_values(const struct gguf_file *fa, const struct gguf_tensor *ta,
    const struct gguf_file *fb, const struct gguf_tensor *tb,
    unsigned threads, gguf_progress_fn progress, void *arg,
    struct gguf_diff_values *out, struct gguf_err *err)
{
	struct vjob	 j;
	struct vpart	 s;
	pthread_t	 tid[MAX_THREADS];
	unsigned	 n = threads ? threads : gguf_ncpu(), i, started = 0;
	uint64_t	 k, nrows;

	memset(out, 0, sizeof *out);
	if (memcmp(ta->ne, tb->ne, sizeof ta->ne) != 0)
		return gguf_errf(err, -1, "the tensors differ in shape");
	memset(&j, 0, sizeof j);
	j.fa = fa;
	j.fb = fb;
	j.ta = ta;
	j.tb = tb;
	j.ne0 = ta->ne[0];
	nrows = gguf_tensor_nrows(ta);
	j.progress = progress;
	j.arg = arg;
	j.total = ta->nelem;
	if (j.ne0 > 0 && nrows > 0) {
		j.rstep = j.ne0 <= CHUNK ? CHUNK / j.ne0 : 1;
		j.cstep = j.ne0 <= CHUNK ? j.ne0 : CHUNK;
		j.ncol = (j.ne0 + j.cstep - 1) / j.cstep;
		j.nchunks = (nrows + j.rstep - 1) / j.rstep * j.ncol;
	}
	j.parts = xcalloc(j.nchunks + 1, sizeof *j.parts);
	pthread_mutex_init(&j.lock, NULL);
	if (n > MAX_THREADS)
		n = MAX_THREADS;
	if ((uint64_t)n > j.nchunks)
		n = j.nchunks > 0 ? (unsigned)j.nchunks : 1;
	if (j.nchunks > 0) {
		for (i = 1; i < n; i++) {
			if (pthread_create(&tid[started], NULL, values_worker,
			    &j) != 0)
				break;
			started++;
		}
		values_worker(&j);
		for (i = 0; i < started; i++)
			pthread_join(tid[i], NULL);
	}
	pthread_mutex_destroy(&j.lock);
	if (j.rc != 0) {
		*err = j.err;
		free(j.parts);
		return -1;
	}
	/* merged in chunk order: the same numbers on any number of threads */
	memset(&s, 0, sizeof s);
	for (k = 0; k < j.nchunks; k++) {
		s.d2 += j.parts[k].d2;
		s.a2 += j.parts[k].a2;
		s.b2 += j.parts[k].b2;
		s.ab += j.parts[k].ab;
		s.count += j.parts[k].count;
		s.nonfinite += j.parts[k].nonfinite;
		s.ndiff += j.parts[k].ndiff;
		if (j.parts[k].max > s.max)
			s.max = j.parts[k].max;
	}
	free(j.parts);
	out->count = s.count;
	out->nonfinite = s.nonfinite;
	out->ndiff = s.ndiff;
	out->max_abs = s.max;
	out->rmse = s.count > 0 ? sqrt(s.d2 / (double)s.count) : NAN;
	out->rel_rmse = s.a2 > 0 ? sqrt(s.d2 / s.a2) : NAN;
	out->cosine = s.a2 > 0 && s.b2 > 0 ? s.ab / sqrt(s.a2 * s.b2) : NAN;
	return 0;
}
