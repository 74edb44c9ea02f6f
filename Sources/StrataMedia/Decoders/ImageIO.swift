// ImageIO's image sources for ported code that decodes images itself
// (`CGImageSourceCreateWithURL` … `CGImageSourceCreateImageAtIndex`). Decoding is Strata's image
// decoder (PNG, JPEG, WebP); one image per source (animated files give their first frame).
import Foundation
import Synchronization
import StrataCore

/// An image file or data to decode (ImageIO's `CGImageSource`).
public final class CGImageSource: Sendable {
    private let load: @Sendable () throws -> CGImage
    /// The image once decoded (the lock is held while decoding, so a source decodes once).
    private let decoded = Mutex<CGImage?>(nil)

    init(_ load: @escaping @Sendable () throws -> CGImage) { self.load = load }

    func image() -> CGImage? {
        decoded.withCheckedLock { decoded in
            if decoded == nil { decoded = try? load() }
            return decoded
        }
    }
}

/// Whether to decode now and keep the pixels (every Strata image is decoded when made).
nonisolated(unsafe) public let kCGImageSourceShouldCache: CFString = "kCGImageSourceShouldCache"
/// Whether to decode when the image is made (every Strata image is decoded when made).
nonisolated(unsafe) public let kCGImageSourceShouldCacheImmediately: CFString = "kCGImageSourceShouldCacheImmediately"
/// A hint of the data's type identifier (accepted; Strata detects the format from the bytes).
nonisolated(unsafe) public let kCGImageSourceTypeIdentifierHint: CFString = "kCGImageSourceTypeIdentifierHint"

/// A source reading the file at `url`; nil for a URL that is not a file.
public func CGImageSourceCreateWithURL(_ url: CFURL, _ options: CFDictionary?) -> CGImageSource? {
    guard let u = (url as URL?), u.isFileURL else { return nil }
    return CGImageSource { try CGImage.load(contentsOf: u) }
}

/// A source decoding `data`.
public func CGImageSourceCreateWithData(_ data: CFData, _ options: CFDictionary?) -> CGImageSource? {
    let bytes = data as Data
    return CGImageSource { try ImageDecoder().decode(bytes) }
}

/// The number of images in the source (1 when it decodes, else 0).
public func CGImageSourceGetCount(_ source: CGImageSource) -> Int { source.image() == nil ? 0 : 1 }

/// Image `index` of the source (only 0 exists), or nil when it cannot be decoded.
public func CGImageSourceCreateImageAtIndex(_ source: CGImageSource, _ index: Int, _ options: CFDictionary?) -> CGImage? {
    index == 0 ? source.image() : nil
}
