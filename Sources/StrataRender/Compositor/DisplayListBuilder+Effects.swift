// Stage 2, effects a layer adds around its items: the shadow beneath them and the offscreen group
// (group opacity, mask, blend mode) that wraps them — explicit display-list items, so their cost is visible.
import Foundation
import StrataCore

extension DisplayListBuilder {
    /// The effects around the items `layer` appended from `start`: its shadow beneath them, then
    /// group opacity, its mask and its blend mode (`compositingFilter`) as one offscreen group
    /// item. False when nothing is left to show. `alpha` is the opacity the layer's own items
    /// were drawn at (its opacity times its parents' when it is not a group).
    func wrapEffects(of layer: LayerSnapshot, from start: Int, H: Homography, plane: PlaneMap, group: Bool, groupOpacity: Float,
                     alpha: Float, clips: [ClipShape], items: inout [DrawItem]) -> Bool {
        if !layer.effects.isEmpty {
            return wrapLayerEffects(of: layer, from: start, H: H, plane: plane, groupOpacity: groupOpacity, clips: clips, items: &items)
        }
        // Shadow beneath everything (clipped away entirely by masksToBounds, as on iOS). A
        // `shadowPath` shadow fades with the layer as its items do; a group fades it as a whole,
        // with its items (the shadow joins the group below: faded once, not by the group's
        // opacity here and again when the group is composited).
        if layer.shadowOpacity > 0, !layer.masksToBounds, let sc = layer.shadowColor, sc.a > 0,
           let shadow = shadowItem(for: layer, items: items[start...], plane: plane, color: sc, groupOpacity: 1,
                                   pathOpacity: group ? 1 : alpha, clips: clips) {
            items.insert(shadow, at: start)
        }
        guard items.count > start else { return false }
        let maskList = self.maskList(of: layer, H: H)
        if group || maskList != nil {
            let sub = DisplayList(items: Array(items[start...]))
            items.removeSubrange(start...)
            var b = sub.bounds
            // An inverted mask shows the group where the mask has nothing.
            if let maskList, maskList.maskMode == .alpha || maskList.maskMode == .luminance { b = b.intersection(maskList.bounds) }
            guard !b.isEmpty else { return false }
            var item = DrawItem(op: .group(sub, opacity: groupOpacity, mask: maskList), plane: plane, bounds: b, clips: [])
            if layer.blendMode != .normal { item.blendMode = .blend(layer.blendMode) }
            items.append(item)
        }
        return true
    }

    /// A layer with effects (`LayerSnapshot.effects`): its items (and its mask) as a group whose
    /// pixels pass through the effects before the opacity, mask and blend mode apply; the bounds
    /// grown by the blurs' reach and the ancestors' clips applied to the result (a blur spreads
    /// beyond them). Its shadow, beneath the group, is cast by the group's pixels, effects
    /// applied. A blur's σ in points becomes pixels by the plane's local stretch along the
    /// layer's x and y axes at its centre: exact for a plane that is not turned in the screen.
    func wrapLayerEffects(of layer: LayerSnapshot, from start: Int, H: Homography, plane: PlaneMap, groupOpacity: Float,
                          clips: [ClipShape], items: inout [DrawItem]) -> Bool {
        guard items.count > start else { return false }
        let maskList = self.maskList(of: layer, H: H)
        var sub = DisplayList(items: Array(items[start...]))
        items.removeSubrange(start...)
        let (sx, sy) = localStretch(of: layer, H)
        let toLayer = H.inverted()
        sub.effects = layer.effects.map { GroupEffect($0, stretchX: sx, stretchY: sy, toLayer: toLayer) }
        sub.effectSlot = GroupEffectSlot(frame: frameRect)
        // A blur so wide that what it leaves of the layer cannot be seen draws nothing (as a
        // shadow's: ShadowPaint.invisibleSigma).
        let invisible = ShadowPaint.invisibleSigma(frameWidth: width, frameHeight: height)
        for case .blur(let bx, let by) in sub.effects where bx >= invisible && by >= invisible { return false }
        let reach = TileRasterizer.effectReach(sub.effects)
        let inner = sub.bounds
        var b = PixelRect(x0: inner.x0 - reach.x, y0: inner.y0 - reach.y, x1: inner.x1 + reach.x, y1: inner.y1 + reach.y)
            .intersection(frameRect)
        for c in clips { b = b.intersection(c.bounds) }
        if let maskList, maskList.maskMode == .alpha || maskList.maskMode == .luminance { b = b.intersection(maskList.bounds) }
        guard !b.isEmpty else { return false }
        // Colour stages stay inside the items' own clips; a blur spreads beyond them, so the group is clipped.
        var item = DrawItem(op: .group(sub, opacity: groupOpacity, mask: maskList), plane: plane, bounds: b,
                            clips: reach == (0, 0) ? [] : clips)
        if layer.blendMode != .normal { item.blendMode = .blend(layer.blendMode) }
        if layer.shadowOpacity > 0, !layer.masksToBounds, let sc = layer.shadowColor, sc.a > 0 {
            var source = item
            source.op = .group(sub, opacity: 1, mask: maskList)
            source.blendMode = .sourceOver
            if let shadow = shadowItem(for: layer, items: [source], plane: plane, color: sc, groupOpacity: groupOpacity,
                                        pathOpacity: groupOpacity, clips: clips) {
                items.append(shadow)
            }
        }
        items.append(item)
        return true
    }

