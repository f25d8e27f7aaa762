/*
 * gen_kinds.c - writes the files that are not models: LoRA adapters,
 * control vectors, importance matrices and projectors, and a small base
 * model for them.
 *
 *	gen_kinds files DIR
 *	gen_kinds adapters ARCH SEED COUNT DIR < TENSORS
 *	gen_kinds projectors SEED DIR
 *
 * "files" writes into DIR a fixed set, each named for what it holds (see
 * files() below): base.gguf (a llama of width 8, 3 blocks, vocabulary
 * 16), LoRA adapters for it, good and broken, control vectors, imatrix
 * files and projectors.
 *
 * "adapters" writes COUNT adapters for a base model of architecture ARCH
 * whose tensors are read from standard input, one a line as `ggufed dump`
 * prints them ("tensor N NAME TYPE [NE0,NE1,...] ..."; other lines are
 * skipped): adapter K is DIR/SEED-K.gguf, drawn by a random generator
 * seeded with SEED and K, with a few pairs of a random rank, alpha or
 * not, F32 or F16, and at random one breakage (a lora_b or lora_a
 * missing, the rank of one side wrong, a pair transposed, a pair for a
 * tensor the base lacks, of a shape the base's is not, another
 * architecture, general.type or adapter.type wrong, alpha not f32, a
 * tensor of no known suffix, aLoRA invocation tokens of the wrong type)
 * or none. One line a file on standard output:
 *
 *	FILE<TAB>WHAT<TAB>TOUCHED
 *
 * WHAT names the breakage ("ok" for none), TOUCHED the tensor or key it
 * touched (what an error about it must name), "-" for none.
 *
 * "projectors" writes, for every projector type of llama.cpp's projector
 * loader that it loads (src/model/projectors.c's table, read from
 * clip.cpp), three projectors of two blocks into DIR: TYPE-ok.gguf with
 * every key and tensor the loader reads, required or not; TYPE-req.gguf
 * without one required key or tensor drawn at random (seeded with SEED);
 * TYPE-opt.gguf without one optional tensor drawn so. A type loaded for
 * either modality is written for each (TYPE-vision-ok.gguf, ...). One
 * line a file on standard output, as for "adapters": WHAT is ok, req or
 * opt, TOUCHED what was removed.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ggufgen.h"
#include "../../src/model/projectors.h"

#define MAXT	64
#define MAXK	16

enum ktype { K_STR, K_U32, K_I32, K_F32, K_BOOL, K_ARR_STR, K_ARR_U32,
    K_ARR_I32 };

struct key {
	const char	*name;
	enum ktype	 type;
	const char	*s;
	double		 v;
	int		 n;		/* arrays: elements (values 1..n) */
};

struct ten {
	char		 name[160];
	uint32_t	 nd;
	uint64_t	 ne[4];
	uint32_t	 type;		/* GG_T_F32 or GG_T_F16 */
};

struct file {
	struct key	 k[MAXK];
	int		 nk;
	struct ten	 t[MAXT];
	int		 nt;
};

static void
key(struct file *f, const char *name, enum ktype type, const char *s,
    double v, int n)
{
	struct key	*k = &f->k[f->nk++];

	k->name = name;
	k->type = type;
	k->s = s;
	k->v = v;
	k->n = n;
}

static struct ten *
ten(struct file *f, const char *name, uint32_t nd, uint64_t ne0,
    uint64_t ne1, uint32_t type)
{
	struct ten	*t = &f->t[f->nt++];

	snprintf(t->name, sizeof t->name, "%s", name);
	t->nd = nd;
	t->ne[0] = ne0;
	t->ne[1] = ne1;
	t->ne[2] = t->ne[3] = 1;
	t->type = type;
	return t;
}

static uint64_t
tbytes(const struct ten *t)
{
	return t->ne[0] * t->ne[1] * t->ne[2] * t->ne[3] *
	    (t->type == GG_T_F16 ? 2 : 4);
}

