/*
 * set.c - a split model opened as one: finding the shards by name,
 * opening them, joining them (reader.c's gguf_join) and checking the set
 * as llama.cpp's loader and gguf-split see it.
 *
 * The facts used here, from llama.cpp: shard names are
 * "%s-%05d-of-%05d.gguf" of the prefix, the 1-based shard number and the
 * count (llama_split_path); the loader reads split.count (u16) from the
 * first shard, refuses a first file whose split.no (u16) is not 0, builds
 * the other names from the first one's prefix, loads every tensor of every
 * shard and refuses a tensor name seen twice. It reads no other metadata
 * from shards 2..N. gguf-split writes split.tensors.count (i32) as the
 * tensors of the whole set, in every shard.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "doc.h"
#include "hf.h"
#include "http.h"
#include "io.h"
#include "set.h"

#define SPLIT_NO	"split.no"
#define SPLIT_COUNT	"split.count"
#define SPLIT_TENSORS	"split.tensors.count"

static const char *
base_name(const char *path)
{
	const char	*s = strrchr(path, '/');

	return s != NULL ? s + 1 : path;
}

/* Reads a run of at least five digits ending at end (exclusive), backwards. */
static int
digits_back(const char *s, size_t end, size_t *start, unsigned *v)
{
	size_t		i = end;
	unsigned long	n = 0, mul = 1;

	while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9') {
		if (end - i >= 9)
			return -1;
		n += (unsigned long)(s[i - 1] - '0') * mul;
		mul *= 10;
		i--;
	}
	if (end - i < 5 || n > 65535)
		return -1;
	*start = i;
	*v = (unsigned)n;
	return 0;
}

int
gguf_set_name(const char *path, size_t *plen, unsigned *no, unsigned *count)
{
	static const char	ext[] = ".gguf", of[] = "-of-";
	size_t			n = strlen(path), i, j;
	unsigned		a, b;

	if (n < sizeof ext - 1 ||
	    strcmp(path + n - (sizeof ext - 1), ext) != 0)
		return -1;
	if (digits_back(path, n - (sizeof ext - 1), &i, &b) != 0 ||
	    i < sizeof of - 1 ||
	    memcmp(path + i - (sizeof of - 1), of, sizeof of - 1) != 0)
		return -1;
	if (digits_back(path, i - (sizeof of - 1), &j, &a) != 0 || j < 2 ||
	    path[j - 1] != '-' || path[j - 2] == '/')
		return -1;
	if (a < 1 || a > b)
		return -1;
	*plen = j - 1;
	*no = a;
	*count = b;
	return 0;
}

char *
gguf_set_path(const char *prefix, size_t plen, unsigned no, unsigned count)
{
	size_t	n = plen + 32;
	char	*s = xmalloc(n);

	snprintf(s, n, "%.*s-%05u-of-%05u.gguf", (int)plen, prefix, no,
	    count);
	return s;
}

uint64_t
gguf_set_size(const struct gguf_file *f)
{
	uint64_t	total = 0;
	size_t		k;

	if (gguf_n_shards(f) == 0)
		return gguf_layout(f)->file_size;
	for (k = 0; k < gguf_n_shards(f); k++)
		if (gguf_shard(f, k) != NULL)
			total += gguf_layout(gguf_shard(f, k))->file_size;
	return total;
}

/* ------------------------------------------------------------------ checks */

static void finding(struct gguf_file *, int, int64_t, const char *,
    const char *, ...) __attribute__((format(printf, 5, 6)));

/*
 * A finding about the file path: at an offset of it, the finding names
 * the file; else its text does ("NAME: what").
 */
static void
finding(struct gguf_file *f, int level, int64_t off, const char *path,
    const char *fmt, ...)
{
	va_list	ap;
	char	msg[400], buf[512];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (off >= 0)
		snprintf(buf, sizeof buf, "%s", msg);
	else
		snprintf(buf, sizeof buf, "%s: %s", base_name(path), msg);
	gguf_file_warn_in(f, level, off < 0 ? NULL : path,
	    off < 0 ? GGUF_NO_OFFSET : (uint64_t)off, buf);
}

