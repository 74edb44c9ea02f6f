import Foundation
import XCTest
@testable import StrataCore

final class TransformDecompositionTests: XCTestCase {

    private func assertEqual(_ a: CATransform3D, _ b: CATransform3D, accuracy: CGFloat = 1e-9,
                             file: StaticString = #filePath, line: UInt = #line) {
        for (i, (x, y)) in zip(a.entries, b.entries).enumerated() where !(abs(x - y) <= accuracy) {
            XCTFail("entry m\(i / 4 + 1)\(i % 4 + 1): \(x) ≠ \(y)\n\(a)\n\(b)", file: file, line: line)
            return
        }
    }

    private func assertEqual(_ a: SIMD4<Double>, _ b: SIMD4<Double>, accuracy: Double = 1e-12,
                             file: StaticString = #filePath, line: UInt = #line) {
        let difference = a - b
        let largest = difference.indices.map { abs(difference[$0]) }.max()!
        XCTAssertLessThanOrEqual(largest, accuracy, "\(a) ≠ \(b)", file: file, line: line)
    }

    private func assertEqual(_ a: SIMD3<Double>, _ b: SIMD3<Double>, accuracy: Double = 1e-12,
                             file: StaticString = #filePath, line: UInt = #line) {
        let difference = a - b
        let largest = difference.indices.map { abs(difference[$0]) }.max()!
        XCTAssertLessThanOrEqual(largest, accuracy, "\(a) ≠ \(b)", file: file, line: line)
    }

    private func perspective(_ d: CGFloat) -> CATransform3D {
        var t = CATransform3D.identity
        t.m34 = -1 / d
        return t
    }

    // MARK: Decompose / recompose

    func testDecomposesIntoTheKnownParts() throws {
        // Applied in order: scale, rotation, translation, perspective (tz = 0 keeps m44 = 1).
        let m = CATransform3DMakeScale(2, 3, 1)
            .concatenating(CATransform3DMakeRotation(0.5, 0, 0, 1))
            .concatenating(CATransform3DMakeTranslation(10, -20, 0))
            .concatenating(perspective(500))
        let d = try XCTUnwrap(m.decomposed())
        assertEqual(d.translation, SIMD3(10, -20, 0))
        assertEqual(d.scale, SIMD3(2, 3, 1))
        assertEqual(d.skew, SIMD3(0, 0, 0))
        assertEqual(d.perspective, SIMD4(0, 0, -1.0 / 500, 1))
        assertEqual(d.quaternion, SIMD4(0, 0, sin(0.25), cos(0.25)))
    }

    func testRoundTripOfTranslationRotationScalePerspective() throws {
        let m = CATransform3DMakeScale(2, 3, 0.5)
            .concatenating(CATransform3DMakeRotation(0.7, 1, 2, 3))
            .concatenating(CATransform3DMakeTranslation(10, -20, 30))
            .concatenating(perspective(500))
        let d = try XCTUnwrap(m.decomposed())
        // Decomposition normalises by m44 (here 1 + 30·(−1/500) = 0.94).
        let normalised = CATransform3D(entries: m.entries.map { $0 / m.m44 })
        assertEqual(CATransform3D(d), normalised)
        assertEqual(d.scale, SIMD3(2, 3, 0.5) / 0.94, accuracy: 1e-9)
    }

    func testRoundTripOfAGeneralMatrixWithSkewAndPerspective() throws {
        let m = CATransform3D(entries: [1.2, 0.3, -0.4, 0.001,
                                        0.5, 0.9, 0.2, -0.002,
                                        -0.1, 0.6, 1.1, 0.0005,
                                        12, -7, 3, 1])
        let d = try XCTUnwrap(m.decomposed())
        XCTAssertNotEqual(d.skew, .zero)
        assertEqual(CATransform3D(d), m)
    }

    func testRoundTripOfAMirror() throws {
        let flip = try XCTUnwrap(CATransform3DMakeScale(-1, 1, 1).decomposed())
        assertEqual(flip.scale, SIMD3(-1, 1, 1))
        assertEqual(flip.quaternion, SIMD4(0, 0, 0, 1))
        let m = CATransform3DMakeScale(1, -2, 1)
            .concatenating(CATransform3DMakeRotation(1.1, 0.3, -0.2, 1))
            .concatenating(CATransform3DMakeTranslation(4, 5, 6))
        let d = try XCTUnwrap(m.decomposed())
        XCTAssertEqual(d.scale.x * d.scale.y * d.scale.z, -2, accuracy: 1e-9)
        assertEqual(CATransform3D(d), m)
    }

    func testHalfTurnAboutAnAxisWithMixedSigns() throws {
        // CSS's sign rule gets this quaternion wrong; the round trip catches it.
        let m = CATransform3DMakeRotation(.pi, 1, -1, 0.5)
        assertEqual(CATransform3D(try XCTUnwrap(m.decomposed())), m)
    }

