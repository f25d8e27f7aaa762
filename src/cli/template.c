/*
 * template.c - `ggufed template FILE [--messages JSON] [--tools JSON]
 * [--add-generation-prompt] [--name NAME] [--template-file PATH]
 * [--var KEY=JSON]...`: the prompt a conversation becomes.
 *
 * Renders the model's chat template (tokenizer.chat_template, or
 * tokenizer.chat_template.NAME) as transformers' apply_chat_template
 * would: messages (a built-in sample of system, user, assistant, user
 * unless given), tools and documents None unless given,
 * add_generation_prompt false unless asked, the special tokens as text
 * from the vocabulary, then each --var. Standard output is the rendering
 * byte for byte, no newline added; to a terminal, control characters
 * other than newline and tab are shown escaped. A JSON argument may be
 * @FILE or @- (standard input). strftime_now formats the current time,
 * or SOURCE_DATE_EPOCH when that is set.
 *
 * A template that does not parse, fails or calls raise_exception exits 1
 * with "FILE:LINE:COL: message" (FILE: the model, or the template file).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cmd/chat.h"
#include "cmd/value.h"

static struct gguf_val *
file_get(void *arg, const char *key)
{
	return gguf_kv_get(arg, key);
}

/*
 * The JSON of an option (or of @FILE, @-): a value, or NULL after a usage
 * error naming the option.
 */
static jv *
json_arg(const char *opt, const char *arg)
{
	char	 msg[300], *text = NULL;
	size_t	 n;
	jv	*v;

	if (arg[0] == '@') {
		if (value_read_file(arg + 1, &text, &n, msg, sizeof msg) != 0) {
			cli_usage_error("template", "%s: %s", opt, msg);
			return NULL;
		}
		v = jv_parse_json(text, n, msg, sizeof msg);
		free(text);
	} else
		v = jv_parse_json(arg, strlen(arg), msg, sizeof msg);
	if (v == NULL)
		cli_usage_error("template", "%s: not JSON: %s", opt, msg);
	return v;
}

/* The rendering; to a terminal, its control characters escaped. */
static void
write_out(const char *p, size_t n)
{
	size_t	i, from = 0;

	if (!isatty(STDOUT_FILENO)) {
		fwrite(p, 1, n, stdout);
		return;
	}
	for (i = 0; i < n; i++) {
		unsigned char	c = (unsigned char)p[i];

		if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) {
			fwrite(p + from, 1, i - from, stdout);
			out_text(stdout, p + i, 1);
			from = i + 1;
		}
	}
	fwrite(p + from, 1, n - from, stdout);
}

/* "FILE:LINE:COL: message", the message escaped. */
static void
render_error(const char *path, const struct jinja_error *e)
{
	out_text(stderr, path, strlen(path));
	if (e->line > 0)
		fprintf(stderr, ":%u:%u", e->line, e->col);
	fputs(": ", stderr);
	if (e->raised)
		fputs("raise_exception: ", stderr);
	out_text(stderr, e->msg, strlen(e->msg));
	fputc('\n', stderr);
}

struct opts {
	const char	*path;
	const char	*name;
	const char	*tfile;
	jv		*messages;
	jv		*tools;
	jv		*vars;		/* dict of --var */
	int		 agp;
};

