// The Core Graphics drawing context that `draw(in:)` receives. It does not paint: it records the
// calls into a `DrawingRecording` (Sendable, Hashable data) that the renderer replays with Cairo
// on its worker threads, at whatever scale the layer is shown at — so custom drawing stays sharp
// when the layer is zoomed. User drawing code runs once per redraw on the building thread.
//
// The context keeps enough graphics state to answer Core Graphics' queries (`ctm`,
// `currentPointOfPath`, `boundingBoxOfClipPath`, …) and to record paths in layer coordinates.
import Foundation

/// A Core Graphics drawing context (Quartz 2D's model: a current path, a graphics-state stack
/// with CTM, clip, colours, line style, alpha and blend mode).
///
/// A layer's `draw(in:)` receives one covering `bounds`, whose user space starts out as the
/// layer's own coordinate space (y down, origin at `bounds.origin`):
///
/// ```swift
/// override func draw(in ctx: CGContext) {
///     ctx.setFillColor(CGColor(red: 1, green: 0, blue: 0, alpha: 1))
///     ctx.fillEllipse(in: bounds.insetBy(dx: 10, dy: 10))
/// }
/// ```
///
/// **Strata:** `draw(_:in:)` draws images upright in the y-down space (Apple's flipped-image quirk
/// in a layer context is not copied), and `ctm` excludes the device scale.
public final class CGContext {
    struct GState {
        var ctm = CGAffineTransform.identity
        /// The CTM the replay will have (the last one recorded in this state).
        var recordedCTM = CGAffineTransform.identity
        /// Bounding box of the clip, in layer coordinates.
        var clipBox: CGRect
        var lineWidth: CGFloat = 1
        var fillColor = RGBA.black
        var strokeColor = RGBA.black
        var alpha: CGFloat = 1
    }

    private var state: GState
    private var stack: [GState] = []
    /// The current path, in layer coordinates.
    private var currentPath = CGMutablePath()
    private var commands: [DrawingCommand] = []

    /// The layer-space rectangle the context covers.
    public let bounds: CGRect
    /// Backing pixels per point (the layer's `contentsScale`).
    public let contentsScale: CGFloat
    /// Width of the backing store in pixels (`bounds.width × contentsScale`).
    public var width: Int { Int((bounds.width * contentsScale).rounded(.up)) }
    /// Height of the backing store in pixels.
    public var height: Int { Int((bounds.height * contentsScale).rounded(.up)) }

    /// Core Graphics' interpolation quality for images drawn afterwards.
    public var interpolationQuality: CGInterpolationQuality = .default {
        didSet { commands.append(.setInterpolationQuality(interpolationQuality)) }
    }

    /// A recording context for a drawing of `bounds` (layer coordinates) at `contentsScale`.
    public init(recordingIn bounds: CGRect, contentsScale: CGFloat = 1) {
        self.bounds = bounds
        self.contentsScale = contentsScale
        state = GState(clipBox: bounds)
    }

    /// Everything recorded so far.
    public func makeRecording() -> DrawingRecording { DrawingRecording(commands: commands) }

    /// The drawing recorded so far, for a layer of `bounds`.
    public func makeDrawing(gravity: CALayerContentsGravity = .resize) -> DrawingContent {
        DrawingContent(recording: makeRecording(), bounds: bounds, gravity: gravity)
    }

    // MARK: Graphics state

    /// Pushes a copy of the graphics state (not the path).
    public func saveGState() {
        stack.append(state)
        commands.append(.saveGState)
    }

    /// Restores the state pushed by the matching `saveGState()`; an unbalanced call is ignored.
    public func restoreGState() {
        guard let s = stack.popLast() else { return }
        state = s
        commands.append(.restoreGState)
    }

    /// The current transformation matrix, relative to the layer's coordinate space.
    public var ctm: CGAffineTransform { state.ctm }

    /// User space to backing-store pixels.
    public var userSpaceToDeviceSpaceTransform: CGAffineTransform {
        state.ctm.concatenating(CGAffineTransform(translationX: -bounds.minX, y: -bounds.minY))
            .concatenating(CGAffineTransform(scaleX: contentsScale, y: contentsScale))
    }

    /// Moves the origin of user space.
    public func translateBy(x: CGFloat, y: CGFloat) { state.ctm = state.ctm.translatedBy(x: x, y: y) }
    /// Scales user space.
    public func scaleBy(x: CGFloat, y: CGFloat) { state.ctm = state.ctm.scaledBy(x: x, y: y) }
    /// Rotates user space (positive angles turn clockwise on screen in y-down space).
    public func rotate(by angle: CGFloat) { state.ctm = state.ctm.rotated(by: angle) }
    /// Applies `transform` to user space (before the current CTM).
    public func concatenate(_ transform: CGAffineTransform) { state.ctm = transform.concatenating(state.ctm) }

