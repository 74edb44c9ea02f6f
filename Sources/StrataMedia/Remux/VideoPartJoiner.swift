// MP4/MOV/WebM chunks joined by copying their packets with libavformat (no decoding, no
// encoding). First every part is opened and compared with the first one: the same video and audio
// streams, codecs, sizes, pixel formats, frame rates, sample rates and stream headers (the codec
// extradata: SPS/PPS for H.264, which a single output track can hold only once). Then the packets
// of each part are copied in order, moved in time so that each part starts where the last ended.
// Strata's chunks carry their own times (frame 300 at 300 / fps), and a part whose own start lies
// within half a frame of that point keeps its times as they are (WebM rounds to milliseconds).
// Each part must begin with a keyframe. Audio priming of later parts (AAC's first 1024 samples,
// marked as discarded by the demuxer) is dropped: the decoder then starts those parts cold, so a
// track joined from separately encoded chunks can differ audibly for ~20 ms at each joint.
import Foundation
import CFFmpeg

/// The facts about one stream that must agree between parts.
struct JoinedStreamFacts: Equatable {
    var isVideo: Bool
    var codec: String
    var width: Int32 = 0
    var height: Int32 = 0
    var pixelFormat: String = ""
    var frameRate = AVRational(num: 0, den: 1)
    var sampleRate: Int32 = 0
    var channels: Int32 = 0
    var extradata: [UInt8] = []

    static func == (a: JoinedStreamFacts, b: JoinedStreamFacts) -> Bool {
        a.isVideo == b.isVideo && a.codec == b.codec && a.width == b.width && a.height == b.height
            && a.pixelFormat == b.pixelFormat && av_cmp_q(a.frameRate, b.frameRate) == 0
            && a.sampleRate == b.sampleRate && a.channels == b.channels && a.extradata == b.extradata
    }

    var kind: String { isVideo ? "video" : "audio" }
}

/// An input file opened with libavformat, closed when released.
final class JoinInput {
    let context: UnsafeMutablePointer<AVFormatContext>
    let label: String
    /// Indices of the video and audio streams, in file order.
    let streamIndices: [Int]

    init(_ url: URL, label: String) throws {
        let opened = FFmpegSupport.openInput(url.path, limits: MediaLimits.inForce)
        guard let context = opened.context else {
            throw MediaError.cannotJoin(path: label, reason: "it cannot be read as MP4, MOV or WebM (\(opened.reason))")
        }
        var status: Int32
        self.context = context
        self.label = label
        status = avformat_find_stream_info(context, nil)
        var indices: [Int] = []
        for i in 0..<Int(context.pointee.nb_streams) {
            let type = context.pointee.streams[i]!.pointee.codecpar.pointee.codec_type
            if type == AVMEDIA_TYPE_VIDEO || type == AVMEDIA_TYPE_AUDIO { indices.append(i) }
        }
        streamIndices = indices
        if status < 0 {
            throw MediaError.cannotJoin(path: label, reason: "it holds no readable stream information (\(FFmpegSupport.errorString(status)))")
        }
        let name = String(cString: context.pointee.iformat.pointee.name)
        guard name.contains("mp4") || name.contains("mov") || name.contains("webm") || name.contains("matroska") else {
            throw MediaError.cannotJoin(path: label, reason: "it is a '\(name)' file, not MP4, MOV or WebM")
        }
    }

    deinit {
        var c: UnsafeMutablePointer<AVFormatContext>? = context
        avformat_close_input(&c)
    }

    var isISOMedia: Bool { String(cString: context.pointee.iformat.pointee.name).contains("mp4") }

    func stream(_ index: Int) -> UnsafeMutablePointer<AVStream> { context.pointee.streams[index]! }

    /// The facts of each video and audio stream.
    func facts() -> [JoinedStreamFacts] {
        streamIndices.map { index in
            let st = stream(index)
            let par = st.pointee.codecpar!
            var f = JoinedStreamFacts(isVideo: par.pointee.codec_type == AVMEDIA_TYPE_VIDEO,
                                      codec: FFmpegSupport.string(avcodec_get_name(par.pointee.codec_id)) ?? "unknown")
            if f.isVideo {
                f.width = par.pointee.width
                f.height = par.pointee.height
                f.pixelFormat = FFmpegSupport.string(av_get_pix_fmt_name(AVPixelFormat(rawValue: par.pointee.format))) ?? "unknown"
                let r = st.pointee.r_frame_rate
                f.frameRate = r.num > 0 && r.den > 0 ? r : st.pointee.avg_frame_rate
            } else {
                f.sampleRate = par.pointee.sample_rate
                f.channels = par.pointee.ch_layout.nb_channels
            }
            if let data = par.pointee.extradata, par.pointee.extradata_size > 0 {
                f.extradata = Array(UnsafeBufferPointer(start: data, count: Int(par.pointee.extradata_size)))
            }
            return f
        }
    }
}

