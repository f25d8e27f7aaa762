/*
 * reader.c - open a GGUF file and index it, trusting nothing.
 *
 * The file's bytes (file.c has them from a source) are walked once,
 * front to back: the header, every KV entry (key, type, and the byte
 * range of its value), every tensor info. Nothing is decoded beyond what
 * the walk needs to find where the next entry starts: array elements of
 * fixed size are skipped in one step, strings by their length fields.
 * Every count and length is checked against the bytes left before it is
 * followed, and every size is computed with overflow checks, so a hostile
 * file fails with the offset of its first lie.
 *
 * What the format allows but a careful reader should not take silently
 * (duplicate keys, misaligned or overlapping tensor data, tensors whose data
 * lies beyond the end of the file, names ggml refuses, ...) is kept as a
 * warning: the file still opens and browses, and the writer knows what to
 * normalise.
 *
 * Byte order: the magic is always the bytes "GGUF"; a version field whose
 * low 16 bits are zero when read little-endian is a big-endian file.
 */
#include "config.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileint.h"
#include "io.h"
#include "schema.h"


/* ---------------------------------------------------------------- warnings */

static int warnf(struct gguf_file *, int, uint64_t, const char *, ...)
    __attribute__((format(printf, 4, 5)));

static void
store_warning(struct gguf_file *f, int level, uint64_t off, const char *msg)
{
	f->warn = xreallocarray(f->warn, f->n_warn + 1, sizeof *f->warn);
	f->warn[f->n_warn].off = off;
	f->warn[f->n_warn].level = level;
	f->warn[f->n_warn].msg = xstrdup(msg);
	f->warn[f->n_warn].file = NULL;
	f->n_warn++;
	if (level == GGUF_W_ERROR)
		f->n_warn_errors++;
}

static int
drop_level(int level)
{
	return level >= GGUF_W_NOTE && level <= GGUF_W_ERROR ? level :
	    GGUF_W_ERROR;
}

/*
 * The finding after the kept ones that says how many were left out, at
 * the level of the worst of them, so that an error past the cap still
 * counts; kept up to date as findings are left out.
 */
static void
count_dropped(struct gguf_file *f, int level, size_t n)
{
	size_t	*d = f->n_dropped;

	if (n == 0)
		return;
	d[drop_level(level)] += n;
	snprintf(f->dropped_msg, sizeof f->dropped_msg, "(%zu more findings "
	    "not shown: %zu errors, %zu warnings, %zu notes)",
	    d[GGUF_W_ERROR] + d[GGUF_W_WARN] + d[GGUF_W_NOTE],
	    d[GGUF_W_ERROR], d[GGUF_W_WARN], d[GGUF_W_NOTE]);
	f->dropped.off = 0;
	f->dropped.level = d[GGUF_W_ERROR] > 0 ? GGUF_W_ERROR :
	    d[GGUF_W_WARN] > 0 ? GGUF_W_WARN : GGUF_W_NOTE;
	f->dropped.msg = f->dropped_msg;
	f->dropped.file = NULL;
}

/*
 * At the cap, an error takes the place of the last finding that is not
 * one (which is then counted as left out): the findings kept are the
 * errors first, and a cap never hides an error while it holds a lesser
 * finding. 0 if there is room now, -1 if not.
 */
static int
make_room(struct gguf_file *f, int level)
{
	size_t	i;

	if (f->n_warn < MAX_WARNINGS)
		return 0;
	if (level != GGUF_W_ERROR || f->n_warn_errors == f->n_warn)
		return -1;
	for (i = f->n_warn; i-- > 0; )
		if (f->warn[i].level != GGUF_W_ERROR)
			break;
	count_dropped(f, f->warn[i].level, 1);
	free(f->warn[i].msg);
	memmove(&f->warn[i], &f->warn[i + 1],
	    (f->n_warn - i - 1) * sizeof *f->warn);
	f->n_warn--;
	return 0;
}

/* A finding: 1 if kept (the last of f->warn), 0 if left out. */
static int
warnf(struct gguf_file *f, int level, uint64_t off, const char *fmt, ...)
{
	va_list	ap;
	char	buf[512];

	if (make_room(f, level) != 0) {
		count_dropped(f, level, 1);
		return 0;
	}
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	store_warning(f, level, off, buf);
	return 1;
}

static const char *
pname(const struct gguf_str *s, char *buf, size_t len)
{
	return gguf_pname(s->p, (size_t)s->n, buf, len);
}

/* ------------------------------------------------------------- name index */

static struct gguf_str
kv_name(void *ctx, uint64_t i)
{
	return ((struct gguf_file *)ctx)->kv[i].key;
}

static struct gguf_str
tensor_name(void *ctx, uint64_t i)
{
	const struct gguf_file	*f = ctx;

	return f->tp != NULL ? f->tp[i]->name : f->tensors[i].name;
}

/* ------------------------------------------------------------------ header */

static int
read_magic(struct gguf_cur *c, struct gguf_err *err)
{
	static const char	lfs[] = "version https://git-lfs";
	char			buf[64];
	struct gguf_str		s;

	if (c->size >= sizeof lfs - 1 && memcmp(c->base, lfs, sizeof lfs - 1) == 0)
		return gguf_errf(err, 0, "this is a Git LFS pointer, not the "
		    "model: fetch it with git lfs pull");
	if (c->size < 4) {
		if (c->size == 0)
			return gguf_errf(err, 0, "empty file");
		return gguf_errf(err, 0, "file ends inside the magic (%llu "
		    "bytes)", (unsigned long long)c->size);
	}
	if (memcmp(c->base, GGUF_MAGIC, 4) == 0) {
		c->pos = 4;
		return 0;
	}
	s.p = (const char *)c->base;
	s.n = 4;
	if (memcmp(c->base, "FUGG", 4) == 0)
		return gguf_errf(err, 0, "bad magic \"FUGG\": a pre-release "
		    "GGUF draft or a byte-swapped magic, not a GGUF file");
	return gguf_errf(err, 0, "not a GGUF file (magic \"%s\")",
	    pname(&s, buf, sizeof buf));
}

