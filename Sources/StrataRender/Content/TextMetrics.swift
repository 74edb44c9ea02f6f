// Text measurement for layout code: the size a string takes in a font, unwrapped or wrapped to
// a width, computed by the same Pango layout the text rasteriser draws (TextLayout), so a
// layer sized with it fits its text exactly.
import Foundation
import CCairo
import StrataCore

/// Measures text as `CATextLayer` lays it out.
///
/// Sizes are Pango's logical extents in points: the width of the widest line (advances,
/// kerning and letter spacing included; no ink overhang) and the height of all lines (each
/// line's ascent + descent of its fonts). Metrics are unhinted, so they scale exactly with the
/// font size and do not depend on the scale the text is later drawn at.
///
/// ```swift
/// let size = TextMetrics.size(of: "Hello", font: "DejaVu Sans", fontSize: 36)
/// // 91.283203125 × 41.90625: advances 1542+1260+569+569+1253 units of 2048 per em;
/// // line height (ascender 1901 + descender 483) / 2048 em
/// ```
public enum TextMetrics {
    /// The size of a plain string in `font` at `fontSize` points; wrapped (at word boundaries,
    /// then characters) when `constrainedToWidth` is given.
    public static func size(of string: String, font: String = "Helvetica", fontSize: CGFloat = 36,
                            constrainedToWidth width: CGFloat? = nil) -> CGSize {
        size(of: TextContent(string: string, fontName: font, fontSize: fontSize), constrainedToWidth: width)
    }

    /// The size of an attributed string (see `TextContent(attributedString:)` for the
    /// attributes read and their defaults), wrapped when `constrainedToWidth` is given.
    public static func size(of string: NSAttributedString, constrainedToWidth width: CGFloat? = nil) -> CGSize {
        size(of: TextContent(attributedString: string), constrainedToWidth: width)
    }

    /// The size of text content, wrapped when `constrainedToWidth` is given (the content's own
    /// `isWrapped` and `truncationMode` are not used: this is the size the whole text needs).
    public static func size(of text: TextContent, constrainedToWidth width: CGFloat? = nil) -> CGSize {
        measure(text, width: width) { CGSize(width: $0.logicalRect.width, height: $0.logicalRect.height) }
    }

    /// The number of lines the text takes, wrapped when `constrainedToWidth` is given.
    public static func lineCount(of text: TextContent, constrainedToWidth width: CGFloat? = nil) -> Int {
        measure(text, width: width) { $0.lineCount }
    }

    /// The distance from the top of the text to the first line's baseline, in points.
    public static func firstBaseline(of text: TextContent) -> CGFloat {
        measure(text, width: nil) { $0.firstBaseline }
    }

    /// The family fontconfig actually uses for a font name (e.g. "Helvetica" → "DejaVu Sans"
    /// where Helvetica is not installed); see FontResolver for the fallback table.
    public static func resolvedFamily(forFontName name: String) -> String {
        PangoEngine.shared.withContext { h in
            let desc = FontResolver.description(for: name, size: 12)
            defer { pango_font_description_free(desc) }
            guard let font = pango_font_map_load_font(h.fontMap, h.context, desc) else { return "" }
            defer { g_object_unref(UnsafeMutableRawPointer(font)) }
            let described = pango_font_describe(font)
            defer { pango_font_description_free(described) }
            return pango_font_description_get_family(described).map { String(cString: $0) } ?? ""
        }
    }

    private static func measure<T>(_ text: TextContent, width: CGFloat?, _ body: (TextLayout) -> T) -> T {
        var t = text
        t.isWrapped = width != nil
        t.truncationMode = .none
        if width != nil, t.alignmentMode != .justified { t.alignmentMode = .natural }
        return PangoEngine.shared.withContext { h in
            let layout = TextLayout(t, width: width, height: nil, context: h.context)
            defer { layout.release() }
            return body(layout)
        }
    }
}
