// Text as positioned glyphs: the Pango layout of a text layer (TextLayout: HarfBuzz shaping,
// bidi, wrapping, alignment, ellipsizing, font fallback) read back run by run — each run's Cairo
// font, colour and glyphs with their positions in layer points, where pango_cairo_show_layout
// would draw them; a plain line (PlainLine) gets the same glyphs from its one item without a
// layout. Kept between frames per (text, bounds size), so a text layer that only moves is not
// laid out again. Text that needs Pango's own renderer (underline, strikethrough, glyphs a
// font lacks, drawn as hex boxes) is not shaped here: such layers keep a Cairo backing store.
import Foundation
import Synchronization
import CCairo
import StrataCore

/// A run of glyphs in one font and colour, positions in layer points from the bounds' origin.
struct ShapedRun: Sendable {
    let font: ShapedFont
    let color: RGBA
    /// (In one array: a line that changes every frame is shaped every frame, and three arrays —
    /// glyphs, xs, ys — were three allocations.)
    let glyphs: [ShapedGlyph]

    /// The glyphs' x and y, in order.
    var xs: [Double] { glyphs.map(\.x) }
    var ys: [Double] { glyphs.map(\.y) }
}

/// A glyph of a shaped run: its index in the run's font and its origin in layer points.
struct ShapedGlyph: Sendable, Equatable {
    let id: UInt32
    let x: Double
    let y: Double
}

extension ShapedRun {
    /// The glyphs of a Pango glyph string drawn from pen position `x` (plus `shift`) on `baseline`
    /// (layer points): nil when it holds a glyph the font lacks (PANGO_GLYPH_UNKNOWN_FLAG), .some(nil)
    /// when it draws nothing.
    static func read(_ glyphString: UnsafeMutablePointer<PangoGlyphString>, font: OpaquePointer, color: RGBA, shift: Double,
                     x: Double, baseline: Double) -> ShapedRun?? {
        var storage: [ShapedGlyph] = []
        return read(UnsafeBufferPointer(start: glyphString.pointee.glyphs, count: Int(glyphString.pointee.num_glyphs)),
                    font: ShapedFont(retaining: font), color: color, shift: shift, x: x, baseline: baseline, storage: &storage)
    }

    /// `read` for glyphs as Pango's glyph strings hold them, in a font already wrapped; the
    /// glyphs go into the storage of `storage` (left empty).
    static func read(_ infos: UnsafeBufferPointer<PangoGlyphInfo>, font: @autoclosure () -> ShapedFont, color: RGBA,
                     shift: Double, x: Double, baseline: Double, storage: inout [ShapedGlyph]) -> ShapedRun?? {
        let scale = Double(PANGO_SCALE)
        var x = x
        var glyphs: [ShapedGlyph] = []
        swap(&glyphs, &storage)
        glyphs.removeAll(keepingCapacity: true)
        glyphs.reserveCapacity(infos.count)
        for info in infos {
            let g = UInt32(info.glyph)
            if g != 0x0FFF_FFFF {  // PANGO_GLYPH_EMPTY
                if g & 0x1000_0000 != 0 { return nil }  // PANGO_GLYPH_UNKNOWN_FLAG
                glyphs.append(ShapedGlyph(id: g, x: shift + x + Double(info.geometry.x_offset) / scale,
                                          y: baseline + Double(info.geometry.y_offset) / scale))
            }
            x += Double(info.geometry.width) / scale
        }
        guard !glyphs.isEmpty else { return .some(nil) }
        return .some(ShapedRun(font: font(), color: color, glyphs: glyphs))
    }
}

/// Shaped text by content and bounds size; thread-safe, entries unused for two frames dropped.
final class TextShaper: Sendable {
    struct Key: Hashable {
        let text: TextContent
        let width: CGFloat, height: CGFloat
    }
    private struct State {
        /// The runs by text and size (nil: the text needs Pango's renderer), kept while used.
        var entries = RecentEntries<Key, [ShapedRun]?>()
        /// The runs of plain lines dropped from `entries`, their arrays' storage kept for lines to
        /// come: a line that changes every frame is shaped every frame, and its two arrays (the
        /// runs, the run's glyphs) were two allocations.
        var spare: [[ShapedRun]] = []
    }
    private let state = Mutex(State())
    /// Arrays kept in `spare` at most.
    static let spareLimit = 64

