/*
 * setsave.c - saving a split model over its shards, as one transaction.
 *
 * A document opened on a split set (set.h) holds the first shard's
 * metadata and every shard's tensors. Saving it over the set makes one
 * document per shard (the shard opened alone) carrying the edits that
 * belong to it: every metadata edit goes to the first shard, where
 * llama.cpp reads metadata; a tensor's rename, removal or conversion to
 * the shard that holds it. The split keys stay what gguf-split writes:
 * split.tensors.count follows the tensors of the whole set on every
 * shard, and the first shard's split keys stay at the end of its keys
 * (split.no, split.tensors.count, split.count) when keys are added. The
 * split keys themselves are not edited by hand in a set.
 *
 * Only the shards that change are written. A shard whose header region
 * keeps its length (so no tensor moves) is saved in place, as save.c
 * saves one file: only the bytes of its header that differ are written.
 * Any other is written as a whole new file beside it (as save.c's
 * rewrite writes one). Then, so that a crash at any point leaves every
 * shard old or every shard new:
 *
 *	1. every new shard is written to a temporary file beside its
 *	   target, fsynced and read back;
 *	2. the set's journal, "FIRST-SHARD.ggufed-journal", names every
 *	   changed shard: for a rewritten one its path, the identity of its
 *	   old file, its new file and its backup; for one saved in place,
 *	   its path and identity, the range written and both its old and
 *	   its new bytes. It is fsynced, and so is the directory;
 *	3. each old shard to be rewritten gets a second name, its backup
 *	   "SHARD.ggufed-old" (a hard link: no data is copied);
 *	4. each new file is renamed over its shard, and each shard saved in
 *	   place has its new bytes written and fsynced;
 *	5. the journal is removed (the commit), then the backups.
 *
 * Recovery always rolls back: with a complete journal, each backup is
 * renamed back over its shard (a shard whose backup is missing was never
 * replaced, since no rename comes before every backup exists), the new
 * files are removed; each shard saved in place gets its old bytes back
 * (once its header is seen to hold nothing but the old and the new bytes
 * of the range, and the rest of its header region as it was); then the
 * journal goes. A journal that is incomplete was cut before any shard
 * was touched: it is removed. `ggufed recover` on any shard finds the
 * journal beside the first one. A crash after the commit leaves only
 * backups, which the next save or recovery removes.
 *
 * A journal is obeyed only when it is ours (see save.c) and every path
 * it names is a shard of the set (as the set's names give it, or the file
 * their links lead to), or that shard's own new file or backup beside it:
 * one that names any other file is refused, and nothing is touched.
 *
 * Journal layout, little-endian:
 *
 *	0	"GGUFEDS2"
 *	8	u64 n, the shards it names
 *	16	n entries, each starting with u64 kind and the u64 device,
 *		inode, size, mtime seconds and nanoseconds of the old shard.
 *		Kind 0, rewritten: u64 lengths of the three paths (shard,
 *		new file, backup); the three paths. Kind 1, in place: u64
 *		offset and length L of the range written, end of the header
 *		region, hashes of the region before and after the range,
 *		length of the shard's path; the path; the old bytes, L; the
 *		new bytes, L
 *	...	u64 hash of every byte before it
 *
 * "GGUFEDS1", an earlier format, has rewritten entries only, without
 * the kind: it is still recovered.
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "storeint.h"
#include "set.h"

#define SET_MAGIC	"GGUFEDS2"
#define SET_MAGIC1	"GGUFEDS1"	/* rewrites only, no kinds */
#define MAX_JOURNAL	((uint64_t)1 << 31)
#define JOURNAL_SUFFIX	".ggufed-journal"
#define BACKUP_SUFFIX	".ggufed-old"
#define SPLIT_NO	"split.no"
#define SPLIT_COUNT	"split.count"
#define SPLIT_TENSORS	"split.tensors.count"
#define MAX_PATH_LEN	4096

/* One changed shard of a save, or of a journal. */
struct entry {
	int		 inplace;	/* saved in place, else rewritten */
	uint64_t	 dev, ino, size, mt_sec, mt_nsec;	/* old shard */
	char		*target;	/* the shard, links followed */
	char		*tmp;		/* rewritten: its new file */
	char		*bak;		/* rewritten: the old file's second name */
	uint64_t	 off, len;	/* in place: the range written */
	uint64_t	 region;	/* in place: end of the header region */
	uint64_t	 h_pre, h_post;	/* hashes of [0, off), [off + len, region) */
	uint8_t		*old, *nw;	/* the range's old and new bytes */
};

struct shard {
	struct gguf_doc	*d;		/* the shard alone, with its edits */
	struct wplan	 p;
	int		 planned;
	int		 changed;
	struct savelock	 lk;
	struct entry	 e;
	unsigned long	 nlink;		/* names of the shard's file */
};

static int
is_split_key(struct gguf_str s)
{
	return s.n >= 6 && memcmp(s.p, "split.", 6) == 0;
}

static void
entry_free(struct entry *e)
{
	free(e->target);
	free(e->tmp);
	free(e->bak);
	free(e->old);
	free(e->nw);
	memset(e, 0, sizeof *e);
}

static char *
suffixed(const char *path, const char *suffix)
{
	size_t	n = strlen(path) + strlen(suffix) + 1;
	char	*s = xmalloc(n);

	snprintf(s, n, "%s%s", path, suffix);
	return s;
}

/* ------------------------------------------------------------- per shard */

