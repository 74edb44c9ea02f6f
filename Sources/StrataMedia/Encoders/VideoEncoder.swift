// The video encoder stage: premultiplied RGBA frames in, an MP4/MOV/WebM file out, through
// libswscale (RGB → BT.709 limited-range YUV), libavcodec (libx264, libx265, libvpx-vp9,
// prores_ks) and libavformat. Frame k is stamped pts k in a time base of exactly 1/fps, so the file
// holds as many frames as were appended and its duration is exactly frameCount / fps; a chunk of a
// longer video (`firstFrameIndex`) is stamped with its frames' own numbers, so its timestamps start
// at its first frame's time and chunks join end to end without re-timing. Every keyframe interval
// is encoded by a fresh codec state, at frame numbers that are multiples of the interval (and at
// the file's first frame): each interval is a closed GOP that starts with a keyframe and depends on
// no frame outside it, so a chunk that starts on a multiple of the interval holds exactly the
// packets a full render holds for those frames (with a fixed encoder thread count: x264 and libvpx
// encode differently with different thread counts, so the count never follows the machine). The
// container is the one passed in, never guessed from the file name; MP4/MOV are written with
// `+faststart` (moov before mdat). Frames with alpha are composited over black for formats without
// an alpha plane (the premultiplied colour is used as is) and un-premultiplied for formats with one.
// Chroma-subsampled formats need even sizes; an odd size is rejected (not padded) with an error
// naming the size, so the caller decides whether to pad, crop or pick `yuv444p`. An optional audio
// track (AAC or Opus, `AudioStreamEncoder`) is interleaved into the same file from samples handed
// to `appendAudio`. Animated WebP goes through the same path with libwebp_anim fed RGB(A).
import Foundation
import StrataCore
import CFFmpeg
import Synchronization

// @unchecked: the FFmpeg contexts and counters are used only while `lock` is held.
/// Writes `Bitmap` frames to a video file with FFmpeg's libraries.
///
/// Calls are serialised by an internal lock, so an encoder may be handed to another thread; a
/// file whose encoder is released without `finish()` is left incomplete.
public final class VideoEncoder: @unchecked Sendable {
    /// The file being written.
    public let url: URL
    /// The container being written.
    public let format: ContainerFormat
    /// Frame width in pixels.
    public let width: Int
    /// Frame height in pixels.
    public let height: Int
    /// The exact frame rate; frame k is shown at k / frameRate seconds.
    public let frameRate: FrameRate
    /// The options the encoder was created with.
    public let options: VideoEncoderOptions
    /// The audio track's options, nil without audio.
    public let audioOptions: AudioEncoderOptions?
    /// The number of the first frame in the whole video this file is a chunk of (0 for a whole
    /// video): frame `firstFrameIndex + k` is stamped `(firstFrameIndex + k) / frameRate`.
    public let firstFrameIndex: Int

    /// The number of frames appended so far.
    public var frameCount: Int { lock.withCheckedLock { _ in appended } }

    private let path: String
    /// Held by every public method: the encoder's mutable state is touched only under it.
    private let lock = Mutex(())
    private var appended = 0
    private var isOpen = false
    private var formatContext: UnsafeMutablePointer<AVFormatContext>?
    private var codecContext: UnsafeMutablePointer<AVCodecContext>?
    private var codec: UnsafePointer<AVCodec>?
    /// Frames per independently encoded interval (nil: one codec state for the whole file).
    private var restartInterval: Int?
    private var stream: UnsafeMutablePointer<AVStream>?
    private var scaler: OpaquePointer?
    private var picture: UnsafeMutablePointer<AVFrame>?
    /// The frame that hands YUV planes to the codec without copying them (`borrowingFrame`).
    private var borrowed: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var straightAlpha: [UInt8] = []
    private var fileCreated = false
    private var audio: AudioStreamEncoder?

    /// The largest width or height accepted.
    public static let maximumDimension = 16_384

    /// Opens `url` for writing a `format` file of `width`×`height` frames at `frameRate`.
    /// Throws `MediaError` when the file cannot be created, the size does not suit the pixel
    /// format, or the codec is missing or does not fit the container.
    /// With `audio`, the file also gets an audio track fed by `appendAudio(_:)`.
    /// `firstFrameIndex` makes the file a chunk of a longer video that starts at that frame
    /// (timestamps and keyframe intervals follow the whole video's frame numbers).
    public init(url: URL, format: ContainerFormat, width: Int, height: Int,
                frameRate: FrameRate, options: VideoEncoderOptions = VideoEncoderOptions(),
                audio: AudioEncoderOptions? = nil, firstFrameIndex: Int = 0) throws {
        self.url = url
        self.format = format
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.options = options
        self.audioOptions = audio
        self.firstFrameIndex = firstFrameIndex
        self.path = url.path
        _ = FFmpegSupport.quietLogging
        _ = Self.fixedMmapThreshold
        do {
            try open()
            isOpen = true
        } catch {
            release(removingFile: true)
            throw error
        }
    }

