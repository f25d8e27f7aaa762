/*
 * hash.c - the hash engine: spans of a file read into aligned buffers
 * and hashed on both cores.
 *
 * A "lane" reads its spans in order. Consecutive spans that ascend with
 * small gaps (tensor data and its padding) form a run, read in CHUNK
 * pieces; each piece is cut into segments, one per span it touches, so
 * padding is never hashed. With a follower, the lane publishes every
 * piece into a ring of NSLOT buffers: the lane hashes the concatenation,
 * the follower each span, from the same bytes, and a buffer is read
 * again only when the follower is done with it.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <xxhash.h>

#include "doc.h"
#include "hash.h"
#include "xmalloc.h"

#define CHUNK	(256u << 10)	/* bytes read at a time */
#define NSLOT	16		/* buffers in the ring */
#define BATCH	(NSLOT / 2)	/* pieces a waiting thread waits for */
#define MAXGAP	(1u << 20)	/* a gap between spans still read through */
#define BUFALIGN 4096

/* uuid.uuid5(uuid.NAMESPACE_URL, 'en.wikipedia.org/wiki/Llama.cpp') */
static const uint8_t uuid_ns[16] = {
	0xef, 0x00, 0x12, 0x06, 0xda, 0xdc, 0x5f, 0x6d,
	0xa1, 0x5f, 0x33, 0x59, 0xe5, 0x77, 0xd4, 0xe5
};

static const char *const kind_names[GGUF_H_COUNT] = {
	"xxh64", "xxh3", "sha1", "sha256", "uuid"
};

const char *
gguf_hash_name(int kind)
{
	return kind >= 0 && kind < GGUF_H_COUNT ? kind_names[kind] : NULL;
}

int
gguf_hash_parse(const char *s, size_t n)
{
	int	k;

	for (k = 0; k < GGUF_H_COUNT; k++)
		if (strlen(kind_names[k]) == n && memcmp(kind_names[k], s, n) == 0)
			return k;
	return -1;
}

const char *
gguf_hash_text(int kind, const struct gguf_digest *d, char *buf)
{
	static const char	hex[] = "0123456789abcdef";
	char			*o = buf;
	unsigned		 i;

	for (i = 0; i < d->len; i++) {
		if (kind == GGUF_H_UUID && (i == 4 || i == 6 || i == 8 ||
		    i == 10))
			*o++ = '-';
		*o++ = hex[d->b[i] >> 4];
		*o++ = hex[d->b[i] & 15];
	}
	*o = '\0';
	return buf;
}

int
gguf_digest_eq(const struct gguf_digest *a, const struct gguf_digest *b)
{
	return a->len != 0 && a->len == b->len &&
	    memcmp(a->b, b->b, a->len) == 0;
}

/* ------------------------------------------------------- running hashes */

/* The running hashes of several kinds over one stream of bytes. */
struct hstate {
	unsigned	 kinds;
	XXH64_state_t	*x64;
	XXH3_state_t	*x3;
	EVP_MD_CTX	*md[3];		/* sha1, sha256, uuid */
};

static const EVP_MD *
md_of(int i)
{
	return i == 1 ? EVP_sha256() : EVP_sha1();
}

static void
hs_reset(struct hstate *s)
{
	int	i;

	if (s->x64 != NULL)
		XXH64_reset(s->x64, 0);
	if (s->x3 != NULL)
		XXH3_64bits_reset(s->x3);
	for (i = 0; i < 3; i++) {
		if (s->md[i] == NULL)
			continue;
		if (EVP_DigestInit_ex(s->md[i], md_of(i), NULL) != 1)
			xmalloc_fail(256);
		if (i == 2)
			EVP_DigestUpdate(s->md[i], uuid_ns, sizeof uuid_ns);
	}
}

static void
hs_init(struct hstate *s, unsigned kinds)
{
	int	i;

	memset(s, 0, sizeof *s);
	s->kinds = kinds;
	if ((kinds & GGUF_HM(GGUF_H_XXH64)) &&
	    (s->x64 = XXH64_createState()) == NULL)
		xmalloc_fail(64);
	if ((kinds & GGUF_HM(GGUF_H_XXH3)) &&
	    (s->x3 = XXH3_createState()) == NULL)
		xmalloc_fail(576);
	for (i = 0; i < 3; i++)
		if ((kinds & GGUF_HM(GGUF_H_SHA1 + i)) &&
		    (s->md[i] = EVP_MD_CTX_new()) == NULL)
			xmalloc_fail(256);
	hs_reset(s);
}

