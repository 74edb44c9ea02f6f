// Stage 4, offscreen passes: items drawn into buffers of their own first, then combined into
// the tile — group opacity and masks, cross-fades, the faces of a 3D rendering context resolved
// by depth per pixel, and shadows blurred from their source.
import Foundation
import StrataCore

extension TileRasterizer {
    /// Group opacity, masks and blend modes: the group drawn offscreen, blended at the opacity
    /// times the mask's coverage (its alpha, or by its `maskMode` one minus the alpha, its
    /// luminance over black, or one minus that), with the layer's blend mode (`blend`).
    /// A group with effects (`list.effects`) is drawn with them (GroupEffects.swift), its pixels
    /// then multiplied by the coverage of `clips` (the item's: a blur spreads beyond its items' clips).
    static func drawGroup(_ list: DisplayList, opacity: Float, mask: DisplayList?, blend: ItemBlendMode = .sourceOver,
                          clips: [ClipShape] = [], in r: PixelRect, into buf: inout TileBuffer, _ settings: DrawSettings) {
    // Buffers from a pool of their own: a group's are made for every group in every tile of
    // every frame, and fresh ones were a heap allocation and page faults each (rlottie's
    // like.json at 1080p, 50 frames with --hash-frames: 0.31 s → 0.14 s). In the tiles' pool,
    // by each group rectangle's own length, they kept up to its 32 MiB (+17 MB peak RSS).
    let plain = list.effects.isEmpty
    var sub = plain ? TileBuffer(pooled: r, roundedFrom: Pools.groups) : effectGroup(list, clips: clips, in: r, settings)
    defer { if plain { sub.recycle(to: Pools.groups) } else { sub.recycle() } }
    if plain { draw(list, into: &sub, settings) }
    var maskBuffer: TileBuffer?
    let mode = mask?.maskMode ?? .alpha
    if let mask {
        var m = TileBuffer(pooled: r, roundedFrom: Pools.groups)
        draw(mask, into: &m, settings)
        maskBuffer = m
    }
    defer { maskBuffer?.recycle(to: Pools.groups) }
    if case .blend(let m) = blend, m != .normal {
        // Both paths (span kernels on or off) composite by the same code here: the same bytes.
        LayerBlend.combine(sub, mask: maskBuffer, mode, opacity: opacity, blend: m, in: r, into: &buf)
    } else if settings.spanKernels {
        combineGroup(sub, mask: maskBuffer, mode, opacity: opacity, in: r, into: &buf)
    } else {
        combineGroupPerPixel(sub, mask: maskBuffer, mode, opacity: opacity, in: r, into: &buf)
    }
    }

    /// Blends a group's buffer (`sub`, whose rectangle is `r`) into `buf` at the opacity times
    /// the mask's coverage, eight pixels at a time (`combineGroupRows`); the same bytes as
    /// `combineGroupPerPixel`.
    static func combineGroup(_ sub: TileBuffer, mask maskBuffer: TileBuffer?, _ mode: MaskMode, opacity: Float,
                             in r: PixelRect, into buf: inout TileBuffer) {
        buf.withPixels { px in
            sub.planes.withUnsafeBufferPointer { s in
                let source = PlanarRows(base: s.baseAddress!, stride: sub.stride, plane: sub.plane)
                if let m = maskBuffer {
                    m.planes.withUnsafeBufferPointer { mp in
                        combineGroupRows(source, mask: PlanarRows(base: mp.baseAddress!, stride: m.stride, plane: m.plane),
                                         mode, opacity: opacity, in: r, into: px)
                    }
                } else {
                    combineGroupRows(source, mask: nil, mode, opacity: opacity, in: r, into: px)
                }
            }
        }
    }

    /// The reference path of `combineGroup` (span kernels off): a pixel at a time.
    static func combineGroupPerPixel(_ sub: TileBuffer, mask maskBuffer: TileBuffer?, _ mode: MaskMode, opacity: Float,
                                     in r: PixelRect, into buf: inout TileBuffer) {
    buf.withPixels { px in
        for y in r.y0..<r.y1 {
            for x in r.x0..<r.x1 {
                let s = sub[x, y]
                if s.w > 0 {
                    let k = maskBuffer.map { coverage($0[x, y], mode) * opacity } ?? opacity
                    if k > 0 { var d = px[x, y]; blend(s * k, into: &d); px[x, y] = d }
                }
            }
        }
    }
    }

