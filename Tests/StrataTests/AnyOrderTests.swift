// A frame is a function of (scene, time), also after scheduled changes (DESIGN.md §1.2): frames,
// presentations and exports asked for in any order, any number of times, give the bytes a freshly
// built scene gives for the same call, and every scheduled block — user blocks, completion blocks,
// delegate callbacks — runs exactly once.
//
// The scene below makes every kind of change a block can make: implicit animations, a transaction
// with a completion block that changes more, sublayers added, removed and reordered, explicit
// animations with a delegate, custom drawing from a KVC key (animated) and from a stored Swift
// property (redrawn at commit), a mask set, a shape path and a text string changed, a transition,
// a layer paused and resumed, and a player played, paused and sought.
import XCTest
import Strata
import StrataTestSupport

/// Counts every run of the scene's blocks by name.
private final class RunLog: CAAnimationDelegate {
    var runs: [String: Int] = [:]
    func note(_ name: String) { runs[name, default: 0] += 1 }
    var total: Int { runs.values.reduce(0, +) }
    func animationDidStart(_ anim: CAAnimation) { note("didStart") }
    func animationDidStop(_ anim: CAAnimation, finished flag: Bool) { note("didStop \(flag)") }
}

/// Draws a bar as long as its KVC key `level` (0…1) says; `level` animates implicitly.
private final class Gauge: CALayer {
    override class func needsDisplay(forKey key: String) -> Bool { key == "level" || super.needsDisplay(forKey: key) }
    override func draw(in ctx: CGContext) {
        let level = (value(forKey: "level") as? CGFloat) ?? 0
        ctx.setFillColor(CGColor(red: 0, green: 0.55, blue: 0.25, alpha: 1))
        ctx.fill(CGRect(x: 0, y: 0, width: bounds.width * level, height: bounds.height))
    }
}

/// Draws `count` ticks; `count` is a plain stored property (its drawing is recorded at commit).
private final class Tally: CALayer {
    var count = 1
    override func draw(in ctx: CGContext) {
        ctx.setFillColor(CGColor(red: 0.2, green: 0.2, blue: 0.7, alpha: 1))
        for i in 0..<count { ctx.fill(CGRect(x: CGFloat(i) * 6, y: 0, width: 4, height: bounds.height)) }
    }
}

final class AnyOrderTests: XCTestCase {
    static let size = CGSize(width: 96, height: 64)

