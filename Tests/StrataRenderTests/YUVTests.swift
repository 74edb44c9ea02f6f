// The YUV 4:2:0 frames the tile workers write for the video encoder: the SIMD and scalar kernels
// give the same bytes, which are exactly the fixed-point BT.709 formula (luma of each pixel,
// chroma of each 2×2 block's mean colour); frames drawn tile by tile, with any tile size and
// worker count and with tiles copied from the previous frame, equal the whole frame converted at
// once; and the result stays within a stated distance of libswscale's conversion (FFmpeg's
// bicubic, accurate-rounding, bit-exact BT.709 path, which the encoder used before).
import XCTest
import StrataCore
import StrataTestSupport
@testable import StrataRender

final class YUVTests: XCTestCase {
    func randomBitmap(width: Int, height: Int, seed: UInt64) -> Bitmap {
        var rng = SplitMix(seed: seed)
        var b = Bitmap(width: width, height: height)
        for i in 0..<(width * height) {
            let a = Int.random(in: 0...255, using: &rng)
            b.pixels[i * 4] = UInt8(Int.random(in: 0...a, using: &rng)); b.pixels[i * 4 + 1] = UInt8(Int.random(in: 0...a, using: &rng))
            b.pixels[i * 4 + 2] = UInt8(Int.random(in: 0...a, using: &rng)); b.pixels[i * 4 + 3] = UInt8(a)
        }
        return b
    }

    /// The fixed-point formula, written out per sample.
    func reference(_ b: Bitmap) -> YUVFrame {
        var f = YUVFrame(width: b.width, height: b.height)
        func px(_ x: Int, _ y: Int) -> (Int, Int, Int) {
            let i = (y * b.width + x) * 4
            return (Int(b.pixels[i]), Int(b.pixels[i + 1]), Int(b.pixels[i + 2]))
        }
        for y in 0..<b.height { for x in 0..<b.width {
            let (r, g, bl) = px(x, y)
            f.y[y * b.width + x] = UInt8((11966 * r + 40254 * g + 4064 * bl + (16 << 16) + (1 << 15)) >> 16)
        } }
        for y in 0..<(b.height / 2) { for x in 0..<(b.width / 2) {
            var sr = 0, sg = 0, sb = 0
            for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] { let p = px(2 * x + dx, 2 * y + dy); sr += p.0; sg += p.1; sb += p.2 }
            f.u[y * (b.width / 2) + x] = UInt8((-6596 * sr - 22188 * sg + 28784 * sb + (128 << 18) + (1 << 17)) >> 18)
            f.v[y * (b.width / 2) + x] = UInt8((28784 * sr - 26145 * sg - 2639 * sb + (128 << 18) + (1 << 17)) >> 18)
        } }
        return f
    }

    func testKernelsMatchTheFormula() {
        for (w, h) in [(70, 34), (2, 2), (16, 4), (130, 10)] {
            let b = randomBitmap(width: w, height: h, seed: UInt64(w * 1000 + h))
            let expected = reference(b)
            XCTAssertEqual(YUVFrame(converting: b, simd: true), expected, "\(w)×\(h) SIMD")
            XCTAssertEqual(YUVFrame(converting: b, simd: false), expected, "\(w)×\(h) scalar")
        }
        // BT.709 limited range: black 16/128/128, white 235/128/128, pure primaries as tabulated.
        var b = Bitmap(width: 2, height: 2)
        for i in 0..<4 { b.pixels[i * 4] = 255; b.pixels[i * 4 + 3] = 255 }
        let red = YUVFrame(converting: b)
        XCTAssertEqual([red.y[0], red.u[0], red.v[0]], [63, 102, 240])
    }

    /// Tiles converted as they are drawn (and copied from the previous frame) give the frame
    /// converted whole, for every tile size and worker count.
    func testTilesGiveTheWholeFrame() {
        let root = canvas(200, 120, color(0.9, 0.95, 1))
        let card = box(CGRect(x: 30, y: 20, width: 100, height: 70), color(0.8, 0.2, 0.3, 0.8))
        card.cornerRadius = 11
        card.transform = CATransform3DMakeRotation(0.4, 0, 0, 1)
        root.addSublayer(card)
        let history = FrameHistory()
        for tile in [64, 16, 9] {
            for workers in [1, 2] {
                let renderer = FrameRenderer(width: 200, height: 120, options: RenderOptions(workers: workers, tileSize: tile).verifyingTiles, history: history)
                for angle in [0.4, 0.4, 0.7] {
                    card.transform = CATransform3DMakeRotation(CGFloat(angle), 0, 0, 1)
                    let (frame, yuv) = renderer.renderWithYUV(PresentationBuilder(time: 0).snapshotTree(of: root))
                    XCTAssertEqual(yuv, YUVFrame(converting: frame), "tile \(tile), workers \(workers), angle \(angle)")
                }
            }
        }
        XCTAssertGreaterThan(history.tileStatistics.reused, 0)
    }

    /// Against libswscale (ffmpeg, BT.709, limited range, bicubic, accurate rounding, full chroma
    /// input, bit-exact): luma within 1 level; chroma, which swscale filters with bicubic taps where
    /// Strata averages each 2×2 block, within 2 levels on average over a photo-like frame (larger
    /// only at sharp colour edges). Skipped without ffmpeg.
    func testCloseToSwscale() throws {
        let w = 96, h = 64
        var b = Bitmap(width: w, height: h)
        for y in 0..<h { for x in 0..<w {
            let i = (y * w + x) * 4
            b.pixels[i] = UInt8(128 + 100 * sin(Double(x) / 9)); b.pixels[i + 1] = UInt8(x * 255 / w)
            b.pixels[i + 2] = UInt8(y * 255 / h); b.pixels[i + 3] = 255
        } }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-yuv-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(b.pixels).write(to: dir.appendingPathComponent("in.rgba"))
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["ffmpeg", "-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgb0", "-s", "\(w)x\(h)", "-i", dir.appendingPathComponent("in.rgba").path,
                       "-vf", "scale=flags=bicubic+accurate_rnd+full_chroma_inp+bitexact:out_color_matrix=bt709:out_range=tv,format=yuv420p",
                       "-f", "rawvideo", dir.appendingPathComponent("out.yuv").path]
        do { try p.run() } catch { throw XCTSkip("no ffmpeg") }
        p.waitUntilExit()
        guard p.terminationStatus == 0, let out = try? Data(contentsOf: dir.appendingPathComponent("out.yuv")) else { throw XCTSkip("ffmpeg failed") }
        let ours = YUVFrame(converting: b)
        let s = [UInt8](out)
        let lumaMax = zip(ours.y, s[0..<(w * h)]).map { abs(Int($0) - Int($1)) }.max()!
        let chroma = zip(ours.u + ours.v, s[(w * h)...]).map { abs(Int($0) - Int($1)) }
        let chromaMean = Double(chroma.reduce(0, +)) / Double(chroma.count)
        XCTAssertLessThanOrEqual(lumaMax, 1)
        XCTAssertLessThanOrEqual(chromaMean, 2)
        print("YUV vs swscale: luma max \(lumaMax), chroma mean \(chromaMean), chroma max \(chroma.max()!)")
    }
}
