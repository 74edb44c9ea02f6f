// The video decoder stage against clips made by the ffmpeg CLI: each frame n of a test clip is a
// solid colour with red = 8·n, so the decoded colour names the frame. Checks frame timing, random
// access against sequential decoding, rotation metadata, sample aspect ratio, VP9/WebM, GIF and
// VP9-with-alpha sources, and the errors for missing, corrupt and truncated files.
import Foundation
import XCTest
import StrataTestSupport
import StrataMedia

final class VideoSourceTests: XCTestCase {
    /// Makes a clip of `frames` solid frames (red = 8·n, green = 255 − 8·n, blue = 128).
    static func makeCountingClip(_ url: URL, frames: Int = 30, fps: Int = 30, size: String = "64x48",
                                 extra: [String] = [], codec: [String] = ["-c:v", "libx264", "-pix_fmt", "yuv420p"]) throws {
        let source = "color=black:s=\(size):r=\(fps):d=\(Double(frames) / Double(fps)),format=rgb24,geq=r='8*N':g='255-8*N':b=128"
        _ = try MediaTestSupport.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", source] + codec + extra + [url.path])
    }

    /// The red value that names frame `n`.
    static func red(ofFrame n: Int) -> Double { Double(8 * n) }

    private func centreRed(_ image: CGImage) -> Double {
        Double(image.bitmap.pixel(x: image.width / 2, y: image.height / 2).r)
    }

    func testFrameTableDurationAndTiming() throws {
        let dir = try MediaTestSupport.scratchDirectory()
        let url = dir.appendingPathComponent("count.mp4")
        try Self.makeCountingClip(url)
        let source = try FFmpegVideoSource(url: url)
        XCTAssertEqual(source.frameCount, 30)
        XCTAssertEqual(source.duration, 1.0, accuracy: 1e-6)
        XCTAssertEqual(source.naturalSize, PixelSize(width: 64, height: 48))
        XCTAssertTrue(source.hasVideo)
        XCTAssertFalse(source.hasAudio)
        // The frame whose interval [n/30, (n+1)/30) contains t.
        XCTAssertEqual(source.frameIndex(atItemTime: 0), 0)
        XCTAssertEqual(source.frameIndex(atItemTime: 0.5), 15)
        XCTAssertEqual(source.frameIndex(atItemTime: 0.5 - 1e-4), 14)
        XCTAssertEqual(source.frameIndex(atItemTime: 10), 29)
        XCTAssertEqual(source.frameIndex(atItemTime: -1), 0)
        for n in [0, 1, 15, 29] {
            let image = try source.image(forFrame: n, size: nil)
            XCTAssertEqual(image.width, 64)
            XCTAssertEqual(centreRed(image), Self.red(ofFrame: n), accuracy: 4, "frame \(n)")
        }
    }

    func testRandomAccessMatchesSequentialDecodingExactly() throws {
        let dir = try MediaTestSupport.scratchDirectory()
        let url = dir.appendingPathComponent("gop.mp4")
        // Keyframes every 10 frames, with B-frames: seeks land on keyframes and decode forward.
        try Self.makeCountingClip(url, frames: 60, extra: ["-g", "10", "-bf", "2"])
        let sequential = try FFmpegVideoSource(url: url)
        var reference: [[UInt8]] = []
        for n in 0..<60 { reference.append(try sequential.image(forFrame: n, size: nil).bitmap.pixels) }
        let random = try FFmpegVideoSource(url: url)
        var generator = SplitMix(seed: 7)
        for _ in 0..<40 {
            let n = Int(generator.next() % 60)
            let image = try random.image(forFrame: n, size: nil)
            XCTAssertEqual(image.bitmap.pixels, reference[n], "frame \(n) differs after random access")
        }
        for n in stride(from: 59, through: 0, by: -7) {
            XCTAssertEqual(try random.image(forFrame: n, size: nil).bitmap.pixels, reference[n], "frame \(n) backwards")
        }
        XCTAssertEqual(centreRed(try random.image(forFrame: 23, size: nil)), Self.red(ofFrame: 23), accuracy: 4)
    }

    func testScaledFramesKeepAspectAndColour() throws {
        let dir = try MediaTestSupport.scratchDirectory()
        let url = dir.appendingPathComponent("big.mp4")
        try Self.makeCountingClip(url, frames: 5, size: "320x240")
        let source = try FFmpegVideoSource(url: url)
        let small = try source.image(forFrame: 3, size: PixelSize(width: 80, height: 60))
        XCTAssertEqual(small.width, 80)
        XCTAssertEqual(small.height, 60)
        XCTAssertEqual(centreRed(small), Self.red(ofFrame: 3), accuracy: 4)
        // The same frame at another size afterwards (re-converted from the cached picture).
        XCTAssertEqual(try source.image(forFrame: 3, size: nil).width, 320)
    }

