/*
 * ggml_view.c - prints what ggufed's reader sees in a file, in the exact
 * text format of the ggml oracle's `dump` ("gguf-dump 1"), so that the two
 * views can be compared line by line: every key, type and value (arrays by
 * the sha256 of their GGUF encoding), every tensor's name, type, shape,
 * size, data hash and offset.
 *
 *	ggml_view [--no-layout] FILE
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gguf.h"
#include "../tools/sha256.h"

static void
put_escaped(const char *s, uint64_t n)
{
	uint64_t	i;
	unsigned char	c;

	putchar('"');
	for (i = 0; i < n; i++) {
		c = (unsigned char)s[i];
		switch (c) {
		case '"':  fputs("\\\"", stdout); break;
		case '\\': fputs("\\\\", stdout); break;
		case '\n': fputs("\\n", stdout); break;
		case '\r': fputs("\\r", stdout); break;
		case '\t': fputs("\\t", stdout); break;
		default:
			if (c < 0x20 || c > 0x7e)
				printf("\\x%02x", c);
			else
				putchar(c);
		}
	}
	putchar('"');
}

static void
hash_hex(const void *p, uint64_t n, char hex[65])
{
	struct sha256	s;

	sha256_init(&s);
	sha256_update(&s, p, (size_t)n);
	sha256_hex(&s, hex);
}

static void
put_str(const struct gguf_str *s)
{
	char	hex[65];

	printf("len=%llu ", (unsigned long long)s->n);
	if (s->n <= 1024)
		put_escaped(s->p, s->n);
	else {
		hash_hex(s->p, s->n, hex);
		printf("sha256=%s ", hex);
		put_escaped(s->p, 64);
		fputs("...", stdout);
	}
}

static void
put_scalar(const struct gguf_val *v, int with_bits)
{
	uint64_t	u;
	int64_t		i;
	double		d;

	switch (v->type) {
	case GGUF_VT_F32:
		gguf_val_f64(v, &d);
		printf("%.9g", d);
		if (with_bits)
			printf(" bits=0x%08llx", (unsigned long long)gguf_val_bits(v));
		break;
	case GGUF_VT_F64:
		gguf_val_f64(v, &d);
		printf("%.17g", d);
		if (with_bits)
			printf(" bits=0x%016llx", (unsigned long long)gguf_val_bits(v));
		break;
	case GGUF_VT_BOOL:
		fputs(gguf_val_bits(v) ? "true" : "false", stdout);
		break;
	case GGUF_VT_U64:
		gguf_val_u64(v, &u);
		printf("%llu", (unsigned long long)u);
		break;
	default:
		gguf_val_i64(v, &i);
		printf("%lld", (long long)i);
	}
}

/* Hash of the array payload as a little-endian v3 file encodes it. */
static int
put_array(struct gguf_val *v)
{
	struct sha256	 h;
	struct gguf_val	 e;
	struct gguf_str	 s;
	struct gguf_err	 err;
	uint64_t	 i, bits;
	uint8_t		 le[8];
	unsigned	 k, es = gguf_vtype_size(v->atype);
	char		 hex[65];

	printf("arr[%s] n=%llu ", gguf_vtype_name(v->atype),
	    (unsigned long long)v->count);
	sha256_init(&h);
	for (i = 0; i < v->count; i++) {
		if (gguf_arr_get(v, i, &e, &err) != 0) {
			fprintf(stderr, "ggml_view: %s\n", err.msg);
			return -1;
		}
		if (e.type == GGUF_VT_STR) {
			gguf_val_str(&e, &s);
			for (k = 0; k < 8; k++)
				le[k] = (uint8_t)(s.n >> (8 * k));
			sha256_update(&h, le, 8);
			sha256_update(&h, s.p, (size_t)s.n);
		} else if (e.type == GGUF_VT_BOOL) {
			le[0] = e.p[0] ? 1 : 0;
			sha256_update(&h, le, 1);
		} else if (es != 0) {
			bits = gguf_val_bits(&e);
			for (k = 0; k < es; k++)
				le[k] = (uint8_t)(bits >> (8 * k));
			sha256_update(&h, le, es);
		} else {
			fprintf(stderr, "ggml_view: nested arrays\n");
			return -1;
		}
	}
	sha256_hex(&h, hex);
	printf("sha256=%s", hex);
	if (v->count <= 16) {
		fputs(" [", stdout);
		for (i = 0; i < v->count; i++) {
			if (i > 0)
				fputs(", ", stdout);
			gguf_arr_get(v, i, &e, &err);
			if (e.type == GGUF_VT_STR) {
				gguf_val_str(&e, &s);
				if (s.n <= 64)
					put_escaped(s.p, s.n);
				else {
					hash_hex(s.p, s.n, hex);
					printf("<len=%llu sha256=%s>",
					    (unsigned long long)s.n, hex);
				}
			} else
				put_scalar(&e, 0);
		}
		putchar(']');
	}
	return 0;
}

