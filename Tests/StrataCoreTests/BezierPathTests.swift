// BezierPath (UIBezierPath): UIKit's on-screen arc direction, corner selection, reversal,
// attributes and hit testing. Expected values are computed by hand (tolerance 1e-9 unless stated).
import Foundation
import XCTest
@testable import StrataCore

private let exact: CGFloat = 1e-9
/// 4/3·tan(π/8): control-point distance of a unit quarter circle.
private let kappa: CGFloat = 0.552_284_749_830_793_4

private func pt(_ x: CGFloat, _ y: CGFloat) -> CGPoint { CGPoint(x: x, y: y) }




private func cubicPoint(_ p0: CGPoint, _ e: CGPathElement, at t: CGFloat) -> CGPoint {
    guard case .addCurveToPoint(let c1, let c2, let p3) = e else { return pt(.nan, .nan) }
    let s = 1 - t
    return CGPoint(x: s * s * s * p0.x + 3 * s * s * t * c1.x + 3 * s * t * t * c2.x + t * t * t * p3.x,
                   y: s * s * s * p0.y + 3 * s * s * t * c1.y + 3 * s * t * t * c2.y + t * t * t * p3.y)
}

final class BezierPathTests: XCTestCase {
    func testDefaultsAndEmptyPath() {
        let p = UIBezierPath()
        XCTAssertTrue(p.isEmpty)
        XCTAssertTrue(p.bounds.isNull)
        XCTAssertEqual(p.currentPoint, .zero)
        XCTAssertEqual(p.lineWidth, 1)
        XCTAssertEqual(p.lineCapStyle, .butt)
        XCTAssertEqual(p.lineJoinStyle, .miter)
        XCTAssertEqual(p.miterLimit, 10)
        XCTAssertEqual(p.flatness, 0.6)
        XCTAssertFalse(p.usesEvenOddFillRule)
        XCTAssertEqual(p.lineDashPattern, [])
        p.addLine(to: pt(1, 1))
        XCTAssertTrue(p.isEmpty, "a line with no current point does nothing")
    }

    func testRectElementsAndBounds() {
        let p = BezierPath(rect: CGRect(x: 1, y: 2, width: 3, height: 4))
        XCTAssertEqual(p.cgPath.elements, [.moveToPoint(pt(1, 2)), .addLineToPoint(pt(4, 2)), .addLineToPoint(pt(4, 6)),
                                           .addLineToPoint(pt(1, 6)), .closeSubpath])
        XCTAssertEqual(p.bounds, CGRect(x: 1, y: 2, width: 3, height: 4))
        XCTAssertEqual(p.currentPoint, pt(1, 2))
    }

    func testArcClockwiseTrueTurnsClockwiseOnScreen() {
        // y-down: from angle 0 (+x) to π/2 clockwise on screen passes below the centre.
        let p = BezierPath(arcCenter: .zero, radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: true)
        let e = p.cgPath.elements
        XCTAssertEqual(e.map(\.type), [.moveToPoint, .addCurveToPoint])
        let h = 10 / CGFloat(2).squareRoot()
        assertPathEqual(cubicPoint(pt(10, 0), e[1], at: 0.5), h, h)        // (7.07, 7.07)
        assertElements(e, [.moveToPoint(pt(10, 0)), .addCurveToPoint(pt(10, 10 * kappa), pt(10 * kappa, 10), pt(0, 10))])
    }

    func testArcClockwiseFalseGoesTheOtherWay() {
        // Counter-clockwise on screen from 0 to π/2: through (0,−10) and (−10,0), three quarters.
        let p = BezierPath(arcCenter: .zero, radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: false)
        let e = p.cgPath.elements
        XCTAssertEqual(e.count, 4)
        guard e.count == 4 else { return }
        assertPathEqual(e[1].points[2], 0, -10)
        assertPathEqual(e[2].points[2], -10, 0)
        assertPathEqual(p.currentPoint, 0, 10)
    }

