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
#include "span_kernel.h"
#include "store_kernel.h"
#include "yuv_kernel.h"
#pragma clang attribute pop
