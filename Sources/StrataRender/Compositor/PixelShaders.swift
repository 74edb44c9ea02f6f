// Stage 4, the Swift pixel path: one generic loop (`scan`) over an item's pixels with a shader
// per op for coverage and premultiplied colour. Only it draws items with more than eight clips,
// additive particles, colour-modulated images, conic and degenerate radial gradients (SpanKernel.draw
// refuses them); it draws the rest within one level a channel of the kernels (CompositorTests).
import Foundation
import StrataCore

extension TileRasterizer {
    @inline(__always)
    static func blend(_ src: SIMD4<Float>, into dst: inout SIMD4<Float>) {
        dst = src + dst * (1 - src.w)
    }

    /// The loop every shape-like item shares: for each pixel between the item's screen edges,
    /// map the centre into the layer plane, take the shader's coverage (0 skips the pixel),
    /// multiply by the ancestors' clips, and blend the shader's premultiplied colour. Generic over
    /// the shader so that each op gets its own specialised loop with coverage and colour inlined
    /// (closures were not: a call per pixel per op). Each row's run of pixels lying well inside
    /// the shader's `interior` shape (through affine and perspective maps) takes a shorter path:
    /// their coverage is exactly 1 (or exactly 0 for a border's hole), so it is not computed, and
    /// an opaque colour is stored without blending — the same bytes as the full path. `additive`
    /// adds the colour instead (AdditiveBlend.swift), every pixel by the full path.
    @inline(__always)
    static func scan<S: PixelShader>(_ item: DrawItem, _ r: PixelRect, _ buf: inout TileBuffer, _ shader: S,
                                     _ settings: DrawSettings, additive: Bool = false) {
        let mapper = PixelMapper(item.plane.fromScreen)
        let hasClips = !item.clips.isEmpty
        let clipMappers = item.clips.map { PixelMapper($0.plane.fromScreen) }
        let interior = settings.interiorRuns && !additive ? shader.interior.flatMap { InteriorRuns($0, mapper, over: r) } : nil
        let hole = shader.interiorIsHole
        let opaque = !hasClips && shader.solidColor?.w == 1 ? shader.solidColor : nil
        let replaces = !hasClips && shader.isOpaque
        buf.withPixels { px in
            @inline(__always) func full(_ x0: Int, _ x1: Int, _ y: Int) {
                for x in x0..<x1 {
                    guard let p = mapper.map(x, y) else { continue }
                    var c = shader.cover(p)
                    if c == 0 { continue }
                    if hasClips { c *= clipCoverage(item.clips, clipMappers, x, y); if c == 0 { continue } }
                    var d = px[x, y]
                    if additive { add(shader.shade(p, x, y) * c, into: &d) } else { blend(shader.shade(p, x, y) * c, into: &d) }
                    px[x, y] = d
                }
            }
            for y in r.y0..<r.y1 {
                let (sx0, sx1) = item.outline?.span(row: y, r.x0, r.x1) ?? (r.x0, r.x1)
                guard let (ia, ib) = interior?.columns(row: y, sx0, sx1) else {
                    full(sx0, sx1, y)
                    continue
                }
                full(sx0, ia, y)
                if !hole {
                    if let opaque {
                        for x in ia..<ib { px[x, y] = opaque }
                    } else if replaces {
                        // Alpha 1 and coverage 1: blending would give the source exactly.
                        for x in ia..<ib {
                            if let p = mapper.map(x, y) { px[x, y] = shader.shade(p, x, y) }
                        }
                    } else {
                        for x in ia..<ib {
                            guard let p = mapper.map(x, y) else { continue }
                            var c: Float = 1
                            if hasClips { c = clipCoverage(item.clips, clipMappers, x, y); if c == 0 { continue } }
                            var d = px[x, y]
                            blend(shader.shade(p, x, y) * c, into: &d)
                            px[x, y] = d
                        }
                    }
                }
                full(ib, sx1, y)
            }
        }
    }
}

