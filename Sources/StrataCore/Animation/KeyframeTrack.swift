// The geometry under keyframe animations: a track of cubic Bézier segments in n dimensions
// (one per keyframe interval), built from a CGPath, from straight lines between values, or from a
// Kochanek–Bartels spline through them; and an arc-length table over a track for the paced
// modes. Hands `KeyframeCurve` a point (and its tangent) for an interval and a parameter, or for
// a distance along the whole track.
import Foundation

/// One interval of a keyframe track: a cubic Bézier in n dimensions. Lines and quadratics are
/// stored as their exact cubic equivalents, which keeps their parameterisation (a line's point
/// moves uniformly with the parameter, as Core Animation's linear keyframes do).
struct CubicSegment: Sendable {
    var p0: [Double], c1: [Double], c2: [Double], p1: [Double]

    init(_ p0: [Double], _ c1: [Double], _ c2: [Double], _ p1: [Double]) {
        self.p0 = p0; self.c1 = c1; self.c2 = c2; self.p1 = p1
    }

    static func line(_ a: [Double], _ b: [Double]) -> CubicSegment {
        CubicSegment(a, zip(a, b).map { $0 + ($1 - $0) / 3 }, zip(a, b).map { $0 + 2 * ($1 - $0) / 3 }, b)
    }

    static func quad(_ a: [Double], _ c: [Double], _ b: [Double]) -> CubicSegment {
        CubicSegment(a, zip(a, c).map { $0 + 2 * ($1 - $0) / 3 }, zip(b, c).map { $0 + 2 * ($1 - $0) / 3 }, b)
    }

    /// The point at parameter s ∈ [0, 1].
    func point(_ s: Double) -> [Double] {
        let u = 1 - s
        let b0 = u * u * u, b1 = 3 * u * u * s, b2 = 3 * u * s * s, b3 = s * s * s
        var out = [Double](repeating: 0, count: p0.count)
        for k in 0..<p0.count { out[k] = b0 * p0[k] + b1 * c1[k] + b2 * c2[k] + b3 * p1[k] }
        return out
    }

    /// dB/ds at s.
    func derivative(_ s: Double) -> [Double] {
        let u = 1 - s
        let d0 = 3 * u * u, d1 = 6 * u * s, d2 = 3 * s * s
        var out = [Double](repeating: 0, count: p0.count)
        for k in 0..<p0.count { out[k] = d0 * (c1[k] - p0[k]) + d1 * (c2[k] - c1[k]) + d2 * (p1[k] - c2[k]) }
        return out
    }

    /// |dB/ds| at s (the speed along the segment per unit of parameter).
    func speed(_ s: Double) -> Double {
        let u = 1 - s
        let d0 = 3 * u * u, d1 = 6 * u * s, d2 = 3 * s * s
        var sum = 0.0
        for k in 0..<p0.count {
            let d = d0 * (c1[k] - p0[k]) + d1 * (c2[k] - c1[k]) + d2 * (p1[k] - c2[k])
            sum += d * d
        }
        return sum.squareRoot()
    }

    /// True when all four control points coincide (a zero-length interval).
    var isDegenerate: Bool { p0 == c1 && c1 == c2 && c2 == p1 }
}

/// The cubic segments of a keyframe animation, one per interval between keyframes.
struct KeyframeTrack: Sendable {
    var segments: [CubicSegment]

    /// The direction of travel at (segment, s) as an angle in radians (atan2 of y over x of the
    /// first two components), looking a little further along when the derivative vanishes (a
    /// Bézier whose control point sits on its end) and at neighbouring segments when a whole
    /// segment has no length (a `closeSubpath` back onto the start). nil when nothing moves.
    func tangentAngle(segment i: Int, at s: Double) -> Double? {
        func angle(_ d: [Double]) -> Double? {
            guard d.count >= 2, abs(d[0]) + abs(d[1]) > 1e-12 else { return nil }
            return atan2(d[1], d[0])
        }
        let seg = segments[i]
        if let a = angle(seg.derivative(s)) { return a }
        let h = 1e-4
        let a = seg.point(max(0, s - h)), b = seg.point(min(1, s + h))
        if let r = angle(zip(a, b).map { $1 - $0 }) { return r }
        if let r = angle(zip(seg.p0, seg.p1).map { $1 - $0 }) { return r }
        // A segment without length: keep the heading of the nearest moving segment.
        for j in stride(from: i - 1, through: 0, by: -1) {
            if let r = angle(segments[j].derivative(1)) { return r }
        }
        for j in (i + 1)..<segments.count {
            if let r = angle(segments[j].derivative(0)) { return r }
        }
        return nil
    }

