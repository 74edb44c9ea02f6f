// The worker pool behind ConcurrentDispatcher: every job runs exactly once, the helpers do take
// part, a stage started while the pool is busy (a job that dispatches, another thread's renderer)
// is turned away and still runs, through libdispatch.
import XCTest
import Synchronization
import StrataCore
#if canImport(Glibc)
import Glibc
#endif
@testable import StrataRender

final class WorkerPoolTests: XCTestCase {
    /// Counts the runs of each job.
    // @unchecked: `counts` outlives the stage; each job adds to its own counter, atomically.
    private struct CountingJobs: StageJobs, @unchecked Sendable {
        let counts: UnsafeMutablePointer<Atomic<Int>>
        func run(_ job: Int) { counts[job].add(1, ordering: .relaxed) }
    }

    /// How many times each job ran, for a dispatcher and a job count.
    private static func runCounts(_ dispatcher: some Dispatcher, _ count: Int) -> [Int] {
        let counts = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: count)
        for i in 0..<count { (counts + i).initialize(to: Atomic(0)) }
        defer { counts.deinitialize(count: count); counts.deallocate() }
        dispatcher.run(count, CountingJobs(counts: counts))
        return (0..<count).map { counts[$0].load(ordering: .relaxed) }
    }

    func testEveryJobRunsOnce() {
        for (workers, count) in [(2, 1), (2, 2), (2, 1000), (3, 7), (4, 3), (8, 100)] {
            for _ in 0..<20 {
                XCTAssertEqual(Self.runCounts(ConcurrentDispatcher(workers: workers), count), Array(repeating: 1, count: count),
                               "\(workers) workers, \(count) jobs")
            }
        }
    }

    /// With jobs long enough for a helper to wake, more than one thread runs them, and the pool
    /// (not libdispatch) did: `run` reports it took the stage.
    func testHelpersTakePart() {
        let threads = Mutex<Set<UInt>>([])
        let ran = WorkerPool.shared.run(workers: 2, count: 40, ClosureJobs { _ in
            threads.withCheckedLock { _ = $0.insert(UInt(pthread_self())) }
            usleep(1000)
        })
        XCTAssertTrue(ran, "the pool was free")
        XCTAssertEqual(threads.withCheckedLock { $0.count }, 2, "the caller and one helper")
    }

    /// A job that starts a stage of its own finds the pool busy; through the dispatcher the inner
    /// stage still runs every job (on libdispatch's threads), and nothing deadlocks.
    func testNestedStagesRun() {
        let inner = Atomic<Int>(0)
        let turnedAway = Atomic<Int>(0)
        let ran = WorkerPool.shared.run(workers: 2, count: 6, ClosureJobs { _ in
            if !WorkerPool.shared.run(workers: 2, count: 1, ClosureJobs { _ in }) { turnedAway.add(1, ordering: .relaxed) }
            ConcurrentDispatcher(workers: 2).run(10, ClosureJobs { _ in inner.add(1, ordering: .relaxed) })
        })
        XCTAssertTrue(ran)
        XCTAssertEqual(turnedAway.load(ordering: .relaxed), 6, "every nested stage was turned away")
        XCTAssertEqual(inner.load(ordering: .relaxed), 60)
    }

    /// Two threads dispatching at once: both get every job done, once.
    func testConcurrentCallers() {
        let failures = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 2) { caller in
            for round in 0..<50 {
                let counts = Self.runCounts(ConcurrentDispatcher(workers: 2), 50 + caller + round)
                if counts != Array(repeating: 1, count: counts.count) { failures.add(1, ordering: .relaxed) }
            }
        }
        XCTAssertEqual(failures.load(ordering: .relaxed), 0)
    }
}