static int
read_header(struct gguf_file *f, struct gguf_cur *c, struct gguf_err *err)
{
	uint32_t	 v, n32;
	uint64_t	 min_kv, min_ti, need, t;

	if (read_magic(c, err) != 0)
		return -1;
	if (gguf_cur_u32(c, &v, "the version field", err) != 0)
		return -1;
	if (v != 0 && (v & 0xffff) == 0) {
		c->be = 1;
		v = gguf_ld32(c->base + 4, 1);
	}
	if (v == 0 || v > 3)
		return gguf_errf(err, 4, "unsupported GGUF version %u "
		    "(1, 2 and 3 are known)", (unsigned)v);
	f->lay.version = v;
	f->lay.be = c->be;
	c->lw = v == 1 ? 4 : 8;
	if (v == 1)
		warnf(f, GGUF_W_ERROR, 4,
		    "GGUF v1 file: ggml no longer reads it (saving "
		    "writes v3)");
	if (c->be)
		warnf(f, GGUF_W_ERROR, 4,
		    "big-endian file: readers on little-endian hosts "
		    "(ggml, llama.cpp) refuse it");

	if (v == 1) {
		if (gguf_cur_u32(c, &n32, "the tensor count", err) != 0)
			return -1;
		f->lay.n_tensors = n32;
		if (gguf_cur_u32(c, &n32, "the KV count", err) != 0)
			return -1;
		f->lay.n_kv = n32;
	} else {
		if (gguf_cur_u64(c, &f->lay.n_tensors, "the tensor count",
		    err) != 0 ||
		    gguf_cur_u64(c, &f->lay.n_kv, "the KV count", err) != 0)
			return -1;
	}
	f->lay.kv_off = c->pos;

	/*
	 * The smallest KV entry is a key length, a type and one byte; the
	 * smallest tensor info a name length, n_dims, type and offset.
	 */
	min_kv = c->lw + 4 + 1;
	min_ti = c->lw + 4 + 4 + 8;
	if (f->lay.n_kv > gguf_cur_left(c) / min_kv)
		return gguf_errf(err, (int64_t)(c->pos - c->lw), "KV count "
		    "%llu cannot fit in the %llu bytes left of the file's "
		    "%llu (a truncated or corrupt file)",
		    (unsigned long long)f->lay.n_kv,
		    (unsigned long long)gguf_cur_left(c),
		    (unsigned long long)(c->full != 0 ? c->full : c->size));
	if (f->lay.n_tensors > gguf_cur_left(c) / min_ti)
		return gguf_errf(err, (int64_t)(c->pos - 2 * c->lw), "tensor "
		    "count %llu cannot fit in the %llu bytes left of the "
		    "file's %llu (a truncated or corrupt file)",
		    (unsigned long long)f->lay.n_tensors,
		    (unsigned long long)gguf_cur_left(c),
		    (unsigned long long)(c->full != 0 ? c->full : c->size));
	if (f->lay.n_kv >= UINT32_MAX || f->lay.n_tensors >= UINT32_MAX)
		return gguf_errf(err, (int64_t)(c->pos - 2 * c->lw), "more "
		    "than 2^32 KV pairs or tensors");
	need = f->lay.n_kv * min_kv;
	t = f->lay.n_tensors * min_ti;
	if (gguf_add_ok(need, t, &need) != 0 || need > gguf_cur_left(c))
		return gguf_errf(err, (int64_t)(c->pos - 2 * c->lw),
		    "%llu tensor infos and %llu KV pairs cannot fit in the "
		    "%llu bytes left of the file's %llu (a truncated or "
		    "corrupt file)",
		    (unsigned long long)f->lay.n_tensors,
		    (unsigned long long)f->lay.n_kv,
		    (unsigned long long)gguf_cur_left(c),
		    (unsigned long long)(c->full != 0 ? c->full : c->size));
	return 0;
}

/* --------------------------------------------------------------------- KV */

int
gguf_key_is_canonical(const char *key, size_t len)
{
	size_t	i, seg = 0;

	if (len == 0)
		return 0;
	for (i = 0; i < len; i++) {
		char	ch = key[i];

		if (ch == '.') {
			if (seg == 0)
				return 0;
			seg = 0;
			continue;
		}
		if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
		    ch == '_'))
			return 0;
		seg++;
	}
	return seg != 0;
}

/*
 * The first size of an array of n entries of at least min bytes each in
 * the file: all of them at once where the bytes left can hold them and
 * they are not too many to allocate untouched (most). A count past that
 * grows as its entries prove to be there (a header claiming 2^40 tensors
 * costs what it holds, not what it claims).
 */
static uint64_t
first_cap(uint64_t n, const struct gguf_cur *c, uint64_t min, uint64_t most)
{
	uint64_t	fit = gguf_cur_left(c) / min + 1;

	if (n > fit)
		n = fit;
	if (n > most)
		n = most;
	return n > 0 ? n : 1;
}

