/*
 * diff.c - `ggufed diff [--data] [--json] [-q] [--threads N] A B`: what
 * differs between two models, typed (src/proof/diff.h): the header, keys
 * added, removed and changed, tensors added, removed, renamed, retyped,
 * reshaped or with other data.
 *
 * The text is the core's lines, which are escaped already. --data also
 * decodes the tensors both files have with the same shape but other
 * bytes and prints, under each, how far the values are apart: max
 * |a - b|, RMSE, RMSE relative to A's root mean square, cosine
 * similarity. --json prints one document with the same content.
 *
 * A shard of a split model stands for its set (core diff.h compares a
 * set as one model); --shard compares the file alone.
 *
 * Exit status as diff(1): 0 the files are equal, 1 they differ, 2
 * trouble (a file cannot be read, a usage error, values that cannot be
 * decoded).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "diff.h"
#include "doc.h"
#include "set.h"

#define EXIT_DIFFER	1
#define EXIT_TROUBLE	2

struct vres {
	int			 done;	/* compared */
	int			 rc;
	struct gguf_diff_values	 v;
	char			 msg[512];
};

/* Whether --data compares item it: both have it, same shape, bytes differ. */
static int
wants_values(const struct gguf_diff_item *it)
{
	return it->what == GGUF_CH_TENSOR && it->a >= 0 && it->b >= 0 &&
	    !(it->flags & (GGUF_DF_RENAMED | GGUF_DF_SHAPE |
	    GGUF_DF_UNREAD)) &&
	    (it->flags & (GGUF_DF_DATA | GGUF_DF_TYPE)) &&
	    memcmp(it->ne_a, it->ne_b, sizeof it->ne_a) == 0;
}

static void
compare_values(struct gguf_doc *a, struct gguf_doc *b,
    const struct gguf_diff_item *it, unsigned threads, struct cli_progress *pr,
    struct vres *r)
{
	struct gguf_doc_tensor	ta, tb;
	struct gguf_err		err;

	memset(&err, 0, sizeof err);
	r->done = 1;
	if (gguf_doc_tensor(a, (uint64_t)it->a, &ta) != 0 ||
	    gguf_doc_tensor(b, (uint64_t)it->b, &tb) != 0) {
		r->rc = -1;
		snprintf(r->msg, sizeof r->msg, "no such tensor");
		return;
	}
	pr->item = it->name_a.p;
	pr->item_len = (size_t)it->name_a.n;
	r->rc = gguf_diff_values(gguf_doc_file(a), ta.t, gguf_doc_file(b),
	    tb.t, threads, pr->tty ? cli_progress : NULL, pr,
	    &r->v, &err);
	cli_progress_clear(pr);
	if (r->rc != 0)
		snprintf(r->msg, sizeof r->msg, "%s", err.msg);
}

static void
print_values(const struct vres *r)
{
	char	g[2][32];

	if (r->rc != 0) {
		fputs("    values: cannot be compared: ", stdout);
		out_msg(stdout, r->msg);
		putchar('\n');
		return;
	}
	printf("    values: max |a-b| %.6g, rmse %.6g, relative rmse %.6g, "
	    "cosine %.6g (%s of %s elements differ", r->v.max_abs, r->v.rmse,
	    r->v.rel_rmse, r->v.cosine,
	    gguf_fmt_group(r->v.ndiff, g[0], sizeof g[0]),
	    gguf_fmt_group(r->v.count + r->v.nonfinite, g[1], sizeof g[1]));
	if (r->v.nonfinite > 0)
		printf("; %s NaN or infinite left out",
		    gguf_fmt_group(r->v.nonfinite, g[0], sizeof g[0]));
	fputs(")\n", stdout);
}

static void
json_shape(struct json *j, const uint64_t ne[GGUF_MAX_DIMS], uint32_t nd)
{
	uint32_t	k;

	json_arr(j, JSON_FLAT);
	for (k = 0; k < nd && k < GGUF_MAX_DIMS; k++)
		json_u64(j, ne[k]);
	json_end(j);
}

static void
json_hash(struct json *j, const char *key, uint64_t h)
{
	char	buf[24];

	snprintf(buf, sizeof buf, "%016llx", (unsigned long long)h);
	json_key(j, key);
	json_cstr(j, buf);
}

/* A value: scalars and strings as themselves, arrays as their count. */
static void
json_value(struct json *j, const char *key, struct gguf_val *v)
{
	char	tb[32];

	json_key(j, key);
	if (v->type != GGUF_VT_ARR) {
		json_scalar(j, v);
		return;
	}
	json_obj(j, JSON_FLAT);
	json_key(j, "type");
	json_cstr(j, gguf_vtype_text(v->type, v->atype, tb, sizeof tb));
	json_key(j, "count");
	json_u64(j, v->count);
	json_end(j);
}

