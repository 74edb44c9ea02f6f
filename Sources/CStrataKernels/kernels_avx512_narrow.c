// The span kernels of eight lanes for AVX-512 CPUs (STRATA_LANES_AVX512_8): the AVX2 code
// compiled for AVX-512VL — 32 vector registers where AVX2 has 16, mask registers for the
// selects; the same IEEE operations, so the same bytes. Narrow items (particles) take them where
// sixteen lanes would be mostly masked off. (On AMD Zen 5 with 20 000 particles the AVX2 build's
// sprite step reloaded many spilled values from the stack; with twice the registers, fewer.)
#define SUFFIX _avx512n
#define STRATA_AVX512
#define STRATA_SPANS_ONLY
#include "avx_kernels.h"
