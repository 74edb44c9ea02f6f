// An animation as the evaluator sees it: checked, converted to AnimatableValues and frozen at
// the moment it was added. Evaluating it at a layer-local time gives the value it contributes.
import Foundation

/// The ends of a basic animation after from/to/by resolution (CORE_ANIMATION.md §4.3).
public enum BasicEnds: Sendable, Equatable {
    case fromTo(AnimatableValue, AnimatableValue)
    case fromCurrent(AnimatableValue)
    case currentTo(AnimatableValue)
    case currentBy(AnimatableValue)
    case currentToCurrent
}

/// The shape of an animation's value over its progress.
public enum AnimationCurve: Sendable {
    case basic(BasicEnds)
}

/// A checked, frozen animation ready to evaluate.
public struct PreparedAnimation: Sendable {
    public var keyPath: String
    public var timing: MediaTimingValues
    public var timingFunction: CAMediaTimingFunction?
    public var isAdditive: Bool
    public var isCumulative: Bool
    public var curve: AnimationCurve

    /// The value of the property at layer-local time `t`, given the value underneath
    /// (the model value or the result of earlier animations on the same key path).
    /// Returns nil when the animation has no effect at `t`.
    public func value(at t: Double, underlying: AnimatableValue) -> AnimatableValue? {
        let state = timing.evaluate(atParentTime: t)
        guard let raw = state.progress else { return nil }
        let fraction = timingFunction?.evaluate(raw) ?? raw
        var v: AnimatableValue
        var span: AnimatableValue?
        switch curve {
        case .basic(let ends):
            let from: AnimatableValue, to: AnimatableValue
            switch ends {
            case .fromTo(let f, let t): from = f; to = t
            case .fromCurrent(let f): from = f; to = underlying
            case .currentTo(let t): from = underlying; to = t
            case .currentBy(let b): from = underlying; to = AnimatableValue.add(underlying, b) ?? underlying
            case .currentToCurrent: from = underlying; to = underlying
            }
            v = AnimatableValue.interpolate(from, to, fraction)
            if isCumulative { span = AnimatableValue.subtract(to, from) }
        }
        if isCumulative, let span, state.iteration > 0 {
            for _ in 0..<min(state.iteration, 10_000) { v = AnimatableValue.add(v, span) ?? v }
        }
        if isAdditive { v = AnimatableValue.add(underlying, v) ?? v }
        return v
    }

    /// The scene-independent end of the animation in layer-local time (infinite when repeating
    /// forever); used to fire delegates and completion blocks.
    public var activeEnd: Double {
        let d = timing.duration, cycle = timing.autoreverses ? 2 * d : d
        let active = timing.repeatDuration > 0 ? timing.repeatDuration
            : timing.repeatCount > 0 ? timing.repeatCount * cycle : cycle
        guard timing.speed != 0 else { return .infinity }
        return timing.beginTime + (active - timing.timeOffset) / timing.speed
    }
}