/// Copies the packets of MP4/MOV/WebM parts into one file (see the file header).
struct VideoPartJoiner {
    let parts: [URL]
    let output: URL
    let format: ContainerFormat
    /// The name the joined file will have, for messages.
    let finalPath: String

    func join() throws -> MediaConcatenator.Result {
        // Every part agrees with the first before anything is written.
        var reference: [JoinedStreamFacts] = []
        for (i, part) in parts.enumerated() {
            let input = try JoinInput(part, label: label(i))
            let facts = input.facts()
            let videos = facts.filter(\.isVideo).count
            guard videos == 1 else {
                throw MediaError.cannotJoin(path: label(i), reason: videos == 0 ? "it has no video stream"
                    : "it has \(videos) video streams; strata concat joins files with one")
            }
            if i == 0 { reference = facts } else { try compare(facts, with: reference, part: i) }
        }

        var contextPointer: UnsafeMutablePointer<AVFormatContext>?
        var status = avformat_alloc_output_context2(&contextPointer, nil, format.muxerName, FFmpegSupport.fileURL(output.path))
        guard status >= 0, let out = contextPointer else {
            throw MediaError.cannotJoin(path: finalPath, reason: "creating the \(format.displayName) muxer failed (\(FFmpegSupport.errorString(status)))")
        }
        defer {
            if out.pointee.pb != nil { avio_closep(&out.pointee.pb) }
            avformat_free_context(out)
        }
        out.pointee.flags |= AVFMT_FLAG_BITEXACT

        // Output streams from the first part's.
        let first = try JoinInput(parts[0], label: label(0))
        var videoIn = 0
        for (k, index) in first.streamIndices.enumerated() {
            let st = first.stream(index)
            let par = st.pointee.codecpar!
            if par.pointee.codec_type == AVMEDIA_TYPE_VIDEO { videoIn = k }
            if avformat_query_codec(out.pointee.oformat, par.pointee.codec_id, FF_COMPLIANCE_NORMAL) != 1 {
                throw MediaError.cannotJoin(path: finalPath, reason: "\(format.displayName) files cannot hold \(reference[k].codec) \(reference[k].kind) (join into another container)")
            }
            guard let os = avformat_new_stream(out, nil) else {
                throw MediaError.cannotJoin(path: finalPath, reason: "adding an output stream failed (out of memory)")
            }
            status = avcodec_parameters_copy(os.pointee.codecpar, par)
            if status < 0 { throw MediaError.cannotJoin(path: finalPath, reason: "copying stream parameters failed (\(FFmpegSupport.errorString(status)))") }
            // The first part's measured video bit rate is not the joined file's: the muxer measures it.
            if par.pointee.codec_type == AVMEDIA_TYPE_VIDEO { os.pointee.codecpar.pointee.bit_rate = 0 }
            // The tag (hvc1 for HEVC) carries over between MP4 and MOV; other containers pick their own.
            if !(first.isISOMedia && (format == .mp4 || format == .mov)) { os.pointee.codecpar.pointee.codec_tag = 0 }
            os.pointee.time_base = st.pointee.time_base
            os.pointee.avg_frame_rate = st.pointee.avg_frame_rate
            os.pointee.r_frame_rate = st.pointee.r_frame_rate
            os.pointee.sample_aspect_ratio = st.pointee.sample_aspect_ratio
        }
        let videoTimeBase = first.stream(first.streamIndices[videoIn]).pointee.time_base

        status = avio_open(&out.pointee.pb, FFmpegSupport.fileURL(output.path), AVIO_FLAG_WRITE)
        if status < 0 { throw MediaError.cannotJoin(path: finalPath, reason: "it cannot be created (\(FFmpegSupport.errorString(status)))") }
        var muxerOptions: OpaquePointer?
        defer { av_dict_free(&muxerOptions) }
        if format == .mp4 || format == .mov {
            av_dict_set(&muxerOptions, "movflags", "+faststart", 0)
            if videoTimeBase.num == 1, videoTimeBase.den >= 1_000 {
                av_dict_set(&muxerOptions, "video_track_timescale", "\(videoTimeBase.den)", 0)
                av_dict_set(&muxerOptions, "movie_timescale", "\(videoTimeBase.den)", 0)
            }
        }
        status = avformat_write_header(out, &muxerOptions)
        if status < 0 { throw MediaError.cannotJoin(path: finalPath, reason: "writing the header failed (\(FFmpegSupport.errorString(status)))") }

        // Copy, part after part, on the first part's video clock.
        let rate = reference[videoIn].frameRate
        let frameTicks = rate.num > 0 ? av_rescale_q(1, AVRational(num: rate.den, den: rate.num), videoTimeBase) : 1
        var nextStart: Int64 = 0
        var offset: Int64 = 0
        var lastDTS = [Int64](repeating: Int64.min, count: reference.count)
        var frames = 0
        guard let packet = av_packet_alloc() else { throw MediaError.cannotJoin(path: finalPath, reason: "out of memory") }
        var packetPointer: UnsafeMutablePointer<AVPacket>? = packet
        defer { av_packet_free(&packetPointer) }
        for i in parts.indices {
            let input = i == 0 ? first : try JoinInput(parts[i], label: label(i))
            let videoStream = input.stream(input.streamIndices[videoIn])
            var start = videoStream.pointee.start_time
            if start == Int64.min { start = 0 }
            start = av_rescale_q(start, videoStream.pointee.time_base, videoTimeBase)
            // Keep a part's own times when it starts where the last one ended (within half a frame).
            if i == 0 || abs(start + offset - nextStart) > frameTicks / 2 { offset = nextStart - start }
            var sawVideo = false
            // Video frames of this part, and where its video ends (in videoTimeBase).
            var partFrames: Int64 = 0
            var partEnd = start
            var outIndexOf: [Int: Int] = [:]
            for (k, index) in input.streamIndices.enumerated() { outIndexOf[index] = k }
            while true {
                status = av_read_frame(input.context, packet)
                if status == strata_averror_eof() { break }
                if status < 0 {
                    throw MediaError.cannotJoin(path: label(i), reason: "reading its packets failed (\(FFmpegSupport.errorString(status)))")
                }
                defer { av_packet_unref(packet) }
                guard let k = outIndexOf[Int(packet.pointee.stream_index)] else { continue }
                let inStream = input.stream(Int(packet.pointee.stream_index))
                let inBase = inStream.pointee.time_base
                let isVideo = k == videoIn
                // A packet the demuxer could not read whole: the file ends in its middle.
                if (packet.pointee.flags & AV_PKT_FLAG_CORRUPT) != 0 {
                    throw MediaError.cannotJoin(path: label(i), reason: "it is cut short: its \(reference[k].kind) packet at "
                        + "\(Self.seconds(packet.pointee.pts, inBase)) is incomplete (the file was truncated or damaged; render the part again)")
                }
                if isVideo, !sawVideo {
                    guard (packet.pointee.flags & AV_PKT_FLAG_KEY) != 0 else {
                        throw MediaError.cannotJoin(path: label(i), reason: "its video does not start with a keyframe (render chunks with `strata render --frames`, which starts each with one)")
                    }
                    sawVideo = true
                }
                let shift = av_rescale_q(offset, videoTimeBase, inBase)
                if i > 0, !isVideo {
                    // Priming of a later part's audio: before its start, or marked to be discarded.
                    let partStart = av_rescale_q(start, videoTimeBase, inBase)
                    let end = packet.pointee.pts == Int64.min ? Int64.min : packet.pointee.pts + max(packet.pointee.duration, 0)
                    if (packet.pointee.flags & AV_PKT_FLAG_DISCARD) != 0 || (end != Int64.min && end <= partStart) { continue }
                }
                if packet.pointee.pts != Int64.min { packet.pointee.pts += shift }
                if packet.pointee.dts != Int64.min { packet.pointee.dts += shift }
                if isVideo, packet.pointee.pts != Int64.min {
                    let duration = packet.pointee.duration > 0 ? av_rescale_q(packet.pointee.duration, inBase, videoTimeBase) : frameTicks
                    let end = av_rescale_q(packet.pointee.pts, inBase, videoTimeBase) + duration
                    nextStart = max(nextStart, end)
                    partEnd = max(partEnd, end - offset)
                    frames += 1
                    partFrames += 1
                }
                let outStream = out.pointee.streams[k]!
                av_packet_rescale_ts(packet, inBase, outStream.pointee.time_base)
                packet.pointee.stream_index = Int32(k)
                packet.pointee.pos = -1
                if packet.pointee.dts != Int64.min {
                    let strict = format != .webm
                    if lastDTS[k] != Int64.min, strict ? packet.pointee.dts <= lastDTS[k] : packet.pointee.dts < lastDTS[k] {
                        throw MediaError.cannotJoin(path: label(i), reason: "its \(reference[k].kind) timestamps run back into the previous part's (parts must follow one another)")
                    }
                    lastDTS[k] = packet.pointee.dts
                }
                status = av_interleaved_write_frame(out, packet)
                if status < 0 {
                    throw MediaError.cannotJoin(path: label(i), reason: "writing its packets failed (\(FFmpegSupport.errorString(status)))")
                }
            }
            if !sawVideo { throw MediaError.cannotJoin(path: label(i), reason: "its video stream holds no frames") }
            try checkComplete(input, part: i, frames: partFrames, end: partEnd, timeBase: videoTimeBase,
                              frameTicks: frameTicks, videoStream: videoStream)
        }
        status = av_write_trailer(out)
        if status < 0 { throw MediaError.cannotJoin(path: finalPath, reason: "writing the trailer failed (\(FFmpegSupport.errorString(status)))") }
        status = avio_closep(&out.pointee.pb)
        if status < 0 { throw MediaError.cannotJoin(path: finalPath, reason: "closing the file failed (\(FFmpegSupport.errorString(status)))") }
        return MediaConcatenator.Result(format: format, frames: frames,
                                        duration: Double(nextStart) * av_q2d(videoTimeBase))
    }

