// Audio in exported files (and, in TransparentExportTests, transparency), checked with the ffmpeg/ffprobe CLI: players' audio placed where they
// play, cut at pauses, scaled by volume, silenced by mute, looped, sped up; scene-level tracks
// with offset, trim and volume; AAC in MP4, Opus in WebM; audio and video durations equal to
// within one audio frame. Sources are tones whose frequency changes at known times, so the
// frequency measured in a window (zero crossings) says which part of the source plays there.
import XCTest
import Strata

final class AudioExportTests: XCTestCase {
    static let sampleRate = 48_000

    /// A 64×48 clip of `duration` s whose audio is a tone of `low` Hz before `switchAt` and
    /// `high` Hz after (amplitude 0.5).
    func makeClip(_ dir: URL, name: String, duration: Double = 2, low: Int = 300, high: Int = 900,
                  switchAt: Double = 1, video: Bool = true) throws -> URL {
        let url = dir.appendingPathComponent(name)
        var args = ["-v", "error", "-y"]
        if video { args += ["-f", "lavfi", "-i", "color=gray:s=64x48:r=30:d=\(duration)"] }
        args += ["-f", "lavfi", "-i", "aevalsrc='0.5*sin(2*PI*if(lt(t,\(switchAt)),\(low)*t,\(low)*\(switchAt)+\(high)*(t-\(switchAt))))':s=44100:d=\(duration)"]
        if video { args += ["-c:v", "libx264", "-pix_fmt", "yuv420p"] }
        args += ["-c:a", "aac", "-b:a", "192k", url.path]
        let r = try runProcess("ffmpeg", args)
        XCTAssertEqual(r.status, 0, r.stderr)
        return url
    }