    deinit {
        release(removingFile: false)
    }

    /// Encodes one frame; its size must be the encoder's size.
    public func append(_ frame: Bitmap) throws {
        try lock.withCheckedLock { _ in
            try MediaError.checkAppend(to: path, isOpen: isOpen, frameIndex: appended, width: frame.width, height: frame.height,
                                       expectedWidth: width, expectedHeight: height)
            do {
                let index = firstFrameIndex + appended
                if appended > 0, let restartInterval, index % restartInterval == 0 { try restartCodec() }
                try convert(frame)
                picture!.pointee.pts = Int64(index)
                try send(picture)
                appended += 1
            } catch {
                isOpen = false
                throw error
            }
        }
    }

    /// Whether `appendYUV420` can be used: the encoder takes 8-bit YUV 4:2:0 (BT.709 limited
    /// range, as configured), so frames converted elsewhere need no RGB conversion here.
    public var takesYUV420: Bool { options.pixelFormat == .yuv420p }

    /// Encodes one frame given as BT.709 limited-range YUV 4:2:0 planes of the encoder's size
    /// (`yStride` bytes a luma row, `cStride` a chroma row); only when `takesYUV420`. Stamped
    /// and keyframed as `append` does. The codec reads the planes where they are, before this
    /// returns: the caller may write the next frame into them at once.
    public func appendYUV420(y: UnsafePointer<UInt8>, u: UnsafePointer<UInt8>, v: UnsafePointer<UInt8>,
                             yStride: Int, cStride: Int) throws {
        try lock.withCheckedLock { _ in
            guard isOpen, formatContext != nil else { throw MediaError.alreadyFinished(path: path) }
            guard takesYUV420 else {
                throw MediaError.unsupportedCombination(path: path, reason: "YUV 4:2:0 frames for pixel format \(options.pixelFormat)")
            }
            do {
                let index = firstFrameIndex + appended
                if appended > 0, let restartInterval, index % restartInterval == 0 { try restartCodec() }
                let frame = try borrowingFrame()
                // The caller's planes are handed to the codec as they are, not copied into a frame
                // of ours first (3 MB a frame at 1080p, and its copy): the codec copies them into
                // its own pictures before `send` returns (`send` takes packets until the codec asks
                // for the next frame, so nothing of this frame is left queued in libavcodec).
                frame.pointee.data.0 = UnsafeMutablePointer(mutating: y)
                frame.pointee.data.1 = UnsafeMutablePointer(mutating: u)
                frame.pointee.data.2 = UnsafeMutablePointer(mutating: v)
                frame.pointee.linesize.0 = Int32(yStride)
                frame.pointee.linesize.1 = Int32(cStride)
                frame.pointee.linesize.2 = Int32(cStride)
                frame.pointee.pts = Int64(index)
                defer {
                    frame.pointee.data.0 = nil; frame.pointee.data.1 = nil; frame.pointee.data.2 = nil
                }
                try send(frame)
                appended += 1
            } catch {
                isOpen = false
                throw error
            }
        }
    }

    /// Audio samples appended so far, per channel.
    public var audioSamplesAppended: Int { lock.withCheckedLock { _ in Int(audio?.samplesAppended ?? 0) } }

    /// Encodes interleaved float samples (−1…1) at the audio options' rate and channel count;
    /// the track's length is exactly the number of samples appended.
    public func appendAudio(_ samples: UnsafeBufferPointer<Float>) throws {
        try lock.withCheckedLock { _ in
            guard isOpen else { throw MediaError.alreadyFinished(path: path) }
            guard let audio else {
                throw MediaError.invalidOption(path: path, reason: "the encoder was created without an audio track")
            }
            do {
                try audio.append(samples, write: writePacket)
            } catch {
                isOpen = false
                throw error
            }
        }
    }

    /// Encodes interleaved float samples (see `appendAudio(_:)` for buffers).
    public func appendAudio(_ samples: [Float]) throws {
        try samples.withUnsafeBufferPointer { try appendAudio($0) }
    }

