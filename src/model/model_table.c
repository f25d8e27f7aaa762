/*
 * model_table.c - assets/models.tsv compiled: once, each section's
 * effective rows (those of *, of its base chain, then its own, a later row
 * of the same kind and name replacing an earlier one) and its lets by
 * name; each row's expressions parsed when a section that has the row is
 * first asked for (a model of one architecture parses its own rows, not
 * the whole table's); and the table held to itself for the tests.
 */
#include "config.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "modelint.h"
#include "schema.h"
#include "xmalloc.h"

/* ------------------------------------------------------------ the table */

static struct crow	*crows;
static struct csect	*csects;
static size_t		 ncsects;
static struct gguf_mrow	*mrows;		/* the table's rows, unpacked */
static unsigned char	*crow_done;	/* row i parsed */
static unsigned char	*csect_done;	/* section k built, its rows parsed */
static size_t		*sect_first;	/* section k's ARCH row */
static size_t		 star_sect = SIZE_MAX;
static pthread_once_t	 compile_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t	 parse_lock = PTHREAD_MUTEX_INITIALIZER;

static void
crow_err(struct crow *c, const char *what, const char *detail)
{
	if (c->err[0] == '\0')
		snprintf(c->err, sizeof c->err, "models.tsv:%u: %s: %s",
		    c->r->line, what, detail);
}

static void
compile_when(struct crow *c, const char *w)
{
	const char	*p = w, *end;
	char		 err[160];
	struct clause	*cl;
	size_t		 n;

	if (w == NULL) {
		c->cl[0].req = 1;
		c->ncl = 1;
		c->can_req = 1;
		return;
	}
	while (*p != '\0') {
		end = strchr(p, ';');
		n = end == NULL ? strlen(p) : (size_t)(end - p);
		while (n > 0 && *p == ' ') {
			p++;
			n--;
		}
		while (n > 0 && p[n - 1] == ' ')
			n--;
		if (c->ncl == MAX_CLAUSES) {
			crow_err(c, "WHEN", "too many clauses");
			return;
		}
		cl = &c->cl[c->ncl++];
		c->can_req |= n >= 3 && memcmp(p, "req", 3) == 0;
		if (n == 4 && memcmp(p, "none", 4) == 0)
			cl->req = -1;
		else if (n >= 3 && (memcmp(p, "req", 3) == 0 ||
		    memcmp(p, "opt", 3) == 0 || memcmp(p, "run", 3) == 0)) {
			cl->req = memcmp(p, "req", 3) == 0;
			cl->run = memcmp(p, "run", 3) == 0;
			if (n > 3) {
				if (n < 7 || memcmp(p + 3, " if ", 4) != 0) {
					crow_err(c, "WHEN", "a clause is req, "
					    "opt, run, none, req if, opt if or "
					    "run if");
					return;
				}
				cl->cond = gguf_mexpr_parse(p + 7, n - 7, err,
				    sizeof err);
				if (cl->cond == NULL) {
					crow_err(c, "WHEN", err);
					return;
				}
			}
		} else {
			crow_err(c, "WHEN", "a clause is req, opt, run, "
			    "none, req if, opt if or run if");
			return;
		}
		if (end == NULL)
			break;
		p = end + 1;
	}
}

static void
compile_types(struct crow *c, const char *s)
{
	const char	*p = s, *end, *semi;
	struct ktype	*kt;
	char		 err[160];
	size_t		 n;

	while (*p != '\0') {
		end = strchr(p, '|');
		n = end == NULL ? strlen(p) : (size_t)(end - p);
		if (c->nkt == MAX_TYPES) {
			crow_err(c, "VALUE", "too many types");
			return;
		}
		kt = &c->kt[c->nkt++];
		semi = memchr(p, ';', n);
		if (semi != NULL && n > 5 && memcmp(p, "arr[", 4) == 0 &&
		    p[n - 1] == ']') {
			char	 t[32];

			snprintf(t, sizeof t, "%.*s]", (int)(semi - p), p);
			if (gguf_vtype_parse_full(t, strlen(t), &kt->type,
			    &kt->atype) != 0) {
				crow_err(c, "VALUE", "unknown type");
				return;
			}
			kt->len = gguf_mexpr_parse(semi + 1,
			    (size_t)(p + n - 1 - (semi + 1)), err, sizeof err);
			if (kt->len == NULL) {
				crow_err(c, "VALUE", err);
				return;
			}
		} else if (gguf_vtype_parse_full(p, n, &kt->type,
		    &kt->atype) != 0) {
			crow_err(c, "VALUE", "unknown type");
			return;
		}
		if (end == NULL)
			break;
		p = end + 1;
	}
}

