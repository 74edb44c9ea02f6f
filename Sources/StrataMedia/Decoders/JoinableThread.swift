// A thread that can be waited for to its very end. Foundation's `Thread` has no join: after its
// block returns it still holds the block (and what the block captured) for a moment, so "the
// work is done" is not "everything the thread held is released". A released video source must
// have released its decoder (found by the media fuzz target: LeakSanitizer saw the decoder thread's
// objects still alive after the source was gone).
import Foundation

/// A POSIX thread running one closure, joined with `join()`.
final class JoinableThread: Sendable {
    /// The closure, boxed to cross into the C start routine.
    private final class Start: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    private let handle: pthread_t

    /// Starts `body` on a new thread of `stackSize` bytes. Traps only if the system cannot make a thread at all, as `Thread.start()` does.
    init(stackSize: Int, _ body: @escaping @Sendable () -> Void) {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, stackSize)
        let start = Unmanaged.passRetained(Start(body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, &attributes, { context in
            // Released before the thread ends: join() returns after this.
            let start = Unmanaged<Start>.fromOpaque(context!).takeRetainedValue()
            start.body()
            return nil
        }, start)
        precondition(status == 0, "cannot start a thread (pthread_create: \(status))")
        handle = thread
    }

    /// Waits until the thread has ended (call once).
    func join() { pthread_join(handle, nil) }
}
