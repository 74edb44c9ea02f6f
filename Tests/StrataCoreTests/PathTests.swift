// CGPath / CGMutablePath: element building, Core Graphics' arc conventions, bounding boxes,
// flattening, length and fill-rule hit tests. Expected values are computed by hand; where a
// tolerance is not the exact-math 1e-9 its reason is stated.
import Foundation
import XCTest
@testable import StrataCore

private let exact: CGFloat = 1e-9
/// 4/3·tan(π/8): control-point distance of a unit quarter circle.
private let kappa: CGFloat = 0.552_284_749_830_793_4




private func cubic(_ p0: CGPoint, _ c1: CGPoint, _ c2: CGPoint, _ p3: CGPoint, at t: CGFloat) -> CGPoint {
    let s = 1 - t
    return CGPoint(x: s * s * s * p0.x + 3 * s * s * t * c1.x + 3 * s * t * t * c2.x + t * t * t * p3.x,
                   y: s * s * s * p0.y + 3 * s * s * t * c1.y + 3 * s * t * t * c2.y + t * t * t * p3.y)
}

private func pt(_ x: CGFloat, _ y: CGFloat) -> CGPoint { CGPoint(x: x, y: y) }

final class PathTests: XCTestCase {
    // MARK: Building

    func testEmptyPath() {
        let p = CGMutablePath()
        XCTAssertTrue(p.isEmpty)
        XCTAssertEqual(p.elements, [])
        XCTAssertEqual(p.currentPoint, .zero)
        XCTAssertTrue(p.boundingBox.isNull)
        XCTAssertTrue(p.boundingBoxOfPath.isNull)
        XCTAssertEqual(p.length, 0)
        XCTAssertFalse(p.contains(.zero))
    }

    func testMoveAndLinesBuildElements() {
        let p = CGMutablePath()
        p.move(to: pt(1, 2))
        XCTAssertFalse(p.isEmpty, "a lone move is not empty (as CGPathIsEmpty)")
        p.addLine(to: pt(3, 4))
        p.addQuadCurve(to: pt(5, 6), control: pt(7, 8))
        p.addCurve(to: pt(9, 10), control1: pt(11, 12), control2: pt(13, 14))
        XCTAssertEqual(p.elements, [.moveToPoint(pt(1, 2)), .addLineToPoint(pt(3, 4)),
                                    .addQuadCurveToPoint(pt(7, 8), pt(5, 6)),
                                    .addCurveToPoint(pt(11, 12), pt(13, 14), pt(9, 10))])
        XCTAssertEqual(p.currentPoint, pt(9, 10))
        XCTAssertEqual(p.elements.map(\.type), [.moveToPoint, .addLineToPoint, .addQuadCurveToPoint, .addCurveToPoint])
        XCTAssertEqual(p.elements[3].points, [pt(11, 12), pt(13, 14), pt(9, 10)])
        var visited: [CGPathElement] = []
        p.forEach { visited.append($0) }
        XCTAssertEqual(visited, p.elements)
    }

    func testSegmentWithoutCurrentPointIsIgnored() {
        let p = CGMutablePath()
        p.addLine(to: pt(5, 5))
        p.addCurve(to: pt(1, 1), control1: pt(2, 2), control2: pt(3, 3))
        p.closeSubpath()
        XCTAssertTrue(p.isEmpty)
    }

    func testCloseReturnsToStartAndNextSegmentMovesThere() {
        let p = CGMutablePath()
        p.move(to: pt(0, 0))
        p.addLine(to: pt(10, 0))
        p.closeSubpath()
        XCTAssertEqual(p.currentPoint, pt(0, 0))
        p.closeSubpath()    // already closed: ignored
        p.addLine(to: pt(0, 10))
        XCTAssertEqual(p.elements, [.moveToPoint(pt(0, 0)), .addLineToPoint(pt(10, 0)), .closeSubpath,
                                    .moveToPoint(pt(0, 0)), .addLineToPoint(pt(0, 10))])
    }

    func testTransformParameterMapsPoints() {
        let t = CGAffineTransform(translationX: 10, y: 20)
        let p = CGMutablePath()
        p.move(to: pt(1, 2), transform: t)
        p.addLine(to: pt(3, 4), transform: t.scaledBy(x: 2, y: 2))
        XCTAssertEqual(p.elements, [.moveToPoint(pt(11, 22)), .addLineToPoint(pt(16, 28))])
    }