/* Sets key of dk to an integer scalar, at the end if append (or absent). */
static int
put_key(struct gguf_doc *dk, const char *key, uint32_t type, uint64_t bits,
    int append, struct gguf_err *err)
{
	struct gguf_vbuild	 b;
	struct gguf_value	*v;
	int			 rc;

	if (append && gguf_doc_kv_find(dk, key, strlen(key)) >= 0 &&
	    gguf_doc_remove(dk, key, strlen(key), err) != 0)
		return -1;
	gguf_vb_init(&b, type, 0);
	gguf_vb_bits(&b, bits);
	v = gguf_vb_finish(&b);
	rc = gguf_doc_set(dk, key, strlen(key), v, GGUF_SET_ADD |
	    GGUF_SET_RETYPE | GGUF_SET_FORCE, NULL, err);
	gguf_value_unref(v);
	return rc != 0 ? -1 : 0;
}

/* A scalar split key of dk, or -1 if absent or not an integer. */
static int64_t
get_key(struct gguf_doc *dk, const char *key)
{
	struct gguf_val	*v = gguf_doc_get(dk, key, strlen(key));
	int64_t		 x;

	if (v == NULL || gguf_val_i64(v, &x) != 0)
		return -1;
	return x;
}

/*
 * The first shard's split keys back at the end of its keys, in
 * gguf-split's order, if a key was added after them.
 */
static int
keys_last(struct gguf_doc *dk, struct gguf_err *err)
{
	struct gguf_doc_kv	kv;
	uint64_t		i;
	int			seen_split = 0, after = 0;
	int64_t			no, cnt, tot;

	for (i = 0; i < gguf_doc_n_kv(dk); i++) {
		gguf_doc_kv(dk, i, &kv);
		if (kv.flags & GGUF_ED_REMOVED)
			continue;
		if (is_split_key(kv.key))
			seen_split = 1;
		else if (seen_split)
			after = 1;
	}
	if (!after)
		return 0;
	no = get_key(dk, SPLIT_NO);
	cnt = get_key(dk, SPLIT_COUNT);
	tot = get_key(dk, SPLIT_TENSORS);
	if (no < 0 || cnt < 0 || tot < 0)
		return 0;	/* a broken set: left as it is */
	if (put_key(dk, SPLIT_NO, GGUF_VT_U16, (uint64_t)no, 1, err) != 0 ||
	    put_key(dk, SPLIT_TENSORS, GGUF_VT_I32, (uint64_t)tot, 1,
	    err) != 0 ||
	    put_key(dk, SPLIT_COUNT, GGUF_VT_U16, (uint64_t)cnt, 1, err) != 0)
		return -1;
	return 0;
}

static void
shards_free(struct shard *sh, unsigned n)
{
	unsigned	k;

	for (k = 0; sh != NULL && k < n; k++) {
		if (sh[k].planned)
			gguf_plan_free(&sh[k].p);
		gguf_doc_free(sh[k].d);
		gguf_lock_release(&sh[k].lk);
		if (sh[k].e.tmp != NULL)
			unlink(sh[k].e.tmp);
		entry_free(&sh[k].e);
	}
	free(sh);
}

/*
 * Whether shard s (changed, planned) can be saved in place, as save.c
 * decides for one file: its header region keeps its length, in-place
 * saves are not turned off, and the shard is not read-only (a read-only
 * file is replaced, not written, when forced). If so, the range of its
 * header that differs, with its old and new bytes; a shard whose header
 * comes out byte for byte the same is not changed after all.
 */
static int
inplace_bytes(struct shard *s, const struct gguf_save_opts *o,
    struct gguf_err *err)
{
	struct wsink	 w;
	struct stat	 st;
	const uint8_t	*old = gguf_file_header(s->d->f), *nw;
	uint64_t	 lo, hi, region = s->p.data_off;

	if (!s->p.inplace_ok || o->no_inplace || stat(s->e.target, &st) != 0 ||
	    gguf_read_only(&st, s->e.target))
		return 0;
	s->nlink = (unsigned long)st.st_nlink;
	if (gguf_header_diff(s->d, &s->p, &w, &lo, &hi, err) != 0) {
		gguf_sink_free(&w);
		return -1;
	}
	nw = w.mem.p;
	if (lo == hi) {
		s->changed = 0;
		gguf_sink_free(&w);
		return 0;
	}
	s->e.inplace = 1;
	s->e.off = lo;
	s->e.len = hi - lo;
	s->e.region = region;
	s->e.h_pre = gguf_hash(old, (size_t)lo);
	s->e.h_post = gguf_hash(old + hi, (size_t)(region - hi));
	s->e.old = xmalloc((size_t)(hi - lo));
	memcpy(s->e.old, old + lo, (size_t)(hi - lo));
	s->e.nw = xmalloc((size_t)(hi - lo));
	memcpy(s->e.nw, nw + lo, (size_t)(hi - lo));
	gguf_sink_free(&w);
	return 0;
}

/*
 * The shards of the set d, each made a document of its own with the
 * edits that belong to it, and planned if it changes. With lock, each
 * shard's save lock is taken first.
 */
static int
prepare(struct gguf_doc *d, const struct gguf_save_opts *o, int lock,
    struct shard **out, unsigned *nout, struct gguf_save_info *info,
    struct gguf_err *err)
{
	struct gguf_change	*ch = NULL;
	struct gguf_save_info	 scratch;
	struct gguf_err		 e;
	struct shard		*sh;
	unsigned		 n = (unsigned)gguf_n_shards(d->f), k;
	uint64_t		 total = gguf_doc_live_tensors(d);
	size_t			 nch, i;
	const char		*path;
	char			 buf[128], why[160];
	long			 pid;
	int			 trust;

