// A shape layer's fill or stroke drawn straight into the tiles, without a backing store: the
// display-list builder records the shape, its map to the screen and the screen region it may
// touch; the rasterisation stage (once per frame, on the worker pool) flattens the path, turns a
// stroke into its outline (StrokeOutliner), maps the outline to the screen and scan-converts it
// into rows of strips of analytic coverage (CStrataKernels/strips.c); every tile the item touches
// then reads the rows it needs. The strips are a function of the item alone (shape, map, region),
// so frames stay the same whatever the tiles and threads.
import Foundation
import Synchronization
import StrataCore
import CStrataKernels

// @unchecked: the strips and row table are written by `rasterize()` in the frame's rasterisation
// stage (one job per shape, claimed serially before the stage; the dispatcher returns after every
// job) and only read by the tile stage after it; everything else is written by `init` or by
// `setUp`, which the display-list builder calls only when nothing else holds the shape
// (RecycledObjects), before handing it on.
/// One part of a shape layer's content, ready to be rasterised into strips of coverage.
public final class VectorShape: Recyclable, @unchecked Sendable {
    /// Which part of the shape this is.
    public enum Part: Sendable {
        /// The path's interior (by the layer's fill rule, in its `fillColor`).
        case fill
        /// The outline of the path's stroke (`lineWidth`, caps, joins, dashes, in its
        /// `strokeColor`).
        case stroke
    }

    // Not checked for exclusivity at run time (written only as above; the tile workers read them).
    @exclusivity(unchecked) private(set) var content: ShapeContent
    @exclusivity(unchecked) private(set) var part: Part
    @exclusivity(unchecked) private(set) var toScreen: Homography
    /// Screen pixels per layer unit (at most): sets the flattening tolerance.
    @exclusivity(unchecked) private(set) var scale: Double
    /// The pixels the coverage is kept for (the item's bounds).
    @exclusivity(unchecked) private(set) var region: PixelRect
    var evenOdd: Bool { part == .fill && content.fillRule == .evenOdd }

    /// Largest distance between a curve and its chords, in screen pixels (Cairo's default).
    static let tolerancePixels = 0.1

    // Written once by `rasterize()` (the rasterisation stage), read by the tile workers after it.
    // The strip buffers and the row table come from pools and go back when the shape is let go
    // (with the display list that holds it), so a frame's shapes reuse the buffers of earlier
    // frames' shapes. Their accesses are not checked for exclusivity at run time: that order of
    // writes and reads rules out overlapping ones, and the checks (a runtime call and a
    // thread-local access set per access) were a few thousand calls a frame in the tile workers.
    @exclusivity(unchecked) private var strips = strata_strip_sink()
    /// Rows of the region, `h`; the row table holds `rowStart` (h + 1 entries: the strips of row
    /// r are rowStart[r] ..< rowStart[r + 1]), then per row the columns (region-relative) that
    /// are covered, from `rowLo` (h entries) to `rowHi` (h entries).
    @exclusivity(unchecked) private var rowCount = 0
    @exclusivity(unchecked) private var rowTable: [Int32] = []
    @exclusivity(unchecked) private(set) var isRasterized = false
    /// Whether a rasterisation job was given this shape (set on the rendering thread while it
    /// collects a frame's shapes, before the jobs start).
    @exclusivity(unchecked) private var isClaimed = false

    init(content: ShapeContent, part: Part, toScreen: Homography, scale: Double, region: PixelRect) {
        self.content = content; self.part = part; self.toScreen = toScreen; self.scale = scale
        self.region = region
    }

    /// A shape as `init` makes it, from `recycled`'s free ones when it has one.
    static func make(content: ShapeContent, part: Part, toScreen: Homography, scale: Double, region: PixelRect,
                     from recycled: RecycledObjects<VectorShape>) -> VectorShape {
        recycled.object(settingUp: { $0.setUp(content: content, part: part, toScreen: toScreen, scale: scale, region: region) },
                        else: { VectorShape(content: content, part: part, toScreen: toScreen, scale: scale, region: region) })
    }

    /// Makes this shape what `init` would make of the arguments (not rasterised, not claimed),
    /// giving its buffers back. Only while nothing else holds it.
    private func setUp(content: ShapeContent, part: Part, toScreen: Homography, scale: Double, region: PixelRect) {
        giveBuffersBack()
        self.content = content; self.part = part; self.toScreen = toScreen; self.scale = scale
        self.region = region
        isRasterized = false
        isClaimed = false
    }

    deinit { giveBuffersBack() }

    /// Gives the strips and row table back to their pools (RecycledObjects).
    func becameFree() { giveBuffersBack() }

    private func giveBuffersBack() {
        VectorShape.stripBuffers.give(strips.strips, capacity: strips.capacity)
        VectorShape.alphaBuffers.give(strips.alpha, capacity: strips.alphaCapacity)
        strips = strata_strip_sink()
        if rowCount > 0 { VectorShape.rowTables.give(&rowTable) }
        rowCount = 0
        rowTable = []
    }