/// What `TileRasterizer.scan` draws for one op: coverage of a pixel (from its centre in the
/// layer plane) and the premultiplied colour there.
protocol PixelShader {
    func cover(_ p: LocalSample) -> Float
    func shade(_ p: LocalSample, _ x: Int, _ y: Int) -> SIMD4<Float>
    /// A shape in the layer plane such that a pixel lying entirely inside it has coverage exactly
    /// 1 (or exactly 0 when `interiorIsHole`); nil when there is none.
    var interior: RoundedRect? { get }
    var interiorIsHole: Bool { get }
    /// The colour `shade` always returns, when it does not vary.
    var solidColor: SIMD4<Float>? { get }
    /// Whether `shade` always returns alpha exactly 1.
    var isOpaque: Bool { get }
}

extension PixelShader {
    var interiorIsHole: Bool { false }
    var solidColor: SIMD4<Float>? { nil }
    var isOpaque: Bool { solidColor?.w == 1 }
}

/// A solid rounded rectangle.
struct FillShader: PixelShader {
    let shape: RoundedRect, color: SIMD4<Float>, antialiased: Bool
    var interior: RoundedRect? { shape }
    var solidColor: SIMD4<Float>? { color }
    @inline(__always) func cover(_ p: LocalSample) -> Float {
        TileRasterizer.coverage(shape, p, antialiased: antialiased)
    }
    @inline(__always) func shade(_ p: LocalSample, _ x: Int, _ y: Int) -> SIMD4<Float> { color }
}

/// A border: the outer rounded rectangle minus the inner one.
struct RingShader: PixelShader {
    let outer: RoundedRect, inner: RoundedRect, color: SIMD4<Float>, antialiased: Bool
    /// Inside the inner edge the ring covers nothing.
    var interior: RoundedRect? { inner }
    var interiorIsHole: Bool { true }
    @inline(__always) func cover(_ p: LocalSample) -> Float {
        let c = TileRasterizer.coverage(outer, p, antialiased: antialiased)
        return c == 0 ? 0 : c * (1 - TileRasterizer.coverage(inner, p, antialiased: antialiased))
    }
    @inline(__always) func shade(_ p: LocalSample, _ x: Int, _ y: Int) -> SIMD4<Float> { color }
}

/// A gradient over a (rounded) clip, dithered to hide 8-bit banding. Axial gradients and
/// two-stop ramps (the common cases) are evaluated inline with the same arithmetic as
/// `GradientPaint.parameter` / `color(at:)`; the rest call those.
struct GradientShader: PixelShader {
    let paint: GradientPaint, clip: RoundedRect, antialiased: Bool
    let axial: Bool
    let sx: Double, sy: Double, dx: Double, dy: Double, invLen2: Double
    let twoStops: Bool
    let t0: Double, t1: Double, c0: SIMD4<Float>, c1: SIMD4<Float>, opacity: Float

    /// Every colour opaque and the layer too: `shade` returns alpha exactly 1 (the dither
    /// leaves alpha alone).
    let isOpaque: Bool

    init(paint: GradientPaint, clip: RoundedRect, antialiased: Bool) {
        self.paint = paint; self.clip = clip; self.antialiased = antialiased
        isOpaque = paint.opacity == 1 && paint.colors.allSatisfy { $0.w == 1 }
        axial = paint.kind == .axial
        sx = paint.sx; sy = paint.sy; dx = paint.dx; dy = paint.dy; invLen2 = paint.invLen2
        twoStops = paint.stops.count == 2
        t0 = paint.stops.first ?? 0; t1 = paint.stops.last ?? 0
        c0 = paint.colors.first ?? .zero; c1 = paint.colors.last ?? .zero
        opacity = paint.opacity
    }

    var interior: RoundedRect? { clip }

    @inline(__always) func cover(_ p: LocalSample) -> Float {
        TileRasterizer.coverage(clip, p, antialiased: antialiased)
    }