	nch = gguf_doc_diff(d, &ch);
	for (i = 0; i < nch; i++) {
		if (ch[i].what == GGUF_CH_KV && (is_split_key(ch[i].new_name) ||
		    (!(ch[i].flags & GGUF_ED_ADDED) &&
		    is_split_key(ch[i].old_name)))) {
			gguf_errf(err, -1, "\"%s\" was edited: the split keys "
			    "of a set are kept by ggufed (open the shard alone "
			    "with --shard to edit them)", gguf_pname_str(
			    ch[i].new_name, buf, sizeof buf));
			free(ch);
			return -1;
		}
	}
	free(ch);
	if (total > INT32_MAX)
		return gguf_errf(err, -1, "more tensors than "
		    "split.tensors.count (i32) can count");
	sh = xcalloc(n, sizeof *sh);
	for (k = 0; k < n; k++)
		sh[k].lk.fd = -1;
	for (k = 0; k < n; k++) {
		path = gguf_shard_path(d->f, k);
		if (gguf_shard(d->f, k) == NULL) {
			gguf_errf(err, -1, "shard %u of %u (%s) could not be "
			    "read: the set cannot be saved over its shards",
			    k + 1, n, path);
			goto fail;
		}
		sh[k].e.target = gguf_resolve(path);
		if (lock) {
			if (gguf_lock_take(sh[k].e.target, &sh[k].lk,
			    err) != 0)
				goto named;
		} else if ((pid = gguf_save_holder(sh[k].e.target)) != 0) {
			gguf_errf(err, -1, pid > 0 ? "the file is being saved "
			    "by process %ld: try again when it is done" :
			    "the file is being saved by another process: try "
			    "again when it is done", pid);
			goto named;
		}
		if ((trust = gguf_journal_trust(sh[k].e.target, why,
		    sizeof why)) == GGUF_JOURNAL_FOREIGN) {
			gguf_errf(err, -1, "a journal that is not ours is "
			    "beside it (%s): not saving while it is there "
			    "(remove it if it is not yours)", why);
			goto named;
		}
		if (trust != GGUF_JOURNAL_NONE) {
			gguf_errf(err, -1, "an interrupted save left a journal: "
			    "recover it first");
			goto named;
		}
		memset(&e, 0, sizeof e);
		if ((sh[k].d = gguf_doc_open(path, &e)) == NULL) {
			gguf_errf(err, -1, "%s", e.msg);
			goto named;
		}
		if (gguf_doc_adopt_shard(sh[k].d, d, k, err) != 0 ||
		    (k == 0 && keys_last(sh[k].d, err) != 0))
			goto named;
		if (get_key(sh[k].d, SPLIT_TENSORS) != (int64_t)total &&
		    put_key(sh[k].d, SPLIT_TENSORS, GGUF_VT_I32, total, 0,
		    err) != 0)
			goto named;
		ch = NULL;
		sh[k].changed = gguf_doc_diff(sh[k].d, &ch) > 0;
		free(ch);
		if (!sh[k].changed)
			continue;
		memset(&scratch, 0, sizeof scratch);
		if (gguf_plan(sh[k].d, o->reserve, &sh[k].p, k == 0 ? info :
		    &scratch, err) != 0) {
			gguf_plan_free(&sh[k].p);
			goto named;
		}
		sh[k].planned = 1;
		if (inplace_bytes(&sh[k], o, err) != 0)
			goto named;
		if (sh[k].e.inplace && sh[k].nlink > 1)
			gguf_notice(info, "shard %u of %u has %lu names (hard "
			    "links): saving it in place changes them all",
			    k + 1, n, sh[k].nlink);
	}
	*out = sh;
	*nout = n;
	return 0;
named:
	{
		char	msg[sizeof err->msg + 128];

		snprintf(msg, sizeof msg, "shard %u of %u, %s: %s", k + 1, n,
		    strrchr(path, '/') != NULL ? strrchr(path, '/') + 1 :
		    path, err->msg);
		gguf_errf(err, -1, "%s", msg);
	}
fail:
	shards_free(sh, n);
	return -1;
}

static void
fill_info(struct shard *sh, unsigned n, struct gguf_save_info *info)
{
	unsigned	k;

	info->how = GGUF_SAVE_SET;
	info->n_shards = n;
	info->shards_written = 0;
	info->shards_inplace = 0;
	info->file_size = 0;
	info->written = 0;
	for (k = 0; k < n; k++) {
		if (!sh[k].changed)
			continue;
		info->shards_written++;
		if (sh[k].e.inplace) {
			info->shards_inplace++;
			info->written += sh[k].e.len;
			continue;
		}
		info->file_size += sh[k].p.file_size;
		if (sh[k].p.relayout)
			info->relayout = 1;
	}
}

int
gguf_set_plan(struct gguf_doc *d, const struct gguf_save_opts *o,
    struct gguf_save_info *info, struct gguf_err *err)
{
	struct shard	*sh;
	unsigned	 n;

	memset(info, 0, sizeof *info);
	if (prepare(d, o, 0, &sh, &n, info, err) != 0)
		return -1;
	fill_info(sh, n, info);
	shards_free(sh, n);
	return 0;
}

/* --------------------------------------------------------------- journal */

static void
put_str(struct gbuf *b, const char *s)
{
	gbuf_put(b, s, strlen(s));
}

static int
journal_write(const char *jpath, struct shard *sh, unsigned n,
    struct gguf_err *err)
{
	struct gbuf	b;
	uint64_t	cnt = 0;
	unsigned	k;
	int		fd, rc = -1;

