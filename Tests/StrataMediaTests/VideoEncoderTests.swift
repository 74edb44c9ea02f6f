// Checks the video encoder stage against the ffprobe/ffmpeg command-line tools: codec, pixel
// format, BT.709 tags, exact frame count and duration, pixel fidelity (PSNR), faststart layout,
// colour accuracy of pure red, compositing of translucent pixels over black, the other codecs
// and containers, and the errors for bad paths, odd sizes and impossible combinations.
import Foundation
import XCTest
import StrataMedia

final class VideoEncoderTests: XCTestCase {
    private func encodeMovingSquare(to url: URL, format: ContainerFormat = .mp4, frames: Int = 30,
                                    options: VideoEncoderOptions = VideoEncoderOptions()) throws {
        let encoder = try VideoEncoder(url: url, format: format, width: 320, height: 240,
                                       frameRate: MediaTestSupport.fps30, options: options)
        for k in 0..<frames { try encoder.append(MediaTestSupport.movingSquare(frame: k)) }
        XCTAssertEqual(encoder.frameCount, frames)
        try encoder.finish()
    }

    func testMP4StreamPropertiesFrameCountAndDuration() throws {
        let dir = try MediaTestSupport.scratchDirectory()
        // A name without a video extension: the format must come from the argument, not the name.
        let url = dir.appendingPathComponent("out.partial")
        try encodeMovingSquare(to: url)

        let stream = try MediaTestSupport.ffprobeVideoStream(url)
        XCTAssertEqual(stream["codec_name"] as? String, "h264")
        XCTAssertEqual(stream["pix_fmt"] as? String, "yuv420p")
        XCTAssertEqual(stream["width"] as? Int, 320)
        XCTAssertEqual(stream["height"] as? Int, 240)
        XCTAssertEqual(stream["color_primaries"] as? String, "bt709")
        XCTAssertEqual(stream["color_transfer"] as? String, "bt709")
        XCTAssertEqual(stream["color_space"] as? String, "bt709")
        XCTAssertEqual(stream["color_range"] as? String, "tv")
        XCTAssertEqual(stream["avg_frame_rate"] as? String, "30/1")
        XCTAssertEqual(stream["nb_read_frames"] as? String, "30")
        let duration = Double(stream["duration"] as? String ?? "") ?? -1
        XCTAssertEqual(duration, 1.0, accuracy: 1e-3, "30 frames at 30 fps must last exactly 1 s")
    }

    func testMP4FrameTenDecodesWithPSNRAtLeast38dB() throws {
        let dir = try MediaTestSupport.scratchDirectory()
        let url = dir.appendingPathComponent("out.mp4")
        try encodeMovingSquare(to: url)
        let decoded = try MediaTestSupport.decodeFrame(url, index: 10)
        let source = MediaTestSupport.movingSquare(frame: 10).pixels
        XCTAssertEqual(decoded.count, source.count)
        let psnr = MediaTestSupport.psnrRGB(decoded, source)
        XCTAssertGreaterThanOrEqual(psnr, 38, "PSNR of frame 10 is \(psnr) dB")
        // The square sits at x 96..<160, y 80..<144 in frame 10: its centre must be the square's colour.
        let i = (112 * 320 + 128) * 4
        XCTAssertEqual(Double(decoded[i]), 240, accuracy: 4)
        XCTAssertEqual(Double(decoded[i + 1]), 200, accuracy: 4)
        XCTAssertEqual(Double(decoded[i + 2]), 40, accuracy: 4)
    }

    func testMP4IsFaststartMoovBeforeMdat() throws {
        let dir = try MediaTestSupport.scratchDirectory()
        let url = dir.appendingPathComponent("out.mp4")
        try encodeMovingSquare(to: url, frames: 10)
        let data = try Data(contentsOf: url)
        let moov = try XCTUnwrap(MediaTestSupport.offset(of: "moov", in: data))
        let mdat = try XCTUnwrap(MediaTestSupport.offset(of: "mdat", in: data))
        XCTAssertLessThan(moov, mdat, "moov at \(moov) must precede mdat at \(mdat)")
        XCTAssertLessThan(moov, 64, "moov should follow ftyp directly")
    }

