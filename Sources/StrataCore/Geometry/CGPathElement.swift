import Foundation

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