    func makeScene(duration: Double, players: [AVPlayer]) -> Scene {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 64, height: 48)
        for p in players {
            let layer = AVPlayerLayer(player: p)
            layer.frame = root.bounds
            root.addSublayer(layer)
        }
        return Scene(rootLayer: root, size: CGSize(width: 64, height: 48), frameRate: 30, duration: duration)
    }

    /// The file's audio as interleaved stereo floats at 48 kHz (decoded by ffmpeg).
    func decodeAudio(_ url: URL) throws -> [Float] {
        let r = try runProcess("ffmpeg", ["-v", "error", "-i", url.path, "-map", "0:a:0", "-f", "f32le", "-ac", "2", "-ar", "48000", "-"])
        XCTAssertEqual(r.status, 0, r.stderr)
        return r.stdout.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// RMS of the left channel over [t0, t1).
    func rms(_ s: [Float], _ t0: Double, _ t1: Double) -> Double {
        let a = Int(t0 * Double(Self.sampleRate)), b = min(Int(t1 * Double(Self.sampleRate)), s.count / 2)
        guard b > a else { return 0 }
        var sum = 0.0
        for i in a..<b { sum += Double(s[i * 2]) * Double(s[i * 2]) }
        return (sum / Double(b - a)).squareRoot()
    }

    /// Frequency of the left channel over [t0, t1) from its zero crossings.
    func frequency(_ s: [Float], _ t0: Double, _ t1: Double) -> Double {
        let a = Int(t0 * Double(Self.sampleRate)), b = min(Int(t1 * Double(Self.sampleRate)), s.count / 2)
        var crossings = 0
        for i in (a + 1)..<b where (s[(i - 1) * 2] < 0) != (s[i * 2] < 0) { crossings += 1 }
        return Double(crossings) / 2 / (Double(b - a) / Double(Self.sampleRate))
    }

    /// (audio duration, video duration) in seconds, from decoded sample and frame counts.
    func durations(_ url: URL) throws -> (audio: Double, video: Double) {
        let samples = try decodeAudio(url).count / 2
        let info = try ffprobe(url, ["-count_frames", "-select_streams", "v:0", "-show_streams"])
        let stream = try XCTUnwrap((info["streams"] as? [[String: Any]])?.first)
        let frames = Double(stream["nb_read_frames"] as? String ?? "") ?? 0
        return (Double(samples) / Double(Self.sampleRate), frames / 30)
    }

    func testPlayerAudioIsPlacedCutAtPauseScaledAndMutedInMP4() throws {
        let dir = try temporaryFolder()
        let clip = try makeClip(dir, name: "clip.mp4")
        func export(to out: URL, workers: Int) throws {
            let player = AVPlayer(url: clip)
            let scene = makeScene(duration: 3.5, players: [player])
            scene.at(0.5) { player.play() }                       // item 0 → 1 over scene 0.5 → 1.5 (300 Hz)
            scene.at(1.5) { player.pause() }                      // silence 1.5 → 2.0
            scene.at(2.0) { player.volume = 0.5; player.play() }  // item 1.0 → 1.5 (900 Hz) at half volume
            scene.at(2.5) { player.isMuted = true }               // silence from 2.5
            var options = ExportOptions()
            options.render.workers = workers
            try scene.export(to: out, options: options)
        }
        let out = dir.appendingPathComponent("out.mp4")
        try export(to: out, workers: 1)
        // With three workers frames overlap (one drawn while the next is posed); frames and audio
        // still reach the encoder in the same order, so the file is the same.
        let overlapped = dir.appendingPathComponent("overlapped.mp4")
        try export(to: overlapped, workers: 3)
        XCTAssertEqual(try Data(contentsOf: overlapped), try Data(contentsOf: out))

        let info = try ffprobe(out, ["-show_streams"])
        let audio = try XCTUnwrap((info["streams"] as? [[String: Any]])?.first { $0["codec_type"] as? String == "audio" })
        XCTAssertEqual(audio["codec_name"] as? String, "aac")
        XCTAssertEqual(audio["sample_rate"] as? String, "48000")
        XCTAssertEqual(audio["channels"] as? Int, 2)
        let d = try durations(out)
        XCTAssertEqual(d.video, 3.5, accuracy: 1e-9)
        XCTAssertEqual(d.audio, d.video, accuracy: 1024.0 / 48_000, "audio and video agree to one AAC frame")

        let s = try decodeAudio(out)
        let full = 0.5 / 2.0.squareRoot()
        XCTAssertLessThan(rms(s, 0.0, 0.48), 0.01, "before play()")
        XCTAssertEqual(rms(s, 0.55, 1.45), full, accuracy: 0.03)
        XCTAssertEqual(frequency(s, 0.55, 1.45), 300, accuracy: 10)
        XCTAssertLessThan(rms(s, 1.52, 1.98), 0.01, "paused")
        XCTAssertEqual(rms(s, 2.05, 2.45), full / 2, accuracy: 0.02, "volume 0.5")
        XCTAssertEqual(frequency(s, 2.05, 2.45), 900, accuracy: 15, "resumes where it paused (item 1.0 s)")
        XCTAssertLessThan(rms(s, 2.52, 3.5), 0.01, "muted")
    }

    /// A scene's audio is its own: tracks and players added to one scene are not another's.
    func testEachSceneKeepsItsOwnAudio() {
        func scene() -> Scene { Scene(rootLayer: CALayer(), size: CGSize(width: 8, height: 8), frameRate: 30, duration: 1) }
        let a = scene(), b = scene(), player = AVPlayer()
        a.addAudio(url: URL(fileURLWithPath: "/a.m4a"), at: 0.25)
        a.addAudio(player: player)
        a.addAudio(player: player)
        b.addAudio(url: URL(fileURLWithPath: "/b.m4a"))
        XCTAssertEqual(a.audioTracks.map(\.url.path), ["/a.m4a"])
        XCTAssertEqual(a.audioTracks.first?.start, 0.25)
        XCTAssertEqual(b.audioTracks.map(\.url.path), ["/b.m4a"])
        XCTAssertEqual(a.audioPlayers.count, 1)
        XCTAssertTrue(b.audioPlayers.isEmpty)
    }

    func testSceneTrackWithOffsetAndTrimInWebMAsOpus() throws {
        let dir = try temporaryFolder()
        let tone = try makeClip(dir, name: "tone.m4a", video: false)
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 64, height: 48)
        root.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        let scene = Scene(rootLayer: root, size: CGSize(width: 64, height: 48), frameRate: 30, duration: 2)
        // Source 0.8 s … 1.4 s (300 Hz, then 900 Hz from 1.0 s) at scene 0.5 s … 1.1 s.
        scene.addAudio(url: tone, at: 0.5, offset: 0.8, duration: 0.6, volume: 0.8)
        XCTAssertEqual(scene.audioTracks.count, 1)
        let out = dir.appendingPathComponent("out.webm")
        try scene.export(to: out)

        let info = try ffprobe(out, ["-show_streams"])
        let streams = info["streams"] as? [[String: Any]] ?? []
        XCTAssertEqual(streams.first { $0["codec_type"] as? String == "audio" }?["codec_name"] as? String, "opus")
        XCTAssertEqual(streams.first { $0["codec_type"] as? String == "video" }?["codec_name"] as? String, "vp9")
        let d = try durations(out)
        XCTAssertEqual(d.audio, d.video, accuracy: 960.0 / 48_000, "audio and video agree to one Opus frame")

        let s = try decodeAudio(out)
        let level = 0.8 * 0.5 / 2.0.squareRoot()
        XCTAssertLessThan(rms(s, 0, 0.48), 0.01)
        XCTAssertEqual(rms(s, 0.52, 0.68), level, accuracy: 0.03)
        XCTAssertEqual(frequency(s, 0.52, 0.68), 300, accuracy: 15)
        XCTAssertEqual(frequency(s, 0.72, 1.08), 900, accuracy: 15)
        XCTAssertLessThan(rms(s, 1.12, 2), 0.01, "trimmed after 0.6 s")
    }

    func testLoopingAndDoubleSpeedAudio() throws {
        let dir = try temporaryFolder()
        // 0.5 s clips: 300 Hz then 900 Hz from 0.25 s.
        let clip = try makeClip(dir, name: "short.mp4", duration: 0.5, switchAt: 0.25)
        let queue = AVQueuePlayer()
        let looper = AVPlayerLooper(player: queue, templateItem: AVPlayerItem(url: clip))
        queue.play()
        let scene = makeScene(duration: 2, players: [queue])
        let out = dir.appendingPathComponent("loop.mov")
        try scene.export(to: out)
        _ = looper
        let s = try decodeAudio(out)
        for k in 0..<4 {
            let t = Double(k) * 0.5
            XCTAssertEqual(frequency(s, t + 0.03, t + 0.22), 300, accuracy: 15, "loop \(k), first half")
            XCTAssertEqual(frequency(s, t + 0.28, t + 0.47), 900, accuracy: 20, "loop \(k), second half")
        }

        // Rate 2: the item plays in half the time, at twice the pitch (varispeed).
        let fast = AVPlayer(url: clip)
        fast.rate = 2
        let scene2 = makeScene(duration: 1, players: [fast])
        let out2 = dir.appendingPathComponent("fast.mp4")
        try scene2.export(to: out2)
        let f = try decodeAudio(out2)
        XCTAssertEqual(frequency(f, 0.02, 0.11), 600, accuracy: 25)
        XCTAssertEqual(frequency(f, 0.14, 0.23), 1800, accuracy: 40)
        XCTAssertLessThan(rms(f, 0.27, 1), 0.01, "ended at 0.25 s")

        // Varispeed covers 1/32…32 (Apple's range); outside it the audio is muted, the video not.
        for (rate, audible) in [(32.0, true), (40.0, false)] {
            let player = AVPlayer(url: clip)
            player.rate = Float(rate)
            let out = dir.appendingPathComponent("rate\(Int(rate)).mp4")
            try makeScene(duration: 0.5, players: [player]).export(to: out)
            let samples = try decodeAudio(out)
            if audible {
                XCTAssertGreaterThan(rms(samples, 0, 0.015), 0.05, "rate \(rate) plays")
            } else {
                XCTAssertLessThan(rms(samples, 0, 0.5), 1e-4, "rate \(rate) is muted")
            }
        }
    }

    func testNoAudioTrackWithoutAudioAndFrameRangeKeepsSync() throws {
        let dir = try temporaryFolder()
        let silentClip = dir.appendingPathComponent("silent.mp4")
        let r = try runProcess("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "color=red:s=64x48:r=30:d=1",
                                          "-c:v", "libx264", "-pix_fmt", "yuv420p", silentClip.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let player = AVPlayer(url: silentClip)
        player.play()
        let out = dir.appendingPathComponent("noaudio.mp4")
        try makeScene(duration: 1, players: [player]).export(to: out)
        let streams = try ffprobe(out, ["-show_streams"])["streams"] as? [[String: Any]] ?? []
        XCTAssertEqual(streams.count, 1, "a scene without audio gets no audio track")

        // A frame range: the audio of frames 30..<60 is the audio of scene time 1 s … 2 s.
        let clip = try makeClip(dir, name: "clip.mp4", duration: 3, switchAt: 1.5)
        let p2 = AVPlayer(url: clip)
        p2.play()
        var options = ExportOptions()
        options.frameRange = 30..<60
        let part = dir.appendingPathComponent("part.mp4")
        try makeScene(duration: 3, players: [p2]).export(to: part, options: options)
        let d = try durations(part)
        XCTAssertEqual(d.video, 1, accuracy: 1e-9)
        // A chunk's tracks start at its own time (1 s here): FFmpeg's MP4 muxer trims AAC's
        // 1024-sample priming only for tracks that start at 0, so a chunk's audio begins with it,
        // before the chunk's start (and its last frame's padding is kept): up to 2 AAC frames.
        XCTAssertEqual(d.audio, 1, accuracy: 2 * 1024.0 / 48_000)
        let s = try decodeAudio(part)
        XCTAssertEqual(frequency(s, 0.05, 0.45), 300, accuracy: 15)
        XCTAssertEqual(frequency(s, 0.55, 0.95), 900, accuracy: 15)
    }
}

