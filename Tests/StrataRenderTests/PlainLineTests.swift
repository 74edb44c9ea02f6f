// A plain line of text is shaped without a PangoLayout (PlainLine): its glyphs, fonts and
// positions must be exactly those the layout gives, and whatever the line's checks cannot vouch
// for must go to the layout.
import XCTest
import StrataCore
import CCairo
import StrataTestSupport
@testable import StrataRender

final class PlainLineTests: XCTestCase {
    private let strings = [
        "Line 07 frame 042: The quick brown fox jumps over the lazy dog 0123456789",
        "office affluent fjord waffle",            // ligatures
        "AVAWAY To Ty Yo LT P. V,",                // kerning pairs
        "Café Ålborg Łódź Ærøskøbing Šibenik",     // Latin-1 and Extended-A letters
        "ǅemal ǈ Ǳ ȘȚ ƒ",                          // Extended-B
        "0123456789", "  leading and trailing  ", "   ", "-", "$(x + y) * 2 = {a|b} ~ `c` @ #1 % ^ & _",
        "i", "W"
    ]
    private let fonts = ["DejaVu Sans", "DejaVuSans-Bold", "DejaVu Serif", "DejaVuSansMono-Oblique", "Helvetica",
                         "TimesNewRomanPS-BoldMT", "Courier"]
    private let sizes: [CGFloat] = [7, 12, 24, 37.5, 100]
    private let alignments: [CATextLayerAlignmentMode] = [.natural, .left, .right, .center, .justified]

    func testPlainLinesAreShapedAsTheLayoutShapesThem() throws {
        var compared = 0, declined = 0
        for (i, string) in strings.enumerated() {
            for (j, font) in fonts.enumerated() {
                // Every size and alignment for some pairs, one of each for the rest.
                let sizesHere = (i + j) % 3 == 0 ? sizes : [sizes[(i + j) % sizes.count]]
                let alignsHere = (i + j) % 3 == 0 ? alignments : [alignments[(i * 3 + j) % alignments.count]]
                for size in sizesHere {
                    for alignment in alignsHere {
                        let text = TextContent(string: string, fontName: font, fontSize: size,
                                               color: RGBA(r: 0.2, g: 0.3, b: 0.4, a: 0.9), alignmentMode: alignment)
                        let line = try XCTUnwrap(PlainLine(text), string)
                        // Bounds narrower than the line and wider than it.
                        for width in [40.0, 2000.0] {
                            let what = "\"\(string)\" \(font) \(size) \(alignment) width \(width)"
                            let bounds = CGSize(width: width, height: 300)
                            let layout = try XCTUnwrap(TextShaper.layOut(text, size: bounds, plainLines: false), what)
                            guard let direct = PangoEngine.shared.withContext({ line.shape(width: bounds.width, $0) }) else {
                                // Declined: only where the layout needed more than one font.
                                XCTAssertGreaterThan(Set(layout.map(\.font.key)).count, 1, what)
                                declined += 1
                                continue
                            }
                            XCTAssertEqual(direct.count, layout.count, what)
                            for (a, b) in zip(direct, layout) {
                                XCTAssertEqual(a.font.key, b.font.key, "font, \(what)")
                                XCTAssertEqual(a.color, b.color, what)
                                XCTAssertEqual(a.glyphs, b.glyphs, "glyphs, \(what)")
                                XCTAssertEqual(a.xs, b.xs, "x, \(what)")
                                XCTAssertEqual(a.ys, b.ys, "y, \(what)")
                            }
                            compared += 1
                        }
                    }
                }
            }
        }
        XCTAssertGreaterThan(compared, 300)
        XCTAssertLessThan(declined, compared / 10)
    }

