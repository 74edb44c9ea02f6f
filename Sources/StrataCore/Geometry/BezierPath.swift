// A UIKit-style path object (`UIBezierPath`): a mutable CGPath plus the stroke attributes used
// when it is drawn. UIKit's angles and corner names are on-screen ones in y-down space: an arc
// with `clockwise: true` turns clockwise on screen, and `.topLeft` is the visual top-left corner.
import Foundation

/// The corners of a rectangle, for `BezierPath(roundedRect:byRoundingCorners:cornerRadii:)`.
///
/// "Top" is the visual top (minimum y) in Strata's y-down space, as in UIKit.
public struct UIRectCorner: OptionSet, Sendable, Hashable {
    /// The bit mask.
    public let rawValue: UInt

    /// A corner set from its bit mask.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// The corner at (minX, minY).
    public static let topLeft = UIRectCorner(rawValue: 1 << 0)
    /// The corner at (maxX, minY).
    public static let topRight = UIRectCorner(rawValue: 1 << 1)
    /// The corner at (minX, maxY).
    public static let bottomLeft = UIRectCorner(rawValue: 1 << 2)
    /// The corner at (maxX, maxY).
    public static let bottomRight = UIRectCorner(rawValue: 1 << 3)
    /// All four corners (every bit set, as in UIKit).
    public static let allCorners = UIRectCorner(rawValue: .max)
}

/// UIKit's name for `BezierPath`, so ported code compiles unchanged.
public typealias UIBezierPath = BezierPath

/// A path with stroke attributes, mirroring `UIBezierPath`.
///
/// ```swift
/// let ring = BezierPath(arcCenter: CGPoint(x: 50, y: 50), radius: 40,
///                       startAngle: -.pi / 2, endAngle: 3 * .pi / 2, clockwise: true)
/// shapeLayer.path = ring.cgPath     // starts at 12 o'clock, runs clockwise on screen
/// ```
///
/// Drawing (`fill()`, `stroke()`, `addClip()`) needs a context and lives with the renderer's
/// `CGContext`; this type holds geometry and attributes only. Like `UIBezierPath` it is a
/// mutable reference type and not `Sendable`; hand `cgPath` (an immutable snapshot) to other
/// threads.
public final class BezierPath: CustomStringConvertible {
    private var path = CGMutablePath()

    /// The stroke width in points (UIKit default 1).
    public var lineWidth: CGFloat = 1
    /// The shape of stroke ends (UIKit default `.butt`).
    public var lineCapStyle: CGLineCap = .butt
    /// The shape of stroke corners (UIKit default `.miter`).
    public var lineJoinStyle: CGLineJoin = .miter
    /// The miter length limit, as a multiple of `lineWidth` (UIKit default 10).
    public var miterLimit: CGFloat = 10
    /// The flattening accuracy used when the path is rendered (UIKit default 0.6).
    public var flatness: CGFloat = 0.6
    /// Fill and hit-test with the even-odd rule instead of non-zero winding (default false).
    public var usesEvenOddFillRule = false
    /// The dash lengths set by `setLineDash` (empty: solid). Strata addition for reading them.
    public private(set) var lineDashPattern: [CGFloat] = []
    /// The dash phase set by `setLineDash`. Strata addition for reading it.
    public private(set) var lineDashPhase: CGFloat = 0

    // MARK: Creating

    /// An empty path.
    public init() {}

    /// A closed rectangle: (minX, minY) → (maxX, minY) → (maxX, maxY) → (minX, maxY).
    public convenience init(rect: CGRect) {
        self.init()
        path.addRect(rect)
    }

    /// A closed ellipse inscribed in `rect`, starting at (maxX, midY) and running clockwise on screen.
    public convenience init(ovalIn rect: CGRect) {
        self.init()
        path.addEllipse(in: rect)
    }

    /// A rounded rectangle with circular corners of `cornerRadius`, clamped to half the shorter
    /// side (UIKit's documented clamping).
    ///
    /// **Strata:** corners are circular arcs; iOS 7+ draws slightly "continuous" corners here.
    public convenience init(roundedRect rect: CGRect, cornerRadius: CGFloat) {
        self.init()
        let r = rect.standardized
        let radius = max(0, min(cornerRadius, min(r.width, r.height) / 2))
        let s = CGSize(width: radius, height: radius)
        path.addRoundedRect(r, topLeft: s, topRight: s, bottomRight: s, bottomLeft: s)
    }

