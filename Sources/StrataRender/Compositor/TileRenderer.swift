// Stage 4 of a frame, the orchestration: splits the frame into tiles (twice as wide as tall by
// default, RenderOptions.tileAspect) and lets N workers draw them. Workers take tiles from a
// shared counter; each owns its tile's pixels outright (no locks on pixels), and writes the
// finished tile as RGBA8 into its own region of the frame.
// Results do not depend on which worker drew which tile, so 1, 2 or 8 workers give the same bytes.
import Foundation
import Synchronization
import StrataCore
import CStrataKernels

/// How frames are split and drawn.
public struct RenderOptions: Sendable, Equatable {
    /// Threads drawing tiles (default: the number of cores).
    public var workers: Int
    /// Tile edge in pixels (default 128). Each item row is driven once per tile it crosses, so
    /// larger tiles cost fewer instructions: the standard 1080p scenes take 7 % fewer with 128
    /// than with 64 (motion 296.8 → 275.5 M a frame, composite 296.4 → 275.8 M; callgrind), and
    /// the 720p demo, which copies unchanged tiles, renders as fast (45 % of its tiles copied
    /// instead of 62 %, the rest drawn from kept prefixes). Tiles are `tileSize · tileAspect`
    /// pixels wide and `tileSize / tileAspect` tall: the area of a square of `tileSize`.
    public var tileSize: Int
    /// How many times wider than tall a tile is (default 2: 256 × 64 pixels with the default
    /// size; 1: square). The kernels work row by row, and a row of an item crossing a tile's
    /// left or right edge is driven once in each tile, with its set-up each time, while a tile's
    /// top and bottom edges only share the item's rows out: wide tiles of the same area cross
    /// fewer items sideways. Measured on the standard 1080p scenes (callgrind, one worker):
    /// motion 102.7 M instructions a frame square, 97.9 M at 2, about 100 M at 4 (items then
    /// cross more tiles downwards); composite 171.2 M square, 163.3 M at 2. (The composite
    /// scene's wall time did not follow: its texel reads follow the tile's shape.)
    public var tileAspect: Int
    /// Copy the tiles whose draw items did not change from the previous frame of the sequence
    /// instead of drawing them (same bytes either way; see FrameHistory).
    public var reusesUnchangedTiles: Bool
    /// Draw with the eight-lane kernels (AVX-512VL or AVX2 when the CPU has them, else SSE2);
    /// false runs their one-lane scalar path, which gives the same bytes (the tests compare them).
    public var simd: Bool
    /// The instantiation of the kernels to run instead of the one `simd` picks (tests that
    /// compare every instantiation the CPU runs); nil in normal use.
    var kernels: strata_lanes?
    /// The C span kernels; off, every item takes the Swift pixel path (PixelShaders.swift), which
    /// gives every channel within one level of them (CompositorTests' `render` compares the two).
    var usesSpanKernels = true
    /// The interior-run fast paths (off only in tests that check they change no byte).
    var usesInteriorRuns = true
    /// A layer's fill and border drawn in one pass (off only in tests that check it changes no
    /// byte).
    var fusesBorders = true
    /// The span kernels' specialised code — rectangles sampled through affine, similar maps,
    /// two-stop ramps between their stops (off only in tests that check it changes no byte).
    var usesSpecialisedKernels = true
    /// A debug check (tests turn it on): every tile of every frame must be written exactly once
    /// as a whole — copied from the previous frame, already held by a recycled buffer (its bytes
    /// are compared with the previous frame's), or stored — plus at most a store of a changed
    /// part inside it; a tile that is neither, or both, stops the process with a precondition
    /// failure naming it (TileCoverage.swift). Fresh frame buffers and uninitialised tile planes
    /// are first filled with 0xCD, so a pixel nobody wrote also shows in the bytes. Costs nothing
    /// but a nil check per tile write when off; the bytes of a correct render are the same.
    public var verifiesTileCoverage = false

    /// Options with `workers` tile threads (at least 1; default one a core), square tiles of
    /// `tileSize` pixels, tiles unchanged since the previous frame copied, and the SIMD kernels.
    public init(workers: Int = ProcessInfo.processInfo.activeProcessorCount, tileSize: Int = 128,
                reusesUnchangedTiles: Bool = true, simd: Bool = true) {
        self.workers = max(1, workers)
        self.tileSize = max(8, tileSize)
        self.tileAspect = 2
        self.reusesUnchangedTiles = reusesUnchangedTiles
        self.simd = simd
    }
}

extension RenderOptions {
    /// The tiles' width and height in pixels (tileSize, tileAspect), both even when `even`. The
    /// size counts as at least 8 (as `init` makes it) and at most 2¹⁶ (larger than any frame),
    /// the aspect as at least 1 and at most the size: no value set afterwards divides by zero or
    /// overflows.
    func tileDimensions(even: Bool) -> (width: Int, height: Int) {
        let side = max(8, min(tileSize, 1 << 16)), aspect = min(max(1, tileAspect), side)
        var w = side * aspect, h = max(1, side / aspect)
        if even { w += w % 2; h += h % 2 }
        return (w, h)
    }
}

