/*
 * hash.c - `ggufed hash [--xxh64] [--xxh3] [--sha1] [--sha256] [--uuid]
 * [--all] [--no-layer] [--check MANIFEST] [--json] FILE...` and
 * `ggufed hash --file FILE...`: proof of what a model's tensor data is.
 *
 * The text is llama.cpp's gguf-hash's, so manifests go both ways: a line
 * per tensor and kind, in file order,
 *
 *	xxh64     f66e9cd66a4396a0  model.gguf:blk.0.attn_q.weight
 *
 * then a line per kind over the data of every tensor in that order
 * ("xxh64  HEX  model.gguf"; uuid is only such a line). --check reads a
 * manifest written by either tool and adds "  -  Ok", "  -  Mismatch" or
 * "  -  Not Found" to each line. Entries are matched by kind and tensor
 * name: the manifest may name the file by another path or name. Exit 0
 * when every entry matches, 1 on a mismatch or a tensor missing on
 * either side, 2 on trouble (a file or the manifest unreadable, usage).
 * --file prints each file's whole SHA-256 as sha256sum does (the id
 * the Hub shows for a file stored with Git LFS).
 *
 * A shard of a split model stands for its set, hashed as one model: each
 * tensor line names the shard that holds it, the model lines (named as
 * given) cover every tensor of the set, as the merged file's do.
 * --shard (--no-set) hashes the file alone.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "hash.h"
#include "http.h"
#include "set.h"

#define EXIT_DIFFER	1
#define EXIT_TROUBLE	2
#define MAX_LINE	((size_t)64 << 10) /* bytes of a manifest line */

/* Kinds in the order llama-gguf-hash writes them. */
static const int	kind_order[] = {
	GGUF_H_XXH64, GGUF_H_XXH3, GGUF_H_SHA1, GGUF_H_SHA256, GGUF_H_UUID
};
/* The kind picked when checking without one: the strongest present. */
static const int	kind_strength[] = {
	GGUF_H_SHA256, GGUF_H_SHA1, GGUF_H_XXH64, GGUF_H_XXH3, GGUF_H_UUID
};

struct hopts {
	unsigned	 kinds;
	int		 no_layer;
	int		 json;
	int		 whole;		/* --file */
	const char	*manifest;
};

/* ------------------------------------------------------------- manifest */

struct mentry {
	int		 kind;
	char		*hex;
	char		*name;		/* "FILE:TENSOR" or "FILE" */
	size_t		 sfx;		/* its "  -  Ok" end, bytes */
	int		 used;		/* matched a line of ours */
};

struct manifest {
	struct mentry	*e;
	size_t		 n;
	unsigned	 kinds;		/* present */
	size_t		*ix;		/* e by name, kind, line */
};

static void
manifest_free(struct manifest *m)
{
	size_t	i;

	for (i = 0; i < m->n; i++) {
		free(m->e[i].hex);
		free(m->e[i].name);
	}
	free(m->e);
	free(m->ix);
}

static const struct manifest	*sorting;