    func testClockwiseFullRingFromTwelveOClock() {
        let p = BezierPath(arcCenter: pt(50, 50), radius: 40, startAngle: -.pi / 2, endAngle: 3 * .pi / 2, clockwise: true)
        let e = p.cgPath.elements
        XCTAssertEqual(e.count, 5)
        guard e.count == 5 else { return }
        assertPathEqual(e[0].points[0], 50, 10)     // 12 o'clock
        assertPathEqual(e[1].points[2], 90, 50)     // then 3 o'clock: clockwise on screen
        assertPathEqual(e[2].points[2], 50, 90)
        assertPathEqual(p.bounds, 10, 10, 80, 80)
    }

    func testAddArcContinuesFromCurrentPoint() {
        let p = BezierPath()
        p.move(to: .zero)
        p.addArc(withCenter: pt(20, 0), radius: 10, startAngle: .pi, endAngle: 0, clockwise: true)
        // A line to (10,0), then over the top (angle 3π/2 is (20,−10) on screen) to (30,0).
        let e = p.cgPath.elements
        XCTAssertEqual(e.map(\.type), [.moveToPoint, .addLineToPoint, .addCurveToPoint, .addCurveToPoint])
        guard e.count == 4 else { return }
        assertPathEqual(e[2].points[2], 20, -10)
        assertPathEqual(p.currentPoint, 30, 0)
    }

    func testCurvesAndClose() {
        let p = BezierPath()
        p.move(to: pt(0, 150))
        p.addCurve(to: pt(300, 150), controlPoint1: pt(75, 0), controlPoint2: pt(225, 300))
        p.addQuadCurve(to: pt(0, 150), controlPoint: pt(150, 400))
        p.close()
        XCTAssertEqual(p.cgPath.elements, [.moveToPoint(pt(0, 150)),
                                           .addCurveToPoint(pt(75, 0), pt(225, 300), pt(300, 150)),
                                           .addQuadCurveToPoint(pt(150, 400), pt(0, 150)), .closeSubpath])
        XCTAssertEqual(p.bounds, CGRect(x: 0, y: 0, width: 300, height: 400), "bounds include control points")
    }

    func testRoundedRectByRoundingSelectedCorners() {
        let r = CGRect(x: 0, y: 0, width: 100, height: 60)
        let p = BezierPath(roundedRect: r, byRoundingCorners: [.topLeft, .bottomRight],
                           cornerRadii: CGSize(width: 20, height: 10))
        let k = kappa
        assertElements(p.cgPath.elements, [
            .moveToPoint(pt(20, 0)),
            .addLineToPoint(pt(100, 0)),                                              // top-right: square
            .addLineToPoint(pt(100, 50)),
            .addCurveToPoint(pt(100, 50 + 10 * k), pt(80 + 20 * k, 60), pt(80, 60)), // bottom-right: rounded
            .addLineToPoint(pt(0, 60)),                                               // bottom-left: square
            .addLineToPoint(pt(0, 10)),
            .addCurveToPoint(pt(0, 10 - 10 * k), pt(20 - 20 * k, 0), pt(20, 0)),     // top-left: rounded
            .closeSubpath,
        ])
        XCTAssertEqual(p.bounds, r)
        // Visual top-left (min y) is cut away; top-right is not.
        XCTAssertFalse(p.contains(pt(1, 1)))
        XCTAssertTrue(p.contains(pt(99, 1)))
        XCTAssertFalse(p.contains(pt(99, 59)))
        XCTAssertTrue(p.contains(pt(1, 59)))
        XCTAssertTrue(p.contains(pt(50, 30)))
    }

