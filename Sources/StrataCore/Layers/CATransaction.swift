// Transactions group model changes. Outside an explicit `begin()`/`commit()`, the changes made in
// one `scene.at(t)` block form one implicit transaction (the scene opens it before the block and
// commits it after). Settings nest: an inner transaction
// inherits the outer one's duration, timing function and disabled actions unless it sets them.
import Foundation

/// Batches layer changes and sets how their implicit animations run: their duration, timing
/// function, whether they run at all, and a block called when they have all finished.
///
/// ```swift
/// scene.at(1) {
///     CATransaction.begin()
///     CATransaction.setAnimationDuration(0.8)
///     CATransaction.setCompletionBlock { print("moved") }
///     badge.position = CGPoint(x: 400, y: 200)    // animates over 0.8 s
///     CATransaction.commit()
/// }
/// ```
///
/// Each `scene.at` block is an implicit transaction of its own; explicit ones nest inside it.
public final class CATransaction {
    final class Frame {
        var duration: Double?
        var timingFunction: CAMediaTimingFunction?
        var disableActions: Bool?
        /// The completion block and the animations added after it was set.
        var group: CompletionGroup?
        var values: [String: Any] = [:]
    }

    /// A thread's open transactions, innermost last.
    final class Stack {
        var frames: [Frame] = []
    }

    /// Each thread's stack. (Every change of an animatable property reads it: through
    /// `Thread.current.threadDictionary`, a lookup and a bridging cast each time, that was more
    /// than half of the instructions of advancing the motion benchmark's scene a frame.)
    private static let stacks = PerThreadObject { Stack() }

    /// This thread's stack, made on first use.
    static var current: Stack { stacks.current }

    /// This thread's open transactions, innermost last.
    static var stack: [Frame] { current.frames }

    /// Starts a (nested) transaction.
    public static func begin() { current.frames.append(Frame()) }

    /// Ends the innermost transaction. Its completion block runs at the scene time at which every
    /// animation added after the block was set (in this transaction or one nested in it) has
    /// finished or been removed — right after this scene block when there are none, never while
    /// one repeats forever — and may schedule further changes.
    public static func commit() {
        guard let frame = current.frames.popLast(), let group = frame.group else { return }
        group.committed = true
        group.fireIfReady()
    }

    /// Commits any implicit transaction (a no-op: Strata commits at the end of each block).
    public static func flush() {}

    /// The duration of implicit animations in the current transaction (0.25 s by default).
    public static func animationDuration() -> CFTimeInterval {
        stack.reversed().lazy.compactMap(\.duration).first ?? 0.25
    }
    /// Sets the duration of the implicit animations of the current transaction.
    public static func setAnimationDuration(_ d: CFTimeInterval) { ensure().duration = d }

    /// The timing function of implicit animations in the current transaction (nil: the default).
    public static func animationTimingFunction() -> CAMediaTimingFunction? {
        stack.reversed().lazy.compactMap(\.timingFunction).first
    }
    /// Sets the timing function of the implicit animations of the current transaction.
    public static func setAnimationTimingFunction(_ f: CAMediaTimingFunction?) { ensure().timingFunction = f }

    /// Whether property changes in the current transaction are applied without implicit animations.
    public static func disableActions() -> Bool {
        for frame in current.frames.reversed() { if let flag = frame.disableActions { return flag } }
        return false
    }
    /// Turns implicit animations off (or on) for the current transaction.
    public static func setDisableActions(_ flag: Bool) { ensure().disableActions = flag }

    /// The block run when the current transaction's animations have finished.
    public static func completionBlock() -> (() -> Void)? { stack.last?.group?.block }
    /// Sets the block run when the animations added from now on in this transaction are done.
    public static func setCompletionBlock(_ block: (() -> Void)?) {
        let frame = ensure()
        if frame.group == nil { frame.group = CompletionGroup() }
        frame.group?.block = block
    }

    /// A transaction property by key (`kCATransactionAnimationDuration`, …).
    public static func value(forKey key: String) -> Any? {
        for f in stack.reversed() { if let v = f.values[key] { return v } }
        switch key {
        case kCATransactionAnimationDuration: return CGFloat(animationDuration())
        case kCATransactionDisableActions: return disableActions()
        default: return nil
        }
    }
    /// Sets a transaction property by key.
    public static func setValue(_ value: Any?, forKey key: String) {
        switch key {
        case kCATransactionAnimationDuration: if let n = value.flatMap(AnimatableValue.asNumber) { setAnimationDuration(Double(n)) }
        case kCATransactionDisableActions: if let b = value as? Bool { setDisableActions(b) }
        case kCATransactionAnimationTimingFunction: setAnimationTimingFunction(value as? CAMediaTimingFunction)
        default: ensure().values[key] = value
        }
    }

    /// Makes the completion blocks of the open transactions wait for an animation added now.
    static func noteAnimationAdded(_ runtime: AnimationRuntime) {
        for f in stack {
            guard let g = f.group, g.block != nil else { continue }
            g.pending += 1
            runtime.groups.append(g)
        }
    }

    private static func ensure() -> Frame {
        if let f = stack.last { return f }
        // Settings outside any begin() go to an implicit transaction that the scene closes.
        begin()
        return stack.last!
    }

    /// Closes every open transaction (the scene calls this at the end of each block).
    public static func commitAll() { while !stack.isEmpty { commit() } }
}

/// The key of the transaction's animation duration, for `CATransaction.value(forKey:)` and
/// `setValue(_:forKey:)` (see `setAnimationDuration(_:)`).
public let kCATransactionAnimationDuration = "animationDuration"
/// The key of the transaction's disabled-actions flag (see `setDisableActions(_:)`).
public let kCATransactionDisableActions = "disableActions"
/// The key of the transaction's timing function: `setValue(_:forKey:)` with it calls
/// `setAnimationTimingFunction(_:)`.
public let kCATransactionAnimationTimingFunction = "animationTimingFunction"
/// Apple's key of the transaction's completion block. **Strata:** `setValue(_:forKey:)` only
/// stores a value under it; set the block with `setCompletionBlock(_:)`.
public let kCATransactionCompletionBlock = "completionBlock"
