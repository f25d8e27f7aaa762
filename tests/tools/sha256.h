/*
 * sha256.h - SHA-256 (FIPS 180-4) for the tests: hashes of array payloads
 * and tensor data, compared with what ggml's view reports.
 */
#ifndef TESTS_SHA256_H
#define TESTS_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct sha256 {
	uint32_t	h[8];
	uint64_t	len;		/* bytes hashed so far */
	uint8_t		buf[64];
	size_t		nbuf;
};

void	sha256_init(struct sha256 *s);
void	sha256_update(struct sha256 *s, const void *p, size_t n);
/* Writes 64 lower-case hex digits and a NUL into hex. */
void	sha256_hex(struct sha256 *s, char hex[65]);

#endif
