// A shadow's blurred silhouette, made once per frame (not once per tile) and kept between frames
// by what the silhouette is, so that a shadow whose silhouette does not change is not blurred
// again when content inside its layer changes, and one that only moved is a moved copy.
//
// The silhouette is the alpha of the shadow's source. When the source starts with an opaque
// rounded rectangle (a layer's background) and every other item lies inside that rectangle's fully
// covered interior, the alpha is the rectangle's alone: the mask is then keyed by the rectangle,
// its map without the translation and the blur, and nothing is drawn to find it. Otherwise the
// source's alpha is drawn once and the mask keyed by those exact values (an integer move of the
// same pixels is the same key). Either way the mask is a function of its key only, so a frame is
// the same whatever was drawn before it.
//
// The blur: ten extended box passes per axis for σ ≥ 2 (boxes whose variances add up to σ²,
// as browsers and Skia approximate a Gaussian with box passes), in integer arithmetic,
// O(pixels) whatever σ; an exact Gaussian below (a kernel of at most 13 taps).
import Foundation
import StrataCore
import Synchronization

/// Blurs of alpha masks whose cost does not grow with the blur's width.
enum AlphaBlur {
    /// Below this σ the blur is an exact Gaussian (the box approximation is coarse for few taps).
    static let boxSigma = 2.0

    /// Box passes per axis: each adds σ²/10 of variance. Ten keep a step edge within 0.35 % of
    /// the (3σ-truncated) Gaussian's (five: 0.63 %, three: 1 %), so that shadows stay within two
    /// levels of 255 of the exact blur the reference frames were made with.
    static let passes = 10

    /// One pass's box for a blur of `sigma`: the mean over 2r + 1 pixels and a weight `alpha`
    /// (0…1) for each of the next two, so that the passes' variances add up to σ² exactly
    /// (Gwosdek et al., "Theoretical foundations of Gaussian convolution by extended box
    /// filtering"): whole-pixel boxes alone miss σ by up to half a pixel a pass.
    static func box(sigma: Double) -> (r: Int, alpha: Double) {
        let v = sigma * sigma / Double(passes)
        let r = max(0, Int((0.5 * (12 * v + 1).squareRoot() - 0.5).rounded(.down)))
        let rr = Double(r)
        let alpha = (2 * rr + 1) * (rr * (rr + 1) - 3 * v) / (6 * (v - (rr + 1) * (rr + 1)))
        return (r, min(max(alpha, 0), 1))
    }

    /// The exact Gaussian's weights for offsets −r…r (σ < `boxSigma`), or nil for no blur.
    static func gaussian(sigma: Double) -> [Float]? {
        guard sigma >= 0.05 else { return nil }
        let r = Int((3 * sigma).rounded(.up))
        let k = (-r...r).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let sum = k.reduce(0, +)
        return k.map { Float($0 / sum) }
    }

    /// Pixels the blur of `sigma` reaches on each side.
    static func reach(sigma: Double) -> Int {
        guard sigma >= 0.05 else { return 0 }
        if sigma < boxSigma { return Int((3 * sigma).rounded(.up)) }
        return passes * (box(sigma: sigma).r + 1)
    }

    /// Blurs the `width` × `height` alpha values `a` (0…1, row by row) in place; values the blur
    /// would move past the edges are lost (callers leave `reach` pixels of zeros around).
    static func blur(_ a: inout [Float], width w: Int, height h: Int, sigma: Double) {
        guard w > 0, h > 0, sigma >= 0.05 else { return }
        if sigma < boxSigma, let k = gaussian(sigma: sigma) {
            convolve(&a, width: w, height: h, kernel: k)
            return
        }
        boxBlur(&a, width: w, height: h, sigmaX: sigma, sigmaY: sigma)
    }

