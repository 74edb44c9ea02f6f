// The particles of a `CAEmitterLayer` as draw items: each particle is an ordinary image item —
// its cell's image (the `contentsRect` part of it) centred on the particle, scaled and turned by
// its own plane map, its colour multiplying the image (`ImagePlacement.modulate`), the layer's
// opacity on top — in the order the snapshot gives (the emitter's `renderMode`). `.additive`
// marks the items `ItemBlendMode.additive`. Particles are drawn above the emitter layer's own
// background, content, sublayers and border, clipped to its bounds when `masksToBounds`. A
// particle without clips on an affine map is a sprite (`ImagePlacement.sprite`): the kernels
// draw its rows in one run each and mix its texels in integers, with bilinear weights in steps
// of 1/256, read in pairs from a copy of the image with a one-texel border made once a frame
// (`SpriteBorder`). The frame describes each sprite for the kernels once, in its span job
// (`SpriteTable`), and the tiles draw it from that, its row columns found from its outline.
//
// Without `preservesDepth` the particles are flattened into the emitter's plane (their z is
// ignored, as Core Animation does); with it, a particle's z moves it in the emitter's 3D space
// before the perspective of the ancestors applies.
import Foundation
import StrataCore

extension DisplayListBuilder {
    /// Appends the draw items of `system` to `items`, drawn in the plane of `layer` (`layerTo3D`
    /// into the plane `planeToScreen` maps; `H` is their flattened product).
    func appendParticleItems(_ system: ParticleSystemSnapshot, of layer: LayerSnapshot, layerTo3D: CATransform3D,
                             planeToScreen: Homography, H: Homography, opacity: Float, clips: [ClipShape],
                             into items: inout [DrawItem]) {
        guard !system.particles.isEmpty, opacity > 0 else { return }
        let frame = PixelRect(x0: 0, y0: 0, x1: width, y1: height)
        var clips = clips
        var limit = frame
        if layer.masksToBounds, let inv = H.inverted() {
            let shape = RoundedRect(rect: layer.bounds, radius: Double(layer.cornerRadius), corners: layer.maskedCorners)
            let b = Self.pixelBounds(of: layer.bounds, H).intersection(frame)
            clips.append(ClipShape(plane: PlaneMap(toScreen: H, fromScreen: inv, antialiased: layer.allowsEdgeAntialiasing),
                                   shape: shape, bounds: b))
        }
        for c in clips { limit = limit.intersection(c.bounds) }
        guard !limit.isEmpty else { return }

        // Per image: the placement in a particle's own coordinates (centred on the origin, at
        // scale 1) without colour.
        let placements: [ImagePlacement] = system.images.map { img in
            let size = img.size
            let W = Double(img.image.width), Hh = Double(img.image.height)
            let r = img.contentsRect
            let source = CGRect(x: Double(r.minX) * W, y: Double(r.minY) * Hh, width: Double(r.width) * W, height: Double(r.height) * Hh)
            var p = ImagePlacement(image: img.image,
                                   destination: CGRect(x: -size.width / 2, y: -size.height / 2, width: size.width, height: size.height),
                                   source: source, nearest: img.magnificationFilter == .nearest && img.minificationFilter == .nearest)
            // Sprites (not nearest: ParticleItemMaker.item) read their texels in pairs from a
            // bordered copy, made once a frame for the system's particles.
            if !clips.isEmpty || p.nearest { return p }
            p.spriteTexels = SpriteBorder.bordered(img.image)
            return p
        }
        let maker = ParticleItemMaker(placements: placements, clips: clips, limit: limit, opacity: opacity,
                                      additive: system.isAdditive, depth: system.preservesDepth,
                                      layerTo3D: layerTo3D, planeToScreen: planeToScreen, H: H)
        let particles = system.particles
        let chunkLength = ParticleItemMaker.chunkLength
        guard let dispatcher, particles.count >= 2 * chunkLength else {
            items.reserveCapacity(items.count + particles.count)
            particles.withUnsafeBufferPointer { maker.append(from: $0, into: &items) }
            return
        }
        // Many particles: a chunk of them a job, on the render workers (20 000 particles' items
        // took 34 M instructions a frame on the building thread alone). (Joined by copying, each
        // item's image was retained and the parts' copies released: an atomic count that both
        // workers and the joining thread wrote, 20 000 times each.)
        let chunkCount = (particles.count + chunkLength - 1) / chunkLength
        let counts = UnsafeMutablePointer<Int>.allocate(capacity: chunkCount)
        defer { counts.deallocate() }
        if items.count <= particles.count {
            // Each chunk's items made straight in their place in the new list (after the list so
            // far, usually a background or two, copied), then closed up where a chunk made fewer
            // than its particles (usually none is moved): moving them from a buffer of their own
            // into the list was 1.4 ms a frame for 20 000 on the calling thread, the other
            // worker idle.
            let before = items
            items = Array(unsafeUninitializedCapacity: before.count + particles.count) { buffer, count in
                let base = buffer.baseAddress!
                before.withUnsafeBufferPointer { base.initialize(from: $0.baseAddress!, count: $0.count) }
                dispatcher.run(chunkCount, ParticleItemJobs(maker: maker, particles: particles, made: base + before.count, counts: counts))
                count = before.count
                for j in 0..<chunkCount {
                    let from = base + before.count + j * chunkLength
                    if from != base + count { (base + count).moveInitialize(from: from, count: counts[j]) }
                    count += counts[j]
                }
            }
        } else {
            let made = UnsafeMutablePointer<DrawItem>.allocate(capacity: particles.count)
            defer { made.deallocate() }
            dispatcher.run(chunkCount, ParticleItemJobs(maker: maker, particles: particles, made: made, counts: counts))
            let total = (0..<chunkCount).reduce(0) { $0 + counts[$1] }
            items.reserveCapacity(items.count + total)
            for j in 0..<chunkCount {
                items.append(contentsOf: UnsafeBufferPointer(start: made + j * chunkLength, count: counts[j]))
                (made + j * chunkLength).deinitialize(count: counts[j])
            }
        }
    }