    // MARK: Builders

    /// The track of a path: every line-to, quad-curve-to, curve-to and close-subpath element is one
    /// interval (a close is a line back to the subpath's start); move-to elements start the next
    /// interval elsewhere and define no keyframe of their own (Apple's documented rule).
    /// Returns the track and the keyframe points (the path's start, then each interval's end).
    static func fromPath(_ path: CGPath) -> (KeyframeTrack, [CGPoint]) {
        func v(_ p: CGPoint) -> [Double] { [Double(p.x), Double(p.y)] }
        var segments: [CubicSegment] = []
        var points: [CGPoint] = []
        var current: CGPoint?
        var subpathStart: CGPoint?
        for element in path.elements {
            switch element {
            case .moveToPoint(let p):
                current = p; subpathStart = p
                if points.isEmpty { points.append(p) }
            case .addLineToPoint(let p):
                let from = current ?? p
                if points.isEmpty { points.append(from) }
                segments.append(.line(v(from), v(p))); points.append(p); current = p
            case .addQuadCurveToPoint(let c, let p):
                let from = current ?? c
                if points.isEmpty { points.append(from) }
                segments.append(.quad(v(from), v(c), v(p))); points.append(p); current = p
            case .addCurveToPoint(let c1, let c2, let p):
                let from = current ?? c1
                if points.isEmpty { points.append(from) }
                segments.append(CubicSegment(v(from), v(c1), v(c2), v(p))); points.append(p); current = p
            case .closeSubpath:
                guard let from = current, let start = subpathStart else { continue }
                segments.append(.line(v(from), v(start))); points.append(start); current = start
            }
        }
        return (KeyframeTrack(segments: segments), points)
    }

    /// Straight lines between consecutive component vectors.
    static func lines(through points: [[Double]]) -> KeyframeTrack {
        KeyframeTrack(segments: zip(points, points.dropFirst()).map { CubicSegment.line($0, $1) })
    }

    /// A Kochanek–Bartels spline through `points` (Catmull-Rom when tension, continuity and bias
    /// are all 0), in the standard form:
    ///
    ///     out_i = (1−t)(1+b)(1+c)/2 · (P_i − P_i−1) + (1−t)(1−b)(1−c)/2 · (P_i+1 − P_i)
    ///     in_i  = (1−t)(1+b)(1−c)/2 · (P_i − P_i−1) + (1−t)(1−b)(1+c)/2 · (P_i+1 − P_i)
    ///
    /// With uneven key times the tangents are scaled by 2·Δ_i / (Δ_i−1 + Δ_i) (outgoing) and
    /// 2·Δ_i−1 / (Δ_i−1 + Δ_i) (incoming), so the velocity in time stays continuous across a key.
    /// Ends: the end point is repeated (P_−1 = P_0, P_n = P_n−1), except when the first and last
    /// values are equal and there are more than two: the spline is then closed, so a repeating
    /// loop has no kink where it wraps. Apple does not document its end conditions; this is
    /// Strata's choice.
    static func kochanekBartels(through points: [[Double]], times: [Double],
                                tension: [Double], continuity: [Double], bias: [Double]) -> KeyframeTrack {
        let n = points.count
        guard n >= 2 else { return KeyframeTrack(segments: []) }
        let closed = n > 2 && points[0] == points[n - 1]
        func P(_ i: Int) -> [Double] {
            if closed {
                if i < 0 { return points[n - 1 + i] }
                if i > n - 1 { return points[i - (n - 1)] }
            }
            return points[min(max(i, 0), n - 1)]
        }
        func delta(_ i: Int) -> Double? {
            if i >= 0 && i < n - 1 { return times[i + 1] - times[i] }
            guard closed else { return nil }
            return i < 0 ? times[n - 1] - times[n - 2] : times[1] - times[0]
        }
        func param(_ a: [Double], _ i: Int) -> Double { i < a.count ? a[i] : 0 }
        var outgoing: [[Double]] = [], incoming: [[Double]] = []
        for i in 0..<n {
            let t = param(tension, i), c = param(continuity, i), b = param(bias, i)
            let p = P(i), prev = P(i - 1), next = P(i + 1)
            let a = zip(p, prev).map { $0 - $1 }, d = zip(next, p).map { $0 - $1 }
            let oa = (1 - t) * (1 + b) * (1 + c) / 2, od = (1 - t) * (1 - b) * (1 - c) / 2
            let ia = (1 - t) * (1 + b) * (1 - c) / 2, id = (1 - t) * (1 - b) * (1 + c) / 2
            var out = zip(a, d).map { oa * $0 + od * $1 }
            var inc = zip(a, d).map { ia * $0 + id * $1 }
            if let dp = delta(i - 1), let dn = delta(i), dp + dn > 0 {
                let so = 2 * dn / (dp + dn), si = 2 * dp / (dp + dn)
                out = out.map { $0 * so }
                inc = inc.map { $0 * si }
            }
            outgoing.append(out); incoming.append(inc)
        }
        var segments: [CubicSegment] = []
        for i in 0..<(n - 1) {
            let p0 = points[i], p1 = points[i + 1]
            segments.append(CubicSegment(p0, zip(p0, outgoing[i]).map { $0 + $1 / 3 },
                                         zip(p1, incoming[i + 1]).map { $0 - $1 / 3 }, p1))
        }
        return KeyframeTrack(segments: segments)
    }
}

