// The seam between a frame's stages and the threads that run them. A stage hands over `count`
// independent jobs (one per tile, one per shape to rasterise) that write disjoint outputs, so the
// serial and the concurrent dispatcher give the same bytes; which thread ran which job never
// shows in a frame.
import Foundation
import Synchronization

/// Runs numbered independent jobs and returns when all are done.
protocol Dispatcher: Sendable {
    func run(_ count: Int, _ job: @Sendable (Int) -> Void)
}

/// Every job on the calling thread, in order.
struct SerialDispatcher: Dispatcher {
    func run(_ count: Int, _ job: @Sendable (Int) -> Void) {
        for i in 0..<count { job(i) }
    }
}

/// `workers` threads (the caller's among them) taking jobs from a shared counter: the worker
/// pool's helpers, or libdispatch's threads while the pool runs another stage.
struct ConcurrentDispatcher: Dispatcher {
    let workers: Int

    func run(_ count: Int, _ job: @Sendable (Int) -> Void) {
        let n = min(workers, count)
        guard n > 1 else { SerialDispatcher().run(count, job); return }
        if WorkerPool.shared.run(workers: n, count: count, job) { return }
        let next = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: n) { _ in
            while true {
                let i = next.add(1, ordering: .relaxed).oldValue
                if i >= count { break }
                job(i)
            }
        }
    }
}

extension RenderOptions {
    /// The dispatcher for these options: serial for one worker.
    var dispatcher: any Dispatcher {
        workers > 1 ? ConcurrentDispatcher(workers: workers) : SerialDispatcher()
    }
}
