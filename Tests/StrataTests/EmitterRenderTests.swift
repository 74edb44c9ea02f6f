// CAEmitterLayer drawn: particles as their cell's image, multiplied by their colour, scaled and
// turned, in render-mode order, additively blended in `.additive` mode; reference images
// (viewed when recorded; tolerance 2 per channel, none over) of an explosion, snow and a
// firework with sub-emitters at several times. Determinism: the same bytes with 1 or 2 workers,
// any tile size, frames asked for out of order, and a chunk rendered by a fresh scene.
import XCTest
import Strata
import StrataTestSupport

final class EmitterRenderTests: XCTestCase {
    private func strip(_ scene: Scene, _ times: [Double]) throws -> Bitmap {
        ContactSheet.make(try times.map { try scene.renderFrame(at: $0) }, columns: times.count, reduction: 1, spacing: 2)
    }

    func testExplosionMatchesReference() throws {
        let (scene, _) = LayerClassFixtures.explosion()
        assertReferenceImage(try strip(scene, [0.1, 0.4, 0.8, 1.4]), named: "explosion", tolerance: 2)
    }

    func testSnowMatchesReference() throws {
        let (scene, _) = LayerClassFixtures.snow()
        assertReferenceImage(try strip(scene, [1, 4, 9]), named: "snow", tolerance: 2)
    }

    func testFireworkMatchesReference() throws {
        let (scene, _) = LayerClassFixtures.firework()
        assertReferenceImage(try strip(scene, [0.8, 1.3, 2.2, 3.5]), named: "firework", tolerance: 2)
    }

    // MARK: Determinism

    private let makers: [(String, () -> Scene)] = [
        ("explosion", { LayerClassFixtures.explosion().0 }),
        ("snow", { LayerClassFixtures.snow().0 }),
        ("firework", { LayerClassFixtures.firework().0 }),
    ]

    /// 1 or 2 workers, tiles of 16, 64 or 97 pixels, with and without reusing tiles: the same bytes.
    func testFramesAreIdenticalAcrossWorkersAndTileSizes() throws {
        for (name, make) in makers {
            for t in [0.4, 1.3] {
                let reference = try make().renderFrame(at: t, options: RenderOptions(workers: 1, tileSize: 64, reusesUnchangedTiles: false))
                for (workers, tile) in [(2, 64), (1, 16), (2, 97), (2, 16)] {
                    let frame = try make().renderFrame(at: t, options: RenderOptions(workers: workers, tileSize: tile).verifyingTiles)
                    XCTAssertEqual(frame, reference, "\(name) at \(t) s, \(workers) workers, tiles of \(tile)")
                }
            }
        }
    }

    /// Frames asked for in a shuffled order (one scene, tiles reused between them) equal frames
    /// rendered in order by a fresh scene each.
    func testFramesOutOfOrderEqualFramesInOrder() throws {
        for (name, make) in makers {
            let indices = [40, 3, 27, 12, 41, 0, 33]
            let shuffled = make()
            var got: [Int: Bitmap] = [:]
            for i in indices { got[i] = try shuffled.renderFrame(index: i) }
            let ordered = make()
            for i in indices.sorted() {
                XCTAssertEqual(got[i], try ordered.renderFrame(index: i), "\(name) frame \(i)")
            }
        }
    }