static int
cmp_entry(const void *a, const void *b)
{
	const struct mentry	*x = &sorting->e[*(const size_t *)a];
	const struct mentry	*y = &sorting->e[*(const size_t *)b];
	int			 c;

	if ((c = strcmp(x->name, y->name)) != 0)
		return c;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* Sorts the index of m, so that a name is found in log n steps. */
static void
manifest_index(struct manifest *m)
{
	size_t	i;

	m->ix = xreallocarray(NULL, m->n != 0 ? m->n : 1, sizeof *m->ix);
	for (i = 0; i < m->n; i++)
		m->ix[i] = i;
	sorting = m;
	qsort(m->ix, m->n, sizeof *m->ix, cmp_entry);
	sorting = NULL;
}

/*
 * The first place in m->ix whose entry's name is not below key[0..klen)
 * (and, if kind >= 0, whose name is key with a kind not below kind).
 */
static size_t
lower(const struct manifest *m, const char *key, size_t klen, int kind)
{
	const struct mentry	*e;
	size_t			 lo = 0, hi = m->n, mid;
	int			 c;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		e = &m->e[m->ix[mid]];
		c = strncmp(e->name, key, klen);
		if (c == 0 && e->name[klen] != '\0')
			c = 1;
		if (c == 0 && kind >= 0)
			c = e->kind < kind ? -1 : 0;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* How many entries of m are named "prefix[0..plen):...". */
static size_t
count_prefixed(const struct manifest *m, const char *prefix, size_t plen)
{
	char	*k = xmalloc(plen + 2);
	size_t	 a, b;

	memcpy(k, prefix, plen);
	k[plen] = ':';
	k[plen + 1] = '\0';
	a = lower(m, k, plen + 1, -1);
	k[plen] = ':' + 1;		/* every "prefix:..." sorts below */
	b = lower(m, k, plen + 1, -1);
	free(k);
	return b - a;
}

/* Next blank-separated field of *s, NUL-terminated in place; NULL at end. */
static char *
field(char **s)
{
	char	*p = *s, *start;

	while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
		p++;
	if (*p == '\0')
		return NULL;
	start = p;
	while (*p != '\0' && *p != ' ' && *p != '\t' && *p != '\r' &&
	    *p != '\n')
		p++;
	if (*p != '\0')
		*p++ = '\0';
	*s = p;
	return start;
}

/*
 * The name of a manifest line, from s just past the blank that ended the
 * hash: the rest of the line, after the second space of the "HEX  NAME"
 * both tools print, so that file and tensor names may hold blanks, even
 * lead with one; the line's end is cut off. In *sfx, the length of an
 * ending a --check report adds ("  -  Ok", Mismatch, Not Found), 0 if
 * none: it is cut off only when every line has one (a report), since a
 * tensor may be named "x  -  Ok". NULL if nothing is left.
 */
static char *
rest_name(char *s, size_t *sfx)
{
	static const char *const	 res[] = { "Ok", "Mismatch",
					     "Not Found" };
	size_t				 n, k, r;

	if (*s == ' ')
		s++;
	n = strlen(s);
	while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r'))
		n--;
	s[n] = '\0';
	*sfx = 0;
	for (k = 0; k < sizeof res / sizeof res[0]; k++) {
		r = strlen(res[k]);
		if (n > r + 5 && memcmp(s + n - r - 5, "  -  ", 5) == 0 &&
		    memcmp(s + n - r, res[k], r) == 0) {
			*sfx = r + 5;
			break;
		}
	}
	return n > 0 ? s : NULL;
}

/*
 * Reads a manifest: lines "KIND HEX NAME" (a --check report reads as a
 * manifest too). 0, or -1 after an error line.
 */
static int
manifest_read(const char *path, struct manifest *m)
{
	struct gguf_err	 err;
	FILE		*fp;
	char		*line = NULL, *s, *k, *h, *n;
	size_t		 cap = 0, alloc = 0, sfx, i, report = 1, lno = 0;
	ssize_t		 len;
	int		 kind;

	memset(m, 0, sizeof *m);
	memset(&err, 0, sizeof err);
	if ((fp = gguf_open_text(path, &err)) == NULL) {
		cli_error("%s: cannot open the manifest: %s", path, err.msg);
		return -1;
	}
	while ((len = gguf_text_line(fp, &line, &cap, MAX_LINE)) != -1) {
		lno++;
		if (len < 0) {
			cli_error("%s: line %zu: %s", path, lno, len == -2 ?
			    "a NUL byte: not a manifest" : "longer than 64 KiB: "
			    "not a manifest");
			free(line);
			fclose(fp);
			manifest_free(m);
			return -1;
		}
		s = line;
		if ((k = field(&s)) == NULL)
			continue;
		if ((kind = gguf_hash_parse(k, strlen(k))) < 0)
			continue;
		if ((h = field(&s)) == NULL ||
		    (n = rest_name(s, &sfx)) == NULL)
			continue;
		if (m->n == alloc) {
			alloc = alloc != 0 ? 2 * alloc : 64;
			m->e = xreallocarray(m->e, alloc, sizeof *m->e);
		}
		m->e[m->n].kind = kind;
		m->e[m->n].hex = xstrdup(h);
		m->e[m->n].name = xstrdup(n);
		m->e[m->n].sfx = sfx;
		m->e[m->n].used = 0;
		report &= sfx != 0;
		m->n++;
		m->kinds |= GGUF_HM(kind);
	}
	free(line);
	if (ferror(fp)) {
		cli_error("%s: reading the manifest: %s", path,
		    strerror(errno));
		fclose(fp);
		manifest_free(m);
		return -1;
	}
	fclose(fp);
	if (m->kinds == 0) {
		cli_error("%s: no line of a known hash kind (xxh64, xxh3, "
		    "sha1, sha256, uuid) in the manifest", path);
		manifest_free(m);
		return -1;
	}
	/* A --check report: its results are not part of the names. */
	for (i = 0; report && i < m->n; i++)
		m->e[i].name[strlen(m->e[i].name) - m->e[i].sfx] = '\0';
	manifest_index(m);
	return 0;
}

/* ------------------------------------------------------------- one file */

/* Text as ggufed prints it (escaped), allocated. */
static char *
escaped(const char *p, size_t n)
{
	char	*s = NULL;
	size_t	 len = 0;
	FILE	*fp;

	if ((fp = open_memstream(&s, &len)) == NULL)
		xmalloc_fail(n * 4 + 1);
	out_text(fp, p, n);
	if (fclose(fp) != 0 || s == NULL)
		xmalloc_fail(len + 1);
	return s;
}

static const char *
base_name(const char *p)
{
	const char	*s = strrchr(p, '/');

	return s != NULL ? s + 1 : p;
}


/*
 * A list of "FILE:TENSOR" (or "FILE" for a model line) for the last line,
 * "mismatch: a, b", and for --json: the bytes as they are, escaped when
 * printed.
 */
struct names {
	char	**v;
	size_t	 *len;
	size_t	  n;
	size_t	  cap;
};

static void
names_add(struct names *l, const char *path, const char *tp, size_t tn)
{
	size_t	pl = strlen(path), n = pl + (tp != NULL ? 1 + tn : 0);
	char	*s = xmalloc(n + 1);

	memcpy(s, path, pl);
	if (tp != NULL) {
		s[pl] = ':';
		memcpy(s + pl + 1, tp, tn);
	}
	s[n] = '\0';
	if (l->n == l->cap) {
		l->cap = l->cap != 0 ? 2 * l->cap : 16;
		l->v = xreallocarray(l->v, l->cap, sizeof *l->v);
		l->len = xreallocarray(l->len, l->cap, sizeof *l->len);
	}
	l->v[l->n] = s;
	l->len[l->n++] = n;
}

/* "a, b", escaped. */
static void
names_print(const struct names *l)
{
	size_t	i;

	for (i = 0; i < l->n; i++) {
		if (i > 0)
			fputs(", ", stdout);
		out_text(stdout, l->v[i], l->len[i]);
	}
}

static void
names_json(struct json *j, const char *key, const struct names *l)
{
	size_t	i;

	json_key(j, key);
	json_arr(j, JSON_FLAT);
	for (i = 0; i < l->n; i++)
		json_str(j, l->v[i], l->len[i]);
	json_end(j);
}

static void
names_free(struct names *l)
{
	size_t	i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	free(l->len);
}

/* What a line is about: a tensor of a file (tp not NULL), or a model. */
struct label {
	const char	*path;		/* the file, as given or the shard's */
	const char	*epath;		/* escaped */
	const char	*tp;		/* the tensor's name, or NULL */
	size_t		 tn;
	const char	*ename;		/* escaped */
};

/* One run of the command over its files. */
struct run {
	const struct hopts	*o;
	struct manifest		*m;		/* NULL: not checking */
	struct json		*j;		/* NULL: text */
	struct names		 mismatch;
	struct names		 not_found;	/* ours, not in the manifest */
	struct names		 not_in_file;	/* the manifest's, not ours */
	int			 differ;
	int			 matched;
	/*
	 * A file checked against a split set's manifest: the other shards'
	 * names there, where its tensors are looked for too.
	 */
	char			**alt;
	size_t			  nalt;
};

/* Whether a manifest name is "PREFIX:TENSOR" for a tensor of f. */
static const char *
tensor_colon(const char *c, const struct gguf_file *f, int shard)
{
	const char	*colon, *end = c + strlen(c);
	int64_t		 ix;

	for (colon = strchr(c, ':'); colon != NULL;
	    colon = strchr(colon + 1, ':'))
		if ((ix = gguf_tensor_find(f, colon + 1,
		    (size_t)(end - colon - 1))) >= 0 && (shard < 0 ||
		    gguf_tensor_at(f, (uint64_t)ix)->shard == (uint32_t)shard))
			return colon;
	return NULL;
}

/*
 * Which name the manifest gives the file path in its tensor entries,
 * "NAME:TENSOR" for tensors of f (of shard, or any if shard < 0): the
 * path as given wins, then a name with the same base name, then the name
 * most entries use. Allocated, or NULL if none. n log n in the entries:
 * each prefix is counted by a search of the sorted index, and an entry
 * with the prefix of the one before it (the usual case) is not counted
 * again.
 */
static char *
tensor_prefix(const struct manifest *m, const struct gguf_file *f,
    const char *path, int shard)
{
	const char	*c, *colon, *best = NULL, *last = NULL;
	char		*pre;
	size_t		 i, plen, bestlen = 0, lastlen = 0, cnt;
	size_t		 bestcnt = 0;
	int		 rank, bestrank = -1;

	for (i = 0; i < m->n; i++) {
		c = m->e[i].name;
		if ((colon = tensor_colon(c, f, shard)) == NULL)
			continue;
		plen = (size_t)(colon - c);
		if (last != NULL && plen == lastlen &&
		    memcmp(c, last, plen) == 0)
			continue;	/* the same prefix: the same rank */
		last = c;
		lastlen = plen;
		pre = xstrndup(c, plen);
		rank = strcmp(pre, path) == 0 ? 3 :
		    strcmp(base_name(pre), base_name(path)) == 0 ? 2 : 1;
		free(pre);
		cnt = count_prefixed(m, c, plen);
		if (rank > bestrank || (rank == bestrank && cnt > bestcnt)) {
			bestrank = rank;
			bestcnt = cnt;
			best = c;
			bestlen = plen;
		}
	}
	return best != NULL ? xstrndup(best, bestlen) : NULL;
}

/*
 * The name of the model lines for path: of the entries that are not
 * tensor entries of f, the path as given, then the same base name, then
 * the only other name (none if two are left). Allocated, or NULL.
 */
static char *
model_name(const struct manifest *m, const struct gguf_file *f,
    const char *path)
{
	const char	*c, *best = NULL;
	size_t		 i;
	int		 rank, bestrank = -1;

	for (i = 0; i < m->n; i++) {
		c = m->e[i].name;
		if (tensor_colon(c, f, -1) != NULL)
			continue;
		rank = strcmp(c, path) == 0 ? 3 :
		    strcmp(base_name(c), base_name(path)) == 0 ? 2 : 1;
		if (rank > bestrank) {
			bestrank = rank;
			best = c;
		} else if (rank == bestrank && rank == 1 &&
		    strcmp(best, c) != 0)
			bestrank = 0;		/* two names: neither */
	}
	return bestrank >= 1 ? xstrdup(best) : NULL;
}

/*
 * r->alt for a file whose manifest name is pre: where pre names a shard
 * of a split set, the set's other shards the manifest has entries of (a
 * model checked against its split set's manifest); none else. NULL
 * frees them.
 */
static void
set_alt(struct run *r, const char *pre)
{
	size_t		plen, i;
	unsigned	no, count, k;
	char		*name;

	for (i = 0; i < r->nalt; i++)
		free(r->alt[i]);
	free(r->alt);
	r->alt = NULL;
	r->nalt = 0;
	if (pre == NULL || r->m == NULL ||
	    gguf_set_name(pre, &plen, &no, &count) != 0 || count < 2)
		return;
	for (k = 1; k <= count; k++) {
		if (k == no)
			continue;
		name = gguf_set_path(pre, plen, k, count);
		if (count_prefixed(r->m, name, strlen(name)) == 0) {
			free(name);
			continue;
		}
		r->alt = xreallocarray(r->alt, r->nalt + 1, sizeof *r->alt);
		r->alt[r->nalt++] = name;
	}
}

/* Whether some entry of the manifest is named "prefix:...". */
static int
has_prefixed(const struct manifest *m, const char *prefix)
{
	size_t	i, n = strlen(prefix);

	for (i = 0; i < m->n; i++)
		if (strncmp(m->e[i].name, prefix, n) == 0 &&
		    m->e[i].name[n] == ':')
			return 1;
	return 0;
}

/*
 * The manifest's entries of kind for prefix[:tensor]: their first place
 * in m->ix, and in *n how many (a line given twice is there twice); 0 if
 * none. log n in the entries.
 */
static size_t
lookup(const struct manifest *m, int kind, const char *prefix,
    const char *tensor, size_t *n)
{
	char		*key;
	size_t		 plen, tlen, at, end;

	*n = 0;
	if (prefix == NULL)
		return 0;
	plen = strlen(prefix);
	tlen = tensor != NULL ? strlen(tensor) : 0;
	key = xmalloc(plen + 1 + tlen + 1);
	memcpy(key, prefix, plen);
	if (tensor != NULL) {
		key[plen] = ':';
		memcpy(key + plen + 1, tensor, tlen);
		plen += 1 + tlen;
	}
	key[plen] = '\0';
	at = lower(m, key, plen, kind);
	for (end = at; end < m->n && m->e[m->ix[end]].kind == kind &&
	    strcmp(m->e[m->ix[end]].name, key) == 0; end++)
		;
	free(key);
	*n = end - at;
	return at;
}

/* Checks one hash against the manifest: "Ok", "Mismatch", "Not Found". */
static const char *
check(struct run *r, const char *prefix, int kind, const char *hex,
    const struct label *lb)
{
	size_t		 at, n, i;
	int		 same = 1;

	at = lookup(r->m, kind, prefix, lb->ename, &n);
	for (i = 0; n == 0 && lb->tp != NULL && i < r->nalt; i++)
		at = lookup(r->m, kind, r->alt[i], lb->ename, &n);
	if (n == 0) {
		/* A manifest of tensor lines alone is whole without this. */
		if (lb->tp == NULL)
			return "Not Found";
		r->differ = 1;
		names_add(&r->not_found, lb->path, lb->tp, lb->tn);
		return "Not Found";
	}
	/* Each line of it is matched; one that differs is a mismatch. */
	for (i = at; i < at + n; i++) {
		r->m->e[r->m->ix[i]].used = 1;
		if (strcasecmp(r->m->e[r->m->ix[i]].hex, hex) != 0)
			same = 0;
	}
	r->matched = 1;
	if (same)
		return "Ok";
	r->differ = 1;
	names_add(&r->mismatch, lb->path, lb->tp, lb->tn);
	return "Mismatch";
}

/* One line, text or a JSON member, with its check when checking. */
static void
emit(struct run *r, const char *prefix, int kind,
    const struct gguf_digest *d, const struct label *lb)
{
	const char	*res = NULL;
	char		 hex[GGUF_HASH_TEXTLEN];

	gguf_hash_text(kind, d, hex);
	if (r->m != NULL)
		res = check(r, prefix, kind, hex, lb);
	if (r->j != NULL) {
		json_key(r->j, gguf_hash_name(kind));
		json_cstr(r->j, hex);
		if (res != NULL) {
			char	key[32];

			snprintf(key, sizeof key, "%s_check",
			    gguf_hash_name(kind));
			json_key(r->j, key);
			json_cstr(r->j, res);
		}
		return;
	}
	printf("%-8s  %s  %s", gguf_hash_name(kind), hex, lb->epath);
	if (lb->ename != NULL)
		printf(":%s", lb->ename);
	if (res != NULL)
		printf("  -  %s", res);
	putchar('\n');
}

#define NKINDS	(sizeof kind_order / sizeof kind_order[0])

/* Models smaller than this are hashed without a progress line. */
#define PROGRESS_MIN	(64u << 20)

/* gguf_hash_tensors with a progress line naming path (on a terminal). */
static int
hash_with_progress(const struct gguf_file *f, const char *path,
    unsigned each, unsigned all, struct gguf_hashes *each_out,
    struct gguf_hashes *all_out, uint64_t *bad, struct gguf_err *err)
{
	struct cli_progress	pr;
	int			rc;

	cli_progress_init(&pr, "hash", PROGRESS_MIN);
	pr.item = path;
	pr.item_len = strlen(path);
	rc = gguf_hash_tensors(f, each, all, each_out, all_out,
	    pr.tty ? cli_progress : NULL, &pr, bad, err);
	cli_progress_clear(&pr);
	return rc;
}

/*
 * Hashes (and checks) one model: a file, or a split set given by any of
 * its shards (tensor lines name their shard's file, the model lines the
 * path given). 0, or -1 after an error line.
 */
static int
hash_model(struct run *r, const char *path)
{
	const struct hopts	*o = r->o;
	struct gguf_file	*f;
	struct gguf_hashes	*each, all;
	struct gguf_err		 err;
	char			**pre, *mpre = NULL, **epath, *ename;
	struct label		 lb;
	const char		*sp;
	uint64_t		 i, n, bad;
	size_t			 k, e, pl, s, nsh, np;
	unsigned		 layer, layer_kinds = 0;
	int			 rc = 0, hrc;

	if ((f = cli_open(path)) == NULL)
		return -1;
	cli_set_warning(path, f);
	n = gguf_layout(f)->n_tensors;
	nsh = gguf_n_shards(f);
	np = nsh > 0 ? nsh : 1;
	layer = o->no_layer ? 0 : o->kinds & ~GGUF_HM(GGUF_H_UUID);
	pre = xcalloc(np, sizeof *pre);
	epath = xcalloc(np, sizeof *epath);
	for (s = 0; s < np; s++) {
		sp = nsh > 0 ? gguf_shard_path(f, s) : path;
		epath[s] = escaped(sp, strlen(sp));
	}
	if (r->m != NULL) {
		/*
		 * The manifest's names for each shard's tensors and for the
		 * model. Kinds it has no tensor entries of are checked by
		 * the model line alone (a --no-layer manifest).
		 */
		if (nsh == 0) {
			pre[0] = tensor_prefix(r->m, f, path, -1);
			mpre = pre[0] != NULL ? xstrdup(pre[0]) :
			    model_name(r->m, f, path);
			/* "NAME:T" lines of tensors it does not have */
			if (pre[0] == NULL && mpre != NULL &&
			    has_prefixed(r->m, mpre))
				pre[0] = xstrdup(mpre);
			else if (pre[0] == NULL && has_prefixed(r->m, path))
				pre[0] = xstrdup(path);
			set_alt(r, pre[0]);
		} else {
			for (s = 0; s < nsh; s++) {
				sp = gguf_shard_path(f, s);
				pre[s] = tensor_prefix(r->m, f, sp, (int)s);
				if (pre[s] == NULL && has_prefixed(r->m, sp))
					pre[s] = xstrdup(sp);
			}
			mpre = model_name(r->m, f, path);
		}
		for (s = 0; s < np; s++) {
			pl = pre[s] != NULL ? strlen(pre[s]) : 0;
			for (e = 0; e < r->m->n && pre[s] != NULL; e++)
				if (strncmp(r->m->e[e].name, pre[s], pl) ==
				    0 && r->m->e[e].name[pl] == ':')
					layer_kinds |= GGUF_HM(r->m->e[e].kind);
		}
		layer &= layer_kinds;
	}
	each = xreallocarray(NULL, n != 0 ? n : 1, sizeof *each);
	memset(&err, 0, sizeof err);
	hrc = hash_with_progress(f, path, layer, o->kinds,
	    layer != 0 ? each : NULL, &all, &bad, &err);
	if (hrc != 0) {
		/* A shard's trouble is told of the shard. */
		cli_file_error(nsh > 0 && bad < n ? gguf_shard_path(f,
		    gguf_tensor_at(f, bad)->shard) : path, &err);
		rc = -1;
		goto out;
	}
	if (r->j != NULL) {
		json_obj(r->j, JSON_LINES);
		json_key(r->j, "file");
		json_cstr(r->j, path);
		json_key(r->j, "tensors");
		json_arr(r->j, JSON_LINES);
	}
	for (i = 0; i < n && layer != 0; i++) {
		const struct gguf_tensor	*t = gguf_tensor_at(f, i);

		s = nsh > 0 ? t->shard : 0;
		ename = escaped(t->name.p, (size_t)t->name.n);
		lb.path = nsh > 0 ? gguf_shard_path(f, s) : path;
		lb.epath = epath[s];
		lb.tp = t->name.p;
		lb.tn = (size_t)t->name.n;
		lb.ename = ename;
		if (r->j != NULL) {
			json_obj(r->j, JSON_FLAT);
			json_key(r->j, "name");
			json_str(r->j, t->name.p, (size_t)t->name.n);
			if (nsh > 0) {
				json_key(r->j, "shard");
				json_cstr(r->j, gguf_shard_path(f, s));
			}
		}
		for (k = 0; k < NKINDS; k++)
			if (layer & GGUF_HM(kind_order[k]))
				emit(r, pre[s], kind_order[k],
				    &each[i].d[kind_order[k]], &lb);
		if (r->j != NULL)
			json_end(r->j);
		free(ename);
	}
	if (r->j != NULL) {
		json_end(r->j);
		json_key(r->j, "model");
		json_obj(r->j, JSON_FLAT);
	}
	ename = nsh > 0 ? escaped(path, strlen(path)) : epath[0];
	memset(&lb, 0, sizeof lb);
	lb.path = path;
	lb.epath = ename;
	for (k = 0; k < NKINDS; k++)
		if (o->kinds & GGUF_HM(kind_order[k]))
			emit(r, mpre, kind_order[k], &all.d[kind_order[k]],
			    &lb);
	if (ename != epath[0])
		free(ename);
	if (r->j != NULL)
		json_end(r->j);
	/* The manifest's tensor entries of checked kinds we do not have. */
	for (s = 0; s < np + r->nalt && r->m != NULL; s++) {
		const char	*ps = s < np ? pre[s] : r->alt[s - np];

		pl = ps != NULL ? strlen(ps) : 0;
		for (e = 0; ps != NULL && e < r->m->n; e++) {
			struct mentry	*me = &r->m->e[e];

			if (me->used || !(layer & GGUF_HM(me->kind)) ||
			    strncmp(me->name, ps, pl) != 0 ||
			    me->name[pl] != ':')
				continue;
			me->used = 1;
			r->differ = 1;
			names_add(&r->not_in_file, nsh > 0 && s < np ?
			    gguf_shard_path(f, s) : path, me->name + pl + 1,
			    strlen(me->name + pl + 1));
		}
	}
	if (r->j != NULL)
		json_end(r->j);
out:
	for (s = 0; s < np; s++) {
		free(pre[s]);
		free(epath[s]);
	}
	set_alt(r, NULL);
	free(pre);
	free(epath);
	free(mpre);
	free(each);
	gguf_close(f);
	return rc;
}

/* --file: the whole file's SHA-256, as sha256sum prints it. */
static int
hash_whole(struct run *r, const char *path)
{
	struct gguf_hash_job	 job;
	struct gguf_hashes	 h;
	struct gguf_span	 sp;
	struct gguf_err		 err;
	struct stat		 st;
	struct cli_progress	 pr;
	char			 hex[GGUF_HASH_TEXTLEN], *epath;
	int			 fd, rc;

	memset(&err, 0, sizeof err);
	if ((fd = gguf_open_regular(path, O_RDONLY, &err)) < 0) {
		cli_error("%s: %s", path, err.msg);
		return -1;
	}
	if (fstat(fd, &st) != 0) {
		cli_error("%s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	memset(&job, 0, sizeof job);
	memset(&h, 0, sizeof h);
	memset(&sp, 0, sizeof sp);
	sp.fd = fd;
	sp.len = (uint64_t)st.st_size;
	job.spans = &sp;
	job.n_spans = 1;
	job.all = GGUF_HM(GGUF_H_SHA256);
	job.all_out = &h;
	cli_progress_init(&pr, "hash", PROGRESS_MIN);
	pr.item = path;
	pr.item_len = strlen(path);
	if (pr.tty) {
		job.progress = cli_progress;
		job.arg = &pr;
	}
	memset(&err, 0, sizeof err);
	rc = gguf_hash_run(&job, &err);
	cli_progress_clear(&pr);
	if (rc != 0) {
		cli_file_error(path, &err);
		close(fd);
		return -1;
	}
	close(fd);
	gguf_hash_text(GGUF_H_SHA256, &h.d[GGUF_H_SHA256], hex);
	if (r->j != NULL) {
		json_obj(r->j, JSON_FLAT);
		json_key(r->j, "file");
		json_cstr(r->j, path);
		json_key(r->j, "sha256");
		json_cstr(r->j, hex);
		json_end(r->j);
		return 0;
	}
	epath = escaped(path, strlen(path));
	printf("%s  %s\n", hex, epath);
	free(epath);
	return 0;
}

static const char *
verdict(const struct run *r)
{
	if (r->mismatch.n > 0)
		return "Mismatch";
	if (r->not_found.n > 0 || r->not_in_file.n > 0 || !r->matched)
		return "Manifest Missing Entry";
	return "Success";
}

/* The last line: every tensor that failed, by why. */
static void
problems_line(struct run *r)
{
	const char	*sep = "";

	if (r->mismatch.n > 0) {
		fputs("mismatch: ", stdout);
		names_print(&r->mismatch);
		sep = "; ";
	}
	if (r->not_found.n > 0) {
		printf("%snot in the manifest: ", sep);
		names_print(&r->not_found);
		sep = "; ";
	}
	if (r->not_in_file.n > 0) {
		printf("%snot in the file: ", sep);
		names_print(&r->not_in_file);
		sep = "; ";
	}
	if (!r->matched && *sep == '\0')
		printf("no entry of the manifest names these tensors");
	putchar('\n');
}

int
cmd_hash(int argc, char **argv)
{
	struct hopts	  o;
	struct manifest	  m;
	struct run	  r;
	struct json	  j;
	char		**files = argv + 1;
	size_t		  k;
	int		  i, nfiles = 0, only_files = 0, trouble = 0, kind;

	memset(&o, 0, sizeof o);
	argc = cli_take_shard(argc, argv);
	for (i = 1; i < argc; i++) {
		const char	*a = argv[i];

		if (only_files || a[0] != '-' || a[1] == '\0')
			files[nfiles++] = argv[i];
		else if (strcmp(a, "--") == 0)
			only_files = 1;
		else if (strncmp(a, "--", 2) == 0 &&
		    (kind = gguf_hash_parse(a + 2, strlen(a + 2))) >= 0)
			o.kinds |= GGUF_HM(kind);
		else if (strcmp(a, "--all") == 0)
			o.kinds |= GGUF_HM(GGUF_H_XXH64) |
			    GGUF_HM(GGUF_H_XXH3) | GGUF_HM(GGUF_H_SHA1) |
			    GGUF_HM(GGUF_H_SHA256);
		else if (strcmp(a, "--no-layer") == 0)
			o.no_layer = 1;
		else if (strcmp(a, "--json") == 0)
			o.json = 1;
		else if (strcmp(a, "--file") == 0)
			o.whole = 1;
		else if ((strcmp(a, "-c") == 0 || strcmp(a, "--check") == 0) &&
		    i + 1 < argc)
			o.manifest = argv[++i];
		else {
			cli_usage_error("hash", "unknown option or missing "
			    "value: '%s'", a);
			return EXIT_USAGE;
		}
	}
	if (nfiles == 0) {
		cli_usage_error("hash", "hash wants at least one FILE");
		return EXIT_USAGE;
	}
	if (o.whole && (o.kinds != 0 || o.no_layer || o.manifest != NULL)) {
		cli_usage_error("hash", "--file gives the whole file's sha256 "
		    "only: no hash kinds, --no-layer or --check with it");
		return EXIT_USAGE;
	}
	for (i = 0; o.whole && i < nfiles; i++)
		if (gguf_is_url(files[i])) {
			cli_usage_error("hash", "--file hashes local files "
			    "only, and %s is a URL (without --file, hash gives "
			    "its tensor data's hashes)", files[i]);
			return EXIT_USAGE;
		}
	memset(&r, 0, sizeof r);
	r.o = &o;
	if (o.manifest != NULL) {
		if (manifest_read(o.manifest, &m) != 0)
			return EXIT_TROUBLE;
		r.m = &m;
		if (o.kinds == 0)
			for (k = 0; k < NKINDS && o.kinds == 0; k++)
				if (m.kinds & GGUF_HM(kind_strength[k]))
					o.kinds = GGUF_HM(kind_strength[k]);
	}
	if (o.kinds == 0)
		o.kinds = GGUF_HM(GGUF_H_XXH64);
	if (o.json) {
		json_init(&j, stdout);
		r.j = &j;
		json_obj(&j, JSON_LINES);
		if (r.m != NULL) {
			json_key(&j, "manifest");
			json_cstr(&j, o.manifest);
		}
		json_key(&j, "files");
		json_arr(&j, JSON_LINES);
	} else if (r.m != NULL) {
		/* llama-gguf-hash's first line: the manifest and its kinds. */
		printf("manifest  ");
		out_text(stdout, o.manifest, strlen(o.manifest));
		for (k = 0; k < NKINDS; k++)
			if (m.kinds & GGUF_HM(kind_strength[k]))
				printf("  %s", gguf_hash_name(kind_strength[k]));
		putchar('\n');
	}
	for (i = 0; i < nfiles; i++) {
		if ((o.whole ? hash_whole(&r, files[i]) :
		    hash_model(&r, files[i])) != 0)
			trouble = 1;
		fflush(stdout);
	}
	if (o.json) {
		json_end(&j);
		if (r.m != NULL) {
			json_key(&j, "result");
			json_cstr(&j, trouble ? "Failure" : verdict(&r));
			/* What the text's last line names. */
			names_json(&j, "mismatch", &r.mismatch);
			names_json(&j, "not_in_manifest", &r.not_found);
			names_json(&j, "not_in_file", &r.not_in_file);
		}
		json_end(&j);
		json_finish(&j);
	} else if (r.m != NULL) {
		printf("\nVerification results for ");
		out_text(stdout, o.manifest, strlen(o.manifest));
		printf(" - %s\n", trouble ? "Failure" : verdict(&r));
		if (r.differ || !r.matched)
			problems_line(&r);
	}
	if (r.m != NULL)
		manifest_free(&m);
	names_free(&r.mismatch);
	names_free(&r.not_found);
	names_free(&r.not_in_file);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		cli_error("writing the hashes: output error");
		return EXIT_TROUBLE;
	}
	if (trouble)
		return EXIT_TROUBLE;
	return r.m != NULL && (r.differ || !r.matched) ? EXIT_DIFFER : 0;
}
