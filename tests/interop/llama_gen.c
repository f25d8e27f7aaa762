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
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "llama_abi.h"


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
	return la_sym("llama_gen", h, name);
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
	struct la_model_params		 mp;
	struct la_context_params	 cp;
	struct lg_batch			 batch;
	struct la_model_params		(*model_defaults)(void);
	struct la_context_params	(*context_defaults)(void);
	struct lg_batch			(*batch_get_one)(int32_t *, int32_t);
	void	(*backend_init)(void);
	void	(*log_set)(la_log_cb, void *);
	void	(*load_all)(const char *);
	void	*(*model_load)(const char *, struct la_model_params);
	void	*(*ctx_init)(void *, struct la_context_params);
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

	(void)la_open("llama_gen", argv[1], "libggml-base.so");
	*(void **)&load_all = sym(la_open("llama_gen", argv[1], "libggml.v0.5.0.so"),
	    "ggml_backend_load_all_from_path");
	llama = la_open("llama_gen", argv[1], "libllama.v0.5.0.so");
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
	if (!la_defaults_ok(&cp)) {
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
