// CATiledLayer drawn: only the tiles a frame shows, at the level of detail its on-screen scale
// needs, each once and then kept across frames within the memory budget; the result does not
// depend on the worker count or tile size. Reference images (viewed when recorded; tolerance 2
// per channel, none over) of the 20 000-point map at two zoom levels and a debug frame with
// each tile's clip box outlined.
import XCTest
import Strata
import StrataTestSupport

final class TiledLayerRenderTests: XCTestCase {
    func testMapAtTwoZoomLevelsMatchesReference() throws {
        let (scene, _) = LayerClassFixtures.tiledMap()
        let frames = try [0.0, 7.5].map { try scene.renderFrame(at: $0) }
        assertReferenceImage(ContactSheet.make(frames, columns: 2, reduction: 1, spacing: 2), named: "map-zoom", tolerance: 2)
    }

    func testDebugFrameWithTileBordersMatchesReference() throws {
        let (scene, _) = LayerClassFixtures.tiledMap(borders: true)
        let frames = try [1.5, 6.0].map { try scene.renderFrame(at: $0) }
        assertReferenceImage(ContactSheet.make(frames, columns: 2, reduction: 1, spacing: 2), named: "map-tile-borders", tolerance: 2)
    }

    /// At each time: every tile drawn is of the level `level(forScreenScale:)` gives for the
    /// map's scale (its clip box is tileSize / scale(level) points), and no more tiles than
    /// cover the frame's view of the map (plus one partly seen column and row).
    func testTilesDrawnAreTheVisibleOnesAtTheLevelTheScaleNeeds() throws {
        let (scene, map) = LayerClassFixtures.tiledMap()
        let g = map.tileGeometry
        for t in [0.0, 2.5, 5.0, 7.5, 9.0] {
            _ = map.takeDrawnTiles()
            scene.backingStores.tiledLayerTiles.capacity = 0   // nothing kept: every visible tile draws
            _ = try scene.renderFrame(at: t)
            let drawn = map.takeDrawnTiles()
            let s = Double(try XCTUnwrap(scene.presentation(of: map, at: t)).transform.m11)
            let level = g.level(forScreenScale: s)
            let side = Double(g.tilePoints(ofLevel: level).width)
            XCTAssertFalse(drawn.isEmpty, "t \(t)")
            for box in drawn {
                XCTAssertEqual(Double(box.minX).truncatingRemainder(dividingBy: side), 0, accuracy: 1e-6, "t \(t) \(box)")
                XCTAssertTrue(abs(Double(box.width) - side) < 1e-6 || box.maxX == 20_000, "t \(t): \(box) not a tile of level \(level)")
            }
            let columns = (640 / s / side).rounded(.up) + 1, rows = (360 / s / side).rounded(.up) + 1
            XCTAssertLessThanOrEqual(Double(drawn.count), columns * rows, "t \(t): \(drawn.count) tiles at level \(level)")
        }
    }

    /// A frame showing the same tiles as the previous one draws nothing; zooming draws the
    /// new level's tiles once.
    func testTilesAreKeptAcrossFrames() throws {
        let (scene, map) = LayerClassFixtures.tiledMap()
        _ = try scene.renderFrame(at: 7.5)
        XCTAssertGreaterThan(map.takeDrawnTiles().count, 0)
        let again = try scene.renderFrame(at: 7.5)
        XCTAssertEqual(map.takeDrawnTiles().count, 0)
        // The same frame from a scene that drew everything afresh.
        let (fresh, _) = LayerClassFixtures.tiledMap()
        XCTAssertEqual(again, try fresh.renderFrame(at: 7.5))
    }

    /// Ten seconds at 3 frames a second under a 4 MiB budget (backing-store-mb 8): the kept
    /// tiles stay within the budget plus the tiles of the frame being drawn; the whole map (at
    /// its finest level 80 000² pixels) is never drawn.
    func testTheCacheStaysWithinItsBudget() throws {
        let (scene, map) = LayerClassFixtures.tiledMap(frameRate: 3)
        scene.limits.backingStoreBytes = 8 << 20
        let cache = scene.backingStores.tiledLayerTiles
        XCTAssertEqual(cache.capacity, 4 << 20)
        var most = 0
        for i in 0..<30 {
            _ = try scene.renderFrame(index: i)
            let frameTiles = map.takeDrawnTiles().count
            most = max(most, frameTiles)
            XCTAssertLessThanOrEqual(cache.statistics.bytes, (4 << 20) + (15 * 256 * 256 * 4), "frame \(i)")
        }
        XCTAssertLessThan(cache.statistics.peakBytes, 64 << 20)
    }

    /// 1 or 2 workers (tiles drawn concurrently), tiles of 16, 64 or 97 pixels: the same bytes.
    func testFramesAreIdenticalAcrossWorkersAndTileSizes() throws {
        for t in [0.0, 5.0, 7.5] {
            let (a, _) = LayerClassFixtures.tiledMap()
            let reference = try a.renderFrame(at: t, options: RenderOptions(workers: 1, tileSize: 64, reusesUnchangedTiles: false))
            for (workers, tile) in [(2, 64), (2, 16), (1, 97)] {
                let (b, _) = LayerClassFixtures.tiledMap()
                XCTAssertEqual(try b.renderFrame(at: t, options: RenderOptions(workers: workers, tileSize: tile).verifyingTiles), reference,
                               "t \(t), \(workers) workers, tiles of \(tile)")
            }
        }
    }
}
