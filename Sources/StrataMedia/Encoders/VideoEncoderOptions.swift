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
        /// AV1 through SVT-AV1 (or libaom when SVT-AV1 is missing) (MP4, WebM).
        case av1
        /// Animated WebP through libwebp (the `.webp` container only); see `webp` for its settings.
        case webp

        /// The codec's name.
        public var description: String { rawValue }

        /// Whether this FFmpeg build has the codec's encoder.
        public var isAvailable: Bool { avcodec_find_encoder_by_name(encoderName) != nil }

        /// Whether this FFmpeg build's encoder for the codec takes `pixelFormat` (its list of
        /// pixel formats; the RGB layouts are WebP's only). False when the encoder is missing.
        public func supports(_ pixelFormat: PixelFormat) -> Bool {
            if self == .webp || pixelFormat.isRGB { return self == .webp && pixelFormat.isRGB }
            guard let encoder = avcodec_find_encoder_by_name(encoderName) else { return false }
            guard var formats = encoder.pointee.pix_fmts else { return true }
            let wanted = pixelFormat.avPixelFormat
            while formats.pointee != AV_PIX_FMT_NONE {
                if formats.pointee == wanted { return true }
                formats += 1
            }
            return false
        }

        /// The containers that can hold the codec: MP4 (H.264, HEVC, VP9, AV1), MOV (H.264,
        /// HEVC, ProRes), WebM (VP9, AV1), WebP (WebP).
        public var containers: [ContainerFormat] {
            switch self {
            case .h264, .hevc: return [.mp4, .mov]
            case .vp9, .av1: return [.mp4, .webm]
            case .prores: return [.mov]
            case .webp: return [.webp]
            }
        }

        /// The FFmpeg encoder that implements the codec.
        var encoderName: String {
            switch self {
            case .h264: return "libx264"
            case .hevc: return "libx265"
            case .vp9: return "libvpx-vp9"
            case .prores: return "prores_ks"
            case .av1: return avcodec_find_encoder_by_name("libsvtav1") != nil ? "libsvtav1" : "libaom-av1"
            case .webp: return "libwebp_anim"
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
        /// 8-bit RGB, opaque (WebP: libwebp converts to its own YUV); frames composited over black.
        case rgb
        /// 8-bit RGB with straight alpha (WebP with transparency).
        case rgba

        /// The format's name (FFmpeg spelling without the endianness suffix).
        public var description: String { rawValue }

        /// True for the RGB layouts (WebP only).
        public var isRGB: Bool { self == .rgb || self == .rgba }

        /// True when the format stores an alpha plane (frames are un-premultiplied on the way in).
        public var hasAlpha: Bool { self == .yuva420p || self == .yuva444p10 || self == .rgba }

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
            case .rgb, .rgba: return AV_PIX_FMT_BGRA
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
    /// Frames between keyframes; nil (the default) means two seconds' worth of frames. Each
    /// interval is a closed GOP encoded from a fresh codec state, at frame numbers that are
    /// multiples of the interval, so chunks of a video rendered apart (`firstFrameIndex`) that
    /// start on such a multiple encode exactly as the same frames of a whole render.
    public var keyframeInterval: Int?
    /// Threads of the H.264, HEVC and VP9 encoders: 3 by default, whatever the machine. Fixed on
    /// purpose: x264 and libvpx produce different pictures with different thread counts, and
    /// chunks rendered on different machines must encode alike (1...64). Three is what x264 picks
    /// for itself on 2 cores (1.5 a core); at 1080p each thread past it holds about 20 MiB more of
    /// x264's frames for no speed on such machines (docs/performance.md, "Where an H.264 export's
    /// peak memory goes"). AV1, ProRes and WebP keep their libraries' automatic threading.
    public var encoderThreads: Int = 3
    /// Frames the H.264 encoder looks ahead to choose frame types and to spread bits by how long
    /// a block stays visible (x264's `rc-lookahead`, 0...250); nil (the default) keeps the
    /// preset's own (40 for medium). x264 holds each frame it looks ahead at together with a
    /// quarter-size copy, about 3.2 bytes a pixel (6.6 MB a frame at 1920×1080), so this is most
    /// of its memory: `strata batch` caps it (see `BatchOptions.lookahead`). Other codecs keep
    /// their own.
    public var lookahead: Int?
    /// Average bit rate in bits per second; when set it replaces constant quality (`crf` is ignored).
    public var bitrate: Int?
    /// Settings of the WebP codec.
    public var webp = WebP()

    /// Settings of animated WebP output.
    public struct WebP: Sendable, Equatable {
        /// libwebp quality, 0...100 (with `lossless`, the compression effort); 85 by default.
        public var quality: Int
        /// Lossless (VP8L) frames; false by default.
        public var lossless: Bool
        /// Times the animation plays: 0 loops forever (the default), n plays it n times.
        public var loopCount: Int
        /// WebP settings with these values (quality 85, lossy, looping forever by default).
        public init(quality: Int = 85, lossless: Bool = false, loopCount: Int = 0) {
            self.quality = quality
            self.lossless = lossless
            self.loopCount = loopCount
        }
    }

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

    /// The default options for a container: VP9 for WebM, WebP for WebP, H.264 otherwise.
    public static func recommended(for format: ContainerFormat) -> VideoEncoderOptions {
        VideoEncoderOptions().adapted(to: format)
    }

    /// These options with the codec (and pixel format) changed where the container cannot hold
    /// them: H.264/HEVC/ProRes in WebM become VP9 (CRF c → round(1.6·c + 2), so 18 → 31, about the
    /// same quality), anything in `.webp` becomes WebP, WebP elsewhere becomes H.264. Combinations
    /// the container can hold are kept as they are.
    public func adapted(to format: ContainerFormat) -> VideoEncoderOptions {
        var o = self
        switch format {
        case .webm where codec == .h264 || codec == .hevc || codec == .prores:
            o.codec = .vp9
            o.crf = min(63, Int((1.6 * Double(crf) + 2).rounded()))
            if o.pixelFormat == .yuva444p10 { o.pixelFormat = .yuva420p }
        case .webp:
            o.codec = .webp
            if !o.pixelFormat.isRGB { o.pixelFormat = o.pixelFormat.hasAlpha ? .rgba : .rgb }
        case .mp4 where codec == .webp, .mov where codec == .webp:
            o.codec = .h264
            if o.pixelFormat.isRGB { o.pixelFormat = .yuv420p }
        default:
            break
        }
        return o
    }

    /// The keyframe interval used at `frameRate`: the explicit one, or round(2 s × fps), at least 1.
    public func resolvedKeyframeInterval(frameRate: FrameRate) -> Int {
        if let keyframeInterval { return keyframeInterval }
        let twoSeconds = (2 * frameRate.numerator + frameRate.denominator / 2) / frameRate.denominator
        return max(1, twoSeconds)
    }
}
