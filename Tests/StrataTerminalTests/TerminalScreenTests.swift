// libvterm through TerminalScreen: a table of escape sequences, each fed to a fresh 20 × 5
// terminal, with the screen text expected after it and attributes or colours at chosen cells.
import StrataTerminal
import XCTest

final class TerminalScreenTests: XCTestCase {
    struct Case {
        let name: String
        let input: String
        /// The screen's text (rows joined by newlines, trailing blanks dropped).
        let text: String
        /// (row, column, expected check) at chosen cells.
        var cells: [(Int, Int, (TerminalCell) -> Bool)] = []
        /// Expected cursor (row, column), if checked.
        var cursor: (Int, Int)? = nil
    }

    static let esc = "\u{1B}"

    static var table: [Case] { [
        Case(name: "plain text and CR LF", input: "hello\r\nworld", text: "hello\nworld", cursor: (1, 5)),
        Case(name: "cursor position CUP", input: "\(esc)[3;5HX", text: "\n\n    X", cursor: (2, 5)),
        Case(name: "cursor up/down/forward/back", input: "\(esc)[3;3H\(esc)[2AA\(esc)[1BB\(esc)[3CC\(esc)[6DD", text: "  A\n  DB   C"),
        Case(name: "carriage return overwrites", input: "abcdef\rXY", text: "XYcdef"),
        Case(name: "backspace", input: "abc\u{8}\u{8}Z", text: "aZc"),
        Case(name: "erase to end of line EL", input: "abcdef\(esc)[1;3H\(esc)[K", text: "ab"),
        Case(name: "erase whole line EL 2", input: "abcdef\r\nsecond\(esc)[1;3H\(esc)[2K", text: "\nsecond"),
        Case(name: "erase display ED 2", input: "one\r\ntwo\(esc)[2J", text: ""),
        Case(name: "erase below ED 0", input: "one\r\ntwo\r\nthree\(esc)[2;2H\(esc)[J", text: "one\nt"),
        Case(name: "tab stops", input: "a\tb", text: "a       b"),
        Case(name: "scrolling off the bottom", input: "1\r\n2\r\n3\r\n4\r\n5\r\n6", text: "2\n3\n4\n5\n6"),
        Case(name: "scroll region DECSTBM", input: "top\r\n\(esc)[2;4r\(esc)[2;1Ha\r\nb\r\nc\r\nd\(esc)[r\(esc)[5;1Hbottom",
             text: "top\nb\nc\nd\nbottom"),
        Case(name: "insert line IL", input: "one\r\ntwo\(esc)[1;1H\(esc)[L", text: "\none\ntwo"),
        Case(name: "delete characters DCH", input: "abcdef\(esc)[1;2H\(esc)[2P", text: "adef"),
        Case(name: "line wrapping at the last column", input: String(repeating: "x", count: 23), text: String(repeating: "x", count: 20) + "\nxxx",
             cursor: (1, 3)),
        Case(name: "SGR bold red", input: "\(esc)[1;31mR\(esc)[0mn", text: "Rn",
             cells: [(0, 0, { $0.attributes == [.bold] && $0.foreground == .indexed(1) }),
                     (0, 1, { $0.attributes == [] && $0.foreground == .default })]),
        Case(name: "SGR dim, italic, underline, inverse, strikethrough", input: "\(esc)[2md\(esc)[22;3mi\(esc)[23;4mu\(esc)[24;7mv\(esc)[27;9ms\(esc)[0m.",
             text: "diuvs.",
             cells: [(0, 0, { $0.attributes == [.dim] }), (0, 1, { $0.attributes == [.italic] }),
                     (0, 2, { $0.attributes == [.underline] }), (0, 3, { $0.attributes == [.inverse] }),
                     (0, 4, { $0.attributes == [.strikethrough] }), (0, 5, { $0.attributes == [] })]),
        Case(name: "SGR bold and dim together, then 22 clears both", input: "\(esc)[1;2mb\(esc)[22mn", text: "bn",
             cells: [(0, 0, { $0.attributes == [.bold, .dim] }), (0, 1, { $0.attributes == [] })]),
        Case(name: "a 2 inside a colour argument is not dim", input: "\(esc)[38;2;2;2;2mx\(esc)[38;5;2my", text: "xy",
             cells: [(0, 0, { $0.foreground == .rgb(2, 2, 2) && $0.attributes == [] }),
                     (0, 1, { $0.foreground == .indexed(2) && $0.attributes == [] })]),
        Case(name: "SGR 256 and 24-bit colours, backgrounds", input: "\(esc)[38;5;208;48;5;17ma\(esc)[38;2;10;20;30;48;2;200;100;50mb\(esc)[93;104mc",
             text: "abc",
             cells: [(0, 0, { $0.foreground == .indexed(208) && $0.background == .indexed(17) }),
                     (0, 1, { $0.foreground == .rgb(10, 20, 30) && $0.background == .rgb(200, 100, 50) }),
                     (0, 2, { $0.foreground == .indexed(11) && $0.background == .indexed(12) })]),
        Case(name: "wide CJK characters take two cells", input: "a漢字b", text: "a漢字b",
             cells: [(0, 1, { $0.text == "漢" && $0.width == 2 }), (0, 2, { $0.width == 0 }),
                     (0, 3, { $0.text == "字" && $0.width == 2 }), (0, 5, { $0.text == "b" })], cursor: (0, 6)),
        Case(name: "emoji is wide", input: "🙂x", text: "🙂x", cells: [(0, 0, { $0.text == "🙂" && $0.width == 2 }), (0, 2, { $0.text == "x" })]),
        Case(name: "combining mark stays in its cell", input: "e\u{301}x", text: "e\u{301}x", cells: [(0, 0, { $0.text == "e\u{301}" })]),
        Case(name: "alternate screen and back", input: "main\(esc)[?1049h\(esc)[Halt\(esc)[?1049l", text: "main"),
        Case(name: "in the alternate screen", input: "main\(esc)[?1049h\(esc)[H\(esc)[2Jalt", text: "alt"),
        Case(name: "hidden cursor", input: "\(esc)[?25l", text: ""),
    ] }

