// Stage 2 of a frame: presentation snapshot → display list. Resolves each layer's plane
// (flattening: a layer's sublayers are drawn into its own plane, so a flattened chain of 3D
// transforms collapses into one homography per plane), sibling order by zPosition, inherited vs
// group opacity, masksToBounds clips, back-face culling, and the depth order of faces inside a
// CATransformLayer context. Hands on an immutable DisplayList for the tile workers.
import Foundation
import StrataCore

/// Turns a snapshot into draw items for a frame of `width × height` pixels.
public struct DisplayListBuilder: Sendable {
    /// The frame's width in pixels.
    public let width: Int
    /// The frame's height in pixels.
    public let height: Int
    /// Pixels per point.
    public let scale: Double
    /// Backing stores of vector and drawn content, kept across frames.
    public let cache: RenderCaches
    /// Threads that may draw the missing tiles of tiled layers at once (TiledLayerItems.swift).
    public var workers = 1
    /// Runs the jobs of a build's parallel parts (the items of large particle systems) on the
    /// render workers; nil: all on the building thread. The items are the same either way.
    var dispatcher: (any Dispatcher)? = nil
    /// Where a frame's build records the backing stores and rasterised subtrees it does not find
    /// cached, for the content stage (ContentStage.swift) to make; nil: they are rasterised where
    /// they are met.
    var contentRequests: ContentRequests? = nil
    /// During a build (`build` sets it): what the last build left for this one.
    private var records: BuildRecords? = nil
    var currentRecords: BuildRecords {
        guard let records else { preconditionFailure("layers are visited only inside build(_:)") }
        return records
    }
    /// The last build's fills, borders, gradients and images, shared where repeated.
    var repeated: RepeatedOps { currentRecords.ops }
    /// The glyph masks recent builds looked up.
    var glyphMasks: RecentGlyphs { currentRecords.glyphs }

    /// A builder for `width × height` pixel frames at `scale` pixels per point, keeping backing
    /// stores in `cache`.
    public init(width: Int, height: Int, scale: Double = 1, cache: RenderCaches = RenderCaches()) {
        self.width = width; self.height = height; self.scale = scale; self.cache = cache
    }

    var frameRect: PixelRect { PixelRect(x0: 0, y0: 0, x1: width, y1: height) }

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
    func visit(_ layer: LayerSnapshot, layerTo3D: CATransform3D, planeToScreen: Homography,
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

        if layer.shouldRasterize, !layer.isTransformLayer {
            switch rasterizedSubtree(layer, layerTo3D: layerTo3D, planeToScreen: planeToScreen, opacity: inherited, clips: clips,
                                     inContext: inContext) {
            case let .drawn(item, depth, plane):
                if layer.blendMode != .normal {
                    // The subtree's bitmap composited with the layer's blend mode (a group of one).
                    var blended = DrawItem(op: .group(DisplayList(items: [item]), opacity: 1, mask: nil), plane: item.plane,
                                           bounds: item.bounds, clips: [])
                    blended.blendMode = .blend(layer.blendMode)
                    items.append(blended)
                } else {
                    items.append(item)
                }
                faces.append(Face(depth: depth, items: start..<items.count, plane: plane))
                return
            case .requested:
                return              // this build is thrown away once the content stage has drawn it
            case .notShown:
                break
            }
        }

        if layer.isTransformLayer {
            visitTransformLayer(layer, layerTo3D: layerTo3D, planeToScreen: planeToScreen, opacity: inherited, clips: clips,
                                into: &faces, items: &items, inContext: inContext)
            return
        }

        let H = Homography(flattening: layerTo3D).concatenating(planeToScreen)
        guard let inv = H.inverted() else { return }          // edge-on: nothing visible
        if !layer.isDoubleSided && H.determinant < 0 { return }  // back face
        let plane = PlaneMap(toScreen: H, fromScreen: inv, antialiased: layer.allowsEdgeAntialiasing)
        let depth = centreDepth(layer, layerTo3D)
        let depthPlane = inContext ? DepthPlane(fromScreen: inv, layerTo3D: layerTo3D) : nil

        let hasSublayers = !layer.sublayers.isEmpty
        // A blend mode other than source-over composites the whole layer at once: a group.
        // So do effects (they apply to the whole layer's pixels).
        let group = layer.allowsGroupOpacity && layer.opacity < 1 && hasSublayers || layer.blendMode != .normal
            || !layer.effects.isEmpty
        let alpha: Float = group ? 1 : inherited * min(layer.opacity, 1)
        let boundsShape = RoundedRect(rect: layer.bounds, radius: Double(layer.cornerRadius), corners: layer.maskedCorners)

        appendContent(of: layer, H: H, plane: plane, alpha: alpha, boundsShape: boundsShape, clips: clips, items: &items)
        if hasSublayers {
            visitSublayers(of: layer, H: H, plane: plane, alpha: alpha, boundsShape: boundsShape, clips: clips, items: &items)
        }
        // Border, above sublayers.
        if layer.borderWidth > 0, let bc = layer.borderColor, bc.a > 0 {
            let inner = boundsShape.inset(by: Double(layer.borderWidth)), color = premultiplied(bc, alpha)
            emit(repeated.ring(outer: boundsShape, inner: inner, color), local: layer.bounds, clips: clips, H: H, plane: plane,
                 into: &items)
        }
        // An emitter's particles, above everything else of the layer (ParticleItems.swift).
        if let system = layer.particles {
            appendParticleItems(system, of: layer, layerTo3D: layerTo3D, planeToScreen: planeToScreen, H: H, opacity: alpha,
                                clips: clips, into: &items)
        }

        // Shadow beneath everything, then group opacity and the mask (DisplayListBuilder+Effects.swift).
        let groupOpacity = group ? inherited * min(layer.opacity, 1) : 1
        guard wrapEffects(of: layer, from: start, H: H, plane: plane, group: group, groupOpacity: groupOpacity, alpha: alpha, clips: clips,
                          items: &items) else { return }
        faces.append(Face(depth: depth, items: start..<items.count, plane: depthPlane))
    }

