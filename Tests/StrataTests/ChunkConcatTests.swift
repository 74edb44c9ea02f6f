// Chunked rendering and `strata concat`, end to end through the CLI: the built-in demo rendered
// whole and in three chunks (`--frames`), the chunks joined without re-encoding, and the joined
// file checked by ffprobe (streams, frame count, duration) and decoded back by ffmpeg (framemd5)
// against the whole render. Bad joins name the part and leave no file behind.
import Foundation
import XCTest

final class ChunkConcatTests: XCTestCase {
    /// 160×90, 2 s at 30 fps: 60 frames, in chunks of 20 on a keyframe interval of 20.
    let common = ["--size", "160x90", "--duration", "2", "--keyframe-interval", "20"]
    let chunks = [(0, 19), (20, 39), (40, 59)]

    private func strata(_ arguments: [String]) throws -> ProcessResult {
        try runProcess(strataExecutable, arguments)
    }

    private func render(_ out: URL, frames: (Int, Int)? = nil, extra: [String] = []) throws {
        var args = ["render"] + common + extra + ["-o", out.path]
        if let frames { args += ["--frames", "\(frames.0)..\(frames.1)"] }
        let r = try strata(args)
        XCTAssertEqual(r.status, 0, "strata \(args.joined(separator: " ")): \(r.stderr)")
    }

    /// ffmpeg's decoded frames: one "stream, dts, pts, duration, size, md5" line per frame.
    private func framemd5(_ url: URL) throws -> [String] {
        let r = try runProcess("ffmpeg", ["-v", "error", "-i", url.path, "-f", "framemd5", "-"])
        XCTAssertEqual(r.status, 0, r.stderr)
        return r.text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
    }

    private func videoStream(_ url: URL) throws -> [String: Any] {
        let info = try ffprobe(url, ["-count_frames", "-show_streams", "-show_format"])
        let streams = info["streams"] as? [[String: Any]] ?? []
        XCTAssertEqual(streams.count, 1, "\(url.lastPathComponent) holds one stream")
        var stream = try XCTUnwrap(streams.first)
        stream["format"] = info["format"]
        return stream
    }

    private func double(_ any: Any?) -> Double { Double(any as? String ?? "") ?? .nan }

