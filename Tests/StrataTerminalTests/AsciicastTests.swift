// asciicast playback: v2 and v3 parsed to the same events, the screen at event times, --speed
// and the idle time limit moving them, colours of known cells in rendered frames, a recording
// made by asciinema itself where it is installed, and errors naming the line.
import Foundation
import Strata
import StrataTerminal
import XCTest

final class AsciicastTests: XCTestCase {
    static let v2 = """
        {"version": 2, "width": 20, "height": 4, "idle_time_limit": 2}
        [0.5, "o", "$ ls\\r\\n"]
        [1.0, "o", "\\u001b[42mgreen\\u001b[0m\\r\\n"]
        [11.0, "o", "after a pause"]
        """
    static let v3 = """
        {"version": 3, "term": {"cols": 20, "rows": 4}, "idle_time_limit": 2}
        # a comment
        [0.5, "o", "$ ls\\r\\n"]
        [0.5, "o", "\\u001b[42mgreen\\u001b[0m\\r\\n"]
        [0, "m", "a marker"]
        [10, "o", "after a pause"]
        """

    /// A v3 recording with two markers: "build" at 2 s, "test" at 6 s (times as recorded).
    static let marked = """
        {"version": 3, "term": {"cols": 20, "rows": 4}}
        [1, "o", "$ make\\r\\n"]
        [1, "m", "build"]
        [0.5, "o", "\\u001b[31mbuilding\\u001b[0m\\r\\n"]
        [1.5, "o", "built\\r\\n"]
        [2, "m", "test"]
        [1, "o", "tested\\r\\n"]
        [3, "o", "bye"]
        """

    func testMarkersAndACutOfTheRecording() throws {
        let cast = try Asciicast(text: Self.marked)
        XCTAssertEqual(cast.markers.map(\.label), ["build", "test"])
        XCTAssertEqual(cast.markers.map(\.time), [2, 6])
        XCTAssertEqual(try cast.time(of: "test", option: "--from", file: "m.cast"), 6)
        XCTAssertEqual(try cast.time(of: "2.5", option: "--from", file: "m.cast"), 2.5)
        XCTAssertThrowsError(try cast.time(of: "deploy", option: "--to", file: "m.cast")) {
            XCTAssertEqual("\($0)", "m.cast: --to: no marker \"deploy\" in the recording (its markers: \"build\" (2 s), \"test\" (6 s))")
        }
        // From the "build" marker to 8 s: the video starts with the screen as it was at 2 s
        // ("$ make" typed before the cut), plays 2.5 s → 0.5 s, 4 s → 2 s, 7 s → 5 s, and ends
        // at 8 s → 6 s; "bye" at 10 s is after the cut.
        let (timeline, end) = cast.timeline(frameRate: 10, from: 2, to: 8)
        XCTAssertEqual(end, 6, accuracy: 1e-9)
        XCTAssertEqual(timeline.state(at: 0).text, "$ make")
        XCTAssertEqual(timeline.state(at: 0.45).text, "$ make")
        XCTAssertEqual(timeline.state(at: 0.5).text, "$ make\nbuilding")
        XCTAssertEqual(timeline.state(at: 0.5)[1, 0].foreground, .indexed(1))
        XCTAssertEqual(timeline.state(at: 2.0).text, "$ make\nbuilding\nbuilt")
        // "tested" and the line after it take a fifth row: the four rows scroll.
        XCTAssertEqual(timeline.state(at: 5.0).text, "building\nbuilt\ntested")
        XCTAssertEqual(timeline.finalState.text, "building\nbuilt\ntested", "nothing after --to")
        // A cut with a speed: the cut's times are the recording's, the gaps played twice as fast.
        let fast = cast.timeline(speed: 2, frameRate: 10, from: 6, to: 10)
        XCTAssertEqual(fast.end, 2, accuracy: 1e-9)
        XCTAssertEqual(fast.timeline.state(at: 0.45).text, "$ make\nbuilding\nbuilt")
        XCTAssertEqual(fast.timeline.state(at: 0.5).text, "building\nbuilt\ntested")
        XCTAssertEqual(fast.timeline.state(at: 2).text, "building\nbuilt\ntested\nbye", "\"bye\" at 10 s (the cut's end) is shown")
    }

    func testVersionsTwoAndThreeGiveTheSameScreens() throws {
        let a = try Asciicast(text: Self.v2), b = try Asciicast(text: Self.v3)
        XCTAssertEqual(a.columns, 20); XCTAssertEqual(b.rows, 4)
        XCTAssertEqual(a.events.filter { $0.code == "o" }, b.events.filter { $0.code == "o" })
        let (timeline, end) = a.timeline(frameRate: 10)
        // The pause of 10 s is cut to the idle limit of 2 s: 1.0 + 2.0.
        XCTAssertEqual(end, 3.0, accuracy: 1e-9)
        XCTAssertEqual(timeline.state(at: 0.4).text, "")
        XCTAssertEqual(timeline.state(at: 0.5).text, "$ ls")
        XCTAssertEqual(timeline.state(at: 1.0).text, "$ ls\ngreen")
        XCTAssertEqual(timeline.state(at: 1.0)[1, 0].background, .indexed(2))
        XCTAssertEqual(timeline.state(at: 2.9).text, "$ ls\ngreen")
        XCTAssertEqual(timeline.state(at: 3.0).text, "$ ls\ngreen\nafter a pause")
        XCTAssertEqual(b.timeline(frameRate: 10).timeline.state(at: 3.0), timeline.state(at: 3.0))
    }

