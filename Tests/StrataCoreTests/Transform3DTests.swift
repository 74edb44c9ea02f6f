// CATransform3D: row-vector convention, composition order, rotation axes and directions,
// m34 perspective, inversion and the affine bridge. Expected values are computed by hand.
import Foundation
import XCTest
@testable import StrataCore

private let exact: CGFloat = 1e-12

private func assertEqual(_ t: CATransform3D, _ e: [CGFloat], accuracy: CGFloat = exact,
                         file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(e.count, 16, file: file, line: line)
    for (i, (g, x)) in zip(t.entries, e).enumerated() {
        XCTAssertEqual(g, x, accuracy: accuracy, "m\(i / 4 + 1)\(i % 4 + 1) of \(t)", file: file, line: line)
    }
}

/// Maps (x, y, z) through `t` with the perspective divide.
private func mapped(_ t: CATransform3D, _ x: CGFloat, _ y: CGFloat, _ z: CGFloat = 0) -> (CGFloat, CGFloat, CGFloat) {
    let h = t.project(CGPoint(x: x, y: y), z: z)
    return (h.x / h.w, h.y / h.w, h.z / h.w)
}

private func assertMaps(_ t: CATransform3D, _ p: (CGFloat, CGFloat, CGFloat), to e: (CGFloat, CGFloat, CGFloat),
                        accuracy: CGFloat = exact, file: StaticString = #filePath, line: UInt = #line) {
    let m = mapped(t, p.0, p.1, p.2)
    XCTAssertEqual(m.0, e.0, accuracy: accuracy, "x", file: file, line: line)
    XCTAssertEqual(m.1, e.1, accuracy: accuracy, "y", file: file, line: line)
    XCTAssertEqual(m.2, e.2, accuracy: accuracy, "z", file: file, line: line)
}

final class Transform3DTests: XCTestCase {
    func testIdentity() {
        assertEqual(CATransform3DIdentity, [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], accuracy: 0)
        XCTAssertEqual(CATransform3D(), CATransform3DIdentity)
        XCTAssertTrue(CATransform3DIsIdentity(CATransform3D()))
        XCTAssertFalse(CATransform3DIsIdentity(CATransform3DMakeScale(1, 1, 2)))
    }

    func testTranslationLivesInRowFour() {
        let t = CATransform3DMakeTranslation(3, -4, 5)
        assertEqual(t, [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 3, -4, 5, 1], accuracy: 0)
        let h = t.project(CGPoint(x: 1, y: 2), z: 3)
        XCTAssertEqual(h.x, 4); XCTAssertEqual(h.y, -2); XCTAssertEqual(h.z, 8); XCTAssertEqual(h.w, 1)
    }

    func testProjectIsRowVectorTimesMatrix() {
        let t = CATransform3D(entries: (1...16).map { CGFloat($0) })
        // [2 3 4 1]·M: column j = 2·m1j + 3·m2j + 4·m3j + m4j
        let h = t.project(CGPoint(x: 2, y: 3), z: 4)
        let x: CGFloat = 2 * 1 + 3 * 5 + 4 * 9 + 13, y: CGFloat = 2 * 2 + 3 * 6 + 4 * 10 + 14
        let z: CGFloat = 2 * 3 + 3 * 7 + 4 * 11 + 15, w: CGFloat = 2 * 4 + 3 * 8 + 4 * 12 + 16
        XCTAssertEqual(h.x, x)
        XCTAssertEqual(h.y, y)
        XCTAssertEqual(h.z, z)
        XCTAssertEqual(h.w, w)
        let w0: CGFloat = 2 * 4 + 3 * 8 + 16
        XCTAssertEqual(t.project(CGPoint(x: 2, y: 3)).w, w0, "z defaults to 0")
    }

