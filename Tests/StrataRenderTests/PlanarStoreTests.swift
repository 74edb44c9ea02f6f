// The planar store (CStrataKernels/store_kernel.h): premultiplied float planes to RGBA8 words.
// Every instantiation (scalar, SSE2, AVX2 where the CPU has it) must give the words of the
// plain formula for any input, including those no compositing should produce: NaN, −0, values
// below 0 or above 1, colours above alpha.
import XCTest
import CStrataKernels
import StrataTestSupport

final class PlanarStoreTests: XCTestCase {
    /// strata_store_rgba8's arithmetic, one pixel: alpha clamped to 0…1, colour to 0…alpha, NaN
    /// to 0, each channel floor(255·v + ½).
    private func reference(_ r: Float, _ g: Float, _ b: Float, _ a: Float) -> UInt32 {
        func clamp(_ v: Float, _ hi: Float) -> Float { v >= 0 ? (v > hi ? hi : v) : 0 }
        let av = clamp(a, 1)
        func byte(_ v: Float) -> UInt32 { UInt32(Int32(v * 255 + 0.5)) }
        return byte(clamp(r, av)) | byte(clamp(g, av)) << 8 | byte(clamp(b, av)) << 16 | byte(av) << 24
    }

    func testEveryInstantiationStoresThePlainFormula() {
        let odd: [Float] = [.nan, -.nan, -0.0, 0, -1e-30, 1e-30, -1, 0.5, 0.49999997, 0.5000001, 1, 1.0000001, 2, 255,
                            .infinity, -.infinity, 0.0019607844, 0.0019607842, 1.0 / 3]
        var rng = SplitMix(seed: 5)
        // 4 planes of 203 values (not a multiple of the lanes, so the scalar tail runs too).
        let n = 203
        var planes = (0..<4).map { _ in (0..<n).map { _ in odd[Int.random(in: 0..<odd.count, using: &rng)] } }
        // Some ordinary premultiplied pixels as well.
        for i in stride(from: 0, to: n, by: 3) {
            let a = Float.random(in: 0...1, using: &rng)
            planes[3][i] = a
            for c in 0..<3 { planes[c][i] = a * Float.random(in: 0...1, using: &rng) }
        }
        let expected = (0..<n).map { reference(planes[0][$0], planes[1][$0], planes[2][$0], planes[3][$0]) }
        let lanes = kernelInstantiations()
        for l in lanes {
            var out = [UInt32](repeating: 0xDEADBEEF, count: n)
            strata_store_planar_rgba8(planes[0], planes[1], planes[2], planes[3], &out, n, l)
            for i in 0..<n where out[i] != expected[i] {
                XCTFail("lanes \(l.rawValue), pixel \(i) (\(planes[0][i]), \(planes[1][i]), \(planes[2][i]), \(planes[3][i])): "
                        + "\(String(out[i], radix: 16)) instead of \(String(expected[i], radix: 16))")
            }
        }
    }
}
