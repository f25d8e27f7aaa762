/*
 * jinja.h - a renderer for the Jinja language as chat templates use it.
 *
 * The output is what Python's jinja2 gives under the settings of Hugging
 * Face transformers' apply_chat_template: a sandboxed environment with
 * trim_blocks and lstrip_blocks, break and continue, the globals
 * raise_exception(msg) and strftime_now(fmt), and tojson as Python's
 * json.dumps with ensure_ascii off.
 *
 * Rendering is bounded: output size, the memory of the values it builds,
 * evaluation steps, nesting depth of calls and the wall time all have
 * limits, and running into one is an error like any other, with the
 * template's line and column.
 */
#ifndef JINJA_JINJA_H
#define JINJA_JINJA_H

#include <stddef.h>

#include "jv.h"

struct jinja_limits {
	size_t			max_output;	/* bytes */
	unsigned long long	max_steps;	/* expression and statement steps */
	unsigned		max_depth;	/* nested calls, blocks, data */
	unsigned		max_ms;		/* wall time */
	size_t			max_memory;	/* bytes of the values built */
};

struct jinja_error {
	unsigned	line, col;	/* 1-based; 0 when not in the template */
	int		raised;		/* 1 = raise_exception() */
	char		msg[512];
};

struct jinja;				/* a parsed template */

/* The largest template source taken, in bytes. */
#define JINJA_MAX_SOURCE	(1u << 20)

/*
 * NULL on error, with err filled: a source over JINJA_MAX_SOURCE bytes is
 * refused before it is read, and lexing and parsing take time linear in
 * its size.
 */
struct jinja	*jinja_parse(const char *src, size_t n, struct jinja_error *err);

/*
 * ctx: a JV_DICT of globals (not changed). lim NULL = defaults (64 MiB
 * output, 10^8 steps, depth 256, 10 s, 256 MiB of values: the strings,
 * lists, dicts and namespaces alive at once, with the output). now: the
 * time strftime_now formats (seconds since the epoch, local time zone).
 * 0 on success with a malloc'd output (*out NUL-terminated, *outn bytes);
 * -1 with err filled.
 */
int	 jinja_render(const struct jinja *t, jv *ctx,
	    const struct jinja_limits *lim, long long now, char **out,
	    size_t *outn, struct jinja_error *err);
void	 jinja_free(struct jinja *t);

#endif /* JINJA_JINJA_H */