/// Draws display lists into bitmaps with a pool of tile workers.
public struct TileRenderer: Sendable {
    /// Workers, tile size and the debug checks.
    public var options: RenderOptions

    /// A renderer drawing with `options`.
    public init(options: RenderOptions = RenderOptions()) { self.options = options }

    /// Renders `list` into a new `width × height` bitmap (transparent where nothing is drawn).
    public func render(_ list: DisplayList, width: Int, height: Int) -> Bitmap {
        render(list, width: width, height: height, history: nil)
    }

    /// Renders `list`, copying the tiles that are unchanged since the frame in `history` (when
    /// `options.reusesUnchangedTiles`), and records the new frame there.
    public func render(_ list: DisplayList, width: Int, height: Int, history: FrameHistory?) -> Bitmap {
        render(list, width: width, height: height, history: history, yuv: false).0
    }

    /// Renders `list` as `render(_:width:height:history:)` does, and when `yuv` is set (and the
    /// size is even) also as BT.709 YUV 4:2:0, written by the tile workers.
    public func render(_ list: DisplayList, width: Int, height: Int, history: FrameHistory?, yuv: Bool) -> (Bitmap, YUVFrame?) {
        render(list, width: width, height: height, history: history, yuv: yuv, buffers: nil)
    }

    /// `render(_:width:height:history:yuv:)`, drawing into buffers of the history's pool, or
    /// without a history of `buffers` (FrameBuffers.swift), that their holders have let go.
    func render(_ list: DisplayList, width: Int, height: Int, history: FrameHistory?, yuv: Bool,
                buffers: FrameBuffers?) -> (Bitmap, YUVFrame?) {
        guard width > 0, height > 0 else { return (Bitmap(width: width, height: height), nil) }
        let wantsYUV = yuv && YUVFrame.supports(width: width, height: height)
        // Not zero-filled (a recycled buffer, or an uninitialised one): every tile below is
        // either copied or stored whole.
        let bytes = width * height * 4
        // The pool's frame numbers are those the history's prefixes record.
        let pool = history?.buffers ?? buffers
        // The previous frame's own buffer when nobody else holds it (drawn over in place: see
        // FrameHistory.takePreviousBuffer), else one the pool recycles. Not when checking tile
        // coverage, which compares the frame with the previous one.
        // (Bound in the `if` alone: a second reference to the pixels would make writing them copy.)
        var buffer: FrameBuffer, inPlace = false
        if !options.verifiesTileCoverage, let previousBuffer = history?.takePreviousBuffer(count: bytes) {
            buffer = previousBuffer
            inPlace = true
        } else {
            buffer = pool?.take(count: bytes) ?? FrameBuffer(count: bytes)
        }
        let generation = buffer.generation
        // Moved into the bitmap (a second reference would make writing them copy the whole frame).
        var bitmap = Bitmap(width: width, height: height, pixels: buffer.pixels)
        buffer.pixels = []
        var yuvFrame: YUVFrame? = wantsYUV ? (pool?.takePlanes(width: width, height: height) ?? YUVFrame(width: width, height: height)) : nil
        // 2×2 chroma blocks must not straddle tiles: even tile sizes (the frame is the same
        // for every tile size).
        let (tw, th) = options.tileDimensions(even: wantsYUV)
        let grid = TileGrid(width: width, height: height, tileWidth: tw, tileHeight: th)
        let count = grid.count
        let outcomes = TileOutcomes()
        let dispatcher = options.dispatcher
        // Stage 2b: the coverage of the vector shapes, each once, and each top-level item's row
        // spans (outline and interior run per row), once instead of once per tile it crosses
        // (measured: 20 % of a motion frame went to finding them again in every tile) — one
        // dispatch, the shapes' jobs first: the many short span jobs fill the time a worker would
        // otherwise wait at the end of the shapes' stage for the other's last shape, and the
        // workers meet at one barrier fewer.
        var shapeJobs = ShapeJobs(claimingShapesOf: list)
        let settings = DrawSettings(options)
        let frameRect = PixelRect(x0: 0, y0: 0, x1: width, y1: height)
        let itemCount = list.items.count
        // Each item's number of row-span values (SpanCountJobs), in chunks on the workers when
        // there are many items (20 000 particles took a millisecond here on the calling thread
        // alone), in one pass here for a short list; then where each span job's values start
        // (`chunkBases`), from which the jobs write their items' offsets.
        var spanCounts = BufferPool<Int32>.shared.take(Self.pooledLength(itemCount))
        var spanOffsets = BufferPool<Int32>.shared.take(Self.pooledLength(itemCount))
        let chunking = SpanChunks(itemCount: itemCount)
        var chunkBases = BufferPool<Int32>.shared.take(Self.pooledLength(chunking.count + 1))
        defer { BufferPool<Int32>.shared.give(&spanCounts); BufferPool<Int32>.shared.give(&chunkBases) }
        spanCounts.withUnsafeMutableBufferPointer { counts in chunkBases.withUnsafeMutableBufferPointer { bases in
            bases[0] = 0
            if chunking.length == 1 {
                // A short list: its counts in one pass, each item's job's base their running sum.
                var total: Int32 = 0
                withUnsafeMutablePointer(to: &total) { total in
                    SpanCountJobs(list: list, frame: frameRect, chunks: SpanChunks(itemCount: itemCount, length: max(itemCount, 1)),
                                  counts: counts.baseAddress!, totals: total).run(0)
                }
                for i in 0..<itemCount { bases[i + 1] = bases[i] + max(counts[i], 0) }
            } else {
                let jobs = SpanCountJobs(list: list, frame: frameRect, chunks: chunking, counts: counts.baseAddress!, totals: bases.baseAddress! + 1)
                dispatcher.run(chunking.count, jobs)
                for c in 0..<chunking.count { bases[c + 1] += bases[c] }
            }
        } }
        let spanTotal = Int(chunkBases[chunking.count])
        // Sprites (particles) are described for the kernels once a frame, in their span jobs
        // (see SpriteTable), instead of once per tile they cross.
        var spriteFlags = BufferPool<Int32>.shared.take(Self.pooledLength(itemCount))
        let spriteItems = SpriteTable.take(itemCount)
        defer { BufferPool<Int32>.shared.give(&spriteFlags); SpriteTable.give(spriteItems) }
        var spanValues = BufferPool<Int32>.shared.take(Self.pooledLength(spanTotal))
        defer { BufferPool<Int32>.shared.give(&spanValues); BufferPool<Int32>.shared.give(&spanOffsets) }
        // The items' fingerprints (for the next frame of a history) are written in the same
        // stage, a chunk of items a job.
        let fingerprintChunks = history.map { JobResults(ItemFingerprints.chunks(for: list, reusing: $0.takeFingerprintBuffers())) }
        spanValues.withUnsafeMutableBufferPointer { values in spanOffsets.withUnsafeMutableBufferPointer { offsets in
        spriteFlags.withUnsafeMutableBufferPointer { flags in spanCounts.withUnsafeBufferPointer { counts in
        chunkBases.withUnsafeBufferPointer { bases in
            let jobs = ShapeAndSpanJobs(shapes: shapeJobs, fingerprints: fingerprintChunks, list: list, chunks: chunking,
                                        counts: counts.baseAddress!, bases: bases.baseAddress!, offsets: offsets.baseAddress!,
                                        values: values.baseAddress!, frame: frameRect, settings: settings,
                                        sprites: SpriteTable(items: spriteItems.items, flags: flags.baseAddress!))
            dispatcher.run(jobs.count, jobs)
        } } } } }
        shapeJobs.release()
        let fingerprints = fingerprintChunks.map { ItemFingerprints(chunks: $0.takeAll()) }
        // Stage 3: the items of each tile (a shape is binned by its coverage rows: after 2b).
        let bins = TileBins(list, grid: grid, dispatcher: dispatcher)
        var previous = options.reusesUnchangedTiles ? history?.previous(width: width, height: height) : nil
        if let p = previous, p.bins.grid != grid { previous = nil }
        let prefixes = options.reusesUnchangedTiles ? history?.prefixes(grid: grid, valid: previous != nil) : nil
        if !options.reusesUnchangedTiles { history?.dropPrefixes() }
        // A recycled buffer holding an earlier frame of this sequence already has the tiles no
        // frame has drawn since.
        let bufferHolds = prefixes != nil ? buffer.holds : nil
        let ordered = options.workers > 1 && count > 1
        var tileOrder = BufferPool<Int32>.shared.take(Self.pooledLength(ordered ? count : 1))
        defer { BufferPool<Int32>.shared.give(&tileOrder) }
        if ordered { bins.heaviestFirst(into: &tileOrder) }
        let coverage = options.verifiesTileCoverage ? TileCoverageLog(width: width, height: height, tileWidth: tw, tileHeight: th) : nil
        if coverage != nil {
            // Poison what no tile may rely on (not a buffer whose held tiles are relied on).
            if bufferHolds == nil { bitmap.pixels.withUnsafeMutableBufferPointer { $0.update(repeating: 0xCD) } }
            if var f = yuvFrame {
                yuvFrame = nil  // uniquely referenced while poisoned
                f.y.withUnsafeMutableBufferPointer { $0.update(repeating: 0xCD) }
                f.u.withUnsafeMutableBufferPointer { $0.update(repeating: 0xCD) }
                f.v.withUnsafeMutableBufferPointer { $0.update(repeating: 0xCD) }
                yuvFrame = f
            }
        }
        // In place, the previous frame's bytes are the buffer's own: a tile "copied" from them is
        // left as it is (FrameTiles.draw skips the copy of a tile the buffer holds).
        let previousPixels = inPlace ? [] : previous?.bitmap.pixels ?? []
        let previousYUV = previous?.yuv
        // Moved out of `yuvFrame` (not shared with it) so that writing the planes copies nothing.
        var yuvPlanes = yuvFrame.take() ?? YUVFrame(width: 0, height: 0)
        spanValues.withUnsafeMutableBufferPointer { values in spanOffsets.withUnsafeBufferPointer { offsets in
        spriteFlags.withUnsafeMutableBufferPointer { flags in
        let spans = RowSpanTable(values: UnsafePointer(values.baseAddress!), offsets: offsets.baseAddress!, items: list.items, frame: frameRect,
                                 sprites: SpriteTable(items: spriteItems.items, flags: flags.baseAddress!))
        yuvPlanes.y.withUnsafeMutableBufferPointer { yOut in yuvPlanes.u.withUnsafeMutableBufferPointer { uOut in
        yuvPlanes.v.withUnsafeMutableBufferPointer { vOut in
        withOptionalPlanes(previousYUV) { oldYUV in
        bitmap.pixels.withUnsafeMutableBufferPointer { out in
            previousPixels.withUnsafeBufferPointer { old in
                let yuvTargets = wantsYUV ? YUVTargets(y: yOut.baseAddress!, u: uOut.baseAddress!, v: vOut.baseAddress!,
                                                       previous: oldYUV, width: width) : nil
                let tiles = FrameTiles(list: list, bins: bins, spans: spans, settings: settings, grid: grid,
                                       generation: generation, fingerprints: fingerprints, previous: previous,
                                       prefixes: prefixes, bufferHolds: bufferHolds,
                                       target: out.baseAddress!, source: inPlace ? UnsafePointer(out.baseAddress!) : old.baseAddress,
                                       yuv: yuvTargets, coverage: coverage)
                // Stage 4: the tiles, those with the most items first (with several workers), so
                // that the stage does not end with one worker drawing a heavy tile while the
                // others wait (which tile a worker draws never shows in the bytes).
                withUnsafePointer(to: outcomes) { outcomes in
                    tileOrder.withUnsafeBufferPointer { order in
                        dispatcher.run(count, TileJobs(tiles: tiles, outcomes: outcomes, order: ordered ? order.baseAddress : nil))
                    }
                }
            }
        }
        } } } }
        } } }
        if wantsYUV { yuvFrame = yuvPlanes }
        if let coverage { Self.check(coverage, bitmap, previous: previousPixels) }
        // Let go of the previous frame before it is replaced, so that its fingerprints' arrays
        // are unshared when the history keeps them for the next frame.
        previous = nil
        if let history, let fingerprints {
            history.record(RenderedFrame(list: list, bins: bins, fingerprints: fingerprints, bitmap: bitmap, yuv: yuvFrame,
                                         generation: generation),
                           tiles: count, reused: outcomes.copied.load(ordering: .relaxed),
                           resumed: outcomes.resumed.load(ordering: .relaxed))
        }
        pool?.lend(bitmap.pixels, of: buffer, planes: yuvFrame)
        return (bitmap, yuvFrame)
    }

