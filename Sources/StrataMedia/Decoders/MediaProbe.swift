// What a media file holds, read with libavformat: the container, and for each stream its codec,
// size, sample aspect ratio, rotation, pixel format, colour tags, frame rate, duration, bit rate
// (audio: sample rate and channel layout), plus the number of frames found by
// reading every packet (exact for video, unlike header estimates). Used by `strata probe` and by
// tests that check what the encoders wrote.
import Foundation
import StrataCore
import CFFmpeg

/// A description of a media file's container and streams.
public struct MediaProbe: Sendable, CustomStringConvertible {
    /// One stream of the file.
    public struct Stream: Sendable, CustomStringConvertible {
        /// The stream's index in the file.
        public let index: Int
        /// The media type: "video", "audio", "subtitle", "data" or "attachment".
        public let kind: String
        /// The codec's short name, e.g. "h264", "vp9", "gif".
        public let codecName: String
        /// Width in pixels (video only).
        public let width: Int?
        /// Height in pixels (video only).
        public let height: Int?
        /// The pixel format, e.g. "yuv420p" (video only).
        public let pixelFormat: String?
        /// The average frame rate, when the file states one.
        public let frameRate: FrameRate?
        /// Duration in seconds, when known.
        public let duration: Double?
        /// Packets read for this stream: the frame count for video.
        public let frameCount: Int
        /// Colour primaries, e.g. "bt709", when tagged.
        public let colorPrimaries: String?
        /// Transfer characteristic, e.g. "bt709", when tagged.
        public let colorTransfer: String?
        /// YUV matrix, e.g. "bt709", when tagged.
        public let colorSpace: String?
        /// "tv" (limited) or "pc" (full), when tagged.
        public let colorRange: String?
        /// Samples per second (audio only).
        public var sampleRate: Int? = nil
        /// Channel count (audio only).
        public var channels: Int? = nil
        /// Channel layout, e.g. "stereo" (audio only).
        public var channelLayout: String? = nil
        /// Clockwise rotation a player applies (display matrix), in degrees (video only).
        public var rotation: Int? = nil
        /// Sample aspect ratio when not square, e.g. "2:1" (video only).
        public var sampleAspectRatio: String? = nil
        /// Bits per second, when known.
        public var bitRate: Int? = nil
        /// Times an animated WebP plays (0: forever), when the file says.
        public var loopCount: Int? = nil

        /// A one-line summary of the stream.
        public var description: String {
            var parts = ["#\(index) \(kind) \(codecName)"]
            if let width, let height { parts.append("\(width)×\(height)") }
            if let sampleAspectRatio { parts.append("SAR \(sampleAspectRatio)") }
            if let rotation, rotation != 0 { parts.append("rotated \(rotation)°") }
            if let sampleRate { parts.append("\(sampleRate) Hz") }
            if let channelLayout { parts.append(channelLayout) } else if let channels { parts.append("\(channels) ch") }
            if let pixelFormat { parts.append(pixelFormat) }
            if let colorSpace { parts.append("\(colorSpace)/\(colorPrimaries ?? "?")/\(colorTransfer ?? "?") \(colorRange ?? "")") }
            if let frameRate { parts.append("\(frameRate) fps") }
            if let duration { parts.append(String(format: "%.3f s", duration)) }
            if let bitRate { parts.append("\(bitRate / 1000) kb/s") }
            if let loopCount { parts.append(loopCount == 0 ? "loops forever" : "plays \(loopCount)×") }
            parts.append("\(frameCount) \(kind == "video" ? "frames" : "packets")")
            return parts.joined(separator: ", ")
        }
    }

    /// The probed file.
    public let url: URL
    /// libavformat's name for the container, e.g. "mov,mp4,m4a,3gp,3g2,mj2".
    public let formatName: String
    /// The container's duration in seconds, when known.
    public let duration: Double?
    /// The streams, in file order.
    public let streams: [Stream]

    /// The first video stream, if any.
    public var videoStream: Stream? { streams.first { $0.kind == "video" } }

