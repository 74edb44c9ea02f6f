// Text drawn from glyphs embedded in the file (`chars`, LottieGlyphs.swift): each character a
// shape layer of its glyph's outline scaled by size/100, laid out as lottie-web lays out such
// text (TextProperty.completeTextData, TextElement.applyTextPropertiesToMatrix):
//
// - a character advances by w·size/100 plus the tracking (tr/1000·size);
// - a line's width is its characters' advances and trackings up to its last non-space
//   character, less one tracking (trailing spaces do not count); right-justified lines end at
//   x = 0, centred ones are centred on it (in a box: in its width, from its left side);
// - baselines are the line height (`lh`) apart from y = 0, raised by the baseline shift (`ls`);
//   box text starts one ascent (the font list's `ascent`·size/100, else the installed font's)
//   below the box's top (`ps`);
// - box text (`sz`) wraps where a character that is not a space would pass the box's width
//   (the width so far counting each character's advance and tracking): at the line's last space
//   (which is dropped), else before that character; a character wider than the box stays alone
//   on its line (lottie-web loops there).
//
// The fill and stroke are the document's, as outlined text draws them (a stroke over the fill
// with `of`, else under it); a document without a fill colour has no fill, as in lottie-web.
import Foundation
import Strata

extension LottieCompiler {
    /// Whether `c` ends a line in a text document (\r as Lottie writes it, \n, ETX, or \r\n).
    static func isLineBreak(_ c: Character) -> Bool {
        c == "\r" || c == "\n" || c == "\u{3}" || c == "\r\n"
    }

    /// One character of glyph text where its layout puts it.
    struct PlacedGlyph {
        var character: Character
        var glyph: LottieGlyph
        /// The glyph origin on the baseline, in the text layer's space.
        var origin: CGPoint
        /// The advance alone (w·size/100, without tracking).
        var advance: Double
    }

    /// The lines of a document drawn from embedded glyphs, each its characters in order
    /// (spaces too).
    static func glyphLines(_ d: LottieTextDocument) -> [[PlacedGlyph]] {
        guard let glyphs = d.glyphs else { return [] }
        let scale = d.size / 100, tracking = d.tracking / 1000 * d.size
        func advance(_ c: Character) -> Double { (glyphs[c]?.advance ?? 0) * scale }
        var paragraphs: [[Character]] = [[]]
        for c in d.text {
            if Self.isLineBreak(c) { paragraphs.append([]) } else { paragraphs[paragraphs.count - 1].append(c) }
        }
        var lines: [[Character]] = []
        if let box = d.boxSize, box[0] > 0 {
            for p in paragraphs {
                var start = 0, i = 0, width = 0.0, lastSpace = -1
                while i < p.count {
                    if p[i] == " " { lastSpace = i }
                    let a = advance(p[i])
                    if p[i] != " ", i > start, width + a > box[0] {
                        if lastSpace >= start {
                            lines.append(Array(p[start..<lastSpace]))
                            start = lastSpace + 1
                            i = start
                        } else {
                            lines.append(Array(p[start..<i]))
                            start = i
                        }
                        width = 0
                        lastSpace = -1
                    } else {
                        width += a + tracking
                        i += 1
                    }
                }
                lines.append(Array(p[start...]))
            }
        } else {
            lines = paragraphs
        }
        let justify = [3: 0, 4: 1, 5: 2, 6: 0][d.justify] ?? d.justify
        let ascent = d.boxPosition == nil ? 0
            : d.ascent.map { $0 * d.size / 100 }
            ?? Double(TextMetrics.firstBaseline(of: TextContent(string: "Hg", fontName: d.font, fontSize: CGFloat(d.size))))
        return lines.enumerated().map { n, line in
            var xs: [Double] = [], x = 0.0, width = -tracking
            for c in line {
                xs.append(x)
                x += advance(c) + tracking
                if c != " " { width = x - tracking }
            }
            var dx: Double, baseline = Double(n) * d.lineHeight - d.baselineShift
            if let p = d.boxPosition, let b = d.boxSize {
                baseline += p[1] + ascent
                dx = p[0] + (justify == 1 ? b[0] - width : justify == 2 ? (b[0] - width) / 2 : 0)
            } else {
                dx = justify == 1 ? -width : justify == 2 ? -width / 2 : 0
            }
            return line.enumerated().map { k, c in
                PlacedGlyph(character: c, glyph: glyphs[c] ?? LottieGlyph(advance: 0, contours: []),
                            origin: CGPoint(x: dx + xs[k], y: baseline), advance: advance(c))
            }
        }
    }

    /// A document drawn from its embedded glyphs: a shape layer (two with a stroke under the
    /// fill) a character with ink.
    func glyphLayers(_ d: LottieTextDocument, path: String) throws -> [CALayer] {
        let placed = Self.glyphLines(d).joined().filter { !$0.glyph.contours.isEmpty }
        textLines += placed.count
        guard textLines <= animation.limits.layers else {
            throw LottieError(path: path, "more than \(animation.limits.layers) lines and characters of text in all, over the layer limit")
        }
        return placed.flatMap { g in
            Self.glyphShapes(g.glyph.path(size: d.size), d).map { shape in
                shape.position = g.origin
                return shape
            }
        }
    }

    /// The shape layers of one glyph: its fill, and its stroke where the document has a stroke
    /// colour and width (over the fill with `of`, else under it).
    static func glyphShapes(_ outline: CGPath, _ d: LottieTextDocument) -> [CAShapeLayer] {
        if d.stroke != nil && d.strokeWidth > 0 { return outlineShapes(outline, d) }
        guard let fill = d.fill else { return [] }
        let s = CAShapeLayer()
        s.anchorPoint = .zero
        s.bounds = .zero
        s.path = outline
        s.fillColor = color(fill)
        s.strokeColor = nil
        return [s]
    }
}