	memset(&b, 0, sizeof b);
	for (k = 0; k < n; k++)
		cnt += sh[k].changed;
	gbuf_put(&b, SET_MAGIC, 8);
	gbuf_u64(&b, cnt, 0);
	for (k = 0; k < n; k++) {
		if (!sh[k].changed)
			continue;
		gbuf_u64(&b, (uint64_t)sh[k].e.inplace, 0);
		gbuf_u64(&b, sh[k].e.dev, 0);
		gbuf_u64(&b, sh[k].e.ino, 0);
		gbuf_u64(&b, sh[k].e.size, 0);
		gbuf_u64(&b, sh[k].e.mt_sec, 0);
		gbuf_u64(&b, sh[k].e.mt_nsec, 0);
		if (sh[k].e.inplace) {
			gbuf_u64(&b, sh[k].e.off, 0);
			gbuf_u64(&b, sh[k].e.len, 0);
			gbuf_u64(&b, sh[k].e.region, 0);
			gbuf_u64(&b, sh[k].e.h_pre, 0);
			gbuf_u64(&b, sh[k].e.h_post, 0);
			gbuf_u64(&b, strlen(sh[k].e.target), 0);
			put_str(&b, sh[k].e.target);
			gbuf_put(&b, sh[k].e.old, (size_t)sh[k].e.len);
			gbuf_put(&b, sh[k].e.nw, (size_t)sh[k].e.len);
			continue;
		}
		gbuf_u64(&b, strlen(sh[k].e.target), 0);
		gbuf_u64(&b, strlen(sh[k].e.tmp), 0);
		gbuf_u64(&b, strlen(sh[k].e.bak), 0);
		put_str(&b, sh[k].e.target);
		put_str(&b, sh[k].e.tmp);
		put_str(&b, sh[k].e.bak);
	}
	gbuf_u64(&b, gguf_hash(b.p, (size_t)b.n), 0);
	fd = gguf_io_open(jpath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		if (errno == EEXIST)
			gguf_errf(err, -1, "a journal of an interrupted save "
			    "exists: recover first");
		else
			gguf_errf(err, -1, "cannot create the set's journal: "
			    "%s", strerror(errno));
		gbuf_free(&b);
		return -1;
	}
	if (gguf_pwrite_all(fd, b.p, b.n, 0, err) != 0)
		goto out;
	if (gguf_io_fsync(fd) != 0) {
		gguf_errf(err, -1, "fsync: %s", strerror(errno));
		goto out;
	}
	rc = 0;
out:
	if (gguf_io_close(fd) != 0 && rc == 0)
		rc = gguf_errf(err, -1, "close: %s",
		    strerror(errno));
	if (rc == 0)
		rc = gguf_sync_dir(jpath, err);
	if (rc != 0) {
		unlink(jpath);
		gguf_journal_failed(jpath, err);
	}
	gbuf_free(&b);
	return rc;
}

/*
 * 1 if jpath is a set's journal: its magic, or shorter than a magic (a
 * save cut before it wrote one; whichever kind it was, nothing was
 * touched yet, and its recovery only removes it).
 */
int
gguf_set_journal_is(const char *jpath)
{
	char	buf[8];
	int	fd, r;
	ssize_t	n;

	fd = gguf_open_regular(jpath, O_RDONLY | O_NOFOLLOW, NULL);

	if (fd < 0)
		return 0;
	n = pread(fd, buf, 8, 0);
	r = (n >= 0 && n < 8) || (n == 8 && (memcmp(buf, SET_MAGIC, 8) == 0 ||
	    memcmp(buf, SET_MAGIC1, 8) == 0));
	close(fd);
	return r;
}

/* A length-counted string of a journal at *at, or NULL if out of bounds. */
static char *
journal_str(const uint8_t *b, uint64_t end, uint64_t len, uint64_t *at)
{
	char	*p;

	if (len == 0 || len > MAX_PATH_LEN || len > end - *at)
		return NULL;
	p = xstrndup((const char *)b + *at, (size_t)len);
	*at += len;
	return p;
}

/* Parses entry e at *at of journal b (whose entries end at end). */
static int
journal_entry(const uint8_t *b, uint64_t end, int kinds, uint64_t *at,
    struct entry *e)
{
	uint64_t	len[3], k, kind = 0;

	if (kinds) {
		if (8 > end - *at)
			return -1;
		kind = gguf_ld64(b + *at, 0);
		*at += 8;
		if (kind > 1)
			return -1;
	}
	if (40 > end - *at)
		return -1;
	e->inplace = kind == 1;
	e->dev = gguf_ld64(b + *at, 0);
	e->ino = gguf_ld64(b + *at + 8, 0);
	e->size = gguf_ld64(b + *at + 16, 0);
	e->mt_sec = gguf_ld64(b + *at + 24, 0);
	e->mt_nsec = gguf_ld64(b + *at + 32, 0);
	*at += 40;
	if (e->inplace) {
		if (48 > end - *at)
			return -1;
		e->off = gguf_ld64(b + *at, 0);
		e->len = gguf_ld64(b + *at + 8, 0);
		e->region = gguf_ld64(b + *at + 16, 0);
		e->h_pre = gguf_ld64(b + *at + 24, 0);
		e->h_post = gguf_ld64(b + *at + 32, 0);
		len[0] = gguf_ld64(b + *at + 40, 0);
		*at += 48;
		if (e->region > e->size || e->off > e->region ||
		    e->len > e->region - e->off || e->len == 0 ||
		    (e->target = journal_str(b, end, len[0], at)) == NULL ||
		    e->len > (end - *at) / 2)
			return -1;
		e->old = xmalloc((size_t)e->len);
		memcpy(e->old, b + *at, (size_t)e->len);
		e->nw = xmalloc((size_t)e->len);
		memcpy(e->nw, b + *at + e->len, (size_t)e->len);
		*at += 2 * e->len;
		return 0;
	}
	if (24 > end - *at)
		return -1;
	for (k = 0; k < 3; k++)
		len[k] = gguf_ld64(b + *at + 8 * k, 0);
	*at += 24;
	if ((e->target = journal_str(b, end, len[0], at)) == NULL ||
	    (e->tmp = journal_str(b, end, len[1], at)) == NULL ||
	    (e->bak = journal_str(b, end, len[2], at)) == NULL)
		return -1;
	return 0;
}