    /// Planar float rows of a buffer whose rectangle is the group's (row 0 is its top row).
    struct PlanarRows {
        let base: UnsafePointer<Float>
        let stride: Int, plane: Int
    }

    /// Blends a group's pixels into `px` eight at a time, one channel plane per vector: per lane
    /// the same products and sums, in the same order, as the reference path's `blend(s · k, d)`
    /// with k = coverage × opacity (no fused multiply-add: Swift does not contract), and the
    /// same lanes left alone (source alpha or k not above zero), so the bytes are identical.
    /// The columns after the last whole eight go a pixel at a time. Measured (callgrind, rlottie's
    /// dna.json at 1080p, 1 worker, frames 1–4): 35.3 M instructions a frame in the per-pixel
    /// loop, 4.6 M in this one.
    static func combineGroupRows(_ src: PlanarRows, mask: PlanarRows?, _ mode: MaskMode, opacity: Float, in r: PixelRect,
                             into px: PlanarPixels) {
        typealias V = SIMD8<Float>
        let w = r.x1 - r.x0, whole = w & ~7
        let zero = V(repeating: 0), one = V(repeating: 1), k0 = V(repeating: opacity)
        @inline(__always) func load(_ p: UnsafePointer<Float>) -> V { UnsafeRawPointer(p).loadUnaligned(as: V.self) }
        @inline(__always) func store(_ v: V, _ p: UnsafeMutablePointer<Float>) { UnsafeMutableRawPointer(p).storeBytes(of: v, as: V.self) }
        for y in r.y0..<r.y1 {
            let s = src.base + (y - r.y0) * src.stride
            let m = mask.map { $0.base + (y - r.y0) * $0.stride }
            let d = px.base + (y - px.rect.y0) * px.stride + (r.x0 - px.rect.x0)
            var i = 0
            while i < whole {
                let sa = load(s + 3 * src.plane + i)
                var k = k0
                if let m, let mask {
                    let c: V
                    switch mode {
                    case .alpha: c = load(m + 3 * mask.plane + i)
                    case .alphaInverted: c = one - load(m + 3 * mask.plane + i)
                    case .luminance, .luminanceInverted:
                        let l = 0.2126 * load(m + i) + 0.7152 * load(m + mask.plane + i) + 0.0722 * load(m + 2 * mask.plane + i)
                        let clamped = l.clamped(lowerBound: zero, upperBound: one)
                        c = mode == .luminance ? clamped : one - clamped
                    }
                    k = c * k0
                }
                let on = (sa .> zero) .& (k .> zero)
                if any(on) {
                    let a = sa * k, keep = one - a
                    for channel in 0..<3 {
                        let dc = d + channel * px.plane + i
                        let old = load(dc)
                        store(old.replacing(with: load(s + channel * src.plane + i) * k + old * keep, where: on), dc)
                    }
                    let da = d + 3 * px.plane + i
                    let old = load(da)
                    store(old.replacing(with: a + old * keep, where: on), da)
                }
                i += 8
            }
            for x in (r.x0 + whole)..<r.x1 {
                let j = x - r.x0
                let sw = s[3 * src.plane + j]
                guard sw > 0 else { continue }
                var k = opacity
                if let m, let mask {
                    k = coverage(SIMD4(m[j], m[mask.plane + j], m[2 * mask.plane + j], m[3 * mask.plane + j]), mode) * opacity
                }
                if k > 0 {
                    var dst = px[x, y]
                    blend(SIMD4(s[j], s[src.plane + j], s[2 * src.plane + j], sw) * k, into: &dst)
                    px[x, y] = dst
                }
            }
        }
    }

    /// A mask pixel's coverage by mode (premultiplied channels: the luminance is over black).
    @inline(__always)
    static func coverage(_ m: SIMD4<Float>, _ mode: MaskMode) -> Float {
        switch mode {
        case .alpha: m.w
        case .alphaInverted: 1 - m.w
        case .luminance: min(max(0.2126 * m.x + 0.7152 * m.y + 0.0722 * m.z, 0), 1)
        case .luminanceInverted: 1 - min(max(0.2126 * m.x + 0.7152 * m.y + 0.0722 * m.z, 0), 1)
        }
    }