static int
read_kvs(struct gguf_file *f, struct gguf_cur *c, struct gguf_err *err)
{
	struct gguf_kv	*kv;
	uint64_t	 i, cap = 0;
	int64_t		 first;
	uint32_t	 type;
	const char	*nul;
	char		 buf[256], buf2[256];

	for (i = 0; i < f->lay.n_kv; i++) {
		if (i == cap) {
			/* a key's length, a type, a byte of value */
			cap = cap == 0 ? first_cap(f->lay.n_kv, c, c->lw + 5,
			    (uint64_t)1 << 12) : cap * 2;
			if (cap > f->lay.n_kv)
				cap = f->lay.n_kv;
			f->kv = xreallocarray(f->kv, cap, sizeof *f->kv);
		}
		kv = &f->kv[i];
		memset(kv, 0, sizeof *kv);
		kv->off = c->pos;
		if (gguf_cur_str(c, &kv->key, "key", err) != 0)
			return -1;
		if (gguf_cur_u32(c, &type, "value type", err) != 0)
			return -1;
		if (type >= GGUF_VT_COUNT)
			return gguf_errf(err, (int64_t)c->pos - 4, "key \"%s\": "
			    "unknown value type %u",
			    pname(&kv->key, buf, sizeof buf), (unsigned)type);
		if (gguf_cur_value(c, type, 0, &kv->val, err) != 0) {
			/* Name the key the broken value belongs to. */
			if (err != NULL) {
				char	msg[sizeof err->msg + sizeof buf + 16];

				snprintf(msg, sizeof msg, "key \"%s\": %s",
				    pname(&kv->key, buf, sizeof buf), err->msg);
				memcpy(err->msg, msg, sizeof err->msg - 1);
				err->msg[sizeof err->msg - 1] = '\0';
			}
			return -1;
		}
		kv->end = c->pos;
		f->n_kv = i + 1;

		if (kv->key.n == 0)
			warnf(f, GGUF_W_ERROR, kv->off, "empty key");
		else if (kv->key.n > GGUF_MAX_KEY)
			warnf(f, GGUF_W_WARN, kv->off,
			    "key of %llu bytes is longer than "
			    "%d", (unsigned long long)kv->key.n, GGUF_MAX_KEY);
		else if ((nul = memchr(kv->key.p, '\0', kv->key.n)) != NULL)
			warnf(f, GGUF_W_ERROR, kv->off,
			    "key \"%s\" holds a NUL byte: ggml compares keys "
			    "as C strings, so it reads as \"%s\"",
			    pname(&kv->key, buf, sizeof buf),
			    gguf_pname(kv->key.p, (size_t)(nul - kv->key.p),
			    buf2, sizeof buf2));
		else if (!gguf_key_is_canonical(kv->key.p, kv->key.n))
			warnf(f, GGUF_W_NOTE, kv->off,
			    "key \"%s\" breaks the naming rules "
			    "(lower_snake_case segments separated by dots)",
			    pname(&kv->key, buf, sizeof buf));
		if (type == GGUF_VT_BOOL && kv->val.p[0] > 1)
			warnf(f, GGUF_W_WARN, kv->val.off,
			    "key \"%s\": bool value %u is "
			    "neither 0 nor 1", pname(&kv->key, buf, sizeof buf),
			    kv->val.p[0]);
	}

	/* Indexed only now that the entries are known to exist. */
	gguf_nameix_init(&f->kv_names, kv_name, f, f->n_kv);
	for (i = 0; i < f->n_kv; i++) {
		kv = &f->kv[i];
		if ((first = gguf_nameix_add(&f->kv_names, i)) >= 0)
			warnf(f, GGUF_W_ERROR, kv->off,
			    "duplicate key \"%s\" (first at "
			    "offset 0x%llx)", pname(&kv->key, buf, sizeof buf),
			    (unsigned long long)f->kv[first].off);
	}
	return 0;
}

/*
 * An importance matrix (llama-imatrix's GGUF form): general.type
 * "imatrix", or its own keys.
 */
static int
is_imatrix(struct gguf_file *f)
{
	struct gguf_val	*v = gguf_kv_get(f, "general.type");
	struct gguf_str	 s;

	if (v != NULL && gguf_val_str(v, &s) == 0 && s.n == 7 &&
	    memcmp(s.p, "imatrix", 7) == 0)
		return 1;
	return gguf_kv_find(f, "imatrix.chunk_count", 19) >= 0 ||
	    gguf_kv_find(f, "imatrix.datasets", 16) >= 0;
}

static int
check_keys(struct gguf_file *f, struct gguf_err *err)
{
	const struct gguf_key_spec	*spec;
	struct gguf_kv			*kv;
	struct gguf_val			*v;
	struct gguf_str			 arch = { NULL, 0 };
	uint64_t			 a, i;
	int				 strict;
	char				 buf[256], got[32];

	/* Every well-known key against the type readers expect of it. */
	v = gguf_kv_get(f, "general.architecture");
	if (v == NULL || gguf_val_str(v, &arch) != 0)
		arch.n = 0;
	for (i = 0; i < f->n_kv; i++) {
		kv = &f->kv[i];
		spec = gguf_schema_find(kv->key.p, kv->key.n, arch.p,
		    arch.n);
		if (spec == NULL ||
		    gguf_schema_type_ok(spec, kv->val.type, kv->val.atype))
			continue;
		gguf_vtype_text(kv->val.type, kv->val.atype, got, sizeof got);
		strict = gguf_schema_strict(spec);
		warnf(f, strict ? GGUF_W_ERROR : GGUF_W_WARN, kv->off,
		    "%s should be %s, not %s%s", pname(&kv->key, buf,
		    sizeof buf), spec->types, got, strict ? ": llama.cpp "
		    "refuses another type" : "");
	}
	/*
	 * Shards 2..N of a split model hold the split keys alone; an
	 * importance matrix has no architecture.
	 */
	v = gguf_kv_get(f, "split.no");
	if (gguf_kv_find(f, "general.architecture", 20) < 0 &&
	    (v == NULL || v->type != GGUF_VT_U16 || gguf_val_bits(v) == 0) &&
	    !is_imatrix(f))
		warnf(f, GGUF_W_WARN, f->lay.kv_off,
		    "no general.architecture key");

	f->lay.alignment = GGUF_DEFAULT_ALIGNMENT;
	v = gguf_kv_get(f, "general.alignment");
	if (v == NULL)
		return 0;
	if (v->type != GGUF_VT_U32)
		return gguf_errf(err, (int64_t)v->off, "general.alignment must "
		    "be u32, not %s", gguf_vtype_name(v->type));
	a = gguf_val_bits(v);
	if (a == 0 || (a & (a - 1)) != 0)
		return gguf_errf(err, (int64_t)v->off, "general.alignment %llu "
		    "is not a power of two", (unsigned long long)a);
	if (a > GGUF_MAX_ALIGNMENT)
		return gguf_errf(err, (int64_t)v->off, "general.alignment %llu "
		    "is larger than the %u limit", (unsigned long long)a,
		    GGUF_MAX_ALIGNMENT);
	f->lay.alignment = (uint32_t)a;
	return 0;
}

