/*
 * test_script.c - a document's pending changes written as an edit script
 * (cmd/script.c) and run on the source again make the same file, byte
 * for byte: every kind of change, swaps of names, hostile names and
 * strings, big arrays.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gguf.h"
#include "doc.h"
#include "save.h"
#include "cmd/lang.h"
#include "tap.h"
#include "../tools/ggufgen.h"

static char	dir[256];

static const char *
tmp(const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", dir, name);
	return buf;
}

/* Keys and tensors with names and strings that need quoting. */
static void
build(const char *path)
{
	struct gg	g;
	uint64_t	ne[1] = { 8 };
	int		i;

	gg_init(&g, 3, 0);
	gg_header(&g, 3, 9);
	gg_kv_str(&g, "general.architecture", "llama");
	gg_kv_str(&g, "general.name", "tiny");
	gg_kv_u32(&g, "a", 1);
	gg_kv_u32(&g, "b", 2);
	gg_kv_f32(&g, "f", 0.5f);
	gg_kv_str(&g, "odd key:with \"colon\" and\ttab", "v");
	gg_kv_str(&g, "ends]", "w");
	gg_kv_arr(&g, "toks", GG_STR, 3);
	gg_str(&g, "a");
	gg_str(&g, "b \"q\"\n");
	gg_strn(&g, "\xff\xfe", 2);
	gg_kv_arr(&g, "ids", GG_I32, 4);
	for (i = 0; i < 4; i++)
		gg_u32(&g, (uint32_t)(i * 10));
	gg_tensor(&g, "t0", 1, ne, GG_T_F32, 0);
	gg_tensor(&g, "t1", 1, ne, GG_T_F32, 32);
	gg_tensor(&g, "t 2", 1, ne, GG_T_F16, 64);
	gg_pad(&g, 32);
	for (i = 0; i < 16; i++)
		gg_f32(&g, (float)i);
	for (i = 0; i < 8; i++)
		gg_u16(&g, 0x3c00);
	gg_write(&g, path);
	gg_free(&g);
}

static int
ex(struct gguf_doc *d, const char *line)
{
	struct lang_cmd	cmd;
	char		msg[600];
	int		rc;

	if ((rc = lang_parse(line, &cmd, msg, sizeof msg)) == LANG_OK) {
		cmd.force = 1;
		rc = lang_apply(d, &cmd, msg, sizeof msg);
		lang_cmd_free(&cmd);
	}
	if (rc < 0)
		diag("%s -> %s", line, msg);
	return rc;
}

static int
save_as(struct gguf_doc *d, const char *path)
{
	struct gguf_save_opts	o;
	struct gguf_save_info	info;
	struct gguf_err		err;

	memset(&o, 0, sizeof o);
	o.reserve = -1;
	o.path = path;
	o.force = 1;
	if (gguf_doc_save(d, &o, &info, &err) != 0) {
		diag("save %s: %s", path, err.msg);
		return -1;
	}
	return 0;
}

/*
 * The edits (one per line of edits) on src, saved as want; the script
 * written from them, run on a fresh document of src, saved as got: the
 * same bytes. Returns the script (allocated) for further checks.
 */
static char *
roundtrip(const char *src, const char *const *edits, const char *what)
{
	struct gguf_doc	*d, *e;
	struct gguf_err	 err;
	char		 want[512], got[512], *script = NULL, *line, *nl;
	size_t		 slen = 0;
	FILE		*fp;
	int		 lost = 0, n, bad = 0;

	tmp("want.gguf", want, sizeof want);
	tmp("got.gguf", got, sizeof got);
	if ((d = gguf_doc_open(src, &err)) == NULL ||
	    (e = gguf_doc_open(src, &err)) == NULL) {
		ok(0, "%s: the source opens (%s)", what, err.msg);
		return NULL;
	}
	for (; *edits != NULL; edits++)
		bad |= ex(d, *edits) < 0;
	fp = open_memstream(&script, &slen);
	n = lang_script(d, fp, &lost, &err);
	fclose(fp);
	ok(!bad && n > 0 && lost == 0, "%s: the script is written", what);
	for (line = script; line != NULL && *line != '\0'; line = nl) {
		if ((nl = strchr(line, '\n')) != NULL)
			*nl++ = '\0';
		if (*line != '#')
			bad |= ex(e, line) < 0;
		if (nl != NULL)
			nl[-1] = '\n';
	}
	ok(!bad, "%s: every line of the script applies", what);
	ok(save_as(d, want) == 0 && save_as(e, got) == 0 &&
	    same_files(want, got), "%s: the script makes the same file", what);
	if (bad)
		diag("script:\n%s", script);
	gguf_doc_free(d);
	gguf_doc_free(e);
	return script;
}

