// The audio half of `VideoEncoder`: interleaved float samples in, AAC or Opus packets out,
// interleaved into the same file as the video. Samples are gathered into the encoder's frame
// size (1024 for AAC, 960 for Opus at 48 kHz), converted to the encoder's sample layout, and
// stamped with their exact sample position (time base 1 / sample rate; a chunk's track starts at
// its first frame's time), so the track lasts
// exactly the number of samples appended; the last, partial frame is sent short when the encoder
// allows it and padded with silence otherwise. Used under `VideoEncoder`'s lock only.
import Foundation
import CFFmpeg

final class AudioStreamEncoder {
    let codecName: AudioEncoderOptions.Codec
    let sampleRate: Int
    let channels: Int
    private let path: String
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private(set) var stream: UnsafeMutablePointer<AVStream>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var buffer: [Float] = []
    private var frameSize = 1024
    private var nextPTS: Int64 = 0
    private var acceptsShortLastFrame = false
    /// Samples appended so far (per channel).
    private(set) var samplesAppended: Int64 = 0

    /// Adds an audio stream to `formatContext` (before its header is written).
    /// `startSample` is the track's first sample position (a chunk of a longer export starts
    /// at its first frame's time, in samples).
    init(formatContext: UnsafeMutablePointer<AVFormatContext>, container: ContainerFormat,
         options: AudioEncoderOptions, path: String, startSample: Int64 = 0) throws {
        self.path = path
        nextPTS = startSample
        codecName = options.resolvedCodec(for: container)
        sampleRate = options.sampleRate
        channels = options.channels
        guard channels == 1 || channels == 2 else {
            throw MediaError.invalidOption(path: path, reason: "audio channels \(channels) must be 1 or 2")
        }
        guard (8_000...192_000).contains(sampleRate) else {
            throw MediaError.invalidOption(path: path, reason: "audio sample rate \(sampleRate) must be within 8000...192000")
        }
        if codecName == .opus, ![48_000, 24_000, 16_000, 12_000, 8_000].contains(sampleRate) {
            throw MediaError.invalidOption(path: path, reason: "Opus needs a sample rate of 48000, 24000, 16000, 12000 or 8000 (not \(sampleRate))")
        }
        guard let codec = avcodec_find_encoder_by_name(codecName.encoderName) else {
            throw MediaError.encoderUnavailable(path: path, encoder: codecName.encoderName)
        }
        if avformat_query_codec(formatContext.pointee.oformat, codec.pointee.id, FF_COMPLIANCE_NORMAL) == 0 {
            throw MediaError.unsupportedCombination(path: path, reason: "\(container) files cannot hold \(codecName) audio")
        }
        guard let stream = avformat_new_stream(formatContext, nil) else {
            throw MediaError.libraryFailure(path: path, operation: "adding an audio stream (avformat_new_stream)", reason: "out of memory")
        }
        self.stream = stream
        guard let context = avcodec_alloc_context3(codec) else {
            throw MediaError.libraryFailure(path: path, operation: "allocating the \(codecName) encoder", reason: "out of memory")
        }
        self.context = context
        let sampleFormat = Self.preferredFormat(of: codec)
        context.pointee.sample_fmt = sampleFormat
        context.pointee.sample_rate = Int32(sampleRate)
        av_channel_layout_default(&context.pointee.ch_layout, Int32(channels))
        context.pointee.bit_rate = Int64(options.resolvedBitrate(codecName))
        context.pointee.time_base = AVRational(num: 1, den: Int32(sampleRate))
        if (formatContext.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER) != 0 {
            context.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER
        }
        var status = avcodec_open2(context, codec, nil)
        if status < 0 {
            throw MediaError.libraryFailure(path: path, operation: "opening the \(codecName) encoder (avcodec_open2)",
                                            reason: FFmpegSupport.errorString(status))
        }
        status = avcodec_parameters_from_context(stream.pointee.codecpar, context)
        if status < 0 {
            throw MediaError.libraryFailure(path: path, operation: "copying audio parameters", reason: FFmpegSupport.errorString(status))
        }
        stream.pointee.time_base = context.pointee.time_base
        frameSize = context.pointee.frame_size > 0 ? Int(context.pointee.frame_size) : 1024
        acceptsShortLastFrame = (Int32(codec.pointee.capabilities) & AV_CODEC_CAP_SMALL_LAST_FRAME) != 0
            || (Int32(codec.pointee.capabilities) & AV_CODEC_CAP_VARIABLE_FRAME_SIZE) != 0
        frame = av_frame_alloc()
        packet = av_packet_alloc()
        guard let frame, packet != nil else {
            throw MediaError.libraryFailure(path: path, operation: "allocating audio buffers", reason: "out of memory")
        }
        frame.pointee.format = sampleFormat.rawValue
        frame.pointee.sample_rate = Int32(sampleRate)
        av_channel_layout_copy(&frame.pointee.ch_layout, &context.pointee.ch_layout)
        frame.pointee.nb_samples = Int32(frameSize)
        status = av_frame_get_buffer(frame, 0)
        if status < 0 {
            throw MediaError.libraryFailure(path: path, operation: "allocating audio frames", reason: FFmpegSupport.errorString(status))
        }
    }