    private func label(_ i: Int) -> String { MediaConcatenator.label(parts[i], i, parts.count) }

    /// Throws unless part `i` held all the video its headers declare: the frame count of an MP4 or
    /// MOV's sample table, or the duration of a WebM's segment (to within two frames: the audio of
    /// a part may run a little past its video). A chunk's times are the whole video's, and so is
    /// the end its segment declares. A truncated part otherwise joins "successfully",
    /// its missing frames and broken last packet unnoticed.
    private func checkComplete(_ input: JoinInput, part i: Int, frames: Int64, end: Int64, timeBase: AVRational,
                               frameTicks: Int64, videoStream: UnsafeMutablePointer<AVStream>) throws {
        let declared = videoStream.pointee.nb_frames
        if declared > 0 {
            guard frames == declared else {
                throw MediaError.cannotJoin(path: label(i), reason: "it holds \(frames) of the \(declared) video frames its header declares "
                    + "(the file was truncated or damaged; render the part again)")
            }
            return
        }
        let whole = input.context.pointee.duration
        guard whole != Int64.min, whole > 0 else { return }
        let declaredEnd = av_rescale_q(whole, AVRational(num: 1, den: 1_000_000), timeBase)
        if end + 2 * max(frameTicks, 1) < declaredEnd {
            throw MediaError.cannotJoin(path: label(i), reason: "its video ends at \(Self.seconds(end, timeBase)) but the file declares "
                + "\(Self.seconds(declaredEnd, timeBase)) (the file was truncated or damaged; render the part again)")
        }
    }

