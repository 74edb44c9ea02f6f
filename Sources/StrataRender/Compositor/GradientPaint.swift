// Gradients evaluated per pixel in the layer's own coordinates: axial (projection on the
// start→end line, isolines perpendicular in points, as Core Graphics draws them), radial (an
// ellipse centred at startPoint with radii reaching endPoint; with a focal point, the two-point
// conical gradient from that point to the ellipse, as SVG's fx/fy and Lottie's highlight) and conic (the angle around
// startPoint from the direction of endPoint, clockwise on screen). Colours interpolate
// unpremultiplied in gamma-encoded sRGB between stops and extend past both ends. A ±½-level
// ordered dither keyed on the pixel position breaks 8-bit banding and is the same whatever the
// tile or thread.
import Foundation
import Synchronization
import StrataCore

/// A gradient ready for the rasteriser.
public struct GradientPaint: Sendable {
    enum Kind: Sendable { case axial, radial, conic }
    let kind: Kind
    let sx: Double, sy: Double, ex: Double, ey: Double
    // Axial: t = (p − s)·d · invLen2. Radial: radii. Conic: base angle.
    let dx: Double, dy: Double, invLen2: Double
    let rx: Double, ry: Double
    /// Radial with a focal point: the focus relative to the centre in units of the radii (at
    /// most 0.99 from it), and fx² + fy² − 1. `focal` false (fx = fy = 0): the plain ellipse.
    let focal: Bool
    let fx: Double, fy: Double, focalA: Double
    let baseAngle: Double
    /// The stops and their colours, shared by every paint of the same gradient.
    let ramp: GradientRamp
    let opacity: Float
    var stops: [Double] { ramp.stops }
    var colors: [SIMD4<Float>] { ramp.colors }  // straight alpha
    /// The stops and colours as the span kernel reads them (Float, four per colour).
    var kernelStops: [Float] { ramp.kernelStops }
    var kernelColors: [Float] { ramp.kernelColors }

    /// The paint of `g` over `bounds`; its ramp from `ramps` when given (a gradient drawn every
    /// frame then makes its three arrays once, not each frame).
    init?(_ g: GradientSnapshot, bounds: CGRect, opacity: Float, ramps: GradientRamps? = nil) {
        guard !g.colors.isEmpty, g.colors.count == g.locations.count else { return nil }
        let w = Double(bounds.width), h = Double(bounds.height)
        sx = Double(bounds.minX) + Double(g.startPoint.x) * w; sy = Double(bounds.minY) + Double(g.startPoint.y) * h
        ex = Double(bounds.minX) + Double(g.endPoint.x) * w; ey = Double(bounds.minY) + Double(g.endPoint.y) * h
        dx = ex - sx; dy = ey - sy
        let len2 = dx * dx + dy * dy
        invLen2 = len2 > 0 ? 1 / len2 : 0
        rx = abs(dx); ry = abs(dy)
        baseAngle = atan2(dy, dx)
        switch g.type {
        case .radial: kind = .radial
        case .conic: kind = .conic
        default: kind = .axial
        }
        var (nfx, nfy) = (0.0, 0.0)
        if kind == .radial, let f = g.focalPoint, rx > 0, ry > 0 {
            nfx = (Double(bounds.minX) + Double(f.x) * w - sx) / rx
            nfy = (Double(bounds.minY) + Double(f.y) * h - sy) / ry
            let length = (nfx * nfx + nfy * nfy).squareRoot()
            if !length.isFinite || length < 1e-9 { (nfx, nfy) = (0, 0) }
            else if length > Self.focalLimit { nfx *= Self.focalLimit / length; nfy *= Self.focalLimit / length }
        }
        focal = nfx != 0 || nfy != 0
        fx = nfx; fy = nfy
        focalA = nfx * nfx + nfy * nfy - 1
        self.opacity = opacity
        ramp = ramps?.ramp(locations: g.locations, colors: g.colors) ?? GradientRamp(locations: g.locations, colors: g.colors)
    }

    /// The farthest a focal point is drawn from the centre, in units of the radii (a focus on
    /// or outside the ellipse leaves pixels without a circle through them; SVG moves it onto
    /// the edge, lottie-web to 0.99 of the radius).
    static let focalLimit = 0.99

    /// The gradient parameter at a layer-space point.
    @inline(__always)
    func parameter(_ u: Double, _ v: Double) -> Double {
        switch kind {
        case .axial:
            return ((u - sx) * dx + (v - sy) * dy) * invLen2
        case .radial:
            let nx = rx > 0 ? (u - sx) / rx : (u == sx ? 0 : .infinity)
            let ny = ry > 0 ? (v - sy) / ry : (v == sy ? 0 : .infinity)
            if rx == 0 && ry == 0 { return 1 }
            if rx == 0 { return abs(ny) }
            if ry == 0 { return abs(nx) }
            if focal { return Self.focalParameter(nx, ny, fx, fy, focalA) }
            return (nx * nx + ny * ny).squareRoot()
        case .conic:
            var a = atan2(v - sy, u - sx) - baseAngle
            a = a - 2 * .pi * (a / (2 * .pi)).rounded(.down)
            return a / (2 * .pi)
        }
    }

