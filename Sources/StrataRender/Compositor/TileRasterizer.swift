// Stage 4 of a frame, the inner loop: draws display-list items into one tile. Each pixel centre
// is mapped back into the item's layer plane through the inverse homography; shapes give their
// coverage from the distance to their edge converted to screen pixels with the local Jacobian
// (exact for any affine or projective map), images are sampled bilinearly. Colours are
// premultiplied Float in gamma-encoded sRGB, blended source-over. A pixel's result depends only on
// the items and its own coordinates, never on the tile's size or position: that is what makes
// frames identical for any tile size and worker count.
import Foundation
import StrataCore
import CStrataKernels

/// The local coordinates of a pixel centre and the derivatives of the local coordinates with
/// respect to screen x and y.
struct LocalSample {
    var u: Double, v: Double
    var dudx: Double, dudy: Double, dvdx: Double, dvdy: Double
    /// Local units per screen pixel along u and v (|∇u|, |∇v|).
    var gu: Double, gv: Double
}

/// Maps pixel centres into a plane; for affine planes the derivatives are constants computed
/// once per item (measured: coverage was 26 % of the composite benchmark before this).
struct PixelMapper {
    let inv: Homography
    let affine: Bool
    let gu: Double, gv: Double

    init(_ inv: Homography) {
        self.inv = inv
        let m = inv.m
        affine = m.2 == 0 && m.5 == 0 && m.8 == 1
        gu = (m.0 * m.0 + m.3 * m.3).squareRoot()
        gv = (m.1 * m.1 + m.4 * m.4).squareRoot()
    }

    @inline(__always)
    func map(_ x: Int, _ y: Int) -> LocalSample? {
        let X = Double(x) + 0.5, Y = Double(y) + 0.5
        let m = inv.m
        let a = X * m.0 + Y * m.3 + m.6
        let b = X * m.1 + Y * m.4 + m.7
        if affine {
            return LocalSample(u: a, v: b, dudx: m.0, dudy: m.3, dvdx: m.1, dvdy: m.4, gu: gu, gv: gv)
        }
        let w = X * m.2 + Y * m.5 + m.8
        guard w > 0 else { return nil }  // behind the eye
        let iw = 1 / w
        let u = a * iw, v = b * iw
        let dudx = (m.0 - u * m.2) * iw, dudy = (m.3 - u * m.5) * iw
        let dvdx = (m.1 - v * m.2) * iw, dvdy = (m.4 - v * m.5) * iw
        return LocalSample(u: u, v: v, dudx: dudx, dudy: dudy, dvdx: dvdx, dvdy: dvdy,
                           gu: (dudx * dudx + dudy * dudy).squareRoot(), gv: (dvdx * dvdx + dvdy * dvdy).squareRoot())
    }
}

/// How tiles are drawn: which instantiation of the span kernels runs (all give the same
/// bytes), and whether the interior-run fast paths, the fused borders and the kernels'
/// specialised code are taken (off only in tests that check they change no byte).
struct DrawSettings: Sendable {
    var lanes: Int32
    var interiorRuns: Bool
    var fusesBorders: Bool
    var specialisedKernels: Bool

    init(_ options: RenderOptions) {
        lanes = Int32((options.kernels ?? (options.simd ? strata_best_lanes() : STRATA_LANES_SCALAR)).rawValue)
        interiorRuns = options.usesInteriorRuns
        fusesBorders = options.fusesBorders
        specialisedKernels = options.usesSpecialisedKernels
    }

    var kernelLanes: strata_lanes { strata_lanes(rawValue: UInt32(lanes)) }
}

enum TileRasterizer {
    /// Draws every item of `list` that touches the buffer.
    /// Items below the last one that paints every pixel of the buffer opaquely are skipped:
    /// that item replaces whatever they drew (`src + dst·0`), so the bytes are the same.
    static func draw(_ list: DisplayList, into buf: inout TileBuffer, _ settings: DrawSettings) {
        _ = draw(list, ArraySlice((0..<Int32(list.items.count)).filter { !list.items[Int($0)].bounds.intersection(buf.rect).isEmpty }),
                 from: 0, into: &buf, keepingStateAt: nil, settings)
    }

