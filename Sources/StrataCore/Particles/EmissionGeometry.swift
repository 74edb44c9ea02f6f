// Where on the emitter shape a particle is born and which way it leaves.
//
// Shapes (Apple's `CAEmitterLayer.h`): centred on (emitterPosition, emitterZPosition) with extent
// emitterSize (× emitterDepth); a circle's and a sphere's diameter is emitterSize.width. Modes:
// `points` — the shape's vertices (**Strata:** a circle's and a sphere's centre); `outline` —
// edges / circumference / a sphere's surface; `surface` — a rectangle's or circle's area, a
// cuboid's faces, a sphere's surface; `volume` — the area or the solid. A line is the same in every
// mode but `points` (its two ends). All positions are uniform over their length, area or volume.
//
// Directions: **Strata:** the natural direction of every shape is +x (Apple does not document
// it; iOS code turns particles up with emissionLongitude = −π/2). Longitude turns it in the
// xy-plane (clockwise on screen, y down), latitude tilts it towards +z; `emissionRange` is the
// full angle of a cone around it, sampled uniformly over the cone's solid angle (so 2π is every
// direction in 3D, and a flattened emitter shows the projected, slower, in-plane component).
import Foundation

/// A point or direction in the emitter layer's 3D space.
struct Vector3: Sendable, Equatable {
    var x: Double, y: Double, z: Double

    static let zero = Vector3(x: 0, y: 0, z: 0)
    static func + (a: Vector3, b: Vector3) -> Vector3 { Vector3(x: a.x + b.x, y: a.y + b.y, z: a.z + b.z) }
    static func - (a: Vector3, b: Vector3) -> Vector3 { Vector3(x: a.x - b.x, y: a.y - b.y, z: a.z - b.z) }
    static func * (a: Vector3, s: Double) -> Vector3 { Vector3(x: a.x * s, y: a.y * s, z: a.z * s) }
    var length: Double { (x * x + y * y + z * z).squareRoot() }
    func cross(_ o: Vector3) -> Vector3 { Vector3(x: y * o.z - z * o.y, y: z * o.x - x * o.z, z: x * o.y - y * o.x) }
    var normalized: Vector3? {
        let l = length
        return l > 1e-12 && l.isFinite ? self * (1 / l) : nil
    }
}

/// An orthonormal frame whose first axis is the "natural" emission direction: identity for the
/// emitter, a particle's current direction of travel for its sub-cells.
struct EmissionFrame: Sendable {
    var forward: Vector3, side: Vector3, up: Vector3

    static let identity = EmissionFrame(forward: Vector3(x: 1, y: 0, z: 0), side: Vector3(x: 0, y: 1, z: 0),
                                        up: Vector3(x: 0, y: 0, z: 1))

    /// The frame turning +x onto `direction` with the smallest rotation out of the xy-plane
    /// (identity when `direction` is zero).
    init(direction: Vector3) {
        guard let f = direction.normalized else { self = .identity; return }
        let z = Vector3(x: 0, y: 0, z: 1)
        let s = z.cross(f).normalized ?? Vector3(x: 0, y: 1, z: 0)
        self.init(forward: f, side: s, up: f.cross(s))
    }

    init(forward: Vector3, side: Vector3, up: Vector3) { self.forward = forward; self.side = side; self.up = up }

    /// A vector given in this frame's coordinates (x along `forward`, y along `side`, z `up`).
    func map(_ v: Vector3) -> Vector3 { forward * v.x + side * v.y + up * v.z }
}

enum EmissionGeometry {
    /// The birth position for the emitter `c` (its position possibly interpolated already).
    static func position(_ c: EmitterConfiguration, center: Vector3, _ r: ParticleRandom) -> Vector3 {
        position(c, kind: EmitterGeometryKind(c), center: center, r)
    }

