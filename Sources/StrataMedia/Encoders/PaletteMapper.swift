// Maps pixels onto a palette for the GIF encoder, with optional dithering. Nearest colours are
// found in the quantisation space (sRGB values by default, or Oklab) and cached on a 128³ grid of
// RGB cells; exact palettes (few-colour images) are mapped by direct lookup so flat colours stay
// flat. Floyd–Steinberg diffuses half of the quantisation error (in sRGB values, serpentine scan
// order; see `diffusionStrength`); ordered dithering adds an 8×8 Bayer threshold scaled to the
// palette's spacing. Both are deterministic.
import Foundation
import CStrataGIF

/// A palette ready for mapping pixels to indices.
final class PaletteMapper {
    /// The palette's colours; indices refer to this array.
    let colors: [RGB8]
    /// The colours packed (r << 16 | g << 8 | b), for the C kernels.
    private let packedColors: [UInt32]
    private let search: NearestColorSearch
    private let exactIndex: [UInt32: UInt8]?
    /// Every palette colour and its (first) index, and a 2²⁴-bit set of them for a quick test:
    /// pixels that are exactly a palette colour keep it (flat areas stay flat, no error is
    /// diffused from them), whatever the nearest-colour cache's 7-bit cells would say. The
    /// colours are in an open-addressed table of `PaletteTable.slots` slots (a multiplicative
    /// hash, linear probing): the same answers as a dictionary without hashing a key through
    /// SipHash (measured: a 1080p GIF export of rlottie's confetti.json spent 2 % of its
    /// instructions in the dictionary's hasher).
    private let paletteTable: PaletteTable
    private var paletteBits: [UInt64]
    private var cache: [Int16] = []
    private let space: GIFEncoderOptions.QuantizationSpace
    /// The share of the quantisation error Floyd–Steinberg passes on. Measured on the GIF
    /// benchmark clips: 0.5 scores +0.02…0.03 SSIM and +1…2 dB PSNR over full strength (full
    /// strength adds more high-frequency noise than the banding it removes), and compresses better.
    static let diffusionStrength: Float = 0.5
    /// Typical distance between neighbouring palette colours, in 0...255 units (ordered dithering).
    private let spacing: Float

    /// A mapper for `colors` (at most 256). With `isExact`, pixels are expected to be palette
    /// colours and are looked up directly (others still get the nearest colour).
    /// `recycling` hands over the lookup buffers of a mapper that is no longer used (local
    /// palettes, frame after frame): clearing them is much cheaper than fresh pages.
    init(colors: [RGB8], isExact: Bool, space: GIFEncoderOptions.QuantizationSpace = .srgb, recycling old: PaletteMapper? = nil) {
        precondition(!colors.isEmpty && colors.count <= 256)
        self.colors = colors
        self.packedColors = colors.map(\.packed)
        self.space = space
        let lab = colors.map { c -> (Float, Float, Float) in
            let v = PaletteBuilder.coordinates(Double(c.r), Double(c.g), Double(c.b), in: space)
            return (Float(v.0), Float(v.1), Float(v.2))
        }
        search = NearestColorSearch(colors: lab)
        if isExact {
            var index: [UInt32: UInt8] = [:]
            for (i, c) in colors.enumerated() where index[c.packed] == nil { index[c.packed] = UInt8(i) }
            exactIndex = index
        } else {
            exactIndex = nil
        }
        var bits: [UInt64]
        if let old, !old.cache.isEmpty {
            swap(&cache, &old.cache)
            cache.withUnsafeMutableBufferPointer { $0.update(repeating: -1) }
            bits = []
            swap(&bits, &old.paletteBits)
            for c in old.colors { bits[Int(c.packed >> 6)] = 0 }
        } else {
            cache = [Int16](repeating: -1, count: 128 * 128 * 128)
            bits = [UInt64](repeating: 0, count: (1 << 24) / 64)
        }
        spacing = Self.meanNeighbourDistance(colors)
        var table = PaletteTable()
        for (i, c) in colors.enumerated() where table.index(of: c.packed) == nil {
            table.insert(c.packed, index: UInt8(i))
            bits[Int(c.packed >> 6)] |= 1 << UInt64(c.packed & 63)
        }
        paletteTable = table
        paletteBits = bits
    }

    /// Up to 256 packed colours and their indices, open-addressed.
    struct PaletteTable {
        static let slots = 1024
        /// Per slot, the packed colour (24 bits) or `empty`.
        private var keys = [UInt32](repeating: empty, count: slots)
        private var values = [UInt8](repeating: 0, count: slots)
        private static let empty = UInt32.max

