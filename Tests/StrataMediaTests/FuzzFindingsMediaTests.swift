// What fuzzing the media inputs found (scripts/fuzz.sh: image, media, gif), each reproducer kept
// as a test of the behaviour now; binary reproducers stay in Fuzz/Corpus/<target>/regress-*.
import Foundation
import Synchronization
import XCTest
@testable import StrataMedia

final class FuzzFindingsMediaTests: XCTestCase {
    /// A reproducer kept in the fuzz corpus.
    private func corpusFile(_ target: String, _ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/Corpus/\(target)/\(name)")
    }

    /// GIF options whose arithmetic overflowed (a trap): a frame rate with huge terms and
    /// everyNthFrame 3 (the fuzzer's input), everyNthFrame Int.max, and rates or start frames
    /// beyond what GIF delays can express. Each is now a clear error naming the file.
    func testGIFOptionsThatOverflowedAreErrors() throws {
        let dir = try MediaTestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("out.gif")
        func message(rate: FrameRate = MediaTestSupport.fps30, first: Int = 0, _ configure: (inout GIFEncoderOptions) -> Void) -> String {
            var options = GIFEncoderOptions()
            configure(&options)
            do {
                _ = try GIFEncoder(url: url, width: 8, height: 8, frameRate: rate, options: options, firstFrameIndex: first)
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        let hugeTerms = FrameRate(numerator: Int.max, denominator: Int.max - 30)!
        XCTAssertEqual(message(rate: hugeTerms) { $0.everyNthFrame = 3 },
                       "cannot encode \(url.path): frame rate 9223372036854775807/9223372036854775777 needs terms of at most 2147483647")
        XCTAssertEqual(message { $0.everyNthFrame = Int.max },
                       "cannot encode \(url.path): everyNthFrame 9223372036854775807 at 30 fps makes frames longer than a GIF frame can last (655.35 s)")
        XCTAssertEqual(message { $0.everyNthFrame = 20_000 },
                       "cannot encode \(url.path): everyNthFrame 20000 at 30 fps makes frames longer than a GIF frame can last (655.35 s)")
        XCTAssertEqual(message(rate: FrameRate(numerator: 1, denominator: 1000)!) { _ in },
                       "cannot encode \(url.path): frame rate 1/1000 fps makes frames longer than a GIF frame can last (655.35 s)")
        XCTAssertEqual(message { $0.frameRate = FrameRate(numerator: 1, denominator: Int.max) },
                       "cannot encode \(url.path): GIF frame rate 1/9223372036854775807 needs terms of at most 2147483647")
        XCTAssertEqual(message(first: Int.max) { _ in },
                       "cannot encode \(url.path): first frame index 9223372036854775807 is outside 0...1099511627776")
        XCTAssertEqual(message { $0.everyNthFrame = 0 }, "cannot encode \(url.path): everyNthFrame 0 must be at least 1")
        XCTAssertFalse(FileManager.default.fileExists(atPath: url.path), "a refused GIF leaves no file")

        // The limits themselves are accepted: a frame of exactly 655.35 s, and a chunk starting
        // at frame 2⁴⁰ (its delays computed without overflow).
        let slowest = FrameRate(numerator: 100, denominator: 65_535)!
        XCTAssertEqual(GIFEncoder.delay(ofFrame: 0, frameRate: slowest), 65_535)
        let encoder = try GIFEncoder(url: url, width: 8, height: 8, frameRate: FrameRate(numerator: 60_000, denominator: 1001)!,
                                     firstFrameIndex: GIFEncoder.maximumFrameIndex)
        try encoder.append(Bitmap(width: 8, height: 8))
        try encoder.finish()
        XCTAssertEqual(GIFEncoder.delay(ofFrame: GIFEncoder.maximumFrameIndex, frameRate: FrameRate(numerator: 60_000, denominator: 1001)!), 2)
        let stream = try MediaTestSupport.ffprobeVideoStream(url)
        XCTAssertEqual(stream["codec_name"] as? String, "gif")
    }

    /// A corrupt MJPEG AVI (a mutated seed) on which the decoder thread missed a request: it
    /// asked for a frame past the last decodable one while the thread was reading ahead to the
    /// end, the thread went back to waiting without looking at the request, and both threads
    /// waited for ever. The frames are now answered (the nearest decodable picture).
    func testAFrameRequestedWhileReadingAheadIsAnswered() throws {
        let url = corpusFile("media", "regress-lost-wakeup.avi")
        let answered = DispatchSemaphore(value: 0)
        let sizes = CollectedSizes()
        // The two threads meet at a moment that depends on timing: repeated to make it likely.
        let rounds = 100
        let thread = Thread {
            defer { answered.signal() }
            for _ in 0..<rounds {
                guard let source = try? FFmpegVideoSource(url: url, configuration: .init(lookahead: 2, keepBehind: 1)) else { return }
                let last = source.frameCount - 1
                for (index, size) in [(0, PixelSize(width: 16, height: 9)), (last, PixelSize(width: 7, height: 33)),
                                      (last / 2, PixelSize(width: 16, height: 9)), (1, PixelSize(width: 16, height: 9))] {
                    sizes.append((try? source.image(forFrame: index, size: size)).map { PixelSize(width: $0.width, height: $0.height) })
                }
            }
        }
        thread.start()
        // A guard against the old behaviour (both threads waiting), not a measurement.
        XCTAssertEqual(answered.wait(timeout: .now() + 120), .success, "the frame requests were not answered")
        let expected = [PixelSize(width: 16, height: 9), PixelSize(width: 7, height: 33),
                        PixelSize(width: 16, height: 9), PixelSize(width: 16, height: 9)]
        let values = sizes.values
        XCTAssertEqual(values.count, 4 * rounds, "requests answered")
        for r in 0..<values.count / 4 where Array(values[4 * r..<4 * r + 4]) != expected {
            XCTFail("round \(r): \(values[4 * r..<4 * r + 4])")
            break
        }
    }
}

extension FuzzFindingsMediaTests {
    /// Found reviewing what the media target can reach: libavformat picks the demuxer from the
    /// content, so a "clip.mp4" that is an HLS playlist or a concat list made Strata read the
    /// files it names, such as ../secret.mp4 outside a template's folder. Such files are refused,
    /// with a reason that says what they are; ordinary files open as before.
    func testPlaylistsThatNameOtherFilesAreRefused() throws {
        let dir = try MediaTestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let secret = dir.appendingPathComponent("secret.mp4")
        try FileManager.default.copyItem(at: corpusFile("media", "h264.mp4"), to: secret)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("inner"), withIntermediateDirectories: true)
        let playlist = dir.appendingPathComponent("inner/clip.mp4")
        try "#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\n../secret.mp4\n#EXT-X-ENDLIST\n".write(to: playlist, atomically: true, encoding: .utf8)
        let list = dir.appendingPathComponent("inner/list.mov")
        try "ffconcat version 1.0\nfile ../secret.mp4\n".write(to: list, atomically: true, encoding: .utf8)
        for (url, kind) in [(playlist, "an HLS playlist"), (list, "an FFmpeg concat list")] {
            let expected = "cannot open \(url.path) for reading: it is \(kind), which names other files to read; "
                + "Strata opens self-contained media files only"
            XCTAssertThrowsError(try MediaProbe(url: url)) { XCTAssertEqual("\($0)", expected) }
            XCTAssertThrowsError(try FFmpegVideoSource(url: url)) { XCTAssertEqual("\($0)", expected) }
            XCTAssertThrowsError(try AudioDecoder(url: url)) { XCTAssertEqual("\($0)", expected) }
        }
        let probe = try MediaProbe(url: secret)
        XCTAssertEqual(probe.videoStream?.codecName, "h264")
        XCTAssertEqual(try FFmpegVideoSource(url: secret).frameCount, 3)
    }
}

extension FuzzFindingsMediaTests {
    /// Found reviewing the audio decoder's arithmetic for the media target: an audio stream that
    /// starts after the time sought was padded by appending that much silence to a buffer, so a
    /// track starting 10 hours into the file asked for 1.7 billion stereo floats (14 GB) at the
    /// first read. The silence is now counted, not stored; the samples are as before.
    func testAudioStartingHoursLaterIsPaddedWithoutStoringTheSilence() throws {
        let dir = try MediaTestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("late.mkv")
        _ = try MediaTestSupport.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "color=size=16x16:rate=5:d=1",
                                                "-itsoffset", "36000", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=0.5",
                                                "-map", "0", "-map", "1", "-c:v", "mpeg4", "-c:a", "pcm_s16le", url.path])
        let audio = try AudioDecoder(url: url, sampleRate: 48_000, channels: 1)
        var samples = [Float](repeating: 1, count: 4800)
        let read = try samples.withUnsafeMutableBufferPointer { try audio.read(into: $0, frames: 4800) }
        XCTAssertEqual(read, 4800)
        XCTAssertEqual(samples.filter { $0 != 0 }.count, 0, "the first 0.1 s is silence")
        // 0.05 s before the tone: 2400 frames of silence, then the sine (lavfi's amplitude is 1/8).
        try audio.start(at: 36_000 - 0.05)
        samples = [Float](repeating: 1, count: 4800)
        let readLater = try samples.withUnsafeMutableBufferPointer { try audio.read(into: $0, frames: 4800) }
        XCTAssertEqual(readLater, 4800)
        XCTAssertEqual(samples[..<2400].filter { $0 != 0 }.count, 0)
        XCTAssertEqual(Double(samples[2400...].map(abs).max() ?? 0), 0.125, accuracy: 0.002)
    }

    /// Found by the media target: a WAV header claiming 536 878 912 Hz kept swr_init building
    /// filters for 11 s (a timeout). Rates above 768 kHz are now refused, naming the file.
    func testAudioWithAnAbsurdSampleRateIsRefused() throws {
        let url = corpusFile("media", "regress-sample-rate-537MHz.wav")
        XCTAssertThrowsError(try AudioDecoder(url: url, sampleRate: 48_000, channels: 2)) { error in
            let message = "\(error)"
            XCTAssertTrue(message.contains("regress-sample-rate-537MHz.wav"), message)
            XCTAssertTrue(message.contains("536878912 Hz is outside 1 Hz…768 kHz"), message)
        }
        XCTAssertEqual(AudioDecoder.maximumSampleRate, 768_000)
    }

    /// Found by the media target: a VP9 MKV declaring 1816×16899 frames (31 Mpx each) that the
    /// probe decoded while finding stream information — 1 s an input, 10 s under ASan's
    /// quarantine. Video frames are now limited per side like images (MediaLimits, the CLI's
    /// `--limit video-size=N`), checked against what the container declares before any frame is
    /// decoded (here: after the stream information, which holds the size), so the probe and the
    /// frame source refuse the file.
    func testVideoLargerThanTheLimitIsRefusedBeforeDecoding() throws {
        let url = corpusFile("media", "regress-vp9-1816x16899.mkv")
        let expected = "the video is 1816×16899 pixels; at most 16384 per side is allowed"
        func assertRefused(_ body: () throws -> Void, line: UInt = #line) {
            XCTAssertThrowsError(try body(), line: line) { error in
                XCTAssertEqual("\(error)", MediaError.cannotRead(path: url.path, reason: expected).description, line: line)
            }
        }
        assertRefused { _ = try MediaProbe(url: url) }
        assertRefused { _ = try FFmpegVideoSource(url: url) }

        // The limit can be raised (and lowered): a 64×48 clip under a limit of 48 and of 64.
        let dir = try MediaTestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let clip = dir.appendingPathComponent("clip.mp4")
        _ = try MediaTestSupport.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "color=red:size=64x48:rate=5:d=0.4",
                                                "-c:v", "mpeg4", clip.path])
        XCTAssertThrowsError(try FFmpegVideoSource(url: clip, limits: MediaLimits(videoSize: 48))) { error in
            XCTAssertTrue("\(error)".contains("the video is 64×48 pixels; at most 48 per side is allowed"), "\(error)")
        }
        // Cover art is never decoded, so it is not held against the limit: the audio opens.
        let song = dir.appendingPathComponent("song.m4a")
        _ = try MediaTestSupport.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=0.3",
                                                "-f", "lavfi", "-i", "color=red:size=64x48:d=0.04", "-frames:v", "1",
                                                "-map", "0", "-map", "1", "-c:a", "aac", "-c:v", "mjpeg",
                                                "-disposition:v", "attached_pic", song.path])
        let audio = try AudioDecoder(url: song, sampleRate: 48_000, channels: 1, limits: MediaLimits(videoSize: 48))
        var samples = [Float](repeating: 0, count: 4800)
        XCTAssertEqual(try samples.withUnsafeMutableBufferPointer { try audio.read(into: $0, frames: 4800) }, 4800)
        XCTAssertGreaterThan(samples.map(abs).max() ?? 0, 0.05)

        XCTAssertThrowsError(try MediaProbe(url: clip, limits: MediaLimits(videoSize: 48)))
        let source = try FFmpegVideoSource(url: clip, limits: MediaLimits(videoSize: 64))
        XCTAssertEqual(source.naturalSize, PixelSize(width: 64, height: 48))
        XCTAssertEqual(source.frameCount, 2)
    }

    /// Found by the media target (LeakSanitizer, `regress-thread-outlives-source`): after a video
    /// source was released, its decoder thread still held the worker and decoder for a moment —
    /// Foundation's Thread keeps its block until after it returns, and cannot be joined. The
    /// thread is now a joined POSIX thread, so releasing a source releases everything at once:
    /// the count of live workers is back to where it was the moment the last source goes.
    func testReleasingASourceReleasesItsDecoderThreadAtOnce() throws {
        let before = FFmpegVideoSource.liveWorkerCount
        for name in ["regress-thread-outlives-source", "h264.mp4", "mjpeg.avi"] {
            for round in 0..<10 {
                var source: FFmpegVideoSource? = try FFmpegVideoSource(url: corpusFile("media", name))
                XCTAssertEqual(FFmpegVideoSource.liveWorkerCount, before + 1, "\(name), round \(round)")
                _ = try? source?.image(forFrame: round % 3, size: PixelSize(width: 16, height: 12))
                source = nil
                XCTAssertEqual(FFmpegVideoSource.liveWorkerCount, before, "\(name), round \(round): the worker outlived its source")
            }
        }
    }
}

/// Sizes collected on another thread.
private final class CollectedSizes: Sendable {
    private let list = Mutex<[PixelSize?]>([])
    var values: [PixelSize?] { list.withCheckedLock { $0 } }
    func append(_ size: PixelSize?) { list.withCheckedLock { $0.append(size) } }
}
