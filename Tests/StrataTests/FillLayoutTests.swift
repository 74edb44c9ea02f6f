// Layout that follows the canvas (issue #43 §3): fill the parent (`.frame(maxWidth: .infinity)`),
// sizes relative to the parent, Spacer, aspectRatio, padding and the safe area of social formats.
// One DSL page laid out at 1280×720 and again at 1080×1920 (what `--size 1080x1920` does) with
// every element's frame checked against values computed by hand, a reference strip at two sizes,
// templates, and bad input.
import XCTest
import Strata
import StrataTestSupport

final class FillLayoutTests: XCTestCase {
    /// A page: a header row (logo, spacer, badge) across the top, a panel 30 % high in the
    /// middle, a footer half as wide as the page (2 : 1) at the bottom left, all inside the
    /// safe area.
    static func page(_ size: CGSize) -> Scene {
        Scene(size: size, frameRate: 10, duration: 1, background: .hex("#0B1021")) {
            VStack(alignment: .leading, spacing: 0) {
                HStack(spacing: 0) {
                    Layer().frame(width: 40, height: 40).background(.orange).id("logo")
                    Spacer()
                    Layer().frame(width: 40, height: 40).background(.white).id("badge")
                }
                .frame(maxWidth: .infinity).id("header")
                Spacer()
                Layer().background(.hex("#1F6FEB")).frame(width: .fill, height: .percent(30)).id("panel")
                Spacer()
                Layer().background(.hex("#FF5A36")).frame(width: .percent(50)).aspectRatio(2).id("footer")
            }
            .frame(maxWidth: .infinity, maxHeight: .infinity)
            .padding(.safeArea)
            .id("page")
        }
    }

    func frame(_ scene: Scene, _ id: String, file: StaticString = #filePath, line: UInt = #line) throws -> CGRect {
        let l = try XCTUnwrap(scene.layer(named: id), "no layer \(id)", file: file, line: line)
        return l.convert(l.bounds, to: scene.rootLayer)
    }

    func assertFrame(_ scene: Scene, _ id: String, _ expected: CGRect, file: StaticString = #filePath, line: UInt = #line) throws {
        let f = try frame(scene, id, file: file, line: line)
        for (a, b, what) in [(f.minX, expected.minX, "x"), (f.minY, expected.minY, "y"), (f.width, expected.width, "width"),
                             (f.height, expected.height, "height")] {
            XCTAssertEqual(Double(a), Double(b), accuracy: 1e-6, "\(id).\(what): \(f) vs \(expected)", file: file, line: line)
        }
    }

    /// 1280×720 is landscape: the safe area is 5 % on every side (64 and 36 points), leaving
    /// 1152 × 648. The two spacers share 648 − (40 + 194.4 + 288) = 125.6.
    func testLandscapePositions() throws {
        let s = Self.page(CGSize(width: 1280, height: 720))
        try assertFrame(s, "page", CGRect(x: 0, y: 0, width: 1280, height: 720))
        try assertFrame(s, "header", CGRect(x: 64, y: 36, width: 1152, height: 40))
        try assertFrame(s, "logo", CGRect(x: 64, y: 36, width: 40, height: 40))
        try assertFrame(s, "badge", CGRect(x: 64 + 1152 - 40, y: 36, width: 40, height: 40))
        try assertFrame(s, "panel", CGRect(x: 64, y: 36 + 40 + 62.8, width: 1152, height: 0.3 * 648))
        try assertFrame(s, "footer", CGRect(x: 64, y: 720 - 36 - 288, width: 576, height: 288))
    }

    /// The same page laid out again at 1080×1920 (the command line's `--size 1080x1920`
    /// recompiles the composition at the new size): vertical, so the safe area is 10 % top
    /// (192), 20 % bottom (384), 6 % leading (64.8), 12 % trailing (129.6), leaving
    /// 885.6 × 1344; the spacers share 1344 − (40 + 403.2 + 221.4) = 679.4.
    func testVerticalRelayoutKeepsTheDesign() throws {
        var composition = try XCTUnwrap(Self.page(CGSize(width: 1280, height: 720)).composition)
        composition.size = [1080, 1920]
        let s = try Scene(composition: composition)
        try assertFrame(s, "page", CGRect(x: 0, y: 0, width: 1080, height: 1920))
        try assertFrame(s, "header", CGRect(x: 64.8, y: 192, width: 885.6, height: 40))
        try assertFrame(s, "badge", CGRect(x: 64.8 + 885.6 - 40, y: 192, width: 40, height: 40))
        try assertFrame(s, "panel", CGRect(x: 64.8, y: 192 + 40 + 339.7, width: 885.6, height: 403.2))
        try assertFrame(s, "footer", CGRect(x: 64.8, y: 1920 - 384 - 221.4, width: 442.8, height: 221.4))
        // Square: 5 % all round.
        composition.size = [1080, 1080]
        let sq = try Scene(composition: composition)
        try assertFrame(sq, "header", CGRect(x: 54, y: 54, width: 972, height: 40))
        try assertFrame(sq, "footer", CGRect(x: 54, y: 1080 - 54 - 243, width: 486, height: 243))
    }

