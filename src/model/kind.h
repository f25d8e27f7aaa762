/*
 * kind.h - what a GGUF file is: a model, a LoRA adapter, a control vector,
 * an importance matrix or a vision/audio projector, and each checked by
 * its own rules.
 *
 * A file is told by its keys: general.type "adapter" or tensors named
 * .lora_a and .lora_b (a LoRA or aLoRA adapter), general.type "imatrix" or the imatrix.* keys (an importance
 * matrix, as llama-imatrix writes it), general.architecture
 * "controlvector" (a control vector, as llama-cvector-generator writes it)
 * and general.architecture "clip" or general.type "mmproj" (a projector
 * for llama.cpp's multimodal library); anything else is a model. The model
 * checks (check.h, model.h) pass over the files that are not models; the
 * checks here say what llama.cpp's own loaders of each kind refuse:
 * llama_adapter_lora_init for an adapter (with its base model, the
 * architecture and every pair's base tensor and shapes), the control
 * vector loader of its common library (with a base model, its embedding
 * width and block count), the imatrix loader of llama-quantize and
 * clip.cpp's loader of a projector (the keys and tensors its projector
 * type requires, by the table of projectors.h; with a base model, the
 * projection width against the text model's embedding length).
 *
 * Nothing here prints.
 */
#ifndef GGUF_KIND_H
#define GGUF_KIND_H

#include <stddef.h>

#include "check.h"
#include "gguf.h"

enum gguf_kind {
	GGUF_KIND_MODEL,
	GGUF_KIND_ADAPTER,	/* general.type "adapter": LoRA, aLoRA */
	GGUF_KIND_CVEC,		/* a control vector */
	GGUF_KIND_IMATRIX,	/* an importance matrix */
	GGUF_KIND_MMPROJ	/* a vision or audio projector */
};

/* A key's value (n bytes of name), or NULL: a file's, or a document's. */
typedef struct gguf_val	*(*gguf_kind_get_fn)(void *arg, const char *key,
			    size_t n);

/*
 * The kind of the file whose keys get reads and whose first tensor is
 * named first (NULL: it has none): a file of .lora_a and .lora_b tensors
 * is an adapter whatever its general.type says.
 */
enum gguf_kind	gguf_kind_by(gguf_kind_get_fn get, void *arg,
		    const struct gguf_str *first);
enum gguf_kind	gguf_kind_of(struct gguf_file *f);

/* "model", "adapter", "control vector", "imatrix", "projector". */
const char	*gguf_kind_name(enum gguf_kind k);
/* "model", "lora", "control_vector", "imatrix", "mmproj": for JSON. */
const char	*gguf_kind_id(enum gguf_kind k);

/*
 * What the file is, in one line of printable ASCII ("LoRA adapter for
 * llama, rank 8, alpha 16, 7 pairs", "vision projector (gemma3)", ...),
 * into buf; NULL for a model (nothing to add to its summary).
 */
const char	*gguf_kind_describe(struct gguf_file *f, char *buf, size_t len);

/*
 * Checks f by the rules of its kind, and against base (the model it is
 * meant for; NULL: none given), calling fn for each finding (as
 * gguf_check_model does; file names the base when a finding's offset is
 * in it). A model gets no finding here. Returns the number of errors.
 */
unsigned	gguf_kind_check(struct gguf_file *f, struct gguf_file *base,
		    gguf_finding_fn fn, void *arg);

#endif /* GGUF_KIND_H */