    private func leftovers(_ dir: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains("partial") || $0.hasPrefix("joined") }
    }

    func testVideoChunksJoinIntoTheWholeRender() throws {
        for ext in ["mp4", "mov", "webm"] {
            let dir = try temporaryFolder()
            let full = dir.appendingPathComponent("full.\(ext)")
            try render(full)
            var parts: [URL] = []
            for (a, b) in chunks {
                let part = dir.appendingPathComponent("chunk\(a).\(ext)")
                try render(part, frames: (a, b))
                parts.append(part)
                // Each chunk: its 20 frames, starting at its own first frame's time, with a keyframe.
                let s = try videoStream(part)
                XCTAssertEqual(s["nb_read_frames"] as? String, "20", "\(ext) chunk \(a)")
                XCTAssertEqual(double(s["start_time"]), Double(a) / 30, accuracy: ext == "webm" ? 0.001 : 1e-6, "\(ext) chunk \(a) start")
                let packets = try runProcess("ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "packet=flags",
                                                         "-of", "csv=p=0", "-read_intervals", "%+#1", part.path])
                XCTAssertTrue(packets.text.hasPrefix("K"), "\(ext) chunk \(a) starts with a keyframe: \(packets.text)")
            }
            let joined = dir.appendingPathComponent("joined.\(ext)")
            let r = try strata(["concat"] + parts.map(\.path) + ["-o", joined.path])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertTrue(r.text.contains("60 frames from 3 parts"), r.text)

            let s = try videoStream(joined)
            XCTAssertEqual(s["codec_name"] as? String, ext == "webm" ? "vp9" : "h264")
            XCTAssertEqual(s["nb_read_frames"] as? String, "60")
            XCTAssertEqual(s["r_frame_rate"] as? String, "30/1")
            XCTAssertEqual(double(s["start_time"]), 0, accuracy: 1e-9)
            let format = try XCTUnwrap(s["format"] as? [String: Any])
            XCTAssertEqual(format["nb_streams"] as? Int, 1)
            XCTAssertEqual(double(format["duration"]), 2, accuracy: 1e-6)
            // Decoded back: the same frames (and times) as the whole render.
            let wholeFrames = try framemd5(full)
            XCTAssertEqual(wholeFrames.count, 60)
            XCTAssertEqual(try framemd5(joined), wholeFrames, "\(ext): joined chunks decode to the whole render's frames")
            // Each interval is encoded alone, so the packets are the whole render's too.
            XCTAssertEqual(try Data(contentsOf: joined), try Data(contentsOf: full), "\(ext): joined file equals the whole render")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains("partial") }, [])
        }
    }

    func testGIFChunksJoinIntoTheWholeRender() throws {
        let dir = try temporaryFolder()
        let full = dir.appendingPathComponent("full.gif")
        try render(full)
        var parts: [URL] = []
        for (a, b) in chunks {
            let part = dir.appendingPathComponent("chunk\(a).gif")
            try render(part, frames: (a, b))
            parts.append(part)
        }
        let joined = dir.appendingPathComponent("joined.gif")
        let r = try strata(["concat"] + parts.map(\.path) + ["-o", joined.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let s = try videoStream(joined)
        XCTAssertEqual(s["codec_name"] as? String, "gif")
        XCTAssertEqual(s["nb_read_frames"] as? String, "60")
        XCTAssertEqual(double((s["format"] as? [String: Any])?["duration"]), 2, accuracy: 0.011)
        let wholeFrames = try framemd5(full)
        XCTAssertEqual(wholeFrames.count, 60)
        XCTAssertEqual(try framemd5(joined), wholeFrames, "joined GIF chunks decode to the whole render's frames")
        // The loop count appears once; the later chunks' palettes travel as local colour tables.
        let bytes = try Data(contentsOf: joined)
        var loops = 0, from = bytes.startIndex
        while let hit = bytes.range(of: Data("NETSCAPE2.0".utf8), in: from..<bytes.endIndex) { loops += 1; from = hit.upperBound }
        XCTAssertEqual(loops, 1)
        XCTAssertEqual(bytes, try Data(contentsOf: full), "joined GIF equals the whole render")
    }

    func testChunkOffTheKeyframeGridStillJoinsButSaysSo() throws {
        let dir = try temporaryFolder()
        let a = dir.appendingPathComponent("a.mp4"), b = dir.appendingPathComponent("b.mp4")
        let first = try strata(["render", "--size", "160x90", "--duration", "1", "--frames", "0..9", "-o", a.path])
        XCTAssertEqual(first.status, 0, first.stderr)
        let second = try strata(["render", "--size", "160x90", "--duration", "1", "--frames", "10..29", "-o", b.path])
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertTrue(second.stderr.contains("does not start on a multiple of the keyframe interval 60"), second.stderr)
        let joined = dir.appendingPathComponent("joined.mp4")
        XCTAssertEqual(try strata(["concat", a.path, b.path, "-o", joined.path]).status, 0)
        let s = try videoStream(joined)
        XCTAssertEqual(s["nb_read_frames"] as? String, "30")
        XCTAssertEqual(double((s["format"] as? [String: Any])?["duration"]), 1, accuracy: 1e-6)
    }

    func testBadJoinsNameThePartExitOneAndLeaveNothing() throws {
        let dir = try temporaryFolder()
        func file(_ name: String) -> URL { dir.appendingPathComponent(name) }
        // Short parts: these only have to be valid files.
        let short = ["--duration", "0.5"]
        try render(file("a.mp4"), frames: (0, 4), extra: short)
        try render(file("b.mp4"), frames: (5, 9), extra: short)
        try render(file("big.mp4"), frames: (5, 9), extra: short + ["--size", "320x180"])
        try render(file("fps25.mp4"), frames: (5, 9), extra: short + ["--fps", "25"])
        try render(file("b.webm"), frames: (5, 9), extra: short)
        try render(file("a.gif"), frames: (0, 4), extra: short)
        try render(file("big.gif"), frames: (5, 9), extra: short + ["--size", "320x180"])
        try Data("not a video".utf8).write(to: file("junk.mp4"))
        let cases: [(parts: [String], out: String, expected: [String])] = [
            (["a.mp4", "big.mp4"], "joined.mp4", ["big.mp4 (part 2 of 2)", "320×180", "part 1's is 160×90"]),
            (["a.mp4", "fps25.mp4"], "joined.mp4", ["fps25.mp4 (part 2 of 2)", "frame rate is 25 fps", "part 1's is 30 fps"]),
            (["a.mp4", "b.webm"], "joined.mp4", ["b.webm (part 2 of 2)", "codec is vp9", "part 1's is h264"]),
            (["a.mp4", "missing.mp4"], "joined.mp4", ["missing.mp4 (part 2 of 2)", "does not exist"]),
            (["a.mp4", "junk.mp4"], "joined.mp4", ["junk.mp4 (part 2 of 2)", "cannot be read as MP4, MOV or WebM"]),
            (["a.mp4", "b.mp4"], "joined.avi", ["joined.avi", "unknown extension '.avi'", "expected .mp4, .mov, .webm or .gif"]),
            (["a.mp4", "notes.txt"], "joined.mp4", ["notes.txt (part 2 of 2)", "does not exist"]),
            (["a.gif", "b.mp4"], "joined.gif", ["b.mp4 (part 2 of 2)", "output is a GIF"]),
            (["a.gif", "big.gif"], "joined.gif", ["big.gif (part 2 of 2)", "320×180", "part 1's is 160×90"]),
            (["a.mp4", "b.mp4"], "nofolder/joined.mp4", ["nofolder", "does not exist"]),
        ]
        for c in cases {
            let r = try strata(["concat"] + c.parts.map { file($0).path } + ["-o", file(c.out).path])
            XCTAssertEqual(r.status, 1, "\(c.parts) → \(c.out): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("Error: cannot join"), r.stderr)
            for phrase in c.expected { XCTAssertTrue(r.stderr.contains(phrase), "'\(phrase)' missing from: \(r.stderr)") }
            XCTAssertEqual(try leftovers(dir), [], "nothing written for \(c.parts) → \(c.out)")
        }
        // Unknown part extension.
        try Data("x".utf8).write(to: file("notes.txt"))
        let r = try strata(["concat", file("a.mp4").path, file("notes.txt").path, "-o", file("joined.mp4").path])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("notes.txt (part 2 of 2): unknown extension '.txt'"), r.stderr)
        XCTAssertEqual(try leftovers(dir), [])
        // A part that is also the output is refused before anything is written.
        let same = try strata(["concat", file("a.mp4").path, file("b.mp4").path, "-o", file("b.mp4").path])
        XCTAssertEqual(same.status, 1)
        XCTAssertTrue(same.stderr.contains("it is also the output file"), same.stderr)
    }
}
