// The audio decoder stage: a file's main audio stream as interleaved 32-bit float samples at one
// output rate and channel count, through libavcodec and libswresample. `start(at:rate:)` seeks
// and then trims the first decoded frame sample-accurately, so the first sample read is the one
// at that item time whatever the packet boundaries; `rate` plays the audio faster or slower by
// resampling (varispeed: the pitch moves with the speed). Item time 0 is the container's start,
// as for `VideoDecoder`, so the audio of a player lines up with its pictures.
import Foundation
import CFFmpeg

/// Decodes and resamples one file's audio. Not thread-safe: one thread owns it.
public final class AudioDecoder {
    /// The file.
    public let url: URL
    /// Output samples per second.
    public let sampleRate: Int
    /// Output channels (interleaved).
    public let channels: Int
    /// The audio stream's length in item seconds.
    public private(set) var duration: Double = 0

    private let path: String
    private var format: UnsafeMutablePointer<AVFormatContext>?
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var resampler: OpaquePointer?
    private var resamplerKey: (format: Int32, rate: Int32, channels: Int32, speed: Double)?
    private var streamIndex: Int32 = -1
    private var timeBase = AVRational(num: 1, den: 1)
    private var originSeconds = 0.0
    /// Samples ready to read (interleaved).
    private var pending: [Float] = []
    private var pendingStart = 0
    /// Frames of silence to give before `pending` (a stream that starts after the time sought);
    /// counted rather than stored, as a file may start hours later.
    private var pendingSilence = 0
    /// Item time the next decoded samples must start at (set by a seek, nil once aligned).
    private var alignTo: Double?
    private var speed = 1.0
    /// Output frames left before the end of the stream (its stated duration trims the encoder
    /// padding that some files keep after the last sample).
    private var remaining = Int.max
    private var sentFlush = false
    private var finished = false

    /// The limits the file is opened under (a video stream over `videoSize` is refused before
    /// finding the stream information, which may decode a frame).
    private let limits: MediaLimits

    /// Opens the first audio stream of `url`. Throws `MediaError.cannotRead` naming the file.
    /// `limits` nil: the running scene's, or the defaults.
    public init(url: URL, sampleRate: Int = 48_000, channels: Int = 2, limits: MediaLimits? = nil) throws {
        _ = FFmpegSupport.quietLogging
        self.limits = limits ?? MediaLimits.inForce
        self.url = url
        self.path = url.path
        self.sampleRate = sampleRate
        self.channels = channels
        guard FileManager.default.fileExists(atPath: path) else {
            throw MediaError.cannotRead(path: path, reason: "No such file or directory")
        }
        do { try open() } catch { close(); throw error }
    }

    deinit { close() }

    private func open() throws {
        let context = try FFmpegSupport.openForDecoding(path, limits: limits)
        format = context
        var status: Int32
        streamIndex = av_find_best_stream(context, AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0)
        guard streamIndex >= 0, let stream = context.pointee.streams[Int(streamIndex)] else {
            throw MediaError.cannotRead(path: path, reason: "the file has no audio stream")
        }
        timeBase = stream.pointee.time_base
        if context.pointee.start_time != Int64.min { originSeconds = Double(context.pointee.start_time) / Double(AV_TIME_BASE) }
        if stream.pointee.duration > 0, stream.pointee.duration != Int64.min {
            let first = stream.pointee.start_time != Int64.min ? stream.pointee.start_time : 0
            // (Added in Double: a file's timestamps may be anywhere in Int64.)
            duration = seconds(stream.pointee.duration) + seconds(first) + originSeconds
        } else if context.pointee.duration > 0 {
            duration = Double(context.pointee.duration) / Double(AV_TIME_BASE)
        }
        try Self.checkSampleRate(Int(stream.pointee.codecpar.pointee.sample_rate), path: path, allowsUnknown: true)
        guard let decoder = avcodec_find_decoder(stream.pointee.codecpar.pointee.codec_id) else {
            throw MediaError.cannotRead(path: path, reason: "no decoder for its audio codec")
        }
        guard let c = avcodec_alloc_context3(decoder) else { throw failure("allocating the audio decoder", nil) }
        codec = c
        status = avcodec_parameters_to_context(c, stream.pointee.codecpar)
        if status < 0 { throw failure("copying audio parameters (avcodec_parameters_to_context)", status) }
        c.pointee.pkt_timebase = timeBase
        status = avcodec_open2(c, decoder, nil)
        if status < 0 { throw MediaError.cannotRead(path: path, reason: "cannot open the audio decoder: \(FFmpegSupport.errorString(status))") }
        packet = av_packet_alloc()
        frame = av_frame_alloc()
        if packet == nil || frame == nil { throw failure("allocating audio buffers", nil) }
        alignTo = 0
        limitOutput(from: 0)
    }

