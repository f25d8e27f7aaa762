/*
 * info.c - `ggufed info [--json] FILE`: what is in a file, at a glance
 * (the facts of summary.h, which the browser's Summary view shows too), as
 * text or as one JSON document.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "kind.h"
#include "set.h"
#include "summary.h"

#define MAX_SHOWN	200	/* bytes of a name or architecture shown */

static const char *const section_label[] = {
	[GGUF_SEC_HEADER] = "header",
	[GGUF_SEC_KV] = "kv pairs",
	[GGUF_SEC_TINFO] = "tensor infos",
	[GGUF_SEC_PADDING] = "padding",
	[GGUF_SEC_DATA] = "tensor data",
	[GGUF_SEC_TRAILING] = "trailing bytes",
};

static void
show_str(const char *label, struct gguf_val *v)
{
	struct gguf_str	s;

	if (v == NULL)
		return;
	printf("%-13s", label);
	if (gguf_val_str(v, &s) == 0)
		out_text_max(stdout, s.p, s.n, MAX_SHOWN);
	else
		out_scalar(stdout, v, 80);
	putchar('\n');
}

static void
show_section(const struct gguf_sum_section *sec)
{
	uint64_t	n = sec->to - sec->from;
	char		g[32], s[32];

	printf("  %-18s 0x%010llx - 0x%010llx %16s  (%s)\n",
	    section_label[sec->what], (unsigned long long)sec->from,
	    (unsigned long long)sec->to, gguf_fmt_group(n, g, sizeof g),
	    gguf_fmt_size(n, s, sizeof s));
}

static void
show_type(const struct gguf_sum_type *t)
{
	char	c[32], g[32], s[32], tb[24];

	printf("%-10s %8s %18s %10s ", t->type == GGUF_T_COUNT ?
	    "(other)" : gguf_ttype_name(t->type, tb),
	    gguf_fmt_group(t->count, c, sizeof c),
	    gguf_fmt_group(t->bytes, g, sizeof g),
	    gguf_fmt_size(t->bytes, s, sizeof s));
	if (t->elems > 0 && t->bytes > 0)
		printf("%8.2f\n", 8.0 * (double)t->bytes / (double)t->elems);
	else
		printf("%8s\n", "-");
}

/* The machine names of the sections in info --json. */
static const char *const section_key[] = {
	[GGUF_SEC_HEADER] = "header",
	[GGUF_SEC_KV] = "kv",
	[GGUF_SEC_TINFO] = "tensor_info",
	[GGUF_SEC_PADDING] = "padding",
	[GGUF_SEC_DATA] = "data",
	[GGUF_SEC_TRAILING] = "trailing",
};

/* A well-known key's value: a string or a scalar as itself, else null. */
static void
json_known(struct json *j, const char *key, struct gguf_val *v)
{
	json_key(j, key);
	if (v == NULL || v->type == GGUF_VT_ARR)
		json_null(j);
	else
		json_scalar(j, v);
}

/* A split model: each shard, its size and tensors. */
static void
show_shards(const struct gguf_file *f)
{
	const struct gguf_file	*sh;
	size_t			 k;
	char			 g[32], s[32], n[32];

	printf("shards\n");
	for (k = 0; k < gguf_n_shards(f); k++) {
		printf("  %-5zu", k + 1);
		out_text(stdout, gguf_shard_path(f, k),
		    strlen(gguf_shard_path(f, k)));
		if ((sh = gguf_shard(f, k)) == NULL) {
			printf("  not read\n");
			continue;
		}
		printf("  %s bytes (%s), %s tensor%s\n", gguf_fmt_group(
		    gguf_layout(sh)->file_size, g, sizeof g), gguf_fmt_size(
		    gguf_layout(sh)->file_size, s, sizeof s), gguf_fmt_group(
		    gguf_layout(sh)->n_tensors, n, sizeof n),
		    gguf_layout(sh)->n_tensors == 1 ? "" : "s");
	}
}

static void
json_shards(struct json *j, const struct gguf_file *f)
{
	const struct gguf_file	*sh;
	size_t			 k;

	json_key(j, "shards");
	json_arr(j, JSON_LINES);
	for (k = 0; k < gguf_n_shards(f); k++) {
		sh = gguf_shard(f, k);
		json_obj(j, JSON_FLAT);
		json_key(j, "shard");
		json_u64(j, k + 1);
		json_key(j, "file");
		json_cstr(j, gguf_shard_path(f, k));
		json_key(j, "size");
		if (sh != NULL)
			json_u64(j, gguf_layout(sh)->file_size);
		else
			json_null(j);
		json_key(j, "tensors");
		if (sh != NULL)
			json_u64(j, gguf_layout(sh)->n_tensors);
		else
			json_null(j);
		json_end(j);
	}
	json_end(j);
}

