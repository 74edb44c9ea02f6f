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

    /// A Lottie of one text layer at `origin` with `documents` (JSON of the `t.d.k` list).
    func textScene(_ documents: String, at origin: (Int, Int) = (10, 40)) throws -> Scene {
        let json = """
            {"v": "5.7.0", "fr": 10, "ip": 0, "op": 20, "w": 100, "h": 100, "layers": [
              {"ty": 5, "ind": 1, "nm": "T", "ip": 0, "op": 20, "st": 0, "ks": {"p": {"a": 0, "k": [\(origin.0), \(origin.1)]}},
               "t": {"d": {"k": \(documents)}}}]}
            """
        let layer = try LottieLayer(data: Data(json.utf8))
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        layer.anchorPoint = .zero
        layer.position = .zero
        root.addSublayer(layer)
        return Scene(rootLayer: root, size: CGSize(width: 100, height: 100), frameRate: 10, duration: 2)
    }

    /// Document keyframes: "I" from frame 0, "IIII" from frame 10 (hold), each whole.
    func testDocumentKeyframes() throws {
        let style = #""f": "DejaVu Sans", "s": 20, "fc": [1, 0, 0]"#
        let scene = try textScene(#"[{"t": 0, "s": {"t": "I", \#(style)}}, {"t": 10, "s": {"t": "IIII", \#(style)}}]"#)
        let one = try XCTUnwrap(ink(try scene.renderFrame(at: 0.9), (0..<100, 0..<60), channel: 0))
        let four = try XCTUnwrap(ink(try scene.renderFrame(at: 1.0), (0..<100, 0..<60), channel: 0))
        XCTAssertEqual(one.1 - one.0, 2, accuracy: 1, "one stroke of I")
        XCTAssertEqual(Double(four.1 - one.1), 3 * 5.9, accuracy: 1, "three more advances")
        XCTAssertEqual(try scene.renderFrame(at: 0).pixels, try scene.renderFrame(at: 0.9).pixels)
    }

    /// Box text: "AB CD" in a 40-pt-wide box at (0, 0) relative to the layer, right-aligned,
    /// wraps to two lines of 24 pt; each line's ink ends by the box's right edge (x 10 + 40).
    func testBoxTextWrapsAndAligns() throws {
        let scene = try textScene(#"[{"t": 0, "s": {"t": "AB CD", "f": "DejaVu Sans", "s": 20, "j": 1, "lh": 24, "fc": [0, 0, 1], "ps": [0, 0], "sz": [40, 60]}}]"#)
        let f = try scene.renderFrame(at: 0)
        let first = try XCTUnwrap(ink(f, (0..<100, 40..<62), channel: 2))
        let second = try XCTUnwrap(ink(f, (0..<100, 62..<90), channel: 2))
        // The first baseline one ascent (DejaVu Sans: 0.928 em, 18.6 pt) below the box's top, y 40.
        XCTAssertEqual(first.3, 58, accuracy: 1)
        XCTAssertEqual(second.3 - first.3, 24, "line height")
        // Right-aligned in the box: each line ends where the same line right-justified as point
        // text at the box's right edge ends.
        for (line, box) in [("AB", first), ("CD", second)] {
            let point = try textScene(#"[{"t": 0, "s": {"t": "\#(line)", "f": "DejaVu Sans", "s": 20, "j": 1, "fc": [0, 0, 1]}}]"#, at: (50, 40))
            let p = try XCTUnwrap(ink(try point.renderFrame(at: 0), (0..<100, 0..<60), channel: 2))
            XCTAssertEqual(box.1, p.1, line)
            XCTAssertEqual(box.0, p.0, line)
            XCTAssertLessThan(box.1, 50, line)
        }
        var four = RenderOptions()
        four.workers = 4
        XCTAssertEqual(try scene.renderFrame(at: 0, options: four).pixels, f.pixels, "same bytes at any worker count")
    }

    /// A stroke around the letters (the glyph outlines as shapes): 2 pt wide, so 1 pt outside
    /// the outline each side; under the fill (`of` false) the fill keeps its own ink, over it
    /// (`of` true) the stroke covers the fill's edges.
    func testTextStroke() throws {
        func doc(_ extra: String) -> String {
            #"[{"t": 0, "s": {"t": "I", "f": "DejaVu Sans", "s": 40, "fc": [1, 0, 0]\#(extra)}}]"#
        }
        let region = (x: 0..<100, y: 0..<60)
        let plain = try XCTUnwrap(ink(try textScene(doc("")).renderFrame(at: 0), region, channel: 0))
        let under = try textScene(doc(#", "sc": [0, 0, 1], "sw": 2, "of": false"#)).renderFrame(at: 0)
        let over = try textScene(doc(#", "sc": [0, 0, 1], "sw": 2, "of": true"#)).renderFrame(at: 0)
        let fillUnder = try XCTUnwrap(ink(under, region, channel: 0))
        let strokeUnder = try XCTUnwrap(ink(under, region, channel: 2))
        XCTAssertEqual(fillUnder.0, plain.0, accuracy: 1)
        XCTAssertEqual(fillUnder.1, plain.1, accuracy: 1)
        XCTAssertEqual(strokeUnder.0, plain.0 - 1, accuracy: 1)
        XCTAssertEqual(strokeUnder.1, plain.1 + 1, accuracy: 1)
        XCTAssertEqual(strokeUnder.3, plain.3 + 1, accuracy: 1)
        let strokeOver = try XCTUnwrap(ink(over, region, channel: 2))
        XCTAssertEqual(strokeOver.0, strokeUnder.0)
        XCTAssertEqual(strokeOver.1, strokeUnder.1)
        // Over the fill, the stroke's inner half covers a point of the stem each side.
        let fillOver = try XCTUnwrap(ink(over, region, channel: 0))
        XCTAssertEqual(fillOver.0, plain.0 + 1, accuracy: 1)
        XCTAssertEqual(fillOver.1, plain.1 - 1, accuracy: 1)
        XCTAssertEqual(try LottieLayer(data: Data("""
            {"v": "5.7.0", "fr": 10, "ip": 0, "op": 20, "w": 100, "h": 100, "layers": [{"ty": 5, "ip": 0, "op": 20, "ks": {},
             "t": {"d": {"k": \(doc(#", "sc": [0, 0, 1], "sw": 2"#))}}}]}
            """.utf8)).unsupported, [], "a stroke is drawn, not reported")
    }

    /// Text is bounded: characters in all documents (a replacement counts at each use).
    func testTextLimit() throws {
        var limits = LottieLimits()
        limits.textCharacters = 10
        let json = """
            {"v": "5.7.0", "fr": 10, "ip": 0, "op": 20, "w": 100, "h": 100, "layers": [{"ty": 5, "nm": "T", "ip": 0, "op": 20, "ks": {},
             "t": {"d": {"k": [{"t": 0, "s": {"t": "12345", "s": 10}}, {"t": 5, "s": {"t": "67890", "s": 10}}]}}}]}
            """
        XCTAssertNoThrow(try LottieLayer(data: Data(json.utf8), limits: limits))
        XCTAssertThrowsError(try LottieLayer(data: Data(json.utf8), limits: limits, replacements: LottieReplacements(texts: ["T": "123456"]))) { e in
            XCTAssertEqual("\(e)", "layers[0].t.d.k[1].s.t: more than 10 characters of text in all, over the limit")
        }
    }
}

extension LottieTextTests {
    /// Text without animators is drawn as before animators were rendered, byte for byte: the
    /// digests of the fixture's frame and of box, stroked and tracked text, recorded before the
    /// change (a CATextLayer a line, outlines for a stroke).
    func testTextWithoutAnimatorsUnchanged() throws {
        let style = #""f": "DejaVu Sans", "s": 20, "fc": [1, 0, 0]"#
        let digests = [
            try LottieFixtures.frame("text", 0).digest,
            try textScene(#"[{"t": 0, "s": {"t": "AB CD", \#(style), "j": 1, "lh": 24, "ps": [0, 0], "sz": [40, 60]}}]"#).renderFrame(at: 0).digest,
            try textScene(#"[{"t": 0, "s": {"t": "Wave", \#(style), "tr": 120, "sc": [0, 0, 1], "sw": 2}}]"#).renderFrame(at: 0).digest,
            try textScene(#"[{"t": 0, "s": {"t": "Av\rTo", \#(style), "j": 2, "tr": -50}}]"#).renderFrame(at: 0).digest,
        ]
        XCTAssertEqual(digests, ["954730cc99cdcc07", "2e46f6492081dbd2", "ccea1c8d65fa0842", "45105ac63d3baae5"])
    }
}

// MARK: Text animators

extension LottieTextTests {
    /// Columns of ink (alpha over 64) in `y`, as runs left to right: one a stem of "I".
    func stems(_ b: Bitmap, x: Range<Int> = 0..<200, y: Range<Int>) -> [ClosedRange<Int>] {
        var runs: [ClosedRange<Int>] = []
        var start: Int?
        for col in x.lowerBound...x.upperBound {
            let inked = col < x.upperBound && y.contains { b.at(col, $0)[3] > 64 }
            if inked, start == nil { start = col }
            if !inked, let s = start { runs.append(s...(col - 1)); start = nil }
        }
        return runs
    }

    /// The largest alpha in a box.
    func maxAlpha(_ b: Bitmap, x: ClosedRange<Int>, y: Range<Int>) -> Int {
        var m = 0
        for yy in y { for xx in x { m = max(m, b.at(xx, yy)[3]) } }
        return m
    }

    /// A 200 × 200 Lottie (10 fps, 20 frames) of one text layer at `origin`: `text` in DejaVu
    /// Sans `size`, red, with `animators` (JSON of `t.a`, "[]" for none).
    func animatedScene(_ text: String, size: Double = 40, at origin: (Double, Double) = (10, 50), justify: Int = 0,
                       _ animators: String) throws -> (Scene, LottieLayer) {
        let json = """
            {"v": "5.7.0", "fr": 10, "ip": 0, "op": 20, "w": 200, "h": 200, "layers": [
              {"ty": 5, "ind": 1, "nm": "T", "ip": 0, "op": 20, "st": 0, "ks": {"p": {"a": 0, "k": [\(origin.0), \(origin.1)]}},
               "t": {"d": {"k": [{"t": 0, "s": {"t": "\(text)", "f": "DejaVu Sans", "s": \(size), "j": \(justify), "fc": [1, 0, 0]}}]},
                     "a": \(animators)}}]}
            """
        let layer = try LottieLayer(data: Data(json.utf8))
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
        layer.anchorPoint = .zero
        layer.position = .zero
        root.addSublayer(layer)
        return (Scene(rootLayer: root, size: CGSize(width: 200, height: 200), frameRate: 10, duration: 2), layer)
    }

    func frame(_ s: (Scene, LottieLayer), _ f: Double) throws -> Bitmap { try s.0.renderFrame(at: s.1.time(ofFrame: f)) }
}

extension LottieTextTests {
    func testExploreAnimators() throws {
        let plain = try frame(animatedScene("IIIII", "[]"), 0)
        print("PLAIN", stems(plain, y: 0..<100))
        for f in [0.0, 4, 5, 10] {
            let b = try LottieFixtures.frame("text-animators", f)
            let s = stems(b, x: 0..<100, y: 0..<60)
            print("TYPE", f, s, s.map { maxAlpha(b, x: $0, y: 0..<60) })
        }
        let b = try LottieFixtures.frame("text-animators", 10)
        print("SLIDE top", stems(b, x: 0..<100, y: 60..<112), "bottom", stems(b, x: 0..<100, y: 112..<160))
        for s in stems(b, x: 100..<200, y: 0..<60) { print("SWEEP", s, b.at((s.lowerBound + s.upperBound) / 2, 40)) }
        print("TURN", stems(b, x: 100..<200, y: 150..<200))
        print(try LottieLayer(contentsOf: LottieFixtures.url("text-animators")).unsupported)
    }
}
