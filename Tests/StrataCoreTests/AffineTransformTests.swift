// CGAffineTransform: entry layout, composition order, rotation direction in y-down space,
// inversion and rectangle bounding boxes. Expected values are computed by hand.
import Foundation
import XCTest
@testable import StrataCore

private let exact: CGFloat = 1e-12

private func assertEqual(_ t: CGAffineTransform, _ e: [CGFloat], accuracy: CGFloat = exact,
                         file: StaticString = #filePath, line: UInt = #line) {
    let got = [t.a, t.b, t.c, t.d, t.tx, t.ty]
    for (g, x) in zip(got, e) {
        XCTAssertEqual(g, x, accuracy: accuracy, "\(t) vs \(e)", file: file, line: line)
    }
}

private func assertEqual(_ p: CGPoint, _ x: CGFloat, _ y: CGFloat, accuracy: CGFloat = exact,
                         file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(p.x, x, accuracy: accuracy, "x of \(p)", file: file, line: line)
    XCTAssertEqual(p.y, y, accuracy: accuracy, "y of \(p)", file: file, line: line)
}

private func assertEqual(_ r: CGRect, _ x: CGFloat, _ y: CGFloat, _ w: CGFloat, _ h: CGFloat,
                         accuracy: CGFloat = exact, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(r.minX, x, accuracy: accuracy, "minX of \(r)", file: file, line: line)
    XCTAssertEqual(r.minY, y, accuracy: accuracy, "minY of \(r)", file: file, line: line)
    XCTAssertEqual(r.width, w, accuracy: accuracy, "width of \(r)", file: file, line: line)
    XCTAssertEqual(r.height, h, accuracy: accuracy, "height of \(r)", file: file, line: line)
}

