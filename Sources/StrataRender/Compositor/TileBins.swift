// Stage 3 of a frame: each top-level item is put in the bins of the tiles it may touch, once per
// frame, in drawing order, so a tile worker reads its own short list instead of testing every
// item of the frame (twice, with the previous frame's list). A vector shape is binned by the
// columns its coverage rows actually reach in each band of tile rows (a thin diagonal stroke
// touches a few tiles per band, not its whole bounding box); any other item by its bounds.
// The bins are a function of the items and the grid only, so copying and redrawing decisions
// stay the same whatever the workers.
import Foundation
import Synchronization

/// The jobs of binning a chunk of items each. Without `items`: chunk c's spans — (item, tile
/// row, first column, end column), at most one per item and tile row its bounds meet (a vector
/// shape by the columns its coverage rows reach) — into `spans[c]` (their number in
/// `spanCounts[c]`), and its entries per bin into
/// `counts[c · tiles + t]`. With `items`: each span's entries written at `counts[c · tiles + t]`
/// on (the start of chunk c's part of bin t), in item order.
// @unchecked: pointers into buffers the binning holds until the jobs end; each job writes only
// its own chunk's spans, counts and entries (the parts of the bins its counts start).
private struct BinJobs: StageJobs, @unchecked Sendable {
    let list: DisplayList
    let grid: TileGrid
    let chunkLength: Int
    let counts: UnsafeMutablePointer<Int32>
    let spans: UnsafeMutablePointer<[Int32]>
    /// The number of spans in each chunk's buffer.
    let spanCounts: UnsafeMutablePointer<Int>
    let items: UnsafeMutablePointer<Int32>?

    func run(_ c: Int) {
        let tiles = grid.count, cols = grid.columns
        let base = counts + c * tiles
        guard let items else { collect(c, base); return }
        // Counted and filled through pointers: the arrays' subscripts checked bounds and
        // uniqueness at each of the frame's thousands of (item, tile) pairs.
        spans[c].withUnsafeBufferPointer { spans in
            let n = spanCounts[c]
            for k in 0..<n {
                let row = Int(spans[4 * k + 1])
                for col in Int(spans[4 * k + 2])..<Int(spans[4 * k + 3]) {
                    let t = row * cols + col
                    items[Int(base[t])] = spans[4 * k]
                    base[t] += 1
                }
            }
        }
    }

    private func collect(_ c: Int, _ base: UnsafeMutablePointer<Int32>) {
        let tw = grid.tileWidth, th = grid.tileHeight, cols = grid.columns, tiles = grid.count
        let frame = PixelRect(x0: 0, y0: 0, x1: grid.width, y1: grid.height)
        let lower = c * chunkLength, upper = min(lower + chunkLength, list.items.count)
        for t in 0..<tiles { base[t] = 0 }
        list.items.withUnsafeBufferPointer { all in
            var most = 0
            for i in lower..<upper {
                let b = all[i].bounds.intersection(frame)
                if !b.isEmpty { most += (b.y1 - 1) / th - b.y0 / th + 1 }
            }
            var out = BufferPool<Int32>.shared.take(TileRenderer.pooledLength(4 * most))
            var n = 0
            out.withUnsafeMutableBufferPointer { out in
                for i in lower..<upper {
                    let b = all[i].bounds.intersection(frame)
                    guard !b.isEmpty else { continue }
                    for r in (b.y0 / th)...((b.y1 - 1) / th) {
                        var x0 = b.x0, x1 = b.x1
                        if case .vector(let shape, _) = all[i].op {
                            guard let (a, e) = shape.columnExtent(rows: max(b.y0, r * th), min(b.y1, (r + 1) * th)) else { continue }
                            x0 = max(x0, a); x1 = min(x1, e)
                            guard x0 < x1 else { continue }
                        }
                        let c0 = x0 / tw, c1 = (x1 - 1) / tw + 1
                        out[4 * n] = Int32(i); out[4 * n + 1] = Int32(r); out[4 * n + 2] = Int32(c0); out[4 * n + 3] = Int32(c1)
                        n += 1
                        for col in c0..<c1 { base[r * cols + col] += 1 }
                    }
                }
            }
            spans[c] = out
            spanCounts[c] = n
        }
    }
}

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
        self.init(list, grid: grid, dispatcher: SerialDispatcher())
    }

    /// The bins of `list`'s items; a long list (at least `parallelItems`) is binned in chunks of
    /// items on `dispatcher`'s workers: each chunk's (item, tile row, columns) spans and its count
    /// per tile first, then, from where each chunk's entries start in each bin (the chunks before
    /// it, in item order), its entries — the same bins as one pass over the items.
    init(_ list: DisplayList, grid: TileGrid, dispatcher: any Dispatcher) {
        self.grid = grid
        let tiles = grid.count, itemCount = list.items.count
        let chunkLength = Self.chunkLength
        let chunks = itemCount >= Self.parallelItems && !(dispatcher is SerialDispatcher) ? (itemCount + chunkLength - 1) / chunkLength : 1
        let pool = BufferPool<Int32>.shared
        let storage = Storage.take()
        Storage.reserve(&storage.start, tiles + 1)
        // counts[c · tiles + t]: chunk c's entries in bin t, then where they start.
        var counts = pool.take(TileRenderer.pooledLength(chunks * tiles))
        let spans = UnsafeMutablePointer<[Int32]>.allocate(capacity: chunks)
        spans.initialize(repeating: [], count: chunks)
        let spanCounts = UnsafeMutablePointer<Int>.allocate(capacity: chunks)
        defer {
            for c in 0..<chunks { pool.give(&spans[c]) }
            spans.deinitialize(count: chunks); spans.deallocate()
            spanCounts.deallocate()
            pool.give(&counts)
        }
        counts.withUnsafeMutableBufferPointer { counts in
            let jobs = BinJobs(list: list, grid: grid, chunkLength: chunks == 1 ? max(itemCount, 1) : chunkLength,
                               counts: counts.baseAddress!, spans: spans,
                               spanCounts: spanCounts, items: nil)
            if chunks == 1 { jobs.run(0) } else { dispatcher.run(chunks, jobs) }
            storage.start.withUnsafeMutableBufferPointer { start in
                // Bin t starts after the bins before it; chunk c's part of it after the chunks before c.
                var total: Int32 = 0
                for t in 0..<tiles {
                    start[t] = total
                    for c in 0..<chunks {
                        let n = counts[c * tiles + t]
                        counts[c * tiles + t] = total
                        total += n
                    }
                }
                start[tiles] = total
            }
            Storage.reserve(&storage.items, Int(storage.start[tiles]))
            storage.items.withUnsafeMutableBufferPointer { items in
                let fill = BinJobs(list: list, grid: grid, chunkLength: jobs.chunkLength, counts: counts.baseAddress!, spans: spans,
                                   spanCounts: spanCounts, items: items.baseAddress!)
                if chunks == 1 { fill.run(0) } else { dispatcher.run(chunks, fill) }
            }
        }
        self.storage = storage
    }

    /// Items binned a chunk a job (`init(_:grid:dispatcher:)`), and lists shorter than this in one pass.
    static let chunkLength = 2048
    static let parallelItems = 4096

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
