// Still images (PNG, JPEG, WebP) to `CGImage`s: the format is recognised by its signature, the
// whole file goes to FFmpeg's decoder for it as one packet (no demuxer, so a '%' in a file name
// is never read as an image-sequence pattern), and libswscale converts the picture to RGBA8
// (BT.601 for JPEG/WebP YUV, full range for JPEG, bit-exact), which is then premultiplied.
// Pixels are taken as sRGB: embedded ICC profiles and gamma chunks are ignored, and so is EXIF
// orientation (a CGImage holds the stored pixels on Apple platforms too; UIImage applies it).
// Hands a CGImage to the layer model; ImageCache keeps one per file.
import Foundation
import CFFmpeg
import StrataCore

/// Decodes PNG, JPEG and WebP files into premultiplied RGBA8 sRGB `CGImage`s.
///
/// ```swift
/// let image = try ImageDecoder().decode(contentsOf: URL(fileURLWithPath: "logo.png"))
/// ```
/// Use `CGImage.load(contentsOf:)` to decode through the shared cache instead.
public struct ImageDecoder: Sendable {
    /// The still-image formats understood.
    public enum Format: String, Sendable, CaseIterable {
        /// PNG, JPEG and WebP; the raw value is the format's name in messages.
        case png = "PNG", jpeg = "JPEG", webp = "WebP"

        var codecID: AVCodecID {
            switch self {
            case .png: return AV_CODEC_ID_PNG
            case .jpeg: return AV_CODEC_ID_MJPEG
            case .webp: return AV_CODEC_ID_WEBP
            }
        }
    }

    /// The largest accepted width or height in pixels (a resource limit: a 16 384² image takes
    /// 1 GiB as RGBA8).
    public var maximumPixelSize: Int

    /// A decoder accepting images up to `maximumPixelSize` pixels per side.
    public init(maximumPixelSize: Int = 16_384) {
        self.maximumPixelSize = maximumPixelSize
    }

