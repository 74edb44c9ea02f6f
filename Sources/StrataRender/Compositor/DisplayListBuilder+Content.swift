// Stage 2, a layer's own content as draw items: background, gradient, image contents, a tiled
// layer's tiles, and its vector or drawn content — shapes and text straight into the tiles where
// the plane allows, otherwise a backing store from the cache.
import Foundation
import StrataCore

extension DisplayListBuilder {
    /// Appends the items of `layer`'s own content (not its sublayers, border or effects).
    func appendContent(of layer: LayerSnapshot, H: Homography, plane: PlaneMap, alpha: Float, boundsShape: RoundedRect,
                       clips: [ClipShape], items: inout [DrawItem]) {
        // Background.
        if let bg = layer.backgroundColor, bg.a > 0 {
            let color = premultiplied(bg, alpha)
            emit(repeated.fill(boundsShape, color), local: layer.bounds, clips: clips, H: H, plane: plane, into: &items)
        }
        // Gradient contents (CAGradientLayer), evaluated per pixel.
        if let g = layer.gradient {
            let clip = layer.masksToBounds ? boundsShape : RoundedRect(rect: layer.bounds, radius: 0)
            if let op = repeated.gradient(g, bounds: layer.bounds, opacity: alpha, clip: clip, ramps: cache.gradientRamps) {
                emit(op, local: layer.bounds, clips: clips, H: H, plane: plane, into: &items)
            }
        }
        // Image contents (nine-slice when contentsCenter is set).
        if let contents = layer.contents {
            ContentsPlacement.forEachPlacement(contents, in: layer.bounds, flipped: layer.isGeometryFlipped) { whole in
                var placement = whole
                if contents.minificationFilter == .trilinear {
                    placement = mipmapped(placement, H, bias: contents.minificationFilterBias)
                }
                var local = placement.cell.map { $0.intersection(placement.destination) } ?? placement.destination
                if layer.masksToBounds { local = local.intersection(layer.bounds) }
                if !local.isNull {
                    let clip = layer.masksToBounds ? boundsShape : nil
                    emit(repeated.image(placement, clip: clip, opacity: alpha), local: local, clips: clips, H: H, plane: plane, into: &items)
                }
            }
        }
        // A tiled layer's visible tiles at the level of detail it is shown at (TiledLayerItems.swift).
        if let tiled = layer.tiledContent {
            items.append(contentsOf: tiledItems(tiled, of: layer, H: H, plane: plane, opacity: alpha, clips: clips))
        }
        if case .shape(let shape) = layer.content, let area = ShapeRasterizer.drawArea(of: shape), isInFront(area, H) {
            appendShape(shape, area: area, of: layer, H: H, plane: plane, alpha: alpha, boundsShape: boundsShape, clips: clips,
                        items: &items)
        } else if case .text(let text) = layer.content, let s = uniformScale(H),
                  let runs = cache.shaper.shape(text, size: layer.bounds.size) {
            appendText(runs, scale: s, of: layer, H: H, plane: plane, alpha: alpha, boundsShape: boundsShape, clips: clips,
                       items: &items)
        } else if layer.content != .none, let area = ContentRasterizer.drawArea(of: layer.content, layerBounds: layer.bounds) {
            appendBackingStore(area: area, of: layer, H: H, plane: plane, alpha: alpha, boundsShape: boundsShape, clips: clips,
                               items: &items)
        }
    }

    /// A shape whose whole draw area is in front of the eye: its fill and stroke straight into the tiles.
    private func appendShape(_ shape: ShapeContent, area: CGRect, of layer: LayerSnapshot, H: Homography, plane: PlaneMap,
                             alpha: Float, boundsShape: RoundedRect, clips: [ClipShape], items: inout [DrawItem]) {
        var contentClips = clips
        if layer.masksToBounds {
            contentClips.append(ClipShape(plane: plane, shape: boundsShape,
                                          bounds: Self.pixelBounds(of: layer.bounds, H).intersection(frameRect)))
        }
        let local = layer.masksToBounds ? area.intersection(layer.bounds) : area
        let s = BackingScale.choose(for: area, H, frameWidth: width, frameHeight: height)
        // The fill, then the stroke (a function, not a loop over a list of the two: that list
        // was an allocation a shape a frame).
        func emitPart(_ part: VectorShape.Part, _ color: RGBA?) {
            guard let color, !local.isNull else { return }
            var b = Self.pixelBounds(of: local, H).intersection(frameRect)
            for c in contentClips { b = b.intersection(c.bounds) }
            guard !b.isEmpty else { return }
            let v = VectorShape.make(content: shape, part: part, toScreen: H, scale: s, region: b, from: currentRecords.shapes)
            items.append(DrawItem(op: .vector(v, color: premultiplied(color, alpha)), plane: plane, bounds: b,
                                  clips: contentClips, outline: Self.screenQuad(of: local, H)))
        }
        emitPart(.fill, shape.fillColor)
        emitPart(.stroke, shape.strokeEnd > shape.strokeStart ? shape.strokeColor : nil)
    }

