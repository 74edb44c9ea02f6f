// Offset path (`op`): every point of a contour moves `amount` along its normal — outwards for a
// positive amount, whichever way a closed contour runs, as After Effects grows a shape; an
// open contour becomes the outline `amount` either side of it (as lottie-web draws it).
// lottie-spec 1.0 gives no formula; this follows After Effects' and lottie-web's results:
// - each segment is cut into pieces (a line is one, a curve eight) and each piece offset with
//   its handles kept parallel and scaled with its chord, exact for circular arcs;
// - where the offset pieces of two segments leave a gap (the outer side of a corner) the line
//   join fills it: miter (the tangents' intersection, a bevel past the miter limit, which is
//   a multiple of the amount as a stroke's is of its half width), round (a circular arc of
//   radius |amount| about the vertex, one cubic a quarter turn) or bevel (a straight line);
// - where they overlap (the inner side) both are cut where they cross (found on their
//   flattened pieces; left joined by a line where they do not cross).
import Foundation
import Strata

extension LottieBezier {
    /// The contour offset by `amount` with the line join `join` (1 miter, 2 round, 3 bevel) and
    /// `miterLimit`; nil when nothing is left (a contour of no length).
    func offset(by amount: Double, join: Int, miterLimit: Double) -> LottieBezier? {
        let segs = segments.filter { !($0.p3 - $0.p0).isNearlyZero || !($0.c1 - $0.p0).isNearlyZero || !($0.c2 - $0.p3).isNearlyZero }
        guard !segs.isEmpty, amount.isFinite else { return self }
        let loop: [Cubic], k: Double
        if closed {
            loop = segs
            k = Self.signedArea(segs) >= 0 ? amount : -amount
        } else {
            loop = segs + segs.reversed().map { Cubic(p0: $0.p3, c1: $0.c2, c2: $0.c1, p3: $0.p0) }
            k = abs(amount)
        }
        // Each segment's offset pieces.
        var pieces: [[Cubic]] = loop.map { s in
            let curved = !(s.c1 - s.p0).isNearlyZero || !(s.c2 - s.p3).isNearlyZero
            let n = curved ? 8 : 1
            return (0..<n).map { i in Self.offsetPiece(s.split(Double(i) / Double(n), Double(i + 1) / Double(n)), k) }
        }
        var joins: [[Cubic]] = Array(repeating: [], count: loop.count)
        for i in loop.indices {
            let j = (i + 1) % loop.count
            let vertex = loop[i].p3
            let dIn = loop[i].direction(1), dOut = loop[j].direction(0)
            var before = pieces[i][pieces[i].count - 1], after = pieces[j][0]
            let e = before.p3, s = after.p0
            if (s - e).length < 1e-6 {
                after = Cubic(p0: e, c1: after.c1 + (e - s), c2: after.c2, p3: after.p3)
            } else if k * Self.cross(dIn, dOut) > 1e-9 || Self.dot(dIn, dOut) < -0.9999 {
                // A gap: the outer side of a corner, or an open contour's end (a half turn).
                joins[i] = Self.join(from: e, to: s, around: vertex, dIn, dOut, radius: abs(k), kind: join, miterLimit: miterLimit)
            } else if let (tb, ta) = Self.crossing(before, after) {
                // A straight piece stays a line with its handles on its ends.
                before = before.isStraight ? Self.line(before.p0, before.point(tb)) : before.split(0, tb)
                after = after.isStraight ? Self.line(after.point(ta), after.p3) : after.split(ta, 1)
                after = Cubic(p0: before.p3, c1: after.isStraight ? before.p3 : after.c1 + (before.p3 - after.p0), c2: after.c2, p3: after.p3)
            } else {
                joins[i] = [Self.line(e, s)]
            }
            pieces[i][pieces[i].count - 1] = before
            pieces[j][0] = after
        }
        var cubics: [Cubic] = []
        for i in loop.indices { cubics += pieces[i] + joins[i] }
        var out = LottieBezier(cubics: cubics)
        // Closed: the last cubic ends where the first begins; its end handle goes to vertex 0.
        if out.vertices.count > 1 {
            out.inTangents[0] = out.inTangents[out.vertices.count - 1] + (out.vertices[out.vertices.count - 1] - out.vertices[0])
            out.vertices.removeLast(); out.inTangents.removeLast(); out.outTangents.removeLast()
        }
        out.closed = true
        return out
    }

    static func dot(_ a: CGPoint, _ b: CGPoint) -> Double { a.x * b.x + a.y * b.y }
    static func cross(_ a: CGPoint, _ b: CGPoint) -> Double { a.x * b.y - a.y * b.x }

    /// Twice the signed area of the polygon through each segment's points at eighths of it:
    /// positive when the contour runs clockwise on screen (y down).
    static func signedArea(_ segs: [Cubic]) -> Double {
        var points: [CGPoint] = []
        for s in segs { for i in 0..<8 { points.append(s.point(Double(i) / 8)) } }
        var sum = 0.0
        for i in points.indices { sum += cross(points[i], points[(i + 1) % points.count]) }
        return sum
    }

