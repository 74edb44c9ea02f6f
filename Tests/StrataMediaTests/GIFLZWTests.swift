// GIF's LZW with per-pixel alternatives (GIFLZWEncoder), decoded back by a decoder written here
// from the GIF89a appendix: every pixel decodes to its primary index or to its alternative, and
// the positions reported as alternatives are exactly those. Small and large images (the table
// filling and clearing), code sizes 2 and 8.
@testable import StrataMedia
import XCTest

final class GIFLZWTests: XCTestCase {
    /// Decodes sub-blocks of GIF LZW data at `minimumCodeSize` into indices.
    private func decode(_ blocks: [UInt8], minimumCodeSize: Int) throws -> [Int] {
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
            if code == clear { reset(); width = minimumCodeSize + 1; previous = nil; continue }
            if code == end { return out }
            let entry: [Int]
            if code < dictionary.count {
                entry = dictionary[code]
                if let previous { dictionary.append(previous + [entry[0]]) }
            } else {
                guard let previous, code == dictionary.count else { throw NSError(domain: "lzw", code: 2) }
                entry = previous + [previous[0]]
                dictionary.append(entry)
            }
            out += entry
            previous = entry
            if dictionary.count == 1 << width, width < 12 { width += 1 }
        }
    }

    private func check(count: Int, codeSize: Int, seed: UInt64, runs: Bool) throws {
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
        var encoder = GIFLZWEncoder()
        let encoded = encoder.encode(indices, alternatives: alternatives, minimumCodeSize: codeSize)
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
        let again = encoder.encode(indices, alternatives: alternatives, minimumCodeSize: codeSize)
        XCTAssertEqual(again.blocks, encoded.blocks)
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
}