    /// Blurs the `width` × `height` values `a` (0…1, row by row) in place by box passes, along
    /// rows with σ `sigmaX` and along columns with σ `sigmaY` (below `boxSigma`: not blurred that
    /// way; a layer effect's wide blurs, GroupEffects.swift), in the fixed point of `blur`.
    static func boxBlur(_ a: inout [Float], width w: Int, height h: Int, sigmaX: Double, sigmaY: Double) {
        guard w > 0, h > 0, sigmaX >= boxSigma || sigmaY >= boxSigma else { return }
        // Fixed point, 16 bits: the running sums are exact, so the passes give the same values
        // wherever the silhouette sits and exact zeros where nothing reaches.
        let one: Float = 65535
        var q = [Int32](repeating: 0, count: w * h)
        for i in 0..<(w * h) { q[i] = Int32((min(max(a[i], 0), 1) * one).rounded()) }
        // Weights in 32-bit fixed point: 1/w inside the box, α/w at its two ends.
        func weights(_ sigma: Double) -> (r: Int, inner: Int64, end: Int64) {
            let (r, alpha) = box(sigma: sigma)
            let width = Double(2 * r + 1) + 2 * alpha
            return (r, Int64((4_294_967_296 / width).rounded()), Int64((4_294_967_296 * alpha / width).rounded()))
        }
        q.withUnsafeMutableBufferPointer { q in
            if sigmaX >= boxSigma {
                let (r, inner, end) = weights(sigmaX)
                var row = [Int32](repeating: 0, count: w)
                row.withUnsafeMutableBufferPointer { row in
                    for y in 0..<h {
                        let line = q.baseAddress! + y * w
                        for _ in 0..<passes {
                            row.baseAddress!.update(from: line, count: w)
                            boxPass(row.baseAddress!, into: line, count: w, r: r, inner: inner, end: end)
                        }
                    }
                }
            }
            if sigmaY >= boxSigma {
                let (r, inner, end) = weights(sigmaY)
                var other = [Int32](repeating: 0, count: w * h)
                other.withUnsafeMutableBufferPointer { other in
                    var src = q.baseAddress!, dst = other.baseAddress!
                    for _ in 0..<passes {
                        columnPass(src, into: dst, width: w, height: h, r: r, inner: inner, end: end)
                        swap(&src, &dst)
                    }
                    if src != q.baseAddress! { q.baseAddress!.update(from: src, count: w * h) }
                }
            }
        }
        let inv = 1 / one
        for i in 0..<(w * h) { a[i] = Float(q[i]) * inv }
    }

    /// One extended box pass along a line of `count` values (zeros beyond its ends).
    private static func boxPass(_ src: UnsafePointer<Int32>, into dst: UnsafeMutablePointer<Int32>, count n: Int,
                                r: Int, inner: Int64, end: Int64) {
        @inline(__always) func at(_ i: Int) -> Int64 { i >= 0 && i < n ? Int64(src[i]) : 0 }
        var sum: Int64 = 0
        for i in 0..<min(r, n) { sum += Int64(src[i]) }
        for x in 0..<n {
            sum += at(x + r)
            let v = sum &* inner &+ (at(x - r - 1) &+ at(x + r + 1)) &* end &+ (1 << 31)
            dst[x] = Int32(truncatingIfNeeded: v >> 32)
            sum -= at(x - r)
        }
    }

    /// An extended box pass down every column at once.
    private static func columnPass(_ src: UnsafePointer<Int32>, into dst: UnsafeMutablePointer<Int32>, width w: Int, height h: Int,
                                   r: Int, inner: Int64, end: Int64) {
        var sums = [Int64](repeating: 0, count: w)
        sums.withUnsafeMutableBufferPointer { s in
            let s = s.baseAddress!
            for y in 0..<min(r, h) { let row = src + y * w; for x in 0..<w { s[x] += Int64(row[x]) } }
            for y in 0..<h {
                if y + r < h { let row = src + (y + r) * w; for x in 0..<w { s[x] += Int64(row[x]) } }
                let out = dst + y * w
                let above: UnsafePointer<Int32>? = y - r - 1 >= 0 ? src + (y - r - 1) * w : nil
                let below: UnsafePointer<Int32>? = y + r + 1 < h ? src + (y + r + 1) * w : nil
                for x in 0..<w {
                    let ends = Int64(above?[x] ?? 0) &+ Int64(below?[x] ?? 0)
                    out[x] = Int32(truncatingIfNeeded: (s[x] &* inner &+ ends &* end &+ (1 << 31)) >> 32)
                }
                if y - r >= 0 { let row = src + (y - r) * w; for x in 0..<w { s[x] -= Int64(row[x]) } }
            }
        }
    }

    /// A separable convolution with `k` (odd length, centred), zeros beyond the edges.
    private static func convolve(_ a: inout [Float], width w: Int, height h: Int, kernel k: [Float]) {
        let r = k.count / 2
        var t = [Float](repeating: 0, count: w * h)
        for y in 0..<h { for x in 0..<w {
            var acc: Float = 0
            for d in max(-r, -x)...min(r, w - 1 - x) { acc += a[y * w + x + d] * k[d + r] }
            t[y * w + x] = acc
        } }
        for y in 0..<h { for x in 0..<w {
            var acc: Float = 0
            for d in max(-r, -y)...min(r, h - 1 - y) { acc += t[(y + d) * w + x] * k[d + r] }
            a[y * w + x] = acc
        } }
    }
}

