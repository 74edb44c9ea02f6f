// A frame as the video encoder takes it: BT.709 limited-range YUV 4:2:0, written by the tile
// workers next to the RGBA8 frame (strata_rgba_to_yuv420: the luma of each pixel and the
// chroma of each 2×2 block's mean colour, chroma sited at the block's centre, fixed point
// rounded to nearest), so an export needs no RGB → YUV pass of its own. Tiles copied from the
// previous frame copy its YUV as well. Measured against libswscale's bicubic, accurate-rounding
// conversion (what the encoder used before): see YUVTests.
import Foundation
import StrataCore
import CStrataKernels

/// Y, U and V planes of a frame with even width and height.
public struct YUVFrame: Sendable, Equatable {
    /// The luma plane's size in pixels (the chroma planes are half as wide and high).
    public let width: Int, height: Int
    /// `width × height` luma samples, row by row.
    public var y: [UInt8]
    /// `width/2 × height/2` Cb samples.
    public var u: [UInt8]
    /// `width/2 × height/2` Cr samples.
    public var v: [UInt8]

    /// Planes of unspecified contents (every sample is written before the frame is used).
    public init(width: Int, height: Int) {
        self.width = width; self.height = height
        let n = width * height, c = (width / 2) * (height / 2)
        y = .uninitialized(n)
        u = .uninitialized(c)
        v = .uninitialized(c)
    }

    /// The frame of an RGBA8 bitmap (even size), converted whole.
    public init(converting bitmap: Bitmap, simd: Bool = true) {
        self.init(width: bitmap.width, height: bitmap.height)
        let lanes = simd ? strata_best_lanes() : STRATA_LANES_SCALAR
        let w = width, h = height
        bitmap.pixels.withUnsafeBytes { raw in
            y.withUnsafeMutableBufferPointer { yp in
                u.withUnsafeMutableBufferPointer { up in
                    v.withUnsafeMutableBufferPointer { vp in
                        strata_rgba_to_yuv420(raw.bindMemory(to: UInt32.self).baseAddress!, w, Int32(w), Int32(h),
                                              yp.baseAddress!, w, up.baseAddress!, vp.baseAddress!, w / 2, lanes)
                    }
                }
            }
        }
    }

    /// Whether frames of this size can be written as 4:2:0.
    public static func supports(width: Int, height: Int) -> Bool { width > 0 && height > 0 && width % 2 == 0 && height % 2 == 0 }
}

/// Where the tile workers write YUV: the planes of the frame being drawn and of the previous one.
struct YUVTargets {
    let y: UnsafeMutablePointer<UInt8>, u: UnsafeMutablePointer<UInt8>, v: UnsafeMutablePointer<UInt8>
    let previous: (y: UnsafePointer<UInt8>, u: UnsafePointer<UInt8>, v: UnsafePointer<UInt8>)?
    let width: Int

    /// Converts the tile's stored RGBA8 pixels.
    func convert(_ r: PixelRect, from rgba: UnsafeMutablePointer<UInt8>, _ settings: DrawSettings) {
        let w = width, cw = w / 2
        let yOffset = r.y0 * w + r.x0, cOffset = (r.y0 / 2) * cw + r.x0 / 2
        let tileWidth = Int32(r.x1 - r.x0), tileHeight = Int32(r.y1 - r.y0)
        let lanes = settings.kernelLanes
        rgba.withMemoryRebound(to: UInt32.self, capacity: w * r.y1) { words in
            strata_rgba_to_yuv420(words + yOffset, w, tileWidth, tileHeight, y + yOffset, w, u + cOffset, v + cOffset, cw, lanes)
        }
    }

    /// Copies the tile's samples from the previous frame, or converts its (copied) RGBA8.
    func copy(_ r: PixelRect, rgba: UnsafeMutablePointer<UInt8>, _ settings: DrawSettings) {
        guard let p = previous else { convert(r, from: rgba, settings); return }
        let w = width, cw = w / 2, n = r.x1 - r.x0
        for row in r.y0..<r.y1 {
            (y + row * w + r.x0).update(from: p.y + row * w + r.x0, count: n)
        }
        for row in (r.y0 / 2)..<(r.y1 / 2) {
            (u + row * cw + r.x0 / 2).update(from: p.u + row * cw + r.x0 / 2, count: n / 2)
            (v + row * cw + r.x0 / 2).update(from: p.v + row * cw + r.x0 / 2, count: n / 2)
        }
    }
}
