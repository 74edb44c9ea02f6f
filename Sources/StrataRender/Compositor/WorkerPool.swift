// The threads ConcurrentDispatcher runs a stage's jobs on: helpers started once and kept asleep
// between stages. `DispatchQueue.concurrentPerform` costs about two heap allocations a call (its
// block copy and continuations: a pipelined motion frame, two stages, made 34 in Strata's
// stages with it and 32 with this pool when jobs were closures, handed to the helpers through
// `withoutActuallyEscaping`, whose wrapper is an allocation). A stage here costs none: the
// helpers call the caller's jobs (StageJobs) at their address on its stack. The caller takes
// part in the work, as with concurrentPerform, so `workers` threads share a stage: the caller
// and `workers - 1` helpers.
//
// One stage at a time. A second caller (another renderer on another thread, or a job that itself
// dispatches) finds the pool busy and is told so (`run` returns false); ConcurrentDispatcher then
// falls back to concurrentPerform. Nothing waits on the pool, so nested stages cannot deadlock.
//
// Helpers block in `pthread_cond_wait`, which ThreadSanitizer understands: every job's writes
// reach the caller through the mutex the helper takes when it reports done.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization

// @unchecked: every stored var is read and written with `mutex` held (`next` and `busy` are
// atomics). The jobs' address points into the caller's stack: it is set before a stage's helpers
// are woken and cleared only after the last helper inside the stage reported done, and the
// caller's `withUnsafePointer` does not return before that.
final class WorkerPool: @unchecked Sendable {
    /// The process's pool (helpers are started as stages ask for them).
    static let shared = WorkerPool()

    /// The most helpers a pool starts; a stage asking for more runs on these.
    static let maxHelpers = 63

    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// Signalled when a stage starts (helpers wait on it).
    private let started: UnsafeMutablePointer<pthread_cond_t>
    /// Signalled when the last helper of a stage is done (the caller waits on it).
    private let ended: UnsafeMutablePointer<pthread_cond_t>
    /// Whether a stage is running; taken without the mutex, so a second caller is turned away at
    /// once.
    private let busy = Atomic<Bool>(false)
    /// The next job index of the running stage.
    private let next = Atomic<Int>(0)

    private var helpers = 0
    /// Counts the stages started; a helper compares it with the last one it saw.
    private var stage = 0
    /// The running stage's jobs (their address on the caller's stack and their type) and how many
    /// there are.
    private var jobs: (address: UnsafeRawPointer, kind: any StageJobs.Type)?
    private var count = 0
    /// Helpers the running stage still takes in (0 once its caller ran out of jobs).
    private var openSeats = 0
    /// Helpers inside the running stage's job loop.
    private var working = 0

    private init() {
        mutex = .allocate(capacity: 1)
        started = .allocate(capacity: 1)
        ended = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(started, nil)
        pthread_cond_init(ended, nil)
    }

    /// Runs jobs 0 ..< `count` of `jobs` on this thread and up to `workers - 1` helpers, and
    /// returns true when all are done. Returns false at once (running nothing) when another stage
    /// is running.
    func run<Jobs: StageJobs>(workers: Int, count: Int, _ jobs: Jobs) -> Bool {
        guard busy.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else { return false }
        defer { busy.store(false, ordering: .releasing) }
        let seats = min(workers - 1, Self.maxHelpers)
        withUnsafePointer(to: jobs) { address in
            pthread_mutex_lock(mutex)
            while helpers < seats { startHelper() }
            self.jobs = (UnsafeRawPointer(address), Jobs.self)
            self.count = count
            next.store(0, ordering: .relaxed)
            openSeats = seats
            stage &+= 1
            pthread_cond_broadcast(started)
            pthread_mutex_unlock(mutex)

            takeJobs(count) { jobs.run($0) }

            pthread_mutex_lock(mutex)
            // A helper waking from now on finds no job left: it need not join.
            openSeats = 0
            // The jobs' address is valid until this returns: wait for the helpers inside.
            while working > 0 { pthread_cond_wait(ended, mutex) }
            self.jobs = nil
            pthread_mutex_unlock(mutex)
        }
        return true
    }

    private func takeJobs(_ count: Int, _ job: (Int) -> Void) {
        while true {
            let i = next.add(1, ordering: .relaxed).oldValue
            if i >= count { return }
            job(i)
        }
    }

    /// Called with the mutex held.
    private func startHelper() {
        helpers += 1
        // The stage about to start is one the new helper has not seen.
        let seen = stage
        let thread = Thread { [unowned self] in helperLoop(seen: seen) }
        // The tile jobs' stack needs are those of libdispatch's workers, which get 8 MiB.
        thread.stackSize = 8 << 20
        thread.name = "strata.worker.\(helpers)"
        thread.start()
    }

    private func helperLoop(seen: Int) {
        pthread_mutex_lock(mutex)
        var seen = seen
        while true {
            while stage == seen { pthread_cond_wait(started, mutex) }
            seen = stage
            if openSeats > 0 { takePart() }
        }
    }

    /// Takes jobs of the running stage; called and returns with the mutex held.
    private func takePart() {
        openSeats -= 1
        working += 1
        let (address, kind) = jobs!
        let count = self.count
        pthread_mutex_unlock(mutex)
        takeJobs(count) { kind.run(at: address, $0) }
        pthread_mutex_lock(mutex)
        working -= 1
        if working == 0 { pthread_cond_signal(ended) }
    }
}
