// Transactions group model changes. Outside an explicit `begin()`/`commit()`, the changes made in
// one `scene.at(t)` block form one implicit transaction. Settings nest: an inner transaction
// inherits the outer one's duration, timing function and disabled actions unless it sets them.
import Foundation

/// Groups layer-tree changes into atomic updates and sets the parameters of implicit animations.
public final class CATransaction {
    final class Frame {
        var duration: Double?
        var timingFunction: CAMediaTimingFunction?
        var disableActions: Bool?
        var completion: (() -> Void)?
        var values: [String: Any] = [:]
        /// The latest scene time at which an animation added in this transaction ends.
        var latestEnd: Double = -.infinity
    }

    private static let key = "strata.transactionStack"
    static var stack: [Frame] {
        get { (Thread.current.threadDictionary[key] as? [Frame]) ?? [] }
        set { Thread.current.threadDictionary[key] = newValue }
    }

    /// Starts a (nested) transaction.
    public static func begin() { stack.append(Frame()) }

    /// Ends the innermost transaction; its completion block is scheduled for the scene time at
    /// which every animation it added has finished (at once when it added none).
    public static func commit() {
        guard let frame = stack.popLast() else { return }
        if let outer = stack.last { outer.latestEnd = max(outer.latestEnd, frame.latestEnd) }
        guard let completion = frame.completion else { return }
        let now = SceneClock.currentTime
        let when = frame.latestEnd.isFinite ? max(now, frame.latestEnd) : now
        if let ctx = SceneClock.current { ctx.schedule(when, completion) } else { completion() }
    }

    /// Commits any implicit transaction (a no-op: Strata commits at the end of each block).
    public static func flush() {}

    public static func animationDuration() -> CFTimeInterval {
        stack.reversed().lazy.compactMap(\.duration).first ?? 0.25
    }
    public static func setAnimationDuration(_ d: CFTimeInterval) { ensure().duration = d }

    public static func animationTimingFunction() -> CAMediaTimingFunction? {
        stack.reversed().lazy.compactMap(\.timingFunction).first
    }
    public static func setAnimationTimingFunction(_ f: CAMediaTimingFunction?) { ensure().timingFunction = f }

    public static func disableActions() -> Bool {
        stack.reversed().lazy.compactMap(\.disableActions).first ?? false
    }
    public static func setDisableActions(_ flag: Bool) { ensure().disableActions = flag }

    public static func completionBlock() -> (() -> Void)? { stack.last?.completion }
    public static func setCompletionBlock(_ block: (() -> Void)?) { ensure().completion = block }

    public static func value(forKey key: String) -> Any? {
        for f in stack.reversed() { if let v = f.values[key] { return v } }
        switch key {
        case kCATransactionAnimationDuration: return CGFloat(animationDuration())
        case kCATransactionDisableActions: return disableActions()
        default: return nil
        }
    }
    public static func setValue(_ value: Any?, forKey key: String) {
        switch key {
        case kCATransactionAnimationDuration: if let n = value.flatMap(AnimatableValue.asNumber) { setAnimationDuration(Double(n)) }
        case kCATransactionDisableActions: if let b = value as? Bool { setDisableActions(b) }
        case kCATransactionAnimationTimingFunction: setAnimationTimingFunction(value as? CAMediaTimingFunction)
        default: ensure().values[key] = value
        }
    }

    /// Records that an animation added now ends at scene time `end`.
    static func noteAnimationEnd(_ end: Double) {
        for f in stack { f.latestEnd = max(f.latestEnd, end) }
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

public let kCATransactionAnimationDuration = "animationDuration"
public let kCATransactionDisableActions = "disableActions"
public let kCATransactionAnimationTimingFunction = "animationTimingFunction"
public let kCATransactionCompletionBlock = "completionBlock"