    /// Opens `url` and reads it through once. Throws `MediaError.cannotRead` naming the file when
    /// it is missing, not media, or its pictures are larger than `limits.videoSize` a side (nil:
    /// the running scene's limits, or the defaults).
    public init(url: URL, limits: MediaLimits? = nil) throws {
        _ = FFmpegSupport.quietLogging
        let limits = limits ?? MediaLimits.inForce
        let path = url.path
        self.url = url
        // A pipe or device would block the reads below or never end: refused before anything opens it.
        if let refusal = InputFile.refusal(at: path) { throw MediaError.cannotRead(path: path, reason: refusal) }
        // FFmpeg (5.x) reads no animated WebP: its chunks are read here instead.
        if let head = FileHandle(forReadingAtPath: path).map({ h in defer { try? h.close() }; return h.readData(ofLength: 32) }),
           head.count >= 30, head.prefix(4) == Data("RIFF".utf8), head[8..<12] == Data("WEBP".utf8),
           head[12..<16] == Data("VP8X".utf8), (head[20] & 0x02) != 0 {
            let data = try Data(contentsOf: url)
            guard let animation = AnimatedWebP(data) else {
                throw MediaError.cannotRead(path: path, reason: "the animated WebP's chunks are damaged")
            }
            formatName = "webp"
            duration = animation.duration
            streams = [animation.stream]
            return
        }
        let context = try FFmpegSupport.openForDecoding(path, limits: limits)
        defer { var c: UnsafeMutablePointer<AVFormatContext>? = context; avformat_close_input(&c) }
        // A still image's declared size, read from its header as the image decoder reads it: a
        // small file declaring a 100 000² picture is refused, not reported as 0×0.
        if let head = FileHandle(forReadingAtPath: path).map({ h in defer { try? h.close() }; return h.readData(ofLength: 1 << 20) }),
           let format = ImageDecoder.format(ofFileStartingWith: head),
           let (w, h) = ImageDecoder.declaredSize(head, format: format),
           w > limits.videoSize || h > limits.videoSize || w <= 0 || h <= 0 {
            throw MediaError.cannotRead(path: path, reason: w <= 0 || h <= 0
                ? "the \(format.rawValue) image declares a size of \(w)×\(h) pixels"
                : "the \(format.rawValue) image is \(w)×\(h) pixels; at most \(limits.videoSize) per side is allowed")
        }
        let count = Int(context.pointee.nb_streams)
        guard count > 0 else {
            throw MediaError.cannotRead(path: path, reason: "it holds no video, audio or image streams (an empty or damaged file)")
        }
        var packets = [Int](repeating: 0, count: count)
        guard let packet = av_packet_alloc() else {
            throw MediaError.libraryFailure(path: path, operation: "allocating a packet", reason: "out of memory")
        }
        defer { var p: UnsafeMutablePointer<AVPacket>? = packet; av_packet_free(&p) }
        var status: Int32
        while true {
            status = av_read_frame(context, packet)
            if status < 0 { break }
            let index = Int(packet.pointee.stream_index)
            if index >= 0, index < count { packets[index] += 1 }
            av_packet_unref(packet)
        }
        if status != strata_averror_eof() {
            throw MediaError.cannotRead(path: path, reason: "reading packets failed: \(FFmpegSupport.errorString(status))")
        }

        formatName = FFmpegSupport.string(context.pointee.iformat.pointee.name) ?? "unknown"
        let containerDuration = context.pointee.duration
        duration = containerDuration > 0 && containerDuration != Int64.min
            ? Double(containerDuration) / Double(AV_TIME_BASE) : nil

        var streams: [Stream] = []
        for i in 0..<count {
            guard let stream = context.pointee.streams[i] else { continue }
            let parameters = stream.pointee.codecpar.pointee
            let isVideo = parameters.codec_type == AVMEDIA_TYPE_VIDEO
            let timeBase = stream.pointee.time_base
            var streamDuration: Double?
            if stream.pointee.duration != Int64.min, stream.pointee.duration > 0, timeBase.den != 0 {
                streamDuration = Double(stream.pointee.duration) * Double(timeBase.num) / Double(timeBase.den)
            }
            let rate = stream.pointee.avg_frame_rate.num > 0 ? stream.pointee.avg_frame_rate : stream.pointee.r_frame_rate
            var pixelFormat = isVideo && parameters.format >= 0
                ? FFmpegSupport.string(av_get_pix_fmt_name(AVPixelFormat(rawValue: parameters.format))) : nil
            // FFmpeg's own VP9 decoder ignores the alpha WebM keeps beside each picture
            // (BlockAdditional); the track's AlphaMode tag says it is there.
            if isVideo, pixelFormat == "yuv420p", let mode = av_dict_get(stream.pointee.metadata, "alpha_mode", nil, 0),
               FFmpegSupport.string(mode.pointee.value) == "1" {
                pixelFormat = "yuva420p"
            }
            func tag(_ name: UnsafePointer<CChar>?, unspecified: Bool) -> String? {
                unspecified ? nil : FFmpegSupport.string(name)
            }
            var entry = Stream(
                index: i,
                kind: FFmpegSupport.string(av_get_media_type_string(parameters.codec_type)) ?? "unknown",
                codecName: FFmpegSupport.string(avcodec_get_name(parameters.codec_id)) ?? "unknown",
                width: isVideo ? Int(parameters.width) : nil,
                height: isVideo ? Int(parameters.height) : nil,
                pixelFormat: pixelFormat,
                frameRate: rate.num > 0 && rate.den > 0 ? FrameRate(numerator: Int(rate.num), denominator: Int(rate.den)) : nil,
                duration: streamDuration ?? duration,
                frameCount: packets[i],
                colorPrimaries: tag(av_color_primaries_name(parameters.color_primaries),
                                    unspecified: parameters.color_primaries == AVCOL_PRI_UNSPECIFIED),
                colorTransfer: tag(av_color_transfer_name(parameters.color_trc),
                                   unspecified: parameters.color_trc == AVCOL_TRC_UNSPECIFIED),
                colorSpace: tag(av_color_space_name(parameters.color_space),
                                unspecified: parameters.color_space == AVCOL_SPC_UNSPECIFIED),
                colorRange: tag(av_color_range_name(parameters.color_range),
                                unspecified: parameters.color_range == AVCOL_RANGE_UNSPECIFIED))
            if parameters.bit_rate > 0 { entry.bitRate = Int(parameters.bit_rate) }
            if parameters.codec_type == AVMEDIA_TYPE_AUDIO {
                entry.sampleRate = Int(parameters.sample_rate)
                entry.channels = Int(parameters.ch_layout.nb_channels)
                var layout = parameters.ch_layout
                var name = [CChar](repeating: 0, count: 64)
                if av_channel_layout_describe(&layout, &name, name.count) > 0 {
                    entry.channelLayout = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                }
            }
            if isVideo, parameters.width <= 0 || parameters.height <= 0 {
                throw MediaError.cannotRead(path: path, reason: "the size of its video stream #\(i) could not be read "
                    + "(\(parameters.width)×\(parameters.height)): the file is damaged, or its pictures are larger than FFmpeg reads")
            }
            if isVideo {
                if let matrix = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, nil) {
                    let angle = matrix.withMemoryRebound(to: Int32.self, capacity: 9) { -av_display_rotation_get($0) }
                    if angle.isFinite { entry.rotation = ((Int((angle / 90).rounded()) % 4 + 4) % 4) * 90 }
                }
                let sar = parameters.sample_aspect_ratio
                if sar.num > 0, sar.den > 0, sar.num != sar.den { entry.sampleAspectRatio = "\(sar.num):\(sar.den)" }
            }
            streams.append(entry)
        }
        self.streams = streams
    }

    /// A multi-line summary: the file, container, duration and one line per stream.
    public var description: String {
        var lines = ["\(url.path): \(formatName)" + (duration.map { String(format: ", %.3f s", $0) } ?? "")]
        lines += streams.map { "  " + $0.description }
        return lines.joined(separator: "\n")
    }
}

