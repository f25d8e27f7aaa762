/*
 * value.h - the value syntax of the command language: text to a typed,
 * encoded value, with every range checked.
 *
 *	integers	C syntax: 42, -7, 0x2a, 0b101010 (a leading zero
 *			is refused, since C would read it as octal)
 *	floats		strtod syntax, plus inf, -inf, nan (any case)
 *	bool		true, false, 1, 0
 *	str		"C-escaped" (\n \t \xHH \u{...} \uXXXX ...), or bare
 *			text taken as it is (surrounding blanks dropped)
 *	arrays		a JSON array ([1, 2, "three"]; JSON strings, with
 *			\udcXX read back as the raw byte XX, as ggufed's JSON
 *			output writes it), or @PATH: one element per line
 *	@PATH		any value read from a file, @- from standard input
 *			(once a process): a string is the file's bytes
 *			exactly, a final newline included; a number or
 *			bool the file's text, blanks around it dropped; an
 *			array one element per line, the last newline ending
 *			the last element. @@ starts a literal @ (@@home is
 *			the string "@home").
 *
 * Type names: u8 i8 u16 i16 u32 i32 u64 i64 f32 f64 bool str, arr[T]
 * (gguf_vtype_parse_full, gguf_vtype_text). The other way, value to text,
 * is gguf_val_text.
 */
#ifndef CMD_VALUE_H
#define CMD_VALUE_H

#include <stddef.h>
#include <stdint.h>

struct gguf_value;


/*
 * Parses text (n bytes) as a value of type (and element type atype for
 * arrays). Returns a new value, or NULL with a one-line reason in msg.
 */
struct gguf_value *value_parse(const char *text, size_t n, uint32_t type,
	    uint32_t atype, char *msg, size_t len);
/*
 * Parses text as elements of an array of atype: a JSON array (several),
 * or one element in scalar syntax. Returns an array value.
 */
struct gguf_value *value_parse_elems(const char *text, size_t n,
	    uint32_t atype, char *msg, size_t len);
/*
 * Decodes a double-quoted C string starting at s[0] == '"'; *used gets
 * the bytes consumed (quotes included), *out an allocated buffer (NUL
 * added, not counted in *outlen). -1 with msg on a syntax error.
 */
int	value_unquote(const char *s, size_t n, size_t *used, char **out,
	    size_t *outlen, char *msg, size_t len);
/*
 * v as a value of type to (element type ato for arrays), refusing any
 * conversion that would lose information: a new value, or NULL with a
 * one-line reason in msg.
 */
struct gguf_value *value_convert(struct gguf_val *v, uint32_t to,
	    uint32_t ato, char *msg, size_t len);

/*
 * Parses a type name (u32, arr[str]) into *type, *atype; -1 with msg
 * naming it ("unknown type "u23" (did you mean "u32"?)") if it is none.
 */
int	value_parse_type(const char *s, size_t n, uint32_t *type,
	    uint32_t *atype, char *msg, size_t len);
/*
 * Standard input is someone else's (why says whose: the browser's
 * terminal, a script read from it): @- is refused from now on. NULL
 * gives it back.
 */
void	value_stdin_taken(const char *why);
/*
 * Reads a whole file (at most the size a value may have), "-" standard
 * input (once, as @- does): 0 with *out malloc'd, or -1 with msg.
 */
int	value_read_file(const char *path, char **out, size_t *outlen,
	    char *msg, size_t len);

/* A blank of the value syntax and the command line: space, tab, CR, LF. */
int	value_is_blank(int c);
/* Moves *pos past the blanks of s (n bytes) from *pos. */
void	value_skip_blanks(const char *s, size_t n, size_t *pos);

#endif /* CMD_VALUE_H */
