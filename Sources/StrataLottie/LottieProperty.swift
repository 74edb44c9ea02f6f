// Lottie's animatable properties: a fixed value or keyframes, each keyframe with its easing per
// dimension (`o`/`i` bezier handles), hold flag (`h`) and, for positions, spatial tangents
// (`to`/`ti`). `value(at:)` evaluates the spec's formulas directly; the compiler uses it where
// Core Animation's keyframes cannot say the same thing (per-dimension easing, curved motion
// paths, time remapping) and checks its keyframes against it in tests.
import Foundation
import Strata

/// A value that can be interpolated with a progress per dimension.
protocol LottieInterpolatable {
    func interpolated(to other: Self, _ progress: (Int) -> Double) -> Self
}

extension Array: LottieInterpolatable where Element == Double {
    func interpolated(to other: [Double], _ progress: (Int) -> Double) -> [Double] {
        var out = self
        for i in 0..<Swift.min(count, other.count) {
            let t = progress(i)
            out[i] = self[i] + (other[i] - self[i]) * t
        }
        return out
    }
}

/// One keyframe's easing towards the next: bezier handles per dimension (one entry for all).
struct LottieEasing: Equatable {
    var outX: [Double], outY: [Double], inX: [Double], inY: [Double]

    var dimensions: Int { max(outX.count, outY.count, inX.count, inY.count) }

    /// The handles of dimension `d` (the last entry when there are fewer).
    func controlPoints(_ d: Int) -> (Double, Double, Double, Double) {
        func at(_ a: [Double]) -> Double { a.isEmpty ? 0 : a[min(d, a.count - 1)] }
        // x is clamped to 0…1 as every Lottie player does; y may overshoot.
        return (min(max(at(outX), 0), 1), at(outY), min(max(at(inX), 0), 1), at(inY))
    }

    /// True when every dimension has the same handles.
    var isUniform: Bool {
        let n = dimensions
        guard n > 1 else { return true }
        let first = controlPoints(0)
        return (1..<n).allSatisfy { controlPoints($0) == first }
    }

    func timingFunction(_ d: Int) -> CAMediaTimingFunction {
        let (a, b, c, e) = controlPoints(d)
        return CAMediaTimingFunction(controlPoints: Float(a), Float(b), Float(c), Float(e))
    }
}

struct LottieKeyframe<Value> {
    var time: Double
    var value: Value
    /// Hold: the value stays until the next keyframe.
    var hold: Bool
    /// Easing towards the next keyframe (nil: linear).
    var easing: LottieEasing?
    /// Spatial tangents of the segment to the next keyframe, relative to the values (positions).
    var spatialOut: [Double]?
    var spatialIn: [Double]?

    var hasSpatialCurve: Bool {
        (spatialOut ?? []).contains { $0 != 0 } || (spatialIn ?? []).contains { $0 != 0 }
    }
}

/// A property: a fixed value or keyframes.
enum LottieAnimated<Value: LottieInterpolatable> {
    case fixed(Value)
    case keyframes([LottieKeyframe<Value>])

    var isAnimated: Bool { if case .keyframes(let k) = self { k.count > 1 } else { false } }

    var initial: Value {
        switch self {
        case .fixed(let v): v
        case .keyframes(let k): k[0].value
        }
    }

    var keyframes: [LottieKeyframe<Value>] { if case .keyframes(let k) = self { k } else { [] } }

    /// The value at a frame of the property's layer.
    func value(at frame: Double) -> Value {
        guard case .keyframes(let k) = self, k.count > 1 else { return initial }
        if frame <= k[0].time { return k[0].value }
        if frame >= k[k.count - 1].time { return k[k.count - 1].value }
        var lo = 0, hi = k.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if k[mid].time <= frame { lo = mid } else { hi = mid }
        }
        return Self.value(from: k[lo], to: k[lo + 1], at: frame)
    }

    /// The value at `frame` between keyframes `a` and `b` (the next one), on `curve` when given —
    /// `a`'s motion path segment, made once for many frames of it (`spatialCurve(from:to:)`).
    static func value(from a: LottieKeyframe<Value>, to b: LottieKeyframe<Value>, at frame: Double,
                      curve: SpatialCurve? = nil) -> Value {
        if a.hold { return a.value }
        let span = b.time - a.time
        let s = span > 0 ? (frame - a.time) / span : 1
        let eased: (Int) -> Double = { d in a.easing.map { $0.timingFunction(d).evaluate(s) } ?? s }
        if let curve = curve ?? spatialCurve(from: a, to: b), let v = curve.point(atFraction: eased(0)) as? Value { return v }
        return a.value.interpolated(to: b.value, eased)
    }

    /// The motion path segment from keyframe `a` to `b`, when `a` has spatial tangents.
    static func spatialCurve(from a: LottieKeyframe<Value>, to b: LottieKeyframe<Value>) -> SpatialCurve? {
        guard a.hasSpatialCurve, let p0 = a.value as? [Double], let p3 = b.value as? [Double] else { return nil }
        return SpatialCurve(from: p0, to: p3, out: a.spatialOut ?? [], in: a.spatialIn ?? [])
    }
}

/// A motion path segment (a cubic from one position keyframe to the next), travelled by arc length
/// as After Effects does: the easing gives the fraction of the distance.
struct SpatialCurve {
    let p0: [Double], p1: [Double], p2: [Double], p3: [Double]
    private var table: [(t: Double, length: Double)] = []