static void
json_elems(struct json *j, const struct gguf_diff_item *it)
{
	const struct gguf_diff_elem	*e;
	struct gguf_val			 x;
	size_t				 k;

	json_key(j, "elements");
	json_arr(j, JSON_LINES);
	for (k = 0; k < it->n_elems; k++) {
		e = &it->elems[k];
		json_obj(j, JSON_FLAT);
		if (e->op != '+') {
			json_key(j, "index_a");
			json_u64(j, e->ia);
		}
		if (e->op != '-') {
			json_key(j, "index_b");
			json_u64(j, e->ib);
		}
		if (e->op != '+' && gguf_arr_get(it->va, e->ia, &x, NULL) == 0)
			json_value(j, "a", &x);
		if (e->op != '-' && gguf_arr_get(it->vb, e->ib, &x, NULL) == 0)
			json_value(j, "b", &x);
		json_end(j);
	}
	json_end(j);
}

static const char *
change_name(unsigned flags)
{
	if (flags & GGUF_DF_ADDED)
		return "added";
	if (flags & GGUF_DF_REMOVED)
		return "removed";
	if (flags & GGUF_DF_RENAMED)
		return "renamed";
	return "changed";
}

static void
json_kv(struct json *j, const struct gguf_diff_item *it)
{
	const struct gguf_diff_sline	*s;
	char				 tb[32], hb[96];
	size_t				 k;

	json_obj(j, JSON_LINES);
	json_key(j, "key");
	if (it->va != NULL)
		json_str(j, it->name_a.p, (size_t)it->name_a.n);
	else
		json_str(j, it->name_b.p, (size_t)it->name_b.n);
	json_key(j, "change");
	json_cstr(j, it->flags & GGUF_DF_TYPE ? "type" :
	    change_name(it->flags));
	json_key(j, "type_a");
	if (it->va != NULL)
		json_cstr(j, gguf_vtype_text(it->va->type, it->va->atype, tb,
		    sizeof tb));
	else
		json_null(j);
	json_key(j, "type_b");
	if (it->vb != NULL)
		json_cstr(j, gguf_vtype_text(it->vb->type, it->vb->atype, tb,
		    sizeof tb));
	else
		json_null(j);
	if (it->va != NULL)
		json_value(j, "a", it->va);
	if (it->vb != NULL)
		json_value(j, "b", it->vb);
	if (it->va != NULL && it->vb != NULL &&
	    it->va->type == GGUF_VT_ARR && !(it->flags & GGUF_DF_TYPE)) {
		json_key(j, "elements_changed");
		json_u64(j, it->n_changed);
		json_key(j, "elements_removed");
		json_u64(j, it->n_removed);
		json_key(j, "elements_added");
		json_u64(j, it->n_added);
		json_elems(j, it);
	}
	if (it->slines != NULL) {
		json_key(j, "diff");
		json_arr(j, JSON_LINES);
		for (k = 0; k < it->n_slines; k++) {
			s = &it->slines[k];
			if (s->op == '@') {
				snprintf(hb, sizeof hb,
				    "@@ -%llu,%llu +%llu,%llu @@",
				    (unsigned long long)s->a0,
				    (unsigned long long)s->an,
				    (unsigned long long)s->b0,
				    (unsigned long long)s->bn);
				json_cstr(j, hb);
				continue;
			}
			/* the line with its mark, as bytes */
			{
				char	*l = xmalloc(s->n + 1);

				l[0] = s->op;
				memcpy(l + 1, s->p, s->n);
				json_str(j, l, s->n + 1);
				free(l);
			}
		}
		json_end(j);
	}
	json_end(j);
}

