// A Lottie path (`{"c": closed, "v": vertices, "i": in tangents, "o": out tangents}`, tangents
// relative to their vertex) and the parametric shapes (rectangle, ellipse, polystar) as Core
// Graphics paths, built by the spec's formulas.
import Foundation
import Strata

struct LottieBezier: LottieInterpolatable, Equatable {
    var closed: Bool
    var vertices: [CGPoint]
    var inTangents: [CGPoint]
    var outTangents: [CGPoint]

    static func parse(_ node: JSONNode) throws -> LottieBezier {
        func points(_ key: String) throws -> [CGPoint] {
            guard let n = try node.optional(key) else { return [] }
            return try n.elements().map { e in
                let c = try e.numbers()
                guard c.count >= 2 else { throw e.error("expected a point [x, y]") }
                return CGPoint(x: c[0], y: c[1])
            }
        }
        guard node.isObject else { throw node.error("expected a path (an object with \"v\", \"i\", \"o\")") }
        let v = try points("v")
        var i = try points("i"), o = try points("o")
        if i.count != v.count { i = Array(repeating: .zero, count: v.count) }
        if o.count != v.count { o = Array(repeating: .zero, count: v.count) }
        return LottieBezier(closed: try node.bool("c"), vertices: v, inTangents: i, outTangents: o)
    }

    func interpolated(to other: LottieBezier, _ progress: (Int) -> Double) -> LottieBezier {
        guard other.vertices.count == vertices.count else { return progress(0) < 1 ? self : other }
        let t = progress(0)
        func mix(_ a: [CGPoint], _ b: [CGPoint]) -> [CGPoint] {
            zip(a, b).map { CGPoint(x: $0.x + ($1.x - $0.x) * t, y: $0.y + ($1.y - $0.y) * t) }
        }
        return LottieBezier(closed: closed, vertices: mix(vertices, other.vertices),
                            inTangents: mix(inTangents, other.inTangents), outTangents: mix(outTangents, other.outTangents))
    }

    /// Whether each segment has a handle (from vertex k to k + 1, the closing segment last): those
    /// are added as curves, the others as lines.
    var curvedSegments: [Bool] {
        let n = vertices.count
        guard n > 1 else { return [] }
        func curved(_ a: Int, _ b: Int) -> Bool { outTangents[a] != .zero || inTangents[b] != .zero }
        return (1..<n).map { curved($0 - 1, $0) } + (closed ? [curved(n - 1, 0)] : [])
    }

    /// Adds the contour to `path`: a segment with a handle as a curve, one without as a line, or
    /// as `curves` says (one flag a segment, as `curvedSegments`). The keyframes of one animated
    /// path are added with the same flags, so that their paths have the same elements and Core
    /// Animation interpolates between them (it jumps between paths that differ).
    func add(to path: CGMutablePath, transform: CGAffineTransform = .identity, curves: [Bool]? = nil) {
        guard let first = vertices.first else { return }
        path.move(to: first, transform: transform)
        let n = vertices.count
        var index = 0
        func segment(_ a: Int, _ b: Int) {
            let c1 = CGPoint(x: vertices[a].x + outTangents[a].x, y: vertices[a].y + outTangents[a].y)
            let c2 = CGPoint(x: vertices[b].x + inTangents[b].x, y: vertices[b].y + inTangents[b].y)
            let curve = curves.map { index < $0.count && $0[index] } ?? (c1 != vertices[a] || c2 != vertices[b])
            index += 1
            if curve {
                path.addCurve(to: vertices[b], control1: c1, control2: c2, transform: transform)
            } else {
                path.addLine(to: vertices[b], transform: transform)
            }
        }
        for k in 1..<max(n, 1) { segment(k - 1, k) }
        if closed && n > 1 { segment(n - 1, 0) }
        if closed { path.closeSubpath() }
    }
}

enum LottieShapes {
    /// The magic number for a quarter circle as a cubic.
    static let kappa = 0.5522847498307936