    /// Draws the items `order[start...]` (indices into `list.items`, in order) into a buffer
    /// that holds the result of `order[..<start]`, skipping those under an opaque one. Returns
    /// the planes as they were before drawing position `mark` (after all items when `mark` is
    /// `order.count`), or nil when that state was skipped over or not asked for.
    static func draw(_ list: DisplayList, _ order: ArraySlice<Int32>, from start: Int, into buf: inout TileBuffer,
                     keepingStateAt mark: Int?, _ settings: DrawSettings, opaqueFrom: Int? = nil,
                     spans: RowSpanTable? = nil) -> [Float]? {
        let items = list.items
        let base = order.startIndex
        let first = opaqueFrom ?? lastOpaque(list, order, from: start + 1, rect: buf.rect, settings) ?? start
        var kept: [Float]? = nil
        var pos = first
        while pos < order.count {
            // Before the opaque item the buffer does not hold the items skipped below it, so the
            // state there is not the state after `pos` items: keep nothing (after it, it is).
            if pos == mark && (pos == start || pos > first) { kept = PlanePool.shared.copy(buf.planes) }
            let index = Int(order[base + pos])
            let item = items[index]
            let r = item.bounds.intersection(buf.rect)
            pos += 1
            if r.isEmpty { continue }
            // A layer's background or gradient and its border next: one pass for both (unless the
            // state between them is asked for).
            if settings.fusesBorders, pos < order.count, pos != mark, SpanKernel.mayHaveBorder(item) {
                let next = Int(order[base + pos])
                let border = items[next], borderRect = border.bounds.intersection(buf.rect)
                if !borderRect.isEmpty, SpanKernel.isBorder(border, of: item) {
                    SpanKernel.drawBordered(item, in: r, spans: spans?[index], border: border, in: borderRect, spans: spans?[next],
                                            into: &buf, settings)
                    pos += 1
                    continue
                }
            }
            draw(item, in: r, into: &buf, settings, spans: spans?[index])
        }
        if mark == order.count { kept = PlanePool.shared.copy(buf.planes) }
        return kept
    }

    /// The position (at or after `start`) of the last item of `order` that paints every pixel of
    /// `rect` opaquely, if any: drawing can start there, on any buffer contents.
    static func lastOpaque(_ list: DisplayList, _ order: ArraySlice<Int32>, from start: Int, rect: PixelRect,
                           _ settings: DrawSettings) -> Int? {
        guard settings.interiorRuns, start < order.count else { return nil }
        let base = order.startIndex
        for pos in stride(from: order.count - 1, through: start, by: -1) {
            let i = Int(order[base + pos])
            // Its fields first: calling paintsOpaquely copies the whole item (274 bytes, its
            // references retained), and most items of a tile do not cover it.
            guard list.items[i].bounds.intersection(rect) == rect, list.items[i].clips.isEmpty else { continue }
            if list.items[i].paintsOpaquely(rect) { return pos }
        }
        return nil
    }

    /// Whether the items at positions `positions` of `order` are all solid fills without clips
    /// (drawing them costs less than copying their result).
    static func areSolidFills(_ list: DisplayList, _ order: ArraySlice<Int32>, _ positions: Range<Int>) -> Bool {
        let base = order.startIndex
        for pos in positions {
            let i = Int(order[base + pos])
            guard list.items[i].clips.isEmpty, case .fill = list.items[i].op else { return false }
        }
        return true
    }

