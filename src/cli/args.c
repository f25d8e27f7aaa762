/*
 * args.c - the values of command-line options: numbers, row and column
 * ranges, thread counts. Shared by the subcommands (and linked into the
 * fuzz target that runs some of them).
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/*
 * Decimal digits only, as llama.cpp reads its numbers: a leading zero is
 * still decimal ("0100" is 100, not 64), and "0x3" is not a number.
 */
int
cli_parse_u64(const char *s, unsigned long long *out)
{
	char		*end;
	const char	*p;

	for (p = s; *p >= '0' && *p <= '9'; p++)
		;
	if (p == s || *p != '\0')
		return -1;
	errno = 0;
	*out = strtoull(s, &end, 10);
	if (errno != 0 || *end != '\0')
		return -1;
	return 0;
}

int
cli_parse_range(const char *s, uint64_t *a, uint64_t *b, int *has_b)
{
	unsigned long long	 v;
	const char		*colon = strchr(s, ':');
	char			 buf[64];

	*a = 0;
	*has_b = 0;
	if (colon == NULL) {
		if (cli_parse_u64(s, &v) != 0 || v == UINT64_MAX)
			return -1;
		*a = v;
		*b = v + 1;
		*has_b = 1;
		return 0;
	}
	if ((size_t)(colon - s) >= sizeof buf)
		return -1;
	memcpy(buf, s, (size_t)(colon - s));
	buf[colon - s] = '\0';
	if (buf[0] != '\0') {
		if (cli_parse_u64(buf, &v) != 0)
			return -1;
		*a = v;
	}
	if (colon[1] != '\0') {
		if (cli_parse_u64(colon + 1, &v) != 0)
			return -1;
		*b = v;
		*has_b = 1;
	}
	return 0;
}

int
cli_parse_threads(const char *cmd, const char *s, unsigned *out)
{
	unsigned long long	v;

	if (cli_parse_u64(s, &v) != 0 || v > 1024) {
		cli_usage_error(cmd, "--threads wants a number from 0 (all "
		    "CPUs) to 1024");
		return -1;
	}
	*out = (unsigned)v;
	return 0;
}

/*
 * A size, one rule for every option that takes one (as gguf-split):
 * K, M, G, T are powers of 1000, KiB, MiB, GiB, TiB powers of 1024; a
 * trailing B is allowed (KB, MiB, B).
 */
int
cli_parse_size(const char *s, uint64_t *out)
{
	static const char	 units[] = "KMGT";
	unsigned long long	 v;
	const char		*u, *p;
	uint64_t		 mul = 1, base;
	char			 num[32];
	size_t			 n = strspn(s, "0123456789"), k;

	if (n == 0 || n >= sizeof num)
		return -1;
	memcpy(num, s, n);
	num[n] = '\0';
	if (cli_parse_u64(num, &v) != 0)
		return -1;
	p = s + n;
	if (*p != '\0' && (u = strchr(units, *p)) != NULL) {
		base = p[1] == 'i' ? 1024 : 1000;
		p += p[1] == 'i' ? 2 : 1;
		for (k = 0; k <= (size_t)(u - units); k++)
			mul *= base;
	}
	if (*p == 'B')
		p++;
	if (*p != '\0' || v > UINT64_MAX / mul)
		return -1;
	*out = v * mul;
	return 0;
}

int
cli_range_sane(const char *cmd, const char *opt, const char *text,
    uint64_t a, uint64_t b, int has_b)
{
	if (!has_b || a <= b)		/* A:A: no row, as asked */
		return 0;
	cli_usage_error(cmd, "%s %s: the end comes before the start", opt,
	    text);
	return -1;
}

const char *
cli_opt(const char *arg, int *dd)
{
	if (*dd)
		return "";
	if (strcmp(arg, "--") == 0) {
		*dd = 1;
		return NULL;
	}
	return arg;
}
