import Foundation
import XCTest
@testable import StrataCore

/// Expected values are computed here independently of the implementation: Béziers by plain
/// bisection on the curve parameter, Penner curves from Penner's original (t, b, c, d) equations.
final class TimingFunctionTests: XCTestCase {

    // MARK: Reference solvers

    /// y at `x` of the Bézier (0,0) (c1x,c1y) (c2x,c2y) (1,1): bisects s until the bracket is 1e-13 wide.
    private func referenceBezier(_ x: Double, _ c1x: Double, _ c1y: Double, _ c2x: Double, _ c2y: Double) -> Double {
        func bernstein(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
            let u = 1 - s
            return 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s
        }
        var lo = 0.0, hi = 1.0
        while hi - lo > 1e-13 {
            let mid = (lo + hi) / 2
            if bernstein(mid, c1x, c2x) < x { lo = mid } else { hi = mid }
        }
        return bernstein((lo + hi) / 2, c1y, c2y)
    }

    private func bezier(_ f: CAMediaTimingFunction) -> (Double, Double, Double, Double) {
        var p1 = [Float](repeating: 0, count: 2), p2 = [Float](repeating: 0, count: 2)
        f.getControlPoint(at: 1, values: &p1)
        f.getControlPoint(at: 2, values: &p2)
        return (Double(p1[0]), Double(p1[1]), Double(p2[0]), Double(p2[1]))
    }

    // MARK: Béziers

    func testLinearIsTheIdentity() {
        let f = CAMediaTimingFunction(name: .linear)
        for p in stride(from: 0.0, through: 1.0, by: 0.05) {
            XCTAssertEqual(f.evaluate(p), p, accuracy: 1e-15)
        }
    }

    func testEaseInEaseOutIsSymmetricAtHalf() {
        // (0.42, 0) and (0.58, 1) are point-symmetric about (0.5, 0.5); Float storage of 0.42 and
        // 0.58 breaks the symmetry by ~1e-8 only.
        XCTAssertEqual(CAMediaTimingFunction(name: .easeInEaseOut).evaluate(0.5), 0.5, accuracy: 1e-7)
        let exact = CAMediaTimingFunction(controlPoints: 0.25, 0, 0.75, 1)
        XCTAssertEqual(exact.evaluate(0.5), 0.5, accuracy: 1e-12)
    }

    func testDefaultAtAQuarterMatchesBisection() {
        let expected = referenceBezier(0.25, 0.25, 0.1, 0.25, 1)
        XCTAssertEqual(CAMediaTimingFunction(name: .default).evaluate(0.25), expected, accuracy: 1e-6)
        XCTAssertEqual(expected, 0.4085, accuracy: 1e-3)  // sanity: the curve is well above y = x here
    }

    func testNamedBeziersMatchBisectionEverywhere() {
        let names: [(CAMediaTimingFunctionName, (Double, Double, Double, Double))] = [
            (.easeIn, (0.42, 0, 1, 1)), (.easeOut, (0, 0, 0.58, 1)),
            (.easeInEaseOut, (0.42, 0, 0.58, 1)), (.default, (0.25, 0.1, 0.25, 1)),
        ]
        for (name, c) in names {
            let f = CAMediaTimingFunction(name: name)
            for p in stride(from: 0.0, through: 1.0, by: 0.01) {
                XCTAssertEqual(f.evaluate(p), referenceBezier(p, c.0, c.1, c.2, c.3), accuracy: 1e-6,
                               "\(name.rawValue) at \(p)")
            }
        }
    }

    func testHardCurvesMatchBisection() {
        // Overshoot in y, and a curve whose x'(s) vanishes at s = 0.5 (Newton alone stalls there).
        let cases: [(Float, Float, Float, Float)] = [(0.5, -0.5, 0.5, 1.5), (1, 0, 0, 1), (0, 1, 1, 0), (0.9, 0.1, 1, 0)]
        for c in cases {
            let f = CAMediaTimingFunction(controlPoints: c.0, c.1, c.2, c.3)
            for p in [0.001, 0.1, 0.3, 0.4999, 0.5001, 0.7, 0.999] {
                let expected = referenceBezier(p, Double(c.0), Double(c.1), Double(c.2), Double(c.3))
                XCTAssertEqual(f.evaluate(p), expected, accuracy: 1e-6, "\(c) at \(p)")
            }
        }
        // At x = 0.5 the first of these is flat to within an ulp over s = 0.5 ± 3e-6, so plain
        // bisection cannot serve as the reference there; point symmetry gives y = 0.5 exactly.
        XCTAssertEqual(CAMediaTimingFunction(controlPoints: 1, 0, 0, 1).evaluate(0.5), 0.5, accuracy: 1e-9)
    }

