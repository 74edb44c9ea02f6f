// The tile-coverage check (RenderOptions.verifiesTileCoverage): frames start uninitialised, so
// every tile must be copied, found held by a recycled buffer, or stored — exactly once as a
// whole. The reference and determinism tests render with the check on (`verifyingTiles`); here
// the check itself is tested on made-up write records, and on a sequence that recycles buffers.
import XCTest
import StrataCore
import StrataTestSupport
@testable import StrataRender

extension RenderOptions {
    /// These options with the tile-coverage check on: every tile of every frame copied or
    /// stored exactly once, fresh buffers poisoned (RenderOptions.verifiesTileCoverage).
    var verifyingTiles: RenderOptions { var o = self; o.verifiesTileCoverage = true; return o }
}

final class TileCoverageTests: XCTestCase {
    private let tile = PixelRect(x0: 32, y0: 0, x1: 64, y1: 32)
    private let part = PixelRect(x0: 40, y0: 4, x1: 50, y1: 20)

    private func problem(_ writes: [TileCoverageLog.Write], heldMatches: Bool = true) -> String? {
        TileCoverageLog.problem(with: writes, in: tile, heldMatches: { _, _ in heldMatches })
    }

    /// The ways a tile may be written pass; every other way is named.
    func testTheCheckNamesEveryWrongWayToWriteATile() {
        // Right: copied, held, stored, or copied/held and then its changed part stored.
        XCTAssertNil(problem([.copied(tile)]))
        XCTAssertNil(problem([.held(tile)]))
        XCTAssertNil(problem([.stored(tile)]))
        XCTAssertNil(problem([.copied(tile), .stored(part)]))
        XCTAssertNil(problem([.held(tile), .stored(part)]))
        // Wrong.
        XCTAssertEqual(problem([]), "neither copied nor stored")
        XCTAssertEqual(problem([.stored(part)]), "its first write (stored (40,4)–(50,20)) does not cover the tile")
        XCTAssertEqual(problem([.copied(tile), .stored(tile)]), "both copied and stored whole")
        XCTAssertEqual(problem([.stored(tile), .copied(tile)]), "stored, then written again")
        XCTAssertEqual(problem([.stored(tile), .stored(tile)]), "stored, then written again")
        XCTAssertEqual(problem([.held(tile), .copied(tile)]), "copied twice")
        XCTAssertEqual(problem([.copied(tile), .stored(part), .stored(part)]), "written 3 times")
        XCTAssertEqual(problem([.copied(PixelRect(x0: 32, y0: 0, x1: 65, y1: 32))]), "copied (32,0)–(65,32) is not inside the tile")
        XCTAssertEqual(problem([.held(tile)], heldMatches: false), "held, but the buffer's bytes are not the previous frame's")
    }

    /// A frame's log names the tiles nobody wrote, with the rectangles the check computes itself.
    func testAMissedTileIsNamed() {
        let log = TileCoverageLog(width: 100, height: 40, tileWidth: 32, tileHeight: 32)  // 4 × 2 tiles, the last column and row partial
        XCTAssertEqual(log.rect(of: 7), PixelRect(x0: 96, y0: 32, x1: 100, y1: 40))
        for t in 0..<8 where t != 5 { log.note(t, .stored(log.rect(of: t))) }
        XCTAssertEqual(log.violations(heldMatches: { _, _ in true }), ["tile 5 (32,32)–(64,40): neither copied nor stored [writes: ]"])
        log.note(5, .copied(log.rect(of: 5)))
        XCTAssertEqual(log.violations(heldMatches: { _, _ in true }), [])
    }

    /// A sequence whose frames are let go once encoded (as an export does): the recycled
    /// buffers' held tiles are compared with the previous frame, every other tile is
    /// copied or stored, and the frames are those of a full draw.
    func testRecycledBuffersAndReusedTilesPassTheCheck() {
        let root = canvas(160, 96, color(0.9, 0.95, 1))
        let dot = box(CGRect(x: 10, y: 30, width: 20, height: 20), color(0.8, 0.2, 0.3, 0.8))
        root.addSublayer(dot)
        for (workers, tileSize) in [(1, 32), (2, 13)] {
            let history = FrameHistory()
            let renderer = FrameRenderer(width: 160, height: 96, options: RenderOptions(workers: workers, tileSize: tileSize).verifyingTiles,
                                         history: history)
            var encoding: [Bitmap] = []
            for x in [10, 10, 40, 70, 70, 70, 100, 10] {
                dot.frame.origin.x = CGFloat(x)
                let snap = PresentationBuilder(time: 0).snapshotTree(of: root)
                let frame = renderer.render(snap)
                let full = FrameRenderer(width: 160, height: 96, options: RenderOptions(workers: 1, reusesUnchangedTiles: false)).render(snap)
                XCTAssertEqual(frame, full, "x \(x), \(workers) workers, tiles of \(tileSize)")
                encoding.append(frame)
                if encoding.count > 1 { encoding.removeFirst() }
            }
            XCTAssertGreaterThan(history.tileStatistics.reused, 0)
        }
    }

