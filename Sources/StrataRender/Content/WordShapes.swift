// The shaped words of plain lines, kept per font: a text layer whose line changes a few words a
// frame (a counter, a clock, a data field) costs a dictionary lookup per word instead of shaping
// the whole line again. A line is cut into pieces — runs of spaces (U+0020) and runs of the other
// characters — each shaped on its own with `pango_shape_with_flags`, and their glyphs laid end to
// end.
//
// That gives the whole line's glyphs only when nothing in the font's shaping looks across a
// space: no lookup the shaping plan applies (GSUB and GPOS, for the line's script, language and
// the font's features) has the space glyph among the glyphs it reads or writes, and the legacy
// 'kern' table has no pair with the space. A lookup that cannot meet the space cannot match a
// sequence that runs across one, and kerning is pairwise, so each piece is shaped as it is in the
// line. Fonts with AAT ('morx', 'kerx') or Graphite ('Silf') tables, and 'kern' tables other than
// OpenType's format 0, are not inspected: their lines are shaped whole. (A lookup flagged to skip
// base glyphs could still match around a space; fonts do not do that with letters.) Widths are
// Pango units (integers) and a line's logical top is the lowest of its glyphs', so the line's
// width and ascent come out as `pango_glyph_string_extents` gives them for the whole line.
// PlainLineTests compares the lines with the layout's.
import CCairo

/// The shaped pieces of plain lines in one font, script and language (one `PlainLineFonts`
/// entry). Used only under the Pango lock.
final class WordShapes {
    /// A piece's glyphs as Pango gives them, its width (Pango units) and its glyphs' logical top.
    struct Piece {
        let glyphs: [PangoGlyphInfo]
        let width: Int
        let top: Int32
    }

    /// Pieces kept (the dictionary is emptied when full).
    static let limit = 4096
    private var pieces: [String: Piece] = [:]
    private let glyphString: UnsafeMutablePointer<PangoGlyphString>
    /// The line being put together (its storage kept from line to line).
    private var line: [PangoGlyphInfo] = []

    /// Nil when the font's shaping may look across a space (see the file's header).
    init?(font: UnsafeMutablePointer<PangoFont>, script: PangoScript, language: OpaquePointer?) {
        guard WordShapes.spaceIsInert(font: font, script: script, language: language),
              let gs = pango_glyph_string_new() else { return nil }
        glyphString = gs
    }

    deinit { pango_glyph_string_free(glyphString) }

    /// `body` of the glyphs of the line `bytes[0 ..< length]` (UTF-8) shaped with `analysis`, the
    /// line's width in Pango units and its logical top.
    func shape<R>(_ bytes: UnsafePointer<CChar>, _ length: Int, _ analysis: inout PangoAnalysis,
                  _ body: (UnsafeBufferPointer<PangoGlyphInfo>, _ width: Int, _ top: Int32) -> R) -> R {
        line.removeAll(keepingCapacity: true)
        var width = 0, top = Int32.max
        var i = 0
        while i < length {
            let space = bytes[i] == 0x20
            var j = i + 1
            while j < length && (bytes[j] == 0x20) == space { j += 1 }
            let piece = self.piece(bytes + i, j - i, &analysis)
            line.append(contentsOf: piece.glyphs)
            width += piece.width
            top = min(top, piece.top)
            i = j
        }
        return line.withUnsafeBufferPointer { body($0, width, top) }
    }

    private func piece(_ bytes: UnsafePointer<CChar>, _ count: Int, _ analysis: inout PangoAnalysis) -> Piece {
        let key = bytes.withMemoryRebound(to: UInt8.self, capacity: count) {
            String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
        }
        if let hit = pieces[key] { return hit }
        pango_shape_with_flags(bytes, Int32(count), bytes, Int32(count), &analysis, glyphString, PANGO_SHAPE_NONE)
        var logical = PangoRectangle()
        pango_glyph_string_extents(glyphString, analysis.font, nil, &logical)
        let n = Int(glyphString.pointee.num_glyphs)
        let piece = Piece(glyphs: Array(UnsafeBufferPointer(start: glyphString.pointee.glyphs, count: n)),
                          width: Int(logical.width), top: logical.y)
        if pieces.count >= WordShapes.limit { pieces.removeAll(keepingCapacity: true) }
        pieces[key] = piece
        return piece
    }

