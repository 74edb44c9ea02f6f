// Additive blending for the particles of an emitter in `.additive` render mode: the item's
// premultiplied colour is added to the tile, saturating at 1 per component, so overlapping sparks
// brighten towards white (Core Animation's `kCAEmitterLayerAdditive`). Drawn by `TileRasterizer.scan`
// with `additive` (no interior runs, no opaque shortcut: adding is never a replacement);
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
}
