/*
 * fileint.h - an open file's insides, shared by the two files that make
 * and read it: reader.c (the walk, the index, the findings, split sets)
 * and file.c (where the bytes come from: opening through a source, the
 * change checks, guarded reads). No one else looks inside.
 */
#ifndef GGUF_FILEINT_H
#define GGUF_FILEINT_H

#include <stdatomic.h>

#include "gguf.h"
#include "internal.h"
#include "nameix.h"
#include "source.h"

#define MAX_WARNINGS	256	/* stored; the rest are counted */

struct gguf_file {
	char			*path;
	/*
	 * The file's bytes: all of them (whole: a mapping or a buffer), or
	 * the first have bytes, read from a source that cannot be mapped,
	 * which hold at least the header region.
	 */
	const uint8_t		*base;
	uint64_t		 size;
	uint64_t		 have;		/* bytes at base */
	int			 whole;		/* tensor data is at base too */
	struct gguf_source	*src;		/* NULL: a buffer, or a set */
	uint8_t			*own;		/* base, when read from src */
	uint64_t		 hdr_len;	/* of base: a copy */
	/*
	 * Where a whole file's tensor data is read: base for a file mapped
	 * to be walked; for a local file whose header region was read into
	 * own (a small header: no mapping made, pinned or torn down to open
	 * it), the source's mapping, made at the first need of the data
	 * (gguf_file_data). NULL until then; read it with gguf_file_data.
	 */
	const uint8_t		*data;

	/*
	 * While base, a mapping of the whole file, is walked: what reads
	 * the file's bytes for the walk of a vocabulary (see struct
	 * gguf_cur), or NULL.
	 */
	struct gguf_cur_rd	*walk_rd;

	struct gguf_layout	 lay;

	struct gguf_kv		*kv;
	uint64_t		 n_kv;
	struct gguf_nameix	 kv_names;

	struct gguf_tensor	*tensors;
	uint64_t		 n_tensors;
	struct gguf_nameix	 tensor_names;
	uint64_t		*thash;		/* each tensor name's index hash */
	/*
	 * A shard opened for a set (gguf_open_shard): its tensor names are
	 * hashed but not indexed, as the set indexes them all once (and
	 * finds a name twice in the shard itself, gguf_join); the shard's
	 * own index is built at its first gguf_tensor_find.
	 */
	int			 defer_names;
	atomic_int		 names_built;

	struct gguf_warning	*warn;
	size_t			 n_warn;
	size_t			 n_warn_errors;	/* errors kept */
	size_t			 n_dropped[3];	/* past the cap, by level */
	struct gguf_warning	 dropped;	/* one more saying so */
	char			 dropped_msg[160];
	/* errors that make a set's shards no one set (gguf_set_errors) */
	unsigned		 n_set_errors;
	char			*set_error;	/* the first */

	/*
	 * A split model joined as one (gguf_join): the metadata is the first
	 * shard's, the tensors every shard's (each knows its shard), and the
	 * data is read from the shards' own mappings. NULL for a missing one.
	 * Its tensors are not copied: tp points at each in its shard's array
	 * (tensors is NULL), so that opening a set costs no second array of
	 * tensor infos to fill (a page fault every 36 of them).
	 */
	struct gguf_tensor	**tp;
	struct gguf_file	**shards;
	char			**shard_paths;
	size_t			 n_shards;
};

/*
 * reader.c: walks f's bytes (base, have of size) into its index; NULL
 * with err set (f freed) when they are not GGUF. When base is only a
 * first part of the file and the walk needs more, *want (may be NULL) is
 * the end it needs.
 */
struct gguf_file	*gguf_file_parse(struct gguf_file *f, uint64_t *want,
			    struct gguf_err *err);
/*
 * file.c: the start of the whole file f's bytes for its tensor data (see
 * data above), mapped now if they are not yet: NULL with err set when the
 * file cannot be mapped. Safe from any thread.
 */
const uint8_t		*gguf_file_data(const struct gguf_file *f,
			    struct gguf_err *err);
/* reader.c: "SHARD: " before a message about shard i of set f. */
void			 gguf_file_shard_msg(const struct gguf_file *f,
			    size_t i, struct gguf_err *err);

#endif /* GGUF_FILEINT_H */