/* Everything the text prints, as one JSON document. */
static void
info_json(const char *path, const struct gguf_summary *sum,
    const struct gguf_file *f)
{
	const struct gguf_layout	*lay = sum->lay;
	const struct gguf_sum_section	*sec;
	const struct gguf_sum_type	*t;
	const struct gguf_finding	*fd;
	struct json			 j;
	size_t				 k;
	char				 tb[24];

	json_init(&j, stdout);
	json_obj(&j, JSON_LINES);
	json_key(&j, "file");
	json_cstr(&j, path);
	json_key(&j, "file_size");
	json_u64(&j, lay->file_size);
	if (gguf_n_shards(f) > 0) {
		json_key(&j, "set_size");
		json_u64(&j, gguf_set_size(f));
		json_shards(&j, f);
	}
	json_key(&j, "version");
	json_u64(&j, lay->version);
	json_key(&j, "byte_order");
	json_cstr(&j, lay->be ? "big" : "little");
	json_key(&j, "alignment");
	json_u64(&j, lay->alignment);
	json_key(&j, "kv_count");
	json_u64(&j, lay->n_kv);
	json_key(&j, "tensor_count");
	json_u64(&j, lay->n_tensors);
	json_known(&j, "architecture", sum->arch);
	json_key(&j, "kind");
	json_cstr(&j, gguf_kind_id((enum gguf_kind)sum->kind));
	if (sum->kind_text[0] != '\0') {
		json_key(&j, "kind_text");
		json_cstr(&j, sum->kind_text);
	}
	json_known(&j, "name", sum->name);
	json_key(&j, "file_type");
	if (sum->has_file_type) {
		json_obj(&j, JSON_FLAT);
		json_key(&j, "id");
		json_u64(&j, sum->file_type);
		json_key(&j, "name");
		json_cstr(&j, sum->file_type_name);
		json_end(&j);
	} else
		json_null(&j);

	json_key(&j, "sections");
	json_arr(&j, JSON_LINES);
	for (k = 0; k < sum->n_sections; k++) {
		sec = &sum->sections[k];
		json_obj(&j, JSON_FLAT);
		json_key(&j, "section");
		json_cstr(&j, section_key[sec->what]);
		json_key(&j, "from");
		json_u64(&j, sec->from);
		json_key(&j, "to");
		json_u64(&j, sec->to);
		json_key(&j, "bytes");
		json_u64(&j, sec->to - sec->from);
		json_end(&j);
	}
	json_end(&j);

	json_key(&j, "model");
	json_obj(&j, JSON_LINES);
	for (k = 0; k < sum->n_hp; k++) {
		json_key(&j, sum->hp[k].id);
		json_cstr(&j, sum->hp[k].text);
	}
	json_end(&j);
	json_key(&j, "parameters");
	json_u64(&j, sum->params);
	json_key(&j, "tensor_bytes");
	json_u64(&j, sum->tensor_bytes);
	json_key(&j, "types");
	json_arr(&j, JSON_LINES);
	for (k = 0; k < sum->n_types; k++) {
		t = &sum->types[k];
		json_obj(&j, JSON_FLAT);
		json_key(&j, "type");
		if (t->type == GGUF_T_COUNT)
			json_null(&j);
		else
			json_cstr(&j, gguf_ttype_name(t->type, tb));
		json_key(&j, "type_id");
		if (t->type == GGUF_T_COUNT)
			json_null(&j);
		else
			json_u64(&j, t->type);
		json_key(&j, "tensors");
		json_u64(&j, t->count);
		json_key(&j, "bytes");
		json_u64(&j, t->bytes);
		json_key(&j, "elements");
		json_u64(&j, t->elems);
		json_key(&j, "bpw");
		if (t->elems > 0 && t->bytes > 0)
			json_double(&j, 8.0 * (double)t->bytes /
			    (double)t->elems);
		else
			json_null(&j);
		json_end(&j);
	}
	json_end(&j);

	json_key(&j, "findings");
	json_arr(&j, JSON_LINES);
	for (k = 0; k < sum->n_reader; k++) {
		fd = &sum->findings[k];
		json_obj(&j, JSON_FLAT);
		json_key(&j, "file");	/* the file its offset is in */
		json_cstr(&j, fd->file != NULL ? fd->file : path);
		json_key(&j, "level");
		json_cstr(&j, gguf_wlevel_name(fd->level));
		json_key(&j, "offset");
		if (fd->off >= 0)
			json_i64(&j, fd->off);
		else
			json_null(&j);
		json_key(&j, "message");
		json_cstr(&j, fd->msg);
		json_end(&j);
	}
	json_end(&j);
	json_end(&j);
	json_finish(&j);
}

