// RecentGlyphs, the display-list builder's table of the glyph masks it looked up: whatever it
// holds, it hands out the mask the glyph cache holds for the same font, scale, glyph and phase —
// across fonts, sizes, phases and the slots they share — and two wrappers of one Cairo font share
// entries.
import XCTest
import StrataCore
@testable import StrataRender

final class RecentGlyphsTests: XCTestCase {
    /// The shaped runs of `string` in `font` at `size` points.
    private func runs(_ string: String, font: String, size: CGFloat) throws -> [ShapedRun] {
        let text = TextContent(string: string, fontName: font, fontSize: size)
        let runs = try XCTUnwrap(TextShaper.layOut(text, size: CGSize(width: 2000, height: 200)), "\(font) \(size)")
        XCTAssertFalse(runs.isEmpty)
        return runs
    }

    func testHandsOutTheCachesMaskForEveryKey() throws {
        let cache = GlyphCache(), table = RecentGlyphs()
        var lookups: [(ShapedFont, UInt32)] = []
        for (font, size) in [("DejaVu Sans", 16.0), ("DejaVu Serif", 16.0), ("DejaVu Sans", 24.0)] {
            for run in try runs("Hamburgefonstiv 0123456789 WAVE", font: font, size: size) {
                for g in run.glyphs { lookups.append((run.font, g.id)) }
            }
        }
        // 3 fonts × ~30 glyphs × 4 phases × 2 scales: more keys than the table's slots hold apart,
        // so entries replace each other; each pass asks every key again.
        XCTAssertGreaterThan(lookups.count * 8, RecentGlyphs.slots / 4)
        for pass in 0..<3 {
            for (font, glyph) in lookups {
                for phase in 0..<GlyphCache.phases {
                    for scale in [1.0, 2.0] {
                        let fromTable = table.mask(font, scale: scale, glyph: glyph, phaseX: phase, phaseY: 0, in: cache)
                        let fromCache = cache.mask(font, scale: scale, glyph: glyph, phaseX: phase, phaseY: 0)
                        XCTAssertTrue(fromTable === fromCache, "pass \(pass): glyph \(glyph) phase \(phase) scale \(scale)")
                    }
                }
            }
        }
    }

    func testWrappersOfOneCairoFontShareEntriesAndOtherFontsDoNot() throws {
        let cache = GlyphCache(), table = RecentGlyphs()
        let sans = try runs("a", font: "DejaVu Sans", size: 20)[0]
        let serif = try runs("a", font: "DejaVu Serif", size: 20)[0]
        // Another wrapper of the same Cairo font, as a layout's runs make one each (plain lines
        // share one a font).
        let again = ShapedFont(retaining: sans.font.scaledFont)
        XCTAssertFalse(sans.font === again)
        XCTAssertEqual(sans.font.key, again.key)
        XCTAssertNotEqual(sans.font.key, serif.font.key)
        let first = table.mask(sans.font, scale: 1, glyph: sans.glyphs[0].id, phaseX: 1, phaseY: 0, in: cache)
        let shared = table.mask(again, scale: 1, glyph: sans.glyphs[0].id, phaseX: 1, phaseY: 0, in: cache)
        XCTAssertTrue(first === shared)
        let other = table.mask(serif.font, scale: 1, glyph: serif.glyphs[0].id, phaseX: 1, phaseY: 0, in: cache)
        XCTAssertFalse(other === first)
        XCTAssertTrue(other === cache.mask(serif.font, scale: 1, glyph: serif.glyphs[0].id, phaseX: 1, phaseY: 0))
        // Another phase of the same glyph is another mask, shifted by a quarter pixel.
        let shifted = table.mask(sans.font, scale: 1, glyph: sans.glyphs[0].id, phaseX: 3, phaseY: 0, in: cache)
        XCTAssertFalse(shifted === first)
        XCTAssertNotEqual(Array(shifted.coverage), Array(first.coverage))
    }
}
