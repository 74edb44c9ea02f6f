// The 4×4 transform of Core Animation. Points are row vectors: `[x y z 1] · M`, so translation
// lives in m41…m43 and perspective in m34 (`m34 = −1/d`). `Concat(a, b) = a · b` applies a first.
import Foundation

/// A 4×4 homogeneous transform with Core Animation's field names and row-vector convention.
///
/// ```swift
/// let card = CALayer()
/// var perspective = CATransform3DIdentity
/// perspective.m34 = -1 / 500                      // seen from 500 points away
/// card.transform = CATransform3DRotate(perspective, .pi / 4, 0, 1, 0)   // turned 45° about y
/// ```
public struct CATransform3D: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The sixteen entries, row by row; row 4 (`m41 m42 m43`) holds the translation.
    public var m11: CGFloat, m12: CGFloat, m13: CGFloat, m14: CGFloat
    /// Row 2: where the y axis goes (`m24` is 0 unless the transform has perspective).
    public var m21: CGFloat, m22: CGFloat, m23: CGFloat, m24: CGFloat
    /// Row 3: where the z axis goes; `m34 = −1/d` gives perspective seen from distance `d`.
    public var m31: CGFloat, m32: CGFloat, m33: CGFloat, m34: CGFloat
    /// Row 4: the translation (`m41`, `m42`, `m43`) and `m44` (1 for an affine transform).
    public var m41: CGFloat, m42: CGFloat, m43: CGFloat, m44: CGFloat

    /// A transform from its sixteen entries.
    public init(m11: CGFloat, m12: CGFloat, m13: CGFloat, m14: CGFloat,
                m21: CGFloat, m22: CGFloat, m23: CGFloat, m24: CGFloat,
                m31: CGFloat, m32: CGFloat, m33: CGFloat, m34: CGFloat,
                m41: CGFloat, m42: CGFloat, m43: CGFloat, m44: CGFloat) {
        self.m11 = m11; self.m12 = m12; self.m13 = m13; self.m14 = m14
        self.m21 = m21; self.m22 = m22; self.m23 = m23; self.m24 = m24
        self.m31 = m31; self.m32 = m32; self.m33 = m33; self.m34 = m34
        self.m41 = m41; self.m42 = m42; self.m43 = m43; self.m44 = m44
    }

    /// The identity transform (Apple's `init()` is all zeros; Strata's is the identity, which is
    /// what ported code that writes `CATransform3D()` almost always means).
    public init() {
        self.init(m11: 1, m12: 0, m13: 0, m14: 0, m21: 0, m22: 1, m23: 0, m24: 0,
                  m31: 0, m32: 0, m33: 1, m34: 0, m41: 0, m42: 0, m43: 0, m44: 1)
    }

    /// The identity transform.
    public static let identity = CATransform3D()

    /// The sixteen entries in row-major order.
    public var entries: [CGFloat] {
        [m11, m12, m13, m14, m21, m22, m23, m24, m31, m32, m33, m34, m41, m42, m43, m44]
    }

    /// Builds a transform from sixteen row-major entries.
    public init(entries e: [CGFloat]) {
        precondition(e.count == 16, "CATransform3D needs 16 entries")
        self.init(m11: e[0], m12: e[1], m13: e[2], m14: e[3], m21: e[4], m22: e[5], m23: e[6], m24: e[7],
                  m31: e[8], m32: e[9], m33: e[10], m34: e[11], m41: e[12], m42: e[13], m43: e[14], m44: e[15])
    }

    /// True when the transform is exactly the identity.
    public var isIdentity: Bool { self == .identity }

    /// True when the transform maps the z = 0 plane affinely and keeps it flat (Apple's `IsAffine`).
    public var isAffine: Bool {
        m13 == 0 && m14 == 0 && m23 == 0 && m24 == 0 && m31 == 0 && m32 == 0 && m33 == 1 && m34 == 0
            && m43 == 0 && m44 == 1
    }

    /// `self · other`: `self` applies first.
    public func concatenating(_ o: CATransform3D) -> CATransform3D {
        let a = self
        return CATransform3D(
            m11: a.m11 * o.m11 + a.m12 * o.m21 + a.m13 * o.m31 + a.m14 * o.m41,
            m12: a.m11 * o.m12 + a.m12 * o.m22 + a.m13 * o.m32 + a.m14 * o.m42,
            m13: a.m11 * o.m13 + a.m12 * o.m23 + a.m13 * o.m33 + a.m14 * o.m43,
            m14: a.m11 * o.m14 + a.m12 * o.m24 + a.m13 * o.m34 + a.m14 * o.m44,
            m21: a.m21 * o.m11 + a.m22 * o.m21 + a.m23 * o.m31 + a.m24 * o.m41,
            m22: a.m21 * o.m12 + a.m22 * o.m22 + a.m23 * o.m32 + a.m24 * o.m42,
            m23: a.m21 * o.m13 + a.m22 * o.m23 + a.m23 * o.m33 + a.m24 * o.m43,
            m24: a.m21 * o.m14 + a.m22 * o.m24 + a.m23 * o.m34 + a.m24 * o.m44,
            m31: a.m31 * o.m11 + a.m32 * o.m21 + a.m33 * o.m31 + a.m34 * o.m41,
            m32: a.m31 * o.m12 + a.m32 * o.m22 + a.m33 * o.m32 + a.m34 * o.m42,
            m33: a.m31 * o.m13 + a.m32 * o.m23 + a.m33 * o.m33 + a.m34 * o.m43,
            m34: a.m31 * o.m14 + a.m32 * o.m24 + a.m33 * o.m34 + a.m34 * o.m44,
            m41: a.m41 * o.m11 + a.m42 * o.m21 + a.m43 * o.m31 + a.m44 * o.m41,
            m42: a.m41 * o.m12 + a.m42 * o.m22 + a.m43 * o.m32 + a.m44 * o.m42,
            m43: a.m41 * o.m13 + a.m42 * o.m23 + a.m43 * o.m33 + a.m44 * o.m43,
            m44: a.m41 * o.m14 + a.m42 * o.m24 + a.m43 * o.m34 + a.m44 * o.m44)
    }

    /// A translation by `(tx, ty, tz)`.
    public init(translationX tx: CGFloat, y ty: CGFloat, z tz: CGFloat) {
        self.init(); m41 = tx; m42 = ty; m43 = tz
    }

    /// A scale by `(sx, sy, sz)`.
    public init(scaleX sx: CGFloat, y sy: CGFloat, z sz: CGFloat) {
        self.init(); m11 = sx; m22 = sy; m33 = sz
    }

    /// A rotation by `angle` radians about the axis `(x, y, z)`; a zero axis gives the identity.
    public init(rotationAngle angle: CGFloat, x: CGFloat, y: CGFloat, z: CGFloat) {
        self.init()
        let len = (x * x + y * y + z * z).squareRoot()
        guard len > 0, len.isFinite else { return }
        let ux = x / len, uy = y / len, uz = z / len
        let c = cos(angle), s = sin(angle), t = 1 - c
        m11 = t * ux * ux + c;      m12 = t * ux * uy + s * uz; m13 = t * ux * uz - s * uy
        m21 = t * ux * uy - s * uz; m22 = t * uy * uy + c;      m23 = t * uy * uz + s * ux
        m31 = t * ux * uz + s * uy; m32 = t * uy * uz - s * ux; m33 = t * uz * uz + c
    }

    /// Embeds a 2D affine transform.
    public init(_ t: CGAffineTransform) {
        self.init(); m11 = t.a; m12 = t.b; m21 = t.c; m22 = t.d; m41 = t.tx; m42 = t.ty
    }

    /// The 2D part (meaningful when `isAffine`).
    public var affineTransform: CGAffineTransform {
        CGAffineTransform(a: m11, b: m12, c: m21, d: m22, tx: m41, ty: m42)
    }

    /// Translation applied before `self` (`CATransform3DTranslate`).
    public func translatedBy(x: CGFloat, y: CGFloat, z: CGFloat) -> CATransform3D {
        CATransform3D(translationX: x, y: y, z: z).concatenating(self)
    }
    /// Scale applied before `self` (`CATransform3DScale`).
    public func scaledBy(x: CGFloat, y: CGFloat, z: CGFloat) -> CATransform3D {
        CATransform3D(scaleX: x, y: y, z: z).concatenating(self)
    }
    /// Rotation applied before `self` (`CATransform3DRotate`).
    public func rotated(by angle: CGFloat, x: CGFloat, y: CGFloat, z: CGFloat) -> CATransform3D {
        CATransform3D(rotationAngle: angle, x: x, y: y, z: z).concatenating(self)
    }

    /// The homogeneous image of the point `(p.x, p.y, z)`: the row vector `[x y z 1] · M`.
    ///
    /// Divide `x`, `y` (and `z`) by `w` for the projected point; `w` differs from 1 only under
    /// perspective (`m34 = −1/d` gives `w = 1 − z/d`, so a point at z = 100 with d = 500 has
    /// `w = 0.8` and appears 1.25× farther from the origin). `w ≤ 0` means behind the eye.
    public func project(_ p: CGPoint, z: CGFloat = 0) -> (x: CGFloat, y: CGFloat, z: CGFloat, w: CGFloat) {
        (p.x * m11 + p.y * m21 + z * m31 + m41,
         p.x * m12 + p.y * m22 + z * m32 + m42,
         p.x * m13 + p.y * m23 + z * m33 + m43,
         p.x * m14 + p.y * m24 + z * m34 + m44)
    }

    /// The inverse, or `self` unchanged when singular (as Core Animation does).
    public func inverted() -> CATransform3D {
        let m = entries.map { Double($0) }
        var inv = [Double](repeating: 0, count: 16)
        inv[0] = m[5]*m[10]*m[15] - m[5]*m[11]*m[14] - m[9]*m[6]*m[15] + m[9]*m[7]*m[14] + m[13]*m[6]*m[11] - m[13]*m[7]*m[10]
        inv[4] = -m[4]*m[10]*m[15] + m[4]*m[11]*m[14] + m[8]*m[6]*m[15] - m[8]*m[7]*m[14] - m[12]*m[6]*m[11] + m[12]*m[7]*m[10]
        inv[8] = m[4]*m[9]*m[15] - m[4]*m[11]*m[13] - m[8]*m[5]*m[15] + m[8]*m[7]*m[13] + m[12]*m[5]*m[11] - m[12]*m[7]*m[9]
        inv[12] = -m[4]*m[9]*m[14] + m[4]*m[10]*m[13] + m[8]*m[5]*m[14] - m[8]*m[6]*m[13] - m[12]*m[5]*m[10] + m[12]*m[6]*m[9]
        inv[1] = -m[1]*m[10]*m[15] + m[1]*m[11]*m[14] + m[9]*m[2]*m[15] - m[9]*m[3]*m[14] - m[13]*m[2]*m[11] + m[13]*m[3]*m[10]
        inv[5] = m[0]*m[10]*m[15] - m[0]*m[11]*m[14] - m[8]*m[2]*m[15] + m[8]*m[3]*m[14] + m[12]*m[2]*m[11] - m[12]*m[3]*m[10]
        inv[9] = -m[0]*m[9]*m[15] + m[0]*m[11]*m[13] + m[8]*m[1]*m[15] - m[8]*m[3]*m[13] - m[12]*m[1]*m[11] + m[12]*m[3]*m[9]
        inv[13] = m[0]*m[9]*m[14] - m[0]*m[10]*m[13] - m[8]*m[1]*m[14] + m[8]*m[2]*m[13] + m[12]*m[1]*m[10] - m[12]*m[2]*m[9]
        inv[2] = m[1]*m[6]*m[15] - m[1]*m[7]*m[14] - m[5]*m[2]*m[15] + m[5]*m[3]*m[14] + m[13]*m[2]*m[7] - m[13]*m[3]*m[6]
        inv[6] = -m[0]*m[6]*m[15] + m[0]*m[7]*m[14] + m[4]*m[2]*m[15] - m[4]*m[3]*m[14] - m[12]*m[2]*m[7] + m[12]*m[3]*m[6]
        inv[10] = m[0]*m[5]*m[15] - m[0]*m[7]*m[13] - m[4]*m[1]*m[15] + m[4]*m[3]*m[13] + m[12]*m[1]*m[7] - m[12]*m[3]*m[5]
        inv[14] = -m[0]*m[5]*m[14] + m[0]*m[6]*m[13] + m[4]*m[1]*m[14] - m[4]*m[2]*m[13] - m[12]*m[1]*m[6] + m[12]*m[2]*m[5]
        inv[3] = -m[1]*m[6]*m[11] + m[1]*m[7]*m[10] + m[5]*m[2]*m[11] - m[5]*m[3]*m[10] - m[9]*m[2]*m[7] + m[9]*m[3]*m[6]
        inv[7] = m[0]*m[6]*m[11] - m[0]*m[7]*m[10] - m[4]*m[2]*m[11] + m[4]*m[3]*m[10] + m[8]*m[2]*m[7] - m[8]*m[3]*m[6]
        inv[11] = -m[0]*m[5]*m[11] + m[0]*m[7]*m[9] + m[4]*m[1]*m[11] - m[4]*m[3]*m[9] - m[8]*m[1]*m[7] + m[8]*m[3]*m[5]
        inv[15] = m[0]*m[5]*m[10] - m[0]*m[6]*m[9] - m[4]*m[1]*m[10] + m[4]*m[2]*m[9] + m[8]*m[1]*m[6] - m[8]*m[2]*m[5]
        let det = m[0] * inv[0] + m[1] * inv[4] + m[2] * inv[8] + m[3] * inv[12]
        guard det != 0, det.isFinite else { return self }
        return CATransform3D(entries: inv.map { CGFloat($0 / det) })
    }

    /// The entries row by row.
    public var description: String {
        "CATransform3D[\(m11) \(m12) \(m13) \(m14); \(m21) \(m22) \(m23) \(m24); \(m31) \(m32) \(m33) \(m34); \(m41) \(m42) \(m43) \(m44)]"
    }
}

