/*
 * test_doc.c - the edit model, the command language and the writer, on
 * files built byte by byte with ggufgen (independent of the core), plus
 * the shared 150,000-token fixture.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gguf.h"
#include "dequant.h"
#include "doc.h"
#include "docint.h"
#include "io.h"
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

/* A small model: 6 KV pairs, two F32 tensors of 8 elements. */
static void
build(const char *path, int be)
{
	struct gg	g;
	uint64_t	ne[1] = { 8 };
	int		i;

	gg_init(&g, 3, be);
	gg_header(&g, 2, 6);
	gg_kv_str(&g, "general.architecture", "llama");
	gg_kv_str(&g, "general.name", "tiny");
	gg_kv_u32(&g, "x", 7);
	gg_kv_bool(&g, "b", 1);
	gg_kv_arr(&g, "toks", GG_STR, 3);
	gg_str(&g, "a");
	gg_str(&g, "bb");
	gg_str(&g, "ccc");
	gg_kv_arr(&g, "ids", GG_I32, 4);
	for (i = 0; i < 4; i++)
		gg_u32(&g, (uint32_t)(i * 10));
	gg_tensor(&g, "t0", 1, ne, GG_T_F32, 0);
	gg_tensor(&g, "t1", 1, ne, GG_T_F32, 32);
	gg_pad(&g, 32);
	for (i = 0; i < 16; i++)
		gg_f32(&g, (float)i);
	gg_write(&g, path);
	gg_free(&g);
}

static int
ex(struct gguf_doc *d, const char *line)
{
	char	msg[600];
	int	rc = lang_exec(d, line, msg, sizeof msg);

	if (rc < 0)
		diag("%s -> %s", line, msg);
	return rc;
}

/* A line applied with force. */
static int
force(struct gguf_doc *d, const char *line)
{
	struct lang_cmd	cmd;
	char		msg[600];
	int		rc;

	if (lang_parse(line, &cmd, msg, sizeof msg) != LANG_OK)
		return LANG_ERR;
	cmd.force = 1;
	rc = lang_apply(d, &cmd, msg, sizeof msg);
	lang_cmd_free(&cmd);
	return rc;
}

static int
str_is(struct gguf_val *v, const char *s)
{
	struct gguf_str	t;

	return v != NULL && gguf_val_str(v, &t) == 0 && t.n == strlen(s) &&
	    memcmp(t.p, s, t.n) == 0;
}

static int
elem_is(struct gguf_val *arr, uint64_t i, const char *s)
{
	struct gguf_val	e;
	struct gguf_err	err;

	return arr != NULL && gguf_arr_get(arr, i, &e, &err) == 0 &&
	    str_is(&e, s);
}

static struct gguf_val *
get(struct gguf_doc *d, const char *key)
{
	return gguf_doc_get(d, key, strlen(key));
}

static int
entries(void)
{
	DIR		*dp = opendir(dir);
	struct dirent	*de;
	int		 n = 0;

	while ((de = readdir(dp)) != NULL)
		n += de->d_name[0] != '.' || (de->d_name[1] != '\0' &&
		    de->d_name[1] != '.');
	closedir(dp);
	return n;
}

