// Draw items through the C span kernels (CStrataKernels): the item becomes a `strata_item`
// once per tile, each row is split into the pixels near the item's edges (coverage computed) and
// the interior run (coverage exactly 1, see InteriorRuns), and each piece is one kernel call of
// sixteen lanes a step with AVX-512 (eight, in AVX-512VL registers, for items a few dozen pixels
// wide), eight with AVX2 or SSE2. Sprites (particles) are described once a frame instead
// (`describeSprite`, `drawSprite`). Fills, borders, axial and radial
// gradients and images (bilinear or nearest, mipmap blend, tint, cell, clip) with up to eight
// ancestor clips go here; conic gradients and degenerate radial ones take TileRasterizer.scan. Measured on the composite
// scene (50 rotated images): 75 cycles a pixel in the Swift shader loop before.
import Foundation
import StrataCore
import CStrataKernels

/// An item's columns per row: outline span and interior run (four values a row from `y0`, in a
/// buffer the frame keeps for its tile stage).
// @unchecked: a read-only pointer into RowSpanTable's buffer (see there).
struct ItemRowSpans: @unchecked Sendable {
    let y0: Int
    let values: UnsafePointer<Int32>
}

enum SpanKernel {
    static let maximumClips = 8

    /// Draws `item` over `r` and returns true, or returns false when the kernels do not know it.
    static func draw(_ item: DrawItem, in r: PixelRect, into buf: inout TileBuffer, _ settings: DrawSettings,
                     spans: ItemRowSpans? = nil) -> Bool {
        // Images (particles) may add instead of blending source-over, and be colour-modulated:
        // the kernels do both with the Swift loops' arithmetic (AdditiveBlend, ImageShader).
        guard item.clips.count <= maximumClips else { return false }
        if item.blendMode == .additive { guard case .image = item.op else { return false } }
        if case .blend = item.blendMode { return false }   // groups of a layer's blend mode: LayerBlend.swift
        if case .vector(let shape, let color) = item.op {
            drawVector(shape, color: color, item, in: r, into: &buf, settings)
            return true
        }
        if case .glyphs(let placed, let color) = item.op {
            drawGlyphs(placed, color: color, item, in: r, into: &buf, settings)
            return true
        }
        var kernel = RowItem()
        guard kernel.describe(item, in: r, settings, withSpans: spans != nil) else { return false }
        // A narrow item (a particle, a small sprite) takes eight lanes where sixteen would be
        // mostly masked off: every instantiation gives the same bytes (tested).
        let lanes = narrowLanes(settings.kernelLanes, r)
        let tileX = Int32(buf.rect.x0), tileY = Int32(buf.rect.y0), stride = buf.stride, plane = buf.plane
        kernel.withPointers { k, rows in
            buf.planes.withUnsafeMutableBufferPointer { px in
                strata_draw_rows(&k, px.baseAddress!, stride, plane, tileX, tileY, &rows, spans?.values, Int32(spans?.y0 ?? 0), lanes)
            }
        }
        return true
    }

    /// The kernels' description of `item` into `out` when it is a sprite (`ImagePlacement.sprite`,
    /// drawn without clips, added or blended source-over), as `draw` describes it for a tile
    /// with the frame's row spans, its texel pointer into the image's pixels (alive as long as
    /// the image); false for other items.
    static func describeSprite(_ item: DrawItem, _ settings: DrawSettings, into out: UnsafeMutablePointer<strata_item>) -> Bool {
        guard isSprite(item), case .image(let placement, _, _) = item.op else { return false }
        var kernel = RowItem()
        guard kernel.describe(item, in: item.bounds, settings, withSpans: true),
              let texels = placement.image.bitmap.pixels.withUnsafeBytes({ $0.baseAddress }) else { return false }
        kernel.k.image.texels = texels.assumingMemoryBound(to: UInt32.self)
        // The bordered copy, where the system made one (the same texels, read in pairs).
        if let bordered = placement.spriteTexels, bordered.count == (placement.image.width + 2) * (placement.image.height + 2) {
            kernel.k.spriteTexels = bordered.withUnsafeBufferPointer { $0.baseAddress }
        }
        out.pointee = kernel.k
        return true
    }

