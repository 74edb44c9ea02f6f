// Rasterises a text layer's content (TextContent): lays it out with Pango (TextLayout) for the
// layer bounds and draws it with pangocairo onto the canvas, whose user space is layer points
// and whose pixels are at the on-screen scale, so glyph outlines are rasterised at full
// resolution (never a small bitmap scaled up). Text starts at the top of the bounds and is
// clipped to them, as a CATextLayer's backing store is. Hands the bitmap back to
// ContentRasterizer.
import Foundation
import CCairo
import StrataCore

/// Draws `TextContent` into a Cairo canvas.
enum TextRasterizer {
    /// Lays out `text` in `bounds` (layer points) and draws it onto `canvas`.
    static func draw(_ text: TextContent, in bounds: CGRect, on canvas: CairoCanvas) {
        guard bounds.width > 0, bounds.height > 0, !text.runs.isEmpty else { return }
        let cr = canvas.context
        PangoEngine.shared.withContext { h in
            let layout = TextLayout(text, width: bounds.width, height: bounds.height, context: h.context)
            defer { layout.release() }
            cairo_save(cr)
            cairo_rectangle(cr, Double(bounds.minX), Double(bounds.minY), Double(bounds.width), Double(bounds.height))
            cairo_clip(cr)
            cairo_move_to(cr, Double(bounds.minX + layout.xShift), Double(bounds.minY))
            pango_cairo_show_layout(cr, layout.layout)
            cairo_restore(cr)
        }
    }
}
