// The AVX2 kernels compiled for AVX-512VL (chosen at run time when the CPU has AVX-512 F, VL,
// BW and DQ): the same eight lanes, with 32 vector registers and mask registers.
#define SUFFIX _avx512
#define STRATA_AVX512
#include "avx_kernels.h"