    /// "1.234 s" of `ticks` in `base`.
    private static func seconds(_ ticks: Int64, _ base: AVRational) -> String {
        ticks == Int64.min ? "an unknown time" : String(format: "%.3f s", Double(ticks) * av_q2d(base))
    }

    /// Throws the first difference between a part's streams and the first part's.
    private func compare(_ facts: [JoinedStreamFacts], with reference: [JoinedStreamFacts], part i: Int) throws {
        func fail(_ reason: String) -> MediaError { .cannotJoin(path: label(i), reason: reason) }
        func describe(_ f: [JoinedStreamFacts]) -> String { f.map { "\($0.codec) \($0.kind)" }.joined(separator: " + ") }
        guard facts.count == reference.count, zip(facts, reference).allSatisfy({ $0.isVideo == $1.isVideo }) else {
            throw fail("it holds \(describe(facts)), but part 1 holds \(describe(reference))")
        }
        for (f, r) in zip(facts, reference) where f != r {
            if f.codec != r.codec { throw fail("its \(f.kind) codec is \(f.codec), but part 1's is \(r.codec)") }
            if f.isVideo {
                if f.width != r.width || f.height != r.height {
                    throw fail("its video is \(f.width)×\(f.height), but part 1's is \(r.width)×\(r.height)")
                }
                if f.pixelFormat != r.pixelFormat { throw fail("its pixel format is \(f.pixelFormat), but part 1's is \(r.pixelFormat)") }
                if av_cmp_q(f.frameRate, r.frameRate) != 0 {
                    throw fail("its frame rate is \(Self.fps(f.frameRate)) fps, but part 1's is \(Self.fps(r.frameRate)) fps")
                }
            } else {
                if f.sampleRate != r.sampleRate { throw fail("its audio is \(f.sampleRate) Hz, but part 1's is \(r.sampleRate) Hz") }
                if f.channels != r.channels { throw fail("its audio has \(f.channels) channels, but part 1's has \(r.channels)") }
            }
            throw fail("its \(f.codec) stream headers (encoder settings) differ from part 1's; render every part with the same options")
        }
    }

    private static func fps(_ r: AVRational) -> String {
        r.den == 1 ? "\(r.num)" : String(format: "%.3f (%d/%d)", av_q2d(r), r.num, r.den)
    }
}
