// Rasterises a layer's vector or drawn content (`LayerContent`) into a backing store: a bitmap
// of the layer-space area the content covers, at a chosen scale (pixels per layer point).
// Each kind of content adds its case here; the compositor only ever sees the resulting bitmap.
import Foundation
import CCairo
import StrataCore

/// A rasterised backing store: `bitmap` covers `area` (layer points).
public struct RasterizedContent: Sendable {
    public let bitmap: Bitmap
    public let area: CGRect
    public let scale: Double
    /// A CGImage wrapping the bitmap (for the image draw op and its cache identity).
    public let image: CGImage

    public init(bitmap: Bitmap, area: CGRect, scale: Double) {
        self.bitmap = bitmap; self.area = area; self.scale = scale
        image = CGImage(bitmap: bitmap)
    }
}

/// Turns content descriptions into backing stores.
public enum ContentRasterizer {
    /// The layer-space rectangle `content` may draw into (before clipping), or nil for none.
    public static func drawArea(of content: LayerContent, layerBounds: CGRect) -> CGRect? {
        switch content {
        case .none: return nil
        case .pathMask(let path): return path.isEmpty ? nil : path.boundingBoxOfPath
        case .shape(let shape): return ShapeRasterizer.drawArea(of: shape)
        case .text: return layerBounds
        }
    }

    /// Draws `content` at `scale` pixels per point; nil when there is nothing to draw.
    public static func rasterize(_ content: LayerContent, layerBounds: CGRect, scale: Double) -> RasterizedContent? {
        guard let area = drawArea(of: content, layerBounds: layerBounds), !area.isNull, area.width > 0, area.height > 0 else { return nil }
        // Align the area to the pixel grid of this scale so repeated rasterisations line up.
        let x0 = floor(Double(area.minX) * scale) / scale, y0 = floor(Double(area.minY) * scale) / scale
        let x1 = ceil(Double(area.maxX) * scale) / scale, y1 = ceil(Double(area.maxY) * scale) / scale
        let aligned = CGRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
        guard let canvas = CairoCanvas(area: aligned, scale: scale) else { return nil }
        switch content {
        case .none: return nil
        case .pathMask(let path):
            canvas.addPath(path)
            canvas.setColor(.black)
            cairo_fill(canvas.context)
        case .shape(let shape): ShapeRasterizer.draw(shape, in: canvas)
        case .text(let text): TextRasterizer.draw(text, in: layerBounds, on: canvas)
        }
        return RasterizedContent(bitmap: canvas.bitmap(), area: canvas.area, scale: scale)
    }
}
