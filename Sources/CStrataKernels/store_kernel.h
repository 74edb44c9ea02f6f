// The planar store: premultiplied float planes → RGBA8 words, LANES pixels a step, with the
// arithmetic of strata_store_rgba8 (alpha clamped to 0…1, colour to 0…alpha, NaN to 0, each
// channel floor(255·v + ½)). Included once per instantiation (see lanes.h).
#include "lanes.h"
#include "strata_kernels.h"

#ifndef STRATA_MAX0
/// max(v, 0), NaN to 0 (`!(v >= 0)`).
INLINE vf FN(max0)(vf v) { return SEL(v >= 0, v, (vf)0.0f); }
#define STRATA_MAX0 FN(max0)
#endif

/// v clamped to 0 … hi, NaN to 0.
INLINE vf FN(clampTo)(vf v, vf hi) {
    vf c = STRATA_MAX0(v);
    return SEL(c > hi, hi, c);
}

#ifdef STRATA_PACK_RGBA
/// A colour clamped to 0 … av (av: alpha, clamped) as FN(clampTo) would, for STRATA_PACK_RGBA's
/// saturating packs: only the upper bound is applied. Below it, a negative colour converts to a
/// negative integer and NaN to INT32_MIN (vcvttps2dq's "integer indefinite"), and the signed
/// saturation of the first pack makes both 0 — the byte that the lower clamp gives.
INLINE vf FN(colourTo)(vf v, vf av) { return SEL(av < v, av, v); }
#else
INLINE vf FN(colourTo)(vf v, vf av) { return FN(clampTo)(v, av); }
#endif

void FN(strata_store_planar)(const float *r, const float *g, const float *b, const float *a, uint32_t *dst, long count) {
    long i = 0;
#pragma clang loop unroll_count(2)
    for (; i + LANES <= count; i += LANES) {
        vf av = FN(clampTo)(FN(load)(a + i), (vf)1.0f);
        // Signed conversions (the values are 0.5…255.5): an unsigned one is a long sequence on AVX2.
        vu rr = (vu)__builtin_convertvector(FN(colourTo)(FN(load)(r + i), av) * 255.0f + 0.5f, vi);
        vu gg = (vu)__builtin_convertvector(FN(colourTo)(FN(load)(g + i), av) * 255.0f + 0.5f, vi);
        vu bb = (vu)__builtin_convertvector(FN(colourTo)(FN(load)(b + i), av) * 255.0f + 0.5f, vi);
        vu qq = (vu)__builtin_convertvector(av * 255.0f + 0.5f, vi);
#ifdef STRATA_PACK_RGBA
        vu word = STRATA_PACK_RGBA(rr, gg, bb, qq);
#else
        vu word = rr | gg << 8 | bb << 16 | qq << 24;
#endif
        memcpy(dst + i, &word, sizeof word);
    }
    for (; i < count; i++) {
        float av = a[i] >= 0 ? (a[i] > 1 ? 1 : a[i]) : 0;
        float rv = r[i] >= 0 ? (r[i] > av ? av : r[i]) : 0;
        float gv = g[i] >= 0 ? (g[i] > av ? av : g[i]) : 0;
        float bv = b[i] >= 0 ? (b[i] > av ? av : b[i]) : 0;
        dst[i] = (uint32_t)(int32_t)(rv * 255.0f + 0.5f) | (uint32_t)(int32_t)(gv * 255.0f + 0.5f) << 8
            | (uint32_t)(int32_t)(bv * 255.0f + 0.5f) << 16 | (uint32_t)(int32_t)(av * 255.0f + 0.5f) << 24;
    }
}