    /// The parameter t of a two-point conical gradient at (nx, ny), in units of the radii from
    /// the centre, whose focus (fx, fy) lies inside the unit circle (a = fx² + fy² − 1 < 0): the
    /// circle centred at f + t·(0 − f) with radius t passes through the point. With q = n − f,
    /// |q + t·f|² = t² gives a·t² − 2b·t + c = 0 (b = −q·f, c = q·q), whose non-negative root is
    /// c / (b + √(b² − a·c)) (0 at the focus, 1 on the circle). The C kernels compute the same.
    @inline(__always)
    static func focalParameter(_ nx: Double, _ ny: Double, _ fx: Double, _ fy: Double, _ a: Double) -> Double {
        let qx = nx - fx, qy = ny - fy
        let b = -(qx * fx + qy * fy), c = qx * qx + qy * qy
        let denominator = b + (b * b - a * c).squareRoot()
        return denominator > 0 ? c / denominator : 0
    }

    /// The premultiplied colour at parameter t, with the layer's opacity.
    @inline(__always)
    func color(at t: Double) -> SIMD4<Float> {
        let n = stops.count
        var c: SIMD4<Float>
        if n == 1 || t <= stops[0] { c = colors[0] }
        else if t >= stops[n - 1] { c = colors[n - 1] }
        else {
            var i = 1
            while i < n - 1 && stops[i] < t { i += 1 }
            let a = stops[i - 1], b = stops[i]
            let f = b > a ? Float((t - a) / (b - a)) : 1
            c = colors[i - 1] + (colors[i] - colors[i - 1]) * f
        }
        let alpha = c.w * opacity
        return SIMD4(c.x * alpha, c.y * alpha, c.z * alpha, alpha)
    }

    /// A deterministic dither offset in (−½, ½) of one 8-bit level, from the pixel position
    /// (an 8×8 Bayer matrix: fine-grained, invisible, and it survives H.264 better than noise).
    @inline(__always)
    static func dither(_ x: Int, _ y: Int) -> Float {
        // The matrix entry is the bit-reversed interleaving of (x XOR y) and y (3 bits each):
        // row 0 reads 0, 32, 8, 40, 2, 34, 10, 42. Computed, not looked up: no table load per pixel.
        let a = (x ^ y) & 7, b = y & 7
        let k = (a & 1) << 5 | (b & 1) << 4 | (a & 2) << 2 | (b & 2) << 1 | (a & 4) >> 1 | (b & 4) >> 2
        return (Float(k) + 0.5) / 64 - 0.5
    }
}

/// A gradient's stops sorted by location (stable), as Core Graphics requires ascending locations,
/// with their straight colours, and both as the span kernel reads them (Float, four per colour).
final class GradientRamp: Sendable {
    let stops: [Double]
    let colors: [SIMD4<Float>]
    let kernelStops: [Float]
    let kernelColors: [Float]

    init(stops: [Double], colors: [SIMD4<Float>]) {
        self.stops = stops
        self.colors = colors
        kernelStops = stops.map { Float($0) }
        kernelColors = [Float](unsafeUninitializedCapacity: 4 * colors.count) { buffer, count in
            for (i, c) in colors.enumerated() {
                buffer[4 * i] = c.x; buffer[4 * i + 1] = c.y; buffer[4 * i + 2] = c.z; buffer[4 * i + 3] = c.w
            }
            count = 4 * colors.count
        }
    }

    /// `locations` and `colors` are as long as each other.
    convenience init(locations: [Double], colors: [RGBA]) {
        // (The usual ascending stops take no sort.)
        let ascending = (1..<max(1, locations.count)).allSatisfy { locations[$0 - 1] <= locations[$0] }
        if ascending {
            self.init(stops: locations, colors: colors.map { SIMD4($0.r, $0.g, $0.b, $0.a) })
        } else {
            let order = locations.indices.sorted { locations[$0] != locations[$1] ? locations[$0] < locations[$1] : $0 < $1 }
            self.init(stops: order.map { locations[$0] }, colors: order.map { SIMD4(colors[$0].r, colors[$0].g, colors[$0].b, colors[$0].a) })
        }
    }
}

/// Gradient ramps by stops and colours, kept while used (RecentEntries): the entries not used in
/// a frame or the one before are dropped at its end.
final class GradientRamps: Sendable {
    struct Key: Hashable {
        let locations: [Double]
        let colors: [RGBA]
    }
    private let entries = Mutex(RecentEntries<Key, GradientRamp>())

    /// The ramp of these stops (as long as `colors`), made on a miss.
    func ramp(locations: [Double], colors: [RGBA]) -> GradientRamp {
        let key = Key(locations: locations, colors: colors)
        if let hit = entries.withCheckedLock({ $0.use(key) }) { return hit }
        let ramp = GradientRamp(locations: locations, colors: colors)
        entries.withCheckedLock { $0.insert(ramp, for: key) }
        return ramp
    }

    func endFrame() { entries.withCheckedLock { $0.endFrame() } }
}