/// The identity transform.
public let CATransform3DIdentity = CATransform3D.identity
/// True when `t` is exactly the identity.
public func CATransform3DIsIdentity(_ t: CATransform3D) -> Bool { t.isIdentity }
/// True when all sixteen entries are equal.
public func CATransform3DEqualToTransform(_ a: CATransform3D, _ b: CATransform3D) -> Bool { a == b }
/// A translation by `(tx, ty, tz)`.
public func CATransform3DMakeTranslation(_ tx: CGFloat, _ ty: CGFloat, _ tz: CGFloat) -> CATransform3D {
    CATransform3D(translationX: tx, y: ty, z: tz)
}
/// A scale by `(sx, sy, sz)`.
public func CATransform3DMakeScale(_ sx: CGFloat, _ sy: CGFloat, _ sz: CGFloat) -> CATransform3D {
    CATransform3D(scaleX: sx, y: sy, z: sz)
}
/// A rotation by `angle` about the axis `(x, y, z)` (normalised; a zero axis gives the identity).
public func CATransform3DMakeRotation(_ angle: CGFloat, _ x: CGFloat, _ y: CGFloat, _ z: CGFloat) -> CATransform3D {
    CATransform3D(rotationAngle: angle, x: x, y: y, z: z)
}
/// `t` preceded by a translation (the translation applies first).
public func CATransform3DTranslate(_ t: CATransform3D, _ tx: CGFloat, _ ty: CGFloat, _ tz: CGFloat) -> CATransform3D {
    t.translatedBy(x: tx, y: ty, z: tz)
}
/// `t` preceded by a scale (the scale applies first).
public func CATransform3DScale(_ t: CATransform3D, _ sx: CGFloat, _ sy: CGFloat, _ sz: CGFloat) -> CATransform3D {
    t.scaledBy(x: sx, y: sy, z: sz)
}
/// `t` preceded by a rotation (the rotation applies first).
public func CATransform3DRotate(_ t: CATransform3D, _ angle: CGFloat, _ x: CGFloat, _ y: CGFloat, _ z: CGFloat) -> CATransform3D {
    t.rotated(by: angle, x: x, y: y, z: z)
}
/// `a · b`: `a` applies first.
public func CATransform3DConcat(_ a: CATransform3D, _ b: CATransform3D) -> CATransform3D { a.concatenating(b) }
/// The inverse, or `t` itself when singular.
public func CATransform3DInvert(_ t: CATransform3D) -> CATransform3D { t.inverted() }
/// The 3D transform that acts as `t` in the z = 0 plane.
public func CATransform3DMakeAffineTransform(_ t: CGAffineTransform) -> CATransform3D { CATransform3D(t) }
/// True when `t` can be represented exactly by an affine transform.
public func CATransform3DIsAffine(_ t: CATransform3D) -> Bool { t.isAffine }
/// The affine part of `t` (`m11 m12 m21 m22 m41 m42`).
public func CATransform3DGetAffineTransform(_ t: CATransform3D) -> CGAffineTransform { t.affineTransform }