static void
test_values(void)
{
	struct gguf_doc	*d;
	struct gguf_err	 err;
	struct gguf_change *ch;
	uint64_t	 u;
	double		 f;
	char		 p[512], name[80];
	size_t		 n;

	build(tmp("m.gguf", p, sizeof p), 0);
	d = gguf_doc_open(p, &err);
	ok(d != NULL, "open a built model");
	if (d == NULL)
		return;
	is_u64(gguf_doc_n_kv(d), 6, "6 KV entries");

	ok(ex(d, "set general.name Foo Bar") == LANG_OK &&
	    str_is(get(d, "general.name"), "Foo Bar"), "set a bare string");
	ok(ex(d, "set general.name \"q\\t\\x01\\u{e9}\"") == LANG_OK &&
	    str_is(get(d, "general.name"), "q\t\x01\xc3\xa9"),
	    "set a quoted string with escapes");
	ok(ex(d, "set x 0xffffffff") == LANG_OK &&
	    gguf_val_u64(get(d, "x"), &u) == 0 && u == 0xffffffffu,
	    "u32 max in hex");
	ok(ex(d, "set x 4294967296") == LANG_ERR, "u32 overflow refused");
	ok(ex(d, "set x -1") == LANG_ERR, "negative u32 refused");
	ok(ex(d, "set x 010") == LANG_ERR, "leading zero refused");
	ok(ex(d, "set x 1.5") == LANG_ERR, "float into u32 refused");
	ok(ex(d, "set b 2") == LANG_ERR, "bool 2 refused");
	ok(ex(d, "set b false") == LANG_OK && gguf_val_bits(get(d, "b")) == 0,
	    "bool false");
	ok(ex(d, "set n.f:f32 1e39") == LANG_ERR, "f32 overflow refused");
	ok(ex(d, "set n.f:f32 -inf") == LANG_OK &&
	    gguf_val_f64(get(d, "n.f"), &f) == 0 && f < -1e300,
	    "add an f32 -inf");
	ok(ex(d, "set n.g:f64 nan") == LANG_OK &&
	    gguf_val_f64(get(d, "n.g"), &f) == 0 && isnan(f), "add an f64 nan");
	ok(ex(d, "set n.i:i8 -128") == LANG_OK && ex(d, "set n.j:i8 -129") ==
	    LANG_ERR, "i8 range");
	ok(ex(d, "set missing 1") == LANG_ERR, "set of a missing key needs a "
	    "type");
	ok(ex(d, "set x:str seven") == LANG_OK &&
	    str_is(get(d, "x"), "seven"), "type change");
	ok(ex(d, "set Bad-Key:u8 1") == LANG_WARN, "naming rule: warned");
	ok(ex(d, "set \"\":u8 1") == LANG_ERR, "empty key refused");
	ok(ex(d, "mv general.name general.architecture") == LANG_ERR,
	    "mv onto an existing key refused");
	ok(ex(d, "mv b c.d") == LANG_OK && get(d, "b") == NULL &&
	    get(d, "c.d") != NULL, "mv");
	ok(ex(d, "rm c.d") == LANG_OK && get(d, "c.d") == NULL, "rm");
	ok(ex(d, "set general.alignment:u32 48") == LANG_ERR,
	    "alignment not a power of two refused");
	ok(ex(d, "set general.alignment:u64 64") == LANG_ERR,
	    "alignment not u32 refused");
	ok(ex(d, "set general.alignment:u32 64") == LANG_OK, "alignment 64");

	/* What llama.cpp refuses, refused unless forced. */
	ok(ex(d, "set llama.block_count:str four") == LANG_REFUSED &&
	    get(d, "llama.block_count") == NULL, "a well-known key of a type "
	    "llama.cpp refuses is refused");
	ok(ex(d, "set llama.block_count:u32 4") == LANG_OK, "and of its type "
	    "it is set");
	/*
	 * llama.cpp loads a special token id outside the vocabulary ("bad
	 * special token", its default kept): set, with a warning.
	 */
	ok(ex(d, "set tokenizer.ggml.tokens:arr[str] [\"a\", \"b\"]") ==
	    LANG_OK && ex(d, "set tokenizer.ggml.eos_token_id:u32 2") ==
	    LANG_WARN && gguf_val_u64(get(d, "tokenizer.ggml.eos_token_id"),
	    &u) == 0 && u == 2,
	    "an eos id outside the vocabulary is set, with a warning");
	ok(ex(d, "set tokenizer.ggml.eos_token_id:u32 1") == LANG_OK &&
	    ex(d, "set tokenizer.ggml.eos_token_id 2") == LANG_WARN,
	    "an id inside it is set; changed to one outside, a warning");
	ok(ex(d, "set tokenizer.ggml.bos_token_id:u32 4294967295") == LANG_OK,
	    "4294967295 (-1 as u32: no token) is set");
	ok(force(d, "set tokenizer.ggml.eos_token_id 7") == LANG_WARN &&
	    gguf_val_u64(get(d, "tokenizer.ggml.eos_token_id"), &u) == 0 &&
	    u == 7, "forced, an id outside the vocabulary is set too");
	ok(ex(d, "set \"x\\0y\":u8 1") == LANG_ERR && force(d,
	    "set \"x\\0y\":u8 1") == LANG_ERR, "a key with a NUL byte is "
	    "refused, forced or not");

	/* Arrays. */
	ok(ex(d, "set toks[1] [CLS]") == LANG_OK &&
	    elem_is(get(d, "toks"), 1, "[CLS]"), "set an element (bare "
	    "brackets are a string)");
	ok(ex(d, "ins toks[0] [\"x\", \"y\\u00e9\"]") == LANG_OK &&
	    get(d, "toks")->count == 5 && elem_is(get(d, "toks"), 0, "x") &&
	    elem_is(get(d, "toks"), 1, "y\xc3\xa9") &&
	    elem_is(get(d, "toks"), 2, "a"), "insert two elements");
	ok(ex(d, "del toks[-1]") == LANG_OK && get(d, "toks")->count == 4 &&
	    elem_is(get(d, "toks"), 3, "[CLS]"), "delete the last element");
	ok(ex(d, "append ids [5, -6]") == LANG_OK && ex(d, "del ids[0:2]") ==
	    LANG_OK && get(d, "ids")->count == 4, "append and delete a range");
	ok(ex(d, "set ids[9] 1") == LANG_ERR, "index out of range refused");
	ok(ex(d, "set ids [1, 2, 3]") == LANG_OK && get(d, "ids")->count == 3,
	    "replace a whole array");
	ok(ex(d, "set ids [1, \"x\"]") == LANG_ERR, "string in an i32 array "
	    "refused");

	/* Tensors. */
	ok(ex(d, "rename t0 t1") == LANG_ERR, "rename onto a tensor refused");
	memset(name, 'n', 64);
	snprintf(p, sizeof p, "rename t0 %.64s", name);
	ok(ex(d, p) == LANG_ERR, "64-byte name refused");
	snprintf(p, sizeof p, "rename t0 %.63s", name);
	ok(ex(d, p) == LANG_OK, "63-byte name accepted");
	ok(ex(d, "undo") == LANG_OK, "undo the rename");
	ok(ex(d, "rename s/^t(\\d)$/w.$1/") == LANG_OK &&
	    gguf_doc_tensor_find(d, "w.0", 3) >= 0 &&
	    gguf_doc_tensor_find(d, "w.1", 3) >= 0, "regex rename with a "
	    "capture");
	ok(ex(d, "rename s/w\\.\\d/w.0/") == LANG_ERR, "regex rename to "
	    "duplicate names refused");
	ok(ex(d, "rm-tensor w.1") == LANG_OK && gguf_doc_live_tensors(d) == 1,
	    "remove a tensor");

	n = gguf_doc_diff(d, &ch);
	ok(n >= 8, "diff lists the changes (%zu)", n);
	free(ch);
	while (gguf_doc_can_undo(d))
		gguf_doc_undo(d, NULL);
	n = gguf_doc_diff(d, &ch);
	ok(n == 0 && str_is(get(d, "general.name"), "tiny") &&
	    gguf_doc_n_kv(d) == 6, "undo everything: no changes left");
	free(ch);
	while (gguf_doc_can_redo(d))
		gguf_doc_redo(d, NULL);
	n = gguf_doc_diff(d, &ch);
	ok(n >= 8 && gguf_doc_live_tensors(d) == 1 &&
	    str_is(get(d, "x"), "seven"), "redo everything");
	free(ch);
	gguf_doc_free(d);
}