    func testAddRectAndRects() {
        let p = CGMutablePath()
        p.addRects([CGRect(x: 1, y: 2, width: 3, height: 4), CGRect(x: 10, y: 10, width: -2, height: 1)])
        XCTAssertEqual(p.elements, [
            .moveToPoint(pt(1, 2)), .addLineToPoint(pt(4, 2)), .addLineToPoint(pt(4, 6)), .addLineToPoint(pt(1, 6)),
            .closeSubpath,
            .moveToPoint(pt(8, 10)), .addLineToPoint(pt(10, 10)), .addLineToPoint(pt(10, 11)), .addLineToPoint(pt(8, 11)),
            .closeSubpath,
        ])
        XCTAssertEqual(CGPath(rect: CGRect(x: 1, y: 2, width: 3, height: 4), transform: nil).elements,
                       Array(p.elements.prefix(5)))
    }

    func testAddLinesBetween() {
        let p = CGMutablePath()
        p.addLines(between: [])
        XCTAssertTrue(p.isEmpty)
        p.addLines(between: [pt(0, 0), pt(1, 0), pt(1, 1)])
        XCTAssertEqual(p.elements, [.moveToPoint(pt(0, 0)), .addLineToPoint(pt(1, 0)), .addLineToPoint(pt(1, 1))])
    }

    func testAddPathWithTransformAndInitElementsNormalises() {
        let a = CGPath(rect: CGRect(x: 0, y: 0, width: 1, height: 1))
        let p = CGMutablePath()
        p.addPath(a, transform: CGAffineTransform(scaleX: 2, y: 3))
        XCTAssertEqual(p, CGPath(rect: CGRect(x: 0, y: 0, width: 2, height: 3)))
        // A leading segment is dropped; a segment after a close gets its move.
        let n = CGPath(elements: [.addLineToPoint(pt(9, 9)), .moveToPoint(pt(1, 1)), .addLineToPoint(pt(2, 1)),
                                  .closeSubpath, .addLineToPoint(pt(1, 5))])
        XCTAssertEqual(n.elements, [.moveToPoint(pt(1, 1)), .addLineToPoint(pt(2, 1)), .closeSubpath,
                                    .moveToPoint(pt(1, 1)), .addLineToPoint(pt(1, 5))])
    }

    // MARK: Arcs

    func testArcControlPointsUseFourThirdsTangent() {
        // CG clockwise: false sweeps increasing angles: (1,0) → (0,1) in one cubic.
        let p = CGMutablePath()
        p.addArc(center: .zero, radius: 1, startAngle: 0, endAngle: .pi / 2, clockwise: false)
        assertElements(p.elements, [.moveToPoint(pt(1, 0)), .addCurveToPoint(pt(1, kappa), pt(kappa, 1), pt(0, 1))])
    }

    func testCGClockwiseFalseSweepsIncreasingAnglesThroughPositiveY() {
        let p = CGMutablePath()
        p.addArc(center: .zero, radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: false)
        guard case .addCurveToPoint(let c1, let c2, let end) = p.elements[1] else { return XCTFail("\(p)") }
        // The midpoint of a 4/3·tan(θ/4) arc lies exactly on the circle.
        let h = 10 / CGFloat(2).squareRoot()
        assertPathEqual(cubic(pt(10, 0), c1, c2, end, at: 0.5), h, h)
        assertPathEqual(end, 0, 10)
    }

    func testCGClockwiseTrueSweepsDecreasingAngles() {
        // clockwise: true in CG's y-up sense: 0 → −π/2 → −π → −3π/2, i.e. through (0,−10) and
        // (−10,0); on a y-down screen that turns counter-clockwise.
        let p = CGMutablePath()
        p.addArc(center: .zero, radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: true)
        let e = p.elements
        XCTAssertEqual(e.map(\.type), [.moveToPoint, .addCurveToPoint, .addCurveToPoint, .addCurveToPoint])
        guard e.count == 4 else { return }
        assertPathEqual(e[1].points[2], 0, -10)
        assertPathEqual(e[2].points[2], -10, 0)
        assertPathEqual(e[3].points[2], 0, 10)
        assertPathEqual(e[1].points[0], 10, -10 * kappa)
    }

