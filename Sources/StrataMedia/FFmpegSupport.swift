// Small glue between Swift and FFmpeg's C API shared by the encoders, decoders and the probe: error
// codes to text, feeding a decoder packets, the `file:` URL form that stops FFmpeg reading a colon
// in a path as a protocol, and a one-time lowering of FFmpeg's log level so that encoders do not
// chatter on stderr.
import Foundation
import CFFmpeg
import StrataCore

enum FFmpegSupport {
    /// FFmpeg's text for a negative error code ("No such file or directory", "Invalid argument").
    static func errorString(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        let text: String = buffer.withUnsafeMutableBufferPointer { buf in
            if av_strerror(code, buf.baseAddress, buf.count) < 0 { return "error \(code)" }
            return String(cString: buf.baseAddress!)
        }
        return text
    }

    /// Feeds a decoder: reads packets until one of stream `streamIndex` is sent to `codec`
    /// (corrupt data is skipped: the decoder carries on with the next packet), or, at the end of
    /// the file, sends the flush. Returns true when it sent the flush.
    static func sendNextPacket(from format: UnsafeMutablePointer<AVFormatContext>, stream streamIndex: Int32,
                               to codec: UnsafeMutablePointer<AVCodecContext>, using packet: UnsafeMutablePointer<AVPacket>) -> Bool {
        while true {
            if av_read_frame(format, packet) < 0 {
                avcodec_send_packet(codec, nil)
                return true
            }
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == streamIndex else { continue }
            _ = avcodec_send_packet(codec, packet)
            return false
        }
    }

    /// Frees a decoder's frame, packet, codec context and input file (each may be nil already),
    /// leaving all four nil.
    static func closeDecoder(format: inout UnsafeMutablePointer<AVFormatContext>?, codec: inout UnsafeMutablePointer<AVCodecContext>?,
                             packet: inout UnsafeMutablePointer<AVPacket>?, frame: inout UnsafeMutablePointer<AVFrame>?) {
        av_frame_free(&frame)
        av_packet_free(&packet)
        avcodec_free_context(&codec)
        if format != nil { avformat_close_input(&format) }
    }

    /// The URL FFmpeg should open for a local file path.
    static func fileURL(_ path: String) -> String { "file:" + path }

    /// Demuxers that read other files or URLs named inside the file (HLS and DASH playlists,
    /// concat lists, IMF packages). A file from outside that is one of these could make Strata
    /// read media beyond the folders it was allowed (`../../other.mp4`), so they are refused.
    static let refusedDemuxers: Set<String> = ["hls", "dash", "concat", "imf"]

    /// Every other demuxer this FFmpeg has, as libavformat's `format_whitelist` option.
    private static let demuxerWhitelist: String = {
        var names: [String] = []
        var opaque: UnsafeMutableRawPointer?
        while let demuxer = av_demuxer_iterate(&opaque) {
            for name in String(cString: demuxer.pointee.name).split(separator: ",") where !refusedDemuxers.contains(String(name)) {
                names.append(String(name))
            }
        }
        return names.joined(separator: ",")
    }()

    /// Opens a local media file with `avformat_open_input`, refusing the demuxers that would read
    /// other files and every protocol but `file`. Returns the context or FFmpeg's status; on
    /// failure `reason` says what went wrong (naming a refused playlist as such).
    static func openInput(_ path: String, limits: MediaLimits) -> (context: UnsafeMutablePointer<AVFormatContext>?, status: Int32, reason: String) {
        // A pipe or device would block `open` or never end: refused before FFmpeg sees it.
        if let refusal = InputFile.refusal(at: path) { return (nil, strata_averror_invaliddata(), refusal) }
        var options: OpaquePointer?
        av_dict_set(&options, "format_whitelist", demuxerWhitelist, 0)
        av_dict_set(&options, "protocol_whitelist", "file", 0)
        defer { av_dict_free(&options) }
        var context: UnsafeMutablePointer<AVFormatContext>?
        let status = avformat_open_input(&context, fileURL(path), nil, &options)
        if status >= 0, let opened = context {
            // What the container declares, before any frame is decoded (finding the stream
            // information decodes some).
            guard let tooLarge = oversizedVideo(opened, limits: limits) else { return (opened, status, "") }
            avformat_close_input(&context)
            return (nil, strata_averror_invaliddata(), tooLarge)
        }
        return (nil, status, refusedKind(path).map { "it is \($0), which names other files to read; Strata opens self-contained media files only" }
                    ?? errorString(status))
    }

    /// Opens a local media file for decoding (`openInput`) and reads its stream information,
    /// checking the video's size again with what that learned. On failure the file is closed and
    /// the error names `path`.
    static func openForDecoding(_ path: String, limits: MediaLimits) throws -> UnsafeMutablePointer<AVFormatContext> {
        let opened = openInput(path, limits: limits)
        guard let context = opened.context else { throw MediaError.cannotRead(path: path, reason: opened.reason) }
        let status = avformat_find_stream_info(context, nil)
        let problem = status < 0 ? "no stream information (\(errorString(status)))" : oversizedVideo(context, limits: limits)
        if let problem {
            var closing: UnsafeMutablePointer<AVFormatContext>? = context
            avformat_close_input(&closing)
            throw MediaError.cannotRead(path: path, reason: problem)
        }
        return context
    }

    /// Why `context`'s video is too large to decode (over `limits.videoSize`), or nil.
    /// Call it again after `avformat_find_stream_info`, which may learn the size from a frame.
    /// Cover art (an attached picture) is not checked: Strata never decodes it.
    static func oversizedVideo(_ context: UnsafeMutablePointer<AVFormatContext>, limits: MediaLimits) -> String? {
        let limit = limits.videoSize
        for i in 0..<Int(context.pointee.nb_streams) {
            guard let stream = context.pointee.streams[i], (stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC) == 0,
                  let p = stream.pointee.codecpar?.pointee, p.codec_type == AVMEDIA_TYPE_VIDEO,
                  p.width > limit || p.height > limit else { continue }
            return "the video is \(p.width)×\(p.height) pixels; at most \(limit) per side is allowed"
        }
        return nil
    }

    /// What a refused file is, from its first bytes, or nil.
    private static func refusedKind(_ path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        let head = String(decoding: (try? handle.read(upToCount: 512)) ?? Data(), as: UTF8.self)
        if head.hasPrefix("#EXTM3U") { return "an HLS playlist" }
        if head.hasPrefix("ffconcat") { return "an FFmpeg concat list" }
        if head.contains("<MPD") { return "a DASH manifest" }
        return nil
    }

    /// Silences FFmpeg's own log (once per process): every failure reaches the caller as an
    /// error naming the file and the reason, and FFmpeg's lines would name temporary files and
    /// repeat it. `STRATA_FFMPEG_LOG=error|warning|info|verbose|debug` turns it back on.
    static let quietLogging: Void = {
        guard av_log_get_level() == AV_LOG_INFO else { return }
        let levels = ["quiet": AV_LOG_QUIET, "error": AV_LOG_ERROR, "warning": AV_LOG_WARNING, "info": AV_LOG_INFO,
                      "verbose": AV_LOG_VERBOSE, "debug": AV_LOG_DEBUG]
        let wanted = ProcessInfo.processInfo.environment["STRATA_FFMPEG_LOG"].flatMap { levels[$0.lowercased()] }
        av_log_set_level(wanted ?? AV_LOG_QUIET)
    }()

    /// A C string as a Swift string, or nil.
    static func string(_ pointer: UnsafePointer<CChar>?) -> String? {
        pointer.map { String(cString: $0) }
    }
}
