// The kernels with eight lanes in AVX2 registers (chosen at run time when the CPU has AVX2).
// No FMA: contraction would change the bits against the other instantiations.
#pragma STDC FP_CONTRACT OFF
#include <immintrin.h>
#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#define LANES 8
#define SUFFIX _avx2
#include "lanes.h"
static inline vu gather_avx2(const uint32_t *base, vi idx) {
    return (vu)_mm256_i32gather_epi32((const int *)base, (__m256i)idx, 4);
}
#define STRATA_GATHER gather_avx2
// max(v, 0) with NaN to 0: maxps returns its second operand when either is NaN. (It gives +0
// for −0 where the select gives −0; both store as byte 0.)
static inline vf max0_avx2(vf v) { return (vf)_mm256_max_ps((__m256)v, _mm256_setzero_ps()); }
#define STRATA_MAX0 max0_avx2
#include "span_kernel.h"
#include "store_kernel.h"
#include "yuv_kernel.h"
#pragma clang attribute pop
