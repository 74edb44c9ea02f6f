// Pixel comparison for reference-image tests and tools: per-channel differences, how many
// pixels exceed a tolerance, PSNR, and a difference image for failure reports.
import Foundation
import StrataCore

/// The result of comparing two bitmaps of the same size.
public struct ImageComparison: Sendable {
    /// Largest absolute difference of any channel of any pixel (0…255).
    public let maxChannelDifference: Int
    /// Pixels with some channel differing by more than the tolerance.
    public let pixelsOverTolerance: Int
    /// The per-channel difference (0…255) a pixel may have and still count as equal.
    public let tolerance: Int
    /// Peak signal-to-noise ratio over RGB in dB (infinity when identical).
    public let psnr: Double
    /// A visualisation: grey copy of the expected image with differing pixels in red.
    public let difference: Bitmap

    /// Compares `actual` with `expected` (nil when sizes differ).
    public init?(actual: Bitmap, expected: Bitmap, tolerance: Int) {
        guard actual.width == expected.width, actual.height == expected.height else { return nil }
        var maxDiff = 0, over = 0
        var se = 0.0
        var diff = Bitmap(width: expected.width, height: expected.height)
        let a = actual.pixels, e = expected.pixels
        for p in 0..<(expected.width * expected.height) {
            let i = p * 4
            var pm = 0
            for c in 0..<4 {
                let d = abs(Int(a[i + c]) - Int(e[i + c]))
                pm = max(pm, d)
                if c < 3 { se += Double(d * d) }
            }
            maxDiff = max(maxDiff, pm)
            if pm > tolerance {
                over += 1
                diff.pixels[i] = 255; diff.pixels[i + 1] = 0; diff.pixels[i + 2] = 0; diff.pixels[i + 3] = 255
            } else {
                let g = UInt8((Int(e[i]) + Int(e[i + 1]) + Int(e[i + 2])) / 6 + 64)
                diff.pixels[i] = g; diff.pixels[i + 1] = g; diff.pixels[i + 2] = g; diff.pixels[i + 3] = 255
            }
        }
        let mse = se / Double(max(1, expected.width * expected.height * 3))
        maxChannelDifference = maxDiff
        pixelsOverTolerance = over
        self.tolerance = tolerance
        psnr = mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
        difference = diff
    }

    /// A one-line JSON summary.
    public var json: String {
        "{\"maxChannelDifference\": \(maxChannelDifference), \"pixelsOverTolerance\": \(pixelsOverTolerance), \"tolerance\": \(tolerance), \"psnr\": \(psnr.isFinite ? String(format: "%.2f", psnr) : "\"inf\"")}"
    }
}
