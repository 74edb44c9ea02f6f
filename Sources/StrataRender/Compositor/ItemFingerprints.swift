// Fingerprints of draw items: every field that drawing reads, numbers by their bit patterns,
// images by their process-unique identifier (never reused), nested lists in full. Two items with
// the same words draw the same pixels; FrameHistory compares them to find unchanged tiles.
import Foundation
import StrataCore

/// Fingerprints of the top-level items of a display list, one word range per item. The items are
/// taken in chunks of `chunkLength`, each chunk's words and ranges arrays of its own, so that the
/// chunks can be written side by side (a job each in the renderer's span stage, the chunks handed
/// out and back through `JobResults`: 20 000 particles' fingerprints took 34 M instructions a
/// frame, one worker's alone).
struct ItemFingerprints {
    /// Items a chunk holds.
    static let chunkLength = 1024
    /// The fingerprints of each chunk of items, in order.
    private(set) var chunks: [Chunk] = []

    /// The words of a chunk of items and each item's range in them.
    struct Chunk: Sendable {
        var words: [UInt64] = []
        var ranges: [Range<Int>] = []

        /// Writes the fingerprints of chunk `c`'s items of `list` in place of these (their arrays'
        /// capacity kept).
        mutating func fill(chunk c: Int, of list: DisplayList) {
            let lower = c * ItemFingerprints.chunkLength, upper = min(lower + ItemFingerprints.chunkLength, list.items.count)
            // Moved into the writer: a second reference would make emptying it allocate anew.
            var all = words
            words = []
            all.removeAll(keepingCapacity: true)
            ranges.removeAll(keepingCapacity: true)
            withUnsafeTemporaryAllocation(of: UInt64.self, capacity: FingerprintWriter.scratchLength) { scratch in
                var w = FingerprintWriter(words: all, scratch: scratch.baseAddress!)
                all = []
                list.items.withUnsafeBufferPointer { items in
                    for i in lower..<max(lower, upper) {
                        let start = w.count
                        items[i].fingerprint(into: &w)
                        ranges.append(start..<w.count)
                    }
                }
                w.flush()
                words = w.words
            }
        }
    }

    /// The arrays of earlier fingerprints, emptied, to be filled again without allocating.
    struct Buffers {
        var chunks: [Chunk] = []
    }

    /// The fingerprints of `list`'s items, written here and now (one chunk after the other).
    init(_ list: DisplayList, reusing buffers: consuming Buffers = Buffers()) {
        chunks = Self.chunks(for: list, reusing: buffers)
        for c in chunks.indices { chunks[c].fill(chunk: c, of: list) }
    }

    /// Fingerprints of chunks written elsewhere (`fill(chunk:of:in:)`), in order.
    init(chunks: [Chunk]) { self.chunks = chunks }

    /// The chunks of `buffers`, as many as `list`'s items need, to be filled.
    static func chunks(for list: DisplayList, reusing buffers: consuming Buffers) -> [Chunk] {
        var chunks = (consume buffers).chunks
        let count = (list.items.count + chunkLength - 1) / chunkLength
        if chunks.count > count { chunks.removeLast(chunks.count - count) }
        while chunks.count < count { chunks.append(Chunk()) }
        return chunks
    }

    /// Writes chunk `c` of `list`'s fingerprints in `results`, where the stage's other jobs write
    /// theirs (its old arrays taken out, filled and put back).
    static func fill(chunk c: Int, of list: DisplayList, in results: JobResults<Chunk>) {
        var chunk = results.take(c, leaving: Chunk())
        chunk.fill(chunk: c, of: list)
        results.store(chunk, at: c)
    }

    /// All words in item order (for tests).
    var words: [UInt64] { chunks.flatMap(\.words) }
    /// Every item's range in its chunk's words, in item order (for tests).
    var ranges: [Range<Int>] { chunks.flatMap(\.ranges) }

    /// The arrays, emptied with their capacity kept, leaving these fingerprints empty.
    mutating func takeBuffers() -> Buffers {
        var b = Buffers(chunks: chunks)
        chunks = []
        for c in b.chunks.indices {
            b.chunks[c].words.removeAll(keepingCapacity: true)
            b.chunks[c].ranges.removeAll(keepingCapacity: true)
        }
        return b
    }

    /// Whether item `i` here draws exactly what item `j` of `other` draws.
    func same(_ i: Int, as j: Int, in other: ItemFingerprints) -> Bool {
        let (ci, ki) = i.quotientAndRemainder(dividingBy: Self.chunkLength)
        let (cj, kj) = j.quotientAndRemainder(dividingBy: Self.chunkLength)
        let a = chunks[ci].ranges[ki], b = other.chunks[cj].ranges[kj]
        guard a.count == b.count else { return false }
        return chunks[ci].words.withUnsafeBufferPointer { x in
            other.chunks[cj].words.withUnsafeBufferPointer { y in
                memcmp(x.baseAddress! + a.lowerBound, y.baseAddress! + b.lowerBound, a.count * 8) == 0
            }
        }
    }
}

