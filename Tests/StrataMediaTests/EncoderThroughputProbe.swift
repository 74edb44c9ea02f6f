// The encoder stage alone, for Benchmarks/media/encode_throughput.sh: with STRATA_RAW_FRAMES set
// (a file of raw RGBA frames, STRATA_RAW_SIZE=WxH), encodes them with the default H.264 options
// and prints frames per second; skipped otherwise. Frames are read into memory first, so only
// conversion and encoding are timed, as for the `ffmpeg -f rawvideo` peer.
import Foundation
import XCTest
import StrataMedia

final class EncoderThroughputProbe: XCTestCase {
    func testEncodeRawFrames() throws {
        let env = ProcessInfo.processInfo.environment
        guard let path = env["STRATA_RAW_FRAMES"], let size = env["STRATA_RAW_SIZE"] else {
            throw XCTSkip("set STRATA_RAW_FRAMES and STRATA_RAW_SIZE to time the encoder")
        }
        let parts = size.split(separator: "x").compactMap { Int($0) }
        let (w, h) = (parts[0], parts[1])
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let n = data.count / (w * h * 4)
        let frames = (0..<n).map { k in Bitmap(width: w, height: h, pixels: [UInt8](data[(k * w * h * 4)..<((k + 1) * w * h * 4)])) }
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("strata-encoder-probe.mp4")
        let started = Date()
        let encoder = try VideoEncoder(url: out, format: .mp4, width: w, height: h, frameRate: FrameRate(numerator: 30)!)
        for f in frames { try encoder.append(f) }
        try encoder.finish()
        let seconds = Date().timeIntervalSince(started)
        XCTAssertGreaterThan(n, 0, "no whole frame of \(w)×\(h) in \(path)")
        XCTAssertEqual(encoder.frameCount, n)
        let bytes = (try? FileManager.default.attributesOfItem(atPath: out.path)[.size] as? Int) ?? 0
        XCTAssertGreaterThan(bytes, 0, "the probe wrote no video")
        print("ENCODER-ONLY \(n) frames in \(String(format: "%.2f", seconds)) s: \(String(format: "%.1f", Double(n) / seconds)) frames/s")
        try? FileManager.default.removeItem(at: out)
    }
}
