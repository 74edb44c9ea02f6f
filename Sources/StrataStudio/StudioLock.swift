// The studio's lock: a Mutex taken with `withCheckedLock` (visible to ThreadSanitizer, as every
// lock in Strata), guarding state kept beside it — the stored properties of the class that owns
// it, touched only inside `locked`.
import Strata
import StrataCore
import Synchronization

final class StudioLock: Sendable {
    private let mutex = Mutex<Void>(())

    /// Runs `body` with the lock held.
    func locked<R>(_ body: () -> R) -> R {
        var result: R?
        mutex.withCheckedLock { _ in result = body() }
        return result!
    }

    /// Runs `body` with the lock held; its error is thrown after the lock is released.
    func lockedThrowing<R>(_ body: () throws -> R) throws -> R {
        var outcome: Result<R, any Error>?
        mutex.withCheckedLock { _ in outcome = Result { try body() } }
        return try outcome!.get()
    }
}
