// The timing model shared by layers and animations (CAMediaTiming), and the pure function that
// maps a parent time to a local state per CORE_ANIMATION.md §4.1.
import Foundation

/// How a timed object behaves outside its active interval.
public struct CAMediaTimingFillMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The object has no effect outside its active interval (the default).
    public static let removed = CAMediaTimingFillMode(rawValue: "removed")
    /// The object keeps its final state after its active interval ends.
    public static let forwards = CAMediaTimingFillMode(rawValue: "forwards")
    /// The object shows its initial state before its active interval begins.
    public static let backwards = CAMediaTimingFillMode(rawValue: "backwards")
    /// Both `backwards` and `forwards`.
    ///
    /// ```swift
    /// fade.fillMode = .both
    /// fade.isRemovedOnCompletion = false   // keep the end value on screen
    /// ```
    public static let both = CAMediaTimingFillMode(rawValue: "both")

    var fillsForwards: Bool { self == .forwards || self == .both }
    var fillsBackwards: Bool { self == .backwards || self == .both }
}

/// The Objective-C name of `CAMediaTimingFillMode.removed`.
public let kCAFillModeRemoved = CAMediaTimingFillMode.removed
/// The Objective-C name of `CAMediaTimingFillMode.forwards`.
public let kCAFillModeForwards = CAMediaTimingFillMode.forwards
/// The Objective-C name of `CAMediaTimingFillMode.backwards`.
public let kCAFillModeBackwards = CAMediaTimingFillMode.backwards
/// The Objective-C name of `CAMediaTimingFillMode.both`.
public let kCAFillModeBoth = CAMediaTimingFillMode.both

/// The timing properties of layers and animations.
public protocol CAMediaTiming: AnyObject {
    /// When the object starts, in its parent's time (seconds; default 0). An animation added with
    /// `beginTime` 0 starts at the time it is added; use `CACurrentMediaTime() + delay` for a delay.
    var beginTime: CFTimeInterval { get set }
    /// The length of one cycle in seconds, before `speed` (an animation with 0 takes 0.25 s).
    var duration: CFTimeInterval { get set }
    /// How fast local time runs relative to the parent's (default 1; 2 is twice as fast, 0 stops).
    var speed: Float { get set }
    /// An offset added to local time, in seconds (default 0): starts the object partway in.
    var timeOffset: CFTimeInterval { get set }
    /// How many cycles to run (default 0: one; fractions allowed; `.infinity`: forever).
    var repeatCount: Float { get set }
    /// How long to repeat, in seconds (default 0: use `repeatCount`).
    var repeatDuration: CFTimeInterval { get set }
    /// Whether each cycle plays forward and then backward (default `false`).
    var autoreverses: Bool { get set }
    /// What the object shows outside its active interval (default `.removed`).
    var fillMode: CAMediaTimingFillMode { get set }
}

#if !canImport(Darwin)
/// A time interval in seconds (Core Foundation's name; `Double`).
public typealias CFTimeInterval = Double
#endif

/// A Sendable copy of the timing properties, evaluated by `evaluate(atParentTime:)`.
public struct MediaTimingValues: Sendable, Equatable {
    /// When the object starts, in the parent's time (seconds).
    public var beginTime: Double = 0
    /// The length of one cycle in seconds.
    public var duration: Double = 0
    /// The rate of local time relative to the parent's.
    public var speed: Double = 1
    /// The offset added to local time, in seconds.
    public var timeOffset: Double = 0
    /// The number of cycles (0: one; `.infinity`: forever).
    public var repeatCount: Double = 0
    /// How long to repeat, in seconds (0: use `repeatCount`).
    public var repeatDuration: Double = 0
    /// Whether each cycle plays forward and then backward.
    public var autoreverses = false
    /// What the object shows outside its active interval.
    public var fillMode = CAMediaTimingFillMode.removed
    /// Whether the animation is removed from its layer when it finishes (animations only).
    public var removedOnCompletion = true

