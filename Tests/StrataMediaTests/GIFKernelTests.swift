// The GIF encoder's C kernels (CStrataGIF): palette lookups, mapping without dither and the
// "held against the display" differencing, against reference implementations written here on
// random images — eight pixels at a time (AVX2, where the CPU has it) and one at a time give the
// same masks, answers and rectangles — and a small case worked by hand.
import CStrataGIF
@testable import StrataMedia
import XCTest

final class GIFKernelTests: XCTestCase {
    /// A palette as the kernels read it, with its lookups' storage; the nearest colour of a cache
    /// cell is found by brute force (sRGB, the cell's centre, ties to the lower index).
    private final class Palette {
        let colors: [UInt32]
        var bits = [UInt64](repeating: 0, count: (1 << 24) / 64)
        var keys = [UInt32](repeating: .max, count: 1024)
        var values = [UInt8](repeating: 0, count: 1024)
        var cache = [Int16](repeating: -1, count: 128 * 128 * 128)

        init(_ colors: [UInt32]) {
            self.colors = colors
            for (i, c) in colors.enumerated() where bits[Int(c >> 6)] >> UInt64(c & 63) & 1 == 0 {
                bits[Int(c >> 6)] |= 1 << UInt64(c & 63)
                var s = Int((c &* 0x9E37_79B1) >> 22)
                while keys[s] != .max { s = (s + 1) & 1023 }
                keys[s] = c
                values[s] = UInt8(i)
            }
        }

        func nearest(cell ri: Int, _ gi: Int, _ bi: Int) -> Int {
            let r = Float(ri * 2) + 0.5, g = Float(gi * 2) + 0.5, b = Float(bi * 2) + 0.5
            var best = Float.infinity, index = 0
            for (i, c) in colors.enumerated() {
                let dr = Float(c >> 16) - r, dg = Float((c >> 8) & 0xFF) - g, db = Float(c & 0xFF) - b
                let d = dr * dr + dg * dg + db * db
                if d < best { best = d; index = i }
            }
            return index
        }

        /// What the kernels should answer for a colour: its first index when it is a palette
        /// colour, else its cell's nearest.
        func index(_ r: Int, _ g: Int, _ b: Int) -> Int {
            colors.firstIndex(of: UInt32(r << 16 | g << 8 | b)) ?? nearest(cell: r >> 1, g >> 1, b >> 1)
        }

        func with<R>(_ body: (UnsafeMutablePointer<strata_gif_palette>) -> R) -> R {
            let search: @convention(c) (UnsafeMutableRawPointer?, Int32, Int32, Int32) -> Int32 = { context, ri, gi, bi in
                Int32(Unmanaged<Palette>.fromOpaque(context!).takeUnretainedValue().nearest(cell: Int(ri), Int(gi), Int(bi)))
            }
            let context = Unmanaged.passUnretained(self).toOpaque()
            return colors.withUnsafeBufferPointer { colors in
                bits.withUnsafeBufferPointer { bits in
                    keys.withUnsafeBufferPointer { keys in
                        values.withUnsafeBufferPointer { values in
                            cache.withUnsafeMutableBufferPointer { cache in
                                var palette = strata_gif_palette(bits: bits.baseAddress, tableKeys: keys.baseAddress,
                                                                 tableValues: values.baseAddress, tableShift: 22, tableMask: 1023,
                                                                 cache: cache.baseAddress, colors: colors.baseAddress,
                                                                 context: context, search: search)
                                return body(&palette)
                            }
                        }
                    }
                }
            }
        }
    }

    private var state: UInt64 = 7
    private func random(_ n: Int) -> Int {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Int(state >> 33) % n
    }

    private func randomPalette(_ n: Int) -> [UInt32] {
        var colors = (0..<n).map { _ in UInt32(random(1 << 24)) }
        colors[n - 1] = colors[3]  // a colour twice: the first index is its index
        return colors
    }