/* A split key of a shard: 1 with its value, 0 if absent, -1 if mistyped. */
static int
split_key(struct gguf_file *s, const char *key, uint32_t type, int64_t *v,
    int64_t *off)
{
	int64_t		 i = gguf_kv_find(s, key, strlen(key));
	struct gguf_kv	*kv;

	*off = -1;
	if (i < 0)
		return 0;
	kv = gguf_kv_at(s, (uint64_t)i);
	*off = (int64_t)kv->off;
	if (kv->val.type != type || gguf_val_i64(&kv->val, v) != 0)
		return -1;
	return 1;
}

static void
check_set(struct gguf_file *f, struct gguf_file **sh, char **paths,
    unsigned count)
{
	uint64_t	 total = 0, i, n_other;
	int64_t		 v, off, align0 = GGUF_DEFAULT_ALIGNMENT;
	unsigned	 k, *seen = xcalloc(count, sizeof *seen);
	int		 rc, all = 1;
	const char	*firstkey;
	char		 nm[128];
	struct gguf_kv	*kv;

	for (k = 0; k < count; k++) {
		if (sh[k] == NULL)
			all = 0;
		else
			total += gguf_layout(sh[k])->n_tensors;
	}
	for (k = 0; k < count; k++) {
		if (sh[k] == NULL)
			continue;
		rc = split_key(sh[k], SPLIT_NO, GGUF_VT_U16, &v, &off);
		if (rc == 0)
			finding(f, GGUF_W_ERROR, -1, paths[k], "no split.no "
			    "key: this file is not a shard of a split model "
			    "(shard %u of %u by its name)", k + 1, count);
		else if (rc < 0)
			finding(f, GGUF_W_ERROR, off, paths[k], "split.no is "
			    "not a u16 (llama.cpp refuses it)");
		else {
			if (v >= 0 && (uint64_t)v < count)
				seen[v]++;
			if (v != (int64_t)k)
				finding(f, GGUF_W_ERROR, off, paths[k],
				    "split.no is %lld but the file is named "
				    "as shard %u of %u (split.no %u)",
				    (long long)v, k + 1, count, k);
		}
		rc = split_key(sh[k], SPLIT_COUNT, GGUF_VT_U16, &v, &off);
		if (rc == 0)
			finding(f, GGUF_W_ERROR, -1, paths[k], "no split.count "
			    "key (the set has %u shards)", count);
		else if (rc < 0)
			finding(f, GGUF_W_ERROR, off, paths[k], "split.count "
			    "is not a u16 (llama.cpp refuses it)");
		else if (v != (int64_t)count)
			finding(f, GGUF_W_ERROR, off, paths[k], "split.count "
			    "is %lld but the set has %u shards by its file "
			    "names", (long long)v, count);
		rc = split_key(sh[k], SPLIT_TENSORS, GGUF_VT_I32, &v, &off);
		if (rc == 0)
			finding(f, GGUF_W_WARN, -1, paths[k], "no "
			    "split.tensors.count key");
		else if (rc < 0)
			finding(f, GGUF_W_ERROR, off, paths[k],
			    "split.tensors.count is not an i32");
		else if (all && (v < 0 || (uint64_t)v != total))
			finding(f, GGUF_W_ERROR, off, paths[k],
			    "split.tensors.count is %lld but the set holds "
			    "%llu tensors", (long long)v,
			    (unsigned long long)total);
		rc = split_key(sh[k], "general.alignment", GGUF_VT_U32, &v,
		    &off);
		if (k == 0)
			align0 = rc == 1 ? v : GGUF_DEFAULT_ALIGNMENT;
		else if (rc != 0 && (rc < 0 || v != align0))
			finding(f, GGUF_W_WARN, off, paths[k], "general."
			    "alignment is not the first shard's %lld",
			    (long long)align0);
		if (k == 0)
			continue;
		n_other = 0;
		firstkey = NULL;
		for (i = 0; i < gguf_layout(sh[k])->n_kv; i++) {
			kv = gguf_kv_at(sh[k], i);
			if (kv->key.n >= 6 && memcmp(kv->key.p, "split.", 6) == 0)
				continue;
			if (n_other++ == 0) {
				firstkey = gguf_pname(kv->key.p,
				    (size_t)kv->key.n, nm, sizeof nm);
				off = (int64_t)kv->off;
			}
		}
		if (n_other > 0)
			finding(f, GGUF_W_WARN, off, paths[k], "%llu metadata "
			    "key%s besides split.* (\"%s\"%s): llama.cpp "
			    "reads metadata from the first shard only",
			    (unsigned long long)n_other, n_other == 1 ? "" :
			    "s", firstkey, n_other > 1 ? ", ..." : "");
	}
	for (k = 0; k < count; k++) {
		if (seen[k] > 1)
			finding(f, GGUF_W_ERROR, -1, paths[0], "split.no %u is "
			    "in %u shards of the set", k, seen[k]);
		else if (seen[k] == 0 && sh[k] != NULL)
			finding(f, GGUF_W_ERROR, -1, paths[0], "no shard of "
			    "the set has split.no %u (shard %u's, counted from "
			    "0)", k, k + 1);
	}
	free(seen);
}

