// The sparse coverage cells of CStrataKernels/coverage.c: a row's cells arrive in whatever order
// the edges come, `strata_cells_finish` groups them by row, and `strata_coverage_mask` sums a
// row's cells in any order. Checked here against a plain stable sort of the same raw cells, against
// coverage summed per pixel from the formula (for outlines whose rows hold many cells in both
// directions, windows of a row as the tiles ask for them, rows wider than the mask's chunk of
// columns), and against coverage worked out by hand.
import XCTest
import CStrataKernels
import StrataTestSupport

final class CoverageCellTests: XCTestCase {
    private struct Cells: Equatable { var cells: [[Int32]]; var rowStart: [Int32] }

    /// The raw cells of a closed polygon, as added (before grouping).
    private func rawCells(_ points: [(Double, Double)]..., width: Int32, height: Int32) -> strata_cell_sink {
        var sink = strata_cell_sink()
        sink.width = width; sink.height = height
        forEachEdge(points) { strata_cells_add_edge(&sink, $0.0, $0.1, $1.0, $1.1) }
        XCTAssertEqual(sink.failed, 0)
        return sink
    }

    private func finished(_ sink: inout strata_cell_sink, height: Int32) -> Cells {
        var rowStart = [Int32](repeating: -1, count: Int(height) + 1)
        let n = strata_cells_finish(&sink, &rowStart, 0, height)
        let cells = (0..<n).map { i in let c = sink.cells[i]; return [c.x, c.y, c.cover, c.area] }
        free(sink.cells)
        return Cells(cells: cells, rowStart: rowStart)
    }

    /// Zigzags whose edges cross each row many times, leftwards and rightwards, some nearly
    /// horizontal, some leaving the frame.
    private func zigzag(_ trial: Int, _ rng: inout SplitMix, width: Double, height: Double) -> [(Double, Double)] {
        let n = 6 + trial % 30
        return (0..<n).map { i in
            // Alternating far left / far right with small vertical steps: many pieces per row.
            let x = (i % 2 == 0 ? -8 : width + 8) + Double.random(in: -20..<20, using: &rng)
            let y = Double(i) * height / Double(n) + Double.random(in: -3..<3, using: &rng)
            return (trial % 3 == 0 ? x : width / 2 + (x - width / 2) * Double.random(in: 0..<1, using: &rng), y)
        }
    }

    /// Finishing groups the cells by row and keeps each row's cells in the order they were added:
    /// a stable sort by row.
    func testFinishingGroupsRowsLikeAStableSort() {
        var rng = SplitMix(seed: 7)
        let w: Int32 = 96, h: Int32 = 40
        for trial in 0..<40 {
            var sink = rawCells(zigzag(trial, &rng, width: 96, height: 40), width: w, height: h)
            let raw = (0..<sink.count).map { sink.cells[$0] }
            let grouped = raw.enumerated().sorted { ($0.element.y, $0.offset) < ($1.element.y, $1.offset) }.map(\.element)
            var rowStart = [Int32](repeating: 0, count: Int(h) + 1)
            for r in 0..<Int(h) { rowStart[r + 1] = Int32(raw.filter { $0.y <= Int32(r) }.count) }
            let expected = Cells(cells: grouped.map { [$0.x, $0.y, $0.cover, $0.area] }, rowStart: rowStart)
            XCTAssertEqual(finished(&sink, height: h), expected, "trial \(trial)")
        }
    }

    /// Coverage of pixels x0 ..< x1 of a row by the formula of coverage.c, pixel by pixel from
    /// the row's cells (any order): 0 where the mask says nothing.
    private func referenceMask(_ cells: [strata_cell], evenOdd: Bool, _ x0: Int32, _ x1: Int32) -> [Float] {
        let unit: Int64 = 2 * 256 * 256
        return (x0..<x1).map { x in
            let s = cells.filter { $0.x <= x }.reduce(Int64(0)) { $0 + Int64($1.cover) }
            let a = cells.filter { $0.x == x }.reduce(Int64(0)) { $0 + Int64($1.area) }
            var m = abs(2 * 256 * s - a)
            if evenOdd { m %= 2 * unit; if m > unit { m = 2 * unit - m } } else { m = min(m, unit) }
            return Float(m) / Float(unit)
        }
    }