    /// The runs of `text` laid out in bounds of `size`, or nil when it needs Pango's renderer.
    func shape(_ text: TextContent, size: CGSize) -> [ShapedRun]? {
        let key = Key(text: text, width: size.width, height: size.height)
        var storage: [ShapedRun] = []
        let hit = state.withCheckedLock { s -> [ShapedRun]?? in
            if let hit = s.entries.use(key) { return hit }
            storage = s.spare.popLast() ?? []
            return nil
        }
        if let hit { return hit }
        let runs = TextShaper.layOut(text, size: size, reusing: &storage)
        state.withCheckedLock { $0.entries.insert(runs, for: key) }
        return runs
    }

    /// Arrays kept for lines to come (for tests).
    var spareCount: Int { state.withCheckedLock { $0.spare.count } }

    /// Drops the entries not used in this frame or the previous one.
    func endFrame() {
        state.withCheckedLock { s in
            var spare = s.spare
            s.spare = []
            s.entries.endFrame { runs in
                if let runs, runs.count == 1, spare.count < TextShaper.spareLimit { spare.append(runs) }
            }
            s.spare = spare
        }
    }

    /// The runs of `text` in bounds of `size` (nil: it needs Pango's renderer). A plain line
    /// (`PlainLine`) is shaped without a PangoLayout unless `plainLines` is false (tests compare
    /// the two).
    static func layOut(_ text: TextContent, size: CGSize, plainLines: Bool = true) -> [ShapedRun]? {
        var none: [ShapedRun] = []
        return layOut(text, size: size, plainLines: plainLines, reusing: &none)
    }

    /// `layOut(_:size:plainLines:)`, a plain line into the storage of `spare` (taken from it: the
    /// runs of a line dropped from the cache).
    static func layOut(_ text: TextContent, size: CGSize, plainLines: Bool = true, reusing spare: inout [ShapedRun]) -> [ShapedRun]? {
        guard size.width > 0, size.height > 0, !text.runs.isEmpty else { return [] }
        if text.runs.contains(where: { !$0.underline.isEmpty || !$0.strikethrough.isEmpty }) { return nil }
        if plainLines, let line = PlainLine(text) {
            if let runs = PangoEngine.shared.withContext({ line.shape(width: size.width, $0, reusing: &spare) }) { return runs }
        }
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
                // A glyph the font lacks would be a hex box: Pango's renderer draws those.
                guard let shaped = ShapedRun.read(glyphString, font: scaled, color: styled.color, shift: Double(layout.xShift),
                                                  x: Double(logical.x) / scale, baseline: baseline) else { return nil }
                if let shaped { out.append(shaped) }
            } while pango_layout_iter_next_run(iter) != 0
            return out
        }
    }
}

/// A text layer's content that Pango lays out as one line in one item: one styled run without
/// kerning or decorations, neither wrapped nor truncated, of printable ASCII and Latin letters
/// (left-to-right or neutral, no line breaks, no characters Pango treats specially). Such a line
/// is shaped straight from its item — the analysis Pango's itemiser would give it: the font its
/// fontset picks for every character, the script of its one script run, the language derived
/// from the context's for that script — with `pango_shape_with_flags`, as the layout shapes its
/// items, and placed as the layout places a one-run line: from x = 0 (plus the alignment's
/// shift), on the baseline at the run's logical ascent. This skips the layout's itemising, line
/// breaking and line building, most of a text layer's cost when its text changes every frame; and
/// where the font's shaping never looks across a space, the line is put together from its words
/// shaped once (WordShapes), so a line that changes a few words a frame is not shaped again.
/// Whatever the checks cannot vouch for (a character the font lacks, more than one font or
/// script) goes to the layout; `PlainLineTests` compares the two.
struct PlainLine {
    let run: TextContent.Run
    let alignment: CATextLayerAlignmentMode

    init?(_ text: TextContent) {
        guard text.runs.count == 1, let run = text.runs.first, run.kern == 0, run.underline.isEmpty,
              run.strikethrough.isEmpty, !text.isWrapped, text.truncationMode == .none, !run.text.isEmpty else { return nil }
        for u in run.text.unicodeScalars {
            // Printable ASCII, and the letters of Latin-1 and Latin Extended-A/B.
            let v = u.value
            guard (0x20...0x7E).contains(v) || ((0xC0...0x24F).contains(v) && v != 0xD7 && v != 0xF7) else { return nil }
        }
        self.run = run
        alignment = text.alignmentMode
    }

