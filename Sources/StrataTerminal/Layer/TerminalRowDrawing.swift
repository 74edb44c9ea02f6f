// How one row of cells is drawn: backgrounds as rectangles (runs of one colour merged), then the
// text in runs of one style. A run of plain ASCII is one text item placed at its first column;
// any other character (CJK, emoji, box drawing, accents) is placed at its own column, so that a
// fallback font with other advances cannot push the rest of the row off the grid.
import Foundation
import Strata

/// Records rows of cells into a drawing context.
struct TerminalRowDrawing {
    let style: TerminalStyle
    let metrics: TerminalMetrics

    /// The colours a cell is drawn in (inverse and dim applied; reverse video swaps defaults).
    func colors(of cell: TerminalCell, reverseVideo: Bool) -> (foreground: TerminalRGB, background: TerminalRGB) {
        let theme = style.theme
        var fg = theme.resolve(cell.foreground, isForeground: true)
        var bg = theme.resolve(cell.background, isForeground: false)
        if reverseVideo {
            if cell.foreground == .default { fg = theme.background }
            if cell.background == .default { bg = theme.foreground }
        }
        if cell.attributes.contains(.inverse) { swap(&fg, &bg) }
        if cell.attributes.contains(.dim) { fg = fg.mixed(with: bg, amount: 0.5) }
        return (fg, bg)
    }

    /// The font name for a cell's attributes ("DejaVu Sans Mono Bold Italic").
    func fontName(for attributes: TerminalCellAttributes) -> String {
        var name = style.fontFamily
        if attributes.contains(.bold) { name += " Bold" }
        if attributes.contains(.italic) { name += " Italic" }
        return name
    }

    /// Draws `cells` with the row's top at `y`.
    func draw(_ cells: [TerminalCell], reverseVideo: Bool, y: CGFloat, in ctx: CGContext) {
        let cw = metrics.cellWidth, ch = metrics.cellHeight
        let windowBackground = reverseVideo ? style.theme.foreground : style.theme.background
        // Backgrounds.
        var column = 0
        while column < cells.count {
            let bg = colors(of: cells[column], reverseVideo: reverseVideo).background
            var end = column + 1
            while end < cells.count, colors(of: cells[end], reverseVideo: reverseVideo).background == bg { end += 1 }
            if bg != windowBackground {
                ctx.setFillColor(bg.cgColor)
                ctx.fill(CGRect(x: CGFloat(column) * cw, y: y, width: CGFloat(end - column) * cw, height: ch))
            }
            column = end
        }
        // Text.
        let textTop = y + ((ch - metrics.fontLineHeight) / 2).rounded()
        column = 0
        while column < cells.count {
            let cell = cells[column]
            if cell.width == 0 || (cell.isBlank && !cell.attributes.contains(.underline) && !cell.attributes.contains(.strikethrough)) {
                column += 1
                continue
            }
            let key = RunKey(cell: cell, colors: colors(of: cell, reverseVideo: reverseVideo))
            var text = cell.text.isEmpty ? " " : cell.text
            var end = column + 1
            if Self.isPlainASCII(text) {
                while end < cells.count, cells[end].width == 1, Self.isPlainASCII(cells[end].text.isEmpty ? " " : cells[end].text),
                      RunKey(cell: cells[end], colors: colors(of: cells[end], reverseVideo: reverseVideo)) == key {
                    text += cells[end].text.isEmpty ? " " : cells[end].text
                    end += 1
                }
                // Trailing spaces draw nothing unless decorated.
                if !cell.attributes.contains(.underline) && !cell.attributes.contains(.strikethrough) {
                    while text.last == " " { text.removeLast() }
                }
            }
            if !text.isEmpty { drawRun(text, key: key, at: CGPoint(x: CGFloat(column) * cw, y: textTop), in: ctx) }
            column = end
        }
    }

    /// Draws one run of text in a style.
    func drawRun(_ text: String, key: RunKey, at point: CGPoint, in ctx: CGContext) {
        var underline: NSUnderlineStyle = []
        if key.attributes.contains(.doubleUnderline) { underline = .double } else if key.attributes.contains(.underline) { underline = .single }
        let run = TextContent.Run(text: text, fontName: fontName(for: key.attributes), fontSize: style.fontSize,
                                  color: key.foreground.rgba, kern: style.letterSpacing, underline: underline,
                                  strikethrough: key.attributes.contains(.strikethrough) ? .single : [])
        ctx.draw(TextContent(runs: [run]), at: point)
    }

    static func isPlainASCII(_ s: String) -> Bool {
        s.utf8.count == 1 && s.utf8.first! >= 0x20 && s.utf8.first! < 0x7F
    }

    /// What makes two cells' text drawable as one run.
    struct RunKey: Equatable {
        var foreground: TerminalRGB
        var attributes: TerminalCellAttributes

        init(cell: TerminalCell, colors: (foreground: TerminalRGB, background: TerminalRGB)) {
            foreground = colors.foreground
            attributes = cell.attributes.intersection([.bold, .italic, .underline, .doubleUnderline, .strikethrough])
        }
    }
}
