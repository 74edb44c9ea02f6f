// Text drawn from glyphs embedded in the file (`chars`): Fixtures/text-glyphs.json, whose
// "Blocks" glyphs are rectangles in a 100-unit em ("I" a stem 10…30 × −70…0, advance 40; "L" the
// stem and a foot 10…60 × −20…0, advance 70; a space of advance 25), so that at size 40 every
// edge falls on a whole pixel: "I" is ink 4…12 × −28…0 from its origin and advances 16 pt; and
// Fixtures/text-animators-glyphs.json, DejaVu Sans's "I" embedded, with text animators.
import Foundation
import XCTest
import Strata
import StrataLottie
import StrataTestSupport

final class LottieGlyphTextTests: XCTestCase {
    let clear = [0, 0, 0, 0], red = [255, 0, 0, 255], green = [0, 255, 0, 255], blue = [0, 0, 255, 255]

    /// The rows with ink (alpha over 64) in the columns `x`: first and last.
    private func rows(_ b: Bitmap, x: Range<Int>, y: Range<Int>) -> ClosedRange<Int>? {
        let inked = y.filter { row in x.contains { b.at($0, row)[3] > 64 } }
        guard let first = inked.first, let last = inked.last else { return nil }
        return first...last
    }

    /// Each character's glyph, scaled by size/100, where the advances put it: "IL" from x = 10
    /// (the stem 14…22, "L" 16 further, its foot 30…50 × 32…40); tracking 250 puts the second
    /// "I" 16 + 10 = 26 pt after the first.
    func testGlyphsAdvanceByTheirWidthAndTracking() throws {
        let b = try LottieFixtures.frame("text-glyphs", 0)
        XCTAssertEqual(b.at(18, 30), red, "inside the first glyph's box")
        XCTAssertEqual(b.at(13, 30), clear)
        XCTAssertEqual(b.at(22, 30), clear, "the stem ends at x = 22")
        XCTAssertEqual(stems(b, x: 0..<100, y: 0..<45), [14...21, 30...49], "\"I\" then \"L\" (stem and foot)")
        XCTAssertEqual(b.at(45, 36), red, "the foot of L")
        XCTAssertEqual(b.at(45, 30), clear, "above the foot")
        XCTAssertEqual(rows(b, x: 0..<60, y: 0..<50), 12...39, "28 pt high, standing on the baseline y = 40")
        let tracked = stems(b, x: 0..<100, y: 50..<95)
        XCTAssertEqual(tracked, [14...21, 40...47])
        XCTAssertEqual(tracked[1].lowerBound - tracked[0].lowerBound, 26, "w·size/100 + tracking = 40·0.4 + 250/1000·40")
        XCTAssertEqual(try LottieLayer(contentsOf: LottieFixtures.url("text-glyphs")).unsupported, [], "nothing left out")
    }

    /// Centred lines: "I I" is 16 + 10 + 16 = 42 wide (the space's advance 10), so it starts at
    /// 150 − 21; "II", 32 wide, at 150 − 16; baselines 40 and 90. Box text right-justified in a
    /// box 40 wide at x = 10 wraps at the space: each "II" from 10 + 40 − 32 = 18, the first
    /// baseline 30 (75 % of 40) below the box's top at y = 100, the second 40 below it.
    func testJustificationLinesAndBoxes() throws {
        let b = try LottieFixtures.frame("text-glyphs", 0)
        XCTAssertEqual(stems(b, x: 100..<200, y: 0..<45), [133...140, 159...166])
        XCTAssertEqual(stems(b, x: 100..<200, y: 50..<95), [138...145, 154...161])
        XCTAssertEqual(rows(b, x: 130..<170, y: 0..<50), 12...39)
        XCTAssertEqual(rows(b, x: 130..<170, y: 50..<100), 62...89)
        XCTAssertEqual(b.at(136, 25), blue)
        XCTAssertEqual(stems(b, x: 0..<100, y: 100..<135), [22...29, 38...45])
        XCTAssertEqual(stems(b, x: 0..<100, y: 135..<180), [22...29, 38...45])
        XCTAssertEqual(rows(b, x: 20..<50, y: 100..<135), 102...129)
        XCTAssertEqual(rows(b, x: 20..<50, y: 135..<180), 142...169)
        XCTAssertEqual(b.at(25, 120), green)
    }

