// A keyframe animation as the evaluator sees it: values (or a path), key times, per-interval
// timing functions and the calculation mode, resolved once when the animation is added. Given
// the fraction of the animation (after its own timing function) it returns the value and, for
// `rotationMode`, the direction of travel.
import Foundation

/// How a keyframe animation moves between its values (Core Animation's calculation modes).
public struct CAAnimationCalculationMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Straight interpolation between consecutive values (the default).
    public static let linear = CAAnimationCalculationMode(rawValue: "linear")
    /// Each value in turn, with no interpolation; `keyTimes` has one more entry than `values`.
    public static let discrete = CAAnimationCalculationMode(rawValue: "discrete")
    /// Constant speed through the values; `keyTimes` and `timingFunctions` are ignored.
    public static let paced = CAAnimationCalculationMode(rawValue: "paced")
    /// A Kochanek–Bartels (Catmull-Rom by default) spline through the values.
    public static let cubic = CAAnimationCalculationMode(rawValue: "cubic")
    /// The cubic spline travelled at constant speed; `keyTimes` and `timingFunctions` are ignored.
    public static let cubicPaced = CAAnimationCalculationMode(rawValue: "cubicPaced")
}

/// The Objective-C spelling of `CAAnimationCalculationMode.linear`, for ported code.
public let kCAAnimationLinear = CAAnimationCalculationMode.linear
/// The Objective-C spelling of `CAAnimationCalculationMode.discrete`, for ported code.
public let kCAAnimationDiscrete = CAAnimationCalculationMode.discrete
/// The Objective-C spelling of `CAAnimationCalculationMode.paced`, for ported code.
public let kCAAnimationPaced = CAAnimationCalculationMode.paced
/// The Objective-C spelling of `CAAnimationCalculationMode.cubic`, for ported code.
public let kCAAnimationCubic = CAAnimationCalculationMode.cubic
/// The Objective-C spelling of `CAAnimationCalculationMode.cubicPaced`, for ported code.
public let kCAAnimationCubicPaced = CAAnimationCalculationMode.cubicPaced

/// Whether a layer moving along a keyframe path turns to follow it.
public struct CAAnimationRotationMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The layer turns to the path's tangent.
    public static let rotateAuto = CAAnimationRotationMode(rawValue: "auto")
    /// The layer turns to the path's tangent plus 180°.
    public static let rotateAutoReverse = CAAnimationRotationMode(rawValue: "autoReverse")
}

/// The Objective-C spelling of `CAAnimationRotationMode.rotateAuto`, for ported code.
public let kCAAnimationRotateAuto = CAAnimationRotationMode.rotateAuto
/// The Objective-C spelling of `CAAnimationRotationMode.rotateAutoReverse`, for ported code.
public let kCAAnimationRotateAutoReverse = CAAnimationRotationMode.rotateAutoReverse

/// The frozen, checked form of a `CAKeyframeAnimation` (a class: evaluation passes it around
/// every frame, and a reference is cheaper to hand on than its arrays).
public final class KeyframeCurve: Sendable {
    /// The calculation mode the curve evaluates (`CAAnimationCalculationMode`'s, as an enum).
    public enum Mode: Sendable, Equatable {
        /// Straight-line interpolation between neighbouring values.
        case linear
        /// Each value held until the next key time; no interpolation.
        case discrete
        /// Linear, at constant speed over the whole animation.
        case paced
        /// A Kochanek–Bartels spline through the values.
        case cubic
        /// The spline, at constant speed.
        case cubicPaced
    }

    let mode: Mode
    /// Extra turn added to the tangent angle (0 for rotateAuto, π for rotateAutoReverse); nil
    /// when the layer does not turn.
    let rotationOffset: Double?
    /// The keyframe values (for a path: its start point and the end of every interval).
    let values: [AnimatableValue]
    /// Where each keyframe starts in 0…1 (discrete: one more entry than values).
    let keyTimes: [Double]
    /// One per interval; nil entries are linear.
    let timingFunctions: [CAMediaTimingFunction?]
    /// Cubic segments, one per interval, when the values are vectors and need geometry.
    let track: KeyframeTrack?
    /// Arc lengths over `track` in the paced modes.
    let arcLengths: ArcLengthTable?
    /// True when values between keyframes come from `track` (a path, or a cubic spline); false
    /// when they interpolate directly and the track only gives the direction for rotationMode.
    let followsTrack: Bool
    /// `last − first`, added per completed cycle when the animation is cumulative.
    let cycleSpan: AnimatableValue?