    /// `pixelBounds(of: r, H)` and `screenQuad(of: r, H)` with each corner mapped once: when every
    /// corner lies in front of the eye plane (a particle's map is almost always affine, w = 1),
    /// pixelBounds adds the four projected corners in order and no crossing point, and
    /// screenQuad keeps the same quotients, so both results are those of the general functions
    /// (the same operations in the same order); otherwise the general functions answer.
    @inline(__always)
    static func particleBoundsAndOutline(of r: CGRect, _ H: Homography) -> (PixelRect, ScreenQuad?) {
        let x0 = Double(r.minX), y0 = Double(r.minY), x1 = Double(r.maxX), y1 = Double(r.maxY)
        let c0 = H.apply(x0, y0), c1 = H.apply(x1, y0), c2 = H.apply(x1, y1), c3 = H.apply(x0, y1)
        let eps = 1e-6
        guard c0.2 > eps, c1.2 > eps, c2.2 > eps, c3.2 > eps else { return (Self.pixelBounds(of: r, H), Self.screenQuad(of: r, H)) }
        let xs = SIMD4(c0.0 / c0.2, c1.0 / c1.2, c2.0 / c2.2, c3.0 / c3.2)
        let ys = SIMD4(c0.1 / c0.2, c1.1 / c1.2, c2.1 / c2.2, c3.1 / c3.2)
        // pixelBounds' extremes: each point clamped to ±1e7, the first of equal ones kept, NaN
        // never replacing one.
        let limit = 1e7
        var minX = min(max(xs[0], -limit), limit), minY = min(max(ys[0], -limit), limit)
        var maxX = minX, maxY = minY
        for i in 1..<4 {
            let x = min(max(xs[i], -limit), limit), y = min(max(ys[i], -limit), limit)
            if x < minX { minX = x }
            if maxX < x { maxX = x }
            if y < minY { minY = y }
            if maxY < y { maxY = y }
        }
        let bounds = PixelRect(x0: Int(floor(minX)) - 1, y0: Int(floor(minY)) - 1, x1: Int(ceil(maxX)) + 1, y1: Int(ceil(maxY)) + 1)
        return (bounds, ScreenQuad(xs: xs, ys: ys))
    }
}

