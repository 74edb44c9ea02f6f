// What the encoder's memory savings must not change: YUV planes handed over by `appendYUV420` are
// read before it returns (the codec takes them in place, no copy of ours in between, so a caller
// may reuse them at once), and x264 run without its lookahead thread (`sync-lookahead=0`, which
// buffers four 1080p frames fewer) writes the bytes x264 writes with it, as the ffmpeg tool runs it.
import Foundation
import XCTest
import StrataMedia

final class VideoEncoderMemoryTests: XCTestCase {
    private let width = 320, height = 240

    /// Frame `k` as YUV 4:2:0: luma a diagonal ramp with a bright 48×48 block moving right and
    /// down, chroma a ramp and a level that change with k (so x264 has motion to find and
    /// B-frames to choose).
    private func planes(_ k: Int) -> (y: [UInt8], u: [UInt8], v: [UInt8]) {
        var y = [UInt8](repeating: 0, count: width * height)
        let bx = 8 + 6 * k, by = 20 + 3 * k
        for r in 0..<height {
            for c in 0..<width {
                let inBlock = c >= bx && c < bx + 48 && r >= by && r < by + 48
                y[r * width + c] = inBlock ? 220 : UInt8(16 + (c + r + 2 * k) % 200)
            }
        }
        let cw = width / 2, ch = height / 2
        var u = [UInt8](repeating: 0, count: cw * ch), v = u
        for r in 0..<ch {
            for c in 0..<cw {
                u[r * cw + c] = UInt8(64 + (c + k) % 128)
                v[r * cw + c] = UInt8(96 + (r + 2 * k) % 64)
            }
        }
        return (y, u, v)
    }

    private func encode(_ frames: Int, to url: URL, options: VideoEncoderOptions, reusingOneBuffer: Bool) throws {
        let encoder = try VideoEncoder(url: url, format: .mp4, width: width, height: height,
                                       frameRate: MediaTestSupport.fps30, options: options)
        XCTAssertTrue(encoder.takesYUV420)
        // One set of planes written over for every frame, or a fresh set per frame.
        var shared = planes(0)
        for k in 0..<frames {
            if reusingOneBuffer {
                let p = planes(k)
                shared.y.withUnsafeMutableBufferPointer { _ = $0.update(fromContentsOf: p.y) }
                shared.u.withUnsafeMutableBufferPointer { _ = $0.update(fromContentsOf: p.u) }
                shared.v.withUnsafeMutableBufferPointer { _ = $0.update(fromContentsOf: p.v) }
            } else {
                shared = planes(k)
            }
            try shared.y.withUnsafeBufferPointer { y in
                try shared.u.withUnsafeBufferPointer { u in
                    try shared.v.withUnsafeBufferPointer { v in
                        try encoder.appendYUV420(y: y.baseAddress!, u: u.baseAddress!, v: v.baseAddress!,
                                                 yStride: width, cStride: width / 2)
                    }
                }
            }
        }
        try encoder.finish()
    }

    /// The planes are read before `appendYUV420` returns: writing the next frame into the same
    /// buffer changes nothing of the file (x264 holds every frame for its lookahead and B-frames, so
    /// frames still pointed at would come out as the last one), and each frame decodes back to its
    /// own luma.
    func testPlanesMayBeReusedAsSoonAsAppendReturns() throws {
        let dir = try MediaTestSupport.scratchDirectory()
        var options = VideoEncoderOptions()
        options.preset = "veryfast"
        let fresh = dir.appendingPathComponent("fresh.mp4"), reused = dir.appendingPathComponent("reused.mp4")
        try encode(24, to: fresh, options: options, reusingOneBuffer: false)
        try encode(24, to: reused, options: options, reusingOneBuffer: true)
        XCTAssertEqual(try Data(contentsOf: fresh), try Data(contentsOf: reused))
        for k in [0, 7, 16, 23] {
            // Decoded as YUV 4:2:0 (limited range, as encoded): its luma plane comes first.
            let decoded = Array(try MediaTestSupport.decodeFrame(reused, index: k, pixelFormat: "yuv420p").prefix(width * height))
            let want = planes(k).y
            XCTAssertEqual(decoded.count, want.count)
            let error = zip(decoded, want).map { abs(Int($0) - Int($1)) }.reduce(0, +)
            let mean = Double(error) / Double(want.count)
            XCTAssertLessThan(mean, 2.0, "frame \(k): mean luma error \(mean)")
            // The block's centre is the block's level in this frame, not in another's.
            let centre = (20 + 3 * k + 24) * width + 8 + 6 * k + 24
            XCTAssertEqual(Double(decoded[centre]), 220, accuracy: 4, "frame \(k)")
        }
    }

    /// Strata's x264 (no lookahead thread) writes the H.264 stream the ffmpeg tool's x264 writes
    /// from the same frames with the same settings and its default lookahead thread, byte for byte.
    func testNoLookaheadThreadGivesX264sOwnBytes() throws {
        let dir = try MediaTestSupport.scratchDirectory()
        let frames = 40
        var options = VideoEncoderOptions()
        options.preset = "veryfast"
        let ours = dir.appendingPathComponent("strata.mp4")
        try encode(frames, to: ours, options: options, reusingOneBuffer: false)

        var raw = Data()
        for k in 0..<frames {
            let p = planes(k)
            raw.append(contentsOf: p.y); raw.append(contentsOf: p.u); raw.append(contentsOf: p.v)
        }
        let input = dir.appendingPathComponent("frames.yuv"), theirs = dir.appendingPathComponent("ffmpeg.mp4")
        try raw.write(to: input)
        // Strata keeps x264 off its AVX-512 kernels (VideoEncoder.codecSpecificOptions); the same here.
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let asm = cpuinfo.contains(" avx512f") ? ["-x264-params", "asm=AVX2"] : []
        _ = try MediaTestSupport.run("ffmpeg", ["-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "yuv420p",
                                                "-s", "\(width)x\(height)", "-r", "30", "-i", input.path,
                                                "-vf", "setsar=1", "-c:v", "libx264", "-preset", "veryfast", "-crf", "18",
                                                "-threads", "3", "-g", "60"] + asm
                                               + ["-color_primaries", "bt709", "-color_trc", "bt709", "-colorspace", "bt709",
                                                  "-color_range", "tv", theirs.path])
        func stream(_ url: URL) throws -> Data {
            try MediaTestSupport.run("ffmpeg", ["-v", "error", "-i", url.path, "-c:v", "copy", "-bsf:v", "h264_mp4toannexb",
                                                "-f", "h264", "-"])
        }
        let a = try stream(ours), b = try stream(theirs)
        XCTAssertGreaterThan(a.count, 1000)
        XCTAssertTrue(a == b, "H.264 streams differ: \(a.count) bytes against \(b.count)")
        // And the stream says what ran: three frame threads, veryfast's lookahead of 10.
        let text = String(decoding: a, as: UTF8.self)
        XCTAssertTrue(text.contains(" threads=3 ") && text.contains(" rc_lookahead=10 ") && text.contains(" bframes=3 "))
    }
}