    /// Flushes the encoder, writes the trailer (and moves the index to the front for MP4/MOV)
    /// and closes the file.
    public func finish() throws {
        try lock.withCheckedLock { _ in
            guard isOpen else { throw MediaError.alreadyFinished(path: path) }
            isOpen = false
            guard appended > 0 else {
                release(removingFile: true)
                throw MediaError.noFrames(path: path)
            }
            try send(nil)
            try audio?.finish(write: writePacket)
            let status = av_write_trailer(formatContext)
            if status < 0 { throw failure("writing the trailer (av_write_trailer)", status) }
            if let formatContext, (formatContext.pointee.oformat.pointee.flags & AVFMT_NOFILE) == 0 {
                let closed = avio_closep(&formatContext.pointee.pb)
                if closed < 0 { throw failure("closing the file (avio_closep)", closed) }
            }
            release(removingFile: false)
        }
    }

    // MARK: - Setting up

    private func open() throws {
        guard format.isVideo, let muxer = format.muxerName else {
            throw MediaError.unsupportedCombination(path: path, reason: "GIF files are written by GIFEncoder, not VideoEncoder")
        }
        try validateSize()
        try validateOptions()

        let codecName = options.codec.encoderName
        guard let codec = avcodec_find_encoder_by_name(codecName) else {
            throw MediaError.encoderUnavailable(path: path, encoder: codecName)
        }
        let pixelFormat = options.pixelFormat.avPixelFormat
        let supported = Self.pixelFormats(of: codec)
        if !supported.isEmpty, !supported.contains(pixelFormat) {
            let names = supported.compactMap { FFmpegSupport.string(av_get_pix_fmt_name($0)) }.joined(separator: ", ")
            throw MediaError.unsupportedCombination(
                path: path, reason: "\(codecName) cannot encode \(options.pixelFormat) (it supports \(names))")
        }

        var context: UnsafeMutablePointer<AVFormatContext>?
        var status = avformat_alloc_output_context2(&context, nil, muxer, FFmpegSupport.fileURL(path))
        guard status >= 0, let context else {
            throw failure("creating the \(muxer) muxer (avformat_alloc_output_context2)", status)
        }
        formatContext = context
        // No random segment UID (WebM) or library version string: the same frames give the same bytes.
        context.pointee.flags |= AVFMT_FLAG_BITEXACT
        let outputFormat = context.pointee.oformat!
        if avformat_query_codec(outputFormat, codec.pointee.id, FF_COMPLIANCE_NORMAL) == 0 {
            throw MediaError.unsupportedCombination(
                path: path, reason: "\(format.displayName) files cannot hold \(options.codec) video"
                    + (format == .webm ? " (use codec .vp9)" : options.codec == .prores ? " (use format .mov)" : ""))
        }

        guard let stream = avformat_new_stream(context, nil) else {
            throw failure("adding a video stream (avformat_new_stream)", nil)
        }
        self.stream = stream
        self.codec = codec
        let encoder = try makeCodecContext()
        codecContext = encoder
        // Intra-only codecs (ProRes) and animated WebP (one picture stream) need no restarts.
        if options.codec != .prores, options.codec != .webp {
            restartInterval = options.resolvedKeyframeInterval(frameRate: frameRate)
        }

        status = avcodec_parameters_from_context(stream.pointee.codecpar, encoder)
        if status < 0 { throw failure("copying codec parameters (avcodec_parameters_from_context)", status) }
        stream.pointee.time_base = encoder.pointee.time_base
        stream.pointee.avg_frame_rate = encoder.pointee.framerate
        if options.codec == .hevc, format != .webm {
            stream.pointee.codecpar.pointee.codec_tag = Self.fourCC("hvc1")
        }
        if let audioOptions {
            guard format.carriesAudio else {
                throw MediaError.unsupportedCombination(path: path, reason: "\(format.displayName) files cannot hold audio")
            }
            let startSample = (Int64(firstFrameIndex) * Int64(audioOptions.sampleRate) * Int64(frameRate.denominator)
                + Int64(frameRate.numerator) / 2) / Int64(frameRate.numerator)
            audio = try AudioStreamEncoder(formatContext: context, container: format, options: audioOptions, path: path,
                                           startSample: startSample)
        }

        if (outputFormat.pointee.flags & AVFMT_NOFILE) == 0 {
            status = avio_open(&context.pointee.pb, FFmpegSupport.fileURL(path), AVIO_FLAG_WRITE)
            if status < 0 {
                throw MediaError.cannotWrite(path: path, reason: FFmpegSupport.errorString(status))
            }
            fileCreated = true
        }

        var muxerOptions: OpaquePointer?
        defer { av_dict_free(&muxerOptions) }
        if format == .mp4 || format == .mov {
            av_dict_set(&muxerOptions, "movflags", "+faststart", 0)
            // The movie's clock (edit lists: where a chunk starts) ticks with the video track's,
            // so a chunk's start time is exact rather than rounded to the default milliseconds.
            let timescale = Self.trackTimescale(frameRate)
            av_dict_set(&muxerOptions, "video_track_timescale", "\(timescale)", 0)
            av_dict_set(&muxerOptions, "movie_timescale", "\(timescale)", 0)
        }
        if format == .webp {
            av_dict_set(&muxerOptions, "loop", "\(options.webp.loopCount)", 0)
        }
        status = avformat_write_header(context, &muxerOptions)
        if status < 0 { throw failure("writing the \(format) header (avformat_write_header)", status) }

        try createScaler()
        packet = av_packet_alloc()
        if packet == nil { throw failure("allocating a packet (av_packet_alloc)", nil) }
    }

