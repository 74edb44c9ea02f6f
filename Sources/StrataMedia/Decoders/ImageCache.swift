// Decoded images kept by file, so that an image used by many layers (or loaded again by a
// template per row) is decoded and stored once. The key is the resolved path plus the file's
// modification date and size: an edited file is decoded again. Bounded by a byte budget with
// least-recently-used eviction (LRUCache); an evicted image stays alive in the layers that hold it.
import Foundation
import Synchronization
import StrataCore

/// A thread-safe cache of decoded image files.
public final class ImageCache: Sendable {
    struct Key: Hashable, Sendable {
        let path: String
        let modified: Date?
        let size: Int?
    }
    struct State {
        var entries = LRUCache<Key, CGImage>()
        var hits = 0
        var decodes = 0
    }

    /// The cache `CGImage.load(contentsOf:)` uses outside a scene, and scenes whose
    /// `limits.imageCacheBytes` is the default share (each checking its own image size).
    public static let shared = ImageCache()

    private let state = Mutex(State())
    private let capacityBytes: Atomic<Int>
    private let pixelSizeLimit: Atomic<Int>
    /// The most bytes of pixels kept (default 1 GiB).
    public var capacity: Int {
        get { capacityBytes.load(ordering: .relaxed) }
        set { capacityBytes.store(max(0, newValue), ordering: .relaxed) }
    }
    /// The largest width or height of an image `image(contentsOf:)` returns (the decoder's limit
    /// unless set); a scene passes its own instead (`image(contentsOf:maximumPixelSize:)`).
    public var maximumPixelSize: Int {
        get { pixelSizeLimit.load(ordering: .relaxed) }
        set { pixelSizeLimit.store(max(1, newValue), ordering: .relaxed) }
    }
    /// The decoder used on a miss.
    public let decoder: ImageDecoder

    /// A cache holding up to `capacity` bytes of pixels.
    public init(capacity: Int = 1 << 30, decoder: ImageDecoder = ImageDecoder()) {
        capacityBytes = Atomic(capacity)
        pixelSizeLimit = Atomic(decoder.maximumPixelSize)
        self.decoder = decoder
    }

    /// The image in the file at `url`, decoded on first use (and again after the file changes).
    /// Throws `MediaError.cannotRead` naming the file.
    public func image(contentsOf url: URL) throws -> CGImage {
        try image(contentsOf: url, maximumPixelSize: maximumPixelSize)
    }

    /// The image in the file at `url`, refused when it is larger than `maximumPixelSize` a side
    /// (instead of this cache's `maximumPixelSize`) — also when it is already here, decoded for a
    /// caller with a larger limit (a scene's own limit, `MediaContext`). Throws
    /// `MediaError.cannotRead` naming the file.
    public func image(contentsOf url: URL, maximumPixelSize: Int) throws -> CGImage {
        let limit = max(1, maximumPixelSize)
        let resolved = url.standardizedFileURL.resolvingSymlinksInPath()
        let attributes = try? FileManager.default.attributesOfItem(atPath: resolved.path)
        let key = Key(path: resolved.path, modified: attributes?[.modificationDate] as? Date,
                      size: (attributes?[.size] as? NSNumber)?.intValue)
        if let hit = state.withCheckedLock({ s -> CGImage? in
            guard let image = s.entries.value(for: key) else { return nil }
            s.hits += 1
            return image
        }) {
            guard hit.width <= limit, hit.height <= limit else {
                // The decoder's own words for an image over its limit.
                throw MediaError.cannotRead(path: url.path, reason: "the image is \(hit.width)×\(hit.height) pixels; at most \(limit) per side is allowed")
            }
            return hit
        }
        var decoder = self.decoder
        decoder.maximumPixelSize = limit
        let decoded = try decoder.decode(contentsOf: url)
        return state.withCheckedLock { s in
            // Another thread may have decoded the same file meanwhile: keep one image.
            if let image = s.entries.value(for: key) { return image }
            s.decodes += 1
            s.entries.insert(decoded, for: key, bytes: decoded.bitmap.pixels.count)
            s.entries.evict(toFit: self.capacity, sparing: { $0 == key })
            return decoded
        }
    }

    /// Forgets every image.
    public func removeAll() {
        state.withCheckedLock { $0.entries.removeAll() }
    }

    /// Decodes, hits, images and bytes held (for tests and benchmarks).
    public var statistics: (decodes: Int, hits: Int, images: Int, bytes: Int) {
        state.withCheckedLock { ($0.decodes, $0.hits, $0.entries.count, $0.entries.bytes) }
    }
}
