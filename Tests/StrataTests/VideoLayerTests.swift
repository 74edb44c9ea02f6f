// Player layers end to end: a counting clip (frame n is a solid colour with red = 8·(n mod 32) and
// green 64 or 192 for the first or second 32 frames, made by the ffmpeg CLI) shown by an AVPlayerLayer, played, paused, sought, sped up, looped and queued in
// scheduled blocks. The colour at the layer's centre names the frame shown, which is checked
// against the frame the player's clock must show: the one whose presentation interval contains
// the item time. Also: random access gives the same frames as a full render, the layer keeps
// every CALayer feature, and missing files fail with an error naming them (or show a
// placeholder by option).
import XCTest
import Strata

final class VideoLayerTests: XCTestCase {
    static let fps = 30

    /// A clip of `frames` frames (named by their colour) at 30 fps, 64×48, made once per test.
    func makeClip(_ dir: URL, name: String = "count.mp4", frames: Int = 30, audio: Bool = false) throws -> URL {
        let url = dir.appendingPathComponent(name)
        let video = "color=black:s=64x48:r=\(Self.fps):d=\(Double(frames) / Double(Self.fps)),format=rgb24,geq=r='8*mod(N,32)':g='if(lt(N,32),64,192)':b=128"
        var args = ["-v", "error", "-y", "-f", "lavfi", "-i", video]
        if audio { args += ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=\(Double(frames) / Double(Self.fps))"] }
        args += ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "10"]
        if audio { args += ["-c:a", "aac", "-shortest"] }
        let r = try runProcess("ffmpeg", args + [url.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        return url
    }

    /// A scene with one player layer filling 64×48.
    func makeScene(player: AVPlayer, duration: Double = 2, fps: Double = 30,
                   configure: (AVPlayerLayer) -> Void = { _ in }) -> (Scene, AVPlayerLayer) {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 64, height: 48)
        root.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        let layer = AVPlayerLayer(player: player)
        layer.frame = root.bounds
        configure(layer)
        root.addSublayer(layer)
        return (Scene(rootLayer: root, size: CGSize(width: 64, height: 48), frameRate: fps, duration: duration), layer)
    }

    /// The frame index the centre pixel's red names (−1 for no video: the blue background).
    func shownFrame(_ bitmap: Bitmap, x: Int = 32, y: Int = 24) -> Int {
        let p = bitmap.pixel(x: x, y: y)
        if p.b > 200 && p.r < 20 && p.g < 20 { return -1 }
        return Int((Double(p.r) / 8).rounded()) + (p.g > 128 ? 32 : 0)
    }

    func testStartsPausedAtZeroThenPlaysFrameAccurately() throws {
        let dir = try temporaryFolder()
        let player = AVPlayer(url: try makeClip(dir))
        let (scene, _) = makeScene(player: player)
        scene.at(0.5) { player.play() }
        // Paused at item time 0 until 0.5 s; then item time = t − 0.5.
        for (t, expected) in [(0.0, 0), (0.4, 0), (0.5, 0), (0.5 + 1.0 / 30, 1), (0.9, 12), (1.2, 21), (1.49, 29), (1.9, 29)] {
            XCTAssertEqual(shownFrame(try scene.renderFrame(at: t)), expected, "t = \(t)")
        }
    }

    func testPauseSeekRateAndTheirRandomAccess() throws {
        let dir = try temporaryFolder()
        let url = try makeClip(dir, frames: 60)
        func build() -> Scene {
            let player = AVPlayer(url: url)
            player.play()
            let (scene, _) = makeScene(player: player, duration: 3)
            scene.at(0.5) { player.pause() }                                   // holds item time 0.5
            scene.at(1.0) { player.seek(to: CMTime(seconds: 1.5, preferredTimescale: 600)) }
            scene.at(1.2) { player.rate = 2 }                                  // 1.5 + 2·(t − 1.2)
            scene.at(1.5) { player.rate = 0.5 }                                // 2.1 + 0.5·(t − 1.5)
            return scene
        }
        let expectations: [(Int, Int)] = [
            (0, 0), (10, 10), (14, 14), (15, 15), (20, 15), (29, 15),        // paused at 0.5 s → frame 15
            (30, 45), (35, 45),                                               // seek to 1.5 s → frame 45
            (36, 45), (39, 51), (42, 57), (44, 59),                           // double speed
            (45, 59), (60, 59), (89, 59)]                                     // half speed, clamped at the end
        let sequential = build()
        var frames: [Int: Bitmap] = [:]
        for index in 0..<90 { frames[index] = try sequential.renderFrame(index: index) }
        for (index, expected) in expectations {
            XCTAssertEqual(shownFrame(frames[index]!), expected, "frame \(index)")
        }
        // Random access: frames rendered alone (a fresh scene each) equal the sequential ones.
        for index in [44, 37, 20, 31, 62] {
            let alone = try build().renderFrame(index: index)
            XCTAssertEqual(alone.pixels, frames[index]!.pixels, "frame \(index) rendered alone differs")
        }
        // A frame range exported alone shows the same frames as the full export.
        let full = dir.appendingPathComponent("full"), part = dir.appendingPathComponent("part")
        try FileManager.default.createDirectory(at: full, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: part, withIntermediateDirectories: true)
        try build().export(to: full)
        var options = ExportOptions()
        options.frameRange = 36..<46
        try build().export(to: part, options: options)
        for index in 36..<46 {
            let name = String(format: "frame_%05d.png", index)
            XCTAssertEqual(try Data(contentsOf: full.appendingPathComponent(name)), try Data(contentsOf: part.appendingPathComponent(name)),
                           "\(name) differs between the full export and the range export")
        }
    }

    func testLooperAndActionAtItemEnd() throws {
        let dir = try temporaryFolder()
        let url = try makeClip(dir, frames: 30)
        // AVPlayerLooper: the 1 s clip repeats.
        let queue = AVQueuePlayer()
        let looper = AVPlayerLooper(player: queue, templateItem: AVPlayerItem(url: url))
        queue.play()
        let (scene, _) = makeScene(player: queue, duration: 3.5)
        var loopsAt3: Int?
        scene.at(3.0) { loopsAt3 = looper.loopCount }
        XCTAssertEqual(shownFrame(try scene.renderFrame(at: 0.5)), 15)
        XCTAssertEqual(shownFrame(try scene.renderFrame(at: 1.0 + 4.0 / 30)), 4)
        XCTAssertEqual(shownFrame(try scene.renderFrame(at: 2.9)), 27)
        XCTAssertEqual(shownFrame(try scene.renderFrame(at: 3.2)), 6)
        XCTAssertEqual(loopsAt3, 3)
        // A looped time range: 0.2 s … 0.6 s (frames 6…17).
        let ranged = AVQueuePlayer()
        _ = AVPlayerLooper(player: ranged, templateItem: AVPlayerItem(url: url),
                           timeRange: CMTimeRange(start: CMTime(seconds: 0.2, preferredTimescale: 600),
                                                  end: CMTime(seconds: 0.6, preferredTimescale: 600)))
        ranged.play()
        let (rangedScene, _) = makeScene(player: ranged)
        XCTAssertEqual(shownFrame(try rangedScene.renderFrame(at: 0)), 6)
        XCTAssertEqual(shownFrame(try rangedScene.renderFrame(at: 0.39)), 17)
        XCTAssertEqual(shownFrame(try rangedScene.renderFrame(at: 0.4)), 6)
        XCTAssertEqual(shownFrame(try rangedScene.renderFrame(at: 0.5)), 9)

        // AVPlayer pauses at the end (last frame); a queue player advances, then shows nothing.
        let single = AVPlayer(url: url)
        single.play()
        let (s1, _) = makeScene(player: single)
        XCTAssertEqual(shownFrame(try s1.renderFrame(at: 1.5)), 29)
        var rateAfterEnd: Float = -1
        s1.at(1.6) { rateAfterEnd = single.rate }
        _ = try s1.renderFrame(at: 1.7)
        XCTAssertEqual(rateAfterEnd, 0)

        let second = try makeClip(dir, name: "second.mp4", frames: 20)
        let queued = AVQueuePlayer(items: [AVPlayerItem(url: url), AVPlayerItem(url: second)])
        queued.play()
        let (s2, _) = makeScene(player: queued, duration: 3)
        XCTAssertEqual(shownFrame(try s2.renderFrame(at: 0.9)), 27)
        XCTAssertEqual(shownFrame(try s2.renderFrame(at: 1.1)), 3)       // second item, frame 3
        XCTAssertEqual(shownFrame(try s2.renderFrame(at: 2.0)), -1)      // queue exhausted: nothing
        // actionAtItemEnd = .none keeps the last frame.
        let holding = AVPlayer(url: url)
        holding.actionAtItemEnd = .none
        holding.play()
        let (s3, _) = makeScene(player: holding)
        XCTAssertEqual(shownFrame(try s3.renderFrame(at: 1.8)), 29)
    }

    func testGravityAndLayerFeatures() throws {
        let dir = try temporaryFolder()
        let url = try makeClip(dir)   // 4:3
        let player = AVPlayer(url: url)
        // A wide layer: aspect-fit leaves bars on the sides, aspect-fill crops.
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 128, height: 48)
        root.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        let fit = AVPlayerLayer(player: player)
        fit.frame = CGRect(x: 0, y: 0, width: 128, height: 48)
        root.addSublayer(fit)
        let scene = Scene(rootLayer: root, size: CGSize(width: 128, height: 48), frameRate: 30, duration: 1)
        var bitmap = try scene.renderFrame(at: 0)
        XCTAssertEqual(shownFrame(bitmap, x: 10, y: 24), -1, "aspect fit: the side is background")
        XCTAssertEqual(shownFrame(bitmap, x: 64, y: 24), 0)
        XCTAssertEqual(fit.videoRect.width, 64, accuracy: 0.01)
        fit.videoGravity = .resizeAspectFill
        bitmap = try scene.renderFrame(at: 0.1)
        XCTAssertEqual(shownFrame(bitmap, x: 2, y: 24), 0, "aspect fill covers the bounds")
        XCTAssertEqual(shownFrame(bitmap, x: 64, y: 2), 0)

        // CALayer features on a player layer: corner radius with masksToBounds, a border, a 3D
        // rotation about y (narrower on screen), opacity.
        let player2 = AVPlayer(url: url)
        let (s2, layer) = makeScene(player: player2) { l in
            l.cornerRadius = 16
            l.masksToBounds = true
            l.borderWidth = 2
            l.borderColor = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
        }
        let rounded = try s2.renderFrame(at: 0)
        XCTAssertEqual(shownFrame(rounded, x: 1, y: 1), -1, "the rounded corner shows the background")
        XCTAssertGreaterThan(rounded.pixel(x: 32, y: 1).g, 200, "the border is drawn over the video")
        XCTAssertEqual(shownFrame(rounded), 0)
        s2.at(0.5) {
            CATransaction.setDisableActions(true)
            var t = CATransform3DIdentity
            t.m34 = -1.0 / 200
            layer.transform = CATransform3DRotate(t, .pi / 3, 0, 1, 0)
        }
        let turned = try s2.renderFrame(at: 0.5)
        XCTAssertEqual(shownFrame(turned, x: 4, y: 24), -1, "turned about y, the picture is narrower")
        XCTAssertEqual(shownFrame(turned), 0)
    }

