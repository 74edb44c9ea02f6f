// A terminal emulator: bytes a program writes go in, the screen it shows comes out. The
// emulation is libvterm's (the library behind Neovim's and Emacs' terminals): escape sequences,
// UTF-8, wide characters, scroll regions, the alternate screen. This type keeps what libvterm
// reports through its callbacks — lines scrolled off the top (scrollback), cursor visibility and
// shape, the alternate screen — and reads the cell grid back as `TerminalScreenState` values,
// re-reading only rows libvterm said changed. Replies a program asks for (cursor position,
// device attributes) come out through `onReply`, for whoever writes to the program.
import CVTerm

/// A terminal emulator (libvterm) fed with a program's output.
///
/// ```swift
/// let screen = TerminalScreen(columns: 80, rows: 24)
/// screen.feed("\u{1B}[1;31mred\u{1B}[0m plain\r\n")
/// screen.state.text(ofRow: 0)            // "red plain"
/// screen.state[0, 0].attributes          // [.bold]
/// ```
public final class TerminalScreen {
    /// Columns of the grid.
    public private(set) var columns: Int
    /// Rows of the grid.
    public private(set) var rows: Int
    /// Lines scrolled off the top of the main screen, oldest first (at most `scrollbackLimit`).
    public private(set) var scrollback: [[TerminalCell]] = []
    /// How many scrolled-off lines are kept.
    public var scrollbackLimit = 10_000
    /// How many lines have scrolled off the top so far (counting those `scrollbackLimit` let go).
    public private(set) var linesScrolledOff = 0
    /// Bytes the terminal sends back to the program (answers to status queries).
    public var onReply: (([UInt8]) -> Void)?
    /// The window title the program set (OSC 0/2), if any.
    public private(set) var title: String?

    let vt: OpaquePointer
    private let vtScreen: OpaquePointer
    private let callbacks: UnsafeMutablePointer<VTermScreenCallbacks>
    private var faint = FaintCarrier()
    private var filtered: [UInt8] = []
    private var cursorVisible = true
    private var cursorShape: TerminalCursorShape?
    private var alternate = false
    private var reverse = false
    /// The last state read, and which of its rows libvterm changed since.
    private var cached: TerminalScreenState
    private var dirty: [Bool]