    func testArcIsSplitIntoQuarterCubics() {
        func curveCount(_ start: CGFloat, _ end: CGFloat, _ cw: Bool) -> Int {
            let p = CGMutablePath()
            p.addArc(center: .zero, radius: 5, startAngle: start, endAngle: end, clockwise: cw)
            return p.elements.filter { $0.type == .addCurveToPoint }.count
        }
        XCTAssertEqual(curveCount(0, .pi / 2, false), 1)
        XCTAssertEqual(curveCount(0, .pi / 2 + 0.01, false), 2)
        XCTAssertEqual(curveCount(0, 2 * .pi, false), 4)
        XCTAssertEqual(curveCount(1, 1, false), 0, "equal angles draw nothing")
        XCTAssertEqual(curveCount(0, 3 * .pi, false), 4, "more than a turn is clamped to a full circle")
        XCTAssertEqual(curveCount(0, -.pi / 2, false), 3, "increasing from 0 to −π/2 is 3π/2")
        XCTAssertEqual(curveCount(0, -2 * .pi, true), 4)
    }

    func testFullCircleEndsWhereItStarts() {
        let p = CGMutablePath()
        p.addArc(center: pt(3, 4), radius: 2, startAngle: .pi / 3, endAngle: .pi / 3 + 2 * .pi, clockwise: false)
        let start = p.elements[0].points[0]
        assertPathEqual(start, 3 + 2 * cos(.pi / 3), 4 + 2 * sin(.pi / 3))
        assertPathEqual(p.currentPoint, start.x, start.y)
    }

    func testArcFromCurrentPointAddsLineToStart() {
        let p = CGMutablePath()
        p.move(to: .zero)
        p.addArc(center: pt(20, 0), radius: 10, startAngle: .pi, endAngle: 0, clockwise: false)
        XCTAssertEqual(p.elements.map(\.type), [.moveToPoint, .addLineToPoint, .addCurveToPoint, .addCurveToPoint])
        guard p.elements.count == 4 else { return }
        assertPathEqual(p.elements[1].points[0], 10, 0)
        // π → 2π increasing passes angle 3π/2: (20, −10).
        assertPathEqual(p.elements[2].points[2], 20, -10)
        assertPathEqual(p.currentPoint, 30, 0)
    }

    func testArcNotPrecededByLineWhenAlreadyAtStart() {
        let p = CGMutablePath()
        p.move(to: pt(10, 0))
        p.addArc(center: .zero, radius: 10, startAngle: 0, endAngle: 1, clockwise: false)
        XCTAssertEqual(p.elements.map(\.type), [.moveToPoint, .addCurveToPoint])
    }

    func testRelativeArc() {
        let p = CGMutablePath()
        p.addRelativeArc(center: .zero, radius: 10, startAngle: 0, delta: -.pi / 2)
        assertElements(p.elements, [.moveToPoint(pt(10, 0)),
                                    .addCurveToPoint(pt(10, -10 * kappa), pt(10 * kappa, -10), pt(0, -10))])
    }

    func testTangentArc() {
        // From (0,0) along +x, turning at (10,0) towards (10,10): a radius-5 corner from (5,0) to
        // (10,5) around the centre (5,5).
        let p = CGMutablePath()
        p.move(to: .zero)
        p.addArc(tangent1End: pt(10, 0), tangent2End: pt(10, 10), radius: 5)
        assertElements(p.elements, [.moveToPoint(pt(0, 0)), .addLineToPoint(pt(5, 0)),
                                    .addCurveToPoint(pt(5 + 5 * kappa, 0), pt(10, 5 - 5 * kappa), pt(10, 5))])
        // Turning the other way goes through the other side.
        let q = CGMutablePath()
        q.move(to: .zero)
        q.addArc(tangent1End: pt(10, 0), tangent2End: pt(10, -10), radius: 5)
        assertPathEqual(q.currentPoint, 10, -5)
    }

    func testTangentArcDegenerateCasesAddLine() {
        let p = CGMutablePath()
        p.move(to: .zero)
        p.addArc(tangent1End: pt(10, 0), tangent2End: pt(20, 0), radius: 5)
        XCTAssertEqual(p.elements, [.moveToPoint(.zero), .addLineToPoint(pt(10, 0))])
        let q = CGMutablePath()
        q.addArc(tangent1End: pt(10, 0), tangent2End: pt(20, 5), radius: 5)
        XCTAssertTrue(q.isEmpty, "no current point: ignored, as in Core Graphics")
    }

    func testTangentArcWithTransform() {
        let t = CGAffineTransform(translationX: 100, y: 0)
        let p = CGMutablePath()
        p.move(to: .zero, transform: t)
        p.addArc(tangent1End: pt(10, 0), tangent2End: pt(10, 10), radius: 5, transform: t)
        assertPathEqual(p.elements[1].points[0], 105, 0)
        assertPathEqual(p.currentPoint, 110, 5)
    }