    /// A curve through `values` (already converted to the property's kind).
    /// Invalid `keyTimes` (wrong count, not ascending, outside 0…1, or not starting at 0 and ending
    /// at 1 where the mode needs it) are ignored and the values spread evenly, as Apple documents.
    init(values: [AnimatableValue], keyTimes: [Double]?, timingFunctions: [CAMediaTimingFunction]?,
         mode: Mode, tension: [Double], continuity: [Double], bias: [Double], rotationOffset: Double?) {
        let n = values.count
        var mode = mode
        var times = KeyframeCurve.resolveKeyTimes(keyTimes, count: n, discrete: mode == .discrete)
        var functions: [CAMediaTimingFunction?] = (timingFunctions ?? []).map { $0 }
        var track: KeyframeTrack?
        var arcs: ArcLengthTable?
        let vectors = KeyframeCurve.vectorComponents(values)
        switch mode {
        case .paced, .cubicPaced:
            functions = []
            times = KeyframeCurve.evenTimes(n)
            if mode == .cubicPaced, let vectors, n > 2 {
                let t = KeyframeTrack.kochanekBartels(through: vectors, times: times, tension: tension,
                                                      continuity: continuity, bias: bias)
                track = t
                arcs = ArcLengthTable(t)
            } else {
                // Straight lines at constant speed: key times proportional to distance.
                mode = .paced
                times = KeyframeCurve.pacedTimes(values)
                if rotationOffset != nil, let vectors { track = .lines(through: vectors) }
            }
        case .cubic:
            if let vectors, n > 2 {
                track = .kochanekBartels(through: vectors, times: times, tension: tension,
                                         continuity: continuity, bias: bias)
            } else {
                mode = .linear
                if rotationOffset != nil, let vectors { track = .lines(through: vectors) }
            }
        case .linear, .discrete:
            if rotationOffset != nil, let vectors { track = .lines(through: vectors) }
        }
        self.mode = mode
        self.rotationOffset = rotationOffset
        self.values = values
        self.keyTimes = times
        self.timingFunctions = functions
        self.track = track
        self.arcLengths = arcs
        self.followsTrack = mode == .cubic || mode == .cubicPaced
        self.cycleSpan = n >= 2 ? AnimatableValue.subtract(values[n - 1], values[0]) : nil
    }

    /// A curve along a path (for point properties). Linear and cubic modes give every interval
    /// of the path its share of time (`keyTimes`, or evenly) and move along the interval's own
    /// curve by its parameter; the paced modes travel the whole path at constant speed.
    init(path: CGPath, keyTimes: [Double]?, timingFunctions: [CAMediaTimingFunction]?, mode: Mode,
         rotationOffset: Double?) {
        let (track, points) = KeyframeTrack.fromPath(path)
        let values = points.map { AnimatableValue.point($0) }
        let n = values.count
        self.mode = mode
        self.rotationOffset = rotationOffset
        self.values = values
        self.track = track
        self.followsTrack = true
        switch mode {
        case .paced, .cubicPaced:
            self.keyTimes = KeyframeCurve.evenTimes(n)
            self.timingFunctions = []
            self.arcLengths = ArcLengthTable(track)
        default:
            self.keyTimes = KeyframeCurve.resolveKeyTimes(keyTimes, count: n, discrete: mode == .discrete)
            self.timingFunctions = (timingFunctions ?? []).map { $0 }
            self.arcLengths = nil
        }
        self.cycleSpan = n >= 2 ? AnimatableValue.subtract(values[n - 1], values[0]) : nil
    }

    // MARK: Evaluation

    /// The value at fraction `f` of the animation (after the animation's own timing function),
    /// and the direction of travel plus the rotation mode's offset when the layer turns.
    func sample(_ f: Double) -> (value: AnimatableValue, angle: Double?)? {
        let n = values.count
        guard n > 0 else { return nil }
        if n == 1 { return (values[0], nil) }
        let f = min(max(f, 0), 1)
        switch mode {
        case .discrete:
            let i = discreteIndex(f)
            var angle: Double?
            if let offset = rotationOffset, let track, !track.segments.isEmpty {
                let seg = min(i, track.segments.count - 1)
                angle = track.tangentAngle(segment: seg, at: i < track.segments.count ? 0 : 1).map { $0 + offset }
            }
            return (values[i], angle)
        case .paced where arcLengths != nil, .cubicPaced where arcLengths != nil:
            let track = self.track!, arcs = arcLengths!
            let (j, s) = arcs.locate(f * arcs.total, in: track)
            return point(on: track, segment: j, at: s)
        default:
            let (i, s0) = interval(at: f)
            var s = s0
            if i < timingFunctions.count, let tf = timingFunctions[i] { s = tf.evaluate(s) }
            if followsTrack, let track, i < track.segments.count {
                return point(on: track, segment: i, at: s)
            }
            let v = AnimatableValue.interpolate(values[i], values[i + 1], s)
            var angle: Double?
            if let offset = rotationOffset, let track, i < track.segments.count {
                angle = track.tangentAngle(segment: i, at: s).map { $0 + offset }
            }
            return (v, angle)
        }
    }

