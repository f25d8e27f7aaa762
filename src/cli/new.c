/*
 * new.c - `ggufed new`: a tiny random-weight model of any architecture
 * of the model check's table (assets/models.tsv), made from the table
 * alone.
 *
 *	ggufed new ARCH -o OUT [-e CMD]... [--seed N] [--variant N]
 *	ggufed new [--list]
 *
 * The keys are the section's val rows (a val of * unless the section or
 * its base says another), each written with the first type of its key
 * row: an integer's EXPR evaluated over the keys written before it, an
 * array's one element a block (il the element's index), a float's or a
 * string's text as it is. Then a small SentencePiece vocabulary (three
 * specials, the 256 byte tokens, a few letters: llama.cpp loads no model
 * without one), then the -e commands that edit keys (the language of
 * `ggufed edit -e`): they shape the tensors, and a per-block array they
 * left as it was is made again for the block count they set. The
 * tensors are those the tensor rows require for these keys, and the
 * optional ones --variant chooses (gguf_model_plan), all float32: norms
 * 1, others small values from --seed. The -e commands that edit tensors (rename, rm-tensor,
 * convert) come last. The file is then checked as validate checks it:
 * without -e a model llama.cpp would refuse is the table's fault, and
 * nothing is written (exit 1); with -e it is a warning, and the file is
 * written all the same (the edits may mean to break it).
 *
 * Writing goes through temporary files beside FILE, renamed over it at
 * the end: an existing FILE is only replaced with --force.
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "doc.h"
#include "model.h"
#include "save.h"
#include "cmd/lang.h"

#define MAX_VALS	256
#define ALIGN		32
#define N_LETTERS	8

/* ------------------------------------------------------------ bytes */

struct wbuf {
	uint8_t	*p;
	size_t	 n, cap;
};

static void
w_put(struct wbuf *b, const void *p, size_t n)
{
	if (b->cap - b->n < n) {
		while (b->cap - b->n < n)
			b->cap = b->cap ? b->cap * 2 : 4096;
		b->p = xreallocarray(b->p, b->cap, 1);
	}
	memcpy(b->p + b->n, p, n);
	b->n += n;
}

/* A string literal, without its NUL. */
#define W_LIT(b, s)	w_put((b), (s), sizeof(s) - 1)

static void
w_u32(struct wbuf *b, uint32_t v)
{
	uint8_t	x[4];
	int	i;

	for (i = 0; i < 4; i++)
		x[i] = (uint8_t)(v >> (8 * i));
	w_put(b, x, 4);
}

static void
w_u64(struct wbuf *b, uint64_t v)
{
	uint8_t	x[8];
	int	i;

	for (i = 0; i < 8; i++)
		x[i] = (uint8_t)(v >> (8 * i));
	w_put(b, x, 8);
}

static void
w_str(struct wbuf *b, const char *s)
{
	w_u64(b, strlen(s));
	w_put(b, s, strlen(s));
}

static void
w_pad(struct wbuf *b)
{
	static const uint8_t	zero[ALIGN];

	if (b->n % ALIGN != 0)
		w_put(b, zero, ALIGN - b->n % ALIGN);
}

static int
w_file(const struct wbuf *b, const char *path)
{
	FILE	*fp;
	int	 rc = 0;

	if ((fp = fopen(path, "wb")) == NULL)
		return -1;
	if (b->n > 0 && fwrite(b->p, 1, b->n, fp) != b->n)
		rc = -1;
	if (fclose(fp) != 0)
		rc = -1;
	return rc;
}

/* ------------------------------------------------------------ options */

struct nopts {
	const char	*arch;
	const char	*out;
	const char	**cmds;
	size_t		 ncmds;
	unsigned long long seed;
	unsigned long long variant;
	int		 force;
	int		 quiet;
	int		 list;
};

static void
list_archs(void)
{
	const char	**names, *why;
	size_t		  n, i, cnt;

	n = gguf_model_archs(NULL, 0);
	names = xcalloc(n + 1, sizeof *names);
	gguf_model_archs(names, n);
	for (i = 0; i < n; i++)
		if (gguf_model_vals(names[i], strlen(names[i]), NULL, 0, &cnt,
		    &why) == 0)
			printf("%s\n", names[i]);
	free(names);
}

/* ------------------------------------------------------------ the keys */

