// Resource limits: each one refused with its message (what, the limit, how to raise it), through
// the library and the command line, and raised with `--limit NAME=N`.
import Foundation
import Strata
import StrataMedia
import XCTest

final class LimitsTests: XCTestCase {
    private func scene(layers: Int = 1, text: String? = nil, duration: Double = 1) -> Scene {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 32, height: 32)
        for _ in 1..<max(1, layers) { root.addSublayer(CALayer()) }
        if let text {
            let t = CATextLayer()
            t.string = text
            t.frame = root.bounds
            root.addSublayer(t)
        }
        return Scene(rootLayer: root, size: CGSize(width: 32, height: 32), frameRate: 10, duration: duration)
    }

    private func message(_ body: () throws -> Void) -> String {
        do { try body(); return "" } catch { return "\(error)" }
    }

    func testEachLimitIsRefusedWithItsNameAndHowToRaiseIt() throws {
        var s = scene(duration: 3)  // (reassigned below)
        s.limits.frames = 20
        XCTAssertEqual(message { _ = try s.renderFrame(at: 0) },
                       "30 frames (3.0 s at 10 fps): over the limit of 20 (raise it with --limit frames=N, or Scene.limits)")
        s.limits.frames = 30
        XCTAssertNoThrow(try s.renderFrame(at: 0))

        s = scene(layers: 6)
        s.limits.layers = 5
        XCTAssertEqual(message { _ = try s.renderFrame(at: 0) },
                       "a frame of 6 layers: over the limit of 5 (raise it with --limit layers=N, or Scene.limits)")
        s.limits.layers = 6
        XCTAssertEqual(try s.renderFrame(at: 0).width, 32)

        // Nested layers, a mask and the mask's own sublayer count too: 1 + 2 + 1 + 1 + 1.
        let nested = CALayer()
        nested.frame = CGRect(x: 0, y: 0, width: 32, height: 32)
        let child = CALayer(), grandchild = CALayer(), mask = CALayer()
        child.addSublayer(grandchild)
        mask.addSublayer(CALayer())
        child.mask = mask
        nested.addSublayer(child)
        nested.addSublayer(CALayer())
        s = Scene(rootLayer: nested, size: CGSize(width: 32, height: 32), frameRate: 10, duration: 1)
        s.limits.layers = 5
        XCTAssertEqual(message { _ = try s.renderFrame(at: 0) },
                       "a frame of 6 layers: over the limit of 5 (raise it with --limit layers=N, or Scene.limits)")
        s.limits.layers = 6
        XCTAssertEqual(try s.renderFrame(at: 0).width, 32)

        s = scene(text: String(repeating: "é", count: 11))
        s.limits.textLength = 10
        XCTAssertEqual(message { _ = try s.renderFrame(at: 0) },
                       "at 0.0 s, CATextLayer: a text of more than 10 characters (Unicode scalars: an accent counts as one): over the limit of 10 (raise it with --limit text-length=N, or Scene.limits)")

        s = scene()
        s.contentsScale = 40
        s.limits.pixelSize = 1000
        XCTAssertEqual(message { _ = try s.renderFrame(at: 0) },
                       "size 1280×1280 px exceeds the maximum of 1000 px per side (raise it with --limit pixel-size=N, or Scene.limits)")
        XCTAssertEqual(s.maximumPixelSize, 1000, "maximumPixelSize is limits.pixelSize")

        s.limits.backingStoreBytes = 3 << 20
        XCTAssertEqual(s.backingStores.capacity, 3 << 20)
        XCTAssertEqual(s.backingStores.tiledLayerTiles.capacity, 3 << 19, "tiled-layer tiles: half the backing-store limit")

        // Replicator instances and live particles (per layer).
        s = scene()
        let r = CAReplicatorLayer()
        r.name = "dots"
        r.instanceCount = 8
        r.addSublayer(CALayer())
        s.rootLayer.addSublayer(r)
        s.limits.replicatorInstances = 7
        XCTAssertEqual(message { _ = try s.renderFrame(at: 0) },
                       "at 0.0 s, CAReplicatorLayer 'dots' with instanceCount 8: over the limit of 7 (raise it with --limit instances=N, or Scene.limits)")
        s.limits.replicatorInstances = 8
        XCTAssertNoThrow(try s.renderFrame(at: 0))

        s = scene()
        let e = CAEmitterLayer()
        e.name = "sparks"
        let cell = CAEmitterCell()
        cell.contents = CGImage(bitmap: Bitmap(width: 1, height: 1))
        cell.birthRate = 10
        cell.lifetime = 10
        e.emitterCells = [cell]
        s.rootLayer.addSublayer(e)
        s.limits.particles = 5
        XCTAssertNoThrow(try s.renderFrame(at: 0.4))   // births at 0, 0.1 … 0.4
        XCTAssertEqual(message { _ = try s.renderFrame(at: 0.5) },
                       "at 0.5 s, CAEmitterLayer 'sparks' with 6 live particles: over the limit of 5 (raise it with --limit particles=N, or Scene.limits)")
    }

    /// Two scenes in one process, one thread, with different instance limits: each snapshot reads
    /// its own scene's limits (carried by its PresentationBuilder) and reports only its own issue.
    func testScenesWithDifferentLimitsAreIndependent() throws {
        func replicatorScene(_ limit: Int) -> Scene {
            let root = CALayer(), r = CAReplicatorLayer(), dot = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: 32, height: 32)
            r.name = "dots"; r.instanceCount = 50; dot.frame = CGRect(x: 0, y: 0, width: 1, height: 1)
            r.addSublayer(dot); root.addSublayer(r)
            let s = Scene(rootLayer: root, size: CGSize(width: 32, height: 32), frameRate: 10, duration: 1)
            s.limits.replicatorInstances = limit
            return s
        }
        let strict = replicatorScene(20), loose = replicatorScene(100)
        for _ in 0..<2 {
            XCTAssertThrowsError(try strict.snapshot(at: 0)) { error in
                XCTAssertTrue("\(error)".contains("CAReplicatorLayer 'dots' with instanceCount 50"), "\(error)")
            }
            XCTAssertEqual(try loose.snapshot(at: 0).sublayers[0].sublayers.count, 50)
        }
    }

    func testLimitNamesAndValues() throws {
        var limits = SceneLimits()
        try limits.set("image-cache-mb", to: "64")
        XCTAssertEqual(limits.imageCacheBytes, 64 << 20)
        try limits.set("instances", to: "12")
        XCTAssertEqual(limits.replicatorInstances, 12)
        XCTAssertEqual(message { try limits.set("pixels", to: "3") },
                       "unknown limit \"pixels\" (limits: pixel-size, frames, layers, text-length, character-scalars, expansion-mb, timeline-steps, data-mb, data-value-kb, particles, instances, image-size, video-size, image-cache-mb, backing-store-mb, history)")
        XCTAssertEqual(message { try limits.set("frames", to: "0") }, "limit frames=0: expected a whole number ≥ 1")
        XCTAssertEqual(message { try limits.set("frames", to: "lots") }, "limit frames=lots: expected a whole number ≥ 1")
    }

    func testTheCommandLineRaisesAndLowersLimits() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("a.mp4").path
        var r = try runProcess(strataExecutable, ["render", "--size", "64x36", "--duration", "2", "--limit", "frames=30", "-o", out])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr, "Error: 60 frames (2.0 s at 30 fps): over the limit of 30 (raise it with --limit frames=N, or Scene.limits)\n")
        r = try runProcess(strataExecutable, ["render", "--size", "64x36", "--duration", "2", "--limit", "frames=60", "-o", out, "--quiet"])
        XCTAssertEqual(r.status, 0, r.stderr)
        r = try runProcess(strataExecutable, ["render", "--size", "20000x10", "-o", out])
        XCTAssertTrue(r.stderr.contains("exceeds the maximum of 16384 px per side (raise it with --limit pixel-size=N"), r.stderr)
        r = try runProcess(strataExecutable, ["render", "--size", "20000x10", "--duration", "0.1", "--limit", "pixel-size=20000", "--hash-frames"])
        XCTAssertEqual(r.status, 0, r.stderr)
        r = try runProcess(strataExecutable, ["render", "--limit", "frames", "-o", out])
        XCTAssertEqual(r.status, 64)
        XCTAssertTrue(r.stderr.contains("--limit 'frames' must be NAME=N"), r.stderr)

        // The image size limit reaches templates' images (the process-wide image cache).
        let folder = dir.appendingPathComponent("t")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var picture = Bitmap(width: 40, height: 20)
        for i in stride(from: 3, to: picture.pixels.count, by: 4) { picture.pixels[i] = 255 }
        try picture.writePNG(to: folder.appendingPathComponent("p.png"))
        try """
            size: [64, 36]
            duration: 1
            layers:
              - {type: image, image: p.png, size: [40, 20]}
            """.write(to: folder.appendingPathComponent("t.yaml"), atomically: true, encoding: .utf8)
        r = try runProcess(strataExecutable, ["validate", folder.path, "--limit", "image-size=32"])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("p.png") && r.stderr.contains("the image is 40×20 pixels; at most 32 per side is allowed"), r.stderr)
        r = try runProcess(strataExecutable, ["validate", folder.path, "--limit", "image-size=40"])
        XCTAssertEqual(r.status, 0, r.stderr)

        // So does the video size limit (checked when the file is opened).
        let clip = folder.appendingPathComponent("v.mp4")
        r = try runProcess("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "color=blue:size=48x32:rate=10:d=0.5",
                                      "-c:v", "mpeg4", clip.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        try """
            size: [64, 36]
            duration: 0.2
            layers:
              - {type: video, video: v.mp4, size: [48, 32]}
            """.write(to: folder.appendingPathComponent("t.yaml"), atomically: true, encoding: .utf8)
        let frame = dir.appendingPathComponent("f.png").path
        r = try runProcess(strataExecutable, ["still", folder.path, "--limit", "video-size=40", "-o", frame])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("v.mp4") && r.stderr.contains("the video is 48×32 pixels; at most 40 per side is allowed"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: frame))
        r = try runProcess(strataExecutable, ["still", folder.path, "--limit", "video-size=48", "-o", frame])
        XCTAssertEqual(r.status, 0, r.stderr)
    }
}
