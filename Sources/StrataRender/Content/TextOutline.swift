// The glyph outlines of a text as a path, laid out exactly as TextMetrics measures it and a
// CATextLayer draws it (the same Pango layout): for text that must be stroked or filled as a
// shape (a Lottie text layer's stroke around its letters).
import Foundation
import CCairo
import StrataCore

extension TextMetrics {
    /// The outlines of `text`'s glyphs, unwrapped, in points: the origin is the top-left corner
    /// of its logical box (where a CATextLayer sized with `size(of:)` draws it). Only the glyphs'
    /// contours: the path's bounding box is the ink's.
    public static func outline(of text: TextContent) -> CGPath {
        let path = CGMutablePath()
        guard !text.runs.isEmpty, let surface = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1) else { return path }
        defer { cairo_surface_destroy(surface) }
        guard let cr = cairo_create(surface) else { return path }
        defer { cairo_destroy(cr) }
        var t = text
        t.isWrapped = false
        t.truncationMode = .none
        PangoEngine.shared.withContext { h in
            let layout = TextLayout(t, width: nil, height: nil, context: h.context)
            defer { layout.release() }
            cairo_move_to(cr, 0, 0)
            pango_cairo_layout_path(cr, layout.layout)
        }
        guard let copy = cairo_copy_path(cr) else { return path }
        defer { cairo_path_destroy(copy) }
        guard copy.pointee.status == CAIRO_STATUS_SUCCESS, let data = copy.pointee.data else { return path }
        var i = 0
        while i < Int(copy.pointee.num_data) {
            let header = data[i].header
            func point(_ k: Int) -> CGPoint { CGPoint(x: data[i + k].point.x, y: data[i + k].point.y) }
            let next = i + max(1, Int(header.length))
            switch header.type {
            case CAIRO_PATH_MOVE_TO:
                // A move followed by nothing but another move draws nothing (the layout's start,
                // where the path begins, is one): left out, so the path's box is the ink's.
                if next < Int(copy.pointee.num_data), data[next].header.type != CAIRO_PATH_MOVE_TO { path.move(to: point(1)) }
            case CAIRO_PATH_LINE_TO: path.addLine(to: point(1))
            case CAIRO_PATH_CURVE_TO: path.addCurve(to: point(3), control1: point(1), control2: point(2))
            default: path.closeSubpath()
            }
            i = next
        }
        return path
    }
}