    /// Fraction of the pixel inside a rounded rectangle.
    @inline(__always)
    static func coverage(_ s: RoundedRect, _ p: LocalSample, antialiased: Bool) -> Float {
        let hw = Double(s.rect.width) * 0.5, hh = Double(s.rect.height) * 0.5
        guard hw > 0, hh > 0 else { return 0 }
        let px = p.u - Double(s.rect.minX) - hw, py = p.v - Double(s.rect.minY) - hh
        let ax = abs(px), ay = abs(py)
        let r = py < 0 ? (px < 0 ? s.radii.0 : s.radii.1) : (px < 0 ? s.radii.2 : s.radii.3)
        if r > 0 && ax > hw - r && ay > hh - r {
            let qx = ax - (hw - r), qy = ay - (hh - r)
            let len = (qx * qx + qy * qy).squareRoot()
            let dist = len - r
            if !antialiased { return dist <= 0 ? 1 : 0 }
            guard len > 0 else { return 1 }
            let nu = (px < 0 ? -qx : qx) / len, nv = (py < 0 ? -qy : qy) / len
            let gx = nu * p.dudx + nv * p.dvdx, gy = nu * p.dudy + nv * p.dvdy
            let g = (gx * gx + gy * gy).squareRoot()
            guard g > 0 else { return dist <= 0 ? 1 : 0 }
            return Float(min(max(0.5 - dist / g, 0), 1))
        }
        if !antialiased { return (ax <= hw && ay <= hh) ? 1 : 0 }
        let gu = p.gu, gv = p.gv
        // Fully inside (the common case for large shapes): no partial coverage to compute.
        if ax + 0.5 * gu <= hw && ay + 0.5 * gv <= hh && gu < hw && gv < hh { return 1 }
        return Float(boxCoverage(ax, hw, gu) * boxCoverage(ay, hh, gv))
    }

    /// Overlap of a one-pixel-wide interval centred at `a` with `[−h, h]`, in screen pixels
    /// (`g` = local units per pixel). Exact for a box filter; thin shapes get partial coverage.
    @inline(__always)
    static func boxCoverage(_ a: Double, _ h: Double, _ g: Double) -> Double {
        guard g > 0 else { return a <= h ? 1 : 0 }
        let ap = a / g, hp = h / g
        let c = min(ap + 0.5, hp) - max(ap - 0.5, -hp)
        return min(max(c, 0), 1)
    }

