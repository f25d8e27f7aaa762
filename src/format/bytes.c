/*
 * bytes.c - the bounded cursor every read of file data goes through.
 *
 * The rule of this file: before a length or count taken from the file is
 * used for anything (a skip, a loop, an allocation), it is checked against
 * the bytes that are left. A count of 2^60 elements therefore fails at once
 * with the offset of the count, and costs nothing.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gguf.h"
#include "internal.h"
#include "source.h"

uint64_t
gguf_hash(const void *p, size_t n)
{
	const uint8_t	*b = p;
	uint64_t	 h = 0xcbf29ce484222325ULL;

	while (n-- > 0) {
		h ^= *b++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* ------------------------------------------------------------------ cursor */

/*
 * A walk of an array's elements (from first) that ran out of the bytes
 * read at element i of count: the end it wants becomes the array's end
 * at the pace of the elements walked (a vocabulary's strings), so that
 * the reader's next read can hold it all, not one more string. At most
 * the file's end. Returns -1 (the walk's failure) either way.
 */
static int
more(struct gguf_cur *c, uint64_t first, uint64_t i, uint64_t count)
{
	uint64_t	per, est, end = c->full != 0 ? c->full : c->size;

	if (c->want == 0 || i == 0 || c->pos <= first)
		return -1;
	per = (c->pos - first) / i + 1;
	if (count - i > (end - c->pos) / per)
		est = end;
	else
		est = c->pos + (count - i) * per;
	if (est > c->want)
		c->want = est;
	return -1;
}

/*
 * n bytes at the cursor are in the file but maybe not in base (a first
 * part of it): 0 if they are in base; else want is set and -1.
 */
static int
in_base(struct gguf_cur *c, uint64_t n, struct gguf_err *err)
{
	if (n <= c->size - c->pos)
		return 0;
	c->want = c->pos + n;
	return gguf_errf(err, (int64_t)c->pos, "the header goes on past the "
	    "%llu bytes read", (unsigned long long)c->size);
}

int
gguf_cur_need(struct gguf_cur *c, uint64_t n, const char *what,
    struct gguf_err *err)
{
	if (n > gguf_cur_left(c))
		return gguf_errf(err, (int64_t)c->pos, "file ends inside %s "
		    "(%llu bytes needed, %llu left)", what,
		    (unsigned long long)n,
		    (unsigned long long)gguf_cur_left(c));
	return c->full != 0 ? in_base(c, n, err) : 0;
}

int
gguf_cur_u32(struct gguf_cur *c, uint32_t *v, const char *what,
    struct gguf_err *err)
{
	if (gguf_cur_need(c, 4, what, err) != 0)
		return -1;
	*v = gguf_ld32(c->base + c->pos, c->be);
	c->pos += 4;
	return 0;
}

int
gguf_cur_u64(struct gguf_cur *c, uint64_t *v, const char *what,
    struct gguf_err *err)
{
	if (gguf_cur_need(c, 8, what, err) != 0)
		return -1;
	*v = gguf_ld64(c->base + c->pos, c->be);
	c->pos += 8;
	return 0;
}

int
gguf_cur_len(struct gguf_cur *c, uint64_t *v, const char *what,
    struct gguf_err *err)
{
	uint32_t	v32;

	if (c->lw == 8)
		return gguf_cur_u64(c, v, what, err);
	if (gguf_cur_u32(c, &v32, what, err) != 0)
		return -1;
	*v = v32;
	return 0;
}

int
gguf_cur_str(struct gguf_cur *c, struct gguf_str *s, const char *what,
    struct gguf_err *err)
{
	uint64_t	at = c->pos, n;

	if (gguf_cur_len(c, &n, what, err) != 0)
		return -1;
	if (n > gguf_cur_left(c))
		return gguf_errf(err, (int64_t)at, "%s length %llu runs past "
		    "the end of the file (%llu bytes left)", what,
		    (unsigned long long)n,
		    (unsigned long long)gguf_cur_left(c));
	if (c->full != 0 && in_base(c, n, err) != 0)
		return -1;
	s->p = (const char *)c->base + c->pos;
	s->n = n;
	c->pos += n;
	return 0;
}

/*
 * Reads the bytes of base from pos (as many as the buffer holds, to the
 * end of base, at least 8) into rd's buffer: 0, or -1 (an error or a
 * file cut short: the walk then goes on through base, and fails there as
 * the file says).
 */
