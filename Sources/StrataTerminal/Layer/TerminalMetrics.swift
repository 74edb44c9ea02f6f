// The size of a terminal cell for a style's font, measured once through Pango, and the layout
// of the window from it: a grid of columns × rows, the padding, the title bar and the margin.
import Foundation
import Strata

/// Cell size and window layout for a `TerminalStyle`.
public struct TerminalMetrics: Hashable, Sendable {
    /// Width of a column (the font's advance plus the letter spacing), in points.
    public var cellWidth: CGFloat
    /// Height of a row (the font's line height × `lineHeight`), in points.
    public var cellHeight: CGFloat
    /// The font's own line height, in points.
    public var fontLineHeight: CGFloat

    /// The metrics of `style`'s font.
    public init(style: TerminalStyle) {
        // The advance of one character, from a long run (the rounding of one glyph is spread).
        let sample = String(repeating: "M", count: 20)
        let size = TextMetrics.size(of: sample, font: style.fontFamily, fontSize: style.fontSize)
        fontLineHeight = max(1, size.height)
        cellWidth = max(1, size.width / 20 + style.letterSpacing)
        cellHeight = max(1, (fontLineHeight * max(0.5, style.lineHeight)).rounded())
    }

    /// The size of the grid's cells, `columns` × `rows`.
    public func gridSize(columns: Int, rows: Int) -> CGSize {
        CGSize(width: CGFloat(columns) * cellWidth, height: CGFloat(rows) * cellHeight)
    }

    /// The whole layer's size for a grid of `columns` × `rows`: grid, padding, bar and margin.
    public func layerSize(columns: Int, rows: Int, style: TerminalStyle) -> CGSize {
        let grid = gridSize(columns: columns, rows: rows)
        return CGSize(width: (grid.width + 2 * style.padding + 2 * style.margin).rounded(.up),
                      height: (grid.height + 2 * style.padding + style.barHeight + 2 * style.margin).rounded(.up))
    }

    /// The largest grid that fits a layer of `size` (at least 1 × 1).
    public func grid(fitting size: CGSize, style: TerminalStyle) -> (columns: Int, rows: Int) {
        let w = size.width - 2 * style.padding - 2 * style.margin
        let h = size.height - 2 * style.padding - style.barHeight - 2 * style.margin
        return (max(1, Int((w / cellWidth).rounded(.down))), max(1, Int((h / cellHeight).rounded(.down))))
    }
}
