// Resource limits: what a scene may ask for before Strata refuses with an error naming the limit
// and how to raise it (`Scene.limits`, or `--limit NAME=VALUE` on the command line). They keep
// an unattended batch — templates and data from elsewhere — from asking for a 100 000-pixel frame,
// ten million layers or a gigabyte string and taking the machine down with it.
import Foundation
import StrataMedia

/// The limits a scene is rendered under.
public struct SceneLimits: Sendable, Equatable {
    /// The largest frame width or height, in pixels.
    public var pixelSize = 16_384
    /// The most frames one render may have (duration × fps): 10 hours at 30 fps.
    public var frames = 1_080_000
    /// The most layers one frame's tree may have (sublayers, masks, replicated instances).
    public var layers = 250_000
    /// The most characters of one text layer.
    public var textLength = 200_000
    /// The most particles alive at once in one emitter layer.
    public var particles = SnapshotLimits().particles  // 200 000 (the default lives with the layers)
    /// The most instances one replicator layer makes (its `instanceCount`; nested replicators
    /// multiply, and the product is bounded by `layers`).
    public var replicatorInstances = SnapshotLimits().replicatorInstances  // 100 000
    /// The largest width or height of a decoded image file, in pixels (a 16 384² image is 1 GiB).
    public var imageSize = 16_384
    /// The largest width or height of a video file's frames, in pixels.
    public var videoSize = 16_384
    /// The most bytes of decoded images kept for reuse (the process-wide image cache).
    public var imageCacheBytes = 1 << 30
    /// The most bytes of rasterised content kept between frames (per scene); the drawn tiles of
    /// tiled layers are kept in a pool of their own of half this.
    public var backingStoreBytes = 512 << 20
    /// The most recorded model changes a scene keeps to go back in time (each property a block
    /// sets is one; a 4×4 transform takes about 370 bytes). Past it the oldest blocks' changes
    /// are released — the model keeps them, but cannot show a time before them again — so a long
    /// render whose blocks change many properties every frame runs in flat memory: the standard
    /// motion scene makes 270 changes a frame, and keeps its last 6 s at 60 fps.
    public var historyChanges = 100_000

    public init() {}

    /// The names `--limit NAME=VALUE` takes, with what each means and its unit.
    public static var names: [(name: String, keyPath: WritableKeyPath<SceneLimits, Int>, meaning: String)] { [
        ("pixel-size", \.pixelSize, "the largest frame width or height in pixels"),
        ("frames", \.frames, "the most frames of one render (duration × fps)"),
        ("layers", \.layers, "the most layers in one frame"),
        ("text-length", \.textLength, "the most characters of one text layer"),
        ("particles", \.particles, "the most live particles of one emitter"),
        ("instances", \.replicatorInstances, "the most instances of one replicator"),
        ("image-size", \.imageSize, "the largest decoded image width or height in pixels"),
        ("video-size", \.videoSize, "the largest video frame width or height in pixels"),
        ("image-cache-mb", \.imageCacheBytes, "MiB of decoded images kept"),
        ("backing-store-mb", \.backingStoreBytes, "MiB of rasterised content kept"),
        ("history", \.historyChanges, "the most recorded model changes kept to go back in time"),
    ] }

    /// Sets the limit `name` (one of `names`) from `value` (a whole number ≥ 1; MiB for the
    /// `-mb` ones).
    public mutating func set(_ name: String, to value: String) throws {
        guard let entry = Self.names.first(where: { $0.name == name }) else {
            throw SceneError.limitExceeded("unknown limit \"\(name)\" (limits: \(Self.names.map(\.name).joined(separator: ", ")))")
        }
        guard let n = Int(value.trimmingCharacters(in: .whitespaces)), n >= 1 else {
            throw SceneError.limitExceeded("limit \(name)=\(value): expected a whole number ≥ 1")
        }
        let megabytes = name.hasSuffix("-mb")
        guard !megabytes || n <= 1 << 20 else { throw SceneError.limitExceeded("limit \(name)=\(value): at most \(1 << 20) MiB") }
        self[keyPath: entry.keyPath] = megabytes ? n << 20 : n
    }

    /// Applies the process-wide limits: decoded image size and cache to `ImageCache.shared`,
    /// which every scene of the process reads images through, and the video frame size to
    /// `MediaLimits`. Call it before building scenes.
    public func applyToDecoders() {
        ImageCache.shared.maximumPixelSize = imageSize
        ImageCache.shared.capacity = imageCacheBytes
        MediaLimits.maximumVideoSize = videoSize
    }

    /// The message of a limit that was exceeded.
    static func exceeded(_ what: String, limit: Int, name: String) -> SceneError {
        .limitExceeded("\(what): over the limit of \(limit) (raise it with --limit \(name)=N, or Scene.limits)")
    }
}
