/*
 * fuzz_model.c - fuzz target: a model of any architecture of the model
 * check's table, as `ggufed new` makes it, then edited at random, then
 * everything that reads a model's meaning: the model check, the memory
 * llama.cpp needs (cache, output, compute buffer, the fit) and the
 * commands that print them.
 *
 * Input: byte 0 picks the architecture (modulo the table's), byte 1 the
 * variant (its low 2 bits) and the memory options (the others), byte 2
 * the seed of the weights (bits 1-7) and whether the commands run at the
 * end (bit 0), then a program of steps, each an opcode byte and what it
 * needs after it:
 *
 *	0  set a shaping key of the architecture (block_count, widths, heads,
 *	   experts, windows, state sizes ...) to a value: a small one, an
 *	   edge (0, 2^31, 2^32 - 1, 2^63 ...) or four raw bytes, as u32,
 *	   i32, u64, f32 or a string
 *	1  set such a key to an array of 0 to 15 values (a per-layer one)
 *	2  remove a key (modulo the live keys)
 *	3  remove a tensor (modulo the tensors)
 *	4  rename a tensor to another's name in another block
 *	5  give the file another kind or architecture (general.type,
 *	   adapter.type, general.architecture, clip.projector_type ...)
 *	6  undo or redo the last edit
 *	7  one line of the command language, from the next bytes up to a
 *	   newline
 *
 * After each step the model check and the memory model run over the
 * document, as the browser runs them after an edit; at the end (if byte
 * 2 says so) the document is saved and `validate` (with the unedited model as --base),
 * `info` and `mem --json` run on it. Nothing may crash, hang, leak or
 * allocate without bound, and what the commands print must be safe for
 * a terminal (fuzz_safe_text).
 */
#include "config.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gguf.h"
#include "doc.h"
#include "mem.h"
#include "model.h"
#include "save.h"
#include "cli/cli.h"
#include "cmd/lang.h"
#include "fuzz.h"

#define MAX_STEPS	24
#define MAX_ARCHS	512
#define A(s)		((char *)(uintptr_t)(s))	/* an argument */

/* Keys that shape a model, after "ARCH.". */
static const char *const shaping[] = {
	"block_count", "context_length", "embedding_length",
	"feed_forward_length", "expert_feed_forward_length",
	"expert_shared_feed_forward_length", "vocab_size",
	"attention.head_count", "attention.head_count_kv",
	"attention.key_length", "attention.value_length",
	"attention.key_length_mla", "attention.value_length_mla",
	"attention.kv_lora_rank", "attention.q_lora_rank",
	"attention.sliding_window", "attention.sliding_window_pattern",
	"attention.key_length_swa", "attention.value_length_swa",
	"attention.shared_kv_layers", "attention.layer_norm_rms_epsilon",
	"expert_count", "expert_used_count", "expert_shared_count",
	"expert_group_count", "expert_group_used_count",
	"expert_gating_func", "leading_dense_block_count",
	"nextn_predict_layers", "full_attention_interval",
	"attention.recurrent_layers", "rope.dimension_count",
	"rope.dimension_sections", "rope.freq_base", "ssm.conv_kernel",
	"ssm.inner_size", "ssm.state_size", "ssm.time_step_rank",
	"ssm.group_count", "wkv.head_size", "time_mix_extra_dim",
	"time_decay_extra_dim", "rescale_every_n_layers",
	"token_shift_count", "shortconv.l_cache", "interleave_moe_layer_step",
	"embedding_length_per_layer_input", "altup.active_idx",
	"altup.num_inputs", "attention.indexer.head_count",
	"attention.indexer.key_length", "attention.indexer.top_k",
	"pooling_type", "decoder_start_token_id",
};

static const char *const edges[] = {
	"0", "1", "2", "3", "4", "7", "8", "16", "31", "64", "100", "255",
	"256", "1000", "4096", "65535", "65536", "2147483647", "2147483648",
	"4294967295", "4294967296", "9223372036854775807",
	"18446744073709551615", "-1", "-2147483648",
};

/* Types a value is written as: mostly the one llama.cpp reads. */
static const char *const vtypes[] = {
	"u32", "u32", "u32", "u32", "i32", "u64", "f32", "str",
};

/* Kinds and architectures a file may claim. */
static const char *const kinds[] = {
	"general.type model", "general.type adapter", "general.type mmproj",
	"general.type imatrix", "general.type control_vector",
	"general.type xyz", "adapter.type lora", "adapter.type alora",
	"adapter.type bogus", "adapter.lora.alpha:f32 16",
	"adapter.lora.alpha:f32 -1", "general.architecture clip",
	"general.architecture controlvector", "general.architecture llama",
	"general.architecture qwen35moe", "general.architecture rwkv7",
	"general.architecture nope", "clip.projector_type mlp",
	"clip.projector_type gemma3", "clip.projector_type qwen2.5vl_merger",
	"clip.has_vision_encoder:bool true", "clip.vision.projection_dim 64",
	"clip.vision.block_count 2", "controlvector.layer_count 2",
	"imatrix.chunk_count 4", "imatrix.chunk_size 512",
};

