/*
 * difftensors.c - the tensors of two documents compared: matched by name,
 * a tensor of A that B lacks and one of B that A lacks taken for the
 * same tensor renamed when type, shape and data hash agree, the data
 * hashed on several threads only where it decides something (diff.c says
 * the rules); and the element-wise comparison of two tensors' values for
 * --data.
 */
#include "config.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "internal.h"
#include "dequant.h"
#include "diff.h"
#include "diffint.h"
#include "hash.h"
#include "stats.h"

/* --------------------------------------------------------------- hashing */

struct hjob {
	struct gguf_doc			*doc;
	const struct gguf_tensor	*t;
	uint64_t			 idx;	/* tensor index in the file */
	int				 conv;	/* hash its float32 form */
	uint64_t			 hash;
	int				 unread;	/* past the end */
	int				 rc;
	struct gguf_err			 err;
};

struct hpool {
	struct hjob	*jobs;
	size_t		 n;
	/* progress over both documents */
	gguf_progress_fn progress;
	void		*arg;
	uint64_t	 base;		/* bytes done by the jobs before */
	uint64_t	 total;
};

static int
hash_progress(void *arg, uint64_t done, uint64_t total)
{
	struct hpool	*p = arg;

	(void)total;
	return p->progress(p->arg, p->base + done, p->total);
}

/* An XXH64 digest of hash.h (canonical: big-endian bytes) as a number. */
static uint64_t
digest_u64(const struct gguf_digest *d)
{
	uint64_t	v = 0;
	int		k;

	for (k = 0; k < 8; k++)
		v = v << 8 | d->b[k];
	return v;
}

/*
 * The float32 data a save writes for a converted tensor, hashed as it is
 * decoded (the file holds no such bytes for hash.h to read).
 */
static int
hash_converted(struct hjob *j)
{
	const struct gguf_tensor	*t = j->t;
	XXH64_state_t			*st = XXH64_createState();
	uint64_t			 ne0 = t->ne[0], nrows;
	uint64_t			 r, col, nr, nc, rstep, cstep, k;
	uint32_t			 bits;
	uint8_t				*p;
	float				*v;
	int				 be = gguf_doc_be(j->doc), rc = -1;

	if (st == NULL)
		return gguf_errf(&j->err, -1, "out of memory");
	XXH64_reset(st, 0);
	nrows = gguf_tensor_nrows(t);
	rstep = ne0 == 0 ? 1 : ne0 <= CHUNK ? CHUNK / ne0 : 1;
	cstep = ne0 <= CHUNK ? ne0 : CHUNK;
	v = xreallocarray(NULL, (size_t)(rstep * (cstep ? cstep : 1)),
	    sizeof *v);
	for (r = 0; ne0 > 0 && r < nrows; r += nr) {
		nr = nrows - r < rstep ? nrows - r : rstep;
		for (col = 0; col < ne0; col += nc) {
			nc = ne0 - col < cstep ? ne0 - col : cstep;
			if (gguf_dequant_rows(gguf_doc_file(j->doc), t, r, nr,
			    col, nc, v, &j->err) != 0)
				goto out;
			p = (uint8_t *)v;
			for (k = 0; k < nr * nc; k++) {
				memcpy(&bits, p + 4 * k, 4);
				gguf_st32(p + 4 * k, bits, be);
			}
			XXH64_update(st, p, (size_t)(4 * nr * nc));
		}
	}
	j->hash = XXH64_digest(st);
	rc = 0;
out:
	free(v);
	XXH64_freeState(st);
	return rc;
}

/*
 * Hashes the jobs of one document: the tensors as stored through hash.h
 * (one pass over their byte ranges, on the threads it uses), the
 * converted ones from their decoded values. 0, or -1 with the job that
 * failed marked.
 */
