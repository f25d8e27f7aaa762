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