static int
write_file(const struct file *f, const char *dir, const char *name)
{
	struct gg	g;
	char		path[4096];
	uint64_t	off = 0;
	int		i, j, rc;

	gg_init(&g, 3, 0);
	gg_header(&g, (uint64_t)f->nt, (uint64_t)f->nk);
	for (i = 0; i < f->nk; i++) {
		const struct key	*k = &f->k[i];

		switch (k->type) {
		case K_STR:	gg_kv_str(&g, k->name, k->s); break;
		case K_U32:	gg_kv_u32(&g, k->name, (uint32_t)k->v); break;
		case K_I32:	gg_kv_i32(&g, k->name, (int32_t)k->v); break;
		case K_F32:	gg_kv_f32(&g, k->name, (float)k->v); break;
		case K_BOOL:	gg_kv_bool(&g, k->name, (uint8_t)k->v); break;
		case K_ARR_STR:
			gg_kv_arr(&g, k->name, GG_STR, (uint64_t)k->n);
			for (j = 0; j < k->n; j++)
				gg_str(&g, k->s);
			break;
		case K_ARR_U32:
		case K_ARR_I32:
			gg_kv_arr(&g, k->name, k->type == K_ARR_U32 ? GG_U32 :
			    GG_I32, (uint64_t)k->n);
			for (j = 0; j < k->n; j++)
				gg_u32(&g, (uint32_t)(j + 1));
			break;
		}
	}
	for (i = 0; i < f->nt; i++) {
		gg_tensor(&g, f->t[i].name, f->t[i].nd, f->t[i].ne,
		    f->t[i].type, off);
		off += (tbytes(&f->t[i]) + 31) / 32 * 32;
	}
	gg_pad(&g, 32);
	gg_zeros(&g, (size_t)off);
	snprintf(path, sizeof path, "%s/%s", dir, name);
	rc = gg_write(&g, path);
	gg_free(&g);
	if (rc != 0)
		perror(path);
	return rc;
}

static int	pfile(const char *, int, uint32_t, const char *, const char *);

/* ------------------------------------------------------------- the files */

static void
adapter_keys(struct file *f, const char *arch)
{
	key(f, "general.architecture", K_STR, arch, 0, 0);
	key(f, "general.type", K_STR, "adapter", 0, 0);
	key(f, "adapter.type", K_STR, "lora", 0, 0);
}

/* A pair for base tensor name of [ne0, ne1], rank r. */
static void
pair(struct file *f, const char *name, uint64_t ne0, uint64_t ne1,
    uint64_t r)
{
	char	a[160], b[160];

	snprintf(a, sizeof a, "%s.lora_a", name);
	snprintf(b, sizeof b, "%s.lora_b", name);
	if (strstr(name, "token_embd.weight") != NULL) {
		ten(f, a, 2, r, ne1, GG_T_F32);
		ten(f, b, 2, r, ne0, GG_T_F32);
	} else {
		ten(f, a, 2, ne0, r, GG_T_F32);
		ten(f, b, 2, r, ne1, GG_T_F32);
	}
}