int
main(void)
{
	const char	*t = getenv("TMPDIR");
	char		 src[512], *s;
	char		 cmd[600];

	snprintf(dir, sizeof dir, "%s/test_script.XXXXXX", t != NULL && *t ?
	    t : "/tmp");
	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	build(tmp("src.gguf", src, sizeof src));

	{
		static const char *const e[] = {
			"set general.name a new name", "set a 42",
			"set f:f64 0.25", "set added.key:str \"two\\nlines\"",
			"set added.arr:arr[str] [\"x\", \"\\udcff y\"]",
			"rm b", "set toks[1] changed", "ins ids[0] -5",
			"convert \"t 2\" f32", "rm-tensor t0", NULL };

		s = roundtrip(src, e, "values, types, added, removed");
		ok(s != NULL && strstr(s, "rm b\n") != NULL &&
		    strstr(s, "set a:u32 42\n") != NULL &&
		    strstr(s, "rm-tensor t0\n") != NULL,
		    "the lines read as a person would write them");
		free(s);
	}
	{
		static const char *const e[] = { "mv a b.tmp", "mv b a",
			"mv b.tmp b", "rename t0 x", "rename t1 t0",
			"rename x t1", NULL };

		s = roundtrip(src, e, "swapped keys and tensors");
		ok(s != NULL && strstr(s, "ggufed.tmp.") != NULL,
		    "a swap goes through temporary names");
		free(s);
	}
	{
		/*
		 * A file whose keys and tensors are named like the temporary
		 * names (ggufed.tmp.N, ggufed.tmp1.N): the swap goes through
		 * names it has not.
		 */
		static const char *const e[] = { "mv a b.tmp", "mv b a",
			"mv b.tmp b", "rename t0 x", "rename t1 t0",
			"rename x t1", "set ggufed.tmp2.0:u8 1", NULL };
		struct gguf_doc	*d;
		struct gguf_err	 err;
		char		 src2[512], line[64];
		int		 i, bad = 0;

		tmp("src2.gguf", src2, sizeof src2);
		if ((d = gguf_doc_open(src, &err)) == NULL)
			bad = 1;
		for (i = 0; !bad && i < 40; i++) {
			snprintf(line, sizeof line, "set ggufed.tmp.%d:u8 1", i);
			bad |= ex(d, line) < 0;
			snprintf(line, sizeof line, "set ggufed.tmp1.%d:u8 1",
			    i);
			bad |= ex(d, line) < 0;
		}
		bad |= ex(d, "rename \"t 2\" ggufed.tmp.1") < 0;
		ok(!bad && save_as(d, src2) == 0, "a file with keys and a "
		    "tensor named ggufed.tmp.N");
		if (d != NULL)
			gguf_doc_free(d);
		s = roundtrip(src2, e, "a swap beside names like the "
		    "temporary ones");
		ok(s != NULL && strstr(s, "mv a ggufed.tmp3.") != NULL &&
		    strstr(s, "rename t0 ggufed.tmp1.") != NULL,
		    "the temporary names are ones neither the file nor the "
		    "edits have");
		if (s != NULL && strstr(s, "mv a ggufed.tmp3.") == NULL)
			diag("script:\n%s", s);
		free(s);
	}
	{
		static const char *const e[] = {
			"mv \"odd key:with \\\"colon\\\" and\\ttab\" \"new:k\"",
			"set \"new:k\" \"tab\\there\"", "mv \"ends]\" \"ends2]\"",
			"rename \"t 2\" \"t  3\"", "convert \"t  3\" f32",
			"rm general.architecture", NULL };

		s = roundtrip(src, e, "names with colons, quotes, blanks, ]");
		free(s);
	}
	{
		static const char *const e[] = { "set a 1", NULL };
		struct gguf_doc	*d;
		struct gguf_err	 err;
		FILE		*fp;
		char		*out = NULL;
		size_t		 olen = 0;
		int		 lost, n = -1;

		if ((d = gguf_doc_open(src, &err)) != NULL) {
			ex(d, e[0]);
			fp = open_memstream(&out, &olen);
			n = lang_script(d, fp, &lost, &err);
			fclose(fp);
			gguf_doc_free(d);
		}
		ok(n == 0 && olen == 0, "no change: an empty script");
		free(out);
	}
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		diag("could not remove %s", dir);
	return tap_done();
}
