// The root of the animation classes: media timing, timing function, delegate, removal, and
// arbitrary key/value data. Layers copy an animation when it is added, as Core Animation does,
// so changing the object afterwards does not change the running animation.
import Foundation

/// Callbacks for an animation's start and stop, called at the scene times these happen.
public protocol CAAnimationDelegate: AnyObject {
    func animationDidStart(_ anim: CAAnimation)
    func animationDidStop(_ anim: CAAnimation, finished flag: Bool)
}

extension CAAnimationDelegate {
    public func animationDidStart(_ anim: CAAnimation) {}
    public func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {}
}

/// The abstract base of every animation.
// @unchecked: as Apple's; layers copy an animation when it is added and never change the copy, so
// renderers read immutable objects (changing one object from two threads is the caller's race).
open class CAAnimation: NSObject, CAMediaTiming, NSCopying, @unchecked Sendable {
    public var beginTime: CFTimeInterval = 0
    /// 0 means Core Animation's default of 0.25 s.
    public var duration: CFTimeInterval = 0
    public var speed: Float = 1
    public var timeOffset: CFTimeInterval = 0
    public var repeatCount: Float = 0
    public var repeatDuration: CFTimeInterval = 0
    public var autoreverses = false
    public var fillMode: CAMediaTimingFillMode = .removed
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
