/*
 * tap.h - a minimal TAP producer for the C unit tests.
 *
 *	ok(cond, "what", ...);	one test point
 *	skip("why", ...);	one test point skipped
 *	is_u64(got, want, "what"); equality with both values shown on failure
 *	return tap_done();	plan line and exit status
 *	same_files(a, b);	whether two files hold the same bytes
 *	tap_seed(s); tap_rand(n); random inputs, reproducible: the seed
 *				is said when a test point failed
 */
#ifndef TAP_H
#define TAP_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int	tap_n, tap_failed;
static uint64_t	tap_rng = 0x2545f4914f6cdd1dull, tap_rng0 = 0x2545f4914f6cdd1dull;

static inline int __attribute__((format(printf, 2, 3)))
ok(int cond, const char *fmt, ...)
{
	va_list	ap;

	tap_n++;
	printf("%sok %d - ", cond ? "" : "not ", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (!cond)
		tap_failed++;
	fflush(stdout);
	return cond;
}

#define is_u64(got, want, ...) do {					\
	unsigned long long g_ = (unsigned long long)(got);		\
	unsigned long long w_ = (unsigned long long)(want);		\
	if (!ok(g_ == w_, __VA_ARGS__))					\
		printf("#   got %llu, want %llu\n", g_, w_);		\
} while (0)

static inline void __attribute__((format(printf, 1, 2)))
diag(const char *fmt, ...)
{
	va_list	ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* Where tap_rand starts (not 0): a run's random inputs again. */
static inline void
tap_seed(uint64_t seed)
{
	tap_rng = tap_rng0 = seed != 0 ? seed : 1;
}

/* A xorshift draw below n (0 when n is 0). */
static inline uint64_t
tap_rand(uint64_t n)
{
	tap_rng ^= tap_rng << 13;
	tap_rng ^= tap_rng >> 7;
	tap_rng ^= tap_rng << 17;
	return n == 0 ? 0 : tap_rng % n;
}

static inline int
tap_done(void)
{
	printf("1..%d\n", tap_n);
	if (tap_failed && tap_rng != tap_rng0)
		printf("# random inputs from seed 0x%016llx (tap_seed)\n",
		    (unsigned long long)tap_rng0);
	return tap_failed != 0;
}

/* The process's mapped file pages (RssFile, bytes), or 0 where unknown. */
static inline uint64_t
tap_rss_file(void)
{
	char		 line[128];
	unsigned long	 kb = 0;
	FILE		*fp = fopen("/proc/self/status", "r");

	if (fp == NULL)
		return 0;
	while (fgets(line, sizeof line, fp) != NULL)
		if (sscanf(line, "RssFile: %lu kB", &kb) == 1)
			break;
	fclose(fp);
	return (uint64_t)kb << 10;
}

/* Bit-exact equality of doubles (tests want exactness, not tolerance). */
static inline int
same_f64(double a, double b)
{
	return memcmp(&a, &b, sizeof a) == 0;
}

/* A test point skipped, with the reason. */
static inline void __attribute__((format(printf, 1, 2)))
skip(const char *fmt, ...)
{
	va_list	ap;

	tap_n++;
	printf("ok %d # SKIP ", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

/*
 * $SHARED_DIR/rel, or NULL when it is not there (a plain clone has no
 * shared fixtures): the caller then skips, saying why.
 */
static inline const char *
shared_path(const char *rel, char *buf, size_t len)
{
	const char	*d = getenv("SHARED_DIR");

	if (d == NULL || *d == '\0')
		return NULL;
	snprintf(buf, len, "%s/%s", d, rel);
	if (access(buf, F_OK) != 0)
		return NULL;
	return buf;
}

/* Whether the files a and b both open and hold the same bytes. */
static inline int
same_files(const char *a, const char *b)
{
	FILE	*fa = fopen(a, "rb"), *fb = fopen(b, "rb");
	int	 ca, cb, same = fa != NULL && fb != NULL;

	while (same) {
		ca = getc(fa);
		cb = getc(fb);
		if (ca != cb)
			same = 0;
		if (ca == EOF)
			break;
	}
	if (fa != NULL)
		fclose(fa);
	if (fb != NULL)
		fclose(fb);
	return same;
}

#endif /* TAP_H */
