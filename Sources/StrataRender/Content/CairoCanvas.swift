// A Cairo image surface sized in pixels, with a user space in layer points: the place where
// vector content (shapes, text, recorded drawing) is rasterised into a backing store.
import Foundation
import CCairo
import StrataCore

/// A Cairo ARGB32 surface covering a layer-space rectangle at a given scale.
public final class CairoCanvas {
    /// The Cairo context (user space = layer points).
    public let context: OpaquePointer
    let surface: OpaquePointer
    /// The surface's width in pixels: the area's width × scale, rounded up.
    public let pixelWidth: Int
    /// The surface's height in pixels: the area's height × scale, rounded up.
    public let pixelHeight: Int
    /// The layer-space rectangle the surface covers.
    public let area: CGRect

    /// A transparent canvas covering `area` (layer points) at `scale` pixels per point; nil
    /// when Cairo cannot allocate it.
    public init?(area: CGRect, scale: Double) {
        // (Checked as Doubles first: a shadowPath from a template may be any size, NaN included.)
        let dw = (Double(area.width) * scale).rounded(.up), dh = (Double(area.height) * scale).rounded(.up)
        guard dw > 0, dh > 0, dw <= 32_767, dh <= 32_767, Double(area.minX).isFinite, Double(area.minY).isFinite else { return nil }
        let w = Int(dw), h = Int(dh)
        guard
              let s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(w), Int32(h)) else { return nil }
        guard cairo_surface_status(s) == CAIRO_STATUS_SUCCESS, let cr = cairo_create(s) else {
            cairo_surface_destroy(s); return nil
        }
        surface = s; context = cr; pixelWidth = w; pixelHeight = h
        self.area = CGRect(x: area.minX, y: area.minY, width: Double(w) / scale, height: Double(h) / scale)
        cairo_scale(cr, scale, scale)
        cairo_translate(cr, -Double(area.minX), -Double(area.minY))
    }

    deinit {
        cairo_destroy(context)
        cairo_surface_destroy(surface)
    }

    /// The pixels drawn so far.
    public func bitmap() -> Bitmap { Bitmap(cairoSurface: surface) }

    /// Sets the source colour (straight alpha in, Cairo premultiplies).
    public func setColor(_ c: RGBA) {
        cairo_set_source_rgba(context, Double(c.r), Double(c.g), Double(c.b), Double(c.a))
    }

    /// Appends a CGPath to Cairo's current path.
    public func addPath(_ path: CGPath) {
        cairo_new_path(context)
        for e in path.elements {
            switch e {
            case .moveToPoint(let p): cairo_move_to(context, Double(p.x), Double(p.y))
            case .addLineToPoint(let p): cairo_line_to(context, Double(p.x), Double(p.y))
            case .addQuadCurveToPoint(let c, let p):
                // Elevate to a cubic from the current point.
                var x0 = 0.0, y0 = 0.0
                cairo_get_current_point(context, &x0, &y0)
                let c1x = x0 + 2.0 / 3.0 * (Double(c.x) - x0), c1y = y0 + 2.0 / 3.0 * (Double(c.y) - y0)
                let c2x = Double(p.x) + 2.0 / 3.0 * (Double(c.x) - Double(p.x)), c2y = Double(p.y) + 2.0 / 3.0 * (Double(c.y) - Double(p.y))
                cairo_curve_to(context, c1x, c1y, c2x, c2y, Double(p.x), Double(p.y))
            case .addCurveToPoint(let c1, let c2, let p):
                cairo_curve_to(context, Double(c1.x), Double(c1.y), Double(c2.x), Double(c2.y), Double(p.x), Double(p.y))
            case .closeSubpath: cairo_close_path(context)
            }
        }
    }
}
