// A scene keeps at most `limits.historyChanges` recorded model changes. Past the limit the oldest
// blocks' changes are released: frames inside the kept window still come out in any order with
// the bytes of the first render, a frame before it fails with an error naming the limit, an
// export (forward only) is unaffected, and errors of released blocks are still reported.
// (ModelHistoryLimitTests counts the changes and the freed values exactly.)
import XCTest
import Synchronization
import Strata
import StrataTestSupport

final class HistoryLimitTests: XCTestCase {
    static let fps = 10.0

    /// Four squares moved by a block every frame (at least 4 changes a block: their positions)
    /// over `frames` frames.
    private func makeScene(frames: Int, limit: Int) -> Scene {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 64, height: 32)
        root.backgroundColor = .white
        var squares: [CALayer] = []
        for i in 0..<4 {
            let square = CALayer()
            square.bounds = CGRect(x: 0, y: 0, width: 6, height: 6)
            square.backgroundColor = CGColor(red: CGFloat(i) / 4, green: 0.3, blue: 0.8, alpha: 1)
            root.addSublayer(square)
            squares.append(square)
        }
        let scene = Scene(rootLayer: root, size: root.bounds.size, frameRate: Self.fps, duration: Double(frames) / Self.fps)
        scene.limits.historyChanges = limit
        for f in 0..<frames {
            scene.at(Double(f) / Self.fps) {
                CATransaction.setDisableActions(true)
                for (i, square) in squares.enumerated() {
                    square.position = CGPoint(x: 4 + Double((f * (i + 2)) % 56), y: 4 + Double(i * 7))
                }
            }
        }
        return scene
    }

    func testFramesInsideTheKeptWindowComeOutInAnyOrder() throws {
        let frames = 40
        // Every frame once in order, from a scene that keeps all its history.
        let full = makeScene(frames: frames, limit: .max)
        let reference = try (0..<frames).map { try full.renderFrame(index: $0) }
        for f in [39, 0, 17, 3] { XCTAssertEqual(try full.renderFrame(index: f), reference[f], "unlimited: frame \(f) again") }
        // A scene that keeps 40 changes (each block makes at least its 4 position changes).
        let limited = makeScene(frames: frames, limit: 40)
        for f in 0..<frames { XCTAssertEqual(try limited.renderFrame(index: f), reference[f], "frame \(f) in order") }
        // The window it can still show: the frames from the first that renders, going down.
        var first = frames - 1
        while first > 0, (try? limited.renderFrame(index: first - 1)) != nil { first -= 1 }
        XCTAssertGreaterThan(first, 0, "nothing was released")
        XCTAssertLessThanOrEqual(frames - first, 11, "more than the limit's 10 blocks kept")
        // Inside it, out of order, the bytes of the first render.
        let window = Array(first..<frames)
        let order = window.reversed() + window.filter { $0 % 2 == 0 } + window.filter { $0 % 2 == 1 }.reversed() + [first, frames - 1, first]
        for f in order {
            XCTAssertEqual(try limited.renderFrame(index: f), reference[f], "frame \(f) again, out of order")
        }
        // Before it: an error naming the limit, and the scene renders on afterwards.
        for f in [0, first / 2, first - 1] {
            XCTAssertThrowsError(try limited.renderFrame(index: f)) { error in
                let message = "\(error)"
                XCTAssertTrue(message.contains("--limit history=N") && message.contains("at most 40 recorded changes"), message)
            }
        }
        XCTAssertEqual(try limited.renderFrame(index: frames - 2), reference[frames - 2])
    }

    func testAnExportOfALongSceneKeepsTheLimit() throws {
        // An export runs forward only: with a limit far below the scene's changes, every frame
        // comes out as from the unlimited scene.
        let frames = 30
        let full = makeScene(frames: frames, limit: .max)
        let reference = try (0..<frames).map { try full.renderFrame(index: $0) }
        let limited = makeScene(frames: frames, limit: 8)
        let seen = Mutex<[Int: Bitmap]>([:])
        var options = ExportOptions()
        options.frameObserver = { index, frame in seen.withLock { $0[index] = frame } }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("strata-history-\(getpid()).mp4")
        defer { try? FileManager.default.removeItem(at: url) }
        try limited.export(to: url, options: options)
        let exported = seen.withLock { $0 }
        XCTAssertEqual(exported.count, reference.count)
        for (f, expected) in reference.enumerated() { XCTAssertEqual(exported[f], expected, "exported frame \(f)") }
    }

    func testErrorsOfReleasedBlocksAreStillReported() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 16, height: 16)
        let layer = CALayer()
        root.addSublayer(layer)
        let scene = Scene(rootLayer: root, size: root.bounds.size, frameRate: Self.fps, duration: 2)
        scene.limits.historyChanges = 3
        scene.at(0) {
            // An animation of an unknown key path: the scene reports it at every later time.
            let bad = CABasicAnimation(keyPath: "noSuchProperty")
            bad.toValue = 1
            layer.add(bad, forKey: "bad")
        }
        for f in 1..<20 { scene.at(Double(f) / Self.fps) { layer.position = CGPoint(x: f, y: 0) } }
        XCTAssertThrowsError(try scene.renderFrame(index: 19)) { error in
            guard case SceneError.invalidAnimation = error else { return XCTFail("\(error)") }
        }
    }
}
