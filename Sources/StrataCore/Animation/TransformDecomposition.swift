// Decomposition of a CATransform3D into translation, scale, skew, perspective and a rotation
// quaternion, its inverse, and interpolation through it — the method of CSS Transforms Level 2
// ("decomposing a 4x4 matrix", "interpolation of decomposed 3D matrix values", "recomposing to a
// 3D matrix"), which is also how Core Animation animates `transform`.
//
// Layout. The CSS pseudo-code's `matrix[i][j]` is our `m(i+1)(j+1)`: both put translation in the
// last row. With row vectors ([x y z 1]·M, first factor applied first) a decomposition means
//
//     M = S · K · R · T · P
//
// scale S = diag(sx, sy, sz) applies first, then the skew K (unit lower-triangular, entries
// K₂₁ = xy, K₃₁ = xz, K₃₂ = yz), the rotation R (rows r₀ r₁ r₂), the translation T (last row t)
// and the perspective P (identity with last column p = (px, py, pz, pw)). Multiplying out,
// M's upper-left 3×3 is A = S·K·R, its last row is (t, t·p₃ + pw), and its last column is A·p₃.
// So Gram–Schmidt on A's rows gives S, K and R, and p₃ is solved from A·p₃ = (m14, m24, m34).
// This is the CSS procedure written in closed form; the results are identical where CSS
// succeeds, except for the deliberate differences noted at `decomposed()`.
import Foundation

/// A CATransform3D split into the parts CSS Transforms Level 2 interpolates separately.
///
/// The recomposed transform applies, in order: `scale`, `skew`, the rotation `quaternion`,
/// `translation`, then `perspective`. Components are Double (the arithmetic is done in Double).
public struct DecomposedTransform3D: Sendable, Equatable {
    /// Translation (x, y, z): the last row of the normalised matrix.
    public var translation: SIMD3<Double>
    /// Scale factors along x, y, z (exactly one is negative when the matrix mirrors).
    public var scale: SIMD3<Double>
    /// Shear factors (xy, xz, yz) in the order and meaning CSS uses.
    public var skew: SIMD3<Double>
    /// Perspective (x, y, z, w); (0, 0, 0, 1) when there is none. `m34 = −1/d` gives z = −1/d.
    public var perspective: SIMD4<Double>
    /// Unit rotation quaternion (x, y, z, w) = (axis · sin(θ/2), cos(θ/2)); w ≥ 0 after decomposition.
    ///
    /// Angles follow `CATransform3DMakeRotation`: a positive θ about z turns +x towards +y.
    public var quaternion: SIMD4<Double>

    /// A decomposition from its parts; the defaults describe the identity.
    public init(translation: SIMD3<Double> = .zero, scale: SIMD3<Double> = .one,
                skew: SIMD3<Double> = .zero, perspective: SIMD4<Double> = SIMD4(0, 0, 0, 1),
                quaternion: SIMD4<Double> = SIMD4(0, 0, 0, 1)) {
        self.translation = translation
        self.scale = scale
        self.skew = skew
        self.perspective = perspective
        self.quaternion = quaternion
    }

    /// The decomposition of the identity transform.
    public static let identity = DecomposedTransform3D()

    /// Interpolates as CSS does: every part linearly, the quaternion by spherical linear
    /// interpolation along the shorter arc. Fractions outside [0, 1] extrapolate.
    public static func interpolate(from a: DecomposedTransform3D, to b: DecomposedTransform3D,
                                   fraction f: Double) -> DecomposedTransform3D {
        DecomposedTransform3D(
            translation: a.translation + (b.translation - a.translation) * f,
            scale: a.scale + (b.scale - a.scale) * f,
            skew: a.skew + (b.skew - a.skew) * f,
            perspective: a.perspective + (b.perspective - a.perspective) * f,
            quaternion: slerp(a.quaternion, b.quaternion, f))
    }

    /// Spherical linear interpolation of unit quaternions along the shorter arc
    /// (q and −q are the same rotation, so the sign of b is chosen to make the dot product ≥ 0).
    static func slerp(_ a: SIMD4<Double>, _ b: SIMD4<Double>, _ t: Double) -> SIMD4<Double> {
        let qa = normalized(a)
        var qb = normalized(b)
        var dot = (qa * qb).sum()
        if dot < 0 { qb = -qb; dot = -dot }
        if dot > 1 - 1e-12 {
            // (Nearly) the same rotation: sin θ ≈ 0, so blend linearly and renormalise.
            return normalized(qa + (qb - qa) * t)
        }
        let theta = acos(dot)
        let sinTheta = (1 - dot * dot).squareRoot()
        let wa = sin((1 - t) * theta) / sinTheta
        let wb = sin(t * theta) / sinTheta
        return qa * wa + qb * wb
    }