static void
test_save(void)
{
	struct gguf_doc		*d;
	struct gguf_file	*f;
	struct gguf_err		 err;
	struct gguf_save_opts	 o;
	struct gguf_save_info	 info;
	const struct gguf_tensor *t;
	const float		*data;
	char			 p[512], q[512];

	build(tmp("s.gguf", p, sizeof p), 0);
	d = gguf_doc_open(p, &err);
	memset(&o, 0, sizeof o);
	o.reserve = -1;
	o.path = tmp("s2.gguf", q, sizeof q);
	ok(gguf_doc_save(d, &o, &info, &err) == 0 && same_files(p, q),
	    "a save without edits is byte-identical");
	ex(d, "set general.alignment:u32 64");
	ex(d, "rename t1 second");
	ok(gguf_doc_save(d, &o, &info, &err) != 0 && same_files(p, q) &&
	    strstr(err.msg, "exists") != NULL, "an existing file is not "
	    "overwritten unless forced");
	o.force = 1;
	ok(gguf_doc_save(d, &o, &info, &err) == 0 && info.relayout,
	    "alignment 64: re-laid out");
	o.force = 0;
	gguf_doc_free(d);
	f = gguf_open(q, &err);
	ok(f != NULL && gguf_layout(f)->alignment == 64 &&
	    gguf_layout(f)->data_off % 64 == 0, "reads back with alignment 64");
	if (f != NULL) {
		t = gguf_tensor_at(f, 1);
		data = (const float *)gguf_tensor_data(f, t, &err);
		ok(t->offset == 64 && t->name.n == 6 && data != NULL &&
		    (int)data[0] == 8 && (int)data[7] == 15, "second tensor at 64, "
		    "renamed, data intact");
		gguf_close(f);
	}

	/* In place: same header length, then a fault after the journal. */
	d = gguf_doc_open(p, &err);
	ex(d, "set x 9");
	o.path = NULL;
	ok(gguf_doc_plan_save(d, &o, &info, &err) == 0 &&
	    info.how == GGUF_SAVE_INPLACE, "a fixed-size edit saves in place");
	gguf_fault_hook = NULL;
	ok(gguf_doc_save(d, &o, &info, &err) == 0 &&
	    info.how == GGUF_SAVE_INPLACE && info.written == 1, "saved in "
	    "place: one byte written");
	ok(gguf_doc_get(d, "x", 1) != NULL &&
	    gguf_val_bits(gguf_doc_get(d, "x", 1)) == 9, "the document "
	    "reopened on the saved file");
	gguf_doc_free(d);
}