    func testPureRedDecodesBackToRed() throws {
        let dir = try MediaTestSupport.scratchDirectory()
        let url = dir.appendingPathComponent("red.mp4")
        let encoder = try VideoEncoder(url: url, format: .mp4, width: 64, height: 64,
                                       frameRate: MediaTestSupport.fps30, options: VideoEncoderOptions())
        for _ in 0..<3 { try encoder.append(.filled(width: 64, height: 64, red: 255, green: 0, blue: 0)) }
        try encoder.finish()
        let rgb = try MediaTestSupport.decodeFrame(url, index: 1, pixelFormat: "rgb24")
        XCTAssertEqual(rgb.count, 64 * 64 * 3)
        let centre = (32 * 64 + 32) * 3
        // Tolerance 3 levels: 8-bit limited-range YUV cannot hold pure red exactly.
        XCTAssertEqual(Double(rgb[centre]), 255, accuracy: 3)
        XCTAssertEqual(Double(rgb[centre + 1]), 0, accuracy: 3)
        XCTAssertEqual(Double(rgb[centre + 2]), 0, accuracy: 3)
    }

    func testTranslucentPixelsAreCompositedOverBlack() throws {
        let dir = try MediaTestSupport.scratchDirectory()
        let url = dir.appendingPathComponent("half.mp4")
        let encoder = try VideoEncoder(url: url, format: .mp4, width: 32, height: 32,
                                       frameRate: MediaTestSupport.fps30, options: VideoEncoderOptions())
        // Straight (255, 255, 255) at alpha 128: premultiplied (128, 128, 128).
        try encoder.append(.filled(width: 32, height: 32, red: 255, green: 255, blue: 255, alpha: 128))
        try encoder.finish()
        let rgb = try MediaTestSupport.decodeFrame(url, index: 0, pixelFormat: "rgb24")
        let centre = (16 * 32 + 16) * 3
        for c in 0..<3 { XCTAssertEqual(Double(rgb[centre + c]), 128, accuracy: 3) }
    }

    func testRationalFrameRateKeepsExactTimestamps() throws {
        let dir = try MediaTestSupport.scratchDirectory()
        let url = dir.appendingPathComponent("ntsc.mov")
        let rate = FrameRate(numerator: 30000, denominator: 1001)!
        let encoder = try VideoEncoder(url: url, format: .mov, width: 64, height: 48, frameRate: rate,
                                       options: VideoEncoderOptions(preset: "ultrafast"))
        for k in 0..<30 { try encoder.append(.filled(width: 64, height: 48, red: UInt8(k * 8), green: 0, blue: 0)) }
        try encoder.finish()
        let stream = try MediaTestSupport.ffprobeVideoStream(url)
        XCTAssertEqual(stream["avg_frame_rate"] as? String, "30000/1001")
        XCTAssertEqual(stream["nb_read_frames"] as? String, "30")
        XCTAssertEqual(Double(stream["duration"] as? String ?? "") ?? -1, 1.001, accuracy: 1e-3)
    }

    func testWebMWithVP9() throws {
        let dir = try MediaTestSupport.scratchDirectory()
        let url = dir.appendingPathComponent("out.webm")
        try encodeMovingSquare(to: url, format: .webm, frames: 10,
                               options: VideoEncoderOptions.recommended(for: .webm))
        let stream = try MediaTestSupport.ffprobeVideoStream(url)
        XCTAssertEqual(stream["codec_name"] as? String, "vp9")
        XCTAssertEqual(stream["pix_fmt"] as? String, "yuv420p")
        XCTAssertEqual(stream["nb_read_frames"] as? String, "10")
        let psnr = MediaTestSupport.psnrRGB(try MediaTestSupport.decodeFrame(url, index: 5),
                                            MediaTestSupport.movingSquare(frame: 5).pixels)
        XCTAssertGreaterThanOrEqual(psnr, 36, "VP9 PSNR of frame 5 is \(psnr) dB")
    }

