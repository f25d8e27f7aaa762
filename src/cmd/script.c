/*
 * script.c - a document's pending changes as a script of the edit
 * language: the lines that, run on the source file by `ggufed edit FILE
 * -i -f SCRIPT`, make the same document again. The browser writes one
 * when it is cut off with unsaved changes (its terminal gone, or killed),
 * so that they are not lost.
 *
 * The script works from the final state (gguf_doc_diff), not from the
 * history of the edits: first the removals, which free names; then the
 * renames, through temporary names when one takes a name that another
 * gives up (a swap); then the values, under their new names, and the
 * added keys in document order; the tensors likewise.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gguf.h"
#include "doc.h"
#include "lang.h"
#include "xmalloc.h"

/*
 * A key or tensor name as the language reads it back: bare when it is
 * printable ASCII without blanks, holds no colon (a type suffix) and
 * does not end like an index; else quoted.
 */
static void
put_name(FILE *fp, const char *p, size_t n)
{
	size_t	 i;
	int	 bare = n > 0 && p[0] != '"' && p[n - 1] != ']';
	char	*q;

	for (i = 0; bare && i < n; i++) {
		if ((unsigned char)p[i] <= 0x20 || (unsigned char)p[i] >= 0x7f ||
		    p[i] == ':')
			bare = 0;
	}
	if (bare) {
		fwrite(p, 1, n, fp);
		return;
	}
	q = gguf_str_cquote(p, n);
	fputs(q, fp);
	free(q);
}

/* An element of an array in the value syntax's JSON array. */
static void
put_elem(FILE *fp, const struct gguf_val *e)
{
	struct gguf_str	s;
	char		buf[64];

	if (e->type == GGUF_VT_STR) {
		if (gguf_val_str(e, &s) != 0)
			s.n = 0;
		gguf_json_str(fp, s.p, (size_t)s.n);
		return;
	}
	fputs(gguf_val_scalar_text(e, buf, sizeof buf), fp);
}

/* A value in the value syntax; 1 if it cannot be written (nested array). */
static int
put_value(FILE *fp, struct gguf_val *v, struct gguf_err *err)
{
	struct gguf_val	 e;
	uint64_t	 i;
	char		*t;

	if (v->type != GGUF_VT_ARR) {
		t = gguf_val_text(v);
		fputs(t, fp);
		free(t);
		return 0;
	}
	if (v->atype == GGUF_VT_ARR)
		return 1;
	fputc('[', fp);
	for (i = 0; i < v->count; i++) {
		if (gguf_arr_get(v, i, &e, err) != 0)
			return -1;
		if (i > 0)
			fputs(", ", fp);
		put_elem(fp, &e);
		gguf_arrix_free(e.ix);
	}
	fputc(']', fp);
	return 0;
}

static int
same_str(const struct gguf_str *a, const struct gguf_str *b)
{
	return a->n == b->n && memcmp(a->p, b->p, (size_t)a->n) == 0;
}

/* Whether a rename of `what` takes a name another rename gives up. */
static int
renames_cross(const struct gguf_change *ch, size_t n, int what)
{
	size_t	i, j;

	for (i = 0; i < n; i++) {
		if (ch[i].what != what || (ch[i].flags & (GGUF_ED_ADDED |
		    GGUF_ED_REMOVED)) || !(ch[i].flags & GGUF_ED_RENAMED))
			continue;
		for (j = 0; j < n; j++) {
			if (j != i && ch[j].what == what &&
			    (ch[j].flags & GGUF_ED_RENAMED) &&
			    !(ch[j].flags & GGUF_ED_ADDED) &&
			    same_str(&ch[i].new_name, &ch[j].old_name))
				return 1;
		}
	}
	return 0;
}

/*
 * The salt that a name "ggufed.tmpS.x" ("ggufed.tmp.x" for 0) keeps from
 * being used: S, or -1 for any other name.
 */
static long
salt_of(const struct gguf_str *s)
{
	static const char	 tag[] = "ggufed.tmp";
	size_t			 t = sizeof tag - 1, k;
	long			 v = 0;

	if ((size_t)s->n <= t || memcmp(s->p, tag, t) != 0)
		return -1;
	if (s->p[t] == '.')
		return 0;
	if (s->p[t] < '1' || s->p[t] > '9')
		return -1;
	for (k = t; k < (size_t)s->n && s->p[k] >= '0' && s->p[k] <= '9' &&
	    v < 1000000; k++)
		v = v * 10 + (s->p[k] - '0');
	return k < (size_t)s->n && s->p[k] == '.' ? v : -1;
}

/*
 * The temporary names' prefix for `what`, "ggufed.tmp." or, if a name of
 * the file or of the edits (any key, or tensor, as it is or as it was)
 * begins so, "ggufed.tmpS." with the smallest S no name begins with.
 */
