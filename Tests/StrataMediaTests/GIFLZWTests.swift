// GIF's LZW with per-pixel alternatives (GIFLZWEncoder), decoded back by a decoder written here
// from the GIF89a appendix: every pixel decodes to its primary index or to its alternative, and
// the positions reported as alternatives are exactly those. Small and large images (the table
// filling and clearing, or kept full to the end: a deferred clear), code sizes 2 and 8, images
// without alternatives, and the smallest code size for a set of indices. The coder (C's
// strata_gif_lzw_encode) is also compared byte for byte with a reference coder written here from
// the rules it documents (greedy, the alternative first when it repeats the last pixel).
@testable import StrataMedia
import XCTest

final class GIFLZWTests: XCTestCase {
    /// Clear codes met by the last `decode` (the first one included).
    private var clearsDecoded = 0

    /// Decodes sub-blocks of GIF LZW data at `minimumCodeSize` into indices. As decoders do, the
    /// table stops growing at 4 096 entries (a full table is kept until a clear code).
    private func decode(_ blocks: [UInt8], minimumCodeSize: Int) throws -> [Int] {
        clearsDecoded = 0
        var data: [UInt8] = []
        var i = 0
        while i < blocks.count {
            let n = Int(blocks[i])
            XCTAssertGreaterThan(n, 0, "no empty block inside the data")
            data += blocks[(i + 1)..<(i + 1 + n)]
            i += n + 1
        }
        let clear = 1 << minimumCodeSize, end = clear + 1
        var dictionary: [[Int]] = []
        func reset() { dictionary = (0..<clear).map { [$0] } + [[], []] }
        reset()
        var width = minimumCodeSize + 1, bitPosition = 0
        var out: [Int] = [], previous: [Int]? = nil
        while true {
            guard bitPosition + width <= data.count * 8 else { throw NSError(domain: "lzw", code: 1) }
            var code = 0
            for b in 0..<width where data[(bitPosition + b) / 8] >> UInt8((bitPosition + b) % 8) & 1 == 1 { code |= 1 << b }
            bitPosition += width
            if code == clear { reset(); width = minimumCodeSize + 1; previous = nil; clearsDecoded += 1; continue }
            if code == end { return out }
            let entry: [Int]
            if code < dictionary.count {
                entry = dictionary[code]
                if let previous, dictionary.count < 4096 { dictionary.append(previous + [entry[0]]) }
            } else {
                guard let previous, code == dictionary.count, code < 4096 else { throw NSError(domain: "lzw", code: 2) }
                entry = previous + [previous[0]]
                dictionary.append(entry)
            }
            out += entry
            previous = entry
            if dictionary.count == 1 << width, width < 12 { width += 1 }
        }
    }

    /// Encodes pseudo-random indices (a third of them with an alternative) and checks that they
    /// decode back; returns the output.
    @discardableResult
    private func check(count: Int, codeSize: Int, seed: UInt64, runs: Bool, clearsWhenFull: Bool = true,
                       withAlternatives: Bool = true) throws -> GIFLZWEncoder.Output {
        var state = seed
        func random(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(state >> 33) % n
        }
        let colours = 1 << codeSize
        var indices: [UInt8] = [], alternatives: [Int16] = []
        for _ in 0..<count {
            // Runs (flat graphics) or noise, a third of the pixels with an alternative.
            let value = runs ? (random(8) == 0 ? random(colours) : (indices.last.map(Int.init) ?? 0)) : random(colours)
            indices.append(UInt8(value))
            alternatives.append(random(3) == 0 ? Int16(random(colours)) : -1)
        }
        if !withAlternatives { alternatives = [] }
        var encoder = GIFLZWEncoder()
        let encoded = encoder.encode(indices, alternatives: alternatives, minimumCodeSize: codeSize,
                                     clearsWhenFull: clearsWhenFull)
        let decoded = try decode(encoded.blocks, minimumCodeSize: codeSize)
        XCTAssertEqual(decoded.count, count)
        let took = Set(encoded.tookAlternative.map(Int.init))
        for p in 0..<min(count, decoded.count) {
            if took.contains(p) {
                XCTAssertEqual(decoded[p], Int(alternatives[p]), "pixel \(p) reported as its alternative")
            } else {
                XCTAssertEqual(decoded[p], Int(indices[p]), "pixel \(p)")
            }
        }
        // A second image with the same encoder (the table's generation moves on).
        let again = encoder.encode(indices, alternatives: alternatives, minimumCodeSize: codeSize,
                                   clearsWhenFull: clearsWhenFull)
        XCTAssertEqual(again.blocks, encoded.blocks)
        if !withAlternatives { XCTAssertEqual(encoded.tookAlternative, []) }
        return encoded
    }

