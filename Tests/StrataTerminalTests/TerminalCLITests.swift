// `strata render` with terminal sessions, through the executable: a recording to a GIF (its
// size and frame count read back by ffprobe where installed), a tape to its own Output files
// (a .txt golden of the final screen, .ascii snapshots, a folder of PNG frames, a GIF starting at
// the LoopOffset) and a Screenshot, and --timeout
// stopping a tape whose command hangs (exit 124, the tape line named, nothing written).
import Foundation
import Strata
import XCTest

final class TerminalCLITests: XCTestCase {
    var strata: String {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("strata")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate.path }
            dir = dir.deletingLastPathComponent()
        }
        return ".build/debug/strata"
    }

    struct Result { var status: Int32; var stdout: String; var stderr: String }

    func run(_ arguments: [String], in directory: URL) throws -> Result {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: strata)
        p.arguments = arguments
        p.currentDirectoryURL = directory
        let out = directory.appendingPathComponent(".out-\(UUID().uuidString)"), err = directory.appendingPathComponent(".err-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: out); try? FileManager.default.removeItem(at: err) }
        p.standardOutput = try FileHandle(forWritingTo: out)
        p.standardError = try FileHandle(forWritingTo: err)
        try p.run()
        p.waitUntilExit()
        return Result(status: p.terminationStatus, stdout: try String(contentsOf: out, encoding: .utf8), stderr: try String(contentsOf: err, encoding: .utf8))
    }

    func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("strata-terminal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The `strata` executable registers the `terminal` node: a template with one validates and
    /// renders (a session's text, never run), and a batch row cannot make it run anything.
    func testTemplateWithATerminalNode() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try """
            size: [480, 200]
            duration: 2
            parameters: [{name: cmd, type: string, default: "touch ran"}]
            layers:
              - {type: terminal, columns: 30, rows: 4, typingSpeed: 100, layout: {center: true}, session: ["$ {{cmd}}", "done"]}
            """.write(to: dir.appendingPathComponent("t.yaml"), atomically: true, encoding: .utf8)
        try "cmd\ntouch ran-from-batch\n".write(to: dir.appendingPathComponent("rows.csv"), atomically: true, encoding: .utf8)
        let v = try run(["validate", "t.yaml"], in: dir)
        XCTAssertEqual(v.status, 0, v.stderr)
        let r = try run(["still", "t.yaml", "--time", "1.9", "-o", "t.png"], in: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        let b = try run(["batch", "t.yaml", "--data", "rows.csv", "--out", "out", "--name", "row.gif", "--duration", "0.5", "--scale", "0.25", "--fps", "4"], in: dir)
        XCTAssertEqual(b.status, 0, b.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.appendingPathComponent("t.png").path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("ran").path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("ran-from-batch").path))
    }

    func testFromAndToAMarker() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try """
            {"version": 3, "term": {"cols": 20, "rows": 4}}
            [1, "o", "one\\r\\n"]
            [1, "m", "two"]
            [1, "o", "two\\r\\n"]
            [6, "o", "three\\r\\n"]
            """.write(to: dir.appendingPathComponent("m.cast"), atomically: true, encoding: .utf8)
        // --to 8 ends before "three" (9 s): the final screen is the one at 8 s.
        let r = try run(["render", "m.cast", "--from", "two", "--to", "8", "-o", "m.txt", "--quiet"], in: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try String(contentsOf: dir.appendingPathComponent("m.txt"), encoding: .utf8), "one\ntwo\n")
        let gif = try run(["render", "m.cast", "--from", "2.5", "--to", "8", "-o", "m.gif", "--fps", "10", "--quiet"], in: dir)
        XCTAssertEqual(gif.status, 0, gif.stderr)
        let bad = try run(["render", "m.cast", "--from", "nope", "-o", "m.gif"], in: dir)
        XCTAssertNotEqual(bad.status, 0)
        XCTAssertTrue(bad.stderr.contains("m.cast: --from: no marker \"nope\" in the recording (its markers: \"two\" (2 s))"), bad.stderr)
        let backwards = try run(["render", "m.cast", "--from", "8", "--to", "two", "-o", "m.gif"], in: dir)
        XCTAssertTrue(backwards.stderr.contains("m.cast: --to (2 s) must come after --from (8 s)"), backwards.stderr)
        try "Output t.gif\nType \"echo\"\n".write(to: dir.appendingPathComponent("t.tape"), atomically: true, encoding: .utf8)
        let tape = try run(["render", "t.tape", "--from", "1"], in: dir)
        XCTAssertTrue(tape.stderr.contains("--speed, --idle-time-limit, --from and --to apply to recordings (.cast)"), tape.stderr)
    }

    func testRecordingToGIF() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try """
            {"version": 2, "width": 30, "height": 5}
            [0.2, "o", "$ echo hi\\r\\n"]
            [0.4, "o", "hi\\r\\n$ "]
            """.write(to: dir.appendingPathComponent("s.cast"), atomically: true, encoding: .utf8)
        let r = try run(["render", "s.cast", "-o", "s.gif", "--fps", "10", "--speed", "2", "--quiet"], in: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        let data = try Data(contentsOf: dir.appendingPathComponent("s.gif"))
        XCTAssertEqual(String(decoding: data.prefix(6), as: UTF8.self), "GIF89a")
        // Logical screen width and height (little-endian) after the signature.
        let width = Int(data[6]) | Int(data[7]) << 8
        XCTAssertGreaterThan(width, 200)
        let text = try run(["render", "s.cast", "-o", "s.txt", "--quiet"], in: dir)
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertEqual(try String(contentsOf: dir.appendingPathComponent("s.txt"), encoding: .utf8), "$ echo hi\nhi\n$\n")
        // .ascii: every screen the video shows, in VHS's golden format (5 rows each).
        let ascii = try run(["render", "s.cast", "-o", "s.ascii", "--quiet"], in: dir)
        XCTAssertEqual(ascii.status, 0, ascii.stderr)
        let line = String(repeating: "─", count: 80) + "\n"
        XCTAssertEqual(try String(contentsOf: dir.appendingPathComponent("s.ascii"), encoding: .utf8),
                       "\n\n\n\n\n" + line + "$ echo hi\n\n\n\n\n" + line + "$ echo hi\nhi\n$\n\n\n" + line)
        let bad = try run(["render", "s.cast", "--set", "a=1"], in: dir)
        XCTAssertNotEqual(bad.status, 0)
        XCTAssertTrue(bad.stderr.contains("--set and --data apply to templates"), bad.stderr)
    }

    func testTapeToItsOwnOutputs() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try """
            Output final.txt
            Output frames/
            Set Width 320
            Set Height 120
            Set FontSize 12
            Set Padding 8
            Set Framerate 5
            Set TypingSpeed 20ms
            Type "echo hello"
            Enter
            Wait@30s /^hello$/
            Screenshot shot.png
            """.write(to: dir.appendingPathComponent("demo.tape"), atomically: true, encoding: .utf8)
        let r = try run(["render", "demo.tape"], in: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try String(contentsOf: dir.appendingPathComponent("final.txt"), encoding: .utf8), "> echo hello\nhello\n>\n")
        let frames = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("frames").path).filter { $0.hasSuffix(".png") }
        XCTAssertGreaterThan(frames.count, 1)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.appendingPathComponent("shot.png").path))
        XCTAssertTrue(r.stdout.contains("wrote final.txt"), r.stdout)
    }

    /// One tape, several outputs: .ascii (VHS's golden format, a block per shown step), .txt
    /// (the final screen), a PNG folder and a GIF, all starting at the LoopOffset frame; the
    /// Screenshot taken at that moment of the session is the first frame of both.
    func testTapeWithAsciiTxtGifFramesAndLoopOffset() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try """
            Output demo.ascii
            Output demo.test
            Output demo.txt
            Output frames/
            Output demo.gif
            Set Width 320
            Set Height 120
            Set FontSize 12
            Set Padding 8
            Set Framerate 5
            Set TypingSpeed 200ms
            Set CursorBlink false
            Set LoopOffset 3
            Type "ech"
            Screenshot shot.png
            Type "o hi"
            Enter
            Wait@30s /^hi$/
            """.write(to: dir.appendingPathComponent("demo.tape"), atomically: true, encoding: .utf8)
        let r = try run(["render", "demo.tape"], in: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try String(contentsOf: dir.appendingPathComponent("demo.txt"), encoding: .utf8), "> echo hi\nhi\n>\n")
        let ascii = try String(contentsOf: dir.appendingPathComponent("demo.ascii"), encoding: .utf8)
        let separator = String(repeating: "─", count: 80)
        let blocks = ascii.components(separatedBy: separator + "\n")
        // Type, Screenshot, Type, Enter, Wait: five blocks (and nothing after the last separator).
        XCTAssertEqual(blocks.count, 6, ascii)
        XCTAssertEqual(blocks.last, "")
        XCTAssertTrue(blocks[0].hasPrefix("> ech\n"), blocks[0])
        XCTAssertTrue(blocks[4].hasPrefix("> echo hi\nhi\n>\n"), blocks[4])
        XCTAssertEqual(Set(blocks.dropLast().map { $0.split(separator: "\n", omittingEmptySubsequences: false).count }).count, 1, "every block has the grid's rows")
        XCTAssertTrue(r.stdout.contains("wrote demo.ascii: the screens' text"), r.stdout)
        XCTAssertEqual(try String(contentsOf: dir.appendingPathComponent("demo.test"), encoding: .utf8), ascii, "VHS's other name for the format")

        // 200 ms keys: "ech" at 0.6 s (frame 3, the shot), "echo hi" at 1.4 s, Enter at 1.6 s,
        // the Wait's frame at 2.0 s: 11 frames at 5 fps.
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("frames").path).filter { $0.hasSuffix(".png") }.sorted()
        XCTAssertEqual(names.count, 11)
        let shot = try Bitmap(contentsOfPNG: dir.appendingPathComponent("shot.png"))
        let frames = try names.map { try Bitmap(contentsOfPNG: dir.appendingPathComponent("frames").appendingPathComponent($0)) }
        XCTAssertEqual(frames[0].digest, shot.digest, "the video starts at the LoopOffset frame, the screenshot's")
        XCTAssertNotEqual(frames[0].digest, frames[names.count - 3].digest)

        // The GIF: 2.2 s long, its first frame the shot's within the palette's error.
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg") else { return }
        let gif = dir.appendingPathComponent("demo.gif").path
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
        probe.arguments = ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", gif]
        let pipe = Pipe()
        probe.standardOutput = pipe
        try probe.run()
        let duration = Double(String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        probe.waitUntilExit()
        XCTAssertEqual(duration ?? 0, 2.2, accuracy: 0.011)
        let first = dir.appendingPathComponent("first.png").path
        let ffmpeg = Process()
        ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        ffmpeg.arguments = ["-v", "error", "-i", gif, "-frames:v", "1", first]
        try ffmpeg.run()
        ffmpeg.waitUntilExit()
        let decoded = try Bitmap(contentsOfPNG: URL(fileURLWithPath: first))
        let cmp = try XCTUnwrap(ImageComparison(actual: decoded, expected: shot, tolerance: 24))
        XCTAssertEqual(cmp.pixelsOverTolerance, 0)
        let other = try XCTUnwrap(ImageComparison(actual: decoded, expected: frames[names.count - 3], tolerance: 24))
        XCTAssertGreaterThan(other.pixelsOverTolerance, 20, "the test can tell frames apart")
    }

    func testTimeoutStopsAHangingTape() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try """
            Set Width 320
            Set Height 120
            Type "sleep 300"
            Enter
            Wait@600s /never/
            """.write(to: dir.appendingPathComponent("hang.tape"), atomically: true, encoding: .utf8)
        let r = try run(["render", "hang.tape", "-o", "hang.gif", "--timeout", "6"], in: dir)
        XCTAssertEqual(r.status, 124, r.stderr)
        XCTAssertTrue(r.stderr.contains("hang.tape:5:1: the tape stopped by --timeout 6"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("hang.gif").path))
    }

    func testHelpSaysATapeRunsCommandsAsTheUser() throws {
        let r = try run(["render", "--help"], in: FileManager.default.temporaryDirectory)
        XCTAssertTrue(r.stdout.contains("runs its commands as you"), r.stdout)
    }
}