    /// The width and height a file's header declares (PNG's IHDR, JPEG's start of frame, WebP's
    /// VP8/VP8L/VP8X chunk), or nil where the header is too short or not understood.
    static func declaredSize(_ data: Data, format: Format) -> (Int, Int)? {
        let b = [UInt8](data.prefix(format == .jpeg ? 1 << 20 : 64))
        func be16(_ i: Int) -> Int { Int(b[i]) << 8 | Int(b[i + 1]) }
        func le16(_ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 }
        func le24(_ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 | Int(b[i + 2]) << 16 }
        switch format {
        case .png:
            guard b.count >= 24, Array(b[12..<16]) == Array("IHDR".utf8) else { return nil }
            return (be16(16) << 16 | be16(18), be16(20) << 16 | be16(22))
        case .webp:
            guard b.count >= 30 else { return nil }
            switch String(decoding: b[12..<16], as: UTF8.self) {
            case "VP8X": return (le24(24) + 1, le24(27) + 1)
            case "VP8L": let v = Int(b[21]) | Int(b[22]) << 8 | Int(b[23]) << 16 | Int(b[24]) << 24
                return ((v & 0x3FFF) + 1, ((v >> 14) & 0x3FFF) + 1)
            case "VP8 ": return (le16(26) & 0x3FFF, le16(28) & 0x3FFF)
            default: return nil
            }
        case .jpeg:
            // Markers after SOI; a start of frame (C0–CF but C4, C8, CC) holds height, width.
            var i = 2
            while i + 9 < b.count {
                guard b[i] == 0xFF else { return nil }
                let marker = b[i + 1]
                if marker == 0xFF { i += 1; continue }
                if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                    return (be16(i + 7), be16(i + 5))
                }
                if marker == 0xD8 || (0xD0...0xD7).contains(marker) { i += 2; continue }
                i += 2 + be16(i + 2)
            }
            return nil
        }
    }

    /// The format whose signature `bytes` starts with, or nil.
    public static func format(ofFileStartingWith bytes: some Collection<UInt8>) -> Format? {
        let b = Array(bytes.prefix(12))
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if b.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if b.count >= 12, b.starts(with: Array("RIFF".utf8)), Array(b[8..<12]) == Array("WEBP".utf8) { return .webp }
        return nil
    }

    /// Decodes the image file at `url`. Throws `MediaError.cannotRead` naming the file when it is
    /// missing, not a PNG/JPEG/WebP image, corrupt, or larger than `maximumPixelSize`.
    public func decode(contentsOf url: URL) throws -> CGImage {
        let path = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw MediaError.cannotRead(path: path, reason: "no such file")
        }
        guard !isDirectory.boolValue else { throw MediaError.cannotRead(path: path, reason: "it is a directory, not an image") }
        if let refusal = InputFile.refusal(at: path) { throw MediaError.cannotRead(path: path, reason: refusal) }
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw MediaError.cannotRead(path: path, reason: error.localizedDescription)
        }
        return try decode(data, name: path)
    }

    /// Decodes an image held in memory; `name` identifies it in errors.
    public func decode(_ data: Data, name: String = "<image data>") throws -> CGImage {
        guard !data.isEmpty else { throw MediaError.cannotRead(path: name, reason: "the file is empty") }
        guard let format = Self.format(ofFileStartingWith: data) else {
            let head = data.prefix(8).map { String(format: "%02X", $0) }.joined(separator: " ")
            throw MediaError.cannotRead(path: name, reason: "not a PNG, JPEG or WebP image (it starts with \(head))")
        }
        // The size the file declares is checked before anything is decoded: a small file can
        // declare a huge image (a decompression bomb).
        if let (w, h) = Self.declaredSize(data, format: format), w > maximumPixelSize || h > maximumPixelSize {
            throw MediaError.cannotRead(path: name,
                                        reason: "the image is \(w)×\(h) pixels; at most \(maximumPixelSize) per side is allowed")
        }
        _ = FFmpegSupport.quietLogging
        guard let codec = avcodec_find_decoder(format.codecID) else {
            throw MediaError.cannotRead(path: name, reason: "this FFmpeg build has no \(format.rawValue) decoder")
        }
        guard let context = avcodec_alloc_context3(codec) else {
            throw MediaError.libraryFailure(path: name, operation: "allocating a \(format.rawValue) decoder", reason: "out of memory")
        }
        defer { var c: UnsafeMutablePointer<AVCodecContext>? = context; avcodec_free_context(&c) }
        context.pointee.thread_count = 1
        // The decoder's own bound, for sizes the header peek does not see.
        context.pointee.max_pixels = Int64(maximumPixelSize) * Int64(maximumPixelSize)
        var status = avcodec_open2(context, codec, nil)
        guard status >= 0 else {
            throw MediaError.libraryFailure(path: name, operation: "opening the \(format.rawValue) decoder",
                                            reason: FFmpegSupport.errorString(status))
        }
        // The whole file is one packet (FFmpeg's image demuxers do the same).
        guard let packet = av_packet_alloc() else {
            throw MediaError.libraryFailure(path: name, operation: "allocating a packet", reason: "out of memory")
        }
        defer { var p: UnsafeMutablePointer<AVPacket>? = packet; av_packet_free(&p) }
        guard data.count < Int(Int32.max) - 64, av_new_packet(packet, Int32(data.count)) >= 0 else {
            throw MediaError.cannotRead(path: name, reason: "the file is too large (\(data.count) bytes)")
        }
        data.withUnsafeBytes { raw in
            packet.pointee.data.update(from: raw.bindMemory(to: UInt8.self).baseAddress!, count: data.count)
        }
        guard let frame = av_frame_alloc() else {
            throw MediaError.libraryFailure(path: name, operation: "allocating a frame", reason: "out of memory")
        }
        defer { var f: UnsafeMutablePointer<AVFrame>? = frame; av_frame_free(&f) }
        status = avcodec_send_packet(context, packet)
        if status >= 0 { _ = avcodec_send_packet(context, nil) }
        if status >= 0 { status = avcodec_receive_frame(context, frame) }
        guard status >= 0 else {
            throw MediaError.cannotRead(path: name, reason: "corrupt \(format.rawValue) data (\(FFmpegSupport.errorString(status)))")
        }
        let w = Int(frame.pointee.width), h = Int(frame.pointee.height)
        guard w > 0, h > 0 else { throw MediaError.cannotRead(path: name, reason: "the \(format.rawValue) image has no pixels") }
        guard w <= maximumPixelSize, h <= maximumPixelSize else {
            throw MediaError.cannotRead(path: name,
                                        reason: "the image is \(w)×\(h) pixels; at most \(maximumPixelSize) per side is allowed")
        }
        let pixels = try Self.rgba(frame, format: format, name: name)
        return CGImage(bitmap: Bitmap(width: w, height: h, pixels: pixels))
    }

    /// The decoded picture as premultiplied RGBA8.
    private static func rgba(_ frame: UnsafeMutablePointer<AVFrame>, format: Format, name: String) throws -> [UInt8] {
        let w = Int(frame.pointee.width), h = Int(frame.pointee.height)
        let source = AVPixelFormat(rawValue: frame.pointee.format)
        let flags = SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT | SWS_BITEXACT
        guard let sws = sws_getContext(Int32(w), Int32(h), source, Int32(w), Int32(h), AV_PIX_FMT_RGBA,
                                       Int32(flags), nil, nil, nil) else {
            let fmt = av_get_pix_fmt_name(source).map { String(cString: $0) } ?? "\(source.rawValue)"
            throw MediaError.cannotRead(path: name, reason: "unsupported \(format.rawValue) pixel format \(fmt)")
        }
        defer { sws_freeContext(sws) }
        guard let desc = av_pix_fmt_desc_get(source) else {
            throw MediaError.cannotRead(path: name, reason: "unknown pixel format \(source.rawValue)")
        }
        let isRGB = desc.pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB) != 0 || desc.pointee.nb_components <= 2
            || source == AV_PIX_FMT_PAL8
        if !isRGB {
            // JPEG (JFIF) and WebP use BT.601; JPEG is full range, WebP (VP8) limited.
            let jpegFormats: Set<AVPixelFormat> = [AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P,
                                                   AV_PIX_FMT_YUVJ440P, AV_PIX_FMT_YUVJ411P]
            let full = frame.pointee.color_range == AVCOL_RANGE_JPEG || jpegFormats.contains(source)
                || (format == .jpeg && frame.pointee.color_range == AVCOL_RANGE_UNSPECIFIED)
            let table = sws_getCoefficients(SWS_CS_ITU601)
            _ = sws_setColorspaceDetails(sws, table, full ? 1 : 0, table, 1, 0, 1 << 16, 1 << 16)
        }
        var out = [UInt8](repeating: 0, count: w * h * 4)
        out.withUnsafeMutableBufferPointer { buf in
            let d = frame.pointee.data, l = frame.pointee.linesize
            let planes: [UnsafePointer<UInt8>?] = [d.0, d.1, d.2, d.3].map { $0.map { UnsafePointer($0) } }
            let strides: [Int32] = [l.0, l.1, l.2, l.3]
            let destination: [UnsafeMutablePointer<UInt8>?] = [buf.baseAddress, nil, nil, nil]
            let destinationStrides: [Int32] = [Int32(w * 4), 0, 0, 0]
            sws_scale(sws, planes, strides, 0, Int32(h), destination, destinationStrides)
        }
        let hasAlpha = desc.pointee.flags & UInt64(AV_PIX_FMT_FLAG_ALPHA) != 0 || source == AV_PIX_FMT_PAL8
        if hasAlpha { FrameConverter.premultiply(&out) }
        return out
    }
}