/* The first type of a key row's types: "u32", or "arr[i32" and its length. */
static void
first_type(const char *types, char *type, size_t tlen, char *lenx,
    size_t llen)
{
	size_t		 n = strcspn(types, "|");
	const char	*semi;

	lenx[0] = '\0';
	if (n > 4 && strncmp(types, "arr[", 4) == 0 &&
	    (semi = memchr(types, ';', n)) != NULL) {
		snprintf(type, tlen, "%.*s]", (int)(semi - types), types);
		snprintf(lenx, llen, "%.*s", (int)(types + n - 1 - (semi + 1)),
		    semi + 1);
		return;
	}
	snprintf(type, tlen, "%.*s", (int)n, types);
}

/* Appends s to b C-quoted. */
static void
quote(struct wbuf *b, const char *s)
{
	char	x[8];

	w_put(b, "\"", 1);
	for (; *s != '\0'; s++) {
		if (*s == '"' || *s == '\\') {
			w_put(b, "\\", 1);
			w_put(b, s, 1);
		} else if ((unsigned char)*s < 0x20) {
			snprintf(x, sizeof x, "\\x%02x", (unsigned char)*s);
			w_put(b, x, strlen(x));
		} else
			w_put(b, s, 1);
	}
	w_put(b, "\"", 1);
}

/* "{arch}.x" with the architecture put in. */
static void
expand_arch(const char *pat, const char *arch, char *buf, size_t len)
{
	const char	*p = strstr(pat, "{arch}");

	if (p == NULL)
		snprintf(buf, len, "%s", pat);
	else
		snprintf(buf, len, "%.*s%s%s", (int)(p - pat), pat, arch,
		    p + 6);
}

/* An integer of the table's EXPR for arch (block il), or -1 and a message. */
static int
eval(struct gguf_doc *d, const char *arch, const struct gguf_mval *v,
    const char *expr, int64_t il, int64_t *out)
{
	char	why[256];

	if (gguf_model_eval(d, arch, expr, il, out, why, sizeof why) == 0)
		return 0;
	cli_error("models.tsv:%u: val %s: %s", v->line, v->key, why);
	return -1;
}

/*
 * Applies a command the table made: its warnings (a key off the naming
 * rules, as some architectures' names are) are not the user's business.
 */
static int
apply(struct gguf_doc *d, const char *line, unsigned tline)
{
	struct lang_cmd	cmd;
	char		msg[512];
	int		rc;

	if ((rc = lang_parse(line, &cmd, msg, sizeof msg)) == LANG_OK) {
		cmd.force = 1;
		rc = lang_apply(d, &cmd, msg, sizeof msg);
		lang_cmd_free(&cmd);
	}
	if (rc >= 0)
		return 0;
	if (tline > 0)
		cli_error("models.tsv:%u: %s", tline, msg);
	else
		cli_error("new: %s", msg);
	return -1;
}

/* Sets the key of val row v in d as the table says. */
static int
set_val(struct gguf_doc *d, const char *arch, const struct gguf_mval *v)
{
	struct wbuf	 b;
	char		 key[160], type[32], lenx[128], num[32];
	int64_t		 n, i, x;
	int		 rc = -1;
	int		 isint, isbool;

	memset(&b, 0, sizeof b);
	expand_arch(v->key, arch, key, sizeof key);
	first_type(v->types, type, sizeof type, lenx, sizeof lenx);
	w_put(&b, "set ", 4);
	w_put(&b, key, strlen(key));
	w_put(&b, ":", 1);
	w_put(&b, type, strlen(type));
	w_put(&b, " ", 1);
	isint = strstr(type, "f32") == NULL && strstr(type, "f64") == NULL &&
	    strstr(type, "str") == NULL;
	isbool = strstr(type, "bool") != NULL;
	if (strncmp(type, "arr[", 4) == 0) {
		if (lenx[0] == '\0')
			snprintf(lenx, sizeof lenx, "n_layer");
		if (eval(d, arch, v, lenx, -1, &n) != 0)
			goto out;
		if (n < 0 || n > 4096) {
			cli_error("models.tsv:%u: val %s: %lld elements",
			    v->line, v->key, (long long)n);
			goto out;
		}
		w_put(&b, "[", 1);
		for (i = 0; i < n; i++) {
			if (i > 0)
				w_put(&b, ", ", 2);
			if (!isint) {
				w_put(&b, v->value, strlen(v->value));
				continue;
			}
			if (eval(d, arch, v, v->value, i, &x) != 0)
				goto out;
			if (isbool)
				snprintf(num, sizeof num, "%s",
				    x ? "true" : "false");
			else
				snprintf(num, sizeof num, "%lld",
				    (long long)x);
			w_put(&b, num, strlen(num));
		}
		w_put(&b, "]", 1);
	} else if (strcmp(type, "str") == 0)
		quote(&b, v->value);
	else if (!isint)
		w_put(&b, v->value, strlen(v->value));
	else {
		if (eval(d, arch, v, v->value, -1, &x) != 0)
			goto out;
		if (isbool)
			snprintf(num, sizeof num, "%s", x ? "true" : "false");
		else
			snprintf(num, sizeof num, "%lld", (long long)x);
		w_put(&b, num, strlen(num));
	}
	w_put(&b, "", 1);
	rc = apply(d, (const char *)b.p, v->line);
out:
	free(b.p);
	return rc;
}

