/*
 * fuzz_open.c - fuzz target: open any bytes as GGUF and walk
 * everything the reader hands out: every KV and its scalar getters, array
 * elements from both ends (nested arrays one level down), lookups by key
 * and by tensor name, and the first and last byte of every tensor's data.
 * Then the same bytes as a file through `ggufed dump`, `dump --json` and
 * `validate --data` (text and JSON), whose output must be safe for a
 * terminal (valid UTF-8, no control character but newline: see
 * fuzz_safe_text).
 *
 * A crash, a sanitizer report, a leak, a hang or unsafe output here is a
 * bug in the reader or the printer.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "gguf.h"
#include "cli/cli.h"
#include "fuzz.h"

/* Runs `ggufed NAME ARGS` (up to four), checking what it prints. */
static void
run(int (*cmd)(int, char **), const char *name, const char *a1,
    const char *a2, const char *a3, const char *a4)
{
	const char	*args[4] = { a1, a2, a3, a4 };
	char		*argv[6];
	int		 argc = 0, i;

	argv[argc++] = (char *)(uintptr_t)name;
	for (i = 0; i < 4 && args[i] != NULL; i++)
		argv[argc++] = (char *)(uintptr_t)args[i];
	argv[argc] = NULL;
	fuzz_run_cmd(cmd, argc, argv);
}

/* Every byte of every string gguf_arr_strings hands on is read. */
static int
touch_string(void *arg, uint64_t i, const char *p, uint64_t n)
{
	unsigned	*sum = arg;
	uint64_t	 k;

	for (k = 0; k < n; k++)
		*sum += (unsigned char)p[k];
	return i >= 100000;	/* a bound on the time of one input */
}

static void
walk_array(struct gguf_val *v, int depth)
{
	struct gguf_val	e;
	struct gguf_str	s;
	struct gguf_err	err;
	uint64_t	i, n = v->count < 64 ? v->count : 64, u;
	unsigned	sum = 0;

	if (v->atype == GGUF_VT_STR)
		(void)gguf_arr_strings(v, touch_string, &sum, &err);
	for (i = 0; i < n; i++) {
		/* alternate ends so the lazy index is built and used */
		if (gguf_arr_get(v, i % 2 ? i : v->count - 1 - i, &e, &err) != 0)
			continue;
		gguf_val_str(&e, &s);
		gguf_val_u64(&e, &u);
		if (e.type == GGUF_VT_ARR && depth < 2)
			walk_array(&e, depth + 1);
		gguf_arrix_free(e.ix);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct gguf_layout	*lay;
	const struct gguf_tensor	*t;
	struct gguf_file		*f;
	struct gguf_kv			*kv;
	struct gguf_err			 err;
	struct gguf_str			 s;
	const uint8_t			*p;
	volatile uint8_t		 sink;
	uint64_t			 i, u;
	int64_t				 si;
	double				 d;
	char				 buf[600];

	fuzz_path(buf, sizeof buf, "open.gguf");
	fuzz_write_file(buf, data, size);
	run(cmd_dump, "dump", buf, NULL, NULL, NULL);
	run(cmd_dump, "dump", "--json", buf, NULL, NULL);
	run(cmd_dump, "dump", "--max-array", "3", "--json", buf);
	run(cmd_validate, "validate", "--data", "--threads", "1", buf);
	run(cmd_validate, "validate", "--json", buf, NULL, NULL);

	f = gguf_open_buffer(data, size, &err);
	if (f == NULL) {
		gguf_err_text(&err, buf, sizeof buf);
		return 0;
	}
	lay = gguf_layout(f);
	for (i = 0; i < lay->n_kv; i++) {
		kv = gguf_kv_at(f, i);
		gguf_val_u64(&kv->val, &u);
		gguf_val_i64(&kv->val, &si);
		gguf_val_f64(&kv->val, &d);
		gguf_val_str(&kv->val, &s);
		if (kv->val.type == GGUF_VT_ARR)
			walk_array(&kv->val, 0);
		gguf_kv_find(f, kv->key.p, kv->key.n);
	}
	for (i = 0; i < lay->n_tensors; i++) {
		t = gguf_tensor_at(f, i);
		gguf_tensor_find(f, t->name.p, t->name.n);
		p = gguf_tensor_data(f, t, &err);
		if (p != NULL && t->nbytes > 0)
			sink = p[0] ^ p[t->nbytes - 1];
	}
	for (i = 0; i < gguf_n_warnings(f); i++)
		sink = (uint8_t)gguf_warning_at(f, i)->msg[0];
	(void)sink;
	gguf_close(f);
	return 0;
}