    func testRotationMetadataIsAppliedAsFFmpegDoes() throws {
        let dir = try MediaTestSupport.scratchDirectory()
        let plain = dir.appendingPathComponent("plain.mp4")
        let url = dir.appendingPathComponent("rotated.mp4")
        // A white 16×16 square in the top-left corner of a 64×48 black picture, then a display
        // matrix added by remuxing (`rotate=90`: ffmpeg shows it turned 90° counter-clockwise).
        let source = "color=black:s=64x48:r=30:d=0.2,format=rgb24,geq=r='if(lt(X,16)*lt(Y,16),255,0)':g='if(lt(X,16)*lt(Y,16),255,0)':b='if(lt(X,16)*lt(Y,16),255,0)'"
        _ = try MediaTestSupport.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", source, "-c:v", "libx264",
                                                "-pix_fmt", "yuv444p", plain.path])
        _ = try MediaTestSupport.run("ffmpeg", ["-v", "error", "-y", "-i", plain.path, "-c", "copy",
                                                "-metadata:s:v:0", "rotate=90", url.path])
        let video = try FFmpegVideoSource(url: url)
        XCTAssertEqual(video.naturalSize, PixelSize(width: 48, height: 64))
        let image = try video.image(forFrame: 0, size: nil)
        XCTAssertEqual(image.width, 48)
        XCTAssertEqual(image.height, 64)
        // The oracle: ffmpeg's own auto-rotated decoding of the same file.
        let expected = try MediaTestSupport.decodeFrame(url, index: 0)
        XCTAssertEqual(expected.count, image.bitmap.pixels.count)
        XCTAssertGreaterThanOrEqual(MediaTestSupport.psnrRGB(expected, image.bitmap.pixels), 35)
        XCTAssertGreaterThan(image.bitmap.pixel(x: 6, y: 58).r, 200, "the square is at the bottom left")
    }

    func testSampleAspectRatioWidensThePicture() throws {
        let dir = try MediaTestSupport.scratchDirectory()
        let url = dir.appendingPathComponent("anamorphic.mp4")
        try Self.makeCountingClip(url, frames: 3, extra: ["-vf", "setsar=2/1"])
        let video = try FFmpegVideoSource(url: url)
        XCTAssertEqual(video.naturalSize, PixelSize(width: 128, height: 48))
        XCTAssertEqual(try video.image(forFrame: 1, size: nil).width, 128)
    }

    func testWebMAndGIFSources() throws {
        let dir = try MediaTestSupport.scratchDirectory()
        let webm = dir.appendingPathComponent("count.webm")
        try Self.makeCountingClip(webm, frames: 20, codec: ["-c:v", "libvpx-vp9", "-pix_fmt", "yuv420p", "-crf", "20", "-b:v", "0"])
        let vp9 = try FFmpegVideoSource(url: webm)
        XCTAssertEqual(vp9.frameCount, 20)
        XCTAssertEqual(centreRed(try vp9.image(forFrame: 12, size: nil)), Self.red(ofFrame: 12), accuracy: 5)
        XCTAssertEqual(centreRed(try vp9.image(forFrame: 3, size: nil)), Self.red(ofFrame: 3), accuracy: 5)

        // FFmpeg's GIF encoder uses a 3-3-2 bit palette: red levels 255·n/7 name frames 0…7.
        let gifURL = dir.appendingPathComponent("count.gif")
        _ = try MediaTestSupport.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i",
                                                "color=black:s=64x48:r=10:d=0.8,format=rgb24,geq=r='255*N/7':g=0:b=0", gifURL.path])
        let gif = try FFmpegVideoSource(url: gifURL)
        XCTAssertEqual(gif.frameCount, 8)
        XCTAssertEqual(gif.duration, 0.8, accuracy: 0.011)
        XCTAssertEqual(gif.frameIndex(atItemTime: 0.55), 5)
        XCTAssertEqual(centreRed(try gif.image(forFrame: 6, size: nil)), 255.0 * 6 / 7, accuracy: 6)
        // Back to an earlier frame of a GIF (seeking back, or reopening when it cannot seek).
        XCTAssertEqual(centreRed(try gif.image(forFrame: 2, size: nil)), 255.0 * 2 / 7, accuracy: 6)
    }

    func testVP9AlphaSourceIsPremultiplied() throws {
        let dir = try MediaTestSupport.scratchDirectory()
        let url = dir.appendingPathComponent("alpha.webm")
        // Left half opaque red, right half transparent.
        let source = "color=black@0:s=64x48:r=30:d=0.2,format=rgba,geq=r=255:g=0:b=0:a='if(lt(X,32),255,0)'"
        _ = try MediaTestSupport.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", source, "-c:v", "libvpx-vp9",
                                                "-pix_fmt", "yuva420p", "-b:v", "0", "-crf", "10", url.path])
        let video = try FFmpegVideoSource(url: url)
        let image = try video.image(forFrame: 1, size: nil)
        let left = image.bitmap.pixel(x: 8, y: 24), right = image.bitmap.pixel(x: 56, y: 24)
        XCTAssertGreaterThan(left.a, 245)
        XCTAssertGreaterThan(left.r, 230)
        XCTAssertLessThan(right.a, 10)
        XCTAssertLessThanOrEqual(right.r, right.a, "premultiplied: colour never exceeds alpha")
    }

    func testMissingCorruptAndTruncatedFiles() throws {
        let dir = try MediaTestSupport.scratchDirectory()
        let missing = dir.appendingPathComponent("nope.mp4")
        XCTAssertThrowsError(try FFmpegVideoSource(url: missing)) { error in
            XCTAssertTrue("\(error)".contains(missing.path), "\(error)")
        }
        let garbage = dir.appendingPathComponent("garbage.mp4")
        var generator = SplitMix(seed: 1)
        try Data((0..<20_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }).write(to: garbage)
        XCTAssertThrowsError(try FFmpegVideoSource(url: garbage)) { error in
            XCTAssertTrue("\(error)".contains(garbage.path), "\(error)")
        }
        // Truncated after the index (faststart): the frames that are there still play; later
        // ones show the last decodable picture; nothing hangs.
        let whole = dir.appendingPathComponent("whole.mp4")
        try Self.makeCountingClip(whole, frames: 60, size: "160x120", extra: ["-g", "15", "-movflags", "+faststart"])
        let data = try Data(contentsOf: whole)
        let cut = dir.appendingPathComponent("cut.mp4")
        try data.prefix(data.count / 2).write(to: cut)
        let video = try FFmpegVideoSource(url: cut)
        XCTAssertGreaterThan(video.frameCount, 0)
        XCTAssertEqual(centreRed(try video.image(forFrame: 2, size: nil)), Self.red(ofFrame: 2), accuracy: 4)
        let late = try video.image(forFrame: video.frameCount - 1, size: nil)
        XCTAssertEqual(late.width, 160)
        // Truncated before the index (moov at the end): not a playable file.
        let plain = dir.appendingPathComponent("plain.mp4")
        try Self.makeCountingClip(plain, frames: 30)
        let cutPlain = dir.appendingPathComponent("cutplain.mp4")
        try (try Data(contentsOf: plain)).prefix(2000).write(to: cutPlain)
        XCTAssertThrowsError(try FFmpegVideoSource(url: cutPlain)) { error in
            XCTAssertTrue("\(error)".contains(cutPlain.path), "\(error)")
        }
    }

    func testAudioDecoderPlacesSamplesExactly() throws {
        let dir = try MediaTestSupport.scratchDirectory()
        let url = dir.appendingPathComponent("tone.m4a")
        // 1 s of silence then 1 s of a 440 Hz tone, at 44.1 kHz.
        _ = try MediaTestSupport.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i",
                                                "aevalsrc='if(gte(t,1),0.5*sin(2*PI*440*t),0)':s=44100:d=2",
                                                "-c:a", "aac", "-b:a", "128k", url.path])
        let decoder = try AudioDecoder(url: url)
        XCTAssertEqual(decoder.duration, 2.0, accuracy: 0.03)
        var buffer = [Float](repeating: 0, count: 48_000 * 2 * 3)
        let n = try buffer.withUnsafeMutableBufferPointer { try decoder.read(into: $0, frames: 48_000 * 3) }
        XCTAssertEqual(Double(n), 96_000, accuracy: 100)
        func rms(_ from: Int, _ to: Int) -> Double {
            var sum = 0.0
            for i in (from * 2)..<(to * 2) { sum += Double(buffer[i] * buffer[i]) }
            return (sum / Double((to - from) * 2)).squareRoot()
        }
        XCTAssertLessThan(rms(1_000, 46_000), 0.01)
        XCTAssertEqual(rms(50_000, 94_000), 0.5 / 2.0.squareRoot(), accuracy: 0.03)
        // Starting at 0.9 s: 0.1 s (4800 samples) of silence, then the tone.
        try decoder.start(at: 0.9)
        buffer = [Float](repeating: 0, count: 9_600 * 2)
        _ = try buffer.withUnsafeMutableBufferPointer { try decoder.read(into: $0, frames: 9_600) }
        XCTAssertLessThan(rms(0, 4_700), 0.01)
        XCTAssertGreaterThan(rms(4_900, 9_600), 0.3)
    }
}

final class FrameSourceRegistryTests: XCTestCase {
    /// Core's player model opens files through the factory a higher module registers (the
    /// `Strata` target registers this one when a scene is made).
    func testPlayerItemOpensWithTheRegisteredFFmpegFactory() throws {
        VideoFrameSources.registerDefault { try FFmpegVideoSource(url: $0) }
        let dir = try MediaTestSupport.scratchDirectory()
        let url = dir.appendingPathComponent("count.mp4")
        try VideoSourceTests.makeCountingClip(url, frames: 10)
        let item = AVPlayerItem(url: url)
        XCTAssertEqual(item.status, .readyToPlay, "\(String(describing: item.error))")
        XCTAssertEqual(item.duration.seconds, 1.0 / 3.0, accuracy: 1e-4)
        XCTAssertEqual(item.presentationSize, CGSize(width: 64, height: 48))
        let missing = AVPlayerItem(url: dir.appendingPathComponent("absent.mov"))
        XCTAssertEqual(missing.status, .failed)
        XCTAssertTrue("\(missing.error!)".contains("absent.mov"))
    }
}
