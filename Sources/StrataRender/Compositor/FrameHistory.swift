// Reusing the unchanged tiles of the previous frame. A tile's pixels are a function of the draw
// items whose bounds touch it and of the tile's position, nothing else (see TileRasterizer), so
// when the items touching a tile are, in order, exactly those that touched it in the previous
// frame, its pixels are exactly the previous frame's and are copied instead of drawn. "Exactly"
// is decided on fingerprints: every field that drawing reads, numbers by their bit patterns,
// images by their process-unique identifier (never reused), nested lists in full. Copying
// therefore gives the same bytes as drawing, so frames stay identical for any worker count, tile
// size, frame range or rendering order; in a typical motion-graphics frame most of the area
// does not change from one frame to the next.
import Foundation
import StrataCore

/// The previous frame of a sequence, kept so that the next frame can reuse its unchanged tiles.
/// One history belongs to one sequence of frames (a scene keeps one); frames of another size
/// simply do not reuse anything.
public final class FrameHistory: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: RenderedFrame?

    public init() {}

    /// The last frame recorded, if it has the given size.
    func previous(width: Int, height: Int) -> RenderedFrame? {
        lock.lock(); defer { lock.unlock() }
        guard let s = stored, s.bitmap.width == width, s.bitmap.height == height else { return nil }
        return s
    }

    func record(_ frame: RenderedFrame, tiles: Int, reused: Int) {
        lock.lock(); stored = frame; tileCount += tiles; reusedCount += reused; lock.unlock()
    }

    private var tileCount = 0, reusedCount = 0
    /// Tiles drawn or copied so far, and how many of them were copied from a previous frame.
    public var tileStatistics: (tiles: Int, reused: Int) {
        lock.lock(); defer { lock.unlock() }
        return (tileCount, reusedCount)
    }

    /// Forgets the previous frame (its display list holds images alive).
    public func clear() {
        lock.lock(); stored = nil; lock.unlock()
    }
}

/// A finished frame with the display list and fingerprints it was drawn from.
struct RenderedFrame {
    var list: DisplayList
    var fingerprints: ItemFingerprints
    var bitmap: Bitmap
}

/// Fingerprints of the top-level items of a display list, one word range per item.
struct ItemFingerprints {
    private(set) var words: [UInt64] = []
    private(set) var ranges: [Range<Int>] = []

    init(_ list: DisplayList) {
        var w = FingerprintWriter()
        ranges.reserveCapacity(list.items.count)
        for item in list.items {
            let start = w.words.count
            item.fingerprint(into: &w)
            ranges.append(start..<w.words.count)
        }
        words = w.words
    }

    /// Whether item `i` here draws exactly what item `j` of `other` draws.
    func same(_ i: Int, as j: Int, in other: ItemFingerprints) -> Bool {
        let a = ranges[i], b = other.ranges[j]
        guard a.count == b.count else { return false }
        return words.withUnsafeBufferPointer { x in
            other.words.withUnsafeBufferPointer { y in
                memcmp(x.baseAddress! + a.lowerBound, y.baseAddress! + b.lowerBound, a.count * 8) == 0
            }
        }
    }
}

extension RenderedFrame {
    /// Whether `rect` of a frame drawn from `list` (with `fingerprints`) has exactly this frame's
    /// pixels: the items touching it are the same, in the same order.
    func hasSamePixels(in rect: PixelRect, as list: DisplayList, _ fingerprints: ItemFingerprints) -> Bool {
        let cur = list.items, old = self.list.items
        var i = 0, j = 0
        while true {
            while i < cur.count && cur[i].bounds.intersection(rect).isEmpty { i += 1 }
            while j < old.count && old[j].bounds.intersection(rect).isEmpty { j += 1 }
            if i == cur.count || j == old.count { return i == cur.count && j == old.count }
            if !fingerprints.same(i, as: j, in: self.fingerprints) { return false }
            i += 1; j += 1
        }
    }
}

/// Collects the words of a fingerprint. Every variable-length part is preceded by its length
/// and every enum case by a tag, so different items never produce the same words.
struct FingerprintWriter {
    var words: [UInt64] = []

    mutating func add(_ v: UInt64) { words.append(v) }
    mutating func add(_ v: Int) { words.append(UInt64(bitPattern: Int64(v))) }
    mutating func add(_ v: Bool) { words.append(v ? 1 : 0) }
    mutating func add(_ v: Double) { words.append(v.bitPattern) }
    mutating func add(_ v: CGFloat) { words.append(Double(v).bitPattern) }
    mutating func add(_ v: Float) { words.append(UInt64(v.bitPattern)) }
    mutating func add(_ v: SIMD4<Float>) {
        words.append(UInt64(v.x.bitPattern) | UInt64(v.y.bitPattern) << 32)
        words.append(UInt64(v.z.bitPattern) | UInt64(v.w.bitPattern) << 32)
    }
    mutating func add(_ r: CGRect) { add(r.origin.x); add(r.origin.y); add(r.size.width); add(r.size.height) }
    mutating func add(_ r: PixelRect) { add(r.x0); add(r.y0); add(r.x1); add(r.y1) }
    mutating func add(_ image: CGImage) { add(image.identifier) }
    mutating func add(_ h: Homography) {
        let m = h.m
        for v in [m.0, m.1, m.2, m.3, m.4, m.5, m.6, m.7, m.8] { add(v) }
    }
    mutating func add(_ s: RoundedRect) {
        add(s.rect); add(s.radii.0); add(s.radii.1); add(s.radii.2); add(s.radii.3)
    }
    mutating func add(_ r: CGRect?) {
        if let r { add(1 as UInt64); add(r) } else { add(0 as UInt64) }
    }
    mutating func add(_ list: DisplayList) {
        add(list.items.count)
        for item in list.items { item.fingerprint(into: &self) }
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
            w.add(p.image); w.add(p.destination); w.add(p.source); w.add(p.nearest)
            w.add(p.cell); w.add(p.coverage)
            if let b = p.blend { w.add(1 as UInt64); w.add(b.image); w.add(b.weight) } else { w.add(0 as UInt64) }
            if let t = p.tint { w.add(1 as UInt64); w.add(t) } else { w.add(0 as UInt64) }
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
                for v in [p.zu, p.zv, p.z0, p.wu, p.wv, p.w0] { w.add(v) }
            }
        case .shadow(let s):
            // The kernel is a function of sigma.
            w.add(8 as UInt64); w.add(s.source); w.add(s.color); w.add(s.dx); w.add(s.dy); w.add(s.sigma)
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
        for v in [sx, sy, ex, ey, dx, dy, invLen2, rx, ry, baseAngle] { w.add(v) }
        w.add(stops.count)
        for s in stops { w.add(s) }
        w.add(colors.count)
        for c in colors { w.add(c) }
        w.add(opacity)
    }
}
