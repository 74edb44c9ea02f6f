#ifndef STRATA_CGIF_SHIM_H
#define STRATA_CGIF_SHIM_H
#include <gif_lib.h>
#endif