    /// A codec context for `codec`, configured and opened with the options.
    private func makeCodecContext() throws -> UnsafeMutablePointer<AVCodecContext> {
        guard let codec, let formatContext else { throw MediaError.alreadyFinished(path: path) }
        let codecName = options.codec.encoderName
        guard let encoder = avcodec_alloc_context3(codec) else {
            throw failure("allocating the \(codecName) encoder (avcodec_alloc_context3)", nil)
        }
        configure(encoder, outputFormat: formatContext.pointee.oformat)
        var codecOptions: OpaquePointer?
        defer { av_dict_free(&codecOptions) }
        codecSpecificOptions().forEach { av_dict_set(&codecOptions, $0.0, $0.1, 0) }
        let status = avcodec_open2(encoder, codec, &codecOptions)
        if status < 0 {
            var unopened: UnsafeMutablePointer<AVCodecContext>? = encoder
            avcodec_free_context(&unopened)
            throw failure("opening the \(codecName) encoder (avcodec_open2)", status)
        }
        return encoder
    }

    /// Flushes the current codec state and starts a fresh one: the next frame opens a new
    /// closed GOP with a keyframe, encoded without reference to anything before it.
    private func restartCodec() throws {
        try send(nil)
        avcodec_free_context(&codecContext)
        Self.returnFreedMemory()
        let encoder = try makeCodecContext()
        codecContext = encoder
        // The stream's headers (SPS/PPS, VP9 configuration) were taken from the first state; a
        // fresh state with the same settings must produce the same ones.
        if let parameters = stream?.pointee.codecpar,
           !Self.sameBytes(parameters.pointee.extradata, Int(parameters.pointee.extradata_size),
                           encoder.pointee.extradata, Int(encoder.pointee.extradata_size)) {
            throw failure("restarting the \(options.codec.encoderName) encoder for a new keyframe interval",
                          nil, reason: "its stream headers differ from the first interval's")
        }
    }

    /// A fixed mmap threshold for the process, set before the first encoder state is made (see
    /// `strata_fix_mmap_threshold`): with glibc's moving threshold, the motion export at 1080p
    /// grew from 384 to 496 MiB over three keyframe intervals (two codec restarts). 4 MiB keeps
    /// x264's frame buffers mmapped; smaller blocks, such as a renderer's per-frame arrays, stay
    /// in the heap and cost no page faults.
    private static let fixedMmapThreshold: Void = strata_fix_mmap_threshold(4 << 20)

    /// Gives the pages freed with the last encoder state back to the system.
    private static func returnFreedMemory() {
        strata_return_free_memory()
    }

    private static func sameBytes(_ a: UnsafeMutablePointer<UInt8>?, _ aCount: Int,
                                  _ b: UnsafeMutablePointer<UInt8>?, _ bCount: Int) -> Bool {
        guard aCount == bCount else { return false }
        guard aCount > 0, let a, let b else { return true }
        return memcmp(a, b, aCount) == 0
    }