/* A copy of the bytes of the value of val row v's key in d, or NULL. */
static uint8_t *
val_bytes(struct gguf_doc *d, const char *arch, const struct gguf_mval *v,
    size_t *n)
{
	struct gguf_val	*x;
	char		 key[160];
	uint8_t		*p;

	expand_arch(v->key, arch, key, sizeof key);
	*n = 0;
	if ((x = gguf_doc_get(d, key, strlen(key))) == NULL ||
	    x->n > SIZE_MAX - 1)
		return NULL;
	p = xmalloc((size_t)x->n + 1);
	if (x->n > 0)
		memcpy(p, x->p, (size_t)x->n);
	*n = (size_t)x->n;
	return p;
}

/* The vocabulary: <unk> <s> </s>, the byte tokens, a few letters. */
static int
set_vocab(struct gguf_doc *d)
{
	static const char *const fixed[] = {
		"set tokenizer.ggml.model:str llama",
		"set tokenizer.ggml.bos_token_id:u32 1",
		"set tokenizer.ggml.eos_token_id:u32 2",
		"set tokenizer.ggml.unknown_token_id:u32 0",
	};
	struct wbuf	b;
	char		tok[32];
	int		i, n = 3 + 256 + N_LETTERS, rc;
	size_t		k;

	for (k = 0; k < sizeof fixed / sizeof fixed[0]; k++)
		if (apply(d, fixed[k], 0) != 0)
			return -1;
	memset(&b, 0, sizeof b);
	W_LIT(&b, "set tokenizer.ggml.tokens:arr[str] [\"<unk>\", \"<s>\", "
	    "\"</s>\"");
	for (i = 0; i < 256; i++) {
		snprintf(tok, sizeof tok, ", \"<0x%02X>\"", i);
		w_put(&b, tok, strlen(tok));
	}
	for (i = 0; i < N_LETTERS; i++) {
		snprintf(tok, sizeof tok, ", \"%c\"", 'a' + i);
		w_put(&b, tok, strlen(tok));
	}
	w_put(&b, "]", 2);
	rc = apply(d, (const char *)b.p, 0);
	b.n = 0;
	W_LIT(&b, "set tokenizer.ggml.scores:arr[f32] [");
	for (i = 0; i < n && rc == 0; i++) {
		snprintf(tok, sizeof tok, "%s%d", i ? ", " : "",
		    i < 259 ? 0 : -i);
		w_put(&b, tok, strlen(tok));
	}
	w_put(&b, "]", 2);
	if (rc == 0)
		rc = apply(d, (const char *)b.p, 0);
	b.n = 0;
	W_LIT(&b, "set tokenizer.ggml.token_type:arr[i32] [");
	for (i = 0; i < n && rc == 0; i++) {
		snprintf(tok, sizeof tok, "%s%d", i ? ", " : "",
		    i == 0 ? 2 : i < 3 ? 3 : i < 259 ? 6 : 1);
		w_put(&b, tok, strlen(tok));
	}
	w_put(&b, "]", 2);
	if (rc == 0)
		rc = apply(d, (const char *)b.p, 0);
	free(b.p);
	return rc;
}

