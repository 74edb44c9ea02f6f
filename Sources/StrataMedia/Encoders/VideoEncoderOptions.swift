// Settings for the video encoder stage: which codec, how much quality, which YUV layout, how often
// a keyframe. The defaults (H.264, CRF 18, preset medium, yuv420p, a keyframe every 2 s) give
// visually lossless motion graphics that play everywhere; `recommended(for:)` picks a codec that
// the container can hold (VP9 for WebM).
import Foundation
import CFFmpeg

/// How `VideoEncoder` compresses frames.
public struct VideoEncoderOptions: Sendable, Equatable {
    /// A video codec, each backed by one FFmpeg encoder.
    public enum Codec: String, Sendable, CaseIterable, CustomStringConvertible {
        /// H.264 / AVC through libx264: plays everywhere (MP4, MOV).
        case h264
        /// H.265 / HEVC through libx265, tagged `hvc1` so Apple players accept it (MP4, MOV).
        case hevc
        /// VP9 through libvpx-vp9 (WebM, MP4); `yuva420p` keeps alpha in WebM.
        case vp9
        /// Apple ProRes through prores_ks: intra-only, for editing (MOV); `crf`/`preset` do not apply.
        case prores

        /// The codec's name.
        public var description: String { rawValue }

        /// The FFmpeg encoder that implements the codec.
        var encoderName: String {
            switch self {
            case .h264: return "libx264"
            case .hevc: return "libx265"
            case .vp9: return "libvpx-vp9"
            case .prores: return "prores_ks"
            }
        }
    }

    /// The YUV layout of the encoded pictures.
    public enum PixelFormat: String, Sendable, CaseIterable, CustomStringConvertible {
        /// 8-bit 4:2:0, the universally playable choice; width and height must be even.
        case yuv420p
        /// 8-bit 4:2:2; width must be even.
        case yuv422p
        /// 8-bit 4:4:4, full-resolution colour (H.264 High 4:4:4, HEVC, VP9).
        case yuv444p
        /// 10-bit 4:2:0; width and height must be even.
        case yuv420p10
        /// 10-bit 4:2:2 (ProRes 422 HQ); width must be even.
        case yuv422p10
        /// 10-bit 4:4:4 (ProRes 4444 without alpha).
        case yuv444p10
        /// 8-bit 4:2:0 with alpha (VP9 in WebM); width and height must be even.
        case yuva420p
        /// 10-bit 4:4:4 with alpha (ProRes 4444).
        case yuva444p10

        /// The format's name (FFmpeg spelling without the endianness suffix).
        public var description: String { rawValue }

        /// True when the format stores an alpha plane (frames are un-premultiplied on the way in).
        public var hasAlpha: Bool { self == .yuva420p || self == .yuva444p10 }

        /// The libavutil pixel format.
        var avPixelFormat: AVPixelFormat {
            switch self {
            case .yuv420p: return AV_PIX_FMT_YUV420P
            case .yuv422p: return AV_PIX_FMT_YUV422P
            case .yuv444p: return AV_PIX_FMT_YUV444P
            case .yuv420p10: return AV_PIX_FMT_YUV420P10LE
            case .yuv422p10: return AV_PIX_FMT_YUV422P10LE
            case .yuv444p10: return AV_PIX_FMT_YUV444P10LE
            case .yuva420p: return AV_PIX_FMT_YUVA420P
            case .yuva444p10: return AV_PIX_FMT_YUVA444P10LE
            }
        }
    }

    /// The x264/x265 preset names, fastest first (also mapped onto VP9's `cpu-used`).
    public static let presets = ["ultrafast", "superfast", "veryfast", "faster", "fast",
                                 "medium", "slow", "slower", "veryslow", "placebo"]

    /// The codec; `.h264` by default.
    public var codec: Codec
    /// Constant-quality factor (lower is better; 0–51 for H.264/HEVC, 0–63 for VP9); 18 by default.
    public var crf: Int
    /// Speed/size trade-off, one of `presets`; `"medium"` by default.
    public var preset: String
    /// The encoded pixel layout; `.yuv420p` by default.
    public var pixelFormat: PixelFormat
    /// Frames between keyframes; nil (the default) means two seconds' worth of frames.
    public var keyframeInterval: Int?
    /// Average bit rate in bits per second; when set it replaces constant quality (`crf` is ignored).
    public var bitrate: Int?

    /// Options with the given values; every parameter has the visually-lossless default.
    public init(codec: Codec = .h264, crf: Int = 18, preset: String = "medium",
                pixelFormat: PixelFormat = .yuv420p, keyframeInterval: Int? = nil, bitrate: Int? = nil) {
        self.codec = codec
        self.crf = crf
        self.preset = preset
        self.pixelFormat = pixelFormat
        self.keyframeInterval = keyframeInterval
        self.bitrate = bitrate
    }

    /// The default options for a container: VP9 for WebM, H.264 otherwise.
    public static func recommended(for format: ContainerFormat) -> VideoEncoderOptions {
        format == .webm ? VideoEncoderOptions(codec: .vp9) : VideoEncoderOptions()
    }

    /// The keyframe interval used at `frameRate`: the explicit one, or round(2 s × fps), at least 1.
    public func resolvedKeyframeInterval(frameRate: FrameRate) -> Int {
        if let keyframeInterval { return keyframeInterval }
        let twoSeconds = (2 * frameRate.numerator + frameRate.denominator / 2) / frameRate.denominator
        return max(1, twoSeconds)
    }
}
