// GIF's LZW compression for an image in which some pixels may be written with either of two
// indices: a pixel that did not change since the last frame shows the same whether it is
// transparent or written with its own colour, so the encoder may pick, pixel by pixel, whichever
// continues the string it is matching (the choice gifsicle's optimiser makes). Greedy: at each
// pixel the string goes on with whichever index extends it, the alternative tried first when it
// repeats the pixel before. The code stream is GIF's variable-width
// LZW (GIF89a appendix F): a clear code first, codes widening as the table grows (one code late,
// as decoders expect), end-of-information last, bits packed from the least significant end, in
// sub-blocks of at most 255 bytes. When the table is full (4 095 codes) it is either cleared (a
// clear code, the table starts again) or kept as it is for the rest of the image (a deferred
// clear, which the appendix allows: decoders stop adding entries at 4 096 and go on with
// 12-bit codes); on the example tapes' text pages a full table keeps matching well, so keeping
// it saves 1–3 % (`clearsWhenFull`; `GIFEncoder` tries both when the table fills).
// Measured too, and not kept: the longest match over every combination of alternatives (no
// smaller than the greedy choice on the example tapes) and one-step lookahead parsing ("flexible
// parsing", 20–40 % larger: GIF's dictionary is built from the parse itself, so shorter strings
// make a poorer table).
import Foundation

/// An LZW encoder for GIF images with per-pixel alternatives; reusable from image to image.
struct GIFLZWEncoder {
    /// One slot per (prefix code, next index): the code of that string, tagged with the
    /// generation it was made in (so a clear is a generation step, not a 4 MB wipe).
    private var table = [UInt32](repeating: 0, count: 4096 * 256)
    private var generation: UInt32 = 0

    /// The result of `encode`.
    struct Output {
        /// The image data as written after the code-size byte: sub-blocks, each its length then
        /// its bytes, without the terminating empty block.
        var blocks: [UInt8]
        /// Pixel positions (in the image) written with their alternative index.
        var tookAlternative: [Int]
        /// Whether the table filled up (so the other `clearsWhenFull` choice codes differently).
        var filledTable: Bool
    }

    /// The smallest GIF minimum code size (2...8) that holds `index`.
    static func minimumCodeSize(holding index: Int) -> Int {
        var size = 2
        while 1 << size <= index { size += 1 }
        return size
    }

    /// Encodes `indices` (all below `1 << minimumCodeSize`). Where `alternatives[p] >= 0`, pixel p
    /// may be written as that index instead of `indices[p]` (an empty array: no alternatives).
    /// `clearsWhenFull`: a clear code when the table is full (as giflib does), else the full
    /// table is kept to the end of the image.
    mutating func encode(_ indices: [UInt8], alternatives: [Int16], minimumCodeSize: Int,
                         clearsWhenFull: Bool = true) -> Output {
        precondition((alternatives.isEmpty || indices.count == alternatives.count) && !indices.isEmpty
                     && (2...8).contains(minimumCodeSize))
        let hasAlternatives = !alternatives.isEmpty
        var filled = false
        let clear = 1 << minimumCodeSize, end = clear + 1
        var next = end + 1, width = minimumCodeSize + 1, limit = 1 << width
        var writer = BitWriter()
        var took: [Int] = []
        startGeneration()
        var generation = self.generation
        defer { self.generation = generation }

        // Writes `code` at the current width, then widens when the codes made so far no longer
        // fit (after the write: a decoder adds each entry one code later than the encoder).
        func put(_ code: Int) {
            writer.append(code, bits: width)
            if next >= limit, width < 12 { width += 1; limit <<= 1 }
        }

        // The loop reads the pixels and the table through pointers: array accesses with their
        // bounds checks and the table's uniqueness check on every insert were a third of its
        // instructions (the same codes).
        table.withUnsafeMutableBufferPointer { table in
            indices.withUnsafeBufferPointer { indices in
                alternatives.withUnsafeBufferPointer { alternatives in
                    @inline(__always) func lookup(_ prefix: Int, _ index: Int) -> Int? {
                        let entry = table[prefix << 8 | index]
                        return entry >> 12 == generation ? Int(entry & 0xFFF) : nil
                    }
                    put(clear)
                    var current = Int(indices[0])
                    var lastSymbol = current
                    for p in 1..<indices.count {
                        var primary = Int(indices[p]), alternative = hasAlternatives ? Int(alternatives[p]) : -1
                        // The alternative is tried first when it repeats the last pixel written (a
                        // run goes on); measured on the example tapes, this beats trying either one
                        // first always.
                        var swapped = false
                        if alternative >= 0, alternative == lastSymbol {
                            swap(&primary, &alternative)
                            swapped = true
                        }
                        if let code = lookup(current, primary) {
                            current = code
                            if swapped { took.append(p) }
                            lastSymbol = primary
                            continue
                        }
                        if alternative >= 0, let code = lookup(current, alternative) {
                            current = code
                            if !swapped { took.append(p) }
                            lastSymbol = alternative
                            continue
                        }
                        if swapped { took.append(p) }
                        lastSymbol = primary
                        put(current)
                        if next >= 4095 {
                            filled = true
                            if clearsWhenFull {
                                put(clear)
                                next = end + 1
                                width = minimumCodeSize + 1
                                limit = 1 << width
                                generation = Self.nextGeneration(after: generation, wiping: table)
                            }
                        } else {
                            table[current << 8 | primary] = generation << 12 | UInt32(next)
                            next += 1
                        }
                        current = primary
                    }
                    put(current)
                    put(end)
                }
            }
        }
        return Output(blocks: writer.subBlocks(), tookAlternative: took, filledTable: filled)
    }

    /// The generation after `generation`; past 2²⁰ − 1 the table is wiped and it starts at 1.
    private static func nextGeneration(after generation: UInt32, wiping table: UnsafeMutableBufferPointer<UInt32>) -> UInt32 {
        guard generation + 1 >= 1 << 20 else { return generation + 1 }
        table.update(repeating: 0)
        return 1
    }

    private mutating func startGeneration() {
        let g = generation
        generation = table.withUnsafeMutableBufferPointer { Self.nextGeneration(after: g, wiping: $0) }
    }

    /// Codes packed from the least significant bit.
    private struct BitWriter {
        var bytes: [UInt8] = []
        var accumulator: UInt64 = 0
        var count = 0

        mutating func append(_ code: Int, bits: Int) {
            accumulator |= UInt64(code) << UInt64(count)
            count += bits
            while count >= 8 {
                bytes.append(UInt8(truncatingIfNeeded: accumulator))
                accumulator >>= 8
                count -= 8
            }
        }

        /// The bytes (the last one padded with zero bits) cut into length-prefixed sub-blocks.
        mutating func subBlocks() -> [UInt8] {
            if count > 0 { bytes.append(UInt8(truncatingIfNeeded: accumulator)); accumulator = 0; count = 0 }
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count + bytes.count / 255 + 1)
            var start = 0
            while start < bytes.count {
                let n = min(255, bytes.count - start)
                out.append(UInt8(n))
                out.append(contentsOf: bytes[start..<(start + n)])
                start += n
            }
            return out
        }
    }
}
