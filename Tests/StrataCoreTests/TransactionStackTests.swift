// CATransaction keeps each thread's open transactions in a slot of that thread (a pthread key):
// a thread sees its own settings only, nested transactions inherit and restore, and a thread's
// stack is released when the thread exits.
import Foundation
import XCTest
@testable import StrataCore

final class TransactionStackTests: XCTestCase {
    func testEachThreadSeesItsOwnTransactions() {
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        CATransaction.setAnimationDuration(2)
        defer { CATransaction.commitAll() }

        nonisolated(unsafe) var other: (disabled: Bool, duration: Double, depth: Int, inner: Bool, restored: Bool)?
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let fresh = (CATransaction.disableActions(), CATransaction.animationDuration(), CATransaction.stack.count)
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            CATransaction.begin()
            let inner = CATransaction.disableActions()  // inherited from the outer transaction
            CATransaction.setDisableActions(false)
            CATransaction.commit()
            let restored = CATransaction.disableActions()
            CATransaction.commitAll()
            other = (fresh.0, fresh.1, fresh.2, inner, restored)
            done.signal()
        }
        thread.start()
        done.wait()

        XCTAssertEqual(other?.disabled, false, "a new thread starts with no transaction: actions enabled")
        XCTAssertEqual(other?.duration, 0.25, "a new thread's default duration")
        XCTAssertEqual(other?.depth, 0)
        XCTAssertEqual(other?.inner, true)
        XCTAssertEqual(other?.restored, true, "committing the inner transaction restores the outer one's setting")
        // This thread's settings were not touched by the other thread's.
        XCTAssertTrue(CATransaction.disableActions())
        XCTAssertEqual(CATransaction.animationDuration(), 2)
        XCTAssertEqual(CATransaction.stack.count, 1)
    }

    func testAThreadsStackIsReleasedWhenItExits() {
        let stack = WeakStack()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            stack.value = CATransaction.current
            CATransaction.commit()
            done.signal()
        }
        thread.start()
        done.wait()
        // The slot's destructor runs as the thread exits, after the block returns.
        let deadline = Date().addingTimeInterval(10)
        while stack.value != nil && Date() < deadline { usleep(1000) }
        XCTAssertNil(stack.value, "the exited thread's transaction stack is still alive")
    }
}

// @unchecked: written by the thread before it signals, read after the wait.
private final class WeakStack: @unchecked Sendable {
    weak var value: CATransaction.Stack?
}