static int
files(const char *dir)
{
	struct file	f;
	int		rc = 0;

	/* base.gguf: a llama of width 8, 3 blocks, 16 tokens. */
	memset(&f, 0, sizeof f);
	key(&f, "general.architecture", K_STR, "llama", 0, 0);
	key(&f, "llama.context_length", K_U32, NULL, 64, 0);
	key(&f, "llama.embedding_length", K_U32, NULL, 8, 0);
	key(&f, "llama.block_count", K_U32, NULL, 3, 0);
	key(&f, "llama.feed_forward_length", K_U32, NULL, 16, 0);
	key(&f, "llama.attention.head_count", K_U32, NULL, 2, 0);
	key(&f, "llama.attention.layer_norm_rms_epsilon", K_F32, NULL, 1e-5,
	    0);
	ten(&f, "token_embd.weight", 2, 8, 16, GG_T_F32);
	ten(&f, "blk.0.attn_norm.weight", 1, 8, 1, GG_T_F32);
	ten(&f, "blk.0.attn_q.weight", 2, 8, 8, GG_T_F32);
	ten(&f, "blk.0.ffn_up.weight", 2, 8, 16, GG_T_F32);
	ten(&f, "blk.1.attn_norm.weight", 1, 8, 1, GG_T_F32);
	ten(&f, "blk.1.attn_q.weight", 2, 8, 8, GG_T_F32);
	ten(&f, "blk.1.ffn_up.weight", 2, 8, 16, GG_T_F32);
	ten(&f, "blk.2.attn_norm.weight", 1, 8, 1, GG_T_F32);
	ten(&f, "blk.2.attn_q.weight", 2, 8, 8, GG_T_F32);
	ten(&f, "blk.2.ffn_up.weight", 2, 8, 16, GG_T_F32);
	ten(&f, "output_norm.weight", 1, 8, 1, GG_T_F32);
	rc |= write_file(&f, dir, "base.gguf");

	/* lora.gguf: rank 4, alpha 8, three pairs, token_embd's flipped. */
	memset(&f, 0, sizeof f);
	adapter_keys(&f, "llama");
	key(&f, "adapter.lora.alpha", K_F32, NULL, 8, 0);
	pair(&f, "token_embd.weight", 8, 16, 4);
	pair(&f, "blk.0.attn_q.weight", 8, 8, 4);
	pair(&f, "blk.1.ffn_up.weight", 8, 16, 4);
	rc |= write_file(&f, dir, "lora.gguf");

	/* alora.gguf: the same with three invocation tokens. */
	key(&f, "adapter.alora.invocation_tokens", K_ARR_U32, NULL, 0, 3);
	rc |= write_file(&f, dir, "alora.gguf");

	/* lora-nob.gguf: blk.0.attn_q.weight.lora_b missing. */
	memset(&f, 0, sizeof f);
	adapter_keys(&f, "llama");
	pair(&f, "blk.0.attn_q.weight", 8, 8, 4);
	f.nt--;
	pair(&f, "blk.1.attn_q.weight", 8, 8, 4);
	rc |= write_file(&f, dir, "lora-nob.gguf");

	/* lora-rank.gguf: lora_a of rank 4, lora_b of rank 5. */
	memset(&f, 0, sizeof f);
	adapter_keys(&f, "llama");
	pair(&f, "blk.0.attn_q.weight", 8, 8, 4);
	f.t[1].ne[0] = 5;
	rc |= write_file(&f, dir, "lora-rank.gguf");

	/* lora-absent.gguf: a pair for blk.7, which the base lacks. */
	memset(&f, 0, sizeof f);
	adapter_keys(&f, "llama");
	pair(&f, "blk.7.attn_q.weight", 8, 8, 4);
	rc |= write_file(&f, dir, "lora-absent.gguf");

	/* lora-wide.gguf: a pair for a base of width 16. */
	memset(&f, 0, sizeof f);
	adapter_keys(&f, "llama");
	pair(&f, "blk.0.attn_q.weight", 16, 16, 4);
	rc |= write_file(&f, dir, "lora-wide.gguf");

	/* lora-gpt2.gguf: another architecture. */
	memset(&f, 0, sizeof f);
	adapter_keys(&f, "gpt2");
	pair(&f, "blk.0.attn_q.weight", 8, 8, 4);
	rc |= write_file(&f, dir, "lora-gpt2.gguf");

	/* lora-type.gguf: adapter.type "prefix"; alpha a u32. */
	memset(&f, 0, sizeof f);
	key(&f, "general.architecture", K_STR, "llama", 0, 0);
	key(&f, "general.type", K_STR, "adapter", 0, 0);
	key(&f, "adapter.type", K_STR, "prefix", 0, 0);
	key(&f, "adapter.lora.alpha", K_U32, NULL, 16, 0);
	pair(&f, "blk.0.attn_q.weight", 8, 8, 4);
	rc |= write_file(&f, dir, "lora-type.gguf");

	/* lora-notype.gguf: lora tensors, no general.type. */
	memset(&f, 0, sizeof f);
	key(&f, "general.architecture", K_STR, "llama", 0, 0);
	key(&f, "adapter.type", K_STR, "lora", 0, 0);
	pair(&f, "blk.0.attn_q.weight", 8, 8, 4);
	rc |= write_file(&f, dir, "lora-notype.gguf");

	/* lora-suffix.gguf: a tensor neither lora_a nor lora_b. */
	memset(&f, 0, sizeof f);
	adapter_keys(&f, "llama");
	pair(&f, "blk.0.attn_q.weight", 8, 8, 4);
	ten(&f, "blk.0.attn_q.weight.lora_c", 2, 8, 4, GG_T_F32);
	ten(&f, "blk.0.attn_norm.weight", 1, 8, 1, GG_T_F32);
	rc |= write_file(&f, dir, "lora-suffix.gguf");

	/* cvec.gguf: directions for layers 1 and 2 of width 8. */
	memset(&f, 0, sizeof f);
	key(&f, "general.architecture", K_STR, "controlvector", 0, 0);
	key(&f, "controlvector.model_hint", K_STR, "llama", 0, 0);
	key(&f, "controlvector.layer_count", K_I32, NULL, 2, 0);
	ten(&f, "direction.1", 1, 8, 1, GG_T_F32);
	ten(&f, "direction.2", 1, 8, 1, GG_T_F32);
	rc |= write_file(&f, dir, "cvec.gguf");
	/* cvec-width.gguf: direction.2 of width 9. */
	f.t[1].ne[0] = 9;
	rc |= write_file(&f, dir, "cvec-width.gguf");
	/* cvec-zero.gguf: a direction for layer 0. */
	f.t[1].ne[0] = 8;
	snprintf(f.t[1].name, sizeof f.t[1].name, "direction.0");
	rc |= write_file(&f, dir, "cvec-zero.gguf");
	/* cvec-name.gguf: a tensor of no layer. */
	snprintf(f.t[1].name, sizeof f.t[1].name, "direction.x");
	rc |= write_file(&f, dir, "cvec-name.gguf");
	/* cvec-f16.gguf: an F16 direction. */
	snprintf(f.t[1].name, sizeof f.t[1].name, "direction.2");
	f.t[1].type = GG_T_F16;
	rc |= write_file(&f, dir, "cvec-f16.gguf");
	/* cvec-wide.gguf: width 16, for another model. */
	f.t[1].type = GG_T_F32;
	f.t[0].ne[0] = f.t[1].ne[0] = 16;
	rc |= write_file(&f, dir, "cvec-wide.gguf");
	/* cvec-deep.gguf: width 8, a direction for layer 5. */
	f.t[0].ne[0] = f.t[1].ne[0] = 8;
	snprintf(f.t[1].name, sizeof f.t[1].name, "direction.5");
	rc |= write_file(&f, dir, "cvec-deep.gguf");

	/* imatrix.gguf: two tensors' sums and counts, 10 chunks of 512. */
	memset(&f, 0, sizeof f);
	key(&f, "general.type", K_STR, "imatrix", 0, 0);
	key(&f, "imatrix.chunk_count", K_U32, NULL, 10, 0);
	key(&f, "imatrix.chunk_size", K_U32, NULL, 512, 0);
	key(&f, "imatrix.datasets", K_ARR_STR, "wiki.train.raw", 0, 1);
	ten(&f, "blk.0.attn_q.weight.in_sum2", 2, 8, 1, GG_T_F32);
	ten(&f, "blk.0.attn_q.weight.counts", 2, 1, 1, GG_T_F32);
	ten(&f, "blk.0.ffn_up_exps.weight.in_sum2", 2, 8, 4, GG_T_F32);
	ten(&f, "blk.0.ffn_up_exps.weight.counts", 2, 1, 4, GG_T_F32);
	rc |= write_file(&f, dir, "imatrix.gguf");
	/* imatrix-counts.gguf: the experts' counts for 2 of 4. */
	f.t[3].ne[1] = 2;
	rc |= write_file(&f, dir, "imatrix-counts.gguf");
	/* imatrix-alone.gguf: sums without counts. */
	f.t[3].ne[1] = 4;
	f.nt = 3;
	rc |= write_file(&f, dir, "imatrix-alone.gguf");

	/*
	 * mmproj.gguf: a vision projector of width 8 (gemma3's), with every
	 * key and tensor llama.cpp's projector loader reads; mmproj-wide.gguf
	 * of width 16; mmproj-audio.gguf: an audio projector (ultravox).
	 */
	rc |= pfile("gemma3", 0, 8, dir, "mmproj.gguf");
	rc |= pfile("gemma3", 0, 16, dir, "mmproj-wide.gguf");
	rc |= pfile("ultravox", 1, 8, dir, "mmproj-audio.gguf");
	return rc != 0;
}

