// A tile's working pixels: premultiplied RGBA floats (0…1) in four planes (R, G, B, A), so that
// the span kernels read and write eight or sixteen pixels of one channel with one vector load or
// store. Rows are padded to a multiple of eight floats, and the planes end with STRATA_SPAN_TAIL
// floats more (a sixteen-lane step starting eight floats before a row's end reaches past it); the
// padding is never stored to a frame. A scratch row for the shape and glyph kernels follows.
import Foundation
import StrataCore
import CStrataKernels

/// A tile's pixels while it is being drawn.
struct TileBuffer {
    let rect: PixelRect
    let width: Int, height: Int
    /// Floats from one row to the next within a plane (the width rounded up to 8).
    let stride: Int
    /// R, G, B and A planes, `plane` floats each.
    var planes: [Float]

    /// Floats from one plane to the next: its rows and a cache line (TileBuffer.planeGap).
    var plane: Int { stride * height + TileBuffer.planeGap }

    /// Floats between one plane's last row and the next plane: one cache line, so that a pixel's
    /// four channels do not lie a power of two apart (64 KiB in a tile of the default size), in
    /// one set of the caches.
    static let planeGap = 16

    /// The planes' length: four planes, the floats a span kernel's last step may reach past the
    /// last row (STRATA_SPAN_TAIL; never stored to a frame), then a scratch row
    /// (`withPlanesAndScratch`).
    static func count(stride: Int, height: Int) -> Int {
        4 * (stride * height + planeGap) + Int(STRATA_SPAN_TAIL) + scratchCount(stride: stride)
    }

    /// Floats of the scratch row: a row and the tail either kernel may read past it.
    private static func scratchCount(stride: Int) -> Int { stride + max(Int(STRATA_SPAN_TAIL), Int(STRATA_GLYPH_TAIL)) }

    /// Runs `body` with the planes and the scratch row, zeroed: a row of floats a shape's or
    /// glyphs' kernel gathers its coverage in, kept after the planes so that it comes from their
    /// pool — a temporary allocation of a wide tile's row was a heap allocation, not stack (over
    /// a kilobyte), for every shape in every tile.
    mutating func withPlanesAndScratch<R>(_ body: (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>) -> R) -> R {
        let at = 4 * plane + Int(STRATA_SPAN_TAIL), n = TileBuffer.scratchCount(stride: stride)
        return planes.withUnsafeMutableBufferPointer { px in
            let scratch = px.baseAddress! + at
            scratch.update(repeating: 0, count: n)
            return body(px.baseAddress!, scratch)
        }
    }

    /// A transparent buffer.
    init(rect: PixelRect) {
        self.rect = rect
        width = max(0, rect.x1 - rect.x0); height = max(0, rect.y1 - rect.y0)
        stride = (width + 7) & ~7
        planes = [Float](repeating: 0, count: TileBuffer.count(stride: stride, height: height))
    }

    /// A transparent buffer from the pool (give it back with `recycle()`).
    init(pooled rect: PixelRect) {
        self.rect = rect
        width = max(0, rect.x1 - rect.x0); height = max(0, rect.y1 - rect.y0)
        stride = (width + 7) & ~7
        planes = PlanePool.shared.takeZeroed(TileBuffer.count(stride: stride, height: height))
    }

    /// A transparent buffer from `pool` in an array whose length is the buffer's float count
    /// rounded up to a power of two (only the buffer's own floats are zeroed): the buffers of
    /// rectangles of many sizes (groups and masks, each clipped to a tile) then share a few
    /// lengths in the pool instead of keeping one each. Give it back with `recycle(to:)`.
    init(pooled rect: PixelRect, roundedFrom pool: PlanePool) {
        self.rect = rect
        width = max(0, rect.x1 - rect.x0); height = max(0, rect.y1 - rect.y0)
        stride = (width + 7) & ~7
        let count = TileBuffer.count(stride: stride, height: height)
        planes = pool.take(1 << (Int.bitWidth - (count - 1).leadingZeroBitCount))
        planes.withUnsafeMutableBufferPointer { $0.baseAddress!.update(repeating: 0, count: count) }
    }

    /// Gives the planes back to `pool`.
    mutating func recycle(to pool: PlanePool) { pool.give(&planes) }

