// Per-thread objects in POSIX thread-specific slots. Foundation's
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

/// An object of each thread's own, made by `make` on the thread's first read and released when
/// the thread exits (the slot's destructor): state such as the open transactions, which every
/// property change reads.
package final class PerThreadObject<Object: AnyObject>: Sendable {
    private let key: pthread_key_t
    private let make: @Sendable () -> Object

    package init(_ make: @escaping @Sendable () -> Object) {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { raw in
            if let raw { Unmanaged<AnyObject>.fromOpaque(raw).release() }
        }
        precondition(status == 0, "pthread_key_create failed (\(status)): the process is out of thread-specific keys")
        self.key = key
        self.make = make
    }

    /// This thread's object.
    package var current: Object {
        if let raw = pthread_getspecific(key) { return Unmanaged<Object>.fromOpaque(raw).takeUnretainedValue() }
        let object = make()
        pthread_setspecific(key, Unmanaged.passRetained(object as AnyObject).toOpaque())
        return object
    }
}