/* --------------------------------------------------------- the adapters */

static uint64_t	rng;

static uint32_t
rnd(uint32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng % n);
}

struct btensor {
	char		name[160];
	uint64_t	ne0, ne1;
	int		nd;
};

enum breakage { B_OK, B_NO_B, B_NO_A, B_RANK, B_TRANSPOSE, B_ABSENT,
    B_SHAPE, B_ARCH, B_GTYPE, B_ATYPE, B_ALPHA, B_SUFFIX, B_ALORA, B_NORM,
    B_COUNT };

static const char *const bname[] = { "ok", "no-lora_b", "no-lora_a",
    "rank", "transposed", "absent", "shape", "arch", "general.type",
    "adapter.type", "alpha", "suffix", "alora-type", "norm" };

static int
adapters(const char *arch, unsigned long seed, int count, const char *dir)
{
	static struct btensor	bt[4096];
	struct file		f;
	char			line[1024], nm[160], dims[128], fname[64];
	char			touched[200];
	int			nb = 0, k, i, np, which, b;
	uint64_t		r, ne0, ne1;

	while (fgets(line, sizeof line, stdin) != NULL && nb < 4096) {
		unsigned long	idx;
		int		n;

		if (sscanf(line, "tensor %lu %159s %*s %127s", &idx, nm,
		    dims) != 3)
			continue;
		n = sscanf(dims, "[%lu,%lu", (unsigned long *)&ne0,
		    (unsigned long *)&ne1);
		if (n < 1)
			continue;
		snprintf(bt[nb].name, sizeof bt[nb].name, "%s", nm);
		bt[nb].ne0 = ne0;
		bt[nb].ne1 = n == 2 ? ne1 : 1;
		bt[nb].nd = n;
		nb++;
	}
	if (nb == 0) {
		fprintf(stderr, "gen_kinds: no tensors on standard input\n");
		return 1;
	}
	for (k = 0; k < count; k++) {
		rng = (uint64_t)seed * 2654435761u + (uint64_t)k * 40503u + 1;
		for (i = 0; i < 8; i++)
			(void)rnd(2);
		memset(&f, 0, sizeof f);
		b = rnd(3) == 0 ? B_OK : (int)(1 + rnd(B_COUNT - 1));
		strcpy(touched, "-");
		key(&f, "general.architecture", K_STR, b == B_ARCH ?
		    (strcmp(arch, "gpt2") == 0 ? "llama" : "gpt2") : arch,
		    0, 0);
		if (b == B_ARCH)
			strcpy(touched, "general.architecture");
		key(&f, "general.type", K_STR, b == B_GTYPE ? "model" :
		    "adapter", 0, 0);
		if (b == B_GTYPE)
			strcpy(touched, "general.type");
		key(&f, "adapter.type", K_STR, b == B_ATYPE ? "prefix" :
		    "lora", 0, 0);
		if (b == B_ATYPE)
			strcpy(touched, "adapter.type");
		if (b == B_ALPHA) {
			key(&f, "adapter.lora.alpha", K_U32, NULL, 16, 0);
			strcpy(touched, "adapter.lora.alpha");
		} else if (rnd(2))
			key(&f, "adapter.lora.alpha", K_F32, NULL,
			    (double)(1 + rnd(32)), 0);
		if (b == B_ALORA) {
			key(&f, "adapter.alora.invocation_tokens", K_ARR_I32,
			    NULL, 0, 2);
			strcpy(touched, "adapter.alora.invocation_tokens");
		} else if (rnd(4) == 0)
			key(&f, "adapter.alora.invocation_tokens", K_ARR_U32,
			    NULL, 0, 1 + (int)rnd(3));
		r = 1 + rnd(8);
		np = 1 + (int)rnd(4);
		which = (int)rnd((uint32_t)np);
		for (i = 0; i < np; i++) {
			const struct btensor	*t = &bt[rnd((uint32_t)nb)];
			struct ten		*ta, *tb;
			int			 j, dup = 0;

			/* Breakages of a shape want a matrix. */
			if (i == which && (b == B_RANK || b == B_TRANSPOSE ||
			    b == B_SHAPE))
				for (j = 0; j < nb && (t->nd < 2 ||
				    strstr(t->name, "token_embd") != NULL ||
				    t->ne0 == t->ne1); j++)
					t = &bt[(size_t)(j + k) % (size_t)nb];
			snprintf(nm, sizeof nm, "%s", t->name);
			if (i == which && b == B_ABSENT)
				snprintf(nm, sizeof nm, "blk.999.%s",
				    strchr(t->name, '.') + 1);
			for (j = 0; j < f.nt; j++)
				if (strncmp(f.t[j].name, nm, strlen(nm)) == 0 &&
				    f.t[j].name[strlen(nm)] == '.')
					dup = 1;
			if (dup)
				continue;
			pair(&f, nm, t->ne0, t->ne1, r);
			ta = &f.t[f.nt - 2];
			tb = &f.t[f.nt - 1];
			if (rnd(4) == 0)
				ta->type = tb->type = GG_T_F16;
			if (i != which)
				continue;
			switch (b) {
			case B_NO_B:
				f.nt--;
				snprintf(touched, sizeof touched, "%s", nm);
				break;
			case B_NO_A:
				*ta = *tb;
				f.nt--;
				snprintf(touched, sizeof touched, "%s", nm);
				break;
			case B_RANK:
				tb->ne[0] = r + 1;
				snprintf(touched, sizeof touched, "%s", nm);
				break;
			case B_TRANSPOSE:
				ta->ne[0] = r;
				ta->ne[1] = t->ne0;
				tb->ne[0] = t->ne1;
				tb->ne[1] = r;
				snprintf(touched, sizeof touched, "%s", nm);
				break;
			case B_ABSENT:
				snprintf(touched, sizeof touched, "%s", nm);
				break;
			case B_SHAPE:
				ta->ne[0] = t->ne0 + 1;
				snprintf(touched, sizeof touched, "%s", nm);
				break;
			case B_SUFFIX:
				snprintf(ta->name, sizeof ta->name,
				    "%s.lora_c", nm);
				snprintf(touched, sizeof touched, "%s", ta->name);
				break;
			case B_NORM:
				ten(&f, "blk.0.attn_norm.weight", 1, t->ne0, 1,
				    GG_T_F32);
				break;
			default:
				break;
			}
		}
		snprintf(fname, sizeof fname, "%lu-%d.gguf", seed, k);
		if (write_file(&f, dir, fname) != 0)
			return 1;
		printf("%s/%s\t%s\t%s\n", dir, fname, bname[b], touched);
	}
	return 0;
}

