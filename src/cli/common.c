/*
 * common.c - what the subcommands share: the table of commands (name,
 * usage, help, options, an example) and the help printed from it, errors on stderr as one line each, naming the program,
 * the file and, for a corrupt file, the offset, and what a save left
 * beside a file (running, interrupted) said by every command reading it.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "doc.h"
#include "io.h"
#include "cmd/lang.h"
#include "model.h"
#include "save.h"
#include "set.h"

const char	*cli_prog = "ggufed";
int		 cli_alone;

/*
 * The options of each command, as its parser accepts them. A row for a
 * new command, or an option added to a parser, goes here too: --help and
 * the manual are held to these lists.
 */
/* Every command that reads a model: a shard alone, not its split set. */
#define SHARD_OPT \
	{ "--shard, --no-set", "a shard of a split model alone, not the " \
	    "whole set" }

static const struct cli_opt info_opts[] = {
	{ "--json", "print one JSON document" },
	SHARD_OPT,
	{ NULL, NULL }
};

static const struct cli_opt recover_opts[] = {
	{ NULL, NULL }
};

static const struct cli_opt dump_opts[] = {
	{ "--json", "print one JSON document" },
	{ "--max-array N", "at most N elements of each array" },
	SHARD_OPT,
	{ NULL, NULL }
};

static const struct cli_opt get_opts[] = {
	{ "--json", "print {\"type\": ..., \"value\": ...}" },
	{ "--raw", "a string's exact bytes, unescaped (not to a terminal)" },
	SHARD_OPT,
	{ NULL, NULL }
};

static const struct cli_opt cat_opts[] = {
	{ "--rows A:B", "rows A to B-1 (A:, :B, or N for row N alone)" },
	{ "--cols A:B", "columns A to B-1, the same way" },
	{ "--slice I,J", "count rows within matrix I of dim 2, J of dim 3" },
	{ "--raw", "what the blocks store: scales, quants, bit patterns" },
	SHARD_OPT,
	{ NULL, NULL }
};

static const struct cli_opt stats_opts[] = {
	{ "--all", "one line for each tensor of the file" },
	{ "--rows A:B", "only these rows, as for cat" },
	{ "--json", "print one JSON document" },
	{ "--threads N", "N threads; 0, the default, uses every CPU" },
	SHARD_OPT,
	{ NULL, NULL }
};

static const struct cli_opt tokens_opts[] = {
	{ "--id N", "only token N (may be repeated; in the order given)" },
	{ "--text STRING", "only the tokens whose text is exactly STRING" },
	{ "--grep REGEX", "only the tokens whose text REGEX (PCRE2) matches" },
	{ "--encode TEXT", "the tokens TEXT splits into, longest matches "
	    "first (as the browser's text -> ids)" },
	{ "--json", "print one JSON document" },
	SHARD_OPT,
	{ NULL, NULL }
};

static const struct cli_opt validate_opts[] = {
	{ "--data", "also scan every value: NaN, Inf, bad scales, all zeros" },
	{ "--strict", "warnings fail too" },
	{ "--json", "a JSON array, one object per file" },
	{ "-q, --quiet", "only the summary lines" },
	{ "--threads N", "threads for --data, as for stats" },
	{ "--base MODEL", "check an adapter, control vector or projector "
	    "against the model it is for" },
	SHARD_OPT,
	{ NULL, NULL }
};

