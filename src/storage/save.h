/*
 * save.h - saving a document: to its own file in place or by an atomic
 * rewrite, to another file, a split set as one transaction; the journal
 * an interrupted save leaves, the recovery from it, the lock of a save
 * and the temporary files a crash leaves behind.
 */
#ifndef GGUF_SAVE_H
#define GGUF_SAVE_H

#include <stddef.h>
#include <stdint.h>

#include "doc.h"

struct gguf_save_opts {
	/*
	 * Where to write: NULL is the document's own file. A path naming
	 * the document's own file (same inode) is refused: saving over the
	 * source is only done as a save of the document (NULL).
	 */
	const char		*path;
	/*
	 * Write even if the source changed on disk since it was opened,
	 * over another existing file (path), to a read-only file or into a
	 * read-only directory (by the mode bits). A read-only file is then
	 * replaced by a rewrite that keeps its mode.
	 */
	int			 force;
	int			 no_inplace;	/* never take the in-place path */
	int			 no_reopen;	/* see gguf_doc_save */
	/*
	 * Header reserve: -1 keeps what the document has (a reserve entry
	 * of the source is resized so the data does not move), 0 removes
	 * it, > 0 makes the header at least this many bytes larger than
	 * needed, held by a GGUF_RESERVED_KEY entry.
	 */
	int64_t			 reserve;
	gguf_progress_fn	 progress;
	void			*arg;
};

#define GGUF_SAVE_REWRITE	1	/* temp file + fsync + rename */
#define GGUF_SAVE_INPLACE	2	/* journaled header rewrite */
#define GGUF_SAVE_SET		3	/* a split set's changed shards, rewritten */

#define GGUF_MAX_NOTICES	8

struct gguf_save_info {
	int		 how;		/* GGUF_SAVE_* */
	uint64_t	 file_size;	/* of the result */
	uint64_t	 written;	/* bytes written (header only in place) */
	uint64_t	 data_off;	/* start of the data section */
	uint64_t	 reserve;	/* bytes held by the reserve entry */
	int		 relayout;	/* tensor data was re-laid out */
	unsigned long	 nlink;		/* names (hard links) of the target */
	unsigned	 n_shards;	/* GGUF_SAVE_SET: shards of the set */
	unsigned	 shards_written;	/* and those written anew */
	unsigned	 shards_inplace;	/* of those, saved in place */
	/* forced over a file changed on disk since it was opened: the
	   tensor data copied is the file's as it is now */
	int		 source_changed;
	size_t		 n_notices;
	char		 notices[GGUF_MAX_NOTICES][160];	/* what was normalised */
};

/*
 * What a save with these options would do (the path it would take, the
 * normalisations it would make, a note when the file has several hard
 * links), without writing anything. -1 with err set if the source cannot
 * be saved, or another process is saving the file.
 */
int	gguf_doc_plan_save(struct gguf_doc *d, const struct gguf_save_opts *o,
	    struct gguf_save_info *info, struct gguf_err *err);

/*
 * Saves the document as GGUF v3. To another path: always a new file
 * written beside the target, fsynced and renamed over it. To its own
 * file: in place (journaled, header only) when the data section does not
 * move, else the same atomic rewrite. A split set saved as itself
 * rewrites the shards that change, all or none (setsave.c). Any failure leaves the target as it
 * was and removes the temporary file; err says what failed.
 *
 * After a successful save of the document to its own file, the document
 * reopens itself on the new file: the overlay, the undo history and all
 * views are gone. If that reopening fails, the save still succeeded and
 * 1 is returned with err set; the document must then be freed. With
 * no_reopen (a caller about to exit), it is not reopened and may then
 * only be freed.
 */
int	gguf_doc_save(struct gguf_doc *d, const struct gguf_save_opts *o,
	    struct gguf_save_info *info, struct gguf_err *err);
/*
 * Whether the save may go where o says, as gguf_doc_save checks it first:
 * unless o->force, not over another existing file (o->path), not to a
 * read-only file, not into a read-only directory. -1 with err set if not.
 */
int	gguf_doc_check_target(struct gguf_doc *d,
	    const struct gguf_save_opts *o, struct gguf_err *err);
/*
 * A save or a recovery holds a lock beside the file ("FILE.ggufed-lock")
 * from start to end; another one is refused meanwhile. The process that
 * holds the lock of path (links followed): its id, -1 if it cannot be
 * told, 0 if none does.
 */
long	gguf_save_holder(const char *path);

/* ---------------------------------------------------------------- journal */

/*
 * The journal path of a model ("MODEL.ggufed-journal"), in buf: beside
 * the file that path's links lead to.
 */
void	gguf_journal_path(const char *path, char *buf, size_t len);
/* True if a journal exists beside path (links followed). */
int	gguf_journal_exists(const char *path);
/*
 * Whether the journal beside path (or its set's, beside the first shard)
 * would be honoured by gguf_recover: GGUF_JOURNAL_NONE, none;
 * GGUF_JOURNAL_OURS; GGUF_JOURNAL_FOREIGN, one not ours (another user's,
 * writable by others, not a regular file), which recovery refuses: why,
 * in buf ("owned by nobody, not by root").
 */
#define GGUF_JOURNAL_NONE	0
#define GGUF_JOURNAL_OURS	1
#define GGUF_JOURNAL_FOREIGN	2
int	gguf_journal_trust(const char *path, char *why, size_t len);
/*
 * Rolls back an interrupted in-place save of path (links followed) from
 * its journal, or the interrupted save of the split set path is a shard
 * of from the set's journal (beside its first shard), holding the save
 * lock: returns 1 after restoring the old header (every old shard), 2 if the journal was incomplete (the model had not been touched
 * yet) and was removed, 0 if there is no journal, -1 with err set on
 * failure: another process is saving the file, the journal or the lock
 * is not ours (another user's, or writable by others: see
 * gguf_journal_trust), a set's journal names a path that is not the
 * set's own, or the file is not the one the journal was made for (in each
 * case the file is left as it is, and so is the journal).
 */
int	gguf_recover(const char *path, struct gguf_err *err);
/* What killed saves left beside a file, by kind. */
struct gguf_leftovers {
	int		temps;		/* new files of killed saves */
	uint64_t	temp_bytes;
	int		backups;	/* old shards ("SHARD.ggufed-old") a */
	uint64_t	backup_bytes;	/* set's committed save left */
};
/*
 * Files left beside path by saves that were killed (their process is
 * gone): the new files of rewrites that never replaced anything, and the
 * old shards of a set's save that had committed. Returns how many there
 * are, after removing them if remove is set, and in *lo how many of each
 * kind and their sizes; -1 with err set if one could not be removed.
 */
int	gguf_stale_temps(const char *path, int remove,
	    struct gguf_leftovers *lo, struct gguf_err *err);
/*
 * The same for several files (a set's shards), reading each directory
 * once; those that do not exist are passed over.
 */
int	gguf_stale_temps_list(const char *const *paths, size_t npaths,
	    int remove, struct gguf_leftovers *lo, struct gguf_err *err);

/*
 * Whether an interrupted save left a journal beside the file d was
 * opened from, as it is now: GGUF_JOURNAL_NONE, GGUF_JOURNAL_OURS, or
 * GGUF_JOURNAL_FOREIGN for one recovery would refuse (see
 * gguf_journal_trust). Asked right after opening, it tells what the
 * file was opened with.
 */
int	gguf_doc_has_journal(struct gguf_doc *d);

/* The mode a created file gets: 0666 less the umask. */
mode_t	gguf_created_mode(void);

#endif /* GGUF_SAVE_H */
