// The geometry Strata needs from a path without rasterising it: bounding boxes, flattening to
// polylines, length, fill-rule hit tests, and the curve math behind them.
import Foundation

extension CGPath {
    /// The smallest rectangle holding every point of the path, Bézier control points included;
    /// `CGRect.null` for an empty path.
    public var boundingBox: CGRect {
        var box = BoundsAccumulator()
        for e in elements {
            for p in e.points { box.add(p) }
        }
        return box.rect
    }

    /// The smallest rectangle holding the path's drawn geometry: curve extrema instead of
    /// control points; `CGRect.null` for an empty path.
    public var boundingBoxOfPath: CGRect {
        var box = BoundsAccumulator()
        walkSegments { segment in
            switch segment {
            case .move(let p): box.add(p)
            case .line(_, let p): box.add(p)
            case .cubic(let p0, let c1, let c2, let p3):
                box.add(p3)
                // (Visited, not collected: the bounds of a shape are taken every frame it is drawn.)
                forEachCubicExtremum(p0.x, c1.x, c2.x, p3.x) { box.add(cubicPoint(p0, c1, c2, p3, $0)) }
                forEachCubicExtremum(p0.y, c1.y, c2.y, p3.y) { box.add(cubicPoint(p0, c1, c2, p3, $0)) }
            }
        }
        return box.rect
    }

    // MARK: Geometry

    /// One subpath flattened to straight segments.
    public struct Polyline: Hashable, Sendable {
        /// The vertices in drawing order; a closed polyline does not repeat its first point
        /// (unless the subpath itself returned there before closing).
        public var points: [CGPoint]
        /// True when the subpath was closed, so a segment joins the last point to the first.
        public var isClosed: Bool

        /// A polyline through `points`, closed back to the first point when `isClosed`.
        public init(points: [CGPoint], isClosed: Bool) {
            self.points = points
            self.isClosed = isClosed
        }

        /// The total length of the segments, including the closing one.
        public var length: CGFloat {
            guard points.count > 1 else { return 0 }
            var sum: CGFloat = 0
            for i in 1..<points.count { sum += distance(points[i - 1], points[i]) }
            if isClosed { sum += distance(points[points.count - 1], points[0]) }
            return sum
        }
    }

    /// The path as one polyline per subpath, no vertex of a curve's chords more than `tolerance`
    /// from the curve. A subpath made of a lone move is left out.
    ///
    /// Curves are cut into equal parameter steps, their count from Wang's bound
    /// `n = ⌈√(d(d−1)/8 · M / tolerance)⌉` (M: largest second difference of the control points).
    public func flattened(tolerance: CGFloat = 0.1) -> [Polyline] {
        let tol = max(tolerance, 1e-9)
        var result: [Polyline] = []
        var current: [CGPoint] = []
        var hasSegment = false
        func finish(closed: Bool) {
            if hasSegment || closed, !current.isEmpty {
                result.append(Polyline(points: current, isClosed: closed))
            }
            current = []
            hasSegment = false
        }
        walkSegments { segment in
            switch segment {
            case .move(let p):
                finish(closed: false)
                current = [p]
            case .line(_, let p):
                current.append(p); hasSegment = true
            case .cubic(let p0, let c1, let c2, let p3):
                let n = cubicSteps(p0, c1, c2, p3, tolerance: tol)
                for i in 1...n {
                    current.append(i == n ? p3 : cubicPoint(p0, c1, c2, p3, CGFloat(i) / CGFloat(n)))
                }
                hasSegment = true
            }
        } close: {
            finish(closed: true)
        }
        finish(closed: false)
        return result
    }

    /// The arc length of everything the path strokes (closing segments included).
    ///
    /// Lines are exact; curves are integrated with adaptive Gauss–Legendre quadrature to a
    /// relative error far below 1e-9, independent of the path's scale.
    public var length: CGFloat {
        var sum: CGFloat = 0
        var start = CGPoint.zero
        var last = CGPoint.zero
        walkSegments { segment in
            switch segment {
            case .move(let p): start = p; last = p
            case .line(let a, let p): sum += distance(a, p); last = p
            case .cubic(let p0, let c1, let c2, let p3):
                sum += cubicLength(p0, c1, c2, p3); last = p3
            }
        } close: {
            sum += distance(last, start)
            last = start
        }
        return sum
    }