    func testBezierIsMonotonicAndHitsTheEnds() {
        let f = CAMediaTimingFunction(name: .default)
        XCTAssertEqual(f.evaluate(0), 0)
        XCTAssertEqual(f.evaluate(1), 1)
        var previous = 0.0
        for i in 0...1000 {
            let y = f.evaluate(Double(i) / 1000)
            XCTAssertGreaterThanOrEqual(y, previous)
            previous = y
        }
    }

    func testProgressOutsideTheUnitIntervalIsClamped() {
        let f = CAMediaTimingFunction(controlPoints: 0.5, -0.5, 0.5, 1.5)
        XCTAssertEqual(f.evaluate(-0.5), 0)
        XCTAssertEqual(f.evaluate(1.5), 1)
        XCTAssertEqual(CAMediaTimingFunction(name: .easeOutBack).evaluate(2), 1, accuracy: 1e-15)
        XCTAssertEqual(CAMediaTimingFunction.steps(4, .jumpStart).evaluate(-1), 0.25)
    }

    func testControlPointsRoundTrip() {
        let f = CAMediaTimingFunction(controlPoints: 0.1, -0.3, 0.7, 1.4)
        var point = [Float](repeating: -9, count: 2)
        let expected: [[Float]] = [[0, 0], [0.1, -0.3], [0.7, 1.4], [1, 1]]
        for i in 0...3 {
            f.getControlPoint(at: i, values: &point)
            XCTAssertEqual(point, expected[i], "control point \(i)")
        }
        XCTAssertTrue(bezier(CAMediaTimingFunction(name: .easeIn)) == (Double(Float(0.42)), 0, 1, 1))
        XCTAssertTrue(bezier(CAMediaTimingFunction(name: .default)) == (0.25, Double(Float(0.1)), 0.25, 1))
        // Penner and step functions report the straight line.
        XCTAssertTrue(bezier(CAMediaTimingFunction(name: .easeOutBounce)) == (0, 0, 1, 1))
    }

    func testControlPointXIsClampedToTheUnitInterval() {
        let f = CAMediaTimingFunction(controlPoints: 1.5, 0.2, -0.25, 0.8)
        XCTAssertTrue(bezier(f) == (1, Double(Float(0.2)), 0, Double(Float(0.8))))
        XCTAssertEqual(f, CAMediaTimingFunction(controlPoints: 1, 0.2, 0, 0.8))
    }

    func testEquality() {
        XCTAssertEqual(CAMediaTimingFunction(name: .easeIn), CAMediaTimingFunction(controlPoints: 0.42, 0, 1, 1))
        XCTAssertEqual(CAMediaTimingFunction(name: .easeInCubic), CAMediaTimingFunction(name: .easeInCubic))
        XCTAssertNotEqual(CAMediaTimingFunction(name: .easeInCubic), CAMediaTimingFunction(name: .easeOutCubic))
        XCTAssertEqual(CAMediaTimingFunction.steps(3, .jumpEnd), CAMediaTimingFunction.steps(3, .jumpEnd))
        XCTAssertNotEqual(CAMediaTimingFunction.steps(3, .jumpEnd), CAMediaTimingFunction.steps(3, .jumpStart))
    }

    // MARK: Penner, from Robert Penner's original equations (t, b = 0, c = 1, d = 1)

    private static func pennerBounceOut(_ t: Double) -> Double {
        if t < 1 / 2.75 { return 7.5625 * t * t }
        if t < 2 / 2.75 { let u = t - 1.5 / 2.75; return 7.5625 * u * u + 0.75 }
        if t < 2.5 / 2.75 { let u = t - 2.25 / 2.75; return 7.5625 * u * u + 0.9375 }
        let u = t - 2.625 / 2.75
        return 7.5625 * u * u + 0.984375
    }

