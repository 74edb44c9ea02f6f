// Stage 2 of a frame: presentation snapshot → display list. Resolves each layer's plane
// (flattening: a layer's sublayers are drawn into its own plane, so a flattened chain of 3D
// transforms collapses into one homography per plane), sibling order by zPosition, inherited vs
// group opacity, masksToBounds clips, back-face culling, and the depth order of faces inside a
// CATransformLayer context. Hands on an immutable DisplayList for the tile workers.
import Foundation
import StrataCore

/// Turns a snapshot into draw items for a frame of `width × height` pixels.
public struct DisplayListBuilder: Sendable {
    public let width: Int
    public let height: Int
    /// Pixels per point.
    public let scale: Double
    /// Backing stores of vector and drawn content, kept across frames.
    public let cache: RenderCaches
    /// Threads that may draw the missing tiles of tiled layers at once (TiledLayerItems.swift).
    public var workers = 1
    /// During a build (`build` sets it): what the last build left for this one.
    private var records: BuildRecords? = nil
    private var currentRecords: BuildRecords {
        guard let records else { preconditionFailure("layers are visited only inside build(_:)") }
        return records
    }
    /// The last build's fills, borders, gradients and images, shared where repeated.
    private var repeated: RepeatedOps { currentRecords.ops }
    /// The glyph masks recent builds looked up.
    private var glyphMasks: RecentGlyphs { currentRecords.glyphs }

    public init(width: Int, height: Int, scale: Double = 1, cache: RenderCaches = RenderCaches()) {
        self.width = width; self.height = height; self.scale = scale; self.cache = cache
    }

    private var frameRect: PixelRect { PixelRect(x0: 0, y0: 0, x1: width, y1: height) }

    /// The display list of a whole tree. The root layer's position is in scene points.
    public func build(_ root: LayerSnapshot) -> DisplayList {
        let screen = Homography(scale, 0, 0, 0, scale, 0, 0, 0, 1)
        // The records of the last build, taken from the cache for this one (a build nested in this
        // one, or one on another thread at the same time, starts records of its own).
        var builder = self
        let records = cache.lastBuild.withCheckedLock { $0.take() } ?? BuildRecords()
        builder.records = records
        records.begin()
        // The storage of a list no display list holds any more, reserved at the last frame's
        // count (one allocation at most, not one per doubling).
        var items = records.itemLists.take(capacity: cache.itemCountHint.load(ordering: .relaxed))
        var faces = records.faceLists.take(capacity: 1)
        builder.visit(root, layerTo3D: root.localToParent, planeToScreen: screen, opacity: 1, clips: [], into: &faces,
                      items: &items)
        records.faceLists.give(&faces)
        records.itemLists.handOut(items)
        records.end()
        cache.lastBuild.withCheckedLock { $0 = records }
        cache.itemCountHint.store(items.count, ordering: .relaxed)
        // The faces of the root's visit cover `items` in order (see `visit`).
        return DisplayList(items: items)
    }

    /// The items of one flattened layer subtree, with a depth for ordering inside a 3D context.
    struct Face {
        var depth: Double
        /// Where the face's items are in the list being built.
        var items: Range<Int>
        /// Inside a 3D rendering context: the face's plane, for per-pixel depth.
        var plane: DepthPlane? = nil
    }