static int
rd_fill(struct gguf_cur_rd *rd, uint64_t pos, uint64_t size)
{
	struct gguf_srcerr	se;
	uint64_t		want = size - pos;

	if (want > GGUF_CUR_RD_BUF)
		want = GGUF_CUR_RD_BUF;
	if (want < 8)
		return -1;
	if (rd->buf == NULL)
		rd->buf = malloc(GGUF_CUR_RD_BUF);
	memset(&se, 0, sizeof se);
	if (rd->buf == NULL || gguf_source_read(rd->src, pos, rd->buf,
	    (size_t)want, &se) != 0)
		return -1;
	rd->at = pos;
	rd->n = want;
	return 0;
}

/*
 * The walk over a long array of strings (a vocabulary). Each string's
 * length says where the next one starts, so one walk waits for each load
 * before it can make the next: some 13 cycles a string, the latency of
 * the load. It is made as CHAINS walks at once, in a window of the bytes:
 * the first from where the array's walk is, each other from a point
 * further on that looks like the start of a string (SNAP_STEPS lengths in
 * a row of at most SNAP_LEN bytes, each fitting), so that CHAINS loads
 * are in flight. A chain's strings count only when the chain before it,
 * counted itself, stops exactly where it started: the lengths from there
 * on are then the same ones. A chain the one before passes is dropped,
 * with everything after it; a walk that would count more strings than
 * the array has is made again to the last of them. Nothing a chain reads
 * counts unless the first chain leads to it, so the walk ends where one
 * walk would, and stops before the same string, whatever the bytes.
 */
#define CHAINS		4
#define CHAIN_MIN	((uint64_t)4 << 10)	/* a chain's bytes, at least */
#define SNAP_SPAN	256	/* bytes looked through for a start */
#define SNAP_STEPS	6
#define SNAP_LEN	4096
#define BASE_SPAN	((uint64_t)64 << 10)	/* a window of base */
#define MISS_MAX	2	/* rounds in a row whose starts were wrong */
_Static_assert(CHAINS == 4, "walk_chains steps four chains by name");

static int	chains_on = CHAINS;

void
gguf_cur_chains(int n)
{
	chains_on = n >= CHAINS ? CHAINS : 1;
}

/*
 * At most max strings from *pos, one at a time, in the bytes [at, end) of
 * the file held at w (w[0] is byte at): stops before a length not whole
 * in the window, one that does not fit in size (the bytes the lengths are
 * checked against), or a string that starts at or past stop. Returns how
 * many it walked, *pos past them.
 */
static uint64_t
walk_one(const uint8_t *w, uint64_t at, uint64_t end, uint64_t size,
    uint64_t *pos, uint64_t stop, uint64_t max)
{
	uint64_t	p = *pos, i = 0, n;

	while (i < max && p < stop && p <= end && end - p >= 8) {
		n = gguf_ld64(w + (p - at), 0);
		if (n > size - p - 8)
			break;
		p += 8 + n;
		i++;
	}
	*pos = p;
	return i;
}

/* Whether a string's walk could start at q (see the comment above). */
static int
plausible(const uint8_t *w, uint64_t at, uint64_t end, uint64_t size,
    uint64_t q)
{
	uint64_t	n;
	int		k;

	for (k = 0; k < SNAP_STEPS; k++) {
		if (q > end || end - q < 8)
			return 0;
		n = gguf_ld64(w + (q - at), 0);
		if (n > SNAP_LEN || n > size - q - 8)
			return 0;
		q += 8 + n;
	}
	return 1;
}

/*
 * One round of the chains in the window [at, end): as walk_one, from
 * *pos, at most max strings, but it may stop sooner (where the first
 * chain passed a start); 0 only where walk_one would walk none. *misses
 * counts the rounds of one array in a row whose first chain passed the
 * second's start: strings whose bytes look like lengths (zeros, small
 * numbers) make starts that are not, and after MISS_MAX such rounds the
 * rest of the array is one walk, the chains' work having been thrown
 * away (a vocabulary misses a round here and there: its byte tokens).
 */
