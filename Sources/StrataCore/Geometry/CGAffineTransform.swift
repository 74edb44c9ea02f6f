// A 2D affine transform with Core Graphics' conventions: `x' = a·x + c·y + tx`,
// `y' = b·x + d·y + ty`. In Strata's y-down space a positive rotation turns clockwise on screen.
import Foundation

/// An affine transformation matrix for 2D drawing, laid out as Core Graphics lays it out.
///
/// ```swift
/// let t = CGAffineTransform(translationX: 100, y: 0).rotated(by: .pi / 2)
/// CGPoint(x: 10, y: 0).applying(t)   // ≈ (100, 10): rotated first, then moved
/// ```
public struct CGAffineTransform: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The matrix entries: `x' = a·x + c·y + tx`, `y' = b·x + d·y + ty`.
    public var a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat

    /// A transform from its six entries.
    public init(a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }

    /// A transform from its six entries in the order `a, b, c, d, tx, ty` (Apple's unlabelled
    /// overlay initialiser, the Swift form of `CGAffineTransformMake`).
    public init(_ a: CGFloat, _ b: CGFloat, _ c: CGFloat, _ d: CGFloat, _ tx: CGFloat, _ ty: CGFloat) {
        self.init(a: a, b: b, c: c, d: d, tx: tx, ty: ty)
    }

    /// The identity transform.
    public init() { self.init(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0) }

    /// The identity transform.
    public static let identity = CGAffineTransform()

    /// A transform that translates by `(tx, ty)`.
    public init(translationX tx: CGFloat, y ty: CGFloat) { self.init(a: 1, b: 0, c: 0, d: 1, tx: tx, ty: ty) }

    /// A transform that scales by `(sx, sy)`.
    public init(scaleX sx: CGFloat, y sy: CGFloat) { self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0) }

    /// A rotation by `angle` radians (clockwise on screen in y-down space).
    public init(rotationAngle angle: CGFloat) {
        let s = sin(angle), co = cos(angle)
        self.init(a: co, b: s, c: -s, d: co, tx: 0, ty: 0)
    }

    /// True when the transform is exactly the identity.
    public var isIdentity: Bool { self == .identity }

    /// `self` followed by `t2`.
    public func concatenating(_ t2: CGAffineTransform) -> CGAffineTransform {
        CGAffineTransform(a: a * t2.a + b * t2.c, b: a * t2.b + b * t2.d,
                          c: c * t2.a + d * t2.c, d: c * t2.b + d * t2.d,
                          tx: tx * t2.a + ty * t2.c + t2.tx, ty: tx * t2.b + ty * t2.d + t2.ty)
    }

    /// Translation applied before `self` (Core Graphics' `CGAffineTransformTranslate`).
    public func translatedBy(x: CGFloat, y: CGFloat) -> CGAffineTransform {
        CGAffineTransform(translationX: x, y: y).concatenating(self)
    }
    /// Scale applied before `self` (Core Graphics' `CGAffineTransformScale`).
    public func scaledBy(x: CGFloat, y: CGFloat) -> CGAffineTransform {
        CGAffineTransform(scaleX: x, y: y).concatenating(self)
    }
    /// Rotation applied before `self` (Core Graphics' `CGAffineTransformRotate`).
    public func rotated(by angle: CGFloat) -> CGAffineTransform {
        CGAffineTransform(rotationAngle: angle).concatenating(self)
    }

    /// The inverse, or `self` unchanged when the matrix is singular (as Core Graphics does).
    public func inverted() -> CGAffineTransform {
        let det = a * d - b * c
        guard det != 0, det.isFinite else { return self }
        let ia = d / det, ib = -b / det, ic = -c / det, id = a / det
        return CGAffineTransform(a: ia, b: ib, c: ic, d: id,
                                 tx: -(tx * ia + ty * ic), ty: -(tx * ib + ty * id))
    }

    /// The six entries, labelled.
    public var description: String { "CGAffineTransform(a: \(a), b: \(b), c: \(c), d: \(d), tx: \(tx), ty: \(ty))" }
}

