// `CGMutablePath` and the builder that keeps a path's invariants while it grows (shared with
// `CGPath`'s initialisers); arcs, ellipses and rounded corners become cubic Béziers here.
import Foundation
import Synchronization

// @unchecked: only because its superclass is; the elements live in a Mutex.
/// A path that can be extended; Apple's Swift spellings, with an optional `transform` applied to
/// the points of each call.
///
/// A segment added while the path has no current point is ignored (Core Graphics logs "no
/// current point" and does the same). A segment added after `closeSubpath()` starts a new
/// subpath at the closed one's start, with an explicit move element.
///
/// ```swift
/// let path = CGMutablePath()
/// path.move(to: CGPoint(x: 0, y: 100))
/// path.addQuadCurve(to: CGPoint(x: 200, y: 100), control: CGPoint(x: 100, y: 0))
/// shapeLayer.path = path
/// ```
public final class CGMutablePath: CGPath, @unchecked Sendable {
    private let builder: Mutex<PathBuilder>

    override init(_validatedElements elements: [CGPathElement]) {
        var b = PathBuilder()
        for e in elements { b.append(e) }
        builder = Mutex(b)
        super.init(_validatedElements: [])
    }

    /// An empty mutable path.
    public convenience init() {
        self.init(_validatedElements: [])
    }

    private func mutate(_ body: (inout PathBuilder) -> Void) {
        builder.withCheckedLock { body(&$0) }
    }

    private func read<R: Sendable>(_ body: (PathBuilder) -> R) -> R {
        builder.withCheckedLock { body($0) }
    }

    /// The path's elements in order (a snapshot).
    public override var elements: [CGPathElement] { read { $0.elements } }

    /// The point where the next segment would start; `.zero` for an empty path.
    public override var currentPoint: CGPoint { read { $0.current ?? .zero } }

    /// True when the path has no elements.
    public override var isEmpty: Bool { read { $0.elements.isEmpty } }

    /// Starts a new subpath at `point`.
    public func move(to point: CGPoint, transform: CGAffineTransform = .identity) {
        mutate { $0.move(point.applying(transform)) }
    }

    /// Adds a straight segment from the current point to `point`.
    public func addLine(to point: CGPoint, transform: CGAffineTransform = .identity) {
        mutate { $0.line(point.applying(transform)) }
    }

    /// Starts a subpath at the first point and adds lines through the rest (nothing if empty).
    public func addLines(between points: [CGPoint], transform: CGAffineTransform = .identity) {
        guard let first = points.first else { return }
        mutate { b in
            b.move(first.applying(transform))
            for p in points.dropFirst() { b.line(p.applying(transform)) }
        }
    }

    /// Adds a quadratic Bézier from the current point to `end`.
    public func addQuadCurve(to end: CGPoint, control: CGPoint, transform: CGAffineTransform = .identity) {
        mutate { $0.quad(control.applying(transform), end.applying(transform)) }
    }