    /// A rectangle centred on `center`, drawn clockwise from the top-right corner as After Effects
    /// does, corners rounded by `radius` (clamped to half the
    /// shorter side).
    static func rectangle(center: CGPoint, size: CGSize, radius r0: Double) -> LottieBezier {
        let w = abs(size.width) / 2, h = abs(size.height) / 2
        let r = min(max(r0, 0), min(w, h))
        let cx = center.x, cy = center.y
        // Points of the outline clockwise from the top-right, each corner a quarter arc.
        var b = LottieBezier(closed: true, vertices: [], inTangents: [], outTangents: [])
        func add(_ x: Double, _ y: Double, _ ix: Double, _ iy: Double, _ ox: Double, _ oy: Double) {
            b.vertices.append(CGPoint(x: x, y: y))
            b.inTangents.append(CGPoint(x: ix, y: iy))
            b.outTangents.append(CGPoint(x: ox, y: oy))
        }
        let k = r * kappa
        if r == 0 {
            add(cx + w, cy - h, 0, 0, 0, 0); add(cx + w, cy + h, 0, 0, 0, 0)
            add(cx - w, cy + h, 0, 0, 0, 0); add(cx - w, cy - h, 0, 0, 0, 0)
        } else {
            add(cx + w, cy - h + r, 0, -k, 0, 0); add(cx + w, cy + h - r, 0, 0, 0, k)
            add(cx + w - r, cy + h, k, 0, 0, 0); add(cx - w + r, cy + h, 0, 0, -k, 0)
            add(cx - w, cy + h - r, 0, k, 0, 0); add(cx - w, cy - h + r, 0, 0, 0, -k)
            add(cx - w + r, cy - h, -k, 0, 0, 0); add(cx + w - r, cy - h, 0, 0, k, 0)
        }
        return b
    }

    /// An ellipse of `size` centred on `center`, starting at the top, clockwise.
    static func ellipse(center: CGPoint, size: CGSize) -> LottieBezier {
        let rx = size.width / 2, ry = size.height / 2, cx = center.x, cy = center.y
        let kx = rx * kappa, ky = ry * kappa
        return LottieBezier(closed: true,
                             vertices: [CGPoint(x: cx, y: cy - ry), CGPoint(x: cx + rx, y: cy), CGPoint(x: cx, y: cy + ry), CGPoint(x: cx - rx, y: cy)],
                             inTangents: [CGPoint(x: -kx, y: 0), CGPoint(x: 0, y: -ky), CGPoint(x: kx, y: 0), CGPoint(x: 0, y: ky)],
                             outTangents: [CGPoint(x: kx, y: 0), CGPoint(x: 0, y: ky), CGPoint(x: -kx, y: 0), CGPoint(x: 0, y: -ky)])
    }

    /// A star (`star` true: outer and inner radii) or polygon of `points` corners, the first at
    /// the top rotated by `rotation` degrees; roundness (percent) gives each corner tangents of
    /// `radius × roundness × 2π / (4 × points) / 100` along the circle, as the spec describes.
    static func polystar(center: CGPoint, points: Double, star: Bool, outerRadius: Double, innerRadius: Double,
                         outerRoundness: Double, innerRoundness: Double, rotation: Double) -> LottieBezier {
        // Corners: at least 3 (a star 2 points), at most 10 000.
        let n = Int(min(max(points.isFinite ? points.rounded(.down) : 0, star ? 2 : 3), 10_000))
        let count = star ? n * 2 : n
        let step = 2 * Double.pi / Double(count)
        var angle = (rotation - 90) * Double.pi / 180
        var b = LottieBezier(closed: true, vertices: [], inTangents: [], outTangents: [])
        for i in 0..<count {
            let outer = !star || i % 2 == 0
            let r = outer ? outerRadius : innerRadius
            let roundness = (outer ? outerRoundness : innerRoundness) / 100
            let x = center.x + r * cos(angle), y = center.y + r * sin(angle)
            // Tangent along the circle (perpendicular to the radius), scaled by roundness.
            let length = r * roundness * 2 * Double.pi / Double(count) / 4
            let tx = -sin(angle) * length, ty = cos(angle) * length
            b.vertices.append(CGPoint(x: x, y: y))
            b.inTangents.append(CGPoint(x: -tx, y: -ty))
            b.outTangents.append(CGPoint(x: tx, y: ty))
            angle += step
        }
        return b
    }
}

extension LottieBezier {
    /// The same outline traversed the other way (shape direction 3).
    func reversed() -> LottieBezier {
        guard !vertices.isEmpty else { return self }
        // Keep the first vertex first, then go backwards; in and out tangents swap roles.
        let order = [0] + (1..<vertices.count).reversed()
        return LottieBezier(closed: closed, vertices: order.map { vertices[$0] },
                            inTangents: order.map { outTangents[$0] }, outTangents: order.map { inTangents[$0] })
    }
}