    /// Tiles of any shape give the bytes of the default ones, and no size or aspect overflows
    /// or divides by zero: rows one pixel tall, a tile wider than the frame, aspects of 0, −1 and
    /// Int.max, sizes of 0, −5 and Int.max; each tile written once (the check), as YUV too.
    func testAnyTileShapeGivesTheSameBytes() {
        let root = canvas(150, 90, color(0.9, 0.95, 1))
        let box1 = box(CGRect(x: 10, y: 12, width: 70, height: 40), color(0.8, 0.2, 0.3, 0.8))
        box1.transform = CATransform3DMakeRotation(0.4, 0, 0, 1)
        root.addSublayer(box1)
        let snap = PresentationBuilder(time: 0).snapshotTree(of: root)
        let reference = FrameRenderer(width: 150, height: 90, options: RenderOptions(workers: 1)).renderWithYUV(snap)
        XCTAssertNotNil(reference.1)
        for (size, aspect) in [(8, 8), (16, 1), (40, 3), (128, 0), (128, .max), (.max, 2), (.max, .max), (0, 2), (-5, -1)] {
            var options = RenderOptions(workers: 2).verifyingTiles
            options.tileSize = size  // as set after init (which keeps it at 8 or more)
            options.tileAspect = aspect
            let (w, h) = options.tileDimensions(even: true)
            XCTAssertTrue(w > 0 && h > 0 && w % 2 == 0 && h % 2 == 0, "size \(size), aspect \(aspect): \(w) × \(h)")
            let frame = FrameRenderer(width: 150, height: 90, options: options).renderWithYUV(snap)
            XCTAssertEqual(frame.0, reference.0, "size \(size), aspect \(aspect)")
            XCTAssertEqual(frame.1?.y, reference.1?.y, "size \(size), aspect \(aspect)")
            XCTAssertEqual(frame.1?.u, reference.1?.u, "size \(size), aspect \(aspect)")
        }
    }

    /// A grid's tiles cover its frame exactly once, numbered row by row, cut at the frame's edge.
    func testTileGridCoversTheFrameOnce() {
        for (w, h) in [(320, 180), (1, 1), (257, 65), (1920, 1080)] {
            for (tw, th) in [(256, 64), (128, 32), (7, 3), (1, 1), (5000, 5000)] {
                let grid = TileGrid(width: w, height: h, tileWidth: tw, tileHeight: th)
                XCTAssertEqual(grid.count, grid.columns * grid.rows)
                XCTAssertEqual(grid.columns, (w + tw - 1) / tw)
                var covered = [UInt8](repeating: 0, count: w * h), area = 0
                for t in 0..<grid.count {
                    let r = grid.rect(of: t)
                    XCTAssertFalse(r.isEmpty, "\(w)×\(h) in \(tw)×\(th): tile \(t)")
                    XCTAssertEqual(r.x0, t % grid.columns * tw)
                    XCTAssertEqual(r.y0, t / grid.columns * th)
                    XCTAssertTrue(r.x1 <= w && r.y1 <= h && r.x1 - r.x0 <= tw && r.y1 - r.y0 <= th)
                    area += (r.x1 - r.x0) * (r.y1 - r.y0)
                    if w * h <= 257 * 65 { for y in r.y0..<r.y1 { for x in r.x0..<r.x1 { covered[y * w + x] += 1 } } }
                }
                XCTAssertEqual(area, w * h, "\(w)×\(h) in \(tw)×\(th)")
                if w * h <= 257 * 65 { XCTAssertTrue(covered.allSatisfy { $0 == 1 }, "\(w)×\(h) in \(tw)×\(th)") }
            }
        }
        XCTAssertEqual(TileGrid(width: 320, height: 180, tileWidth: 128, tileHeight: 32),
                       TileGrid(width: 320, height: 180, tileWidth: 128, tileHeight: 32))
        XCTAssertNotEqual(TileGrid(width: 320, height: 180, tileWidth: 128, tileHeight: 32),
                          TileGrid(width: 320, height: 180, tileWidth: 64, tileHeight: 64))
    }
}