/* ----------------------------------------------------------- tensor infos */

/*
 * A block-quantized tensor whose rows are not whole blocks, as early
 * converters wrote them: its elements are one run of blocks (the last one
 * partly used) that cross the rows. Early ggml sized and read it so;
 * current ggml refuses it. why says which row length is at fault.
 */
static void
warn_xrow(struct gguf_file *f, const struct gguf_tensor *t, uint64_t at,
    const char *why)
{
	char	buf[256], fix[320];

	fix[0] = '\0';
	if (gguf_ttype_decodable(t->type, f->lay.be, NULL) == 0)
		snprintf(fix, sizeof fix, " (convert %s f32 rewrites it "
		    "losslessly as float32)", pname(&t->name, buf, sizeof buf));
	warnf(f, GGUF_W_ERROR, at, "tensor \"%s\": %s: its blocks run on "
	    "across rows, as early ggml wrote them; current ggml refuses "
	    "such a tensor%s", pname(&t->name, buf, sizeof buf), why, fix);
}

static int	fast_on = 1;	/* gguf_read_fast */

void
gguf_read_fast(int on)
{
	fast_on = on != 0;
}

/*
 * A tensor info's fields read straight from base, where all of them are
 * there and sound (v2 and later: a name, at most GGUF_MAX_DIMS
 * dimensions each at most INT64_MAX, their product too, a type and an
 * offset): 1, with c past them. Otherwise 0, c unmoved, for the walk
 * through the cursor, which says what is wrong. The cursor's calls, one
 * a field, were a third of opening a shard of 500 tensors.
 */
static int
read_tensor_fast(const struct gguf_file *f, struct gguf_cur *c,
    struct gguf_tensor *t)
{
	const uint8_t	*p;
	uint64_t	 avail, n, d, need;
	uint32_t	 nd, i;

	if (!fast_on || c->lw != 8 || f->lay.version == 1 || c->pos > c->size)
		return 0;
	avail = c->size - c->pos;
	p = c->base + c->pos;
	if (avail < 8 + 4)
		return 0;
	n = gguf_ld64(p, c->be);
	if (n > avail - 8 - 4)
		return 0;
	nd = gguf_ld32(p + 8 + n, c->be);
	if (nd > GGUF_MAX_DIMS)
		return 0;
	need = 8 + n + 4 + 8 * (uint64_t)nd + 4 + 8;
	if (need > avail)
		return 0;
	t->off = c->pos;
	t->name.p = (const char *)p + 8;
	t->name.n = n;
	t->n_dims = nd;
	t->nelem = 1;
	p += 8 + n + 4;
	for (i = 0; i < GGUF_MAX_DIMS; i++)
		t->ne[i] = 1;
	for (i = 0; i < nd; i++, p += 8) {
		d = gguf_ld64(p, c->be);
		if (d > INT64_MAX || gguf_mul_ok(t->nelem, d, &t->nelem) != 0 ||
		    t->nelem > INT64_MAX)
			return 0;
		t->ne[i] = d;
	}
	t->type = gguf_ld32(p, c->be);
	t->offset = gguf_ld64(p + 4, c->be);
	c->pos += need;
	t->end = c->pos;
	return 1;
}

static int
read_tensor(struct gguf_file *f, struct gguf_cur *c, struct gguf_tensor *t,
    struct gguf_err *err)
{
	uint64_t	 d, at;
	uint32_t	 d32, i;
	struct gguf_err	 e;
	char		 buf[256];

	memset(t, 0, sizeof *t);
	if (read_tensor_fast(f, c, t)) {
		at = t->end - 12;	/* where the type is */
		goto read;
	}
	t->off = c->pos;
	if (gguf_cur_str(c, &t->name, "tensor name", err) != 0)
		return -1;
	at = c->pos;
	if (gguf_cur_u32(c, &t->n_dims, "n_dims", err) != 0)
		return -1;
	if (t->n_dims > GGUF_MAX_DIMS)
		return gguf_errf(err, (int64_t)at, "tensor \"%s\" has %u "
		    "dimensions (at most %d)", pname(&t->name, buf, sizeof buf),
		    (unsigned)t->n_dims, GGUF_MAX_DIMS);
	t->nelem = 1;
	for (i = 0; i < GGUF_MAX_DIMS; i++)
		t->ne[i] = 1;
	for (i = 0; i < t->n_dims; i++) {
		at = c->pos;
		if (f->lay.version == 1) {
			if (gguf_cur_u32(c, &d32, "a dimension", err) != 0)
				return -1;
			d = d32;
		} else if (gguf_cur_u64(c, &d, "a dimension", err) != 0)
			return -1;
		if (d > INT64_MAX)
			return gguf_errf(err, (int64_t)at, "tensor \"%s\": "
			    "dimension %u is negative (%lld)",
			    pname(&t->name, buf, sizeof buf), (unsigned)i,
			    (long long)d);
		t->ne[i] = d;
		if (gguf_mul_ok(t->nelem, d, &t->nelem) != 0 ||
		    t->nelem > INT64_MAX)
			return gguf_errf(err, (int64_t)at, "tensor \"%s\": "
			    "element count overflows",
			    pname(&t->name, buf, sizeof buf));
	}
	at = c->pos;
	if (gguf_cur_u32(c, &t->type, "tensor type", err) != 0 ||
	    gguf_cur_u64(c, &t->offset, "tensor data offset", err) != 0)
		return -1;
	t->end = c->pos;
read:
	if (t->n_dims == 0)
		warnf(f, GGUF_W_NOTE, t->off,
		    "tensor \"%s\" has 0 dimensions (read as a "
		    "scalar)", pname(&t->name, buf, sizeof buf));
	if (gguf_ttype_nbytes(t->type, t->ne, &t->nbytes, &e) != 0) {
		if (gguf_ttype_known(t->type) && gguf_ttype(t->type)->blck > 0 &&
		    t->ne[0] % gguf_ttype(t->type)->blck == 0)
			return gguf_errf(err, (int64_t)at, "tensor \"%s\": %s",
			    pname(&t->name, buf, sizeof buf), e.msg);
		if (gguf_ttype_known(t->type) &&
		    gguf_ttype_nbytes_flat(t->type, t->nelem, &t->nbytes,
		    NULL) == 0) {
			t->flags |= GGUF_TENSOR_XROW;
			warn_xrow(f, t, at, e.msg);
			return 0;
		}
		t->flags |= GGUF_TENSOR_UNSIZED;
		t->nbytes = 0;
		warnf(f, GGUF_W_ERROR, at,
		    "tensor \"%s\": %s", pname(&t->name, buf,
		    sizeof buf), e.msg);
	}
	if (t->name.n == 0)
		warnf(f, GGUF_W_WARN, t->off, "tensor with an empty name");
	else if (t->name.n > GGUF_MAX_NAME)
		warnf(f, GGUF_W_ERROR, t->off,
		    "tensor name \"%s\" is %llu bytes (ggml "
		    "loads at most %d)", pname(&t->name, buf, sizeof buf),
		    (unsigned long long)t->name.n, GGUF_MAX_NAME);
	return 0;
}