    /// The mask over pixels x0 ..< x1 of row r, 0 outside the range it reports.
    private func mask(_ cells: UnsafePointer<strata_cell>, _ rowStart: [Int32], row r: Int, evenOdd: Bool,
                      _ x0: Int32, _ x1: Int32) -> [Float] {
        let s = Int(rowStart[r]), n = Int(rowStart[r + 1]) - s
        var out = [Float](repeating: .nan, count: Int(x1 - x0))
        var first: Int32 = -1, end: Int32 = -1
        out.withUnsafeMutableBufferPointer { m in
            strata_coverage_mask(cells + s, n, evenOdd ? 1 : 0, x0, x1, m.baseAddress!, &first, &end)
        }
        XCTAssert(first >= x0 && end <= x1 && (first <= end || first == x1), "row \(r): \(first) ..< \(end) outside \(x0) ..< \(x1)")
        return (x0..<x1).map { $0 >= first && $0 < end ? out[Int($0 - x0)] : 0 }
    }

    /// Masks from grouped, unsorted cells equal the per-pixel formula over whole rows, over
    /// windows of a row (as tiles ask, the cells left of a window adding their cover), and over
    /// rows wider than STRATA_COVERAGE_CHUNK (several chunks, with empty chunks between covered
    /// ones), for both fill rules.
    func testMasksOfUnsortedCellsEqualThePerPixelSums() {
        var rng = SplitMix(seed: 19)
        for trial in 0..<24 {
            let wide = trial % 4 == 3
            let w: Int32 = wide ? 700 : 96, h: Int32 = 24
            // Wide rows: two far-apart shapes, the chunk between them holding no cell, and a
            // band whose cover crosses it.
            var sink = wide
                ? rawCells([(10, 2), (40, 3), (30, 20), (5, 18)], [(620, 4), (690, 6), (650, 22), (600, 21)],
                           [(100, 9.5), (560.25, 10), (561, 13.75), (99.5, 12)], width: w, height: h)
                : rawCells(zigzag(trial, &rng, width: Double(w), height: Double(h)), width: w, height: h)
            var rowStart = [Int32](repeating: 0, count: Int(h) + 1)
            strata_cells_finish(&sink, &rowStart, 0, h)
            defer { free(sink.cells) }
            guard let cells = sink.cells else { continue }
            for evenOdd in [false, true] {
                for r in 0..<Int(h) {
                    let row = (Int(rowStart[r])..<Int(rowStart[r + 1])).map { cells[$0] }
                    var windows: [(Int32, Int32)] = [(0, w)]
                    for _ in 0..<4 {
                        let a = Int32.random(in: 0..<w, using: &rng), b = Int32.random(in: 0...w, using: &rng)
                        windows.append((min(a, b), max(a, b)))
                    }
                    for (x0, x1) in windows {
                        XCTAssertEqual(mask(cells, rowStart, row: r, evenOdd: evenOdd, x0, x1),
                                       referenceMask(row, evenOdd: evenOdd, x0, x1),
                                       "trial \(trial) row \(r) window \(x0) ..< \(x1) evenOdd \(evenOdd)")
                    }
                }
            }
        }
    }

    /// The same polygon with its edges given in other orders (and from another starting vertex)
    /// gives the same masks.
    func testMasksDoNotDependOnTheOrderOfEdges() {
        var rng = SplitMix(seed: 11)
        let w: Int32 = 64, h: Int32 = 48
        func masks(_ sink: inout strata_cell_sink) -> [[Float]] {
            var rowStart = [Int32](repeating: 0, count: Int(h) + 1)
            strata_cells_finish(&sink, &rowStart, 0, h)
            defer { free(sink.cells) }
            guard let cells = sink.cells else { return [] }
            return (0..<Int(h)).map { mask(cells, rowStart, row: $0, evenOdd: false, 0, w) }
        }
        for trial in 0..<20 {
            let points = (0..<(5 + trial)).map { _ in (Double.random(in: -8..<72, using: &rng), Double.random(in: -6..<54, using: &rng)) }
            var a = rawCells(points, width: w, height: h)
            let rotated = Array(points[(trial % points.count)...] + points[..<(trial % points.count)])
            var b = rawCells(rotated, width: w, height: h)
            var c = strata_cell_sink()
            c.width = w; c.height = h
            for i in points.indices.shuffled(using: &rng) {
                let p = points[i], q = points[(i + 1) % points.count]
                strata_cells_add_edge(&c, p.0, p.1, q.0, q.1)
            }
            let ma = masks(&a)
            XCTAssertFalse(ma.allSatisfy { $0.allSatisfy { $0 == 0 } }, "trial \(trial) covers something")
            XCTAssertEqual(masks(&b), ma, "trial \(trial)")
            XCTAssertEqual(masks(&c), ma, "trial \(trial)")
        }
    }