/* Whether an edit command works on tensors (applied once they exist). */
static int
on_tensors(const char *text)
{
	struct lang_cmd	cmd;
	char		msg[512];
	int		t = 0;

	if (lang_parse(text, &cmd, msg, sizeof msg) != LANG_OK)
		return 0;	/* its error comes when it is applied */
	t = cmd.op == LANG_RENAME || cmd.op == LANG_RENAME_RE ||
	    cmd.op == LANG_RM_TENSOR || cmd.op == LANG_CONVERT;
	lang_cmd_free(&cmd);
	return t;
}

/* ------------------------------------------------------------ the file */

static uint64_t	rng;

static float
rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return ((float)(rng >> 40) / 16777216.0f - 0.5f) * 0.1f;
}

/*
 * The mode the model gets, as a save gives it: the mode of the file it
 * replaces (--force), or that of a created file (0666 less the umask), not
 * mkstemp's 0600.
 */
static mode_t
new_mode(const char *out)
{
	struct stat	st;

	return stat(out, &st) == 0 ? st.st_mode & 07777 : gguf_created_mode();
}

/* A name's value of a temporary file beside out: "OUT.new-XXXXXX". */
static char *
temp_beside(const char *out)
{
	char	*t;
	size_t	 n = strlen(out) + 16;
	int	 fd;

	t = xmalloc(n);
	snprintf(t, n, "%s.new-XXXXXX", out);
	if ((fd = mkstemp(t)) < 0) {
		cli_error("%s: %s", t, strerror(errno));
		free(t);
		return NULL;
	}
	close(fd);
	return t;
}

/*
 * Writes path: the keys of the keys-only GGUF file kpath, then the
 * tensors of plan with data from the seed.
 */
static int
write_model(const char *kpath, const char *path,
    const struct gguf_mtensor *t, size_t nt, uint64_t seed)
{
	const struct gguf_layout	*lo;
	struct gguf_file		*f;
	struct gguf_err			 err;
	struct wbuf			 b;
	uint64_t			 off = 0, ne, j;
	size_t				 i;
	uint32_t			 d;
	union { float f; uint32_t u; }	 x;
	int				 rc;

	if ((f = gguf_open(kpath, &err)) == NULL) {
		cli_file_error(kpath, &err);
		return -1;
	}
	lo = gguf_layout(f);
	memset(&b, 0, sizeof b);
	w_put(&b, "GGUF", 4);
	w_u32(&b, 3);
	w_u64(&b, nt);
	w_u64(&b, lo->n_kv);
	w_put(&b, gguf_file_header(f) + lo->kv_off,
	    (size_t)(lo->ti_off - lo->kv_off));
	gguf_close(f);
	for (i = 0; i < nt; i++) {
		w_str(&b, t[i].name);
		w_u32(&b, t[i].n_dims);
		ne = 1;
		for (d = 0; d < t[i].n_dims; d++) {
			w_u64(&b, (uint64_t)t[i].ne[d]);
			ne *= (uint64_t)t[i].ne[d];
		}
		w_u32(&b, 0);		/* F32 */
		w_u64(&b, off);
		off += (ne * 4 + ALIGN - 1) / ALIGN * ALIGN;
	}
	w_pad(&b);
	rng = seed * 0x9e3779b97f4a7c15ull + 0x2545f4914f6cdd1dull;
	if (rng == 0)
		rng = 1;
	for (i = 0; i < nt; i++) {
		ne = (uint64_t)t[i].ne[0] * (uint64_t)t[i].ne[1] *
		    (uint64_t)t[i].ne[2] * (uint64_t)t[i].ne[3];
		for (j = 0; j < ne; j++) {
			x.f = strstr(t[i].name, "norm") != NULL ? 1.0f : rnd();
			w_u32(&b, x.u);
		}
		w_pad(&b);
	}
	rc = w_file(&b, path);
	if (rc != 0)
		cli_error("%s: %s", path, strerror(errno));
	free(b.p);
	return rc;
}

