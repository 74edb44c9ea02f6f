// Path geometry the shape rasteriser needs before Cairo strokes anything: the arc-length trim
// behind `strokeStart`/`strokeEnd` (Cairo has none), and how far a stroke reaches beyond the
// path (to size the backing store). Curves stay curves: a trimmed cubic is cut exactly with de
// Casteljau's construction at the parameter where the wanted arc length falls, so a trimmed
// path zoomed 8× is as smooth as the whole one.
import Foundation
import StrataCore

/// A path split into subpaths of measured segments.
struct StrokeGeometry {
    /// A drawn piece of a subpath (quadratics arrive degree-elevated to cubics).
    enum Segment {
        case line(CGPoint, CGPoint)
        case cubic(CGPoint, CGPoint, CGPoint, CGPoint)

        var start: CGPoint {
            switch self { case .line(let a, _), .cubic(let a, _, _, _): a }
        }
        var end: CGPoint {
            switch self { case .line(_, let b), .cubic(_, _, _, let b): b }
        }
        /// The direction of travel at the start (zero for a degenerate segment).
        var startTangent: CGPoint {
            switch self {
            case .line(let a, let b): return b - a
            case .cubic(let p0, let c1, let c2, let p3):
                for q in [c1, c2, p3] where q != p0 { return q - p0 }
                return .zero
            }
        }
        /// The direction of travel at the end (zero for a degenerate segment).
        var endTangent: CGPoint {
            switch self {
            case .line(let a, let b): return b - a
            case .cubic(let p0, let c1, let c2, let p3):
                for q in [c2, c1, p0] where q != p3 { return p3 - q }
                return .zero
            }
        }
    }

    /// One subpath: its segments with their lengths, and its original elements.
    struct Subpath {
        var segments: [Segment] = []
        var lengths: [CGFloat] = []
        /// Cumulative arc-length tables of the cubic segments (nil for lines).
        var tables: [ArcLengthTable?] = []
        var isClosed = false
        /// The subpath's elements as given (move first), for drawing it whole.
        var elements: [CGPathElement] = []
        var length: CGFloat { lengths.reduce(0, +) }
    }

    /// A piece of the path left after trimming, and where it starts along its subpath (the
    /// dash pattern is offset by that much so dashes do not slide as the trim moves).
    struct Piece {
        var elements: [CGPathElement]
        var offsetInSubpath: CGFloat
    }

    let subpaths: [Subpath]
    let totalLength: CGFloat

    /// Splits `path` into subpaths; with `measuringLengths` false only the segments are kept
    /// (enough for `miterTips`, and much cheaper than tabulating the curves' arc lengths).
    init(_ path: CGPath, measuringLengths: Bool = true) {
        var list: [Subpath] = []
        var current = Subpath()
        var start = CGPoint.zero, last = CGPoint.zero
        func add(_ s: Segment) {
            current.segments.append(s)
            guard measuringLengths else { return }
            switch s {
            case .line(let a, let b):
                current.lengths.append(hypot(b.x - a.x, b.y - a.y)); current.tables.append(nil)
            case .cubic(let p0, let c1, let c2, let p3):
                let t = ArcLengthTable(p0, c1, c2, p3)
                current.lengths.append(t.total); current.tables.append(t)
            }
        }
        func finish() {
            if !current.elements.isEmpty { list.append(current) }
            current = Subpath()
        }
        for e in path.elements {
            switch e {
            case .moveToPoint(let p):
                finish()
                start = p; last = p
                current.elements = [e]
            case .addLineToPoint(let p):
                add(.line(last, p)); last = p; current.elements.append(e)
            case .addQuadCurveToPoint(let c, let p):
                let c1 = last + (c - last) * (2.0 / 3.0), c2 = p + (c - p) * (2.0 / 3.0)
                add(.cubic(last, c1, c2, p)); last = p; current.elements.append(e)
            case .addCurveToPoint(let c1, let c2, let p):
                add(.cubic(last, c1, c2, p)); last = p; current.elements.append(e)
            case .closeSubpath:
                if last != start { add(.line(last, start)) }
                current.isClosed = true
                current.elements.append(e)
                last = start
                finish()
            }
        }
        finish()
        subpaths = list
        totalLength = list.reduce(0) { $0 + $1.length }
    }

    // MARK: Trimming

