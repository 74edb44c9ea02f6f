// Settings for the audio track of a video file: which codec (AAC for MP4/MOV, Opus for WebM by
// default), the sample rate and channel count every source is resampled to, and the bit rate.
import Foundation

/// How `VideoEncoder` encodes an audio track.
public struct AudioEncoderOptions: Sendable, Equatable {
    /// An audio codec, each backed by one FFmpeg encoder.
    public enum Codec: String, Sendable, CaseIterable, CustomStringConvertible {
        /// AAC-LC through FFmpeg's native encoder (MP4, MOV).
        case aac
        /// Opus through libopus (WebM; 48 kHz).
        case opus

        public var description: String { rawValue }

        var encoderName: String {
            switch self {
            case .aac: return "aac"
            case .opus: return "libopus"
            }
        }
    }

    /// The codec; nil picks the container's usual one (AAC, or Opus for WebM).
    public var codec: Codec?
    /// Output samples per second; 48 000 by default (Opus supports 48/24/16/12/8 kHz).
    public var sampleRate: Int
    /// Output channels: 1 or 2; 2 by default.
    public var channels: Int
    /// Bits per second; nil: 192 kb/s for AAC, 128 kb/s for Opus.
    public var bitrate: Int?

    /// Options with these values (the defaults: the container's usual codec, 48 kHz stereo, the
    /// codec's default bit rate).
    public init(codec: Codec? = nil, sampleRate: Int = 48_000, channels: Int = 2, bitrate: Int? = nil) {
        self.codec = codec
        self.sampleRate = sampleRate
        self.channels = channels
        self.bitrate = bitrate
    }

    /// The codec used in `format`.
    public func resolvedCodec(for format: ContainerFormat) -> Codec {
        codec ?? (format == .webm ? .opus : .aac)
    }

    /// The bit rate used for `codec`.
    func resolvedBitrate(_ codec: Codec) -> Int {
        bitrate ?? (codec == .aac ? 192_000 : 128_000)
    }
}
