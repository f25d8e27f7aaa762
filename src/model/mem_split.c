/*
 * mem_split.c - which device llama.cpp puts each byte on when it
 * offloads layers (-ngl N, --gpu-layers N), see mem_split.h.
 *
 * The rule, read from llama.cpp's sources (the version with pull request
 * 18148, "offload output layer to GPU first", December 2025):
 *
 * - src/llama-model.cpp, llama_model::load_tensors: of n_layer + 1
 *   slots (the repeating layers 0 to n_layer - 1, then the output layer
 *   as slot n_layer), the last N go to the GPU: i_gpu_start =
 *   max(n_layer + 1 - N, 0), get_layer_buft_list(il) gives the GPU for
 *   il >= i_gpu_start. So -ngl 1 offloads the output layer alone, -ngl N
 *   the output layer and the last N - 1 repeating layers, -ngl n_layer + 1
 *   (or more) everything. dev_input, the input layer, is the CPU always.
 * - src/llama-arch.cpp, LLM_TENSOR_INFOS: the layer each tensor is loaded
 *   with. token_embd, position_embd, token_types, per_layer_token_embd:
 *   the input layer; output, output_norm, cls, cls.output: the output
 *   layer; token_embd_norm: layer 0 ("do the norms on the first layer");
 *   rope_freqs, rope_factors_long, rope_factors_short: every repeating
 *   layer (created once a layer, TENSOR_DUPLICATED: one copy on each
 *   device that holds a layer).
 * - llama_model_loader::create_tensor: a model without output.weight
 *   loads token_embd again as the output tensor (TENSOR_DUPLICATED): on
 *   the output layer's device, a second copy unless that is the CPU.
 * - src/llama-kv-cache.cpp (llama_kv_cache) and
 *   src/llama-memory-recurrent.cpp: each layer's K and V (R and S) on
 *   model.dev_layer(il) when offload_kqv, llama.cpp's default.
 * - src/llama-context.cpp, llama_context::output_reserve: the output
 *   buffer in host memory (the output device's host buffer type).
 *
 * The rules of -ot (--override-tensor), --cpu-moe and --n-cpu-moe:
 *
 * - common/arg.cpp: -ot takes PATTERN=BUFTYPE pairs, comma-separated, the
 *   buffer type one of the devices' (ggml_backend_dev_buffer_type, by
 *   ggml_backend_buft_name), else "unknown buffer type"; --cpu-moe adds
 *   the rule LLM_FFN_EXPS_REGEX=CPU, --n-cpu-moe N the rules
 *   blk\.I<LLM_FFN_EXPS_REGEX>=CPU for I from 0 to N - 1
 *   (llm_ffn_exps_block_regex, common/common.h), each where it stands
 *   among the options.
 * - src/llama-model-loader.cpp, create_tensor: a tensor's name is
 *   searched (std::regex_search) with each rule in turn, the first match
 *   giving its buffer type, whatever its layer's device; a tensor no rule
 *   matches goes with its layer. The cache stays with the layer.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "mem_split.h"
#include "re.h"
#include "schema.h"

/* The tensors outside blk.N by where llama.cpp loads them. */
static const struct {
	const char	*prefix;
	int		 where;
} places[] = {
	{ "token_embd_norm.", 'f' },
	{ "token_embd.", 'i' },
	{ "position_embd.", 'i' },
	{ "token_types.", 'i' },
	{ "per_layer_token_embd.", 'i' },
	{ "output_norm.", 'o' },
	{ "output.", 'o' },
	{ "cls.", 'o' },
	{ "rope_freqs.", 's' },
	{ "rope_factors_long.", 's' },
	{ "rope_factors_short.", 's' },
};

static int
place_of(const struct gguf_str *name)
{
	size_t	i, n;

	for (i = 0; i < sizeof places / sizeof places[0]; i++) {
		n = strlen(places[i].prefix);
		if ((size_t)name->n > n && memcmp(name->p, places[i].prefix,
		    n) == 0)
			return places[i].where;
	}
	return 0;
}