    /// A scene's frame looks for failed videos only while a player layer exists
    /// (`AVPlayerLayer.liveCount`): every way of making one counts, and each counts until it goes.
    func testEveryPlayerLayerIsCountedWhileAlive() {
        let before = AVPlayerLayer.liveCount
        var model: AVPlayerLayer? = AVPlayerLayer(player: nil)
        XCTAssertEqual(AVPlayerLayer.liveCount, before + 1)
        var copy: AVPlayerLayer? = AVPlayerLayer(layer: model!)
        XCTAssertEqual(AVPlayerLayer.liveCount, before + 2)
        model = nil
        XCTAssertEqual(AVPlayerLayer.liveCount, before + 1, "a presentation copy alone still counts")
        XCTAssertNotNil(copy)
        copy = nil
        XCTAssertEqual(AVPlayerLayer.liveCount, before)
    }

    func testMissingFileFailsWithItsNameOrShowsPlaceholder() throws {
        let dir = try temporaryFolder()
        let missing = dir.appendingPathComponent("missing-clip.mp4")
        let player = AVPlayer(url: missing)
        player.play()
        let (scene, _) = makeScene(player: player, duration: 0.5)
        XCTAssertEqual(player.currentItem?.status, .failed)
        XCTAssertThrowsError(try scene.export(to: dir.appendingPathComponent("out.mp4"))) { error in
            XCTAssertTrue("\(error)".contains("missing-clip.mp4"), "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.mp4").path))
        // Rendering a single frame names the file too (no silent placeholder).
        let (stillScene, _) = makeScene(player: player, duration: 0.5)
        XCTAssertThrowsError(try stillScene.renderFrame(at: 0.2)) { error in
            XCTAssertTrue("\(error)".contains("missing-clip.mp4"), "\(error)")
        }