    /// A stroke 4 wide over the fill (`of`): the glyph box 154…162 × 122…150 at (150, 150)
    /// grows 2 pt each way in red; 3 pt and more inside it the fill is blue.
    func testStrokeOverFill() throws {
        let b = try LottieFixtures.frame("text-glyphs", 0)
        XCTAssertEqual(b.at(158, 136), blue)
        XCTAssertEqual(b.at(152, 136), red, "the stroke outside the edge")
        XCTAssertEqual(b.at(155, 136), red, "the stroke inside the edge")
        XCTAssertEqual(b.at(151, 136), clear)
        XCTAssertEqual(rows(b, x: 150..<170, y: 110..<160), 120...151)
    }

    /// Text animators place the embedded glyphs: DejaVu Sans's "I" (stem 9.814…18.799 em units,
    /// advance 29.492) at size 40 is ink 3.93…7.52 pt into each 11.797-pt advance. The typewriter
    /// shows the first two at frame 4; the slide drops characters 1 and 2 by 40; the sweep's fill
    /// ramp is (255 (1 − f), 0, 255 f). No CATextLayer: every character is its glyph's shape.
    func testAnimatorsPlaceEmbeddedGlyphs() throws {
        let layer = try LottieLayer(contentsOf: LottieFixtures.url("text-animators-glyphs"))
        XCTAssertEqual(layer.unsupported, [], "chars drawn, not reported")
        func all(_ l: CALayer) -> [CALayer] { [l] + (l.sublayers ?? []).flatMap(all) }
        XCTAssertFalse(all(layer).contains { $0 is CATextLayer })
        let f10 = try LottieFixtures.frame("text-animators-glyphs", 10)
        let shown = stems(f10, x: 0..<100, y: 0..<60)
        XCTAssertEqual(shown.count, 5)
        for (k, s) in shown.enumerated() {
            XCTAssertEqual(Double(s.lowerBound + s.upperBound + 1) / 2, 10 + (9.814 + 18.799) / 2 * 0.4 + 11.797 * Double(k), accuracy: 0.6, "stem \(k)")
        }
        let f4 = try LottieFixtures.frame("text-animators-glyphs", 4)
        XCTAssertEqual(shown.map { maxAlpha(f4, x: $0, y: 0..<60) }, [255, 255, 0, 0, 0])
        func bottom(_ x: ClosedRange<Int>) -> Int { (60..<160).last { y in x.contains { f10.at($0, y)[1] > 128 } } ?? -1 }
        XCTAssertEqual(shown.map(bottom), [109, 149, 149, 109, 109], "on the baseline y = 110, or 40 below")
        let sweep = stems(f10, x: 100..<200, y: 0..<60)
        for (k, f) in [0.1, 0.3, 0.5, 0.7, 0.9].enumerated() {
            let p = f10.at((sweep[k].lowerBound + sweep[k].upperBound) / 2, 40)
            XCTAssertEqual(p[0], Int((255 * (1 - f)).rounded()), accuracy: 1, "red of \(k)")
            XCTAssertEqual(p[2], Int((255 * f).rounded()), accuracy: 1, "blue of \(k)")
        }
    }

    /// A one-layer Lottie of `text` in "Blocks" with the glyphs `chars` (JSON).
    private func glyphLayer(_ text: String, chars: String, animators: String = "[]", limits: LottieLimits = LottieLimits()) throws -> LottieLayer {
        try LottieLayer(data: Data("""
            {"v": "5.7.0", "fr": 10, "ip": 0, "op": 20, "w": 200, "h": 200, "layers": [{"ty": 5, "ip": 0, "op": 20, "ks": {},
             "t": {"d": {"k": [{"t": 0, "s": {"t": "\(text)", "f": "Blocks-Regular", "s": 40, "fc": [1, 0, 0]}}]}, "a": \(animators)}}],
             "fonts": {"list": [{"fName": "Blocks-Regular", "fFamily": "Blocks", "fStyle": "Regular", "ascent": 75}]}, "chars": \(chars)}
            """.utf8), limits: limits)
    }

    private let stem = #"{"ch": "I", "fFamily": "Blocks", "style": "Regular", "w": 40, "data": {"shapes": [{"ty": "gr", "it": [{"ty": "sh", "ks": {"a": 0, "k": {"c": true, "v": [[10, 0], [30, 0], [30, -70], [10, -70]]}}}]}]}}"#