static int
hash_doc(struct hpool *p, struct gguf_doc *doc, unsigned threads)
{
	const struct gguf_file	*f = gguf_doc_file(doc);
	struct gguf_hash_job	 job;
	struct gguf_hashes	*out;
	struct gguf_span	*sp;
	struct gguf_err		 err;
	size_t			*of, i, n = 0;
	int			 rc = 0;

	sp = xcalloc(p->n + 1, sizeof *sp);
	of = xcalloc(p->n + 1, sizeof *of);
	for (i = 0; i < p->n; i++) {
		if (p->jobs[i].doc != doc)
			continue;
		/* Data the file does not hold is not compared, not read. */
		if (p->jobs[i].t->flags & GGUF_TENSOR_UNREADABLE) {
			p->jobs[i].unread = 1;
			continue;
		}
		if (p->jobs[i].conv) {
			if ((p->jobs[i].rc = hash_converted(&p->jobs[i])) != 0)
				rc = -1;
			continue;
		}
		if (gguf_tensor_span(f, p->jobs[i].idx, &sp[n],
		    &p->jobs[i].err) != 0) {
			p->jobs[i].rc = rc = -1;
			continue;
		}
		of[n++] = i;
	}
	out = xcalloc(n + 1, sizeof *out);
	if (rc == 0 && n > 0) {
		memset(&job, 0, sizeof job);
		job.spans = sp;
		job.n_spans = n;
		job.each = GGUF_HM(GGUF_H_XXH64);
		job.each_out = out;
		job.threads = threads;
		if (p->progress != NULL) {
			job.progress = hash_progress;
			job.arg = p;
		}
		memset(&err, 0, sizeof err);
		if (gguf_hash_run(&job, &err) != 0) {
			/* the tensor whose read failed, in the shard it is in */
			size_t		 k = job.err_span < n ? job.err_span : 0;
			const char	*path = gguf_tensor_path(f,
					    p->jobs[of[k]].t);
			char		 msg[sizeof err.msg];

			if (path != NULL) {
				snprintf(msg, sizeof msg, "%.200s: %.300s",
				    strrchr(path, '/') != NULL ?
				    strrchr(path, '/') + 1 : path, err.msg);
				memcpy(err.msg, msg, sizeof msg);
			}
			p->jobs[of[k]].rc = rc = -1;
			p->jobs[of[k]].err = err;
		}
	}
	for (i = 0; rc == 0 && i < n; i++) {
		p->jobs[of[i]].hash = digest_u64(&out[i].d[GGUF_H_XXH64]);
		p->base += sp[i].len;
	}
	free(out);
	free(of);
	free(sp);
	return rc;
}

/* --------------------------------------------------------------- tensors */

struct tinfo {
	struct gguf_doc_tensor	 dt;
	int64_t			 idx;
	int64_t			 other;	/* matched entry of the other side */
	int64_t			 job;	/* hash job, -1 if not hashed */
};

static int
same_shape(const struct gguf_tensor *x, const struct gguf_tensor *y)
{
	return memcmp(x->ne, y->ne, sizeof x->ne) == 0 &&
	    x->n_dims == y->n_dims;
}

static int
same_form(const struct tinfo *x, const struct tinfo *y)
{
	return x->dt.type == y->dt.type && same_shape(x->dt.t, y->dt.t);
}

static int64_t
add_job(struct hpool *p, size_t *cap, struct gguf_doc *doc, struct tinfo *ti)
{
	struct hjob	*j;

	if (ti->job >= 0)
		return ti->job;
	if (p->n == *cap) {
		*cap = *cap ? *cap * 2 : 64;
		p->jobs = xreallocarray(p->jobs, *cap, sizeof *p->jobs);
	}
	j = &p->jobs[p->n];
	memset(j, 0, sizeof *j);
	j->doc = doc;
	j->t = ti->dt.t;
	j->idx = (uint64_t)ti->idx;
	j->conv = (ti->dt.flags & GGUF_ED_VALUE) && ti->dt.type != ti->dt.t->type;
	ti->job = (int64_t)p->n++;
	return ti->job;
}

static struct tinfo *
live_tensors(struct gguf_doc *doc, size_t *n)
{
	uint64_t	 i, cnt = gguf_doc_n_tensors(doc);
	struct tinfo	*v = xcalloc(cnt + 1, sizeof *v);
	size_t		 k = 0;

	for (i = 0; i < cnt; i++) {
		if (gguf_doc_tensor(doc, i, &v[k].dt) != 0 ||
		    (v[k].dt.flags & GGUF_ED_REMOVED))
			continue;
		v[k].idx = (int64_t)i;
		v[k].other = -1;
		v[k].job = -1;
		k++;
	}
	*n = k;
	return v;
}

static void
fill_tensor(struct gguf_diff_item *it, const struct tinfo *x,
    const struct tinfo *y)
{
	if (x != NULL) {
		it->a = x->idx;
		it->name_a = x->dt.name;
		it->type_a = x->dt.type;
		it->dims_a = x->dt.t->n_dims;
		memcpy(it->ne_a, x->dt.t->ne, sizeof it->ne_a);
		it->bytes_a = x->dt.nbytes;
	}
	if (y != NULL) {
		it->b = y->idx;
		it->name_b = y->dt.name;
		it->type_b = y->dt.type;
		it->dims_b = y->dt.t->n_dims;
		memcpy(it->ne_b, y->dt.t->ne, sizeof it->ne_b);
		it->bytes_b = y->dt.nbytes;
	}
}

