// Replays a layer's recorded custom drawing (`DrawingContent`, made by `CGContext` in Core) with
// Cairo onto a backing-store canvas whose user space is layer points at the on-screen scale, so a
// zoomed drawing is rasterised again at full resolution rather than magnified. Runs on renderer
// workers: the recording is immutable data, and Cairo state here belongs to one canvas.
//
// Core Graphics and Cairo share the model (current path in device space, CTM, clip, save/restore
// of state but not of the path). Differences handled here: CG has separate fill and stroke
// colours and a global alpha (kept in a Swift-side state stack next to cairo_save/restore); CG
// line width defaults to 1 (Cairo's to 2); CG gradients can extend one side only, which Cairo
// patterns cannot (done with a clip, see `paintGradient`); Cairo puts a context into a permanent
// error state on a singular matrix, so painting under a singular CTM is skipped (CG draws nothing
// there either). Hands back nothing: ContentRasterizer reads the canvas bitmap.
import Foundation
import CCairo
import StrataCore

/// Replays `DrawingContent` on a Cairo canvas.
enum DrawingRasterizer {
    /// The layer-space rectangle the drawing covers in a layer of `layerBounds`.
    static func drawArea(of drawing: DrawingContent, layerBounds: CGRect) -> CGRect? {
        guard !drawing.recording.isEmpty else { return nil }
        let d = drawing.destination(in: layerBounds)
        return d.isNull || d.width <= 0 || d.height <= 0 ? nil : d
    }

    /// Draws `drawing`, placed in `layerBounds`, onto `canvas`.
    static func draw(_ drawing: DrawingContent, layerBounds: CGRect, on canvas: CairoCanvas) {
        let cr = canvas.context
        cairo_save(cr)
        var placement = cairoMatrix(drawing.placement(in: layerBounds))
        cairo_transform(cr, &placement)
        var replay = Replay(cr: cr, area: drawing.bounds)
        for command in drawing.recording.commands { replay.run(command) }
        replay.finish()
        cairo_restore(cr)
    }

    static func cairoMatrix(_ t: CGAffineTransform) -> cairo_matrix_t {
        var m = cairo_matrix_t()
        cairo_matrix_init(&m, Double(t.a), Double(t.b), Double(t.c), Double(t.d), Double(t.tx), Double(t.ty))
        return m
    }
}

/// The replay of one recording: Cairo's context plus the parts of Core Graphics' graphics state
/// that Cairo does not hold.
private struct Replay {
    struct State {
        var fill = RGBA.black
        var stroke = RGBA.black
        var alpha = 1.0
        var ctm = CGAffineTransform.identity
        var interpolation = CGInterpolationQuality.default
    }

    let cr: OpaquePointer
    /// The drawing's extent (its coordinates): the backing store's clip.
    let area: CGRect
    /// Cairo's matrix for the drawing's coordinates (canvas scale × placement).
    var base = cairo_matrix_t()
    var state = State()
    var stack: [State] = []

