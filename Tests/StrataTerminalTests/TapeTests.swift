// Tapes: the parser (every command form, errors at file:line:column) and tapes run for real in
// bash in a pseudo-terminal — typed text and its output on the tape's clock, Hide/Show, a Wait
// that runs out killing the command, and the same screens from two runs. Waits are generous
// and nothing is timed: a busy machine only makes the tests slower.
import Foundation
import Strata
import StrataTerminal
import XCTest

final class TapeTests: XCTestCase {
    func parseError(_ text: String) -> String {
        do { _ = try TapeParser.parse(text, file: "t.tape"); return "no error" } catch { return "\(error)" }
    }

    func testParsesEveryForm() throws {
        let tape = try TapeParser.parse("""
            # comment
            Output out.gif
            Output "out.txt"
            Require bash
            Set FontSize 18
            Set Width 800
            Set Theme "Paper"
            Set MarginFill #336699
            Set WindowBar Rings
            Set TypingSpeed 10ms
            Env GREETING "hi there"
            Type "echo 'a b'" `c`
            Type@200ms 'x'
            Enter
            Backspace@50ms 3
            Ctrl+C
            Alt+Shift+Tab
            Space 2
            Sleep 1.5s
            Sleep 250ms
            Wait
            Wait+Screen@3s /ready\\/go/
            Hide
            Show
            Screenshot shot.png
            """, file: "t.tape")
        XCTAssertEqual(tape.outputs, ["out.gif", "out.txt"])
        XCTAssertEqual(tape.settings.style.fontSize, 18)
        XCTAssertEqual(tape.settings.width, 800)
        XCTAssertEqual(tape.settings.style.theme, .paper)
        XCTAssertEqual(tape.settings.style.marginFill, TerminalRGB(hex: "#336699"))
        XCTAssertEqual(tape.settings.style.windowBar, .rings)
        XCTAssertEqual(tape.environment.first?.value, "hi there")
        let kinds = tape.steps.map { step -> String in
            switch step.command {
            case .type(let s, let speed): "type \(s) \(speed.map { "\($0)" } ?? "-")"
            case .key(let k, let speed, let n): "key \(k) \(speed.map { "\($0)" } ?? "-") \(n)"
            case .sleep(let t): "sleep \(t)"
            case .wait(let scope, let t, let p): "wait \(scope) \(t.map { "\($0)" } ?? "-") \(p ?? "-")"
            case .hide: "hide"
            case .show: "show"
            case .screenshot(let p): "shot \(p)"
            case .set(let n, let v): "set \(n) \(v)"
            case .require(let p): "require \(p)"
            case .copy(let s): "copy \(s)"
            case .paste: "paste"
            case .scroll(let up, let speed, let n): "scroll \(up ? "up" : "down") \(speed.map { "\($0)" } ?? "-") \(n)"
            }
        }
        XCTAssertEqual(kinds, [
            "set TypingSpeed 10ms", "type echo 'a b' c -", "type x 0.2", "key key(StrataTerminal.TerminalKey.enter, StrataTerminal.TerminalModifiers(rawValue: 0)) - 1",
            "key key(StrataTerminal.TerminalKey.backspace, StrataTerminal.TerminalModifiers(rawValue: 0)) 0.05 3",
            "key character(\"C\", StrataTerminal.TerminalModifiers(rawValue: 4)) - 1",
            "key key(StrataTerminal.TerminalKey.tab, StrataTerminal.TerminalModifiers(rawValue: 3)) - 1",
            "key character(\" \", StrataTerminal.TerminalModifiers(rawValue: 0)) - 2",
            "sleep 1.5", "sleep 0.25", "wait line - -", "wait screen 3.0 ready/go", "hide", "show", "shot shot.png",
        ])
        XCTAssertEqual(tape.steps[1].line, 12)
        XCTAssertEqual(tape.requirements.count, 1)
    }

    func testSyntaxErrorsNameFileLineAndColumn() {
        XCTAssertEqual(parseError("Type hello"), "t.tape:1:6: Type takes strings in quotes")
        XCTAssertEqual(parseError("Enter\nSleep soon"), "t.tape:2:7: expected a time (500ms, 2s)")
        XCTAssertEqual(parseError("Type \"unclosed"), "t.tape:1:6: this string has no closing \"")
        XCTAssertTrue(parseError("Set Colour 1").hasPrefix("t.tape:1:5: unknown setting 'Colour'"), parseError("Set Colour 1"))
        XCTAssertTrue(parseError("  Jump").hasPrefix("t.tape:1:3: unknown command 'Jump'"), parseError("  Jump"))
        XCTAssertEqual(parseError("Wait /(/"), "t.tape:1:6: /(/ is not a regular expression")
        XCTAssertEqual(parseError("Set FontSize big"), "t.tape:1:14: Set FontSize takes a number in 4.0…200.0")
        XCTAssertEqual(parseError("Enter 2 3"), "t.tape:1:9: unexpected '3' at the end of the line")
        XCTAssertTrue(parseError("Set Theme \"Nope\"").hasPrefix("t.tape:1:11: no theme named 'Nope'"), parseError("Set Theme \"Nope\""))
    }

    /// A tape in bash at 10 frames/s on a small window.
    func run(_ body: String, configure: (TapeRunner) -> Void = { _ in }) throws -> TapeRecording {
        guard FileManager.default.isExecutableFile(atPath: "/bin/bash") else { throw XCTSkip("bash is not installed") }
        let text = """
            Set Shell bash
            Set Width 480
            Set Height 200
            Set FontSize 14
            Set Padding 10
            Set Framerate 10
            Set TypingSpeed 100ms
            Set CursorBlink false
            \(body)
            """
        let tape = try TapeParser.parse(text, file: "test.tape")
        let runner = TapeRunner(tape: tape)
        runner.echoWait = 5      // generous: a busy machine only waits longer
        runner.quietTime = 0.05
        configure(runner)
        return try runner.run()
    }

