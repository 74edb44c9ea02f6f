// See strata_kernels.h. Compiled without floating-point contraction so that 255·v + ½ is a
// multiply and an add, as everywhere else in the renderer.
#pragma STDC FP_CONTRACT OFF
#include "strata_kernels.h"

static inline float clamp(float v, float hi) {
    // `!(v >= 0)` also sends NaN to 0.
    if (!(v >= 0.0f)) return 0.0f;
    return v > hi ? hi : v;
}

void strata_store_rgba8(const float *src, uint32_t *dst, long count) {
    for (long i = 0; i < count; i++) {
        const float *p = src + 4 * i;
        float a = clamp(p[3], 1.0f);
        // The values are ≥ ½, so truncation is floor.
        uint32_t r = (uint32_t)(int32_t)(clamp(p[0], a) * 255.0f + 0.5f);
        uint32_t g = (uint32_t)(int32_t)(clamp(p[1], a) * 255.0f + 0.5f);
        uint32_t b = (uint32_t)(int32_t)(clamp(p[2], a) * 255.0f + 0.5f);
        uint32_t q = (uint32_t)(int32_t)(a * 255.0f + 0.5f);
        dst[i] = r | g << 8 | b << 16 | q << 24;
    }
}
