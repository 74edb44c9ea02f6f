// The one way Strata takes a `Mutex`: `withCheckedLock`, which is `withLock` plus two calls that
// tell ThreadSanitizer where the critical section starts and ends (CLockAnnotations; no-ops in
// normal builds). On Linux the standard library's Mutex blocks in futex calls TSan cannot see, so
// without them `scripts/sanitize.sh thread` reports every Mutex-guarded access as a race — real
// races elsewhere then drown in the noise. ConcurrencyAuditTests keeps plain `withLock` out.
import Synchronization
import CLockAnnotations

extension Mutex where Value: ~Copyable {
    /// Runs `body` with the lock held and the value to read and change, as `withLock`.
    package borrowing func withCheckedLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        // The mutex's own address names the lock (taking the value's address inside the section
        // would itself be an access TSan sees before the acquire).
        let address = withUnsafePointer(to: self) { UnsafeRawPointer($0) }
        return try withLock { (value: inout sending Value) throws(E) -> sending Result in
            strata_lock_acquired(address)
            defer { strata_lock_releasing(address) }
            return try body(&value)
        }
    }
}
