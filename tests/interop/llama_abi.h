/*
 * llama_abi.h - what the llama.cpp probes (llama_mem, llama_gen) declare
 * of llama.cpp's prebuilt library of node-llama-cpp 3.22.1 (llama.cpp
 * v0.5.0): the structures passed by value as llama.h of that release lays
 * them out, the check of that layout against the library's defaults, and
 * loading the libraries. PROG names the probe in its messages; a failure
 * to load exits with status 4, as a wrong layout does.
 */
#ifndef LLAMA_ABI_H
#define LLAMA_ABI_H

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
struct la_model_params {
	unsigned char	 opaque[256];
};

/* llama.h of the release: struct llama_context_params. */
struct la_context_params {
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

typedef void (*la_log_cb)(int level, const char *text, void *ud);

/* The release's documented defaults: the layout above is the library's. */
static inline int
la_defaults_ok(const struct la_context_params *cp)
{
	return cp->n_ctx == 512 && cp->n_batch == 2048 &&
	    cp->n_ubatch == 512 && cp->n_seq_max == 1 && cp->n_rs_seq == 0 &&
	    cp->n_outputs_max == 0 && cp->n_outputs_max_per_seq == 1 &&
	    cp->n_threads == 4 && cp->n_threads_batch == 4 &&
	    cp->ctx_type == 0 && cp->attention_type == -1 &&
	    cp->flash_attn_type == -1 && cp->defrag_thold < -0.5f &&
	    cp->cb_eval == NULL && cp->type_k == 1 && cp->type_v == 1 &&
	    !cp->embeddings && cp->offload_kqv && cp->no_perf &&
	    cp->op_offload && cp->swa_full && !cp->kv_unified &&
	    cp->samplers == NULL && cp->n_samplers == 0;
}

/* dlsym, or exit 4 naming the symbol. */
static inline void *
la_sym(const char *prog, void *h, const char *name)
{
	void	*p = dlsym(h, name);

	if (p == NULL) {
		fprintf(stderr, "%s: %s: %s\n", prog, name, dlerror());
		exit(4);
	}
	return p;
}

/* DIR/NAME loaded with its symbols global, or exit 4. */
static inline void *
la_open(const char *prog, const char *dir, const char *name)
{
	char	 path[4096];
	void	*h;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	if ((h = dlopen(path, RTLD_NOW | RTLD_GLOBAL)) == NULL) {
		fprintf(stderr, "%s: %s\n", prog, dlerror());
		exit(4);
	}
	return h;
}

/*
 * llama.cpp's log, gathered line by line: the text after the first line
 * holding marker (the loader's reason for refusing what it was given),
 * else the last line that says "error" or "failed". ud of la_on_log.
 */
struct la_log {
	const char	*marker;
	char		 line[4096];
	char		 reason[4096];
	char		 fallback[4096];
};

/* Copies s into dst, without its trailing blanks and newlines. */
static inline void
la_keep(char *dst, size_t size, const char *s)
{
	size_t	n;

	snprintf(dst, size, "%s", s);
	n = strlen(dst);
	while (n > 0 && (dst[n - 1] == '\n' || dst[n - 1] == ' ' ||
	    dst[n - 1] == '\r'))
		dst[--n] = '\0';
}

/* The log arrives in pieces; each whole line is looked at. */
static inline void
la_on_log(int level, const char *text, void *ud)
{
	struct la_log	*lg = ud;
	size_t		 n = strlen(lg->line), m = strlen(text);
	const char	*p;
	char		*nl;

	(void)level;
	if (n + m >= sizeof lg->line)
		m = sizeof lg->line - n - 1;
	memcpy(lg->line + n, text, m);
	lg->line[n + m] = '\0';
	while ((nl = strchr(lg->line, '\n')) != NULL) {
		*nl = '\0';
		if ((p = strstr(lg->line, lg->marker)) != NULL) {
			if (lg->reason[0] == '\0')
				la_keep(lg->reason, sizeof lg->reason,
				    p + strlen(lg->marker));
		} else if (strstr(lg->line, "error") != NULL ||
		    strstr(lg->line, "failed") != NULL)
			la_keep(lg->fallback, sizeof lg->fallback, lg->line);
		memmove(lg->line, nl + 1, strlen(nl + 1) + 1);
	}
}

/* What the log says of the last refusal. */
static inline const char *
la_why(const struct la_log *lg)
{
	return lg->reason[0] != '\0' ? lg->reason : lg->fallback[0] != '\0' ?
	    lg->fallback : "(no reason logged)";
}

#endif /* LLAMA_ABI_H */
