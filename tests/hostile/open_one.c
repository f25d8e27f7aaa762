/*
 * open_one.c - the format core's view of hostile files, in process.
 *
 *	open_one FILE...		OK and the warnings, or the error
 *	open_one --layout FILE		section offsets of a file that opens
 *	open_one --check DIR		TAP: DIR/expect.tsv against the reader
 *	open_one --prefixes FILE	TAP: every proper prefix of FILE
 *	open_one --mutate FILE		TAP: every byte of FILE set to 0x00,
 *					0xff, 0x80 and itself + 1
 *
 * Files are read into a malloc'd buffer of their exact size and opened with
 * gguf_open_buffer, so a read one byte past the end is a sanitizer report,
 * not a silent read of the mapping's last page; --check also opens each
 * file by path and wants the same answer. Whatever opens is then walked:
 * every key, every value, every array element (nested ones too), every
 * warning and the first and last byte of every readable tensor.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gguf.h"
#include "../unit/tap.h"

#define WALK_MAX	(1u << 20)	/* array elements visited per file */

static volatile uint64_t	sink;	/* keeps the walk's reads */

static uint8_t *
slurp(const char *path, size_t *len)
{
	FILE	*fp;
	uint8_t	*buf = NULL;
	size_t	 cap = 0, n;

	if ((fp = fopen(path, "rb")) == NULL)
		return NULL;
	*len = 0;
	for (;;) {
		if (cap - *len < 65536) {
			cap = cap == 0 ? 65536 : cap * 2;
			if ((buf = realloc(buf, cap)) == NULL)
				abort();
		}
		n = fread(buf + *len, 1, cap - *len, fp);
		*len += n;
		if (n == 0)
			break;
	}
	if (ferror(fp)) {
		free(buf);
		fclose(fp);
		return NULL;
	}
	fclose(fp);
	/* Exactly len bytes, so the sanitizer sees the end of the file. */
	if ((buf = realloc(buf, *len != 0 ? *len : 1)) == NULL)
		abort();
	return buf;
}

/* ------------------------------------------------------------------- walk */

static void
touch(const void *p, uint64_t n)
{
	const uint8_t	*b = p;

	if (n > 0)
		sink += b[0] + b[n - 1];
}

static void
walk_val(struct gguf_val *v, uint64_t *budget)
{
	struct gguf_val	 e;
	struct gguf_str	 s;
	struct gguf_err	 err;
	uint64_t	 i, u;
	int64_t		 n;
	double		 d;

	touch(v->p, v->n);
	if (v->type == GGUF_VT_STR) {
		if (gguf_val_str(v, &s) == 0)
			touch(s.p, s.n);
		return;
	}
	if (v->type != GGUF_VT_ARR) {
		sink += gguf_val_bits(v);
		if (gguf_val_u64(v, &u) == 0)
			sink += u;
		if (gguf_val_i64(v, &n) == 0)
			sink += (uint64_t)n;
		if (gguf_val_f64(v, &d) == 0)
			sink += d > 0;
		return;
	}
	for (i = 0; i < v->count && *budget > 0; i++, (*budget)--) {
		memset(&err, 0, sizeof err);
		if (gguf_arr_get(v, i, &e, &err) != 0) {
			/* The reader walked it once: this cannot fail. */
			printf("# element %llu: %s\n", (unsigned long long)i,
			    err.msg);
			abort();
		}
		walk_val(&e, budget);
		gguf_arrix_free(e.ix);
	}
	/* Out of range is an error, not a read. */
	if (gguf_arr_get(v, v->count, &e, &err) == 0)
		abort();
}

static void
walk(struct gguf_file *f)
{
	const struct gguf_layout	*lay = gguf_layout(f);
	const struct gguf_tensor	*t;
	const struct gguf_warning	*w;
	const uint8_t			*p;
	struct gguf_kv			*kv;
	struct gguf_err			 err;
	uint64_t			 i, budget = WALK_MAX;
	size_t				 k;

	for (i = 0; i < lay->n_kv; i++) {
		kv = gguf_kv_at(f, i);
		touch(kv->key.p, kv->key.n);
		if (gguf_kv_find(f, kv->key.p, kv->key.n) < 0)
			abort();
		walk_val(&kv->val, &budget);
	}
	for (i = 0; i < lay->n_tensors; i++) {
		t = gguf_tensor_at(f, i);
		touch(t->name.p, t->name.n);
		if (gguf_tensor_find(f, t->name.p, t->name.n) < 0)
			abort();
		p = gguf_tensor_data(f, t, &err);
		if (p != NULL)
			touch(p, t->nbytes);
		else if (!(t->flags & (GGUF_TENSOR_UNSIZED |
		    GGUF_TENSOR_UNREADABLE)))
			abort();
	}
	for (k = 0; k < gguf_n_warnings(f); k++) {
		w = gguf_warning_at(f, k);
		touch(w->msg, strlen(w->msg));
	}
}