    func testAlphaFormatsKeepStraightAlpha() throws {
        let dir = try MediaTestSupport.scratchDirectory()
        // Straight (255, 128, 0) at alpha 128, premultiplied on the way in; the encoder must
        // un-premultiply it for formats with an alpha plane.
        let frame = Bitmap.filled(width: 32, height: 32, red: 255, green: 128, blue: 0, alpha: 128)
        let cases: [(ContainerFormat, VideoEncoderOptions, [String])] = [
            (.webm, VideoEncoderOptions(codec: .vp9, pixelFormat: .yuva420p), ["-c:v", "libvpx-vp9"]),
            (.mov, VideoEncoderOptions(codec: .prores, pixelFormat: .yuva444p10), []),
        ]
        for (format, options, decoder) in cases {
            let url = dir.appendingPathComponent("alpha.\(format)")
            let encoder = try VideoEncoder(url: url, format: format, width: 32, height: 32,
                                           frameRate: MediaTestSupport.fps30, options: options)
            for _ in 0..<3 { try encoder.append(frame) }
            try encoder.finish()
            let rgba = [UInt8](try MediaTestSupport.run("ffmpeg", ["-v", "error"] + decoder + ["-i", url.path, "-frames:v", "1",
                                                                  "-f", "rawvideo", "-pix_fmt", "rgba", "-"]))
            XCTAssertEqual(rgba.count, 32 * 32 * 4)
            let centre = (16 * 32 + 16) * 4
            // Tolerance 4 levels: 8/10-bit YUV rounding plus the 1/128 step of un-premultiplying.
            XCTAssertEqual(Double(rgba[centre]), 255, accuracy: 4, "\(format) red")
            XCTAssertEqual(Double(rgba[centre + 1]), 128, accuracy: 4, "\(format) green")
            XCTAssertEqual(Double(rgba[centre + 2]), 0, accuracy: 4, "\(format) blue")
            XCTAssertEqual(Double(rgba[centre + 3]), 128, accuracy: 4, "\(format) alpha")
        }
    }

    func testProResInMOVAndHEVCInMP4() throws {
        let dir = try MediaTestSupport.scratchDirectory()
        let prores = dir.appendingPathComponent("out.mov")
        try encodeMovingSquare(to: prores, format: .mov, frames: 4,
                               options: VideoEncoderOptions(codec: .prores, pixelFormat: .yuv422p10))
        let proresStream = try MediaTestSupport.ffprobeVideoStream(prores)
        XCTAssertEqual(proresStream["codec_name"] as? String, "prores")
        XCTAssertEqual(proresStream["pix_fmt"] as? String, "yuv422p10le")
        XCTAssertEqual(proresStream["nb_read_frames"] as? String, "4")

        let hevc = dir.appendingPathComponent("out.mp4")
        try encodeMovingSquare(to: hevc, format: .mp4, frames: 4,
                               options: VideoEncoderOptions(codec: .hevc, preset: "ultrafast"))
        let hevcStream = try MediaTestSupport.ffprobeVideoStream(hevc)
        XCTAssertEqual(hevcStream["codec_name"] as? String, "hevc")
        XCTAssertEqual(hevcStream["codec_tag_string"] as? String, "hvc1")
        XCTAssertEqual(hevcStream["color_space"] as? String, "bt709")
        XCTAssertEqual(hevcStream["nb_read_frames"] as? String, "4")
    }

    func testUnwritablePathThrowsNamingThePath() throws {
        let path = "/nonexistent-strata-dir/sub/out.mp4"
        XCTAssertThrowsError(try VideoEncoder(url: URL(fileURLWithPath: path), format: .mp4, width: 64, height: 64,
                                              frameRate: MediaTestSupport.fps30, options: VideoEncoderOptions())) { error in
            XCTAssertEqual(error as? MediaError, .cannotWrite(path: path, reason: "No such file or directory"))
            XCTAssertEqual("\(error)", "cannot open \(path) for writing: No such file or directory")
        }
    }

    func testOddSizesAreRejectedForSubsampledFormatsAndAcceptedFor444() throws {
        let dir = try MediaTestSupport.scratchDirectory()
        let url = dir.appendingPathComponent("odd.mp4")
        XCTAssertThrowsError(try VideoEncoder(url: url, format: .mp4, width: 641, height: 360,
                                              frameRate: MediaTestSupport.fps30, options: VideoEncoderOptions())) { error in
            XCTAssertEqual("\(error)", "cannot encode \(url.path): width 641 must be even for yuv420p")
        }
        XCTAssertThrowsError(try VideoEncoder(url: url, format: .mp4, width: 640, height: 361,
                                              frameRate: MediaTestSupport.fps30, options: VideoEncoderOptions())) { error in
            XCTAssertEqual("\(error)", "cannot encode \(url.path): height 361 must be even for yuv420p")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: url.path), "a rejected encoder leaves no file behind")

