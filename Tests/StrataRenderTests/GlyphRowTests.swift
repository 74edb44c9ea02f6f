// strata_draw_glyphs gathers the glyphs' mask rows of a tile row into one mask and draws it with
// one segment, except where two glyphs both have coverage at a pixel: there they must be blended
// one after the other. Checked against drawing the same glyphs one call each (which blends them
// one by one), byte for byte, with glyphs that overlap with and without coverage in common,
// cross the tile's edges, and pass through a rotated clip, for every lane width.
import XCTest
import CStrataKernels
import StrataTestSupport
@testable import StrataRender

final class GlyphRowTests: XCTestCase {
    private let tileX: Int32 = 32, tileY: Int32 = 16, width = 64, height = 48

    /// Random glyph masks around and across the tile: about a third of their pixels 0, and
    /// rectangles that overlap their neighbours' by up to a few pixels, as letters' do.
    private func glyphMasks(_ rng: inout SplitMix, count: Int) -> [(x: Int32, y: Int32, w: Int32, h: Int32, mask: [Float])] {
        var x = Int32(20)
        return (0..<count).map { i in
            let w = Int32.random(in: 1...14, using: &rng), h = Int32.random(in: 1...12, using: &rng)
            let y = Int32(8 + (i % 5) * 12) + Int32.random(in: -3...3, using: &rng)
            x += Int32.random(in: -4...9, using: &rng)
            if x > 110 { x = 20 }
            let mask = (0..<Int(w * h)).map { _ in Float.random(in: 0..<1, using: &rng) < 0.35 ? 0 : Float.random(in: 0.01...1, using: &rng) }
            return (x, y, w, h, mask)
        }
    }

    private let tailSentinel: Float = 12345

    private func tile(_ rng: inout SplitMix) -> [Float] {
        // The kernels' steps may reach STRATA_SPAN_TAIL floats past the last row (which must be
        // left as they were: `tailSentinel`).
        var planes = [Float](repeating: tailSentinel, count: width * height * 4 + Int(STRATA_SPAN_TAIL))
        for i in 0..<(width * height) {
            let a = Float.random(in: 0...1, using: &rng)
            planes[3 * width * height + i] = a
            for c in 0..<3 { planes[c * width * height + i] = Float.random(in: 0...a, using: &rng) }
        }
        return planes
    }

    private func draw(_ glyphs: [(x: Int32, y: Int32, w: Int32, h: Int32, mask: [Float])], together: Bool, clipped: Bool,
                      over start: [Float], lanes: strata_lanes) -> [Float] {
        var planes = start
        var item = strata_item()
        item.map = SpanKernel.strataMap(.identity)
        item.cover = STRATA_COVER_NONE
        item.paint = STRATA_PAINT_SOLID
        item.color = (0.3, 0.1, 0.45, 0.6)
        item.opacity = 1
        // A rounded rectangle turned by 30° about (60, 40): screen to its plane.
        let c = cos(Double.pi / 6), s = sin(Double.pi / 6)
        var clip = strata_clip()
        clip.map = SpanKernel.strataMap(Homography(c, -s, 0, s, c, 0, -60 * c - 40 * s, 60 * s - 40 * c, 1))
        clip.shape = strata_rrect(cu: 0, cv: 0, hw: 34, hh: 18, r: (6, 6, 6, 6))
        clip.antialiased = 1
        // Every glyph's mask in one buffer, so that the glyphs' pointers stay valid while it is open.
        var masks: [Float] = []
        for g in glyphs { masks.append(contentsOf: g.mask) }
        // Each mask is followed by STRATA_GLYPH_TAIL readable floats, and the scratch row has
        // that many past the tile's width (the kernel's sixteen-lane steps reach that far).
        masks.append(contentsOf: [Float](repeating: 0, count: Int(STRATA_GLYPH_TAIL)))
        var scratch = [Float](repeating: 0, count: width + max(Int(STRATA_SPAN_TAIL), Int(STRATA_GLYPH_TAIL)))
        masks.withUnsafeBufferPointer { all in
            var placed: [strata_glyph] = []
            var offset = 0
            for g in glyphs {
                let mask: UnsafePointer<Float> = all.baseAddress! + offset
                placed.append(strata_glyph(x: g.x, y: g.y, w: g.w, h: g.h, mask: mask))
                offset += g.mask.count
            }
            withUnsafePointer(to: clip) { clipPtr in
                if clipped { item.clips = clipPtr; item.clipCount = 1 }
                planes.withUnsafeMutableBufferPointer { px in
                    let x0 = tileX, y0 = tileY, x1 = tileX + Int32(width), y1 = tileY + Int32(height)
                    placed.withUnsafeBufferPointer { glyphPtr in
                        if together {
                            strata_draw_glyphs(&item, px.baseAddress!, width, width * height, tileX, tileY, glyphPtr.baseAddress,
                                               glyphPtr.count, x0, y0, x1, y1, &scratch, lanes)
                        } else {
                            for g in glyphPtr.indices {
                                strata_draw_glyphs(&item, px.baseAddress!, width, width * height, tileX, tileY, glyphPtr.baseAddress! + g,
                                                   1, x0, y0, x1, y1, &scratch, lanes)
                            }
                        }
                    }
                }
            }
        }
        return planes
    }

    func testGlyphsGatheredPerRowBlendLikeOneByOne() {
        let lanes = kernelInstantiations()
        var rng = SplitMix(seed: 11)
        var changed = 0
        for trial in 0..<12 {
            let glyphs = glyphMasks(&rng, count: 10 + 6 * trial)
            let start = tile(&rng)
            for clipped in [false, true] {
                for l in lanes {
                    let one = draw(glyphs, together: false, clipped: clipped, over: start, lanes: l)
                    let together = draw(glyphs, together: true, clipped: clipped, over: start, lanes: l)
                    let differ = zip(one, together).filter { $0.bitPattern != $1.bitPattern }.count
                    XCTAssertEqual(differ, 0, "trial \(trial), clipped \(clipped), lanes \(l.rawValue): floats that differ")
                    changed += zip(one, start).filter { $0 != $1 }.count
                    for planes in [one, together] {
                        XCTAssertEqual(Array(planes[(4 * width * height)...]), [Float](repeating: tailSentinel, count: Int(STRATA_SPAN_TAIL)),
                                       "lanes \(l.rawValue): the floats past the last row")
                    }
                    // Every instantiation gives the bytes of the scalar one.
                    let scalar = draw(glyphs, together: true, clipped: clipped, over: start, lanes: STRATA_LANES_SCALAR)
                    XCTAssertEqual(zip(together, scalar).filter { $0.bitPattern != $1.bitPattern }.count, 0, "lanes \(l.rawValue) against scalar")
                }
            }
        }
        // The glyphs did draw (a comparison of untouched tiles would prove nothing).
        XCTAssertGreaterThan(changed, 10_000)
    }
}