static const struct cli_opt mem_opts[] = {
	{ "-c N,..., --ctx N,...", "these contexts (Nk: N x 1024, 0: the training "
	    "one); default 4k, 8k, 16k, 32k, 128k and the training context" },
	{ "-ctk T, --cache-type-k T", "K cache type: f32, f16 (default), bf16, q8_0, "
	    "q4_0, q4_1, iq4_nl, q5_0, q5_1" },
	{ "-ctv T, --cache-type-v T", "V cache type, the same" },
	{ "-np N, --parallel N", "N parallel sequences (1 to 256), a stream each" },
	{ "--swa-full", "full-size cache for sliding-window layers" },
	{ "-ngl N, --gpu-layers N", "split GPU / CPU as llama.cpp's -ngl N ("
	    "all: every layer; max: the most that fit, with --fit)" },
	{ "--cpu-moe", "with -ngl: every MoE expert tensor on the CPU, "
	    "as llama.cpp's" },
	{ "-ncmoe N, --n-cpu-moe N", "with -ngl: the expert tensors of the "
	    "first N layers on the CPU (max: the fewest that fit, with --fit)" },
	{ "-ot REGEX=BUFTYPE,..., --override-tensor REGEX=BUFTYPE,...",
	    "with -ngl: the tensors whose name REGEX matches on BUFTYPE "
	    "(CPU, CUDA0, ...); the first rule to match wins" },
	{ "-mm FILE, --mmproj FILE", "add the weights of the projector FILE "
	    "(on the GPU, as llama.cpp's)" },
	{ "--no-mmproj-offload", "the projector on the CPU" },
	{ "-fa on|off|auto, --flash-attn on|off|auto", "flash attention in "
	    "the compute graph (auto, the default: on, on the CPU)" },
	{ "-b N, --batch-size N", "logical batch (default 2048)" },
	{ "-ub N, --ubatch-size N", "micro-batch of the compute graph "
	    "(default 512)" },
	{ "--fit SIZE", "the largest context whose weights, cache, output and "
	    "compute buffer fit in SIZE "
	    "bytes (" CLI_SIZE_UNITS "); with --gpu-layers, SIZE is the "
	    "GPU's" },
	{ "--json", "print one JSON document" },
	{ "--keys", "list the architectures modelled and every key read, "
	    "with a value that changes it (no FILE)" },
	SHARD_OPT,
	{ NULL, NULL }
};

static const struct cli_opt hash_opts[] = {
	{ "--xxh64", "xxh64 of each tensor's data and of all (the default)" },
	{ "--xxh3", "xxh3 (64 bits) the same way" },
	{ "--sha1", "sha1 the same way" },
	{ "--sha256", "sha256 the same way" },
	{ "--uuid", "the model's UUIDv5, as llama.cpp derives it" },
	{ "--all", "xxh64, xxh3, sha1 and sha256" },
	{ "--no-layer", "only the lines over all tensors, none per tensor" },
	{ "-c MANIFEST, --check MANIFEST", "verify against a manifest "
	    "(ggufed's or llama-gguf-hash's)" },
	{ "--file", "the whole file's sha256, as sha256sum prints it" },
	{ "--json", "print one JSON document" },
	SHARD_OPT,
	{ NULL, NULL }
};

static const struct cli_opt diff_opts[] = {
	{ "--data", "also compare the values of tensors whose bytes differ: "
	    "max |a-b|, RMSE, cosine" },
	{ "--json", "print one JSON document" },
	{ "-q, --quiet", "only the last line: the counts of what differs" },
	{ "--threads N", "threads for hashing and --data, as for stats" },
	SHARD_OPT,
	{ NULL, NULL }
};

static const struct cli_opt template_opts[] = {
	{ "--messages JSON", "the conversation, a JSON array of messages "
	    "(@FILE, @- read it; default: a sample of system, user, "
	    "assistant, user)" },
	{ "--tools JSON", "the tools, a JSON array (default: none)" },
	{ "--add-generation-prompt", "end with the prompt for the "
	    "assistant's answer" },
	{ "--name NAME", "the template tokenizer.chat_template.NAME" },
	{ "--template-file PATH", "render this template instead of the "
	    "model's (- for stdin)" },
	{ "--var KEY=JSON", "one more value of the context; repeatable" },
	{ NULL, NULL }
};

static const struct cli_opt sync_opts[] = {
	{ "--from DIR", "the upstream repository's folder (config.json, "
	    "tokenizer_config.json, ...), or hf://OWNER/REPO[@REV]" },
	{ "-i, --in-place", "apply the differences to FILE" },
	{ "-o OUT, --output OUT", "apply them to a copy, OUT" },
	{ "--only KEY,...", "only the differences of these keys" },
	{ "--json", "print one JSON document" },
	{ NULL, NULL }
};