    /// A rounded rectangle rounding only `corners`, each an ellipse quadrant of `cornerRadii`
    /// (width horizontal, height vertical; each clamped to half the rectangle's side).
    ///
    /// This follows UIKit's documentation; note that iOS 7+ in practice uses `cornerRadii.width`
    /// for both axes.
    public convenience init(roundedRect rect: CGRect, byRoundingCorners corners: UIRectCorner,
                            cornerRadii: CGSize) {
        self.init()
        func radii(_ c: UIRectCorner) -> CGSize { corners.contains(c) ? cornerRadii : .zero }
        path.addRoundedRect(rect, topLeft: radii(.topLeft), topRight: radii(.topRight),
                            bottomRight: radii(.bottomRight), bottomLeft: radii(.bottomLeft))
    }

    /// An open circular arc with UIKit's on-screen meaning of `clockwise` (see `addArc`).
    public convenience init(arcCenter center: CGPoint, radius: CGFloat, startAngle: CGFloat,
                            endAngle: CGFloat, clockwise: Bool) {
        self.init()
        addArc(withCenter: center, radius: radius, startAngle: startAngle, endAngle: endAngle,
               clockwise: clockwise)
    }

    /// A path holding the elements of `cgPath` and default attributes.
    public convenience init(cgPath: CGPath) {
        self.init()
        path.addPath(cgPath)
    }

    /// A copy with the same elements and attributes (UIKit's `copy()` returns `Any`).
    public func copy() -> BezierPath {
        let c = BezierPath(cgPath: path)
        c.lineWidth = lineWidth
        c.lineCapStyle = lineCapStyle
        c.lineJoinStyle = lineJoinStyle
        c.miterLimit = miterLimit
        c.flatness = flatness
        c.usesEvenOddFillRule = usesEvenOddFillRule
        c.lineDashPattern = lineDashPattern
        c.lineDashPhase = lineDashPhase
        return c
    }

    // MARK: Building

    /// Starts a new subpath at `point`.
    public func move(to point: CGPoint) { path.move(to: point) }

    /// Adds a line from the current point; does nothing on an empty path (as UIKit).
    public func addLine(to point: CGPoint) { path.addLine(to: point) }

    /// Adds a cubic Bézier from the current point.
    public func addCurve(to endPoint: CGPoint, controlPoint1: CGPoint, controlPoint2: CGPoint) {
        path.addCurve(to: endPoint, control1: controlPoint1, control2: controlPoint2)
    }

    /// Adds a quadratic Bézier from the current point.
    public func addQuadCurve(to endPoint: CGPoint, controlPoint: CGPoint) {
        path.addQuadCurve(to: endPoint, control: controlPoint)
    }

    /// Adds a circular arc (after a line from the current point, if any), UIKit style.
    ///
    /// Angle 0 points along +x and positive angles turn clockwise on screen (y-down), so
    /// `clockwise: true` sweeps increasing angles: from 0 to π/2 it passes through
    /// (r·cos 45°, r·sin 45°), below the centre. This is the opposite flag to
    /// `CGMutablePath.addArc`, whose `clockwise` refers to y-up coordinates.
    public func addArc(withCenter center: CGPoint, radius: CGFloat, startAngle: CGFloat,
                       endAngle: CGFloat, clockwise: Bool) {
        path.addArc(center: center, radius: radius, startAngle: startAngle, endAngle: endAngle,
                    clockwise: !clockwise)
    }

    /// Closes the current subpath.
    public func close() { path.closeSubpath() }

    /// Removes every element; attributes are kept.
    public func removeAllPoints() { path = CGMutablePath() }

    /// Appends the elements of `bezierPath` (its attributes are ignored).
    public func append(_ bezierPath: BezierPath) { path.addPath(bezierPath.path) }

    /// Maps every point of the path through `transform`.
    public func apply(_ transform: CGAffineTransform) {
        let next = CGMutablePath()
        next.addPath(path, transform: transform)
        path = next
    }