int
cmd_info(int argc, char **argv)
{
	const struct gguf_layout	*lay;
	const struct gguf_finding	*fd;
	struct gguf_summary		 sum;
	struct gguf_file		*f;
	const char			*path = NULL, *sp, *sb;
	size_t				 k;
	int				 i, json = 0, dd = 0;
	char				 g[32], s[32];

	argc = cli_take_shard(argc, argv);

	for (i = 1; i < argc; i++) {
		const char	*opt = cli_opt(argv[i], &dd);

		if (opt == NULL)
			continue;
		if (strcmp(opt, "--json") == 0)
			json = 1;
		else if (opt[0] == '-' && opt[1] != '\0') {
			cli_usage_error("info", "unknown option '%s'", argv[i]);
			return EXIT_USAGE;
		} else if (path == NULL)
			path = argv[i];
		else {
			cli_usage_error("info", "info takes exactly one FILE");
			return EXIT_USAGE;
		}
	}
	if (path == NULL) {
		cli_usage_error("info", "missing FILE");
		return EXIT_USAGE;
	}
	if ((f = cli_open(path)) == NULL)
		return EXIT_BADFILE;
	gguf_summary_make(&sum, f, NULL, 0);
	lay = sum.lay;
	if (json) {
		info_json(path, &sum, f);
		goto out;
	}

	printf("%-13s", "file");
	out_text(stdout, path, strlen(path));
	if (gguf_n_shards(f) > 0) {
		printf("\n%-13s%s bytes (%s) in %zu shards\n", "size",
		    gguf_fmt_group(gguf_set_size(f), g, sizeof g),
		    gguf_fmt_size(gguf_set_size(f), s, sizeof s),
		    gguf_n_shards(f));
		show_shards(f);
	} else
		printf("\n%-13s%s bytes (%s)\n", "size",
		    gguf_fmt_group(lay->file_size, g, sizeof g),
		    gguf_fmt_size(lay->file_size, s, sizeof s));
	printf("%-13sGGUF v%u, %s-endian\n", "format", lay->version,
	    lay->be ? "big" : "little");
	printf("%-13s%u\n", "alignment", lay->alignment);
	printf("%-13s%s\n", "kv pairs", gguf_fmt_group(lay->n_kv, g, sizeof g));
	printf("%-13s%s\n", "tensors", gguf_fmt_group(lay->n_tensors, g,
	    sizeof g));
	if (sum.kind_text[0] != '\0')
		printf("%-13s%s\n", "kind", sum.kind_text);
	show_str("architecture", sum.arch);
	show_str("name", sum.name);
	if (sum.has_file_type)
		printf("%-13s%s (%llu)\n", "file type", sum.file_type_name,
		    (unsigned long long)sum.file_type);

	/* A set's sections are its first shard's: say whose. */
	if (gguf_n_shards(f) > 0) {
		sp = gguf_shard_path(f, 0);
		sb = strrchr(sp, '/') != NULL ? strrchr(sp, '/') + 1 : sp;
		printf("sections     of shard 1, ");
		out_text(stdout, sb, strlen(sb));
		putchar('\n');
	} else
		printf("sections\n");
	for (k = 0; k < sum.n_sections; k++)
		show_section(&sum.sections[k]);
	if (sum.n_hp > 0)
		printf("model\n");
	for (k = 0; k < sum.n_hp; k++) {
		printf("  %-18s ", sum.hp[k].label);
		out_text(stdout, sum.hp[k].text, strlen(sum.hp[k].text));
		putchar('\n');
	}

	if (lay->n_tensors > 0) {
		printf("%-13s%s", "parameters", gguf_fmt_group(sum.params, g,
		    sizeof g));
		if (*gguf_fmt_scaled(sum.params, s, sizeof s) != '\0')
			printf(" (%s)", s);
		printf("\n\n%-10s %8s %18s %10s %8s\n", "type", "tensors",
		    "bytes", "", "bpw");
		for (k = 0; k < sum.n_types; k++)
			show_type(&sum.types[k]);
	}

	if (sum.n_reader > 0) {
		printf("\nfindings of the reader (%s; `ggufed validate` "
		    "checks the model too)\n", gguf_fmt_group(sum.n_reader, g,
		    sizeof g));
		for (k = 0; k < sum.n_reader; k++) {
			fd = &sum.findings[k];
			printf("  %-8s offset 0x%llx", gguf_wlevel_name(fd->level),
			    (unsigned long long)fd->off);
			if (fd->file != NULL) {		/* a later shard's */
				fputs(" of ", stdout);
				out_text(stdout, fd->file, strlen(fd->file));
			}
			fputs(": ", stdout);
			out_msg(stdout, fd->msg);
			putchar('\n');
		}
	}
out:
	gguf_summary_free(&sum);
	gguf_close(f);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		cli_error("writing the summary: output error");
		return EXIT_BADFILE;
	}
	return 0;
}
