// What a CAShapeLayer draws at one moment, frozen into a Sendable value for the renderer. The
// value is normalised so that equal pixels give equal values (a stroke width without a stroke
// colour is dropped, trim fractions are clamped, an invalid dash pattern is removed): it is the
// backing-store cache key, so it holds everything that affects the pixels and nothing else.
import Foundation

/// A filled and/or stroked path in layer coordinates (the content of a `CAShapeLayer`).
public struct ShapeContent: Sendable, Hashable {
    /// The path, in the layer's coordinate space (it may extend outside the bounds).
    public var path: CGPath
    /// The fill colour, nil when the path is not filled.
    public var fillColor: RGBA?
    /// The rule that decides which points the fill covers.
    public var fillRule: CGPathFillRule
    /// The stroke colour, nil when the path is not stroked.
    public var strokeColor: RGBA?
    /// The stroke width in points.
    public var lineWidth: CGFloat
    /// How the ends of open subpaths (and of dashes and trimmed pieces) are stroked.
    public var lineCap: CGLineCap
    /// How corners are stroked.
    public var lineJoin: CGLineJoin
    /// The limit on the ratio of miter length to line width before a miter join is bevelled.
    public var miterLimit: CGFloat
    /// Alternating painted and unpainted lengths in points; empty for a solid stroke.
    public var dashPattern: [CGFloat]
    /// How far into the dash pattern each subpath starts.
    public var dashPhase: CGFloat
    /// Where the stroke starts, as a fraction (0…1) of the whole path's length.
    public var strokeStart: CGFloat
    /// Where the stroke ends, as a fraction (0…1) of the whole path's length.
    public var strokeEnd: CGFloat

    /// A shape, normalised: invisible colours become nil, stroke settings are reset when there
    /// is no visible stroke, trim fractions are clamped to 0…1 and a dash pattern with a negative
    /// or non-finite entry, or one that sums to zero, is dropped (Core Graphics then strokes
    /// solid).
    public init(path: CGPath, fillColor: RGBA?, fillRule: CGPathFillRule = .winding, strokeColor: RGBA?,
                lineWidth: CGFloat = 1, lineCap: CGLineCap = .butt, lineJoin: CGLineJoin = .miter,
                miterLimit: CGFloat = 10, dashPattern: [CGFloat] = [], dashPhase: CGFloat = 0,
                strokeStart: CGFloat = 0, strokeEnd: CGFloat = 1) {
        self.path = path
        let fill = fillColor.flatMap { $0.a > 0 ? $0 : nil }
        self.fillColor = fill
        self.fillRule = fill == nil ? .winding : fillRule
        let width = lineWidth.isFinite ? lineWidth : 0
        let stroke = strokeColor.flatMap { $0.a > 0 && width > 0 ? $0 : nil }
        self.strokeColor = stroke
        if stroke != nil {
            self.lineWidth = width
            self.lineCap = lineCap
            self.lineJoin = lineJoin
            self.miterLimit = lineJoin == .miter ? (miterLimit.isFinite ? max(miterLimit, 1) : 10) : 10
            let valid = !dashPattern.isEmpty && dashPattern.allSatisfy { $0.isFinite && $0 >= 0 }
                && dashPattern.reduce(0, +) > 0
            self.dashPattern = valid ? dashPattern : []
            self.dashPhase = valid && dashPhase.isFinite ? dashPhase : 0
            func clamp(_ v: CGFloat) -> CGFloat { v.isFinite ? min(max(v, 0), 1) : 0 }
            self.strokeStart = clamp(strokeStart)
            self.strokeEnd = strokeEnd.isNaN ? 1 : clamp(strokeEnd)
        } else {
            self.lineWidth = 0; self.lineCap = .butt; self.lineJoin = .miter; self.miterLimit = 10
            self.dashPattern = []; self.dashPhase = 0; self.strokeStart = 0; self.strokeEnd = 1
        }
    }

    /// True when the stroke covers only part of the path (`strokeStart > 0` or `strokeEnd < 1`).
    public var isTrimmed: Bool { strokeColor != nil && (strokeStart > 0 || strokeEnd < 1) }

    /// True when something would be painted.
    public var isVisible: Bool {
        guard !path.isEmpty else { return false }
        return fillColor != nil || (strokeColor != nil && strokeEnd > strokeStart)
    }
}
