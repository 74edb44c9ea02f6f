// The kernels with eight lanes in AVX2 registers (chosen at run time when the CPU has AVX2).
#define SUFFIX _avx2
#include "avx_kernels.h"