    /// A character without a glyph: the installed font draws the document (a CATextLayer), and
    /// that is reported; glyph items that are not groups or paths are reported and left out.
    func testFallbackAndReports() throws {
        let fallback = try glyphLayer("IA", chars: "[\(stem)]")
        XCTAssert(fallback.unsupported.map(\.description).contains(
            "layers[0].t.d.k[0].s.t: characters without an embedded glyph in font 'Blocks-Regular' (the installed font draws this text)"),
            "\(fallback.unsupported)")
        func all(_ l: CALayer) -> [CALayer] { [l] + (l.sublayers ?? []).flatMap(all) }
        XCTAssert(all(fallback).contains { $0 is CATextLayer })
        let odd = try glyphLayer("I", chars: #"[{"ch": "I", "fFamily": "Blocks", "style": "Regular", "w": 40, "data": {"shapes": [{"ty": "fl", "c": {"a": 0, "k": [1, 0, 0]}}]}}]"#)
        XCTAssertEqual(odd.unsupported.map(\.description),
                       ["chars[0].data.shapes[0]: glyph shape item 'fl' (only groups and paths make a glyph; left out)"])
        XCTAssertFalse(all(odd).contains { $0 is CATextLayer || $0 is CAShapeLayer }, "a glyph without ink draws nothing")
        // A group transform that moves nothing is allowed; one that moves is left out, reported.
        let still = #"{"ty": "tr", "a": {"a": 0, "k": [0, 0]}, "p": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [100, 100]}, "r": {"a": 0, "k": 0}, "o": {"a": 0, "k": 100}}"#
        XCTAssertEqual(try glyphLayer("I", chars: #"[{"ch": "I", "fFamily": "Blocks", "style": "Regular", "w": 40, "data": {"shapes": [{"ty": "gr", "it": [\#(still)]}]}}]"#).unsupported, [])
        let moved = #"{"ty": "tr", "p": {"a": 0, "k": [5, 0]}}"#
        XCTAssertEqual(try glyphLayer("I", chars: #"[{"ch": "I", "fFamily": "Blocks", "style": "Regular", "w": 40, "data": {"shapes": [{"ty": "gr", "it": [\#(moved)]}]}}]"#).unsupported.map(\.description),
                       ["chars[0].data.shapes[0].it[0]: glyph shape item 'tr' (only groups and paths make a glyph; left out)"])
        // No `data` (a space): no ink, no error.
        XCTAssertNoThrow(try glyphLayer("I I", chars: #"[\#(stem), {"ch": " ", "fFamily": "Blocks", "style": "Regular", "w": 25}]"#))
    }

    /// Bad glyphs are errors naming their JSON path; many glyphs and characters stop at the limits.
    func testErrorsAndLimits() throws {
        func error(_ chars: String, text: String = "I", animators: String = "[]", limits: LottieLimits = LottieLimits()) -> String {
            do { _ = try glyphLayer(text, chars: chars, animators: animators, limits: limits); return "no error" } catch { return "\(error)" }
        }
        XCTAssertEqual(error(#"{"ch": "I"}"#), "chars: expected an array of glyphs")
        XCTAssertEqual(error(#"[5]"#), "chars[0]: expected a glyph object")
        XCTAssertEqual(error(#"[{"ch": "I", "fFamily": "Blocks", "style": "Regular"}]"#), "chars[0].w: missing")
        XCTAssertEqual(error(#"[{"ch": "I", "w": -1}]"#), "chars[0].w: -1.0 is not an advance in 0…100000")
        XCTAssertEqual(error(#"[{"ch": "I", "w": 1, "data": 5}]"#), "chars[0].data: expected an object with the glyph's shapes")
        XCTAssertEqual(error(#"[{"ch": "I", "w": 1, "data": {"shapes": 5}}]"#), "chars[0].data.shapes: expected an array")
        XCTAssertEqual(error(#"[{"ch": "I", "w": 1, "data": {"shapes": [{"ty": "sh"}]}}]"#), "chars[0].data.shapes[0].ks: missing")
        XCTAssertEqual(error(#"[{"ch": "I", "w": 1, "data": {"shapes": [{"ty": "sh", "ks": {"k": {"v": [[1e300, 0]]}}}]}}]"#),
                       "chars[0].data.shapes[0].ks.k: glyph points beyond ±1000000 em units")
        var few = LottieLimits()
        few.sampledPathPoints = 6
        XCTAssertEqual(error(#"[\#(stem), \#(stem)]"#, limits: few), "chars[1].data.shapes[0].it[0].ks.k: more than 6 glyph points in all, over the path point limit")
        few = LottieLimits()
        few.layers = 100
        let long = String(repeating: "I", count: 500)
        XCTAssertEqual(error("[\(stem)]", text: long, limits: few), "layers[0].t.d: more than 100 lines and characters of text in all, over the layer limit")
        XCTAssertEqual(error("[\(stem)]", text: long, animators: #"[{"a": {"o": {"a": 0, "k": 0}}}]"#, limits: few),
                       "layers[0].t.d: more than 100 lines and characters of animated text in all, over the layer limit")
        // Huge glyphs and advances: 2 000 triangles a million em units (400 000 pt) wide, drawn
        // without a hang.
        let wide = try glyphLayer(String(repeating: "I", count: 2_000), chars: #"[{"ch": "I", "fFamily": "Blocks", "style": "Regular", "w": 100000, "data": {"shapes": [{"ty": "sh", "ks": {"k": {"c": true, "v": [[0, 0], [1000000, 0], [1000000, -1000000]]}}}]}}]"#)
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
        root.addSublayer(wide)
        XCTAssertNoThrow(try Scene(rootLayer: root, size: CGSize(width: 200, height: 200), frameRate: 10, duration: 2).renderFrame(at: 0))
    }

    /// Text on a path (Fixtures/text-path.json; lottie-web's placement): each character's middle
    /// is its distance along the mask's path — the first margin, plus the justification's share of
    /// the path's length, plus its place in the line — and the glyph stands there on its
    /// baseline, turned with the path when perpendicular. "I" ink is 4…12 × −28…0 from an origin
    /// 8 before the middle, so upright it covers middle − 4 … middle + 4 above the path.
    func testTextOnAPath() throws {
        let black = [0, 0, 0, 255]
        /// The pixels of exactly `color`: their bounding box per connected column run.
        func boxes(_ b: Bitmap, _ color: [Int]) -> [ClosedRange<Int>: ClosedRange<Int>] {
            var columns: [Int: (Int, Int)] = [:]
            for y in 0..<b.height { for x in 0..<b.width where b.at(x, y) == color {
                let c = columns[x] ?? (y, y)
                columns[x] = (min(c.0, y), max(c.1, y))
            } }
            var out: [ClosedRange<Int>: ClosedRange<Int>] = [:]
            var run: (Int, Int, Int, Int)?
            for x in columns.keys.sorted() {
                let c = columns[x]!
                if let r = run, r.1 == x - 1 { run = (r.0, x, min(r.2, c.0), max(r.3, c.1)) } else {
                    if let r = run { out[r.0...r.1] = r.2...r.3 }
                    run = (x, x, c.0, c.1)
                }
            }
            if let r = run { out[r.0...r.1] = r.2...r.3 }
            return out
        }
        XCTAssertEqual(try LottieLayer(contentsOf: LottieFixtures.url("text-path")).unsupported, [])
        let f0 = try LottieFixtures.frame("text-path", 0), f10 = try LottieFixtures.frame("text-path", 10)
        // Straight, from (10, 40): margin 20 puts the middles at 10 + 20 + 8 = 38 and 54; margin 60
        // (frame 10) at 78 and 94. Ink 28 high above the baseline y = 40.
        XCTAssertEqual(boxes(f0, red), [34...41: 12...39, 50...57: 12...39])
        XCTAssertEqual(boxes(f10, red), [74...81: 12...39, 90...97: 12...39])
        // Corner, perpendicular, margin 80: the first middle 88 along the horizontal (x 98), upright;
        // the second 104 along, 14 down the vertical at (100, 114), turned 90° clockwise: its
        // ink −4…4 along the path and 0…28 to the right of it, x 100…128, y 110…118.
        XCTAssertEqual(boxes(f0, green), [94...127: 72...117])
        XCTAssertEqual(f0.at(97, 85), green, "the upright first glyph")
        XCTAssertEqual(f0.at(120, 114), green, "the turned second glyph, right of the path")
        XCTAssertEqual(f0.at(120, 105), clear)
        XCTAssertEqual(f0.at(103, 85), clear)
        // Reversed and centred, perpendicular: the path runs from (190, 160) leftwards, 180 long;
        // "II" is 32 wide, so its middles are (180 − 32) / 2 + 8 = 82 and 98 along: x 108 and 92,
        // each turned 180° (ink below the path, y 160…188).
        XCTAssertEqual(boxes(f0, blue), [88...95: 160...187, 104...111: 160...187])
        // Forced alignment, margin 10: the first middle at 10 + 8, the last at the path's end less
        // half its advance, 180 − 8 = 172 along (x 28 and 182).
        XCTAssertEqual(boxes(f0, black), [24...31: 42...69, 178...185: 42...69])
        XCTAssertEqual(f10, try LottieFixtures.frame("text-path", 10, workers: 2), "1 and 2 workers")
    }
}
