// Text layout with Pango: TextContent → a PangoLayout (HarfBuzz shaping, bidi, line breaking,
// justification, ellipsizing, fontconfig fallback per character), shared by the text
// rasteriser and TextMetrics so that what is measured is exactly what is drawn.
//
// Layout is independent of the backing scale: metrics are unhinted and glyph positions are not
// rounded, in a Pango context whose unit is the layer point (72 dpi, absolute font sizes), so a
// text layer zoomed 8× breaks its lines exactly as at 1× and only the glyph rasterisation gets
// finer. Pango objects are not shared across threads safely, so all Pango work goes through one
// lock; text is rasterised once per change (backing-store cache), so the lock is rarely contended.
import Foundation
import Synchronization
import CCairo
import StrataCore

/// The one Pango font map and context Strata uses, behind a lock.
final class PangoEngine: Sendable {
    /// Raw Pango handles, only touched under the lock.
    // @unchecked: C pointers, reached only through the `Mutex` that holds them.
    struct Handles: @unchecked Sendable {
        let fontMap: UnsafeMutablePointer<PangoFontMap>
        let context: OpaquePointer
        /// The fonts plain lines were shaped in (TextShaper.swift).
        let plainLineFonts: PlainLineFonts
    }

    static let shared = PangoEngine()
    private let handles: Mutex<Handles>