    /// The page at 320×180 and laid out again at 180×320, side by side.
    func testReferenceStripAtTwoSizes() throws {
        let wide = try Self.page(CGSize(width: 320, height: 180)).renderFrame(at: 0)
        var composition = try XCTUnwrap(Self.page(CGSize(width: 320, height: 180)).composition)
        composition.size = [180, 320]
        let tall = try Scene(composition: composition).renderFrame(at: 0)
        var sheet = Bitmap.filled(width: 320 + 180, height: 320, red: 128, green: 128, blue: 128)
        for y in 0..<180 { for x in 0..<320 { sheet.setPixel(x: x, y: y, wide.pixel(x: x, y: y)) } }
        for y in 0..<320 { for x in 0..<180 { sheet.setPixel(x: 320 + x, y: y, tall.pixel(x: x, y: y)) } }
        assertReferenceImage(sheet, named: "page-two-sizes", tolerance: 2)
        // In the tall frame the footer's (#FF5A36) bottom edge is at 320 − 64 = 256.
        XCTAssertEqual(tall.pixel(x: 20, y: 255).r, 0xFF)
        XCTAssertNotEqual(tall.pixel(x: 20, y: 257).r, 0xFF)
    }

    func testPaddingAspectRatioAndLimits() throws {
        let s = Scene(size: CGSize(width: 400, height: 200), duration: 1) {
            // Padding in points around a content-sized group: the group grows by it.
            Group { Layer().frame(width: 50, height: 20).id("inner") }
                .padding(top: .points(5), leading: .points(10), bottom: .points(15), trailing: .points(20)).id("padded")
            // A fit aspect ratio in what the canvas offers: 2 : 1 → 400 × 200; 1 : 1 → 200 × 200.
            Layer().aspectRatio(1).id("square").center()
            // Cover instead: 1 : 1 filling 400 × 200 → 400 × 400.
            Layer().aspectRatio(1, contentMode: .fill).id("cover")
            // A fill width capped by a maximum, and a minimum that wins over the content.
            Layer().frame(width: .fill).frame(maxHeight: 30).frame(minHeight: 12).id("bar")
            Text("Title").fontSize(20).frame(maxWidth: .infinity).id("title")
            Layer().frame(width: .percent(25), height: .percent(10)).pin(.bottomTrailing).id("corner")
        }
        try assertFrame(s, "padded", CGRect(x: 0, y: 0, width: 80, height: 40))
        try assertFrame(s, "inner", CGRect(x: 10, y: 5, width: 50, height: 20))
        try assertFrame(s, "square", CGRect(x: 100, y: 0, width: 200, height: 200))
        try assertFrame(s, "cover", CGRect(x: 0, y: 0, width: 400, height: 400))
        try assertFrame(s, "bar", CGRect(x: 0, y: 0, width: 400, height: 12))
        try assertFrame(s, "corner", CGRect(x: 300, y: 180, width: 100, height: 20))
        let title = try XCTUnwrap(s.layer(named: "title") as? CATextLayer)
        XCTAssertEqual(title.bounds.width, 400)
        XCTAssertEqual(title.alignmentMode, .center, "a text made wider keeps its string in the middle")
    }

    func testTemplateLayout() throws {
        let text = """
        size: [400, 200]
        duration: 1
        layers:
          - type: hstack
            id: row
            spacing: 0
            layout: {width: fill, padding: ["10%", 20]}
            children:
              - {type: layer, id: a, size: [30, 30]}
              - {type: spacer}
              - {type: layer, id: b, layout: {maxWidth: fill, height: "50%"}}
        """
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("fill-\(UUID().uuidString).yaml")
        try text.write(to: url, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        let s = try Template(contentsOf: url).makeScene()
        // Padding 10 % of 200 = 20 above and below, 20 on the sides: inside, 360 × 160 offered
        // (the row's height comes from its content). The spacer and b share 360 − 30 = 330.
        try assertFrame(s, "row", CGRect(x: 0, y: 0, width: 400, height: 80 + 40))
        try assertFrame(s, "a", CGRect(x: 20, y: 20 + 25, width: 30, height: 30))
        try assertFrame(s, "b", CGRect(x: 20 + 30 + 165, y: 20, width: 165, height: 80))
        // Bad lengths are named with their place.
        let bad = url.deletingLastPathComponent().appendingPathComponent("fill-bad-\(UUID().uuidString).yaml")
        try text.replacingOccurrences(of: "height: \"50%\"", with: "height: \"half\"").write(to: bad, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: bad) }
        XCTAssertThrowsError(try Template(contentsOf: bad).makeScene()) {
            let m = "\($0)"
            XCTAssertTrue(m.contains("layers[0].children[2].layout.height") && m.contains("percentage"), m)
        }
    }

    /// The page's composition as JSON and back renders the same bytes, at both sizes; a bad
    /// aspect ratio or content mode from the DSL is reported with its path when it renders.
    func testRoundTripAndBadValues() throws {
        let page = Self.page(CGSize(width: 320, height: 180))
        let json = try XCTUnwrap(page.composition).jsonData()
        XCTAssertTrue(String(decoding: json, as: UTF8.self).contains("\"30%\""), "a percentage is written as one")
        var decoded = try JSONDecoder().decode(Composition.self, from: json)
        XCTAssertTrue(try Scene(composition: decoded).renderFrame(at: 0) == page.renderFrame(at: 0))
        decoded.size = [180, 320]
        var original = try XCTUnwrap(page.composition)
        original.size = [180, 320]
        XCTAssertTrue(try Scene(composition: decoded).renderFrame(at: 0) == Scene(composition: original).renderFrame(at: 0))
        let bad = Scene(size: CGSize(width: 100, height: 100), duration: 1) {
            Group { Layer().aspectRatio(-2) }
        }
        XCTAssertThrowsError(try bad.renderFrame(at: 0)) {
            XCTAssertTrue("\($0)".contains("layers[0].children[0].layout.aspectRatio") && "\($0)".contains("ratio > 0"), "\($0)")
        }
    }
}
