// TerminalLayer rendered: colours of known cells come from the theme, the state shown follows
// the time (in any order of frames), the cursor blinks as a function of time, and the window
// chrome (bar, margin) lands where the style says.
import Strata
import StrataTerminal
import XCTest

final class TerminalLayerTests: XCTestCase {
    /// A 10 × 3 terminal: red-background "AB" at 0 s, then a cleared screen with a green
    /// block at row 1 at 1 s.
    func makeMovie(style: TerminalStyle) -> TerminalMovie {
        let screen = TerminalScreen(columns: 10, rows: 3)
        let timeline = TerminalTimeline(columns: 10, rows: 3)
        screen.feed("\u{1B}[41mAB\u{1B}[0m")
        timeline.append(screen.state, at: 0)
        screen.feed("\u{1B}[2J\u{1B}[2;1H\u{1B}[42m    \u{1B}[0m\u{1B}[?25l")
        timeline.append(screen.state, at: 1)
        return TerminalMovie(timeline: timeline, style: style, frameRate: 10, duration: 2)
    }

    func color(_ frame: Bitmap, _ x: CGFloat, _ y: CGFloat) -> TerminalRGB {
        let p = frame.pixel(x: Int(x), y: Int(y))
        return TerminalRGB(p.r, p.g, p.b)
    }

    func close(_ a: TerminalRGB, _ b: TerminalRGB, _ tolerance: Int = 3) -> Bool {
        abs(Int(a.red) - Int(b.red)) <= tolerance && abs(Int(a.green) - Int(b.green)) <= tolerance && abs(Int(a.blue) - Int(b.blue)) <= tolerance
    }

    func testCellsShowTheStateAtTheirTimeInAnyOrder() throws {
        var style = TerminalStyle()
        style.fontSize = 16
        style.padding = 10
        style.cursorBlink = false
        let movie = makeMovie(style: style)
        let scene = movie.makeScene()
        let m = TerminalMetrics(style: style)
        let theme = style.theme
        // The middle of a cell (column c, row r) in the scene.
        func cell(_ c: Int, _ r: Int) -> (CGFloat, CGFloat) {
            (style.padding + (CGFloat(c) + 0.5) * m.cellWidth, style.padding + (CGFloat(r) + 0.5) * m.cellHeight)
        }
        let late = try scene.renderFrame(at: 1.5)
        let early = try scene.renderFrame(at: 0.5)
        let lateAgain = try scene.renderFrame(at: 1.5)
        XCTAssertEqual(late, lateAgain, "the same time gives the same pixels")
        // 0.5 s: row 0 has a red background under "AB" (left edge of the cell, beside the glyph).
        let (x0, y0) = cell(0, 0)
        XCTAssertTrue(close(color(early, x0 - m.cellWidth * 0.45, y0), theme.ansi[1]), "\(color(early, x0 - m.cellWidth * 0.45, y0))")
        // The block cursor sits at column 2 of row 0.
        let (x2, y2) = cell(2, 0)
        XCTAssertTrue(close(color(early, x2, y2), theme.cursor), "cursor: \(color(early, x2, y2))")
        // Row 1 is the background.
        let (x1, y1) = cell(1, 1)
        XCTAssertTrue(close(color(early, x1, y1), theme.background))
        // 1.5 s: row 0 is cleared, row 1's first four cells are green; the cursor is hidden.
        XCTAssertTrue(close(color(late, x0 - m.cellWidth * 0.45, y0), theme.background))
        XCTAssertTrue(close(color(late, x1, y1), theme.ansi[2]), "\(color(late, x1, y1))")
        let (x5, y5) = cell(5, 1)
        XCTAssertTrue(close(color(late, x5, y5), theme.background), "the cursor is hidden")
    }

