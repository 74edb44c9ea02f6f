// See strata_lock_annotations.h. The sanitizer's own entry points (compiler-rt's
// tsan_interface.h) are declared here rather than included: the header is not installed with
// every toolchain.
#include "strata_lock_annotations.h"

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define STRATA_THREAD_SANITIZER 1
#endif
#endif

#ifdef STRATA_THREAD_SANITIZER
void __tsan_acquire(void *address);
void __tsan_release(void *address);

void strata_lock_acquired(const void *address) { __tsan_acquire((void *)address); }
void strata_lock_releasing(const void *address) { __tsan_release((void *)address); }
#else
void strata_lock_acquired(const void *address) { (void)address; }
void strata_lock_releasing(const void *address) { (void)address; }
#endif