    /// `q / |q|`, or the identity rotation for a zero or non-finite quaternion.
    static func normalized(_ q: SIMD4<Double>) -> SIMD4<Double> {
        let length = (q * q).sum().squareRoot()
        guard length > 0, length.isFinite else { return SIMD4(0, 0, 0, 1) }
        return q / length
    }

    /// The 3×3 rotation of a quaternion as rows, for row vectors (`p' = p · R`).
    static func rotationRows(_ quaternion: SIMD4<Double>) -> [SIMD3<Double>] {
        let q = normalized(quaternion)
        let (x, y, z, w) = (q.x, q.y, q.z, q.w)
        return [
            SIMD3(1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w)),
            SIMD3(2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w)),
            SIMD3(2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)),
        ]
    }

    /// The unit quaternion (w ≥ 0) of an orthonormal, right-handed 3×3 rotation given as rows.
    ///
    /// Uses the largest of 1 + trace and the three 1 + 2·R_ii − trace under the square root
    /// (Shepperd's method), which stays accurate near 180° where the CSS sign rule can pick
    /// the wrong sign for axes with mixed signs.
    static func quaternion(rows r: [SIMD3<Double>]) -> SIMD4<Double> {
        let trace = r[0].x + r[1].y + r[2].z
        var q: SIMD4<Double>
        if trace >= r[0].x && trace >= r[1].y && trace >= r[2].z {
            let w = 0.5 * (1 + trace).squareRoot(), k = 0.25 / w
            q = SIMD4((r[1].z - r[2].y) * k, (r[2].x - r[0].z) * k, (r[0].y - r[1].x) * k, w)
        } else if r[0].x >= r[1].y && r[0].x >= r[2].z {
            let x = 0.5 * max(0, 1 + r[0].x - r[1].y - r[2].z).squareRoot(), k = 0.25 / x
            q = SIMD4(x, (r[0].y + r[1].x) * k, (r[0].z + r[2].x) * k, (r[1].z - r[2].y) * k)
        } else if r[1].y >= r[2].z {
            let y = 0.5 * max(0, 1 - r[0].x + r[1].y - r[2].z).squareRoot(), k = 0.25 / y
            q = SIMD4((r[0].y + r[1].x) * k, y, (r[1].z + r[2].y) * k, (r[2].x - r[0].z) * k)
        } else {
            let z = 0.5 * max(0, 1 - r[0].x - r[1].y + r[2].z).squareRoot(), k = 0.25 / z
            q = SIMD4((r[0].z + r[2].x) * k, (r[1].z + r[2].y) * k, z, (r[0].y - r[1].x) * k)
        }
        q = normalized(q)
        return q.w < 0 ? -q : q
    }
}

extension CATransform3D {
    /// The CSS decomposition of this transform, or nil when it cannot be decomposed.
    ///
    /// Nil when `m44` is 0 or not finite, or when the upper-left 3×3 is singular in a way that
    /// is not a zero scale factor (rows linearly dependent but non-zero).
    ///
    /// **Strata** departs from the CSS pseudo-code in two ways:
    /// - A row of the 3×3 that is exactly zero (a scale factor of 0, e.g.
    ///   `CATransform3DMakeScale(0, 0, 1)`) decomposes with that scale 0 and a rotation axis
    ///   chosen at right angles to the others, where CSS gives up. This makes the common
    ///   "pop in from scale 0" transform animation interpolate smoothly instead of jumping.
    /// - A mirror is one negative scale factor (the axis whose flip leaves the smallest
    ///   rotation, so `CATransform3DMakeScale(-1, 1, 1)` is scale (−1, 1, 1) and no rotation),
    ///   as CSS does for 2D matrices; the 3D pseudo-code negates all three scales and adds a
    ///   180° turn, which animates a flipped layer through a collapsed, rotated state.
    ///
    /// The quaternion is read with Shepperd's method rather than CSS's sign rule (which picks
    /// wrong signs for 180° turns about axes with mixed signs); w is made ≥ 0 as in CSS.
    ///
    /// The matrix is first divided by `m44`, as CSS does, so recomposing a matrix whose `m44`
    /// is not 1 gives the projectively equal matrix with `m44 = 1`.
    public func decomposed() -> DecomposedTransform3D? {
        // The identity (bit for bit: no −0) is what most layers' transforms are, and what an
        // animated virtual field (`transform.rotation.z`) is set on every frame: decomposed once.
        if isBitwiseIdentity { return Self.identityDecomposition }
        return fullDecomposition()
    }

