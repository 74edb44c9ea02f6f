// The `terminal` node of templates and the DSL: a scripted session on the terminal clock (screen
// text at chosen times), ANSI colours of known cells, wrapping and scrolling by the emulator,
// per-entry delays and typing speed, themes by name and the font family, the exact messages of
// wrong values, the schema naming every property, and that a template never runs anything.
import Foundation
import Strata
@testable import StrataTerminal
import XCTest

final class TerminalNodeTests: XCTestCase {
    override func setUp() { TerminalNodes.register() }

    /// A scene from template text (YAML) written to a temporary folder.
    func scene(_ yaml: String) throws -> Scene {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("terminal-node-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("t.yaml")
        try yaml.write(to: file, atomically: true, encoding: .utf8)
        return try Template(contentsOf: file).makeScene()
    }

    func terminal(in scene: Scene) throws -> TerminalLayer {
        func find(_ l: CALayer) -> TerminalLayer? {
            if let t = l as? TerminalLayer { return t }
            return (l.sublayers ?? []).lazy.compactMap(find).first
        }
        return try XCTUnwrap(find(scene.rootLayer))
    }

    func rows(_ t: TerminalLayer, at time: Double) -> [String] {
        let s = t.screenState(atLocalTime: time)
        return (0..<s.rows).map { s.text(ofRow: $0).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }
    }

    func testSessionIsTypedAndPrintedOnItsClock() throws {
        let s = try scene("""
            size: [800, 400]
            fps: 30
            duration: 6
            layers:
              - type: terminal
                columns: 40
                rows: 6
                typingSpeed: 10
                session: ["$ ls", "a  b", {command: "echo hi", delay: 1, pause: 0.25, typingSpeed: 20}, {output: "hi", delay: 2}]
            """)
        let t = try terminal(in: s)
        // The prompt at 0; "ls" typed from 0.3 s, a character every 0.1 s; Enter 0.5 s later.
        XCTAssertEqual(rows(t, at: 0.01)[0], "$")
        XCTAssertEqual(rows(t, at: 0.35)[0], "$")
        XCTAssertEqual(rows(t, at: 0.41)[0], "$ l")
        XCTAssertEqual(rows(t, at: 0.51)[0], "$ ls")
        XCTAssertEqual(rows(t, at: 0.99)[1], "")
        // 1.0 s: Enter and the output at once, then 0.12 s later the next prompt.
        XCTAssertEqual(Array(rows(t, at: 1.01)[0...1]), ["$ ls", "a  b"])
        XCTAssertEqual(rows(t, at: 1.12)[2], "")
        XCTAssertEqual(rows(t, at: 1.14)[2], "$", "on the next frame (1.1333 s)")
        // The second command waits its own delay (1 s) and types at 20 a second.
        XCTAssertEqual(rows(t, at: 2.11)[2], "$")
        XCTAssertEqual(rows(t, at: 2.19)[2], "$")
        XCTAssertEqual(rows(t, at: 2.21)[2], "$ e", "2.17 s, on the frame at 2.2 s")
        XCTAssertEqual(rows(t, at: 2.49)[2], "$ echo h")
        XCTAssertEqual(rows(t, at: 2.51)[2], "$ echo hi")
        // Typed at 2.47, Enter 0.25 s later with its output; the last prompt 2 s after that.
        XCTAssertEqual(rows(t, at: 2.71)[3], "")
        XCTAssertEqual(rows(t, at: 2.75)[3], "hi")
        XCTAssertEqual(rows(t, at: 4.70)[4], "")
        XCTAssertEqual(rows(t, at: 4.76)[4], "$")
        // Every change is on the frame grid: what frame k shows is what its time shows.
        for k in 0..<180 {
            let time = Double(k) / 30
            XCTAssertEqual(t.timeline.index(at: time), t.timeline.index(at: time + 1e-9), "frame \(k)")
        }
    }

    func testColoursWrappingAndScrolling() throws {
        let s = try scene("""
            size: [600, 300]
            duration: 5
            layers:
              - type: terminal
                columns: 12
                rows: 4
                outputDelay: 0.1
                promptColor: "#ff8800"
                session: ["$ colours", "\\e[31mred\\e[0m \\e[1;44mblue\\e[0m", "0123456789abcdefgh", "x1", "x2"]
            """)
        let t = try terminal(in: s)
        let end = t.screenState(atLocalTime: 4.9)
        // Colours and attributes from the escapes: "red blue" printed at 1.19 s (on the frame at 1.2).
        let coloured = t.screenState(atLocalTime: 1.25)
        XCTAssertEqual(rows(t, at: 1.25), ["$ colours", "red blue", "", ""])
        XCTAssertEqual(coloured[1, 0].foreground, .indexed(1))
        XCTAssertEqual(coloured[1, 0].text, "r")
        XCTAssertEqual(coloured[1, 4].background, .indexed(4))
        XCTAssertTrue(coloured[1, 4].attributes.contains(.bold))
        XCTAssertEqual(coloured[1, 3].background, .default, "the reset between them")
        XCTAssertEqual(coloured[0, 0].foreground, .rgb(0xff, 0x88, 0x00))
        XCTAssertTrue(coloured[0, 0].attributes.contains(.bold), "the prompt is bold")
        XCTAssertEqual(coloured[0, 2].foreground, .default, "the command in the default colour")
        // The 18-character line wraps after 12 columns; its second part and the cursor's line
        // make five rows, so the screen has scrolled one up.
        XCTAssertEqual(rows(t, at: 1.32), ["red blue", "0123456789ab", "cdefgh", ""])
        // Six lines and a prompt through four rows: the first three scrolled away.
        XCTAssertEqual(rows(t, at: 4.9), ["cdefgh", "x1", "x2", "$"])
        XCTAssertEqual(end.cursorRow, 3)
        XCTAssertEqual(end.cursorColumn, 2)
    }

    func testThemeByNameAndFontFamilyInPixels() throws {
        let s = try scene("""
            size: [400, 200]
            duration: 2
            layers:
              - type: terminal
                position: [200, 100]
                columns: 10
                rows: 2
                padding: 10
                theme: Paper
                fontFamily: DejaVu Sans Mono
                fontSize: 20
                cursorBlink: false
                session: ["\\e[42m   \\e[0m"]
            """)
        let t = try terminal(in: s)
        XCTAssertEqual(t.terminalStyle.theme, .paper)
        XCTAssertEqual(t.terminalStyle.fontFamily, "DejaVu Sans Mono")
        XCTAssertEqual(t.terminalStyle.fontSize, 20)
        let frame = try s.renderFrame(at: 1)
        let m = t.metrics
        let origin = CGPoint(x: t.frame.minX + 10, y: t.frame.minY + 10)
        func pixel(_ c: Int, _ r: Int) -> TerminalRGB {
            let p = frame.pixel(x: Int(origin.x + (CGFloat(c) + 0.5) * m.cellWidth), y: Int(origin.y + (CGFloat(r) + 0.5) * m.cellHeight))
            return TerminalRGB(p.r, p.g, p.b)
        }
        XCTAssertEqual(pixel(1, 0), TerminalTheme.paper.ansi[2], "a green cell in Paper's green")
        XCTAssertEqual(pixel(6, 0), TerminalTheme.paper.background)
        XCTAssertEqual(pixel(2, 1), TerminalTheme.paper.cursor, "the last prompt's cursor")
    }

    func testWrongValuesAreNamed() throws {
        func message(_ layer: String) -> String {
            do {
                _ = try scene("size: [400, 200]\nduration: 1\nlayers:\n  - type: terminal\n" + layer)
                return "compiled"
            } catch { return "\(error)" }
        }
        XCTAssertTrue(message("    session: []\n    theme: Nope\n").contains(
            "layers[0].theme: no built-in theme \"Nope\" (expected one of \"Strata Dark\", \"Strata Light\", \"Midnight\", \"Phosphor\", \"Paper\")"))
        XCTAssertTrue(message("    columns: 10\n").contains(
            "layers[0]: a terminal layer needs \"session\": a list of lines (text) or entries ({\"command\": …} or {\"output\": …})"))
        XCTAssertTrue(message("    session: [{command: ls, run: true}]\n").contains(
            "layers[0].session[0].run: unknown key of a session entry (expected clear, command, delay, output, pause, typingSpeed)"))
        XCTAssertTrue(message("    session: []\n    promptColor: purplish\n").contains("layers[0].promptColor: expected a colour"))
        XCTAssertTrue(message("    session: []\n    rows: 0\n").contains("layers[0].rows:"), message("    session: []\n    rows: 0\n"))
        let shell = message("    session: []\n    shell: /bin/sh\n")
        XCTAssertTrue(shell.contains("layers[0].shell: unknown property for a terminal layer (known: allowsGroupOpacity, anchorPoint,"), shell)
        XCTAssertTrue(shell.contains("windowTitle"), shell)
    }

    /// A template's session is only shown: a command that would make a file makes none, and no
    /// property names a shell, a program or a tape.
    func testTemplateNeverRunsAnything() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("terminal-never-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let marker = folder.appendingPathComponent("made-by-a-shell")
        let s = try scene("""
            size: [400, 200]
            duration: 3
            layers:
              - type: terminal
                columns: 200
                rows: 3
                typingSpeed: 200
                session: ["$ touch \(marker.path)", {command: "touch \(marker.path); sh -c 'touch \(marker.path)'"}]
            """)
        for time in stride(from: 0.0, through: 3.0, by: 0.5) { _ = try s.renderFrame(at: time) }
        XCTAssertEqual(rows(try terminal(in: s), at: 2.9)[0], "$ touch \(marker.path)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: marker.path), "nothing ran the command")
        let keys = Set(TerminalNodeCompiler().properties.keys)
        XCTAssertTrue(keys.isDisjoint(with: ["shell", "command", "tape", "program", "run", "exec", "env"]), "\(keys)")
        for (name, _) in [("tape", 1), ("shell", 2)] {
            XCTAssertThrowsError(try scene("size: [400, 200]\nduration: 1\nlayers:\n  - {type: terminal, session: [], \(name): x}\n"))
        }
    }

    /// The template schema names every property the terminal node reads, so `strata validate`
    /// checks their shapes.
    func testSchemaNamesEveryProperty() throws {
        let schema = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(TemplateSchema.json.utf8)) as? [String: Any])
        let defs = try XCTUnwrap(schema["$defs"] as? [String: Any])
        let layer = try XCTUnwrap((defs["layer"] as? [String: Any])?["properties"] as? [String: Any])
        let types = try XCTUnwrap((layer["type"] as? [String: Any])?["enum"] as? [String])
        XCTAssertTrue(types.contains("terminal"))
        let missing = TerminalNodeCompiler().properties.keys.filter { layer[$0] == nil }.sorted()
        XCTAssertEqual(missing, [])
    }

    func testDSLTerminal() throws {
        let scene = Scene(size: CGSize(width: 500, height: 200), duration: 2) {
            Terminal([.command("make", pause: 0.2), .output("\u{1B}[32mok\u{1B}[0m", delay: 0.5)])
                .theme("Midnight").font("DejaVu Sans Mono", size: 18).grid(columns: 20, rows: 3).typingSpeed(10)
                .windowBar(.colorful, title: "build")
                .position(x: 250, y: 100)
        }
        let t = try terminal(in: scene)
        XCTAssertEqual(t.terminalStyle.theme, .midnight)
        XCTAssertEqual(t.terminalStyle.windowTitle, "build")
        XCTAssertEqual([t.timeline.columns, t.timeline.rows], [20, 3])
        // Typed by 0.3 + 0.4 s, Enter at 0.9 s, the last prompt 0.5 s later.
        XCTAssertEqual(rows(t, at: 0.85), ["$ make", "", ""])
        XCTAssertEqual(rows(t, at: 1.0), ["$ make", "ok", ""])
        XCTAssertEqual(rows(t, at: 1.45), ["$ make", "ok", "$"])
        XCTAssertEqual(t.screenState(atLocalTime: 1.0)[1, 0].foreground, .indexed(2))
    }
}