/// A transform from its six entries.
public func CGAffineTransformMake(_ a: CGFloat, _ b: CGFloat, _ c: CGFloat, _ d: CGFloat, _ tx: CGFloat, _ ty: CGFloat) -> CGAffineTransform {
    CGAffineTransform(a: a, b: b, c: c, d: d, tx: tx, ty: ty)
}
/// A translation by `(tx, ty)`.
public func CGAffineTransformMakeTranslation(_ tx: CGFloat, _ ty: CGFloat) -> CGAffineTransform { CGAffineTransform(translationX: tx, y: ty) }
/// A scale by `(sx, sy)`.
public func CGAffineTransformMakeScale(_ sx: CGFloat, _ sy: CGFloat) -> CGAffineTransform { CGAffineTransform(scaleX: sx, y: sy) }
/// `(cos θ, sin θ, −sin θ, cos θ, 0, 0)`: clockwise on screen for positive θ in y-down space.
public func CGAffineTransformMakeRotation(_ angle: CGFloat) -> CGAffineTransform { CGAffineTransform(rotationAngle: angle) }
/// `t` preceded by a translation (the translation applies first).
public func CGAffineTransformTranslate(_ t: CGAffineTransform, _ tx: CGFloat, _ ty: CGFloat) -> CGAffineTransform { t.translatedBy(x: tx, y: ty) }
/// `t` preceded by a scale (the scale applies first).
public func CGAffineTransformScale(_ t: CGAffineTransform, _ sx: CGFloat, _ sy: CGFloat) -> CGAffineTransform { t.scaledBy(x: sx, y: sy) }
/// `t` preceded by a rotation (the rotation applies first).
public func CGAffineTransformRotate(_ t: CGAffineTransform, _ angle: CGFloat) -> CGAffineTransform { t.rotated(by: angle) }
/// `t1` followed by `t2`.
public func CGAffineTransformConcat(_ t1: CGAffineTransform, _ t2: CGAffineTransform) -> CGAffineTransform { t1.concatenating(t2) }
/// The inverse, or `t` itself when singular.
public func CGAffineTransformInvert(_ t: CGAffineTransform) -> CGAffineTransform { t.inverted() }
/// True when `t` is exactly the identity.
public func CGAffineTransformIsIdentity(_ t: CGAffineTransform) -> Bool { t.isIdentity }
/// True when all six entries are equal.
public func CGAffineTransformEqualToTransform(_ t1: CGAffineTransform, _ t2: CGAffineTransform) -> Bool { t1 == t2 }
/// The identity transform.
public let CGAffineTransformIdentity = CGAffineTransform.identity

/// The point mapped through `t`.
public func CGPointApplyAffineTransform(_ p: CGPoint, _ t: CGAffineTransform) -> CGPoint { p.applying(t) }
/// The size mapped through `t` without its translation.
public func CGSizeApplyAffineTransform(_ s: CGSize, _ t: CGAffineTransform) -> CGSize { s.applying(t) }
/// The bounding box of the rectangle's corners mapped through `t`.
public func CGRectApplyAffineTransform(_ r: CGRect, _ t: CGAffineTransform) -> CGRect { r.applying(t) }

extension CGPoint {
    /// The point transformed by `t`.
    public func applying(_ t: CGAffineTransform) -> CGPoint {
        CGPoint(x: t.a * x + t.c * y + t.tx, y: t.b * x + t.d * y + t.ty)
    }
}

extension CGSize {
    /// The size transformed by `t`, ignoring translation (as Core Graphics does).
    public func applying(_ t: CGAffineTransform) -> CGSize {
        CGSize(width: t.a * width + t.c * height, height: t.b * width + t.d * height)
    }
}

extension CGRect {
    /// The axis-aligned bounding box of the transformed corners.
    public func applying(_ t: CGAffineTransform) -> CGRect {
        if isNull { return self }
        let r = standardized
        let pts = [CGPoint(x: r.minX, y: r.minY), CGPoint(x: r.maxX, y: r.minY),
                   CGPoint(x: r.minX, y: r.maxY), CGPoint(x: r.maxX, y: r.maxY)].map { $0.applying(t) }
        let xs = pts.map(\.x), ys = pts.map(\.y)
        return CGRect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
    }
}