/// A blurred silhouette: `alpha` on a grid of `width` × `height` pixels whose first pixel is at
/// (`x0`, `y0`) of the silhouette's own pixel grid.
final class ShadowMask: Sendable {
    let width: Int, height: Int
    let x0: Int, y0: Int
    let alpha: [Float]
    /// The unblurred alpha it was made from, when the key is a hash of it (checked on a hit).
    let source: [Float]?

    init(width: Int, height: Int, x0: Int, y0: Int, alpha: [Float], source: [Float]?) {
        self.width = width; self.height = height; self.x0 = x0; self.y0 = y0; self.alpha = alpha; self.source = source
    }

    var bytes: Int { 4 * (alpha.count + (source?.count ?? 0)) + 64 }
}

/// A mask placed on screen: the mask's pixel (i, j) is at screen pixel (x0 + i + shiftX, y0 + j + shiftY).
struct PlacedShadowMask: Sendable {
    let mask: ShadowMask
    let shiftX: Double, shiftY: Double
}

/// The mask of one shadow item of one frame, found by the first tile that draws it.
public final class ShadowMaskSlot: Sendable {
    private enum State: Sendable { case unresolved, resolved(PlacedShadowMask?) }
    private let state = Mutex<State>(.unresolved)
    /// The frame's pixels, when known: a silhouette wholly on it may be found without drawing.
    let frame: PixelRect?

    init(frame: PixelRect?) { self.frame = frame }

    /// The placed mask of `paint`, or nil when it is too large to keep (the caller blurs per tile).
    func mask(for paint: ShadowPaint, _ settings: DrawSettings) -> PlacedShadowMask? {
        state.withCheckedLock { s in
            if case .resolved(let m) = s { return m }
            let m = ShadowMaskCache.placedMask(for: paint, frame: frame, settings)
            s = .resolved(m)
            return m
        }
    }
}

/// The masks of recent silhouettes, by key, bounded in bytes (oldest use dropped first).
enum ShadowMaskCache {
    struct Key: Hashable, Sendable { var words: [UInt64] }
    private struct Entry { var mask: ShadowMask; var used: UInt64 }
    private struct State { var entries: [Key: Entry] = [:]; var bytes = 0; var clock: UInt64 = 0 }
    private static let state = Mutex<State>(State())
    /// The bytes of masks kept.
    static let byteLimit = 96 << 20
    /// Masks larger than this many pixels are not made (the shadow is blurred tile by tile).
    static func pixelLimit(_ source: PixelRect) -> Int { 8 << 20 }

    /// Counts for tests: masks made (blurred) and found.
    static let made = Atomic<Int>(0), found = Atomic<Int>(0)

    /// Empties the cache (tests).
    static func removeAll() { state.withCheckedLock { $0 = State() } }

    private static func lookup(_ key: Key, source: [Float]?) -> ShadowMask? {
        state.withCheckedLock { s -> ShadowMask? in
            guard var e = s.entries[key], e.mask.source == source else { return nil }
            s.clock += 1; e.used = s.clock; s.entries[key] = e
            return e.mask
        }
    }

    private static func insert(_ mask: ShadowMask, for key: Key) {
        state.withCheckedLock { s in
            s.clock += 1
            if let old = s.entries[key] { s.bytes -= old.mask.bytes }
            s.entries[key] = Entry(mask: mask, used: s.clock)
            s.bytes += mask.bytes
            while s.bytes > byteLimit, s.entries.count > 1,
                  let oldest = s.entries.min(by: { $0.value.used < $1.value.used }), oldest.key != key {
                s.bytes -= oldest.value.mask.bytes
                s.entries[oldest.key] = nil
            }
        }
    }

    /// The source's first item when its alpha alone is the source's: an opaque rounded
    /// rectangle in an affine plane, with every other item inside its fully covered interior.
    static func silhouetteFill(of source: DisplayList) -> (shape: RoundedRect, item: DrawItem)? {
        guard let first = source.items.first, case .fill(let shape, let color) = first.op, color.w >= 1,
              first.clips.isEmpty, first.blendMode == .sourceOver,
              first.plane.toScreen.isAffine, first.plane.fromScreen.isAffine else { return nil }
        guard source.items.count > 1 else { return (shape, first) }
        // One pixel and a half of margin, in the plane's units (its smallest stretch).
        let m = first.plane.toScreen.m
        let a = m.0, b = m.1, c = m.3, d = m.4
        let t = a * a + b * b + c * c + d * d, det = abs(a * d - b * c)
        let smallest = ((t - (max(0, t * t - 4 * det * det)).squareRoot()) / 2).squareRoot()
        guard smallest > 1e-6, smallest.isFinite else { return nil }
        let inner = shape.inset(by: 1.5 / smallest)
        guard inner.rect.width > 0, inner.rect.height > 0 else { return nil }
        let inv = first.plane.fromScreen
        for item in source.items.dropFirst() {
            let bb = item.bounds
            guard !bb.isEmpty else { continue }
            for (x, y) in [(bb.x0, bb.y0), (bb.x1, bb.y0), (bb.x0, bb.y1), (bb.x1, bb.y1)] {
                let (u, v, _) = inv.apply(Double(x), Double(y))
                if !inner.contains(u, v) { return nil }
            }
        }
        return (shape, first)
    }