    private func validateSize() throws {
        guard width > 0, height > 0 else {
            throw MediaError.invalidFrameSize(path: path, reason: "size \(width)×\(height) must be positive")
        }
        guard width <= Self.maximumDimension, height <= Self.maximumDimension else {
            throw MediaError.invalidFrameSize(
                path: path, reason: "size \(width)×\(height) exceeds the maximum of \(Self.maximumDimension) pixels per side")
        }
        guard let descriptor = av_pix_fmt_desc_get(options.pixelFormat.avPixelFormat) else { return }
        let horizontal = 1 << Int(descriptor.pointee.log2_chroma_w)
        let vertical = 1 << Int(descriptor.pointee.log2_chroma_h)
        if width % horizontal != 0 {
            throw MediaError.invalidFrameSize(path: path, reason: "width \(width) must be even for \(options.pixelFormat)")
        }
        if height % vertical != 0 {
            throw MediaError.invalidFrameSize(path: path, reason: "height \(height) must be even for \(options.pixelFormat)")
        }
    }

    private func validateOptions() throws {
        switch options.codec {
        case .h264, .hevc:
            guard (0...51).contains(options.crf) else {
                throw MediaError.invalidOption(path: path, reason: "crf \(options.crf) is outside 0...51 for \(options.codec)")
            }
        case .vp9:
            guard (0...63).contains(options.crf) else {
                throw MediaError.invalidOption(path: path, reason: "crf \(options.crf) is outside 0...63 for vp9")
            }
        case .av1:
            guard (0...63).contains(options.crf) else {
                throw MediaError.invalidOption(path: path, reason: "crf \(options.crf) is outside 0...63 for av1")
            }
            if options.codec.encoderName == "libsvtav1", width < 64 || height < 64 {
                throw MediaError.unsupportedCombination(path: path, reason: "SVT-AV1 encodes pictures of at least 64×64 pixels, not \(width)×\(height) (use another codec, or a larger --size or --scale)")
            }
        case .webp:
            guard (0...100).contains(options.webp.quality) else {
                throw MediaError.invalidOption(path: path, reason: "WebP quality \(options.webp.quality) is outside 0...100")
            }
            guard (0...65_535).contains(options.webp.loopCount) else {
                throw MediaError.invalidOption(path: path, reason: "WebP loop count \(options.webp.loopCount) is outside 0...65535")
            }
        case .prores:
            break
        }
        if (options.codec == .webp) != (format == .webp) {
            throw MediaError.unsupportedCombination(
                path: path, reason: options.codec == .webp ? "WebP video goes in .webp files only" : "\(format.displayName) files hold WebP video only (use codec .webp)")
        }
        if options.codec == .webp, !options.pixelFormat.isRGB {
            throw MediaError.unsupportedCombination(path: path, reason: "WebP takes pixel format .rgb or .rgba (not \(options.pixelFormat))")
        }
        if options.codec != .webp, options.pixelFormat.isRGB {
            throw MediaError.unsupportedCombination(path: path, reason: "pixel format \(options.pixelFormat) is for WebP only")
        }
        if options.codec != .prores, options.codec != .webp, !VideoEncoderOptions.presets.contains(options.preset) {
            throw MediaError.invalidOption(
                path: path, reason: "unknown preset \"\(options.preset)\" (expected one of \(VideoEncoderOptions.presets.joined(separator: ", ")))")
        }
        if let interval = options.keyframeInterval, interval < 1 {
            throw MediaError.invalidOption(path: path, reason: "keyframe interval \(interval) must be at least 1")
        }
        guard (1...64).contains(options.encoderThreads) else {
            throw MediaError.invalidOption(path: path, reason: "encoder threads \(options.encoderThreads) must be within 1...64")
        }
        if let lookahead = options.lookahead, !(0...250).contains(lookahead) {
            throw MediaError.invalidOption(path: path, reason: "lookahead \(lookahead) must be within 0...250 frames")
        }
        guard firstFrameIndex >= 0 else {
            throw MediaError.invalidOption(path: path, reason: "first frame index \(firstFrameIndex) must not be negative")
        }
        if let bitrate = options.bitrate, bitrate <= 0 {
            throw MediaError.invalidOption(path: path, reason: "bit rate \(bitrate) must be positive")
        }
        guard frameRate.numerator <= Int(Int32.max), frameRate.denominator <= Int(Int32.max) else {
            throw MediaError.invalidOption(path: path, reason: "frame rate \(frameRate) does not fit FFmpeg's 32-bit rationals")
        }
    }

