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

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "internal.h"
#include "diff.h"
#include "diffint.h"

#define SHOW_STR	200	/* bytes of a string shown in a line */
#define SHOW_ARR	8	/* elements of an added or removed array shown */
#define LCS_CELLS	(4u << 20)	/* largest line table of a string diff */

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

struct gguf_diff_item *
gguf_diff_new_item(struct gguf_diff *d, size_t *cap, int what)
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
			it = gguf_diff_new_item(d, cap, GGUF_CH_KV);
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
			it = gguf_diff_new_item(d, cap, GGUF_CH_KV);
			it->flags = GGUF_DF_TYPE | GGUF_DF_VALUE;
		} else if (val_eq(ka.val, kb.val))
			continue;
		else {
			it = gguf_diff_new_item(d, cap, GGUF_CH_KV);
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
		it = gguf_diff_new_item(d, cap, GGUF_CH_KV);
		it->flags = GGUF_DF_ADDED;
		it->b = (int64_t)i;
		it->name_b = kb.key;
		it->vb = kb.val;
		d->kv_added++;
	}
	free(seen);
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
	if (d->t_added + d->t_removed + d->t_renamed + d->t_changed +
	    d->t_unread > 0) {
		sb_printf(&b, "%stensors:", any ? "; " : "");
		any = first = 1;
		COUNT(d->t_added, "added");
		COUNT(d->t_removed, "removed");
		COUNT(d->t_renamed, "renamed");
		COUNT(d->t_changed, "changed");
		COUNT(d->t_unread, "not compared");
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
	it = gguf_diff_new_item(d, cap, GGUF_DIFF_HEADER);
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
	if (gguf_diff_tensors(a, b, &opts, out, &cap, err) != 0) {
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
