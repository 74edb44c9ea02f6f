// The strips of CStrataKernels/strips.c give a polygon the coverage its cells give
// (coverage.c, checked against the formula in CoverageCellTests): the same values to the bit, for
// both fill rules, polygons reaching past every side of the region, rows crossed many times,
// regions whose width and height are not multiples of the accumulator's words and bands, and
// windows of rows as the tiles ask for them. The row table's extents must bracket the coverage.
import XCTest
import Foundation
import CStrataKernels
import StrataTestSupport

/// Calls `body` with every edge of the closed polygons, in order.
func forEachEdge(_ polygons: [[(Double, Double)]], _ body: ((Double, Double), (Double, Double)) -> Void) {
    for polygon in polygons {
        for i in polygon.indices { body(polygon[i], polygon[(i + 1) % polygon.count]) }
    }
}

final class StripTests: XCTestCase {
    /// Per row, the coverage of every column from the cells.
    private func cellCoverage(_ polygons: [[(Double, Double)]], width: Int32, height: Int32, evenOdd: Bool) -> [[Float]] {
        var sink = strata_cell_sink()
        sink.width = width; sink.height = height
        forEachEdge(polygons) { strata_cells_add_edge(&sink, $0.0, $0.1, $1.0, $1.1) }
        var rowStart = [Int32](repeating: 0, count: Int(height) + 1)
        strata_cells_finish(&sink, &rowStart, 0, height)
        defer { free(sink.cells) }
        return (0..<Int(height)).map { r in
            var row = [Float](repeating: 0, count: Int(width))
            let s = Int(rowStart[r]), n = Int(rowStart[r + 1]) - s
            guard n > 0 else { return row }
            var first: Int32 = 0, end: Int32 = 0
            row.withUnsafeMutableBufferPointer {
                strata_coverage_mask(sink.cells + s, n, evenOdd ? 1 : 0, 0, width, $0.baseAddress!, &first, &end)
            }
            return row
        }
    }

    private struct Strips {
        var sink = strata_strip_sink()
        var table: [Int32]
        let width: Int32, height: Int32

        init(_ polygons: [[(Double, Double)]], width: Int32, height: Int32, evenOdd: Bool, scratch: inout strata_strip_scratch) {
            self.width = width; self.height = height
            var edges = strata_edge_sink()
            edges.width = width; edges.height = height
            forEachEdge(polygons) { strata_edges_add(&edges, $0.0, $0.1, $1.0, $1.1) }
            table = [Int32](repeating: -7, count: 3 * Int(height) + 1)
            let ok = table.withUnsafeMutableBufferPointer { strata_strips_build(&edges, evenOdd ? 1 : 0, &sink, $0.baseAddress!, &scratch) }
            XCTAssertEqual(ok, 1)
            Foundation.free(edges.edges)
        }

        func release() { Foundation.free(sink.strips); Foundation.free(sink.alpha) }

        /// Columns x0 ..< x1 of row r (zeros outside the strips), and the covered range.
        func window(_ r: Int, _ x0: Int, _ x1: Int) -> ([Float], Range<Int>) {
            var out = [Float](repeating: 0, count: x1 - x0)
            var first: Int32 = 0, end: Int32 = 0
            table.withUnsafeBufferPointer { t in
                out.withUnsafeMutableBufferPointer {
                    strata_strips_row_mask(sink.strips, sink.alpha, t.baseAddress!, Int32(r), Int32(x0), Int32(x1), $0.baseAddress!,
                                           &first, &end)
                }
            }
            XCTAssertTrue(first >= end || (x0 <= first && first < end && end <= x1), "range \(first)..<\(end) in \(x0)..<\(x1)")
            // Where one explicit strip meets the window, the kernel reads its values in place: the
            // same columns and values, with the padding on both sides.
            var offset = 0, singleFirst: Int32 = 0, singleEnd: Int32 = 0
            let single = table.withUnsafeBufferPointer {
                strata_strips_row_single(sink.strips, $0.baseAddress!, Int32(r), Int32(x0), Int32(x1), &offset, &singleFirst, &singleEnd)
            }
            if single == 1 {
                XCTAssertEqual([singleFirst, singleEnd], [first, end], "row \(r) window \(x0)..<\(x1)")
                let pad = Int(STRATA_STRIP_ALPHA_PAD)
                XCTAssertGreaterThanOrEqual(offset + Int(singleFirst), pad)
                XCTAssertLessThanOrEqual(offset + Int(singleEnd) + pad, sink.alphaCapacity)
                for x in Int(singleFirst)..<Int(singleEnd) { XCTAssertEqual(sink.alpha[offset + x], out[x - x0], "row \(r) column \(x)") }
            }
            return (out, first < end ? Int(first)..<Int(end) : x1..<x1)
        }
    }

