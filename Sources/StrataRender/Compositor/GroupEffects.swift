// Stage 4, a layer's effects (LayerEffect: Fill, Tint, Tritone, Gradient Ramp, Gaussian Blur) on its offscreen
// group. Colour stages alone are applied by each tile to its own part of the group. With a blur,
// the first tile that draws the group draws all of its items once for the frame, into a
// buffer reaching as far as the blurs carry colour (within the frame, GroupEffectSlot), applies
// each stage in order, and keeps the result; every tile then takes its part, the item's clips
// applied, and composites it as any group (opacity, mask, blend mode). The result depends only on
// the items, never on the tile that made it, so the frames do not depend on the tile size or
// worker count; the same code runs whether the span kernels are on or not. Colour stages are per
// pixel; a blur below σ 8 px is the exact (3σ-truncated) Gaussian, a wider one the box passes of
// the shadows' blur (ShadowMask.swift: within 0.35 % of it, at a cost that does not grow with σ).
import Foundation
import StrataCore
import Synchronization

/// A layer effect in screen terms: colours as vectors, a blur's kernels in pixels.
enum GroupEffect: Sendable {
    /// C + (color − C) · opacity (straight colours; `color`'s w unused).
    case fill(color: SIMD4<Float>, opacity: Float)
    /// lerp(black, white, L), mixed into C by `amount`.
    case tint(black: SIMD4<Float>, white: SIMD4<Float>, amount: Float)
    /// The tritone of L, with `blend` of the original kept.
    case tritone(highlights: SIMD4<Float>, midtones: SIMD4<Float>, shadows: SIMD4<Float>, blend: Float)
    /// A Gaussian blur with standard deviations `sigmaX` and `sigmaY` in pixels (0: none that way).
    case blur(sigmaX: Double, sigmaY: Double)
    /// A gradient ramp (LayerEffect.gradientRamp) whose points are in the layer's coordinates,
    /// where `toLayer` takes a screen point (row vector (x, y, 1), as PixelMapper) from the
    /// frame's pixels.
    case ramp(toLayer: Homography, start: SIMD2<Double>, end: SIMD2<Double>, startColor: SIMD4<Float>, endColor: SIMD4<Float>,
              radial: Bool, blend: Float)

    /// Below this σ (pixels) a blur is the exact Gaussian; from it, box passes.
    static let exactSigma = 8.0

    /// Pixels a blur of `sigma` carries colour.
    static func reach(sigma: Double) -> Int {
        guard sigma >= 0.05 else { return 0 }
        return sigma < exactSigma ? Int((3 * sigma).rounded(.up)) : AlphaBlur.reach(sigma: sigma)
    }

    /// How far (pixels) the effect moves colour along x and y.
    var reach: (x: Int, y: Int) {
        if case .blur(let sx, let sy) = self { return (GroupEffect.reach(sigma: sx), GroupEffect.reach(sigma: sy)) }
        return (0, 0)
    }