static const char	*fail_at;

static int
hook(const char *step)
{
	return strcmp(step, fail_at) == 0;
}

static void
test_faults(void)
{
	struct gguf_doc		*d;
	struct gguf_err		 err;
	struct gguf_save_opts	 o;
	struct gguf_save_info	 info;
	char			 p[512], q[512], jp[600];
	int			 n0;

	build(tmp("f.gguf", p, sizeof p), 0);
	build(tmp("f.orig", q, sizeof q), 0);
	gguf_fault_hook = hook;
	memset(&o, 0, sizeof o);
	o.reserve = -1;

	d = gguf_doc_open(p, &err);
	ex(d, "set x 3");
	fail_at = "header-written";
	n0 = entries();
	ok(gguf_doc_save(d, &o, &info, &err) != 0 && same_files(p, q),
	    "in-place failure after the write: rolled back");
	gguf_journal_path(p, jp, sizeof jp);
	ok(access(jp, F_OK) != 0 && entries() == n0, "no journal left");
	fail_at = "tmp-written";
	ex(d, "set general.name \"a longer name\"");
	ok(gguf_doc_save(d, &o, &info, &err) != 0 && same_files(p, q),
	    "rewrite failure before the rename: original intact");
	ok(entries() == n0, "no temporary file left");
	gguf_doc_free(d);
	gguf_fault_hook = NULL;
}

static void
test_be(void)
{
	struct gguf_doc		*d;
	struct gguf_file	*f;
	struct gguf_err		 err;
	struct gguf_save_opts	 o;
	struct gguf_save_info	 info;
	struct gguf_val		*v;
	uint64_t		 u;
	char			 p[512], q[512];

	build(tmp("be.gguf", p, sizeof p), 1);
	d = gguf_doc_open(p, &err);
	ok(d != NULL && gguf_doc_be(d), "big-endian model opens");
	if (d == NULL)
		return;
	memset(&o, 0, sizeof o);
	o.reserve = -1;
	o.path = tmp("be2.gguf", q, sizeof q);
	ok(gguf_doc_save(d, &o, &info, &err) == 0 && same_files(p, q),
	    "big-endian: a save without edits is byte-identical");
	ok(ex(d, "set x 0x01020304") == LANG_OK &&
	    ex(d, "set new.v:u16 0x0a0b") == LANG_OK &&
	    ex(d, "set toks[0] zz") == LANG_OK &&
	    ex(d, "rm-tensor t0") == LANG_OK, "edits on a big-endian model");
	o.force = 1;
	ok(gguf_doc_save(d, &o, &info, &err) == 0, "saved");
	o.force = 0;
	gguf_doc_free(d);
	f = gguf_open(q, &err);
	ok(f != NULL && gguf_layout(f)->be && gguf_layout(f)->version == 3,
	    "still big-endian v3");
	if (f == NULL)
		return;
	v = gguf_kv_get(f, "x");
	ok(v != NULL && gguf_val_u64(v, &u) == 0 && u == 0x01020304 &&
	    v->p[0] == 1 && v->p[3] == 4, "u32 stored big-endian");
	v = gguf_kv_get(f, "new.v");
	ok(v != NULL && v->p[0] == 0x0a && v->p[1] == 0x0b, "added u16 "
	    "stored big-endian");
	ok(elem_is(gguf_kv_get(f, "toks"), 0, "zz") &&
	    elem_is(gguf_kv_get(f, "toks"), 2, "ccc"), "string element");
	ok(gguf_layout(f)->n_tensors == 1 &&
	    gguf_tensor_at(f, 0)->offset == 0, "removed tensor: re-laid out");
	gguf_close(f);
}