/* The first keys: the architecture and a name. */
static int
write_head(const char *path, const char *arch)
{
	struct wbuf	b;
	char		name[128];
	int		rc;

	memset(&b, 0, sizeof b);
	w_put(&b, "GGUF", 4);
	w_u32(&b, 3);
	w_u64(&b, 0);
	w_u64(&b, 2);
	w_str(&b, "general.architecture");
	w_u32(&b, 8);
	w_str(&b, arch);
	snprintf(name, sizeof name, "tiny random model");
	w_str(&b, "general.name");
	w_u32(&b, 8);
	w_str(&b, name);
	rc = w_file(&b, path);
	if (rc != 0)
		cli_error("%s: %s", path, strerror(errno));
	free(b.p);
	return rc;
}

static void
say_error(void *arg, const struct gguf_mfinding *f)
{
	struct nopts	*o = arg;

	if (f->level != GGUF_W_ERROR)
		return;
	fprintf(stderr, "%s: %s%s: ", cli_prog, o->ncmds ? "warning: " : "",
	    o->out);
	out_msg(stderr, f->msg);
	fputc('\n', stderr);
}

static int
save_to(struct gguf_doc *d, const char *path)
{
	struct gguf_save_opts	so;
	struct gguf_save_info	info;
	struct gguf_err		err;

	memset(&so, 0, sizeof so);
	so.path = path;
	so.force = 1;
	so.no_inplace = 1;
	so.no_reopen = 1;
	so.reserve = 0;
	if (gguf_doc_save(d, &so, &info, &err) != 0) {
		cli_file_error(path, &err);
		return -1;
	}
	return 0;
}

static int
make(struct nopts *o)
{
	struct gguf_mval	 vals[MAX_VALS];
	uint8_t			*kept[MAX_VALS];
	size_t			 keptn[MAX_VALS];
	struct gguf_mtensor	*plan = NULL;
	struct gguf_doc		*d = NULL;
	struct gguf_err		 err;
	const char		*why;
	char			*t1 = NULL, *t2 = NULL, *t3 = NULL, msg[256];
	size_t			 nv, i, nt = 0;
	unsigned		 errors;
	int			 rc = EXIT_BADFILE, k;

	memset(kept, 0, sizeof kept);
	k = gguf_model_vals(o->arch, strlen(o->arch), vals, MAX_VALS, &nv,
	    &why);
	if (k < 0) {
		cli_error("new: architecture %s is not in the table (ggufed new "
		    "--list lists them)", o->arch);
		return EXIT_USAGE;
	}
	if (k > 0) {
		cli_error("new: %s: no model of its own: %s", o->arch, why);
		return EXIT_BADFILE;
	}
	if (nv > MAX_VALS) {
		cli_error("new: %s: more than %d keys", o->arch, MAX_VALS);
		return EXIT_BADFILE;
	}
	if (!o->force && access(o->out, F_OK) == 0) {
		cli_error("%s: exists (--force writes over it)", o->out);
		return EXIT_BADFILE;
	}
	if ((t1 = temp_beside(o->out)) == NULL ||
	    (t2 = temp_beside(o->out)) == NULL ||
	    (t3 = temp_beside(o->out)) == NULL)
		goto out;
	if (write_head(t1, o->arch) != 0)
		goto out;
	if ((d = gguf_doc_open(t1, &err)) == NULL) {
		cli_file_error(t1, &err);
		goto out;
	}
	for (i = 0; i < nv; i++)
		if (set_val(d, o->arch, &vals[i]) != 0)
			goto out;
	if (set_vocab(d) != 0)
		goto out;
	for (i = 0; i < nv; i++)
		kept[i] = val_bytes(d, o->arch, &vals[i], &keptn[i]);
	for (i = 0; i < o->ncmds; i++)
		if (!on_tensors(o->cmds[i]) &&
		    cli_edit_line(d, o->cmds[i], 1, "-e", NULL) != 0) {
			rc = EXIT_USAGE;
			goto out;
		}
	/* An array of one element a block the commands left as it was is
	   made again for the block count they set. */
	for (i = 0; i < nv; i++) {
		size_t	 n2;
		uint8_t	*now;

		if (kept[i] == NULL || strncmp(vals[i].types, "arr[", 4) != 0)
			continue;
		now = val_bytes(d, o->arch, &vals[i], &n2);
		if (now != NULL && n2 == keptn[i] &&
		    memcmp(now, kept[i], n2) == 0 &&
		    set_val(d, o->arch, &vals[i]) != 0) {
			free(now);
			goto out;
		}
		free(now);
	}
	if (gguf_model_plan(d, o->variant, &plan, &nt, msg, sizeof msg) != 0) {
		cli_error("new: %s: no tensors: %s", o->arch, msg);
		goto out;
	}
	if (save_to(d, t2) != 0)
		goto out;
	gguf_doc_free(d);
	d = NULL;
	if (write_model(t2, t3, plan, nt, o->seed) != 0)
		goto out;
	if ((d = gguf_doc_open(t3, &err)) == NULL) {
		cli_file_error(t3, &err);
		goto out;
	}
	k = 0;
	for (i = 0; i < o->ncmds; i++) {
		if (!on_tensors(o->cmds[i]))
			continue;
		if (cli_edit_line(d, o->cmds[i], 1, "-e", NULL) != 0) {
			rc = EXIT_USAGE;
			goto out;
		}
		k = 1;
	}
	errors = gguf_model_check(d, say_error, o);
	if (errors > 0 && o->ncmds == 0) {
		cli_error("new: %s: the table makes a model llama.cpp would "
		    "refuse: nothing written", o->arch);
		goto out;
	}
	if (k) {
		if (save_to(d, o->out) != 0)
			goto out;
	} else if (chmod(t3, new_mode(o->out)) != 0 ||
	    rename(t3, o->out) != 0) {
		cli_error("%s: %s", o->out, strerror(errno));
		goto out;
	}
	if (!o->quiet)
		printf("%s: %s, %zu tensors, seed %llu, variant %llu\n", o->out,
		    o->arch, nt, o->seed, o->variant);
	rc = 0;
out:
	for (i = 0; i < MAX_VALS; i++)
		free(kept[i]);
	if (d != NULL)
		gguf_doc_free(d);
	free(plan);
	if (t1 != NULL)
		unlink(t1);
	if (t2 != NULL)
		unlink(t2);
	if (t3 != NULL)
		unlink(t3);
	free(t1);
	free(t2);
	free(t3);
	return rc;
}

