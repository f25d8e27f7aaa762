/*
 * doc.c - the copy-on-write document: entries, lookup, edits, undo and
 * redo, and the diff against the source.
 *
 * Every KV pair and tensor of the source is an entry whose state is a few
 * words: an owned key or name (NULL: the source's), an owned value (NULL:
 * the source's), a removed flag and, for a tensor, whether its data is
 * converted to float32 on save. Keys added by edits are entries after
 * the source's, with both members owned. Owned names and values are
 * immutable and reference counted, so a state is copied by taking
 * references, never bytes.
 *
 * An edit is one undo record: the list of entries it touched with their
 * state before and after, and the length of the KV list before and after
 * (an added key is an entry past the old end). Undo puts the "before"
 * states back in reverse order, redo the "after" states. A new edit after
 * some undos drops the records that could have been redone. Nothing is
 * ever edited in place, so a record holds the exact old state at no cost
 * beyond its references.
 *
 * Lookup by key or name goes through a hash index of the live entries,
 * rebuilt on the next lookup after an edit that could change it.
 *
 * An array element edit splices bytes: the elements before and after the
 * edit are copied as they are encoded (the position of element i of a
 * string array comes from the value's checkpoint index), so changing one
 * token of a 150,000-token vocabulary decodes one token.
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dequant.h"
#include "docint.h"
#include "io.h"
#include "set.h"
#include "suggest.h"

/* ----------------------------------------------------------------- states */

static struct gguf_name *
name_new(const char *p, size_t n)
{
	struct gguf_name	*nm = xmalloc(sizeof *nm + n + 1);

	nm->refs = 1;
	nm->n = n;
	if (n > 0)		/* an empty view may have no pointer */
		memcpy(nm->p, p, n);
	nm->p[n] = '\0';
	return nm;
}

static void
name_unref(struct gguf_name *nm)
{
	if (nm != NULL && --nm->refs == 0)
		free(nm);
}

static struct dstate
st_copy(const struct dstate *s)
{
	struct dstate	c = *s;

	if (c.name != NULL)
		c.name->refs++;
	gguf_value_ref(c.val);
	return c;
}

static void
st_drop(struct dstate *s)
{
	name_unref(s->name);
	gguf_value_unref(s->val);
	memset(s, 0, sizeof *s);
}

/* ------------------------------------------------------------ open, free */

static void
doc_clear(struct gguf_doc *d)
{
	uint64_t	i;
	size_t		r, k;

	for (r = 0; r < d->n_rec; r++) {
		for (k = 0; k < d->rec[r].n; k++) {
			st_drop(&d->rec[r].ch[k].before);
			st_drop(&d->rec[r].ch[k].after);
		}
		free(d->rec[r].ch);
		free(d->rec[r].label);
	}
	free(d->rec);
	for (i = 0; i < d->n_kv; i++)
		st_drop(&d->kv[i]);
	for (i = 0; i < d->n_ten; i++)
		st_drop(&d->ten[i]);
	free(d->kv);
	free(d->ten);
	gguf_nameix_free(&d->kvix.ix);
	gguf_nameix_free(&d->tix.ix);
	gguf_close(d->f);
	if (d->fd >= 0)
		close(d->fd);
	free(d->path);
	free(d->real);
	memset(d, 0, sizeof *d);
	d->fd = -1;
}

static int
doc_load(struct gguf_doc *d, const char *path, struct gguf_err *err)
{
	struct stat	st;
	char		*real;
	size_t		 plen;
	unsigned	 no, count;

	d->fd = -1;
	real = gguf_realpath(path);
	if (real == NULL)
		return gguf_errf(err, -1, "%s", strerror(errno));
	d->path = xstrdup(path);
	d->real = real;
	if ((d->fd = gguf_open_regular(d->real, O_RDONLY, err)) < 0)
		return -1;
	if (fstat(d->fd, &st) != 0)
		return gguf_errf(err, -1, "%s", strerror(errno));
	d->dev = st.st_dev;
	d->ino = st.st_ino;
	d->size = (uint64_t)st.st_size;
	d->mtime = st.st_mtim;
	if (d->set && gguf_set_name(d->path, &plen, &no, &count) == 0)
		d->f = gguf_set_open(d->path, d->set_flags, err);
	else
		d->f = gguf_open_fd(d->fd, d->path, err);
	if (d->f == NULL)
		return -1;
	d->be = gguf_layout(d->f)->be;
	d->n_src_kv = d->n_kv = d->cap_kv = gguf_layout(d->f)->n_kv;
	d->kv = xcalloc((size_t)d->cap_kv, sizeof *d->kv);
	d->n_ten = gguf_layout(d->f)->n_tensors;
	d->ten = xcalloc((size_t)d->n_ten, sizeof *d->ten);
	d->kvix.dirty = d->tix.dirty = 1;
	return 0;
}

struct gguf_doc *
gguf_doc_open(const char *path, struct gguf_err *err)
{
	return gguf_doc_open_set(path, GGUF_OPEN_ALONE, err);
}

struct gguf_doc *
gguf_doc_open_set(const char *path, unsigned flags, struct gguf_err *err)
{
	struct gguf_doc	*d = xcalloc(1, sizeof *d);

	d->set = !(flags & GGUF_OPEN_ALONE);
	d->set_flags = flags;
	if (doc_load(d, path, err) != 0) {
		doc_clear(d);
		free(d);
		return NULL;
	}
	return d;
}