static void
test_vocab(void)
{
	struct gguf_doc	*d;
	struct gguf_err	 err;
	struct gguf_val	*v;
	char		 p[512];

	if (shared_path("fixtures/ggml/big-vocab.gguf", p, sizeof p) == NULL ||
	    access(p, R_OK) != 0) {
		ok(1, "# SKIP no shared fixtures");
		return;
	}
	d = gguf_doc_open(p, &err);
	ok(d != NULL, "open big-vocab");
	if (d == NULL)
		return;
	ok(ex(d, "set tokenizer.ggml.tokens[149999] last") == LANG_OK &&
	    ex(d, "set tokenizer.ggml.tokens[0] first") == LANG_OK,
	    "edit the first and last of 150,000 tokens");
	v = get(d, "tokenizer.ggml.tokens");
	ok(v->count == 150000 && elem_is(v, 149999, "last") &&
	    elem_is(v, 0, "first"), "read back");
	ok(ex(d, "del tokenizer.ggml.tokens[1:149999]") == LANG_OK &&
	    get(d, "tokenizer.ggml.tokens")->count == 2, "delete all but two");
	gguf_doc_free(d);
}

/*
 * convert TENSOR f32 in a file of either byte order: an F16 tensor of
 * [40, 2] (-40 first, 1 at element 41, zeros) becomes F32 with the same
 * values, in the file's byte order; the F64 and I32 tensors are refused;
 * undo, the diff and the saved layout.
 */
static void
test_convert(int be)
{
	static const uint16_t	 f16[] = { 0xd100, 0x3c00 };	/* -40, 1 */
	struct gguf_doc		*d;
	struct gguf_file	*f;
	struct gguf_doc_tensor	 dt;
	struct gguf_change	*ch;
	struct gguf_err		 err;
	struct gguf_save_opts	 o;
	struct gguf_save_info	 info;
	const struct gguf_tensor *t;
	struct gg		 g;
	uint64_t		 ne[2] = { 40, 2 }, one = 2, i, bad = 0;
	float			 v[80];
	char			 src[300], out[300];
	int			 k;

	tmp(be ? "conv-be.gguf" : "conv.gguf", src, sizeof src);
	tmp(be ? "conv-be-out.gguf" : "conv-out.gguf", out, sizeof out);
	gg_init(&g, 3, be);
	gg_header(&g, 3, 1);
	gg_kv_str(&g, "general.architecture", "llama");
	gg_tensor(&g, "h", 2, ne, GG_T_F16, 0);
	gg_tensor(&g, "w", 1, &one, GG_T_F64, 160);
	gg_tensor(&g, "n", 1, &one, 26 /* I32 */, 192);
	gg_pad(&g, 32);
	for (k = 0; k < 80; k++)
		gg_u16(&g, k == 0 ? f16[0] : k == 41 ? f16[1] : 0);
	gg_pad(&g, 32);
	gg_f64(&g, 0.1);
	gg_f64(&g, 0.2);
	gg_pad(&g, 32);
	gg_u32(&g, 16777217);
	gg_u32(&g, 1);
	gg_pad(&g, 32);
	gg_write(&g, src);
	gg_free(&g);

	d = gguf_doc_open(src, &err);
	ok(d != NULL, "convert (%s): open", be ? "big-endian" : "little-endian");
	if (d == NULL)
		return;
	ok(ex(d, "convert h f32") == LANG_OK, "convert the F16 tensor");
	ok(gguf_doc_tensor(d, 0, &dt) == 0 && dt.type == GGUF_T_F32 &&
	    dt.nbytes == 320 && (dt.flags & GGUF_ED_VALUE) &&
	    dt.t->type == GGUF_T_F16, "its entry: F32, 320 bytes, changed");
	ok(gguf_doc_diff(d, &ch) == 1 && ch[0].what == GGUF_CH_TENSOR &&
	    ch[0].old_type == GGUF_T_F16 && ch[0].new_type == GGUF_T_F32,
	    "the diff: one tensor, F16 -> F32");
	free(ch);
	ok(ex(d, "convert h f32") == LANG_ERR, "twice is refused");
	ok(ex(d, "convert w f32") == LANG_ERR, "F64 is refused (it would round)");
	ok(ex(d, "convert n f32") == LANG_ERR, "I32 is refused (integers)");
	ok(ex(d, "undo") == LANG_OK && gguf_doc_diff(d, &ch) == 0 &&
	    ex(d, "redo") == LANG_OK, "undo and redo");
	free(ch);
	memset(&o, 0, sizeof o);
	o.path = out;
	o.reserve = -1;
	memset(&info, 0, sizeof info);
	ok(gguf_doc_save(d, &o, &info, &err) == 0 &&
	    info.how == GGUF_SAVE_REWRITE, "saved (%s)", err.msg);
	gguf_doc_free(d);

	f = gguf_open(out, &err);
	ok(f != NULL && gguf_n_warnings(f) == (size_t)be,
	    "the result opens cleanly (big-endian aside)");
	if (f == NULL)
		return;
	t = gguf_tensor_at(f, 0);
	ok(t->type == GGUF_T_F32 && t->nbytes == 320 && t->offset == 0 &&
	    gguf_tensor_at(f, 1)->offset == 320 &&
	    gguf_tensor_at(f, 2)->offset == 352, "F32 at 0, the rest after it");
	ok(gguf_dequant_rows(f, t, 0, 2, 0, 40, v, &err) == 0,
	    "its values read (%s)", err.msg);
	for (i = 0; i < 80; i++) {
		float	want = i == 0 ? -40.0f : i == 41 ? 1.0f : 0.0f;

		if (memcmp(&v[i], &want, sizeof want) != 0)
			bad++;
	}
	is_u64(bad, 0, "they are the F16 values");
	gguf_close(f);
}