    /// The decomposition of the identity (`fullDecomposition()` of it, made once).
    private static let identityDecomposition = CATransform3DIdentity.fullDecomposition()

    /// Whether every entry has the identity's bits (so the decomposition is the identity's).
    private var isBitwiseIdentity: Bool {
        let one = Double(1).bitPattern, zero = Double(0).bitPattern
        return Double(m11).bitPattern == one && Double(m22).bitPattern == one && Double(m33).bitPattern == one
            && Double(m44).bitPattern == one
            && Double(m12).bitPattern == zero && Double(m13).bitPattern == zero && Double(m14).bitPattern == zero
            && Double(m21).bitPattern == zero && Double(m23).bitPattern == zero && Double(m24).bitPattern == zero
            && Double(m31).bitPattern == zero && Double(m32).bitPattern == zero && Double(m34).bitPattern == zero
            && Double(m41).bitPattern == zero && Double(m42).bitPattern == zero && Double(m43).bitPattern == zero
    }

    private func fullDecomposition() -> DecomposedTransform3D? {
        let w = Double(m44)
        guard w != 0, w.isFinite else { return nil }
        let rows: [SIMD3<Double>] = [
            SIMD3(Double(m11), Double(m12), Double(m13)) / w,
            SIMD3(Double(m21), Double(m22), Double(m23)) / w,
            SIMD3(Double(m31), Double(m32), Double(m33)) / w,
        ]
        let column = SIMD3(Double(m14), Double(m24), Double(m34)) / w
        let translation = SIMD3(Double(m41), Double(m42), Double(m43)) / w
        for v in rows + [column, translation] where !(v.x.isFinite && v.y.isFinite && v.z.isFinite) {
            return nil
        }

        // Gram–Schmidt: row i = scale_i · (r_i + Σ_{j<i} skew_ij · r_j).
        var scale = SIMD3<Double>.zero
        var k = [[Double]](repeating: [0, 0, 0], count: 3)  // k[i][j], j < i
        var r = [SIMD3<Double>?](repeating: nil, count: 3)
        for i in 0..<3 {
            let length = rows[i].length
            guard length > 0 else { continue }  // a zero scale factor: direction chosen below
            var v = rows[i]
            for j in 0..<i {
                guard let rj = r[j] else { continue }
                k[i][j] = (rj * v).sum()
                v -= rj * k[i][j]
            }
            let s = v.length
            guard s > 1e-12 * length else { return nil }  // dependent rows: singular
            scale[i] = s
            r[i] = v / s
            for j in 0..<i { k[i][j] /= s }
        }
        var basis = Self.completedBasis(r)

        // A mirror (det R = −1) becomes one negative scale factor: the axis whose flip leaves
        // the smallest rotation (smallest R_kk), as CSS does for 2D matrices. Negating row k
        // of R and scale k, and the skews that pair k with another axis, keeps S·K·R = A.
        if (basis[0] * basis[1].cross(basis[2])).sum() < 0 {
            let diagonal = [basis[0].x, basis[1].y, basis[2].z]
            let axis = diagonal.firstIndex(of: diagonal.min()!)!
            scale[axis] = -scale[axis]
            basis[axis] = -basis[axis]
            for i in 0..<3 { for j in 0..<i where (i == axis) != (j == axis) { k[i][j] = -k[i][j] } }
        }

        // Perspective: solve S·K·u = column for u = R·p₃ (forward substitution), then p₃ = Rᵀ·u.
        var p3 = SIMD3<Double>.zero
        if column != .zero {
            var u = SIMD3<Double>.zero
            for i in 0..<3 {
                var rhs = column[i]
                for j in 0..<i { rhs -= scale[i] * k[i][j] * u[j] }
                if scale[i] == 0 {
                    guard abs(rhs) <= 1e-12 * max(1, abs(column[i])) else { return nil }
                    continue
                }
                u[i] = rhs / scale[i]
            }
            p3 = basis[0] * u[0] + basis[1] * u[1] + basis[2] * u[2]
        }
        let pw = 1 - (translation * p3).sum()

        return DecomposedTransform3D(
            translation: translation, scale: scale, skew: SIMD3(k[1][0], k[2][0], k[2][1]),
            perspective: SIMD4(p3.x, p3.y, p3.z, pw),
            quaternion: DecomposedTransform3D.quaternion(rows: basis))
    }

