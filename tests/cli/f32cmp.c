/*
 * f32cmp.c - compares numbers printed as text with a file of float32.
 *
 *	f32cmp EXPECTED.f32 [FIRST] < values.txt
 *
 * Reads whitespace-separated numbers from standard input and compares each,
 * converted to float32, with the little-endian float32 values of EXPECTED
 * starting at value FIRST (default 0): bit for bit, a NaN only has to be a
 * NaN. Integers are converted directly (no detour through double); other
 * numbers through strtod, which is exact for the 9 and 17 significant
 * digits ggufed prints. Exit 0 if every number matches and there are no
 * more numbers than values; 1 with the first difference on stderr.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int
is_integer(const char *s)
{
	if (*s == '-' || *s == '+')
		s++;
	if (*s == '\0')
		return 0;
	for (; *s != '\0'; s++) {
		if (*s < '0' || *s > '9')
			return 0;
	}
	return 1;
}

int
main(int argc, char **argv)
{
	FILE		*fp;
	char		 tok[128];
	unsigned char	 b[4];
	uint32_t	 gb, wb;
	float		 got, want;
	unsigned long	 n = 0, first = 0, i;
	int		 c, len;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: f32cmp EXPECTED.f32 [FIRST]\n");
		return 2;
	}
	if ((fp = fopen(argv[1], "rb")) == NULL) {
		fprintf(stderr, "f32cmp: %s: %s\n", argv[1], strerror(errno));
		return 2;
	}
	if (argc == 3)
		first = strtoul(argv[2], NULL, 10);
	if (fseek(fp, (long)first * 4, SEEK_SET) != 0)
		return 2;
	for (;;) {
		len = 0;
		while ((c = getchar()) == ' ' || c == '\n' || c == '\t')
			;
		while (c != EOF && c != ' ' && c != '\n' && c != '\t') {
			if (len < (int)sizeof tok - 1)
				tok[len++] = (char)c;
			c = getchar();
		}
		if (len == 0)
			break;
		tok[len] = '\0';
		if (fread(b, 1, 4, fp) != 4) {
			fprintf(stderr, "f32cmp: more numbers than values "
			    "(%lu)\n", n);
			return 1;
		}
		wb = (uint32_t)b[0] | (uint32_t)b[1] << 8 |
		    (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
		memcpy(&want, &wb, 4);
		if (is_integer(tok)) {
			got = (float)strtoll(tok, NULL, 10);
			if (tok[0] == '-')	/* "-0" */
				got = copysignf(got, -1.0f);
		}
		else
			got = (float)strtod(tok, NULL);
		memcpy(&gb, &got, 4);
		if (!(isnan(got) && isnan(want)) && gb != wb) {
			i = first + n;
			fprintf(stderr, "f32cmp: value %lu: got %s (0x%08x), "
			    "want %.9g (0x%08x)\n", i, tok, (unsigned)gb,
			    (double)want, (unsigned)wb);
			return 1;
		}
		n++;
	}
	printf("%lu\n", n);
	fclose(fp);
	return 0;
}
