// Timing functions map an animation's linear progress (0…1) to the eased fraction that the
// interpolator uses. Three families live here: Apple's cubic Béziers (solved numerically), Robert
// Penner's easing equations (PennerCurve.swift; closed forms, Strata's addition) and CSS-style steps (Strata's addition).
import Foundation

/// The name of a predefined timing function (Apple's five plus Strata's Penner set).
///
/// Raw values are the Swift names (`"easeInEaseOut"`, `"easeOutBounce"`, …).
public struct CAMediaTimingFunctionName: RawRepresentable, Hashable, Sendable {
    /// The name as a string.
    public let rawValue: String

    /// Wraps a name; `CAMediaTimingFunction(name:)` traps on names it does not know, as Apple raises.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Constant speed: control points (0, 0) and (1, 1).
    public static let linear = CAMediaTimingFunctionName(rawValue: "linear")
    /// Slow start: control points (0.42, 0) and (1, 1).
    public static let easeIn = CAMediaTimingFunctionName(rawValue: "easeIn")
    /// Slow end: control points (0, 0) and (0.58, 1).
    public static let easeOut = CAMediaTimingFunctionName(rawValue: "easeOut")
    /// Slow start and end: control points (0.42, 0) and (0.58, 1).
    public static let easeInEaseOut = CAMediaTimingFunctionName(rawValue: "easeInEaseOut")
    /// Core Animation's default curve: control points (0.25, 0.1) and (0.25, 1).
    public static let `default` = CAMediaTimingFunctionName(rawValue: "default")

    /// Apple's named curves and their control points (c1x, c1y, c2x, c2y): the one table of them
    /// (`CAMediaTimingFunction(name:)` reads it).
    static let bezierCurves: [(name: CAMediaTimingFunctionName, points: (Float, Float, Float, Float))] = [
        (.linear, (0, 0, 1, 1)), (.easeIn, (0.42, 0, 1, 1)), (.easeOut, (0, 0, 0.58, 1)),
        (.easeInEaseOut, (0.42, 0, 0.58, 1)), (.default, (0.25, 0.1, 0.25, 1)),
    ]
    /// Every name `CAMediaTimingFunction(name:)` knows: Apple's five, then Strata's Penner set
    /// (`PennerCurve`).
    public static let allNames = bezierCurves.map(\.name) + PennerCurve.allCases.map { Self(rawValue: $0.rawValue) }

    // MARK: Strata: Penner's easing equations (exact closed forms, not Bézier approximations).