    /// Lines built from shaped words (WordShapes) are the lines shaped whole, glyph for glyph and
    /// position for position, and the layout's: lines that share most of their words with lines
    /// before them (cache hits), in fonts with kerning and ligatures, runs of several spaces.
    func testLinesFromShapedWordsAreTheLinesShapedWhole() throws {
        var rng = SplitMix(seed: 29)
        let words = ["The", "quick", "brown", "fox", "AVAWAY", "To", "Ty", "office", "waffle", "fjord", "Ærø", "Łódź",
                     "0123", "42:", "(x)", "-", "W.", "Yo,", "LT", "P."]
        var fromWords = 0
        for font in ["DejaVu Sans", "DejaVu Serif", "DejaVuSans-Bold", "DejaVu Sans Mono"] {
            for size: CGFloat in [9, 24, 61.5] {
                for _ in 0..<12 {
                    var string = ""
                    for k in 0..<Int.random(in: 1...9, using: &rng) {
                        if k > 0 || Bool.random(using: &rng) { string += String(repeating: " ", count: Int.random(in: 1...3, using: &rng)) }
                        string += words.randomElement(using: &rng)!
                    }
                    if Bool.random(using: &rng) { string += " " }
                    let text = TextContent(string: string, fontName: font, fontSize: size, alignmentMode: .center)
                    let line = try XCTUnwrap(PlainLine(text), string)
                    let what = "\"\(string)\" \(font) \(size)"
                    let (cached, whole, usesWords) = PangoEngine.shared.withContext { h in
                        (line.shape(width: 900, h), line.shape(width: 900, h, useWordShapes: false),
                         h.plainLineFonts.entry(font, size, PANGO_SCRIPT_LATIN, h)?.wordShapes(script: PANGO_SCRIPT_LATIN) != nil)
                    }
                    let layout = try XCTUnwrap(TextShaper.layOut(text, size: CGSize(width: 900, height: 200), plainLines: false), what)
                    let a = try XCTUnwrap(cached, what), b = try XCTUnwrap(whole, what)
                    XCTAssertEqual(a.map(\.glyphs), b.map(\.glyphs), "glyphs, \(what)")
                    XCTAssertEqual(a.map(\.xs), b.map(\.xs), "x, \(what)")
                    XCTAssertEqual(a.map(\.ys), b.map(\.ys), "y, \(what)")
                    XCTAssertEqual(a.map(\.glyphs), layout.map(\.glyphs), "glyphs against the layout, \(what)")
                    XCTAssertEqual(a.map(\.xs), layout.map(\.xs), "x against the layout, \(what)")
                    XCTAssertEqual(a.map(\.ys), layout.map(\.ys), "y against the layout, \(what)")
                    if usesWords { fromWords += 1 }
                }
            }
        }
        // These fonts' Latin shaping never meets the space: every line came from shaped words.
        XCTAssertEqual(fromWords, 4 * 3 * 12)
    }

    /// A font whose shaping plan reads the space is refused: DejaVu Sans's Arabic ligature lookup
    /// has the space among its glyphs, its Latin plan does not.
    func testFontsWhoseShapingMeetsTheSpaceAreShapedWhole() throws {
        let checks = PangoEngine.shared.withContext { h -> (latin: Bool, arabic: Bool)? in
            guard let entry = h.plainLineFonts.entry("DejaVu Sans", 24, PANGO_SCRIPT_LATIN, h) else { return nil }
            return (WordShapes.spaceIsInert(font: entry.font, script: PANGO_SCRIPT_LATIN, language: entry.language),
                    WordShapes.spaceIsInert(font: entry.font, script: PANGO_SCRIPT_ARABIC, language: nil))
        }
        let (latin, arabic) = try XCTUnwrap(checks)
        XCTAssertTrue(latin)
        XCTAssertFalse(arabic)
    }