static void
hs_update(struct hstate *s, const void *p, size_t n)
{
	int	i;

	if (s->x64 != NULL)
		XXH64_update(s->x64, p, n);
	if (s->x3 != NULL)
		XXH3_64bits_update(s->x3, p, n);
	for (i = 0; i < 3; i++)
		if (s->md[i] != NULL)
			EVP_DigestUpdate(s->md[i], p, n);
}

static void
put_be64(uint8_t *b, uint64_t v)
{
	int	i;

	for (i = 7; i >= 0; i--) {
		b[i] = (uint8_t)v;
		v >>= 8;
	}
}

/* Sets the version and variant bits of a UUIDv5 (RFC 9562, 5.5). */
static void
uuid5(const uint8_t *sha1, struct gguf_digest *out)
{
	memcpy(out->b, sha1, 16);
	out->b[6] = (uint8_t)((out->b[6] & 0x0f) | 0x50);
	out->b[8] = (uint8_t)((out->b[8] & 0x3f) | 0x80);
	out->len = 16;
}

static void
hs_final(struct hstate *s, struct gguf_hashes *out)
{
	uint8_t		 md[EVP_MAX_MD_SIZE];
	unsigned	 n, i;

	if (s->x64 != NULL) {
		put_be64(out->d[GGUF_H_XXH64].b, XXH64_digest(s->x64));
		out->d[GGUF_H_XXH64].len = 8;
	}
	if (s->x3 != NULL) {
		put_be64(out->d[GGUF_H_XXH3].b, XXH3_64bits_digest(s->x3));
		out->d[GGUF_H_XXH3].len = 8;
	}
	for (i = 0; i < 3; i++) {
		if (s->md[i] == NULL)
			continue;
		n = 0;
		EVP_DigestFinal_ex(s->md[i], md, &n);
		if (i == 2)
			uuid5(md, &out->d[GGUF_H_UUID]);
		else {
			memcpy(out->d[GGUF_H_SHA1 + i].b, md, n);
			out->d[GGUF_H_SHA1 + i].len = (uint8_t)n;
		}
	}
	hs_reset(s);
}

static void
hs_free(struct hstate *s)
{
	int	i;

	if (s->x64 != NULL)
		XXH64_freeState(s->x64);
	if (s->x3 != NULL)
		XXH3_freeState(s->x3);
	for (i = 0; i < 3; i++)
		EVP_MD_CTX_free(s->md[i]);
	memset(s, 0, sizeof *s);
}

void
gguf_hash_mem(int kind, const void *p, size_t n, struct gguf_digest *out)
{
	struct hstate		s;
	struct gguf_hashes	h;

	memset(&h, 0, sizeof h);
	hs_init(&s, GGUF_HM(kind));
	hs_update(&s, p, n);
	hs_final(&s, &h);
	hs_free(&s);
	*out = h.d[kind];
}

/* --------------------------------------------------------------- engine */

struct seg {
	size_t		 span;
	size_t		 boff;		/* in the buffer */
	size_t		 len;
	uint8_t		 first;		/* the span starts here */
	uint8_t		 last;		/* the span ends here */
};

struct slot {
	void		*raw;		/* allocation */
	uint8_t		*buf;		/* aligned */
	const uint8_t	*p;		/* the bytes: buf, or the memory */
	struct seg	*seg;
	size_t		 nseg;
	size_t		 aseg;
};

struct engine;

struct lane {
	struct engine	*e;
	size_t		 s0, s1;	/* its spans */
	unsigned	 each;		/* kinds of each span it hashes itself */
	unsigned	 all;
	int		 follow;	/* a follower hashes each span */
	atomic_uint_least64_t next;	/* the piece the lane fills next */
	atomic_uint_least64_t fnext;	/* the piece the follower hashes next */
	struct slot	 slot[NSLOT];
	/* with a follower; a change is followed by wake() */
	atomic_uint_least64_t published;	/* pieces ready */
	atomic_uint_least64_t consumed;	/* pieces the follower is done with */
	atomic_int	 finished;	/* no more pieces; the lane returned */
};

