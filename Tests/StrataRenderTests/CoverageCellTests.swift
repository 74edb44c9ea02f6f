// The sparse coverage cells of CStrataKernels/coverage.c: a row's cells arrive as runs ascending
// in x (one per edge piece) in whatever order the edges come, and `strata_cells_finish` sorts and
// merges them. Checked here against a plain sort of the same raw cells, for outlines whose rows
// hold many runs in both directions, and against coverage worked out by hand.
import XCTest
import CStrataKernels
import StrataTestSupport

final class CoverageCellTests: XCTestCase {
    private struct Cells: Equatable { var cells: [[Int32]]; var rowStart: [Int32] }

    /// The raw cells of a closed polygon, as added (before sorting).
    private func rawCells(_ points: [(Double, Double)], width: Int32, height: Int32) -> strata_cell_sink {
        var sink = strata_cell_sink()
        sink.width = width; sink.height = height
        for i in points.indices {
            let a = points[i], b = points[(i + 1) % points.count]
            strata_cells_add_edge(&sink, a.0, a.1, b.0, b.1)
        }
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

    /// What finishing must give: the cells sorted by row then column, a pixel's cells summed.
    private func reference(_ sink: strata_cell_sink, height: Int32) -> Cells {
        let raw = (0..<sink.count).map { sink.cells[$0] }
        let sorted = raw.sorted { ($0.y, $0.x) < ($1.y, $1.x) }
        var cells: [[Int32]] = []
        var rowStart = [Int32](repeating: 0, count: Int(height) + 1)
        for c in sorted {
            if let last = cells.last, last[0] == c.x, last[1] == c.y {
                cells[cells.count - 1][2] += c.cover; cells[cells.count - 1][3] += c.area
            } else {
                cells.append([c.x, c.y, c.cover, c.area])
            }
        }
        for r in 0..<Int(height) { rowStart[r + 1] = Int32(cells.filter { $0[1] <= Int32(r) }.count) }
        return Cells(cells: cells, rowStart: rowStart)
    }

    /// Zigzags and stars whose edges cross each row many times, leftwards and rightwards, some
    /// nearly horizontal, some leaving the frame: the sorted cells are the plain sort's.
    func testFinishingSortsRowsOfManyRunsLikeAPlainSort() {
        var rng = SplitMix(seed: 7)
        let w: Int32 = 96, h: Int32 = 40
        for trial in 0..<40 {
            var points: [(Double, Double)] = []
            let n = 6 + trial % 30
            for i in 0..<n {
                // Alternating far left / far right with small vertical steps: many pieces per row.
                let x = (i % 2 == 0 ? -8 : 104) + Double.random(in: -20..<20, using: &rng)
                let y = Double(i) * 40 / Double(n) + Double.random(in: -3..<3, using: &rng)
                points.append((trial % 3 == 0 ? x : 48 + (x - 48) * Double.random(in: 0..<1, using: &rng), y))
            }
            var sink = rawCells(points, width: w, height: h)
            let expected = reference(sink, height: h)
            XCTAssertEqual(finished(&sink, height: h), expected, "trial \(trial)")
        }
    }

    /// The same polygon with its edges given in other orders (and from another starting vertex)
    /// gives the same finished cells.
    func testFinishedCellsDoNotDependOnTheOrderOfEdges() {
        var rng = SplitMix(seed: 11)
        let w: Int32 = 64, h: Int32 = 48
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
            let fa = finished(&a, height: h)
            XCTAssertEqual(finished(&b, height: h), fa, "trial \(trial)")
            XCTAssertEqual(finished(&c, height: h), fa, "trial \(trial)")
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

