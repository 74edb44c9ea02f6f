// Assertions shared by the path tests: points, rectangles and element lists compared within an
// accuracy (1e-9 unless given).
import XCTest
@testable import StrataCore

let pathExact: CGFloat = 1e-9

func assertPathEqual(_ p: CGPoint, _ x: CGFloat, _ y: CGFloat, accuracy: CGFloat = pathExact,
                 file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(p.x, x, accuracy: accuracy, "x of \(p)", file: file, line: line)
    XCTAssertEqual(p.y, y, accuracy: accuracy, "y of \(p)", file: file, line: line)
}

func assertPathEqual(_ r: CGRect, _ x: CGFloat, _ y: CGFloat, _ w: CGFloat, _ h: CGFloat,
                 accuracy: CGFloat = pathExact, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(r.minX, x, accuracy: accuracy, "minX of \(r)", file: file, line: line)
    XCTAssertEqual(r.minY, y, accuracy: accuracy, "minY of \(r)", file: file, line: line)
    XCTAssertEqual(r.width, w, accuracy: accuracy, "width of \(r)", file: file, line: line)
    XCTAssertEqual(r.height, h, accuracy: accuracy, "height of \(r)", file: file, line: line)
}

/// Compares element lists point by point within `accuracy`.
func assertElements(_ got: [CGPathElement], _ expected: [CGPathElement], accuracy: CGFloat = pathExact,
                    file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(got.map(\.type), expected.map(\.type), file: file, line: line)
    for (g, e) in zip(got, expected) {
        for (gp, ep) in zip(g.points, e.points) {
            assertPathEqual(gp, ep.x, ep.y, accuracy: accuracy, file: file, line: line)
        }
    }
}