static void
tmp_prefix(struct gguf_doc *d, int what, char *buf, size_t len)
{
	struct gguf_doc_kv	 kv;
	struct gguf_doc_tensor	 t;
	uint64_t		 i, n;
	unsigned char		*used;
	long			 s;
	size_t			 k;

	n = what == GGUF_CH_KV ? gguf_doc_n_kv(d) : gguf_doc_n_tensors(d);
	/* n + 1 salts for n entries of two names: one is free. */
	used = xcalloc((size_t)(2 * n + 2), 1);
	for (i = 0; i < n; i++) {
		if (what == GGUF_CH_KV) {
			if (gguf_doc_kv(d, i, &kv) != 0)
				continue;
			if ((s = salt_of(&kv.key)) >= 0 && (uint64_t)s <= 2 * n)
				used[s] = 1;
			if (kv.src >= 0 && (s = salt_of(&kv.src_key)) >= 0 &&
			    (uint64_t)s <= 2 * n)
				used[s] = 1;
		} else {
			if (gguf_doc_tensor(d, i, &t) != 0)
				continue;
			if ((s = salt_of(&t.name)) >= 0 && (uint64_t)s <= 2 * n)
				used[s] = 1;
			if (t.t != NULL && (s = salt_of(&t.t->name)) >= 0 &&
			    (uint64_t)s <= 2 * n)
				used[s] = 1;
		}
	}
	for (k = 0; used[k]; k++)
		;
	free(used);
	if (k == 0)
		snprintf(buf, len, "ggufed.tmp.");
	else
		snprintf(buf, len, "ggufed.tmp%zu.", k);
}

/*
 * The renames of `what` (GGUF_CH_KV or GGUF_CH_TENSOR) with the command
 * cmd (mv or rename): straight, or in two steps through temporary names
 * ggufed.tmp.N when they cross (ggufed.tmpS.N when a name of the file or
 * of the edits begins with ggufed.tmp.: see tmp_prefix).
 */
static void
put_renames(FILE *fp, struct gguf_doc *d, const struct gguf_change *ch,
    size_t n, int what, const char *cmd)
{
	size_t	i;
	int	step, cross = renames_cross(ch, n, what);
	char	pre[40];

	if (cross)
		tmp_prefix(d, what, pre, sizeof pre);

	for (step = 0; step < (cross ? 2 : 1); step++) {
		for (i = 0; i < n; i++) {
			if (ch[i].what != what || !(ch[i].flags &
			    GGUF_ED_RENAMED) || (ch[i].flags & (GGUF_ED_ADDED |
			    GGUF_ED_REMOVED)))
				continue;
			fprintf(fp, "%s ", cmd);
			if (cross && step == 1)
				fprintf(fp, "%s%zu", pre, i);
			else
				put_name(fp, ch[i].old_name.p,
				    (size_t)ch[i].old_name.n);
			fputc(' ', fp);
			if (cross && step == 0)
				fprintf(fp, "%s%zu", pre, i);
			else
				put_name(fp, ch[i].new_name.p,
				    (size_t)ch[i].new_name.n);
			fputc('\n', fp);
		}
	}
}

int
lang_script(struct gguf_doc *d, FILE *fp, int *lost, struct gguf_err *err)
{
	struct gguf_change	*ch;
	struct gguf_change	*c;
	size_t			 n, i;
	char			 tb[32];
	int			 rc = 0;

	*lost = 0;
	n = gguf_doc_diff(d, &ch);
	/* Removals first: they free the names that renames may take. */
	for (i = 0; i < n; i++) {
		c = &ch[i];
		if (!(c->flags & GGUF_ED_REMOVED) || (c->flags & GGUF_ED_ADDED))
			continue;
		fputs(c->what == GGUF_CH_TENSOR ? "rm-tensor " : "rm ", fp);
		put_name(fp, c->old_name.p, (size_t)c->old_name.n);
		fputc('\n', fp);
	}
	put_renames(fp, d, ch, n, GGUF_CH_KV, "mv");
	put_renames(fp, d, ch, n, GGUF_CH_TENSOR, "rename");
	/* Values, under their new names; added keys in document order. */
	for (i = 0; i < n && rc >= 0; i++) {
		c = &ch[i];
		if ((c->flags & GGUF_ED_REMOVED) || !(c->flags &
		    (GGUF_ED_VALUE | GGUF_ED_ADDED)))
			continue;
		if (c->what == GGUF_CH_TENSOR) {
			fputs("convert ", fp);
			put_name(fp, c->new_name.p, (size_t)c->new_name.n);
			fprintf(fp, " %s\n", gguf_ttype_name(c->new_type, tb));
			continue;
		}
		if (c->new_val->type == GGUF_VT_ARR &&
		    c->new_val->atype == GGUF_VT_ARR) {
			fputs("# not kept: ", fp);
			put_name(fp, c->new_name.p, (size_t)c->new_name.n);
			fputs(" is an array of arrays, which the edit language "
			    "cannot write\n", fp);
			(*lost)++;
			continue;
		}
		fputs("set ", fp);
		put_name(fp, c->new_name.p, (size_t)c->new_name.n);
		fprintf(fp, ":%s ", gguf_vtype_text(c->new_val->type,
		    c->new_val->atype, tb, sizeof tb));
		rc = put_value(fp, c->new_val, err);
		fputc('\n', fp);
	}
	free(ch);
	if (rc < 0)
		return -1;
	if (ferror(fp) || fflush(fp) != 0)
		return gguf_errf(err, -1, "cannot write the script");
	return (int)n;
}