    /// Adds a cubic Bézier from the current point to `end`.
    public func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint,
                         transform: CGAffineTransform = .identity) {
        mutate { $0.curve(control1.applying(transform), control2.applying(transform), end.applying(transform)) }
    }

    /// Adds a circular arc, preceded by a line from the current point to the arc's start (or a
    /// move when there is no current point).
    ///
    /// `clockwise` has Core Graphics' meaning, which refers to the y-up mathematical convention:
    /// `clockwise: false` sweeps increasing angles, `clockwise: true` decreasing ones. In
    /// Strata's y-down space that makes `clockwise: true` turn **counter-clockwise on screen**
    /// (`BezierPath`/UIKit's `clockwise` is the on-screen meaning and passes `!clockwise` here).
    /// The sweep is the angle from `startAngle` to `endAngle` in the chosen direction, in
    /// (0, 2π]; equal angles draw nothing, a difference that is a non-zero multiple of 2π or
    /// larger than 2π draws a full circle. Stored as cubics of at most 90° each.
    public func addArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat,
                       clockwise: Bool, transform: CGAffineTransform = .identity) {
        let sweep = arcSweep(from: startAngle, to: endAngle, decreasing: clockwise)
        mutate { $0.arc(center: center, radius: radius, start: startAngle, sweep: sweep, transform) }
    }

    /// Adds an arc of `radius` tangent to the line from the current point to `tangent1End` and
    /// to the line from `tangent1End` to `tangent2End`, preceded by a line to the first tangent
    /// point (Core Graphics' `addArc(tangent1End:tangent2End:radius:)`, canvas `arcTo`).
    /// Collinear points or a zero radius add a line to `tangent1End`.
    public func addArc(tangent1End: CGPoint, tangent2End: CGPoint, radius: CGFloat,
                       transform: CGAffineTransform = .identity) {
        mutate { $0.tangentArc(tangent1End, tangent2End, radius, transform) }
    }

    /// Adds an arc starting at `startAngle` and sweeping `delta` radians (positive: increasing
    /// angles, clockwise on screen in y-down space), preceded by a line from the current point.
    public func addRelativeArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, delta: CGFloat,
                               transform: CGAffineTransform = .identity) {
        mutate { $0.arc(center: center, radius: radius, start: startAngle, sweep: delta, transform) }
    }

    /// Adds a closed rectangle: move to (minX, minY), then (maxX, minY), (maxX, maxY), (minX, maxY).
    public func addRect(_ rect: CGRect, transform: CGAffineTransform = .identity) {
        mutate { $0.addRect(rect, transform) }
    }

    /// Adds each rectangle as a closed subpath.
    public func addRects(_ rects: [CGRect], transform: CGAffineTransform = .identity) {
        mutate { b in for r in rects { b.addRect(r, transform) } }
    }

    /// Adds a closed ellipse inscribed in `rect`: four quarter cubics starting at (maxX, midY) and
    /// running through (midX, maxY), i.e. increasing angles (clockwise on screen in y-down space).
    public func addEllipse(in rect: CGRect, transform: CGAffineTransform = .identity) {
        mutate { $0.addEllipse(rect, transform) }
    }

    /// Adds a closed rounded rectangle starting at (minX + cornerWidth, minY) and running clockwise
    /// on screen; radii larger than half a side are clamped (Apple traps instead).
    public func addRoundedRect(in rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat,
                               transform: CGAffineTransform = .identity) {
        let r = CGSize(width: cornerWidth, height: cornerHeight)
        mutate { $0.addRoundedRect(rect, topLeft: r, topRight: r, bottomRight: r, bottomLeft: r, transform) }
    }

    /// Adds a rounded rectangle with its own radii per corner (top = visual top, y-down).
    func addRoundedRect(_ rect: CGRect, topLeft: CGSize, topRight: CGSize, bottomRight: CGSize,
                         bottomLeft: CGSize, transform: CGAffineTransform = .identity) {
        mutate { $0.addRoundedRect(rect, topLeft: topLeft, topRight: topRight,
                                   bottomRight: bottomRight, bottomLeft: bottomLeft, transform) }
    }

    /// Appends the elements of `path`, mapped through `transform`.
    public func addPath(_ path: CGPath, transform: CGAffineTransform = .identity) {
        let other = path.elements
        mutate { b in for e in other { b.append(e.applying(transform)) } }
    }

    /// Closes the current subpath with a line back to its start; nothing if already closed or empty.
    public func closeSubpath() {
        mutate { $0.close() }
    }
}


/// The mutable state of a path under construction; shared by `CGPath` initialisers and
/// `CGMutablePath`.
struct PathBuilder {
    var elements: [CGPathElement] = []
    /// nil while the path has no current point.
    var current: CGPoint?
    var subpathStart = CGPoint.zero
    /// The last subpath is closed: a following segment must first move to `subpathStart`.
    var closed = false

    /// `4/3·tan(π/8)`: the control-point distance of a quarter-circle cubic of radius 1.
    static let quarterArcKappa: CGFloat = 4.0 / 3.0 * tan(CGFloat.pi / 8)

    mutating func append(_ e: CGPathElement) {
        switch e {
        case .moveToPoint(let p): move(p)
        case .addLineToPoint(let p): line(p)
        case .addQuadCurveToPoint(let c, let p): quad(c, p)
        case .addCurveToPoint(let c1, let c2, let p): curve(c1, c2, p)
        case .closeSubpath: close()
        }
    }

    mutating func move(_ p: CGPoint) {
        elements.append(.moveToPoint(p))
        current = p
        subpathStart = p
        closed = false
    }

    private mutating func beginSegment() -> Bool {
        guard current != nil else { return false }
        if closed {
            elements.append(.moveToPoint(subpathStart))
            closed = false
        }
        return true
    }