    /// The pieces of the path between fractions `from` and `to` of its total length. Subpaths
    /// that lie wholly inside keep their elements (a closed one stays closed, with its join);
    /// subpaths cut by the range become open pieces, so they get caps at the cuts. Pieces of
    /// zero length are left out (no stray round-cap dots at 0).
    func trimmed(from: CGFloat, to: CGFloat) -> [Piece] {
        guard totalLength > 0, to > from else { return [] }
        let s = from * totalLength, e = to * totalLength
        let eps = max(totalLength * 1e-9, 1e-12)
        var pieces: [Piece] = []
        var base: CGFloat = 0
        for sub in subpaths {
            let len = sub.length
            defer { base += len }
            let lo = max(s, base), hi = min(e, base + len)
            guard hi - lo > eps else { continue }
            if lo <= base + eps && hi >= base + len - eps {
                pieces.append(Piece(elements: sub.elements, offsetInSubpath: 0))
                continue
            }
            pieces.append(Piece(elements: Self.cut(sub, from: lo - base, to: hi - base), offsetInSubpath: lo - base))
        }
        return pieces
    }

    /// The part of a subpath between arc lengths `a` and `b` from its start, as an open subpath.
    private static func cut(_ sub: Subpath, from a: CGFloat, to b: CGFloat) -> [CGPathElement] {
        var out: [CGPathElement] = []
        var pos: CGFloat = 0
        for (i, seg) in sub.segments.enumerated() {
            let len = sub.lengths[i]
            defer { pos += len }
            let lo = max(a, pos), hi = min(b, pos + len)
            guard hi > lo else { continue }
            switch seg {
            case .line(let p, let q):
                let f0 = len > 0 ? (lo - pos) / len : 0, f1 = len > 0 ? (hi - pos) / len : 1
                let p0 = p + (q - p) * f0, p1 = p + (q - p) * f1
                if out.isEmpty { out.append(.moveToPoint(p0)) }
                out.append(.addLineToPoint(p1))
            case .cubic(let p0, let c1, let c2, let p3):
                let table = sub.tables[i]!
                let t0 = lo - pos <= 0 ? 0 : table.parameter(atLength: lo - pos)
                let t1 = hi - pos >= len ? 1 : table.parameter(atLength: hi - pos)
                let (q0, d1, d2, q3) = subCubic(p0, c1, c2, p3, t0, t1)
                if out.isEmpty { out.append(.moveToPoint(q0)) }
                out.append(.addCurveToPoint(d1, d2, q3))
            }
        }
        return out
    }

    /// The part of a cubic between parameters `t0` and `t1` (de Casteljau, twice).
    static func subCubic(_ p0: CGPoint, _ c1: CGPoint, _ c2: CGPoint, _ p3: CGPoint,
                         _ t0: CGFloat, _ t1: CGFloat) -> (CGPoint, CGPoint, CGPoint, CGPoint) {
        // Left part [0, t1].
        func split(_ a: CGPoint, _ b: CGPoint, _ c: CGPoint, _ d: CGPoint, _ t: CGFloat)
            -> (left: (CGPoint, CGPoint, CGPoint, CGPoint), right: (CGPoint, CGPoint, CGPoint, CGPoint)) {
            let ab = a + (b - a) * t, bc = b + (c - b) * t, cd = c + (d - c) * t
            let abc = ab + (bc - ab) * t, bcd = bc + (cd - bc) * t
            let m = abc + (bcd - abc) * t
            return ((a, ab, abc, m), (m, bcd, cd, d))
        }
        let left = t1 >= 1 ? (p0, c1, c2, p3) : split(p0, c1, c2, p3, t1).left
        guard t0 > 0, t1 > 0 else { return left }
        return split(left.0, left.1, left.2, left.3, min(t0 / t1, 1)).right
    }

    // MARK: Reach

    /// The points of miter joins that stay within `miterLimit` (the only parts of a stroke that
    /// reach farther than half the line width, or half-diagonal of a square cap, from the path).
    func miterTips(lineWidth: CGFloat, miterLimit: CGFloat) -> [CGPoint] {
        var tips: [CGPoint] = []
        let half = lineWidth / 2
        for sub in subpaths {
            let segs = sub.segments.filter { $0.startTangent != .zero }
            var joins: [(Segment, Segment)] = []
            if segs.count > 1 { for i in 1..<segs.count { joins.append((segs[i - 1], segs[i])) } }
            if sub.isClosed, let first = segs.first, let last = segs.last { joins.append((last, first)) }
            for (a, b) in joins {
                let u = a.endTangent.normalized, v = b.startTangent.normalized
                // cos of the interior angle θ between the reversed incoming and the outgoing direction.
                let cosTheta = -(u.x * v.x + u.y * v.y)
                let sinHalf = ((1 - cosTheta) / 2).squareRoot()
                guard sinHalf > 1e-9 else { continue }
                let ratio = 1 / sinHalf
                guard ratio <= miterLimit else { continue }
                let out = (u - v).normalized
                tips.append(a.end + out * (half * ratio))
            }
        }
        return tips
    }
}