    /// An export of frames 0–15 and an export of the chunk 10–15 by another scene (as another
    /// machine would) write the same PNG bytes for 10–15.
    func testAChunkExportEqualsTheFullExport() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-emitter-chunks-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (name, make) in makers {
            var full = ExportOptions()
            full.frameRange = 0..<16
            try make().export(to: dir.appendingPathComponent("\(name)-full"), options: full)
            var chunk = ExportOptions()
            chunk.frameRange = 10..<16
            try make().export(to: dir.appendingPathComponent("\(name)-chunk"), options: chunk)
            for i in 10..<16 {
                let file = String(format: "frame_%05d.png", i)
                let a = try Data(contentsOf: dir.appendingPathComponent("\(name)-full").appendingPathComponent(file))
                let b = try Data(contentsOf: dir.appendingPathComponent("\(name)-chunk").appendingPathComponent(file))
                XCTAssertEqual(a, b, "\(name) \(file)")
            }
        }
    }

    /// Additive: two overlapping white dots at alpha 0.5 give 1.0 where both are fully covered
    /// (0.5 + 0.5), where source-over would give 0.75; colour multiplies the image.
    func testAdditiveParticlesAddAndColourMultiplies() throws {
        func frame(_ mode: CAEmitterLayerRenderMode) throws -> Bitmap {
            let root = LayerClassFixtures.root(40, 40, background: nil)
            let e = CAEmitterLayer()
            e.frame = root.bounds
            e.emitterPosition = CGPoint(x: 20, y: 20)
            e.renderMode = mode
            var square = Bitmap(width: 8, height: 8)
            for i in 0..<square.pixels.count { square.pixels[i] = 255 }
            let c = CAEmitterCell()
            c.contents = CGImage(bitmap: square)
            c.birthRate = 10     // births at 0 and 0.1
            c.lifetime = 10
            c.color = LayerClassFixtures.color(1, 0.5, 1, 0.5)
            e.emitterCells = [c]
            root.addSublayer(e)
            return try Scene(rootLayer: root, size: root.bounds.size, frameRate: 10, duration: 1).renderFrame(at: 0.15)
        }
        let add = try frame(.additive).pixel(x: 20, y: 20)
        XCTAssertEqual([add.r, add.g, add.b, add.a], [255, 128, 255, 255])
        let over = try frame(.unordered).pixel(x: 20, y: 20)
        XCTAssertEqual([over.r, over.g, over.b, over.a], [191, 96, 191, 191])
    }

    /// One particle born at 0 at (20, 20), still: how its image is cut, scaled and turned.
    private func single(_ configure: (CAEmitterCell) -> Void) throws -> Bitmap {
        let root = LayerClassFixtures.root(40, 40, background: nil)
        let e = CAEmitterLayer()
        e.frame = root.bounds
        e.emitterPosition = CGPoint(x: 20, y: 20)
        let c = CAEmitterCell()
        c.birthRate = 0.5     // one birth, at 0
        c.lifetime = 10
        configure(c)
        e.emitterCells = [c]
        root.addSublayer(e)
        return try Scene(rootLayer: root, size: root.bounds.size, frameRate: 10, duration: 2).renderFrame(at: 1)
    }

    /// contentsRect picks the right half of a red|blue image (4×4 points), scale 2 doubles it.
    func testContentsRectAndScale() throws {
        var image = Bitmap(width: 8, height: 4)
        for y in 0..<4 { for x in 0..<8 {
            let i = (y * 8 + x) * 4
            image.pixels[i] = x < 4 ? 255 : 0; image.pixels[i + 2] = x < 4 ? 0 : 255; image.pixels[i + 3] = 255
        } }
        let frame = try single { c in
            c.contents = CGImage(bitmap: image)
            c.contentsRect = CGRect(x: 0.5, y: 0, width: 0.5, height: 1)
            c.scale = 2
        }
        // 8 × 8 points centred on (20, 20): pixels 16…23 (column 16 mixes in a quarter of the red
        // texel beside the rectangle: bilinear sampling clamps at the image's edges, not the
        // contentsRect's, as for a layer's contentsRect).
        let edge = frame.pixel(x: 16, y: 20)
        XCTAssertEqual([edge.r, edge.g, edge.b, edge.a], [64, 0, 191, 255])
        for (x, y) in [(17, 16), (20, 20), (23, 23), (17, 23)] {
            let p = frame.pixel(x: x, y: y)
            XCTAssertEqual([p.r, p.g, p.b, p.a], [0, 0, 255, 255], "(\(x), \(y))")
        }
        for (x, y) in [(15, 20), (24, 20), (20, 15), (20, 24)] { XCTAssertEqual(frame.pixel(x: x, y: y).a, 0, "(\(x), \(y))") }
    }

    /// spin π/2 rad/s turns an 8×2 bar upright after a second (clockwise on screen).
    func testSpinTurnsTheParticle() throws {
        var bar = Bitmap(width: 8, height: 2)
        for i in 0..<bar.pixels.count { bar.pixels[i] = 255 }
        let frame = try single { c in
            c.contents = CGImage(bitmap: bar)
            c.spin = .pi / 2
        }
        XCTAssertEqual(frame.pixel(x: 20, y: 17).a, 255)   // upright: 2 wide, 8 high
        XCTAssertEqual(frame.pixel(x: 19, y: 22).a, 255)
        XCTAssertEqual(frame.pixel(x: 17, y: 20).a, 0)
        XCTAssertEqual(frame.pixel(x: 22, y: 19).a, 0)
    }

    /// Two still, opaque particles on the same spot, born at 0 and 1: at 1.5 the older is red
    /// (redSpeed), the newer half red, half blue. oldestFirst draws the newer on top, oldestLast
    /// the older.
    func testRenderModeOrderDecidesWhichParticleIsOnTop() throws {
        func centre(_ mode: CAEmitterLayerRenderMode) throws -> [UInt8] {
            let root = LayerClassFixtures.root(40, 40, background: nil)
            let e = CAEmitterLayer()
            e.frame = root.bounds
            e.emitterPosition = CGPoint(x: 20, y: 20)
            e.renderMode = mode
            var square = Bitmap(width: 8, height: 8)
            for i in 0..<square.pixels.count { square.pixels[i] = 255 }
            let c = CAEmitterCell()
            c.contents = CGImage(bitmap: square)
            c.birthRate = 1
            c.lifetime = 10
            c.color = LayerClassFixtures.color(0, 0, 1)
            c.redSpeed = 1
            c.blueSpeed = -1
            e.emitterCells = [c]
            root.addSublayer(e)
            let p = try Scene(rootLayer: root, size: root.bounds.size, frameRate: 10, duration: 2).renderFrame(at: 1.5).pixel(x: 20, y: 20)
            return [p.r, p.g, p.b, p.a]
        }
        XCTAssertEqual(try centre(.oldestFirst), [128, 0, 128, 255])
        XCTAssertEqual(try centre(.oldestLast), [255, 0, 0, 255])
    }
}