/* Used by save.c after a save over the document's own file. */
int	gguf_doc_reload(struct gguf_doc *d, struct gguf_err *err);

int
gguf_doc_reload(struct gguf_doc *d, struct gguf_err *err)
{
	char		*path = xstrdup(d->path);
	int		 rc, set = d->set;
	unsigned	 flags = d->set_flags;

	doc_clear(d);
	d->set = set;
	d->set_flags = flags;
	rc = doc_load(d, path, err);
	free(path);
	return rc;
}

void
gguf_doc_free(struct gguf_doc *d)
{
	if (d == NULL)
		return;
	doc_clear(d);
	free(d);
}

struct gguf_file *
gguf_doc_file(struct gguf_doc *d)
{
	return d->f;
}

const char *
gguf_doc_path(const struct gguf_doc *d)
{
	return d->path;
}

int
gguf_doc_be(const struct gguf_doc *d)
{
	return d->be;
}

/* ------------------------------------------------------------- accessors */

struct gguf_str
gguf_doc_kv_key(struct gguf_doc *d, uint64_t i)
{
	struct gguf_str	s;

	if (d->kv[i].name != NULL) {
		s.p = d->kv[i].name->p;
		s.n = d->kv[i].name->n;
		return s;
	}
	return gguf_kv_at(d->f, i)->key;
}

struct gguf_val *
gguf_doc_kv_val(struct gguf_doc *d, uint64_t i)
{
	if (d->kv[i].val != NULL)
		return &d->kv[i].val->val;
	return &gguf_kv_at(d->f, i)->val;
}

struct gguf_str
gguf_doc_tensor_name(struct gguf_doc *d, uint64_t i)
{
	struct gguf_str	s;

	if (d->ten[i].name != NULL) {
		s.p = d->ten[i].name->p;
		s.n = d->ten[i].name->n;
		return s;
	}
	return gguf_tensor_at(d->f, i)->name;
}

static int
str_eq(struct gguf_str a, struct gguf_str b)
{
	return a.n == b.n && (a.n == 0 || memcmp(a.p, b.p, (size_t)a.n) == 0);
}

/* Same type, element type and payload bytes. */
static int
val_same(const struct gguf_val *a, const struct gguf_val *b)
{
	return a->type == b->type && a->atype == b->atype && a->lw == b->lw &&
	    a->n == b->n && memcmp(a->p, b->p, (size_t)a->n) == 0;
}

static unsigned
kv_flags(struct gguf_doc *d, uint64_t i)
{
	unsigned	fl = 0;

	if (i >= d->n_src_kv)
		return d->kv[i].removed ? GGUF_ED_ADDED | GGUF_ED_REMOVED :
		    GGUF_ED_ADDED;
	if (d->kv[i].removed)
		fl |= GGUF_ED_REMOVED;
	if (d->kv[i].name != NULL &&
	    !str_eq(gguf_doc_kv_key(d, i), gguf_kv_at(d->f, i)->key))
		fl |= GGUF_ED_RENAMED;
	if (d->kv[i].val != NULL &&
	    !val_same(&d->kv[i].val->val, &gguf_kv_at(d->f, i)->val))
		fl |= GGUF_ED_VALUE;
	return fl;
}

static unsigned
tensor_flags(struct gguf_doc *d, uint64_t i)
{
	unsigned	fl = 0;

	if (d->ten[i].removed)
		fl |= GGUF_ED_REMOVED;
	if (d->ten[i].name != NULL && !str_eq(gguf_doc_tensor_name(d, i),
	    gguf_tensor_at(d->f, i)->name))
		fl |= GGUF_ED_RENAMED;
	if (d->ten[i].f32)
		fl |= GGUF_ED_VALUE;
	return fl;
}

uint32_t
gguf_doc_tensor_type(struct gguf_doc *d, uint64_t i)
{
	return d->ten[i].f32 ? GGUF_T_F32 : gguf_tensor_at(d->f, i)->type;
}

uint64_t
gguf_doc_tensor_nbytes(struct gguf_doc *d, uint64_t i)
{
	const struct gguf_tensor	*t = gguf_tensor_at(d->f, i);

	/* A conversion is refused when this would overflow. */
	return d->ten[i].f32 ? t->nelem * 4 : t->nbytes;
}

uint64_t
gguf_doc_n_kv(const struct gguf_doc *d)
{
	return d->n_kv;
}

uint64_t
gguf_doc_n_tensors(const struct gguf_doc *d)
{
	return d->n_ten;
}

int
gguf_doc_kv(struct gguf_doc *d, uint64_t i, struct gguf_doc_kv *out)
{
	if (i >= d->n_kv)
		return -1;
	memset(out, 0, sizeof *out);
	out->key = gguf_doc_kv_key(d, i);
	out->val = gguf_doc_kv_val(d, i);
	out->flags = kv_flags(d, i);
	out->src = i < d->n_src_kv ? (int64_t)i : -1;
	if (i < d->n_src_kv) {
		out->src_key = gguf_kv_at(d->f, i)->key;
		out->src_val = &gguf_kv_at(d->f, i)->val;
	}
	return 0;
}

int
gguf_doc_tensor(struct gguf_doc *d, uint64_t i, struct gguf_doc_tensor *out)
{
	if (i >= d->n_ten)
		return -1;
	out->name = gguf_doc_tensor_name(d, i);
	out->t = gguf_tensor_at(d->f, i);
	out->flags = tensor_flags(d, i);
	out->type = gguf_doc_tensor_type(d, i);
	out->nbytes = gguf_doc_tensor_nbytes(d, i);
	return 0;
}