    init(from a: [Double], to b: [Double], out: [Double], in tin: [Double]) {
        let n = min(a.count, b.count)
        p0 = Array(a.prefix(n)); p3 = Array(b.prefix(n))
        p1 = (0..<n).map { a[$0] + (out.count > $0 ? out[$0] : 0) }
        p2 = (0..<n).map { b[$0] + (tin.count > $0 ? tin[$0] : 0) }
        var length = 0.0
        // Two buffers in turn instead of arrays made a step (the same operations in the same
        // order as `bezier` and a sum of squares from 0, so the same lengths).
        var previous = p0, p = p0
        let steps = 64
        table.reserveCapacity(steps + 1)
        table.append((0, 0))
        for i in 1...steps {
            let t = Double(i) / Double(steps)
            let u = 1 - t
            var squares = 0.0
            for d in 0..<n {
                p[d] = u * u * u * p0[d] + 3 * u * u * t * p1[d] + 3 * u * t * t * p2[d] + t * t * t * p3[d]
                squares += (p[d] - previous[d]) * (p[d] - previous[d])
            }
            length += squares.squareRoot()
            table.append((t, length))
            swap(&previous, &p)
        }
    }

    func bezier(_ t: Double) -> [Double] {
        let u = 1 - t
        return (0..<p0.count).map { i in
            u * u * u * p0[i] + 3 * u * u * t * p1[i] + 3 * u * t * t * p2[i] + t * t * t * p3[i]
        }
    }

    /// The point a fraction of the way along the curve by length (fractions outside 0…1, from
    /// overshooting easings, extrapolate along the end tangents' chords).
    func point(atFraction f: Double) -> [Double] {
        let total = table[table.count - 1].length
        guard total > 0 else { return p0.interpolated(to: p3) { _ in f } }
        if f <= 0 || f >= 1 {
            // Beyond the ends: continue along the first or last chord of the table.
            let (i, j) = f <= 0 ? (0, 1) : (table.count - 2, table.count - 1)
            let a = bezier(table[i].t), b = bezier(table[j].t)
            let segment = table[j].length - table[i].length
            let over = f <= 0 ? f * total : (f - 1) * total
            let base = f <= 0 ? a : b
            guard segment > 0 else { return base }
            return (0..<base.count).map { base[$0] + (b[$0] - a[$0]) / segment * over }
        }
        let target = f * total
        var lo = 0, hi = table.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if table[mid].length <= target { lo = mid } else { hi = mid }
        }
        let a = table[lo], b = table[hi]
        let w = b.length > a.length ? (target - a.length) / (b.length - a.length) : 0
        return bezier(a.t + (b.t - a.t) * w)
    }
}

// MARK: Parsing

extension LottieAnimated {
    /// Parses `{"a": 0|1, "k": …}`: a fixed value, or keyframes with `t`, `s` (or the old `e`
    /// end values), `h`, `o`/`i`, `to`/`ti`. `parse` reads one value.
    static func parse(_ node: JSONNode, _ parse: (JSONNode) throws -> Value) throws -> LottieAnimated<Value> {
        let k = try node.required("k")
        guard k.isArray, let first = try k.elements().first, first.isObject, try first.optional("t") != nil else {
            return .fixed(try parse(k))
        }
        var out: [LottieKeyframe<Value>] = []
        var previousEnd: JSONNode?
        for kf in try k.elements() {
            let time = try kf.required("t").number()
            if let last = out.last, time < last.time {
                throw kf.error("keyframe time \(time) comes before the previous keyframe's \(last.time)")
            }
            let start = try kf.optional("s") ?? previousEnd
            guard let start else {
                if out.isEmpty { throw LottieError(path: kf.path + ".s", "missing") }
                // The old format's last keyframe: only a time; its value is the previous end.
                out.append(LottieKeyframe(time: time, value: out[out.count - 1].value, hold: false))
                continue
            }
            var s = start
            // A value written as a one-element array of an object (shapes: "s": [{…}]).
            if s.isArray, let only = try? s.elements(), only.count == 1, only[0].isObject { s = only[0] }
            let value = try parse(s)
            previousEnd = try kf.optional("e").map { e in
                if e.isArray, let only = try? e.elements(), only.count == 1, only[0].isObject { return only[0] }
                return e
            }
            var frame = LottieKeyframe(time: time, value: value, hold: try kf.bool("h"))
            if let o = try kf.optional("o"), let i = try kf.optional("i") {
                frame.easing = LottieEasing(outX: try o.required("x").numbers(), outY: try o.required("y").numbers(),
                                            inX: try i.required("x").numbers(), inY: try i.required("y").numbers())
            }
            frame.spatialOut = try kf.optional("to")?.numbers()
            frame.spatialIn = try kf.optional("ti")?.numbers()
            out.append(frame)
        }
        guard !out.isEmpty else { throw k.error("expected at least one keyframe") }
        // The old format: a keyframe's end value is the next keyframe's start only through "e".
        if out.count == 1 { return .fixed(out[0].value) }
        return .keyframes(out)
    }
}

extension JSONNode {
    /// A numeric property (`{"k": 5}` or keyframes of `[5]`, at least one number); nil when absent.
    func vector(_ key: String) throws -> LottieAnimated<[Double]>? {
        guard let n = try optional(key) else { return nil }
        return try n.vectorValue()
    }

    /// This node as a numeric property.
    func vectorValue() throws -> LottieAnimated<[Double]> {
        let n = self
        guard n.isObject else { throw n.error("expected an animatable property (an object with \"k\")") }
        return try LottieAnimated.parse(n) { v in
            let numbers = try v.numbers()
            guard !numbers.isEmpty else { throw v.error("expected at least one number") }
            return numbers
        }
    }
}