        let (scene2, _) = makeScene(player: player, duration: 0.5)
        var options = ExportOptions()
        options.mediaFailure = .placeholder
        let warnings = WarningLog()
        options.warning = { warnings.add($0) }
        let out = dir.appendingPathComponent("placeholder.mp4")
        try scene2.export(to: out, options: options)
        XCTAssertEqual(warnings.messages.count, 1)
        XCTAssertTrue(warnings.messages.first?.contains("missing-clip.mp4") == true)
        let raw = try runProcess("ffmpeg", ["-v", "error", "-i", out.path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgba", "-"])
        let grey = Bitmap(width: 64, height: 48, pixels: [UInt8](raw.stdout)).pixel(x: 32, y: 24)
        XCTAssertEqual(Double(grey.r), 128, accuracy: 6)
        XCTAssertEqual(Double(grey.b), 128, accuracy: 6)

        // A corrupt file: the same error path, naming the file.
        let corrupt = dir.appendingPathComponent("corrupt.mov")
        try Data(repeating: 0x42, count: 4096).write(to: corrupt)
        let (scene3, _) = makeScene(player: AVPlayer(url: corrupt), duration: 0.5)
        XCTAssertThrowsError(try scene3.export(to: dir.appendingPathComponent("c.mp4"))) { error in
            XCTAssertTrue("\(error)".contains("corrupt.mov"), "\(error)")
        }
    }
}

/// Collects warnings from an export (thread-safe).
final class WarningLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    func add(_ s: String) { lock.lock(); stored.append(s); lock.unlock() }
    var messages: [String] { lock.lock(); defer { lock.unlock() }; return stored }
}