/* Reads a whole journal: 0 with its entries, 1 if incomplete, -1 err. */
static int
journal_read(const char *jpath, struct entry **out, uint64_t *nout,
    struct gguf_err *err)
{
	struct stat	 st;
	struct entry	*e = NULL;
	uint8_t		*b = NULL;
	uint64_t	 n = 0, i, at, end;
	ssize_t		 r;
	char		 whose[160];
	int		 fd, rc = 1, kinds;

	*out = NULL;
	*nout = 0;
	if ((fd = gguf_open_regular(jpath, O_RDONLY | O_NOFOLLOW, NULL)) < 0 ||
	    fstat(fd, &st) != 0) {
		if (fd >= 0)
			close(fd);
		if (errno == ELOOP)
			return gguf_errf(err, -1, "the set's journal is a "
			    "symbolic link: not trusted, nothing was touched "
			    "(remove it if it is not yours)");
		return gguf_errf(err, -1, "cannot open the set's journal: %s",
		    errno == EINVAL ? "not a regular file" : strerror(errno));
	}
	if (gguf_not_ours(&st, whose, sizeof whose) != NULL) {
		close(fd);
		return gguf_errf(err, -1, "the set's journal is %s: not "
		    "trusted, nothing was touched (remove it if it is not "
		    "yours)", whose);
	}
	if (st.st_size < 24 || (uint64_t)st.st_size > MAX_JOURNAL)
		goto out;
	b = xmalloc((size_t)st.st_size);
	r = pread(fd, b, (size_t)st.st_size, 0);
	end = (uint64_t)st.st_size - 8;
	if (r != st.st_size || gguf_ld64(b + end, 0) != gguf_hash(b,
	    (size_t)end))
		goto out;
	if (memcmp(b, SET_MAGIC, 8) == 0)
		kinds = 1;
	else if (memcmp(b, SET_MAGIC1, 8) == 0)
		kinds = 0;
	else
		goto out;
	n = gguf_ld64(b + 8, 0);
	if (n > 65535)
		goto bad;
	e = xcalloc((size_t)n + 1, sizeof *e);
	at = 16;
	for (i = 0; i < n; i++)
		if (journal_entry(b, end, kinds, &at, &e[i]) != 0)
			goto bad;
	if (at != end)
		goto bad;
	*out = e;
	*nout = n;
	e = NULL;
	rc = 0;
	goto out;
bad:
	/* Whole and checked, yet not understood: never guess. */
	rc = gguf_errf(err, -1, "the set's journal is not understood: not "
	    "rolling back (the journal is kept)");
out:
	if (e != NULL) {
		for (i = 0; i < n; i++)
			entry_free(&e[i]);
		free(e);
	}
	free(b);
	close(fd);
	return rc;
}

/*
 * Whether st is the shard the entry saved: its inode, size and time (not
 * its device number, which a reboot after a crash may change).
 */
static int
is_old(const struct stat *st, const struct entry *e)
{
	return (uint64_t)st->st_ino == e->ino &&
	    (uint64_t)st->st_size == e->size &&
	    (uint64_t)st->st_mtim.tv_sec == e->mt_sec &&
	    (uint64_t)st->st_mtim.tv_nsec == e->mt_nsec;
}

static const char *
base_name(const char *path)
{
	return strrchr(path, '/') != NULL ? strrchr(path, '/') + 1 : path;
}

/*
 * Why the shard (identity st, header region r) is not the file the
 * in-place entry e was made for, or NULL if it is: the same file of the
 * same size, its header region the same outside the range and inside it
 * made of old or new bytes only (a torn write leaves some of each).
 */
static const char *
not_saved_here(const struct entry *e, const struct stat *st, const uint8_t *r)
{
	if ((uint64_t)st->st_ino != e->ino)	/* the device may change */
		return "it is another file (its inode differs)";
	if ((uint64_t)st->st_size != e->size)
		return "its size differs";
	if (r == NULL)
		return NULL;
	return gguf_region_check(r, e->off, e->len, e->region, e->h_pre,
	    e->h_post, e->old, e->nw);
}

/* Puts the old bytes of a shard saved in place back, if it needs them. */
static int
undo_inplace(const struct entry *e, struct gguf_err *err)
{
	struct stat	 st;
	const char	*why, *name = base_name(e->target);
	uint8_t		*r = NULL;
	int		 fd, rc = -1;

	fd = gguf_io_open(e->target, O_RDWR | O_CLOEXEC, 0);
	if (fd < 0 || fstat(fd, &st) != 0) {
		gguf_errf(err, -1, "%s: %s", name, strerror(errno));
		goto out;
	}
	if ((why = not_saved_here(e, &st, NULL)) == NULL) {
		if ((r = gguf_read_region(fd, e->region, err)) == NULL)
			goto out;
		why = not_saved_here(e, &st, r);
	}
	if (why != NULL) {
		gguf_errf(err, -1, "%s: it is not the file the journal saved "
		    "(%s): not rolling back (the journal is kept)", name, why);
		goto out;
	}
	if (memcmp(r + e->off, e->old, (size_t)e->len) != 0) {
		if (gguf_pwrite_all(fd, e->old, e->len, e->off, err) != 0)
			goto out;
		if (gguf_io_fsync(fd) != 0) {
			gguf_errf(err, -1, "%s: fsync: %s", name,
			    strerror(errno));
			goto out;
		}
	}
	rc = 0;
out:
	if (fd >= 0 && gguf_io_close(fd) != 0 && rc == 0)
		rc = gguf_errf(err, -1, "%s: close: %s", name,
		    strerror(errno));
	free(r);
	return rc;
}

