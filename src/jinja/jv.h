/*
 * jv.h - values of the template language, with Python's semantics.
 *
 * A jv is reference counted: every constructor returns a new reference,
 * jv_unref drops one, and the functions documented as "takes v" consume
 * the reference they are given. Strings are UTF-8 bytes (lengths and
 * indices seen by templates count code points). Dictionaries keep their
 * insertion order, as Python's do.
 */
#ifndef JINJA_JV_H
#define JINJA_JV_H

#include <stddef.h>

typedef struct jv jv;

enum jv_kind {
	JV_UNDEFINED, JV_NONE, JV_BOOL, JV_INT, JV_FLOAT, JV_STR, JV_LIST,
	JV_DICT, JV_CALLABLE
};

jv	*jv_none(void);
jv	*jv_bool(int b);
jv	*jv_int(long long i);
jv	*jv_float(double d);
jv	*jv_str(const char *s, size_t n);
jv	*jv_cstr(const char *s);
jv	*jv_list(void);
void	 jv_list_push(jv *list, jv *v);		/* takes v's reference */
jv	*jv_dict(void);
void	 jv_dict_set(jv *d, const char *k, jv *v); /* insertion-ordered; takes v */
jv	*jv_ref(jv *v);
void	 jv_unref(jv *v);
enum jv_kind jv_kind(const jv *v);

/*
 * JSON text -> value (objects keep key order; integers stay integers,
 * numbers with a fraction or exponent become floats). NULL on error, with
 * "line L, column C: what" in err.
 */
jv	*jv_parse_json(const char *s, size_t n, char *err, size_t errsz);

/* Readers. */
jv	*jv_undefined(void);
int	 jv_bool_value(const jv *v);
long long jv_int_value(const jv *v);
double	 jv_float_value(const jv *v);
const char *jv_str_ptr(const jv *v);		/* NUL-terminated */
size_t	 jv_str_len(const jv *v);		/* bytes */
size_t	 jv_len(const jv *v);			/* list items, dict entries */
jv	*jv_list_get(const jv *list, size_t i);	/* borrowed */
jv	*jv_dict_get(const jv *d, const char *k); /* borrowed; NULL: absent */
jv	*jv_dict_key(const jv *d, size_t i);	/* borrowed, in order */
jv	*jv_dict_value(const jv *d, size_t i);	/* borrowed, in order */

#endif /* JINJA_JV_H */
