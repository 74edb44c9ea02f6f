// A per-thread reference to an object, in a POSIX thread-specific slot. Foundation's
// `Thread.current.threadDictionary` costs a dictionary lookup with a bridged string key and a
// dynamic cast — about 1 500 instructions — and the scene clock is read on every property
// change and every presentation copy (measured: 1.4 % of the standard motion frame, on the
// serial path). A slot costs a `pthread_getspecific`.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One object reference per thread. The slot does not retain: `with(_:_:)` sets it for the
/// duration of a body, while the caller holds the object.
package final class ThreadLocalReference<Object: AnyObject>: Sendable {
    /// The slot (an integer, set once).
    private let key: pthread_key_t

    package init() {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "pthread_key_create failed (\(status)): the process is out of thread-specific keys")
        self.key = key
    }

    /// This thread's object, nil outside `with`.
    package var current: Object? {
        guard let raw = pthread_getspecific(key) else { return nil }
        return Unmanaged<Object>.fromOpaque(raw).takeUnretainedValue()
    }

    /// Runs `body` with `object` as this thread's object, then restores the one before.
    package func with<T>(_ object: Object, _ body: () throws -> T) rethrows -> T {
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, Unmanaged.passUnretained(object).toOpaque())
        defer { pthread_setspecific(key, previous) }
        return try withExtendedLifetime(object) { try body() }
    }
}