/* Where an edit goes, and how: every command that changes a file. */
#define SAVE_OPTS \
	{ "-i, --in-place", "save over FILE" }, \
	{ "-o OUT, --output OUT", "write the result to OUT" }, \
	{ "-n, --dry-run", "write nothing; print the changes and how " \
	    "it would save" }, \
	{ "-v, --verbose", "print the changes before saving" }, \
	{ "-q, --quiet", "no line saying how the file was saved" }, \
	{ "--rewrite", "always write a new file, never save in place" }, \
	{ "--reserve BYTES", "a header BYTES larger, for edits in " \
	    "place later (0: none; " CLI_SIZE_UNITS ")" }, \
	{ "--force", "go ahead where a save or a value is " \
	    "refused (see ggufed(1))" }, \
	{ "--strict", "save nothing if llama.cpp would refuse the " \
	    "result (else a warning)" }, \
	{ "--verify", "after the save, prove each copied tensor's data " \
	    "unchanged (xxh64)" }, \
	{ "--shard, --no-set", "a shard of a split model alone, not the " \
	    "whole set" }, \
	{ NULL, NULL }

static const struct cli_opt edit_opts[] = {
	{ "-e CMD", "an edit command (set, rm, mv, ...); repeatable" },
	{ "-f SCRIPT", "the commands of SCRIPT, one a line (- for stdin)" },
	SAVE_OPTS
};

static const struct cli_opt save_opts[] = {
	SAVE_OPTS
};

static const struct cli_opt rm_opts[] = {
	{ "--if-exists", "a key that is not there is no error (exit 0)" },
	SAVE_OPTS
};

static const struct cli_opt split_opts[] = {
	{ "--max-size SIZE", "at most SIZE bytes of tensor data a shard "
	    "(" CLI_SIZE_UNITS ")" },
	{ "--max-tensors N", "at most N tensors a shard (the default: 128)" },
	{ "--no-tensor-first-split", "the first shard holds the metadata "
	    "only" },
	{ "-e CMD", "an edit command applied before splitting; repeatable" },
	{ "--strict", "write nothing if llama.cpp would refuse the edited "
	    "model (else a warning)" },
	{ "--force", "write over existing files" },
	{ "-q, --quiet", "no line for each file written" },
	{ NULL, NULL }
};

static const struct cli_opt merge_opts[] = {
	{ "-e CMD", "an edit command applied to the merged model; "
	    "repeatable" },
	{ "--strict", "write nothing if llama.cpp would refuse the edited "
	    "model (else a warning)" },
	{ "--force", "write over an existing file" },
	{ "-q, --quiet", "no line saying what was written" },
	{ NULL, NULL }
};

static const struct cli_opt new_opts[] = {
	{ "-o OUT, --output OUT", "where the model goes" },
	{ "-e CMD", "an edit command: those of keys before the tensors are "
	    "made, those of tensors after; repeatable" },
	{ "--seed N", "the weights' random sequence (default 0)" },
	{ "--variant N", "which optional tensors: 0 (the default) none, "
	    "another a choice of them" },
	{ "--list", "list the architectures it makes (and nothing else)" },
	{ "--force", "write over an existing file" },
	{ "-q, --quiet", "no line saying what was written" },
	{ NULL, NULL }
};

