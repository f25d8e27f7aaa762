/*
 * schema.c - looks keys up in the table of well-known keys.
 *
 * A key is first rewritten into the table's pattern form: a first segment
 * equal to the architecture becomes {arch}, a segment of digits becomes
 * {id}. That form is searched for (the table is sorted in byte order);
 * failing that, the same form with its last segment replaced by {name}.
 * Both are binary searches: the lookup costs O(log n) whatever the key.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "gguf.h"
#include "schema.h"

#define PATTERN_MAX	192	/* longer than any key of the table */

static int
cmp_key(const void *k, const void *e)
{
	return strcmp(k, ((const struct gguf_key_spec *)e)->key);
}

static const struct gguf_key_spec *
lookup(const char *pattern)
{
	return bsearch(pattern, gguf_schema_keys, gguf_schema_n,
	    sizeof gguf_schema_keys[0], cmp_key);
}

static int
all_digits(const char *p, size_t n)
{
	size_t	i;

	if (n == 0)
		return 0;
	for (i = 0; i < n; i++)
		if (p[i] < '0' || p[i] > '9')
			return 0;
	return 1;
}

/* Appends s (n bytes) to buf at *len; 0, or -1 if it does not fit. */
static int
put(char *buf, size_t *len, const char *s, size_t n)
{
	if (*len + n >= PATTERN_MAX)
		return -1;
	memcpy(buf + *len, s, n);
	*len += n;
	buf[*len] = '\0';
	return 0;
}

/*
 * The pattern form of key in pat; *last the start of its last segment in
 * pat. -1 if the key cannot be a pattern of the table.
 */
static int
pattern(const char *key, size_t n, const char *arch, size_t archn,
    char *pat, size_t *last)
{
	size_t	len = 0, seg, i = 0;

	pat[0] = '\0';
	*last = 0;
	while (i <= n) {
		seg = 0;
		while (i + seg < n && key[i + seg] != '.')
			seg++;
		*last = len;
		if (i == 0 && archn > 0 && seg == archn &&
		    memcmp(key, arch, archn) == 0 && i + seg < n) {
			if (put(pat, &len, "{arch}", 6) != 0)
				return -1;
		} else if (i > 0 && all_digits(key + i, seg)) {
			if (put(pat, &len, "{id}", 4) != 0)
				return -1;
		} else if (put(pat, &len, key + i, seg) != 0)
			return -1;
		i += seg + 1;
		if (i <= n && put(pat, &len, ".", 1) != 0)
			return -1;
	}
	return 0;
}

/* The pattern itself, or with its last segment as a {name}. */
static const struct gguf_key_spec *
lookup_both(char *pat, size_t last)
{
	const struct gguf_key_spec	*s;
	size_t				 len = last;

	if ((s = lookup(pat)) != NULL || last == 0)
		return s;
	pat[len] = '\0';
	if (put(pat, &len, "{name}", 6) != 0)
		return NULL;
	return lookup(pat);
}

const struct gguf_key_spec *
gguf_schema_find(const char *key, size_t n, const char *arch, size_t archn)
{
	const struct gguf_key_spec	*s;
	const char			*dot;
	char				 pat[PATTERN_MAX];
	size_t				 last, len;

	if (n == 0 || memchr(key, '\0', n) != NULL || memchr(key, '{', n) !=
	    NULL || memchr(key, '}', n) != NULL)
		return NULL;			/* placeholders are not keys */
	if (pattern(key, n, arch, archn, pat, &last) == 0 &&
	    (s = lookup_both(pat, last)) != NULL)
		return s;
	/* Too long for a pattern: its last segment may still be a {name}. */
	if ((dot = memrchr(key, '.', n)) != NULL && dot > key &&
	    pattern(key, (size_t)(dot - key), arch, archn, pat, &last) == 0) {
		len = strlen(pat);
		if (put(pat, &len, ".{name}", 7) == 0 &&
		    (s = lookup(pat)) != NULL)
			return s;
	}
	/* An architecture named like a namespace: general.name itself. */
	if (archn > 0 && archn < n && memcmp(key, arch, archn) == 0 &&
	    pattern(key, n, NULL, 0, pat, &last) == 0)
		return lookup_both(pat, last);
	return NULL;
}

int
gguf_schema_type_ok(const struct gguf_key_spec *s, uint32_t type,
    uint32_t atype)
{
	const char	*p = s->types, *end;
	size_t		 n;
	int		 t;

	for (;;) {
		end = strchr(p, '|');
		n = end != NULL ? (size_t)(end - p) : strlen(p);
		if (n > 5 && memcmp(p, "arr[", 4) == 0 && p[n - 1] == ']') {
			t = gguf_vtype_parse(p + 4, n - 5);
			if (type == GGUF_VT_ARR && t >= 0 &&
			    atype == (uint32_t)t)
				return 1;
		} else {
			t = gguf_vtype_parse(p, n);
			if (t >= 0 && type == (uint32_t)t)
				return 1;
		}
		if (end == NULL)
			return 0;
		p = end + 1;
	}
}

int
gguf_schema_strict(const struct gguf_key_spec *s)
{
	static const char *const	prefixes[] = {
		"{arch}.", "tokenizer.ggml.", "split."
	};
	static const char *const	keys[] = {
		"general.architecture", "general.name", "general.file_type",
		"tokenizer.chat_template"
	};
	size_t				i;

	for (i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
		if (strncmp(s->key, prefixes[i], strlen(prefixes[i])) == 0)
			return 1;
	for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (strcmp(s->key, keys[i]) == 0)
			return 1;
	return 0;
}

int64_t
gguf_tensor_block(const struct gguf_str *name)
{
	uint64_t	i, n = 0;

	if (name->n < 6 || memcmp(name->p, "blk.", 4) != 0)
		return -1;
	for (i = 4; i < name->n && name->p[i] >= '0' && name->p[i] <= '9';
	    i++) {
		n = n * 10 + (uint64_t)(name->p[i] - '0');
		if (n > (1u << 30))
			return -1;
	}
	if (i == 4 || i >= name->n || name->p[i] != '.')
		return -1;
	return (int64_t)n;
}
