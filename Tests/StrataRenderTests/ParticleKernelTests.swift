// Particles (colour-modulated images, added or blended) go through the C span kernels: every
// instantiation gives the same bytes and the Swift pixel path the same image within a level
// (the `render` helper checks both), and overlapping additive sparks saturate at 1.
import XCTest
import StrataCore
@testable import StrataRender
import StrataTestSupport
import CStrataKernels

final class ParticleKernelTests: XCTestCase {
    /// A soft 16×16 dot.
    private func dot() -> CGImage {
        var b = Bitmap(width: 16, height: 16)
        for y in 0..<16 { for x in 0..<16 {
            let dx = Double(x) + 0.5 - 8, dy = Double(y) + 0.5 - 8
            let f = max(0, 1 - (dx * dx + dy * dy).squareRoot() / 8)
            let a = UInt8((f * 255).rounded())
            b.setPixel(x: x, y: y, (a, a, a, a))
        } }
        return CGImage(bitmap: b)
    }

    private func emitter(_ mode: CAEmitterLayerRenderMode, clipped: Bool) -> CALayer {
        let root = canvas(160, 96, color(0.1, 0.1, 0.2))
        let e = CAEmitterLayer()
        e.frame = CGRect(x: 10, y: 8, width: 140, height: 80)
        e.emitterShape = .rectangle
        e.emitterMode = .surface
        e.emitterPosition = CGPoint(x: 70, y: 40)
        e.emitterSize = CGSize(width: 120, height: 60)
        e.renderMode = mode
        e.masksToBounds = clipped
        e.cornerRadius = clipped ? 12 : 0
        let c = CAEmitterCell()
        c.contents = dot()
        c.birthRate = 150
        c.lifetime = 2
        c.velocity = 20
        c.emissionRange = 2 * .pi
        c.scale = 0.9
        c.scaleRange = 0.5
        c.spin = 1.5
        c.color = color(1, 0.6, 0.3, 0.7)
        c.greenRange = 0.4
        e.emitterCells = [c]
        root.addSublayer(e)
        return root
    }

    func testAdditiveAndBlendedParticlesThroughTheKernels() {
        for mode in [CAEmitterLayerRenderMode.additive, .oldestFirst] {
            for clipped in [false, true] {
                let root = emitter(mode, clipped: clipped)
                let frame = render(root, width: 160, height: 96, time: 1.5)
                XCTAssertEqual(render(root, width: 160, height: 96, workers: 1, tileSize: 37, time: 1.5).pixels, frame.pixels)
                // Something was drawn over the background.
                XCTAssertGreaterThan(frame.pixels.enumerated().filter { $0.offset % 4 == 0 && $0.element > 60 }.count, 200)
            }
        }
        // Many additive sparks on one spot saturate.
        let root = emitter(.additive, clipped: false)
        let e = root.sublayers![0] as! CAEmitterLayer
        e.emitterSize = .zero
        e.emitterCells![0].velocity = 0
        let frame = render(root, width: 160, height: 96, time: 1)
        let centre = frame.pixel(x: 80, y: 48)
        XCTAssertEqual(centre.r, 255)
        XCTAssertEqual(centre.a, 255)
    }

