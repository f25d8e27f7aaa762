/*
 * info.c - `ggufed info FILE`: what is in a file, at a glance.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

struct type_row {
	uint64_t	count;
	uint64_t	bytes;
	uint64_t	elems;
};

static void
show_str_key(struct gguf_file *f, const char *label, const char *key)
{
	struct gguf_val	*v = gguf_kv_get(f, key);
	struct gguf_str	 s;

	if (v == NULL)
		return;
	printf("%-13s", label);
	if (gguf_val_str(v, &s) == 0)
		out_text(stdout, s.p, s.n);
	else
		out_scalar(stdout, v, 80);
	putchar('\n');
}

static void
show_section(const char *label, uint64_t from, uint64_t to)
{
	char	g[32], s[32];

	printf("  %-18s 0x%010llx - 0x%010llx %16s  (%s)\n", label,
	    (unsigned long long)from, (unsigned long long)to,
	    gguf_fmt_group(to - from, g, sizeof g), gguf_fmt_size(to - from, s, sizeof s));
}

int
cmd_info(int argc, char **argv)
{
	const struct gguf_layout	*lay;
	const struct gguf_tensor	*t;
	const struct gguf_warning	*w;
	struct gguf_file		*f;
	struct gguf_val			*v;
	struct type_row			*rows;
	uint64_t			 i, params = 0, ft;
	size_t				 n_types = GGUF_T_COUNT + 1, k;
	char				 g[32], s[32], tb[24];

	if (argc == 2 && strcmp(argv[1], "--help") == 0) {
		cli_usage_error("info", "show a summary of a GGUF file");
		return 0;
	}
	if (argc != 2) {
		cli_usage_error("info", "info takes exactly one FILE");
		return EXIT_USAGE;
	}
	if ((f = cli_open(argv[1])) == NULL)
		return EXIT_BADFILE;
	lay = gguf_layout(f);

	printf("%-13s", "file");
	out_text(stdout, argv[1], strlen(argv[1]));
	printf("\n%-13s%s bytes (%s)\n", "size",
	    gguf_fmt_group(lay->file_size, g, sizeof g),
	    gguf_fmt_size(lay->file_size, s, sizeof s));
	printf("%-13sGGUF v%u, %s-endian\n", "format", lay->version,
	    lay->be ? "big" : "little");
	printf("%-13s%u\n", "alignment", lay->alignment);
	printf("%-13s%llu\n", "kv pairs", (unsigned long long)lay->n_kv);
	printf("%-13s%llu\n", "tensors", (unsigned long long)lay->n_tensors);
	show_str_key(f, "architecture", "general.architecture");
	show_str_key(f, "name", "general.name");
	v = gguf_kv_get(f, "general.file_type");
	if (v != NULL && gguf_val_u64(v, &ft) == 0)
		printf("%-13s%s (%llu)\n", "file type",
		    gguf_file_type_name((uint32_t)ft) != NULL && ft <= UINT32_MAX
		    ? gguf_file_type_name((uint32_t)ft) : "unknown",
		    (unsigned long long)ft);

	printf("sections\n");
	show_section("header", 0, lay->kv_off);
	show_section("kv pairs", lay->kv_off, lay->ti_off);
	show_section("tensor infos", lay->ti_off, lay->ti_end);
	if (lay->n_tensors > 0) {
		show_section("padding", lay->ti_end,
		    lay->data_off < lay->file_size ? lay->data_off :
		    lay->file_size);
		if (lay->data_off <= lay->file_size)
			show_section("tensor data", lay->data_off,
			    lay->file_size);
	} else if (lay->ti_end < lay->file_size)
		show_section("trailing bytes", lay->ti_end, lay->file_size);

	rows = calloc(n_types, sizeof *rows);
	if (rows == NULL) {
		cli_error("out of memory");
		gguf_close(f);
		return EXIT_BADFILE;
	}
	for (i = 0; i < lay->n_tensors; i++) {
		t = gguf_tensor_at(f, i);
		k = t->type < GGUF_T_COUNT ? t->type : GGUF_T_COUNT;
		rows[k].count++;
		rows[k].bytes += t->nbytes;
		rows[k].elems += t->nelem;
		params += t->nelem;
	}
	if (lay->n_tensors > 0) {
		printf("%-13s%s", "parameters", gguf_fmt_group(params, g, sizeof g));
		if (params >= 1000000000ULL)
			printf(" (%.2f B)", (double)params / 1e9);
		else if (params >= 1000000ULL)
			printf(" (%.2f M)", (double)params / 1e6);
		else if (params >= 1000ULL)
			printf(" (%.2f K)", (double)params / 1e3);
		printf("\n\n%-10s %8s %18s %10s %8s\n", "type", "tensors",
		    "bytes", "", "bpw");
		for (k = 0; k < n_types; k++) {
			if (rows[k].count == 0)
				continue;
			printf("%-10s %8llu %18s %10s ", k == GGUF_T_COUNT ?
			    "(other)" : gguf_ttype_name((uint32_t)k, tb),
			    (unsigned long long)rows[k].count,
			    gguf_fmt_group(rows[k].bytes, g, sizeof g),
			    gguf_fmt_size(rows[k].bytes, s, sizeof s));
			if (rows[k].elems > 0 && rows[k].bytes > 0)
				printf("%8.2f\n", 8.0 * (double)rows[k].bytes /
				    (double)rows[k].elems);
			else
				printf("%8s\n", "-");
		}
	}
	free(rows);

	if (gguf_n_warnings(f) > 0) {
		printf("\nfindings of the reader (%zu; `ggufed validate` "
		    "checks the model too)\n", gguf_n_warnings(f));
		for (k = 0; k < gguf_n_warnings(f); k++) {
			w = gguf_warning_at(f, k);
			printf("  %-8s offset 0x%llx: ", gguf_wlevel_name(w->level),
			    (unsigned long long)w->off);
			out_msg(stdout, w->msg);
			putchar('\n');
		}
	}
	gguf_close(f);
	return 0;
}
