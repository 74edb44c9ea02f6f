// Drawing into an image, as ported code does to make textures and snapshots:
// `UIGraphicsBeginImageContextWithOptions` … `UIGraphicsGetImageFromCurrentImageContext()`, and the
// newer `UIGraphicsImageRenderer`. The context records Core Graphics calls (Core's recording
// `CGContext`); getting the image rasterises the recording with the renderer's Cairo path, the
// same one custom-drawn layers use, so an image drawn here looks like the layer would.
import Foundation
import StrataCore
import StrataRender

/// The open image contexts of this thread, innermost last.
private final class ImageContextStack {
    var contexts: [(context: CGContext, size: CGSize, scale: CGFloat)] = []
    private static let stacks = PerThreadObject { ImageContextStack() }
    static var contexts: [(context: CGContext, size: CGSize, scale: CGFloat)] {
        get { stacks.current.contexts }
        set { stacks.current.contexts = newValue }
    }
}

/// Opens an image context of `size` points at `scale` pixels per point (0: the screen's scale)
/// and makes it current. `opaque` is accepted; the image keeps its alpha.
public func UIGraphicsBeginImageContextWithOptions(_ size: CGSize, _ opaque: Bool, _ scale: CGFloat) {
    let s = scale > 0 ? scale : UIScreen.main.scale
    let ctx = CGContext(recordingIn: CGRect(origin: .zero, size: size), contentsScale: s)
    ImageContextStack.contexts.append((ctx, size, s))
    UIGraphicsPushContext(ctx)
}

/// Opens an image context of `size` points at scale 1.
public func UIGraphicsBeginImageContext(_ size: CGSize) {
    UIGraphicsBeginImageContextWithOptions(size, false, 1)
}

/// The image drawn so far in the current image context, or nil when none is open.
public func UIGraphicsGetImageFromCurrentImageContext() -> UIImage? {
    guard let top = ImageContextStack.contexts.last else { return nil }
    return renderImage(of: top.context, size: top.size, scale: top.scale)
}

/// Closes the current image context.
public func UIGraphicsEndImageContext() {
    guard !ImageContextStack.contexts.isEmpty else { return }
    ImageContextStack.contexts.removeLast()
    UIGraphicsPopContext()
}

/// Rasterises what `context` recorded into an image of `size` points at `scale`.
func renderImage(of context: CGContext, size: CGSize, scale: CGFloat) -> UIImage? {
    let w = Int((size.width * scale).rounded()), h = Int((size.height * scale).rounded())
    guard w > 0, h > 0 else { return nil }
    let drawing = context.makeDrawing()
    guard let raster = ContentRasterizer.rasterize(.drawing(drawing), layerBounds: CGRect(origin: .zero, size: size),
                                                   scale: Double(scale)) else {
        return UIImage(cgImage: CGImage(bitmap: Bitmap(width: w, height: h)), scale: scale)
    }
    var bitmap = Bitmap(width: w, height: h)
    // The rasterised area is aligned to the pixel grid; copy it into the full image.
    let ox = Int((Double(raster.area.minX) * Double(scale)).rounded())
    let oy = Int((Double(raster.area.minY) * Double(scale)).rounded())
    for y in 0..<raster.bitmap.height {
        let ty = y + oy
        guard ty >= 0, ty < h else { continue }
        for x in 0..<raster.bitmap.width {
            let tx = x + ox
            guard tx >= 0, tx < w else { continue }
            let s = (y * raster.bitmap.width + x) * 4, d = (ty * w + tx) * 4
            bitmap.pixels[d] = raster.bitmap.pixels[s]
            bitmap.pixels[d + 1] = raster.bitmap.pixels[s + 1]
            bitmap.pixels[d + 2] = raster.bitmap.pixels[s + 2]
            bitmap.pixels[d + 3] = raster.bitmap.pixels[s + 3]
        }
    }
    return UIImage(cgImage: CGImage(bitmap: bitmap), scale: scale)
}

/// The context a `UIGraphicsImageRenderer` passes to its drawing block.
public final class UIGraphicsImageRendererContext {
    /// The Core Graphics context to draw into.
    public let cgContext: CGContext
    init(cgContext: CGContext) { self.cgContext = cgContext }

    /// Fills `rect` with the context's fill colour.
    public func fill(_ rect: CGRect) { cgContext.fill(rect) }
    /// Strokes the outline of `rect` with the context's stroke colour and line width.
    public func stroke(_ rect: CGRect) { cgContext.stroke(rect) }
    /// The image drawn so far.
    public var currentImage: UIImage { UIGraphicsGetImageFromCurrentImageContext() ?? UIImage(cgImage: CGImage(bitmap: Bitmap(width: 1, height: 1))) }
}

/// The format of a `UIGraphicsImageRenderer`'s images.
public final class UIGraphicsImageRendererFormat {
    /// Pixels per point (default: the screen's).
    public var scale: CGFloat = UIScreen.main.scale
    /// Whether the images are opaque (default `false`: a transparent background).
    public var opaque = false
    /// A format with the screen's scale, not opaque.
    public init() {}
    /// A new format with the default values (the screen's scale, not opaque).
    public static func `default`() -> UIGraphicsImageRendererFormat { UIGraphicsImageRendererFormat() }
}

/// Makes images from drawing blocks (UIKit's `UIGraphicsImageRenderer`).
public final class UIGraphicsImageRenderer {
    /// The scale and opacity of the images.
    public let format: UIGraphicsImageRendererFormat
    private let bounds: CGRect

    /// A renderer of `size`-point images.
    ///
    /// ```swift
    /// let image = UIGraphicsImageRenderer(size: CGSize(width: 64, height: 64)).image { context in
    ///     UIColor.red.setFill()
    ///     context.fill(CGRect(x: 0, y: 0, width: 32, height: 32))
    /// }
    /// ```
    public init(size: CGSize, format: UIGraphicsImageRendererFormat = .default()) {
        bounds = CGRect(origin: .zero, size: size)
        self.format = format
    }

    /// A renderer of images the size of `bounds` (its origin is not used: drawing starts at 0, 0).
    public convenience init(bounds: CGRect, format: UIGraphicsImageRendererFormat = .default()) {
        self.init(size: bounds.size, format: format)
    }

    /// Runs `actions` with a fresh context and returns what it drew.
    public func image(actions: (UIGraphicsImageRendererContext) -> Void) -> UIImage {
        UIGraphicsBeginImageContextWithOptions(bounds.size, format.opaque, format.scale)
        defer { UIGraphicsEndImageContext() }
        actions(UIGraphicsImageRendererContext(cgContext: UIGraphicsGetCurrentContext()!))
        return UIGraphicsGetImageFromCurrentImageContext()!
    }
}
