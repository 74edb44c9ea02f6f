// A pixel of a rendered frame checked against an opaque colour, shared by the effect tests.
import XCTest
import Strata

/// Asserts that the pixel at (x, y) is opaque and within `accuracy` levels of `want` (0…255 RGB).
func assertPixel(_ bitmap: Bitmap, _ x: Int, _ y: Int, _ want: (Double, Double, Double), accuracy: Double = 1,
                 _ what: String, file: StaticString = #filePath, line: UInt = #line) {
    let p = bitmap.at(x, y)
    for (c, w) in zip(p.prefix(3), [want.0, want.1, want.2]) {
        XCTAssertEqual(Double(c), w, accuracy: accuracy, "\(what) at (\(x), \(y)): \(p)", file: file, line: line)
    }
    XCTAssertEqual(p[3], 255, what, file: file, line: line)
}
