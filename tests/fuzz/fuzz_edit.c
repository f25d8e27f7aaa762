/*
 * fuzz_edit.c - fuzz target: open, a random sequence of edits, save,
 * reopen, compare.
 *
 * Input: byte 0 is the length L of the edit program, bytes 1..L the
 * program, the rest the GGUF file. A file that does not open ends the
 * run. Each step of the program takes an opcode byte and what it needs
 * after it (indices modulo the entry count, bytes for values and names):
 * set a value to another of its type, add a key of any type, remove,
 * rename, splice an array, rename or remove a tensor, undo, redo, run one
 * line of the command language, or save the document over its own file
 * (in place or by rewrite, whichever the writer picks).
 *
 * After every step the model check (model.h) runs over the document, as
 * the browser runs it after every edit: it must neither crash nor hang,
 * whatever the edits made of the model.
 *
 * Every save, to the document's own file or (at the end) to another, is
 * checked against the document it saved: the file reopens as v3 in the
 * document's byte order, with the live keys in order, each of the same
 * type and (re-encoded in v3 widths) the same bytes, and the live tensors
 * in order with the same name, type, shape and data. A save that fails
 * must leave its target byte for byte as it was, and no save may leave a
 * temporary file or a journal behind.
 */
#include "config.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gguf.h"
#include "doc.h"
#include "model.h"
#include "save.h"
#include "cmd/lang.h"
#include "fuzz.h"

struct prog {
	const uint8_t	*p;
	size_t		 n;
};

/* What a save must produce: the live entries of the document. */
struct skv {
	char			*key;
	uint64_t		 klen;
	uint32_t		 type;
	struct gguf_value	*enc;		/* NULL: the reserve */
};

struct sten {
	char		*name;
	uint64_t	 nlen;
	uint32_t	 type;
	uint32_t	 n_dims;
	uint64_t	 ne[GGUF_MAX_DIMS];
	uint64_t	 nbytes;
	uint64_t	 hash;
};

struct snap {
	int		 be;
	struct skv	*kv;
	uint64_t	 nkv;
	struct sten	*ten;
	uint64_t	 nten;
};

static uint8_t
byte(struct prog *g)
{
	uint8_t	b;

	if (g->n == 0)
		return 0;
	b = *g->p++;
	g->n--;
	return b;
}

static uint64_t
num(struct prog *g, unsigned nbytes)
{
	uint64_t	v = 0;
	unsigned	i;

	for (i = 0; i < nbytes; i++)
		v |= (uint64_t)byte(g) << (8 * i);
	return v;
}

/* Up to max bytes of the program, as a view. */
static const char *
bytes(struct prog *g, size_t max, size_t *len)
{
	const char	*s = (const char *)g->p;
	size_t		 n = byte(g) % (max + 1);

	if (n > g->n)
		n = g->n;
	g->p += n;
	g->n -= n;
	*len = n;
	return s;
}

static uint64_t
fnv(const uint8_t *p, uint64_t n)
{
	uint64_t	h = 1469598103934665603ull;

	while (n-- > 0)
		h = (h ^ *p++) * 1099511628211ull;
	return h;
}

static void *
xmemdup(const void *p, size_t n)
{
	void	*q = malloc(n + 1);

	if (q == NULL)
		fuzz_fail("out of memory");
	memcpy(q, p, n);
	return q;
}

/* ------------------------------------------------------------- snapshot */

static void
snap_free(struct snap *s)
{
	uint64_t	i;

	for (i = 0; i < s->nkv; i++) {
		free(s->kv[i].key);
		gguf_value_unref(s->kv[i].enc);
	}
	for (i = 0; i < s->nten; i++)
		free(s->ten[i].name);
	free(s->kv);
	free(s->ten);
	memset(s, 0, sizeof *s);
}