static void
compile_row(struct crow *c)
{
	const struct gguf_mrow	*r = c->r;
	const char		*p, *comma;
	char			 err[160];
	size_t			 n;

	switch (r->kind) {
	case GGUF_MR_LET:
		if ((c->e[0] = gguf_mexpr_parse(r->value, strlen(r->value), err,
		    sizeof err)) == NULL)
			crow_err(c, "let", err);
		c->ne = 1;
		break;
	case GGUF_MR_NEED:
		if ((c->e[0] = gguf_mexpr_parse(r->name, strlen(r->name), err,
		    sizeof err)) == NULL)
			crow_err(c, "need", err);
		c->ne = 1;
		break;
	case GGUF_MR_VAL:
		/* An integer's EXPR; a float's or string's text does not
		   parse, which only the key's type tells (verify). */
		if (strcmp(r->name, "-") != 0 && strcmp(r->value, "-") != 0)
			c->e[0] = gguf_mexpr_parse(r->value, strlen(r->value),
			    err, sizeof err);
		c->ne = 1;
		break;
	case GGUF_MR_KEY:
		compile_types(c, r->value);
		compile_when(c, r->when);
		break;
	case GGUF_MR_TENSOR:
		c->block = strstr(r->name, "{bid}") != NULL;
		compile_when(c, r->when);
		if (strcmp(r->value, "-") == 0)
			break;
		for (p = r->value; ; p = comma + 1) {
			comma = strchr(p, ',');
			n = comma == NULL ? strlen(p) : (size_t)(comma - p);
			if (c->ne == MAX_DIMS) {
				crow_err(c, "SHAPE", "more than 4 dimensions");
				break;
			}
			if ((c->e[c->ne++] = gguf_mexpr_parse(p, n, err,
			    sizeof err)) == NULL) {
				crow_err(c, "SHAPE", err);
				break;
			}
			if (comma == NULL)
				break;
		}
		break;
	default:
		break;
	}
}

static int
same_row(const struct gguf_mrow *a, const struct gguf_mrow *b)
{
	return a->kind == b->kind && strcmp(a->name, b->name) == 0;
}

/*
 * Row i, unpacked at its first need: a check of one architecture touches
 * the rows of its sections, not the pages of the whole table's (some
 * 15,000 rows: 2 MB of memory that would be faulted in at every start).
 * Under parse_lock.
 */
static struct crow *
row_at(size_t i)
{
	const struct gguf_mrow_packed	*p = &gguf_model_prows[i];

	if (crows[i].r == NULL) {
		mrows[i].kind = p->kind;
		mrows[i].name = gguf_model_strs + p->name;
		mrows[i].value = gguf_model_strs + p->value;
		mrows[i].when = p->when == GGUF_MR_NONE ? NULL :
		    gguf_model_strs + p->when;
		mrows[i].line = p->line;
		crows[i].r = &mrows[i];
	}
	return &crows[i];
}