    private func polygons(_ trial: Int, _ rng: inout SplitMix, width: Double, height: Double) -> [[(Double, Double)]] {
        let count = 1 + trial % 3
        return (0..<count).map { k in
            let n = 3 + (trial * 7 + k) % 40
            switch (trial + k) % 4 {
            case 0:
                // Zigzags between far left and far right: many pieces a row, both directions.
                return (0..<n).map { i in
                    (Double(i % 2 == 0 ? -10 : Int(width) + 10) + Double.random(in: -30..<30, using: &rng),
                     Double(i) * height / Double(n) + Double.random(in: -4..<4, using: &rng))
                }
            case 1:
                // Points anywhere, past every side: self-intersecting.
                return (0..<n).map { _ in
                    (Double.random(in: -40..<(width + 40), using: &rng), Double.random(in: -40..<(height + 40), using: &rng))
                }
            case 2:
                // A thin ring of a stroke: a polygon and its offset, nearly horizontal and vertical.
                let cx = Double.random(in: 0..<width, using: &rng), cy = Double.random(in: 0..<height, using: &rng)
                let rx = Double.random(in: 2..<max(3, width * 0.8), using: &rng), ry = Double.random(in: 2..<max(3, height * 0.8), using: &rng)
                let outer = (0..<n).map { i -> (Double, Double) in
                    let t = Double(i) / Double(n) * 2 * .pi
                    return (cx + rx * cos(t), cy + ry * sin(t))
                }
                return outer + outer.reversed().map { (cx + ($0.0 - cx) * 0.93, cy + ($0.1 - cy) * 0.93) }
            default:
                // Tiny features: slivers and pixel-sized triangles on fractional coordinates.
                let x = Double.random(in: -2..<(width + 2), using: &rng), y = Double.random(in: -2..<(height + 2), using: &rng)
                return [(x, y), (x + Double.random(in: -3..<3, using: &rng), y + Double.random(in: 0..<40, using: &rng)),
                        (x + Double.random(in: 0.01..<0.5, using: &rng), y + Double.random(in: -1..<1, using: &rng))]
            }
        }
    }

    func testStripsGiveTheCellsCoverage() {
        var rng = SplitMix(seed: 2024)
        var scratch = strata_strip_scratch()
        defer { strata_strip_scratch_free(&scratch) }
        // Widths around the accumulator's 64-slot words, heights around its 16-row bands.
        let sizes: [(Int32, Int32)] = [(1, 1), (7, 3), (62, 15), (63, 16), (64, 17), (65, 33), (126, 47), (200, 64), (333, 90)]
        var covered = 0
        for trial in 0..<240 {
            let (w, h) = sizes[trial % sizes.count]
            let evenOdd = trial % 2 == 1
            let shape = polygons(trial, &rng, width: Double(w), height: Double(h))
            let expected = cellCoverage(shape, width: w, height: h, evenOdd: evenOdd)
            let strips = Strips(shape, width: w, height: h, evenOdd: evenOdd, scratch: &scratch)
            defer { strips.release() }
            let rowLo = Int(h) + 1, rowHi = rowLo + Int(h)
            for r in 0..<Int(h) {
                let (row, range) = strips.window(r, 0, Int(w))
                XCTAssertEqual(row, expected[r], "trial \(trial) (\(w)×\(h), evenOdd \(evenOdd)) row \(r)")
                let nonzero = expected[r].indices.filter { expected[r][$0] != 0 }
                covered += nonzero.count
                if let a = nonzero.first, let b = nonzero.last {
                    XCTAssertTrue(range.contains(a) && range.contains(b), "trial \(trial) row \(r): range \(range)")
                    XCTAssertLessThanOrEqual(Int(strips.table[rowLo + r]), a, "trial \(trial) row \(r): extent")
                    XCTAssertGreaterThan(Int(strips.table[rowHi + r]), b, "trial \(trial) row \(r): extent")
                }
                // A window, as a tile asks for it.
                let x0 = Int.random(in: 0..<Int(w), using: &rng), x1 = Int.random(in: (x0 + 1)...Int(w), using: &rng)
                XCTAssertEqual(strips.window(r, x0, x1).0, Array(expected[r][x0..<x1]), "trial \(trial) row \(r) window \(x0)..<\(x1)")
            }
        }
        XCTAssertGreaterThan(covered, 50_000)
        // The accumulator is left zeroed between shapes: the same shape twice gives the same strips.
        let shape = polygons(5, &rng, width: 100, height: 50)
        let a = Strips(shape, width: 100, height: 50, evenOdd: false, scratch: &scratch)
        let b = Strips(shape, width: 100, height: 50, evenOdd: false, scratch: &scratch)
        defer { a.release(); b.release() }
        XCTAssertEqual(a.table, b.table)
        XCTAssertEqual((0..<50).map { a.window($0, 0, 100).0 }, (0..<50).map { b.window($0, 0, 100).0 })
    }