/// Cumulative arc length over a track, for constant-speed (paced) keyframes: each segment is cut
/// into 16 pieces integrated with 5-point Gauss–Legendre; a distance is turned back into a
/// parameter by a binary search over the pieces and Newton steps inside one.
struct ArcLengthTable: Sendable {
    static let pieces = 16
    /// Length from the track's start to the start of each segment; the last entry is the total.
    let starts: [Double]
    /// Per segment, the length from its start at parameters k / pieces, k = 0…pieces.
    let tables: [[Double]]

    var total: Double { starts.last ?? 0 }

    private static let nodes: [Double] = [0, -0.5384693101056831, 0.5384693101056831, -0.9061798459386640, 0.9061798459386640]
    private static let weights: [Double] = [0.5688888888888889, 0.4786286704993665, 0.4786286704993665, 0.2369268850561891, 0.2369268850561891]

    static func integrate(_ seg: CubicSegment, from a: Double, to b: Double) -> Double {
        let half = (b - a) / 2, mid = (a + b) / 2
        var sum = 0.0
        for k in 0..<5 { sum += weights[k] * seg.speed(mid + half * nodes[k]) }
        return sum * half
    }

    init(_ track: KeyframeTrack) {
        var starts: [Double] = [0]
        var tables: [[Double]] = []
        for seg in track.segments {
            var table: [Double] = [0]
            if seg.isDegenerate {
                table = [Double](repeating: 0, count: Self.pieces + 1)
            } else {
                for k in 0..<Self.pieces {
                    let a = Double(k) / Double(Self.pieces), b = Double(k + 1) / Double(Self.pieces)
                    table.append(table[k] + Self.integrate(seg, from: a, to: b))
                }
            }
            tables.append(table)
            starts.append(starts[starts.count - 1] + table[Self.pieces])
        }
        self.starts = starts
        self.tables = tables
    }

    /// The segment and parameter at `distance` from the start (clamped to the track).
    /// Segments without length are never returned except when the whole track has none.
    func locate(_ distance: Double, in track: KeyframeTrack) -> (segment: Int, s: Double) {
        let n = tables.count
        guard n > 0 else { return (0, 0) }
        let d = min(max(distance, 0), total)
        if d >= total {
            // The end of the last segment that has length.
            let last = (0..<n).last(where: { starts[$0 + 1] > starts[$0] }) ?? n - 1
            return (last, 1)
        }
        // The largest j with starts[j] ≤ d; then d < starts[j + 1], so segment j has length.
        var j = 0
        var lo = 0, hi = n - 1
        while lo <= hi {
            let mid = (lo + hi) / 2
            if starts[mid] <= d { j = mid; lo = mid + 1 } else { hi = mid - 1 }
        }
        let table = tables[j], local = d - starts[j]
        var k = 0
        lo = 0; hi = Self.pieces - 1
        while lo <= hi {
            let mid = (lo + hi) / 2
            if table[mid] <= local { k = mid; lo = mid + 1 } else { hi = mid - 1 }
        }
        let h = 1 / Double(Self.pieces)
        let a = Double(k) * h
        let width = table[k + 1] - table[k]
        var s = width > 0 ? a + h * (local - table[k]) / width : a
        let seg = track.segments[j]
        let tolerance = 1e-13 * max(1, table[Self.pieces])
        for _ in 0..<8 {
            let err = table[k] + Self.integrate(seg, from: a, to: s) - local
            if abs(err) <= tolerance { break }
            let v = seg.speed(s)
            guard v > 1e-14 else { break }
            s = min(max(s - err / v, a), a + h)
        }
        return (j, s)
    }
}