    func testSmallImages() throws {
        try check(count: 1, codeSize: 2, seed: 1, runs: false)
        try check(count: 7, codeSize: 2, seed: 2, runs: true)
        try check(count: 300, codeSize: 4, seed: 3, runs: true)
    }

    func testTheTableFillsClearsAndWidensCodes() throws {
        // Noise at 8 bits fills the 4 095 codes many times; runs make long strings.
        try check(count: 60_000, codeSize: 8, seed: 4, runs: false)
        try check(count: 60_000, codeSize: 6, seed: 5, runs: true)
        try check(count: 20_000, codeSize: 2, seed: 6, runs: false)
    }

    func testADeferredClearKeepsTheFullTable() throws {
        // Cleared when full: a clear code at the start and one each time the table fills.
        let cleared = try check(count: 60_000, codeSize: 8, seed: 7, runs: false)
        XCTAssertTrue(cleared.filledTable)
        XCTAssertGreaterThan(clearsDecoded, 1)
        // Kept: the only clear code is the first; the 12-bit codes go on matching the full table.
        let kept = try check(count: 60_000, codeSize: 8, seed: 7, runs: false, clearsWhenFull: false)
        XCTAssertTrue(kept.filledTable)
        XCTAssertEqual(clearsDecoded, 1)
        XCTAssertNotEqual(kept.blocks, cleared.blocks)
        try check(count: 40_000, codeSize: 3, seed: 8, runs: true, clearsWhenFull: false)
        try check(count: 30_000, codeSize: 2, seed: 9, runs: false, clearsWhenFull: false, withAlternatives: false)
        // A small image never fills the table, so both policies write the same bytes.
        let small = try check(count: 500, codeSize: 4, seed: 10, runs: true, clearsWhenFull: false)
        XCTAssertFalse(small.filledTable)
        XCTAssertEqual(small.blocks, try check(count: 500, codeSize: 4, seed: 10, runs: true).blocks)
    }

    func testImagesWithoutAlternatives() throws {
        try check(count: 1, codeSize: 2, seed: 11, runs: false, withAlternatives: false)
        try check(count: 5_000, codeSize: 5, seed: 12, runs: true, withAlternatives: false)
    }

    /// The greedy coder as documented, with a dictionary: codes, their widths and sub-blocks, and
    /// the positions written with their alternative.
    private func referenceEncode(_ indices: [UInt8], _ alternatives: [Int16], codeSize: Int,
                                 clearsWhenFull: Bool) -> (blocks: [UInt8], took: [Int], filled: Bool) {
        let clear = 1 << codeSize, end = clear + 1
        var table: [Int: Int] = [:]
        var next = end + 1, width = codeSize + 1
        var bytes: [UInt8] = [], accumulator = 0, bits = 0
        var took: [Int] = [], filled = false
        func put(_ code: Int) {
            accumulator |= code << bits
            bits += width
            while bits >= 8 { bytes.append(UInt8(accumulator & 0xFF)); accumulator >>= 8; bits -= 8 }
            if next >= 1 << width, width < 12 { width += 1 }
        }
        put(clear)
        var current = Int(indices[0]), last = current
        for p in 1..<indices.count {
            // The pixel's own index, and its alternative: first when it repeats the last pixel.
            var options: [(value: Int, isAlternative: Bool)] = [(Int(indices[p]), false)]
            let alternative = alternatives.isEmpty ? -1 : Int(alternatives[p])
            if alternative >= 0 {
                if alternative == last { options.insert((alternative, true), at: 0) } else { options.append((alternative, true)) }
            }
            if let hit = options.first(where: { table[current << 8 | $0.value] != nil }) {
                current = table[current << 8 | hit.value]!
                if hit.isAlternative { took.append(p) }
                last = hit.value
                continue
            }
            let symbol = options[0].value
            if options[0].isAlternative { took.append(p) }
            last = symbol
            put(current)
            if next >= 4095 {
                filled = true
                if clearsWhenFull { put(clear); table = [:]; next = end + 1; width = codeSize + 1 }
            } else {
                table[current << 8 | symbol] = next
                next += 1
            }
            current = symbol
        }
        put(current)
        put(end)
        if bits > 0 { bytes.append(UInt8(accumulator & 0xFF)) }
        var blocks: [UInt8] = []
        for start in Swift.stride(from: 0, to: bytes.count, by: 255) {
            let n = min(255, bytes.count - start)
            blocks.append(UInt8(n))
            blocks += bytes[start..<(start + n)]
        }
        return (blocks, took, filled)
    }