    /// A power of two at least `n` (and at least 2): the lengths of the span buffers change from
    /// frame to frame and the pool keeps buffers by length.
    static func pooledLength(_ n: Int) -> Int { 1 << (Int.bitWidth - max(n - 1, 1).leadingZeroBitCount) }

    /// Runs `body` with the planes of `frame`, if any.
    private func withOptionalPlanes<R>(_ frame: YUVFrame?,
                                       _ body: ((y: UnsafePointer<UInt8>, u: UnsafePointer<UInt8>, v: UnsafePointer<UInt8>)?) -> R) -> R {
        guard let frame else { return body(nil) }
        return frame.y.withUnsafeBufferPointer { y in frame.u.withUnsafeBufferPointer { u in frame.v.withUnsafeBufferPointer { v in
            body((y.baseAddress!, u.baseAddress!, v.baseAddress!))
        } } }
    }

    /// Stops with the tiles `coverage` found written wrongly (RenderOptions.verifiesTileCoverage).
    static func check(_ coverage: TileCoverageLog, _ frame: Bitmap, previous: [UInt8]) {
        let bad = coverage.violations { r, patched in
            guard previous.count == frame.pixels.count else { return false }
            // The bytes of columns x0..<x1 of row y, here and in the previous frame.
            func same(_ y: Int, _ x0: Int, _ x1: Int) -> Bool {
                let range = (y * frame.width + x0) * 4 ..< (y * frame.width + max(x0, x1)) * 4
                return frame.pixels[range] == previous[range]
            }
            for y in r.y0..<r.y1 {
                if let p = patched, (p.y0..<p.y1).contains(y) {
                    if !same(y, r.x0, p.x0) || !same(y, p.x1, r.x1) { return false }
                } else if !same(y, r.x0, r.x1) {
                    return false
                }
            }
            return true
        }
        precondition(bad.isEmpty, "tile coverage check (RenderOptions.verifiesTileCoverage) failed for \(bad.count) tile(s) "
                     + "of a \(frame.width)×\(frame.height) frame, tiles of \(coverage.tileWidth)×\(coverage.tileHeight):\n" + bad.prefix(8).joined(separator: "\n"))
    }

