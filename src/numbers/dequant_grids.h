/*
 * dequant_grids.h - lookup tables of the i-quant types (dequant_grids.c),
 * private to the dequantizer.
 */
#ifndef GGUF_DEQUANT_GRIDS_H
#define GGUF_DEQUANT_GRIDS_H

#include <stdint.h>

extern const uint64_t	gguf_iq2xxs_grid[256];
extern const uint64_t	gguf_iq2xs_grid[512];
extern const uint64_t	gguf_iq2s_grid[1024];
extern const uint32_t	gguf_iq3xxs_grid[256];
extern const uint32_t	gguf_iq3s_grid[512];
extern const uint64_t	gguf_iq1s_grid[2048];
extern const int8_t	gguf_kvalues_iq4nl[16];
extern const int8_t	gguf_kvalues_mxfp4[16];

#endif /* GGUF_DEQUANT_GRIDS_H */