    func testBlinkingCursorIsAFunctionOfTime() throws {
        var style = TerminalStyle()
        style.fontSize = 16
        style.padding = 10
        style.cursorBlinkInterval = 0.5
        let scene = makeMovie(style: style).makeScene()
        let m = TerminalMetrics(style: style)
        let x = style.padding + 2.5 * m.cellWidth, y = style.padding + 0.5 * m.cellHeight
        // State since 0 s: on in [0, 0.5), off in [0.5, 1).
        XCTAssertTrue(close(color(try scene.renderFrame(at: 0.7), x, y), style.theme.background))
        XCTAssertTrue(close(color(try scene.renderFrame(at: 0.2), x, y), style.theme.cursor))
    }

    func testWindowChrome() throws {
        var style = TerminalStyle()
        style.fontSize = 14
        style.margin = 20
        style.marginFill = TerminalRGB(hex: "#336699")
        style.windowBar = .colorful
        style.borderRadius = 8
        style.shadow = true
        let scene = makeMovie(style: style).makeScene()
        let frame = try scene.renderFrame(at: 0)
        let m = TerminalMetrics(style: style)
        XCTAssertEqual(CGFloat(frame.width), m.layerSize(columns: 10, rows: 3, style: style).width)
        XCTAssertTrue(close(color(frame, 2, 2), TerminalRGB(hex: "#336699")!, 2), "margin fill: \(color(frame, 2, 2))")
        // The first dot of the bar: red.
        let d = (style.windowBarSize * 0.38).rounded()
        let dot = color(frame, style.margin + style.windowBarSize / 2, style.margin + style.windowBarSize / 2)
        XCTAssertTrue(dot.red > 200 && dot.green < 150, "first dot: \(dot) (diameter \(d))")
        // Inside the window, below the bar: the theme's background.
        XCTAssertTrue(close(color(frame, CGFloat(frame.width) / 2, style.margin + style.windowBarSize + 3), style.theme.background))
    }

    func testFixedSizeFitsTheGrid() {
        var style = TerminalStyle()
        style.fontSize = 20
        let m = TerminalMetrics(style: style)
        let (columns, rows) = m.grid(fitting: CGSize(width: 1280, height: 720), style: style)
        XCTAssertLessThanOrEqual(m.layerSize(columns: columns, rows: rows, style: style).width, 1281)
        XCTAssertGreaterThan(m.layerSize(columns: columns + 1, rows: rows, style: style).width, 1280)
        XCTAssertGreaterThan(m.layerSize(columns: columns, rows: rows + 1, style: style).height, 720)
    }
}

extension TerminalLayerTests {
    /// Writes a sample frame to $STRATA_TERMINAL_LOOK (a PNG path) for review by eye.
    func testWriteSampleForReview() throws {
        guard let path = ProcessInfo.processInfo.environment["STRATA_TERMINAL_LOOK"] else { throw XCTSkip("set STRATA_TERMINAL_LOOK=out.png") }
        let screen = TerminalScreen(columns: 40, rows: 8)
        let timeline = TerminalTimeline(columns: 40, rows: 8)
        screen.feed("\u{1B}[1;32m> \u{1B}[0mls -l\r\n\u{1B}[34mdir\u{1B}[0m  \u{1B}[1mbold\u{1B}[0m \u{1B}[2mdim\u{1B}[0m \u{1B}[3mitalic\u{1B}[0m \u{1B}[4munder\u{1B}[0m \u{1B}[9mstrike\u{1B}[0m\r\n")
        screen.feed("\u{1B}[7minverse\u{1B}[0m 漢字 🙂 é \u{1B}[38;5;208m256\u{1B}[0m \u{1B}[38;2;255;0;128mtrue\u{1B}[0m\r\n")
        for i in 0..<16 { screen.feed("\u{1B}[48;5;\(i)m  ") }
        screen.feed("\u{1B}[0m\r\n\u{1B}[1;32m> \u{1B}[0m")
        timeline.append(screen.state, at: 0)
        var style = TerminalStyle()
        style.windowBar = .colorful; style.margin = 30; style.marginFill = TerminalRGB(hex: "#6b50ff"); style.borderRadius = 10; style.shadow = true
        style.cursorBlink = false
        let frame = try TerminalMovie(timeline: timeline, style: style, frameRate: 10, duration: 1).makeScene().renderFrame(at: 0)
        try frame.writePNG(to: URL(fileURLWithPath: path))
    }
}