int
gguf_diff_tensors(struct gguf_doc *a, struct gguf_doc *b,
    const struct gguf_diff_opts *o, struct gguf_diff *d, size_t *cap,
    struct gguf_err *err)
{
	struct gguf_diff_item	*it;
	struct tinfo		*ta, *tb, *x, *y;
	struct hpool		 pool;
	size_t			 na, nb, i, k, jcap = 0;
	int64_t			*bpos, j;
	int			 rc = -1;
	char			 nb1[96];

	ta = live_tensors(a, &na);
	tb = live_tensors(b, &nb);
	/* position in tb of each entry of b */
	bpos = xcalloc(gguf_doc_n_tensors(b) + 1, sizeof *bpos);
	for (i = 0; i < nb; i++)
		bpos[tb[i].idx] = (int64_t)i;
	memset(&pool, 0, sizeof pool);
	for (i = 0; i < na; i++) {
		x = &ta[i];
		j = gguf_doc_tensor_find(b, x->dt.name.p, (size_t)x->dt.name.n);
		if (j < 0)
			continue;
		if (tb[bpos[j]].other >= 0) {
			/* a name given twice: its next occurrence in b */
			for (k = 0; k < nb; k++)
				if (tb[k].other < 0 &&
				    tb[k].dt.name.n == x->dt.name.n &&
				    memcmp(tb[k].dt.name.p, x->dt.name.p,
				    (size_t)x->dt.name.n) == 0)
					break;
			if (k == nb)
				continue;
			j = tb[k].idx;
		}
		y = &tb[bpos[j]];
		x->other = bpos[j];
		y->other = (int64_t)i;
		if (same_form(x, y)) {
			add_job(&pool, &jcap, a, x);
			add_job(&pool, &jcap, b, y);
		}
	}
	/* candidates of a rename: unmatched on both sides, same form */
	for (i = 0; i < na; i++) {
		if (ta[i].other >= 0)
			continue;
		for (k = 0; k < nb; k++)
			if (tb[k].other < 0 && same_form(&ta[i], &tb[k])) {
				add_job(&pool, &jcap, a, &ta[i]);
				add_job(&pool, &jcap, b, &tb[k]);
			}
	}
	d->hashed = pool.n;
	pool.progress = o->progress;
	pool.arg = o->arg;
	for (i = 0; i < pool.n; i++)
		if (!pool.jobs[i].conv)
			pool.total += pool.jobs[i].t->nbytes;
	if (hash_doc(&pool, a, o->threads) != 0 ||
	    hash_doc(&pool, b, o->threads) != 0) {
		for (i = 0; i < pool.n; i++)
			if (pool.jobs[i].rc != 0)
				break;
		/* The tensor named once: the reader's messages name it. */
		if (strncmp(pool.jobs[i].err.msg, "tensor \"", 8) == 0)
			gguf_errf(err, -1, "%s: %s",
			    gguf_doc_path(pool.jobs[i].doc),
			    pool.jobs[i].err.msg);
		else
			gguf_errf(err, -1, "%s: tensor \"%s\": %s",
			    gguf_doc_path(pool.jobs[i].doc),
			    gguf_pname(pool.jobs[i].t->name.p,
			    (size_t)pool.jobs[i].t->name.n, nb1, sizeof nb1),
			    pool.jobs[i].err.msg);
		goto out;
	}
	/* renames: the first unmatched tensor of B with the same data */
	for (i = 0; i < na; i++) {
		if (ta[i].other >= 0 || ta[i].job < 0 ||
		    pool.jobs[ta[i].job].unread)
			continue;
		for (k = 0; k < nb; k++)
			if (tb[k].other < 0 && tb[k].job >= 0 &&
			    !pool.jobs[tb[k].job].unread &&
			    same_form(&ta[i], &tb[k]) &&
			    pool.jobs[ta[i].job].hash ==
			    pool.jobs[tb[k].job].hash) {
				ta[i].other = (int64_t)k;
				tb[k].other = (int64_t)i;
				it = gguf_diff_new_item(d, cap, GGUF_CH_TENSOR);
				it->flags = GGUF_DF_RENAMED;
				fill_tensor(it, &ta[i], &tb[k]);
				it->has_hash = 1;
				it->hash_a = it->hash_b =
				    pool.jobs[ta[i].job].hash;
				d->t_renamed++;
				break;
			}
	}
	/* renames were appended first: tensors go in A's order */
	for (i = 0; i < na; i++) {
		x = &ta[i];
		if (x->other < 0) {
			it = gguf_diff_new_item(d, cap, GGUF_CH_TENSOR);
			it->flags = GGUF_DF_REMOVED;
			fill_tensor(it, x, NULL);
			d->t_removed++;
			continue;
		}
		y = &tb[x->other];
		if (y->dt.name.n != x->dt.name.n || memcmp(y->dt.name.p,
		    x->dt.name.p, (size_t)x->dt.name.n) != 0)
			continue;	/* renamed: listed already */
		if (same_form(x, y) && (pool.jobs[x->job].unread ||
		    pool.jobs[y->job].unread)) {
			it = gguf_diff_new_item(d, cap, GGUF_CH_TENSOR);
			it->flags = GGUF_DF_UNREAD;
			it->unread = (pool.jobs[x->job].unread ? 1 : 0) |
			    (pool.jobs[y->job].unread ? 2 : 0);
			fill_tensor(it, x, y);
			d->t_unread++;	/* not known to differ */
			continue;
		} else if (same_form(x, y)) {
			if (pool.jobs[x->job].hash == pool.jobs[y->job].hash)
				continue;
			it = gguf_diff_new_item(d, cap, GGUF_CH_TENSOR);
			it->flags = GGUF_DF_DATA;
			it->has_hash = 1;
			it->hash_a = pool.jobs[x->job].hash;
			it->hash_b = pool.jobs[y->job].hash;
		} else {
			it = gguf_diff_new_item(d, cap, GGUF_CH_TENSOR);
			if (x->dt.type != y->dt.type)
				it->flags |= GGUF_DF_TYPE;
			if (!same_shape(x->dt.t, y->dt.t))
				it->flags |= GGUF_DF_SHAPE;
		}
		fill_tensor(it, x, y);
		d->t_changed++;
	}
	for (k = 0; k < nb; k++) {
		if (tb[k].other >= 0)
			continue;
		it = gguf_diff_new_item(d, cap, GGUF_CH_TENSOR);
		it->flags = GGUF_DF_ADDED;
		fill_tensor(it, NULL, &tb[k]);
		d->t_added++;
	}
	rc = 0;
out:
	free(pool.jobs);
	free(bpos);
	free(ta);
	free(tb);
	return rc;
}

