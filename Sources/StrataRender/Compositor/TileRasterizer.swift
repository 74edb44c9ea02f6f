// Stage 4 of a frame, the inner loop: draws display-list items into one tile, in order, from the
// last item that paints the whole tile opaquely (the ones below it are hidden). Most items go to
// the C span kernels (SpanKernel.swift), the rest to the Swift pixel path (PixelShaders.swift,
// coverage in TileRasterizer+Coverage.swift) or an offscreen pass (TileRasterizer+OffscreenPasses).
// Colours are premultiplied Float in gamma-encoded sRGB, blended source-over. A pixel's result
// depends only on the items and its own coordinates, never on the tile's size or position: that is
// what makes frames identical for any tile size and worker count.
import Foundation
import StrataCore
import CStrataKernels

/// How tiles are drawn: which instantiation of the span kernels runs (all give the same
/// bytes), and whether the span kernels at all, the interior-run fast paths, the fused borders
/// and the kernels' specialised code are taken (off only in tests that check they change no byte).
struct DrawSettings: Sendable {
    var lanes: Int32
    var spanKernels: Bool
    var interiorRuns: Bool
    var fusesBorders: Bool
    var specialisedKernels: Bool

    init(_ options: RenderOptions) {
        lanes = Int32((options.kernels ?? (options.simd ? strata_best_lanes() : STRATA_LANES_SCALAR)).rawValue)
        spanKernels = options.usesSpanKernels
        interiorRuns = options.usesInteriorRuns
        fusesBorders = options.fusesBorders && options.usesSpanKernels
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
        let base = order.startIndex
        let first = opaqueFrom ?? lastOpaque(list, order, from: start + 1, rect: buf.rect, settings) ?? start
        var kept: [Float]? = nil
        var pos = first
        // The items are read in place (`items[index]` copied each one, 274 bytes with its
        // references retained and released: with SpanKernel.draw's copy, about a fifth of a particle
        // frame's time in a profile).
        list.items.withUnsafeBufferPointer { items in
            while pos < order.count {
                // Before the opaque item the buffer does not hold the items skipped below it, so the
                // state there is not the state after `pos` items: keep nothing (after it, it is).
                if pos == mark && (pos == start || pos > first) { kept = PlanePool.shared.copy(buf.planes) }
                let index = Int(order[base + pos])
                if pos + 1 < order.count {
                    // The next item's fields and, for a sprite, its description, while this one is
                    // drawn (measured: the tile loop's own share of a particle frame's samples, mostly waiting
                    // for these lines, 6 % → 3 %).
                    let next = Int(order[base + pos + 1])
                    strata_prefetch(items.baseAddress! + next, Int(MemoryLayout<DrawItem>.size))
                    if let spans {
                        strata_prefetch(spans.sprites.flags + next, 4)
                        strata_prefetch(spans.sprites.items + next, Int(MemoryLayout<strata_item>.size))
                    }
                }
                let r = items[index].bounds.intersection(buf.rect)
                pos += 1
                if r.isEmpty { continue }
                // A sprite described for the frame: drawn from its description.
                if settings.spanKernels, let spans, let sprite = spans.sprites.sprite(index) {
                    SpanKernel.drawSprite(sprite, outline: items[index].outline, in: r, into: &buf, settings)
                    continue
                }
                // A layer's background or gradient and its border next: one pass for both (unless the
                // state between them is asked for).
                if settings.fusesBorders, pos < order.count, pos != mark, SpanKernel.mayHaveBorder(items[index]) {
                    let next = Int(order[base + pos])
                    let borderRect = items[next].bounds.intersection(buf.rect)
                    if !borderRect.isEmpty, SpanKernel.isBorder(items[next], of: items[index]) {
                        SpanKernel.drawBordered(items[index], in: r, spans: spans?[index], border: items[next], in: borderRect,
                                                spans: spans?[next], into: &buf, settings)
                        pos += 1
                        continue
                    }
                }
                draw(items[index], in: r, into: &buf, settings, spans: spans?[index])
            }
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

    static func draw(_ item: DrawItem, in r: PixelRect, into buf: inout TileBuffer, _ settings: DrawSettings,
                     spans: ItemRowSpans? = nil) {
        // The ops the span kernels know (almost every item) go there; the rest below.
        if settings.spanKernels, SpanKernel.draw(item, in: r, into: &buf, settings, spans: spans) { return }
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
                    scan(item, r, &buf, shader, settings, additive: item.blendMode == .additive)
                }
            }
        case .gradient(let paint, let clip):
            scan(item, r, &buf, GradientShader(paint: paint, clip: clip, antialiased: aa), settings)
        case .group(let list, let opacity, let mask):
            drawGroup(list, opacity: opacity, mask: mask, blend: item.blendMode, clips: list.effects.isEmpty ? [] : item.clips,
                      in: r, into: &buf, settings)
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
                // Only the glyph's part inside `r` (a glyph of the run may lie outside it).
                let y0 = max(r.y0, Int(g.y)), y1 = min(r.y1, Int(g.y + g.h)), x0 = max(r.x0, Int(g.x)), x1 = min(r.x1, Int(g.x + g.w))
                guard y0 < y1, x0 < x1 else { continue }
                for y in y0..<y1 {
                    for x in x0..<x1 {
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
            drawMix(from, to, t, in: r, into: &buf, settings)
        }
    }
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
