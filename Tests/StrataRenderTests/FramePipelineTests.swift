// FramePipeline: frame N's tiles drawn while frame N + 1 is posed and its display list built.
// The frames must be byte-identical to drawing each frame before posing the next, whatever the
// worker count and tile size, and come back in order; posing the model while a frame is in flight
// must not reach that frame.
import XCTest
import StrataCore
@testable import StrataRender

final class FramePipelineTests: XCTestCase {
    /// A small motion scene: a gradient card turning, a stroked curve and a text line that change
    /// every frame, a still image-like backdrop (so some tiles are copied from the frame before).
    private final class Motion {
        let root = canvas(320, 200, color(0.95, 0.95, 0.9))
        let card = CAGradientLayer()
        let curve = CAShapeLayer()
        let label = CATextLayer()

        init() {
            let backdrop = CALayer()
            backdrop.frame = CGRect(x: 0, y: 150, width: 320, height: 50)
            backdrop.backgroundColor = color(0.2, 0.3, 0.5)
            root.addSublayer(backdrop)
            card.frame = CGRect(x: 40, y: 30, width: 120, height: 80)
            card.colors = [color(1, 0.5, 0.1, 0.85), color(0.3, 0.1, 0.9, 0.85)]
            card.cornerRadius = 12
            card.borderWidth = 2
            card.borderColor = color(0.1, 0.1, 0.1)
            root.addSublayer(card)
            curve.fillColor = nil
            curve.strokeColor = color(0.9, 0.1, 0.3, 0.8)
            curve.lineWidth = 4
            curve.lineCap = .round
            root.addSublayer(curve)
            label.frame = CGRect(x: 10, y: 160, width: 300, height: 30)
            label.fontSize = 20
            label.foregroundColor = color(1, 1, 1)
            root.addSublayer(label)
        }

        func pose(_ t: Int) {
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            card.transform = CATransform3DMakeRotation(0.15 * Double(t), 0, 0, 1)
            let p = CGMutablePath()
            p.move(to: CGPoint(x: 10, y: 100 + 10 * Double(t % 5)))
            p.addCurve(to: CGPoint(x: 310, y: 60), control1: CGPoint(x: 100 + 7 * Double(t), y: -20),
                       control2: CGPoint(x: 220, y: 220 - 9 * Double(t)))
            curve.path = p
            label.string = "frame \(t) — \(String(repeating: "▪", count: t % 4))"
            CATransaction.commit()
        }

        func snapshot() -> LayerSnapshot { PresentationBuilder(time: 0).snapshotTree(of: root) }
    }

    private func serialFrames(_ count: Int) -> [[UInt8]] {
        let scene = Motion()
        let renderer = FrameRenderer(width: 320, height: 200, options: RenderOptions(workers: 1).verifyingTiles,
                                     history: FrameHistory())
        return (0..<count).map { t in scene.pose(t); return renderer.render(scene.snapshot()).pixels }
    }

    private func pipelinedFrames(_ count: Int, workers: Int, tileSize: Int, yuv: Bool = false) -> [(Bitmap, YUVFrame?)] {
        let scene = Motion()
        let options = RenderOptions(workers: workers, tileSize: tileSize).verifyingTiles
        // Overlapped whenever there is a second worker (the default waits for a third).
        let pipeline = FramePipeline(FrameRenderer(width: 320, height: 200, options: options, history: FrameHistory()),
                                     overlapping: workers > 1)
        var frames: [(Bitmap, YUVFrame?)] = []
        for t in 0..<count {
            scene.pose(t)
            let drawn = pipeline.submit(scene.snapshot(), yuv: yuv)
            XCTAssertEqual(drawn == nil, t == 0, "submit returns the frame before, nil only for the first")
            if let drawn { frames.append(drawn) }
            // Posing again at once (the model changes while the frame is in flight) must not
            // reach the frame just submitted.
            scene.pose(count + 7)
        }
        if let last = pipeline.finish() { frames.append(last) }
        XCTAssertNil(pipeline.finish(), "nothing is left once the last frame came back")
        return frames
    }

    /// Every frame equals the one drawn without overlap, for 1, 2 and 3 workers and two tile sizes.
    func testPipelinedFramesAreTheSerialFrames() {
        let expected = serialFrames(8)
        XCTAssertNotEqual(expected[0], expected[1], "the frames differ from one another")
        for (workers, tile) in [(1, 128), (2, 128), (2, 32), (3, 64)] {
            let frames = pipelinedFrames(8, workers: workers, tileSize: tile)
            XCTAssertEqual(frames.count, 8)
            for (t, frame) in frames.enumerated() {
                XCTAssertEqual(frame.0.pixels, expected[t], "frame \(t), \(workers) workers, tiles of \(tile)")
            }
        }
    }

    /// With `yuv`, the frames' YUV planes are those of the same frames converted one by one.
    func testPipelinedYUVMatchesTheFramesDrawnAlone() {
        let frames = pipelinedFrames(4, workers: 2, tileSize: 64, yuv: true)
        let scene = Motion()
        let renderer = FrameRenderer(width: 320, height: 200, options: RenderOptions(workers: 1), history: FrameHistory())
        for (t, frame) in frames.enumerated() {
            scene.pose(t)
            let (rgba, yuv) = renderer.renderWithYUV(scene.snapshot())
            XCTAssertEqual(frame.0.pixels, rgba.pixels, "frame \(t)")
            guard let a = frame.1, let b = yuv else { return XCTFail("no YUV planes for frame \(t)") }
            XCTAssertEqual(a.y, b.y, "frame \(t) Y"); XCTAssertEqual(a.u, b.u, "frame \(t) U"); XCTAssertEqual(a.v, b.v, "frame \(t) V")
        }
    }

    /// Unless told, frames overlap from three workers on (the export's measured choice).
    func testFramesOverlapByDefaultFromThreeWorkers() {
        for (workers, overlaps) in [(1, false), (2, false), (3, true), (8, true)] {
            let renderer = FrameRenderer(width: 64, height: 64, options: RenderOptions(workers: workers), history: FrameHistory())
            XCTAssertEqual(FramePipeline(renderer).overlaps, overlaps, "\(workers) workers")
            XCTAssertEqual(FramePipeline.overlapsByDefault(workers: workers), overlaps)
        }
    }

    /// A pipeline let go with a frame in flight waits for it and stops its thread; the renderer
    /// it drew with goes on drawing the same frames.
    func testAPipelineLetGoMidSequence() {
        let expected = serialFrames(3)
        let scene = Motion()
        let renderer = FrameRenderer(width: 320, height: 200, options: RenderOptions(workers: 2, tileSize: 64).verifyingTiles,
                                     history: FrameHistory())
        weak var gone: FramePipeline?
        do {
            let pipeline = FramePipeline(renderer, overlapping: true)
            gone = pipeline
            scene.pose(0)
            XCTAssertNil(pipeline.submit(scene.snapshot()))
            scene.pose(1)
            XCTAssertEqual(pipeline.submit(scene.snapshot())?.0.pixels, expected[0])
        }
        XCTAssertNil(gone, "the pipeline is freed with frame 1 in flight")
        scene.pose(2)
        XCTAssertEqual(renderer.render(scene.snapshot()).pixels, expected[2])
    }
}
