// The span kernels with sixteen lanes in 512-bit registers, chosen at run time when the CPU has
// AVX-512 F, VL, BW and DQ. Steps still start on multiples of eight pixels (ALIGN, lanes.h), so a
// segment's first and last steps waste no more lanes than the eight-lane kernels' do, and a
// row's last step may reach eight floats past its stride (STRATA_SPAN_TAIL). Measured on AMD Zen
// 4, which splits a 512-bit operation in two: the same arithmetic in half the instructions, the
// motion frame 2–3 % faster than with these kernels in 256-bit registers. The store and YUV
// kernels of this instantiation keep eight lanes (kernels_avx512_store.c).
// No FMA: contraction would change the bits against the other instantiations.
#pragma STDC FP_CONTRACT OFF
#include <immintrin.h>
#pragma clang attribute push(__attribute__((target("avx2,avx512f,avx512vl,avx512bw,avx512dq"))), apply_to = function)
#define SUFFIX _avx512
#define LANES 16
#include "lanes.h"
static inline vu FN(gather512)(const uint32_t *base, vi idx) {
    return (vu)_mm512_i32gather_epi32((__m512i)idx, (const int *)base, 4);
}
#define STRATA_GATHER FN(gather512)
// The texels at idx and idx + 1 as one 64-bit load per lane (two gathers of eight pairs), split
// into the first and the second of each pair by two permutes: half the gathered elements of two
// 32-bit gathers, as the eight-lane kernels do it (avx_kernels.h).
static inline void FN(gatherPair512)(const uint32_t *base, vi idx, vu *a, vu *b) {
    const __m512i i = (__m512i)idx;
    const __m512i lo = _mm512_i32gather_epi64(_mm512_castsi512_si256(i), (const long long *)base, 4);
    const __m512i hi = _mm512_i32gather_epi64(_mm512_extracti64x4_epi64(i, 1), (const long long *)base, 4);
    const __m512i firsts = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    const __m512i seconds = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
    *a = (vu)_mm512_permutex2var_epi32(lo, firsts, hi);
    *b = (vu)_mm512_permutex2var_epi32(lo, seconds, hi);
}
#define STRATA_GATHER_PAIR FN(gatherPair512)
#include "span_kernel.h"
#pragma clang attribute pop