    /// The legacy 'kern' table: format 0 pairs are searched for the space; other forms refused.
    func testKernTablesArePairsWithoutTheSpace() {
        func table(version: Int = 0, subtables: [(format: Int, pairs: [(Int, Int)])], truncate: Int = 0) -> [UInt8] {
            func u16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xff), UInt8(v & 0xff)] }
            var out = u16(version) + u16(subtables.count)
            for s in subtables {
                out += u16(0) + u16(14 + 6 * s.pairs.count) + u16(s.format << 8 | 1) + u16(s.pairs.count) + u16(0) + u16(0) + u16(0)
                for (l, r) in s.pairs { out += u16(l) + u16(r) + u16(0xFFB0) }
            }
            return Array(out.dropLast(truncate))
        }
        func spare(_ bytes: [UInt8], _ glyph: UInt32 = 3) -> Bool { bytes.withUnsafeBufferPointer { WordShapes.kernPairsSpare($0, glyph: glyph) } }
        let pairs = [(36, 55), (55, 36), (60, 17)]
        XCTAssertTrue(spare(table(subtables: [(0, pairs)])))
        XCTAssertTrue(spare(table(subtables: [])))
        XCTAssertFalse(spare(table(subtables: [(0, pairs + [(3, 36)])])), "space on the left")
        XCTAssertFalse(spare(table(subtables: [(0, pairs), (0, [(55, 3)])])), "space on the right, second subtable")
        XCTAssertTrue(spare(table(subtables: [(0, pairs + [(3, 36)])]), 4), "another glyph")
        XCTAssertFalse(spare(table(subtables: [(2, pairs)])), "format 2")
        XCTAssertFalse(spare(table(version: 1, subtables: [(0, pairs)])), "Apple's version")
        XCTAssertFalse(spare(table(subtables: [(0, pairs)], truncate: 2)), "truncated")
    }

    func testWhatTheLineCannotVouchForGoesToTheLayout() {
        let plain = TextContent(string: "plain", fontName: "DejaVu Sans", fontSize: 20)
        XCTAssertNotNil(PlainLine(plain))
        func variant(_ change: (inout TextContent) -> Void) -> TextContent { var t = plain; change(&t); return t }
        let refused: [(String, TextContent)] = [
            ("two lines", TextContent(string: "two\nlines", fontName: "DejaVu Sans", fontSize: 20)),
            ("a tab", TextContent(string: "a\tb", fontName: "DejaVu Sans", fontSize: 20)),
            ("right to left", TextContent(string: "abc שלום", fontName: "DejaVu Sans", fontSize: 20)),
            ("an emoji", TextContent(string: "ok 👍", fontName: "DejaVu Sans", fontSize: 20)),
            ("a soft hyphen", TextContent(string: "soft\u{AD}hyphen", fontName: "DejaVu Sans", fontSize: 20)),
            ("empty", TextContent(string: "", fontName: "DejaVu Sans", fontSize: 20)),
            ("wrapped", variant { $0.isWrapped = true }),
            ("truncated", variant { $0.truncationMode = .end }),
            ("kerned", variant { $0.runs[0].kern = 2 }),
            ("underlined", variant { $0.runs[0].underline = .single }),
            ("two runs", variant { $0.runs.append($0.runs[0]) }),
        ]
        for (what, text) in refused { XCTAssertNil(PlainLine(text), what) }
    }

    /// A line whose characters the first font lacks is left to the layout (font fallback), and the
    /// shaper's result is still the layout's.
    func testFallbackFontsGoToTheLayout() throws {
        // DejaVu Sans Mono has no 'ȸ'..'ɏ' beyond a few; find a letter it lacks in the range.
        let text = TextContent(string: "Mono ɂ ɇ ɋ ɏ", fontName: "DejaVu Sans Mono", fontSize: 20)
        let line = try XCTUnwrap(PlainLine(text))
        let direct = PangoEngine.shared.withContext { line.shape(width: 500, $0) }
        let layout = TextShaper.layOut(text, size: CGSize(width: 500, height: 100), plainLines: false)
        if let direct {
            // The font has them all: then the two must agree.
            XCTAssertEqual(direct.map(\.glyphs), layout?.map(\.glyphs))
            XCTAssertEqual(direct.map(\.xs), layout?.map(\.xs))
        }
        XCTAssertEqual(TextShaper.layOut(text, size: CGSize(width: 500, height: 100))?.map(\.glyphs), layout?.map(\.glyphs))
    }

    /// A plain line's script, found without Pango's script iterator, is the one script run the
    /// iterator finds: for every character a plain line may hold, alone, after a letter, before
    /// one and between brackets, and for the lines above.
    func testAPlainLinesScriptIsTheScriptIterators() throws {
        var scalars = (0x20...0x7E).map { Unicode.Scalar(UInt8($0)) }
        scalars += (0xC0...0x24F).compactMap { $0 == 0xD7 || $0 == 0xF7 ? nil : Unicode.Scalar(UInt32($0)) }
        var lines = strings
        for u in scalars {
            let c = String(Character(u))
            lines += [c, "a" + c, c + "a", "(" + c + ")", "1 " + c + " [2]", "\"" + c + "\" \u{C9}"]
        }
        for string in lines {
            let line = try XCTUnwrap(PlainLine(TextContent(string: string, fontName: "DejaVu Sans", fontSize: 12)), string)
            var script = PANGO_SCRIPT_INVALID_CODE
            var runs = 0
            string.withCString { bytes in
                let iter = pango_script_iter_new(bytes, Int32(string.utf8.count))!
                defer { pango_script_iter_free(iter) }
                repeat {
                    pango_script_iter_get_range(iter, nil, nil, &script)
                    runs += 1
                } while pango_script_iter_next(iter) != 0
            }
            XCTAssertEqual(runs, 1, "one script run: \(string)")
            XCTAssertEqual(line.script, script, string)
        }
    }

    /// A line that changes every frame is shaped into the storage of lines dropped two frames
    /// before, and comes out as shaped afresh; lines that do not change stay cached.
    func testLinesShapedIntoDroppedLinesStorageAreShapedAsAfresh() throws {
        let shaper = TextShaper()
        let size = CGSize(width: 600, height: 40)
        let still = TextContent(string: "A title that stays", fontName: "DejaVu Sans", fontSize: 20)
        var sawSpare = false
        for frame in 0..<12 {
            // Lines of different lengths: kept storage is sometimes too small, sometimes larger.
            let string = "Frame \(frame) " + String(repeating: "ab ", count: (frame * 7) % 5)
            let text = TextContent(string: string, fontName: "DejaVu Serif", fontSize: 17)
            sawSpare = sawSpare || shaper.spareCount > 0
            let runs = try XCTUnwrap(shaper.shape(text, size: size))
            let fresh = try XCTUnwrap(TextShaper.layOut(text, size: size))
            XCTAssertEqual(runs.count, fresh.count, string)
            XCTAssertEqual(runs.map(\.glyphs), fresh.map(\.glyphs), string)
            XCTAssertEqual(runs.map(\.font.key), fresh.map(\.font.key), string)
            let title = try XCTUnwrap(shaper.shape(still, size: size))
            XCTAssertEqual(title.map(\.glyphs), try XCTUnwrap(TextShaper.layOut(still, size: size)).map(\.glyphs))
            shaper.endFrame()
        }
        XCTAssertTrue(sawSpare, "dropped lines' storage was kept")
    }
}