    /// A pooled buffer starting as a copy of `planes` (a kept state of the same rectangle).
    init(pooled rect: PixelRect, copying planes: [Float]) {
        self.rect = rect
        width = max(0, rect.x1 - rect.x0); height = max(0, rect.y1 - rect.y0)
        stride = (width + 7) & ~7
        precondition(planes.count == TileBuffer.count(stride: stride, height: height), "planes of another rectangle")
        self.planes = PlanePool.shared.copy(planes)
    }

    /// Gives a pooled buffer's planes back.
    mutating func recycle() { PlanePool.shared.give(&planes) }

    /// A buffer whose contents are left as they come (every pixel will be written before it
    /// is read: an opaque item covers the whole tile).
    init(uninitialized rect: PixelRect) {
        self.rect = rect
        width = max(0, rect.x1 - rect.x0); height = max(0, rect.y1 - rect.y0)
        stride = (width + 7) & ~7
        planes = PlanePool.shared.take(TileBuffer.count(stride: stride, height: height))
    }

    /// A buffer starting from `planes` (a kept state of the same rectangle).
    init(rect: PixelRect, planes: [Float]) {
        self.rect = rect
        width = max(0, rect.x1 - rect.x0); height = max(0, rect.y1 - rect.y0)
        stride = (width + 7) & ~7
        precondition(planes.count == TileBuffer.count(stride: stride, height: height), "planes of another rectangle")
        self.planes = planes
    }

    /// The pixel at frame coordinates (x, y), inside `rect`.
    subscript(x: Int, y: Int) -> SIMD4<Float> {
        get {
            let i = (y - rect.y0) * stride + (x - rect.x0), p = plane
            return SIMD4(planes[i], planes[i + p], planes[i + 2 * p], planes[i + 3 * p])
        }
        set {
            let i = (y - rect.y0) * stride + (x - rect.x0), p = plane
            planes[i] = newValue.x; planes[i + p] = newValue.y; planes[i + 2 * p] = newValue.z; planes[i + 3 * p] = newValue.w
        }
    }

    /// The alpha of each pixel, row by row without padding.
    var alphas: [Float] {
        var out = [Float](repeating: 0, count: width * height)
        let a = 3 * plane
        for y in 0..<height { for x in 0..<width { out[y * width + x] = planes[a + y * stride + x] } }
        return out
    }

    /// The pixels of `part` (inside `rect`) as a buffer of their own.
    func cropped(to part: PixelRect) -> TileBuffer {
        var out = TileBuffer(uninitialized: part)
        let p = plane, q = out.plane
        let dx = part.x0 - rect.x0, dy = part.y0 - rect.y0
        planes.withUnsafeBufferPointer { src in
            out.planes.withUnsafeMutableBufferPointer { dst in
                for c in 0..<4 {
                    for y in 0..<out.height {
                        let s = c * p + (y + dy) * stride + dx, d = c * q + y * out.stride
                        (dst.baseAddress! + d).update(from: src.baseAddress! + s, count: out.width)
                    }
                }
            }
        }
        return out
    }

    /// Runs `body` with a view of the pixels for per-pixel code.
    mutating func withPixels<R>(_ body: (PlanarPixels) -> R) -> R {
        let r = rect, s = stride, p = plane
        return planes.withUnsafeMutableBufferPointer { body(PlanarPixels(base: $0.baseAddress!, rect: r, stride: s, plane: p)) }
    }
}

/// Planar pixels addressed by frame coordinates (valid inside `withPixels`).
struct PlanarPixels {
    let base: UnsafeMutablePointer<Float>
    let rect: PixelRect
    let stride: Int, plane: Int

    @inline(__always)
    subscript(x: Int, y: Int) -> SIMD4<Float> {
        get {
            let i = (y - rect.y0) * stride + (x - rect.x0)
            return SIMD4(base[i], base[i + plane], base[i + 2 * plane], base[i + 3 * plane])
        }
        nonmutating set {
            let i = (y - rect.y0) * stride + (x - rect.x0)
            base[i] = newValue.x; base[i + plane] = newValue.y; base[i + 2 * plane] = newValue.z; base[i + 3 * plane] = newValue.w
        }
    }
}
