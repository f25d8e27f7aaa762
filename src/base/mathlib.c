/*
 * mathlib.c - libm's functions found at the first call (see mathlib.h).
 */
#include "config.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "mathlib.h"

#define LIBM	"libm.so.6"

static struct {
	double	(*pow)(double, double);
	double	(*fmod)(double, double);
	double	(*log10)(double);
	double	(*log1p)(double);
} m;

static pthread_once_t	once = PTHREAD_ONCE_INIT;

static void
load(void)
{
	const char	*e;
	void		*lib;

	if ((lib = dlopen(LIBM, RTLD_NOW | RTLD_LOCAL)) == NULL) {
		e = dlerror();
		fprintf(stderr, "ggufed: cannot load the math library (%s): "
		    "%s\n", LIBM, e != NULL ? e : "not found");
		exit(1);
	}
#define X(n)								\
	if ((m.n = (__typeof__(m.n))dlsym(lib, #n)) == NULL) {	\
		fprintf(stderr, "ggufed: the math library (%s) has no "	\
		    "%s\n", LIBM, #n);					\
		exit(1);						\
	}
	X(pow)
	X(fmod)
	X(log10)
	X(log1p)
#undef X
}

double
gguf_pow(double x, double y)
{
	pthread_once(&once, load);
	return m.pow(x, y);
}

double
gguf_fmod(double x, double y)
{
	pthread_once(&once, load);
	return m.fmod(x, y);
}

double
gguf_log10(double x)
{
	pthread_once(&once, load);
	return m.log10(x);
}

double
gguf_log1p(double x)
{
	pthread_once(&once, load);
	return m.log1p(x);
}