    /// The widest blur drawn, in pixels (the shadows' bound): no value traps.
    static let maximumSigma = ShadowPaint.maximumSigma

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
    /// pixels per point along its x and y axes) and maps the screen to its coordinates by
    /// `toLayer` (nil: it is degenerate, and a ramp recolours nothing).
    init(_ e: LayerEffect, stretchX: Double, stretchY: Double, toLayer: Homography?) {
        func v(_ c: RGBA) -> SIMD4<Float> { SIMD4(c.r, c.g, c.b, 1) }
        func unit(_ x: Float) -> Float { x.isNaN ? 0 : min(max(x, 0), 1) }
        switch e {
        case .fill(let c, let o): self = .fill(color: v(c), opacity: unit(o))
        case .tint(let b, let w, let a): self = .tint(black: v(b), white: v(w), amount: unit(a))
        case .tritone(let h, let m, let s, let b): self = .tritone(highlights: v(h), midtones: v(m), shadows: v(s), blend: unit(b))
        case .blur(let sx, let sy):
            func pixels(_ s: Double, _ k: Double) -> Double { let v = s * k; return v.isFinite ? min(max(v, 0), GroupEffect.maximumSigma) : 0 }
            self = .blur(sigmaX: pixels(sx, stretchX), sigmaY: pixels(sy, stretchY))
        case .gradientRamp(let a, let b, let c0, let c1, let radial, let blend):
            guard let toLayer, a.x.isFinite, a.y.isFinite, b.x.isFinite, b.y.isFinite else {
                self = .fill(color: v(c0), opacity: 0)
                return
            }
            self = .ramp(toLayer: toLayer, start: a, end: b, startColor: v(c0), endColor: v(c1), radial: radial, blend: unit(blend))
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
        var out = TileBuffer(pooled: r)
        if !list.effects.contains(where: { $0.reach != (0, 0) }) {
            // Colour stages alone read each pixel only: every tile draws and recolours its own
            // part, side by side (a pixel's value does not depend on the rectangle it is drawn
            // in), instead of the first tile drawing the whole group while the others wait.
            draw(list, into: &out, settings)
            for e in list.effects { apply(e, to: &out) }
        } else if let full = list.effectSlot?.pixels(of: list, settings) {
            let part = r.intersection(full.rect)
            if !part.isEmpty {
                let p = full.plane, q = out.plane, w = part.x1 - part.x0
                full.planes.withUnsafeBufferPointer { src in
                    out.planes.withUnsafeMutableBufferPointer { dst in
                        for c in 0..<4 {
                            for y in part.y0..<part.y1 {
                                let s = c * p + (y - full.rect.y0) * full.stride + (part.x0 - full.rect.x0)
                                let d = c * q + (y - r.y0) * out.stride + (part.x0 - r.x0)
                                (dst.baseAddress! + d).update(from: src.baseAddress! + s, count: w)
                            }
                        }
                    }
                }
            }
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

    /// The pixels of the group `list` with its effects over `area`, drawn whole.
    static func effectPixels(_ list: DisplayList, area: PixelRect, _ settings: DrawSettings) -> TileBuffer {
        var buf = TileBuffer(rect: area)
        draw(list, into: &buf, settings)
        for e in list.effects { apply(e, to: &buf) }
        return buf
    }

    /// Applies one effect to every pixel of `buf` (premultiplied planes).
    static func apply(_ effect: GroupEffect, to buf: inout TileBuffer) {
        switch effect {
        case .blur(let sx, let sy):
            if sx >= 0.05 {
                if sx < GroupEffect.exactSigma { blurRows(&buf, GroupEffect.kernel(sigma: sx)) } else { boxBlur(&buf, sigmaX: sx, sigmaY: 0) }
            }
            if sy >= 0.05 {
                if sy < GroupEffect.exactSigma { blurColumns(&buf, GroupEffect.kernel(sigma: sy)) } else { boxBlur(&buf, sigmaX: 0, sigmaY: sy) }
            }
        case .ramp:
            applyRamp(effect, to: &buf)
        case .fill(let color, let o):
            recolourAll(&buf, .fill(color: color, opacity: o))
        case .tint(let black, let white, let amount):
            recolourAll(&buf, .tint(black: black, white: white, amount: amount))
        case .tritone(let hi, let mid, let lo, let blend):
            recolourAll(&buf, .tritone(highlights: hi, midtones: mid, shadows: lo, blend: blend))
        }
    }

    /// A colour stage's parameters, taken out of its effect once a buffer: GroupEffect is as
    /// large as its ramp case, and copied for each pixel it cost more than the stage itself.
    enum ColourStage {
        case fill(color: SIMD4<Float>, opacity: Float)
        case tint(black: SIMD4<Float>, white: SIMD4<Float>, amount: Float)
        case tritone(highlights: SIMD4<Float>, midtones: SIMD4<Float>, shadows: SIMD4<Float>, blend: Float)
    }

    /// Applies a colour stage to every pixel of `buf` with alpha.
    static func recolourAll(_ buf: inout TileBuffer, _ stage: ColourStage) {
        let w = buf.width, hgt = buf.height, stride = buf.stride, p = buf.plane
        buf.planes.withUnsafeMutableBufferPointer { px in
            let base = px.baseAddress!
            for y in 0..<hgt {
                for x in 0..<w {
                    let i = y * stride + x
                    let a = base[i + 3 * p]
                    guard a > 0 else { continue }
                    let c = SIMD4<Float>(base[i], base[i + p], base[i + 2 * p], a)
                    let out = recolour(c, stage)
                    base[i] = out.x; base[i + p] = out.y; base[i + 2 * p] = out.z
                }
            }
        }
    }

    /// A premultiplied pixel (alpha above zero) with a colour effect applied (its alpha kept).
    @inline(__always)
    static func recolour(_ c: SIMD4<Float>, _ stage: ColourStage) -> SIMD4<Float> {
        let a = c.w
        var s = SIMD4<Float>(min(max(c.x / a, 0), 1), min(max(c.y / a, 0), 1), min(max(c.z / a, 0), 1), 1)
        let l = 0.2126 * s.x + 0.7152 * s.y + 0.0722 * s.z
        switch stage {
        case .fill(let color, let o):
            s = s + (color - s) * o
        case .tint(let black, let white, let amount):
            let t = black + (white - black) * l
            s = s + (t - s) * amount
        case .tritone(let hi, let mid, let lo, let blend):
            let t = l < 0.5 ? lo + (mid - lo) * (2 * l) : mid + (hi - mid) * (2 * l - 1)
            s = t + (s - t) * blend
        }
        return SIMD4(s.x * a, s.y * a, s.z * a, a)
    }

    /// The gradient ramp's colour G at each pixel of `buf` with alpha (the centre taken to the
    /// layer's coordinates), mixed with the pixel's straight colour by the blend, its alpha
    /// kept; a pixel whose centre is at or behind the eye is left as it is.
    static func applyRamp(_ effect: GroupEffect, to buf: inout TileBuffer) {
        guard case .ramp(let inv, let a, let b, let c0, let c1, let radial, let blend) = effect else { return }
        let d = b - a, length2 = (d * d).sum()
        let m = inv.m, w = buf.width, hgt = buf.height, stride = buf.stride, p = buf.plane, x0 = buf.rect.x0, y0 = buf.rect.y0
        buf.planes.withUnsafeMutableBufferPointer { px in
            let base = px.baseAddress!
            for y in 0..<hgt {
                let Y = Double(y0 + y) + 0.5
                for x in 0..<w {
                    let i = y * stride + x
                    let alpha = base[i + 3 * p]
                    guard alpha > 0 else { continue }
                    let X = Double(x0 + x) + 0.5
                    let h = X * m.2 + Y * m.5 + m.8
                    guard h > 0 else { continue }
                    let q = SIMD2((X * m.0 + Y * m.3 + m.6) / h, (X * m.1 + Y * m.4 + m.7) / h) - a
                    var t = 0.0
                    if length2 > 1e-18 { t = radial ? ((q * q).sum() / length2).squareRoot() : (q * d).sum() / length2 }
                    t = t.isFinite ? min(max(t, 0), 1) : 0
                    let g = c0 + (c1 - c0) * Float(t)
                    let s = SIMD4<Float>(min(max(base[i] / alpha, 0), 1), min(max(base[i + p] / alpha, 0), 1),
                                         min(max(base[i + 2 * p] / alpha, 0), 1), 1)
                    let out = (g + (s - g) * blend) * alpha
                    base[i] = out.x; base[i + p] = out.y; base[i + 2 * p] = out.z
                }
            }
        }
    }

    /// Blurs every plane by box passes (AlphaBlur.boxBlur), each colour kept at most its alpha.
    static func boxBlur(_ buf: inout TileBuffer, sigmaX: Double, sigmaY: Double) {
        let w = buf.width, h = buf.height, stride = buf.stride, p = buf.plane
        var plane = [Float](repeating: 0, count: w * h)
        for c in 0..<4 {
            for y in 0..<h { for x in 0..<w { plane[y * w + x] = buf.planes[c * p + y * stride + x] } }
            AlphaBlur.boxBlur(&plane, width: w, height: h, sigmaX: sigmaX, sigmaY: sigmaY)
            for y in 0..<h { for x in 0..<w { buf.planes[c * p + y * stride + x] = plane[y * w + x] } }
        }
        for y in 0..<h {
            for x in 0..<w {
                let a = buf.planes[3 * p + y * stride + x]
                for c in 0..<3 where buf.planes[c * p + y * stride + x] > a { buf.planes[c * p + y * stride + x] = a }
            }
        }
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

/// The pixels of one effect group of one frame, made by the first tile that draws it: the items
/// drawn whole over the area the blurs reach, every stage applied.
final class GroupEffectSlot: Sendable {
    private enum State: Sendable { case unresolved, resolved(TileBuffer?) }
    private let state = Mutex<State>(.unresolved)
    /// The frame's pixels.
    let frame: PixelRect

    init(frame: PixelRect) { self.frame = frame }

    /// The area the group's pixels are made over: the items' bounds grown by the effects' reach,
    /// within the frame grown by what the stages after the first blur still carry (the first
    /// blur, when it is an exact Gaussian, reads only the items, inside the frame; a later one,
    /// and each of a box blur's passes, reads what the ones before carried off it). Blurs reaching
    /// far off the frame are cut at a quarter of the frame's larger side around it (the colour
    /// carried beyond taken as transparent: slightly lighter edges where σ passes about a
    /// twelfth of the frame). Measured (release, 2 workers, effect-blur.json fitted into
    /// 1920×1080, its blurs σ 0 → 192 px, `render --hash-frames`; other builds running, so the
    /// times are rough): 20 frames 6.8 s and 371 MB peak with a cut at half the side (load
    /// average 4), 8.2–8.5 s and 291–312 MB at a quarter (load 6.6; 0.14–0.20 s and 72 MB with
    /// the effects ignored); one frame at σ 19 px 0.34 s (0.16 s ignored), σ 38 px 0.39 s
    /// (0.18 s), σ 192 px 1.71 s and 167 MB (0.14 s, 65 MB).
    static func area(of list: DisplayList, frame: PixelRect) -> PixelRect {
        let reach = TileRasterizer.effectReach(list.effects)
        var first: (x: Int, y: Int) = (0, 0)
        if case .blur(let sx, let sy) = list.effects.first(where: { $0.reach != (0, 0) }) {
            first = (sx < GroupEffect.exactSigma ? GroupEffect.reach(sigma: sx) : 0, sy < GroupEffect.exactSigma ? GroupEffect.reach(sigma: sy) : 0)
        }
        let items = list.bounds
        func grown(_ r: PixelRect, _ dx: Int, _ dy: Int) -> PixelRect { PixelRect(x0: r.x0 - dx, y0: r.y0 - dy, x1: r.x1 + dx, y1: r.y1 + dy) }
        let side = max(frame.x1 - frame.x0, frame.y1 - frame.y0) / 4
        let off = (x: min(reach.x - first.x, side), y: min(reach.y - first.y, side))
        return grown(items, reach.x, reach.y).intersection(grown(frame, off.x, off.y))
    }

    /// The group's pixels with its effects (nil: none on the frame).
    func pixels(of list: DisplayList, _ settings: DrawSettings) -> TileBuffer? {
        state.withCheckedLock { s in
            if case .resolved(let b) = s { return b }
            let area = GroupEffectSlot.area(of: list, frame: frame)
            let b = area.isEmpty ? nil : TileRasterizer.effectPixels(list, area: area, settings)
            s = .resolved(b)
            return b
        }
    }
}