/* Appends section s's rows (its base's first) to the list. */
static void
gather(size_t s, size_t *first, struct crow ***list, size_t *n,
    size_t *cap, int depth)
{
	size_t	i;

	if (depth > 32)
		return;
	if (csects[s].base >= 0)
		gather((size_t)csects[s].base, first, list, n, cap, depth + 1);
	for (i = first[s] + 1; i < gguf_model_nrows &&
	    gguf_model_prows[i].kind != GGUF_MR_ARCH; i++) {
		if (*n == *cap) {
			*cap = *cap ? *cap * 2 : 64;
			*list = xreallocarray(*list, *cap, sizeof **list);
		}
		(*list)[(*n)++] = row_at(i);
	}
}

static int
let_cmp(const void *a, const void *b)
{
	return strcmp(((const struct clet *)a)->name,
	    ((const struct clet *)b)->name);
}

size_t
gguf_mtable_let(const struct csect *s, const char *name)
{
	struct clet	 key, *hit;

	key.name = name;
	hit = bsearch(&key, s->lets, s->nlets, sizeof *s->lets, let_cmp);
	return hit == NULL ? SIZE_MAX : hit->row;
}

static void
compile_table(void)
{
	const struct gguf_mrow_packed	*p;
	const char			*name, *base;
	size_t				 i, k;

	/* Zeroed, not touched: a row is unpacked at its first need. */
	mrows = xcalloc(gguf_model_nrows + 1, sizeof *mrows);
	crows = xcalloc(gguf_model_nrows + 1, sizeof *crows);
	crow_done = xcalloc(gguf_model_nrows + 1, 1);
	csect_done = xcalloc(gguf_model_nrows + 1, 1);
	sect_first = xcalloc(gguf_model_nrows + 1, sizeof *sect_first);
	csects = xcalloc(gguf_model_nrows + 1, sizeof *csects);
	for (i = 0; i < gguf_model_nrows; i++) {
		p = &gguf_model_prows[i];
		if (p->kind != GGUF_MR_ARCH)
			continue;
		name = gguf_model_strs + p->name;
		base = gguf_model_strs + p->value;
		csects[ncsects].name = name;
		csects[ncsects].base = -1;
		/* Its base ("-": none): the last section of that name. */
		for (k = ncsects; strcmp(base, "-") != 0 && k > 0; k--)
			if (strcmp(csects[k - 1].name, base) == 0) {
				csects[ncsects].base = (int)(k - 1);
				break;
			}
		if (strcmp(name, "*") == 0)
			star_sect = ncsects;
		sect_first[ncsects++] = i;
	}
}

/* Section k's effective rows and lets (under parse_lock). */
static void
build_sect(size_t k)
{
	struct crow	**list = NULL;
	size_t		 i, j, n = 0, cap = 0;

	if (star_sect != SIZE_MAX && k != star_sect)
		gather(star_sect, sect_first, &list, &n, &cap, 0);
	gather(k, sect_first, &list, &n, &cap, 0);
	/* A later row of the same kind and name replaces this one. */
	csects[k].rows = xcalloc(n + 1, sizeof *csects[k].rows);
	for (i = 0; i < n; i++) {
		for (j = i + 1; j < n; j++)
			if (same_row(list[i]->r, list[j]->r))
				break;
		if (j == n)
			csects[k].rows[csects[k].nrows++] = list[i];
	}
	free(list);
	csects[k].lets = xcalloc(csects[k].nrows + 1, sizeof *csects[k].lets);
	for (i = 0; i < csects[k].nrows; i++) {
		if (csects[k].rows[i]->r->kind != GGUF_MR_LET)
			continue;
		csects[k].lets[csects[k].nlets].name =
		    csects[k].rows[i]->r->name;
		csects[k].lets[csects[k].nlets++].row = i;
	}
	qsort(csects[k].lets, csects[k].nlets, sizeof *csects[k].lets,
	    let_cmp);
}

static void
compile(void)
{
	pthread_once(&compile_once, compile_table);
}

/* Parses the rows of section k that are not yet (under parse_lock). */
static void
parse_sect(size_t k)
{
	size_t	i, r;

	pthread_mutex_lock(&parse_lock);
	if (!csect_done[k]) {
		build_sect(k);
		for (i = 0; i < csects[k].nrows; i++) {
			r = (size_t)(csects[k].rows[i] - crows);
			if (crow_done[r])
				continue;
			compile_row(&crows[r]);
			crow_done[r] = 1;
		}
		csect_done[k] = 1;
	}
	pthread_mutex_unlock(&parse_lock);
}