/* ---------------------------------------------------------- projectors */

#define MAXN	1024

struct pname {
	char	name[200];
	char	type;		/* tensors 't'; keys 'u' (u32), 'f', 'a' */
};

struct proj {
	struct pname	n[MAXN];
	int		nn;
	int		nkeys;		/* n[0 .. nkeys - 1] are keys */
	int		nreq;		/* n[0 .. nreq - 1] are required */
};

/* pat (len bytes) with {m}, {p}, {bid} or {sam} replaced. */
static void
pexpand(char *out, size_t size, const char *pat, size_t len, const char *m,
    const char *p, int il)
{
	char	tmp[200];
	size_t	o = 0, k;

	for (k = 0; k < len && o + 12 < sizeof tmp; ) {
		if (strncmp(pat + k, "{m}", 3) == 0) {
			o += (size_t)sprintf(tmp + o, "%s", m);
			k += 3;
		} else if (strncmp(pat + k, "{p}", 3) == 0) {
			o += (size_t)sprintf(tmp + o, "%s", p);
			k += 3;
		} else if (strncmp(pat + k, "{bid}", 5) == 0 ||
		    strncmp(pat + k, "{sam}", 5) == 0) {
			o += (size_t)sprintf(tmp + o, "%d", il);
			k += 5;
		} else
			tmp[o++] = pat[k++];
	}
	tmp[o] = '\0';
	snprintf(out, size, "%s", tmp);
}