static void
sadd(uint64_t *acc, uint64_t x)
{
	if (gguf_add_ok(*acc, x, acc) != 0)
		*acc = UINT64_MAX;
}

void
gguf_mem_place_make(struct gguf_mem_place *p, const struct gguf_mem_model *m,
    struct gguf_doc *d)
{
	struct gguf_doc_tensor	t;
	uint64_t		i, n = gguf_doc_n_tensors(d), embd = 0;
	int64_t			l;
	int			has_output = 0;
	char			nm[100];

	memset(p, 0, sizeof *p);
	if (!m->modelled) {
		snprintf(p->why, sizeof p->why, "%s", m->why);
		return;
	}
	for (i = 0; i < n; i++) {
		if (gguf_doc_tensor(d, i, &t) != 0 ||
		    (t.flags & GGUF_ED_REMOVED))
			continue;
		l = gguf_tensor_block(&t.name);
		if (l >= 0 && (uint64_t)l < m->n_layer)
			continue;
		switch (place_of(&t.name)) {
		case 'i':
			sadd(&p->input, t.nbytes);
			if (t.name.n == 17 &&
			    memcmp(t.name.p, "token_embd.weight", 17) == 0)
				embd = t.nbytes;
			break;
		case 'o':
			sadd(&p->output, t.nbytes);
			if (t.name.n == 13 &&
			    memcmp(t.name.p, "output.weight", 13) == 0)
				has_output = 1;
			break;
		case 'f':
			sadd(&p->first, t.nbytes);
			break;
		case 's':
			sadd(&p->shared, t.nbytes);
			break;
		default:
			snprintf(p->why, sizeof p->why, "tensor %s: the "
			    "device llama.cpp loads it on is not known",
			    gguf_pname(t.name.p, (size_t)t.name.n, nm,
			    sizeof nm));
			return;
		}
	}
	p->tied = has_output ? 0 : embd;
	p->placed = 1;
}

void
gguf_mem_exps_block_re(uint32_t block, char *buf, size_t len)
{
	snprintf(buf, len, "blk\\.%u%s", block, GGUF_MEM_EXPS_RE);
}

int
gguf_mem_buftype(const char *name)
{
	static const char *const gpus[] = { "CUDA", "ROCm", "MUSA", "Vulkan",
	    "SYCL", "CANN", "MTL" };
	size_t	i, n;

	if (strcmp(name, "CPU") == 0)
		return 0;
	if (strcmp(name, "Metal") == 0)
		return 1;
	for (i = 0; i < sizeof gpus / sizeof gpus[0]; i++) {
		n = strlen(gpus[i]);
		if (strncmp(name, gpus[i], n) != 0 || name[n] == '\0' ||
		    strlen(name + n) > 3)
			continue;
		for (name += n; *name >= '0' && *name <= '9'; name++)
			;
		return *name == '\0' ? 1 : -1;
	}
	return -1;
}

void
gguf_mem_place_free(struct gguf_mem_place *p)
{
	free(p->forced);
	p->forced = NULL;
}

/* Takes x from *from, never below 0 (a sum held at 2^64 is less than
   its parts). */
static void
ssub(uint64_t *from, uint64_t x)
{
	*from = *from >= x ? *from - x : 0;
}

int
gguf_mem_place_rules(struct gguf_mem_place *p, const struct gguf_mem_model *m,
    struct gguf_doc *d, struct gguf_mem_rule *rules, size_t n,
    struct gguf_err *err)
{
	struct gguf_doc_tensor	  t;
	struct gguf_re		**re;
	uint64_t		  i, nt = gguf_doc_n_tensors(d);
	size_t			  r, first, so, eo;
	int64_t			  l;
	int			  rc = -1, where;
	char			  nm[100];