    /// Screen pixels per point along the layer's x and y axes at its centre (0 when the plane
    /// is degenerate there).
    func localStretch(of layer: LayerSnapshot, _ H: Homography) -> (Double, Double) {
        guard let (j00, j01, j10, j11) = localJacobian(of: layer, H) else { return (0, 0) }
        let x = (j00 * j00 + j10 * j10).squareRoot(), y = (j01 * j01 + j11 * j11).squareRoot()
        return (x.isFinite ? x : 0, y.isFinite ? y : 0)
    }

    /// The derivative of `H` at the centre of `layer`'s bounds, (∂X/∂x, ∂X/∂y, ∂Y/∂x, ∂Y/∂y) in
    /// screen pixels per point; nil where the plane is at or behind the eye there.
    func localJacobian(of layer: LayerSnapshot, _ H: Homography) -> (Double, Double, Double, Double)? {
        let cx = Double(layer.bounds.midX), cy = Double(layer.bounds.midY)
        let (X, Y, W) = H.apply(cx, cy)
        guard W > 1e-9 else { return nil }
        let m = H.m
        return ((m.0 - X / W * m.2) / W, (m.3 - X / W * m.5) / W, (m.1 - Y / W * m.2) / W, (m.4 - Y / W * m.5) / W)
    }

    /// The list of `layer`'s mask, in the layer's coordinates (`H` maps them to the screen).
    func maskList(of layer: LayerSnapshot, H: Homography) -> DisplayList? {
        guard let mask = layer.mask?.value else { return nil }
        var maskFaces: [Face] = [], maskItems: [DrawItem] = []
        visit(mask, layerTo3D: mask.localToParent, planeToScreen: H, opacity: 1, clips: [], into: &maskFaces, items: &maskItems)
        var list = DisplayList(items: maskItems)
        list.maskMode = mask.maskMode
        return list
    }

    /// The widest σ, in backing pixels, a `shadowPath` shadow is blurred with; wider ones are
    /// drawn at a coarser scale: a blurred edge this wide bends so little between neighbouring
    /// pixels (its second derivative at most 0.242 / σ²) that bilinear sampling is off by under
    /// 0.002 % of full alpha, far within a level of 255.
    static let widestPathBlur = 48.0

