// What a terminal shows at one moment, as a value: the cell grid, the cursor and the modes that
// change how it is drawn. `TerminalScreen` makes these; `TerminalLayer` draws them.

/// The shape of the cursor (DECSCUSR, or a tape's / layer's choice).
public enum TerminalCursorShape: String, Hashable, Sendable, Codable, CaseIterable {
    /// A filled cell; the character under it is drawn in the background colour.
    case block
    /// A thin vertical bar at the cell's left edge.
    case bar
    /// A line under the cell.
    case underline
}

/// The visible screen of a terminal at one moment.
public struct TerminalScreenState: Hashable, Sendable {
    /// Columns of the grid.
    public var columns: Int
    /// Rows of the grid.
    public var rows: Int
    /// The cells, row by row (`cells[row][column]`), `rows` × `columns`.
    public var cells: [[TerminalCell]]
    /// The cursor's row (0 at the top).
    public var cursorRow: Int
    /// The cursor's column (0 at the left).
    public var cursorColumn: Int
    /// Whether the program shows the cursor (DECTCEM).
    public var cursorVisible: Bool
    /// The shape the program asked for (nil: the layer's own choice).
    public var cursorShape: TerminalCursorShape?
    /// Whether the alternate screen (full-screen programs) is shown.
    public var isAlternateScreen: Bool
    /// Whether the whole screen is shown in reverse video (DECSCNM).
    public var isReverseVideo: Bool

    /// A blank screen of `columns` × `rows` with the cursor at the top left.
    public init(columns: Int, rows: Int) {
        self.columns = columns; self.rows = rows
        cells = Array(repeating: Array(repeating: .blank, count: columns), count: rows)
        cursorRow = 0; cursorColumn = 0; cursorVisible = true; cursorShape = nil
        isAlternateScreen = false; isReverseVideo = false
    }

    /// The text of one row, trailing blanks removed (a wide character counts once).
    public func text(ofRow row: Int) -> String {
        guard row >= 0, row < cells.count else { return "" }
        return Self.text(of: cells[row])
    }

    /// All rows' text, one line each, trailing blanks removed from each line and trailing empty
    /// lines dropped.
    public var text: String {
        var lines = cells.map { Self.text(of: $0) }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines.joined(separator: "\n")
    }

    /// The text of a row of cells, trailing blanks removed.
    public static func text(of row: [TerminalCell]) -> String {
        var s = ""
        for cell in row where cell.width > 0 { s += cell.text.isEmpty ? " " : cell.text }
        while s.last == " " { s.removeLast() }
        return s
    }

    /// The cell at `row`, `column` (a blank cell outside the grid).
    public subscript(row: Int, column: Int) -> TerminalCell {
        guard row >= 0, row < cells.count, column >= 0, column < cells[row].count else { return .blank }
        return cells[row][column]
    }
}