struct engine {
	const struct gguf_hash_job *j;
	pthread_mutex_t	 mu;
	pthread_cond_t	 cv;
	atomic_int	 waiters;	/* threads in pthread_cond_wait */
	atomic_int	 stop;
	atomic_uint_least64_t hashed;
	uint64_t	 total;
	int		 failed;
	struct gguf_err	 err;
};

/*
 * After a change of what the other thread may wait for: wakes it if it
 * waits and what it waits for holds (ready NULL: whatever it waits for).
 * A waiter counts itself in e->waiters under e->mu before it looks at
 * the condition, so either this sees it or it sees the change.
 */
static int	slot_free(struct lane *);
static int	piece_ready(struct lane *);

static void
wake(struct engine *e, struct lane *l, int (*ready)(struct lane *))
{
	if (atomic_load(&e->waiters) > 0 && (ready == NULL || ready(l))) {
		pthread_mutex_lock(&e->mu);
		pthread_cond_broadcast(&e->cv);
		pthread_mutex_unlock(&e->mu);
	}
}

/* Waits until ready(l) or a stop. */
static void
wait_for(struct engine *e, struct lane *l, int (*ready)(struct lane *))
{
	if (ready(l) || atomic_load(&e->stop))
		return;
	pthread_mutex_lock(&e->mu);
	atomic_fetch_add(&e->waiters, 1);
	while (!ready(l) && !atomic_load(&e->stop))
		pthread_cond_wait(&e->cv, &e->mu);
	atomic_fetch_sub(&e->waiters, 1);
	pthread_mutex_unlock(&e->mu);
}

static void
fail(struct engine *e, int64_t off, const char *what)
{
	pthread_mutex_lock(&e->mu);
	if (!e->failed) {
		e->failed = 1;
		if (off >= 0)
			gguf_errf(&e->err, off, "%s", what);
		else
			gguf_errf(&e->err, -1, "%s", what);
	}
	atomic_store(&e->stop, 1);
	pthread_cond_broadcast(&e->cv);
	pthread_mutex_unlock(&e->mu);
}

/*
 * The lane may fill the slot of piece l->next. Once it had to wait, it
 * waits for half the ring, so the threads do not wake each other for
 * every piece.
 */
static int
slot_free(struct lane *l)
{
	return atomic_load(&l->next) + BATCH <
	    atomic_load(&l->consumed) + NSLOT;
}

/* The follower may go on: half a ring is published, or all is. */
static int
piece_ready(struct lane *l)
{
	return atomic_load(&l->fnext) + BATCH <=
	    atomic_load(&l->published) ||
	    atomic_load(&l->finished);
}

/* Reads n bytes at off into buf: 0, or -1 after fail(). */
static int
read_at(struct engine *e, uint8_t *buf, size_t n, uint64_t off)
{
	char	 msg[160];
	size_t	 got = 0;
	ssize_t	 r;

	while (got < n) {
		r = pread(e->j->fd, buf + got, n - got, (off_t)(off + got));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			snprintf(msg, sizeof msg, "read: %s", strerror(errno));
			fail(e, (int64_t)(off + got), msg);
			return -1;
		}
		if (r == 0) {
			fail(e, (int64_t)(off + got), "the file ends before "
			    "the tensor data does (changed on disk?)");
			return -1;
		}
		got += (size_t)r;
	}
	return 0;
}

static void
slot_add(struct slot *sl, size_t span, size_t boff, size_t len, int first,
    int last)
{
	if (sl->nseg == sl->aseg) {
		sl->aseg = sl->aseg != 0 ? 2 * sl->aseg : 16;
		sl->seg = xreallocarray(sl->seg, sl->aseg, sizeof *sl->seg);
	}
	sl->seg[sl->nseg].span = span;
	sl->seg[sl->nseg].boff = boff;
	sl->seg[sl->nseg].len = len;
	sl->seg[sl->nseg].first = (uint8_t)first;
	sl->seg[sl->nseg].last = (uint8_t)last;
	sl->nseg++;
}

/* Hashes the segments of a piece into each (per span) and all. */
static void
hash_piece(const struct gguf_hash_job *j, const struct slot *sl,
    struct hstate *each, struct hstate *all)
{
	const struct seg	*g;
	size_t			 i;