extension DisplayList {
    /// Indices of the top-level items whose bounds touch `rect`, in drawing order.
    func indices(touching rect: PixelRect) -> [Int] {
        var out: [Int] = []
        // Through the buffer: iterating the array copied every whole item (measured: 27 % of a
        // frame of 5 000 particles went to those copies).
        items.withUnsafeBufferPointer { p in
            for i in p.indices where !p[i].bounds.intersection(rect).isEmpty { out.append(i) }
        }
        return out
    }
}

extension ItemFingerprints {
    /// How many leading items of `order` draw exactly what the leading items of `oldOrder` in
    /// `old` drew.
    func commonPrefix(_ order: ArraySlice<Int32>, with oldOrder: ArraySlice<Int32>, in old: ItemFingerprints) -> Int {
        var n = 0
        let a = order.startIndex, b = oldOrder.startIndex
        while n < order.count && n < oldOrder.count && same(Int(order[a + n]), as: Int(oldOrder[b + n]), in: old) { n += 1 }
        return n
    }
}

/// Collects the words of a fingerprint. Every variable-length part is preceded by its length
/// and every enum case by a tag, so different items never produce the same words.
/// Words are gathered in a scratch buffer of `scratchLength` and appended to `words` a buffer
/// at a time (`flush`): appended one by one, each word paid the array's uniqueness and capacity
/// checks — about 20 instructions, some 1 600 an item, 32 M of a 20 000 particle frame.
struct FingerprintWriter {
    /// The words flushed so far.
    private(set) var words: [UInt64]
    private let scratch: UnsafeMutablePointer<UInt64>
    private var pending = 0
    static let scratchLength = 512

    /// A writer appending to `words` through `scratch` (`scratchLength` words, held by the
    /// caller while the writer is used).
    init(words: [UInt64], scratch: UnsafeMutablePointer<UInt64>) {
        self.words = words
        self.scratch = scratch
    }

    /// The number of words written.
    var count: Int { words.count + pending }

    /// Appends the words gathered in the scratch buffer to `words`.
    mutating func flush() {
        words.append(contentsOf: UnsafeBufferPointer(start: scratch, count: pending))
        pending = 0
    }

    @inline(__always)
    mutating func add(_ v: UInt64) {
        if pending == Self.scratchLength { flush() }
        scratch[pending] = v
        pending += 1
    }
    mutating func add(_ v: Int) { add(UInt64(bitPattern: Int64(v))) }
    mutating func add(_ v: Bool) { add(v ? 1 as UInt64 : 0) }
    mutating func add(_ v: Double) { add(v.bitPattern) }
    mutating func add(_ v: CGFloat) { add(Double(v).bitPattern) }
    mutating func add(_ v: Float) { add(UInt64(v.bitPattern)) }
    mutating func add(_ v: SIMD4<Float>) {
        add(UInt64(v.x.bitPattern) | UInt64(v.y.bitPattern) << 32)
        add(UInt64(v.z.bitPattern) | UInt64(v.w.bitPattern) << 32)
    }
    mutating func add(_ r: CGRect) { add(r.origin.x); add(r.origin.y); add(r.size.width); add(r.size.height) }
    mutating func add(_ r: PixelRect) { add(r.x0); add(r.y0); add(r.x1); add(r.y1) }
    mutating func add(_ image: CGImage) { add(image.identifier) }
    mutating func add(_ h: Homography) {
        // Element by element: an array literal here allocated twice an item.
        let m = h.m
        add(m.0); add(m.1); add(m.2); add(m.3); add(m.4); add(m.5); add(m.6); add(m.7); add(m.8)
    }
    mutating func add(_ s: RoundedRect) {
        add(s.rect); add(s.radii.0); add(s.radii.1); add(s.radii.2); add(s.radii.3)
    }
    mutating func add(_ r: CGRect?) {
        if let r { add(1 as UInt64); add(r) } else { add(0 as UInt64) }
    }
    mutating func add(_ p: CGPoint) { add(p.x); add(p.y) }
    mutating func add(_ shape: ShapeContent) {
        add(shape.path.elements.count)
        for e in shape.path.elements {
            switch e {
            case .moveToPoint(let p): add(1 as UInt64); add(p)
            case .addLineToPoint(let p): add(2 as UInt64); add(p)
            case .addQuadCurveToPoint(let c, let p): add(3 as UInt64); add(c); add(p)
            case .addCurveToPoint(let c1, let c2, let p): add(4 as UInt64); add(c1); add(c2); add(p)
            case .closeSubpath: add(5 as UInt64)
            }
        }
        add(shape.fillRule == .evenOdd); add(shape.lineWidth); add(Int(shape.lineCap.rawValue)); add(Int(shape.lineJoin.rawValue))
        add(shape.miterLimit); add(shape.dashPattern.count)
        for d in shape.dashPattern { add(d) }
        add(shape.dashPhase); add(shape.strokeStart); add(shape.strokeEnd)
    }
    mutating func add(_ list: DisplayList) {
        add(list.items.count)
        add(UInt64(list.maskMode.rawValue))
        for item in list.items { item.fingerprint(into: &self) }
        add(list.effects.count)
        for e in list.effects {
            switch e {
            case .fill(let c, let o): add(1 as UInt64); add(c); add(o)
            case .tint(let b, let w, let a): add(2 as UInt64); add(b); add(w); add(a)
            case .tritone(let h, let m, let s, let b): add(3 as UInt64); add(h); add(m); add(s); add(b)
            case .blur(let sx, let sy): add(4 as UInt64); add(sx); add(sy)
            case .ramp(let h, let a, let b, let c0, let c1, let radial, let blend):
                add(5 as UInt64); add(h); add(a.x); add(a.y); add(b.x); add(b.y); add(c0); add(c1); add(radial); add(blend)
            }
        }
    }
}