    /// Whether filling the path (after `transform`) with `rule` would paint `point`; open
    /// subpaths count as closed, as when filling. Curves are flattened finely for the test.
    public func contains(_ point: CGPoint, using rule: CGPathFillRule = .winding,
                         transform: CGAffineTransform = .identity) -> Bool {
        let path = transform.isIdentity ? self : applying(transform)
        let box = path.boundingBox
        guard !box.isNull, point.x >= box.minX, point.x <= box.maxX,
              point.y >= box.minY, point.y <= box.maxY else { return false }
        let tol = max(max(box.width, box.height) * 1e-5, 1e-9)
        var winding = 0
        for line in path.flattened(tolerance: tol) {
            let pts = line.points
            guard pts.count > 1 else { continue }
            for i in 0..<pts.count {
                let a = pts[i], b = pts[(i + 1) % pts.count]
                let side = (b.x - a.x) * (point.y - a.y) - (point.x - a.x) * (b.y - a.y)
                if a.y <= point.y {
                    if b.y > point.y, side > 0 { winding += 1 }
                } else if b.y <= point.y, side < 0 {
                    winding -= 1
                }
            }
        }
        switch rule {
        case .winding: return winding != 0
        case .evenOdd: return winding % 2 != 0
        }
    }

    // MARK: Walking

    /// A drawn piece of a path with its start point resolved; quads arrive degree-elevated.
    fileprivate enum Segment {
        case move(CGPoint)
        case line(CGPoint, CGPoint)
        case cubic(CGPoint, CGPoint, CGPoint, CGPoint)
    }

    /// Visits the segments of the path with their start points; closing lines are reported
    /// through `close` (so callers can tell them from ordinary lines).
    fileprivate func walkSegments(_ body: (Segment) -> Void, close: () -> Void = {}) {
        var start = CGPoint.zero
        var last = CGPoint.zero
        for e in elements {
            switch e {
            case .moveToPoint(let p):
                start = p; last = p; body(.move(p))
            case .addLineToPoint(let p):
                body(.line(last, p)); last = p
            case .addQuadCurveToPoint(let c, let p):
                let c1 = CGPoint(x: last.x + 2 / 3 * (c.x - last.x), y: last.y + 2 / 3 * (c.y - last.y))
                let c2 = CGPoint(x: p.x + 2 / 3 * (c.x - p.x), y: p.y + 2 / 3 * (c.y - p.y))
                body(.cubic(last, c1, c2, p)); last = p
            case .addCurveToPoint(let c1, let c2, let p):
                body(.cubic(last, c1, c2, p)); last = p
            case .closeSubpath:
                close(); last = start
            }
        }
    }
}

func distance(_ a: CGPoint, _ b: CGPoint) -> CGFloat {
    let dx = b.x - a.x, dy = b.y - a.y
    return (dx * dx + dy * dy).squareRoot()
}

fileprivate func cubicPoint(_ p0: CGPoint, _ c1: CGPoint, _ c2: CGPoint, _ p3: CGPoint, _ t: CGFloat) -> CGPoint {
    let s = 1 - t
    let w0 = s * s * s, w1 = 3 * s * s * t, w2 = 3 * s * t * t, w3 = t * t * t
    return CGPoint(x: w0 * p0.x + w1 * c1.x + w2 * c2.x + w3 * p3.x,
                   y: w0 * p0.y + w1 * c1.y + w2 * c2.y + w3 * p3.y)
}