static void
json_tensor(struct json *j, const struct gguf_diff_item *it,
    const struct vres *r)
{
	char	tb[24];

	json_obj(j, JSON_LINES);
	json_key(j, "tensor");
	if (it->a >= 0)
		json_str(j, it->name_a.p, (size_t)it->name_a.n);
	else
		json_str(j, it->name_b.p, (size_t)it->name_b.n);
	json_key(j, "change");
	json_cstr(j, change_name(it->flags));
	if (it->flags & GGUF_DF_RENAMED) {
		json_key(j, "name_b");
		json_str(j, it->name_b.p, (size_t)it->name_b.n);
	}
	if (it->a >= 0) {
		json_key(j, "type_a");
		json_cstr(j, gguf_ttype_name(it->type_a, tb));
		json_key(j, "shape_a");
		json_shape(j, it->ne_a, it->dims_a);
	}
	if (it->b >= 0) {
		json_key(j, "type_b");
		json_cstr(j, gguf_ttype_name(it->type_b, tb));
		json_key(j, "shape_b");
		json_shape(j, it->ne_b, it->dims_b);
	}
	if (it->a >= 0 && it->b >= 0 && !(it->flags & GGUF_DF_RENAMED)) {
		json_key(j, "type_changed");
		json_bool(j, (it->flags & GGUF_DF_TYPE) != 0);
		json_key(j, "shape_changed");
		json_bool(j, (it->flags & GGUF_DF_SHAPE) != 0);
		json_key(j, "data_changed");
		if (it->flags & GGUF_DF_UNREAD)
			json_null(j);	/* not known: not compared */
		else
			json_bool(j, 1);
	}
	if (it->has_hash) {
		json_hash(j, "xxh64_a", it->hash_a);
		json_hash(j, "xxh64_b", it->hash_b);
	}
	if (r != NULL && r->done) {
		json_key(j, "values");
		json_obj(j, JSON_FLAT);
		if (r->rc != 0) {
			json_key(j, "error");
			json_cstr(j, r->msg);
		} else {
			json_key(j, "count");
			json_u64(j, r->v.count + r->v.nonfinite);
			json_key(j, "differ");
			json_u64(j, r->v.ndiff);
			json_key(j, "nonfinite");
			json_u64(j, r->v.nonfinite);
			json_key(j, "max_abs");
			json_double(j, r->v.max_abs);
			json_key(j, "rmse");
			json_double(j, r->v.rmse);
			json_key(j, "rel_rmse");
			json_double(j, r->v.rel_rmse);
			json_key(j, "cosine");
			json_double(j, r->v.cosine);
		}
		json_end(j);
	}
	json_end(j);
}

static void
print_json(const char *pa, const char *pb, const struct gguf_diff *d,
    const struct vres *vr)
{
	const struct gguf_diff_item	*it;
	struct json			 j;
	size_t				 i;
	int				 pass;

	json_init(&j, stdout);
	json_obj(&j, JSON_LINES);
	json_key(&j, "a");
	json_cstr(&j, pa);
	json_key(&j, "b");
	json_cstr(&j, pb);
	json_key(&j, "equal");
	if (d->n_items > 0 && d->n_items == d->t_unread)
		json_null(&j);		/* data not compared: not known */
	else
		json_bool(&j, d->n_items == 0);
	json_key(&j, "header");
	json_arr(&j, JSON_LINES);
	for (i = 0; i < d->n_items; i++) {
		it = &d->items[i];
		if (it->what != GGUF_DIFF_HEADER)
			continue;
		json_obj(&j, JSON_FLAT);
		json_key(&j, "field");
		json_str(&j, it->name_a.p, (size_t)it->name_a.n);
		json_key(&j, "a");
		json_u64(&j, it->old);
		json_key(&j, "b");
		json_u64(&j, it->now);
		json_end(&j);
	}
	json_end(&j);
	for (pass = 0; pass < 2; pass++) {
		json_key(&j, pass == 0 ? "keys" : "tensors");
		json_arr(&j, JSON_LINES);
		for (i = 0; i < d->n_items; i++) {
			it = &d->items[i];
			if (pass == 0 && it->what == GGUF_CH_KV)
				json_kv(&j, it);
			else if (pass == 1 && it->what == GGUF_CH_TENSOR)
				json_tensor(&j, it, vr != NULL ? &vr[i] :
				    NULL);
		}
		json_end(&j);
	}
	json_key(&j, "summary");
	json_obj(&j, JSON_FLAT);
	json_key(&j, "header");
	json_u64(&j, d->header);
	json_key(&j, "keys_added");
	json_u64(&j, d->kv_added);
	json_key(&j, "keys_removed");
	json_u64(&j, d->kv_removed);
	json_key(&j, "keys_changed");
	json_u64(&j, d->kv_changed);
	json_key(&j, "tensors_added");
	json_u64(&j, d->t_added);
	json_key(&j, "tensors_removed");
	json_u64(&j, d->t_removed);
	json_key(&j, "tensors_renamed");
	json_u64(&j, d->t_renamed);
	json_key(&j, "tensors_changed");
	json_u64(&j, d->t_changed);
	json_end(&j);
	json_end(&j);
	json_finish(&j);
}

