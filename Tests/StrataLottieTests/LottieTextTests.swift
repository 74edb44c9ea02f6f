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
//
// Text animators are tested below, in LottieTextAnimatorTests (their cross-check with ThorVG:
// docs/lottie.md, "Text animators").
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
        let frame = try LottieFixtures.scene(showing: layer, width: 100, height: 100).renderFrame(at: 0)
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
        return LottieFixtures.scene(showing: layer, width: 100, height: 100)
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

extension XCTestCase {
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
    /// Sans `size`, red, with `animators` (JSON of `t.a`, "[]" for none) and `more` members of
    /// `t` (JSON ending with a comma).
    func animatedScene(_ text: String, size: Double = 40, at origin: (Double, Double) = (10, 50), justify: Int = 0,
                       more: String = "", start: Double = 0, stretch: Double = 1, _ animators: String) throws -> (Scene, LottieLayer) {
        let json = """
            {"v": "5.7.0", "fr": 10, "ip": 0, "op": 20, "w": 200, "h": 200, "layers": [
              {"ty": 5, "ind": 1, "nm": "T", "ip": 0, "op": 20, "st": \(start), "sr": \(stretch), "ks": {"p": {"a": 0, "k": [\(origin.0), \(origin.1)]}},
               "t": {"d": {"k": [{"t": 0, "s": {"t": "\(text)", "f": "DejaVu Sans", "s": \(size), "j": \(justify), "fc": [1, 0, 0]}}]},
                     \(more)"a": \(animators)}}]}
            """
        let layer = try LottieLayer(data: Data(json.utf8))
        return (LottieFixtures.scene(showing: layer, width: 200, height: 200), layer)
    }

    func frame(_ s: (Scene, LottieLayer), _ f: Double) throws -> Bitmap { try s.0.renderFrame(at: s.1.time(ofFrame: f)) }
}

/// Text animators (Fixtures/text-animators.json and scenes made here; DejaVu Sans 40, where
/// "IIIII" is five stems 11.8 pt apart and each stem is one character). The expected factors
/// are worked out from the range selector's formulas (lottie-web's TextSelectorProperty, which
/// the spec — it has no text yet — leaves to the exporter's player): a unit at index i of a range
/// from s to e gets, for a square, min(e − i, 1) where i ≥ s; for the other shapes the position of
/// the unit's middle, (i + ½ − s) / (e − s), through the shape.
final class LottieTextAnimatorTests: XCTestCase {
    /// The five stems of "IIIII" at (10, 50) drawn without animators.
    private var plain: [ClosedRange<Int>] { get throws { stems(try frame(animatedScene("IIIII", "[]"), 0), y: 0..<100) } }

    /// The largest alpha of each plain stem's columns in `y`.
    private func alphas(_ b: Bitmap, y: Range<Int> = 0..<100) throws -> [Int] { try plain.map { maxAlpha(b, x: $0, y: y) } }