/// Transparent scenes exported with `preservesAlpha` (ProRes 4444 in MOV, VP9 alpha in WebM,
/// WebP), decoded back by the ffmpeg CLI with the alpha read; plus the progress callback.
final class TransparentExportTests: XCTestCase {
    /// A clear background with an opaque red square and a half-transparent green one.
    func makeScene() -> Scene {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 64, height: 48)
        let red = CALayer()
        red.frame = CGRect(x: 4, y: 4, width: 20, height: 20)
        red.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        root.addSublayer(red)
        let green = CALayer()
        green.frame = CGRect(x: 36, y: 20, width: 24, height: 24)
        green.backgroundColor = CGColor(red: 0, green: 1, blue: 0, alpha: 0.5)
        root.addSublayer(green)
        return Scene(rootLayer: root, size: CGSize(width: 64, height: 48), frameRate: 30, duration: 0.5)
    }

    func decodeRGBA(_ url: URL, decoder: [String] = []) throws -> Bitmap {
        let r = try runProcess("ffmpeg", ["-v", "error"] + decoder + ["-i", url.path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgba", "-"])
        XCTAssertEqual(r.status, 0, r.stderr)
        return Bitmap(width: 64, height: 48, pixels: [UInt8](r.stdout))
    }

    func testProRes4444AndVP9AlphaKeepTransparency() throws {
        let dir = try temporaryFolder()
        var options = ExportOptions()
        options.preservesAlpha = true
        let progress = WarningLog()
        options.progress = { progress.add("\($0.framesDone)/\($0.frameCount)") }
        for (name, codec, pixelFormat, decoder) in [("clip.mov", "prores", "yuva444p", [String]()),
                                                    ("clip.webm", "vp9", "yuva420p", ["-c:v", "libvpx-vp9"])] {
            let url = dir.appendingPathComponent(name)
            try makeScene().export(to: url, options: options)
            let stream = try XCTUnwrap((try ffprobe(url, ["-show_streams"])["streams"] as? [[String: Any]])?.first)
            XCTAssertEqual(stream["codec_name"] as? String, codec)
            if codec == "prores" {
                // ProRes 4444 decodes as 12-bit 4:4:4 with alpha.
                XCTAssertTrue((stream["pix_fmt"] as? String ?? "").hasPrefix(pixelFormat), "\(stream["pix_fmt"] ?? "")")
                XCTAssertEqual(stream["profile"] as? String, "4444")
            } else {
                // WebM stores the alpha plane beside the picture, tagged alpha_mode=1.
                XCTAssertEqual((stream["tags"] as? [String: Any])?["alpha_mode"] as? String ?? (stream["tags"] as? [String: Any])?["ALPHA_MODE"] as? String, "1")
            }
            let frame = try decodeRGBA(url, decoder: decoder)
            XCTAssertLessThan(frame.pixel(x: 30, y: 10).a, 8, "\(name): clear background")
            XCTAssertGreaterThan(frame.pixel(x: 14, y: 14).a, 247, "\(name): opaque square")
            XCTAssertGreaterThan(frame.pixel(x: 14, y: 14).r, 240)
            XCTAssertEqual(Double(frame.pixel(x: 48, y: 32).a), 128, accuracy: 6, "\(name): half-transparent square")
            XCTAssertGreaterThan(frame.pixel(x: 48, y: 32).g, 235, "\(name): straight colour of the green square")
        }
        XCTAssertEqual(progress.messages.last, "15/15")
        XCTAssertThrowsError(try makeScene().export(to: dir.appendingPathComponent("clip.mp4"), options: options)) { error in
            XCTAssertTrue("\(error)".contains("no alpha channel"), "\(error)")
        }
    }

    func testWebPExport() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/webpinfo") else { throw XCTSkip("webpinfo not installed") }
        let dir = try temporaryFolder()
        let url = dir.appendingPathComponent("clip.webp")
        var options = ExportOptions()
        options.preservesAlpha = true
        try makeScene().export(to: url, options: options)
        let info = try runProcess("webpinfo", [url.path])
        XCTAssertEqual(info.status, 0, info.stderr)
        XCTAssertTrue(info.text.contains("Canvas size 64 x 48"), info.text)
        XCTAssertTrue(info.text.contains("Alpha: 1"), info.text)
        XCTAssertTrue(info.text.contains("Loop count      : 0"), info.text)
    }
}