/// Calls `body` with each parameter in (0, 1) where one coordinate of a cubic has zero derivative.
fileprivate func forEachCubicExtremum(_ p0: CGFloat, _ c1: CGFloat, _ c2: CGFloat, _ p3: CGFloat, _ body: (CGFloat) -> Void) {
    func visit(_ t: CGFloat) { if t > 0 && t < 1 { body(t) } }
    // B'(t)/3 = A t² + B t + C
    let a = p3 - 3 * c2 + 3 * c1 - p0
    let b = 2 * (c2 - 2 * c1 + p0)
    let c = c1 - p0
    let scale = max(abs(a), abs(b), abs(c))
    guard scale > 0 else { return }
    if abs(a) <= 1e-12 * scale {
        if b != 0 { visit(-c / b) }
    } else {
        let disc = b * b - 4 * a * c
        if disc >= 0 {
            let sq = disc.squareRoot()
            // Numerically stable pair of roots.
            let q = -0.5 * (b + (b < 0 ? -sq : sq))
            visit(q / a)
            if q != 0 { visit(c / q) }
        }
    }
}

/// Wang's bound on the number of equal parameter steps keeping chords within `tolerance`.
fileprivate func cubicSteps(_ p0: CGPoint, _ c1: CGPoint, _ c2: CGPoint, _ p3: CGPoint, tolerance: CGFloat) -> Int {
    let d1 = distance(.zero, CGPoint(x: p0.x - 2 * c1.x + c2.x, y: p0.y - 2 * c1.y + c2.y))
    let d2 = distance(.zero, CGPoint(x: c1.x - 2 * c2.x + p3.x, y: c1.y - 2 * c2.y + p3.y))
    let m = max(d1, d2)
    let n = (0.75 * m / tolerance).squareRoot().rounded(.up)
    guard n.isFinite else { return 1 }
    return min(max(Int(n), 1), 4096)
}

/// Arc length of a cubic by adaptive 8-point Gauss–Legendre quadrature of |B'(t)|.
fileprivate func cubicLength(_ p0: CGPoint, _ c1: CGPoint, _ c2: CGPoint, _ p3: CGPoint) -> CGFloat {
    // B'(t) = 3[(1−t)²(c1−p0) + 2(1−t)t(c2−c1) + t²(p3−c2)]
    let ax = c1.x - p0.x, ay = c1.y - p0.y
    let bx = c2.x - c1.x, by = c2.y - c1.y
    let cx = p3.x - c2.x, cy = p3.y - c2.y
    func speed(_ t: Double) -> Double {
        let s = 1 - t
        let dx = 3 * (s * s * Double(ax) + 2 * s * t * Double(bx) + t * t * Double(cx))
        let dy = 3 * (s * s * Double(ay) + 2 * s * t * Double(by) + t * t * Double(cy))
        return (dx * dx + dy * dy).squareRoot()
    }
    func gauss(_ a: Double, _ b: Double) -> Double {
        let half = (b - a) / 2, mid = (a + b) / 2
        var sum = 0.0
        for (x, w) in gaussLegendre8 {
            sum += w * (speed(mid - half * x) + speed(mid + half * x))
        }
        return sum * half
    }
    let net = Double(distance(p0, c1) + distance(c1, c2) + distance(c2, p3))
    guard net > 0 else { return 0 }
    let eps = net * 1e-13
    func adapt(_ a: Double, _ b: Double, _ whole: Double, _ depth: Int) -> Double {
        let m = (a + b) / 2
        let left = gauss(a, m), right = gauss(m, b)
        if depth >= 18 || abs(left + right - whole) <= eps { return left + right }
        return adapt(a, m, left, depth + 1) + adapt(m, b, right, depth + 1)
    }
    return CGFloat(adapt(0, 1, gauss(0, 1), 0))
}

/// Positive nodes and weights of the 8-point Gauss–Legendre rule on [−1, 1].
private let gaussLegendre8: [(Double, Double)] = [
    (0.1834346424956498, 0.3626837833783620),
    (0.5255324099163290, 0.3137066458778873),
    (0.7966664774136267, 0.2223810344533745),
    (0.9602898564975363, 0.1012285362903763),
]

/// Accumulates a bounding rectangle.
fileprivate struct BoundsAccumulator {
    var minX = CGFloat.infinity, minY = CGFloat.infinity
    var maxX = -CGFloat.infinity, maxY = -CGFloat.infinity

    mutating func add(_ p: CGPoint) {
        minX = min(minX, p.x); minY = min(minY, p.y)
        maxX = max(maxX, p.x); maxY = max(maxY, p.y)
    }

    var rect: CGRect {
        guard minX <= maxX else { return .null }
        return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}
