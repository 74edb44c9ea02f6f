// A shape layer's fill or stroke drawn straight into the tiles, without a backing store: the
// display-list builder records the shape, its map to the screen and the screen region it may
// touch; the rasterisation stage (once per frame, on the worker pool) flattens the path, turns a
// stroke into its outline (StrokeOutliner), maps the outline to the screen and collects its
// analytic coverage as sparse cells (CStrataKernels/coverage.c); every tile the item touches then
// reads the rows it needs. The cells are a function of the item alone (shape, map, region), so
// frames stay the same whatever the tiles and threads.
import Foundation
import StrataCore
import CStrataKernels

/// One part of a shape layer's content, ready to be rasterised into coverage cells.
public final class VectorShape: @unchecked Sendable {
    /// Which part of the shape this is.
    public enum Part: Sendable { case fill, stroke }

    let content: ShapeContent
    let part: Part
    let toScreen: Homography
    /// Screen pixels per layer unit (at most): sets the flattening tolerance.
    let scale: Double
    /// The pixels the coverage is kept for (the item's bounds).
    let region: PixelRect
    let evenOdd: Bool

    /// Largest distance between a curve and its chords, in screen pixels (Cairo's default).
    static let tolerancePixels = 0.1

    // Written once by `rasterize()` (the rasterisation stage), read by the tile workers after it.
    private var sink = strata_cell_sink()
    private(set) var rowStart: [Int32] = []
    /// Per row of the region: the columns (region-relative) that may be covered.
    private var rowLo: [Int32] = [], rowHi: [Int32] = []
    private(set) var isRasterized = false

    init(content: ShapeContent, part: Part, toScreen: Homography, scale: Double, region: PixelRect) {
        self.content = content; self.part = part; self.toScreen = toScreen; self.scale = scale
        self.region = region
        evenOdd = part == .fill && content.fillRule == .evenOdd
    }

    deinit { free(sink.cells) }

    /// The number of coverage cells (after `rasterize()`).
    var cellCount: Int { sink.count }

    /// Flattens, outlines and scan-converts the shape (once; later calls do nothing).
    func rasterize() {
        guard !isRasterized else { return }
        isRasterized = true
        let w = region.x1 - region.x0, h = region.y1 - region.y0
        guard w > 0, h > 0 else { rowStart = [0]; return }
        sink.width = Int32(w); sink.height = Int32(h)
        var edges = EdgeCollector(map: toScreen, originX: Double(region.x0), originY: Double(region.y0), sink: sink)
        let tolerance = FlatPath.tolerance(pixels: VectorShape.tolerancePixels, scale: scale)
        switch part {
        case .fill:
            for sub in FlatPath(content.path.elements, tolerance: tolerance).subpaths where sub.points.count > 1 {
                edges.move(Double(sub.points[0].x), Double(sub.points[0].y))
                for p in sub.points.dropFirst() { edges.line(Double(p.x), Double(p.y)) }
                edges.close()
            }
        case .stroke:
            strokeOutline(tolerance: tolerance, into: &edges)
        }
        sink = edges.sink
        rowStart = [Int32](repeating: 0, count: h + 1)
        rowStart.withUnsafeMutableBufferPointer { rows in
            _ = strata_cells_finish(&sink, rows.baseAddress!, 0, Int32(h))
        }
        // Row extents: from the first cell to the last, or to the region's right edge when the
        // cover does not return to zero (the outline continues right of the region).
        rowLo = [Int32](repeating: Int32(w), count: h); rowHi = [Int32](repeating: 0, count: h)
        if let cells = sink.cells {
            for r in 0..<h {
                let s = Int(rowStart[r]), e = Int(rowStart[r + 1])
                guard s < e else { continue }
                var acc: Int32 = 0
                for i in s..<e { acc &+= cells[i].cover }
                rowLo[r] = max(0, cells[s].x)
                rowHi[r] = acc == 0 ? min(Int32(w), cells[e - 1].x + 1) : Int32(w)
            }
        }
    }

    /// The stroke's outline: the trimmed pieces (strokeStart / strokeEnd), dashed, offset.
    private func strokeOutline(tolerance: Double, into edges: inout EdgeCollector) {
        let shape = content
        guard shape.strokeEnd > shape.strokeStart else { return }
        let outliner = StrokeOutliner(halfWidth: Double(shape.lineWidth) / 2, cap: shape.lineCap, join: shape.lineJoin,
                                      miterLimit: Double(shape.miterLimit), tolerance: tolerance)
        var pieces: [(elements: [CGPathElement], offset: Double)]
        if shape.isTrimmed {
            pieces = StrokeGeometry(shape.path).trimmed(from: shape.strokeStart, to: shape.strokeEnd)
                .map { ($0.elements, Double($0.offsetInSubpath)) }
        } else {
            pieces = [(shape.path.elements, 0)]
        }
        let dashes = shape.dashPattern.map(Double.init)
        for piece in pieces {
            for sub in FlatPath(piece.elements, tolerance: tolerance).subpaths {
                if dashes.isEmpty {
                    outliner.stroke(sub, into: &edges)
                } else {
                    for dash in sub.dashed(dashes, phase: Double(shape.dashPhase) + piece.offset) {
                        outliner.stroke(dash, into: &edges)
                    }
                }
            }
        }
    }

    /// Calls `body` with the cells (valid after `rasterize()`).
    func withCells<R>(_ body: (UnsafePointer<strata_cell>?, UnsafePointer<Int32>) -> R) -> R {
        rowStart.withUnsafeBufferPointer { rows in body(UnsafePointer(sink.cells), rows.baseAddress!) }
    }

    /// The frame columns rows y0 ..< y1 may cover (nil: none), once rasterised; for binning.
    func columnExtent(rows y0: Int, _ y1: Int) -> (Int, Int)? {
        let a = max(y0, region.y0) - region.y0, b = min(y1, region.y1) - region.y0
        guard a < b, !rowLo.isEmpty else { return nil }
        var lo = Int32.max, hi = Int32.min
        for r in a..<b where rowLo[r] < rowHi[r] { lo = min(lo, rowLo[r]); hi = max(hi, rowHi[r]) }
        return lo < hi ? (region.x0 + Int(lo), region.x0 + Int(hi)) : nil
    }
}

/// Maps outline points to the screen and adds the edges to a cell sink.
struct EdgeCollector: ContourSink {
    let map: Homography
    let originX: Double, originY: Double
    var sink: strata_cell_sink
    private var startX = 0.0, startY = 0.0, lastX = 0.0, lastY = 0.0
    private var open = false

    init(map: Homography, originX: Double, originY: Double, sink: strata_cell_sink) {
        self.map = map; self.originX = originX; self.originY = originY; self.sink = sink
    }

    @inline(__always)
    private func screen(_ x: Double, _ y: Double) -> (Double, Double) {
        let m = map.m
        let X = x * m.0 + y * m.3 + m.6, Y = x * m.1 + y * m.4 + m.7, W = x * m.2 + y * m.5 + m.8
        return (X / W - originX, Y / W - originY)
    }

    mutating func move(_ x: Double, _ y: Double) {
        if open { close() }
        (startX, startY) = screen(x, y)
        (lastX, lastY) = (startX, startY)
        open = true
    }

    mutating func line(_ x: Double, _ y: Double) {
        let (sx, sy) = screen(x, y)
        strata_cells_add_edge(&sink, lastX, lastY, sx, sy)
        (lastX, lastY) = (sx, sy)
    }

    mutating func close() {
        guard open else { return }
        strata_cells_add_edge(&sink, lastX, lastY, startX, startY)
        open = false
    }
}