const struct cli_cmd cli_commands[] = {
	{ "info", cmd_info, "[--json] FILE",
	    "summary: version, layout, counts, architecture, tensor types, "
	    "warnings", info_opts,
	    "model.gguf" },
	{ "dump", cmd_dump, "[--json] [--max-array N] FILE",
	    "every KV pair and every tensor info", dump_opts,
	    "--max-array 8 model.gguf" },
	{ "get", cmd_get, "[--json | --raw] FILE KEY",
	    "one value; arrays one element per line", get_opts,
	    "--json model.gguf llama.block_count" },
	{ "cat", cmd_cat, "FILE TENSOR [--rows A:B] [--cols A:B] "
	    "[--slice I,J] [--raw]",
	    "a tensor's values, one row per line (--raw: its blocks)",
	    cat_opts,
	    "model.gguf blk.0.attn_q.weight --rows 0:2 --cols 0:8" },
	{ "stats", cmd_stats, "FILE (TENSOR... | --all) [--rows A:B] "
	    "[--json] [--threads N]",
	    "statistics: min, max, mean, std, zeros, NaN, Inf, histogram",
	    stats_opts,
	    "model.gguf token_embd.weight" },
	{ "tokens", cmd_tokens, "FILE [--id N]... [--text STRING] "
	    "[--grep REGEX] [--encode TEXT] [--json]",
	    "the vocabulary: id, type, score and the text of each token",
	    tokens_opts,
	    "model.gguf --text ' the'" },
	{ "mem", cmd_mem, "FILE [--ctx N[,N...]] [--cache-type-k T] "
	    "[--cache-type-v T] [--parallel N] [--swa-full] "
	    "[--gpu-layers N|all|max] [--cpu-moe] [--n-cpu-moe N] "
	    "[-ot REGEX=BUFTYPE,...] [--mmproj FILE [--no-mmproj-offload]] "
	    "[--flash-attn on|off|auto] [--batch-size N] [--ubatch-size N] "
	    "[--fit SIZE] [--json] | --keys",
	    "memory llama.cpp needs: weights, and KV cache or recurrent "
	    "state and compute buffer by context", mem_opts,
	    "model.gguf --ctx 8k,32k --cache-type-k q8_0 --fit 24GiB" },
	{ "validate", cmd_validate, "[--data] [--strict] [--json] [-q] "
	    "[--threads N] [--base MODEL] FILE...",
	    "check that files load in every GGUF reader: errors, warnings, "
	    "notes", validate_opts,
	    "--data model.gguf" },
	{ "hash", cmd_hash, "[--xxh64] [--xxh3] [--sha1] [--sha256] [--uuid] "
	    "[--all] [--no-layer] [--check MANIFEST] [--json] FILE... | "
	    "--file FILE...",
	    "hashes of each tensor's data and of all of it, as "
	    "llama-gguf-hash writes them; --check verifies a manifest",
	    hash_opts,
	    "model.gguf > model.manifest" },
	{ "diff", cmd_diff, "[--data] [--json | -q] [--threads N] A B",
	    "what differs between two models: header, keys, tensors (exit "
	    "0 equal, 1 different, 2 trouble)", diff_opts,
	    "--data model.gguf other.gguf" },
	{ "template", cmd_template, "FILE [--messages JSON] [--tools JSON] "
	    "[--add-generation-prompt] [--name NAME] [--template-file PATH] "
	    "[--var KEY=JSON]...",
	    "render the chat template: the prompt a conversation becomes",
	    template_opts,
	    "model.gguf --messages '[{\"role\": \"user\", \"content\": "
	    "\"Hi\"}]' --add-generation-prompt" },
	{ "sync", cmd_sync, "FILE --from DIR [-o OUT | -i] [--only KEY,...] "
	    "[--json]",
	    "compare the metadata with the upstream repository's files, as "
	    "llama.cpp's converter maps them; -o/-i applies the differences "
	    "(exit 0 equal, 1 different, 2 trouble)", sync_opts,
	    "model.gguf --from upstream/ -o fixed.gguf" },
	{ "edit", cmd_edit, "FILE (-i | -o OUT | -n) [-e CMD]... "
	    "[-f SCRIPT]... [OPTIONS]",
	    "apply edit commands (set, rm, mv, rename, ...) and save once",
	    edit_opts,
	    "model.gguf -o fixed.gguf -e 'set llama.context_length 8192'" },
	{ "set", cmd_set, "FILE KEY[:TYPE] VALUE (-i | -o OUT | -n)",
	    "set a value (KEY:TYPE adds a key or changes its type; a missing "
	    "well-known key is added with its type; VALUE @FILE or @- reads "
	    "it from a file or standard input)",
	    save_opts,
	    "model.gguf general.name 'My model' -i" },
	{ "rm", cmd_rm, "[--if-exists] FILE KEY (-i | -o OUT | -n)",
	    "remove a key (--if-exists: no error if there is none)",
	    rm_opts,
	    "model.gguf general.description -i" },
	{ "mv", cmd_mv, "FILE KEY NEWKEY (-i | -o OUT | -n)", "rename a key",
	    save_opts,
	    "model.gguf general.author general.organization -i" },
	{ "rename", cmd_rename, "FILE (TENSOR NEWNAME | s/REGEX/REPL/[gi]) "
	    "(-i | -o OUT | -n)", "rename tensors", save_opts,
	    "model.gguf 's/^blk\\.([0-9]+)\\./layers.$1./' "
	    "-o renamed.gguf" },
	{ "rm-tensor", cmd_rm_tensor, "FILE NAME (-i | -o OUT | -n)",
	    "remove a tensor and its data", save_opts,
	    "model.gguf output.weight -o headless.gguf" },
	{ "convert", cmd_convert, "FILE TENSOR f32 (-i | -o OUT | -n)",
	    "a tensor's data as float32, losslessly (for ggml to load it)",
	    save_opts,
	    "model.gguf token_embd.weight f32 -o embd-f32.gguf" },
	{ "split", cmd_split, "[--max-size SIZE | --max-tensors N] "
	    "[--no-tensor-first-split] [-e CMD]... [--strict] IN.gguf "
	    "OUT-PREFIX",
	    "split a model into shards as llama.cpp's gguf-split does "
	    "(OUT-PREFIX-00001-of-0000N.gguf ...)", split_opts,
	    "--max-size 2G model.gguf model" },
	{ "merge", cmd_merge, "FIRST-SHARD OUT.gguf [-e CMD]... [--strict]",
	    "join the shards of a split model into one file, as gguf-split "
	    "--merge does", merge_opts,
	    "model-00001-of-00003.gguf merged.gguf" },
	{ "new", cmd_new, "ARCH -o OUT [-e CMD]... [--seed N] "
	    "[--variant N] [--force] | [--list]",
	    "a tiny random-weight model of an architecture, from the model "
	    "check's table", new_opts,
	    "qwen3 -o tiny.gguf -e 'set qwen3.block_count 3'" },
	{ "recover", cmd_recover, "FILE",
	    "roll back a save that was interrupted (from its journal)",
	    recover_opts,
	    "model.gguf" },
};
const size_t	cli_n_commands = sizeof cli_commands / sizeof cli_commands[0];