    mutating func line(_ p: CGPoint) {
        guard beginSegment() else { return }
        elements.append(.addLineToPoint(p))
        current = p
    }

    mutating func quad(_ c: CGPoint, _ p: CGPoint) {
        guard beginSegment() else { return }
        elements.append(.addQuadCurveToPoint(c, p))
        current = p
    }

    mutating func curve(_ c1: CGPoint, _ c2: CGPoint, _ p: CGPoint) {
        guard beginSegment() else { return }
        elements.append(.addCurveToPoint(c1, c2, p))
        current = p
    }

    mutating func close() {
        guard current != nil, !closed else { return }
        elements.append(.closeSubpath)
        current = subpathStart
        closed = true
    }

    /// Moves to `p` when there is no current point, else adds a line to it unless already there.
    private mutating func connect(to p: CGPoint) {
        guard let c = current else { move(p); return }
        if abs(c.x - p.x) > 1e-9 || abs(c.y - p.y) > 1e-9 { line(p) }
    }

    /// A circular arc of `sweep` radians from `start`, in ≤ 90° cubic pieces with control points
    /// at `4/3·tan(φ/4)·r` along the tangents (the midpoint of each piece lies on the circle).
    mutating func arc(center: CGPoint, radius r: CGFloat, start: CGFloat, sweep: CGFloat,
                      _ t: CGAffineTransform) {
        func at(_ a: CGFloat) -> CGPoint { CGPoint(x: center.x + r * cos(a), y: center.y + r * sin(a)) }
        connect(to: at(start).applying(t))
        guard sweep != 0, sweep.isFinite, r.isFinite else { return }
        let n = max(1, Int((abs(sweep) / (CGFloat.pi / 2) - 1e-9).rounded(.up)))
        let phi = sweep / CGFloat(n)
        let k = 4.0 / 3.0 * tan(phi / 4) * r
        var a0 = start
        for i in 1...n {
            let a1 = i == n ? start + sweep : start + phi * CGFloat(i)
            let p0 = at(a0), p3 = at(a1)
            let c1 = CGPoint(x: p0.x - k * sin(a0), y: p0.y + k * cos(a0))
            let c2 = CGPoint(x: p3.x + k * sin(a1), y: p3.y - k * cos(a1))
            curve(c1.applying(t), c2.applying(t), p3.applying(t))
            a0 = a1
        }
    }

    mutating func tangentArc(_ t1: CGPoint, _ t2: CGPoint, _ r: CGFloat, _ t: CGAffineTransform) {
        guard let cur = current else { return }
        // Work in the caller's (untransformed) space; a singular transform leaves only the line.
        guard t.a * t.d - t.b * t.c != 0 else { line(t1.applying(t)); return }
        let p0 = t.isIdentity ? cur : cur.applying(t.inverted())
        let u1 = CGPoint(x: p0.x - t1.x, y: p0.y - t1.y), u2 = CGPoint(x: t2.x - t1.x, y: t2.y - t1.y)
        let l1 = distance(.zero, u1), l2 = distance(.zero, u2)
        let cross = u1.x * u2.y - u1.y * u2.x
        guard r > 0, l1 > 0, l2 > 0, abs(cross) > 1e-12 * l1 * l2 else { line(t1.applying(t)); return }
        let v1 = CGPoint(x: u1.x / l1, y: u1.y / l1), v2 = CGPoint(x: u2.x / l2, y: u2.y / l2)
        let cosTheta = max(-1, min(1, v1.x * v2.x + v1.y * v2.y))
        let theta = acos(cosTheta)                  // the corner's inner angle at t1
        let d = r / tan(theta / 2)                  // t1 to each tangent point
        let bis = CGPoint(x: v1.x + v2.x, y: v1.y + v2.y)
        let bl = distance(.zero, bis)
        let h = r / sin(theta / 2)                  // t1 to the centre
        let center = CGPoint(x: t1.x + bis.x / bl * h, y: t1.y + bis.y / bl * h)
        let a = CGPoint(x: t1.x + v1.x * d, y: t1.y + v1.y * d)
        let startAngle = atan2(a.y - center.y, a.x - center.x)
        // Heading turns from −v1 to v2; the arc turns the same way.
        let turn = (-v1.x) * v2.y - (-v1.y) * v2.x
        let sweep = (turn > 0 ? 1 : -1) * (CGFloat.pi - theta)
        arc(center: center, radius: r, start: startAngle, sweep: sweep, t)
    }