	if ((re = calloc(n + 1, sizeof *re)) == NULL) {
		snprintf(err->msg, sizeof err->msg, "out of memory");
		return -1;
	}
	for (r = 0; r < n; r++) {
		rules[r].matched = rules[r].tensors = rules[r].bytes = 0;
		if ((re[r] = gguf_re_compile(rules[r].pattern, 0, err)) == NULL)
			goto out;
	}
	rc = 0;
	if (!p->placed || n == 0)
		goto out;
	if ((p->forced = calloc((size_t)m->n_layer + 1,
	    sizeof *p->forced)) == NULL) {
		snprintf(err->msg, sizeof err->msg, "out of memory");
		rc = -1;
		goto out;
	}
	for (i = 0; i < nt; i++) {
		if (gguf_doc_tensor(d, i, &t) != 0 ||
		    (t.flags & GGUF_ED_REMOVED))
			continue;
		first = n;
		for (r = 0; r < n; r++)
			if (gguf_re_match(re[r], t.name.p, (size_t)t.name.n, 0,
			    &so, &eo)) {
				rules[r].matched++;
				if (first == n)
					first = r;
			}
		if ((r = first) == n)
			continue;
		l = gguf_tensor_block(&t.name);
		where = l >= 0 && (uint64_t)l < m->n_layer ? 'l' :
		    place_of(&t.name);
		if (where == 's' || (where == 'i' && p->tied != 0 &&
		    t.name.n == 17 && memcmp(t.name.p, "token_embd.weight",
		    17) == 0)) {
			snprintf(p->why, sizeof p->why, "tensor %s, which "
			    "llama.cpp loads more than once, is placed by "
			    "'%s': where its copies go is not modelled",
			    gguf_pname(t.name.p, (size_t)t.name.n, nm,
			    sizeof nm), rules[r].pattern);
			p->placed = 0;
			goto out;
		}
		switch (where) {
		case 'l': sadd(&p->forced[l], t.nbytes); break;
		case 'i': ssub(&p->input, t.nbytes); break;
		case 'o': ssub(&p->output, t.nbytes); break;
		case 'f': ssub(&p->first, t.nbytes); break;
		default: break;		/* place_make placed every tensor */
		}
		sadd(rules[r].gpu ? &p->fixed_gpu : &p->fixed_cpu, t.nbytes);
		rules[r].tensors++;
		sadd(&rules[r].bytes, t.nbytes);
	}
out:
	for (r = 0; r < n; r++)
		gguf_re_free(re[r]);
	free(re);
	return rc;
}

/* The first slot on the GPU (n_layer + 1: none) for -ngl ngl. */
static uint64_t
gpu_start(const struct gguf_mem_model *m, uint64_t ngl)
{
	uint64_t	slots = (uint64_t)m->n_layer + 1;

	return ngl >= slots ? 0 : slots - ngl;
}

