/*
 * llama_load.c - whether llama.cpp itself loads a model, and if not, why:
 * the proof for the model check of `ggufed validate`.
 *
 *	llama_load LIBDIR MODEL...
 *
 * LIBDIR holds llama.cpp's prebuilt libraries (libllama, libggml,
 * libggml-base and the CPU backends) of the npm package
 * @node-llama-cpp/linux-x64 3.22.1; they are loaded with dlopen() and
 * only this program's own declarations of the few entry points it calls
 * are used. Each MODEL is loaded in turn, with the library's default
 * model parameters, on the CPU (the library has no other backend), in a
 * child process forked once the library is loaded: a model that makes
 * llama.cpp abort (a failed GGML_ASSERT) is refused like any other, and
 * the next is loaded all the same. Output, one line a model:
 *
 *	MODEL<TAB>ok
 *	MODEL<TAB>refused: REASON
 *
 * where REASON is llama.cpp's own message, as its loader logs it after
 * "error loading model: " (or, failing that, the last line it logged
 * with "error" or "failed" in it): "missing tensor 'blk.0.attn_k.weight'",
 * "key not found in model: llama.block_count", "wrong number of tensors;
 * expected 30, got 29", ...; or "aborted (signal N)" when llama.cpp
 * killed the process instead (its message is then on standard error).
 *
 * Exit: 0 every model was loaded or refused (the verdicts say which),
 * 4 the library is missing or its layout is not the expected one, 2 usage.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "llama_abi.h"

static struct la_log	lg = { "error loading model: ", "", "", "" };

static void *
sym(void *h, const char *name)
{
	return la_sym("llama_load", h, name);
}

int
main(int argc, char **argv)
{
	struct la_model_params		 mp;
	struct la_context_params	 cp;
	struct la_model_params		(*model_defaults)(void);
	struct la_context_params	(*context_defaults)(void);
	void	(*backend_init)(void);
	void	(*log_set)(la_log_cb, void *);
	void	(*load_all)(const char *);
	void	*(*model_load)(const char *, struct la_model_params);
	void	(*model_free)(void *);
	void	*ggml, *llama, *model;
	pid_t	 pid;
	int	 i, status;

	if (argc < 3) {
		fprintf(stderr, "usage: llama_load LIBDIR MODEL...\n");
		return 2;
	}
	(void)la_open("llama_load", argv[1], "libggml-base.so");
	ggml = la_open("llama_load", argv[1], "libggml.v0.5.0.so");
	llama = la_open("llama_load", argv[1], "libllama.v0.5.0.so");
	*(void **)&load_all = sym(ggml, "ggml_backend_load_all_from_path");
	*(void **)&backend_init = sym(llama, "llama_backend_init");
	*(void **)&log_set = sym(llama, "llama_log_set");
	*(void **)&model_defaults = sym(llama, "llama_model_default_params");
	*(void **)&context_defaults = sym(llama,
	    "llama_context_default_params");
	*(void **)&model_load = sym(llama, "llama_model_load_from_file");
	*(void **)&model_free = sym(llama, "llama_model_free");

	mp = model_defaults();
	cp = context_defaults();
	/* The layout check: the release's documented defaults. */
	if (!la_defaults_ok(&cp)) {
		fprintf(stderr, "llama_load: the library's default parameters "
		    "are not those of the expected release\n");
		return 4;
	}
	/* An abort is a verdict here: no debugger to print its stack. */
	setenv("GGML_NO_BACKTRACE", "1", 0);
	log_set(la_on_log, &lg);
	load_all(argv[1]);
	backend_init();
	for (i = 2; i < argc; i++) {
		fflush(stdout);
		if ((pid = fork()) == -1) {
			perror("llama_load: fork");
			return 4;
		}
		if (pid == 0) {
			if ((model = model_load(argv[i], mp)) != NULL) {
				printf("%s\tok\n", argv[i]);
				model_free(model);
			} else
				printf("%s\trefused: %s\n", argv[i],
				    la_why(&lg));
			fflush(stdout);
			_exit(0);
		}
		if (waitpid(pid, &status, 0) == -1) {
			perror("llama_load: waitpid");
			return 4;
		}
		if (WIFSIGNALED(status))
			printf("%s\trefused: aborted (signal %d)\n", argv[i],
			    WTERMSIG(status));
		else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			printf("%s\trefused: exited (status %d)\n", argv[i],
			    WEXITSTATUS(status));
	}
	return 0;
}