    /// The placed mask of `paint`: from the cache, or made and kept.
    static func placedMask(for paint: ShadowPaint, frame: PixelRect?, _ settings: DrawSettings) -> PlacedShadowMask? {
        let sigma = paint.sigma
        let reach = AlphaBlur.reach(sigma: sigma)
        let src = paint.source.bounds
        guard !src.isEmpty else { return nil }
        let sigmaBits = sigma.bitPattern
        if let frame, let (shape, item) = silhouetteFill(of: paint.source) {
            let H = item.plane.toScreen
            let tx = H.m.6, ty = H.m.7
            // A wide blur is smooth: a move by a fraction of a pixel is the bilinear sampling's.
            // A narrow one keeps the fraction in the silhouette.
            let whole = sigma >= AlphaBlur.boxSigma
            let baseX = whole ? tx : tx.rounded(.down), baseY = whole ? ty : ty.rounded(.down)
            var H0 = H
            H0.m.6 = tx - baseX; H0.m.7 = ty - baseY
            // The whole rectangle must be on the frame (elsewhere the source is cut at its edges).
            let area = cornerBounds(shape.rect, H0, margin: 1)
            let full = cornerBounds(shape.rect, H, margin: 0)
            if !full.isEmpty, !area.isEmpty, full.intersection(frame) == full {
                var words: [UInt64] = [1, sigmaBits, item.plane.antialiased ? 1 : 0]
                for v in [Double(shape.rect.minX), Double(shape.rect.minY), Double(shape.rect.width), Double(shape.rect.height),
                          shape.radii.0, shape.radii.1, shape.radii.2, shape.radii.3, H0.m.0, H0.m.1, H0.m.3, H0.m.4, H0.m.6, H0.m.7] {
                    words.append(v.bitPattern)
                }
                let key = Key(words: words)
                if let mask = lookup(key, source: nil) {
                    found.add(1, ordering: .relaxed)
                    return PlacedShadowMask(mask: mask, shiftX: baseX, shiftY: baseY)
                }
                let grid = PixelRect(x0: area.x0 - reach, y0: area.y0 - reach, x1: area.x1 + reach, y1: area.y1 + reach)
                guard (grid.x1 - grid.x0) * (grid.y1 - grid.y0) <= pixelLimit(src), let inverse = H0.inverted() else { return nil }
                let canonical = DrawItem(op: .fill(shape, SIMD4(0, 0, 0, 1)),
                                         plane: PlaneMap(toScreen: H0, fromScreen: inverse, antialiased: item.plane.antialiased),
                                         bounds: area, clips: [])
                var alpha = renderAlpha(DisplayList(items: [canonical]), area: area, grid: grid, settings)
                AlphaBlur.blur(&alpha, width: grid.x1 - grid.x0, height: grid.y1 - grid.y0, sigma: sigma)
                let mask = ShadowMask(width: grid.x1 - grid.x0, height: grid.y1 - grid.y0, x0: grid.x0, y0: grid.y0,
                                      alpha: alpha, source: nil)
                made.add(1, ordering: .relaxed)
                insert(mask, for: key)
                return PlacedShadowMask(mask: mask, shiftX: baseX, shiftY: baseY)
            }
        }
        // The source's alpha, drawn once; its mask kept by those values, wherever they sit.
        let grid = PixelRect(x0: src.x0 - reach, y0: src.y0 - reach, x1: src.x1 + reach, y1: src.y1 + reach)
        guard (grid.x1 - grid.x0) * (grid.y1 - grid.y0) <= pixelLimit(src) else { return nil }
        var buffer = TileBuffer(rect: src)
        TileRasterizer.draw(paint.source, into: &buffer, settings)
        let values = buffer.alphas
        let key = Key(words: [2, sigmaBits, UInt64(src.x1 - src.x0), UInt64(src.y1 - src.y0), hash(values)])
        let placed = { (mask: ShadowMask) in
            PlacedShadowMask(mask: mask, shiftX: Double(src.x0), shiftY: Double(src.y0))
        }
        if let mask = lookup(key, source: values) {
            found.add(1, ordering: .relaxed)
            return placed(mask)
        }
        let local = PixelRect(x0: 0, y0: 0, x1: src.x1 - src.x0, y1: src.y1 - src.y0)
        let localGrid = PixelRect(x0: -reach, y0: -reach, x1: local.x1 + reach, y1: local.y1 + reach)
        var alpha = padded(values, area: local, grid: localGrid)
        AlphaBlur.blur(&alpha, width: localGrid.x1 - localGrid.x0, height: localGrid.y1 - localGrid.y0, sigma: sigma)
        let mask = ShadowMask(width: localGrid.x1 - localGrid.x0, height: localGrid.y1 - localGrid.y0, x0: -reach, y0: -reach,
                              alpha: alpha, source: values)
        made.add(1, ordering: .relaxed)
        insert(mask, for: key)
        return placed(mask)
    }

