// Glyph masks placed at whole pixels of the screen (their quarter-pixel phase is in the mask),
// the payload of a text run drawn straight into the tiles. Made by the display-list builder from
// shaped text (TextShaper) and the glyph cache; each tile draws the glyphs that reach it, one
// after the other, through the span kernel.
import Foundation
import StrataCore
import CStrataKernels

// @unchecked: written by `init` or by `replace`, which the display-list builder calls again only
// when nothing else holds the object (RecycledObjects), before handing it on; `glyphs` holds C
// pointers into the coverage of `masks`, which this object keeps alive and nobody writes after
// the mask is made.
/// Positioned glyph masks of one colour.
public final class PlacedGlyphs: Recyclable, @unchecked Sendable {
    // Not checked for exclusivity at run time (written only as above; the tile workers read them).
    /// The masks, kept alive while the glyphs point at them.
    @exclusivity(unchecked) private(set) var masks: [GlyphMask] = []
    /// As the kernel reads them: position, size and coverage of each mask.
    @exclusivity(unchecked) private(set) var glyphs: [strata_glyph] = []
    /// The pixels the glyphs cover.
    @exclusivity(unchecked) private(set) var bounds = PixelRect.empty

    /// Up to `count` glyphs, each placed by `place` (nil leaves it out): its mask and the screen
    /// pixel of the mask's top-left corner. (Placed one by one, without arrays of positions:
    /// those were two allocations a run a frame.)
    init(count: Int, _ place: (Int) -> (mask: GlyphMask, x: Int, y: Int)?) {
        replace(count: count, place)
    }

    /// Glyphs as `init` places them, from `recycled`'s free objects when it has one (its arrays'
    /// storage kept).
    static func make(count: Int, from recycled: RecycledObjects<PlacedGlyphs>,
                     _ place: (Int) -> (mask: GlyphMask, x: Int, y: Int)?) -> PlacedGlyphs {
        recycled.object(settingUp: { $0.replace(count: count, place) }, else: { PlacedGlyphs(count: count, place) })
    }

    /// Lets go of the masks, keeping the arrays' storage (RecycledObjects).
    func becameFree() {
        masks.removeAll(keepingCapacity: true)
        glyphs.removeAll(keepingCapacity: true)
        bounds = .empty
    }

    /// Replaces the glyphs with those `init(count:_:)` places.
    private func replace(count: Int, _ place: (Int) -> (mask: GlyphMask, x: Int, y: Int)?) {
        becameFree()
        masks.reserveCapacity(count)
        glyphs.reserveCapacity(count)
        var b = PixelRect.empty
        for i in 0..<count {
            guard let (m, x, y) = place(i) else { continue }
            masks.append(m)
            guard m.width > 0 && m.height > 0 else { continue }
            glyphs.append(strata_glyph(x: Int32(x), y: Int32(y), w: Int32(m.width), h: Int32(m.height),
                                       mask: UnsafePointer(m.coverage.baseAddress)))
            b = b.union(PixelRect(x0: x, y0: y, x1: x + m.width, y1: y + m.height))
        }
        bounds = b
    }

    /// The masks with the screen pixels of their top-left corners.
    convenience init(masks: [GlyphMask], xs: [Int], ys: [Int]) {
        self.init(count: masks.count) { (masks[$0], xs[$0], ys[$0]) }
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
