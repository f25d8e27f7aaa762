/*
 * ggufgen.c - the test-file builder (see ggufgen.h).
 *
 * Every field goes through put(), which stores an integer of 1, 2, 4 or 8
 * bytes in the file's byte order. Floats are stored by their bits.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ggufgen.h"

static void
grow(struct gg *g, size_t n)
{
	size_t	cap;

	if (g->cap - g->len >= n)
		return;
	cap = g->cap != 0 ? g->cap : 256;
	while (cap - g->len < n) {
		if (cap > SIZE_MAX / 2)
			abort();
		cap *= 2;
	}
	g->buf = realloc(g->buf, cap);
	if (g->buf == NULL) {
		fprintf(stderr, "ggufgen: out of memory (%zu bytes)\n", cap);
		abort();
	}
	g->cap = cap;
}

/* Stores the low size bytes of v at p, in the file's byte order. */
static void
store(const struct gg *g, uint8_t *p, uint64_t v, unsigned size)
{
	unsigned	i;

	for (i = 0; i < size; i++)
		p[g->be ? size - 1 - i : i] = (uint8_t)(v >> (8 * i));
}

static void
put(struct gg *g, uint64_t v, unsigned size)
{
	grow(g, size);
	store(g, g->buf + g->len, v, size);
	g->len += size;
}

void
gg_init(struct gg *g, uint32_t version, int be)
{
	memset(g, 0, sizeof *g);
	g->version = version;
	g->be = be;
	g->lw = version == 1 ? 4 : 8;
}

void
gg_free(struct gg *g)
{
	free(g->buf);
	memset(g, 0, sizeof *g);
}

size_t
gg_pos(const struct gg *g)
{
	return g->len;
}

int
gg_write(const struct gg *g, const char *path)
{
	size_t	done = 0;
	ssize_t	n;
	int	fd, saved;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	while (done < g->len) {
		n = write(fd, g->buf + done, g->len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			saved = n < 0 ? errno : EIO;
			close(fd);
			errno = saved;
			return -1;
		}
		done += (size_t)n;
	}
	return close(fd);
}

/* ------------------------------------------------------------- raw fields */

void
gg_bytes(struct gg *g, const void *p, size_t n)
{
	if (n == 0)
		return;
	grow(g, n);
	memcpy(g->buf + g->len, p, n);
	g->len += n;
}

void
gg_fill(struct gg *g, uint8_t byte, size_t n)
{
	grow(g, n);
	memset(g->buf + g->len, byte, n);
	g->len += n;
}

void
gg_zeros(struct gg *g, size_t n)
{
	gg_fill(g, 0, n);
}

void
gg_u8(struct gg *g, uint8_t v)
{
	put(g, v, 1);
}

void
gg_u16(struct gg *g, uint16_t v)
{
	put(g, v, 2);
}

void
gg_u32(struct gg *g, uint32_t v)
{
	put(g, v, 4);
}

void
gg_u64(struct gg *g, uint64_t v)
{
	put(g, v, 8);
}

void
gg_f32(struct gg *g, float v)
{
	uint32_t	bits;

	memcpy(&bits, &v, 4);
	put(g, bits, 4);
}

void
gg_f64(struct gg *g, double v)
{
	uint64_t	bits;

	memcpy(&bits, &v, 8);
	put(g, bits, 8);
}

void
gg_len(struct gg *g, uint64_t v)
{
	put(g, v, g->lw);
}

void
gg_strn(struct gg *g, const void *p, size_t n)
{
	gg_len(g, n);
	gg_bytes(g, p, n);
}

void
gg_str(struct gg *g, const char *s)
{
	gg_strn(g, s, strlen(s));
}

void
gg_pad(struct gg *g, uint64_t align)
{
	if (align > 1 && g->len % align != 0)
		gg_zeros(g, (size_t)(align - g->len % align));
}

void
gg_set8(struct gg *g, size_t off, uint8_t v)
{
	if (off + 1 > g->len)
		abort();
	g->buf[off] = v;
}