/* gguf_realpath names the file realpath() names, through links of files
 * and of directories, and fails as it does. */
static void
test_realpath(void)
{
	char		 f[300], sub[300], l1[300], l2[300], ld[300], rel[600];
	char		 viad[400], gone[300], *a, *b, *cwd;
	const char	*cases[5];
	size_t		 i;

	tmp("real.gguf", f, sizeof f);
	build(f, 0);
	tmp("sub", sub, sizeof sub);
	(void)mkdir(sub, 0700);
	tmp("link1", l1, sizeof l1);
	tmp("sub/link2", l2, sizeof l2);
	tmp("dirlink", ld, sizeof ld);
	if (symlink(f, l1) != 0 || symlink("../link1", l2) != 0 ||
	    symlink(sub, ld) != 0) {
		ok(0, "symlinks: %s", strerror(errno));
		return;
	}
	snprintf(viad, sizeof viad, "%s/link2", ld);
	cwd = getcwd(NULL, 0);
	if (cwd != NULL && chdir(dir) == 0)
		snprintf(rel, sizeof rel, "sub/../dirlink/./link2");
	else
		snprintf(rel, sizeof rel, "%s", viad);
	cases[0] = f;
	cases[1] = l1;
	cases[2] = l2;
	cases[3] = viad;
	cases[4] = rel;
	for (i = 0; i < 5; i++) {
		a = gguf_realpath(cases[i]);
		b = realpath(cases[i], NULL);
		ok(a != NULL && b != NULL && strcmp(a, b) == 0, "gguf_realpath "
		    "of %s is realpath's (%s)", cases[i], a != NULL ? a : "NULL");
		free(a);
		free(b);
	}
	a = gguf_realpath(sub);
	b = realpath(sub, NULL);
	ok(a != NULL && b != NULL && strcmp(a, b) == 0, "a directory too");
	free(a);
	free(b);
	if (cwd != NULL) {
		if (chdir(cwd) != 0)
			diag("chdir back: %s", strerror(errno));
		free(cwd);
	}
	tmp("nothing-here", gone, sizeof gone);
	errno = 0;
	a = gguf_realpath(gone);
	ok(a == NULL && errno == ENOENT, "a missing file: NULL, ENOENT");
	free(a);
	tmp("dangling", gone, sizeof gone);
	if (symlink("nothing-here", gone) == 0) {
		errno = 0;
		a = gguf_realpath(gone);
		ok(a == NULL && errno == ENOENT, "a dangling link: NULL, "
		    "ENOENT");
		free(a);
		a = gguf_resolve(gone);
		ok(a != NULL && strcmp(a, gone) == 0, "gguf_resolve of it: "
		    "the path as it is");
		free(a);
	}
}

int
main(void)
{
	const char	*t = getenv("TMPDIR");

	snprintf(dir, sizeof dir, "%s/test_doc.XXXXXX", t != NULL && *t ?
	    t : "/tmp");
	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	test_values();
	test_realpath();
	test_save();
	test_faults();
	test_be();
	test_vocab();
	test_convert(0);
	test_convert(1);
	{
		char	cmd[400];

		snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
		if (system(cmd) != 0)
			diag("could not remove %s", dir);
	}
	return tap_done();
}
