// Glyph masks placed at whole pixels of the screen (their quarter-pixel phase is in the mask),
// the payload of a text run drawn straight into the tiles. Made by the display-list builder from
// shaped text (TextShaper) and the glyph cache; each tile draws the glyphs that reach it, one
// after the other, through the span kernel.
import Foundation
import StrataCore
import CStrataKernels

/// Positioned glyph masks of one colour.
// @unchecked: immutable; `glyphs` holds C pointers into the coverage of `masks`, which this object
// keeps alive and nobody writes after the mask is made.
public final class PlacedGlyphs: @unchecked Sendable {
    /// The masks, kept alive while the glyphs point at them.
    let masks: [GlyphMask]
    /// As the kernel reads them: position, size and coverage of each mask.
    let glyphs: [strata_glyph]
    /// The pixels the glyphs cover.
    let bounds: PixelRect

    init(masks: [GlyphMask], xs: [Int], ys: [Int]) {
        self.masks = masks
        var glyphs: [strata_glyph] = []
        glyphs.reserveCapacity(masks.count)
        var b = PixelRect.empty
        for (i, m) in masks.enumerated() where m.width > 0 && m.height > 0 {
            glyphs.append(strata_glyph(x: Int32(xs[i]), y: Int32(ys[i]), w: Int32(m.width), h: Int32(m.height),
                                       mask: UnsafePointer(m.coverage.baseAddress)))
            b = b.union(PixelRect(x0: xs[i], y0: ys[i], x1: xs[i] + m.width, y1: ys[i] + m.height))
        }
        self.glyphs = glyphs
        bounds = b
    }

    /// Adds what drawing reads: each glyph's mask (by serial) and position.
    func fingerprint(into w: inout FingerprintWriter) {
        w.add(glyphs.count)
        var k = 0
        for m in masks where m.width > 0 && m.height > 0 {
            w.add(m.serial); w.add(Int(glyphs[k].x)); w.add(Int(glyphs[k].y))
            k += 1
        }
    }
}
