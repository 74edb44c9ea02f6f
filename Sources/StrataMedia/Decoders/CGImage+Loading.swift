// Loading image files as CGImages: the plain entry points over ImageCache/ImageDecoder. They
// live in StrataMedia (CGImage is a Core type; decoding needs FFmpeg) and reach users through
// `import Strata`.
import Foundation
import StrataCore

extension CGImage {
    /// The PNG, JPEG or WebP image in the file at `url`, as premultiplied RGBA8 sRGB. Each file
    /// is decoded once and shared (`ImageCache.shared`, keyed by path and modification date),
    /// so a hundred layers showing one logo hold one image. In a scene's code (its `at` blocks)
    /// the scene's `MediaContext` decodes it, under the scene's image size limit.
    ///
    /// ```swift
    /// layer.contents = try CGImage.load(contentsOf: URL(fileURLWithPath: "logo.png"))
    /// ```
    /// Throws `MediaError.cannotRead` naming the file when it is missing, not an image, or corrupt.
    public static func load(contentsOf url: URL) throws -> CGImage {
        if let scene = MediaContext.current { return try scene.image(contentsOf: url) }
        return try ImageCache.shared.image(contentsOf: url)
    }

    /// The image in the file at `path` (see `load(contentsOf:)`).
    public static func load(contentsOfFile path: String) throws -> CGImage {
        try load(contentsOf: URL(fileURLWithPath: path))
    }

    /// An image decoded from PNG, JPEG or WebP bytes (not cached).
    public static func decode(_ data: Data) throws -> CGImage {
        try ImageDecoder().decode(data)
    }
}
