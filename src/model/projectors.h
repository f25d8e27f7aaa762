/*
 * projectors.h - what llama.cpp's projector loader (clip.cpp of its
 * multimodal library) requires of a vision or audio projector, per
 * projector type: the keys its load_hparams reads without a default and
 * the tensors its load_tensors loads as required. Tensors it loads only
 * when present (and keys it reads with a default) are listed apart, so
 * that they are never required.
 *
 * The table is data alone (no GGUF reader here), so the tests' generator
 * of projectors links it too. Names are patterns, separated by blanks:
 *
 *	{m}	the modality's word in key names: vision or audio
 *	{p}	the modality's prefix of tensor names: v or a
 *	{bid}	each block il = 0 .. clip.{m}.block_count - 1
 *	{sam}	each of the 12 blocks of a SAM encoder (deepseekocr's)
 *
 * and a key's pattern ends with its type: ":u32", ":f32" (the type
 * llama.cpp's reader asserts), ":arr" (an array) or ":arr3" (an array
 * of f32 of which the loader reads the first 3 unchecked: the image's
 * mean and standard deviation per channel).
 */
#ifndef GGUF_PROJECTORS_H
#define GGUF_PROJECTORS_H

#include <stddef.h>

#define GGUF_PROJ_VISION	1
#define GGUF_PROJ_AUDIO		2

/* The blocks of a SAM encoder, which llama.cpp does not read from a key. */
#define GGUF_PROJ_SAM_BLOCKS	12

struct gguf_projector {
	const char	*type;		/* clip.projector_type's value */
	unsigned	 modality;	/* GGUF_PROJ_*, or-ed: those it is for */
	const char	*keys;		/* required keys, besides the base's */
	const char	*tensors;	/* required tensors */
	const char	*optional;	/* tensors loaded when present */
	const char	*refused;	/* non-NULL: why llama.cpp loads none */
	const char	*vision_as;	/* an alias: the type loaded instead */
	const char	*audio_as;
};

/* The rows: every projector type clip.cpp knows, in its order. */
extern const struct gguf_projector	gguf_projectors[];
extern const size_t			gguf_projectors_n;

/*
 * The keys and tensors every projector of a modality needs, whatever its
 * type (the vision or audio tower's hyperparameters).
 */
const char	*gguf_projector_base_keys(unsigned modality);
const char	*gguf_projector_base_optional(void);

/* The row of type (n bytes), or NULL. */
const struct gguf_projector *gguf_projector_find(const char *type,
		    size_t n);

#endif /* GGUF_PROJECTORS_H */
