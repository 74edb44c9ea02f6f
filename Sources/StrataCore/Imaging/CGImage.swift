// An immutable image, as Core Graphics has it: here always RGBA8 premultiplied sRGB pixels.
// Decoding files into CGImages is the job of StrataMedia / StrataRender (they own the codecs).
import Foundation
import Synchronization

/// An immutable bitmap image usable as a layer's `contents`.
public final class CGImage: Hashable, Sendable {
    /// The pixels (immutable after creation).
    public let bitmap: Bitmap
    /// A process-unique identity used as a cache key by the renderer.
    public let identifier: UInt64

    /// Width in pixels.
    public var width: Int { bitmap.width }
    /// Height in pixels.
    public var height: Int { bitmap.height }

    /// An image of `bitmap`'s pixels, with a new `identifier`.
    public init(bitmap: Bitmap) {
        self.bitmap = bitmap
        self.identifier = CGImage.nextIdentifier()
    }

    /// The mipmap levels built so far (held while a level is built, so each is built once).
    private let mips = Mutex<[CGImage]>([])

    /// Mipmap level `n` (0 = this image; each level halves both sides with a 2×2 box filter,
    /// down to 1×1), built on first use and kept. Used by `.trilinear` minification.
    public func mipLevel(_ n: Int) -> CGImage {
        guard n > 0 else { return self }
        return mips.withCheckedLock { mips in
        while mips.count < n {
            let src = (mips.last ?? self).bitmap
            guard src.width > 1 || src.height > 1 else { break }
            let w = max(1, src.width / 2), h = max(1, src.height / 2)
            var out = Bitmap(width: w, height: h)
            for y in 0..<h { for x in 0..<w {
                let x0 = min(2 * x, src.width - 1), x1 = min(2 * x + 1, src.width - 1)
                let y0 = min(2 * y, src.height - 1), y1 = min(2 * y + 1, src.height - 1)
                for c in 0..<4 {
                    let sum = Int(src.pixels[(y0 * src.width + x0) * 4 + c]) + Int(src.pixels[(y0 * src.width + x1) * 4 + c])
                        + Int(src.pixels[(y1 * src.width + x0) * 4 + c]) + Int(src.pixels[(y1 * src.width + x1) * 4 + c])
                    out.pixels[(y * w + x) * 4 + c] = UInt8((sum + 2) / 4)
                }
            } }
            mips.append(CGImage(bitmap: out))
        }
        return n - 1 < mips.count ? mips[n - 1] : (mips.last ?? self)
        }
    }

    /// The number of mipmap levels below this image.
    public var mipLevelCount: Int {
        var n = 0, w = width, h = height
        while w > 1 || h > 1 { w = max(1, w / 2); h = max(1, h / 2); n += 1 }
        return n
    }

    public static func == (l: CGImage, r: CGImage) -> Bool { l === r }
    public func hash(into h: inout Hasher) { h.combine(identifier) }

    private static let counter = LockedCounter()
    private static func nextIdentifier() -> UInt64 { counter.next() }
}

/// A small lock-protected counter.
final class LockedCounter: Sendable {
    private let value = Mutex<UInt64>(0)
    func next() -> UInt64 { value.withCheckedLock { $0 += 1; return $0 } }
}
