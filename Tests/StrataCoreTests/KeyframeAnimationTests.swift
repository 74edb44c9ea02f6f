// CAKeyframeAnimation: key times and per-interval timing functions (after the animation's own),
// discrete (count + 1 key times), paced (constant speed, measured), cubic Kochanek–Bartels
// (values computed by hand from the Hermite form), cubicPaced, paths (linear by each element's
// parameter, move-to without a keyframe), rotationMode, cumulative/additive, errors.
import XCTest
@testable import StrataCore

final class KeyframeAnimationTests: XCTestCase {
    private func at(_ t: Double, _ layer: CALayer) -> CALayer {
        PresentationBuilder(time: t).presentationTree(of: layer)
    }

    private func x(_ layer: CALayer, _ t: Double) -> Double { Double(at(t, layer).position.x) }

    private func keyframes(_ keyPath: String, _ configure: (CAKeyframeAnimation) -> Void) throws -> CALayer {
        let layer = CALayer()
        let a = CAKeyframeAnimation(keyPath: keyPath)
        a.duration = 4
        a.fillMode = .both
        a.isRemovedOnCompletion = false
        configure(a)
        try layer.addChecked(a, forKey: "k")
        return layer
    }

    /// The seeds' bezier: from (0, 150) to (300, 150) with control points (75, 0) and (225, 300).
    private func seedsPath() -> CGPath {
        let p = CGMutablePath()
        p.move(to: CGPoint(x: 0, y: 150))
        p.addCurve(to: CGPoint(x: 300, y: 150), control1: CGPoint(x: 75, y: 0), control2: CGPoint(x: 225, y: 300))
        return p
    }

    func testLinearKeyTimesAndTimingFunctionsApplyAfterTheAnimationsOwn() throws {
        let easeIn = CAMediaTimingFunction(name: .easeIn), easeOut = CAMediaTimingFunction(name: .easeOut)
        let layer = try keyframes("position.x") {
            $0.values = [0, 100, 50]
            $0.keyTimes = [0, 0.25, 1]
            $0.timingFunctions = [easeIn, CAMediaTimingFunction(name: .linear)]
            $0.timingFunction = easeOut
        }
        for t in [0.0, 0.3, 0.5, 0.8, 1.0, 2.0, 3.7, 4.0] {
            let f = easeOut.evaluate(t / 4)
            let expected = f < 0.25 ? 100 * easeIn.evaluate(f / 0.25) : 100 - 50 * (f - 0.25) / 0.75
            XCTAssertEqual(x(layer, t), expected, accuracy: 1e-9, "t = \(t)")
        }
    }

    func testInvalidKeyTimesAreIgnored() throws {
        // Wrong count (Apple: "invalid or inappropriate keyTimes are ignored"): values spread evenly.
        let layer = try keyframes("position.x") { $0.values = [0, 100, 50]; $0.keyTimes = [0, 1] }
        XCTAssertEqual(x(layer, 2), 100, accuracy: 1e-9)
        XCTAssertEqual(x(layer, 3), 75, accuracy: 1e-9)
        let unordered = try keyframes("position.x") { $0.values = [0, 100, 50]; $0.keyTimes = [0, 0.8, 0.5] }
        XCTAssertEqual(x(unordered, 2), 100, accuracy: 1e-9)
    }

    func testDiscreteUsesCountPlusOneKeyTimes() throws {
        let layer = try keyframes("position.x") {
            $0.calculationMode = .discrete
            $0.values = [10, 20, 30]
            $0.keyTimes = [0, 0.5, 0.75, 1]
        }
        XCTAssertEqual(x(layer, 0), 10)
        XCTAssertEqual(x(layer, 1.999), 10)
        XCTAssertEqual(x(layer, 2), 20)        // exactly at a key time: the next value
        XCTAssertEqual(x(layer, 2.999), 20)
        XCTAssertEqual(x(layer, 3), 30)
        XCTAssertEqual(x(layer, 4), 30)        // end, filled forwards
        let even = try keyframes("position.x") { $0.calculationMode = .discrete; $0.values = [10, 20, 30, 40] }
        XCTAssertEqual([0.5, 1.0, 2.5, 3.0, 3.99].map { x(even, $0) }, [10, 20, 30, 40, 40])
    }

    func testPacedValuesMoveAtConstantSpeed() throws {
        // Distances 10 and 30: key times become 0, 0.25, 1, so the value is 40·f exactly.
        let layer = try keyframes("position.x") {
            $0.calculationMode = .paced
            $0.values = [0, 10, 40]
            $0.keyTimes = [0, 0.9, 1]  // ignored
            $0.timingFunctions = [CAMediaTimingFunction(name: .easeIn), CAMediaTimingFunction(name: .easeIn)]  // ignored
        }
        for t in stride(from: 0.0, through: 4, by: 0.25) { XCTAssertEqual(x(layer, t), 10 * t, accuracy: 1e-9) }
    }

    /// Distances between consecutive frames (30 fps) of the position.
    private func frameSteps(_ layer: CALayer, duration: Double) -> [Double] {
        let frames = Int(duration * 30)
        let points = (0...frames).map { at(Double($0) / 30, layer).position }
        return zip(points, points.dropFirst()).map { Double(hypot($1.x - $0.x, $1.y - $0.y)) }
    }