int
gguf_mem_split(const struct gguf_mem_model *m,
    const struct gguf_mem_place *p, const struct gguf_mem_opts *o,
    const struct gguf_mem_need *n, uint64_t ngl, struct gguf_mem_split *s)
{
	uint64_t	start = gpu_start(m, ngl), k, v, *w, *c;
	uint32_t	il;

	memset(s, 0, sizeof *s);
	s->ngl = ngl;
	s->first_gpu = start < m->n_layer ? (uint32_t)start : m->n_layer;
	s->n_gpu = m->n_layer - s->first_gpu;
	s->output_gpu = start <= m->n_layer;
	if (gguf_add_ok(s->cpu_weights, p->input, &s->cpu_weights) != 0)
		return -1;
	for (il = 0; il < m->n_layer; il++) {
		w = il >= s->first_gpu ? &s->gpu_weights : &s->cpu_weights;
		c = il >= s->first_gpu ? &s->gpu_cache : &s->cpu_cache;
		if (gguf_mem_layer_bytes(m, o, n, il, &k, &v) != 0 ||
		    gguf_add_ok(*w, m->layers[il].weights - (p->forced != NULL ?
		    p->forced[il] : 0), w) != 0 ||
		    gguf_add_ok(*c, k, c) != 0 || gguf_add_ok(*c, v, c) != 0)
			return -1;
	}
	w = s->first_gpu == 0 ? &s->gpu_weights : &s->cpu_weights;
	if (gguf_add_ok(*w, p->first, w) != 0)
		return -1;
	/* A copy of the shared tensors on each device with a layer. */
	if (s->n_gpu > 0 && gguf_add_ok(s->gpu_weights, p->shared,
	    &s->gpu_weights) != 0)
		return -1;
	if (s->first_gpu > 0 && gguf_add_ok(s->cpu_weights, p->shared,
	    &s->cpu_weights) != 0)
		return -1;
	if (s->n_gpu > 0 && s->first_gpu > 0)
		s->copies = p->shared;
	if (s->output_gpu) {
		if (gguf_add_ok(s->gpu_weights, p->output, &s->gpu_weights) ||
		    gguf_add_ok(s->gpu_weights, p->tied, &s->gpu_weights) ||
		    gguf_add_ok(s->copies, p->tied, &s->copies))
			return -1;
	} else if (gguf_add_ok(s->cpu_weights, p->output, &s->cpu_weights))
		return -1;
	if (gguf_add_ok(s->cpu_weights, p->fixed_cpu, &s->cpu_weights) ||
	    gguf_add_ok(s->gpu_weights, p->fixed_gpu, &s->gpu_weights))
		return -1;
	/* The projector (mtmd's clip context): the GPU unless told not. */
	w = o->mmproj_cpu ? &s->cpu_weights : &s->gpu_weights;
	if (gguf_add_ok(*w, o->mmproj, w) != 0)
		return -1;
	s->cpu_output = n->output;
	if (gguf_add_ok(s->gpu_weights, s->gpu_cache, &s->gpu_total) != 0 ||
	    gguf_add_ok(s->cpu_weights, s->cpu_cache, &s->cpu_total) != 0 ||
	    gguf_add_ok(s->cpu_total, s->cpu_output, &s->cpu_total) != 0)
		return -1;
	return 0;
}

int
gguf_mem_fit_layers(const struct gguf_mem_model *m,
    const struct gguf_mem_place *p, const struct gguf_mem_opts *o,
    uint64_t budget, uint64_t *ngl, struct gguf_mem_need *n,
    struct gguf_mem_split *s)
{
	uint64_t	i;

	if (gguf_mem_need(m, o, n) != 0)
		return -1;
	/* The GPU's part grows with every slot: the first that fits. */
	for (i = (uint64_t)m->n_layer + 1; i > 0; i--)
		if (gguf_mem_split(m, p, o, n, i, s) == 0 &&
		    s->gpu_total <= budget) {
			*ngl = i;
			return 0;
		}
	*ngl = 0;
	gguf_mem_split(m, p, o, n, 0, s);
	return 1;
}

/* The GPU's part at context ctx: 0 if it fits in budget. */
static int
gpu_fits(const struct gguf_mem_model *m, const struct gguf_mem_place *p,
    const struct gguf_mem_opts *o, uint64_t ngl, uint64_t ctx,
    uint64_t budget, struct gguf_mem_need *n, struct gguf_mem_split *s)
{
	struct gguf_mem_opts	q = *o;

	q.n_ctx = ctx;
	if (gguf_mem_need(m, &q, n) != 0)
		return -1;
	if (gguf_mem_split(m, p, &q, n, ngl, s) != 0)
		return -1;
	return s->gpu_total <= budget ? 0 : 1;
}

int
gguf_mem_fit_gpu(const struct gguf_mem_model *m,
    const struct gguf_mem_place *p, const struct gguf_mem_opts *o,
    uint64_t ngl, uint64_t budget, uint64_t *n_ctx,
    struct gguf_mem_need *n, struct gguf_mem_split *s)
{
	struct gguf_mem_need	tn;
	struct gguf_mem_split	ts;
	uint64_t		lo, hi, mid, step;
	int			rc;