static uint64_t
walk_chains(const uint8_t *w, uint64_t at, uint64_t end, uint64_t size,
    uint64_t *pos, uint64_t max, int *misses)
{
	uint64_t	p[CHAINS], s[CHAINS + 1], k[CHAINS], n0, n1, n2, n3;
	uint64_t	p0, p1, p2, p3, seg, done, q, i, lim;
	int		j;

	if (chains_on < CHAINS || *misses >= MISS_MAX ||
	    end - *pos < CHAINS * CHAIN_MIN || max < CHAINS * SNAP_STEPS)
		return walk_one(w, at, end, size, pos, UINT64_MAX, max);
	seg = (end - *pos) / CHAINS;
	s[0] = *pos;
	for (j = 1; j < CHAINS; j++) {
		for (q = s[0] + (uint64_t)j * seg; q < s[0] + (uint64_t)j *
		    seg + SNAP_SPAN; q++)
			if (plausible(w, at, end, size, q))
				break;
		if (q == s[0] + (uint64_t)j * seg + SNAP_SPAN)
			return walk_one(w, at, end, size, pos, UINT64_MAX, max);
		s[j] = q;
	}
	s[CHAINS] = UINT64_MAX;		/* the last chain: the window's end */
	/*
	 * The chains in step while each is before the next one's start (the
	 * last, a whole length before the window's end) and every length
	 * fits; then each alone to its end.
	 */
	p0 = s[0];
	p1 = s[1];
	p2 = s[2];
	p3 = s[3];
	lim = end - 8;
	for (i = 0; i < max && p0 < s[1] && p1 < s[2] && p2 < s[3] &&
	    p3 <= lim; i++) {
		n0 = gguf_ld64(w + (p0 - at), 0);
		n1 = gguf_ld64(w + (p1 - at), 0);
		n2 = gguf_ld64(w + (p2 - at), 0);
		n3 = gguf_ld64(w + (p3 - at), 0);
		if ((n0 > size - p0 - 8) | (n1 > size - p1 - 8) |
		    (n2 > size - p2 - 8) | (n3 > size - p3 - 8))
			break;
		p0 += 8 + n0;
		p1 += 8 + n1;
		p2 += 8 + n2;
		p3 += 8 + n3;
	}
	p[0] = p0;
	p[1] = p1;
	p[2] = p2;
	p[3] = p3;
	for (j = 0; j < CHAINS; j++)
		k[j] = i + walk_one(w, at, end, size, &p[j], s[j + 1],
		    max - i);
	/* Where the first chain leads. */
	done = k[0];
	q = p[0];
	*misses = q > s[1] ? *misses + 1 : 0;
	for (j = 0; j + 1 < CHAINS; j++) {
		/* stopped short of it (at a length that does not fit, or
		   after max), or past it */
		if (done == max || p[j] != s[j + 1])
			break;
		if (k[j + 1] > max - done) {	/* past the array's end */
			q = s[j + 1];
			done += walk_one(w, at, end, size, &q, UINT64_MAX,
			    max - done);
			break;
		}
		done += k[j + 1];
		q = p[j + 1];
	}
	*pos = q;
	return done;
}

/*
 * skip_strings of a v2+ little-endian array through c->rd: reads the
 * bytes where the descriptor puts them in rd's buffer and walks the
 * lengths there (the strings' bytes are skipped, not read), never
 * touching base. Stops where a length cannot be read that way, for the
 * walk through base to go on from.
 */
static uint64_t
skip_strings_rd(struct gguf_cur *c, uint64_t count)
{
	struct gguf_cur_rd	*rd = c->rd;
	uint64_t		 pos = c->pos, size = c->size, i = 0, got;
	int			 misses = 0;

	while (i < count && size - pos >= 8) {
		if ((pos < rd->at || pos - rd->at + 8 > rd->n) &&
		    rd_fill(rd, pos, size) != 0)
			break;
		got = walk_chains(rd->buf, rd->at, rd->at + rd->n, size, &pos,
		    count - i, &misses);
		i += got;
		if (got == 0)		/* a length that does not fit */
			break;
	}
	c->pos = pos;
	return i;
}

static uint64_t
skip_strings_base(struct gguf_cur *c, uint64_t count)
{
	const uint8_t	*b = c->base;
	uint64_t	 pos = c->pos, size = c->size, n, i, got, end;
	int		 misses = 0;

	if (c->lw == 8 && !c->be) {
		/* v2 and later, little-endian: nearly every file */
		i = 0;
		while (i < count && size - pos >= 8) {
			end = size - pos > BASE_SPAN ? pos + BASE_SPAN : size;
			got = walk_chains(b, 0, end, size, &pos, count - i,
			    &misses);
			i += got;
			if (got == 0)
				break;
		}
		c->pos = pos;
		return i;
	}
	for (i = 0; i < count; i++) {
		if (size - pos < c->lw)
			break;
		n = c->lw == 8 ? gguf_ld64(b + pos, c->be) :
		    gguf_ld32(b + pos, c->be);
		if (n > size - pos - c->lw)
			break;
		pos += c->lw + n;
	}
	c->pos = pos;
	return i;
}

