/*
 * dequant.h - tensor data to numbers.
 *
 * Every ggml tensor type decodes to float32 with the same float32
 * arithmetic as ggml's own conversion (ggml's to_float), so the values are
 * equal bit for bit; F32 is copied, F64 and the integer types are converted
 * with round-to-nearest. Any element range can be decoded: only the blocks
 * holding it are read, so a screenful of a huge tensor costs as much as a
 * screenful.
 *
 * Plain types (F16, BF16, F32, F64, I8 ... I64) are byte-swapped when the
 * file is big-endian. Quantized data in a big-endian file has no agreed
 * layout (ggml refuses such files) and is reported as not decodable.
 *
 * The block view decodes the fields of one quantized block (scales, mins,
 * sub-block scales, raw quants) to numbers, for showing what a block holds.
 *
 * Nothing here allocates: callers own every buffer. All functions are
 * thread-safe.
 */
#ifndef GGUF_DEQUANT_H
#define GGUF_DEQUANT_H

#include <stdint.h>

#include "gguf.h"

#define GGUF_MAX_BLCK	256	/* largest block of any type, in elements */

/*
 * 0 if tensors of type id in a file of this byte order (be) can be decoded;
 * otherwise -1 with a message ("removed type Q4_2 cannot be decoded",
 * "quantized type Q4_K in a big-endian file cannot be decoded", ...):
 * the rule of the type table, gguf_ttype_decodable, which every type it
 * allows has a decoder for.
 */
int	gguf_dequant_check(uint32_t type, int be, struct gguf_err *err);

/*
 * Decodes elements [first, first + n) of tensor data of the given type
 * (nbytes bytes at data, a whole number of blocks) into out[0 .. n). Reads
 * only the blocks that hold those elements. Returns -1 with a message if
 * the type cannot be decoded or the range lies outside the data.
 */
int	gguf_dequant(uint32_t type, int be, const uint8_t *data,
	    uint64_t nbytes, uint64_t first, uint64_t n, float *out,
	    struct gguf_err *err);

/*
 * The same with the portable decoders only. gguf_dequant uses, for the
 * most common types, decoders written with the vector instructions of the
 * CPU it runs on (AVX2 and F16C on x86-64) that give the same bits; these
 * are the reference they are tested against. GGUFED_DEQUANT=ref in the
 * environment makes gguf_dequant use them too.
 */
int	gguf_dequant_ref(uint32_t type, int be, const uint8_t *data,
	    uint64_t nbytes, uint64_t first, uint64_t n, float *out,
	    struct gguf_err *err);

/* What decodes little-endian data of type here: "avx2" or "portable". */
const char	*gguf_dequant_isa(uint32_t type);

/*
 * The same into doubles: F64 values exactly, integers exactly up to 2^53
 * (I64 beyond that rounded to nearest), every other type through its
 * float32 value.
 */
int	gguf_dequant_f64(uint32_t type, int be, const uint8_t *data,
	    uint64_t nbytes, uint64_t first, uint64_t n, double *out,
	    struct gguf_err *err);

/*
 * Integer types only (I8, I16, I32, I64): the exact values. -1 with a
 * message for any other type.
 */
int	gguf_dequant_i64(uint32_t type, int be, const uint8_t *data,
	    uint64_t nbytes, uint64_t first, uint64_t n, int64_t *out,
	    struct gguf_err *err);

/* True if the type's values are best kept as doubles (F64, I32, I64). */
int	gguf_dequant_wide(uint32_t type);

/* ------------------------------------------------------------ tensors */

/*
 * A tensor is ne[1] * ne[2] * ne[3] rows of ne[0] elements, in storage
 * order. Number of rows (0 for a tensor without elements).
 */
uint64_t gguf_tensor_nrows(const struct gguf_tensor *t);

/*
 * Decodes columns [col0, col0 + ncols) of rows [row0, row0 + nrows) of
 * tensor t of file f into out, row after row (nrows * ncols values).
 * Fails with a message naming the valid range when the window lies outside
 * the tensor, or when the tensor's data cannot be read or decoded, or
 * when the file changed on disk (the reads are guarded: see
 * gguf_file_guard). The _i64 form is for the integer types only.
 */