    /// Whether `item` is a sprite as `describeSprite` takes it: an image (`ImagePlacement.sprite`)
    /// without clips or crossfade, added or blended source-over.
    static func isSprite(_ item: DrawItem) -> Bool {
        guard item.clips.isEmpty, item.blendMode == .additive || item.blendMode == .sourceOver,
              case .image(let placement, nil, _) = item.op else { return false }
        return placement.sprite && placement.blend == nil
    }

    /// Draws a sprite over `r` from its description (`describeSprite`): what `draw` does with
    /// the item, without copying or describing it again. Its rows' columns come from its outline,
    /// row by row in the kernel (FN(spriteRows)): a sprite has no row spans computed for the
    /// frame (see `rowSpanCount`).
    static func drawSprite(_ k: UnsafePointer<strata_item>, outline: ScreenQuad?, in r: PixelRect, into buf: inout TileBuffer,
                           _ settings: DrawSettings) {
        var rows = rowRegion(outline: outline, over: r)
        rows.interiorMode = STRATA_SPAN_INTERIOR
        let lanes = narrowLanes(settings.kernelLanes, r)
        let tileX = Int32(buf.rect.x0), tileY = Int32(buf.rect.y0), stride = buf.stride, plane = buf.plane
        buf.planes.withUnsafeMutableBufferPointer { px in
            strata_draw_rows(k, px.baseAddress!, stride, plane, tileX, tileY, &rows, nil, 0, lanes)
        }
    }

    /// Items at most this many pixels wide in a tile take the eight-lane kernels (AVX2's code in
    /// AVX-512VL registers, STRATA_LANES_AVX512_8) rather than the sixteen-lane ones.
    static let narrowItem = 32

    /// The kernels for an item drawn over `r` with `lanes`: eight lanes for a narrow one.
    @inline(__always)
    static func narrowLanes(_ lanes: strata_lanes, _ r: PixelRect) -> strata_lanes {
        lanes == STRATA_LANES_AVX512 && r.x1 - r.x0 <= narrowItem ? STRATA_LANES_AVX512_8 : lanes
    }

    /// Whether `fill` is an op `isBorder` admits below a border (cheap: asked of every item).
    static func mayHaveBorder(_ fill: DrawItem) -> Bool {
        switch fill.op {
        case .fill, .gradient: return true
        default: return false
        }
    }

    /// Whether `border` is the border of the layer whose background or gradient `fill` is, so
    /// that `drawBordered` may draw both in one pass: a ring whose outer edge is the fill's shape,
    /// seen through the same map and clips, both drawn source-over by the row kernels.
    static func isBorder(_ border: DrawItem, of fill: DrawItem) -> Bool {
        guard case .ring(let outer, _, _) = border.op, fill.blendMode == .sourceOver, border.blendMode == .sourceOver,
              fill.clips.count <= maximumClips, fill.plane.fromScreen == border.plane.fromScreen,
              fill.plane.antialiased == border.plane.antialiased, fill.clips.count == border.clips.count else { return false }
        for (a, b) in zip(fill.clips, border.clips) {
            guard a.shape == b.shape, a.plane.fromScreen == b.plane.fromScreen, a.plane.antialiased == b.plane.antialiased else { return false }
        }
        switch fill.op {
        case .fill(let shape, _):
            return shape == outer
        case .gradient(let paint, let clip):
            return clip == outer && drawsGradient(paint)
        default:
            return false
        }
    }

    /// Whether `fill`'s row spans may be `border`'s (computed once for both): `border` is its
    /// layer's border (`isBorder`) over the same pixels with the same outline, so the columns
    /// the outline may touch are the same, and the border's hole lies inside the fill's shape
    /// (an inset of it), so the hole's interior run — where the hole's coverage is exactly 1 —
    /// is a run where the fill's coverage is exactly 1 too. (The fill's own run is longer; the
    /// kernels draw it alone only inside the hole anyway.)
    static func sharesRowSpans(_ border: DrawItem, with fill: DrawItem) -> Bool {
        guard fill.bounds == border.bounds, isBorder(border, of: fill), case .ring(let outer, let inner, _) = border.op else { return false }
        switch (fill.outline, border.outline) {
        case (nil, nil): break
        case let (a?, b?): guard a.xs == b.xs, a.ys == b.ys else { return false }
        default: return false
        }
        // The hole is the outer edge inset by the border's width, as DisplayListBuilder makes it
        // (corner centres unmoved, radii shrunk by the width or to 0): inside the outer edge.
        let width = Double(inner.rect.minX - outer.rect.minX)
        return width >= 0 && inner == outer.inset(by: width)
    }

