// The root of the animation classes: media timing, timing function, delegate, removal, and
// arbitrary key/value data. Layers copy an animation when it is added, as Core Animation does,
// so changing the object afterwards does not change the running animation.
import Foundation

/// Callbacks for an animation's start and stop, called at the scene times these happen.
public protocol CAAnimationDelegate: AnyObject {
    /// Called when the animation's active period begins, at that scene time (after its `beginTime`
    /// delay, not when it is added).
    func animationDidStart(_ anim: CAAnimation)
    /// Called when the animation ends: `flag` is true when it ran to the end of its active duration,
    /// false when it was removed first (`removeAnimation(forKey:)`, `removeAllAnimations()`, or
    /// another animation added under the same key).
    func animationDidStop(_ anim: CAAnimation, finished flag: Bool)
}

extension CAAnimationDelegate {
    /// Does nothing unless the delegate implements it.
    public func animationDidStart(_ anim: CAAnimation) {}
    /// Does nothing unless the delegate implements it.
    public func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {}
}

// @unchecked: as Apple's; layers copy an animation when it is added and never change the copy, so
// renderers read immutable objects (changing one object from two threads is the caller's race).
/// The abstract base of every animation.
open class CAAnimation: NSObject, CAMediaTiming, NSCopying, @unchecked Sendable {
    /// When the animation starts, in its layer's time (seconds, default 0). 0 on an added animation
    /// means "now": the scene time of the code that adds it. To start later, add to the current time:
    ///
    /// ```swift
    /// anim.beginTime = layer.convertTime(CACurrentMediaTime(), from: nil) + 0.5
    /// ```
    public var beginTime: CFTimeInterval = 0
    /// 0 means Core Animation's default of 0.25 s.
    public var duration: CFTimeInterval = 0
    /// How fast the animation's time runs relative to its layer's (default 1): 2 plays twice as fast,
    /// 0 freezes it at `timeOffset`.
    public var speed: Float = 1
    /// Seconds added to the animation's local time (default 0): 0.5 starts a 1-second animation
    /// halfway through.
    public var timeOffset: CFTimeInterval = 0
    /// How many times the animation plays (default 0: once); fractions play part of a last cycle and
    /// `.infinity` repeats for ever. Ignored when `repeatDuration` is set.
    public var repeatCount: Float = 0
    /// How long, in seconds, the animation repeats (default 0: use `repeatCount`).
    public var repeatDuration: CFTimeInterval = 0
    /// Whether each cycle plays forwards then backwards (default false); a cycle then lasts twice
    /// `duration`.
    public var autoreverses = false
    /// What the animation shows outside its active period (default `.removed`: nothing): `.backwards`
    /// holds the first value before `beginTime`, `.forwards` the last value after the end (only with
    /// `isRemovedOnCompletion = false`, as on iOS), `.both` both.
    public var fillMode: CAMediaTimingFillMode = .removed
    /// Whether the layer drops the animation when it finishes (default true), so the model value
    /// shows again. Set it to false with `fillMode = .forwards` to hold the end value.
    public var isRemovedOnCompletion = true
    /// nil means linear.
    public var timingFunction: CAMediaTimingFunction?
    /// Held strongly, as Core Animation does.
    public var delegate: CAAnimationDelegate?
    private var userValues: [String: Any] = [:]
    /// Set on the copy attached to a layer: its start/stop events and waiting transactions.
    var runtime: AnimationRuntime?
    /// Set on the implicit animation `action(forKey:)` makes by default (CALayer+Actions.swift).
    var isImplicitDefault = false

    /// An animation with default values. (Required: copies are made through the dynamic class.
    /// A subclass of an animation class writes `required init()`; Apple's is not required.)
    public required override init() { super.init() }

    /// **Strata:** no archives: an animation with default values.
    public required init?(coder: NSCoder) { super.init() }

    /// A copy of this animation, of the same class (`copy()` returns it; a layer copies an
    /// animation when it is added). Subclasses override it, call super and copy their own
    /// properties onto the result.
    open func copy(with zone: NSZone? = nil) -> Any {
        let c = type(of: self).init()
        copyTiming(to: c)
        return c
    }

    /// Copies the base properties onto `other`.
    public func copyTiming(to other: CAAnimation) {
        other.beginTime = beginTime; other.duration = duration; other.speed = speed
        other.timeOffset = timeOffset; other.repeatCount = repeatCount
        other.repeatDuration = repeatDuration; other.autoreverses = autoreverses
        other.fillMode = fillMode; other.isRemovedOnCompletion = isRemovedOnCompletion
        other.timingFunction = timingFunction; other.delegate = delegate
        other.userValues = userValues
    }

    /// A Core Animation animation object with default values.
    public class func animation() -> Self { self.init() }

    /// The default value of a property key (as `CAAnimation.defaultValue(forKey:)`).
    open class func defaultValue(forKey key: String) -> Any? { nil }

    /// Arbitrary data attached to the animation.
    public func setValue(_ value: Any?, forKey key: String) { userValues[key] = value }
    /// The value stored with `setValue(_:forKey:)`, else `"duration"`, `"beginTime"` and
    /// `"repeatCount"` as numbers, else nil.
    public func value(forKey key: String) -> Any? {
        if let v = userValues[key] { return v }
        switch key {
        case "duration": return CGFloat(duration)
        case "beginTime": return CGFloat(beginTime)
        case "repeatCount": return CGFloat(repeatCount)
        default: return nil
        }
    }

    /// The duration used for evaluation (0 → 0.25 s).
    public var effectiveDuration: Double { duration > 0 ? duration : 0.25 }

    /// The Sendable timing values used by the evaluator.
    public var timingValues: MediaTimingValues {
        var v = MediaTimingValues()
        v.beginTime = beginTime; v.duration = effectiveDuration; v.speed = Double(speed)
        v.timeOffset = timeOffset; v.repeatCount = Double(repeatCount)
        v.repeatDuration = repeatDuration; v.autoreverses = autoreverses
        v.fillMode = fillMode; v.removedOnCompletion = isRemovedOnCompletion
        return v
    }
}