/// Makes the draw item of one particle of a system: everything it needs from the emitter layer,
/// read only, so that chunks of particles can be made on several threads.
struct ParticleItemMaker: Sendable {
    /// Particles a job makes the items of, when a system is made on several threads.
    static let chunkLength = 2048

    /// Per image: the placement in a particle's own coordinates (centred on the origin, at scale
    /// 1) without colour.
    let placements: [ImagePlacement]
    let clips: [ClipShape]
    /// The pixels every particle is clipped to.
    let limit: PixelRect
    let opacity: Float
    let additive: Bool
    let depth: Bool
    let layerTo3D: CATransform3D
    let planeToScreen: Homography
    let H: Homography

    /// Appends the items of `particles` (the ones drawn) to `items`, in order.
    func append(from particles: UnsafeBufferPointer<ParticleSnapshot>, into items: inout [DrawItem]) {
        for p in particles {
            if let item = item(of: p) { items.append(item) }
        }
    }

    /// The draw item of `p`; nil when it draws nothing.
    @inline(__always)
    func item(of p: ParticleSnapshot) -> DrawItem? {
        let s = Double(p.scale)
        guard s > 0, s.isFinite, p.color.a > 0, Int(p.image) >= 0, Int(p.image) < placements.count else { return nil }
        var placement = placements[Int(p.image)]
        guard placement.destination.width > 0, placement.destination.height > 0 else { return nil }
        placement.modulate = ColorModulation.premultiplied(p.color)
        // The particle's map: scale, turn (clockwise on screen, y down), move to its centre.
        let c = cos(Double(p.rotation)) * s, n = sin(Double(p.rotation)) * s
        let toScreen: Homography
        if depth && p.z != 0 {
            var m = CATransform3DIdentity
            m.m11 = CGFloat(c); m.m12 = CGFloat(n); m.m21 = CGFloat(-n); m.m22 = CGFloat(c); m.m33 = CGFloat(s)
            m.m41 = CGFloat(p.x); m.m42 = CGFloat(p.y); m.m43 = CGFloat(p.z)
            toScreen = Homography(flattening: m.concatenating(layerTo3D)).concatenating(planeToScreen)
        } else {
            toScreen = Homography(c, n, 0, -n, c, 0, Double(p.x), Double(p.y), 1).concatenating(H)
        }
        guard let fromScreen = toScreen.inverted() else { return nil }
        // Without clips, on an affine map (as the kernels find it), the sprite rows draw it.
        let m = fromScreen.m
        placement.sprite = clips.isEmpty && !placement.nearest && m.2 == 0 && m.5 == 0 && m.8 == 1
        let local = placement.destination
        // The corners mapped once for both the bounds and the outline (the general
        // pixelBounds and screenQuad each map them again, and clip against the eye plane).
        let (bounds, outline) = DisplayListBuilder.particleBoundsAndOutline(of: local, toScreen)
        let b = bounds.intersection(limit)
        guard !b.isEmpty else { return nil }
        return DrawItem(op: .image(placement, clip: nil, opacity: opacity),
                        plane: PlaneMap(toScreen: toScreen, fromScreen: fromScreen, antialiased: true),
                        bounds: b, clips: clips, outline: outline, blendMode: additive ? .additive : .sourceOver)
    }
}

/// A particle system's items, a chunk of particles a job: job j initialises its items from
/// `made + j·chunkLength` on (at most one an item of its chunk) and writes their number to
/// `counts[j]`.
// @unchecked: `made` and `counts` point into buffers the caller holds until the jobs end; each
// job writes only its own chunk's part and count.
private struct ParticleItemJobs: StageJobs, @unchecked Sendable {
    let maker: ParticleItemMaker
    let particles: [ParticleSnapshot]
    let made: UnsafeMutablePointer<DrawItem>
    let counts: UnsafeMutablePointer<Int>

    func run(_ job: Int) {
        let lower = job * ParticleItemMaker.chunkLength
        let upper = min(lower + ParticleItemMaker.chunkLength, particles.count)
        var n = 0
        particles.withUnsafeBufferPointer { all in
            for i in lower..<upper {
                if let item = maker.item(of: all[i]) { (made + lower + n).initialize(to: item); n += 1 }
            }
        }
        counts[job] = n
    }
}
