// An immutable image, as Core Graphics has it: here always RGBA8 premultiplied sRGB pixels.
// Decoding files into CGImages is the job of StrataMedia / StrataRender (they own the codecs).
import Foundation

/// An immutable bitmap image usable as a layer's `contents`.
public final class CGImage: Hashable, @unchecked Sendable {
    /// The pixels (immutable after creation).
    public let bitmap: Bitmap
    /// A process-unique identity used as a cache key by the renderer.
    public let identifier: UInt64

    public var width: Int { bitmap.width }
    public var height: Int { bitmap.height }

    public init(bitmap: Bitmap) {
        self.bitmap = bitmap
        self.identifier = CGImage.nextIdentifier()
    }

    public static func == (l: CGImage, r: CGImage) -> Bool { l === r }
    public func hash(into h: inout Hasher) { h.combine(identifier) }

    private static let counter = LockedCounter()
    private static func nextIdentifier() -> UInt64 { counter.next() }
}

/// A small lock-protected counter.
final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value: UInt64 = 0
    func next() -> UInt64 { lock.lock(); defer { lock.unlock() }; value += 1; return value }
}
