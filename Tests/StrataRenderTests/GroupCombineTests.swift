// The offscreen group's blend eight pixels at a time (`TileRasterizer.combineGroup`) must give
// the bytes of the pixel-at-a-time reference (`combineGroupPerPixel`): every mask mode, with and
// without a mask, a group rectangle inside a larger tile at an odd offset and width (columns
// after the last whole eight), and pixels the reference skips (zero source alpha with colour
// left in it, zero coverage) left untouched.
import XCTest
import StrataCore
@testable import StrataRender

final class GroupCombineTests: XCTestCase {
    /// A buffer over `rect` filled from a fixed pseudo-random sequence: premultiplied pixels,
    /// a quarter of them fully transparent, some with colour left at zero alpha.
    private func filled(_ rect: PixelRect, seed: UInt64) -> TileBuffer {
        var b = TileBuffer(rect: rect)
        var state = seed
        func next() -> Float {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(state >> 40) / Float(1 << 24)
        }
        for y in rect.y0..<rect.y1 {
            for x in rect.x0..<rect.x1 {
                let pick = next()
                let a: Float = pick < 0.25 ? 0 : (pick < 0.4 ? 1 : next())
                let leftover: Float = pick < 0.1 ? 0.3 : 0   // colour with zero alpha (additive content)
                b[x, y] = SIMD4(next() * a + leftover, next() * a, next() * a, a)
            }
        }
        return b
    }

    private func bits(_ b: TileBuffer) -> [UInt32] {
        var out: [UInt32] = []
        for y in b.rect.y0..<b.rect.y1 {
            for x in b.rect.x0..<b.rect.x1 {
                let p = b[x, y]
                out += [p.x.bitPattern, p.y.bitPattern, p.z.bitPattern, p.w.bitPattern]
            }
        }
        return out
    }

    func testEightAtATimeGivesTheReferenceBytes() {
        let tile = PixelRect(x0: 64, y0: 32, x1: 128, y1: 64)
        let group = PixelRect(x0: 67, y0: 35, x1: 67 + 45, y1: 60)   // 45 columns: 5 × 8 and a tail of 5
        let sub = filled(group, seed: 1)
        let mask = filled(group, seed: 2)
        let modes: [MaskMode] = [.alpha, .alphaInverted, .luminance, .luminanceInverted]
        var cases = 0
        for opacity: Float in [1, 0.63, 0] {
            for m in [nil] + modes.map(Optional.some) {
                var reference = filled(tile, seed: 3), vectors = reference
                let original = bits(reference)
                TileRasterizer.combineGroupPerPixel(sub, mask: m == nil ? nil : mask, m ?? .alpha, opacity: opacity,
                                                    in: group, into: &reference)
                TileRasterizer.combineGroup(sub, mask: m == nil ? nil : mask, m ?? .alpha, opacity: opacity,
                                            in: group, into: &vectors)
                let want = bits(reference), got = bits(vectors)
                XCTAssertEqual(got.count, want.count)
                XCTAssertEqual(zip(got, want).filter { $0 != $1 }.count, 0,
                               "floats differing from the reference; mask \(m.map { "\($0)" } ?? "none"), opacity \(opacity)")
                // Not vacuous: the blend changed pixels inside the group, and only there.
                let changed = zip(want, original).filter { $0 != $1 }.count
                if opacity > 0 { XCTAssertGreaterThan(changed, 400, "mask \(String(describing: m)), opacity \(opacity)") }
                else { XCTAssertEqual(changed, 0) }
                var outside = 0
                for y in tile.y0..<tile.y1 {
                    for x in tile.x0..<tile.x1 where !((group.x0..<group.x1).contains(x) && (group.y0..<group.y1).contains(y)) {
                        let i = ((y - tile.y0) * (tile.x1 - tile.x0) + (x - tile.x0)) * 4
                        if got[i..<(i + 4)] != original[i..<(i + 4)] { outside += 1 }
                    }
                }
                XCTAssertEqual(outside, 0, "pixels outside the group changed")
                cases += 1
            }
        }
        XCTAssertEqual(cases, 15)
    }

    func testPooledBuffersComeBackTransparent() {
        // A rounded-up pooled buffer handed back dirty must come out zeroed over its own floats.
        let r = PixelRect(x0: 3, y0: 5, x1: 40, y1: 21)
        var a = TileBuffer(pooled: r, roundedFrom: Pools.groups)
        XCTAssertGreaterThanOrEqual(a.planes.count, TileBuffer.count(stride: a.stride, height: a.height))
        XCTAssertEqual(a.planes.count & (a.planes.count - 1), 0, "a power-of-two length")
        a.planes.withUnsafeMutableBufferPointer { $0.update(repeating: 0.5) }
        a.recycle(to: Pools.groups)
        let b = TileBuffer(pooled: r, roundedFrom: Pools.groups)
        for y in r.y0..<r.y1 { for x in r.x0..<r.x1 { XCTAssertEqual(b[x, y], SIMD4<Float>(repeating: 0)) } }
    }
}