    /// The number of strips (after `rasterize()`).
    var stripCount: Int { strips.count }

    /// True the first time: the caller gives the shape to one rasterisation job (TileRenderer).
    func claimForRasterization() -> Bool {
        guard !isClaimed else { return false }
        isClaimed = true
        return true
    }

    /// Flattens, outlines and scan-converts the shape (once; later calls do nothing).
    func rasterize() {
        guard !isRasterized else { return }
        isRasterized = true
        let w = region.x1 - region.x0, h = region.y1 - region.y0
        guard w > 0, h > 0 else { rowTable = [0]; return }
        rowCount = h
        let scratch = VectorScratch.take()
        defer { VectorScratch.give(scratch) }
        scratch.edges.count = 0; scratch.edges.failed = 0
        scratch.edges.width = Int32(w); scratch.edges.height = Int32(h)
        var edges = EdgeCollector(map: toScreen, originX: Double(region.x0), originY: Double(region.y0), sink: scratch.edges)
        let tolerance = FlatPath.tolerance(pixels: VectorShape.tolerancePixels, scale: scale)
        switch part {
        case .fill:
            scratch.flat.flatten(content.path.elements, tolerance: tolerance)
            for sub in scratch.flat.subpaths where sub.points.count > 1 {
                edges.move(Double(sub.points[0].x), Double(sub.points[0].y))
                for p in sub.points.dropFirst() { edges.line(Double(p.x), Double(p.y)) }
                edges.close()
            }
        case .stroke:
            strokeOutline(tolerance: tolerance, into: &edges, scratch: scratch)
        }
        scratch.edges = edges.sink
        (strips.strips, strips.capacity) = VectorShape.stripBuffers.take()
        (strips.alpha, strips.alphaCapacity) = VectorShape.alphaBuffers.take()
        rowTable = VectorShape.rowTables.take(TileRenderer.pooledLength(3 * h + 1))
        rowTable.withUnsafeMutableBufferPointer { rows in
            let table = rows.baseAddress!
            if scratch.edges.failed != 0
                || strata_strips_build(&scratch.edges, evenOdd ? 1 : 0, &strips, table, &scratch.strips) == 0 {
                // Out of memory: no coverage rather than part of it.
                strips.count = 0; strips.alphaCount = 0
                table.update(repeating: 0, count: h + 1)
                (table + h + 1).update(repeating: Int32(w), count: h)
                (table + 2 * h + 1).update(repeating: 0, count: h)
            }
        }
    }

    /// The stroke's outline: the trimmed pieces (strokeStart / strokeEnd), dashed, offset.
    private func strokeOutline(tolerance: Double, into edges: inout EdgeCollector, scratch: VectorScratch) {
        let shape = content
        guard shape.strokeEnd > shape.strokeStart else { return }
        let outliner = StrokeOutliner(halfWidth: Double(shape.lineWidth) / 2, cap: shape.lineCap, join: shape.lineJoin,
                                      miterLimit: Double(shape.miterLimit), tolerance: tolerance)
        let dashes = shape.dashPattern.map(Double.init)
        func stroke(_ elements: [CGPathElement], offset: Double) {
            scratch.flat.flatten(elements, tolerance: tolerance)
            for sub in scratch.flat.subpaths {
                if dashes.isEmpty {
                    outliner.stroke(sub, into: &edges, scratch: &scratch.stroke)
                } else {
                    for dash in sub.dashed(dashes, phase: Double(shape.dashPhase) + offset) {
                        outliner.stroke(dash, into: &edges, scratch: &scratch.stroke)
                    }
                }
            }
        }
        if shape.isTrimmed {
            for piece in StrokeGeometry(shape.path).trimmed(from: shape.strokeStart, to: shape.strokeEnd) {
                stroke(piece.elements, offset: Double(piece.offsetInSubpath))
            }
        } else {
            stroke(shape.path.elements, offset: 0)
        }
    }

    /// Calls `body` with the strips, their coverages and the row table (valid after `rasterize()`).
    func withStrips<R>(_ body: (UnsafePointer<strata_strip>?, UnsafePointer<Float>?, UnsafePointer<Int32>) -> R) -> R {
        rowTable.withUnsafeBufferPointer { rows in body(UnsafePointer(strips.strips), UnsafePointer(strips.alpha), rows.baseAddress!) }
    }