    func testEscapeSequenceTable() {
        for c in Self.table {
            let screen = TerminalScreen(columns: 20, rows: 5)
            screen.feed(c.input)
            let state = screen.state
            XCTAssertEqual(state.text, c.text, c.name)
            for (row, column, check) in c.cells {
                XCTAssertTrue(check(state[row, column]), "\(c.name): cell \(row),\(column) is \(state[row, column])")
            }
            if let (row, column) = c.cursor {
                XCTAssertEqual(state.cursorRow, row, "\(c.name): cursor row")
                XCTAssertEqual(state.cursorColumn, column, "\(c.name): cursor column")
            }
        }
    }

    func testModes() {
        let screen = TerminalScreen(columns: 20, rows: 5)
        XCTAssertTrue(screen.state.cursorVisible)
        screen.feed("\(Self.esc)[?25l")
        XCTAssertFalse(screen.state.cursorVisible)
        screen.feed("\(Self.esc)[?25h\(Self.esc)[?1049h")
        XCTAssertTrue(screen.state.cursorVisible)
        XCTAssertTrue(screen.state.isAlternateScreen)
        screen.feed("\(Self.esc)[?1049l\(Self.esc)[6 q")
        XCTAssertFalse(screen.state.isAlternateScreen)
        XCTAssertEqual(screen.state.cursorShape, .bar)
    }

    func testScrollbackKeepsLinesScrolledOffTheMainScreenOnly() {
        let screen = TerminalScreen(columns: 10, rows: 3)
        screen.feed((1...5).map { "line\($0)" }.joined(separator: "\r\n"))
        XCTAssertEqual(screen.scrollback.map { TerminalScreenState.text(of: $0) }, ["line1", "line2"])
        XCTAssertEqual(screen.state.text, "line3\nline4\nline5")
        screen.feed("\(Self.esc)[?1049h\(Self.esc)[H")
        screen.feed((1...5).map { "alt\($0)" }.joined(separator: "\r\n"))
        XCTAssertEqual(screen.scrollback.count, 2, "the alternate screen keeps no scrollback")
    }

