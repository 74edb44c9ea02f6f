// The video decoder stage, single-threaded: libavformat demuxes, libavcodec decodes, and every
// decoded picture is matched to its index in the file's frame table. Opening a file reads its
// video packets once (no decoding) to build that table — the presentation time of every frame,
// sorted, and which frames are keyframes — so that "the frame whose presentation interval
// contains t" is a binary search, the item's duration is exact, and a truncated file shows as
// fewer frames rather than a hang. Reaching frame k decodes forward when no keyframe lies between
// the current position and k, and seeks to the keyframe at or before k otherwise; a seek that
// lands past k (demuxers that index by decode time) retries from an earlier keyframe, and one
// that fails reopens the file. `FFmpegVideoSource` runs this on its own thread.
import Foundation
import CFFmpeg

/// What `VideoDecoder` learns about a file when it opens it.
struct VideoFileInfo: Sendable {
    /// Presentation time of every video frame in item seconds, ascending.
    var frameTimes: [Double]
    /// Presentation indices of the keyframes, ascending.
    var keyframes: [Int]
    /// End of the last frame (item seconds); 0 without video.
    var videoEnd: Double
    /// The item's length: the longest stream.
    var duration: Double
    /// Coded size of the pictures.
    var codedWidth: Int
    var codedHeight: Int
    /// The sample aspect ratio (1 when unknown).
    var sampleAspectRatio: Double
    /// Clockwise rotation to apply for display: 0, 90, 180 or 270.
    var rotation: Int
    /// Mirror horizontally before rotating.
    var mirrored: Bool
    var hasVideo: Bool
    var hasAudio: Bool

    /// Display size: SAR and rotation applied.
    var naturalSize: PixelSize {
        guard hasVideo else { return PixelSize(width: 0, height: 0) }
        let w = max(1, Int((Double(codedWidth) * sampleAspectRatio).rounded()))
        return rotation % 180 == 0 ? PixelSize(width: w, height: codedHeight) : PixelSize(width: codedHeight, height: w)
    }
}

/// Demuxes and decodes one file's video stream. Not thread-safe: one thread owns it.
final class VideoDecoder {
    let url: URL
    private(set) var info: VideoFileInfo
    private let path: String
    private var format: UnsafeMutablePointer<AVFormatContext>?
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var streamIndex: Int32 = -1
    private var timeBase = AVRational(num: 1, den: 1)
    /// Item time 0 in stream time-base units.
    private var origin: Int64 = 0
    /// Presentation timestamps of the frames (stream units), parallel to `info.frameTimes`.
    private var framePTS: [Int64] = []
    /// For each keyframe (by position in `info.keyframes`), a timestamp to seek to.
    private var keyframeSeekTS: [Int64] = []
    private var drained = false
    private var sentFlush = false
    /// The index the next decoded frame is expected to have (nil after a seek until one arrives).
    private(set) var position: Int? = 0
    private var lastIndex = -1

    /// The largest frame accepted.
    private let limits: MediaLimits

