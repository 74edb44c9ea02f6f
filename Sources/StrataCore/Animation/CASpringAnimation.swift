// A basic animation whose fraction follows a damped spring instead of a timing curve.
import Foundation

// @unchecked: see CAAnimation.
/// Animates a key path from/to/by its values (as `CABasicAnimation` resolves them) along a damped
/// spring: `mass` (1), `stiffness` (100), `damping` (10), `initialVelocity` (0, in units of the
/// whole distance per second, positive towards the target). The spring runs in the animation's
/// local time, so `duration` still cuts it: set `duration = settlingDuration` to see it come to
/// rest. A `timingFunction`, when set, warps the time fed to the spring.
///
///     let drop = CASpringAnimation(keyPath: "position.y")
///     drop.fromValue = 0
///     drop.toValue = 300
///     drop.damping = 6
///     drop.duration = drop.settlingDuration
///     layer.add(drop, forKey: "drop")
///
/// **Strata:** `allowsOverdamping` defaults to true (the spring follows the physics for any
/// damping, as CASpringAnimation did before iOS 17); set it to false to clamp the damping ratio
/// at 1 (critical), as SwiftUI's springs do. Apple does not document the default.
open class CASpringAnimation: CABasicAnimation, @unchecked Sendable {
    /// The mass of the object on the spring (1 by default).
    public var mass: CGFloat = 1
    /// The spring's stiffness (100 by default): stiffer settles faster.
    public var stiffness: CGFloat = 100
    /// The damping (10 by default): more settles with less bounce.
    public var damping: CGFloat = 10
    /// The velocity at the start, in units of the whole distance per second.
    public var initialVelocity: CGFloat = 0
    /// Whether a damping ratio over 1 is followed (true, see above) or clamped at 1.
    public var allowsOverdamping = true

    /// A spring with the default parameters (mass 1, stiffness 100, damping 10) and no key path.
    public required init() { super.init() }

    /// **Strata:** no archives: a spring with default values.
    public required init?(coder: NSCoder) { super.init(coder: coder) }

    /// A spring described by how long it feels and how much it bounces (iOS 17): `mass` 1,
    /// `stiffness` (2π / perceptualDuration)², and a damping ratio of 1 − bounce for bounce ≥ 0
    /// (0: critically damped, towards 1: undamped) or 1 / (1 + bounce) below 0 (over-damped,
    /// bounce > −1). **Strata** also sets `duration` to the resulting `settlingDuration`, so the
    /// spring is not cut at the default 0.25 s.
    public convenience init(perceptualDuration: CFTimeInterval, bounce: CGFloat) {
        self.init()
        let d = max(perceptualDuration, 1e-6)
        let b = min(max(Double(bounce), -0.999_999), 1)
        let k = (2 * Double.pi / d) * (2 * Double.pi / d)
        let ratio = b >= 0 ? 1 - b : 1 / (1 + b)
        mass = 1
        stiffness = CGFloat(k)
        damping = CGFloat(ratio * 2 * k.squareRoot())
        allowsOverdamping = b < 0
        duration = settlingDuration
    }

    /// The oscillation period of the undamped spring, 2π·√(m/k) (the inverse of
    /// `init(perceptualDuration:bounce:)`).
    public var perceptualDuration: CFTimeInterval { 2 * Double.pi * (Double(mass) / Double(stiffness)).squareRoot() }

    /// 1 − ζ for a damping ratio ζ ≤ 1, 1/ζ − 1 above (the inverse of `init(perceptualDuration:bounce:)`).
    public var bounce: CGFloat {
        let z = spring.dampingRatio
        return CGFloat(z <= 1 ? 1 - z : 1 / z - 1)
    }

    /// The estimated time for the spring to come to rest: after it, the value stays within 0.1 %
    /// of the distance from the target (SwiftUI's default epsilon of 0.001). Apple does not
    /// document its criterion: for the examples in its documentation (stiffness 100, damping 5
    /// and 15) this gives 2.69 s and 0.80 s where Apple quotes "approximately 2.85 s" and "just
    /// over 1 second".
    public var settlingDuration: CFTimeInterval { spring.settlingDuration(epsilon: 1e-3) }

    /// The spring as evaluated (damping clamped to critical when overdamping is not allowed).
    public var spring: DampedSpring {
        var s = DampedSpring(mass: Double(mass), stiffness: Double(stiffness), damping: Double(damping),
                             initialVelocity: Double(initialVelocity))
        if !allowsOverdamping, s.dampingRatio > 1 { s.damping = 2 * (s.stiffness * s.mass).squareRoot() }
        return s
    }

    open override func copy(with zone: NSZone? = nil) -> Any {
        let c = super.copy(with: zone) as! CASpringAnimation
        c.mass = mass; c.stiffness = stiffness; c.damping = damping
        c.initialVelocity = initialVelocity; c.allowsOverdamping = allowsOverdamping
        return c
    }

    open override func prepare(for kind: AnimatableValue.Kind) throws -> PreparedAnimation? {
        let path = keyPath ?? ""
        guard mass > 0, mass.isFinite else { throw AnimationError.invalidParameter(keyPath: path, "mass must be greater than 0 (got \(mass))") }
        guard stiffness > 0, stiffness.isFinite else { throw AnimationError.invalidParameter(keyPath: path, "stiffness must be greater than 0 (got \(stiffness))") }
        guard damping >= 0, damping.isFinite else { throw AnimationError.invalidParameter(keyPath: path, "damping must be 0 or more (got \(damping))") }
        guard initialVelocity.isFinite else { throw AnimationError.invalidParameter(keyPath: path, "initialVelocity must be finite") }
        guard var prepared = try super.prepare(for: kind), case .basic(let ends) = prepared.curve else { return nil }
        prepared.curve = .spring(ends, spring)
        return prepared
    }
}
