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

/// Colour statistics of the pixels seen so far: a 64³ histogram with per-bin sums, and the exact
/// colours with their counts while there are few of them (flat graphics: the palette is then cut
/// from the true colours rather than from bin means).
struct ColorStatistics {
    static let bins = 64 * 64 * 64
    /// Distinct colours that still make an exact palette.
    static let exactLimit = 256
    /// Distinct colours counted exactly before falling back to the histogram alone.
    static let exactTrackLimit = 4096

    private(set) var counts = [Int](repeating: 0, count: bins)
    private(set) var sums = [Int](repeating: 0, count: bins * 3)
    /// The occupied bins, in the order first seen.
    private(set) var occupied: [Int32] = []
    /// The distinct colours and their pixel counts, or nil once there were more than
    /// `exactTrackLimit`.
    private(set) var exactCounts: [UInt32: Int]? = [:]

    /// The distinct colours, or nil when there are more than `exactLimit`.
    var exactColors: Set<UInt32>? {
        guard let exactCounts, exactCounts.count <= Self.exactLimit else { return nil }
        return Set(exactCounts.keys)
    }

    /// Empties the statistics, keeping the buffers (clearing only the occupied bins: a fresh 8 MB
    /// histogram per frame cost more in page faults than the palette itself, measured).
    mutating func reset() {
        for bin in occupied {
            let b = Int(bin)
            counts[b] = 0
            sums[b * 3] = 0; sums[b * 3 + 1] = 0; sums[b * 3 + 2] = 0
        }
        occupied.removeAll(keepingCapacity: true)
        exactCounts = [:]
    }

    /// Adds every non-transparent pixel of `region`. A run of pixels of one colour (transparent
    /// pixels skipped) is added at once: the same counts, sums and first-seen order as a pixel
    /// at a time, with one histogram update a run (flat graphics are mostly runs; measured on
    /// rlottie's gears.json at 1080p: 1.21 G instructions for 10 frames, 0.55 G after).
    mutating func add(_ region: FrameRegion) {
        let n = region.width * region.height
        var exact = exactCounts
        var runPacked: UInt32 = .max
        var run = 0
        var occupied = self.occupied
        defer { self.occupied = occupied }
        region.rgb.withUnsafeBufferPointer { rgb in
            counts.withUnsafeMutableBufferPointer { counts in
                sums.withUnsafeMutableBufferPointer { sums in
                    @inline(__always) func flush() {
                        guard run > 0 else { return }
                        let r = Int(runPacked >> 16), g = Int(runPacked >> 8 & 0xFF), b = Int(runPacked & 0xFF)
                        let bin = (r >> 2) << 12 | (g >> 2) << 6 | (b >> 2)
                        if counts[bin] == 0 { occupied.append(Int32(bin)) }
                        counts[bin] += run
                        sums[bin * 3] += r * run
                        sums[bin * 3 + 1] += g * run
                        sums[bin * 3 + 2] += b * run
                        if exact != nil { exact![runPacked, default: 0] += run }
                    }
                    let skipsTransparent = !region.transparent.isEmpty
                    region.transparent.withUnsafeBufferPointer { transparent in
                        for p in 0..<n {
                            if skipsTransparent, transparent[p] { continue }
                            let packed = UInt32(rgb[p * 3]) << 16 | UInt32(rgb[p * 3 + 1]) << 8 | UInt32(rgb[p * 3 + 2])
                            if packed != runPacked {
                                flush()
                                runPacked = packed
                                run = 0
                                if exact != nil, exact!.count > Self.exactTrackLimit { exact = nil }
                            }
                            run += 1
                        }
                    }
                    flush()
                }
            }
        }
        exactCounts = exact
    }
}
