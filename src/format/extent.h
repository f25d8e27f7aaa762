/*
 * extent.h - the length of a GGUF header, found from a prefix of the
 * file (for files read over the network, header first).
 */
#ifndef GGUF_EXTENT_H
#define GGUF_EXTENT_H

#include <stdint.h>

/*
 * Walks the header in the n bytes at p. 0: the data section starts at
 * *out (the end of the tensor infos rounded up to the alignment: every
 * byte the reader needs to index the file). 1: the prefix ends inside
 * the header, and the header is at least *out bytes long (more than
 * n: the item the prefix ends in, and the least that every item known to
 * follow it takes). -1: the bytes are not a header this can walk (a
 * wrong magic, an unknown version or value type); the reader says what
 * is wrong.
 */
int	gguf_header_extent(const uint8_t *p, uint64_t n, uint64_t *out);

#endif /* GGUF_EXTENT_H */