	for (i = 0; i < sl->nseg; i++) {
		g = &sl->seg[i];
		if (all != NULL)
			hs_update(all, sl->p + g->boff, g->len);
		if (each != NULL) {
			hs_update(each, sl->p + g->boff, g->len);
			if (g->last)
				hs_final(each, &j->each_out[g->span]);
		}
	}
}

static int
report(struct engine *e, uint64_t add, int caller)
{
	uint64_t	done;

	done = atomic_fetch_add(&e->hashed, add) + add;
	if (caller && e->j->progress != NULL &&
	    e->j->progress(e->j->arg, done, e->total) != 0) {
		fail(e, -1, "cancelled");
		return -1;
	}
	return 0;
}

/* Runs a lane; caller is true in the calling thread (progress). */
static void
lane_run(struct lane *l, int caller)
{
	const struct gguf_hash_job	*j = l->e->j;
	const struct gguf_span		*sp = j->spans;
	struct engine			*e = l->e;
	struct hstate			 each, all;
	struct slot			*sl;
	uint64_t			 end, pos, piece = 0, bytes;
	size_t				 i, k, cur, clen;

	hs_init(&each, l->each);
	hs_init(&all, l->all);
	for (i = l->s0; i < l->s1 && !atomic_load(&e->stop); i = k) {
		if (sp[i].len == 0) {
			k = i + 1;
			continue;
		}
		end = sp[i].off + sp[i].len;
		for (k = i + 1; k < l->s1; k++) {
			if (sp[k].len == 0)
				continue;
			if (sp[k].off < end || sp[k].off - end > MAXGAP)
				break;
			end = sp[k].off + sp[k].len;
		}
		if (j->fd >= 0)
			(void)posix_fadvise(j->fd, (off_t)sp[i].off,
			    (off_t)(end - sp[i].off), POSIX_FADV_SEQUENTIAL);
		cur = i;
		for (pos = sp[i].off; pos < end; pos += clen) {
			clen = end - pos < CHUNK ? (size_t)(end - pos) : CHUNK;
			if (l->follow) {
				atomic_store(&l->next, piece);
				if (piece >= atomic_load(&l->consumed) + NSLOT)
					wait_for(e, l, slot_free);
				if (atomic_load(&e->stop))
					goto out;
			}
			sl = &l->slot[piece % NSLOT];
			if (j->fd >= 0) {
				if (read_at(e, sl->buf, clen, pos) != 0)
					goto out;
				sl->p = sl->buf;
			} else
				sl->p = j->mem + pos;
			sl->nseg = 0;
			bytes = 0;
			for (; cur < k; cur++) {
				uint64_t	a, b;

				if (sp[cur].len == 0)
					continue;
				if (sp[cur].off >= pos + clen)
					break;
				a = sp[cur].off > pos ? sp[cur].off : pos;
				b = sp[cur].off + sp[cur].len;
				if (b > pos + clen)
					b = pos + clen;
				slot_add(sl, cur, (size_t)(a - pos),
				    (size_t)(b - a), a == sp[cur].off,
				    b == sp[cur].off + sp[cur].len);
				bytes += b - a;
				if (b != sp[cur].off + sp[cur].len)
					break;
			}
			if (l->follow) {
				atomic_store(&l->published, ++piece);
				wake(e, l, piece_ready);
			}
			hash_piece(j, sl, l->each != 0 ? &each : NULL,
			    l->all != 0 ? &all : NULL);
			if (report(e, bytes, caller) != 0)
				goto out;
		}
	}
	if (l->all != 0 && !atomic_load(&e->stop))
		hs_final(&all, j->all_out);
out:
	hs_free(&each);
	hs_free(&all);
	atomic_store(&l->finished, 1);
	wake(e, l, NULL);
}

/* The follower of a lane: each span's hashes from the published pieces. */
static void *
follower(void *arg)
{
	struct lane	*l = arg;
	struct engine	*e = l->e;
	struct hstate	 each;
	uint64_t	 piece = 0;

	hs_init(&each, l->e->j->each);
	for (;;) {
		atomic_store(&l->fnext, piece);
		if (piece >= atomic_load(&l->published))
			wait_for(e, l, piece_ready);
		if (atomic_load(&e->stop) ||
		    piece >= atomic_load(&l->published))
			break;
		hash_piece(e->j, &l->slot[piece % NSLOT], &each, NULL);
		atomic_store(&l->consumed, ++piece);
		wake(e, l, slot_free);
	}
	hs_free(&each);
	return NULL;
}