final class AffineTransformTests: XCTestCase {
    func testUnlabelledInitMatchesLabelledAndMake() {
        let t = CGAffineTransform(1, 2, 3, 4, 5, 6)
        XCTAssertEqual(t, CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6))
        XCTAssertEqual(t, CGAffineTransformMake(1, 2, 3, 4, 5, 6))
        XCTAssertEqual(CGAffineTransform(), .identity)
        XCTAssertEqual(CGAffineTransformIdentity, CGAffineTransform(1, 0, 0, 1, 0, 0))
    }

    func testPointMappingFormula() {
        // x' = a·x + c·y + tx = 7 + 24 + 5; y' = b·x + d·y + ty = 14 + 32 + 6
        let t = CGAffineTransform(1, 2, 3, 4, 5, 6)
        XCTAssertEqual(CGPoint(x: 7, y: 8).applying(t), CGPoint(x: 36, y: 52))
        XCTAssertEqual(CGPointApplyAffineTransform(CGPoint(x: 7, y: 8), t), CGPoint(x: 36, y: 52))
    }

    func testMakeRotationEntries() {
        let t = CGAffineTransformMakeRotation(.pi / 6)
        assertEqual(t, [CGFloat(3).squareRoot() / 2, 0.5, -0.5, CGFloat(3).squareRoot() / 2, 0, 0])
        XCTAssertEqual(CGAffineTransform(rotationAngle: .pi / 6), t)
    }

    func testPositiveRotationTurnsClockwiseOnScreen() {
        // y-down: +x rotated by +π/2 points down the screen (+y).
        let t = CGAffineTransform(rotationAngle: .pi / 2)
        assertEqual(CGPoint(x: 1, y: 0).applying(t), 0, 1)
        assertEqual(CGPoint(x: 0, y: 1).applying(t), -1, 0)
    }

    func testRotateAppliesNewRotationFirst() {
        let base = CGAffineTransform(translationX: 10, y: 0)
        // Rotate(t, θ) = Concat(MakeRotation(θ), t): (1,0) → rotate → (0,1) → translate → (10,1).
        let rotated = CGAffineTransformRotate(base, .pi / 2)
        assertEqual(CGPoint(x: 1, y: 0).applying(rotated), 10, 1)
        XCTAssertEqual(base.rotated(by: .pi / 2), rotated)
        // Concat(translation, rotation) translates first: (1,0) → (11,0) → (0,11).
        let concat = CGAffineTransformConcat(base, CGAffineTransformMakeRotation(.pi / 2))
        assertEqual(CGPoint(x: 1, y: 0).applying(concat), 0, 11)
    }

    func testScaleAndTranslateApplyFirst() {
        // Scale(Translation(10,20), 2, 3): (1,1) → (2,3) → (12,23).
        let s = CGAffineTransformScale(CGAffineTransformMakeTranslation(10, 20), 2, 3)
        XCTAssertEqual(CGPoint(x: 1, y: 1).applying(s), CGPoint(x: 12, y: 23))
        assertEqual(s, [2, 0, 0, 3, 10, 20])
        // Translate(Scale(2,3), 10, 20): (1,1) → (11,21) → (22,63).
        let t = CGAffineTransformTranslate(CGAffineTransformMakeScale(2, 3), 10, 20)
        XCTAssertEqual(CGPoint(x: 1, y: 1).applying(t), CGPoint(x: 22, y: 63))
        assertEqual(t, [2, 0, 0, 3, 20, 60])
        XCTAssertEqual(CGAffineTransform(scaleX: 2, y: 3).translatedBy(x: 10, y: 20), t)
        XCTAssertEqual(CGAffineTransform(translationX: 10, y: 20).scaledBy(x: 2, y: 3), s)
    }

    func testConcatEntriesByHand() {
        let t1 = CGAffineTransform(1, 2, 3, 4, 5, 6), t2 = CGAffineTransform(7, 8, 9, 10, 11, 12)
        // a = 1·7 + 2·9, b = 1·8 + 2·10, c = 3·7 + 4·9, d = 3·8 + 4·10,
        // tx = 5·7 + 6·9 + 11, ty = 5·8 + 6·10 + 12
        XCTAssertEqual(t1.concatenating(t2), CGAffineTransform(25, 28, 57, 64, 100, 112))
        let p = CGPoint(x: -3, y: 2)
        XCTAssertEqual(p.applying(t1).applying(t2), p.applying(CGAffineTransformConcat(t1, t2)))
    }

    func testInverseEntriesAndRoundTrip() {
        // det = 2·3 − 1·(−1) = 7
        let t = CGAffineTransform(2, 1, -1, 3, 5, -7)
        let inv = CGAffineTransformInvert(t)
        assertEqual(inv, [3.0 / 7, -1.0 / 7, 1.0 / 7, 2.0 / 7, -8.0 / 7, 19.0 / 7])
        assertEqual(t.concatenating(inv), [1, 0, 0, 1, 0, 0])
        assertEqual(inv.concatenating(t), [1, 0, 0, 1, 0, 0])
        assertEqual(CGPoint(x: 4.5, y: -2).applying(t).applying(inv), 4.5, -2)
    }

    func testSingularInverseReturnsInput() {
        let singular = CGAffineTransform(1, 2, 2, 4, 3, 4)
        XCTAssertEqual(singular.inverted(), singular)
        XCTAssertEqual(CGAffineTransformInvert(CGAffineTransform(scaleX: 0, y: 1)), CGAffineTransform(scaleX: 0, y: 1))
    }

    func testIdentityAndEquality() {
        XCTAssertTrue(CGAffineTransformIsIdentity(.identity))
        XCTAssertFalse(CGAffineTransform(translationX: 0, y: 1e-9).isIdentity)
        XCTAssertTrue(CGAffineTransformEqualToTransform(CGAffineTransform(1, 2, 3, 4, 5, 6),
                                                        CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)))
        XCTAssertFalse(CGAffineTransformEqualToTransform(.identity, CGAffineTransform(scaleX: -1, y: 1)))
    }

    func testRectBoundingBoxUnderQuarterTurn() {
        // Corners (0,0) (10,0) (0,20) (10,20) → (0,0) (0,10) (−20,0) (−20,10).
        let r = CGRect(x: 0, y: 0, width: 10, height: 20).applying(CGAffineTransform(rotationAngle: .pi / 2))
        assertEqual(r, -20, 0, 20, 10)
        let viaC = CGRectApplyAffineTransform(CGRect(x: 0, y: 0, width: 10, height: 20),
                                              CGAffineTransformMakeRotation(.pi / 2))
        assertEqual(viaC, -20, 0, 20, 10)
    }

    func testRectBoundingBoxUnderEighthTurn() {
        // A 10×10 square turned 45° about the origin spans x ∈ [−5√2, 5√2], y ∈ [0, 10√2].
        let h = 5 * CGFloat(2).squareRoot()
        let r = CGRect(x: 0, y: 0, width: 10, height: 10).applying(CGAffineTransform(rotationAngle: .pi / 4))
        assertEqual(r, -h, 0, 2 * h, 2 * h)
    }

    func testRectBoundingBoxTranslatesAndNullStaysNull() {
        let t = CGAffineTransform(scaleX: -2, y: 1).translatedBy(x: 1, y: 1)
        // Corners x: (1..4)·−2 = −2…−8, y: 1…3
        XCTAssertEqual(CGRect(x: 0, y: 0, width: 3, height: 2).applying(t),
                       CGRect(x: -8, y: 1, width: 6, height: 2))
        XCTAssertTrue(CGRect.null.applying(t).isNull)
    }

    func testSizeIgnoresTranslation() {
        let t = CGAffineTransform(2, 0, 1, 3, 100, 200)
        // width' = a·w + c·h, height' = b·w + d·h
        XCTAssertEqual(CGSize(width: 4, height: 5).applying(t), CGSize(width: 13, height: 15))
        XCTAssertEqual(CGSizeApplyAffineTransform(CGSize(width: 4, height: 5), t), CGSize(width: 13, height: 15))
    }
}
