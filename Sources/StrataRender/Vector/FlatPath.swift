// Paths made of straight lines: every curve of a CGPath is replaced by chords close enough that
// no point of the curve is more than `tolerance` (layer units) away. The number of chords of a
// cubic comes from Wang's formula, n = ⌈√(¾·L / tolerance)⌉ with L the largest second difference
// of its control points (¼ for quadratics), so the error bound holds without measuring the
// curve. A cubic's second derivative varies linearly along it, so a span [a, b] of its parameter
// needs only ⌈(b − a)·√(¾·M / tolerance)⌉ chords, M the larger second difference at its ends:
// a long cubic is flattened in eight such spans (the standard motion scene's curves: 20 % fewer
// chords than one span, within the same bound). Vertices where path elements meet are marked as corners: the stroker joins them with
// the layer's lineJoin, and the vertices inside a curve smoothly.
import Foundation
import StrataCore

/// A path's subpaths as polylines in layer coordinates. One value can flatten path after path
/// (`flatten`), reusing its subpaths' storage: the rasterisation stage keeps one per worker, so
/// flattening a frame's shapes allocates nothing once the storage has grown.
struct FlatPath {
    struct Subpath {
        var points: [CGPoint] = []
        /// Per point: whether it is where two path elements meet (a corner), not inside a curve.
        var corners: [Bool] = []
        var isClosed = false
    }

    /// Subpaths `0 ..< count` are this path's; those after are spare storage.
    private var storage: [Subpath] = []
    private var count = 0

    var subpaths: ArraySlice<Subpath> { storage[..<count] }

    init() {}

    /// Flattens the elements of a path.
    init(_ elements: [CGPathElement], tolerance: Double) { flatten(elements, tolerance: tolerance) }

    /// Replaces the subpaths with those of `elements`.
    mutating func flatten(_ elements: [CGPathElement], tolerance: Double) {
        let tol = max(tolerance, 1e-6)
        count = 0
        // Subpath `count` is being built when `building` (it has at least one point).
        var building = false
        var start = CGPoint.zero, last = CGPoint.zero
        func begin(_ p: CGPoint) {
            if count == storage.count { storage.append(Subpath()) }
            storage[count].points.removeAll(keepingCapacity: true)
            storage[count].corners.removeAll(keepingCapacity: true)
            storage[count].isClosed = false
            storage[count].points.append(p)
            storage[count].corners.append(true)
            building = true
        }
        func finish() {
            if building { count += 1 }
            building = false
        }
        func lineTo(_ p: CGPoint, corner: Bool) {
            if !building { begin(last) }
            storage[count].points.append(p)
            storage[count].corners.append(corner)
        }
        for e in elements {
            switch e {
            case .moveToPoint(let p):
                finish()
                start = p; last = p
                begin(p)
            case .addLineToPoint(let p):
                lineTo(p, corner: true); last = p
            case .addQuadCurveToPoint(let c, let p):
                let dd = hypot(Double(last.x - 2 * c.x + p.x), Double(last.y - 2 * c.y + p.y))
                let n = FlatPath.chords((0.25 * dd / tol).squareRoot())
                for i in 1...n {
                    let t = Double(i) / Double(n), u = 1 - t
                    let x = u * u * Double(last.x) + 2 * u * t * Double(c.x) + t * t * Double(p.x)
                    let y = u * u * Double(last.y) + 2 * u * t * Double(c.y) + t * t * Double(p.y)
                    lineTo(i == n ? p : CGPoint(x: x, y: y), corner: i == n)
                }
                last = p
            case .addCurveToPoint(let c1, let c2, let p):
                let x0 = Double(last.x), y0 = Double(last.y), x1 = Double(c1.x), y1 = Double(c1.y)
                let x2 = Double(c2.x), y2 = Double(c2.y), x3 = Double(p.x), y3 = Double(p.y)
                // The second differences at the ends; in between they vary linearly.
                let dx0 = x0 - 2 * x1 + x2, dy0 = y0 - 2 * y1 + y2, dx1 = x1 - 2 * x2 + x3, dy1 = y1 - 2 * y2 + y3
                let n = FlatPath.chords((0.75 * max(hypot(dx0, dy0), hypot(dx1, dy1)) / tol).squareRoot())
                // Cut into `curvePieces` equal spans of the parameter, each with the chords its own
                // bound asks for: fewer where the curve bends less (an S-curve's middle).
                let pieces = n >= 2 * FlatPath.curvePieces ? FlatPath.curvePieces : 1
                for k in 0..<pieces {
                    let a = Double(k) / Double(pieces), b = Double(k + 1) / Double(pieces)
                    var m = n
                    if pieces > 1 {
                        let ma = hypot((1 - a) * dx0 + a * dx1, (1 - a) * dy0 + a * dy1)
                        let mb = hypot((1 - b) * dx0 + b * dx1, (1 - b) * dy0 + b * dy1)
                        m = FlatPath.chords((b - a) * (0.75 * max(ma, mb) / tol).squareRoot())
                    }
                    for i in 1...m {
                        let last = k == pieces - 1 && i == m
                        let t = a + (b - a) * Double(i) / Double(m), u = 1 - t
                        let ca = u * u * u, cb = 3 * u * u * t, cc = 3 * u * t * t, cd = t * t * t
                        lineTo(last ? p : CGPoint(x: ca * x0 + cb * x1 + cc * x2 + cd * x3, y: ca * y0 + cb * y1 + cc * y2 + cd * y3),
                               corner: last)
                    }
                }
                last = p
            case .closeSubpath:
                if !building { begin(last) }
                storage[count].isClosed = true
                last = start
                // Drawing on after a close starts a new subpath at the start point (lineTo).
                finish()
            }
        }
        finish()
    }

    /// The layer-space distance matching `pixels` screen pixels for a plane whose largest local
    /// stretch is `scale` screen pixels per layer unit.
    static func tolerance(pixels: Double, scale: Double) -> Double { pixels / max(scale, 1e-9) }

    /// Pieces a cubic is flattened in when it needs at least twice as many chords.
    static let curvePieces = 8

    /// The most chords one curve (or one piece of a cubic) is cut into: enough for a curve
    /// tens of thousands of pixels across at the finest tolerance.
    static let maximumChords = 10_000

    /// The number of chords for `estimate` (rounded up), 1…`maximumChords`: clamped as a double,
    /// so a curve of a path with coordinates near 1e300 (or NaN) neither traps nor takes forever.
    static func chords(_ estimate: Double) -> Int {
        guard !estimate.isNaN else { return 1 }
        return Int(min(Double(maximumChords), max(1, estimate.rounded(.up))))
    }
}
