/*
 * mem.c - `ggufed mem FILE [--ctx N[,N...]] [--cache-type-k T]
 * [--cache-type-v T] [--parallel N] [--swa-full] [--gpu-layers N]
 * [--cpu-moe] [--n-cpu-moe N] [-ot REGEX=BUFTYPE,...] [--fit BYTES]
 * [--json]`:
 * how much memory llama.cpp needs for the model: the weights (by type; in
 * the layers, which can be offloaded one by one, and out of them), and
 * the KV cache or recurrent state at each context asked for (by default
 * 4k, 8k, 16k, 32k, 128k and the training context), as llama.cpp
 * allocates it (src/model/mem.h), and the compute buffer of its graphs
 * on the CPU where modelled (-fa, -b, -ub). --fit BYTES gives the largest
 * context whose weights, cache, output and compute buffer fit in BYTES
 * (cli_parse_size: K, M, G, T powers of 1000, KiB, MiB, GiB, TiB of
 * 1024). -fa, -b and -ub are llama.cpp's --flash-attn, --batch-size and
 * --ubatch-size. --gpu-layers N (-ngl N, llama.cpp's flag) splits the
 * figures between the GPU and the CPU as llama.cpp places the layers
 * (src/model/mem_split.h); SIZE is then the GPU's: --fit gives the largest
 * context whose GPU part fits, and with --gpu-layers max the most layers
 * that fit at the context given. --cpu-moe, --n-cpu-moe N and -ot
 * (--override-tensor) REGEX=BUFTYPE put the tensors they match on the CPU
 * or the GPU whatever their layer, as llama.cpp's options of the same
 * names (the first rule to match a tensor wins).
 *
 * An architecture whose cache is not modelled gets its weights and a
 * line saying so, never a guess. Exit: 0; 1 the file cannot be read,
 * llama.cpp would refuse the cache asked for, the cache is not modelled
 * and --fit was asked, or nothing fits; 2 usage.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "set.h"
#include "doc.h"
#include "mem.h"
#include "mem_split.h"
#include "re.h"

#define MAX_CTX	32
#define MAX_OVR	64	/* placement options */

/* A placement option: -ot PATTERN=BUFTYPE (one pair), --cpu-moe,
   --n-cpu-moe N, in the order given, and the rules it makes. */
struct ovr {
	int			 kind;		/* 'o', 'c', 'n' */
	const char		*pattern;	/* -ot's */
	const char		*buftype;	/* -ot's */
	int			 gpu;
	uint64_t		 n;		/* --n-cpu-moe's */
	size_t			 first, count;	/* its rules */
	uint64_t		 matched, tensors, bytes;
};

struct opts {
	struct gguf_mem_opts	 mo;
	uint64_t		 ctx[MAX_CTX];
	size_t			 n_ctx;
	int			 fit;
	uint64_t		 budget;
	int			 json;
	int			 keys;		/* --keys */
	int			 split;		/* --gpu-layers */
	int			 ngl_max;	/* --gpu-layers max: fit them */
	int			 moe_max;	/* --n-cpu-moe max: fit it */
	size_t			 moe_i;		/* its option */
	uint64_t		 ngl;		/* all: GGUF_MEM_NGL_MAX */
	const char		*path;
	const char		*mmproj;	/* --mmproj FILE */
	uint64_t		 mmproj_tensors;
	struct ovr		 ovr[MAX_OVR];	/* -ot, --cpu-moe, --n-cpu-moe */
	size_t			 n_ovr;
	char			*otbuf[MAX_OVR];	/* -ot values, split */
	size_t			 n_otbuf;
	struct gguf_mem_rule	*rules;		/* what they expand to */
	size_t			 n_rules;
	char			(*pats)[64];	/* --n-cpu-moe's patterns */
};

static void
opts_free(struct opts *o)
{
	size_t	i;

	for (i = 0; i < o->n_otbuf; i++)
		free(o->otbuf[i]);
	free(o->rules);
	free(o->pats);
}

/* -ot PATTERN=BUFTYPE[,PATTERN=BUFTYPE...], as llama.cpp splits it: at
   each comma, then at the first '='. */
static int
parse_ot(struct opts *o, const char *a, const char *val)
{
	struct gguf_re	*re;
	struct gguf_err	 err;
	char		*buf, *item, *next, *eq;
	int		 gpu;

	if (o->n_otbuf == MAX_OVR || (buf = strdup(val)) == NULL) {
		cli_usage_error("mem", "%s: too many", a);
		return EXIT_USAGE;
	}
	o->otbuf[o->n_otbuf++] = buf;
	for (item = buf; item != NULL; item = next) {
		if ((next = strchr(item, ',')) != NULL)
			*next++ = '\0';
		if ((eq = strchr(item, '=')) == NULL) {
			cli_usage_error("mem", "%s: '%s' is not "
			    "PATTERN=BUFTYPE", a, item);
			return EXIT_USAGE;
		}
		*eq++ = '\0';
		if ((gpu = gguf_mem_buftype(eq)) < 0) {
			cli_usage_error("mem", "%s: '%s' is not a buffer type "
			    "llama.cpp takes (CPU, or a GPU's: CUDA0, ROCm0, "
			    "MUSA0, Vulkan0, SYCL0, CANN0, Metal, MTL0, ...)",
			    a, eq);
			return EXIT_USAGE;
		}
		memset(&err, 0, sizeof err);
		if ((re = gguf_re_compile(item, 0, &err)) == NULL) {
			cli_usage_error("mem", "%s: '%s': %s", a, item,
			    err.msg);
			return EXIT_USAGE;
		}
		gguf_re_free(re);
		if (o->n_ovr == MAX_OVR) {
			cli_usage_error("mem", "%s: too many", a);
			return EXIT_USAGE;
		}
		o->ovr[o->n_ovr].kind = 'o';
		o->ovr[o->n_ovr].pattern = item;
		o->ovr[o->n_ovr].buftype = eq;
		o->ovr[o->n_ovr++].gpu = gpu;
	}
	return 0;
}

/* The rules of the placement options, --n-cpu-moe's for the blocks the
   model has (the others match nothing). 0, or -1 out of memory. */