    /// Draws `fill` and then `border` over it (`isBorder(border, of: fill)`) in one pass of the
    /// kernels: the same bytes as drawing one and then the other, with the pixels the border
    /// touches loaded, stored and mapped once and the shared edge's coverage computed once.
    static func drawBordered(_ fill: DrawItem, in fillRect: PixelRect, spans fillSpans: ItemRowSpans?,
                             border: DrawItem, in borderRect: PixelRect, spans borderSpans: ItemRowSpans?,
                             into buf: inout TileBuffer, _ settings: DrawSettings) {
        var kernel = RowItem(), ring = RowItem()
        guard kernel.describe(fill, in: fillRect, settings), ring.describe(border, in: borderRect, settings) else {
            preconditionFailure("isBorder admits only items the row kernels draw")
        }
        let lanes = settings.kernelLanes
        let tileX = Int32(buf.rect.x0), tileY = Int32(buf.rect.y0), stride = buf.stride, plane = buf.plane
        kernel.withPointers { k, rows in
            buf.planes.withUnsafeMutableBufferPointer { px in
                // The border's own pointers are not read: only its inner edge and colour are.
                strata_draw_rows_bordered(&k, &ring.k, px.baseAddress!, stride, plane, tileX, tileY,
                                          &rows, fillSpans?.values, Int32(fillSpans?.y0 ?? 0),
                                          &ring.rows, borderSpans?.values, Int32(borderSpans?.y0 ?? 0), lanes)
            }
        }
    }

    /// An item as the row kernels take it (`strata_item` and its rows over a tile's region), with
    /// the arrays its pointers point into while it is drawn.
    private struct RowItem {
        var k = strata_item()
        var rows = strata_rows()
        var stops: [Float] = [], stopColors: [Float] = []
        var texels: [UInt8] = [], blendTexels: [UInt8] = []
        var clips: [strata_clip] = []