void
gg_set32(struct gg *g, size_t off, uint32_t v)
{
	if (off + 4 > g->len)
		abort();
	store(g, g->buf + off, v, 4);
}

void
gg_set64(struct gg *g, size_t off, uint64_t v)
{
	if (off + 8 > g->len)
		abort();
	store(g, g->buf + off, v, 8);
}

void
gg_setlen(struct gg *g, size_t off, uint64_t v)
{
	if (g->lw == 4)
		gg_set32(g, off, (uint32_t)v);
	else
		gg_set64(g, off, v);
}

void
gg_truncate(struct gg *g, size_t len)
{
	if (len < g->len)
		g->len = len;
}

/* -------------------------------------------------------------- structure */

void
gg_header(struct gg *g, uint64_t n_tensors, uint64_t n_kv)
{
	gg_bytes(g, "GGUF", 4);
	gg_u32(g, g->version);
	gg_len(g, n_tensors);
	gg_len(g, n_kv);
}

void
gg_key(struct gg *g, const char *key, uint32_t vtype)
{
	gg_str(g, key);
	gg_u32(g, vtype);
}

void
gg_arr(struct gg *g, uint32_t atype, uint64_t count)
{
	gg_u32(g, atype);
	gg_len(g, count);
}

void
gg_kv_u8(struct gg *g, const char *key, uint8_t v)
{
	gg_key(g, key, GG_U8);
	gg_u8(g, v);
}

void
gg_kv_i8(struct gg *g, const char *key, int8_t v)
{
	gg_key(g, key, GG_I8);
	gg_u8(g, (uint8_t)v);
}

void
gg_kv_u16(struct gg *g, const char *key, uint16_t v)
{
	gg_key(g, key, GG_U16);
	gg_u16(g, v);
}

void
gg_kv_i16(struct gg *g, const char *key, int16_t v)
{
	gg_key(g, key, GG_I16);
	gg_u16(g, (uint16_t)v);
}

void
gg_kv_u32(struct gg *g, const char *key, uint32_t v)
{
	gg_key(g, key, GG_U32);
	gg_u32(g, v);
}

void
gg_kv_i32(struct gg *g, const char *key, int32_t v)
{
	gg_key(g, key, GG_I32);
	gg_u32(g, (uint32_t)v);
}

void
gg_kv_f32(struct gg *g, const char *key, float v)
{
	gg_key(g, key, GG_F32);
	gg_f32(g, v);
}

void
gg_kv_bool(struct gg *g, const char *key, uint8_t v)
{
	gg_key(g, key, GG_BOOL);
	gg_u8(g, v);
}

void
gg_kv_u64(struct gg *g, const char *key, uint64_t v)
{
	gg_key(g, key, GG_U64);
	gg_u64(g, v);
}

void
gg_kv_i64(struct gg *g, const char *key, int64_t v)
{
	gg_key(g, key, GG_I64);
	gg_u64(g, (uint64_t)v);
}

void
gg_kv_f64(struct gg *g, const char *key, double v)
{
	gg_key(g, key, GG_F64);
	gg_f64(g, v);
}

void
gg_kv_str(struct gg *g, const char *key, const char *v)
{
	gg_key(g, key, GG_STR);
	gg_str(g, v);
}

void
gg_kv_arr(struct gg *g, const char *key, uint32_t atype, uint64_t count)
{
	gg_key(g, key, GG_ARR);
	gg_arr(g, atype, count);
}

void
gg_tensor(struct gg *g, const char *name, uint32_t n_dims, const uint64_t *ne,
    uint32_t type, uint64_t offset)
{
	uint32_t	i;

	gg_str(g, name);
	gg_u32(g, n_dims);
	for (i = 0; i < n_dims && i < 4; i++) {
		if (g->version == 1)
			gg_u32(g, (uint32_t)ne[i]);
		else
			gg_u64(g, ne[i]);
	}
	gg_u32(g, type);
	gg_u64(g, offset);
}
