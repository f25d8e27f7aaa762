/*
 * llama_gen.c - the tokens llama.cpp itself generates from a model: the
 * proof that a file ggufed wrote (a split set, a merged set, a saved
 * edit) is the same model to llama.cpp as the one it came from.
 *
 *	llama_gen LIBDIR MODEL [--prompt TEXT] [--tokens N] [--ctx N]
 *
 * LIBDIR holds llama.cpp's prebuilt libraries (libllama, libggml,
 * libggml-base and the CPU backends) of the npm package
 * @node-llama-cpp/linux-x64 3.22.1; they are loaded with dlopen() and
 * only this program's own declarations of the few entry points it calls
 * are used. A split model is given by its first shard, as llama.cpp is
 * (it finds the others from the name).
 *
 * The prompt (default "Once upon a time") is tokenized with the model's
 * own vocabulary (special tokens added as the model asks), decoded on the
 * CPU with one thread, and N tokens (default 24) are generated greedily:
 * each is the first token of highest logit, fed back whatever it is
 * (an end of text included), so the output is a pure function of the
 * model's weights, hyper-parameters and vocabulary. Output:
 *
 *	prompt ID ID ...
 *	tokens ID ID ...
 *	logits HEX		an FNV-1a hash of the bits of every logit
 *				of every step: any change of the
 *				computation shows, even one that leaves
 *				the greedy choices alone
 *	text TEXT		the generated pieces, for a reader
 *
 * Exit: 0 generated, 3 llama.cpp refused (the model, the context, the
 * prompt or a decode), 4 the library is missing or its layout is not the
 * expected one, 2 usage.
 */
#include <dlfcn.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * struct llama_model_params is passed on as the library's defaults, never
 * read or changed here: an opaque block at least as large as the real one
 * (a structure this large is returned and passed in memory, and the
 * library reads only its own size of it).
 */
struct lg_model_params {
	unsigned char	 opaque[256];
};

/* llama.h of the release: struct llama_context_params. */
struct lg_context_params {
	uint32_t	 n_ctx, n_batch, n_ubatch, n_seq_max, n_rs_seq,
			 n_outputs_max, n_outputs_max_per_seq;
	int32_t		 n_threads, n_threads_batch;
	int		 ctx_type, rope_scaling_type, pooling_type,
			 attention_type, flash_attn_type;
	float		 rope_freq_base, rope_freq_scale, yarn_ext_factor,
			 yarn_attn_factor, yarn_beta_fast, yarn_beta_slow;
	uint32_t	 yarn_orig_ctx;
	float		 defrag_thold;
	void		*cb_eval, *cb_eval_user_data;
	int		 type_k, type_v;
	void		*abort_callback, *abort_callback_data;
	bool		 embeddings, offload_kqv, no_perf, op_offload,
			 swa_full, kv_unified;
	void		*samplers;
	size_t		 n_samplers;
	void		*ctx_other;
};

/* llama.h: struct llama_batch (passed and returned by value). */
struct lg_batch {
	int32_t		 n_tokens;
	int32_t		*token;
	float		*embd;
	int32_t		*pos;
	int32_t		*n_seq_id;
	int32_t		**seq_id;
	int8_t		*logits;
};

typedef void (*log_cb)(int level, const char *text, void *ud);

#define MAX_TOKENS	512

static char	logline[4096];

/* llama.cpp's log arrives in pieces; whole lines that say why it failed
 * go to standard error. */
static void
on_log(int level, const char *text, void *ud)
{
	size_t	n = strlen(logline), m = strlen(text);
	char	*nl;

	(void)level;
	(void)ud;
	if (n + m >= sizeof logline)
		m = sizeof logline - n - 1;
	memcpy(logline + n, text, m);
	logline[n + m] = '\0';
	while ((nl = strchr(logline, '\n')) != NULL) {
		*nl = '\0';
		if (strstr(logline, "error") != NULL ||
		    strstr(logline, "failed") != NULL)
			fprintf(stderr, "llama: %s\n", logline);
		memmove(logline, nl + 1, strlen(nl + 1) + 1);
	}
}

static void *
sym(void *h, const char *name)
{
	void	*p = dlsym(h, name);

	if (p == NULL) {
		fprintf(stderr, "llama_gen: %s: %s\n", name, dlerror());
		exit(4);
	}
	return p;
}

