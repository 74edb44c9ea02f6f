// FrameBufferPool: a renderer without a history draws a frame into the buffer of one its caller
// has dropped, never into one the caller still holds, and the frames are the bytes a fresh
// buffer gives.
import XCTest
import StrataCore
import Synchronization
@testable import StrataRender

final class FrameBufferPoolTests: XCTestCase {
    /// A card that moves and changes colour every frame over a still backdrop.
    private final class Scene {
        let root = canvas(96, 64, color(0.9, 0.9, 0.85))
        let card = CALayer()

        init() {
            card.frame = CGRect(x: 8, y: 8, width: 40, height: 30)
            card.cornerRadius = 6
            root.addSublayer(card)
        }

        func snapshot(_ t: Int) -> LayerSnapshot {
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            card.position = CGPoint(x: 28 + 5 * Double(t), y: 23 + 3 * Double(t % 4))
            card.backgroundColor = color(0.1 * Double(t % 10), 0.4, 0.8 - 0.05 * Double(t), 0.9)
            CATransaction.commit()
            return PresentationBuilder(time: 0).snapshotTree(of: root)
        }
    }

    private func address(_ pixels: [UInt8]) -> UInt {
        pixels.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    }

    /// Each frame drawn by a renderer of its own into a fresh buffer.
    private func expected(_ count: Int) -> [[UInt8]] {
        let scene = Scene()
        return (0..<count).map { FrameRenderer(width: 96, height: 64, options: RenderOptions(workers: 1)).render(scene.snapshot($0)).pixels }
    }

    func testDroppedFramesAreDrawnIntoAgain() {
        let scene = Scene(), want = expected(8)
        let renderer = FrameRenderer(width: 96, height: 64, options: RenderOptions(workers: 2).verifyingTiles)
        var addresses: Set<UInt> = []
        var last: Bitmap?
        for t in 0..<8 {
            // The caller holds the last frame while the next one renders, as a loop that encodes
            // or compares each frame does.
            let frame = renderer.render(scene.snapshot(t))
            XCTAssertEqual(frame.pixels, want[t], "frame \(t)")
            addresses.insert(address(frame.pixels))
            last = frame
        }
        XCTAssertNotNil(last)
        // Two buffers take turns: the one the caller holds and the one it dropped.
        XCTAssertEqual(addresses.count, 2, "buffers used for 8 frames")
        XCTAssertEqual(renderer.frameBuffers?.count, 2)
    }

    /// Pipelined, the tile thread draws frame N + 1 while the caller holds frame N - 1 and frame N
    /// waits to be taken: three buffers take turns, and from the fourth frame on every frame is
    /// drawn into a kept one (the third may be, when the caller let go of the first in time).
    func testPipelinedFramesTakeTurnsInThreeBuffers() {
        let scene = Scene(), want = expected(10)
        let renderer = FrameRenderer(width: 96, height: 64, options: RenderOptions(workers: 2).verifyingTiles)
        let pipeline = FramePipeline(renderer, overlapping: true)
        XCTAssertTrue(pipeline.overlaps)
        var addresses: Set<UInt> = []
        var last: Bitmap?
        var taken = 0
        func took(_ frame: Bitmap) {
            addresses.insert(address(frame.pixels))
            XCTAssertTrue(frame.pixels == want[taken], "frame \(taken)")
            taken += 1
            last = frame  // held while the next frames are submitted, as an encoding loop does
        }
        for t in 0..<10 {
            if let (frame, _) = pipeline.submit(scene.snapshot(t)) { took(frame) }
        }
        if let (frame, _) = pipeline.finish() { took(frame) }
        XCTAssertNotNil(last)
        XCTAssertEqual(taken, 10)
        XCTAssertGreaterThanOrEqual(renderer.frameBuffers?.served.load(ordering: .relaxed) ?? 0, 7, "frames drawn into a kept buffer")
        XCTAssertLessThanOrEqual(addresses.count, 3, "buffers used for 10 frames")
    }

    func testFramesTheCallerKeepsAreNeverDrawnInto() {
        let scene = Scene(), want = expected(6)
        let renderer = FrameRenderer(width: 96, height: 64, options: RenderOptions(workers: 1))
        var kept: [Bitmap] = []
        for t in 0..<6 { kept.append(renderer.render(scene.snapshot(t))) }
        for (t, frame) in kept.enumerated() { XCTAssertEqual(frame.pixels, want[t], "kept frame \(t)") }
        XCTAssertEqual(Set(kept.map { address($0.pixels) }).count, 6, "every kept frame has a buffer of its own")
    }

    func testOnlyAnUnsharedBufferCountsAsUnique() {
        // (Asked outside XCTAssert's autoclosures, which may hold a copy of what they capture.)
        var a = [UInt8](repeating: 1, count: 4096)
        let alone = a.isOnlyReferenceToStorage()
        XCTAssertTrue(alone)
        let b = a
        let shared = a.isOnlyReferenceToStorage()
        XCTAssertFalse(shared)
        XCTAssertEqual(b.count, 4096)
        var empty: [UInt8] = []
        let none = empty.isOnlyReferenceToStorage()
        XCTAssertFalse(none)
        // A pool hands out a buffer only once nobody else holds it, and one of the size asked for.
        let pool = FrameBufferPool()
        var held: [UInt8]? = [UInt8](repeating: 2, count: 4096)
        pool.keep(held!)
        let whileHeld = pool.take(count: 4096), otherSize = pool.take(count: 8192)
        XCTAssertNil(whileHeld)
        XCTAssertNil(otherSize)
        XCTAssertEqual(pool.count, 1)
        held = nil
        let taken = pool.take(count: 4096)
        XCTAssertEqual(taken?.first, 2)
        XCTAssertEqual(pool.count, 0)
    }

    func testARendererWithAHistoryKeepsNoBuffers() {
        let scene = Scene()
        let renderer = FrameRenderer(width: 96, height: 64, options: RenderOptions(workers: 1), history: FrameHistory())
        for t in 0..<3 { _ = renderer.render(scene.snapshot(t)) }
        XCTAssertEqual(renderer.frameBuffers?.count ?? 0, 0)
    }
}