    /// Appends the draw items of `layer` and its subtree to `items`, and a face for each flattened
    /// plane they form to `faces`. One list holds the whole frame's items (a list a layer, copied
    /// into its parent's, was two allocations a layer a frame): the faces a visit appends cover
    /// exactly the items it appended, in order, so a parent whose sublayers' faces need no
    /// reordering by depth has its items in place already. Paths that drop or wrap items (a group,
    /// a 3D context, a cross-dissolve) move them out of `items` and put the wrapping item back.
    private func visit(_ layer: LayerSnapshot, layerTo3D: CATransform3D, planeToScreen: Homography,
                       opacity inherited: Float, clips: [ClipShape], into faces: inout [Face], items: inout [DrawItem],
                       inContext: Bool = false) {
        guard !layer.isHidden, layer.opacity > 0, inherited > 0 else { return }
        let start = items.count
        // A replicator instance's colour multiplies everything its subtree draws (ColorModulation.swift).
        if let m = layer.colorMultiplier {
            var plain = layer
            plain.colorMultiplier = nil
            visit(plain, layerTo3D: layerTo3D, planeToScreen: planeToScreen, opacity: inherited, clips: clips,
                  into: &faces, items: &items, inContext: inContext)
            let k = ColorModulation.premultiplied(m)
            for i in start..<items.count { items[i] = items[i].modulated(by: k) }
            return
        }
        if let transition = layer.transition {
            visitTransition(transition, of: layer, layerTo3D: layerTo3D, planeToScreen: planeToScreen,
                            opacity: inherited, clips: clips, into: &faces, items: &items)
            return
        }

        if layer.shouldRasterize, !layer.isTransformLayer,
           let (item, depth, plane) = rasterizedSubtree(layer, layerTo3D: layerTo3D, planeToScreen: planeToScreen,
                                                        opacity: inherited, clips: clips, inContext: inContext) {
            items.append(item)
            faces.append(Face(depth: depth, items: start..<items.count, plane: plane))
            return
        }

        if layer.isTransformLayer {
            // A 3D rendering context: sublayers keep their z in the parent's 3D space.
            let alpha = inherited * min(layer.opacity, 1)
            var inner: [Face] = []
            for child in ordered(layer.sublayers) {
                let childTo3D = child.localToParent.concatenating(layer.sublayerToLocal).concatenating(layerTo3D)
                visit(child, layerTo3D: childTo3D, planeToScreen: planeToScreen, opacity: alpha, clips: clips,
                      into: &inner, items: &items, inContext: true)
            }
            if inContext {
                faces.append(contentsOf: inner)  // a nested transform layer: same 3D context
                return
            }
            // The outermost transform layer: its faces are depth-resolved per pixel, so
            // intersecting planes cut each other correctly (Apple sorts whole layers instead).
            let depthFaces = inner.compactMap { f -> DepthFace? in
                guard let plane = f.plane, !f.items.isEmpty else { return nil }
                return DepthFace(items: DisplayList(items: Array(items[f.items])), plane: plane)
            }
            items.removeSubrange(start...)
            guard !depthFaces.isEmpty else { return }
            let b = depthFaces.reduce(PixelRect.empty) { $0.union($1.items.bounds) }.intersection(frameRect)
            guard !b.isEmpty, let id = Homography.identity.inverted() else { return }
            items.append(DrawItem(op: .depthComposite(depthFaces), plane: PlaneMap(toScreen: .identity, fromScreen: id, antialiased: true),
                                  bounds: b, clips: []))
            faces.append(Face(depth: centreDepth(layer, layerTo3D), items: start..<items.count))
            return
        }

        let H = Homography(flattening: layerTo3D).concatenating(planeToScreen)
        guard let inv = H.inverted() else { return }          // edge-on: nothing visible
        if !layer.isDoubleSided && H.determinant < 0 { return }  // back face
        let plane = PlaneMap(toScreen: H, fromScreen: inv, antialiased: layer.allowsEdgeAntialiasing)
        let depth = centreDepth(layer, layerTo3D)
        let depthPlane = inContext ? DepthPlane(fromScreen: inv, layerTo3D: layerTo3D) : nil

        let hasSublayers = !layer.sublayers.isEmpty
        let group = layer.allowsGroupOpacity && layer.opacity < 1 && hasSublayers
        let alpha: Float = group ? 1 : inherited * min(layer.opacity, 1)
        let boundsShape = RoundedRect(rect: layer.bounds, radius: Double(layer.cornerRadius), corners: layer.maskedCorners)

        func emit(_ op: DrawOp, local: CGRect, clips: [ClipShape]) {
            var b = pixelBounds(of: local, H).intersection(frameRect)
            for c in clips { b = b.intersection(c.bounds) }
            guard !b.isEmpty else { return }
            items.append(DrawItem(op: op, plane: plane, bounds: b, clips: clips, outline: screenQuad(of: local, H)))
        }

        // Background.
        if let bg = layer.backgroundColor, bg.a > 0 {
            let color = premultiplied(bg, alpha)
            emit(repeated.fill(boundsShape, color), local: layer.bounds, clips: clips)
        }
        // Gradient contents (CAGradientLayer), evaluated per pixel.
        if let g = layer.gradient {
            let clip = layer.masksToBounds ? boundsShape : RoundedRect(rect: layer.bounds, radius: 0)
            if let op = repeated.gradient(g, bounds: layer.bounds, opacity: alpha, clip: clip, ramps: cache.gradientRamps) {
                emit(op, local: layer.bounds, clips: clips)
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
                    emit(repeated.image(placement, clip: clip, opacity: alpha), local: local, clips: clips)
                }
            }
        }
        // A tiled layer's visible tiles at the level of detail it is shown at (TiledLayerItems.swift).
        if let tiled = layer.tiledContent {
            items.append(contentsOf: tiledItems(tiled, of: layer, H: H, plane: plane, opacity: alpha, clips: clips))
        }
        // Shapes are drawn straight into the tiles (no backing store) when their whole draw
        // area is in front of the eye.
        if case .shape(let shape) = layer.content, let area = ShapeRasterizer.drawArea(of: shape), isInFront(area, H) {
            var contentClips = clips
            if layer.masksToBounds {
                contentClips.append(ClipShape(plane: plane, shape: boundsShape,
                                              bounds: pixelBounds(of: layer.bounds, H).intersection(frameRect)))
            }
            let local = layer.masksToBounds ? area.intersection(layer.bounds) : area
            let s = BackingScale.choose(for: area, H, frameWidth: width, frameHeight: height)
            // The fill, then the stroke (a function, not a loop over a list of the two: that list
            // was an allocation a shape a frame).
            func emitPart(_ part: VectorShape.Part, _ color: RGBA?) {
                guard let color, !local.isNull else { return }
                var b = pixelBounds(of: local, H).intersection(frameRect)
                for c in contentClips { b = b.intersection(c.bounds) }
                guard !b.isEmpty else { return }
                let v = VectorShape.make(content: shape, part: part, toScreen: H, scale: s, region: b, from: currentRecords.shapes)
                items.append(DrawItem(op: .vector(v, color: premultiplied(color, alpha)), plane: plane, bounds: b,
                                      clips: contentClips, outline: screenQuad(of: local, H)))
            }
            emitPart(.fill, shape.fillColor)
            emitPart(.stroke, shape.strokeEnd > shape.strokeStart ? shape.strokeColor : nil)
        } else if case .text(let text) = layer.content, let s = uniformScale(H),
                  let runs = cache.shaper.shape(text, size: layer.bounds.size) {
            // Text on a plane that only scales and moves: glyph masks straight into the tiles,
            // clipped to the bounds as a text layer's backing store is.
            let textClip = ClipShape(plane: plane, shape: layer.masksToBounds ? boundsShape : RoundedRect(rect: layer.bounds, radius: 0),
                                     bounds: pixelBounds(of: layer.bounds, H).intersection(frameRect))
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
        } else if layer.content != .none, let area = ContentRasterizer.drawArea(of: layer.content, layerBounds: layer.bounds) {
            // Other vector or drawn content (text, custom drawing), from a backing store
            // rasterised at the scale the layer is shown at.
            let s = BackingScale.choose(for: area, H, frameWidth: width, frameHeight: height)
            if let raster = cache.raster(for: layer.content, layerBounds: layer.bounds, scale: s) {
                let placement = ImagePlacement(image: raster.image, destination: raster.area,
                                               source: CGRect(x: 0, y: 0, width: raster.bitmap.width, height: raster.bitmap.height),
                                               nearest: false)
                let clip = layer.masksToBounds ? boundsShape : nil
                for cell in raster.occupiedRects ?? [raster.area] {
                    var p = placement
                    if raster.occupiedRects != nil { p.cell = cell }
                    let local = (layer.masksToBounds ? layer.bounds.intersection(cell) : cell).intersection(raster.area)
                    if !local.isNull {
                        emit(repeated.image(p, clip: clip, opacity: alpha), local: local, clips: clips)
                    }
                }
            }
        }
        // Sublayers, flattened into this layer's plane.
        if hasSublayers {
            var childClips = clips
            if layer.masksToBounds {
                let cb = pixelBounds(of: layer.bounds, H).intersection(frameRect)
                childClips.append(ClipShape(plane: plane, shape: boundsShape, bounds: cb))
            }
            var childFaces = currentRecords.faceLists.take(capacity: layer.sublayers.count)
            defer { currentRecords.faceLists.give(&childFaces) }
            let toLocal = layer.sublayerToLocal
            let childStart = items.count
            for child in ordered(layer.sublayers) {
                visit(child, layerTo3D: child.localToParent.concatenating(toLocal), planeToScreen: H,
                      opacity: alpha, clips: childClips, into: &childFaces, items: &items)
            }
            // The sublayers of one layer are a 3D scene of flat planes: Core Animation paints them
            // far to near by depth (the seeds' cube of six views shows its front faces). A stable
            // sort: 2D sublayers have the depth of their zPosition, so their order is unchanged
            // (and when every face has one depth, as flat layers side by side do, the items are in
            // order where the sublayers' visits put them).
            if let first = childFaces.first, !childFaces.allSatisfy({ $0.depth == first.depth }) {
                let byDepth = childFaces.indices.sorted {
                    childFaces[$0].depth != childFaces[$1].depth ? childFaces[$0].depth < childFaces[$1].depth : $0 < $1
                }
                var sorted: [DrawItem] = []
                sorted.reserveCapacity(items.count - childStart)
                for i in byDepth { sorted.append(contentsOf: items[childFaces[i].items]) }
                items.replaceSubrange(childStart..., with: sorted)
            }
        }
        // Border, above sublayers.
        if layer.borderWidth > 0, let bc = layer.borderColor, bc.a > 0 {
            let inner = boundsShape.inset(by: Double(layer.borderWidth)), color = premultiplied(bc, alpha)
            emit(repeated.ring(outer: boundsShape, inner: inner, color), local: layer.bounds, clips: clips)
        }
        // An emitter's particles, above everything else of the layer (ParticleItems.swift).
        if let system = layer.particles {
            items.append(contentsOf: particleItems(system, of: layer, layerTo3D: layerTo3D, planeToScreen: planeToScreen,
                                                   H: H, opacity: alpha, clips: clips))
        }

