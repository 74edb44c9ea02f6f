// Decoded pictures to Strata's pixels: libswscale converts any YUV or RGB layout to RGBA at the
// requested size (bicubic, accurate rounding, bit-exact so frames are identical on every
// machine), using the matrix and range the picture is tagged with. Untagged pictures get BT.709
// from 720 lines up and BT.601 below, as players do. Pictures with alpha are premultiplied; then
// the rotation metadata (and mirroring) is applied, so the image is upright. Not thread-safe:
// the decoder thread owns one converter.
import Foundation
import CFFmpeg

final class FrameConverter {
    private var context: OpaquePointer?
    private var configured: (colorspace: Int32, fullRange: Bool)?
    private var scratch: [UInt8] = []

    deinit { if let context { sws_freeContext(context) } }

    /// `frame` as premultiplied RGBA at `size` (display orientation), rotated by `rotation`
    /// degrees clockwise after an optional mirror.
    func convert(_ frame: UnsafePointer<AVFrame>, to size: PixelSize, rotation: Int, mirrored: Bool) throws -> Bitmap {
        let quarter = rotation % 180 != 0
        let scaledWidth = quarter ? size.height : size.width
        let scaledHeight = quarter ? size.width : size.height
        let sourceFormat = AVPixelFormat(rawValue: frame.pointee.format)
        let flags = SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT | SWS_BITEXACT
        let previous = context
        context = sws_getCachedContext(context, frame.pointee.width, frame.pointee.height, sourceFormat,
                                       Int32(scaledWidth), Int32(scaledHeight), AV_PIX_FMT_RGBA, Int32(flags), nil, nil, nil)
        guard let context else {
            throw MediaError.libraryFailure(path: "", operation: "creating a picture converter (sws_getCachedContext)",
                                            reason: "unsupported pixel format or size")
        }
        if context != previous { configured = nil }
        try configureColors(context, frame, sourceFormat)

        let count = scaledWidth * scaledHeight * 4
        if scratch.count != count { scratch = [UInt8](repeating: 0, count: count) }
        scratch.withUnsafeMutableBufferPointer { out in
            let d = frame.pointee.data, l = frame.pointee.linesize
            let planes: [UnsafePointer<UInt8>?] = [d.0, d.1, d.2, d.3].map { $0.map { UnsafePointer($0) } }
            let strides: [Int32] = [l.0, l.1, l.2, l.3]
            let destination: [UnsafeMutablePointer<UInt8>?] = [out.baseAddress, nil, nil, nil]
            let destinationStrides: [Int32] = [Int32(scaledWidth * 4), 0, 0, 0]
            sws_scale(context, planes, strides, 0, frame.pointee.height, destination, destinationStrides)
        }
        let hasAlpha = (av_pix_fmt_desc_get(sourceFormat)?.pointee.flags ?? 0) & UInt64(AV_PIX_FMT_FLAG_ALPHA) != 0
        if hasAlpha { Self.premultiply(&scratch) }
        if rotation == 0 && !mirrored {
            return Bitmap(width: scaledWidth, height: scaledHeight, pixels: scratch)
        }
        return Self.orient(scratch, width: scaledWidth, height: scaledHeight, rotation: rotation, mirrored: mirrored)
    }

    private func configureColors(_ context: OpaquePointer, _ frame: UnsafePointer<AVFrame>, _ format: AVPixelFormat) throws {
        var space = frame.pointee.colorspace
        if space == AVCOL_SPC_UNSPECIFIED || space == AVCOL_SPC_RGB {
            space = frame.pointee.height >= 720 ? AVCOL_SPC_BT709 : AVCOL_SPC_BT470BG
        }
        let jpegFormats: Set<AVPixelFormat> = [AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P, AV_PIX_FMT_YUVJ440P]
        let fullRange = frame.pointee.color_range == AVCOL_RANGE_JPEG || jpegFormats.contains(format)
        if let configured, configured.colorspace == Int32(space.rawValue), configured.fullRange == fullRange { return }
        // SWS_CS_* values are the AVColorSpace numbers for the matrices swscale knows.
        let coefficients = sws_getCoefficients(Int32(space.rawValue))
        let output = sws_getCoefficients(SWS_CS_DEFAULT)
        _ = sws_setColorspaceDetails(context, coefficients, fullRange ? 1 : 0, output, 1, 0, 1 << 16, 1 << 16)
        configured = (Int32(space.rawValue), fullRange)
    }

    /// Straight alpha to premultiplied, in place.
    static func premultiply(_ pixels: inout [UInt8]) {
        pixels.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i < p.count {
                let a = Int(p[i + 3])
                if a != 255 {
                    p[i] = UInt8((Int(p[i]) * a + 127) / 255)
                    p[i + 1] = UInt8((Int(p[i + 1]) * a + 127) / 255)
                    p[i + 2] = UInt8((Int(p[i + 2]) * a + 127) / 255)
                }
                i += 4
            }
        }
    }

    /// Mirrors (optionally) and rotates clockwise by 90° steps.
    static func orient(_ pixels: [UInt8], width: Int, height: Int, rotation: Int, mirrored: Bool) -> Bitmap {
        let quarter = rotation % 180 != 0
        let outWidth = quarter ? height : width, outHeight = quarter ? width : height
        var out = [UInt8](repeating: 0, count: pixels.count)
        pixels.withUnsafeBytes { src in
            out.withUnsafeMutableBytes { dst in
                let s = src.bindMemory(to: UInt32.self), d = dst.bindMemory(to: UInt32.self)
                for y in 0..<height {
                    for x0 in 0..<width {
                        let x = mirrored ? width - 1 - x0 : x0
                        let (ox, oy): (Int, Int)
                        switch rotation {
                        case 90: (ox, oy) = (height - 1 - y, x0)
                        case 180: (ox, oy) = (width - 1 - x0, height - 1 - y)
                        case 270: (ox, oy) = (y, width - 1 - x0)
                        default: (ox, oy) = (x0, y)
                        }
                        d[oy * outWidth + ox] = s[y * width + x]
                    }
                }
            }
        }
        return Bitmap(width: outWidth, height: outHeight, pixels: out)
    }
}
