// The pixel currency of Strata: RGBA8, premultiplied alpha, sRGB, rows top to bottom with no
// padding. Frames leave the renderer as Bitmaps and enter the encoders as Bitmaps. It lives in
// Core (not Render, as DESIGN.md first placed it) because CGImage is a Core type and the encoders
// in StrataMedia must not depend on the renderer.
import Foundation

/// An RGBA8 premultiplied sRGB image in memory.
///
/// ```swift
/// var bitmap = Bitmap.filled(width: 4, height: 4, red: 255, green: 0, blue: 0)
/// bitmap.setPixel(x: 0, y: 0, (r: 0, g: 0, b: 0, a: 0))   // one transparent corner
/// layer.contents = CGImage(bitmap: bitmap)
/// ```
public struct Bitmap: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width × height × 4` bytes: R, G, B, A per pixel, colour premultiplied by alpha.
    public var pixels: [UInt8]

    /// A transparent bitmap.
    public init(width: Int, height: Int) {
        precondition(width >= 0 && height >= 0, "Bitmap size must not be negative")
        self.width = width
        self.height = height
        self.pixels = [UInt8](repeating: 0, count: width * height * 4)
    }

    /// Wraps existing premultiplied RGBA8 pixels.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height * 4, "pixel count does not match the size")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Bytes from one row to the next: `width × 4` (rows have no padding).
    public var bytesPerRow: Int { width * 4 }

    /// The premultiplied RGBA bytes at (x, y).
    public func pixel(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        let i = (y * width + x) * 4
        return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
    }

    /// Sets the premultiplied RGBA bytes at (x, y).
    public mutating func setPixel(x: Int, y: Int, _ p: (r: UInt8, g: UInt8, b: UInt8, a: UInt8)) {
        let i = (y * width + x) * 4
        pixels[i] = p.r; pixels[i + 1] = p.g; pixels[i + 2] = p.b; pixels[i + 3] = p.a
    }

    /// A bitmap filled with one straight-alpha colour (premultiplied on the way in).
    public static func filled(width: Int, height: Int, red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) -> Bitmap {
        var b = Bitmap(width: width, height: height)
        let pm = { (c: UInt8) -> UInt8 in UInt8((Int(c) * Int(alpha) + 127) / 255) }
        let px: [UInt8] = [pm(red), pm(green), pm(blue), alpha]
        for i in 0..<(width * height) { b.pixels.replaceSubrange((i * 4)..<(i * 4 + 4), with: px) }
        return b
    }
}