    private static let penner: [(CAMediaTimingFunctionName, @Sendable (Double) -> Double)] = [
        (.easeInSine, { t in -cos(t * (.pi / 2)) + 1 }),
        (.easeOutSine, { t in sin(t * (.pi / 2)) }),
        (.easeInOutSine, { t in -0.5 * (cos(.pi * t) - 1) }),
        (.easeInQuad, { t in t * t }),
        (.easeOutQuad, { t in -t * (t - 2) }),
        (.easeInOutQuad, { t in
            let u = t * 2
            if u < 1 { return 0.5 * u * u }
            let v = u - 1
            return -0.5 * (v * (v - 2) - 1)
        }),
        (.easeInCubic, { t in t * t * t }),
        (.easeOutCubic, { t in let u = t - 1; return u * u * u + 1 }),
        (.easeInOutCubic, { t in
            var u = t * 2
            if u < 1 { return 0.5 * u * u * u }
            u -= 2
            return 0.5 * (u * u * u + 2)
        }),
        (.easeInQuart, { t in t * t * t * t }),
        (.easeOutQuart, { t in let u = t - 1; return -(u * u * u * u - 1) }),
        (.easeInOutQuart, { t in
            var u = t * 2
            if u < 1 { return 0.5 * u * u * u * u }
            u -= 2
            return -0.5 * (u * u * u * u - 2)
        }),
        (.easeInQuint, { t in t * t * t * t * t }),
        (.easeOutQuint, { t in let u = t - 1; return u * u * u * u * u + 1 }),
        (.easeInOutQuint, { t in
            var u = t * 2
            if u < 1 { return 0.5 * u * u * u * u * u }
            u -= 2
            return 0.5 * (u * u * u * u * u + 2)
        }),
        (.easeInExpo, { t in t == 0 ? 0 : pow(2, 10 * (t - 1)) }),
        (.easeOutExpo, { t in t == 1 ? 1 : -pow(2, -10 * t) + 1 }),
        (.easeInOutExpo, { t in
            if t == 0 { return 0 }
            if t == 1 { return 1 }
            let u = t * 2
            if u < 1 { return 0.5 * pow(2, 10 * (u - 1)) }
            return 0.5 * (-pow(2, -10 * (u - 1)) + 2)
        }),
        (.easeInCirc, { t in -((1 - t * t).squareRoot() - 1) }),
        (.easeOutCirc, { t in let u = t - 1; return (1 - u * u).squareRoot() }),
        (.easeInOutCirc, { t in
            var u = t * 2
            if u < 1 { return -0.5 * ((1 - u * u).squareRoot() - 1) }
            u -= 2
            return 0.5 * ((1 - u * u).squareRoot() + 1)
        }),
        (.easeInBack, { t in let s = 1.70158; return t * t * ((s + 1) * t - s) }),
        (.easeOutBack, { t in let s = 1.70158, u = t - 1; return u * u * ((s + 1) * u + s) + 1 }),
        (.easeInOutBack, { t in
            let s = 1.70158 * 1.525
            var u = t * 2
            if u < 1 { return 0.5 * (u * u * ((s + 1) * u - s)) }
            u -= 2
            return 0.5 * (u * u * ((s + 1) * u + s) + 2)
        }),
        (.easeInElastic, { t in
            if t == 0 { return 0 }
            if t == 1 { return 1 }
            let p = 0.3, s = p / 4, u = t - 1
            return -(pow(2, 10 * u) * sin((u - s) * (2 * .pi) / p))
        }),
        (.easeOutElastic, { t in
            if t == 0 { return 0 }
            if t == 1 { return 1 }
            let p = 0.3, s = p / 4
            return pow(2, -10 * t) * sin((t - s) * (2 * .pi) / p) + 1
        }),
        (.easeInOutElastic, { t in
            if t == 0 { return 0 }
            if t == 1 { return 1 }
            let p = 0.3 * 1.5, s = p / 4
            let u = t * 2 - 1
            if u < 0 { return -0.5 * (pow(2, 10 * u) * sin((u - s) * (2 * .pi) / p)) }
            return pow(2, -10 * u) * sin((u - s) * (2 * .pi) / p) * 0.5 + 1
        }),
        (.easeInBounce, { t in 1 - pennerBounceOut(1 - t) }),
        (.easeOutBounce, { t in pennerBounceOut(t) }),
        (.easeInOutBounce, { t in
            if t < 0.5 { return (1 - pennerBounceOut(1 - t * 2)) * 0.5 }
            return pennerBounceOut(t * 2 - 1) * 0.5 + 0.5
        }),
    ]