    /// Vertices snap to 1/256 pixel, halves up (away from zero, as llround): a vertical edge half
    /// a step right of 3 lands on 3 + 1/256, just under half a step on 3; half a step left of 3
    /// lands on 3, a little more on 3 − 1/256.
    func testVerticesSnapHalvesAwayFromZero() {
        func cells(_ x: Double, _ y: Double = 0) -> Cells {
            var sink = rawCells([(x, y), (8, y), (8, 2 + y), (x, 2 + y)], width: 10, height: 4)
            return finished(&sink, height: 4)
        }
        let step = 1.0 / 256
        XCTAssertEqual(cells(3 + 0.5 * step), cells(3 + step))
        XCTAssertEqual(cells(3 + 0.49 * step), cells(3))
        XCTAssertNotEqual(cells(3 + step), cells(3))
        XCTAssertEqual(cells(3 - 0.5 * step), cells(3))
        XCTAssertEqual(cells(3 - 0.51 * step), cells(3 - step))
        XCTAssertNotEqual(cells(3 - step), cells(3))
        // Rows alike.
        XCTAssertEqual(cells(3, 1 + 0.5 * step), cells(3, 1 + step))
        XCTAssertEqual(cells(3, 1 - 0.5 * step), cells(3, 1))
        XCTAssertEqual(cells(3, 1 - 0.51 * step), cells(3, 1 - step))
    }

    /// A rectangle from (2.5, 1.25) to (6.75, 3) and a leftward-leaning parallelogram: each
    /// pixel's coverage is its area inside the shape, worked out by hand.
    func testCoverageIsTheAreaInsideThePixel() {
        func mask(_ points: [(Double, Double)], row: Int32, width: Int32, height: Int32) -> [Float] {
            var sink = rawCells(points, width: width, height: height)
            var rowStart = [Int32](repeating: 0, count: Int(height) + 1)
            strata_cells_finish(&sink, &rowStart, 0, height)
            defer { free(sink.cells) }
            var out = [Float](repeating: -1, count: Int(width))
            var first: Int32 = 0, end: Int32 = 0
            let s = Int(rowStart[Int(row)]), n = Int(rowStart[Int(row) + 1]) - s
            out.withUnsafeMutableBufferPointer { m in
                strata_coverage_mask(sink.cells + s, n, 0, 0, width, m.baseAddress!, &first, &end)
            }
            return (0..<Int(width)).map { Int32($0) >= first && Int32($0) < end ? out[$0] : 0 }
        }
        let rect = [(2.5, 1.25), (6.75, 1.25), (6.75, 3.0), (2.5, 3.0)]
        XCTAssertEqual(mask(rect, row: 1, width: 9, height: 4), [0, 0, 0.375, 0.75, 0.75, 0.75, 0.5625, 0, 0])
        XCTAssertEqual(mask(rect, row: 2, width: 9, height: 4), [0, 0, 0.5, 1, 1, 1, 0.75, 0, 0])
        XCTAssertEqual(mask(rect, row: 0, width: 9, height: 4), [Float](repeating: 0, count: 9))
        // Edges from (6, 0) to (2, 4) and (8, 0) to (4, 4), traced both ways round: in row 1
        // the left edge runs from x = 5 to 4, so pixel 4 is half covered and pixel 6 (between
        // the right edge's 7 to 6) is half covered too; 5 is fully inside.
        let lean = [(6.0, 0.0), (8.0, 0.0), (4.0, 4.0), (2.0, 4.0)]
        let expected: [Float] = [0, 0, 0, 0, 0.5, 1, 0.5, 0, 0, 0]
        XCTAssertEqual(mask(lean, row: 1, width: 10, height: 4), expected)
        XCTAssertEqual(mask(lean.reversed(), row: 1, width: 10, height: 4), expected)
    }
}

