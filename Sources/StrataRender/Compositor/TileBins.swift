// Stage 3 of a frame: each top-level item is put in the bins of the tiles it may touch, once per
// frame, in drawing order, so a tile worker reads its own short list instead of testing every
// item of the frame (twice, with the previous frame's list). A vector shape is binned by the
// columns its coverage rows actually reach in each band of tile rows (a thin diagonal stroke
// touches a few tiles per band, not its whole bounding box); any other item by its bounds.
// The bins are a function of the items and the grid only, so copying and redrawing decisions
// stay the same whatever the workers.
import Foundation

/// The items touching each tile of a grid, in drawing order.
struct TileBins: Sendable {
    let tileSize: Int, columns: Int, rows: Int
    /// Bin t is `items[start[t] ..< start[t + 1]]`.
    private let start: [Int32]
    private let items: [Int32]

    init(_ list: DisplayList, width: Int, height: Int, tileSize ts: Int) {
        tileSize = ts
        columns = (width + ts - 1) / ts; rows = (height + ts - 1) / ts
        let cols = columns, tileRows = rows
        // The tiles each item touches, as (tile row, first column, end column) spans.
        var spans: [(item: Int32, row: Int32, c0: Int32, c1: Int32)] = []
        spans.reserveCapacity(list.items.count * 2)
        let frame = PixelRect(x0: 0, y0: 0, x1: width, y1: height)
        for (i, item) in list.items.enumerated() {
            let b = item.bounds.intersection(frame)
            guard !b.isEmpty else { continue }
            let r0 = b.y0 / ts, r1 = (b.y1 - 1) / ts
            for r in r0...r1 {
                var x0 = b.x0, x1 = b.x1
                if case .vector(let shape, _) = item.op {
                    guard let (a, e) = shape.columnExtent(rows: max(b.y0, r * ts), min(b.y1, (r + 1) * ts)) else { continue }
                    x0 = max(x0, a); x1 = min(x1, e)
                    guard x0 < x1 else { continue }
                }
                spans.append((Int32(i), Int32(r), Int32(x0 / ts), Int32((x1 - 1) / ts + 1)))
            }
        }
        var count = [Int32](repeating: 0, count: cols * tileRows + 1)
        for s in spans { for c in s.c0..<s.c1 { count[Int(s.row) * cols + Int(c) + 1] += 1 } }
        for t in 0..<(cols * tileRows) { count[t + 1] += count[t] }
        var fill = count
        var items = [Int32](repeating: 0, count: Int(count[cols * tileRows]))
        // Spans are in item order, so each bin fills in drawing order.
        for s in spans {
            for c in s.c0..<s.c1 {
                let t = Int(s.row) * cols + Int(c)
                items[Int(fill[t])] = s.item
                fill[t] += 1
            }
        }
        start = count
        self.items = items
    }

    var count: Int { columns * rows }

    /// The items of tile `t`, in drawing order.
    subscript(t: Int) -> ArraySlice<Int32> { items[Int(start[t])..<Int(start[t + 1])] }

    /// Whether `other` splits frames into the same tiles.
    func sameGrid(as other: TileBins) -> Bool {
        tileSize == other.tileSize && columns == other.columns && rows == other.rows
    }
}