    func testLookupsAndMappingMatchTheReference() {
        let palette = Palette(randomPalette(40))
        var rgb: [UInt8] = [], transparent: [Bool] = [], expected: [UInt8] = []
        for p in 0..<5_000 {
            // Palette colours, colours near them, runs and noise.
            let c: UInt32
            switch random(4) {
            case 0: c = palette.colors[random(palette.colors.count)]
            case 1: c = palette.colors[random(palette.colors.count)] ^ UInt32(random(4))
            case 2: c = p > 0 ? UInt32(rgb[rgb.count - 3]) << 16 | UInt32(rgb[rgb.count - 2]) << 8 | UInt32(rgb[rgb.count - 1]) : 0
            default: c = UInt32(random(1 << 24))
            }
            rgb += [UInt8(c >> 16), UInt8((c >> 8) & 0xFF), UInt8(c & 0xFF)]
            let hole = random(9) == 0
            transparent.append(hole)
            expected.append(hole ? 200 : UInt8(palette.index(Int(c >> 16), Int((c >> 8) & 0xFF), Int(c & 0xFF))))
        }
        var out = [UInt8](repeating: 0, count: transparent.count)
        palette.with { p in
            for _ in 0..<2 {  // the second pass answers from the filled cache
                strata_gif_map_nearest(rgb, transparent, transparent.count, 200, p, &out)
                XCTAssertEqual(out, expected)
            }
            XCTAssertEqual(Int(strata_gif_palette_index(p, palette.colors[39] >> 16, (palette.colors[39] >> 8) & 0xFF,
                                                        palette.colors[39] & 0xFF)), 3, "a colour given twice maps to its first index")
        }
    }