    /// The screen text at every frame of the recording.
    func frameTexts(_ r: TapeRecording) -> [String] {
        let m = r.movie
        let count = Int((m.duration * m.frameRate).rounded(.up))
        return (0..<count).map { m.timeline.state(at: Double($0) / m.frameRate).text }
    }

    static let helloTape = """
        Hide
        Type "export GREETING=hello; clear"
        Enter
        Wait+Screen@20s /^>$/
        Show
        Type "echo $GREETING"
        Enter
        Wait@20s /hello/
        Sleep 200ms
        Type "echo hello"
        Enter
        Wait@20s /(?m)^hello$/
        """

    /// Hidden text goes in at once, not a key at a time: a 6000-character set-up line (its echo
    /// read whenever the terminal's input is full) arrives whole without the writes blocking,
    /// and takes no video time.
    func testHiddenTypingGoesInAtOnce() throws {
        let r = try run("""
            Hide
            Type "x=\(String(repeating: "ab", count: 3000)); echo ${#x}; clear"
            Enter
            Wait+Screen@20s /^>$/
            Type "echo ${#x}"
            Enter
            Wait@20s /^6000$/
            Show
            Sleep 200ms
            """)
        XCTAssertEqual(r.movie.finalText, "> echo ${#x}\n6000\n>\n")
        XCTAssertEqual(r.movie.duration, 0.2, accuracy: 0.11, "hidden steps take no video time")
    }

    func testRealShellTypingOutputAndHideShow() throws {
        let r = try run(Self.helloTape)
        let texts = frameTexts(r)
        // Nothing typed while hidden is ever shown.
        XCTAssertFalse(texts.contains { $0.contains("GREETING=") || $0.contains("clear") }, texts.joined(separator: "\n---\n"))
        // The first frame is the prompt as the hidden part left it.
        XCTAssertEqual(texts[0], ">")
        // Typing "echo $GREETING" at 100 ms a character from 0 s, each shown at the end of its
        // interval: "e" at 0.1 s, "echo" complete at 0.4 s, "echo $" at 0.6 s.
        XCTAssertEqual(texts[1], "> e")
        XCTAssertEqual(texts[4], "> echo")
        XCTAssertEqual(texts[6], "> echo $")
        // Enter at 1.4 s (14 characters), its output on the first frame after the Wait began.
        let final = r.movie.timeline.finalState
        XCTAssertEqual(final.text, "> echo $GREETING\nhello\n> echo hello\nhello\n>")
        XCTAssertTrue(texts.contains("> echo $GREETING\nhello\n>"))
        // The video ends with the last screen.
        XCTAssertEqual(texts.last, final.text)
        // Rendered: the first row's prompt ">" is drawn in the prompt's colour, not the background.
        let scene = r.movie.makeScene()
        let frame = try scene.renderFrame(at: scene.duration - 0.1)
        XCTAssertEqual(frame.width, 480)
        var inked = 0
        let m = TerminalMetrics(style: r.movie.style)
        for y in 10..<Int(10 + m.cellHeight) { for x in 10..<Int(10 + m.cellWidth) {
            let p = frame.pixel(x: x, y: y)
            if TerminalRGB(p.r, p.g, p.b) != r.movie.style.theme.background { inked += 1 }
        } }
        XCTAssertGreaterThan(inked, 5, "the prompt character is drawn")
    }

    func testTwoRunsGiveTheSameScreens() throws {
        let a = try run(Self.helloTape), b = try run(Self.helloTape)
        XCTAssertEqual(frameTexts(a), frameTexts(b))
        XCTAssertEqual(a.movie.duration, b.movie.duration)
    }

    func testWaitTimeoutKillsTheCommandAndNamesTheLine() throws {
        let marker = "strata-tape-test-\(UUID().uuidString.prefix(8))"
        let started = Date()
        XCTAssertThrowsError(try run("""
            Type "exec -a \(marker) sleep 300"
            Enter
            Wait@1s /never/
            """)) { error in
            let text = "\(error)"
            XCTAssertTrue(text.hasPrefix("test.tape:11:1: Wait /never/ timed out after 1 s"), text)
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 60)
        // The sleeping command is gone (killed with its process group).
        var alive = true
        for _ in 0..<100 where alive {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/pgrep")
            p.arguments = ["-f", marker]
            p.standardOutput = FileHandle.nullDevice
            guard (try? p.run()) != nil else { throw XCTSkip("pgrep is not available") }
            p.waitUntilExit()
            alive = p.terminationStatus == 0
            if alive { usleep(50_000) }
        }
        XCTAssertFalse(alive, "the command outlived its tape")
    }

    func testStopFromOutsideNamesTheStep() throws {
        XCTAssertThrowsError(try run("Sleep 30s") { runner in
            runner.stopReason = { [unowned runner] in runner.currentStep?.line == 9 ? "timed out (--timeout 1)" : nil }
        }) { error in
            XCTAssertTrue("\(error)".hasPrefix("test.tape:9:1: the tape timed out (--timeout 1)"), "\(error)")
        }
    }

    func testRequireAndShellErrors() {
        XCTAssertThrowsError(try run("Require strata-no-such-program")) {
            XCTAssertTrue("\($0)".hasPrefix("test.tape:9:1: Require: 'strata-no-such-program' is not on PATH"), "\($0)")
        }
    }
}