/* 0, or -1 if the document holds a value that cannot be encoded. */
static int
snap_take(struct gguf_doc *d, struct snap *s)
{
	struct gguf_doc_kv	 kv;
	struct gguf_doc_tensor	 dt;
	struct gguf_err		 err;
	struct gguf_file	*f = gguf_doc_file(d);
	const uint8_t		*data;
	uint64_t		 i, n;
	struct skv		*k;
	struct sten		*t;

	memset(s, 0, sizeof *s);
	s->be = gguf_doc_be(d);
	n = gguf_doc_n_kv(d);
	s->kv = calloc(n + 1, sizeof *s->kv);
	for (i = 0; i < n; i++) {
		if (gguf_doc_kv(d, i, &kv) != 0)
			fuzz_fail("entry %llu of %llu missing",
			    (unsigned long long)i, (unsigned long long)n);
		if (kv.flags & GGUF_ED_REMOVED)
			continue;
		k = &s->kv[s->nkv++];
		k->key = xmemdup(kv.key.p, kv.key.n);
		k->klen = kv.key.n;
		k->type = kv.val->type;
		if (kv.key.n == sizeof GGUF_RESERVED_KEY - 1 &&
		    memcmp(kv.key.p, GGUF_RESERVED_KEY, kv.key.n) == 0)
			continue;
		if ((k->enc = gguf_value_encode(kv.val, 0, &err)) == NULL)
			return -1;
	}
	n = gguf_doc_n_tensors(d);
	s->ten = calloc(n + 1, sizeof *s->ten);
	for (i = 0; i < n; i++) {
		if (gguf_doc_tensor(d, i, &dt) != 0)
			fuzz_fail("tensor %llu missing", (unsigned long long)i);
		if (dt.flags & GGUF_ED_REMOVED)
			continue;
		t = &s->ten[s->nten++];
		t->name = xmemdup(dt.name.p, dt.name.n);
		t->nlen = dt.name.n;
		t->type = dt.t->type;
		t->n_dims = dt.t->n_dims;
		memcpy(t->ne, dt.t->ne, sizeof t->ne);
		t->nbytes = dt.t->nbytes;
		data = gguf_tensor_data(f, dt.t, &err);
		t->hash = data != NULL ? fnv(data, dt.t->nbytes) : 0;
	}
	return 0;
}

/* The file at path must hold exactly the snapshot. */
static void
snap_check(const struct snap *s, const char *path)
{
	struct gguf_file		*f;
	const struct gguf_layout	*lay;
	const struct gguf_tensor	*t;
	struct gguf_value		*enc;
	struct gguf_val			*a, *b;
	struct gguf_kv			*kv;
	struct gguf_err			 err;
	const uint8_t			*data;
	uint64_t			 i;

	if ((f = gguf_open(path, &err)) == NULL)
		fuzz_fail("the saved file does not open: %s", err.msg);
	lay = gguf_layout(f);
	if (lay->version != 3 || lay->be != s->be || lay->n_kv != s->nkv ||
	    lay->n_tensors != s->nten)
		fuzz_fail("saved v%u be=%d with %llu keys, %llu tensors; "
		    "expected be=%d, %llu, %llu", lay->version, lay->be,
		    (unsigned long long)lay->n_kv,
		    (unsigned long long)lay->n_tensors, s->be,
		    (unsigned long long)s->nkv, (unsigned long long)s->nten);
	for (i = 0; i < s->nkv; i++) {
		kv = gguf_kv_at(f, i);
		if (kv->key.n != s->kv[i].klen ||
		    memcmp(kv->key.p, s->kv[i].key, kv->key.n) != 0 ||
		    kv->val.type != s->kv[i].type)
			fuzz_fail("key %llu differs", (unsigned long long)i);
		if (s->kv[i].enc == NULL)
			continue;
		if ((enc = gguf_value_encode(&kv->val, 0, &err)) == NULL)
			fuzz_fail("saved key %llu does not encode: %s",
			    (unsigned long long)i, err.msg);
		a = gguf_value_val(enc);
		b = gguf_value_val(s->kv[i].enc);
		if (a->type != b->type || a->atype != b->atype ||
		    a->count != b->count || a->n != b->n ||
		    memcmp(a->p, b->p, a->n) != 0)
			fuzz_fail("value of key %llu differs",
			    (unsigned long long)i);
		gguf_value_unref(enc);
	}
	for (i = 0; i < s->nten; i++) {
		t = gguf_tensor_at(f, i);
		if (t->name.n != s->ten[i].nlen ||
		    memcmp(t->name.p, s->ten[i].name, t->name.n) != 0 ||
		    t->type != s->ten[i].type ||
		    t->n_dims != s->ten[i].n_dims ||
		    memcmp(t->ne, s->ten[i].ne, sizeof t->ne) != 0 ||
		    t->nbytes != s->ten[i].nbytes)
			fuzz_fail("tensor info %llu differs",
			    (unsigned long long)i);
		data = gguf_tensor_data(f, t, &err);
		if (data == NULL || fnv(data, t->nbytes) != s->ten[i].hash)
			fuzz_fail("data of tensor %llu differs",
			    (unsigned long long)i);
	}
	gguf_close(f);
}