    private func point(on track: KeyframeTrack, segment j: Int, at s: Double) -> (value: AnimatableValue, angle: Double?) {
        let c = track.segments[j].point(s)
        let v = values[0].withComponents(c)
        let angle = rotationOffset.flatMap { offset in track.tangentAngle(segment: j, at: s).map { $0 + offset } }
        return (v, angle)
    }

    /// The interval i (0…n−2) containing f and the fraction of the way through it.
    private func interval(at f: Double) -> (Int, Double) {
        let n = values.count
        if f >= keyTimes[n - 1] { return (n - 2, 1) }
        if f <= keyTimes[0] { return (0, 0) }
        var i = 0, lo = 0, hi = n - 2
        while lo <= hi {
            let mid = (lo + hi) / 2
            if keyTimes[mid] <= f { i = mid; lo = mid + 1 } else { hi = mid - 1 }
        }
        let width = keyTimes[i + 1] - keyTimes[i]
        return (i, width > 0 ? (f - keyTimes[i]) / width : 1)
    }

    /// The value shown at f in discrete mode: value i from keyTimes[i] until keyTimes[i + 1].
    /// (The last of the first n key times that is ≤ f, found by bisection: the key times
    /// ascend, so those ≤ f come first. A keyframe animation through one value a frame has
    /// hundreds.)
    private func discreteIndex(_ f: Double) -> Int {
        let n = values.count
        // Invariant: keyTimes[k] <= f for every k < lo (or lo == 0), and not for any k >= hi.
        var lo = 0, hi = n
        while lo < hi {
            let mid = (lo + hi) / 2
            if keyTimes[mid] <= f { lo = mid + 1 } else { hi = mid }
        }
        return min(max(lo - 1, 0), n - 1)
    }

    // MARK: Key times

    static func evenTimes(_ n: Int) -> [Double] {
        n <= 1 ? [0] : (0..<n).map { Double($0) / Double(n - 1) }
    }

    /// Key times for `count` values: the given ones when valid, else evenly spread. Discrete mode
    /// takes `count + 1` entries (value i shows from entry i to entry i + 1) or `count` entries
    /// (the last value shows from its entry to the end); evenly, each value shows 1/count.
    static func resolveKeyTimes(_ given: [Double]?, count n: Int, discrete: Bool) -> [Double] {
        func valid(_ k: [Double]) -> Bool {
            guard let first = k.first, let last = k.last, first >= 0, last <= 1 else { return false }
            return zip(k, k.dropFirst()).allSatisfy { $0 <= $1 }
        }
        if discrete {
            if let k = given, (k.count == n + 1 || k.count == n), valid(k), k[0] == 0 {
                return k.count == n + 1 ? k : k + [1]
            }
            return (0...n).map { Double($0) / Double(max(n, 1)) }
        }
        if let k = given, k.count == n, valid(k), k[0] == 0, k[n - 1] == 1 { return k }
        return evenTimes(n)
    }

    /// Key times proportional to the distance travelled (paced mode over straight intervals).
    static func pacedTimes(_ values: [AnimatableValue]) -> [Double] {
        var lengths: [Double] = [0]
        for (a, b) in zip(values, values.dropFirst()) { lengths.append(lengths[lengths.count - 1] + AnimatableValue.distance(a, b)) }
        guard let total = lengths.last, total > 0 else { return evenTimes(values.count) }
        return lengths.map { $0 / total }
    }

    /// The values as component vectors of one length, or nil when they are not all vectors.
    static func vectorComponents(_ values: [AnimatableValue]) -> [[Double]]? {
        var out: [[Double]] = []
        for v in values {
            guard let c = v.components, c.count == (out.first?.count ?? c.count) else { return nil }
            out.append(c)
        }
        return out
    }
}
