// Core Graphics paths: the immutable `CGPath`, its mutable subclass `CGMutablePath`, the element
// enum used to read them, and the geometry Strata needs from a path without rasterising it
// (bounding boxes, flattening to polylines, length, fill-rule hit tests).
//
// As in Core Graphics, arcs, ellipses and rounded corners are stored as cubic Béziers, so a
// rasteriser (Cairo) and path interpolation only ever see move / line / quad / cubic / close.
// Angles follow Core Graphics: a point at angle θ is `center + r·(cos θ, sin θ)` in the path's own
// coordinates, so in Strata's y-down space increasing angles turn clockwise on screen.
import Foundation
import Synchronization

/// The rule that decides which points a filled path covers.
public enum CGPathFillRule: Int, Sendable, Hashable {
    /// Non-zero winding number (Core Graphics' default; `CAShapeLayerFillRule.nonZero`).
    case winding = 0
    /// An odd number of boundary crossings.
    case evenOdd = 1
}

/// How the ends of stroked open subpaths are drawn (Core Graphics' `CGLineCap`).
public enum CGLineCap: Int32, Sendable, Hashable {
    /// The stroke stops at the end point.
    case butt = 0
    /// A half-circle of diameter `lineWidth` caps each end.
    case round = 1
    /// The stroke extends half of `lineWidth` beyond each end.
    case square = 2
}

/// How corners between stroked segments are drawn (Core Graphics' `CGLineJoin`).
public enum CGLineJoin: Int32, Sendable, Hashable {
    /// Sharp corners, bevelled beyond `miterLimit`.
    case miter = 0
    /// Rounded corners.
    case round = 1
    /// Corners cut off square to the bisector.
    case bevel = 2
}

/// The kind of a path element, with Core Graphics' names and raw values.
public enum CGPathElementType: Int32, Sendable, Hashable {
    /// Starts a new subpath.
    case moveToPoint = 0
    /// A straight segment.
    case addLineToPoint = 1
    /// A quadratic Bézier segment.
    case addQuadCurveToPoint = 2
    /// A cubic Bézier segment.
    case addCurveToPoint = 3
    /// Closes the current subpath with a straight segment back to its start.
    case closeSubpath = 4
}

/// One element of a path: a Swift enum in place of Core Graphics' `type` + `points` pointer struct.
///
/// The associated points come in the order of Core Graphics' `points` array: control points
/// first, end point last — `.addQuadCurveToPoint(control, end)`,
/// `.addCurveToPoint(control1, control2, end)`.
public enum CGPathElement: Hashable, Sendable {
    /// Starts a new subpath at the point.
    case moveToPoint(CGPoint)
    /// A straight segment to the point.
    case addLineToPoint(CGPoint)
    /// A quadratic Bézier: `(control, end)`.
    case addQuadCurveToPoint(CGPoint, CGPoint)
    /// A cubic Bézier: `(control1, control2, end)`.
    case addCurveToPoint(CGPoint, CGPoint, CGPoint)
    /// A straight segment back to the subpath's start, closing it.
    case closeSubpath

    /// The element's kind.
    public var type: CGPathElementType {
        switch self {
        case .moveToPoint: .moveToPoint
        case .addLineToPoint: .addLineToPoint
        case .addQuadCurveToPoint: .addQuadCurveToPoint
        case .addCurveToPoint: .addCurveToPoint
        case .closeSubpath: .closeSubpath
        }
    }

    /// The element's points in Core Graphics' order (control points, then the end point).
    public var points: [CGPoint] {
        switch self {
        case .moveToPoint(let p), .addLineToPoint(let p): [p]
        case .addQuadCurveToPoint(let c, let p): [c, p]
        case .addCurveToPoint(let c1, let c2, let p): [c1, c2, p]
        case .closeSubpath: []
        }
    }

