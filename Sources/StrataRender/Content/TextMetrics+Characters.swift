// Where each character of a line is drawn: the x of its first glyph's origin in the same Pango
// layout TextMetrics measures and a CATextLayer draws (shaping, kerning and letter spacing
// included), so one layer a character can put each glyph exactly where the whole line has it.
import Foundation
import CCairo
import StrataCore

extension TextMetrics {
    /// The x of each character's glyph origin in `text` laid out as one unwrapped line, in
    /// points from the layout's origin (where a CATextLayer sized with `size(of:)` draws it).
    ///
    /// One entry per `Character` of the text's string, in order. The origin is the point a glyph
    /// is drawn from (before its left side bearing): drawing a character alone puts its glyph at
    /// `glyphOrigins(of: alone)[0]`, so the difference of the two places it as the line does. A
    /// character without a glyph of its own (a line break, a mark merged into its base) gets
    /// the leading edge of its position in the line.
    ///
    /// ```swift
    /// let line = TextContent(string: "AV", fontName: "DejaVu Sans", fontSize: 20)
    /// TextMetrics.glyphOrigins(of: line)   // [0.0, 12.40234375]: the advance of "A" (13.68) less the A–V kerning
    /// ```
    public static func glyphOrigins(of text: TextContent) -> [CGFloat] {
        var t = text
        t.isWrapped = false
        t.truncationMode = .none
        let string = t.string
        // The UTF-8 offset where each character starts.
        var starts: [Int] = []
        var offset = 0
        for c in string {
            starts.append(offset)
            offset += c.utf8.count
        }
        guard !starts.isEmpty else { return [] }
        func characterIndex(ofByte b: Int) -> Int {
            var lo = 0, hi = starts.count - 1
            while lo < hi {
                let mid = (lo + hi + 1) / 2
                if starts[mid] <= b { lo = mid } else { hi = mid - 1 }
            }
            return lo
        }
        return PangoEngine.shared.withContext { h -> [CGFloat] in
            let layout = TextLayout(t, width: nil, height: nil, context: h.context)
            defer { layout.release() }
            let scale = CGFloat(PANGO_SCALE)
            var origins = [CGFloat?](repeating: nil, count: starts.count)
            if let iter = pango_layout_get_iter(layout.layout) {
                defer { pango_layout_iter_free(iter) }
                repeat {
                    guard let run = pango_layout_iter_get_run_readonly(iter), let item = run.pointee.item,
                          let glyphs = run.pointee.glyphs, let infos = glyphs.pointee.glyphs,
                          let clusters = glyphs.pointee.log_clusters else { continue }
                    var logical = PangoRectangle()
                    pango_layout_iter_get_run_extents(iter, nil, &logical)
                    var x = CGFloat(logical.x)
                    for g in 0..<Int(glyphs.pointee.num_glyphs) {
                        let geometry = infos[g].geometry
                        let c = characterIndex(ofByte: Int(item.pointee.offset) + Int(clusters[g]))
                        if origins[c] == nil { origins[c] = (x + CGFloat(geometry.x_offset)) / scale }
                        x += CGFloat(geometry.width)
                    }
                } while pango_layout_iter_next_run(iter) != 0
            }
            return origins.enumerated().map { i, o in
                if let o { return o }
                var pos = PangoRectangle()
                pango_layout_index_to_pos(layout.layout, Int32(starts[i]), &pos)
                return CGFloat(min(pos.x, pos.x + pos.width)) / scale
            }
        }
    }
}
