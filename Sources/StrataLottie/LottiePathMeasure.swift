// Lengths along a Lottie path, for the expressions that ask for a point a fraction of the way
// along it (`pointOnPath`, `tangentOnPath`, `normalOnPath`): each cubic segment measured by a
// table of chords, as `SpatialCurve` measures a motion path, the fraction turned into a
// segment and a parameter by the tables.
import Foundation
import Strata

struct LottiePathMeasure {
    /// A segment's four control points.
    private struct Segment {
        var p0: CGPoint, p1: CGPoint, p2: CGPoint, p3: CGPoint

        func point(_ t: Double) -> CGPoint {
            let u = 1 - t
            let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
            return CGPoint(x: a * p0.x + b * p1.x + c * p2.x + d * p3.x, y: a * p0.y + b * p1.y + c * p2.y + d * p3.y)
        }

        /// The derivative at t (direction of travel); where it vanishes (a handle on its
        /// vertex), the chord towards the next control point that differs.
        func derivative(_ t: Double) -> CGPoint {
            let u = 1 - t
            let x = 3 * u * u * (p1.x - p0.x) + 6 * u * t * (p2.x - p1.x) + 3 * t * t * (p3.x - p2.x)
            let y = 3 * u * u * (p1.y - p0.y) + 6 * u * t * (p2.y - p1.y) + 3 * t * t * (p3.y - p2.y)
            if x * x + y * y > 1e-18 { return CGPoint(x: x, y: y) }
            let a = point(max(t - 1e-4, 0)), b = point(min(t + 1e-4, 1))
            return CGPoint(x: b.x - a.x, y: b.y - a.y)
        }
    }

    private var segments: [Segment] = []
    /// Each segment's table: the length from the segment's start at t = k / steps.
    private var tables: [[Double]] = []
    private var start: CGPoint?
    static let steps = 64

    init(_ path: LottieBezier) {
        let v = path.vertices
        start = v.first
        guard v.count > 1 else { return }
        let n = v.count
        let ends = (1..<n).map { ($0 - 1, $0) } + (path.closed ? [(n - 1, 0)] : [])
        for (a, b) in ends {
            let s = Segment(p0: v[a], p1: CGPoint(x: v[a].x + path.outTangents[a].x, y: v[a].y + path.outTangents[a].y),
                            p2: CGPoint(x: v[b].x + path.inTangents[b].x, y: v[b].y + path.inTangents[b].y), p3: v[b])
            var table = [0.0]
            table.reserveCapacity(Self.steps + 1)
            var previous = s.p0, length = 0.0
            for k in 1...Self.steps {
                let p = s.point(Double(k) / Double(Self.steps))
                length += Double(hypot(p.x - previous.x, p.y - previous.y))
                table.append(length)
                previous = p
            }
            segments.append(s)
            tables.append(table)
        }
    }

    /// The point `fraction` (0…1) of the path's length from its start, with the unit tangent
    /// there ((0, 0) where the path has no length); nil for a path without points.
    func point(atFraction fraction: Double) -> (CGPoint, CGPoint)? {
        guard let start else { return nil }
        let total = tables.reduce(0) { $0 + ($1.last ?? 0) }
        guard total > 0 else { return (start, .zero) }
        var target = fraction * total
        var index = segments.count - 1
        for (i, table) in tables.enumerated() {
            let length = table[table.count - 1]
            if target <= length || i == tables.count - 1 { index = i; break }
            target -= length
        }
        let table = tables[index]
        target = min(max(target, 0), table[table.count - 1])
        var lo = 0, hi = table.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if table[mid] <= target { lo = mid } else { hi = mid }
        }
        let w = table[hi] > table[lo] ? (target - table[lo]) / (table[hi] - table[lo]) : 0
        let t = (Double(lo) + w) / Double(Self.steps)
        let s = segments[index]
        let d = s.derivative(t)
        let m = Double(hypot(d.x, d.y))
        return (s.point(t), m > 0 ? CGPoint(x: Double(d.x) / m, y: Double(d.y) / m) : .zero)
    }
}