/// The warnings an export of `scene` to PNG frames (in a temporary folder, removed after) gives.
func exportWarnings(_ scene: Scene) throws -> [String] {
    let dir = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let warnings = WarningLog()
    var options = ExportOptions()
    options.warning = { warnings.add($0) }
    try scene.export(to: dir.appendingPathComponent("frames"), options: options)
    return warnings.messages
}

/// The three clips of the GIF benchmark (Benchmarks/media/gif_vs_ffmpeg.sh), rendered by Strata at
/// 640×360, 30 fps, 3 s: a flat UI animation, a gradient-heavy title, and a noisy video playing in
/// a rounded, 3D-turned player layer. With STRATA_GIF_BENCH_DIR set, writes each clip's frames
/// (`<clip>.rgba`, raw RGBA), Strata's GIFs for both goals, and Strata's encode times
/// (`strata_times.json`); skipped otherwise. Run it in release (`swift test -c release`).
final class GIFBenchmarkClips: XCTestCase {
    static let size = CGSize(width: 640, height: 360)

    static func basic(_ key: String, from: Any, to: Any, duration: Double, begin: Double = 0) -> CABasicAnimation {
        let a = CABasicAnimation(keyPath: key)
        a.fromValue = from
        a.toValue = to
        a.duration = duration
        a.beginTime = begin
        a.fillMode = .both
        a.isRemovedOnCompletion = false
        a.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
        return a
    }

