/*
 * ggufgen.h - a byte-level GGUF builder for tests.
 *
 * Not part of the product, and on purpose independent of it: nothing here
 * includes the format core, so a test built with it does not share the
 * core's mistakes. The type ids below are the ones of the format.
 *
 * A struct gg is a growable byte buffer plus the conventions of the file
 * being built: version (1 writes u32 counts, lengths and dimensions; 2 and
 * 3 write u64) and byte order. Calls append in file order, nothing is
 * checked: to build a hostile file, append the lie (a raw count, a length
 * past the end, an unknown type) or patch a field afterwards with
 * gg_set32/gg_set64 at an offset remembered with gg_pos, or cut the buffer
 * with gg_truncate. Out of memory aborts.
 *
 *	struct gg	g;
 *	uint64_t	ne[2] = { 4, 2 };
 *
 *	gg_init(&g, 3, 0);
 *	gg_header(&g, 1, 1);			1 tensor, 1 KV pair
 *	gg_kv_str(&g, "general.architecture", "llama");
 *	gg_tensor(&g, "w", 2, ne, GG_T_F32, 0);
 *	gg_pad(&g, 32);
 *	gg_zeros(&g, 32);			the data
 *	gg_write(&g, "w.gguf");
 *	gg_free(&g);
 */
#ifndef GGUFGEN_H
#define GGUFGEN_H

#include <stddef.h>
#include <stdint.h>

/* Metadata value types. */
#define GG_U8		0
#define GG_I8		1
#define GG_U16		2
#define GG_I16		3
#define GG_U32		4
#define GG_I32		5
#define GG_F32		6
#define GG_BOOL		7
#define GG_STR		8
#define GG_ARR		9
#define GG_U64		10
#define GG_I64		11
#define GG_F64		12

/* A few ggml tensor types (the full list is in the format's spec). */
#define GG_T_F32	0
#define GG_T_F16	1
#define GG_T_Q4_0	2
#define GG_T_Q8_0	8
#define GG_T_Q4_K	12
#define GG_T_Q6_K	14
#define GG_T_F64	28

struct gg {
	uint8_t		*buf;
	size_t		 len;
	size_t		 cap;
	uint32_t	 version;	/* written by gg_header */
	int		 be;		/* big-endian fields */
	unsigned	 lw;		/* 4 in v1, else 8: counts and lengths */
};

void	gg_init(struct gg *g, uint32_t version, int be);
void	gg_free(struct gg *g);
/* Bytes written so far: the offset of whatever comes next. */
size_t	gg_pos(const struct gg *g);
/* Writes the buffer to path; -1 with errno set on failure. */
int	gg_write(const struct gg *g, const char *path);

/* ---------------------------------------------------- raw fields, any lie */

void	gg_bytes(struct gg *g, const void *p, size_t n);
void	gg_fill(struct gg *g, uint8_t byte, size_t n);
void	gg_zeros(struct gg *g, size_t n);
void	gg_u8(struct gg *g, uint8_t v);
void	gg_u16(struct gg *g, uint16_t v);
void	gg_u32(struct gg *g, uint32_t v);
void	gg_u64(struct gg *g, uint64_t v);
void	gg_f32(struct gg *g, float v);
void	gg_f64(struct gg *g, double v);
/* A length or count: u32 in v1 (the value is cut to 32 bits), else u64. */
void	gg_len(struct gg *g, uint64_t v);
/* A string: length, then the bytes. */
void	gg_strn(struct gg *g, const void *p, size_t n);
void	gg_str(struct gg *g, const char *s);
/* Zero bytes up to the next multiple of align. */
void	gg_pad(struct gg *g, uint64_t align);

/* Overwrite a field already written (in the file's byte order). */
void	gg_set8(struct gg *g, size_t off, uint8_t v);
void	gg_set32(struct gg *g, size_t off, uint32_t v);
void	gg_set64(struct gg *g, size_t off, uint64_t v);
/* A length or count field, u32 in v1, else u64. */
void	gg_setlen(struct gg *g, size_t off, uint64_t v);
/* Cuts the buffer to len bytes (never grows it). */
void	gg_truncate(struct gg *g, size_t len);

/* -------------------------------------------------------------- structure */

/* Magic, version, tensor count and KV count (u32 each in v1). */
void	gg_header(struct gg *g, uint64_t n_tensors, uint64_t n_kv);
/* The start of a KV entry: key, then value type. The value follows. */
void	gg_key(struct gg *g, const char *key, uint32_t vtype);
/*
 * The head of an array value: element type and count. The elements follow,
 * written with the raw calls (gg_u32, gg_str, ...) or, for nested arrays,
 * with another gg_arr.
 */
void	gg_arr(struct gg *g, uint32_t atype, uint64_t count);

/* Whole KV entries. */
void	gg_kv_u8(struct gg *g, const char *key, uint8_t v);
void	gg_kv_i8(struct gg *g, const char *key, int8_t v);
void	gg_kv_u16(struct gg *g, const char *key, uint16_t v);
void	gg_kv_i16(struct gg *g, const char *key, int16_t v);
void	gg_kv_u32(struct gg *g, const char *key, uint32_t v);
void	gg_kv_i32(struct gg *g, const char *key, int32_t v);
void	gg_kv_f32(struct gg *g, const char *key, float v);
void	gg_kv_bool(struct gg *g, const char *key, uint8_t v);
void	gg_kv_u64(struct gg *g, const char *key, uint64_t v);
void	gg_kv_i64(struct gg *g, const char *key, int64_t v);
void	gg_kv_f64(struct gg *g, const char *key, double v);
void	gg_kv_str(struct gg *g, const char *key, const char *v);
/* Key, type ARR, element type and count; the elements follow. */
void	gg_kv_arr(struct gg *g, const char *key, uint32_t atype,
	    uint64_t count);

/*
 * A tensor info: name, n_dims, the n_dims dimensions of ne (u32 each in
 * v1), type, offset. n_dims may lie: only min(n_dims, 4) dimensions are
 * written, from ne.
 */
void	gg_tensor(struct gg *g, const char *name, uint32_t n_dims,
	    const uint64_t *ne, uint32_t type, uint64_t offset);

#endif /* GGUFGEN_H */