/* ------------------------------------------------------------------- open */

/*
 * The shards that are not there, said once: one shard by its name, more
 * as their number and their runs ("2 to 7, 9, 12 to 65535"), the list
 * cut short past a line's worth.
 */
#define MISSING(k)	(sh[k] == NULL && why[k] == NULL)

static void
say_missing(struct gguf_file *f, struct gguf_file **sh, char **why,
    char **paths, unsigned count, unsigned n_missing)
{
	char		 runs[200], num[32];
	size_t		 len = 0;
	const char	*gone = gguf_is_url(paths[0]) ? "not on the server" :
			    "no such file";
	unsigned	 k, a;
	int		 w;

	if (n_missing == 1) {
		for (k = 1; !MISSING(k); k++)
			;
		finding(f, GGUF_W_ERROR, -1, paths[k], "missing: shard %u of "
		    "%u of the set (%s)", k + 1, count, gone);
		return;
	}
	runs[0] = '\0';
	for (k = 1; k < count; k++) {
		if (!MISSING(k))
			continue;
		/* k is the first of a run of missing shards */
		for (a = k; k + 1 < count && MISSING(k + 1); k++)
			;
		if (a == k)
			snprintf(num, sizeof num, "%u", a + 1);
		else
			snprintf(num, sizeof num, "%u to %u", a + 1, k + 1);
		if (len + strlen(num) + 8 >= sizeof runs) {
			snprintf(runs + len, sizeof runs - len, ", ...");
			break;
		}
		w = snprintf(runs + len, sizeof runs - len, "%s%s",
		    len > 0 ? ", " : "", num);
		len += (size_t)w;
	}
	finding(f, GGUF_W_ERROR, -1, paths[0], "missing: %u shards of %u of "
	    "the set (%s): %s", n_missing, count, gone, runs);
}

#undef MISSING

static struct gguf_file *
open_alone(const char *path, int named, struct gguf_err *err)
{
	struct gguf_file	*f = gguf_open(path, err);
	int64_t			 v, off;
	char			 msg[256];

	if (f == NULL || named)
		return f;
	if (split_key(f, SPLIT_COUNT, GGUF_VT_U16, &v, &off) == 1 && v > 1) {
		snprintf(msg, sizeof msg, "split.count is %lld but the file "
		    "name does not end in -NNNNN-of-%05lld.gguf: llama.cpp "
		    "cannot find the other shards", (long long)v,
		    (long long)v);
		gguf_file_warn(f, GGUF_W_ERROR, (uint64_t)off, msg);
	}
	return f;
}

/*
 * A server's file named as shard no of count whose set's first shard
 * (first, taken) says split.count is v (at offset off): the file named,
 * alone, with that said.
 */