    init(cr: OpaquePointer, area: CGRect) {
        self.cr = cr
        self.area = area
        cairo_get_matrix(cr, &base)
        cairo_set_line_width(cr, 1)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER)
        cairo_set_miter_limit(cr, 10)
        clipToArea()
    }

    /// Pops the states the recording left pushed.
    mutating func finish() {
        while stack.popLast() != nil { cairo_restore(cr) }
    }

    private func clipToArea() {
        cairo_new_path(cr)
        cairo_rectangle(cr, Double(area.minX), Double(area.minY), Double(area.width), Double(area.height))
        cairo_clip(cr)
    }

    /// True when the CTM can be given to Cairo (finite and invertible).
    private var ctmUsable: Bool {
        let t = state.ctm
        let det = t.a * t.d - t.b * t.c
        return det.isFinite && abs(det) > 1e-12 && t.tx.isFinite && t.ty.isFinite
    }

    /// Cairo's matrix = the CTM, then the drawing's base.
    private mutating func applyCTM() {
        guard ctmUsable else { cairo_set_matrix(cr, &base); return }
        var ctm = DrawingRasterizer.cairoMatrix(state.ctm)
        var result = cairo_matrix_t()
        cairo_matrix_multiply(&result, &ctm, &base)
        cairo_set_matrix(cr, &result)
    }

    /// Replaces Cairo's path with `path` (drawing coordinates), leaving the matrix at the CTM.
    private mutating func setPath(_ path: CGPath) {
        cairo_set_matrix(cr, &base)
        cairo_new_path(cr)
        for e in path.elements {
            switch e {
            case .moveToPoint(let p): cairo_move_to(cr, Double(p.x), Double(p.y))
            case .addLineToPoint(let p): cairo_line_to(cr, Double(p.x), Double(p.y))
            case .addQuadCurveToPoint(let c, let p):
                var x0 = 0.0, y0 = 0.0
                cairo_get_current_point(cr, &x0, &y0)
                let cx = Double(c.x), cy = Double(c.y), px = Double(p.x), py = Double(p.y)
                cairo_curve_to(cr, x0 + 2 / 3 * (cx - x0), y0 + 2 / 3 * (cy - y0),
                               px + 2 / 3 * (cx - px), py + 2 / 3 * (cy - py), px, py)
            case .addCurveToPoint(let c1, let c2, let p):
                cairo_curve_to(cr, Double(c1.x), Double(c1.y), Double(c2.x), Double(c2.y), Double(p.x), Double(p.y))
            case .closeSubpath: cairo_close_path(cr)
            }
        }
        applyCTM()
    }

    private func setSource(_ c: RGBA) {
        cairo_set_source_rgba(cr, Double(c.r), Double(c.g), Double(c.b), Double(c.a) * state.alpha)
    }

    private func fillRule(_ rule: CGPathFillRule) -> cairo_fill_rule_t {
        rule == .evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING
    }

    mutating func run(_ command: DrawingCommand) {
        switch command {
        case .saveGState:
            stack.append(state)
            cairo_save(cr)
        case .restoreGState:
            guard let s = stack.popLast() else { return }
            state = s
            cairo_restore(cr)
        case .setCTM(let t):
            state.ctm = t
            applyCTM()
        case .setFillColor(let c): state.fill = c
        case .setStrokeColor(let c): state.stroke = c
        case .setAlpha(let a): state.alpha = Double(a)
        case .setLineWidth(let w): cairo_set_line_width(cr, Double(w))
        case .setLineCap(let cap):
            cairo_set_line_cap(cr, cap == .round ? CAIRO_LINE_CAP_ROUND : cap == .square ? CAIRO_LINE_CAP_SQUARE : CAIRO_LINE_CAP_BUTT)
        case .setLineJoin(let join):
            cairo_set_line_join(cr, join == .round ? CAIRO_LINE_JOIN_ROUND : join == .bevel ? CAIRO_LINE_JOIN_BEVEL : CAIRO_LINE_JOIN_MITER)
        case .setMiterLimit(let m): cairo_set_miter_limit(cr, Double(m))
        case .setLineDash(let phase, let lengths):
            if lengths.isEmpty {
                cairo_set_dash(cr, nil, 0, 0)
            } else {
                // An odd count repeats once more, as Core Graphics and Cairo both read it.
                let ds = lengths.map(Double.init)
                ds.withUnsafeBufferPointer { cairo_set_dash(cr, $0.baseAddress, Int32($0.count), Double(phase)) }
            }
        case .setBlendMode(let mode): cairo_set_operator(cr, Replay.cairoOperator(mode))
        case .setShouldAntialias(let on): cairo_set_antialias(cr, on ? CAIRO_ANTIALIAS_DEFAULT : CAIRO_ANTIALIAS_NONE)
        case .setInterpolationQuality(let q): state.interpolation = q
        case .fill(let path, let rule):
            setPath(path)
            cairo_set_fill_rule(cr, fillRule(rule))
            setSource(state.fill)
            cairo_fill(cr)
        case .stroke(let path):
            guard ctmUsable else { return }
            setPath(path)
            setSource(state.stroke)
            cairo_stroke(cr)
        case .clip(let path, let rule):
            setPath(path)
            cairo_set_fill_rule(cr, fillRule(rule))
            cairo_clip(cr)
        case .resetClip:
            cairo_reset_clip(cr)
            cairo_set_matrix(cr, &base)
            clipToArea()
            applyCTM()
        case .clear(let path):
            setPath(path)
            cairo_save(cr)
            cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR)
            cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
            cairo_fill(cr)
            cairo_restore(cr)
        case .linearGradient(let g, let start, let end, let options):
            guard ctmUsable, start != end else { return }
            paintLinear(g, start: start, end: end, options: options)
        case .radialGradient(let g, let c0, let r0, let c1, let r1, let options):
            guard ctmUsable else { return }
            paintRadial(g, c0, Double(r0), c1, Double(r1), options)
        case .image(let image, let rect, let tiled):
            guard ctmUsable else { return }
            paintImage(image, in: rect, tiled: tiled)
        case .text(let text, let origin, let size):
            guard ctmUsable else { return }
            paintText(text, at: origin, size: size)
        }
    }

    // MARK: Gradients

    private func pattern(stops g: CGGradient, _ create: () -> OpaquePointer?) -> OpaquePointer? {
        guard let p = create() else { return nil }
        for (c, l) in zip(g.colors, g.locations) {
            cairo_pattern_add_color_stop_rgba(p, Double(l), Double(c.r), Double(c.g), Double(c.b), Double(c.a))
        }
        return p
    }

    /// Paints `pattern` over the clip, extended on both sides when `extend`, after `clipBody`
    /// (which may add a clip for one-sided extension).
    private func paint(_ pattern: OpaquePointer, extend: Bool, clipBody: () -> Void) {
        cairo_save(cr)
        clipBody()
        cairo_pattern_set_extend(pattern, extend ? CAIRO_EXTEND_PAD : CAIRO_EXTEND_NONE)
        cairo_set_source(cr, pattern)
        cairo_paint_with_alpha(cr, state.alpha)
        cairo_restore(cr)
        cairo_pattern_destroy(pattern)
    }

    /// The radius around `p` (user space) that reaches every point of the clip.
    private func reach(from p: CGPoint) -> Double {
        var x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0
        cairo_clip_extents(cr, &x0, &y0, &x1, &y1)
        var r = 1.0
        for (x, y) in [(x0, y0), (x1, y0), (x0, y1), (x1, y1)] {
            r = max(r, hypot(x - Double(p.x), y - Double(p.y)))
        }
        return r + 1
    }

    /// An axial gradient. With one option only, the painted region is clipped to the half of
    /// the plane (along the axis) that option extends, and the pattern padded.
    private func paintLinear(_ g: CGGradient, start: CGPoint, end: CGPoint, options: CGGradientDrawingOptions) {
        guard let p = pattern(stops: g, { cairo_pattern_create_linear(Double(start.x), Double(start.y), Double(end.x), Double(end.y)) })
        else { return }
        let before = options.contains(.drawsBeforeStartLocation), after = options.contains(.drawsAfterEndLocation)
        paint(p, extend: before || after) {
            guard before != after else { return }
            let dx = Double(end.x - start.x), dy = Double(end.y - start.y), len = hypot(dx, dy)
            let ux = dx / len, uy = dy / len, nx = -uy, ny = ux
            let R = reach(from: start)
            let t0 = before ? -R : 0, t1 = after ? len + R : len
            let sx = Double(start.x), sy = Double(start.y)
            cairo_new_path(cr)
            cairo_move_to(cr, sx + ux * t0 + nx * R, sy + uy * t0 + ny * R)
            cairo_line_to(cr, sx + ux * t1 + nx * R, sy + uy * t1 + ny * R)
            cairo_line_to(cr, sx + ux * t1 - nx * R, sy + uy * t1 - ny * R)
            cairo_line_to(cr, sx + ux * t0 - nx * R, sy + uy * t0 - ny * R)
            cairo_close_path(cr)
            cairo_clip(cr)
        }
    }

    /// A two-circle radial gradient. One-sided extension is exact when one circle contains the
    /// other (then the extended side is a disc or the outside of one): before-start covers the
    /// larger circle's side, after-end the other. For two separate circles (a cone) it falls back
    /// to no extension.
    private func paintRadial(_ g: CGGradient, _ c0: CGPoint, _ r0: Double, _ c1: CGPoint, _ r1: Double,
                             _ options: CGGradientDrawingOptions) {
        guard let p = pattern(stops: g, { cairo_pattern_create_radial(Double(c0.x), Double(c0.y), r0, Double(c1.x), Double(c1.y), r1) })
        else { return }
        let before = options.contains(.drawsBeforeStartLocation), after = options.contains(.drawsAfterEndLocation)
        let d = hypot(Double(c1.x - c0.x), Double(c1.y - c0.y))
        let startInside = d + r0 <= r1, endInside = d + r1 <= r0
        let oneSided = before != after
        guard !oneSided || startInside || endInside else {
            paint(p, extend: false) {}
            return
        }
        paint(p, extend: before || after) {
            guard oneSided else { return }
            // t ≤ 1 (before only): the end disc when start ⊂ end, else outside the end disc.
            // t ≥ 0 (after only): outside the start disc when start ⊂ end, else the start disc.
            let (centre, radius, outside): (CGPoint, Double, Bool) =
                before ? (c1, r1, !startInside) : (c0, r0, startInside)
            cairo_new_path(cr)
            if outside {
                let R = reach(from: centre) + radius
                cairo_rectangle(cr, Double(centre.x) - R, Double(centre.y) - R, 2 * R, 2 * R)
            }
            cairo_new_sub_path(cr)
            cairo_arc(cr, Double(centre.x), Double(centre.y), radius, 0, 2 * .pi)
            cairo_close_path(cr)
            cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
            cairo_clip(cr)
        }
    }

    // MARK: Images and text

    private func paintImage(_ image: CGImage, in rect: CGRect, tiled: Bool) {
        guard let surface = image.bitmap.makeCairoSurface() else { return }
        defer { cairo_surface_destroy(surface) }
        cairo_save(cr)
        if !tiled {
            cairo_new_path(cr)
            cairo_rectangle(cr, Double(rect.minX), Double(rect.minY), Double(rect.width), Double(rect.height))
            cairo_clip(cr)
        }
        cairo_translate(cr, Double(rect.minX), Double(rect.minY))
        cairo_scale(cr, Double(rect.width) / Double(image.width), Double(rect.height) / Double(image.height))
        cairo_set_source_surface(cr, surface, 0, 0)
        let source = cairo_get_source(cr)
        cairo_pattern_set_extend(source, tiled ? CAIRO_EXTEND_REPEAT : CAIRO_EXTEND_PAD)
        let filter: cairo_filter_t
        switch state.interpolation {
        case .none: filter = CAIRO_FILTER_NEAREST
        case .low: filter = CAIRO_FILTER_BILINEAR
        case .high: filter = CAIRO_FILTER_BEST
        default: filter = CAIRO_FILTER_GOOD
        }
        cairo_pattern_set_filter(source, filter)
        cairo_paint_with_alpha(cr, state.alpha)
        cairo_restore(cr)
    }

    private func paintText(_ text: TextContent, at origin: CGPoint, size: CGSize?) {
        PangoEngine.shared.withContext { h in
            let layout = TextLayout(text, width: size?.width, height: size?.height, context: h.context)
            defer { layout.release() }
            cairo_save(cr)
            if let size {
                cairo_new_path(cr)
                cairo_rectangle(cr, Double(origin.x), Double(origin.y), Double(size.width), Double(size.height))
                cairo_clip(cr)
            }
            let group = state.alpha < 1
            if group { cairo_push_group(cr) }
            cairo_new_path(cr)
            cairo_move_to(cr, Double(origin.x + layout.xShift), Double(origin.y))
            pango_cairo_show_layout(cr, layout.layout)
            if group {
                cairo_pop_group_to_source(cr)
                cairo_paint_with_alpha(cr, state.alpha)
            }
            cairo_restore(cr)
        }
    }

    static func cairoOperator(_ mode: CGBlendMode) -> cairo_operator_t {
        switch mode {
        case .normal, .plusDarker: return CAIRO_OPERATOR_OVER
        case .multiply: return CAIRO_OPERATOR_MULTIPLY
        case .screen: return CAIRO_OPERATOR_SCREEN
        case .overlay: return CAIRO_OPERATOR_OVERLAY
        case .darken: return CAIRO_OPERATOR_DARKEN
        case .lighten: return CAIRO_OPERATOR_LIGHTEN
        case .colorDodge: return CAIRO_OPERATOR_COLOR_DODGE
        case .colorBurn: return CAIRO_OPERATOR_COLOR_BURN
        case .softLight: return CAIRO_OPERATOR_SOFT_LIGHT
        case .hardLight: return CAIRO_OPERATOR_HARD_LIGHT
        case .difference: return CAIRO_OPERATOR_DIFFERENCE
        case .exclusion: return CAIRO_OPERATOR_EXCLUSION
        case .hue: return CAIRO_OPERATOR_HSL_HUE
        case .saturation: return CAIRO_OPERATOR_HSL_SATURATION
        case .color: return CAIRO_OPERATOR_HSL_COLOR
        case .luminosity: return CAIRO_OPERATOR_HSL_LUMINOSITY
        case .clear: return CAIRO_OPERATOR_CLEAR
        case .copy: return CAIRO_OPERATOR_SOURCE
        case .sourceIn: return CAIRO_OPERATOR_IN
        case .sourceOut: return CAIRO_OPERATOR_OUT
        case .sourceAtop: return CAIRO_OPERATOR_ATOP
        case .destinationOver: return CAIRO_OPERATOR_DEST_OVER
        case .destinationIn: return CAIRO_OPERATOR_DEST_IN
        case .destinationOut: return CAIRO_OPERATOR_DEST_OUT
        case .destinationAtop: return CAIRO_OPERATOR_DEST_ATOP
        case .xor: return CAIRO_OPERATOR_XOR
        case .plusLighter: return CAIRO_OPERATOR_ADD
        }
    }
}