static void
padd(struct proj *pr, const char *name, char type)
{
	int	i;

	for (i = 0; i < pr->nn; i++)
		if (strcmp(pr->n[i].name, name) == 0)
			return;
	if (pr->nn == MAXN) {
		fprintf(stderr, "gen_kinds: more than %d names\n", MAXN);
		exit(1);
	}
	snprintf(pr->n[pr->nn].name, sizeof pr->n[pr->nn].name, "%s", name);
	pr->n[pr->nn++].type = type;
}

/* Every name of the list pats, keys (":TYPE" ended) or tensors. */
static void
plist(struct proj *pr, const char *pats, const char *m, const char *p,
    int nblk)
{
	const char	*w, *e, *colon;
	char		 name[200];
	int		 il, top;

	for (w = pats; *w != '\0'; w = e) {
		while (*w == ' ')
			w++;
		for (e = w; *e != '\0' && *e != ' '; e++)
			;
		if (e == w)
			break;
		colon = memchr(w, ':', (size_t)(e - w));
		top = strstr(w, "{bid}") != NULL && strstr(w, "{bid}") < e ?
		    nblk : strstr(w, "{sam}") != NULL && strstr(w, "{sam}") < e ?
		    GGUF_PROJ_SAM_BLOCKS : 1;
		for (il = 0; il < top; il++) {
			pexpand(name, sizeof name, w, (size_t)((colon != NULL ?
			    colon : e) - w), m, p, il);
			padd(pr, name, colon == NULL ? 't' : colon[1]);
		}
	}
}