static struct gguf_file *
url_alone(const char *path, unsigned no, struct gguf_file *first, int64_t v,
    unsigned count, uint64_t off, struct gguf_err *err)
{
	struct gguf_file	*f = first;
	char			 msg[300];

	if (no != 1) {
		gguf_close(first);
		if ((f = gguf_open(path, err)) == NULL)
			return NULL;
		off = GGUF_NO_OFFSET;
	}
	snprintf(msg, sizeof msg, "split.count of the set's first shard is "
	    "%lld but the file is named as shard %u of %u: the other shards "
	    "are not looked for", (long long)v, no, count);
	gguf_file_warn(f, GGUF_W_ERROR, off, msg);
	return f;
}

/* ------------------------------------------------ shards on every core */

/*
 * The shards of a local set are opened side by side: each is a file of
 * its own, and opening one (the system calls, the faults of its pages,
 * the walk of its tensor infos) waits on nothing another does. While the
 * first shard's large header (the vocabulary) is walked on the calling
 * thread, the others are opened on the rest of the cores, taken in turn
 * from a counter; the calling thread takes its share when it is done.
 * What each open says goes in its own slot, and the set is then put
 * together in shard order, as if opened one by one.
 */
#define OPENERS_MAX	8	/* threads besides the caller */

static unsigned	openers_max = OPENERS_MAX;	/* gguf_set_openers */

struct openers {
	char			**paths;
	struct gguf_file	**sh;
	struct gguf_err		 *e;
	unsigned		  count;
	unsigned		  next;		/* the next shard to take */
	pthread_t		  tid[OPENERS_MAX];
	unsigned		  n;		/* threads started */
};

static void
openers_take(struct openers *o)
{
	unsigned	k;

	while ((k = __atomic_fetch_add(&o->next, 1, __ATOMIC_RELAXED)) <
	    o->count)
		o->sh[k] = gguf_open_shard(o->paths[k], &o->e[k]);
}

static void *
openers_main(void *arg)
{
	openers_take(arg);
	return NULL;
}

/*
 * Starts opening shards 2..count of a local set on other threads; none
 * where the process may run on one core only, or where a fault rule
 * counts calls (whose count would then fall on whichever thread came
 * first).
 *
 * The threads are kept off the caller's core. A new thread is woken on
 * the core of the thread that made it, and on a machine whose other cores
 * sleep it can stay there, taking turns with the caller, until the caller
 * is nearly done: measured on a 2-core virtual machine, the caller lost
 * 1.6 ms of the 1.7 ms its first shard took, and the set opened no faster
 * than one shard after another. Started elsewhere, it runs at once.
 */
static void
openers_start(struct openers *o, char **paths, struct gguf_file **sh,
    unsigned count, int parallel)
{
	pthread_attr_t	at, *pat = NULL;
	unsigned	want, i;
	long		ncpu;
#ifdef __linux__
	cpu_set_t	cpus;
	int		cur;
#endif

	memset(o, 0, sizeof *o);
	o->paths = paths;
	o->sh = sh;
	o->count = count;
	o->next = 1;
	o->e = xcalloc(count, sizeof *o->e);
	if (!parallel) {
		o->next = count;	/* the caller opens each in turn */
		return;
	}
	if (openers_max == 0 || gguf_io_counting())
		return;
#ifdef __linux__
	CPU_ZERO(&cpus);
	if (sched_getaffinity(0, sizeof cpus, &cpus) != 0)
		return;
	ncpu = CPU_COUNT(&cpus);
	cur = sched_getcpu();
	if (ncpu > 1 && cur >= 0 && cur < CPU_SETSIZE &&
	    CPU_ISSET(cur, &cpus) && pthread_attr_init(&at) == 0) {
		CPU_CLR(cur, &cpus);
		if (pthread_attr_setaffinity_np(&at, sizeof cpus, &cpus) == 0)
			pat = &at;
		else
			pthread_attr_destroy(&at);
	}
#else
	ncpu = sysconf(_SC_NPROCESSORS_ONLN);
#endif
	if (ncpu < 2)
		goto out;
	want = ncpu - 1 < openers_max ? (unsigned)(ncpu - 1) : openers_max;
	if (want > count - 1)
		want = count - 1;
	for (i = 0; i < want; i++) {
		if (pthread_create(&o->tid[i], pat, openers_main, o) != 0)
			break;
		o->n++;
	}
out:
	if (pat != NULL)
		pthread_attr_destroy(pat);
}