        /// Describes `item` over `r` in place (a fresh value's fields; false for ops the row
        /// kernels do not draw). In place, not an initialiser returning an optional: the copies of
        /// these structures showed in the profile, at several thousand draw calls a frame.
        /// `withSpans`: the item's row spans were computed for the frame (the kernels take its
        /// outline columns and interior run from them), so the interior is not looked for again.
        mutating func describe(_ item: DrawItem, in r: PixelRect, _ settings: DrawSettings, withSpans: Bool = false) -> Bool {
            k.map = strataMap(item.plane.fromScreen)
            k.antialiased = item.plane.antialiased ? 1 : 0
            k.general = settings.specialisedKernels ? 0 : 1
            k.cell = (-.infinity, .infinity, -.infinity, .infinity)
            k.opacity = 1
            var interior: RoundedRect?
            var hole = false, solid: SIMD4<Float>?, opaque = false
            switch item.op {
            case .fill(let shape, let color):
                k.cover = STRATA_COVER_RRECT; k.shape = strataRRect(shape)
                k.paint = STRATA_PAINT_SOLID; k.color = (color.x, color.y, color.z, color.w)
                interior = shape; solid = color; opaque = color.w == 1
            case .ring(let outer, let inner, let color):
                k.cover = STRATA_COVER_RING; k.shape = strataRRect(outer); k.inner = strataRRect(inner)
                k.paint = STRATA_PAINT_SOLID; k.color = (color.x, color.y, color.z, color.w)
                interior = inner; hole = true
            case .gradient(let paint, let clip):
                guard drawsGradient(paint) else { return false }
                k.paint = paint.kind == .axial ? STRATA_PAINT_AXIAL : STRATA_PAINT_RADIAL
                k.cover = STRATA_COVER_RRECT; k.shape = strataRRect(clip)
                k.gsx = Float(paint.sx); k.gsy = Float(paint.sy); k.gdx = Float(paint.dx); k.gdy = Float(paint.dy)
                k.gInvLen2 = Float(paint.invLen2); k.grx = Float(paint.rx); k.gry = Float(paint.ry)
                k.gFocal = paint.focal ? 1 : 0
                k.gfx = Float(paint.fx); k.gfy = Float(paint.fy); k.gfa = Float(paint.focalA)
                k.stopCount = Int32(paint.kernelStops.count)
                k.opacity = paint.opacity
                stops = paint.kernelStops; stopColors = paint.kernelColors
                interior = clip
                opaque = paint.opacity == 1 && paint.colors.allSatisfy { $0.w == 1 }
            case .image(let placement, let clip, let opacity):
                k.cover = STRATA_COVER_IMAGE
                k.shape = strataRRect(RoundedRect(rect: placement.coverage ?? placement.destination, radius: 0))
                if let clip { k.hasClip = 1; k.inner = strataRRect(clip) }
                if let c = placement.cell { k.cell = (Float(c.minX), Float(c.maxX), Float(c.minY), Float(c.maxY)) }
                k.paint = STRATA_PAINT_IMAGE
                k.opacity = opacity
                k.nearest = placement.nearest ? 1 : 0
                k.image = strataSampler(placement)
                texels = placement.image.bitmap.pixels
                if let b = placement.blend {
                    var lower = placement
                    lower.image = b.image
                    lower.source = CGRect(x: placement.source.minX / 2, y: placement.source.minY / 2,
                                          width: placement.source.width / 2, height: placement.source.height / 2)
                    k.blendImage = strataSampler(lower)
                    k.blendWeight = b.weight
                    blendTexels = b.image.bitmap.pixels
                }
                if let t = placement.tint { k.hasTint = 1; k.tint = (t.x, t.y, t.z, t.w) }
                if let m = placement.modulate { k.hasModulate = 1; k.modulate = (m.x, m.y, m.z, m.w) }
                k.additive = item.blendMode == .additive ? 1 : 0
                k.sprite = placement.sprite ? 1 : 0
                if clip == nil {
                    let d = placement.coverage ?? placement.destination
                    let c = placement.cell ?? d
                    let x0 = max(d.minX, c.minX), x1 = min(d.maxX, c.maxX), y0 = max(d.minY, c.minY), y1 = min(d.maxY, c.maxY)
                    if x0 < x1, y0 < y1 { interior = RoundedRect(rect: CGRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0), radius: 0) }
                }
            default:
                return false
            }
            if !item.clips.isEmpty {
                clips = item.clips.map { c -> strata_clip in
                    var s = strata_clip()
                    s.map = strataMap(c.plane.fromScreen); s.shape = strataRRect(c.shape); s.antialiased = c.plane.antialiased ? 1 : 0
                    return s
                }
            }
            rows = rowSetup(item, interior: withSpans ? nil : interior, over: r, settings)
            rows.hole = hole ? 1 : 0
            rows.interiorMode = !clips.isEmpty ? STRATA_SPAN_INTERIOR
                : solid?.w == 1 ? STRATA_SPAN_STORE : opaque ? STRATA_SPAN_REPLACE : STRATA_SPAN_INTERIOR
            return true
        }