    /// The script of the line's one script run, as `pango_script_iter` finds it without running
    /// it (it allocated each line): Latin when the line holds a letter — every letter a plain line
    /// may hold is of the Latin script (Unicode's Scripts.txt) and the other characters (ASCII
    /// digits, spaces and punctuation) are Common, which joins the run of the script around it —
    /// else Common. PlainLineTests compares it with the iterator's.
    var script: PangoScript {
        for u in run.text.utf8 where (u | 0x20) >= 0x61 && (u | 0x20) <= 0x7A || u >= 0xC0 { return PANGO_SCRIPT_LATIN }
        return PANGO_SCRIPT_COMMON
    }

    /// The glyph runs in bounds `width` wide, or nil when the layout must decide. Call inside
    /// `PangoEngine.withContext`. `useWordShapes`: from the font's shaped words where it allows
    /// (WordShapes.swift) — the same glyphs; tests turn it off to compare.
    func shape(width: CGFloat, _ h: PangoEngine.Handles, useWordShapes: Bool = true) -> [ShapedRun]? {
        var none: [ShapedRun] = []
        return shape(width: width, h, useWordShapes: useWordShapes, reusing: &none)
    }

    /// `shape(width:_:useWordShapes:)` into the storage of the runs of `spare` (taken from it): a
    /// dropped line's, which nothing else holds.
    func shape(width: CGFloat, _ h: PangoEngine.Handles, useWordShapes: Bool = true, reusing spare: inout [ShapedRun]) -> [ShapedRun]? {
        let string = run.text
        let length = Int32(string.utf8.count)
        let script = script
        var runs: [ShapedRun] = []
        swap(&runs, &spare)
        var storage: [ShapedGlyph] = []
        if let last = runs.popLast() { storage = last.glyphs }
        runs.removeAll(keepingCapacity: true)
        return string.withCString { bytes -> [ShapedRun]? in
            guard let entry = h.plainLineFonts.entry(run.fontName, run.fontSize, script, h),
                  entry.coversAll(string.unicodeScalars) else { return nil }
            let font = entry.font, language = entry.language
            guard let scaled = pango_cairo_font_get_scaled_font(OpaquePointer(font)) else { return nil }
            let shapedFont = entry.shapedFont(scaled)

            var analysis = PangoAnalysis()
            analysis.font = font
            analysis.level = 0
            analysis.gravity = UInt8(PANGO_GRAVITY_SOUTH.rawValue)
            analysis.flags = 0
            analysis.script = UInt8(script.rawValue)
            analysis.language = language

            let scale = Double(PANGO_SCALE)
            let factor: Double = switch alignment { case .right: 1; case .center: 0.5; default: 0 }
            // The line's width and logical top (Pango units), and its glyphs read from x = 0 (plus
            // the alignment's shift) on the baseline at that top; nil: a glyph the font lacks,
            // for the layout to decide.
            // (`storage` goes in as an argument: a variable the nested function captured would be
            // boxed, an allocation a line.)
            func read(_ infos: UnsafeBufferPointer<PangoGlyphInfo>, width lineWidth: Int, top: Int32,
                      storage: inout [ShapedGlyph]) -> ShapedRun?? {
                let xShift = (Double(width) - Double(lineWidth) / scale) * factor
                return ShapedRun.read(infos, font: shapedFont, color: run.color, shift: xShift, x: 0, baseline: Double(-top) / scale,
                                      storage: &storage)
            }
            let shaped: ShapedRun??
            if useWordShapes, let words = entry.wordShapes(script: script) {
                shaped = words.shape(bytes, Int(length), &analysis) { read($0, width: $1, top: $2, storage: &storage) }
            } else {
                guard let glyphString = pango_glyph_string_new() else { return nil }
                defer { pango_glyph_string_free(glyphString) }
                pango_shape_with_flags(bytes, length, bytes, length, &analysis, glyphString, PANGO_SHAPE_NONE)
                var logical = PangoRectangle()
                pango_glyph_string_extents(glyphString, font, nil, &logical)
                shaped = read(UnsafeBufferPointer(start: glyphString.pointee.glyphs, count: Int(glyphString.pointee.num_glyphs)),
                              width: Int(logical.width), top: logical.y, storage: &storage)
            }
            guard let shaped else { return nil }
            if let shaped { runs.append(shaped) }
            return runs
        }
    }
}