/// Arc length along a cubic Bézier, tabulated for inversion (length → parameter).
struct ArcLengthTable {
    static let intervals = 32
    let p0: CGPoint, c1: CGPoint, c2: CGPoint, p3: CGPoint
    /// Cumulative length at t = i / intervals.
    let cumulative: [CGFloat]
    var total: CGFloat { cumulative[cumulative.count - 1] }

    init(_ p0: CGPoint, _ c1: CGPoint, _ c2: CGPoint, _ p3: CGPoint) {
        self.p0 = p0; self.c1 = c1; self.c2 = c2; self.p3 = p3
        var acc: [CGFloat] = [0]
        acc.reserveCapacity(Self.intervals + 1)
        var sum: CGFloat = 0
        for i in 0..<Self.intervals {
            sum += Self.integrate(p0, c1, c2, p3, CGFloat(i) / CGFloat(Self.intervals), CGFloat(i + 1) / CGFloat(Self.intervals))
            acc.append(sum)
        }
        cumulative = acc
    }

    /// |B'(t)|.
    static func speed(_ p0: CGPoint, _ c1: CGPoint, _ c2: CGPoint, _ p3: CGPoint, _ t: CGFloat) -> CGFloat {
        let u = 1 - t
        let d = (c1 - p0) * (3 * u * u) + (c2 - c1) * (6 * u * t) + (p3 - c2) * (3 * t * t)
        return hypot(d.x, d.y)
    }

    /// ∫ |B'| over [a, b] with 5-point Gauss–Legendre (exact for the smooth speed of one
    /// 1/32 interval to ~1e-10 of the length except right at cusps).
    static func integrate(_ p0: CGPoint, _ c1: CGPoint, _ c2: CGPoint, _ p3: CGPoint, _ a: CGFloat, _ b: CGFloat) -> CGFloat {
        let x: [CGFloat] = [0, -0.5384693101056831, 0.5384693101056831, -0.9061798459386640, 0.9061798459386640]
        let w: [CGFloat] = [0.5688888888888889, 0.4786286704993665, 0.4786286704993665, 0.2369268850561891, 0.2369268850561891]
        let h = (b - a) / 2, m = (a + b) / 2
        var s: CGFloat = 0
        for k in 0..<5 { s += w[k] * speed(p0, c1, c2, p3, m + h * x[k]) }
        return s * h
    }

    /// The parameter t at which the arc length from the start equals `length`.
    func parameter(atLength length: CGFloat) -> CGFloat {
        guard length > 0 else { return 0 }
        guard length < total else { return 1 }
        // The interval holding the length, then Newton steps (bisection-guarded) inside it.
        var lo = 0, hi = cumulative.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if cumulative[mid] <= length { lo = mid } else { hi = mid }
        }
        let n = CGFloat(Self.intervals)
        var a = CGFloat(lo) / n, b = CGFloat(hi) / n
        let base = cumulative[lo], span = cumulative[hi] - base
        var t = a + (b - a) * (span > 0 ? (length - base) / span : 0)
        for _ in 0..<8 {
            let f = base + Self.integrate(p0, c1, c2, p3, CGFloat(lo) / n, t) - length
            if abs(f) < 1e-9 * max(total, 1) { break }
            if f > 0 { b = t } else { a = t }
            let v = Self.speed(p0, c1, c2, p3, t)
            var next = v > 1e-12 ? t - f / v : (a + b) / 2
            if next <= a || next >= b { next = (a + b) / 2 }
            t = next
        }
        return t
    }
}

extension CGPoint {
    fileprivate static func + (a: CGPoint, b: CGPoint) -> CGPoint { CGPoint(x: a.x + b.x, y: a.y + b.y) }
    fileprivate static func - (a: CGPoint, b: CGPoint) -> CGPoint { CGPoint(x: a.x - b.x, y: a.y - b.y) }
    fileprivate static func * (a: CGPoint, s: CGFloat) -> CGPoint { CGPoint(x: a.x * s, y: a.y * s) }
    /// The unit vector in this direction (zero stays zero).
    fileprivate var normalized: CGPoint {
        let l = hypot(x, y)
        return l > 0 ? CGPoint(x: x / l, y: y / l) : .zero
    }
}
