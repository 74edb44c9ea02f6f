// The area a shape layer's content may draw in (ShapeRasterizer.drawArea): the path's bounds, its
// curves' extremes included, grown by half the line width, and by the tips of miter joins where
// the path has joins — two drawn elements in one subpath, or a closed one — and by nothing more
// where it has none.
import XCTest
import StrataCore
@testable import StrataRender

final class ShapeDrawAreaTests: XCTestCase {
    private let black = RGBA(r: 0, g: 0, b: 0, a: 1)

    private func area(_ path: CGPath, width: CGFloat = 4, join: CGLineJoin = .miter) -> CGRect? {
        ShapeRasterizer.drawArea(of: ShapeContent(path: path, fillColor: nil, strokeColor: black, lineWidth: width,
                                                  lineJoin: join, miterLimit: 10))
    }

    private func assertRect(_ r: CGRect?, _ x: CGFloat, _ y: CGFloat, _ w: CGFloat, _ h: CGFloat,
                            file: StaticString = #filePath, line: UInt = #line) {
        guard let r else { return XCTFail("no area", file: file, line: line) }
        XCTAssertEqual(r.minX, x, accuracy: 1e-9, file: file, line: line)
        XCTAssertEqual(r.minY, y, accuracy: 1e-9, file: file, line: line)
        XCTAssertEqual(r.width, w, accuracy: 1e-9, file: file, line: line)
        XCTAssertEqual(r.height, h, accuracy: 1e-9, file: file, line: line)
    }

    func testACurveAloneReachesHalfTheWidthBeyondItsExtremes() {
        // One cubic, no join: its bounds (y peaks at 75 for t = ½) grown by 2.
        let p = CGMutablePath()
        p.move(to: CGPoint(x: 0, y: 0))
        p.addCurve(to: CGPoint(x: 100, y: 0), control1: CGPoint(x: 0, y: 100), control2: CGPoint(x: 100, y: 100))
        XCTAssertEqual(p.boundingBoxOfPath, CGRect(x: 0, y: 0, width: 100, height: 75))
        assertRect(area(p), -2, -2, 104, 79)
        // One segment in each of two subpaths: still no join.
        p.move(to: CGPoint(x: 200, y: 0))
        p.addLine(to: CGPoint(x: 200, y: 10))
        assertRect(area(p), -2, -2, 204, 79)
    }

    func testAWedgeReachesItsMiterTip() {
        // Two lines meeting at (60, 10) with an interior angle of 2·atan(10/50): the miter tip lies
        // 2 / sin(θ/2) along the bisector, beyond half the width.
        let p = CGMutablePath()
        p.move(to: CGPoint(x: 10, y: 0))
        p.addLine(to: CGPoint(x: 60, y: 10))
        p.addLine(to: CGPoint(x: 10, y: 20))
        let sinHalf = sin(atan(10.0 / 50.0))
        let tip = 60 + 2 / sinHalf
        guard let a = area(p) else { return XCTFail("no area") }
        XCTAssertEqual(a.maxX, tip, accuracy: 1e-9)
        XCTAssertGreaterThan(a.maxX, 62 + 1)
        // Round joins do not reach past half the width.
        assertRect(area(p, join: .round), 8, -2, 54, 24)
    }

    func testClosingOneCurveMakesJoinsWhereItCloses() {
        // One cubic: no join, so half the width around its bounds (0…100 × 0…~26).
        let p = CGMutablePath()
        p.move(to: CGPoint(x: 0, y: 0))
        p.addCurve(to: CGPoint(x: 100, y: 0), control1: CGPoint(x: 50, y: 50), control2: CGPoint(x: 90, y: 10))
        guard let open = area(p) else { return XCTFail("no area") }
        XCTAssertEqual(open.minX, -2, accuracy: 1e-9)
        XCTAssertEqual(open.maxX, 102, accuracy: 1e-9)
        // Closed, the closing line meets the curve at 45° at both ends: miter tips 2 / sin(22.5°)
        // out along the bisectors, past half the width on both sides.
        p.closeSubpath()
        guard let closed = area(p) else { return XCTFail("no area") }
        let reach = 2 / sin(Double.pi / 8)
        XCTAssertEqual(closed.maxX, 100 + reach * cos(Double.pi / 8), accuracy: 1e-6)
        XCTAssertEqual(closed.minX, -reach * cos(Double.pi / 8), accuracy: 1e-6)
    }
}