    /// Copies a tile's bytes from the previous frame.
    static func copy(_ r: PixelRect, from src: UnsafePointer<UInt8>, into out: UnsafeMutablePointer<UInt8>, frameWidth: Int) {
        let rowBytes = (r.x1 - r.x0) * 4
        for y in r.y0..<r.y1 {
            let o = (y * frameWidth + r.x0) * 4
            (out + o).update(from: src + o, count: rowBytes)
        }
    }

    /// Converts a finished tile to RGBA8 (rounding to nearest, halves up) in the frame, keeping
    /// premultiplied invariants (colour never exceeds alpha). A C loop over the planes, eight
    /// pixels a step (Swift's SIMD selects and conversions compiled to 40 instructions a pixel,
    /// 22 % of a demo frame).
    /// Makes `rect` of the frame transparent (the bytes a transparent tile stores).
    static func clear(_ rect: PixelRect, in out: UnsafeMutablePointer<UInt8>, frameWidth: Int) {
        let rowBytes = (rect.x1 - rect.x0) * 4
        guard rowBytes > 0 else { return }
        for y in rect.y0..<rect.y1 { (out + (y * frameWidth + rect.x0) * 4).update(repeating: 0, count: rowBytes) }
    }

    static func store(_ tile: TileBuffer, into out: UnsafeMutablePointer<UInt8>, frameWidth: Int, _ settings: DrawSettings) {
        let r = tile.rect, p = tile.plane, lanes = settings.kernelLanes
        tile.planes.withUnsafeBufferPointer { px in
            out.withMemoryRebound(to: UInt32.self, capacity: frameWidth * r.y1) { words in
                strata_store_planar_tile(px.baseAddress!, tile.stride, p, tile.width, r.y1 - r.y0, words + r.y0 * frameWidth + r.x0,
                                         frameWidth, lanes)
            }
        }
    }
}