    /// A system of more particles than a chunk: its items are made a chunk a job on the workers,
    /// the same items in the same order as on one thread, and its frames the same bytes at any
    /// worker count, tile size and with a frame history.
    func testManyParticlesAreMadeInChunksWithTheSameItems() {
        let root = emitter(.additive, clipped: false)
        let e = root.sublayers![0] as! CAEmitterLayer
        e.emitterCells![0].birthRate = 2200
        let snapshot = PresentationBuilder(time: 2).snapshotTree(of: root)
        let live = snapshot.sublayers[0].particles?.particles.count ?? 0
        XCTAssertGreaterThan(live, 2 * ParticleItemMaker.chunkLength, "several chunks")
        let alone = DisplayListBuilder(width: 160, height: 96).build(snapshot)
        let chunked = ContentStage.displayList(of: snapshot, builder: DisplayListBuilder(width: 160, height: 96),
                                               dispatcher: ConcurrentDispatcher(workers: 2)).list
        XCTAssertGreaterThan(alone.items.count, 2 * ParticleItemMaker.chunkLength)
        XCTAssertEqual(chunked.items.count, alone.items.count)
        XCTAssertEqual(ItemFingerprints(chunked).words, ItemFingerprints(alone).words)
        // (FrameRenderer alone: the `render` helper's other kernel instantiations add nothing here.)
        let frame = FrameRenderer(width: 160, height: 96, options: RenderOptions(workers: 1)).render(snapshot)
        let other = FrameRenderer(width: 160, height: 96, options: RenderOptions(workers: 2, tileSize: 37)).render(snapshot)
        XCTAssertEqual(other.pixels, frame.pixels)
        let history = FrameRenderer(width: 160, height: 96, options: RenderOptions(workers: 2), history: FrameHistory())
        for t in [1.9, 2.0] {
            let pixels = history.render(PresentationBuilder(time: t).snapshotTree(of: root)).pixels
            if t == 2 { XCTAssertEqual(pixels, frame.pixels) }
        }
    }

    /// A particle's bounds and outline come from one mapping of its corners: the same values as
    /// the general pixelBounds and screenQuad, for affine maps (every particle of a flat emitter)
    /// and projective ones, including corners behind the eye (where the general functions answer).
    func testParticleBoundsAndOutlineEqualTheGeneralFunctions() {
        let local = CGRect(x: -16, y: -16, width: 32, height: 32)
        var checked = 0
        for i in 0..<400 {
            let angle = Double(i) * 0.37, s = 0.2 + Double(i % 17) * 0.11
            let c = cos(angle) * s, n = sin(angle) * s
            let particle = Homography(c, n, 0, -n, c, 0, Double(i * 7 % 1900) + 0.3, Double(i * 13 % 1070) - 0.45, 1)
            // Perspective: mild, strong enough to push corners behind the eye, and none.
            let p = [0, 0.0004, -0.02][i % 3]
            let H = Homography(1, 0, p, 0, 1, p / 2, 3, -2, 1)
            for toScreen in [particle, particle.concatenating(H)] {
                let (bounds, outline) = DisplayListBuilder.particleBoundsAndOutline(of: local, toScreen)
                XCTAssertEqual(bounds, DisplayListBuilder.pixelBounds(of: local, toScreen), "#\(i)")
                let general = DisplayListBuilder.screenQuad(of: local, toScreen)
                XCTAssertEqual(outline == nil, general == nil, "#\(i)")
                if let outline, let general {
                    for k in 0..<4 {
                        XCTAssertEqual(outline.xs[k].bitPattern, general.xs[k].bitPattern, "#\(i) corner \(k)")
                        XCTAssertEqual(outline.ys[k].bitPattern, general.ys[k].bitPattern, "#\(i) corner \(k)")
                    }
                }
                checked += 1
            }
        }
        XCTAssertEqual(checked, 800)
    }