/* ------------------------------------------------------------------ index */

static struct gguf_str
kv_key_of(void *d, uint64_t i)
{
	return gguf_doc_kv_key(d, i);
}

static struct gguf_str
tensor_name_of(void *d, uint64_t i)
{
	return gguf_doc_tensor_name(d, i);
}

/* The live entries of the index; the first of a name is the one found. */
static int64_t
index_find(struct gguf_doc *d, struct nindex *ix, const struct dstate *ent,
    uint64_t n, gguf_name_fn name, const char *p, size_t len)
{
	uint64_t	i;

	if (ix->dirty) {
		gguf_nameix_free(&ix->ix);
		gguf_nameix_init(&ix->ix, name, d, n);
		for (i = 0; i < n; i++) {
			if (!ent[i].removed)
				gguf_nameix_add(&ix->ix, i);
		}
		ix->dirty = 0;
	}
	return gguf_nameix_find(&ix->ix, p, len);
}

int64_t
gguf_doc_kv_find(struct gguf_doc *d, const char *key, size_t len)
{
	return index_find(d, &d->kvix, d->kv, d->n_kv, kv_key_of, key,
	    len);
}

int64_t
gguf_doc_tensor_find(struct gguf_doc *d, const char *name, size_t len)
{
	return index_find(d, &d->tix, d->ten, d->n_ten, tensor_name_of,
	    name, len);
}

void
gguf_doc_suggest(struct gguf_doc *d, int tensors, struct gguf_suggest *sg)
{
	/* A lookup builds the index of the live entries if it is stale. */
	if (tensors) {
		gguf_doc_tensor_find(d, "", 0);
		gguf_suggest_index(sg, &d->tix.ix);
	} else {
		gguf_doc_kv_find(d, "", 0);
		gguf_suggest_index(sg, &d->kvix.ix);
	}
}

struct gguf_val *
gguf_doc_get(struct gguf_doc *d, const char *key, size_t len)
{
	int64_t	i = gguf_doc_kv_find(d, key, len);

	return i < 0 ? NULL : gguf_doc_kv_val(d, (uint64_t)i);
}

uint64_t
gguf_doc_live_kv(struct gguf_doc *d)
{
	uint64_t	i, n = 0;

	for (i = 0; i < d->n_kv; i++)
		n += !d->kv[i].removed;
	return n;
}

uint64_t
gguf_doc_live_tensors(struct gguf_doc *d)
{
	uint64_t	i, n = 0;

	for (i = 0; i < d->n_ten; i++)
		n += !d->ten[i].removed;
	return n;
}

uint32_t
gguf_doc_alignment(struct gguf_doc *d)
{
	struct gguf_val	*v = gguf_doc_get(d, "general.alignment", 17);

	if (v == NULL || v->type != GGUF_VT_U32)
		return GGUF_DEFAULT_ALIGNMENT;
	return (uint32_t)gguf_val_bits(v);
}

/* ---------------------------------------------------------- undo records */

const char *
gguf_pname_str(struct gguf_str s, char *buf, size_t len)
{
	return gguf_pname(s.p, (size_t)s.n, buf, len);
}

static void
drop_redo(struct gguf_doc *d)
{
	size_t	r, k;

	for (r = d->pos; r < d->n_rec; r++) {
		for (k = 0; k < d->rec[r].n; k++) {
			st_drop(&d->rec[r].ch[k].before);
			st_drop(&d->rec[r].ch[k].after);
		}
		free(d->rec[r].ch);
		free(d->rec[r].label);
	}
	d->n_rec = d->pos;
}

