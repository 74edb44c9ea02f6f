// Resource limits: what a scene may ask for before Strata refuses with an error naming the limit
// and how to raise it (`Scene.limits`, or `--limit NAME=VALUE` on the command line). They keep
// an unattended batch — templates and data from elsewhere — from asking for a 100 000-pixel frame,
// ten million layers or a gigabyte string and taking the machine down with it.
import Foundation
import StrataCore
import StrataMedia

/// The limits a scene is rendered under.
public struct SceneLimits: Sendable, Equatable {
    /// The largest frame width or height, in pixels.
    public var pixelSize = 16_384
    /// The most frames one render may have (duration × fps): 10 hours at 30 fps.
    public var frames = 1_080_000
    /// The most layers one frame's tree may have (sublayers, masks, replicated instances).
    public var layers = 250_000
    /// The most characters of one text layer, counted as Unicode scalars: an accent or a joiner
    /// counts as one more, since shaping and drawing cost per scalar, not per visible character
    /// (`"a"` followed by 100 000 combining accents is one character and took 88 s a frame).
    public var textLength = 200_000
    /// The most Unicode scalars of one character (grapheme cluster) of text: a letter with its
    /// accents, an emoji sequence. Checked in text layers and text parameters: a template's
    /// `maxLength` counts characters, and without this bound one "character" may hold any
    /// number of combining marks.
    public var characterScalars = 32
    /// The most bytes of text and values one filled-in template may make (every string its
    /// expressions produce, counted in UTF-8): `forEach` over 100 000 items of
    /// `pad(x, 100000)` asked for 10 GB while staying under the count of values.
    public var expansionBytes = 64 << 20
    /// The most timeline steps a composition's timelines run once loops are unrolled (each pass
    /// of a loop counts its steps again): a `loop` with `count: 1000000000` is refused at once.
    public var timelineSteps = 1_000_000
    /// The largest data file read (`--data`, a batch's rows, a template's CSV, JSON or caption
    /// parameter), in bytes.
    public var dataFileBytes = 64 << 20
    /// The longest single value (a CSV field, a JSON string) of a data file, in bytes.
    public var dataValueBytes = 1 << 20
    /// The most particles alive at once in one emitter layer.
    public var particles = SnapshotLimits().particles  // 200 000 (the default lives with the layers)
    /// The most instances one replicator layer makes (its `instanceCount`; nested replicators
    /// multiply, and the product is bounded by `layers`).
    public var replicatorInstances = SnapshotLimits().replicatorInstances  // 100 000
    /// The largest width or height of a decoded image file, in pixels (a 16 384² image is 1 GiB).
    public var imageSize = 16_384
    /// The largest width or height of a video file's frames, in pixels.
    public var videoSize = 16_384
    /// The most bytes of decoded images kept for reuse: the default shares the process's image
    /// cache (`ImageCache.shared`); another value gives the scene a cache of that size of its own.
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

    /// The default limits.
    public init() {}

    /// The names `--limit NAME=VALUE` takes, with what each means and its unit.
    public static var names: [(name: String, keyPath: WritableKeyPath<SceneLimits, Int>, meaning: String)] { [
        ("pixel-size", \.pixelSize, "the largest frame width or height in pixels"),
        ("frames", \.frames, "the most frames of one render (duration × fps)"),
        ("layers", \.layers, "the most layers in one frame"),
        ("text-length", \.textLength, "the most characters of one text layer, in Unicode scalars (an accent counts one)"),
        ("character-scalars", \.characterScalars, "the most Unicode scalars of one character (a letter and its accents)"),
        ("expansion-mb", \.expansionBytes, "MiB of text a filled-in template may make"),
        ("timeline-steps", \.timelineSteps, "the most timeline steps of a composition, loops unrolled"),
        ("data-mb", \.dataFileBytes, "MiB of one data file (--data, batch rows, CSV/JSON parameters)"),
        ("data-value-kb", \.dataValueBytes, "KiB of one value of a data file"),
        ("particles", \.particles, "the most live particles of one emitter"),
        ("instances", \.replicatorInstances, "the most instances of one replicator"),
        ("image-size", \.imageSize, "the largest decoded image width or height in pixels"),
        ("video-size", \.videoSize, "the largest video frame width or height in pixels"),
        ("image-cache-mb", \.imageCacheBytes, "MiB of decoded images kept"),
        ("backing-store-mb", \.backingStoreBytes, "MiB of rasterised content kept"),
        ("history", \.historyChanges, "the most recorded model changes kept to go back in time"),
    ] }

