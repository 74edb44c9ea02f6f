// Tells ThreadSanitizer about a lock it cannot see. Swift's `Synchronization.Mutex` locks with
// futex calls inside the (uninstrumented) standard library on Linux, so TSan sees no ordering
// between two threads' critical sections and reports every Mutex-guarded access as a race.
// `Mutex.withCheckedLock` (StrataCore) marks the section's start and end with these; outside a
// ThreadSanitizer build they do nothing.
#ifndef STRATA_LOCK_ANNOTATIONS_H
#define STRATA_LOCK_ANNOTATIONS_H

/// The lock at `address` was just taken: everything done before its last release happens before
/// what follows.
void strata_lock_acquired(const void *address);

/// The lock at `address` is about to be given up.
void strata_lock_releasing(const void *address);

#endif