int
main(int argc, char **argv)
{
	const struct gguf_layout	*lay;
	const struct gguf_tensor	*t;
	const struct gguf_type_info	*ti;
	struct gguf_file		*f;
	struct gguf_kv			*kv;
	struct gguf_str			 s;
	struct gguf_err			 err;
	const uint8_t			*data;
	uint64_t			 i, expect = 0, end;
	int				 layout = 1, canonical = 1;
	char				 hex[65], msg[600];

	if (argc == 3 && strcmp(argv[1], "--no-layout") == 0) {
		layout = 0;
		argv++;
		argc--;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: ggml_view [--no-layout] FILE\n");
		return 2;
	}
	if ((f = gguf_open(argv[1], &err)) == NULL) {
		gguf_err_text(&err, msg, sizeof msg);
		fprintf(stderr, "ggml_view: %s: %s\n", argv[1], msg);
		return 2;
	}
	lay = gguf_layout(f);
	printf("gguf-dump 1\nversion %u\nalignment %u\nn_kv %llu\n"
	    "n_tensors %llu\n", lay->version, lay->alignment,
	    (unsigned long long)lay->n_kv, (unsigned long long)lay->n_tensors);
	if (layout)
		printf("layout.file_size %llu\nlayout.data_offset %llu\n",
		    (unsigned long long)lay->file_size,
		    (unsigned long long)lay->data_off);
	for (i = 0; i < lay->n_kv; i++) {
		kv = gguf_kv_at(f, i);
		printf("kv %llu ", (unsigned long long)i);
		put_escaped(kv->key.p, kv->key.n);
		putchar(' ');
		if (kv->val.type == GGUF_VT_ARR) {
			if (put_array(&kv->val) != 0)
				return 1;
		} else if (kv->val.type == GGUF_VT_STR) {
			fputs("str ", stdout);
			gguf_val_str(&kv->val, &s);
			put_str(&s);
		} else {
			printf("%s ", gguf_vtype_name(kv->val.type));
			put_scalar(&kv->val, 1);
		}
		putchar('\n');
	}
	for (i = 0; i < lay->n_tensors; i++) {
		t = gguf_tensor_at(f, i);
		ti = gguf_ttype(t->type);
		printf("tensor %llu ", (unsigned long long)i);
		put_escaped(t->name.p, t->name.n);
		printf(" %s ne=[%llu,%llu,%llu,%llu] nbytes=%llu",
		    ti != NULL ? ti->lname : "?", (unsigned long long)t->ne[0],
		    (unsigned long long)t->ne[1], (unsigned long long)t->ne[2],
		    (unsigned long long)t->ne[3], (unsigned long long)t->nbytes);
		data = gguf_tensor_data(f, t, &err);
		if (data == NULL)
			printf(" sha256=TRUNCATED\n");
		else {
			hash_hex(data, t->nbytes, hex);
			printf(" sha256=%s\n", hex);
		}
		if (layout)
			printf("layout.tensor %llu offset=%llu\n",
			    (unsigned long long)i,
			    (unsigned long long)t->offset);
		if (t->offset != expect)
			canonical = 0;
		end = t->offset + t->nbytes;
		expect = (end + lay->alignment - 1) / lay->alignment *
		    lay->alignment;
	}
	if (layout)
		printf("layout.full_load %s\n", canonical &&
		    lay->data_off + expect <= lay->file_size ? "ok" : "FAILED");
	gguf_close(f);
	return 0;
}