static int
read_tensors(struct gguf_file *f, struct gguf_cur *c, struct gguf_err *err)
{
	struct gguf_tensor	*t;
	uint64_t		 i, cap = 0;
	char			 buf[256];

	f->lay.ti_off = c->pos;
	for (i = 0; i < f->lay.n_tensors; i++) {
		if (i == cap) {
			/* a name's length, dimensions, type, offset */
			cap = cap == 0 ? first_cap(f->lay.n_tensors, c,
			    c->lw + 16, (uint64_t)1 << 16) : cap * 2;
			if (cap > f->lay.n_tensors)
				cap = f->lay.n_tensors;
			f->tensors = xreallocarray(f->tensors, cap,
			    sizeof *f->tensors);
			/* mapped in: as many as the bytes left can hold (a
			   count that lies commits no more than the truth) */
			xpopulate(f->tensors + i, (size_t)(first_cap(cap - i,
			    c, c->lw + 16, cap - i)) * sizeof *f->tensors);
		}
		t = &f->tensors[i];
		if (read_tensor(f, c, t, err) != 0)
			return -1;
		f->n_tensors = i + 1;
	}
	f->lay.ti_end = c->pos;

	f->thash = xreallocarray(NULL, f->n_tensors > 0 ? f->n_tensors : 1,
	    sizeof *f->thash);
	xpopulate(f->thash, (size_t)f->n_tensors * sizeof *f->thash);
	for (i = 0; i < f->n_tensors; i++) {
		t = &f->tensors[i];
		f->thash[i] = gguf_nameix_hash(t->name.p, (size_t)t->name.n);
	}
	if (f->defer_names)
		return 0;
	gguf_nameix_init(&f->tensor_names, tensor_name, f, f->n_tensors);
	for (i = 0; i < f->n_tensors; i++) {
		t = &f->tensors[i];
		if (gguf_nameix_add_hashed(&f->tensor_names, i,
		    f->thash[i]) >= 0)
			warnf(f, GGUF_W_ERROR, t->off,
			    "duplicate tensor name \"%s\"",
			    pname(&t->name, buf, sizeof buf));
	}
	atomic_store(&f->names_built, 1);
	return 0;
}

/* Sorts tensor indices by (offset, index). */
static int
cmp_offset(const void *a, const void *b, void *ctx)
{
	const struct gguf_tensor	*base = ctx;
	const struct gguf_tensor	*x = &base[*(const uint64_t *)a];
	const struct gguf_tensor	*y = &base[*(const uint64_t *)b];

	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	return *(const uint64_t *)a < *(const uint64_t *)b ? -1 : 1;
}

/*
 * Places the data section and checks every tensor's data against it:
 * alignment, bounds, overlaps, gaps and order (ggml wants each offset to be
 * the padded end of the tensor before it).
 */
