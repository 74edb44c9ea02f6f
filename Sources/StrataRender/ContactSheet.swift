// Contact sheets: many frames of an animation on one image, in a grid, each reduced by a whole
// factor (box filter: the mean of each factor × factor block, so a sheet is exact and the same
// on every machine). Used to look at a whole animation at once (`strata sheet`, the `sheet`
// subcommand of scripts) and for reference images that cover several times.
import Foundation
import StrataCore

/// Lays frames out in a grid.
public enum ContactSheet {
    /// `frames` left to right, top to bottom, `columns` per row, each reduced by `reduction`
    /// (1 = full size) and separated by `spacing` pixels of `background`. Frames of different
    /// sizes are placed at the top-left of cells as large as the largest.
    /// With `labels` (one per frame), each cell has its label written under it in white, in a
    /// built-in 5×7 pixel font (digits, `.`, `s`, `f`, `#`, `:`, space; other characters are
    /// left blank), twice as large when the cells are at least 160 pixels wide.
    public static func make(_ frames: [Bitmap], columns: Int, reduction: Int = 1, spacing: Int = 4,
                            background: RGBA = RGBA(r: 0.5, g: 0.5, b: 0.5, a: 1), labels: [String]? = nil) -> Bitmap {
        let reduced = frames.map { reduce($0, by: max(1, reduction)) }
        let cols = max(1, min(columns, reduced.count))
        let rows = (reduced.count + cols - 1) / cols
        let cellW = reduced.map(\.width).max() ?? 1
        let glyphScale = cellW >= 160 ? 2 : 1
        let labelHeight = labels == nil ? 0 : 7 * glyphScale + 2 * max(2, spacing / 2)
        let cellH = (reduced.map(\.height).max() ?? 1) + labelHeight
        let width = max(1, cols * cellW + (cols + 1) * spacing), height = max(1, rows * cellH + (rows + 1) * spacing)
        var sheet = Bitmap(width: width, height: height)
        func byte(_ v: Float) -> UInt8 { UInt8((min(max(v, 0), 1) * 255).rounded()) }
        let a = min(max(background.a, 0), 1)
        let bg = [byte(background.r * a), byte(background.g * a), byte(background.b * a), byte(a)]
        for i in 0..<(width * height) { for c in 0..<4 { sheet.pixels[i * 4 + c] = bg[c] } }
        for (n, frame) in reduced.enumerated() {
            let x0 = spacing + (n % cols) * (cellW + spacing), y0 = spacing + (n / cols) * (cellH + spacing)
            for y in 0..<frame.height {
                let src = y * frame.width * 4, dst = ((y0 + y) * width + x0) * 4
                sheet.pixels.replaceSubrange(dst..<(dst + frame.width * 4), with: frame.pixels[src..<(src + frame.width * 4)])
            }
            if let labels, n < labels.count {
                let top = y0 + cellH - labelHeight + max(2, spacing / 2)
                drawLabel(labels[n], into: &sheet, x: x0, y: top, scale: glyphScale, maxWidth: cellW)
            }
        }
        return sheet
    }

    /// The built-in label font: 7 rows of 5 bits per character.
    private static let glyphs: [Character: [UInt8]] = [
        "0": [0b01110, 0b10001, 0b10011, 0b10101, 0b11001, 0b10001, 0b01110],
        "1": [0b00100, 0b01100, 0b00100, 0b00100, 0b00100, 0b00100, 0b01110],
        "2": [0b01110, 0b10001, 0b00001, 0b00010, 0b00100, 0b01000, 0b11111],
        "3": [0b11111, 0b00010, 0b00100, 0b00010, 0b00001, 0b10001, 0b01110],
        "4": [0b00010, 0b00110, 0b01010, 0b10010, 0b11111, 0b00010, 0b00010],
        "5": [0b11111, 0b10000, 0b11110, 0b00001, 0b00001, 0b10001, 0b01110],
        "6": [0b00110, 0b01000, 0b10000, 0b11110, 0b10001, 0b10001, 0b01110],
        "7": [0b11111, 0b00001, 0b00010, 0b00100, 0b01000, 0b01000, 0b01000],
        "8": [0b01110, 0b10001, 0b10001, 0b01110, 0b10001, 0b10001, 0b01110],
        "9": [0b01110, 0b10001, 0b10001, 0b01111, 0b00001, 0b00010, 0b01100],
        ".": [0, 0, 0, 0, 0, 0b01100, 0b01100],
        ":": [0, 0b01100, 0b01100, 0, 0b01100, 0b01100, 0],
        "s": [0, 0, 0b01110, 0b10000, 0b01110, 0b00001, 0b11110],
        "f": [0b00110, 0b01001, 0b01000, 0b11100, 0b01000, 0b01000, 0b01000],
        "#": [0b01010, 0b01010, 0b11111, 0b01010, 0b11111, 0b01010, 0b01010],
    ]

    /// Writes `text` in white at (x, y), one 6-pixel advance per character, cut at `maxWidth`.
    private static func drawLabel(_ text: String, into sheet: inout Bitmap, x: Int, y: Int, scale: Int, maxWidth: Int) {
        var pen = x
        for ch in text {
            defer { pen += 6 * scale }
            guard pen + 5 * scale <= x + maxWidth else { return }
            guard let rows = glyphs[ch] else { continue }
            for (row, bits) in rows.enumerated() {
                for col in 0..<5 where bits & (1 << (4 - col)) != 0 {
                    for dy in 0..<scale {
                        for dx in 0..<scale {
                            let px = pen + col * scale + dx, py = y + row * scale + dy
                            guard px >= 0, py >= 0, px < sheet.width, py < sheet.height else { continue }
                            let i = (py * sheet.width + px) * 4
                            sheet.pixels[i] = 255; sheet.pixels[i + 1] = 255; sheet.pixels[i + 2] = 255; sheet.pixels[i + 3] = 255
                        }
                    }
                }
            }
        }
    }

    /// `bitmap` reduced by a whole factor: each pixel the rounded mean of a factor × factor block
    /// (premultiplied channels; edge blocks average the pixels they have).
    public static func reduce(_ bitmap: Bitmap, by factor: Int) -> Bitmap {
        guard factor > 1 else { return bitmap }
        let w = max(1, (bitmap.width + factor - 1) / factor), h = max(1, (bitmap.height + factor - 1) / factor)
        var out = Bitmap(width: w, height: h)
        for y in 0..<h {
            for x in 0..<w {
                var sum = (0, 0, 0, 0), count = 0
                for sy in (y * factor)..<min(bitmap.height, (y + 1) * factor) {
                    for sx in (x * factor)..<min(bitmap.width, (x + 1) * factor) {
                        let i = (sy * bitmap.width + sx) * 4
                        sum.0 += Int(bitmap.pixels[i]); sum.1 += Int(bitmap.pixels[i + 1])
                        sum.2 += Int(bitmap.pixels[i + 2]); sum.3 += Int(bitmap.pixels[i + 3])
                        count += 1
                    }
                }
                let o = (y * w + x) * 4, half = count / 2
                out.pixels[o] = UInt8((sum.0 + half) / count); out.pixels[o + 1] = UInt8((sum.1 + half) / count)
                out.pixels[o + 2] = UInt8((sum.2 + half) / count); out.pixels[o + 3] = UInt8((sum.3 + half) / count)
            }
        }
        return out
    }
}
