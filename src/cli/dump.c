/*
 * dump.c - `ggufed dump [--json] [--max-array N] FILE`: every KV pair and
 * every tensor info, as text or as one JSON document.
 *
 * Array elements are read one by one through the reader's lazy access, so
 * the output streams and memory stays flat whatever the vocabulary size.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "doc.h"

struct dump_opts {
	int		 json;
	int		 max_set;	/* --max-array given */
	uint64_t	 max_array;	/* UINT64_MAX: all */
};

/*
 * The header reserve a save may leave (GGUF_RESERVED_KEY, an array of u8
 * held as padding): one line, not its bytes, unless --max-array asks.
 */
static int
is_reserve(const struct gguf_kv *kv, const struct dump_opts *o)
{
	return !o->max_set && kv->key.n == sizeof GGUF_RESERVED_KEY - 1 &&
	    memcmp(kv->key.p, GGUF_RESERVED_KEY, kv->key.n) == 0 &&
	    kv->val.type == GGUF_VT_ARR && kv->val.atype == GGUF_VT_U8;
}

static int	dump_value(struct gguf_val *, const struct dump_opts *,
		    struct gguf_err *);

static int
dump_array(struct gguf_val *v, const struct dump_opts *o, struct gguf_err *err)
{
	struct gguf_val	e;
	uint64_t	i, n = v->count;
	int		rc = 0;
	char		g[32];

	if (n > o->max_array)
		n = o->max_array;
	fputc('[', stdout);
	for (i = 0; i < n; i++) {
		if (i > 0)
			fputs(", ", stdout);
		if (gguf_arr_get(v, i, &e, err) != 0)
			return -1;
		if (e.type == GGUF_VT_ARR)
			rc = dump_value(&e, o, err);
		else
			out_scalar(stdout, &e, SIZE_MAX);
		gguf_arrix_free(e.ix);
		if (rc != 0)
			return -1;
	}
	if (n < v->count)
		printf("%s... (%s more)", n > 0 ? ", " : "",
		    gguf_fmt_group(v->count - n, g, sizeof g));
	fputc(']', stdout);
	return 0;
}

static int
dump_value(struct gguf_val *v, const struct dump_opts *o, struct gguf_err *err)
{
	char	tb[32], g[32];

	if (v->type != GGUF_VT_ARR) {
		out_scalar(stdout, v, SIZE_MAX);
		return 0;
	}
	printf("%s n=%s ", gguf_vtype_text(v->type, v->atype, tb, sizeof tb),
	    gguf_fmt_group(v->count, g, sizeof g));
	return dump_array(v, o, err);
}

/*
 * A value in JSON: a scalar as itself, an array as {"type": "arr",
 * "elem_type", "count", ["truncated": true,] "values": [...]}.
 */
static int
json_value(struct json *j, struct gguf_val *v, const struct dump_opts *o,
    struct gguf_err *err)
{
	struct gguf_val	e;
	uint64_t	i, n = v->count;
	int		rc;

	if (v->type != GGUF_VT_ARR) {
		json_scalar(j, v);
		return 0;
	}
	if (n > o->max_array)
		n = o->max_array;
	json_obj(j, JSON_FLAT);
	json_key(j, "type");
	json_cstr(j, "arr");
	json_key(j, "elem_type");
	json_cstr(j, gguf_vtype_name(v->atype));
	json_key(j, "count");
	json_u64(j, v->count);
	if (n < v->count) {
		json_key(j, "truncated");
		json_bool(j, 1);
	}
	json_key(j, "values");
	json_arr(j, JSON_FLAT);
	for (i = 0; i < n; i++) {
		if (gguf_arr_get(v, i, &e, err) != 0)
			return -1;
		rc = json_value(j, &e, o, err);
		gguf_arrix_free(e.ix);
		if (rc != 0)
			return -1;
	}
	json_end(j);
	json_end(j);
	return 0;
}