static void *
lane_thread(void *arg)
{
	lane_run(arg, 0);
	return NULL;
}

static void
lane_init(struct lane *l, struct engine *e, size_t s0, size_t s1,
    unsigned each, unsigned all, int follow)
{
	int	i, n = follow ? NSLOT : 1;

	memset(l, 0, sizeof *l);
	atomic_init(&l->published, 0);
	atomic_init(&l->consumed, 0);
	atomic_init(&l->finished, 0);
	atomic_init(&l->next, 0);
	atomic_init(&l->fnext, 0);
	l->e = e;
	l->s0 = s0;
	l->s1 = s1;
	l->each = each;
	l->all = all;
	l->follow = follow;
	for (i = 0; i < n; i++) {
		if (e->j->fd < 0)
			continue;
		l->slot[i].raw = xmalloc(CHUNK + BUFALIGN);
		l->slot[i].buf = (uint8_t *)(((uintptr_t)l->slot[i].raw +
		    BUFALIGN - 1) & ~(uintptr_t)(BUFALIGN - 1));
	}
}

static void
lane_free(struct lane *l)
{
	int	i;

	for (i = 0; i < NSLOT; i++) {
		free(l->slot[i].raw);
		free(l->slot[i].seg);
	}
}

static unsigned
cores(void)
{
	long	n = sysconf(_SC_NPROCESSORS_ONLN);

	return n >= 2 ? 2 : 1;
}