    /// An opacity-0 animator over "IIIII" with a selector in index units from `s` to `e`.
    private func opacityScene(_ selector: String, s: Double = 0, e: Double = 5) throws -> (Scene, LottieLayer) {
        try animatedScene("IIIII", #"[{"s": {"t": 0, "r": 2, "s": {"a": 0, "k": \#(s)}, "e": {"a": 0, "k": \#(e)}, \#(selector)}, "a": {"o": {"a": 0, "k": 0}}}]"#)
    }

    /// Typewriter: opacity 0 from the selector's start, which runs 0 → 100 % over frames 0…10 of
    /// five characters (start 0.5 characters a frame). At frame 4 (start 2) exactly the first two
    /// show; at frame 5 (start 2.5) the third is half selected — opacity 50 %; at 0 none, at 10 all.
    func testTypewriterReveal() throws {
        let plain = try plain
        func frame(_ f: Double, workers: Int = 1) throws -> Bitmap { try LottieFixtures.frame("text-animators", f, workers: workers) }
        XCTAssertEqual(try alphas(frame(0), y: 0..<60), [0, 0, 0, 0, 0])
        XCTAssertEqual(try alphas(frame(4), y: 0..<60), [255, 255, 0, 0, 0])
        XCTAssertEqual(stems(try frame(4), x: 0..<100, y: 0..<60), Array(plain.prefix(2)), "the shown stems where the line has them")
        let half = try alphas(frame(5), y: 0..<60)
        XCTAssertEqual(half[0], 255)
        XCTAssertEqual(half[2], 128, accuracy: 1, "start 2.5: the third character's factor 1 − 0.5")
        XCTAssertEqual(half[3], 0)
        XCTAssertEqual(try alphas(frame(10), y: 0..<60), [255, 255, 255, 255, 255])
        // Any frame alone, in any order, at any worker count: the same bytes.
        let (scene, layer) = try LottieFixtures.scene("text-animators")
        _ = try scene.renderFrame(at: layer.time(ofFrame: 10))
        XCTAssertEqual(try scene.renderFrame(at: layer.time(ofFrame: 4)).digest, try frame(4).digest)
        XCTAssertEqual(try frame(5, workers: 4).digest, try frame(5).digest)
        XCTAssertEqual(try LottieLayer(contentsOf: LottieFixtures.url("text-animators")).unsupported, [], "nothing left out")
    }

    /// Each character's values are sampled twice a frame over the layer's 20 frames (41
    /// samples), but a run of equal values keeps only its ends: the typewriter's characters,
    /// each fading in over two frames, have six or seven opacity keyframes, and the characters
    /// no animator changes have none (a fixed value).
    func testSampledRunsKeepTheirEnds() throws {
        let layer = try LottieLayer(contentsOf: LottieFixtures.url("text-animators"))
        func all(_ l: CALayer) -> [CALayer] { [l] + (l.sublayers ?? []).flatMap(all) }
        let characters = all(layer).filter { ($0 as? CATextLayer)?.string as? String == "I" }.compactMap(\.superlayer)
        XCTAssertEqual(characters.count, 16, "five characters in each of three layers and one more")
        let typewriter = characters.compactMap { ($0.animation(forKey: "opacity") as? CAKeyframeAnimation)?.values?.count }
        // Character k fades in while the start runs from k to k + 1 (frames 2k…2k + 2, five
        // samples): the first and last samples, the ends of the runs before and after, and the
        // three between; the first character's fade starts at the first sample.
        XCTAssertEqual(typewriter.sorted(), [6, 7, 7, 7, 7])
        XCTAssertEqual(characters.filter { ($0.animationKeys() ?? []).isEmpty }.count, 10, "the slide's and the sweep's: fixed values")
    }

    /// Position (0, 40) on characters 1 and 2 only (index units, start 1, end 3): those two stems
    /// drop by exactly 40, the others stay on the line.
    func testPositionMovesOnlySelectedCharacters() throws {
        let plain = try plain
        let b = try LottieFixtures.frame("text-animators", 0)
        XCTAssertEqual(stems(b, x: 0..<100, y: 60..<112), [plain[0], plain[3], plain[4]])
        XCTAssertEqual(stems(b, x: 0..<100, y: 112..<160), [plain[1], plain[2]])
        func bottom(_ x: ClosedRange<Int>) -> Int { (60..<160).last { y in x.contains { b.at($0, y)[1] > 128 } } ?? -1 }
        XCTAssertEqual(bottom(plain[0]), 109, "on the baseline y = 110")
        XCTAssertEqual(bottom(plain[1]) - bottom(plain[0]), 40)
        XCTAssertEqual(bottom(plain[2]) - bottom(plain[0]), 40)
    }

    /// Fill colour towards blue by a ramp up over five characters (index units 0…5): the factors
    /// are the middles' positions, 0.1, 0.3, 0.5, 0.7, 0.9, so each stem is
    /// (255 (1 − f), 0, 255 f).
    func testFillColourRamp() throws {
        let b = try LottieFixtures.frame("text-animators", 0)
        let stems = stems(b, x: 100..<200, y: 0..<60)
        XCTAssertEqual(stems.map { $0.lowerBound - 100 }, try plain.map { $0.lowerBound }, "the same places as at x = 10")
        for (k, f) in [0.1, 0.3, 0.5, 0.7, 0.9].enumerated() {
            let p = b.at((stems[k].lowerBound + stems[k].upperBound) / 2, 40)
            XCTAssertEqual(p[0], Int((255 * (1 - f)).rounded()), accuracy: 1, "red of \(k)")
            XCTAssertEqual(p[2], Int((255 * f).rounded()), accuracy: 1, "blue of \(k)")
            XCTAssertEqual(p[1], 0)
        }
    }

    /// Rotation 0 → 90° over frames 0…10 of one "I" at (150, 180): about the middle of its advance
    /// (150 + 11.8 / 2) on the baseline, clockwise, so at frame 10 the stem lies along the
    /// baseline to the right of that point, its 29.2-pt cap height long.
    func testRotationAboutTheBaselineMiddle() throws {
        let upright = try LottieFixtures.frame("text-animators", 0)
        let turned = try LottieFixtures.frame("text-animators", 10)
        let up = stems(upright, x: 100..<200, y: 140..<200)
        XCTAssertEqual(up.count, 1)
        let run = try XCTUnwrap(stems(turned, x: 100..<200, y: 150..<200).first)
        XCTAssertEqual(run.lowerBound, 156, accuracy: 1, "from the pivot x 155.9")
        XCTAssertEqual(run.upperBound, 185, accuracy: 1, "155.9 + 29.2")
        let rows = (150..<200).filter { y in run.contains { turned.at($0, y)[2] > 128 } }
        XCTAssertEqual(Double(rows.first! + rows.last!) / 2, 180, accuracy: 1, "centred on the baseline")
    }

    /// The range shapes, as opacity 0 over "IIIII" with index units from 0 to 5 (opacity
    /// 255 (1 − f) per stem): ramp up f = (i + ½) / 5; ramp down 1 − that; triangle rising to 1 at
    /// the middle; round √(1 − x² / 2.5²) and smooth (1 − cos(2π (i + ½) / 5)) / 2 of the middle.
    func testSelectorShapes() throws {
        let ramp = [0.1, 0.3, 0.5, 0.7, 0.9]
        let expected: [(Int, [Double])] = [
            (2, ramp),
            (3, ramp.map { 1 - $0 }),
            (4, [0.2, 0.6, 1, 0.6, 0.2]),
            (5, [-2.0, -1, 0, 1, 2].map { (1 - $0 * $0 / 6.25).squareRoot() }),
            (6, [0.5, 1.5, 2.5, 3.5, 4.5].map { (1 - cos(2 * .pi * $0 / 5)) / 2 }),
        ]
        for (shape, factors) in expected {
            let a = try alphas(frame(opacityScene(#""sh": \#(shape)"#), 0))
            for (k, f) in factors.enumerated() {
                XCTAssertEqual(a[k], Int((255 * (1 - f)).rounded()), accuracy: 2, "shape \(shape), character \(k)")
            }
        }
        // Square with fractional ends (1.5 … 3.25): 1 − 0.5 at 1, 1 at 2, 0.25 at 3.
        let square = try alphas(frame(opacityScene(#""sh": 1"#, s: 1.5, e: 3.25), 0))
        for (k, f) in [0, 0.5, 1, 0.25, 0].enumerated() {
            XCTAssertEqual(square[k], Int((255 * (1 - f)).rounded()), accuracy: 2, "square, character \(k)")
        }
        // Amount 50 halves every factor.
        let halved = try alphas(frame(opacityScene(#""sh": 1, "a": {"a": 0, "k": 50}"#), 0))
        for a in halved { XCTAssertEqual(Double(a), 127.5, accuracy: 1.5, "255 × (1 − 0.5)") }
    }

    /// Ease low 50 on a ramp up: the factor goes through the cubic Bézier (0.5, 0), (1, 1) —
    /// at x = (i + ½) / 5, its y.
    func testSelectorEase() throws {
        func bezier(_ x: Double) -> Double {
            // x(t) = 3(1 − t)² t · 0.5 + 3(1 − t) t² + t³, y(t) = 3(1 − t) t² + t³; solved by bisection.
            var lo = 0.0, hi = 1.0
            for _ in 0..<60 {
                let t = (lo + hi) / 2
                let xt = 1.5 * (1 - t) * (1 - t) * t + 3 * (1 - t) * t * t + t * t * t
                if xt < x { lo = t } else { hi = t }
            }
            let t = (lo + hi) / 2
            return 3 * (1 - t) * t * t + t * t * t
        }
        let a = try alphas(frame(opacityScene(#""sh": 2, "ne": {"a": 0, "k": 50}"#), 0))
        for (k, x) in [0.1, 0.3, 0.5, 0.7, 0.9].enumerated() {
            XCTAssertEqual(a[k], Int((255 * (1 - bezier(x))).rounded()), accuracy: 2, "character \(k)")
        }
    }

    /// Offset moves the range: a one-character square (index 0…1) with offset 0 → 4 over frames
    /// 0…4 selects character 2 alone at frame 2.
    func testOffset() throws {
        let scene = try animatedScene("IIIII", #"[{"s": {"t": 0, "r": 2, "s": {"a": 0, "k": 0}, "e": {"a": 0, "k": 1}, "o": {"a": 1, "k": [{"t": 0, "s": [0], "o": {"x": [0], "y": [0]}, "i": {"x": [1], "y": [1]}}, {"t": 4, "s": [4]}]}}, "a": {"o": {"a": 0, "k": 0}}}]"#)
        XCTAssertEqual(try alphas(frame(scene, 2)), [255, 255, 0, 255, 255])
        XCTAssertEqual(try alphas(frame(scene, 4)), [255, 255, 255, 255, 0])
    }

    /// Animator keyframes are the layer's own values: in its composition's frames, like its
    /// transform's and shapes' (the start time and stretch shift only a precomposition's
    /// content, as rlottie and ThorVG evaluate them). Offset 0 → 4 over frames 0…4 of a layer
    /// started at 5 and stretched 2 × still selects character 2 at frame 2, character 4 from 4.
    func testLayerTime() throws {
        let animator = #"[{"s": {"t": 0, "r": 2, "s": {"a": 0, "k": 0}, "e": {"a": 0, "k": 1}, "o": {"a": 1, "k": [{"t": 0, "s": [0], "o": {"x": [0], "y": [0]}, "i": {"x": [1], "y": [1]}}, {"t": 4, "s": [4]}]}}, "a": {"o": {"a": 0, "k": 0}}}]"#
        let scene = try animatedScene("IIIII", start: 5, stretch: 2, animator)
        XCTAssertEqual(try alphas(frame(scene, 2)), [255, 255, 0, 255, 255])
        XCTAssertEqual(try alphas(frame(scene, 9)), [255, 255, 255, 255, 0])
    }

    /// Inside a time-remapped precomposition the animators are sampled through the remap: a
    /// remap held at 0.4 s shows the typewriter's frame 4 (two characters) at every frame.
    func testTimeRemappedPrecomposition() throws {
        let text = try String(contentsOf: LottieFixtures.url("text-animators"), encoding: .utf8)
        let fixture = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let typewriter = try XCTUnwrap((fixture["layers"] as? [[String: Any]])?.first)
        let doc: [String: Any] = [
            "v": "5.7.0", "fr": 10, "ip": 0, "op": 20, "w": 200, "h": 200, "fonts": fixture["fonts"]!,
            "assets": [["id": "inner", "layers": [typewriter]]],
            "layers": [["ty": 0, "ind": 1, "refId": "inner", "w": 200, "h": 200, "ip": 0, "op": 20, "st": 0, "ks": [String: Any](),
                        "tm": ["a": 1, "k": [["t": 0, "s": [0.4], "h": 1], ["t": 20, "s": [0.4]]]]]],
        ]
        let layer = try LottieLayer(data: try JSONSerialization.data(withJSONObject: doc))
        let scene = (LottieFixtures.scene(showing: layer, width: 200, height: 200), layer)
        for f in [0.0, 7, 15] {
            XCTAssertEqual(try alphas(frame(scene, f), y: 0..<60), [255, 255, 0, 0, 0], "frame \(f)")
        }
    }

    /// Based on words, characters without spaces and lines: which letters share a unit.
    func testBasedOn() throws {
        // "II II": stems 0 1 | 2 3 (the space between has no ink).
        let plainWords = stems(try frame(animatedScene("II II", "[]"), 0), y: 0..<100)
        func visible(_ text: String, _ selector: String) throws -> [Int] {
            let b = try frame(animatedScene(text, #"[{"s": {"t": 0, \#(selector)}, "a": {"o": {"a": 0, "k": 0}}}]"#), 0)
            return plainWords.map { maxAlpha(b, x: $0, y: 0..<100) }
        }
        // Words, index units 1…2: the second word.
        XCTAssertEqual(try visible("II II", #""b": 3, "r": 2, "s": {"a": 0, "k": 1}, "e": {"a": 0, "k": 2}"#), [255, 255, 0, 0])
        // Words, 50 … 100 % of two words: the same.
        XCTAssertEqual(try visible("II II", #""b": 3, "s": {"a": 0, "k": 50}, "e": {"a": 0, "k": 100}"#), [255, 255, 0, 0])
        // Characters excluding spaces, index 1…3: the second and third I (the space is not counted).
        XCTAssertEqual(try visible("II II", #""b": 2, "r": 2, "s": {"a": 0, "k": 1}, "e": {"a": 0, "k": 3}"#), [255, 0, 0, 255])
        // Characters, index 1…3: the second I and the space.
        XCTAssertEqual(try visible("II II", #""b": 1, "r": 2, "s": {"a": 0, "k": 1}, "e": {"a": 0, "k": 3}"#), [255, 0, 255, 255])
        // Lines, index 1…2 of "II\rII": the second line.
        let lines = try frame(animatedScene(#"II\rII"#, #"[{"s": {"t": 0, "b": 4, "r": 2, "s": {"a": 0, "k": 1}, "e": {"a": 0, "k": 2}}, "a": {"o": {"a": 0, "k": 0}}}]"#), 0)
        XCTAssertEqual(stems(lines, y: 0..<55).count, 2, "the first line shows")
        XCTAssertEqual(stems(lines, y: 55..<110).count, 0, "the second does not")
    }

    /// Tracking 10 on every character: each stem moves 10 further than the one before; a
    /// centred line shifts back by half its widening (4 × 10), a right-aligned one by all of it.
    func testTracking() throws {
        let tracking = #"[{"s": {"t": 0}, "a": {"t": {"a": 0, "k": 10}}}]"#
        for (justify, back) in [(0, 0), (2, 20), (1, 40)] {
            let base = stems(try frame(animatedScene("IIIII", at: (100, 50), justify: justify, "[]"), 0), y: 0..<100)
            let moved = stems(try frame(animatedScene("IIIII", at: (100, 50), justify: justify, tracking), 0), y: 0..<100)
            XCTAssertEqual(moved.map(\.lowerBound), base.enumerated().map { $1.lowerBound + 10 * $0 - back }, "justification \(justify)")
        }
    }

    /// Scale 200 % about the middle of the advance on the baseline: the stem twice as tall and
    /// wide, standing on the same baseline, centred where it was; anchor (0, 10) then lifts it by
    /// 10 × 2 (the anchor is moved before the scale).
    func testScaleAndAnchor() throws {
        let plainI = try XCTUnwrap(stems(try frame(animatedScene("I", at: (10, 90), "[]"), 0), y: 0..<100).first)
        func box(_ animator: String) throws -> (ClosedRange<Int>, Int, Int) {
            let b = try frame(animatedScene("I", at: (10, 90), "[{\"a\": \(animator)}]"), 0)
            let x = try XCTUnwrap(stems(b, y: 0..<100).first)
            let rows = (0..<100).filter { y in x.contains { b.at($0, y)[3] > 128 } }
            return (x, rows.first!, rows.last!)
        }
        let (x, top, bottom) = try box(#"{"s": {"a": 0, "k": [200, 200]}}"#)
        XCTAssertEqual(bottom, 89, "on the baseline y = 90")
        XCTAssertEqual(90 - top, 58, accuracy: 1, "2 × 29.2")
        XCTAssertEqual(Double(x.lowerBound + x.upperBound) / 2, Double(plainI.lowerBound + plainI.upperBound) / 2, accuracy: 1)
        XCTAssertEqual(x.count, 2 * plainI.count, accuracy: 1)
        let lifted = try box(#"{"s": {"a": 0, "k": [200, 200]}, "a": {"a": 0, "k": [0, 10]}}"#)
        XCTAssertEqual(bottom - lifted.2, 20)
    }

    /// The grouping alignment (`t.m.a`, percent of the advance and of lottie-web's line offset
    /// 1.2 × 0.714 em) moves the point a character turns about: at (0, −50), 17.1 above the
    /// baseline (40 × 1.2 × 0.714 / 2), so a 90° turn puts the stem of "I" (29.2 high) across
    /// x − 17.1 … x + 12.1 of that point, at its height.
    func testGroupingAlignment() throws {
        let b = try frame(animatedScene("I", at: (100, 100), more: #""m": {"g": 1, "a": {"a": 0, "k": [0, -50]}},"#,
                                        #"[{"a": {"r": {"a": 0, "k": 90}}}]"#), 0)
        let run = try XCTUnwrap(stems(b, y: 0..<200).first)
        let pivot = 100 + 11.8 / 2
        XCTAssertEqual(Double(run.lowerBound), pivot - 17.1, accuracy: 1)
        XCTAssertEqual(Double(run.upperBound), pivot + 12.1, accuracy: 1)
        let rows = (0..<200).filter { y in run.contains { b.at($0, y)[3] > 128 } }
        XCTAssertEqual(Double(rows.first! + rows.last!) / 2 + 0.5, 100 - 17.1, accuracy: 1)
    }

    /// Document keyframes with animators: each document's characters from its keyframe on,
    /// under the same animator ("I" until frame 10, then "III"; characters from index 1 hidden).
    func testDocumentKeyframesWithAnimators() throws {
        let json = """
            {"v": "5.7.0", "fr": 10, "ip": 0, "op": 20, "w": 200, "h": 200, "layers": [
              {"ty": 5, "ind": 1, "ip": 0, "op": 20, "st": 0, "ks": {"p": {"a": 0, "k": [10, 50]}},
               "t": {"d": {"k": [{"t": 0, "s": {"t": "II", "f": "DejaVu Sans", "s": 40, "fc": [1, 0, 0]}},
                                 {"t": 10, "s": {"t": "IIIII", "f": "DejaVu Sans", "s": 40, "fc": [1, 0, 0]}}]},
                     "a": [{"s": {"t": 0, "r": 2, "s": {"a": 0, "k": 1}, "e": {"a": 0, "k": 3}}, "a": {"o": {"a": 0, "k": 0}}}]}}]}
            """
        let layer = try LottieLayer(data: Data(json.utf8))
        let scene = (LottieFixtures.scene(showing: layer, width: 200, height: 200), layer)
        XCTAssertEqual(try alphas(frame(scene, 5)), [255, 0, 0, 0, 0])
        XCTAssertEqual(try alphas(frame(scene, 15)), [255, 0, 0, 255, 255])
    }

    /// A stroked text's stroke colour and fill colour by an animator (the outlines as shapes):
    /// "I" at 80 pt, a 4-pt stroke over the fill, both replaced whole (factor 1).
    func testStrokeAndFillColour() throws {
        let json = """
            {"v": "5.7.0", "fr": 10, "ip": 0, "op": 20, "w": 200, "h": 200, "layers": [
              {"ty": 5, "ind": 1, "ip": 0, "op": 20, "st": 0, "ks": {"p": {"a": 0, "k": [10, 95]}},
               "t": {"d": {"k": [{"t": 0, "s": {"t": "I", "f": "DejaVu Sans", "s": 80, "fc": [1, 0, 0], "sc": [0, 0, 1], "sw": 4, "of": true}}]},
                     "a": [{"s": {"t": 0}, "a": {"sc": {"a": 0, "k": [0, 1, 0]}, "fc": {"a": 0, "k": [0, 0, 0]}}}]}}]}
            """
        let layer = try LottieLayer(data: Data(json.utf8))
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
        layer.anchorPoint = .zero
        root.addSublayer(layer)
        layer.position = .zero
        let b = try Scene(rootLayer: root, size: CGSize(width: 200, height: 200), frameRate: 10, duration: 2).renderFrame(at: 0)
        var green = 0, blue = 0, red = 0, black = 0
        for y in 0..<100 { for x in 0..<60 {
            let p = b.at(x, y)
            guard p[3] > 250 else { continue }
            if p[1] > 250 && p[0] < 5 && p[2] < 5 { green += 1 }
            if p[2] > 128 { blue += 1 }
            if p[0] > 128 { red += 1 }
            if p[0] < 5 && p[1] < 5 && p[2] < 5 { black += 1 }
        } }
        XCTAssertGreaterThan(green, 20, "the stroke is green")
        XCTAssertGreaterThan(black, 20, "the fill is black")
        XCTAssertEqual(blue + red, 0, "neither the document's stroke nor its fill colour is left")
    }

    /// Fill hue, saturation and brightness move the red fill (hue 0, saturation and value 1) in
    /// HSV: hue +120° is green, −120° blue, +60° at amount 50 % (30°) orange (1, ½, 0);
    /// saturation −100 % is white; brightness −50 % is (½, 0, 0).
    func testFillHueSaturationBrightness() throws {
        for (animator, expected) in [
            (#""a": {"fh": {"a": 0, "k": 120}}"#, [0, 255, 0]),
            (#""a": {"fh": {"a": 0, "k": -120}}"#, [0, 0, 255]),
            (#""s": {"t": 0, "a": {"a": 0, "k": 50}}, "a": {"fh": {"a": 0, "k": 60}}"#, [255, 128, 0]),
            (#""a": {"fs": {"a": 0, "k": -100}}"#, [255, 255, 255]),
            (#""a": {"fb": {"a": 0, "k": -50}}"#, [128, 0, 0]),
        ] {
            let b = try frame(animatedScene("IIIII", "[{\(animator)}]"), 0)
            for stem in try plain {
                let p = b.at((stem.lowerBound + stem.upperBound) / 2, 40)
                for c in 0..<3 { XCTAssertEqual(p[c], expected[c], accuracy: 1, "\(animator) channel \(c)") }
            }
        }
    }

    /// Stroke width: a document with a stroke colour and no width, and an animator adding 4 on
    /// every character, looks exactly like the document stroked 4 wide; on "II" with the
    /// selector on index 1 only the second stem is stroked.
    func testStrokeWidth() throws {
        func render(_ text: String, width: Double, _ animators: String) throws -> Bitmap {
            let layer = try LottieLayer(data: Data("""
                {"v": "5.7.0", "fr": 10, "ip": 0, "op": 20, "w": 200, "h": 200, "layers": [
                  {"ty": 5, "ind": 1, "ip": 0, "op": 20, "st": 0, "ks": {"p": {"a": 0, "k": [10, 95]}},
                   "t": {"d": {"k": [{"t": 0, "s": {"t": "\(text)", "f": "DejaVu Sans", "s": 80, "fc": [1, 0, 0], "sc": [0, 0, 1], "sw": \(width), "of": true}}]},
                         "a": \(animators)}}]}
                """.utf8))
            return try LottieFixtures.scene(showing: layer, width: 200, height: 200).renderFrame(at: 0)
        }
        let stroked = try render("I", width: 4, "[]")
        let added = try render("I", width: 0, #"[{"a": {"sw": {"a": 0, "k": 4}}}]"#)
        XCTAssertEqual(added.pixels, stroked.pixels)
        let second = try render("II", width: 0, #"[{"s": {"t": 0, "r": 2, "s": {"a": 0, "k": 1}, "e": {"a": 0, "k": 2}}, "a": {"sw": {"a": 0, "k": 4}}}]"#)
        let columns = stems(second, y: 0..<100)
        XCTAssertEqual(columns.count, 2)
        func blue(_ x: ClosedRange<Int>) -> Int { (0..<100).reduce(0) { n, y in n + x.filter { second.at($0, y)[2] > 128 }.count } }
        XCTAssertEqual(blue(columns[0]), 0, "the first stem unstroked")
        XCTAssertGreaterThan(blue(columns[1]), 100, "the second stroked")
    }

    /// An animator whose selector picks nothing changes nothing: the glyphs are where the line
    /// layers put them, kerning ("AV", "Wo") included.
    func testUnselectedCharactersStayWhereTheLineHasThem() throws {
        let text = "AVATAR Wo"
        let b0 = try frame(animatedScene(text, size: 30, "[]"), 0)
        let b1 = try frame(animatedScene(text, size: 30, #"[{"s": {"t": 0, "r": 2, "s": {"a": 0, "k": 0}, "e": {"a": 0, "k": 0}}, "a": {"o": {"a": 0, "k": 0}}}]"#), 0)
        XCTAssertEqual(stems(b1, y: 0..<100), stems(b0, y: 0..<100))
        // Each glyph rasterised alone, where the kerned line has it: the same pixels.
        XCTAssertEqual(b1.pixels, b0.pixels)
    }

    /// What is not drawn is reported with its path; bad values are errors naming theirs.
    func testReportsAndErrors() throws {
        func layer(_ animators: String, limits: LottieLimits = LottieLimits(), text: String = "IIIII") throws -> LottieLayer {
            try LottieLayer(data: Data("""
                {"v": "5.7.0", "fr": 10, "ip": 0, "op": 20, "w": 200, "h": 200, "layers": [{"ty": 5, "ip": 0, "op": 20, "ks": {},
                 "t": {"d": {"k": [{"t": 0, "s": {"t": "\(text)", "f": "DejaVu Sans", "s": 20}}]}, "a": \(animators)}}]}
                """.utf8), limits: limits)
        }
        XCTAssertEqual(try layer(#"[{"s": {"t": 0, "rn": 1}, "a": {"o": {"a": 0, "k": 0}, "sk": {"a": 0, "k": 10}}}]"#).unsupported.map(\.description), [
            "layers[0].t.a[0].a.sk: text animator property 'sk' (skew)",
            "layers[0].t.a[0].s.rn: randomized order (characters selected in order)",
        ])
        XCTAssertEqual(try layer(#"[{"s": {"t": 1}, "a": {"o": {"a": 0, "k": 0}}}]"#).unsupported.map(\.description),
                       ["layers[0].t.a[0].s.t: text selector of type 1 (the animator is not drawn)"])
        func error(_ animators: String, limits: LottieLimits = LottieLimits(), text: String = "IIIII") -> String {
            do { _ = try layer(animators, limits: limits, text: text); return "no error" } catch { return "\(error)" }
        }
        XCTAssertEqual(error(#"{"s": {}}"#), "layers[0].t.a: expected an array of text animators")
        XCTAssertEqual(error(#"[{"a": {"o": {"a": 0, "k": "x"}}}]"#), "layers[0].t.a[0].a.o.k: expected an array of numbers")
        XCTAssertEqual(error(#"[{"s": {"t": 0, "b": 9}, "a": {}}]"#), "layers[0].t.a[0].s.b: 9 is not one of 1…4")
        XCTAssertEqual(error(#"[{"s": {"t": 0, "sh": "round"}, "a": {}}]"#), "layers[0].t.a[0].s.sh: expected a number")
        XCTAssertEqual(error(#"[{"s": 5, "a": {}}]"#), "layers[0].t.a[0].s: expected a text selector object")
        // Many characters: each is a layer (bounded by the layer limit), and each animated one
        // is sampled per frame (bounded by the pre-sampling limit).
        var few = LottieLimits()
        few.layers = 100
        let long = String(repeating: "I", count: 500)
        XCTAssertEqual(error(#"[{"a": {"o": {"a": 0, "k": 0}}}]"#, limits: few, text: long),
                       "layers[0].t.d: more than 100 lines and characters of animated text in all, over the layer limit")
        var samples = LottieLimits()
        samples.samples = 10_000
        XCTAssertEqual(error(#"[{"a": {"o": {"a": 1, "k": [{"t": 0, "s": [0], "o": {"x": [0], "y": [0]}, "i": {"x": [1], "y": [1]}}, {"t": 10, "s": [100]}]}}}]"#,
                             limits: samples, text: long),
                       "layers[0].t.a: more than 10000 pre-sampled values in all, over the limit")
    }
}

extension LottieTextAnimatorTests {
    /// Extreme values draw (or draw nothing) without a crash or a hang: ends of ±1e300 offset by
    /// 1e300 (a range from 0 on: every character hidden), an empty range at 1e300 (the
    /// round shape gives it 0), a scale of 0 (nothing drawn), positions, scales and rotations of
    /// 1e300 (off the picture), and a text of 2 000 characters.
    func testExtremeValues() throws {
        for (animator, expected) in [
            (#"{"s": {"t": 0, "s": {"a": 0, "k": -1e300}, "e": {"a": 0, "k": 1e300}, "o": {"a": 0, "k": 1e300}}, "a": {"o": {"a": 0, "k": 0}}}"#, 0),
            (#"{"s": {"t": 0, "r": 2, "s": {"a": 0, "k": 1e300}, "e": {"a": 0, "k": 1e300}, "sh": 5}, "a": {"o": {"a": 0, "k": 0}}}"#, 255),
            (#"{"a": {"s": {"a": 0, "k": [0, 0]}, "o": {"a": 0, "k": -1e300}, "fc": {"a": 0, "k": [1e300, -1e300, 0]}}}"#, 0),
            (#"{"a": {"p": {"a": 0, "k": [1e300, -1e300]}, "s": {"a": 0, "k": [1e300, 1e300]}, "r": {"a": 0, "k": 1e300}, "t": {"a": 0, "k": 1e300}}}"#, 0),
        ] {
            XCTAssertEqual(try alphas(frame(animatedScene("IIIII", "[\(animator)]"), 0)), [Int](repeating: expected, count: 5), animator)
        }
        let long = String(repeating: "I", count: 2_000)
        XCTAssertNoThrow(try frame(animatedScene(long, size: 2, #"[{"s": {"t": 0, "sh": 6}, "a": {"o": {"a": 0, "k": 0}}}]"#), 0))
    }
}
