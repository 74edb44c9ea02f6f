// The encoder stage's newer outputs, checked with independent tools: animated WebP (libwebp's
// `webpinfo`, `webpmux` and `dwebp` read the file: frame count, per-frame durations, loop count,
// alpha, pixels), the audio track of MP4 and WebM files (ffprobe and ffmpeg: codec, exact sample
// count, the tone decoded back), and AV1 where the system FFmpeg has an encoder.
import Foundation
import XCTest
import StrataMedia

final class WebPAudioAV1EncoderTests: XCTestCase {
    private func tool(_ name: String) throws {
        let found = FileManager.default.isExecutableFile(atPath: "/usr/bin/\(name)")
            || FileManager.default.isExecutableFile(atPath: "/usr/local/bin/\(name)")
        if !found { throw XCTSkip("\(name) (Debian package webp) is not installed") }
    }

    /// Frame 0 of an animated WebP as straight RGBA (webpmux extracts it, dwebp decodes it).
    private func firstFrameRGBA(_ url: URL, dir: URL) throws -> (width: Int, height: Int, pixels: [UInt8]) {
        var frame = dir.appendingPathComponent("frame1.webp")
        let pam = dir.appendingPathComponent("frame1.pam")
        // libwebp merges identical frames; a file left with one frame is a still image.
        let info = String(decoding: try MediaTestSupport.run("webpinfo", [url.path]), as: UTF8.self)
        if info.contains("ANMF") {
            _ = try MediaTestSupport.run("webpmux", ["-get", "frame", "1", url.path, "-o", frame.path])
        } else {
            frame = url
        }
        _ = try MediaTestSupport.run("dwebp", ["-quiet", frame.path, "-pam", "-o", pam.path])
        let data = [UInt8](try Data(contentsOf: pam))
        // PAM header: lines up to ENDHDR, then RGBA rows.
        guard let end = String(decoding: data.prefix(200), as: UTF8.self).range(of: "ENDHDR\n") else {
            XCTFail("not a PAM file"); return (0, 0, [])
        }
        let header = String(decoding: data.prefix(200), as: UTF8.self)[..<end.lowerBound]
        func field(_ name: String) -> Int {
            header.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Int($0.split(separator: " ")[1]) } ?? 0
        }
        let offset = String(decoding: data.prefix(200), as: UTF8.self).utf8.distance(
            from: String(decoding: data.prefix(200), as: UTF8.self).startIndex, to: end.upperBound)
        return (field("WIDTH"), field("HEIGHT"), Array(data[offset...]))
    }

    func testAnimatedWebPFramesDurationsLoopAndPixels() throws {
        try tool("webpinfo")
        let dir = try MediaTestSupport.scratchDirectory()
        let url = dir.appendingPathComponent("anim.webp")
        var options = VideoEncoderOptions.recommended(for: .webp)
        options.webp.loopCount = 3
        options.webp.quality = 90
        let encoder = try VideoEncoder(url: url, format: .webp, width: 320, height: 240,
                                       frameRate: FrameRate(numerator: 20)!, options: options)
        for k in 0..<10 { try encoder.append(MediaTestSupport.movingSquare(frame: k)) }
        try encoder.finish()
        let info = String(decoding: try MediaTestSupport.run("webpinfo", [url.path]), as: UTF8.self)
        XCTAssertTrue(info.contains("Canvas size 320 x 240"), info)
        XCTAssertTrue(info.contains("Loop count      : 3"), info)
        let durations = info.split(separator: "\n").filter { $0.contains("Duration:") }
            .compactMap { Int($0.split(separator: ":").last!.trimmingCharacters(in: .whitespaces)) }
        XCTAssertEqual(durations.count, 10, "one ANMF chunk per frame")
        XCTAssertEqual(durations.reduce(0, +), 500, "10 frames at 20 fps last 500 ms")
        try tool("dwebp")
        let first = try firstFrameRGBA(url, dir: dir)
        XCTAssertEqual(first.width, 320)
        // Lossy WebP at quality 90 keeps the picture.
        XCTAssertGreaterThan(MediaTestSupport.psnrRGB(first.pixels, MediaTestSupport.movingSquare(frame: 0).pixels), 30)
    }

    func testWebPKeepsAlphaWhenAsked() throws {
        try tool("webpinfo"); try tool("dwebp")
        let dir = try MediaTestSupport.scratchDirectory()
        let url = dir.appendingPathComponent("alpha.webp")
        var options = VideoEncoderOptions.recommended(for: .webp)
        options.pixelFormat = .rgba
        options.webp.lossless = true
        let encoder = try VideoEncoder(url: url, format: .webp, width: 32, height: 32,
                                       frameRate: MediaTestSupport.fps30, options: options)
        let frame = Bitmap.filled(width: 32, height: 32, red: 255, green: 128, blue: 0, alpha: 128)
        for _ in 0..<3 { try encoder.append(frame) }
        try encoder.finish()
        let info = String(decoding: try MediaTestSupport.run("webpinfo", [url.path]), as: UTF8.self)
        XCTAssertTrue(info.contains("Alpha: 1"), info)
        let first = try firstFrameRGBA(url, dir: dir)
        let centre = (16 * 32 + 16) * 4
        XCTAssertEqual(Double(first.pixels[centre]), 255, accuracy: 2)
        XCTAssertEqual(Double(first.pixels[centre + 1]), 128, accuracy: 2)
        XCTAssertEqual(Double(first.pixels[centre + 3]), 128, accuracy: 1)
    }

    func testWebPRejectsWrongCombinations() {
        let dir = FileManager.default.temporaryDirectory
        XCTAssertThrowsError(try VideoEncoder(url: dir.appendingPathComponent("x.webp"), format: .webp, width: 8, height: 8,
                                              frameRate: MediaTestSupport.fps30, options: VideoEncoderOptions())) { error in
            XCTAssertTrue("\(error)".contains("WebP"), "\(error)")
        }
        XCTAssertEqual(VideoEncoderOptions().adapted(to: .webm).codec, .vp9)
        XCTAssertEqual(VideoEncoderOptions().adapted(to: .webm).crf, 31)
        XCTAssertEqual(VideoEncoderOptions(codec: .webp, pixelFormat: .rgb).adapted(to: .mp4).codec, .h264)
        XCTAssertEqual(VideoEncoderOptions(codec: .vp9).adapted(to: .mp4).codec, .vp9, "VP9 in MP4 is kept")
    }

    /// A 440 Hz tone at amplitude 0.5 (stereo, interleaved).
    private func tone(samples: Int, rate: Int = 48_000) -> [Float] {
        var out = [Float](repeating: 0, count: samples * 2)
        for i in 0..<samples {
            let v = Float(0.5 * sin(2 * Double.pi * 440 * Double(i) / Double(rate)))
            out[2 * i] = v; out[2 * i + 1] = v
        }
        return out
    }

    func testAudioTrackInMP4AndWebMHasTheExactLength() throws {
        let dir = try MediaTestSupport.scratchDirectory()
        for (format, codec) in [(ContainerFormat.mp4, "aac"), (.webm, "opus")] {
            let url = dir.appendingPathComponent("tone.\(format)")
            let encoder = try VideoEncoder(url: url, format: format, width: 64, height: 48, frameRate: MediaTestSupport.fps30,
                                           options: .recommended(for: format), audio: AudioEncoderOptions())
            let samples = tone(samples: 48_000)
            for k in 0..<30 {
                try encoder.append(.filled(width: 64, height: 48, red: 200, green: 100, blue: 50))
                // 1600 samples per frame at 30 fps, handed over in uneven pieces.
                try encoder.appendAudio(Array(samples[(k * 3200)..<((k + 1) * 3200)]))
            }
            XCTAssertEqual(encoder.audioSamplesAppended, 48_000)
            try encoder.finish()
            let json = try JSONSerialization.jsonObject(with: try MediaTestSupport.run(
                "ffprobe", ["-v", "error", "-show_streams", "-of", "json", url.path])) as? [String: Any]
            let streams = json?["streams"] as? [[String: Any]] ?? []
            let audio = try XCTUnwrap(streams.first { $0["codec_type"] as? String == "audio" })
            XCTAssertEqual(audio["codec_name"] as? String, codec)
            XCTAssertEqual(audio["channels"] as? Int, 2)
            // The stated duration is exact; decoders may also play the padding of the last
            // frame (AAC: up to 1023 samples), never more than one frame.
            let stated = Double(audio["duration"] as? String ?? "")
            if format == .mp4 { XCTAssertEqual(stated ?? 0, 1.0, accuracy: 1e-3, "ffprobe's audio duration") }
            let pcm = try MediaTestSupport.run("ffmpeg", ["-v", "error", "-i", url.path, "-map", "0:a", "-f", "f32le", "-"])
            let decoded = pcm.count / 8
            XCTAssertGreaterThanOrEqual(decoded, 48_000 - 1, "\(format): decoded \(decoded) samples")
            XCTAssertLessThan(decoded, 48_000 + (format == .mp4 ? 1024 : 960), "\(format): decoded \(decoded) samples")
            let values = pcm.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
            var sum = 0.0
            for i in 4_800..<43_200 { sum += Double(values[2 * i] * values[2 * i]) }
            XCTAssertEqual((sum / 38_400).squareRoot(), 0.5 / 2.0.squareRoot(), accuracy: 0.02, "\(format) level")
        }
    }

    func testAudioOptionsAreChecked() {
        let dir = FileManager.default.temporaryDirectory
        XCTAssertThrowsError(try VideoEncoder(url: dir.appendingPathComponent("a.webm"), format: .webm, width: 8, height: 8,
                                              frameRate: MediaTestSupport.fps30, options: .recommended(for: .webm),
                                              audio: AudioEncoderOptions(sampleRate: 44_100))) { error in
            XCTAssertTrue("\(error)".contains("Opus"), "\(error)")
        }
        XCTAssertThrowsError(try VideoEncoder(url: dir.appendingPathComponent("a.webp"), format: .webp, width: 8, height: 8,
                                              frameRate: MediaTestSupport.fps30, options: .recommended(for: .webp),
                                              audio: AudioEncoderOptions())) { error in
            XCTAssertTrue("\(error)".contains("cannot hold audio"), "\(error)")
        }
    }

    func testAV1WhereAvailable() throws {
        guard VideoEncoderOptions.Codec.av1.isAvailable else { throw XCTSkip("no AV1 encoder in this FFmpeg") }
        let dir = try MediaTestSupport.scratchDirectory()
        let url = dir.appendingPathComponent("av1.mp4")
        let encoder = try VideoEncoder(url: url, format: .mp4, width: 320, height: 240, frameRate: MediaTestSupport.fps30,
                                       options: VideoEncoderOptions(codec: .av1, crf: 30, preset: "ultrafast"))
        for k in 0..<6 { try encoder.append(MediaTestSupport.movingSquare(frame: k)) }
        try encoder.finish()
        let stream = try MediaTestSupport.ffprobeVideoStream(url)
        XCTAssertEqual(stream["codec_name"] as? String, "av1")
        XCTAssertEqual(stream["nb_read_frames"] as? String, "6")
        XCTAssertEqual(stream["color_primaries"] as? String, "bt709")
        let decoded = try MediaTestSupport.decodeFrame(url, index: 3)
        XCTAssertGreaterThan(MediaTestSupport.psnrRGB(decoded, MediaTestSupport.movingSquare(frame: 3).pixels), 32)
    }
}