    /// The same shape traced backwards: subpaths in reverse order, each run from its end to its
    /// start (a closed subpath keeps its start point and is closed again).
    public func reversing() -> BezierPath {
        let r = copy()
        r.path = CGMutablePath()
        for sub in Self.subpaths(of: path.elements).reversed() {
            sub.appendReversed(to: r.path)
        }
        return r
    }

    /// Sets the dash pattern (`count` lengths from `pattern`; nil or 0 for a solid line).
    public func setLineDash(_ pattern: UnsafePointer<CGFloat>?, count: Int, phase: CGFloat) {
        if let pattern, count > 0 {
            lineDashPattern = Array(UnsafeBufferPointer(start: pattern, count: count))
        } else {
            lineDashPattern = []
        }
        lineDashPhase = phase
    }

    /// Reads the dash pattern: copies it into `pattern` (if given, room for `count.pointee`
    /// lengths) and stores the pattern's length in `count` and the phase in `phase`.
    public func getLineDash(_ pattern: UnsafeMutablePointer<CGFloat>?, count: UnsafeMutablePointer<Int>?,
                            phase: UnsafeMutablePointer<CGFloat>?) {
        if let pattern, let count {
            for (i, v) in lineDashPattern.prefix(max(0, count.pointee)).enumerated() { pattern[i] = v }
        }
        count?.pointee = lineDashPattern.count
        phase?.pointee = lineDashPhase
    }

    // MARK: Reading

    /// The path's geometry: an immutable snapshot when read; setting it replaces the elements.
    public var cgPath: CGPath {
        get { path.copy() ?? CGPath(elements: []) }
        set { path = CGMutablePath(); path.addPath(newValue) }
    }

    /// The box holding every point including control points (`CGRect.null` when empty).
    public var bounds: CGRect { path.boundingBox }

    /// The point where the next segment would start (`.zero` when empty).
    public var currentPoint: CGPoint { path.currentPoint }

    /// True when the path has no elements.
    public var isEmpty: Bool { path.isEmpty }

    /// Whether filling the path would paint `point`, with the rule chosen by `usesEvenOddFillRule`.
    public func contains(_ point: CGPoint) -> Bool {
        path.contains(point, using: usesEvenOddFillRule ? .evenOdd : .winding)
    }

    /// The path as SVG-like data plus the line width.
    public var description: String { "BezierPath(\(path.description), lineWidth: \(Double(lineWidth)))" }

    // MARK: Reversal

    /// One subpath split into its start and segments, for reversal.
    private struct Subpath {
        enum Piece {
            case line(CGPoint)
            case quad(CGPoint, CGPoint)
            case cubic(CGPoint, CGPoint, CGPoint)

            var end: CGPoint {
                switch self {
                case .line(let p), .quad(_, let p), .cubic(_, _, let p): p
                }
            }
        }

        var start: CGPoint
        var pieces: [Piece] = []
        var closed = false

        func appendReversed(to out: CGMutablePath) {
            let ends = [start] + pieces.map(\.end)   // ends[i] is where piece i starts
            let last = ends[ends.count - 1]
            if closed {
                out.move(to: start)
                if last != start { out.addLine(to: last) }
            } else {
                out.move(to: last)
            }
            for i in pieces.indices.reversed() {
                let to = ends[i]
                switch pieces[i] {
                case .line:
                    // The closing segment of the reversed subpath draws the first line.
                    if !(closed && i == 0) { out.addLine(to: to) }
                case .quad(let c, _): out.addQuadCurve(to: to, control: c)
                case .cubic(let c1, let c2, _): out.addCurve(to: to, control1: c2, control2: c1)
                }
            }
            if closed { out.closeSubpath() }
        }
    }

    private static func subpaths(of elements: [CGPathElement]) -> [Subpath] {
        var result: [Subpath] = []
        for e in elements {
            switch e {
            case .moveToPoint(let p): result.append(Subpath(start: p))
            case .addLineToPoint(let p): result[result.count - 1].pieces.append(.line(p))
            case .addQuadCurveToPoint(let c, let p): result[result.count - 1].pieces.append(.quad(c, p))
            case .addCurveToPoint(let c1, let c2, let p):
                result[result.count - 1].pieces.append(.cubic(c1, c2, p))
            case .closeSubpath: result[result.count - 1].closed = true
            }
        }
        return result
    }
}