    /// The element with every point mapped through `t`.
    public func applying(_ t: CGAffineTransform) -> CGPathElement {
        switch self {
        case .moveToPoint(let p): .moveToPoint(p.applying(t))
        case .addLineToPoint(let p): .addLineToPoint(p.applying(t))
        case .addQuadCurveToPoint(let c, let p): .addQuadCurveToPoint(c.applying(t), p.applying(t))
        case .addCurveToPoint(let c1, let c2, let p):
            .addCurveToPoint(c1.applying(t), c2.applying(t), p.applying(t))
        case .closeSubpath: .closeSubpath
        }
    }
}

/// An immutable graphics path: subpaths of lines and Bézier curves.
///
/// A plain `CGPath` never changes, so it is safe to share between threads. `CGMutablePath` is a
/// subclass (as in Apple's API, so a mutable path can be assigned wherever a `CGPath` is expected);
/// it guards its elements with a lock, but a consumer that needs a stable value should take
/// `copy()` first, as `CAShapeLayer` does.
///
/// ```swift
/// let badge = CGPath(roundedRect: CGRect(x: 0, y: 0, width: 80, height: 30),
///                    cornerWidth: 15, cornerHeight: 15, transform: nil)
/// badge.contains(CGPoint(x: 40, y: 15))   // true
/// ```
// @unchecked: a plain CGPath holds one immutable array (the checker refuses Sendable on a class
// that has subclasses); CGMutablePath guards its own state.
public class CGPath: @unchecked Sendable, Hashable, CustomStringConvertible {
    private let frozenElements: [CGPathElement]

    /// Designated initialiser; `elements` must already satisfy the path invariants
    /// (every subpath starts with a move; no segment without a current point).
    init(_validatedElements elements: [CGPathElement]) {
        frozenElements = elements
    }

    /// A path made of `elements`, normalised as Core Graphics would build it: segments with no
    /// current point are dropped and a move is inserted where a segment follows a close.
    public convenience init(elements: [CGPathElement]) {
        var b = PathBuilder()
        for e in elements { b.append(e) }
        self.init(_validatedElements: b.elements)
    }

    /// A closed rectangle (Core Graphics' `CGPath(rect:transform:)`).
    public convenience init(rect: CGRect, transform: CGAffineTransform = .identity) {
        var b = PathBuilder()
        b.addRect(rect, transform)
        self.init(_validatedElements: b.elements)
    }

    /// A closed rectangle; `transform` may be nil, mirroring Apple's pointer-taking spelling.
    public convenience init(rect: CGRect, transform: UnsafePointer<CGAffineTransform>?) {
        self.init(rect: rect, transform: transform?.pointee ?? .identity)
    }

    /// A closed ellipse inscribed in `rect` (Core Graphics' `CGPath(ellipseIn:transform:)`).
    public convenience init(ellipseIn rect: CGRect, transform: CGAffineTransform = .identity) {
        var b = PathBuilder()
        b.addEllipse(rect, transform)
        self.init(_validatedElements: b.elements)
    }

    /// A closed ellipse; `transform` may be nil, mirroring Apple's pointer-taking spelling.
    public convenience init(ellipseIn rect: CGRect, transform: UnsafePointer<CGAffineTransform>?) {
        self.init(ellipseIn: rect, transform: transform?.pointee ?? .identity)
    }

    /// A closed rounded rectangle whose corners are quarter ellipses of the given radii.
    ///
    /// Apple traps when a radius exceeds half the rectangle's side; Strata clamps it instead.
    public convenience init(roundedRect rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat,
                            transform: CGAffineTransform = .identity) {
        var b = PathBuilder()
        let r = CGSize(width: cornerWidth, height: cornerHeight)
        b.addRoundedRect(rect, topLeft: r, topRight: r, bottomRight: r, bottomLeft: r, transform)
        self.init(_validatedElements: b.elements)
    }