int
gguf_hash_run(const struct gguf_hash_job *j, struct gguf_err *err)
{
	struct engine	 e;
	struct lane	 lane[2];
	pthread_t	 th;
	unsigned	 threads;
	uint64_t	 half, acc;
	size_t		 i, split;
	int		 started = 0, nlanes = 1;

	memset(&e, 0, sizeof e);
	e.j = j;
	pthread_mutex_init(&e.mu, NULL);
	pthread_cond_init(&e.cv, NULL);
	atomic_init(&e.waiters, 0);
	atomic_init(&e.stop, 0);
	atomic_init(&e.hashed, 0);
	for (i = 0; i < j->n_spans; i++) {
		e.total += j->spans[i].len;
		if (j->spans[i].len == 0 && j->each != 0) {
			struct hstate	s;

			hs_init(&s, j->each);
			hs_final(&s, &j->each_out[i]);
			hs_free(&s);
		}
	}
	threads = j->threads != 0 ? j->threads : cores();

	if (threads >= 2 && j->each != 0 && j->all != 0) {
		/* The concatenation here, each span in the follower. */
		lane_init(&lane[0], &e, 0, j->n_spans, 0, j->all, 1);
		if (pthread_create(&th, NULL, follower, &lane[0]) == 0)
			started = 1;
		else {
			lane_free(&lane[0]);
			lane_init(&lane[0], &e, 0, j->n_spans, j->each,
			    j->all, 0);
		}
		lane_run(&lane[0], 1);
		if (started)
			pthread_join(th, NULL);
	} else if (threads >= 2 && j->all == 0 && j->n_spans > 1) {
		/* Two lanes, each about half of the bytes. */
		half = e.total / 2;
		acc = 0;
		for (split = 0; split < j->n_spans - 1; split++) {
			if (acc + j->spans[split].len / 2 >= half && split > 0)
				break;
			acc += j->spans[split].len;
		}
		lane_init(&lane[0], &e, 0, split, j->each, 0, 0);
		lane_init(&lane[1], &e, split, j->n_spans, j->each, 0, 0);
		nlanes = 2;
		if (pthread_create(&th, NULL, lane_thread, &lane[1]) == 0)
			started = 1;
		lane_run(&lane[0], 1);
		if (started) {
			/* Keep reporting progress until the other is done. */
			pthread_mutex_lock(&e.mu);
			atomic_fetch_add(&e.waiters, 1);
			while (!atomic_load(&lane[1].finished)) {
				struct timespec	ts;

				clock_gettime(CLOCK_REALTIME, &ts);
				ts.tv_nsec += 50000000;
				if (ts.tv_nsec >= 1000000000) {
					ts.tv_sec++;
					ts.tv_nsec -= 1000000000;
				}
				pthread_cond_timedwait(&e.cv, &e.mu, &ts);
				if (atomic_load(&lane[1].finished) ||
				    atomic_load(&e.stop))
					continue;
				pthread_mutex_unlock(&e.mu);
				(void)report(&e, 0, 1);
				pthread_mutex_lock(&e.mu);
			}
			atomic_fetch_sub(&e.waiters, 1);
			pthread_mutex_unlock(&e.mu);
			pthread_join(th, NULL);
		} else
			lane_run(&lane[1], 1);
	} else {
		lane_init(&lane[0], &e, 0, j->n_spans, j->each, j->all, 0);
		lane_run(&lane[0], 1);
	}
	for (i = 0; i < (size_t)nlanes; i++)
		lane_free(&lane[i]);
	pthread_cond_destroy(&e.cv);
	pthread_mutex_destroy(&e.mu);
	if (e.failed) {
		if (err != NULL)
			*err = e.err;
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------- tensors */

int
gguf_tensor_span(const struct gguf_file *f, uint64_t i, struct gguf_span *out,
    struct gguf_err *err)
{
	const struct gguf_layout	*lay = gguf_layout(f);
	const struct gguf_tensor	*t = gguf_tensor_at(f, i);
	char				 nm[128], tb[24];

	if (t == NULL)
		return gguf_errf(err, -1, "no tensor %llu",
		    (unsigned long long)i);
	if (gguf_n_shards(f) > 0)	/* spans are of one file's bytes */
		return gguf_errf(err, -1, "a split model is hashed one shard "
		    "at a time");
	gguf_pname(t->name.p, (size_t)t->name.n, nm, sizeof nm);
	if (t->flags & GGUF_TENSOR_UNSIZED)
		return gguf_errf(err, (int64_t)t->off, "tensor \"%s\": the "
		    "size of its data is unknown (%s)", nm,
		    gguf_ttype_name(t->type, tb));
	if (t->flags & GGUF_TENSOR_UNREADABLE)
		return gguf_errf(err, (int64_t)t->off, "tensor \"%s\": its "
		    "data lies past the end of the file", nm);
	out->off = lay->data_off + t->offset;
	out->len = t->nbytes;
	return 0;
}

int
gguf_hash_tensors(const struct gguf_file *f, unsigned each, unsigned all,
    struct gguf_hashes *each_out, struct gguf_hashes *all_out,
    int (*progress)(void *, uint64_t, uint64_t), void *arg,
    struct gguf_err *err)
{
	struct gguf_hash_job	 j;
	struct gguf_span	*sp;
	uint64_t		 i, n = gguf_layout(f)->n_tensors;
	int			 rc;

	sp = xreallocarray(NULL, n != 0 ? n : 1, sizeof *sp);
	for (i = 0; i < n; i++)
		if (gguf_tensor_span(f, i, &sp[i], err) != 0) {
			free(sp);
			return -1;
		}
	memset(&j, 0, sizeof j);
	j.fd = gguf_file_fd(f);
	j.mem = gguf_base(f);
	j.spans = sp;
	j.n_spans = (size_t)n;
	j.each = each;
	j.all = all;
	j.each_out = each_out;
	j.all_out = all_out;
	j.progress = progress;
	j.arg = arg;
	if (each_out != NULL)
		memset(each_out, 0, (size_t)n * sizeof *each_out);
	if (all_out != NULL)
		memset(all_out, 0, sizeof *all_out);
	rc = gguf_hash_run(&j, err);
	free(sp);
	return rc;
}

int
gguf_hash_tensor(const struct gguf_file *f, uint64_t i, int kind,
    struct gguf_digest *out, struct gguf_err *err)
{
	struct gguf_hash_job	j;
	struct gguf_span	sp;
	struct gguf_hashes	h;

	if (gguf_tensor_span(f, i, &sp, err) != 0)
		return -1;
	memset(&j, 0, sizeof j);
	memset(&h, 0, sizeof h);
	j.fd = gguf_file_fd(f);
	j.mem = gguf_base(f);
	j.spans = &sp;
	j.n_spans = 1;
	j.each = GGUF_HM(kind);
	j.each_out = &h;
	j.threads = 1;
	if (gguf_hash_run(&j, err) != 0)
		return -1;
	*out = h.d[kind];
	return 0;
}

/* ------------------------------------------------ proof after a save */

int
gguf_proof_begin(struct gguf_doc *d, struct gguf_proof *p,
    struct gguf_err *err)
{
	struct gguf_file	*f = gguf_doc_file(d);
	struct gguf_doc_tensor	 dt;
	uint64_t		 i, n = gguf_doc_n_tensors(d);
	int64_t			 ix;
	int			 fd;

	memset(p, 0, sizeof *p);
	p->fd = -1;
	if ((fd = gguf_file_fd(f)) >= 0 &&
	    (p->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0)) < 0)
		return gguf_errf(err, -1, "cannot keep the source open: %s",
		    strerror(errno));
	p->mem = p->fd < 0 ? gguf_base(f) : NULL;	/* a buffer's memory */
	p->t = xreallocarray(NULL, n != 0 ? n : 1, sizeof *p->t);
	for (i = 0; i < n; i++) {
		if (gguf_doc_tensor(d, i, &dt) != 0 ||
		    (dt.flags & GGUF_ED_REMOVED))
			continue;
		ix = gguf_tensor_find(f, dt.t->name.p, (size_t)dt.t->name.n);
		if (ix < 0 || gguf_tensor_span(f, (uint64_t)ix,
		    &p->t[p->n].src, NULL) != 0) {
			/* Unreadable data: what is there cannot be proved. */
			p->t[p->n].src.off = 0;
			p->t[p->n].src.len = 0;
		}
		p->t[p->n].name = xstrndup(dt.name.p, (size_t)dt.name.n);
		p->t[p->n].edited = (dt.flags & GGUF_ED_VALUE) != 0 ||
		    dt.type != dt.t->type;
		p->t[p->n].type = dt.type;
		p->n++;
	}
	return 0;
}

void
gguf_proof_free(struct gguf_proof *p)
{
	size_t	i;

	for (i = 0; i < p->n; i++)
		free(p->t[i].name);
	free(p->t);
	if (p->fd >= 0)
		close(p->fd);
	memset(p, 0, sizeof *p);
	p->fd = -1;
}

void
gguf_proof_result_free(struct gguf_proof_result *r)
{
	size_t	i;

	for (i = 0; i < r->n_changed; i++)
		free(r->changed[i]);
	for (i = 0; i < r->n_missing; i++)
		free(r->missing[i]);
	for (i = 0; i < r->n_edited; i++)
		free(r->edited[i]);
	free(r->changed);
	free(r->missing);
	free(r->edited);
	memset(r, 0, sizeof *r);
}

static void
name_push(char ***v, size_t *n, const char *name, const char *suffix)
{
	char	buf[160], *s;
	size_t	len;

	gguf_pname(name, strlen(name), buf, sizeof buf);
	len = strlen(buf) + (suffix != NULL ? strlen(suffix) + 3 : 0) + 1;
	s = xmalloc(len);
	if (suffix != NULL)
		snprintf(s, len, "%s (%s)", buf, suffix);
	else
		snprintf(s, len, "%s", buf);
	*v = xreallocarray(*v, *n + 1, sizeof **v);
	(*v)[(*n)++] = s;
}

struct side {
	struct gguf_hash_job	 job;
	struct gguf_err		 err;
	int			 rc;
};

static void *
side_run(void *arg)
{
	struct side	*s = arg;

	s->rc = gguf_hash_run(&s->job, &s->err);
	return NULL;
}

int
gguf_proof_check(struct gguf_proof *p, const char *path, int inplace,
    int (*progress)(void *, uint64_t, uint64_t), void *arg,
    struct gguf_proof_result *r, struct gguf_err *err)
{
	struct gguf_file	*f;
	struct gguf_span	*src, *dst;
	struct gguf_hashes	*hs, *hd;
	struct side		 a, b;
	size_t			*which, i, n = 0;
	int64_t			 ix;
	char			 tb[24];
	pthread_t		 th;
	int			 started;

	memset(r, 0, sizeof *r);
	r->inplace = inplace;
	if ((f = gguf_open(path, err)) == NULL)
		return -1;
	src = xreallocarray(NULL, p->n + 1, sizeof *src);
	dst = xreallocarray(NULL, p->n + 1, sizeof *dst);
	which = xreallocarray(NULL, p->n + 1, sizeof *which);
	for (i = 0; i < p->n; i++) {
		const struct gguf_proof_tensor	*t = &p->t[i];

		ix = gguf_tensor_find(f, t->name, strlen(t->name));
		if (ix < 0) {
			name_push(&r->missing, &r->n_missing, t->name, NULL);
			continue;
		}
		if (t->edited) {
			name_push(&r->edited, &r->n_edited, t->name,
			    gguf_ttype_name(t->type, tb));
			continue;
		}
		if (gguf_tensor_span(f, (uint64_t)ix, &dst[n], NULL) != 0 ||
		    dst[n].len != t->src.len) {
			name_push(&r->changed, &r->n_changed, t->name, NULL);
			continue;
		}
		src[n] = t->src;
		which[n++] = i;
	}
	r->checked = n;
	if (inplace) {
		/* Nothing was written there: the data must lie where it lay. */
		for (i = 0; i < n; i++)
			if (src[i].off != dst[i].off)
				name_push(&r->changed, &r->n_changed,
				    p->t[which[i]].name, NULL);
		goto done;
	}
	hs = xcalloc(n + 1, sizeof *hs);
	hd = xcalloc(n + 1, sizeof *hd);
	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	a.job.fd = p->fd;
	a.job.mem = p->mem;
	a.job.spans = src;
	a.job.n_spans = n;
	a.job.each = GGUF_HM(GGUF_H_XXH64);
	a.job.each_out = hs;
	a.job.threads = 1;
	b.job = a.job;
	b.job.fd = gguf_file_fd(f);
	b.job.mem = gguf_base(f);
	b.job.spans = dst;
	b.job.each_out = hd;
	b.job.progress = progress;
	b.job.arg = arg;
	started = pthread_create(&th, NULL, side_run, &a) == 0;
	if (!started)
		side_run(&a);
	side_run(&b);
	if (started)
		pthread_join(th, NULL);
	if (a.rc != 0 || b.rc != 0) {
		if (err != NULL)
			*err = b.rc != 0 ? b.err : a.err;
		free(hs);
		free(hd);
		free(src);
		free(dst);
		free(which);
		gguf_close(f);
		gguf_proof_result_free(r);
		return -1;
	}
	for (i = 0; i < n; i++)
		if (!gguf_digest_eq(&hs[i].d[GGUF_H_XXH64],
		    &hd[i].d[GGUF_H_XXH64]))
			name_push(&r->changed, &r->n_changed,
			    p->t[which[i]].name, NULL);
	free(hs);
	free(hd);
done:
	free(src);
	free(dst);
	free(which);
	gguf_close(f);
	return 0;
}

/* Appends "NAME, NAME, ..." to fp. */
static void
name_list(FILE *fp, char **v, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		fprintf(fp, "%s%s", i > 0 ? ", " : "", v[i]);
}

char *
gguf_proof_text(const struct gguf_proof_result *r)
{
	char	*s = NULL, num[32];
	size_t	 len = 0;
	FILE	*fp;

	if ((fp = open_memstream(&s, &len)) == NULL)
		xmalloc_fail(4096);
	gguf_fmt_group(r->checked, num, sizeof num);
	if (r->n_changed + r->n_missing == 0)
		fprintf(fp, "tensor data unchanged (%s tensor%s, %s)", num,
		    r->checked == 1 ? "" : "s", r->inplace ?
		    "not rewritten" : "xxh64");
	else {
		fputs("tensor data CHANGED", fp);
		if (r->n_changed > 0) {
			fputs(": ", fp);
			name_list(fp, r->changed, r->n_changed);
		}
		if (r->n_missing > 0) {
			fputs(r->n_changed > 0 ? "; missing: " : ": missing: ",
			    fp);
			name_list(fp, r->missing, r->n_missing);
		}
		fprintf(fp, " (%s compared, xxh64)", num);
	}
	if (r->n_edited > 0) {
		fputs("; rewritten by the edit: ", fp);
		name_list(fp, r->edited, r->n_edited);
	}
	if (fclose(fp) != 0 || s == NULL)
		xmalloc_fail(len + 1);
	return s;
}
