// Stage 4, a layer's effects (LayerEffect: Fill, Tint, Tritone, Gaussian Blur) on its offscreen
// group: the group's items drawn into a buffer reaching as far beyond the tile as the blurs
// reach, each stage applied in order, then the tile's part composited as any group is (opacity,
// mask, blend mode). A pixel's result depends only on the items and its own coordinates: the
// colour stages are per pixel, and a blur's sum at a pixel runs over the same kernel offsets in the
// same order in any tile (source pixels outside the buffer are exact zeros, as the ones outside the
// items' bounds are, and adding a zero changes no sum), so tiles agree at their seams and the
// frames do not depend on the tile size or worker count. The same code runs whether the span
// kernels are on or not.
import Foundation
import StrataCore

/// A layer effect in screen terms: colours as vectors, a blur's kernels in pixels.
enum GroupEffect: Sendable {
    /// C + (color − C) · opacity (straight colours; `color`'s w unused).
    case fill(color: SIMD4<Float>, opacity: Float)
    /// lerp(black, white, L), mixed into C by `amount`.
    case tint(black: SIMD4<Float>, white: SIMD4<Float>, amount: Float)
    /// The tritone of L, with `blend` of the original kept.
    case tritone(highlights: SIMD4<Float>, midtones: SIMD4<Float>, shadows: SIMD4<Float>, blend: Float)
    /// A separable Gaussian: normalised weights for offsets −radius…radius along x and along y
    /// (`[1]`: none that way).
    case blur(horizontal: [Float], vertical: [Float])

    /// How far (pixels) the effect moves colour: a blur's kernel half widths.
    var reach: (x: Int, y: Int) {
        if case .blur(let h, let v) = self { return (h.count / 2, v.count / 2) }
        return (0, 0)
    }

    /// The widest blur drawn, in pixels (as a shadow's): no value traps or exhausts memory.
    static let maximumSigma = 2048.0

    /// Normalised Gaussian weights for σ `sigma` pixels (`[1]` below 0.05 or NaN), half width ⌈3σ⌉.
    static func kernel(sigma: Double) -> [Float] {
        guard sigma >= 0.05 else { return [1] }
        let s = min(sigma, maximumSigma)
        let r = Int((3 * s).rounded(.up))
        let k = (-r...r).map { Float(exp(-Double($0 * $0) / (2 * s * s))) }
        let sum = k.reduce(0, +)
        return k.map { $0 / sum }
    }

    /// The effect of a layer whose plane has the local stretch `stretchX`, `stretchY` (screen
    /// pixels per point along its x and y axes).
    init(_ e: LayerEffect, stretchX: Double, stretchY: Double) {
        func v(_ c: RGBA) -> SIMD4<Float> { SIMD4(c.r, c.g, c.b, 1) }
        func unit(_ x: Float) -> Float { x.isNaN ? 0 : min(max(x, 0), 1) }
        switch e {
        case .fill(let c, let o): self = .fill(color: v(c), opacity: unit(o))
        case .tint(let b, let w, let a): self = .tint(black: v(b), white: v(w), amount: unit(a))
        case .tritone(let h, let m, let s, let b): self = .tritone(highlights: v(h), midtones: v(m), shadows: v(s), blend: unit(b))
        case .blur(let sx, let sy):
            self = .blur(horizontal: GroupEffect.kernel(sigma: sx * stretchX), vertical: GroupEffect.kernel(sigma: sy * stretchY))
        }
    }
}

extension TileRasterizer {
    /// The total reach of `effects` along x and y: how far beyond a pixel its result reads.
    static func effectReach(_ effects: [GroupEffect]) -> (x: Int, y: Int) {
        effects.reduce((0, 0)) { ($0.0 + $1.reach.x, $0.1 + $1.reach.y) }
    }

    /// The group `list` drawn with its effects over `r`: a buffer of `r` (from the shared pool,
    /// give it back with `recycle()`), each pixel multiplied by the coverage of `clips`.
    static func effectGroup(_ list: DisplayList, clips: [ClipShape], in r: PixelRect, _ settings: DrawSettings) -> TileBuffer {
        let reach = effectReach(list.effects)
        let items = list.bounds
        let wide = PixelRect(x0: r.x0 - reach.x, y0: r.y0 - reach.y, x1: r.x1 + reach.x, y1: r.y1 + reach.y)
            .intersection(PixelRect(x0: items.x0 - reach.x, y0: items.y0 - reach.y, x1: items.x1 + reach.x, y1: items.y1 + reach.y))
        var out: TileBuffer
        if wide.isEmpty {
            out = TileBuffer(pooled: r)
        } else {
            var big = TileBuffer(pooled: wide)
            draw(list, into: &big, settings)
            for e in list.effects { apply(e, to: &big) }
            let part = r.intersection(wide)
            if part == r {
                out = big.cropped(to: r)
            } else {
                out = TileBuffer(pooled: r)
                if !part.isEmpty {
                    let piece = big.cropped(to: part)
                    out.withPixels { px in for y in part.y0..<part.y1 { for x in part.x0..<part.x1 { px[x, y] = piece[x, y] } } }
                }
            }
            big.recycle()
        }
        if !clips.isEmpty {
            let mappers = clips.map { PixelMapper($0.plane.fromScreen) }
            out.withPixels { px in
                for y in r.y0..<r.y1 {
                    for x in r.x0..<r.x1 {
                        let p = px[x, y]
                        guard p.w > 0 else { continue }
                        px[x, y] = p * clipCoverage(clips, mappers, x, y)
                    }
                }
            }
        }
        return out
    }