    func testPacedAlongTheSeedsBezierIsConstantWithinOnePercent() throws {
        let path = seedsPath()
        let layer = try keyframes("position") { $0.path = path; $0.calculationMode = .paced }
        let steps = frameSteps(layer, duration: 4)
        let mean = steps.reduce(0, +) / Double(steps.count)
        let spread = (steps.max()! - steps.min()!) / mean
        XCTAssertLessThan(spread, 0.01, "per-frame distance varies by \(spread * 100) %")
        XCTAssertEqual(mean * Double(steps.count), Double(path.length), accuracy: Double(path.length) * 1e-3)
        // Linear mode follows the curve's own parameter: visibly not constant.
        let linear = try keyframes("position") { $0.path = path }
        let ls = frameSteps(linear, duration: 4)
        XCTAssertGreaterThan((ls.max()! - ls.min()!) / mean, 0.2)
        // …and both pass through the same points at the ends.
        XCTAssertEqual(at(4, layer).position, CGPoint(x: 300, y: 150))
        XCTAssertEqual(at(0, linear).position, CGPoint(x: 0, y: 150))
    }

    func testCubicPacedIsConstantWithinOnePercent() throws {
        let layer = try keyframes("position") {
            $0.calculationMode = .cubicPaced
            $0.values = [CGPoint(x: 0, y: 0), CGPoint(x: 100, y: 20), CGPoint(x: 150, y: 120), CGPoint(x: 40, y: 200)]
        }
        let steps = frameSteps(layer, duration: 4)
        let mean = steps.reduce(0, +) / Double(steps.count)
        XCTAssertLessThan((steps.max()! - steps.min()!) / mean, 0.01)
        XCTAssertEqual(at(4, layer).position, CGPoint(x: 40, y: 200))
    }

    func testCubicIsKochanekBartels() throws {
        // Catmull-Rom, uniform: the middle of interval 1 is (−P0 + 9·P1 + 9·P2 − P3) / 16.
        let catmull = try keyframes("position.x") { $0.calculationMode = .cubic; $0.values = [0, 10, 30, 0] }
        XCTAssertEqual(x(catmull, 2), (9 * 10 + 9 * 30) / 16, accuracy: 1e-9)
        XCTAssertEqual(x(catmull, 4.0 / 3), 10, accuracy: 1e-9)  // passes through the keyframes
        // Tension 1 everywhere: zero tangents, the middle is the mean.
        let tight = try keyframes("position.x") {
            $0.calculationMode = .cubic; $0.values = [0, 10, 30, 0]; $0.tensionValues = [1, 1, 1, 1]
        }
        XCTAssertEqual(x(tight, 2), 20, accuracy: 1e-9)
        // Continuity −1 at P1: its outgoing tangent is P2 − P1 = 20; P2's incoming is (P3 − P1)/2 = −5;
        // middle = (P1 + P2)/2 + (20 − (−5))/8.
        let corner = try keyframes("position.x") {
            $0.calculationMode = .cubic; $0.values = [0, 10, 30, 0]; $0.continuityValues = [0, -1]
        }
        XCTAssertEqual(x(corner, 2), 20 + 25.0 / 8, accuracy: 1e-9)
        // Bias +1 at P1: outgoing = (1+b)(P1 − P0)/2·… = (P1 − P0) = 10; middle = 20 + (10 + 5)/8.
        let biased = try keyframes("position.x") {
            $0.calculationMode = .cubic; $0.values = [0, 10, 30, 0]; $0.biasValues = [0, 1]
        }
        XCTAssertEqual(x(biased, 2), 20 + 15.0 / 8, accuracy: 1e-9)
        // Uneven key times scale the tangents by 2Δ/(Δprev + Δnext): interval 1 spans 0.5…0.75.
        let uneven = try keyframes("position.x") {
            $0.calculationMode = .cubic; $0.values = [0, 10, 30, 0]; $0.keyTimes = [0, 0.5, 0.75, 1]
        }
        // out_1 = 15 · 2·0.25/0.75 = 10, in_2 = −5 · 2·0.25/0.5 = −5; middle at f = 0.625.
        XCTAssertEqual(x(uneven, 2.5), 20 + 15.0 / 8, accuracy: 1e-9)
    }

    func testPathLinearModeGivesEachElementItsShareOfTime() throws {
        let p = CGMutablePath()
        p.move(to: CGPoint(x: 0, y: 0))
        p.addLine(to: CGPoint(x: 100, y: 0))
        p.move(to: CGPoint(x: 100, y: 50))  // no keyframe of its own: a jump
        p.addQuadCurve(to: CGPoint(x: 200, y: 50), control: CGPoint(x: 150, y: 150))
        let layer = try keyframes("position") { $0.path = p }
        XCTAssertEqual(at(1, layer).position, CGPoint(x: 50, y: 0))      // half of the line
        XCTAssertEqual(at(2, layer).position, CGPoint(x: 100, y: 50))    // start of the curve, after the jump
        // Quad at parameter 0.5: (P0 + 2C + P1)/4.
        XCTAssertEqual(at(3, layer).position, CGPoint(x: 150, y: 100))
        XCTAssertEqual(at(4, layer).position, CGPoint(x: 200, y: 50))
    }