static int
check_data(struct gguf_file *f, struct gguf_err *err)
{
	struct gguf_tensor	*t, *p;
	uint64_t		 data_size, end, expect, i, *order;
	uint64_t		 align = f->lay.alignment, prev_end;
	int			 noncanon = 0, unsized;
	char			 b1[256], b2[256];

	if (f->n_tensors == 0) {
		f->lay.data_off = f->lay.data_end = f->lay.ti_end;
		/* ggml pads the metadata even when no tensor follows. */
		if (gguf_align_ok(f->lay.ti_end, align, &end) == 0 &&
		    end < f->size)
			warnf(f, GGUF_W_NOTE, end,
			    "%llu bytes after the metadata and its "
			    "padding (the file has no tensors)",
			    (unsigned long long)(f->size - end));
		return 0;
	}
	if (gguf_align_ok(f->lay.ti_end, align, &f->lay.data_off) != 0)
		return gguf_errf(err, (int64_t)f->lay.ti_end, "data offset "
		    "overflows");
	f->lay.data_end = f->lay.data_off;
	data_size = f->size > f->lay.data_off ? f->size - f->lay.data_off : 0;
	if (f->lay.data_off > f->size)
		warnf(f, GGUF_W_ERROR, f->lay.ti_end,
		    "the data section would start at "
		    "0x%llx, beyond the end of the file (%llu bytes): no "
		    "tensor data is present",
		    (unsigned long long)f->lay.data_off,
		    (unsigned long long)f->size);

	expect = 0;
	for (i = 0; i < f->n_tensors; i++) {
		t = &f->tensors[i];
		if (t->offset % align != 0)
			warnf(f, GGUF_W_ERROR, t->end - 8,
			    "tensor \"%s\": data offset "
			    "0x%llx is not a multiple of the alignment %llu",
			    pname(&t->name, b1, sizeof b1),
			    (unsigned long long)t->offset,
			    (unsigned long long)align);
		if (t->flags & GGUF_TENSOR_UNSIZED) {
			noncanon = 1;
			continue;
		}
		if (gguf_add_ok(t->offset, t->nbytes, &end) != 0 ||
		    end > data_size) {
			t->flags |= GGUF_TENSOR_UNREADABLE;
			if (f->lay.data_off <= f->size)
				warnf(f, GGUF_W_ERROR, t->end - 8,
				    "tensor \"%s\": data "
				    "[0x%llx, +%llu) lies beyond the end of "
				    "the file", pname(&t->name, b1, sizeof b1),
				    (unsigned long long)t->offset,
				    (unsigned long long)t->nbytes);
		}
		if (t->offset != expect)
			noncanon = 1;
		if (gguf_add_ok(t->offset, t->nbytes, &end) == 0 &&
		    gguf_align_ok(end, align, &expect) == 0) {
			if (end + f->lay.data_off > f->lay.data_end &&
			    end <= UINT64_MAX - f->lay.data_off)
				f->lay.data_end = f->lay.data_off + end;
		} else
			noncanon = 1;
	}
	/* Bytes after the last tensor: padding, or something else. */
	if (gguf_align_ok(f->lay.data_end, align, &end) == 0 &&
	    f->lay.data_end <= f->size) {
		if (end < f->size)
			warnf(f, GGUF_W_NOTE, end,
			    "%llu bytes after the end of the last "
			    "tensor's data and padding",
			    (unsigned long long)(f->size - end));
		else if (end > f->size && !noncanon)
			warnf(f, GGUF_W_ERROR, f->lay.data_end,
			    "the last tensor is not "
			    "followed by its alignment padding");
	}
	if (!noncanon)
		return 0;

	/* Not in ggml's canonical order: say what exactly is wrong. */
	order = xcalloc(f->n_tensors, sizeof *order);
	for (i = 0; i < f->n_tensors; i++)
		order[i] = i;
	qsort_r(order, f->n_tensors, sizeof *order, cmp_offset, f->tensors);
	p = NULL;
	prev_end = 0;
	unsized = 0;
	for (i = 0; i < f->n_tensors; i++) {
		t = &f->tensors[order[i]];
		if (t->flags & GGUF_TENSOR_UNSIZED) {
			unsized = 1;
			continue;
		}
		/*
		 * Before the first sized tensor, the gap runs from the start
		 * of the data section, unless a tensor of unknown size may
		 * fill it.
		 */
		if (p != NULL && t->nbytes > 0 && t->offset < prev_end)
			warnf(f, GGUF_W_ERROR, t->end - 8,
			    "tensor \"%s\" overlaps tensor "
			    "\"%s\"", pname(&t->name, b1, sizeof b1),
			    pname(&p->name, b2, sizeof b2));
		else if ((p != NULL || !unsized) &&
		    gguf_align_ok(prev_end, align, &end) == 0 && t->offset > end)
			warnf(f, GGUF_W_ERROR, t->end - 8,
			    "gap of %llu bytes before tensor "
			    "\"%s\"", (unsigned long long)(t->offset - end),
			    pname(&t->name, b1, sizeof b1));
		if (t->nbytes > 0 &&
		    gguf_add_ok(t->offset, t->nbytes, &end) == 0 &&
		    end > prev_end) {
			prev_end = end;
			p = t;
		} else if (p == NULL)
			p = t;
	}
	for (i = 1; i < f->n_tensors; i++) {
		if (!(f->tensors[i].flags & GGUF_TENSOR_UNSIZED) &&
		    !(f->tensors[i - 1].flags & GGUF_TENSOR_UNSIZED) &&
		    f->tensors[i].offset < f->tensors[i - 1].offset) {
			warnf(f, GGUF_W_ERROR, f->tensors[i].end - 8,
			    "tensor data is not in "
			    "tensor-info order (from \"%s\" on)",
			    pname(&f->tensors[i].name, b1, sizeof b1));
			break;
		}
	}
	free(order);
	return 0;
}

/* ------------------------------------------------------------------- open */

/*
 * The end a walk that ran out of bytes at c->want needs: where it ran
 * out in the tensor infos, the end of them all at the pace of those read
 * (and their padding), so that the next read can be the last; else (in
 * the KVs, whose sizes say nothing of the rest) c->want. At most the
 * file's size.
 */
static uint64_t
more_wanted(const struct gguf_file *f, const struct gguf_cur *c)
{
	uint64_t	n = f->n_tensors, done, per, est;

	if (f->lay.ti_off == 0 || n == 0 || n >= f->lay.n_tensors ||
	    f->tensors[n - 1].end <= f->lay.ti_off)
		return c->want;
	done = f->tensors[n - 1].end;
	per = (done - f->lay.ti_off) / n + 1;
	if (f->lay.n_tensors - n > (UINT64_MAX - done) / 2 / per)
		return c->want;
	est = done + (f->lay.n_tensors - n) * per / 4 * 5 +
	    f->lay.alignment + 64;
	if (c->full != 0 && est > c->full)
		est = c->full;
	return est > c->want ? est : c->want;
}

struct gguf_file *
gguf_file_parse(struct gguf_file *f, uint64_t *want, struct gguf_err *err)
{
	struct gguf_cur	c;

	memset(&c, 0, sizeof c);
	c.base = f->base;
	c.size = f->have;
	c.full = f->have < f->size ? f->size : 0;
	c.lw = 8;
	c.rd = f->walk_rd;
	f->lay.file_size = f->size;
	if (want != NULL)
		*want = 0;
	if (read_header(f, &c, err) != 0 ||
	    read_kvs(f, &c, err) != 0 ||
	    check_keys(f, err) != 0 ||
	    read_tensors(f, &c, err) != 0 ||
	    check_data(f, err) != 0 || c.want != 0) {
		if (c.want != 0 && want != NULL)
			*want = more_wanted(f, &c);
		gguf_close(f);
		return NULL;
	}
	return f;
}