    func testZeroScaleDecomposes() throws {
        let d = try XCTUnwrap(CATransform3DMakeScale(0, 0, 1).decomposed())
        assertEqual(d.scale, SIMD3(0, 0, 1))
        assertEqual(CATransform3D(d), CATransform3DMakeScale(0, 0, 1))
        let rotated = CATransform3DMakeScale(0, 1, 1).concatenating(CATransform3DMakeRotation(0.4, 0, 0, 1))
        assertEqual(CATransform3D(try XCTUnwrap(rotated.decomposed())), rotated)
    }

    func testSingularMatricesDoNotDecompose() {
        XCTAssertNil(CATransform3D(entries: [1, 1, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]).decomposed())
        var noW = CATransform3D.identity
        noW.m44 = 0
        XCTAssertNil(noW.decomposed())
    }

    // MARK: Interpolation

    func testRotationHalfwayIsHalfTheAngle() {
        let quarter = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        assertEqual(CATransform3D.interpolate(from: .identity, to: quarter, fraction: 0.5),
                    CATransform3DMakeRotation(.pi / 4, 0, 0, 1), accuracy: 1e-12)
    }

    func testRotationTakesTheShorterArc() {
        let threeQuarters = CATransform3DMakeRotation(3 * .pi / 2, 0, 0, 1)
        assertEqual(CATransform3D.interpolate(from: .identity, to: threeQuarters, fraction: 0.5),
                    CATransform3DMakeRotation(-.pi / 4, 0, 0, 1), accuracy: 1e-12)
    }

    func testTranslationsInterpolateLinearly() {
        let a = CATransform3DMakeTranslation(0, 10, 0), b = CATransform3DMakeTranslation(100, 60, -20)
        for f in [0.1, 0.3, 0.5, 0.9, 1.2] {
            assertEqual(CATransform3D.interpolate(from: a, to: b, fraction: f),
                        CATransform3DMakeTranslation(100 * f, 10 + 50 * f, -20 * f))
        }
    }

    func testRotationsAboutDifferentAxesSlerp() {
        // q(x, 90°) = (√½, 0, 0, √½), q(y, 90°) = (0, √½, 0, √½); their dot is ½ (60° apart), so
        // the midpoint is their normalised sum (1, 1, 0, 2)/√6: a turn of 2·acos(2/√6) about (1, 1, 0).
        let a = CATransform3DMakeRotation(.pi / 2, 1, 0, 0), b = CATransform3DMakeRotation(.pi / 2, 0, 1, 0)
        let expected = CATransform3DMakeRotation(2 * acos(2 / 6.0.squareRoot()), 1, 1, 0)
        assertEqual(CATransform3D.interpolate(from: a, to: b, fraction: 0.5), expected, accuracy: 1e-12)
    }

    func testScaleAndPerspectiveInterpolateLinearly() {
        let a = CATransform3DMakeScale(1, 1, 1).concatenating(perspective(1000))
        let b = CATransform3DMakeScale(3, 2, 1).concatenating(perspective(500))
        let mid = CATransform3DMakeScale(2, 1.5, 1).concatenating({ var t = CATransform3D.identity
            t.m34 = -0.0015; return t }())
        assertEqual(CATransform3D.interpolate(from: a, to: b, fraction: 0.5), mid, accuracy: 1e-12)
    }

    func testZeroScaleInterpolatesSmoothly() {
        assertEqual(CATransform3D.interpolate(from: CATransform3DMakeScale(0, 0, 1), to: .identity, fraction: 0.5),
                    CATransform3DMakeScale(0.5, 0.5, 1), accuracy: 1e-12)
    }