        /// Calls `body` with the item's pointers set into its arrays (valid only during the call).
        mutating func withPointers(_ body: (inout strata_item, inout strata_rows) -> Void) {
            stops.withUnsafeBufferPointer { stopsPtr in
                stopColors.withUnsafeBufferPointer { colorsPtr in
                    texels.withUnsafeBytes { tex in
                        blendTexels.withUnsafeBytes { tex2 in
                            clips.withUnsafeBufferPointer { clipsPtr in
                                k.stops = stopsPtr.baseAddress; k.stopColors = colorsPtr.baseAddress
                                k.image.texels = tex.baseAddress?.assumingMemoryBound(to: UInt32.self)
                                k.blendImage.texels = tex2.baseAddress?.assumingMemoryBound(to: UInt32.self)
                                k.clips = clipsPtr.baseAddress; k.clipCount = Int32(clipsPtr.count)
                                body(&k, &rows)
                            }
                        }
                    }
                }
            }
        }
    }

    /// The kernel's description of `item` painted in one colour (coverage comes from elsewhere:
    /// a shape's cells or glyph masks), with its ancestors' clips.
    private static func solidKernelItem(_ item: DrawItem, color: SIMD4<Float>, _ settings: DrawSettings) -> (strata_item, [strata_clip]) {
        var k = strata_item()
        k.map = strataMap(item.plane.fromScreen)
        k.antialiased = item.plane.antialiased ? 1 : 0
        k.general = settings.specialisedKernels ? 0 : 1
        k.cover = STRATA_COVER_NONE
        k.paint = STRATA_PAINT_SOLID
        k.color = (color.x, color.y, color.z, color.w)
        k.opacity = 1
        let clips = item.clips.map { c -> strata_clip in
            var s = strata_clip()
            s.map = strataMap(c.plane.fromScreen); s.shape = strataRRect(c.shape); s.antialiased = c.plane.antialiased ? 1 : 0
            return s
        }
        return (k, clips)
    }

    /// A shape's coverage rows over `r`, in its colour, through the item's clips.
    static func drawVector(_ shape: VectorShape, color: SIMD4<Float>, _ item: DrawItem, in r: PixelRect,
                           into buf: inout TileBuffer, _ settings: DrawSettings) {
        precondition(shape.isRasterized, "vector shapes are rasterised before the tiles are drawn")
        guard shape.stripCount > 0 else { return }
        var (k, clips) = solidKernelItem(item, color: color, settings)
        let lanes = settings.kernelLanes
        let tileX = Int32(buf.rect.x0), tileY = Int32(buf.rect.y0), stride = buf.stride, plane = buf.plane
        let region = shape.region
        clips.withUnsafeBufferPointer { clipsPtr in
            k.clips = clipsPtr.baseAddress; k.clipCount = Int32(clipsPtr.count)
            shape.withStrips { strips, alpha, rows in
                buf.withPlanesAndScratch { px, scratch in
                    strata_draw_strips(&k, px, stride, plane, tileX, tileY, strips, alpha, rows,
                                       Int32(region.x0), Int32(region.y0), Int32(region.y1 - region.y0),
                                       Int32(r.x0), Int32(r.y0), Int32(r.x1), Int32(r.y1), scratch, lanes)
                }
            }
        }
    }

    /// Glyph masks over `r`, in their colour, through the item's clips.
    static func drawGlyphs(_ placed: PlacedGlyphs, color: SIMD4<Float>, _ item: DrawItem, in r: PixelRect,
                           into buf: inout TileBuffer, _ settings: DrawSettings) {
        var (k, clips) = solidKernelItem(item, color: color, settings)
        let lanes = settings.kernelLanes
        let tileX = Int32(buf.rect.x0), tileY = Int32(buf.rect.y0), stride = buf.stride, plane = buf.plane
        clips.withUnsafeBufferPointer { clipsPtr in
            k.clips = clipsPtr.baseAddress; k.clipCount = Int32(clipsPtr.count)
            placed.glyphs.withUnsafeBufferPointer { glyphs in
                buf.withPlanesAndScratch { px, scratch in
                    strata_draw_glyphs(&k, px, stride, plane, tileX, tileY, glyphs.baseAddress, glyphs.count,
                                       Int32(r.x0), Int32(r.y0), Int32(r.x1), Int32(r.y1), scratch, lanes)
                }
            }
        }
    }

    /// The region, outline and interior of an item's rows over `r`.
    static func rowSetup(_ item: DrawItem, interior: RoundedRect?, over r: PixelRect, _ settings: DrawSettings) -> strata_rows {
        var rows = rowRegion(outline: item.outline, over: r)
        if settings.interiorRuns, let interior, let runs = InteriorRuns(interior, PixelMapper(item.plane.fromScreen), over: r) {
            rows.hasInterior = 1
            rows.interior = runs.strataInterior
        }
        return rows
    }

    /// Rows over `r` within `outline`, without an interior.
    @inline(__always)
    static func rowRegion(outline: ScreenQuad?, over r: PixelRect) -> strata_rows {
        var rows = strata_rows()
        rows.x0 = Int32(r.x0); rows.y0 = Int32(r.y0); rows.x1 = Int32(r.x1); rows.y1 = Int32(r.y1)
        if let o = outline {
            rows.hasOutline = 1
            rows.outline.xs = (o.xs[0], o.xs[1], o.xs[2], o.xs[3]); rows.outline.ys = (o.ys[0], o.ys[1], o.ys[2], o.ys[3])
        }
        return rows
    }

    /// Whether the row kernels draw this gradient: axial, or radial with both radii (conic and
    /// degenerate radial ones take TileRasterizer.scan).
    static func drawsGradient(_ paint: GradientPaint) -> Bool {
        paint.kind == .axial || (paint.kind == .radial && paint.rx > 0 && paint.ry > 0)
    }

    /// The shape whose inside has coverage exactly 1 for the ops drawn row by row (nil inside
    /// for none), and whether that inside is a hole; nil for ops not drawn that way.
    static func interior(of op: DrawOp) -> (shape: RoundedRect?, hole: Bool)? {
        switch op {
        case .fill(let shape, _): return (shape, false)
        case .ring(_, let inner, _): return (inner, true)
        case .gradient(let paint, let clip):
            return drawsGradient(paint) ? (clip, false) : nil
        case .image(let placement, let clip, _):
            guard clip == nil else { return (nil, false) }
            let d = placement.coverage ?? placement.destination
            let c = placement.cell ?? d
            let x0 = max(d.minX, c.minX), x1 = min(d.maxX, c.maxX), y0 = max(d.minY, c.minY), y1 = min(d.maxY, c.maxY)
            guard x0 < x1, y0 < y1 else { return (nil, false) }
            return (RoundedRect(rect: CGRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0), radius: 0), false)
        default:
            return nil
        }
    }

    /// The number of span values an item needs (four a row of its bounds in the frame), or nil
    /// for items not drawn row by row.
    static func rowSpanCount(of item: DrawItem, frame: PixelRect) -> Int? {
        // A sprite's rows are a few pixels long and its interior is not looked for
        // (FN(spriteRows)): its columns found row by row from its outline as it is drawn cost
        // less than computing them here for the frame and reading them back (cache misses:
        // 20 000 particles' spans are 8 MB). (Asked first: a sprite is an image without clips,
        // which the test below admits, and its answer is the same either way.)
        if isSprite(item) { return nil }
        guard item.clips.count <= maximumClips, interior(of: item.op) != nil else { return nil }
        let r = item.bounds.intersection(frame)
        return r.isEmpty ? nil : 4 * (r.y1 - r.y0)
    }

    /// Writes an item's row spans over its whole bounds (see strata_item_row_spans), computed once
    /// a frame so the tiles it crosses need not each find them.
    static func fillRowSpans(of item: DrawItem, frame: PixelRect, _ settings: DrawSettings, into out: UnsafeMutablePointer<Int32>) {
        guard let (shape, _) = interior(of: item.op) else { return }
        let r = item.bounds.intersection(frame)
        var rows = rowSetup(item, interior: shape, over: r, settings)
        strata_item_row_spans(&rows, out)
    }

    static func strataMap(_ h: Homography) -> strata_map {
        let m = h.m
        var s = strata_map()
        s.m = (m.0, m.1, m.2, m.3, m.4, m.5, m.6, m.7, m.8)
        s.affine = m.2 == 0 && m.5 == 0 && m.8 == 1 ? 1 : 0
        s.similar = s.affine == 1 && ((m.0 == m.4 && m.1 == -m.3) || (m.0 == -m.4 && m.1 == m.3)) ? 1 : 0
        s.gu = Float((m.0 * m.0 + m.3 * m.3).squareRoot())
        s.gv = Float((m.1 * m.1 + m.4 * m.4).squareRoot())
        return s
    }

    static func strataRRect(_ r: RoundedRect) -> strata_rrect {
        let hw = Double(r.rect.width) * 0.5, hh = Double(r.rect.height) * 0.5
        var s = strata_rrect()
        s.cu = Float(Double(r.rect.minX) + hw); s.cv = Float(Double(r.rect.minY) + hh)
        s.hw = Float(hw); s.hh = Float(hh)
        s.r = (Float(r.radii.0), Float(r.radii.1), Float(r.radii.2), Float(r.radii.3))
        return s
    }

    static func strataSampler(_ p: ImagePlacement) -> strata_sampler {
        let d = p.destination, s = p.source
        var out = strata_sampler()
        out.width = Int32(p.image.width); out.height = Int32(p.image.height)
        let sxScale = Double(s.width) / Double(d.width), syScale = Double(s.height) / Double(d.height)
        out.sxScale = Float(sxScale); out.syScale = Float(syScale)
        out.sx0 = Float(Double(s.minX) - Double(d.minX) * sxScale)
        out.sy0 = Float(Double(s.minY) - Double(d.minY) * syScale)
        return out
    }
}

extension InteriorRuns {
    /// These runs' numbers as the C row functions take them.
    var strataInterior: strata_interior {
        var r = strata_interior()
        r.m = (m0, m1, m2, m3, m4, m5, m6, m7, m8)
        r.cu = cu; r.cv = cv
        r.a1 = a1; r.b1 = b1; r.a2 = a2; r.b2 = b2
        r.du = du; r.dv = dv; r.rho = rho
        return r
    }
}
