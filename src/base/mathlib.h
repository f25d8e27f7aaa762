/*
 * mathlib.h - the C library's mathematics, loaded at their first call.
 *
 * ggufed needs four functions of libm, and none of them to open a file:
 * the templates' ** and % and round filter (Python's results, which are
 * the C library's), and the preview's scales. Linked, libm is loaded,
 * relocated and searched at every start of every command; loaded at the
 * first call it costs nothing until then. What needs no library (sqrt,
 * floor, fabs, isnan: instructions) is the compiler's.
 *
 * If the library cannot be loaded (not a glibc system), the first call
 * says so on standard error and ends the process: there is no answer to
 * give in its place.
 */
#ifndef GGUF_MATHLIB_H
#define GGUF_MATHLIB_H

double	gguf_pow(double x, double y);
double	gguf_fmod(double x, double y);
double	gguf_log10(double x);
double	gguf_log1p(double x);

#endif /* GGUF_MATHLIB_H */