    /// A sprite's sample (integer bilinear, weights in 1/256 steps) against the float bilinear
    /// of ordinary images: within 1/255 everywhere on a noisy image (a weight off by at most
    /// 1/512 of a texel difference of at most 1), exactly T/255 on a uniform image of T, exactly
    /// 0 on a transparent one, and the texel itself at texel centres.
    func testSpriteSamplesAgreeWithTheFloatBilinear() {
        var noise = Bitmap(width: 9, height: 7)
        var seed: UInt64 = 0x9e37_79b9_7f4a_7c15
        for i in 0..<noise.pixels.count {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            noise.pixels[i] = UInt8(truncatingIfNeeded: seed >> 56)
        }
        func samplers(_ b: Bitmap) -> (ImageSampler, ImageSampler) {
            var p = ImagePlacement(image: CGImage(bitmap: b), destination: CGRect(x: 0, y: 0, width: 18, height: 14),
                                   source: CGRect(x: 0, y: 0, width: b.width, height: b.height), nearest: false)
            let float = ImageSampler(p)
            p.sprite = true
            return (float, ImageSampler(p))
        }
        let (float, sprite) = samplers(noise)
        XCTAssertTrue(sprite.sprite)
        noise.pixels.withUnsafeBytes { raw in
            let w = raw.bindMemory(to: UInt32.self)
            var worst: Float = 0
            for i in 0..<2000 {
                let u = Double(i % 53) * 0.37 - 1.5, v = Double(i / 53) * 0.41 - 1.2
                worst = max(worst, (sprite.sample(w, u, v) - float.sample(w, u, v)).max(), (float.sample(w, u, v) - sprite.sample(w, u, v)).max())
            }
            XCTAssertLessThanOrEqual(worst, 1 / 255, "largest difference, in 0…1")
            XCTAssertGreaterThan(worst, 0, "the two samplers are different functions")
            // Texel centres (u = 2·x + 1 on this 2× placement): the texel.
            let centre = sprite.sample(w, 2 * 4 + 1, 2 * 3 + 1)
            let t = noise.pixel(x: 4, y: 3)
            XCTAssertEqual(centre, SIMD4(Float(t.r), Float(t.g), Float(t.b), Float(t.a)) / 255)
        }
        for value: UInt8 in [0, 1, 128, 254, 255] {
            var flat = Bitmap(width: 5, height: 5)
            for i in 0..<flat.pixels.count { flat.pixels[i] = value }
            let (_, sprite) = samplers(flat)
            flat.pixels.withUnsafeBytes { raw in
                let w = raw.bindMemory(to: UInt32.self)
                for i in 0..<300 {
                    let s = sprite.sample(w, Double(i) * 0.061 - 0.7, Double(i % 17) * 0.83)
                    XCTAssertEqual(s, SIMD4(repeating: Float(value) / 255), "value \(value), sample \(i)")
                }
            }
        }
    }