    /// A short clip (frame n has red = 8·n) made once for the whole class.
    static let clip: URL? = {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-anyorder-\(getpid())")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent("clip.mp4")
        let video = "color=black:s=32x24:r=10:d=3,format=rgb24,geq=r='8*N':g=90:b=40"
        let r = try? runProcess("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", video,
                                           "-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "5", url.path])
        return r?.status == 0 ? url : nil
    }()

    /// The scene; `log` counts its blocks' runs. `withVideo` adds the player layer.
    private func makeScene(_ log: RunLog, withVideo: Bool = true) throws -> (Scene, CALayer) {
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: Self.size)
        root.backgroundColor = .white
        let box = CALayer()
        box.frame = CGRect(x: 4, y: 4, width: 16, height: 16)
        box.backgroundColor = CGColor(red: 0.9, green: 0.1, blue: 0.1, alpha: 1)
        root.addSublayer(box)
        let gauge = Gauge()
        gauge.frame = CGRect(x: 4, y: 48, width: 60, height: 6)
        gauge.setValue(0.2, forKey: "level")
        gauge.setNeedsDisplay()
        root.addSublayer(gauge)
        let tally = Tally()
        tally.frame = CGRect(x: 4, y: 56, width: 60, height: 6)
        tally.setNeedsDisplay()
        root.addSublayer(tally)
        let shape = CAShapeLayer()
        shape.frame = CGRect(x: 60, y: 4, width: 32, height: 32)
        shape.path = CGPath(rect: CGRect(x: 0, y: 0, width: 20, height: 20), transform: nil)
        shape.fillColor = CGColor(red: 0.9, green: 0.6, blue: 0, alpha: 1)
        root.addSublayer(shape)
        let text = CATextLayer()
        text.frame = CGRect(x: 24, y: 30, width: 40, height: 14)
        text.string = "ab"
        text.fontSize = 11
        text.foregroundColor = .black
        root.addSublayer(text)
        let dot = CALayer()
        dot.frame = CGRect(x: 0, y: 24, width: 8, height: 8)
        dot.cornerRadius = 4
        dot.backgroundColor = CGColor(red: 0.1, green: 0.6, blue: 0.1, alpha: 1)
        var player: AVPlayer?
        if withVideo {
            let url = try XCTUnwrap(Self.clip, "ffmpeg could not make the test clip")
            let p = AVPlayer(url: url)
            let video = AVPlayerLayer(player: p)
            video.frame = CGRect(x: 64, y: 40, width: 32, height: 24)
            root.addSublayer(video)
            player = p
        }
        let scene = Scene(rootLayer: root, size: Self.size, frameRate: 10, duration: 4)

        scene.at(0.5) {
            log.note("move")
            CATransaction.begin()
            CATransaction.setCompletionBlock {
                log.note("completion")
                box.backgroundColor = CGColor(red: 0.1, green: 0.1, blue: 0.9, alpha: 1)   // animates from here
            }
            box.position = CGPoint(x: 40, y: 14)
            CATransaction.commit()
        }
        scene.at(0.8) { log.note("play"); player?.play() }
        scene.at(1.0) {
            log.note("add dot")
            root.addSublayer(dot)
            let slide = CABasicAnimation(keyPath: "position.x")
            slide.fromValue = 4
            slide.toValue = 90
            slide.duration = 1.5
            slide.delegate = log
            dot.add(slide, forKey: "slide")
        }
        scene.at(1.2) { log.note("level"); gauge.setValue(0.9, forKey: "level") }
        scene.at(1.3) {
            log.note("mask")
            let m = CAShapeLayer()
            m.path = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 60, height: 6), transform: nil)
            gauge.mask = m
        }
        scene.at(1.7) { log.note("tally"); tally.count = 5; tally.setNeedsDisplay() }
        scene.at(2.0) {
            log.note("shape")
            shape.path = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 30, height: 30), transform: nil)
            text.string = "xyz"
            let draw = CABasicAnimation(keyPath: "strokeEnd")
            draw.fromValue = 0
            draw.toValue = 1
            draw.duration = 1
            shape.strokeColor = .black
            shape.add(draw, forKey: "draw")
        }
        scene.at(2.2) {
            log.note("transition")
            let push = CATransition()
            push.type = .push
            push.subtype = .fromRight
            push.duration = 0.6
            tally.add(push, forKey: nil)
            tally.backgroundColor = CGColor(red: 1, green: 0.9, blue: 0.3, alpha: 1)
        }
        scene.at(2.5) {
            log.note("reorder")
            box.removeFromSuperlayer()
            root.sublayers = (root.sublayers ?? []).reversed()
        }
        scene.at(2.6) { log.note("pause video"); player?.pause() }
        scene.at(2.0) {
            log.note("pause dot")
            let paused = dot.convertTime(CACurrentMediaTime(), from: nil)
            dot.speed = 0
            dot.timeOffset = paused
        }
        scene.at(3.2) { log.note("seek"); player?.seek(to: CMTime(seconds: 0.5, preferredTimescale: 600)) }
        scene.at(2.4) {
            log.note("resume dot")
            let paused = dot.timeOffset
            dot.speed = 1
            dot.timeOffset = 0
            dot.beginTime = 0
            dot.beginTime = dot.convertTime(CACurrentMediaTime(), from: nil) - paused
        }
        return (scene, dot)
    }

    /// The blocks the scene runs over its whole length, each once.
    private let expectedRuns: [String: Int] = [
        "move": 1, "completion": 1, "play": 1, "add dot": 1, "level": 1, "mask": 1, "tally": 1, "shape": 1,
        "transition": 1, "reorder": 1, "pause video": 1, "pause dot": 1, "seek": 1, "resume dot": 1,
        "didStart": 1, "didStop true": 1,
    ]

    /// Frame `k` as a freshly built scene renders it.
    private func freshFrame(_ k: Int) throws -> Bitmap {
        let (scene, _) = try makeScene(RunLog())
        return try scene.renderFrame(index: k)
    }

    func testFramesInShuffledOrdersEqualFreshScenesAndBlocksRunOnce() throws {
        let count = 40
        let fresh = try (0..<count).map { try freshFrame($0) }
        // The scene does change over time (a test of nothing would pass too).
        XCTAssertTrue(fresh[0].pixels != fresh[12].pixels)
        XCTAssertTrue(fresh[26].pixels != fresh[36].pixels)
        for seed in [1, 2, 3] as [UInt64] {
            var rng = SplitMix(seed: seed)
            var order = Array(0..<count).shuffled(using: &rng)
            order += (0..<10).map { _ in Int.random(in: 0..<count, using: &rng) }  // some frames twice
            let log = RunLog()
            let (scene, _) = try makeScene(log)
            for k in order {
                let frame = try scene.renderFrame(index: k)
                XCTAssertTrue(frame.pixels == fresh[k].pixels, "seed \(seed): frame \(k) differs from a fresh scene's")
            }
            XCTAssertEqual(log.runs, expectedRuns, "seed \(seed): every block runs exactly once")
        }
    }

    func testPresentationAndSnapshotsAtEarlierTimes() throws {
        let log = RunLog()
        let (scene, dot) = try makeScene(log, withVideo: false)
        _ = try scene.renderFrame(at: 3.9)
        let runsAfterEnd = log.total
        for t in [3.5, 0.6, 2.1, 1.1, 0.0, 2.9, 1.1] {
            let (freshScene, freshDot) = try makeScene(RunLog(), withVideo: false)
            let expected = try freshScene.presentation(of: freshDot, at: t)
            let got = try scene.presentation(of: dot, at: t)
            XCTAssertEqual(got == nil, expected == nil, "t = \(t): the dot is in the tree exactly when it is in a fresh scene")
            XCTAssertEqual(got?.position, expected?.position, "t = \(t)")
            XCTAssertEqual(got?.speed, expected?.speed, "t = \(t)")
            XCTAssertEqual(try scene.snapshot(at: t), try freshScene.snapshot(at: t), "t = \(t)")
            // The model is moved too: it shows the state of time t.
            XCTAssertEqual(dot.superlayer == nil, freshDot.superlayer == nil, "t = \(t)")
            XCTAssertEqual(dot.animationKeys(), freshDot.animationKeys(), "t = \(t)")
        }
        XCTAssertEqual(log.total, runsAfterEnd, "going back runs no block again")
        // Exact values at chosen times: before 1.0 the dot is not in the tree; at 1.75 it is half
        // way (4 + 86 · 0.5); paused at 2.0 (2/3 of the way) it stays there until 2.4, then runs on.
        XCTAssertNil(try scene.presentation(of: dot, at: 0.9))
        XCTAssertEqual(try XCTUnwrap(scene.presentation(of: dot, at: 1.75)).position.x, 47, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(scene.presentation(of: dot, at: 2.3)).position.x, 4 + 86 * 2 / 3, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(scene.presentation(of: dot, at: 2.55)).position.x, 4 + 86 * 1.15 / 1.5, accuracy: 1e-9)  // local time 2.15
        XCTAssertEqual(try XCTUnwrap(scene.presentation(of: dot, at: 3.5)).position.x, 4, accuracy: 1e-9)  // ended
    }

    func testExportsAfterStillsEqualAFreshExport() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let freshURL = dir.appendingPathComponent("fresh.mp4")
        try makeScene(RunLog()).0.export(to: freshURL)
        // Stills at late and early times, a GIF, then the MP4 again, then PNG frames.
        let log = RunLog()
        let (scene, _) = try makeScene(log)
        _ = try scene.renderFrame(at: 3.1)
        _ = try scene.renderFrame(at: 0.7)
        try scene.export(to: dir.appendingPathComponent("first.gif"))
        let againURL = dir.appendingPathComponent("again.mp4")
        try scene.export(to: againURL)
        XCTAssertEqual(try decodedFrameHashes(againURL), try decodedFrameHashes(freshURL))
        XCTAssertEqual(try decodedFrameHashes(againURL).count, 40)
        let freshGIF = dir.appendingPathComponent("fresh.gif")
        try makeScene(RunLog()).0.export(to: freshGIF)
        XCTAssertTrue(try Data(contentsOf: dir.appendingPathComponent("first.gif")) == Data(contentsOf: freshGIF),
                      "the GIF after stills has the bytes of a fresh scene's GIF")
        XCTAssertEqual(log.runs, expectedRuns)
    }

    /// One MD5 per decoded frame (ffmpeg's framemd5 muxer).
    private func decodedFrameHashes(_ url: URL) throws -> [String] {
        let r = try runProcess("ffmpeg", ["-v", "error", "-i", url.path, "-f", "framemd5", "-"])
        XCTAssertEqual(r.status, 0, r.stderr)
        return r.text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { String($0.split(separator: ",").last ?? "") }
    }
}