    /// The shadow of a layer: from `shadowPath` when set (cheap and exact), else from the alpha
    /// of the layer's composited items. Offset and blur are converted to screen pixels with the
    /// plane's local stretch at the layer's centre. `pathOpacity` multiplies a `shadowPath`
    /// shadow (one from the items has their opacity already).
    func shadowItem(for layer: LayerSnapshot, items: ArraySlice<DrawItem>, plane: PlaneMap, color: RGBA,
                            groupOpacity: Float, pathOpacity: Float, clips: [ClipShape]) -> DrawItem? {
        let H = plane.toScreen
        let source: DisplayList
        if let path = layer.shadowPath {
            // The fast path: the path's mask is blurred once in the layer's own space and cached;
            // moving, rotating or fading the layer re-composites it.
            let content = LayerContent.pathMask(path, blur: layer.shadowRadius)
            guard let area = ContentRasterizer.drawArea(of: content, layerBounds: layer.bounds) else { return nil }
            let shifted = area.offsetBy(dx: layer.shadowOffset.width, dy: layer.shadowOffset.height)
            // A wide blur is smooth: drawn with at most `widestPathBlur` pixels of σ (so that a huge
            // radius does not fill a huge bitmap), sampled up bilinearly.
            let chosen = BackingScale.choose(for: shifted, H, frameWidth: width, frameHeight: height)
            let s = layer.shadowRadius > 0 ? min(chosen, max(Self.widestPathBlur / Double(layer.shadowRadius), 1.0 / 64)) : chosen
            guard let raster = backingStore(for: content, layerBounds: layer.bounds, scale: s) else { return nil }
            var placement = ImagePlacement(image: raster.image,
                                           destination: raster.area.offsetBy(dx: layer.shadowOffset.width, dy: layer.shadowOffset.height),
                                           source: CGRect(x: 0, y: 0, width: raster.bitmap.width, height: raster.bitmap.height),
                                           nearest: false)
            let a = color.a * min(layer.shadowOpacity, 1) * pathOpacity
            placement.tint = SIMD4(color.r * a, color.g * a, color.b * a, a)
            var b = Self.pixelBounds(of: placement.destination, H).intersection(frameRect)
            for c in clips { b = b.intersection(c.bounds) }
            guard !b.isEmpty else { return nil }
            return DrawItem(op: .image(placement, clip: nil, opacity: 1), plane: plane, bounds: b, clips: clips,
                            outline: Self.screenQuad(of: placement.destination, H))
        } else {
            guard !items.isEmpty else { return nil }
            source = DisplayList(items: Array(items))
        }
        // Local stretch at the centre: offset and sigma in pixels.
        guard let (j00, j01, j10, j11) = localJacobian(of: layer, H) else { return nil }
        let ox = Double(layer.shadowOffset.width), oy = Double(layer.shadowOffset.height)
        let dx = j00 * ox + j01 * oy, dy = j10 * ox + j11 * oy
        let stretch = abs(j00 * j11 - j01 * j10).squareRoot()
        let sigma = Double(layer.shadowRadius) * stretch
        // A blur too wide to show and an offset that takes the shadow off any frame draw nothing
        // (and NaN, from a degenerate plane, no shadow either).
        guard !sigma.isNaN, sigma < ShadowPaint.invisibleSigma(frameWidth: width, frameHeight: height),
              abs(dx) < ShadowPaint.farOffset, abs(dy) < ShadowPaint.farOffset else { return nil }
        let a = color.a * min(layer.shadowOpacity, 1) * groupOpacity
        let paint = ShadowPaint(source: source, color: SIMD4(color.r * a, color.g * a, color.b * a, a), dx: dx, dy: dy, sigma: sigma,
                                frame: frameRect)
        let grow = max(paint.radius, AlphaBlur.reach(sigma: paint.sigma)) + 2
        var b = source.bounds
        b = PixelRect(x0: b.x0 + Int(dx.rounded(.down)) - grow, y0: b.y0 + Int(dy.rounded(.down)) - grow,
                      x1: b.x1 + Int(dx.rounded(.up)) + grow, y1: b.y1 + Int(dy.rounded(.up)) + grow).intersection(frameRect)
        for c in clips { b = b.intersection(c.bounds) }
        guard !b.isEmpty else { return nil }
        return DrawItem(op: .shadow(paint), plane: plane, bounds: b, clips: clips)
    }
}