int	gguf_dequant_rows(const struct gguf_file *f,
	    const struct gguf_tensor *t, uint64_t row0, uint64_t nrows,
	    uint64_t col0, uint64_t ncols, float *out, struct gguf_err *err);
int	gguf_dequant_rows_f64(const struct gguf_file *f,
	    const struct gguf_tensor *t, uint64_t row0, uint64_t nrows,
	    uint64_t col0, uint64_t ncols, double *out, struct gguf_err *err);
int	gguf_dequant_rows_i64(const struct gguf_file *f,
	    const struct gguf_tensor *t, uint64_t row0, uint64_t nrows,
	    uint64_t col0, uint64_t ncols, int64_t *out, struct gguf_err *err);

/*
 * Copies bytes [off, off + n) of tensor t's data into buf, guarded like
 * the decoders above, or read from the file's source when it is not
 * mapped. With n 0, only whether the data can be read.
 */
int	gguf_tensor_read(const struct gguf_file *f,
	    const struct gguf_tensor *t, uint64_t off, void *buf, uint64_t n,
	    struct gguf_err *err);

/* --------------------------------------------------------- block view */

#define GGUF_BV_FIELDS	8
#define GGUF_BV_VALUES	1024

struct gguf_bv_field {
	const char	*name;		/* "d", "dmin", "scales", "q", ... */
	const char	*what;		/* one line: what the numbers are */
	uint32_t	 off;		/* first value in v[] */
	uint32_t	 n;		/* number of values */
	int		 integral;	/* the values are integers */
};

struct gguf_blockview {
	uint32_t		 nfield;
	struct gguf_bv_field	 f[GGUF_BV_FIELDS];
	double			 v[GGUF_BV_VALUES];
};

/*
 * Decodes the fields of block number `block` of quantized data of the
 * given type (nbytes bytes at data) into bv: the block's scales, mins and
 * sub-block scales as the numbers the format multiplies with, and its
 * quants as the integers they stand for (grid values with their signs for
 * the i-quants), in element order. -1 with a message for plain types,
 * types that cannot be decoded and blocks outside the data.
 */
int	gguf_dequant_block_view(uint32_t type, int be, const uint8_t *data,
	    uint64_t nbytes, uint64_t block, struct gguf_blockview *bv,
	    struct gguf_err *err);
/* The same for block `block` of tensor t of file f, guarded. */
int	gguf_tensor_block_view(const struct gguf_file *f,
	    const struct gguf_tensor *t, uint64_t block,
	    struct gguf_blockview *bv, struct gguf_err *err);

/*
 * Checks a row and column window of t (type decodable, size known, rows
 * and columns in range, with the valid range in the message) and returns
 * the tensor's data, a non-NULL dummy for an empty window, or NULL with
 * err set. Shared by every reader of tensor ranges; reads of the data must
 * be guarded (gguf_file_guard). For a tensor read by range, the pointer
 * only says the window is good: read it with gguf_tensor_fetch.
 */
const uint8_t	*gguf_tensor_window(const struct gguf_file *f,
		    const struct gguf_tensor *t, uint64_t row0, uint64_t nrows,
		    uint64_t col0, uint64_t ncols, struct gguf_err *err);
/*
 * True if t's data is read range by range into the readers' buffers
 * (gguf_tensor_fetch, gguf_tensor_read), not in place: its file is not
 * mapped, or it is read over the network, where a window of a few rows
 * must not fetch the whole tensor (gguf_tensor_data would).
 */
int		 gguf_tensor_by_range(const struct gguf_file *f,
		    const struct gguf_tensor *t);
/*
 * For a tensor read by range (gguf_tensor_by_range), where
 * gguf_tensor_window's pointer must not be read: an allocated buffer of
 * t->nbytes bytes laid out as the tensor's data, holding the blocks of
 * elements [e0, e1) read from the file (the rest is zero and takes no
 * memory until written). NULL with err set (the read's error). Free it.
 */
uint8_t		*gguf_tensor_fetch(const struct gguf_file *f,
		    const struct gguf_tensor *t, uint64_t e0, uint64_t e1,
		    struct gguf_err *err);

#endif /* GGUF_DEQUANT_H */