/* Every section built and every row parsed, those no section sees
   included (for the tests). */
static void
parse_all(void)
{
	size_t	i;

	compile();
	for (i = 0; i < ncsects; i++)
		parse_sect(i);
	pthread_mutex_lock(&parse_lock);
	for (i = 0; i < gguf_model_nrows; i++)
		if (!crow_done[i]) {
			compile_row(row_at(i));
			crow_done[i] = 1;
		}
	pthread_mutex_unlock(&parse_lock);
}

size_t
gguf_model_table_parsed(void)
{
	size_t	i, n = 0;

	compile();
	pthread_mutex_lock(&parse_lock);
	for (i = 0; i < gguf_model_nrows; i++)
		n += crow_done[i];
	pthread_mutex_unlock(&parse_lock);
	return n;
}

/* The index of the section of arch[0..n) (its rows maybe not parsed), or
   SIZE_MAX. */
static size_t
find_sect(const char *arch, size_t n)
{
	size_t	k;

	compile();
	for (k = 0; k < ncsects; k++)
		if (strlen(csects[k].name) == n &&
		    memcmp(csects[k].name, arch, n) == 0)
			return k;
	return SIZE_MAX;
}

const struct csect *
gguf_mtable_sect(const char *arch, size_t n)
{
	size_t	k;

	if ((k = find_sect(arch, n)) == SIZE_MAX)
		return NULL;
	parse_sect(k);
	return &csects[k];
}

int
gguf_model_known(const char *arch, size_t n)
{
	if (n == 1 && arch[0] == '*')
		return 0;
	return find_sect(arch, n) != SIZE_MAX;
}

size_t
gguf_model_archs(const char **out, size_t max)
{
	size_t	k, n = 0;

	compile();
	for (k = 0; k < ncsects; k++) {
		if (strcmp(csects[k].name, "*") == 0)
			continue;
		if (n < max)
			out[n] = csects[k].name;
		n++;
	}
	return n;
}

/* The effective row of kind and name in section s, or NULL. */
static const struct crow *
sect_row(const struct csect *s, int kind, const char *name)
{
	size_t	i;

	for (i = 0; i < s->nrows; i++)
		if (s->rows[i]->r->kind == kind &&
		    strcmp(s->rows[i]->r->name, name) == 0)
			return s->rows[i];
	return NULL;
}

int
gguf_model_vals(const char *arch, size_t n, struct gguf_mval *out,
    size_t max, size_t *count, const char **why)
{
	const struct csect	*s, *star, *pass[2];
	const struct crow	*v, *k;
	const char		**names;
	size_t			 i, j, p, nn = 0;

	*count = 0;
	*why = NULL;
	if ((n == 1 && arch[0] == '*') ||
	    (s = gguf_mtable_sect(arch, n)) == NULL)
		return -1;
	star = gguf_mtable_sect("*", 1);
	pass[0] = star;
	pass[1] = s;
	names = xcalloc(s->nrows + (star ? star->nrows : 0) + 1,
	    sizeof *names);
	for (p = 0; p < 2; p++) {
		for (i = 0; pass[p] != NULL && i < pass[p]->nrows; i++) {
			if (pass[p]->rows[i]->r->kind != GGUF_MR_VAL)
				continue;
			for (j = 0; j < nn; j++)
				if (strcmp(names[j],
				    pass[p]->rows[i]->r->name) == 0)
					break;
			if (j == nn)
				names[nn++] = pass[p]->rows[i]->r->name;
		}
	}
	for (j = 0; j < nn; j++) {
		v = sect_row(s, GGUF_MR_VAL, names[j]);
		if (v == NULL)
			continue;
		if (strcmp(names[j], "-") == 0) {
			*why = v->r->value;
			continue;
		}
		k = sect_row(s, GGUF_MR_KEY, names[j]);
		if (k == NULL || strcmp(v->r->value, "-") == 0)
			continue;
		if (*count < max) {
			out[*count].key = names[j];
			out[*count].value = v->r->value;
			out[*count].types = k->r->value;
			out[*count].line = v->r->line;
		}
		(*count)++;
	}
	free(names);
	return *why != NULL;
}