    private init() {
        let map = pango_cairo_font_map_new()!
        let ctx = pango_font_map_create_context(map)!
        let opts = cairo_font_options_create()
        cairo_font_options_set_hint_style(opts, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(opts, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_antialias(opts, CAIRO_ANTIALIAS_GRAY)
        pango_cairo_context_set_font_options(ctx, opts)
        cairo_font_options_destroy(opts)
        pango_cairo_context_set_resolution(ctx, 72)
        pango_context_set_round_glyph_positions(ctx, 0)
        handles = Mutex(Handles(fontMap: map, context: ctx, plainLineFonts: PlainLineFonts()))
    }

    /// Runs `body` with exclusive use of Pango.
    func withContext<T>(_ body: (Handles) -> T) -> T {
        handles.withCheckedLock { body($0) }
    }
}

/// A PangoLayout built from TextContent, with the horizontal shift that places it in the bounds.
struct TextLayout {
    /// The PangoLayout (owned; released by `release()`).
    let layout: OpaquePointer
    /// Added to the bounds' minX when drawing (alignment of an unconstrained layout).
    let xShift: CGFloat

    /// Builds the layout of `text` for bounds of `width × height` points. A nil width means
    /// unconstrained (measurement of unwrapped text). Must be called inside
    /// `PangoEngine.withContext`.
    init(_ text: TextContent, width: CGFloat?, height: CGFloat?, context: OpaquePointer) {
        let layout = pango_layout_new(context)!
        self.layout = layout
        let string = text.string
        pango_layout_set_text(layout, string, -1)
        if let first = text.runs.first {
            let desc = FontResolver.description(for: first.fontName, size: first.fontSize)
            pango_layout_set_font_description(layout, desc)
            pango_font_description_free(desc)
        }
        TextLayout.applyAttributes(text.runs, to: layout)
        pango_layout_set_auto_dir(layout, 1)

        let rtl = !string.isEmpty && pango_layout_get_direction(layout, 0) == PANGO_DIRECTION_RTL
        // Pango flips LEFT/RIGHT for right-to-left paragraphs (auto_dir); "natural" is LEFT.
        let align: PangoAlignment
        let factor: CGFloat   // where an unconstrained block sits: 0 left, 0.5 centre, 1 right
        switch text.alignmentMode {
        case .left: align = rtl ? PANGO_ALIGN_RIGHT : PANGO_ALIGN_LEFT; factor = 0
        case .right: align = rtl ? PANGO_ALIGN_LEFT : PANGO_ALIGN_RIGHT; factor = 1
        case .center: align = PANGO_ALIGN_CENTER; factor = 0.5
        default: align = PANGO_ALIGN_LEFT; factor = rtl ? 1 : 0
        }
        pango_layout_set_alignment(layout, align)
        pango_layout_set_justify(layout, text.alignmentMode == .justified ? 1 : 0)

        let truncating = text.truncationMode != .none
        if let width, text.isWrapped || truncating {
            pango_layout_set_width(layout, TextLayout.units(width))
            if text.isWrapped { pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR) }
            if truncating {
                pango_layout_set_ellipsize(layout, TextLayout.ellipsize(text.truncationMode))
                // Wrapped and truncated: as many lines as fit, the last one ellipsized.
                if text.isWrapped, let height { pango_layout_set_height(layout, TextLayout.units(height)) }
            }
            xShift = 0
        } else {
            // One line per paragraph; Pango aligns lines within the widest one, and the block
            // is placed in the bounds by the alignment.
            pango_layout_set_width(layout, -1)
            if let width {
                var logical = PangoRectangle()
                pango_layout_get_extents(layout, nil, &logical)
                xShift = (width - CGFloat(logical.width) / CGFloat(PANGO_SCALE)) * factor
            } else {
                xShift = 0
            }
        }
    }

    /// Releases the PangoLayout.
    func release() { g_object_unref(UnsafeMutableRawPointer(layout)) }

    /// The logical extents in points (x, y relative to the layout origin).
    var logicalRect: CGRect {
        var logical = PangoRectangle()
        pango_layout_get_extents(layout, nil, &logical)
        let s = CGFloat(PANGO_SCALE)
        return CGRect(x: CGFloat(logical.x) / s, y: CGFloat(logical.y) / s,
                      width: CGFloat(logical.width) / s, height: CGFloat(logical.height) / s)
    }

    /// The number of lines after wrapping.
    var lineCount: Int { Int(pango_layout_get_line_count(layout)) }

    /// The distance from the layout top to the first line's baseline, in points.
    var firstBaseline: CGFloat { CGFloat(pango_layout_get_baseline(layout)) / CGFloat(PANGO_SCALE) }

    /// Whether Pango had to ellipsize.
    var isEllipsized: Bool { pango_layout_is_ellipsized(layout) != 0 }

    // MARK: Attributes

    private static func applyAttributes(_ runs: TextContent.Runs, to layout: OpaquePointer) {
        let list = pango_attr_list_new()!
        var start = 0
        for run in runs {
            let end = start + run.text.utf8.count
            func insert(_ attr: UnsafeMutablePointer<PangoAttribute>?) {
                guard let attr else { return }
                attr.pointee.start_index = UInt32(start)
                attr.pointee.end_index = UInt32(end)
                pango_attr_list_insert(list, attr)
            }
            let desc = FontResolver.description(for: run.fontName, size: run.fontSize)
            insert(pango_attr_font_desc_new(desc))
            pango_font_description_free(desc)
            let c = run.color
            insert(pango_attr_foreground_new(channel(c.r), channel(c.g), channel(c.b)))
            // Alpha 0 means "unset" (opaque) to Pango, so the faintest it can say is 1/65535.
            if c.a < 1 { insert(pango_attr_foreground_alpha_new(max(1, channel(c.a)))) }
            if run.kern != 0 { insert(pango_attr_letter_spacing_new(units(run.kern))) }
            if !run.fontFeatures.isEmpty { insert(pango_attr_font_features_new(run.fontFeatures)) }
            if !run.underline.isEmpty {
                insert(pango_attr_underline_new(run.underline.contains(.double) ? PANGO_UNDERLINE_DOUBLE : PANGO_UNDERLINE_SINGLE))
            }
            if !run.strikethrough.isEmpty { insert(pango_attr_strikethrough_new(1)) }
            if let d = run.decorationColor, !run.underline.isEmpty || !run.strikethrough.isEmpty {
                insert(pango_attr_underline_color_new(channel(d.r), channel(d.g), channel(d.b)))
                insert(pango_attr_strikethrough_color_new(channel(d.r), channel(d.g), channel(d.b)))
            }
            start = end
        }
        pango_layout_set_attributes(layout, list)
        pango_attr_list_unref(list)
    }

    private static func channel(_ v: Float) -> UInt16 { UInt16((min(max(v, 0), 1) * 65535).rounded()) }

    /// Points → Pango units, clamped to Int32.
    static func units(_ points: CGFloat) -> Int32 {
        let u = (Double(points) * Double(PANGO_SCALE)).rounded()
        return Int32(min(max(u, -Double(Int32.max)), Double(Int32.max)))
    }

    private static func ellipsize(_ mode: CATextLayerTruncationMode) -> PangoEllipsizeMode {
        switch mode {
        case .start: PANGO_ELLIPSIZE_START
        case .middle: PANGO_ELLIPSIZE_MIDDLE
        case .end: PANGO_ELLIPSIZE_END
        default: PANGO_ELLIPSIZE_NONE
        }
    }
}
