// What a GIF palette is built from: a frame's pixels and their colour statistics.
import Foundation

/// The pixels a palette is built from or mapped onto: a rectangle of a frame as packed RGB, plus
/// which pixels are transparent when transparency is kept.
struct FrameRegion {
    let width: Int
    let height: Int
    /// 3 bytes per pixel.
    var rgb: [UInt8]
    /// One flag per pixel; empty when the region has no transparent pixels.
    var transparent: [Bool]

    /// Cuts `rect` out of premultiplied RGBA `pixels` (row length `stride` pixels). With
    /// `keepTransparency`, pixels with alpha < 128 are marked transparent and the others are
    /// un-premultiplied; otherwise the premultiplied colour (the pixel over black) is used. Pixels
    /// flagged in `unchanged` (one flag per pixel of the whole frame) are marked transparent too,
    /// so that the previous frame shows through them.
    init(pixels: UnsafeBufferPointer<UInt8>, stride: Int, x: Int, y: Int, width: Int, height: Int,
         keepTransparency: Bool, unchanged: UnsafeBufferPointer<Bool>? = nil) {
        self.width = width
        self.height = height
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        var transparent: [Bool] = []
        var anyTransparent = false
        if keepTransparency || unchanged != nil { transparent = [Bool](repeating: false, count: width * height) }
        rgb.withUnsafeMutableBufferPointer { out in
            for row in 0..<height {
                var s = ((y + row) * stride + x) * 4
                var d = row * width * 3
                for column in 0..<width {
                    let a = Int(pixels[s + 3])
                    if let unchanged, unchanged[s >> 2] {
                        transparent[row * width + column] = true
                        anyTransparent = true
                    } else if keepTransparency, a < 255 {
                        if a < 128 {
                            transparent[row * width + column] = true
                            anyTransparent = true
                        } else {
                            for c in 0..<3 { out[d + c] = UInt8(min(255, (Int(pixels[s + c]) * 255 + a / 2) / a)) }
                        }
                    } else {
                        out[d] = pixels[s]; out[d + 1] = pixels[s + 1]; out[d + 2] = pixels[s + 2]
                    }
                    s += 4
                    d += 3
                }
            }
        }
        self.rgb = rgb
        self.transparent = anyTransparent ? transparent : []
    }
}

/// Colour statistics of the pixels seen so far: a 128³ histogram (2 levels a bin per channel)
/// with per-bin counts and sums, and the exact colours with their counts while there are few of
/// them (flat graphics: the palette is then cut from the true colours rather than from bin
/// means).
///
/// The histogram is stored in two levels so that its memory follows the colours seen rather than
/// the 2 million bins: a 64³ table of cells (4 levels a side) names, for each occupied cell, a
/// slot of its 2×2×2 bins. Measured on the title card (docs/performance.md, issue 49): its first
/// frame's 1 118 colours fall into 104 bins of 64³ but 316 of 128³; cut from 64³ bins its palette
/// banded the dark gradient.
struct ColorStatistics {
    /// Cells of the first level: 64 per channel.
    static let cells = 64 * 64 * 64
    /// Values per bin in each channel (128 bins per channel).
    static let binWidth = 2
    /// Distinct colours that still make an exact palette.
    static let exactLimit = 256
    /// Distinct colours counted exactly before falling back to the histogram alone.
    static let exactTrackLimit = 4096

    /// Per cell: its slot in `bins`, or -1 while empty.
    private var slots = [Int32](repeating: -1, count: cells)
    /// Per slot, its 8 bins (index: bit 2 red, bit 1 green, bit 0 blue, the second-lowest bit of
    /// each channel), each as pixel count and red, green and blue sums: 32 values a slot.
    private var bins: [Int] = []
    /// The occupied cells, in the order first seen (slot i belongs to `occupied[i]`).
    private var occupied: [Int32] = []
    /// The distinct colours and their pixel counts, or nil once there were more than
    /// `exactTrackLimit`.
    private(set) var exactCounts: [UInt32: Int]? = [:]

    /// The distinct colours, or nil when there are more than `exactLimit`.
    var exactColors: Set<UInt32>? {
        guard let exactCounts, exactCounts.count <= Self.exactLimit else { return nil }
        return Set(exactCounts.keys)
    }

    /// The number of occupied 128³ bins.
    var occupiedBinCount: Int {
        var n = 0
        for i in Swift.stride(from: 0, to: bins.count, by: 4) where bins[i] > 0 { n += 1 }
        return n
    }

    /// Calls `body` with each occupied bin's pixel count and mean colour (0...255 per channel),
    /// in a fixed order (by cell, then by bin within the cell) whatever order the pixels came in.
    func forEachBin(_ body: (_ count: Int, _ r: Double, _ g: Double, _ b: Double) -> Void) {
        for slot in occupied.indices.sorted(by: { occupied[$0] < occupied[$1] }) {
            for bin in 0..<8 {
                let base = (slot * 8 + bin) * 4
                let count = bins[base]
                guard count > 0 else { continue }
                let c = Double(count)
                body(count, Double(bins[base + 1]) / c, Double(bins[base + 2]) / c, Double(bins[base + 3]) / c)
            }
        }
    }

    /// Empties the statistics, keeping the buffers (clearing only the occupied cells: a fresh
    /// histogram per frame cost more in page faults than the palette itself, measured).
    mutating func reset() {
        for cell in occupied { slots[Int(cell)] = -1 }
        occupied.removeAll(keepingCapacity: true)
        bins.removeAll(keepingCapacity: true)
        exactCounts = [:]
    }

    /// Adds every non-transparent pixel of `region`.
    mutating func add(_ region: FrameRegion) {
        let n = region.width * region.height
        var exact = exactCounts
        var lastPacked: UInt32 = .max
        var run = 0
        // Moved out while they grow, so that appending does not copy them.
        var occupied = self.occupied, bins = self.bins
        self.occupied = []; self.bins = []
        defer { self.occupied = occupied; self.bins = bins }
        region.rgb.withUnsafeBufferPointer { rgb in
            slots.withUnsafeMutableBufferPointer { slots in
                for p in 0..<n {
                    if !region.transparent.isEmpty, region.transparent[p] { continue }
                    let r = Int(rgb[p * 3]), g = Int(rgb[p * 3 + 1]), b = Int(rgb[p * 3 + 2])
                    let cell = (r >> 2) << 12 | (g >> 2) << 6 | (b >> 2)
                    var slot = Int(slots[cell])
                    if slot < 0 {
                        slot = occupied.count
                        slots[cell] = Int32(slot)
                        occupied.append(Int32(cell))
                        bins.append(contentsOf: repeatElement(0, count: 32))
                    }
                    let base = (slot &* 8 &+ ((r & 2) << 1 | (g & 2) | (b & 2) >> 1)) &* 4
                    bins[base] &+= 1
                    bins[base + 1] &+= r
                    bins[base + 2] &+= g
                    bins[base + 3] &+= b
                    if exact != nil {
                        let packed = UInt32(r << 16 | g << 8 | b)
                        if packed != lastPacked {
                            if run > 0 { exact![lastPacked, default: 0] += run }
                            lastPacked = packed
                            run = 0
                            if exact!.count > Self.exactTrackLimit { exact = nil }
                        }
                        run += 1
                    }
                }
            }
        }
        if exact != nil, run > 0 { exact![lastPacked, default: 0] += run }
        exactCounts = exact
    }
}