void
gguf_set_openers(unsigned n)
{
	openers_max = n < OPENERS_MAX ? n : OPENERS_MAX;
}

/*
 * Takes no more shards and waits for those being opened (left in sh, for
 * the caller to close); with done, also frees what the opening said.
 * Again is a no-op.
 */
static void
openers_stop(struct openers *o, int done)
{
	unsigned	i;

	__atomic_store_n(&o->next, o->count, __ATOMIC_RELAXED);
	for (i = 0; i < o->n; i++)
		pthread_join(o->tid[i], NULL);
	o->n = 0;
	if (done) {
		free(o->e);
		o->e = NULL;
	}
}

/* Opens what is left on this thread and waits for the others. */
static void
openers_finish(struct openers *o)
{
	openers_take(o);
	openers_stop(o, 0);
}

struct gguf_file *
gguf_set_open(const char *path, unsigned flags, struct gguf_err *err)
{
	struct gguf_file	**sh, *f;
	struct gguf_err		 e, *ek;
	struct openers		 op;
	char			**paths, **why, text[400];
	size_t			 plen;
	unsigned		 no, count, k, n_missing = 0, stop = 0;
	size_t			 redo;
	int64_t			 v, off;
	int			 missing, remote;

	if (flags & GGUF_OPEN_ALONE)
		return gguf_open(path, err);
	if (gguf_hf_at_revision(path)) {
		/* its shards are named in the URL, which ends in the name */
		char	*url;

		if ((url = gguf_hf_resolve(path, err)) == NULL)
			return NULL;
		f = gguf_set_open(url, flags, err);
		free(url);
		return f;
	}
	if (gguf_set_name(path, &plen, &no, &count) != 0)
		return open_alone(path, 0, err);
	if (count < 2)
		return open_alone(path, 1, err);
	sh = xcalloc(count, sizeof *sh);
	paths = xcalloc(count, sizeof *paths);
	for (k = 0; k < count; k++)
		paths[k] = gguf_set_path(path, plen, k + 1, count);
	/* On a server, one shard after the other (see below). */
	remote = gguf_is_url(paths[0]);
	openers_start(&op, paths, sh, count, !remote);
	memset(&e, 0, sizeof e);
	sh[0] = gguf_open(paths[0], &e);
	if (sh[0] != NULL &&
	    split_key(sh[0], SPLIT_COUNT, GGUF_VT_U16, &v, &off) == 0) {
		/* Named like a shard, but not split: a file of its own. */
		openers_stop(&op, 1);
		for (k = 0; k < count; k++) {
			gguf_close(sh[k]);
			free(paths[k]);
		}
		free(paths);
		free(sh);
		return open_alone(path, 1, err);
	}
	if (sh[0] != NULL && remote && split_key(sh[0], SPLIT_COUNT,
	    GGUF_VT_U16, &v, &off) == 1 && v != (int64_t)count) {
		/*
		 * On a server every shard asked for costs requests: the
		 * first shard's own split.count is trusted, and other shards
		 * are not looked for by a count it does not give.
		 */
		openers_stop(&op, 1);
		f = url_alone(path, no, sh[0], v, count, (uint64_t)off, err);
		for (k = 0; k < count; k++)
			free(paths[k]);
		free(paths);
		free(sh);
		return f;
	}
	if (sh[0] == NULL) {
		if (no == 1)
			gguf_errf(err, e.has_off ? (int64_t)e.off : -1, "%s",
			    e.msg);
		else
			gguf_errf(err, -1, "the set's first shard %s: %s",
			    base_name(paths[0]), e.msg);
		goto fail;
	}
	why = xcalloc(count, sizeof *why);
	/* the shards in order, as they were opened or are opened now */
	openers_finish(&op);
	for (k = 1; k < count; k++) {
		ek = &op.e[k];
		if (remote)
			sh[k] = gguf_open_shard(paths[k], ek);
		if (sh[k] != NULL)
			continue;
		missing = !ek->has_off && (strcmp(ek->msg, strerror(ENOENT))
		    == 0 || strncmp(ek->msg, GGUF_HTTP_NOT_FOUND,
		    strlen(GGUF_HTTP_NOT_FOUND)) == 0);
		if (missing)
			n_missing++;
		else if (ek->has_off && ek->off == 0)	/* not GGUF at all */
			snprintf(text, sizeof text, "%.380s", ek->msg);
		else
			gguf_err_text(ek, text, sizeof text);
		if (flags & GGUF_OPEN_STRICT) {
			gguf_errf(err, -1, "shard %u of %u, %s: %s", k + 1,
			    count, base_name(paths[k]), missing ? "missing" :
			    text);
			free(why);
			goto fail;
		}
		why[k] = missing ? NULL : xstrdup(text);
		if (remote) {
			/* a server's set: given up at its first shard lost */
			stop = k;
			break;
		}
	}
	while ((f = gguf_join(path, sh, paths, count, &redo)) == NULL) {
		/* a shard with a tensor name twice: as a file of its own */
		gguf_close(sh[redo]);
		memset(&e, 0, sizeof e);
		if ((sh[redo] = gguf_open(paths[redo], &e)) == NULL) {
			gguf_err_text(&e, text, sizeof text);
			why[redo] = xstrdup(text);
		}
	}
	if (stop > 0) {
		if (stop + 1 == count)
			text[0] = '\0';
		else if (stop + 2 == count)
			snprintf(text, sizeof text, "; shard %u was not "
			    "asked for", count);
		else
			snprintf(text, sizeof text, "; shards %u to %u were "
			    "not asked for", stop + 2, count);
		if (why[stop] == NULL)
			finding(f, GGUF_W_ERROR, -1, paths[stop], "missing: "
			    "shard %u of %u of the set (not on the server)%s",
			    stop + 1, count, text);
		else
			finding(f, GGUF_W_ERROR, -1, paths[stop], "shard %u "
			    "of %u: %.300s%s", stop + 1, count, why[stop],
			    text);
		free(why[stop]);
		why[stop] = NULL;
	} else if (n_missing > 0)
		say_missing(f, sh, why, paths, count, n_missing);
	for (k = 1; k < count; k++)
		if (why[k] != NULL) {
			finding(f, GGUF_W_ERROR, -1, paths[k], "%s", why[k]);
			free(why[k]);
		}
	free(why);
	openers_stop(&op, 1);
	check_set(f, sh, paths, count);
	return f;
fail:
	openers_stop(&op, 1);
	for (k = 0; k < count; k++) {
		gguf_close(sh[k]);
		free(paths[k]);
	}
	free(sh);
	free(paths);
	return NULL;
}

