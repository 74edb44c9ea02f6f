// Reusing unchanged tiles and the kept still bottoms of changed ones (FrameHistory) must give
// exactly the bytes of drawing every tile: the built-in demo (text, shapes, a gradient, group
// opacity, masks, a 3D context) rendered with reuse, at other tile sizes and worker counts,
// equals a render that draws everything.
import XCTest
import Synchronization
import StrataCore
import StrataRender
@testable import Strata

extension RenderOptions {
    /// These options with the tile-coverage check on: every tile of every frame copied or
    /// stored exactly once, fresh buffers poisoned (RenderOptions.verifiesTileCoverage).
    var verifyingTiles: RenderOptions { var o = self; o.verifiesTileCoverage = true; return o }
}

final class FrameReuseTests: XCTestCase {
    private func demo() -> Scene {
        BuiltInDemo.makeScene(size: CGSize(width: 320, height: 180), frameRate: 30, duration: 4)
    }

    func testReusedTilesGiveTheBytesOfAFullDraw() throws {
        let full = demo(), reusing = demo(), small = demo()
        let everything = RenderOptions(workers: 1, tileSize: 64, reusesUnchangedTiles: false)
        // Frames from the whole loop, including a run of consecutive ones and a jump.
        let frames = Array(0..<12) + [40, 41, 42, 90, 91, 119]
        for index in frames {
            let expected = try full.renderFrame(index: index, options: everything)
            XCTAssertEqual(try reusing.renderFrame(index: index, options: RenderOptions(workers: 2, tileSize: 64).verifyingTiles), expected,
                           "frame \(index), tiles of 64, 2 workers")
            XCTAssertEqual(try small.renderFrame(index: index, options: RenderOptions(workers: 3, tileSize: 13).verifyingTiles), expected,
                           "frame \(index), tiles of 13, 3 workers")
        }
        // The reuse really happened (at this size most of the demo's 18 tiles — 128 × 32 pixels:
        // tileSize 64, tileAspect 2 — change every frame, but not all), and a full draw copies
        // nothing.
        let stats = reusing.frameHistory.tileStatistics
        XCTAssertEqual(stats.tiles, frames.count * 18)
        XCTAssertGreaterThan(stats.reused, frames.count, "\(stats)")
        XCTAssertGreaterThan(stats.resumed, frames.count, "changed tiles start from their still bottom: \(stats)")
        XCTAssertGreaterThan(small.frameHistory.tileStatistics.reused, 0)
        XCTAssertEqual(full.frameHistory.tileStatistics.reused, 0)
        XCTAssertEqual(full.frameHistory.tileStatistics.resumed, 0)
    }