    /// A cross-fade: both lists drawn offscreen, mixed at `t`, blended.
    static func drawMix(_ from: DisplayList, _ to: DisplayList, _ t: Float, in r: PixelRect,
                        into buf: inout TileBuffer, _ settings: DrawSettings) {
    var a = TileBuffer(rect: r), b = TileBuffer(rect: r)
    draw(from, into: &a, settings)
    draw(to, into: &b, settings)
    buf.withPixels { px in
        for y in r.y0..<r.y1 {
            for x in r.x0..<r.x1 {
                let m = a[x, y] * (1 - t) + b[x, y] * t
                if m.w > 0 { var d = px[x, y]; blend(m, into: &d); px[x, y] = d }
            }
        }
    }
    }

    /// Renders each face of a 3D context that touches `r` offscreen, then per pixel blends the
    /// covered faces from the farthest to the nearest (ties keep the order of the layer tree).
    /// Intersecting planes therefore cut each other along their true intersection.
    static func drawDepthComposite(_ faces: [DepthFace], in r: PixelRect, into buf: inout TileBuffer, _ settings: DrawSettings) {
        let touching = faces.filter { !$0.items.bounds.intersection(r).isEmpty }
        guard !touching.isEmpty else { return }
        var layers: [TileBuffer] = []
        layers.reserveCapacity(touching.count)
        for f in touching {
            var t = TileBuffer(rect: r)
            draw(f.items, into: &t, settings)
            layers.append(t)
        }
        let n = touching.count
        // Per pixel: the faces with coverage there, by (depth, tree order) — a total order, so
        // the insertion sort below gives the one result any sort would.
        var covered = [Int](repeating: 0, count: n)
        var depths = [Double](repeating: 0, count: n)
        for y in r.y0..<r.y1 {
            for x in r.x0..<r.x1 {
                var m = 0
                for k in 0..<n where layers[k][x, y].w > 0 { covered[m] = k; m += 1 }
                if m == 0 { continue }
                var dst = buf[x, y]
                if m == 1 {
                    blend(layers[covered[0]][x, y], into: &dst)
                } else {
                    for a in 0..<m {
                        let k = covered[a], d = touching[k].plane.depth(x, y)
                        var b = a
                        while b > 0 && (depths[b - 1] > d || (depths[b - 1] == d && covered[b - 1] > k)) {
                            depths[b] = depths[b - 1]; covered[b] = covered[b - 1]; b -= 1
                        }
                        depths[b] = d; covered[b] = k
                    }
                    for a in 0..<m { blend(layers[covered[a]][x, y], into: &dst) }
                }
                buf[x, y] = dst
            }
        }
    }