/* ------------------------------------------------------- split and merge */

int
gguf_split_plan(struct gguf_doc *d, int mode, uint64_t max, int no_first,
    int **shard, unsigned *n, struct gguf_err *err)
{
	struct gguf_doc_tensor	 t;
	uint64_t		 i, live = 0, cur = 0, next, sz, in_cur = 0;
	unsigned		 k = no_first ? 1 : 0;
	int			*sh;

	if (max == 0)
		return gguf_errf(err, -1, "the limit must be at least 1");
	sh = xcalloc((size_t)(gguf_doc_n_tensors(d) + 1), sizeof *sh);
	for (i = 0; i < gguf_doc_n_tensors(d); i++) {
		gguf_doc_tensor(d, i, &t);
		if (t.flags & GGUF_ED_REMOVED) {
			sh[i] = -1;
			continue;
		}
		if (gguf_align_ok(t.nbytes, GGUF_DEFAULT_ALIGNMENT, &sz) != 0)
			sz = UINT64_MAX;
		if (mode == GGUF_SPLIT_BY_SIZE) {
			if (gguf_add_ok(cur, sz, &next) != 0)
				next = UINT64_MAX;
			if (next > max && in_cur > 0) {
				k++;
				in_cur = 0;
				cur = sz;
			} else
				cur = next;
		} else if (live > 0 && live % max == 0) {
			k++;
			in_cur = 0;
		}
		if (k > 65535) {
			free(sh);
			return gguf_errf(err, -1, "more than 65,535 shards");
		}
		sh[i] = (int)k;
		in_cur++;
		live++;
	}
	*shard = sh;
	*n = k + 1;
	return 0;
}