	step = 256 * (o->unified ? 1 : (o->n_seq != 0 ? o->n_seq : 1));
	if ((rc = gpu_fits(m, p, o, ngl, step, budget, n, s)) != 0) {
		*n_ctx = 0;
		return rc;
	}
	lo = 1;
	hi = (UINT32_MAX - 255) / step;
	if (gpu_fits(m, p, o, ngl, hi * step, budget, &tn, &ts) == 0) {
		*n_ctx = hi * step;
		*n = tn;
		*s = ts;
		return 2;
	}
	while (hi - lo > 1) {		/* lo fits, hi does not */
		mid = lo + (hi - lo) / 2;
		if (gpu_fits(m, p, o, ngl, mid * step, budget, &tn, &ts) == 0) {
			lo = mid;
			*n = tn;
			*s = ts;
		} else
			hi = mid;
	}
	*n_ctx = lo * step;
	return 0;
}

void
gguf_mem_split_what(const struct gguf_mem_model *m,
    const struct gguf_mem_split *s, char *buf, size_t len)
{
	if (s->n_gpu == 0)
		snprintf(buf, len, "%s", s->output_gpu ? "the output layer "
		    "alone on the GPU" : "nothing on the GPU");
	else if (s->n_gpu == 1)
		snprintf(buf, len, "layer %u%s on the GPU", s->first_gpu,
		    s->output_gpu ? " and the output layer" : "");
	else
		snprintf(buf, len, "layers %u to %u%s on the GPU",
		    s->first_gpu, m->n_layer - 1,
		    s->output_gpu ? " and the output layer" : "");
}

static void
write_one(FILE *fp, const struct gguf_mem_split *s, uint64_t ctx)
{
	char	a[64], b[64], c[64], d[64], g[32];

	fprintf(fp, "%-13s GPU %s: weights %s, cache %s\n",
	    gguf_fmt_group(ctx, g, sizeof g),
	    gguf_fmt_bytes(s->gpu_total, a, sizeof a),
	    gguf_fmt_bytes(s->gpu_weights, b, sizeof b),
	    gguf_fmt_bytes(s->gpu_cache, c, sizeof c));
	fprintf(fp, "%-13s CPU %s: weights %s, cache %s, output %s\n", "",
	    gguf_fmt_bytes(s->cpu_total, a, sizeof a),
	    gguf_fmt_bytes(s->cpu_weights, b, sizeof b),
	    gguf_fmt_bytes(s->cpu_cache, c, sizeof c),
	    gguf_fmt_bytes(s->cpu_output, d, sizeof d));
}

void
gguf_mem_split_write(FILE *fp, const struct gguf_mem_model *m,
    const struct gguf_mem_place *p, const struct gguf_mem_opts *o,
    uint64_t ngl, const uint64_t *ctx, size_t n_ctx)
{
	struct gguf_mem_opts	q = *o;
	struct gguf_mem_need	n;
	struct gguf_mem_split	s;
	char			what[160], a[64];
	size_t			i;
	int			head = 0;

	if (!p->placed) {
		fprintf(fp, "\nsplit         not modelled: %s\n", p->why);
		return;
	}
	for (i = 0; i < n_ctx; i++) {
		q.n_ctx = ctx[i];
		if (gguf_mem_need(m, &q, &n) != 0 ||
		    gguf_mem_split(m, p, &q, &n, ngl, &s) != 0)
			continue;
		if (!head) {
			gguf_mem_split_what(m, &s, what, sizeof what);
			fprintf(fp, "\nsplit         -ngl %llu: %s (llama.cpp's "
			    "rule; not proven here: no GPU in the tests)\n",
			    (unsigned long long)ngl, what);
			if (s.copies != 0)
				fprintf(fp, "copies        %s on both devices "
				    "(%s)\n", gguf_fmt_bytes(s.copies, a,
				    sizeof a), p->tied != 0 && s.output_gpu ?
				    "token_embd.weight again as the output" :
				    "rope tensors of every layer");
			fprintf(fp, "\n%-13s device and what it holds\n",
			    "context");
			head = 1;
		}
		write_one(fp, &s, ctx[i]);
	}
	if (head)
		fprintf(fp, "note          not counted: llama.cpp's compute "
		    "buffers on each device, which depend on the batch and "
		    "the backend\n");
}