    /// Opens `url` and reads its packets once, refusing frames over `limits`. Throws
    /// `MediaError.cannotRead` naming the file.
    init(url: URL, limits: MediaLimits) throws {
        _ = FFmpegSupport.quietLogging
        self.limits = limits
        self.url = url
        self.path = url.path
        info = VideoFileInfo(frameTimes: [], keyframes: [], videoEnd: 0, duration: 0, codedWidth: 0, codedHeight: 0,
                             sampleAspectRatio: 1, rotation: 0, mirrored: false, hasVideo: false, hasAudio: false)
        guard FileManager.default.fileExists(atPath: path) else {
            throw MediaError.cannotRead(path: path, reason: "No such file or directory")
        }
        do {
            try openInput()
            try scanPackets()
            if info.hasVideo {
                try openDecoder()
                try rewind()
            }
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    // MARK: - Opening

    private func openInput() throws {
        let context = try FFmpegSupport.openForDecoding(path, limits: limits)
        format = context
        streamIndex = av_find_best_stream(context, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        let audio = av_find_best_stream(context, AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0)
        info.hasAudio = audio >= 0
        // An attached picture (cover art) is not a video.
        if streamIndex >= 0, let s = context.pointee.streams[Int(streamIndex)],
           (s.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC) != 0 {
            streamIndex = -1
        }
        info.hasVideo = streamIndex >= 0
        guard info.hasVideo || info.hasAudio else {
            throw MediaError.cannotRead(path: path, reason: "the file has neither a video nor an audio stream")
        }
        let start = context.pointee.start_time
        var audioEnd = 0.0
        if audio >= 0, let s = context.pointee.streams[Int(audio)] {
            let tb = s.pointee.time_base
            if s.pointee.duration > 0, s.pointee.duration != Int64.min, tb.den > 0 {
                let first = s.pointee.start_time != Int64.min ? s.pointee.start_time : 0
                audioEnd = (Double(s.pointee.duration) + Double(first)) * Double(tb.num) / Double(tb.den)
                    - (start != Int64.min ? Double(start) / Double(AV_TIME_BASE) : 0)
            } else if context.pointee.duration > 0 {
                audioEnd = Double(context.pointee.duration) / Double(AV_TIME_BASE)
            }
        }
        info.duration = max(0, audioEnd)
        guard info.hasVideo, let stream = context.pointee.streams[Int(streamIndex)] else { return }
        timeBase = stream.pointee.time_base
        if start != Int64.min {
            origin = av_rescale_q(start, AVRational(num: 1, den: AV_TIME_BASE), timeBase)
        }
        let parameters = stream.pointee.codecpar.pointee
        info.codedWidth = Int(parameters.width)
        info.codedHeight = Int(parameters.height)
        let sar = av_guess_sample_aspect_ratio(context, stream, nil)
        if sar.num > 0, sar.den > 0 { info.sampleAspectRatio = Double(sar.num) / Double(sar.den) }
        if let matrix = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, nil) {
            matrix.withMemoryRebound(to: Int32.self, capacity: 9) { m in
                var copy = (0..<9).map { m[$0] }
                let determinant = Double(copy[0]) * Double(copy[4]) - Double(copy[1]) * Double(copy[3])
                if determinant < 0 {
                    info.mirrored = true
                    copy[0] = -copy[0]; copy[3] = -copy[3]; copy[6] = -copy[6]
                }
                let angle = copy.withUnsafeBufferPointer { -av_display_rotation_get($0.baseAddress!) }
                if angle.isFinite {
                    let quarter = Int((angle / 90).rounded())
                    info.rotation = ((quarter % 4) + 4) % 4 * 90
                }
            }
        }
    }

    /// Reads every packet of the video stream: frame times, keyframes, the video's end.
    private func scanPackets() throws {
        guard info.hasVideo, let format else { return }
        guard let packet = av_packet_alloc() else { throw failure("allocating a packet", nil) }
        self.packet = packet
        var entries: [(pts: Int64, dts: Int64, key: Bool, duration: Int64)] = []
        var status: Int32 = 0
        while true {
            status = av_read_frame(format, packet)
            if status < 0 { break }
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == streamIndex else { continue }
            if (packet.pointee.flags & AV_PKT_FLAG_DISCARD) != 0 { continue }
            let pts = packet.pointee.pts != Int64.min ? packet.pointee.pts : packet.pointee.dts
            guard pts != Int64.min else { continue }
            let dts = packet.pointee.dts != Int64.min ? packet.pointee.dts : pts
            entries.append((pts, dts, (packet.pointee.flags & AV_PKT_FLAG_KEY) != 0, packet.pointee.duration))
        }
        // A read error other than the end of the file: keep what was read (a truncated file
        // plays up to where it breaks), but a file without a single packet is not a video.
        guard !entries.isEmpty else {
            if status != strata_averror_eof() {
                throw MediaError.cannotRead(path: path, reason: "reading packets failed: \(FFmpegSupport.errorString(status))")
            }
            throw MediaError.cannotRead(path: path, reason: "the video stream has no frames")
        }
        var order = entries.indices.sorted { (entries[$0].pts, $0) < (entries[$1].pts, $1) }
        // Duplicate timestamps (broken muxers): keep the first.
        var seen = Set<Int64>()
        order = order.filter { seen.insert(entries[$0].pts).inserted }
        framePTS = order.map { entries[$0].pts }
        // (In Double: a corrupt file's timestamps may be anywhere in Int64, and their differences overflow.)
        let seconds = { (ts: Int64) -> Double in (Double(ts) - Double(self.origin)) * Double(self.timeBase.num) / Double(self.timeBase.den) }
        info.frameTimes = framePTS.map(seconds)
        var keyframes: [Int] = []
        var seekTS: [Int64] = []
        for (index, e) in order.enumerated() where entries[e].key {
            keyframes.append(index)
            seekTS.append(min(entries[e].pts, entries[e].dts))
        }
        if keyframes.first != 0 {
            keyframes.insert(0, at: 0)
            seekTS.insert(min(framePTS[0], entries.map(\.dts).min() ?? framePTS[0]), at: 0)
        }
        info.keyframes = keyframes
        keyframeSeekTS = seekTS
        // The last frame lasts its packet duration, or the typical frame interval.
        let last = order.last!
        var lastDuration = entries[last].duration
        if lastDuration <= 0 {
            if framePTS.count > 1 {
                let (span, overflow) = framePTS[framePTS.count - 1].subtractingReportingOverflow(framePTS[0])
                lastDuration = overflow ? 1 : span / Int64(framePTS.count - 1)
            } else if let stream = format.pointee.streams[Int(streamIndex)], stream.pointee.avg_frame_rate.num > 0 {
                lastDuration = av_rescale_q(1, av_inv_q(stream.pointee.avg_frame_rate), timeBase)
            } else {
                lastDuration = 1
            }
        }
        let end = framePTS.last!.addingReportingOverflow(max(1, lastDuration))
        info.videoEnd = seconds(end.overflow ? Int64.max : end.partialValue)
        info.duration = max(info.duration, info.videoEnd)
    }

    private func openDecoder() throws {
        guard let format, let stream = format.pointee.streams[Int(streamIndex)], let parameters = stream.pointee.codecpar else { return }
        var decoder = avcodec_find_decoder(parameters.pointee.codec_id)
        // VP9 with an alpha channel (WebM BlockAdditional) decodes with libvpx only.
        if parameters.pointee.codec_id == AV_CODEC_ID_VP9,
           let alpha = av_dict_get(stream.pointee.metadata, "alpha_mode", nil, 0),
           String(cString: alpha.pointee.value) == "1",
           let vpx = avcodec_find_decoder_by_name("libvpx-vp9") {
            decoder = vpx
        }
        guard let decoder else {
            throw MediaError.cannotRead(path: path, reason: "no decoder for \(FFmpegSupport.string(avcodec_get_name(parameters.pointee.codec_id)) ?? "this codec")")
        }
        guard let context = avcodec_alloc_context3(decoder) else { throw failure("allocating the decoder", nil) }
        codec = context
        var status = avcodec_parameters_to_context(context, parameters)
        if status < 0 { throw failure("copying codec parameters (avcodec_parameters_to_context)", status) }
        context.pointee.pkt_timebase = timeBase
        context.pointee.thread_count = 0
        // A stream that changes to much larger frames midway: the decoder refuses them (its
        // check counts the buffers' padded size, up to a few macroblocks a side, hence the slack).
        let side = Int64(limits.videoSize) + 256
        context.pointee.max_pixels = side * side
        status = avcodec_open2(context, decoder, nil)
        if status < 0 {
            throw MediaError.cannotRead(path: path, reason: "cannot open the decoder: \(FFmpegSupport.errorString(status))")
        }
        frame = av_frame_alloc()
        if frame == nil { throw failure("allocating a frame", nil) }
    }

    // MARK: - Frame lookup

    /// The index of the frame whose presentation interval contains `itemTime`, clamped to the
    /// first and last frame. A tolerance of 1 µs absorbs rounding of rate-scaled times.
    func frameIndex(atItemTime itemTime: Double) -> Int? {
        let times = info.frameTimes
        guard !times.isEmpty else { return nil }
        let t = itemTime + 1e-6
        var lo = 0, hi = times.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if times[mid] <= t { lo = mid + 1 } else { hi = mid }
        }
        return max(0, lo - 1)
    }

    /// The index of the frame with timestamp `pts` (the nearest when there is no exact match).
    private func index(ofPTS pts: Int64) -> Int {
        var lo = 0, hi = framePTS.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if framePTS[mid] < pts { lo = mid + 1 } else { hi = mid }
        }
        if lo < framePTS.count, framePTS[lo] == pts { return lo }
        if lo == 0 { return 0 }
        if lo == framePTS.count { return framePTS.count - 1 }
        return Double(pts) - Double(framePTS[lo - 1]) <= Double(framePTS[lo]) - Double(pts) ? lo - 1 : lo
    }