/* ---------------------------------------------------------------- values */

struct vpart {
	double		 d2, a2, b2, ab, max;
	uint64_t	 count, nonfinite, ndiff;
};

struct vjob {
	const struct gguf_file		*fa, *fb;
	const struct gguf_tensor	*ta, *tb;
	uint64_t			 ne0, rstep, cstep, ncol, nchunks;
	uint64_t			 next;		/* atomic */
	int				 stop;		/* atomic */
	struct vpart			*parts;
	pthread_mutex_t			 lock;
	int				 rc;
	struct gguf_err			 err;
	gguf_progress_fn		 progress;
	void				*arg;
	uint64_t			 done;		/* elements, under lock */
	uint64_t			 total;
};

static void *
values_worker(void *arg)
{
	struct vjob	*j = arg;
	struct vpart	*p;
	struct gguf_err	 err;
	double		*va, *vb, x, y, dd;
	uint64_t	 k, r, c, nr, nc, nrows = gguf_tensor_nrows(j->ta), i;

	va = xreallocarray(NULL, (size_t)(j->rstep * j->cstep), sizeof *va);
	vb = xreallocarray(NULL, (size_t)(j->rstep * j->cstep), sizeof *vb);
	while (!__atomic_load_n(&j->stop, __ATOMIC_RELAXED) &&
	    (k = __atomic_fetch_add(&j->next, 1, __ATOMIC_RELAXED)) <
	    j->nchunks) {
		r = k / j->ncol * j->rstep;
		c = k % j->ncol * j->cstep;
		nr = nrows - r < j->rstep ? nrows - r : j->rstep;
		nc = j->ne0 - c < j->cstep ? j->ne0 - c : j->cstep;
		memset(&err, 0, sizeof err);
		if (gguf_dequant_rows_f64(j->fa, j->ta, r, nr, c, nc, va,
		    &err) != 0 || gguf_dequant_rows_f64(j->fb, j->tb, r, nr,
		    c, nc, vb, &err) != 0) {
			pthread_mutex_lock(&j->lock);
			if (j->rc == 0) {
				j->rc = -1;
				j->err = err;
			}
			pthread_mutex_unlock(&j->lock);
			__atomic_store_n(&j->stop, 1, __ATOMIC_RELAXED);
			break;
		}
		p = &j->parts[k];
		for (i = 0; i < nr * nc; i++) {
			x = va[i];
			y = vb[i];
			if (!isfinite(x) || !isfinite(y)) {
				p->nonfinite++;
				p->ndiff += memcmp(&x, &y, sizeof x) != 0;
				continue;
			}
			dd = x - y;
			p->count++;
			p->ndiff += x < y || x > y;
			p->d2 += dd * dd;
			p->a2 += x * x;
			p->b2 += y * y;
			p->ab += x * y;
			if (fabs(dd) > p->max)
				p->max = fabs(dd);
		}
		if (j->progress != NULL) {
			pthread_mutex_lock(&j->lock);
			j->done += nr * nc;
			if (j->rc == 0 && j->progress(j->arg, j->done,
			    j->total) != 0) {
				j->rc = -1;
				gguf_errf(&j->err, -1, "cancelled");
				__atomic_store_n(&j->stop, 1, __ATOMIC_RELAXED);
			}
			pthread_mutex_unlock(&j->lock);
		}
	}
	free(va);
	free(vb);
	return NULL;
}

