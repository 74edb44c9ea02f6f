// The seam between a frame's stages and the threads that run them. A stage hands over `count`
// independent jobs (one per tile, one per shape to rasterise) that write disjoint outputs, so the
// serial and the concurrent dispatcher give the same bytes; which thread ran which job never
// shows in a frame.
//
// A stage's jobs are a value (StageJobs), not a closure: the worker pool's helpers reach them by
// their address on the caller's stack, which costs no allocation, where handing a non-escaping
// closure to other threads costs one a stage (`withoutActuallyEscaping`'s wrapper).
import Foundation
import Synchronization

/// The jobs of one stage: `run(job)` for each job of `0 ..< count`, on any thread, in any order,
/// each writing only its own outputs.
protocol StageJobs: Sendable {
    func run(_ job: Int)
}

extension StageJobs {
    /// Runs job `job` of the jobs at `address` (how the worker pool's helpers call them).
    static func run(at address: UnsafeRawPointer, _ job: Int) {
        address.assumingMemoryBound(to: Self.self).pointee.run(job)
    }
}

/// Jobs given as a closure (a closure that captures its surroundings is a heap allocation: for
/// tests, not a frame's stages).
struct ClosureJobs: StageJobs {
    let body: @Sendable (Int) -> Void
    func run(_ job: Int) { body(job) }
}

/// Runs numbered independent jobs and returns when all are done.
protocol Dispatcher: Sendable {
    func run<Jobs: StageJobs>(_ count: Int, _ jobs: Jobs)
}

/// Every job on the calling thread, in order.
struct SerialDispatcher: Dispatcher {
    func run<Jobs: StageJobs>(_ count: Int, _ jobs: Jobs) {
        for i in 0..<count { jobs.run(i) }
    }
}

/// `workers` threads (the caller's among them) taking jobs from a shared counter: the worker
/// pool's helpers, or libdispatch's threads while the pool runs another stage.
struct ConcurrentDispatcher: Dispatcher {
    let workers: Int

    func run<Jobs: StageJobs>(_ count: Int, _ jobs: Jobs) {
        let n = min(workers, count)
        guard n > 1 else { SerialDispatcher().run(count, jobs); return }
        if WorkerPool.shared.run(workers: n, count: count, jobs) { return }
        let next = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: n) { _ in
            while true {
                let i = next.add(1, ordering: .relaxed).oldValue
                if i >= count { break }
                jobs.run(i)
            }
        }
    }
}

/// The outputs of a stage's jobs that are values made whole by one job each (a chunk of items, a
/// chunk's fingerprints), in one slot a job: the jobs store into their own slot (or take its old
/// value out to fill it again) and the caller takes them all, in job order, once the stage ends.
/// One lock a store, a few a stage: the slots' values are moved in and out, never copied.
final class JobResults<Value: Sendable>: Sendable {
    private let slots: Mutex<[Value]>
    /// The number of slots.
    let count: Int

    /// Slots holding `values` (the old values jobs may take out and fill again).
    init(_ values: consuming [Value]) {
        count = values.count
        slots = Mutex(values)
    }

    /// Moves slot `i`'s value out, leaving `empty` in its place.
    func take(_ i: Int, leaving empty: Value) -> Value {
        slots.withCheckedLock { s in
            let v = s[i]
            s[i] = empty
            return v
        }
    }

    /// Puts `value` into slot `i`.
    func store(_ value: Value, at i: Int) {
        slots.withCheckedLock { s in s[i] = value }
    }

    /// Moves every slot's value out, in order (no job may run any more).
    func takeAll() -> [Value] {
        slots.withCheckedLock { s in
            let all = s
            s = []
            return all
        }
    }
}

extension RenderOptions {
    /// The dispatcher for these options: serial for one worker.
    var dispatcher: any Dispatcher {
        workers > 1 ? ConcurrentDispatcher(workers: workers) : SerialDispatcher()
    }
}
