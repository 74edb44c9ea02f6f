// The planar store and the YUV conversion for AVX-512 CPUs: the eight-lane AVX2 code compiled for
// AVX-512VL (32 vector registers, mask registers for the selects). These loops are bound by
// memory, and the YUV kernel's shuffles are written for eight lanes; the span kernels of the same
// CPUs take sixteen (kernels_avx512.c).
#define SUFFIX _avx512
#define STRATA_AVX512
#define STRATA_NO_SPANS
#include "avx_kernels.h"
