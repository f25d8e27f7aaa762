/*
 * llama_lora.c - whether llama.cpp itself loads a LoRA adapter onto a
 * model, and if not, why: the proof for `ggufed validate --base`.
 *
 *	llama_lora LIBDIR MODEL ADAPTER...
 *
 * LIBDIR holds llama.cpp's prebuilt libraries of the npm package
 * @node-llama-cpp/linux-x64 3.22.1, loaded with dlopen() as llama_load
 * loads them. MODEL is loaded once, with the library's default model
 * parameters, on the CPU; each ADAPTER is then loaded onto it with
 * llama_adapter_lora_init in a child process forked for it (an adapter
 * that makes llama.cpp abort is refused like any other). Output, one line
 * an adapter:
 *
 *	ADAPTER<TAB>ok
 *	ADAPTER<TAB>refused: REASON
 *
 * where REASON is llama.cpp's own message, as its adapter loader logs it
 * after "failed to apply lora adapter: " ("LoRA tensor pair for
 * 'blk.0.attn_q.weight' is missing one component", "model arch and LoRA
 * arch mismatch", ...), or "aborted (signal N)".
 *
 * Exit: 0 every adapter was loaded or refused, 3 the model itself was
 * refused, 4 the library is missing or its layout is not the expected
 * one, 2 usage.
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

static struct la_log	lg = { "failed to apply lora adapter: ", "", "",
    "" };

static void *
sym(void *h, const char *name)
{
	return la_sym("llama_lora", h, name);
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
	void	*(*lora_init)(void *, const char *);
	void	(*model_free)(void *);
	void	*ggml, *llama, *model, *lora;
	pid_t	 pid;
	int	 i, status;

	if (argc < 4) {
		fprintf(stderr, "usage: llama_lora LIBDIR MODEL ADAPTER...\n");
		return 2;
	}
	(void)la_open("llama_lora", argv[1], "libggml-base.so");
	ggml = la_open("llama_lora", argv[1], "libggml.v0.5.0.so");
	llama = la_open("llama_lora", argv[1], "libllama.v0.5.0.so");
	*(void **)&load_all = sym(ggml, "ggml_backend_load_all_from_path");
	*(void **)&backend_init = sym(llama, "llama_backend_init");
	*(void **)&log_set = sym(llama, "llama_log_set");
	*(void **)&model_defaults = sym(llama, "llama_model_default_params");
	*(void **)&context_defaults = sym(llama,
	    "llama_context_default_params");
	*(void **)&model_load = sym(llama, "llama_model_load_from_file");
	*(void **)&lora_init = sym(llama, "llama_adapter_lora_init");
	*(void **)&model_free = sym(llama, "llama_model_free");

	mp = model_defaults();
	cp = context_defaults();
	/* The layout check: the release's documented defaults. */
	if (!la_defaults_ok(&cp)) {
		fprintf(stderr, "llama_lora: the library's default parameters "
		    "are not those of the expected release\n");
		return 4;
	}
	/* An abort is a verdict here: no debugger to print its stack. */
	setenv("GGML_NO_BACKTRACE", "1", 0);
	log_set(la_on_log, &lg);
	load_all(argv[1]);
	backend_init();
	if ((model = model_load(argv[2], mp)) == NULL) {
		printf("%s\tbase refused\n", argv[2]);
		return 3;
	}
	for (i = 3; i < argc; i++) {
		fflush(stdout);
		lg.reason[0] = lg.fallback[0] = lg.line[0] = '\0';
		if ((pid = fork()) == -1) {
			perror("llama_lora: fork");
			return 4;
		}
		if (pid == 0) {
			if ((lora = lora_init(model, argv[i])) != NULL)
				printf("%s\tok\n", argv[i]);
			else
				printf("%s\trefused: %s\n", argv[i],
				    la_why(&lg));
			fflush(stdout);
			_exit(0);
		}
		if (waitpid(pid, &status, 0) == -1) {
			perror("llama_lora: waitpid");
			return 4;
		}
		if (WIFSIGNALED(status))
			printf("%s\trefused: aborted (signal %d)\n", argv[i],
			    WTERMSIG(status));
		else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			printf("%s\trefused: exited (status %d)\n", argv[i],
			    WEXITSTATUS(status));
	}
	model_free(model);
	return 0;
}