    func testTheCoderWritesTheReferenceCodesByteForByte() {
        var state: UInt64 = 42
        func random(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(state >> 33) % n
        }
        var encoder = GIFLZWEncoder()
        for (count, codeSize, runs) in [(1, 2, false), (2, 2, true), (700, 3, true), (30_000, 8, false), (50_000, 4, true),
                                        (25_000, 2, false)] {
            let colours = 1 << codeSize
            var indices: [UInt8] = [], alternatives: [Int16] = []
            for _ in 0..<count {
                let value = runs ? (random(6) == 0 ? random(colours) : (indices.last.map(Int.init) ?? 0)) : random(colours)
                indices.append(UInt8(value))
                // An alternative that often repeats the pixel before (an unchanged run).
                let alternative = random(3) == 0 ? (random(2) == 0 ? (indices.count > 1 ? Int(indices[indices.count - 2]) : 0)
                                                                   : random(colours)) : -1
                alternatives.append(Int16(alternative))
            }
            for clears in [true, false] {
                for withAlternatives in [true, false] {
                    let alts = withAlternatives ? alternatives : []
                    let coded = encoder.encode(indices, alternatives: alts, minimumCodeSize: codeSize, clearsWhenFull: clears)
                    let expected = referenceEncode(indices, alts, codeSize: codeSize, clearsWhenFull: clears)
                    let label = "\(count) pixels at \(codeSize) bits, clears \(clears), alternatives \(withAlternatives)"
                    XCTAssertEqual(coded.blocks, expected.blocks, label)
                    XCTAssertEqual(coded.tookAlternative.map(Int.init), expected.took, label)
                    XCTAssertEqual(coded.filledTable, expected.filled, label)
                }
            }
        }
    }

    func testAKnownImageCodesToKnownBytes() {
        // Four pixels 0 0 0 1 at code size 2: clear (4), 0, 6 (the string 0 0), 1 at 3 bits, then
        // end (5) at 4 bits (the table reached 8 entries): 4 | 0 << 3 | 6 << 6 | 1 << 9 | 5 << 12 =
        // 0x5384, one sub-block of two bytes.
        var encoder = GIFLZWEncoder()
        let coded = encoder.encode([0, 0, 0, 1], alternatives: [], minimumCodeSize: 2)
        XCTAssertEqual(coded.blocks, [2, 0x84, 0x53])
        XCTAssertFalse(coded.filledTable)
    }

    func testTheSmallestCodeSizeHoldsTheLargestIndex() {
        XCTAssertEqual(GIFLZWEncoder.minimumCodeSize(holding: 0), 2, "GIF's smallest code size is 2")
        XCTAssertEqual(GIFLZWEncoder.minimumCodeSize(holding: 3), 2)
        XCTAssertEqual(GIFLZWEncoder.minimumCodeSize(holding: 4), 3)
        XCTAssertEqual(GIFLZWEncoder.minimumCodeSize(holding: 31), 5)
        XCTAssertEqual(GIFLZWEncoder.minimumCodeSize(holding: 32), 6)
        XCTAssertEqual(GIFLZWEncoder.minimumCodeSize(holding: 255), 8)
    }
}