    /// The alpha of `list` drawn over `area`, placed in a zeroed `grid` around it.
    private static func renderAlpha(_ list: DisplayList, area: PixelRect, grid: PixelRect, _ settings: DrawSettings) -> [Float] {
        var buffer = TileBuffer(rect: area)
        TileRasterizer.draw(list, into: &buffer, settings)
        return padded(buffer.alphas, area: area, grid: grid)
    }

    private static func padded(_ values: [Float], area: PixelRect, grid: PixelRect) -> [Float] {
        let gw = grid.x1 - grid.x0, aw = area.x1 - area.x0
        var out = [Float](repeating: 0, count: gw * (grid.y1 - grid.y0))
        for y in area.y0..<area.y1 {
            let s = (y - area.y0) * aw, d = (y - grid.y0) * gw + (area.x0 - grid.x0)
            for x in 0..<aw { out[d + x] = values[s + x] }
        }
        return out
    }

    /// The pixels a rectangle of the plane covers through `H` (its corners' box, a pixel of margin).
    private static func cornerBounds(_ r: CGRect, _ H: Homography, margin: Int) -> PixelRect {
        var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
        for (u, v) in [(r.minX, r.minY), (r.maxX, r.minY), (r.minX, r.maxY), (r.maxX, r.maxY)] {
            let (X, Y, _) = H.apply(Double(u), Double(v))
            x0 = min(x0, X); y0 = min(y0, Y); x1 = max(x1, X); y1 = max(y1, Y)
        }
        guard x0.isFinite, y0.isFinite, x1.isFinite, y1.isFinite, max(abs(x0), abs(y0), abs(x1), abs(y1)) < 1e8 else {
            return PixelRect(x0: 0, y0: 0, x1: 0, y1: 0)
        }
        return PixelRect(x0: Int(x0.rounded(.down)) - margin, y0: Int(y0.rounded(.down)) - margin,
                         x1: Int(x1.rounded(.up)) + margin, y1: Int(y1.rounded(.up)) + margin)
    }

    /// A 64-bit hash of the values' bits.
    private static func hash(_ values: [Float]) -> UInt64 {
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(values.count)
        values.withUnsafeBufferPointer { v in
            for x in v {
                h = (h ^ UInt64(x.bitPattern)) &* 0xFF51_AFD7_ED55_8CCD
                h ^= h >> 29
            }
        }
        return h
    }
}

extension RoundedRect {
    /// Whether the point (u, v) of its plane lies inside (rounded corners included).
    func contains(_ u: Double, _ v: Double) -> Bool {
        let x0 = Double(rect.minX), y0 = Double(rect.minY), x1 = Double(rect.maxX), y1 = Double(rect.maxY)
        guard u >= x0, u <= x1, v >= y0, v <= y1 else { return false }
        func outside(_ cx: Double, _ cy: Double, _ r: Double) -> Bool {
            let dx = u - cx, dy = v - cy
            return dx * dx + dy * dy > r * r
        }
        if u < x0 + radii.0, v < y0 + radii.0, outside(x0 + radii.0, y0 + radii.0, radii.0) { return false }
        if u > x1 - radii.1, v < y0 + radii.1, outside(x1 - radii.1, y0 + radii.1, radii.1) { return false }
        if u < x0 + radii.2, v > y1 - radii.2, outside(x0 + radii.2, y1 - radii.2, radii.2) { return false }
        if u > x1 - radii.3, v > y1 - radii.3, outside(x1 - radii.3, y1 - radii.3, radii.3) { return false }
        return true
    }
}
