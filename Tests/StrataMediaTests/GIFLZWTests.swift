// GIF's LZW with per-pixel alternatives (GIFLZWEncoder), decoded back by a decoder written here
// from the GIF89a appendix: every pixel decodes to its primary index or to its alternative, and
// the positions reported as alternatives are exactly those. Small and large images (the table
// filling and clearing, or kept full to the end: a deferred clear), code sizes 2 and 8, images
// without alternatives, and the smallest code size for a set of indices.
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
        let took = Set(encoded.tookAlternative)
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

    func testTheSmallestCodeSizeHoldsTheLargestIndex() {
        XCTAssertEqual(GIFLZWEncoder.minimumCodeSize(holding: 0), 2, "GIF's smallest code size is 2")
        XCTAssertEqual(GIFLZWEncoder.minimumCodeSize(holding: 3), 2)
        XCTAssertEqual(GIFLZWEncoder.minimumCodeSize(holding: 4), 3)
        XCTAssertEqual(GIFLZWEncoder.minimumCodeSize(holding: 31), 5)
        XCTAssertEqual(GIFLZWEncoder.minimumCodeSize(holding: 32), 6)
        XCTAssertEqual(GIFLZWEncoder.minimumCodeSize(holding: 255), 8)
    }
}