    private func configure(_ encoder: UnsafeMutablePointer<AVCodecContext>, outputFormat: UnsafePointer<AVOutputFormat>) {
        encoder.pointee.width = Int32(width)
        encoder.pointee.height = Int32(height)
        encoder.pointee.pix_fmt = options.pixelFormat.avPixelFormat
        encoder.pointee.time_base = AVRational(num: Int32(frameRate.denominator), den: Int32(frameRate.numerator))
        encoder.pointee.framerate = AVRational(num: Int32(frameRate.numerator), den: Int32(frameRate.denominator))
        encoder.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
        encoder.pointee.gop_size = Int32(clamping: options.resolvedKeyframeInterval(frameRate: frameRate))
        if !options.pixelFormat.isRGB {
            encoder.pointee.color_primaries = AVCOL_PRI_BT709
            encoder.pointee.color_trc = AVCOL_TRC_BT709
            encoder.pointee.colorspace = AVCOL_SPC_BT709
            encoder.pointee.color_range = AVCOL_RANGE_MPEG
        }
        // A fixed count, not the machine's, for the codecs whose pictures depend on it (see the
        // file header). SVT-AV1 sizes its own thread pool (and, run as root, makes its threads
        // real-time: more of them than cores starves the machine); ProRes and WebP are intra-only.
        switch options.codec {
        case .h264, .hevc, .vp9: encoder.pointee.thread_count = Int32(options.encoderThreads)
        case .av1, .prores, .webp: encoder.pointee.thread_count = 0
        }
        if let bitrate = options.bitrate { encoder.pointee.bit_rate = Int64(bitrate) }
        if (outputFormat.pointee.flags & AVFMT_GLOBALHEADER) != 0 {
            encoder.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER
        }
    }

    /// Private options of the chosen encoder, as name/value strings.
    private func codecSpecificOptions() -> [(String, String)] {
        let constantQuality = options.bitrate == nil
        switch options.codec {
        case .h264:
            // x264's AVX-512 kernels (r3095, on AMD Zen 4) made the same frames encode to bytes that
            // differed from one export to the next in the same process (two exports of one scene
            // differed in 2 to 4 test runs of 4); without them, in none. A CPU with AVX-512 has AVX2
            // and everything below it, which is what x264 then uses.
            var params: [String] = strata_cpu_has_avx512() != 0 ? ["asm=AVX2"] : []
            // No lookahead thread: x264 then decides the frame types on the thread that hands it
            // the frame, from the same frames, so the stream is the same (VideoEncoderMemoryTests
            // compares it with the ffmpeg tool's x264; Lottie, template and motion exports were
            // cmp-identical before and after at 1 and 2 workers), but it buffers bframes + 1 frames
            // fewer: 4 at the presets' 3 B-frames, about 29 MB at 1080p (the ffmpeg tool's x264 at
            // four threads, veryfast: 295 → 265 MB peak).
            params.append("sync-lookahead=0")
            if let lookahead = options.lookahead { params.append("rc-lookahead=\(lookahead)") }
            return [("preset", options.preset)] + (params.isEmpty ? [] : [("x264-params", params.joined(separator: ":"))])
                + (constantQuality ? [("crf", "\(options.crf)")] : [])
        case .hevc:
            return [("preset", options.preset), ("x265-params", "log-level=error")]
                + (constantQuality ? [("crf", "\(options.crf)")] : [])
        case .vp9:
            let speed = VideoEncoderOptions.presets.firstIndex(of: options.preset) ?? 5
            // ultrafast → cpu-used 5 … medium → 1 … slower and beyond → 0.
            let cpuUsed = [5, 5, 4, 3, 2, 1, 1, 0, 0, 0][speed]
            return [("deadline", "good"), ("cpu-used", "\(cpuUsed)"), ("row-mt", "1")]
                + (constantQuality ? [("crf", "\(options.crf)"), ("b", "0")] : [])
        case .prores:
            let profile = options.pixelFormat == .yuv422p10 ? "hq" : "4444"
            return [("profile", profile), ("vendor", "apl0")]
        case .av1:
            let speed = VideoEncoderOptions.presets.firstIndex(of: options.preset) ?? 5
            if options.codec.encoderName == "libsvtav1" {
                // ultrafast → preset 12 … medium → 8 … placebo → 2.
                let preset = [12, 11, 10, 9, 8, 8, 6, 4, 3, 2][speed]
                return [("preset", "\(preset)")] + (constantQuality ? [("crf", "\(options.crf)")] : [])
            }
            let cpuUsed = [8, 7, 6, 5, 4, 4, 3, 2, 1, 0][speed]
            return [("cpu-used", "\(cpuUsed)"), ("row-mt", "1")] + (constantQuality ? [("crf", "\(options.crf)"), ("b", "0")] : [])
        case .webp:
            return [("quality", "\(options.webp.quality)"), ("lossless", options.webp.lossless ? "1" : "0")]
        }
    }