/*
 * Puts one shard back: its backup renamed over it (or just removed if
 * the shard is still the old file), its new file removed.
 */
static int
undo_entry(const struct entry *e, struct gguf_err *err)
{
	struct stat	b, t;
	const char	*name = base_name(e->target);

	if (e->inplace)
		return undo_inplace(e, err);
	if (lstat(e->bak, &b) == 0) {
		if (!is_old(&b, e))
			return gguf_errf(err, -1, "%s: its backup is not the "
			    "file the journal saved: not rolling back (the "
			    "journal is kept)", name);
		if (stat(e->target, &t) == 0 && t.st_dev == b.st_dev &&
		    t.st_ino == b.st_ino) {
			if (gguf_io_unlink(e->bak) != 0)
				return gguf_errf(err, -1, "%s: cannot remove "
				    "its backup: %s", name, strerror(errno));
		} else if (gguf_io_rename(e->bak, e->target) != 0)
			return gguf_errf(err, -1, "%s: cannot put the old "
			    "shard back: %s", name, strerror(errno));
	} else if (errno != ENOENT)
		return gguf_errf(err, -1, "%s: its backup: %s", name,
		    strerror(errno));
	else if (stat(e->target, &t) != 0 || !is_old(&t, e))
		return gguf_errf(err, -1, "%s: it is not the file the journal "
		    "saved and it has no backup: not rolling back (the journal "
		    "is kept)", name);
	if (gguf_io_unlink(e->tmp) != 0 && errno != ENOENT)
		return gguf_errf(err, -1, "%s: cannot remove the new file: %s",
		    name, strerror(errno));
	return 0;
}

/* strcmp for qsort and bsearch over an array of strings. */
static int
str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The paths a set journal may name: each shard of the set path is a
 * shard of, as named and as its links resolve, sorted; NULL if path is
 * not named as a shard of a set.
 */
static char **
set_names(const char *path, size_t *nout)
{
	char		**v;
	size_t		  plen, n = 0;
	unsigned	  no, count, k;

	if (gguf_set_name(path, &plen, &no, &count) != 0)
		return NULL;
	v = xcalloc((size_t)count * 2, sizeof *v);
	for (k = 1; k <= count; k++) {
		v[n] = gguf_set_path(path, plen, k, count);
		v[n + 1] = gguf_resolve(v[n]);
		n += 2;
	}
	qsort(v, n, sizeof *v, str_cmp);
	*nout = n;
	return v;
}

/*
 * Whether tmp is a name of a new file that a save of target makes:
 * ".BASE.ggufed-" and digits, hex digits and dashes, in target's folder.
 */
static int
is_temp_of(const char *tmp, const char *target)
{
	const char	*base = base_name(target), *s;
	size_t		 dlen = (size_t)(base - target), blen = strlen(base);

	if (strncmp(tmp, target, dlen) != 0 || tmp[dlen] != '.' ||
	    strncmp(tmp + dlen + 1, base, blen) != 0 ||
	    strncmp(tmp + dlen + 1 + blen, ".ggufed-", 8) != 0)
		return 0;
	s = tmp + dlen + 1 + blen + 8;
	if (*s == '\0')
		return 0;
	return strspn(s, "0123456789abcdef-") == strlen(s);
}

/*
 * Why entry e names a path that is not the set's own, or NULL: its shard
 * must be one of names (a shard of the set, see set_names), its new file
 * and its backup names of that shard's own in its folder.
 */
static const char *
not_of_set(const struct entry *e, char **names, size_t nnames)
{
	const char	*t = e->target;
	char		*bak;
	int		 bad;

	if (bsearch(&t, names, nnames, sizeof *names, str_cmp) == NULL)
		return e->target;
	if (e->inplace)
		return NULL;
	if (!is_temp_of(e->tmp, e->target))
		return e->tmp;
	bak = suffixed(e->target, BACKUP_SUFFIX);
	bad = strcmp(bak, e->bak) != 0;
	free(bak);
	return bad ? e->bak : NULL;
}

/* Rolls back entries e[0..n) and removes the journal. */
static int
undo_all(const char *jpath, const struct entry *e, uint64_t n,
    struct gguf_err *err)
{
	uint64_t	i;

	for (i = 0; i < n; i++)
		if (undo_entry(&e[i], err) != 0)
			return -1;
	for (i = 0; i < n; i++)
		if (!e[i].inplace && gguf_sync_dir(e[i].target, err) != 0)
			return -1;
	if (gguf_io_unlink(jpath) != 0)
		return gguf_errf(err, -1, "cannot remove the set's journal: %s",
		    strerror(errno));
	return gguf_sync_dir(jpath, err);
}