    /// Records the CTM if the replay does not have it yet (before painting that depends on it).
    private func syncCTM() {
        guard state.recordedCTM != state.ctm else { return }
        state.recordedCTM = state.ctm
        commands.append(.setCTM(state.ctm))
    }

    // MARK: Paint settings

    /// The colour of fills.
    public func setFillColor(_ color: CGColor) {
        let c = RGBA(color) ?? .clear
        state.fillColor = c
        commands.append(.setFillColor(c))
    }
    /// The colour of strokes.
    public func setStrokeColor(_ color: CGColor) {
        let c = RGBA(color) ?? .clear
        state.strokeColor = c
        commands.append(.setStrokeColor(c))
    }
    /// The colour of fills, from sRGB components (0…1).
    public func setFillColor(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        setFillColor(CGColor(red: red, green: green, blue: blue, alpha: alpha))
    }
    /// The colour of strokes, from sRGB components (0…1).
    public func setStrokeColor(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        setStrokeColor(CGColor(red: red, green: green, blue: blue, alpha: alpha))
    }
    /// The colour of fills: a grey of brightness `gray` (0…1).
    public func setFillColor(gray: CGFloat, alpha: CGFloat) { setFillColor(CGColor(gray: gray, alpha: alpha)) }
    /// The colour of strokes: a grey of brightness `gray` (0…1).
    public func setStrokeColor(gray: CGFloat, alpha: CGFloat) { setStrokeColor(CGColor(gray: gray, alpha: alpha)) }

    /// The global alpha (clamped to 0…1) applied to everything drawn afterwards.
    public func setAlpha(_ alpha: CGFloat) {
        let a = alpha.isFinite ? min(max(alpha, 0), 1) : 1
        state.alpha = a
        commands.append(.setAlpha(a))
    }

    /// The stroke width (negative values are treated as 0).
    public func setLineWidth(_ width: CGFloat) {
        let w = width.isFinite ? max(width, 0) : 1
        state.lineWidth = w
        commands.append(.setLineWidth(w))
    }
    /// How the ends of stroked open subpaths look (default `.butt`).
    public func setLineCap(_ cap: CGLineCap) { commands.append(.setLineCap(cap)) }
    /// How stroked segments meet (default `.miter`).
    public func setLineJoin(_ join: CGLineJoin) { commands.append(.setLineJoin(join)) }
    /// How far a miter join may reach, as a multiple of the line width, before it is bevelled
    /// (default 10; values below 1 are raised to 1).
    public func setMiterLimit(_ limit: CGFloat) { commands.append(.setMiterLimit(limit.isFinite ? max(limit, 1) : 10)) }

    /// Dashes strokes with alternating painted and unpainted `lengths`, starting `phase` into
    /// the pattern. An empty pattern, or one with a negative entry or a zero sum, strokes solid.
    public func setLineDash(phase: CGFloat, lengths: [CGFloat]) {
        let valid = !lengths.isEmpty && lengths.allSatisfy { $0 >= 0 && $0.isFinite } && lengths.reduce(0, +) > 0
        commands.append(.setLineDash(phase: valid && phase.isFinite ? phase : 0, lengths: valid ? lengths : []))
    }

    /// How drawing combines with the pixels already there (default `.normal`).
    ///
    /// ```swift
    /// context.setBlendMode(.multiply)
    /// context.fill(rect)
    /// ```
    public func setBlendMode(_ mode: CGBlendMode) { commands.append(.setBlendMode(mode)) }
    /// Whether edges are antialiased (default `true`).
    public func setShouldAntialias(_ shouldAntialias: Bool) { commands.append(.setShouldAntialias(shouldAntialias)) }
    /// Accepted for compatibility; antialiasing is governed by `setShouldAntialias`.
    public func setAllowsAntialiasing(_ allowsAntialiasing: Bool) {}

    // MARK: The current path

