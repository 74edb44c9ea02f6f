// Rasterises a shape layer's content (ShapeContent) with Cairo: the fill with its fill rule,
// then the stroke with width, caps, joins, miter limit and dashes — Cairo's stroker, which
// follows the same PostScript model as Core Graphics. The arc-length trim of strokeStart /
// strokeEnd is applied to the path first (StrokeGeometry), since Cairo has no such operation.
// Hands a bitmap of the shape's draw area back to ContentRasterizer.
import Foundation
import CCairo
import StrataCore

/// Draws `ShapeContent` into a Cairo canvas.
enum ShapeRasterizer {
    /// The layer-space rectangle the shape can paint: the path's bounds, grown by the stroke's
    /// reach (half the line width, √2 times that for square caps, and every miter tip within
    /// the miter limit). Nil when nothing would be painted.
    static func drawArea(of shape: ShapeContent) -> CGRect? {
        guard shape.isVisible else { return nil }
        var box = shape.path.boundingBoxOfPath
        guard !box.isNull else { return nil }
        if shape.strokeColor != nil {
            let half = shape.lineWidth / 2
            let reach = shape.lineCap == .square ? half * 2.0.squareRoot() : half
            var grown = box.insetBy(dx: -reach, dy: -reach)
            if shape.lineJoin == .miter && hasJoins(shape.path) {
                for tip in StrokeGeometry(shape.path, measuringLengths: false).miterTips(lineWidth: shape.lineWidth, miterLimit: shape.miterLimit) {
                    grown = grown.union(CGRect(origin: tip, size: .zero))
                }
            }
            box = shape.fillColor == nil ? grown : box.union(grown)
        }
        guard box.width > 0, box.height > 0, box.width.isFinite, box.height.isFinite else { return nil }
        return box
    }

    /// Whether a stroke of `path` has joins: two drawn elements in one subpath, or a closed one.
    /// (Without, no miter reaches past half the line width, and the stroke geometry that finds
    /// the tips — arrays made every frame a shape is drawn — is not needed.)
    private static func hasJoins(_ path: CGPath) -> Bool {
        var drawn = 0
        for element in path.elements {
            switch element {
            case .moveToPoint:
                drawn = 0
            case .closeSubpath:
                if drawn > 0 { return true }
            case .addLineToPoint, .addQuadCurveToPoint, .addCurveToPoint:
                drawn += 1
                if drawn > 1 { return true }
            }
        }
        return false
    }

    /// Fills, then strokes, the shape onto `canvas` (whose user space is layer points).
    static func draw(_ shape: ShapeContent, in canvas: CairoCanvas) {
        let cr = canvas.context
        if let fill = shape.fillColor {
            canvas.addPath(shape.path)
            cairo_set_fill_rule(cr, shape.fillRule == .evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
            canvas.setColor(fill)
            cairo_fill(cr)
        }
        guard let stroke = shape.strokeColor, shape.strokeEnd > shape.strokeStart else { return }
        cairo_set_line_width(cr, Double(shape.lineWidth))
        cairo_set_line_cap(cr, cairoCap(shape.lineCap))
        cairo_set_line_join(cr, cairoJoin(shape.lineJoin))
        cairo_set_miter_limit(cr, Double(shape.miterLimit))

        // Pieces to stroke, grouped by the dash offset they need.
        var groups: [(offset: CGFloat, elements: [CGPathElement])]
        if shape.isTrimmed {
            let pieces = StrokeGeometry(shape.path).trimmed(from: shape.strokeStart, to: shape.strokeEnd)
            guard !pieces.isEmpty else { return }
            if shape.dashPattern.isEmpty {
                groups = [(0, pieces.flatMap(\.elements))]
            } else {
                groups = []
                for p in pieces {
                    if let i = groups.firstIndex(where: { $0.offset == p.offsetInSubpath }) {
                        groups[i].elements += p.elements
                    } else {
                        groups.append((p.offsetInSubpath, p.elements))
                    }
                }
            }
        } else {
            groups = [(0, shape.path.elements)]
        }

        func strokeGroup(_ g: (offset: CGFloat, elements: [CGPathElement])) {
            setDash(shape, offset: g.offset, cr)
            canvas.addPath(CGPath(elements: g.elements))
            cairo_stroke(cr)
        }
        if groups.count == 1 {
            canvas.setColor(stroke)
            strokeGroup(groups[0])
        } else {
            // Several dash offsets: stroke each into one coverage mask, then paint the colour
            // through it once, so a translucent stroke is not darker where pieces meet.
            cairo_push_group_with_content(cr, CAIRO_CONTENT_ALPHA)
            cairo_set_source_rgba(cr, 0, 0, 0, 1)
            for g in groups { strokeGroup(g) }
            let mask = cairo_pop_group(cr)
            canvas.setColor(stroke)
            cairo_mask(cr, mask)
            cairo_pattern_destroy(mask)
        }
    }

    /// Sets Cairo's dash pattern (none for a solid stroke); `offset` is how far along its
    /// subpath the piece starts, so the pattern stays fixed to the path.
    private static func setDash(_ shape: ShapeContent, offset: CGFloat, _ cr: OpaquePointer) {
        guard !shape.dashPattern.isEmpty else { cairo_set_dash(cr, nil, 0, 0); return }
        let lengths = shape.dashPattern.map(Double.init)
        lengths.withUnsafeBufferPointer { cairo_set_dash(cr, $0.baseAddress, Int32($0.count), Double(shape.dashPhase + offset)) }
    }

    private static func cairoCap(_ c: CGLineCap) -> cairo_line_cap_t {
        switch c {
        case .butt: CAIRO_LINE_CAP_BUTT
        case .round: CAIRO_LINE_CAP_ROUND
        case .square: CAIRO_LINE_CAP_SQUARE
        }
    }

    private static func cairoJoin(_ j: CGLineJoin) -> cairo_line_join_t {
        switch j {
        case .miter: CAIRO_LINE_JOIN_MITER
        case .round: CAIRO_LINE_JOIN_ROUND
        case .bevel: CAIRO_LINE_JOIN_BEVEL
        }
    }
}