    /// Appends `op` drawn on `plane` over `local` (layer points), clipped by `clips`, unless nothing of it is on screen.
    func emit(_ op: DrawOp, local: CGRect, clips: [ClipShape], H: Homography, plane: PlaneMap, into items: inout [DrawItem]) {
        var b = Self.pixelBounds(of: local, H).intersection(frameRect)
        for c in clips { b = b.intersection(c.bounds) }
        guard !b.isEmpty else { return }
        items.append(DrawItem(op: op, plane: plane, bounds: b, clips: clips, outline: Self.screenQuad(of: local, H)))
    }

    /// The sublayers of `layer`, flattened into its plane (`H`), clipped to its bounds when it
    /// masks them, and painted far to near by depth.
    func visitSublayers(of layer: LayerSnapshot, H: Homography, plane: PlaneMap, alpha: Float, boundsShape: RoundedRect,
                        clips: [ClipShape], items: inout [DrawItem]) {
        var childClips = clips
        if layer.masksToBounds {
            let cb = Self.pixelBounds(of: layer.bounds, H).intersection(frameRect)
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

    /// A 3D rendering context (`CATransformLayer`): sublayers keep their z in the parent's 3D space;
    /// the outermost transform layer's faces become one depth-composite item.
    func visitTransformLayer(_ layer: LayerSnapshot, layerTo3D: CATransform3D, planeToScreen: Homography, opacity inherited: Float,
                             clips: [ClipShape], into faces: inout [Face], items: inout [DrawItem], inContext: Bool) {
        let start = items.count
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
    }

    /// `shouldRasterize`: the layer and its subtree are drawn once into a bitmap of
    /// `rasterizationScale` pixels per point (as on iOS: a layer scaled up on screen then looks
    /// soft), kept while its appearance is unchanged, and composited as one image with the
    /// layer's opacity — moving, rotating or fading the layer reuses the bitmap.
    private func rasterizedSubtree(_ layer: LayerSnapshot, layerTo3D: CATransform3D, planeToScreen: Homography,
                                   opacity: Float, clips: [ClipShape], inContext: Bool) -> RasterizedSubtree {
        let H = Homography(flattening: layerTo3D).concatenating(planeToScreen)
        guard let inv = H.inverted() else { return .notShown }
        if !layer.isDoubleSided && H.determinant < 0 { return .notShown }
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
        // Checked as doubles first: a huge (or NaN) area is refused, not converted.
        let fw = (Double(area.width) * s).rounded(.up), fh = (Double(area.height) * s).rounded(.up)
        guard fw > 0, fh > 0, fw * fh <= BackingScale.maximumPixels else { return .notShown }
        let pw = Int(fw), ph = Int(fh)
        let drawn = area, appearance = look
        let layerBounds = layer.bounds
        let cache = self.cache
        // A local function: it becomes a heap-allocated closure only where a request keeps it (a
        // miss), not for every cached subtree of every frame.
        @Sendable func make() -> RasterizedContent? {
            var placed = appearance
            placed.anchorPoint = .zero
            placed.position = CGPoint(x: layerBounds.minX - drawn.origin.x, y: layerBounds.minY - drawn.origin.y)
            let builder = DisplayListBuilder(width: pw, height: ph, scale: s, cache: cache)
            let bitmap = TileRenderer(options: RenderOptions(workers: 1)).render(builder.build(placed), width: pw, height: ph)
            return RasterizedContent(bitmap: bitmap, area: CGRect(x: drawn.minX, y: drawn.minY, width: Double(pw) / s, height: Double(ph) / s),
                                     scale: s)
        }
        let found: RasterizedContent?
        if let contentRequests {
            guard let hit = cache.cachedSubtree(look, scale: s) else {
                contentRequests.add(subtree: look, scale: s, make: make)
                return .requested
            }
            found = hit
        } else {
            found = cache.subtree(look, scale: s, make: make)
        }
        guard let raster = found else { return .notShown }
        let plane = PlaneMap(toScreen: H, fromScreen: inv, antialiased: layer.allowsEdgeAntialiasing)
        let placement = ImagePlacement(image: raster.image, destination: raster.area,
                                       source: CGRect(x: 0, y: 0, width: raster.bitmap.width, height: raster.bitmap.height),
                                       nearest: false)
        var b = Self.pixelBounds(of: raster.area, H).intersection(frameRect)
        for c in clips { b = b.intersection(c.bounds) }
        guard !b.isEmpty else { return .notShown }
        let item = DrawItem(op: .image(placement, clip: nil, opacity: opacity * min(layer.opacity, 1)), plane: plane,
                            bounds: b, clips: clips, outline: Self.screenQuad(of: raster.area, H))
        return .drawn(item, depth: centreDepth(layer, layerTo3D), plane: inContext ? DepthPlane(fromScreen: inv, layerTo3D: layerTo3D) : nil)
    }

    /// What `rasterizedSubtree` gives.
    private enum RasterizedSubtree {
        /// The subtree's bitmap as one item.
        case drawn(DrawItem, depth: Double, plane: DepthPlane?)
        /// Not cached: asked of the content stage (a frame's first build).
        case requested
        /// Not shown this way (edge-on, a back face, empty or too large): drawn as an ordinary layer.
        case notShown
    }

    /// A layer content's backing store: the cached one; else, in a frame's first build, nil
    /// with a request to the content stage; else rasterised now.
    func backingStore(for content: LayerContent, layerBounds: CGRect, scale: Double) -> RasterizedContent? {
        guard let contentRequests else { return cache.raster(for: content, layerBounds: layerBounds, scale: scale) }
        if let hit = cache.cachedRaster(for: content, layerBounds: layerBounds, scale: scale) { return hit }
        if !cache.rasterizesToNothing(content, layerBounds: layerBounds, scale: scale) {
            contentRequests.add(backingStore: content, layerBounds: layerBounds, scale: scale)
        }
        return nil
    }

    /// For trilinear filtering: the mipmap level pair for the on-screen minification at the
    /// placement's centre (texels per pixel → level of detail, plus `minificationFilterBias`).
    func mipmapped(_ p: ImagePlacement, _ H: Homography, bias: Float) -> ImagePlacement {
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
                                   bounds: Self.pixelBounds(of: layer.bounds, H).intersection(frameRect)))
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

    /// Siblings in drawing order: ascending zPosition, then insertion order.
    func ordered(_ layers: [LayerSnapshot]) -> [LayerSnapshot] {
        guard layers.contains(where: { $0.zPosition != 0 }) else { return layers }
        return layers.enumerated().sorted { a, b in
            a.element.zPosition != b.element.zPosition ? a.element.zPosition < b.element.zPosition : a.offset < b.offset
        }.map(\.element)
    }

    /// Depth of the layer's centre in its 3D context (larger is nearer the viewer).
    func centreDepth(_ layer: LayerSnapshot, _ m: CATransform3D) -> Double {
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
    static func screenQuad(of r: CGRect, _ H: Homography) -> ScreenQuad? {
        // The corners in order, without an array (an allocation a call: one a particle).
        let x0 = Double(r.minX), y0 = Double(r.minY), x1 = Double(r.maxX), y1 = Double(r.maxY)
        var xs = SIMD4<Double>(), ys = SIMD4<Double>()
        for i in 0..<4 {
            let (X, Y, W) = H.apply(i == 0 || i == 3 ? x0 : x1, i < 2 ? y0 : y1)
            guard W > 1e-6 else { return nil }
            xs[i] = X / W; ys[i] = Y / W
        }
        return ScreenQuad(xs: xs, ys: ys)
    }

    /// The screen pixels a local rectangle may touch, clipped against the eye plane (w > ε)
    /// so layers partly behind the viewer are cut, not exploded. Padded by one pixel for AA.
    static func pixelBounds(of r: CGRect, _ H: Homography) -> PixelRect {
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

    func premultiplied(_ c: RGBA, _ alpha: Float) -> SIMD4<Float> {
        let a = c.a * alpha
        return SIMD4(c.r * a, c.g * a, c.b * a, a)
    }
}
