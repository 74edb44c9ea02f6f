// VHS's Copy/Paste, ScrollUp/ScrollDown, Set LoopOffset and the .ascii golden format: parsed
// (with errors at file:line:column) and run for real in bash in a pseudo-terminal, the screen
// text asserted at chosen frames. Waits are generous and nothing is timed: a busy machine only
// makes the tests slower.
import Foundation
import Strata
import StrataTerminal
import XCTest

private extension Array {
    func repeated(_ n: Int) -> [Element] { Array((0..<n).map { _ in self }.joined()) }
}

final class TapeCommandTests: XCTestCase {
    func parseError(_ text: String) -> String {
        do { _ = try TapeParser.parse(text, file: "t.tape"); return "no error" } catch { return "\(error)" }
    }

    func testParsesCopyPasteScrollAndLoopOffset() throws {
        let tape = try TapeParser.parse("""
            Set LoopOffset 50%
            Copy "echo" 'pasted'
            Paste
            ScrollUp 3
            ScrollDown@50ms
            Type "a" "b"
            """, file: "t.tape")
        XCTAssertEqual(tape.settings.loopOffset, .percent(50))
        guard tape.steps.count == 5 else { return XCTFail("\(tape.steps.map(\.command))") }
        guard case .copy("echo pasted") = tape.steps[0].command else { return XCTFail("\(tape.steps[0].command)") }
        guard case .paste = tape.steps[1].command else { return XCTFail("\(tape.steps[1].command)") }
        guard case .scroll(up: true, speed: nil, count: 3) = tape.steps[2].command else { return XCTFail("\(tape.steps[2].command)") }
        guard case .scroll(up: false, speed: 0.05, count: 1) = tape.steps[3].command else { return XCTFail("\(tape.steps[3].command)") }
        // Several strings are joined by a space, as VHS does.
        guard case .type("a b", nil) = tape.steps[4].command else { return XCTFail("\(tape.steps[4].command)") }
        XCTAssertEqual(tape.steps[2].line, 4)
        XCTAssertEqual(try TapeParser.parse("Set LoopOffset 5").settings.loopOffset, .frames(5))
        XCTAssertEqual(try TapeParser.parse("Set LoopOffset 12.5 %").settings.loopOffset, .percent(12.5))
    }