    /// Discards the current path.
    public func beginPath() { currentPath = CGMutablePath() }
    /// Starts a new subpath at `point` (user space, transformed by the current matrix).
    public func move(to point: CGPoint) { currentPath.move(to: point, transform: state.ctm) }
    /// Adds a straight line from the current point to `point`.
    public func addLine(to point: CGPoint) { currentPath.addLine(to: point, transform: state.ctm) }
    /// Adds straight lines through `points`: a move to the first, lines to the rest.
    public func addLines(between points: [CGPoint]) { currentPath.addLines(between: points, transform: state.ctm) }
    /// Adds a cubic Bézier curve from the current point to `end` with two control points.
    public func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint) {
        currentPath.addCurve(to: end, control1: control1, control2: control2, transform: state.ctm)
    }
    /// Adds a quadratic Bézier curve from the current point to `end` with one control point.
    public func addQuadCurve(to end: CGPoint, control: CGPoint) {
        currentPath.addQuadCurve(to: end, control: control, transform: state.ctm)
    }
    /// A circular arc; `clockwise` has Core Graphics' meaning (see `CGMutablePath.addArc`).
    public func addArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool) {
        currentPath.addArc(center: center, radius: radius, startAngle: startAngle, endAngle: endAngle,
                           clockwise: clockwise, transform: state.ctm)
    }
    /// Adds a line towards `tangent1End` and an arc of `radius` tangent to the lines from the current
    /// point to `tangent1End` and from `tangent1End` to `tangent2End` (rounded corners).
    public func addArc(tangent1End: CGPoint, tangent2End: CGPoint, radius: CGFloat) {
        currentPath.addArc(tangent1End: tangent1End, tangent2End: tangent2End, radius: radius, transform: state.ctm)
    }
    /// Adds a closed rectangle subpath.
    public func addRect(_ rect: CGRect) { currentPath.addRect(rect, transform: state.ctm) }
    /// Adds a closed rectangle subpath for each of `rects`.
    public func addRects(_ rects: [CGRect]) { currentPath.addRects(rects, transform: state.ctm) }
    /// Adds a closed ellipse subpath that fits `rect`.
    public func addEllipse(in rect: CGRect) { currentPath.addEllipse(in: rect, transform: state.ctm) }
    /// Adds the elements of `path`, transformed by the current matrix.
    public func addPath(_ path: CGPath) { currentPath.addPath(path, transform: state.ctm) }
    /// Closes the current subpath with a line back to its start.
    public func closePath() { currentPath.closeSubpath() }

    /// True when the current path has no elements.
    public var isPathEmpty: Bool { currentPath.isEmpty }
    /// The current point of the path in user space.
    public var currentPointOfPath: CGPoint { currentPath.currentPoint.applying(state.ctm.inverted()) }
    /// The bounding box of the current path's points in user space.
    public var boundingBoxOfPath: CGRect {
        currentPath.isEmpty ? .null : currentPath.applying(state.ctm.inverted()).boundingBoxOfPath
    }
    /// A copy of the current path in user space (nil when empty).
    public var path: CGPath? {
        currentPath.isEmpty ? nil : currentPath.applying(state.ctm.inverted())
    }

    /// Takes the current path (layer coordinates) and starts a new one.
    private func takePath() -> CGPath? {
        defer { currentPath = CGMutablePath() }
        return currentPath.isEmpty ? nil : CGPath(elements: currentPath.elements)
    }

    /// A path of `build` in layer coordinates (for the rectangle and ellipse conveniences).
    private func layerPath(_ build: (CGMutablePath, CGAffineTransform) -> Void) -> CGPath {
        let p = CGMutablePath()
        build(p, state.ctm)
        return CGPath(elements: p.elements)
    }

    // MARK: Painting paths

    /// Fills the current path with the fill colour and clears it.
    public func fillPath(using rule: CGPathFillRule = .winding) {
        guard let p = takePath() else { return }
        commands.append(.fill(p, rule))
    }

    /// Strokes the current path with the stroke colour and clears it.
    public func strokePath() {
        guard let p = takePath() else { return }
        syncCTM()
        commands.append(.stroke(p))
    }

    /// Fills and/or strokes the current path, then clears it.
    public func drawPath(using mode: CGPathDrawingMode) {
        guard let p = takePath() else { return }
        switch mode {
        case .fill: commands.append(.fill(p, .winding))
        case .eoFill: commands.append(.fill(p, .evenOdd))
        case .stroke: syncCTM(); commands.append(.stroke(p))
        case .fillStroke: commands.append(.fill(p, .winding)); syncCTM(); commands.append(.stroke(p))
        case .eoFillStroke: commands.append(.fill(p, .evenOdd)); syncCTM(); commands.append(.stroke(p))
        }
    }

    /// Fills a rectangle (clears the current path, as Core Graphics does).
    public func fill(_ rect: CGRect) { fill([rect]) }
    /// Fills rectangles (clears the current path).
    public func fill(_ rects: [CGRect]) {
        beginPath()
        commands.append(.fill(layerPath { p, t in p.addRects(rects, transform: t) }, .winding))
    }
    /// Strokes a rectangle with the current line width (clears the current path).
    public func stroke(_ rect: CGRect) {
        beginPath()
        syncCTM()
        commands.append(.stroke(layerPath { p, t in p.addRect(rect, transform: t) }))
    }
    /// Strokes a rectangle with `width`, leaving the line width setting unchanged.
    public func stroke(_ rect: CGRect, width: CGFloat) {
        let old = state.lineWidth
        setLineWidth(width)
        stroke(rect)
        setLineWidth(old)
    }
    /// Fills the ellipse inscribed in `rect` (clears the current path).
    public func fillEllipse(in rect: CGRect) {
        beginPath()
        commands.append(.fill(layerPath { p, t in p.addEllipse(in: rect, transform: t) }, .winding))
    }
    /// Strokes the ellipse inscribed in `rect` (clears the current path).
    public func strokeEllipse(in rect: CGRect) {
        beginPath()
        syncCTM()
        commands.append(.stroke(layerPath { p, t in p.addEllipse(in: rect, transform: t) }))
    }
    /// Strokes the segments between consecutive pairs of `points` (clears the current path).
    public func strokeLineSegments(between points: [CGPoint]) {
        beginPath()
        guard points.count >= 2 else { return }
        syncCTM()
        commands.append(.stroke(layerPath { p, t in
            var i = 0
            while i + 1 < points.count {
                p.move(to: points[i], transform: t)
                p.addLine(to: points[i + 1], transform: t)
                i += 2
            }
        }))
    }
    /// Makes a rectangle transparent (within the clip).
    public func clear(_ rect: CGRect) {
        commands.append(.clear(layerPath { p, t in p.addRect(rect, transform: t) }))
    }

    // MARK: Clipping

    /// Intersects the clip with the current path's area and clears the path.
    public func clip(using rule: CGPathFillRule = .winding) {
        guard let p = takePath() else {
            // Clipping to an empty path clips everything away.
            state.clipBox = .null
            commands.append(.clip(CGPath(elements: []), rule))
            return
        }
        state.clipBox = state.clipBox.intersection(p.boundingBoxOfPath)
        commands.append(.clip(p, rule))
    }

    /// Intersects the clip with a rectangle (the current path is kept).
    public func clip(to rect: CGRect) { clip(to: [rect]) }

    /// Intersects the clip with the union of rectangles.
    public func clip(to rects: [CGRect]) {
        let p = layerPath { p, t in p.addRects(rects, transform: t) }
        state.clipBox = state.clipBox.intersection(p.isEmpty ? .null : p.boundingBoxOfPath)
        commands.append(.clip(p, .winding))
    }

    /// Resets the clip to the whole drawing area.
    public func resetClip() {
        state.clipBox = bounds
        commands.append(.resetClip)
    }

    /// The bounding box of the clip in user space.
    public var boundingBoxOfClipPath: CGRect {
        state.clipBox.isNull ? .null : state.clipBox.applying(state.ctm.inverted())
    }

    // MARK: Gradients, images, text

    /// Paints an axial gradient from `start` to `end` (user space) over the clip. Without
    /// options, only the band between the two points' perpendiculars is painted.
    public func drawLinearGradient(_ gradient: CGGradient, start: CGPoint, end: CGPoint, options: CGGradientDrawingOptions) {
        syncCTM()
        commands.append(.linearGradient(gradient, start: start, end: end, options: options))
    }

    /// Paints a radial gradient between two circles (user space) over the clip.
    public func drawRadialGradient(_ gradient: CGGradient, startCenter: CGPoint, startRadius: CGFloat,
                                   endCenter: CGPoint, endRadius: CGFloat, options: CGGradientDrawingOptions) {
        syncCTM()
        commands.append(.radialGradient(gradient, startCenter: startCenter, startRadius: max(startRadius, 0),
                                        endCenter: endCenter, endRadius: max(endRadius, 0), options: options))
    }

    /// Draws `image` stretched into `rect` (user space); with `byTiling`, repeats it over the
    /// clip with `rect` as one tile. **Strata:** upright in y-down space.
    public func draw(_ image: CGImage, in rect: CGRect, byTiling: Bool = false) {
        guard rect.width != 0, rect.height != 0, image.width > 0, image.height > 0 else { return }
        syncCTM()
        commands.append(.image(image, rect, tiled: byTiling))
    }

    /// Draws styled text with its top-left corner at `point` (no wrapping).
    public func draw(_ text: TextContent, at point: CGPoint) {
        guard !text.runs.isEmpty else { return }
        syncCTM()
        commands.append(.text(text, origin: point, size: nil))
    }

    /// Draws styled text wrapped to `rect`'s width, starting at its top, clipped to it.
    public func draw(_ text: TextContent, in rect: CGRect) {
        guard !text.runs.isEmpty, rect.width > 0, rect.height > 0 else { return }
        syncCTM()
        var wrapped = text
        wrapped.isWrapped = true
        commands.append(.text(wrapped, origin: rect.origin, size: rect.size))
    }
}