    /// Strata: `1 − cos(t·π/2)`.
    public static let easeInSine = CAMediaTimingFunctionName(rawValue: "easeInSine")
    /// Strata: `sin(t·π/2)`.
    public static let easeOutSine = CAMediaTimingFunctionName(rawValue: "easeOutSine")
    /// Strata: `(1 − cos(π·t)) / 2`.
    public static let easeInOutSine = CAMediaTimingFunctionName(rawValue: "easeInOutSine")
    /// Strata: `t²`.
    public static let easeInQuad = CAMediaTimingFunctionName(rawValue: "easeInQuad")
    /// Strata: `1 − (1 − t)²`.
    public static let easeOutQuad = CAMediaTimingFunctionName(rawValue: "easeOutQuad")
    /// Strata: quadratic in for the first half, quadratic out for the second.
    public static let easeInOutQuad = CAMediaTimingFunctionName(rawValue: "easeInOutQuad")
    /// Strata: `t³`.
    public static let easeInCubic = CAMediaTimingFunctionName(rawValue: "easeInCubic")
    /// Strata: `1 − (1 − t)³`.
    public static let easeOutCubic = CAMediaTimingFunctionName(rawValue: "easeOutCubic")
    /// Strata: cubic in for the first half, cubic out for the second.
    public static let easeInOutCubic = CAMediaTimingFunctionName(rawValue: "easeInOutCubic")
    /// Strata: `t⁴`.
    public static let easeInQuart = CAMediaTimingFunctionName(rawValue: "easeInQuart")
    /// Strata: `1 − (1 − t)⁴`.
    public static let easeOutQuart = CAMediaTimingFunctionName(rawValue: "easeOutQuart")
    /// Strata: quartic in for the first half, quartic out for the second.
    public static let easeInOutQuart = CAMediaTimingFunctionName(rawValue: "easeInOutQuart")
    /// Strata: `t⁵`.
    public static let easeInQuint = CAMediaTimingFunctionName(rawValue: "easeInQuint")
    /// Strata: `1 − (1 − t)⁵`.
    public static let easeOutQuint = CAMediaTimingFunctionName(rawValue: "easeOutQuint")
    /// Strata: quintic in for the first half, quintic out for the second.
    public static let easeInOutQuint = CAMediaTimingFunctionName(rawValue: "easeInOutQuint")
    /// Strata: `2^(10t − 10)`, pinned to 0 at t = 0 as Penner does.
    public static let easeInExpo = CAMediaTimingFunctionName(rawValue: "easeInExpo")
    /// Strata: `1 − 2^(−10t)`, pinned to 1 at t = 1 as Penner does.
    public static let easeOutExpo = CAMediaTimingFunctionName(rawValue: "easeOutExpo")
    /// Strata: exponential in for the first half, out for the second; endpoints pinned.
    public static let easeInOutExpo = CAMediaTimingFunctionName(rawValue: "easeInOutExpo")
    /// Strata: `1 − √(1 − t²)`.
    public static let easeInCirc = CAMediaTimingFunctionName(rawValue: "easeInCirc")
    /// Strata: `√(1 − (t − 1)²)`.
    public static let easeOutCirc = CAMediaTimingFunctionName(rawValue: "easeOutCirc")
    /// Strata: circular in for the first half, circular out for the second.
    public static let easeInOutCirc = CAMediaTimingFunctionName(rawValue: "easeInOutCirc")
    /// Strata: `(s + 1)t³ − s·t²` with overshoot s = 1.70158 (dips below 0).
    public static let easeInBack = CAMediaTimingFunctionName(rawValue: "easeInBack")
    /// Strata: `1 + (s + 1)(t − 1)³ + s(t − 1)²` with s = 1.70158 (overshoots 1).
    public static let easeOutBack = CAMediaTimingFunctionName(rawValue: "easeOutBack")
    /// Strata: back in then back out, overshoot s·1.525.
    public static let easeInOutBack = CAMediaTimingFunctionName(rawValue: "easeInOutBack")
    /// Strata: `−2^(10t − 10)·sin((10t − 10.75)·2π/3)` (period 0.3, amplitude 1); endpoints pinned.
    public static let easeInElastic = CAMediaTimingFunctionName(rawValue: "easeInElastic")
    /// Strata: `2^(−10t)·sin((10t − 0.75)·2π/3) + 1`; endpoints pinned.
    public static let easeOutElastic = CAMediaTimingFunctionName(rawValue: "easeOutElastic")
    /// Strata: elastic in then out (period 0.45 over the whole); endpoints pinned.
    public static let easeInOutElastic = CAMediaTimingFunctionName(rawValue: "easeInOutElastic")
    /// Strata: `1 − easeOutBounce(1 − t)`.
    public static let easeInBounce = CAMediaTimingFunctionName(rawValue: "easeInBounce")
    /// Strata: Penner's four parabolic bounces (7.5625, 2.75).
    public static let easeOutBounce = CAMediaTimingFunctionName(rawValue: "easeOutBounce")
    /// Strata: bounce in for the first half, bounce out for the second.
    public static let easeInOutBounce = CAMediaTimingFunctionName(rawValue: "easeInOutBounce")
}