extension DrawItem {
    func fingerprint(into w: inout FingerprintWriter) {
        op.fingerprint(into: &w)
        w.add(plane.toScreen); w.add(plane.fromScreen); w.add(plane.antialiased)
        w.add(bounds)
        w.add(clips.count)
        for c in clips {
            w.add(c.plane.toScreen); w.add(c.plane.fromScreen); w.add(c.plane.antialiased)
            w.add(c.shape); w.add(c.bounds)
        }
        switch blendMode {
        case .sourceOver: w.add(0 as UInt64)
        case .additive: w.add(1 as UInt64)
        case .blend(let mode): w.add(2 as UInt64); w.add(UInt64(mode.rawValue))
        }
        if let o = outline {
            w.add(1 as UInt64)
            for k in 0..<4 { w.add(o.xs[k]); w.add(o.ys[k]) }
        } else {
            w.add(0 as UInt64)
        }
    }
}

extension DrawOp {
    func fingerprint(into w: inout FingerprintWriter) {
        switch self {
        case .fill(let shape, let color):
            w.add(1 as UInt64); w.add(shape); w.add(color)
        case .ring(let outer, let inner, let color):
            w.add(2 as UInt64); w.add(outer); w.add(inner); w.add(color)
        case .image(let p, let clip, let opacity):
            w.add(3 as UInt64)
            w.add(p.image); w.add(p.destination); w.add(p.source); w.add(p.nearest); w.add(p.sprite)
            w.add(p.cell); w.add(p.coverage)
            if let b = p.blend { w.add(1 as UInt64); w.add(b.image); w.add(b.weight) } else { w.add(0 as UInt64) }
            if let t = p.tint { w.add(1 as UInt64); w.add(t) } else { w.add(0 as UInt64) }
            if let m = p.modulate { w.add(1 as UInt64); w.add(m) } else { w.add(0 as UInt64) }
            if let clip { w.add(1 as UInt64); w.add(clip) } else { w.add(0 as UInt64) }
            w.add(opacity)
        case .gradient(let paint, let clip):
            w.add(4 as UInt64)
            paint.fingerprint(into: &w)
            w.add(clip)
        case .group(let list, let opacity, let mask):
            w.add(5 as UInt64)
            w.add(list); w.add(opacity)
            if let mask { w.add(1 as UInt64); w.add(mask) } else { w.add(0 as UInt64) }
        case .mix(let from, let to, let t):
            w.add(6 as UInt64); w.add(from); w.add(to); w.add(t)
        case .depthComposite(let faces):
            w.add(7 as UInt64); w.add(faces.count)
            for f in faces {
                w.add(f.items)
                let p = f.plane
                w.add(p.mapper)
                w.add(p.zu); w.add(p.zv); w.add(p.z0); w.add(p.wu); w.add(p.wv); w.add(p.w0)
            }
        case .shadow(let s):
            // The kernel is a function of sigma.
            w.add(8 as UInt64); w.add(s.source); w.add(s.color); w.add(s.dx); w.add(s.dy); w.add(s.sigma)
        case .vector(let shape, let color):
            // The scale sets the flattening. The map and region are the item's plane and bounds
            // today, but the coverage is computed from the shape's own: fingerprinted too, so
            // that nothing depends on the builder keeping them equal.
            w.add(9 as UInt64); w.add(shape.part == .fill); w.add(shape.scale); w.add(color)
            w.add(shape.toScreen); w.add(shape.region)
            w.add(shape.content)
        case .glyphs(let placed, let color):
            w.add(10 as UInt64); w.add(color)
            placed.fingerprint(into: &w)
        }
    }
}

extension GradientPaint {
    func fingerprint(into w: inout FingerprintWriter) {
        switch kind {
        case .axial: w.add(1 as UInt64)
        case .radial: w.add(2 as UInt64)
        case .conic: w.add(3 as UInt64)
        }
        w.add(sx); w.add(sy); w.add(ex); w.add(ey); w.add(dx); w.add(dy); w.add(invLen2); w.add(rx); w.add(ry); w.add(baseAngle)
        w.add(focal)
        w.add(fx); w.add(fy); w.add(focalA)
        w.add(stops.count)
        for s in stops { w.add(s) }
        w.add(colors.count)
        for c in colors { w.add(c) }
        w.add(opacity)
    }
}