/* Sets key to a fresh scalar at the end of the keys (ggml's setter). */
static int
append_key(struct gguf_doc *d, const char *key, uint32_t type, uint64_t bits,
    unsigned *nedits, struct gguf_err *err)
{
	struct gguf_vbuild	 b;
	struct gguf_value	*v;
	int			 rc;

	if (gguf_doc_kv_find(d, key, strlen(key)) >= 0) {
		if (gguf_doc_remove(d, key, strlen(key), err) != 0)
			return -1;
		(*nedits)++;
	}
	gguf_vb_init(&b, type, 0);
	gguf_vb_bits(&b, bits);
	v = gguf_vb_finish(&b);
	rc = gguf_doc_set(d, key, strlen(key), v, GGUF_SET_ADD |
	    GGUF_SET_RETYPE | GGUF_SET_FORCE, NULL, err);
	gguf_value_unref(v);
	if (rc != 0)
		return -1;
	(*nedits)++;
	return 0;
}

int
gguf_split_shard(struct gguf_doc *d, const int *shard, unsigned k,
    unsigned n, unsigned *nedits, struct gguf_err *err)
{
	struct gguf_doc_kv	 kv;
	uint64_t		 i, total = 0, *gone;
	size_t			 ngone = 0;
	char			*name;
	int			 rc;

	*nedits = 0;
	for (i = 0; i < gguf_doc_n_tensors(d); i++)
		total += shard[i] >= 0;
	if (total > INT32_MAX)
		return gguf_errf(err, -1, "more tensors than "
		    "split.tensors.count (i32) can count");
	if (k > 0) {
		for (i = 0; i < gguf_doc_n_kv(d); i++) {
			gguf_doc_kv(d, i, &kv);
			if (kv.flags & GGUF_ED_REMOVED)
				continue;
			name = xmalloc((size_t)kv.key.n + 1);
			memcpy(name, kv.key.p, (size_t)kv.key.n);
			name[kv.key.n] = '\0';
			if (gguf_doc_remove(d, name, (size_t)kv.key.n,
			    err) != 0) {
				free(name);
				return -1;
			}
			free(name);
			(*nedits)++;
		}
	}
	gone = xcalloc((size_t)gguf_doc_n_tensors(d) + 1, sizeof *gone);
	for (i = 0; i < gguf_doc_n_tensors(d); i++)
		if (shard[i] >= 0 && shard[i] != (int)k)
			gone[ngone++] = i;
	rc = gguf_doc_tensors_remove(d, gone, ngone, err);
	free(gone);
	if (rc != 0)
		return -1;
	if (ngone > 0)
		(*nedits)++;
	if (append_key(d, SPLIT_NO, GGUF_VT_U16, k, nedits, err) != 0 ||
	    append_key(d, SPLIT_TENSORS, GGUF_VT_I32, total, nedits,
	    err) != 0 ||
	    append_key(d, SPLIT_COUNT, GGUF_VT_U16, n, nedits, err) != 0)
		return -1;
	return 0;
}

int
gguf_merge_prepare(struct gguf_doc *d, unsigned *nedits,
    struct gguf_err *err)
{
	*nedits = 0;
	return append_key(d, SPLIT_COUNT, GGUF_VT_U16, 0, nedits, err);
}

int
gguf_set_key_kept(struct gguf_doc *d, const char *key, size_t klen,
    struct gguf_err *err)
{
	char	buf[128];

	if (gguf_n_shards(gguf_doc_file(d)) == 0 || klen < 6 ||
	    memcmp(key, "split.", 6) != 0)
		return 0;
	return gguf_errf(err, -1, "\"%s\": the split keys of a set are kept "
	    "by ggufed (open the shard alone with --shard to edit them)",
	    gguf_pname(key, klen, buf, sizeof buf));
}
