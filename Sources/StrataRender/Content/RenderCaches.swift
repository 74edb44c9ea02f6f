// What the renderer keeps between frames, one owner for a scene's renderers: backing stores keyed
// by (content, scale) — moving, rotating or fading a layer re-composites its cached bitmap; only a
// change of the content itself, or of the scale it is shown at, rasterises again — evicted least
// recently used first past a memory cap and when two frames did not use them; rasterised
// subtrees; and what text and shapes drawn straight into the tiles reuse (shaped text, glyph
// masks, gradient ramps), tiled layers' tiles and the last display list build's records.
import Foundation
import Synchronization
import StrataCore

/// The caches a renderer keeps between frames (thread-safe).
public final class RenderCaches: Sendable {
    struct Key: Hashable, Sendable {
        let content: LayerContent
        let layerBounds: CGRect
        let scale: Double
    }
    /// A rasterised subtree (shouldRasterize): its appearance, independent of where it is shown.
    struct SubtreeKey: Hashable, Sendable {
        let subtree: LayerSnapshot
        let scale: Double
    }
    struct State {
        /// Both by the frame they were last used in (generations); backing stores by bytes too.
        var subtrees = LRUCache<SubtreeKey, RasterizedContent>()
        var entries = LRUCache<Key, RasterizedContent>()
        /// Content that rasterises to nothing (an empty path or string, an area too large), so
        /// that the content stage is not asked for it frame after frame.
        var nothingToDraw = LRUCache<Key, Bool>()
        var hits = 0, misses = 0
    }
    private let state = Mutex(State())
    private let capacityBytes: Atomic<Int>
    /// The backing stores' memory cap in bytes (default 512 MiB); lowering it evicts at the next store.
    public var capacity: Int {
        get { capacityBytes.load(ordering: .relaxed) }
        set { capacityBytes.store(max(0, newValue), ordering: .relaxed) }
    }

    /// Shaped text, by content and bounds size.
    let shaper = TextShaper()
    /// Glyph coverage masks.
    let glyphs = GlyphCache()
    /// Gradients' colour ramps.
    let gradientRamps = GradientRamps()
    /// The drawn tiles of tiled layers: a pool of their own with its own cap.
    public let tiledLayerTiles = TiledLayerTileCache()
    /// The number of draw items in the last display list built: the next one is reserved at it.
    let itemCountHint = Atomic<Int>(0)
    /// What the last display list built left for the next (BuildRecords).
    let lastBuild = Mutex<BuildRecords?>(nil)

    /// Empty caches whose backing stores may hold at most `capacity` bytes (512 MiB by default).
    public init(capacity: Int = 512 << 20) { capacityBytes = Atomic(capacity) }

    /// The cached backing store, rasterising it on a miss.
    public func raster(for content: LayerContent, layerBounds: CGRect, scale: Double) -> RasterizedContent? {
        let key = Key(content: content, layerBounds: layerBounds, scale: scale)
        if let hit = state.withCheckedLock({ s -> RasterizedContent? in
            guard let r = s.entries.value(for: key) else { return nil }
            s.hits += 1
            return r
        }) { return hit }
        guard let r = ContentRasterizer.rasterize(content, layerBounds: layerBounds, scale: scale) else { return nil }
        state.withCheckedLock { s in
            s.misses += 1
            s.entries.insert(r, for: key, bytes: r.bitmap.pixels.count)
            s.entries.evict(toFit: self.capacity, sparing: { $0 == key })
        }
        return r
    }

    /// The cached backing store, or nil when it is not cached (nothing is rasterised).
    func cachedRaster(for content: LayerContent, layerBounds: CGRect, scale: Double) -> RasterizedContent? {
        let key = Key(content: content, layerBounds: layerBounds, scale: scale)
        return state.withCheckedLock { s -> RasterizedContent? in
            guard let r = s.entries.value(for: key) else { return nil }
            s.hits += 1
            return r
        }
    }

