// A custom drawing as data: the Core Graphics calls a `CGContext` recorded, normalised into a
// Sendable, Hashable list of commands that the renderer replays with Cairo on a worker thread
// (StrataRender's DrawingRasterizer). The recording is also the backing-store cache key, so two
// drawings made by the same calls are equal and share one rasterisation.
//
// Normalisation: paths are stored in the layer's coordinate space (the CTM at the time each
// segment was added is already applied, as Core Graphics does), so path construction leaves no
// commands behind; only the CTM at the moment of a stroke, gradient, image or text is recorded.
import Foundation

/// One recorded drawing operation. Paths are in the coordinate space of the layer (the context's
/// initial user space); rectangles and points of gradients, images and text are in the user
/// space of the most recent `setCTM`.
public enum DrawingCommand: Sendable, Hashable {
    /// Pushes the graphics state (CTM, clip, colours, line style, alpha, blend mode).
    case saveGState
    /// Pops the graphics state.
    case restoreGState
    /// The current transformation matrix, relative to the layer's coordinate space.
    case setCTM(CGAffineTransform)
    /// The fill colour.
    case setFillColor(RGBA)
    /// The stroke colour.
    case setStrokeColor(RGBA)
    /// The global alpha (0…1) multiplied into everything drawn.
    case setAlpha(CGFloat)
    /// The stroke width in user-space units.
    case setLineWidth(CGFloat)
    /// How open ends are stroked.
    case setLineCap(CGLineCap)
    /// How corners are stroked.
    case setLineJoin(CGLineJoin)
    /// The miter limit.
    case setMiterLimit(CGFloat)
    /// The dash pattern (empty: solid).
    case setLineDash(phase: CGFloat, lengths: [CGFloat])
    /// How drawing combines with what is already there.
    case setBlendMode(CGBlendMode)
    /// Whether edges are antialiased.
    case setShouldAntialias(Bool)
    /// How images are sampled when scaled.
    case setInterpolationQuality(CGInterpolationQuality)
    /// Fills a path (layer coordinates) with the fill colour.
    case fill(CGPath, CGPathFillRule)
    /// Strokes a path (layer coordinates) with the stroke colour; the pen is in the current CTM.
    case stroke(CGPath)
    /// Intersects the clip with a path's area (layer coordinates).
    case clip(CGPath, CGPathFillRule)
    /// Resets the clip to the whole drawing area.
    case resetClip
    /// Makes a path's area (layer coordinates) transparent.
    case clear(CGPath)
    /// Paints an axial gradient over the clip.
    case linearGradient(CGGradient, start: CGPoint, end: CGPoint, options: CGGradientDrawingOptions)
    /// Paints a two-circle radial gradient over the clip.
    case radialGradient(CGGradient, startCenter: CGPoint, startRadius: CGFloat, endCenter: CGPoint,
                        endRadius: CGFloat, options: CGGradientDrawingOptions)
    /// Draws an image stretched into a rectangle (upright in Strata's y-down space), or tiled
    /// over the clip with that rectangle as one tile.
    case image(CGImage, CGRect, tiled: Bool)
    /// Draws styled text with its top-left at `origin`; with a size, wrapped to its width and
    /// clipped to it.
    case text(TextContent, origin: CGPoint, size: CGSize?)
}