static int
render(struct gguf_file *f, struct opts *o)
{
	struct chat_model	 m = { file_get, f };
	struct jinja_error	 err;
	struct gguf_val		*tv;
	struct gguf_str		 ts;
	char			 key[300], msg[300], *text = NULL, *out = NULL;
	const char		*src, *where;
	size_t			 n, outn, i;
	jv			*ctx;
	int			 rc;

	if (o->tfile != NULL) {
		if (value_read_file(o->tfile, &text, &n, msg, sizeof msg) != 0) {
			cli_error("%s", msg);
			return EXIT_BADFILE;
		}
		src = text;
		where = strcmp(o->tfile, "-") == 0 ? "(standard input)" :
		    o->tfile;
	} else {
		chat_template_key(o->name, key, sizeof key);
		if ((tv = gguf_kv_get(f, key)) == NULL) {
			fprintf(stderr, "%s: ", cli_prog);
			out_text(stderr, o->path, strlen(o->path));
			fputs(": no key ", stderr);
			out_quoted(stderr, key, strlen(key));
			fputs(o->name != NULL ? ": the model has no chat "
			    "template of that name\n" : ": the model has no "
			    "chat template (--template-file PATH tries one)\n",
			    stderr);
			return EXIT_BADFILE;
		}
		if (gguf_val_str(tv, &ts) != 0) {
			fprintf(stderr, "%s: ", cli_prog);
			out_text(stderr, o->path, strlen(o->path));
			fprintf(stderr, ": %s is not a string\n", key);
			return EXIT_BADFILE;
		}
		src = ts.p;
		n = (size_t)ts.n;
		where = o->path;
	}
	ctx = chat_context(&m, o->messages != NULL ? jv_ref(o->messages) :
	    chat_sample_messages(CHAT_SAMPLE_DEFAULT),
	    o->tools != NULL ? jv_ref(o->tools) : NULL, o->agp);
	for (i = 0; i < jv_len(o->vars); i++)
		jv_dict_set(ctx, jv_str_ptr(jv_dict_key(o->vars, i)),
		    jv_ref(jv_dict_value(o->vars, i)));
	rc = chat_render(src, n, ctx, chat_now(), &out, &outn, &err);
	jv_unref(ctx);
	free(text);
	if (rc != 0) {
		fflush(stdout);
		render_error(where, &err);
		return EXIT_BADFILE;
	}
	write_out(out, outn);
	free(out);
	if (fflush(stdout) != 0) {
		cli_error("standard output: %s", strerror(errno));
		return EXIT_BADFILE;
	}
	return 0;
}

/* --var KEY=JSON into o->vars; -1 after a usage error. */
static int
add_var(struct opts *o, const char *arg)
{
	const char	*eq = strchr(arg, '=');
	char		*key;
	jv		*v;

	if (eq == NULL || eq == arg) {
		cli_usage_error("template", "--var: '%s' is not KEY=JSON", arg);
		return -1;
	}
	if ((v = json_arg("--var", eq + 1)) == NULL)
		return -1;
	key = xstrndup(arg, (size_t)(eq - arg));
	jv_dict_set(o->vars, key, v);
	free(key);
	return 0;
}

int
cmd_template(int argc, char **argv)
{
	struct opts		 o;
	struct gguf_file	*f;
	int			 i, rc = EXIT_USAGE, dd = 0;

	memset(&o, 0, sizeof o);
	o.vars = jv_dict();
	for (i = 1; i < argc; i++) {
		const char	*a = cli_opt(argv[i], &dd);

		if (a == NULL)
			continue;

		if (strcmp(a, "--add-generation-prompt") == 0) {
			o.agp = 1;
			continue;
		}
		if (strcmp(a, "--messages") == 0 || strcmp(a, "--tools") == 0 ||
		    strcmp(a, "--name") == 0 ||
		    strcmp(a, "--template-file") == 0 ||
		    strcmp(a, "--var") == 0) {
			if (i + 1 >= argc) {
				cli_usage_error("template", "%s needs a value",
				    a);
				goto out;
			}
			i++;
			if (strcmp(a, "--name") == 0)
				o.name = argv[i];
			else if (strcmp(a, "--template-file") == 0)
				o.tfile = argv[i];
			else if (strcmp(a, "--var") == 0) {
				if (add_var(&o, argv[i]) != 0)
					goto out;
			} else {
				jv	**slot = a[2] == 'm' ? &o.messages :
				    &o.tools;
				jv	 *v = json_arg(a, argv[i]);

				if (v == NULL)
					goto out;
				if (jv_kind(v) != JV_LIST) {
					cli_usage_error("template", "%s: not "
					    "a JSON array", a);
					jv_unref(v);
					goto out;
				}
				jv_unref(*slot);
				*slot = v;
			}
		} else if (a[0] == '-' && a[1] == '-') {
			cli_usage_error("template", "unknown option '%s'", a);
			goto out;
		} else if (o.path == NULL)
			o.path = argv[i];
		else {
			cli_usage_error("template", "too many arguments");
			goto out;
		}
	}
	if (o.path == NULL) {
		cli_usage_error("template", "missing FILE");
		goto out;
	}
	if (o.name != NULL && o.tfile != NULL) {
		cli_usage_error("template", "--name and --template-file "
		    "exclude each other");
		goto out;
	}
	rc = EXIT_BADFILE;
	if ((f = cli_open(o.path)) != NULL) {
		rc = render(f, &o);
		gguf_close(f);
	}
out:
	jv_unref(o.messages);
	jv_unref(o.tools);
	jv_unref(o.vars);
	return rc;
}