/// The row spans of a frame's top-level items, by item index.
// @unchecked: read-only pointers into buffers the frame fills before its tile stage starts and
// frees after the stage ends; the tile workers only read them.
struct RowSpanTable: @unchecked Sendable {
    let values: UnsafePointer<Int32>
    let offsets: UnsafePointer<Int32>
    let items: [DrawItem]
    let frame: PixelRect
    /// The kernels' descriptions of the sprites among the items.
    let sprites: SpriteTable

    subscript(i: Int) -> ItemRowSpans? {
        let o = offsets[i]
        guard o >= 0 else { return nil }
        let y0 = items.withUnsafeBufferPointer { $0[i].bounds.y0 }
        return ItemRowSpans(y0: max(y0, frame.y0), values: values + Int(o))
    }
}

/// How stage 2b splits a frame's items into jobs: one item a job for a short list (the motion
/// scene's few hundred items, some of them large shapes whose spans take long), chunks of
/// `length` items for a long one (20 000 particles: a job an item cost an atomic step, a copy of
/// the jobs with its references retained and released — counts both workers wrote — and took
/// longer on two workers than on one).
struct SpanChunks: Sendable {
    let itemCount: Int
    /// Items a chunk.
    let length: Int

    init(itemCount: Int) {
        self.init(itemCount: itemCount, length: itemCount < 2048 ? 1 : 256)
    }

    /// Chunks of `length` items (at least 1).
    init(itemCount: Int, length: Int) {
        self.itemCount = itemCount
        self.length = max(1, length)
    }

    /// The number of chunks (0 for no items).
    var count: Int { (itemCount + length - 1) / length }

    /// The items of chunk `c`.
    func range(_ c: Int) -> Range<Int> { c * length ..< min((c + 1) * length, itemCount) }
}

/// The row-span values each item needs, a chunk of items a job: `counts[i]` is the number of
/// item i's values, -1 for an item without row spans (SpanKernel.rowSpanCount), -2 for one that
/// shares the previous item's (a border over its fill: SpanKernel.sharesRowSpans); `totals[c]`
/// the values of chunk c.
// @unchecked: pointers into buffers the caller holds until the jobs end; each job writes only
// its own chunk's counts and total.
private struct SpanCountJobs: StageJobs, @unchecked Sendable {
    let list: DisplayList
    let frame: PixelRect
    let chunks: SpanChunks
    let counts: UnsafeMutablePointer<Int32>
    let totals: UnsafeMutablePointer<Int32>