    deinit {
        av_frame_free(&frame)
        av_packet_free(&packet)
        avcodec_free_context(&context)
    }

    /// Appends interleaved samples (`count` per channel) and writes the full frames.
    func append(_ samples: UnsafeBufferPointer<Float>, write: (UnsafeMutablePointer<AVPacket>) throws -> Void) throws {
        buffer.append(contentsOf: samples)
        samplesAppended += Int64(samples.count / channels)
        var start = 0
        while buffer.count - start >= frameSize * channels {
            try encodeFrame(from: start, count: frameSize, write: write)
            start += frameSize * channels
        }
        if start > 0 { buffer.removeFirst(start) }
    }

    /// Sends the remaining samples and flushes the encoder.
    func finish(write: (UnsafeMutablePointer<AVPacket>) throws -> Void) throws {
        let left = buffer.count / channels
        if left > 0 {
            if !acceptsShortLastFrame {
                buffer.append(contentsOf: repeatElement(0, count: (frameSize - left) * channels))
            }
            try encodeFrame(from: 0, count: acceptsShortLastFrame ? left : frameSize, write: write)
            buffer.removeAll()
        }
        try send(nil, write: write)
    }

    private func encodeFrame(from start: Int, count: Int, write: (UnsafeMutablePointer<AVPacket>) throws -> Void) throws {
        guard let frame else { return }
        var status = av_frame_make_writable(frame)
        if status < 0 { throw failure("making the audio frame writable", status) }
        frame.pointee.nb_samples = Int32(count)
        let format = AVSampleFormat(rawValue: frame.pointee.format)
        buffer.withUnsafeBufferPointer { source in
            let s = source.baseAddress! + start
            switch format {
            case AV_SAMPLE_FMT_FLTP:
                for c in 0..<channels {
                    let plane = UnsafeMutableRawPointer(frame.pointee.extended_data[c]!).assumingMemoryBound(to: Float.self)
                    for i in 0..<count { plane[i] = s[i * channels + c] }
                }
            case AV_SAMPLE_FMT_S16:
                let plane = UnsafeMutableRawPointer(frame.pointee.extended_data[0]!).assumingMemoryBound(to: Int16.self)
                for i in 0..<(count * channels) { plane[i] = Int16(max(-32768, min(32767, (s[i] * 32767).rounded()))) }
            default: // AV_SAMPLE_FMT_FLT
                let plane = UnsafeMutableRawPointer(frame.pointee.extended_data[0]!).assumingMemoryBound(to: Float.self)
                for i in 0..<(count * channels) { plane[i] = s[i] }
            }
        }
        frame.pointee.pts = nextPTS
        nextPTS += Int64(count)
        status = 0
        try send(frame, write: write)
    }

    private func send(_ frame: UnsafeMutablePointer<AVFrame>?, write: (UnsafeMutablePointer<AVPacket>) throws -> Void) throws {
        guard let context, let packet, let stream else { return }
        var status = avcodec_send_frame(context, frame)
        if status < 0 { throw failure("sending audio to the encoder (avcodec_send_frame)", status) }
        while true {
            status = avcodec_receive_packet(context, packet)
            if status == strata_averror_eagain() || status == strata_averror_eof() { return }
            if status < 0 { throw failure("encoding audio (avcodec_receive_packet)", status) }
            packet.pointee.stream_index = stream.pointee.index
            av_packet_rescale_ts(packet, context.pointee.time_base, stream.pointee.time_base)
            try write(packet)
        }
    }

    private static func preferredFormat(of codec: UnsafePointer<AVCodec>) -> AVSampleFormat {
        var formats: [AVSampleFormat] = []
        if var p = codec.pointee.sample_fmts {
            while p.pointee != AV_SAMPLE_FMT_NONE { formats.append(p.pointee); p += 1 }
        }
        for preferred in [AV_SAMPLE_FMT_FLTP, AV_SAMPLE_FMT_FLT, AV_SAMPLE_FMT_S16] where formats.contains(preferred) {
            return preferred
        }
        return formats.first ?? AV_SAMPLE_FMT_FLTP
    }

    private func failure(_ operation: String, _ status: Int32) -> MediaError {
        .libraryFailure(path: path, operation: operation, reason: FFmpegSupport.errorString(status))
    }
}