int
cmd_new(int argc, char **argv)
{
	struct nopts	o;
	int		i, rc;

	memset(&o, 0, sizeof o);
	o.cmds = xcalloc((size_t)argc + 1, sizeof *o.cmds);
	for (i = 1; i < argc; i++) {
		const char	*a = argv[i];

		if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0 ||
		    strcmp(a, "-e") == 0 || strcmp(a, "--seed") == 0 ||
		    strcmp(a, "--variant") == 0) {
			if (i + 1 >= argc) {
				cli_usage_error("new", "%s needs an argument",
				    a);
				free(o.cmds);
				return EXIT_USAGE;
			}
			if (a[1] == 'o' || a[2] == 'o')
				o.out = argv[++i];
			else if (a[1] == 'e')
				o.cmds[o.ncmds++] = argv[++i];
			else if (cli_parse_u64(argv[i + 1], a[2] == 's' ?
			    &o.seed : &o.variant) != 0) {
				cli_usage_error("new", "%s: not a number: %s",
				    a, argv[i + 1]);
				free(o.cmds);
				return EXIT_USAGE;
			} else
				i++;
		} else if (strcmp(a, "--list") == 0)
			o.list = 1;
		else if (strcmp(a, "--force") == 0)
			o.force = 1;
		else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0)
			o.quiet = 1;
		else if (a[0] == '-' && a[1] != '\0') {
			cli_usage_error("new", "unknown option %s", a);
			free(o.cmds);
			return EXIT_USAGE;
		} else if (o.arch == NULL)
			o.arch = a;
		else if (o.out == NULL && strlen(a) > 5 &&
		    strcmp(a + strlen(a) - 5, ".gguf") == 0) {
			cli_usage_error("new", "one architecture, not %s too "
			    "(-o %s writes the model there)", a, a);
			free(o.cmds);
			return EXIT_USAGE;
		} else {
			cli_usage_error("new", "one architecture, not %s too",
			    a);
			free(o.cmds);
			return EXIT_USAGE;
		}
	}
	if (o.list || o.arch == NULL) {
		list_archs();
		free(o.cmds);
		return 0;
	}
	if (o.out == NULL) {
		cli_usage_error("new", "where to write it: -o OUT");
		free(o.cmds);
		return EXIT_USAGE;
	}
	rc = make(&o);
	free(o.cmds);
	return rc;
}