    func testSingularMatricesSwitchAtHalfway() {
        let singular = CATransform3D(entries: [1, 1, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
        let target = CATransform3DMakeTranslation(5, 5, 0)
        XCTAssertEqual(CATransform3D.interpolate(from: singular, to: target, fraction: 0.49), singular)
        XCTAssertEqual(CATransform3D.interpolate(from: singular, to: target, fraction: 0.5), target)
        XCTAssertEqual(CATransform3D.interpolate(from: target, to: singular, fraction: 0.2), target)
        XCTAssertEqual(CATransform3D.interpolate(from: target, to: singular, fraction: 0.8), singular)
    }

    func testEndpointsAreExact() {
        let a = CATransform3DMakeRotation(0.3, 1, 1, 0), b = CATransform3DMakeScale(2, 2, 2)
        XCTAssertEqual(CATransform3D.interpolate(from: a, to: b, fraction: 0), a)
        XCTAssertEqual(CATransform3D.interpolate(from: a, to: b, fraction: 1), b)
    }

    // MARK: Virtual keys

    func testRotationZReadsTheAngle() throws {
        let t = CATransform3DMakeRotation(0.3, 0, 0, 1)
        XCTAssertEqual(try XCTUnwrap(t.value(forVirtualKey: "rotation.z")), 0.3, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(t.value(forVirtualKey: "rotation")), 0.3, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(t.value(forVirtualKey: "rotation.x")), 0, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(t.value(forVirtualKey: "rotation.y")), 0, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(CATransform3DMakeRotation(0.4, 1, 0, 0).value(forVirtualKey: "rotation.x")),
                       0.4, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(CATransform3DMakeRotation(-0.2, 0, 1, 0).value(forVirtualKey: "rotation.y")),
                       -0.2, accuracy: 1e-12)
    }

    func testEulerAnglesOfACompositeRotation() throws {
        // R = Rx(0.3) · Ry(−0.5) · Rz(1.2): x first, then y, then z.
        let t = CATransform3DMakeRotation(0.3, 1, 0, 0)
            .concatenating(CATransform3DMakeRotation(-0.5, 0, 1, 0))
            .concatenating(CATransform3DMakeRotation(1.2, 0, 0, 1))
        XCTAssertEqual(try XCTUnwrap(t.value(forVirtualKey: "rotation.x")), 0.3, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(t.value(forVirtualKey: "rotation.y")), -0.5, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(t.value(forVirtualKey: "rotation.z")), 1.2, accuracy: 1e-12)
    }

    func testScaleAndTranslationKeys() throws {
        let t = CATransform3DMakeScale(2, 4, 5)
            .concatenating(CATransform3DMakeRotation(0.8, 0, 0, 1))
            .concatenating(CATransform3DMakeTranslation(7, 8, 9))
        XCTAssertEqual(try XCTUnwrap(t.value(forVirtualKey: "scale")), 3, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(t.value(forVirtualKey: "scale.x")), 2, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(t.value(forVirtualKey: "scale.y")), 4, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(t.value(forVirtualKey: "scale.z")), 5, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(t.value(forVirtualKey: "translation.x")), 7, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(t.value(forVirtualKey: "translation.y")), 8, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(t.value(forVirtualKey: "translation.z")), 9, accuracy: 1e-12)
        XCTAssertNil(t.value(forVirtualKey: "translation"))
        XCTAssertNil(t.value(forVirtualKey: "rotation.w"))
    }

    func testSettingScaleXKeepsTheRotation() throws {
        let t = CATransform3DMakeRotation(0.3, 0, 0, 1).concatenating(CATransform3DMakeTranslation(5, 6, 0))
        let s = try XCTUnwrap(t.settingVirtualKey("scale.x", to: 2))
        XCTAssertEqual(try XCTUnwrap(s.value(forVirtualKey: "rotation.z")), 0.3, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(s.value(forVirtualKey: "scale.x")), 2, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(s.value(forVirtualKey: "scale.y")), 1, accuracy: 1e-12)
        assertEqual(s, CATransform3DMakeScale(2, 1, 1).concatenating(t), accuracy: 1e-12)
    }

    func testSettingRotationReplacesTheRotationAndKeepsTheRest() throws {
        let base = CATransform3DMakeScale(2, 2, 1)
            .concatenating(CATransform3DMakeRotation(0.7, 1, 0, 0))
            .concatenating(CATransform3DMakeTranslation(10, 20, 0))
        let s = try XCTUnwrap(base.settingVirtualKey("rotation.z", to: .pi / 3))
        let expected = CATransform3DMakeScale(2, 2, 1)
            .concatenating(CATransform3DMakeRotation(.pi / 3, 0, 0, 1))
            .concatenating(CATransform3DMakeTranslation(10, 20, 0))
        assertEqual(s, expected, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(s.value(forVirtualKey: "rotation.x")), 0, accuracy: 1e-12)
    }

    func testSettingRotationYKeepsPerspective() throws {
        let p = perspective(500)
        let s = try XCTUnwrap(p.settingVirtualKey("rotation.y", to: 0.6))
        assertEqual(s, CATransform3DRotate(p, 0.6, 0, 1, 0), accuracy: 1e-12)
    }

    func testSettingScaleAndTranslation() throws {
        let t = CATransform3DMakeRotation(0.5, 0, 0, 1)
        let scaled = try XCTUnwrap(t.settingVirtualKey("scale", to: 3))
        assertEqual(scaled, CATransform3DMakeScale(3, 3, 3).concatenating(t), accuracy: 1e-12)
        let moved = try XCTUnwrap(t.settingVirtualKey("translation.y", to: -4))
        assertEqual(moved, t.concatenating(CATransform3DMakeTranslation(0, -4, 0)), accuracy: 1e-12)
        XCTAssertNil(t.settingVirtualKey("skew", to: 1))
    }

    func testVirtualKeysOnAZeroScale() throws {
        let collapsed = CATransform3DMakeScale(0, 0, 1)
        XCTAssertEqual(try XCTUnwrap(collapsed.value(forVirtualKey: "scale")), 0)
        let spun = try XCTUnwrap(collapsed.settingVirtualKey("rotation.z", to: 1))
        assertEqual(spun, collapsed, accuracy: 1e-12)
        let grown = try XCTUnwrap(collapsed.settingVirtualKey("scale", to: 1))
        assertEqual(grown, .identity, accuracy: 1e-12)
    }
}