static void *
open_lib(const char *dir, const char *name)
{
	char	 path[4096];
	void	*h;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	if ((h = dlopen(path, RTLD_NOW | RTLD_GLOBAL)) == NULL) {
		fprintf(stderr, "llama_gen: %s\n", dlerror());
		exit(4);
	}
	return h;
}

static uint64_t
fnv1a(uint64_t h, const void *p, size_t n)
{
	const unsigned char	*b = p;

	while (n-- > 0) {
		h ^= *b++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

int
main(int argc, char **argv)
{
	struct lg_model_params		 mp;
	struct lg_context_params	 cp;
	struct lg_batch			 batch;
	struct lg_model_params		(*model_defaults)(void);
	struct lg_context_params	(*context_defaults)(void);
	struct lg_batch			(*batch_get_one)(int32_t *, int32_t);
	void	(*backend_init)(void);
	void	(*log_set)(log_cb, void *);
	void	(*load_all)(const char *);
	void	*(*model_load)(const char *, struct lg_model_params);
	void	*(*ctx_init)(void *, struct lg_context_params);
	void	(*ctx_free)(void *);
	void	(*model_free)(void *);
	const void	*(*get_vocab)(const void *);
	int32_t	(*vocab_n_tokens)(const void *);
	int32_t	(*tokenize)(const void *, const char *, int32_t, int32_t *,
		    int32_t, bool, bool);
	int32_t	(*token_to_piece)(const void *, int32_t, char *, int32_t,
		    int32_t, bool);
	int32_t	(*decode)(void *, struct lg_batch);
	float	*(*get_logits_ith)(void *, int32_t);
	void	*llama, *model, *ctx;
	const void	*vocab;
	const char	*prompt = "Once upon a time";
	const float	*logits;
	int32_t	 prompt_ids[MAX_TOKENS], gen[MAX_TOKENS], n_prompt, n_vocab,
		 best, j;
	uint64_t	 hash = 0xcbf29ce484222325ULL;
	unsigned long	 n_gen = 24, n_ctx = 256;
	char	 piece[256];
	int	 i, n, rc = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: llama_gen LIBDIR MODEL [--prompt TEXT] "
		    "[--tokens N] [--ctx N]\n");
		return 2;
	}
	for (i = 3; i < argc; i++) {
		if (strcmp(argv[i], "--prompt") == 0 && i + 1 < argc)
			prompt = argv[++i];
		else if (strcmp(argv[i], "--tokens") == 0 && i + 1 < argc)
			n_gen = strtoul(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "--ctx") == 0 && i + 1 < argc)
			n_ctx = strtoul(argv[++i], NULL, 10);
		else {
			fprintf(stderr, "llama_gen: bad argument %s\n",
			    argv[i]);
			return 2;
		}
	}
	if (n_gen < 1 || n_gen > MAX_TOKENS || n_ctx < 16 || n_ctx > 65536) {
		fprintf(stderr, "llama_gen: --tokens 1..%d, --ctx 16..65536\n",
		    MAX_TOKENS);
		return 2;
	}

	(void)open_lib(argv[1], "libggml-base.so");
	*(void **)&load_all = sym(open_lib(argv[1], "libggml.v0.5.0.so"),
	    "ggml_backend_load_all_from_path");
	llama = open_lib(argv[1], "libllama.v0.5.0.so");
	*(void **)&backend_init = sym(llama, "llama_backend_init");
	*(void **)&log_set = sym(llama, "llama_log_set");
	*(void **)&model_defaults = sym(llama, "llama_model_default_params");
	*(void **)&context_defaults = sym(llama,
	    "llama_context_default_params");
	*(void **)&model_load = sym(llama, "llama_model_load_from_file");
	*(void **)&ctx_init = sym(llama, "llama_init_from_model");
	*(void **)&ctx_free = sym(llama, "llama_free");
	*(void **)&model_free = sym(llama, "llama_model_free");
	*(void **)&get_vocab = sym(llama, "llama_model_get_vocab");
	*(void **)&vocab_n_tokens = sym(llama, "llama_vocab_n_tokens");
	*(void **)&tokenize = sym(llama, "llama_tokenize");
	*(void **)&token_to_piece = sym(llama, "llama_token_to_piece");
	*(void **)&batch_get_one = sym(llama, "llama_batch_get_one");
	*(void **)&decode = sym(llama, "llama_decode");
	*(void **)&get_logits_ith = sym(llama, "llama_get_logits_ith");

	mp = model_defaults();
	cp = context_defaults();
	/* The layout checks: the release's documented defaults, and a batch
	 * of the prompt's tokens as llama.h says llama_batch_get_one fills
	 * it. */
	if (cp.n_ctx != 512 || cp.n_batch != 2048 || cp.n_ubatch != 512 ||
	    cp.n_seq_max != 1 || cp.n_rs_seq != 0 || cp.n_outputs_max != 0 ||
	    cp.n_outputs_max_per_seq != 1 || cp.n_threads != 4 ||
	    cp.n_threads_batch != 4 || cp.ctx_type != 0 ||
	    cp.attention_type != -1 || cp.flash_attn_type != -1 ||
	    !(cp.defrag_thold < -0.5f) || cp.cb_eval != NULL ||
	    cp.type_k != 1 || cp.type_v != 1 || cp.embeddings ||
	    !cp.offload_kqv || !cp.no_perf || !cp.op_offload ||
	    !cp.swa_full || cp.kv_unified || cp.samplers != NULL ||
	    cp.n_samplers != 0) {
		fprintf(stderr, "llama_gen: the library's default parameters "
		    "are not those of the expected release\n");
		return 4;
	}
	memset(&batch, 0xa5, sizeof batch);
	batch = batch_get_one(prompt_ids, 7);
	if (batch.n_tokens != 7 || batch.token != prompt_ids ||
	    batch.embd != NULL || batch.pos != NULL ||
	    batch.n_seq_id != NULL || batch.seq_id != NULL ||
	    batch.logits != NULL) {
		fprintf(stderr, "llama_gen: llama_batch_get_one does not fill "
		    "the batch of the expected release\n");
		return 4;
	}
	/* One thread: the same sums in the same order on every run. */
	cp.n_ctx = (uint32_t)n_ctx;
	cp.n_batch = cp.n_ubatch = (uint32_t)n_ctx;
	cp.n_threads = cp.n_threads_batch = 1;

	log_set(on_log, NULL);
	load_all(argv[1]);
	backend_init();
	if ((model = model_load(argv[2], mp)) == NULL) {
		fprintf(stderr, "llama_gen: %s: llama.cpp cannot load the "
		    "model\n", argv[2]);
		return 3;
	}
	vocab = get_vocab(model);
	n_vocab = vocab_n_tokens(vocab);
	n_prompt = tokenize(vocab, prompt, (int32_t)strlen(prompt),
	    prompt_ids, MAX_TOKENS, true, false);
	if (n_prompt <= 0 || n_vocab <= 0 ||
	    (unsigned long)n_prompt + n_gen > n_ctx) {
		fprintf(stderr, "llama_gen: %s: the prompt gives %d tokens "
		    "(vocabulary of %d)\n", argv[2], n_prompt, n_vocab);
		model_free(model);
		return 3;
	}
	if ((ctx = ctx_init(model, cp)) == NULL) {
		fprintf(stderr, "llama_gen: %s: llama.cpp refuses the "
		    "context\n", argv[2]);
		model_free(model);
		return 3;
	}
	batch = batch_get_one(prompt_ids, n_prompt);
	for (n = 0; n < (int)n_gen; n++) {
		if (decode(ctx, batch) != 0 ||
		    (logits = get_logits_ith(ctx, -1)) == NULL) {
			fprintf(stderr, "llama_gen: %s: decoding token %d "
			    "failed\n", argv[2], n);
			rc = 3;
			break;
		}
		hash = fnv1a(hash, logits, (size_t)n_vocab * sizeof *logits);
		best = 0;
		for (j = 1; j < n_vocab; j++)
			if (logits[j] > logits[best])
				best = j;
		gen[n] = best;
		batch = batch_get_one(&gen[n], 1);
	}
	if (rc == 0) {
		printf("prompt");
		for (i = 0; i < n_prompt; i++)
			printf(" %d", prompt_ids[i]);
		printf("\ntokens");
		for (i = 0; i < n; i++)
			printf(" %d", gen[i]);
		printf("\nlogits %016llx\ntext ", (unsigned long long)hash);
		for (i = 0; i < n; i++) {
			j = token_to_piece(vocab, gen[i], piece,
			    (int32_t)sizeof piece - 1, 0, false);
			if (j < 0)
				j = 0;
			piece[j] = '\0';
			for (j = 0; piece[j] != '\0'; j++)
				putchar(piece[j] == '\n' ? ' ' :
				    (unsigned char)piece[j]);
		}
		putchar('\n');
	}
	ctx_free(ctx);
	model_free(model);
	return rc;
}
