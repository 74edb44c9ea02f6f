// Robert Penner's easing curves: one list of names, used by `CAMediaTimingFunction(name:)`
// (`.easeOutBack` …) and by the declarative model's `TimingCurve.named(_:)`, and their exact
// closed forms (Strata's addition; not Bézier approximations).
import Foundation

/// Robert Penner's easing curves (the names Strata's timing functions know beside Apple's five).
/// Raw values are the names `CAMediaTimingFunctionName` and templates use.
public enum PennerCurve: String, Sendable, CaseIterable {
    /// Sine curves: gentle, a quarter sine wave. `easeIn…` starts slowly, `easeOut…` ends slowly,
    /// `easeInOut…` does both (the same for every family below).
    case easeInSine, easeOutSine, easeInOutSine
    /// Quadratic curves (t²).
    case easeInQuad, easeOutQuad, easeInOutQuad
    /// Cubic curves (t³).
    case easeInCubic, easeOutCubic, easeInOutCubic
    /// Quartic curves (t⁴).
    case easeInQuart, easeOutQuart, easeInOutQuart
    /// Quintic curves (t⁵).
    case easeInQuint, easeOutQuint, easeInOutQuint
    /// Exponential curves (2^(10t − 10)): almost still, then fast.
    case easeInExpo, easeOutExpo, easeInOutExpo
    /// Circular curves (a quarter circle).
    case easeInCirc, easeOutCirc, easeInOutCirc
    /// Curves that overshoot: pull back before starting or overshoot the end (Penner's s = 1.70158).
    case easeInBack, easeOutBack, easeInOutBack
    /// Elastic curves: oscillate like a spring around the start or the end.
    ///
    /// ```swift
    /// animation.timingFunction = CAMediaTimingFunction(name: .easeOutElastic)
    /// ```
    case easeInElastic, easeOutElastic, easeInOutElastic
    /// Bouncing curves: like a ball coming to rest at the end (or leaving the start).
    case easeInBounce, easeOutBounce, easeInOutBounce
}

extension PennerCurve {
    /// Penner's easing equations, written for t in [0, 1] (start 0, change 1, duration 1).
    func value(at t: Double) -> Double {
        let backS = 1.70158, backInOutS = 1.70158 * 1.525
        switch self {
        case .easeInSine: return 1 - cos(t * .pi / 2)
        case .easeOutSine: return sin(t * .pi / 2)
        case .easeInOutSine: return (1 - cos(.pi * t)) / 2
        case .easeInQuad: return t * t
        case .easeOutQuad: return 1 - (1 - t) * (1 - t)
        case .easeInOutQuad: return Self.inOut(t) { $0 * $0 }
        case .easeInCubic: return t * t * t
        case .easeOutCubic: return 1 - pow(1 - t, 3)
        case .easeInOutCubic: return Self.inOut(t) { $0 * $0 * $0 }
        case .easeInQuart: return pow(t, 4)
        case .easeOutQuart: return 1 - pow(1 - t, 4)
        case .easeInOutQuart: return Self.inOut(t) { pow($0, 4) }
        case .easeInQuint: return pow(t, 5)
        case .easeOutQuint: return 1 - pow(1 - t, 5)
        case .easeInOutQuint: return Self.inOut(t) { pow($0, 5) }
        case .easeInExpo: return t == 0 ? 0 : pow(2, 10 * t - 10)
        case .easeOutExpo: return t == 1 ? 1 : 1 - pow(2, -10 * t)
        case .easeInOutExpo:
            if t == 0 || t == 1 { return t }
            return t < 0.5 ? pow(2, 20 * t - 10) / 2 : (2 - pow(2, 10 - 20 * t)) / 2
        case .easeInCirc: return 1 - (1 - t * t).squareRoot()
        case .easeOutCirc: return (1 - (t - 1) * (t - 1)).squareRoot()
        case .easeInOutCirc: return Self.inOut(t) { 1 - (1 - $0 * $0).squareRoot() }
        case .easeInBack: return (backS + 1) * t * t * t - backS * t * t
        case .easeOutBack:
            let u = t - 1
            return 1 + (backS + 1) * u * u * u + backS * u * u
        case .easeInOutBack:
            return Self.inOut(t) { u in (backInOutS + 1) * u * u * u - backInOutS * u * u }
        case .easeInElastic:
            if t == 0 || t == 1 { return t }
            return -pow(2, 10 * t - 10) * sin((10 * t - 10.75) * (2 * .pi / 3))
        case .easeOutElastic:
            if t == 0 || t == 1 { return t }
            return pow(2, -10 * t) * sin((10 * t - 0.75) * (2 * .pi / 3)) + 1
        case .easeInOutElastic:
            if t == 0 || t == 1 { return t }
            let wave = sin((20 * t - 11.125) * (2 * .pi / 4.5))
            return t < 0.5 ? -pow(2, 20 * t - 10) * wave / 2 : pow(2, 10 - 20 * t) * wave / 2 + 1
        case .easeInBounce: return 1 - Self.bounceOut(1 - t)
        case .easeOutBounce: return Self.bounceOut(t)
        case .easeInOutBounce:
            return t < 0.5 ? (1 - Self.bounceOut(1 - 2 * t)) / 2 : (1 + Self.bounceOut(2 * t - 1)) / 2
        }
    }

    /// Runs the ease-in curve `easeIn` over the first half and its point reflection over the second.
    private static func inOut(_ t: Double, _ easeIn: (Double) -> Double) -> Double {
        t < 0.5 ? easeIn(2 * t) / 2 : 1 - easeIn(2 - 2 * t) / 2
    }

    /// Four parabolic arcs of heights 1, 0.75, 0.9375, 0.984375 with Penner's constants.
    private static func bounceOut(_ t: Double) -> Double {
        let n = 7.5625, d = 2.75
        if t < 1 / d { return n * t * t }
        if t < 2 / d { let u = t - 1.5 / d; return n * u * u + 0.75 }
        if t < 2.5 / d { let u = t - 2.25 / d; return n * u * u + 0.9375 }
        let u = t - 2.625 / d
        return n * u * u + 0.984375
    }
}
