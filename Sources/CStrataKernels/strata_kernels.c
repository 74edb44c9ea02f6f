// See strata_kernels.h: the RGBA8 store of interleaved pixels, and the choice of instantiation.
// Compiled without floating-point contraction so that 255·v + ½ is a multiply and an add, as
// everywhere else in the renderer.
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

strata_lanes strata_best_lanes(void) {
#if defined(__x86_64__) || defined(__i386__)
    // Asked each time (once a frame): the flags are filled in when the program starts, so reading
    // them is cheap and safe from any thread — a lazily set static was a data race between two
    // renderers starting at once (ThreadSanitizer, two batch jobs).
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512dq"))
        return STRATA_LANES_AVX512;
    return __builtin_cpu_supports("avx2") ? STRATA_LANES_AVX2 : STRATA_LANES_SSE2;
#else
    return STRATA_LANES_SSE2;
#endif
}

#define DECLARE(suffix) \
    void strata_draw_span##suffix(const strata_item *, float *, long, long, int, int, int, int, int, \
                                  strata_span_mode, const float *); \
    void strata_draw_rows##suffix(const strata_item *, float *, long, long, int, int, const strata_rows *, const int32_t *, int); \
    void strata_draw_rows_bordered##suffix(const strata_item *, const strata_item *, float *, long, long, int, int, \
                                           const strata_rows *, const int32_t *, int, const strata_rows *, const int32_t *, int); \
    void strata_draw_strips##suffix(const strata_item *, float *, long, long, int, int, const strata_strip *, const float *, \
                                    const int32_t *, int32_t, int32_t, int32_t, int, int, int, int, float *); \
    void strata_draw_glyphs##suffix(const strata_item *, float *, long, long, int, int, const strata_glyph *, long, \
                                    int, int, int, int, float *); \
    void strata_store_planar##suffix(const float *, const float *, const float *, const float *, uint32_t *, long); \
    void strata_rgba_to_yuv420##suffix(const uint32_t *, long, int, int, uint8_t *, long, uint8_t *, uint8_t *, long);
DECLARE(_scalar)
DECLARE(_sse2)
#if defined(__x86_64__) || defined(__i386__)
DECLARE(_avx2)
DECLARE(_avx512)
void strata_draw_span_avx512n(const strata_item *, float *, long, long, int, int, int, int, int, strata_span_mode, const float *);
void strata_draw_rows_avx512n(const strata_item *, float *, long, long, int, int, const strata_rows *, const int32_t *, int);
#endif

void strata_draw_span(const strata_item *item, float *tile, long stride, long plane, int tileX, int tileY,
                      int y, int x0, int x1, strata_span_mode mode, const float *mask, strata_lanes lanes) {
    switch (lanes) {
    case STRATA_LANES_SCALAR:
        strata_draw_span_scalar(item, tile, stride, plane, tileX, tileY, y, x0, x1, mode, mask);
        return;
#if defined(__x86_64__) || defined(__i386__)
    case STRATA_LANES_AVX2:
        strata_draw_span_avx2(item, tile, stride, plane, tileX, tileY, y, x0, x1, mode, mask);
        return;
    case STRATA_LANES_AVX512:
        strata_draw_span_avx512(item, tile, stride, plane, tileX, tileY, y, x0, x1, mode, mask);
        return;
    case STRATA_LANES_AVX512_8:
        strata_draw_span_avx512n(item, tile, stride, plane, tileX, tileY, y, x0, x1, mode, mask);
        return;
#endif
    default:
        strata_draw_span_sse2(item, tile, stride, plane, tileX, tileY, y, x0, x1, mode, mask);
        return;
    }
}

void strata_draw_rows(const strata_item *item, float *tile, long stride, long plane, int tileX, int tileY,
                      const strata_rows *rows, const int32_t *spans, int spansY0, strata_lanes lanes) {
    switch (lanes) {
    case STRATA_LANES_SCALAR: strata_draw_rows_scalar(item, tile, stride, plane, tileX, tileY, rows, spans, spansY0); return;
#if defined(__x86_64__) || defined(__i386__)
    case STRATA_LANES_AVX2: strata_draw_rows_avx2(item, tile, stride, plane, tileX, tileY, rows, spans, spansY0); return;
    case STRATA_LANES_AVX512: strata_draw_rows_avx512(item, tile, stride, plane, tileX, tileY, rows, spans, spansY0); return;
    case STRATA_LANES_AVX512_8: strata_draw_rows_avx512n(item, tile, stride, plane, tileX, tileY, rows, spans, spansY0); return;
#endif
    default: strata_draw_rows_sse2(item, tile, stride, plane, tileX, tileY, rows, spans, spansY0); return;
    }
}

