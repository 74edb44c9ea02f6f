// What media is decoded under: the largest image and video frame accepted (MediaLimits) and the
// cache decoded images are kept in. A scene owns one (`Scene.mediaContext`, made from
// `Scene.limits`) and hands it to every decoder it opens, so two scenes of one process with
// different limits refuse and accept files independently. Two paths cannot take it as an
// argument — a player item opened through the `VideoFrameSources` registry while the scene builds
// a snapshot, and `CGImage.load(contentsOf:)` in a scene's blocks — so the scene also installs its
// context on its thread while its code runs (`run(_:)`, a thread-local slot as the scene clock's).
// Outside any scene the defaults apply: 16 384 pixels a side, `ImageCache.shared`.
import Foundation
import Synchronization
import StrataCore

/// The largest media a decoder accepts, in pixels per side.
public struct MediaLimits: Sendable, Equatable {
    /// The largest width or height of a decoded image file (default 16 384: a 16 384² image is 1 GiB).
    public var imageSize: Int
    /// The largest video frame width or height (default 16 384): a file declaring bigger frames
    /// is refused when opened, before anything is decoded, and a stream that grows past it
    /// midway stops decoding with an error.
    public var videoSize: Int

    /// Limits of `imageSize` and `videoSize` pixels per side (values below 1 count as 1).
    public init(imageSize: Int = 16_384, videoSize: Int = 16_384) {
        self.imageSize = max(1, imageSize)
        self.videoSize = max(1, videoSize)
    }

    private static let processVideoSize = Atomic<Int>(16_384)

    /// The video frame limit of decoders opened outside any scene without limits of their own
    /// (default 16 384). Scenes no longer read it: set `Scene.limits.videoSize`, or pass
    /// `MediaLimits` to the decoder.
    @available(*, deprecated, message: "set Scene.limits.videoSize, or pass MediaLimits to the decoder: FFmpegVideoSource, MediaProbe and AudioDecoder take limits")
    public static var maximumVideoSize: Int {
        get { processVideoSize.load(ordering: .relaxed) }
        set { processVideoSize.store(max(1, newValue), ordering: .relaxed) }
    }

    /// The limits a decoder opened without limits of its own uses: those of the scene whose code
    /// runs on this thread (`MediaContext.run`), or else the defaults (with the deprecated
    /// process-wide video size).
    static var inForce: MediaLimits {
        MediaContext.current?.limits ?? MediaLimits(videoSize: processVideoSize.load(ordering: .relaxed))
    }
}

/// The limits media is decoded under and the cache decoded images are kept in: one scene's
/// (`Scene.mediaContext`), or a program's own.
///
/// ```swift
/// let strict = MediaContext(limits: MediaLimits(imageSize: 1024))
/// let logo = try strict.image(contentsOf: URL(fileURLWithPath: "logo.png"))  // refused when larger than 1024 px a side
/// ```
public final class MediaContext: Sendable {
    /// The largest image and video frame accepted.
    public let limits: MediaLimits
    /// Where decoded images are kept (`ImageCache.shared` unless the context was given its own).
    public let images: ImageCache

    /// A context refusing media over `limits`, keeping images in `images`.
    public init(limits: MediaLimits = MediaLimits(), images: ImageCache = .shared) {
        self.limits = limits
        self.images = images
    }

    /// The image in the file at `url`, decoded through `images` and refused (naming the file)
    /// when it is larger than `limits.imageSize` a side, even when another context decoded it.
    public func image(contentsOf url: URL) throws -> CGImage {
        try images.image(contentsOf: url, maximumPixelSize: limits.imageSize)
    }

    /// A video frame source for `url` whose frames may be at most `limits.videoSize` a side.
    public func videoSource(url: URL) throws -> FFmpegVideoSource {
        try FFmpegVideoSource(url: url, limits: limits)
    }

    private static let slot = ThreadLocalReference<MediaContext>()

    /// The context of the scene whose code runs on this thread, nil outside one.
    public static var current: MediaContext? { slot.current }

    /// Runs `body` with this context installed on the thread: player items first opened and
    /// images loaded with `CGImage.load(contentsOf:)` meanwhile are decoded under it.
    public func run<T>(_ body: () throws -> T) rethrows -> T {
        try Self.slot.with(self, body)
    }
}
