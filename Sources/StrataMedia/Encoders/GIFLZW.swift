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
import CStrataGIF

/// An LZW encoder for GIF images with per-pixel alternatives; reusable from image to image.
struct GIFLZWEncoder {
    /// The strings' codes, open-addressed by (prefix code, next index), each slot tagged with the
    /// generation it was made in (so a clear is a generation step, not a wipe); 64 KB, so that
    /// it stays in the caches (a direct table of 4 096 × 256 slots took 4 MB a coder).
    private var table = [UInt64](repeating: 0, count: Int(STRATA_LZW_TABLE_ENTRIES))
    private var generation: UInt32 = 0

    /// The result of `encode`.
    struct Output {
        /// The image data as written after the code-size byte: sub-blocks, each its length then
        /// its bytes, without the terminating empty block.
        var blocks: [UInt8]
        /// Pixel positions (in the image) written with their alternative index, increasing.
        var tookAlternative: [Int32]
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
    ///
    /// The loop is C's (`strata_gif_lzw_encode`, CStrataGIF): in Swift its appends (codes' bytes,
    /// positions taken) and the nested writer's captured state cost a uniqueness or exclusivity
    /// check for nearly every code (measured, 10 frames of rlottie's gears.json to a 1080p GIF:
    /// 1.27 G instructions in the loop; the same codes).
    mutating func encode(_ indices: [UInt8], alternatives: [Int16], minimumCodeSize: Int,
                         clearsWhenFull: Bool = true) -> Output {
        precondition((alternatives.isEmpty || indices.count == alternatives.count) && !indices.isEmpty
                     && (2...8).contains(minimumCodeSize))
        precondition(indices.count < Int(Int32.max), "positions are 32-bit")
        let count = indices.count, hasAlternatives = !alternatives.isEmpty
        var result = strata_lzw_result()
        var took: [Int32] = []
        let generation = self.generation
        let blocks = [UInt8](unsafeUninitializedCapacity: strata_gif_lzw_capacity(count)) { out, written in
            took = [Int32](unsafeUninitializedCapacity: hasAlternatives ? count : 0) { positions, taken in
                table.withUnsafeMutableBufferPointer { table in
                    indices.withUnsafeBufferPointer { indices in
                        alternatives.withUnsafeBufferPointer { alternatives in
                            result = strata_gif_lzw_encode(indices.baseAddress!, hasAlternatives ? alternatives.baseAddress : nil, count,
                                                           Int32(minimumCodeSize), clearsWhenFull ? 1 : 0, table.baseAddress!,
                                                           generation, out.baseAddress!, positions.baseAddress)
                        }
                    }
                }
                taken = result.took
            }
            written = result.bytes
        }
        self.generation = result.generation
        return Output(blocks: blocks, tookAlternative: took, filledTable: result.filledTable != 0)
    }
}
