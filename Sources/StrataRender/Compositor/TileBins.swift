// Stage 3 of a frame: each top-level item is put in the bins of the tiles it may touch, once per
// frame, in drawing order, so a tile worker reads its own short list instead of testing every
// item of the frame (twice, with the previous frame's list). A vector shape is binned by the
// columns its coverage rows actually reach in each band of tile rows (a thin diagonal stroke
// touches a few tiles per band, not its whole bounding box); any other item by its bounds.
// The bins are a function of the items and the grid only, so copying and redrawing decisions
// stay the same whatever the workers.
import Foundation
import Synchronization

/// The items touching each tile of a grid, in drawing order.
struct TileBins: Sendable {
    let grid: TileGrid
    private let storage: Storage

    /// The bins' arrays. A frame's bins live as long as its frame (the history keeps the previous
    /// one), so the storages of recent frames are kept in a short list and one is taken again once
    /// the list holds its only reference: binning a frame then allocates nothing, its arrays
    /// already long enough.
    // @unchecked: the arrays are written by TileBins.init, before the storage is shared, and only
    // read after; a storage is written again only when nothing but the list holds it.
    private final class Storage: @unchecked Sendable {
        /// Bin t is `items[start[t] ..< start[t + 1]]`.
        var start: [Int32] = []
        var items: [Int32] = []

        /// Storages recently given out. (More than a renderer with a history holds at once — the
        /// frame being drawn, the previous one, the one a pipeline hands back — for two renderers.)
        private static let recent = Mutex<[Storage]>([])
        private static let kept = 8

        /// A storage nothing else holds: one of the recent ones, or a new one.
        static func take() -> Storage {
            recent.withCheckedLock { list in
                for i in list.indices where isKnownUniquelyReferenced(&list[i]) { return list[i] }
                let s = Storage()
                if list.count < kept { list.append(s) }
                return s
            }
        }

        /// `array` with room for `n` elements (grown to a power of two, so that lengths recur).
        static func reserve(_ array: inout [Int32], _ n: Int) {
            if array.count < n { array = [Int32](repeating: 0, count: TileRenderer.pooledLength(n)) }
        }
    }

    init(_ list: DisplayList, grid: TileGrid) {
        self.grid = grid
        let tw = grid.tileWidth, th = grid.tileHeight, cols = grid.columns, tiles = grid.count
        let pool = BufferPool<Int32>.shared
        let frame = PixelRect(x0: 0, y0: 0, x1: grid.width, y1: grid.height)
        // The tiles each item touches, as (item, tile row, first column, end column) spans: at
        // most one per item and tile row its bounds meet.
        var most = 0
        for i in list.items.indices {
            let b = list.items[i].bounds.intersection(frame)
            if !b.isEmpty { most += (b.y1 - 1) / th - b.y0 / th + 1 }
        }
        var spans = pool.take(TileRenderer.pooledLength(4 * most))
        var spanCount = 0
        for i in list.items.indices {
            let b = list.items[i].bounds.intersection(frame)
            guard !b.isEmpty else { continue }
            let r0 = b.y0 / th, r1 = (b.y1 - 1) / th
            for r in r0...r1 {
                var x0 = b.x0, x1 = b.x1
                if case .vector(let shape, _) = list.items[i].op {
                    guard let (a, e) = shape.columnExtent(rows: max(b.y0, r * th), min(b.y1, (r + 1) * th)) else { continue }
                    x0 = max(x0, a); x1 = min(x1, e)
                    guard x0 < x1 else { continue }
                }
                spans[4 * spanCount] = Int32(i); spans[4 * spanCount + 1] = Int32(r)
                spans[4 * spanCount + 2] = Int32(x0 / tw); spans[4 * spanCount + 3] = Int32((x1 - 1) / tw + 1)
                spanCount += 1
            }
        }
        let storage = Storage.take()
        Storage.reserve(&storage.start, tiles + 1)
        var fill = pool.take(TileRenderer.pooledLength(tiles + 1))
        // Counted and filled through pointers: the arrays' subscripts checked bounds and
        // uniqueness at each of the frame's thousands of (item, tile) pairs.
        spans.withUnsafeBufferPointer { spans in
            storage.start.withUnsafeMutableBufferPointer { start in
                for t in 0...tiles { start[t] = 0 }
                for k in 0..<spanCount {
                    let row = Int(spans[4 * k + 1])
                    for c in Int(spans[4 * k + 2])..<Int(spans[4 * k + 3]) { start[row * cols + c + 1] += 1 }
                }
                for t in 0..<tiles { start[t + 1] += start[t] }
            }
            fill.withUnsafeMutableBufferPointer { fill in
                for t in 0...tiles { fill[t] = storage.start[t] }
            }
            Storage.reserve(&storage.items, Int(storage.start[tiles]))
            // Spans are in item order, so each bin fills in drawing order.
            storage.items.withUnsafeMutableBufferPointer { items in
                fill.withUnsafeMutableBufferPointer { fill in
                    for k in 0..<spanCount {
                        let row = Int(spans[4 * k + 1])
                        for c in Int(spans[4 * k + 2])..<Int(spans[4 * k + 3]) {
                            let t = row * cols + c
                            items[Int(fill[t])] = spans[4 * k]
                            fill[t] += 1
                        }
                    }
                }
            }
        }
        pool.give(&spans)
        pool.give(&fill)
        self.storage = storage
    }

    /// The tiles in order of their number of items, most first (equal ones in tile order), in
    /// `order`'s first `grid.count` places: an order for the workers to take them in.
    func heaviestFirst(into order: inout [Int32]) {
        let tiles = grid.count
        storage.start.withUnsafeBufferPointer { start in
            order.withUnsafeMutableBufferPointer { order in
                for t in 0..<tiles { order[t] = Int32(t) }
                // A frame has a few hundred tiles: sorted in place, ties by index (a total order).
                var part = UnsafeMutableBufferPointer(rebasing: order[0..<tiles])
                part.sort { a, b in
                    let na = start[Int(a) + 1] - start[Int(a)], nb = start[Int(b) + 1] - start[Int(b)]
                    return na != nb ? na > nb : a < b
                }
            }
        }
    }

    /// The items of tile `t`, in drawing order.
    subscript(t: Int) -> ArraySlice<Int32> { storage.items[Int(storage.start[t])..<Int(storage.start[t + 1])] }
}