/// The fonts plain lines are shaped in, by font name, size and script: the fontset the itemiser
/// would load for them, its first font, and the characters known to get that font. Kept for the
/// process (at most `limit` entries; emptied when full). Used only under the Pango lock.
// @unchecked: touched only inside `PangoEngine.withContext`, which holds the Pango lock.
final class PlainLineFonts: @unchecked Sendable {
    struct Key: Hashable { let name: String; let size: CGFloat; let script: UInt32 }

    final class Entry {
        let fontset: UnsafeMutablePointer<PangoFontset>
        let font: UnsafeMutablePointer<PangoFont>
        let language: OpaquePointer?
        /// Characters whose font in the fontset is `font`: a bit each below U+0250 (every
        /// character a plain line may hold), a set above.
        private var coveredLow = [UInt64](repeating: 0, count: 0x250 / 64 + 1)
        private var covered = Set<UInt32>()
        /// The shaped words of lines in this font (nil inside: the font's shaping may look across
        /// a space), made when first asked for.
        private var words: WordShapes??

        func wordShapes(script: PangoScript) -> WordShapes? {
            if let words { return words }
            let made = WordShapes(font: font, script: script, language: language)
            words = .some(made)
            return made
        }

        init(fontset: UnsafeMutablePointer<PangoFontset>, font: UnsafeMutablePointer<PangoFont>, language: OpaquePointer?) {
            self.fontset = fontset; self.font = font; self.language = language
        }

        /// The lines' Cairo font `scaled` (the font's), wrapped once for all their runs.
        private var shaped: ShapedFont?

        func shapedFont(_ scaled: OpaquePointer) -> ShapedFont {
            if let shaped, shaped.scaledFont == scaled { return shaped }
            let made = ShapedFont(retaining: scaled)
            shaped = made
            return made
        }

        deinit {
            g_object_unref(UnsafeMutableRawPointer(font))
            g_object_unref(UnsafeMutableRawPointer(fontset))
        }

        /// Whether the fontset gives every one of `scalars` this entry's font (as the itemiser
        /// asks it, character by character).
        func coversAll(_ scalars: String.UnicodeScalarView) -> Bool {
            for u in scalars {
                let v = u.value
                let low = v < 0x250
                if low ? coveredLow[Int(v >> 6)] & (1 << (v & 63)) != 0 : covered.contains(v) { continue }
                guard let f = pango_fontset_get_font(fontset, v) else { return false }
                g_object_unref(UnsafeMutableRawPointer(f))
                guard f == font else { return false }
                if low { coveredLow[Int(v >> 6)] |= 1 << (v & 63) } else { covered.insert(v) }
            }
            return true
        }
    }

    static let limit = 64
    private var entries: [Key: Entry] = [:]

    /// The entry for a run's font in `script`, loaded as the itemiser loads it: the context's
    /// description overridden by the run's, the language derived from the context's for the
    /// script.
    func entry(_ name: String, _ size: CGFloat, _ script: PangoScript, _ h: PangoEngine.Handles) -> Entry? {
        let key = Key(name: name, size: size, script: UInt32(bitPattern: script.rawValue))
        if let e = entries[key] { return e }
        let base = pango_context_get_language(h.context)
        let language = base.flatMap { pango_language_includes_script($0, script) != 0 ? $0 : nil }
            ?? pango_script_get_sample_language(script) ?? pango_language_from_string("xx")
        guard let desc = pango_font_description_copy(pango_context_get_font_description(h.context)) else { return nil }
        defer { pango_font_description_free(desc) }
        let runDesc = FontResolver.description(for: name, size: size)
        pango_font_description_merge(desc, runDesc, 1)
        pango_font_description_free(runDesc)
        guard let fontset = pango_font_map_load_fontset(h.fontMap, h.context, desc, language) else { return nil }
        // The first font: the one a space gets (every font has one; if not, the layout decides).
        guard let font = pango_fontset_get_font(fontset, 0x20) else {
            g_object_unref(UnsafeMutableRawPointer(fontset))
            return nil
        }
        let e = Entry(fontset: fontset, font: font, language: language)
        if entries.count >= PlainLineFonts.limit { entries.removeAll() }
        entries[key] = e
        return e
    }
}