/// A function that maps linear animation progress to an eased fraction.
///
/// Apple's kind is a cubic Bézier from (0, 0) to (1, 1) with two control points. Strata also
/// offers Penner's easing equations by name (exact formulas) and CSS step functions:
///
///     let bounce = CAMediaTimingFunction(name: .easeOutBounce)
///     let ticks = CAMediaTimingFunction.steps(4, .jumpEnd)
///     bounce.evaluate(0.5)   // 0.765625
///
/// Progress outside [0, 1] is clamped to [0, 1] before evaluation, for every kind of function
/// (CSS extrapolates Béziers linearly instead; Core Animation never asks outside the range).
public final class CAMediaTimingFunction: Sendable, Equatable, CustomStringConvertible {
    /// Where a step function jumps (CSS Easing Level 1 `steps()` positions).
    public enum StepPosition: Sendable, Hashable {
        /// The first jump happens at progress 0 (CSS `jump-start` / `start`).
        case jumpStart
        /// The last jump happens at progress 1 (CSS `jump-end` / `end`).
        case jumpEnd
        /// No jump at either end: n − 1 jumps, holding 0 and 1 for a step each (`jump-none`).
        case jumpNone
        /// Jumps at both ends: n + 1 jumps (`jump-both`).
        case jumpBoth
    }

    enum Curve: Equatable, Sendable {
        case bezier(Float, Float, Float, Float)
        case penner(PennerCurve)
        case steps(Int, StepPosition)
    }

    let curve: Curve

    private init(curve: Curve) { self.curve = curve }

    /// A predefined timing function; traps on an unknown name (Apple raises an exception).
    public convenience init(name: CAMediaTimingFunctionName) {
        if let (c1x, c1y, c2x, c2y) = CAMediaTimingFunctionName.bezierCurves.first(where: { $0.name == name })?.points {
            self.init(controlPoints: c1x, c1y, c2x, c2y)
        } else if let penner = PennerCurve(rawValue: name.rawValue) {
            self.init(curve: .penner(penner))
        } else {
            preconditionFailure("CAMediaTimingFunction: unknown timing function name '\(name.rawValue)'")
        }
    }

    /// A cubic Bézier from (0, 0) through control points c1 and c2 to (1, 1).
    ///
    /// The x coordinates are clamped to [0, 1] (CSS requires them there; clamping keeps x(s)
    /// monotonic so every progress has one answer); y is free, so curves may overshoot.
    /// Non-finite values trap.
    public init(controlPoints c1x: Float, _ c1y: Float, _ c2x: Float, _ c2y: Float) {
        precondition(c1x.isFinite && c1y.isFinite && c2x.isFinite && c2y.isFinite,
                     "CAMediaTimingFunction: control points must be finite")
        curve = .bezier(min(max(c1x, 0), 1), c1y, min(max(c2x, 0), 1), c2y)
    }

    /// Strata: a CSS step function with `n` equal steps, jumping as `position` says.
    ///
    /// `steps(4, .jumpEnd)` gives 0, 0.25, 0.5, 0.75 on the four quarters and 1 at progress 1;
    /// `steps(4, .jumpStart)` gives 0.25, 0.5, 0.75, 1. `n` must be ≥ 1 (≥ 2 for `.jumpNone`).
    public static func steps(_ n: Int, _ position: StepPosition) -> CAMediaTimingFunction {
        precondition(n >= (position == .jumpNone ? 2 : 1), "CAMediaTimingFunction.steps: too few steps")
        return CAMediaTimingFunction(curve: .steps(n, position))
    }

    /// Writes control point `index` (0 … 3) as two Floats (x, y) to `ptr`.
    ///
    /// Points 0 and 3 are always (0, 0) and (1, 1). Penner and step functions are not Béziers;
    /// they report the straight line's control points (0, 0) and (1, 1), like `.linear`.
    public func getControlPoint(at index: Int, values ptr: UnsafeMutablePointer<Float>) {
        precondition((0...3).contains(index), "CAMediaTimingFunction: control point index out of range")
        var (c1x, c1y, c2x, c2y): (Float, Float, Float, Float) = (0, 0, 1, 1)
        if case let .bezier(a, b, c, d) = curve { (c1x, c1y, c2x, c2y) = (a, b, c, d) }
        let points: [(Float, Float)] = [(0, 0), (c1x, c1y), (c2x, c2y), (1, 1)]
        ptr[0] = points[index].0
        ptr[1] = points[index].1
    }