    /// Records that `content` rasterises to nothing at this scale (`rasterizesToNothing`).
    func noteNothingToDraw(_ content: LayerContent, layerBounds: CGRect, scale: Double) {
        let key = Key(content: content, layerBounds: layerBounds, scale: scale)
        state.withCheckedLock { s in
            s.nothingToDraw.insert(true, for: key, bytes: 1)     // a count, at most 4 096 kept
            s.nothingToDraw.evict(toFit: 4096)
        }
    }

    /// Whether `content` was found to rasterise to nothing at this scale in this frame or the
    /// one before.
    func rasterizesToNothing(_ content: LayerContent, layerBounds: CGRect, scale: Double) -> Bool {
        let key = Key(content: content, layerBounds: layerBounds, scale: scale)
        return state.withCheckedLock { $0.nothingToDraw.value(for: key) ?? false }
    }

    /// The cached bitmap of a subtree, or nil when it is not cached (nothing is drawn).
    func cachedSubtree(_ snapshot: LayerSnapshot, scale: Double) -> RasterizedContent? {
        let key = SubtreeKey(subtree: snapshot, scale: scale)
        return state.withCheckedLock { s -> RasterizedContent? in
            guard let r = s.subtrees.value(for: key) else { return nil }
            s.hits += 1
            return r
        }
    }

    /// The cached bitmap of a subtree, drawing it with `make` on a miss. Kept while used in
    /// consecutive frames, like content backing stores.
    public func subtree(_ snapshot: LayerSnapshot, scale: Double, make: () -> RasterizedContent?) -> RasterizedContent? {
        let key = SubtreeKey(subtree: snapshot, scale: scale)
        if let hit = state.withCheckedLock({ s -> RasterizedContent? in
            guard let r = s.subtrees.value(for: key) else { return nil }
            s.hits += 1
            return r
        }) { return hit }
        guard let r = make() else { return nil }
        state.withCheckedLock { s in
            s.misses += 1
            s.subtrees.insert(r, for: key)
        }
        return r
    }

    /// Ends a frame: backing stores not used in this frame or the previous one are dropped, so
    /// content that changes every frame (a ticking counter, a morphing path) does not pile up
    /// until the memory cap; content shown every frame stays.
    public func endFrame() {
        shaper.endFrame()
        gradientRamps.endFrame()
        state.withCheckedLock { s in
            s.subtrees.endGeneration()
            s.entries.endGeneration()
            s.nothingToDraw.endGeneration()
        }
    }

    /// Hits, misses and bytes held (for tests and benchmarks).
    public var statistics: (hits: Int, misses: Int, bytes: Int) {
        state.withCheckedLock { ($0.hits, $0.misses, $0.entries.bytes) }
    }
}

/// The former name of `RenderCaches`.
@available(*, deprecated, renamed: "RenderCaches")
public typealias BackingStoreCache = RenderCaches

/// What one display-list build leaves for the next: its fills, borders, gradients and images
/// (RepeatedOps.swift), the glyph masks it looked up (RecentGlyphs, GlyphCache.swift), and the
/// shapes and glyph runs it made, to be set up again once no frame holds them
/// (RecycledObjects.swift). Taken out of the cache for a build and put back after, so that one
/// build at a time holds them.
struct BuildRecords: Sendable {
    let ops = RepeatedOps()
    let glyphs = RecentGlyphs()
    let shapes = RecycledObjects<VectorShape>()
    let placedGlyphs = RecycledObjects<PlacedGlyphs>()
    let faceLists = SpareFaceLists()
    let itemLists = SpareItemLists()

    /// Starts a build.
    func begin() {
        // First: a list's storage given back lets go of its items, whose shapes and glyph runs
        // may then be free too.
        itemLists.begin()
        ops.begin()
        shapes.begin()
        placedGlyphs.begin()
    }

    /// Ends a build.
    func end() { ops.end() }
}