    func run(_ job: Int) {
        let range = chunks.range(job)
        var total = 0
        list.items.withUnsafeBufferPointer { items in
            // Whether the item before has spans of its own or shared (the first of a chunk's looked
            // at again: its chunk's job decides the same).
            var previousHasSpans = range.lowerBound > 0 && SpanKernel.rowSpanCount(of: items[range.lowerBound - 1], frame: frame) != nil
            for i in range {
                guard let n = SpanKernel.rowSpanCount(of: items[i], frame: frame) else {
                    counts[i] = -1; previousHasSpans = false; continue
                }
                if i > 0, previousHasSpans, SpanKernel.sharesRowSpans(items[i], with: items[i - 1]) {
                    // A border's spans serve the fill under it too (see sharesRowSpans): both read the
                    // same values, which the border's job computes.
                    counts[i] = -2
                } else {
                    counts[i] = Int32(n); total += n
                }
                previousHasSpans = true
            }
        }
        totals[job] = Int32(total)
    }
}

/// Stage 2b's jobs: the shapes' coverage first (ShapeJobs), then the items' fingerprints, then
/// each chunk of top-level items: their offsets in the frame's span buffer (from the chunk's base
/// and the items' counts, SpanCountJobs), their row spans, their sprites' descriptions.
// @unchecked: `counts`, `bases`, `offsets` and `values` point into buffers the stage's caller
// holds until the stage ends; each job writes only its own items' offsets and spans.
struct ShapeAndSpanJobs: StageJobs, @unchecked Sendable {
    let shapes: ShapeJobs
    /// Where the items' fingerprints are written, a chunk a job (after the shapes' jobs), when a
    /// history keeps them.
    let fingerprints: JobResults<ItemFingerprints.Chunk>?
    let list: DisplayList
    let chunks: SpanChunks
    /// Each item's number of span values, -1 (none) or -2 (the previous item's): SpanCountJobs.
    let counts: UnsafePointer<Int32>
    /// Where each chunk's values start.
    let bases: UnsafePointer<Int32>
    /// Where each item's values start, -1 for none: written here.
    let offsets: UnsafeMutablePointer<Int32>
    let values: UnsafeMutablePointer<Int32>
    let frame: PixelRect
    let settings: DrawSettings
    /// Where an item's job writes its description when it is a sprite.
    let sprites: SpriteTable

    var count: Int { shapes.count + (fingerprints?.count ?? 0) + chunks.count }

    func run(_ job: Int) {
        let shapeCount = shapes.count, chunkCount = fingerprints?.count ?? 0
        guard job >= shapeCount else { shapes.shape(job, of: list).rasterize(); return }
        if let fingerprints, job < shapeCount + chunkCount {
            ItemFingerprints.fill(chunk: job - shapeCount, of: list, in: fingerprints)
            return
        }
        let c = job - shapeCount - chunkCount, range = chunks.range(c)
        var next = bases[c]
        list.items.withUnsafeBufferPointer { items in
            for i in range {
                let n = counts[i]
                // A sprite has no row spans (SpanKernel.rowSpanCount): it is described for the kernels.
                if n == -1 {
                    offsets[i] = -1
                    sprites.flags[i] = settings.spanKernels && SpanKernel.describeSprite(items[i], settings, into: sprites.items + i) ? 1 : 0
                    continue
                }
                sprites.flags[i] = 0
                if n == -2 {
                    // The previous item's values (its offset: in this chunk, or the last of the one
                    // before, whose values end where this chunk's start).
                    offsets[i] = i > range.lowerBound ? offsets[i - 1] : bases[c] - counts[i - 1]
                    continue
                }
                offsets[i] = next
                next += n
                // A border sharing the fill's spans computes them here, for both (the fill's
                // values are the border's: sharesRowSpans).
                if i + 1 < items.count, counts[i + 1] == -2 {
                    SpanKernel.fillRowSpans(of: items[i + 1], frame: frame, settings, into: values + Int(offsets[i]))
                } else {
                    SpanKernel.fillRowSpans(of: items[i], frame: frame, settings, into: values + Int(offsets[i]))
                }
            }
        }
    }
}

/// The kernels' descriptions (`strata_item`) of a frame's sprites (`ImagePlacement.sprite`: the
/// particles), by item index, written by the items' span jobs: a particle crossing tiles was
/// described again in each, and each time the draw item was copied (274 bytes, its image
/// retained and released, an atomic count both workers wrote: with the copies below, about a fifth
/// of a particle frame's time in a profile).
/// `flags[i]` is 1 where `items[i]` holds item i's description, 0 elsewhere.
// @unchecked: pointers into buffers the frame holds until its tile stage ends; each span job
// writes only its own item's slot and flag, the tile jobs only read. A description's texel
// pointer points into its image's pixels, which the frame's display list keeps alive and
// unchanged (CGImage.bitmap is a constant) until the tile stage ends.
struct SpriteTable: @unchecked Sendable {
    let items: UnsafeMutablePointer<strata_item>
    let flags: UnsafeMutablePointer<Int32>