    func testAllCornersEqualsCornerRadiusInit() {
        let r = CGRect(x: 10, y: 10, width: 80, height: 40)
        let a = BezierPath(roundedRect: r, byRoundingCorners: .allCorners, cornerRadii: CGSize(width: 8, height: 8))
        let b = BezierPath(roundedRect: r, cornerRadius: 8)
        XCTAssertEqual(a.cgPath, b.cgPath)
        XCTAssertEqual(b.cgPath, CGPath(roundedRect: r, cornerWidth: 8, cornerHeight: 8, transform: nil))
    }

    func testCornerRadiusClampsToHalfTheShorterSide() {
        // 100×40 with radius 50 becomes a capsule of radius 20.
        let p = BezierPath(roundedRect: CGRect(x: 0, y: 0, width: 100, height: 40), cornerRadius: 50)
        let e = p.cgPath.elements
        XCTAssertEqual(e[0], .moveToPoint(pt(20, 0)))
        XCTAssertEqual(e[1], .addLineToPoint(pt(80, 0)))
        XCTAssertEqual(e[2].points[2], pt(100, 20))
        XCTAssertEqual(e[3].type, .addCurveToPoint, "no straight right edge left")
        XCTAssertEqual(p.bounds, CGRect(x: 0, y: 0, width: 100, height: 40))
        XCTAssertFalse(p.contains(pt(1, 1)))
        XCTAssertTrue(p.contains(pt(1, 20)))
    }

    func testOvalIn() {
        let r = CGRect(x: 0, y: 0, width: 40, height: 20)
        let p = BezierPath(ovalIn: r)
        XCTAssertEqual(p.cgPath, CGPath(ellipseIn: r))
        XCTAssertEqual(p.bounds, r)
        XCTAssertTrue(p.contains(pt(20, 10)))
        XCTAssertFalse(p.contains(pt(1, 1)))
    }