int
gguf_diff_values(const struct gguf_file *fa, const struct gguf_tensor *ta,
    const struct gguf_file *fb, const struct gguf_tensor *tb,
    unsigned threads, gguf_progress_fn progress, void *arg,
    struct gguf_diff_values *out, struct gguf_err *err)
{
	struct vjob	 j;
	struct vpart	 s;
	pthread_t	 tid[MAX_THREADS];
	unsigned	 n = threads ? threads : gguf_ncpu(), i, started = 0;
	uint64_t	 k, nrows;

	memset(out, 0, sizeof *out);
	if (memcmp(ta->ne, tb->ne, sizeof ta->ne) != 0)
		return gguf_errf(err, -1, "the tensors differ in shape");
	memset(&j, 0, sizeof j);
	j.fa = fa;
	j.fb = fb;
	j.ta = ta;
	j.tb = tb;
	j.ne0 = ta->ne[0];
	nrows = gguf_tensor_nrows(ta);
	j.progress = progress;
	j.arg = arg;
	j.total = ta->nelem;
	if (j.ne0 > 0 && nrows > 0) {
		j.rstep = j.ne0 <= CHUNK ? CHUNK / j.ne0 : 1;
		j.cstep = j.ne0 <= CHUNK ? j.ne0 : CHUNK;
		j.ncol = (j.ne0 + j.cstep - 1) / j.cstep;
		j.nchunks = (nrows + j.rstep - 1) / j.rstep * j.ncol;
	}
	j.parts = xcalloc(j.nchunks + 1, sizeof *j.parts);
	pthread_mutex_init(&j.lock, NULL);
	if (n > MAX_THREADS)
		n = MAX_THREADS;
	if ((uint64_t)n > j.nchunks)
		n = j.nchunks > 0 ? (unsigned)j.nchunks : 1;
	if (j.nchunks > 0) {
		for (i = 1; i < n; i++) {
			if (pthread_create(&tid[started], NULL, values_worker,
			    &j) != 0)
				break;
			started++;
		}
		values_worker(&j);
		for (i = 0; i < started; i++)
			pthread_join(tid[i], NULL);
	}
	pthread_mutex_destroy(&j.lock);
	if (j.rc != 0) {
		*err = j.err;
		free(j.parts);
		return -1;
	}
	/* merged in chunk order: the same numbers on any number of threads */
	memset(&s, 0, sizeof s);
	for (k = 0; k < j.nchunks; k++) {
		s.d2 += j.parts[k].d2;
		s.a2 += j.parts[k].a2;
		s.b2 += j.parts[k].b2;
		s.ab += j.parts[k].ab;
		s.count += j.parts[k].count;
		s.nonfinite += j.parts[k].nonfinite;
		s.ndiff += j.parts[k].ndiff;
		if (j.parts[k].max > s.max)
			s.max = j.parts[k].max;
	}
	free(j.parts);
	out->count = s.count;
	out->nonfinite = s.nonfinite;
	out->ndiff = s.ndiff;
	out->max_abs = s.max;
	out->rmse = s.count > 0 ? sqrt(s.d2 / (double)s.count) : NAN;
	out->rel_rmse = s.a2 > 0 ? sqrt(s.d2 / s.a2) : NAN;
	out->cosine = s.a2 > 0 && s.b2 > 0 ? s.ab / sqrt(s.a2 * s.b2) : NAN;
	return 0;
}