/* Starts a record; changes are added with rec_change, then rec_commit. */
static struct urec *
rec_begin(struct gguf_doc *d, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static struct urec *
rec_begin(struct gguf_doc *d, const char *fmt, ...)
{
	struct urec	*r;
	va_list		 ap;
	char		 buf[256];

	drop_redo(d);
	if (d->n_rec == d->cap_rec) {
		d->cap_rec = d->cap_rec == 0 ? 16 : d->cap_rec * 2;
		d->rec = xreallocarray(d->rec, d->cap_rec, sizeof *d->rec);
	}
	r = &d->rec[d->n_rec];
	memset(r, 0, sizeof *r);
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	r->label = xstrdup(buf);
	r->nkv_before = r->nkv_after = d->n_kv;
	return r;
}

/* Applies new state s (references taken by the entry) to entry idx. */
static void
rec_change(struct gguf_doc *d, struct urec *r, int what, uint64_t idx,
    struct dstate s)
{
	struct dstate	*ent = what == GGUF_CH_KV ? &d->kv[idx] : &d->ten[idx];
	struct uchange	*c;

	r->ch = xreallocarray(r->ch, r->n + 1, sizeof *r->ch);
	c = &r->ch[r->n++];
	c->what = what;
	c->idx = idx;
	c->before = *ent;		/* the record takes the entry's refs */
	c->after = st_copy(&s);
	*ent = s;			/* and the entry the caller's */
	if (what == GGUF_CH_KV)
		d->kvix.dirty = 1;
	else
		d->tix.dirty = 1;
}

/* Appends a KV entry (its state is the caller's references). */
static uint64_t
kv_append(struct gguf_doc *d, struct urec *r, struct dstate s)
{
	uint64_t	idx = d->n_kv;

	if (d->n_kv == d->cap_kv) {
		d->cap_kv = d->cap_kv < 16 ? 16 : d->cap_kv * 2;
		d->kv = xreallocarray(d->kv, (size_t)d->cap_kv, sizeof *d->kv);
	}
	memset(&d->kv[idx], 0, sizeof d->kv[idx]);
	d->n_kv++;
	r->nkv_after = d->n_kv;
	rec_change(d, r, GGUF_CH_KV, idx, s);
	return idx;
}

static void
rec_commit(struct gguf_doc *d)
{
	d->n_rec++;
	d->pos = d->n_rec;
}

int
gguf_doc_can_undo(const struct gguf_doc *d)
{
	return d->pos > 0;
}

int
gguf_doc_can_redo(const struct gguf_doc *d)
{
	return d->pos < d->n_rec;
}

static void
set_state(struct gguf_doc *d, const struct uchange *c, const struct dstate *s)
{
	struct dstate	*ent = c->what == GGUF_CH_KV ? &d->kv[c->idx] :
			    &d->ten[c->idx];

	st_drop(ent);
	*ent = st_copy(s);
}

static void
set_nkv(struct gguf_doc *d, uint64_t n)
{
	while (d->n_kv > n)
		st_drop(&d->kv[--d->n_kv]);
	while (d->n_kv < n)
		memset(&d->kv[d->n_kv++], 0, sizeof d->kv[0]);
}

int
gguf_doc_undo(struct gguf_doc *d, const char **label)
{
	struct urec	*r;
	size_t		 k;

	if (d->pos == 0)
		return -1;
	r = &d->rec[--d->pos];
	for (k = r->n; k-- > 0;)
		set_state(d, &r->ch[k], &r->ch[k].before);
	set_nkv(d, r->nkv_before);
	d->kvix.dirty = d->tix.dirty = 1;
	if (label != NULL)
		*label = r->label;
	return 0;
}

int
gguf_doc_redo(struct gguf_doc *d, const char **label)
{
	struct urec	*r;
	size_t		 k;

	if (d->pos == d->n_rec)
		return -1;
	r = &d->rec[d->pos++];
	set_nkv(d, r->nkv_after);
	for (k = 0; k < r->n; k++)
		set_state(d, &r->ch[k], &r->ch[k].after);
	d->kvix.dirty = d->tix.dirty = 1;
	if (label != NULL)
		*label = r->label;
	return 0;
}

/* ------------------------------------------------------------------ checks */

static int
check_key(const char *key, size_t n, int *warn, struct gguf_err *err)
{
	char	buf[256];

	if (n == 0)
		return gguf_errf(err, -1, "a key cannot be empty");
	if (n > GGUF_MAX_KEY)
		return gguf_errf(err, -1, "a key is at most %d bytes (this one "
		    "has %zu)", GGUF_MAX_KEY, n);
	if (memchr(key, '\0', n) != NULL)
		return gguf_errf(err, -1, "a key cannot hold a NUL byte (ggml "
		    "compares keys as C strings: it would read as \"%s\")",
		    gguf_pname(key, strlen(key), buf, sizeof buf));
	if (warn != NULL)
		*warn = !gguf_key_is_canonical(key, n);
	return 0;
}

static int
check_name(const char *name, size_t n, struct gguf_err *err)
{
	char	buf[256];

	if (n == 0)
		return gguf_errf(err, -1, "a tensor name cannot be empty");
	if (n > GGUF_MAX_NAME)
		return gguf_errf(err, -1, "tensor name \"%s\" is %zu bytes: "
		    "ggml loads at most %d", gguf_pname(name, n, buf, sizeof buf),
		    n, GGUF_MAX_NAME);
	return 0;
}

/* Rules for a value about to be stored under key. */
static int
check_value(const char *key, size_t klen, struct gguf_val *v,
    struct gguf_err *err)
{
	uint64_t	a, i;
	struct gguf_val	e;

	if (v->type == GGUF_VT_ARR && v->atype == GGUF_VT_ARR)
		return gguf_errf(err, -1, "nested arrays are not supported "
		    "(ggml refuses them)");
	if (v->type == GGUF_VT_BOOL && gguf_val_bits(v) > 1)
		return gguf_errf(err, -1, "a bool is 0 or 1");
	if (v->type == GGUF_VT_ARR && v->atype == GGUF_VT_BOOL) {
		for (i = 0; i < v->count; i++) {
			if (gguf_arr_get(v, i, &e, err) != 0)
				return -1;
			if (gguf_val_bits(&e) > 1)
				return gguf_errf(err, -1, "element %llu: a "
				    "bool is 0 or 1", (unsigned long long)i);
		}
	}
	if (klen == 17 && memcmp(key, "general.alignment", 17) == 0) {
		if (v->type != GGUF_VT_U32)
			return gguf_errf(err, -1, "general.alignment must be "
			    "u32, not %s", gguf_vtype_name(v->type));
		a = gguf_val_bits(v);
		if (a == 0 || (a & (a - 1)) != 0)
			return gguf_errf(err, -1, "general.alignment must be a "
			    "power of two (not %llu)", (unsigned long long)a);
		if (a > GGUF_MAX_ALIGNMENT)
			return gguf_errf(err, -1, "general.alignment %llu is "
			    "larger than the %u limit", (unsigned long long)a,
			    GGUF_MAX_ALIGNMENT);
	}
	return 0;
}

/* v in the document's byte order (a new reference). */
static struct gguf_value *
doc_order(struct gguf_doc *d, struct gguf_value *v, struct gguf_err *err)
{
	if ((v->val.be != 0) == (d->be != 0))
		return gguf_value_ref(v);
	return gguf_value_encode(&v->val, d->be, err);
}

static int64_t
find_kv(struct gguf_doc *d, const char *key, size_t klen, struct gguf_err *err)
{
	int64_t	i = gguf_doc_kv_find(d, key, klen);
	char	buf[256];

	if (i < 0)
		gguf_errf(err, -1, "no key \"%s\"", gguf_pname(key, klen, buf,
		    sizeof buf));
	return i;
}

static int64_t
find_tensor(struct gguf_doc *d, const char *name, size_t nlen,
    struct gguf_err *err)
{
	int64_t	i = gguf_doc_tensor_find(d, name, nlen);
	char	buf[256];

	if (i < 0)
		gguf_errf(err, -1, "no tensor \"%s\"", gguf_pname(name, nlen, buf,
		    sizeof buf));
	return i;
}

/* ------------------------------------------------------------------- edits */

int
gguf_doc_set(struct gguf_doc *d, const char *key, size_t klen,
    struct gguf_value *v, unsigned flags, int *warn, struct gguf_err *err)
{
	struct gguf_value	*dv;
	struct gguf_val		*cur;
	struct urec		*r;
	struct dstate		 s;
	int64_t			 i;
	char			 buf[256], t1[32], t2[32];

	if (warn != NULL)
		*warn = 0;
	if (check_key(key, klen, warn, err) != 0 ||
	    check_value(key, klen, &v->val, err) != 0)
		return -1;
	if (!(flags & GGUF_SET_FORCE) &&
	    gguf_doc_check_loadable(d, key, klen, &v->val, err) != 0)
		return GGUF_REFUSED;
	i = gguf_doc_kv_find(d, key, klen);
	if (i < 0 && !(flags & GGUF_SET_ADD))
		return gguf_errf(err, -1, "no key \"%s\" (to add it, give its "
		    "type: KEY:TYPE)", gguf_pname(key, klen, buf, sizeof buf));
	if (i >= 0 && !(flags & GGUF_SET_RETYPE)) {
		cur = gguf_doc_kv_val(d, (uint64_t)i);
		if (cur->type != v->val.type || (cur->type == GGUF_VT_ARR &&
		    cur->atype != v->val.atype))
			return gguf_errf(err, -1, "\"%s\" is %s, not %s (to "
			    "change its type: KEY:TYPE)", gguf_pname(key, klen, buf,
			    sizeof buf), gguf_vtype_text(cur->type, cur->atype,
			    t1, sizeof t1), gguf_vtype_text(v->val.type,
			    v->val.atype, t2, sizeof t2));
	}
	if ((dv = doc_order(d, v, err)) == NULL)
		return -1;
	r = rec_begin(d, "set %s", gguf_pname(key, klen, buf, sizeof buf));
	if (i >= 0) {
		s = st_copy(&d->kv[i]);
		gguf_value_unref(s.val);
		s.val = dv;
		rec_change(d, r, GGUF_CH_KV, (uint64_t)i, s);
	} else {
		memset(&s, 0, sizeof s);
		s.name = name_new(key, klen);
		s.val = dv;
		kv_append(d, r, s);
	}
	rec_commit(d);
	return 0;
}

int
gguf_doc_remove(struct gguf_doc *d, const char *key, size_t klen,
    struct gguf_err *err)
{
	struct urec	*r;
	struct dstate	 s;
	int64_t		 i;
	char		 buf[256];

	if ((i = find_kv(d, key, klen, err)) < 0)
		return -1;
	r = rec_begin(d, "rm %s", gguf_pname(key, klen, buf, sizeof buf));
	s = st_copy(&d->kv[i]);
	s.removed = 1;
	rec_change(d, r, GGUF_CH_KV, (uint64_t)i, s);
	rec_commit(d);
	return 0;
}

int
gguf_doc_rename(struct gguf_doc *d, const char *key, size_t klen,
    const char *newkey, size_t nlen, unsigned flags, int *warn,
    struct gguf_err *err)
{
	struct urec	*r;
	struct dstate	 s;
	int64_t		 i;
	char		 b1[256], b2[256];

	if (warn != NULL)
		*warn = 0;
	if ((i = find_kv(d, key, klen, err)) < 0 ||
	    check_key(newkey, nlen, warn, err) != 0)
		return -1;
	if (nlen == klen && memcmp(key, newkey, klen) == 0)
		return 0;
	if (gguf_doc_kv_find(d, newkey, nlen) >= 0)
		return gguf_errf(err, -1, "key \"%s\" already exists",
		    gguf_pname(newkey, nlen, b1, sizeof b1));
	if (check_value(newkey, nlen, gguf_doc_kv_val(d, (uint64_t)i),
	    err) != 0)
		return -1;
	if (!(flags & GGUF_SET_FORCE) && gguf_doc_check_loadable(d, newkey,
	    nlen, gguf_doc_kv_val(d, (uint64_t)i), err) != 0)
		return GGUF_REFUSED;
	r = rec_begin(d, "mv %s %s", gguf_pname(key, klen, b1, sizeof b1),
	    gguf_pname(newkey, nlen, b2, sizeof b2));
	s = st_copy(&d->kv[i]);
	name_unref(s.name);
	s.name = name_new(newkey, nlen);
	rec_change(d, r, GGUF_CH_KV, (uint64_t)i, s);
	rec_commit(d);
	return 0;
}

/* Payload offset of element i of arr (i == count: the end). */
static int
elem_pos(struct gguf_val *arr, uint64_t i, uint64_t *pos, struct gguf_err *err)
{
	struct gguf_val	e;
	unsigned	esz = gguf_vtype_size(arr->atype);

	if (i == arr->count) {
		*pos = arr->n;
		return 0;
	}
	if (esz != 0) {
		*pos = 12 + i * esz;
		return 0;
	}
	if (gguf_arr_get(arr, i, &e, err) != 0)
		return -1;
	*pos = (uint64_t)(e.p - arr->p);
	return 0;
}

int
gguf_doc_splice(struct gguf_doc *d, const char *key, size_t klen,
    uint64_t at, uint64_t ndel, struct gguf_value *ins, struct gguf_err *err)
{
	struct gguf_value	*cv = NULL, *iv = NULL, *nv;
	struct gguf_val		*a;
	struct urec		*r;
	struct dstate		 s;
	struct gbuf		 b;
	uint64_t		 p0, p1, count, nins = 0;
	int64_t			 i;
	char			 buf[256], t1[32];

	if ((i = find_kv(d, key, klen, err)) < 0)
		return -1;
	a = gguf_doc_kv_val(d, (uint64_t)i);
	if (a->type != GGUF_VT_ARR)
		return gguf_errf(err, -1, "\"%s\" is %s, not an array",
		    gguf_pname(key, klen, buf, sizeof buf),
		    gguf_vtype_text(a->type, a->atype, t1, sizeof t1));
	if (a->atype == GGUF_VT_ARR)
		return gguf_errf(err, -1, "elements of nested arrays cannot "
		    "be edited");
	if (at > a->count || ndel > a->count - at)
		return gguf_errf(err, -1, "elements [%llu, %llu) are out of "
		    "range (the array has %llu)", (unsigned long long)at,
		    (unsigned long long)(at + ndel),
		    (unsigned long long)a->count);
	if (ins != NULL) {
		if (ins->val.type != GGUF_VT_ARR ||
		    ins->val.atype != a->atype)
			return gguf_errf(err, -1, "elements of \"%s\" are %s",
			    gguf_pname(key, klen, buf, sizeof buf),
			    gguf_vtype_name(a->atype));
		if (check_value(key, klen, &ins->val, err) != 0)
			return -1;
		if ((iv = doc_order(d, ins, err)) == NULL)
			return -1;
		nins = iv->val.count;
	}
	/* Old v1 widths: make a v3 copy to splice. */
	if (a->lw != 8) {
		if ((cv = gguf_value_encode(a, d->be, err)) == NULL)
			goto fail;
		a = &cv->val;
	}
	count = a->count - ndel + nins;
	if (elem_pos(a, at, &p0, err) != 0 ||
	    elem_pos(a, at + ndel, &p1, err) != 0)
		goto fail;
	memset(&b, 0, sizeof b);
	gbuf_u32(&b, a->atype, d->be);
	gbuf_u64(&b, count, d->be);
	gbuf_put(&b, a->p + 12, p0 - 12);
	if (iv != NULL)
		gbuf_put(&b, iv->val.p + 12, iv->val.n - 12);
	gbuf_put(&b, a->p + p1, a->n - p1);
	if ((nv = gguf_value_wrap(&b, GGUF_VT_ARR, d->be, err)) == NULL)
		goto fail;
	gguf_value_unref(cv);
	gguf_value_unref(iv);

	r = rec_begin(d, "edit %s[%llu]", gguf_pname(key, klen, buf, sizeof buf),
	    (unsigned long long)at);
	s = st_copy(&d->kv[i]);
	gguf_value_unref(s.val);
	s.val = nv;
	rec_change(d, r, GGUF_CH_KV, (uint64_t)i, s);
	rec_commit(d);
	return 0;
fail:
	gguf_value_unref(cv);
	gguf_value_unref(iv);
	return -1;
}

int
gguf_doc_tensor_rename(struct gguf_doc *d, const char *name, size_t nlen,
    const char *newname, size_t nnlen, struct gguf_err *err)
{
	struct urec	*r;
	struct dstate	 s;
	int64_t		 i;
	char		 b1[256], b2[256];

	if ((i = find_tensor(d, name, nlen, err)) < 0 ||
	    check_name(newname, nnlen, err) != 0)
		return -1;
	if (nlen == nnlen && memcmp(name, newname, nlen) == 0)
		return 0;
	if (gguf_doc_tensor_find(d, newname, nnlen) >= 0)
		return gguf_errf(err, -1, "tensor \"%s\" already exists",
		    gguf_pname(newname, nnlen, b1, sizeof b1));
	r = rec_begin(d, "rename %s %s", gguf_pname(name, nlen, b1, sizeof b1),
	    gguf_pname(newname, nnlen, b2, sizeof b2));
	s = st_copy(&d->ten[i]);
	name_unref(s.name);
	s.name = name_new(newname, nnlen);
	rec_change(d, r, GGUF_CH_TENSOR, (uint64_t)i, s);
	rec_commit(d);
	return 0;
}

int
gguf_doc_tensor_remove(struct gguf_doc *d, const char *name, size_t nlen,
    struct gguf_err *err)
{
	struct urec	*r;
	struct dstate	 s;
	int64_t		 i;
	char		 buf[256];

	if ((i = find_tensor(d, name, nlen, err)) < 0)
		return -1;
	r = rec_begin(d, "rm-tensor %s", gguf_pname(name, nlen, buf, sizeof buf));
	s = st_copy(&d->ten[i]);
	s.removed = 1;
	rec_change(d, r, GGUF_CH_TENSOR, (uint64_t)i, s);
	rec_commit(d);
	return 0;
}

int
gguf_doc_tensors_remove(struct gguf_doc *d, const uint64_t *idx, size_t n,
    struct gguf_err *err)
{
	struct urec	*r;
	struct dstate	 s;
	size_t		 k;

	for (k = 0; k < n; k++)
		if (idx[k] >= d->n_ten || d->ten[idx[k]].removed)
			return gguf_errf(err, -1, "tensor entry %llu is not a "
			    "live tensor", (unsigned long long)idx[k]);
	if (n == 0)
		return 0;
	r = rec_begin(d, "rm-tensor (%zu tensors)", n);
	r->ch = xreallocarray(r->ch, n, sizeof *r->ch);
	for (k = 0; k < n; k++) {
		s = st_copy(&d->ten[idx[k]]);
		s.removed = 1;
		rec_change(d, r, GGUF_CH_TENSOR, idx[k], s);
	}
	rec_commit(d);
	return 0;
}

int
gguf_doc_tensor_convert(struct gguf_doc *d, const char *name, size_t nlen,
    uint32_t type, struct gguf_err *err)
{
	const struct gguf_type_info	*ti;
	const struct gguf_tensor	*t;
	struct urec			*r;
	struct dstate			 s;
	int64_t				 i;
	uint64_t			 size;
	char				 buf[256], tb[24];

	if ((i = find_tensor(d, name, nlen, err)) < 0)
		return -1;
	gguf_pname(name, nlen, buf, sizeof buf);
	if (type != GGUF_T_F32)
		return gguf_errf(err, -1, "tensors convert to f32 only (not "
		    "%s): float32 holds every value of the other types "
		    "exactly", gguf_ttype_name(type, tb));
	t = gguf_tensor_at(d->f, (uint64_t)i);
	if (d->ten[i].f32)
		return gguf_errf(err, -1, "tensor \"%s\" is already converted "
		    "to F32", buf);
	ti = gguf_ttype(t->type);
	if (t->type == GGUF_T_F32)
		return gguf_errf(err, -1, "tensor \"%s\" is F32 already", buf);
	if (ti != NULL && (ti->flags & GGUF_TF_INT))
		return gguf_errf(err, -1, "tensor \"%s\" is %s: its values are "
		    "integers, not floats", buf, ti->name);
	if (ti != NULL && (ti->flags & GGUF_TF_FLOAT) && ti->bytes > 4)
		return gguf_errf(err, -1, "tensor \"%s\" is %s: float32 would "
		    "round some of its values", buf, ti->name);
	if (gguf_dequant_check(t->type, d->be, err) != 0)
		return -1;
	if (t->flags & GGUF_TENSOR_UNSIZED)
		return gguf_errf(err, -1, "tensor \"%s\" has no known size",
		    buf);
	if (t->flags & GGUF_TENSOR_UNREADABLE)
		return gguf_errf(err, -1, "tensor \"%s\": its data lies beyond "
		    "the end of the file", buf);
	if (gguf_mul_ok(t->nelem, 4, &size) != 0 || size > INT64_MAX)
		return gguf_errf(err, -1, "tensor \"%s\": %llu float32 values "
		    "are more than a file holds", buf,
		    (unsigned long long)t->nelem);
	r = rec_begin(d, "convert %s f32", buf);
	s = st_copy(&d->ten[i]);
	s.f32 = 1;
	rec_change(d, r, GGUF_CH_TENSOR, (uint64_t)i, s);
	rec_commit(d);
	return 0;
}

/* ------------------------------------------------------------ regex rename */

/* The first flaw of a plan, in the words of an edit refused. */
static int
plan_error(struct gguf_doc *d, const struct gguf_rename_plan *p,
    struct gguf_err *err)
{
	const struct gguf_rename	*r, *shared = NULL;
	struct gguf_str			 nm;
	uint64_t			 k;
	char				 b1[256], b2[256];
	int				 c;

	for (k = 0; k < p->n; k++) {
		r = &p->map[k];
		if (!(r->flaws & (GGUF_RN_EMPTY | GGUF_RN_LONG)))
			continue;
		nm = gguf_doc_tensor_name(d, r->idx);
		return gguf_errf(err, -1, "\"%s\" would become \"%s\": %s",
		    gguf_pname(nm.p, (size_t)nm.n, b1, sizeof b1),
		    gguf_pname(r->name, r->n, b2, sizeof b2),
		    r->n == 0 ? "an empty name" : "longer than 63 bytes "
		    "(ggml's limit)");
	}
	for (k = 0; k < p->n; k++) {
		r = &p->map[k];
		if (!(r->flaws & GGUF_RN_SHARED))
			continue;
		if (shared != NULL) {
			c = memcmp(r->name, shared->name, r->n < shared->n ?
			    r->n : shared->n);
			if (c > 0 || (c == 0 && r->n >= shared->n))
				continue;
		}
		shared = r;
	}
	if (shared != NULL)
		return gguf_errf(err, -1, "two tensors would be named \"%s\"",
		    gguf_pname(shared->name, shared->n, b1, sizeof b1));
	for (k = 0; k < p->n; k++) {
		r = &p->map[k];
		if (!(r->flaws & GGUF_RN_TAKEN))
			continue;
		nm = gguf_doc_tensor_name(d, r->idx);
		return gguf_errf(err, -1, "\"%s\" would become \"%s\", the "
		    "name of another tensor", gguf_pname(nm.p, (size_t)nm.n,
		    b1, sizeof b1), gguf_pname(r->name, r->n, b2, sizeof b2));
	}
	return 0;
}

int
gguf_doc_tensor_rename_re(struct gguf_doc *d, const char *pattern,
    const char *repl, int global, uint64_t *n, struct gguf_err *err)
{
	struct gguf_rename_plan	 p;
	struct urec		*r;
	struct dstate		 s;
	uint64_t		 k;

	*n = 0;
	if (gguf_doc_rename_plan(d, pattern, repl, global, &p, err) != 0)
		return -1;
	if (p.bad > 0) {
		plan_error(d, &p, err);
		gguf_rename_plan_free(&p);
		return -1;
	}
	if (p.n == 0) {
		gguf_rename_plan_free(&p);
		return 0;
	}
	r = rec_begin(d, "rename s/%s/%s/%s", pattern, repl, global ? "g" : "");
	for (k = 0; k < p.n; k++) {
		s = st_copy(&d->ten[p.map[k].idx]);
		name_unref(s.name);
		s.name = name_new(p.map[k].name, p.map[k].n);
		rec_change(d, r, GGUF_CH_TENSOR, p.map[k].idx, s);
	}
	rec_commit(d);
	*n = p.n;
	gguf_rename_plan_free(&p);
	return 0;
}

/* -------------------------------------------------------------------- diff */

size_t
gguf_doc_diff(struct gguf_doc *d, struct gguf_change **out)
{
	struct gguf_change	*ch = NULL, *c;
	size_t			 n = 0;
	uint64_t		 i;
	unsigned		 fl;

	*out = NULL;
	for (i = 0; i < d->n_kv; i++) {
		fl = kv_flags(d, i);
		if (fl == 0 || fl == (GGUF_ED_ADDED | GGUF_ED_REMOVED))
			continue;
		ch = xreallocarray(ch, n + 1, sizeof *ch);
		c = &ch[n++];
		memset(c, 0, sizeof *c);
		c->what = GGUF_CH_KV;
		c->flags = fl;
		c->index = i;
		c->new_name = gguf_doc_kv_key(d, i);
		c->new_val = gguf_doc_kv_val(d, i);
		if (i < d->n_src_kv) {
			c->old_name = gguf_kv_at(d->f, i)->key;
			c->old_val = &gguf_kv_at(d->f, i)->val;
		}
	}
	for (i = 0; i < d->n_ten; i++) {
		fl = tensor_flags(d, i);
		if (fl == 0)
			continue;
		ch = xreallocarray(ch, n + 1, sizeof *ch);
		c = &ch[n++];
		memset(c, 0, sizeof *c);
		c->what = GGUF_CH_TENSOR;
		c->flags = fl;
		c->index = i;
		c->old_name = gguf_tensor_at(d->f, i)->name;
		c->new_name = gguf_doc_tensor_name(d, i);
		c->old_type = gguf_tensor_at(d->f, i)->type;
		c->new_type = gguf_doc_tensor_type(d, i);
	}
	*out = ch;
	return n;
}

/* ------------------------------------------------------------ split sets */

int
gguf_doc_adopt_shard(struct gguf_doc *dk, struct gguf_doc *set, unsigned k,
    struct gguf_err *err)
{
	const struct gguf_file	*s = gguf_shard(set->f, k);
	uint64_t		 i, base = 0, n;

	if (s == NULL || gguf_layout(dk->f)->n_tensors !=
	    gguf_layout(s)->n_tensors || gguf_layout(dk->f)->n_kv !=
	    gguf_layout(s)->n_kv)
		return gguf_errf(err, -1, "the shard is not the file that was "
		    "opened");
	for (i = 0; i < set->n_ten; i++) {
		if (gguf_tensor_at(set->f, i)->shard == k)
			break;
		base++;
	}
	n = gguf_layout(dk->f)->n_tensors;
	if (base + n > set->n_ten)
		return gguf_errf(err, -1, "the shard is not the file that was "
		    "opened");
	for (i = 0; i < n; i++) {
		if (gguf_tensor_at(set->f, base + i)->shard != k)
			return gguf_errf(err, -1, "the shard is not the file "
			    "that was opened");
		st_drop(&dk->ten[i]);
		dk->ten[i] = st_copy(&set->ten[base + i]);
	}
	if (k == 0) {
		if (set->n_src_kv != dk->n_src_kv)
			return gguf_errf(err, -1, "the shard is not the file "
			    "that was opened");
		if (set->n_kv > dk->cap_kv) {
			dk->kv = xreallocarray(dk->kv, (size_t)set->n_kv,
			    sizeof *dk->kv);
			memset(dk->kv + dk->cap_kv, 0, (size_t)(set->n_kv -
			    dk->cap_kv) * sizeof *dk->kv);
			dk->cap_kv = set->n_kv;
		}
		for (i = 0; i < set->n_kv; i++) {
			if (i < dk->n_kv)
				st_drop(&dk->kv[i]);
			dk->kv[i] = st_copy(&set->kv[i]);
		}
		dk->n_kv = set->n_kv;
	}
	dk->kvix.dirty = dk->tix.dirty = 1;
	return 0;
}