static int
make_rules(struct opts *o, const struct gguf_mem_model *m)
{
	struct ovr	*v;
	size_t		 i, j, n = 0, np = 0;

	for (i = 0; i < o->n_ovr; i++) {
		v = &o->ovr[i];
		v->count = v->kind != 'n' ? 1 : v->n < m->n_layer ?
		    (size_t)v->n : m->n_layer;
		n += v->count;
		if (v->kind == 'n')
			np += v->count;
	}
	if (n == 0)
		return 0;
	if ((o->rules = calloc(n, sizeof *o->rules)) == NULL ||
	    (np > 0 && (o->pats = calloc(np, sizeof *o->pats)) == NULL))
		return -1;
	np = 0;
	for (i = 0; i < o->n_ovr; i++) {
		v = &o->ovr[i];
		v->first = o->n_rules;
		for (j = 0; j < v->count; j++) {
			struct gguf_mem_rule *r = &o->rules[o->n_rules++];

			r->gpu = v->gpu;
			if (v->kind == 'o')
				r->pattern = v->pattern;
			else if (v->kind == 'c')
				r->pattern = GGUF_MEM_EXPS_RE;
			else {
				gguf_mem_exps_block_re((uint32_t)j, o->pats[np],
				    sizeof o->pats[np]);
				r->pattern = o->pats[np++];
			}
		}
	}
	return 0;
}


static int
parse_ctx(struct opts *o, const char *s)
{
	unsigned long long	 v;
	char			 num[32];
	const char		*p = s, *e;
	size_t			 n;

	for (;;) {
		e = strchr(p, ',');
		n = e != NULL ? (size_t)(e - p) : strlen(p);
		if (n == 0 || n >= sizeof num || o->n_ctx == MAX_CTX)
			return -1;
		memcpy(num, p, n);
		num[n] = '\0';
		if (n > 1 && (num[n - 1] == 'k' || num[n - 1] == 'K')) {
			num[n - 1] = '\0';
			if (cli_parse_u64(num, &v) != 0 || v == 0 ||
			    v > UINT32_MAX / 1024)
				return -1;
			v *= 1024;
		} else if (cli_parse_u64(num, &v) != 0 || v > UINT32_MAX)
			return -1;
		o->ctx[o->n_ctx++] = v;
		if (e == NULL)
			return 0;
		p = e + 1;
	}
}

/* --gpu-layers N, all (every layer), max (as many as fit, --fit). */
static int
parse_ngl(struct opts *o, const char *val)
{
	unsigned long long	v;

	o->split = 1;
	o->mo.gpu = 1;
	if (strcmp(val, "all") == 0)
		o->ngl = GGUF_MEM_NGL_MAX;
	else if (strcmp(val, "max") == 0)
		o->ngl_max = 1;
	else if (cli_parse_u64(val, &v) == 0 && v <= GGUF_MEM_NGL_MAX)
		o->ngl = v;
	else {
		cli_usage_error("mem", "--gpu-layers: '%s' is not a number of "
		    "layers (0 or more, all, or max with --fit)", val);
		return EXIT_USAGE;
	}
	return 0;
}

/*
 * llama.cpp's short spellings of the options mem shares with it, so that
 * the flags --fit prints can be given back: the long spelling.
 */