struct prog {
	const uint8_t	*p;
	size_t		 n;
};

static unsigned
byte(struct prog *pr)
{
	unsigned	b;

	if (pr->n == 0)
		return 0;
	b = *pr->p++;
	pr->n--;
	return b;
}

static uint32_t
word(struct prog *pr)
{
	uint32_t	w = 0;
	int		i;

	for (i = 0; i < 4; i++)
		w = w << 8 | byte(pr);
	return w;
}

static unsigned
half(struct prog *pr)
{
	unsigned	h = byte(pr) << 8;

	return h | byte(pr);
}

/* A value for a key: an edge, a small number, or raw bytes. */
static void
value(struct prog *pr, char *buf, size_t len)
{
	unsigned	sel = byte(pr);

	if (sel < 128)
		snprintf(buf, len, "%s", edges[sel % (sizeof edges /
		    sizeof edges[0])]);
	else if (sel < 224)
		snprintf(buf, len, "%u", sel - 128);
	else
		snprintf(buf, len, "%" PRIu32, word(pr));
}

/* The model check and the memory model over d, with options from opt. */
static void
judge(struct gguf_doc *d, unsigned opt)
{
	struct gguf_mem_model	m;
	struct gguf_mem_opts	o;
	struct gguf_mem_need	n;
	struct gguf_mverdict	v;
	uint64_t		ctx[GGUF_MEM_NDEFAULT], fit;
	size_t			nc, i;
	FILE			*fp;
	char			*out = NULL;
	size_t			 len = 0, bad;

	(void)gguf_model_check(d, NULL, NULL);
	gguf_model_verdict(d, &v);
	gguf_mem_model_make(&m, d);
	gguf_mem_opts_default(&o);
	o.n_seq = 1 + (opt & 3);
	o.flash_attn = (int)(opt >> 2 & 1);
	o.swa_full = (int)(opt >> 3 & 1);
	o.n_ubatch = (opt & 0x10) ? 33 : 512;
	o.type_k = (opt & 0x20) ? 8 : 1;	/* q8_0 or f16 */
	nc = gguf_mem_default_contexts(&m, ctx);
	for (i = 0; i < nc; i++) {
		o.n_ctx = ctx[i];
		(void)gguf_mem_need(&m, &o, &n);
	}
	(void)gguf_mem_fit(&m, &o, (uint64_t)1 << 30, &fit, &n);
	if ((fp = open_memstream(&out, &len)) == NULL)
		fuzz_fail("open_memstream");
	gguf_mem_write(fp, &m, &o, ctx, nc);
	fclose(fp);
	if (!fuzz_safe_text(out, len, &bad))
		fuzz_fail("the memory table printed unsafe byte 0x%02x at %zu",
		    (unsigned char)out[bad], bad);
	free(out);
	gguf_mem_model_free(&m);
}

/* A tensor's name, by index modulo the tensors: 0, or -1 if none. */
static int
tensor_name(struct gguf_doc *d, unsigned i, char *buf, size_t len)
{
	struct gguf_doc_tensor	t;
	uint64_t		nt = gguf_doc_n_tensors(d);

	if (nt == 0 || gguf_doc_tensor(d, i % nt, &t) != 0 ||
	    (t.flags & GGUF_ED_REMOVED))
		return -1;
	snprintf(buf, len, "%.*s", (int)t.name.n, t.name.p);
	return 0;
}