    /// The rule as documented, pixel by pixel.
    private func referenceHeld(_ rgba: [UInt8], _ shown: [UInt32], _ answers: inout [UInt64], width: Int, height: Int,
                               slack: Int, _ palette: Palette) -> (mask: [Bool], bounds: [Int]?) {
        var mask = [Bool](repeating: false, count: width * height)
        var minX = width, minY = height, maxX = -1, maxY = -1
        for y in 0..<height {
            for x in 0..<width {
                let p = y * width + x
                let r = Int(rgba[p * 4]), g = Int(rgba[p * 4 + 1]), b = Int(rgba[p * 4 + 2]), d = shown[p]
                let question = UInt64(r) << 48 | UInt64(g) << 40 | UInt64(b) << 32 | UInt64(d)
                var held = false
                if d != .max {
                    if answers[p] & ~(1 << 63) == question {
                        held = answers[p] >> 63 == 1
                    } else {
                        let c = palette.colors[palette.index(r, g, b)]
                        let dr = Int(d >> 16) - r, dg = Int((d >> 8) & 0xFF) - g, db = Int(d & 0xFF) - b
                        let nr = Int(c >> 16) - r, ng = Int((c >> 8) & 0xFF) - g, nb = Int(c & 0xFF) - b
                        held = dr * dr + dg * dg + db * db <= nr * nr + ng * ng + nb * nb + slack
                        answers[p] = question | (held ? 1 << 63 : 0)
                    }
                }
                mask[p] = held
                if !held { minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y) }
            }
        }
        return (mask, maxX < 0 ? nil : [minX, minY, maxX, maxY])
    }

    func testHeldAgainstTheDisplayMatchesTheReferenceEightOrOnePixelsAtATimeOnOneOrTwoThreads() {
        let palette = Palette(randomPalette(24))
        let width = 61, height = 67, n = width * height
        var rgba = [UInt8](repeating: 255, count: n * 4), shown = [UInt32](repeating: 0, count: n)
        var answers = [UInt64](repeating: .max, count: n)
        for frame in 0..<4 {
            // Static areas (the same colour and screen as before: answered from `answers`, eight
            // at a time), changes, pixels showing nothing, and a frame with nothing changed.
            for p in 0..<n where frame == 0 || (frame < 3 && random(5) == 0) {
                let c = random(3) == 0 ? palette.colors[random(palette.colors.count)] : UInt32(random(1 << 24))
                rgba[p * 4] = UInt8(c >> 16); rgba[p * 4 + 1] = UInt8((c >> 8) & 0xFF); rgba[p * 4 + 2] = UInt8(c & 0xFF)
                shown[p] = random(40) == 0 ? .max
                    : random(2) == 0 ? palette.colors[palette.index(Int(c >> 16), Int((c >> 8) & 0xFF), Int(c & 0xFF))]
                    : UInt32(random(1 << 24))
            }
            if frame == 3 {
                // Everything held: the answers say so for every pixel showing something.
                for p in 0..<n where shown[p] == .max { shown[p] = 0 }
                for p in 0..<n {
                    answers[p] = UInt64(rgba[p * 4]) << 48 | UInt64(rgba[p * 4 + 1]) << 40 | UInt64(rgba[p * 4 + 2]) << 32
                        | UInt64(shown[p]) | 1 << 63
                }
            }
            var expectedAnswers = answers
            let expected = referenceHeld(rgba, shown, &expectedAnswers, width: width, height: height, slack: 2, palette)
            var results: [([Bool], [UInt64], [Int]?)] = []
            for (vector, threads): (Int32, Int32) in [(0, 1), (1, 1), (1, 2), (0, 2)] {
                var mask = [Bool](repeating: false, count: n), kernelAnswers = answers, bounds = [Int](repeating: 0, count: 4)
                let any = palette.with { p in
                    strata_gif_held_against_display(rgba, shown, &kernelAnswers, &mask, width, height, 2, p, &bounds, vector, threads)
                }
                results.append((mask, kernelAnswers, any != 0 ? bounds : nil))
            }
            for (i, result) in results.enumerated() {
                XCTAssertEqual(result.0, expected.mask, "frame \(frame), vector \(i)")
                XCTAssertEqual(result.1, expectedAnswers, "frame \(frame), vector \(i)")
                XCTAssertEqual(result.2, expected.bounds, "frame \(frame), vector \(i)")
            }
            if frame == 3 { XCTAssertNil(expected.bounds, "nothing changed") }
            answers = expectedAnswers
        }
    }

    func testHeldAgainstTheDisplayByHand() {
        // Black and white; the source (10, 10, 10) everywhere. Shown black: 300 levels² off, as
        // far as the palette's best (black), so held; shown white: changed; nothing shown: changed.
        let palette = Palette([0x000000, 0xFFFFFF])
        let rgba: [UInt8] = Array([[UInt8]](repeating: [10, 10, 10, 255], count: 4).joined())
        let shown: [UInt32] = [0x000000, 0xFFFFFF, .max, 0x000000]
        var answers = [UInt64](repeating: .max, count: 4), mask = [Bool](repeating: true, count: 4), bounds = [0, 0, 0, 0]
        let any = palette.with { strata_gif_held_against_display(rgba, shown, &answers, &mask, 4, 1, 2, $0, &bounds, 1, 2) }
        XCTAssertEqual(any, 1)
        XCTAssertEqual(mask, [true, false, false, true])
        XCTAssertEqual(bounds, [1, 0, 2, 0])
        XCTAssertEqual(answers[0], 10 << 48 | 10 << 40 | 10 << 32 | 1 << 63)
        XCTAssertEqual(answers[1], 10 << 48 | 10 << 40 | 10 << 32 | 0xFFFFFF)
        XCTAssertEqual(answers[2], .max, "no question asked where nothing is shown")
    }

    /// A frame of RGBA words: runs of one colour (a new colour one pixel in `runs`), and blocks
    /// the same as `previous`.
    private func randomFrame(_ n: Int, like previous: [UInt8]? = nil, colours: Int = 1 << 24, runs: Int = 6) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(n * 4)
        var colour = UInt32(random(colours))
        for p in 0..<n {
            // Blocks of 16 pixels as they were (static areas), the others new.
            if let previous, (p / 16) % 3 != 0 {
                out += previous[(p * 4)..<(p * 4 + 4)]
                continue
            }
            if random(runs) == 0 { colour = UInt32(random(colours)) }
            out += [UInt8(colour >> 16), UInt8((colour >> 8) & 0xFF), UInt8(colour & 0xFF), UInt8(random(2) == 0 ? 255 : random(256))]
        }
        return out
    }

    func testStatisticsFromRGBAMatchTheRegionsStatistics() {
        // `add(rgba:)` (C's runs) against `add(FrameRegion)` (the Swift runs it replaces), over
        // several frames: flat ones whose colours are counted exactly, then past the 4 096
        // colours where the exact counts stop.
        var fromWords = ColorStatistics(), fromRegions = ColorStatistics()
        let width = 97, height = 31
        for (frame, colours) in ([16, 300, 2_000] + [Int](repeating: 1 << 24, count: 8)).enumerated() {
            let pixels = randomFrame(width * height, colours: colours)
            pixels.withUnsafeBufferPointer { buffer in
                fromWords.add(rgba: buffer)
                fromRegions.add(FrameRegion(pixels: buffer, stride: width, x: 0, y: 0, width: width, height: height, keepTransparency: false))
            }
            var a: [[Double]] = [], b: [[Double]] = []
            fromWords.forEachBin { a.append([Double($0), $1, $2, $3]) }
            fromRegions.forEachBin { b.append([Double($0), $1, $2, $3]) }
            XCTAssertEqual(a, b, "frame \(frame)")
            XCTAssertEqual(fromWords.exactCounts, fromRegions.exactCounts, "frame \(frame)")
            XCTAssertEqual(fromWords.occupiedBinCount, fromRegions.occupiedBinCount)
        }
        XCTAssertNil(fromRegions.exactCounts, "more than 4 096 colours")
    }

    func testStatisticsRunsAndChangedRunsEightOrOneAtATime() {
        // Runs found eight pixels at a time (AVX2) or one at a time: the same bins and runs; and
        // the changed pixels' runs against the rule written out here.
        let n = 3_001
        let first = randomFrame(n, colours: 64, runs: 40), second = randomFrame(n, like: first, colours: 64, runs: 40)
        var results: [([Int], [UInt32], [Int])] = []
        for vector: Int32 in [0, 1] {
            var slots = [Int32](repeating: -1, count: 64 * 64 * 64), bins: [Int] = []
            var colours = [UInt32](repeating: 0, count: 50), lengths = [Int](repeating: 0, count: 50)
            var allColours: [UInt32] = [], allLengths: [Int] = []
            var p = 0
            while p < n {
                var status: Int32 = 0, count = 0
                p = strata_gif_statistics_runs(second, p, n, slots, &bins, &colours, &lengths, 50, &count, &status, vector)
                allColours += colours.prefix(count); allLengths += lengths.prefix(count)
                if status == 1 {
                    let r = Int(second[p * 4]), g = Int(second[p * 4 + 1]), b = Int(second[p * 4 + 2])
                    slots[(r >> 2) << 12 | (g >> 2) << 6 | b >> 2] = Int32(bins.count / 32)
                    bins += [Int](repeating: 0, count: 32)
                }
            }
            results.append((bins, allColours, allLengths))
        }
        XCTAssertEqual(results[0].0, results[1].0)
        XCTAssertEqual(results[0].1, results[1].1)
        XCTAssertEqual(results[0].2, results[1].2)
        XCTAssertEqual(results[0].2.reduce(0, +), n, "the runs cover the frame")

        // Changed runs, in batches of 7.
        var expected: [(UInt32, Int)] = []
        for p in 0..<n where first[(p * 4)..<(p * 4 + 4)] != second[(p * 4)..<(p * 4 + 4)] {
            let c = UInt32(second[p * 4]) << 16 | UInt32(second[p * 4 + 1]) << 8 | UInt32(second[p * 4 + 2])
            if let last = expected.last, last.0 == c { expected[expected.count - 1].1 += 1 } else { expected.append((c, 1)) }
        }
        for vector: Int32 in [0, 1] {
            for previousFrame in [true, false] {
                var want = expected
                if !previousFrame {
                    want = []
                    for p in 0..<n {
                        let c = UInt32(second[p * 4]) << 16 | UInt32(second[p * 4 + 1]) << 8 | UInt32(second[p * 4 + 2])
                        if let last = want.last, last.0 == c { want[want.count - 1].1 += 1 } else { want.append((c, 1)) }
                    }
                }
                var got: [(UInt32, Int)] = []
                var pendingColor = UInt32.max, pendingLength = 0, p = 0
                var colours = [UInt32](repeating: 0, count: 7), lengths = [Int](repeating: 0, count: 7)
                first.withUnsafeBytes { old in
                    second.withUnsafeBytes { now in
                        repeat {
                            var count = 0
                            p = strata_gif_changed_runs(now.baseAddress!.assumingMemoryBound(to: UInt32.self),
                                                        previousFrame ? old.baseAddress!.assumingMemoryBound(to: UInt32.self) : nil,
                                                        p, n, &pendingColor, &pendingLength, &colours, &lengths, 7, &count, vector)
                            for i in 0..<count { got.append((colours[i], lengths[i])) }
                        } while p < n
                    }
                }
                if pendingLength > 0 { got.append((pendingColor, pendingLength)) }
                XCTAssertEqual(got.map(\.0), want.map(\.0), "vector \(vector), previous \(previousFrame)")
                XCTAssertEqual(got.map(\.1), want.map(\.1), "vector \(vector), previous \(previousFrame)")
            }
        }
    }

    func testChangedRectMatchesTheChannelRuleEightOrOneAtATime() {
        let width = 45, height = 13, n = width * height
        let reference = randomFrame(n, colours: 256)
        var current = randomFrame(n, like: reference, colours: 256)
        // Small changes within and beyond a tolerance of 2.
        for p in Swift.stride(from: 0, to: n, by: 7) { current[p * 4 + 1] = UInt8(clamping: Int(reference[p * 4 + 1]) + random(5) - 2) }
        for tolerance: Int32 in [-1, 0, 2] {
            var expected = [Bool](repeating: false, count: n)
            var box: [Int]? = nil
            for y in 0..<height {
                for x in 0..<width {
                    let i = (y * width + x) * 4
                    let same = (0..<3).allSatisfy { abs(Int(reference[i + $0]) - Int(current[i + $0])) <= Int(tolerance) }
                    expected[y * width + x] = same
                    if !same {
                        box = box.map { [min($0[0], x), min($0[1], y), max($0[2], x), max($0[3], y)] } ?? [x, y, x, y]
                    }
                }
            }
            for vector: Int32 in [0, 1] {
                var mask = [Bool](repeating: false, count: n), bounds = [0, 0, 0, 0]
                let any = strata_gif_changed_rect(reference, current, &mask, width, height, tolerance, &bounds, vector)
                XCTAssertEqual(mask, expected, "tolerance \(tolerance), vector \(vector)")
                XCTAssertEqual(any != 0 ? bounds : nil, box, "tolerance \(tolerance), vector \(vector)")
            }
        }
    }

    func testFloydSteinbergInCMatchesTheSwiftLoop() {
        // Gradients (every pixel diffuses), palette colours (exact, nothing diffused) and holes,
        // at two strengths, against the Swift loop the C one replaced.
        let colors = (0..<48).map { _ in RGB8(r: UInt8(random(256)), g: UInt8(random(256)), b: UInt8(random(256))) }
        let width = 83, height = 29
        var pixels = [UInt8](repeating: 255, count: width * height * 4), unchanged = [Bool](repeating: false, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let p = y * width + x
                if random(5) == 0 {
                    let c = colors[random(colors.count)]
                    pixels[p * 4] = c.r; pixels[p * 4 + 1] = c.g; pixels[p * 4 + 2] = c.b
                } else {
                    pixels[p * 4] = UInt8(x * 3 % 256); pixels[p * 4 + 1] = UInt8((y * 9 + x) % 256); pixels[p * 4 + 2] = UInt8(random(256))
                }
                unchanged[p] = random(11) == 0
            }
        }
        let mapper = PaletteMapper(colors: colors, isExact: false)
        for holes in [false, true] {
            let region = pixels.withUnsafeBufferPointer { buffer in
                unchanged.withUnsafeBufferPointer {
                    FrameRegion(pixels: buffer, stride: width, x: 0, y: 0, width: width, height: height, keepTransparency: false,
                                unchanged: holes ? $0 : nil)
                }
            }
            for strength: Float in [0.5, 1] {
                let swift = mapper.referenceFloydSteinberg(region, strength: strength, 48)
                let c = mapper.map(region, dithering: .floydSteinberg, strength: Double(strength), transparentIndex: 48)
                XCTAssertEqual(c, swift, "holes \(holes), strength \(strength)")
                XCTAssertEqual(c.filter { $0 == 48 }.count, holes ? unchanged.filter { $0 }.count : 0)
            }
        }
    }

    func testTheRegionCutTheColoursUsedAndTheErrorSum() {
        // The cut: unchanged pixels flagged, the others' RGB bytes copied (a 3×2 rectangle at (1, 1)
        // of a 4×3 frame whose pixel p is (p, 2p, 3p)).
        let rgba: [UInt8] = (0..<12).flatMap { [UInt8($0), UInt8(2 * $0), UInt8(3 * $0), 255] }
        let unchanged = [false, false, false, false, false, true, false, false, false, false, true, false]
        var rgb = [UInt8](repeating: 0, count: 18), flags = [Bool](repeating: false, count: 6)
        XCTAssertEqual(strata_gif_cut_region(rgba, unchanged, 4, 1, 1, 3, 2, &rgb, &flags), 1)
        XCTAssertEqual(flags, [true, false, false, false, true, false])
        XCTAssertEqual(rgb, [0, 0, 0, 6, 12, 18, 7, 14, 21, 9, 18, 27, 0, 0, 0, 11, 22, 33])

        var used = [Bool](repeating: false, count: 256)
        strata_gif_mark_used([3, 3, 0, 255, 7], 5, &used)
        XCTAssertEqual((0..<256).filter { used[$0] }, [0, 3, 7, 255])

        // The error sum: black and white; (10, 10, 10) is 300 from black, (250, 250, 250) 75 from
        // white, a hole counts nothing: 300 + 300 + 75.
        let palette = Palette([0x000000, 0xFFFFFF])
        let pixels: [UInt8] = [10, 10, 10, 10, 10, 10, 99, 99, 99, 250, 250, 250]
        var counted = 0
        let sum = palette.with { strata_gif_squared_error(pixels, [false, false, true, false], 4, $0, &counted) }
        XCTAssertEqual(sum, 675)
        XCTAssertEqual(counted, 3)
    }

    /// SSIM's luminance term's loss between two colours, and the colours a flat palette's frames
    /// that it renders poorly get besides it: farthest first as that loss sees them, so a shade
    /// 3 levels above black counts for more than one 20 levels off white, or a half red.
    func testLuminanceLossAndTheFarthestColours() {
        XCTAssertEqual(GIFEncoder.luminanceLoss(RGB8(r: 9, g: 9, b: 9), RGB8(r: 9, g: 9, b: 9)), 0)
        // (3 − 0)² / (9 + 0 + 6.5025), three channels.
        XCTAssertEqual(GIFEncoder.luminanceLoss(RGB8(r: 3, g: 3, b: 3), RGB8(r: 0, g: 0, b: 0)), 27.0 / 15.5025, accuracy: 1e-12)
        // 20 levels off white: 400 / (235² + 255² + 6.5025) per channel, 0.0033 in all.
        let offWhite: Double = 3 * 400 / (235.0 * 235.0 + 255.0 * 255.0 + 6.5025)
        XCTAssertEqual(GIFEncoder.luminanceLoss(RGB8(r: 235, g: 235, b: 235), RGB8(r: 255, g: 255, b: 255)), offWhite, accuracy: 1e-12)
        let palette = [RGB8(r: 0, g: 0, b: 0), RGB8(r: 255, g: 255, b: 255)]
        let candidates = [RGB8(r: 235, g: 235, b: 235), RGB8(r: 255, g: 255, b: 255), RGB8(r: 3, g: 3, b: 3),
                          RGB8(r: 128, g: 0, b: 0), RGB8(r: 3, g: 3, b: 3)]
        XCTAssertEqual(GIFEncoder.farthest(from: palette, among: candidates, count: 3),
                       [RGB8(r: 3, g: 3, b: 3), RGB8(r: 3, g: 3, b: 3), RGB8(r: 128, g: 0, b: 0)],
                       "3 levels above black (1.74) before half-red (0.9996, off black in red only), the palette's own colour left out, ties in the candidates' order")
        XCTAssertEqual(GIFEncoder.farthest(from: palette, among: candidates, count: 9).count, 4)
        XCTAssertEqual(GIFEncoder.farthest(from: palette, among: candidates, count: 0), [])
    }
}