static uint32_t	proj_dim = 16;

static int
pwrite(const struct proj *pr, int skip, const char *type, int audio,
    const char *dir, const char *fname)
{
	struct gg	g;
	char		path[4096];
	uint64_t	ne[1] = { 4 };
	int		i, nk = 0, ntn = 0, rc;
	uint64_t	off = 0;

	for (i = 0; i < pr->nn; i++)
		if (i != skip)
			pr->n[i].type == 't' ? ntn++ : nk++;
	gg_init(&g, 3, 0);
	gg_header(&g, (uint64_t)ntn, (uint64_t)nk + 3);
	gg_kv_str(&g, "general.architecture", "clip");
	gg_kv_str(&g, "clip.projector_type", type);
	gg_kv_bool(&g, audio ? "clip.has_audio_encoder" :
	    "clip.has_vision_encoder", 1);
	for (i = 0; i < pr->nn; i++) {
		const char	*n = pr->n[i].name;

		if (i == skip || pr->n[i].type == 't')
			continue;
		if (pr->n[i].type == 'f')
			gg_kv_f32(&g, n, 1e-6f);
		else if (pr->n[i].type == 'a' && strstr(n, "indexes") != NULL) {
			gg_kv_arr(&g, n, GG_I32, 2);
			gg_u32(&g, 0);
			gg_u32(&g, 1);
		} else if (pr->n[i].type == 'a') {
			gg_kv_arr(&g, n, GG_F32, 3);
			gg_f32(&g, 0.5f);
			gg_f32(&g, 0.5f);
			gg_f32(&g, 0.5f);
		} else
			gg_kv_u32(&g, n, strstr(n, "projection_dim") != NULL ?
			    proj_dim : strstr(n, "block_count") != NULL &&
			    strstr(n, "sam.") == NULL ? 2 :
			    strstr(n, "sam.block_count") != NULL ?
			    GGUF_PROJ_SAM_BLOCKS : strstr(n, "max_pixels") ?
			    4096 : 16);
	}
	for (i = 0; i < pr->nn; i++)
		if (i != skip && pr->n[i].type == 't') {
			gg_tensor(&g, pr->n[i].name, 1, ne, GG_T_F32, off);
			off += 32;
		}
	gg_pad(&g, 32);
	gg_zeros(&g, (size_t)off);
	snprintf(path, sizeof path, "%s/%s", dir, fname);
	rc = gg_write(&g, path);
	gg_free(&g);
	if (rc != 0)
		perror(path);
	return rc;
}

