// Easing in the declarative model: Core Animation's named functions, cubic Béziers, Strata's
// Penner set, steps, and springs (Core Animation's CASpringAnimation, by perceptual duration and
// bounce as SwiftUI describes them, or by physical parameters).
import Foundation

/// How an animation moves from its start to its end.
public enum TimingCurve: Codable, Hashable, Sendable {
    /// The most steps a `steps` curve may have (more cannot be told apart from a smooth ramp).
    public static let maximumSteps = 1_000_000

    /// A named curve: Core Animation's (`linear`, `easeIn`, `easeOut`, `easeInEaseOut`, `default`)
    /// or Strata's Penner set (`easeInCubic`, `easeOutBack`, `easeInOutElastic`, …).
    case named(String)
    /// A cubic Bézier through (0, 0), (x1, y1), (x2, y2), (1, 1) (CSS's `cubic-bezier`).
    case bezier(Double, Double, Double, Double)
    /// `n` equal jumps (at the end of each step).
    case steps(Int)
    /// A spring that settles in about `duration` seconds; `bounce` 0 settles without overshoot,
    /// 0.3 bounces gently, up to 1.
    case spring(duration: Double, bounce: Double)
    /// A spring by its physics (mass 1 unless given).
    case physicalSpring(mass: Double, stiffness: Double, damping: Double, initialVelocity: Double)

    /// Constant speed.
    public static let linear = TimingCurve.named(CAMediaTimingFunctionName.linear.rawValue)
    /// Slow at the start (Core Animation's `easeIn`).
    public static let easeIn = TimingCurve.named(CAMediaTimingFunctionName.easeIn.rawValue)
    /// Slow at the end (Core Animation's `easeOut`).
    public static let easeOut = TimingCurve.named(CAMediaTimingFunctionName.easeOut.rawValue)
    /// Slow at both ends (Core Animation's `easeInEaseOut`).
    public static let easeInOut = TimingCurve.named(CAMediaTimingFunctionName.easeInEaseOut.rawValue)
    /// Core Animation's `default` curve (a gentle ease in and out).
    public static let `default` = TimingCurve.named(CAMediaTimingFunctionName.`default`.rawValue)
    /// A gentle spring (0.5 s, bounce 0.2).
    public static let spring = TimingCurve.spring(duration: 0.5, bounce: 0.2)
    /// One of Robert Penner's easing curves, `.named(.easeOutBack)` (StrataCore's `PennerCurve`,
    /// the list CAMediaTimingFunction knows).
    public static func named(_ penner: PennerCurve) -> TimingCurve { .named(penner.rawValue) }

    public init(from decoder: Decoder) throws {
        if let c = try? decoder.singleValueContainer(), let name = try? c.decode(String.self) {
            if name == "spring" { self = .spring; return }
            if name.hasPrefix("steps("), name.hasSuffix(")"), let n = Int(name.dropFirst(6).dropLast()), abs(n) <= Self.maximumSteps {
                self = .steps(n); return
            }
            self = .named(name); return
        }
        let k = try decoder.container(keyedBy: Keys.self)
        if let b = try k.decodeIfPresent([Double].self, forKey: .bezier) {
            guard b.count == 4 else {
                throw DecodingError.dataCorruptedError(forKey: .bezier, in: k, debugDescription: "expected 4 numbers [x1, y1, x2, y2]")
            }
            self = .bezier(b[0], b[1], b[2], b[3]); return
        }
        if let n = try k.decodeIfPresent(Double.self, forKey: .steps) {
            // Read as a number first: 1e300 steps would not fit an Int (a trap, or an error
            // without the key's path).
            guard n == n.rounded(), abs(n) <= Double(Self.maximumSteps) else {
                throw DecodingError.dataCorruptedError(forKey: .steps, in: k, debugDescription: "expected a whole number of steps in 1…\(Self.maximumSteps), got \(PropertyValue.number(n))")
            }
            self = .steps(Int(n)); return
        }
        if let s = try k.decodeIfPresent(SpringKeys.self, forKey: .spring) {
            if let stiffness = s.stiffness {
                self = .physicalSpring(mass: s.mass ?? 1, stiffness: stiffness, damping: s.damping ?? 10,
                                       initialVelocity: s.initialVelocity ?? 0)
            } else {
                self = .spring(duration: s.duration ?? 0.5, bounce: s.bounce ?? 0.2)
            }
            return
        }
        throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
            debugDescription: "expected a curve name (\"easeOut\"), {\"bezier\": [x1, y1, x2, y2]}, {\"steps\": n} or {\"spring\": {…}}"))
    }

    public func encode(to encoder: Encoder) throws {
        switch self {
        case .named(let n):
            var c = encoder.singleValueContainer(); try c.encode(n)
        case .steps(let n):
            var k = encoder.container(keyedBy: Keys.self); try k.encode(n, forKey: .steps)
        case .bezier(let a, let b, let c2, let d):
            var k = encoder.container(keyedBy: Keys.self); try k.encode([a, b, c2, d], forKey: .bezier)
        case .spring(let d, let b):
            var k = encoder.container(keyedBy: Keys.self)
            try k.encode(SpringKeys(duration: d, bounce: b), forKey: .spring)
        case .physicalSpring(let m, let s, let d, let v):
            var k = encoder.container(keyedBy: Keys.self)
            try k.encode(SpringKeys(mass: m, stiffness: s, damping: d, initialVelocity: v), forKey: .spring)
        }
    }

    private enum Keys: String, CodingKey { case bezier, steps, spring }
    private struct SpringKeys: Codable {
        var duration: Double?, bounce: Double?, mass: Double?, stiffness: Double?, damping: Double?, initialVelocity: Double?
    }

    /// Whether the curve is a spring (made with CASpringAnimation).
    public var isSpring: Bool {
        switch self { case .spring, .physicalSpring: true; default: false }
    }
}
