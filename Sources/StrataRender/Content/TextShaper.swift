// Text as positioned glyphs: the Pango layout of a text layer (TextLayout: HarfBuzz shaping,
// bidi, wrapping, alignment, ellipsizing, font fallback) read back run by run — each run's Cairo
// font, colour and glyphs with their positions in layer points, where pango_cairo_show_layout
// would draw them. Kept between frames per (text, bounds size), so a text layer that only moves
// is not laid out again. Text that needs Pango's own renderer (underline, strikethrough, glyphs a
// font lacks, drawn as hex boxes) is not shaped here: such layers keep a Cairo backing store.
import Foundation
import Synchronization
import CCairo
import StrataCore

/// A run of glyphs in one font and colour, positions in layer points from the bounds' origin.
struct ShapedRun: Sendable {
    let font: ShapedFont
    let color: RGBA
    let glyphs: [UInt32]
    let xs: [Double]
    let ys: [Double]
}

/// Shaped text by content and bounds size; thread-safe, entries unused for two frames dropped.
final class TextShaper: Sendable {
    struct Key: Hashable {
        let text: TextContent
        let width: CGFloat, height: CGFloat
    }
    struct State {
        var entries: [Key: (runs: [ShapedRun]?, frame: Int)] = [:]
        var frame = 0
    }
    private let state = Mutex(State())

    /// The runs of `text` laid out in bounds of `size`, or nil when it needs Pango's renderer.
    func shape(_ text: TextContent, size: CGSize) -> [ShapedRun]? {
        let key = Key(text: text, width: size.width, height: size.height)
        if let hit = state.withCheckedLock({ s -> [ShapedRun]?? in
            guard let e = s.entries[key] else { return nil }
            s.entries[key] = (e.runs, s.frame)
            return .some(e.runs)
        }) { return hit }
        let runs = TextShaper.layOut(text, size: size)
        state.withCheckedLock { $0.entries[key] = (runs, $0.frame) }
        return runs
    }

    /// Drops the entries not used in this frame or the previous one.
    func endFrame() {
        state.withCheckedLock { s in
            let keep = s.frame - 1
            s.entries = s.entries.filter { $0.value.frame >= keep }
            s.frame += 1
        }
    }

    static func layOut(_ text: TextContent, size: CGSize) -> [ShapedRun]? {
        guard size.width > 0, size.height > 0, !text.runs.isEmpty else { return [] }
        if text.runs.contains(where: { !$0.underline.isEmpty || !$0.strikethrough.isEmpty }) { return nil }
        // Byte offsets where each styled run ends (Pango items never straddle them).
        var ends: [Int] = []
        var total = 0
        for r in text.runs { total += r.text.utf8.count; ends.append(total) }
        return PangoEngine.shared.withContext { h -> [ShapedRun]? in
            let layout = TextLayout(text, width: size.width, height: size.height, context: h.context)
            defer { layout.release() }
            guard let iter = pango_layout_get_iter(layout.layout) else { return nil }
            defer { pango_layout_iter_free(iter) }
            let scale = Double(PANGO_SCALE)
            var out: [ShapedRun] = []
            repeat {
                guard let run = pango_layout_iter_get_run_readonly(iter) else { continue }
                var logical = PangoRectangle()
                pango_layout_iter_get_run_extents(iter, nil, &logical)
                let baseline = Double(pango_layout_iter_get_baseline(iter)) / scale
                guard let item = run.pointee.item, let glyphString = run.pointee.glyphs,
                      let pangoFont = item.pointee.analysis.font,
                      let scaled = pango_cairo_font_get_scaled_font(OpaquePointer(pangoFont)) else { return nil }
                let offset = Int(item.pointee.offset)
                let styled = text.runs[min(ends.firstIndex { offset < $0 } ?? text.runs.count - 1, text.runs.count - 1)]
                var x = Double(logical.x) / scale
                var glyphs: [UInt32] = [], xs: [Double] = [], ys: [Double] = []
                let n = Int(glyphString.pointee.num_glyphs)
                glyphs.reserveCapacity(n); xs.reserveCapacity(n); ys.reserveCapacity(n)
                for i in 0..<n {
                    let info = glyphString.pointee.glyphs[i]
                    let g = UInt32(info.glyph)
                    if g != 0x0FFF_FFFF {  // PANGO_GLYPH_EMPTY
                        if g & 0x1000_0000 != 0 { return nil }  // PANGO_GLYPH_UNKNOWN_FLAG: a hex box
                        glyphs.append(g)
                        xs.append(Double(layout.xShift) + x + Double(info.geometry.x_offset) / scale)
                        ys.append(baseline + Double(info.geometry.y_offset) / scale)
                    }
                    x += Double(info.geometry.width) / scale
                }
                if !glyphs.isEmpty {
                    out.append(ShapedRun(font: ShapedFont(retaining: scaled), color: styled.color, glyphs: glyphs, xs: xs, ys: ys))
                }
            } while pango_layout_iter_next_run(iter) != 0
            return out
        }
    }
}
