// The stroke outliner's round joins inside flattened curves: a vertex turning by more than the
// arc step gets arc points on its outer side, one turning by less gets none. The outliner decides
// most vertices without an arc tangent (`flatTurn`); these polylines turn by a hair less and a
// hair more than the step, where that shortcut must agree with the arc tangent.
import XCTest
import Foundation
import StrataCore
@testable import StrataRender

final class StrokeOutlinerTests: XCTestCase {
    private struct Points: ContourSink {
        var count = 0
        mutating func move(_ x: Double, _ y: Double) { count += 1 }
        mutating func line(_ x: Double, _ y: Double) { count += 1 }
        mutating func close() {}
    }

    /// The number of outline points of an open polyline of `n` unit segments, each turning by
    /// `angle` (radians; the sign picks the side).
    private func outlinePoints(_ outliner: StrokeOutliner, angle: Double, n: Int = 40) -> Int {
        var sub = FlatPath.Subpath()
        var x = 0.0, y = 0.0, heading = 0.0
        for i in 0...n {
            sub.points.append(CGPoint(x: x, y: y))
            sub.corners.append(i == 0 || i == n)  // inside a curve: joined round
            x += cos(heading) * 3; y += sin(heading) * 3; heading += angle
        }
        var sink = Points()
        outliner.stroke(sub, into: &sink)
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
                // Each of the 39 inner vertices gains one arc point on its outer side.
                XCTAssertEqual(above - below, 39, "half width \(halfWidth), tolerance \(tolerance), sign \(sign)")
                XCTAssertEqual(half, below, "half width \(halfWidth), tolerance \(tolerance), sign \(sign)")
                // Two and a half steps: two each, where the inner side still meets at one point.
                if step * 2.5 < 0.5 { XCTAssertEqual(outlinePoints(outliner, angle: sign * step * 2.5) - below, 2 * 39) }
            }
        }
    }
}
