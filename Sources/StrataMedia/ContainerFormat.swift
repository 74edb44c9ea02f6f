// The output containers Strata writes. The format is always chosen explicitly (the export stage
// writes to a temporary name and renames it afterwards), so the encoders never guess it from a
// file name; `init?(pathExtension:)` is the one place where an extension becomes a format.
import Foundation

/// A media container Strata can write.
public enum ContainerFormat: String, Sendable, CaseIterable, CustomStringConvertible {
    /// MPEG-4 Part 14 (`.mp4`, `.m4v`).
    case mp4
    /// QuickTime (`.mov`, `.qt`).
    case mov
    /// WebM, Matroska for VP8/VP9/AV1 (`.webm`).
    case webm
    /// Animated GIF (`.gif`), written by `GIFEncoder` rather than FFmpeg.
    case gif
    /// Animated WebP (`.webp`), written by libwebp through FFmpeg.
    case webp

    /// The format for a file extension such as `"mp4"` or `"MOV"` (no dot); nil when unknown.
    public init?(pathExtension: String) {
        switch pathExtension.lowercased() {
        case "mp4", "m4v": self = .mp4
        case "mov", "qt": self = .mov
        case "webm": self = .webm
        case "gif": self = .gif
        case "webp": self = .webp
        default: return nil
        }
    }

    /// The usual file extension, without a dot.
    public var pathExtension: String { rawValue }

    /// True for the formats `VideoEncoder` writes (everything but GIF).
    public var isVideo: Bool { self != .gif }

    /// True for the containers that can carry an audio track.
    public var carriesAudio: Bool { self == .mp4 || self == .mov || self == .webm }

    /// The format's name.
    public var description: String { rawValue }

    /// The name as written in prose: "MP4", "MOV", "WebM", "GIF".
    var displayName: String {
        switch self {
        case .mp4: return "MP4"
        case .mov: return "MOV"
        case .webm: return "WebM"
        case .gif: return "GIF"
        case .webp: return "WebP"
        }
    }

    /// The libavformat muxer that writes this container.
    var muxerName: String? {
        switch self {
        case .mp4: return "mp4"
        case .mov: return "mov"
        case .webm: return "webm"
        case .gif: return nil
        case .webp: return "webp"
        }
    }
}