    /// Renders the shadow's source around `r`, blurs its alpha (separable Gaussian), and blends
    /// the tinted result into `r`. Each output pixel depends only on source pixels within the
    /// kernel, so tiles agree at their seams. Only the source pixels that can be non-zero are
    /// rendered and summed (those inside the source's bounds): the skipped terms are exact
    /// zeros, so the sums are the same, and the work stays within the frame's size however wide
    /// the kernel is (a blur wider than the frame cost O(kernel²) per tile before: 61 s for one
    /// 320×180 frame at shadowRadius 200).
    static func drawShadow(_ shadow: ShadowPaint, in r: PixelRect, into buf: inout TileBuffer, _ settings: DrawSettings) {
        if let placed = shadow.maskSlot.mask(for: shadow, settings) {
            drawShadow(shadow, placed, in: r, into: &buf)
            return
        }
        let rad = shadow.radius
        let ox = Int(shadow.dx.rounded(.down)), oy = Int(shadow.dy.rounded(.down))
        let fx = Float(shadow.dx - Double(ox)), fy = Float(shadow.dy - Double(oy))
        // The blurred alpha is needed at `r` moved back by the offset, one more pixel up and left
        // for the fractional shift; the source within the kernel of that.
        let out = PixelRect(x0: r.x0 - ox - 1, y0: r.y0 - oy - 1, x1: r.x1 - ox, y1: r.y1 - oy)
        let src = PixelRect(x0: out.x0 - rad, y0: out.y0 - rad, x1: out.x1 + rad, y1: out.y1 + rad)
            .intersection(shadow.source.bounds)
        guard !src.isEmpty else { return }
        var sbuf = TileBuffer(rect: src)
        draw(shadow.source, into: &sbuf, settings)
        let a = sbuf.alphas
        let sw = src.x1 - src.x0, sh = src.y1 - src.y0, w = out.x1 - out.x0, h = out.y1 - out.y0
        let k = shadow.kernel
        // Horizontal pass: rows of the source, columns of `out`.
        var t = [Float](repeating: 0, count: w * sh)
        a.withUnsafeBufferPointer { a in
            t.withUnsafeMutableBufferPointer { t in
                for y in 0..<sh {
                    for x in 0..<w {
                        let fxo = out.x0 + x
                        let lo = max(src.x0, fxo - rad), hi = min(src.x1 - 1, fxo + rad)
                        guard lo <= hi else { continue }
                        var acc: Float = 0
                        for xx in lo...hi { acc += a[y * sw + xx - src.x0] * k[xx - fxo + rad] }
                        t[y * w + x] = acc
                    }
                }
            }
        }
        // Vertical pass: rows and columns of `out`.
        var alpha = [Float](repeating: 0, count: w * h)
        t.withUnsafeBufferPointer { t in
            alpha.withUnsafeMutableBufferPointer { alpha in
                for y in 0..<h {
                    let fyo = out.y0 + y
                    let lo = max(src.y0, fyo - rad), hi = min(src.y1 - 1, fyo + rad)
                    guard lo <= hi else { continue }
                    for x in 0..<w {
                        var acc: Float = 0
                        for yy in lo...hi { acc += t[(yy - src.y0) * w + x] * k[yy - fyo + rad] }
                        alpha[y * w + x] = acc
                    }
                }
            }
        }
        @inline(__always) func at(_ x: Int, _ y: Int) -> Float {
            let lx = x - out.x0, ly = y - out.y0
            guard lx >= 0, ly >= 0, lx < w, ly < h else { return 0 }
            return alpha[ly * w + lx]
        }
        buf.withPixels { px in
            for y in r.y0..<r.y1 {
                for x in r.x0..<r.x1 {
                    // Bilinear sample at (x − dx, y − dy) for sub-pixel offsets.
                    let sx = x - ox, sy = y - oy
                    let a00 = at(sx, sy), a10 = at(sx - 1, sy), a01 = at(sx, sy - 1), a11 = at(sx - 1, sy - 1)
                    let top = a00 + (a10 - a00) * fx, bottom = a01 + (a11 - a01) * fx
                    let a = top + (bottom - top) * fy
                    if a > 0 { var d = px[x, y]; blend(shadow.color * min(a, 1), into: &d); px[x, y] = d }
                }
            }
        }
    }

    /// Blends the tinted, blurred silhouette `placed` (made once for the frame) into `r`: the
    /// mask bilinearly sampled at each pixel moved back by the offset (exactly its values when
    /// the offset and the mask's placement are whole pixels).
    static func drawShadow(_ shadow: ShadowPaint, _ placed: PlacedShadowMask, in r: PixelRect, into buf: inout TileBuffer) {
        let mask = placed.mask
        // Mask coordinates of screen pixel x: x − cx, with cx = dx + shift + mask origin.
        let cx = shadow.dx + placed.shiftX + Double(mask.x0), cy = shadow.dy + placed.shiftY + Double(mask.y0)
        let kx = (-cx).rounded(.down), ky = (-cy).rounded(.down)
        let fx = Float(-cx - kx), fy = Float(-cy - ky)
        let ix = Int(kx), iy = Int(ky)
        let w = mask.width, h = mask.height
        // The columns and rows of `r` whose samples can touch the mask.
        let x0 = max(r.x0, -ix - 1), x1 = min(r.x1, w - ix)
        let y0 = max(r.y0, -iy - 1), y1 = min(r.y1, h - iy)
        guard x0 < x1, y0 < y1 else { return }
        let color = shadow.color
        mask.alpha.withUnsafeBufferPointer { m in
            @inline(__always) func at(_ i: Int, _ j: Int) -> Float {
                guard i >= 0, j >= 0, i < w, j < h else { return 0 }
                return m[j * w + i]
            }
            buf.withPixels { px in
                for y in y0..<y1 {
                    let j = y + iy
                    for x in x0..<x1 {
                        let i = x + ix
                        let top = at(i, j) + (at(i + 1, j) - at(i, j)) * fx
                        let bottom = at(i, j + 1) + (at(i + 1, j + 1) - at(i, j + 1)) * fx
                        let a = top + (bottom - top) * fy
                        if a > 0 { var d = px[x, y]; blend(color * min(a, 1), into: &d); px[x, y] = d }
                    }
                }
            }
        }
    }
}
