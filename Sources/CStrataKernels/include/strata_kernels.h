// Inner loops of the compositor written in C, where Swift does not generate vector code for
// them (measured: the RGBA8 store took 40 instructions a pixel in Swift's SIMD types).
#ifndef STRATA_KERNELS_H
#define STRATA_KERNELS_H

#include <stdint.h>

/// Converts `count` premultiplied RGBA float pixels (0…1, 4 floats each) to RGBA8 words:
/// alpha clamped to 0…1, colour clamped to 0…alpha, each channel floor(255·v + ½).
void strata_store_rgba8(const float *src, uint32_t *dst, long count);

#endif
