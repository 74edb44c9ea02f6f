// FrameBuffers: the one pool frames are drawn into. A frame's buffer is drawn into again only once
// nobody but the pool holds it (the caller, an export's queue, the history's previous frame), a
// buffer carries the pool it belongs to and the number of the frame it holds, lending breaks no
// rule, and the frames are the bytes a fresh buffer gives, in any order and at any worker count.
import XCTest
import StrataCore
import Synchronization
@testable import StrataRender

final class FrameBuffersTests: XCTestCase {
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

    /// Each frame drawn by a renderer of its own into a fresh buffer (RGBA8 and YUV).
    private func expected(_ count: Int) -> [(Bitmap, YUVFrame?)] {
        let scene = Scene()
        return (0..<count).map { FrameRenderer(width: 96, height: 64, options: RenderOptions(workers: 1)).renderWithYUV(scene.snapshot($0)) }
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
            XCTAssertEqual(frame.pixels, want[t].0.pixels, "frame \(t)")
            addresses.insert(address(frame.pixels))
            last = frame
        }
        XCTAssertNotNil(last)
        // Two buffers take turns: the one the caller holds and the one it dropped.
        XCTAssertEqual(addresses.count, 2, "buffers used for 8 frames")
        XCTAssertEqual(renderer.buffers.count, 2)
        XCTAssertEqual(renderer.buffers.served.load(ordering: .relaxed), 6)
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
            XCTAssertTrue(frame.pixels == want[taken].0.pixels, "frame \(taken)")
            taken += 1
            last = frame  // held while the next frames are submitted, as an encoding loop does
        }
        for t in 0..<10 {
            if let (frame, _) = pipeline.submit(scene.snapshot(t)) { took(frame) }
        }
        if let (frame, _) = pipeline.finish() { took(frame) }
        XCTAssertNotNil(last)
        XCTAssertEqual(taken, 10)
        XCTAssertGreaterThanOrEqual(renderer.buffers.served.load(ordering: .relaxed), 7, "frames drawn into a kept buffer")
        XCTAssertLessThanOrEqual(addresses.count, 3, "buffers used for 10 frames")
    }

    func testFramesTheCallerKeepsAreNeverDrawnInto() {
        let scene = Scene(), want = expected(6)
        let renderer = FrameRenderer(width: 96, height: 64, options: RenderOptions(workers: 1))
        var kept: [Bitmap] = []
        for t in 0..<6 { kept.append(renderer.render(scene.snapshot(t))) }
        for (t, frame) in kept.enumerated() { XCTAssertEqual(frame.pixels, want[t].0.pixels, "kept frame \(t)") }
        XCTAssertEqual(Set(kept.map { address($0.pixels) }).count, 6, "every kept frame has a buffer of its own")
        XCTAssertEqual(renderer.buffers.served.load(ordering: .relaxed), 0)
    }

    /// A buffer goes back to its pool only once nobody else holds it, and says which frame it holds;
    /// every frame gets a number of its own; lending a buffer twice, or to a pool it does not
    /// belong to, is named (and stops a debug build: `lend` asserts it).
    func testOwnershipAndGenerations() {
        // (Asked outside XCTAssert's autoclosures, which may hold a copy of what they capture.)
        var a = [UInt8](repeating: 1, count: 4096)
        let alone = a.isOnlyReferenceToStorage()
        XCTAssertTrue(alone)
        let b = a
        let shared = a.isOnlyReferenceToStorage()
        XCTAssertFalse(shared)
        XCTAssertEqual(b.count, 4096)

        let pool = FrameBuffers(), other = FrameBuffers()
        let first = pool.take(count: 4096)
        XCTAssertNil(first.holds, "a fresh buffer holds no frame")
        XCTAssertNil(pool.problem(lending: first))
        var held: [UInt8]? = [UInt8](repeating: 2, count: 4096)
        pool.lend(held!, of: first, planes: nil)
        XCTAssertEqual(pool.problem(lending: first), "frame 1's buffer is lent twice")
        XCTAssertEqual(other.problem(lending: first), "frame 1's buffer belongs to another pool")
        XCTAssertEqual(pool.problem(lending: FrameBuffer(count: 4096)), "frame 0's buffer belongs to another pool")
        // Held by its caller: not drawn into; the next frame gets a fresh buffer and a number of its own.
        var second: FrameBuffer? = pool.take(count: 4096)
        XCTAssertEqual(first.generation, 1)
        XCTAssertEqual(second?.generation, 2)
        XCTAssertNil(second?.holds)
        pool.lend(second!.pixels, of: second!, planes: nil)
        // Let go: drawn into again, holding frame 1's pixels.
        held = nil
        let third = pool.take(count: 4096)
        XCTAssertEqual(third.generation, 3)
        XCTAssertEqual(third.holds, 1)
        XCTAssertEqual(third.pixels.first, 2)
        XCTAssertEqual(pool.served.load(ordering: .relaxed), 1)
        // A size no lent buffer has: fresh, and the free buffer of the old size is dropped.
        second = nil
        let larger = pool.take(count: 8192)
        XCTAssertNil(larger.holds)
        XCTAssertEqual(larger.pixels.count, 8192)
        XCTAssertEqual(pool.count, 0)
    }

    /// A scene renders each frame with a renderer of its own over one history: they share the
    /// history's pool, so its dropped frames are drawn into again.
    func testRenderersOfOneHistoryShareItsBuffers() {
        let scene = Scene(), want = expected(6), history = FrameHistory()
        for t in 0..<6 {
            let renderer = FrameRenderer(width: 96, height: 64, options: RenderOptions(workers: 2).verifyingTiles, history: history)
            XCTAssertTrue(renderer.buffers === history.buffers)
            XCTAssertEqual(renderer.render(scene.snapshot(t)).pixels, want[t].0.pixels, "frame \(t)")
        }
        XCTAssertEqual(history.buffers.served.load(ordering: .relaxed), 4, "frames 2–5 drawn into a buffer two frames old")
        history.clear()
        XCTAssertEqual(history.buffers.count, 0)
    }

    /// Frames of one history rendered out of order, at two workers, while an encoder-like queue
    /// holds the last few (RGBA8 let go at once, YUV held three frames, as an export does): the
    /// bytes of each are those of a fresh render, and the buffers were recycled.
    func testOutOfOrderFramesGiveTheSameBytes() {
        let scene = Scene(), want = expected(10)
        for (workers, tile) in [(2, 16), (2, 128), (1, 24)] {
            let history = FrameHistory()
            let renderer = FrameRenderer(width: 96, height: 64, options: RenderOptions(workers: workers, tileSize: tile).verifyingTiles,
                                         history: history)
            var queue: [YUVFrame] = []
            for t in [3, 0, 7, 7, 2, 5, 1, 6, 6, 4, 9, 8, 0, 3] {
                let (frame, yuv) = renderer.renderWithYUV(scene.snapshot(t))
                XCTAssertEqual(frame.pixels, want[t].0.pixels, "frame \(t), \(workers) workers, tiles of \(tile)")
                XCTAssertEqual(yuv, want[t].1, "frame \(t) as YUV, \(workers) workers, tiles of \(tile)")
                queue.append(yuv!)
                if queue.count > 3 { queue.removeFirst() }
            }
            XCTAssertGreaterThan(history.buffers.served.load(ordering: .relaxed), 10)
            XCTAssertGreaterThan(history.tileStatistics.reused, 0)
        }
    }

    /// An export that sends only the YUV planes on lets each RGBA8 frame go as soon as it is
    /// drawn: the next frame is then drawn over it in place, so one RGBA8 buffer serves the whole
    /// sequence (its unchanged tiles left as they are), and every frame, RGBA8 and YUV, is the
    /// bytes of a fresh render, at one and two workers and any tile size. A frame its caller
    /// still holds is never drawn over.
    func testFramesNobodyHoldsAreDrawnOverInPlace() {
        let scene = Scene(), want = expected(10)
        for (workers, tile) in [(1, 16), (2, 16), (2, 24)] {
            let history = FrameHistory()
            let renderer = FrameRenderer(width: 96, height: 64, options: RenderOptions(workers: workers, tileSize: tile), history: history)
            var addresses: Set<UInt> = []
            var queue: [YUVFrame] = []
            for t in 0..<10 {
                let (frame, yuv) = renderer.renderWithYUV(scene.snapshot(t))
                XCTAssertTrue(frame.pixels == want[t].0.pixels, "frame \(t), \(workers) workers, tiles of \(tile)")
                XCTAssertTrue(yuv == want[t].1, "frame \(t) as YUV, \(workers) workers, tiles of \(tile)")
                addresses.insert(address(frame.pixels))
                queue.append(yuv!)
                if queue.count > 3 { queue.removeFirst() }
            }
            XCTAssertEqual(addresses.count, 1, "RGBA8 buffers used for 10 frames, \(workers) workers, tiles of \(tile)")
            XCTAssertEqual(history.buffers.served.load(ordering: .relaxed), 9, "frames 1–9 drawn over the frame before")
            XCTAssertGreaterThan(history.tileStatistics.reused, 0, "tiles left as they were")
            XCTAssertEqual(history.buffers.count, 1, "the pool follows the last frame only")

            // Held by the caller: the next frame gets another buffer, and the held one keeps its bytes.
            let held = renderer.render(scene.snapshot(3))
            let next = renderer.render(scene.snapshot(4))
            XCTAssertNotEqual(address(held.pixels), address(next.pixels))
            XCTAssertTrue(held.pixels == want[3].0.pixels, "the held frame")
            XCTAssertTrue(next.pixels == want[4].0.pixels, "the frame after it")
        }
    }
}
