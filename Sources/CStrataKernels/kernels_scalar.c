// The kernels with one lane: the scalar path the vector ones must match byte for byte.
#pragma STDC FP_CONTRACT OFF
#define LANES 1
#define SUFFIX _scalar
#include "span_kernel.h"
#include "store_kernel.h"
#include "yuv_kernel.h"