    @inline(__always)
    static func clipCoverage(_ clips: [ClipShape], _ mappers: [PixelMapper], _ x: Int, _ y: Int) -> Float {
        var c: Float = 1
        for k in 0..<clips.count {
            guard let p = mappers[k].map(x, y) else { return 0 }
            c *= coverage(clips[k].shape, p, antialiased: clips[k].plane.antialiased)
            if c == 0 { return 0 }
        }
        return c
    }

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
    /// an opaque colour is stored without blending — the same bytes as the full path.
    @inline(__always)
    static func scan<S: PixelShader>(_ item: DrawItem, _ r: PixelRect, _ buf: inout TileBuffer, _ shader: S,
                                     _ settings: DrawSettings) {
        let mapper = PixelMapper(item.plane.fromScreen)
        let hasClips = !item.clips.isEmpty
        let clipMappers = item.clips.map { PixelMapper($0.plane.fromScreen) }
        let interior = settings.interiorRuns ? shader.interior.flatMap { InteriorRuns($0, mapper, over: r) } : nil
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
                    blend(shader.shade(p, x, y) * c, into: &d)
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

    static func draw(_ item: DrawItem, in r: PixelRect, into buf: inout TileBuffer, _ settings: DrawSettings,
                     spans: ItemRowSpans? = nil) {
        // The ops the span kernels know (almost every item) go there; the rest below.
        if SpanKernel.draw(item, in: r, into: &buf, settings, spans: spans) { return }
        let aa = item.plane.antialiased
        switch item.op {
        case .fill(let shape, let color):
            scan(item, r, &buf, FillShader(shape: shape, color: color, antialiased: aa), settings)
        case .ring(let outer, let inner, let color):
            scan(item, r, &buf, RingShader(outer: outer, inner: inner, color: color, antialiased: aa), settings)
        case .image(let placement, let clip, let opacity):
            var blendPlacement = placement
            if let b = placement.blend {
                blendPlacement.image = b.image
                blendPlacement.source = CGRect(x: placement.source.minX / 2, y: placement.source.minY / 2,
                                               width: placement.source.width / 2, height: placement.source.height / 2)
            }
            let blendPixels = placement.blend?.image.bitmap.pixels ?? []
            placement.image.bitmap.pixels.withUnsafeBytes { raw in
                blendPixels.withUnsafeBytes { blendRaw in
                    let shader = ImageShader(placement: placement, blendPlacement: blendPlacement, clip: clip,
                                             opacity: opacity, antialiased: aa,
                                             texels: raw.bindMemory(to: UInt32.self),
                                             blendTexels: blendRaw.bindMemory(to: UInt32.self))
                    // Additive particles: their own scalar loop (AdditiveBlend.swift).
                    if item.blendMode == .additive { scanAdditive(item, r, &buf, shader) } else { scan(item, r, &buf, shader, settings) }
                }
            }
        case .gradient(let paint, let clip):
            scan(item, r, &buf, GradientShader(paint: paint, clip: clip, antialiased: aa), settings)
        case .group(let list, let opacity, let mask):
            var sub = TileBuffer(rect: r)
            draw(list, into: &sub, settings)
            var maskBuffer: TileBuffer?
            if let mask {
                var m = TileBuffer(rect: r)
                draw(mask, into: &m, settings)
                maskBuffer = m
            }
            buf.withPixels { px in
                for y in r.y0..<r.y1 {
                    for x in r.x0..<r.x1 {
                        let s = sub[x, y]
                        if s.w > 0 {
                            let k = maskBuffer.map { $0[x, y].w * opacity } ?? opacity
                            if k > 0 { var d = px[x, y]; blend(s * k, into: &d); px[x, y] = d }
                        }
                    }
                }
            }
        case .vector(let shape, let color):
            // More clips than the span kernel takes: coverage rows, clips per pixel.
            let clipMappers = item.clips.map { PixelMapper($0.plane.fromScreen) }
            var mask = [Float](repeating: 0, count: r.x1 - r.x0)
            for y in r.y0..<r.y1 {
                guard let covered = mask.withUnsafeMutableBufferPointer({ shape.coverage(row: y, r.x0, r.x1, into: $0.baseAddress!) })
                else { continue }
                for x in covered {
                    let c = mask[x - r.x0] * clipCoverage(item.clips, clipMappers, x, y)
                    if c > 0 { var d = buf[x, y]; blend(color * c, into: &d); buf[x, y] = d }
                }
            }
        case .glyphs(let placed, let color):
            // More clips than the span kernel takes: each glyph pixel, clips per pixel.
            let clipMappers = item.clips.map { PixelMapper($0.plane.fromScreen) }
            for g in placed.glyphs {
                for y in max(r.y0, Int(g.y))..<min(r.y1, Int(g.y + g.h)) {
                    for x in max(r.x0, Int(g.x))..<min(r.x1, Int(g.x + g.w)) {
                        let c = g.mask[(y - Int(g.y)) * Int(g.w) + (x - Int(g.x))] * clipCoverage(item.clips, clipMappers, x, y)
                        if c > 0 { var d = buf[x, y]; blend(color * c, into: &d); buf[x, y] = d }
                    }
                }
            }
        case .shadow(let shadow):
            drawShadow(shadow, in: r, into: &buf, settings)
        case .depthComposite(let faces):
            drawDepthComposite(faces, in: r, into: &buf, settings)
        case .mix(let from, let to, let t):
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

extension DrawItem {
    /// Whether this item alone gives every pixel of `rect` alpha 1, whatever was below: an
    /// opaque fill or gradient without clips whose interior runs (coverage exactly 1) span every
    /// row of `rect`, on an affine plane.
    func paintsOpaquely(_ rect: PixelRect) -> Bool {
        guard clips.isEmpty, bounds.intersection(rect) == rect else { return false }
        let shape: RoundedRect
        switch op {
        case .fill(let s, let color) where color.w == 1: shape = s
        case .gradient(let paint, let clip) where GradientShader(paint: paint, clip: clip, antialiased: true).isOpaque: shape = clip
        default: return false
        }
        let mapper = PixelMapper(plane.fromScreen)
        guard mapper.affine, let runs = InteriorRuns(shape, mapper, over: rect) else { return false }
        // Axis-aligned: the interior (two slabs) and the outline reach full width on every row
        // between two rows that do, so the first and the last row decide.
        let m = plane.fromScreen.m
        let aligned = m.1 == 0 && m.3 == 0
        for y in rect.y0..<rect.y1 where !aligned || y == rect.y0 || y == rect.y1 - 1 {
            if let o = outline, o.span(row: y, rect.x0, rect.x1) != (rect.x0, rect.x1) { return false }
            guard let (a, b) = runs.columns(row: y, rect.x0, rect.x1), a == rect.x0, b == rect.x1 else { return false }
        }
        return true
    }
}

/// The pixels of each row of a region lying well inside a rounded rectangle seen through the
/// item's map: a conservative run (a pixel of margin on each side beyond the half-pixel box), so
/// every pixel in it has its whole box inside the straight part of the shape and `coverage`
/// returns exactly 1. Through a perspective map, u = (m0·X + m3·Y + m6) / w with w linear, so
/// "|u − cu| ≤ a" is still two linear inequalities in X along a row (w > 0 over the region); the
/// margin uses a bound of the pixel size over the region:
/// |∇u| = |(m0, m3) − u·(m2, m5)| / w ≤ (|(m0, m3)| + |u|·|(m2, m5)|) / min w.
///
/// Through an affine map the run also reaches into the rounded corners: the shape inset by a
/// margin m is itself a rounded rectangle (half-extents hw − m, hh − m, radius r − m), the
/// union of two slabs and four discs of radius r − m about the corners' centres, and being
/// convex it meets a row in one interval — the span of the six pieces' intervals. Inside it a
/// straight part's pixel is at least m from the edge along each axis and a corner's pixel at
/// least m from the arc, where coverage needs ½·g: m = 1.5·g leaves a pixel of margin, with g
/// the map's largest stretch (local units a pixel in any direction; gu and gv for a similarity).
struct InteriorRuns {
    let m0: Double, m1: Double, m2: Double, m3: Double, m4: Double, m5: Double, m6: Double, m7: Double, m8: Double
    let cu: Double, cv: Double
    /// Half-extents of the two slabs whose union is certainly inside: full width × height
    /// without the corners, and width without the corners × full height.
    let a1: Double, b1: Double, a2: Double, b2: Double
    /// The corner discs (affine maps only; rho 0 when not used): centres at (±du, ±dv) from
    /// (cu, cv), radius rho.
    let du: Double, dv: Double, rho: Double

    init?(_ s: RoundedRect, _ mapper: PixelMapper, over region: PixelRect) {
        let hw = Double(s.rect.width) * 0.5, hh = Double(s.rect.height) * 0.5
        guard hw > 0, hh > 0, !region.isEmpty else { return nil }
        let m = mapper.inv.m
        m0 = m.0; m1 = m.1; m2 = m.2; m3 = m.3; m4 = m.4; m5 = m.5; m6 = m.6; m7 = m.7; m8 = m.8
        cu = Double(s.rect.minX) + hw; cv = Double(s.rect.minY) + hh
        var gu = mapper.gu, gv = mapper.gv
        if !mapper.affine {
            // w is linear: its minimum over the region's pixel centres is at a corner.
            let xs = [Double(region.x0) + 0.5, Double(region.x1) - 0.5], ys = [Double(region.y0) + 0.5, Double(region.y1) - 0.5]
            var wMin = Double.infinity
            for x in xs { for y in ys { wMin = min(wMin, m2 * x + m5 * y + m8) } }
            guard wMin > 0 else { return nil }
            let persp = (m2 * m2 + m5 * m5).squareRoot()
            gu = ((m0 * m0 + m3 * m3).squareRoot() + (abs(cu) + hw) * persp) / wMin
            gv = ((m1 * m1 + m4 * m4).squareRoot() + (abs(cv) + hh) * persp) / wMin
        }
        guard gu.isFinite, gv.isFinite, gu < hw, gv < hh else { return nil }
        let r = max(s.radii.0, s.radii.1, s.radii.2, s.radii.3)
        // The map's largest stretch (spectral norm of its Jacobian) bounds gu, gv and the
        // gradient along any direction.
        let frobenius = gu * gu + gv * gv, det = m.0 * m.4 - m.1 * m.3
        let margin = 1.5 * ((frobenius + max(0, frobenius * frobenius - 4 * det * det).squareRoot()) / 2).squareRoot()
        if r == 0, m.0 == 1, m.1 == 0, m.2 == 0, m.3 == 0, m.4 == 1, m.5 == 0, m.8 == 1,
           InteriorRuns.exactInFloat(m.6), InteriorRuns.exactInFloat(m.7), InteriorRuns.exactInFloat(cu),
           InteriorRuns.exactInFloat(cv), InteriorRuns.exactInFloat(hw), InteriorRuns.exactInFloat(hh),
           InteriorRuns.exactInFloat(Double(region.x0)), InteriorRuns.exactInFloat(Double(region.x1)),
           InteriorRuns.exactInFloat(Double(region.y0)), InteriorRuns.exactInFloat(Double(region.y1)) {
            // A rectangle moved by a translation only, every number (the pixels' too) a multiple
            // of 1/256 below 2^14: the kernels' arithmetic on it is exact, and a pixel's coverage is exactly 1
            // when its square lies inside (|u − cu| + ½ ≤ hw and |v − cv| + ½ ≤ hh at its
            // centre). Rows take that as it is; along a row `inward` steps one pixel in from each
            // end, so the slab is a pixel wider. The runs then hold precisely those pixels — the
            // edge pixels of a full-frame background included, so its tiles count as opaque.
            a1 = hw + 0.5; b1 = hh - 0.5; a2 = a1; b2 = b1
            du = 0; dv = 0; rho = 0
        } else if mapper.affine, r > margin, r <= min(hw, hh) {
            // The inset shape: slabs and discs (see above).
            a1 = hw - margin; b1 = hh - r
            a2 = hw - r; b2 = hh - margin
            du = hw - r; dv = hh - r; rho = r - margin
        } else {
            // One more pixel of margin (gu, gv) than the half-pixel box needs.
            a1 = hw - 1.5 * gu; b1 = hh - r - 1.5 * gv
            a2 = hw - r - 1.5 * gu; b2 = hh - 1.5 * gv
            du = 0; dv = 0; rho = 0
        }
    }

    /// Whether `v` is a multiple of 1/256 below 2^14 in magnitude: sums and differences of such
    /// numbers and pixel centres are exact in Float.
    static func exactInFloat(_ v: Double) -> Bool {
        abs(v) < 16384 && (v * 256).rounded() == v * 256
    }

    /// The interior run of row `y` within `lo..<hi` (inside the region), nil when empty.
    @inline(__always)
    func columns(row y: Int, _ lo: Int, _ hi: Int) -> (Int, Int)? {
        let Y = Double(y) + 0.5
        // Along the row: u − cu = (ku·X + bu) / w, v − cv = (kv·X + bv) / w, w = m2·X + h.
        let h = Y * m5 + m8
        let ku = m0 - cu * m2, bu = Y * m3 + m6 - cu * h
        let kv = m1 - cv * m2, bv = Y * m4 + m7 - cv * h
        if rho > 0 {
            // The span of the pieces of a convex set (affine: w = 1, m2 = 0).
            var xlo = Double.infinity, xhi = -Double.infinity
            func include(_ piece: (Double, Double)?) {
                if let (l, u) = piece, l <= u { xlo = min(xlo, l); xhi = max(xhi, u) }
            }
            func slabPiece(_ a: Double, _ b: Double) -> (Double, Double)? {
                guard a > 0, b > 0, let (ua, ub) = InteriorRuns.slab(ku, bu, a, m2, h),
                      let (va, vb) = InteriorRuns.slab(kv, bv, b, m2, h) else { return nil }
                return (max(ua, va), min(ub, vb))
            }
            include(slabPiece(a1, b1)); include(slabPiece(a2, b2))
            for corner in 0..<4 {
                let su = corner & 1 == 0 ? 1.0 : -1.0, sv = corner < 2 ? 1.0 : -1.0
                include(InteriorRuns.disc(ku, bu - su * du, kv, bv - sv * dv, rho))
            }
            return InteriorRuns.inward(xlo, xhi, lo, hi)
        }
        let first = run(ku, bu, kv, bv, a1, b1, h, lo, hi)
        let second = run(ku, bu, kv, bv, a2, b2, h, lo, hi)
        switch (first, second) {
        case (nil, nil): return nil
        case (let f?, nil): return f
        case (nil, let g?): return g
        case (let f?, let g?): return g.1 - g.0 > f.1 - f.0 ? g : f
        }
    }

    /// The pixels of the row within `lo..<hi` inside one slab (|u − cu| ≤ a, |v − cv| ≤ b),
    /// one pixel in from its ends.
    @inline(__always)
    private func run(_ ku: Double, _ bu: Double, _ kv: Double, _ bv: Double, _ a: Double, _ b: Double, _ h: Double,
                     _ lo: Int, _ hi: Int) -> (Int, Int)? {
        guard a > 0, b > 0, let (ua, ub) = InteriorRuns.slab(ku, bu, a, m2, h),
              let (va, vb) = InteriorRuns.slab(kv, bv, b, m2, h) else { return nil }
        return InteriorRuns.inward(max(ua, va), min(ub, vb), lo, hi)
    }

    /// The pixels within `lo..<hi` whose centres lie in [xlo, xhi], one pixel in from its ends.
    @inline(__always)
    static func inward(_ xlo: Double, _ xhi: Double, _ lo: Int, _ hi: Int) -> (Int, Int)? {
        guard xlo.isFinite || xlo < 0, xhi.isFinite || xhi > 0 else { return nil }
        // Clamped on both sides: an end far right (or left) of any frame rounds to an empty run
        // instead of trapping in the conversion.
        let first = xlo < -1e15 ? lo : Int(min(1e15, max(-1e15, xlo - 0.5)).rounded(.up)) + 1
        let last = xhi > 1e15 ? hi - 1 : Int(max(-1e15, min(1e15, xhi - 0.5)).rounded(.down)) - 1
        let x0 = max(lo, first), x1 = min(hi, last + 1)
        return x0 < x1 ? (x0, x1) : nil
    }

    /// The X interval where (ku·X + bu)² + (kv·X + bv)² ≤ rho², nil when empty.
    @inline(__always)
    static func disc(_ ku: Double, _ bu: Double, _ kv: Double, _ bv: Double, _ rho: Double) -> (Double, Double)? {
        let a = ku * ku + kv * kv, b = ku * bu + kv * bv, c = bu * bu + bv * bv - rho * rho
        guard a > 0 else { return nil }
        let d = b * b - a * c
        guard d >= 0 else { return nil }
        let root = d.squareRoot()
        return ((-b - root) / a, (-b + root) / a)
    }

    /// The X interval where |k·X + b| ≤ a·(g·X + h) (w = g·X + h > 0 there; g = 0, h = 1 for
    /// affine maps), nil when empty: k·X + b ≤ a·w and −(k·X + b) ≤ a·w.
    @inline(__always)
    static func slab(_ k: Double, _ b: Double, _ a: Double, _ g: Double, _ h: Double) -> (Double, Double)? {
        var lo = -Double.infinity, hi = Double.infinity
        // c·X ≤ d for both inequalities.
        let c1 = k - a * g, d1 = a * h - b, c2 = -k - a * g, d2 = a * h + b
        if c1 > 0 { hi = min(hi, d1 / c1) } else if c1 < 0 { lo = max(lo, d1 / c1) } else if d1 < 0 { return nil }
        if c2 > 0 { hi = min(hi, d2 / c2) } else if c2 < 0 { lo = max(lo, d2 / c2) } else if d2 < 0 { return nil }
        return lo <= hi ? (lo, hi) : nil
    }
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
        if blendWeight > 0 {
            let lower = blendSampler.sample(blendTexels, p.u, p.v)
            color += (lower - color) * blendWeight
        }
        if let tint { color = tint * color.w }
        if let modulate { color *= modulate }
        return color * opacity
    }
}

/// Bilinear (or nearest) sampling of an image placed on a layer, clamping at the edges.
/// Texels are read as 32-bit words and weighted in Float; floor is done with integer
/// truncation (libm's floor showed up at 1 % of composite time).
struct ImageSampler {
    let width: Int, height: Int
    let sx0: Double, sxScale: Double, sy0: Double, syScale: Double
    let nearest: Bool

    init(_ p: ImagePlacement) {
        width = p.image.width; height = p.image.height
        let d = p.destination, s = p.source
        sxScale = Double(s.width) / Double(d.width); syScale = Double(s.height) / Double(d.height)
        sx0 = Double(s.minX) - Double(d.minX) * sxScale
        sy0 = Double(s.minY) - Double(d.minY) * syScale
        nearest = p.nearest
    }

    @inline(__always)
    static func floorInt(_ v: Double) -> Int {
        let t = Int(v.magnitude < 1e15 ? v : (v < 0 ? -1e15 : 1e15))
        return Double(t) > v ? t - 1 : t
    }

    @inline(__always)
    func texel(_ w: UnsafeBufferPointer<UInt32>, _ x: Int, _ y: Int) -> SIMD4<Float> {
        let cx = min(max(x, 0), width - 1), cy = min(max(y, 0), height - 1)
        let v = w[cy &* width &+ cx]
        // Bytes in memory are R, G, B, A: the little-endian word is A<<24 | B<<16 | G<<8 | R.
        return SIMD4(Float(v & 0xff), Float((v >> 8) & 0xff), Float((v >> 16) & 0xff), Float(v >> 24))
    }

    @inline(__always)
    func sample(_ w: UnsafeBufferPointer<UInt32>, _ u: Double, _ v: Double) -> SIMD4<Float> {
        let x = sx0 + u * sxScale, y = sy0 + v * syScale
        if nearest { return texel(w, ImageSampler.floorInt(x), ImageSampler.floorInt(y)) * (1 / 255) }
        let fx = x - 0.5, fy = y - 0.5
        let x0 = ImageSampler.floorInt(fx), y0 = ImageSampler.floorInt(fy)
        let tx = Float(fx - Double(x0)), ty = Float(fy - Double(y0))
        // On a texel centre (an image drawn 1:1 at whole pixels, like most backing stores) the
        // weights are 0 and the interpolation below returns that texel exactly: fetch just it.
        if tx == 0 && ty == 0 { return texel(w, x0, y0) * (1 / 255) }
        let a = texel(w, x0, y0), b = texel(w, x0 + 1, y0), c = texel(w, x0, y0 + 1), d = texel(w, x0 + 1, y0 + 1)
        let top = a + (b - a) * tx, bottom = c + (d - c) * tx
        return (top + (bottom - top) * ty) * (1 / 255)
    }
}
