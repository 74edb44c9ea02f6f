// Counts heap allocations in the benchmark process: malloc and its relatives are interposed by
// the executable (its definitions win over libc's for every library, the Swift runtime
// included) and forwarded to glibc's own entry points.
#ifndef ALLOCATION_COUNTER_H
#define ALLOCATION_COUNTER_H

/// Allocations (malloc, calloc, realloc to a new block, aligned allocations) made so far.
unsigned long strata_allocation_count(void);

#endif