    /// The position in `info.keyframes` of the last keyframe at or before frame `index`.
    private func keyframeSlot(atOrBefore index: Int) -> Int {
        var lo = 0, hi = info.keyframes.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if info.keyframes[mid] <= index { lo = mid + 1 } else { hi = mid }
        }
        return max(0, lo - 1)
    }

    // MARK: - Decoding

    /// Whether reaching frame `index` needs a seek (backwards, or a keyframe lies ahead).
    func needsSeek(toReach index: Int) -> Bool {
        guard let position else { return true }
        if index < position { return true }
        return info.keyframes[keyframeSlot(atOrBefore: index)] > position
    }

    /// Positions the decoder so that the next frames lead to `index`.
    func seek(toward index: Int, attempt: Int = 0) throws {
        let slot = max(0, keyframeSlot(atOrBefore: index) - attempt)
        if slot == 0 {
            try rewind()
            return
        }
        guard let format, let codec else { return }
        let status = av_seek_frame(format, streamIndex, keyframeSeekTS[slot], AVSEEK_FLAG_BACKWARD)
        if status < 0 {
            try rewind()
            return
        }
        avcodec_flush_buffers(codec)
        drained = false
        sentFlush = false
        position = nil
        lastIndex = -1
    }

    /// Back to the first frame (reopening the file when the demuxer cannot seek).
    private func rewind() throws {
        guard let format, let codec else { return }
        var status = avformat_seek_file(format, streamIndex, Int64.min, framePTS.first ?? 0, framePTS.first ?? 0, 0)
        if status < 0 {
            status = av_seek_frame(format, streamIndex, keyframeSeekTS.first ?? 0, AVSEEK_FLAG_BACKWARD)
        }
        if status < 0 {
            // Reopen: some demuxers (GIF) cannot seek at all.
            var old: UnsafeMutablePointer<AVFormatContext>? = format
            avformat_close_input(&old)
            self.format = nil
            let opened = FFmpegSupport.openInput(path, limits: limits)
            guard let context = opened.context else {
                throw MediaError.cannotRead(path: path, reason: "reopening failed: \(opened.reason)")
            }
            self.format = context
            _ = avformat_find_stream_info(context, nil)
        }
        avcodec_flush_buffers(codec)
        drained = false
        sentFlush = false
        position = 0
        lastIndex = -1
    }

    /// The next decoded frame and its index, or nil at the end of the stream. The frame is
    /// owned by the decoder and valid until the next call.
    func nextFrame() throws -> (frame: UnsafeMutablePointer<AVFrame>, index: Int)? {
        guard let format, let codec, let packet, let frame else { return nil }
        while true {
            let received = avcodec_receive_frame(codec, frame)
            if received == 0 {
                let pts = frame.pointee.best_effort_timestamp != Int64.min ? frame.pointee.best_effort_timestamp : frame.pointee.pts
                var index = pts != Int64.min ? self.index(ofPTS: pts) : lastIndex + 1
                index = min(max(index, 0), framePTS.count - 1)
                lastIndex = index
                position = index + 1
                return (frame, index)
            }
            if received == strata_averror_eof() {
                drained = true
                return nil
            }
            // EAGAIN: the decoder wants input. Any other error is a broken picture: skip it
            // and feed on (after the final flush there is nothing left to feed).
            if sentFlush { drained = true; return nil }
            if FFmpegSupport.sendNextPacket(from: format, stream: streamIndex, to: codec, using: packet) { sentFlush = true }
        }
    }

    var isAtEnd: Bool { drained }

    // MARK: - Helpers

    private func close() {
        FFmpegSupport.closeDecoder(format: &format, codec: &codec, packet: &packet, frame: &frame)
    }

    private func failure(_ operation: String, _ status: Int32?) -> MediaError {
        .libraryFailure(path: path, operation: operation, reason: status.map { FFmpegSupport.errorString($0) } ?? "out of memory")
    }
}