    /// Item i's description, when it is a sprite.
    @inline(__always)
    func sprite(_ i: Int) -> UnsafePointer<strata_item>? { flags[i] != 0 ? UnsafePointer(items + i) : nil }

    /// Spare tables (one or two a frame in flight).
    private static let pool = MallocBufferPool<strata_item>(byteLimit: 32 << 20)

    /// A buffer of at least `count` descriptions (contents unspecified).
    static func take(_ count: Int) -> (items: UnsafeMutablePointer<strata_item>, capacity: Int) {
        let (b, capacity) = pool.take()
        if let b, capacity >= count { return (b, capacity) }
        free(b)
        let n = TileRenderer.pooledLength(count)
        // malloc'd, as the pool frees what it does not keep.
        return (malloc(n * MemoryLayout<strata_item>.stride)!.bindMemory(to: strata_item.self, capacity: n), n)
    }

    static func give(_ b: (items: UnsafeMutablePointer<strata_item>, capacity: Int)) {
        pool.give(b.items, capacity: b.capacity)
    }
}

/// How a frame's tiles were made, counted by the tile jobs.
struct TileOutcomes: ~Copyable {
    let copied = Atomic<Int>(0)
    let resumed = Atomic<Int>(0)
}

/// Stage 4's jobs: the tiles.
// @unchecked: `outcomes` points to the counters of the caller's frame, alive until the stage ends.
struct TileJobs: StageJobs, @unchecked Sendable {
    let tiles: FrameTiles
    let outcomes: UnsafePointer<TileOutcomes>
    /// The tile of each job (nil: job i draws tile i).
    let order: UnsafePointer<Int32>?

    func run(_ job: Int) {
        switch tiles.render(tile: order.map { Int($0[job]) } ?? job) {
        case .copied: outcomes.pointee.copied.add(1, ordering: .relaxed)
        case .resumed: outcomes.pointee.resumed.add(1, ordering: .relaxed)
        case .drawn: break
        }
    }
}

/// One frame's tiles as the workers see them: for each tile, copy it from the previous frame,
/// draw it from its kept prefix (over the changed part only, when that is smaller), or draw it
/// whole; then keep the prefix the next frame can start from. Each worker writes only its own
/// tiles' bytes of `target` and its own tiles' prefix slots.
// @unchecked: the target, source and YUV planes are raw pointers; every tile is given to one job,
// which writes only that tile's pixels (and chroma blocks: tiles have even sizes) and prefix
// slot, and reads the previous frame, which nothing writes during the stage.
struct FrameTiles: @unchecked Sendable {
    let list: DisplayList
    let bins: TileBins
    /// Row spans of the top-level items (by index).
    let spans: RowSpanTable
    let settings: DrawSettings
    let grid: TileGrid
    /// The number of this frame in the sequence.
    let generation: Int
    let fingerprints: ItemFingerprints?
    let previous: RenderedFrame?
    let prefixes: TilePrefixes?
    /// The frame whose bytes the output buffer already holds (a recycled buffer), if known.
    let bufferHolds: Int?
    let target: UnsafeMutablePointer<UInt8>
    /// The previous frame's bytes.
    let source: UnsafePointer<UInt8>?
    /// Where the tile's YUV goes, when the frame is wanted as YUV too.
    let yuv: YUVTargets?
    /// Notes every write of a tile when RenderOptions.verifiesTileCoverage is on.
    let coverage: TileCoverageLog?

    enum Outcome { case copied, resumed, drawn }

    func render(tile t: Int) -> Outcome {
        let outcome = draw(tile: t)
        if let yuv {
            let rect = rect(of: t)
            if outcome == .copied { yuv.copy(rect, rgba: target, settings) } else { yuv.convert(rect, from: target, settings) }
        }
        return outcome
    }

    /// The pixels of tile t.
    private func rect(of t: Int) -> PixelRect { grid.rect(of: t) }