/* --------------------------------------------------------------- files */

static uint8_t *
slurp(const char *path, size_t *len)
{
	struct stat	 st;
	uint8_t		*p;
	int		 fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0 || fstat(fd, &st) != 0)
		fuzz_fail("cannot read %s", path);
	p = malloc((size_t)st.st_size + 1);
	if (p == NULL || pread(fd, p, (size_t)st.st_size, 0) != st.st_size)
		fuzz_fail("cannot read %s", path);
	close(fd);
	*len = (size_t)st.st_size;
	return p;
}

/* Nothing in the scratch directory but the files of the run. */
static void
check_leftovers(void)
{
	struct dirent	*de;
	DIR		*dp;

	if ((dp = opendir(fuzz_scratch())) == NULL)
		fuzz_fail("scratch directory gone");
	while ((de = readdir(dp)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0 ||
		    strcmp(de->d_name, "edit.gguf") == 0 ||
		    strcmp(de->d_name, "out.gguf") == 0)
			continue;
		fuzz_fail("a save left %s behind", de->d_name);
	}
	closedir(dp);
}

/*
 * Saves d to path (NULL: its own file, then the document reopens) and
 * checks the result. A save that succeeds but cannot reopen the document
 * is a broken invariant, so d always comes back usable.
 */
static struct gguf_doc *
save(struct gguf_doc *d, const char *own, const char *path)
{
	struct gguf_save_opts	 o;
	struct gguf_save_info	 info;
	struct gguf_err		 err;
	struct snap		 s;
	const char		*target = path != NULL ? path : own;
	uint8_t			*before = NULL, *after;
	size_t			 nb = 0, na;
	int			 rc;

	if (snap_take(d, &s) != 0) {
		snap_free(&s);
		return d;
	}
	if (access(target, F_OK) == 0)
		before = slurp(target, &nb);
	memset(&o, 0, sizeof o);
	o.path = path;
	o.reserve = -1;
	rc = gguf_doc_save(d, &o, &info, &err);
	if (rc == 1)
		fuzz_fail("saved, but the document does not reopen: %s",
		    err.msg);
	if (rc == 0)
		snap_check(&s, target);
	else if (before != NULL) {
		after = slurp(target, &na);
		if (na != nb || memcmp(before, after, nb) != 0)
			fuzz_fail("a failed save (%s) changed its target",
			    err.msg);
		free(after);
	} else if (access(target, F_OK) == 0)
		fuzz_fail("a failed save (%s) created its target", err.msg);
	check_leftovers();
	free(before);
	snap_free(&s);
	return d;
}

/* ---------------------------------------------------------------- edits */

static uint64_t
pick(struct prog *g, uint64_t n)
{
	return n == 0 ? 0 : num(g, 2) % n;
}

/* A value of type t (element type at for arrays) from the program. */
static struct gguf_value *
make_value(struct prog *g, uint32_t t, uint32_t at)
{
	struct gguf_vbuild	 b;
	const char		*s;
	size_t			 len;
	uint64_t		 i, n;

	gguf_vb_init(&b, t, at);
	if (t == GGUF_VT_STR) {
		s = bytes(g, 80, &len);
		gguf_vb_str(&b, s, len);
	} else if (t == GGUF_VT_ARR) {
		n = byte(g) % 8;
		for (i = 0; i < n; i++) {
			if (at == GGUF_VT_STR) {
				s = bytes(g, 16, &len);
				gguf_vb_str(&b, s, len);
			} else
				gguf_vb_bits(&b, at == GGUF_VT_BOOL ?
				    byte(g) & 1 : num(g, 8));
		}
	} else
		gguf_vb_bits(&b, t == GGUF_VT_BOOL ? byte(g) % 3 : num(g, 8));
	return gguf_vb_finish(&b);
}

static void
op_set(struct gguf_doc *d, struct prog *g, int add)
{
	struct gguf_doc_kv	 kv;
	struct gguf_value	*v;
	struct gguf_err		 err;
	const char		*key;
	size_t			 klen;
	uint32_t		 t, at;
	int			 warn;

	if (add) {
		key = bytes(g, 24, &klen);
		t = byte(g) % GGUF_VT_COUNT;
		at = byte(g) % GGUF_VT_COUNT;
	} else {
		if (gguf_doc_kv(d, pick(g, gguf_doc_n_kv(d)), &kv) != 0)
			return;
		key = kv.key.p;
		klen = kv.key.n;
		t = kv.val->type;
		at = kv.val->atype;
	}
	if (t == GGUF_VT_ARR && at == GGUF_VT_ARR)
		at = GGUF_VT_U8;
	if ((v = make_value(g, t, at)) == NULL)
		return;
	gguf_doc_set(d, key, klen, v, add ? GGUF_SET_ADD | GGUF_SET_RETYPE : 0,
	    &warn, &err);
	gguf_value_unref(v);
}