    // MARK: Shapes

    func testEllipseElements() {
        let p = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 100, height: 50))
        let k = kappa
        assertElements(p.elements, [
            .moveToPoint(pt(100, 25)),
            .addCurveToPoint(pt(100, 25 + 25 * k), pt(50 + 50 * k, 50), pt(50, 50)),
            .addCurveToPoint(pt(50 - 50 * k, 50), pt(0, 25 + 25 * k), pt(0, 25)),
            .addCurveToPoint(pt(0, 25 - 25 * k), pt(50 - 50 * k, 0), pt(50, 0)),
            .addCurveToPoint(pt(50 + 50 * k, 0), pt(100, 25 - 25 * k), pt(100, 25)),
            .closeSubpath,
        ])
        assertPathEqual(p.boundingBox, 0, 0, 100, 50)
        assertPathEqual(p.boundingBoxOfPath, 0, 0, 100, 50)
    }

    func testRoundedRectElements() {
        let p = CGPath(roundedRect: CGRect(x: 0, y: 0, width: 100, height: 50), cornerWidth: 10, cornerHeight: 5,
                       transform: nil)
        let k = kappa
        assertElements(p.elements, [
            .moveToPoint(pt(10, 0)),
            .addLineToPoint(pt(90, 0)),
            .addCurveToPoint(pt(90 + 10 * k, 0), pt(100, 5 - 5 * k), pt(100, 5)),
            .addLineToPoint(pt(100, 45)),
            .addCurveToPoint(pt(100, 45 + 5 * k), pt(90 + 10 * k, 50), pt(90, 50)),
            .addLineToPoint(pt(10, 50)),
            .addCurveToPoint(pt(10 - 10 * k, 50), pt(0, 45 + 5 * k), pt(0, 45)),
            .addLineToPoint(pt(0, 5)),
            .addCurveToPoint(pt(0, 5 - 5 * k), pt(10 - 10 * k, 0), pt(10, 0)),
            .closeSubpath,
        ])
        assertPathEqual(p.boundingBoxOfPath, 0, 0, 100, 50)
        let viaMutable = CGMutablePath()
        viaMutable.addRoundedRect(in: CGRect(x: 0, y: 0, width: 100, height: 50), cornerWidth: 10, cornerHeight: 5)
        XCTAssertEqual(viaMutable, p)
    }

    func testRoundedRectClampsRadiiAndZeroRadiusIsRect() {
        let capsule = CGPath(roundedRect: CGRect(x: 0, y: 0, width: 100, height: 20), cornerWidth: 60, cornerHeight: 30)
        // Radii clamp to (50, 10): the top edge shrinks to a point, so no top line.
        XCTAssertEqual(capsule.elements[0], .moveToPoint(pt(50, 0)))
        XCTAssertEqual(capsule.elements[1].type, .addCurveToPoint)
        assertPathEqual(capsule.boundingBoxOfPath, 0, 0, 100, 20)
        let square = CGPath(roundedRect: CGRect(x: 0, y: 0, width: 4, height: 2), cornerWidth: 0, cornerHeight: 0)
        XCTAssertEqual(square, CGPath(rect: CGRect(x: 0, y: 0, width: 4, height: 2)))
    }

    // MARK: Bounding boxes

    func testBoundingBoxIncludesControlPointsButPathBoxIsTight() {
        let p = CGMutablePath()
        p.move(to: .zero)
        p.addCurve(to: pt(100, 0), control1: pt(0, 100), control2: pt(100, 100))
        assertPathEqual(p.boundingBox, 0, 0, 100, 100)
        // y(t) = 300·t(1−t), largest at t = ½: 75.
        assertPathEqual(p.boundingBoxOfPath, 0, 0, 100, 75)

        let q = CGMutablePath()
        q.move(to: .zero)
        q.addQuadCurve(to: pt(100, 0), control: pt(50, 100))
        assertPathEqual(q.boundingBox, 0, 0, 100, 100)
        // y(t) = 200·t(1−t), largest at t = ½: 50.
        assertPathEqual(q.boundingBoxOfPath, 0, 0, 100, 50)
    }

    func testArcBoundingBoxes() {
        // One cubic from 45° to 135° (r = 10): the curve peaks at its midpoint, which is on the
        // circle (y = 10); the control points reach 5√2 + 10·k·(√2/2) with k = 4/3·tan(π/8).
        let p = CGMutablePath()
        p.addArc(center: .zero, radius: 10, startAngle: .pi / 4, endAngle: 3 * .pi / 4, clockwise: false)
        let h = 5 * CGFloat(2).squareRoot()
        assertPathEqual(p.boundingBoxOfPath, -h, h, 2 * h, 10 - h)
        let controlY = h + 10 * kappa * CGFloat(2).squareRoot() / 2
        assertPathEqual(p.boundingBox, -h, h, 2 * h, controlY - h)
    }

    func testBoundingBoxOfRotatedRectPath() {
        let p = CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 20), transform: CGAffineTransform(rotationAngle: .pi / 2))
        assertPathEqual(p.boundingBox, -20, 0, 20, 10)
        assertPathEqual(p.boundingBoxOfPath, -20, 0, 20, 10)
    }

    // MARK: Copies and equality

    func testApplyingAndCopies() {
        let p = CGMutablePath()
        p.move(to: pt(1, 1))
        p.addQuadCurve(to: pt(3, 1), control: pt(2, 2))
        let scaled = p.applying(CGAffineTransform(scaleX: 2, y: -1))
        XCTAssertEqual(scaled.elements, [.moveToPoint(pt(2, -1)), .addQuadCurveToPoint(pt(4, -2), pt(6, -1))])
        var t = CGAffineTransform(scaleX: 2, y: -1)
        XCTAssertEqual(p.copy(using: &t), scaled)
        XCTAssertEqual(p.copy(using: nil), p)
        XCTAssertEqual(p.mutableCopy(using: &t), scaled)

        // copy() is a snapshot: later mutation doesn't reach it.
        let snapshot = p.copy()!
        XCTAssertFalse(snapshot is CGMutablePath)
        p.addLine(to: pt(9, 9))
        XCTAssertEqual(snapshot.elements.count, 2)
        let m = snapshot.mutableCopy()!
        m.closeSubpath()
        XCTAssertEqual(snapshot.elements.count, 2)
        XCTAssertEqual(m.elements.count, 3)
    }

    func testEqualityAndHashAcrossMutableAndImmutable() {
        let r = CGRect(x: 1, y: 2, width: 3, height: 4)
        let m = CGMutablePath()
        m.addRect(r)
        let i = CGPath(rect: r)
        XCTAssertEqual(m, i)
        XCTAssertEqual(m.hashValue, i.hashValue)
        XCTAssertNotEqual(i, CGPath(rect: r.insetBy(dx: 1, dy: 1)))
        XCTAssertNotEqual(i, CGPath(ellipseIn: r))
        XCTAssertEqual(i.description, "CGPath(M 1.0 2.0 L 4.0 2.0 L 4.0 6.0 L 1.0 6.0 Z)")
    }

    // MARK: Hit testing

    func testContainsWindingVersusEvenOddOnNestedRects() {
        let p = CGMutablePath()
        p.addRect(CGRect(x: 0, y: 0, width: 100, height: 100))
        p.addRect(CGRect(x: 25, y: 25, width: 50, height: 50))   // same direction: winding 2 inside
        XCTAssertTrue(p.contains(pt(50, 50), using: .winding))
        XCTAssertFalse(p.contains(pt(50, 50), using: .evenOdd))
        XCTAssertTrue(p.contains(pt(50, 50)), "winding is the default")
        XCTAssertTrue(p.contains(pt(10, 10), using: .winding))
        XCTAssertTrue(p.contains(pt(10, 10), using: .evenOdd))
        XCTAssertFalse(p.contains(pt(150, 50), using: .winding))
        XCTAssertFalse(p.contains(pt(-1, 50), using: .evenOdd))

        // Inner rectangle drawn the other way: winding 0 inside, a hole under both rules.
        let q = CGMutablePath()
        q.addRect(CGRect(x: 0, y: 0, width: 100, height: 100))
        q.addLines(between: [pt(25, 25), pt(25, 75), pt(75, 75), pt(75, 25)])
        q.closeSubpath()
        XCTAssertFalse(q.contains(pt(50, 50), using: .winding))
        XCTAssertFalse(q.contains(pt(50, 50), using: .evenOdd))
        XCTAssertTrue(q.contains(pt(10, 50), using: .winding))
    }

    func testContainsFlattensCurves() {
        // Radius-10 circle; the cubic approximation is within 0.003 of the true circle, so points
        // 0.1 inside or outside it are decided unambiguously.
        let c = CGPath(ellipseIn: CGRect(x: -10, y: -10, width: 20, height: 20))
        XCTAssertTrue(c.contains(pt(9.9, 0)))
        XCTAssertFalse(c.contains(pt(10.1, 0)))
        let d = 1 / CGFloat(2).squareRoot()
        XCTAssertTrue(c.contains(pt(9.9 * d, 9.9 * d)))
        XCTAssertFalse(c.contains(pt(10.1 * d, 10.1 * d)))
        XCTAssertFalse(c.contains(pt(9.8, 9.8)), "inside the bounding box, outside the circle")
    }

    func testContainsClosesOpenSubpathsAndAppliesTransform() {
        let tri = CGMutablePath()
        tri.addLines(between: [pt(0, 0), pt(10, 0), pt(0, 10)])    // open: filled as if closed
        XCTAssertTrue(tri.contains(pt(2, 2)))
        XCTAssertFalse(tri.contains(pt(8, 8)))
        let moved = CGAffineTransform(translationX: 100, y: 0)
        XCTAssertTrue(tri.contains(pt(102, 2), transform: moved))
        XCTAssertFalse(tri.contains(pt(2, 2), transform: moved))
    }

    // MARK: Flattening and length

    func testFlattenedPolylines() {
        let p = CGMutablePath()
        p.addRect(CGRect(x: 0, y: 0, width: 4, height: 3))
        p.move(to: pt(10, 10))
        p.addLine(to: pt(13, 14))
        p.move(to: pt(50, 50))                   // lone move: left out
        let lines = p.flattened()
        XCTAssertEqual(lines, [CGPath.Polyline(points: [pt(0, 0), pt(4, 0), pt(4, 3), pt(0, 3)], isClosed: true),
                               CGPath.Polyline(points: [pt(10, 10), pt(13, 14)], isClosed: false)])
        XCTAssertEqual(lines[0].length, 14)
        XCTAssertEqual(lines[1].length, 5)
    }

    func testFlattenedCircleStaysWithinTolerance() {
        let r: CGFloat = 100, tolerance: CGFloat = 0.1
        let c = CGPath(ellipseIn: CGRect(x: -r, y: -r, width: 2 * r, height: 2 * r))
        let lines = c.flattened(tolerance: tolerance)
        XCTAssertEqual(lines.count, 1)
        XCTAssertTrue(lines[0].isClosed)
        let pts = lines[0].points
        XCTAssertGreaterThan(pts.count, 16)
        // Vertices lie on the cubics (within 0.03 of the circle: the approximation's radial error
        // is 2.7e-4·r); chord midpoints sag by at most `tolerance` more.
        for i in pts.indices {
            let a = pts[i], b = pts[(i + 1) % pts.count]
            XCTAssertEqual(hypot(a.x, a.y), r, accuracy: 0.03)
            let m = pt((a.x + b.x) / 2, (a.y + b.y) / 2)
            XCTAssertGreaterThan(hypot(m.x, m.y), r - tolerance - 0.03)
        }
    }

    func testLengthOfCircleIsTwoPiR() {
        // Tolerance 0.1 % (the brief's bound); the 4-cubic circle is in fact within ~0.003 %.
        for r: CGFloat in [1, 50, 1000] {
            let c = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 2 * r, height: 2 * r))
            XCTAssertEqual(c.length, 2 * .pi * r, accuracy: 2 * .pi * r * 1e-3)
        }
    }

    func testLengthIsExactForLinesAndStraightCubics() {
        XCTAssertEqual(CGPath(rect: CGRect(x: 0, y: 0, width: 30, height: 40)).length, 140, accuracy: exact)
        let p = CGMutablePath()
        p.move(to: .zero)
        p.addCurve(to: pt(30, 40), control1: pt(6, 8), control2: pt(24, 32))    // a straight, non-uniform cubic
        XCTAssertEqual(p.length, 50, accuracy: exact)
        let q = CGMutablePath()
        q.move(to: .zero)
        q.addLine(to: pt(3, 4))
        q.closeSubpath()                                                         // closing line counts
        XCTAssertEqual(q.length, 10, accuracy: exact)
    }

    func testLengthOfQuadraticMatchesClosedForm() {
        // y = x² from 0 to 1 as a quadratic Bézier: P0 (0,0), C (0.5, 0), P1 (1,1).
        // Arc length = √5/2 + asinh(2)/4.
        let p = CGMutablePath()
        p.move(to: .zero)
        p.addQuadCurve(to: pt(1, 1), control: pt(0.5, 0))
        XCTAssertEqual(p.length, CGFloat(5).squareRoot() / 2 + asinh(2.0) / 4, accuracy: exact)
    }
}