    func testRotationAboutZEntriesAndDirection() {
        let t = CATransform3DMakeRotation(.pi / 6, 0, 0, 1)
        let c = CGFloat(3).squareRoot() / 2
        assertEqual(t, [c, 0.5, 0, 0, -0.5, c, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
        // y-down: +π/2 about z sends +x to +y (clockwise on screen), like CGAffineTransform.
        assertMaps(CATransform3DMakeRotation(.pi / 2, 0, 0, 1), (1, 0, 0), to: (0, 1, 0))
        XCTAssertEqual(CATransform3DMakeRotation(.pi / 6, 0, 0, 1).affineTransform,
                       CGAffineTransform(rotationAngle: .pi / 6))
    }

    func testRotationAxisIsNormalised() {
        assertEqual(CATransform3DMakeRotation(.pi / 6, 0, 0, 7), CATransform3DMakeRotation(.pi / 6, 0, 0, 1).entries)
    }

    func testRotationAboutXAndY() {
        // About x by +π/2: m22 = cos, m23 = sin, m32 = −sin, m33 = cos → +y goes to +z.
        let rx = CATransform3DMakeRotation(.pi / 2, 1, 0, 0)
        assertEqual(rx, [1, 0, 0, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1])
        assertMaps(rx, (0, 1, 0), to: (0, 0, 1))
        // About y by +π/2: m11 = cos, m13 = −sin, m31 = sin, m33 = cos → +x goes to −z.
        let ry = CATransform3DMakeRotation(.pi / 2, 0, 1, 0)
        assertEqual(ry, [0, 0, -1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1])
        assertMaps(ry, (100, 0, 0), to: (0, 0, -100))
    }

    func testZeroAxisGivesIdentity() {
        XCTAssertEqual(CATransform3DMakeRotation(1.2, 0, 0, 0), CATransform3DIdentity)
        XCTAssertEqual(CATransform3DRotate(CATransform3DMakeScale(2, 2, 2), 1.2, 0, 0, 0), CATransform3DMakeScale(2, 2, 2))
    }

    func testRotateAppliesNewRotationFirst() {
        let base = CATransform3DMakeTranslation(10, 0, 0)
        // Rotate(t, …) = Concat(MakeRotation(…), t): (1,0,0) → (0,1,0) → (10,1,0).
        assertMaps(CATransform3DRotate(base, .pi / 2, 0, 0, 1), (1, 0, 0), to: (10, 1, 0))
        // Concat(a, b) applies a first: (1,0,0) → (11,0,0) → (0,11,0).
        assertMaps(CATransform3DConcat(base, CATransform3DMakeRotation(.pi / 2, 0, 0, 1)), (1, 0, 0), to: (0, 11, 0))
        XCTAssertEqual(CATransform3DRotate(base, 0.3, 1, 2, 3),
                       CATransform3DConcat(CATransform3DMakeRotation(0.3, 1, 2, 3), base))
    }

    func testScaleAndTranslateApplyFirst() {
        // Scale(Translate(5,6,7), 2,3,4) scales first: entries diag(2,3,4) with row 4 (5,6,7).
        let s = CATransform3DScale(CATransform3DMakeTranslation(5, 6, 7), 2, 3, 4)
        assertEqual(s, [2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 4, 0, 5, 6, 7, 1], accuracy: 0)
        // Translate(Scale(2,3,4), 5,6,7) translates first: row 4 becomes (10, 18, 28).
        let t = CATransform3DTranslate(CATransform3DMakeScale(2, 3, 4), 5, 6, 7)
        assertEqual(t, [2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 4, 0, 10, 18, 28, 1], accuracy: 0)
        assertMaps(t, (1, 1, 1), to: (12, 21, 32))
    }

    func testConcatIsMatrixProduct() {
        let a = CATransform3D(entries: (1...16).map { CGFloat($0) })
        let b = CATransform3D(entries: (1...16).map { CGFloat(17 - $0) })
        // Row 1 of a (1 2 3 4) times columns of b (16 12 8 4 / 15 11 7 3 / 14 10 6 2 / 13 9 5 1).
        let p = CATransform3DConcat(a, b)
        let row1: [CGFloat] = [16 + 24 + 24 + 16, 15 + 22 + 21 + 12, 14 + 20 + 18 + 8, 13 + 18 + 15 + 4]
        XCTAssertEqual([p.m11, p.m12, p.m13, p.m14], row1)
        // Row 4 of a (13 14 15 16) times column 1 of b.
        let m41: CGFloat = 13 * 16 + 14 * 12 + 15 * 8 + 16 * 4
        XCTAssertEqual(p.m41, m41)
    }

    func testPerspectiveProjectionOfKnownPoint() {
        var t = CATransform3DIdentity
        t.m34 = -1.0 / 500
        // [100 50 100 1]·M: w = 1 + 100·(−1/500) = 0.8, so x and y grow by 1/0.8 = 1.25.
        let h = t.project(CGPoint(x: 100, y: 50), z: 100)
        XCTAssertEqual(h.w, 0.8, accuracy: exact)
        XCTAssertEqual(h.x, 100); XCTAssertEqual(h.y, 50); XCTAssertEqual(h.z, 100)
        XCTAssertEqual(h.x / h.w, 125, accuracy: 1e-10)
        XCTAssertEqual(h.y / h.w, 62.5, accuracy: 1e-10)
        // Farther away (z = −500) halves it: w = 2.
        let far = t.project(CGPoint(x: 100, y: 50), z: -500)
        XCTAssertEqual(far.w, 2, accuracy: exact)
        XCTAssertEqual(far.x / far.w, 50, accuracy: 1e-10)
    }

    func testRotationThenPerspective() {
        var persp = CATransform3DIdentity
        persp.m34 = -1.0 / 500
        // +x turned about y by +π/2 lands at z = −100 (away from the viewer): w = 1 + 100/500.
        let t = CATransform3DConcat(CATransform3DMakeRotation(.pi / 2, 0, 1, 0), persp)
        let h = t.project(CGPoint(x: 100, y: 0))
        XCTAssertEqual(h.x, 0, accuracy: 1e-10)
        XCTAssertEqual(h.z, -100, accuracy: 1e-10)
        XCTAssertEqual(h.w, 1.2, accuracy: exact)
        XCTAssertFalse(CATransform3DIsAffine(t))
    }

    func testInverseRoundTrip() {
        var t = CATransform3DMakeRotation(0.7, 1, 2, 3)
        t = CATransform3DScale(t, 2, 0.5, 3)
        t = CATransform3DTranslate(t, 10, -20, 30)
        t.m34 = -1.0 / 700
        let inv = CATransform3DInvert(t)
        assertEqual(CATransform3DConcat(t, inv), CATransform3DIdentity.entries, accuracy: 1e-9)
        assertEqual(CATransform3DConcat(inv, t), CATransform3DIdentity.entries, accuracy: 1e-9)
        let there = mapped(t, 3, 4, 5)
        assertMaps(inv, there, to: (3, 4, 5), accuracy: 1e-9)
    }

    func testInverseOfTranslationIsExact() {
        XCTAssertEqual(CATransform3DInvert(CATransform3DMakeTranslation(3, -4, 5)), CATransform3DMakeTranslation(-3, 4, -5))
    }

    func testSingularInverseReturnsInput() {
        let flat = CATransform3DMakeScale(1, 0, 1)
        XCTAssertEqual(CATransform3DInvert(flat), flat)
        let zeros = CATransform3D(entries: [CGFloat](repeating: 0, count: 16))
        XCTAssertEqual(zeros.inverted(), zeros)
    }

    func testAffineBridge() {
        let a = CGAffineTransform(1, 2, 3, 4, 5, 6)
        let t = CATransform3DMakeAffineTransform(a)
        assertEqual(t, [1, 2, 0, 0, 3, 4, 0, 0, 0, 0, 1, 0, 5, 6, 0, 1], accuracy: 0)
        XCTAssertTrue(CATransform3DIsAffine(t))
        XCTAssertEqual(CATransform3DGetAffineTransform(t), a)
        // Mapping through either agrees in the z = 0 plane.
        let p = CGPoint(x: 7, y: 8).applying(a)
        assertMaps(t, (7, 8, 0), to: (p.x, p.y, 0))
        var persp = t
        persp.m34 = -0.002
        XCTAssertFalse(persp.isAffine)
        XCTAssertFalse(CATransform3DMakeTranslation(0, 0, 1).isAffine)
        XCTAssertFalse(CATransform3DMakeRotation(0.1, 1, 0, 0).isAffine)
    }

    func testEqualityAndEntriesRoundTrip() {
        let e = (1...16).map { CGFloat($0) / 7 }
        XCTAssertEqual(CATransform3D(entries: e).entries, e)
        XCTAssertTrue(CATransform3DEqualToTransform(CATransform3D(entries: e), CATransform3D(entries: e)))
        XCTAssertFalse(CATransform3DEqualToTransform(CATransform3D(entries: e), CATransform3DIdentity))
    }
}