    func testAStillSceneCopiesEveryTileAfterTheFirstFrame() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 100, height: 60)
        root.backgroundColor = CGColor(red: 0.2, green: 0.3, blue: 0.4, alpha: 1)
        let scene = Scene(rootLayer: root, size: root.bounds.size, frameRate: 10, duration: 1)
        let options = RenderOptions(workers: 1, tileSize: 32).verifyingTiles
        let first = try scene.renderFrame(index: 0, options: options)
        XCTAssertEqual(first.pixel(x: 50, y: 30).b, 102)
        XCTAssertEqual(try scene.renderFrame(index: 1, options: options), first)
        XCTAssertEqual(scene.frameHistory.tileStatistics.tiles, 2 * 8)
        XCTAssertEqual(scene.frameHistory.tileStatistics.reused, 8)
        // A change in one corner redraws only the tiles its old and new pixels touch.
        scene.at(0.15) {
            CATransaction.setDisableActions(true)
            let dot = CALayer()
            dot.frame = CGRect(x: 2, y: 2, width: 10, height: 10)
            dot.backgroundColor = .white
            root.addSublayer(dot)
        }
        let changed = try scene.renderFrame(index: 2, options: options)
        XCTAssertEqual(scene.frameHistory.tileStatistics.reused, 8 + 7)
        XCTAssertEqual(changed.pixel(x: 5, y: 5).r, 255)
        XCTAssertTrue(changed.pixel(x: 50, y: 30) == first.pixel(x: 50, y: 30))
    }

    /// An export shares work between frames like `renderFrame` does, gives the same frames as a full draw,
    /// and lets the kept frame go when it ends.
    func testExportReusesTilesAndLetsTheHistoryGo() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-reuse-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let scene = demo()
        var options = ExportOptions()
        options.frameRange = 20..<26
        options.render.verifiesTileCoverage = true  // recycled buffers: their held tiles are checked too
        options.render.tileSize = 64  // 18 tiles a frame, 128 × 32 pixels
        try scene.export(to: dir.appendingPathComponent("frames"), options: options)
        let stats = scene.frameHistory.tileStatistics
        XCTAssertEqual(stats.tiles, 6 * 18)
        XCTAssertGreaterThan(stats.reused + stats.resumed, 0, "\(stats)")
        XCTAssertFalse(scene.frameHistory.keepsFrame)
        let full = demo()
        for index in 20..<26 {
            let expected = try full.renderFrame(index: index, options: RenderOptions(reusesUnchangedTiles: false))
            let written = try Bitmap(contentsOfPNG: dir.appendingPathComponent("frames").appendingPathComponent(String(format: "frame_%05d.png", index)))
            XCTAssertEqual(written, expected, "frame \(index)")
        }
    }

    /// Frames an export's observer keeps are never drawn into again: a frame's buffer goes back to
    /// its pool only once nobody holds it (FrameBuffers), on the RGBA8 path (PNG frames) and the
    /// YUV path (H.264) alike, with two workers and with three (frames pipelined).
    func testFramesAnExportObserverKeepsStayTheirs() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-owned-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let full = demo(), range = 20..<30
        let expected = try range.map { try full.renderFrame(index: $0, options: RenderOptions(reusesUnchangedTiles: false)) }
        for (name, workers) in [("frames", 2), ("two.mp4", 2), ("three.mp4", 3)] {
            var options = ExportOptions()
            options.frameRange = range
            options.render = RenderOptions(workers: workers, tileSize: 64).verifyingTiles
            let seen = Mutex<[Int: Bitmap]>([:])
            options.frameObserver = { index, frame in seen.withLock { $0[index] = frame } }
            try demo().export(to: dir.appendingPathComponent(name), options: options)
            let kept = seen.withLock { $0 }
            for (i, index) in range.enumerated() { XCTAssertEqual(kept[index], expected[i], "\(name): frame \(index)") }
        }
    }

    /// A small layer moving over a gradient: its tiles are redrawn from their kept bottom and
    /// only over the dot's old and new bounds; every frame equals a full draw.
    func testAMovingDotRedrawsOnlyWhereItWasAndIs() throws {
        func build() -> Scene {
            let root = CAGradientLayer()
            root.frame = CGRect(x: 0, y: 0, width: 128, height: 64)
            root.colors = [CGColor(red: 0.1, green: 0.2, blue: 0.5, alpha: 1), CGColor(red: 0.8, green: 0.3, blue: 0.2, alpha: 1)]
            root.startPoint = CGPoint(x: 0, y: 0); root.endPoint = CGPoint(x: 1, y: 1)
            let dot = CALayer()
            dot.bounds = CGRect(x: 0, y: 0, width: 9, height: 9)
            dot.cornerRadius = 4.5
            dot.position = CGPoint(x: 20, y: 30)
            dot.backgroundColor = CGColor(red: 1, green: 1, blue: 0.2, alpha: 0.8)
            root.addSublayer(dot)
            let move = CABasicAnimation(keyPath: "position.x")
            move.fromValue = 20; move.toValue = 100; move.duration = 1
            dot.add(move, forKey: "move")
            return Scene(rootLayer: root, size: root.bounds.size, frameRate: 10, duration: 1)
        }
        let reusing = build(), full = build()
        for index in 0..<10 {
            XCTAssertEqual(try reusing.renderFrame(index: index, options: RenderOptions(workers: 1, tileSize: 64).verifyingTiles),
                           try full.renderFrame(index: index, options: RenderOptions(workers: 1, reusesUnchangedTiles: false)),
                           "frame \(index)")
        }
        XCTAssertGreaterThan(reusing.frameHistory.tileStatistics.resumed, 5)
    }
}
