// A plain line of text is shaped without a PangoLayout (PlainLine): its glyphs, fonts and
// positions must be exactly those the layout gives, and whatever the line's checks cannot vouch
// for must go to the layout.
import XCTest
import StrataCore
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
}
