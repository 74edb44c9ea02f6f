// The kernels with eight lanes on any x86-64 (two SSE2 registers a vector) or other CPU.
#pragma STDC FP_CONTRACT OFF
#define LANES 8
#define SUFFIX _sse2
#include "span_kernel.h"
#include "store_kernel.h"
#include "yuv_kernel.h"