    mutating func addRect(_ rect: CGRect, _ t: CGAffineTransform) {
        let r = rect.standardized
        move(CGPoint(x: r.minX, y: r.minY).applying(t))
        line(CGPoint(x: r.maxX, y: r.minY).applying(t))
        line(CGPoint(x: r.maxX, y: r.maxY).applying(t))
        line(CGPoint(x: r.minX, y: r.maxY).applying(t))
        close()
    }

    /// A quarter ellipse from `p0` to `p3` whose tangents meet at the corner `q`.
    private mutating func quarter(_ p0: CGPoint, _ q: CGPoint, _ p3: CGPoint, _ t: CGAffineTransform) {
        let k = Self.quarterArcKappa
        let c1 = CGPoint(x: p0.x + k * (q.x - p0.x), y: p0.y + k * (q.y - p0.y))
        let c2 = CGPoint(x: p3.x + k * (q.x - p3.x), y: p3.y + k * (q.y - p3.y))
        curve(c1.applying(t), c2.applying(t), p3.applying(t))
    }

    mutating func addEllipse(_ rect: CGRect, _ t: CGAffineTransform) {
        let r = rect.standardized
        let right = CGPoint(x: r.maxX, y: r.midY), bottom = CGPoint(x: r.midX, y: r.maxY)
        let left = CGPoint(x: r.minX, y: r.midY), top = CGPoint(x: r.midX, y: r.minY)
        move(right.applying(t))
        quarter(right, CGPoint(x: r.maxX, y: r.maxY), bottom, t)
        quarter(bottom, CGPoint(x: r.minX, y: r.maxY), left, t)
        quarter(left, CGPoint(x: r.minX, y: r.minY), top, t)
        quarter(top, CGPoint(x: r.maxX, y: r.minY), right, t)
        close()
    }

    mutating func addRoundedRect(_ rect: CGRect, topLeft: CGSize, topRight: CGSize, bottomRight: CGSize,
                                 bottomLeft: CGSize, _ t: CGAffineTransform) {
        let r = rect.standardized
        func clamp(_ s: CGSize) -> CGSize {
            CGSize(width: max(0, min(s.width, r.width / 2)), height: max(0, min(s.height, r.height / 2)))
        }
        let tl = clamp(topLeft), tr = clamp(topRight), br = clamp(bottomRight), bl = clamp(bottomLeft)
        func rounded(_ s: CGSize) -> Bool { s.width > 0 && s.height > 0 }
        var last = CGPoint(x: r.minX + (rounded(tl) ? tl.width : 0), y: r.minY)
        move(last.applying(t))
        func lineTo(_ p: CGPoint) {
            if p != last { line(p.applying(t)); last = p }
        }
        func corner(_ s: CGSize, _ q: CGPoint, _ from: CGPoint, _ to: CGPoint) {
            guard rounded(s) else { lineTo(q); return }
            lineTo(from)
            quarter(from, q, to, t)
            last = to
        }
        corner(tr, CGPoint(x: r.maxX, y: r.minY),
               CGPoint(x: r.maxX - tr.width, y: r.minY), CGPoint(x: r.maxX, y: r.minY + tr.height))
        corner(br, CGPoint(x: r.maxX, y: r.maxY),
               CGPoint(x: r.maxX, y: r.maxY - br.height), CGPoint(x: r.maxX - br.width, y: r.maxY))
        corner(bl, CGPoint(x: r.minX, y: r.maxY),
               CGPoint(x: r.minX + bl.width, y: r.maxY), CGPoint(x: r.minX, y: r.maxY - bl.height))
        if rounded(tl) {
            corner(tl, CGPoint(x: r.minX, y: r.minY),
                   CGPoint(x: r.minX, y: r.minY + tl.height), CGPoint(x: r.minX + tl.width, y: r.minY))
        }
        close()
    }
}

/// The signed sweep from `start` to `end` going the given way, in (0, 2π] (0 when equal).
fileprivate func arcSweep(from start: CGFloat, to end: CGFloat, decreasing: Bool) -> CGFloat {
    let twoPi = 2 * CGFloat.pi
    var d = decreasing ? start - end : end - start
    if d == 0 { return 0 }
    if d >= twoPi {
        d = twoPi
    } else if d < 0 {
        d = d.truncatingRemainder(dividingBy: twoPi) + twoPi
    }
    return decreasing ? -d : d
}
