// A bounded first-in-first-out queue between the renderer and the encoder: `push` blocks while
// the queue is full (back-pressure), so memory stays bounded whatever the video's length.
import Foundation

// @unchecked: `items` and `closed` are touched only with `condition` held. A condition variable,
// not a Mutex, because push and pop wait (Synchronization's Mutex cannot).
final class FrameQueue<Element: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [Element] = []
    private var closed = false
    private let capacity: Int

    init(capacity: Int) { self.capacity = max(1, capacity) }

    /// Adds an element, waiting while full. Returns false when the queue was closed.
    @discardableResult
    func push(_ e: Element) -> Bool {
        condition.lock(); defer { condition.unlock() }
        while items.count >= capacity && !closed { condition.wait() }
        guard !closed else { return false }
        items.append(e)
        condition.broadcast()
        return true
    }

    /// Takes the oldest element, waiting while empty; nil once closed and drained.
    func pop() -> Element? {
        condition.lock(); defer { condition.unlock() }
        while items.isEmpty && !closed { condition.wait() }
        guard !items.isEmpty else { return nil }
        let e = items.removeFirst()
        condition.broadcast()
        return e
    }

    /// No more elements will come (consumers drain what is left); pushes fail from now on.
    func close() {
        condition.lock(); closed = true; condition.broadcast(); condition.unlock()
    }
}