    /// Applies one effect to every pixel of `buf` (premultiplied planes).
    static func apply(_ effect: GroupEffect, to buf: inout TileBuffer) {
        switch effect {
        case .blur(let h, let v):
            if h.count > 1 { blurRows(&buf, h) }
            if v.count > 1 { blurColumns(&buf, v) }
        case .fill, .tint, .tritone:
            let w = buf.width, hgt = buf.height, stride = buf.stride, p = buf.plane
            buf.planes.withUnsafeMutableBufferPointer { px in
                let base = px.baseAddress!
                for y in 0..<hgt {
                    for x in 0..<w {
                        let i = y * stride + x
                        let a = base[i + 3 * p]
                        guard a > 0 else { continue }
                        let c = SIMD4<Float>(base[i], base[i + p], base[i + 2 * p], a)
                        let out = recolour(c, effect)
                        base[i] = out.x; base[i + p] = out.y; base[i + 2 * p] = out.z
                    }
                }
            }
        }
    }

    /// A premultiplied pixel (alpha above zero) with a colour effect applied (its alpha kept).
    @inline(__always)
    static func recolour(_ c: SIMD4<Float>, _ effect: GroupEffect) -> SIMD4<Float> {
        let a = c.w
        var s = SIMD4<Float>(min(max(c.x / a, 0), 1), min(max(c.y / a, 0), 1), min(max(c.z / a, 0), 1), 1)
        let l = 0.2126 * s.x + 0.7152 * s.y + 0.0722 * s.z
        switch effect {
        case .fill(let color, let o):
            s = s + (color - s) * o
        case .tint(let black, let white, let amount):
            let t = black + (white - black) * l
            s = s + (t - s) * amount
        case .tritone(let hi, let mid, let lo, let blend):
            let t = l < 0.5 ? lo + (mid - lo) * (2 * l) : mid + (hi - mid) * (2 * l - 1)
            s = t + (s - t) * blend
        case .blur:
            return c
        }
        return SIMD4(s.x * a, s.y * a, s.z * a, a)
    }

    /// Blurs each row of every plane with kernel `k` (centred), zero beyond the buffer: a row of
    /// sums, a kernel weight at a time (the same terms in the same order at every pixel, offsets
    /// −radius…radius; a loop the compiler vectorises).
    static func blurRows(_ buf: inout TileBuffer, _ k: [Float]) {
        let w = buf.width, h = buf.height, stride = buf.stride, p = buf.plane, rad = k.count / 2
        var row = [Float](repeating: 0, count: w)
        buf.planes.withUnsafeMutableBufferPointer { px in
            k.withUnsafeBufferPointer { k in
                row.withUnsafeMutableBufferPointer { row in
                    let o = row.baseAddress!
                    for c in 0..<4 {
                        for y in 0..<h {
                            let line = px.baseAddress! + c * p + y * stride
                            o.update(repeating: 0, count: w)
                            for t in -rad...rad {
                                let weight = k[t + rad], x0 = max(0, -t), x1 = min(w, w - t)
                                guard x0 < x1 else { continue }
                                let src = line + t
                                for x in x0..<x1 { o[x] += src[x] * weight }
                            }
                            line.update(from: o, count: w)
                        }
                    }
                }
            }
        }
    }

    /// Blurs each column of every plane with kernel `k` (centred), zero beyond the buffer: rows
    /// of sums, a kernel weight at a time (the same terms in the same order at every pixel).
    static func blurColumns(_ buf: inout TileBuffer, _ k: [Float]) {
        let w = buf.width, h = buf.height, stride = buf.stride, p = buf.plane, rad = k.count / 2
        var column = [Float](repeating: 0, count: w * h)
        buf.planes.withUnsafeMutableBufferPointer { px in
            k.withUnsafeBufferPointer { k in
                column.withUnsafeMutableBufferPointer { out in
                    for c in 0..<4 {
                        let plane = px.baseAddress! + c * p
                        for y in 0..<h {
                            let lo = max(0, y - rad), hi = min(h - 1, y + rad)
                            let o = out.baseAddress! + y * w
                            o.update(repeating: 0, count: w)
                            for yy in lo...hi {
                                let weight = k[yy - y + rad], line = plane + yy * stride
                                for x in 0..<w { o[x] += line[x] * weight }
                            }
                        }
                        for y in 0..<h { (plane + y * stride).update(from: out.baseAddress! + y * w, count: w) }
                    }
                }
            }
        }
    }
}