    func testViewportScrolledBackShowsScrollbackAboveTheScreen() {
        let screen = TerminalScreen(columns: 10, rows: 3)
        screen.feed((1...5).map { "line\($0)" }.joined(separator: "\r\n") + "\r\n漢字")
        XCTAssertEqual(screen.linesScrolledOff, 3)
        XCTAssertEqual(screen.viewport(scrolledBack: 0), screen.state)
        let one = screen.viewport(scrolledBack: 1)
        XCTAssertEqual(one.text, "line3\nline4\nline5")
        XCTAssertEqual(one.cursorRow, 2)
        XCTAssertFalse(one.cursorVisible, "the cursor's row is below the view")
        XCTAssertEqual(screen.viewport(scrolledBack: 3).text, "line1\nline2\nline3")
        XCTAssertEqual(screen.viewport(scrolledBack: 99).text, "line1\nline2\nline3", "no further back than the scrollback")
        // Further back than a screenful: scrollback only.
        screen.feed("\r\nsix\r\nseven")
        XCTAssertEqual(screen.scrollback.count, 5)
        XCTAssertEqual(screen.viewport(scrolledBack: 4).text, "line2\nline3\nline4")
        XCTAssertEqual(screen.viewport(scrolledBack: 5).text, "line1\nline2\nline3")
        // The wide characters' rows keep their cells when scrolled.
        screen.feed("\r\nend\r\nx\r\ny")
        let wide = screen.viewport(scrolledBack: 3)
        XCTAssertEqual(wide.text, "漢字\nsix\nseven")
        XCTAssertEqual(wide[0, 0].width, 2)
        XCTAssertEqual(wide[0, 1].width, 0)
        // The alternate screen has no scrollback to show.
        screen.feed("\(Self.esc)[?1049h\(Self.esc)[Halt")
        XCTAssertEqual(screen.viewport(scrolledBack: 2).text, "alt")
    }

    func testSequencesSplitAcrossWrites() {
        let screen = TerminalScreen(columns: 20, rows: 2)
        let bytes = Array("\(Self.esc)[2;31md\(Self.esc)[0m漢".utf8)
        for b in bytes { screen.feed([b]) }
        XCTAssertEqual(screen.state.text, "d漢")
        XCTAssertEqual(screen.state[0, 0].attributes, [.dim])
        XCTAssertEqual(screen.state[0, 0].foreground, .indexed(1))
    }

    func testRepliesToStatusQueries() {
        let screen = TerminalScreen(columns: 20, rows: 5)
        var reply: [UInt8] = []
        screen.onReply = { reply += $0 }
        screen.feed("\(Self.esc)[2;3H\(Self.esc)[6n")
        XCTAssertEqual(String(decoding: reply, as: UTF8.self), "\(Self.esc)[2;3R")
    }

    func testThemeResolvesThePalette() throws {
        let theme = TerminalTheme.strataDark
        XCTAssertEqual(theme.resolve(.indexed(1), isForeground: true), theme.ansi[1])
        XCTAssertEqual(theme.resolve(.default, isForeground: false), theme.background)
        XCTAssertEqual(theme.paletteColor(16), TerminalRGB(0, 0, 0))
        XCTAssertEqual(theme.paletteColor(231), TerminalRGB(255, 255, 255))
        XCTAssertEqual(theme.paletteColor(196), TerminalRGB(255, 0, 0))
        XCTAssertEqual(theme.paletteColor(232), TerminalRGB(8, 8, 8))
        let json = try String(decoding: JSONEncoder().encode(theme), as: UTF8.self)
        XCTAssertEqual(try TerminalTheme(json: json), theme)
        let purple = json.replacingOccurrences(of: "\"magenta\"", with: "\"purple\"")
        XCTAssertEqual(try TerminalTheme(json: purple).ansi[5], theme.ansi[5])
        XCTAssertThrowsError(try TerminalTheme(json: ##"{"background": "#000000", "foreground": "#ffffff"}"##)) {
            XCTAssertTrue("\($0)".contains("black"), "\($0)")
        }
        XCTAssertEqual(TerminalTheme.named("strata-light"), .strataLight)
    }
}