        // 4:4:4 has no subsampling, so an odd size is fine there.
        let encoder = try VideoEncoder(url: url, format: .mp4, width: 33, height: 17, frameRate: MediaTestSupport.fps30,
                                       options: VideoEncoderOptions(preset: "ultrafast", pixelFormat: .yuv444p))
        try encoder.append(.filled(width: 33, height: 17, red: 0, green: 128, blue: 255))
        try encoder.finish()
        let stream = try MediaTestSupport.ffprobeVideoStream(url)
        XCTAssertEqual(stream["width"] as? Int, 33)
        XCTAssertEqual(stream["height"] as? Int, 17)
        XCTAssertEqual(stream["pix_fmt"] as? String, "yuv444p")
    }

    func testImpossibleCombinationsAndMisuseThrowClearErrors() throws {
        let dir = try MediaTestSupport.scratchDirectory()
        let webm = dir.appendingPathComponent("x.webm")
        XCTAssertThrowsError(try VideoEncoder(url: webm, format: .webm, width: 64, height: 64,
                                              frameRate: MediaTestSupport.fps30, options: VideoEncoderOptions())) { error in
            XCTAssertEqual("\(error)", "cannot encode \(webm.path): WebM files cannot hold h264 video (use codec .vp9)")
        }
        let gif = dir.appendingPathComponent("x.gif")
        XCTAssertThrowsError(try VideoEncoder(url: gif, format: .gif, width: 64, height: 64,
                                              frameRate: MediaTestSupport.fps30, options: VideoEncoderOptions())) { error in
            XCTAssertEqual(error as? MediaError,
                           .unsupportedCombination(path: gif.path, reason: "GIF files are written by GIFEncoder, not VideoEncoder"))
        }
        let mp4 = dir.appendingPathComponent("x.mp4")
        XCTAssertThrowsError(try VideoEncoder(url: mp4, format: .mp4, width: 64, height: 64, frameRate: MediaTestSupport.fps30,
                                              options: VideoEncoderOptions(preset: "fastest"))) { error in
            XCTAssertTrue("\(error)".contains("unknown preset \"fastest\""), "\(error)")
        }
        let encoder = try VideoEncoder(url: mp4, format: .mp4, width: 64, height: 64,
                                       frameRate: MediaTestSupport.fps30, options: VideoEncoderOptions())
        XCTAssertThrowsError(try encoder.append(Bitmap(width: 32, height: 32))) { error in
            XCTAssertEqual("\(error)", "cannot encode \(mp4.path): frame 0 is 32×32 but the encoder was created for 64×64")
        }
        XCTAssertThrowsError(try encoder.finish()) { error in
            XCTAssertEqual(error as? MediaError, .noFrames(path: mp4.path))
        }
        XCTAssertThrowsError(try encoder.append(Bitmap(width: 64, height: 64))) { error in
            XCTAssertEqual(error as? MediaError, .alreadyFinished(path: mp4.path))
        }
    }

    /// `encoderThreads` and `lookahead` reach x264: its option string (an SEI in the stream)
    /// names them; the default keeps medium's lookahead of 40 and three threads; a lookahead
    /// outside 0...250 is refused, naming it.
    func testThreadsAndLookaheadReachX264() throws {
        let dir = try MediaTestSupport.scratchDirectory()
        func x264Options(_ options: VideoEncoderOptions) throws -> String {
            let url = dir.appendingPathComponent("settings.mp4")
            try encodeMovingSquare(to: url, frames: 8, options: options)
            let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
            let start = try XCTUnwrap(text.range(of: "options: "))
            return String(text[start.upperBound...].prefix { $0 != "\0" })
        }
        let defaults = try x264Options(VideoEncoderOptions())
        XCTAssertTrue(defaults.contains(" threads=3 ") && defaults.contains(" rc_lookahead=40 "), defaults)
        var batch = VideoEncoderOptions()
        batch.encoderThreads = 1
        batch.lookahead = 12
        let chosen = try x264Options(batch)
        XCTAssertTrue(chosen.contains(" threads=1 ") && chosen.contains(" rc_lookahead=12 "), chosen)
        // Only these two differ: preset and quality stay as they were.
        let others = { (s: String) in s.split(separator: " ").filter { !$0.hasPrefix("threads=") && !$0.hasPrefix("rc_lookahead=") } }
        XCTAssertEqual(others(chosen), others(defaults))
        batch.lookahead = 251
        let url = dir.appendingPathComponent("bad.mp4")
        XCTAssertThrowsError(try VideoEncoder(url: url, format: .mp4, width: 64, height: 64, frameRate: MediaTestSupport.fps30,
                                              options: batch)) { error in
            XCTAssertEqual(error as? MediaError, .invalidOption(path: url.path, reason: "lookahead 251 must be within 0...250 frames"))
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: url.path))
    }

    func testContainerFormatFromPathExtension() {
        XCTAssertEqual(ContainerFormat(pathExtension: "mp4"), .mp4)
        XCTAssertEqual(ContainerFormat(pathExtension: "MOV"), .mov)
        XCTAssertEqual(ContainerFormat(pathExtension: "webm"), .webm)
        XCTAssertEqual(ContainerFormat(pathExtension: "gif"), .gif)
        XCTAssertEqual(ContainerFormat(pathExtension: "m4v"), .mp4)
        XCTAssertNil(ContainerFormat(pathExtension: "avi"))
        XCTAssertEqual(VideoEncoderOptions().resolvedKeyframeInterval(frameRate: MediaTestSupport.fps30), 60)
        XCTAssertEqual(VideoEncoderOptions().resolvedKeyframeInterval(frameRate: FrameRate(numerator: 30000, denominator: 1001)!), 60)
        XCTAssertEqual(VideoEncoderOptions.recommended(for: .webm).codec, .vp9)
        XCTAssertEqual(VideoEncoderOptions.recommended(for: .mp4).codec, .h264)
    }

    func testMediaProbeReportsWhatWasWritten() throws {
        let dir = try MediaTestSupport.scratchDirectory()
        let url = dir.appendingPathComponent("probe.mp4")
        try encodeMovingSquare(to: url)
        let probe = try MediaProbe(url: url)
        XCTAssertTrue(probe.formatName.contains("mp4"), probe.formatName)
        XCTAssertEqual(probe.streams.count, 1)
        let video = try XCTUnwrap(probe.videoStream)
        XCTAssertEqual(video.codecName, "h264")
        XCTAssertEqual(video.width, 320)
        XCTAssertEqual(video.height, 240)
        XCTAssertEqual(video.pixelFormat, "yuv420p")
        XCTAssertEqual(video.frameRate, MediaTestSupport.fps30)
        XCTAssertEqual(video.frameCount, 30)
        XCTAssertEqual(video.colorSpace, "bt709")
        XCTAssertEqual(video.colorRange, "tv")
        XCTAssertEqual(try XCTUnwrap(video.duration), 1.0, accuracy: 1e-3)

        let missing = dir.appendingPathComponent("missing.mp4")
        XCTAssertThrowsError(try MediaProbe(url: missing)) { error in
            XCTAssertEqual("\(error)", "cannot open \(missing.path) for reading: No such file or directory")
        }
    }
}