    /// A region much wider than a word and taller than a band, with a shape covering all of it:
    /// the interior is one strip of value 1 a row, not explicit values.
    func testInteriorsAreRunsOfOneValue() {
        var scratch = strata_strip_scratch()
        defer { strata_strip_scratch_free(&scratch) }
        let strips = Strips([[(-5, -5), (505, -5), (505, 205), (-5, 205)]], width: 500, height: 200, evenOdd: false, scratch: &scratch)
        defer { strips.release() }
        XCTAssertEqual(strips.sink.count, 200)
        // No explicit values: only the padding's zeros, before and after.
        let pad = Int(STRATA_STRIP_ALPHA_PAD)
        XCTAssertEqual(strips.sink.alphaCount, pad)
        XCTAssertGreaterThanOrEqual(strips.sink.alphaCapacity, 2 * pad)
        XCTAssertEqual((0..<(2 * pad)).map { strips.sink.alpha[$0] }, [Float](repeating: 0, count: 2 * pad))
        for r in 0..<200 {
            let s = strips.sink.strips[Int(strips.table[r])]
            XCTAssertEqual([s.x0, s.x1, s.alpha], [0, 500, -1])
            XCTAssertEqual(s.value, 1)
        }
    }

    /// Edges that strata_edges_add cannot make — past the region's right side, left of it but off
    /// the line x = −½, above or below its rows, horizontal — would reach outside the accumulator:
    /// the builder refuses them (no strips) and goes on working for the next shape.
    func testEdgesTheClipperCannotMakeAreRefused() {
        var scratch = strata_strip_scratch()
        defer { strata_strip_scratch_free(&scratch) }
        let one: Int32 = 256
        let bad = [
            strata_edge(x1: 10 * one, y1: 0, x2: 101 * one, y2: 5 * one),   // past column 100
            strata_edge(x1: -3 * one, y1: 0, x2: -3 * one, y2: 5 * one),    // left, but not at x = −½
            strata_edge(x1: -one / 2, y1: 0, x2: 4 * one, y2: 5 * one),     // from x = −½ into the region
            strata_edge(x1: 10 * one, y1: -one, x2: 20 * one, y2: 5 * one), // above row 0
            strata_edge(x1: 10 * one, y1: 0, x2: 20 * one, y2: 51 * one),   // below row 49
            strata_edge(x1: 10 * one, y1: 3 * one, x2: 20 * one, y2: 3 * one), // horizontal
        ]
        for edge in bad {
            var edges = strata_edge_sink()
            edges.width = 100; edges.height = 50
            // A good edge first: the bad one is refused wherever it lies.
            let list = [strata_edge(x1: 5 * one, y1: one, x2: 6 * one, y2: 40 * one), edge]
            edges.edges = UnsafeMutablePointer<strata_edge>.allocate(capacity: list.count)
            edges.edges.initialize(from: list, count: list.count)
            edges.count = list.count; edges.capacity = list.count
            defer { edges.edges.deallocate() }
            var sink = strata_strip_sink()
            defer { Foundation.free(sink.strips); Foundation.free(sink.alpha) }
            var table = [Int32](repeating: 0, count: 3 * 50 + 1)
            let ok = table.withUnsafeMutableBufferPointer { strata_strips_build(&edges, 0, &sink, $0.baseAddress!, &scratch) }
            XCTAssertEqual(ok, 0, "\(edge)")
            XCTAssertEqual(sink.count, 0)
            XCTAssertEqual(sink.alphaCount, 0)
        }
        // The scratch is still good: a shape built after the refusals has its cells' coverage.
        let shape: [[(Double, Double)]] = [[(-3, 2), (60.5, 7.25), (104, 45.5), (20.75, 30)]]
        let strips = Strips(shape, width: 100, height: 50, evenOdd: false, scratch: &scratch)
        defer { strips.release() }
        let cells = cellCoverage(shape, width: 100, height: 50, evenOdd: false)
        for r in 0..<50 { XCTAssertEqual(strips.window(r, 0, 100).0, cells[r], "row \(r)") }
    }

    /// The scratch's band rows lie at other places for regions of other widths: shapes of
    /// different widths one after the other in one scratch give the strips each gives in a
    /// fresh one (the rows are left zeroed, their ranges too).
    func testRegionsOfOtherWidthsShareAScratch() {
        var rng = SplitMix(seed: 11)
        let sizes: [(Int32, Int32)] = [(100, 50), (37, 70), (300, 20), (64, 64), (100, 50)]
        var shared = strata_strip_scratch()
        defer { strata_strip_scratch_free(&shared) }
        for (w, h) in sizes {
            let shape = polygons(4, &rng, width: Double(w), height: Double(h))
            var fresh = strata_strip_scratch()
            defer { strata_strip_scratch_free(&fresh) }
            let a = Strips(shape, width: w, height: h, evenOdd: false, scratch: &shared)
            let b = Strips(shape, width: w, height: h, evenOdd: false, scratch: &fresh)
            defer { a.release(); b.release() }
            XCTAssertEqual(a.table, b.table, "\(w)×\(h)")
            XCTAssertEqual((0..<Int(h)).map { a.window($0, 0, Int(w)).0 }, (0..<Int(h)).map { b.window($0, 0, Int(w)).0 }, "\(w)×\(h)")
        }
    }
}
