// A small UIImage for ported code: an image plus its scale (points = pixels / scale), loaded
// from a file (with the `@2x`/`@3x` suffix giving the scale, as UIKit does) or bytes, and drawn
// into the current UIGraphics context.
import Foundation
import StrataCore

/// An image with a scale factor (UIKit's `UIImage`, the parts that make sense offline).
///
/// ```swift
/// layer.contents = UIImage(contentsOfFile: "logo@2x.png")?.cgImage
/// ```
public final class UIImage: @unchecked Sendable {
    /// The pixels.
    public let cgImage: CGImage?
    /// Pixels per point.
    public let scale: CGFloat

    /// An image of `cgImage` at `scale` pixels per point.
    public init(cgImage: CGImage, scale: CGFloat = 1) {
        self.cgImage = cgImage
        self.scale = scale > 0 && scale.isFinite ? scale : 1
    }

    /// The image in a PNG, JPEG or WebP file (decoded once through `ImageCache.shared`); nil
    /// when it cannot be read, as in UIKit. A name ending in `@2x` or `@3x` sets the scale.
    public convenience init?(contentsOfFile path: String) {
        guard let image = try? CGImage.load(contentsOfFile: path) else { return nil }
        let stem = (path as NSString).deletingPathExtension
        let scale: CGFloat = stem.hasSuffix("@3x") ? 3 : stem.hasSuffix("@2x") ? 2 : 1
        self.init(cgImage: image, scale: scale)
    }

    /// The image in PNG, JPEG or WebP bytes; nil when they are not one.
    public convenience init?(data: Data, scale: CGFloat = 1) {
        guard let image = try? ImageDecoder().decode(data) else { return nil }
        self.init(cgImage: image, scale: scale)
    }

    /// The size in points.
    public var size: CGSize {
        guard let cgImage else { return .zero }
        return CGSize(width: CGFloat(cgImage.width) / scale, height: CGFloat(cgImage.height) / scale)
    }

    /// Draws the image into `rect` of the current context (`UIGraphicsGetCurrentContext()`).
    public func draw(in rect: CGRect) {
        guard let cgImage else { return }
        UIGraphicsGetCurrentContext()?.draw(cgImage, in: rect)
    }

    /// Draws the image at its point size with its top-left at `point`.
    public func draw(at point: CGPoint) {
        draw(in: CGRect(origin: point, size: size))
    }
}
