// See allocation_counter.h. glibc exports __libc_malloc and friends, the allocator behind its
// public names, so the counters below forward without dlsym.
#include <stddef.h>
#include <errno.h>
#include "allocation_counter.h"

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

static unsigned long count;

unsigned long strata_allocation_count(void) { return __atomic_load_n(&count, __ATOMIC_RELAXED); }

static inline void counted(void) { __atomic_fetch_add(&count, 1, __ATOMIC_RELAXED); }

void *malloc(size_t n) { counted(); return __libc_malloc(n); }
void *calloc(size_t n, size_t s) { counted(); return __libc_calloc(n, s); }
void *realloc(void *p, size_t n) { if (!p) counted(); return __libc_realloc(p, n); }
void free(void *p) { __libc_free(p); }
void *memalign(size_t a, size_t n) { counted(); return __libc_memalign(a, n); }
void *aligned_alloc(size_t a, size_t n) { counted(); return __libc_memalign(a, n); }
int posix_memalign(void **out, size_t a, size_t n) {
    counted();
    void *p = __libc_memalign(a, n);
    if (!p && n) return ENOMEM;
    *out = p;
    return 0;
}