    func testCGPathRoundTripAndSnapshot() {
        let source = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 10, height: 10))
        let p = BezierPath(cgPath: source)
        XCTAssertEqual(p.cgPath, source)
        let snapshot = p.cgPath
        p.addLine(to: pt(50, 50))
        XCTAssertEqual(snapshot, source, "cgPath is an immutable snapshot")
        XCTAssertNotEqual(p.cgPath, source)
        p.cgPath = CGPath(rect: CGRect(x: 0, y: 0, width: 1, height: 1))
        XCTAssertEqual(p.cgPath, CGPath(rect: CGRect(x: 0, y: 0, width: 1, height: 1)))
    }

    func testAppendApplyAndRemoveAll() {
        let p = BezierPath(rect: CGRect(x: 0, y: 0, width: 2, height: 2))
        p.append(BezierPath(rect: CGRect(x: 5, y: 5, width: 1, height: 1)))
        XCTAssertEqual(p.cgPath.elements.count, 10)
        p.apply(CGAffineTransform(scaleX: 10, y: 10))
        XCTAssertEqual(p.bounds, CGRect(x: 0, y: 0, width: 60, height: 60))
        XCTAssertEqual(p.currentPoint, pt(50, 50))
        p.lineWidth = 3
        p.removeAllPoints()
        XCTAssertTrue(p.isEmpty)
        XCTAssertEqual(p.lineWidth, 3)
    }

    func testReversingOpenSubpath() {
        let p = BezierPath()
        p.move(to: pt(0, 0))
        p.addLine(to: pt(10, 0))
        p.addCurve(to: pt(20, 10), controlPoint1: pt(15, 0), controlPoint2: pt(20, 5))
        p.addQuadCurve(to: pt(30, 30), controlPoint: pt(30, 20))
        XCTAssertEqual(p.reversing().cgPath.elements, [
            .moveToPoint(pt(30, 30)),
            .addQuadCurveToPoint(pt(30, 20), pt(20, 10)),
            .addCurveToPoint(pt(20, 5), pt(15, 0), pt(10, 0)),
            .addLineToPoint(pt(0, 0)),
        ])
        XCTAssertEqual(p.reversing().reversing().cgPath, p.cgPath)
    }

    func testReversingClosedSubpathsAndOrder() {
        let p = BezierPath(rect: CGRect(x: 0, y: 0, width: 4, height: 3))
        p.move(to: pt(10, 10))
        p.addLine(to: pt(20, 10))
        p.lineWidth = 7
        let r = p.reversing()
        XCTAssertEqual(r.cgPath.elements, [
            .moveToPoint(pt(20, 10)), .addLineToPoint(pt(10, 10)),
            .moveToPoint(pt(0, 0)), .addLineToPoint(pt(0, 3)), .addLineToPoint(pt(4, 3)), .addLineToPoint(pt(4, 0)),
            .closeSubpath,
        ])
        XCTAssertEqual(r.lineWidth, 7)
        XCTAssertEqual(r.reversing().cgPath, p.cgPath)
        XCTAssertEqual(r.cgPath.length, p.cgPath.length, accuracy: exact)
    }

    func testReversingClosedCurveKeepsStart() {
        let p = BezierPath(ovalIn: CGRect(x: 0, y: 0, width: 20, height: 20))
        let r = p.reversing().cgPath.elements
        XCTAssertEqual(r.count, 6)
        guard r.count == 6 else { return }
        XCTAssertEqual(r[0], .moveToPoint(pt(20, 10)))
        // Reversed, the first quarter runs to the top (10, 0): counter-clockwise on screen.
        assertPathEqual(r[1].points[2], 10, 0)
        XCTAssertEqual(r[5], .closeSubpath)
    }

    func testContainsFollowsFillRuleFlag() {
        let p = BezierPath(rect: CGRect(x: 0, y: 0, width: 100, height: 100))
        p.append(BezierPath(rect: CGRect(x: 25, y: 25, width: 50, height: 50)))
        XCTAssertTrue(p.contains(pt(50, 50)))
        p.usesEvenOddFillRule = true
        XCTAssertFalse(p.contains(pt(50, 50)))
        XCTAssertTrue(p.contains(pt(10, 10)))
    }

    func testLineDash() {
        let p = BezierPath()
        p.setLineDash([4, 2, 1], count: 2, phase: 1.5)
        XCTAssertEqual(p.lineDashPattern, [4, 2])
        XCTAssertEqual(p.lineDashPhase, 1.5)
        var buffer = [CGFloat](repeating: 0, count: 4)
        var count = buffer.count
        var phase: CGFloat = 0
        p.getLineDash(&buffer, count: &count, phase: &phase)
        XCTAssertEqual(buffer, [4, 2, 0, 0])
        XCTAssertEqual(count, 2)
        XCTAssertEqual(phase, 1.5)
        p.setLineDash(nil, count: 0, phase: 0)
        XCTAssertEqual(p.lineDashPattern, [])
    }

    func testCopyIsIndependent() {
        let p = BezierPath(rect: CGRect(x: 0, y: 0, width: 1, height: 1))
        p.lineCapStyle = .round
        p.lineJoinStyle = .bevel
        p.miterLimit = 4
        let c = p.copy()
        c.addLine(to: pt(5, 5))
        XCTAssertNotEqual(c.cgPath, p.cgPath)
        XCTAssertEqual(c.lineCapStyle, .round)
        XCTAssertEqual(c.lineJoinStyle, .bevel)
        XCTAssertEqual(c.miterLimit, 4)
    }

    func testRectCornerOptionSet() {
        XCTAssertEqual(UIRectCorner.topLeft.rawValue, 1)
        XCTAssertEqual(UIRectCorner.topRight.rawValue, 2)
        XCTAssertEqual(UIRectCorner.bottomLeft.rawValue, 4)
        XCTAssertEqual(UIRectCorner.bottomRight.rawValue, 8)
        XCTAssertEqual(UIRectCorner.allCorners.rawValue, UInt.max)
        XCTAssertTrue(UIRectCorner.allCorners.isSuperset(of: [.topLeft, .topRight, .bottomLeft, .bottomRight]))
    }
}