    /// `position(c, center:, r)` with the emitter's shape and mode read already (`kind`, made from
    /// `c` once per configuration: comparing their strings cost more than the rest, once a birth).
    static func position(_ c: EmitterConfiguration, kind: EmitterGeometryKind, center: Vector3, _ r: ParticleRandom) -> Vector3 {
        let w = Double(c.emitterSize.width), h = Double(c.emitterSize.height), d = Double(c.emitterDepth)
        // Each stream is a pure function of the particle's key: drawn only where the shape reads it.
        var a: Double { r.unit(.shapeA) }
        var b: Double { r.unit(.shapeB) }
        var e: Double { r.unit(.shapeC) }
        var k: Double { r.unit(.shapeCorner) }
        func at(_ x: Double, _ y: Double, _ z: Double) -> Vector3 { center + Vector3(x: x, y: y, z: z) }
        switch kind.shape {
        case .line:
            if kind.mode == .points { return at(k < 0.5 ? -w / 2 : w / 2, 0, 0) }
            return at(w * (a - 0.5), 0, 0)
        case .rectangle:
            switch kind.mode {
            case .points:
                let i = min(Int(k * 4), 3)
                return at(i & 1 == 0 ? -w / 2 : w / 2, i & 2 == 0 ? -h / 2 : h / 2, 0)
            case .outline:
                let p = onRectangleOutline(w, h, a)
                return at(p.0, p.1, 0)
            default:
                return at(w * (a - 0.5), h * (b - 0.5), 0)
            }
        case .cuboid:
            switch kind.mode {
            case .points:
                let i = min(Int(k * 8), 7)
                return at(i & 1 == 0 ? -w / 2 : w / 2, i & 2 == 0 ? -h / 2 : h / 2, i & 4 == 0 ? -d / 2 : d / 2)
            case .outline:
                // Twelve edges: four along each axis, chosen by length.
                let total = 4 * (w + h + d)
                guard total > 0 else { return center }
                var s = k * total
                let corner1 = b < 0.5 ? -0.5 : 0.5, corner2 = e < 0.5 ? -0.5 : 0.5
                if s < 4 * w { return at(w * (a - 0.5), h * corner1, d * corner2) }
                s -= 4 * w
                if s < 4 * h { return at(w * corner1, h * (a - 0.5), d * corner2) }
                return at(w * corner1, h * corner2, d * (a - 0.5))
            case .surface:
                // Six faces by area: pairs normal to z (w·h), y (w·d) and x (h·d).
                let areas = [w * h, w * d, h * d]
                let total = areas.reduce(0, +)
                guard total > 0 else { return at(w * (a - 0.5), h * (b - 0.5), d * (e - 0.5)) }
                let s = k * total
                let side = e < 0.5 ? -0.5 : 0.5
                if s < areas[0] { return at(w * (a - 0.5), h * (b - 0.5), d * side) }
                if s < areas[0] + areas[1] { return at(w * (a - 0.5), h * side, d * (b - 0.5)) }
                return at(w * side, h * (a - 0.5), d * (b - 0.5))
            default:
                return at(w * (a - 0.5), h * (b - 0.5), d * (e - 0.5))
            }
        case .circle:
            let radius = w / 2, angle = 2 * Double.pi * a
            switch kind.mode {
            case .points: return center
            case .outline: return at(radius * cos(angle), radius * sin(angle), 0)
            default:
                let rr = radius * b.squareRoot()
                return at(rr * cos(angle), rr * sin(angle), 0)
            }
        case .sphere:
            let radius = w / 2
            if kind.mode == .points { return center }
            let zz = 2 * b - 1, angle = 2 * Double.pi * a, ring = max(0, 1 - zz * zz).squareRoot()
            let rr = kind.mode == .volume ? radius * Foundation.cbrt(e) : radius
            return at(rr * ring * cos(angle), rr * ring * sin(angle), rr * zz)
        default:
            return center
        }
    }

    /// A point on the perimeter of a w × h rectangle centred on the origin, at fraction `u` of
    /// its length (clockwise from the top-left corner).
    static func onRectangleOutline(_ w: Double, _ h: Double, _ u: Double) -> (Double, Double) {
        let total = 2 * (w + h)
        guard total > 0 else { return (0, 0) }
        var s = u * total
        if s < w { return (s - w / 2, -h / 2) }
        s -= w
        if s < h { return (w / 2, s - h / 2) }
        s -= h
        if s < w { return (w / 2 - s, h / 2) }
        s -= w
        return (-w / 2, h / 2 - s)
    }

    /// The unit direction of a new particle of a cell with the given angles, in `frame`.
    static func direction(longitude: Double, latitude: Double, range: Double, frame: EmissionFrame,
                          _ r: ParticleRandom) -> Vector3 {
        direction(EmissionCone(longitude: longitude, latitude: latitude, range: range), frame: frame, r)
    }

    /// The unit direction of a new particle of a cell whose cone is `cone`, in `frame`: uniform
    /// over the spherical cap of the cone's half-angle around its axis.
    @inline(__always)
    static func direction(_ cone: EmissionCone, frame: EmissionFrame, _ r: ParticleRandom) -> Vector3 {
        var d = cone.axis
        if cone.half > 0 {
            let cosGamma = 1 - r.unit(.cone) * cone.oneMinusCosHalf
            let sinGamma = max(0, 1 - cosGamma * cosGamma).squareRoot()
            let beta = 2 * Double.pi * r.unit(.coneTurn)
            let f = cone.axisFrame
            d = f.forward * cosGamma + f.side * (sinGamma * cos(beta)) + f.up * (sinGamma * sin(beta))
        }
        return frame.map(d)
    }
}

/// The numbers of a cell's emission direction that depend on the cell alone (its angles), made
/// once per cell rather than once per particle (six sines and cosines and two normalisations a
/// birth before): the same expressions, so the same directions to the bit.
struct EmissionCone: Sendable {
    /// The cone's axis: +x turned by the longitude in the xy-plane and tilted by the latitude.
    let axis: Vector3
    /// Half the cone's full angle, at most π.
    let half: Double
    /// `1 − cos(half)`.
    let oneMinusCosHalf: Double
    /// The frame turning +x onto the axis.
    let axisFrame: EmissionFrame

    init(longitude: Double, latitude: Double, range: Double) {
        axis = Vector3(x: cos(latitude) * cos(longitude), y: cos(latitude) * sin(longitude), z: sin(latitude))
        half = min(abs(range) / 2, Double.pi)
        oneMinusCosHalf = 1 - cos(half)
        axisFrame = EmissionFrame(direction: axis)
    }
}

/// An emitter's `emitterShape` and `emitterMode` as enumerations (their strings compared once).
struct EmitterGeometryKind: Sendable, Equatable {
    enum Shape: Sendable { case point, line, rectangle, cuboid, circle, sphere, other }
    enum Mode: Sendable { case points, outline, surface, volume, other }
    let shape: Shape
    let mode: Mode

    init(_ c: EmitterConfiguration) {
        switch c.emitterShape {
        case .point: shape = .point
        case .line: shape = .line
        case .rectangle: shape = .rectangle
        case .cuboid: shape = .cuboid
        case .circle: shape = .circle
        case .sphere: shape = .sphere
        default: shape = .other
        }
        switch c.emitterMode {
        case .points: mode = .points
        case .outline: mode = .outline
        case .surface: mode = .surface
        case .volume: mode = .volume
        default: mode = .other
        }
    }
}