    /// Positions the decoder so the next sample read is the one at `itemTime`, played at `rate`
    /// item seconds per second (> 0).
    public func start(at itemTime: Double, rate: Double = 1) throws {
        guard let format, let codec else { return }
        speed = rate > 0 && rate.isFinite ? rate : 1
        let target = max(0, itemTime)
        let ts = Self.clamped(((target + originSeconds) * Double(timeBase.den) / Double(timeBase.num)).rounded(.down))
        var status = av_seek_frame(format, streamIndex, ts, AVSEEK_FLAG_BACKWARD)
        if status < 0 {
            status = avformat_seek_file(format, -1, Int64.min, 0, 0, 0)
            if status < 0 { throw failure("seeking to \(target) s (av_seek_frame)", status) }
        }
        avcodec_flush_buffers(codec)
        if let resampler { var r: OpaquePointer? = resampler; swr_free(&r) }
        resampler = nil
        resamplerKey = nil
        pending.removeAll(keepingCapacity: true)
        pendingStart = 0
        pendingSilence = 0
        alignTo = target
        sentFlush = false
        finished = false
        limitOutput(from: target)
    }

    private func limitOutput(from itemTime: Double) {
        remaining = duration > 0 ? max(0, Int(Self.clamped(((duration - itemTime) / speed * Double(sampleRate)).rounded()))) : Int.max
    }

    /// Reads up to `count` frames (count × channels floats) into `output` starting at
    /// `offset` frames; returns the number of frames read (fewer only at the end of the stream).
    public func read(into output: UnsafeMutableBufferPointer<Float>, offset: Int = 0, frames count: Int) throws -> Int {
        var done = 0
        let count = min(count, remaining)
        defer { remaining -= done }
        while done < count {
            if pendingSilence > 0 {
                let n = min(pendingSilence, count - done)
                let base = (offset + done) * channels
                for i in 0..<(n * channels) { output[base + i] = 0 }
                pendingSilence -= n
                done += n
                continue
            }
            let available = (pending.count - pendingStart) / channels
            if available > 0 {
                let n = min(available, count - done)
                let base = (offset + done) * channels
                pending.withUnsafeBufferPointer { p in
                    for i in 0..<(n * channels) { output[base + i] = p[pendingStart + i] }
                }
                pendingStart += n * channels
                done += n
                if pendingStart == pending.count { pending.removeAll(keepingCapacity: true); pendingStart = 0 }
                continue
            }
            if finished { break }
            try decodeMore()
        }
        return done
    }

    // MARK: - Decoding

    private func decodeMore() throws {
        guard let format, let codec, let packet, let frame else { finished = true; return }
        while true {
            let received = avcodec_receive_frame(codec, frame)
            if received == 0 {
                defer { av_frame_unref(frame) }
                try resample(frame)
                return
            }
            if received == strata_averror_eof() || sentFlush {
                try drainResampler()
                finished = true
                return
            }
            if FFmpegSupport.sendNextPacket(from: format, stream: streamIndex, to: codec, using: packet) { sentFlush = true }
        }
    }

    /// Trims (after a seek), resamples and appends one decoded frame.
    private func resample(_ frame: UnsafeMutablePointer<AVFrame>) throws {
        let inRate = Int(frame.pointee.sample_rate)
        let inChannels = frame.pointee.ch_layout.nb_channels
        guard inRate > 0, inChannels > 0 else { return }
        // (Checked per frame too: a stream may change its rate midway.)
        try Self.checkSampleRate(inRate, path: path, allowsUnknown: false)
        var skip = 0
        var silence = 0
        if let align = alignTo {
            let ts = frame.pointee.best_effort_timestamp != Int64.min ? frame.pointee.best_effort_timestamp : frame.pointee.pts
            let frameStart = ts != Int64.min ? seconds(ts) : align
            let offset = Int(Self.clamped(((align - frameStart) * Double(inRate)).rounded()))
            if offset >= Int(frame.pointee.nb_samples) { return }
            if offset > 0 { skip = offset } else { silence = -offset }
            alignTo = nil
        }
        let resampler = try resamplerFor(frame)
        if silence > 0 {
            // The stream starts after the requested time: pad with silence at the output rate.
            pendingSilence = Int(Self.clamped((Double(silence) / speed * Double(sampleRate) / Double(inRate)).rounded()))
        }
        let inputCount = Int(frame.pointee.nb_samples) - skip
        let sampleFormat = AVSampleFormat(rawValue: frame.pointee.format)
        let bytesPerSample = Int(av_get_bytes_per_sample(sampleFormat))
        let planar = av_sample_fmt_is_planar(sampleFormat) != 0
        let planeCount = planar ? Int(inChannels) : 1
        let step = planar ? bytesPerSample : bytesPerSample * Int(inChannels)
        var inputs: [UnsafePointer<UInt8>?] = []
        for p in 0..<planeCount {
            let plane = frame.pointee.extended_data[p]!
            inputs.append(UnsafePointer(plane + skip * step))
        }
        try convert(resampler, inputs: inputs, count: inputCount)
    }