    /// The left-hand normal in y-down coordinates (outwards on a clockwise contour).
    static func normal(_ d: CGPoint) -> CGPoint { CGPoint(x: d.y, y: -d.x) }

    /// One short piece offset by `k`: its ends moved along their normals, its handles kept
    /// parallel and scaled by how much its chord grew.
    static func offsetPiece(_ c: Cubic, _ k: Double) -> Cubic {
        let p0 = c.p0 + normal(c.direction(0)) * k, p3 = c.p3 + normal(c.direction(1)) * k
        let chord = (c.p3 - c.p0).length
        let ratio = chord > 1e-9 ? (p3 - p0).length / chord : 1
        return Cubic(p0: p0, c1: p0 + (c.c1 - c.p0) * ratio, c2: p3 + (c.c2 - c.p3) * ratio, p3: p3)
    }

    static func line(_ a: CGPoint, _ b: CGPoint) -> Cubic { Cubic(p0: a, c1: a, c2: b, p3: b) }

    /// The cubics filling the gap from `e` (leaving along `dIn`) to `s` (arriving along `dOut`)
    /// on the outer side of the corner at `vertex`.
    static func join(from e: CGPoint, to s: CGPoint, around vertex: CGPoint, _ dIn: CGPoint, _ dOut: CGPoint,
                     radius: Double, kind: Int, miterLimit: Double) -> [Cubic] {
        switch kind {
        case 1:
            // The tangent lines' intersection, if the miter is no longer than the limit allows.
            let denominator = cross(dIn, dOut)
            if abs(denominator) > 1e-9 {
                let t = cross(s - e, dOut) / denominator
                let x = e + dIn * t
                if t > 0, radius > 0, (x - vertex).length / radius <= miterLimit { return [line(e, x), line(x, s)] }
            }
            return [line(e, s)]
        case 2:
            // An arc about the vertex, cut into quarter turns at most.
            let a0 = atan2(e.y - vertex.y, e.x - vertex.x)
            var sweep = atan2(s.y - vertex.y, s.x - vertex.x) - a0
            // The short way round; half a turn (an open contour's end) goes the way `dIn` leads.
            while sweep > .pi { sweep -= 2 * .pi }
            while sweep < -.pi { sweep += 2 * .pi }
            if abs(abs(sweep) - .pi) < 1e-6 { sweep = cross(e - vertex, dIn) >= 0 ? .pi : -.pi }
            guard abs(sweep) > 1e-9, sweep.isFinite else { return [line(e, s)] }
            let n = max(1, Int((abs(sweep) / (.pi / 2)).rounded(.up)))
            let step = sweep / Double(n)
            let h = 4.0 / 3.0 * tan(step / 4) * radius
            var out: [Cubic] = []
            for i in 0..<n {
                let a = a0 + step * Double(i), b = a + step
                let p = CGPoint(x: vertex.x + radius * cos(a), y: vertex.y + radius * sin(a))
                let q = CGPoint(x: vertex.x + radius * cos(b), y: vertex.y + radius * sin(b))
                out.append(Cubic(p0: p, c1: p + CGPoint(x: -sin(a), y: cos(a)) * h, c2: q - CGPoint(x: -sin(b), y: cos(b)) * h, p3: q))
            }
            out[0].p0 = e
            out[n - 1].p3 = s
            return out
        default:
            return [line(e, s)]
        }
    }

    /// Where the end of `before` crosses the start of `after` (each flattened into 16 chords):
    /// the parameters on each, or nil.
    static func crossing(_ before: Cubic, _ after: Cubic) -> (Double, Double)? {
        let n = 16
        // A straight piece is flattened by length (its parameter does not travel evenly).
        func flat(_ c: Cubic) -> [CGPoint] {
            (0...n).map { c.isStraight ? c.p0 + (c.p3 - c.p0) * (Double($0) / Double(n)) : c.point(Double($0) / Double(n)) }
        }
        func parameter(_ c: Cubic, _ x: Double) -> Double { c.isStraight ? Cubic.straightParameter(x) : x }
        let b = flat(before), a = flat(after)
        // Nearest the joint first: before's chords from its end, after's from its start.
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in 0..<n {
                let r = b[i + 1] - b[i], q = a[j + 1] - a[j]
                let d = cross(r, q)
                guard abs(d) > 1e-12 else { continue }
                let t = cross(a[j] - b[i], q) / d, u = cross(a[j] - b[i], r) / d
                if t >= 0 && t <= 1 && u >= 0 && u <= 1 {
                    return (parameter(before, (Double(i) + t) / Double(n)), parameter(after, (Double(j) + u) / Double(n)))
                }
            }
        }
        return nil
    }
}