struct gguf_file *
gguf_open_buffer(const void *buf, size_t len, struct gguf_err *err)
{
	struct gguf_file	*f = xcalloc(1, sizeof *f);

	f->base = buf;
	f->data = f->base;
	f->size = f->have = len;
	f->whole = 1;
	return gguf_file_parse(f, NULL, err);
}

void
gguf_close(struct gguf_file *f)
{
	uint64_t	i;
	size_t		w;

	if (f == NULL)
		return;
	for (w = 0; w < f->n_shards; w++) {
		gguf_close(f->shards[w]);
		free(f->shard_paths[w]);
	}
	free(f->shards);
	free(f->shard_paths);
	for (i = 0; i < f->n_kv; i++)
		gguf_arrix_free(f->kv[i].val.ix);
	for (w = 0; w < f->n_warn; w++)
		free(f->warn[w].msg);
	gguf_source_close(f->src);
	free(f->own);
	free(f->warn);
	free(f->kv);
	free(f->tensors);
	free(f->tp);
	gguf_nameix_free(&f->kv_names);
	gguf_nameix_free(&f->tensor_names);
	free(f->thash);
	free(f->set_error);
	free(f->path);
	free(f);
}

/* -------------------------------------------------------------- accessors */

const struct gguf_layout *
gguf_layout(const struct gguf_file *f)
{
	return &f->lay;
}

const char *
gguf_path(const struct gguf_file *f)
{
	return f->path;
}

const uint8_t *
gguf_base(const struct gguf_file *f)
{
	return f->base;
}

int
gguf_file_fd(const struct gguf_file *f)
{
	return f->src != NULL ? gguf_source_fd(f->src) : -1;
}

struct gguf_kv *
gguf_kv_at(struct gguf_file *f, uint64_t i)
{
	return i < f->n_kv ? &f->kv[i] : NULL;
}

int64_t
gguf_kv_find(const struct gguf_file *f, const char *key, size_t len)
{
	return gguf_nameix_find(&f->kv_names, key, len);
}

struct gguf_val *
gguf_kv_get(struct gguf_file *f, const char *key)
{
	int64_t	i = gguf_kv_find(f, key, strlen(key));

	return i < 0 ? NULL : &f->kv[i].val;
}

const struct gguf_tensor *
gguf_tensor_at(const struct gguf_file *f, uint64_t i)
{
	if (i >= f->n_tensors)
		return NULL;
	return f->tp != NULL ? f->tp[i] : &f->tensors[i];
}

/* A set's shard indexes its tensor names at its first look-up. */
static pthread_mutex_t names_mu = PTHREAD_MUTEX_INITIALIZER;

int64_t
gguf_tensor_find(const struct gguf_file *f, const char *name, size_t len)
{
	struct gguf_file	*w = (struct gguf_file *)(uintptr_t)f;
	uint64_t		 i;

	if (!atomic_load(&f->names_built)) {
		pthread_mutex_lock(&names_mu);
		if (!atomic_load(&w->names_built)) {
			gguf_nameix_init(&w->tensor_names, tensor_name, w,
			    w->n_tensors);
			for (i = 0; i < w->n_tensors; i++)
				(void)gguf_nameix_add_hashed(&w->tensor_names,
				    i, w->thash[i]);
			atomic_store(&w->names_built, 1);
		}
		pthread_mutex_unlock(&names_mu);
	}
	return gguf_nameix_find(&f->tensor_names, name, len);
}


const uint8_t *
gguf_tensor_data(const struct gguf_file *f, const struct gguf_tensor *t,
    struct gguf_err *err)
{
	const uint8_t	*p;
	char		 buf[256];

	if (t->flags & GGUF_TENSOR_UNSIZED)
		gguf_errf(err, (int64_t)t->off, "tensor \"%s\": size "
		    "unknown", pname(&t->name, buf, sizeof buf));
	else if (t->flags & GGUF_TENSOR_UNREADABLE)
		/* where the reader said it: the data offset's field */
		gguf_errf(err, (int64_t)(t->end - 8), "tensor \"%s\": data "
		    "lies beyond the end of the file",
		    pname(&t->name, buf, sizeof buf));
	if (t->flags & (GGUF_TENSOR_UNSIZED | GGUF_TENSOR_UNREADABLE)) {
		/* a set's error names the shard its offset is in */
		if (f->n_shards > 0 && err != NULL)
			gguf_file_shard_msg(f, t->shard, err);
		return NULL;
	}
	if (f->n_shards > 0)
		f = f->shards[t->shard];
	if (!gguf_file_whole(f)) {
		gguf_errf(err, -1, "tensor \"%s\": its data is read from the "
		    "%s, not mapped", pname(&t->name, buf, sizeof buf),
		    gguf_source_kind(f->src));
		return NULL;
	}
	if ((p = gguf_file_data(f, err)) == NULL)
		return NULL;
	return p + f->lay.data_off + t->offset;
}

/* ------------------------------------------------------------ split sets */

static const char *
base_name(const char *path)
{
	const char	*s = strrchr(path, '/');

	return s != NULL ? s + 1 : path;
}

/*
 * "changed on disk: ..." of shard i becomes "SHARD: changed on disk: ...";
 * an error at an offset, "SHARD: offset 0x...: ...", as the offset is the
 * shard's and the caller names the set by its first file.
 */
void
gguf_file_shard_msg(const struct gguf_file *f, size_t i,
    struct gguf_err *err)
{
	char	buf[sizeof err->msg];

	if (err->has_off)	/* the offset is the shard's, not f's */
		snprintf(buf, sizeof buf, "%.200s: offset 0x%llx: %.280s",
		    base_name(f->shard_paths[i]),
		    (unsigned long long)err->off, err->msg);
	else
		snprintf(buf, sizeof buf, "%.200s: %.300s",
		    base_name(f->shard_paths[i]), err->msg);
	err->has_off = 0;
	memcpy(err->msg, buf, sizeof buf);
}