    @inline(__always) func shade(_ p: LocalSample, _ x: Int, _ y: Int) -> SIMD4<Float> {
        let t = axial ? ((p.u - sx) * dx + (p.v - sy) * dy) * invLen2 : paint.parameter(p.u, p.v)
        var color: SIMD4<Float>
        if twoStops {
            var c: SIMD4<Float>
            if t <= t0 { c = c0 } else if t >= t1 { c = c1 } else {
                let f = t1 > t0 ? Float((t - t0) / (t1 - t0)) : 1
                c = c0 + (c1 - c0) * f
            }
            let alpha = c.w * opacity
            color = SIMD4(c.x * alpha, c.y * alpha, c.z * alpha, alpha)
        } else {
            color = paint.color(at: t)
        }
        let d = GradientPaint.dither(x, y) / 255 * color.w
        color += SIMD4(d, d, d, 0)
        return color
    }
}

/// An image on its destination rectangle: the cell of a sparse backing store, the layer's clip,
/// trilinear blending with the next mipmap, a tint for shadow masks.
struct ImageShader: PixelShader {
    let sampler: ImageSampler, blendSampler: ImageSampler
    let blendWeight: Float
    let tint: SIMD4<Float>?
    let modulate: SIMD4<Float>?
    let dest: RoundedRect, clip: RoundedRect?
    let cx0: Double, cx1: Double, cy0: Double, cy1: Double
    let opacity: Float, antialiased: Bool
    let texels: UnsafeBufferPointer<UInt32>, blendTexels: UnsafeBufferPointer<UInt32>

    init(placement: ImagePlacement, blendPlacement: ImagePlacement, clip: RoundedRect?, opacity: Float, antialiased: Bool,
         texels: UnsafeBufferPointer<UInt32>, blendTexels: UnsafeBufferPointer<UInt32>) {
        sampler = ImageSampler(placement)
        blendSampler = ImageSampler(blendPlacement)
        blendWeight = placement.blend?.weight ?? 0
        tint = placement.tint
        modulate = placement.modulate
        dest = RoundedRect(rect: placement.coverage ?? placement.destination, radius: 0)
        self.clip = clip
        let cell = placement.cell
        cx0 = Double(cell?.minX ?? -.infinity); cx1 = Double(cell?.maxX ?? .infinity)
        cy0 = Double(cell?.minY ?? -.infinity); cy1 = Double(cell?.maxY ?? .infinity)
        self.opacity = opacity; self.antialiased = antialiased
        self.texels = texels; self.blendTexels = blendTexels
    }

    /// Without a clip of its own, a pixel well inside both the destination and the cell (of a
    /// sparse backing store) has coverage exactly 1.
    var interior: RoundedRect? {
        guard clip == nil else { return nil }
        let r = dest.rect
        let x0 = max(Double(r.minX), cx0), x1 = min(Double(r.maxX), cx1)
        let y0 = max(Double(r.minY), cy0), y1 = min(Double(r.maxY), cy1)
        guard x0 < x1, y0 < y1 else { return nil }
        return RoundedRect(rect: CGRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0), radius: 0)
    }

    @inline(__always) func cover(_ p: LocalSample) -> Float {
        if p.u < cx0 || p.u >= cx1 || p.v < cy0 || p.v >= cy1 { return 0 }
        let c = TileRasterizer.coverage(dest, p, antialiased: antialiased)
        guard c > 0, let clip else { return c }
        return c * TileRasterizer.coverage(clip, p, antialiased: antialiased)
    }

    @inline(__always) func shade(_ p: LocalSample, _ x: Int, _ y: Int) -> SIMD4<Float> {
        var color = sampler.sample(texels, p.u, p.v)
        // A sprite (no crossfade or tint) takes its colour and opacity as one product, as the
        // kernels' sprite rows do.
        if sampler.sprite { return color * ((modulate ?? SIMD4(repeating: 1)) * opacity) }
        if blendWeight > 0 {
            let lower = blendSampler.sample(blendTexels, p.u, p.v)
            color += (lower - color) * blendWeight
        }
        if let tint { color = tint * color.w }
        if let modulate { color *= modulate }
        return color * opacity
    }
}