/* Opens buf as a GGUF file and walks it; 0 if it opened. */
static int
try_buffer(const uint8_t *buf, size_t len, struct gguf_err *err)
{
	struct gguf_file	*f;

	memset(err, 0, sizeof *err);
	if ((f = gguf_open_buffer(buf, len, err)) == NULL)
		return -1;
	walk(f);
	gguf_close(f);
	return 0;
}

/* ------------------------------------------------------------------ modes */

static int
show(const char *path)
{
	struct gguf_file		*f;
	const struct gguf_warning	*w;
	struct gguf_err			 err;
	char				 text[1024];
	size_t				 k;

	memset(&err, 0, sizeof err);
	if ((f = gguf_open(path, &err)) == NULL) {
		gguf_err_text(&err, text, sizeof text);
		printf("%s: ERROR %s\n", path, text);
		return 1;
	}
	walk(f);
	printf("%s: OK\n", path);
	for (k = 0; k < gguf_n_warnings(f); k++) {
		w = gguf_warning_at(f, k);
		printf("%s: warning: offset 0x%llx: %s\n", path,
		    (unsigned long long)w->off, w->msg);
	}
	gguf_close(f);
	return 0;
}

static int
layout(const char *path)
{
	const struct gguf_layout	*lay;
	struct gguf_file		*f;
	struct gguf_err			 err;
	char				 text[1024];

	memset(&err, 0, sizeof err);
	if ((f = gguf_open(path, &err)) == NULL) {
		gguf_err_text(&err, text, sizeof text);
		fprintf(stderr, "open_one: %s: %s\n", path, text);
		return 1;
	}
	lay = gguf_layout(f);
	printf("kv_off %llu\nti_off %llu\nti_end %llu\ndata_off %llu\n"
	    "file_size %llu\n", (unsigned long long)lay->kv_off,
	    (unsigned long long)lay->ti_off, (unsigned long long)lay->ti_end,
	    (unsigned long long)lay->data_off,
	    (unsigned long long)lay->file_size);
	gguf_close(f);
	return 0;
}

/* One manifest row against the reader, from a buffer and by path. */
static void
check_one(const char *dir, const char *name, const char *outcome,
    const char *offtext, const char *want)
{
	const struct gguf_warning	*w;
	struct gguf_file		*f;
	struct gguf_err			 err, err2;
	uint8_t				*buf;
	char				 path[4096], text[1024];
	unsigned long long		 off = 0;
	size_t				 len, k;
	int				 opened, found = 0;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	if ((buf = slurp(path, &len)) == NULL) {
		ok(0, "%s: cannot read: %s", name, strerror(errno));
		return;
	}
	if (strcmp(offtext, "-") != 0)
		off = strtoull(offtext, NULL, 16);
	opened = try_buffer(buf, len, &err) == 0;

	/* By path (mmap) the answer must be the same. */
	memset(&err2, 0, sizeof err2);
	f = gguf_open(path, &err2);
	if ((f != NULL) != opened || (!opened && (err.off != err2.off ||
	    strcmp(err.msg, err2.msg) != 0))) {
		ok(0, "%s: buffer and path disagree", name);
		gguf_close(f);
		free(buf);
		return;
	}

	if (strcmp(outcome, "error") == 0) {
		if (opened) {
			ok(0, "%s: opened, want error at 0x%llx: %s", name,
			    off, want);
			goto out;
		}
		gguf_err_text(&err, text, sizeof text);
		if (!ok(err.has_off && err.off == off &&
		    strstr(err.msg, want) != NULL, "%s: error", name))
			printf("#   got  %s\n#   want offset 0x%llx: ...%s...\n",
			    text, off, want);
		goto out;
	}
	if (!opened) {
		gguf_err_text(&err, text, sizeof text);
		ok(0, "%s: refused (%s), want %s", name, text, outcome);
		goto out;
	}
	for (k = 0; k < gguf_n_warnings(f); k++) {
		w = gguf_warning_at(f, k);
		if (w->off == off && strstr(w->msg, want) != NULL)
			found = 1;
	}
	if (strcmp(outcome, "ok") == 0)
		ok(gguf_n_warnings(f) == 0, "%s: ok", name);
	else
		ok(found, "%s: warning", name);
	if ((strcmp(outcome, "ok") == 0 && gguf_n_warnings(f) != 0) ||
	    (strcmp(outcome, "warn") == 0 && !found)) {
		if (strcmp(outcome, "warn") == 0)
			printf("#   want offset 0x%llx: ...%s...\n", off, want);
		for (k = 0; k < gguf_n_warnings(f); k++) {
			w = gguf_warning_at(f, k);
			printf("#   got  offset 0x%llx: %s\n",
			    (unsigned long long)w->off, w->msg);
		}
	}
out:
	gguf_close(f);
	free(buf);
}

