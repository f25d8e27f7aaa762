/*
 * err.h - the error every floor reports: a one-line message and, where it
 * applies, the offset in the file of what is wrong. Functions that can
 * fail fill one (when given one) and return -1 or NULL.
 */
#ifndef GGUF_ERR_H
#define GGUF_ERR_H

#include <stddef.h>
#include <stdint.h>

struct gguf_err {
	uint64_t	off;		/* file offset of the problem */
	int		has_off;	/* off is meaningful */
	char		msg[512];	/* what is wrong, one line, no offset */
};

/* Sets err (may be NULL) and returns -1. off < 0 means "no offset". */
int	gguf_errf(struct gguf_err *err, int64_t off, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));
#ifdef __clang_analyzer__
/*
 * The static analyzer looks at one file at a time: tell it that
 * "return gguf_errf(...)" returns -1, or it follows impossible paths.
 */
#define gguf_errf(...)	(gguf_errf(__VA_ARGS__), -1)
#endif
/* "offset 0x1c: string length 12345 runs past the end of the file" */
void	gguf_err_text(const struct gguf_err *err, char *buf, size_t len);

#endif /* GGUF_ERR_H */
