// What a GIF palette is built from: a frame's pixels and their colour statistics.
import Foundation
import CStrataGIF

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
        if let unchanged, !keepTransparency {
            // Differencing: each pixel is either unchanged (transparent) or its colour over
            // black, cut by C's loop (`strata_gif_cut_region`; the same region as the general
            // loop below).
            rgb.withUnsafeMutableBufferPointer { out in
                transparent.withUnsafeMutableBufferPointer { flags in
                    anyTransparent = strata_gif_cut_region(pixels.baseAddress!, unchanged.baseAddress!, stride, x, y, width, height,
                                                           out.baseAddress!, flags.baseAddress!) != 0
                }
            }
            self.rgb = rgb
            self.transparent = anyTransparent ? transparent : []
            return
        }
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
        region.rgb.withUnsafeBufferPointer { rgb in
            if region.transparent.isEmpty {
                addRuns(count: n, isTransparent: { _ in false }) { p in
                    UInt32(rgb[p * 3]) << 16 | UInt32(rgb[p * 3 + 1]) << 8 | UInt32(rgb[p * 3 + 2])
                }
            } else {
                region.transparent.withUnsafeBufferPointer { transparent in
                    addRuns(count: n, isTransparent: { transparent[$0] }) { p in
                        UInt32(rgb[p * 3]) << 16 | UInt32(rgb[p * 3 + 1]) << 8 | UInt32(rgb[p * 3 + 2])
                    }
                }
            }
        }
    }

    /// Adds every pixel of premultiplied RGBA `pixels` as its colour over black (what a whole-frame
    /// `FrameRegion` without kept transparency holds), without making the region: the same
    /// statistics as `add(FrameRegion(…, keepTransparency: false))`.
    mutating func add(rgba pixels: UnsafeBufferPointer<UInt8>) {
        let n = pixels.count / 4
        guard n > 0 else { return }
        // C's loop (`strata_gif_statistics_runs`: runs of one colour found eight pixels at a time
        // with AVX2) fills the bins; it stops at a pixel whose cell has no slot yet (given one
        // here) and hands over the runs for the exact counts in batches. The same statistics as
        // `addRuns`: the exact counts take the same runs in the same order, and the check that
        // ends them comes before each run is counted, as at each colour change there.
        var exact = exactCounts
        var occupied = self.occupied, bins = self.bins
        self.occupied = []; self.bins = []
        defer { self.occupied = occupied; self.bins = bins }
        let capacity = 4096
        var runColors = [UInt32](repeating: 0, count: exact != nil ? capacity : 0)
        var runLengths = [Int](repeating: 0, count: exact != nil ? capacity : 0)
        var p = 0
        while p < n {
            var status: Int32 = 0, runCount = 0
            let tracking = exact != nil
            p = bins.withUnsafeMutableBufferPointer { bins in
                slots.withUnsafeBufferPointer { slots in
                    runColors.withUnsafeMutableBufferPointer { colors in
                        runLengths.withUnsafeMutableBufferPointer { lengths in
                            strata_gif_statistics_runs(pixels.baseAddress!, p, n, slots.baseAddress!, bins.baseAddress,
                                                       tracking ? colors.baseAddress : nil, lengths.baseAddress, capacity,
                                                       &runCount, &status, 1)
                        }
                    }
                }
            }
            if tracking {
                for i in 0..<runCount {
                    if exact!.count > Self.exactTrackLimit { exact = nil; break }
                    exact![runColors[i], default: 0] += runLengths[i]
                }
            }
            if status == 1 {
                let word = UInt32(littleEndian: UnsafeRawPointer(pixels.baseAddress!).loadUnaligned(fromByteOffset: p * 4, as: UInt32.self))
                let packed = (word & 0xFF) << 16 | (word & 0xFF00) | (word >> 16 & 0xFF)
                let cell = Int(packed >> 18) << 12 | Int(packed >> 10 & 0x3F) << 6 | Int(packed >> 2 & 0x3F)
                slots[cell] = Int32(occupied.count)
                occupied.append(Int32(cell))
                bins.append(contentsOf: repeatElement(0, count: 32))
            }
        }
        exactCounts = exact
    }

    /// Adds `count` pixels, pixel p packed RGB `color(p)` unless `isTransparent(p)`. Runs of one
    /// colour are added at once — a bin gains the run's length and its length times each channel,
    /// the exact counts the run (the same sums as pixel by pixel, and the same dictionary updates
    /// in the same order: a run of one colour was one update before too) — so flat graphics cost
    /// a comparison a pixel (measured: the colour statistics were a quarter of the instructions
    /// of a 1080p GIF export of rlottie's gears.json, a third of them the bins' uniqueness checks).
    /// `runLength(p)`, when given, is the length of the run of pixel p's colour that starts at p
    /// (no transparent pixel in it), found faster than colour by colour.
    @inline(__always)
    private mutating func addRuns(count n: Int, isTransparent: (Int) -> Bool, color: (Int) -> UInt32,
                                  runLength: ((Int) -> Int)? = nil) {
        var exact = exactCounts
        var lastPacked: UInt32 = .max
        var run = 0
        // Moved out while they grow, so that appending does not copy them.
        var occupied = self.occupied, bins = self.bins
        self.occupied = []; self.bins = []
        defer { self.occupied = occupied; self.bins = bins }
        var p = 0
        // The bins are reached through a pointer; a pixel in a cell not seen yet leaves the loop,
        // the cell gets its slot (the bins grow), and the loop goes on from that pixel.
        while p < n {
            var newCell = -1
            bins.withUnsafeMutableBufferPointer { bins in
                slots.withUnsafeMutableBufferPointer { slots in
                    while p < n {
                        if isTransparent(p) { p += 1; continue }
                        let packed = color(p)
                        let cell = Int(packed >> 18) << 12 | Int(packed >> 10 & 0x3F) << 6 | Int(packed >> 2 & 0x3F)
                        let slot = Int(slots[cell])
                        if slot < 0 { newCell = cell; return }
                        var length = 1
                        if let runLength {
                            length = runLength(p)
                        } else {
                            while p + length < n, !isTransparent(p + length), color(p + length) == packed { length += 1 }
                        }
                        let r = Int(packed >> 16), g = Int(packed >> 8 & 0xFF), b = Int(packed & 0xFF)
                        let base = (slot &* 8 &+ ((r & 2) << 1 | (g & 2) | (b & 2) >> 1)) &* 4
                        bins[base] &+= length
                        bins[base + 1] &+= r &* length
                        bins[base + 2] &+= g &* length
                        bins[base + 3] &+= b &* length
                        if exact != nil {
                            if packed != lastPacked {
                                if run > 0 { exact![lastPacked, default: 0] += run }
                                lastPacked = packed
                                run = 0
                                if exact!.count > Self.exactTrackLimit { exact = nil }
                            }
                            run += length
                        }
                        p += length
                    }
                }
            }
            if newCell >= 0 {
                slots[newCell] = Int32(occupied.count)
                occupied.append(Int32(newCell))
                bins.append(contentsOf: repeatElement(0, count: 32))
            }
        }
        if exact != nil, run > 0 { exact![lastPacked, default: 0] += run }
        exactCounts = exact
    }
}