    static func color(_ hex: UInt32, _ alpha: CGFloat = 1) -> CGColor {
        CGColor(red: CGFloat(hex >> 16 & 0xFF) / 255, green: CGFloat(hex >> 8 & 0xFF) / 255, blue: CGFloat(hex & 0xFF) / 255, alpha: alpha)
    }

    static func flatUI() -> Scene {
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: size)
        root.backgroundColor = color(0xF4F5F7)
        let header = CALayer()
        header.frame = CGRect(x: 0, y: 0, width: 640, height: 56)
        header.backgroundColor = color(0x3B82F6)
        root.addSublayer(header)
        for i in 0..<3 {
            let card = CALayer()
            card.frame = CGRect(x: 40 + 195 * CGFloat(i), y: 90, width: 170, height: 150)
            card.backgroundColor = color(0xFFFFFF)
            card.cornerRadius = 14
            card.borderWidth = 1
            card.borderColor = color(0xD9DDE3)
            let badge = CALayer()
            badge.frame = CGRect(x: 16, y: 16, width: 40, height: 40)
            badge.cornerRadius = 20
            badge.backgroundColor = color([0x22C55E, 0xF59E0B, 0xEF4444][i])
            card.addSublayer(badge)
            let line = CALayer()
            line.frame = CGRect(x: 16, y: 76, width: 120, height: 10)
            line.backgroundColor = color(0xCBD5E1)
            line.cornerRadius = 5
            card.addSublayer(line)
            card.add(basic("position.x", from: 800, to: card.position.x, duration: 0.8, begin: 0.2 + 0.25 * Double(i)), forKey: "in")
            root.addSublayer(card)
        }
        let track = CALayer()
        track.frame = CGRect(x: 40, y: 280, width: 560, height: 16)
        track.backgroundColor = color(0xE2E8F0)
        track.cornerRadius = 8
        root.addSublayer(track)
        let bar = CALayer()
        bar.anchorPoint = CGPoint(x: 0, y: 0.5)
        bar.frame = CGRect(x: 40, y: 280, width: 560, height: 16)
        bar.backgroundColor = color(0x3B82F6)
        bar.cornerRadius = 8
        bar.add(basic("bounds.size.width", from: 16, to: 560, duration: 2.6, begin: 0.2), forKey: "grow")
        root.addSublayer(bar)
        let knob = CALayer()
        knob.frame = CGRect(x: 560, y: 14, width: 28, height: 28)
        knob.cornerRadius = 14
        knob.backgroundColor = color(0xFFFFFF)
        knob.add(basic("position.x", from: 574, to: 606, duration: 0.3, begin: 1.5), forKey: "toggle")
        root.addSublayer(knob)
        return Scene(rootLayer: root, size: size, frameRate: 30, duration: 3)
    }

    static func gradientTitle() -> Scene {
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: size)
        let background = CAGradientLayer()
        background.frame = root.bounds
        background.colors = [color(0x0F172A), color(0x6D28D9), color(0xDB2777)]
        background.startPoint = CGPoint(x: 0, y: 0)
        background.endPoint = CGPoint(x: 1, y: 1)
        background.add(basic("endPoint", from: CGPoint(x: 1, y: 1), to: CGPoint(x: 0.4, y: 1.2), duration: 3), forKey: "sweep")
        root.addSublayer(background)
        let glow = CAGradientLayer()
        glow.type = .radial
        glow.frame = CGRect(x: 0, y: 0, width: 360, height: 360)
        glow.colors = [color(0xFDE68A, 0.9), color(0xFDE68A, 0)]
        glow.startPoint = CGPoint(x: 0.5, y: 0.5)
        glow.endPoint = CGPoint(x: 1, y: 1)
        glow.add(basic("position", from: CGPoint(x: 120, y: 180), to: CGPoint(x: 520, y: 180), duration: 3), forKey: "move")
        root.addSublayer(glow)
        let title = CATextLayer()
        title.string = "Strata 1.0"
        title.fontSize = 72
        title.foregroundColor = color(0xFFFFFF)
        title.alignmentMode = .center
        title.frame = CGRect(x: 0, y: 130, width: 640, height: 100)
        title.add(basic("opacity", from: 0, to: 1, duration: 1, begin: 0.3), forKey: "fade")
        title.add(basic("transform.scale", from: 0.8, to: 1, duration: 1.5, begin: 0.3), forKey: "scale")
        root.addSublayer(title)
        return Scene(rootLayer: root, size: size, frameRate: 30, duration: 3)
    }

    static func videoInLayer(_ clip: URL) -> Scene {
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: size)
        let background = CAGradientLayer()
        background.frame = root.bounds
        background.colors = [color(0x1E293B), color(0x334155)]
        root.addSublayer(background)
        let player = AVPlayer(url: clip)
        player.play()
        let video = AVPlayerLayer(player: player)
        video.frame = CGRect(x: 120, y: 45, width: 400, height: 270)
        video.cornerRadius = 18
        video.masksToBounds = true
        video.videoGravity = .resizeAspectFill
        var perspective = CATransform3DIdentity
        perspective.m34 = -1 / 900
        video.add(basic("transform", from: CATransform3DRotate(perspective, -0.5, 0, 1, 0),
                        to: CATransform3DRotate(perspective, 0.35, 0, 1, 0), duration: 3), forKey: "turn")
        root.addSublayer(video)
        return Scene(rootLayer: root, size: size, frameRate: 30, duration: 3)
    }

    func testWriteGIFBenchmarkClips() throws {
        guard let dirPath = ProcessInfo.processInfo.environment["STRATA_GIF_BENCH_DIR"] else {
            throw XCTSkip("set STRATA_GIF_BENCH_DIR to write the GIF benchmark clips")
        }
        let dir = URL(fileURLWithPath: dirPath)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        // Camera-like source for the video clip: test pattern with moving noise.
        let source = dir.appendingPathComponent("source.mp4")
        let r = try runProcess("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=480x320:r=30:d=3,noise=alls=10:allf=t",
                                          "-c:v", "libx264", "-crf", "20", "-pix_fmt", "yuv420p", source.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        var times: [String: Double] = [:]
        var sizes: [String: Int] = [:]
        for (name, scene) in [("flat-ui", Self.flatUI()), ("gradient-title", Self.gradientTitle()),
                              ("video-layer", Self.videoInLayer(source))] {
            var frames: [Bitmap] = []
            var raw = Data()
            for k in 0..<scene.frameCount {
                let f = try scene.renderFrame(index: k)
                frames.append(f)
                raw.append(contentsOf: f.pixels)
            }
            try raw.write(to: dir.appendingPathComponent("\(name).rgba"))
            try frames[45].writePNG(to: dir.appendingPathComponent("\(name)-45.png"))
            for (mode, options) in [("strata", GIFEncoderOptions()), ("strata-size", GIFEncoderOptions(goal: .size))] {
                let url = dir.appendingPathComponent("\(name).\(mode).gif")
                let started = Date()
                let encoder = try GIFEncoder(url: url, width: 640, height: 360, frameRate: FrameRate(numerator: 30)!, options: options)
                for f in frames { try encoder.append(f) }
                try encoder.finish()
                times["\(name).\(mode)"] = Date().timeIntervalSince(started)
                sizes["\(name).\(mode)"] = (try? Data(contentsOf: url).count) ?? 0
            }
        }
        let json = try JSONSerialization.data(withJSONObject: ["seconds": times, "bytes": sizes], options: [.sortedKeys, .prettyPrinted])
        try json.write(to: dir.appendingPathComponent("strata_times.json"))
    }
}
