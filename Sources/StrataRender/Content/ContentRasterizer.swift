// Rasterises a layer's vector or drawn content (`LayerContent`) into a backing store: a bitmap
// of the layer-space area the content covers, at a chosen scale (pixels per layer point).
// Each kind of content adds its case here; the compositor only ever sees the resulting bitmap.
import Foundation
import CCairo
import StrataCore

/// A rasterised backing store: `bitmap` covers `area` (layer points).
public struct RasterizedContent: Sendable {
    /// The rasterised pixels.
    public let bitmap: Bitmap
    /// The layer-space rectangle, in points, the bitmap covers.
    public let area: CGRect
    /// Pixels per layer point.
    public let scale: Double
    /// A CGImage wrapping the bitmap (for the image draw op and its cache identity).
    public let image: CGImage

    /// Layer-space rectangles that hold every non-transparent pixel (with the one-texel margin
    /// bilinear sampling reaches): runs of occupied 32-pixel cells, row by row. Thin strokes and
    /// short text in large areas then cost only the cells they touch. Nil when mostly full.
    public let occupiedRects: [CGRect]?

    /// A backing store of `bitmap` covering `area` at `scale`; finds its occupied cells once.
    public init(bitmap: Bitmap, area: CGRect, scale: Double) {
        self.bitmap = bitmap; self.area = area; self.scale = scale
        image = CGImage(bitmap: bitmap)
        occupiedRects = RasterizedContent.occupancy(bitmap, area: area, scale: scale)
    }

    static let cellSize = 32

    static func occupancy(_ b: Bitmap, area: CGRect, scale: Double) -> [CGRect]? {
        let cs = cellSize
        let cols = (b.width + cs - 1) / cs, rows = (b.height + cs - 1) / cs
        guard cols * rows > 4 else { return nil }
        var occupied = [Bool](repeating: false, count: cols * rows)
        b.pixels.withUnsafeBytes { raw in
            let words = raw.bindMemory(to: UInt32.self)
            for y in 0..<b.height {
                let row = y * b.width
                // A texel marks its own cell and any cell within one texel (bilinear footprint).
                let cy0 = max(0, (y - 1) / cs), cy1 = min(rows - 1, (y + 1) / cs)
                var x = 0
                while x < b.width {
                    if words[row + x] >> 24 == 0 { x += 1; continue }
                    let cx0 = max(0, (x - 1) / cs), cx1 = min(cols - 1, (x + 1) / cs)
                    for cy in cy0...cy1 { for cx in cx0...cx1 { occupied[cy * cols + cx] = true } }
                    x += 1
                }
            }
        }
        let count = occupied.lazy.filter { $0 }.count
        if count * 10 > cols * rows * 7 { return nil }
        var rects: [CGRect] = []
        let unit = Double(cs) / scale
        for cy in 0..<rows {
            var cx = 0
            while cx < cols {
                guard occupied[cy * cols + cx] else { cx += 1; continue }
                let start = cx
                while cx < cols && occupied[cy * cols + cx] { cx += 1 }
                var x0 = Double(area.minX) + Double(start) * unit, x1 = Double(area.minX) + Double(cx) * unit
                var y0 = Double(area.minY) + Double(cy) * unit, y1 = y0 + unit
                // Cells on the outer edge reach well past it, so the anti-aliased fringe of the
                // destination (pixel centres just outside the area) still belongs to a cell.
                let margin = 4 * unit
                if start == 0 { x0 -= margin }
                if cx == cols { x1 += margin }
                if cy == 0 { y0 -= margin }
                if cy == rows - 1 { y1 += margin }
                rects.append(CGRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0))
            }
        }
        return rects
    }
}

extension Bitmap {
    /// Blurs the alpha channel with a Gaussian of `sigma` pixels (three box passes for wide
    /// ones, `AlphaBlur`; colour channels are left at zero: the bitmap is a mask).
    mutating func blurAlpha(sigma: Double) {
        guard sigma >= 0.05, width > 0, height > 0 else { return }
        // A mask is rasterised with a margin of 3σ on each side, so σ ≤ size / 6 for any mask
        // made here; the cap only keeps another caller's value (∞, 1e300) from trapping.
        let sigma = min(sigma, Double(max(width, height)))
        let n = width * height
        var a = [Float](repeating: 0, count: n)
        for i in 0..<n { a[i] = Float(pixels[i * 4 + 3]) / 255 }
        AlphaBlur.blur(&a, width: width, height: height, sigma: sigma)
        for i in 0..<n {
            pixels[i * 4] = 0; pixels[i * 4 + 1] = 0; pixels[i * 4 + 2] = 0
            pixels[i * 4 + 3] = UInt8(min(max(a[i] * 255 + 0.5, 0), 255))
        }
    }
}

/// Turns content descriptions into backing stores.
public enum ContentRasterizer {
    /// The layer-space rectangle `content` may draw into (before clipping), or nil for none.
    public static func drawArea(of content: LayerContent, layerBounds: CGRect) -> CGRect? {
        switch content {
        case .none: return nil
        case .pathMask(let path, let blur):
            guard !path.isEmpty else { return nil }
            let m = 3 * max(blur, 0) + 1
            return path.boundingBoxOfPath.insetBy(dx: -m, dy: -m)
        case .shape(let shape): return ShapeRasterizer.drawArea(of: shape)
        case .text: return layerBounds
        case .drawing(let drawing): return DrawingRasterizer.drawArea(of: drawing, layerBounds: layerBounds)
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
        case .pathMask(let path, let blur):
            canvas.addPath(path)
            canvas.setColor(.black)
            cairo_fill(canvas.context)
            var bitmap = canvas.bitmap()
            bitmap.blurAlpha(sigma: Double(blur) * scale)
            return RasterizedContent(bitmap: bitmap, area: canvas.area, scale: scale)
        case .shape(let shape): ShapeRasterizer.draw(shape, in: canvas)
        case .text(let text): TextRasterizer.draw(text, in: layerBounds, on: canvas)
        case .drawing(let drawing): DrawingRasterizer.draw(drawing, layerBounds: layerBounds, on: canvas)
        }
        return RasterizedContent(bitmap: canvas.bitmap(), area: canvas.area, scale: scale)
    }
}