/// An encoder writing straight to a device (not through Scene.export's temporary file) never
/// removes it when it gives up on the output: only a file it created is removed.
final class EncoderDeviceDestinationTests: XCTestCase {
    func testAnEncoderGivingUpLeavesADeviceInPlace() throws {
        guard getuid() == 0 else { throw XCTSkip("skipped: making a device node needs root") }
        let dir = try MediaTestSupport.scratchDirectory()
        let device = dir.appendingPathComponent("null.mp4")
        XCTAssertEqual(mknod(device.path, S_IFCHR | 0o666, (1 << 8) | 3), 0)  // char 1:3, as /dev/null
        func isDevice() -> Bool { var info = stat(); return stat(device.path, &info) == 0 && info.st_mode & S_IFMT == S_IFCHR }
        // Finished without frames: the encoders give up on the output and remove what they made.
        let video = try VideoEncoder(url: device, format: .mp4, width: 32, height: 32,
                                     frameRate: MediaTestSupport.fps30, options: VideoEncoderOptions())
        XCTAssertThrowsError(try video.finish())
        XCTAssertTrue(isDevice(), "the video encoder removed or replaced the device")
        let gif = try GIFEncoder(url: device, width: 8, height: 8, frameRate: MediaTestSupport.fps30)
        XCTAssertThrowsError(try gif.finish())
        XCTAssertTrue(isDevice(), "the GIF encoder removed or replaced the device")
    }
}