    func testPennerFunctionsMatchTheOriginalEquations() {
        XCTAssertEqual(Self.penner.count, 30)
        for (name, formula) in Self.penner {
            let f = CAMediaTimingFunction(name: name)
            for t in [0, 0.25, 0.5, 0.75, 1] {
                XCTAssertEqual(f.evaluate(t), formula(t), accuracy: 1e-12, "\(name.rawValue) at \(t)")
            }
        }
    }

    func testPennerFunctionsStartAtZeroAndEndAtOne() {
        for (name, _) in Self.penner {
            let f = CAMediaTimingFunction(name: name)
            XCTAssertEqual(f.evaluate(0), 0, accuracy: 1e-12, name.rawValue)
            XCTAssertEqual(f.evaluate(1), 1, accuracy: 1e-12, name.rawValue)
        }
    }

    func testPennerSpotValues() {
        // A few values worked by hand.
        XCTAssertEqual(CAMediaTimingFunction(name: .easeInQuad).evaluate(0.25), 0.0625, accuracy: 1e-15)
        XCTAssertEqual(CAMediaTimingFunction(name: .easeInOutCubic).evaluate(0.25), 0.0625, accuracy: 1e-15)
        XCTAssertEqual(CAMediaTimingFunction(name: .easeOutBounce).evaluate(0.5), 0.765625, accuracy: 1e-12)
        XCTAssertEqual(CAMediaTimingFunction(name: .easeInOutSine).evaluate(0.5), 0.5, accuracy: 1e-15)
        XCTAssertEqual(CAMediaTimingFunction(name: .easeInExpo).evaluate(0.5), 1.0 / 32, accuracy: 1e-15)
        XCTAssertLessThan(CAMediaTimingFunction(name: .easeInBack).evaluate(0.25), 0)  // dips below 0
        XCTAssertGreaterThan(CAMediaTimingFunction(name: .easeOutBack).evaluate(0.75), 1)  // overshoots
    }

    // MARK: Steps

    func testStepsJumpEnd() {
        let f = CAMediaTimingFunction.steps(4, .jumpEnd)
        XCTAssertEqual(f.evaluate(0), 0)
        XCTAssertEqual(f.evaluate(0.24), 0)
        XCTAssertEqual(f.evaluate(0.25), 0.25)
        XCTAssertEqual(f.evaluate(0.99), 0.75)
        XCTAssertEqual(f.evaluate(1), 1)
    }

    func testStepsJumpStart() {
        let f = CAMediaTimingFunction.steps(4, .jumpStart)
        XCTAssertEqual(f.evaluate(0), 0.25)
        XCTAssertEqual(f.evaluate(0.24), 0.25)
        XCTAssertEqual(f.evaluate(0.25), 0.5)
        XCTAssertEqual(f.evaluate(0.99), 1)
        XCTAssertEqual(f.evaluate(1), 1)
    }

    func testStepsJumpNoneAndJumpBoth() {
        let none = CAMediaTimingFunction.steps(4, .jumpNone)  // 3 jumps: 0, 1/3, 2/3, 1
        XCTAssertEqual(none.evaluate(0), 0)
        XCTAssertEqual(none.evaluate(0.25), 1.0 / 3)
        XCTAssertEqual(none.evaluate(0.74), 2.0 / 3)
        XCTAssertEqual(none.evaluate(0.99), 1)
        XCTAssertEqual(none.evaluate(1), 1)
        let both = CAMediaTimingFunction.steps(4, .jumpBoth)  // 5 jumps: 1/5 … 4/5, then 1
        XCTAssertEqual(both.evaluate(0), 0.2)
        XCTAssertEqual(both.evaluate(0.25), 0.4)
        XCTAssertEqual(both.evaluate(0.99), 0.8)
        XCTAssertEqual(both.evaluate(1), 1)
    }
}