    /// Text on a plane that only scales and moves (`s` pixels a point): glyph masks straight into the tiles.
    private func appendText(_ runs: [ShapedRun], scale s: Double, of layer: LayerSnapshot, H: Homography, plane: PlaneMap,
                            alpha: Float, boundsShape: RoundedRect, clips: [ClipShape], items: inout [DrawItem]) {
        // Text on a plane that only scales and moves: glyph masks straight into the tiles,
        // clipped to the bounds as a text layer's backing store is.
        let textClip = ClipShape(plane: plane, shape: layer.masksToBounds ? boundsShape : RoundedRect(rect: layer.bounds, radius: 0),
                                 bounds: Self.pixelBounds(of: layer.bounds, H).intersection(frameRect))
        // The clips with the text's own, made only for glyphs that need it (see `inside`).
        var textClips: [ClipShape]?
        let m = H.m, q = Double(GlyphCache.phases)
        for run in runs {
            let placed = PlacedGlyphs.make(count: run.glyphs.count, from: currentRecords.placedGlyphs) { i in
                // The origin on screen: x to the nearest quarter pixel, the baseline to the
                // nearest whole one (horizontal strokes stay crisp, as with Cairo and Skia).
                let glyph = run.glyphs[i]
                let X = ((Double(layer.bounds.minX) + glyph.x) * m.0 + m.6) * q
                let Y = (Double(layer.bounds.minY) + glyph.y) * m.4 + m.7
                guard abs(X) < 1e9, abs(Y) < 1e9 else { return nil }
                let qx = Int(X.rounded()), iy = Int(Y.rounded())
                let ix = qx >= 0 ? qx / 4 : -((-qx + 3) / 4)
                let mask = glyphMasks.mask(run.font, scale: s, glyph: glyph.id, phaseX: qx - 4 * ix, phaseY: 0, in: cache.glyphs)
                return (mask, ix + mask.left, iy + mask.top)
            }
            var b = placed.bounds.intersection(frameRect).intersection(textClip.bounds)
            for c in clips { b = b.intersection(c.bounds) }
            guard !b.isEmpty else { continue }
            // Glyphs a pixel or more inside the (square-cornered) bounds: the clip covers their
            // every pixel exactly, so it is left out (no clip coverage per glyph pixel).
            let inside = !layer.masksToBounds && placed.bounds.x0 >= Int((m.0 * Double(layer.bounds.minX) + m.6).rounded(.up)) + 1
                && placed.bounds.x1 <= Int((m.0 * Double(layer.bounds.maxX) + m.6).rounded(.down)) - 1
                && placed.bounds.y0 >= Int((m.4 * Double(layer.bounds.minY) + m.7).rounded(.up)) + 1
                && placed.bounds.y1 <= Int((m.4 * Double(layer.bounds.maxY) + m.7).rounded(.down)) - 1
            let itemClips: [ClipShape]
            if inside {
                itemClips = clips
            } else if let made = textClips {
                itemClips = made
            } else {
                itemClips = clips + [textClip]
                textClips = itemClips
            }
            items.append(DrawItem(op: .glyphs(placed, color: premultiplied(run.color, alpha)), plane: plane, bounds: b,
                                  clips: itemClips))
        }
    }

    /// Other vector or drawn content (text on other planes, custom drawing): a backing store
    /// rasterised at the scale the layer is shown at, composited as images.
    private func appendBackingStore(area: CGRect, of layer: LayerSnapshot, H: Homography, plane: PlaneMap, alpha: Float,
                                    boundsShape: RoundedRect, clips: [ClipShape], items: inout [DrawItem]) {
        // Other vector or drawn content (text, custom drawing), from a backing store
        // rasterised at the scale the layer is shown at.
        let s = BackingScale.choose(for: area, H, frameWidth: width, frameHeight: height)
        if let raster = backingStore(for: layer.content, layerBounds: layer.bounds, scale: s) {
            let placement = ImagePlacement(image: raster.image, destination: raster.area,
                                           source: CGRect(x: 0, y: 0, width: raster.bitmap.width, height: raster.bitmap.height),
                                           nearest: false)
            let clip = layer.masksToBounds ? boundsShape : nil
            for cell in raster.occupiedRects ?? [raster.area] {
                var p = placement
                if raster.occupiedRects != nil { p.cell = cell }
                let local = (layer.masksToBounds ? layer.bounds.intersection(cell) : cell).intersection(raster.area)
                if !local.isNull {
                    emit(repeated.image(p, clip: clip, opacity: alpha), local: local, clips: clips, H: H, plane: plane, into: &items)
                }
            }
        }
    }
}