    /// The defaults: begins at 0, lasts 0 s, speed 1, one cycle, no fill, removed on completion.
    public init() {}

    /// The length of one cycle: `duration`, doubled when autoreversing.
    public var cycleDuration: Double { autoreverses ? 2 * duration : duration }

    /// The active duration in local time (§4.1 step 2): `repeatDuration` if set, else
    /// `repeatCount` cycles (fractional counts allowed, `.infinity` = forever), else one cycle.
    public var activeDuration: Double {
        if repeatDuration > 0 { return repeatDuration }
        if repeatCount > 0 { return repeatCount.isInfinite ? .infinity : repeatCount * cycleDuration }
        return cycleDuration
    }

    /// The local time `(tp − beginTime) · speed + timeOffset` (§4.1 step 1).
    public func localTime(atParentTime tp: Double) -> Double { (tp - beginTime) * speed + timeOffset }

    /// The parent time at which the local time reaches `local`, nil when it never does
    /// (speed 0 or a non-finite answer).
    public func parentTime(ofLocalTime local: Double) -> Double? {
        guard speed != 0 else { return nil }
        let tp = (local - timeOffset) / speed + beginTime
        return tp.isFinite ? tp : nil
    }

    /// The timing state at `tp` (time of the parent: the layer's local time for an animation).
    public func evaluate(atParentTime tp: Double) -> TimingState {
        let t = localTime(atParentTime: tp)
        let d = duration
        guard d > 0, d.isFinite, !t.isNaN else { return .inactive }
        let cycle = cycleDuration
        let active = activeDuration

        if t < 0 {
            return fillMode.fillsBackwards ? .filling(progress: 0, iteration: 0, localTime: 0) : .inactive
        }
        if t >= active {
            if removedOnCompletion || !fillMode.fillsForwards { return .finished }
            let (p, i) = progress(at: active, duration: d, cycle: cycle, atEnd: true)
            return .filling(progress: p, iteration: i, localTime: active)
        }
        let (p, i) = progress(at: t, duration: d, cycle: cycle, atEnd: false)
        return .active(progress: p, iteration: i, localTime: t)
    }

    /// Raw (un-eased) progress 0…1 within the current cycle, and the iteration index.
    private func progress(at t: Double, duration d: Double, cycle: Double, atEnd: Bool) -> (Double, Int) {
        // Clamped as a double: a cycle of 1e-300 s at t = 1 s would not fit an Int.
        let cycles = (t / cycle).rounded(.down)
        var iteration = cycles.isNaN ? 0 : Int(min(max(cycles, -0x1p62), 0x1p62))
        var u = t - Double(iteration) * cycle
        // At the exact end of the active duration, show the end of the last cycle, not the start
        // of the next one.
        if atEnd && u <= 1e-12 * max(1, t) && t > 0 { iteration -= 1; u = cycle }
        var p: Double
        if autoreverses {
            p = u <= d ? u / d : (cycle - u) / d
        } else {
            p = u / d
        }
        p = min(max(p, 0), 1)
        return (p, max(iteration, 0))
    }
}

/// Where a timed object is at a given time.
public enum TimingState: Sendable, Equatable {
    /// Before a begin without backwards fill, or removed after the end.
    case inactive
    /// Ended and removed (or not filling forwards): no effect.
    case finished
    /// Running: `progress` is the raw 0…1 fraction of the current cycle (already reversed in the
    /// second half of an autoreversing cycle), `iteration` counts completed cycles.
    case active(progress: Double, iteration: Int, localTime: Double)
    /// Holding a value outside the active interval through its fill mode.
    case filling(progress: Double, iteration: Int, localTime: Double)

    /// The raw progress when the object has an effect.
    public var progress: Double? {
        switch self {
        case .active(let p, _, _), .filling(let p, _, _): p
        default: nil
        }
    }
    /// The number of completed cycles while the object has an effect, else 0.
    public var iteration: Int {
        switch self {
        case .active(_, let i, _), .filling(_, let i, _): i
        default: 0
        }
    }
}