    /// Lines as VHS's README writes them parse as VHS reads them.
    func testParsesVHSReadmeExamples() throws {
        let tape = try TapeParser.parse(#"""
            Set TypingSpeed 0.1
            Set Margin 20
            Set MarginFill "#674EFF"
            Set Theme { "name": "Whimsy", "black": "#535178", "red": "#ef6487", "green": "#5eca89", "yellow": "#fdd877", "blue": "#65aef7", "magenta": "#aa7ff0", "cyan": "#43c1be", "white": "#ffffff", "brightBlack": "#535178", "brightRed": "#ef6487", "brightGreen": "#5eca89", "brightYellow": "#fdd877", "brightBlue": "#65aef7", "brightMagenta": "#aa7ff0", "brightCyan": "#43c1be", "brightWhite": "#ffffff", "background": "#29283b", "foreground": "#b3b0d6", "selection": "#3d3c58", "cursor": "#b3b0d6" }
            Set PlaybackSpeed 0.5
            Set LoopOffset 5
            Type `VAR="Escaped"`
            Sleep .5
            Tab@500ms 2
            ScrollDown@100ms 12
            Wait+Line@10s /World/
            Copy "https://github.com/charmbracelet"
            Type "open "
            Paste
            Ctrl+Alt+Delete
            Alt+.
            """#, file: "t.tape")
        XCTAssertEqual(tape.settings.style.marginFill, TerminalRGB(hex: "#674EFF"))
        XCTAssertEqual(tape.settings.style.theme.background, TerminalRGB(hex: "#29283b"))
        XCTAssertEqual(tape.settings.playbackSpeed, 0.5)
        XCTAssertEqual(tape.settings.loopOffset, .frames(5))
        XCTAssertEqual(tape.steps.count, 11)
        guard case .type(#"VAR="Escaped""#, nil) = tape.steps[1].command else { return XCTFail("\(tape.steps[1].command)") }
        guard case .sleep(0.5) = tape.steps[2].command else { return XCTFail("\(tape.steps[2].command)") }
        guard case .scroll(up: false, speed: 0.1, count: 12) = tape.steps[4].command else { return XCTFail("\(tape.steps[4].command)") }
        guard case .wait(scope: .line, timeout: 10, pattern: "World") = tape.steps[5].command else { return XCTFail("\(tape.steps[5].command)") }
        guard case .key(.key(.delete, [.control, .alt]), nil, 1) = tape.steps[9].command else { return XCTFail("\(tape.steps[9].command)") }
        guard case .key(.character(".", .alt), nil, 1) = tape.steps[10].command else { return XCTFail("\(tape.steps[10].command)") }
    }

    /// `Set MarginFill` takes a picture, as VHS does: its path relative to the tape, checked
    /// when the tape is read, drawn to cover the margin behind the window.
    func testMarginFillPicture() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-margin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let red = Bitmap(width: 8, height: 8, pixels: Array([UInt8]([220, 30, 40, 255]).repeated(64)))
        try red.writePNG(to: dir.appendingPathComponent("bg.png"))
        try Data("not a picture".utf8).write(to: dir.appendingPathComponent("bad.png"))
        let tape = try TapeParser.parse("Set Margin 20\nSet MarginFill \"bg.png\"\nSet Padding 4", file: "t.tape", directory: dir)
        XCTAssertEqual(tape.settings.style.marginImage, dir.appendingPathComponent("bg.png").standardizedFileURL.path)
        let timeline = TerminalTimeline(columns: 10, rows: 2)
        let frame = try TerminalMovie(timeline: timeline, style: tape.settings.style, frameRate: 10, duration: 0.1).makeScene().renderFrame(at: 0)
        let corner = frame.pixel(x: 3, y: 3), middle = frame.pixel(x: frame.width / 2, y: frame.height / 2)
        XCTAssertEqual([corner.r, corner.g, corner.b], [220, 30, 40], "the margin shows the picture")
        let background = tape.settings.style.theme.background
        XCTAssertEqual(TerminalRGB(middle.r, middle.g, middle.b), background, "the window covers it")
        // A colour after it replaces it.
        XCTAssertNil(try TapeParser.parse("Set MarginFill bg.png\nSet MarginFill #112233", directory: dir).settings.style.marginImage)
        XCTAssertThrowsError(try TapeParser.parse("Set MarginFill nope.png", file: "t.tape", directory: dir)) { error in
            XCTAssertTrue("\(error)".hasPrefix("t.tape:1:16: Set MarginFill takes a colour (#rrggbb) or an image file (no file '"), "\(error)")
        }
        XCTAssertThrowsError(try TapeParser.parse("Set MarginFill 'bad.png'", file: "t.tape", directory: dir)) { error in
            XCTAssertTrue("\(error)".hasPrefix("t.tape:1:16: Set MarginFill: '"), "\(error)")
            XCTAssertTrue("\(error)".contains("bad.png' is not a PNG, JPEG or WebP image"), "\(error)")
        }
    }

    func testErrorsNameFileLineAndColumn() {
        XCTAssertEqual(parseError("Type \"x\"\nPaste"), "t.tape:2:1: Paste: nothing has been copied yet (Copy \"text\" first; the clipboard is the tape's own)")
        XCTAssertEqual(parseError("Copy"), "t.tape:1:1: Copy needs a string, e.g. Copy \"https://example.com\"")
        XCTAssertEqual(parseError("Copy url"), "t.tape:1:6: Copy takes strings in quotes")
        XCTAssertEqual(parseError("Copy \"a\"\nPaste 2"), "t.tape:2:7: unexpected '2' at the end of the line")
        XCTAssertEqual(parseError("Paste@1s"), "t.tape:1:1: Paste takes no @time")
        XCTAssertEqual(parseError("ScrollUp 0"), "t.tape:1:10: expected a repeat count (1…10000)")
        XCTAssertEqual(parseError("Set LoopOffset 150%"), "t.tape:1:16: Set LoopOffset takes a frame (5) or a percentage in 0…100 (50%)")
        XCTAssertEqual(parseError("Set LoopOffset soon"), "t.tape:1:16: Set LoopOffset takes a frame (5) or a percentage in 0…100 (50%)")
        XCTAssertEqual(parseError("Set LoopOffset 5 x"), "t.tape:1:18: unexpected 'x' at the end of the line")
    }

    func testLoopOffsetFrames() {
        XCTAssertEqual(TerminalLoopOffset.frames(3).frame(of: 10), 3)
        XCTAssertEqual(TerminalLoopOffset.frames(13).frame(of: 10), 3)
        XCTAssertEqual(TerminalLoopOffset.percent(50).frame(of: 10), 5)
        XCTAssertEqual(TerminalLoopOffset.percent(25).frame(of: 10), 3, "VHS rounds up")
        XCTAssertEqual(TerminalLoopOffset.percent(100).frame(of: 10), 0)
        XCTAssertEqual(TerminalLoopOffset.frames(4).frame(of: 0), 0)
    }

    // MARK: Run for real

    static let style = """
        Set Shell bash
        Set Width 480
        Set Height 200
        Set FontSize 14
        Set Padding 10
        Set Framerate 10
        Set TypingSpeed 100ms
        Set CursorBlink false
        """

    /// A tape in bash at 10 frames/s on a small window (its settings take the first 8 lines).
    func run(_ body: String) throws -> TapeRecording {
        guard FileManager.default.isExecutableFile(atPath: "/bin/bash") else { throw XCTSkip("bash is not installed") }
        let tape = try TapeParser.parse(Self.style + "\n" + body, file: "test.tape")
        let runner = TapeRunner(tape: tape)
        runner.echoWait = 5      // generous: a busy machine only waits longer
        runner.quietTime = 0.05
        return try runner.run()
    }

    /// The screen shown at frame `index`.
    func screen(_ r: TapeRecording, frame index: Int) -> TerminalScreenState {
        r.movie.timeline.state(at: Double(index) / r.movie.frameRate)
    }

    func testPasteTypesTheCopiedTextAtOnce() throws {
        let r = try run("""
            Copy "echo pasted-text"
            Sleep 300ms
            Paste
            Enter
            Wait@20s /^pasted-text$/
            """)
        // Copy takes no time and shows nothing; the Sleep holds the prompt for 3 frames; the
        // paste is one key press (100 ms): the whole command at frame 4.
        XCTAssertEqual(screen(r, frame: 3).text, ">")
        XCTAssertEqual(screen(r, frame: 4).text, "> echo pasted-text")
        XCTAssertEqual(r.movie.finalText, "> echo pasted-text\npasted-text\n>\n")
    }

    /// A paste far longer than the terminal's buffers (60 000 characters) arrives whole, in one
    /// typing interval: its echo is read whenever the terminal's input is full (written in one
    /// go without reading, bash blocks on its echo and the tape never ends).
    func testALongPasteArrivesWhole() throws {
        let r = try run("""
            Copy "y=\(String(repeating: "cd", count: 30000)); clear; echo ${#y}"
            Paste
            Enter
            Wait+Screen@20s /^60000\\n>$/
            """)
        XCTAssertEqual(r.movie.finalText, "60000\n>\n")
        // The paste at 0.1 s, Enter at 0.2 s, the Wait's frame at 0.3 s.
        XCTAssertEqual(r.movie.duration, 0.5, accuracy: 1e-9)
    }

    /// ScrollUp shows the scrollback a line per typing interval; ScrollDown goes back; output
    /// arriving while scrolled back keeps the view on the same lines; a key brings the view to
    /// the bottom.
    func testScrollMovesTheViewThroughTheScrollback() throws {
        let r = try run("""
            Hide
            Type "seq 1 40"
            Enter
            Wait+Screen@20s /40\\n>$/
            Show
            ScrollUp 3
            ScrollDown@200ms 1
            Type "sleep 2; seq 41 44"
            Enter
            ScrollUp 2
            Sleep 4s
            Wait+Screen@20s /44\\n>$/
            Type "x"
            """)
        let rows = r.movie.timeline.rows
        XCTAssertGreaterThan(rows, 4)
        // The screen after `seq 1 40`: the numbers up to 40, then the prompt on the last row.
        let top = 42 - rows
        XCTAssertEqual(screen(r, frame: 0).text(ofRow: 0), "\(top)")
        XCTAssertEqual(screen(r, frame: 0).text(ofRow: rows - 1), ">")
        XCTAssertTrue(screen(r, frame: 0).cursorVisible)
        // One line back per 100 ms: frames 1, 2, 3.
        for n in 1...3 {
            let s = screen(r, frame: n)
            XCTAssertEqual(s.text(ofRow: 0), "\(top - n)", "frame \(n)")
            XCTAssertEqual(s.text(ofRow: rows - 1), "\(41 - n)", "frame \(n)")
            XCTAssertFalse(s.cursorVisible, "the cursor's row is below the view")
        }
        // ScrollDown@200ms: two lines back at 0.5 s (frame 5), frame 4 still three back.
        XCTAssertEqual(screen(r, frame: 4).text(ofRow: 0), "\(top - 3)")
        XCTAssertEqual(screen(r, frame: 5).text(ofRow: 0), "\(top - 2)")
        // The first key typed brings the view to the bottom (at 0.6 s, frame 6).
        XCTAssertEqual(screen(r, frame: 6).text(ofRow: rows - 1), "> s")
        // "sleep 2; seq 41 44" is 18 keys (to 2.3 s), Enter at 2.4 s, two lines up by 2.6 s.
        let scrolled = screen(r, frame: 26)
        let scrolledTop = scrolled.text(ofRow: 0)
        XCTAssertEqual(scrolled.text(ofRow: rows - 1), "40", "two lines back from the prompt's row after Enter")
        // The output arrives about 2 s after Enter, during the Sleep; the view stays on the same
        // lines, so 41…44 stay out of sight.
        let waited = screen(r, frame: 26 + 35)
        XCTAssertEqual(waited.text(ofRow: 0), scrolledTop)
        XCTAssertFalse(waited.text.contains("44"), waited.text)
        // The live screen has them; the key typed at the end shows it from the bottom.
        let last = r.movie.timeline.finalState
        XCTAssertEqual(last.text(ofRow: rows - 2), "44")
        XCTAssertEqual(last.text(ofRow: rows - 1), "> x")
        XCTAssertTrue(last.cursorVisible)
    }

    /// The .ascii text: the screen after each step that is shown (hidden steps and settings
    /// leave none), every row, then a line of 80 `─`, as VHS writes it.
    func testAsciiHasTheScreenAfterEveryShownStep() throws {
        let r = try run("""
            Hide
            Type "clear"
            Enter
            Wait+Screen@20s /^>$/
            Show
            Type "sleep 1; echo hi"
            Enter
            Wait+Screen@20s /hi\\n>$/
            Set TypingSpeed 50ms
            """)
        let rows = r.movie.timeline.rows
        func block(_ lines: [String]) -> String {
            (lines + Array(repeating: "", count: rows - lines.count)).map { $0 + "\n" }.joined() + String(repeating: "─", count: 80) + "\n"
        }
        let expected = block([">"]) + block(["> sleep 1; echo hi"]) + block(["> sleep 1; echo hi"]) + block(["> sleep 1; echo hi", "hi", ">"])
        XCTAssertEqual(r.movie.asciiOutput, expected)
        XCTAssertFalse(r.movie.asciiOutput.contains("clear"))
    }

    /// A loop offset starts the video at that frame: frame k of the video is frame
    /// (k + offset) mod count of the tape, pixel for pixel, and a screenshot still shows the
    /// moment it was taken.
    func testLoopOffsetRotatesTheFrames() throws {
        let r = try run("""
            Set LoopOffset 40%
            Type "echo loop"
            Enter
            Wait@20s /^loop$/
            Screenshot shot.png
            Sleep 300ms
            """)
        XCTAssertEqual(r.movie.loopOffset, .percent(40))
        var plain = r.movie
        plain.loopOffset = nil
        let looped = r.movie.makeScene(), straight = plain.makeScene()
        let count = straight.frameCount
        XCTAssertEqual(looped.frameCount, count)
        let first = TerminalLoopOffset.percent(40).frame(of: count)
        XCTAssertEqual(first, Int((0.4 * Double(count)).rounded(.up)) % count)
        XCTAssertGreaterThan(first, 0)
        looped.contentsScale = 0.5; straight.contentsScale = 0.5
        let picked = [0, 1, count - first - 1, count - first, count - 1]
        var digests: [Int: String] = [:]
        for k in picked {
            let a = try looped.renderFrame(at: looped.time(ofFrame: k))
            let b = try straight.renderFrame(at: straight.time(ofFrame: (k + first) % count))
            XCTAssertEqual(a.digest, b.digest, "video frame \(k) is tape frame \((k + first) % count)")
            digests[k] = a.digest
        }
        // The same frames in the reverse order, on one worker, give the same pixels.
        let oneWorker = RenderOptions(workers: 1, tileSize: 64)
        for k in picked.reversed() {
            XCTAssertEqual(try looped.renderFrame(at: looped.time(ofFrame: k), options: oneWorker).digest, digests[k], "frame \(k)")
        }
        // The frames differ (the test could fail): the first and the middle of the tape.
        XCTAssertNotEqual(try straight.renderFrame(at: 0).digest,
                          try straight.renderFrame(at: straight.time(ofFrame: first)).digest)
        // The screenshot was taken after "loop" was printed; in the looped video it is at the
        // same moment of the session.
        let shot = try XCTUnwrap(r.screenshots.first)
        let shotTime = r.movie.videoTime(ofTimelineTime: shot.time, in: looped)
        XCTAssertEqual(try looped.renderFrame(at: shotTime).digest,
                       try straight.renderFrame(at: shot.time).digest)
    }
}