    // MARK: Whether the space is inert

    /// Whether shaping in `font` for `script` and `language` (as `pango_shape_with_flags` does
    /// it: left to right, the font's own features) never looks across a space.
    static func spaceIsInert(font: UnsafeMutablePointer<PangoFont>, script: PangoScript, language: OpaquePointer?) -> Bool {
        guard let hbFont = pango_font_get_hb_font(font), let face = hb_font_get_face(hbFont) else { return false }
        var space: hb_codepoint_t = 0
        guard hb_font_get_nominal_glyph(hbFont, 0x20, &space) != 0 else { return false }
        // Shapers other than OpenType's.
        for tag in ["morx", "mort", "kerx", "Silf"] where tableLength(face, tag) > 0 { return false }
        // The features Pango passes (its font's; a plain line has no attributes).
        var features = [hb_feature_t](repeating: hb_feature_t(), count: 32)
        var featureCount: UInt32 = 0
        pango_font_get_features(font, &features, UInt32(features.count), &featureCount)
        let languageName = language.flatMap { pango_language_to_string($0) }
        var properties = hb_segment_properties_t()
        properties.direction = HB_DIRECTION_LTR
        properties.script = hb_glib_script_to_script(GUnicodeScript(rawValue: script.rawValue))
        properties.language = languageName.map { hb_language_from_string($0, -1) } ?? hb_language_get_default()
        guard let plan = hb_shape_plan_create_cached(face, &properties, features, featureCount, nil) else { return false }
        defer { hb_shape_plan_destroy(plan) }
        for table in [tag("GSUB"), tag("GPOS")] {
            guard let lookups = hb_set_create() else { return false }
            defer { hb_set_destroy(lookups) }
            hb_ot_shape_plan_collect_lookups(plan, table, lookups)
            var lookup = hb_codepoint_t.max  // HB_SET_VALUE_INVALID
            while hb_set_next(lookups, &lookup) != 0 {
                guard let glyphs = hb_set_create() else { return false }
                defer { hb_set_destroy(glyphs) }
                hb_ot_layout_lookup_collect_glyphs(face, table, UInt32(lookup), glyphs, glyphs, glyphs, glyphs)
                if hb_set_has(glyphs, space) != 0 { return false }
            }
        }
        guard let kern = hb_face_reference_table(face, tag("kern")) else { return false }
        defer { hb_blob_destroy(kern) }
        var length: UInt32 = 0
        guard let data = hb_blob_get_data(kern, &length), length > 0 else { return true }
        return data.withMemoryRebound(to: UInt8.self, capacity: Int(length)) {
            kernPairsSpare(UnsafeBufferPointer(start: $0, count: Int(length)), glyph: space)
        }
    }

    /// Whether an OpenType 'kern' table (version 0, subtables of format 0) has no pair with
    /// `glyph`; false for any other form, or one that does not parse.
    static func kernPairsSpare(_ table: UnsafeBufferPointer<UInt8>, glyph: UInt32) -> Bool {
        func u16(_ at: Int) -> Int? { at + 2 <= table.count ? Int(table[at]) << 8 | Int(table[at + 1]) : nil }
        guard let version = u16(0), version == 0, let count = u16(2) else { return false }
        var offset = 4
        for _ in 0..<count {
            guard let length = u16(offset + 2), let coverage = u16(offset + 4), coverage >> 8 == 0,
                  let pairs = u16(offset + 6) else { return false }
            let start = offset + 14, end = start + 6 * pairs
            guard end <= table.count else { return false }
            for p in stride(from: start, to: end, by: 6) where u16(p) == Int(glyph) || u16(p + 2) == Int(glyph) {
                return false
            }
            // The 16-bit length overflows for large subtables: the pairs say where it ends.
            offset += max(length, end - offset)
        }
        return true
    }

    private static func tag(_ s: String) -> hb_tag_t {
        s.utf8.reduce(0) { $0 << 8 | hb_tag_t($1) }
    }

    private static func tableLength(_ face: OpaquePointer, _ name: String) -> UInt32 {
        guard let blob = hb_face_reference_table(face, tag(name)) else { return 0 }
        defer { hb_blob_destroy(blob) }
        return hb_blob_get_length(blob)
    }
}