void
gguf_file_warn(struct gguf_file *f, int level, uint64_t off, const char *msg)
{
	gguf_file_warn_in(f, level, NULL, off, msg);
}

/* An error that makes a set no one set: counted, the first kept. */
static void
set_error(struct gguf_file *f, const char *file, const char *msg)
{
	size_t	len;

	if (f->n_set_errors++ > 0)
		return;
	if (file == NULL) {
		f->set_error = xstrdup(msg);
		return;
	}
	len = strlen(base_name(file)) + strlen(msg) + 3;
	f->set_error = xmalloc(len);
	snprintf(f->set_error, len, "%s: %s", base_name(file), msg);
}

/* The last warning stored, if it was (kept is warnf's), is in file. */
static void
warned_in(struct gguf_file *f, int kept, const char *file)
{
	if (kept)
		f->warn[f->n_warn - 1].file = file;
}

void
gguf_file_warn_in(struct gguf_file *f, int level, const char *file,
    uint64_t off, const char *msg)
{
	warned_in(f, warnf(f, level, off, "%s", msg), file);
	if (level == GGUF_W_ERROR)
		set_error(f, file, msg);
}

unsigned
gguf_set_errors(const struct gguf_file *f, const char **first)
{
	if (first != NULL)
		*first = f->set_error;
	return f->n_set_errors;
}

struct gguf_file *
gguf_join(const char *path, struct gguf_file **shards, char **paths,
    size_t n, size_t *redo)
{
	struct gguf_file	*f = xcalloc(1, sizeof *f), *s0 = shards[0], *s;
	struct gguf_tensor	*t;
	uint64_t		 i, total = 0;
	int64_t			 dup;
	size_t			 k, w;
	int			 kept;
	char			 nm[256], msg[400];

	f->path = xstrdup(path);
	f->shards = shards;
	f->shard_paths = paths;
	f->n_shards = n;
	f->base = s0->base;
	f->size = s0->size;
	f->have = s0->have;
	f->whole = s0->whole;
	f->lay = s0->lay;
	f->n_kv = s0->n_kv;
	f->kv = xcalloc((size_t)(f->n_kv > 0 ? f->n_kv : 1), sizeof *f->kv);
	for (i = 0; i < f->n_kv; i++) {
		f->kv[i] = s0->kv[i];
		f->kv[i].val.ix = NULL;
	}
	gguf_nameix_init(&f->kv_names, kv_name, f, f->n_kv);
	for (i = 0; i < f->n_kv; i++)
		gguf_nameix_add(&f->kv_names, i);
	for (k = 0; k < n; k++)
		if (shards[k] != NULL)
			total += shards[k]->n_tensors;
	f->tp = xcalloc_big((size_t)(total > 0 ? total : 1), sizeof *f->tp);
	gguf_nameix_init(&f->tensor_names, tensor_name, f, total);
	for (k = 0; k < n; k++) {
		if ((s = shards[k]) == NULL)
			continue;
		for (w = 0; w < s->n_warn; w++) {
			/* the file it is in goes with it, not in its text */
			kept = warnf(f, s->warn[w].level, s->warn[w].off,
			    "%s", s->warn[w].msg);
			warned_in(f, kept, paths[k]);
		}
		/* What the shard left out, the set leaves out too. */
		for (w = 0; w < 3; w++)
			count_dropped(f, (int)w, s->n_dropped[w]);
		for (i = 0; i < s->n_tensors; i++) {
			t = f->tp[f->n_tensors] = &s->tensors[i];
			t->shard = (uint32_t)k;
			/* hashed once, by the shard's own name hashes */
			dup = gguf_nameix_add_hashed(&f->tensor_names,
			    f->n_tensors, s->thash[i]);
			if (dup >= 0 && f->tp[dup]->shard == k &&
			    s->defer_names) {
				/* its own finding, in its place among its own */
				*redo = k;
				f->n_shards = 0;
				f->shards = NULL;
				f->shard_paths = NULL;
				gguf_close(f);
				return NULL;
			}
			if (dup >= 0 && f->tp[dup]->shard != k) {
				snprintf(msg, sizeof msg, "tensor \"%s\" is in "
				    "%s too (llama.cpp refuses a tensor name "
				    "twice)", pname(&t->name, nm, sizeof nm),
				    base_name(paths[f->tp[dup]->shard]));
				kept = warnf(f, GGUF_W_ERROR, t->off, "%s", msg);
				warned_in(f, kept, paths[k]);
				set_error(f, paths[k], msg);
			}
			f->n_tensors++;
		}
	}
	f->lay.n_tensors = f->n_tensors;
	atomic_store(&f->names_built, 1);
	return f;
}

size_t
gguf_n_shards(const struct gguf_file *f)
{
	return f->n_shards;
}

const struct gguf_file *
gguf_shard(const struct gguf_file *f, size_t i)
{
	return i < f->n_shards ? f->shards[i] : NULL;
}

const char *
gguf_shard_path(const struct gguf_file *f, size_t i)
{
	return i < f->n_shards ? f->shard_paths[i] : NULL;
}

const struct gguf_file *
gguf_tensor_file(const struct gguf_file *f, const struct gguf_tensor *t)
{
	return f->n_shards > 0 ? f->shards[t->shard] : f;
}

const char *
gguf_tensor_path(const struct gguf_file *f, const struct gguf_tensor *t)
{
	return f->n_shards > 0 ? f->shard_paths[t->shard] : NULL;
}

size_t
gguf_n_warnings(const struct gguf_file *f)
{
	return f->n_warn + (f->dropped.msg != NULL);
}

const struct gguf_warning *
gguf_warning_at(const struct gguf_file *f, size_t i)
{
	if (i == f->n_warn && f->dropped.msg != NULL)
		return &f->dropped;
	return i < f->n_warn ? &f->warn[i] : NULL;
}