/*
 * A val row against its key's type in section s: an integer or bool (or
 * an array of them) is an EXPR, a float a number, a string any text.
 */
static int
val_ok(const struct csect *s, const struct crow *v, char *why, size_t len)
{
	const struct crow	*k;
	const char		*t;
	char			*end;

	if (strcmp(v->r->name, "-") == 0 || strcmp(v->r->value, "-") == 0)
		return 0;
	if ((k = sect_row(s, GGUF_MR_KEY, v->r->name)) == NULL)
		return 0;		/* not written there */
	t = k->r->value;
	if (strncmp(t, "arr[", 4) == 0)
		t += 4;
	if (strncmp(t, "str", 3) == 0)
		return 0;
	if (strncmp(t, "f32", 3) == 0 || strncmp(t, "f64", 3) == 0) {
		(void)strtod(v->r->value, &end);
		if (end == v->r->value || *end != '\0') {
			snprintf(why, len, "val %s: \"%s\" is no number "
			    "(in section %s)", v->r->name, v->r->value,
			    s->name);
			return -1;
		}
		return 0;
	}
	if (v->e[0] == NULL) {
		snprintf(why, len, "val %s: \"%s\" is no expression "
		    "(in section %s)", v->r->name, v->r->value, s->name);
		return -1;
	}
	return 0;
}

/* Every name an expression uses is a let the section sees (or il). */
static int
names_ok(const struct csect *s, const struct mnode *n, char *why, size_t len)
{
	if (n == NULL)
		return 0;
	if (n->op == OP_LET) {
		if (gguf_mtable_let(s, n->str) == SIZE_MAX) {
			snprintf(why, len, "no parameter %s in section %s",
			    n->str, s->name);
			return -1;
		}
	}
	if (names_ok(s, n->a, why, len) != 0 ||
	    names_ok(s, n->b, why, len) != 0 ||
	    names_ok(s, n->c, why, len) != 0)
		return -1;
	return 0;
}

int
gguf_model_table_verify(char *why, size_t len)
{
	const struct crow	*r;
	size_t			 k, i;
	int			 j, bad = 0;
	char			 w[200];

	parse_all();
	why[0] = '\0';
	for (i = 0; i < gguf_model_nrows; i++) {
		if (crows[i].err[0] == '\0')
			continue;
		if (bad++ == 0)
			snprintf(why, len, "%s", crows[i].err);
	}
	for (k = 0; k < ncsects; k++) {
		for (i = 0; i < csects[k].nrows; i++) {
			r = csects[k].rows[i];
			w[0] = '\0';
			for (j = 0; j < r->ne && w[0] == '\0'; j++)
				names_ok(&csects[k], r->e[j], w, sizeof w);
			for (j = 0; j < r->ncl && w[0] == '\0'; j++)
				names_ok(&csects[k], r->cl[j].cond, w,
				    sizeof w);
			for (j = 0; j < r->nkt && w[0] == '\0'; j++)
				names_ok(&csects[k], r->kt[j].len, w,
				    sizeof w);
			if (r->r->kind == GGUF_MR_VAL && w[0] == '\0')
				val_ok(&csects[k], r, w, sizeof w);
			if (w[0] == '\0')
				continue;
			if (bad++ == 0)
				snprintf(why, len, "models.tsv:%u: %s",
				    r->r->line, w);
		}
	}
	if (gguf_mtable_sect("*", 1) == NULL && bad++ == 0)
		snprintf(why, len, "models.tsv: no * section");
	return bad;
}