static const char *
long_spelling(const char *a)
{
	static const char *const pairs[][2] = {
		{ "-c", "--ctx" },
		{ "-ctk", "--cache-type-k" },
		{ "-ctv", "--cache-type-v" },
		{ "-np", "--parallel" },
	};
	size_t	i;

	for (i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
		if (strcmp(a, pairs[i][0]) == 0)
			return pairs[i][1];
	return a;
}

static int
parse_opts(int argc, char **argv, struct opts *o)
{
	unsigned long long	 v;
	const char		*a, *val;
	int			 i, t, dd = 0;

	memset(o, 0, sizeof *o);
	gguf_mem_opts_default(&o->mo);
	for (i = 1; i < argc; i++) {
		if ((a = cli_opt(argv[i], &dd)) == NULL)
			continue;
		a = dd ? a : long_spelling(a);
		if (strcmp(a, "--json") == 0) {
			o->json = 1;
			continue;
		}
		if (strcmp(a, "--keys") == 0) {
			o->keys = 1;
			continue;
		}
		if (strcmp(a, "--swa-full") == 0) {
			o->mo.swa_full = 1;
			continue;
		}
		if (strcmp(a, "--no-mmproj-offload") == 0) {
			o->mo.mmproj_cpu = 1;
			continue;
		}
		if (strcmp(a, "--mmproj") == 0 || strcmp(a, "-mm") == 0) {
			if (i + 1 >= argc) {
				cli_usage_error("mem", "%s needs a value", a);
				return EXIT_USAGE;
			}
			o->mmproj = argv[++i];
			continue;
		}
		if (strcmp(a, "--cpu-moe") == 0) {
			if (o->n_ovr == MAX_OVR) {
				cli_usage_error("mem", "%s: too many", a);
				return EXIT_USAGE;
			}
			o->ovr[o->n_ovr++].kind = 'c';
			continue;
		}
		if (strcmp(a, "--n-cpu-moe") == 0 || strcmp(a, "-ncmoe") == 0 ||
		    strcmp(a, "-ot") == 0 ||
		    strcmp(a, "--override-tensor") == 0) {
			if (i + 1 >= argc) {
				cli_usage_error("mem", "%s needs a value", a);
				return EXIT_USAGE;
			}
			val = argv[++i];
			if (a[1] == 'o' || a[2] == 'o') {
				if (parse_ot(o, a, val) != 0)
					return EXIT_USAGE;
				continue;
			}
			if (strcmp(val, "max") == 0 && !o->moe_max) {
				o->moe_max = 1;
				o->moe_i = o->n_ovr;
				v = 0;
			} else if (cli_parse_u64(val, &v) != 0 ||
			    v > UINT32_MAX) {
				cli_usage_error("mem", "%s: '%s' is not a "
				    "number of layers (0 or more, or max "
				    "once, with --fit)", a, val);
				return EXIT_USAGE;
			}
			if (o->n_ovr == MAX_OVR) {
				cli_usage_error("mem", "%s: too many", a);
				return EXIT_USAGE;
			}
			o->ovr[o->n_ovr].kind = 'n';
			o->ovr[o->n_ovr++].n = v;
			continue;
		}
		if (strcmp(a, "--flash-attn") == 0 || strcmp(a, "-fa") == 0) {
			if (i + 1 >= argc) {
				cli_usage_error("mem", "%s needs a value", a);
				return EXIT_USAGE;
			}
			val = argv[++i];
			if (strcmp(val, "on") == 0)
				o->mo.flash_attn = 1;
			else if (strcmp(val, "off") == 0)
				o->mo.flash_attn = 0;
			else if (strcmp(val, "auto") == 0)
				o->mo.flash_attn = -1;
			else {
				cli_usage_error("mem", "%s: '%s' is not on, "
				    "off or auto", a, val);
				return EXIT_USAGE;
			}
			continue;
		}
		if (strcmp(a, "--batch-size") == 0 || strcmp(a, "-b") == 0 ||
		    strcmp(a, "--ubatch-size") == 0 || strcmp(a, "-ub") == 0) {
			if (i + 1 >= argc) {
				cli_usage_error("mem", "%s needs a value", a);
				return EXIT_USAGE;
			}
			val = argv[++i];
			if (cli_parse_u64(val, &v) != 0 || v == 0 ||
			    v > UINT32_MAX) {
				cli_usage_error("mem", "%s: '%s' is not a "
				    "number of tokens (1 to 4294967295)", a,
				    val);
				return EXIT_USAGE;
			}
			if (strcmp(a, "-b") == 0 || strcmp(a, "--batch-size") == 0)
				o->mo.n_batch = (uint32_t)v;
			else
				o->mo.n_ubatch = (uint32_t)v;
			continue;
		}
		if (strcmp(a, "--ctx") == 0 || strcmp(a, "--cache-type-k") == 0 ||
		    strcmp(a, "--cache-type-v") == 0 ||
		    strcmp(a, "--parallel") == 0 || strcmp(a, "--fit") == 0 ||
		    strcmp(a, "--gpu-layers") == 0 || strcmp(a, "-ngl") == 0) {
			if (i + 1 >= argc) {
				cli_usage_error("mem", "%s needs a value", a);
				return EXIT_USAGE;
			}
			val = argv[++i];
			if (a[1] != '-' || strcmp(a, "--gpu-layers") == 0) {
				if (parse_ngl(o, val) != 0)
					return EXIT_USAGE;
			} else if (strcmp(a, "--ctx") == 0) {
				if (parse_ctx(o, val) != 0) {
					cli_usage_error("mem", "--ctx: '%s' is "
					    "not a list of contexts (0 for "
					    "the training context, up to "
					    "4294967295, or Nk)", val);
					return EXIT_USAGE;
				}
			} else if (strcmp(a, "--cache-type-k") == 0 ||
			    strcmp(a, "--cache-type-v") == 0) {
				if ((t = gguf_mem_cache_type(val)) < 0) {
					cli_usage_error("mem", "%s: '%s' is not "
					    "a cache type llama.cpp takes (%s)",
					    a, val, gguf_mem_cache_types());
					return EXIT_USAGE;
				}
				if (a[13] == 'k')
					o->mo.type_k = (uint32_t)t;
				else
					o->mo.type_v = (uint32_t)t;
			} else if (strcmp(a, "--parallel") == 0) {
				if (cli_parse_u64(val, &v) != 0 || v == 0 ||
				    v > 256) {
					cli_usage_error("mem", "--parallel: '%s' "
					    "is not 1 to 256", val);
					return EXIT_USAGE;
				}
				o->mo.n_seq = (uint32_t)v;
			} else {
				if (cli_parse_size(val, &o->budget) != 0) {
					cli_usage_error("mem", "--fit: '%s' is "
					    "not a size (bytes, or %s)", val,
					    CLI_SIZE_UNITS);
					return EXIT_USAGE;
				}
				o->fit = 1;
			}
			continue;
		}
		if (a[0] == '-' && a[1] != '\0') {
			cli_usage_error("mem", "unknown option '%s'", a);
			return EXIT_USAGE;
		}
		if (o->path != NULL) {
			cli_usage_error("mem", "too many arguments");
			return EXIT_USAGE;
		}
		o->path = argv[i];
	}
	if (o->path == NULL && !o->keys) {
		cli_usage_error("mem", "missing FILE");
		return EXIT_USAGE;
	}
	if (o->n_ovr > 0 && !o->split) {
		cli_usage_error("mem", "--cpu-moe, --n-cpu-moe and -ot need "
		    "--gpu-layers N (-ngl N)");
		return EXIT_USAGE;
	}
	if (o->moe_max && (!o->fit || o->n_ctx > 1)) {
		cli_usage_error("mem", "--n-cpu-moe max needs --fit SIZE (the "
		    "GPU's memory) and one context");
		return EXIT_USAGE;
	}
	if (o->ngl_max && !o->fit) {
		cli_usage_error("mem", "--gpu-layers max needs --fit SIZE (the "
		    "GPU's memory)");
		return EXIT_USAGE;
	}
	if (o->ngl_max && o->n_ctx > 1) {
		cli_usage_error("mem", "--gpu-layers max takes one context "
		    "(--ctx N)");
		return EXIT_USAGE;
	}
	return 0;
}

/* "-ot 'PATTERN=BUFTYPE'", "--cpu-moe", "--n-cpu-moe N". */
static void
ovr_name(const struct ovr *v, char *buf, size_t len)
{
	size_t	n, i;

	if (v->kind == 'o') {	/* quoted for a shell: ' as '\'' */
		n = (size_t)snprintf(buf, len, "-ot '");
		for (i = 0; v->pattern[i] != '\0' && n + 5 < len; i++)
			if (v->pattern[i] == '\'') {
				memcpy(buf + n, "'\\''", 4);
				n += 4;
			} else
				buf[n++] = v->pattern[i];
		buf[n] = '\0';
		snprintf(buf + n, len - n, "=%s'", v->buftype);
	}
	else if (v->kind == 'c')
		snprintf(buf, len, "--cpu-moe");
	else
		snprintf(buf, len, "--n-cpu-moe %llu",
		    (unsigned long long)v->n);
}

/* The llama.cpp flags of what --fit found at context ctx, -ngl ngl. */
static void
fit_flags(const struct opts *o, uint64_t ctx, uint64_t ngl, char *buf,
    size_t len)
{
	const struct ovr	*v;
	size_t			 i, n;
	char			 what[160];

	n = (size_t)snprintf(buf, len, "-c %llu -ngl %llu",
	    (unsigned long long)ctx, (unsigned long long)ngl);
	for (i = 0; i < o->n_ovr && n < len; i++) {
		v = &o->ovr[i];
		ovr_name(v, what, sizeof what);
		n += (size_t)snprintf(buf + n, len - n, " %s", what);
	}
	if (n < len && o->mo.type_k != GGUF_T_F16)
		n += (size_t)snprintf(buf + n, len - n, " -ctk %s",
		    gguf_ttype(o->mo.type_k)->lname);
	if (n < len && o->mo.type_v != GGUF_T_F16)
		n += (size_t)snprintf(buf + n, len - n, " -ctv %s",
		    gguf_ttype(o->mo.type_v)->lname);
	/* a quantized V cache needs flash attention */
	if (n < len && o->mo.type_v != GGUF_T_F16 &&
	    o->mo.type_v != GGUF_T_F32 && o->mo.type_v != GGUF_T_BF16)
		n += (size_t)snprintf(buf + n, len - n, " -fa on");
	else if (n < len && o->mo.flash_attn >= 0)
		n += (size_t)snprintf(buf + n, len - n, " -fa %s",
		    o->mo.flash_attn ? "on" : "off");
	if (n < len && o->mo.n_batch != 2048)
		n += (size_t)snprintf(buf + n, len - n, " -b %u",
		    o->mo.n_batch);
	if (n < len && o->mo.n_ubatch != 512)
		n += (size_t)snprintf(buf + n, len - n, " -ub %u",
		    o->mo.n_ubatch);
	if (n < len && o->mo.n_seq > 1)
		n += (size_t)snprintf(buf + n, len - n, " -np %u",
		    o->mo.n_seq);
	if (n < len && o->mo.swa_full)
		snprintf(buf + n, len - n, " --swa-full");
}

/* The placement options' lines of the text. */
static void
print_ovr(const struct opts *o)
{
	const struct ovr	*v;
	size_t			 i, j;
	char			 what[160], b[64];

	for (i = 0; i < o->n_ovr; i++) {
		v = &o->ovr[i];
		ovr_name(v, what, sizeof what);
		printf("override      ");
		for (j = 0; what[j] >= 0x20 && what[j] < 0x7f; j++)
			;
		if (what[j] == '\0')	/* printable: as typed */
			fputs(what, stdout);
		else
			out_text(stdout, what, strlen(what));
		if (v->matched == 0)
			printf(": matches no tensor\n");
		else if (v->tensors == 0)
			printf(": places no tensor (the %llu it matches are "
			    "placed by an earlier rule)\n",
			    (unsigned long long)v->matched);
		else
			printf(": %llu tensor%s, %s, on the %s\n",
			    (unsigned long long)v->tensors,
			    v->tensors == 1 ? "" : "s",
			    gguf_fmt_bytes(v->bytes, b, sizeof b),
			    v->gpu ? "GPU" : "CPU");
	}
}

/* What --fit found, and the GPU split (--gpu-layers). */
struct fitres {
	int			 rc;		/* gguf_mem_fit's */
	uint64_t		 ctx;		/* the context found */
	struct gguf_mem_need	 n;
	struct gguf_mem_place	 place;
	uint64_t		 ngl;		/* the layers (max: found) */
	struct gguf_mem_split	 s;		/* the fit's split */
};

static const char *
tname(uint32_t type, char *buf)
{
	return gguf_ttype_name(type, buf);
}

/* --fit with --gpu-layers: the GPU's part. */
static void
print_fit_gpu(const struct opts *o, const struct gguf_mem_model *m,
    const struct fitres *f)
{
	struct gguf_mem_split	one;
	char			b1[64], b2[64], b3[64], b4[64], what[120];
	char			flags[600];

	printf("\nfit           %s on the GPU", gguf_fmt_bytes(o->budget, b1,
	    sizeof b1));
	if (o->ngl_max || o->moe_max)
		printf(" at context %s", gguf_fmt_group(o->ctx[0], b2,
		    sizeof b2));
	printf(": ");
	if (f->rc == 1 && o->ngl_max) {
		if (gguf_mem_split(m, &f->place, &o->mo, &f->n, 1, &one) != 0)
			one.gpu_total = UINT64_MAX;
		gguf_mem_split_what(m, &one, what, sizeof what);
		printf("not one layer fits: -ngl 1 (%s)%s needs %s\n", what,
		    o->moe_max ? " with every expert on the CPU" : "",
		    gguf_fmt_bytes(one.gpu_total, b3, sizeof b3));
		return;
	}
	if (f->rc == 1 && o->moe_max) {
		printf("nothing fits: -ngl %llu with every expert on the CPU "
		    "needs %s\n", (unsigned long long)f->ngl,
		    gguf_fmt_bytes(f->s.gpu_total, b3, sizeof b3));
		return;
	}
	if (f->rc == 1) {
		printf("nothing fits: the GPU part of the smallest context "
		    "needs %s\n", gguf_fmt_bytes(f->s.gpu_total, b2, sizeof b2));
		return;
	}
	gguf_mem_split_what(m, &f->s, what, sizeof what);
	if (o->moe_max)
		printf("--n-cpu-moe %llu, ", (unsigned long long)
		    o->ovr[o->moe_i].n);
	if (o->ngl_max || o->moe_max)
		printf("--gpu-layers %llu (%s)", (unsigned long long)f->ngl,
		    what);
	else
		printf("context %s%s", gguf_fmt_group(f->ctx, b2, sizeof b2),
		    f->rc == 2 ? " (llama.cpp's largest)" : "");
	printf("; GPU weights %s, cache %s\n", gguf_fmt_bytes(f->s.gpu_weights,
	    b3, sizeof b3), gguf_fmt_bytes(f->s.gpu_cache, b4, sizeof b4));
	fit_flags(o, o->ngl_max || o->moe_max ? o->ctx[0] : f->ctx, f->ngl,
	    flags, sizeof flags);
	printf("flags         %s\n", flags);
	printf("note          llama.cpp's own --fit measures its compute "
	    "buffers too and keeps a margin free (--fit-target, 1 GiB by "
	    "default): leave room for them\n");
}

static void
print_text(const struct opts *o, const struct gguf_mem_model *m,
    const struct fitres *f)
{
	int			fitrc = f->rc;
	uint64_t		fit_ctx = f->ctx;
	const struct gguf_mem_need *fitn = &f->n;
	char			b1[64], b2[64], b3[64], b4[64], flags[600];

	printf("file          ");
	out_text(stdout, o->path, strlen(o->path));
	putchar('\n');
	gguf_mem_write(stdout, m, &o->mo, o->ctx, o->n_ctx);
	/* max: the split of the layers found, if any */
	if (o->split && (!o->ngl_max || f->rc == 0))
		gguf_mem_split_write(stdout, m, &f->place, &o->mo, f->ngl,
		    o->ctx, o->n_ctx);
	if (o->split && f->place.placed)
		print_ovr(o);
	if (o->fit && o->split)
		print_fit_gpu(o, m, f);
	else if (o->fit && m->modelled) {
		printf("\nfit           %s: ", gguf_fmt_bytes(o->budget, b1, sizeof b1));
		if (fitrc == 1)
			printf("nothing fits: the weights and the smallest "
			    "cache need %s\n", gguf_fmt_bytes(fitn->with_weights, b2,
			    sizeof b2));
		else {
			printf("context %s%s, cache %s, ",
			    gguf_fmt_group(fit_ctx, b2, sizeof b2),
			    fitrc == 2 ? " (llama.cpp's largest)" : "",
			    gguf_fmt_bytes(fitn->total, b3, sizeof b3));
			if (fitn->compute_ok)
				printf("compute %s, ", gguf_fmt_bytes(
				    fitn->compute, b3, sizeof b3));
			printf("with weights %s\n", gguf_fmt_bytes(
			    fitn->with_weights, b4, sizeof b4));
			fit_flags(o, fit_ctx, 0, flags, sizeof flags);
			printf("flags         %s\n", flags);
		}
	}
}

/* "compute": its bytes, or null (never an estimate) and why. */
static void
json_compute(struct json *j, const struct gguf_mem_need *n)
{
	json_key(j, "compute");
	if (n->compute_ok)
		json_u64(j, n->compute);
	else {
		json_null(j);
		json_key(j, "compute_why");
		json_cstr(j, n->compute_why);
	}
}

static void
json_need(struct json *j, const struct gguf_mem_model *m,
    const struct gguf_mem_opts *mo, const struct gguf_mem_need *n)
{
	uint64_t	k, v;
	uint32_t	l;
	int		pass;

	json_key(j, "n_ctx"); json_u64(j, n->n_ctx);
	json_key(j, "cells"); json_u64(j, n->cells);
	json_key(j, "cells_swa"); json_u64(j, n->cells_swa);
	json_key(j, "streams"); json_u64(j, n->streams);
	json_key(j, "k"); json_u64(j, n->k);
	json_key(j, "v"); json_u64(j, n->v);
	json_key(j, "k_swa"); json_u64(j, n->k_swa);
	json_key(j, "v_swa"); json_u64(j, n->v_swa);
	json_key(j, "r"); json_u64(j, n->r);
	json_key(j, "s"); json_u64(j, n->s);
	json_key(j, "cache"); json_u64(j, n->total);
	json_key(j, "output"); json_u64(j, n->output);
	for (pass = 0; pass < 2; pass++) {
		json_key(j, pass == 0 ? "k_layers" : "v_layers");
		json_arr(j, JSON_FLAT);
		for (l = 0; l < m->n_layer; l++) {
			gguf_mem_layer_bytes(m, mo, n, l, &k, &v);
			json_u64(j, pass == 0 ? k : v);
		}
		json_end(j);
	}
}

/* The bytes of each device: "gpu": {...}, "cpu": {...}. */
static void
json_devices(struct json *j, const struct gguf_mem_split *s)
{
	json_key(j, "gpu");
	json_obj(j, JSON_FLAT);
	json_key(j, "weights"); json_u64(j, s->gpu_weights);
	json_key(j, "cache"); json_u64(j, s->gpu_cache);
	json_key(j, "total"); json_u64(j, s->gpu_total);
	json_end(j);
	json_key(j, "cpu");
	json_obj(j, JSON_FLAT);
	json_key(j, "weights"); json_u64(j, s->cpu_weights);
	json_key(j, "cache"); json_u64(j, s->cpu_cache);
	json_key(j, "output"); json_u64(j, s->cpu_output);
	json_key(j, "total"); json_u64(j, s->cpu_total);
	json_end(j);
	json_key(j, "copies"); json_u64(j, s->copies);
}

/* Where llama.cpp puts the layers, with -ngl s->ngl. */
static void
json_layers(struct json *j, const struct gguf_mem_split *s)
{
	json_key(j, "gpu_layers"); json_u64(j, s->ngl);
	json_key(j, "repeating_on_gpu"); json_u64(j, s->n_gpu);
	json_key(j, "first_gpu_layer");
	if (s->n_gpu > 0)
		json_u64(j, s->first_gpu);
	else
		json_null(j);
	json_key(j, "output_on_gpu"); json_bool(j, s->output_gpu);
}

/* "overrides": the placement options, in order, each with its rules'
   patterns and the tensors it placed. */
static void
json_ovr(struct json *j, const struct opts *o)
{
	static const char *const opt[] = { "-ot", "--cpu-moe",
	    "--n-cpu-moe" };
	const struct ovr	*v;
	size_t			 i, r;

	json_key(j, "overrides");
	json_arr(j, JSON_LINES);
	for (i = 0; i < o->n_ovr; i++) {
		v = &o->ovr[i];
		json_obj(j, JSON_FLAT);
		json_key(j, "option");
		json_cstr(j, opt[v->kind == 'o' ? 0 : v->kind == 'c' ? 1 : 2]);
		if (v->kind == 'n') {
			json_key(j, "layers"); json_u64(j, v->n);
		}
		json_key(j, "patterns");
		json_arr(j, JSON_FLAT);
		for (r = v->first; r < v->first + v->count; r++)
			json_cstr(j, o->rules[r].pattern);
		json_end(j);
		json_key(j, "buffer_type");
		json_cstr(j, v->kind == 'o' ? v->buftype : "CPU");
		json_key(j, "device"); json_cstr(j, v->gpu ? "gpu" : "cpu");
		json_key(j, "matched"); json_u64(j, v->matched);
		json_key(j, "tensors"); json_u64(j, v->tensors);
		json_key(j, "bytes"); json_u64(j, v->bytes);
		json_end(j);
	}
	json_end(j);
}

/* "split": the GPU split at each context (--gpu-layers N). */
static void
json_split(struct json *j, const struct opts *o,
    const struct gguf_mem_model *m, const struct fitres *f,
    const struct gguf_mem_need *need, const int *ok)
{
	struct gguf_mem_split	s;
	size_t			i;

	json_key(j, "split");
	json_obj(j, JSON_LINES);
	json_key(j, "proven"); json_bool(j, 0);
	json_key(j, "not_counted"); json_cstr(j, "llama.cpp's compute "
	    "buffers on the GPU");
	json_ovr(j, o);
	json_key(j, "contexts");
	json_arr(j, JSON_LINES);
	for (i = 0; i < o->n_ctx; i++) {
		if (!ok[i] || gguf_mem_split(m, &f->place, &o->mo, &need[i],
		    f->ngl, &s) != 0)
			continue;
		json_obj(j, JSON_FLAT);
		json_key(j, "context"); json_u64(j, o->ctx[i]);
		json_layers(j, &s);
		json_devices(j, &s);
		json_end(j);
	}
	json_end(j);
	json_end(j);
}

static void
print_json(const struct opts *o, const struct gguf_mem_model *m,
    const struct gguf_mem_need *need, const int *ok, const struct fitres *f)
{
	int				 fitrc = f->rc;
	uint64_t			 fit_ctx = f->ctx;
	const struct gguf_mem_need	*fitn = &f->n;
	static const char *const kinds[] = { "none", "full", "swa",
	    "recurrent" };
	struct json	j;
	char		tb[24], flags[600];
	size_t		i;
	uint32_t	l;

	json_init(&j, stdout);
	json_obj(&j, JSON_LINES);
	json_key(&j, "file"); json_str(&j, o->path, strlen(o->path));
	json_key(&j, "architecture"); json_cstr(&j, m->arch);
	json_key(&j, "modelled"); json_bool(&j, m->modelled);
	if (m->modelled) {
		json_key(&j, "how"); json_cstr(&j, m->how);
	} else {
		json_key(&j, "why"); json_cstr(&j, m->why);
	}
	json_key(&j, "layers"); json_u64(&j, m->n_layer);
	json_key(&j, "training_context"); json_u64(&j, m->n_ctx_train);
	json_key(&j, "sliding_window"); json_u64(&j, m->n_swa);
	json_key(&j, "nextn_layers"); json_u64(&j, m->n_nextn);
	json_key(&j, "weights");
	json_obj(&j, JSON_LINES);
	json_key(&j, "bytes"); json_u64(&j, m->weights);
	json_key(&j, "tensors"); json_u64(&j, m->n_tensors);
	json_key(&j, "unsized"); json_u64(&j, m->unsized);
	json_key(&j, "split_count"); json_u64(&j, m->split_count);
	json_key(&j, "in_layers"); json_u64(&j, m->in_layers);
	json_key(&j, "kept"); json_u64(&j, m->kept);
	json_key(&j, "types");
	json_arr(&j, JSON_LINES);
	for (i = 0; i < m->n_types; i++) {
		json_obj(&j, JSON_FLAT);
		json_key(&j, "type");
		json_cstr(&j, tname(m->types[i].type, tb));
		json_key(&j, "tensors"); json_u64(&j, m->types[i].count);
		json_key(&j, "bytes"); json_u64(&j, m->types[i].bytes);
		json_end(&j);
	}
	json_end(&j);
	json_end(&j);
	json_key(&j, "per_layer");
	json_arr(&j, JSON_LINES);
	for (l = 0; m->layers != NULL && l < m->n_layer; l++) {
		json_obj(&j, JSON_FLAT);
		json_key(&j, "layer"); json_u64(&j, l);
		json_key(&j, "weights"); json_u64(&j, m->layers[l].weights);
		json_key(&j, "cache"); json_cstr(&j, m->modelled ?
		    kinds[m->layers[l].kind] : "unknown");
		json_key(&j, "k_row"); json_u64(&j, m->layers[l].k);
		json_key(&j, "v_row"); json_u64(&j, m->layers[l].v);
		if (m->layers[l].r + m->layers[l].s != 0) {
			json_key(&j, "r_row"); json_u64(&j, m->layers[l].r);
			json_key(&j, "s_row"); json_u64(&j, m->layers[l].s);
		}
		json_end(&j);
	}
	json_end(&j);
	if (o->mmproj != NULL) {
		json_key(&j, "projector");
		json_obj(&j, JSON_FLAT);
		json_key(&j, "file");
		json_str(&j, o->mmproj, strlen(o->mmproj));
		json_key(&j, "bytes"); json_u64(&j, o->mo.mmproj);
		json_key(&j, "tensors"); json_u64(&j, o->mmproj_tensors);
		json_key(&j, "device");
		json_cstr(&j, o->mo.mmproj_cpu ? "cpu" : "gpu");
		json_key(&j, "proven"); json_bool(&j, 0);
		json_key(&j, "compute"); json_null(&j);
		json_key(&j, "compute_why");
		json_cstr(&j, "not modelled");
		json_end(&j);
	}
	json_key(&j, "cache_type_k");
	json_cstr(&j, gguf_ttype(o->mo.type_k)->lname);
	json_key(&j, "cache_type_v");
	json_cstr(&j, gguf_ttype(o->mo.type_v)->lname);
	json_key(&j, "parallel"); json_u64(&j, o->mo.n_seq);
	json_key(&j, "swa_full"); json_bool(&j, o->mo.swa_full);
	json_key(&j, "flash_attn");
	json_cstr(&j, o->mo.flash_attn < 0 ? "auto" : o->mo.flash_attn ?
	    "on" : "off");
	json_key(&j, "batch"); json_u64(&j, o->mo.n_batch);
	json_key(&j, "ubatch"); json_u64(&j, o->mo.n_ubatch);
	json_key(&j, "contexts");
	json_arr(&j, JSON_LINES);
	for (i = 0; m->modelled && i < o->n_ctx; i++) {
		json_obj(&j, JSON_FLAT);
		json_key(&j, "context"); json_u64(&j, o->ctx[i]);
		if (!ok[i]) {
			json_key(&j, "refused");
			json_cstr(&j, need[i].refused);
		} else {
			json_need(&j, m, &o->mo, &need[i]);
			json_compute(&j, &need[i]);
			json_key(&j, "total");
			json_u64(&j, need[i].with_weights);
		}
		json_end(&j);
	}
	json_end(&j);
	if (o->split && (!o->ngl_max || fitrc == 0))
		json_split(&j, o, m, f, need, ok);
	if (o->fit) {
		json_key(&j, "fit");
		json_obj(&j, JSON_FLAT);
		json_key(&j, "budget"); json_u64(&j, o->budget);
		if (o->split) {
			json_key(&j, "on"); json_cstr(&j, "gpu");
			json_key(&j, "proven"); json_bool(&j, 0);
		}
		if (o->ngl_max || o->moe_max) {
			json_key(&j, "context"); json_u64(&j, o->ctx[0]);
			if (o->moe_max) {
				json_key(&j, "n_cpu_moe");
				if (fitrc == 1)
					json_null(&j);
				else
					json_u64(&j, o->ovr[o->moe_i].n);
			}
			if (fitrc == 1) {
				json_key(&j, "gpu_layers"); json_null(&j);
			} else {
				json_layers(&j, &f->s);
				json_devices(&j, &f->s);
				fit_flags(o, o->ctx[0], f->ngl, flags,
				    sizeof flags);
				json_key(&j, "flags"); json_cstr(&j, flags);
			}
		} else if (fitrc == 1 || fitrc < 0) {
			json_key(&j, "context"); json_null(&j);
		} else {
			json_key(&j, "context"); json_u64(&j, fit_ctx);
			json_key(&j, "largest"); json_bool(&j, fitrc == 2);
			json_need(&j, m, &o->mo, fitn);
			json_compute(&j, fitn);
			json_key(&j, "total");
			json_u64(&j, fitn->with_weights);
			if (o->split) {
				json_layers(&j, &f->s);
				json_devices(&j, &f->s);
			}
			fit_flags(o, fit_ctx, o->split ? f->ngl : 0, flags,
			    sizeof flags);
			json_key(&j, "flags"); json_cstr(&j, flags);
		}
		json_end(&j);
	}
	json_end(&j);
	json_finish(&j);
}

/* Each placement option's sums; a warning for one that matches no
   tensor. */
static void
ovr_sums(struct opts *o)
{
	struct gguf_err	 err;
	struct ovr	*v;
	size_t		 i, j;
	char		 what[160];

	for (i = 0; i < o->n_ovr; i++) {
		v = &o->ovr[i];
		v->matched = v->tensors = v->bytes = 0;
		for (j = v->first; j < v->first + v->count; j++) {
			v->matched += o->rules[j].matched;
			v->tensors += o->rules[j].tensors;
			v->bytes += o->rules[j].bytes;
		}
		if (v->matched != 0 || (o->moe_max && i == o->moe_i))
			continue;		/* (max: 0 is an answer) */
		memset(&err, 0, sizeof err);
		ovr_name(v, what, sizeof what);
		snprintf(err.msg, sizeof err.msg, "warning: %s matches no "
		    "tensor", what);
		cli_file_error(o->path, &err);
	}
}

/* --mmproj FILE: the projector's weights into o->mo. 0, or the exit
   status of an error said. */
static int
load_mmproj(struct opts *o)
{
	struct gguf_doc		*pd;
	struct gguf_mem_model	 pm;
	struct gguf_err		 err;
	int			 rc = 0;

	memset(&err, 0, sizeof err);
	if ((pd = gguf_doc_open_set(o->mmproj, GGUF_OPEN_STRICT,
	    &err)) == NULL) {
		cli_file_error(o->mmproj, &err);
		return EXIT_BADFILE;
	}
	gguf_mem_model_make(&pm, pd);
	if (strcmp(pm.arch, "clip") != 0) {
		snprintf(err.msg, sizeof err.msg, "--mmproj: not a projector "
		    "(general.architecture is \"%s\", not \"clip\")",
		    pm.arch);
		rc = EXIT_BADFILE;
	} else if (pm.unsized != 0 || pm.weights == UINT64_MAX) {
		snprintf(err.msg, sizeof err.msg, "--mmproj: the size of "
		    "its tensors is not known");
		rc = EXIT_BADFILE;
	} else {
		o->mo.mmproj = pm.weights;
		o->mmproj_tensors = pm.n_tensors;
	}
	if (rc != 0)
		cli_file_error(o->mmproj, &err);
	gguf_mem_model_free(&pm);
	gguf_doc_free(pd);
	return rc;
}

/* Where the tensors go: f->place from d with the placement options. 0;
   -1 with err set. */
static int
place(struct opts *o, const struct gguf_mem_model *m, struct gguf_doc *d,
    struct fitres *f, struct gguf_err *err)
{
	gguf_mem_place_free(&f->place);
	free(o->rules);
	free(o->pats);
	o->rules = NULL;
	o->pats = NULL;
	o->n_rules = 0;
	gguf_mem_place_make(&f->place, m, d);
	if (f->place.placed && o->n_ovr > 0 && (make_rules(o, m) != 0 ||
	    gguf_mem_place_rules(&f->place, m, d, o->rules, o->n_rules,
	    err) != 0)) {
		if (err->msg[0] == '\0')
			snprintf(err->msg, sizeof err->msg, "out of memory");
		return -1;
	}
	return 0;
}

/* With --n-cpu-moe n: 0 if the GPU part fits (-ngl max: if a layer
   does, f->ngl the most), 1 if not, -1 with err set. */
static int
moe_fits(struct opts *o, const struct gguf_mem_model *m, struct gguf_doc *d,
    struct fitres *f, const struct gguf_mem_opts *q, uint64_t n,
    uint64_t ngl, struct gguf_err *err)
{
	struct gguf_mem_need	tn;

	o->ovr[o->moe_i].n = n;
	if (place(o, m, d, f, err) != 0)
		return -1;
	if (!f->place.placed)
		return 0;		/* said by the caller */
	if (ngl == GGUF_MEM_NGL_MAX)
		return gguf_mem_fit_layers(m, &f->place, q, o->budget,
		    &f->ngl, &tn, &f->s) == 0 ? 0 : 1;
	f->ngl = ngl;
	if (gguf_mem_split(m, &f->place, q, &f->n, ngl, &f->s) != 0) {
		snprintf(err->msg, sizeof err->msg, "--fit: too large");
		return -1;
	}
	return f->s.gpu_total <= o->budget ? 0 : 1;
}

/*
 * --n-cpu-moe max: the fewest layers' experts on the CPU with which the
 * layers asked for (-ngl max: every one) fit, then, with every expert on
 * the CPU, the most layers (-ngl max). f->rc 0 or 1; 0, -1 with err set.
 */
static int
fit_moe(struct opts *o, const struct gguf_mem_model *m, struct gguf_doc *d,
    struct fitres *f, const struct gguf_mem_opts *q, struct gguf_err *err)
{
	uint64_t	lo, hi, mid, ngl;
	int		rc;

	ngl = o->ngl_max ? (uint64_t)m->n_layer + 1 : o->ngl;
	hi = m->n_layer;
	if ((rc = moe_fits(o, m, d, f, q, hi, ngl, err)) != 0) {
		if (rc < 0 || !f->place.placed)
			return rc;
		f->rc = 1;
		if (o->ngl_max &&
		    (rc = moe_fits(o, m, d, f, q, hi, GGUF_MEM_NGL_MAX,
		    err)) <= 0) {
			f->rc = rc;
			return rc;
		}
		return 0;
	}
	if ((rc = moe_fits(o, m, d, f, q, 0, ngl, err)) <= 0)
		return rc;
	for (lo = 0; hi - lo > 1;) {	/* lo does not fit, hi does */
		mid = lo + (hi - lo) / 2;
		if ((rc = moe_fits(o, m, d, f, q, mid, ngl, err)) < 0)
			return -1;
		if (rc == 0)
			hi = mid;
		else
			lo = mid;
	}
	return moe_fits(o, m, d, f, q, hi, ngl, err) < 0 ? -1 : 0;
}

/*
 * --gpu-layers: where the tensors outside the layers go, and with --fit
 * the GPU's answer. 0, or the exit status of an error said.
 */
static int
split_fit(struct opts *o, const struct gguf_mem_model *m, struct gguf_doc *d,
    struct fitres *f)
{
	struct gguf_mem_opts	q = o->mo;
	struct gguf_err		err;

	memset(&err, 0, sizeof err);
	if (place(o, m, d, f, &err) != 0) {
		cli_file_error(o->path, &err);
		return EXIT_BADFILE;
	}
	if (o->ngl == GGUF_MEM_NGL_MAX)		/* all: as llama.cpp's -ngl 999 */
		o->ngl = (uint64_t)m->n_layer + 1;
	f->ngl = o->ngl;
	q.n_ctx = o->ctx[0];
	if (f->place.placed && o->moe_max) {
		if (gguf_mem_need(m, &q, &f->n) != 0) {
			snprintf(err.msg, sizeof err.msg, "--fit: %s",
			    f->n.refused);
			cli_file_error(o->path, &err);
			return EXIT_BADFILE;
		}
		if (fit_moe(o, m, d, f, &q, &err) != 0) {
			cli_file_error(o->path, &err);
			return EXIT_BADFILE;
		}
	}
	if (f->place.placed)
		ovr_sums(o);
	if (!f->place.placed) {
		snprintf(err.msg, sizeof err.msg, "--gpu-layers: %s",
		    f->place.why);
		cli_file_error(o->path, &err);
		return EXIT_BADFILE;
	}
	if (!o->fit || o->moe_max)
		return 0;
	f->rc = o->ngl_max ? gguf_mem_fit_layers(m, &f->place, &q, o->budget,
	    &f->ngl, &f->n, &f->s) : gguf_mem_fit_gpu(m, &f->place, &o->mo,
	    o->ngl, o->budget, &f->ctx, &f->n, &f->s);
	if (f->rc < 0) {
		snprintf(err.msg, sizeof err.msg, "--fit: %s", f->n.refused);
		cli_file_error(o->path, &err);
		return EXIT_BADFILE;
	}
	return 0;
}

int
cmd_mem(int argc, char **argv)
{
	struct opts		 o;
	struct gguf_doc		*d;
	struct gguf_err		 err;
	struct gguf_mem_model	 m;
	struct gguf_mem_need	 need[MAX_CTX + 1];
	struct fitres		 f;
	int			 ok[MAX_CTX + 1], rc;
	size_t			 i;
	char			 left[400];

	argc = cli_take_shard(argc, argv);
	if ((rc = parse_opts(argc, argv, &o)) != 0 || o.keys) {
		if (rc == 0)
			gguf_mem_list(stdout);
		opts_free(&o);
		return rc;
	}
	if (cli_leftovers(o.path, left, sizeof left)) {
		memset(&err, 0, sizeof err);
		snprintf(err.msg, sizeof err.msg, "warning: %s", left);
		cli_file_error(o.path, &err);
	}
	memset(&err, 0, sizeof err);
	if ((d = gguf_doc_open_set(o.path, cli_alone ? GGUF_OPEN_ALONE :
	    GGUF_OPEN_STRICT, &err)) == NULL) {
		cli_file_error(o.path, &err);
		opts_free(&o);
		return EXIT_BADFILE;
	}
	gguf_mem_model_make(&m, d);
	if (o.mmproj != NULL && (rc = load_mmproj(&o)) != 0) {
		gguf_mem_model_free(&m);
		gguf_doc_free(d);
		opts_free(&o);
		return rc;
	}
	if (o.n_ctx == 0 && (o.ngl_max || o.moe_max)) {	/* max: at one context */
		o.ctx[0] = 0;
		o.n_ctx = 1;
	} else if (o.n_ctx == 0)
		o.n_ctx = gguf_mem_default_contexts(&m, o.ctx);
	for (i = 0; i < o.n_ctx; i++)	/* 0: the training context */
		if (o.ctx[i] == 0)
			o.ctx[i] = m.n_ctx_train;
	rc = 0;
	memset(&f, 0, sizeof f);
	for (i = 0; i < o.n_ctx; i++) {
		o.mo.n_ctx = o.ctx[i];
		ok[i] = m.modelled && gguf_mem_need(&m, &o.mo, &need[i]) == 0;
	}
	if (m.modelled) {
		/* A refusal that holds at every context is an error. */
		for (i = 0; i < o.n_ctx && !ok[i]; i++)
			;
		if (i == o.n_ctx && o.n_ctx > 0) {
			memset(&err, 0, sizeof err);
			snprintf(err.msg, sizeof err.msg, "%s",
			    need[0].refused);
			cli_file_error(o.path, &err);
			gguf_mem_model_free(&m);
			gguf_doc_free(d);
			opts_free(&o);
			return EXIT_BADFILE;
		}
	}
	if (o.split && (rc = split_fit(&o, &m, d, &f)) != 0) {
		gguf_mem_place_free(&f.place);
		gguf_mem_model_free(&m);
		gguf_doc_free(d);
		opts_free(&o);
		return rc;
	}
	if (o.fit && !o.split) {
		f.rc = gguf_mem_fit(&m, &o.mo, o.budget, &f.ctx, &f.n);
		if (f.rc < 0) {
			memset(&err, 0, sizeof err);
			snprintf(err.msg, sizeof err.msg, "--fit: %s",
			    f.n.refused);
			cli_file_error(o.path, &err);
			rc = EXIT_BADFILE;
		} else if (f.rc == 1)
			rc = 1;
	} else if (o.fit && f.rc == 1)
		rc = 1;
	if (f.rc >= 0) {
		if (o.json)
			print_json(&o, &m, need, ok, &f);
		else
			print_text(&o, &m, &f);
	}
	gguf_mem_place_free(&f.place);
	gguf_mem_model_free(&m);
	gguf_doc_free(d);
	opts_free(&o);
	return rc;
}