/* pr: every key and tensor of a projector of row for a modality. */
static void
pbuild(struct proj *pr, const struct gguf_projector *row, int audio)
{
	const struct gguf_projector	*as = row;
	const char			*m = audio ? "audio" : "vision";
	const char			*p = audio ? "a" : "v";
	const char			*alias = audio ? row->audio_as :
					    row->vision_as;

	if (alias != NULL)
		as = gguf_projector_find(alias, strlen(alias));
	memset(pr, 0, sizeof *pr);
	plist(pr, gguf_projector_base_keys(audio ? GGUF_PROJ_AUDIO :
	    GGUF_PROJ_VISION), m, p, 2);
	plist(pr, as->keys, m, p, 2);
	pr->nkeys = pr->nn;
	plist(pr, as->tensors, m, p, 2);
	pr->nreq = pr->nn;
	plist(pr, as->optional, m, p, 2);
	plist(pr, gguf_projector_base_optional(), m, p, 2);
}

/* A well-formed projector of type, projecting to width pdim. */
static int
pfile(const char *type, int audio, uint32_t pdim, const char *dir,
    const char *fname)
{
	static struct proj	pr;

	pbuild(&pr, gguf_projector_find(type, strlen(type)), audio);
	proj_dim = pdim;
	return pwrite(&pr, -1, type, audio, dir, fname);
}

static int
projectors(unsigned long seed, const char *dir)
{
	static struct proj		 pr;
	const struct gguf_projector	*row;
	char				 fname[256], base[160];
	size_t				 k;
	int				 audio, skip;

	for (k = 0; k < gguf_projectors_n; k++) {
		row = &gguf_projectors[k];
		if (row->refused != NULL)
			continue;
		for (audio = 0; audio < 2; audio++) {
			if (!(row->modality & (audio ? GGUF_PROJ_AUDIO :
			    GGUF_PROJ_VISION)))
				continue;
			if (row->modality == (GGUF_PROJ_VISION |
			    GGUF_PROJ_AUDIO))
				snprintf(base, sizeof base, "%s-%s", row->type,
				    audio ? "audio" : "vision");
			else
				snprintf(base, sizeof base, "%s", row->type);
			pbuild(&pr, row, audio);
			rng = seed * 2654435761u + k * 40503u + (unsigned)audio +
			    1;
			snprintf(fname, sizeof fname, "%s-ok.gguf", base);
			if (pwrite(&pr, -1, row->type, audio, dir, fname) != 0)
				return 1;
			printf("%s/%s\tok\t-\n", dir, fname);
			/* A key half the time, else a tensor. */
			skip = rnd(2) == 0 || pr.nreq == pr.nkeys ?
			    (int)rnd((uint32_t)pr.nkeys) : pr.nkeys +
			    (int)rnd((uint32_t)(pr.nreq - pr.nkeys));
			snprintf(fname, sizeof fname, "%s-req.gguf", base);
			if (pwrite(&pr, skip, row->type, audio, dir, fname) != 0)
				return 1;
			printf("%s/%s\treq\t%s\n", dir, fname, pr.n[skip].name);
			if (pr.nn == pr.nreq)
				continue;
			skip = pr.nreq + (int)rnd((uint32_t)(pr.nn - pr.nreq));
			snprintf(fname, sizeof fname, "%s-opt.gguf", base);
			if (pwrite(&pr, skip, row->type, audio, dir, fname) != 0)
				return 1;
			printf("%s/%s\topt\t%s\n", dir, fname, pr.n[skip].name);
		}
	}
	return 0;
}

int
main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "files") == 0)
		return files(argv[2]);
	if (argc == 6 && strcmp(argv[1], "adapters") == 0)
		return adapters(argv[2], strtoul(argv[3], NULL, 10),
		    atoi(argv[4]), argv[5]);
	if (argc == 4 && strcmp(argv[1], "projectors") == 0)
		return projectors(strtoul(argv[2], NULL, 10), argv[3]);
	fprintf(stderr, "usage: gen_kinds files DIR\n"
	    "       gen_kinds adapters ARCH SEED COUNT DIR < TENSORS\n"
	    "       gen_kinds projectors SEED DIR\n");
	return 2;
}
