// Core Graphics' immutable path: its initialisers, elements, copies, equality and description.
// The geometry read from a path is in CGPath+Geometry.swift, building in CGMutablePath.swift.
// As in Core Graphics, arcs, ellipses and rounded corners are stored as cubic Béziers, so a
// rasteriser (Cairo) and path interpolation only ever see move / line / quad / cubic / close.
// Angles follow Core Graphics: a point at angle θ is `center + r·(cos θ, sin θ)` in the path's own
// coordinates, so in Strata's y-down space increasing angles turn clockwise on screen.
import Foundation

// @unchecked: a plain CGPath holds one immutable array (the checker refuses Sendable on a class
// that has subclasses); CGMutablePath guards its own state.
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

}