/* Keys are quoted when they hold anything beyond [A-Za-z0-9._-]. */
static void
dump_name(const struct gguf_str *s)
{
	uint64_t	i;

	for (i = 0; i < s->n; i++) {
		char	c = s->p[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-'))
			break;
	}
	if (s->n > 0 && i == s->n)
		fwrite(s->p, 1, s->n, stdout);
	else
		out_quoted(stdout, s->p, s->n);
}

static void
dump_shape(const struct gguf_tensor *t)
{
	uint32_t	d;

	fputc('[', stdout);
	for (d = 0; d < t->n_dims; d++)
		printf("%s%llu", d > 0 ? "," : "", (unsigned long long)t->ne[d]);
	fputc(']', stdout);
}

static int
dump_text(struct gguf_file *f, const struct dump_opts *o, struct gguf_err *err)
{
	const struct gguf_layout	*lay = gguf_layout(f);
	const struct gguf_tensor	*t;
	const struct gguf_warning	*w;
	const struct gguf_file		*sh;
	struct gguf_kv			*kv;
	uint64_t			 i;
	size_t				 k;
	char				 tb[32], g1[32], g2[32];

	printf("# GGUF v%u %s-endian, alignment %u, %s kv pairs, %s "
	    "tensors, data at 0x%llx\n", lay->version, lay->be ? "big" :
	    "little", lay->alignment, gguf_fmt_group(lay->n_kv, g1, sizeof g1),
	    gguf_fmt_group(lay->n_tensors, g2, sizeof g2),
	    (unsigned long long)lay->data_off);
	for (k = 0; k < gguf_n_shards(f); k++) {
		sh = gguf_shard(f, k);
		printf("# shard %zu of %zu ", k + 1, gguf_n_shards(f));
		out_text(stdout, gguf_shard_path(f, k),
		    strlen(gguf_shard_path(f, k)));
		if (sh != NULL)
			printf(", %s bytes, %s tensors\n", gguf_fmt_group(
			    gguf_layout(sh)->file_size, g1, sizeof g1),
			    gguf_fmt_group(gguf_layout(sh)->n_tensors, g2,
			    sizeof g2));
		else
			printf(", not read\n");
	}
	for (i = 0; i < lay->n_kv; i++) {
		kv = gguf_kv_at(f, i);
		printf("kv %llu ", (unsigned long long)i);
		dump_name(&kv->key);
		if (is_reserve(kv, o)) {
			printf(" %s n=%s (the header reserve: padding, not "
			    "shown)", gguf_vtype_text(kv->val.type,
			    kv->val.atype, tb, sizeof tb), gguf_fmt_group(
			    kv->val.count, g1, sizeof g1));
		} else if (kv->val.type == GGUF_VT_ARR) {
			fputc(' ', stdout);
			if (dump_value(&kv->val, o, err) != 0)
				return -1;
		} else {
			printf(" %s ", gguf_vtype_text(kv->val.type,
			    kv->val.atype, tb, sizeof tb));
			out_scalar(stdout, &kv->val, SIZE_MAX);
		}
		putchar('\n');
	}
	for (i = 0; i < lay->n_tensors; i++) {
		t = gguf_tensor_at(f, i);
		printf("tensor %llu ", (unsigned long long)i);
		dump_name(&t->name);
		printf(" %s ", gguf_ttype_name(t->type, tb));
		dump_shape(t);
		printf(" elements=%s bytes=", gguf_fmt_group(t->nelem, g1,
		    sizeof g1));
		if (t->flags & GGUF_TENSOR_UNSIZED)
			fputs("?", stdout);
		else
			fputs(gguf_fmt_group(t->nbytes, g2, sizeof g2), stdout);
		printf(" offset=0x%llx abs=0x%llx",
		    (unsigned long long)t->offset, (unsigned long long)
		    (gguf_layout(gguf_tensor_file(f, t))->data_off + t->offset));
		if (gguf_n_shards(f) > 0)
			printf(" shard=%u", t->shard + 1);
		printf("%s\n", t->flags & GGUF_TENSOR_UNREADABLE ?
		    " unreadable" : "");
	}
	for (k = 0; k < gguf_n_warnings(f); k++) {
		w = gguf_warning_at(f, k);
		printf("%s ", gguf_wlevel_name(w->level));
		if (w->off != GGUF_NO_OFFSET)
			printf("offset=0x%llx ", (unsigned long long)w->off);
		if (w->file != NULL) {		/* a later shard's offset */
			fputs("file=", stdout);
			out_text(stdout, w->file, strlen(w->file));
			putchar(' ');
		}
		out_msg(stdout, w->msg);
		putchar('\n');
	}
	return 0;
}

static int
dump_json(struct gguf_file *f, const char *path, const struct dump_opts *o,
    struct gguf_err *err)
{
	const struct gguf_layout	*lay = gguf_layout(f);
	const struct gguf_tensor	*t;
	const struct gguf_warning	*w;
	const struct gguf_file		*sh;
	struct gguf_kv			*kv;
	struct json			 j;
	uint64_t			 i;
	uint32_t			 d;
	size_t				 k;
	char				 tb[32];

	json_init(&j, stdout);
	json_obj(&j, JSON_LINES);
	json_key(&j, "file");
	json_cstr(&j, path);
	json_key(&j, "version");
	json_u64(&j, lay->version);
	json_key(&j, "byte_order");
	json_cstr(&j, lay->be ? "big" : "little");
	json_key(&j, "alignment");
	json_u64(&j, lay->alignment);
	json_key(&j, "file_size");
	json_u64(&j, lay->file_size);
	json_key(&j, "tensor_info_offset");
	json_u64(&j, lay->ti_off);
	json_key(&j, "data_offset");
	json_u64(&j, lay->data_off);
	if (gguf_n_shards(f) > 0) {
		/* A split model: its files; each tensor names its shard. */
		json_key(&j, "shards");
		json_arr(&j, JSON_LINES);
		for (k = 0; k < gguf_n_shards(f); k++) {
			sh = gguf_shard(f, k);
			json_obj(&j, JSON_FLAT);
			json_key(&j, "shard");
			json_u64(&j, k + 1);
			json_key(&j, "file");
			json_cstr(&j, gguf_shard_path(f, k));
			json_key(&j, "size");
			if (sh != NULL)
				json_u64(&j, gguf_layout(sh)->file_size);
			else
				json_null(&j);
			json_key(&j, "tensors");
			if (sh != NULL)
				json_u64(&j, gguf_layout(sh)->n_tensors);
			else
				json_null(&j);
			json_end(&j);
		}
		json_end(&j);
	}
	json_key(&j, "kv");
	json_arr(&j, JSON_LINES);
	for (i = 0; i < lay->n_kv; i++) {
		kv = gguf_kv_at(f, i);
		json_obj(&j, JSON_FLAT);
		json_key(&j, "key");
		json_str(&j, kv->key.p, kv->key.n);
		json_key(&j, "type");
		json_cstr(&j, gguf_vtype_text(kv->val.type, kv->val.atype, tb,
		    sizeof tb));
		json_key(&j, "value");
		if (is_reserve(kv, o)) {
			json_obj(&j, JSON_FLAT);
			json_key(&j, "type");
			json_cstr(&j, "arr");
			json_key(&j, "elem_type");
			json_cstr(&j, gguf_vtype_name(kv->val.atype));
			json_key(&j, "count");
			json_u64(&j, kv->val.count);
			json_key(&j, "truncated");
			json_bool(&j, 1);
			json_key(&j, "reserve");
			json_bool(&j, 1);
			json_key(&j, "values");
			json_arr(&j, JSON_FLAT);
			json_end(&j);
			json_end(&j);
		} else if (json_value(&j, &kv->val, o, err) != 0)
			return -1;
		json_key(&j, "offset");
		json_u64(&j, kv->off);
		json_end(&j);
	}
	json_end(&j);
	json_key(&j, "tensors");
	json_arr(&j, JSON_LINES);
	for (i = 0; i < lay->n_tensors; i++) {
		t = gguf_tensor_at(f, i);
		json_obj(&j, JSON_FLAT);
		json_key(&j, "name");
		json_str(&j, t->name.p, t->name.n);
		json_key(&j, "type");
		json_cstr(&j, gguf_ttype_name(t->type, tb));
		json_key(&j, "type_id");
		json_u64(&j, t->type);
		json_key(&j, "shape");
		json_arr(&j, JSON_FLAT);
		for (d = 0; d < t->n_dims; d++)
			json_u64(&j, t->ne[d]);
		json_end(&j);
		json_key(&j, "elements");
		json_u64(&j, t->nelem);
		json_key(&j, "bytes");
		if (t->flags & GGUF_TENSOR_UNSIZED)
			json_null(&j);
		else
			json_u64(&j, t->nbytes);
		json_key(&j, "offset");
		json_u64(&j, t->offset);
		json_key(&j, "abs_offset");
		json_u64(&j, gguf_layout(gguf_tensor_file(f, t))->data_off +
		    t->offset);
		if (gguf_n_shards(f) > 0) {
			json_key(&j, "shard");
			json_u64(&j, t->shard + 1);
		}
		json_key(&j, "readable");
		json_bool(&j, !(t->flags & (GGUF_TENSOR_UNREADABLE |
		    GGUF_TENSOR_UNSIZED)));
		json_end(&j);
	}
	json_end(&j);
	json_key(&j, "warnings");
	json_arr(&j, JSON_LINES);
	for (k = 0; k < gguf_n_warnings(f); k++) {
		w = gguf_warning_at(f, k);
		json_obj(&j, JSON_FLAT);
		json_key(&j, "level");
		json_cstr(&j, gguf_wlevel_name(w->level));
		json_key(&j, "offset");
		if (w->off != GGUF_NO_OFFSET)
			json_u64(&j, w->off);
		else
			json_null(&j);
		if (w->file != NULL) {		/* a later shard's offset */
			json_key(&j, "file");
			json_cstr(&j, w->file);
		}
		json_key(&j, "message");
		json_cstr(&j, w->msg);
		json_end(&j);
	}
	json_end(&j);
	json_end(&j);
	json_finish(&j);
	return 0;
}

int
cmd_dump(int argc, char **argv)
{
	struct dump_opts	 o = { 0, 0, UINT64_MAX };
	struct gguf_file	*f;
	struct gguf_err		 err;
	unsigned long long	 n;
	const char		*path = NULL;
	int			 i, rc, dd = 0;

	argc = cli_take_shard(argc, argv);

	for (i = 1; i < argc; i++) {
		const char	*opt = cli_opt(argv[i], &dd);

		if (opt == NULL)
			continue;
		if (strcmp(opt, "--json") == 0)
			o.json = 1;
		else if (strcmp(opt, "--max-array") == 0) {
			if (i + 1 >= argc || cli_parse_u64(argv[i + 1], &n) != 0) {
				cli_usage_error("dump", "--max-array needs a "
				    "number");
				return EXIT_USAGE;
			}
			o.max_array = n;
			o.max_set = 1;
			i++;
		} else if (opt[0] == '-' && opt[1] != '\0') {
			cli_usage_error("dump", "unknown option '%s'", argv[i]);
			return EXIT_USAGE;
		} else if (path == NULL)
			path = argv[i];
		else {
			cli_usage_error("dump", "dump takes one FILE");
			return EXIT_USAGE;
		}
	}
	if (path == NULL) {
		cli_usage_error("dump", "missing FILE");
		return EXIT_USAGE;
	}
	if ((f = cli_open(path)) == NULL)
		return EXIT_BADFILE;
	memset(&err, 0, sizeof err);
	rc = o.json ? dump_json(f, path, &o, &err) : dump_text(f, &o, &err);
	fflush(stdout);
	if (rc != 0)
		cli_file_error(path, &err);
	gguf_close(f);
	return rc != 0 ? EXIT_BADFILE : 0;
}