    private func draw(tile t: Int) -> Outcome {
        let rect = rect(of: t)
        let order = bins[t]
        // The leading items unchanged since the previous frame.
        var same = 0
        let kept = prefixes?[t]
        if let previous, let fingerprints, let from = source {
            let oldOrder = previous.bins[t]
            same = fingerprints.commonPrefix(order, with: oldOrder, in: previous.fingerprints)
            let bufferHasTile = bufferHolds.map { prefixes?.isUnchanged(t, since: $0) == true } ?? false
            if same == order.count && same == oldOrder.count {
                // Unless the buffer's bytes for this tile are already these.
                if !bufferHasTile { TileRenderer.copy(rect, from: from, into: target, frameWidth: grid.width) }
                coverage?.note(t, bufferHasTile ? .held(rect) : .copied(rect))
                return .copied
            }
            // Only the items after the shared ones changed: outside their old and new bounds
            // every pixel has the same items as before, so it keeps its bytes, and the rest is
            // drawn from the kept prefix.
            if let prefixes, let kept, kept.count == same {
                var damage = PixelRect.empty
                for i in order.dropFirst(same) { damage = damage.union(list.items[Int(i)].bounds) }
                for i in oldOrder.dropFirst(same) { damage = damage.union(previous.list.items[Int(i)].bounds) }
                damage = damage.intersection(rect)
                if damage != rect {
                    if !bufferHasTile { TileRenderer.copy(rect, from: from, into: target, frameWidth: grid.width) }
                    coverage?.note(t, bufferHasTile ? .held(rect) : .copied(rect))
                    // A prefix kept without its planes (see `redrawable` below) is drawn again: its
                    // opaque item writes every pixel of the part.
                    let redraw = kept.planes.isEmpty
                    var part = redraw ? TileBuffer(uninitialized: damage) : TileBuffer(rect: rect, planes: kept.planes).cropped(to: damage)
                    _ = TileRasterizer.draw(list, order, from: redraw ? 0 : same, into: &part, keepingStateAt: nil, settings, spans: spans)
                    prefixes.drawn(t, by: generation)
                    TileRenderer.store(part, into: target, frameWidth: grid.width, settings)
                    coverage?.note(t, .stored(part.rect))
                    part.recycle()
                    return .resumed
                }
            }
        }
        if order.isEmpty {
            // No item touches the tile: it is transparent, what a zeroed buffer stores, written
            // straight into the frame (measured on rlottie's confetti.json at 1080p, where most
            // tiles are empty: zeroing their buffers was a fifth of a frame's instructions).
            TileRenderer.clear(rect, in: target, frameWidth: grid.width)
            if let prefixes {
                prefixes.drawn(t, by: generation)
                if let kept, kept.count > 0 { prefixes.drop(t) }  // no longer a prefix of this frame's items
            }
            coverage?.note(t, .stored(rect))
            return .drawn
        }
        var tile: TileBuffer
        var start = 0
        // An opaque item covering the tile: what lies below it (zeros, a kept prefix) is never seen.
        let opaque = TileRasterizer.lastOpaque(list, order, from: 0, rect: rect, settings)
        // A kept prefix that is an opaque fill and fills over it (from `opaque`, the last opaque item,
        // when that lies inside the prefix) is drawn again rather than copied: storing constants
        // costs less than reading the kept planes (cold: a frame's prefixes are larger than the
        // caches) and writing them. It stays kept, for the changed-part path above.
        let redrawn = kept.map { k in
            guard k.count <= same, let o = opaque, o < k.count else { return false }
            return TileRasterizer.areSolidFills(list, order, o..<k.count)
        } ?? false
        if let kept, !kept.planes.isEmpty, kept.count <= same, (opaque ?? 0) < kept.count, !redrawn {
            tile = TileBuffer(pooled: rect, copying: kept.planes)
            start = kept.count
        } else if opaque != nil {
            tile = TileBuffer(uninitialized: rect)
            // The opaque item must write every pixel: make any it misses show.
            if coverage != nil { tile.planes.withUnsafeMutableBufferPointer { $0.update(repeating: Float(0xCD) / 255) } }
        } else {
            tile = TileBuffer(pooled: rect)
        }
        let first = max(start, opaque ?? start)
        // A shared prefix that is an opaque item covering the tile with only solid fills after it
        // (a background, most often) is kept without its planes and drawn again where needed, as
        // `redrawn` does: it costs a store of constants, and keeping the planes of every such
        // tile cost 256 KB each (measured: the 1080p motion export peaked at 394 MiB, now 363 MiB).
        let redrawable = same > 0 && opaque.map { $0 < same && TileRasterizer.areSolidFills(list, order, $0..<same) } ?? false
        let mark = same > start && !redrawable && !(redrawn && kept?.count == same) ? same : nil
        let state = TileRasterizer.draw(list, order, from: start, into: &tile, keepingStateAt: mark, settings,
                                        opaqueFrom: first, spans: spans)
        if let prefixes {
            prefixes.drawn(t, by: generation)
            if redrawable {
                if kept?.count != same || kept?.planes.isEmpty != true {
                    prefixes.keep(TilePrefixes.Entry(count: same, planes: []), for: t)
                }
            } else if let state {
                prefixes.keep(TilePrefixes.Entry(count: same, planes: state), for: t)
            } else if let kept, kept.count > same {
                prefixes.drop(t)  // no longer a prefix of this frame's items
            }
        }
        TileRenderer.store(tile, into: target, frameWidth: grid.width, settings)
        coverage?.note(t, .stored(tile.rect))
        tile.recycle()
        return start > 0 ? .resumed : .drawn
    }
}
