// CATiledLayer: Apple's defaults, the levels of detail (scales, clamping, the level an on-screen
// scale picks), the tiles covering a visible area, and drawing one tile: the delegate receives a
// context whose clip box is the tile (the seeds' Snowman example computes the tile from it).
import Foundation
import XCTest
import StrataCore

private final class ClipRecorder: CALayerDelegate {
    let lock = NSLock()
    var boxes: [CGRect] = []
    func draw(_ layer: CALayer, in ctx: CGContext) {
        lock.lock(); boxes.append(ctx.boundingBoxOfClipPath); lock.unlock()
        ctx.setFillColor(.white)
        ctx.fill(ctx.boundingBoxOfClipPath)
    }
}

final class TiledLayerTests: XCTestCase {
    func testDefaultsAreApples() {
        let t = CATiledLayer()
        XCTAssertEqual(t.levelsOfDetail, 1)
        XCTAssertEqual(t.levelsOfDetailBias, 0)
        XCTAssertEqual(t.tileSize, CGSize(width: 256, height: 256))
        XCTAssertEqual(CATiledLayer.fadeDuration(), 0.25)
    }

    func testLevelsOfDetailScalesAndChoice() {
        // 4 levels, 1 of them magnifying: 2, 1, 0.5, 0.25 pixels per point.
        let g = TiledLayerGeometry(bounds: CGRect(x: 0, y: 0, width: 20_000, height: 20_000),
                                   tileSize: CGSize(width: 256, height: 256), levelsOfDetail: 4, levelsOfDetailBias: 1,
                                   contentsScale: 1)
        XCTAssertEqual((0..<4).map { g.scale(ofLevel: $0) }, [2, 1, 0.5, 0.25])
        XCTAssertEqual(g.level(forScreenScale: 5), 0)       // finer than any level: the finest
        XCTAssertEqual(g.level(forScreenScale: 1.5), 0)
        XCTAssertEqual(g.level(forScreenScale: 1.0), 1)
        XCTAssertEqual(g.level(forScreenScale: 0.3), 2)     // 0.5 is the coarsest level ≥ 0.3
        XCTAssertEqual(g.level(forScreenScale: 0.1), 3)
        XCTAssertEqual(g.tilePoints(ofLevel: 3), CGSize(width: 1024, height: 1024))
        // contentsScale 2 (Retina): 256-pixel tiles are 128 points.
        let retina = TiledLayerGeometry(bounds: CGRect(x: 0, y: 0, width: 2048, height: 2048),
                                        tileSize: CGSize(width: 256, height: 256), levelsOfDetail: 1, levelsOfDetailBias: 0,
                                        contentsScale: 2)
        XCTAssertEqual(retina.tilePoints(ofLevel: 0), CGSize(width: 128, height: 128))
    }

    func testLevelsAreClampedToAPixel() {
        // 100 points at scale 1: 1, ½, …, 1/64 (1.56 px) — 1/128 would be under a pixel.
        let g = TiledLayerGeometry(bounds: CGRect(x: 0, y: 0, width: 100, height: 300), tileSize: CGSize(width: 256, height: 256),
                                   levelsOfDetail: 20, levelsOfDetailBias: 0, contentsScale: 1)
        XCTAssertEqual(g.levels, 7)
        XCTAssertEqual(TiledLayerGeometry(bounds: .zero, tileSize: CGSize(width: 256, height: 256), levelsOfDetail: 3,
                                          levelsOfDetailBias: 0, contentsScale: 1).levels, 1)
    }

    func testTilesCoveringAnArea() {
        let g = TiledLayerGeometry(bounds: CGRect(x: 0, y: 0, width: 2048, height: 1000),
                                   tileSize: CGSize(width: 256, height: 256), levelsOfDetail: 1, levelsOfDetailBias: 0,
                                   contentsScale: 1)
        let tiles = g.tiles(ofLevel: 0, covering: CGRect(x: 300, y: 300, width: 400, height: 300))
        XCTAssertEqual(tiles.map { [$0.column, $0.row] }, [[1, 1], [2, 1], [1, 2], [2, 2]])
        XCTAssertEqual(g.rect(ofTile: TileIndex(level: 0, column: 2, row: 1)), CGRect(x: 512, y: 256, width: 256, height: 256))
        // The last row is cut at the bounds (1000 = 3 × 256 + 232).
        XCTAssertEqual(g.rect(ofTile: TileIndex(level: 0, column: 0, row: 3)), CGRect(x: 0, y: 768, width: 256, height: 232))
        XCTAssertEqual(g.tiles(ofLevel: 0, covering: CGRect(x: -500, y: -500, width: 10_000, height: 10_000)).count, 8 * 4)
        XCTAssertTrue(g.tiles(ofLevel: 0, covering: CGRect(x: 3000, y: 0, width: 10, height: 10)).isEmpty)
    }

    func testDrawingATileGivesTheDelegateTheTileAsClipBox() {
        let layer = CATiledLayer()
        layer.frame = CGRect(x: 0, y: 0, width: 2048, height: 2048)
        let recorder = ClipRecorder()
        layer.delegate = recorder
        let drawing = layer.drawTile(TileIndex(level: 0, column: 3, row: 5))
        XCTAssertEqual(recorder.boxes, [CGRect(x: 768, y: 1280, width: 256, height: 256)])
        XCTAssertFalse(drawing.recording.isEmpty)
        XCTAssertEqual(drawing.bounds, CGRect(x: 768, y: 1280, width: 256, height: 256))
        // display() draws nothing: tiles are drawn when a frame shows them.
        layer.setNeedsDisplay()
        layer.displayIfNeeded()
        XCTAssertEqual(recorder.boxes.count, 1)
        XCTAssertNil(layer.currentDrawing)
        // The snapshot carries the tile source, the geometry and a version that display() bumps.
        let v0 = layer.makeSnapshot().tiledContent!.version
        layer.setNeedsDisplay(); layer.displayIfNeeded()
        XCTAssertEqual(layer.makeSnapshot().tiledContent!.version, v0 + 1)
        XCTAssertEqual(layer.makeSnapshot().tiledContent!.geometry.levels, 1)
    }

    func testTilesDrawConcurrently() {
        let layer = CATiledLayer()
        layer.frame = CGRect(x: 0, y: 0, width: 4096, height: 4096)
        let recorder = ClipRecorder()
        layer.delegate = recorder
        let source = layer.makeSnapshot().tiledContent!.source
        DispatchQueue.concurrentPerform(iterations: 64) { i in
            _ = source.drawTile(CGRect(x: (i % 8) * 512, y: (i / 8) * 512, width: 512, height: 512), scale: 0.5)
        }
        XCTAssertEqual(Set(recorder.boxes.map { "\($0)" }).count, 64)
    }
}
