// The transform's virtual key-path fields (`transform.rotation.z`, `transform.scale.x`, …):
// read from, and written back through, the CSS decomposition in TransformDecomposition.swift.
// The key-path layer strips the `transform.` / `sublayerTransform.` prefix and calls these.
import Foundation

extension CATransform3D {
    /// The scalar virtual fields understood by `value(forVirtualKey:)` and `settingVirtualKey(_:to:)`.
    ///
    /// `translation` alone (Apple's CGSize field) is not a scalar and is not listed.
    public static let virtualScalarKeys: Set<String> = [
        "rotation", "rotation.x", "rotation.y", "rotation.z",
        "scale", "scale.x", "scale.y", "scale.z",
        "translation.x", "translation.y", "translation.z",
    ]

    /// Reads a virtual field (`rotation.z`, `scale.x`, `translation.y`, …) from the decomposition.
    ///
    /// Returns nil for an unknown key or a matrix that cannot be decomposed.
    /// - `rotation` is `rotation.z`, as on Apple platforms.
    /// - `rotation.x/.y/.z` are Euler angles in radians of the decomposed rotation, taken as a
    ///   turn about x, then about y, then about z (`R = Rx · Ry · Rz`, first applied first).
    ///   A rotation about one axis reads as its angle on that axis (in (−π, π]; for x and z, and
    ///   [−π/2, π/2] for y) and 0 on the others. Apple does not document how it splits a general
    ///   rotation; this is Strata's choice.
    /// - `scale` is **Strata's** choice: the mean of `scale.x` and `scale.y` (Apple's documentation
    ///   says the mean of all three; for layers, whose z scale is usually 1, x and y is what is meant).
    /// - `scale.x/.y/.z` and `translation.x/.y/.z` are the decomposition's components; a mirror
    ///   reads as one negative scale factor.
    public func value(forVirtualKey key: String) -> CGFloat? {
        VirtualKey(key).flatMap { value(forVirtualKey: $0) }
    }

    /// `value(forVirtualKey:)` for a key parsed once.
    func value(forVirtualKey key: VirtualKey) -> CGFloat? {
        guard let d = decomposed() else { return nil }
        switch key {
        case .scale: return CGFloat((d.scale.x + d.scale.y) / 2)
        case .scaleX: return CGFloat(d.scale.x)
        case .scaleY: return CGFloat(d.scale.y)
        case .scaleZ: return CGFloat(d.scale.z)
        case .translationX: return CGFloat(d.translation.x)
        case .translationY: return CGFloat(d.translation.y)
        case .translationZ: return CGFloat(d.translation.z)
        case .rotationX, .rotationY, .rotationZ:
            let angles = Self.eulerAngles(DecomposedTransform3D.rotationRows(d.quaternion))
            switch key {
            case .rotationX: return CGFloat(angles.x)
            case .rotationY: return CGFloat(angles.y)
            default: return CGFloat(angles.z)  // "rotation", "rotation.z"
            }
        }
    }

    /// This transform with one virtual field replaced, recomposed from its decomposition.
    ///
    /// As on Apple platforms, setting `rotation.z` (or `rotation`, `.x`, `.y`) to θ replaces the
    /// whole rotation with a turn by θ about that one axis; scale, skew, translation and
    /// perspective are kept, so a layer with `m34 = −1/500` animated on `rotation.y` keeps its
    /// perspective. `scale` sets all three scale factors; `scale.x` etc. set one; `translation.x`
    /// etc. set one coordinate. Any angle is accepted (2π is a whole turn, i.e. no rotation).
    /// Returns nil for an unknown key or a matrix that cannot be decomposed (see `decomposed()`).
    ///
    ///     let t = CATransform3DMakeScale(2, 2, 1).settingVirtualKey("rotation.z", to: .pi / 2)
    ///     // == CATransform3DRotate(CATransform3DMakeScale(2, 2, 1), .pi / 2, 0, 0, 1)
    public func settingVirtualKey(_ key: String, to value: CGFloat) -> CATransform3D? {
        VirtualKey(key).flatMap { settingVirtualKey($0, to: value) }
    }

    /// `settingVirtualKey(_:to:)` for a key parsed once.
    func settingVirtualKey(_ key: VirtualKey, to value: CGFloat) -> CATransform3D? {
        guard var d = decomposed() else { return nil }
        let v = Double(value)
        switch key {
        case .rotationZ: d.quaternion = SIMD4(0, 0, sin(v / 2), cos(v / 2))
        case .rotationX: d.quaternion = SIMD4(sin(v / 2), 0, 0, cos(v / 2))
        case .rotationY: d.quaternion = SIMD4(0, sin(v / 2), 0, cos(v / 2))
        case .scale: d.scale = SIMD3(v, v, v)
        case .scaleX: d.scale.x = v
        case .scaleY: d.scale.y = v
        case .scaleZ: d.scale.z = v
        case .translationX: d.translation.x = v
        case .translationY: d.translation.y = v
        case .translationZ: d.translation.z = v
        }
        return CATransform3D(d)
    }

    /// A scalar virtual field, parsed once from its key path (`rotation` is `rotation.z`).
    enum VirtualKey: Equatable, Sendable {
        case rotationX, rotationY, rotationZ, scale, scaleX, scaleY, scaleZ, translationX, translationY, translationZ

        /// nil for a key that is not in `virtualScalarKeys`.
        init?(_ key: String) {
            switch key {
            case "rotation", "rotation.z": self = .rotationZ
            case "rotation.x": self = .rotationX
            case "rotation.y": self = .rotationY
            case "scale": self = .scale
            case "scale.x": self = .scaleX
            case "scale.y": self = .scaleY
            case "scale.z": self = .scaleZ
            case "translation.x": self = .translationX
            case "translation.y": self = .translationY
            case "translation.z": self = .translationZ
            default: return nil
            }
        }
    }

    /// Euler angles (x, y, z) with `R = Rx(x) · Ry(y) · Rz(z)` for a row-vector rotation `R`.
    ///
    /// Multiplying out the three `CATransform3DMakeRotation` matrices gives
    /// R₀₂ = −sin y, R₁₂ = sin x·cos y, R₂₂ = cos x·cos y, R₀₁ = cos y·sin z, R₀₀ = cos y·cos z.
    /// At cos y = 0 (gimbal lock) only x ± z is defined; z is taken as 0 and
    /// R₂₁ = −sin x, R₁₁ = cos x give x.
    static func eulerAngles(_ r: [SIMD3<Double>]) -> SIMD3<Double> {
        let sinY = min(max(-r[0].z, -1), 1)
        let y = asin(sinY)
        if abs(sinY) < 1 - 1e-12 {
            return SIMD3(atan2(r[1].z, r[2].z), y, atan2(r[0].y, r[0].x))
        }
        return SIMD3(atan2(-r[2].y, r[1].y), y, 0)
    }
}
