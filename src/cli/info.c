/*
 * info.c - `ggufed info FILE`: what is in a file, at a glance (the facts
 * of summary.h, which the browser's Summary view shows too).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "summary.h"

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
		out_text(stdout, s.p, s.n);
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
	char	g[32], s[32], tb[24];

	printf("%-10s %8llu %18s %10s ", t->type == GGUF_T_COUNT ?
	    "(other)" : gguf_ttype_name(t->type, tb),
	    (unsigned long long)t->count, gguf_fmt_group(t->bytes, g, sizeof g),
	    gguf_fmt_size(t->bytes, s, sizeof s));
	if (t->elems > 0 && t->bytes > 0)
		printf("%8.2f\n", 8.0 * (double)t->bytes / (double)t->elems);
	else
		printf("%8s\n", "-");
}

int
cmd_info(int argc, char **argv)
{
	const struct gguf_layout	*lay;
	const struct gguf_finding	*fd;
	struct gguf_summary		 sum;
	struct gguf_file		*f;
	size_t				 k;
	char				 g[32], s[32];

	if (argc != 2) {
		cli_usage_error("info", "info takes exactly one FILE");
		return EXIT_USAGE;
	}
	if ((f = cli_open(argv[1])) == NULL)
		return EXIT_BADFILE;
	gguf_summary_make(&sum, f, NULL, 0);
	lay = sum.lay;

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
	show_str("architecture", sum.arch);
	show_str("name", sum.name);
	if (sum.has_file_type)
		printf("%-13s%s (%llu)\n", "file type", sum.file_type_name,
		    (unsigned long long)sum.file_type);

	printf("sections\n");
	for (k = 0; k < sum.n_sections; k++)
		show_section(&sum.sections[k]);

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
		printf("\nfindings of the reader (%zu; `ggufed validate` "
		    "checks the model too)\n", sum.n_reader);
		for (k = 0; k < sum.n_reader; k++) {
			fd = &sum.findings[k];
			printf("  %-8s offset 0x%llx: ", gguf_wlevel_name(fd->level),
			    (unsigned long long)fd->off);
			out_msg(stdout, fd->msg);
			putchar('\n');
		}
	}
	gguf_summary_free(&sum);
	gguf_close(f);
	return 0;
}