    private func convert(_ resampler: OpaquePointer, inputs: [UnsafePointer<UInt8>?], count: Int) throws {
        let capacity = Int(swr_get_out_samples(resampler, Int32(count))) + 32
        guard capacity > 0 else { return }
        let start = pending.count
        pending.append(contentsOf: repeatElement(0, count: capacity * channels))
        let produced: Int32 = pending.withUnsafeMutableBufferPointer { buffer in
            var out: UnsafeMutablePointer<UInt8>? = UnsafeMutableRawPointer(buffer.baseAddress! + start).assumingMemoryBound(to: UInt8.self)
            return inputs.withUnsafeBufferPointer { ins in
                withUnsafeMutablePointer(to: &out) { outs in
                    if count == 0 {
                        return swr_convert(resampler, outs, Int32(capacity), nil, 0)
                    }
                    return swr_convert(resampler, outs, Int32(capacity),
                                       UnsafeMutablePointer(mutating: ins.baseAddress), Int32(count))
                }
            }
        }
        if produced < 0 { throw failure("resampling (swr_convert)", produced) }
        pending.removeLast((capacity - Int(produced)) * channels)
    }

    private func drainResampler() throws {
        guard let resampler else { return }
        try convert(resampler, inputs: [], count: 0)
    }

    private func resamplerFor(_ frame: UnsafeMutablePointer<AVFrame>) throws -> OpaquePointer {
        let key = (frame.pointee.format, frame.pointee.sample_rate, frame.pointee.ch_layout.nb_channels, speed)
        if let resampler, let k = resamplerKey, k.format == key.0, k.rate == key.1, k.channels == key.2, k.speed == key.3 {
            return resampler
        }
        if let resampler { var r: OpaquePointer? = resampler; swr_free(&r) }
        resampler = nil
        var inLayout = AVChannelLayout()
        if frame.pointee.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC {
            av_channel_layout_default(&inLayout, frame.pointee.ch_layout.nb_channels)
        } else {
            av_channel_layout_copy(&inLayout, &frame.pointee.ch_layout)
        }
        defer { av_channel_layout_uninit(&inLayout) }
        var outLayout = AVChannelLayout()
        av_channel_layout_default(&outLayout, Int32(channels))
        defer { av_channel_layout_uninit(&outLayout) }
        // Varispeed: the input is declared faster (or slower) than it is.
        let declaredRate = Int32(max(1, (Double(frame.pointee.sample_rate) * speed).rounded()))
        var context: OpaquePointer?
        var status = swr_alloc_set_opts2(&context, &outLayout, AV_SAMPLE_FMT_FLT, Int32(sampleRate),
                                         &inLayout, AVSampleFormat(rawValue: frame.pointee.format), declaredRate, 0, nil)
        guard status >= 0, let context else { throw failure("configuring the resampler (swr_alloc_set_opts2)", status) }
        // A mono source plays at full level on every output channel (swresample would mix it
        // in at −3 dB, as a centre channel folded into stereo).
        if inLayout.nb_channels == 1 {
            let matrix = [Double](repeating: 1, count: channels)
            _ = matrix.withUnsafeBufferPointer { swr_set_matrix(context, $0.baseAddress, 1) }
        }
        status = swr_init(context)
        if status < 0 {
            var c: OpaquePointer? = context
            swr_free(&c)
            throw failure("starting the resampler (swr_init)", status)
        }
        resampler = context
        resamplerKey = (key.0, key.1, key.2, key.3)
        return context
    }

    // MARK: - Helpers

    /// The highest sample rate read: 768 kHz, the highest in use (DXD ×2). Resampling costs grow
    /// with the input rate: a header claiming 537 MHz kept swr_init busy for 11 s (found by the
    /// media fuzz target).
    public static let maximumSampleRate = 768_000

    private static func checkSampleRate(_ rate: Int, path: String, allowsUnknown: Bool) throws {
        if rate == 0 && allowsUnknown { return }  // (a container may leave it to the decoder)
        guard rate >= 1, rate <= maximumSampleRate else {
            throw MediaError.cannotRead(path: path, reason: "its audio sample rate \(rate) Hz is outside 1 Hz…\(maximumSampleRate / 1000) kHz")
        }
    }

    /// `x` as an Int64, saturating (a conversion that traps on overflow would stop the process on
    /// a file with extreme timestamps).
    private static func clamped(_ x: Double) -> Int64 {
        guard !x.isNaN else { return 0 }
        return x >= 9.2e18 ? Int64.max : x <= -9.2e18 ? Int64.min : Int64(x)
    }

    private func seconds(_ ts: Int64) -> Double {
        Double(ts) * Double(timeBase.num) / Double(timeBase.den) - originSeconds
    }

    private func close() {
        if let resampler { var r: OpaquePointer? = resampler; swr_free(&r) }
        resampler = nil
        FFmpegSupport.closeDecoder(format: &format, codec: &codec, packet: &packet, frame: &frame)
    }

    private func failure(_ operation: String, _ status: Int32?) -> MediaError {
        .libraryFailure(path: path, operation: operation, reason: status.map { FFmpegSupport.errorString($0) } ?? "out of memory")
    }
}
