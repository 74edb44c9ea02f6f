// The template functions the gallery added: `textWidth` (text measured as a text layer lays it
// out), `startsWith` and `withPrefix` (a terminal session's commands), `repeatEach` and
// `holdKeyTimes` (keyframes that hold around each step and move in between), with their errors.
import XCTest
@testable import Strata

final class TemplateFunctionsTests: XCTestCase {
    private func eval(_ source: String, _ scope: [String: TemplateValue] = [:]) throws -> TemplateValue {
        try TemplateExpression.parse(source).evaluate(scope)
    }

    private func numbers(_ v: TemplateValue) -> [Double]? {
        guard case .list(let l) = v else { return nil }
        return l.compactMap { if case .number(let n) = $0 { return n }; return nil }
    }

    func testTextWidthIsTheTextLayersWidth() throws {
        XCTAssertEqual(try eval("textWidth('Hello', 'DejaVu Sans', 36)"),
                       .number(Double(TextMetrics.size(of: "Hello", font: "DejaVu Sans", fontSize: 36).width)))
        // DejaVu Sans Mono: every character advances 1233/2048 em, unhinted.
        XCTAssertEqual(try eval("textWidth('swift', 'DejaVu Sans Mono', 2048)"), .number(5 * 1233))
        XCTAssertEqual(try eval("textWidth('', 'DejaVu Sans', 20)"), .number(0))
        XCTAssertThrowsError(try eval("textWidth('a', 'DejaVu Sans', 0)")) {
            XCTAssertTrue("\($0)".contains("textWidth(text, font, fontSize): fontSize must be > 0"), "\($0)")
        }
    }

    func testPrefixes() throws {
        let lines: TemplateValue = .list([.string("$ ls"), .string("a.txt"), .string("$ pwd"), .number(3)])
        XCTAssertEqual(try eval("startsWith('$ ls', '$ ')"), .bool(true))
        XCTAssertEqual(try eval("startsWith('ls', '$ ')"), .bool(false))
        XCTAssertEqual(try eval("withPrefix(lines, '$ ')", ["lines": lines]), .list([.string("$ ls"), .string("$ pwd")]))
        XCTAssertEqual(try eval("len(withPrefix(lines, '#'))", ["lines": lines]), .number(0))
    }

    func testRepeatEach() throws {
        XCTAssertEqual(numbers(try eval("repeatEach([1, 2, 3], 2)")), [1, 1, 2, 2, 3, 3])
        XCTAssertEqual(numbers(try eval("repeatEach([1, 2], 0)")), [])
        XCTAssertThrowsError(try eval("repeatEach([1], -1)"))
        XCTAssertThrowsError(try eval("repeatEach(3, 2)")) {
            XCTAssertTrue("\($0)".contains("argument 1 must be a list"), "\($0)")
        }
    }

    func testHoldKeyTimes() throws {
        XCTAssertEqual(numbers(try eval("holdKeyTimes(3, 0.5)")), [0, 0.125, 0.375, 0.625, 0.875, 1])
        // No hold: the values move through whole steps (each time twice).
        XCTAssertEqual(numbers(try eval("holdKeyTimes(3, 0)")), [0, 0, 0.5, 0.5, 1, 1])
        XCTAssertEqual(numbers(try eval("holdKeyTimes(2, 1)")), [0, 0.5, 0.5, 1])
        XCTAssertThrowsError(try eval("holdKeyTimes(1, 0.5)")) { XCTAssertTrue("\($0)".contains("count must be 2"), "\($0)") }
        XCTAssertThrowsError(try eval("holdKeyTimes(3, 1.5)")) { XCTAssertTrue("\($0)".contains("hold must be"), "\($0)") }
    }

    /// Held keyframes in a composition: the value stays put around each step and moves between.
    func testHeldKeyframesInATemplate() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("held.yaml")
        try """
            size: [100, 100]
            duration: 4
            layers:
              - type: layer
                id: box
                size: [10, 10]
                animations:
                  - {property: position.x, values: "{{repeatEach([0, 30, 60], 2)}}", keyTimes: "{{holdKeyTimes(3, 0.5)}}", duration: 2}
            """.write(to: url, atomically: true, encoding: .utf8)
        let scene = try Template(contentsOf: url).makeScene()
        let box = try XCTUnwrap(scene.rootLayer.sublayers?.first)
        func x(_ t: Double) throws -> Double { Double(try XCTUnwrap(try scene.presentation(of: box, at: t)).position.x) }
        XCTAssertEqual(try x(0.2), 0, accuracy: 1e-9)       // held until 0.25 s
        XCTAssertEqual(try x(0.5), 15, accuracy: 1e-9)      // half-way from 0.25 to 0.75 s
        XCTAssertEqual(try x(1.2), 30, accuracy: 1e-9)      // held 0.75 … 1.25 s around the step at 1 s
        XCTAssertEqual(try x(3), 60, accuracy: 1e-9)
    }
}