    /// Sets the limit `name` (one of `names`) from `value` (a whole number ≥ 1; MiB for the
    /// `-mb` ones, KiB for the `-kb` ones).
    public mutating func set(_ name: String, to value: String) throws {
        guard let entry = Self.names.first(where: { $0.name == name }) else {
            throw SceneError.limitExceeded("unknown limit \"\(name)\" (limits: \(Self.names.map(\.name).joined(separator: ", ")))")
        }
        guard let n = Int(value.trimmingCharacters(in: .whitespaces)), n >= 1 else {
            throw SceneError.limitExceeded("limit \(name)=\(value): expected a whole number ≥ 1")
        }
        let megabytes = name.hasSuffix("-mb"), kilobytes = name.hasSuffix("-kb")
        guard !megabytes || n <= 1 << 20 else { throw SceneError.limitExceeded("limit \(name)=\(value): at most \(1 << 20) MiB") }
        guard !kilobytes || n <= 1 << 30 else { throw SceneError.limitExceeded("limit \(name)=\(value): at most \(1 << 30) KiB") }
        self[keyPath: entry.keyPath] = megabytes ? n << 20 : kilobytes ? n << 10 : n
    }

    /// The value of limit `name` as `--limit` takes it (MiB for the `-mb` ones, KiB for the
    /// `-kb` ones), for messages.
    public func text(of name: String) -> String {
        guard let entry = Self.names.first(where: { $0.name == name }) else { return "?" }
        let v = self[keyPath: entry.keyPath]
        return name.hasSuffix("-mb") ? "\(v >> 20) MiB" : name.hasSuffix("-kb") ? "\(v >> 10) KiB" : "\(v)"
    }

    /// The image and video frame sizes media is decoded under (`Scene.mediaContext` carries them
    /// to the decoders).
    public var mediaLimits: MediaLimits { MediaLimits(imageSize: imageSize, videoSize: videoSize) }

    /// A media context for these limits: the shared image cache when `imageCacheBytes` is the
    /// default (so scenes of one process decode a file once), else a cache of that size of its
    /// own. Each decode is checked against `imageSize` whichever cache holds the image.
    public func makeMediaContext() -> MediaContext {
        if mediaLimits == MediaLimits(), imageCacheBytes == SceneLimits.defaultImageCacheBytes { return Self.defaultMediaContext }
        return MediaContext(limits: mediaLimits, images: imageCacheBytes == SceneLimits.defaultImageCacheBytes
                                ? .shared : ImageCache(capacity: imageCacheBytes))
    }

    /// The context of scenes with the default limits (immutable; its cache is `ImageCache.shared`).
    private static let defaultMediaContext = MediaContext()
    private static let defaultImageCacheBytes = SceneLimits().imageCacheBytes

    /// Sets the image size and cache of `ImageCache.shared` and the deprecated process-wide video
    /// size: what decoders opened outside any scene use. Scenes do not need it: each decodes
    /// under its own `limits` (`Scene.mediaContext`).
    @available(*, deprecated, message: "scenes decode under their own Scene.limits; set them there")
    public func applyToDecoders() {
        ImageCache.shared.maximumPixelSize = imageSize
        ImageCache.shared.capacity = imageCacheBytes
        MediaLimits.maximumVideoSize = videoSize
    }

    /// The message of a limit that was exceeded.
    static func exceeded(_ what: String, limit: Int, name: String) -> SceneError {
        .limitExceeded("\(what): over the limit of \(limit) (raise it with --limit \(name)=N, or Scene.limits)")
    }

    /// The same, as text: "…: over the limit of 64 MiB (raise it with --limit expansion-mb=N)".
    public func exceededMessage(_ what: String, name: String) -> String {
        "\(what): over the limit of \(text(of: name)) (raise it with --limit \(name)=N)"
    }

    /// The limits a snapshot's layers read.
    var snapshotLimits: SnapshotLimits {
        SnapshotLimits(particles: particles, replicatorInstances: replicatorInstances, textScalars: textLength,
                       characterScalars: characterScalars)
    }
}