static void
op_splice(struct gguf_doc *d, struct prog *g)
{
	struct gguf_doc_kv	 kv;
	struct gguf_value	*v = NULL;
	struct gguf_err		 err;
	uint64_t		 at, ndel;

	if (gguf_doc_kv(d, pick(g, gguf_doc_n_kv(d)), &kv) != 0 ||
	    kv.val->type != GGUF_VT_ARR)
		return;
	at = num(g, 2) % (kv.val->count + 2);
	ndel = byte(g) % 4;
	if (byte(g) & 1)
		v = make_value(g, GGUF_VT_ARR, kv.val->atype);
	gguf_doc_splice(d, kv.key.p, kv.key.n, at, ndel, v, &err);
	gguf_value_unref(v);
}

static void
op_key(struct gguf_doc *d, struct prog *g, int rename)
{
	struct gguf_doc_kv	 kv;
	struct gguf_err		 err;
	const char		*nk;
	size_t			 nlen;
	int			 warn;

	if (gguf_doc_kv(d, pick(g, gguf_doc_n_kv(d)), &kv) != 0)
		return;
	if (!rename) {
		gguf_doc_remove(d, kv.key.p, kv.key.n, &err);
		return;
	}
	nk = bytes(g, 24, &nlen);
	gguf_doc_rename(d, kv.key.p, kv.key.n, nk, nlen, pick(g, 2) ?
	    GGUF_SET_FORCE : 0, &warn, &err);
}

static void
op_tensor(struct gguf_doc *d, struct prog *g, int rename)
{
	struct gguf_doc_tensor	 dt;
	struct gguf_err		 err;
	const char		*nn;
	size_t			 nlen;

	if (gguf_doc_tensor(d, pick(g, gguf_doc_n_tensors(d)), &dt) != 0)
		return;
	if (!rename) {
		gguf_doc_tensor_remove(d, dt.name.p, dt.name.n, &err);
		return;
	}
	nn = bytes(g, 70, &nlen);
	gguf_doc_tensor_rename(d, dt.name.p, dt.name.n, nn, nlen, &err);
}

static void
op_lang(struct gguf_doc *d, struct prog *g)
{
	char		 line[256], msg[512];
	const char	*s;
	size_t		 len;

	s = bytes(g, sizeof line - 1, &len);
	memcpy(line, s, len);
	line[len] = '\0';
	lang_exec(d, line, msg, sizeof msg);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gguf_doc	*d;
	struct gguf_err	 err;
	struct prog	 g;
	char		 own[512], out[512];
	size_t		 plen;
	unsigned	 steps = 0;

	if (size < 1)
		return 0;
	plen = data[0];
	if (plen > size - 1)
		plen = size - 1;
	g.p = data + 1;
	g.n = plen;
	fuzz_path(own, sizeof own, "edit.gguf");
	fuzz_path(out, sizeof out, "out.gguf");
	unlink(out);
	fuzz_write_file(own, data + 1 + plen, size - 1 - plen);
	if ((d = gguf_doc_open(own, &err)) == NULL)
		return 0;
	while (g.n > 0 && steps++ < 64 && d != NULL) {
		switch (byte(&g) % 12) {
		case 0:
			op_set(d, &g, 0);
			break;
		case 1:
			op_set(d, &g, 1);
			break;
		case 2:
			op_key(d, &g, 0);
			break;
		case 3:
			op_key(d, &g, 1);
			break;
		case 4:
			op_splice(d, &g);
			break;
		case 5:
			op_tensor(d, &g, 1);
			break;
		case 6:
			op_tensor(d, &g, 0);
			break;
		case 7:
			gguf_doc_undo(d, NULL);
			break;
		case 8:
			gguf_doc_redo(d, NULL);
			break;
		case 9:
		case 10:
			op_lang(d, &g);
			break;
		default:
			d = save(d, own, NULL);
			break;
		}
		if (d != NULL)
			(void)gguf_model_check_new(d, NULL, NULL);
	}
	if (d != NULL) {
		save(d, own, out);
		gguf_doc_free(d);
	}
	unlink(out);
	return 0;
}