    /// A sprite drawn from its description made once a frame (SpanKernel.describeSprite,
    /// drawSprite: its columns found by the kernel from its outline, no row spans) gives the
    /// bytes of the path every other item takes (SpanKernel.draw, described again for the tile,
    /// with the frame's row spans and without), in every kernel instantiation, for tiles that cut
    /// through the particles — the described ones read their texels in pairs from the bordered
    /// copy (ImagePlacement.spriteTexels), the others with edge clamps; and a uniform image
    /// drawn inside its edges gives its value exactly, bordered or not.
    func testSpritesFromTheirFrameDescriptionMatchTheGeneralPath() throws {
        let root = emitter(.additive, clipped: false)
        let snapshot = PresentationBuilder(time: 1.5).snapshotTree(of: root)
        let list = DisplayListBuilder(width: 160, height: 96).build(snapshot)
        let sprites = list.items.filter { SpanKernel.isSprite($0) }
        XCTAssertGreaterThan(sprites.count, 100)
        XCTAssertNil(SpanKernel.rowSpanCount(of: sprites[0], frame: PixelRect(x0: 0, y0: 0, x1: 160, y1: 96)), "sprites have no row spans")
        if case .image(let p, _, _) = sprites[0].op { XCTAssertNotNil(p.spriteTexels, "a bordered copy for the system's image") }
        var compared = 0
        for lanes in kernelInstantiations() {
            var options = RenderOptions(workers: 1)
            options.kernels = lanes
            let settings = DrawSettings(options)
            for (n, item) in sprites.enumerated() where n % 3 == 0 {
                var k = strata_item()
                XCTAssertTrue(SpanKernel.describeSprite(item, settings, into: &k))
                // Tiles of 13×11 pixels at offsets that vary with the item: most sprites cross several.
                let b = item.bounds
                for ty in stride(from: b.y0 - n % 11, to: b.y1, by: 11) {
                    for tx in stride(from: b.x0 - n % 13, to: b.x1, by: 13) {
                        let rect = PixelRect(x0: tx, y0: ty, x1: tx + 13, y1: ty + 11)
                        let r = b.intersection(rect)
                        if r.isEmpty { continue }
                        var fresh = TileBuffer(rect: rect)
                        for i in 0..<fresh.planes.count { fresh.planes[i] = Float(i % 97) / 200 }
                        var general = fresh, withSpans = fresh, described = fresh
                        XCTAssertTrue(SpanKernel.draw(item, in: r, into: &general, settings))
                        // The frame's spans, computed as the span stage computes other items'.
                        var spans = [Int32](repeating: 0, count: 4 * (b.y1 - b.y0))
                        var rows = SpanKernel.rowSetup(item, interior: SpanKernel.interior(of: item.op)?.shape, over: b, settings)
                        spans.withUnsafeMutableBufferPointer { strata_item_row_spans(&rows, $0.baseAddress!) }
                        spans.withUnsafeBufferPointer { sp in
                            XCTAssertTrue(SpanKernel.draw(item, in: r, into: &withSpans, settings,
                                                          spans: ItemRowSpans(y0: b.y0, values: sp.baseAddress!)))
                        }
                        SpanKernel.drawSprite(&k, outline: item.outline, in: r, into: &described, settings)
                        XCTAssertEqual(described.planes.map(\.bitPattern), general.planes.map(\.bitPattern), "lanes \(lanes.rawValue), item \(n)")
                        XCTAssertEqual(withSpans.planes.map(\.bitPattern), general.planes.map(\.bitPattern), "lanes \(lanes.rawValue), item \(n)")
                        compared += 1
                    }
                }
            }
        }
        XCTAssertGreaterThan(compared, 300)

        // A uniform image (premultiplied grey 0.4 at alpha 0.8: bytes 102, 204), turned and scaled,
        // over nothing: inside its edges (coverage 1) every pixel is its value.
        var flat = Bitmap(width: 12, height: 12)
        for i in 0..<flat.pixels.count { flat.pixels[i] = i % 4 == 3 ? 204 : 102 }
        var placement = ImagePlacement(image: CGImage(bitmap: flat), destination: CGRect(x: -6, y: -6, width: 12, height: 12),
                                       source: CGRect(x: 0, y: 0, width: 12, height: 12), nearest: false)
        placement.sprite = true
        let angle = 0.6, scale = 2.3
        let c = cos(angle) * scale, s = sin(angle) * scale
        let toScreen = Homography(c, s, 0, -s, c, 0, 40.3, 30.7, 1)
        let fromScreen = try XCTUnwrap(toScreen.inverted())
        let (bounds, outline) = DisplayListBuilder.particleBoundsAndOutline(of: placement.destination, toScreen)
        var bordered = placement
        bordered.spriteTexels = try XCTUnwrap(SpriteBorder.bordered(placement.image))
        XCTAssertEqual(bordered.spriteTexels?.count, 14 * 14)
        for (p, lanes) in [placement, bordered].flatMap({ p in kernelInstantiations().map { (p, $0) } }) {
            let item = DrawItem(op: .image(p, clip: nil, opacity: 1), plane: PlaneMap(toScreen: toScreen, fromScreen: fromScreen, antialiased: true),
                                bounds: bounds, clips: [], outline: outline, blendMode: .sourceOver)
            var options = RenderOptions(workers: 1)
            options.kernels = lanes
            let settings = DrawSettings(options)
            var k = strata_item()
            XCTAssertTrue(SpanKernel.describeSprite(item, settings, into: &k))
            XCTAssertEqual(k.spriteTexels != nil, p.spriteTexels != nil)
            var tile = TileBuffer(rect: bounds)
            SpanKernel.drawSprite(&k, outline: outline, in: bounds, into: &tile, settings)
            var inside = 0
            for y in bounds.y0..<bounds.y1 {
                for x in bounds.x0..<bounds.x1 {
                    // The pixel's square lies inside the image when its four corners map inside.
                    let corners = [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)].map { fromScreen.apply(Double(x) + $0.0, Double(y) + $0.1) }
                    guard corners.allSatisfy({ abs($0.0 / $0.2) < 5.5 && abs($0.1 / $0.2) < 5.5 }) else { continue }
                    let i = (y - bounds.y0) * tile.stride + (x - bounds.x0)
                    XCTAssertEqual(tile.planes[i], 0.4, accuracy: 1e-6, "lanes \(lanes.rawValue) (\(x), \(y))")
                    XCTAssertEqual(tile.planes[i + 3 * tile.plane], 0.8, accuracy: 1e-6, "lanes \(lanes.rawValue) (\(x), \(y))")
                    inside += 1
                }
            }
            XCTAssertGreaterThan(inside, 300)
        }
    }
}