    /// The coverage of columns x0 ..< x1 (frame columns) of frame row `y` into `mask[x − x0]`,
    /// for x in the returned range (nil: none covered). Valid after `rasterize()`.
    func coverage(row y: Int, _ x0: Int, _ x1: Int, into mask: UnsafeMutablePointer<Float>) -> Range<Int>? {
        guard strips.count > 0, y >= region.y0, y < region.y1 else { return nil }
        var first: Int32 = 0, end: Int32 = 0
        rowTable.withUnsafeBufferPointer { rows in
            strata_strips_row_mask(strips.strips, strips.alpha, rows.baseAddress!, Int32(y - region.y0), Int32(x0 - region.x0),
                                   Int32(x1 - region.x0), mask, &first, &end)
        }
        return first < end ? (Int(first) + region.x0)..<(Int(end) + region.x0) : nil
    }

    /// The frame columns rows y0 ..< y1 may cover (nil: none), once rasterised; for binning.
    func columnExtent(rows y0: Int, _ y1: Int) -> (Int, Int)? {
        let a = max(y0, region.y0) - region.y0, b = min(y1, region.y1) - region.y0
        let h = rowCount
        guard a < b, h > 0 else { return nil }
        var lo = Int32.max, hi = Int32.min
        rowTable.withUnsafeBufferPointer { t in
            let rowLo = t.baseAddress! + h + 1, rowHi = rowLo + h
            // Every row, empty ones too: those hold (width, 0) (strata_strips_build), which neither
            // lowers `lo` below a covered row's nor raises `hi`, and without the test the loop is
            // a vector one (it ran over every row of each band a shape meets, a frame).
            for r in a..<b { lo = min(lo, rowLo[r]); hi = max(hi, rowHi[r]) }
        }
        return lo < hi ? (region.x0 + Int(lo), region.x0 + Int(hi)) : nil
    }
}

/// A worker's buffers for rasterising shapes: the flattened path, the stroker's polylines, the
/// edges and the strip builder's accumulator. Taken for one shape and given back, so the stage
/// allocates nothing once every worker's buffers have grown to the frame's shapes.
// @unchecked: owned by one worker between `take()` and `give(_:)`; the spare list is a Mutex.
final class VectorScratch: @unchecked Sendable {
    var flat = FlatPath()
    var stroke = StrokeScratch()
    /// The shape's edges (malloc'd, grown by the C side).
    var edges = strata_edge_sink()
    var strips = strata_strip_scratch()

    deinit {
        free(edges.edges)
        strata_strip_scratch_free(&strips)
    }

    private static let spare = Mutex<[VectorScratch]>([])

    static func take() -> VectorScratch { spare.withCheckedLock { $0.popLast() } ?? VectorScratch() }

    static func give(_ s: VectorScratch) { spare.withCheckedLock { if $0.count < 16 { $0.append(s) } } }
}

/// Malloc'd buffers (grown by the C side with realloc) kept for later shapes.
final class MallocBufferPool<Element>: Sendable {
    // @unchecked: malloc'd buffers nobody else references, reached only through the Mutex.
    private struct State: @unchecked Sendable { var buffers: [(UnsafeMutablePointer<Element>, Int)] = []; var bytes = 0 }
    private let state = Mutex(State())
    /// Bytes kept at most.
    let byteLimit: Int

    init(byteLimit: Int) { self.byteLimit = byteLimit }

    /// A buffer and its capacity in elements, or (nil, 0): the C side allocates.
    func take() -> (UnsafeMutablePointer<Element>?, Int) {
        state.withCheckedLock { s in
            guard let b = s.buffers.popLast() else { return (nil, 0) }
            s.bytes -= b.1 * MemoryLayout<Element>.stride
            return (b.0, b.1)
        }
    }

    func give(_ buffer: UnsafeMutablePointer<Element>?, capacity: Int) {
        guard let buffer else { return }
        let bytes = capacity * MemoryLayout<Element>.stride
        let kept = state.withCheckedLock { s -> Bool in
            guard s.bytes + bytes <= byteLimit else { return false }
            s.buffers.append((buffer, capacity)); s.bytes += bytes
            return true
        }
        if !kept { free(buffer) }
    }
}

extension VectorShape {
    /// (A motion frame's shapes hold about 0.5 MiB of strips and 1.5 MiB of coverages.)
    static let stripBuffers = MallocBufferPool<strata_strip>(byteLimit: 8 << 20)
    static let alphaBuffers = MallocBufferPool<Float>(byteLimit: 16 << 20)
    static let rowTables = BufferPool<Int32>(limit: 1024, byteLimit: 8 << 20)
}

/// Maps outline points to the screen and adds the edges to an edge sink.
struct EdgeCollector: ContourSink {
    let map: Homography
    let originX: Double, originY: Double
    var sink: strata_edge_sink
    private var startX = 0.0, startY = 0.0, lastX = 0.0, lastY = 0.0
    private var open = false

    init(map: Homography, originX: Double, originY: Double, sink: strata_edge_sink) {
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
        strata_edges_add(&sink, lastX, lastY, sx, sy)
        (lastX, lastY) = (sx, sy)
    }

    mutating func close() {
        guard open else { return }
        strata_edges_add(&sink, lastX, lastY, startX, startY)
        open = false
    }
}