/// The canvas, frames and timing of an animated WebP, read from its RIFF chunks (VP8X, ANIM,
/// ANMF), which FFmpeg 5 does not demux.
struct AnimatedWebP {
    var width = 0, height = 0
    var hasAlpha = false
    var loopCount = 0
    /// Each frame's duration in milliseconds.
    var durations: [Int] = []
    /// Whether the frames are lossless (VP8L) rather than lossy (VP8).
    var lossless = false

    init?(_ data: Data) {
        let bytes = [UInt8](data)
        func u24(_ i: Int) -> Int { Int(bytes[i]) | Int(bytes[i + 1]) << 8 | Int(bytes[i + 2]) << 16 }
        func u32(_ i: Int) -> Int { u24(i) | Int(bytes[i + 3]) << 24 }
        guard bytes.count >= 30 else { return nil }
        var offset = 12
        var sawHeader = false
        while offset + 8 <= bytes.count {
            let tag = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            let size = u32(offset + 4)
            let body = offset + 8
            guard size >= 0, body + size <= bytes.count else { return nil }
            switch tag {
            case "VP8X" where size >= 10:
                hasAlpha = bytes[body] & 0x10 != 0
                width = u24(body + 4) + 1
                height = u24(body + 7) + 1
                sawHeader = true
            case "ANIM" where size >= 6:
                loopCount = Int(bytes[body + 4]) | Int(bytes[body + 5]) << 8
            case "ANMF" where size >= 16:
                durations.append(u24(body + 12))
                if durations.count == 1, body + 24 <= bytes.count {
                    // The frame's first sub-chunk after an optional ALPH: VP8 or VP8L.
                    var sub = body + 16
                    while sub + 8 <= body + size {
                        let subTag = String(decoding: bytes[sub..<sub + 4], as: UTF8.self)
                        if subTag == "VP8L" { lossless = true; break }
                        if subTag == "VP8 " { break }
                        sub += 8 + u32(sub + 4) + (u32(sub + 4) & 1)
                    }
                }
            default: break
            }
            offset = body + size + (size & 1)
        }
        guard sawHeader, width > 0, height > 0, !durations.isEmpty else { return nil }
    }

    /// Seconds, the frames' durations summed.
    var duration: Double { Double(durations.reduce(0, +)) / 1000 }

    /// The file as one video stream.
    var stream: MediaProbe.Stream {
        // One duration for every frame: the rate is 1000 / that many milliseconds.
        let first = durations[0]
        let rate = first > 0 && durations.allSatisfy({ $0 == first }) ? FrameRate(numerator: 1000, denominator: first)
            : duration > 0 ? FrameRate((Double(durations.count) / duration * 100).rounded() / 100) : nil
        var s = MediaProbe.Stream(index: 0, kind: "video", codecName: "webp", width: width, height: height,
                                  pixelFormat: lossless ? (hasAlpha ? "argb" : "rgb24") : (hasAlpha ? "yuva420p" : "yuv420p"),
                                  frameRate: rate, duration: duration, frameCount: durations.count,
                                  colorPrimaries: nil, colorTransfer: nil, colorSpace: nil, colorRange: nil)
        s.loopCount = loopCount
        return s
    }
}
