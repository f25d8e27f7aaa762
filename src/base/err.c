/*
 * err.c - filling the error every floor reports (err.h).
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>

#include "err.h"

#undef gguf_errf		/* defined here; see err.h */

int
gguf_errf(struct gguf_err *err, int64_t off, const char *fmt, ...)
{
	va_list	ap;

	if (err == NULL)
		return -1;
	err->has_off = off >= 0;
	err->off = off >= 0 ? (uint64_t)off : 0;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
	return -1;
}

void
gguf_err_text(const struct gguf_err *err, char *buf, size_t len)
{
	if (err->has_off)
		snprintf(buf, len, "offset 0x%llx: %s",
		    (unsigned long long)err->off, err->msg);
	else
		snprintf(buf, len, "%s", err->msg);
}