const struct cli_cmd *
cli_find_command(const char *name)
{
	size_t	i;

	for (i = 0; i < cli_n_commands; i++)
		if (strcmp(cli_commands[i].name, name) == 0)
			return &cli_commands[i];
	return NULL;
}

void
cli_help_all(FILE *fp)
{
	size_t	i;

	fprintf(fp, "usage: %s [OPTIONS] FILE\n"
	    "       %s COMMAND [ARGS]\n"
	    "       %s COMMAND --help\n\n"
	    "With a FILE alone, browse it in the terminal (F1 there lists "
	    "the keys);\nwith a COMMAND, do one thing and exit. "
	    "COMMAND --help gives its options\nand an example. "
	    "A FILE may be a URL: http://, https:// or\n"
	    "hf://OWNER/REPO/FILE[@REVISION] (the Hugging Face Hub; "
	    "HF_TOKEN if it needs one).\n\n"
	    "commands:\n", cli_prog, cli_prog, cli_prog);
	for (i = 0; i < cli_n_commands; i++)
		fprintf(fp, "  %-9s %s\n            %s\n",
		    cli_commands[i].name, cli_commands[i].usage,
		    cli_commands[i].help);
	fprintf(fp, "\noptions:\n"
	    "  -h, --help  this help\n"
	    "  --version   the program's name and version, and the llama.cpp\n"
	    "              release its model check and mem follow\n"
	    "  --shard     browse a shard of a split model alone\n"
	    "  --message TEXT\n"
	    "              show TEXT on the browser's first screen\n"
	    "  --no-cache  read the header of a URL from the server, not "
	    "the cache\n\n"
	    "exit status: 0 success, 1 unreadable or invalid file, 2 usage "
	    "error\nSee ggufed(1) for the keys of the browser, the edit "
	    "language and more.\n");
}

