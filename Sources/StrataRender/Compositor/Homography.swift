// A 3×3 projective map of the plane with the row-vector convention of CATransform3D:
// `[x y 1] · H = [X' Y' W]`, screen point `(X'/W, Y'/W)`. Every flattened layer's content plane
// reaches the screen through one of these; the rasteriser uses the inverse per pixel.
import Foundation
import StrataCore

/// A projective 2D transform (row vectors).
public struct Homography: Sendable, Equatable {
    /// The 3×3 matrix, row by row.
    public var m: (Double, Double, Double, Double, Double, Double, Double, Double, Double)

    /// The matrix of rows (a b c), (d e f), (g h i).
    public init(_ a: Double, _ b: Double, _ c: Double, _ d: Double, _ e: Double, _ f: Double,
                _ g: Double, _ h: Double, _ i: Double) {
        m = (a, b, c, d, e, f, g, h, i)
    }

    /// The transform that changes nothing.
    public static let identity = Homography(1, 0, 0, 0, 1, 0, 0, 0, 1)

    public static func == (l: Homography, r: Homography) -> Bool {
        l.m.0 == r.m.0 && l.m.1 == r.m.1 && l.m.2 == r.m.2 && l.m.3 == r.m.3 && l.m.4 == r.m.4
            && l.m.5 == r.m.5 && l.m.6 == r.m.6 && l.m.7 == r.m.7 && l.m.8 == r.m.8
    }

    /// The plane part of a 4×4 transform for points with z = 0, dropping the z output
    /// (Core Animation's flattening): rows and columns x, y, w.
    public init(flattening t: CATransform3D) {
        self.init(Double(t.m11), Double(t.m12), Double(t.m14),
                  Double(t.m21), Double(t.m22), Double(t.m24),
                  Double(t.m41), Double(t.m42), Double(t.m44))
    }

    /// `self` then `o`.
    public func concatenating(_ o: Homography) -> Homography {
        let a = m, b = o.m
        return Homography(
            a.0 * b.0 + a.1 * b.3 + a.2 * b.6, a.0 * b.1 + a.1 * b.4 + a.2 * b.7, a.0 * b.2 + a.1 * b.5 + a.2 * b.8,
            a.3 * b.0 + a.4 * b.3 + a.5 * b.6, a.3 * b.1 + a.4 * b.4 + a.5 * b.7, a.3 * b.2 + a.4 * b.5 + a.5 * b.8,
            a.6 * b.0 + a.7 * b.3 + a.8 * b.6, a.6 * b.1 + a.7 * b.4 + a.8 * b.7, a.6 * b.2 + a.7 * b.5 + a.8 * b.8)
    }

    /// The matrix's determinant: negative when the plane is seen from behind, 0 when edge-on.
    public var determinant: Double {
        let a = m
        return a.0 * (a.4 * a.8 - a.5 * a.7) - a.1 * (a.3 * a.8 - a.5 * a.6) + a.2 * (a.3 * a.7 - a.4 * a.6)
    }

    /// The exact inverse, or nil when singular. With the true inverse, a screen point maps to
    /// `[u v 1] / w` where w is the forward W of that local point, so a negative third
    /// component marks points behind the eye.
    public func inverted() -> Homography? {
        let a = m
        let det = determinant
        guard det != 0, det.isFinite else { return nil }
        let id = 1 / det
        var inverse = Homography(
            (a.4 * a.8 - a.5 * a.7) * id, (a.2 * a.7 - a.1 * a.8) * id, (a.1 * a.5 - a.2 * a.4) * id,
            (a.5 * a.6 - a.3 * a.8) * id, (a.0 * a.8 - a.2 * a.6) * id, (a.2 * a.3 - a.0 * a.5) * id,
            (a.3 * a.7 - a.4 * a.6) * id, (a.1 * a.6 - a.0 * a.7) * id, (a.0 * a.4 - a.1 * a.3) * id)
        if isAffine {
            // The inverse of an affine map is affine: its last column is exactly (0, 0, 1). The
            // formula gives det · (1 / det) there, which rounds to 1 − 2⁻⁵³ for many determinants
            // (a layer scaled by 0.6, say): such a layer took the perspective paths — a division
            // per pixel, no interior runs — in every renderer.
            inverse.m.2 = 0; inverse.m.5 = 0; inverse.m.8 = 1
        }
        return inverse
    }

    /// Homogeneous image of a point.
    @inline(__always)
    public func apply(_ x: Double, _ y: Double) -> (Double, Double, Double) {
        (x * m.0 + y * m.3 + m.6, x * m.1 + y * m.4 + m.7, x * m.2 + y * m.5 + m.8)
    }

    /// True when the map is affine (no perspective).
    public var isAffine: Bool { m.2 == 0 && m.5 == 0 && m.8 == 1 }
}
