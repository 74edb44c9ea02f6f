// The drawn tiles of `CATiledLayer`s, kept across frames. A frame asks for the tiles it shows;
// the missing ones are drawn on the dispatcher — each by one worker calling the layer's `draw(in:)`
// into a recording context whose clip box is the tile, then replaying the recording with Cairo
// into a bitmap of exactly the tile's pixels — and kept, least recently used first out, within
// a byte budget. A tile is never evicted during the frame that asked for it, so a frame whose
// visible tiles exceed the budget still draws (and then lets them go). The whole layer is never
// drawn at once: memory follows what the frames show, not the layer's size.
import Foundation
import Synchronization
import StrataCore

/// A thread-safe LRU cache of tiled-layer tiles.
public final class TiledLayerTileCache: Sendable {
    struct Key: Hashable, Sendable {
        let source: TiledLayerTileSource
        let version: Int
        let geometry: TiledLayerGeometry
        let tile: TileIndex
    }
    struct State {
        var entries = LRUCache<Key, RasterizedContent>()
        var drawn = 0, reused = 0
        var peakBytes = 0
    }
    private let state = Mutex(State())
    private let capacityBytes: Atomic<Int>

    /// Memory cap in bytes (default 256 MiB).
    public var capacity: Int {
        get { capacityBytes.load(ordering: .relaxed) }
        set { capacityBytes.store(max(0, newValue), ordering: .relaxed) }
    }

    /// An empty cache holding at most `capacity` bytes of tiles.
    public init(capacity: Int = 256 << 20) { capacityBytes = Atomic(capacity) }

    /// The bitmaps of `tiles` of `content` (in order; nil for a tile that draws nothing), the
    /// missing ones drawn by up to `workers` threads at once.
    func tiles(_ tiles: [TileIndex], of content: TiledContentSnapshot, workers: Int) -> [RasterizedContent?] {
        let keys = tiles.map { Key(source: content.source, version: content.version, geometry: content.geometry, tile: $0) }
        var found: [RasterizedContent?] = state.withCheckedLock { s in
            keys.map { k in
                guard let raster = s.entries.value(for: k) else { return nil }
                s.reused += 1
                return raster
            }
        }
        let missing = found.indices.filter { found[$0] == nil }
        guard !missing.isEmpty else { return found }
        // Draw the missing tiles on the renderer's dispatcher (its worker pool), a job a tile.
        let results = Mutex([Int: RasterizedContent?]())
        let geometry = content.geometry, source = content.source
        RenderOptions(workers: workers).dispatcher.run(missing.count, ClosureJobs { j in
            let raster = TiledLayerTileCache.draw(tiles[missing[j]], geometry: geometry, source: source)
            results.withCheckedLock { $0[j] = raster }
        })
        let drawn = results.withCheckedLock { $0 }
        state.withCheckedLock { s in
            for (j, i) in missing.enumerated() {
                let raster = drawn[j] ?? nil
                found[i] = raster
                s.drawn += 1
                if let raster { s.entries.insert(raster, for: keys[i], bytes: raster.bitmap.pixels.count) }
            }
            s.peakBytes = max(s.peakBytes, s.entries.bytes)
            // Past the budget: evict the least recently used tiles this call does not show.
            if s.entries.bytes > self.capacity {
                let current = Set(keys)
                s.entries.evict(toFit: self.capacity, sparing: current.contains)
            }
        }
        return found
    }

    /// Draws one tile: the layer's drawing of the tile's rectangle at its level's scale.
    static func draw(_ tile: TileIndex, geometry: TiledLayerGeometry, source: TiledLayerTileSource) -> RasterizedContent? {
        let rect = geometry.rect(ofTile: tile)
        guard !rect.isNull, rect.width > 0, rect.height > 0 else { return nil }
        let scale = Double(geometry.scale(ofLevel: tile.level))
        let drawing = source.drawTile(rect, scale: CGFloat(scale))
        return ContentRasterizer.rasterize(.drawing(drawing), layerBounds: rect, scale: scale)
    }

    /// Tiles drawn and reused so far, bytes held now and at most (for tests and benchmarks).
    public var statistics: (drawn: Int, reused: Int, bytes: Int, peakBytes: Int) {
        state.withCheckedLock { ($0.drawn, $0.reused, $0.entries.bytes, $0.peakBytes) }
    }
}