    /// The eased fraction for linear `progress` (clamped to [0, 1]; NaN passes through).
    public func evaluate(_ progress: Double) -> Double {
        guard !progress.isNaN else { return progress }
        let t = min(max(progress, 0), 1)
        switch curve {
        case let .bezier(c1x, c1y, c2x, c2y):
            return Self.solveBezier(x: t, Double(c1x), Double(c1y), Double(c2x), Double(c2y))
        case let .penner(p):
            return p.value(at: t)
        case let .steps(n, position):
            return Self.step(t, n, position)
        }
    }

    /// Two functions are equal when they compute the same curve (names are not kept).
    public static func == (a: CAMediaTimingFunction, b: CAMediaTimingFunction) -> Bool {
        a.curve == b.curve
    }

    /// A short description such as `CAMediaTimingFunction(0.42, 0.0, 0.58, 1.0)`.
    public var description: String {
        switch curve {
        case let .bezier(a, b, c, d): return "CAMediaTimingFunction(\(a), \(b), \(c), \(d))"
        case let .penner(p): return "CAMediaTimingFunction(\(p.rawValue))"
        case let .steps(n, pos): return "CAMediaTimingFunction.steps(\(n), .\(pos))"
        }
    }

    // MARK: - Cubic Bézier

    /// Finds s in [0, 1] with x(s) = `x`, then returns y(s).
    ///
    /// x(s) = 3(1−s)²s·c1x + 3(1−s)s²·c2x + s³ is non-decreasing when both control x lie in
    /// [0, 1], so [0, 1] always brackets the root. Newton steps are taken while they stay inside
    /// the shrinking bracket, bisection otherwise; it stops when x(s) hits the target exactly or
    /// the step or bracket falls below 1e-14, i.e. far below the 1e-6 Core Animation needs.
    static func solveBezier(x: Double, _ c1x: Double, _ c1y: Double, _ c2x: Double, _ c2y: Double) -> Double {
        if x == 0 { return 0 }
        if x == 1 { return 1 }
        if c1x == c1y && c2x == c2y { return x }  // the straight line y = x
        // Power-basis coefficients: f(s) = ((a·s + b)·s + c)·s.
        let ax = 1 + 3 * c1x - 3 * c2x, bx = 3 * c2x - 6 * c1x, cx = 3 * c1x
        let ay = 1 + 3 * c1y - 3 * c2y, by = 3 * c2y - 6 * c1y, cy = 3 * c1y
        var lo = 0.0, hi = 1.0, s = x
        for _ in 0..<100 {
            let f = ((ax * s + bx) * s + cx) * s - x
            if f == 0 { break }
            if f < 0 { lo = s } else { hi = s }
            let slope = (3 * ax * s + 2 * bx) * s + cx
            var next = 0.5 * (lo + hi)
            if slope > 0 {
                let newton = s - f / slope
                if newton > lo && newton < hi { next = newton }
            }
            let step = abs(next - s)
            s = next
            if step <= 1e-14 || hi - lo <= 1e-14 { break }
        }
        return ((ay * s + by) * s + cy) * s
    }

    // MARK: - Steps

    /// CSS Easing Level 1 step evaluation (without the "before flag", which only matters when
    /// playing backwards across 0 and never arises for clamped progress).
    static func step(_ t: Double, _ n: Int, _ position: StepPosition) -> Double {
        let jumps: Int
        switch position {
        case .jumpStart, .jumpEnd: jumps = n
        case .jumpNone: jumps = n - 1
        case .jumpBoth: jumps = n + 1
        }
        var current = Int((t * Double(n)).rounded(.down))
        if position == .jumpStart || position == .jumpBoth { current += 1 }
        current = min(max(current, 0), jumps)
        return Double(current) / Double(jumps)
    }
}