/* From this many strings on, reading them beats looking where they are
   mapped (a vocabulary; and the buffer is then worth making). */
#define RD_MIN_COUNT	4096

/*
 * Skips the strings of an array while each one's length fits in the
 * bytes left: the fast walk over a vocabulary (through c->rd where the
 * cursor has one, then through base). Returns how many it skipped; the
 * cursor is at the first one that does not fit (whose error
 * gguf_cur_str then gives with its offset), or past them all.
 */
static uint64_t
skip_strings(struct gguf_cur *c, uint64_t count)
{
	uint64_t	i = 0;

	if (c->rd != NULL && c->lw == 8 && !c->be && count >= RD_MIN_COUNT)
		i = skip_strings_rd(c, count);
	return i + skip_strings_base(c, count - i);
}

int
gguf_cur_value(struct gguf_cur *c, uint32_t vt, unsigned depth,
    struct gguf_val *v, struct gguf_err *err)
{
	uint64_t	 start = c->pos, first, count, size, i;
	uint32_t	 atype;
	unsigned	 esize;
	struct gguf_str	 s;
	struct gguf_val	 sub;

	memset(v, 0, sizeof *v);
	v->type = vt;
	v->be = (uint8_t)c->be;
	v->lw = (uint8_t)c->lw;
	v->p = c->base + c->pos;
	v->off = c->pos;

	if (vt >= GGUF_VT_COUNT)
		return gguf_errf(err, (int64_t)c->pos, "unknown value type %u",
		    (unsigned)vt);
	if (vt == GGUF_VT_STR) {
		if (gguf_cur_str(c, &s, "string", err) != 0)
			return -1;
	} else if (vt != GGUF_VT_ARR) {
		esize = gguf_vtype_size(vt);
		if (gguf_cur_need(c, esize, gguf_vtype_name(vt), err) != 0)
			return -1;
		c->pos += esize;
	} else {
		if (depth >= GGUF_MAX_DEPTH)
			return gguf_errf(err, (int64_t)c->pos, "arrays nested "
			    "deeper than %d levels", GGUF_MAX_DEPTH);
		if (gguf_cur_u32(c, &atype, "array element type", err) != 0)
			return -1;
		if (atype >= GGUF_VT_COUNT)
			return gguf_errf(err, (int64_t)c->pos - 4,
			    "unknown array element type %u", (unsigned)atype);
		if (gguf_cur_len(c, &count, "array length", err) != 0)
			return -1;
		v->atype = atype;
		v->count = count;
		esize = gguf_vtype_size(atype);
		if (esize != 0) {
			if (gguf_mul_ok(count, esize, &size) != 0 ||
			    size > gguf_cur_left(c))
				return gguf_errf(err, (int64_t)c->pos - c->lw,
				    "array of %llu %s runs past the end of the "
				    "file (%llu bytes left)",
				    (unsigned long long)count,
				    gguf_vtype_name(atype),
				    (unsigned long long)gguf_cur_left(c));
			if (c->full != 0 && in_base(c, size, err) != 0)
				return -1;
			c->pos += size;
		} else {
			/*
			 * Each string or nested array takes at least one
			 * length field: refuse counts the bytes left cannot
			 * hold before walking them.
			 */
			if (count > gguf_cur_left(c) / c->lw)
				return gguf_errf(err, (int64_t)c->pos - c->lw,
				    "array of %llu %s cannot fit in the %llu "
				    "bytes left", (unsigned long long)count,
				    gguf_vtype_name(atype),
				    (unsigned long long)gguf_cur_left(c));
			i = 0;
			first = c->pos;
			if (atype == GGUF_VT_STR)
				i = skip_strings(c, count);
			for (; i < count; i++) {
				if (atype == GGUF_VT_STR) {
					if (gguf_cur_str(c, &s, "string", err)
					    != 0)
						return more(c, first, i, count);
				} else if (gguf_cur_value(c, atype, depth + 1,
				    &sub, err) != 0)
					return more(c, first, i, count);
			}
		}
	}
	v->n = c->pos - start;
	return 0;
}
