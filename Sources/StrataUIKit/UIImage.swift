// A small UIImage for ported code: an image plus its scale (points = pixels / scale), loaded
// from a file (with the `@2x`/`@3x` suffix giving the scale, as UIKit does) or bytes, and drawn
// into the current UIGraphics context.
import Foundation
import Synchronization
import StrataCore
import StrataMedia

// @unchecked: immutable (`let` image and scale), but an open NSObject subclass cannot be checked.
/// An image with a scale factor (UIKit's `UIImage`, the parts that make sense offline).
///
/// ```swift
/// layer.contents = UIImage(contentsOfFile: "logo@2x.png")?.cgImage
/// ```
open class UIImage: NSObject, @unchecked Sendable {
    /// The pixels.
    public let cgImage: CGImage?
    /// Pixels per point.
    public let scale: CGFloat

    /// An image of `cgImage` at `scale` pixels per point.
    public init(cgImage: CGImage, scale: CGFloat = 1) {
        self.cgImage = cgImage
        self.scale = scale > 0 && scale.isFinite ? scale : 1
        super.init()
    }

    /// UIKit's `init(cgImage:scale:orientation:)` (Strata images are always upright).
    public convenience init(cgImage: CGImage, scale: CGFloat, orientation: Orientation) {
        self.init(cgImage: cgImage, scale: scale)
    }

    /// How an image is turned (accepted; Strata images are upright).
    public enum Orientation: Int, Sendable {
        /// UIKit's meanings: `up` as stored, `down` turned 180°, `left` and `right` turned 90°
        /// (counter-clockwise and clockwise), and the same mirrored (**Strata:** all show upright).
        case up, down, left, right, upMirrored, downMirrored, leftMirrored, rightMirrored
    }

    /// **Strata:** no archives: an empty image.
    public required init?(coder: NSCoder) {
        cgImage = nil
        scale = 1
        super.init()
    }

    /// The image named `name` in the asset folders (`UIImage.assetSearchPaths`): the name as
    /// given, or with `@3x`/`@2x`/no suffix and a `.png`, `.jpg`, `.jpeg` or `.webp` extension;
    /// nil when none is found, as in UIKit.
    public convenience init?(named name: String) {
        guard let path = UIImage.path(forAssetNamed: name) else { return nil }
        self.init(contentsOfFile: path)
    }

    /// Folders `UIImage(named:)` searches, in order. **Strata:** UIKit searches the app bundle;
    /// here the default is the current folder, its `Assets` and `Resources` folders and the
    /// main bundle's resource folder. Set it before building a scene (behind a lock).
    public static var assetSearchPaths: [String] {
        get { searchPaths.withCheckedLock { $0 } }
        set { searchPaths.withCheckedLock { $0 = newValue } }
    }
    private static let searchPaths = Mutex<[String]>({
        let cwd = FileManager.default.currentDirectoryPath
        var paths = [cwd, cwd + "/Assets", cwd + "/Resources"]
        if let r = Bundle.main.resourcePath { paths.append(r) }
        return paths
    }())

    static func path(forAssetNamed name: String) -> String? {
        let fm = FileManager.default
        let hasExtension = !(name as NSString).pathExtension.isEmpty
        for folder in assetSearchPaths {
            let base = (folder as NSString).appendingPathComponent(name)
            if hasExtension, fm.fileExists(atPath: base) { return base }
            for suffix in ["@3x", "@2x", ""] {
                for ext in ["png", "jpg", "jpeg", "webp"] {
                    let candidate = base + suffix + "." + ext
                    if fm.fileExists(atPath: candidate) { return candidate }
                }
            }
        }
        return nil
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