int
gguf_set_recover(const char *path, const char *jpath, struct gguf_err *err)
{
	struct savelock	 lk;
	struct stat	 st;
	struct entry	*e;
	uint64_t	 n, i;
	size_t		 nnames = 0, k;
	const char	*bad;
	char		*first, **names = NULL, whose[160];
	int		 rc;

	/* Before anything, the lock included: a journal not ours is left. */
	if (lstat(jpath, &st) == 0 && gguf_not_ours(&st, whose,
	    sizeof whose) != NULL)
		return gguf_errf(err, -1, "the set's journal is %s: not "
		    "trusted, nothing was touched (remove it if it is not "
		    "yours)", whose);
	first = xstrndup(jpath, strlen(jpath) - strlen(JOURNAL_SUFFIX));
	if (gguf_lock_take(first, &lk, err) != 0) {
		free(first);
		return -1;
	}
	rc = journal_read(jpath, &e, &n, err);
	if (rc == 0) {
		/* Every path it names is one of the set's own. */
		if ((names = set_names(path, &nnames)) == NULL)
			names = set_names(first, &nnames);
		bad = names == NULL ? "" : NULL;
		for (i = 0; bad == NULL && i < n; i++)
			bad = not_of_set(&e[i], names, nnames);
		if (bad != NULL) {
			if (names == NULL)
				gguf_errf(err, -1, "the set's journal is not "
				    "beside a file named as a set's first "
				    "shard: not rolling back, nothing was "
				    "touched (run recover on the set's first "
				    "shard by its name)");
			else
				gguf_errf(err, -1, "the set's journal names "
				    "\"%.*s\", which is not a shard of the set "
				    "nor one of its own temporary or backup "
				    "names: not trusted, nothing was touched",
				    200, bad);
			rc = -1;
		} else
			rc = undo_all(jpath, e, n, err) == 0 ? 1 : -1;
		for (i = 0; i < n; i++)
			entry_free(&e[i]);
		free(e);
		for (k = 0; k < nnames; k++)
			free(names[k]);
		free(names);
	} else if (rc == 1) {
		/* Cut before any shard was touched. */
		if (gguf_io_unlink(jpath) != 0)
			rc = gguf_errf(err, -1, "cannot remove the journal: %s",
			    strerror(errno));
		else {
			gguf_sync_dir(jpath, err);
			rc = 2;
		}
	}
	gguf_lock_release(&lk);
	free(first);
	return rc;
}

/* ------------------------------------------------------------------ save */

struct setprog {
	const struct gguf_save_opts	*o;
	uint64_t			 base;
	uint64_t			 total;
};

static int
set_progress(void *arg, uint64_t done, uint64_t total)
{
	struct setprog	*sp = arg;

	(void)total;
	return sp->o->progress(sp->o->arg, sp->base + done, sp->total);
}

/*
 * Writes the new bytes of a shard saved in place and fsyncs it, unless
 * it is no longer the file that was read. GGUFED_FAULT=set-torn writes
 * half of them and ends the process, as a crash in the write would.
 */
static int
write_inplace(const struct entry *e, struct gguf_err *err)
{
	struct stat	 st;
	int		 fd, rc = -1;

	fd = gguf_io_open(e->target, O_WRONLY | O_CLOEXEC, 0);
	if (fd < 0 || fstat(fd, &st) != 0) {
		gguf_errf(err, -1, "%s: %s", base_name(e->target),
		    strerror(errno));
		goto out;
	}
	if (not_saved_here(e, &st, NULL) != NULL ||
	    (uint64_t)st.st_mtim.tv_sec != e->mt_sec ||
	    (uint64_t)st.st_mtim.tv_nsec != e->mt_nsec) {
		gguf_errf(err, -1, "%s changed on disk since it was read: not "
		    "writing it", base_name(e->target));
		goto out;
	}
	gguf_fault_torn("set-torn", fd, e->nw, e->len, e->off);
	if (gguf_pwrite_all(fd, e->nw, e->len, e->off, err) != 0)
		goto out;
	if (gguf_io_fsync(fd) != 0) {
		gguf_errf(err, -1, "%s: fsync: %s", base_name(e->target),
		    strerror(errno));
		goto out;
	}
	rc = 0;
out:
	if (fd >= 0 && gguf_io_close(fd) != 0 && rc == 0)
		rc = gguf_errf(err, -1, "%s: close: %s", base_name(e->target),
		    strerror(errno));
	return rc;
}

/* The entries of the changed shards, for undo_all. */
static struct entry *
changed_entries(struct shard *sh, unsigned n, uint64_t *cnt)
{
	struct entry	*e = xcalloc(n, sizeof *e);
	unsigned	 k;

	*cnt = 0;
	for (k = 0; k < n; k++)
		if (sh[k].changed)
			e[(*cnt)++] = sh[k].e;	/* shallow: sh owns them */
	return e;
}

int
gguf_set_save(struct gguf_doc *d, const struct gguf_save_opts *o,
    struct gguf_save_info *info, struct gguf_err *err)
{
	struct gguf_save_opts	 so = *o;
	struct setprog		 sp;
	struct shard		*sh;
	struct entry		*ents = NULL;
	struct stat		 st;
	struct gguf_err		 e2;
	uint64_t		 ne;
	unsigned		 n, k;
	char			*jpath = NULL;
	int			 rc = -1, journal = 0;