    /// A terminal of `columns` × `rows` (each at least 1), UTF-8, with the alternate screen.
    public init(columns: Int, rows: Int) {
        precondition(columns > 0 && rows > 0, "TerminalScreen: \(columns)×\(rows) has no cells")
        self.columns = columns; self.rows = rows
        vt = vterm_new(Int32(rows), Int32(columns))
        vterm_set_utf8(vt, 1)
        vtScreen = vterm_obtain_screen(vt)
        callbacks = .allocate(capacity: 1)
        callbacks.initialize(to: VTermScreenCallbacks())
        cached = TerminalScreenState(columns: columns, rows: rows)
        dirty = Array(repeating: true, count: rows)
        callbacks.pointee.damage = { rect, user in
            TerminalScreen.from(user).markDirty(rect.start_row, rect.end_row); return 1
        }
        callbacks.pointee.moverect = { dest, _, user in
            TerminalScreen.from(user).markDirty(dest.start_row, dest.end_row); return 1
        }
        callbacks.pointee.settermprop = { prop, value, user in
            guard let value else { return 1 }
            TerminalScreen.from(user).setProperty(prop, value.pointee); return 1
        }
        callbacks.pointee.sb_pushline = { cols, cells, user in
            guard let cells else { return 1 }
            TerminalScreen.from(user).pushLine(UnsafeBufferPointer(start: cells, count: Int(cols))); return 1
        }
        let me = Unmanaged.passUnretained(self).toOpaque()
        vterm_screen_set_callbacks(vtScreen, callbacks, me)
        vterm_screen_enable_altscreen(vtScreen, 1)
        vterm_output_set_callback(vt, { bytes, count, user in
            guard let bytes, count > 0, let user else { return }
            let me = Unmanaged<TerminalScreen>.fromOpaque(user).takeUnretainedValue()
            me.onReply?(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        }, me)
        vterm_screen_reset(vtScreen, 1)
        // The reset reports libvterm's default shape; only a program's choice counts.
        cursorShape = nil
    }

    deinit {
        vterm_free(vt)
        callbacks.deinitialize(count: 1)
        callbacks.deallocate()
    }

    private static func from(_ user: UnsafeMutableRawPointer?) -> TerminalScreen {
        Unmanaged<TerminalScreen>.fromOpaque(user!).takeUnretainedValue()
    }

    // MARK: Input

    /// Feeds bytes a program wrote.
    public func feed(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { feed($0) }
    }

    /// Feeds bytes a program wrote.
    public func feed(_ bytes: UnsafeBufferPointer<UInt8>) {
        filtered.removeAll(keepingCapacity: true)
        faint.filter(bytes, into: &filtered)
        guard !filtered.isEmpty else { return }
        filtered.withUnsafeBufferPointer { p in
            p.withMemoryRebound(to: CChar.self) { c in
                var offset = 0
                while offset < c.count {
                    let n = vterm_input_write(vt, c.baseAddress! + offset, c.count - offset)
                    if n == 0 { break }
                    offset += n
                }
            }
        }
        vterm_screen_flush_damage(vtScreen)
    }

    /// Feeds text a program wrote (as UTF-8).
    public func feed(_ text: String) { feed(Array(text.utf8)) }

    /// Changes the grid's size (a recording's resize event); the program is not told.
    public func resize(columns: Int, rows: Int) {
        guard columns > 0, rows > 0, columns != self.columns || rows != self.rows else { return }
        vterm_set_size(vt, Int32(rows), Int32(columns))
        self.columns = columns; self.rows = rows
        cached = TerminalScreenState(columns: columns, rows: rows)
        dirty = Array(repeating: true, count: rows)
    }

    /// What the terminal sends while `body` runs, instead of giving it to `onReply`.
    func capturingReplies(_ body: () -> Void) -> [UInt8] {
        let saved = onReply
        var captured: [UInt8] = []
        onReply = { captured += $0 }
        body()
        onReply = saved
        return captured
    }

    // MARK: Output

    /// The screen as it is now.
    public var state: TerminalScreenState {
        for row in 0..<rows where dirty[row] {
            cached.cells[row] = readRow(row)
            dirty[row] = false
        }
        var pos = VTermPos()
        vterm_state_get_cursorpos(vterm_obtain_state(vt), &pos)
        cached.cursorRow = Int(pos.row); cached.cursorColumn = Int(pos.col)
        cached.cursorVisible = cursorVisible
        cached.cursorShape = cursorShape
        cached.isAlternateScreen = alternate
        cached.isReverseVideo = reverse
        return cached
    }

    /// The screen as a terminal shows it scrolled `lines` back into the scrollback (as a user
    /// scrolls the view up, at most as far as the scrollback goes): the rows starting `lines`
    /// lines above the screen's top, scrolled-off lines first. The cursor moves down with its
    /// row and is hidden once it is below the view. The alternate screen has no scrollback (as
    /// in xterm), so it is shown as it is.
    public func viewport(scrolledBack lines: Int) -> TerminalScreenState {
        var view = state
        let n = view.isAlternateScreen ? 0 : max(0, min(lines, scrollback.count))
        guard n > 0 else { return view }
        let top = scrollback.count - n
        view.cells = (0..<rows).map { i -> [TerminalCell] in
            let line = top + i
            guard line < scrollback.count else { return state.cells[line - scrollback.count] }
            var row = Array(scrollback[line].prefix(columns))
            // A wide character cut in two by a narrower grid is dropped.
            if let last = row.last, last.width == 2, row.count == columns { row[row.count - 1] = .blank }
            return row + Array(repeating: .blank, count: columns - row.count)
        }
        view.cursorRow += n
        if view.cursorRow >= rows { view.cursorRow = rows - 1; view.cursorVisible = false }
        return view
    }

    /// One cell as it is now.
    public func cell(row: Int, column: Int) -> TerminalCell {
        guard row >= 0, row < rows, column >= 0, column < columns else { return .blank }
        var c = VTermScreenCell()
        vterm_screen_get_cell(vtScreen, VTermPos(row: Int32(row), col: Int32(column)), &c)
        return Self.convert(c)
    }

    private func readRow(_ row: Int) -> [TerminalCell] {
        var out: [TerminalCell] = []
        out.reserveCapacity(columns)
        var c = VTermScreenCell()
        var covered = false
        for column in 0..<columns {
            vterm_screen_get_cell(vtScreen, VTermPos(row: Int32(row), col: Int32(column)), &c)
            var cell = Self.convert(c)
            if covered { cell.text = ""; cell.width = 0 }
            covered = cell.width == 2
            out.append(cell)
        }
        return out
    }

    /// Printable ASCII as one-character strings, made once.
    private static let ascii: [String] = (0..<128).map { String(UnicodeScalar(UInt8($0))) }

    private static func convert(_ c: VTermScreenCell) -> TerminalCell {
        var text = ""
        withUnsafeBytes(of: c.chars) { raw in
            let chars = raw.bindMemory(to: UInt32.self)
            if chars[0] < 128, chars[0] != 0, chars[1] == 0 {
                text = ascii[Int(chars[0])]
                return
            }
            for ch in chars {
                guard ch != 0, ch != UInt32.max, let scalar = Unicode.Scalar(ch) else { break }
                text.unicodeScalars.append(scalar)
            }
        }
        var attributes: TerminalCellAttributes = []
        if c.attrs.bold != 0 { attributes.insert(.bold) }
        if c.attrs.italic != 0 { attributes.insert(.italic) }
        switch c.attrs.underline {
        case 0: break
        case 2: attributes.formUnion([.underline, .doubleUnderline])
        default: attributes.insert(.underline)
        }
        if c.attrs.blink != 0 { attributes.insert(.blink) }
        if c.attrs.reverse != 0 { attributes.insert(.inverse) }
        if c.attrs.strike != 0 { attributes.insert(.strikethrough) }
        if c.attrs.font == FaintCarrier.font { attributes.insert(.dim) }
        var fg = c.fg, bg = c.bg
        return TerminalCell(text: text, width: c.width == 2 ? 2 : 1,
                            foreground: Self.color(&fg, isDefault: strata_vterm_color_is_default_fg(&fg) != 0),
                            background: Self.color(&bg, isDefault: strata_vterm_color_is_default_bg(&bg) != 0),
                            attributes: attributes)
    }

    private static func color(_ c: inout VTermColor, isDefault: Bool) -> TerminalColor {
        if isDefault { return .default }
        if strata_vterm_color_is_indexed(&c) != 0 { return .indexed(c.indexed.idx) }
        return .rgb(c.rgb.red, c.rgb.green, c.rgb.blue)
    }

    // MARK: Callbacks

    private func markDirty(_ start: Int32, _ end: Int32) {
        let lo = max(0, Int(start)), hi = min(rows, Int(end))
        guard lo < hi else { return }
        for r in lo..<hi { dirty[r] = true }
    }

    private func setProperty(_ prop: VTermProp, _ value: VTermValue) {
        switch prop {
        case VTERM_PROP_CURSORVISIBLE: cursorVisible = value.boolean != 0
        case VTERM_PROP_ALTSCREEN:
            alternate = value.boolean != 0
            dirty = Array(repeating: true, count: rows)
        case VTERM_PROP_REVERSE:
            reverse = value.boolean != 0
        case VTERM_PROP_CURSORSHAPE:
            switch Int(value.number) {
            case Int(VTERM_PROP_CURSORSHAPE_BLOCK): cursorShape = .block
            case Int(VTERM_PROP_CURSORSHAPE_UNDERLINE): cursorShape = .underline
            case Int(VTERM_PROP_CURSORSHAPE_BAR_LEFT): cursorShape = .bar
            default: cursorShape = nil
            }
        case VTERM_PROP_TITLE:
            title = value.string.map { String(cString: $0) }
        default: break
        }
    }

    private func pushLine(_ cells: UnsafeBufferPointer<VTermScreenCell>) {
        var line: [TerminalCell] = []
        line.reserveCapacity(cells.count)
        var covered = false
        for c in cells {
            var cell = Self.convert(c)
            if covered { cell.text = ""; cell.width = 0 }
            covered = cell.width == 2
            line.append(cell)
        }
        scrollback.append(line)
        linesScrolledOff += 1
        if scrollback.count > scrollbackLimit { scrollback.removeFirst(scrollback.count - scrollbackLimit) }
    }
}