    /// Fills the directions of zero rows so that the three form a right-handed orthonormal basis
    /// at right angles to the known ones (so the skews against them are zero).
    private static func completedBasis(_ r: [SIMD3<Double>?]) -> [SIMD3<Double>] {
        let known = (0..<3).filter { r[$0] != nil }
        switch known.count {
        case 3:
            return r.map { $0! }
        case 2:
            // r₀ = r₁ × r₂, r₁ = r₂ × r₀, r₂ = r₀ × r₁.
            var out = r.map { $0 ?? .zero }
            let d = (0..<3).first { r[$0] == nil }!
            out[d] = out[(d + 1) % 3].cross(out[(d + 2) % 3])
            return out
        case 1:
            let g = known[0], a = r[g]!
            // The axis least aligned with `a`, made orthogonal to it.
            let magnitudes = [abs(a.x), abs(a.y), abs(a.z)]
            let axis = magnitudes.firstIndex(of: magnitudes.min()!)!
            var e = SIMD3<Double>.zero
            e[axis] = 1
            let b = (e - a * (a * e).sum()).normalizedVector
            var out = [SIMD3<Double>](repeating: .zero, count: 3)
            out[g] = a
            out[(g + 1) % 3] = b
            out[(g + 2) % 3] = a.cross(b)
            return out
        default:
            return [SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1)]
        }
    }

    /// Recomposes a decomposition: scale, then skew, rotation, translation and perspective.
    ///
    /// A quaternion that is not of unit length is normalised (zero means no rotation).
    public init(_ d: DecomposedTransform3D) {
        let r = DecomposedTransform3D.rotationRows(d.quaternion)
        let a0 = r[0] * d.scale.x
        let a1 = (r[1] + r[0] * d.skew.x) * d.scale.y
        let a2 = (r[2] + r[0] * d.skew.y + r[1] * d.skew.z) * d.scale.z
        let p3 = SIMD3(d.perspective.x, d.perspective.y, d.perspective.z)
        let t = d.translation
        self.init(
            m11: CGFloat(a0.x), m12: CGFloat(a0.y), m13: CGFloat(a0.z), m14: CGFloat((a0 * p3).sum()),
            m21: CGFloat(a1.x), m22: CGFloat(a1.y), m23: CGFloat(a1.z), m24: CGFloat((a1 * p3).sum()),
            m31: CGFloat(a2.x), m32: CGFloat(a2.y), m33: CGFloat(a2.z), m34: CGFloat((a2 * p3).sum()),
            m41: CGFloat(t.x), m42: CGFloat(t.y), m43: CGFloat(t.z),
            m44: CGFloat((t * p3).sum() + d.perspective.w))
    }

    /// The transform `fraction` of the way from `from` to `to`, interpolated as CSS does.
    ///
    /// Both matrices are decomposed; translation, scale, skew and perspective are interpolated
    /// linearly and the rotation by slerp along the shorter arc (so 0° → 270° turns −90°, as on
    /// Apple platforms), then recomposed. Fraction 0 and 1 return `from` and `to` unchanged;
    /// other fractions outside [0, 1] extrapolate (for overshooting timing functions). When
    /// either matrix cannot be decomposed (see `decomposed()`), the result switches from `from`
    /// to `to` at fraction 0.5, as CSS does.
    public static func interpolate(from: CATransform3D, to: CATransform3D, fraction: Double) -> CATransform3D {
        if fraction == 0 || from == to { return from }
        if fraction == 1 { return to }
        guard let a = from.decomposed(), let b = to.decomposed() else {
            return fraction < 0.5 ? from : to
        }
        return CATransform3D(DecomposedTransform3D.interpolate(from: a, to: b, fraction: fraction))
    }
}

fileprivate extension SIMD3 where Scalar == Double {
    /// Euclidean length.
    var length: Double { (self * self).sum().squareRoot() }

    /// `self / length` (zero stays zero).
    var normalizedVector: SIMD3<Double> {
        let l = length
        return l > 0 ? self / l : self
    }

    /// The cross product `self × other`.
    func cross(_ o: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(y * o.z - z * o.y, z * o.x - x * o.z, x * o.y - y * o.x)
    }
}
