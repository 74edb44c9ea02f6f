// One character cell of a terminal screen as libvterm reports it: the characters (a base
// character and its combining marks), how many columns they take, colours and attributes.

/// The text attributes of a cell (SGR).
public struct TerminalCellAttributes: OptionSet, Hashable, Sendable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// SGR 1.
    public static let bold = TerminalCellAttributes(rawValue: 1 << 0)
    /// SGR 2 (faint): drawn halfway between the foreground and the background.
    public static let dim = TerminalCellAttributes(rawValue: 1 << 1)
    /// SGR 3.
    public static let italic = TerminalCellAttributes(rawValue: 1 << 2)
    /// SGR 4 (any underline style).
    public static let underline = TerminalCellAttributes(rawValue: 1 << 3)
    /// SGR 21 or 4:2.
    public static let doubleUnderline = TerminalCellAttributes(rawValue: 1 << 4)
    /// SGR 5.
    public static let blink = TerminalCellAttributes(rawValue: 1 << 5)
    /// SGR 7: foreground and background swapped.
    public static let inverse = TerminalCellAttributes(rawValue: 1 << 6)
    /// SGR 9.
    public static let strikethrough = TerminalCellAttributes(rawValue: 1 << 7)
}

/// One cell of the grid.
public struct TerminalCell: Hashable, Sendable {
    /// The characters shown (empty: a blank cell; also empty in the second column of a wide
    /// character, whose `width` is then 0).
    public var text: String
    /// Columns the characters take: 1, 2 for a wide (CJK, emoji) character, 0 for the column a
    /// wide character on its left covers.
    public var width: UInt8
    /// Foreground colour.
    public var foreground: TerminalColor
    /// Background colour.
    public var background: TerminalColor
    /// Bold, dim, italic, underline, inverse, strikethrough…
    public var attributes: TerminalCellAttributes

    /// A cell showing `text` over `width` columns in the given colours and attributes (default: an
    /// empty one-column cell in the default colours).
    public init(text: String = "", width: UInt8 = 1, foreground: TerminalColor = .default,
                background: TerminalColor = .default, attributes: TerminalCellAttributes = []) {
        self.text = text; self.width = width; self.foreground = foreground; self.background = background
        self.attributes = attributes
    }

    /// A blank cell in the default colours.
    public static let blank = TerminalCell()

    /// Whether the cell shows nothing but its background (no characters, or spaces).
    public var isBlank: Bool { text.isEmpty || text == " " }
}