static int
check(const char *dir)
{
	FILE	*fp;
	char	 path[4096], line[2048], *field[4], *p;
	int	 i;

	snprintf(path, sizeof path, "%s/expect.tsv", dir);
	if ((fp = fopen(path, "r")) == NULL) {
		printf("Bail out! %s: %s\n", path, strerror(errno));
		return 1;
	}
	while (fgets(line, sizeof line, fp) != NULL) {
		if (line[0] == '#' || line[0] == '\n')
			continue;
		line[strcspn(line, "\n")] = '\0';
		p = line;
		for (i = 0; i < 4; i++) {
			field[i] = p;
			if (i < 3) {
				if ((p = strchr(p, '\t')) == NULL)
					break;
				*p++ = '\0';
			}
		}
		if (i < 4) {
			ok(0, "malformed manifest line: %s", line);
			continue;
		}
		check_one(dir, field[0], field[1], field[2], field[3]);
	}
	fclose(fp);
	return tap_done();
}

static int
prefixes(const char *path)
{
	const struct gguf_layout	*lay;
	struct gguf_file		*f;
	struct gguf_err			 err;
	uint8_t				*buf, *cut;
	size_t				 len, n, bad = 0;
	uint64_t			 ti_end;

	if ((buf = slurp(path, &len)) == NULL) {
		printf("Bail out! %s: %s\n", path, strerror(errno));
		return 1;
	}
	if ((f = gguf_open_buffer(buf, len, &err)) == NULL) {
		printf("Bail out! %s does not open: %s\n", path, err.msg);
		return 1;
	}
	lay = gguf_layout(f);
	ti_end = lay->ti_end;
	gguf_close(f);

	/*
	 * Each prefix in a buffer of its own size. Shorter than the tensor
	 * infos it must be refused, at an offset inside the prefix; longer,
	 * it may open (with the tensors marked unreadable).
	 */
	for (n = 0; n < len; n++) {
		if ((cut = malloc(n != 0 ? n : 1)) == NULL)
			abort();
		memcpy(cut, buf, n);
		if (try_buffer(cut, n, &err) == 0) {
			if (n < ti_end) {
				printf("# prefix of %zu bytes opened\n", n);
				bad++;
			}
		} else if (!err.has_off || err.off > n) {
			printf("# prefix of %zu bytes: offset 0x%llx: %s\n", n,
			    (unsigned long long)err.off, err.msg);
			bad++;
		}
		free(cut);
	}
	ok(bad == 0, "every prefix of %s (%zu)", path, len);
	free(buf);
	return tap_done();
}

static int
mutate(const char *path)
{
	static const char *const	how[] = { "0x00", "0xff", "0x80", "+1" };
	struct gguf_err			err;
	uint8_t				*buf, *m, orig;
	size_t				 len, i;
	unsigned			 k, opened = 0, refused = 0;

	if ((buf = slurp(path, &len)) == NULL) {
		printf("Bail out! %s: %s\n", path, strerror(errno));
		return 1;
	}
	if ((m = malloc(len)) == NULL)
		abort();
	for (k = 0; k < 4; k++) {
		for (i = 0; i < len; i++) {
			memcpy(m, buf, len);
			orig = m[i];
			m[i] = k == 0 ? 0x00 : k == 1 ? 0xff : k == 2 ? 0x80 :
			    (uint8_t)(orig + 1);
			if (try_buffer(m, len, &err) == 0)
				opened++;
			else {
				refused++;
				if (err.msg[0] == '\0')
					abort();
			}
		}
		ok(1, "%s: every byte set to %s", path, how[k]);
	}
	printf("# %u opened, %u refused\n", opened, refused);
	free(m);
	free(buf);
	return tap_done();
}

int
main(int argc, char **argv)
{
	int	i, rc = 0;

	if (argc == 3 && strcmp(argv[1], "--check") == 0)
		return check(argv[2]);
	if (argc == 3 && strcmp(argv[1], "--layout") == 0)
		return layout(argv[2]);
	if (argc == 3 && strcmp(argv[1], "--prefixes") == 0)
		return prefixes(argv[2]);
	if (argc == 3 && strcmp(argv[1], "--mutate") == 0)
		return mutate(argv[2]);
	if (argc < 2 || argv[1][0] == '-') {
		fprintf(stderr, "usage: open_one FILE...\n"
		    "       open_one --layout|--check DIR|--prefixes FILE|"
		    "--mutate FILE\n");
		return 2;
	}
	for (i = 1; i < argc; i++)
		rc |= show(argv[i]);
	return rc;
}