int
cli_help(const struct cli_cmd *c)
{
	const struct cli_opt	*o;
	size_t			 i;
	int			 w = (int)strlen("-h, --help");

	for (o = c->opts; o->flags != NULL; o++)
		if ((int)strlen(o->flags) > w)
			w = (int)strlen(o->flags);
	printf("usage: %s %s %s\n\n%s\n\noptions:\n", cli_prog, c->name,
	    c->usage, c->help);
	for (o = c->opts; o->flags != NULL; o++)
		printf("  %-*s  %s\n", w, o->flags, o->help);
	printf("  %-*s  %s\n", w, "-h, --help", "this help");
	/* Every -e is a command of the edit language: edit lists them. */
	if (strcmp(c->name, "edit") == 0) {
		printf("\nedit commands (each -e CMD, each line of -f SCRIPT; "
		    "merge, split and new\ntake them too):\n");
		for (i = 0; i < lang_n_defs; i++)
			if (!lang_defs[i].browser)
				printf("  %s\n", lang_defs[i].usage);
		printf("VALUE: a C integer, a float, true or false, a string "
		    "bare or \"C-escaped\",\na JSON array, @FILE; KEY:TYPE "
		    "(u8 ... f64, bool, str, arr[T]) gives a new\nkey's "
		    "type. See \"The edit language\" in ggufed(1) for the "
		    "whole of it.\n");
	}
	printf("\nexample:\n  %s %s %s\n", cli_prog, c->name, c->example);
	return 0;
}

