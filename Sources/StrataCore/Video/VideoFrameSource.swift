// The seam between the player model (here, Foundation only) and the decoders (StrataMedia,
// FFmpeg). A player item asks the registry for a `VideoFrameSource` for its URL the first time it
// needs one (its duration, a frame); StrataMedia supplies the implementation. Core never imports
// a codec: the registry holds a factory that a higher module installs explicitly. The `Strata`
// target installs the FFmpeg decoder when a `Scene` is made (and before any export); code that
// uses StrataCore directly installs its own factory (tests install fakes) with
// `VideoFrameSources.register(_:)`. Until a factory is installed, items report `noDecoder` and try
// again later (it is not the file's fault).
import Foundation
import Synchronization

/// A size in whole pixels.
public struct PixelSize: Hashable, Sendable, CustomStringConvertible {
    /// The width in pixels.
    public var width: Int
    /// The height in pixels.
    public var height: Int
    /// A size of `width` × `height` pixels.
    public init(width: Int, height: Int) { self.width = width; self.height = height }
    public var description: String { "\(width)×\(height)" }
}

/// A decoded media file that player items read: its timeline and its video frames.
///
/// Times are item times in seconds: 0 is the start of the media. Implementations are thread-safe
/// (the renderer asks from the scene's thread while a decoder thread reads ahead).
public protocol VideoFrameSource: AnyObject, Sendable {
    /// The file.
    var url: URL { get }
    /// The item's length: the end of the last video frame, or of the longest stream.
    var duration: Double { get }
    /// The size the video is shown at, in pixels with square pixels: the sample aspect ratio and
    /// the rotation metadata applied. Zero without video.
    var naturalSize: PixelSize { get }
    /// Whether the file has a video stream.
    var hasVideo: Bool { get }
    /// Whether the file has an audio stream.
    var hasAudio: Bool { get }
    /// The number of video frames.
    var frameCount: Int { get }
    /// The index of the frame whose presentation interval contains `itemTime` (clamped to the
    /// first and last frame), or nil without video.
    func frameIndex(atItemTime itemTime: Double) -> Int?
    /// Frame `index` as RGBA at `size` pixels (nil: `naturalSize`), upright.
    func image(forFrame index: Int, size: PixelSize?) throws -> CGImage
}

/// The installed factory of video frame sources.
public enum VideoFrameSources {
    /// Opens a media file as a frame source, throwing when the file cannot be read or decoded.
    public typealias Factory = @Sendable (URL) throws -> VideoFrameSource

    private static let state = RegistryState()

    /// Installs `factory` for every player item opened from now on.
    public static func register(_ factory: @escaping Factory) {
        state.withCheckedLock { $0 = factory }
    }

    /// Installs `factory` unless one is installed already (how `import Strata` installs FFmpeg
    /// without replacing a factory the program chose).
    public static func registerDefault(_ factory: @escaping Factory) {
        state.withCheckedLock { if $0 == nil { $0 = factory } }
    }

    /// Whether a factory is installed.
    public static var isAvailable: Bool { (try? resolvedFactory()) != nil }

    /// Opens `url` with the installed factory.
    public static func makeSource(url: URL) throws -> VideoFrameSource {
        try resolvedFactory()(url)
    }

    private static func resolvedFactory() throws -> Factory {
        guard let f = state.withCheckedLock({ $0 }) else { throw VideoSourceError.noDecoder }
        return f
    }
}

/// Errors of the player model itself (decoders report their own, naming the file).
public enum VideoSourceError: Error, CustomStringConvertible, Equatable {
    /// No decoder is installed: link StrataMedia (`import Strata`) or register a factory.
    case noDecoder

    public var description: String {
        switch self {
        case .noDecoder:
            return "no video decoder is installed: create a Scene (import Strata installs FFmpeg's then), or call VideoFrameSources.register(_:)"
        }
    }
}

/// A lock-protected optional factory.
private final class RegistryState: Sendable {
    private let factory = Mutex<VideoFrameSources.Factory?>(nil)
    func withCheckedLock<T: Sendable>(_ body: (inout VideoFrameSources.Factory?) -> T) -> T {
        factory.withCheckedLock { body(&$0) }
    }
}