static struct gguf_doc *
open_doc(const char *path)
{
	struct gguf_err	 err;
	struct gguf_doc	*d;

	memset(&err, 0, sizeof err);
	/* A shard stands for its whole split set, unless --shard. */
	if ((d = gguf_doc_open_set(path, cli_alone ? GGUF_OPEN_ALONE :
	    GGUF_OPEN_STRICT, &err)) == NULL)
		cli_file_error(path, &err);
	else
		cli_set_warning(path, gguf_doc_file(d));
	return d;
}

int
cmd_diff(int argc, char **argv)
{
	struct gguf_diff_opts	 o;
	struct gguf_diff	 d;
	struct gguf_doc		*da = NULL, *db = NULL;
	struct gguf_err		 err;
	struct cli_progress	 pr;
	struct vres		*vr = NULL;
	const char		*pa = NULL, *pb = NULL;
	unsigned		 threads = 0;
	size_t			 i;
	int			 json = 0, data = 0, quiet = 0, rc;
	int			 trouble = 0, dashdash = 0;

	argc = cli_take_shard(argc, argv);
	for (i = 1; i < (size_t)argc; i++) {
		if (!dashdash && strcmp(argv[i], "--") == 0)
			dashdash = 1;
		else if (!dashdash && strcmp(argv[i], "--json") == 0)
			json = 1;
		else if (!dashdash && strcmp(argv[i], "--data") == 0)
			data = 1;
		else if (!dashdash && (strcmp(argv[i], "-q") == 0 ||
		    strcmp(argv[i], "--quiet") == 0))
			quiet = 1;
		else if (!dashdash && strcmp(argv[i], "--threads") == 0 &&
		    i + 1 < (size_t)argc) {
			if (cli_parse_threads("diff", argv[++i], &threads) != 0)
				return EXIT_TROUBLE;
		} else if (!dashdash && argv[i][0] == '-' && argv[i][1] != '\0') {
			cli_usage_error("diff", "unknown option or missing "
			    "value: '%s'", argv[i]);
			return EXIT_TROUBLE;
		} else if (pa == NULL)
			pa = argv[i];
		else if (pb == NULL)
			pb = argv[i];
		else {
			cli_usage_error("diff", "two files, not more");
			return EXIT_TROUBLE;
		}
	}
	if (pb == NULL) {
		cli_usage_error("diff", "missing FILE%s", pa == NULL ? "s" :
		    " B");
		return EXIT_TROUBLE;
	}
	if (json && quiet) {
		cli_usage_error("diff", "--json and -q exclude each other");
		return EXIT_TROUBLE;
	}
	if ((da = open_doc(pa)) == NULL || (db = open_doc(pb)) == NULL) {
		gguf_doc_free(da);
		return EXIT_TROUBLE;
	}
	memset(&o, 0, sizeof o);
	o.threads = threads;
	o.context = 3;
	o.name_a = pa;
	o.name_b = pb;
	cli_progress_init(&pr, "diff", 0);
	pr.item = "hashing";
	pr.item_len = strlen(pr.item);
	if (pr.tty) {
		o.progress = cli_progress;
		o.arg = &pr;
	}
	memset(&err, 0, sizeof err);
	rc = gguf_diff_docs(da, db, &o, &d, &err);
	cli_progress_clear(&pr);
	if (rc != 0) {
		cli_error("%s", err.msg);
		rc = EXIT_TROUBLE;
		goto out;
	}
	if (data) {
		vr = xcalloc(d.n_items + 1, sizeof *vr);
		for (i = 0; i < d.n_items; i++) {
			if (!wants_values(&d.items[i]))
				continue;
			compare_values(da, db, &d.items[i], threads, &pr,
			    &vr[i]);
			trouble |= vr[i].rc != 0;
		}
	}
	if (json)
		print_json(pa, pb, &d, vr);
	else if (quiet) {
		if (d.n_lines > 0)
			printf("%s\n", d.lines[d.n_lines - 1].text);
	} else
		for (i = 0; i < d.n_lines; i++) {
			printf("%s\n", d.lines[i].text);
			if (vr != NULL && d.lines[i].item >= 0 &&
			    vr[d.lines[i].item].done &&
			    (i + 1 == d.n_lines ||
			    d.lines[i + 1].item != d.lines[i].item))
				print_values(&vr[d.lines[i].item]);
		}
	/* a tensor whose data could not be read: equal or not, unknown */
	rc = trouble || d.t_unread > 0 ? EXIT_TROUBLE : d.n_items > 0 ?
	    EXIT_DIFFER : 0;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		cli_error("write error on standard output");
		rc = EXIT_TROUBLE;
	}
	free(vr);
	gguf_diff_free(&d);
out:
	gguf_doc_free(da);
	gguf_doc_free(db);
	return rc;
}