void strata_draw_rows_bordered(const strata_item *fill, const strata_item *border, float *tile, long stride, long plane,
                               int tileX, int tileY, const strata_rows *fillRows, const int32_t *fillSpans, int fillSpansY0,
                               const strata_rows *borderRows, const int32_t *borderSpans, int borderSpansY0,
                               strata_lanes lanes) {
#define ARGS fill, border, tile, stride, plane, tileX, tileY, fillRows, fillSpans, fillSpansY0, borderRows, borderSpans, borderSpansY0
    switch (lanes) {
    case STRATA_LANES_SCALAR: strata_draw_rows_bordered_scalar(ARGS); return;
#if defined(__x86_64__) || defined(__i386__)
    case STRATA_LANES_AVX2: strata_draw_rows_bordered_avx2(ARGS); return;
    case STRATA_LANES_AVX512:
    case STRATA_LANES_AVX512_8: strata_draw_rows_bordered_avx512(ARGS); return;
#endif
    default: strata_draw_rows_bordered_sse2(ARGS); return;
    }
#undef ARGS
}

void strata_draw_strips(const strata_item *item, float *tile, long stride, long plane, int tileX, int tileY,
                        const strata_strip *strips, const float *alpha, const int32_t *rowTable, int32_t covX, int32_t covY,
                        int32_t rows, int x0, int y0, int x1, int y1, float *scratch, strata_lanes lanes) {
#define ARGS item, tile, stride, plane, tileX, tileY, strips, alpha, rowTable, covX, covY, rows, x0, y0, x1, y1, scratch
    switch (lanes) {
    case STRATA_LANES_SCALAR: strata_draw_strips_scalar(ARGS); return;
#if defined(__x86_64__) || defined(__i386__)
    case STRATA_LANES_AVX2: strata_draw_strips_avx2(ARGS); return;
    case STRATA_LANES_AVX512:
    case STRATA_LANES_AVX512_8: strata_draw_strips_avx512(ARGS); return;
#endif
    default: strata_draw_strips_sse2(ARGS); return;
    }
#undef ARGS
}

void strata_draw_glyphs(const strata_item *item, float *tile, long stride, long plane, int tileX, int tileY,
                        const strata_glyph *glyphs, long count, int x0, int y0, int x1, int y1, float *scratch,
                        strata_lanes lanes) {
#define ARGS item, tile, stride, plane, tileX, tileY, glyphs, count, x0, y0, x1, y1, scratch
    switch (lanes) {
    case STRATA_LANES_SCALAR: strata_draw_glyphs_scalar(ARGS); return;
#if defined(__x86_64__) || defined(__i386__)
    case STRATA_LANES_AVX2: strata_draw_glyphs_avx2(ARGS); return;
    case STRATA_LANES_AVX512:
    case STRATA_LANES_AVX512_8: strata_draw_glyphs_avx512(ARGS); return;
#endif
    default: strata_draw_glyphs_sse2(ARGS); return;
    }
#undef ARGS
}

typedef void (*planar_store)(const float *, const float *, const float *, const float *, uint32_t *, long);

/// The planar store of an instantiation.
static planar_store planar_store_for(strata_lanes lanes) {
    switch (lanes) {
    case STRATA_LANES_SCALAR: return strata_store_planar_scalar;
#if defined(__x86_64__) || defined(__i386__)
    case STRATA_LANES_AVX2: return strata_store_planar_avx2;
    case STRATA_LANES_AVX512:
    case STRATA_LANES_AVX512_8: return strata_store_planar_avx512;
#endif
    default: return strata_store_planar_sse2;
    }
}

void strata_store_planar_rgba8(const float *r, const float *g, const float *b, const float *a, uint32_t *dst,
                               long count, strata_lanes lanes) {
    planar_store_for(lanes)(r, g, b, a, dst, count);
}

void strata_store_planar_tile(const float *planes, long stride, long plane, long width, long height, uint32_t *dst,
                              long dstStride, strata_lanes lanes) {
    const planar_store store = planar_store_for(lanes);
    for (long y = 0; y < height; y++) {
        const float *row = planes + y * stride;
        store(row, row + plane, row + 2 * plane, row + 3 * plane, dst + y * dstStride, width);
    }
}

void strata_rgba_to_yuv420(const uint32_t *rgba, long stride, int width, int height, uint8_t *y, long yStride,
                           uint8_t *u, uint8_t *v, long cStride, strata_lanes lanes) {
#define ARGS rgba, stride, width, height, y, yStride, u, v, cStride
    switch (lanes) {
    case STRATA_LANES_SCALAR: strata_rgba_to_yuv420_scalar(ARGS); return;
#if defined(__x86_64__) || defined(__i386__)
    case STRATA_LANES_AVX2: strata_rgba_to_yuv420_avx2(ARGS); return;
    case STRATA_LANES_AVX512:
    case STRATA_LANES_AVX512_8: strata_rgba_to_yuv420_avx512(ARGS); return;
#endif
    default: strata_rgba_to_yuv420_sse2(ARGS); return;
    }
#undef ARGS
}
