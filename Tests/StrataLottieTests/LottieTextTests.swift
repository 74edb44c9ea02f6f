// Text layers (Fixtures/text.json, DejaVu Sans): baselines, justification, tracking and line
// height measured on the ink, the frame against a reviewed reference (tolerance 2 per channel),
// and a text replaced by the layer's name. DejaVu Sans's metrics (units of 2048 per em): "I" has
// side bearings of 201 (≈ 2 pt at 20 pt) and stands on the baseline; capitals are 1493 high
// (14.6 pt).
//
// Cross-checked with scripts/lottie-check.sh (LOTTIE_CHECK_FONTS=…/DejaVuSans.ttf loads the font
// into ThorVG; rlottie renders no text layers): ThorVG puts the left-, right-justified and
// centred letters where these tests do (ink 12…19 × 16…29 for "II" at (10, 30), right edge 87),
// and differs in two places, where the spec and lottie-web decide: tracking is thousandths of an
// em (ThorVG adds 3 pt for 500 at 20 pt, not 10), and point text's first baseline is at the
// layer's origin with the lines below it (ThorVG puts the last line there, the others above).
import Foundation
import XCTest
import Strata
import StrataLottie
import StrataTestSupport

final class LottieTextTests: XCTestCase {
    /// The box (minX, maxX, minY, maxY) of pixels in `region` whose colour matches `channel`
    /// (0 red, 1 green, 2 blue) at more than half intensity, nil when there are none.
    private func ink(_ b: Bitmap, _ region: (x: Range<Int>, y: Range<Int>), channel: Int) -> (Int, Int, Int, Int)? {
        var box: (Int, Int, Int, Int)?
        for y in region.y { for x in region.x {
            let p = b.at(x, y)
            guard p[channel] > 128, p[3] > 128, (0..<3).allSatisfy({ $0 == channel || p[$0] < 100 }) else { continue }
            box = box.map { (min($0.0, x), max($0.1, x), min($0.2, y), max($0.3, y)) } ?? (x, x, y, y)
        } }
        return box
    }

    func testBaselinesJustificationTrackingAndLineHeight() throws {
        let frame = try LottieFixtures.frame("text", 0)
        // Left-justified "II", baseline at y = 30 from x = 10: the ink starts one side bearing in.
        let left = try XCTUnwrap(ink(frame, (0..<50, 0..<40), channel: 0))
        XCTAssertEqual(left.0, 12, accuracy: 1, "left edge: 10 + 201/2048 em")
        XCTAssertEqual(left.3, 29, "the letters stand on the baseline y = 30")
        XCTAssertEqual(left.2, 15, accuracy: 1, "cap height 14.6 above the baseline")
        // Tracking 500 (half an em, 10 pt) between the two letters.
        let tracked = try XCTUnwrap(ink(frame, (0..<60, 40..<70), channel: 0))
        XCTAssertEqual((tracked.1 - tracked.0) - (left.1 - left.0), 10, accuracy: 1)
        XCTAssertEqual(tracked.3, 59)
        // Centred lines 30 pt apart: "A" then "B", each centred on x = 75.
        let a = try XCTUnwrap(ink(frame, (55..<100, 0..<35), channel: 2))
        let b = try XCTUnwrap(ink(frame, (55..<100, 35..<65), channel: 2))
        XCTAssertEqual(b.2 - a.2, 30, accuracy: 1, "line height")
        XCTAssertEqual(a.3, 29)
        XCTAssertEqual(Double(a.0 + a.1) / 2, 75, accuracy: 1.5, "centred")
        XCTAssertEqual(Double(b.0 + b.1) / 2, 75, accuracy: 1.5, "centred")
        // Right-justified: the ink ends one side bearing before x = 90.
        let right = try XCTUnwrap(ink(frame, (40..<100, 70..<100), channel: 1))
        XCTAssertEqual(right.1, 87, accuracy: 1)
        XCTAssertEqual(right.3, 89)
        assertReferenceImage(frame, named: "text", tolerance: 2)
        XCTAssertEqual(try LottieLayer(contentsOf: LottieFixtures.url("text")).unsupported, [])
    }

    /// A text replaced by layer name keeps the document's style: four letters instead of two,
    /// the same height, from the same left edge; the colour replaced by the layer's name too.
    func testTextAndColourReplacedByLayerName() throws {
        var r = LottieReplacements(texts: ["Left": "IIII"])
        r.colors["Right"] = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        let layer = try LottieLayer(contentsOf: LottieFixtures.url("text"), replacements: r)
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        layer.anchorPoint = .zero
        layer.position = .zero
        root.addSublayer(layer)
        let frame = try Scene(rootLayer: root, size: CGSize(width: 100, height: 100), frameRate: 10, duration: 2).renderFrame(at: 0)
        let original = try LottieFixtures.frame("text", 0)
        let two = try XCTUnwrap(ink(original, (0..<60, 0..<40), channel: 0))
        let four = try XCTUnwrap(ink(frame, (0..<60, 0..<40), channel: 0))
        XCTAssertEqual(four.0, two.0)
        XCTAssertEqual(four.2, two.2)
        XCTAssertEqual(four.3, two.3)
        // "II" is two advances of 604/2048 em (5.9 pt): two more letters add 11.8 pt.
        XCTAssertEqual(Double(four.1 - two.1), 11.8, accuracy: 1)
        XCTAssertNil(ink(frame, (40..<100, 70..<100), channel: 1), "no green left")
        XCTAssertNotNil(ink(frame, (40..<100, 70..<100), channel: 2), "the right text in blue")
    }
}
