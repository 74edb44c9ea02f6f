// The stroke outliner's round joins inside flattened curves: a vertex turning by more than the
// arc step gets the two offsets' ends and arc points between them on its outer side, one turning
// by less only the arc's midpoint. The outliner decides most vertices without an arc tangent
// (`flatTurn`); these polylines turn by a hair less and a hair more than the step, where that
// shortcut must agree with the arc tangent.
import XCTest
import Foundation
import StrataCore
@testable import StrataRender

final class StrokeOutlinerTests: XCTestCase {
    private struct Points: ContourSink {
        var count = 0
        var points: [(Double, Double)] = []
        mutating func move(_ x: Double, _ y: Double) { count += 1; points.append((x, y)) }
        mutating func line(_ x: Double, _ y: Double) { count += 1; points.append((x, y)) }
        mutating func close() {}
    }

    /// The polyline of `n` segments of length 3, each turning by `angle` from the one before.
    private func polyline(angle: Double, n: Int = 40) -> FlatPath.Subpath {
        var sub = FlatPath.Subpath()
        var x = 0.0, y = 0.0, heading = 0.0
        for i in 0...n {
            sub.points.append(CGPoint(x: x, y: y))
            sub.corners.append(i == 0 || i == n)  // inside a curve: joined round
            x += cos(heading) * 3; y += sin(heading) * 3; heading += angle
        }
        return sub
    }

    /// The number of outline points of an open polyline of `n` unit segments, each turning by
    /// `angle` (radians; the sign picks the side).
    private func outlinePoints(_ outliner: StrokeOutliner, angle: Double, n: Int = 40) -> Int {
        var sink = Points()
        outliner.stroke(polyline(angle: angle, n: n), into: &sink)
        return sink.count
    }

    func testRoundJoinsInsideCurvesStartAtTheArcStep() {
        for (halfWidth, tolerance) in [(2.0, 0.1), (10.0, 0.05), (0.6, 0.1), (50.0, 0.001)] {
            let outliner = StrokeOutliner(halfWidth: halfWidth, cap: .butt, join: .miter, miterLimit: 10, tolerance: tolerance)
            let step = 2 * acos(1 - tolerance / halfWidth)
            for sign in [1.0, -1.0] {
                let below = outlinePoints(outliner, angle: sign * step * (1 - 1e-9))
                let above = outlinePoints(outliner, angle: sign * step * (1 + 1e-9))
                let half = outlinePoints(outliner, angle: sign * step * 0.5)
                // Each of the 39 inner vertices has the arc's midpoint alone on its outer side below
                // the step, and the two offsets' ends with one arc point between them above it.
                XCTAssertEqual(above - below, 2 * 39, "half width \(halfWidth), tolerance \(tolerance), sign \(sign)")
                XCTAssertEqual(half, below, "half width \(halfWidth), tolerance \(tolerance), sign \(sign)")
                // Two and a half steps: two arc points and the two ends, where the inner side
                // still meets at one point.
                if step * 2.5 < 0.5 { XCTAssertEqual(outlinePoints(outliner, angle: sign * step * 2.5) - below, 3 * 39) }
            }
        }
    }

    /// Below the step, the outer point of a vertex lies on the round join's arc (half the width
    /// from the vertex) and halfway round it, and the outline's edges stay within the tolerance of
    /// the offset lines they replace: every outer edge's midpoint lies between the width's half
    /// less the tolerance and the width's half from its segment.
    func testAFlatTurnMeetsAtTheArcsMidpoint() {
        let halfWidth = 2.0, tolerance = 0.1
        let outliner = StrokeOutliner(halfWidth: halfWidth, cap: .butt, join: .round, miterLimit: 10, tolerance: tolerance)
        let step = 2 * acos(1 - tolerance / halfWidth)
        let n = 40
        let sub = polyline(angle: step * 0.99, n: n)
        var sink = Points()
        outliner.stroke(sub, into: &sink)
        // Turning left (angle > 0), the right side is the outer one. Each inner vertex's outer
        // point: on the arc, halfway round, right of the vertex; found among all the points.
        var outer: [Int] = []
        for i in 1..<n {
            let v = sub.points[i], a = sub.points[i - 1], b = sub.points[i + 1]
            let found = sink.points.indices.filter { j in
                let p = sink.points[j]
                let right = (b.x - a.x) * (p.1 - v.y) - (b.y - a.y) * (p.0 - v.x) < 0
                return right && abs(hypot(p.0 - v.x, p.1 - v.y) - halfWidth) < 1e-9
                    && abs(distance(p, a, v) - distance(p, v, b)) < 1e-9
            }
            XCTAssertEqual(found.count, 1, "vertex \(i)")
            outer.append(found.first ?? -1)
        }
        // One point a vertex: those of neighbouring vertices are neighbours in the outline, and
        // the edge between them stays within the tolerance inside the offset line it replaces.
        for i in 1..<(n - 1) {
            let p = outer[i - 1], q = outer[i]
            guard p >= 0, q >= 0 else { continue }
            XCTAssertEqual(abs(p - q), 1, "vertices \(i) and \(i + 1)")
            let mid = ((sink.points[p].0 + sink.points[q].0) / 2, (sink.points[p].1 + sink.points[q].1) / 2)
            let d = distance(mid, sub.points[i], sub.points[i + 1])
            XCTAssertLessThanOrEqual(d, halfWidth + 1e-9, "segment \(i)")
            XCTAssertGreaterThanOrEqual(d, halfWidth - tolerance - 1e-9, "segment \(i)")
        }
    }

    /// The distance from a point to the line through a and b.
    private func distance(_ p: (Double, Double), _ a: CGPoint, _ b: CGPoint) -> Double {
        let dx = b.x - a.x, dy = b.y - a.y
        return abs((p.0 - a.x) * dy - (p.1 - a.y) * dx) / hypot(dx, dy)
    }
}