void
cli_usage_error(const char *cmd, const char *fmt, ...)
{
	const struct cli_cmd	*c;
	va_list			 ap;

	fprintf(stderr, "%s: ", cli_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (cmd != NULL && (c = cli_find_command(cmd)) != NULL)
		fprintf(stderr, "usage: %s %s %s\n", cli_prog, cmd, c->usage);
}

void
cli_error(const char *fmt, ...)
{
	va_list	ap;

	fprintf(stderr, "%s: ", cli_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void
cli_file_error(const char *path, const struct gguf_err *err)
{
	char	buf[640];

	gguf_err_text(err, buf, sizeof buf);
	fprintf(stderr, "%s: ", cli_prog);
	out_text(stderr, path, strlen(path));
	fputs(": ", stderr);
	out_msg(stderr, buf);
	fputc('\n', stderr);
}

int
cli_stale_temps(const char *path, int remove, struct gguf_leftovers *lo,
    struct gguf_err *err)
{
	size_t		 plen, n = 0;
	unsigned	 no, count, k;
	char		**sp;
	int		 r;

	if (gguf_set_name(path, &plen, &no, &count) != 0 || count < 2)
		return gguf_stale_temps(path, remove, lo, err);
	sp = xcalloc(count, sizeof *sp);
	for (k = 1; k <= count; k++)
		sp[n++] = gguf_set_path(path, plen, k, count);
	r = gguf_stale_temps_list((const char *const *)sp, n, remove, lo,
	    err);
	while (n > 0)
		free(sp[--n]);
	free(sp);
	return r;
}

int
cli_leftovers(const char *path, char *buf, size_t len)
{
	struct gguf_leftovers	lo;
	struct gguf_err		err;
	long			pid;
	char			sz[32], why[160];
	int			trust, found = 1;

	gguf_resolve_hold(path);	/* the lock, journal, temps: one walk */
	if ((pid = gguf_save_holder(path)) > 0)
		snprintf(buf, len, "the file is being saved by process %ld",
		    pid);
	else if (pid < 0)
		snprintf(buf, len, "the file is being saved by another "
		    "process");
	else if ((trust = gguf_journal_trust(path, why, sizeof why)) ==
	    GGUF_JOURNAL_OURS)
		snprintf(buf, len, "an interrupted save left a journal: run "
		    "'ggufed recover' on the file");
	else if (trust == GGUF_JOURNAL_FOREIGN)
		snprintf(buf, len, "a journal that is not ours is beside the "
		    "file (%s): it is ignored", why);
	else if (cli_stale_temps(path, 0, &lo, &err) > 0 && lo.temps > 0)
		snprintf(buf, len, "a save that was interrupted left %s "
		    "(%s) beside the file: 'ggufed recover' removes %s",
		    lo.temps == 1 ? "a temporary file" : "temporary files",
		    gguf_fmt_size(lo.temp_bytes, sz, sizeof sz),
		    lo.temps == 1 ? "it" : "them");
	else if (lo.backups > 0)
		snprintf(buf, len, "a save of the set that completed left %s "
		    "(.ggufed-old, %s) beside the file: 'ggufed recover' "
		    "removes %s", lo.backups == 1 ? "an old shard" :
		    "old shards", gguf_fmt_size(lo.backup_bytes, sz,
		    sizeof sz), lo.backups == 1 ? "it" : "them");
	else
		found = 0;
	gguf_resolve_drop();
	return found;
}

int
cli_take_shard(int argc, char **argv)
{
	int	i, n = 1;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0) {
			while (i < argc)
				argv[n++] = argv[i++];
			break;
		}
		if (strcmp(argv[i], "--shard") == 0 ||
		    strcmp(argv[i], "--no-set") == 0)
			cli_alone = 1;
		else
			argv[n++] = argv[i];
	}
	argv[n] = NULL;
	return n;
}

struct gguf_file *
cli_open(const char *path)
{
	struct gguf_err		 err;
	struct gguf_file	*f;
	char			 left[400];
	int			 n;

	/* First: a header torn by a crash does not parse; the journal says why. */
	n = cli_leftovers(path, left, sizeof left);
	memset(&err, 0, sizeof err);
	f = gguf_set_open(path, cli_alone ? GGUF_OPEN_ALONE : GGUF_OPEN_STRICT,
	    &err);
	if (f == NULL)
		cli_file_error(path, &err);
	if (n) {
		snprintf(err.msg, sizeof err.msg, "%s%s", f != NULL ?
		    "warning: " : "", left);
		err.has_off = 0;
		cli_file_error(path, &err);
	}
	return f;
}

/*
 * A set whose shards are not one whole set (of several sets, one lost,
 * a tensor in two): what a command reading its data says first, one
 * warning, as validate would refuse it.
 */
void
cli_set_warning(const char *path, const struct gguf_file *f)
{
	struct gguf_err	 err;
	const char	*first;
	unsigned	 n;

	if (f == NULL || (n = gguf_set_errors(f, &first)) == 0)
		return;
	memset(&err, 0, sizeof err);
	snprintf(err.msg, sizeof err.msg, "warning: the shards are not one "
	    "whole set: %.300s%s", first, n > 1 ? " (and more: validate "
	    "lists them)" : "");
	cli_file_error(path, &err);
}

/* ------------------------------------------------------------ model check */

struct broke {
	const char		*path;
	int			 strict;
	struct gguf_mgroup	 g;	/* the first few of each kind */
};

static void
broke_line(const struct broke *b, const char *msg)
{
	fprintf(stderr, "%s: ", cli_prog);
	out_text(stderr, b->path, strlen(b->path));
	fprintf(stderr, ": %s: llama.cpp would refuse the result: ",
	    b->strict ? "error" : "warning");
	out_msg(stderr, msg);
	fputc('\n', stderr);
}

static void
broke_one(void *arg, const struct gguf_mfinding *f)
{
	struct broke	*b = arg;

	if (gguf_mgroup_add(&b->g, f))
		broke_line(b, f->msg);
}

int
cli_model_check(struct gguf_doc *d, const char *path, int strict)
{
	struct broke	b;
	unsigned	n;
	char		buf[200];
	int		k;

	memset(&b, 0, sizeof b);
	b.path = path;
	b.strict = strict;
	n = gguf_model_check_new(d, broke_one, &b);
	for (k = 0; k < GGUF_MK_COUNT; k++)
		if (gguf_mgroup_more(&b.g, k, buf, sizeof buf) == 0)
			broke_line(&b, buf);
	if (n > 0 && strict) {
		fprintf(stderr, "%s: ", cli_prog);
		out_text(stderr, path, strlen(path));
		fprintf(stderr, ": not saved (--strict): llama.cpp would "
		    "refuse the result\n");
		return -1;
	}
	return 0;
}
