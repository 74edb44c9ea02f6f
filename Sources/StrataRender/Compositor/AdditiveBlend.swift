// Additive blending for the particles of an emitter in `.additive` render mode: the item's
// premultiplied colour is added to the tile, saturating at 1 per component, so overlapping sparks
// brighten towards white (Core Animation's `kCAEmitterLayerAdditive`). A plain scalar loop beside
// `TileRasterizer.scan` (no interior runs, no opaque shortcut: adding is never a replacement);
// the result depends only on the item and the pixel, like every other op, so tiles and workers
// agree. Addition is commutative, but the sum is rounded in Float in drawing order, which the
// display list fixes: the bytes never depend on the tile or thread.
import Foundation
import StrataCore

extension TileRasterizer {
    /// `dst = min(src·coverage + dst, 1)`.
    @inline(__always)
    static func add(_ src: SIMD4<Float>, into dst: inout SIMD4<Float>) {
        dst = (src + dst).replacing(with: 1, where: src + dst .> 1)
    }

    /// The pixels between the item's screen edges, each mapped into the layer plane, shaded,
    /// multiplied by coverage and the ancestors' clips, and added.
    static func scanAdditive<S: PixelShader>(_ item: DrawItem, _ r: PixelRect, _ buf: inout TileBuffer, _ shader: S) {
        let mapper = PixelMapper(item.plane.fromScreen)
        let hasClips = !item.clips.isEmpty
        let clipMappers = item.clips.map { PixelMapper($0.plane.fromScreen) }
        buf.withPixels { px in
            for y in r.y0..<r.y1 {
                let (x0, x1) = item.outline?.span(row: y, r.x0, r.x1) ?? (r.x0, r.x1)
                for x in x0..<x1 {
                    guard let p = mapper.map(x, y) else { continue }
                    var c = shader.cover(p)
                    if c == 0 { continue }
                    if hasClips { c *= clipCoverage(item.clips, clipMappers, x, y); if c == 0 { continue } }
                    var d = px[x, y]
                    add(shader.shade(p, x, y) * c, into: &d)
                    px[x, y] = d
                }
            }
        }
    }
}