        @inline(__always)
        private static func slot(_ packed: UInt32) -> Int { Int((packed &* 0x9E37_79B1) >> 22) }

        /// The index stored for `packed`, else nil.
        @inline(__always)
        func index(of packed: UInt32) -> Int? {
            keys.withUnsafeBufferPointer { keys in
                var s = Self.slot(packed)
                while true {
                    let key = keys[s]
                    if key == packed { return Int(values[s]) }
                    if key == Self.empty { return nil }
                    s = (s + 1) & (Self.slots - 1)
                }
            }
        }

        /// The keys and values, for the C lookups (`strata_gif_palette`).
        func withPointers<R>(_ body: (UnsafePointer<UInt32>, UnsafePointer<UInt8>) -> R) -> R {
            keys.withUnsafeBufferPointer { keys in values.withUnsafeBufferPointer { body(keys.baseAddress!, $0.baseAddress!) } }
        }

        /// Stores `index` for `packed` (not yet in the table; at most 256 colours).
        mutating func insert(_ packed: UInt32, index: UInt8) {
            var s = Self.slot(packed)
            while keys[s] != Self.empty { s = (s + 1) & (Self.slots - 1) }
            keys[s] = packed
            values[s] = index
        }
    }

    /// The palette index of a colour that is exactly in the palette, else nil.
    @inline(__always)
    func exactPaletteIndex(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Int? {
        let packed = UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
        guard (paletteBits[Int(packed >> 6)] >> UInt64(packed & 63)) & 1 != 0 else { return nil }
        return paletteTable.index(of: packed)
    }

    /// `exactPaletteIndex` remembering its last colour: runs of one colour (flat graphics) look
    /// the palette up once (the dictionary lookup a pixel was 7 % of a 1080p GIF export of
    /// rlottie's gears.json); the same answers.
    struct LastExactIndex {
        private var packed: UInt32 = .max
        private var found: Int?

        @inline(__always)
        mutating func index(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ mapper: PaletteMapper) -> Int? {
            let key = UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
            if key != packed {
                packed = key
                found = mapper.exactPaletteIndex(r, g, b)
            }
            return found
        }
    }

    /// The index of the palette colour nearest to an sRGB colour with channels in 0...255.
    @inline(__always)
    func nearest(_ r: Float, _ g: Float, _ b: Float) -> Int {
        let ri = Int(r) >> 1, gi = Int(g) >> 1, bi = Int(b) >> 1
        let key = ri << 14 | gi << 7 | bi
        let cached = cache[key]
        if cached >= 0 { return Int(cached) }
        let lab = PaletteBuilder.coordinates(Double(ri * 2) + 0.5, Double(gi * 2) + 0.5, Double(bi * 2) + 0.5, in: space)
        let found = search.nearest(Float(lab.0), Float(lab.1), Float(lab.2))
        cache[key] = Int16(found)
        return found
    }

    /// The palette index of the nearest colour for the cache cell (ri, gi, bi) (each channel
    /// halved), without storing it: what `nearest` stores for the cell.
    private func searchCell(_ ri: Int, _ gi: Int, _ bi: Int) -> Int {
        let lab = PaletteBuilder.coordinates(Double(ri * 2) + 0.5, Double(gi * 2) + 0.5, Double(bi * 2) + 0.5, in: space)
        return search.nearest(Float(lab.0), Float(lab.1), Float(lab.2))
    }

    /// Calls `body` with the palette as the C kernels look colours up (`strata_gif_palette`):
    /// `exactPaletteIndex`, else `nearest` through the same cache, which they fill as `nearest`
    /// does. The mapper must not be used otherwise during `body`. Its `search` reads only
    /// constants (`searchCell`), so the kernels may call it from two threads at once.
    func withCPalette<R>(_ body: (UnsafeMutablePointer<strata_gif_palette>) -> R) -> R {
        let search: @convention(c) (UnsafeMutableRawPointer?, Int32, Int32, Int32) -> Int32 = { context, ri, gi, bi in
            let mapper = Unmanaged<PaletteMapper>.fromOpaque(context!).takeUnretainedValue()
            return Int32(mapper.searchCell(Int(ri), Int(gi), Int(bi)))
        }
        let context = Unmanaged.passUnretained(self).toOpaque()
        return packedColors.withUnsafeBufferPointer { colors in
            paletteBits.withUnsafeBufferPointer { bits in
                paletteTable.withPointers { keys, values in
                    cache.withUnsafeMutableBufferPointer { cache in
                        var palette = strata_gif_palette(bits: bits.baseAddress!, tableKeys: keys, tableValues: values,
                                                         tableShift: Int32(32 - PaletteTable.slots.trailingZeroBitCount),
                                                         tableMask: Int32(PaletteTable.slots - 1), cache: cache.baseAddress!,
                                                         colors: colors.baseAddress!, context: context, search: search)
                        return withExtendedLifetime(self) { body(&palette) }
                    }
                }
            }
        }
    }

    /// One palette index per pixel of `region`; transparent pixels get `transparentIndex`.
    /// `strength` scales the dithering (nil: the default, `diffusionStrength` for Floyd–Steinberg
    /// and the palette's spacing for ordered dithering; 1 is full strength).
    func map(_ region: FrameRegion, dithering: GIFEncoderOptions.Dithering, strength: Double? = nil,
             transparentIndex: UInt8) -> [UInt8] {
        if let exactIndex { return mapExact(region, exactIndex, transparentIndex) }
        switch dithering {
        case .none: return mapOrdered(region, amplitude: 0, transparentIndex)
        case .ordered: return mapOrdered(region, amplitude: spacing * Float(strength ?? 1), transparentIndex)
        // (`GIFEncoder` resolves `.automatic` per interval; given here, it diffuses.)
        case .floydSteinberg, .automatic: return mapFloydSteinberg(region, strength: strength.map(Float.init) ?? Self.diffusionStrength, transparentIndex)
        }
    }

    private func mapExact(_ region: FrameRegion, _ index: [UInt32: UInt8], _ transparentIndex: UInt8) -> [UInt8] {
        let n = region.width * region.height
        var out = [UInt8](repeating: 0, count: n)
        var lastPacked: UInt32 = .max
        var lastIndex: UInt8 = 0
        for p in 0..<n {
            if !region.transparent.isEmpty, region.transparent[p] { out[p] = transparentIndex; continue }
            let r = region.rgb[p * 3], g = region.rgb[p * 3 + 1], b = region.rgb[p * 3 + 2]
            let packed = UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
            if packed != lastPacked {
                lastPacked = packed
                lastIndex = index[packed] ?? UInt8(nearest(Float(r), Float(g), Float(b)))
            }
            out[p] = lastIndex
        }
        return out
    }

    /// The 8×8 Bayer matrix, values 0...63.
    private static let bayer: [Float] = {
        var m = [Float](repeating: 0, count: 64)
        for y in 0..<8 {
            for x in 0..<8 {
                // Interleave the bits of x XOR y and y (most significant first).
                let v = x ^ y
                var value = 0
                for bit in 0..<3 {
                    value |= ((v >> bit) & 1) << (5 - 2 * bit)
                    value |= ((y >> bit) & 1) << (4 - 2 * bit)
                }
                m[y * 8 + x] = Float(value)
            }
        }
        return m
    }()

    private func mapOrdered(_ region: FrameRegion, amplitude: Float, _ transparentIndex: UInt8) -> [UInt8] {
        let w = region.width, h = region.height
        if amplitude == 0 {
            // No dither: each pixel's exact index, else its nearest colour — C's loop
            // (`strata_gif_map_nearest`), the same indices as the loop below at amplitude 0.
            return [UInt8](unsafeUninitializedCapacity: w * h) { out, written in
                region.rgb.withUnsafeBufferPointer { rgb in
                    region.transparent.withUnsafeBufferPointer { transparent in
                        withCPalette { palette in
                            strata_gif_map_nearest(rgb.baseAddress, transparent.isEmpty ? nil : transparent.baseAddress, w * h,
                                                   transparentIndex, palette, out.baseAddress)
                        }
                    }
                }
                written = w * h
            }
        }
        var out = [UInt8](repeating: 0, count: w * h)
        let bayer = Self.bayer
        var exact = LastExactIndex()
        region.rgb.withUnsafeBufferPointer { rgb in
            out.withUnsafeMutableBufferPointer { out in
                for y in 0..<h {
                    for x in 0..<w {
                        let p = y * w + x
                        if !region.transparent.isEmpty, region.transparent[p] { out[p] = transparentIndex; continue }
                        if let i = exact.index(rgb[p * 3], rgb[p * 3 + 1], rgb[p * 3 + 2], self) { out[p] = UInt8(i); continue }
                        let offset = amplitude == 0 ? 0 : ((bayer[(y & 7) * 8 + (x & 7)] + 0.5) / 64 - 0.5) * amplitude
                        let r = min(255, max(0, Float(rgb[p * 3]) + offset))
                        let g = min(255, max(0, Float(rgb[p * 3 + 1]) + offset))
                        let b = min(255, max(0, Float(rgb[p * 3 + 2]) + offset))
                        out[p] = UInt8(nearest(r, g, b))
                    }
                }
            }
        }
        return out
    }

    private func mapFloydSteinberg(_ region: FrameRegion, strength k: Float, _ transparentIndex: UInt8) -> [UInt8] {
        let w = region.width, h = region.height
        // C's loop (`strata_gif_map_diffused`): the same operations in the same order in single
        // precision, so the same indices as `referenceFloydSteinberg` below (GIFKernelTests).
        return [UInt8](unsafeUninitializedCapacity: w * h) { out, written in
            region.rgb.withUnsafeBufferPointer { rgb in
                region.transparent.withUnsafeBufferPointer { transparent in
                    withCPalette { palette in
                        strata_gif_map_diffused(rgb.baseAddress, transparent.isEmpty ? nil : transparent.baseAddress, w, h,
                                                transparentIndex, k, palette, out.baseAddress)
                    }
                }
            }
            written = w * h
        }
    }

    /// Floyd–Steinberg in Swift, as it was before `strata_gif_map_diffused`: kept for the tests,
    /// which compare the two.
    func referenceFloydSteinberg(_ region: FrameRegion, strength k: Float, _ transparentIndex: UInt8) -> [UInt8] {
        let w = region.width, h = region.height
        var out = [UInt8](repeating: 0, count: w * h)
        // Error rows with one pixel of padding on each side, 3 floats per pixel.
        var current = [Float](repeating: 0, count: (w + 2) * 3)
        var next = current
        let palette = colors.map { (Float($0.r), Float($0.g), Float($0.b)) }
        var exact = LastExactIndex()
        region.rgb.withUnsafeBufferPointer { rgb in
            out.withUnsafeMutableBufferPointer { out in
                for y in 0..<h {
                    let forward = y % 2 == 0
                    let step = forward ? 3 : -3
                    for i in next.indices { next[i] = 0 }
                    current.withUnsafeMutableBufferPointer { cur in
                        next.withUnsafeMutableBufferPointer { nxt in
                            for s in 0..<w {
                                let x = forward ? s : w - 1 - s
                                let p = y * w + x
                                let e = (x + 1) * 3
                                if !region.transparent.isEmpty, region.transparent[p] {
                                    out[p] = transparentIndex
                                    continue
                                }
                                if let i = exact.index(rgb[p * 3], rgb[p * 3 + 1], rgb[p * 3 + 2], self) {
                                    out[p] = UInt8(i)
                                    continue
                                }
                                let r = min(255, max(0, Float(rgb[p * 3]) + cur[e]))
                                let g = min(255, max(0, Float(rgb[p * 3 + 1]) + cur[e + 1]))
                                let b = min(255, max(0, Float(rgb[p * 3 + 2]) + cur[e + 2]))
                                let index = nearest(r, g, b)
                                out[p] = UInt8(index)
                                let chosen = palette[index]
                                // 7/16 ahead, 3/16 behind-below, 5/16 below, 1/16 ahead-below.
                                let er = (r - chosen.0) * k, eg = (g - chosen.1) * k, eb = (b - chosen.2) * k
                                cur[e + step] += er * 0.4375
                                cur[e + step + 1] += eg * 0.4375
                                cur[e + step + 2] += eb * 0.4375
                                nxt[e - step] += er * 0.1875
                                nxt[e - step + 1] += eg * 0.1875
                                nxt[e - step + 2] += eb * 0.1875
                                nxt[e] += er * 0.3125
                                nxt[e + 1] += eg * 0.3125
                                nxt[e + 2] += eb * 0.3125
                                nxt[e + step] += er * 0.0625
                                nxt[e + step + 1] += eg * 0.0625
                                nxt[e + step + 2] += eb * 0.0625
                            }
                        }
                    }
                    swap(&current, &next)
                }
            }
        }
        return out
    }

    private static func meanNeighbourDistance(_ colors: [RGB8]) -> Float {
        guard colors.count > 1 else { return 0 }
        var total: Float = 0
        for (i, c) in colors.enumerated() {
            var best = Float.infinity
            for (j, d) in colors.enumerated() where j != i {
                let dr = Float(c.r) - Float(d.r), dg = Float(c.g) - Float(d.g), db = Float(c.b) - Float(d.b)
                best = min(best, dr * dr + dg * dg + db * db)
            }
            total += best.squareRoot()
        }
        return min(48, max(2, total / Float(colors.count)))
    }
}