    /// The frame RGBA frames are converted into, made by the first one (frames handed over as
    /// YUV planes need none).
    private func allocateFrame() throws -> UnsafeMutablePointer<AVFrame> {
        if let picture { return picture }
        guard let frame = av_frame_alloc() else { throw failure("allocating a frame (av_frame_alloc)", nil) }
        picture = frame
        describe(frame)
        let status = av_frame_get_buffer(frame, 0)
        if status < 0 { throw failure("allocating frame buffers (av_frame_get_buffer)", status) }
        return frame
    }

    /// The frame that carries a caller's YUV 4:2:0 planes to the codec: no buffers of its own,
    /// but a one-byte reference-counted token, so that libavcodec takes it by reference (a frame
    /// without one it would copy whole) and `data` can point at the caller's planes.
    private func borrowingFrame() throws -> UnsafeMutablePointer<AVFrame> {
        if let borrowed { return borrowed }
        guard let frame = av_frame_alloc() else { throw failure("allocating a frame (av_frame_alloc)", nil) }
        borrowed = frame
        describe(frame)
        guard let token = av_buffer_alloc(1) else { throw failure("allocating a frame token (av_buffer_alloc)", nil) }
        frame.pointee.buf.0 = token
        return frame
    }

    /// Sets the size, pixel format and colour description of a frame for this encoder.
    private func describe(_ frame: UnsafeMutablePointer<AVFrame>) {
        frame.pointee.format = options.pixelFormat.avPixelFormat.rawValue
        frame.pointee.width = Int32(width)
        frame.pointee.height = Int32(height)
        frame.pointee.color_primaries = AVCOL_PRI_BT709
        frame.pointee.color_trc = AVCOL_TRC_BT709
        frame.pointee.colorspace = AVCOL_SPC_BT709
        frame.pointee.color_range = AVCOL_RANGE_MPEG
    }

    private func createScaler() throws {
        // RGB0 ignores the alpha byte: premultiplied colour is the frame composited over black.
        let source = options.pixelFormat.hasAlpha ? AV_PIX_FMT_RGBA : AV_PIX_FMT_RGB0
        let flags = SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INP | SWS_BITEXACT
        guard let scaler = sws_getContext(Int32(width), Int32(height), source,
                                          Int32(width), Int32(height), options.pixelFormat.avPixelFormat,
                                          Int32(flags), nil, nil, nil) else {
            throw failure("creating the RGB → \(options.pixelFormat) converter (sws_getContext)", nil)
        }
        self.scaler = scaler
        if options.pixelFormat.isRGB { return }
        let bt709 = sws_getCoefficients(SWS_CS_ITU709)
        // Source: full-range RGB; destination: BT.709 coefficients, limited (MPEG) range.
        let status = sws_setColorspaceDetails(scaler, bt709, 1, bt709, 0, 0, 1 << 16, 1 << 16)
        if status < 0 { throw failure("selecting BT.709 coefficients (sws_setColorspaceDetails)", status) }
    }

    // MARK: - Encoding

    /// Converts `frame` into `picture`'s YUV planes.
    private func convert(_ frame: Bitmap) throws {
        guard let scaler else { throw MediaError.alreadyFinished(path: path) }
        let picture = try allocateFrame()
        let status = av_frame_make_writable(picture)
        if status < 0 { throw failure("making the frame writable (av_frame_make_writable)", status) }
        if options.pixelFormat.hasAlpha {
            Self.unpremultiply(frame.pixels, into: &straightAlpha)
            straightAlpha.withUnsafeBufferPointer { scale(scaler, source: $0.baseAddress!, into: picture) }
        } else {
            frame.pixels.withUnsafeBufferPointer { scale(scaler, source: $0.baseAddress!, into: picture) }
        }
    }

    private func scale(_ scaler: OpaquePointer, source: UnsafePointer<UInt8>, into picture: UnsafeMutablePointer<AVFrame>) {
        let sourcePlanes: [UnsafePointer<UInt8>?] = [source, nil, nil, nil]
        let sourceStrides: [Int32] = [Int32(width * 4), 0, 0, 0]
        let d = picture.pointee.data
        let l = picture.pointee.linesize
        let planes: [UnsafeMutablePointer<UInt8>?] = [d.0, d.1, d.2, d.3, d.4, d.5, d.6, d.7]
        let strides: [Int32] = [l.0, l.1, l.2, l.3, l.4, l.5, l.6, l.7]
        sws_scale(scaler, sourcePlanes, sourceStrides, 0, Int32(height), planes, strides)
    }