    func testRotateAutoTurnsTheTransformToTheTangent() throws {
        let p = CGMutablePath()
        p.move(to: .zero)
        p.addLine(to: CGPoint(x: 100, y: 100))
        let layer = try keyframes("position") { $0.path = p; $0.rotationMode = .rotateAuto }
        let t = at(2, layer).transform
        XCTAssertEqual(Double(t.m11), cos(.pi / 4), accuracy: 1e-12)
        XCTAssertEqual(Double(t.m12), sin(.pi / 4), accuracy: 1e-12)  // y-down: clockwise on screen
        let rev = try keyframes("position") { $0.path = p; $0.rotationMode = .rotateAutoReverse }
        XCTAssertEqual(Double(at(2, rev).transform.m11), cos(5 * .pi / 4), accuracy: 1e-12)
        // Along the seeds' bezier: the tangent of B'(s) at the moment's parameter; at the start
        // it heads to the first control point, at the end from the second.
        let bez = try keyframes("position") { $0.path = seedsPath(); $0.rotationMode = .rotateAuto }
        let start = at(0, bez).transform, end = at(4, bez).transform
        XCTAssertEqual(Double(atan2(start.m12, start.m11)), atan2(-150, 75), accuracy: 1e-9)
        XCTAssertEqual(Double(atan2(end.m12, end.m11)), atan2(-150, 75), accuracy: 1e-9)
        // The rotation applies before (inside) the model transform.
        let scaled = try keyframes("position") { $0.path = p; $0.rotationMode = .rotateAuto }
        scaled.transform = CATransform3DMakeScale(2, 2, 1)
        XCTAssertEqual(at(2, scaled).transform, CATransform3DRotate(CATransform3DMakeScale(2, 2, 1), .pi / 4, 0, 0, 1))
    }

    func testCumulativeAndAdditive() throws {
        let layer = try keyframes("position.x") {
            $0.values = [0, 4, 10]; $0.duration = 1; $0.repeatCount = 3; $0.isCumulative = true
        }
        XCTAssertEqual(x(layer, 1.75), 10 + 7, accuracy: 1e-9)   // second cycle: +10
        XCTAssertEqual(x(layer, 2.5), 20 + 4, accuracy: 1e-9)
        XCTAssertEqual(x(layer, 3), 30, accuracy: 1e-9)          // end of the third cycle
        let add = try keyframes("position.x") { $0.values = [0, 10]; $0.isAdditive = true }
        add.position = CGPoint(x: 100, y: 0)
        XCTAssertEqual(x(add, 2), 105, accuracy: 1e-9)
    }

    func testColourKeyframesInterpolatePerComponent() throws {
        // The seeds' colour keyframes: blue → red → green → blue over 2 s.
        let layer = CALayer()
        let a = CAKeyframeAnimation(keyPath: "backgroundColor")
        a.duration = 2
        a.values = [CGColor(red: 0, green: 0, blue: 1, alpha: 1), CGColor(red: 1, green: 0, blue: 0, alpha: 1),
                    CGColor(red: 0, green: 1, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 1)]
        try layer.addChecked(a, forKey: nil)
        let c = try XCTUnwrap(at(1.0 / 3, layer).backgroundColor)  // halfway blue → red
        XCTAssertEqual(Double(c.red), 0.5, accuracy: 1e-9)
        XCTAssertEqual(Double(c.blue), 0.5, accuracy: 1e-9)
    }

    func testTransformKeyframesInterpolateByDecomposition() throws {
        let layer = try keyframes("transform") {
            $0.values = [CATransform3DIdentity, CATransform3DMakeRotation(.pi / 2, 0, 0, 1), CATransform3DMakeScale(2, 2, 1)]
        }
        XCTAssertEqual(at(1, layer).transform, CATransform3D.interpolate(from: CATransform3DIdentity, to: CATransform3DMakeRotation(.pi / 2, 0, 0, 1), fraction: 0.5))
    }

    func testWrongValuesThrowClearly() {
        let layer = CALayer()
        let a = CAKeyframeAnimation(keyPath: "position")
        a.values = [CGPoint.zero, "north"]
        XCTAssertThrowsError(try layer.addChecked(a, forKey: nil)) { e in
            XCTAssertEqual("\(e)", "values[1] of the animation on 'position' is a String; expected a point")
        }
        let b = CAKeyframeAnimation(keyPath: "opacity")
        b.path = seedsPath()
        XCTAssertThrowsError(try layer.addChecked(b, forKey: nil)) { e in
            XCTAssertTrue("\(e)".contains("path of the animation on 'opacity'"), "\(e)")
        }
        let c = CAKeyframeAnimation(keyPath: "positoin")
        c.values = [CGPoint.zero]
        XCTAssertThrowsError(try layer.addChecked(c, forKey: nil)) { e in
            XCTAssertEqual("\(e)", "unknown animatable key path 'positoin' on CALayer")
        }
    }
}
