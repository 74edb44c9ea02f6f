// The eight-lane kernels in 256-bit registers, included by kernels_avx2.c (AVX2) and
// kernels_avx512_store.c (the same code for CPUs with AVX-512VL, which gives 256-bit operations
// 32 registers instead of 16 and mask registers for the selects: fewer spills and blends, the
// same IEEE operations and so the same bytes). The includer defines SUFFIX, STRATA_AVX512 for the
// second, STRATA_NO_SPANS to leave the span kernels out (kernels_avx512_store.c: the AVX-512 ones
// have sixteen lanes) and STRATA_SPANS_ONLY to leave the others out (kernels_avx512_narrow.c).
// No FMA: contraction would change the bits against the other instantiations.
#pragma STDC FP_CONTRACT OFF
#include <immintrin.h>
#ifdef STRATA_AVX512
#pragma clang attribute push(__attribute__((target("avx2,avx512f,avx512vl,avx512bw,avx512dq"))), apply_to = function)
#else
#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#endif
#define LANES 8
#include "lanes.h"
static inline vu FN(gather256)(const uint32_t *base, vi idx) {
    return (vu)_mm256_i32gather_epi32((const int *)base, (__m256i)idx, 4);
}
#define STRATA_GATHER FN(gather256)
// The texels at idx and idx + 1 as one 64-bit load per lane: two gathers of four pairs, in the
// lane order 0 1 4 5 and 2 3 6 7 so that one shuffle within 128-bit halves splits the pairs
// into lanes 0…7 of each. Half the gathered elements of two 32-bit gathers: measured on AMD Zen 4,
// the gather instructions themselves (not cache misses) were a fifth of the composite frame.
static inline void FN(gatherPair256)(const uint32_t *base, vi idx, vu *a, vu *b) {
    const __m256i order = _mm256_setr_epi32(0, 1, 4, 5, 2, 3, 6, 7);
    const __m256i p = _mm256_permutevar8x32_epi32((__m256i)idx, order);
    const __m256 lo = _mm256_castsi256_ps(_mm256_i32gather_epi64((const long long *)base, _mm256_castsi256_si128(p), 4));
    const __m256 hi = _mm256_castsi256_ps(_mm256_i32gather_epi64((const long long *)base, _mm256_extracti128_si256(p, 1), 4));
    *a = (vu)_mm256_castps_si256(_mm256_shuffle_ps(lo, hi, 0x88));
    *b = (vu)_mm256_castps_si256(_mm256_shuffle_ps(lo, hi, 0xdd));
}
#define STRATA_GATHER_PAIR FN(gatherPair256)
// max(v, 0) with NaN to 0: maxps returns its second operand when either is NaN. (It gives +0
// for −0 where the select gives −0; both store as byte 0.)
static inline vf FN(max0_256)(vf v) { return (vf)_mm256_max_ps((__m256)v, _mm256_setzero_ps()); }
#define STRATA_MAX0 FN(max0_256)
#ifndef STRATA_NO_SPANS
#include "span_kernel.h"
#endif
#ifndef STRATA_SPANS_ONLY
// Four channels of eight pixels (0…255 in 32-bit lanes) as eight RGBA8 words: two packs to 16
// bits, one to 8 (each 128-bit half then holds its four pixels' R, G, B and A runs) and a byte
// shuffle that interleaves them — four instructions where shifts and ors took six.
static inline vu FN(packRGBA256)(vu r, vu g, vu b, vu a) {
    const __m256i rg = _mm256_packus_epi32((__m256i)r, (__m256i)g), ba = _mm256_packus_epi32((__m256i)b, (__m256i)a);
    const __m256i order = _mm256_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15,
                                           0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
    return (vu)_mm256_shuffle_epi8(_mm256_packus_epi16(rg, ba), order);
}
#define STRATA_PACK_RGBA FN(packRGBA256)
#include "store_kernel.h"
#include "yuv_kernel.h"
#endif
#pragma clang attribute pop
