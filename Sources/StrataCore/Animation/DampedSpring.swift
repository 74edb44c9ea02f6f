// The closed-form damped harmonic oscillator behind CASpringAnimation.
//
// With displacement x from the target in units of the whole distance (x(0) = 1, the start;
// x = 0, the target) the spring obeys  m·x'' + c·x' + k·x = 0  with x'(0) = −v0, where v0 is
// `initialVelocity` (positive towards the target). With ω0 = √(k/m) and ζ = c / (2√(k·m)):
//   ζ < 1 (under-damped):  x = e^(−ζω0·t) · (cos ωd·t + (ζω0 − v0)/ωd · sin ωd·t),  ωd = ω0·√(1 − ζ²)
//   ζ = 1 (critical):      x = e^(−ω0·t) · (1 + (ω0 − v0)·t)
//   ζ > 1 (over-damped):   x = C1·e^(r1·t) + C2·e^(r2·t),  r1,2 = −ω0·(ζ ∓ √(ζ² − 1)),
//                          C2 = (−v0 − r1)/(r2 − r1), C1 = 1 − C2
// The animation's fraction is 1 − x(t) (it may overshoot 1).
import Foundation

/// A damped spring from 0 to 1 as a function of time.
public struct DampedSpring: Sendable, Equatable {
    /// The mass m on the spring (default 1).
    public var mass: Double
    /// The spring constant k (default 100): stiffer springs move and settle faster.
    public var stiffness: Double
    /// The damping coefficient c (default 10): more damping, less bounce.
    public var damping: Double
    /// Initial velocity in units of the whole distance per second, positive towards the target.
    public var initialVelocity: Double

    /// A spring with these parameters (CASpringAnimation's defaults unless given).
    public init(mass: Double = 1, stiffness: Double = 100, damping: Double = 10, initialVelocity: Double = 0) {
        self.mass = mass; self.stiffness = stiffness; self.damping = damping; self.initialVelocity = initialVelocity
    }

    /// The undamped angular frequency ω0 = √(k/m).
    public var naturalFrequency: Double { (stiffness / mass).squareRoot() }
    /// The damping ratio ζ = c / (2√(k·m)): below 1 it oscillates, 1 is critical, above 1 creeps.
    public var dampingRatio: Double { damping / (2 * (stiffness * mass).squareRoot()) }

    /// How close to 1 the damping ratio must be to use the critical form (the under- and
    /// over-damped forms lose precision as ζ → 1; at this distance their values agree with the
    /// critical form to about 1e-9 over the settling time).
    static let criticalBand = 1e-9

    /// The displacement x(t) from the target, in units of the whole distance.
    public func displacement(at t: Double) -> Double {
        let w0 = naturalFrequency, z = dampingRatio, v0 = initialVelocity
        if abs(z - 1) <= Self.criticalBand {
            return exp(-w0 * t) * (1 + (w0 - v0) * t)
        }
        if z < 1 {
            let wd = w0 * (1 - z * z).squareRoot()
            return exp(-z * w0 * t) * (cos(wd * t) + (z * w0 - v0) / wd * sin(wd * t))
        }
        let root = (z * z - 1).squareRoot()
        let r1 = -w0 * (z - root), r2 = -w0 * (z + root)
        let c2 = (-v0 - r1) / (r2 - r1), c1 = 1 - c2
        return c1 * exp(r1 * t) + c2 * exp(r2 * t)
    }

    /// The fraction of the way from the start to the target at time t (1 − x(t)).
    public func fraction(at t: Double) -> Double { 1 - displacement(at: t) }

    /// An upper bound of |x(s)| for every s ≥ t (the envelope of the motion).
    func envelope(at t: Double) -> Double {
        let w0 = naturalFrequency, z = dampingRatio, v0 = initialVelocity
        if abs(z - 1) <= Self.criticalBand {
            return exp(-w0 * t) * (1 + abs(w0 - v0) * t)
        }
        if z < 1 {
            let wd = w0 * (1 - z * z).squareRoot()
            let b = (z * w0 - v0) / wd
            return exp(-z * w0 * t) * (1 + b * b).squareRoot()
        }
        let root = (z * z - 1).squareRoot()
        let r1 = -w0 * (z - root), r2 = -w0 * (z + root)
        let c2 = (-v0 - r1) / (r2 - r1), c1 = 1 - c2
        return abs(c1) * exp(r1 * t) + abs(c2) * exp(r2 * t)
    }

    /// The time after which the displacement stays within `epsilon` of the target (in units of
    /// the whole distance): the last time |x(t)| reaches epsilon, found by scanning back from the
    /// time where the envelope falls below epsilon, then bisecting. Infinite when the spring
    /// never settles (no damping).
    public func settlingDuration(epsilon: Double = 1e-3) -> Double {
        guard mass > 0, stiffness > 0, damping > 0 else { return .infinity }
        let w0 = naturalFrequency
        // The envelope is decreasing beyond 1/ω0 for the critical form; double until below ε.
        var end = 1 / w0
        while envelope(at: end) > epsilon && end < 1e6 { end *= 2 }
        if end >= 1e6 { return .infinity }
        // Scan back in steps fine enough to see every extremum (1/40 of the oscillation period
        // or of the decay time).
        let z = dampingRatio
        let period = z < 1 ? 2 * Double.pi / (w0 * (1 - z * z).squareRoot()) : 1 / w0
        let step = min(period / 40, end / 400)
        var t = end
        while t > 0 && abs(displacement(at: t)) < epsilon { t -= step }
        if t <= 0 && abs(displacement(at: 0)) < epsilon { return 0 }
        // |x| ≥ ε at max(t, 0) and < ε at t + step: bisect the crossing.
        var lo = max(t, 0), hi = min(t + step, end)
        for _ in 0..<60 {
            let mid = (lo + hi) / 2
            if abs(displacement(at: mid)) >= epsilon { lo = mid } else { hi = mid }
        }
        return hi
    }
}