    /// A closed rounded rectangle; `transform` may be nil, mirroring Apple's pointer spelling.
    public convenience init(roundedRect rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat,
                            transform: UnsafePointer<CGAffineTransform>?) {
        self.init(roundedRect: rect, cornerWidth: cornerWidth, cornerHeight: cornerHeight,
                  transform: transform?.pointee ?? .identity)
    }

    // MARK: Reading

    /// The path's elements in order.
    public var elements: [CGPathElement] { frozenElements }

    /// Calls `body` with each element in order (the Swift shape of Apple's `applyWithBlock`).
    public func forEach(_ body: (CGPathElement) throws -> Void) rethrows {
        for e in elements { try body(e) }
    }

    /// The point where the next segment would start; `.zero` for an empty path (as Core Graphics).
    /// After `closeSubpath` it is the start of the closed subpath.
    public var currentPoint: CGPoint {
        var b = PathBuilder()
        for e in elements { b.append(e) }
        return b.current ?? .zero
    }

    /// True when the path has no elements (a path holding only a move is not empty, as in CG).
    public var isEmpty: Bool { elements.isEmpty }

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

    // MARK: Copies

    /// An immutable copy (Apple returns an optional; it is never nil here).
    public func copy() -> CGPath? { CGPath(_validatedElements: elements) }

    /// An immutable copy with every point mapped through `*transform` (nil: unchanged).
    public func copy(using transform: UnsafePointer<CGAffineTransform>?) -> CGPath? {
        applying(transform?.pointee ?? .identity)
    }

    /// A mutable copy (Apple returns an optional; it is never nil here).
    public func mutableCopy() -> CGMutablePath? { CGMutablePath(_validatedElements: elements) }

    /// A mutable copy with every point mapped through `*transform` (nil: unchanged).
    public func mutableCopy(using transform: UnsafePointer<CGAffineTransform>?) -> CGMutablePath? {
        let t = transform?.pointee ?? .identity
        return CGMutablePath(_validatedElements: elements.map { $0.applying(t) })
    }

    /// An immutable copy with every point mapped through `t`; Béziers transform exactly.
    public func applying(_ t: CGAffineTransform) -> CGPath {
        CGPath(_validatedElements: elements.map { $0.applying(t) })
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

    // MARK: Equality and description

    /// Element-wise equality, as `CGPathEqualToPath` (a mutable and an immutable path can be equal).
    public static func == (lhs: CGPath, rhs: CGPath) -> Bool {
        lhs === rhs || lhs.elements == rhs.elements
    }

    /// Hashes the elements.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(elements)
    }

    /// The path as SVG-like path data, e.g. `M 0 0 L 10 0 Z`.
    public var description: String {
        func f(_ p: CGPoint) -> String { "\(Double(p.x)) \(Double(p.y))" }
        let parts = elements.map { e -> String in
            switch e {
            case .moveToPoint(let p): "M \(f(p))"
            case .addLineToPoint(let p): "L \(f(p))"
            case .addQuadCurveToPoint(let c, let p): "Q \(f(c)) \(f(p))"
            case .addCurveToPoint(let c1, let c2, let p): "C \(f(c1)) \(f(c2)) \(f(p))"
            case .closeSubpath: "Z"
            }
        }
        return "CGPath(\(parts.joined(separator: " ")))"
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

/// A path that can be extended; Apple's Swift spellings, with an optional `transform` applied to
/// the points of each call.
///
/// A segment added while the path has no current point is ignored (Core Graphics logs "no
/// current point" and does the same). A segment added after `closeSubpath()` starts a new
/// subpath at the closed one's start, with an explicit move element.
// @unchecked: only because its superclass is; the elements live in a Mutex.
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

// MARK: - Building

/// The mutable state of a path under construction; shared by `CGPath` initialisers and
/// `CGMutablePath`.
fileprivate struct PathBuilder {
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

// MARK: - Curve math

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

fileprivate func distance(_ a: CGPoint, _ b: CGPoint) -> CGFloat {
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