        // Shadow beneath everything (clipped away entirely by masksToBounds, as on iOS).
        let groupOpacity = group ? inherited * layer.opacity : 1
        if layer.shadowOpacity > 0, !layer.masksToBounds, let sc = layer.shadowColor, sc.a > 0,
           let shadow = shadowItem(for: layer, items: items[start...], plane: plane, color: sc, groupOpacity: groupOpacity,
                                   clips: clips) {
            items.insert(shadow, at: start)
        }
        guard items.count > start else { return }
        // The mask, in this layer's coordinates (a list of its own).
        var maskList: DisplayList?
        if let mask = layer.mask?.value {
            var maskFaces: [Face] = [], maskItems: [DrawItem] = []
            visit(mask, layerTo3D: mask.localToParent, planeToScreen: H, opacity: 1, clips: [], into: &maskFaces, items: &maskItems)
            maskList = DisplayList(items: maskItems)
        }
        if group || maskList != nil {
            let sub = DisplayList(items: Array(items[start...]))
            items.removeSubrange(start...)
            var b = sub.bounds
            if let maskList { b = b.intersection(maskList.bounds) }
            guard !b.isEmpty else { return }
            items.append(DrawItem(op: .group(sub, opacity: groupOpacity, mask: maskList), plane: plane, bounds: b, clips: []))
        }
        faces.append(Face(depth: depth, items: start..<items.count, plane: depthPlane))
    }

    /// `shouldRasterize`: the layer and its subtree are drawn once into a bitmap of
    /// `rasterizationScale` pixels per point (as on iOS: a layer scaled up on screen then looks
    /// soft), kept while its appearance is unchanged, and composited as one image with the
    /// layer's opacity — moving, rotating or fading the layer reuses the bitmap.
    private func rasterizedSubtree(_ layer: LayerSnapshot, layerTo3D: CATransform3D, planeToScreen: Homography,
                                   opacity: Float, clips: [ClipShape], inContext: Bool)
        -> (item: DrawItem, depth: Double, plane: DepthPlane?)? {
        let H = Homography(flattening: layerTo3D).concatenating(planeToScreen)
        guard let inv = H.inverted() else { return nil }
        if !layer.isDoubleSided && H.determinant < 0 { return nil }
        // The appearance alone: where and how opaquely it is shown is not part of the bitmap.
        var look = layer
        look.position = .zero; look.transform = .identity; look.zPosition = 0; look.opacity = 1
        look.shouldRasterize = false
        // Area: the bounds, first-level sublayers' frames, and room for a shadow.
        var area = layer.bounds
        for child in layer.sublayers where !child.isHidden {
            let m = child.localToParent.concatenating(layer.sublayerToLocal)
            for (x, y) in [(child.bounds.minX, child.bounds.minY), (child.bounds.maxX, child.bounds.minY),
                           (child.bounds.minX, child.bounds.maxY), (child.bounds.maxX, child.bounds.maxY)] {
                let p = m.project(CGPoint(x: x, y: y))
                if p.w > 0 { area = area.union(CGRect(x: p.x / p.w, y: p.y / p.w, width: 0, height: 0)) }
            }
        }
        if layer.shadowOpacity > 0 {
            let m = 3 * layer.shadowRadius + max(abs(layer.shadowOffset.width), abs(layer.shadowOffset.height)) + 2
            area = area.insetBy(dx: -m, dy: -m)
        }
        let s = max(Double(layer.rasterizationScale), 1.0 / 64)
        let pw = Int((Double(area.width) * s).rounded(.up)), ph = Int((Double(area.height) * s).rounded(.up))
        guard pw > 0, ph > 0, Double(pw) * Double(ph) <= BackingScale.maximumPixels else { return nil }
        let areaOrigin = area.origin
        let raster = cache.subtree(look, scale: s) {
            var placed = look
            placed.anchorPoint = .zero
            placed.position = CGPoint(x: layer.bounds.minX - areaOrigin.x, y: layer.bounds.minY - areaOrigin.y)
            let builder = DisplayListBuilder(width: pw, height: ph, scale: s, cache: cache)
            let bitmap = TileRenderer(options: RenderOptions(workers: 1)).render(builder.build(placed), width: pw, height: ph)
            return RasterizedContent(bitmap: bitmap, area: CGRect(x: area.minX, y: area.minY, width: Double(pw) / s, height: Double(ph) / s),
                                     scale: s)
        }
        guard let raster else { return nil }
        let plane = PlaneMap(toScreen: H, fromScreen: inv, antialiased: layer.allowsEdgeAntialiasing)
        let placement = ImagePlacement(image: raster.image, destination: raster.area,
                                       source: CGRect(x: 0, y: 0, width: raster.bitmap.width, height: raster.bitmap.height),
                                       nearest: false)
        var b = pixelBounds(of: raster.area, H).intersection(frameRect)
        for c in clips { b = b.intersection(c.bounds) }
        guard !b.isEmpty else { return nil }
        let item = DrawItem(op: .image(placement, clip: nil, opacity: opacity * min(layer.opacity, 1)), plane: plane,
                            bounds: b, clips: clips, outline: screenQuad(of: raster.area, H))
        return (item, centreDepth(layer, layerTo3D), inContext ? DepthPlane(fromScreen: inv, layerTo3D: layerTo3D) : nil)
    }

    /// For trilinear filtering: the mipmap level pair for the on-screen minification at the
    /// placement's centre (texels per pixel → level of detail, plus `minificationFilterBias`).
    private func mipmapped(_ p: ImagePlacement, _ H: Homography, bias: Float) -> ImagePlacement {
        let d = p.destination
        let stretch = BackingScale.choose(for: d, H, frameWidth: width, frameHeight: height)
        let texelsPerPoint = max(abs(Double(p.source.width)) / Double(d.width), abs(Double(p.source.height)) / Double(d.height))
        let lod = log2(max(texelsPerPoint / stretch, 1e-9)) + Double(bias)
        guard lod > 0 else { return p }
        let maxLevel = p.image.mipLevelCount
        let level = min(Int(lod.rounded(.down)), maxLevel)
        let weight = Float(min(lod - Double(level), 1))
        var q = p
        let f = Double(1 << level)
        q.image = p.image.mipLevel(level)
        q.source = CGRect(x: Double(p.source.minX) / f, y: Double(p.source.minY) / f,
                          width: Double(p.source.width) / f, height: Double(p.source.height) / f)
        if level < maxLevel, weight > 0 { q.blend = (p.image.mipLevel(level + 1), weight) }
        return q
    }

    /// A CATransition: the "before" subtree and the current one, moved or mixed by progress.
    /// Offsets are in the layer's own coordinates; `fromLeft` means the new content enters from
    /// the visual left (fromTop from the visual top).
    private func visitTransition(_ tr: TransitionSnapshot, of layer: LayerSnapshot, layerTo3D: CATransform3D,
                                 planeToScreen: Homography, opacity: Float, clips: [ClipShape], into faces: inout [Face],
                                 items: inout [DrawItem]) {
        // Both subtrees' items end up in one face: this transition's items from `start` on.
        let start = items.count
        var after = layer
        after.transition = nil
        var before = tr.before.value
        before.transition = nil
        let p = min(max(tr.progress, 0), 1)
        let w = Double(layer.bounds.width), h = Double(layer.bounds.height)
        // Unit direction the new content travels.
        let (ux, uy): (Double, Double)
        switch tr.subtype ?? "fromLeft" {
        case "fromRight": (ux, uy) = (-1, 0)
        case "fromTop": (ux, uy) = (0, 1)
        case "fromBottom": (ux, uy) = (0, -1)
        default: (ux, uy) = (1, 0)
        }
        func moved(_ f: Double) -> CATransform3D {
            CATransform3DMakeTranslation(CGFloat(ux * w * f), CGFloat(uy * h * f), 0).concatenating(layerTo3D)
        }
        var inner: [Face] = []  // (the order of the items is the order of the visits)
        // Moving transitions happen inside the layer's bounds, as Core Animation renders them.
        var clips = clips
        if tr.type != "fade" {
            let H = Homography(flattening: layerTo3D).concatenating(planeToScreen)
            guard let inv = H.inverted() else { return }
            let plane = PlaneMap(toScreen: H, fromScreen: inv, antialiased: layer.allowsEdgeAntialiasing)
            clips.append(ClipShape(plane: plane, shape: RoundedRect(rect: layer.bounds, radius: Double(layer.cornerRadius),
                                                                    corners: layer.maskedCorners),
                                   bounds: pixelBounds(of: layer.bounds, H).intersection(frameRect)))
        }
        switch tr.type {
        case "moveIn":
            visit(before, layerTo3D: layerTo3D, planeToScreen: planeToScreen, opacity: opacity, clips: clips, into: &inner, items: &items)
            visit(after, layerTo3D: moved(p - 1), planeToScreen: planeToScreen, opacity: opacity, clips: clips, into: &inner, items: &items)
        case "push":
            visit(before, layerTo3D: moved(p), planeToScreen: planeToScreen, opacity: opacity, clips: clips, into: &inner, items: &items)
            visit(after, layerTo3D: moved(p - 1), planeToScreen: planeToScreen, opacity: opacity, clips: clips, into: &inner, items: &items)
        case "reveal":
            visit(after, layerTo3D: layerTo3D, planeToScreen: planeToScreen, opacity: opacity, clips: clips, into: &inner, items: &items)
            visit(before, layerTo3D: moved(p), planeToScreen: planeToScreen, opacity: opacity, clips: clips, into: &inner, items: &items)
        default:  // fade
            visit(before, layerTo3D: layerTo3D, planeToScreen: planeToScreen, opacity: opacity, clips: clips, into: &inner, items: &items)
            let middle = items.count
            visit(after, layerTo3D: layerTo3D, planeToScreen: planeToScreen, opacity: opacity, clips: clips, into: &inner, items: &items)
            let from = DisplayList(items: Array(items[start..<middle])), to = DisplayList(items: Array(items[middle...]))
            items.removeSubrange(start...)
            let b = from.bounds.union(to.bounds)
            guard !b.isEmpty, let inv = Homography.identity.inverted() else { return }
            let plane = PlaneMap(toScreen: .identity, fromScreen: inv, antialiased: true)
            items.append(DrawItem(op: .mix(from: from, to: to, t: Float(p)), plane: plane, bounds: b, clips: []))
        }
        let H = Homography(flattening: layerTo3D).concatenating(planeToScreen)
        let plane = H.inverted().map { DepthPlane(fromScreen: $0, layerTo3D: layerTo3D) }
        faces.append(Face(depth: centreDepth(layer, layerTo3D), items: start..<items.count, plane: plane))
    }

    /// The shadow of a layer: from `shadowPath` when set (cheap and exact), else from the alpha
    /// of the layer's composited items. Offset and blur are converted to screen pixels with the
    /// plane's local stretch at the layer's centre.
    private func shadowItem(for layer: LayerSnapshot, items: ArraySlice<DrawItem>, plane: PlaneMap, color: RGBA,
                            groupOpacity: Float, clips: [ClipShape]) -> DrawItem? {
        let H = plane.toScreen
        let source: DisplayList
        if let path = layer.shadowPath {
            // The fast path: the path's mask is blurred once in the layer's own space and cached;
            // moving, rotating or fading the layer re-composites it.
            let content = LayerContent.pathMask(path, blur: layer.shadowRadius)
            guard let area = ContentRasterizer.drawArea(of: content, layerBounds: layer.bounds) else { return nil }
            let shifted = area.offsetBy(dx: layer.shadowOffset.width, dy: layer.shadowOffset.height)
            let s = BackingScale.choose(for: shifted, H, frameWidth: width, frameHeight: height)
            guard let raster = cache.raster(for: content, layerBounds: layer.bounds, scale: s) else { return nil }
            var placement = ImagePlacement(image: raster.image,
                                           destination: raster.area.offsetBy(dx: layer.shadowOffset.width, dy: layer.shadowOffset.height),
                                           source: CGRect(x: 0, y: 0, width: raster.bitmap.width, height: raster.bitmap.height),
                                           nearest: false)
            let a = color.a * min(layer.shadowOpacity, 1) * groupOpacity
            placement.tint = SIMD4(color.r * a, color.g * a, color.b * a, a)
            var b = pixelBounds(of: placement.destination, H).intersection(frameRect)
            for c in clips { b = b.intersection(c.bounds) }
            guard !b.isEmpty else { return nil }
            return DrawItem(op: .image(placement, clip: nil, opacity: 1), plane: plane, bounds: b, clips: clips,
                            outline: screenQuad(of: placement.destination, H))
        } else {
            guard !items.isEmpty else { return nil }
            source = DisplayList(items: Array(items))
        }
        // Local stretch at the centre: offset and sigma in pixels.
        let cx = Double(layer.bounds.midX), cy = Double(layer.bounds.midY)
        let (X, Y, W) = H.apply(cx, cy)
        guard W > 1e-9 else { return nil }
        let m = H.m
        let j00 = (m.0 - X / W * m.2) / W, j01 = (m.3 - X / W * m.5) / W
        let j10 = (m.1 - Y / W * m.2) / W, j11 = (m.4 - Y / W * m.5) / W
        let ox = Double(layer.shadowOffset.width), oy = Double(layer.shadowOffset.height)
        let dx = j00 * ox + j01 * oy, dy = j10 * ox + j11 * oy
        let stretch = abs(j00 * j11 - j01 * j10).squareRoot()
        let sigma = Double(layer.shadowRadius) * stretch
        let a = color.a * min(layer.shadowOpacity, 1) * groupOpacity
        let paint = ShadowPaint(source: source, color: SIMD4(color.r * a, color.g * a, color.b * a, a), dx: dx, dy: dy, sigma: sigma)
        let grow = paint.radius + 2
        var b = source.bounds
        b = PixelRect(x0: b.x0 + Int(dx.rounded(.down)) - grow, y0: b.y0 + Int(dy.rounded(.down)) - grow,
                      x1: b.x1 + Int(dx.rounded(.up)) + grow, y1: b.y1 + Int(dy.rounded(.up)) + grow).intersection(frameRect)
        for c in clips { b = b.intersection(c.bounds) }
        guard !b.isEmpty else { return nil }
        return DrawItem(op: .shadow(paint), plane: plane, bounds: b, clips: clips)
    }

    /// Siblings in drawing order: ascending zPosition, then insertion order.
    private func ordered(_ layers: [LayerSnapshot]) -> [LayerSnapshot] {
        guard layers.contains(where: { $0.zPosition != 0 }) else { return layers }
        return layers.enumerated().sorted { a, b in
            a.element.zPosition != b.element.zPosition ? a.element.zPosition < b.element.zPosition : a.offset < b.offset
        }.map(\.element)
    }

    /// Depth of the layer's centre in its 3D context (larger is nearer the viewer).
    private func centreDepth(_ layer: LayerSnapshot, _ m: CATransform3D) -> Double {
        let c = CGPoint(x: layer.bounds.midX, y: layer.bounds.midY)
        let x = Double(c.x), y = Double(c.y)
        let z = x * Double(m.m13) + y * Double(m.m23) + Double(m.m43)
        let w = x * Double(m.m14) + y * Double(m.m24) + Double(m.m44)
        return w > 0 ? z / w : -.infinity
    }

    /// The scale of a plane that only scales (the same in x and y, not mirrored) and moves.
    func uniformScale(_ H: Homography) -> Double? {
        let m = H.m
        guard m.2 == 0, m.5 == 0, m.8 == 1, m.1 == 0, m.3 == 0, m.0 == m.4, m.0 > 0 else { return nil }
        return m.0
    }

    /// Whether every corner of a local rectangle is in front of the eye (then the whole
    /// rectangle is, and maps to a convex quad).
    func isInFront(_ r: CGRect, _ H: Homography) -> Bool {
        for (x, y) in [(r.minX, r.minY), (r.maxX, r.minY), (r.maxX, r.maxY), (r.minX, r.maxY)] {
            guard H.apply(Double(x), Double(y)).2 > 1e-6 else { return false }
        }
        return true
    }

    /// The screen quad of a local rectangle when all its corners are in front of the eye.
    func screenQuad(of r: CGRect, _ H: Homography) -> ScreenQuad? {
        let cs = [(Double(r.minX), Double(r.minY)), (Double(r.maxX), Double(r.minY)),
                  (Double(r.maxX), Double(r.maxY)), (Double(r.minX), Double(r.maxY))]
        var xs = SIMD4<Double>(), ys = SIMD4<Double>()
        for (i, c) in cs.enumerated() {
            let (X, Y, W) = H.apply(c.0, c.1)
            guard W > 1e-6 else { return nil }
            xs[i] = X / W; ys[i] = Y / W
        }
        return ScreenQuad(xs: xs, ys: ys)
    }

    /// The screen pixels a local rectangle may touch, clipped against the eye plane (w > ε)
    /// so layers partly behind the viewer are cut, not exploded. Padded by one pixel for AA.
    func pixelBounds(of r: CGRect, _ H: Homography) -> PixelRect {
        // Without arrays (five allocations a call, hundreds of calls a frame): the corners in
        // order, the points taken in the order the arrays held them, and the extremes found as
        // Sequence.min() and max() find them (the first of equal ones; NaN never replaces one).
        let x0 = Double(r.minX), y0 = Double(r.minY), x1 = Double(r.maxX), y1 = Double(r.maxY)
        func corner(_ i: Int) -> (Double, Double, Double) {
            switch i {
            case 0: H.apply(x0, y0)
            case 1: H.apply(x1, y0)
            case 2: H.apply(x1, y1)
            default: H.apply(x0, y1)
            }
        }
        let eps = 1e-6, limit = 1e7
        var minX = 0.0, minY = 0.0, maxX = 0.0, maxY = 0.0
        var count = 0
        func add(_ px: Double, _ py: Double) {
            let x = min(max(px, -limit), limit), y = min(max(py, -limit), limit)
            if count == 0 {
                minX = x; maxX = x; minY = y; maxY = y
            } else {
                if x < minX { minX = x }
                if maxX < x { maxX = x }
                if y < minY { minY = y }
                if maxY < y { maxY = y }
            }
            count += 1
        }
        for i in 0..<4 {
            let a = corner(i), b = corner((i + 1) % 4)
            if a.2 > eps { add(a.0 / a.2, a.1 / a.2) }
            if (a.2 > eps) != (b.2 > eps) {
                let t = (eps - a.2) / (b.2 - a.2)
                let x = a.0 + (b.0 - a.0) * t, y = a.1 + (b.1 - a.1) * t
                add(x / eps, y / eps)
            }
        }
        guard count > 0 else { return .empty }
        return PixelRect(x0: Int(floor(minX)) - 1, y0: Int(floor(minY)) - 1,
                         x1: Int(ceil(maxX)) + 1, y1: Int(ceil(maxY)) + 1)
    }

    private func premultiplied(_ c: RGBA, _ alpha: Float) -> SIMD4<Float> {
        let a = c.a * alpha
        return SIMD4(c.r * a, c.g * a, c.b * a, a)
    }
}