    func testSpeedAndIdleTimeLimit() throws {
        let cast = try Asciicast(text: Self.v2)
        let (fast, end) = cast.timeline(speed: 2, idleTimeLimit: 1, frameRate: 10)
        // Times: 0.5, 1.0, 1.0 + 1 (limit) = 2.0, halved.
        XCTAssertEqual(end, 1.0, accuracy: 1e-9)
        // 0.25 s is between frames: shown at 0.3.
        XCTAssertEqual(fast.state(at: 0.25).text, "")
        XCTAssertEqual(fast.state(at: 0.3).text, "$ ls")
        XCTAssertEqual(fast.state(at: 0.95).text, "$ ls\ngreen")
        XCTAssertEqual(fast.state(at: 1.0).text, "$ ls\ngreen\nafter a pause")
    }

    func testEventsBetweenFramesShowOnTheNextFrame() throws {
        let cast = try Asciicast(text: """
            {"version": 2, "width": 10, "height": 2}
            [0.01, "o", "a"]
            [0.02, "o", "b"]
            [0.15, "o", "c"]
            """)
        let (timeline, _) = cast.timeline(frameRate: 10)
        XCTAssertEqual(timeline.times, [0, 0.1, 0.2])
        XCTAssertEqual(timeline.states.map(\.text), ["", "ab", "abc"])
    }

    func testRenderedFramesShowTheRecording() throws {
        let cast = try Asciicast(text: Self.v2)
        let fps = 10.0
        let (timeline, end) = cast.timeline(frameRate: fps)
        var style = TerminalStyle()
        style.fontSize = 14; style.padding = 8; style.cursorBlink = false
        let scene = TerminalMovie(timeline: timeline, style: style, frameRate: fps, duration: end + 1).makeScene()
        let m = TerminalMetrics(style: style)
        // The bottom of the last column of "green" on row 1 ("n" has no descender): its background.
        let x = Int(style.padding + 4.5 * m.cellWidth), y = Int(style.padding + 1.95 * m.cellHeight)
        let before = try scene.renderFrame(at: 0.5), after = try scene.renderFrame(at: 1.2)
        let bg = style.theme.background, green = style.theme.ansi[2]
        func rgb(_ f: Bitmap) -> TerminalRGB { let p = f.pixel(x: x, y: y); return TerminalRGB(p.r, p.g, p.b) }
        XCTAssertEqual(rgb(before), bg)
        XCTAssertEqual(rgb(after), green)
    }

    func testARecordingMadeByAsciinema() throws {
        guard let asciinema = ["/usr/bin/asciinema", "/usr/local/bin/asciinema"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw XCTSkip("asciinema is not installed (apt-get install asciinema)")
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-cast-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("rec.cast")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: asciinema)
        p.arguments = ["rec", "-q", "--overwrite", "-c", "printf 'one\\n\\033[1;35mtwo\\033[0m\\n'", file.path]
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        let deadline = Date().addingTimeInterval(60)
        while p.isRunning && Date() < deadline { usleep(20_000) }
        if p.isRunning { p.terminate(); throw XCTSkip("asciinema did not finish") }
        guard p.terminationStatus == 0, FileManager.default.fileExists(atPath: file.path) else { throw XCTSkip("asciinema rec failed here (status \(p.terminationStatus))") }
        let cast = try Asciicast(contentsOf: file)
        let state = cast.timeline(frameRate: 30).timeline.finalState
        XCTAssertEqual(state.text(ofRow: 0), "one")
        XCTAssertEqual(state.text(ofRow: 1), "two")
        XCTAssertEqual(state[1, 0].foreground, .indexed(5))
        XCTAssertEqual(state[1, 0].attributes, [.bold])
    }

    func testErrorsNameTheLine() {
        XCTAssertThrowsError(try Asciicast(text: "{\"version\": 2, \"width\": 10, \"height\": 2}\n[0.1, \"o\", \"a\"]\nnot json", file: "x.cast")) {
            XCTAssertEqual("\($0)", "x.cast:3: expected an event [time, code, data]")
        }
        XCTAssertThrowsError(try Asciicast(text: "{\"version\": 1}", file: "x.cast")) {
            XCTAssertTrue("\($0)".hasPrefix("x.cast:1: unsupported asciicast version 1"), "\($0)")
        }
        XCTAssertThrowsError(try Asciicast(text: "{\"version\": 2}", file: "x.cast")) {
            XCTAssertTrue("\($0)".contains("width and height"), "\($0)")
        }
    }
}