static void
step(struct gguf_doc *d, const char *arch, struct prog *pr)
{
	struct gguf_doc_kv	kv;
	char			line[1024], val[64], name[128], *dot;
	unsigned		op = byte(pr) % 8, i, n;
	uint64_t		nk;
	size_t			l;

	line[0] = '\0';
	switch (op) {
	case 0:
		i = byte(pr);
		value(pr, val, sizeof val);
		snprintf(line, sizeof line, "set %s.%s:%s %s", arch,
		    shaping[i % (sizeof shaping / sizeof shaping[0])],
		    vtypes[byte(pr) % 8], val);
		break;
	case 1:
		i = byte(pr);
		n = byte(pr) % 16;
		l = (size_t)snprintf(line, sizeof line, "set %s.%s:arr[%s] [",
		    arch, shaping[i % (sizeof shaping / sizeof shaping[0])],
		    byte(pr) & 1 ? "i32" : "u32");
		while (n-- > 0 && l < sizeof line - 64) {
			value(pr, val, sizeof val);
			l += (size_t)snprintf(line + l, sizeof line - l, "%s%s",
			    val, n > 0 ? ", " : "");
		}
		snprintf(line + l, sizeof line - l, "]");
		break;
	case 2:
		nk = gguf_doc_n_kv(d);
		if (nk == 0 || gguf_doc_kv(d, byte(pr) % nk, &kv) != 0)
			return;
		snprintf(line, sizeof line, "rm --if-exists %.*s",
		    (int)kv.key.n, kv.key.p);
		break;
	case 3:
		if (tensor_name(d, half(pr), name,
		    sizeof name) != 0)
			return;
		snprintf(line, sizeof line, "rm-tensor %s", name);
		break;
	case 4:
		if (tensor_name(d, half(pr), name,
		    sizeof name) != 0)
			return;
		if (strncmp(name, "blk.", 4) == 0 &&
		    (dot = strchr(name + 4, '.')) != NULL)
			snprintf(line, sizeof line, "rename %s blk.%u%s", name,
			    byte(pr) % 40, dot);
		else
			snprintf(line, sizeof line, "rename %s blk.0.%s", name,
			    name);
		break;
	case 5:
		i = byte(pr);
		snprintf(line, sizeof line, "set %s",
		    kinds[i % (sizeof kinds / sizeof kinds[0])]);
		break;
	case 6:
		snprintf(line, sizeof line, byte(pr) & 1 ? "redo" : "undo");
		break;
	default:
		for (l = 0; l < sizeof line - 1 && pr->n > 0 && *pr->p != '\n';
		    l++)
			line[l] = (char)byte(pr);
		line[l] = '\0';
		byte(pr);
		/* no NUL inside, no value read from a file or the input */
		if (strlen(line) != l || strchr(line, '@') != NULL)
			return;
		break;
	}
	{
		char	msg[512];

		(void)lang_exec(d, line, msg, sizeof msg);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char	*archs[MAX_ARCHS];
	static size_t		 n_archs;
	struct prog		 pr = { data, size };
	struct gguf_doc		*d;
	struct gguf_save_opts	 so;
	struct gguf_save_info	 info;
	struct gguf_err		 err;
	const char		*arch;
	char			 base[600], out[600], var[8], seed[16];
	char			*argv[12];
	unsigned		 opt, flags, steps;

	if (n_archs == 0 && (n_archs = gguf_model_archs(archs,
	    MAX_ARCHS)) == 0)
		fuzz_fail("the model table lists no architecture");
	if (size < 3)
		return 0;
	arch = archs[byte(&pr) % n_archs];
	opt = byte(&pr);
	flags = byte(&pr);
	snprintf(var, sizeof var, "%u", opt & 3);
	snprintf(seed, sizeof seed, "%u", flags >> 1);
	fuzz_path(base, sizeof base, "model.gguf");
	fuzz_path(out, sizeof out, "edited.gguf");
	remove(base);
	argv[0] = A("new");
	argv[1] = A(arch);
	argv[2] = A("-o");
	argv[3] = base;
	argv[4] = A("--variant");
	argv[5] = var;
	argv[6] = A("--seed");
	argv[7] = seed;
	argv[8] = A("-q");
	argv[9] = A("--force");
	argv[10] = NULL;
	fuzz_run_cmd(cmd_new, 10, argv);
	if ((d = gguf_doc_open(base, &err)) == NULL)
		return 0;	/* an architecture `new` refuses */
	judge(d, opt >> 2);
	for (steps = 0; steps < MAX_STEPS && pr.n > 0; steps++) {
		step(d, arch, &pr);
		judge(d, opt >> 2);
	}
	if (!(flags & 1)) {
		gguf_doc_free(d);
		return 0;
	}
	memset(&so, 0, sizeof so);
	so.path = out;
	so.reserve = -1;
	so.force = 1;
	if (gguf_doc_save(d, &so, &info, &err) == 0) {
		argv[0] = A("validate");
		argv[1] = A("--json");
		argv[2] = out;
		argv[3] = A("--base");
		argv[4] = base;
		argv[5] = NULL;
		fuzz_run_cmd(cmd_validate, 5, argv);
		argv[1] = out;
		argv[2] = NULL;
		fuzz_run_cmd(cmd_validate, 2, argv);
		argv[0] = A("info");
		fuzz_run_cmd(cmd_info, 2, argv);
		argv[0] = A("mem");
		argv[1] = A("--json");
		argv[2] = A("--ctx");
		argv[3] = A("1000,9000");
		argv[4] = out;
		argv[5] = NULL;
		fuzz_run_cmd(cmd_mem, 5, argv);
	}
	gguf_doc_free(d);
	return 0;
}