    /// Sends a frame (nil to flush) and writes every packet the encoder has ready.
    private func send(_ frame: UnsafeMutablePointer<AVFrame>?) throws {
        guard let codecContext, formatContext != nil, let stream, let packet else {
            throw MediaError.alreadyFinished(path: path)
        }
        var status = avcodec_send_frame(codecContext, frame)
        if status < 0 { throw failure("sending frame \(appended) to the encoder (avcodec_send_frame)", status) }
        while true {
            status = avcodec_receive_packet(codecContext, packet)
            if status == strata_averror_eagain() || status == strata_averror_eof() { return }
            if status < 0 { throw failure("encoding (avcodec_receive_packet)", status) }
            packet.pointee.stream_index = stream.pointee.index
            if packet.pointee.duration <= 0 { packet.pointee.duration = 1 }
            av_packet_rescale_ts(packet, codecContext.pointee.time_base, stream.pointee.time_base)
            try writePacket(packet)
        }
    }

    /// Hands a packet to the muxer (which interleaves the streams by time).
    private func writePacket(_ packet: UnsafeMutablePointer<AVPacket>) throws {
        guard let formatContext else { throw MediaError.alreadyFinished(path: path) }
        let status = av_interleaved_write_frame(formatContext, packet)
        if status < 0 { throw failure("writing a packet (av_interleaved_write_frame)", status) }
    }

    // MARK: - Helpers

    private func release(removingFile: Bool) {
        if let scaler { sws_freeContext(scaler) }
        scaler = nil
        av_frame_free(&picture)
        av_frame_free(&borrowed)
        av_packet_free(&packet)
        avcodec_free_context(&codecContext)
        audio = nil
        if let formatContext {
            if formatContext.pointee.pb != nil, (formatContext.pointee.oformat.pointee.flags & AVFMT_NOFILE) == 0 {
                avio_closep(&formatContext.pointee.pb)
            }
            avformat_free_context(formatContext)
        }
        formatContext = nil
        stream = nil
        // (Only a file: a device or pipe written to, such as /dev/null, stays.)
        if removingFile, fileCreated, OutputDestination.isFile(path) {
            try? FileManager.default.removeItem(atPath: path)
        }
        fileCreated = false
    }

    private func failure(_ operation: String, _ status: Int32?, reason: String = "out of memory") -> MediaError {
        .libraryFailure(path: path, operation: operation, reason: status.map { FFmpegSupport.errorString($0) } ?? reason)
    }

    private static func pixelFormats(of codec: UnsafePointer<AVCodec>) -> [AVPixelFormat] {
        var result: [AVPixelFormat] = []
        guard var p = codec.pointee.pix_fmts else { return result }
        while p.pointee != AV_PIX_FMT_NONE {
            result.append(p.pointee)
            p += 1
        }
        return result
    }

    /// The MP4/MOV muxer's own choice of video timescale for a time base of 1/fps (the frame
    /// rate's numerator, doubled until it reaches 10 000), used for the movie's timescale too.
    static func trackTimescale(_ rate: FrameRate) -> Int {
        var timescale = rate.numerator
        while timescale < 10_000 { timescale *= 2 }
        return timescale
    }

    private static func fourCC(_ code: String) -> UInt32 {
        code.utf8.prefix(4).enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
    }

    /// Straight-alpha RGBA from premultiplied RGBA (fully transparent pixels become black).
    private static func unpremultiply(_ pixels: [UInt8], into output: inout [UInt8]) {
        if output.count != pixels.count { output = [UInt8](repeating: 0, count: pixels.count) }
        pixels.withUnsafeBufferPointer { src in
            output.withUnsafeMutableBufferPointer { dst in
                var i = 0
                while i < src.count {
                    let a = Int(src[i + 3])
                    if a == 255 {
                        dst[i] = src[i]; dst[i + 1] = src[i + 1]; dst[i + 2] = src[i + 2]
                    } else if a == 0 {
                        dst[i] = 0; dst[i + 1] = 0; dst[i + 2] = 0
                    } else {
                        for c in 0..<3 { dst[i + c] = UInt8(min(255, (Int(src[i + c]) * 255 + a / 2) / a)) }
                    }
                    dst[i + 3] = UInt8(a)
                    i += 4
                }
            }
        }
    }
}