	memset(info, 0, sizeof *info);
	if (prepare(d, o, 1, &sh, &n, info, err) != 0)
		return -1;
	fill_info(sh, n, info);
	if (info->shards_written == 0) {
		rc = 0;
		goto out;
	}
	if (!o->force && gguf_file_changed(d->f, GGUF_CHANGE_CONTENT, err)) {
		char	msg[sizeof err->msg + 128];

		snprintf(msg, sizeof msg, "%s: not overwriting the set (reopen "
		    "it, or force)", err->msg);
		gguf_errf(err, -1, "%s", msg);
		goto out;
	}
	for (k = 0; k < n; k++) {
		if (!sh[k].changed)
			continue;
		if (stat(sh[k].e.target, &st) != 0) {
			gguf_errf(err, -1, "%s: %s", sh[k].e.target,
			    strerror(errno));
			goto out;
		}
		if (!o->force && gguf_read_only(&st, sh[k].e.target)) {
			gguf_errf(err, -1, "shard %u of %u is read-only (mode "
			    "%04o): not writing it unless forced", k + 1, n,
			    (unsigned)(st.st_mode & 07777));
			goto out;
		}
		sh[k].e.dev = (uint64_t)st.st_dev;
		sh[k].e.ino = (uint64_t)st.st_ino;
		sh[k].e.size = (uint64_t)st.st_size;
		sh[k].e.mt_sec = (uint64_t)st.st_mtim.tv_sec;
		sh[k].e.mt_nsec = (uint64_t)st.st_mtim.tv_nsec;
		if (sh[k].e.inplace) {
			if (sh[k].e.size < sh[k].e.region) {
				gguf_errf(err, -1, "shard %u of %u changed on "
				    "disk since it was read: not writing it",
				    k + 1, n);
				goto out;
			}
			continue;
		}
		sh[k].e.bak = suffixed(sh[k].e.target, BACKUP_SUFFIX);
		/* What a save that committed and then died left. */
		if (unlink(sh[k].e.bak) != 0 && errno != ENOENT) {
			gguf_errf(err, -1, "cannot remove %s: %s", sh[k].e.bak,
			    strerror(errno));
			goto out;
		}
	}

	/* 1. The new shards, beside the old ones. */
	sp.o = o;
	sp.base = 0;
	sp.total = info->file_size;
	if (o->progress != NULL) {
		so.progress = set_progress;
		so.arg = &sp;
	}
	for (k = 0; k < n; k++) {
		if (!sh[k].changed || sh[k].e.inplace)
			continue;
		if (gguf_write_temp(sh[k].d, &sh[k].p, sh[k].e.target, &so,
		    info, &sh[k].e.tmp, err) != 0)
			goto out;
		sp.base += sh[k].p.file_size;
	}
	if (!o->force && gguf_file_changed(d->f, GGUF_CHANGE_CONTENT, err))
		goto out;

	/* 2. The journal. */
	jpath = suffixed(sh[0].e.target, JOURNAL_SUFFIX);
	if (journal_write(jpath, sh, n, err) != 0)
		goto out;
	journal = 1;
	ents = changed_entries(sh, n, &ne);
	if (gguf_fault("set-journal-written", err) != 0)
		goto rollback;

	/* 3. The backups. */
	for (k = 0; k < n; k++) {
		if (!sh[k].changed || sh[k].e.inplace)
			continue;
		if (gguf_io_link(sh[k].e.target, sh[k].e.bak) != 0) {
			gguf_errf(err, -1, "cannot link a backup of shard %u: "
			    "%s", k + 1, strerror(errno));
			goto rollback;
		}
	}
	for (k = 0; k < n; k++)
		if (sh[k].changed && !sh[k].e.inplace &&
		    gguf_sync_dir(sh[k].e.target, err) != 0)
			goto rollback;

	/* 4. The new shards in place: renamed, or their headers written. */
	for (k = 0; k < n; k++) {
		if (!sh[k].changed)
			continue;
		if (sh[k].e.inplace) {
			if (write_inplace(&sh[k].e, err) != 0)
				goto rollback;
			if (gguf_fault("set-shard-written", err) != 0)
				goto rollback;
			continue;
		}
		if (gguf_io_rename(sh[k].e.tmp, sh[k].e.target) != 0) {
			gguf_errf(err, -1, "rename of shard %u: %s", k + 1,
			    strerror(errno));
			goto rollback;
		}
		if (gguf_fault("set-shard-renamed", err) != 0)
			goto rollback;
	}
	for (k = 0; k < n; k++)
		if (sh[k].changed && !sh[k].e.inplace &&
		    gguf_sync_dir(sh[k].e.target, err) != 0)
			goto rollback;

	/* 5. The commit, then the backups go. */
	if (gguf_io_unlink(jpath) != 0) {
		gguf_errf(err, -1, "cannot remove the set's journal: %s",
		    strerror(errno));
		goto rollback;
	}
	journal = 0;
	if (gguf_sync_dir(jpath, err) != 0) {
		/* Saved; whether the commit is durable is not known. */
		char	msg[sizeof err->msg + 128];

		snprintf(msg, sizeof msg, "the set was saved, but %s",
		    err->msg);
		gguf_errf(err, -1, "%s", msg);
		goto out;
	}
	for (k = 0; k < n; k++)
		if (sh[k].changed && !sh[k].e.inplace &&
		    gguf_io_unlink(sh[k].e.bak) != 0 &&
		    errno != ENOENT)
			gguf_notice(info, "the backup %s could not be removed "
			    "(%s): 'ggufed recover' removes it",
			    sh[k].e.bak, strerror(errno));
	rc = 0;
	goto out;

rollback:
	memset(&e2, 0, sizeof e2);
	if (undo_all(jpath, ents, ne, &e2) == 0)
		journal = 0;
out:
	if (journal && rc != 0) {
		char	msg[sizeof err->msg + 128];

		snprintf(msg, sizeof msg, "%s; the set may be half saved: run "
		    "'ggufed recover' on it", err->msg);
		gguf_errf(err, -1, "%s", msg);
		/* The files the journal names stay for the recovery. */
		for (k = 0; k < n; k++) {
			free(sh[k].e.tmp);
			sh[k].e.tmp = NULL;
		}
	}
	free(ents);
	free(jpath);
	shards_free(sh, n);
	return rc;
}
